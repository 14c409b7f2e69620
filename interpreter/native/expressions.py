"""Lowering, part 2: an expression to array code (`_Emitter.expr`): constants, names, attributes,
built-ins, operators, membership, lists, slices and comprehensions, each checked as the
Python backend checks it (docs/native.md, "Errors").
"""

from __future__ import annotations

from ..base.limits import INT_MAX, INT_MIN
from ..front.parser import Attr, Binary, Call, Comprehension, Const, Index, ListLit, Name, Node, Slice, Ternary, Unary
from .comprehensions import _Comprehensions
from .values import EMPTY, ITEMS, LISTS, NONE_CODES, _Val, _array, _int


# What stands for `none` in compiled code, by kind of value (a truth value is never none: a code
# it never takes).
_NONE_CODES = {**NONE_CODES, "bool": "NO_INT"}


class _Emitter(_Comprehensions):
    """Lowers one checked ruleset to the source of a Numba module: its expressions."""

    def expr(self, node: Node, env: dict[str, _Val], want: str | None = None) -> _Val:
        value = self._expr(node, env)
        if want == "bool" and value.type != "bool":
            raise self.no(f"a truth value was expected, got {value.type}")
        if want == "int" and value.type not in ("int",):
            raise self.no(f"a number was expected, got {value.type}")
        if want == "card" and value.type == "none":
            return _Val("card", "NOCARD")
        return value

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
            obj = self.cards_of(obj)
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
                size = f"({arg.hi} - ({arg.lo}))"
            elif arg.type == "piles":
                size = repr(len(arg.value)) if arg.value is not None else f"len({arg.code})"
            elif arg.type in LISTS:
                size = f"len({arg.code})"
            elif arg.type == "range":
                size = f"max(0, {arg.hi} - ({arg.lo}))"
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
            return _Val("bool", f"({left.code} {op} {right.code})")
        if op in ("<", "<=", ">", ">="):
            if left.type != "int" or right.type != "int":
                raise self.no(f"ordering {left.type} and {right.type}")
            return _Val("bool", f"({self.checked(left)} {op} {self.checked(right)})")
        raise self.no(f"the operator '{op}'")

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
            if not items:  # (`x` is still computed, as in Python: it may stop)
                code = "False" if left.const or not left.code else f"after({left.code}, 0, False)"
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


