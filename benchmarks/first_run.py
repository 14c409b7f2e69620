"""The first native run of a ruleset (issue 32, goal 2): CPU seconds of `cardrules simulate`
with the native engine, from empty caches, against the same command once everything is cached.

    python benchmarks/first_run.py [--games 200] [--bot greedy] [--rulesets klondike spades ten-bucks canfield]

For each ruleset, three runs of `cardrules simulate RULESET -n GAMES --engine native` with every
seat the bot `--bot` (greedy by default, as goal 2 counts; `default` leaves the seats to
`simulate`, which makes them mcts bots), each a new process, timed as a person runs it
(`resource.getrusage(RUSAGE_CHILDREN)` around it: user and system CPU):

- **new install**: an empty cardrules cache and an empty Numba cache (`NUMBA_CACHE_DIR`), so the
  helpers every ruleset shares (native/runtime.py) compile too, once per installation;
- **new ruleset**: the shared helpers compiled, the ruleset's own module not (its first use, or
  the first use after an edit);
- **warm**: everything cached.

Goal 2: "new ruleset" at most 3 CPU-s more than "warm" (the extra is printed), and a warm load at
most 0.3 s (`benchmarks/startup.py` times loads). The Python engine's time for the same games is
printed beside, for "when does native pay". A ruleset's first native use compiles its module
(docs/native.md, "The cache, and what compiling costs", says where that time goes).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path


def cpu_of(args: list[str], env: dict[str, str]) -> float:
    """The CPU seconds (user + system) of one process running `args`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(args, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--bot", default="greedy", help="every seat's bot (random, greedy, mcts), or default")
    parser.add_argument("--rulesets", nargs="+", default=["klondike", "spades", "ten-bucks", "canfield"])
    args = parser.parse_args()
    from cardrules import load_ruleset
    command = [sys.executable, "-c", "from cardrules.app.cli import main; main()", "simulate"]
    print(f"cardrules simulate RULESET -n {args.games} --engine native, seats: {args.bot}; CPU seconds of the "
          f"whole process")
    print(f"{'ruleset':<12} {'new install':>12} {'new ruleset':>12} {'warm':>8} {'extra':>8} {'python':>8}  goal 2")
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        for name in args.rulesets:
            seats = [] if args.bot == "default" else \
                [f"--seat={seat}={args.bot}" for seat in range(1, load_ruleset(name).default_players + 1)]
            run = [*command, name, "-n", str(args.games), *seats, "--engine"]
            cache, numba = root / f"{name}-cache", root / f"{name}-numba"
            env = {**os.environ, "CARDRULES_CACHE": str(cache), "NUMBA_CACHE_DIR": str(numba)}
            install = cpu_of([*run, "native"], env)
            shutil.rmtree(cache)  # the ruleset's module (the shared helpers' machine code stays in `numba`)
            for path in numba.rglob("cardrules_native_*"):
                path.unlink()
            new = cpu_of([*run, "native"], env)
            warm = cpu_of([*run, "native"], env)
            python = cpu_of([*run, "python"], env)
            extra = new - warm
            print(f"{name:<12} {install:12.1f} {new:12.1f} {warm:8.1f} {extra:8.1f} {python:8.1f}  "
                  f"{'met' if extra <= 3 else 'not met'}")


if __name__ == "__main__":
    main()
