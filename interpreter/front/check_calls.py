"""Stage 4, the calls of the checker: the builtin functions (`size`, `top`, `of`, `range`, ...) and
the ruleset's own functions, written out at each call (front/checker.py's `Checker` inherits them)."""

from __future__ import annotations

from typing import Any, Callable

from ..base.errors import unknown
from ..base.limits import MAX_INLINE_DEPTH
from .compile_types import (ANY, BOOL, CARD, CARDS, INT, LIST, PAIRS, PAIRS_ANY, PILE, PILES, SUBSETS, SUBSETS_ANY,
                            CompileError, Function, InlinedFunctionError, Scope, TooLargeError)
from .parser import Call, Name, Node
from .typed import Typed

_FOLDED_RANGE = 1_000  # a range of constants up to this long is computed at load

_BUILTIN_NAMES = ("size", "empty", "top", "bottom", "cards", "run", "min", "max", "sum", "count", "all", "any",
                  "abs", "pairs", "of", "legal_moves", "range", "covered", "subsets", "sorted", "unique", "index",
                  "disjoint")


class _CallChecker:
    """The calls of `Checker` (front/checker.py): the state they share is its own, and so are
    `check` and `_fold`."""

    scope: Scope
    _stack: list[str]
    _locals: dict[str, Typed]

    def check(self, node: Node, expect: tuple[str, ...] | None = None) -> Typed:
        raise NotImplementedError

    def _fold(self, kind: str, info: Any, type_: str, parts: list[Typed], compute: Callable[[list[Any]], Any],
              node: Node, total: bool = False) -> Typed:
        raise NotImplementedError

    def _is_binding(self, value: Typed, *sources: str) -> bool:
        raise NotImplementedError

    def _a_seat(self, seat: Typed) -> bool:
        """Is this a seat of the game for sure (the acting seat, or the one a `for_seat` move names)?"""
        return self._is_binding(seat, "b_player", "b_target")

    def _call(self, node: Call) -> Typed:
        func = node.func
        if func in self.scope.functions:
            return self._inline(node, self.scope.functions[func])
        args = node.args

        def arity(*counts: int) -> None:
            if len(args) not in counts:
                wanted = " or ".join(str(c) for c in counts)
                raise CompileError(f"{func}() takes {wanted} argument{'s' if counts != (1,) else ''}, "
                                   f"got {len(args)}", node.pos)

        if func == "of":
            arity(2)
            zone = args[0]
            if isinstance(zone, Name) and zone.name in self.scope.variables and self.scope.variables[zone.name][2] \
                    and zone.name not in self.scope.bindings and zone.name not in self._locals:
                slot, type_, _ = self.scope.variables[zone.name]  # a per-player variable: that seat's value
                seat = self.check(args[1], (INT,))
                return Typed("seat_variable", type_, node, (seat,), slot, total=self._a_seat(seat))
            if not (isinstance(zone, Name) and zone.name in self.scope.zones and self.scope.zones[zone.name][2]):
                raise CompileError("of(ZONE, seat) takes a per-player zone or variable", zone.pos)
            seat = self.check(args[1], (INT,))
            single = self.scope.zones[zone.name][1]
            return Typed("zone_of", PILE if single else PILES, node, (seat,), zone.name, total=self._a_seat(seat))
        if func == "covered":  # a pile lying on it (`covered_by`) holds a card
            arity(1)
            arg = self.check(args[0], (PILE,))
            return Typed("covered", BOOL, node, (arg,), total=arg.total)
        if func in ("size", "empty"):
            arity(1)
            arg = self.check(args[0], (PILE, CARDS, PILES, LIST))
            total = arg.total and arg.type != ANY
            return Typed("size", INT, node, (arg,), total=total, none=False) if func == "size" else \
                Typed("empty", BOOL, node, (arg,), total=total)
        if func in ("top", "bottom"):
            arity(1)
            arg = self.check(args[0], (PILE, CARDS))
            return Typed("end", CARD, node, (arg,), func, total=arg.total and arg.type != ANY)
        if func in ("cards", "run"):
            arity(1)
            arg = self.check(args[0], (PILE,))
            return Typed(func, CARDS, node, (arg,), total=arg.total)
        if func == "legal_moves":
            arity(0)
            if self.scope.listing:
                raise CompileError("legal_moves() cannot be used in a move's own conditions (when, take, match, "
                                   "select, for_seat): it would list the moves while they are listed", node.pos)
            return Typed("legal_moves", LIST, node)
        if func == "pairs":
            arity(1)
            arg = self.check(args[0], (CARDS, LIST))
            return Typed("pairs", PAIRS if arg.type == CARDS else PAIRS_ANY, node, (arg,), total=arg.total)
        if func == "subsets":  # walked by a comprehension only (`for s in subsets(...)`)
            arity(1, 2, 3)
            items = self.check(args[0], (PILE, CARDS, LIST))
            sizes = [self.check(a, (INT,)) for a in args[1:]]
            return Typed("subsets", SUBSETS if items.type in (PILE, CARDS) else SUBSETS_ANY, node, (items, *sizes))
        if func == "disjoint":  # the choices of groups (lists) no two of which share an item
            arity(1)
            groups = self.check(args[0], (LIST,))
            return Typed("disjoint", LIST, node, (groups,))
        if func == "abs":
            arity(1)
            arg = self.check(args[0], (INT,))
            return self._fold("abs", None, INT, [arg], lambda v: abs(v[0]), node, total=not arg.none)
        if func == "range":
            arity(1, 2)
            bounds = [self.check(a, (INT,)) for a in args]
            if all(b.const for b in bounds):
                low, high = (0, bounds[0].value) if len(bounds) == 1 else (bounds[0].value, bounds[1].value)
                if high - low <= _FOLDED_RANGE:  # (len(range(...)) of 64-bit bounds may pass a C size)
                    numbers = tuple(range(low, high))  # known at load (`choose` needs that)
                    return Typed("const", LIST, node, const=True, value=numbers, total=True)
            # counted like a loop over the numbers, so ranges made again and again stay bounded
            return Typed("range", LIST, node, tuple(bounds))
        if func in ("min", "max"):
            if not args:
                raise CompileError(f"{func}() needs at least one argument", node.pos)
            if len(args) == 1:
                arg = self.check(args[0], (LIST,))
                return Typed("best_of", ANY, node, (arg,), func)
            parts = [self.check(a, (INT,)) for a in args]
            best = min if func == "min" else max
            return self._fold("best", func, INT, parts, lambda v: best(v), node,
                              total=not any(p.none for p in parts))
        if func == "sorted":  # numbers or strings; cards have no order
            arity(1)
            arg = self.check(args[0], (LIST, CARDS, PILES))
            if arg.type != LIST:
                raise CompileError("cards and piles have no order: sort numbers, as sorted(c.rank for c in ...)",
                                   node.pos)
            return Typed("sorted", LIST, node, (arg,))
        if func == "unique":
            arity(1)
            arg = self.check(args[0], (LIST, CARDS, PILES))
            return Typed("unique", arg.type if arg.type in (CARDS, PILES) else LIST, node, (arg,), total=arg.total,
                         none=False)
        if func == "index":  # where an item first is: a card among cards, a pile among piles
            arity(2)
            items = self.check(args[0], (LIST, CARDS, PILES))
            item = self.check(args[1], {CARDS: (CARD,), PILES: (PILE,)}.get(items.type))
            return Typed("index_of", INT, node, (items, item), total=items.total and item.total)
        if func in ("sum", "count", "all", "any"):
            arity(1)
            arg = self.check(args[0], (LIST, CARDS, PILES) if func == "count" else (LIST,))
            if func == "count":
                return Typed("list_count", INT, node, (arg,), total=arg.total, none=False)
            return Typed("list_fold", INT if func == "sum" else BOOL, node, (arg,), func)
        raise CompileError(unknown("function", func, set(_BUILTIN_NAMES) | set(self.scope.functions)), node.pos)

    def _inline(self, node: Call, function: Function) -> Typed:
        if function.name in self._stack:
            chain = " -> ".join(self._stack + [function.name])
            raise CompileError(f"function '{function.name}' calls itself ({chain}); recursion is not allowed",
                               node.pos)
        if len(self._stack) >= MAX_INLINE_DEPTH:
            raise TooLargeError(f"functions call functions more than {MAX_INLINE_DEPTH} deep", node.pos)
        if len(node.args) != len(function.params):
            raise CompileError(f"{function.name}() takes {len(function.params)} argument(s), got {len(node.args)}",
                               node.pos)
        checked = [self.check(a) for a in node.args]
        saved = self._locals
        # a parameter stands for its argument, which is checked (and its code written) once, at the call
        self._locals = {p: Typed("param", a.type, a.node, info=(i, a), const=a.const, value=a.value, total=a.total,
                                 none=a.none) for i, (p, a) in enumerate(zip(function.params, checked))}
        self._stack.append(function.name)
        try:
            body = self.check(function.body)
        except TooLargeError as exc:  # reported at this call, in the text that makes it
            raise TooLargeError(exc.message, node.pos) from None
        except InlinedFunctionError:
            raise
        except CompileError as exc:
            raise InlinedFunctionError(exc.message, exc.offset, function) from None
        finally:
            self._stack.pop()
            self._locals = saved
        return Typed("inline", body.type, node, (*checked, body), function, body.const, body.value, body.total,
                     body.none)
