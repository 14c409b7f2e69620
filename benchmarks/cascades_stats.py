"""Statistics: how often the bots win Cascades, and how far they get.

    python benchmarks/cascades_stats.py [--games N] [--first-seed S] [--max-moves M]

Plays N seeded games (seeds S..S+N-1) of each of cascades, cascades extended,
cascades-v2 and cascades-v2 extended with the random bot and the greedy bot
(``cardrules.agents.bots.make_bot``; the bot's seed is the game's seed) and prints, per
ruleset and bot: the share of games won with its 95% Wilson confidence interval,
the mean number of cards placed in the tiers (the game's score) and the mean game
length in moves.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from dataclasses import dataclass, field

from cardrules import load_ruleset
from intervals import wilson
from cardrules.agents.bots import make_bot

RULESETS = [
    ("cascades", False, "cascades"),
    ("cascades", True, "cascades extended"),
    ("cascades-v2", False, "cascades-v2"),
    ("cascades-v2", True, "cascades-v2 extended"),
]
BOTS = ["random", "greedy"]




@dataclass
class Stats:
    ruleset: str
    bot: str
    games: int = 0
    won: int = 0
    placed: int = 0
    moves: int = 0
    seconds: float = 0.0
    outcomes: Counter[str] = field(default_factory=Counter)

    def line(self) -> str:
        low, high = wilson(self.won, self.games)
        share = self.won / self.games
        return (f"{self.ruleset:<22} {self.bot:<7} won {self.won:>5}/{self.games:<5} = {share:6.1%}"
                f"  [95% CI {low:6.1%} - {high:6.1%}]"
                f"  mean placed {self.placed / self.games:6.2f}"
                f"  mean length {self.moves / self.games:7.1f} moves"
                f"  ({self.seconds:.1f} s; {dict(sorted(self.outcomes.items()))})")


def play(name: str, extended: bool, label: str, bot_kind: str, games: int, first_seed: int,
         max_moves: int | None) -> Stats:
    rules = load_ruleset(name, options={"extended": extended})
    stats = Stats(label, bot_kind)
    start = time.perf_counter()
    for seed in range(first_seed, first_seed + games):
        game = rules.new_game(seed=seed, max_moves=max_moves)
        bot = make_bot(bot_kind, seed)
        while not game.is_over:
            game.apply(bot.choose(game))
        stats.games += 1
        stats.won += game.outcome == "won"
        stats.placed += game.scores()[0]
        stats.moves += len(game.history)
        stats.outcomes[game.outcome or "unfinished"] += 1
    stats.seconds = time.perf_counter() - start
    return stats


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="games per ruleset and bot (default 1000)")
    parser.add_argument("--first-seed", type=int, default=0, help="seed of the first game (default 0)")
    parser.add_argument("--max-moves", type=int, default=None,
                        help="move limit per game (default: the ruleset's own)")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    print(f"Cascades statistics: {args.games} games per ruleset and bot, seeds "
          f"{args.first_seed}..{args.first_seed + args.games - 1}; bot seed = game seed")
    for name, extended, label in RULESETS:
        for bot_kind in BOTS:
            print(play(name, extended, label, bot_kind, args.games, args.first_seed, args.max_moves).line(),
                  flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
