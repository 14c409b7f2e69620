"""Moves onto (and from) another seat's piles: `to_seats` and `from_seats` (docs/language.md,
"Moves"). A per-player zone in a move's `to` means the acting seat's piles; `to_seats: others`
means the piles of every other seat in the game (laying off onto another seat's melds), `all`
every seat's. Seats the ruleset allows but the game has not never lend their piles, in either
backend; `explain` and `cardrules rules` say it.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from cardrules import load_ruleset
from cardrules.base.errors import RulesetError
from cardrules.workbench.describe import describe
from cardrules.workbench.describe.document import render_markdown
from helpers import replaced

LAYOFF = Path(__file__).parent / "fixtures" / "seats" / "layoff.yaml"


def _variant(tmp_path: Path, old: str, new: str, text: str | None = None) -> Path:
    """The fixture (or `text`) with `old` replaced by `new`, written into `tmp_path`."""
    return replaced(tmp_path, LAYOFF.read_text(encoding="utf-8") if text is None else text, old, new)


def _moves(game: Any, name: str) -> list[Any]:
    return [m for m in game.legal_moves() if m.name == name]


# Laying off onto any pile: the rule alone would take the melds of a seat not in the game too.
ANYWHERE = ('when: "empty(dst) or card.suit == top(dst).suit"\n    do: [{move: {face: up}}]\n  draw',
            'when: "true"\n    do: [{move: {face: up}}]\n  draw')


def test_a_move_to_other_seats_piles_goes_to_every_other_seat_in_the_game_and_no_other(tmp_path: Path) -> None:
    rules = load_ruleset(_variant(tmp_path, *ANYWHERE))
    for players in (2, 3, 4):
        game = rules.new_game(seed=1, players=players)
        owners = {rules.pile_owner[m.dst] for m in _moves(game, "lay_off")}
        assert owners == set(range(1, players)), players  # seat 1 (0) acts: every other seat's, none absent
        hand = game.state.piles[rules.zones["hand"].seat_piles[0][0]]
        targets = {m.dst for m in _moves(game, "lay_off")}
        assert targets == {p for seat in range(1, players) for p in rules.zones["melds"].seat_piles[seat]}
        assert len(_moves(game, "lay_off")) == len(hand) * len(targets)


def test_the_rule_of_a_move_to_other_seats_piles_is_tested_on_each_of_them() -> None:
    rules = load_ruleset(str(LAYOFF))
    game = rules.new_game(seed=3, players=3)
    S = game.state
    hand = S.piles[rules.zones["hand"].seat_piles[0][0]]
    expected = {(card, pile) for seat in (1, 2) for pile in rules.zones["melds"].seat_piles[seat]
                for card in hand if not S.piles[pile]
                or rules.deck.cards[card]["suit"] == rules.deck.cards[S.piles[pile][-1]]["suit"]}
    assert expected  # (the deal of seed 3 offers some)
    assert {(m.pick, m.dst) for m in _moves(game, "lay_off")} == expected
    own = set(rules.zones["melds"].seat_piles[0])
    assert not own & {m.dst for m in _moves(game, "lay_off")}
    assert {m.dst for m in _moves(game, "meld")} <= own  # (`meld` has no to_seats: the seat's own)


def test_all_seats_piles_include_the_acting_seats_own(tmp_path: Path) -> None:
    rules = load_ruleset(_variant(tmp_path, "    to_seats: others", "    to_seats: all",
                                  _variant(tmp_path, *ANYWHERE).read_text(encoding="utf-8")))
    game = rules.new_game(seed=1, players=3)
    assert {rules.pile_owner[m.dst] for m in _moves(game, "lay_off")} == {0, 1, 2}


def test_a_move_from_other_seats_piles_takes_from_theirs(tmp_path: Path) -> None:
    path = _variant(tmp_path, "  draw: {from: stock, to: hand}",
                    "  draw: {from: stock, to: hand}\n  steal: {from: melds, from_seats: others, to: hand}")
    rules = load_ruleset(path)
    game = rules.new_game(seed=1, players=3)
    steals = _moves(game, "steal")
    assert {rules.pile_owner[m.src] for m in steals} == {1, 2}
    assert {m.dst for m in steals} == {rules.zones["hand"].seat_piles[0][0]}  # onto the seat's own hand
    game.apply(steals[0])
    assert len(game.state.piles[steals[0].src]) == 0


def test_explain_says_why_a_seats_own_pile_or_an_absent_seats_pile_is_not_offered(tmp_path: Path) -> None:
    rules = load_ruleset(_variant(tmp_path, *ANYWHERE))
    game = rules.new_game(seed=1, players=3)
    card = rules.deck.codes[game.state.piles[rules.zones["hand"].seat_piles[0][0]][0]]
    assert "is your own pile: this move goes to another seat's" in str(game.explain(f"lay_off:h@1:{card}>m1@1"))
    assert "is seat 4's, and this game has 3 seats" in str(game.explain(f"lay_off:h@1:{card}>m1@4"))
    assert "legal" in str(game.explain(f"lay_off:h@1:{card}>m1@2"))  # (another seat's: the rule holds anywhere)


def test_the_rules_in_words_say_whose_piles() -> None:
    text = render_markdown(describe(str(LAYOFF)))
    assert "To another player's meld." in text
    assert "To a meld of the player's." in text


@pytest.mark.parametrize("text,message", [
    ("to_seats: mine", "to_seats"),
    ("to_seats: others\n    from_seats: all", "'from_seats' needs a per-player zone in 'from'"),
])
def test_whose_piles_is_checked_at_load(tmp_path: Path, text: str, message: str) -> None:
    path = _variant(tmp_path, "    to_seats: others", "    " + text)
    if "from_seats" in text:  # (lay_off takes from the seat's hand: make `from` a shared zone)
        path = _variant(tmp_path, "  lay_off:\n    from: hand", "  lay_off:\n    from: stock",
                        path.read_text(encoding="utf-8"))
    with pytest.raises(RulesetError, match=message) as caught:
        load_ruleset(path)
    assert caught.value.pos is not None and caught.value.pos.line > 1


def test_random_games_keep_every_card_and_use_only_seats_in_the_game() -> None:
    rules = load_ruleset(str(LAYOFF))
    for seed in range(40):
        rng = random.Random(seed)
        players = 2 + seed % 3
        game = rules.new_game(seed=seed, players=players)
        while not game.is_over:
            move = rng.choice(game.legal_moves())
            assert move.dst < 0 or rules.pile_owner[move.dst] < players
            game.apply(move)
        assert sorted(c for pile in game.state.piles for c in pile) == list(range(52))


def test_a_card_taken_from_another_seats_hidden_hand_is_picked_blind(tmp_path: Path) -> None:
    # (a seat never learns a card it cannot see: the hands show only their owner every card)
    path = _variant(tmp_path, "  draw: {from: stock, to: hand}",
                    "  draw: {from: stock, to: hand}\n  snatch: {from: hand, from_seats: others, take: any, to: stock}")
    game = load_ruleset(path).new_game(seed=1, players=3)
    assert sorted(str(m) for m in game.legal_moves() if m.name == "snatch") == ["h@2:?>s", "h@3:?>s"]
