"""Lowering, part 2b: the lists and piles of a typed tree (front/typed.py) in compiled code: a pile's
cards as a window of its row, lists written out or built as arrays of one kind of item, their
items, slices and sizes; the base of the expressions (expressions.py).
"""

from __future__ import annotations

from typing import Any

from ..front.parser import Call
from ..front.typed import Typed
from .comprehensions import _Comprehensions
from .values import EMPTY, ITEMS, LISTS, _Val, _array, _int

Env = dict[Any, _Val]  # a binding's name, ("item", its info) or ("param", id of its argument) -> its value


def array_of(value: _Val) -> str:
    """Code for the items of a list held as an array: a window of cards as its slice."""
    return f"{value.arr}[{value.lo}:{value.hi}]" if value.type == "cards" else value.code


def _written_empty(value: _Val) -> bool:
    """Is the value `[]` written out (or a name standing for it)?"""
    return value.code == EMPTY or value.type == "int_list" and value.value == ()


def _empty(kind: str) -> _Val:
    """`[]` written out, as an empty list of this kind of item."""
    if kind == "cards":
        return _Val("cards", arr=EMPTY, lo="0", hi="0", container="tuple")
    return _Val(kind, EMPTY, container="tuple")


def folded_range(typed: Typed) -> bool:
    """Is this a constant the checker folded from `range(...)` (a tuple of numbers, lo up to hi)?"""
    return typed.kind == "const" and isinstance(typed.node, Call) and typed.node.func == "range"


class _Lists(_Comprehensions):
    """Lists, piles and their parts, lowered."""

    def _index_pile(self, typed: Typed, env: Env) -> _Val:
        pile = self.lower(typed.args[0], env)
        if pile.type != "pile":
            raise self.no(f"indexing {pile.type}")
        return self._at(pile, self.lower(typed.args[1], env))

    def _index(self, typed: Typed, env: Env) -> _Val:
        return self._at(self.lower(typed.args[0], env), self.lower(typed.args[1], env))

    def _at(self, obj: _Val, index: _Val) -> _Val:
        if index.type != "int":
            raise self.no(f"an index of {index.type}")
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
        raise self.no(f"indexing {obj.type}")

    def _slice(self, typed: Typed, env: Env) -> _Val:
        """A slice of a pile's cards or of cards (a narrower window of the same array), of a list or
        of piles, or of a range of numbers."""
        obj = self.lower(typed.args[0], env)
        if obj.type == "seats":  # (the seats' numbers, as an array)
            obj = self._items(obj)
        parts = [self.lower(a, env) for a in typed.args[1:]]
        has_lo, has_hi = typed.info
        bounds = [parts.pop(0) if has else None for has in (has_lo, has_hi)]
        if any(b is not None and b.type != "int" for b in bounds):
            raise self.no("a slice's bound that is not a number")
        lo_code, hi_code = (self.checked(b) if b is not None else None for b in bounds)
        if obj.type == "pile":
            obj = self.cards_of(obj)
        if obj.type in ("piles", *LISTS):  # bounds known only in play: a window of the array
            whole = f"len({obj.code})"
            lo = f"clip({lo_code}, 0, {whole})" if lo_code is not None else "0"
            hi = f"clip({hi_code}, 0, {whole})" if hi_code is not None else whole
            return _Val(obj.type, f"{obj.code}[{lo}:max({lo}, {hi})]", container=obj.container)
        if obj.type == "range":  # numbers from lo up to hi: a narrower range
            end = f"max({obj.lo}, {obj.hi})"
            lo = f"clip({lo_code}, {obj.lo}, {end})" if lo_code is not None else obj.lo
            hi = f"clip({hi_code}, {obj.lo}, {end})" if hi_code is not None else end
            return _Val("range", lo=lo, hi=f"max({lo}, {hi})")
        if obj.type != "cards":
            raise self.no(f"slicing {obj.type}")
        lo = f"clip({lo_code}, {obj.lo}, {obj.hi})" if lo_code is not None else obj.lo
        hi = f"clip({hi_code}, {obj.lo}, {obj.hi})" if hi_code is not None else obj.hi
        return _Val("cards", arr=obj.arr, lo=lo, hi=f"max({lo}, {hi})", container=obj.container)

    def _join(self, typed: Typed, env: Env) -> _Val:
        """`a + b` of two lists: a new array of a's items then b's, of one kind of item (`[]`, of no
        kind, joins any), as Python's list of them."""
        left, right = (self._items(self.lower(a, env)) for a in typed.args)
        if left.type == right.type == "groups":  # rows of the one width: the left's, then the right's
            return _Val("groups", f"np.concatenate(({left.code}, {right.code}))", container="list")
        if _written_empty(left) and right.type in ITEMS:  # (`[]` lowers as numbers of no kind)
            left = _empty(right.type)
        if _written_empty(right) and left.type in ITEMS:
            right = _empty(left.type)
        if left.type != right.type or left.type not in ITEMS:
            raise self.no(f"joining {left.type} and {right.type}")
        joined = f"np.concatenate(({array_of(left)}, {array_of(right)}))"
        if left.type == "cards":
            size = f"({left.hi} - ({left.lo}) + {right.hi} - ({right.lo}))"
            return _Val("cards", arr=joined, lo="0", hi=size, container="list")
        return _Val(left.type, joined, container="list")

    def _items(self, value: _Val) -> _Val:
        """A pile as its cards, numbers from lo up to hi (a range, the seats) as an array of them."""
        if value.type == "pile":
            return self.cards_of(value)
        if value.type == "range":
            return _Val("int_list", f"np.arange({value.lo}, max({value.lo}, {value.hi}))")
        if value.type == "seats":
            return _Val("int_list", f"np.arange({value.code})")
        return value

    def _list(self, typed: Typed, env: Env) -> _Val:
        return self._written([self.lower(item, env) for item in typed.args])

    def _written(self, items: list[_Val]) -> _Val:
        """A list written out, used as a value (indexed, sliced, sized): an array of its items, all
        numbers, strings, cards, piles or truth values (`none` among numbers, strings or cards)."""
        if not items:  # (its value says so where it is passed on: a comprehension's parameter)
            return _Val("int_list", EMPTY, (), container="tuple")
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
                return _Val("piles", _array(piles), tuple(piles), True, container="tuple")
            return _Val("piles", f"np.array([{', '.join(item.code for item in items)}], dtype=np.int64)",
                        container="tuple")
        array = f"np.array([{', '.join(self.as_type(item, kind).code for item in items)}], dtype=np.int64)"
        if kind == "card":
            return _Val("cards", arr=array, lo="0", hi=str(len(items)), container="tuple")
        return _Val("int_list" if kind == "int" else "str_list", array, container="tuple")

    def _size_code(self, arg: _Val, func: str) -> str:
        if arg.type == "pile":
            return f"N[{self.checked(arg)}]"
        if arg.type == "cards":
            return f"({arg.hi} - ({arg.lo}))"
        if arg.type == "piles":
            return repr(len(arg.value)) if arg.value is not None else f"len({arg.code})"
        if arg.type in LISTS:
            return f"len({arg.code})"
        if arg.type == "range":
            return f"max(0, {arg.hi} - ({arg.lo}))"
        if arg.type == "seats":
            return arg.code
        if arg.type in ("groups", "choices"):
            return f"len({arg.code})"
        if arg.type == "choice":
            return f"popcount({arg.code})"
        raise self.no(f"{func}() of {arg.type}")

    def _size(self, typed: Typed, env: Env) -> _Val:
        return _int(self._size_code(self.lower(typed.args[0], env), "size"))

    def _empty(self, typed: Typed, env: Env) -> _Val:
        return _Val("bool", f"({self._size_code(self.lower(typed.args[0], env), 'empty')} == 0)")

    def _list_count(self, typed: Typed, env: Env) -> _Val:
        return _int(self._size_code(self.lower(typed.args[0], env), "count"))

    def _covered(self, typed: Typed, env: Env) -> _Val:
        arg = self.lower(typed.args[0], env)
        if arg.type != "pile":
            raise self.no(f"covered() of {arg.type}")
        return _Val("bool", f"covered(N, COVER, {self.checked(arg)})")

    def _end(self, typed: Typed, env: Env) -> _Val:
        arg = self.lower(typed.args[0], env)
        func = typed.info
        if arg.type == "pile":
            pile = self.checked(arg)
            return _Val("card", f"{func}_of(C[{pile}], 0, N[{pile}])")
        if arg.type == "cards":
            return _Val("card", f"{func}_of({arg.arr}, {arg.lo}, {arg.hi})")
        raise self.no(f"{func}() of {arg.type}")

    def _cards(self, typed: Typed, env: Env) -> _Val:
        arg = self.lower(typed.args[0], env)
        if arg.type != "pile":
            raise self.no(f"{typed.kind}() of {arg.type}")
        pile = self.checked(arg)
        lo = "0" if typed.kind == "cards" else f"run_start(C[{pile}], N[{pile}], U)"
        return _Val("cards", arr=f"C[{pile}]", lo=lo, hi=f"N[{pile}]", container="list")

    def _legal_moves(self, typed: Typed, env: Env) -> _Val:
        """The names of the legal moves now, listed into an array of their own."""
        self.lists_names = True
        return _Val("str_list", "legal_names(C, N, U, V, O, M)", container="list")

    def _walked(self, typed: Typed, env: Env) -> _Val:
        raise self.no(f"{typed.kind}() outside a comprehension")

    def written_items(self, typed: Typed, env: Env) -> list[_Val] | None:
        """The items of a list written out (`[a, b]`, or one known at load but a range), each lowered;
        None for any other value."""
        if typed.kind == "list":
            return [self.lower(item, env) for item in typed.args]
        if typed.kind == "const" and isinstance(typed.value, tuple) and not folded_range(typed):
            return [self._constant(v) for v in typed.value]
        return None
