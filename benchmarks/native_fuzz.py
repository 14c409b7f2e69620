"""The differential fuzzer of the native backend at length: generated expressions, native against Python.

    python benchmarks/native_fuzz.py --cases N [--seed S] [--jobs J] [--probes 150] [--minutes M] [--no-shrink]

Generates modules (tests/native_fuzzing.py: a ruleset of `--probes` generated expressions, each in
its own slot: a move's `when`, a `set` or `add`, a trigger, an end condition, the score, a `select`)
until N expressions are compared, plays each module's games through both backends step by step
(`native_fuzzing.fuzz_module`), and prints the cases (expressions generated, compared after
leaving out those the native backend does not cover, and in focus during play), the modules
compiled, games, moves, Python errors that compiled code stopped at alike, native stops at its
own bounds, and the differences by kind (a failure to load that is not a positioned error is one:
"crash at load"), each shrunk (`native_fuzzing.shrink`, a few compiles more) to a ruleset of one
expression, printed as YAML. Module i is drawn from `random.Random(f"{seed}/{i}")`, so the same
--seed gives the same modules whatever --jobs is.
Compiling a module costs some 30-60 CPU-seconds. Exit status 1 on any difference.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "tests") not in sys.path:
    sys.path.insert(0, str(ROOT / "tests"))

import native_fuzzing as nf


Found = list[tuple[nf.Difference, nf.Probe]]
MODULES_PER_WORKER = 3


def fuzz(seed: int, index: int, probes: int, folder: str) -> tuple[nf.Tally, Found, float]:
    """Module `index` of the run: its tally, its differences with their probes, its CPU time."""
    start = time.process_time()
    rng = random.Random(f"{seed}/{index}")
    items = nf.probes(rng, probes)
    run = nf.fuzz_module(Path(folder) / f"module-{index}", items, seed=index)
    found = [(d, run.module.items[d.probe]) for d in run.differences
             if d.probe is not None and d.probe < len(run.module.items)] + run.crashes
    return run.tally, found, time.process_time() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=1000, help="expressions to compare (default 1000)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--probes", type=int, default=150, help="expressions per module (default 150)")
    parser.add_argument("--minutes", type=float, default=0, help="start no module after this many minutes "
                        "(0: no limit); the summary then counts the modules played")
    parser.add_argument("--no-shrink", action="store_true", help="print differences as found, unshrunk")
    args = parser.parse_args(argv)
    total = nf.Tally()
    generated = compared = evaluated = 0
    differences: dict[str, list[tuple[nf.Difference, nf.Probe]]] = {}
    began = time.perf_counter()
    cpu = 0.0
    # A worker keeps every module it compiled (Numba holds them): a fresh one after a few modules,
    # or a long run's workers grow past 10 GB and are killed.
    workers = ProcessPoolExecutor(args.jobs, mp_context=multiprocessing.get_context("spawn"),
                                  max_tasks_per_child=MODULES_PER_WORKER)
    with tempfile.TemporaryDirectory(prefix="native-fuzz-") as folder, workers as pool:
        index = 0
        pending: list[Any] = []
        while compared < args.cases or pending:
            late = args.minutes and time.perf_counter() - began > 60 * args.minutes
            while not late and compared + len(pending) * args.probes < args.cases and len(pending) < 2 * args.jobs:
                pending.append(pool.submit(fuzz, args.seed, index, args.probes, folder))
                index += 1
            if not pending:
                break
            done = pending.pop(0)
            tally, found, seconds = done.result()
            cpu += seconds
            total.add(tally)
            generated += args.probes
            compared += tally.probes
            evaluated += len(tally.evaluated)
            for difference, item in found:
                differences.setdefault(difference.kind, []).append((difference, item))
            print(f"module {total.modules}: {tally.probes} expressions compiled, {len(tally.evaluated)} evaluated, "
                  f"{tally.games} games, {tally.moves} moves, {len(found)} differences, {seconds:.0f} CPU-s",
                  flush=True)
        print(f"\n{generated:,} expressions generated, {compared:,} compiled in both backends, {evaluated:,} evaluated "
              f"in both during play (in focus, or failing alike as they came into focus) "
              f"in {total.modules} modules: {total.games:,} games, {total.moves:,} moves, {total.errors:,} Python "
              f"errors where compiled code stopped alike; {time.perf_counter() - began:.0f} s, {cpu:.0f} CPU-s "
              f"in the workers")
        print(f"left out ({sum(total.dropped.values())}): " +
              ", ".join(f"{why} {n}" for why, n in total.dropped.most_common()))
        print("native stops at its bounds: " + (", ".join(f"{why} {n}" for why, n in total.bounds.most_common())
                                                 or "none"))
        print("games ended: " + ", ".join(f"{why} {n}" for why, n in total.ends.most_common()))
        print(f"differences: {sum(len(v) for v in differences.values())}" +
              "".join(f"\n  {kind}: {len(v)}" for kind, v in sorted(differences.items())))
        for kind, found in sorted(differences.items()):
            difference, item = found[0]
            print(f"\n== {kind} ({len(found)}): first at expression {difference.probe} ({item.slot}): {item.text}"
                  f"\n   seed {difference.seed}, {difference.players} seats, start {difference.start}: "
                  f"{difference.detail[:400]}")
            if not args.no_shrink:
                best, shown = nf.shrink(Path(folder) / f"shrink-{abs(hash(kind))}", item, kind)
                print("-- minimal reproducer:")
                print(nf.reproducer(best, shown if shown is not None or best is not item else difference))
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
