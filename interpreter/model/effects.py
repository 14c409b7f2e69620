"""Effects and triggers as data: what the build (build_effects, build_moves) records of each
effect closure and compiled expression it makes, for a backend that writes a move's effects out as
one function (python/applygen.py). Plain values that know no backend.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..base.errors import SourcePos

if TYPE_CHECKING:
    from ..front.compiler import Span


@dataclass(frozen=True)
class Expr:
    """A compiled expression as its evaluator runs it: its code (bindings as `b_` names), the code
    that can fail in it, and the text and position its errors are reported with."""

    code: str
    spans: list[Span]
    text: str
    pos: SourcePos | None
    const: bool = False
    value: Any = None


@dataclass(frozen=True)
class MoveEffect:
    src: Expr | None
    dst: Expr | None
    count: Expr | None
    flip: bool
    face: bool | None
    bottom: bool


@dataclass(frozen=True)
class TurnEffect:
    card: Expr
    face: bool


@dataclass(frozen=True)
class AssignEffect:
    adding: bool
    steps: tuple[tuple[int, int, Expr, SourcePos | None], ...]  # slot, whose (0 game, 1 seat, 2 team), value, where


@dataclass(frozen=True)
class IfEffect:
    test: Expr
    then: tuple[Any, ...]  # effect closures
    otherwise: tuple[Any, ...]


@dataclass(frozen=True)
class ForEffect:
    var: str  # the loop's Python name (`b_p`)
    items: Expr
    body: tuple[Any, ...]


@dataclass(frozen=True)
class WithEffect:
    vars: tuple[str, ...]  # the names' Python names (`b_seat`)
    values: tuple[Expr, ...]
    body: tuple[Any, ...]


@dataclass(frozen=True)
class EndEffect:
    result: str
    reason: str


@dataclass(frozen=True)
class TriggerBody:
    """A trigger: with `for`, the code of its items (`[b_p for b_p in charge(...) if when]`), else its `when`."""

    items: Expr | None
    var: str
    test: Expr | None
    body: tuple[Any, ...]
    too_long: Callable[[], None] | None = None  # with `repeat`: raised after MAX_TRIGGER_PASSES passes
