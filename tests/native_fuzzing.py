"""Differential fuzzing of the native backend against the Python reference, shared by
tests/test_native_fuzz.py (Hypothesis, a small fixed budget) and benchmarks/native_fuzz.py (long
runs).

The promise under test: on every ruleset the native backend lowers, it does what the Python
backend does, edges included: the same legal moves in the same order, piles, faces, variables,
turns, outcome and scores at every step; where Python raises at an expression, compiled code stops
(`NativeStop`) at the same step, and the Python replay reports the same error.

Generation. `ExpressionGenerator` draws well-typed expressions of every kind the language has
(numbers, truth values, strings, cards, piles, lists of piles, of cards, of numbers, of strings, of
truth values; written out, built by `list(...)`, ranges, list attributes, `legal_moves()`) over
every built-in and operator, with edge values: 0, ±1, ±2, ±2^31, ±2^62, ±(2^63 - 1), -2^63, more
than 64 strings (so string numbers pass 64), empty and long lists, seats the game has not. Each
expression is a *probe* (`Probe`) placed in one slot of a generated ruleset (`module_text`): a
move's `when` (with or without a source and destination bound), a `set` or `add` effect, a
trigger's `when`, an end condition, the score, a `select`'s `equals`, a `while`'s condition, a
`sort`'s key. Hundreds of probes share one
ruleset, so one native compile covers them all: each probe is guarded by `focus == i` (its number),
a variable the move `skip` steps on (and `jump` sets), so at any moment only one probe's
expressions are evaluated and a difference names the probe to blame. A probe that fails as soon as
it is in focus (an end condition or trigger that always raises) is compared there, and play jumps
past it. Moves that change the position (cards moved between a
stock, a row of piles and the seats' hands; variables set to edge values by `choose`) make the
probes see many positions. The deck (`DECK`) has 24 cards with a string attribute of 70 values, a
list attribute of strings, one of numbers, a number attribute of edge values, and cards lacking
attributes (`none`).

Comparison. `play_module` plays seeded games of a module through both backends
(`native.compare_listing` / `compare_position` / `compare_ending`, the checks of `native.compare`),
a move at a time, handling errors: where Python raises, compiled code must stop, and a fresh Python
replay of the same moves must raise the same error; the native game then starts again from the
Python game's position (the failed move is taken back there) and play goes on. Compiled code may
stop where Python does not only at its own documented bounds (`NATIVE_BOUNDS`). A difference is a
`Difference` (its kind, the probe, the seed and what differed).

Shrinking. `shrink` takes a probe that differs and tries, in one compiled module, every smaller
expression got by replacing one node of its tree by a child of the same kind or by a simple value;
the smallest that still differs the same way is kept, and again, until nothing smaller differs. The
result is printed as a ruleset holding that one expression (`reproducer`).
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

INT_MAX = 2 ** 63 - 1
INT_MIN = -(2 ** 63)  # not a number of the language (its numbers are ±(2^63 - 1)): an edge to reach
EDGE_INTS = [0, 1, -1, 2, -2, 2 ** 31, -(2 ** 31), 2 ** 62, -(2 ** 62), INT_MAX, -INT_MAX, INT_MIN, 63, 64, 65,
             3, 7, 13, 10_000, 10_001]
SMALL_INTS = list(range(0, 6))

# -- the deck: 24 cards, 70 names (string numbers past 64), lists of strings and numbers, edge numbers

NAMES = [f"n{i}" for i in range(70)]
TAGS = [f"t{i}" for i in range(40)]  # (numbered first: string numbers below 64, the names' above)
BIGS = [0, 1, -1, 2 ** 31, -(2 ** 31), 2 ** 62, -(2 ** 62), INT_MAX, -INT_MAX, 2, 64, 2 ** 62]


def deck_text() -> str:
    """The deck every generated ruleset plays with (the same for all: a reproducer names it)."""
    rng = random.Random("native-fuzz-deck")
    cards = []
    for i in range(24):
        card: dict[str, Any] = {"rank": 1 + i % 13, "name": NAMES[(i * 7) % 70], "big": BIGS[i % len(BIGS)]}
        card["tags"] = sorted(rng.sample(TAGS, rng.choice([0, 1, 2, 3, 5])), key=TAGS.index)
        card["nums"] = sorted(rng.sample(range(-2, 60), rng.choice([0, 1, 2, 4])))
        if i % 11 == 5:
            del card["big"]  # a card lacking an attribute: `none`
        card["code"] = f"c{i}"
        cards.append(card)
    lines = ["deck: fuzzdeck", "attributes:", "  rank: int", "  name: str", "  big: int", "  tags: list",
             "  nums: list", "  code: str", "cards:"]
    lines += [f"  - {json.dumps(card)}" for card in cards]
    lines += ['code: "{code}"']
    return "\n".join(lines) + "\n"


# -- expressions ---------------------------------------------------------------------------------

INT, BOOL, STR, CARD, PILE, PILES, CARDS, ILIST, SLIST, BLIST = (
    "int", "bool", "str", "card", "pile", "piles", "cards", "ilist", "slist", "blist")
KINDS = (INT, BOOL, STR, CARD, PILE, PILES, CARDS, ILIST, SLIST, BLIST)
STRINGS = NAMES[:3] + NAMES[60:] + TAGS[:4] + ["", "zz", "row", "stock", "lay", "skip", "p0"]


def int_text(value: int) -> str:
    """A number as the language writes it (literals are not negative; -2^63 is not a literal)."""
    if value == INT_MIN:  # (not folded at load, where it would be a load error: `players` is 1 or more)
        return "(-9223372036854775807 - players)"
    return str(value) if value >= 0 else f"(-{-value})"


@dataclass(frozen=True)
class Node:
    """A generated expression: its kind, a format with a hole per child, the children."""

    kind: str
    form: str
    kids: tuple[Node, ...] = ()

    @property
    def text(self) -> str:
        return self.form.format(*(k.text for k in self.kids)) if self.kids else self.form

    def size(self) -> int:
        return 1 + sum(k.size() for k in self.kids)

    def nodes(self) -> Iterator[tuple[tuple[int, ...], Node]]:
        """Every node with its path of child indexes."""
        yield (), self
        for i, kid in enumerate(self.kids):
            for path, node in kid.nodes():
                yield (i, *path), node

    def replaced(self, path: tuple[int, ...], by: Node) -> Node:
        if not path:
            return by
        kids = list(self.kids)
        kids[path[0]] = kids[path[0]].replaced(path[1:], by)
        return replace(self, kids=tuple(kids))


def leaf(kind: str, text: str) -> Node:
    return Node(kind, text.replace("{", "{{").replace("}", "}}"))


class ExpressionGenerator:
    """Well-typed random expressions. `scope` maps the names bound where the expression stands
    (the move's `src`, `card`, ..., comprehension names) to their kinds; `listing` is true in a
    move's `when` (no `legal_moves()` there)."""

    def __init__(self, rng: random.Random, scope: dict[str, str], listing: bool, max_depth: int = 4) -> None:
        self.rng = rng
        self.scope = dict(scope)
        self.listing = listing
        self.max_depth = max_depth
        self.fresh = 0

    def pick(self, table: list[tuple[float, Callable[[], Node]]]) -> Node:
        total = sum(w for w, _ in table)
        x = self.rng.random() * total
        for w, make in table:
            x -= w
            if x < 0:
                return make()
        return table[-1][1]()

    def bound(self, kind: str) -> list[str]:
        return [name for name, k in self.scope.items() if k == kind]

    def expr(self, kind: str, depth: int | None = None) -> Node:
        depth = self.max_depth if depth is None else depth
        if depth <= 0 or self.rng.random() < 0.2:
            return self.leaf(kind)
        return getattr(self, f"make_{kind}")(depth - 1)

    # -- leaves ------------------------------------------------------------------------------

    def leaf(self, kind: str) -> Node:
        rng = self.rng
        names = self.bound(kind)
        if names and rng.random() < 0.5:
            return leaf(kind, rng.choice(names))
        if kind == INT:
            return self.pick([(4, lambda: leaf(INT, int_text(rng.choice(EDGE_INTS)))),
                              (3, lambda: leaf(INT, str(rng.choice(SMALL_INTS)))),
                              (3, lambda: leaf(INT, rng.choice(["a", "c", "b", "hits", "ri", "players", "focus"]))),
                              (1, lambda: leaf(INT, "option.edge"))])
        if kind == BOOL:
            return leaf(BOOL, rng.choice(["true", "false", "flag", "t", "rb", "option.truth"]))
        if kind == STR:
            return self.pick([(4, lambda: leaf(STR, f"'{rng.choice(STRINGS)}'")),
                              (1, lambda: leaf(STR, rng.choice(["s", "rs", "option.word"])))])
        if kind == CARD:
            return self.pick([(3, lambda: Node(CARD, "top({0})", (self.leaf(PILE),))),
                              (1, lambda: Node(CARD, "bottom({0})", (self.leaf(PILE),))),
                              (1, lambda: leaf(CARD, "rk")),  # (a variable holding a card or none)
                              (1, lambda: leaf(CARD, "none"))])
        if kind == PILE:
            return leaf(PILE, rng.choice(["stock", "waste", "row[0]", "row[2]", "hand", "rp"]))
        if kind == PILES:
            return leaf(PILES, rng.choice(["row", "row[1:]", "[stock, waste]", "[]"]))
        if kind == CARDS:
            return Node(CARDS, rng.choice(["cards({0})", "run({0})"]), (self.leaf(PILE),))
        if kind == ILIST:
            return leaf(ILIST, rng.choice(["seats", "[]", "[0, 1, 2]", "range(3)", "[64, 63, -1]",
                                           f"[{int_text(INT_MAX)}, {int_text(INT_MIN)}]", "range(70)"]))
        if kind == SLIST:
            return leaf(SLIST, rng.choice(["['n1', 'n66']", "['n2'][1:]", "['n69', 'n0', 'zz', '']"]))
        return leaf(BLIST, rng.choice(["[true, false]", "[true][1:]", "[false]"]))

    def built(self, kind: str, depth: int) -> Node:
        """A list of numbers, strings or truth values built by `list(...)` or written out (what
        compiled code indexes, sums, orders and compares; not a range, `seats` or a list attribute)."""
        if self.rng.random() < 0.5:
            return self.comprehension("list", kind, depth)
        listed = {INT: ILIST, STR: SLIST, BOOL: BLIST}[kind]
        items = [self.expr(kind, depth) for _ in range(self.rng.choice([1, 2, 3, 5]))]
        return Node(listed, "[" + ", ".join("{%d}" % i for i in range(len(items))) + "]", tuple(items))

    def name(self, kind: str) -> str:
        """A fresh name for a comprehension's items (its first letter telling nothing of `kind`)."""
        self.fresh += 1
        return f"{'xcpq'[self.fresh % 4]}{self.fresh}"

    def seat(self, depth: int) -> Node:
        rng = self.rng
        return self.pick([(3, lambda: leaf(INT, rng.choice(["player", "0", "1", "2", "3", "players", "players - 1",
                                                            "(-1)", "7", "(-4)"]))),
                          (1, lambda: self.expr(INT, depth))])

    # -- comprehensions ------------------------------------------------------------------------

    def items(self, depth: int) -> tuple[Node, str]:
        """What a comprehension runs over: its node, and the kind of its items ("pair": pairs of cards)."""
        rng = self.rng
        choices: list[tuple[float, Callable[[], tuple[Node, str]]]] = [
            (3, lambda: (self.expr(PILES, depth), PILE)),
            (3, lambda: (self.expr(CARDS, depth), CARD)),
            (3, lambda: (self.expr(ILIST, depth), INT)),
            (1, lambda: (self.expr(SLIST, depth), STR)),
            (1, lambda: (self.expr(BLIST, depth), BOOL)),
            (2, lambda: (Node(SLIST, "{0}.tags", (self.expr(CARD, depth),)), STR)),
            (2, lambda: (Node(ILIST, "{0}.nums", (self.expr(CARD, depth),)), INT)),
            (1, lambda: (Node(CARDS, "pairs({0})", (self.expr(CARDS, depth),)), "pair")),
            (1, lambda: self.subsets(CARDS, depth)),
            (1, lambda: self.subsets(ILIST, depth)),
        ]
        if not self.listing:
            choices.append((1, lambda: (leaf(SLIST, "legal_moves()"), STR)))
        total = sum(w for w, _ in choices)
        x = rng.random() * total
        for w, make in choices:
            x -= w
            if x < 0:
                node, kind = make()
                break
        else:
            node, kind = choices[0][1]()
        return node, kind

    def subsets(self, kind: str, depth: int) -> tuple[Node, str]:
        """subsets(ITEMS), subsets(ITEMS, K) or subsets(ITEMS, LOW, HIGH): sets of cards or of numbers,
        each a list of that kind (sizes mostly small constants, at times any number)."""
        rng = self.rng
        sizes = rng.choice(["", ", 2", ", 1, 3", ", {1}", ", 0, {1}", ", {1}, {2}", ", (-1), 1", ", 9, 60"])
        args = (self.expr(kind, depth), *(self.expr(INT, depth) for _ in range(sizes.count("{"))))
        return Node(kind, "subsets({0}" + sizes + ")", args), kind

    def comprehension(self, func: str, element: str, depth: int) -> Node:
        """FUNC(ELEMENT for NAME in ITEMS [if COND]); `element` the element's kind."""
        items, kind = self.items(depth)
        while (items.form.endswith((".tags", ".nums")) and func not in ("all", "any", "count", "sum")
               or kind in ("pair", CARDS, ILIST) and func in ("argmin", "argmax")):
            items, kind = self.items(depth)  # (compiled code loops over a list attribute only so)
        saved = dict(self.scope)
        if kind == "pair":
            a, b = self.name(CARD), self.name(CARD)
            self.scope[a] = self.scope[b] = CARD
            names = f"{a}, {b}"
        else:
            a = self.name(kind)
            self.scope[a] = kind
            names = a
        if func in ("argmin", "argmax"):
            element = INT
        body = self.expr(element, depth)
        cond = self.expr(BOOL, depth) if self.rng.random() < 0.4 else None
        self.scope = saved
        esc = names.replace("{", "{{")
        if cond is None:
            return Node(self.result_of(func, element, kind), f"{func}({{0}} for {esc} in {{1}})", (body, items))
        return Node(self.result_of(func, element, kind), f"{func}({{0}} for {esc} in {{1}} if {{2}})",
                    (body, items, cond))

    @staticmethod
    def result_of(func: str, element: str, item: str) -> str:
        if func in ("all", "any"):
            return BOOL
        if func in ("sum", "count"):
            return INT
        if func in ("min", "max"):
            return element
        if func in ("argmin", "argmax"):
            return item
        return {INT: ILIST, STR: SLIST, BOOL: BLIST, CARD: CARDS, PILE: PILES}[element]

    # -- by kind -------------------------------------------------------------------------------

    def make_int(self, d: int) -> Node:
        rng, e = self.rng, self.expr
        return self.pick([
            (8, lambda: Node(INT, f"({{0}} {rng.choice(['+', '-', '*', '/', '%'])} {{1}})", (e(INT, d), e(INT, d)))),
            (2, lambda: Node(INT, "({0} ** {1})", (e(INT, d), leaf(INT, rng.choice(["0", "1", "2", "3", "31", "62",
                                                                                      "63", "64", "(-1)"]))))),
            (1, lambda: Node(INT, "({0} ** {1})", (e(INT, d), e(INT, d)))),
            (2, lambda: Node(INT, "-{0}", (e(INT, d),))),
            (1, lambda: Node(INT, "abs({0})", (e(INT, d),))),
            (2, lambda: Node(INT, f"{rng.choice(['min', 'max'])}({{0}}, {{1}})", (e(INT, d), e(INT, d)))),
            (2, lambda: Node(INT, f"{rng.choice(['min', 'max', 'sum'])}({{0}})", (self.built(INT, d),))),
            (2, lambda: Node(INT, "size({0})", (e(rng.choice([PILE, PILES, CARDS, ILIST, SLIST, BLIST]), d),))),
            (3, lambda: Node(INT, f"{{0}}.{rng.choice(['rank', 'big', 'big'])}", (e(CARD, d),))),
            (1, lambda: Node(INT, "{0}.mk", (e(CARD, d),))),  # a mark (per-card variable)
            # choices of groups that share no card (`disjoint`), of groups built from subsets
            (1, lambda: Node(INT, f"count(dp for dp in disjoint(list(ds for ds in subsets({{0}}, 1, 3) "
                                  f"if sum(dx.rank for dx in ds) {rng.choice(['<', '>', '=='])} {{1}})))",
                             (e(CARDS, d), e(INT, d)))),
            (1, lambda: Node(INT, f"{rng.choice(['min', 'max'])}(sum(sum(dx.big for dx in dm) for dm in dp) "
                                  "for dp in disjoint(list(ds for ds in subsets({0}, 2) if ds[0].name != ds[1].name)))",
                             (e(CARDS, d),))),
            (1, lambda: Node(INT, "sum(size(dp) for dp in disjoint(list(ds for ds in subsets({0}, 2, 3))))",
                             (e(CARDS, d),))),
            # the best choice (argmin / argmax of a choice), its groups walked; groups joined
            (1, lambda: Node(INT, f"sum(sum(dx.rank for dx in dm) for dm in {rng.choice(['argmin', 'argmax'])}"
                                  "(size(dp) * 100 - sum(size(dm) for dm in dp) for dp in disjoint("
                                  "list(ds for ds in subsets({0}, 2) if ds[0].rank < ds[1].rank)"
                                  " + list(ds for ds in subsets({1}, 1)))))",
                             (e(CARDS, d), e(CARDS, d)))),
            (1, lambda: Node(INT, f"{{0}}.{rng.choice(['index', 'owner'])}", (e(PILE, d),))),
            (2, lambda: Node(INT, "of(b, {0})", (self.seat(d),))),
            (3, lambda: self.comprehension(rng.choice(["sum", "count", "min", "max"]), INT, d)),
            # (counts the items whose element is true where the checker knows it is a truth value, else all)
            (1, lambda: self.comprehension("count", BOOL, d)),
            (2, lambda: Node(INT, "({0} if {1} else {2})", (e(INT, d), e(BOOL, d), e(INT, d)))),
            (2, lambda: Node(INT, "{0}[{1}]", (self.built(INT, d), e(INT, d)))),
            (1, lambda: Node(INT, "index({0}, {1})", (self.built(INT, d), e(INT, d)))),
            (1, lambda: Node(INT, "index({0}, {1})", (self.built(STR, d), e(STR, d)))),
            (1, lambda: Node(INT, "index({0}, {1})", (e(CARDS, d), e(CARD, d)))),
            (1, lambda: Node(INT, "index({0}, {1})", (e(PILES, d), e(PILE, d)))),
        ])

    def make_bool(self, d: int) -> Node:
        rng, e = self.rng, self.expr
        return self.pick([
            (5, lambda: Node(BOOL, f"({{0}} {rng.choice(['==', '!=', '<', '<=', '>', '>='])} {{1}})",
                             (e(INT, d), e(INT, d)))),
            (2, lambda: Node(BOOL, f"({{0}} {rng.choice(['==', '!='])} {{1}})", (e(STR, d), e(STR, d)))),
            (1, lambda: Node(BOOL, f"({{0}} {rng.choice(['==', '!='])} {{1}})", (e(CARD, d), e(CARD, d)))),
            (1, lambda: Node(BOOL, f"({{0}} {rng.choice(['in', 'not in'])} {{1}})", (e(CARD, d), e(CARDS, d)))),
            (1, lambda: Node(BOOL, f"({{0}} {rng.choice(['==', '!='])} {{1}})", (e(PILE, d), e(PILE, d)))),
            (1, lambda: Node(BOOL, f"({{0}} {rng.choice(['==', '!='])} {{1}})",
                             (self.built(INT, d), self.built(INT, d)))),
            (2, lambda: Node(BOOL, f"({{0}} {rng.choice(['in', 'not in'])} {{1}})", (e(INT, d), self.built(INT, d)))),
            (2, lambda: Node(BOOL, f"({{0}} {rng.choice(['in', 'not in'])} {{1}})", (e(STR, d), self.built(STR, d)))),
            (3, lambda: Node(BOOL, "({0} in {1}.tags)", (e(STR, d), e(CARD, d)))),
            (2, lambda: Node(BOOL, "({0} in {1}.nums)", (e(INT, d), e(CARD, d)))),
            (1, lambda: Node(BOOL, "({0} in {1})", (e(BOOL, d), self.built(BOOL, d)))),
            (2, lambda: Node(BOOL, "not ({0})", (e(BOOL, d),))),
            (3, lambda: Node(BOOL, f"({{0}} {rng.choice(['and', 'or'])} {{1}})", (e(BOOL, d), e(BOOL, d)))),
            (2, lambda: Node(BOOL, "empty({0})", (e(rng.choice([PILE, PILES, CARDS, ILIST, SLIST]), d),))),
            (1, lambda: Node(BOOL, "{0}.face_up", (e(CARD, d),))),
            (1, lambda: Node(BOOL, "of(t, {0})", (self.seat(d),))),
            (3, lambda: self.comprehension(rng.choice(["all", "any"]), BOOL, d)),
            (1, lambda: Node(BOOL, "({0} if {1} else {2})", (e(BOOL, d), e(BOOL, d), e(BOOL, d)))),
            (1, lambda: Node(BOOL, "{0}[{1}]", (self.built(BOOL, d), e(INT, d)))),
        ])

    def make_str(self, d: int) -> Node:
        rng, e = self.rng, self.expr
        table: list[tuple[float, Callable[[], Node]]] = [
            (3, lambda: Node(STR, "{0}.name", (e(CARD, d),))),
            (1, lambda: Node(STR, "{0}.ms", (e(CARD, d),))),  # a mark (per-card variable)
            (1, lambda: Node(STR, "{0}.zone", (e(PILE, d),))),
            (2, lambda: Node(STR, "({0} if {1} else {2})", (e(STR, d), e(BOOL, d), e(STR, d)))),
            (2, lambda: Node(STR, "{0}[{1}]", (self.built(STR, d), e(INT, d)))),
            (2, lambda: Node(STR, f"{rng.choice(['min', 'max'])}({{0}})", (self.built(STR, d),))),
            (1, lambda: self.comprehension(rng.choice(["min", "max"]), STR, d)),
            (1, lambda: Node(STR, "sorted({0})[{1}]", (self.built(STR, d), e(INT, d)))),
        ]
        if "move" in self.scope:
            table.append((1, lambda: leaf(STR, "move")))
        return self.pick(table)

    def make_card(self, d: int) -> Node:
        rng, e = self.rng, self.expr
        return self.pick([
            (4, lambda: Node(CARD, f"{rng.choice(['top', 'bottom'])}({{0}})", (e(rng.choice([PILE, CARDS]), d),))),
            (2, lambda: Node(CARD, "{0}[{1}]", (e(CARDS, d), e(INT, d)))),
            (1, lambda: Node(CARD, "{0}[{1}]", (e(PILE, d), e(INT, d)))),
            (1, lambda: Node(CARD, "({0} if {1} else {2})", (e(CARD, d), e(BOOL, d), e(CARD, d)))),
            (1, lambda: self.argcomprehension(CARDS, CARD, d)),
        ])

    def argcomprehension(self, items_kind: str, kind: str, d: int, sort: bool = False) -> Node:
        """argmin or argmax(NUMBER for NAME in ITEMS): an item (of `kind`); with `sort`,
        argsort(NUMBER for NAME in ITEMS [if COND]): the items in the order of their numbers."""
        a = self.name(kind)
        items = self.expr(items_kind, d)
        saved = dict(self.scope)
        self.scope[a] = kind
        body = self.expr(INT, d)
        cond = self.expr(BOOL, d) if sort and self.rng.random() < 0.3 else None
        self.scope = saved
        func, result = ("argsort", items_kind) if sort else (self.rng.choice(["argmin", "argmax"]), kind)
        if cond is None:
            return Node(result, f"{func}({{0}} for {a} in {{1}})", (body, items))
        return Node(result, f"{func}({{0}} for {a} in {{1}} if {{2}})", (body, items, cond))

    def make_pile(self, d: int) -> Node:
        rng, e = self.rng, self.expr
        return self.pick([
            (3, lambda: Node(PILE, "row[{0}]", (e(INT, d),))),
            (2, lambda: Node(PILE, "of(hand, {0})", (self.seat(d),))),
            (1, lambda: Node(PILE, "{0}[{1}]", (e(PILES, d), e(INT, d)))),
            (1, lambda: Node(PILE, "({0} if {1} else {2})", (e(PILE, d), e(BOOL, d), e(PILE, d)))),
            (1, lambda: self.argcomprehension(PILES, PILE, d)),
            (1, lambda: leaf(PILE, rng.choice(["stock", "waste", "hand"]))),
        ])

    def make_piles(self, d: int) -> Node:
        e = self.expr
        return self.pick([
            (2, lambda: Node(PILES, "row[{0}:{1}]", (e(INT, d), e(INT, d)))),
            (2, lambda: self.comprehension("list", PILE, d)),
            (1, lambda: Node(PILES, "[{0}, {1}]", (e(PILE, d), e(PILE, d)))),
            (1, lambda: leaf(PILES, "row")),
            (1, lambda: Node(PILES, "unique({0})", (e(PILES, d),))),
            (1, lambda: self.argcomprehension(PILES, PILE, d, sort=True)),
        ])

    def make_cards(self, d: int) -> Node:
        rng, e = self.rng, self.expr
        return self.pick([
            (3, lambda: Node(CARDS, f"{rng.choice(['cards', 'run'])}({{0}})", (e(PILE, d),))),
            (2, lambda: Node(CARDS, "{0}[{1}:{2}]", (e(CARDS, d), e(INT, d), e(INT, d)))),
            (1, lambda: Node(CARDS, "{0}[{1}:]", (e(PILE, d), e(INT, d)))),
            (2, lambda: self.comprehension("list", CARD, d)),
            (1, lambda: Node(CARDS, "({0} + {1})", (e(CARDS, d), e(CARDS, d)))),
            (1, lambda: Node(CARDS, "unique({0})", (e(CARDS, d),))),
            (1, lambda: self.argcomprehension(CARDS, CARD, d, sort=True)),
        ])

    def make_ilist(self, d: int) -> Node:
        rng, e = self.rng, self.expr
        return self.pick([
            (3, lambda: self.comprehension("list", INT, d)),
            (2, lambda: Node(ILIST, "range({0})", (e(INT, d),))),
            (2, lambda: Node(ILIST, "range({0}, {1})", (e(INT, d), e(INT, d)))),
            (2, lambda: Node(ILIST, "[{0}, {1}, {2}]", (e(INT, d), e(INT, d), e(INT, d)))),
            (2, lambda: Node(ILIST, "{0}[{1}:{2}]", (e(ILIST, d), e(INT, d), e(INT, d)))),
            (1, lambda: leaf(ILIST, rng.choice(["seats", "[]"]))),
            (1, lambda: Node(ILIST, "({0} + {1})", (e(ILIST, d), e(ILIST, d)))),
            (1, lambda: Node(ILIST, f"{rng.choice(['sorted', 'unique'])}({{0}})", (e(ILIST, d),))),
            (1, lambda: self.argcomprehension(ILIST, INT, d, sort=True)),
        ])

    def make_slist(self, d: int) -> Node:
        rng, e = self.rng, self.expr
        table: list[tuple[float, Callable[[], Node]]] = [
            (3, lambda: self.comprehension("list", STR, d)),
            (2, lambda: Node(SLIST, "[{0}, {1}]", (e(STR, d), e(STR, d)))),
            (1, lambda: Node(SLIST, "{0}[{1}:]", (e(SLIST, d), e(INT, d)))),
            (1, lambda: leaf(SLIST, f"[{', '.join(repr(s) for s in rng.sample(NAMES, 5))}]")),
            (1, lambda: Node(SLIST, f"{rng.choice(['sorted', 'unique'])}({{0}})", (e(SLIST, d),))),
            (1, lambda: self.argcomprehension(SLIST, STR, d, sort=True)),
        ]
        if not self.listing:
            table.append((1, lambda: leaf(SLIST, "legal_moves()")))
        return self.pick(table)

    def make_blist(self, d: int) -> Node:
        e = self.expr
        return self.pick([
            (2, lambda: self.comprehension("list", BOOL, d)),
            (1, lambda: Node(BLIST, "[{0}, {1}]", (e(BOOL, d), e(BOOL, d)))),
            (1, lambda: Node(BLIST, "unique({0})", (e(BLIST, d),))),
        ])


def simple_values(kind: str) -> list[Node]:
    """The simplest expressions of a kind, that shrinking tries in place of a subexpression."""
    return {
        INT: [leaf(INT, t) for t in ("0", "1", "(-1)", "2", "64", int_text(2 ** 62), int_text(INT_MAX),
                                      int_text(INT_MIN), "a", "b")],
        BOOL: [leaf(BOOL, "true"), leaf(BOOL, "false")],
        STR: [leaf(STR, "'n0'"), leaf(STR, "'n66'"), leaf(STR, "''")],
        CARD: [leaf(CARD, "top(stock)"), leaf(CARD, "none")],
        PILE: [leaf(PILE, "stock"), leaf(PILE, "row[0]")],
        PILES: [leaf(PILES, "row"), leaf(PILES, "[]")],
        CARDS: [leaf(CARDS, "cards(stock)"), leaf(CARDS, "cards(waste)")],
        ILIST: [leaf(ILIST, "[]"), leaf(ILIST, "[0, 1, 2]")],
        SLIST: [leaf(SLIST, "[]"), leaf(SLIST, "['n1', 'n66']")],
        BLIST: [leaf(BLIST, "[true, false]")],
    }[kind]


# -- probes and modules ------------------------------------------------------------------------

# Where a probe's expression stands, and the kind of expression each slot takes.
SLOTS = {
    "when": BOOL,          # a move's `when`, no cards bound
    "move_when": BOOL,     # a move's `when` with from/to: src, dst, card, cards, n bound
    "set_int": INT, "set_bool": BOOL, "set_str": STR, "set_pile": PILE, "set_card": CARD,
    "add": INT,            # `add: {ri: ...}`
    "add_seat": INT,       # `add: {b: ...}` (the mover's own value of a per-player variable)
    "trigger": BOOL,       # a trigger's `when`, after every move
    "trigger_for": BOOL,   # a trigger's `when`, per pile of the row (`q` bound)
    "end": BOOL,           # an end condition
    "score": INT,          # the score
    "select": INT,         # a `select`'s `equals` (sum of `big`: sums past 64 bits)
    "while": BOOL,         # a `while` effect's condition (passes counted in `w`; every other one unbounded)
    "sort": INT,           # a `sort` effect's key (`card` bound), over a pile of the row (descending every other one)
    "with_int": INT, "with_card": CARD,  # a `with` effect's value (`z`), read by the effect it runs
    "start": INT,          # `on_start`'s `set: {ri: ...}`, worked out at the deal of three seats (native/deal.py)
    "random": ILIST,       # `random: {ri: ...}`: a number drawn by chance from the list
    "mark": INT,           # a card taken from a hand marked (`set: {mk: ...}`, a per-card variable), `card` bound
}
SLOT_WEIGHTS = {"when": 3, "move_when": 3, "set_int": 4, "set_bool": 2, "set_str": 1, "set_pile": 1, "set_card": 1, "add": 2,
                "add_seat": 1, "trigger": 2, "trigger_for": 1, "end": 1, "score": 1, "select": 1, "while": 1, "sort": 1,
                "with_int": 1, "with_card": 1, "start": 1,
                "random": 1, "mark": 1}
MOVE_SCOPE = {"src": PILE, "dst": PILE, "card": CARD, "cards": CARDS, "n": INT, "player": INT, "move": STR}
WRITES = {"set_int": "ri", "set_bool": "rb", "set_str": "rs", "set_pile": "rp", "set_card": "rk", "add": "ri",
          "add_seat": "b"}
MAX_SCORE_PROBES = 1  # per module (the score is one expression; an error there names no line of its own)
MAX_START_PROBES = 1  # per module (every game starts with it: an error there ends each game at the deal)


@dataclass(frozen=True)
class Probe:
    """One generated expression and the slot it stands in."""

    slot: str
    expr: Node

    @property
    def text(self) -> str:
        return self.expr.text


def scope_of(slot: str) -> dict[str, str]:
    if slot in ("move_when", "mark"):
        return dict(MOVE_SCOPE)
    if slot == "trigger_for":
        return {"q": PILE, "player": INT, "move": STR}
    if slot in ("trigger",):
        return {"player": INT, "move": STR}
    if slot == "sort":
        return {"card": CARD, "player": INT, "move": STR}
    if slot.startswith(("set", "add", "with")) or slot in ("when", "select", "while", "random"):
        return {"player": INT, "move": STR}
    return {"player": INT}


def probe(rng: random.Random, slot: str | None = None, max_depth: int = 4) -> Probe:
    """A probe in `slot` (else a slot drawn by SLOT_WEIGHTS)."""
    if slot is None:
        slots = list(SLOT_WEIGHTS)
        slot = rng.choices(slots, [SLOT_WEIGHTS[s] for s in slots])[0]
    listing = slot in ("when", "move_when", "select")
    generator = ExpressionGenerator(rng, scope_of(slot), listing, max_depth)
    return Probe(slot, generator.expr(SLOTS[slot], max_depth))


def probes(rng: random.Random, count: int, max_depth: int = 4) -> list[Probe]:
    """`count` probes for one module (at most MAX_SCORE_PROBES in the score)."""
    made: list[Probe] = []
    most = {"score": MAX_SCORE_PROBES, "start": MAX_START_PROBES}
    while len(made) < count:
        p = probe(rng, max_depth=max_depth)
        if p.slot in most and sum(q.slot == p.slot for q in made) == most[p.slot]:
            continue
        made.append(p)
    return made


TUNE_VALUES = [0, 1, -1, 2, 63, 64, 2 ** 31, -(2 ** 31), 2 ** 62, -(2 ** 62), INT_MAX, -INT_MAX]
# The setups a module deals with (by its number of probes), each compiled too (native/deal.py): piles
# dealt face up or down, a `deal` with `where`, a shuffle, loops over piles, the first turn given away.
SETUPS = [
    ['  - deal: {from: stock, to: row, counts: "i + 1", face: up}', "  - deal: {from: stock, to: hand, counts: 2}"],
    ['  - deal: {from: stock, to: row, counts: 2, where: "card.rank > 2", face: up}',
     "  - shuffle: stock", "  - deal: {from: stock, to: hand, counts: 3}",
     '  - for: p in row', '    do: [{turn_down: "top(p)"}]'],
    ['  - deal: {from: stock, to: hand, counts: "1 + player"}',
     '  - for: p in row', '    do: [{move: {from: stock, to: p, count: 2, face: up}}]',
     '  - turn_to: "players - 1"', '  - set: {c: "size(stock)", rp: "row[1]"}'],
]


def module_text(items: list[Probe]) -> tuple[str, dict[int, int]]:
    """The ruleset holding `items` (probe i guarded by `focus == i`), and the line of each probe's
    expression (line -> probe index), to name the probe an error or a lowering refusal is at."""
    count = max(len(items), 1)
    lines = [
        "ruleset: nativefuzz",
        "players: {min: 1, max: 3, default: 2}",
        "deck: fuzzdeck.yaml",
        "options:",
        f"  edge: {{values: [0, 1, -1, {INT_MAX}, {-INT_MAX}, {2 ** 62}], default: 0}}",
        "  word: {values: [n3, n66, zz], default: n3}",
        "  truth: {values: [false, true], default: false}",
        "variables:",
        "  focus: {initial: -1}",
        "  flag: {initial: false}",
        "  b: {initial: 0, per_player: true}",
        "  s: {initial: \"'n1'\"}",
        "  a: {initial: 0}",
        "  t: {initial: true, per_player: true}",
        "  c: {initial: 2}",
        "  ri: {initial: 0}",
        "  rb: {initial: false}",
        "  rs: {initial: \"'n0'\"}",
        '  rp: {initial: "stock"}',
        '  rk: {initial: "none"}',
        "  hits: {initial: 0}",
        "  w: {initial: 0}",
        "  mk: {initial: 0, per_card: true}",
        "  ms: {initial: \"'n0'\", per_card: true}",
        "zones:",
        "  stock: {}",
        "  waste: {}",
        "  row: {count: 3}",
        "  hand: {per_player: true, visibility: owner}",
        "turns: {order: rotation}",
        "setup:",
        "  - take_deck: stock",
        *SETUPS[count % len(SETUPS)],
        "moves:",
        "  lay: {from: stock, to: row}",
        "  pick: {from: row, to: hand}",
        "  drop: {from: hand, take: any, to: waste, do: [{set: {ms: \"card.name\"}}, {move: {face: up}}]}",
        "  back: {from: waste, take: all, to: stock, do: [{move: {flip: true}}]}",
        "  shift: {from: row, take: run, to: row}",
        f"  tune_a: {{choose: {{v: {TUNE_VALUES}}}, do: [{{set: {{a: v}}}}]}}",
        f"  tune_b: {{choose: {{v: {TUNE_VALUES[:6] + [-INT_MAX]}}}, do: [{{set: {{b: v}}}}]}}",
        '  toggle: {do: [{set: {flag: "not flag", t: "not t"}}]}',
        '  tune_c: {choose: {cu: seats, cw: [1, 2]}, when: "cu != player", do: [{set: {a: "cu * 10 + cw"}}]}',
        f'  skip: {{when: "focus >= 0", do: [{{set: {{focus: "(focus + 1) % {count}"}}}}]}}',
        f'  jump: {{choose: {{v: "range({count})"}}, do: [{{set: {{focus: v}}}}]}}',
    ]
    where: dict[int, int] = {}
    triggers: list[str] = []
    ends: list[str] = []
    scores: list[tuple[int, str]] = []
    starts: list[tuple[int, str]] = []

    def quoted(text: str) -> str:
        return json.dumps(text)

    for i, p in enumerate(items):
        guard = f"focus == {i}"
        text = p.text
        if p.slot in ("when", "move_when"):
            lines.append(f"  p{i}:")
            if p.slot == "move_when":
                lines += ["    from: [row, hand]", "    to: [waste, row]"]
            where[len(lines) + 1] = i
            lines.append(f"    when: {quoted(f'{guard} and ({text})')}")
            lines.append("    do: [{add: {hits: 1}}]")
        elif p.slot.startswith("set") or p.slot.startswith("add"):
            var = WRITES[p.slot]
            effect = "set" if p.slot.startswith("set") else "add"
            lines += [f"  p{i}:", f"    when: {quoted(guard)}"]
            where[len(lines) + 1] = i
            lines.append(f"    do: [{{{effect}: {{{var}: {quoted(text)}}}}}]")
        elif p.slot == "while":  # a few passes at most, or (every other probe) until it fails or its bound
            condition = f"w < 3 and ({text})" if i % 2 == 0 else text
            lines += [f"  p{i}:", f"    when: {quoted(guard)}"]
            where[len(lines) + 1] = i
            lines.append(f"    do: [{{set: {{w: 0}}}}, {{while: {quoted(condition)}, do: [{{add: {{w: 1, hits: 1}}}}]}}]")
        elif p.slot.startswith("with"):
            lines += [f"  p{i}:", f"    when: {quoted(guard)}"]
            where[len(lines) + 1] = i
            lines.append(f"    do: [{{with: {{z: {quoted(text)}}}, do: [{{set: {{{'ri' if p.slot == 'with_int' else 'rk'}: z}}}}]}}]")
        elif p.slot == "start":
            starts.append((i, text))
        elif p.slot == "mark":
            lines += [f"  p{i}:", "    from: hand", "    take: any", "    to: waste", f"    when: {quoted(guard)}"]
            where[len(lines) + 1] = i
            lines.append(f"    do: [{{set: {{mk: {quoted(text)}}}}}, {{add: {{mk: 1}}}}, {{move: {{face: up}}}}]")
        elif p.slot == "random":
            lines += [f"  p{i}:", f"    when: {quoted(guard)}"]
            where[len(lines) + 1] = i
            lines.append(f"    do: [{{random: {{ri: {quoted(text)}}}}}]")
        elif p.slot == "sort":
            lines += [f"  p{i}:", f"    when: {quoted(guard)}"]
            where[len(lines) + 1] = i
            lines.append(f"    do: [{{sort: {{pile: \"row[{i % 3}]\", by: {quoted(text)}, descending: {str(i % 2 == 1).lower()}}}}}]")
        elif p.slot == "select":
            lines += [f"  p{i}:", "    from: stock", "    to: waste", f"    when: {quoted(guard)}",
                      "    select: {from: row, take: top, sum: big, max: 3,"]
            where[len(lines) + 1] = i
            lines.append(f"             equals: {quoted(text)}}}")
            lines.append("    do: [move, {move_chosen: {}}]")
        elif p.slot in ("trigger", "trigger_for"):
            triggers.append((i, p))  # type: ignore[arg-type]
        elif p.slot == "end":
            ends.append((i, p))  # type: ignore[arg-type]
        else:
            scores.append((i, text))
    if triggers:
        lines.append("triggers:")
        for i, p in triggers:  # type: ignore[misc]
            lines.append(f"  - name: p{i}")
            if p.slot == "trigger_for":
                lines.append("    for: q in row")
            where[len(lines) + 1] = i
            lines.append(f"    when: {quoted(f'focus == {i} and ({p.text})')}")
            lines.append("    do: [{add: {hits: 1}}]")
    if starts:  # worked out in the games of three seats only: one that always fails leaves the others to play
        lines += ["on_start:", '  - if: "players == 3"', "    then:"]
        for i, text in starts:
            where[len(lines) + 1] = i
            lines.append(f"      - set: {{ri: {quoted(text)}}}")
    lines.append("end:")
    if ends:
        lines.append("  when:")
        for i, p in ends:  # type: ignore[misc]
            where[len(lines) + 1] = i
            lines.append(f"    - if: {quoted(f'focus == {i} and ({p.text})')}")
            lines.append(f"      result: {'won' if i % 2 else 'lost'}")
            lines.append(f"      reason: p{i}")
    lines.append("  no_moves: {result: draw, reason: no move}")
    score = "hits"
    if scores:  # each score probe a function of its own (its own line), called where focus is its number
        lines.append("functions:")
        for i, text in scores:
            where[len(lines) + 1] = i
            lines.append(f"  score{i}(player): {quoted(text)}")
        for i, _ in reversed(scores):
            score = f"score{i}(player) if focus == {i} else ({score})"
    if scores:
        where[len(lines) + 1] = scores[0][0]
    lines.append(f"score: {quoted(score)}")
    return "\n".join(lines) + "\n", where


@dataclass
class Module:
    """A generated ruleset written to a folder, with its probes."""

    folder: Path
    items: list[Probe]
    text: str
    where: dict[int, int]
    dropped: Counter[str] = field(default_factory=Counter)  # probes left out: why (load error, not native)
    # probes left out because loading them failed with something other than a CardrulesError (a
    # fault of cardrules: every bad input gets a positioned error), with that failure's kind
    crashed: list[tuple[Probe, str]] = field(default_factory=list)

    @property
    def path(self) -> Path:
        return self.folder / "nativefuzz.yaml"


def write_module(folder: Path, items: list[Probe]) -> Module:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "fuzzdeck.yaml").write_text(deck_text(), encoding="utf-8")
    text, where = module_text(items)
    (folder / "nativefuzz.yaml").write_text(text, encoding="utf-8")
    return Module(folder, items, text, where)


def probe_at(module: Module, line: int | None) -> int | None:
    """The probe whose expression is on `line` (1-based) of the module's file."""
    if line is None:
        return None
    return module.where.get(line)


DROPPED_EXAMPLES: dict[str, str] = {}  # (for a look at what the generator writes that cannot run natively)


def build(folder: Path, items: list[Probe]) -> tuple[Module, Any, Any]:
    """The module of `items` that loads and lowers: a probe at which loading fails (a type the
    generator got wrong) or that the native backend does not cover is left out, and the module
    written again; returns the module, its loaded ruleset and its native backend."""
    from cardrules import load_ruleset
    from cardrules.base.errors import CardrulesError
    from cardrules.native import Unsupported, native_backend

    dropped: Counter[str] = Counter()
    crashed: list[tuple[Probe, str]] = []
    items = list(items)
    while True:
        module = write_module(folder, items)
        module.dropped, module.crashed = dropped, crashed
        try:
            rules = load_ruleset(str(module.path))
            return module, rules, native_backend(rules)
        except Unsupported as exc:
            line = exc.pos.line if exc.pos is not None else None
            why = f"not native: {re.sub(r'[0-9]+', 'N', exc.what)[:80]}"
        except CardrulesError as exc:
            pos = getattr(exc, "pos", None)
            line = pos.line if pos is not None else None
            why = f"does not load: {re.sub(r'[0-9]+', 'N', str(exc).split(': ', 2)[-1])[:80]}"
        except Exception as exc:  # noqa: BLE001 - a fault of the loader: found by loading each probe alone
            index = _crashing_probe(folder / "alone", items)
            if index is None:
                raise
            crashed.append((items[index], f"crash at load: {_kind_of_error(exc)}"))
            del items[index]
            continue
        index = probe_at(module, line)
        named = re.search(r"the variable '(\w+)'", why)
        if index is None and named:  # a variable no kind fits: a probe setting it is to blame
            writers = [i for i, p in enumerate(items) if WRITES.get(p.slot) == named.group(1)]
            index = writers[-1] if writers else None
        if index is None:
            raise RuntimeError(f"the generated module fails outside its probes ({why}, line {line}):\n{module.text}")
        dropped[why] += 1
        DROPPED_EXAMPLES.setdefault(why, items[index].text)
        del items[index]


def _crashing_probe(folder: Path, items: list[Probe]) -> int | None:
    """The first probe whose ruleset of its own fails to load with something other than a
    CardrulesError (or Unsupported: the native backend is not asked)."""
    from cardrules import load_ruleset
    from cardrules.base.errors import CardrulesError

    for index, item in enumerate(items):
        try:
            load_ruleset(str(write_module(folder, [item]).path))
        except CardrulesError:
            pass
        except Exception:  # noqa: BLE001
            return index
    return None


# -- playing both backends ---------------------------------------------------------------------

# Where compiled code may stop and Python play on (docs/native.md, "Errors"): its own bounds, and
# an overflow in the middle of an expression (compiled code checks every step, Python the value kept).
NATIVE_BOUNDS = ("a long range", "many subsets", "many groups", "many choices of groups", "too many legal moves", "more legal moves than it keeps", "too many positions",
                 "more positions than", "too many selections", "more selections than", "more than 4 seats",
                 "a game longer than", "winners: a seat", "overflow")


@dataclass
class Difference:
    """The backends disagree: how (its kind), at which probe, in which game."""

    kind: str
    probe: int | None
    seed: int
    players: int
    start: int
    detail: str

    def key(self) -> str:
        return self.kind


@dataclass
class Tally:
    """What a run compared: probes, games, moves, errors met, native stops at its bounds."""

    probes: int = 0
    modules: int = 0
    games: int = 0
    moves: int = 0
    errors: int = 0  # Python errors that compiled code stopped at too, replayed alike
    bounds: Counter[str] = field(default_factory=Counter)
    dropped: Counter[str] = field(default_factory=Counter)
    evaluated: set[int] = field(default_factory=set)  # probes that were the focus of some position
    ends: Counter[str] = field(default_factory=Counter)  # how the games ended

    def add(self, other: Tally) -> None:
        self.probes += other.probes
        self.modules += other.modules
        self.games += other.games
        self.moves += other.moves
        self.errors += other.errors
        self.bounds.update(other.bounds)
        self.dropped.update(other.dropped)
        self.ends.update(other.ends)


class _Differs(Exception):
    def __init__(self, kind: str, focus: int | None, detail: str) -> None:
        super().__init__(detail)
        self.kind, self.focus, self.detail = kind, focus, detail


def _kind_of_error(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {re.sub(r'-?[0-9]+', 'N', str(exc).split(': ')[-1])[:70]}"


def _differs_at_stop(stop: str, focus: int, tally: Tally) -> None:
    """Compiled code stopped where Python played on: fine at one of its bounds (counted), else a
    difference."""
    if any(bound in stop for bound in NATIVE_BOUNDS):
        tally.bounds[stop.split(": ", 1)[-1]] += 1
        return
    raise _Differs("native stopped where Python did not", focus, stop)


def _same_move(game: Any, move: Any) -> Any:
    """`move` of another game of the same ruleset, as this game's legal move (by its text)."""
    text = str(move)
    return next(m for m in game.legal_moves() if str(m) == text)


def play_module(rules: Any, backend: Any, count: int, seed: int, players: int, start: int, max_moves: int,
                tally: Tally, starting: int = -1) -> tuple[Difference | None, int]:
    """One seeded game of a module of `count` probes through both backends, its first move the
    `jump` to probe `start`, compared at every step: the first difference (or None), and the probe
    in focus at the end. Moves are drawn from the game's seed, the probe in focus and `skip` more
    often than the others. The start is compared first: the game the compiled deal starts
    (`native.compare_deal`), or, where Python raises at the deal (probe `starting`, of `on_start`),
    the compiled deal's stop."""
    from cardrules import native
    from cardrules.base.errors import CardrulesError

    rng = random.Random(f"{seed}/{players}/{start}")
    made: list[Any] = []

    def focus_of(game: Any) -> int:
        return int(game.variable("focus"))

    def check(what: str, python: Any, compiled: Any) -> None:
        if python != compiled:
            raise _Differs(f"{what} differ", None, f"python {python!r:.300}, native {compiled!r:.300}")

    def replayed(last: Any) -> str:
        """The error a fresh Python game raises replaying the moves made, then `last`."""
        again = rules.new_game(seed=seed, players=players, max_moves=max_moves)
        try:
            for move in made:
                again.apply(_same_move(again, move))
            again.apply(_same_move(again, last))
        except CardrulesError as exc:
            return str(exc)
        return "(no error)"

    def at_deal(kind: str, detail: str) -> tuple[Difference, int]:
        return Difference(kind, starting if starting >= 0 else None, seed, players, start, detail), start

    if starting >= 0:
        tally.evaluated.add(starting)  # worked out at every deal
    try:
        game = rules.new_game(seed=seed, players=players, max_moves=max_moves)
    except CardrulesError as exc:  # the start of the game compiled (native/deal.py) must stop too
        try:
            backend.deal(seed, players, max_moves)
        except (native.NativeStop, CardrulesError):
            tally.errors += 1
            tally.ends["an error at the deal"] += 1
            return None, start  # (no game: the next one starts past this probe)
        except Exception as crash:  # noqa: BLE001
            return at_deal(f"native crashed at the deal: {_kind_of_error(crash)}", repr(crash)[:300])
        return at_deal("native dealt where Python raised", str(exc))
    tally.games += 1
    focus = focus_of(game)
    try:  # the game the compiled deal starts is the one Python deals, array for array
        native.compare_deal(backend, seed, players, max_moves, check)
    except native.NativeStop as exc:
        try:
            _differs_at_stop(str(exc), starting, tally)
        except _Differs as differs:
            return at_deal(f"at the deal: {differs.kind}", differs.detail)
        tally.ends["stopped at the deal"] += 1
        return None, focus
    except _Differs as differs:
        return at_deal(f"at the deal: {differs.kind}", differs.detail)
    except Exception as crash:  # noqa: BLE001
        return at_deal(f"native crashed at the deal: {_kind_of_error(crash)}", repr(crash)[:300])
    try:
        try:
            game.legal_moves()
            python_error: CardrulesError | None = None
        except CardrulesError as exc:
            python_error = exc
        except Exception as exc:  # noqa: BLE001 - a crash of the reference is a difference too
            raise _Differs(f"Python crashed: {_kind_of_error(exc)}", focus, repr(exc)) from None
        try:
            position = backend.start(game)
        except Exception as exc:  # noqa: BLE001
            if not isinstance(exc, native.NativeStop):
                raise _Differs(f"native crashed: {_kind_of_error(exc)}", focus, repr(exc)[:300]) from None
            if python_error is None:
                _differs_at_stop(str(exc), focus, tally)
            else:
                tally.errors += 1
            tally.ends["stopped before the first move"] += 1
            return None, focus_of(game)
        if python_error is not None:
            raise _Differs("Python raised where native did not", focus, str(python_error))
        tried: set[str] = set()  # moves that failed in this position (taken back)
        want: int | None = start  # the probe to jump to next: the first, then past one that fails at once
        while True:
            if focus >= 0:
                tally.evaluated.add(focus)
            native.compare_listing(backend, game, position, check)
            _compare_scores(game, position, focus, tally)
            if game.is_over:
                _compare_ending(game, position, focus, check)
                tally.ends[f"{game.outcome}: {game.reason}" if game.outcome == "limit" else "an end condition"] += 1
                return None, focus_of(game)
            legal = [m for m in game.legal_moves() if str(m) not in tried]
            if not legal:
                tally.ends["every move failed"] += 1
                return None, focus_of(game)
            in_focus = [m for m in legal if m.name == f"p{focus}"]
            skip = [m for m in legal if m.name == "skip"]
            jump = [m for m in legal if m.name == "jump" and want is not None and str(m).endswith(f" {want}")]
            r = rng.random()
            others = [m for m in legal if m.name != "jump"] or legal  # (jumps are the driver's, not random play's)
            move = jump[0] if jump else rng.choice(in_focus) if in_focus and r < 0.5 else \
                skip[0] if skip and r < 0.75 else rng.choice(others)
            # the probe a failure of this move is at: after `skip` the next one's (its triggers, end,
            # listing), after `jump` the one jumped to
            blame = (focus + 1) % count if move.name == "skip" else \
                int(str(move).rsplit(" ", 1)[-1]) if move.name == "jump" else focus
            try:
                game.apply(move)
                python_error = None
            except CardrulesError as exc:
                python_error = exc
            except Exception as exc:  # noqa: BLE001
                raise _Differs(f"Python crashed: {_kind_of_error(exc)}", blame, repr(exc)) from None
            try:
                position.apply_code(backend.code(move))
                stop = None
            except native.NativeStop as exc:
                stop = str(exc)
            except Exception as exc:  # noqa: BLE001
                raise _Differs(f"native crashed: {_kind_of_error(exc)}", blame, repr(exc)) from None
            if python_error is not None:
                if stop is None:
                    raise _Differs("Python raised where native did not", blame, str(python_error))
                again = replayed(move)
                if again != str(python_error):
                    raise _Differs("the replay raised another error", blame, f"{python_error} / then {again}")
                tally.errors += 1
                tally.evaluated.add(blame)  # (its expressions failed alike in both)
                if move.name in ("skip", "jump"):  # a probe that fails as soon as it is in focus: past it
                    want = (blame + 1) % count
                tried.add(str(move))
                position = backend.start(game)  # Python took the move back: the native game starts from there
                continue
            if stop is not None:
                _differs_at_stop(stop, blame, tally)
                tally.ends["native stopped at a bound"] += 1
                return None, focus_of(game)
            made.append(move)
            tally.moves += 1
            tried = set()
            if move.name in ("skip", "jump"):
                want = None
            focus = focus_of(game)
            native.compare_position(backend, game, position, check)
    except _Differs as differs:
        return Difference(differs.kind, differs.focus if differs.focus is not None else focus_of(game), seed,
                          players, start, differs.detail), focus_of(game)


def _compare_scores(game: Any, position: Any, focus: int, tally: Tally) -> None:
    """Every seat's score (the score probe in focus): equal, or both stopped (Python raising)."""
    from cardrules.base.errors import CardrulesError
    from cardrules.native import NativeStop

    try:
        python: list[int] | None = game.scores()
    except CardrulesError:
        python = None
    try:
        compiled: list[int] | None = [position.score(p) for p in range(game.players)]
    except Exception as exc:  # noqa: BLE001
        if not isinstance(exc, NativeStop):
            raise _Differs(f"native crashed: {_kind_of_error(exc)}", focus, repr(exc)[:300]) from None
        if python is not None:
            _differs_at_stop(str(exc), focus, tally)
            return
        compiled = None
    if python != compiled:
        kind = "the scores differ" if python is not None and compiled is not None else \
            "Python raised where native did not" if python is None else "native stopped where Python did not"
        raise _Differs(kind, focus, f"python {python}, native {compiled}")


def _compare_ending(game: Any, position: Any, focus: int, check: Callable[[str, Any, Any], None]) -> None:
    """`native.compare_ending`, where the score may fail: then compiled code must stop too."""
    from cardrules import native
    from cardrules.base.errors import CardrulesError

    try:
        game.winners()
        game.scores()
    except CardrulesError as exc:
        check("the outcomes", (game.outcome, game.reason), (position.outcome, position.reason))
        try:
            position.winners()
            [position.score(p) for p in range(game.players)]
        except native.NativeStop:
            return
        raise _Differs("Python raised where native did not", focus, str(exc)) from None
    native.compare_ending(game, position, check)


@dataclass
class Run:
    """A module played: what was compared, the differences found (the first per probe)."""

    module: Module
    tally: Tally
    differences: list[Difference]  # those of `crashes` among them
    crashes: list[tuple[Difference, Probe]] = field(default_factory=list)  # loading failed as no error should


def fuzz_module(folder: Path, items: list[Probe], seed: int = 0, passes: int = 2, max_moves: int = 200) -> Run:
    """Build the module of `items` and play it: games of 1, 2 and 3 seats in turn, each starting
    where the last one ended, or at the first probe not yet evaluated (its first move the `jump`
    there), until `focus` has gone round all the probes `passes` times and every probe was
    evaluated (at most 40 games a pass)."""
    module, rules, backend = build(folder, items)
    count = len(module.items)
    starting = next((i for i, p in enumerate(module.items) if p.slot == "start"), -1)
    tally = Tally(probes=count, modules=1, dropped=Counter(module.dropped))
    differences: dict[int | None, Difference] = {}
    start, covered, game = 0, 0, 0
    while (covered < passes * count or len(tally.evaluated) < count) and game < passes * 40:
        found, end = play_module(rules, backend, count, seed * 1000 + game, 1 + game % 3, start, max_moves, tally,
                                 starting)
        if found is not None and found.probe not in differences:
            differences[found.probe] = found
        covered += (end - start) % count + 1
        # the next game starts past where this one ended, at the first probe not yet evaluated
        start = next((p % count for p in range(end + 1, end + 1 + count) if p % count not in tally.evaluated),
                     (end + 1) % count)
        game += 1
    crashes = [(Difference(kind, None, seed, 0, 0, item.text), item) for item, kind in module.crashed]
    return Run(module, tally, [d for d, _ in crashes] + list(differences.values()), crashes)


# -- shrinking -----------------------------------------------------------------------------------

def smaller(item: Probe, most: int = 60) -> list[Probe]:
    """Probes of the same slot with one node of the expression replaced by a child of its kind or
    by a simple value of its kind: each smaller than `item` (by nodes, then text), at most `most`,
    smallest first."""
    seen = {item.text}
    found: list[Probe] = []
    for path, node in item.expr.nodes():
        for by in [kid for kid in node.kids if kid.kind == node.kind] + simple_values(node.kind):
            candidate = Probe(item.slot, item.expr.replaced(path, by))
            if candidate.text not in seen and (candidate.expr.size(), len(candidate.text)) < \
                    (item.expr.size(), len(item.text)):
                seen.add(candidate.text)
                found.append(candidate)
    found.sort(key=lambda p: (p.expr.size(), len(p.text)))
    return found[:most]


def shrink(folder: Path, item: Probe, kind: str, seed: int = 0, rounds: int = 6) -> tuple[Probe, Difference | None]:
    """The smallest probe found that still differs as `item` does (`kind`): each round one module
    holding the probe and its smaller versions (`smaller`), played as `fuzz_module` plays; the
    smallest that differs alike is kept, until none does. Returns it and its difference there."""
    best, shown = item, None
    for round_ in range(rounds):
        candidates = [best] + smaller(best)
        run = fuzz_module(folder / f"shrink{round_}", candidates, seed)
        alike = [(run.module.items[d.probe], d) for d in run.differences
                 if d.kind == kind and d.probe is not None and d.probe < len(run.module.items)]
        alike += [(p, d) for d, p in run.crashes if d.kind == kind]
        if shown is None:
            shown = next((d for p, d in alike if p.text == best.text), None)
        fewer = [(p, d) for p, d in alike if (p.expr.size(), len(p.text)) < (best.expr.size(), len(best.text))]
        if not fewer:
            break
        best, shown = min(fewer, key=lambda pd: (pd[0].expr.size(), len(pd[0].text)))
    return best, shown


def reproducer(item: Probe, difference: Difference | None = None) -> str:
    """A ruleset holding the one probe, as YAML, with the game that shows the difference."""
    text, _ = module_text([item])
    note = "# deck: fuzzdeck.yaml is tests/native_fuzzing.py's deck_text()\n"
    if difference is not None:
        note += (f"# seed {difference.seed}, {difference.players} seats, first move 'jump 0' "
                 f"(native_fuzzing.play_module): {difference.kind}: {difference.detail[:300]}\n")
    return note + text
