"""Errors while a game runs name the expression's place in the ruleset; endless games stop at a limit."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardrules import RulesetRuntimeError, format_error, load_ruleset
from cardrules.app.cli import app
from cardrules.model.ruleset import DEFAULT_MAX_MOVES

SHUTTLE = """\
ruleset: shuttle
description: One card moves between two piles forever.
deck: standard-52
zones:
  left: {}
  right: {}
  rest: {}
setup:
  - take_deck: rest
  - deal: {from: rest, to: left, counts: 1, face: up}
moves:
  across:
    from: [left, right]
    to: [left, right]
    when: "WHEN"
"""


def _ruleset(tmp_path: Path, when: str) -> Path:
    path = tmp_path / "shuttle.yaml"
    path.write_text(SHUTTLE.replace("WHEN", when), encoding="utf-8")
    return path


def test_a_failing_move_condition_is_reported_at_its_expression(tmp_path: Path) -> None:
    path = _ruleset(tmp_path, "top(dst).rank + 1 > 0")  # the empty destination has no top card
    rules = load_ruleset(path)
    with pytest.raises(RulesetRuntimeError) as caught:
        rules.new_game(seed=1)
    error = caught.value
    assert error.pos is not None and (error.pos.path, error.pos.line) == (str(path), 15)
    assert error.pos.col == len('    when: "') + 1
    assert "top(dst).rank + 1 > 0" in format_error(error)


def test_division_by_zero_at_run_time_is_named(tmp_path: Path) -> None:
    rules = load_ruleset(_ruleset(tmp_path, "size(src) / (size(dst) * 0) == 1"))
    with pytest.raises(RulesetRuntimeError, match="division by zero"):
        rules.new_game(seed=1)


def test_cli_prints_a_runtime_error_without_a_traceback(tmp_path: Path) -> None:
    path = _ruleset(tmp_path, "top(dst).rank + 1 > 0")
    result = CliRunner().invoke(app, ["play", str(path), "--seed", "1", "--seat", "1=random"])
    assert result.exit_code == 1
    assert f"{path}:15:" in result.stderr and "Traceback" not in result.stderr


def test_a_game_that_never_ends_stops_at_the_default_move_limit(tmp_path: Path) -> None:
    rules = load_ruleset(_ruleset(tmp_path, "true"))
    assert rules.max_moves == DEFAULT_MAX_MOVES
    game = rules.new_game(seed=1, max_moves=500)
    while not game.is_over:
        game.apply(game.legal_moves()[0])
    assert game.outcome == "limit" and len(game.history) == 500


@pytest.mark.parametrize("when,message", [
    ("size(src) ** (size(dst) - 1) > 0", "a power needs an exponent of 0 or more, got -1"),
    ("(size(src) + 1) ** 64 > 0", "2 ** 64 is outside the 64-bit range"),
    ("(size(src) + 2) ** 40 > 0", "3 ** 40 is outside the 64-bit range"),
    # -2 ** 63 is no number either: the range is -(2 ** 63 - 1) to 2 ** 63 - 1
    ("(size(dst) - 2) ** 63 < 0", "-2 ** 63 is outside the 64-bit range (-9223372036854775807 to"),
])
def test_a_power_with_a_negative_exponent_or_past_64_bits_is_a_clean_error(tmp_path: Path, when: str,
                                                                           message: str) -> None:
    # A huge power fails at once: it never computes a number of a billion digits.
    rules = load_ruleset(_ruleset(tmp_path, when))
    with pytest.raises(RulesetRuntimeError, match=re.escape(message)) as caught:
        rules.new_game(seed=1)
    assert caught.value.pos is not None and caught.value.pos.line == 15


def test_a_range_of_more_than_a_million_numbers_is_a_clean_error(tmp_path: Path) -> None:
    rules = load_ruleset(_ruleset(tmp_path, "size(range(size(src) * 2000000)) > 0"))
    with pytest.raises(RulesetRuntimeError, match="has more than 1,000,000 numbers"):
        rules.new_game(seed=1)


def test_ranges_made_again_and_again_count_against_the_step_limit(tmp_path: Path) -> None:
    # 1,000 ranges of 1,000 numbers for each listing: each range counts as a loop over its numbers.
    rules = load_ruleset(_ruleset(tmp_path, "all(size(range(size(src) * 1000)) >= 0 for c in range(1000 + size(src)))"))
    with pytest.raises(RulesetRuntimeError, match="more than 1,000,000 steps"):
        rules.new_game(seed=1)


def test_slices_count_against_the_step_limit(tmp_path: Path) -> None:
    rules = load_ruleset(_ruleset(tmp_path, "all(size(range(size(src) * 999)[1:]) >= 0 for c in range(1000 + size(src)))"))
    with pytest.raises(RulesetRuntimeError, match="more than 1,000,000 steps"):
        rules.new_game(seed=1)
