"""Validate's check that the list of legal moves gives no hidden card away (`cardrules validate`).

After a ruleset is loaded and checked (`ruleset.check_ruleset`), a few short games are played at
random from fixed seeds, with its default options and number of seats. At each position the legal
moves of each seat that may act are compared with those of a copy of the game dealt anew from that
seat's view (`Game.determinize`): the copy looks the same to the seat, so a move offered in one and
not in the other is offered or not because of a card the seat cannot see, and the list of legal
moves tells the seat about that card. Its move is reported at the move's place in the file.

A static reading of the rules would warn on any condition that reads a face-down card, although
most such cards are turned up before any listing (a solitaire's column tops, by a trigger); playing
looks only at the positions the seat is really offered moves in. The check is bounded (games,
moves, CPU time), so a leak that shows only deep in a game may go unseen; what it reports is
always a real leak (the two listings differ on one position).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from ..python.engine import Game
from ..base.errors import CardrulesError, SourcePos
from ..model.ruleset import Ruleset

LEAK_GAMES = 3  # games played, from seeds 0, 1, ...
LEAK_MOVES = 40  # moves played in each game, at most
LEAK_SECONDS = 0.05  # CPU seconds the whole check may take (it stops between positions)


@dataclass(frozen=True)
class Leak:
    """A move template whose legality depended on cards its seat could not see: at one position,
    `seat` was offered `example` by the game and not by a copy dealt anew from its view
    (`in_game`), or the other way round."""

    move: str
    pos: SourcePos | None
    seat: int
    example: str
    in_game: bool

    def message(self) -> str:
        by = ("the game and not by a copy of it", "a copy of the game and not by the game")[not self.in_game]
        return (f"move '{self.move}' is offered or not according to cards its seat cannot see, so the "
                f"legal moves give them away (seat {self.seat + 1} was offered '{self.example}' by {by}, with the "
                f"cards it cannot see dealt anew); turn a card up before a condition reads it")


def find_leaks(rules: Ruleset, games: int = LEAK_GAMES, moves: int = LEAK_MOVES,
               seconds: float = LEAK_SECONDS) -> list[Leak]:
    """The move templates of `rules` whose offered moves differed between a game and a copy of it
    determinized from the view of the seat offered them, first found first; one per template.
    Plays `games` random games of at most `moves` moves each, within `seconds` of CPU time.
    A game that stops on an error of the ruleset ends the check of that game (playing reports it)."""
    deadline = time.process_time() + seconds
    found: dict[int, Leak] = {}
    for seed in range(games):
        rng = random.Random(seed)
        try:
            game = rules.new_game(seed=seed)
            for _ in range(moves + 1):
                if game.is_over or time.process_time() > deadline:
                    break
                seats = range(game.players) if rules.simultaneous else (game.current_player,)
                for seat in seats:
                    _compare(game, seat, rng, found)
                legal = game.legal_moves()
                if not legal:
                    break
                game.apply(rng.choice(legal))
        except CardrulesError:
            continue
        if time.process_time() > deadline:
            break
    return list(found.values())


def _compare(game: Game, seat: int, rng: random.Random, found: dict[int, Leak]) -> None:
    """Note in `found` each template whose moves for `seat` differ between `game` and a copy of it
    determinized from the seat's view."""
    offered = game.legal_moves(seat)
    copy = game.determinize(seat, rng)
    imagined = copy.legal_moves(seat)
    mine = {move.key() for move in offered}
    theirs = {move.key() for move in imagined}
    if mine == theirs:
        return
    templates = game.rules.moves
    for move, in_game in [*((m, True) for m in offered if m.key() not in theirs),
                          *((m, False) for m in imagined if m.key() not in mine)]:
        if move.template not in found:
            template = templates[move.template]
            found[move.template] = Leak(template.name, template.pos, seat, str(move), in_game)
