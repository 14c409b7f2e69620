"""Statistics: how Nerts goes between bots, seat by seat, at equal speeds and with one fast seat.

    python benchmarks/nerts_stats.py [--games N] [--players P] [--bots random,greedy]
                                     [--fast F] [--ruleset NAME] [--first-seed S] [--max-moves M]

Nerts has no turns: every seat plays at once, and the scheduler (``cardrules.agents.scheduler``) orders
the seats' actions on a simulated clock. For each bot kind, plays N hands (seeds S..S+N-1,
default 1..N) in which every seat is played by a bot of that kind (``cardrules.agents.bots.make_bot``;
seat k's bot, k = 0, 1, ..., has the seed ``100 * seed + k``; the scheduler gets the game's
seed), twice: (a) every seat at 1 action per second, (b) seat 1 ``--fast`` times faster (the
others at 1). The same seeds are used for both, so the two are paired; the numbers are the same
on every run. It prints per bot kind and speed setting:

- each seat's share of the wins (a win shared by k seats counts 1/k to each; a hand stopped at
  the move limit has no winner) with its 95% Wilson confidence interval (the share of N hands),
  and how often each seat called Nerts (emptied its pile of 13);
- the mean hand length in actions (landed moves) and in simulated seconds;
- the refused share: the actions that no longer were legal when they landed (another seat got
  to the foundation first), out of all the actions tried;
- how the hands ended: a seat called Nerts, the move limit, or any other end.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from dataclasses import dataclass, field

from cardrules import load_ruleset
from cardrules.agents.bots import make_bot
from cardrules.agents.scheduler import simulate
from intervals import seat_share_lines

NERTS = "a seat emptied its pile of 13 and called Nerts"


@dataclass
class Stats:
    bot: str
    setting: str
    players: int
    games: int = 0
    wins: list[float] = field(default_factory=list)
    calls: list[int] = field(default_factory=list)
    landed: int = 0
    tried: int = 0
    refused: int = 0
    sim_seconds: float = 0.0
    ends: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0

    def lines(self) -> list[str]:
        n = self.games
        out = [f"{self.bot} bots, {self.setting}: {n} hands in {self.seconds:.1f} s"]
        out += seat_share_lines(self.wins, n, [f"called Nerts {calls}" for calls in self.calls])
        no_winner = n - sum(self.wins)
        out.append(f"  expected share with no seat advantage: {(n - no_winner) / n / self.players:.1%}"
                   f" (hands with a winner / {self.players})")
        out.append(f"  mean hand length: {self.landed / n:.1f} actions (landed moves),"
                   f" {self.sim_seconds / n:.1f} simulated seconds")
        out.append(f"  refused: {self.refused} of {self.tried} actions tried ({self.refused / max(1, self.tried):.2%})")
        ends = ", ".join(f"{reason} {count} ({count / n:.1%})"
                         for reason, count in sorted(self.ends.items(), key=lambda kv: -kv[1]))
        out.append(f"  ended: {ends}")
        return out


def play(rules: object, players: int, bot_kind: str, setting: str, speeds: dict[int, float], games: int,
         first_seed: int, max_moves: int | None) -> Stats:
    stats = Stats(bot_kind, setting, players, wins=[0.0] * players, calls=[0] * players)
    start = time.perf_counter()
    for seed in range(first_seed, first_seed + games):
        game = rules.new_game(seed=seed, players=players, max_moves=max_moves)  # type: ignore[attr-defined]
        bots = {seat: make_bot(bot_kind, 100 * seed + seat) for seat in range(players)}
        scheduler = simulate(game, bots, seed=seed, speeds=speeds)
        stats.games += 1
        stats.landed += len(game.history)
        stats.tried += len(scheduler.records)
        stats.refused += scheduler.refused
        stats.sim_seconds += scheduler.now
        if game.outcome == "limit":
            stats.ends["move limit"] += 1
        elif game.reason == NERTS:
            stats.ends["Nerts"] += 1
        else:
            stats.ends[game.reason or str(game.outcome)] += 1
        winners = game.winners() or []
        for seat in winners:
            stats.wins[seat] += 1 / len(winners)
        for seat in range(players):
            if not game.state.piles[game.rules.zones["nerts"].piles[seat]]:
                stats.calls[seat] += 1
    stats.seconds = time.perf_counter() - start
    return stats


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="hands per bot kind and speed setting (default 1000)")
    parser.add_argument("--players", type=int, default=2, help="number of players (default 2)")
    parser.add_argument("--bots", default="random,greedy", help="bot kinds, comma separated (default random,greedy)")
    parser.add_argument("--fast", type=float, default=1.5,
                        help="how many times faster seat 1 is in the second setting (default 1.5)")
    parser.add_argument("--ruleset", default="nerts", help="a Nerts ruleset (default nerts)")
    parser.add_argument("--first-seed", type=int, default=1, help="seed of the first hand (default 1)")
    parser.add_argument("--max-moves", type=int, default=None,
                        help="stop a hand after this many landed moves (default: the ruleset's limit)")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    if not args.fast > 0:
        parser.error("--fast must be above 0")
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    for kind in bots:
        try:
            make_bot(kind, 0)
        except KeyError:
            parser.error(f"unknown bot kind '{kind}'")
    rules = load_ruleset(args.ruleset)
    if not rules.min_players <= args.players <= rules.max_players:
        parser.error(f"{args.ruleset} is for {rules.min_players}-{rules.max_players} players, not {args.players}")
    max_moves = args.max_moves if args.max_moves is not None else rules.max_moves
    print(f"Nerts statistics: {args.ruleset}, {args.players} players, {args.games} hands per bot kind and speed"
          f" setting, seeds {args.first_seed}..{args.first_seed + args.games - 1}; seat k's bot seed ="
          f" 100 * seed + k; move limit {max_moves}; simulated time")
    settings = [("equal speeds (1 action/s each)", {}),
                (f"seat 1 {args.fast:g}x faster ({args.fast:g} actions/s, the others 1)", {0: args.fast})]
    total = time.perf_counter()
    for kind in bots:
        for name, speeds in settings:
            stats = play(rules, args.players, kind, name, speeds, args.games, args.first_seed, max_moves)
            print("\n".join(stats.lines()), flush=True)
    print(f"total {time.perf_counter() - total:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
