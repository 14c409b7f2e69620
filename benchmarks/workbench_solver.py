"""What the solver finds: thoughtful Klondike winnability, and Dollartaire's best wallet.

    python benchmarks/workbench_solver.py klondike [--deals 200] [--timeout3 60] [--timeout1 30]
                                                   [--jobs 2] [--from DIR]
    python benchmarks/workbench_solver.py dollartaire [--deals 200] [--timeout 10] [--jobs 2] [--from DIR]
    python benchmarks/workbench_solver.py exhaust RULESET --seed S [--ignore VAR,...] [--timeout 60]

`klondike` solves seeds 1..N of `klondike-draw3` and `klondike` (draw 1) with every card visible,
as `cardrules solve RULESET --sample N --thoughtful --timeout T --jobs J` does, and prints for
each: the solvable share with its 95% Wilson interval, the unsolvable and unknown counts, the
bounds on the share (every unknown deal lost / won) and the time per deal; then compares draw 3
with the published figure (Blake and Gent: 81.945% +- 0.084%), and checks the two against each
other: draw 1 can turn the same cards three at a time, so a deal solvable with draw 3 must be
solvable with draw 1, and one unsolvable with draw 1 unsolvable with draw 3.

`dollartaire` finds the best wallet of seeds 1..N (`cardrules solve dollartaire --sample N --thoughtful`:
the face-down bills are known to the search) and
plays the same deals with the greedy bot (`cardrules simulate dollartaire -n N --seat 1=greedy`),
then prints both distributions side by side: quantiles, the money brackets, a histogram, and the
gap deal by deal.

`exhaust RULESET --seed S [--ignore VAR,...]` checks one answer of the solver by brute force: a
depth-first walk of every position reachable from the deal with plain moves (no safe moves, no
proofs kept across restarts, every variable in the key but those named by `--ignore`, which
must be ones that never change what is legal: a pass counter, a score), to say whether any
reaches a win. Use it on a deal the solver called unsolvable.

With `--from DIR`, the solver's answers are read from the JSON reports that
`cardrules solve ... --sample N --json` wrote there (`klondike-draw3.json`, `klondike.json`,
`dollartaire.json`) instead of being searched again.
"""

from __future__ import annotations

import argparse
import json
import statistics
from functools import partial
from pathlib import Path
from typing import Any, Callable

from cardrules.workbench.simulate import simulate_games
from cardrules.workbench.solver import percentile, solve_sample
from intervals import wilson

REFERENCE_DRAW3 = (0.81945, 0.00084)  # Blake and Gent, thoughtful Klondike, draw 3
BRACKETS = (("Poor House", 0, 499), ("Middle Class", 500, 999), ("Upper Crust", 1000, 10 ** 9))


def sample(ruleset: str, deals: int, timeout: float, jobs: int, source: Path | None, thoughtful: bool) -> dict[str, Any]:
    if source is not None:
        report = json.loads((source / f"{ruleset}.json").read_text(encoding="utf-8"))
        if report["deals"] != deals:
            raise SystemExit(f"{source / f'{ruleset}.json'} holds {report['deals']} deals, not {deals}")
        return report
    return solve_sample(ruleset, {}, deals, thoughtful=thoughtful, timeout=timeout, jobs=jobs)


def klondike(args: argparse.Namespace) -> None:
    answers: dict[str, dict[int, str]] = {}
    for ruleset, timeout in (("klondike-draw3", args.timeout3), ("klondike", args.timeout1)):
        report = sample(ruleset, args.deals, timeout, args.jobs, args.source, thoughtful=True)
        results = report["results"]
        answers[ruleset] = {r["seed"]: r["answer"] for r in results}
        n = len(results)
        solvable = sum(1 for r in results if r["answer"] == "solvable")
        unsolvable = sum(1 for r in results if r["answer"] == "unsolvable")
        unknown = n - solvable - unsolvable
        low, high = wilson(solvable, n)
        times = [r.get("search_seconds", r["seconds"]) for r in results]  # the search, not the shortening
        print(f"{ruleset} (thoughtful), seeds 1-{n}, timeout {report['timeout']} s:")
        print(f"  solvable {solvable}/{n} = {solvable / n:.1%}  [95% CI {low:.1%} - {high:.1%}]; "
              f"unsolvable {unsolvable}; unknown {unknown}")
        print(f"  the share lies between {solvable / n:.1%} (every unknown lost) and {(solvable + unknown) / n:.1%} "
              f"(every unknown won); among the {solvable + unsolvable} deals answered, {solvable / max(1, solvable + unsolvable):.1%} are solvable")
        print(f"  search time per deal: median {statistics.median(times):.2f} s, 90th percentile {percentile(times, 0.9):.2f} s; "
              f"solutions that do not replay to a win: {report.get('not_replaying', 0)}")
        if ruleset == "klondike-draw3":
            share, error = REFERENCE_DRAW3
            inside = solvable / n <= share + error and share - error <= (solvable + unknown) / n
            print(f"  published (Blake and Gent): {share:.3%} +- {error:.3%}: "
                  + ("within our bounds" if inside else "OUTSIDE our bounds: look for a rules or solver bug"))
    three, one = answers["klondike-draw3"], answers["klondike"]
    clashes = [s for s in three if three[s] == "solvable" and one.get(s) == "unsolvable"]
    carried = [s for s in three if three[s] == "unknown" and one.get(s) == "unsolvable"]
    print(f"draw 3 solvable but draw 1 unsolvable (must never happen): {len(clashes)} {clashes if clashes else ''}")
    print(f"draw 3 unknown, settled unsolvable by draw 1's answer: {len(carried)} {carried if carried else ''}")


def _bracket_share(values: list[int], low: int, high: int) -> str:
    return f"{sum(1 for x in values if low <= x <= high) / len(values):.1%}"


def dollartaire(args: argparse.Namespace) -> None:
    report = sample("dollartaire", args.deals, args.timeout, args.jobs, args.source, thoughtful=True)
    best = {r["seed"]: r["score"] for r in report["results"] if r["score"] is not None}
    optimal = sum(1 for r in report["results"] if r["answer"] == "optimal")
    run = simulate_games("dollartaire", args.deals, seats=["1=greedy"], jobs=args.jobs, seed=1)
    greedy = {r.seed: int(r.scores[0]) for r in run.records}
    columns = (("solver (best found)", [best[s] for s in sorted(best)]), ("greedy bot", [greedy[s] for s in sorted(greedy)]))
    print(f"Dollartaire, seeds 1-{args.deals}: best wallet found by `cardrules solve` (timeout {report['timeout']} s; "
          f"{optimal} proven optimal, the rest lower bounds) and the greedy bot's wallet on the same deals")
    print(f"  {'':22}" + "".join(f"{name:>22}" for name, _ in columns))
    rows: list[tuple[str, Callable[[list[int]], str]]] = [("deals", lambda v: f"{len(v)}"), ("mean", lambda v: f"${statistics.mean(v):,.1f}"),
            ("standard deviation", lambda v: f"${statistics.pstdev(v):,.1f}"), ("min", lambda v: f"${min(v):,}"),
            ("10th percentile", lambda v: f"${percentile(v, 0.1):,.0f}"), ("quartile 1", lambda v: f"${percentile(v, 0.25):,.0f}"),
            ("median", lambda v: f"${statistics.median(v):,.0f}"), ("quartile 3", lambda v: f"${percentile(v, 0.75):,.0f}"),
            ("90th percentile", lambda v: f"${percentile(v, 0.9):,.0f}"), ("max", lambda v: f"${max(v):,}")]
    for name, low, high in BRACKETS:
        rows.append((name, partial(_bracket_share, low=low, high=high)))
    for label, cell in rows:
        print(f"  {label:22}" + "".join(f"{cell(v):>22}" for _, v in columns))
    print("  histogram ($200 buckets): solver | greedy")
    for start in range(0, 1600, 200):
        counts = [sum(1 for x in v if start <= x < start + 200) for _, v in columns]
        print(f"    ${start:>5,}-{start + 199:<5,} {counts[0]:4} {'#' * (counts[0] // 2):<50} | {counts[1]:4} {'#' * (counts[1] // 2)}")
    gaps = [best[s] - greedy[s] for s in best if s in greedy]
    print(f"  solver minus greedy, deal by deal: mean ${statistics.mean(gaps):,.1f}, median ${statistics.median(gaps):,.0f}, "
          f"solver below greedy on {sum(1 for g in gaps if g < 0)} deals")


def exhaust(args: argparse.Namespace) -> None:
    from cardrules import load_ruleset
    from cardrules.workbench.solver import solve
    import time

    rules = load_ruleset(args.ruleset)
    ignored = {rules.variables[name].slot for name in args.ignore.split(",") if name} if args.ignore else set()
    kept = [i for i in range(rules.var_count) if i not in ignored]
    game = rules.new_game(seed=args.seed, max_moves=10 ** 12)
    state = game.state

    def key() -> Any:
        return (b"\xff".join(map(bytes, state.piles)), bytes(state.up), tuple(state.vars[i] for i in kept),
                state.current, state.phase)

    started = time.perf_counter()
    seen = {key()}
    stack = [list(game.legal_moves())]
    won = False
    while stack and not won:
        if not stack[-1]:
            stack.pop()
            if stack:
                game.undo()
            continue
        game.apply(stack[-1].pop())
        if game.is_over:
            won = game.outcome == "won"
            game.undo()
            continue
        here = key()
        if here in seen:
            game.undo()
            continue
        seen.add(here)
        if len(seen) > args.max_positions:
            raise SystemExit(f"more than {args.max_positions:,} positions: no answer")
        stack.append(list(game.legal_moves()))
    walked = time.perf_counter() - started
    answer = solve(rules, seed=args.seed, thoughtful=True, timeout=args.timeout).answer
    print(f"{args.ruleset} seed {args.seed}: {len(seen):,} positions walked in {walked:.0f} s; "
          f"a win is {'reachable' if won else 'not reachable'}. The solver says: {answer}. "
          + ("They agree." if (answer == "solvable") == won and answer != "unknown" else "They DISAGREE."
             if answer != "unknown" else ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", choices=("klondike", "dollartaire", "exhaust"))
    parser.add_argument("ruleset", nargs="?", help="exhaust: the ruleset")
    parser.add_argument("--seed", type=int, help="exhaust: the deal")
    parser.add_argument("--ignore", default="", help="exhaust: variables left out of the key (comma-separated)")
    parser.add_argument("--max-positions", type=int, default=20_000_000, help="exhaust: give up past this many")
    parser.add_argument("--deals", type=int, default=200, help="seeds 1..N (default 200)")
    parser.add_argument("--timeout3", type=float, default=60.0, help="seconds per draw-3 deal (default 60)")
    parser.add_argument("--timeout1", type=float, default=30.0, help="seconds per draw-1 deal (default 30)")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds per Dollartaire deal (default 10)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--from", dest="source", type=Path, help="read the solver's JSON reports from this folder")
    args = parser.parse_args()
    {"klondike": klondike, "dollartaire": dollartaire, "exhaust": exhaust}[args.game](args)


if __name__ == "__main__":
    main()
