"""Conformance tables for the expression language (grammar/expressions.lark + interpreter/front/compiler.py).

The tests run in the world of ``tests/fixtures/expressions.yaml``: the ruleset is
loaded with ``load_ruleset`` and a compiler ``Scope`` is made from what it
declares (zones, options, variables, card attributes, functions). An expression
is parsed, compiled with ``Compiler`` and its generated Python source run against
a small fake state, with the same globals the ruleset builder gives generated
code (``RUNTIME_GLOBALS``, the ``A_<attr>`` card tables, ``PILE_ZONE``,
``PILE_INDEX``). The binding-free rows also run through the real loader, as end
conditions of a ruleset, so the hand-made harness cannot drift from the builder.

Tables:

* ``VALUES``: (expression, bindings, expected value).
* ``FOLDED`` / ``NOT_FOLDED``: which expressions compile to constants.
* ``ERRORS``: bad expressions, the offset of the error inside the expression
  string and a fragment of the message.
* ``HOSTILE``: Python-isms that must never reach ``exec``.
"""

from __future__ import annotations

import io
import json
import keyword
import tokenize
from pathlib import Path
from typing import Any

import pytest

from cardrules import RulesetError, find_ruleset, load_ruleset
from cardrules.front.compiler import (BOOL, CARD, CARDS, INT, LIST, PILE, RUNTIME_GLOBALS, STR, Compiled, CompileError,
                                Compiler, Function, InlinedFunctionError, Scope, type_of_value)
from cardrules.front.parser import ParseError, parse_expression, parse_signature
from cardrules.front.runtime import ValueCheckError
from cardrules.front.source import load_document

FIXTURES = Path(__file__).resolve().parent / "fixtures"
WORLD = FIXTURES / "expressions.yaml"

RULES = load_ruleset(WORLD)
WORLD_DATA = load_document(WORLD).data
DECK = RULES.deck
CARD_IDS = {code: i for i, code in enumerate(DECK.codes)}


def C(code: str) -> int:
    """The card id of a card code such as 'QH' or 'TD'."""
    return CARD_IDS[code]


# -- the world -------------------------------------------------------------------------------

_ATTRIBUTE_TYPES = {"int": INT, "str": STR, "list": LIST}


def _variable_type(initial: Any) -> str:
    return BOOL if isinstance(initial, bool) else INT if isinstance(initial, int) else "any"


def make_scope(extra_functions: dict[str, str] | None = None) -> Scope:
    """The scope a move condition of the fixture ruleset sees (without the move's bindings)."""
    functions = dict(WORLD_DATA["functions"])
    functions.update(extra_functions or {})
    scope = Scope(
        zones={name: (zone.piles, zone.single, zone.seat_piles is not None) for name, zone in RULES.zones.items()},
        options=dict(RULES.option_values),
        variables={name: (var.slot, _variable_type(WORLD_DATA["variables"][name]["initial"]), var.per_player)
                   for name, var in RULES.variables.items()},
        card_attributes={attr: _ATTRIBUTE_TYPES[t] for attr, t in DECK.attributes.items()},
    )
    for key, body in functions.items():
        signature = parse_signature(key)
        scope.functions[signature.name] = Function(signature.name, signature.params, parse_expression(body))
    return scope


SCOPE = make_scope()
# Two ruleset functions that call each other, and one that calls itself: only for the error table.
RECURSIVE_SCOPE = make_scope({"ping(x)": "pong(x)", "pong(x)": "1 + ping(x)", "selfish(n)": "n + selfish(n)"})

GLOBALS: dict[str, Any] = dict(RUNTIME_GLOBALS)
GLOBALS.update({f"A_{attr}": DECK.attribute_table(attr) for attr in DECK.attributes})
GLOBALS.update({"PILE_ZONE": RULES.pile_zone, "PILE_INDEX": RULES.pile_index})

# Pile indexes: stock 0, waste 1, foundation 2..5, tableau 6..8 (bottom card first in each list).
STOCK, WASTE, F0, F1, T0, T1, T2 = 0, 1, 2, 3, 6, 7, 8
FACE_DOWN = {"AS", "2S", "3S", "KS"}
PILES = {
    STOCK: ["AS", "2S", "3S"],      # all face down
    WASTE: ["5D", "9H"],
    F0: ["AC", "2C"],
    T0: ["KS", "QH", "JC"],         # KS face down: the face-up run is QH, JC
    T1: [],
    T2: ["7D"],
}
VARS = {"score": 42, "flag": True}


class FakeState:
    """What generated code reads: piles (card id lists), up (face-up flags by card id), vars (by slot)."""

    def __init__(self) -> None:
        self.piles = [[C(code) for code in PILES.get(i, [])] for i in range(RULES.pile_count)]
        self.up = bytearray(len(DECK))
        for pile in PILES.values():
            for code in pile:
                self.up[C(code)] = code not in FACE_DOWN
        self.vars = [0] * RULES.var_count
        for name, value in VARS.items():
            self.vars[RULES.variables[name].slot] = value
        self.current = 0


# A move's bindings: JC (with QH, taken as a run of two) from the first column onto the first foundation.
MOVE = {"card": C("JC"), "cards": [C("QH"), C("JC")], "src": T0, "dst": F0, "n": 2, "player": 0}
_BINDING_TYPES = {"card": CARD, "cards": CARDS, "src": PILE, "dst": PILE, "n": INT, "player": INT}


def _binding_type(name: str, value: Any) -> str:
    return _BINDING_TYPES.get(name) or type_of_value(value)


def compile_expr(expr: str, bindings: dict[str, Any] | None = None, scope: Scope = SCOPE) -> Compiled:
    extra = {name: (f"b_{name}", _binding_type(name, value)) for name, value in (bindings or {}).items()}
    return Compiler(scope.with_bindings(extra)).compile(parse_expression(expr))


def generated_function(expr: str, compiled: Compiled, bindings: dict[str, Any]) -> str:
    assigns = "".join(f"    b_{name} = env[{name!r}]\n" for name in bindings)
    return f"def _expr(S, env):\n    P = S.piles; U = S.up; V = S.vars\n{assigns}    return {compiled.source}\n"


def evaluate(expr: str, **bindings: Any) -> Any:
    """Compile `expr` in the fixture world and run the generated code against the fake state."""
    compiled = compile_expr(expr, bindings)
    namespace = dict(GLOBALS)
    exec(compile(generated_function(expr, compiled, bindings), "<test>", "exec"), namespace)
    result = namespace["_expr"](FakeState(), dict(bindings))
    if compiled.const:
        assert result == compiled.value, f"folded value {compiled.value!r} differs from the code's {result!r}"
    return result


def assert_same(actual: Any, expected: Any) -> None:
    """Equal, with True/1/none kept apart; lists and tuples compare by items."""
    if isinstance(expected, (list, tuple)):
        assert isinstance(actual, (list, tuple)), actual
        assert list(actual) == list(expected)
        return
    assert actual == expected
    assert type(actual) is type(expected), f"{actual!r} is a {type(actual).__name__}, expected {expected!r}"


# -- values ----------------------------------------------------------------------------------

VALUES: list[tuple[str, dict[str, Any], Any]] = [
    # literals
    ("42", {}, 42),
    ("true", {}, True),
    ("false", {}, False),
    ("none", {}, None),
    ("'single'", {}, "single"),
    ('"double"', {}, "double"),
    ('"it\'s"', {}, "it's"),
    ("'say \"hi\"'", {}, 'say "hi"'),
    ("''", {}, ""),
    # arithmetic and precedence; '/' is integer floor division
    ("1 + 2 * 3", {}, 7),
    ("(1 + 2) * 3", {}, 9),
    ("10 - 4 - 3", {}, 3),
    ("2 * 3 % 4", {}, 2),
    ("7 / 2", {}, 3),
    ("-7 / 2", {}, -4),
    ("x / 2", {"x": -7}, -4),
    ("x / y", {"x": 9, "y": 4}, 2),
    ("7 % 3", {}, 1),
    ("-7 % 3", {}, 2),
    ("- 3 + 5", {}, 2),
    ("-(2 + 3)", {}, -5),
    ("--3", {}, 3),
    ("-x * 2", {"x": 4}, -8),
    # powers: right-associative, tighter than a minus on their left (as in Python)
    ("2 ** 10", {}, 1024),
    ("-2 ** 2", {}, -4),
    ("(-2) ** 3", {}, -8),
    ("2 ** 3 ** 2", {}, 512),
    ("2 * 3 ** 2", {}, 18),
    ("x ** 0", {"x": 5}, 1),
    ("x ** y", {"x": -1, "y": 7}, -1),
    ("x ** y", {"x": 0, "y": 1000}, 0),
    ("x ** y", {"x": 2, "y": 62}, 2 ** 62),
    ("x ** y", {"x": -2, "y": 63 - 2}, -(2 ** 61)),
    ("x ** y", {"x": -3, "y": 39}, (-3) ** 39),
    # ranges
    # subsets: every set of the items, fewer items first, each in the items' order
    ("count(s for s in subsets(cards(tableau[0])))", {}, 8),
    ("list(size(s) for s in subsets(cards(tableau[0])))", {}, [0, 1, 1, 1, 2, 2, 2, 3]),
    ("list(s for s in subsets([1, 2, 3], 2))", {}, [[1, 2], [1, 3], [2, 3]]),
    ("list(s for s in subsets([1, 2, 3], 2, 3))", {}, [[1, 2], [1, 3], [2, 3], [1, 2, 3]]),
    ("list(s for s in subsets([1, 2, 3], -1, 0))", {}, [[]]),
    ("count(s for s in subsets([1, 2, 3], x))", {"x": 4}, 0),
    ("count(s for s in subsets([1, 2, 3], 3, 1))", {}, 0),
    ("sum(sum(i for i in s) for s in subsets([1, 2, 3]))", {}, 24),
    ("list(s[0] for s in subsets(cards(waste), 1))", {}, [C("5D"), C("9H")]),
    ("range(4)", {}, [0, 1, 2, 3]),
    ("range(2, 5)", {}, [2, 3, 4]),
    ("range(5, 2)", {}, []),
    ("range(-2, 1)", {}, [-2, -1, 0]),
    ("sum(i for i in range(x))", {"x": 5}, 10),
    ("3 in range(1, x)", {"x": 4}, True),
    ("x in range(1, 4)", {"x": 4}, False),
    ("size(range(x, 10))", {"x": 3}, 7),
    ("list(p for p in tableau if p.index in range(1, 3))", {}, [T1, T2]),
    # slicing: Python's, on lists, cards, a pile's cards and a zone's piles
    ("[1, 2, 3, 4][1:3]", {}, [2, 3]),
    ("[1, 2, 3][:-1]", {}, [1, 2]),
    ("[1, 2, 3][-2:]", {}, [2, 3]),
    ("[1, 2, 3][:]", {}, [1, 2, 3]),
    ("[1, 2, 3][5:]", {}, []),
    ("range(10)[x:x + 2]", {"x": 3}, [3, 4]),
    ("tableau[1:]", {}, [T1, T2]),
    ("tableau[:x]", {"x": 1}, [T0]),
    ("size(foundation[2:])", {}, 2),
    ("tableau[0][1:]", {}, [C("QH"), C("JC")]),
    ("cards(tableau[0])[:1]", {}, [C("KS")]),
    ("top(cards(tableau[0])[:-1])", {}, C("QH")),
    ("cards[1:]", MOVE, [C("JC")]),
    ("all(c.face_up for c in cards(src)[1:])", MOVE, True),
    ("size(waste[x:])", {"x": -1}, 1),
    # comparisons
    ("1 < 2", {}, True),
    ("2 <= 2", {}, True),
    ("3 > 4", {}, False),
    ("3 >= 4", {}, False),
    ("1 == 1", {}, True),
    ("1 != 1", {}, False),
    ("x < y", {"x": 3, "y": 5}, True),
    ("1 + 1 == 2", {}, True),
    ("'a' == 'a'", {}, True),
    ("'a' != \"a\"", {}, False),
    # and / or / not, with their precedence and short circuit
    ("true and false", {}, False),
    ("true or false", {}, True),
    ("not true", {}, False),
    ("not not true", {}, True),
    ("true or false and false", {}, True),
    ("not 1 == 2", {}, True),
    ("not x and y", {"x": False, "y": True}, True),
    ("x or y", {"x": False, "y": False}, False),
    ("empty(dst) or top(dst).rank == 1", {**MOVE, "dst": T1}, True),
    ("not empty(dst) and top(dst).rank == 1", {**MOVE, "dst": T1}, False),
    ("x > 0 and 10 / x > 1", {"x": 0}, False),
    ("x == 0 or 10 / x > 1", {"x": 0}, True),
    # in / not in
    ("3 in [1, 2, 3]", {}, True),
    ("4 not in [1, 2, 3]", {}, True),
    ("x in [1, 2]", {"x": 2}, True),
    ("x not in [1, 2]", {"x": 2}, False),
    ("card.suit in ['hearts', 'diamonds']", MOVE, False),
    ("card in cards", MOVE, True),
    ("dst in foundation", MOVE, True),
    ("src not in foundation", MOVE, True),
    ("'ell' in 'hello'", {}, True),
    # the conditional
    ("1 if true else 2", {}, 1),
    ("1 if x > 0 else 2", {"x": -1}, 2),
    ("1 if false else 2 if false else 3", {}, 3),
    ("1 if x else 2 if y else 3", {"x": False, "y": True}, 2),
    ("top(dst).rank if not empty(dst) else 0", {**MOVE, "dst": T1}, 0),
    ("(1 if x else 2) + 10", {"x": True}, 11),
    # lists
    ("[1, 2, 3]", {}, [1, 2, 3]),
    ("[]", {}, []),
    ("[x, x + 1]", {"x": 5}, [5, 6]),
    ("[1, 2][1]", {}, 2),
    ("[x, 7][1]", {"x": 5}, 7),
    ("size([1, 2, 3])", {}, 3),
    ("empty([])", {}, True),
    # comprehensions
    ("all(size(f) == 0 for f in foundation)", {}, False),
    ("any(size(f) == 2 for f in foundation)", {}, True),
    ("sum(size(p) for p in tableau)", {}, 4),
    ("count(p for p in tableau if empty(p))", {}, 1),
    ("count(empty(p) for p in tableau)", {}, 1),
    ("count(x for x in [1, 2, 3, 4] if x % 2 == 0)", {}, 2),
    ("min(c.rank for c in cards(tableau[0]))", {}, 11),
    ("max(c.rank for c in cards(tableau[0]))", {}, 13),
    ("max(c.rank for c in cards(tableau[1]))", {}, None),
    # argmax / argmin: the first item with the highest / lowest number; none when there is none
    ("argmax(c.rank for c in cards(tableau[0]))", {}, C("KS")),
    ("argmin(c.rank for c in cards(tableau[0]))", {}, C("JC")),
    ("argmax(size(p) for p in tableau)", {}, T0),
    ("argmin(size(p) for p in tableau)", {}, T1),
    ("argmax(x % 3 for x in [1, 2, 5, 4])", {}, 2),
    ("argmin(x % 3 for x in [3, 1, 6])", {}, 3),
    ("argmax(c.rank for c in cards(tableau[0]) if c.face_up)", {}, C("QH")),
    ("argmax(x for x in range(5) if x < 0)", {}, None),
    ("argmin(size(p) for p in foundation) == foundation[1]", {}, True),
    ("(3 + argmax(-i for i in range(4))) % 4", {}, 3),
    ("list(c.rank for c in cards(tableau[0]) if c.face_up)", {}, [12, 11]),
    ("list(p.index for p in tableau)", {}, [0, 1, 2]),
    ("list(p for p in foundation if not empty(p))", {}, [F0]),
    ("sum(x for x in [1, 2, 3] if x != 2)", {}, 4),
    ("all(x > 0 for x in [])", {}, True),
    ("any(x > 0 for x in [])", {}, False),
    ("all(a.rank == b.rank + 1 for a, b in pairs(cards))", MOVE, True),
    ("all(a.color != b.color for a, b in pairs(run(tableau[0])))", {}, True),
    ("count(a for a, b in pairs([1, 2, 3]))", {}, 2),
    ("list(a + b for a, b in pairs([1, 2, 4]))", {}, [3, 6]),
    ("sum(count(c for c in cards(p) if c.face_up) for p in tableau)", {}, 3),
    ("sum(n for n in [1, 2])", MOVE, 3),
    # builtins
    ("size(stock)", {}, 3),
    ("size(tableau)", {}, 3),
    ("size(cards)", MOVE, 2),
    ("empty(stock)", {}, False),
    ("empty(tableau[1])", {}, True),
    ("top(waste)", {}, C("9H")),
    ("bottom(waste)", {}, C("5D")),
    ("top(tableau[1])", {}, None),
    ("top(tableau[1]) == none", {}, True),
    ("top(cards)", MOVE, C("JC")),
    ("bottom(cards)", MOVE, C("QH")),
    ("cards(waste)", {}, [C("5D"), C("9H")]),
    ("run(tableau[0])", {}, [C("QH"), C("JC")]),
    ("run(stock)", {}, []),
    ("min(3, 1, 2)", {}, 1),
    ("max(x, 4)", {"x": 7}, 7),
    ("min([4, 2, 9])", {}, 2),
    ("max(list(c.rank for c in cards(waste)))", {}, 9),
    ("abs(-5)", {}, 5),
    ("abs(x - 10)", {"x": 3}, 7),
    ("count([1, 2, 3])", {}, 3),
    ("count(tableau)", {}, 3),
    ("sum([1, 2, 3])", {}, 6),
    # card attributes
    ("card.rank", MOVE, 11),
    ("card.suit", MOVE, "clubs"),
    ("card.color", MOVE, "black"),
    ("card.face_up", MOVE, True),
    ("top(stock).face_up", {}, False),
    ("top(waste).rank + 1", {}, 10),
    ("top(waste).color == 'red'", {}, True),
    ("tableau[0][0].rank", {}, 13),
    ("stock[0]", {}, C("AS")),
    ("cards[0].suit", MOVE, "hearts"),
    # pile attributes
    ("dst.index", MOVE, 0),
    ("dst.zone", MOVE, "foundation"),
    ("src.zone == 'tableau'", MOVE, True),
    ("tableau[2].index", {}, 2),
    ("stock.zone", {}, "stock"),
    ("stock.index", {}, 0),
    # zone names: a single pile, or the list of a zone's piles
    ("stock", {}, STOCK),
    ("waste", {}, WASTE),
    ("foundation", {}, [2, 3, 4, 5]),
    ("tableau[1]", {}, T1),
    ("size(foundation)", {}, 4),
    # options
    ("option.draw", {}, 3),
    ("option.mode", {}, "hard"),
    ("option.strict", {}, True),
    ("option.draw * 2", {}, 6),
    ("10 if option.mode == 'hard' else 1", {}, 10),
    ("min(option.draw, size(src))", MOVE, 3),
    # variables
    ("score", {}, 42),
    ("flag", {}, True),
    ("score + 1", {}, 43),
    ("score > 40 and flag", {}, True),
    # ruleset functions (inlined)
    ("next_rank(card)", MOVE, 12),
    ("fits(card, dst)", MOVE, False),
    ("fits(top(tableau[2]), tableau[1])", {}, True),
    ("fits(foundation[0][0], foundation[0])", {}, True),
    ("double(double(3))", {}, 12),
    ("double(score)", {}, 84),
    ("double(x + 1)", {"x": 2}, 6),
    ("bonus()", {}, 10),
    ("over(40)", {}, True),
    ("shadow(5)", {}, 6),
    ("greeting()", {}, "hello"),
    ("sum(double(x) for x in [1, 2])", {}, 6),
]


def _case_id(expr: str, bindings: dict[str, Any]) -> str:
    return expr if not bindings else f"{expr} | {','.join(sorted(bindings))}"


@pytest.mark.parametrize("expr,bindings,expected",
                         [pytest.param(e, b, v, id=_case_id(e, b)) for e, b, v in VALUES])
def test_value(expr: str, bindings: dict[str, Any], expected: Any) -> None:
    assert_same(evaluate(expr, **bindings), expected)


def test_value_table_is_large() -> None:
    assert len(VALUES) >= 60


# The rows that need no bindings, run through the real loader: a trigger sets a variable that
# may hold any value (`initial: none`) to the expression.
LOADER_ROWS = [(e, v) for e, b, v in VALUES if not b]


def _world_with_probe(tmp_path: Path, expr: str) -> Path:
    text = WORLD.read_text(encoding="utf-8").replace("variables:\n", "variables:\n  probe:\n    initial: none\n", 1)
    text += f"\ntriggers:\n  - do:\n      - set: {{probe: {json.dumps(expr)}}}\n"
    path = tmp_path / "world.yaml"
    path.write_text(text, encoding="utf-8")
    return path


class _SettableState(FakeState):
    def set_var(self, slot: int, value: Any) -> None:
        self.vars[slot] = value


@pytest.mark.parametrize("expr,expected", [pytest.param(e, v, id=e) for e, v in LOADER_ROWS])
def test_value_through_loader(tmp_path: Path, expr: str, expected: Any) -> None:
    rules = load_ruleset(_world_with_probe(tmp_path, expr))
    (trigger,) = rules.triggers
    state = _SettableState()
    state.vars = [0] * rules.var_count
    for name, value in VARS.items():
        state.vars[rules.variables[name].slot] = value
    trigger.run(state, {"player": 0})
    assert_same(state.vars[rules.variables["probe"].slot], expected)


def test_world_fixture_loads_with_its_functions() -> None:
    assert set(RULES.zones) == {"stock", "waste", "foundation", "tableau"}
    assert RULES.option_values == {"draw": 3, "mode": "hard", "strict": True}
    assert RULES.pile_count == 9
    assert set(SCOPE.functions) == {"next_rank", "fits", "double", "bonus", "over", "shadow", "greeting"}


# -- constant folding ------------------------------------------------------------------------

FOLDED: list[tuple[str, Any]] = [
    ("option.draw == 3", True),
    ("option.draw", 3),
    ("option.mode", "hard"),
    ("1 + 2 * 3", 7),
    ("-7 / 2", -4),
    ("option.draw * 2 + 1", 7),
    ("min(option.draw, 2)", 2),
    ("max(1, option.draw)", 3),
    ("abs(-3)", 3),
    ("not option.strict", False),
    ("'a' if option.strict else 'b'", "a"),
    ("10 if option.mode == 'hard' else 1", 10),
    ("3 in [1, 2, 3]", True),
    ("option.mode not in ['easy']", True),
    ("[1, option.draw]", [1, 3]),
    ("option.mode != 'hard' and score > 0", False),
    ("option.strict or score > 0", True),
    ("bonus()", 10),
    ("double(option.draw)", 6),
    ("double(double(3))", 12),
    ("'text'", "text"),
    ("none", None),
    ("2 ** option.draw", 8),
    ("[1, 2, 3][1:]", [2, 3]),
    ("range(option.draw)", [0, 1, 2]),
    ("range(2, 5)", [2, 3, 4]),
]


@pytest.mark.parametrize("expr,value", [pytest.param(e, v, id=e) for e, v in FOLDED])
def test_constant_folding(expr: str, value: Any) -> None:
    compiled = compile_expr(expr)
    assert compiled.const, f"{expr!r} compiled to {compiled.source!r}, not to a constant"
    assert_same(compiled.value, value)
    # The source of a constant is its literal: it needs no state and no names at all.
    assert _python_names(compiled.source) == set()
    assert eval(compiled.source, {"__builtins__": {}}) == compiled.value


NOT_FOLDED = ["score + 1", "size(stock)", "option.draw == score", "score > 0 and option.strict",
              "1 / 0", "top(waste).rank", "flag if option.strict else false", "2 ** -1", "2 ** 64",
              "range(score)", "range(2000)"]


@pytest.mark.parametrize("expr", NOT_FOLDED)
def test_not_folded(expr: str) -> None:
    assert not compile_expr(expr).const


@pytest.mark.parametrize("expr", ["range(9223372036854775807)", "range(-9223372036854775807, 9223372036854775807)",
                                  "size(range(-9223372036854775807, 0))"])
def test_a_range_too_long_to_fold_is_an_error_when_it_runs_not_at_load(expr: str) -> None:
    # (found by benchmarks/native_fuzz.py: the length of such a range does not fit a C size, and
    # working it out at load raised OverflowError instead of leaving the range to run time)
    assert not compile_expr(expr).const
    with pytest.raises(ValueCheckError, match="has more than"):
        evaluate(expr)


# -- errors ----------------------------------------------------------------------------------

# (expression, offset inside the expression, fragment of the message)
ERRORS: list[tuple[str, int, str]] = [
    # syntax
    ("1 +", 3, "end of the expression"),
    ("a ==", 4, "end of the expression"),
    ("a ==   ", 4, "end of the expression"),  # trailing blanks: just after the last character
    ("f(1,", 4, "end of the expression"),
    ("(1 + 2", 6, "end of the expression"),
    ("[1, 2", 5, "end of the expression"),
    ("x $ y", 2, "unexpected character '$'"),
    ("a b", 2, "unexpected 'b'"),
    ("1 + 2)", 5, "unexpected ')'"),
    (")", 0, "unexpected ')'"),
    ("1 +* 2", 3, "unexpected '*'"),
    ("1 == 2 == 3", 7, "unexpected '=='"),
    ("1 or or 2", 5, "unexpected 'or'"),  # a keyword is not a name
    ("a = 1", 2, "unexpected character '='"),
    ("f(,)", 2, "unexpected ','"),
    ("a.1", 2, "unexpected '1'"),
    ("'abc", 0, "unexpected character"),
    ("", 0, "empty expression"),
    ("   ", 0, "empty expression"),
    # unknown names (a zone is a name)
    ("nope + 1", 0, "unknown name 'nope'"),
    ("1 + nope", 4, "unknown name 'nope'"),
    ("size(nowhere)", 5, "unknown name 'nowhere'"),
    ("all(size(p) > 0 for p in tablo)", 25, "unknown name 'tablo'"),
    ("[1, nope]", 4, "unknown name 'nope'"),
    ("size", 0, "is a function"),
    ("next_rank", 0, "is a function"),
    # options
    ("option.nope", 7, "unknown option 'nope'"),
    ("1 + option.nope", 11, "unknown option 'nope'"),
    ("option", 0, "'option' needs a name"),
    ("option + 1", 0, "'option' needs a name"),
    # attributes
    ("card.rnk", 5, "unknown card attribute 'rnk' (did you mean 'rank'?"),
    ("top(dst).rnk == 1", 9, "unknown card attribute 'rnk' (did you mean 'rank'?"),
    ("dst.size", 4, "piles have no attribute 'size'"),
    ("stock.rank", 6, "piles have no attribute 'rank'"),
    ("flag.rank", 5, "a truth value has no attribute 'rank'"),
    # functions
    ("frobnicate(1)", 0, "unknown function 'frobnicate'"),
    ("1 + frob(2)", 4, "unknown function 'frob'"),
    ("size(stock, waste)", 0, "size() takes 1 argument, got 2"),
    ("top()", 0, "top() takes 1 argument, got 0"),
    ("min()", 0, "min() needs at least one argument"),
    ("next_rank(card, card)", 0, "next_rank() takes 1 argument(s), got 2"),
    ("bonus(1)", 0, "bonus() takes 0 argument(s), got 1"),
    ("foo(x for x in tableau)", 0, "'foo(... for ...)' is not allowed"),
    ("argmax(a.rank for a, b in pairs(cards(waste)))", 26, "argmax(...) gives one item"),
    ("argmin(c for c in cards(waste))", 7, "expected a number, got a card"),
    ("argmax(c.suit for c in cards(waste))", 7, "expected a number, got a string"),
    # types
    ("top(card)", 4, "expected a pile or a list of cards, got a card"),
    ("cards(card)", 6, "expected a pile, got a card"),
    ("abs('x')", 4, "expected a number, got a string"),
    ("card + 1", 0, "'+' needs numbers, got a card"),
    ("1 + card", 4, "'+' needs numbers, got a card"),
    ("dst * 2", 0, "'*' needs numbers, got a pile"),
    ("-card", 1, "'-' needs a number, got a card"),
    ("1 + []", 4, "'+' joins two lists or adds two numbers, got a number and a list"),
    ("1 + [ 2]", 4, "'+' joins two lists or adds two numbers, got a number and a list"),
    ("3 in 5", 5, "'in' needs a list"),
    ("sum(x for x in 5)", 15, "expected a list of piles"),
    ("all(a for a, b in tableau)", 18, "only pairs(...) can be unpacked"),
    ("all(a for a in pairs(cards))", 15, "two values per step"),
    # powers, ranges and slices
    ("card ** 2", 0, "'**' needs numbers, got a card"),
    ("2 ** 'x'", 5, "'**' needs numbers, got a string"),
    ("2 **", 4, "end of the expression"),
    ("range()", 0, "range() takes 1 or 2 arguments, got 0"),
    ("range(1, 2, 3)", 0, "range() takes 1 or 2 arguments, got 3"),
    ("range('a')", 6, "expected a number, got a string"),
    ("card[1:]", 0, "expected a pile or a list of cards or a list of piles or a list, got a card"),
    ("tableau['a':]", 8, "expected a number, got a string"),
    ("tableau[1:2:3]", 11, "unexpected ':'"),
]


def compile_error(expr: str, scope: Scope = SCOPE) -> ParseError | CompileError:
    with pytest.raises((ParseError, CompileError)) as info:
        compile_expr(expr, MOVE, scope)
    return info.value


@pytest.mark.parametrize("expr,offset,fragment", [pytest.param(e, o, f, id=repr(e)) for e, o, f in ERRORS])
def test_error(expr: str, offset: int, fragment: str) -> None:
    error = compile_error(expr)
    assert fragment in error.message
    assert error.offset == offset, f"error at offset {error.offset}, expected {offset}: {error.message}"


def test_syntax_errors_are_parse_errors_and_name_errors_are_compile_errors() -> None:
    assert isinstance(compile_error("1 +"), ParseError)
    assert isinstance(compile_error("nope"), CompileError)


def test_error_table_is_large() -> None:
    assert len(ERRORS) >= 30


def test_mutual_recursion_between_ruleset_functions() -> None:
    # ping(x) = "pong(x)", pong(x) = "1 + ping(x)": the cycle is found inside pong's body.
    error = compile_error("ping(1)", RECURSIVE_SCOPE)
    assert isinstance(error, InlinedFunctionError)
    assert "recursion is not allowed" in error.message
    assert "ping -> pong -> ping" in error.message
    assert error.function.name == "pong"
    assert error.offset == len("1 + ")


def test_self_recursion() -> None:
    error = compile_error("selfish(2)", RECURSIVE_SCOPE)
    assert isinstance(error, InlinedFunctionError)
    assert "selfish -> selfish" in error.message
    assert error.function.name == "selfish"
    assert error.offset == len("n + ")


def test_error_inside_an_inlined_body_names_the_function() -> None:
    # next_rank(c) = "c.rank + 1": given a pile, the error is in next_rank's own text, at 'rank'.
    error = compile_error("next_rank(dst)")
    assert isinstance(error, InlinedFunctionError)
    assert error.function.name == "next_rank"
    assert error.offset == 2
    assert "piles have no attribute 'rank'" in error.message


# -- ruleset text never reaches eval ---------------------------------------------------------

# Python that must be rejected before any code is generated, and the message fragment.
HOSTILE: list[tuple[str, str]] = [
    ("__import__('os')", "unknown function '__import__'"),
    ("__import__('os').system('true')", "unexpected '('"),  # no method calls in the grammar
    ("open('/etc/passwd')", "unknown function 'open'"),
    ("eval('1')", "unknown function 'eval'"),
    ("exec('1')", "unknown function 'exec'"),
    ("getattr(card, 'rank')", "unknown function 'getattr'"),
    ("globals()", "unknown function 'globals'"),
    ("len(cards)", "unknown function 'len'"),
    ("xrange(3)", "unknown function 'xrange'"),
    ("face_up_run(cards, U)", "unknown function 'face_up_run'"),
    ("card.__class__", "unknown card attribute '__class__'"),
    ("card.__class__.__mro__", "unknown card attribute '__class__'"),
    ("dst.__class__", "no attribute '__class__'"),
    ("option.__class__", "unknown option '__class__'"),
    ("__builtins__", "unknown name '__builtins__'"),
    ("S", "unknown name 'S'"),
    ("env", "unknown name 'env'"),
    ("P", "unknown name 'P'"),
    ("V", "unknown name 'V'"),
    ("U", "unknown name 'U'"),
    ("A_rank", "unknown name 'A_rank'"),
    ("PILE_ZONE", "unknown name 'PILE_ZONE'"),
    ("b_card", "unknown name 'b_card'"),
    ("None", "unknown name 'None'"),
    ("True", "unknown name 'True'"),
]


@pytest.mark.parametrize("expr,fragment", [pytest.param(e, f, id=e) for e, f in HOSTILE])
def test_hostile_expression_is_rejected_by_the_compiler(expr: str, fragment: str) -> None:
    error = compile_error(expr)
    assert fragment in error.message


MINI_RULESET = """\
ruleset: hostile
deck: standard-52
zones:
  stock: {{short: s}}
  waste: {{short: w}}
setup:
  - take_deck: stock
moves:
  draw:
    from: stock
    to: waste
    when: {when}
"""


@pytest.mark.parametrize("expr,fragment", [pytest.param(e, f, id=e) for e, f in HOSTILE])
def test_hostile_expression_is_rejected_at_load(tmp_path: Path, expr: str, fragment: str) -> None:
    path = tmp_path / "hostile.yaml"
    path.write_text(MINI_RULESET.format(when=json.dumps(expr)), encoding="utf-8")
    with pytest.raises(RulesetError) as info:
        load_ruleset(path)
    assert fragment in info.value.message
    assert info.value.pos is not None and info.value.pos.line == 12


def test_string_literal_cannot_break_out_of_the_generated_code() -> None:
    sneaky = "\") or __import__(\"os\") or (\""
    expr = f"'{sneaky}'"
    compiled = compile_expr(expr)
    assert compiled.const and compiled.value == sneaky
    assert evaluate(expr) == sneaky
    assert evaluate(f"{expr} == card.suit", **MOVE) is False


# Python names generated code may use: keywords, the runtime helpers, the state parts, and
# names with a prefix the compiler owns (b_ bindings, l_ comprehension locals, p_ untyped
# function parameters, A_ card attribute tables, PILE_ tables); `default` is min/max's keyword.
_RUNTIME_NAMES = set(RUNTIME_GLOBALS) - {"__builtins__"}
_STATE_NAMES = {"P", "U", "V", "default"}
_PREFIXES = ("b_", "l_", "p_", "A_", "PILE_")


def _tokens(source: str) -> list[tokenize.TokenInfo]:
    return list(tokenize.generate_tokens(io.StringIO(source).readline))


def _python_names(source: str) -> set[str]:
    """Names the code looks up (attribute names after a '.' are left out)."""
    tokens = _tokens(source)
    after_dot = {i + 1 for i, t in enumerate(tokens) if t.type == tokenize.OP and t.string == "."}
    return {t.string for i, t in enumerate(tokens)
            if t.type == tokenize.NAME and not keyword.iskeyword(t.string) and i not in after_dot}


def _attribute_names(source: str) -> set[str]:
    tokens = _tokens(source)
    return {t.string for prev, t in zip(tokens, tokens[1:]) if prev.type == tokenize.OP and prev.string == "."}


def _foreign_names(source: str) -> set[str]:
    return {name for name in _python_names(source)
            if name not in _RUNTIME_NAMES | _STATE_NAMES and not name.startswith(_PREFIXES)}


@pytest.mark.parametrize("expr,bindings", [pytest.param(e, b, id=_case_id(e, b)) for e, b, _ in VALUES])
def test_generated_source_uses_only_prefixed_names(expr: str, bindings: dict[str, Any]) -> None:
    compiled = compile_expr(expr, bindings)
    assert _foreign_names(compiled.source) == set(), compiled.source
    assert _attribute_names(compiled.source) == set(), compiled.source  # no attribute access at all


_DSL_BUILTINS = {"size", "empty", "top", "bottom", "cards", "run", "count", "pairs", "list", "option"}
_DSL_BINDINGS = {"card", "cards", "src", "dst", "n", "player", "move", "i"}


def _ruleset_words(path: Path) -> set[str]:
    """Every name a ruleset's text defines or uses: zones, options, variables, functions, moves."""
    data = load_document(path).data
    words = set(data["zones"]) | {z.get("short", name) for name, z in data["zones"].items()}
    words |= set(data.get("options", {})) | set(data.get("variables", {})) | set(data["moves"])
    for key in data.get("functions", {}):
        signature = parse_signature(key)
        words |= {signature.name, *signature.params}
    return words | _DSL_BUILTINS | _DSL_BINDINGS


@pytest.mark.parametrize("ruleset", ["klondike", "expressions.yaml", "mini.yaml"])
def test_generated_source_of_a_ruleset_has_no_ruleset_names(ruleset: str) -> None:
    path = find_ruleset(ruleset if ruleset == "klondike" else FIXTURES / ruleset)
    source = load_ruleset(path).generated_source
    names = _python_names(source)
    assert names & _ruleset_words(path) == set()
    assert not {n for n in names if n.startswith("__")}
    assert not names & {"eval", "exec", "open", "getattr", "setattr", "globals", "locals", "compile", "vars",
                        "type", "object", "print", "input", "__import__"}


def test_ruleset_names_that_shadow_python_names_stay_data() -> None:
    """Zones, variables, options and functions named like Python builtins or generated-code names
    (P, V, S, env, len, exec, open, eval, __import__) load and play like any others."""
    rules = load_ruleset(FIXTURES / "python_names.yaml")
    game = rules.new_game(seed=1)
    # 'go' (P onto len) once, 'spread' (P onto each env pile) twice.
    assert sorted(move.name for move in game.legal_moves()) == ["go", "spread", "spread"]
    go = next(move for move in game.legal_moves() if move.name == "go")
    game.apply(go)
    assert [len(pile) for pile in game.state.piles] == [51, 1, 0, 0]
    # Now len holds a card, so 'go' is no longer legal; the env piles are still empty, so 'spread' is.
    assert sorted(move.name for move in game.legal_moves()) == ["spread", "spread"]
