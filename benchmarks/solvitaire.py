"""The solver against Solvitaire (issue 32, goal 6): thoughtful Klondike draw 3, the same deals.

    python benchmarks/solvitaire.py --solvitaire PATH [--seeds 50] [--timeout 20] [--engine native]
    python benchmarks/solvitaire.py --build SOURCE_DIR [--out PATH]

Solvitaire (Blake and Gent's solver, github.com/thecharlesblake/Solvitaire, GPL) is an optional
benchmark dependency, built from its public source: `--build` compiles a checkout with g++ and
Boost (`apt-get install g++ libboost-program-options-dev libboost-log-dev`; its CMake file also
fetches GoogleTest, which the solver itself does not need) and prints where the binary is.

Each seed's deal is dealt by cardrules (`klondike` with `draw=3`) and handed to Solvitaire as
its JSON deal (the tableau bottom card first, a face-down card with its suit in lower case, the
stock as cardrules lays it) and solved by both, one deal at a time:
- cardrules: `solve(..., thoughtful=True, timeout=T, clock="cpu")`, in this process, the native
  search by default (compiled first, outside the clock), its search's CPU seconds;
- Solvitaire: `solvitaire --type klondike --classify --timeout T` (its rules for Klondike: draw 3,
  redeals without end, kings to spaces, as cardrules'; its timeout counts wall time, so on a busy
  machine it gets less CPU than cardrules), its CPU seconds as the operating system counts them.

Prints each deal's answers, positions (cardrules) and states (Solvitaire) and CPU seconds, any
deal the two answer differently (solvable against unsolvable: one of them is wrong), then the
goal's figures: deals decided by each (goal: cardrules at least 49 of 50) and the summed CPU on
the deals both decide, solvable and unsolvable apart, as a ratio (goal: at most 2x Solvitaire's).
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

SOLVED, UNSOLVABLE, UNKNOWN = "solvable", "unsolvable", "unknown"
ANSWERS = {"solved": SOLVED, "unsolvable": UNSOLVABLE}  # Solvitaire's words; anything else is unknown


def build(source: Path, out: Path) -> Path:
    """Compile Solvitaire's solver from a checkout of its source (the sources CMake builds it from)."""
    sources = sorted(str(p) for p in (source / "src" / "main").rglob("*.cpp"))
    if not sources:
        raise SystemExit(f"{source}: no src/main/**/*.cpp (a checkout of Solvitaire?)")
    subprocess.run(["g++", "-std=c++14", "-O3", "-DNDEBUG", "-DBOOST_LOG_DYN_LINK", f"-I{source / 'lib' / 'rapidjson'}",
                    "-o", str(out), *sources, "-lboost_program_options", "-lboost_log", "-lboost_system", "-pthread"],
                   check=True)
    return out


def solvitaire_deal(game: Any) -> dict[str, list[Any]]:
    """A Klondike deal of cardrules as Solvitaire reads one."""
    rules, state = game.rules, game.state

    def card(c: int, up: bool) -> str:
        text = rules.deck.codes[c].replace("T", "10")
        return text if up else text[:-1] + text[-1].lower()
    pile = rules.pile_names.index
    return {"tableau piles": [[card(c, bool(state.up[c])) for c in state.piles[pile(f"t{i}")]] for i in range(1, 8)],
            "stock": [card(c, True) for c in state.piles[pile("s")]]}


def cpu_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_solvitaire(binary: str, deal: dict[str, Any], timeout: float, folder: Path) -> tuple[str, int, float]:
    """Solvitaire's answer for a deal, the states it searched and its CPU seconds."""
    path = folder / "deal.json"
    path.write_text(json.dumps(deal))
    before = cpu_children()
    try:
        done = subprocess.run([binary, "--type", "klondike", "--classify", "--timeout", str(int(timeout * 1000)),
                               str(path)], capture_output=True, text=True, timeout=timeout * 10 + 60)
    except subprocess.TimeoutExpired:  # (its own timeout counts wall time: a process stopped a while overruns)
        return UNKNOWN, 0, cpu_children() - before
    seconds = cpu_children() - before
    fields = [f.strip() for f in done.stdout.strip().split(",")]
    if len(fields) < 4:
        raise SystemExit(f"Solvitaire said: {done.stdout!r} {done.stderr[-300:]!r}")
    return ANSWERS.get(fields[1], UNKNOWN), int(fields[3]), seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--solvitaire", help="the Solvitaire binary")
    parser.add_argument("--build", type=Path, metavar="SOURCE_DIR", help="compile Solvitaire from this checkout")
    parser.add_argument("--out", type=Path, default=Path("solvitaire"), help="where --build writes the binary")
    parser.add_argument("--seeds", type=int, default=50, help="seeds 1..N (default 50)")
    parser.add_argument("--timeout", type=float, default=20.0, help="seconds a deal, each solver (default 20)")
    parser.add_argument("--engine", default="native", choices=("native", "python"), help="cardrules' search")
    args = parser.parse_args()
    if args.build is not None:
        print(f"built {build(args.build, args.out)}")
        return 0
    if not args.solvitaire:
        parser.error("give --solvitaire PATH (or --build a checkout of Solvitaire first)")

    import cardrules
    from cardrules.workbench.solver import solve

    rules = cardrules.load_ruleset("klondike", {"draw": "3"})
    solve(rules, seed=1, thoughtful=True, timeout=0.5, clock="cpu", engine=args.engine)  # compiled here, not timed
    rows = []
    print(f"thoughtful Klondike draw 3, seeds 1-{args.seeds}, at most {args.timeout:g} s a deal each\n")
    print(f"{'seed':>4}  {'cardrules':>10} {'positions':>10} {'CPU-s':>6}   {'Solvitaire':>10} {'states':>10} {'CPU-s':>6}")
    with tempfile.TemporaryDirectory() as folder:
        for seed in range(1, args.seeds + 1):
            started = time.process_time()
            ours = solve(rules, seed=seed, thoughtful=True, timeout=args.timeout, clock="cpu", engine=args.engine,
                         shorten_timeout=0)
            our_cpu = time.process_time() - started
            theirs, states, their_cpu = run_solvitaire(args.solvitaire, solvitaire_deal(rules.new_game(seed=seed)),
                                                       args.timeout, Path(folder))
            clash = {ours.answer, theirs} == {SOLVED, UNSOLVABLE}
            rows.append((seed, ours.answer, our_cpu, theirs, their_cpu))
            print(f"{seed:4}  {ours.answer:>10} {ours.nodes:10,} {our_cpu:6.2f}   {theirs:>10} {states:10,} {their_cpu:6.2f}"
                  + ("   DIFFERENT ANSWERS" if clash else ""), flush=True)
    decided = sum(1 for r in rows if r[1] != UNKNOWN)
    their_decided = sum(1 for r in rows if r[3] != UNKNOWN)
    clashes = [r[0] for r in rows if {r[1], r[3]} == {SOLVED, UNSOLVABLE}]
    print(f"\ndecided: cardrules {decided} of {len(rows)}, Solvitaire {their_decided} "
          f"(goal: cardrules at least {len(rows) - 1}: {'met' if decided >= len(rows) - 1 else 'NOT met'})")
    print(f"different answers: {len(clashes)}" + (f" (seeds {', '.join(map(str, clashes))})" if clashes else ""))
    for answer in (SOLVED, UNSOLVABLE):
        both = [r for r in rows if r[1] == answer and r[3] == answer]
        ours_cpu, theirs_cpu = sum(r[2] for r in both), sum(r[4] for r in both)
        if not both or not theirs_cpu:
            print(f"{answer} by both: {len(both)} deals")
            continue
        ratio = ours_cpu / theirs_cpu
        print(f"{answer} by both: {len(both)} deals, CPU cardrules {ours_cpu:.2f} s, Solvitaire {theirs_cpu:.2f} s: "
              f"{ratio:.1f}x (goal at most 2x: {'met' if ratio <= 2 else 'NOT met'})")
    return 1 if clashes else 0


if __name__ == "__main__":
    sys.exit(main())
