"""OpenSpiel's Hearts written as a ruleset (benchmarks/openspiel/hearts.yaml) against OpenSpiel's
own C++ game `hearts` (default parameters), through pyspiel: from the same deal and passing
direction, the same seat to act and the same legal moves in every position, passes included,
the same returns at the end.

pyspiel draws the passing direction by a first chance outcome, then deals by 52, the i-th card to
seat i mod 4; here they are the cardrules game's direction and deal. Both name a card by suit and
rank (`D7`, `SA`), and the random play (fixed seeds) chooses among OpenSpiel's names.
"""

from __future__ import annotations

import random
from collections import Counter

import pyspiel
import pytest
from cardrules import load_ruleset
from cardrules.python.engine import Game
from cardrules.model.ruleset import Ruleset
from conftest import BENCHMARKS
from helpers import openspiel_suit_rank, play_both_backends

RULESET = BENCHMARKS / "openspiel" / "hearts.yaml"


@pytest.fixture(scope="module")
def rules() -> Ruleset:
    return load_ruleset(RULESET)


def card_action(game: Game, card: int) -> int:
    """OpenSpiel's number for `card` (its chance outcome that deals it, its move that passes or
    plays it): rank by rank, clubs first."""
    suit, rank = openspiel_suit_rank(game, card)
    return rank * 4 + suit


def play_both(rules: Ruleset, seed: int, deal: list[str] | None = None) -> Game:
    """One random game in both engines from the seed (the passing direction, and the deal unless
    `deal` is given); the cardrules game, ended."""
    game = rules.new_game(seed=seed, deal=deal)
    state = pyspiel.load_game("hearts").new_initial_state()
    state.apply_action(game.variable("pass_to"))  # OpenSpiel's PassDir numbers: 0 none, 1 left, ...
    codes = game.rules.deck.codes
    for code in game.deal_order:
        assert state.is_chance_node()
        state.apply_action(card_action(game, codes.index(code)))
    rng = random.Random(seed)
    while not state.is_terminal():
        assert not game.is_over and game.current_player == state.current_player()
        ours = {card_action(game, move.pick): move for move in game.legal_moves()}
        assert len(ours) == len(game.legal_moves())
        offered = state.legal_actions()
        assert set(ours) == set(offered), (seed, len(game.history), sorted(ours), offered)
        action = rng.choice(offered)
        state.apply_action(action)
        game.apply(ours[action])
    assert game.is_over
    assert game.scores() == state.returns(), (seed, game.scores(), state.returns())
    return game


def test_the_ruleset_offers_openspiels_moves_and_returns_in_every_position(rules: Ruleset) -> None:
    games = [play_both(rules, seed) for seed in range(60)]
    directions = Counter(game.variable("pass_to") for game in games)
    assert sorted(directions) == [0, 1, 2, 3]  # no passing, and passing each way
    assert {len(game.history) for game in games} == {52, 52 + 12}


def test_a_seat_that_takes_every_point_shoots_the_moon(rules: Ruleset) -> None:
    # North holds the 13 highest cards (the Aces, Kings and Queens, and the Jack of spades) and,
    # with no passing, wins the first trick with a club and then leads every trick and wins it.
    order = "AKQJT98765432"
    by_height = sorted(rules.deck.codes, key=lambda code: (order.index(code[0]), "SHDC".index(code[1])))
    high, low = by_height[:13], by_height[13:]
    deal = [high[i // 4] if i % 4 == 0 else low[i - 1 - i // 4] for i in range(52)]
    seed = next(seed for seed in range(100) if rules.new_game(seed=seed, deal=deal).variable("pass_to") == 0)
    game = play_both(rules, seed, deal)
    assert game.variable("points", 0) == 0 and game.scores() == [26, 0, 0, 0]


def test_the_native_backend_plays_the_ruleset_as_the_python_backend(rules: Ruleset) -> None:
    play_both_backends(rules, range(6))  # every step compared: moves, piles, variables, the end, scores
