"""Decks as data: the standard 52, the Decktet (cards of several suits) and dollar bills (copies)."""

from __future__ import annotations

from collections import Counter

import pytest

from cardrules import DealError
from cardrules.decks import load_deck
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
    assert deck.faces[deck.codes.index("Island")] == "Island ☀≈♆"


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
