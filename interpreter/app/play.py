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

Simultaneous games (every seat plays at once) run on a clock (`RealtimeSession`): bots act
at their speed (`--seat 2=greedy:speed=1.5`, actions per second) while the one human seat
types moves; a move that another seat's move has made illegal meanwhile is refused ("too
late"). At a terminal the clock is the real one and the screen is redrawn as the table
changes; scripted input is played in simulated time, line N at N seconds, so a script gives
the same game on every run. Bots alone play the game out in simulated time.
"""

from __future__ import annotations

import codecs
import os
import select
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Callable, Iterable, Iterator, Protocol, TextIO

from rich.console import Console
from rich.text import Text

from ..python import render

from ..storage import saves, store
from ..agents.bots import Bot, make_bot, safe_move, suggest_move
from ..python.engine import Game, Move
from ..base.errors import CardrulesError, IllegalMoveError, printable, shown_title
from ..agents.scheduler import DEFAULT_SPEED, Agent, Record, Scheduler, simulate
from ..agents.seats import SeatSpec, is_number

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


LINE_WIDTH = 80  # what the texts of play (help, notices) are written to fit, as a terminal's width


def why_not(game: Game, word: str, seat: int, error: CardrulesError, width: int = LINE_WIDTH) -> str:
    """What a player is told for a move text that is not legal now: the error, then in a few
    lines why (`Game.explain`, as the seat may know it); an expression and the carets under its
    marked part fit in `width` columns, so the carets stay under it."""
    head = f"{error}; type 'help' for commands"
    try:
        lines = game.explain(word, seat).lines(brief=True, width=width - 2)
    except CardrulesError as exc:  # a rule that fails while it is explained: said, not raised
        lines = [f"(the reason cannot be told: {exc})"]
    return "\n".join([head, *("  " + line for line in lines)])


class ScriptError(CardrulesError):
    """A scripted (non-terminal) input line that is not a legal move or command."""


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
    # What each undo took back (its moves, their log entries and which of them autoplay made), the
    # last last, with the number of moves made when it was taken back: `redo` plays it again while no move has been made since.
    undone: list[tuple[int, list[Move], list[Any], set[int]]] = field(default_factory=list)
    # Writes the game to a new save file and returns its path (None: this game cannot be saved).
    saver: Callable[[], Path] | None = None
    saved_to: Path | None = None            # where the game was saved when the session stopped
    autoplay: bool = False                  # play for the humans the moves their ruleset calls safe (`safe:`)
    auto: set[int] = field(default_factory=set)  # the history indexes of the moves autoplay made
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
        game = self.game
        me = game.current_player
        trial = game.clone()
        steps = 0
        while True:
            if not trial.state.marks:
                raise IllegalMoveError("there is no move to undo" if steps == 0
                                       else "there is no move of yours to undo")
            trial.undo()
            steps += 1
            mover = trial.current_player
            if self.seats.get(mover) is not None or len(trial.history) in self.auto:
                continue  # a bot's move, or one autoplay made after the seat's: back further
            if mover != me:
                raise IllegalMoveError(f"the last move was seat {mover + 1}'s; you can take back only your own")
            break
        moves, entries = game.history[-steps:], self.log[max(len(self.log) - steps, 0):]
        for _ in range(steps):
            game.undo()
        del self.log[max(len(self.log) - steps, 0):]
        if self.undone and self.undone[-1][0] != len(game.history) + steps:
            self.undone.clear()  # moves were made since the last undo: what it took back is gone
        start = len(game.history)
        autos = {i - start for i in self.auto if i >= start}  # which of the moves autoplay made
        self.auto -= {i + start for i in autos}
        self.undone.append((start, moves, entries, autos))

    def _redo(self) -> None:
        """Play again the moves the last `undo` took back, if no move was made since."""
        game = self.game
        if not self.undone or self.undone[-1][0] != len(game.history):
            self.undone.clear()
            raise IllegalMoveError("there is nothing to redo")
        start, moves, entries, autos = self.undone.pop()
        for move in moves:
            game.apply(move)
        self.log.extend(entries)
        self.auto |= {i + start for i in autos}

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
                self.auto.add(len(game.history) - 1)
                entry.append(" (your only move)" if lone is not None else " (auto)", style="dim")
            self.log.append(entry)
            if not self.quiet and (bot is None and (not self.interactive or auto is not None)
                                   or bot is not None and humans):
                self.console.print(entry)
        if not self.quiet and self.saved_to is None:
            self.console.print(render.render_table(game, self.public))
            self.console.print(render.packed(render.outcome_text(game)))


# -- simultaneous games: input on a clock ------------------------------------------------

REALTIME_HELP = """Everyone plays at once: the bots move at their own speed while you think.
Commands:
  <number>        play the move with that number in the list
  <move text>     play a move of your own seat by its text, e.g. {example}
                  (a text that is not a legal move now is answered with why)
  hint            suggest a move
  show            draw the table again
  help            this text
  quit            stop the game
A move that another seat's move has made impossible is refused ("too late")."""

def help_text(template: str, game: Game) -> Text:
    """A help text (`HELP`, `REALTIME_HELP`) with its example move taken from the game at hand:
    a legal move now, in its short and long forms (`w>t7 or waste>tableau7`)."""
    moves = game.legal_moves()
    move = next((m for m in moves if ">" in m.text()), moves[0] if moves else None)
    if move is None:
        example = game.rules.moves[0].name if game.rules.moves else "a move's text"
    elif move.text(long=True) != move.text() and _widest(template.format(
            example=f"{move.text()} or {move.text(long=True)}")) <= LINE_WIDTH:
        example = f"{move.text()} or {move.text(long=True)}"
    else:  # the short form alone where both would not fit on the line
        example = move.text()
    return Text(template.format(example=example))


def _widest(text: str) -> int:
    return max(len(line) for line in text.splitlines())


CLEAR = "\x1b[H\x1b[2J"   # the cursor home and the screen cleared, written with the new frame at once


class LineSource(Protocol):
    """Where the human's lines come from, on the session's clock."""

    line_no: int   # lines read so far
    pending: str   # what has been typed of the next line (redrawn with the prompt)

    def wait(self, timeout: float | None) -> str | None:
        """The next line if one comes within `timeout` seconds (None: no limit), else None.
        Raises EOFError when the input ends."""
        ...


class TimedLines:
    """Lines that arrive at given moments of a simulated clock, which this source keeps (`clock`):
    waiting moves the clock on instead of sleeping, so a session on it is the same on every run."""

    def __init__(self, lines: Iterable[tuple[float, str]]) -> None:
        self._lines: Iterator[tuple[float, str]] = iter(lines)
        self._next = next(self._lines, None)
        self.now = 0.0
        self.line_no = 0
        self.pending = ""

    @classmethod
    def script(cls, stream: TextIO, interval: float = 1.0) -> "TimedLines":
        """A script read line by line: line N arrives at N * `interval` seconds."""
        return cls((n * interval, line) for n, line in enumerate(stream, 1))

    def clock(self) -> float:
        return self.now

    def wait(self, timeout: float | None) -> str | None:
        if self._next is None:
            raise EOFError
        due, line = self._next
        if timeout is not None and self.now + timeout < due:
            self.now += timeout
            return None
        self.now = max(self.now, due)
        self._next = next(self._lines, None)
        self.line_no += 1
        return line


class TerminalInput:
    """Keys typed at a terminal, read without blocking the game: the terminal is put in cbreak mode
    (no line editing, no echo) while in use (`with`), and this class echoes and edits the line itself,
    so a redrawn screen can show the line being typed again (`pending`)."""

    def __init__(self, stream: TextIO, echo: IO[str]) -> None:
        self.fd = stream.fileno()
        self.echo = echo
        self.line_no = 0
        self.pending = ""
        self._keys = ""
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._saved: Any = None

    def __enter__(self) -> "TerminalInput":
        import termios
        self._saved = termios.tcgetattr(self.fd)
        mode = termios.tcgetattr(self.fd)
        mode[3] &= ~(termios.ECHO | termios.ICANON)
        mode[6][termios.VMIN] = 1
        mode[6][termios.VTIME] = 0
        termios.tcsetattr(self.fd, termios.TCSANOW, mode)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._saved is not None:
            import termios
            termios.tcsetattr(self.fd, termios.TCSADRAIN, self._saved)
            self._saved = None

    def wait(self, timeout: float | None) -> str | None:
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            line = self._take_line()
            if line is not None:
                return line
            remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
            ready, _, _ = select.select([self.fd], [], [], remaining)
            if not ready:
                return None
            data = os.read(self.fd, 1024)
            if not data:
                if self.pending:  # the input ends in the middle of a line: that line, then the end
                    self._keys += "\n"
                    continue
                raise EOFError
            self._keys += self._decoder.decode(data)

    def _take_line(self) -> str | None:
        """Edit the line with the keys read so far; the line once Enter is among them."""
        keys = self._keys
        i = 0
        try:
            while i < len(keys):
                key = keys[i]
                i += 1
                if key in "\r\n":
                    line, self.pending = self.pending, ""
                    self._echo("\n")
                    self.line_no += 1
                    return line
                if key in "\x7f\b":
                    if self.pending:
                        self.pending = self.pending[:-1]
                        self._echo("\b \b")
                elif key == "\x15":  # Ctrl-U: the whole line
                    self._echo("\b \b" * len(self.pending))
                    self.pending = ""
                elif key == "\x04":  # Ctrl-D
                    if not self.pending:
                        raise EOFError
                elif key == "\x1b":  # an escape sequence (arrow keys): ignored
                    if i < len(keys) and keys[i] in "[O":
                        i += 1
                        while i < len(keys) and not (keys[i].isalpha() or keys[i] == "~"):
                            i += 1
                        i += 1
                elif key.isprintable():
                    self.pending += key
                    self._echo(key)
            return None
        finally:
            self._keys = keys[i:]

    def _echo(self, text: str) -> None:
        self.echo.write(text)
        self.echo.flush()


@dataclass
class RealtimeSession:
    """A simultaneous game between one human seat and bots, on a clock.

    `clock()` gives the seconds since the game started; `source` gives the human's lines on that
    clock. The loop waits for a line until the next bot action is due, lands the bots' actions as
    they come due and the human's moves when typed. A move is read against the table as the human
    last saw it (the list drawn, or scripted: the table after the previous line), so one that another
    seat's move has made illegal meanwhile is refused: "too late". `interactive`: redraw the screen
    when the table changes; otherwise print each action as a line of a log."""

    game: Game
    seats: dict[int, Bot | None]
    console: Console
    source: LineSource
    clock: Callable[[], float]
    speeds: dict[int, float] = field(default_factory=dict)
    seed: int = 0
    interactive: bool = False
    quiet: bool = False
    simulated: bool = True            # the clock is simulated (scripted input), not the real one
    recent: int = 6                   # the other seats' actions shown on screen
    confirm_quit: bool = False        # `quit` abandons the game only when typed twice in a row
    log: list[tuple[int, Text]] = field(default_factory=list)   # (seat, entry) for every action
    message: list[Any] = field(default_factory=list)   # shown under the table until the next command
    redraws: int = 0

    def __post_init__(self) -> None:
        humans = [s for s in range(self.game.players) if self.seats.get(s) is None]
        if len(humans) != 1:
            raise ValueError("a real-time session has exactly one human seat")
        self.human = humans[0]
        self._quitting = False  # `quit` was typed and asked to be confirmed (`confirm_quit`)
        agents: dict[int, Agent] = {s: b for s, b in self.seats.items() if b is not None}
        self.scheduler = Scheduler(self.game, agents, self.seed, dict(self.speeds))
        self._changed = True
        self._look()

    # -- the loop ----------------------------------------------------------------------------

    def run(self) -> None:
        game = self.game
        if not self.interactive and not self.quiet:
            self._intro()
            self.console.print(render.render_seats_table(game, self.human))
        try:
            while not game.is_over:
                self._land(self.clock())
                if game.is_over:
                    break
                if self.interactive and self._changed:
                    self.draw()
                due = self.scheduler.next_time()
                try:
                    line = self.source.wait(None if due is None else max(0.0, due - self.clock()))
                except EOFError:
                    game.finish("abandoned", "the player stopped")
                    break
                if line is None:  # a bot's action is due (at least that one, however the clock ran)
                    if due is not None:
                        self._land(max(self.clock(), due))
                    continue
                if not self.command(line):
                    game.finish("abandoned", "the player stopped")
                    break
        except KeyboardInterrupt:
            game.finish("abandoned", "the player stopped")
        if self.interactive:
            self.draw()
        if not self.quiet:
            self.console.print()
            self.console.print(render.render_seats_table(game, None))
            self.console.print(render.packed(render.outcome_text(game)))
            self.console.print(stats_text(game, self.scheduler, self.simulated))

    def command(self, line: str) -> bool:
        """Act on one line of the human's at the clock's time; False to stop the game."""
        at = self.clock()
        word = " ".join(line.strip().lower().split())
        asked, self._quitting = self._quitting, False
        self.message = []
        self._changed = True
        try:
            if not word:
                return True
            if word in ("quit", "q", "exit"):
                if not self.confirm_quit or asked:
                    return False
                self._quitting = True
                self._say(Text("quit again to abandon the game (the clock runs on); anything else goes on",
                               style="bold yellow"))
                return True
            self._land(at)  # what is due by now happens first
            if self.game.is_over:
                return True
            if word in ("help", "?"):
                self._say(help_text(REALTIME_HELP, self.game), Text(f"\nMoves of {shown_title(self.game.rules.title)}:"),
                          render.render_rules_help(self.game))
                return True
            if word == "show":
                if not self.interactive:
                    self._show()
                return True
            if word == "hint":
                game = self.game
                game.focus(self.human)
                if not game.legal_moves():
                    self._say(Text("hint: you have no move now; wait for the others"))
                    return True
                self._say(render.hint_text(game, suggest_move(game)))
                return True
            try:
                if word == "undo":
                    raise IllegalMoveError("there is no undo when everyone plays at once")
                move = self._parse(word)
            except IllegalMoveError as exc:
                told = why_not(self.game, word, self.human, exc, self.console.width) if not is_number(word) and word != "undo" \
                    else f"{exc}; type 'help' for commands"
                if not self.interactive:
                    raise ScriptError(f"<stdin>:{self.source.line_no}: {told}") from None
                self.message = [Text(printable(told), style="red")]
                return True
            self._human_move(move, at)
            return True
        finally:
            if not self.interactive:
                self._look()  # scripted: the next line is decided on the table as it is now

    # -- moves -------------------------------------------------------------------------------

    def _parse(self, word: str) -> Move:
        """A move of the human's: by number in the list last shown, or by text, as the table was when
        last seen (a move possible since then is taken too)."""
        if is_number(word):
            index = int(word)
            if not self._shown:
                raise IllegalMoveError(f"there is no move {index}: you had no move")
            if not 1 <= index <= len(self._shown):
                raise IllegalMoveError(f"there is no move {index} (1-{len(self._shown)})")
            return self._shown[index - 1]
        try:
            return self._seen.parse_move(word, self.human)
        except IllegalMoveError:
            return self.game.parse_move(word, self.human)

    def _human_move(self, move: Move, at: float) -> None:
        game = self.game
        piles = list(game.state.piles)
        record = self.scheduler.human_move(self.human, move, at)
        if record.landed:
            self._note(record, piles)
            return
        first = self._first_there(move)
        why = f"seat {first + 1} got there first" if first is not None else "that move is no longer possible"
        text = Text(f"too late: {why}", style="bold yellow")
        self._note(record, piles, text)
        self.message = [text.copy().append(f" ({record.text_for(self.human)})", style="dim")]

    def _first_there(self, move: Move) -> int | None:
        """The seat whose move, since the human last looked, made `move` impossible."""
        trial = self._seen.clone()
        try:
            for done in self.game.history[len(trial.history):]:
                trial.apply(done)
                if move not in trial.legal_moves(self.human):
                    return done.actor if done.actor >= 0 else None
        except CardrulesError:
            return None
        return None

    def _land(self, until: float) -> None:
        """Land the bots' actions due by `until`, noting each."""
        scheduler, game = self.scheduler, self.game
        while not game.is_over:
            due = scheduler.next_time()
            if due is None or due > until:
                break
            piles = list(game.state.piles)
            record = scheduler.step()
            if record is not None:
                self._note(record, piles)
        scheduler.run(until=until)

    def _note(self, record: Record, piles: list[list[int]], refused: Text | None = None) -> None:
        """Keep (and, scripted, print) an action: the time, the seat, the move and its card."""
        game = self.game
        entry = Text(f"{record.time:7.2f}s ", style="dim")
        entry.append(f"seat {record.seat + 1}" + (" (you)" if record.seat == self.human else "") + ": ")
        if record.landed:
            move = game.history[-1]
            entry.append_text(render.describe_played(game, move, render.moved_card(game, move, piles), self.human))
        else:
            entry.append(record.text_for(self.human), style="cyan")
            entry.append("  ")
            entry.append_text(refused if refused is not None else Text("too late: refused", style="yellow"))
        self.log.append((record.seat, entry))
        self._changed = True
        if not self.interactive and not self.quiet:
            self.console.print(entry)

    # -- what the human sees -----------------------------------------------------------------

    def _look(self) -> None:
        """The human has seen the table as it is now: moves are read against it."""
        self.game.focus(self.human)
        self._seen = self.game.clone()
        self._shown = self._seen.legal_moves(self.human)

    def _say(self, *parts: Any) -> None:
        """Tell the human something: under the table (interactive) or printed (scripted)."""
        if self.interactive:
            self.message = list(parts)
        elif not self.quiet:
            for part in parts:
                self.console.print(part)

    def _show(self) -> None:
        if self.quiet:
            return
        self._look()
        self.console.print(render.render_seats_table(self.game, self.human))
        self.console.print(render.render_moves(self.game, self._shown))

    def _intro(self) -> None:
        self.console.print(self._intro_text())

    def _intro_text(self) -> Text:
        bots = ", ".join(f"seat {s + 1} {b.name} at {self.speeds.get(s, DEFAULT_SPEED):g}/s"
                         for s, b in sorted(self.seats.items()) if b is not None)
        clock = "one line a second, in simulated time" if self.simulated else "in real time"
        return Text(f"seat {self.human + 1}", style="bold").append(f" (you) against {bots}: everyone plays at "
                                                                   f"once, {clock}")

    def draw(self) -> None:
        """Draw the screen afresh: the table as the human sees it, the others' last actions, the human's
        moves (numbered), any message, and the prompt with what is typed so far."""
        game = self.game
        self._look()
        self._changed = False
        self.redraws += 1
        console = self.console

        def lines(*parts: Any) -> int:
            return sum(len(console.render_lines(part, pad=False)) for part in parts)

        # What must stay in sight on a screen of `height` lines: the shared piles and the human's own
        # (the other seats go one line each when the full table would not fit), the moves (cut short
        # if need be), the prompt; the others' recent actions take what room is left.
        height = console.size.height
        head = [self._intro_text(), Text(f"{self.clock():.1f}s", style="dim")]
        table = render.render_seats_table(game, self.human)
        fixed = 1 + lines(*self.message) + (0 if game.is_over else 1)  # the prompt, "Your moves:"
        moves = render.render_moves(game, self._shown) if self._shown and not game.is_over else None
        if fixed + lines(*head, table) + (lines(moves) if moves is not None else 1) > height:
            table = render.render_seats_table(game, self.human, compact=True)
        room = height - fixed - lines(*head, table)
        shown = self._shown
        while moves is not None and len(shown) > 1 and lines(moves) > max(room, 3):
            shown = shown[:max(1, len(shown) * 3 // 4)]
            moves = render.render_moves(game, shown)
        room -= lines(moves) if moves is not None else 1
        with console.capture() as capture:
            for part in head:
                console.print(part)
            console.print(table)
            others = [entry for seat, entry in self.log if seat != self.human][-min(self.recent, room - 1):] \
                if room > 1 else []
            if others:
                console.print(Text("Lately:", style="dim"))
                for entry in others:
                    console.print(Text("  ").append_text(entry), no_wrap=True, overflow="ellipsis")
            if not game.is_over:
                console.print(Text("Your moves:", style="dim") if len(shown) == len(self._shown) else
                              Text(f"Your moves (the first {len(shown)} of {len(self._shown)}):", style="dim"))
                if moves is not None:
                    console.print(moves)
                else:
                    console.print(Text("  none now: wait for the others", style="dim"))
            for part in self.message:
                console.print(part)
        prompt = "" if game.is_over else f"seat {self.human + 1}> {self.source.pending}"
        console.file.write(CLEAR + capture.get() + prompt)
        console.file.flush()


def stats_text(game: Game, scheduler: Scheduler, simulated: bool = True) -> Text:
    """How long the game took on the clock (who won is in `render.outcome_text`, shown above it)."""
    text = Text()
    moves, refused = len(game.history), scheduler.refused
    text.append(f"{moves} moves in {scheduler.now:.1f} {'simulated ' if simulated else ''}seconds, "
                f"{refused} refused (too late)", style="dim")
    return text


def play_simultaneous(game: Game, seats: dict[int, Bot | None], specs: dict[int, SeatSpec], seed: int,
                      console: Console, quiet: bool, stdin: TextIO | None = None) -> tuple[Scheduler, bool]:
    """Play a simultaneous game: bots alone in simulated time; with the human seat, in real time at a
    terminal, else (scripted input) in simulated time, line N at N seconds. Returns the scheduler and
    whether its clock was simulated."""
    stdin = sys.stdin if stdin is None else stdin
    speeds = {s: specs.get(s, SeatSpec()).speed for s, b in seats.items() if b is not None}
    if all(b is not None for b in seats.values()):
        agents: dict[int, Agent] = {s: b for s, b in seats.items() if b is not None}
        scheduler = simulate(game, agents, seed, speeds)
        if not quiet:
            console.print(render.render_seats_table(game, None))
            console.print(render.packed(render.outcome_text(game)))
            console.print(stats_text(game, scheduler))
        return scheduler, True
    if stdin.isatty():
        start = [time.monotonic()]
        terminal = TerminalInput(stdin, console.file)
        session = RealtimeSession(game, seats, console, terminal, lambda: time.monotonic() - start[0], speeds, seed,
                                  interactive=True, simulated=False, confirm_quit=True)
        with terminal:
            # The clock starts when the human is ready: a first look at the table, and the rules of play.
            console.print(render.render_seats_table(game, session.human))
            console.print(help_text(REALTIME_HELP, game))
            bots = ", ".join(f"seat {s + 1} at {speed:g}/s" for s, speed in sorted(speeds.items()))
            console.print(f"[bold]Press Enter to start the clock[/bold] (bots: {bots}) ", end="")
            try:
                terminal.wait(None)
            except (EOFError, KeyboardInterrupt):
                game.finish("abandoned", "the player stopped")
                return session.scheduler, False
            start[0] = time.monotonic()
            session.run()
        return session.scheduler, False
    script = TimedLines.script(stdin)
    session = RealtimeSession(game, seats, console, script, script.clock, speeds, seed, quiet=quiet)
    session.run()
    return session.scheduler, True


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


def save_persistent(game: Game) -> None:
    """Apply the game's change to its `persist` values to the store (other games' changes are kept)."""
    store.save(store.data_key(game.rules), game.persisted_start, game.persistent_values())


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
    "save_persistent",
    "summary",
    "timed_summary",
]
