"""Check a ruleset's `safe:` claims over many deals: the solver's answers with and without them.

    python benchmarks/solver_safe.py [RULESET ...] [--deals 200] [--first-seed 1] [--timeout 10]
                                     [--clock cpu] [--jobs 2] [-o NAME=VALUE ...] [--json FILE]

For each ruleset (default: klondike and klondike-draw3), solves seeds first..first+N-1 with every
card visible (`--thoughtful`) twice, as `cardrules solve RULESET --sample N --thoughtful
--clock cpu --timeout T --shorten-timeout 0` does, once trusting the ruleset's `safe:` claims
and once with `--no-safe`, and prints how many deals got each pair of answers, then every
disagreement: a deal one search calls solvable and the other unsolvable. An unknown on either
side is no disagreement. A disagreement means a `safe:` claim is wrong (or a solver bug): the
solvable side's moves replay to a win (checked, `not_replaying` counts those that do not), so
the unsolvable side is the wrong one. Exits 1 if there is any disagreement.

The budget per search is CPU time by default (`--clock cpu`): on a loaded machine every deal
gets the same work. Solutions are not shortened (only the verdict matters). `-o NAME=VALUE`
sets a ruleset option (for every ruleset); `--json FILE` saves both samples' per-deal results.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from cardrules.workbench.solver import SOLVABLE, UNKNOWN, UNSOLVABLE, solve_sample

ANSWERS = (SOLVABLE, UNSOLVABLE, UNKNOWN)


def run(ruleset: str, deals: int, first: int, timeout: float, clock: str, jobs: int,
        options: dict[str, str] | None = None) -> dict[str, Any]:
    """Both samples of one ruleset, and their comparison."""
    samples = {}
    for use_safe in (True, False):
        done = 0

        def progress(result: dict[str, Any]) -> None:
            nonlocal done
            done += 1
            if sys.stderr.isatty():
                print(f"\r{ruleset}, {'with' if use_safe else 'without'} safe moves: {done}/{deals}",
                      end="", file=sys.stderr, flush=True)

        started = time.perf_counter()
        samples[use_safe] = solve_sample(ruleset, dict(options or {}), deals, thoughtful=True, timeout=timeout, jobs=jobs,
                                         first_seed=first, progress=progress, use_safe=use_safe, clock=clock,
                                         shorten_timeout=0)
        samples[use_safe]["bench_wall_seconds"] = time.perf_counter() - started
        if sys.stderr.isatty():
            print("\r" + " " * 60 + "\r", end="", file=sys.stderr, flush=True)
    trusting = {r["seed"]: r for r in samples[True]["results"]}
    checking = {r["seed"]: r for r in samples[False]["results"]}
    pairs = {(a, b): 0 for a in ANSWERS for b in ANSWERS}
    disagreements = []
    for seed in sorted(trusting):
        a, b = trusting[seed]["answer"], checking[seed]["answer"]
        pairs[(a, b)] += 1
        if {a, b} == {SOLVABLE, UNSOLVABLE}:
            disagreements.append({"seed": seed, "with_safe": a, "without_safe": b,
                                  "nodes": [trusting[seed]["nodes"], checking[seed]["nodes"]]})
    return {"ruleset": ruleset, "options": samples[True]["options"], "chosen": dict(options or {}), "deals": deals, "seeds": [first, first + deals - 1], "timeout": timeout,
            "clock": clock, "jobs": jobs, "pairs": {f"{a}/{b}": n for (a, b), n in pairs.items() if n},
            "disagreements": disagreements, "with_safe": samples[True], "without_safe": samples[False]}


def _text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def report(result: dict[str, Any]) -> None:
    first, last = result["seeds"]
    unit = " CPU" if result["clock"] == "cpu" else ""
    options = "".join(f" {k}={_text(v)}" for k, v in result["options"].items())
    chosen = "".join(f" -o {k}={v}" for k, v in result["chosen"].items())
    print(f"{result['ruleset']}{options} (thoughtful), seeds {first}-{last}, {result['timeout']:g} s{unit} per search, "
          f"{result['jobs']} job{'s' if result['jobs'] > 1 else ''}")
    corner = "with safe \\ without"
    print(f"  {corner:22}" + "".join(f"{b:>12}" for b in ANSWERS))
    for a in ANSWERS:
        print(f"  {a:22}" + "".join(f"{result['pairs'].get(f'{a}/{b}', 0):>12}" for b in ANSWERS))
    definite = sum(n for key, n in result["pairs"].items() if UNKNOWN not in key.split("/"))
    agreeing = definite - len(result["disagreements"])
    print(f"  definite both ways: {definite}, agreeing {agreeing}, disagreeing {len(result['disagreements'])}")
    for side, label in (("with_safe", "with safe"), ("without_safe", "without")):
        sample = result[side]
        print(f"  {label:10} solvable {sample['answers'].get(SOLVABLE, 0)}, unsolvable "
              f"{sample['answers'].get(UNSOLVABLE, 0)}, unknown {sample['unknown']}; search{unit} median "
              f"{sample['median_search_seconds']:.2f} s, 90th percentile {sample['p90_seconds']:.2f} s; "
              f"wall {sample['bench_wall_seconds']:.0f} s"
              + (f"; {sample['not_replaying']} solutions do not replay to a win" if sample["not_replaying"] else ""))
    for clash in result["disagreements"]:
        print(f"  DISAGREEMENT seed {clash['seed']}: with safe moves {clash['with_safe']}, without "
              f"{clash['without_safe']} (positions {clash['nodes'][0]:,} / {clash['nodes'][1]:,}); check: "
              f"cardrules solve {result['ruleset']} --seed {clash['seed']}{chosen} --thoughtful --no-safe")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rulesets", nargs="*", default=["klondike", "klondike-draw3"],
                        help="rulesets (default: klondike klondike-draw3)")
    parser.add_argument("--deals", type=int, default=200, help="deals per ruleset (default 200)")
    parser.add_argument("--first-seed", type=int, default=1, help="the first seed (default 1)")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds per search (default 10)")
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                        help="what --timeout counts (default cpu: each worker's CPU time)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("-o", "--option", action="append", default=[], metavar="NAME=VALUE",
                        help="set a ruleset option (repeatable)")
    parser.add_argument("--json", type=Path, help="save the results to this file")
    args = parser.parse_args()
    options = dict(item.split("=", 1) for item in args.option)
    results = []
    for ruleset in args.rulesets:
        result = run(ruleset, args.deals, args.first_seed, args.timeout, args.clock, args.jobs, options)
        report(result)
        results.append(result)
    if args.json is not None:
        args.json.write_text(json.dumps(results, indent=2), encoding="utf-8")
    return 1 if any(r["disagreements"] for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
