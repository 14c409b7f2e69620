"""Lowering, part 1: what an expression's names mean in compiled code: the ruleset's variables,
options, zones and seats, their slots and kinds, and the names a move binds (`move_env`).
"""

from __future__ import annotations

from typing import Any

from ..front.compile_types import ANY, BOOL, INT, STR
from ..front.parser import Node, ParseError, parse_loop
from ..front.typed import Typed
from .values import LOOPED, NONE_CODES, Unsupported, _Val, _int


_OPTION_TYPES = {frozenset({bool}): BOOL, frozenset({int}): INT, frozenset({str}): STR}


class _Scope:
    """The names of one checked ruleset in compiled code (the base of `_Emitter`)."""

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
        # The checker's type of each option, a value given when the game starts (front/checker.py)
        self.option_kinds = {name: _OPTION_TYPES.get(frozenset(type(v) for v in option.values), ANY)
                             for name, option in rules.options.items()}
        self.slot_names = {slot: name for name, (slot, _, _) in front.scope.variables.items()}
        self.slot_names.update({slot: name for name, (slot, _) in front.scope.card_variables.items()})
        self.zone_arrays = {zone.piles: name for name, zone in rules.zones.items()
                            if zone.seat_piles is None and not zone.single}  # a zone's piles -> its array Z_<zone>
        self.path: tuple[Any, ...] = ()
        # Card attributes that are lists of strings, as bit masks of the strings' ids (numbered
        # first, so that they fit in 63 bits); NO_MASK for no card.
        self.kinds: dict[str, str] = {}
        self.select_piles: dict[int, list[int]] = {}  # the piles each move's `select` chooses from
        # Variables whose kind is being found: None while values that read it are left out, else
        # the kind it is supposed to have (its values checked against it)
        self.inferring: dict[str, str | None] = {}
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

    def checked(self, value: _Val) -> str:
        """Code for an int (or a pile) that must not be `none` here (arithmetic, ordering, a pile
        read)."""
        return f"ck({value.code})" if value.maybe_none else value.code

    def as_type(self, value: _Val, type_: str) -> _Val:
        if value.type != "none":
            return value
        if type_ == "bool":  # (a truth value is never none: a code it never takes)
            return _Val("bool", "NO_INT", None, True, maybe_none=True)
        if type_ not in NONE_CODES:
            raise self.no(f"none where {type_} is")
        return _Val(type_, NONE_CODES[type_], None, True, maybe_none=True)

    def cards_of(self, pile: _Val) -> _Val:
        """A pile's cards, bottom first, as a window of its row."""
        code = self.checked(pile)
        return _Val("cards", arr=f"C[{code}]", lo="0", hi=f"N[{code}]", container="list")

    def choice_codes(self, template: Any, j: int) -> list[int]:
        """The values a `choose` move's `j`-th name takes in each combination, as the compiled code
        holds them: numbers (seats too), or strings' ids."""
        return [self.sid(values[j]) if isinstance(values[j], str) else values[j] for values in template.choices]

    def choice(self, template: Any, j: int) -> _Val:
        """The value of a `choose` move's `j`-th name: the combination's index is the move's b_target."""
        code = f"CH_{template.index}_{j}[b_target]"
        return _Val("str", code) if isinstance(template.choices[0][j], str) else _int(code)

    def team(self, seat: str) -> str:
        """Code for the team of the seat `seat` (code): the `teams.of` expression."""
        params, body = self.functions["team"]
        return self.checked(self.expr(body, {params[0]: _int(seat)}, "int"))

    def variable(self, name: str, seat: str) -> _Val:
        """A variable's value; for a per-player variable, seat `seat`'s (code; one of the game's seats, else
        compiled code stops)."""
        variable = self.rules.variables[name]
        slot = f"{variable.slot}" if not seat else f"{variable.slot} + seat_of(M, {seat})"
        kind = self.inferring.get(name) if name in self.inferring else self.var_kind(name)
        if kind is None:
            raise self.no(f"the variable '{name}' while its kind is being found")
        if kind == "bool":
            return _Val("bool", f"(V[{slot}] != 0)")
        if kind == "card":  # (none is NOCARD, whose attributes are none, as a card's value may be)
            return _Val("card", f"V[{slot}]")
        return _Val(kind, f"V[{slot}]", maybe_none=True)

    def mark(self, name: str, card: str, may_be_none: bool) -> _Val:
        """A per-card variable's value on the card `card` (code), which may be no card (NOCARD): then
        none, which the slot after the deck's holds."""
        variable = self.rules.variables[name]
        kind = self.var_kind(name)
        code = f"V[{variable.slot} + {card}]"
        if kind == "bool":
            if may_be_none:
                raise self.no(f"the truth value '{name}' of what may be no card (compiled truth values are never none)")
            return _Val("bool", f"({code} != 0)")
        return _Val(kind, code, maybe_none=may_be_none)

    def move_env(self, template: Any, applying: bool) -> dict[str, _Val]:
        env: dict[str, _Val] = {"player": _int("b_player"),
                                "move": _Val("str", repr(self.sid(template.name)), template.name, True)}
        if applying and "for_seat" in self.value_at(("moves", template.name)):
            env["target"] = _int("b_target")
        if applying:
            env.update({name: self.choice(template, j) for j, name in enumerate(template.choice_names)})
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
        """The kinds of the values `set` effects give the variable `name` ("?" for a value this
        backend cannot lower, or that reads a variable whose kind is still being found)."""
        found: list[str] = []
        saved = self.path

        def walk(path: tuple[Any, ...], env: dict[str, _Val]) -> None:
            effects = self.value_at(path)
            for i, spec in enumerate(effects if isinstance(effects, list) else []):
                if not isinstance(spec, dict):
                    continue
                inner = self._named_in(spec, path + (i,), env)
                for key, sub in spec.items():
                    if key in ("set", "random") and isinstance(sub, dict) and name in sub:
                        try:
                            kind = self.expr(self.parse(path + (i, key, name)), env).type
                            found.append(kind if key == "set" else {"cards": "card", **LOOPED}.get(kind, "?"))
                        except Unsupported:
                            found.append("?")
                    elif key in ("then", "else", "do"):
                        walk(path + (i, key), inner if key == "do" else env)

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

    def _named_in(self, spec: dict[str, Any], path: tuple[Any, ...], env: dict[str, _Val]) -> dict[str, _Val]:
        """The names an effect's `do` sees beside `env`: a `for`'s item, a `with`'s values, each of the
        kind it holds (a value this backend cannot lower leaves its name out, so what reads it is "?")."""
        inner = dict(env)
        try:
            if isinstance(spec.get("for"), str):
                loop = parse_loop(spec["for"])
                items = self.expr(loop.iterable, env)
                inner[loop.names[0]] = _Val(LOOPED.get(items.type, "card"), "x")
            for key in spec.get("with") or {}:
                inner[key] = _Val(self.expr(self.parse(path + ("with", key)), env).type, "x")
        except (Unsupported, ParseError):
            pass
        return inner

    def var_kind(self, name: str) -> str:
        """A variable's kind (int, bool, str, pile or card): what it starts with, else what is set into it."""
        kind = self.kinds.get(name)
        if kind is None:
            kind = self.kinds[name] = self._var_kind(name)
        return kind

    def _var_kind(self, name: str) -> str:
        if name in self.front.scope.card_variables:  # a mark: typed by the front end (a number, truth value, string)
            return str(self.front.scope.card_variables[name][1])
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
        if name not in self.inferring:  # a variable that starts as a string, a pile, a card or none: the
            self.inferring[name] = None  # values set into it (those that do not read it)
            try:
                found = {kind for kind in self.assigned_kinds(name) if kind not in ("none", "?")} | ({starts} - {"none"})
                if not found:  # every value set reads it: the first kind they all give, supposing it has it
                    for kind in ("int", "str", "pile", "card"):  # (compiled truth values are never none)
                        self.inferring[name] = kind
                        if set(self.assigned_kinds(name)) <= {kind, "none"}:
                            found = {kind}
                            break
            finally:
                del self.inferring[name]
            if found == {"bool"} and starts == "none":
                raise self.no(f"the variable '{name}' (a truth value or none: compiled truth values are never none)",
                              ("variables", name))
            if len(found) == 1 and found <= {"int", "pile", "bool", "str", "card"}:  # a string: its id
                return found.pop()
        raise self.no(f"the variable '{name}' (it holds values of several kinds, or lists)", ("variables", name))

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

    # (expressions.py)
    def expr(self, node: Node, env: dict[Any, _Val], want: str | None = None) -> _Val:
        raise NotImplementedError

    def lower(self, typed: Typed, env: dict[Any, _Val]) -> _Val:
        raise NotImplementedError

    def written_items(self, typed: Typed, env: dict[Any, _Val]) -> list[_Val] | None:
        raise NotImplementedError

    def _number(self, typed: Typed, env: dict[Any, _Val]) -> str:
        raise NotImplementedError

    def _constant(self, value: Any) -> _Val:
        raise NotImplementedError

    def _items(self, value: _Val) -> _Val:
        raise NotImplementedError

    def _truth(self, typed: Typed, env: dict[Any, _Val]) -> _Val:
        raise NotImplementedError
