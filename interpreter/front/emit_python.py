"""Stage 4 for the Python backend: Python source written from a typed tree (front/typed.py).

Every node becomes code that reads the state through names the builder binds (`P` the piles, `U`
what is face up, `V` the variables, `A_<attr>` and `PILE_*` the tables, a scope's bindings) and
calls the helpers of front/runtime.py; literals go through `repr`. Nothing from the ruleset text
reaches Python but through the tree, so the code can only read game state.

The writer decides nothing the tree says (types, constants, what may fail); it notes where code
can fail (`spans`, each with the node it came from and the ruleset function that holds it, so a
run-time error names the part that failed: front/compiler.py's `failing_part`), offers code that
cannot fail to `hoist` (python/rewrites.py's `_Hoister`), and writes `all` and `any` over a few
piles known at load out as `and` and `or` (`_unrolled`). It lives below the builder (model/),
which writes the Python backend's functions from what it returns.
"""

from __future__ import annotations

import io
import re
import tokenize
from typing import Callable

from .compile_types import ANY, BOOL, CARD, INT, LIST, PILE, STR, Compiled, Function, Scope
from .parser import Attr, Call, Name, Node
from .typed import Typed

_PY_OP = {"/": "//"}
_PILE_TABLES = {"index": "PILE_INDEX", "zone": "PILE_ZONE", "owner": "PILE_OWNER"}
# A `check` node's kind -> the helper of front/runtime.py that checks it
_CHECKS = {INT: "want_int", BOOL: "want_bool", STR: "want_str", CARD: "want_card", PILE: "want_pile",
           LIST: "want_list"}


def _hoistable(node: Node, functions: dict[str, Function]) -> bool:
    """Expressions that cost a lookup or more: pile queries and card attributes (hoisted only
    where their code cannot fail)."""
    if isinstance(node, Call):
        return node.func in ("top", "bottom", "size", "empty", "run") and node.func not in functions
    return isinstance(node, Attr) and isinstance(node.obj, (Name, Call)) and node.obj != Name(node.obj.pos, "option")


class PythonEmitter:
    """Writes the typed trees of one scope as Python. `uses` tells which state parts the code reads
    (P, U, V, L: the lister of legal moves); `spans` the code that can fail. Each writer returns the
    code of its node; what else a parent needs of a part (its type, whether it can fail) the tree says."""

    def __init__(self, scope: Scope, hoist: Callable[[Compiled], Compiled] | None = None) -> None:
        self.scope = scope
        self.hoist = hoist
        self.uses: set[str] = set()
        # The code of each part that can fail, with its node and the ruleset function whose body
        # holds the node (None: the expression itself), in the order written.
        self.spans: list[tuple[str, Node, Function | None]] = []
        self._frames: list[tuple[Function, list[str]]] = []  # functions written out: their arguments' code
        self._hoisted: dict[int, Compiled] = {}  # what `hoist` gave for a node (by its id), while one is written

    def write(self, typed: Typed) -> Compiled:
        """A whole expression's code, with what the tree says of it (or what `hoist` gave instead)."""
        self._hoisted.clear()
        source = self.emit(typed)
        hoisted = self._hoisted.get(id(typed))
        return hoisted if hoisted is not None else \
            Compiled(source, typed.type, typed.const, typed.value, typed.total, typed.none)

    def emit(self, typed: Typed) -> str:
        source = _WRITERS[typed.kind](self, typed)
        if typed.unit:
            if not typed.total:
                self._may_fail(source, typed.node)
            elif self.hoist is not None and not typed.const and _hoistable(typed.node, self.scope.functions):
                # only code that cannot fail may run before its guard
                hoisted = self.hoist(Compiled(source, typed.type, typed.const, typed.value, typed.total, typed.none))
                self._hoisted[id(typed)] = hoisted
                return hoisted.source
        return source

    def _may_fail(self, source: str, node: Node) -> None:
        self.spans.append((source, node, self._frames[-1][0] if self._frames else None))

    def _listed(self, value: Typed, source: str) -> str:
        """Code for the items of a value taken where a pile or a list is: a pile's cards, a list as
        it is; a value of a kind known only at run time (a variable holding a pile, which is a
        number there) is told apart when the code runs."""
        if value.type == PILE:
            return self._pile_cards(source)
        if value.type == ANY:
            self.uses.add("P")
            return f"pile_or_list(P, {source})"
        return f"({source})"

    def _pile_cards(self, pile: str) -> str:
        alias = self.scope.pile_aliases.get(pile)
        if alias is not None:
            return alias
        self.uses.add("P")
        return f"P[{pile}]"

    def _seat_index(self, typed: Typed, seat: str) -> str:
        """A seat used as an index into the seats' variables or piles: as it is where the checker
        knows it is one of the game's seats (the node cannot fail), else checked when it runs."""
        if typed.total:
            return seat
        return f"seat_index({seat}, {self.scope.bindings.get('players', ('S.players', INT))[0]})"

    # -- one writer per kind of node (front/typed.py's KINDS) ---------------------------------

    def _const(self, typed: Typed) -> str:
        return repr(typed.value)

    def _pile(self, typed: Typed) -> str:
        return repr(typed.info)

    def _binding(self, typed: Typed) -> str:
        return self.scope.bindings[typed.info][0]

    def _variable(self, typed: Typed) -> str:
        slot, per_player = typed.info
        self.uses.add("V")
        if per_player:
            return f"V[{slot} + {self.scope.bindings['player'][0]}]"
        return f"V[{slot}]"

    def _seat_variable(self, typed: Typed) -> str:
        seat = self.emit(typed.args[0])
        self.uses.add("V")
        return f"V[{typed.info} + {self._seat_index(typed, seat)}]"

    def _seat_zone(self, typed: Typed) -> str:
        return f"SEATS_{typed.info}[{self.scope.bindings['player'][0]}]"

    def _zone_of(self, typed: Typed) -> str:
        return f"SEATS_{typed.info}[{self._seat_index(typed, self.emit(typed.args[0]))}]"

    def _item(self, typed: Typed) -> str:
        name, depth, offset = typed.info
        return f"l_{name}_{depth}_{offset}"

    def _param(self, typed: Typed) -> str:
        return self._frames[-1][1][typed.info[0]]

    def _inline(self, typed: Typed) -> str:
        arguments = [self.emit(a) for a in typed.args[:-1]]
        arguments = [code if a.const or code.isidentifier() else f"({code})" for a, code in zip(typed.args, arguments)]
        self._frames.append((typed.info, arguments))
        try:
            return self.emit(typed.args[-1])
        finally:
            self._frames.pop()

    def _face_up(self, typed: Typed) -> str:
        card = self.emit(typed.args[0])
        self.uses.add("U")
        if typed.info == "guarded":
            return f"({card} is not None and U[{card}] == 1)"
        return f"(U[{card}] == 1)"

    def _card_attr(self, typed: Typed) -> str:
        return f"A_{typed.info}[{self.emit(typed.args[0])}]"

    def _card_variable(self, typed: Typed) -> str:
        card = self.emit(typed.args[0])
        self.uses.add("V")
        if typed.args[0].none:  # no card: none
            return f"mark_of(V, {typed.info}, {card})"
        return f"V[{typed.info} + {card}]"

    def _pile_attr(self, typed: Typed) -> str:
        return f"{_PILE_TABLES[typed.info]}[{self.emit(typed.args[0])}]"

    def _check(self, typed: Typed) -> str:
        inner = self.emit(typed.args[0])
        if typed.kind == "loose":  # (nothing to check: what uses it may fail)
            return inner
        checked = f"{_CHECKS[typed.info]}({inner})"
        self._may_fail(checked, typed.node)
        return checked

    def _index_pile(self, typed: Typed) -> str:
        pile, index = self.emit(typed.args[0]), self.emit(typed.args[1])
        self.uses.add("P")
        return f"P[{pile}][{index}]"

    def _index(self, typed: Typed) -> str:
        items, index = self.emit(typed.args[0]), self.emit(typed.args[1])
        listed = self._listed(typed.args[0], items) if typed.args[0].type == ANY else items
        return f"{listed}[{index}]"

    def _slice(self, typed: Typed) -> str:
        items, *bounds = (self.emit(a) for a in typed.args)
        listed = self._listed(typed.args[0], items) if typed.args[0].type in (PILE, ANY) else items
        has_lo, has_hi = typed.info
        lo = bounds.pop(0) if has_lo else ""
        hi = bounds.pop(0) if has_hi else ""
        return f"charge({listed}[{lo}:{hi}])"

    def _covered(self, typed: Typed) -> str:
        pile = self.emit(typed.args[0])
        self.uses.add("P")
        return f"any(P[q] for q in COVER[{pile}])"

    def _size(self, typed: Typed) -> str:
        return f"len({self._listed(typed.args[0], self.emit(typed.args[0]))})"

    def _empty(self, typed: Typed) -> str:
        return f"(not {self._listed(typed.args[0], self.emit(typed.args[0]))})"

    def _end(self, typed: Typed) -> str:
        listed = self._listed(typed.args[0], self.emit(typed.args[0]))
        end = "-1" if typed.info == "top" else "0"
        if typed.args[0].type == ANY:  # (told apart once, then read)
            return f"end_item({listed}, {end})"
        return f"({listed}[{end}] if {listed} else None)"

    def _cards(self, typed: Typed) -> str:
        return self._pile_cards(self.emit(typed.args[0]))

    def _run(self, typed: Typed) -> str:
        pile = self.emit(typed.args[0])
        self.uses.add("U")
        return f"face_up_run({self._pile_cards(pile)}, U)"

    def _legal_moves(self, typed: Typed) -> str:
        self.uses.add("L")
        return "S.lister()"

    def _pairs(self, typed: Typed) -> str:
        return f"pairs({self.emit(typed.args[0])})"

    def _subsets(self, typed: Typed) -> str:
        items, *sizes = (self.emit(a) for a in typed.args)
        call = "subsets_of_size" if len(sizes) == 1 else "subsets"
        return f"{call}({', '.join([self._listed(typed.args[0], items), *sizes])})"

    def _disjoint(self, typed: Typed) -> str:
        code = f"disjoint_groups({self.emit(typed.args[0])}, charge)"
        self._may_fail(code, typed.node)
        return code

    def _abs(self, typed: Typed) -> str:
        return f"abs({self.emit(typed.args[0])})"

    def _range(self, typed: Typed) -> str:
        return f"charge(int_range({', '.join(self.emit(a) for a in typed.args)}))"

    def _best_of(self, typed: Typed) -> str:
        return f"{typed.info}({self.emit(typed.args[0])}, default=None)"

    def _best(self, typed: Typed) -> str:
        return f"{typed.info}({', '.join(self.emit(a) for a in typed.args)})"

    def _list_count(self, typed: Typed) -> str:
        return f"len({self.emit(typed.args[0])})"

    def _sorted(self, typed: Typed) -> str:
        return f"sorted_list(charge(want_list({self.emit(typed.args[0])})))"

    def _unique(self, typed: Typed) -> str:
        return f"unique_items(charge(want_list({self.emit(typed.args[0])})))"

    def _index_of(self, typed: Typed) -> str:
        return f"index_of(charge(want_list({self.emit(typed.args[0])})), {self.emit(typed.args[1])})"

    def _list_fold(self, typed: Typed) -> str:
        check = "want_ints" if typed.info == "sum" else "want_bools"  # the items of an untyped list
        return f"{typed.info}({check}({self.emit(typed.args[0])}))"

    def _iterate(self, typed: Typed) -> str:
        return f"charge({self.emit(typed.args[0])})"

    def _comprehension(self, typed: Typed) -> str:
        func, items = typed.info
        iterable, element = self.emit(typed.args[0]), self.emit(typed.args[1])
        condition = self.emit(typed.args[2]) if len(typed.args) > 2 else None
        target = ", ".join(f"l_{name}_{depth}_{offset}" for name, depth, offset in items)
        filter_ = f" if {condition}" if condition is not None else ""
        if func == "count":  # counts the items that pass the filter (and whose element is true, if a truth value)
            test = f" if {element}" if typed.args[1].type == BOOL else ""
            return f"sum(1 for {target} in {iterable}{filter_}{test})"
        generator = f"{element} for {target} in {iterable}{filter_}"
        if func == "list":
            return f"[{generator}]"
        if func in ("min", "max"):
            return f"{func}(({generator}), default=None)"
        if func in ("argmin", "argmax"):  # the first item whose number is the lowest / highest
            keyed = f"(({element}), {target}) for {target} in {iterable}{filter_}"
            return f"arg_best(({keyed}), {func == 'argmax'})"
        if func == "argsort":  # the items in the order of their numbers, equal ones as they came
            keyed = f"(({element}), {target}) for {target} in {iterable}{filter_}"
            return f"arg_sorted({keyed})"
        if func in ("all", "any") and condition is None and len(items) == 1 and typed.args[1].total:
            unrolled = _unrolled(func, iterable, target, element)
            if unrolled is not None:
                return unrolled
        return f"{func}({generator})"

    def _logic(self, typed: Typed) -> str:
        return f"({self.emit(typed.args[0])} {typed.kind} {self.emit(typed.args[1])})"

    def _arith(self, typed: Typed) -> str:
        left, right = self.emit(typed.args[0]), self.emit(typed.args[1])
        if typed.info == "**":
            return f"power({left}, {right})"
        return f"({left} {_PY_OP.get(typed.info, typed.info)} {right})"

    def _plus(self, typed: Typed) -> str:
        code = f"plus({self.emit(typed.args[0])}, {self.emit(typed.args[1])}, charge)"
        self._may_fail(code, typed.node)
        return code

    def _join(self, typed: Typed) -> str:
        return f"charge(join({self.emit(typed.args[0])}, {self.emit(typed.args[1])}))"

    def _compare(self, typed: Typed) -> str:
        return f"({self.emit(typed.args[0])} {typed.info} {self.emit(typed.args[1])})"

    def _in(self, typed: Typed) -> str:
        word = "in" if typed.info == "in" else "not in"
        return f"({self.emit(typed.args[0])} {word} {self.emit(typed.args[1])})"

    def _container(self, typed: Typed) -> str:
        return f"want_container({self.emit(typed.args[0])})"

    def _not(self, typed: Typed) -> str:
        return f"(not {self.emit(typed.args[0])})"

    def _neg(self, typed: Typed) -> str:
        return f"(-{self.emit(typed.args[0])})"

    def _ternary(self, typed: Typed) -> str:
        condition, then, otherwise = (self.emit(a) for a in typed.args)
        return f"({then} if {condition} else {otherwise})"

    def _list(self, typed: Typed) -> str:
        return "(" + "".join(f"{self.emit(i)}, " for i in typed.args) + ")"

    def _same(self, typed: Typed) -> str:
        return self.emit(typed.args[0])


_WRITERS: dict[str, Callable[[PythonEmitter, Typed], str]] = {
    "const": PythonEmitter._const, "pile": PythonEmitter._pile, "piles": PythonEmitter._const,
    "binding": PythonEmitter._binding, "variable": PythonEmitter._variable,
    "seat_variable": PythonEmitter._seat_variable, "seat_zone": PythonEmitter._seat_zone,
    "zone_of": PythonEmitter._zone_of, "item": PythonEmitter._item, "param": PythonEmitter._param,
    "inline": PythonEmitter._inline, "face_up": PythonEmitter._face_up, "card_attr": PythonEmitter._card_attr,
    "card_variable": PythonEmitter._card_variable,
    "pile_attr": PythonEmitter._pile_attr, "check": PythonEmitter._check, "loose": PythonEmitter._check,
    "index_pile": PythonEmitter._index_pile, "index": PythonEmitter._index, "slice": PythonEmitter._slice,
    "covered": PythonEmitter._covered, "size": PythonEmitter._size, "empty": PythonEmitter._empty,
    "end": PythonEmitter._end, "cards": PythonEmitter._cards, "run": PythonEmitter._run,
    "legal_moves": PythonEmitter._legal_moves, "pairs": PythonEmitter._pairs, "subsets": PythonEmitter._subsets,
    "disjoint": PythonEmitter._disjoint,
    "abs": PythonEmitter._abs,
    "range": PythonEmitter._range, "best_of": PythonEmitter._best_of, "best": PythonEmitter._best,
    "list_count": PythonEmitter._list_count, "list_fold": PythonEmitter._list_fold,
    "sorted": PythonEmitter._sorted, "unique": PythonEmitter._unique, "index_of": PythonEmitter._index_of,
    "comprehension": PythonEmitter._comprehension, "iterate": PythonEmitter._iterate, "and": PythonEmitter._logic,
    "or": PythonEmitter._logic, "arith": PythonEmitter._arith, "join": PythonEmitter._join,
    "plus": PythonEmitter._plus, "compare": PythonEmitter._compare,
    "in": PythonEmitter._in, "container": PythonEmitter._container, "not": PythonEmitter._not,
    "neg": PythonEmitter._neg, "ternary": PythonEmitter._ternary, "list": PythonEmitter._list,
    "same": PythonEmitter._same,
}


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
