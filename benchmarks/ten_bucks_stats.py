"""Statistics: how Ten Bucks goes between bots, seat by seat, by number of players.

    python benchmarks/ten_bucks_stats.py [--games N] [--ruleset NAME] [--players 2 3 4 5 6]
                                         [--bots random,greedy] [--first-seed S]

For each number of players and each bot kind, plays N games (seeds S..S+N-1, default 1..N) in
which every seat is played by a bot of that kind (``cardrules.agents.bots.make_bot``; seat k's bot,
k = 0, 1, ..., has the seed ``100 * seed + k``), so the numbers are the same on every run. It
prints per player count and bot kind:

- each seat's share of the wins (a win shared by k seats counts 1/k to each) with its 95%
  Wilson confidence interval (the share of N games);
- the mean game length in turns (moves named ``play`` or ``no_bill``: one per turn) and in moves;
- how the games ended (by ``game.reason``): the hands ran out, a seat reached $10, and any
  other end the ruleset has (ten $0 bills with Zero Risk; no seat able to play, with only wild
  bills left and no stack; "no move is possible" if a seat were left without a move);
- the mean money of the winners (per game, the mean over its winners).
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from dataclasses import dataclass, field

from cardrules import load_ruleset
from intervals import seat_share_lines
from cardrules.agents.bots import make_bot

TURN_MOVES = {"play", "no_bill"}
REASONS = {
    "the hands ran out; the highest total wins": "hands ran out",
    "a seat has claimed $10 or more": "reached $10",
    "a seat has claimed ten $0 bills": "ten $0 bills",
    "no seat can play a bill (wild bills, and no stack to put them on); the highest total wins": "no seat can play",
    "no move is possible": "no move possible",
}




@dataclass
class Stats:
    ruleset: str
    players: int
    bot: str
    games: int = 0
    wins: list[float] = field(default_factory=list)
    turns: int = 0
    moves: int = 0
    winning_money: float = 0.0
    shared: int = 0
    reasons: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0

    def lines(self) -> list[str]:
        n = self.games
        out = [f"{self.ruleset}, {self.players} players, {self.bot} bots: {n} games in {self.seconds:.1f} s"]
        out += seat_share_lines(self.wins, n)
        out.append(f"  expected share with no seat advantage: {1 / self.players:.1%};"
                   f" games with a shared win: {self.shared} ({self.shared / n:.1%})")
        out.append(f"  mean length: {self.turns / n:.2f} turns, {self.moves / n:.2f} moves")
        ends = ", ".join(f"{REASONS.get(reason, reason)} {count} ({count / n:.1%})"
                         for reason, count in sorted(self.reasons.items(), key=lambda kv: -kv[1]))
        out.append(f"  ended: {ends}")
        out.append(f"  mean winning money: ${self.winning_money / n:.2f}")
        return out


def play(ruleset: str, players: int, bot_kind: str, games: int, first_seed: int) -> Stats:
    rules = load_ruleset(ruleset)
    names = [template.name for template in rules.moves]
    stats = Stats(ruleset, players, bot_kind, wins=[0.0] * players)
    start = time.perf_counter()
    for seed in range(first_seed, first_seed + games):
        game = rules.new_game(seed=seed, players=players)
        bots = [make_bot(bot_kind, 100 * seed + seat) for seat in range(players)]
        turns = 0
        while not game.is_over:
            move = bots[game.current_player].choose(game)
            turns += names[move.template] in TURN_MOVES
            game.apply(move)
        winners = game.winners() or []
        stats.games += 1
        stats.turns += turns
        stats.moves += len(game.history)
        stats.reasons[game.reason] += 1
        stats.shared += len(winners) > 1
        for seat in winners:
            stats.wins[seat] += 1 / len(winners)
        if winners:
            stats.winning_money += sum(game.variable("money", p) for p in winners) / len(winners)
    stats.seconds = time.perf_counter() - start
    return stats


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="games per player count and bot (default 2000)")
    parser.add_argument("--ruleset", default="ten-bucks", help="a Ten Bucks ruleset (default ten-bucks)")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4, 5, 6],
                        help="numbers of players (default 2 3 4 5 6)")
    parser.add_argument("--bots", default="random,greedy", help="bot kinds, comma separated (default random,greedy)")
    parser.add_argument("--first-seed", type=int, default=1, help="seed of the first game (default 1)")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    for kind in bots:
        try:
            make_bot(kind, 0)
        except KeyError:
            parser.error(f"unknown bot kind '{kind}'")
    rules = load_ruleset(args.ruleset)
    for n in args.players:
        if not rules.min_players <= n <= rules.max_players:
            parser.error(f"{args.ruleset} is for {rules.min_players}-{rules.max_players} players, not {n}")
    print(f"Ten Bucks statistics: {args.ruleset}, {args.games} games per player count and bot, seeds "
          f"{args.first_seed}..{args.first_seed + args.games - 1}; seat k's bot seed = 100 * seed + k")
    total = time.perf_counter()
    for n in args.players:
        for kind in bots:
            print("\n".join(play(args.ruleset, n, kind, args.games, args.first_seed).lines()), flush=True)
    print(f"total {time.perf_counter() - total:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
