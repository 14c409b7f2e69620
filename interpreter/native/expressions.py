"""Lowering, part 2: an expression to array code (`_Emitter.expr`).

The front end's checker (front/checker.py) makes the expression a typed tree (front/typed.py):
names resolved, types checked, constants folded, ruleset functions written out, run-time checks as
nodes of their own, with the ruleset's options as values given when the game starts (one module
serves every option combination). This module writes array code from that tree, one writer per
kind of node (`_LOWER`), each failing where the Python backend fails (docs/native.md, "Errors").
It decides nothing the tree says; what the tree does not say is how a value is held in compiled
code (a list's kind of item, a window of a pile's row, a variable's kind): that is the `_Val` each
writer returns, and a value this backend cannot hold is `Unsupported` (the Python backend plays).
"""

from __future__ import annotations

from typing import Any, Callable

from ..base.limits import INT_MAX, INT_MIN
from ..front.checker import Checker
from ..front.compile_types import ANY, BOOL, CARD, CARDS, INT, LIST, NONE, PILE, PILES, STR, CompileError, Scope
from ..front.parser import Node
from ..front.typed import Typed
from .lists import Env, _Lists, array_of, folded_range
from .values import EMPTY, ITEMS, LISTS, NONE_CODES, _Val, _array, _int

# What stands for `none` in compiled code, by kind of value (a truth value is never none: a code
# it never takes).
_NONE_CODES = {**NONE_CODES, "bool": "NO_INT"}

# The checker's type of a value compiled code holds (a name the lowering binds: the move's card, ...)
_STATIC = {"int": INT, "bool": BOOL, "str": STR, "card": CARD, "pile": PILE, "piles": PILES, "cards": CARDS,
           "none": NONE, "int_list": LIST, "str_list": LIST, "bool_list": LIST, "range": LIST, "seats": LIST}

# What `want` asks of a whole expression, as the checker's expected types.
_EXPECT = {"bool": (BOOL,), "int": (INT,)}


class _Emitter(_Lists):
    """Lowers one checked ruleset to the source of a Numba module: its expressions."""

    def expr(self, node: Node, env: Env, want: str | None = None) -> _Val:
        value = self.lower(self.typed(node, env, want), env)
        if want == "bool" and value.type != "bool":
            raise self.no(f"a truth value was expected, got {value.type}")
        if want == "int" and value.type not in ("int",):
            raise self.no(f"a number was expected, got {value.type}")
        if want == "card" and value.type == "none":
            return _Val("card", "NOCARD")
        return value

    def typed(self, node: Node, env: Env, want: str | None = None) -> Typed:
        """The front end's typed tree of `node`, its names those `env` binds (with the ruleset's
        own: players, seats, ...) and the options run-time values."""
        base = self.front.scope
        bindings = dict(base.bindings)
        for name, value in env.items():
            if isinstance(name, str):
                bindings[name] = (value.code, _STATIC.get(value.type, ANY))
        scope = Scope(bindings, base.variables, base.zones, {}, base.card_attributes, base.functions,
                      option_kinds=self.option_kinds, card_variables=base.card_variables)
        try:
            return Checker(scope).check_whole(node, _EXPECT.get(want or ""))
        except CompileError as exc:  # (the Python backend, options folded, accepted it)
            raise self.no(f"with options as values given at the start: {exc.message}") from None

    def lower(self, typed: Typed, env: Env) -> _Val:
        return _LOWER[typed.kind](self, typed, env)

    # -- constants and names ------------------------------------------------------------------

    def _const(self, typed: Typed, env: Env) -> _Val:
        if not isinstance(typed.value, tuple):
            return self._constant(typed.value)
        if folded_range(typed):  # numbers lo up to hi
            numbers = typed.value
            lo, hi = (numbers[0], numbers[-1] + 1) if numbers else (0, 0)
            return _Val("range", lo=repr(lo), hi=repr(hi))
        return self._written([self._constant(v) for v in typed.value])

    def _constant(self, v: Any) -> _Val:
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

    def _pile(self, typed: Typed, env: Env) -> _Val:
        return _Val("pile", repr(typed.info), typed.info, True)

    def _piles(self, typed: Typed, env: Env) -> _Val:
        """A zone's piles, or a part of them known at load: as the zone's array, else an array of
        its own (Numba cannot loop over an empty tuple)."""
        piles = typed.value
        zone = self.zone_arrays.get(piles)
        code = f"Z_{zone}" if zone is not None else _array(piles) if piles else EMPTY
        return _Val("piles", code, piles, True, container="tuple")

    def _binding(self, typed: Typed, env: Env) -> _Val:
        name = typed.info
        if name in env:
            return env[name]
        if name == "players":
            return _int("M[12]")
        if name == "seats":
            return _Val("seats", "M[12]")
        if name == "phase":
            return _Val("str", "PHASE_NAMES[M[11]]")
        if name == "direction":
            return _int("M[27]")
        raise self.no(f"the name '{name}'")

    def _variable(self, typed: Typed, env: Env) -> _Val:
        slot, per_player = typed.info
        return self.variable(self.slot_names[slot], env["player"].code if per_player else "")

    def _seat_variable(self, typed: Typed, env: Env) -> _Val:
        return self.variable(self.slot_names[typed.info], self.checked(self.lower(typed.args[0], env)))

    def _seat_zone(self, typed: Typed, env: Env) -> _Val:
        return self.seat_zone(typed.info, env["player"].code)

    def _zone_of(self, typed: Typed, env: Env) -> _Val:
        return self.seat_zone(typed.info, self.checked(self.lower(typed.args[0], env)))

    def _item(self, typed: Typed, env: Env) -> _Val:
        return env[("item", typed.info)]

    def _param(self, typed: Typed, env: Env) -> _Val:
        return env[("param", id(typed.info[1]))]

    def _inline(self, typed: Typed, env: Env) -> _Val:
        """A ruleset function written out: its arguments' code stands for its parameters."""
        inner = dict(env)
        for argument in typed.args[:-1]:
            inner[("param", id(argument))] = self.lower(argument, env)
        return self.lower(typed.args[-1], inner)

    def _option(self, typed: Typed, env: Env) -> _Val:
        return self.option(typed.info)

    def _same(self, typed: Typed, env: Env) -> _Val:
        return self.lower(typed.args[0], env)

    # -- attributes and run-time checks -------------------------------------------------------

    def _face_up(self, typed: Typed, env: Env) -> _Val:
        card = self.as_type(self.lower(typed.args[0], env), "card")
        if card.type != "card":
            raise self.no(f"the attribute 'face_up' of {card.type}")
        if typed.info == "item":  # (a comprehension's card may be none: the Python backend fails there)
            return _Val("bool", f"item_face_up(U, {card.code}, NOCARD)")
        return _Val("bool", f"(U[{card.code}] == 1)")

    def _card_attr(self, typed: Typed, env: Env) -> _Val:
        obj = self.lower(typed.args[0], env)
        name = typed.info
        if obj.type not in ("card", "none"):
            raise self.no(f"the attribute '{name}' of {obj.type}")
        card = self.as_type(obj, "card").code
        kind = self.rules.deck.attributes.get(name)
        if kind == "list" and name in self.masks:
            return _Val("strs", f"A_{name}[{card}]")
        if kind == "list" and name in self.int_masks:
            return _Val("ints", f"A_{name}[{card}]", self.int_masks[name][1])
        if kind == "int":
            return _int(f"A_{name}[{card}]", maybe_none=True)
        if kind == "str":
            return _Val("str", f"A_{name}[{card}]")
        raise self.no(f"the card attribute '{name}'")

    def _card_variable(self, typed: Typed, env: Env) -> _Val:
        obj = self.lower(typed.args[0], env)
        if obj.type not in ("card", "none"):
            raise self.no(f"a per-card variable of {obj.type}")
        card = self.as_type(obj, "card").code
        return self.mark(self.slot_names[typed.info], card, typed.args[0].none or obj.type == "none")

    def _pile_attr(self, typed: Typed, env: Env) -> _Val:
        obj = self.lower(typed.args[0], env)
        if obj.type != "pile":
            raise self.no(f"the attribute '{typed.info}' of {obj.type}")
        pile = self.checked(obj)
        if typed.info == "zone":
            return _Val("str", f"PILE_ZONE[{pile}]")
        return _int(f"PILE_{typed.info.upper()}[{pile}]")

    def _check(self, typed: Typed, env: Env) -> _Val:
        """A value whose kind the checker could not know, checked as the Python backend checks it:
        compiled code knows its kind (else the construct is not covered), and stops on `none`
        where a number or a pile is wanted."""
        value = self.lower(typed.args[0], env)
        kind = typed.info
        if kind in ("int", "pile") and value.type == kind:
            return _Val(value.type, self.checked(value))
        if kind == "bool" and value.type == "bool" or kind == "str" and value.type == "str" and not value.maybe_none:
            return value
        if kind == "card" and value.type in ("card", "none"):
            return self.as_type(value, "card")
        if kind == "list" and value.type in ("cards", "piles", "range", "seats", *LISTS):
            return value
        raise self.no(f"{kind} expected, got {value.type}")

    def _through(self, typed: Typed, env: Env) -> _Val:
        """`loose`, `container`, `iterate`: nothing to check here (what uses the value checks it)."""
        return self.lower(typed.args[0], env)

    # -- numbers ------------------------------------------------------------------------------

    def _number(self, typed: Typed, env: Env) -> str:
        value = self.lower(typed, env)
        if value.type != "int":
            raise self.no(f"a number was expected, got {value.type}")
        return self.checked(value)

    def _abs(self, typed: Typed, env: Env) -> _Val:
        return _int(f"abs({self._number(typed.args[0], env)})")

    def _range(self, typed: Typed, env: Env) -> _Val:
        bounds = [self._number(a, env) for a in typed.args]
        lo, hi = ("0", bounds[0]) if len(bounds) == 1 else (bounds[0], bounds[1])
        return _Val("range", lo=lo, hi=f"range_end({lo}, {hi})")

    def _best(self, typed: Typed, env: Env) -> _Val:
        parts = [self._number(a, env) for a in typed.args]
        code = parts[0]
        for part in parts[1:]:
            code = f"{typed.info}({code}, {part})"
        return _int(code)

    def _best_of(self, typed: Typed, env: Env) -> _Val:
        """min or max of a list built by list(...)."""
        arg = self.lower(typed.args[0], env)
        func = typed.info
        if arg.type == "str_list":  # by the strings' order, not their ids
            self.orders_strings = True
            return _Val("str", f"str_best({arg.code}, {func == 'max'})")
        if arg.type == "ints":  # a card's list of numbers, as a mask
            return _int(f"mask_best({arg.code}, {arg.value}, {func == 'max'})", maybe_none=True)
        if arg.type != "int_list":
            raise self.no(f"{func}() of {arg.type}")
        return _int(f"list_best({arg.code}, {func == 'max'})", maybe_none=True)

    def _sorted(self, typed: Typed, env: Env) -> _Val:
        """sorted() of a list of numbers or strings (the strings by Python's order): a new array."""
        arg = self._items(self.lower(typed.args[0], env))
        if arg.type == "int_list":
            return _Val("int_list", f"sort_ints({arg.code})", container="list")
        if arg.type == "str_list":
            self.orders_strings = True
            return _Val("str_list", f"sort_strings({arg.code}, STR_RANK)", container="list")
        raise self.no(f"sorted() of {arg.type}")

    def _unique(self, typed: Typed, env: Env) -> _Val:
        """unique() of a list, cards or piles: a new array of the items without repeats."""
        arg = self._items(self.lower(typed.args[0], env))
        if arg.type == "cards":
            items = f"unique_of({array_of(arg)})"
            return _Val("cards", arr=items, lo="0", hi=f"len({items})", container="list")
        if arg.type == "piles" or arg.type in LISTS:
            return _Val(arg.type, f"unique_of({arg.code})", container="list")
        raise self.no(f"unique() of {arg.type}")

    def _index_of(self, typed: Typed, env: Env) -> _Val:
        """index() of an item among a list's, cards or piles: where it first is, none where it is not."""
        items = self._items(self.lower(typed.args[0], env))
        item = self.lower(typed.args[1], env)
        if items.type not in ITEMS:
            raise self.no(f"index() of {items.type}")
        kind = ITEMS[items.type]
        if item.type == "none":
            item = self.as_type(item, kind)
        if item.type != kind:  # (a value of another kind is never equal: none, as Python finds)
            raise self.no(f"index() of a {item.type} among {items.type}")
        code = f"(1 if {item.code} else 0)" if kind == "bool" else item.code
        return _int(f"index_in({array_of(items)}, {code})", maybe_none=True)

    def _list_fold(self, typed: Typed, env: Env) -> _Val:
        arg = self.lower(typed.args[0], env)
        if typed.info != "sum" or arg.type != "int_list":
            raise self.no(f"{typed.info}() of {arg.type}")
        return _int(f"list_sum({arg.code})")

    def _disjoint(self, typed: Typed, env: Env) -> _Val:
        """`disjoint(groups)` as a value (a comprehension walks it itself): its choices, bit masks of the groups."""
        groups = self.lower(typed.args[0], env)
        if groups.type != "groups":
            raise self.no(f"disjoint() of {groups.type}")
        return _Val("choices", f"disjoint_choices({groups.code})", arr=groups.code)

    def _plus(self, typed: Typed, env: Env) -> _Val:
        """`+` of two values of kinds the checker could not know: numbers added, lists joined, as
        the kinds lowered say."""
        if self.lower(typed.args[0], env).type == "int":
            return self._arith(typed.copy(info="+"), env)
        return self._join(typed, env)

    def _arith(self, typed: Typed, env: Env) -> _Val:
        left, right = (self.lower(a, env) for a in typed.args)
        op = typed.info
        if left.type != "int" or right.type != "int":
            raise self.no(f"'{op}' on {left.type} and {right.type}")
        if left.const and right.const and op in ("+", "-", "*"):
            value = {"+": left.value + right.value, "-": left.value - right.value, "*": left.value * right.value}[op]
            if INT_MIN <= value <= INT_MAX:  # (else computed in play, where it stops)
                return _Val("int", repr(value), value, True)
        function = {"+": "add", "-": "sub", "*": "mul", "/": "div", "%": "mod", "**": "power"}[op]
        return _int(f"{function}({self.checked(left)}, {self.checked(right)})")

    def _neg(self, typed: Typed, env: Env) -> _Val:
        operand = self.lower(typed.args[0], env)
        if operand.type != "int":
            raise self.no(f"'-' on {operand.type}")
        if operand.const:
            return _Val("int", repr(-operand.value), -operand.value, True)
        return _int(f"neg({self.checked(operand)})")

    # -- truth values -------------------------------------------------------------------------

    def _truth(self, typed: Typed, env: Env) -> _Val:
        value = self.lower(typed, env)
        if value.type != "bool":
            raise self.no(f"a truth value was expected, got {value.type}")
        return value

    def _not(self, typed: Typed, env: Env) -> _Val:
        operand = self._truth(typed.args[0], env)
        if operand.const:
            return _Val("bool", repr(not operand.value), not operand.value, True)
        return _Val("bool", f"(not {operand.code})")

    def _logic(self, typed: Typed, env: Env) -> _Val:
        op = typed.kind
        left = self._truth(typed.args[0], env)
        if left.const:
            if bool(left.value) == (op == "and"):
                return self._truth(typed.args[1], env)
            return left
        right = self._truth(typed.args[1], env)
        return _Val("bool", f"({left.code} {op} {right.code})")

    def _ternary(self, typed: Typed, env: Env) -> _Val:
        condition = self._truth(typed.args[0], env)
        if condition.const:
            return self.lower(typed.args[1] if condition.value else typed.args[2], env)
        then, otherwise = self.lower(typed.args[1], env), self.lower(typed.args[2], env)
        types = {then.type, otherwise.type}
        kind = next((k for k in ("card", "int", "str") if types <= {k, "none"}), None)  # (none alone: a card)
        if kind is None and types <= {"pile", "none"}:
            kind = "pile"
        elif kind is None and types != {"bool"}:
            raise self.no("a conditional whose branches have different kinds of value")
        type_ = kind or "bool"
        if kind is not None:
            then, otherwise = self.as_type(then, kind), self.as_type(otherwise, kind)
        return _Val(type_, f"({then.code} if {condition.code} else {otherwise.code})",
                    maybe_none=then.maybe_none or otherwise.maybe_none or "none" in types)

    def _compare(self, typed: Typed, env: Env) -> _Val:
        op = typed.info
        left, right = (self.lower(a, env) for a in typed.args)
        if op in ("<", "<=", ">", ">="):
            if left.type != "int" or right.type != "int":
                raise self.no(f"ordering {left.type} and {right.type}")
            return _Val("bool", f"({self.checked(left)} {op} {self.checked(right)})")
        types = {left.type, right.type}
        if "none" in types:
            other = left if right.type == "none" else right
            if other.type == "none":
                return self._answer(left, right, op == "==")
            left, right = self.as_type(left, other.type), self.as_type(right, other.type)
        elif len(types) != 1 and not types & {"cards", "piles", *LISTS}:
            if left.const and right.const or not types <= set(_NONE_CODES):
                return self._answer(left, right, op == "!=")
            # two kinds: equal where both are none, or (Python's numbers all) the same number
            numbers = "str" not in types
            same = (f"mixed_equal({left.code}, {_NONE_CODES[left.type]}, {right.code}, "
                    f"{_NONE_CODES[right.type]}, {numbers})")
            return _Val("bool", same if op == "==" else f"(not {same})")
        if {left.type, right.type} & {"cards", "piles", *LISTS}:
            same = self._same_list(left, right)
            return _Val("bool", same if op == "==" else f"(not {same})")
        if left.type not in _NONE_CODES:
            raise self.no(f"comparing {left.type} and {right.type}")
        return _Val("bool", f"({left.code} {op} {right.code})")

    @staticmethod
    def _answer(left: _Val, right: _Val, answer: bool) -> _Val:
        """`answer`, known before play, after computing `left` and `right` as Python does (either
        may stop); a constant when neither can."""
        if left.const and right.const:
            return _Val("bool", repr(answer), answer, True)
        return _Val("bool", f"after({left.code}, {right.code}, {answer!r})")

    def _same_list(self, left: _Val, right: _Val) -> str:
        """Code for `left == right`, two lists, as Python has it: a list written out (a tuple) and a
        list built (a list) are never equal; else their items, in order (strings are never equal to
        items of another kind)."""
        if left.type not in ITEMS or right.type not in ITEMS or not left.container or not right.container:
            raise self.no(f"comparing {left.type} and {right.type} (only lists written out, built by list(...), "
                          "legal_moves() or cards(), and their slices)")
        items = [array_of(left), array_of(right)]
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

    def _in(self, typed: Typed, env: Env) -> _Val:
        """`x in [a, b]` (equal to one of the items) and `s in card.suits` (a list attribute), and
        `x in` a list built, a range or a zone's piles."""
        left = self.lower(typed.args[0], env)
        container = typed.args[1]
        while container.kind in ("same", "container"):
            container = container.args[0]
        written = self.written_items(container, env)
        if written is not None:
            code = self._among(left, written)
        else:
            right = self.lower(container, env)
            if right.type == "ints" and left.type in ("int", "none"):
                code = f"has_int({right.code}, {self.as_type(left, 'int').code}, {right.value})"
            elif right.type == "strs" and left.type in ("str", "none"):
                code = f"has({right.code}, {self.as_type(left, 'str').code})"
            elif right.type == "range" and left.type in ("int", "none"):
                x = self.as_type(left, "int").code
                code = f"({x} != NO_INT and {right.lo} <= {x} < {right.hi})"
            elif right.type == "cards" and left.type in ("card", "none"):  # a card among a list of cards
                code = f"contains({right.arr}[{right.lo}:{right.hi}], {self.as_type(left, 'card').code})"
            elif right.type in LISTS and (left.type == LISTS[right.type]
                                          or left.type == "none" and right.type != "bool_list"):
                code = f"contains({right.code}, {self.as_type(left, LISTS[right.type]).code})"
            else:
                raise self.no(f"'in' on {left.type} and {right.type}")
        return _Val("bool", code if typed.info == "in" else f"(not {code})")

    def _among(self, left: _Val, items: list[_Val]) -> str:
        if not items:  # (`x` is still computed, as in Python: it may stop)
            return "False" if left.const or not left.code else f"after({left.code}, 0, False)"
        if left.type == "none" or any(i.type not in (left.type, "none") for i in items) or \
                left.type not in ("int", "str", "card", "pile", "bool"):
            raise self.no("'in' on these kinds of value")
        if all(i.const for i in items[1:]):  # (the items after the first cannot fail)
            return "(" + " or ".join(f"{left.code} == {self.as_type(i, left.type).code}" for i in items) + ")"

        def number(v: _Val) -> str:  # every item is computed, as in Python (one may fail after another equals `x`)
            return f"(1 if {v.code} else 0)" if left.type == "bool" else self.as_type(v, left.type).code
        return f"among({number(left)}, np.array([{', '.join(number(i) for i in items)}], dtype=np.int64))"


_LOWER: dict[str, Callable[[_Emitter, Typed, Env], _Val]] = {
    "const": _Emitter._const, "pile": _Emitter._pile, "piles": _Emitter._piles, "binding": _Emitter._binding,
    "variable": _Emitter._variable, "seat_variable": _Emitter._seat_variable, "seat_zone": _Emitter._seat_zone,
    "zone_of": _Emitter._zone_of, "item": _Emitter._item, "param": _Emitter._param, "inline": _Emitter._inline,
    "option": _Emitter._option, "face_up": _Emitter._face_up, "card_attr": _Emitter._card_attr,
    "card_variable": _Emitter._card_variable,
    "pile_attr": _Emitter._pile_attr, "check": _Emitter._check, "loose": _Emitter._through,
    "container": _Emitter._through, "iterate": _Emitter._through, "same": _Emitter._same,
    "index_pile": _Emitter._index_pile, "index": _Emitter._index, "slice": _Emitter._slice,
    "covered": _Emitter._covered, "size": _Emitter._size, "empty": _Emitter._empty, "end": _Emitter._end,
    "cards": _Emitter._cards, "run": _Emitter._cards, "legal_moves": _Emitter._legal_moves,
    "pairs": _Emitter._walked, "subsets": _Emitter._walked, "abs": _Emitter._abs, "range": _Emitter._range,
    "best_of": _Emitter._best_of, "best": _Emitter._best, "list_count": _Emitter._list_count,
    "sorted": _Emitter._sorted, "unique": _Emitter._unique, "index_of": _Emitter._index_of,
    "list_fold": _Emitter._list_fold, "comprehension": _Emitter._comprehension, "and": _Emitter._logic,
    "or": _Emitter._logic, "arith": _Emitter._arith, "join": _Emitter._join, "plus": _Emitter._plus, "disjoint": _Emitter._disjoint, "compare": _Emitter._compare, "in": _Emitter._in,
    "not": _Emitter._not, "neg": _Emitter._neg, "ternary": _Emitter._ternary, "list": _Emitter._list,
}
