"""One game served to browsers (`cardrules serve`): its seats and their secret links, what each seat
may ask, and the bots that fill the other seats. Plain Python with no web code: `web/server.py`
carries its messages over the network and calls it under one lock.

Each human seat and the spectator have a token, the secret part of their link; a token names one
seat and gives only what that seat may know: its view (`web/view.py`), its legal moves, the record
of the moves as it may know them, hints and explanations decided on its own view. Turn-based games
take a move from the seat to act only; bots then play their turns (`bot_turn`, one move a call, so
the server can show each). Where every seat plays at once the bots act on a clock (`agents/scheduler`)
and a move that another seat's move has made impossible since its seat last looked is "too late".
"""

from __future__ import annotations

import hmac
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from ..agents.bots import Bot, safe_move, suggest_move
from ..agents.scheduler import Scheduler
from ..agents.seats import SeatSpec, UndoHistory, is_number, make_bots
from ..base.errors import CardrulesError, IllegalMoveError, printable
from ..python import render
from ..python.engine import Game
from .view import move_data, table_view

MAX_TEXT = 200        # the longest move text a browser may send
LOG_SHOWN = 200       # the most recent moves a view carries


class WebError(CardrulesError):
    """A request a seat may not make, or one that does not make sense: answered, never acted on."""


@dataclass
class Seat:
    index: int | None          # 0-based; None: the spectator
    token: str


@dataclass
class WebTable:
    """A game, its seats (a bot, or None for a human at a browser) and what has been done to it."""

    game: Game
    seats: dict[int, Bot | None]
    saver: Callable[[], Path] | None = None          # writes a save file and says where
    rules_text: str = ""                             # the rules in words (`cardrules rules`)
    on_over: Callable[[Game], None] | None = None    # told once, when the game ends
    speeds: dict[int, float] = field(default_factory=dict)  # simultaneous games: bots' actions per second
    seed: int = 0
    clock: Callable[[], float] = time.monotonic
    version: int = 0                                 # counts the changes, for pages to know theirs is current
    movers: list[int] = field(default_factory=list)  # the seat of each move made
    undos: UndoHistory = field(default_factory=UndoHistory)  # what undo took back, the moves autoplay made
    autoplay: set[int] = field(default_factory=set)  # human seats whose safe moves are played for them

    def __post_init__(self) -> None:
        self.links = [Seat(s, secrets.token_urlsafe(18)) for s in range(self.game.players) if self.seats.get(s) is None]
        self.links.append(Seat(None, secrets.token_urlsafe(18)))
        self.movers = movers_of(self.game)  # a resumed game's
        self._over_told = False
        self.scheduler: Scheduler | None = None
        if self.game.rules.simultaneous:
            agents = {s: b for s, b in self.seats.items() if b is not None}
            self.scheduler = Scheduler(self.game, agents, self.seed, dict(self.speeds))
        self._start: float | None = None  # when the clock started: when the first page opened

    def begin(self) -> None:
        """Start the game's clock (where every seat plays at once), if it has not started."""
        if self._start is None:
            self._start = self.clock()

    def _now(self) -> float:
        """Seconds on the game's clock."""
        return 0.0 if self._start is None else self.clock() - self._start

    # -- who asks ------------------------------------------------------------------------------

    def seat_of(self, token: Any) -> Seat | None:
        """The seat a token names; None for any other value (compared in constant time)."""
        if not isinstance(token, str) or len(token) > 64:
            return None
        found = None
        for link in self.links:
            if hmac.compare_digest(link.token.encode(), token.encode("utf-8", "replace")):
                found = link
        return found

    # -- what a seat sees ----------------------------------------------------------------------

    def view(self, seat: int | None) -> dict[str, Any]:
        game = self.game
        view = table_view(game, seat)
        records = game.record(seat)
        start = max(0, len(records) - LOG_SHOWN)
        view["log"] = [{"n": i + 1, "seat": self.movers[i] + 1 if i < len(self.movers) else None,
                        "text": records[i]} for i in range(start, len(records))]
        view["version"] = self.version
        view["made"] = len(game.history)
        view["seats"] = [{"seat": s + 1, "kind": "human" if b is None else getattr(b, "name", "bot")}
                         for s, b in sorted(self.seats.items())]
        view["can_undo"] = seat is not None and self.scheduler is None and bool(game.history)
        view["can_redo"] = seat is not None and self.undos.can_redo(game)
        view["can_save"] = self.saver is not None and self.scheduler is None and not game.is_over
        view["autoplay"] = None if seat is None or self.scheduler is not None or not any(m.safe is not None for m in game.rules.moves) \
            else seat in self.autoplay
        return view

    # -- what a seat asks ------------------------------------------------------------------------

    def handle(self, seat: int | None, message: dict[str, Any]) -> dict[str, Any] | None:
        """Act on one message of a seat's; returns a reply for that seat only (None: the new views
        say it all). Raises `WebError` for a request refused."""
        kind = message.get("type")
        if kind == "rules":
            return {"type": "rules", "text": self.rules_text}
        if seat is None:
            raise WebError("a spectator watches: it cannot play")
        if kind == "move":
            return self._move(seat, message)
        if kind == "explain":
            text = _text(message)
            return {"type": "explain", "text": printable(str(self.game.explain(text, seat)))}
        if kind == "hint":
            return self._hint(seat)
        if kind == "undo":
            self._undo(seat)
            return None
        if kind == "redo":
            self._redo(seat)
            return None
        if kind == "save":
            return self._save()
        if kind == "autoplay":
            on = message.get("on")
            if not isinstance(on, bool):
                raise WebError("autoplay is turned on or off: {\"on\": true}")
            if self.scheduler is not None:
                raise WebError("there is no autoplay when everyone plays at once")
            (self.autoplay.add if on else self.autoplay.discard)(seat)
            self._changed()
            return None
        raise WebError(f"unknown request {printable(str(kind))[:40]!r}")

    def _move(self, seat: int, message: dict[str, Any]) -> dict[str, Any] | None:
        game = self.game
        if game.is_over:
            raise WebError("the game is over")
        if self.scheduler is None and game.current_player != seat:
            raise WebError(f"it is seat {game.current_player + 1}'s turn, not yours")
        if "action" in message:
            action = message["action"]
            if not isinstance(action, int) or isinstance(action, bool):
                raise WebError("an action is a whole number")
            try:
                move = game.action_move(action, seat)
            except CardrulesError as exc:
                raise WebError(str(exc)) from None
            text = move.text()
        else:
            text = _text(message)
            try:
                move = game.parse_move(text, seat)
            except IllegalMoveError:
                return self._refused(seat, text, message)
        if self.scheduler is not None:
            self.tick()  # what is due by now lands first
            record = self.scheduler.human_move(seat, move, self._now())
            if not record.landed:
                return {"type": "refused", "text": text, "why": "too late: another seat's move made it impossible"}
        else:
            game.apply(move)
        self.movers.append(seat)
        self._changed()
        return None

    def _refused(self, seat: int, text: str, message: dict[str, Any]) -> dict[str, Any]:
        seen = message.get("seen")
        if self.scheduler is not None and isinstance(seen, int) and seen < len(self.game.history):
            why = "too late: another seat's move made it impossible"
        else:
            why = printable(str(self.game.explain(text, seat)))
        return {"type": "refused", "text": text, "why": why}

    def _hint(self, seat: int) -> dict[str, Any]:
        game = self.game
        if self.scheduler is not None:
            game.focus(seat)
        elif game.current_player != seat:
            raise WebError("a hint is for your own turn")
        if game.is_over or not game.legal_moves(seat):
            return {"type": "hint", "text": "you have no move now"}
        move = suggest_move(game)
        return {"type": "hint", "text": render.hint_text(game, move).plain, "move": move_data(game, move, seat)}

    def _undo(self, seat: int) -> None:
        if self.scheduler is not None:
            raise WebError("there is no undo when everyone plays at once")
        if self.game.current_player != seat:
            raise WebError("undo on your own turn")
        try:
            self.undos.undo(self.game, lambda s: self.seats.get(s) is not None, self.movers)
        except IllegalMoveError as exc:
            raise WebError(str(exc)) from None
        self._changed()

    def _redo(self, seat: int) -> None:
        if self.game.current_player != seat or not self.undos.can_redo(self.game):
            raise WebError("there is nothing to redo")
        self.undos.redo(self.game, self.movers)
        self._changed()

    def _save(self) -> dict[str, Any]:
        if self.saver is None or self.scheduler is not None:
            raise WebError("this game cannot be saved")
        if self.game.is_over:
            raise WebError("the game is over")
        path = self.saver()
        return {"type": "saved", "text": f"saved; resume with: cardrules serve {self.game.rules.name} --resume "
                                         f"({path.name})"}

    # -- the bots ---------------------------------------------------------------------------------

    def bot_turn(self) -> bool:
        """In a turn-based game, the bot to act plays one move, or autoplay a safe move for the human
        to act who asked for it; False when a human is to choose (or nobody is to act)."""
        game = self.game
        if self.scheduler is not None or game.is_over:
            return False
        player = game.current_player
        bot = self.seats.get(player)
        if bot is None:
            move = safe_move(game) if player in self.autoplay else None
            if move is None:
                return False
            self.undos.auto.add(len(game.history))
            game.apply(move)
        else:
            game.apply(bot.choose(game))
        self.movers.append(player)
        self._changed()
        return True

    def next_due(self) -> float | None:
        """Where every seat plays at once: seconds until the next bot action lands (None: none will)."""
        if self.scheduler is None:
            return None
        due = self.scheduler.next_time()
        return None if due is None or self._start is None else max(0.0, due - self._now())

    def tick(self) -> bool:
        """Where every seat plays at once: land the bots' actions due by now; True if any did."""
        scheduler = self.scheduler
        if scheduler is None or self._start is None:
            return False
        now = self._now()
        landed = False
        while not self.game.is_over:
            due = scheduler.next_time()
            if due is None or due > now:
                break
            record = scheduler.step()
            if record is not None and record.landed:
                self.movers.append(record.seat)
                landed = True
        scheduler.run(until=now)
        if landed:
            self._changed()
        return landed

    def _changed(self) -> None:
        self.version += 1
        if self.game.is_over and not self._over_told:
            self._over_told = True
            if self.on_over is not None:
                self.on_over(self.game)


def open_table(game: Game, specs: dict[int, SeatSpec], seed: int, rules_text: str,
               seat_texts: dict[str, str] | None = None, resumed: Path | None = None) -> WebTable:
    """A game set up to be served: its bots made from `specs` and seeded from `seed`; saves go to its
    ruleset's saved games with the bots' seats (`seat_texts`: seat number -> its `--seat` text) so
    that a resume seats them again; its `persist` values are counted when it ends; `resumed`, the
    save it was resumed from, is removed once it is saved anew or ends."""
    from ..storage import saves, store

    rules = game.rules
    file, data_key = saves.save_file(rules), store.data_key(rules)
    seat_record = {key: text for key, text in (seat_texts or {}).items() if specs[int(key) - 1].is_bot}

    def saver() -> Path:
        path = saves.write_save(saves.game_to_save(game, file, seat_record), data_key)
        if resumed is not None:
            saves.remove_save(resumed)  # saved anew: the old save has served
        return path

    def over(game: Game) -> None:
        store.save_game(game)
        if resumed is not None and resumed.exists():
            saves.remove_save(resumed)

    speeds = {s: spec.speed for s, spec in specs.items() if spec.is_bot}
    return WebTable(game, make_bots(specs, game.players, seed), saver if not rules.simultaneous else None,
                    rules_text, over, speeds, seed)


def movers_of(game: Game) -> list[int]:
    """The seat that made each move of a game's history: its actor where every seat plays at once,
    else the seat to act before it (found by taking the moves back on a copy)."""
    if game.rules.simultaneous:
        return [max(move.actor, 0) for move in game.history]
    trial = game.clone()
    movers: list[int] = []
    while trial.history and trial.state.marks:
        trial.undo()
        movers.append(trial.current_player)
    movers.reverse()
    return [movers[0] if movers else 0] * (len(game.history) - len(movers)) + movers


def _text(message: dict[str, Any]) -> str:
    text = message.get("text")
    if not isinstance(text, str) or not text.strip() or len(text) > MAX_TEXT:
        raise WebError(f"a move is given by its text (at most {MAX_TEXT} characters)")
    text = text.strip()
    if is_number(text):
        raise WebError("give the move's text, or its action number as `action`")
    return text
