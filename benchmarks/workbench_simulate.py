"""How fast `cardrules simulate` runs: Klondike with a random bot on 1 and 2 jobs, and on Ray.

    python benchmarks/workbench_simulate.py [--games N] [--ruleset klondike] [--no-ray]

Plays the same N seeded games (seeds 1..N) three or four ways: 1 job here, 2 local worker
processes, and 2 Ray workers on a local Ray started for the run (the `ray` extra), then prints
games/s for each, the speed-up of 2 jobs over 1, and the Ray backend's overhead against the
local backend with the same jobs (its extra wall time: starting Ray, shipping the batches). It
also checks that every run gave the same summary, as the seeding promises.
"""

from __future__ import annotations

import argparse

from cardrules.workbench.simulate import simulate_games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="games per run (default 1000)")
    parser.add_argument("--ruleset", default="klondike", help="ruleset (default klondike)")
    parser.add_argument("--no-ray", action="store_true", help="leave out the Ray run")
    args = parser.parse_args()
    runs = [("local", 1), ("local", 2)] + ([] if args.no_ray else [("ray", 2)])
    results = {}
    for backend, jobs in runs:
        run = simulate_games(args.ruleset, args.games, seats=["1=random"], jobs=jobs, backend=backend)
        results[(backend, jobs)] = run
        print(f"{args.ruleset}, {args.games} random games, {backend} backend, {jobs} job{'s' if jobs > 1 else ''}: "
              f"{run.seconds:6.2f} s, {args.games / run.seconds:6.1f} games/s")
    one, two = results[("local", 1)], results[("local", 2)]
    print(f"speed-up of 2 jobs over 1: {one.seconds / two.seconds:.2f}x")
    if ("ray", 2) in results:
        ray = results[("ray", 2)]
        print(f"Ray overhead against local with 2 jobs: {ray.seconds - two.seconds:+.2f} s "
              f"({ray.seconds / two.seconds:.2f}x the wall time)")
    same = all(run.summary == one.summary for run in results.values())
    print("every run gave the same summary" if same else "WARNING: the summaries differ between runs")


if __name__ == "__main__":
    main()
