"""A game at the terminal: seats of humans and bots, commands, scripted input, the summary.

Humans type a move's number or text, or `undo`, `hint`, `help`, `show`, `quit`.
When standard input is not a terminal the same commands are read one per line, so
games can be scripted; an unknown command or illegal move there stops with an error
naming the input line.

Hot seat: with several human seats each human sees only their own view. Before a human
other than the one last shown is to play, the screen is cleared and that seat is asked
to take the seat (scripted: a one-line hand-over notice); the moves since that seat last
looked are recalled. Tables drawn to no seat in particular (all bots, the end of a game
of several seats) are the spectator's view: only what every seat may see.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import Any, TextIO

from rich.console import Console

from . import render, store
from .bots import Bot, GreedyBot, make_bot
from .engine import Game, Move
from .errors import CardrulesError, IllegalMoveError

HELP = """Commands:
  <number>        play the move with that number in the list
  <move text>     play a move by its text, e.g. t3>f1 or tableau3>foundation1
  undo            take back your last move (and the bots' moves after it)
  hint            suggest a move
  show            draw the table again
  help            this text
  quit            stop the game"""

RECALL = 30  # at most this many moves since a seat last looked are recalled at a hand-over


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
            if command is None:
                return None
            word = command.strip().lower()
            if not word:
                continue
            if word in ("quit", "q", "exit"):
                return None
            if word in ("help", "?"):
                self.console.print(HELP)
                self.console.print(f"\nMoves of {game.rules.title}:")
                self.console.print(render.render_rules_help(game))
                continue
            if word == "show":
                self.show(player, moves)
                continue
            if word == "hint":  # decided on the seat's own view (the bot determinizes)
                hint = GreedyBot(len(game.history)).choose(game)
                self.console.print(render.Text("hint: ").append_text(render.describe_move(game, hint)))
                continue
            if word == "undo":
                try:
                    self._undo()
                except IllegalMoveError as exc:
                    self._complain(str(exc))
                    continue
                shown = False
                continue
            try:
                if word.isdigit():
                    index = int(word)
                    if not 1 <= index <= len(moves):
                        raise IllegalMoveError(f"there is no move {index} (1-{len(moves)})")
                    return moves[index - 1]
                return game.parse_move(word)
            except IllegalMoveError as exc:
                self._complain(f"{exc}; type 'help' for commands")

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
            if self.seats.get(mover) is not None:
                continue  # a bot's move: back further
            if mover != me:
                raise IllegalMoveError(f"the last move was seat {mover + 1}'s; you can take back only your own")
            break
        for _ in range(steps):
            game.undo()
        del self.log[max(len(self.log) - steps, 0):]

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
            self.console.print(f"[red]{message}[/red]")
        else:
            raise ScriptError(f"<stdin>:{self.line_no}: {message}")

    def show(self, player: int, moves: list[Move]) -> None:
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
            if bot is not None:
                move = bot.choose(game)
            else:
                chosen = self.human_turn()
                if chosen is None:
                    game.finish("abandoned", "the player stopped")
                    break
                move = chosen
            card = render.moved_card(game, move)
            forced = bool(game.state.frames)
            game.apply(move)
            entry = render.Text(f"{len(game.history)}. ")
            if game.players > 1:
                entry.append(f"seat {player + 1}{' (forced)' if forced else ''}: ", style="dim")
            entry.append_text(render.describe_played(game, move, card, record_view))
            self.log.append(entry)
            if not self.quiet and (bot is None and not self.interactive or bot is not None and humans):
                self.console.print(entry)
        if not self.quiet:
            self.console.print(render.render_table(game, self.public))
            self.console.print(render.outcome_text(game))


def summary(game: Game, seed: int | None, seat_kinds: dict[int, str]) -> dict[str, Any]:
    """The JSON summary of a finished (or abandoned) game."""
    scores = game.scores()
    winners = game.winners()
    return {
        "ruleset": game.rules.name,
        "seed": seed,
        "deal": game.deal_order if seed is None else None,
        "options": game.rules.option_values,
        "players": game.players,
        "seats": {str(s + 1): seat_kinds.get(s, "human") for s in range(game.players)},
        "moves": [str(m) for m in game.history],
        "move_count": len(game.history),
        "scores": scores,
        "outcome": game.outcome,
        "reason": game.reason,
        "label": game.label(),
        "labels": [game.label(p) for p in range(game.players)] if game.players > 1 else None,
        "winners": [p + 1 for p in winners] if winners is not None else None,
        "persistent": game.persistent_values(),
    }


def save_persistent(game: Game) -> None:
    values = game.persistent_values()
    if values:
        store.save(game.rules.name, values)


__all__ = ["HELP", "ScriptError", "Session", "make_bot", "save_persistent", "summary"]
