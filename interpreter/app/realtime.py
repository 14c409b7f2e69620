"""Simultaneous games at the terminal (app/play.py plays the others): every seat plays at once on a
clock, the bots at their own speed while the one human seat types moves, read from a terminal in
real time or from a script in simulated time.
"""

from __future__ import annotations

import codecs
import os
import select
import sys
import time
from dataclasses import dataclass, field
from typing import IO, Any, Callable, Iterable, Iterator, Protocol, TextIO

from rich.console import Console
from rich.text import Text

from ..python import render

from ..agents.bots import Bot, suggest_move
from ..python.engine import Game, Move
from ..base.errors import CardrulesError, IllegalMoveError, printable, shown_title
from ..agents.scheduler import DEFAULT_SPEED, Agent, Record, Scheduler, simulate
from ..agents.seats import SeatSpec, is_number
from .play_texts import ScriptError, help_text, why_not

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
