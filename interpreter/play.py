"""A game at the terminal: seats of humans and bots, commands, scripted input, the summary.

Humans type a move's number or text, or `undo`, `hint`, `help`, `show`, `quit`.
When standard input is not a terminal the same commands are read one per line, so
games can be scripted; an unknown command or illegal move there stops with an error
naming the input line.
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
  undo            take back the last move
  hint            suggest a move
  show            draw the table again
  help            this text
  quit            stop the game"""


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

    def human_turn(self) -> Move | None:
        """Read commands until a move is chosen; None when the player quits."""
        game = self.game
        player = game.current_player
        shown = False
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
            if word == "hint":
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

    def _undo(self) -> None:
        """Undo back to the last human decision (bot moves after it are undone too)."""
        game = self.game
        game.undo()
        while game.history and self.seats.get(game.current_player) is not None and len(self.seats) > 1:
            game.undo()

    def _read(self, prompt: str) -> str | None:
        if self.interactive:
            try:
                return self.console.input(prompt)
            except (EOFError, KeyboardInterrupt):
                self.console.print()
                return None
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
        self.console.print(render.render_table(self.game, player))
        self.console.print(render.render_moves(self.game, moves))

    def run(self) -> None:
        game = self.game
        if not self.interactive and not self.quiet:
            self.console.print(render.render_table(game, 0))
        while not game.is_over:
            bot = self.seats.get(game.current_player)
            if bot is not None:
                move = bot.choose(game)
            else:
                chosen = self.human_turn()
                if chosen is None:
                    game.finish("abandoned", "the player stopped")
                    break
                move = chosen
            text = render.describe_move(game, move)
            game.apply(move)
            if not self.quiet and (bot is None and not self.interactive or bot is not None and
                                   any(b is None for b in self.seats.values())):
                self.console.print(render.Text(f"{len(game.history)}. ").append_text(text))
        if not self.quiet:
            self.console.print(render.render_table(game, 0))
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
        "winners": [p + 1 for p in winners] if winners is not None else None,
        "persistent": game.persistent_values(),
    }


def save_persistent(game: Game) -> None:
    values = game.persistent_values()
    if values:
        store.save(game.rules.name, values)


__all__ = ["HELP", "ScriptError", "Session", "make_bot", "save_persistent", "summary"]
