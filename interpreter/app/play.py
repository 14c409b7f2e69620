"""A game at the terminal: seats of humans and bots, commands, scripted input, the summary.

Humans type a move's number or text, or `undo`, `redo`, `hint`, `help`, `show`, `save`, `quit`.
At a terminal, `quit` after a move asks whether to save the game, abandon it or go on, and the
end of input (Ctrl-D, Ctrl-C) saves it: a game is never lost by a slip of the keyboard.
When standard input is not a terminal the same commands are read one per line, so
games can be scripted; an unknown command or illegal move there stops with an error
naming the input line.

At a terminal, in a game of several seats, a human's turn with one legal move (a lone
`pass`) is played for them after a one-line notice (`4. seat 2: pass (your only move)`)
instead of asking; a script still gives every move. The table is drawn in place (the screen
cleared, the moves since the last drawing recalled above it); piped output scrolls.

Hot seat: with several human seats each human sees only their own view. Before a human
other than the one last shown is to play, the screen is cleared and that seat is asked
to take the seat (scripted: a one-line hand-over notice); the moves since that seat last
looked are recalled. Tables drawn to no seat in particular (all bots, the end of a game
of several seats) are the spectator's view: only what every seat may see.

Simultaneous games (every seat plays at once) run on a clock (`RealtimeSession`, in
app/realtime.py): bots act at their speed (`--seat 2=greedy:speed=1.5`, actions per second)
while the one human seat types moves; a move that another seat's move has made illegal
meanwhile is refused ("too late"). At a terminal the clock is the real one and the screen is
redrawn as the table changes; scripted input is played in simulated time, line N at N seconds,
so a script gives the same game on every run. Bots alone play the game out in simulated time.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, TextIO

from rich.console import Console
from rich.text import Text

from ..python import render

from ..storage import saves
from ..agents.bots import Bot, make_bot, safe_move, suggest_move
from ..python.engine import Game, Move
from ..base.errors import IllegalMoveError, printable, shown_title
from ..agents.scheduler import Scheduler
from ..agents.seats import UndoHistory, is_number
from .play_texts import ScriptError, help_text, why_not
from .realtime import REALTIME_HELP, RealtimeSession, TerminalInput, TimedLines, play_simultaneous

HELP = """Commands:
  <number>        play the move with that number in the list
  <move text>     play a move by its text, e.g. {example}
                  (a text that is not a legal move now is answered with why)
  undo            take back your last move (and the bots' moves after it)
  redo            play again what the last undo took back (until a new move)
  hint            suggest a move
  show            draw the table again
  save            save the game and stop (go on later with
                  `cardrules play RULESET --resume`)
  help            this text
  quit            stop the game (at a terminal: asks whether to save it first)"""

MAX_LONE_RUN = 100  # lone moves played for the humans in a row before one is asked again (a loop of them)
RECALL = 30  # at most this many moves since a seat last looked are recalled at a hand-over


@dataclass
class Session:
    game: Game
    seats: dict[int, Bot | None]            # seat index -> bot, or None for a human
    console: Console
    interactive: bool
    input: TextIO = field(default_factory=lambda: sys.stdin)
    line_no: int = 0
    quiet: bool = False
    viewer: int | None = None               # the human seat whose view was shown last
    log: list[Any] = field(default_factory=list)       # the record of the moves, as everyone may see it
    seen: dict[int, int] = field(default_factory=dict)  # human seat -> moves of the log it has seen
    undos: UndoHistory = field(default_factory=UndoHistory)  # what undo took back, the moves autoplay made
    # Writes the game to a new save file and returns its path (None: this game cannot be saved).
    saver: Callable[[], Path] | None = None
    saved_to: Path | None = None            # where the game was saved when the session stopped
    autoplay: bool = False                  # play for the humans the moves their ruleset calls safe (`safe:`)
    play_lone: bool = True                  # at a terminal, play a human's one legal move after a notice
    lone_run: int = 0                       # lone moves played in a row for the humans (`MAX_LONE_RUN`)
    fresh_screen: bool = False              # the screen was just cleared (a hand-over): no need to again
    frame: tuple[int, int] = (0, 0)         # the log entries recalled above the table last drawn (redrawn in place)

    @property
    def humans(self) -> list[int]:
        return [s for s in range(self.game.players) if self.seats.get(s) is None]

    @property
    def hot_seat(self) -> bool:
        """Several humans share the screen, so each may see only their own view."""
        return len(self.humans) > 1

    @property
    def public(self) -> int | None:
        """The view of a table drawn to no seat in particular: a spectator's, or a lone seat's."""
        return None if self.game.players > 1 else 0

    def human_turn(self) -> Move | None:
        """Read commands until a move is chosen; None when the player quits."""
        game = self.game
        player = game.current_player
        if not self._take_seat(player):
            return None
        shown = False
        if not self.interactive and not self.quiet:
            forced = render.forced_text(game)
            if forced is not None:
                self.console.print(forced)
        while True:
            moves = game.legal_moves()
            if self.interactive and not shown:
                self.show(player, moves)
                shown = True
            command = self._read(f"seat {player + 1}> " if game.players > 1 else "> ")
            if command is None:  # the end of input: at a terminal (Ctrl-D, Ctrl-C) the game is kept
                if self.interactive and game.history and self.saver is not None:
                    self._save()
                return None
            word = command.strip().lower()
            if not word:
                continue
            if word in ("quit", "q", "exit"):
                if self._confirm_quit():
                    return None
                continue
            if word == "save":
                if self._save():
                    return None
                continue
            if word in ("help", "?"):
                self.console.print(help_text(HELP, game))
                self.console.print(Text(f"\nMoves of {shown_title(game.rules.title)}:"))
                self.console.print(render.render_rules_help(game))
                continue
            if word == "show":
                self.show(player, moves)
                continue
            if word == "hint":  # decided on the seat's own view (the search determinizes)
                self.console.print(render.hint_text(game, suggest_move(game)))
                continue
            if word in ("undo", "redo"):
                try:
                    if word == "undo":
                        self._undo()
                    else:
                        self._redo()
                except IllegalMoveError as exc:
                    self._complain(str(exc))
                    continue
                shown = False
                continue
            try:
                if is_number(word):
                    index = int(word)
                    if not 1 <= index <= len(moves):
                        raise IllegalMoveError(f"there is no move {index} (1-{len(moves)})")
                    return moves[index - 1]
                return game.parse_move(word)
            except IllegalMoveError as exc:
                self._complain(why_not(game, word, player, exc, self.console.width) if not is_number(word)
                               else f"{exc}; type 'help' for commands")

    def _save(self) -> bool:
        """Save the game to resume it later; False (and a complaint) if it cannot be saved."""
        if self.saver is None:
            self._complain("this game cannot be saved")
            return False
        self.saved_to = self.saver()
        self.console.print(Text(f"Saved the game to {self.saved_to}", style="bold"))
        return True

    def _confirm_quit(self) -> bool:
        """At a terminal, after a move: save the game, abandon it, or go on? True to stop."""
        if not self.interactive or not self.game.history:
            return True
        offer = "save it to resume later (s), " if self.saver is not None else ""
        answer = self._read(f"Quit: {offer}abandon it (a), or go on playing (Enter)? ")
        if answer is None:  # the input ended while asking: keep the game if it can be kept
            return self._save() if self.saver is not None else True
        word = answer.strip().lower()
        if word in ("s", "save") and self.saver is not None:
            return self._save()
        return word in ("a", "abandon", "q", "quit", "y", "yes")

    def _take_seat(self, player: int) -> bool:
        """Before `player`'s view is drawn: hand the screen over from another human, if any.
        False when the input ends instead."""
        if player == self.viewer:
            return True
        previous, self.viewer = self.viewer, player
        if previous is not None:
            self.seen[previous] = len(self.log)
        if self.hot_seat:
            if self.interactive:
                self.console.clear()  # never leave one human's hand on the screen for another
                if self._read(f"[bold]Seat {player + 1}: take the seat and press Enter[/bold] ") is None:
                    return False
                self.console.clear()
                self._recall(player)
                self.fresh_screen = True
            elif not self.quiet:
                self.console.print(f"[bold]-- hand-over: seat {player + 1} to play "
                                   f"(seat {player + 1}'s view only) --[/bold]")
        self.seen[player] = len(self.log)
        if not self.interactive and not self.quiet:
            self.console.print(render.render_table(self.game, player))
        return True

    def _recall(self, player: int) -> None:
        """The moves since `player` last looked (at a hand-over, the screen having been cleared)."""
        missed = self.log[self.seen.get(player, 0):]
        if not missed:
            return
        self.console.print("[dim]Since your last look:[/dim]")
        if len(missed) > RECALL:
            self.console.print(f"[dim]  ({len(missed) - RECALL} earlier moves)[/dim]")
        for entry in missed[-RECALL:]:
            self.console.print(render.Text("  ").append_text(entry))
        self.console.print()

    def _undo(self) -> None:
        """Undo back to the seat to play's last decision: the bots' moves after it are undone too,
        another human's never (in a hot-seat game the turn would pass to a hidden hand)."""
        self.undos.undo(self.game, lambda seat: self.seats.get(seat) is not None, self.log)

    def _redo(self) -> None:
        """Play again the moves the last `undo` took back, if no move was made since."""
        self.undos.redo(self.game, self.log)

    def _read(self, prompt: str) -> str | None:
        if self.interactive:
            stream = None if self.input is sys.stdin else self.input
            try:
                line = self.console.input(prompt, stream=stream)
            except (EOFError, KeyboardInterrupt):
                self.console.print()
                return None
            if stream is not None and not line:  # the end of a given stream
                self.console.print()
                return None
            return line
        line = self.input.readline()
        if not line:
            return None
        self.line_no += 1
        return line

    def _complain(self, message: str) -> None:
        if self.interactive:
            self.console.print(Text(printable(message), style="red"))
        else:
            raise ScriptError(f"<stdin>:{self.line_no}: {message}")

    def _lone_move(self) -> Move | None:
        """At a terminal, in a game of several seats: the human seat to play's one legal move (a
        lone `pass`), to be played for it after a one-line notice instead of asking; None when
        there is a choice, when input is scripted (a script gives every move), in a game of one seat
        (where a lone `draw` may come round again and again), or after `MAX_LONE_RUN` in a row."""
        game = self.game
        if not (self.interactive and self.play_lone) or game.players < 2 or self.lone_run >= MAX_LONE_RUN:
            return None
        moves = game.legal_moves()
        return moves[0] if len(moves) == 1 else None

    def show(self, player: int, moves: list[Move]) -> None:
        """Draw the table and the moves. At a terminal the table is drawn in place: the screen is
        cleared first and the moves made since the last drawing (or the same ones again) recalled
        above it; elsewhere (piped output) each drawing follows the last."""
        if self.interactive and self.console.is_terminal:
            if self.fresh_screen:  # just cleared at a hand-over, the moves missed recalled
                self.frame = (len(self.log), len(self.log))
            else:
                if len(self.log) > self.frame[1]:
                    self.frame = (self.frame[1], len(self.log))
                self.console.clear()
                for entry in self.log[self.frame[0]:self.frame[1]][-RECALL:]:
                    self.console.print(entry)
        self.fresh_screen = False
        if self.hot_seat:
            self.console.rule(f"seat {player + 1}'s view", style="dim")
        self.console.print(render.render_table(self.game, player))
        forced = render.forced_text(self.game)
        if forced is not None:
            self.console.print(forced)
        self.console.print(render.render_moves(self.game, moves))

    def run(self) -> None:
        game = self.game
        humans = self.humans
        # Whom the record of moves is written for: the lone human, or (several or none) everyone.
        record_view = humans[0] if len(humans) == 1 else self.public
        if not humans and not self.quiet:
            self.console.print(render.render_table(game, self.public))
        while not game.is_over:
            player = game.current_player
            bot = self.seats.get(player)
            auto = safe_move(game) if bot is None and self.autoplay else None
            lone = self._lone_move() if bot is None and auto is None else None
            if lone is not None:
                move = auto = lone
                self.lone_run += 1
            elif auto is not None:
                move = auto
            elif bot is not None:
                move = bot.choose(game)
            else:
                chosen = self.human_turn()
                if chosen is None:
                    if self.saved_to is None:
                        game.finish("abandoned", "the player stopped")
                    break
                move = chosen
                self.lone_run = 0
            card = render.moved_card(game, move)
            forced = bool(game.state.frames)
            game.apply(move)
            entry = render.Text(f"{len(game.history)}. ")
            if game.players > 1:
                entry.append(f"seat {player + 1}{' (forced)' if forced else ''}: ", style="dim")
            entry.append_text(render.describe_played(game, move, card, record_view))
            if auto is not None:
                self.undos.auto.add(len(game.history) - 1)
                entry.append(" (your only move)" if lone is not None else " (auto)", style="dim")
            self.log.append(entry)
            if not self.quiet and (bot is None and (not self.interactive or auto is not None)
                                   or bot is not None and humans):
                self.console.print(entry)
        if not self.quiet and self.saved_to is None:
            self.console.print(render.render_table(game, self.public))
            self.console.print(render.packed(render.outcome_text(game)))


def timed_summary(game: Game, seed: int | None, seat_kinds: dict[int, str], scheduler: Scheduler,
                  speeds: dict[int, float], simulated: bool = True) -> dict[str, Any]:
    """The JSON summary of a simultaneous game: `summary`, and the clock: seconds, refused moves,
    the bots' speeds."""
    data = summary(game, seed, seat_kinds)
    data["simulated_seconds" if simulated else "seconds"] = round(scheduler.now, 3)
    data["refused"] = scheduler.refused
    viewer = _record_viewer(game, seat_kinds)
    data["refused_moves"] = [{"time": round(r.time, 3), "seat": r.seat + 1,
                              "move": r.move if viewer is False else r.text_for(viewer)}
                             for r in scheduler.records if not r.landed]
    data["speeds"] = {str(s + 1): speed for s, speed in sorted(speeds.items())}
    return data


def _record_viewer(game: Game, seat_kinds: dict[int, str]) -> int | None | bool:
    """Whom the record of moves in a summary is written for: the one human seat; a spectator when
    several humans share the terminal; False (every card named) when bots play alone."""
    humans = [s for s in range(game.players) if seat_kinds.get(s, "human") == "human"]
    return humans[0] if len(humans) == 1 else None if humans else False


def summary(game: Game, seed: int | None, seat_kinds: dict[int, str]) -> dict[str, Any]:
    """The JSON summary of a finished (or abandoned) game. Its moves are written as the one human
    seat may know them (`Game.record`), as a spectator may with several humans, in full for bots alone."""
    viewer = _record_viewer(game, seat_kinds)
    scores = game.scores()
    winners = game.winners()
    return {
        "ruleset": game.rules.name,
        "seed": seed,
        "deal": game.deal_order if seed is None else None,
        "options": game.rules.option_values,
        "players": game.players,
        "seats": {str(s + 1): seat_kinds.get(s, "human") for s in range(game.players)},
        "moves": [str(m) for m in game.history] if viewer is False else game.record(viewer),
        "move_count": len(game.history),
        "scores": scores,
        "outcome": game.outcome,
        "reason": game.reason,
        "label": game.label(),
        "labels": [game.label(p) for p in range(game.players)] if game.players > 1 else None,
        "winners": [p + 1 for p in winners] if winners is not None else None,
        "persistent": game.persistent_values(),
    }


def count_result(game: Game, seat: int) -> dict[str, Any]:
    """Count a game in the statistics (`cardrules stats`) for its one human `seat`: won or not,
    and its score if the game was played to its end. Returns the options' record as it now stands."""
    won = game.outcome == "won" if game.players == 1 else seat in (game.winners() or [])
    finished = game.outcome != "abandoned" and game.rules.score is not None
    return saves.record_result(game.rules, game.players, won, game.scores()[seat] if finished else None)


def results_text(record: dict[str, Any]) -> Text:
    """One line of statistics: played, won (and the share), streaks, best score."""
    played, won = record["played"], record["won"]
    text = Text(f"{played} played, {won} won ({100 * won / played:.0f}%), streak {record['streak']}, "
                f"longest {record['best_streak']}", style="dim")
    if record.get("best_score") is not None:
        text.append(f", best score {record['best_score']}")
    return text




__all__ = [
    "HELP",
    "REALTIME_HELP",
    "RealtimeSession",
    "ScriptError",
    "Session",
    "TerminalInput",
    "TimedLines",
    "count_result",
    "help_text",
    "make_bot",
    "play_simultaneous",
    "results_text",
    "summary",
    "timed_summary",
]
