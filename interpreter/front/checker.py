"""Stage 4: check a parsed expression statically and turn it into a typed tree (front/typed.py).

The checker works only from the parsed tree: every DSL name is resolved against a `Scope`
(bindings, variables, zones, options, ruleset functions, builtins); options are constants of a
loaded ruleset, so expressions over them fold here (but where the scope's `option_kinds` makes them
values given when the game starts: the native backend, one module for every option combination);
ruleset functions are written out at each call (cycles are reported). A static error is a `CompileError` at its offset. Nothing here knows a
backend: front/emit_python.py writes Python from the tree.

A node is `total` when its code cannot fail when it runs (no index out of range, no arithmetic or
ordering on what may be `none` (`none` says which values may be), no division but by a non-zero
constant, no run-time type check, no loop that counts steps). Only such code may be computed
earlier than the expression says (hoisted into an outer loop, or out of the guard of an `and`,
`or`, conditional or comprehension filter).
"""

from __future__ import annotations

import dataclasses
import operator
from typing import Any, Callable

from ..base.errors import unknown
from ..base.limits import INT_MAX, INT_MIN, MAX_COMPILED_NODES
from .check_calls import _BUILTIN_NAMES, _CallChecker
from .compile_types import (ANY, BOOL, CARD, CARDS, INT, LIST, NONE, PAIRS, PAIRS_ANY, PILE, PILES, STR, SUBSETS,
                            SUBSETS_ANY, _TYPE_WORDS, CompileError, Scope, TooLargeError, type_of_value)
from .parser import Attr, Binary, Call, Comprehension, Const, Index, ListLit, Name, Node, Slice, Ternary, Unary
from .runtime import power
from .typed import Typed


def _accepts(expected: tuple[str, ...], actual: str) -> bool:
    return actual == ANY or actual in expected or (actual == NONE and CARD in expected)


# Where the checker cannot know a value's type ("any"), the code checks when it runs that it is of
# this kind (a `check` node's info: any list passes for cards or piles, as their items are not checked).
CHECKED_KINDS = {INT: INT, BOOL: BOOL, PILE: PILE, CARD: CARD, CARDS: LIST, PILES: LIST, LIST: LIST, STR: STR}

_LISTS = (LIST, CARDS, PILES)
# Kinds of list the two branches of an `if else` may mix (the value is then a list of some kind).
_BRANCH_LISTS = frozenset({LIST, CARDS, PILES, PAIRS, PAIRS_ANY})


def _comparable(op: str, left: str, right: str) -> bool:
    """May values of these static types be compared with `op`? ("any" is checked at run time.)"""
    if {left, right} & {SUBSETS, SUBSETS_ANY}:
        return False  # (walked by a comprehension, never compared)
    if ANY in (left, right):
        return True
    if op in ("==", "!="):
        return left == right or NONE in (left, right) or (left in _LISTS and right in _LISTS) \
            or {left, right} == {PAIRS, PAIRS_ANY}
    return left == right and left in (INT, STR)


def _in_range(value: Any) -> bool:
    return not isinstance(value, int) or isinstance(value, bool) or INT_MIN <= value <= INT_MAX


_ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.floordiv, "%": operator.mod,
          "**": power}
_COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
            ">=": operator.ge}


WALKED = "subsets(...) is walked by a comprehension, as in count(s for s in subsets(hand, 2) if ...)"


def const(value: Any, node: Node) -> Typed:
    return Typed("const", type_of_value(value), node, const=True, value=value, total=True, none=value is None)


class Checker(_CallChecker):
    """Checks expressions of one scope into typed trees."""

    def __init__(self, scope: Scope, budget: list[int] | None = None) -> None:
        self.scope = scope
        # Syntax nodes this expression may still check (functions written out), and the ruleset's
        # budget shared by all its expressions (a one-item list), if any.
        self.left = MAX_COMPILED_NODES
        self.budget = budget
        self._stack: list[str] = []  # the functions being written out, outermost first
        # What a name means inside a comprehension or a function's body: an item, or a parameter.
        self._locals: dict[str, Typed] = {}

    def check_whole(self, node: Node, expect: tuple[str, ...] | None = None) -> Typed:
        """Check a whole expression: as `check`, and its value is one a game can hold (not subsets)."""
        result = self.check(node, expect)
        if result.type in (SUBSETS, SUBSETS_ANY):
            raise CompileError(WALKED, node.pos)
        return result

    def check(self, node: Node, expect: tuple[str, ...] | None = None) -> Typed:
        """Check `node`; with `expect`, its type must be one of those (a value the checker cannot
        type is checked when the code runs)."""
        self.left -= 1
        if self.left < 0:
            raise TooLargeError(f"the expression grows past {MAX_COMPILED_NODES:,} parts once its functions "
                                f"are written out", node.pos)
        if self.budget is not None:
            self.budget[0] -= 1
            if self.budget[0] < 0:
                raise TooLargeError("the ruleset's expressions are too large in all (functions written out)",
                                    node.pos)
        check = _BY_NODE.get(type(node))
        if check is None:  # pragma: no cover - every node of front/parser.py has a method
            raise CompileError(f"cannot compile {type(node).__name__}", node.pos)
        result = check(self, node)
        if result.unit or result.kind in ("check", "loose"):  # what a check of a part returned (`a or b`)
            result = Typed("same", result.type, node, (result,), None, result.const, result.value, result.total,
                           result.none, True)
        else:  # (a node of its own: `_check` makes every node anew, or copies it)
            result.node, result.unit = node, True
        if expect is not None:
            result = self.want(result, expect, node)
        return result

    def want(self, result: Typed, expect: tuple[str, ...], node: Node, need: str = "") -> Typed:
        """`result` as one of the `expect`ed types: as it is when its type is one, wrapped in a
        run-time check when its type is unknown ("any"), else a load-time error at `node`."""
        if result.type in expect or (result.type == NONE and CARD in expect):
            return result
        if result.type != ANY:
            need = need or "expected " + " or ".join(_TYPE_WORDS[t] for t in expect)
            raise CompileError(f"{need}, got {_TYPE_WORDS[result.type]}", node.pos)
        check = CHECKED_KINDS.get(expect[0])
        if check is None or any(CHECKED_KINDS.get(t) != check for t in expect):
            # several kinds of value are fine here: nothing to check, but what uses it may fail
            return Typed("loose", result.type, node, (result,), const=result.const, value=result.value,
                         none=result.none)
        return Typed("check", expect[0], node, (result,), check, none=check == CARD)

    # -- names -----------------------------------------------------------------------------

    def _name(self, node: Name) -> Typed:
        name = node.name
        if name in self._locals:
            return self._locals[name].copy()  # an item, or a parameter (`_inline`)
        if name in self.scope.bindings:
            type_ = self.scope.bindings[name][1]
            return Typed("binding", type_, node, info=name, total=True, none=type_ in (CARD, NONE, ANY))
        if name in self.scope.card_variables:  # a mark: the value on the card in `card`
            if "card" not in self.scope.bindings or self.scope.bindings["card"][1] != CARD:
                raise CompileError(f"'{name}' is a per-card variable, and no card is known here: "
                                   f"read it as CARD.{name}", node.pos)
            card = Typed("binding", CARD, node, info="card", total=True, none=False)
            return self._card_variable(name, card, node)
        if name in self.scope.variables:
            slot, type_, per_player = self.scope.variables[name]
            if per_player and "player" not in self.scope.bindings:
                raise CompileError(f"'{name}' is a per-player variable, and no player is known here", node.pos)
            return Typed("variable", type_, node, info=(slot, per_player), total=True, none=type_ in (CARD, NONE, ANY))
        if name in self.scope.zones:
            piles, single, per_player = self.scope.zones[name]
            if per_player:  # the acting seat's pile(s)
                if "player" not in self.scope.bindings:
                    raise CompileError(f"'{name}' belongs to each seat, and no seat is acting here: "
                                       f"use of({name}, seat)", node.pos)
                return Typed("seat_zone", PILE if single else PILES, node, info=name, total=True)
            if single:
                return Typed("pile", PILE, node, info=piles[0], total=True)
            return Typed("piles", PILES, node, value=piles, total=True)  # the piles known, for `tableau[0]`
        if name == "option":
            raise CompileError("'option' needs a name: option.<name>", node.pos)
        if name in self.scope.functions or name in _BUILTIN_NAMES:
            raise CompileError(f"'{name}' is a function: call it as {name}(...)", node.pos)
        known = sorted(set(self.scope.bindings) | set(self.scope.variables) | set(self.scope.zones) | set(self._locals))
        raise CompileError(unknown("name", name, known, "known here"), node.pos)

    def _attr(self, node: Attr) -> Typed:
        if isinstance(node.obj, Name) and node.obj.name == "option" and "option" not in self.scope.bindings:
            kinds = self.scope.option_kinds
            if kinds is not None and node.name in kinds:  # a value given when the game starts
                return Typed("option", kinds[node.name], node, info=node.name, total=True, none=False)
            if node.name not in self.scope.options:
                raise CompileError(unknown("option", node.name, self.scope.options), node.name_pos)
            return const(self.scope.options[node.name], node)
        obj = self.check(node.obj)
        if obj.type == ANY:  # a pile's attribute, or else a card's: checked at run time
            pile_attribute = node.name in ("index", "zone", "owner") and node.name not in self.scope.card_attributes
            obj = self.want(obj, (PILE,) if pile_attribute else (CARD,), node.obj)
        if obj.type in (CARD, NONE):
            if node.name == "face_up":
                if obj.type == CARD and self._is_binding(obj, "b_card"):
                    return Typed("face_up", BOOL, node, (obj,), "card", total=True)
                if self._is_item(obj):  # a comprehension's card may be `none` ([top(p)]): then this fails
                    return Typed("face_up", BOOL, node, (obj,), "item")
                return Typed("face_up", BOOL, node, (obj,), "guarded", total=obj.total)
            if node.name in self.scope.card_variables:
                return self._card_variable(node.name, obj, node)
            if node.name not in self.scope.card_attributes:
                known_attributes = list(self.scope.card_attributes) + ["face_up"] + list(self.scope.card_variables)
                raise CompileError(unknown("card attribute", node.name, known_attributes, "attributes"),
                                   node.name_pos)
            # the tables map `none` (no card) to `none`
            return Typed("card_attr", self.scope.card_attributes[node.name], node, (obj,), node.name, total=obj.total)
        if obj.type == PILE:
            if node.name in ("index", "zone", "owner"):
                return Typed("pile_attr", STR if node.name == "zone" else INT, node, (obj,), node.name,
                             total=obj.total, none=False)
            raise CompileError(f"piles have no attribute '{node.name}' (attributes: index, owner, zone)",
                               node.name_pos)
        raise CompileError(f"{_TYPE_WORDS[obj.type]} has no attribute '{node.name}'", node.name_pos)

    def _card_variable(self, name: str, card: Typed, node: Node) -> Typed:
        """A per-card variable's value on `card` (none for no card)."""
        slot, type_ = self.scope.card_variables[name]
        return Typed("card_variable", type_, node, (card,), slot, total=card.total, none=card.none)

    def _index(self, node: Index) -> Typed:
        obj = self.check(node.obj, (PILES, CARDS, LIST, PILE))
        index = self.check(node.index, (INT,))
        if obj.type == PILE:  # a pile indexed gives its cards, bottom first
            return Typed("index_pile", CARD, node, (obj, index))  # may be out of range
        if obj.type == ANY:  # a pile (its cards) or a list, told apart when the code runs
            return Typed("index", ANY, node, (obj, index))
        element = {PILES: PILE, CARDS: CARD}.get(obj.type, ANY)
        # only a constant index into a list known at load (a zone's piles) is known to be in range
        total = isinstance(obj.value, tuple) and index.const and isinstance(index.value, int) \
            and -len(obj.value) <= index.value < len(obj.value)
        return Typed("index", element, node, (obj, index), total=total)

    def _slice(self, node: Slice) -> Typed:
        obj = self.check(node.obj, (PILE, CARDS, PILES, LIST))
        bounds = [self.check(b, (INT,)) if b is not None else None for b in (node.lo, node.hi)]
        # a bound that may be `none` (a card's number) is checked: none is no bound left out
        bounds = [self.want(b.copy(type=ANY), (INT,), bound) if b is not None and bound is not None and b.none
                  and not b.const else b for b, bound in zip(bounds, (node.lo, node.hi))]
        type_ = CARDS if obj.type == PILE else obj.type
        if isinstance(obj.value, tuple) and all(b is None or b.const for b in bounds):
            # a constant list, or a zone's piles (known at load, so `tableau[1:][0]` is checked then)
            items = obj.value[slice(*(b.value if b is not None else None for b in bounds))]
            if obj.const:
                return Typed("const", type_, node, const=True, value=items, total=True)
            return Typed("piles", type_, node, value=items, total=True)
        # a copy as long as the slice, counted like a loop over it
        parts = tuple(b for b in bounds if b is not None)
        return Typed("slice", type_ if type_ != ANY else LIST, node, (obj, *parts), (bounds[0] is not None,
                     bounds[1] is not None), total=obj.total and obj.type != ANY
                     and all(b is None or b.total and not b.none for b in bounds))

    def _comprehension(self, node: Comprehension) -> Typed:
        if node.func in ("sorted", "unique"):  # the list built, then sorted (or without repeats)
            listed = self._comprehension(dataclasses.replace(node, func="list"))
            if node.func == "sorted" and listed.type != LIST:
                raise CompileError("cards and piles have no order: sort numbers, as sorted(c.rank for c in ...)",
                                   node.pos)
            return Typed(node.func, listed.type, node, (listed,), total=node.func == "unique" and listed.total,
                         none=False)
        if node.func not in ("all", "any", "sum", "count", "min", "max", "list", "argmin", "argmax", "argsort"):
            raise CompileError(f"'{node.func}(... for ...)' is not allowed: use all, any, sum, count, min, max, "
                               f"argmin, argmax, argsort, list, sorted or unique", node.pos)
        iterable = self.check(node.iterable, (PILES, CARDS, LIST, PAIRS, PAIRS_ANY, SUBSETS, SUBSETS_ANY))
        iterable = Typed("iterate", iterable.type, node.iterable, (iterable,))  # each step counts (limits.MAX_STEPS)
        if iterable.type in (PAIRS, PAIRS_ANY):
            if len(node.names) != 2:
                raise CompileError("pairs(...) gives two values per step: 'for a, b in pairs(...)'", node.iterable.pos)
            element_types = [CARD, CARD] if iterable.type == PAIRS else [ANY, ANY]
        else:
            if len(node.names) != 1:
                raise CompileError("only pairs(...) can be unpacked into two names", node.iterable.pos)
            element_types = [{PILES: PILE, CARDS: CARD, SUBSETS: CARDS, SUBSETS_ANY: LIST}.get(iterable.type, ANY)]
        saved = self._locals
        self._locals = dict(saved)
        items = []
        for dsl_name, type_ in zip(node.names, element_types):
            item = Typed("item", type_, node, info=(dsl_name, len(self._stack), node.pos), total=True)
            self._locals[dsl_name] = item
            items.append(item.info)
        try:
            element = self.check(node.element, {"all": (BOOL,), "any": (BOOL,), "sum": (INT,), "min": (INT, STR),
                                                "max": (INT, STR), "argmin": (INT,), "argmax": (INT,),
                                                "argsort": (INT,)}.get(node.func))
            condition = self.check(node.condition, (BOOL,)) if node.condition is not None else None
        finally:
            self._locals = saved
        if node.func in ("argmin", "argmax", "argsort") and len(items) != 1:
            raise CompileError(f"{node.func}(...) gives one item: it cannot unpack pairs(...)", node.iterable.pos)
        args = (iterable, element) if condition is None else (iterable, element, condition)
        type_ = {"count": INT, "sum": INT, "all": BOOL, "any": BOOL, "min": element.type, "max": element.type,
                 "argmin": element_types[0], "argmax": element_types[0],
                 "list": CARDS if element.type == CARD else PILES if element.type == PILE else LIST,
                 "argsort": CARDS if element_types[0] == CARD else PILES if element_types[0] == PILE else LIST
                 }[node.func]
        return Typed("comprehension", type_, node, args, (node.func, tuple(items)))

    # -- operators -------------------------------------------------------------------------

    def _fold(self, kind: str, info: Any, type_: str, parts: list[Typed], compute: Callable[[list[Any]], Any],
              node: Node, total: bool = False) -> Typed:
        """The value of an operation on constants, computed now; else the operation (whose value is
        never `none`), which cannot fail if `total` and its parts cannot."""
        if all(p.const for p in parts):
            try:
                value = compute([p.value for p in parts])
            except Exception:  # a constant error (1/0) stays for run time, where it can fail
                return Typed(kind, type_, node, tuple(parts), info)
            if not _in_range(value):
                raise CompileError(f"the number is outside the 64-bit range ({INT_MIN} to {INT_MAX})", node.pos)
            return const(value, node)
        return Typed(kind, type_, node, tuple(parts), info, total=total and all(p.total for p in parts), none=False)

    def _binary(self, node: Binary) -> Typed:
        op = node.op
        if op in ("and", "or"):
            left = self.check(node.left, (BOOL,))
            if left.const:
                if op == "and":
                    return self.check(node.right, (BOOL,)) if left.value else const(False, node)
                return const(True, node) if left.value else self.check(node.right, (BOOL,))
            right = self.check(node.right, (BOOL,))
            if right.const and bool(right.value) == (op == "and"):
                return left
            return Typed(op, BOOL, node, (left, right), total=left.total and right.total)
        left = self.check(node.left)
        right = self.check(node.right)
        if op == "+" and (left.type in _LISTS or right.type in _LISTS):
            return self._join(left, right, node)
        if op == "+" and left.type == ANY and right.type == ANY:  # two numbers added, or two lists joined
            return Typed("plus", ANY, node, (left, right))
        if op in _ARITH:
            left = self.want(left, (INT,), node.left, f"'{op}' needs numbers")
            right = self.want(right, (INT,), node.right, f"'{op}' needs numbers")
            fn = _ARITH[op]
            # fails on `none` (an attribute of no card), `/`, `%` by zero, and `**` out of range
            total = not left.none and not right.none and (op not in ("/", "%") or right.const and right.value != 0) \
                and op != "**"
            return self._fold("arith", op, INT, [left, right], lambda v: fn(v[0], v[1]), node, total)
        if op in _COMPARE:
            if not _comparable(op, left.type, right.type):
                how = "compared for order" if op not in ("==", "!=") else "compared"
                raise CompileError(f"{_TYPE_WORDS[left.type]} and {_TYPE_WORDS[right.type]} cannot be {how} "
                                   f"('{op}'){' (they are never equal)' if op in ('==', '!=') else ''}", node.pos)
            compare = _COMPARE[op]
            # `==` and `!=` take any two values; ordering fails on `none`, or values of two types
            total = op in ("==", "!=") or not (left.none or right.none or ANY in (left.type, right.type))
            return self._fold("compare", op, BOOL, [left, right], lambda v: compare(v[0], v[1]), node, total)
        if op in ("in", "notin"):
            if not _accepts((LIST, CARDS, PILES, STR), right.type):
                raise CompileError(f"'in' needs a list on its right, got {_TYPE_WORDS[right.type]}", node.right.pos)
            element = {CARDS: CARD, PILES: PILE, STR: STR}.get(right.type)
            if element is not None and not _comparable("==", left.type, element):
                raise CompileError(f"{_TYPE_WORDS[left.type]} is never in {_TYPE_WORDS[right.type]}", node.pos)
            if right.type == ANY:
                right = Typed("container", LIST, node.right, (right,))
            # in a list, `in` compares with `==`; in a string it fails on anything but a string
            return self._fold("in", op, BOOL, [left, right], lambda v: (v[0] in v[1]) == (op == "in"), node,
                              total=right.type in _LISTS)
        raise CompileError(f"unknown operator {op}", node.pos)  # pragma: no cover

    def _join(self, left: Typed, right: Typed, node: Binary) -> Typed:
        """`a + b` of two lists: a list of a's items then b's (cards and cards give cards, piles and
        piles piles), a copy counted like a loop over it; a value of a kind known only in play is
        checked to be a list."""
        if not {left.type, right.type} <= {*_LISTS, ANY}:
            raise CompileError(f"'+' joins two lists or adds two numbers, got {_TYPE_WORDS[left.type]} and "
                               f"{_TYPE_WORDS[right.type]}", node.right.pos)
        parts = [self.want(part, _LISTS, at) for part, at in ((left, node.left), (right, node.right))]
        types = {left.type, right.type}
        type_ = types.pop() if len(types) == 1 and ANY not in types else LIST
        if all(part.const for part in parts):
            return Typed("const", type_, node, const=True, value=tuple(parts[0].value) + tuple(parts[1].value),
                         total=True)
        return Typed("join", type_, node, tuple(parts), total=all(part.total for part in parts))

    def _constant(self, node: Const) -> Typed:
        if not _in_range(node.value):
            raise CompileError(f"the number is outside the 64-bit range ({INT_MIN} to {INT_MAX})", node.pos)
        return const(node.value, node)

    def _unary(self, node: Unary) -> Typed:
        if node.op == "not":
            operand = self.check(node.operand, (BOOL,))
            return self._fold("not", None, BOOL, [operand], lambda v: not v[0], node, total=True)
        operand = self.want(self.check(node.operand), (INT,), node.operand, "'-' needs a number")
        return self._fold("neg", None, INT, [operand], lambda v: -v[0], node, not operand.none)

    def _ternary(self, node: Ternary) -> Typed:
        condition = self.check(node.condition, (BOOL,))
        if condition.const:
            return self.check(node.then if condition.value else node.otherwise)
        then = self.check(node.then)
        otherwise = self.check(node.otherwise)
        types = {then.type, otherwise.type}
        if len(types) == 2 and not types & {ANY, NONE} and not types <= _BRANCH_LISTS:
            # (a truth value one way and a number the other would fail only where it is used, at run time)
            raise CompileError(f"'if else' gives {_TYPE_WORDS[then.type]} one way and "
                               f"{_TYPE_WORDS[otherwise.type]} the other: both must be of one kind", node.pos)
        type_ = then.type if len(types) == 1 else CARD if types == {CARD, NONE} else ANY
        return Typed("ternary", type_, node, (condition, then, otherwise),
                     total=condition.total and then.total and otherwise.total, none=then.none or otherwise.none)

    def _list(self, node: ListLit) -> Typed:
        items = [self.check(i) for i in node.items]
        types = {i.type for i in items}
        if types & {SUBSETS, SUBSETS_ANY}:
            raise CompileError(WALKED, node.pos)
        type_ = CARDS if types == {CARD} else PILES if types == {PILE} else LIST
        if all(i.const for i in items):
            return Typed("const", type_, node, const=True, value=tuple(i.value for i in items), total=True)
        return Typed("list", type_, node, tuple(items), total=all(i.total for i in items))

    # -- what a node stands for, seen through parameters and nodes checked as another's value --

    @staticmethod
    def _through(value: Typed) -> Typed:
        while value.kind in ("param", "same"):
            value = value.info[1] if value.kind == "param" else value.args[0]
        return value

    def _is_binding(self, value: Typed, *sources: str) -> bool:
        """Is this a binding the scope gives one of these names in generated code?"""
        value = self._through(value)
        return value.kind == "binding" and self.scope.bindings[value.info][0] in sources

    def _is_item(self, value: Typed) -> bool:
        return self._through(value).kind == "item"


_BY_NODE: dict[type, Callable[[Checker, Any], Typed]] = {
    Const: Checker._constant, Name: Checker._name, Attr: Checker._attr, Index: Checker._index,
    Slice: Checker._slice, Call: Checker._call, Comprehension: Checker._comprehension, Binary: Checker._binary,
    Unary: Checker._unary, Ternary: Checker._ternary, ListLit: Checker._list,
}
