"""Lowering, part 2a: a comprehension (`sum(x for x in ...)`, `list(...)`, `min`, `count`,
`argmin`, `argmax`, `argsort` and the rest) of a typed tree (front/typed.py) as a compiled function of its
own, checked as the Python backend checks it; the base of the expressions (expressions.py).
"""

from __future__ import annotations

from typing import Any

from ..front.compile_types import BOOL
from ..front.typed import Typed
from .scope import _Scope
from .values import LISTS, _Val


def _keys(typed: Typed, found: set[Any]) -> set[Any]:
    """What of the lowering's names (`Env`'s keys) a typed tree reads."""
    if typed.kind == "binding":
        found.add(typed.info)
    elif typed.kind == "item":
        found.add(("item", typed.info))
    elif typed.kind == "param":
        found.add(("param", id(typed.info[1])))
    for arg in typed.args:
        _keys(arg, found)
    return found


class _Comprehensions(_Scope):
    """Comprehensions, each lowered to a function of the module."""

    def _comprehension(self, typed: Typed, env: dict[Any, _Val]) -> _Val:
        func, names = typed.info
        iterable, element_tree = typed.args[0].args[0], typed.args[1]  # (args[0] is the `iterate`)
        condition_tree = typed.args[2] if len(typed.args) > 2 else None
        # The helper takes the values of `env` the comprehension reads as parameters (cards as
        # three), and the seat, which a per-player zone or variable reads without naming it; it loops itself.
        params: list[str] = []
        args: list[str] = []
        inner: dict[Any, _Val] = {}
        used = _keys(typed, {"player"})
        for i, (key, value) in enumerate(env.items()):
            if key not in used:
                continue
            if value.const:
                inner[key] = value
            elif value.type == "cards":
                params += [f"a{i}", f"l{i}", f"h{i}"]
                args += [value.arr, value.lo, value.hi]
                inner[key] = _Val("cards", arr=f"a{i}", lo=f"l{i}", hi=f"h{i}")
            elif value.type == "choice":  # a choice of groups: its bit mask, and the groups' rows
                params += [f"p{i}", f"a{i}"]
                args += [value.code, value.arr]
                inner[key] = _Val("choice", f"p{i}", arr=f"a{i}")
            else:
                params.append(f"p{i}")
                args.append(value.code)
                inner[key] = _Val(value.type, f"p{i}", value.value, False, value.maybe_none)
        prelude: list[str] = []  # what the loop needs computed before its result starts (`subsets`)
        lines: list[str] = []
        item: tuple[str, str] | None
        written = self.written_items(iterable, inner) if len(names) == 1 else None
        if iterable.kind == "pairs":
            items = self.lower(iterable.args[0], inner)
            if items.type != "cards":
                raise self.no("pairs() of this value")
            lines.append(f"    for j in range({items.lo}, {items.hi} - 1):")
            bound = f"max({items.hi} - ({items.lo}), 0)"  # the most items the loop gives (list)
            a, b = self.fresh("x"), self.fresh("x")
            lines.append(f"        {a} = {items.arr}[j]; {b} = {items.arr}[j + 1]")
            inner[("item", names[0])] = _Val("card", a)
            inner[("item", names[1])] = _Val("card", b)
            item = None  # a pair: no one item to give (argmin, argmax)
        elif iterable.kind == "subsets":
            # every set of `low` to `high` of the items (`front/runtime.Subsets`), each an array of its own
            items = self._items(self.lower(iterable.args[0], inner))  # (a pile's cards; a range's numbers)
            if items.type == "cards":
                array, kind = f"{items.arr}[{items.lo}:{items.hi}]", "cards"
            elif items.type in ("int_list", "str_list"):
                array, kind = items.code, items.type
            else:
                raise self.no(f"subsets() of {items.type}")
            sizes = [self._number(a, inner) for a in iterable.args[1:]]
            # (each size computed once, in order: one size is both bounds)
            low, high = ("0", "len(sx)") if not sizes else (sizes[0], "sl") if len(sizes) == 1 else sizes
            x = self.fresh("x")
            prelude += [f"    sx = {array}", f"    sl = {low}", f"    sh = {high}",
                        "    sn = subsets_total(len(sx), sl, sh)",
                        "    si = np.zeros(len(sx) + 1, dtype=np.int64); st = np.full(1, -1, dtype=np.int64)"]
            lines += ["    for _ in range(sn):",
                      f"        {x} = subset_items(sx, si, next_subset(si, st, len(sx), sl))"]
            bound = "sn"
            inner[("item", names[0])] = _Val("cards", arr=x, lo="0", hi=f"len({x})", container="list") \
                if kind == "cards" else _Val(kind, x, container="list")
            item = None  # (argmin, argmax: a set is no item they give)
        elif iterable.kind == "disjoint":
            # every choice of the groups no two of which share an item (`front/runtime.disjoint_groups`),
            # each a bit mask of the groups' rows
            groups = self.lower(iterable.args[0], inner)
            if groups.type != "groups":
                raise self.no(f"disjoint() of {groups.type}")
            x = self.fresh("x")
            prelude += [f"    dg = {groups.code}", "    dc = disjoint_choices(dg)"]
            lines += ["    for di in range(len(dc)):", f"        {x} = dc[di]"]
            bound = "len(dc)"
            inner[("item", names[0])] = _Val("choice", x, arr="dg")
            item = (x, "choice")  # (argmin, argmax: the best choice's bit mask)
        elif written:  # a list written out: its items, in order (of one kind: numbers, strings, piles, cards
            kinds = {v.type for v in written}  # or truth values)
            if len(kinds) != 1 or not kinds <= {"int", "str", "pile", "card", "bool"}:
                raise self.no("a list of values of several kinds")
            x = self.fresh("x")
            lines.append(f"    for {x} in ({''.join(v.code + ', ' for v in written)}):")
            bound = str(len(written))
            inner[("item", names[0])] = _Val(written[0].type, x, maybe_none=any(v.maybe_none for v in written))
            item = (x, written[0].type)
        else:
            items = self.lower(iterable, inner)
            x = self.fresh("x")
            group = None  # walking groups (rows: a length, then the cards): the row of each
            if items.type in ("groups", "choice") and len(names) == 1:
                group = items.arr if items.type == "choice" else items.code
                lines.append(f"    for {x} in range(len({group})):")
                if items.type == "choice":  # the groups chosen
                    lines.append(f"        if not ({items.code} >> {x}) & 1: continue")
                element_type, bound = "cards", f"len({group})"
            elif items.type == "piles" and len(names) == 1:
                lines.append(f"    for {x} in {items.code}:")
                element_type, bound = "pile", f"len({items.code})"
            elif items.type == "seats" and len(names) == 1:
                lines.append(f"    for {x} in range({items.code}):")
                element_type, bound = "int", items.code
            elif items.type in LISTS and len(names) == 1:
                lines.append(f"    for {x} in {items.code}:")
                element_type, bound = LISTS[items.type], f"len({items.code})"
            elif items.type == "range" and len(names) == 1:
                lines.append(f"    for {x} in range({items.lo}, {items.hi}):")
                element_type, bound = "int", f"max({items.hi} - ({items.lo}), 0)"
            elif items.type == "cards" and len(names) == 1:
                lines.append(f"    for j in range({items.lo}, {items.hi}):")
                lines.append(f"        {x} = {items.arr}[j]")
                element_type, bound = "card", f"max({items.hi} - ({items.lo}), 0)"
            elif items.type in ("strs", "ints") and len(names) == 1 and func in ("all", "any", "count", "sum"):
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
            if group is not None:  # each group as its cards
                inner[("item", names[0])] = _Val("cards", arr=f"{group}[{x}]", lo="1", hi=f"1 + {group}[{x}, 0]")
                item = None
            else:  # (a list's number may be none)
                inner[("item", names[0])] = _Val(element_type, x, maybe_none=items.type == "int_list")
                item = (x, element_type)
        element = self.lower(element_tree, inner)
        condition = self._truth(condition_tree, inner) if condition_tree is not None else None
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
        elif func == "count":  # (an element the checker knows is a truth value is tested, as in Python)
            if element_tree.type == BOOL and element.type != "bool":
                raise self.no(f"a truth value was expected, got {element.type}")
            test = f"if {element.code}: " if element_tree.type == BOOL else ""
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
            if element.maybe_none:  # as Python's max: a none item alone is the answer, beside another it stops
                lines.append(f"{body}v = {element.code}")
                lines.append(f"{body}if found and (v == NO_INT or acc == NO_INT): raise Stop('ordering none')")
            else:
                lines.append(f"{body}v = {self.checked(element)}")
            lines.append(f"{body}if not found or v {better} acc: acc = v")
            lines.append(f"{body}found = True")
            result, ret, type_ = "NO_INT", "acc", "int"
        elif func == "list" and element.type == "cards":  # groups: a row each, its length, then its cards
            lines.append(f"{body}put_group(acc, count, {element.arr}, {element.lo}, {element.hi}); count += 1")
            result, ret, type_ = f"np.empty(({bound}, NC + 1), dtype=np.int64); count = 0", "acc[:count]", "groups"
        elif func == "list":  # the items, in order, in an array of their own: cards, piles, numbers or strings
            of = {"card": "cards", "pile": "piles", "int": "int_list", "str": "str_list", "bool": "bool_list"}
            if element.type not in of:
                raise self.no(f"a list of {element.type} built by list(... for ...)")
            lines.append(f"{body}acc[count] = {element.code}; count += 1")
            result, ret, type_ = f"np.empty({bound}, dtype=np.int64); count = 0", "acc[:count]", of[element.type]
        elif func == "argsort":  # the items and their numbers, then sorted stably by the numbers
            self._want(element, "int")
            of = {"card": "cards", "pile": "piles", "int": "int_list", "str": "str_list"}
            keys = f"np.empty({bound}, dtype=np.int64)"
            lines.append(f"{body}keys[count] = {self.checked(element)}")
            cards = inner[("item", names[0])] if item is None and len(names) == 1 else None
            if cards is not None and cards.type == "cards":  # sets of cards, groups: a row each, as list(...)
                lines.append(f"{body}put_group(acc, count, {cards.arr}, {cards.lo}, {cards.hi}); count += 1")
                result = f"np.empty(({bound}, NC + 1), dtype=np.int64); keys = {keys}; count = 0"
                type_ = "groups"
            elif item is not None and item[1] in of:
                lines.append(f"{body}acc[count] = {item[0]}; count += 1")
                result, type_ = f"np.empty({bound}, dtype=np.int64); keys = {keys}; count = 0", of[item[1]]
            else:
                raise self.no("argsort() of this kind of item")
            ret = "acc[:count][np.argsort(keys[:count], kind='mergesort')]"
        else:  # argmin, argmax: the first item whose number is the lowest / highest
            self._want(element, "int")
            if item is None or item[1] not in ("int", "card", "pile", "str", "choice"):
                raise self.no(f"{func}() of this kind of item")
            better = "<" if func == "argmin" else ">"
            lines.append(f"{body}v = {self.checked(element)}")
            lines.append(f"{body}if not found or v {better} key: key = v; acc = {item[0]}")
            lines.append(f"{body}found = True")
            type_ = item[1]
            result, ret = {"card": "NOCARD", "str": "NO_STR", "choice": "0"}.get(type_, "NO_INT"), "acc"
        name = self.fresh("comp")
        head = ["@njit(cache=True)", f"def {name}(C, N, U, V, O, M{''.join(', ' + p for p in params)}):", *prelude,
                f"    acc = {result}; found = False" + ("; key = 0" if func in ("argmin", "argmax") else "")]
        self.helpers.append("\n".join(head + lines + [f"    return {ret}", ""]))
        call = f"{name}(C, N, U, V, O, M{''.join(', ' + a for a in args)})"
        if type_ == "choice":  # the best choice, among the groups the caller works out again (a pure function)
            return _Val("choice", call, arr=self.lower(iterable.args[0], env).code)
        if type_ == "cards":  # (a pure function: called again for the window's end)
            return _Val("cards", arr=call, lo="0", hi=f"len({call})", container="list")
        if func in ("list", "argsort"):  # (groups: their rows, a length then the cards each)
            return _Val(type_, call, container="list")
        return _Val(type_, call,
                    maybe_none=func in ("min", "max") or type_ in ("int", "pile") and func in ("argmin", "argmax"))

    def _want(self, value: _Val, type_: str) -> None:
        if value.type != type_:
            raise self.no(f"{type_} expected in a comprehension, got {value.type}")
