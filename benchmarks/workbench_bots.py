"""How strong the search bots are: `ismcts` against `random` and `greedy` in Ten Bucks.

    python benchmarks/workbench_bots.py [--games N] [--players 4] [--iterations 100] [--jobs 2]
                                        [--opponents random,greedy]

For each opponent kind, the ismcts bot takes each seat in turn against bots of that kind in the
other seats: N games per seat (seeds 1..N, as `cardrules simulate --seat K=ismcts:iterations=I`
plays them), so the first-seat advantage of Ten Bucks (about 29% for seat 1 of 4 between random
bots) favours no kind. Prints, per seat and pooled over the seats, the ismcts bot's win share with
its 95% Wilson interval (a shared win counts 1/k), next to the fair share 1/players.
"""

from __future__ import annotations

import argparse
import time

from cardrules.workbench.simulate import simulate_games
from intervals import wilson


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50, help="games per seat and opponent kind (default 50)")
    parser.add_argument("--players", type=int, default=4, help="players (default 4)")
    parser.add_argument("--iterations", type=int, default=100, help="ismcts iterations per decision (default 100)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--opponents", default="random,greedy", help="opponent kinds (default random,greedy)")
    parser.add_argument("--ruleset", default="ten-bucks", help="ruleset (default ten-bucks)")
    args = parser.parse_args()
    fair = 1 / args.players
    print(f"{args.ruleset}, {args.players} players: ismcts:iterations={args.iterations} in each seat in turn, "
          f"{args.games} games per seat (seeds 1-{args.games}); fair share {fair:.1%}")
    for opponent in args.opponents.split(","):
        started = time.perf_counter()
        total = 0.0
        lines = []
        for seat in range(1, args.players + 1):
            seats = [f"{s}={'ismcts:iterations=%d' % args.iterations if s == seat else opponent}"
                     for s in range(1, args.players + 1)]
            run = simulate_games(args.ruleset, args.games, args.players, seats, jobs=args.jobs)
            won = run.summary["wins"][seat - 1]["wins"]
            total += won
            low, high = wilson(won, args.games)
            lines.append(f"    ismcts in seat {seat}: {won / args.games:6.1%}  [95% CI {low:.1%} - {high:.1%}]")
        n = args.games * args.players
        low, high = wilson(total, n)
        print(f"  against {args.players - 1} x {opponent}: win share {total / n:.1%}  [95% CI {low:.1%} - {high:.1%}]"
              f"  ({total:g} of {n} games, {time.perf_counter() - started:.0f} s)")
        print("\n".join(lines))


if __name__ == "__main__":
    main()
