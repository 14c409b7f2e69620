"""OpenSpiel's Spades written as a ruleset (benchmarks/openspiel/spades.yaml) against OpenSpiel's
own C++ game `spades`, through pyspiel: from the same deal, the same seat to act and the same
legal moves in every position, the same returns at the end.

pyspiel deals by 52 chance outcomes, the i-th card to seat i mod 4; here they are the cardrules
game's deal, top of the deck first, which `deal` gives round the table the same way. OpenSpiel
names a card by suit and rank (`D7`, `SA`) and a bid by its number (`Nil` for 0); each cardrules
move is named so too, and the random play (fixed seeds) chooses among OpenSpiel's names.
"""

from __future__ import annotations

import random
from collections import Counter

import pyspiel
import pytest
from cardrules import load_ruleset
from cardrules.python.engine import Game, Move
from cardrules.model.ruleset import Ruleset
from conftest import BENCHMARKS
from helpers import OPENSPIEL_RANKS, OPENSPIEL_SUITS, openspiel_suit_rank, play_both_backends

RULESET = BENCHMARKS / "openspiel" / "spades.yaml"


@pytest.fixture(scope="module")
def rules() -> Ruleset:
    return load_ruleset(RULESET)


def card_action(game: Game, card: int) -> int:
    """OpenSpiel's number for `card` (its chance outcome that deals it, its move that plays it)."""
    suit, rank = openspiel_suit_rank(game, card)
    return suit * 13 + rank


def card_name(game: Game, card: int) -> str:
    suit, rank = openspiel_suit_rank(game, card)
    return OPENSPIEL_SUITS[suit] + OPENSPIEL_RANKS[rank]


def openspiel_name(game: Game, move: Move) -> str:
    """The move as OpenSpiel's ActionToString names it."""
    if move.name == "bid":
        return "Nil" if move.seat == 0 else str(move.seat)  # `choose` keeps the value's index: the bid
    return card_name(game, move.pick)


def play_both(rules: Ruleset, seed: int, deal: list[str] | None = None, script: tuple[str, ...] = ()) -> Game:
    """One game in both engines from the seed's deal (or `deal`), its first moves those `script`
    names and the others random; the cardrules game, ended."""
    game = rules.new_game(seed=seed) if deal is None else rules.new_game(deal=deal)
    state = pyspiel.load_game("spades").new_initial_state()
    codes = game.rules.deck.codes
    for code in game.deal_order:
        assert state.is_chance_node()
        state.apply_action(card_action(game, codes.index(code)))
    rng = random.Random(seed)
    while not state.is_terminal():
        assert not game.is_over and game.current_player == state.current_player()
        offered = {state.action_to_string(state.current_player(), action): action for action in state.legal_actions()}
        ours = {openspiel_name(game, move): move for move in game.legal_moves()}
        assert len(ours) == len(game.legal_moves())
        assert set(ours) == set(offered), (seed, len(game.history), sorted(ours), sorted(offered))
        made = len(game.history)
        name = script[made] if made < len(script) else rng.choice(sorted(offered))
        state.apply_action(offered[name])
        game.apply(ours[name])
    assert game.is_over
    assert game.scores() == state.returns(), (seed, game.scores(), state.returns())
    return game


def test_the_ruleset_offers_openspiels_moves_and_returns_in_every_position(rules: Ruleset) -> None:
    games = [play_both(rules, seed) for seed in range(40)]
    assert all(len(game.history) == 56 for game in games)  # 4 bids and 52 cards
    scores = Counter(game.scores()[0] for game in games)
    assert len(scores) > 10 and min(scores) < 0 < max(scores)  # made and failed contracts, nils


def test_ten_tricks_over_the_contract_cost_a_side_100(rules: Ruleset) -> None:
    # North holds every spade: it leads them all (nothing else to lead) and takes every trick,
    # 12 over North-South's contract of 1; South's nil is made.
    others = [code for code in rules.deck.codes if not code.endswith("S")]
    spades = [code for code in rules.deck.codes if code.endswith("S")]
    deal = [spades[i // 4] if i % 4 == 0 else others[i - 1 - i // 4] for i in range(52)]
    game = play_both(rules, 0, deal, ("1", "4", "Nil", "2"))
    # 10 for the trick bid, 12 over, 100 for the nil: less the 100 that ten tricks over cost.
    assert game.variable("tricks", 0) == 13 and game.scores()[0] < 10 + 12 + 100


def test_the_native_backend_plays_the_ruleset_as_the_python_backend(rules: Ruleset) -> None:
    play_both_backends(rules, range(6))  # every step compared: moves, piles, variables, the end, scores
