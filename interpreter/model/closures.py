"""The small functions the builder makes for a ruleset's effects and triggers (who sees a card,
a trigger's runner, a seat an effect names), and the guard that turns a failure of generated
code into a `RulesetRuntimeError` at its place in the ruleset.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from ..front.compiler import Span, failing_part
from ..base.errors import RulesetError, RulesetRuntimeError, SourcePos
from ..base.limits import INT_MAX, INT_MIN, MAX_TRIGGER_PASSES
from ..front.parser import Node

if TYPE_CHECKING:
    from .rules import Effect, Evaluator


def _seeing(visibility: tuple[str, ...], owner: tuple[int, ...]) -> Callable[[Any, int, int, int | None], bool]:
    """The rule of who sees which card, from each pile's zone `visibility` and owner (see
    docs/language.md, zones): `sees(state, card, pile, seat)`; seat None is a spectator, who sees
    only what every seat sees."""
    def sees(S: Any, card: int, pile: int, seat: int | None) -> bool:
        kind = visibility[pile]
        if kind == "all":
            return True
        if seat is not None and S.known is not None and S.known[card] >> seat & 1:
            return True  # shown to the seat, or seen by it before it went out of its sight
        if kind == "none":
            return False
        if kind == "owner" and owner[pile] == seat:
            return True  # a seat sees all of its own cards; the others only those face up (revealed)
        if kind == "top":  # a squared pile: only its top card shows, if face up
            cards = S.piles[pile]
            return bool(cards) and cards[-1] == card and bool(S.up[card])
        return bool(S.up[card])
    return sees


def _name_node(name: str) -> Node:
    from ..front.parser import Name

    return Name(0, name)


def _a_seat_of(S: Any, seat: int, effect: str, pos: SourcePos) -> int:
    """`seat` if this game has it, else the run-time error of the effect that names it."""
    if not 0 <= seat < S.players:
        raise RulesetRuntimeError(f"{effect}: there is no seat {seat}", pos)
    return seat


def checked_mark(value: Any, pos: SourcePos | None) -> Any:
    """A mark's starting value (a per-card variable's `initial`, typed a number, a truth value or a
    string at load): a number past the 64-bit range is an error of the game at `pos`."""
    if type(value) is int and not INT_MIN <= value <= INT_MAX:
        raise RulesetRuntimeError(f"the value is outside the 64-bit range ({INT_MIN} to {INT_MAX})", pos)
    return value


def _repeat_limit(name: str, pos: SourcePos) -> Callable[[], None]:
    """What a `repeat` trigger that still applies after `MAX_TRIGGER_PASSES` passes raises."""
    def fail() -> None:
        raise RulesetRuntimeError(f"trigger '{name}' still applies after {MAX_TRIGGER_PASSES:,} passes: a trigger "
                                  "with 'repeat' must stop applying (its 'do' must change what its 'when' reads)", pos)
    return fail


def _trigger_runner(items: Evaluator | None, names: tuple[str, ...], test: Evaluator | None,
                    body: list[Effect], too_long: Callable[[], None] | None = None) -> Effect:
    """A trigger's run: its `do` once (if `when` holds) or per item of `for` for which it holds;
    with `repeat` (`too_long` given), again and again while any does."""
    def run_body(S: Any, env: dict[str, Any]) -> None:
        for eff in body:
            eff(S, env)

    def run_once(S: Any, env: dict[str, Any]) -> None:
        if test is None or test(S, env):
            run_body(S, env)

    def run_each(S: Any, env: dict[str, Any], found: list[Any]) -> None:
        for item in found:
            inner = dict(env)
            inner[names[0]] = item
            run_once(S, inner)

    if too_long is None:
        if items is None:
            return run_once
        return lambda S, env: run_each(S, env, list(items(S, env)))

    def repeat(S: Any, env: dict[str, Any]) -> None:
        for _ in range(MAX_TRIGGER_PASSES):
            if items is None:
                assert test is not None  # (checked at load)
                if not test(S, env):
                    return
                run_body(S, env)
            else:
                found = list(items(S, env))
                if not found:
                    return
                run_each(S, env, found)
        too_long()
    return repeat


def _check_not_round(cover: list[tuple[int, ...]], piles: tuple[int, ...], names: tuple[str, ...],
                     pos: SourcePos | None) -> None:
    """Refuse covering that goes round (a pile lying, through others, on itself): taking away
    the piles nothing lies on, again and again, must take them all."""
    left = set(piles)
    free = [p for p in piles if not cover[p]]
    under: dict[int, list[int]] = {}
    for p in piles:
        for above in cover[p]:
            under.setdefault(above, []).append(p)
    waiting = {p: len(cover[p]) for p in piles}
    while free:
        pile = free.pop()
        left.discard(pile)
        for below in under.get(pile, ()):
            waiting[below] -= 1
            if waiting[below] == 0:
                free.append(below)
    if left:  # each pile left lies under one left: follow them up to where they go round
        pile, seen = min(left), []
        while pile not in seen:
            seen.append(pile)
            pile = next(above for above in cover[pile] if above in left)
        loop = seen[seen.index(pile):] + [pile]
        raise RulesetError("covered_by goes round: " + " lies under ".join(names[p] for p in loop), pos)


def _guarded_at_load(function: Callable[..., Any], text: str, pos: SourcePos) -> Callable[..., Any]:
    """A load-time expression of numbers (`deck.where`: a card and the player count; `teams.of`:
    a seat and the player count; `covered_by`: a pile); failures are reported at the expression."""
    def run(*numbers: int) -> Any:
        try:
            return function(*numbers)
        except Exception as exc:  # noqa: BLE001 - reported with the expression's position
            raise runtime_error(exc, text, pos) from None
    return run


def _guarded(function: Callable[..., Any], text: str, pos: SourcePos) -> Evaluator:
    """A generated function whose failures are reported at `pos` (where its text is written)."""
    def run(S: Any, env: dict[str, Any]) -> Any:
        try:
            return function(S, env)
        except Exception as exc:  # noqa: BLE001 - reported with the expression's position
            raise runtime_error(exc, text, pos) from None
    return run


def runtime_error(exc: Exception, text: str, pos: SourcePos | None,
                  only: list[Span] | None = None) -> RulesetRuntimeError:
    """`exc`, raised by generated code while evaluating `text` (written at `pos`), as an error
    at the subexpression that failed, if the compiler noted it; else at `pos`. `only`: the code
    noted for that expression, where a generated function holds several."""
    if isinstance(exc, RulesetRuntimeError):
        return exc
    detail = str(exc)
    if isinstance(exc, TypeError) and "NoneType" in detail:
        detail = "a card was expected but there is none here (the top of an empty pile?)"
    elif isinstance(exc, ZeroDivisionError):
        detail = "division by zero"
    elif isinstance(exc, IndexError):
        detail = "an index is out of range"
    failed = failing_part(exc, only)
    if failed is not None:
        where, part = failed
        return RulesetRuntimeError(f"while evaluating {part!r}{'' if part == text else f' in {text!r}'}: {detail}",
                                   where)
    return RulesetRuntimeError(f"while evaluating {text!r}: {detail}", pos)
