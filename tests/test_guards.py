"""A guard guards: `and`, `or`, `a if c else b` and a comprehension's `if` keep their order
wherever an expression stands, although the move generator computes what it can early (issue 12).

A subexpression that can fail (an index out of range, the attribute of the top card of an empty
pile, a division by zero) runs only where its guard lets it; only code that cannot fail is
hoisted out of its guard or into an outer loop. Each case loads a small ruleset written here
whose piles make every guard false, and plays it; the same parts unguarded fail with an error at
the part that failed.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardrules import CardrulesError, RulesetRuntimeError, load_ruleset

# `left` holds two face-up cards per pile, `right` stays empty. A `draw` is always legal, so that
# moves (and the triggers after them) can be played.
RULESET = """\
ruleset: guards
deck: standard-52
variables:
  n: {initial: 0}
zones:
  stock: {}
  waste: {}
  left: {count: 2}
  right: {count: 2}
setup:
  - take_deck: stock
  - deal: {from: stock, to: left, counts: 2, face: up}
moves:
  draw:
    from: stock
    to: waste
  go:
    from: left
    to: right
GO
  knock:
KNOCK
    do:
      - add: {n: 1}
TRIGGERS
END
"""

# Where an expression can stand: (name, the pile the expression reads (`X`), the section it
# fills, the text with `EXPR` in it). The pile is empty, and readable in that place.
POSITIONS = [
    ("move when, destination loop", "dst", "GO", '    when: "EXPR"'),
    ("move when, source loop", "right[src.index]", "GO", '    when: "EXPR"'),
    ("move when, no loop", "right[0]", "KNOCK", '    when: "EXPR"'),
    ("move take", "right[src.index]", "GO", '    take: "1 if (EXPR) else 1"'),
    ("trigger when", "right[0]", "TRIGGERS", 'triggers:\n  - when: "EXPR"\n    do:\n      - add: {n: 1}'),
    ("trigger for and when", "p", "TRIGGERS",
     'triggers:\n  - for: p in right\n    when: "EXPR"\n    do:\n      - add: {n: 1}'),
    ("end condition", "right[0]", "END", 'end:\n  when:\n    - if: "EXPR"\n      result: won'),
]

# What can fail, on an empty pile `X`: (name, a guard that is false there, the part that fails
# unguarded, the subexpression the error must point at).
FAILING = [
    ("an index guarded by a bound check", "X.index + 5 < 2", "empty(right[X.index + 5])", "right[X.index + 5]"),
    ("the top card's rank guarded by not empty", "not empty(X)", "top(X).rank > 0", "top(X).rank > 0"),
    ("a division guarded by a non-zero check", "size(X) != 0", "10 / size(X) > 0", "10 / size(X)"),
]

FORMS = [
    ("and", "{guard} and {part}"),
    ("or", "not ({guard}) or {part}"),
    ("if else", "{part} if {guard} else false"),
    ("comprehension filter", "any({part} for i in [1, 2] if {guard})"),
]


def _ruleset(tmp_path: Path, position: tuple[str, str, str, str], expression: str) -> Path:
    _, pile, section, text = position
    filled = {"GO": "", "KNOCK": '    when: "false"', "TRIGGERS": "", "END": ""}
    filled[section] = text.replace("EXPR", expression.replace("X", pile))
    source = RULESET
    for key, value in filled.items():
        source = source.replace(key + "\n", value + "\n" if value else "")
    path = tmp_path / "guards.yaml"
    path.write_text(source, encoding="utf-8")
    return path


def _play(path: Path, moves: int = 3) -> None:
    """Load and deal, then list the legal moves and play the first, a few times."""
    game = load_ruleset(path).new_game(seed=1)
    for _ in range(moves):
        legal = game.legal_moves()
        if game.is_over or not legal:
            return
        game.apply(legal[0])


@pytest.mark.parametrize("position", POSITIONS, ids=[p[0] for p in POSITIONS])
@pytest.mark.parametrize("failing", FAILING, ids=[f[0] for f in FAILING])
@pytest.mark.parametrize("form", FORMS, ids=[f[0] for f in FORMS])
def test_a_false_guard_keeps_the_part_it_guards_from_running(tmp_path: Path, position: tuple[str, str, str, str],
                                                           failing: tuple[str, str, str, str],
                                                           form: tuple[str, str]) -> None:
    _, guard, part, _ = failing
    _play(_ruleset(tmp_path, position, form[1].format(guard=guard, part=part)))


@pytest.mark.parametrize("position", POSITIONS, ids=[p[0] for p in POSITIONS])
@pytest.mark.parametrize("failing", FAILING, ids=[f[0] for f in FAILING])
def test_an_unguarded_part_fails_at_the_subexpression_that_failed(tmp_path: Path,
                                                                  position: tuple[str, str, str, str],
                                                                  failing: tuple[str, str, str, str]) -> None:
    _, _, part, at = failing
    pile = position[1]
    path = _ruleset(tmp_path, position, f"size(X) >= 0 and {part}")  # the failing part is not at the start
    with pytest.raises(CardrulesError) as caught:
        _play(path)
    error = caught.value
    assert isinstance(error, RulesetRuntimeError)
    expected = at.replace("X", pile)
    lines = path.read_text(encoding="utf-8").split("\n")
    line = next(i for i, text in enumerate(lines, 1) if "size(" in text and ">= 0 and" in text)
    assert error.pos is not None and (error.pos.line, error.pos.col) == (line, lines[line - 1].index(expected) + 1)
    assert f"while evaluating {expected!r}" in error.message


# A conjunct that can fail is tested after the conjuncts written before it, even where they need
# an inner loop (the destination) and it needs none: (name, when, a piece of its generated test).
ORDERED = [
    ("an index after a destination's size", "size(dst) > 5 and dst == right[0] and cards(right[0])[5].rank > 0",
     "[5]"),
    ("a top card after a destination's emptiness", "not empty(dst) and dst == right[0] and top(right[0]).rank > 0",
     " > 0)"),
    ("a division after a destination's size", "size(dst) != 0 and dst == right[0] and 10 / size(right[0]) > 0",
     "//"),
]


@pytest.mark.parametrize(("when", "piece"), [case[1:] for case in ORDERED], ids=[case[0] for case in ORDERED])
def test_a_conjunct_that_can_fail_is_tested_after_the_conjuncts_before_it(tmp_path: Path, when: str,
                                                                         piece: str) -> None:
    path = _ruleset(tmp_path, ("", "", "GO", f'    when: "{when}"'), "")
    _play(path)
    lines = _enumerator(load_ruleset(path).generated_source, "go").split("\n")
    tests = [line.strip() for line in lines if line.strip().startswith("if not")]
    failing = next(line for line in lines if line.strip().startswith("if not") and piece in line)
    assert _depth(failing) == _depth(next(line for line in lines if "pile_dst = P[b_dst]" in line))
    assert tests.index(failing.strip()) == len(tests) - 1  # after the destination's own tests


def _enumerator(source: str, move: str) -> str:
    """The generated function that lists one move's candidates."""
    return next(block for block in source.split("\n\n") if f"b_move = {move!r}" in block and block.startswith("def enum_"))


def _depth(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def test_code_that_cannot_fail_is_still_hoisted_to_the_outermost_loop_it_needs(tmp_path: Path) -> None:
    # `card.rank` cannot fail: it is computed once per source, not per destination, although the
    # condition that uses it is tested in the destination loop, on the right of `or`.
    path = _ruleset(tmp_path, ("", "", "GO", '    when: "empty(dst) or top(dst).rank == card.rank + 1"'), "")
    enumerator = _enumerator(load_ruleset(path).generated_source, "go")
    lines = enumerator.split("\n")
    hoisted = next(line for line in lines if re.search(r"= A_rank\[b_card\]$", line))
    source_loop = next(line for line in lines if line.strip().startswith("pile = P[b_src]"))
    destination_loop = next(line for line in lines if "b_dst == b_src" in line)
    assert _depth(hoisted) == _depth(source_loop) < _depth(destination_loop)
    name = hoisted.split("=")[0].strip()
    test = next(line for line in lines if line.strip().startswith("if not") and name in line)
    assert _depth(test) == _depth(destination_loop) and "A_rank[b_card]" not in test
    _play(path)


def test_a_total_conjunct_after_an_inner_one_is_still_tested_in_the_outer_loop(tmp_path: Path) -> None:
    # `size(src) > 1` cannot fail, so it may run before `empty(dst)`, in the source loop.
    path = _ruleset(tmp_path, ("", "", "GO", '    when: "empty(dst) and size(src) > 1"'), "")
    lines = _enumerator(load_ruleset(path).generated_source, "go").split("\n")
    test = next(line for line in lines if line.strip().startswith("if not") and " > 1)" in line)
    assert _depth(test) == _depth(next(line for line in lines if line.strip().startswith("pile = P[b_src]")))
    _play(path)


PYRAMID = """\
ruleset: pyramid
deck: standard-52
zones:
  stock: {}
  pyramid: {count: 28, short: p}
  waste: {}
setup:
  - take_deck: stock
  - deal: {from: stock, to: pyramid, counts: 1, face: up}
moves:
  clear:
    from: pyramid
    to: waste
    when: "src.index >= 21 or empty(pyramid[src.index + 7])"
"""


def test_the_rule_of_issue_12_plays_and_unguarded_fails_at_its_index(tmp_path: Path) -> None:
    path = tmp_path / "pyramid.yaml"
    path.write_text(PYRAMID, encoding="utf-8")
    game = load_ruleset(path).new_game(seed=1)
    assert sorted(str(m) for m in game.legal_moves()) == [f"p{i}>waste" for i in range(22, 29)]
    path.write_text(PYRAMID.replace("src.index >= 21 or ", ""), encoding="utf-8")
    with pytest.raises(RulesetRuntimeError, match="while evaluating 'pyramid\\[src.index \\+ 7\\]'") as caught:
        load_ruleset(path).new_game(seed=1)
    assert caught.value.pos is not None and (caught.value.pos.line, caught.value.pos.col) == (14, 18)


def test_a_guard_guards_a_function_call_and_an_error_inside_a_function_points_into_its_body(tmp_path: Path) -> None:
    functions = 'functions:\n  "above(p)": "top(p).rank + 1"\nmoves:\n'
    path = _ruleset(tmp_path, ("", "", "GO", '    when: "not empty(dst) and above(dst) > 1"'), "")
    path.write_text(path.read_text(encoding="utf-8").replace("moves:\n", functions), encoding="utf-8")
    _play(path)
    path.write_text(path.read_text(encoding="utf-8").replace("not empty(dst) and ", ""), encoding="utf-8")
    with pytest.raises(RulesetRuntimeError, match="while evaluating 'top\\(p\\).rank \\+ 1' in \"move 'go'\"") as caught:
        _play(path)
    assert caught.value.pos is not None
    assert caught.value.pos.source_line() == '  "above(p)": "top(p).rank + 1"' and caught.value.pos.col == 16
