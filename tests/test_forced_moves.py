"""Moves forced on another seat: `for_seat` chooses a seat, `act` hands it the turn for one move."""

from __future__ import annotations

import random

from cardrules import load_ruleset
from conftest import ROOT
from helpers import play, texts

FORCE = ROOT / "tests" / "fixtures" / "force.yaml"


def test_a_move_may_choose_any_seat_its_condition_allows() -> None:
    game = load_ruleset(FORCE).new_game(seed=1, players=3)
    play(game, "h@1>x")
    assert (game.current_player, game.phase) == (0, "force")
    assert texts(game) == {"force seat2", "force seat3", "no_force"}


def test_the_forced_seat_acts_then_the_turn_comes_back() -> None:
    game = load_ruleset(FORCE).new_game(seed=1, players=3)
    play(game, "h@1>x", "force seat3")
    assert (game.current_player, game.phase) == (2, "claim")  # seat 3 must claim (or pass) now
    assert texts(game) == {"x>c@3", "pass"}
    play(game, "x>c@3")
    assert game.variable("score", 2) == 1
    assert (game.current_player, game.phase) == (0, "claim")  # back to seat 1, after its force phase
    play(game, "pass")
    assert (game.current_player, game.phase) == (1, "play")


def test_undo_takes_back_the_forced_move_and_the_handover() -> None:
    game = load_ruleset(FORCE).new_game(seed=1, players=3)
    play(game, "h@1>x", "force seat2", "pass")
    assert (game.current_player, game.phase) == (0, "claim")
    game.undo()
    assert (game.current_player, game.phase, game.state.frames) == (1, "claim", ((0, 1),))
    game.undo()
    assert (game.current_player, game.phase, game.state.frames) == (0, "force", ())


def test_random_games_with_forced_moves_end_and_keep_every_card() -> None:
    rules = load_ruleset(FORCE)
    for seed in range(60):
        game = rules.new_game(seed=seed, players=2 + seed % 2)
        rng = random.Random(seed)
        while not game.is_over:
            game.apply(rng.choice(game.legal_moves()))
            assert sorted(c for p in game.state.piles for c in p) == list(range(52))
            assert len(game.state.frames) <= 1
        assert game.outcome == "over"
