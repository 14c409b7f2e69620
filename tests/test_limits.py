"""Every load, check and game is bounded: small hostile files end with a clear error, fast.

Each case is a file of a few hundred bytes to a few KB that once ran for minutes or grew to
gigabytes (issue 11's list). Each must now raise a `CardrulesError` at the right place. The CPU
bound asserted here is a guard against a hang coming back (ten times what the case takes
today), not a speed goal; those live in benchmarks/.
"""

from __future__ import annotations

import random
import resource
import time
from pathlib import Path
from typing import Any, Callable

import pytest

from cardrules import CardrulesError, RulesetError, RulesetRuntimeError, load_ruleset
from cardrules.base.limits import (INT_MAX, MAX_CARDS, MAX_COMPILED_NODES, MAX_EXPRESSION_DEPTH, MAX_OPTION_VALUES,
                              MAX_STEPS, MAX_YAML_DEPTH, MAX_YAML_VALUES)
from cardrules.python.load import check_ruleset

from helpers import MINI, mini_with

HANG_GUARD_SECONDS = 10.0
MEMORY_GUARD_BYTES = 500 * 2 ** 20



def _bounded(action: Callable[[], Any]) -> CardrulesError:
    """Run `action`, which must fail with a CardrulesError, within the hang and memory guards."""
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    start = time.process_time()
    with pytest.raises(CardrulesError) as caught:
        action()
    assert time.process_time() - start < HANG_GUARD_SECONDS
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 - rss < MEMORY_GUARD_BYTES
    return caught.value


def _play(path: Path, moves: int = 200) -> None:
    game = load_ruleset(path).new_game(seed=1)
    rng = random.Random(1)
    for _ in range(moves):
        if game.is_over:
            return
        game.apply(rng.choice(game.legal_moves()))


def test_a_yaml_alias_bomb_stops_at_the_bound_on_expanded_values(tmp_path: Path) -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 10)]
    bomb = "\n".join(lines)
    assert len(bomb) < 700
    path = mini_with(tmp_path, "ruleset: mini", "ruleset: mini\n" + bomb)
    error = _bounded(lambda: load_ruleset(path))
    assert f"expands to more than {MAX_YAML_VALUES:,} values" in error.message and error.pos is not None


def test_a_self_referencing_alias_is_nesting_too_deep(tmp_path: Path) -> None:
    path = mini_with(tmp_path, "ruleset: mini", "ruleset: mini\nloop: &a [*a]")
    assert f"nested more than {MAX_YAML_DEPTH} deep" in _bounded(lambda: load_ruleset(path)).message


def test_merge_keys_of_merge_keys_are_bounded_too(tmp_path: Path) -> None:
    lines = ["m0: &m0 {x: 1, y: 2}"]
    lines += [f"m{i}: &m{i} {{<<: [{', '.join([f'*m{i - 1}'] * 10)}]}}" for i in range(1, 10)]
    path = mini_with(tmp_path, "ruleset: mini", "ruleset: mini\n" + "\n".join(lines))
    assert "expands to more than" in _bounded(lambda: load_ruleset(path)).message


def test_a_20000_deep_yaml_list_is_a_clean_error_at_the_first_level_too_deep(tmp_path: Path) -> None:
    path = tmp_path / "deep.yaml"
    path.write_text("ruleset: deep\nx: " + "[" * 20_000 + "]" * 20_000 + "\n", encoding="utf-8")
    error = _bounded(lambda: load_ruleset(path))
    assert f"nested more than {MAX_YAML_DEPTH} deep" in error.message
    assert error.pos is not None and (error.pos.line, error.pos.col) == (2, 3 + MAX_YAML_DEPTH)


def test_function_doubling_stops_at_the_bound_on_inlined_code(tmp_path: Path) -> None:
    functions = "functions:\n  \"f0(x)\": \"x + 1\"\n" + "".join(
        f"  \"f{i}(x)\": \"f{i - 1}(x) + f{i - 1}(x)\"\n" for i in range(1, 40))
    path = mini_with(tmp_path, "functions:\n", functions)
    assert path.stat().st_size < 2500
    error = _bounded(lambda: load_ruleset(path))
    assert f"grows past {MAX_COMPILED_NODES:,} parts" in error.message
    # the first function whose body alone is too large, at the call in its own text
    assert error.pos is not None and error.pos.source_line() == '  "f12(x)": "f11(x) + f11(x)"'


def test_functions_nested_past_the_inline_depth_are_an_error(tmp_path: Path) -> None:
    functions = "functions:\n  \"g0(x)\": \"x\"\n" + "".join(f"  \"g{i}(x)\": \"g{i - 1}(x)\"\n" for i in range(1, 30))
    path = mini_with(tmp_path, "functions:\n", functions)
    assert "functions call functions more than" in _bounded(lambda: load_ruleset(path)).message


def test_extends_fan_out_reads_each_file_once(tmp_path: Path) -> None:
    (tmp_path / "base.yaml").write_text(MINI, encoding="utf-8")
    (tmp_path / "v.yaml").write_text("ruleset: v\nextends: base\n", encoding="utf-8")
    for level in range(1, 9):
        below = "v" if level == 1 else f"l{level - 1}"
        (tmp_path / f"l{level}.yaml").write_text(f"ruleset: l{level}\nextends: [{', '.join([below] * 8)}]\n",
                                                 encoding="utf-8")
    start = time.process_time()
    rules = load_ruleset(tmp_path / "l8.yaml")  # 8**8 paths through the files; 10 files
    assert rules.name == "l8" and time.process_time() - start < HANG_GUARD_SECONDS


def test_a_deck_of_a_million_cards_is_refused_before_it_is_made(tmp_path: Path) -> None:
    values = ", ".join(str(v) for v in range(100))
    (tmp_path / "big.yaml").write_text(
        "deck: big\nattributes: {a: int, b: int, c: int}\ncode: '{a}-{b}-{c}'\n"
        f"cards:\n  - each: {{a: [{values}], b: [{values}], c: [{values}]}}\n", encoding="utf-8")
    path = mini_with(tmp_path, "deck: standard-52", "deck: big")
    error = _bounded(lambda: load_ruleset(path))
    assert f"more than {MAX_CARDS:,} cards" in error.message and error.pos is not None
    assert error.pos.path.endswith("big.yaml") and error.pos.line == 5


def test_nested_comprehensions_in_a_move_condition_stop_with_an_error_naming_the_move(tmp_path: Path) -> None:
    items = ", ".join(str(i) for i in range(24))
    condition = "all(" * 6 + "true" + "".join(f" for x{i} in [{items}])" for i in range(6))
    path = mini_with(tmp_path, 'when: "fits(card, dst)"', f'when: "{condition} and fits(card, dst)"')
    error = _bounded(lambda: load_ruleset(path).new_game(seed=3))  # the first condition reads no card: tried at once
    assert isinstance(error, RulesetRuntimeError)
    assert f"more than {MAX_STEPS:,} steps" in error.message and "move 'play'" in error.message
    assert error.pos is not None and error.pos.source_line() is not None and "when:" in error.pos.source_line()


def test_a_trigger_squaring_a_number_stops_at_64_bits_at_its_expression(tmp_path: Path) -> None:
    path = mini_with(tmp_path, "end:", 'triggers:\n  - do: [{set: {score: "score * score + 2"}}]\nend:')
    error = _bounded(lambda: _play(path))
    assert isinstance(error, RulesetRuntimeError) and "outside the 64-bit range" in error.message
    assert error.pos is not None and '"score * score + 2"' in (error.pos.source_line() or "")


def test_adding_past_64_bits_is_an_error_at_the_add(tmp_path: Path) -> None:
    path = mini_with(tmp_path, "end:", "triggers:\n  - do: [{add: {score: 5}}]\nend:")
    path.write_text(path.read_text().replace("    initial: 0", f"    initial: {INT_MAX - 7}", 1))
    game = load_ruleset(path).new_game(seed=1)
    game.apply(game.legal_moves()[0])  # INT_MAX - 2
    with pytest.raises(RulesetRuntimeError, match="outside the 64-bit range") as caught:
        game.apply(game.legal_moves()[0])
    assert caught.value.pos is not None and "add: {score: 5}" in (caught.value.pos.source_line() or "")
    assert game.variable("score") == INT_MAX - 2  # the move was not applied


def test_twenty_thousand_option_values_are_refused_by_the_schema(tmp_path: Path) -> None:
    values = ", ".join(str(v) for v in range(20_000))
    path = mini_with(tmp_path, "values: [1, 3]", f"values: [{values}]")
    error = _bounded(lambda: check_ruleset(path))
    assert f"has more than {MAX_OPTION_VALUES} items" in error.message
    assert len(error.message) < 200  # the value itself is not quoted back


def test_a_move_limit_past_the_maximum_is_refused(tmp_path: Path) -> None:
    path = mini_with(tmp_path, "end:", "end:\n  max_moves: 99999999999999")
    assert "greater than the maximum" in _bounded(lambda: load_ruleset(path)).message


SELECTIONS = """\
ruleset: selections
deck: {name: standard-52, where: "card.rank <= 3"}
zones:
  col: {count: 10, short: c, visibility: all}
setup:
  - take_deck: col[0]
  - deal: {from: "col[0]", to: col, counts: "1", face: up}
moves:
  gather:
    from: col
    to: col
    select: {from: col, max: 10, limit: LIMIT}
    do: [move]
"""


def test_a_select_limit_counts_the_selections_of_a_whole_position(tmp_path: Path) -> None:
    # 90 (source, destination) pairs, each walking 2**9 - 1 steps: under a limit of 1,000 per pair,
    # over it per position.
    path = tmp_path / "sel.yaml"
    path.write_text(SELECTIONS.replace("LIMIT", "1000"), encoding="utf-8")
    error = _bounded(lambda: load_ruleset(path).new_game(seed=1))
    assert "move 'gather' would look at more than 1,000 selections in one position" in error.message
    path.write_text(SELECTIONS.replace("LIMIT", "100000"), encoding="utf-8")
    assert len(load_ruleset(path).new_game(seed=1).legal_moves()) == 90 * (2 ** 8 - 1)


@pytest.mark.parametrize("name,expression,fragment", [
    ("3,000 unary minus signs", "-" * 3000 + "1", "nested more than"),
    ("a 20,000-term sum", " + ".join(["1"] * 20_000), "longer than"),
    ("a 1,900-term sum", "+".join(["1"] * 1900), "nested more than"),
    ("500 nested list literals", "[" * 500 + "]" * 500, "nested more than"),
    ("300 nested not", "not " * 300 + "true", "nested more than"),
    ("a number of 3,000 digits", "9" * 3000, "outside the 64-bit range"),
])
def test_expressions_too_deep_or_too_long_are_clean_errors(tmp_path: Path, name: str, expression: str,
                                                           fragment: str) -> None:
    path = mini_with(tmp_path, 'when: "fits(card, dst)"', f'when: "{expression}"')
    error = _bounded(lambda: load_ruleset(path))
    assert isinstance(error, RulesetError) and fragment in error.message and error.pos is not None
    assert error.pos.line == 33


def test_the_depth_limit_leaves_room_for_real_expressions(tmp_path: Path) -> None:
    nested = "(" * (MAX_EXPRESSION_DEPTH // 3) + "1" + ")" * (MAX_EXPRESSION_DEPTH // 3)
    path = mini_with(tmp_path, 'when: "fits(card, dst)"', f'when: "fits(card, dst) and {nested} == 1"')
    load_ruleset(path)
