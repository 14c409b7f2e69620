"""Turns with phases: a turn goes through its phases in order; a move is offered only in its phase."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardrules import RulesetError, load_ruleset
from conftest import ROOT
from helpers import play, texts, variant_of

PHASES = ROOT / "tests" / "fixtures" / "phases.yaml"


def _deal(top_of_seat_1: str) -> list[str]:
    """A deal (top first) in which seat 1's top hand card is `top_of_seat_1`."""
    codes = list(load_ruleset(PHASES).deck.codes)
    codes.remove(top_of_seat_1)
    codes.remove("2C")
    # Hands are dealt round by round: deal[6] is seat 1's last (top) card.
    return codes[:6] + [top_of_seat_1] + ["2C"] + codes[6:]


def test_a_turn_goes_through_its_phases_then_to_the_next_seat() -> None:
    game = load_ruleset(PHASES).new_game(deal=_deal("5H"))
    assert (game.current_player, game.phase) == (0, "play")
    assert texts(game) == {"play:h@1>x"}
    play(game, "play:h@1>x")
    assert (game.current_player, game.phase) == (0, "claim")
    assert texts(game) == {"x>c@1", "pass"}
    play(game, "pass")
    assert (game.current_player, game.phase) == (1, "play")


def test_end_turn_skips_the_remaining_phases() -> None:
    game = load_ruleset(PHASES).new_game(deal=_deal("KH"))
    assert texts(game) == {"play_king:h@1>x"}
    play(game, "play_king:h@1>x")
    assert (game.current_player, game.phase) == (1, "play")


def test_undo_gives_back_the_seat_and_the_phase() -> None:
    game = load_ruleset(PHASES).new_game(deal=_deal("5H"))
    play(game, "play:h@1>x", "x>c@1")
    assert (game.current_player, game.phase) == (1, "play")
    game.undo()
    assert (game.current_player, game.phase) == (0, "claim")
    assert game.variable("score", 0) == 0


def test_expressions_can_read_the_phase(tmp_path: Path) -> None:
    path = variant_of(tmp_path, PHASES, "ruleset: v\nmoves:\n  pass:\n    phase: null\n"
                    "    when: \"phase == 'claim'\"\n")
    game = load_ruleset(path).new_game(deal=_deal("5H"))
    assert "pass" not in texts(game)
    play(game, "play:h@1>x")
    assert "pass" in texts(game)
    assert game.view(0)["phase"] == "claim"


def test_a_move_must_name_a_declared_phase(tmp_path: Path) -> None:
    path = variant_of(tmp_path, PHASES, "ruleset: v\nmoves:\n  pass:\n    phase: clam\n")
    with pytest.raises(RulesetError, match="unknown phase 'clam' \\(did you mean 'claim'") as caught:
        load_ruleset(path)
    assert caught.value.pos is not None and caught.value.pos.line == 5


def test_random_games_with_phases_end_and_alternate_seats() -> None:
    rules = load_ruleset(PHASES)
    for seed in range(50):
        game = rules.new_game(seed=seed)
        while not game.is_over:
            before = (game.current_player, game.phase)
            move = game.legal_moves()[seed % len(game.legal_moves())]
            game.apply(move)
            if not game.is_over and before[1] == "claim":
                assert game.current_player != before[0] and game.phase == "play"
        assert game.outcome == "over"
        assert sum(game.scores()) + len(game.state.piles[rules.zones["table"].piles[0]]) == 8
