"""The speaker of the rules in words: an expression tree in English, with the names of one
context (`Speaker`, on `speaker_base.SpeakerBase`): its entry points, and the words of
comprehensions, builtin calls and ruleset functions (a small one written out where it is called,
within a budget; any other named)."""

from __future__ import annotations

from typing import Any

from ...front.compiler import show
from ...front.parser import Call, Comprehension, Const, Name, Node, parse_expression
from .folding import _children, simplify, size
from .speaker_base import INLINE_BUDGET, INLINE_DEPTH, INLINE_NODES, SpeakerBase
from .vocabulary import Term, _join, possessive


# The comprehensions that build a list, and how the list is then said to be kept.
_LISTED_AS = {"list": "", "sorted": ", in increasing order", "unique": ", without repeats"}


class Speaker(SpeakerBase):
    """Speaks expression trees in English, with the names of one context (`names`)."""

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

    # -- comprehensions, calls, functions -----------------------------------------------------

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
        elif func == "argsort":
            text = (f"the {names} in {self.say(node.iterable, top=False)}{where} in increasing order of "
                    f"{inner.say(element, top=False)} (equal ones as they come)")
        elif func in _LISTED_AS:
            text = f"the list of {inner.say(element, top=False)} for {over}{where}{_LISTED_AS[func]}"
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
        if func == "subsets" and 1 <= len(args) <= 3:
            items = "cards" if kind in ("cards", "pile") else "items"
            sizes = "" if len(args) == 1 else f" {said[1]}" if len(args) == 2 else f" {said[1]} to {said[2]}"
            return self._not(f"the sets of{sizes} {items} of {one}", neg)
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
        if func == "sorted" and len(args) == 1:
            return self._not(f"the items of {one} in increasing order", neg)
        if func == "disjoint" and len(args) == 1:
            return self._not(f"the choices among {one} of groups no two of which share an item", neg)
        if func == "unique" and len(args) == 1:
            return self._not(f"the items of {one} without repeats", neg)
        if func == "index" and len(args) == 2:
            return self._not(f"the place of {said[1]} in {one} (from 0; none if it is not there)", neg)
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
