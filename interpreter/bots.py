"""Bots that choose moves: `random` (uniform) and `greedy` (best immediate score gain).

Each bot has its own seeded random generator, so a game played by bots is the same
on every machine for the same seeds. A bot decides from what its seat may see: the
legal moves offered to it, and copies of the game in which every card it cannot see
has been dealt anew at random (`Game.determinize`).
"""

from __future__ import annotations

import random
from typing import Protocol

from .engine import Game, Move


class Bot(Protocol):
    name: str

    def choose(self, game: Game) -> Move: ...


class RandomBot:
    """Picks uniformly among the legal moves."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game) -> Move:
        return self.rng.choice(game.legal_moves())


class GreedyBot:
    """Picks the move that raises its own score most right away; ties are broken at random."""

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game) -> Move:
        player = game.current_player
        trial = game.determinize(player, self.rng)  # the cards this seat cannot see, guessed
        before = trial.scores()[player]
        best: list[Move] = []
        best_gain = None
        for move in trial.legal_moves():
            trial.apply(move)
            gain = trial.scores()[player] - before
            trial.undo()
            if best_gain is None or gain > best_gain:
                best, best_gain = [move], gain
            elif gain == best_gain:
                best.append(move)
        return self.rng.choice(best)


BOT_KINDS: dict[str, type[RandomBot] | type[GreedyBot]] = {"random": RandomBot, "greedy": GreedyBot}


def make_bot(kind: str, seed: int | None) -> Bot:
    """A bot by kind name; raises KeyError for an unknown kind."""
    bot: Bot = BOT_KINDS[kind](seed)
    return bot
