"""The typed tree (front/typed.py): what the checker (front/checker.py) makes of an expression, and
the Python writer (front/emit_python.py) that reads it.

Every kind of node `KINDS` names is made by some expression here (a kind no expression makes would
be a kind no backend is ever tested on), every kind has a Python writer, and the tree decides what a
backend must not decide again: types, folded constants, functions written out, run-time checks.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from cardrules.front.checker import Checker
from cardrules.front.compile_types import (ANY, BOOL, CARD, INT, LIST, PILE, PILES, STR, CompileError, Function,
                                           Scope)
from cardrules.front.compiler import Compiler
from cardrules.front.emit_python import _WRITERS
from cardrules.front.parser import parse_expression
from cardrules.front.typed import KINDS, Typed

# stock 0, waste 1, tableau 2-4; each of 4 seats' hand 5-8; a variable `score` in slot 0, each
# seat's `points` in slots 1-4, and `held` in slot 5, of a kind known only at run time.
SCOPE = Scope(
    bindings={"player": ("b_player", INT), "card": ("b_card", CARD), "dst": ("b_dst", PILE)},
    variables={"score": (0, INT, False), "points": (1, INT, True), "held": (5, ANY, False)},
    card_variables={"played_at": (6, INT)},
    zones={"stock": ((0,), True, False), "waste": ((1,), True, False), "tableau": ((2, 3, 4), False, False),
           "hand": ((5, 6, 7, 8), True, True)},
    options={"draw": 3},
    card_attributes={"rank": INT, "suit": STR, "tags": LIST},
    functions={"twice": Function("twice", ("x",), parse_expression("x * 2")),
               "fits": Function("fits", ("c", "p"), parse_expression("empty(p) or top(p).rank == c.rank + 1"))},
)

# (expression, a kind its tree holds)
MADE_BY: list[tuple[str, str]] = [
    ("option.draw + 1", "const"),
    ("stock", "pile"),
    ("tableau", "piles"),
    ("player", "binding"),
    ("score", "variable"),
    ("points", "variable"),
    ("of(points, score)", "seat_variable"),
    ("hand", "seat_zone"),
    ("of(hand, score)", "zone_of"),
    ("all(size(p) > 0 for p in tableau)", "item"),
    ("twice(score)", "param"),
    ("twice(score)", "inline"),
    ("card.face_up", "face_up"),
    ("top(stock).face_up", "face_up"),
    ("any(c.face_up for c in cards(stock))", "face_up"),
    ("card.rank", "card_attr"),
    ("top(stock).played_at", "card_variable"),
    ("held + held", "plus"),
    ("disjoint([[1, 2], [2]])", "disjoint"),
    ("played_at + 1", "card_variable"),
    ("dst.index", "pile_attr"),
    ("held + 1", "check"),
    ("size(held)", "loose"),
    ("stock[0].rank", "index_pile"),
    ("cards(stock)[score]", "index"),
    ("cards(stock)[1:score]", "slice"),
    ("covered(stock)", "covered"),
    ("size(stock)", "size"),
    ("empty(waste)", "empty"),
    ("top(stock)", "end"),
    ("cards(waste)", "cards"),
    ("run(waste)", "run"),
    ("size(legal_moves())", "legal_moves"),
    ("all(a.rank < b.rank for a, b in pairs(cards(stock)))", "pairs"),
    ("count(s for s in subsets(cards(stock), 2))", "subsets"),
    ("abs(score)", "abs"),
    ("size(range(score))", "range"),
    ("min(card.tags)", "best_of"),
    ("max(score, 2)", "best"),
    ("count(cards(stock))", "list_count"),
    ("sorted([2, 1])", "sorted"), ("unique(cards(stock))", "unique"), ("index(cards(stock), top(stock))", "index_of"),
    ("sum(card.tags)", "list_fold"),
    ("sum(c.rank for c in cards(stock) if c.face_up)", "comprehension"),
    ("sum(c.rank for c in cards(stock))", "iterate"),
    ("score > 1 and empty(stock)", "and"),
    ("score > 1 or empty(stock)", "or"),
    ("score * 3", "arith"),
    ("cards(stock) + cards(waste)", "join"),
    ("score <= 3", "compare"),
    ("card in cards(stock)", "in"),
    ("'x' in held", "container"),
    ("not empty(stock)", "not"),
    ("-score", "neg"),
    ("score if empty(stock) else 2", "ternary"),
    ("[score, 1]", "list"),
    ("false or empty(stock)", "same"),
]


def check(text: str) -> Typed:
    return Checker(SCOPE).check(parse_expression(text))


def kinds_in(typed: Typed) -> Iterator[str]:
    yield typed.kind
    for part in typed.args:
        yield from kinds_in(part)


# Made only where a scope takes the options when the game starts (the native backend, one module for
# every option combination); the Python backend's scopes fold them as constants.
RUN_TIME_OPTIONS = {"option"}


def test_every_kind_has_a_python_writer() -> None:
    assert set(_WRITERS) == set(KINDS) - RUN_TIME_OPTIONS


def test_every_kind_is_made_by_some_expression() -> None:
    assert {kind for _, kind in MADE_BY} == set(KINDS) - RUN_TIME_OPTIONS


def test_options_given_when_the_game_starts_are_nodes_and_both_branches_are_checked() -> None:
    scope = Scope(SCOPE.bindings, SCOPE.variables, SCOPE.zones, {}, SCOPE.card_attributes, SCOPE.functions,
                  option_kinds={"draw": INT})
    tree = Checker(scope).check(parse_expression("twice(option.draw) + 1 if option.draw > 2 else 0"))
    assert tree.kind == "ternary" and not tree.const
    assert "option" in set(kinds_in(tree)) and tree.args[0].args[0].info == "draw"
    with pytest.raises(CompileError, match="one way"):  # (folded with draw 3, the Python backend never sees this)
        Checker(scope).check(parse_expression("1 if option.draw > 2 else 'x'"))
    assert check("1 if option.draw > 2 else 'x'").value == 1


@pytest.mark.parametrize("text,kind", MADE_BY)
def test_the_checker_makes_the_kind(text: str, kind: str) -> None:
    assert kind in set(kinds_in(check(text)))
    Compiler(SCOPE).compile(parse_expression(text))  # and the writer writes it


def test_face_up_says_when_the_card_is_surely_a_card() -> None:
    assert check("card.face_up").info == "card"
    assert check("any(c.face_up for c in cards(stock))").args[1].info == "item"
    guarded = check("top(stock).face_up")
    assert guarded.info == "guarded" and guarded.total


def test_constants_and_options_are_folded_in_the_tree() -> None:
    folded = check("twice(option.draw) + 1 if option.draw > 2 else 0")
    assert (folded.kind, folded.const, folded.value) == ("same", True, 7)
    assert check("[1, 2][0:1]").value == (1,)
    assert check("range(3)").value == (0, 1, 2)
    with pytest.raises(CompileError, match="64-bit"):
        check("9223372036854775807 + 1")


def test_a_function_is_written_out_with_its_arguments_checked_once() -> None:
    tree = check("fits(card, waste if empty(stock) else dst)")
    assert tree.kind == "inline" and tree.info is SCOPE.functions["fits"]
    arguments, body = tree.args[:-1], tree.args[-1]
    assert [a.kind for a in arguments] == ["binding", "ternary"]
    params = [t for t in _walk(body) if t.kind == "param"]
    assert sorted(p.info[0] for p in params) == [0, 1, 1]  # p twice, c once
    assert all(p.info[1] is arguments[p.info[0]] for p in params)


def test_what_the_checker_cannot_type_is_checked_when_it_runs() -> None:
    tree = check("held + 1")
    left = tree.args[0]
    assert (left.kind, left.info, left.type, left.total) == ("check", INT, INT, False)
    assert not tree.total


def test_a_seat_named_by_a_number_is_checked_a_seat_the_acting_seat_is_not() -> None:
    assert check("of(points, player)").total
    assert not check("of(points, score)").total
    source = Compiler(SCOPE).compile(parse_expression("of(points, score)")).source
    assert source == "V[1 + seat_index(V[0], S.players)]"


def test_what_may_fail_is_noted_at_its_node() -> None:
    compiler = Compiler(SCOPE)
    compiled = compiler.compile(parse_expression("score / (held + 1)"))
    assert not compiled.total
    noted = {(source, node.pos) for source, node, _ in compiler.spans}
    assert ("want_int(V[5])", 9) in noted and (compiled.source, 0) in noted


def test_types_are_those_of_the_language() -> None:
    assert check("tableau").type == PILES
    assert check("held[0]").type == ANY
    assert check("list(p for p in tableau)").type == PILES
    assert check("empty(stock) and score > 0").type == BOOL


def _walk(typed: Typed) -> Iterator[Typed]:
    yield typed
    for part in typed.args:
        yield from _walk(part)


def test_every_kind_has_a_native_writer() -> None:
    from cardrules.native.expressions import _LOWER

    assert set(_LOWER) == set(KINDS)
