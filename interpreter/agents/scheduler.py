"""Stage 7: time for simultaneous games. Orders the seats' moves on a clock.

In a game with `turns.order: simultaneous` every seat may move at any moment. Each
seat acts on its own clock: it decides a move from what it sees, and the move lands
after the seat's reaction time; by then other seats' moves may have made it illegal
(two cards for one foundation), and then it is refused, its card stays where it was,
and the seat decides again. A bot's reaction time is 1 / speed seconds (speed in
actions per second), stretched or shrunk at random by up to `jitter`; its generator
is seeded from the game's seed and the seat, so a simulated game (the clock jumps
from one action to the next, with no waiting) is the same on every run. A human's
moves come from outside (`human_move`), at the time the caller gives: real time in
the terminal.
"""

from __future__ import annotations

import heapq
import random
from dataclasses import dataclass, field
from typing import Protocol

from ..python.engine import Game, Move
from ..base.errors import IllegalMoveError

DEFAULT_SPEED = 1.0   # actions per second
DEFAULT_JITTER = 0.5  # each reaction time is 1/speed times a factor in [1 - jitter, 1 + jitter]


class Agent(Protocol):
    name: str

    def choose(self, game: Game) -> Move: ...


@dataclass
class Record:
    """One action as it happened: when, which seat, the move, and whether it landed.

    `move` is the move's full text, which may name a card some seats cannot see (`take: any`);
    show a seat `text_for(seat)` instead."""

    time: float
    seat: int
    move: str
    landed: bool
    texts: dict[int | None, str] | None = None  # for a move that names a card: its text for each seat

    def text_for(self, viewer: int | None) -> str:
        """The move's text as `viewer` (None: a spectator) may know it (`Game.record`)."""
        return self.move if self.texts is None else self.texts.get(viewer, self.texts[None])


@dataclass
class Scheduler:
    game: Game
    agents: dict[int, Agent]                 # the bot seats; the others are played from outside
    seed: int = 0
    speeds: dict[int, float] = field(default_factory=dict)
    jitter: float = DEFAULT_JITTER
    now: float = 0.0
    records: list[Record] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.game.rules.simultaneous:
            raise ValueError("a scheduler runs simultaneous games only")
        for seat, speed in self.speeds.items():
            if not speed > 0:
                raise ValueError(f"seat {seat + 1}: a speed is a number of actions per second above 0")
        self._rngs = {seat: random.Random(f"{self.seed}/{seat}") for seat in self.agents}
        self._queue: list[tuple[float, int, int]] = []  # (time, order, seat)
        self._pending: dict[int, Move | None] = {}
        self._order = 0
        for seat in sorted(self.agents):
            self._decide(seat)

    # -- the clock -------------------------------------------------------------------------

    def next_time(self) -> float | None:
        """When the next bot action lands (None: no bot will act again)."""
        return self._queue[0][0] if self._queue and not self.game.is_over else None

    def step(self) -> Record | None:
        """Land the earliest bot action (moving the clock to it) and let that bot decide again."""
        if not self._queue or self.game.is_over:
            return None
        time, _, seat = heapq.heappop(self._queue)
        self.now = max(self.now, time)
        move = self._pending.pop(seat, None)
        record = self._land(seat, move) if move is not None else None
        if not self.game.is_over:
            self._decide(seat)
        return record

    def run(self, until: float | None = None) -> None:
        """Land bot actions in order of time: all of them (a simulated game), or up to `until`."""
        while not self.game.is_over:
            upcoming = self.next_time()
            if upcoming is None or (until is not None and upcoming > until):
                break
            self.step()
        if until is not None:
            self.now = max(self.now, until)

    # -- moves -----------------------------------------------------------------------------

    def human_move(self, seat: int, move: Move, time: float | None = None) -> Record:
        """A move made from outside (a human) at `time`; refused if it is not legal by then."""
        if time is not None:
            self.now = max(self.now, time)
        return self._land(seat, move)

    def _land(self, seat: int, move: Move) -> Record:
        game = self.game
        try:
            game.apply(move)
            landed = True
        except IllegalMoveError:  # another seat got there first: the card stays where it was
            landed = False
        record = Record(self.now, seat, move.text(), landed, _texts(game, seat, move, landed))
        self.records.append(record)
        return record

    def _decide(self, seat: int) -> None:
        """The bot at `seat` chooses a move from what it sees now; it lands after its reaction time."""
        game = self.game
        game.focus(seat)
        self._pending[seat] = self.agents[seat].choose(game) if game.legal_moves() else None
        delay = 1.0 / self.speeds.get(seat, DEFAULT_SPEED)
        delay *= self._rngs[seat].uniform(1.0 - self.jitter, 1.0 + self.jitter)
        self._order += 1
        heapq.heappush(self._queue, (self.now + delay, self._order, seat))

    @property
    def refused(self) -> int:
        return sum(1 for r in self.records if not r.landed)


def _texts(game: Game, seat: int, move: Move, landed: bool) -> dict[int | None, str] | None:
    """For a move that names a card: its text for each seat and a spectator. A landed move's as the
    game's record has it; a refused move's names the card to the seat that chose it and to those
    who see it where it lies."""
    if move.pick is None:
        return None
    viewers: list[int | None] = [None, *range(game.players)]
    if landed:
        index = len(game.history) - 1
        return {viewer: game.record(viewer, index)[0] for viewer in viewers}
    seers: frozenset[int | None] = frozenset({seat})
    for pile, cards in enumerate(game.state.piles):
        if move.pick in cards:
            seers |= game.seers(move.pick, pile)
    full, concealed = move.text(), move.concealed().text()
    return {viewer: full if viewer in seers else concealed for viewer in viewers}


def simulate(game: Game, agents: dict[int, Agent], seed: int = 0, speeds: dict[int, float] | None = None,
             jitter: float = DEFAULT_JITTER) -> Scheduler:
    """Play a simultaneous game between bots to the end in simulated time."""
    scheduler = Scheduler(game, agents, seed, dict(speeds or {}), jitter)
    scheduler.run()
    return scheduler
