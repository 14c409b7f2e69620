"""The shared vocabulary of the native backend: the layout of a game's meta fields (`M`),
its bounds, the errors it raises (`Unsupported`, `NativeStop`) and the lowered value (`_Val`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..base.errors import CardrulesError, SourcePos
from ..front.parser import Call, Comprehension, Name, Node


NO_INT = -(2 ** 63)  # an int that is `none` (an attribute of no card)


NO_STR = -1  # a string that is `none`


NONE_CODES = {"card": "NOCARD", "int": "NO_INT", "str": "NO_STR", "pile": "NO_INT"}  # `none` in compiled code, by kind


# lists built by list(...) (arrays of their own; truth values as 0 and 1): their items' type
LISTS = {"int_list": "int", "str_list": "str", "bool_list": "bool"}


ITEMS = {"cards": "card", "piles": "pile", **LISTS}  # lists of one kind of item, as arrays


EMPTY = "np.empty(0, dtype=np.int64)"


LOOPED = {"piles": "pile", "range": "int", "seats": "int", **LISTS}  # what a loop over such items binds (else cards)


# The meta fields of a game (`M`): 0-9 the end and the cycle; 10 the seat to act, 11 its phase,
# 12 the seats in the game, 13 the winners an end condition named (a bit mask, -1: none named),
# 14 and 15 whether the move being applied used `act` or `end_turn`, 16-23 the (seat, phase) pairs
# to return to after `act`, 24 how many; 26 the seat `turn_to` chose for the next turn (-1: none),
# 27 the direction of the turns (1, or -1 once `reverse`d); 28-35 while seats are asked to act
# out of turn (`out_of_turn`; state.State.asking): 1 (else 0), the seat, phase and `turn_to` seat
# of the turn that goes on afterwards, the seat the asking goes round from and its direction, how
# many seats of the round have been asked, the move (template; -1: the deal) they are asked after;
# 36 the seed of the draws of chance after the deal (in 64 bits), 37 how many have been made.
OVER, RESULT, REASON, MOVES, MAX_MOVES, LAST, CYCLE, BEGIN, SEEN, STOP = range(10)


CURRENT, PHASE, PLAYERS, WINNERS, ACTED, END_TURN, FRAMES, NFRAMES = 10, 11, 12, 13, 14, 15, 16, 24


NEXT_SEAT, DIRECTION = 26, 27


ASKING, ASK_SEAT, ASK_PHASE, ASK_CHOSEN, ASK_FROM, ASK_DIRECTION, ASKED, ASK_AFTER = range(28, 36)


CHANCE, DRAWS = 36, 37


META = 38


CYCLE_NONE, CYCLE_OFFERED, CYCLE_TRACKING = 0, 1, 2


BEGIN_NONE, BEGIN_OFFERED, BEGIN_KEY = 0, 1, 2


MAX_CYCLE_POSITIONS = 1024  # positions one cycle of `end.cycle` may go through natively (else NativeStop)


MAX_FOUND = 4096  # selections one `select` search may find in a position natively (else NativeStop)


MAX_REPEAT_POSITIONS = 1 << 20  # positions one game may keep for `end.repeat` natively (else NativeStop)


MAX_LEGAL = 1 << 14  # legal moves one listing may give natively (else NativeStop)


class Unsupported(Exception):
    """A construct the native backend does not cover (yet); the Python backend runs the ruleset."""

    def __init__(self, what: str, pos: SourcePos | None = None) -> None:
        super().__init__(what)
        self.what = what
        self.pos = pos

    def __str__(self) -> str:
        return f"{self.pos}: {self.what}" if self.pos is not None else self.what


class NativeStop(CardrulesError):
    """Compiled code met an error: the Python backend replays the game to report it exactly."""


@dataclass(frozen=True)
class _Val:
    """A lowered value: its type, its code, and for a list of cards `(array, lo, hi)`."""

    type: str  # int bool str card pile piles cards none; int_list str_list bool_list (list(...) of numbers, ...)
    code: str = ""
    value: Any = None  # a constant known at lowering (zone piles)
    const: bool = False
    maybe_none: bool = False  # an int that may be NO_INT (an attribute of no card)
    arr: str = ""
    lo: str = ""
    hi: str = ""
    container: str = ""  # a list's Python kind where known: "list" (built) or "tuple" (written out)


def _int(code: str, maybe_none: bool = False) -> _Val:
    return _Val("int", code, maybe_none=maybe_none)


def _array(values: Any) -> str:
    return f"np.array({list(values)!r}, dtype=np.int64)"


def _names(node: Node, functions: dict[str, tuple[tuple[str, ...], Node]]) -> set[str]:
    """The free names an expression uses, in the bodies of the ruleset functions it calls too."""
    found: set[str] = set()

    def walk(n: Any, bound: frozenset[str]) -> None:
        if isinstance(n, Call) and n.func in functions:
            params, body = functions[n.func]
            walk(body, frozenset(params))  # a body sees the bindings and its parameters only
        if isinstance(n, Name):
            if n.name not in bound:
                found.add(n.name)
        elif isinstance(n, Comprehension):
            walk(n.iterable, bound)
            inner = bound | frozenset(n.names)
            walk(n.element, inner)
            if n.condition is not None:
                walk(n.condition, inner)
        elif isinstance(n, Node):
            for value in vars(n).values():
                if isinstance(value, Node):
                    walk(value, bound)
                elif isinstance(value, tuple):
                    for item in value:
                        if isinstance(item, Node):
                            walk(item, bound)

    walk(node, frozenset())
    return found


def _seat_radix(rules: Any) -> int:
    """How many values a move's seat field takes (the compiled `SE`): a seat, or the index of a
    `choose` move's value, or none."""
    return max([rules.max_players, *(len(t.choices) for t in rules.moves)]) + 1


def seed_words(seed: int) -> list[int] | None:
    """The 32-bit words Python seeds `random.Random(seed)` from (abs(seed), the low word first; one
    word, 0, for 0), where there are at most two; else None."""
    a = abs(seed)
    if a >= 2 ** 64:
        return None
    return [a & 0xffffffff, a >> 32] if a >> 32 else [a]
