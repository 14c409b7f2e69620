"""The rules in words: `cardrules rules RULESET` (setup, moves, triggers, end, score), from the
merged ruleset document and its parsed expression trees.

A loaded ruleset (so every check has passed) is described section by section; each expression is
parsed again (`parser.parse_expression`, memoized), its options folded to the values chosen (as
the compiler folds them; `fold=False` keeps `the draw option`), and spoken node by node
(`Speaker`). A ruleset function is written out where it is called when its body is small, and is
named otherwise; every function is also described on its own. A construct without good English
is shown as its expression text in backticks. Nothing is evaluated but constant folding of
literals (never `eval`); nothing here knows any game.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ...front.compiler import show
from ...base.errors import RulesetError, shown_title
from ...front.parser import (
    Attr,
    Binary,
    Call,
    Comprehension,
    Const,
    Index,
    ListLit,
    Name,
    Node,
    ParseError,
    Slice,
    Ternary,
    Unary,
    parse_expression,
    parse_loop,
    parse_signature,
)
from ...front.source import Document, PathKey
from .document import Block, RulesDocument, render_markdown, render_text
from .folding import _children, _const_items, free_names, simplify, size
from .vocabulary import Book, Term, ZoneInfo, _capital, _join, _ordinal, _plain, _value_text, possessive

__all__ = ["Book", "Speaker", "Term", "describe", "render_markdown", "render_text", "rules_document", "simplify"]

INLINE_NODES = 40          # a function body of at most this many nodes is written out where it is called
INLINE_BUDGET = 120        # nodes written out by inlining in one expression, in all
INLINE_DEPTH = 1           # a function written out names the functions its body calls

_RESULT_WORDS = {"won": "won", "lost": "lost", "draw": "a draw", "over": "over (no winner or loser)",
                 "limit": "stopped (result: limit)"}
_VISIBILITY_WORDS = {
    "faces": "face-up cards are seen by all, face-down ones by nobody",
    "all": "every card is seen by all",
    "none": "only the number of cards is seen",
    "owner": "its seat sees all of its cards, the others only the face-up ones",
    "top": "only the top card is seen, when face up",
}
_COMPARE = {"==": ("is", "is not"), "!=": ("is not", "is"), "<": ("is less than", "is not less than"),
            "<=": ("is at most", "is more than"), ">": ("is more than", "is at most"),
            ">=": ("is at least", "is less than")}
_ARITH = {"+": "plus", "-": "minus", "*": "times", "/": "divided by (rounded down)", "%": "modulo",
          "**": "to the power of"}
_LEVEL = {"or": 2, "and": 3, "+": 6, "-": 6, "*": 7, "/": 7, "%": 7, "**": 9}
_NEGATED = {"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<"}
_QUANTITY = {"==": "exactly", "!=": "other than", "<": "fewer than", "<=": "at most", ">": "more than",
             ">=": "at least"}
_RESULT_TITLE = {"won": "Won", "lost": "Lost", "draw": "A draw", "over": "Over, with no winner or loser",
                 "limit": "Stopped (result: limit)"}


class Speaker:
    """Speaks expression trees in English, with the names of one context (`names`)."""

    def __init__(self, book: Book, names: dict[str, Term] | None = None, budget: list[int] | None = None,
                 depth: int = 0, calls: dict[str, int] | None = None) -> None:
        self.book = book
        self.names = dict(names or {})
        self.budget = budget if budget is not None else [INLINE_BUDGET]
        self.depth = depth
        self.calls = calls  # how often the expression being spoken calls each function (None: not begun)

    def with_names(self, extra: dict[str, Term]) -> Speaker:
        return Speaker(self.book, {**self.names, **extra}, self.budget, self.depth, self.calls)

    # -- entry points ------------------------------------------------------------------------

    def text(self, source: Any) -> str:
        """An expression (its text, or a YAML number or truth value) in words."""
        return self.say(self.tree(source))

    def tree(self, source: Any) -> Node:
        node = source if isinstance(source, Node) else _parse(source)
        return simplify(node, self.book)

    def say(self, node: Node, neg: bool = False, top: bool = True) -> str:
        """`node` in words (negated with `neg`); `top`: not inside another construct's words, so
        a conditional or a list of alternatives needs no parentheses."""
        if self.calls is None:  # a whole expression: its own budget for functions written out
            return Speaker(self.book, self.names, [INLINE_BUDGET], self.depth, _call_counts(node)).say(node, neg, top)
        method = getattr(self, f"_{type(node).__name__.lower()}", None)
        if method is None:  # pragma: no cover - every node kind of front/parser.py has a method
            return self._not(f"`{show(node)}`", neg)
        return method(node, neg, top)  # type: ignore[no-any-return]

    # -- helpers ------------------------------------------------------------------------------

    @staticmethod
    def _not(text: str, neg: bool) -> str:
        return f"not {text}" if neg else text

    def kind(self, node: Node) -> str:
        """What a node gives, as far as the words need it."""
        if isinstance(node, Name):
            if node.name in self.names:
                return self.names[node.name].kind
            if node.name in self.book.zones:
                return self.book.zone_term(node.name).kind
            return {"seats": "seats", "players": "number"}.get(node.name, "")
        if isinstance(node, Call):
            if node.func in ("cards", "run"):
                return "cards"
            if node.func in ("top", "bottom"):
                return "card"
            if node.func in ("size", "count", "sum", "abs"):
                return "number"
            if node.func == "range":
                return "numbers"
            if node.func == "of" and node.args and isinstance(node.args[0], Name) \
                    and node.args[0].name in self.book.zones:
                return "pile" if self.book.zones[node.args[0].name].single else "piles"
            return ""
        if isinstance(node, Index):
            return {"piles": "pile", "cards": "card", "pile": "card", "seats": "seat"}.get(self.kind(node.obj), "")
        if isinstance(node, Slice):
            obj = self.kind(node.obj)
            return "cards" if obj == "pile" else obj
        if isinstance(node, Comprehension) and node.func == "list":
            element = self.with_names(self._loop_names(node.names, node.iterable)).kind(node.element)
            return {"pile": "piles", "card": "cards"}.get(element, "list")
        if isinstance(node, Comprehension) and node.func in ("argmin", "argmax"):
            return self._element_kind(node.iterable)
        if isinstance(node, ListLit):
            return "list"
        if isinstance(node, Const):
            return "number" if type(node.value) is int else ""
        return ""

    def _element_kind(self, iterable: Node) -> str:
        return {"piles": "pile", "cards": "card", "seats": "seat", "numbers": "number"}.get(self.kind(iterable), "")

    def _loop_names(self, names: Sequence[str], iterable: Node) -> dict[str, Term]:
        if isinstance(iterable, Call) and iterable.func == "pairs" and len(names) == 2:
            element = self._element_kind(iterable.args[0]) if iterable.args else ""
            return {n: Term(n, element) for n in names}
        element = self._element_kind(iterable)
        return {n: Term(n, element) for n in names}

    def _wrap(self, text: str, top: bool) -> str:
        return text if top else f"({text})"

    # -- node kinds ---------------------------------------------------------------------------

    def _const(self, node: Const, neg: bool, top: bool) -> str:
        if isinstance(node.value, bool):
            return "false" if node.value == neg else "true"
        return self._not(_value_text(node.value), neg)

    def _name(self, node: Name, neg: bool, top: bool) -> str:
        name = node.name
        if name in self.names:
            text = self.names[name].text
        elif name in self.book.variables:
            owner = self.names.get("player", Term("the player")).text
            text = possessive(owner, name) if self.book.variables[name] else name
        elif name in self.book.zones:
            text = self.book.zone_term(name).text
        elif name in _GLOBALS:
            text = _GLOBALS[name]
        else:
            text = _plain(name)
        return self._not(text, neg)

    def _attr(self, node: Attr, neg: bool, top: bool) -> str:
        if isinstance(node.obj, Name) and node.obj.name == "option" and "option" not in self.names:
            if node.name in self.book.flags:
                return f"the {_plain(node.name)} option is {'off' if neg else 'on'}"
            return self._not(f"the {_plain(node.name)} option", neg)
        owner = self.say(node.obj, top=False)
        if node.name == "face_up":
            return f"{owner} is {'not ' if neg else ''}face up"
        words = {"index": "index", "zone": "zone", "owner": "seat"}
        thing = words.get(node.name, _plain(node.name)) if self.kind(node.obj) != "card" or node.name == "zone" \
            else _plain(node.name)
        return self._not(possessive(owner, thing), neg)

    def _index(self, node: Index, neg: bool, top: bool) -> str:
        kind = self.kind(node.obj)
        noun = {"piles": "pile", "cards": "card", "pile": "card", "seats": "seat"}.get(kind, "item")
        if isinstance(node.index, Const) and type(node.index.value) is int:
            k = node.index.value
            if kind == "piles" and isinstance(node.obj, Name) and node.obj.name in self.book.zones and k >= 0:
                zone = self.book.zones[node.obj.name]
                owner = "the player's " if zone.per_player else ""
                return self._not(f"{owner}{zone.singular} {k + 1}", neg)
            obj = self.say(node.obj, top=False)
            if kind in ("pile", "cards"):
                where = f"from the bottom of {obj}" if k >= 0 else f"from the top of {obj}"
                return self._not(f"the {_ordinal(k + 1 if k >= 0 else -k)} card {where}", neg)
            if k >= 0:
                return self._not(f"the {_ordinal(k + 1)} {noun} of {obj}", neg)
            if k == -1:
                return self._not(f"the last {noun} of {obj}", neg)
            return self._not(f"the {_ordinal(-k)}-to-last {noun} of {obj}", neg)
        obj = self.say(node.obj, top=False)
        return self._not(f"{noun} number {self.say(node.index, top=False)} of {obj}", neg)

    def _slice(self, node: Slice, neg: bool, top: bool) -> str:
        kind = self.kind(node.obj)
        nouns = {"piles": "piles", "cards": "cards", "pile": "cards", "seats": "seats"}.get(kind, "items")
        obj = self.say(node.obj, top=False)
        lo, hi = node.lo, node.hi
        lo_k = lo.value if isinstance(lo, Const) and type(lo.value) is int else None
        hi_k = hi.value if isinstance(hi, Const) and type(hi.value) is int else None
        if lo is None and hi is None:
            text = f"all the {nouns} of {obj}"
        elif hi is None and lo_k is not None and lo_k < 0:
            text = f"the last {-lo_k} {nouns} of {obj}"
        elif hi is None and lo_k is not None:
            text = f"the {nouns} of {obj} but the first {lo_k}"
        elif lo is None and hi_k is not None and hi_k >= 0:
            text = f"the first {hi_k} {nouns} of {obj}"
        elif lo is None and hi_k is not None:
            text = f"the {nouns} of {obj} but the last {-hi_k}"
        else:
            start = f"from position {self.say(lo, top=False)}" if lo is not None else "from the first"
            end = f" up to, not including, position {self.say(hi, top=False)}" if hi is not None else " on"
            text = f"the {nouns} of {obj} {start}{end}"
        return self._not(text, neg)

    def _listlit(self, node: ListLit, neg: bool, top: bool) -> str:
        if not node.items:
            return self._not("an empty list", neg)
        return self._not("the list of " + _join([self.say(i, top=False) for i in node.items]), neg)

    def _unary(self, node: Unary, neg: bool, top: bool) -> str:
        if node.op == "not":
            return self.say(node.operand, not neg, top)
        text = f"minus {self.say(node.operand, top=False)}" if not isinstance(node.operand, Const) \
            else f"-{self.say(node.operand)}"
        return self._not(text, neg)

    def _ternary(self, node: Ternary, neg: bool, top: bool) -> str:
        parts = []
        current: Node = node
        while isinstance(current, Ternary):
            parts.append(f"{self.say(current.then, neg, top=False)} if {self.say(current.condition, top=False)}")
            current = current.otherwise
        parts.append(f"otherwise {self.say(current, neg, top=False)}")
        return self._wrap(", ".join(parts), top)

    def _binary(self, node: Binary, neg: bool, top: bool) -> str:
        op = node.op
        if op in ("and", "or"):
            return self._chain(node, neg, top)
        if op in _COMPARE:
            return self._compare(node, neg, top)
        if op in ("in", "notin"):
            return self._member(node, neg != (op == "notin"))
        level = _LEVEL[op]

        def side(child: Node, least: int) -> str:
            text = self.say(child, top=False)
            return f"({text})" if isinstance(child, Binary) and _LEVEL.get(child.op, 5) < least else text

        if op == "**":
            text = f"{side(node.left, 10)} to the power of {side(node.right, 9)}"
        else:
            text = f"{side(node.left, level)} {_ARITH[op]} {side(node.right, level + 1)}"
        return self._not(text, neg)

    def _compare(self, node: Binary, neg: bool, top: bool) -> str:
        left, right = node.left, node.right
        if isinstance(left, Const) and not isinstance(right, Const):  # "3 <= n": the name first
            flipped = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}.get(node.op, node.op)
            left, right, op = right, left, flipped
        else:
            op = node.op
        if isinstance(right, Const) and isinstance(right.value, bool) and op in ("==", "!="):
            return self.say(left, neg != ((op == "==") != right.value), top)
        if isinstance(left, Comprehension) and left.func == "count":  # "exactly 2 f in the foundation piles ..."
            return self._counted(left, _NEGATED[op] if neg else op, right)
        words = _COMPARE[op][1 if neg else 0]
        return f"{self.say(left, top=False)} {words} {self.say(right, top=False)}"

    def _counted(self, count: Comprehension, op: str, right: Node) -> str:
        inner = self.with_names(self._loop_names(count.names, count.iterable))
        names = " and ".join(count.names)
        tests = [inner.say(count.condition)] if count.condition is not None else []
        if not (isinstance(count.element, Name) and count.element.name in count.names):
            tests.append(inner.say(count.element))
        quantity = f"{_QUANTITY[op]} {self.say(right, top=False)} {names} in {self.say(count.iterable, top=False)}"
        return f"{quantity} are such that {_join(tests)}" if tests else f"there are {quantity}"

    def _member(self, node: Binary, negative: bool) -> str:
        left = self.say(node.left, top=False)
        right = node.right
        if isinstance(right, ListLit) or _const_items(right) is not None:
            items = [self.say(i, top=False) for i in right.items] if isinstance(right, ListLit) \
                else [_value_text(v) for v in (_const_items(right) or ())]
            if not items:
                return f"{left} is {'anything' if negative else 'never anything'}"
            if len(items) == 1:
                return f"{left} is {'not ' if negative else ''}{items[0]}"
            if negative:
                return f"{left} is neither " + " nor ".join(items) if len(items) == 2 \
                    else f"{left} is none of " + _join(items, "and")
            return f"{left} is {_join(items, 'or')}"
        if isinstance(right, Call) and right.func == "range" and right.args:
            bounds = [self.say(a, top=False) for a in right.args]
            span = f"from 0 to {bounds[0]} minus 1" if len(bounds) == 1 else f"from {bounds[0]} to {bounds[1]} minus 1"
            if all(isinstance(a, Const) and type(a.value) is int for a in right.args):
                values = [a.value for a in right.args]  # type: ignore[attr-defined]
                low, high = (0, values[0]) if len(values) == 1 else (values[0], values[1])
                span = f"from {low} to {high - 1}"
            return f"{left} is {'not ' if negative else ''}a number {span}"
        return f"{left} is {'not ' if negative else ''}one of {self.say(right, top=False)}"

    def _chain(self, node: Binary, neg: bool, top: bool) -> str:
        op = node.op
        items: list[Node] = []

        def flatten(n: Node) -> None:
            if isinstance(n, Binary) and n.op == op:
                flatten(n.left)
                flatten(n.right)
            else:
                items.append(n)

        flatten(node)
        if neg and op == "or":  # not (a or b): neither a nor b
            texts = [self.say(i, top=False) for i in items]
            return self._wrap("neither " + ", nor ".join(texts) if len(texts) > 2 else
                              f"neither {texts[0]} nor {texts[1]}", top)
        if neg:  # not (a and b)
            texts = [self.say(i, top=False) for i in items]
            return self._wrap("not all of " + _join(texts) if len(texts) > 2 else
                              f"not both {texts[0]} and {texts[1]}", top)
        texts = [self.say(i, top=False) for i in items]
        complex_ = any("," in t or " either " in f" {t}" or " both " in f" {t}" for t in texts)
        joined = f", {op} ".join(texts) if complex_ else f" {op} ".join(texts)
        if top:
            return joined
        if op == "or":
            return f"either {joined}"
        return f"both {joined}" if len(texts) == 2 else f"({joined})"

    def _comprehension(self, node: Comprehension, neg: bool, top: bool) -> str:
        inner = self.with_names(self._loop_names(node.names, node.iterable))
        names = " and ".join(node.names)
        if isinstance(node.iterable, Call) and node.iterable.func == "pairs" and node.iterable.args:
            over = f"each neighbouring pair {names} of {self.say(node.iterable.args[0], top=False)}"
            some = f"some neighbouring pair {names} of {self.say(node.iterable.args[0], top=False)}"
        else:
            iterable = self.say(node.iterable, top=False)
            over = f"every {names} in {iterable}"
            some = f"some {names} in {iterable}"
        where = f" such that {inner.say(node.condition, top=False)}" if node.condition is not None else ""
        func = node.func
        element = node.element
        if func == "all":
            if neg:
                return self._wrap(f"not {inner.say(element, top=False)} for {over}{where}", top)
            return self._wrap(f"{inner.say(element, top=False)} for {over}{where}", top)
        if func == "any":
            if neg:
                return self._wrap(f"{inner.say(element, top=False)} for no {over[len('every '):]}{where}", top)
            return self._wrap(f"{inner.say(element, top=False)} for {some}{where}", top)
        if func == "count":
            counted = "" if isinstance(element, Name) and element.name in node.names \
                else f" for which {inner.say(element, top=False)}"
            text = f"the number of {names} in {self.say(node.iterable, top=False)}{where}{counted}"
        elif func == "sum":
            text = f"the sum of {inner.say(element, top=False)} for {over}{where}"
        elif func in ("min", "max"):
            text = f"the {'least' if func == 'min' else 'greatest'} {inner.say(element, top=False)} for {over}{where}"
        elif func in ("argmin", "argmax"):
            text = (f"the {names} in {self.say(node.iterable, top=False)}{where} with the "
                    f"{'least' if func == 'argmin' else 'greatest'} {inner.say(element, top=False)} (the first on a tie)")
        elif func == "list":
            text = f"the list of {inner.say(element, top=False)} for {over}{where}"
        else:  # pragma: no cover - the compiler allows no other
            text = f"`{show(node)}`"
        return self._not(text, neg)

    def _call(self, node: Call, neg: bool, top: bool) -> str:
        func, args = node.func, node.args
        if func in self.book.functions:
            return self._function(node, neg, top)
        said = [self.say(a, top=False) for a in args]
        one = said[0] if said else ""
        kind = self.kind(args[0]) if args else ""
        if func == "empty" and len(args) == 1:
            return f"{one} is {'not ' if neg else ''}empty"
        if func == "covered" and len(args) == 1:
            return f"{one} is {'not ' if neg else ''}covered"
        if func == "size" and len(args) == 1:
            noun = {"piles": "piles", "seats": "seats", "list": "items", "numbers": "numbers"}.get(kind, "cards")
            return self._not(f"the number of {noun} in {one}", neg)
        if func in ("top", "bottom") and len(args) == 1:
            return self._not(f"the {func} card of {one}", neg)
        if func == "cards" and len(args) == 1:
            return self._not(f"the cards of {one}", neg)
        if func == "run" and len(args) == 1:
            return self._not(f"the face-up cards on top of {one}", neg)
        if func == "pairs" and len(args) == 1:
            return self._not(f"the neighbouring pairs of {one}", neg)
        if func in ("min", "max"):
            word = "smaller" if func == "min" else "greater"
            if len(args) == 1:
                return self._not(f"the {'least' if func == 'min' else 'greatest'} of {one}", neg)
            if len(args) == 2:
                return self._not(f"the {word} of {said[0]} and {said[1]}", neg)
            return self._not(f"the {'least' if func == 'min' else 'greatest'} of {_join(said)}", neg)
        if func == "sum" and len(args) == 1:
            return self._not(f"the sum of {one}", neg)
        if func == "count" and len(args) == 1:
            return self._not(f"the number of items in {one}", neg)
        if func == "all" and len(args) == 1:
            return f"{'not ' if neg else ''}every item of {one} is true"
        if func == "any" and len(args) == 1:
            return f"{'no' if neg else 'some'} item of {one} is true"
        if func == "abs" and len(args) == 1:
            return self._not(f"the absolute value of {one}", neg)
        if func == "range" and args:
            if all(isinstance(a, Const) and type(a.value) is int for a in args):
                values = [a.value for a in args]  # type: ignore[attr-defined]
                low, high = (0, values[0]) if len(values) == 1 else (values[0], values[1])
                text = f"the numbers from {low} to {high - 1}" if high > low else "no numbers"
            elif len(args) == 1:
                text = f"the numbers from 0 to {one} minus 1"
            else:
                text = f"the numbers from {said[0]} to {said[1]} minus 1"
            return self._not(text, neg)
        if func == "of" and len(args) == 2 and isinstance(args[0], Name):
            name = args[0].name
            zone = self.book.zones.get(name)
            thing = (zone.label if zone.single else zone.plural) if zone is not None else name
            return self._not(possessive(f"seat {said[1]}" if isinstance(args[1], Const) else said[1], thing), neg)
        if func == "team" and len(args) == 1 and self.book.teams:
            return self._not(possessive(one, "team"), neg)
        if func == "legal_moves" and not args:
            return self._not("the names of the moves legal now", neg)
        return self._not(f"`{show(node)}`", neg)  # pragma: no cover - the compiler allows no other

    def _function(self, node: Call, neg: bool, top: bool) -> str:
        params, body = self.book.functions[node.func]
        once = (self.calls or {}).get(node.func, 0) <= 1  # called again in the expression: named
        if len(params) == len(node.args) and self.depth < INLINE_DEPTH and once:
            inlined = simplify(body, self.book, dict(zip(params, node.args)))
            cost = size(inlined)
            if size(body) <= INLINE_NODES and cost <= self.budget[0]:
                self.budget[0] -= cost
                deeper = Speaker(self.book, self.names, self.budget, self.depth + 1)
                return deeper.say(inlined, neg, top)
        args = ", ".join(self.say(a, top=False) for a in node.args)
        return self._not(f"{node.func}({args})", neg)


_GLOBALS = {
    "players": "the number of players",
    "seats": "the seats",
    "direction": "the direction of play (1 or -1)",
    "phase": "the phase",
    "player": "the player",
    "move": "the move's name",
}


def _call_counts(node: Node) -> dict[str, int]:
    counts: dict[str, int] = {}
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, Call):
            counts[current.func] = counts.get(current.func, 0) + 1
        stack.extend(_children(current))
    return counts


def _parse(source: Any) -> Node:
    if isinstance(source, (bool, int)) or source is None:
        return Const(0, source)
    return parse_expression(str(source))


# ---------------------------------------------------------------------------------------------
# The ruleset, section by section


def describe(name_or_path: str | Path, options: dict[str, Any] | None = None,
             search_path: tuple[str | Path, ...] = (), fold: bool = True) -> RulesDocument:
    """The rules of a ruleset (after `extends:`), in words. Loads it first, so a broken ruleset
    is a `CardrulesError` at its place, as `cardrules validate` reports it."""
    from ...model.ruleset import load_ruleset

    rules = load_ruleset(name_or_path, options, search_path)
    return rules_document(rules, rules.front_end.doc, fold)  # the merged document the load built from


def rules_document(rules: Any, doc: Document, fold: bool = True) -> RulesDocument:
    """The rules of a loaded `Ruleset` whose merged document is `doc`."""
    return _Describer(rules, doc, fold).run()


class _Describer:
    def __init__(self, rules: Any, doc: Document, fold: bool) -> None:
        self.rules = rules
        self.doc = doc
        self.data: dict[str, Any] = doc.data
        self.out = RulesDocument(rules.title)
        zones = {}
        for name, spec in (self.data.get("zones") or {}).items():
            zone = rules.zones[name]
            zones[name] = ZoneInfo(name, zone.label, zone.single, zone.seat_piles is not None,
                                   int(spec.get("count", 1)))
        functions: dict[str, tuple[tuple[str, ...], Node]] = {}
        for key, body in (self.data.get("functions") or {}).items():
            signature = self.parsed(("functions", key), key, signature=True)
            functions[signature.name] = (signature.params, self.parsed(("functions", key), body))
        if "teams" in self.data:
            functions.pop("team", None)
        variables = {name: bool(spec.get("per_player") or spec.get("per_team"))
                     for name, spec in (self.data.get("variables") or {}).items()}
        flags = frozenset(name for name, option in rules.options.items()
                          if all(isinstance(v, bool) for v in option.values))
        self.book = Book(dict(rules.option_values), fold, zones, variables, functions, "teams" in self.data, flags)

    # -- expressions --------------------------------------------------------------------------

    def parsed(self, path: PathKey, source: Any, signature: bool = False) -> Any:
        """The tree of the expression at `path` (already checked when the ruleset loaded)."""
        try:
            if signature:
                return parse_signature(str(source))
            return _parse(source)
        except ParseError as exc:  # pragma: no cover - the loader has parsed every expression
            raise RulesetError(exc.message, self.doc.expr_pos(path, exc.offset)) from None

    def speaker(self, names: dict[str, Term] | None = None) -> Speaker:
        return Speaker(self.book, {"player": Term("the player", "seat"), **(names or {})})

    def words(self, path: PathKey, source: Any, speaker: Speaker) -> str:
        node = simplify(self.parsed(path, source), self.book)
        return speaker.say(node)

    def condition(self, path: PathKey, source: Any, speaker: Speaker) -> str:
        """A `when`: an expression, a YAML truth value or number, or a list that must all hold."""
        if isinstance(source, list):
            parts = [self.words(path + (i,), s, speaker) for i, s in enumerate(source)]
            return _join(parts) if parts else "always"
        text = self.words(path, source, speaker)
        return {"true": "always", "false": "never"}.get(text, text)

    # -- sections -----------------------------------------------------------------------------

    def run(self) -> RulesDocument:
        self.out.blocks.append(Block("title", shown_title(self.rules.title)))
        if self.data.get("description"):
            self.out.para(str(self.data["description"]))
        self.out.para("Below, seats, piles and items are numbered from 0 where rules compute with them "
                      "(seat 0 is the first seat, a zone's pile 0 its first pile).")
        self.general()
        self.options()
        self.zones()
        self.variables()
        self.functions()
        self.setup()
        self.turns()
        self.moves()
        self.triggers()
        self.end()
        self.score()
        return self.out

    def general(self) -> None:
        rules, data = self.rules, self.data
        self.out.heading("Players and cards")
        if rules.min_players == rules.max_players:
            players = f"{rules.min_players} player{'s' if rules.min_players > 1 else ''}"
        else:
            players = f"{rules.min_players} to {rules.max_players} players (default {rules.default_players})"
        self.out.item(f"Players: {players}.")
        teams = data.get("teams")
        if isinstance(teams, dict):
            speaker = self.speaker({"player": Term("the seat", "seat")})
            names = teams.get("names")
            named = f" ({_join([str(n) for n in names])})" if names else ""
            self.out.item(f"Teams{named}: each seat's team is "
                          f"{self.words(('teams', 'of'), teams['of'], speaker)}; a team wins together.")
        deck = data.get("deck")
        name = deck if isinstance(deck, str) else deck.get("name") if isinstance(deck, dict) else None
        counts = sorted({len(rules.deck_cards[p]) for p in rules.deck_cards}) if rules.deck_cards else []
        count = (f"{counts[0]} cards" if len(counts) == 1 else
                 "; ".join(f"{len(rules.deck_cards[p])} cards with {p} players" for p in sorted(rules.deck_cards))
                 if counts else "")
        self.out.item(f"Deck: {name}{f' ({count})' if count else ''}.")
        if isinstance(deck, dict):
            if deck.get("copies"):
                self.out.item(f"{deck['copies']} decks are shuffled together.", 1)
            where = deck.get("where")
            speaker = self.speaker({"card": Term("the card", "card")})
            if isinstance(where, str):
                self.out.item(f"Only the cards for which {self.words(('deck', 'where'), where, speaker)} are used.", 1)
            elif isinstance(where, dict):
                self.out.item("Only the cards for which one of these holds are used:", 1)
                for key, text in where.items():
                    self.out.item(f"{key}: {self.words(('deck', 'where', key), text, speaker)}.", 2)

    def options(self) -> None:
        options = self.data.get("options") or {}
        if not options:
            return
        self.out.heading("Options")
        for name, spec in options.items():
            chosen = self.rules.option_values.get(name)
            values = ", ".join(_option_text(v) for v in spec.get("values") or ())
            default = spec.get("default")
            state = f"chosen: {_option_text(chosen)}" if chosen == default and type(chosen) is type(default) \
                else f"chosen: {_option_text(chosen)}; default {_option_text(default)}"
            help_ = f" {spec['help']}" if spec.get("help") else ""
            self.out.item(f"{name} ({values}; {state}).{help_}")
        if self.book.fold:
            self.out.para("The rules below are written for the chosen values.")

    def zones(self) -> None:
        self.out.heading("Zones")
        rules = self.rules
        for name, info in self.book.zones.items():
            spec = self.data["zones"][name]
            zone = rules.zones[name]
            piles = "one pile" if info.single else f"{info.count} piles"
            if info.single:
                codes = zone.short
            elif spec.get("labels"):
                labels = spec["labels"]
                codes = f"{zone.short}{labels[0]} to {zone.short}{labels[-1]}"
            else:
                codes = f"{zone.short}1 to {zone.short}{info.count}"
            if info.per_player:
                codes += "@seat"
                piles += " for each seat"
            facts = [f"{piles} ({codes})", _VISIBILITY_WORDS.get(zone.visibility, zone.visibility)]
            if spec.get("empty_piles") == "first":
                facts.append("a move to an empty pile is offered for the first empty one only")
            if spec.get("covered_by") is not None:
                speaker = self.speaker({"i": Term("i", "number")})
                facts.append("pile i lies under the piles whose indexes are "
                             f"{self.words(('zones', name, 'covered_by'), spec['covered_by'], speaker)}; a pile "
                             "with a card on it is covered, and no move takes from it or puts onto it")
            self.out.item(f"{info.label}: " + "; ".join(facts) + ".")
        layout = self.data.get("layout")
        if layout:
            rows = "; ".join(", ".join(self.book.zones[z].label for z in row) for row in layout)
            self.out.para(f"Laid out in rows: {rows}.")

    def variables(self) -> None:
        variables = self.data.get("variables") or {}
        if not variables:
            return
        self.out.heading("Variables")
        speaker = self.speaker({"player": Term("the seat", "seat")})
        for name, spec in variables.items():
            facts = []
            if spec.get("per_player"):
                facts.append("one for each seat")
            if spec.get("per_team"):
                facts.append("one for each team")
            if spec.get("persist"):
                facts.append("kept from game to game")
            if spec.get("label"):
                facts.append(f'shown as "{spec["label"]}"')
            if spec.get("show") is not None:
                shown = simplify(self.parsed(("variables", name, "show"), spec["show"]), self.book)
                if isinstance(shown, Const):
                    facts.append("shown" if shown.value else "not shown")
                else:
                    facts.append(f"shown while {speaker.say(shown)}")
            extra = f" ({'; '.join(facts)})" if facts else ""
            start = self.words(("variables", name, "initial"), spec.get("initial"), speaker)
            self.out.item(f"{name}{extra}: starts at {start}.")

    def functions(self) -> None:
        if not self.book.functions:
            return
        self.out.heading("Functions")
        self.out.para("Named conditions and values, used by name below where they are too long to write out.")
        for name, (params, body) in self.book.functions.items():
            speaker = Speaker(self.book, {p: Term(p) for p in params}, depth=INLINE_DEPTH)
            folded = simplify(body, self.book)
            text = speaker.say(folded)
            if isinstance(folded, Const) and self.book.fold and not isinstance(body, Const):
                text = f"{'always ' if isinstance(folded.value, bool) else ''}{text} (with the chosen options)"
            self.out.item(f"{name}({', '.join(params)}): {text}.")

    def setup(self) -> None:
        self.out.heading("Setup")
        speaker = self.speaker()
        self.effects(("setup",), self.data.get("setup") or [], speaker, 0)
        if self.data.get("on_start"):
            self.headed_effects(Block("para", "Then, when a game starts:"), ("on_start",), self.data["on_start"],
                                speaker, 0)

    def turns(self) -> None:
        turns = self.data.get("turns") or {}
        order = turns.get("order") or ("solo" if self.rules.max_players == 1 else "rotation")
        self.out.heading("Turns")
        text = {"solo": "One seat plays every move.",
                "rotation": "The seats take turns, seat 1 first, then up the seats.",
                "simultaneous": "There are no turns: every seat may move at any moment."}[order]
        self.out.para(text)
        for phase in turns.get("phases") or ():
            if isinstance(phase, str):
                self.out.item(f"Phase {phase}.")
            else:
                notes = []
                if phase.get("optional"):
                    notes.append("passed over when it offers no move")
                if phase.get("interrupt"):
                    notes.append("entered only when a move makes a seat act")
                self.out.item(f"Phase {phase['name']}" + (f" ({'; '.join(notes)})" if notes else "") + ".")
        if turns.get("phases"):
            self.out.para("After a move the turn goes to its next phase; after the last phase, to the next seat.")

    # -- moves --------------------------------------------------------------------------------

    def _zone_list(self, spec: Any) -> list[str]:
        return [spec] if isinstance(spec, str) else list(spec or ())

    def _pile_term(self, zones: list[str], role: str, shared: bool) -> Term:
        if len(zones) == 1 and not shared:
            info = self.book.zones[zones[0]]
            return Term(f"{info.owner}{info.label if info.single else info.singular}", "pile")
        return Term(f"the {role} pile", "pile")

    def _zones_words(self, zones: list[str]) -> str:
        words = []
        for zone in zones:
            info = self.book.zones[zone]
            words.append(f"{info.owner}{info.label}" if info.single else f"a {info.singular}"
                         + (" of the player's" if info.per_player else ""))
        return _join(words, "or")

    def move_names(self, name: str, spec: dict[str, Any]) -> dict[str, Term]:
        sources = self._zone_list(spec.get("from"))
        targets = self._zone_list(spec.get("to"))
        shared = bool(set(sources) & set(targets))
        names: dict[str, Term] = {"move": Term(f'"{name}"')}
        if sources:
            names["src"] = self._pile_term(sources, "source", shared)
            names["card"] = Term("the card", "card")
            names["cards"] = Term("the moved cards", "cards")
            names["n"] = Term("the number of cards moved", "number")
        if targets:
            names["dst"] = self._pile_term(targets, "destination", shared)
        if spec.get("for_seat") is not None:
            names["target"] = Term("the chosen seat", "seat")
        if spec.get("select"):
            names["chosen"] = Term("the chosen cards", "cards")
            names["chosen_piles"] = Term("the chosen piles", "piles")
        for choice in spec.get("choose") or {}:
            names[choice] = Term(f"the {_plain(choice)} chosen")
        return names

    def moves(self) -> None:
        self.out.heading("Moves")
        for name, spec in (self.data.get("moves") or {}).items():
            path: PathKey = ("moves", name)
            speaker = self.speaker(self.move_names(name, spec))
            help_ = f": {spec['help']}" if spec.get("help") else ""
            self.out.item(f"{name}{help_}")
            phase = spec.get("phase")
            if phase:
                phases = [phase] if isinstance(phase, str) else phase
                self.out.item(f"Only in the {_join(phases, 'or')} phase.", 1)
            out_of_turn = spec.get("out_of_turn")
            if out_of_turn:
                after = "" if out_of_turn is True else f", right after {_join(list(out_of_turn), 'or')}"
                self.out.item(f"Any seat may make it whenever it is legal, in turn or not{after}.", 1)
            sources = self._zone_list(spec.get("from"))
            targets = self._zone_list(spec.get("to"))
            if sources:
                self.out.item(f"From {self._zones_words(sources)}: {self.take(path, spec.get('take', 'top'), speaker)}.", 1)
            if targets:
                self.out.item(f"To {self._zones_words(targets)}.", 1)
            if spec.get("for_seat") is not None:
                self.out.item("It also chooses a seat: any seat for which "
                              f"{self.condition(path + ('for_seat',), spec['for_seat'], speaker)}.", 1)
            for choice, values in (spec.get("choose") or {}).items():
                said = _join([_value_text(v) for v in values], "or") if isinstance(values, list) \
                    else self.words(path + ("choose", choice), values, speaker)
                self.out.item(f"It also names {_plain(choice)}: one of {said}.", 1)
            if spec.get("when") is not None:
                self.out.item(f"Legal when {self.condition(path + ('when',), spec['when'], speaker)}.", 1)
            if spec.get("select"):
                self.select(path + ("select",), spec["select"], speaker)
            if "do" in spec:
                if not self.headed_effects(Block("item", "Then:", 1), path + ("do",), spec["do"] or [], speaker, 2):
                    self.out.item("It changes nothing but the turn.", 1)
            else:
                self.out.item("The cards move there.", 1)
            if spec.get("safe") is not None:
                self.out.item("Safe (the solver plays it without trying others) when "
                              f"{self.condition(path + ('safe',), spec['safe'], speaker)}.", 1)

    def take(self, path: PathKey, take: Any, speaker: Speaker) -> str:
        if take == "top":
            return "its top card (the card)"
        if take == "run":
            return "any face-up run from its top (the card is the run's bottom card)"
        if take == "all":
            return "the whole pile (the card is its bottom card)"
        if take == "any":
            return "any one card of it (the card)"
        if isinstance(take, dict):
            return f"any {take.get('any')} cards of it (the card is the first)"
        node = simplify(self.parsed(path + ("take",), take), self.book)
        if isinstance(node, Const) and type(node.value) is int:
            count = "its top card" if node.value == 1 else f"its top {node.value} cards"
        else:
            count = f"as many cards from its top as {speaker.say(node)}"
        return f"{count} (the card is the bottom one)"

    def select(self, path: PathKey, select: dict[str, Any], speaker: Speaker) -> None:
        zones = self._zone_list(select.get("from"))
        gives = {"top": "its top card", "run": "a face-up run from its top", "all": "all its cards"}[
            select.get("take", "top")]
        low, high = select.get("min", 1), select.get("max")
        count = f"at least {low}" if high is None else f"{low} to {high}" if high != low else f"exactly {low}"
        piles = "pile" if high == 1 == low else "piles"
        among = _join([self.book.zone_term(z).text for z in zones], "or")
        self.out.item(f"It also chooses {count} other {piles} of {among}, each giving {gives} (the chosen "
                      "cards):", 1)
        inner = speaker.with_names({"p": Term("p", "pile")})
        if select.get("when") is not None:
            self.out.item(f"a pile p may be chosen when {self.condition(path + ('when',), select['when'], inner)};", 2)
        if select.get("sum") and select.get("equals") is not None:
            self.out.item(f"the chosen cards' {_plain(select['sum'])}, added up, is exactly "
                          f"{self.words(path + ('equals',), select['equals'], speaker)};", 2)
        if select.get("limit"):
            self.out.item(f"at most {select['limit']:,} choices are tried in one position.", 2)

    # -- effects ------------------------------------------------------------------------------

    def effects(self, path: PathKey, effects: list[Any], speaker: Speaker, level: int) -> int:
        """The effects as items; how many blocks they gave (none where options fold them away)."""
        before = len(self.out.blocks)
        for i, effect in enumerate(effects):
            self.effect(path + (i,), effect, speaker, level)
        return len(self.out.blocks) - before

    def headed_effects(self, head: Block, path: PathKey, effects: list[Any], speaker: Speaker, level: int) -> int:
        """`head`, then the effects; neither when the effects fold away."""
        self.out.blocks.append(head)
        added = self.effects(path, effects, speaker, level)
        if not added:
            self.out.blocks.pop()
        return added

    def effect(self, path: PathKey, effect: Any, speaker: Speaker, level: int) -> None:
        out = self.out
        if effect == "move":
            out.item(f"Move the cards taken to {self._name_text(speaker, 'dst', 'the destination')}.", level)
            return
        if effect == "end_turn":
            out.item("The turn passes to the next seat.", level)
            return
        if effect == "reverse":
            out.item("The order of play reverses.", level)
            return
        if not isinstance(effect, dict) or not effect:  # pragma: no cover - the schema allows no other
            return
        verb = next(iter(effect))
        body = effect[verb]
        here = path + (verb,)

        def say(key: str, text: Any) -> str:
            return self.words(here + (key,), text, speaker)

        if verb == "move":
            self.move_effect(here, body or {}, speaker, level)
        elif verb in ("turn_up", "turn_down"):
            out.item(f"Turn {self.words(here, body, speaker)} face {'up' if verb == 'turn_up' else 'down'}.", level)
        elif verb == "set":
            parts = [f"{self.words(here + (k,), k, speaker)} to "
                     f"{speaker.say(simplify(self.parsed(here + (k,), v), self.book), top=False)}"
                     for k, v in body.items()]
            out.item(f"Set {_join(parts)}.", level)
        elif verb == "add":
            parts = []
            for key, value in body.items():
                target = self.words(here + (key,), key, speaker)
                amount = simplify(self.parsed(here + (key,), value), self.book)
                if isinstance(amount, Const) and type(amount.value) is int and amount.value < 0:
                    parts.append(f"take {-amount.value} from {target}")
                else:
                    parts.append(f"add {speaker.say(amount, top=False)} to {target}")
            out.item(_capital(_join(parts)) + ".", level)
        elif verb == "if":
            condition = simplify(self.parsed(here, body), self.book)
            then, otherwise = effect.get("then") or [], effect.get("else") or []
            if isinstance(condition, Const):  # folded by the options
                chosen, key = (then, "then") if condition.value else (otherwise, "else")
                self.effects(path + (key,), chosen, speaker, level)
                return
            out.item(f"If {speaker.say(condition)}:", level)
            if not self.effects(path + ("then",), then, speaker, level + 1):
                out.item("nothing.", level + 1)
            if otherwise:
                out.item("Otherwise:", level)
                self.effects(path + ("else",), otherwise, speaker, level + 1)
        elif verb == "for":
            loop = parse_loop(str(body))
            iterable = simplify(loop.iterable, self.book)
            names = speaker._loop_names(loop.names, iterable)
            inner = speaker.with_names(names)
            if isinstance(iterable, ListLit) and len(iterable.items) == 1 and len(loop.names) == 1:
                out.item(f"With {loop.names[0]} = {speaker.say(iterable.items[0])}:", level)
            elif isinstance(iterable, ListLit) and iterable.items:
                items = _join([speaker.say(i, top=False) for i in iterable.items])
                out.item(f"For each {' and '.join(loop.names)} of {items}:", level)
            else:
                out.item(f"For each {' and '.join(loop.names)} in {speaker.say(iterable)}:", level)
            self.effects(path + ("do",), effect.get("do") or [], inner, level + 1)
        elif verb == "act":
            phase = f", in the {body['phase']} phase" if body.get("phase") else ""
            out.item(f"{_capital(say('seat', body['seat']))} must make one move now{phase}; then the turn comes back.",
                     level)
        elif verb == "turn_to":
            out.item(f"The next turn goes to {self.words(here, body, speaker)}.", level)
        elif verb == "end":
            reason = f": {body['reason']}" if body.get("reason") else ""
            out.item(f"The game ends, {_RESULT_WORDS.get(body['result'], body['result'])}{reason}.", level)
        elif verb == "take_deck":
            out.item(f"Put the whole deck, shuffled, face down on {self.words(here, body, speaker)}.", level)
        elif verb == "move_chosen":
            body = body or {}
            to = say("to", body["to"]) if body.get("to") else self._name_text(speaker, "dst", "the destination")
            face = f", face {body['face']}" if body.get("face") else ""
            out.item(f"Move the chosen cards, pile by pile, to {to}{face}.", level)
        elif verb == "show":
            what = say("card", body["card"]) if body.get("card") else f"every card of {say('pile', body['pile'])}" \
                if body.get("pile") else "nothing"
            out.item(f"Show {what} to {say('to', body['to'])} (known until a shuffle).", level)
        elif verb == "shuffle":
            out.item(f"Shuffle {self.words(here, body, speaker)}.", level)
        elif verb == "deal":
            self.deal(here, body, speaker, level)
        else:  # pragma: no cover - the schema allows no other
            out.item(f"`{verb}`.", level)

    def _name_text(self, speaker: Speaker, name: str, fallback: str) -> str:
        term = speaker.names.get(name)
        return term.text if term is not None else fallback

    def move_effect(self, path: PathKey, body: dict[str, Any], speaker: Speaker, level: int) -> None:
        source = self.words(path + ("from",), body["from"], speaker) if body.get("from") \
            else self._name_text(speaker, "src", "the source")
        target = self.words(path + ("to",), body["to"], speaker) if body.get("to") \
            else self._name_text(speaker, "dst", "the destination")
        if body.get("card"):
            what = f"{self.words(path + ('card',), body['card'], speaker)} (wherever it lies in {source})"
        elif body.get("count") is not None:
            count = self.words(path + ("count",), body["count"], speaker)
            what = f"{count} card{'s' if count != '1' else ''} from the top of {source}"
        elif body.get("from"):
            what = f"all the cards of {source}"
        else:
            what = f"the cards taken from {source}"
        place = {"bottom": " under its cards", "random": " at a random place among its cards"}.get(
            body.get("place", "top"), "")
        notes = []
        if body.get("flip"):
            notes.append("turned over as a packet (order reversed, each card turned)")
        if body.get("face"):
            notes.append(f"face {body['face']}")
        self.out.item(f"Move {what} to {target}{place}" + (", " + ", ".join(notes) if notes else "") + ".", level)

    def deal(self, path: PathKey, body: dict[str, Any], speaker: Speaker, level: int) -> None:
        zone = self.book.zones[body["to"]]
        source = self.words(path + ("from",), body["from"], speaker)
        piles = f"the {zone.label}" if zone.single else f"the {zone.count} {zone.plural}"
        if zone.per_player:
            piles = f"each seat's {zone.label}" + ("" if zone.single else f" ({zone.count} piles each)")
        counts = self._counts(path + ("counts",), body["counts"], speaker, zone)
        face = f"face {body.get('face', 'down')}"
        where = ""
        if body.get("where"):
            inner = speaker.with_names({"card": Term("the card", "card"), "dst": Term("the pile dealt to", "pile")})
            where = f"; each pile gets the next card from the top for which {self.words(path + ('where',), body['where'], inner)}"
        self.out.item(f"Deal from {source} to {piles}, one card at a time, row by row, {face}: {counts}{where}.",
                      level)

    def _counts(self, path: PathKey, source: Any, speaker: Speaker, zone: ZoneInfo) -> str:
        node = simplify(self.parsed(path, source), self.book)
        if "i" in free_names(node) and not zone.per_player and zone.count <= 20:
            values = [simplify(node, self.book, {"i": Const(0, k)}) for k in range(zone.count)]
            if self.book.fold and all(isinstance(v, Const) for v in values):
                listed = ", ".join(_value_text(v.value) for v in values)  # type: ignore[attr-defined]
                formula = speaker.with_names({"i": Term("i", "number")}).say(node)
                return f"{listed} cards ({formula} for pile i)"
        text = speaker.with_names({"i": Term("i (the pile's index)", "number")}).say(node)
        return f"{text} card{'s' if text != '1' else ''} each"

    # -- triggers, end, score -----------------------------------------------------------------

    def triggers(self) -> None:
        triggers = self.data.get("triggers") or []
        if not triggers:
            return
        self.out.heading("After each move")
        self.out.para("These run in order after a move's own effects.")
        for i, trigger in enumerate(triggers):
            path: PathKey = ("triggers", i)
            speaker = self.speaker({"move": Term("the move just made")})
            name = trigger.get("name") or f"trigger {i + 1}"
            after = trigger.get("after")
            when = ("after every move" if after is None else
                    f"after {_join(list(after), 'or')}" if after else "")
            if trigger.get("at_start"):
                when = (when + ", and once " if when else "once ") + "when a game starts, before anyone moves"
            self.out.item(f"{_capital(name)} ({when}):")
            inner = speaker
            loop_text = ""
            if trigger.get("for"):
                loop = parse_loop(str(trigger["for"]))
                iterable = simplify(loop.iterable, self.book)
                inner = speaker.with_names(speaker._loop_names(loop.names, iterable))
                loop_text = f"for each {' and '.join(loop.names)} in {speaker.say(iterable)}"
            condition = self.condition(path + ("when",), trigger["when"], inner) \
                if trigger.get("when") is not None else ""
            if loop_text and condition:
                head = f"{_capital(loop_text)} such that {condition}:"
            elif loop_text:
                head = f"{_capital(loop_text)}:"
            elif condition:
                head = f"If {condition}:"
            else:
                head = ""
            if head:
                self.out.item(head, 1)
            self.effects(path + ("do",), trigger.get("do") or [], inner, 2 if head else 1)
            if trigger.get("repeat"):
                self.out.item("This repeats until it no longer applies.", 1)

    def end(self) -> None:
        end = self.data.get("end") or {}
        self.out.heading("End of the game")
        speaker = self.speaker({"player": Term("the seat to act", "seat")})
        if end.get("when"):
            self.out.para("After every move (and once after the setup), the first of these that holds ends the "
                          "game:")
        for i, rule in enumerate(end.get("when") or ()):
            path: PathKey = ("end", "when", i)
            condition = self.condition(path + ("if",), rule["if"], speaker)
            self.out.item(f"{_outcome(rule['result'], rule.get('reason'))} when {condition}.")
            if rule.get("winners") is not None:
                teams = ", with their teams" if self.book.teams else ""
                self.out.item(f"The winners are {self.words(path + ('winners',), rule['winners'], speaker)}{teams}.",
                              1)
        self.out.para("Also:" if end.get("when") else "The game ends:")
        cycle = self.rules.cycle
        if cycle is not None:
            spec = end["cycle"]
            only = ""
            if spec.get("when") is not None:
                only = f", counting only positions where {self.condition(('end', 'cycle', 'when'), spec['when'], speaker)}"
            self.out.item(f"{_outcome(cycle.result, cycle.reason)} when {_join(list(spec['moves']))} alone bring the "
                          "cards back to a position they held since any other move was made, and no position on the "
                          f"way offered any other move{only}.")
        repeat = end.get("repeat")
        if repeat:
            self.out.item(f"{_outcome(repeat['result'], repeat.get('reason'))} when the same position (cards, faces, "
                          f"variables, seat to act) occurs {repeat['count']} times.")
        result, reason = self.rules.no_moves_result
        default = "" if end.get("no_moves") else " (the default)"
        self.out.item(f"{_outcome(result, reason)} when no move is possible{default}.")
        default = "" if end.get("max_moves") else " (the default)"
        self.out.item(f"{_outcome('limit', None)} after {self.rules.max_moves:,} moves{default}.")
        if self.data.get("on_end"):
            self.headed_effects(Block("para", "When the game ends, however it ends:"), ("on_end",),
                                self.data["on_end"], self.speaker(), 0)

    def score(self) -> None:
        data = self.data
        self.out.heading("Score")
        speaker = self.speaker({"player": Term("the seat", "seat")})
        if data.get("score") is not None:
            self.out.para(f"Each seat scores {self.words(('score',), data['score'], speaker)}.")
        elif "score" in self.book.variables:
            self.out.para("Each seat scores its score variable.")
        else:
            self.out.para("Every seat scores 0.")
        order = data.get("score_order", "higher")
        self.out.para("Lower scores are better." if order == "lower" else "Higher scores are better.")
        if any(r.get("winners") is None for r in (data.get("end") or {}).get("when") or ()) \
                and self.rules.max_players > 1:
            self.out.para("Where an ending names no winners and the game is won or over, the best scores win.")
        if data.get("label") is not None:
            self.out.para(f"Shown with the result: {self.words(('label',), data['label'], speaker)}.")
        if data.get("heuristic") is not None:
            self.out.para("For bots and the solver, a seat stands as well as "
                          f"{self.words(('heuristic',), data['heuristic'], speaker)}.")


def _outcome(result: str, reason: str | None) -> str:
    """`Won ("all 52 cards are on the foundations")`."""
    words = _RESULT_TITLE.get(result, result)
    return f'{words} ("{reason}")' if reason else words


def _option_text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)
