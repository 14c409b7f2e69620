"""Backend 2: a ruleset compiled to native code with Numba.

The front end (parse, check, types; `ruleset._Builder`) has already accepted the ruleset and
built the Python backend. This module lowers the same checked syntax trees to array code that
Numba compiles: the state is flat integer arrays (`C[pile, i]` the cards of each pile bottom
first, `N[pile]` the sizes, `U[card]` the face bits, `V[slot]` the variables, `M` the game's
meta fields), moves are integers (`Native.code`), and listing, applying, triggers, end checks,
scoring and whole random playouts run in compiled code. Options are run-time inputs (`O`), so
one compiled module serves every option combination of a ruleset (that keeps its deck); it is
cached in the user cache folder under the hash of its generated source, and only the first load
pays for compiling. The helpers all rulesets share live in `native_runtime.py`.

Only code generated here from the parsed trees reaches Numba (names are mapped, literals go
through `repr`); ruleset text is never evaluated. The Python backend stays the reference: where a
ruleset uses a construct this backend does not cover, `native_backend` says which one and where,
and callers keep the Python backend. Where compiled code meets an error (arithmetic on `none`, an
index out of range, a 64-bit overflow), it stops with `NativeStop`, and the caller replays the
game's moves through the Python backend, which reports (or, for an intermediate overflow Python
does not have, continues) exactly as the reference does. A function Numba fails to type or lower
(a fault of this backend, never of the ruleset) stops the same way, at that call and every later
one, so the Python backend plays such a ruleset instead of a crash.

What it covers, and what not yet: docs/native.md. Setup (and `on_start`) runs in Python; a native
game starts from a Python game's position. Games where every seat plays at once add
`native_simultaneous.py` to their module: each seat's moves, and the clock of `simulate`.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import random
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import resources
from .errors import CacheError, CardrulesError, IllegalMoveError, SourcePos
from .limits import INT_MAX, INT_MIN, MAX_TRIGGER_PASSES
from .native_bots import SEAT_KINDS
from .native_bots import SOURCE as BOTS_SOURCE
from .native_search import SOURCE as SEARCH_SOURCE
from .native_simultaneous import SOURCE as SIMULTANEOUS_SOURCE
from .parser import (
    Attr,
    Binary,
    Call,
    Comprehension,
    Const,
    Index,
    ListLit,
    Name,
    Node,
    Slice,
    Ternary,
    Unary,
    parse_loop,
)

NO_INT = -(2 ** 63)  # an int that is `none` (an attribute of no card)
NO_STR = -1  # a string that is `none`
# lists built by list(...) (arrays of their own; truth values as 0 and 1): their items' type
LISTS = {"int_list": "int", "str_list": "str", "bool_list": "bool"}
ITEMS = {"cards": "card", "piles": "pile", **LISTS}  # lists of one kind of item, as arrays
EMPTY = "np.empty(0, dtype=np.int64)"
LOOPED = {"piles": "pile", "range": "int", "seats": "int", **LISTS}  # what a loop over such items binds (else cards)

# The meta fields of a game (`M`): 0-9 the end and the cycle; 10 the seat to act, 11 its phase,
# 12 the seats in the game, 13 the winners an end condition named (a bit mask, -1: none named),
# 14 and 15 whether the move being applied used `act` or `end_turn`, 16-23 the (seat, phase) pairs
# to return to after `act`, 24 how many; 26 the seat `turn_to` chose for the next turn (-1: none),
# 27 the direction of the turns (1, or -1 once `reverse`d); 28-35 while seats are asked to act
# out of turn (`out_of_turn`; engine.State.asking): 1 (else 0), the seat, phase and `turn_to` seat
# of the turn that goes on afterwards, the seat the asking goes round from and its direction, how
# many seats of the round have been asked, the move (template; -1: the deal) they are asked after;
# 36 the seed of the draws of chance after the deal (in 64 bits), 37 how many have been made.
OVER, RESULT, REASON, MOVES, MAX_MOVES, LAST, CYCLE, BEGIN, SEEN, STOP = range(10)
CURRENT, PHASE, PLAYERS, WINNERS, ACTED, END_TURN, FRAMES, NFRAMES = 10, 11, 12, 13, 14, 15, 16, 24
NEXT_SEAT, DIRECTION = 26, 27
ASKING, ASK_SEAT, ASK_PHASE, ASK_CHOSEN, ASK_FROM, ASK_DIRECTION, ASKED, ASK_AFTER = range(28, 36)
CHANCE, DRAWS = 36, 37
META = 38
CYCLE_NONE, CYCLE_OFFERED, CYCLE_TRACKING = 0, 1, 2
BEGIN_NONE, BEGIN_OFFERED, BEGIN_KEY = 0, 1, 2
MAX_CYCLE_POSITIONS = 1024  # positions one cycle of `end.cycle` may go through natively (else NativeStop)
MAX_FOUND = 4096  # selections one `select` search may find in a position natively (else NativeStop)
MAX_REPEAT_POSITIONS = 1 << 20  # positions one game may keep for `end.repeat` natively (else NativeStop)
MAX_LEGAL = 1 << 14  # legal moves one listing may give natively (else NativeStop)


class Unsupported(Exception):
    """A construct the native backend does not cover (yet); the Python backend runs the ruleset."""

    def __init__(self, what: str, pos: SourcePos | None = None) -> None:
        super().__init__(what)
        self.what = what
        self.pos = pos

    def __str__(self) -> str:
        return f"{self.pos}: {self.what}" if self.pos is not None else self.what


class NativeStop(CardrulesError):
    """Compiled code met an error: the Python backend replays the game to report it exactly."""


@dataclass(frozen=True)
class _Val:
    """A lowered value: its type, its code, and for a list of cards `(array, lo, hi)`."""

    type: str  # int bool str card pile piles cards none; int_list str_list bool_list (list(...) of numbers, ...)
    code: str = ""
    value: Any = None  # a constant known at lowering (zone piles)
    const: bool = False
    maybe_none: bool = False  # an int that may be NO_INT (an attribute of no card)
    arr: str = ""
    lo: str = ""
    hi: str = ""
    container: str = ""  # a list's Python kind where known: "list" (built) or "tuple" (written out)


def _int(code: str, maybe_none: bool = False) -> _Val:
    return _Val("int", code, maybe_none=maybe_none)


class _Emitter:
    """Lowers one checked ruleset to the source of a Numba module."""

    def __init__(self, rules: Any) -> None:
        front = rules.front_end
        if front is None:
            raise Unsupported("the ruleset was not built by the front end")
        self.rules = rules
        self.front = front
        self.data = front.data
        self.doc = front.doc
        self.strings: dict[str, int] = {}
        self.helpers: list[str] = []
        self.counter = 0
        self.functions = {name: (f.params, f.body) for name, f in front.scope.functions.items()}
        self.option_slots = {name: i for i, name in enumerate(rules.options)}
        self.path: tuple[Any, ...] = ()
        # Card attributes that are lists of strings, as bit masks of the strings' ids (numbered
        # first, so that they fit in 63 bits); NO_MASK for no card.
        self.kinds: dict[str, str] = {}
        self.select_piles: dict[int, list[int]] = {}  # the piles each move's `select` chooses from
        self.inferring: set[str] = set()
        self.masks: dict[str, list[int]] = {}
        self.int_masks: dict[str, tuple[list[int], int]] = {}  # lists of numbers: (masks, the number of bit 0)
        self.lists_names = False  # `legal_moves()` is used: the module needs `legal_names`
        self.orders_strings = False  # strings are ordered (min, max): the module needs STR_RANK
        self.compares_lists = False  # lists are compared (==, !=): the module needs same_items
        for name, kind in rules.deck.attributes.items():
            values = [card.get(name) for card in rules.deck.cards]
            if kind == "list" and all(isinstance(v, list) and all(isinstance(x, str) for x in v) for v in values):
                for v in values:
                    for x in v:
                        self.sid(x)
                if len(self.strings) <= 62:
                    self.masks[name] = [sum(1 << self.sid(x) for x in set(v)) for v in values]
            elif kind == "list" and all(isinstance(v, list) and all(type(x) is int for x in v) for v in values):
                flat = [x for v in values for x in v] or [0]
                low = min(flat)
                if max(flat) - low <= 62:  # bit i stands for the number low + i
                    self.int_masks[name] = ([sum(1 << (x - low) for x in set(v)) for v in values], low)

    # -- errors and names ----------------------------------------------------------------

    def no(self, what: str, path: tuple[Any, ...] | None = None) -> Unsupported:
        where = path if path is not None else self.path
        try:
            pos = self.doc.pos(where)
        except Exception:  # noqa: BLE001 - a position is a courtesy
            pos = None
        return Unsupported(what, pos)

    def fresh(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def sid(self, text: str) -> int:
        """The id of a string (suits, zone names, option values) in compiled code."""
        return self.strings.setdefault(text, len(self.strings))

    def value_at(self, path: tuple[Any, ...]) -> Any:
        value: Any = self.data
        for key in path:
            value = value[key]
        return value

    def parse(self, path: tuple[Any, ...]) -> Node:
        self.path = path
        return self.front.parse(path)

    # -- expressions ---------------------------------------------------------------------

    def expr(self, node: Node, env: dict[str, _Val], want: str | None = None) -> _Val:
        value = self._expr(node, env)
        if want == "bool" and value.type != "bool":
            raise self.no(f"a truth value was expected, got {value.type}")
        if want == "int" and value.type not in ("int",):
            raise self.no(f"a number was expected, got {value.type}")
        if want == "card" and value.type == "none":
            return _Val("card", "NOCARD")
        return value

    def checked(self, value: _Val) -> str:
        """Code for an int (or a pile) that must not be `none` here (arithmetic, ordering, a pile
        read)."""
        return f"ck({value.code})" if value.maybe_none else value.code

    def _expr(self, node: Node, env: dict[str, _Val]) -> _Val:
        if isinstance(node, Const):
            v = node.value
            if isinstance(v, bool):
                return _Val("bool", repr(v), v, True)
            if isinstance(v, int):
                if not INT_MIN <= v <= INT_MAX:  # (in a branch the front end folded away unchecked)
                    raise self.no("a number outside the 64-bit range")
                return _Val("int", repr(v), v, True)
            if isinstance(v, str):
                return _Val("str", repr(self.sid(v)), v, True)
            if v is None:
                return _Val("none", "", None, True)
            raise self.no("this constant")
        if isinstance(node, Name):
            return self._name(node, env)
        if isinstance(node, Attr):
            return self._attr(node, env)
        if isinstance(node, Index):
            obj = self.expr(node.obj, env)
            index = self.expr(node.index, env, "int")
            if obj.type == "piles":
                if obj.value is not None and index.const and -len(obj.value) <= index.value < len(obj.value):
                    pile = obj.value[index.value]
                    return _Val("pile", repr(pile), pile, True)
                return _Val("pile", f"at({obj.code}, {self.checked(index)})")
            if obj.type == "pile":
                pile = self.checked(obj)
                return _Val("card", f"at(C[{pile}][:N[{pile}]], {self.checked(index)})")
            if obj.type == "cards":
                return _Val("card", f"at({obj.arr}[{obj.lo}:{obj.hi}], {self.checked(index)})")
            if obj.type == "bool_list":
                return _Val("bool", f"(at({obj.code}, {self.checked(index)}) != 0)")
            if obj.type in LISTS:  # an item (a number may be none)
                return _Val(LISTS[obj.type], f"at({obj.code}, {self.checked(index)})", maybe_none=True)
            raise self.no("indexing this value")
        if isinstance(node, Slice):
            return self._slice(node, env)
        if isinstance(node, Call):
            return self._call(node, env)
        if isinstance(node, Comprehension):
            return self._comprehension(node, env)
        if isinstance(node, Binary):
            return self._binary(node, env)
        if isinstance(node, Unary):
            operand = self.expr(node.operand, env)
            if node.op == "not":
                if operand.const:
                    return _Val("bool", repr(not operand.value), not operand.value, True)
                return _Val("bool", f"(not {operand.code})")
            if operand.const:
                return _Val("int", repr(-operand.value), -operand.value, True)
            return _int(f"neg({self.checked(operand)})")
        if isinstance(node, Ternary):
            condition = self.expr(node.condition, env, "bool")
            if condition.const:
                return self.expr(node.then if condition.value else node.otherwise, env)
            then, otherwise = self.expr(node.then, env), self.expr(node.otherwise, env)
            types = {then.type, otherwise.type}
            if types <= {"card", "none"}:
                then, otherwise = self.as_type(then, "card"), self.as_type(otherwise, "card")
                type_ = "card"
            elif types <= {"int", "none"}:
                then, otherwise = self.as_type(then, "int"), self.as_type(otherwise, "int")
                type_ = "int"
            elif types <= {"str", "none"}:
                then, otherwise = self.as_type(then, "str"), self.as_type(otherwise, "str")
                type_ = "str"
            elif types == {"pile", "none"}:
                then, otherwise = self.as_type(then, "pile"), self.as_type(otherwise, "pile")
                type_ = "pile"
            elif len(types) == 1 and types <= {"bool", "pile"}:
                type_ = then.type
            else:
                raise self.no("a conditional whose branches have different kinds of value")
            return _Val(type_, f"({then.code} if {condition.code} else {otherwise.code})",
                        maybe_none=then.maybe_none or otherwise.maybe_none or "none" in types)
        if isinstance(node, ListLit):
            return self._list(node, env)
        raise self.no(f"{type(node).__name__}")

    def _list(self, node: ListLit, env: dict[str, _Val]) -> _Val:
        """A list written out, used as a value (indexed, sliced, sized): an array of its items, all
        numbers, strings, cards, piles or truth values (`none` among numbers, strings or cards)."""
        items = [self.expr(item, env) for item in node.items]
        if not items:
            return _Val("int_list", EMPTY, container="tuple")
        kinds = {item.type for item in items} - {"none"}
        if len(kinds) != 1 or not kinds <= {"int", "str", "card", "pile", "bool"}:
            raise self.no("a list written out of values of several kinds, or not numbers, strings, cards, piles "
                          "or truth values")
        kind = kinds.pop()
        if kind == "bool":  # as 0 and 1
            if any(item.type == "none" for item in items):
                raise self.no("a list written out of truth values and none")
            bits = ", ".join(f"(1 if {item.code} else 0)" for item in items)
            return _Val("bool_list", f"np.array([{bits}], dtype=np.int64)", container="tuple")
        if kind == "pile":
            if any(item.type == "none" or item.maybe_none for item in items):
                raise self.no("a list written out of piles that may be none")
            if all(item.const for item in items):  # known at lowering, as a zone's piles
                piles = [item.value for item in items]
                return _Val("piles", _array(piles), piles, True, container="tuple")
            return _Val("piles", f"np.array([{', '.join(item.code for item in items)}], dtype=np.int64)",
                        container="tuple")
        array = f"np.array([{', '.join(self.as_type(item, kind).code for item in items)}], dtype=np.int64)"
        if kind == "card":
            return _Val("cards", arr=array, lo="0", hi=str(len(items)), container="tuple")
        return _Val("int_list" if kind == "int" else "str_list", array, container="tuple")

    def _slice(self, node: Slice, env: dict[str, _Val]) -> _Val:
        """A slice of a pile's cards or of cards (a narrower window of the same array), or of a
        zone's piles with constant bounds (known at lowering)."""
        obj = self.expr(node.obj, env)
        bounds = [self.expr(b, env, "int") if b is not None else None for b in (node.lo, node.hi)]
        if obj.type == "piles" and obj.value is not None and all(b is None or b.const for b in bounds):
            piles = obj.value[slice(*(b.value if b is not None else None for b in bounds))]
            # (as an array: Numba cannot loop over an empty tuple)
            return _Val("piles", _array(piles) if piles else EMPTY, piles, True, container=obj.container)
        if obj.type == "pile":
            pile = self.checked(obj)
            obj = _Val("cards", arr=f"C[{pile}]", lo="0", hi=f"N[{pile}]", container="list")
        if obj.type in ("piles", *LISTS):  # bounds known only in play: a window of the array
            if obj.value is not None and not obj.code.startswith("Z_"):  # a slice known at load: as an array
                obj = _Val("piles", _array(obj.value) if obj.value else EMPTY, container=obj.container)
            whole = f"len({obj.code})"
            lo = f"clip({self.checked(bounds[0])}, 0, {whole})" if bounds[0] is not None else "0"
            hi = f"clip({self.checked(bounds[1])}, 0, {whole})" if bounds[1] is not None else whole
            return _Val(obj.type, f"{obj.code}[{lo}:max({lo}, {hi})]", container=obj.container)
        if obj.type == "range":  # numbers from lo up to hi: a narrower range
            end = f"max({obj.lo}, {obj.hi})"
            lo = f"clip({self.checked(bounds[0])}, {obj.lo}, {end})" if bounds[0] is not None else obj.lo
            hi = f"clip({self.checked(bounds[1])}, {obj.lo}, {end})" if bounds[1] is not None else end
            return _Val("range", lo=lo, hi=f"max({lo}, {hi})")
        if obj.type != "cards":
            raise self.no(f"slicing {obj.type}")
        lo = f"clip({self.checked(bounds[0])}, {obj.lo}, {obj.hi})" if bounds[0] is not None else obj.lo
        hi = f"clip({self.checked(bounds[1])}, {obj.lo}, {obj.hi})" if bounds[1] is not None else obj.hi
        return _Val("cards", arr=obj.arr, lo=lo, hi=f"max({lo}, {hi})", container=obj.container)

    def as_type(self, value: _Val, type_: str) -> _Val:
        if value.type != "none":
            return value
        code = {"card": "NOCARD", "int": "NO_INT", "str": "NO_STR", "pile": "NO_INT"}[type_]
        return _Val(type_, code, None, True, maybe_none=True)

    def _name(self, node: Name, env: dict[str, _Val]) -> _Val:
        name = node.name
        if name in env:
            return env[name]
        rules = self.rules
        if name == "players":
            return _int("M[12]")
        if name == "seats":
            return _Val("seats", "M[12]")
        if name == "phase" and rules.phases:
            return _Val("str", "PHASE_NAMES[M[11]]")
        if name == "direction" and rules.rotation:
            return _int("M[27]")
        if name in rules.variables:
            return self.variable(name, env["player"].code if rules.variables[name].per_player else "")
        if name in rules.zones:
            zone = rules.zones[name]
            if zone.seat_piles is not None:  # the acting seat's pile(s)
                return self.seat_zone(name, env["player"].code)
            if zone.single:
                return _Val("pile", repr(zone.piles[0]), zone.piles[0], True)
            return _Val("piles", f"Z_{name}", zone.piles, True)
        raise self.no(f"the name '{name}'")

    def choice_codes(self, template: Any) -> list[int]:
        """A `choose` move's values as the compiled code holds them: numbers, or strings' ids."""
        return [self.sid(v) if isinstance(v, str) else v for v in template.choices]

    def choice(self, template: Any) -> _Val:
        """The value a `choose` move names: its index is the move's b_target."""
        code = f"CH_{template.index}[b_target]"
        return _Val("str", code) if isinstance(template.choices[0], str) else _int(code)

    def team(self, seat: str) -> str:
        """Code for the team of the seat `seat` (code): the `teams.of` expression."""
        params, body = self.functions["team"]
        return self.checked(self.expr(body, {params[0]: _int(seat)}, "int"))

    def variable(self, name: str, seat: str) -> _Val:
        """A variable's value; for a per-player variable, seat `seat`'s (code; one of the game's seats, else
        compiled code stops)."""
        variable = self.rules.variables[name]
        slot = f"{variable.slot}" if not seat else f"{variable.slot} + seat_of(M, {seat})"
        if name in self.inferring:
            raise self.no(f"the variable '{name}' while its kind is being found")
        kind = self.var_kind(name)
        if kind == "bool":
            return _Val("bool", f"(V[{slot}] != 0)")
        return _Val(kind, f"V[{slot}]", maybe_none=True)

    def move_env(self, template: Any, applying: bool) -> dict[str, _Val]:
        env: dict[str, _Val] = {"player": _int("b_player"),
                                "move": _Val("str", repr(self.sid(template.name)), template.name, True)}
        if applying and "for_seat" in self.value_at(("moves", template.name)):
            env["target"] = _int("b_target")
        if applying and template.choices:
            env[template.choice_name] = self.choice(template)
        if template.sources:
            env["src"] = _Val("pile", "b_src")
            env["n"] = _int("b_n")
            env["card"] = _Val("card", "b_card")
            if applying:
                env["cards"] = _Val("cards", arr="MC", lo="0", hi="1" if template.take == "any" and template.picks == 1
                                    else "b_n")
            elif template.take == "any" and template.picks > 1:  # the set of cards being offered
                env["cards"] = _Val("cards", arr="PICKED", lo="0", hi=str(template.picks))
            elif template.take == "any":  # the card at j of the source pile
                env["cards"] = _Val("cards", arr="C[b_src]", lo="j", hi="j + 1")
            else:
                env["cards"] = _Val("cards", arr="C[b_src]", lo="N[b_src] - b_n", hi="N[b_src]")
        if template.targets:
            env["dst"] = _Val("pile", "b_dst")
        return env

    def assigned_kinds(self, name: str) -> list[str]:
        """The kinds of the values `set` effects give the variable `name` (those this backend
        can lower; a value that reads a variable still being inferred is left out)."""
        found: list[str] = []
        saved = self.path

        def walk(path: tuple[Any, ...], env: dict[str, _Val]) -> None:
            effects = self.value_at(path)
            for i, spec in enumerate(effects if isinstance(effects, list) else []):
                if not isinstance(spec, dict):
                    continue
                for key, sub in spec.items():
                    if key == "set" and isinstance(sub, dict) and name in sub:
                        try:
                            found.append(self.expr(self.parse(path + (i, "set", name)), env).type)
                        except Unsupported:
                            pass
                    elif key in ("then", "else", "do"):
                        walk(path + (i, key), env)

        for template in self.rules.moves:
            spec = self.value_at(("moves", template.name))
            if "do" in spec:
                env = self.move_env(template, True)
                env.update({"pick": _int("b_pick"), "target": _int("b_target")})
                walk(("moves", template.name, "do"), env)
        for i, spec in enumerate(self.data.get("triggers", [])):
            walk(("triggers", i, "do"), {"player": _int("b_player"), "move": _Val("str", "0")})
        if "on_end" in self.data:
            walk(("on_end",), {"player": _int("b_player")})
        self.path = saved
        return found

    def seat_zone(self, name: str, seat: str) -> _Val:
        zone = self.rules.zones[name]
        return _Val("pile" if zone.single else "piles", f"SEATS_{name}[seat_of(M, {seat})]")

    def var_kind(self, name: str) -> str:
        """A variable's kind (int, bool or pile): what it starts with, else what is set into it."""
        kind = self.kinds.get(name)
        if kind is None:
            kind = self.kinds[name] = self._var_kind(name)
        return kind

    def _var_kind(self, name: str) -> str:
        spec = self.data["variables"][name]
        initial = spec.get("initial", 0) if isinstance(spec, dict) else spec
        if isinstance(initial, bool):
            return "bool"
        if isinstance(initial, int):
            return "int"
        declared = self.front.scope.variables.get(name)
        if declared is not None and declared[1] in ("int", "bool"):
            return str(declared[1])
        starts = "none"
        if isinstance(initial, str):  # an expression: the kind of value it gives, under any option
            saved = self.path
            starts = self.expr(self.parse(("variables", name, "initial")), {"player": _Val("int", "0", 0, True)}).type
            self.path = saved
            if starts in ("int", "bool"):
                return starts
        if name not in self.inferring:  # a variable that starts as a string, a pile or none: the values set into it
            self.inferring.add(name)
            try:
                found = {kind for kind in self.assigned_kinds(name) if kind != "none"} | ({starts} - {"none"})
            finally:
                self.inferring.discard(name)
            if len(found) == 1 and found <= {"int", "pile", "bool", "str"}:  # a string: its id
                return found.pop()
        raise self.no(f"the variable '{name}' (neither a number nor a truth value)", ("variables", name))

    def option(self, name: str) -> _Val:
        option = self.rules.options[name]
        slot = self.option_slots[name]
        kinds = {type(v) for v in option.values}
        if kinds == {bool}:
            return _Val("bool", f"(O[{slot}] != 0)")
        if kinds == {int}:
            return _int(f"O[{slot}]")
        if kinds == {str}:
            for v in option.values:
                self.sid(v)
            return _Val("str", f"O[{slot}]")
        raise self.no(f"the option '{name}' mixes kinds of value")

    def _attr(self, node: Attr, env: dict[str, _Val]) -> _Val:
        if isinstance(node.obj, Name) and node.obj.name == "option" and "option" not in env:
            return self.option(node.name)
        obj = self.expr(node.obj, env)
        if obj.type in ("card", "none"):
            card = self.as_type(obj, "card").code
            if node.name == "face_up":
                return _Val("bool", f"(U[{card}] == 1)")
            kind = self.rules.deck.attributes.get(node.name)
            if kind == "list" and node.name in self.masks:
                return _Val("strs", f"A_{node.name}[{card}]")
            if kind == "list" and node.name in self.int_masks:
                return _Val("ints", f"A_{node.name}[{card}]", self.int_masks[node.name][1])
            if kind == "int":
                return _int(f"A_{node.name}[{card}]", maybe_none=True)
            if kind == "str":
                return _Val("str", f"A_{node.name}[{card}]")
            raise self.no(f"the card attribute '{node.name}'")
        if obj.type == "pile":
            pile = self.checked(obj)
            if node.name == "index":
                return _int(f"PILE_INDEX[{pile}]")
            if node.name == "owner":
                return _int(f"PILE_OWNER[{pile}]")
            if node.name == "zone":
                return _Val("str", f"PILE_ZONE[{pile}]")
        raise self.no(f"the attribute '{node.name}' of {obj.type}")

    def _call(self, node: Call, env: dict[str, _Val]) -> _Val:
        func, args = node.func, node.args
        if func in self.functions:
            params, body = self.functions[func]
            values = [self.expr(a, env) for a in args]
            # A function's body sees the bindings (src, card, ...) and its parameters, not the
            # caller's locals (comprehension names, parameters), as in the front end.
            inner = {k: v for k, v in env.items() if not k.startswith("\0") and "\0" + k not in env}
            inner.update(zip(params, values))
            for p, v in zip(params, values):
                inner["\0" + p] = v
            return self.expr(body, inner)
        if func == "legal_moves":  # the names of the legal moves now, listed into an array of their own
            self.lists_names = True
            return _Val("str_list", "legal_names(C, N, U, V, O, M)", container="list")
        if func == "of":
            target = args[0]
            seat = self.checked(self.expr(args[1], env, "int"))
            if isinstance(target, Name) and target.name in self.rules.variables and target.name not in env:
                return self.variable(target.name, seat)
            if isinstance(target, Name) and target.name in self.rules.zones and target.name not in env:
                return self.seat_zone(target.name, seat)
            raise self.no("of() of this")
        if func in ("size", "empty"):
            arg = self.expr(args[0], env)
            if arg.type == "pile":
                size = f"N[{self.checked(arg)}]"
            elif arg.type == "cards":
                size = f"({arg.hi} - {arg.lo})"
            elif arg.type == "piles":
                size = repr(len(arg.value)) if arg.value is not None else f"len({arg.code})"
            elif arg.type in LISTS:
                size = f"len({arg.code})"
            elif arg.type == "range":
                size = f"max(0, {arg.hi} - {arg.lo})"
            else:
                raise self.no(f"{func}() of {arg.type}")
            return _int(size) if func == "size" else _Val("bool", f"({size} == 0)")
        if func == "covered":
            arg = self.expr(args[0], env)
            if arg.type != "pile":
                raise self.no(f"covered() of {arg.type}")
            return _Val("bool", f"covered(N, COVER, {self.checked(arg)})")
        if func in ("top", "bottom"):
            arg = self.expr(args[0], env)
            if arg.type == "pile":
                pile = self.checked(arg)
                return _Val("card", f"{func}_of(C[{pile}], 0, N[{pile}])")
            if arg.type == "cards":
                return _Val("card", f"{func}_of({arg.arr}, {arg.lo}, {arg.hi})")
            raise self.no(f"{func}() of {arg.type}")
        if func in ("cards", "run"):
            arg = self.expr(args[0], env)
            if arg.type != "pile":
                raise self.no(f"{func}() of {arg.type}")
            pile = self.checked(arg)
            lo = "0" if func == "cards" else f"run_start(C[{pile}], N[{pile}], U)"
            return _Val("cards", arr=f"C[{pile}]", lo=lo, hi=f"N[{pile}]", container="list")
        if func == "range":
            bounds = [self.checked(self.expr(a, env, "int")) for a in args]
            lo, hi = ("0", bounds[0]) if len(bounds) == 1 else (bounds[0], bounds[1])
            return _Val("range", lo=lo, hi=f"range_end({lo}, {hi})")
        if func == "abs":
            arg = self.expr(args[0], env, "int")
            return _int(f"abs({self.checked(arg)})")
        if func in ("min", "max", "sum", "count") and len(args) == 1:  # of a list built by list(...)
            arg = self.expr(args[0], env)
            if func == "count" and arg.type in LISTS:
                return _int(f"len({arg.code})")
            if arg.type == "str_list" and func in ("min", "max"):  # by the strings' order, not their ids
                self.orders_strings = True
                return _Val("str", f"str_best({arg.code}, {func == 'max'})")
            if arg.type != "int_list":
                raise self.no(f"{func}() of {arg.type}")
            if func == "sum":
                return _int(f"list_sum({arg.code})")
            return _int(f"list_best({arg.code}, {func == 'max'})", maybe_none=True)
        if func in ("min", "max") and len(args) >= 2:
            parts = [self.checked(self.expr(a, env, "int")) for a in args]
            code = parts[0]
            for part in parts[1:]:
                code = f"{func}({code}, {part})"
            return _int(code)
        raise self.no(f"{func}() here")

    def _binary(self, node: Binary, env: dict[str, _Val]) -> _Val:
        op = node.op
        if op in ("and", "or"):
            left = self.expr(node.left, env, "bool")
            if left.const:
                if bool(left.value) == (op == "and"):
                    return self.expr(node.right, env, "bool")
                return left
            right = self.expr(node.right, env, "bool")
            return _Val("bool", f"({left.code} {op} {right.code})")
        if op in ("in", "notin"):
            return self._in(node, env)
        left, right = self.expr(node.left, env), self.expr(node.right, env)
        if op in ("+", "-", "*", "/", "%", "**"):
            if left.type != "int" or right.type != "int":
                raise self.no(f"'{op}' on {left.type} and {right.type}")
            if left.const and right.const and op in ("+", "-", "*"):
                value = {"+": left.value + right.value, "-": left.value - right.value,
                         "*": left.value * right.value}[op]
                if INT_MIN <= value <= INT_MAX:  # (else computed in play, where it stops)
                    return _Val("int", repr(value), value, True)
            function = {"+": "add", "-": "sub", "*": "mul", "/": "div", "%": "mod", "**": "power"}[op]
            return _int(f"{function}({self.checked(left)}, {self.checked(right)})")
        if op in ("==", "!="):
            types = {left.type, right.type}
            if "none" in types:
                other = left if right.type == "none" else right
                if other.type == "none":
                    return _Val("bool", repr(op == "=="), op == "==", True)
                left, right = self.as_type(left, other.type), self.as_type(right, other.type)
            elif len(types) != 1 and not types & {"cards", "piles", *LISTS}:
                return _Val("bool", repr(op == "!="), op == "!=", True)
            if {left.type, right.type} & {"cards", "piles", *LISTS}:
                same = self._same_list(left, right)
                return _Val("bool", same if op == "==" else f"(not {same})")
            return _Val("bool", f"({left.code} {op} {right.code})")
        if op in ("<", "<=", ">", ">="):
            if left.type != "int" or right.type != "int":
                raise self.no(f"ordering {left.type} and {right.type}")
            return _Val("bool", f"({self.checked(left)} {op} {self.checked(right)})")
        raise self.no(f"the operator '{op}'")

    def _same_list(self, left: _Val, right: _Val) -> str:
        """Code for `left == right`, two lists, as Python has it: a list written out (a tuple) and a
        list built (a list) are never equal; else their items, in order (strings are never equal to
        items of another kind)."""
        if left.type not in ITEMS or right.type not in ITEMS or not left.container or not right.container:
            raise self.no(f"comparing {left.type} and {right.type} (only lists written out, built by list(...), "
                          "legal_moves() or cards(), and their slices)")
        items = [f"{v.arr}[{v.lo}:{v.hi}]" if v.type == "cards" else v.code for v in (left, right)]
        # (both lists are computed, as Python computes them, whatever the answer: an error in either stops)
        if left.container != right.container:
            return f"(len({items[0]}) + len({items[1]}) < 0)"
        kinds = {ITEMS[left.type], ITEMS[right.type]}
        if EMPTY in items or len(kinds) == 2 and "str" in kinds:  # `[]` (of no kind), or strings and
            return f"(len({items[0]}) + len({items[1]}) == 0)"  # other items: equal only if both are empty
        if len(kinds) == 2:  # (numbers, cards, piles and truth values mixed: none is told apart differently)
            raise self.no(f"comparing {left.type} and {right.type}")
        self.compares_lists = True
        return f"same_items({items[0]}, {items[1]})"

    def _in(self, node: Binary, env: dict[str, _Val]) -> _Val:
        """`x in [a, b]` (equal to one of the items) and `s in card.suits` (a list attribute)."""
        left = self.expr(node.left, env)
        if isinstance(node.right, ListLit):
            items = [self.expr(item, env) for item in node.right.items]
            if not items:
                code = "False"
            else:
                if left.type == "none" or any(i.type not in (left.type, "none") for i in items) or \
                        left.type not in ("int", "str", "card", "pile", "bool"):
                    raise self.no("'in' on these kinds of value")
                if all(i.const for i in items[1:]):  # (the items after the first cannot fail)
                    code = "(" + " or ".join(f"{left.code} == {self.as_type(i, left.type).code}" for i in items) + ")"
                else:  # every item is computed, as in Python (one may fail after another equals `x`)
                    def number(v: _Val) -> str:
                        return f"(1 if {v.code} else 0)" if left.type == "bool" else self.as_type(v, left.type).code
                    array = f"np.array([{', '.join(number(i) for i in items)}], dtype=np.int64)"
                    code = f"among({number(left)}, {array})"
        else:
            right = self.expr(node.right, env)
            if right.type == "ints" and left.type in ("int", "none"):
                code = f"has_int({right.code}, {self.as_type(left, 'int').code}, {right.value})"
            elif right.type == "strs" and left.type in ("str", "none"):
                code = f"has({right.code}, {self.as_type(left, 'str').code})"
            elif right.type == "range" and left.type in ("int", "none"):
                x = self.as_type(left, "int").code
                code = f"({x} != NO_INT and {right.lo} <= {x} < {right.hi})"
            elif right.type in LISTS and (left.type == LISTS[right.type]
                                          or left.type == "none" and right.type != "bool_list"):
                code = f"contains({right.code}, {self.as_type(left, LISTS[right.type]).code})"
            else:
                raise self.no(f"'in' on {left.type} and {right.type}")
        return _Val("bool", code if node.op == "in" else f"(not {code})")

    def _comprehension(self, node: Comprehension, env: dict[str, _Val]) -> _Val:
        func = node.func
        if func not in ("all", "any", "count", "sum", "min", "max", "argmin", "argmax", "list"):
            raise self.no(f"{func}(... for ...)")
        # The helper takes every value of `env` as parameters (cards as three), and loops itself.
        params: list[str] = []
        args: list[str] = []
        inner: dict[str, _Val] = {}
        # Only these (others may not be bound where it is tested), and the seat, which a per-player
        # zone or variable reads without naming it.
        used = _names(node, self.functions) | {"player"}
        for i, (name, value) in enumerate(env.items()):
            if name.startswith("\0") or name not in used:
                continue
            if "\0" + name in env:
                inner["\0" + name] = value  # still a local inside the helper
            if value.const:
                inner[name] = value
            elif value.type == "cards":
                params += [f"a{i}", f"l{i}", f"h{i}"]
                args += [value.arr, value.lo, value.hi]
                inner[name] = _Val("cards", arr=f"a{i}", lo=f"l{i}", hi=f"h{i}")
            else:
                params.append(f"p{i}")
                args.append(value.code)
                inner[name] = _Val(value.type, f"p{i}", value.value, False, value.maybe_none)
        iterable = node.iterable
        lines: list[str] = []
        if isinstance(iterable, Call) and iterable.func == "pairs":
            items = self.expr(iterable.args[0], inner)
            if items.type != "cards" or len(node.names) != 2:
                raise self.no("pairs() of this value")
            lines.append(f"    for j in range({items.lo}, {items.hi} - 1):")
            bound = f"max({items.hi} - ({items.lo}), 0)"  # the most items the loop gives (list)
            a, b = self.fresh("x"), self.fresh("x")
            lines.append(f"        {a} = {items.arr}[j]; {b} = {items.arr}[j + 1]")
            inner["\0" + node.names[0]] = inner[node.names[0]] = _Val("card", a)
            inner["\0" + node.names[1]] = inner[node.names[1]] = _Val("card", b)
            item = None  # a pair: no one item to give (argmin, argmax)
        elif isinstance(iterable, ListLit) and iterable.items and len(node.names) == 1:
            # a list written out: its items, in order (of one kind: numbers, strings, piles or cards)
            values = [self.expr(item, inner) for item in iterable.items]
            kinds = {v.type for v in values}
            if len(kinds) != 1 or not kinds <= {"int", "str", "pile", "card"}:
                raise self.no("a list of values of several kinds")
            x = self.fresh("x")
            lines.append(f"    for {x} in ({''.join(v.code + ', ' for v in values)}):")
            bound = str(len(values))
            element = values[0]
            inner["\0" + node.names[0]] = inner[node.names[0]] = _Val(element.type, x,
                                                                      maybe_none=any(v.maybe_none for v in values))
            item = (x, element.type)
        else:
            items = self.expr(iterable, inner)
            x = self.fresh("x")
            if items.type == "piles" and len(node.names) == 1:
                lines.append(f"    for {x} in {items.code}:")
                element_type, bound = "pile", f"len({items.code})"
            elif items.type == "seats" and len(node.names) == 1:
                lines.append(f"    for {x} in range({items.code}):")
                element_type, bound = "int", items.code
            elif items.type in LISTS and len(node.names) == 1:
                lines.append(f"    for {x} in {items.code}:")
                element_type, bound = LISTS[items.type], f"len({items.code})"
            elif items.type == "range" and len(node.names) == 1:
                lines.append(f"    for {x} in range({items.lo}, {items.hi}):")
                element_type, bound = "int", f"max({items.hi} - ({items.lo}), 0)"
            elif items.type == "cards" and len(node.names) == 1:
                lines.append(f"    for j in range({items.lo}, {items.hi}):")
                lines.append(f"        {x} = {items.arr}[j]")
                element_type, bound = "card", f"max({items.hi} - ({items.lo}), 0)"
            elif items.type in ("strs", "ints") and len(node.names) == 1 and func in ("all", "any", "count", "sum"):
                # a list attribute's items, in the order of their ids (the list's order matters not
                # to all, any, count and sum; a list without repeats, as the masks require)
                mask, bit = self.fresh("m"), self.fresh("b")
                lines.append(f"    {mask} = mask_of({items.code})")
                lines.append(f"    for {bit} in range(63):")
                lines.append(f"        if not ({mask} >> {bit}) & 1: continue")
                lines.append(f"        {x} = {bit} + {items.value if items.type == 'ints' else 0}")
                element_type, bound = "str" if items.type == "strs" else "int", "63"
            else:
                raise self.no(f"a comprehension over {items.type}")
            # (a list's number may be none)
            inner["\0" + node.names[0]] = inner[node.names[0]] = _Val(element_type, x,
                                                                      maybe_none=items.type == "int_list")
            item = (x, element_type)
        element = self.expr(node.element, inner)
        condition = self.expr(node.condition, inner, "bool") if node.condition is not None else None
        body = "        "
        if condition is not None:
            lines.append(f"        if not {condition.code}: continue")
        if func == "all":
            self._want(element, "bool")
            lines.append(f"{body}if not {element.code}: return False")
            result, ret, type_ = "True", "True", "bool"
        elif func == "any":
            self._want(element, "bool")
            lines.append(f"{body}if {element.code}: return True")
            result, ret, type_ = "False", "False", "bool"
        elif func == "count":
            test = f"if {element.code}: " if element.type == "bool" else ""
            lines.append(f"{body}{test}acc += 1")
            result, ret, type_ = "0", "acc", "int"
        elif func == "sum":
            self._want(element, "int")
            lines.append(f"{body}acc = add(acc, {self.checked(element)})")
            result, ret, type_ = "0", "acc", "int"
        elif func in ("min", "max") and element.type == "str":  # by the strings' order (none beside others stops)
            self.orders_strings = True
            better = "<" if func == "min" else ">"
            lines.append(f"{body}v = {element.code}")
            lines.append(f"{body}if found and (v < 0 or acc < 0): raise Stop('ordering none')")
            lines.append(f"{body}if not found or STR_RANK[v] {better} STR_RANK[acc]: acc = v")
            lines.append(f"{body}found = True")
            result, ret, type_ = "NO_STR", "acc", "str"
        elif func in ("min", "max"):
            self._want(element, "int")
            better = "<" if func == "min" else ">"
            lines.append(f"{body}v = {self.checked(element)}")
            lines.append(f"{body}if not found or v {better} acc: acc = v")
            lines.append(f"{body}found = True")
            result, ret, type_ = "NO_INT", "acc", "int"
        elif func == "list":  # the items, in order, in an array of their own: cards, piles, numbers or strings
            of = {"card": "cards", "pile": "piles", "int": "int_list", "str": "str_list", "bool": "bool_list"}
            if element.type not in of:
                raise self.no(f"a list of {element.type} built by list(... for ...)")
            lines.append(f"{body}acc[count] = {element.code}; count += 1")
            result, ret, type_ = f"np.empty({bound}, dtype=np.int64); count = 0", "acc[:count]", of[element.type]
        else:  # argmin, argmax: the first item whose number is the lowest / highest
            self._want(element, "int")
            if item is None or item[1] not in ("int", "card", "pile", "str"):
                raise self.no(f"{func}() of this kind of item")
            better = "<" if func == "argmin" else ">"
            lines.append(f"{body}v = {self.checked(element)}")
            lines.append(f"{body}if not found or v {better} key: key = v; acc = {item[0]}")
            lines.append(f"{body}found = True")
            type_ = item[1]
            result, ret = {"card": "NOCARD", "str": "NO_STR"}.get(type_, "NO_INT"), "acc"
        name = self.fresh("comp")
        head = ["@njit(cache=True)", f"def {name}(C, N, U, V, O, M{''.join(', ' + p for p in params)}):",
                f"    acc = {result}; found = False" + ("; key = 0" if func in ("argmin", "argmax") else "")]
        self.helpers.append("\n".join(head + lines + [f"    return {ret}", ""]))
        call = f"{name}(C, N, U, V, O, M{''.join(', ' + a for a in args)})"
        if type_ == "cards":  # (a pure function: called again for the window's end)
            return _Val("cards", arr=call, lo="0", hi=f"len({call})", container="list")
        if func == "list":
            return _Val(type_, call, container="list")
        return _Val(type_, call,
                    maybe_none=func in ("min", "max") or type_ in ("int", "pile") and func in ("argmin", "argmax"))

    def _want(self, value: _Val, type_: str) -> None:
        if value.type != type_:
            raise self.no(f"{type_} expected in a comprehension, got {value.type}")

def _seat_radix(rules: Any) -> int:
    """How many values a move's seat field takes (the compiled `SE`): a seat, or the index of a
    `choose` move's value, or none."""
    return max([rules.max_players, *(len(t.choices) for t in rules.moves)]) + 1


def native_available() -> bool:
    """Is Numba installed (the native backend's compiler)?"""
    return importlib.util.find_spec("numba") is not None


_RUNTIME = '''
import numpy as np
from numba import njit

from cardrules.native_runtime import *  # noqa: F403 - the shared helpers, compiled once


@njit(cache=True)
def top_of(xs, lo, hi):
    return xs[hi - 1] if hi > lo else NOCARD


@njit(cache=True)
def bottom_of(xs, lo, hi):
    return xs[lo] if hi > lo else NOCARD


@njit(cache=True)
def contains(xs, x):
    """`x in xs`, a list built by list(...)."""
    for y in xs:
        if y == x:
            return True
    return False


@njit(cache=True)
def among(x, xs):
    """`x in [a, b, ...]`, a list written out: `x`, then every item, computed before they are compared
    (the arguments, in the order Python computes them); then as `contains`."""
    return contains(xs, x)


@njit(cache=True)
def winners_mask(seats, players):
    """The winning seats an end condition names, as a bit mask, each seat once (a seat the game has
    not stops: Python reports it)."""
    mask = 0
    for seat in seats:
        if seat < 0 or seat >= players:
            raise Stop("winners: a seat the game has not")
        mask |= 1 << seat
    return mask


@njit(cache=True)
def list_sum(xs):
    """`sum(xs)` of a list of numbers (none in it stops: Python says where)."""
    total = 0
    for x in xs:
        total = add(total, ck(x))
    return total


@njit(cache=True)
def list_best(xs, most):
    """`min(xs)` (`max(xs)` if most) of a list of numbers: none if empty; none beside other items
    stops (Python's min cannot order it)."""
    if len(xs) == 1:
        return xs[0]
    best = NO_INT
    for i in range(len(xs)):
        x = ck(xs[i])
        if i == 0 or (x > best if most else x < best):
            best = x
    return best


@njit(cache=True)
def enc(k, src, dst, n, pick, seat):
    return ((((k * NP1 + src + 1) * NP1 + dst + 1) * CAP1 + n) * PK + pick + 2) * SE + seat + 1


@njit(cache=True)
def sees(C, N, U, card, pile, seat):
    kind = VISIBILITY[pile]
    if kind == 0:
        return True
    if TRACKS and seat >= 0 and (U[KN + card] >> seat) & 1 == 1:
        return True  # shown to the seat, or seen by it before it went out of its sight
    if kind == 1:
        return False
    if kind == 2 and seat >= 0 and PILE_OWNER[pile] == seat:
        return True
    if kind == 3:
        return N[pile] > 0 and C[pile, N[pile] - 1] == card and U[card] == 1
    return U[card] == 1


@njit(cache=True)
def blind_card(C, N, U, pile, seat):
    for j in range(N[pile] - 1, -1, -1):
        if not sees(C, N, U, C[pile, j], pile, seat):
            return C[pile, j]
    raise Stop("no hidden card")


@njit(cache=True)
def position_key(C, N, U, key):
    for p in range(len(N)):
        for i in range(N[p]):
            card = C[p, i]
            key[card] = ((p * CAP1 + i) * 2 + U[card]) + 1
'''


# Who knows which card (a ruleset that `tracks_knowledge`: engine.State.known): U[KN + card] is the
# bit mask of the seats that know the card where they cannot see it. Moving cards keeps it as
# engine.State.move_cards does; `forget` is a draw of chance's (engine.State._rearrange).
_KNOWLEDGE = '''
from cardrules.native_runtime import move_cards as move_cards_unseen


@njit(cache=True)
def private_seers(C, N, U, card, pile):
    """The seats that see `card` on `pile`, -1 (every seat's bit) if all do (engine.State.private_seers)."""
    if sees(C, N, U, card, pile, -1):
        return -1
    mask = U[KN + card]
    owner = PILE_OWNER[pile]
    if owner >= 0 and (mask >> owner) & 1 == 0 and sees(C, N, U, card, pile, owner):
        mask |= 1 << owner
    return mask


@njit(cache=True)
def move_cards(C, N, U, src, dst, n, flip, face, bottom, TMP):
    """Move cards as native_runtime.move_cards does; who saw a card keeps knowing it out of sight."""
    if n <= 0:
        return
    n = min(n, N[src])
    moved = C[src, N[src] - n:N[src]].copy()
    masks = np.empty(n, dtype=np.int64)
    for i in range(n):
        masks[i] = private_seers(C, N, U, moved[i], src)
    move_cards_unseen(C, N, U, src, dst, n, flip, face, bottom, TMP)
    for i in range(n):
        if masks[i] != 0:
            U[KN + moved[i]] = 0 if sees(C, N, U, moved[i], dst, -1) else masks[i]


@njit(cache=True)
def turn_card(C, N, U, card, face):
    """Turn a card where it lies; who saw it keeps knowing it out of sight (engine.State.turn)."""
    pile = 0
    for p in range(len(N)):
        for i in range(N[p]):
            if C[p, i] == card:
                pile = p
    mask = private_seers(C, N, U, card, pile)
    U[card] = face
    if mask != 0:
        U[KN + card] = 0 if sees(C, N, U, card, pile, -1) else mask


@njit(cache=True)
def forget(C, N, U, pile, n):
    """Nobody knows any more where the top n cards of `pile` lie (they are shuffled or buried)."""
    for i in range(max(N[pile] - n, 0), N[pile]):
        U[KN + C[pile, i]] = 0
'''


_ON_PILE = '''
@njit(cache=True)
def on_pile(C, N, pile, card):
    """Does `pile` hold `card`?"""
    for i in range(N[pile]):
        if C[pile, i] == card:
            return True
    return False
'''


_PICK_SETS = '''
@njit(cache=True)
def n_choose(n, k):
    """How many sets of k of n items (at most limits.MAX_PICK_SETS: the deck's sets of k cards)."""
    r = 1
    for i in range(k):
        r = r * (n - i) // (i + 1)
    return r


@njit(cache=True)
def next_set(PLACES, k, n, first):
    """The places of the next set of k of n items, in itertools.combinations' order."""
    if first:
        for t in range(k):
            PLACES[t] = t
        return
    i = k - 1
    while PLACES[i] == i + n - k:
        i -= 1
    PLACES[i] += 1
    for t in range(i + 1, k):
        PLACES[t] = PLACES[t - 1] + 1


@njit(cache=True)
def set_seen(SEEN, seen, PICKED, k):
    """Was a set of cards of the same codes offered before (SEEN[:seen], codes sorted)? If not, keep it."""
    key = np.empty(k, dtype=np.int64)
    for t in range(k):
        key[t] = CODE[PICKED[t]]
    key = np.sort(key)
    for i in range(seen):
        same = True
        for t in range(k):
            if SEEN[i, t] != key[t]:
                same = False
                break
        if same:
            return True
    SEEN[seen, :] = key
    return False
'''


# `end.repeat` (engine.Game._position_key): every position a game reaches is counted, in a store
# kept in KEY after the cycle's scratch key (KEY[:NC]), so that the compiled functions' arguments
# stay as they are; a KEY of NC words keeps no store and counts nothing (a greedy bot's trial copy,
# which forgets the positions seen as Game.determinize does: one position counted once there can
# end nothing, since `count` is at least 2). The store: KEY[NC] the keys kept, KEY[NC + 1] how many
# it has room for, KEY[NC + 2] the size of its table; then each card's code (scratch), the key of
# the position now, the open-addressing table (0: empty, else the key's row + 1), the keys a row
# each, and their counts. Keys are exact (the cards packed RBITS bits each, then every variable and
# the turn's fields as Python's key has them), and a hash match is always checked word by word.
# NativeGame.repeat_room makes room; past MAX_REPEAT_POSITIONS keys compiled code stops.
_REPEAT = '''
@njit(cache=True)
def repeat_key(C, N, U, V, M, CODES, KW):
    """The position's key (engine.Game._position_key) in KW: each card's place and face, the
    variables, the seat to act and its phase, the seats acting for others, the next seat and the
    direction, and the seats asked to act out of turn (engine.State.asking: the turn to go back
    to, the move they are asked after and the seats still to ask, in order)."""
    for c in range(NC):
        CODES[c] = U[c]  # a card in no pile: its face alone
    for p in range(NP):
        for i in range(N[p]):
            c = C[p, i]
            CODES[c] = U[c] + 2 * (1 + p * CAP1 + i)
    KW[:] = 0
    for c in range(NC):
        KW[c // RPER] |= CODES[c] << (RBITS * (c % RPER))
    w = RCARDS
    for s in range(NV):
        KW[w + s] = V[s]
    w += NV
    frames = M[24]
    KW[w], KW[w + 1], KW[w + 2] = M[10], M[11], frames
    for j in range(2 * min(frames, 4)):  # (where every seat plays at once, frames are only added: their number tells)
        KW[w + 3 + j] = M[16 + j]
    KW[w + 11], KW[w + 12] = M[26], M[27]
    w += 13
    if M[28] == 1:
        n = M[12]
        KW[w], KW[w + 1], KW[w + 2], KW[w + 3], KW[w + 4], KW[w + 5] = 1, M[29], M[30], M[31], M[35], n - M[34]
        for j in range(M[34], n):
            KW[w + 6 + j - M[34]] = (M[32] + M[33] * (j + 1)) % n


@njit(cache=True)
def repeat_add(KEY, times):
    """Count `times` more occurrences of the key now (KW, in the store): how often it has occurred."""
    used, room, size = KEY[NC], KEY[NC + 1], KEY[NC + 2]
    kw = NC + 3 + NC
    table = kw + RW
    keys = table + size
    counts = keys + room * RW
    KW = KEY[kw:table]
    mask = size - 1
    i = key_hash(KW) & mask
    while KEY[table + i] != 0:
        row = KEY[table + i] - 1
        if same(KEY[keys + row * RW:keys + (row + 1) * RW], KW):
            KEY[counts + row] += times
            return KEY[counts + row]
        i = (i + 1) & mask
    if used == room:
        raise Stop("more positions than end.repeat keeps")
    KEY[keys + used * RW:keys + (used + 1) * RW] = KW
    KEY[counts + used] = times
    KEY[table + i] = used + 1
    KEY[NC] = used + 1
    return times


@njit(cache=True)
def repeat_seen(C, N, U, V, M, KEY, times):
    """`end.repeat`: count the position now `times` more times; how often it has occurred (0 where
    KEY keeps no store)."""
    if len(KEY) == NC:
        return 0
    kw = NC + 3 + NC
    repeat_key(C, N, U, V, M, KEY[NC + 3:kw], KEY[kw:kw + RW])
    return repeat_add(KEY, times)


@njit(cache=True)
def repeat_copy(OLD, NEW):
    """Count every key of the store OLD in the (larger, empty) store NEW."""
    size = OLD[NC + 2]
    keys = NC + 3 + NC + RW + size
    counts = keys + OLD[NC + 1] * RW
    kw = NC + 3 + NC
    for row in range(OLD[NC]):
        NEW[kw:kw + RW] = OLD[keys + row * RW:keys + (row + 1) * RW]
        repeat_add(NEW, OLD[counts + row])
'''


def _repeat_source(rules: Any) -> str:
    """`_REPEAT` with the sizes of this ruleset's position keys."""
    ncards, npiles = len(rules.deck), rules.pile_count
    bits = (2 * (1 + npiles * (ncards + 1)) + 1).bit_length()  # a card's code: 2 x (1 + its place) + its face
    per_word = 63 // bits
    card_words = (ncards + per_word - 1) // per_word
    words = card_words + rules.var_count + 13 + 6 + rules.max_players
    return "\n".join([f"RBITS = {bits}", f"RPER = {per_word}", f"RCARDS = {card_words}",
                      f"NV = {rules.var_count}", f"RW = {words}", _REPEAT])


def repeat_store(native: Any, room: int) -> Any:
    """An empty store of positions seen (`_REPEAT`) with room for `room` keys, after the scratch key."""
    np = native.np
    ncards = len(native.rules.deck)
    words = int(native.module.RW)
    size = 16
    while size < 2 * room:
        size *= 2
    store = np.zeros(ncards + 3 + ncards + words + size + room * (words + 1), dtype=np.int64)
    store[ncards + 1], store[ncards + 2] = room, size
    return store


def _array(values: Any) -> str:
    return f"np.array({list(values)!r}, dtype=np.int64)"


class _ModuleBuilder(_Emitter):
    """The whole module: tables, the listing, each move's effects, triggers, the end, playouts."""

    def build(self) -> tuple[str, dict[str, Any]]:
        rules = self.rules
        # (`on_start` runs in Python with the setup, before the native game starts)
        self.deck = rules.deck
        ncards, npiles = len(rules.deck), rules.pile_count
        lines = [_RUNTIME, f"NC = {ncards}", f"NOCARD = {ncards}", f"NP = {npiles}", f"NP1 = {npiles + 1}",
                 f"CAP1 = {ncards + 1}", f"PK = {ncards + 2}", f"SE = {_seat_radix(rules)}"]
        # The solver's position keys: each card's pile, place and face in KEYBITS bits.
        keybits = (npiles * (ncards + 1) * 2 + 1).bit_length()
        lines += [f"KEYBITS = {keybits}", f"CARDWORDS = {(ncards * keybits + 63) // 64}"]
        # Who knows which card, after the faces in U (only where the ruleset keeps it).
        lines += [f"KN = {ncards + 1}", f"TRACKS = {rules.tracks_knowledge}"]
        if rules.tracks_knowledge:
            lines.append(_KNOWLEDGE)
        if rules.repeat is not None:  # end.repeat: the positions seen, kept in KEY after the cycle's scratch key
            lines.append(_repeat_source(rules))
        body = [self._listing(), self._moves_applied(), self._safe(), self._triggers(), self._after_change(),
                self._score(), _DRIVER, SEARCH_SOURCE, BOTS_SOURCE]
        if self.lists_names:  # `legal_moves()` in expressions
            body.append(f"LEGAL_NAMES = {_array([self.sid(t.name) for t in rules.moves])}\nMAX_LEGAL = {MAX_LEGAL}\n"
                        f"{_LEGAL_NAMES}")
        if rules.simultaneous:  # every seat plays at once: each seat's moves, and the clock of simulate
            body.append(SIMULTANEOUS_SOURCE)
        tables = []
        for name, kind in sorted(self.deck.attributes.items()):
            # (a card that lacks the attribute has none: NO_INT, NO_STR)
            if kind == "int":
                values = [card.get(name) for card in self.deck.cards]
                if all(v is None or isinstance(v, int) and not isinstance(v, bool) for v in values):
                    tables.append(f"A_{name} = {_array([NO_INT if v is None else v for v in values] + [NO_INT])}")
            elif kind == "str":
                values = [card.get(name) for card in self.deck.cards]
                if all(v is None or isinstance(v, str) for v in values):
                    tables.append(f"A_{name} = {_array([NO_STR if v is None else self.sid(v) for v in values] + [NO_STR])}")
        for name, masks in sorted(self.masks.items()):
            tables.append(f"A_{name} = {_array(masks + [-1])}")
        for name, (masks, _) in sorted(self.int_masks.items()):
            tables.append(f"A_{name} = {_array(masks + [-1])}")
        tables.append(f"PILE_INDEX = {_array(rules.pile_index)}")
        kinds = {"all": 0, "none": 1, "owner": 2, "top": 3}
        tables.append(f"VISIBILITY = {_array([kinds.get(rules.zones[z].visibility, 4) for z in rules.pile_zone])}")
        codes: dict[str, int] = {}
        tables.append(f"CODE = {_array([codes.setdefault(c, len(codes)) for c in self.deck.codes])}")
        tables.append(f"NCODES = {len(codes)}")
        phases = rules.phases
        tables.append(f"NPHASES = {len(phases)}")
        tables.append(f"OPTIONAL = {_array([int(i in rules.optional_phases) for i in range(len(phases))] + [0])}")
        tables.append(f"INTERRUPT = {_array([int(i in rules.interrupt_phases) for i in range(len(phases))] + [0])}")
        tables.append(f"ROTATION = {rules.rotation}")
        tables.append(f"SIMULTANEOUS = {rules.simultaneous}")
        tables.append(f"FIRST_PHASE = {rules.first_phase}")
        # Moves out of turn (`out_of_turn`): which moves are, which is the engine's `pass`, after
        # which moves (index + 1; 0: the deal) the seats are asked, and whether every seat is.
        tables.append(f"OUT_OF_TURN = {_array([int(t.out_of_turn) for t in rules.moves] + [0])}")
        tables.append(f"DECLINES = {_array([int(t.declines) for t in rules.moves] + [0])}")
        tables.append(f"OPENS = {_array([int(k in rules.opens_asking) for k in range(-1, len(rules.moves))])}")
        tables.append(f"ASKS_EVERYONE = {int(rules.asks_everyone)}")
        tables.append(f"ASKS_OUT_OF_TURN = {rules.out_of_turn}")  # (else the code for it is left out when compiled)
        # A selection is one digit per pile of its move's `select` (the count taken, 0: none), then
        # for `take: {any: K}` one per card after the first, so an action number needs CAP1 ** (the
        # most such digits of a move) more values.
        widest = self.selection_digits()
        radix = len(rules.moves) * (npiles + 1) ** 2 * (ncards + 1) * (ncards + 2) * (rules.max_players + 1) * \
            (ncards + 1) ** widest
        if radix >= 2 ** 62:
            raise self.no("too many moves to number in 64 bits (piles, cards and selections)", ("moves",))
        tables.append(f"SELR = {(ncards + 1) ** widest}")
        tables.append(f"SELPOW = {_array([(ncards + 1) ** i for i in range(max(widest, 1))])}")
        tables.append(f"PICK_AT = {_array([(ncards + 1) ** len(t.select_piles) for t in rules.moves] or [1])}")
        tables.append(f"MAX_FOUND = {MAX_FOUND}")
        tables.append(f"PILE_OWNER = {_array(rules.pile_owner)}")
        tables.append(f"EMPTY_FIRST = {_array(rules.empty_first)}")
        widest = max((len(c) for c in rules.cover), default=0)  # each pile's covering piles, -1 after the last
        tables.append(f"COVER = np.array({[list(c) + [-1] * (widest - len(c)) for c in rules.cover] if widest else [[-1]]!r}, "
                      f"dtype=np.int64)")
        tables.append(f"PILE_ZONE = {_array([self.sid(z) for z in rules.pile_zone])}")
        for name, zone in rules.zones.items():
            tables.append(f"Z_{name} = {_array(zone.piles)}")
            if zone.seat_piles is not None:
                rows = [group[0] if zone.single else list(group) for group in zone.seat_piles]
                tables.append(f"SEATS_{name} = np.array({rows!r}, dtype=np.int64)")
        tables.append(f"PHASE_NAMES = {_array([self.sid(p) for p in rules.phases] or [NO_STR])}")
        for name in rules.variables:  # a variable no rule reads still holds its start (a string: its id)
            if name not in self.kinds:
                try:
                    self.var_kind(name)
                except Unsupported:
                    pass  # (nothing compiled reads or sets it)
        if self.compares_lists:
            body.append(_SAME_ITEMS)
        if self.orders_strings:  # every string the module numbers, ranked as Python orders strings
            ranks = {text: rank for rank, text in enumerate(sorted(self.strings))}
            body.append(f"STR_RANK = {_array([ranks[text] for text in self.strings])}\n{_STR_BEST}")
        source = "\n".join(lines + tables + self.helpers + body) + "\n"
        # The slots of variables holding strings (their ids; none is NO_STR), seat by seat.
        string_slots = [variable.slot + seat for name, variable in rules.variables.items()
                        if self.kinds.get(name) == "str" for seat in range(rules.max_players if variable.per_player else 1)]
        return source, {"strings": dict(self.strings), "results": self.results, "reasons": self.reasons,
                        "select_piles": dict(self.select_piles), "string_slots": string_slots,
                        "selection_digits": self.selection_digits()}

    def pick_digits(self) -> int:
        """The digits of the selection field a `take: {any: K}` move uses for its cards after the
        first (a card id each, bottom first as `Move.pick`): K - 1 for the largest K."""
        return max([t.picks - 1 for t in self.rules.moves if t.take == "any"], default=0)

    def selection_digits(self) -> int:
        """The digits of the selection field of the move that uses most: one per pile its `select`
        may choose (`PICK_AT`: the count taken), then its `take: {any: K}` cards after the first."""
        return max([len(t.select_piles) + (t.picks - 1 if t.take == "any" else 0) for t in self.rules.moves],
                   default=0)

    # -- the listing of legal moves ---------------------------------------------------------

    def _listing(self) -> str:
        from .movegen import conjuncts

        out = ["@njit(cache=True)", "def legal(C, N, U, V, O, M, out):", "    cnt = 0", "    b_player = M[10]"]
        if any(t.take == "any" for t in self.rules.moves):  # each different card once per source
            out.append("    CODES_SEEN = np.zeros(NCODES, dtype=np.int64); stamp = 0")
        if self.pick_digits():  # `take: {any: K}`: the cards offered, a set's places among them, its cards
            out.append(f"    OFFERED = np.empty(NC, dtype=np.int64); PLACES = np.empty({self.pick_digits() + 1}, "
                       f"dtype=np.int64); PICKED = np.empty({self.pick_digits() + 1}, dtype=np.int64)")
        if any("select" in self.value_at(("moves", t.name)) for t in self.rules.moves):
            out.append("    SP = np.empty((MAX_FOUND, NP), dtype=np.int64); SC = np.empty((MAX_FOUND, NP), "
                       "dtype=np.int64); SL = np.empty(MAX_FOUND, dtype=np.int64)")
            out.append(f"    USED = np.zeros({len(self.rules.moves)}, dtype=np.int64)")
            out.append("    CHOSEN = np.empty(NC, dtype=np.int64)  # a selection's cards, pile by pile, bottom first")
        for template in self.rules.moves:
            out += self._template_listing(template, conjuncts)
        out.append("    return cnt")
        return "\n".join(out) + "\n"

    def _template_listing(self, template: Any, conjuncts: Callable[[Node], list[Node]]) -> list[str]:
        """The loops that list one move template's legal moves, nested as `movegen` nests them."""
        path = ("moves", template.name)
        spec = self.value_at(path)
        k = template.index
        sources = f"S_{k}[b_player]" if template.seat_sources else f"S_{k}"
        targets = f"D_{k}[b_player]" if template.seat_targets else f"D_{k}"
        self.helpers.append(f"S_{k} = np.array({[list(r) for r in template.seat_sources] if template.seat_sources else list(template.sources)!r}, dtype=np.int64)\n"
                            f"D_{k} = np.array({[list(r) for r in template.seat_targets] if template.seat_targets else list(template.targets)!r}, dtype=np.int64)")
        env = self.move_env(template, False)
        # the destination index its `when` implies, as the Python backend uses it (movegen.py)
        run, match, any_card = template.take == "run", template.index_key, template.take == "any"
        if match is not None:
            card_level, dst_level = (2 if run else 1), 3
        else:
            card_level, dst_level = (3 if run else 1), 2
        innermost = max(card_level if template.sources else 0, dst_level if template.targets else 0)
        for_seat = "for_seat" in spec
        # `choose`: one move per value, its index where a for_seat move has its seat (as movegen does)
        chooses = bool(template.choices)
        if chooses:
            self.helpers.append(f"CH_{k} = {_array(self.choice_codes(template))}")
            env[template.choice_name] = self.choice(template)
        select = spec.get("select")
        if select is not None:
            innermost += 1  # conditions on the chosen cards sit in the loop over selections
        select_level = innermost
        if select is not None:  # a selection's cards (filled in the loop over selections) and piles
            env["chosen"] = _Val("cards", arr="CHOSEN", lo="0", hi="n_chosen")
            env["chosen_piles"] = _Val("piles", "SP[si, :SL[si]]")
        seat_level = innermost + 1 if for_seat or chooses else innermost
        conditions: list[tuple[int, str]] = []
        if "phase" in spec:  # offered only in that phase (or those phases) of the turn
            wanted = [spec["phase"]] if isinstance(spec["phase"], str) else spec["phase"]
            indexes = sorted({self.rules.phases.index(name) for name in wanted})
            conditions.append((0, "(" + " or ".join(f"M[11] == {i}" for i in indexes) + ")"))
        if self.rules.out_of_turn and not template.out_of_turn:  # as movegen: asked, only these and `pass`
            conditions.append((0, "(M[28] == 1)" if template.declines else "(M[28] == 0)"))
        elif template.out_of_turn and template.asked_after != self.rules.opens_asking:
            after = " or ".join(f"M[35] == {i}" for i in sorted(template.asked_after))
            conditions.append((0, f"(M[28] == 0 or {after})"))
        if for_seat:
            env["target"] = _int("b_target")
            for conjunct in conjuncts(self.parse(path + ("for_seat",))):
                conditions.append((seat_level, self.expr(conjunct, env, "bool").code))
        before = 0
        reads_card = reads_chosen = False
        if "when" in spec:
            parts = conjuncts(self.parse(path + ("when",)))
            if len(template.when_total) != len(parts):
                raise self.no("a move whose conditions the front end did not place", path + ("when",))
            for conjunct, total in zip(parts, template.when_total):
                code = self.expr(conjunct, env, "bool").code
                level = 0
                names = _names(conjunct, self.functions)
                reads_card = reads_card or bool(names & {"card", "cards"})
                reads_chosen = reads_chosen or "chosen" in names
                if names & {"src"}:
                    level = max(level, 1)
                if names & {"card", "cards", "n"}:
                    level = max(level, card_level)
                if names & {"dst"}:
                    level = max(level, dst_level)
                if names & {"target", template.choice_name}:
                    level = max(level, seat_level)
                if names & {"chosen", "chosen_piles"}:
                    level = max(level, select_level)
                # As the front end places them (movegen.template): a conjunct that can fail no
                # earlier than the ones before it; one that cannot in the outermost loop its names
                # allow, even ahead of parts written before it (false there, those are not reached).
                if not total:
                    level = max(level, before)
                before = max(before, level)
                conditions.append((level, code))
        lines: list[str] = []
        indent = "    "

        def emit(level: int) -> None:
            for lvl, code in conditions:
                if lvl == level:
                    lines.append(f"{indent}if not {code}: continue")

        lines.append(f"    for _once in range(1):  # move {template.name}")
        indent = "        "
        emit(0)
        if match is not None:
            dst_key = self.expr(match.dst, env)
            card_key = self.expr(match.card, env)
            lines.append(f"{indent}DK = np.empty(len({targets}), dtype=np.int64)")
            lines.append(f"{indent}for i in range(len({targets})):")
            lines.append(f"{indent}    b_dst = {targets}[i]")
            lines.append(f"{indent}    DK[i] = {self.as_type(dst_key, 'int').code}")
        if template.sources:
            lines.append(f"{indent}for b_src in {sources}:")
            indent += "    "
            lines.append(f"{indent}if N[b_src] == 0: continue")
            if any(self.rules.cover[p] for p in template.sources):  # `covered_by`: not from a covered pile
                lines.append(f"{indent}if covered(N, COVER, b_src): continue")
            if any_card and template.picks > 1:
                lines += self.pick_sets(template, indent)
                indent += "    "
            elif any_card:  # any one card, each different card (code) once; hidden ones blind, once
                zones = {self.rules.zones[self.rules.pile_zone[p]] for p in template.sources}
                blind = any(zone.visibility != "all" for zone in zones)
                lines.append(f"{indent}stamp += 1; offered_blind = False")
                lines.append(f"{indent}for j in range(N[b_src] - 1, -1, -1):")
                indent += "    "
                lines.append(f"{indent}b_card = C[b_src, j]")
                if blind:
                    lines.append(f"{indent}if not sees(C, N, U, b_card, b_src, b_player):")
                    lines.append(f"{indent}    if {reads_card} or offered_blind: continue")
                    lines.append(f"{indent}    offered_blind = True; b_pick = -1")
                    lines.append(f"{indent}else:")
                    lines.append(f"{indent}    if CODES_SEEN[CODE[b_card]] == stamp: continue")
                    lines.append(f"{indent}    CODES_SEEN[CODE[b_card]] = stamp; b_pick = b_card")
                else:
                    lines.append(f"{indent}if CODES_SEEN[CODE[b_card]] == stamp: continue")
                    lines.append(f"{indent}CODES_SEEN[CODE[b_card]] = stamp; b_pick = b_card")
                lines.append(f"{indent}b_n = 1")
            elif template.take == "top":
                lines.append(f"{indent}b_n = 1; b_card = C[b_src, N[b_src] - 1]")
            elif template.take == "all":
                lines.append(f"{indent}b_n = N[b_src]; b_card = C[b_src, 0]")
            elif template.take == "count":
                take = spec["take"]
                count = repr(take) if isinstance(take, int) else \
                    self.checked(self.expr(self.parse(path + ("take",)), env, "int"))
                lines.append(f"{indent}b_n = {count}")
                lines.append(f"{indent}if b_n < 1 or b_n > N[b_src]: continue")
                lines.append(f"{indent}b_card = C[b_src, N[b_src] - b_n]")
            else:
                lines.append(f"{indent}longest = N[b_src] - run_start(C[b_src], N[b_src], U)")
                lines.append(f"{indent}if longest == 0: continue")
            emit(1)
        else:
            lines.append(f"{indent}b_src = -1; b_n = 0")

        def run_loop() -> None:
            nonlocal indent
            lines.append(f"{indent}for b_n in range(1, longest + 1):")
            indent += "    "
            lines.append(f"{indent}b_card = C[b_src, N[b_src] - b_n]")
            emit(card_level)

        if run and match is not None:
            run_loop()
        if template.targets:
            if match is not None:
                lines.append(f"{indent}key = {self.as_type(card_key, 'int').code}")
                lines.append(f"{indent}for i in range(len({targets})):")
                indent += "    "
                lines.append(f"{indent}if DK[i] != key: continue")
                lines.append(f"{indent}b_dst = {targets}[i]")
            else:
                lines.append(f"{indent}for b_dst in {targets}:")
                indent += "    "
            if template.sources:
                lines.append(f"{indent}if b_dst == b_src: continue")
            if any(self.rules.cover[p] for p in template.targets):  # `covered_by`: not onto a covered pile
                lines.append(f"{indent}if covered(N, COVER, b_dst): continue")
            if any(self.rules.empty_first[p] >= 0 for p in template.targets):  # `empty_piles: first`
                lines.append(f"{indent}if N[b_dst] == 0 and EMPTY_FIRST[b_dst] >= 0 and "
                             f"not all_filled(N, EMPTY_FIRST[b_dst], b_dst): continue")
            emit(dst_level)
        else:
            lines.append(f"{indent}b_dst = -1")
        if run and match is None:
            run_loop()
        pick = "b_pick" if any_card else "-2"
        others = "b_others" if any_card and template.picks > 1 else "0"
        selection = others
        if select is not None:
            chooser = self.selector(template, path + ("select",), select, env)
            lines.append(f"{indent}found = {chooser}(C, N, U, V, O, M, b_src, b_dst, b_card, b_n, b_player, "
                         f"SP, SC, SL, USED, {k})")
            lines.append(f"{indent}for si in range(found):")
            indent += "    "
            if reads_chosen:
                lines += [f"{indent}n_chosen = 0",
                          f"{indent}for sj in range(SL[si]):",
                          f"{indent}    for t in range(N[SP[si, sj]] - SC[si, sj], N[SP[si, sj]]):",
                          f"{indent}        CHOSEN[n_chosen] = C[SP[si, sj], t]; n_chosen += 1"]
            emit(select_level)
            lines.append(f"{indent}b_sel = 0")
            lines.append(f"{indent}for sj in range(SL[si]):")
            lines.append(f"{indent}    b_sel += SC[si, sj] * SELPOW[SELPOS_{k}[SP[si, sj]]]")
            selection = f"b_sel + {others}"
        if for_seat or chooses:
            lines.append(f"{indent}for b_target in range({len(template.choices) if chooses else 'M[12]'}):")
            indent += "    "
            emit(seat_level)
        lines.append(f"{indent}if cnt == len(out): return -1")
        lines.append(f"{indent}out[cnt] = enc({k}, b_src, b_dst, b_n, {pick}, "
                     f"{'b_target' if for_seat or chooses else '-1'}) "
                     f"* SELR + {selection}; cnt += 1")
        return lines

    def pick_sets(self, template: Any, indent: str) -> list[str]:
        """`take: {any: K}` (movegen.pick_sets): every set of K of the cards of `b_src` the seat sees, as
        itertools.combinations orders them (places in the pile, bottom first), sets of the same
        codes once; the loop over sets, its body one level deeper. Binds b_n, b_card, b_pick (the
        first card) and b_others (the other cards, the selection field's digits)."""
        k = template.picks
        after = len(template.select_piles)  # (the digits of a `select` come first)
        if _PICK_SETS not in self.helpers:
            self.helpers.append(_PICK_SETS)
        zones = {self.rules.zones[self.rules.pile_zone[p]] for p in template.sources}
        seen = "if not sees(C, N, U, C[b_src, j], b_src, b_player): continue" if \
            any(zone.visibility != "all" for zone in zones) else ""
        repeats = len(set(self.rules.deck.codes)) < len(self.rules.deck)  # equal cards: each set of codes once
        body = indent + "    "
        lines = [f"{indent}offered = 0",
                 f"{indent}for j in range(N[b_src]):",
                 *([f"{indent}    {seen}"] if seen else []),
                 f"{indent}    OFFERED[offered] = C[b_src, j]; offered += 1",
                 f"{indent}if offered < {k}: continue",
                 f"{indent}sets = n_choose(offered, {k})"]
        if repeats:
            lines.append(f"{indent}SETS_SEEN = np.empty((sets, {k}), dtype=np.int64); sets_seen = 0")
        lines += [f"{indent}for set_index in range(sets):",
                  f"{body}next_set(PLACES, {k}, offered, set_index == 0)",
                  f"{body}for t in range({k}): PICKED[t] = OFFERED[PLACES[t]]"]
        if repeats:
            lines += [f"{body}if set_seen(SETS_SEEN, sets_seen, PICKED, {k}): continue", f"{body}sets_seen += 1"]
        return lines + [f"{body}b_n = {k}; b_card = PICKED[0]; b_pick = PICKED[0]; b_others = 0",
                        f"{body}for t in range(1, {k}): b_others += PICKED[t] * SELPOW[t - 1 + {after}]"]

    def selector(self, template: Any, path: tuple[Any, ...], spec: dict[str, Any], env: dict[str, _Val]) -> str:
        """The search of `select` (movegen.make_selector), as a compiled function: piles tried in
        order, each skipped or giving one of its counts, cut where a sum of values that cannot
        be negative passes the goal; more than `limit` steps in one listing stops (Python replays)."""
        rules, k = self.rules, template.index
        zones = [rules.zones[z] for z in (spec["from"] if isinstance(spec["from"], list) else [spec["from"]])]
        piles, take = list(template.select_piles), template.select_take
        tried = f"SELP_{k}"  # the piles tried, in order: with a per-player zone, the seat's own (and the shared)
        if any(zone.seat_piles is not None for zone in zones):
            rows = [[p for zone in zones for p in (zone.piles if zone.seat_piles is None else zone.seat_piles[seat])]
                    for seat in range(rules.max_players)]
            self.helpers.append(f"SELSEAT_{k} = np.array({rows!r}, dtype=np.int64)")
            tried = f"SELSEAT_{k}[b_player]"
        inner = dict(env)
        inner["p"] = _Val("pile", "p")
        # (as make_selector binds them: the source's top n cards, whatever the move takes)
        inner["cards"] = _Val("cards", arr="C[b_src]", lo="N[b_src] - b_n", hi="N[b_src]")
        test = self.expr(self.parse(path + ("when",)), inner, "bool").code if "when" in spec else "True"
        goal = self.checked(self.expr(self.parse(path + ("equals",)), inner, "int")) if "equals" in spec else None
        attribute = spec.get("sum")
        values = f"A_{attribute}" if attribute else None
        fewest, most, limit = spec.get("min", 1), spec.get("max", len(piles)), spec.get("limit", 10_000)
        self.select_piles[k] = piles
        self.helpers.append(f"SELP_{k} = {_array(piles)}\n"
                            f"SELPOS_{k} = {_array([piles.index(p) if p in piles else 0 for p in range(rules.pile_count)])}")
        count = {"top": "1", "all": "N[p]"}.get(take, "N[p] - run_start(C[p], N[p], U)")
        name = f"select_{k}"
        value = f"ck({values}[C[p, N[p] - 1 - t]])" if values else "0"
        self.helpers.append(f'''@njit(cache=True)
def {name}(C, N, U, V, O, M, b_src, b_dst, b_card, b_n, b_player, SP, SC, SL, USED, k):
    n_opt = 0
    OP = np.empty(NP, dtype=np.int64); NO = np.empty(NP, dtype=np.int64)
    OC = np.empty((NP, NC + 1), dtype=np.int64); OV = np.empty((NP, NC + 1), dtype=np.int64)
    for p in {tried}:
        if p == b_src or p == b_dst or N[p] == 0:
            continue
        if not {test}:
            continue
        {"most_counts = " + count}
        OP[n_opt] = p
        if {take == "top" or take == "all"}:
            NO[n_opt] = 1
            OC[n_opt, 0] = most_counts
            total = 0
            for t in range(most_counts):
                total = add(total, {value})
            OV[n_opt, 0] = total
        else:
            NO[n_opt] = most_counts
            total = 0
            for t in range(most_counts):
                total = add(total, {value})
                OC[n_opt, t] = t + 1
                OV[n_opt, t] = total
        n_opt += 1
    has_goal = {goal is not None}
    goal = {goal if goal is not None else "0"}
    prune = has_goal
    for i in range(n_opt):
        for j in range(NO[i]):
            if OV[i, j] < 0:
                prune = False
    found = 0
    # the depth-first walk of make_selector, one frame per pile: SJ the next choice (-1: entering;
    # 0..NO-1: give that count; NO: skip it), ST the sum so far, SI whether the parent chose a count
    SJ = np.empty(n_opt + 1, dtype=np.int64); ST = np.empty(n_opt + 1, dtype=np.int64)
    SI = np.empty(n_opt + 1, dtype=np.int64)
    chosen_p = np.empty(n_opt + 1, dtype=np.int64); chosen_c = np.empty(n_opt + 1, dtype=np.int64)
    n_chosen = 0
    depth = 0
    SJ[0] = -1; ST[0] = 0; SI[0] = 0
    while depth >= 0:
        i = depth
        j = SJ[depth]
        if j == -1:
            USED[k] += 1
            if USED[k] > {limit}:
                raise Stop("more selections than the limit")
            if (prune and ST[depth] > goal) or i == n_opt:
                if i == n_opt and not (prune and ST[depth] > goal):
                    if {fewest} <= n_chosen <= {most} and (not has_goal or ST[depth] == goal):
                        if found == len(SL):
                            raise Stop("too many selections")
                        for c in range(n_chosen):
                            SP[found, c] = chosen_p[c]
                            SC[found, c] = chosen_c[c]
                        SL[found] = n_chosen
                        found += 1
                if SI[depth] == 1:
                    n_chosen -= 1
                depth -= 1
                continue
            SJ[depth] = 0 if n_chosen < {most} else NO[i]
            continue
        if j < NO[i]:
            SJ[depth] = j + 1
            chosen_p[n_chosen] = OP[i]; chosen_c[n_chosen] = OC[i, j]; n_chosen += 1
            depth += 1
            SJ[depth] = -1; ST[depth] = add(ST[depth - 1], OV[i, j]); SI[depth] = 1
            continue
        if j == NO[i]:
            SJ[depth] = j + 1
            depth += 1
            SJ[depth] = -1; ST[depth] = ST[depth - 1]; SI[depth] = 0
            continue
        if SI[depth] == 1:
            n_chosen -= 1
        depth -= 1
    return found
''')
        return name

    # -- effects --------------------------------------------------------------------------------

    def effects(self, path: tuple[Any, ...], env: dict[str, _Val], indent: str) -> list[str]:
        lines: list[str] = []
        for i in range(len(self.value_at(path))):
            lines += self.effect(path + (i,), env, indent)
        return lines or [f"{indent}pass"]

    def effect(self, path: tuple[Any, ...], env: dict[str, _Val], indent: str) -> list[str]:
        spec = self.value_at(path)
        self.path = path
        if spec == "move" or (isinstance(spec, dict) and "move" in spec):
            return self.move_effect(path + ("move",), {} if spec == "move" else (spec["move"] or {}), env, indent)
        kind = spec if isinstance(spec, str) else next(iter(spec)) if "if" not in spec else "if"
        if kind in ("turn_up", "turn_down"):
            card = self.as_type(self.expr(self.parse(path + (kind,)), env), "card").code
            c, face = self.fresh("c"), int(kind == "turn_up")
            if self.rules.tracks_knowledge:  # who saw it is kept (engine.State.turn)
                return [f"{indent}{c} = {card}", f"{indent}if {c} != NOCARD: turn_card(C, N, U, {c}, {face})"]
            return [f"{indent}{c} = {card}", f"{indent}if {c} != NOCARD: U[{c}] = {face}"]
        if kind in ("set", "add"):
            lines, stores = [], []
            for var in spec[kind]:
                variable = self.rules.variables[var]
                value = self.expr(self.parse(path + (kind, var)), env)
                temp = self.fresh("v")
                var_kind = self.var_kind(var)
                if var_kind == "bool":
                    if value.type != "bool":
                        raise self.no("a truth value was expected", path + (kind, var))
                    lines.append(f"{indent}{temp} = 1 if {value.code} else 0")
                elif var_kind == "int":
                    if value.type not in ("int", "none"):
                        raise self.no("a number was expected", path + (kind, var))
                    lines.append(f"{indent}{temp} = {self.checked(value) if value.type == 'int' else 'ck(NO_INT)'}")
                else:  # a pile (or none)
                    if kind == "add" or value.type not in (var_kind, "none"):
                        raise self.no(f"{kind} of {value.type} to a variable holding {var_kind}", path + (kind, var))
                    none = self.as_type(value, "str" if var_kind == "str" else "int").code
                    lines.append(f"{indent}{temp} = {none if value.type == 'none' else value.code}")
                if variable.per_team:  # every seat of the acting seat's team
                    mate = self.fresh("mate")
                    stores.append((f"{variable.slot} + {mate}", temp, mate))
                else:
                    stores.append((f"{variable.slot}" if not variable.per_player else
                                   f"{variable.slot} + seat_of(M, {env['player'].code})", temp, ""))
            for slot, temp, mate in stores:
                at = indent
                if mate:
                    lines += [f"{indent}for {mate} in range(M[12]):",
                              f"{indent}    if {self.team(mate)} == {self.team(env['player'].code)}:"]
                    at = indent + "        "
                lines.append(f"{at}V[{slot}] = add(ck(V[{slot}]), {temp})" if kind == "add" else
                             f"{at}V[{slot}] = {temp}")
            return lines
        if kind == "if":
            test = self.expr(self.parse(path + ("if",)), env, "bool").code
            lines = [f"{indent}if {test}:"] + self.effects(path + ("then",), env, indent + "    ")
            if "else" in spec:
                lines += [f"{indent}else:"] + self.effects(path + ("else",), env, indent + "    ")
            return lines
        if kind == "for":
            loop = parse_loop(str(self.value_at(path + ("for",))))
            if isinstance(loop.iterable, ListLit) and len(loop.names) == 1 and len(loop.iterable.items) <= 16:
                # A list written out (`player in [0, 1]`): its items first, then the body once per item.
                lines, bound = [], []
                for item in loop.iterable.items:
                    value = self.expr(item, env)
                    if value.type not in ("int", "pile"):
                        raise self.no(f"a loop over a list of {value.type}", path + ("for",))
                    x = self.fresh("x")
                    lines.append(f"{indent}{x} = {self.checked(value)}")
                    bound.append(_Val(value.type, x))
                for value in bound:
                    if loop.names[0] == "player":  # (each item a seat of the game, as in ruleset.py)
                        lines.append(f"{indent}seat_of(M, {value.code})")
                    lines += self.effects(path + ("do",), {**env, loop.names[0]: value}, indent)
                return lines
            name, items = self.loop(path + ("for",), env)
            x = self.fresh("x")
            inner = dict(env)
            inner[name] = _Val(LOOPED.get(items.type, "card"), x, maybe_none=items.type == "int_list")
            seat = [f"{indent}    seat_of(M, {x})"] if name == "player" else []
            if items.type in ("piles", *LISTS):  # (a list built by list(...) is an array of its own)
                head = [f"{indent}for {x} in {items.code}:"]
            elif items.type == "seats":  # every seat of the game, from seat 0
                head = [f"{indent}for {x} in range({items.code}):"]
            elif items.type == "range":
                head = [f"{indent}for {x} in range({items.lo}, {items.hi}):"]
            else:
                copy = self.fresh("items")
                head = [f"{indent}{copy} = {items.arr}[{items.lo}:{items.hi}].copy()", f"{indent}for {x} in {copy}:"]
            return head + seat + self.effects(path + ("do",), inner, indent + "    ")
        if kind == "act":
            actor = self.checked(self.expr(self.parse(path + ("act", "seat")), env, "int"))
            name = spec["act"].get("phase")
            phase = self.rules.phases.index(name) if name is not None else 0
            return [f"{indent}{'act_at_once' if self.rules.simultaneous else 'act'}(M, {actor}, {phase})"]
        if kind == "end_turn":
            return [f"{indent}M[15] = 1"]
        if kind == "turn_to":
            next_seat = self.checked(self.expr(self.parse(path + ("turn_to",)), env, "int"))
            return [f"{indent}turn_to(M, {next_seat})"]
        if kind == "reverse":
            return [f"{indent}M[27] = -M[27]"]
        if kind == "move_chosen":  # each chosen pile's cards, in the order chosen
            k = self.template_index(path)
            options = spec["move_chosen"] or {}
            to = self.checked(self.expr(self.parse(path + ("move_chosen", "to")), env)) if "to" in options \
                else env["dst"].code
            face = {"up": 1, "down": 0}.get(options.get("face", ""), -1)
            t, q = self.fresh("t"), self.fresh("q")
            count = f"(b_sel // SELPOW[{q}]) % CAP1"
            return [f"{indent}{t} = {to}",
                    f"{indent}for {q} in range(len(SELP_{k})):",
                    f"{indent}    if {count} > 0:",
                    f"{indent}        move_cards(C, N, U, SELP_{k}[{q}], {t}, {count}, False, {face}, False, TMP)"]
        if kind == "shuffle":
            pile = self.checked(self.expr(self.parse(path + ("shuffle",)), env))
            if self.rules.tracks_knowledge:  # nobody knows where a card went
                p = self.fresh("p")
                return [f"{indent}{p} = {pile}", f"{indent}shuffle_pile(C, N, M, {p})", f"{indent}forget(C, N, U, {p}, N[{p}])"]
            return [f"{indent}shuffle_pile(C, N, M, {pile})"]
        if kind == "show":
            return self.show_effect(path + ("show",), spec["show"], env, indent)
        if kind == "deal":
            return self.deal_effect(path + ("deal",), spec["deal"], env, indent)
        if kind == "end":
            result = self.result_code(spec["end"]["result"])
            reason = self.reason_code(spec["end"].get("reason", ""))
            return [f"{indent}end(M, {result}, {reason})"]
        raise self.no(f"the effect '{kind}'", path)

    def deal_effect(self, path: tuple[Any, ...], spec: dict[str, Any], env: dict[str, _Val],
                    indent: str) -> list[str]:
        """`deal` during play, as ruleset.py's: one card a pile a row, left to right, while a pile's
        count (of `i`, its index) is above the row; with `where`, the topmost card of the source
        that matches (`card`, `dst` the pile dealt to), brought to the top first."""
        zone = self.rules.zones[spec["to"]]
        i, wanted, row, more, q, source = (self.fresh(x) for x in ("i", "wanted", "row", "more", "q", "source"))
        if zone.seat_piles is not None:  # the piles of the seats in the game, seat by seat (Zone.piles_for)
            per_seat = len(zone.seat_piles[0])
            count = f"M[12] * {per_seat}"
            dealt = f"SEATS_{zone.name}[{q} // {per_seat}]" if zone.single else \
                f"SEATS_{zone.name}[{q} // {per_seat}, {q} % {per_seat}]"
        else:
            count, dealt = str(len(zone.piles)), f"Z_{zone.name}[{q}]"
        counts = self.checked(self.expr(self.parse(path + ("counts",)), {**env, "i": _int(i)}, "int"))
        src = self.checked(self.expr(self.parse(path + ("from",)), env))
        face = int(spec.get("face", "down") == "up")
        find = [f"{indent}            if N[{source}] == 0: raise Stop('the deal ran out of cards')"]
        if "where" in spec:
            j, card = self.fresh("j"), self.fresh("card")
            inner = {**env, "card": _Val("card", card), "dst": _Val("pile", dealt)}
            test = self.expr(self.parse(path + ("where",)), inner, "bool").code
            deep = indent + "                "
            find = [f"{indent}            {j} = N[{source}] - 1",
                    f"{indent}            while {j} >= 0:",
                    f"{deep}{card} = C[{source}, {j}]",
                    f"{deep}if {test}: break",
                    f"{deep}{j} -= 1",
                    f"{indent}            if {j} < 0: raise Stop('the deal ran out of cards that match where')",
                    f"{indent}            if {j} < N[{source}] - 1: lift(C, N, {source}, C[{source}, {j}])"]
        return [f"{indent}{wanted} = np.empty({count}, dtype=np.int64)",
                f"{indent}for {i} in range({count}):",
                f"{indent}    {wanted}[{i}] = {counts}",
                f"{indent}{row} = 0",
                f"{indent}{more} = True",
                f"{indent}while {more}:",
                f"{indent}    {more} = False",
                f"{indent}    for {q} in range({count}):",
                f"{indent}        if {wanted}[{q}] > {row}:",
                f"{indent}            {more} = True",
                f"{indent}            {source} = {src}",
                *find,
                f"{indent}            move_cards(C, N, U, {source}, {dealt}, 1, False, {face}, False, TMP)",
                f"{indent}    {row} += 1"]

    def show_effect(self, path: tuple[Any, ...], spec: dict[str, Any], env: dict[str, _Val],
                    indent: str) -> list[str]:
        """`show: {card | pile, to}`: the seat learns the card, or every card of the pile as it lies
        (ruleset.py's `_show_effect`); a seat the game has not stops (Python reports it)."""
        seat = self.checked(self.expr(self.parse(path + ("to",)), env, "int"))
        s, c = self.fresh("seat"), self.fresh("c")
        lines = [f"{indent}{s} = {seat}", f"{indent}if {s} < 0 or {s} >= M[12]: raise Stop('show: no such seat')"]
        if "pile" in spec:
            pile = self.checked(self.expr(self.parse(path + ("pile",)), env))
            p = self.fresh("p")
            return lines + [f"{indent}{p} = {pile}", f"{indent}for {c} in C[{p}, :N[{p}]]:",
                            f"{indent}    U[KN + {c}] |= 1 << {s}"]
        card = self.as_type(self.expr(self.parse(path + ("card",)), env), "card").code
        return lines + [f"{indent}{c} = {card}", f"{indent}if {c} != NOCARD: U[KN + {c}] |= 1 << {s}"]

    def template_index(self, path: tuple[Any, ...]) -> int:
        if path[:1] != ("moves",) or "select" not in self.value_at(path[:2]):
            raise self.no("move_chosen outside a move with 'select'", path)
        return int(self.rules.moves_by_name[path[1]].index)

    def loop(self, path: tuple[Any, ...], env: dict[str, _Val]) -> tuple[str, _Val]:
        loop = parse_loop(str(self.value_at(path)))
        items = self.expr(loop.iterable, env)
        if items.type not in ("piles", "cards", "range", "seats", *LISTS):
            raise self.no(f"a loop over {items.type}", path)
        return loop.names[0], items

    def move_effect(self, path: tuple[Any, ...], options: dict[str, Any], env: dict[str, _Val],
                    indent: str) -> list[str]:
        src = self.checked(self.expr(self.parse(path + ("from",)), env)) if "from" in options else env["src"].code
        dst = self.checked(self.expr(self.parse(path + ("to",)), env)) if "to" in options else env["dst"].code
        s, d = self.fresh("s"), self.fresh("d")
        lines = [f"{indent}{s} = {src}", f"{indent}{d} = {dst}"]
        if "card" in options:  # one given card: brought to the top of its pile (Stop if it is not there), moved
            card = self.as_type(self.expr(self.parse(path + ("card",)), env), "card").code
            c = self.fresh("c")
            lines += [f"{indent}{c} = {card}",
                      f"{indent}if not on_pile(C, N, {s}, {c}): raise Stop('the card is not on the pile')",
                      f"{indent}lift(C, N, {s}, {c})"]
            if _ON_PILE not in self.helpers:
                self.helpers.append(_ON_PILE)
            count = "1"
        elif "count" in options:
            count = self.checked(self.expr(self.parse(path + ("count",)), env, "int"))
        elif "from" in options:
            count = f"N[{s}]"
        else:
            count = env["n"].code
            if "pick" in env:  # `take: any`: the chosen card (cards, bottom first) to the top first
                t = self.fresh("t")
                lines += [f"{indent}if {env['pick'].code} >= 0:",
                          f"{indent}    for {t} in range({count}): lift(C, N, {s}, MC[{t}])"]
        face = {"up": 1, "down": 0}.get(options.get("face", ""), -1)
        flip = bool(options.get("flip", False))
        bottom = options.get("place", "top") == "bottom"
        if options.get("place") == "random":  # moved to the top, then buried together at a random place
            k = self.fresh("k")
            forget = [f"{indent}forget(C, N, U, {d}, {k})"] if self.rules.tracks_knowledge else []
            return lines + [f"{indent}{k} = min({count}, N[{s}])",
                            f"{indent}move_cards(C, N, U, {s}, {d}, {k}, {flip}, {face}, False, TMP)"] + forget + \
                [f"{indent}if {k} > 0: bury_top(C, N, M, {d}, {k})"]
        lines.append(f"{indent}move_cards(C, N, U, {s}, {d}, {count}, {flip}, {face}, {bottom}, TMP)")
        return lines

    def result_code(self, result: str) -> int:
        if result not in self.results:
            self.results.append(result)
        return self.results.index(result)

    def reason_code(self, reason: str) -> int:
        if reason not in self.reasons:
            self.reasons.append(reason)
        return self.reasons.index(reason)

    def _moves_applied(self) -> str:
        self.results: list[str] = [""]
        self.reasons: list[str] = [""]
        out = []
        calls: list[str] = []
        for template in self.rules.moves:
            path = ("moves", template.name)
            spec = self.value_at(path)
            env = self.move_env(template, True)
            if template.take == "any":
                env["pick"] = _int("b_pick")
            k = template.index
            if "select" in spec:  # the selection's cards and piles, as they lie before the effects
                env["chosen"] = _Val("cards", arr="CHOSEN_CARDS", lo="0", hi="n_chosen_cards")
                env["chosen_piles"] = _Val("piles", "CHOSEN_PILES[:n_chosen_piles]")
            if "do" in spec:
                lines = self.effects(path + ("do",), env, "    ")
            else:
                lines = self.move_effect(path + ("do",), {}, env, "    ")
            if any("CHOSEN_" in line for line in lines):
                lines = [f"    CHOSEN_PILES = np.empty(len(SELP_{k}), dtype=np.int64); n_chosen_piles = 0",
                         "    CHOSEN_CARDS = np.empty(NC, dtype=np.int64); n_chosen_cards = 0",
                         f"    for q in range(len(SELP_{k})):",
                         "        taken = (b_sel // SELPOW[q]) % CAP1",
                         "        if taken == 0: continue",
                         f"        p = SELP_{k}[q]; CHOSEN_PILES[n_chosen_piles] = p; n_chosen_piles += 1",
                         "        for t in range(N[p] - taken, N[p]):",
                         "            CHOSEN_CARDS[n_chosen_cards] = C[p, t]; n_chosen_cards += 1"] + lines
            args = "C, N, U, V, O, M, MC, TMP, b_src, b_dst, b_n, b_card, b_pick, b_target, b_player, b_sel"
            out.append(f"@njit(cache=True)\ndef apply_{k}({args}):\n" + "\n".join(lines) + "\n")
            calls.append(f"    {'if' if not calls else 'elif'} k == {k}: apply_{k}({args})")
        out.append("@njit(cache=True)\ndef apply_effects(C, N, U, V, O, M, MC, TMP, k, b_src, b_dst, b_n, b_card, "
                   "b_pick, b_target, b_player, b_sel):\n" + "\n".join(calls) + "\n")
        return "\n".join(out)

    def _safe(self) -> str:
        """`is_safe(..., a)`: does action a's template declare it safe here (`safe:`), as
        `Game.is_safe` says? The solver plays such a move alone."""
        out, calls = [], []
        args = "C, N, U, V, O, M, MC, b_src, b_dst, b_n, b_card, b_pick, b_target, b_player, b_sel"
        for template in self.rules.moves:
            if template.safe is None:
                continue
            env = self.move_env(template, True)
            if template.take == "any":
                env["pick"] = _int("b_pick")
            test = self.expr(self.parse(("moves", template.name, "safe")), env, "bool").code
            k = template.index
            out.append(f"@njit(cache=True)\ndef safe_{k}({args}):\n    return {test}\n")
            calls.append(f"    if k == {k}: return safe_{k}({args})")
        out.append("""@njit(cache=True)
def is_safe(C, N, U, V, O, M, MC, a):
    k, b_src, b_dst, b_n, b_pick, b_target, b_sel = decode(a)
    if not HAS_SAFE[k]:
        return False
    b_player = M[10]
    b_card, b_pick = take_cards(C, N, U, M, MC, b_src, b_n, b_pick, b_sel // PICK_AT[k])
""" + "\n".join(calls) + "\n    return False\n")
        self.helpers.append(f"HAS_SAFE = {_array([int(t.safe is not None) for t in self.rules.moves])}")
        return "\n".join(out)

    def _triggers(self) -> str:
        lines = ["@njit(cache=True)", "def triggers(C, N, U, V, O, M, TMP, k, b_player):", "    pass"]
        env = {"player": _int("b_player"), "move": _Val("str", "MOVE_NAMES[k]")}
        if self.data.get("triggers"):
            self.helpers.append(f"MOVE_NAMES = {_array([self.sid(t.name) for t in self.rules.moves])}")
        for i, spec in enumerate(self.data.get("triggers", [])):
            path = ("triggers", i)
            after = spec.get("after")
            indent = "    "
            if after is not None:
                ks = tuple(self.rules.moves_by_name[name].index for name in after)
                lines.append(f"    if k in {ks!r}:" if len(ks) > 1 else f"    if k == {ks[0]}:")
                indent = "        "
            trigger_env = env
            repeat = bool(spec.get("repeat", False))
            if repeat:  # passes until nothing applies; too many stop, and Python says where
                passes = self.fresh("passes")
                lines += [f"{indent}for {passes} in range({MAX_TRIGGER_PASSES + 1}):",
                          f"{indent}    if {passes} == {MAX_TRIGGER_PASSES}: raise Stop('a repeat trigger')"]
                indent += "    "
            if "for" in spec:
                name, items = self.loop(path + ("for",), trigger_env)
                x, chosen, count = self.fresh("x"), self.fresh("chosen"), self.fresh("n")
                inner = dict(trigger_env)
                inner[name] = _Val(LOOPED.get(items.type, "card"), x, maybe_none=items.type == "int_list")
                test = self.expr(self.parse(path + ("when",)), inner, "bool").code if "when" in spec else "True"
                if items.type in ("piles", *LISTS):
                    lines += [f"{indent}{chosen} = np.empty(len({items.code}), dtype=np.int64); {count} = 0",
                              f"{indent}for {x} in {items.code}:"]
                elif items.type in ("range", "seats"):  # numbers (a range's end is checked: range_end)
                    lo, hi = (items.lo, items.hi) if items.type == "range" else ("0", items.code)
                    lines += [f"{indent}{chosen} = np.empty(max({hi} - ({lo}), 0), dtype=np.int64); {count} = 0",
                              f"{indent}for {x} in range({lo}, {hi}):"]
                else:
                    lines += [f"{indent}{chosen} = np.empty({items.hi} - ({items.lo}), dtype=np.int64); {count} = 0",
                              f"{indent}for {x} in {items.arr}[{items.lo}:{items.hi}]:"]
                lines += [f"{indent}    if {test}:", f"{indent}        {chosen}[{count}] = {x}; {count} += 1"]
                if repeat:
                    lines.append(f"{indent}if {count} == 0: break")
                lines.append(f"{indent}for {x} in {chosen}[:{count}]:")
                lines += self.effects(path + ("do",), inner, indent + "    ")
            else:
                if "when" in spec:
                    test = self.expr(self.parse(path + ("when",)), trigger_env, "bool").code
                    if repeat:
                        lines.append(f"{indent}if not ({test}): break")
                    else:
                        lines.append(f"{indent}if {test}:")
                        indent += "    "
                lines += self.effects(path + ("do",), trigger_env, indent)
        return "\n".join(lines) + "\n"

    def _after_change(self) -> str:
        rules = self.rules
        spec = self.data.get("end", {})
        env = {"player": _int("b_player")}
        lines = ["@njit(cache=True)", "def after_change(C, N, U, V, O, M, out, CK, BK, KEY):", "    cnt = 0",
                 "    b_player = M[29] if M[28] == 1 else M[10]",  # the seat whose turn it is
                 "    if M[0] == 0:", "        pass"]
        if rules.repeat is not None:  # the position the move led to is counted, whatever follows (Game.apply)
            lines.insert(4, "    seen = repeat_seen(C, N, U, V, M, KEY, 1)")
        for i, cond in enumerate(spec.get("when", [])):
            test = self.expr(self.parse(("end", "when", i, "if")), env, "bool").code
            lines.append(f"        {'if' if i == 0 else 'elif'} {test}:")
            if "winners" in cond:
                lines.append(f"            M[13] = {self.winners(('end', 'when', i, 'winners'), env)}")
            lines.append(f"            end(M, {self.result_code(cond['result'])}, "
                         f"{self.reason_code(cond.get('reason', ''))})")
        if rules.repeat is not None:
            count, result, reason = rules.repeat
            lines.append(f"    if M[0] == 0 and seen >= {count}:")
            lines.append(f"        end(M, {self.result_code(result)}, {self.reason_code(reason)})")
        lines.append("    if M[0] == 0 and M[4] >= 0 and M[3] >= M[4]:")
        lines.append(f"        end(M, {self.result_code('limit')}, {self.reason_code('@limit')})")
        lines.append("    if M[0] == 0:")
        lines.append("        cnt = legal(C, N, U, V, O, M, out)")
        lines.append("        if cnt < 0: raise Stop('too many legal moves')")
        cycle = rules.cycle
        if cycle is not None:
            lines.append("        track_cycle(C, N, U, V, O, M, out, cnt, CK, BK, KEY)")
        result, reason = rules.no_moves_result
        # (every seat playing at once: no seat has a move)
        none_left = " and not others_have_moves(C, N, U, V, O, M, out)" if rules.simultaneous else ""
        lines.append(f"        if M[0] == 0 and cnt == 0{none_left}:")
        lines.append(f"            end(M, {self.result_code(result)}, {self.reason_code(reason)})")
        lines.append("    if M[0] != 0:")
        lines.append("        cnt = 0")
        if "on_end" in self.data:
            lines += self.effects(("on_end",), env, "        ")
        lines.append("    return cnt")
        text = "\n".join(lines) + "\n"
        return self._cycle_code(env) + text

    def winners(self, path: tuple[Any, ...], env: dict[str, _Val]) -> str:
        """Code for the winning seats an end condition names, as a bit mask: a seat, or a list of
        seats (`list(...)`, `seats`, a range). A seat the game has not stops compiled code, and Python
        reports it; a seat named twice wins once, as in Python."""
        value = self.expr(self.parse(path), env)
        if value.type == "int":
            return f"winners_mask(np.array([{self.checked(value)}]), M[12])"
        if value.type == "int_list":
            return f"winners_mask({value.code}, M[12])"
        if value.type == "seats":
            return f"((1 << {value.code}) - 1)"
        if value.type == "range":
            return f"winners_mask(np.arange({value.lo}, {value.hi}), M[12])"
        raise self.no(f"winners that are {value.type}, not seats", path)

    def _cycle_code(self, env: dict[str, _Val]) -> str:
        cycle = self.rules.cycle
        if cycle is None:
            return "@njit(cache=True)\ndef cycle_begin(C, N, U, V, O, M, out, cnt, BK, k):\n    pass\n"
        counts = self.expr(self.parse(("end", "cycle", "when")), env, "bool").code \
            if "when" in self.data["end"]["cycle"] else "True"
        self.helpers.append(f"IN_CYCLE = {_array([int(t.index in cycle.moves) for t in self.rules.moves])}")
        result, reason = self.result_code(cycle.result), self.reason_code(cycle.reason)
        return f'''
@njit(cache=True)
def counts(C, N, U, V, O, M):
    b_player = M[10]
    return {counts}


@njit(cache=True)
def offers_other(out, cnt):
    for i in range(cnt):
        if IN_CYCLE[out[i] // (NP1 * NP1 * CAP1 * PK * SE * SELR)] == 0:
            return True
    return False


@njit(cache=True)
def cycle_begin(C, N, U, V, O, M, out, cnt, BK, k):
    if M[6] == 0 and IN_CYCLE[k] == 1:
        if not counts(C, N, U, V, O, M):
            M[7] = 0
        elif offers_other(out, cnt):
            M[7] = 1
        else:
            position_key(C, N, U, BK)
            M[7] = 2


@njit(cache=True)
def track_cycle(C, N, U, V, O, M, out, cnt, CK, BK, KEY):
    begin = M[7]
    M[7] = 0
    if IN_CYCLE[M[5]] == 0 or not counts(C, N, U, V, O, M):
        M[6] = 0
        M[8] = 0
        return
    if M[6] == 1:
        return
    if M[6] == 0:
        if begin == 1:
            M[6] = 1
            return
        M[8] = 0
        if begin == 2:
            CK[0, :] = BK
            M[8] = 1
    position_key(C, N, U, KEY)
    for i in range(M[8]):
        if same(CK[i], KEY[:NC]):
            M[6] = 2
            end(M, {result}, {reason})
            return
    if offers_other(out, cnt):
        M[6] = 1
        M[8] = 0
        return
    if M[8] == len(CK):
        raise Stop("too many positions in one cycle")
    CK[M[8], :] = KEY[:NC]
    M[8] += 1
    M[6] = 2
'''

    def _score(self) -> str:
        env = {"player": _int("b_player")}
        code = "0"
        if self.rules.score is not None:
            if "score" in self.data:
                value = self.expr(self.parse(("score",)), env, "int")
            else:
                value = self._name(Name(0, "score"), env)
            code = self.checked(value)
        evaluation = code
        if "heuristic" in self.data:
            evaluation = self.checked(self.expr(self.parse(("heuristic",)), env, "int"))
        if self.rules.score_sign < 0:  # `score_order: lower`: bots and the search want it high
            evaluation = f"neg({evaluation})"
        return (f"@njit(cache=True)\ndef score(C, N, U, V, O, M, b_player):\n    return {code}\n\n\n"
                f"@njit(cache=True)\ndef evaluation(C, N, U, V, O, M, b_player):\n    return {evaluation}\n")


_DRIVER = '''
@njit(cache=True)
def next_phase(M, end_turn):
    """The turn's next phase (interrupt phases are entered only by `act`), or the next turn."""
    following = M[11] + 1
    while following < NPHASES and INTERRUPT[following] == 1:
        following += 1
    if NPHASES > 0 and not end_turn and following < NPHASES:
        M[11] = following
        return
    first = FIRST_PHASE
    if ROTATION:
        if M[26] >= 0:  # `turn_to` chose the seat
            M[10] = M[26]
            M[26] = -1
        else:
            M[10] = (M[10] + M[27]) % M[12]
        M[11] = first
    elif NPHASES > 0:
        M[11] = first


@njit(cache=True)
def advance_turn(C, N, U, V, O, M, out, end_turn):
    """After a move: back to the seat an `act` interrupted, or on to the next phase or turn; an
    optional phase that offers no move is passed over."""
    if M[24] > 0:
        M[24] -= 1
        f = M[24]
        M[10] = M[16 + 2 * f]
        M[11] = M[17 + 2 * f]
        end_turn = False
    next_phase(M, end_turn)
    skip_optional_phases(C, N, U, V, O, M, out)


@njit(cache=True)
def skip_optional_phases(C, N, U, V, O, M, out):
    """An optional phase that offers the seat no move is passed over."""
    for _ in range(NPHASES * M[12]):
        if M[0] != 0 or OPTIONAL[M[11]] == 0:
            return
        if legal(C, N, U, V, O, M, out) != 0:
            return
        next_phase(M, False)


@njit(cache=True)
def may_act_out_of_turn(C, N, U, V, O, M, out, seat, phase, after):
    """Has `seat`, if asked now, a move out of turn other than `pass`? (A look: M is restored.)"""
    saved_seat, saved_phase, saved_asking, saved_after = M[10], M[11], M[28], M[35]
    M[10], M[11], M[28], M[35] = seat, phase, 1, after
    cnt = legal(C, N, U, V, O, M, out)
    M[10], M[11], M[28], M[35] = saved_seat, saved_phase, saved_asking, saved_after
    if cnt < 0:
        raise Stop("too many legal moves")
    for i in range(cnt):
        if DECLINES[decode(out[i])[0]] == 0:
            return True
    return False


@njit(cache=True)
def ask(C, N, U, V, O, M, out, mover, direction, start, resume, phase, chosen, after):
    """Give the move to the first seat of the round from `mover` (from its `start`-th) to be asked
    out of turn, or, if none is, back to the turn that goes on (engine.Game._ask)."""
    n = M[12]
    for j in range(start, n):
        seat = (mover + direction * (j + 1)) % n
        if ASKS_EVERYONE == 1 or may_act_out_of_turn(C, N, U, V, O, M, out, seat, phase, after):
            M[26] = -1
            M[28], M[29], M[30], M[31] = 1, resume, phase, chosen
            M[32], M[33], M[34], M[35] = mover, direction, j + 1, after
            M[10], M[11] = seat, phase
            return
    if M[28] == 1:
        back_to_turn(M, resume, phase, chosen)


@njit(cache=True)
def back_to_turn(M, resume, phase, chosen):
    """The asking is over: the turn goes on where it was (engine.Game._back_to_turn)."""
    M[28] = 0
    M[10], M[11] = resume, phase
    if chosen >= 0:
        M[26] = chosen


@njit(cache=True)
def answered(C, N, U, V, O, M, out, k, resume, phase, chosen, seat):
    """After a move out of turn or a `pass` (engine.Game._answered)."""
    if DECLINES[k] == 1:
        ask(C, N, U, V, O, M, out, M[32], M[33], M[34], resume, phase, chosen, M[35])
        return
    if M[26] >= 0:  # the move's `turn_to`: that seat's turn starts now
        M[28] = 0
        M[10], M[11] = M[26], FIRST_PHASE
        M[26] = -1
    else:
        back_to_turn(M, resume, phase, chosen)
    skip_optional_phases(C, N, U, V, O, M, out)
    if M[0] == 0 and OPENS[k + 1] == 1:
        ask(C, N, U, V, O, M, out, seat, M[27], 0, M[10], M[11], M[26], k)


@njit(cache=True)
def decode(a):
    """An action number's fields: template, source, destination, count, pick, seat, selection."""
    sel = a % SELR
    a //= SELR
    seat = a % SE - 1
    r = a // SE
    pick = r % PK - 2
    r //= PK
    n = r % CAP1
    r //= CAP1
    dst = r % NP1 - 1
    r //= NP1
    src = r % NP1 - 1
    return r // NP1, src, dst, n, pick, seat, sel


@njit(cache=True)
def take_cards(C, N, U, M, MC, src, n, pick, sel):
    """The cards a move takes, into MC; returns its first card (NOCARD: none) and its pick (a blind
    pick resolved to the card it gets). `take: {any: K}`: the other cards are digits of `sel` (the
    selection field past the digits of a `select`: PICK_AT)."""
    if pick == -1:
        pick = blind_card(C, N, U, src, M[10])
    if pick >= 0:
        MC[0] = pick
        for i in range(1, n):
            MC[i] = (sel // SELPOW[i - 1]) % CAP1
    elif src >= 0:
        for i in range(n):
            MC[i] = C[src, N[src] - n + i]
    card = MC[0] if pick >= 0 or (src >= 0 and n > 0) else NOCARD
    return card, pick


@njit(cache=True)
def play(C, N, U, V, O, M, out, cnt, BK, MC, TMP, a):
    """Apply action `a` (one of out[:cnt]) with its triggers and the turn that follows; the end is
    not checked and the next moves are not listed (`after_change` settles)."""
    k, b_src, b_dst, n, pick, seat, b_sel = decode(a)
    b_player = M[10]
    asked = ASKS_OUT_OF_TURN and (M[28] == 1 or OUT_OF_TURN[k] == 1)  # a seat asked answers, or acts unasked
    resume, phase, chosen = (M[29], M[30], M[31]) if M[28] == 1 else (M[10], M[11], M[26])
    if asked and M[28] == 0:
        M[26] = -1  # kept aside, so that a `turn_to` of the move can be told from it
    cycle_begin(C, N, U, V, O, M, out, cnt, BK, k)
    card, pick = take_cards(C, N, U, M, MC, b_src, n, pick, b_sel // PICK_AT[k])
    M[3] += 1
    M[5] = k
    M[14] = 0
    M[15] = 0
    apply_effects(C, N, U, V, O, M, MC, TMP, k, b_src, b_dst, n, card, pick, seat, b_player, b_sel)
    triggers(C, N, U, V, O, M, TMP, k, b_player)
    if ASKS_OUT_OF_TURN:
        if M[0] == 0 and asked:
            answered(C, N, U, V, O, M, out, k, resume, phase, chosen, b_player)
        elif M[0] == 0 and M[14] == 0:
            advance_turn(C, N, U, V, O, M, out, M[15] == 1)
            if M[0] == 0 and OPENS[k + 1] == 1:
                ask(C, N, U, V, O, M, out, b_player, M[27], 0, M[10], M[11], M[26], k)
    elif M[0] == 0 and M[14] == 0 and not SIMULTANEOUS:  # (where every seat plays at once, no turn to pass on)
        advance_turn(C, N, U, V, O, M, out, M[15] == 1)


@njit(cache=True)
def step(C, N, U, V, O, M, out, cnt, CK, BK, KEY, MC, TMP, a):
    """Apply action `a` (one of out[:cnt]) and settle: returns the number of legal moves after."""
    play(C, N, U, V, O, M, out, cnt, BK, MC, TMP, a)
    return after_change(C, N, U, V, O, M, out, CK, BK, KEY)


@njit(cache=True)
def leaders(C, N, U, V, O, M):
    """The seats whose evaluation (the heuristic, else the score) is the highest, as a bit mask."""
    best = NO_INT
    mask = 0
    for p in range(M[12]):
        v = evaluation(C, N, U, V, O, M, p)
        if v > best:
            best = v
            mask = 0
        if v == best:
            mask |= 1 << p
    return mask


@njit(cache=True)
def track_leaders(C, N, U, V, O, M, LEAD, stats, held):
    """After a move: the leaders kept in LEAD[moves made], and where one seat leads and another
    led alone before, a lead change counted (stats[4]); returns the leader held now (a bit mask)."""
    mask = leaders(C, N, U, V, O, M)
    if M[3] < len(LEAD):
        LEAD[M[3]] = mask
    else:
        raise Stop("a game longer than the leaders kept")
    if mask & (mask - 1) == 0:  # one leader: a change if another led before
        if held >= 0 and mask != held:
            stats[4] += 1
        held = mask
    return held


@njit(cache=True)
def playout(C, N, U, V, O, M, out, CK, BK, KEY, MC, TMP, MT, KINDS, W, stats, LEAD):
    """Play to the end, each seat choosing as its bot (KINDS[seat]: RANDOM_SEAT or GREEDY_SEAT,
    native_bots.py; W: greedy_work's arrays, None where no seat is greedy) with its own Mersenne
    Twister state MT[seat] (a Python `random.Random`'s): the moves Python's random and greedy bots
    make. `stats`: decisions, legal moves summed over them, decisions with a choice, turns (runs of moves
    by one seat), lead changes; LEAD[i] the leaders after move i (LEAD[0]: at the start)."""
    cnt = legal(C, N, U, V, O, M, out)
    if cnt < 0:
        raise Stop("too many legal moves")
    several = M[12] > 1
    last = -1
    held = -1
    if several:
        LEAD[0] = leaders(C, N, U, V, O, M)
    while M[0] == 0:
        stats[0] += 1
        stats[1] += cnt
        if cnt > 1:
            stats[2] += 1
        mover = M[10]
        a = choose_action(C, N, U, V, O, M, out, cnt, MT[mover], KINDS[mover], W)
        cnt = step(C, N, U, V, O, M, out, cnt, CK, BK, KEY, MC, TMP, a)
        if mover != last:
            stats[3] += 1
        last = mover
        if several:
            held = track_leaders(C, N, U, V, O, M, LEAD, stats, held)
    return score(C, N, U, V, O, M, 0)
'''


_LEGAL_NAMES = '''
@njit(cache=True)
def legal_names(C, N, U, V, O, M):
    """`legal_moves()`: the names (ids) of the legal moves of the seat to act now, one per move in
    the listing's order, listed into arrays of their own (a listing under way may be read still)."""
    if M[0] != 0:
        return np.empty(0, dtype=np.int64)
    room = 64
    while True:
        codes = np.empty(room, dtype=np.int64)
        cnt = legal(C, N, U, V, O, M, codes)
        if cnt >= 0:
            break
        if room >= MAX_LEGAL:
            raise Stop("too many legal moves")
        room = min(room * 16, MAX_LEGAL)
    names = np.empty(cnt, dtype=np.int64)
    for i in range(cnt):
        names[i] = LEGAL_NAMES[codes[i] // (NP1 * NP1 * CAP1 * PK * SE * SELR)]
    return names
'''


_SAME_ITEMS = '''
@njit(cache=True)
def same_items(xs, ys):
    """`xs == ys` of two lists of one kind of item: the same items in the same order."""
    if len(xs) != len(ys):
        return False
    for i in range(len(xs)):
        if xs[i] != ys[i]:
            return False
    return True
'''


_STR_BEST = '''
@njit(cache=True)
def str_best(xs, most):
    """`min(xs)` (`max(xs)` if most) of a list of strings, by the strings' order (STR_RANK), not
    their ids: none if empty; none beside other items stops (Python cannot order it)."""
    if len(xs) == 1:
        return xs[0]
    best = NO_STR
    for i in range(len(xs)):
        x = xs[i]
        if x < 0:
            raise Stop("ordering none")
        if i == 0 or (STR_RANK[x] > STR_RANK[best] if most else STR_RANK[x] < STR_RANK[best]):
            best = x
    return best
'''


def _names(node: Node, functions: dict[str, tuple[tuple[str, ...], Node]]) -> set[str]:
    """The free names an expression uses, in the bodies of the ruleset functions it calls too."""
    found: set[str] = set()

    def walk(n: Any, bound: frozenset[str]) -> None:
        if isinstance(n, Call) and n.func in functions:
            params, body = functions[n.func]
            walk(body, frozenset(params))  # a body sees the bindings and its parameters only
        if isinstance(n, Name):
            if n.name not in bound:
                found.add(n.name)
        elif isinstance(n, Comprehension):
            walk(n.iterable, bound)
            inner = bound | frozenset(n.names)
            walk(n.element, inner)
            if n.condition is not None:
                walk(n.condition, inner)
        elif isinstance(n, Node):
            for value in vars(n).values():
                if isinstance(value, Node):
                    walk(value, bound)
                elif isinstance(value, tuple):
                    for item in value:
                        if isinstance(item, Node):
                            walk(item, bound)

    walk(node, frozenset())
    return found


# ---------------------------------------------------------------------------------------------
# Compiling, caching and running


def cache_dir() -> Path:
    """Where compiled modules are kept: `native` in `CARDRULES_CACHE`, else in the user cache folder."""
    return resources.cache_dir("native")


def _private_cache_dir() -> Path:
    """The folder of compiled modules, made and checked (`resources.private_cache_dir`) with its
    `__pycache__`, where Numba keeps its index files (unpickled when a module loads): both only
    this user may write, or a `CacheError`. Where `NUMBA_CACHE_DIR` sends Numba's files
    elsewhere, that folder is held to the same rule."""
    folder = resources.private_cache_dir("native", ("__pycache__",))
    numba_cache = os.environ.get("NUMBA_CACHE_DIR")
    if numba_cache and os.path.exists(numba_cache):
        problem = resources.cache_problem(Path(numba_cache))
        if problem:
            raise CacheError(f"NUMBA_CACHE_DIR {numba_cache} {problem}: Numba loads the compiled code kept there, "
                             f"so cardrules uses only a folder no other user can write; make it yours "
                             f"(chmod go-w), or unset NUMBA_CACHE_DIR")
    return folder


def _read_unfollowed(path: Path) -> str | None:
    """The text of the file at `path`, None if there is none or it is a symbolic link (never followed)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    with os.fdopen(fd, encoding="utf-8") as handle:
        return handle.read()


def _write_module(path: Path, source: str) -> None:
    """Write a generated module whole (whatever other processes do): into a new temporary file of
    the folder (made with O_EXCL, so never through a link planted there), then renamed over `path`
    (which replaces a link at `path`, never what it points to)."""
    fd, temp = tempfile.mkstemp(prefix=f".{path.stem}-", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(source)
        os.replace(temp, path)
    except BaseException:
        if os.path.lexists(temp):
            os.unlink(temp)
        raise


def lower(rules: Any) -> tuple[str, dict[str, Any]]:
    """The generated module's source for a ruleset, and the tables to read its results with;
    raises `Unsupported` naming the first construct the backend does not cover."""
    return _ModuleBuilder(rules).build()


def _first_line(exc: BaseException) -> str:
    """The line of a Numba error that says what failed (its message repeats 'Failed in ... mode
    pipeline' once per function it passed through)."""
    lines = [line for line in str(exc).splitlines() if line.strip() and not line.startswith("Failed in ")]
    return lines[0][:200] if lines else type(exc).__name__


def _load_module(source: str) -> Any:
    digest = hashlib.sha256(source.encode()).hexdigest()[:24]
    name = f"cardrules_native_{digest}"
    if name in sys.modules:
        return sys.modules[name]
    folder = _private_cache_dir()
    path = folder / f"{name}.py"
    if _read_unfollowed(path) != source:
        _write_module(path, source)
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _turn_fields(M: Any, rules: Any, current: int, phase: int, frames: tuple[tuple[int, int], ...], next_seat: int,
                 direction: int, asking: Any) -> None:
    """The turn's fields of M as a Python game's state has them (engine.State): the seat to act and
    its phase, the seats acting for others, the next seat and the direction, the seats asked to act
    out of turn. (Where every seat plays at once, `act` only adds frames: M keeps their number and
    the first 4.)"""
    M[CURRENT], M[PHASE] = current, phase
    if len(frames) > 4 and not rules.simultaneous:
        raise Unsupported("a game with more than 4 seats acting for others at once")
    for i, (seat, at) in enumerate(frames[:4]):
        M[FRAMES + 2 * i], M[FRAMES + 2 * i + 1] = seat, at
    M[NFRAMES] = len(frames)
    M[NEXT_SEAT], M[DIRECTION] = next_seat, direction
    M[ASKING:ASK_AFTER + 1] = 0
    if asking is not None:  # seats asked to act out of turn: the round they are asked in
        resume, at, chosen, rest, after = asking
        n = int(M[PLAYERS])
        seats = (current, *rest)  # the seat asked, then those still to ask: on round the table
        step = (seats[1] - seats[0]) % n if len(seats) > 1 else 1
        M[ASKING:ASK_AFTER + 1] = [1, resume, at, chosen, seats[-1] if rest else current, 1 if step == 1 else -1,
                                   n - len(rest), after]


class NativeGame:
    """A game's position in flat arrays, played by the compiled module."""

    def __init__(self, native: Native, game: Any) -> None:
        rules = native.rules
        S = game.state
        ncards, npiles = len(rules.deck), rules.pile_count
        np = native.np
        self.native = native
        self.C = np.zeros((npiles, max(ncards, 1)), dtype=np.int64)
        self.N = np.zeros(npiles, dtype=np.int64)
        for p, pile in enumerate(S.piles):
            self.N[p] = len(pile)
            self.C[p, :len(pile)] = pile
        # The faces, one more entry (0) for "no card", then who knows each card (`_KNOWLEDGE`).
        self.U = np.zeros(ncards + 1 + (ncards if S.known is not None else 0), dtype=np.int64)
        self.U[:ncards] = list(S.up)
        if S.known is not None:
            self.U[ncards + 1:] = S.known
        self.V = np.array(native.variable_codes(S.vars) or [0], dtype=np.int64)
        self.O = native.options
        self.M = np.zeros(META, dtype=np.int64)
        self.M[MOVES] = len(game.history)
        self.M[MAX_MOVES] = game.max_moves if game.max_moves is not None else -1
        self.M[OVER] = int(S.over)
        self.M[PLAYERS] = game.players
        self.M[WINNERS] = -1 if S.winners is None else sum(1 << w for w in S.winners)
        _turn_fields(self.M, rules, S.current, S.phase, S.frames, S.next_seat, S.direction, S.asking)
        self.M[CHANCE], self.M[DRAWS] = (S.chance + 2 ** 63) % 2 ** 64 - 2 ** 63, S.shuffles  # (the seed in 64 bits)
        # A game over before it starts (no move at the deal) keeps the Python game's ending.
        self.ended = (S.outcome, S.reason) if S.over else None
        self.out = np.zeros(native.max_legal, dtype=np.int64)
        self.CK = np.zeros((MAX_CYCLE_POSITIONS if rules.cycle is not None else 1, ncards), dtype=np.int64)
        self.BK = np.zeros(ncards, dtype=np.int64)
        self.KEY = np.zeros(ncards, dtype=np.int64)
        self.MC = np.zeros(max(ncards, 1), dtype=np.int64)
        self.TMP = np.zeros(max(ncards, 1), dtype=np.int64)
        if game._cycle is not None:
            self._cycle_under_way(*game._cycle)
        if rules.repeat is not None:
            self._count_seen(game)
        self.stats = np.zeros(5, dtype=np.int64)  # of the last playout (Native.playout)
        self.lead = np.zeros(1, dtype=np.int64)
        self.cnt = 0 if S.over else self._call("legal", self.C, self.N, self.U, self.V, self.O, self.M, self.out)
        if self.cnt < 0:
            raise NativeStop("compiled code stopped: more legal moves than it keeps")

    def _cycle_under_way(self, seen: frozenset[Any], offered: bool) -> None:
        """The cycle of `end.cycle` under way in the Python game (`Game._cycle`): its positions
        (each card's place and face, as `position_key` keys them), or, once one of them offered
        another move, only that."""
        if offered:
            self.M[CYCLE] = CYCLE_OFFERED
            return
        if len(seen) > len(self.CK):
            raise NativeStop("compiled code stopped: too many positions in one cycle")
        cap1 = len(self.native.rules.deck) + 1
        for row, (piles, up) in enumerate(seen):
            for p, pile in enumerate(piles):
                for i, card in enumerate(pile):
                    self.CK[row, card] = (p * cap1 + i) * 2 + up[card] + 1
        self.M[CYCLE], self.M[SEEN] = CYCLE_TRACKING, len(seen)

    def _count_seen(self, game: Any) -> None:
        """`end.repeat`: a store of positions seen (in KEY) holding those the Python game has counted
        (`Game._seen`), each rebuilt in arrays and keyed by the compiled code."""
        native, np = self.native, self.native.np
        seen = [(key, times) for key, times in game._seen.items() if times > 0]
        self.KEY = repeat_store(native, max(256, 2 * len(seen)))
        for (piles, up, values, current, phase, frames, next_seat, direction, asking), times in seen:
            C, N = np.zeros_like(self.C), np.zeros_like(self.N)
            for p, pile in enumerate(piles):
                N[p] = len(pile)
                C[p, :len(pile)] = pile
            U = np.zeros_like(self.U)
            U[:len(up)] = list(up)
            V = np.array(native.variable_codes(list(values)) or [0], dtype=np.int64)
            M = self.M.copy()
            _turn_fields(M, native.rules, current, phase, frames, next_seat, direction, asking)
            self._call("repeat_seen", C, N, U, V, M, self.KEY, times)

    def repeat_room(self, more: int) -> None:
        """`end.repeat`: room in the store of positions seen for `more` more (at most
        MAX_REPEAT_POSITIONS in all: past them compiled code stops, and Python plays)."""
        if self.native.rules.repeat is None:
            return
        ncards = len(self.native.rules.deck)
        used, room = int(self.KEY[ncards]), int(self.KEY[ncards + 1])
        wanted = min(used + more, MAX_REPEAT_POSITIONS)
        if wanted > room:
            larger = repeat_store(self.native, max(wanted, min(2 * room, MAX_REPEAT_POSITIONS)))
            self._call("repeat_copy", self.KEY, larger)
            self.KEY = larger

    def _call(self, name: str, *args: Any) -> Any:
        native = self.native
        if native.fault is not None:
            raise NativeStop(native.fault)
        try:
            return getattr(native.module, name)(*args)
        except native.module.Stop as exc:
            raise NativeStop(f"compiled code stopped: {exc}") from None
        except native.numba_error as exc:  # compiled lazily, at a first call: a fault of this backend
            native.fault = f"compiled code could not be built ({name}: {_first_line(exc)})"
            raise NativeStop(native.fault) from None

    def _seat_listing(self, seat: int | None) -> tuple[Any, int]:
        """The legal moves of the seat to act, or of `seat` (in a game where every seat plays at
        once each has its own; in another, a seat not to act has none): an array and a count."""
        current = int(self.M[CURRENT])
        if seat is None or seat == current:
            return self.out, self.cnt
        if not 0 <= seat < self.M[PLAYERS]:
            raise IllegalMoveError(f"there is no seat {seat + 1}")
        if not self.native.rules.simultaneous:
            return self.out, 0
        out = self.native.np.zeros(len(self.out), dtype=self.native.np.int64)
        try:
            cnt = self._call("seat_legal", self.C, self.N, self.U, self.V, self.O, self.M, out, seat)
        finally:
            self.M[CURRENT] = current
        return out, cnt

    def focus(self, seat: int) -> None:
        """As `Game.focus`: in a game where every seat plays at once, make `seat` the seat to act
        (the one `legal_codes()` and `legal_actions()` list for). Not a move."""
        if self.native.rules.simultaneous and seat != self.M[CURRENT]:
            self.out, self.cnt = self._seat_listing(seat)
            self.M[CURRENT] = seat

    def legal_codes(self, seat: int | None = None) -> list[int]:
        """The legal moves (of the seat to act, or of `seat`) as the compiled code numbers them
        (`Native.code`), in its order."""
        out, cnt = self._seat_listing(seat)
        return [int(a) for a in out[:cnt]]

    def apply_code(self, code: int, seat: int | None = None) -> None:
        """Apply the legal move the compiled code numbers `code` (in a game where every seat plays
        at once, made by `seat`, which becomes the seat to act, if given)."""
        out, cnt = self._seat_listing(seat)
        if code not in out[:cnt]:
            raise IllegalMoveError(f"move code {code} is not legal now")
        if seat is not None and seat != self.M[CURRENT]:
            self.out, self.cnt, self.M[CURRENT] = out, cnt, seat
        self.repeat_room(1)
        self.cnt = self._call("step", self.C, self.N, self.U, self.V, self.O, self.M, self.out, self.cnt, self.CK,
                              self.BK, self.KEY, self.MC, self.TMP, code)

    def legal_actions(self, seat: int | None = None) -> list[int]:
        """The legal moves' action numbers (`actions.py`: the same as the Python backend's `Game`),
        of the seat to act or of `seat`."""
        space = self.native.rules.actions
        acting = int(self.M[CURRENT]) if seat is None else seat
        return [space.number(self.native.move_fields(code), acting) for code in self.legal_codes(seat)]

    def apply_action(self, action: int, seat: int | None = None) -> None:
        """Apply the legal move (of the seat to act, or of `seat`) whose action number is `action`."""
        action = self.native.rules.actions.check(action)
        for code, number in zip(self.legal_codes(seat), self.legal_actions(seat)):
            if number == action:
                self.apply_code(code, seat)
                return
        raise IllegalMoveError(f"action {action} is not legal now")

    @property
    def is_over(self) -> bool:
        return bool(self.M[OVER])

    @property
    def moves(self) -> int:
        """Moves made in the game (its history's length)."""
        return int(self.M[MOVES])

    @property
    def outcome(self) -> str | None:
        if self.ended is not None:
            return self.ended[0]
        return self.native.results[self.M[RESULT]] if self.M[OVER] else None

    @property
    def reason(self) -> str:
        if self.ended is not None:
            return self.ended[1]
        reason = self.native.reasons[self.M[REASON]]
        return self.native.limit_reason(self) if reason == "@limit" else reason

    @property
    def current_player(self) -> int:
        return int(self.M[CURRENT])

    def winners(self) -> list[int] | None:
        """As `Game.winners`: the seats an end condition named, else (won or over) the best scores."""
        if self.M[PLAYERS] == 1 or not self.M[OVER]:
            return None
        players = int(self.M[PLAYERS])
        if self.M[WINNERS] >= 0:
            return self.native.rules.whole_teams(players, [p for p in range(players) if self.M[WINNERS] >> p & 1])
        if self.outcome not in ("won", "over"):
            return []
        return self.native.rules.best_by_score([self.score(p) for p in range(players)])

    def score(self, player: int = 0) -> int:
        return int(self._call("score", self.C, self.N, self.U, self.V, self.O, self.M, player))

    def asking(self) -> tuple[int, int, int, tuple[int, ...], int] | None:
        """The seats asked to act out of turn, as engine.State.asking says them."""
        M = self.M
        if M[ASKING] == 0:
            return None
        n = int(M[PLAYERS])
        rest = tuple(int((M[ASK_FROM] + M[ASK_DIRECTION] * (j + 1)) % n) for j in range(int(M[ASKED]), n))
        return int(M[ASK_SEAT]), int(M[ASK_PHASE]), int(M[ASK_CHOSEN]), rest, int(M[ASK_AFTER])

    def piles(self) -> list[list[int]]:
        return [[int(c) for c in self.C[p, :self.N[p]]] for p in range(len(self.N))]

    def faces(self) -> list[int]:
        """Each card's face, 1 up (as engine.State.up)."""
        return [int(u) for u in self.U[:len(self.native.rules.deck)]]

    def known(self) -> list[int] | None:
        """By card, the seats (a bit each) that know it where they cannot see it, as
        engine.State.known (None where the ruleset keeps no such record)."""
        if not self.native.rules.tracks_knowledge:
            return None
        return [int(k) for k in self.U[len(self.native.rules.deck) + 1:]]

    def visible(self, card: int, pile: int, seat: int | None) -> bool:
        """May `seat` see `card` lying on `pile` (None: a spectator), as `Game.visible` says?"""
        return bool(self.native.module.sees(self.C, self.N, self.U, card, pile, -1 if seat is None else seat))


@dataclass(frozen=True, slots=True)
class _Fields:
    """A move's fields, as `engine.Move` has them (for `actions.ActionSpace.number`)."""

    template: int
    src: int
    count: int
    dst: int
    selection: tuple[tuple[int, int], ...]
    pick: int | tuple[int, ...] | None
    seat: int


def _int_of(value: Any) -> int:
    if value is None:
        return NO_INT
    return int(value)


class Native:
    """The native backend of one loaded ruleset (with its options)."""

    def __init__(self, rules: Any, source: str, tables: dict[str, Any]) -> None:
        import numpy

        self.np = numpy
        self.rules = rules
        self.source = source
        self.module = _load_module(source)
        from numba.core.errors import NumbaError

        # Set when Numba fails to type or lower a function of the module (a fault of the native
        # backend, never of the ruleset): every later call stops, and the Python backend plays.
        self.numba_error: type[Exception] = NumbaError
        self.fault: str | None = None
        strings = tables["strings"]
        self.strings: dict[str, int] = strings
        self.string_slots = frozenset(tables.get("string_slots", ()))
        self.results: list[str] = tables["results"]
        self.reasons: list[str] = tables["reasons"]
        values = []
        for name in rules.options:
            value = rules.option_values[name]
            values.append(strings.get(value, -2) if isinstance(value, str) else int(value))
        self.options = numpy.array(values or [0], dtype=numpy.int64)
        self.max_legal = MAX_LEGAL
        self.np1, self.cap1 = rules.pile_count + 1, len(rules.deck) + 1
        self.select_piles: dict[int, list[int]] = tables.get("select_piles", {})
        self.selection_radix = self.cap1 ** tables.get("selection_digits", 0)

    def code(self, move: Any) -> int:
        """A move's number as the compiled code lists it (sparse, with every field; the API's
        action numbers are `actions.py`'s)."""
        pick = -2 if move.pick is None else move.pick  # -1: a blind pick
        piles = self.select_piles.get(move.template, [])
        others = 0
        if isinstance(pick, tuple):  # `take: {any: K}`: the first card, then the others as digits after the select's
            pick, others = pick[0], sum(card * self.cap1 ** (len(piles) + i) for i, card in enumerate(pick[1:]))
        number = (((((move.template * self.np1 + move.src + 1) * self.np1 + move.dst + 1) * self.cap1 + move.count)
                   * (self.cap1 + 1) + pick + 2) * _seat_radix(self.rules) + move.seat + 1)
        selection = sum(count * self.cap1 ** piles.index(pile) for pile, count in move.selection)
        return number * self.selection_radix + selection + others

    def move_fields(self, code: int) -> _Fields:
        """The move the compiled code numbers `code`, field by field (the inverse of `code`)."""
        code, selection = divmod(code, self.selection_radix)
        code, seat = divmod(code, _seat_radix(self.rules))
        code, pick = divmod(code, self.cap1 + 1)
        code, count = divmod(code, self.cap1)
        code, dst = divmod(code, self.np1)
        template, src = divmod(code, self.np1)
        piles = self.select_piles.get(template, [])
        chosen = tuple((pile, selection // self.cap1 ** i % self.cap1) for i, pile in enumerate(piles))
        picks = self.rules.moves[template].picks
        picked: int | tuple[int, ...] | None = None if pick == 0 else pick - 2
        if picks > 1 and pick > 0:  # `take: {any: K}`: the other cards are the selection's digits after the select's
            picked = (pick - 2, *(selection // self.cap1 ** (len(piles) + i) % self.cap1 for i in range(picks - 1)))
        return _Fields(template, src - 1, count, dst - 1, tuple(c for c in chosen if c[1]), picked, seat - 1)

    def variable_codes(self, values: list[Any]) -> list[int]:
        """Variables' values as the compiled code holds them: numbers, truth values as 0 / 1, a
        string as its id (NO_STR for none), none as NO_INT."""
        return [(NO_STR if v is None else self.strings.get(v, -2)) if slot in self.string_slots else _int_of(v)
                for slot, v in enumerate(values)]

    def start(self, game: Any) -> NativeGame:
        """The native copy of a Python game's position (a fresh game, or any between moves)."""
        return NativeGame(self, game)

    def limit_reason(self, game: NativeGame) -> str:
        return f"the move limit ({game.M[MAX_MOVES]}) was reached"

    def playout(self, game: NativeGame, seed: int | list[int], kinds: str | list[str] = "random") -> \
            tuple[int, int, int, int]:
        """Play `game` to its end as `bots.RandomBot(seed)` (or `bots.GreedyBot(seed)`, for `kinds`
        "greedy") would at every seat, or with `seed` and `kinds` lists, as the bot of kind
        kinds[s] seeded seed[s] at seat s: the same moves, from the same Mersenne Twister draws.
        Returns seat 0's final score, the decisions, the legal moves summed over them and the
        decisions that had a choice (`game.stats` has the turns, lead changes and leaders after
        every move too). Raises `NativeStop` where compiled code met an error: the Python backend,
        playing the same game, then says what it is."""
        if self.rules.simultaneous:
            raise ValueError("every seat plays at once: scheduled_playout plays such a game, on the clock")
        seeds = seed if isinstance(seed, list) else [seed] * int(game.M[PLAYERS])
        mt, seat_kinds, work, lead = self._bots(game, seeds, kinds)
        game.repeat_room(self._moves_left(game))
        stats = self.np.zeros(5, dtype=self.np.int64)
        score = int(game._call("playout", game.C, game.N, game.U, game.V, game.O, game.M, game.out, game.CK,
                               game.BK, game.KEY, game.MC, game.TMP, mt, seat_kinds, work, stats, lead))
        game.stats, game.lead = stats, lead
        return score, int(stats[0]), int(stats[1]), int(stats[2])

    def scheduled_playout(self, game: NativeGame, seeds: list[int], clock_seed: int, speeds: list[float],
                          jitter: float, kinds: str | list[str] = "random") -> tuple[int, int, int, int]:
        """Play `game`, where every seat plays at once, to its end as `simulate.play_game` does with a
        `scheduler.Scheduler(game, bots, clock_seed, speeds)` and at each seat s a bot of kind
        kinds[s] (random or greedy) seeded seeds[s]: the same moves landed and refused, in the same
        order of time. Returns the decisions, the legal moves summed over them, the decisions that
        had a choice and the moves refused (`game.stats` has the moves landed and lead changes too,
        `game.lead` the leaders after every move). Raises as `playout`."""
        np = self.np
        mt, seat_kinds, work, lead = self._bots(game, seeds, kinds)
        game.repeat_room(self._moves_left(game))
        clock = np.array([random.Random(f"{clock_seed}/{s}").getstate()[1] for s in range(int(game.M[PLAYERS]))],
                         dtype=np.int64)
        stats = np.zeros(6, dtype=np.int64)
        game._call("scheduled_playout", game.C, game.N, game.U, game.V, game.O, game.M, game.out, game.CK, game.BK,
                   game.KEY, game.MC, game.TMP, mt, clock, seat_kinds, work, np.array(speeds, dtype=np.float64),
                   float(jitter), stats, lead)
        game.cnt = 0 if game.M[OVER] else game._call("seat_legal", game.C, game.N, game.U, game.V, game.O, game.M,
                                                     game.out, int(game.M[CURRENT]))
        game.stats, game.lead = stats, lead
        return int(stats[0]), int(stats[1]), int(stats[2]), int(stats[5])

    @staticmethod
    def _moves_left(game: NativeGame) -> int:
        """The moves a playout may still make (its positions to keep, for `end.repeat`)."""
        if game.M[MAX_MOVES] >= 0:
            return int(game.M[MAX_MOVES] - game.M[MOVES])
        return MAX_REPEAT_POSITIONS

    def _bots(self, game: NativeGame, seeds: list[int], kinds: str | list[str]) -> tuple[Any, Any, Any, Any]:
        """What a playout's bots need: each seat's Mersenne Twister (`random.Random(seed)`'s state),
        its kind of bot as compiled code numbers it, the arrays the greedy bot works in (None
        without greedy seats: then the greedy bot's code is left out of what compiles), and the
        array of the leaders after every move."""
        np = self.np
        players = int(game.M[PLAYERS])
        kinds = kinds if isinstance(kinds, list) else [kinds] * players
        if any(kind not in SEAT_KINDS for kind in kinds):
            raise ValueError(f"native playouts play {' and '.join(SEAT_KINDS)} seats, not {kinds}")
        mt = np.array([random.Random(s).getstate()[1] for s in seeds], dtype=np.int64)
        seat_kinds = np.array([SEAT_KINDS.index(kind) for kind in kinds], dtype=np.int64)
        work = game._call("greedy_work", game.C, game.N, game.U, game.V, game.M, len(game.out)) \
            if "greedy" in kinds else None
        length = (int(game.M[MAX_MOVES]) if game.M[MAX_MOVES] >= 0 else 100_000) + 1
        lead = np.zeros(length if players > 1 else 1, dtype=np.int64)
        return mt, seat_kinds, work, lead


def native_backend(rules: Any) -> Native:
    """The native backend of a loaded ruleset; raises `Unsupported` (saying what and where) when
    Numba is missing or the ruleset uses a construct the backend does not cover."""
    cached = rules.backends.get("native")  # kept with the ruleset, for as long as it lives
    if cached is not None:
        if cached[1] is not None:
            raise cached[1]
        assert cached[0] is not None
        return cached[0]
    try:
        if not native_available():
            raise Unsupported("Numba is not installed (pip install 'cardrules[native]')")
        source, tables = lower(rules)
        backend: Native | None = Native(rules, source, tables)
        problem = None
    except Unsupported as exc:
        backend, problem = None, exc
    rules.backends["native"] = (backend, problem)
    if problem is not None:
        raise problem
    assert backend is not None
    return backend


class Mismatch(CardrulesError):
    """The two backends disagree (a bug of the native backend): what differs, and after which moves."""


def compare(native: Native, game: Any, choose: Callable[[list[Any]], Any],
            choose_seat: Callable[[list[int]], int] | None = None, views: bool = False) -> int:
    """Play `game` to its end through both backends at once, `choose` picking each move among the
    Python backend's legal moves, and compare them at every step: the legal moves (as the compiled
    code numbers them, in order, and as the API's action numbers), the piles, faces, who knows
    which card, variables and the order of the turns, then the outcome, reason and score (with
    `views`, which cards each seat and a spectator see, too). Returns the moves played; raises
    `Mismatch` at the first difference.

    Where every seat plays at once, every seat's legal moves are compared, and at each step
    `choose_seat` (default: a generator seeded with the game's seed) picks a seat to focus, then the
    seat that moves among those that have a move."""
    position = native.start(game)
    steps = 0
    if choose_seat is None:
        choose_seat = random.Random(game.seed).choice

    def check(what: str, python: Any, compiled: Any) -> None:
        if python != compiled:
            raise Mismatch(f"after {steps} moves of seed {game.seed}: {what} differ: "
                           f"python {python!r:.200}, native {compiled!r:.200}")

    simultaneous = native.rules.simultaneous
    while True:
        compare_listing(native, game, position, check)
        if game.is_over:
            break
        if simultaneous:  # focus a seat (not a move), then a seat that has a move makes one
            focus = choose_seat(list(range(game.players)))
            game.focus(focus)
            position.focus(focus)
            legal = game.legal_moves(choose_seat([s for s in range(game.players) if game.legal_moves(s)]))
        else:
            legal = game.legal_moves()
        move = choose(legal)
        game.apply(move)
        position.apply_code(native.code(move), move.actor if simultaneous else None)
        steps += 1
        compare_position(native, game, position, check, views)
    compare_ending(game, position, check)
    return steps


Check = Callable[[str, Any, Any], None]  # check(what, python's, native's): raises Mismatch where they differ


def compare_listing(native: Native, game: Any, position: NativeGame, check: Check) -> None:
    """`compare`'s test of a position's legal moves (as the compiled code numbers them, in order,
    and as action numbers; where every seat plays at once, each seat's) and of whether it ends."""
    check("the legal moves", [native.code(m) for m in game.legal_moves()], position.legal_codes())
    check("the action numbers", game.legal_actions(), position.legal_actions())
    for seat in range(game.players) if native.rules.simultaneous else ():
        check(f"seat {seat + 1}'s legal moves", [native.code(m) for m in game.legal_moves(seat)],
              position.legal_codes(seat))
        check(f"seat {seat + 1}'s action numbers", game.legal_actions(seat), position.legal_actions(seat))
    check("the end", game.is_over, position.is_over)


def compare_position(native: Native, game: Any, position: NativeGame, check: Check, views: bool = False) -> None:
    """`compare`'s test after a move: the piles, faces, who knows which card, variables, the order of
    the turns, the draws of chance made (with `views`, which cards each seat and a spectator see)."""
    check("the piles", [list(p) for p in game.state.piles], position.piles())
    check("the faces", list(game.state.up), position.faces())
    check("the cards known to seats", game.state.known, position.known())
    check("the variables", native.variable_codes(game.state.vars), [int(v) for v in position.V[:len(game.state.vars)]])
    check("the seat to act, its phase and the turns' order", (game.state.current, game.state.phase,
          game.state.next_seat, game.state.direction), (int(position.M[CURRENT]), int(position.M[PHASE]),
          int(position.M[NEXT_SEAT]), int(position.M[DIRECTION])))
    check("the seats asked to act out of turn", game.state.asking, position.asking())
    check("the draws of chance made", game.state.shuffles, int(position.M[DRAWS]))
    for seat in (None, *range(game.players)) if views else ():
        check(f"the cards seen by {'a spectator' if seat is None else f'seat {seat + 1}'}",
              [[c for c in pile if game.visible(c, p, seat)] for p, pile in enumerate(game.state.piles)],
              [[c for c in pile if position.visible(c, p, seat)] for p, pile in enumerate(position.piles())])


def compare_ending(game: Any, position: NativeGame, check: Check) -> None:
    """`compare`'s test of a finished game: the outcome, reason, winners and every seat's score."""
    check("the outcomes", (game.outcome, game.reason), (position.outcome, position.reason))
    check("the winners", game.winners(), position.winners())
    check("the scores", game.scores(), [position.score(p) for p in range(game.players)])
