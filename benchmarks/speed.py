"""Issue 13's scoreboard: the speed of cardrules against a hand-written engine, side by side.

    python benchmarks/speed.py [--games 200] [--greedy-games 40] [--quick] [--only PART] [--baseline REV | none]

Everything is measured in this one process (or its child processes, for commands), in CPU
seconds, so the ratios hold on a shared machine:

- random Klondike playouts, actions per CPU-second: OpenSpiel's `solitaire` (hand-written
  C++, its own random-bot loop, and driven action by action from Python; skipped with a message
  without the `open_spiel` package), the hand-written Python reference
  (benchmarks/reference_klondike.py), and cardrules' Python and native backends on `klondike`;
- games per second of `cardrules simulate klondike -n 2000` on 1 and 2 jobs (both engines);
- greedy Klondike games per CPU-second: the Python `GreedyBot` against native greedy playouts
  (the same games, checked move count and score);
- the solver's positions per CPU-second, against today's Python search and against the search
  as it was when the goal was set (`--baseline REV`, default the commit issue 13 measured: the
  package of that commit, taken from git into a temporary folder, is imported in this process
  under another name and searches the same deals);
- start-up: `cardrules --help`, `cardrules validate klondike`, loads (benchmarks/startup.py's).

Each figure is printed beside its goal.
"""

from __future__ import annotations

import argparse
import importlib
import random
import resource
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from reference_klondike import play_random


def cpu_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_command(*args: str) -> float:
    """CPU seconds a command takes (itself and its children)."""
    before = cpu_children()
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return cpu_children() - before


def openspiel(games: int) -> tuple[float | None, float | None]:
    """Actions per CPU-second of OpenSpiel's solitaire: its C++ random-bot loop, and a Python loop."""
    try:
        import pyspiel
    except ImportError:
        print("  OpenSpiel: not installed (pip install open_spiel) - skipped")
        return None, None
    game = pyspiel.load_game("solitaire")
    actions, start = 0, time.process_time()
    for seed in range(games):
        state = game.new_initial_state()
        pyspiel.evaluate_bots(state, [pyspiel.make_uniform_random_bot(0, seed)], seed)
        actions += len(state.history())
    cpp = actions / (time.process_time() - start)
    actions, start = 0, time.process_time()
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            actions += 1
    return cpp, actions / (time.process_time() - start)


def reference(games: int) -> float:
    moves, start = 0, time.process_time()
    for seed in range(games):
        moves += play_random(seed, 1, "standard")[0]
    return moves / (time.process_time() - start)


def python_backend(games: int) -> float:
    from cardrules import load_ruleset

    rules = load_ruleset("klondike")
    moves, start = 0, time.process_time()
    for seed in range(games):
        game = rules.new_game(seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            game.apply(rng.choice(game.legal_moves()))
        moves += len(game.history)
    return moves / (time.process_time() - start)


def native_backend(games: int) -> tuple[float | None, float]:
    """Actions per CPU-second (dealing each game in Python included), and the CPU seconds of the
    first use (generating the module and compiling or loading it, and a first playout)."""
    from cardrules import load_ruleset
    from cardrules.native import Unsupported
    from cardrules.native import native_backend as backend_of

    rules = load_ruleset("klondike")
    start = time.process_time()
    try:
        native = backend_of(rules)
        native.playout(native.start(rules.new_game(seed=0)), 0)
    except Unsupported as exc:
        print(f"  native backend: {exc}")
        return None, 0.0
    first = time.process_time() - start
    moves, start = 0, time.process_time()
    for seed in range(games * 10):
        position = native.start(rules.new_game(seed=seed))
        native.playout(position, seed)
        moves += position.moves
    return moves / (time.process_time() - start), first


def simulate(games: int, jobs: int, engine: str) -> float:
    """Games per wall-clock second (what jobs buy is time, not CPU), after a first run of a few
    games in this process (so that the native module is compiled, or loaded from the cache,
    before the clock starts: each worker process still loads it)."""
    from cardrules.simulate import simulate_games

    simulate_games("klondike", 10, jobs=1, engine=engine)
    start = time.perf_counter()
    run = simulate_games("klondike", games, jobs=jobs, engine=engine)
    return len(run.records) / (time.perf_counter() - start)


# The commit whose solver issue 13 measured ("6,600-10,500 positions per CPU-second").
BASELINE = "0f2207d"


def solver(seeds: range, engine: str) -> tuple[float, int]:
    """Positions per CPU-second of the search (5 CPU-seconds a deal at most), and deals decided."""
    from cardrules import load_ruleset
    from cardrules.solver import UNKNOWN, solve

    rules = load_ruleset("klondike", {"draw": 3})
    nodes, seconds, decided = 0, 0.0, 0
    for seed in seeds:
        result = solve(rules, seed=seed, thoughtful=True, timeout=5, clock="cpu", engine=engine, shorten_timeout=0)
        nodes += result.nodes
        seconds += result.search_seconds
        decided += result.answer != UNKNOWN
    return nodes / seconds, decided


def baseline_solver(seeds: range, revision: str, folder: Path) -> tuple[float, int] | None:
    """The same as `solver`, with the package as it was at `revision` (git archive of its
    interpreter/, grammar/ and rulesets/, imported here as `cardrules_baseline`). That search
    had a wall-clock timeout only: each deal gets 5 s of it, and its CPU time is measured here."""
    root = HERE.parent
    archive = folder / "baseline.tar"
    made = subprocess.run(["git", "-C", str(root), "archive", "-o", str(archive), revision,
                           "interpreter", "grammar", "rulesets"], capture_output=True, text=True, check=False)
    if made.returncode:
        print(f"  baseline search: not run (git archive {revision}: {made.stderr.strip()})")
        return None
    with tarfile.open(archive) as tar:
        tar.extractall(folder, filter="data")
    (folder / "interpreter").rename(folder / "cardrules_baseline")
    sys.path.insert(0, str(folder))
    try:
        package = importlib.import_module("cardrules_baseline")
        old_solver = importlib.import_module("cardrules_baseline.solver")
    finally:
        sys.path.remove(str(folder))
    rules = package.load_ruleset("klondike", {"draw": 3})
    nodes, seconds, decided = 0, 0.0, 0
    for seed in seeds:
        started = time.process_time()
        result = old_solver.solve(rules, seed=seed, thoughtful=True, timeout=5)
        seconds += time.process_time() - started
        nodes += result.nodes
        decided += result.answer != old_solver.UNKNOWN
    return nodes / seconds, decided


def playouts(games: int) -> None:
    print(f"Random Klondike playouts, {games} games each (native: {games * 10}), actions per CPU-second:")
    cpp, driven = openspiel(games * 5)
    ref = reference(games)
    py = python_backend(games)
    nat, first = native_backend(games)
    rows = [("OpenSpiel solitaire, C++ loop", cpp), ("OpenSpiel solitaire, Python loop", driven),
            ("hand-written Python reference", ref), ("cardrules Python backend", py), ("cardrules native backend", nat)]
    for name, rate in rows:
        ratio = f"{rate / cpp:6.2f}x OpenSpiel C++" if rate and cpp else ""
        print(f"  {name:<34} {rate:>12,.0f}  {ratio}" if rate else f"  {name:<34} {'-':>12}")
    print(f"  goal: native >= 1.0x OpenSpiel C++: {nat / cpp:.2f}x" if nat and cpp else "  (no OpenSpiel to compare)")
    print(f"  goal: Python backend <= 1.5x the reference's time per move: {ref / py:.2f}x")
    print(f"  native backend, first use in this process: {first:.2f} s CPU (compiling, or loading the cache)")


def greedy(games: int) -> None:
    """Greedy Klondike games per CPU-second, dealing each game in Python included: the Python
    engine (`bots.GreedyBot` at the seat, as `simulate` plays) and native greedy playouts (ten
    times the games), which must end the first `games` games as Python does."""
    from cardrules import load_ruleset
    from cardrules.bots import GreedyBot
    from cardrules.native import Unsupported
    from cardrules.native import native_backend as backend_of

    rules = load_ruleset("klondike")
    print(f"Greedy Klondike games, {games} games (native: {games * 10}), per CPU-second:")
    ends, moves, start = [], 0, time.process_time()
    for seed in range(games):
        game = rules.new_game(seed=seed)
        bot = GreedyBot(seed)
        while not game.is_over:
            game.apply(bot.choose(game))
        ends.append((len(game.history), game.scores()[0]))
        moves += len(game.history)
    seconds = time.process_time() - start
    python = games / seconds
    print(f"  Python engine  {python:>10,.1f} games  {moves / seconds:>10,.0f} moves")
    try:
        native = backend_of(rules)
        native.playout(native.start(rules.new_game(seed=0)), 0, "greedy")  # compiled (or loaded) before the clock
    except Unsupported as exc:
        print(f"  native backend: {exc}")
        return
    moves, start = 0, time.process_time()
    for seed in range(games * 10):
        position = native.start(rules.new_game(seed=seed))
        score = native.playout(position, seed, "greedy")[0]
        if seed < games and (position.moves, score) != ends[seed]:
            raise SystemExit(f"native greedy game {seed} ended otherwise: {(position.moves, score)} against {ends[seed]}")
        moves += position.moves
    seconds = time.process_time() - start
    print(f"  native engine  {games * 10 / seconds:>10,.1f} games  {moves / seconds:>10,.0f} moves: "
          f"{games * 10 / seconds / python:.1f}x the Python engine's games")


def simulate_scaling() -> None:
    print("simulate klondike -n 2000, games per second:")
    one, two = simulate(2000, 1, "python"), simulate(2000, 2, "python")
    print(f"  Python engine: 1 job {one:.1f}, 2 jobs {two:.1f}: {two / one:.2f}x (goal >= 1.8x)")
    one, two = simulate(2000, 1, "native"), simulate(2000, 2, "native")
    print(f"  native engine: 1 job {one:.1f}, 2 jobs {two:.1f}: {two / one:.2f}x")


def solvers(baseline: str) -> None:
    print("solver, thoughtful Klondike draw 3, seeds 1-5, at most 5 CPU-seconds a deal:")
    python, decided = solver(range(1, 6), "python")
    print(f"  Python search: {python:,.0f} positions per CPU-second, {decided} of 5 decided")
    then = None
    if baseline != "none":
        with tempfile.TemporaryDirectory() as folder:
            then = baseline_solver(range(1, 6), baseline, Path(folder))
        if then:
            print(f"  Python search as at {baseline} (when the goal was set): {then[0]:,.0f} positions "
                  f"per CPU-second, {then[1]} of 5 decided")
    from cardrules.native import native_available

    if not native_available():
        print("  native search: not run (Numba is not installed: pip install 'cardrules[native]')")
        return
    solver(range(1, 2), "native")  # compiled (or loaded from the cache) before it is timed
    native, decided = solver(range(1, 6), "native")
    against = f"{native / then[0]:.1f}x the search at {baseline}, " if then else ""
    print(f"  native search: {native:,.0f} positions per CPU-second, {decided} of 5 decided: "
          f"{against}{native / python:.1f}x today's Python search (goal >= 20x the search when it was set)")


def startup() -> None:
    script = HERE / "startup.py"
    if script.exists():
        print("start-up (benchmarks/startup.py):")
        subprocess.run([sys.executable, str(script)], check=False)
    else:
        cardrules = [sys.executable, "-m", "cardrules.cli"]
        print(f"start-up: --help {run_command(*cardrules, '--help'):.2f} s CPU (goal <= 0.15), validate klondike "
              f"{run_command(*cardrules, 'validate', 'klondike'):.2f} s CPU (goal <= 0.3)")


PARTS = ("playouts", "greedy", "simulate", "solver", "startup")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="random games per engine (default 200)")
    parser.add_argument("--greedy-games", type=int, default=40, help="greedy games for the Python engine "
                        "(default 40; native: ten times as many)")
    parser.add_argument("--quick", action="store_true", help="fewer games, no greedy, simulate or solver runs")
    parser.add_argument("--only", choices=PARTS, action="append", help="run only this part (repeatable)")
    parser.add_argument("--baseline", default=BASELINE, help="the commit whose solver the goal was set against "
                        f"(default {BASELINE}; 'none' to leave it out)")
    args = parser.parse_args(argv)
    parts = args.only or (["playouts", "startup"] if args.quick else list(PARTS))
    if "playouts" in parts:
        playouts(20 if args.quick else args.games)
    if "greedy" in parts:
        greedy(args.greedy_games)
    if "simulate" in parts:
        simulate_scaling()
    if "solver" in parts:
        solvers(args.baseline)
    if "startup" in parts:
        startup()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
