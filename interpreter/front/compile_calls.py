"""Stage 4, the calls of the compiler: the builtin functions (`size`, `top`, `of`, `range`, ...) and
the ruleset's own functions, inlined at each call site (front/compiler.py's `Compiler` inherits them)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable

from ..base.errors import unknown
from ..base.limits import MAX_INLINE_DEPTH
from .compile_types import (ANY, BOOL, CARD, CARDS, INT, LIST, PAIRS, PAIRS_ANY, PILE, PILES, Compiled, CompileError,
                            Function, InlinedFunctionError, Scope, TooLargeError)
from .parser import Call, Name, Node

_FOLDED_RANGE = 1_000  # a range of constants up to this long is computed at load

_BUILTIN_NAMES = ("size", "empty", "top", "bottom", "cards", "run", "min", "max", "sum", "count", "all", "any",
                  "abs", "pairs", "of", "legal_moves", "range", "covered")


def _a_seat(seat: Compiled) -> bool:
    """Is this a seat of the game for sure (the acting seat, or the one a `for_seat` move names)?"""
    return seat.source in ("b_player", "b_target")


class _CallCompiler:
    """The calls of `Compiler` (front/compiler.py): the state they share is its own, and so are
    `compile` and `_fold`."""

    scope: Scope
    uses: set[str]
    _stack: list[str]
    _locals: dict[str, Compiled]

    def compile(self, node: Node, expect: tuple[str, ...] | None = None) -> Compiled:
        raise NotImplementedError

    def _fold(self, source: str, type_: str, parts: list[Compiled], compute: Callable[[list[Any]], Any],
              node: Node | None = None, total: bool = False) -> Compiled:
        raise NotImplementedError

    def _listed(self, value: Compiled) -> str:
        """Python code for the items of a value taken where a pile or a list is: a pile's cards, a
        list as it is; a value of a kind known only at run time (a variable holding a pile, which
        is a number there) is told apart when the code runs."""
        if value.type == PILE:
            return self._pile_cards(value)
        if value.type == ANY:
            self.uses.add("P")
            return f"pile_or_list(P, {value.source})"
        return f"({value.source})"

    def _pile_cards(self, pile: Compiled) -> str:
        """Python code for the card list of a pile."""
        alias = self.scope.pile_aliases.get(pile.source)
        if alias is not None:
            return alias
        self.uses.add("P")
        return f"P[{pile.source}]"

    def _call(self, node: Call) -> Compiled:
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
                seat = self.compile(args[1], (INT,))
                self.uses.add("V")
                return Compiled(f"V[{slot} + {self._seat_index(seat)}]", type_, total=_a_seat(seat))
            if not (isinstance(zone, Name) and zone.name in self.scope.zones and self.scope.zones[zone.name][2]):
                raise CompileError("of(ZONE, seat) takes a per-player zone or variable", zone.pos)
            seat = self.compile(args[1], (INT,))
            single = self.scope.zones[zone.name][1]
            return Compiled(f"SEATS_{zone.name}[{self._seat_index(seat)}]", PILE if single else PILES,
                            total=_a_seat(seat))
        if func == "covered":  # a pile lying on it (`covered_by`) holds a card
            arity(1)
            arg = self.compile(args[0], (PILE,))
            self.uses.add("P")
            return Compiled(f"any(P[q] for q in COVER[{arg.source}])", BOOL, total=arg.total)
        if func in ("size", "empty"):
            arity(1)
            arg = self.compile(args[0], (PILE, CARDS, PILES, LIST))
            inner = self._listed(arg)
            total = arg.total and arg.type != ANY
            return Compiled(f"len({inner})", INT, total=total, none=False) if func == "size" else \
                Compiled(f"(not {inner})", BOOL, total=total)
        if func in ("top", "bottom"):
            arity(1)
            arg = self.compile(args[0], (PILE, CARDS))
            end = "-1" if func == "top" else "0"
            inner = self._listed(arg)
            if arg.type == ANY:  # (told apart once, then read)
                return Compiled(f"end_item({inner}, {end})", CARD, total=False)
            return Compiled(f"({inner}[{end}] if {inner} else None)", CARD, total=arg.total)
        if func == "cards":
            arity(1)
            arg = self.compile(args[0], (PILE,))
            return Compiled(self._pile_cards(arg), CARDS, total=arg.total)
        if func == "run":
            arity(1)
            arg = self.compile(args[0], (PILE,))
            self.uses.add("U")
            return Compiled(f"face_up_run({self._pile_cards(arg)}, U)", CARDS, total=arg.total)
        if func == "legal_moves":
            arity(0)
            if self.scope.listing:
                raise CompileError("legal_moves() cannot be used in a move's own conditions (when, take, match, "
                                   "select, for_seat): it would list the moves while they are listed", node.pos)
            self.uses.add("L")
            return Compiled("S.lister()", LIST)
        if func == "pairs":
            arity(1)
            arg = self.compile(args[0], (CARDS, LIST))
            return Compiled(f"pairs({arg.source})", PAIRS if arg.type == CARDS else PAIRS_ANY, total=arg.total)
        if func == "abs":
            arity(1)
            arg = self.compile(args[0], (INT,))
            return self._fold(f"abs({arg.source})", INT, [arg], lambda v: abs(v[0]), node, total=not arg.none)
        if func == "range":
            arity(1, 2)
            bounds = [self.compile(a, (INT,)) for a in args]
            if all(b.const for b in bounds) and len(range(*(b.value for b in bounds))) <= _FOLDED_RANGE:
                numbers = tuple(range(*(b.value for b in bounds)))  # known at load (`choose` needs that)
                return Compiled(repr(numbers), LIST, const=True, value=numbers, total=True)
            # counted like a loop over the numbers, so ranges made again and again stay bounded
            return Compiled(f"charge(int_range({', '.join(b.source for b in bounds)}))", LIST)
        if func in ("min", "max"):
            if not args:
                raise CompileError(f"{func}() needs at least one argument", node.pos)
            if len(args) == 1:
                arg = self.compile(args[0], (LIST,))
                return Compiled(f"{func}({arg.source}, default=None)", ANY)
            parts = [self.compile(a, (INT,)) for a in args]
            fn = min if func == "min" else max
            return self._fold(f"{func}({', '.join(p.source for p in parts)})", INT, parts, lambda v: fn(v),
                              total=not any(p.none for p in parts))
        if func in ("sum", "count", "all", "any"):
            arity(1)
            arg = self.compile(args[0], (LIST, CARDS, PILES) if func == "count" else (LIST,))
            if func == "count":
                return Compiled(f"len({arg.source})", INT, total=arg.total, none=False)
            check = "want_ints" if func == "sum" else "want_bools"  # the items of an untyped list
            return Compiled(f"{func}({check}({arg.source}))", INT if func == "sum" else BOOL)
        raise CompileError(unknown("function", func, set(_BUILTIN_NAMES) | set(self.scope.functions)), node.pos)

    def _seat_index(self, seat: Compiled) -> str:
        """Code for a seat used as an index into the seats' variables or piles (`of(x, seat)`): one of
        the game's seats (0 to players - 1; the tables hold a place for every seat the ruleset
        allows, so a seat beyond the game's, or a negative one, would read another's), else an error."""
        if _a_seat(seat):
            return seat.source
        return f"seat_index({seat.source}, {self.scope.bindings.get('players', ('S.players', INT))[0]})"

    def _inline(self, node: Call, function: Function) -> Compiled:
        if function.name in self._stack:
            chain = " -> ".join(self._stack + [function.name])
            raise CompileError(f"function '{function.name}' calls itself ({chain}); recursion is not allowed",
                               node.pos)
        if len(self._stack) >= MAX_INLINE_DEPTH:
            raise TooLargeError(f"functions call functions more than {MAX_INLINE_DEPTH} deep", node.pos)
        if len(node.args) != len(function.params):
            raise CompileError(f"{function.name}() takes {len(function.params)} argument(s), got {len(node.args)}",
                               node.pos)
        compiled_args = [self.compile(a) for a in node.args]
        saved = self._locals
        self._locals = {p: a if a.const or a.source.isidentifier() else replace(a, source=f"({a.source})")
                        for p, a in zip(function.params, compiled_args)}
        self._stack.append(function.name)
        try:
            body = self.compile(function.body)
        except TooLargeError as exc:  # reported at this call, in the text that makes it
            raise TooLargeError(exc.message, node.pos) from None
        except InlinedFunctionError:
            raise
        except CompileError as exc:
            raise InlinedFunctionError(exc.message, exc.offset, function) from None
        finally:
            self._stack.pop()
            self._locals = saved
        return body
