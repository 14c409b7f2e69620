"""Decks as data: the standard 52, the Decktet (cards of several suits) and dollar bills (copies)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from cardrules import DealError, RulesetError, load_ruleset
from cardrules.front.decks import load_deck
from conftest import RULESETS

DECKS = RULESETS / "decks"


def test_standard_deck_has_52_distinct_cards_in_four_suits() -> None:
    deck = load_deck(DECKS / "standard-52.yaml")
    assert len(deck) == 52 and len(set(deck.codes)) == 52
    assert Counter(c["suit"] for c in deck.cards) == {s: 13 for s in ("clubs", "diamonds", "hearts", "spades")}
    assert {c["color"] for c in deck.cards if c["suit"] in ("hearts", "diamonds")} == {"red"}
    assert deck.faces[deck.codes.index("QH")] == "Q♥" and deck.codes[0] == "AC"


def test_decktet_lists_every_card_with_its_suits_as_in_games_md() -> None:
    deck = load_deck(DECKS / "decktet.yaml")
    by_name = {c["name"]: c for c in deck.cards}
    assert len(deck) == 45
    assert Counter(c["kind"] for c in deck.cards) == {"ace": 6, "numeral": 24, "pawn": 4, "court": 4, "crown": 6,
                                                      "excuse": 1}
    basic = [c for c in deck.cards if c["kind"] in ("ace", "numeral", "crown")]
    assert len(basic) == 36
    assert by_name["Chance Meeting"]["suits"] == ["moons", "leaves"] and by_name["Chance Meeting"]["rank"] == 7
    assert by_name["Light Keeper"]["suits"] == ["suns", "waves", "knots"] and by_name["Light Keeper"]["rank"] == 10
    assert by_name["Windfall"] == {"name": "Windfall", "rank": 12, "kind": "crown", "suits": ["knots"], "copy": 1}
    assert by_name["Excuse"].get("rank") is None and by_name["Excuse"]["suits"] == []
    # Each suit is marked on eight of the numerals.
    for suit in ("moons", "suns", "waves", "leaves", "wyrms", "knots"):
        numerals = [c for c in deck.cards if c["kind"] == "numeral" and suit in c["suits"]]
        assert len(numerals) == 8
    assert len(set(deck.codes)) == 45


def test_decktet_faces_show_every_suit_of_a_card() -> None:
    deck = load_deck(DECKS / "decktet.yaml")
    assert deck.faces[deck.codes.index("Island")] == "Island 11 ☀≈♆"


def test_dollar_bills_are_eight_copies_of_six_values() -> None:
    deck = load_deck(DECKS / "dollar-bills.yaml")
    assert len(deck) == 48
    assert Counter(c["value"] for c in deck.cards) == {v: 8 for v in (1, 5, 10, 20, 50, 100)}
    assert sum(c["value"] for c in deck.cards) == 1488
    assert deck.faces[0] == "$1"


def test_a_deal_of_a_deck_with_copies_reads_repeated_codes() -> None:
    deck = load_deck(DECKS / "dollar-bills.yaml")
    order = deck.parse_order(" ".join(f"${v}" for v in (1, 5, 10, 20, 50, 100) for _ in range(8)))
    assert sorted(order) == list(range(48))
    with pytest.raises(DealError, match="appears more often than the deck holds it"):
        deck.parse_order("$1 " * 9)


def _variant(tmp_path: Path, deck: str) -> Path:
    (tmp_path / "klondike.yaml").write_text((RULESETS / "klondike.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    path = tmp_path / "v.yaml"
    path.write_text(f"extends: klondike\nruleset: v\ndeck:\n{deck}", encoding="utf-8")
    return path


def test_deck_copies_shuffles_that_many_decks_together_each_card_numbered_by_copy(tmp_path: Path) -> None:
    rules = load_ruleset(_variant(tmp_path, "  name: standard-52\n  copies: 2\n"))
    assert len(rules.deck) == 104 and Counter(rules.deck.codes) == Counter({code: 2 for code in set(rules.deck.codes)})
    assert sorted(card["copy"] for card, code in zip(rules.deck.cards, rules.deck.codes) if code == "QH") == [1, 2]
    game = rules.new_game(seed=4)
    assert sorted(c for pile in game.state.piles for c in pile) == list(range(104))
    assert len(game.state.piles[rules.zones["stock"].piles[0]]) == 104 - 28


def test_deck_copies_filtered_by_suit_gives_eight_decks_of_one_suit(tmp_path: Path) -> None:
    # Spider with one suit: 104 spades, eight of each rank.
    rules = load_ruleset(_variant(tmp_path, "  name: standard-52\n  copies: 8\n  where: \"card.suit == 'spades'\"\n"))
    assert len(rules.deck) == 104 and set(rules.deck.codes) == {r + "S" for r in "A23456789TJQK"}
    assert sorted(card["copy"] for card, code in zip(rules.deck.cards, rules.deck.codes) if code == "7S") == \
        list(range(1, 9))


def test_deck_copies_and_where_can_keep_only_some_copies(tmp_path: Path) -> None:
    rules = load_ruleset(_variant(tmp_path, "  name: standard-52\n  copies: 3\n  where: \"card.copy <= 2\"\n"))
    assert len(rules.deck) == 104


def test_deck_copies_past_the_card_limit_is_an_error_at_copies(tmp_path: Path) -> None:
    with pytest.raises(RulesetError, match="200 decks of 52 cards are more than 10,000 cards") as caught:
        load_ruleset(_variant(tmp_path, "  name: standard-52\n  copies: 200\n"))
    assert caught.value.pos is not None and caught.value.pos.line == 5


def test_deck_copies_must_be_a_positive_number(tmp_path: Path) -> None:
    with pytest.raises(RulesetError) as caught:
        load_ruleset(_variant(tmp_path, "  name: standard-52\n  copies: 0\n"))
    assert "less than the minimum of 1" in caught.value.message
    assert caught.value.pos is not None and caught.value.pos.line == 5
