"""Stage 4: check expression ASTs statically and compile them to Python source.

The compiler works only from the parsed tree: every DSL name is resolved against
a `Scope` (bindings, variables, zones, options, ruleset functions, builtins) and
turned into a prefixed Python identifier or a table lookup; literals go through
`repr`. Nothing from the ruleset text reaches Python except through that
mapping, so the generated code can only read game state.

Each compiled expression is a `Compiled(source, type, const, value, total, none)`. Options are
constants of a loaded ruleset, so expressions over them fold at compile time.
Ruleset functions are inlined at each call site (cycles are reported).

`total` says the code cannot fail when it runs (no index out of range, no arithmetic or
ordering on what may be `none` (`none` says which values may be), no division but by a
non-zero constant, no run-time type check, no loop that counts steps). Only
such code may be computed earlier than the expression says (hoisted into an outer loop, or
out of the guard of an `and`, `or`, conditional or comprehension filter). Code that can fail
is recorded in `Compiler.spans` with the syntax node it came from, so that a run-time error
names the subexpression that failed (`failing_part`).
"""

from __future__ import annotations

import io
import operator
import re
import tokenize
from dataclasses import replace
from functools import lru_cache
from typing import Any, Callable

from ..base.errors import SourcePos, unknown
from ..base.limits import INT_MAX, INT_MIN, MAX_COMPILED_NODES
from .compile_calls import _BUILTIN_NAMES, _CallCompiler
from .compile_types import (ANY, BOOL, CARD, CARDS, INT, LIST, NONE, PAIRS, PAIRS_ANY, PILE, PILES, STR, _TYPE_WORDS,
                            Compiled, CompileError, Function, InlinedFunctionError, Scope, TooLargeError, type_of_value)
from .parser import Attr, Binary, Call, Comprehension, Const, Index, ListLit, Name, Node, Slice, Ternary, Unary
from .runtime import RUNTIME_GLOBALS, Meter, StepLimitError, id_checks, power


def _const(value: Any) -> Compiled:
    return Compiled(repr(value), type_of_value(value), True, value, True, value is None)


def _accepts(expected: tuple[str, ...], actual: str) -> bool:
    return actual == ANY or actual in expected or (actual == NONE and CARD in expected)


# Where the checker cannot know a value's type ("any"), the generated code checks it when it runs.
_RUNTIME_CHECKS = {INT: "want_int", BOOL: "want_bool", PILE: "want_pile", CARD: "want_card",
                   CARDS: "want_list", PILES: "want_list", LIST: "want_list", STR: "want_str"}

_LISTS = (LIST, CARDS, PILES)
# Kinds of list the two branches of an `if else` may mix (the value is then a list of some kind).
_BRANCH_LISTS = frozenset({LIST, CARDS, PILES, PAIRS, PAIRS_ANY})


def _comparable(op: str, left: str, right: str) -> bool:
    """May values of these static types be compared with `op`? ("any" is checked at run time.)"""
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
_PY_OP = {"/": "//"}
_ARITH_CALL = {"**": "power"}  # operators compiled as calls of a checked helper


class Compiler(_CallCompiler):
    """Compiles expressions of one scope. `uses_state` tells which state parts the code reads."""

    def __init__(self, scope: Scope, hoist: Callable[[Compiled], Compiled] | None = None,
                 budget: list[int] | None = None) -> None:
        self.scope = scope
        # `hoist`, where given, may replace a subexpression that cannot fail by a local computed
        # once in an outer loop of a generated enumerator (see python/rewrites.py, `_Hoister`).
        self.hoist = hoist
        # Syntax nodes this expression may still compile (functions inlined), and the ruleset's
        # budget shared by all its expressions (a one-item list), if any.
        self.left = MAX_COMPILED_NODES
        self.budget = budget
        self.uses: set[str] = set()
        self._stack: list[str] = []
        self._locals: dict[str, Compiled] = {}
        # The code of each subexpression that can fail, with its node and the ruleset function
        # whose body holds the node (None: the expression compiled), in the order compiled.
        self.spans: list[tuple[str, Node, Function | None]] = []

    def compile(self, node: Node, expect: tuple[str, ...] | None = None) -> Compiled:
        """Compile `node`; with `expect`, its type must be one of those (a value the checker cannot
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
        result = self._compile(node)
        if not result.total:
            self._may_fail(result.source, node)
        elif self.hoist is not None and not result.const and _hoistable(node, self.scope.functions):
            result = self.hoist(result)  # only code that cannot fail may run before its guard
        if expect is not None:
            result = self.want(result, expect, node)
        return result

    def want(self, result: Compiled, expect: tuple[str, ...], node: Node, need: str = "") -> Compiled:
        """`result` as one of the `expect`ed types: as it is when its type is one, wrapped in a
        run-time check when its type is unknown ("any"), else a load-time error at `node`."""
        if result.type in expect or (result.type == NONE and CARD in expect):
            return result
        if result.type != ANY:
            need = need or "expected " + " or ".join(_TYPE_WORDS[t] for t in expect)
            raise CompileError(f"{need}, got {_TYPE_WORDS[result.type]}", node.pos)
        check = _RUNTIME_CHECKS.get(expect[0])
        if check is None or any(_RUNTIME_CHECKS.get(t) != check for t in expect):
            # several kinds of value are fine here: nothing to check, but what uses it may fail
            return replace(result, total=False)
        checked = Compiled(f"{check}({result.source})", expect[0], none=check == "want_card")
        self._may_fail(checked.source, node)
        return checked

    def _may_fail(self, source: str, node: Node) -> None:
        """Note code that can fail, to report a failure at `node`."""
        function = self.scope.functions.get(self._stack[-1]) if self._stack else None
        self.spans.append((source, node, function))

    # -- names -----------------------------------------------------------------------------

    def _name(self, node: Name) -> Compiled:
        name = node.name
        if name in self._locals:
            return self._locals[name]
        if name in self.scope.bindings:
            source, type_ = self.scope.bindings[name]
            return Compiled(source, type_, total=True, none=type_ in (CARD, NONE, ANY))
        if name in self.scope.variables:
            slot, type_, per_player = self.scope.variables[name]
            self.uses.add("V")
            if per_player:
                if "player" not in self.scope.bindings:
                    raise CompileError(f"'{name}' is a per-player variable, and no player is known here", node.pos)
                return Compiled(f"V[{slot} + {self.scope.bindings['player'][0]}]", type_, total=True,
                                none=type_ in (CARD, NONE, ANY))
            return Compiled(f"V[{slot}]", type_, total=True, none=type_ in (CARD, NONE, ANY))
        if name in self.scope.zones:
            piles, single, per_player = self.scope.zones[name]
            if per_player:  # the acting seat's pile(s)
                if "player" not in self.scope.bindings:
                    raise CompileError(f"'{name}' belongs to each seat, and no seat is acting here: "
                                       f"use of({name}, seat)", node.pos)
                return Compiled(f"SEATS_{name}[{self.scope.bindings['player'][0]}]", PILE if single else PILES,
                                total=True)
            if single:
                return Compiled(repr(piles[0]), PILE, total=True)
            return Compiled(repr(piles), PILES, value=piles, total=True)  # the piles known, for `tableau[0]`
        if name == "option":
            raise CompileError("'option' needs a name: option.<name>", node.pos)
        if name in self.scope.functions or name in _BUILTIN_NAMES:
            raise CompileError(f"'{name}' is a function: call it as {name}(...)", node.pos)
        known = sorted(set(self.scope.bindings) | set(self.scope.variables) | set(self.scope.zones) | set(self._locals))
        raise CompileError(unknown("name", name, known, "known here"), node.pos)

    def _attr(self, node: Attr) -> Compiled:
        if isinstance(node.obj, Name) and node.obj.name == "option" and "option" not in self.scope.bindings:
            if node.name not in self.scope.options:
                raise CompileError(unknown("option", node.name, self.scope.options), node.name_pos)
            return _const(self.scope.options[node.name])
        obj = self.compile(node.obj)
        if obj.type == ANY:  # a pile's attribute, or else a card's: checked at run time
            pile_attribute = node.name in ("index", "zone", "owner") and node.name not in self.scope.card_attributes
            obj = self.want(obj, (PILE,) if pile_attribute else (CARD,), node.obj)
        if obj.type in (CARD, NONE):
            if node.name == "face_up":
                self.uses.add("U")
                if obj.type == CARD and obj.source in ("b_card",) or obj.source.startswith("l_"):
                    # a comprehension's card may be `none` ([top(p)]): then this fails
                    return Compiled(f"(U[{obj.source}] == 1)", BOOL, total=obj.source == "b_card")
                return Compiled(f"({obj.source} is not None and U[{obj.source}] == 1)", BOOL, total=obj.total)
            if node.name not in self.scope.card_attributes:
                known_attributes = list(self.scope.card_attributes) + ["face_up"]
                raise CompileError(unknown("card attribute", node.name, known_attributes, "attributes"),
                                   node.name_pos)
            # the tables map `none` (no card) to `none`
            return Compiled(f"A_{node.name}[{obj.source}]", self.scope.card_attributes[node.name], total=obj.total)
        if obj.type == PILE:
            if node.name == "index":
                return Compiled(f"PILE_INDEX[{obj.source}]", INT, total=obj.total, none=False)
            if node.name == "zone":
                return Compiled(f"PILE_ZONE[{obj.source}]", STR, total=obj.total, none=False)
            if node.name == "owner":
                return Compiled(f"PILE_OWNER[{obj.source}]", INT, total=obj.total, none=False)
            raise CompileError(f"piles have no attribute '{node.name}' (attributes: index, owner, zone)",
                               node.name_pos)
        raise CompileError(f"{_TYPE_WORDS[obj.type]} has no attribute '{node.name}'", node.name_pos)

    def _index(self, node: Index) -> Compiled:
        obj = self.compile(node.obj, (PILES, CARDS, LIST, PILE))
        index = self.compile(node.index, (INT,))
        if obj.type == PILE:  # a pile indexed gives its cards, bottom first
            self.uses.add("P")
            return Compiled(f"P[{obj.source}][{index.source}]", CARD)  # may be out of range
        if obj.type == ANY:  # a pile (its cards) or a list, told apart when the code runs
            return Compiled(f"{self._listed(obj)}[{index.source}]", ANY)
        element = {PILES: PILE, CARDS: CARD}.get(obj.type, ANY)
        # only a constant index into a list known at load (a zone's piles) is known to be in range
        total = isinstance(obj.value, tuple) and index.const and isinstance(index.value, int) \
            and -len(obj.value) <= index.value < len(obj.value)
        return Compiled(f"{obj.source}[{index.source}]", element, total=total)

    def _slice(self, node: Slice) -> Compiled:
        obj = self.compile(node.obj, (PILE, CARDS, PILES, LIST))
        bounds = [self.compile(b, (INT,)) if b is not None else None for b in (node.lo, node.hi)]
        # a bound that may be `none` (a card's number) is checked: none is no bound left out
        bounds = [self.want(replace(b, type=ANY), (INT,), bound) if b is not None and bound is not None and b.none
                  and not b.const else b for b, bound in zip(bounds, (node.lo, node.hi))]
        if obj.type == PILE:
            obj = Compiled(self._pile_cards(obj), CARDS, total=obj.total)
        elif obj.type == ANY:  # a pile (its cards) or a list, told apart when the code runs
            obj = Compiled(self._listed(obj), ANY)
        code = ":".join(b.source if b is not None else "" for b in bounds)
        if isinstance(obj.value, tuple) and all(b is None or b.const for b in bounds):
            # a constant list, or a zone's piles (known at load, so `tableau[1:][0]` is checked then)
            items = obj.value[slice(*(b.value if b is not None else None for b in bounds))]
            return Compiled(repr(items), obj.type, const=obj.const, value=items, total=True)
        # a copy as long as the slice, counted like a loop over it
        return Compiled(f"charge({obj.source}[{code}])", obj.type if obj.type != ANY else LIST,
                        total=obj.total and all(b is None or b.total and not b.none for b in bounds))

    def _comprehension(self, node: Comprehension) -> Compiled:
        if node.func not in ("all", "any", "sum", "count", "min", "max", "list", "argmin", "argmax"):
            raise CompileError(f"'{node.func}(... for ...)' is not allowed: use all, any, sum, count, min, max, "
                               f"argmin, argmax or list", node.pos)
        iterable = self.compile(node.iterable, (PILES, CARDS, LIST, PAIRS, PAIRS_ANY))
        iterable = Compiled(f"charge({iterable.source})", iterable.type)  # each step counts (limits.MAX_STEPS)
        if iterable.type in (PAIRS, PAIRS_ANY):
            if len(node.names) != 2:
                raise CompileError("pairs(...) gives two values per step: 'for a, b in pairs(...)'", node.iterable.pos)
            element_types = [CARD, CARD] if iterable.type == PAIRS else [ANY, ANY]
        else:
            if len(node.names) != 1:
                raise CompileError("only pairs(...) can be unpacked into two names", node.iterable.pos)
            element_types = [{PILES: PILE, CARDS: CARD}.get(iterable.type, ANY)]
        saved = self._locals
        self._locals = dict(saved)
        py_names = []
        for dsl_name, type_ in zip(node.names, element_types):
            py = f"l_{dsl_name}_{len(self._stack)}_{node.pos}"
            self._locals[dsl_name] = Compiled(py, type_, total=True)
            py_names.append(py)
        try:
            element = self.compile(node.element, {"all": (BOOL,), "any": (BOOL,), "sum": (INT,), "min": (INT, STR),
                                                   "max": (INT, STR), "argmin": (INT,), "argmax": (INT,)}.get(node.func))
            condition = self.compile(node.condition, (BOOL,)) if node.condition is not None else None
        finally:
            self._locals = saved
        target = ", ".join(py_names)
        filter_ = f" if {condition.source}" if condition is not None else ""
        if node.func == "count":  # counts the items that pass the filter (and whose element is true, if a truth value)
            test = f" if {element.source}" if element.type == BOOL else ""
            return Compiled(f"sum(1 for {target} in {iterable.source}{filter_}{test})", INT)
        generator = f"{element.source} for {target} in {iterable.source}{filter_}"
        if node.func == "list":
            return Compiled(f"[{generator}]", CARDS if element.type == CARD else
                            PILES if element.type == PILE else LIST)
        if node.func in ("min", "max"):
            return Compiled(f"{node.func}(({generator}), default=None)", element.type)
        if node.func in ("argmin", "argmax"):  # the first item whose number is the lowest / highest
            if len(py_names) != 1:
                raise CompileError(f"{node.func}(...) gives one item: it cannot unpack pairs(...)", node.iterable.pos)
            keyed = f"(({element.source}), {target}) for {target} in {iterable.source}{filter_}"
            return Compiled(f"arg_best(({keyed}), {node.func == 'argmax'})", element_types[0])
        if node.func in ("all", "any") and condition is None and len(py_names) == 1 and element.total:
            unrolled = _unrolled(node.func, iterable.source, py_names[0], element.source)
            if unrolled is not None:
                return Compiled(unrolled, BOOL)
        return Compiled(f"{node.func}({generator})", INT if node.func == "sum" else BOOL)

    # -- operators -------------------------------------------------------------------------

    def _fold(self, source: str, type_: str, parts: list[Compiled], compute: Callable[[list[Any]], Any],
              node: Node | None = None, total: bool = False) -> Compiled:
        """The value of an operation on constants, computed now; else its code (whose value is
        never `none`), which cannot fail if `total` and its parts cannot."""
        if all(p.const for p in parts):
            try:
                value = compute([p.value for p in parts])
            except Exception:  # a constant error (1/0) stays for run time, where it can fail
                return Compiled(source, type_)
            if not _in_range(value):
                raise CompileError(f"the number is outside the 64-bit range ({INT_MIN} to {INT_MAX})",
                                   node.pos if node is not None else 0)
            return _const(value)
        return Compiled(source, type_, total=total and all(p.total for p in parts), none=False)

    def _binary(self, node: Binary) -> Compiled:
        op = node.op
        if op in ("and", "or"):
            left = self.compile(node.left, (BOOL,))
            if left.const:
                if op == "and":
                    return self.compile(node.right, (BOOL,)) if left.value else _const(False)
                return _const(True) if left.value else self.compile(node.right, (BOOL,))
            right = self.compile(node.right, (BOOL,))
            if right.const and bool(right.value) == (op == "and"):
                return left
            return Compiled(f"({left.source} {op} {right.source})", BOOL, total=left.total and right.total)
        left = self.compile(node.left)
        right = self.compile(node.right)
        if op in _ARITH:
            left = self.want(left, (INT,), node.left, f"'{op}' needs numbers")
            right = self.want(right, (INT,), node.right, f"'{op}' needs numbers")
            fn = _ARITH[op]
            # fails on `none` (an attribute of no card), `/`, `%` by zero, and `**` out of range
            total = not left.none and not right.none and (op not in ("/", "%") or right.const and right.value != 0) \
                and op != "**"
            code = f"{_ARITH_CALL[op]}({left.source}, {right.source})" if op in _ARITH_CALL else \
                f"({left.source} {_PY_OP.get(op, op)} {right.source})"
            return self._fold(code, INT, [left, right], lambda v: fn(v[0], v[1]), node, total)
        if op in _COMPARE:
            if not _comparable(op, left.type, right.type):
                how = "compared for order" if op not in ("==", "!=") else "compared"
                raise CompileError(f"{_TYPE_WORDS[left.type]} and {_TYPE_WORDS[right.type]} cannot be {how} "
                                   f"('{op}'){' (they are never equal)' if op in ('==', '!=') else ''}", node.pos)
            fn = _COMPARE[op]
            # `==` and `!=` take any two values; ordering fails on `none`, or values of two types
            total = op in ("==", "!=") or not (left.none or right.none or ANY in (left.type, right.type))
            return self._fold(f"({left.source} {op} {right.source})", BOOL, [left, right],
                              lambda v: fn(v[0], v[1]), total=total)
        if op in ("in", "notin"):
            if not _accepts((LIST, CARDS, PILES, STR), right.type):
                raise CompileError(f"'in' needs a list on its right, got {_TYPE_WORDS[right.type]}", node.right.pos)
            element = {CARDS: CARD, PILES: PILE, STR: STR}.get(right.type)
            if element is not None and not _comparable("==", left.type, element):
                raise CompileError(f"{_TYPE_WORDS[left.type]} is never in {_TYPE_WORDS[right.type]}", node.pos)
            if right.type == ANY:
                right = Compiled(f"want_container({right.source})", LIST)
            word = "in" if op == "in" else "not in"
            # in a list, `in` compares with `==`; in a string it fails on anything but a string
            return self._fold(f"({left.source} {word} {right.source})", BOOL, [left, right],
                              lambda v: (v[0] in v[1]) == (op == "in"), total=right.type in _LISTS)
        raise CompileError(f"unknown operator {op}", node.pos)  # pragma: no cover

    def _compile(self, node: Node) -> Compiled:
        if isinstance(node, Const):
            if not _in_range(node.value):
                raise CompileError(f"the number is outside the 64-bit range ({INT_MIN} to {INT_MAX})", node.pos)
            return _const(node.value)
        if isinstance(node, Name):
            return self._name(node)
        if isinstance(node, Attr):
            return self._attr(node)
        if isinstance(node, Index):
            return self._index(node)
        if isinstance(node, Slice):
            return self._slice(node)
        if isinstance(node, Call):
            return self._call(node)
        if isinstance(node, Comprehension):
            return self._comprehension(node)
        if isinstance(node, Binary):
            return self._binary(node)
        if isinstance(node, Unary):
            if node.op == "not":
                operand = self.compile(node.operand, (BOOL,))
                return self._fold(f"(not {operand.source})", BOOL, [operand], lambda v: not v[0], total=True)
            operand = self.want(self.compile(node.operand), (INT,), node.operand, "'-' needs a number")
            return self._fold(f"(-{operand.source})", INT, [operand], lambda v: -v[0], node, not operand.none)
        if isinstance(node, Ternary):
            condition = self.compile(node.condition, (BOOL,))
            if condition.const:
                return self.compile(node.then if condition.value else node.otherwise)
            then = self.compile(node.then)
            otherwise = self.compile(node.otherwise)
            types = {then.type, otherwise.type}
            if len(types) == 2 and not types & {ANY, NONE} and not types <= _BRANCH_LISTS:
                # (a truth value one way and a number the other would fail only where it is used, at run time)
                raise CompileError(f"'if else' gives {_TYPE_WORDS[then.type]} one way and "
                                   f"{_TYPE_WORDS[otherwise.type]} the other: both must be of one kind", node.pos)
            type_ = then.type if len(types) == 1 else CARD if types == {CARD, NONE} else ANY
            return Compiled(f"({then.source} if {condition.source} else {otherwise.source})", type_,
                            total=condition.total and then.total and otherwise.total,
                            none=then.none or otherwise.none)
        if isinstance(node, ListLit):
            items = [self.compile(i) for i in node.items]
            types = {i.type for i in items}
            type_ = CARDS if types == {CARD} else PILES if types == {PILE} else LIST
            if all(i.const for i in items):
                return Compiled(repr(tuple(i.value for i in items)), type_, True, tuple(i.value for i in items), True)
            return Compiled("(" + "".join(f"{i.source}, " for i in items) + ")", type_,
                            total=all(i.total for i in items))
        raise CompileError(f"cannot compile {type(node).__name__}", node.pos)  # pragma: no cover


# `all` and `any` over a list of at most this many numbers written out (a zone's piles) are written out
# as `and` and `or` of their items (`_unrolled`).
UNROLL_MOST = 8


def _unrolled(func: str, iterable: str, name: str, element: str) -> str | None:
    """`all(ELEMENT for NAME in charge((2, 3, 4, 5)))` as `(charge((2, 3, 4, 5)) and E2 and E3 and ...)`,
    each item's ELEMENT with the number in place of NAME (`any`: `or` of the items): no generator
    to make and resume, the same steps charged, the same value (the items are truth values, tested
    in order, the first that decides ends it). Only for an ELEMENT that cannot fail (so no error is
    to be found in its code) and a tuple of 1 to `UNROLL_MOST` numbers; else None."""
    match = re.fullmatch(r"charge\(\((\d+(?:, \d+)*),?\)\)", iterable)
    if match is None:
        return None
    items = match.group(1).split(", ")
    if len(items) > UNROLL_MOST:
        return None
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(element).readline))
    except (tokenize.TokenError, SyntaxError):
        return None
    if any(t.start[0] != 1 or t.end[0] != 1 for t in tokens if t.type not in (tokenize.NEWLINE, tokenize.ENDMARKER)):
        return None  # written on one line, as generated code is
    places = [t.start[1] for t in tokens if t.type == tokenize.NAME and t.string == name]
    parts = []
    for item in items:
        text = element
        for at in reversed(places):
            text = text[:at] + item + text[at + len(name):]
        parts.append(f"({text})")
    joined = f" {'and' if func == 'all' else 'or'} ".join(parts)
    return f"({iterable} and {joined})" if func == "all" else f"({iterable} and ({joined}))"


@lru_cache(maxsize=4096)
def names_in(source: str) -> frozenset[str]:
    """The Python names a piece of generated code uses (string literals are not looked into)."""
    names = set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.NAME:
            names.add(token.string)
    return frozenset(names)


# A read of the variables in generated code: `V[3]`, a seat's `V[6 + b_player]`, or a bare `V`.
_VAR_ACCESS = re.compile(r"\bV\b(?:\s*\[\s*(\d+)\s*(\+)?)?")


def variable_reads(source: str, seats: int) -> tuple[frozenset[int], bool]:
    """The variable slots a piece of generated code reads (all the seats' slots of a per-player
    variable), and whether it may also read others (`V` or `S.vars` used but by a constant slot)."""
    slots: set[int] = set()
    unplaced = False
    for match in _VAR_ACCESS.finditer(source):
        if source[match.end():].lstrip().startswith("= S.vars"):
            continue  # the prologue that binds V
        if match.group(1) is None:
            unplaced = True
        else:
            slot = int(match.group(1))
            slots.update(range(slot, slot + (seats if match.group(2) else 1)))
    return frozenset(slots), unplaced or "S.vars" in source.replace("V = S.vars", "")


def _hoistable(node: Node, functions: dict[str, Function]) -> bool:
    """Expressions that cost a lookup or more: pile queries and card attributes (hoisted only
    where their code cannot fail)."""
    if isinstance(node, Call):
        return node.func in ("top", "bottom", "size", "empty", "run") and node.func not in functions
    return isinstance(node, Attr) and isinstance(node.obj, (Name, Call)) and node.obj != Name(node.obj.pos, "option")


_LEVELS = {"or": 2, "and": 3, "+": 6, "-": 6, "*": 7, "/": 7, "%": 7, "**": 9}  # comparisons and `in`: 5


def _level(node: Node) -> int:
    """How tightly a node binds (docs/language.md, Operators): 1 conditional ... 10 postfix and atoms."""
    if isinstance(node, Ternary):
        return 1
    if isinstance(node, Binary):
        return _LEVELS.get(node.op, 5)
    if isinstance(node, Unary):
        return 4 if node.op == "not" else 8
    return 10


def show(node: Node) -> str:
    """The expression text of a node, for messages (with the parentheses its operators need)."""
    def at_least(child: Node, level: int) -> str:
        text = show(child)
        return text if _level(child) >= level else f"({text})"

    if isinstance(node, Const):
        value = node.value
        if value is None or isinstance(value, bool):
            return {None: "none", True: "true", False: "false"}[value]
        if isinstance(value, str):
            return f'"{value}"' if "'" in value else f"'{value}'"
        return str(value)
    if isinstance(node, Name):
        return node.name
    if isinstance(node, Attr):
        return f"{at_least(node.obj, 10)}.{node.name}"
    if isinstance(node, Index):
        return f"{at_least(node.obj, 10)}[{show(node.index)}]"
    if isinstance(node, Slice):
        bounds = (show(b) if b is not None else "" for b in (node.lo, node.hi))
        return f"{at_least(node.obj, 10)}[{':'.join(bounds)}]"
    if isinstance(node, Call):
        return f"{node.func}({', '.join(show(a) for a in node.args)})"
    if isinstance(node, Comprehension):
        condition = f" if {at_least(node.condition, 2)}" if node.condition is not None else ""
        return (f"{node.func}({show(node.element)} for {', '.join(node.names)} in {at_least(node.iterable, 2)}"
                f"{condition})")
    if isinstance(node, Binary):
        level = _level(node)
        word = "not in" if node.op == "notin" else node.op
        if level == 5:  # comparisons do not chain
            return f"{at_least(node.left, 6)} {word} {at_least(node.right, 6)}"
        if node.op == "**":  # right-associative; its right side may be negated (2 ** -1)
            return f"{at_least(node.left, 10)} ** {at_least(node.right, 8)}"
        return f"{at_least(node.left, level)} {word} {at_least(node.right, level + 1)}"
    if isinstance(node, Unary):
        return f"not {at_least(node.operand, 4)}" if node.op == "not" else f"-{at_least(node.operand, 8)}"
    if isinstance(node, Ternary):
        return f"{at_least(node.then, 2)} if {at_least(node.condition, 2)} else {at_least(node.otherwise, 1)}"
    if isinstance(node, ListLit):
        return f"[{', '.join(show(i) for i in node.items)}]"
    return "?"  # pragma: no cover


# A subexpression that can fail: its generated code, its node, and where the node's offsets point.
Span = tuple[str, Node, Callable[[int], SourcePos]]
# The key, in the globals of generated code, of {function name: (its source, its spans)}.
SPANS = "__spans__"


def failing_part(exc: BaseException, only: list[Span] | None = None) -> tuple[SourcePos, str] | None:
    """Where the subexpression whose generated code raised `exc` is written, and its text; None
    when the failure is not inside code the compiler noted (a check of a whole expression's
    value, the step count of a generated loop).

    The traceback's innermost frame of generated code gives the failing instruction's place in
    its source (`co_positions`); the noted code that encloses it most tightly names the node.
    `only`: the code noted for the one expression that failed, where a generated function holds
    several (python/applygen.py).
    """
    tb = exc.__traceback__
    owner: tuple[str, list[Span]] | None = None
    last = None
    while tb is not None:
        table = tb.tb_frame.f_globals.get(SPANS)
        if table is not None:  # generated code (a comprehension inside it runs in a frame of its own)
            owner = table.get(tb.tb_frame.f_code.co_name, owner)
            last = tb
        tb = tb.tb_next
    if owner is None or last is None:
        return None
    source, spans = owner
    if only is not None:
        spans = only
    positions = list(last.tb_frame.f_code.co_positions())
    index = last.tb_lasti // 2  # one position per 2-byte code unit
    if not 0 <= index < len(positions):
        return None
    line, end_line, col, end_col = positions[index]
    if line is None or end_line is None or col is None or end_col is None:
        return None
    lines = source.split("\n")
    if not 1 <= line <= end_line <= len(lines):
        return None

    def offset(number: int, column: int) -> int:  # columns count UTF-8 bytes
        text = lines[number - 1]
        return sum(len(x) + 1 for x in lines[:number - 1]) + len(text.encode()[:column].decode(errors="ignore"))

    start, end = offset(line, col), offset(end_line, end_col)
    best: Span | None = None
    for span in spans:
        text = span[0]
        if best is not None and len(text) >= len(best[0]):
            continue
        at = source.find(text)
        while 0 <= at <= start:
            if at + len(text) >= end:
                best = span
                break
            at = source.find(text, at + 1)
    if best is None:
        return None
    return best[2](best[1].pos), show(best[1])


# The names other modules import from here: the compiler's own, and those of its types (compile_types.py) and of the
# run-time helpers of generated code (runtime.py).
__all__ = ["ANY", "BOOL", "CARD", "CARDS", "INT", "LIST", "NONE", "PAIRS", "PAIRS_ANY", "PILE", "PILES", "RUNTIME_GLOBALS",
           "SPANS", "STR", "UNROLL_MOST", "CompileError", "Compiled", "Compiler", "Function", "InlinedFunctionError",
           "Meter", "Scope", "Span", "StepLimitError", "TooLargeError", "failing_part", "id_checks", "names_in", "show",
           "type_of_value", "variable_reads"]
