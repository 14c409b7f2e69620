"""Stage 6c, the parts of an expression `Game.explain` evaluates on the position (python/explain.py):
the piles that note every card read (`_Watched`), the names a part sees (`_Frame`), its value
(`_Value`), and where a part is written in the expression's text (`_span`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from ..base.errors import CardrulesError, SourcePos
from ..front.compiler import Scope
from ..front.parser import Binary, Call, Comprehension, Name, Node
from .explanation import Marked

if TYPE_CHECKING:
    from ..model.rules import Ruleset
    from .game_core import GameCore


class _Watched(list):  # type: ignore[type-arg]
    """A pile's cards that note every card read from them (indexed, sliced, iterated, searched)."""

    __slots__ = ("seen",)

    def __init__(self, cards: Iterable[int], seen: set[int]) -> None:
        super().__init__(cards)
        self.seen = seen

    def __getitem__(self, index: Any) -> Any:
        value = list.__getitem__(self, index)
        if isinstance(index, slice):
            self.seen.update(value)
        else:
            self.seen.add(value)
        return value

    def __iter__(self) -> Any:
        self.seen.update(list.__iter__(self))
        return list.__iter__(self)

    def __reversed__(self) -> Any:
        self.seen.update(list.__iter__(self))
        return list.__reversed__(self)

    def __contains__(self, item: object) -> bool:
        self.seen.update(list.__iter__(self))
        return list.__contains__(self, item)

    def __eq__(self, other: object) -> bool:
        self.seen.update(list.__iter__(self))
        return list(list.__iter__(self)) == other

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    __hash__ = None  # type: ignore[assignment]


@dataclass
class _Frame:
    """An expression being explained: the names its parts see, and where it is written."""

    scope: Scope
    env: dict[str, Any]
    secret: frozenset[str]        # names whose values tell something the seat cannot see
    text: str
    locate: Callable[[int], SourcePos] | None
    label: str
    extra: tuple[tuple[str, str, str], ...] = ()  # bindings added to the template's scope (name, python, type)


@dataclass
class _Value:
    ok: bool
    value: Any = None
    type: str = "any"
    secret: bool = False
    error: BaseException | None = None


def _names(node: Node) -> set[str]:
    """The names a node reads (its own comprehension names too: a cautious overestimate)."""
    found: set[str] = set()
    stack: list[Any] = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, Name):
            found.add(item.name)
        elif isinstance(item, Node):
            stack.extend(v for v in vars(item).values() if isinstance(v, (Node, tuple)))
        elif isinstance(item, tuple):
            stack.extend(v for v in item if isinstance(v, Node))
    return found


def _span(node: Node, text: str) -> tuple[int, int]:
    """Where a node is written in `text`: from its first to its last character, brackets balanced."""
    start, end = node.pos, node.pos
    stack: list[Any] = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, tuple):
            stack.extend(v for v in item if isinstance(v, Node))
            continue
        if not isinstance(item, Node):
            continue
        start = min(start, item.pos)
        children = [v for v in vars(item).values() if isinstance(v, (Node, tuple))]
        stack.extend(children)
        end = max(end, _token_end(item, text))
    # Balance brackets and parentheses: the call's `)`, an index's `]`, an operand's `(`.
    depth = 0
    quote = ""
    for char in text[start:end]:
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char in "([":
            depth += 1
        elif char in ")]":
            if depth:
                depth -= 1
            else:
                while start > 0 and text[start - 1] in " (\t\n":
                    start -= 1
                    if text[start] == "(":
                        break
    while depth and end < len(text):
        if text[end] in ")]":
            depth -= 1
        end += 1
    return start, end


def _token_end(node: Node, text: str) -> int:
    """The end of the last token a node itself writes (a name, a number, a string, `]`, `)`)."""
    from ..front.parser import Attr, Const, ListLit

    at = node.pos
    if isinstance(node, Name):
        return at + len(node.name)
    if isinstance(node, Attr):
        return node.name_pos + len(node.name)
    if isinstance(node, Const):
        if at < len(text) and text[at] in "'\"":
            close = text.find(text[at], at + 1)
            return close + 1 if close > 0 else len(text)
        end = at
        while end < len(text) and (text[end].isalnum() or text[end] == "_"):
            end += 1
        return end
    if isinstance(node, (Call, Comprehension)):
        return at + len(node.func) + 1  # `name(`; the balance adds the `)`
    if isinstance(node, ListLit):
        return at + 1
    return at


def _disjuncts(node: Node) -> list[Node]:
    if isinstance(node, Binary) and node.op == "or":
        return _disjuncts(node.left) + _disjuncts(node.right)
    return [node]


def _conjuncts(node: Node) -> list[Node]:
    if isinstance(node, Binary) and node.op == "and":
        return _conjuncts(node.left) + _conjuncts(node.right)
    return [node]


class Explaining(Protocol):
    """What a move's checks (python/explain_checks.py) ask of the explanation under way (the
    `_Explainer` of python/explain.py): the game and the seat asking, the cards it cannot see, the
    ruleset's front end, and the valuing and marking of expressions."""

    game: GameCore
    rules: Ruleset
    front: Any            # the ruleset's front end (None for a ruleset built without one)
    seat: int
    hidden: frozenset[int]

    def value(self, node: Node, frame: _Frame) -> _Value: ...

    def mark(self, node: Node, frame: _Frame, note: str) -> Marked: ...

    def failure(self, value: _Value, node: Node, frame: _Frame) -> CardrulesError: ...

    def false_part(self, node: Node, frame: _Frame, out: list[Marked], suffix: str = "") -> None: ...
