"""The seats of a game as `--seat` gives them (`play`, `simulate`, `compare`): a kind (human or a
bot kind) with its parameters, read from `KIND[:NAME=VALUE,...]` and checked against the ruleset."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from ..base.errors import IllegalMoveError, did_you_mean
from ..model.ruleset import Ruleset
from .bots import BOT_KINDS, Bot, BotParameterError, bot_params, make_bot, seat_seed
from .scheduler import DEFAULT_SPEED

if TYPE_CHECKING:
    from ..python.engine import Game, Move


def is_number(word: str) -> bool:
    """Is `word` a number typed as a move's or a seat's number (ASCII digits, not too long to read)?"""
    return word.isascii() and word.isdigit() and len(word) <= 18


class SeatError(ValueError):
    """A `--seat` value that names no seat, kind or parameter, or gives a parameter a bad value."""


def _positive_number(text: str) -> float:
    value = float(text)
    if not (value > 0 and math.isfinite(value)):
        raise ValueError(text)
    return value


@dataclass(frozen=True)
class SeatParam:
    """A parameter of a bot seat: how to read its value, what it means, where it applies."""

    parse: Callable[[str], Any]
    help: str
    simultaneous_only: bool = False   # means something only where every seat plays at once


SEAT_PARAMS: dict[str, SeatParam] = {
    "speed": SeatParam(_positive_number, "actions per second, a number above 0; default 1", True),
}


@dataclass(frozen=True)
class SeatSpec:
    """A seat's kind (human or a bot kind) and, for a bot, its parameters."""

    kind: str = "human"
    params: dict[str, Any] = field(default_factory=dict)

    @property
    def is_bot(self) -> bool:
        return self.kind != "human"

    @property
    def speed(self) -> float:
        return float(self.params.get("speed", DEFAULT_SPEED))

    @property
    def bot_params(self) -> dict[str, Any]:
        """The parameters the bot itself takes (`iterations`, ...), not the seat's (`speed`)."""
        return {name: value for name, value in self.params.items() if name not in SEAT_PARAMS}


def parse_seat(key: str, text: str, players: int) -> tuple[int, SeatSpec]:
    """`--seat KEY=TEXT`: the seat (0-based) and its kind with parameters, `KIND[:NAME=VALUE,...]`."""
    key = key.strip()
    if not is_number(key) or not 1 <= int(key) <= players:
        raise SeatError(f"seat {key!r}: seats are 1-{players}")
    seat = int(key) - 1
    where = f"seat {seat + 1}"
    kind, colon, rest = text.strip().partition(":")
    kind = kind.strip()
    if kind != "human" and kind not in BOT_KINDS:
        raise SeatError(f"{where}: seat kind {kind!r}: {did_you_mean(kind, ['human', *BOT_KINDS])}"
                        f"choose human, {', '.join(BOT_KINDS)}")
    params: dict[str, Any] = {}
    if colon and kind == "human":
        raise SeatError(f"{where}: a human seat takes no parameters (got {rest.strip()!r})")
    if colon:
        for item in rest.split(","):
            name, equals, value = (part.strip() for part in item.partition("="))
            if not equals or not name:
                raise SeatError(f"{where}: expected NAME=VALUE after '{kind}:', got {item.strip()!r}")
            if name in params:
                raise SeatError(f"{where}: parameter {name!r} is given twice")
            param = SEAT_PARAMS.get(name)
            if param is None:
                own = BOT_KINDS[kind].params
                if name not in own:
                    known = ", ".join([f"{n} ({p.help})" for n, p in SEAT_PARAMS.items()]
                                      + [f"{n} ({spec[2]})" for n, spec in own.items()])
                    hint = did_you_mean(name, [*SEAT_PARAMS, *own])
                    raise SeatError(f"{where}: a {kind} bot has no parameter {name!r}; {hint}parameters: {known}")
                try:
                    params.update(bot_params(kind, {name: value}))
                except BotParameterError as exc:
                    raise SeatError(f"{where}: {exc}") from None
                continue
            try:
                params[name] = param.parse(value)
            except ValueError:
                raise SeatError(f"{where}: {name} cannot be {value!r}: {param.help}") from None
    return seat, SeatSpec(kind, params)


def make_bots(specs: dict[int, SeatSpec], players: int, seed: int) -> dict[int, Bot | None]:
    """Each seat's bot (None for a human seat, or a seat not given), seeded from the game's `seed`."""
    return {s: make_bot(specs[s].kind, seat_seed(seed, s), **specs[s].bot_params)
            if s in specs and specs[s].is_bot else None for s in range(players)}


def check_seats(rules: Ruleset, specs: dict[int, SeatSpec], players: int, one_terminal: bool = True) -> None:
    """Seats that cannot play this ruleset: parameters it has no use for, or (where every seat plays
    at once, at `one_terminal`) more than one human."""
    for seat, spec in sorted(specs.items()):
        for name in spec.params:
            if name in SEAT_PARAMS and SEAT_PARAMS[name].simultaneous_only and not rules.simultaneous:
                raise SeatError(f"seat {seat + 1}: {name} means something only where every seat plays at "
                                f"once; {rules.name} takes turns")
    if rules.simultaneous and one_terminal:
        humans = [s for s in range(players) if not specs.get(s, SeatSpec()).is_bot]
        if len(humans) > 1:
            seats = ", ".join(str(h + 1) for h in humans)
            raise SeatError(f"in {rules.name} every seat plays at once, so one terminal has at most one human "
                            f"seat (seats {seats} are human); make the others bots, e.g. "
                            f"--seat {humans[-1] + 1}=greedy:speed=0.5")


def moves_to_undo(game: Game, is_bot: Callable[[int], bool], auto: set[int]) -> int:
    """How many moves an `undo` of the seat to act takes back: back to that seat's own last decision,
    with the bots' moves after it and the moves autoplay made (`auto`: their history indexes), never
    another human's (in a game of several humans the turn would pass to a hidden hand)."""
    me = game.current_player
    trial = game.clone()
    steps = 0
    while True:
        if not trial.state.marks:
            raise IllegalMoveError("there is no move to undo" if steps == 0 else "there is no move of yours to undo")
        trial.undo()
        steps += 1
        mover = trial.current_player
        if is_bot(mover) or len(trial.history) in auto:
            continue  # a bot's move, or one autoplay made after the seat's: back further
        if mover != me:
            raise IllegalMoveError(f"the last move was seat {mover + 1}'s; you can take back only your own")
        return steps


@dataclass
class UndoHistory:
    """Undo and redo for a game played by humans and bots (the terminal's `Session`, the browser's
    `WebTable`): what each undo took back, so that `redo` plays it again while no move has been made
    since, and which moves autoplay made (`auto`: their history indexes), which an undo takes back
    with the seat's own. `records` is the caller's list kept beside the history, one entry a move
    (the log's lines, the seats that moved): it loses and regains its entries with the moves."""

    # Each undo's start (the moves made after it), its moves, their records, and which of them
    # autoplay made (counted from the start); the last last.
    undone: list[tuple[int, list[Move], list[Any], set[int]]] = field(default_factory=list)
    auto: set[int] = field(default_factory=set)

    def undo(self, game: Game, is_bot: Callable[[int], bool], records: list[Any]) -> None:
        """Take back the moves `moves_to_undo` counts (raises `IllegalMoveError` if there are none)."""
        steps = moves_to_undo(game, is_bot, self.auto)
        start = len(game.history) - steps
        moves, entries = game.history[start:], records[max(len(records) - steps, 0):]
        for _ in range(steps):
            game.undo()
        del records[max(len(records) - steps, 0):]
        if self.undone and self.undone[-1][0] != start + steps:
            self.undone.clear()  # moves were made since the last undo: what it took back is gone
        autos = {i - start for i in self.auto if i >= start}
        self.auto -= {i + start for i in autos}
        self.undone.append((start, moves, entries, autos))

    def can_redo(self, game: Game) -> bool:
        """Did the last undo leave the game where it is (no move made since)?"""
        return bool(self.undone) and self.undone[-1][0] == len(game.history)

    def redo(self, game: Game, records: list[Any]) -> None:
        """Play again the moves the last undo took back, if no move was made since."""
        if not self.can_redo(game):
            self.undone.clear()
            raise IllegalMoveError("there is nothing to redo")
        start, moves, entries, autos = self.undone.pop()
        for move in moves:
            game.apply(move)
        records.extend(entries)
        self.auto |= {i + start for i in autos}
