"""The edges of numbers and indexes, in both backends: 64-bit overflow (which compiled code must
detect, never wrap), the one integer range -(2**63 - 1) .. 2**63 - 1 (so that -2**63 is no number,
and `none` natively), membership in a list attribute of many strings, the sums of `select`, and
every index into the state a rule computes (a seat for `of`, a zone's pile, a slice, the winners)
out of range: the same run-time error in both (compiled code stops, and the Python backend replays
to report it, native.NativeStop).

Each ruleset here is small, so that its module compiles in a few seconds; each game is played with
the first legal move at every step, in Python and natively, and the two endings compared."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from cardrules import load_ruleset
from cardrules.base.errors import RulesetError, RulesetRuntimeError
from cardrules.native import NativeStop, native_backend
from cardrules.workbench.simulate import simulate_games

INT_MAX = 2 ** 63 - 1
NO_INT = -(2 ** 63)  # none, natively


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _cases(tmp_path: Path, name: str, text: str, placeholder: str, tests: list[str]) -> Any:
    """One ruleset for several tests (so that its module compiles once): `placeholder` in `text`
    becomes `(T0 if option.case == 0 else T1 if ...)`, each test worked out only in its own game
    (options are inputs of the compiled code, not part of it). Returns case k's ruleset, loaded."""
    chain = f"({tests[-1]})"
    for k in range(len(tests) - 2, -1, -1):
        chain = f"(({tests[k]}) if option.case == {k} else {chain})"
    options = f"options:\n  case: {{values: {list(range(len(tests)))}, default: 0}}\n"
    path = _write(tmp_path, name, text.replace("players: 1\n", "players: 1\n" + options, 1).replace(placeholder, chain))
    return lambda k: load_ruleset(path, {"case": k})


def _python_ending(rules: Any, seed: int = 1, players: int | None = None) -> tuple[Any, ...]:
    """The Python game played with the first legal move: ("error", moves made, message) where a
    rule failed, else ("end", moves, outcome, scores, variables, winners)."""
    game = rules.new_game(seed=seed, players=players)
    moves = 0
    try:
        while not game.is_over:
            game.apply(game.legal_moves()[0])
            moves += 1
        return "end", moves, game.outcome, game.scores(), list(game.state.vars), game.winners()
    except RulesetRuntimeError as exc:
        return "error", moves, str(exc)


def _native_ending(rules: Any, seed: int = 1, players: int | None = None) -> tuple[Any, ...]:
    """The same game natively: ("error", moves made, message) where compiled code stopped, else
    ("end", moves, outcome, scores, variables as the Python game keeps numbers and none, winners)."""
    backend = native_backend(rules)
    game = rules.new_game(seed=seed, players=players)
    moves = 0
    try:
        position = backend.start(game)
        while not position.is_over:
            position.apply_code(position.legal_codes()[0])
            moves += 1
        variables = [None if v == NO_INT else int(v) for v in position.V[:len(game.state.vars)]]
        return ("end", moves, position.outcome, [position.score(p) for p in range(game.players)], variables,
                position.winners())
    except NativeStop as exc:
        return "error", moves, str(exc)


def _fail_alike(rules: Any, message: str, **game: Any) -> str:
    """Both backends fail at the same move: Python with `message` (returned whole), compiled code
    stopping there (so that the Python backend reports it)."""
    python, native = _python_ending(rules, **game), _native_ending(rules, **game)
    assert python[0] == "error" and message in python[2], python
    assert native[:2] == ("error", python[1]), (python, native)
    return str(python[2])


# -- overflow ----------------------------------------------------------------------------------

MULWRAP = """
ruleset: mulwrap
players: 1
deck: standard-52
zones: {stock: {short: s}, waste: {short: w}}
variables: {big: {initial: 2}}
setup: [{take_deck: stock}]
moves:
  draw: {from: stock, to: waste, do: [{move: {face: up}}, {set: {big: "big * big"}}]}
end: {when: [{if: "size(stock) < 44", result: over}]}
score: big
"""


def test_a_product_past_64_bits_stops_compiled_code_where_python_reports_it(tmp_path: Path) -> None:
    rules = load_ruleset(_write(tmp_path, "mulwrap", MULWRAP))
    # 4, 16, 256, 2**16, 2**32, then 2**64: the sixth move fails, five are made
    text = _fail_alike(rules, "outside the 64-bit range")
    assert "big * big" in text and _python_ending(rules)[1] == 5
    with pytest.raises(RulesetRuntimeError, match="big \\* big"):
        simulate_games(str(tmp_path / "mulwrap.yaml"), 1, engine="native")


# One ruleset, its arithmetic chosen by an option (options are inputs of one compiled module):
# each move sets `x` to the expression of the case from `a` and `b`, and the game ends after one.
ARITHMETIC_CASES = {
    # case: (a, b, expression)
    "product": (INT_MAX, 2, "a * b"),
    "negative product": (INT_MAX, -2, "a * b"),
    "product of halves": (3037000500, 3037000500, "a * b"),
    "power": (3, 40, "a ** b"),
    "negative power": (-3, 41, "a ** b"),
    "power to -2**63": (-2, 63, "a ** b"),
    "sum": (INT_MAX, 1, "a + b"),
    "difference to -2**63": (-INT_MAX, 1, "a - b"),
    "sum to -2**63": (-INT_MAX, -1, "a + b"),
    "sum of a comprehension": (INT_MAX, 1, "sum(v for v in [a, b])"),
    "sum of a list": (INT_MAX, 1, "sum(list(v for v in [a, b]))"),
    "abs": (-INT_MAX, 1, "abs(a) + b"),
}
FINE_CASES = {
    "product in range": (3037000499, 3037000499, "a * b", 3037000499 ** 2),
    "product to -INT_MAX": (INT_MAX, -1, "a * b", -INT_MAX),
    "power in range": (-3, 39, "a ** b", (-3) ** 39),
    "sum back in range": (INT_MAX, -1, "a + b + 1", INT_MAX),
    "difference to -INT_MAX": (-INT_MAX + 1, 1, "a - b", -INT_MAX),
    "quotient": (-INT_MAX, -1, "a / b", INT_MAX),
    "remainder": (-INT_MAX, 10, "a % b", -INT_MAX % 10),
}


def _arithmetic(tmp_path: Path) -> Path:
    cases = {**ARITHMETIC_CASES, **{k: v[:3] for k, v in FINE_CASES.items()}}
    names = list(cases)
    value = " else ".join(f"({cases[name][2]}) if option.case == {i}" for i, name in enumerate(names)) + " else 0"
    a = " else ".join(f"{cases[name][0]} if option.case == {i}" for i, name in enumerate(names)) + " else 0"
    b = " else ".join(f"{cases[name][1]} if option.case == {i}" for i, name in enumerate(names)) + " else 0"
    return _write(tmp_path, "arithmetic", f"""
ruleset: arithmetic
players: 1
deck: standard-52
options: {{case: {{values: {list(range(len(names)))}, default: 0}}}}
zones: {{stock: {{short: s}}, waste: {{short: w}}}}
variables: {{a: {{initial: "{a}"}}, b: {{initial: "{b}"}}, x: {{initial: 0}}}}
setup: [{{take_deck: stock}}]
moves:
  draw: {{from: stock, to: waste, do: [move, {{set: {{x: "{value}"}}}}]}}
end: {{when: [{{if: "size(waste) > 0", result: over}}]}}
score: x
""")


def test_every_arithmetic_result_past_64_bits_or_at_minus_2_to_63_fails_alike_in_both_backends(
        tmp_path: Path) -> None:
    path = _arithmetic(tmp_path)
    names = [*ARITHMETIC_CASES, *FINE_CASES]
    for i, name in enumerate(names):
        rules = load_ruleset(path, {"case": i})
        if name in ARITHMETIC_CASES:
            _fail_alike(rules, "64-bit range")
        else:
            python, native = _python_ending(rules), _native_ending(rules)
            assert python == native == ("end", 1, "over", [FINE_CASES[name][3]], python[4], None), name


def test_minus_2_to_63_is_no_number_in_either_backend(tmp_path: Path) -> None:
    base = MULWRAP.replace("big: {initial: 2}", "big: {initial: -9223372036854775807}")
    rules = load_ruleset(_write(tmp_path, "low", base.replace('"big * big"', '"big - 1"')))
    _fail_alike(rules, "outside the 64-bit range (-9223372036854775807 to 9223372036854775807)")
    with pytest.raises(RulesetError, match="64-bit range"):  # folded at load
        load_ruleset(_write(tmp_path, "lowest", base.replace('"big * big"', '"-9223372036854775807 - 1"')))
    with pytest.raises(RulesetError, match="64-bit range"):
        load_ruleset(_write(tmp_path, "literal", base.replace("initial: -9223372036854775807",
                                                                 "initial: -9223372036854775808")))


def test_a_long_range_whose_length_passes_64_bits_fails_alike(tmp_path: Path) -> None:
    text = MULWRAP.replace("big: {initial: 2}", "big: {initial: -9223372036854775807}")
    rules = load_ruleset(_write(tmp_path, "span", text.replace(
        '"big * big"', '"size(range(big, 9223372036854775807))"')))
    _fail_alike(rules, "more than 1,000,000 numbers")


def test_the_checked_helpers_of_compiled_code_stop_on_every_overflow_however_they_are_called() -> None:
    from cardrules.native import runtime as rt

    for helper, args in [(rt.mul, (2 ** 32, 2 ** 32)), (rt.mul, (-(2 ** 32), 2 ** 31)), (rt.power, (3, 40)),
                         (rt.power, (-2, 63)), (rt.add, (INT_MAX, 1)), (rt.sub, (-INT_MAX, 1)),
                         (rt.range_end, (-INT_MAX, INT_MAX)), (rt.range_end, (-INT_MAX, 3)),
                         (rt.range_end, (-10, INT_MAX))]:
        with pytest.raises(rt.Stop):
            helper(*args)
    assert rt.mul(-(2 ** 31), 2 ** 31) == -(2 ** 62) and rt.mul(INT_MAX, -1) == -INT_MAX
    assert rt.mul(2 ** 40, 2 ** 22) == 2 ** 62 and rt.power(-3, 39) == (-3) ** 39
    assert rt.range_end(INT_MAX - 5, INT_MAX) == INT_MAX and rt.range_end(5, -5) == 5
    assert not rt.has(1, 64) and rt.has(1, 0) and not rt.has_int(1, INT_MAX, -5)


# -- a list attribute of strings, beyond 64 strings --------------------------------------------

def test_a_string_numbered_past_64_is_in_no_cards_list_natively_as_in_python(tmp_path: Path) -> None:
    names = ", ".join(f"n{i:02}" for i in range(70))
    (tmp_path / "tagged.yaml").write_text(f"""
deck: tagged
attributes: {{name: str, tags: list}}
cards:
  - each: {{name: [{names}]}}
    with: {{tags: [a]}}
code: "{{name}}"
""", encoding="utf-8")
    rules = load_ruleset(_write(tmp_path, "tags", """
ruleset: tags
players: 1
deck: tagged
zones: {stock: {short: s}, waste: {short: w}}
variables: {hits: {initial: 0}, tagged: {initial: 0}}
setup: [{take_deck: stock}]
moves:
  draw:
    from: stock
    to: waste
    do:
      - move
      - if: "card.name in card.tags"
        then: [{add: {hits: 1}}]
      - if: "'a' in card.tags and 'n65' not in card.tags"
        then: [{add: {tagged: 1}}]
end: {when: [{if: "empty(stock)", result: over}]}
score: hits
"""))
    python, native = _python_ending(rules), _native_ending(rules)
    assert python == native and python[:4] == ("end", 70, "over", [0]) and python[4] == [0, 70]


# -- the sums of select ------------------------------------------------------------------------

def test_a_select_sum_past_64_bits_offers_no_move_python_does_not(tmp_path: Path) -> None:
    (tmp_path / "valued.yaml").write_text(f"""
deck: valued
attributes: {{name: str, v: int}}
cards:
  - {{name: p, v: {INT_MAX}}}
  - {{name: q, v: {INT_MAX}}}
  - {{name: r, v: -1}}
  - {{name: s, v: 0}}
code: "{{name}}"
""", encoding="utf-8")
    rules = load_ruleset(_write(tmp_path, "sums", """
ruleset: sums
players: 1
deck: valued
zones: {hand: {short: h}, row: {count: 3, short: r}, out: {short: o}}
setup:
  - take_deck: hand
  - deal: {from: hand, to: row, counts: 1, face: up}
moves:
  gather:
    from: hand
    to: out
    select: {from: row, take: top, sum: v, equals: "0 - 2", max: 3}
  give_up: {from: hand, to: out, when: "size(hand) == 1"}
end: {when: [{if: "empty(hand)", result: over}]}
score: "size(out)"
"""))
    game = rules.new_game(deal=["p", "q", "r", "s"])
    assert [[rules.deck.cards[c]["name"] for c in pile] for pile in game.state.piles] == [["s"], ["p"], ["q"], ["r"], []]
    assert [m.name for m in game.legal_moves()] == ["give_up"]  # no two values add up to -2
    with pytest.raises(NativeStop, match="overflow"):  # p + q passes 64 bits: Python lists the moves
        native_backend(rules).start(rules.new_game(deal=["p", "q", "r", "s"]))


# -- indexes into the state --------------------------------------------------------------------

SEATS = """
ruleset: seats
players: {min: 2, max: 3, default: 2}
deck: standard-52
options: {case: {values: [0, 1, 2, 3, 4, 5, 6, 7], default: 0}}
zones:
  stock: {short: s}
  hand: {per_player: true, short: h}
variables:
  a: {initial: 1, per_player: true}
  b: {initial: 7, per_player: true}
  seen: {initial: 0}
setup: [{take_deck: stock}]
turns: {order: rotation}
moves:
  draw:
    from: stock
    to: hand
    do:
      - move
      - if: "option.case == 0"
        then: [{set: {seen: "of(a, players)"}}]
      - if: "option.case == 1"
        then: [{set: {seen: "of(a, 0 - 1)"}}]
      - if: "option.case == 2"
        then: [{set: {seen: "size(of(hand, players))"}}]
      - if: "option.case == 3"
        then: [{set: {seen: "size(of(hand, 0 - 1))"}}]
      - if: "option.case == 4"
        then: [{set: {seen: "of(b, players - 1) + size(of(hand, players - 1))"}}]
      - if: "option.case == 5"
        then: [{for: "player in [players]", do: [{set: {a: 5}}]}]
triggers:
  - name: every seat's b
    when: "option.case >= 6 and size(stock) == 50"
    do:
      - for: "player in range(players + 7 - option.case)"
        do: [{add: {b: 1}}]
end: {when: [{if: "size(stock) < 48", result: over}]}
score: seen
"""


@pytest.mark.parametrize("players", [2, 3])
def test_of_a_seat_the_game_has_not_is_an_error_in_both_backends_never_a_neighbours_value(
        tmp_path: Path, players: int) -> None:
    path = _write(tmp_path, "seats", SEATS)
    for case, (text, seat) in enumerate([("of(a, players)", players), ("of(a, 0 - 1)", -1),
                                         ("of(hand, players)", players), ("of(hand, 0 - 1)", -1)]):
        rules = load_ruleset(path, {"case": case})
        message = _fail_alike(rules, f"there is no seat {seat} (the seats are 0 to {players - 1})", players=players)
        assert f"while evaluating {text!r}" in message
    rules = load_ruleset(path, {"case": 4})  # the last seat is one: 7 and the cards it drew
    python, native = _python_ending(rules, players=players), _native_ending(rules, players=players)
    assert python == native and python[3] == [7 + 4 // players] * players
    # a loop that makes a number the player must make it a seat (in a move, then in a trigger)
    for case, seat in [(5, players), (6, players)]:
        rules = load_ruleset(path, {"case": case})
        _fail_alike(rules, f"for: there is no seat {seat} to be the player", players=players)
    rules = load_ruleset(path, {"case": 7})  # every seat, and no more
    python, native = _python_ending(rules, players=players), _native_ending(rules, players=players)
    assert python == native and python[4][3:3 + players] == [8] * players  # (a place for each of 3 seats)


INDEXES = """
ruleset: indexes
players: {min: 2, max: 3, default: 2}
deck: standard-52
options: {case: {values: [0, 1, 2, 3, 4, 5, 6], default: 0}}
zones:
  stock: {short: s}
  row: {count: 3, short: r}
variables:
  i: {initial: 0}
  seen: {initial: 0}
setup: [{take_deck: stock}]
turns: {order: rotation}
moves:
  draw:
    from: stock
    to: row
    when: "dst == (row[i] if option.case == 0 else row[i % 3])"
    do:
      - move
      - add: {i: 1}
      - if: "option.case == 1"
        then: [{set: {seen: "row[0][i - 4].rank"}}]
      - if: "option.case == 2"
        then: [{set: {seen: "cards(row[0])[i - 2].rank"}}]
      - if: "option.case == 3"
        then: [{set: {seen: "size(cards(stock)[top(row[2]).rank:])"}}]
      - if: "option.case == 6"
        then: [{set: {seen: "row[(i - 1) % 3][0 - (i + 2) / 3].rank + size(row[i % 3 - 3]) + size(cards(stock)[i:0 - i])"}}]
end:
  when:
    - {if: "option.case == 5 and size(stock) < 40", result: over, winners: "[1, 0, 1]"}
    - {if: "size(stock) < 40", result: over, winners: "i if option.case == 4 else 0"}
score: seen
"""


def test_every_index_a_rule_computes_out_of_range_is_the_same_error_in_both_backends(tmp_path: Path) -> None:
    path = _write(tmp_path, "indexes", INDEXES)
    for case, message, text in [
            (0, "an index is out of range", "row[i]"),  # a zone's pile: the third draw has no row[3]
            (1, "an index is out of range", "row[0][i - 4]"),  # a pile's cards
            (2, "an index is out of range", "cards(row[0])[i - 2]"),  # a list of cards
            # a slice bound that is none (the top of an empty row) is no bound left out
            (3, "a number was expected, got none", "top(row[2]).rank"),
            (4, "winners: there is no seat 13 (the seats are 0 to 1)", "")]:  # a winner the game has not
        rules = load_ruleset(path, {"case": case})
        failure = _fail_alike(rules, message)
        assert f"while evaluating {text!r}" in failure if text else "indexes.yaml:33:55:" in failure, failure
    rules = load_ruleset(path, {"case": 5})  # a seat named twice wins once
    python, native = _python_ending(rules), _native_ending(rules)
    assert python == native and python[5] == [0, 1]
    rules = load_ruleset(path, {"case": 6})  # negative indexes count from the end, as slices do
    python, native = _python_ending(rules), _native_ending(rules)
    assert python == native and python[:3] == ("end", 13, "over")


def test_a_middle_step_past_64_bits_stops_compiled_code_and_the_python_replay_carries_on(tmp_path: Path) -> None:
    # 2**62 * 4 passes 64 bits, / 8 comes back: Python keeps only 2**61, which fits
    text = MULWRAP.replace("big: {initial: 2}", "big: {initial: 4611686018427387904}")
    path = _write(tmp_path, "middle", text.replace('"big * big"', '"big * 4 / 8 + size(waste)"'))
    rules = load_ruleset(path)
    big = 2 ** 62
    for waste in range(1, 10):
        big = big * 4 // 8 + waste
    python, native = _python_ending(rules), _native_ending(rules)
    assert python[:4] == ("end", 9, "over", [big]) and native[:2] == ("error", 0)
    compiled = simulate_games(str(path), 3, engine="native")
    assert compiled.plan.engine == "native"
    assert compiled.summary == simulate_games(str(path), 3).summary


# A variable holding a pile (its initial value a zone's name, so the checker knows not its kind):
# each draw reads the pile it holds, then it holds the other one. Case 1 starts on the waste.
PILE_VARIABLE = """
ruleset: pilevariable
players: 1
deck: standard-52
options: {case: {values: [0, 1], default: 0}}
zones: {stock: {short: s}, waste: {short: w}}
variables:
  held: {initial: "waste if option.case == 1 else stock"}
  tops: {initial: 0}
  bottoms: {initial: 0}
  sizes: {initial: 0}
  seconds: {initial: 0}
  sliced: {initial: 0}
  filled: {initial: 0}
setup: [{take_deck: stock}]
moves:
  draw:
    from: stock
    to: waste
    do:
      - {move: {face: up}}
      - add: {tops: "top(held).rank", bottoms: "bottom(held).rank", sizes: "size(held)", seconds: "held[1].rank",
              sliced: "size(held[1:3])", filled: "0 if empty(held) else 1"}
      - set: {held: "waste if held == stock else stock"}
end: {when: [{if: "size(stock) < 44", result: over}]}
"""


def test_a_variable_holding_a_pile_reads_that_piles_cards_in_both_backends(tmp_path: Path) -> None:
    path = _write(tmp_path, "pilevariable", PILE_VARIABLE)
    rules = load_ruleset(path)
    game = rules.new_game(seed=3)
    rank = [card["rank"] for card in rules.deck.cards]
    expected = {"tops": 0, "bottoms": 0, "sizes": 0, "seconds": 0, "sliced": 0, "filled": 0}
    held = 0  # the stock
    while not game.is_over:
        game.apply(game.legal_moves()[0])
        cards = game.state.piles[held]  # (the pile as the effects saw it: the card has moved)
        expected["tops"] += rank[cards[-1]]
        expected["bottoms"] += rank[cards[0]]
        expected["sizes"] += len(cards)
        expected["seconds"] += rank[cards[1]]
        expected["sliced"] += len(cards[1:3])
        expected["filled"] += 1
        held = 1 - held
    slots = {name: rules.variables[name].slot for name in expected}
    assert {name: game.state.vars[slot] for name, slot in slots.items()} == expected
    python, native = _python_ending(rules, seed=3), _native_ending(rules, seed=3)
    assert python == native and python[:2] == ("end", 9)
    # on the waste, the first draw has one card there: no second, in either backend
    failure = _fail_alike(load_ruleset(path, {"case": 1}), "an index is out of range")
    assert "while evaluating 'held[1]'" in failure


# A move whose `when` has a part that can fail (an index out of range until the waste holds six
# cards) in the destination loop, before parts that cannot fail and need no loop: those are tested
# first, before the loops, in both backends (docs/language.md, "Hoisting"), so where one is false
# the part written before it is not reached and raises nothing.
HOISTED = """
ruleset: hoisted
players: 1
deck: standard-52
options: {strict: {values: [false, true], default: false}}
zones: {stock: {short: s}, waste: {short: w}}
variables: {ready: {initial: false}}
setup: [{take_deck: stock}]
moves:
  draw: {from: stock, to: waste, do: [{move: {face: up}}, {set: {ready: "size(waste) >= 3"}}]}
  peek: {from: stock, to: waste, when: "size(waste) > 0 and WHEN", do: [{set: {ready: false}}]}
end: {when: [{if: "size(stock) < 44", result: over}]}
"""


def _moves_before_failing(path: Path, **options: Any) -> int:
    """The moves made before both backends fail alike with an index out of range (the move after
    which the listing fails is taken back)."""
    rules = load_ruleset(path, options or None)
    _fail_alike(rules, "an index is out of range")
    return int(_python_ending(rules)[1])


def test_a_when_part_that_cannot_fail_is_tested_first_in_both_backends(tmp_path: Path) -> None:
    path = _write(tmp_path, "strict", HOISTED.replace("WHEN", "cards(dst)[5].rank > 1 and option.strict"))
    python, native = _python_ending(load_ruleset(path)), _native_ending(load_ruleset(path))
    # `peek` is never offered, nothing fails (the variables: `ready` is 1 natively)
    assert python[:4] == native[:4] and python[:3] == ("end", 9, "over") and native[4] == [1]
    assert _moves_before_failing(path, strict=True) == 0  # (the listing after the first draw: the waste held none before)
    # `ready` (a variable) turns true with the third draw: the listing after it reaches the index, and fails
    path = _write(tmp_path, "ready", HOISTED.replace("WHEN", "cards(dst)[5].rank > 1 and ready"))
    assert _moves_before_failing(path) == 2
    # parts in the same loop are tested in the order written: the index first
    path = _write(tmp_path, "same", HOISTED.replace("WHEN", "cards(waste)[5].rank > 1 and option.strict"))
    assert _moves_before_failing(path) == 0
    # inside a part, `x and false` evaluates x: the index fails at once
    path = _write(tmp_path, "inside", HOISTED.replace("WHEN", "not (cards(dst)[5].rank > 1 and option.strict)"))
    assert _moves_before_failing(path) == 0


# `x in [a, b, ...]`, a list written out: every item is computed before any is compared, as in
# Python, so an item that fails fails even after an earlier one equals `x` (numbers, truth values,
# strings, cards); then the game where every item is in range plays alike.
LISTED = """
ruleset: listed
players: 1
deck: standard-52
zones: {stock: {short: s}, waste: {short: w}}
variables: {hit: {initial: false}, hits: {initial: 0}}
setup: [{take_deck: stock}]
moves:
  draw: {from: stock, to: waste, do: [{move: {face: up}}, {set: {hit: "TEST"}}, {add: {hits: "1 if hit else 0"}}]}
end: {when: [{if: "size(stock) < 44", result: over}]}
score: hits
"""


def test_every_item_of_a_list_written_out_is_computed_before_in_compares(tmp_path: Path) -> None:
    case = _cases(tmp_path, "listed", LISTED, "TEST", [
        "size(waste) in [size(waste), cards(stock)[60].rank]",  # numbers
        "true in [true, cards(stock)[60].face_up]",             # truth values
        "'a' in ['a', ['b'][size(waste)]]",                     # strings
        "top(waste) in [top(waste), cards(waste)[1]]",          # cards
        "size(waste) in [2, 4, cards(stock)[0].rank]"])         # every item in range
    for k in range(4):
        failure = _fail_alike(case(k), "an index is out of range")
        assert "while evaluating" in failure and _python_ending(case(k))[1] == 0, k
    rules = case(4)
    python, native = _python_ending(rules), _native_ending(rules)
    bottom = rules.deck.cards[rules.new_game(seed=1).state.piles[0][0]]["rank"]  # the stock's, all game
    assert python[:4] == native[:4] == ("end", 9, "over", [len({2, 4, bottom} & set(range(1, 10)))])


# A zone's piles sliced with bounds known at load, to nothing: loops over it go round no times
# natively as in Python (compiled code once held such a slice as an empty tuple, which Numba
# cannot loop over, and the whole module failed to compile).
EMPTY_SLICE = """
ruleset: emptyslice
players: 1
deck: standard-52
zones: {stock: {short: s}, waste: {short: w}, row: {short: r, count: 3}}
variables: {hits: {initial: 0}}
setup: [{take_deck: stock}]
moves:
  draw: {from: stock, to: waste, do: [{move: {face: up}}, {add: {hits: "TEST"}}]}
end: {when: [{if: "size(stock) < 44", result: over}]}
score: hits
"""


def test_a_loop_over_a_slice_of_piles_that_is_empty_at_load_plays_alike(tmp_path: Path) -> None:
    tests = [("count(q for q in row[5:-9]) + 1", 1),
             ("1 if all(size(q) > 9 for q in row[2:1]) else 0", 1),
             ("count(1 for q in row[1:] if all(size(w) > 0 for w in row[3:]))", 2),
             ("size(list(q for q in row[-1:0])) + 2", 2)]
    case = _cases(tmp_path, "emptyslice", EMPTY_SLICE, "TEST", [test for test, _ in tests])
    for k, (test, each) in enumerate(tests):
        rules = case(k)
        python, native = _python_ending(rules), _native_ending(rules)
        assert python == native == ("end", 9, "over", [9 * each], [9 * each], None), (test, python, native)


def test_a_function_numba_cannot_build_stops_compiled_code_and_python_plays_the_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from numba.core.errors import TypingError

    rules = load_ruleset(_write(tmp_path, "mulwrap", MULWRAP.replace("big * big", "big + 1")))
    backend = native_backend(rules)
    expected = _python_ending(rules)
    calls: list[str] = []
    real = backend.module

    class Unbuildable:  # the generated module, whose `step` Numba fails to type
        Stop = real.Stop

        def __getattr__(self, name: str) -> Any:
            calls.append(name)
            if name == "step":
                def fails(*args: Any) -> Any:
                    raise TypingError("Failed in nopython mode pipeline\nInvalid use of getiter with parameters (Tuple())")
                return fails
            return getattr(real, name)

    monkeypatch.setattr(backend, "module", Unbuildable())
    position = backend.start(rules.new_game(seed=1))
    with pytest.raises(NativeStop, match=r"could not be built \(step: Invalid use of getiter"):
        position.apply_code(position.legal_codes()[0])
    assert backend.fault is not None
    called = len(calls)
    with pytest.raises(NativeStop, match="could not be built"):  # every later call, without trying again
        backend.start(rules.new_game(seed=2))
    assert len(calls) == called
    # simulate plays such a ruleset's games in Python, to the same ends
    from dataclasses import replace

    from cardrules.workbench.simulate_play import _play_native, _play_python, prepare

    plan = prepare(str(tmp_path / "mulwrap.yaml"), 2, None, (), (), 1, (), "native", lambda line: None, "random")
    python = replace(plan, engine="python")
    for index in range(2):
        assert _play_native(rules, plan, index) == _play_python(rules, python, index)
    assert len(calls) == called
    assert expected[2:4] == ("over", [11])  # (2, then 1 more at each of the 9 draws)


def test_a_range_bound_that_is_none_is_an_error_in_both_backends_never_the_other_form(tmp_path: Path) -> None:
    # `max` of no items is none: `range(2, none)` was once read as `range(2)` by the Python backend
    def setting(test: str) -> str:
        return LISTED.replace('{set: {hit: "TEST"}}, {add: {hits: "1 if hit else 0"}}', f'{{set: {{hits: "{test}"}}}}')
    nothing = "max(0 for p in [] if false)"
    case = _cases(tmp_path, "ranges", setting("TEST"), "TEST", [
        f"count(1 for q in range(2, {nothing}))", f"count(1 for q in range({nothing}, 3))",
        f"count(1 for q in range({nothing}))", "count(1 for q in range(2, 5))"])
    for k in range(3):
        failure = _fail_alike(case(k), "a number was expected, got none")
        assert "while evaluating 'range(" in failure, failure
    rules = case(3)
    assert _python_ending(rules)[:4] == _native_ending(rules)[:4] == ("end", 9, "over", [3])  # the score: hits


def test_comparing_values_of_kinds_never_equal_still_computes_both_as_python_does(tmp_path: Path) -> None:
    # a card and a pile are never equal, and nothing is in `[]`: compiled code once answered such a
    # test before play, without computing the side that fails
    tests = ["waste != [1][size(waste) + 1]", "list(argmax(1 for q in []) for p in [0])[size(waste) + 1] == waste",
             "cards(stock)[60].rank in []", "top(waste) == [1][0] or 3 in []"]
    case = _cases(tmp_path, "kinds", LISTED, "TEST", tests)
    for k in range(3):
        failure = _fail_alike(case(k), "an index is out of range")
        assert tests[k] in failure, failure  # (the test is part of the expression the message quotes)
    rules = case(3)
    assert _python_ending(rules)[:4] == _native_ending(rules)[:4] == ("end", 9, "over", [0])


MOVED = """
ruleset: moved
players: 1
deck: standard-52
zones: {stock: {short: s}, waste: {short: w}, row: {short: r}}
variables: {hits: {initial: 0}}
setup: [{take_deck: stock}]
moves:
  draw: {from: stock, to: waste, when: "size(cards) == 1 and size(waste) < 3", do: [{move: {face: up}}]}
  gather: {from: waste, take: all, to: row, when: "size(cards) == 3", do: [{move: {}}, {add: {hits: "size(cards) + 10 * size(row)"}}]}
end: {when: [{if: "size(stock) < 44", result: over}]}
score: hits
"""


def test_the_number_of_cards_a_move_takes_is_counted_alike_in_both_backends(tmp_path: Path) -> None:
    # `size(cards)`, the cards a move takes off the top of its pile (compiled code once computed
    # `N - N - n` for `N - (N - n)`, so `size(cards)` was -n there)
    rules = load_ruleset(_write(tmp_path, "moved", MOVED))
    python, native = _python_ending(rules), _native_ending(rules)
    # draw 3 and gather them (3 + 10 * 3), draw 3 and gather (3 + 10 * 6), draw 3: the stock holds 43
    assert python == native and python[:4] == ("end", 11, "over", [33 + 63]), (python, native)


def test_a_power_of_none_is_an_error_in_both_backends_even_to_the_power_0(tmp_path: Path) -> None:
    # the Python backend once answered `none ** 0` with 1 (its power looked at the exponent first)
    def setting(test: str) -> str:
        return LISTED.replace('{set: {hit: "TEST"}}, {add: {hits: "1 if hit else 0"}}', f'{{set: {{hits: "{test}"}}}}')
    nothing = "max(0 for p in [] if false)"
    case = _cases(tmp_path, "powers", setting("TEST"), "TEST", [
        f"{nothing} ** 0", f"1 ** {nothing}", f"0 ** {nothing}", "size(waste) ** 0 + 0 ** size(waste)"])
    for k in range(3):
        failure = _fail_alike(case(k), "a number was expected, got none")
        assert "while evaluating" in failure, failure
    rules = case(3)
    assert _python_ending(rules)[:4] == _native_ending(rules)[:4] == ("end", 9, "over", [1])


def test_the_least_or_greatest_of_one_none_is_none_in_both_backends_and_of_two_an_error(tmp_path: Path) -> None:
    # `max(... for ...)` of a single `none` item is that item, `none` (Python's max compares nothing);
    # of two, comparing them fails. Compiled code once stopped at the first `none` item.
    both = "max(c.rank if c.rank > 20 else none for c in cards(waste)) == none and min(c.rank for c in cards(waste)) > 0"
    case = _cases(tmp_path, "best", LISTED, "TEST", [
        f"{func}((none if c.rank > 0 else 1) for c in cards(waste)) == none" for func in ("max", "min")])
    for k in range(2):
        python, native = _python_ending(case(k)), _native_ending(case(k))
        assert python[:2] == ("error", 1), python  # the first draw: one none, hit; the second: two
        assert native[:2] == python[:2], (python, native)
    one = _write(tmp_path, "one", LISTED.replace("TEST", both).replace("size(stock) < 44", "size(stock) < 52"))
    rules = load_ruleset(one)  # (a game of one draw: the end differs, so a module of its own)
    assert _python_ending(rules)[:4] == _native_ending(rules)[:4] == ("end", 1, "over", [1])


# -- values of two kinds compared ------------------------------------------------------------------

MIXED = MULWRAP.replace("end: {when: [{if: \"size(stock) < 44\", result: over}]}",
                        "end: {when: [{if: \"size(stock) < 50\", result: over}]}").replace(
    "score: big", 'score: "(1 if NONE_NUMBER == NONE_PILE else 0) + (10 if THREE == waste else 0)'
                  ' + (100 if NONE_NUMBER != waste else 0) + (1000 if THREE != stock else 0)"')


def test_values_of_two_kinds_compare_as_the_python_backend_compares_them(tmp_path: Path) -> None:
    # (found by benchmarks/native_fuzz.py) a number and a pile, each `none` or not: equal when both
    # are none, never when one is, else as numbers (a pile is its number in the Python backend);
    # compiled code had them never equal.
    text = (MIXED.replace("NONE_NUMBER", "argmin(2 for x in [])")
            .replace("NONE_PILE", "argmin(size(p) for p in list(q for q in [stock, waste] if false))")
            .replace("THREE", "argmin(x for x in [1])"))
    rules = load_ruleset(_write(tmp_path, "mixed", text))
    python, native = _python_ending(rules), _native_ending(rules)
    assert python[0] == "end" and python[3] == [1 + 10 + 100 + 1000]  # waste is pile 1, stock pile 0
    assert native == python


FACE_OF_NONE = """
ruleset: faceofnone
players: 1
deck: standard-52
zones: {stock: {short: s}, waste: {short: w}, tableau: {short: t, count: 2}}
variables: {looked: {initial: 0}}
setup: [{take_deck: stock}]
moves:
  look:
    when: "size(stock) < 50 and any(c.face_up for c in list(top(p) for p in tableau))"
    do: [{add: {looked: 1}}]
  draw: {from: stock, to: waste}
end: {when: [{if: "size(stock) < 40", result: over}]}
"""


def test_the_face_of_a_comprehensions_item_that_is_none_is_an_error_in_both_backends(tmp_path: Path) -> None:
    # `list(top(p) for p in tableau)` holds none for an empty pile; its face is an error in the
    # Python backend (compiled code read it as face down, and played on).
    rules = load_ruleset(_write(tmp_path, "faceofnone", FACE_OF_NONE))
    _fail_alike(rules, "'c.face_up'")


COUNTED = """
ruleset: counted
players: 1
deck: standard-52
zones: {stock: {short: s}, waste: {short: w}}
setup: [{take_deck: stock}]
moves:
  draw: {from: stock, to: waste, do: [{move: {face: up}}]}
end: {when: [{if: "size(stock) < 49", result: over}]}
score: >-
  count(b for b in list(c.face_up for c in cards(stock))) * 10000 + count(b for b in [true, false, true]) * 1000 + count(b for b in list(x for x in [false, true])) * 100
  + count(b for b in [true, false, true] if b) * 10 + count(c.face_up for c in cards(waste))
"""


def test_count_of_truth_values_counts_as_the_python_backend_counts(tmp_path: Path) -> None:
    # (found in writing compiled code from the typed tree) an element the checker knows is a truth
    # value is counted where true; an item of a list (its kind known only in play) counts whatever
    # it is, as in the Python backend; compiled code counted the true ones (0 of the stock's 48)
    rules = load_ruleset(_write(tmp_path, "counted", COUNTED))
    python, native = _python_ending(rules), _native_ending(rules)
    assert python[0] == "end" and python[3] == [480000 + 3000 + 200 + 20 + 4]  # (48 cards left, four drawn face up)
    assert native == python


TRUTH_AND_NONE = """
ruleset: truthandnone
players: 1
deck: standard-52
zones: {stock: {short: s}, waste: {short: w}}
variables: {flag: {initial: false}, hits: {initial: 0}}
setup: [{take_deck: stock}]
moves:
  draw: {from: stock, to: waste, do: [move, {add: {hits: "1 if flag == none else 10"}}, {set: {flag: "not flag"}}]}
end: {when: [{if: "size(stock) < 48", result: over}]}
score: "hits + (100 if none != flag else 0)"
"""


def test_a_truth_value_compared_with_none_is_never_equal_in_both_backends(tmp_path: Path) -> None:
    # (compiled code failed to lower this: no code for a truth value that is none; a truth value
    # never is)
    rules = load_ruleset(_write(tmp_path, "truthandnone", TRUTH_AND_NONE))
    python, native = _python_ending(rules), _native_ending(rules)
    assert python[0] == "end" and python[3] == [5 * 10 + 100]
    assert native == python


UNTYPED_NUMBER = """
ruleset: untypednumber
players: 1
deck: standard-52
zones: {stock: {short: s}, waste: {short: w}}
variables: {last: {initial: "none"}, kept: {initial: "none"}, hits: {initial: 0}}
setup: [{take_deck: stock}]
moves:
  draw:
    from: stock
    to: waste
    do:
      - move
      - set: {last: "top(waste).rank if size(stock) % 2 == 0 else none", kept: "kept"}
      - add: {hits: "1000 if last == none else last"}
end: {when: [{if: "size(stock) < 44", result: over}]}
score: "hits + (1 if kept == none else 0)"
"""


def test_a_variable_not_typed_holding_numbers_or_none_plays_alike_in_both_backends(tmp_path: Path) -> None:
    # (found by benchmarks/native_fuzz.py) a variable whose initial value is not a number holds
    # none as well as numbers in the Python backend; compiled code stopped where one was set to none
    rules = load_ruleset(_write(tmp_path, "untypednumber", UNTYPED_NUMBER))
    python, native = _python_ending(rules), _native_ending(rules)
    assert python[0] == "end" and python[3][0] > 4000  # (four of the eight draws set none)
    assert native == python
