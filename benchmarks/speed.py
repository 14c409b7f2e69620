"""Issue 13's scoreboard: the speed of cardrules against a hand-written engine, side by side.

    python benchmarks/speed.py [--games 200] [--greedy-games 40] [--quick] [--only PART] [--baseline REV | none]

Everything is measured in this one process (or its child processes, for commands), in CPU
seconds, so the ratios hold on a shared machine:

- random playouts of OpenSpiel's Klondike (`solitaire`), Spades and Hearts, moves per CPU-second,
  deal included: OpenSpiel's C++ game (its own C++ loop with C++ uniform random bots, and driven
  move by move from Python; skipped with a message without the `open_spiel` package) against the
  same rules written as rulesets, benchmarks/openspiel/*.yaml, in cardrules' Python and native
  backends (the native games checked to end as the Python ones). OpenSpiel's chance outcomes
  (its deal) and solitaire's kEnd action are not counted, since the rulesets have no such moves;
- random playouts of the bundled Klondike (a stock, draw 1, 2,000 moves at most: a different
  game, not compared with OpenSpiel's): the hand-written Python reference
  (benchmarks/reference_klondike.py) and cardrules' Python and native backends;
- games per second of `cardrules simulate klondike -n 2000` on 1 and 2 jobs (both engines);
- greedy Klondike games per CPU-second: the Python `GreedyBot` against native greedy playouts
  (the same games, checked move count and score);
- the solver's positions per CPU-second, against today's Python search and against the search
  as it was when the goal was set (`--baseline REV`, default the commit issue 13 measured: the
  package of that commit, taken from git into a temporary folder, is imported in this process
  under another name and searches the same deals);
- start-up: `cardrules --help`, `cardrules validate klondike`, loads (benchmarks/startup.py's);
- searches that keep positions, natively (`search`): positions copied, dealt anew and played on
  from Python a CPU-second, and the `mcts` bot's decisions and trials a CPU-second.

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


# OpenSpiel's games written as rulesets from its C++ source: OpenSpiel's name, the ruleset, the
# game, the test that plays the ruleset against pyspiel move for move, and the OpenSpiel player
# actions not counted as moves (solitaire's kEnd, 0: the one action when no move is left, which
# ends the game; the ruleset's game just ends there).
OPENSPIEL_GAMES: list[tuple[str, Path, str, str, frozenset[int]]] = [
    ("solitaire", HERE / "openspiel" / "solitaire.yaml", "Klondike (K+: no stock, every third waste card)",
     "tests/test_openspiel_klondike.py", frozenset({0})),
    ("spades", HERE / "openspiel" / "spades.yaml", "Partnership Spades, one hand", "tests/test_openspiel_spades.py",
     frozenset()),
    ("hearts", HERE / "openspiel" / "hearts.yaml", "Hearts, one hand, passing", "tests/test_openspiel_hearts.py",
     frozenset()),
]


def openspiel_random(name: str, uncounted: frozenset[int], games: int) -> tuple[float, float, float, float] | None:
    """OpenSpiel's game `name`, deal included (its chance outcomes, drawn by its own loop): moves
    per CPU-second and moves a game, in its C++ loop (`evaluate_bots` with C++ uniform random
    bots, `games` * 10 games) and in a Python loop over pyspiel (`games`). Moves are the players'
    actions but those in `uncounted`; chance outcomes are not moves."""
    try:
        import pyspiel
    except ImportError:
        print("  OpenSpiel: not installed (pip install open_spiel) - skipped")
        return None
    game = pyspiel.load_game(name)
    seats = game.num_players()
    moves, seconds = 0, 0.0
    for seed in range(games * 10):
        start = time.process_time()
        state = game.new_initial_state()
        pyspiel.evaluate_bots(state, [pyspiel.make_uniform_random_bot(seat, seed) for seat in range(seats)], seed)
        seconds += time.process_time() - start
        moves += sum(1 for step in state.full_history() if step.player >= 0 and step.action not in uncounted)
    cpp, cpp_length = moves / seconds, moves / (games * 10)
    moves, start = 0, time.process_time()
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                action = rng.choice(state.legal_actions())
                state.apply_action(action)
                moves += action not in uncounted
    return cpp, cpp_length, moves / (time.process_time() - start), moves / games


def python_random(ruleset: str | Path, games: int) -> tuple[float, list[tuple[int, int]]]:
    """Moves per CPU-second of random play in the Python backend (a `bots.RandomBot(seed)` at each
    seat, seeds 0 to games - 1), dealing each game from its seed included; and each game's moves
    and seat 1's score."""
    from cardrules import load_ruleset
    from cardrules.agents.bots import RandomBot

    rules = load_ruleset(ruleset)
    ends, moves, start = [], 0, time.process_time()
    for seed in range(games):
        game = rules.new_game(seed=seed)
        bots = [RandomBot(seed) for _ in range(game.players)]
        while not game.is_over:
            game.apply(bots[game.current_player].choose(game))
        ends.append((len(game.history), game.scores()[0]))
        moves += len(game.history)
    return moves / (time.process_time() - start), ends


def native_random(ruleset: str | Path, games: int,
                  python_ends: list[tuple[int, int]]) -> tuple[float | None, float, float]:
    """Moves per CPU-second of native random playouts (seeds 0 to games - 1), dealing each game
    included (`Native.deal`: in compiled code, or in Python where the module cannot, which is
    said), which must end the Python backend's games as they ended there; the CPU seconds of the
    first use (generating the module and compiling or loading it, and a first playout); and the
    moves a game."""
    from cardrules import load_ruleset
    from cardrules.native import Unsupported
    from cardrules.native import native_backend as backend_of

    rules = load_ruleset(ruleset)
    start = time.process_time()
    try:
        native = backend_of(rules)
        native.playout(native.deal(0), 0)
    except Unsupported as exc:
        print(f"  native backend: {exc}")
        return None, 0.0, 0.0
    first = time.process_time() - start
    if native.deal_refused:
        print(f"  native backend: the deal is made in Python ({native.deal_refused})")
    moves, start = 0, time.process_time()
    for seed in range(games):
        position = native.deal(seed)
        score = native.playout(position, seed)[0]
        if seed < len(python_ends) and (position.moves, score) != python_ends[seed]:
            raise SystemExit(f"native random game {seed} of {ruleset} ended otherwise: "
                             f"{(position.moves, score)} against {python_ends[seed]}")
        moves += position.moves
    return moves / (time.process_time() - start), first, moves / games


def reference(games: int) -> float:
    moves, start = 0, time.process_time()
    for seed in range(games):
        moves += play_random(seed, 1, "standard")[0]
    return moves / (time.process_time() - start)


def simulate(games: int, jobs: int, engine: str) -> float:
    """Games per wall-clock second (what jobs buy is time, not CPU), after a first run of a few
    games in this process (so that the native module is compiled, or loaded from the cache,
    before the clock starts; on Linux the workers are forked from this process, so they load
    nothing, elsewhere each loads it)."""
    from cardrules.workbench.simulate import simulate_games

    simulate_games("klondike", 10, jobs=1, engine=engine)
    start = time.perf_counter()
    run = simulate_games("klondike", games, jobs=jobs, engine=engine)
    return len(run.records) / (time.perf_counter() - start)


# The commit whose solver issue 13 measured ("6,600-10,500 positions per CPU-second").
BASELINE = "0f2207d"


def solver(seeds: range, engine: str) -> tuple[float, int]:
    """Positions per CPU-second of the search (5 CPU-seconds a deal at most), and deals decided."""
    from cardrules import load_ruleset
    from cardrules.workbench.solver import UNKNOWN, solve

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
    """Random playouts of one game on both sides: each of OpenSpiel's games in OpenSpiel and as a
    ruleset; then the bundled Klondike, a different game, against the hand-written reference."""
    for name, ruleset, what, test, uncounted in OPENSPIEL_GAMES:
        print(f"OpenSpiel's `{name}` ({what}) against {ruleset.relative_to(HERE.parent)} (its rules as a "
              f"ruleset: {test} plays them move for move), random playouts, "
              f"deal included, moves per CPU-second (no chance outcomes{', no kEnd' if uncounted else ''}):")
        measured = openspiel_random(name, uncounted, games)
        cpp, cpp_length, driven, driven_length = measured if measured else (None, 0.0, None, 0.0)
        py, ends = python_random(ruleset, games)
        nat, first, nat_length = native_random(ruleset, games * 10, ends)
        py_length = sum(moves for moves, _ in ends) / games
        rows = [(f"OpenSpiel {name}, C++ loop ({games * 10} games)", cpp, cpp_length),
                (f"OpenSpiel {name}, Python loop ({games})", driven, driven_length),
                (f"cardrules Python backend ({games})", py, py_length),
                (f"cardrules native backend ({games * 10})", nat, nat_length)]
        for row, rate, length in rows:
            ratio = f"{rate / cpp:6.2f}x OpenSpiel C++" if rate and cpp else ""
            print(f"  {row:<44} {rate:>12,.0f}  {length:5.1f} moves a game  {ratio}" if rate
                  else f"  {row:<44} {'-':>12}")
        print(f"  goal: native >= 1.0x OpenSpiel C++: {nat / cpp:.2f}x" if nat and cpp else "  (no OpenSpiel to compare)")
        print(f"  native backend, first use in this process: {first:.2f} s CPU (compiling, or loading the cache)")

    print(f"Bundled Klondike (rulesets/klondike.yaml: a stock, draw 1, a 2,000-move limit; a different game from "
          f"OpenSpiel's, not compared with it), random playouts, moves per CPU-second:")
    ref = reference(games)
    py, ends = python_random("klondike", games)
    nat, first, _ = native_random("klondike", games * 10, ends)
    for name, rate in [(f"hand-written Python reference ({games} games)", ref),
                       (f"cardrules Python backend ({games})", py), (f"cardrules native backend ({games * 10})", nat)]:
        print(f"  {name:<44} {rate:>12,.0f}" if rate else f"  {name:<44} {'-':>12}")
    print(f"  goal: Python backend <= 1.5x the reference's time per move: {ref / py:.2f}x")
    if nat:
        print(f"  native backend: {nat / py:.1f}x the Python backend; first use in this process: {first:.2f} s CPU")


def greedy(games: int) -> None:
    """Greedy Klondike games per CPU-second, dealing each game included: the Python
    engine (`bots.GreedyBot` at the seat, as `simulate` plays) and native greedy playouts (ten
    times the games), which must end the first `games` games as Python does."""
    from cardrules import load_ruleset
    from cardrules.agents.bots import GreedyBot
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
        native.playout(native.deal(0), 0, "greedy")  # compiled (or loaded) before the clock
    except Unsupported as exc:
        print(f"  native backend: {exc}")
        return
    moves, start = 0, time.process_time()
    for seed in range(games * 10):
        position = native.deal(seed)  # (in compiled code)
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
        cardrules = [sys.executable, "-m", "cardrules.app.cli"]
        print(f"start-up: --help {run_command(*cardrules, '--help'):.2f} s CPU (goal <= 0.15), validate klondike "
              f"{run_command(*cardrules, 'validate', 'klondike'):.2f} s CPU (goal <= 0.3)")


def search(decisions: int, positions: int) -> None:
    """Searches that keep positions (issue 32, goals 1 and 5), natively, on OpenSpiel's three games as
    rulesets: the bytes a kept position (`NativeGame.clone`) holds of its own; a position kept and
    played on from Python (`clone` once, then for each:
    `copy_from` the root, the unseen cards dealt anew with `determinize`, eight random moves by
    `apply_code`), positions a CPU-second; and the `mcts` bot at its default budget (200 trials a
    decision, each a copy of the root, a deal of the unseen cards, a walk down its tree and a
    random playout in compiled code), decisions and trials a CPU-second, from positions reached by
    random moves."""
    import numpy as np

    from cardrules import load_ruleset
    from cardrules.agents.mcts import DEFAULT_PLAYOUTS, MctsBot
    from cardrules.native import native_backend

    print("searches that keep positions, native backend, OpenSpiel's games as rulesets:")
    for name, ruleset, _, _, _ in OPENSPIEL_GAMES:
        rules = load_ruleset(str(ruleset))
        backend = native_backend(rules)
        rng = random.Random(1)

        def reached(seed: int) -> Any:
            """Game `seed` after a few random moves, at a decision with a choice."""
            game = rules.new_game(seed=seed)
            for _ in range(rng.randrange(12)):
                if game.is_over:
                    break
                game.apply(rng.choice(game.legal_moves()))
            while not game.is_over and len(game.legal_moves()) < 2:
                game.apply(game.legal_moves()[0])
            return game
        game = reached(0)
        root = backend.start(game)
        trial = root.clone()
        stream = np.array(random.Random(2).getstate()[1], dtype=np.int64)
        seat = game.current_player

        def keep(times: int) -> int:
            kept = 0
            for _ in range(times):
                trial.copy_from(root)
                trial.determinize(seat, stream)
                kept += 1
                for _ in range(8):
                    if trial.is_over:
                        break
                    trial.apply_code(rng.choice(trial.legal_codes()))
                    kept += 1
            return kept
        keep(20)  # the compiled functions loaded, not timed
        started = time.process_time()
        kept_rate = keep(positions) / (time.process_time() - started)
        bot = MctsBot(seed=3)
        bot.choose(reached(1))  # compiled (or loaded) here, not timed
        games = [reached(seed) for seed in range(2, 2 + decisions)]
        started = time.process_time()
        for played in games:
            if not played.is_over:
                bot.choose(played)
        seconds = time.process_time() - started
        kept = root.clone()  # as a search keeps a position (played on, it makes room to list moves: `make_room`)
        own = sum(a.nbytes for a in (kept.C, kept.N, kept.U, kept.V, kept.M, kept.out, kept.CK, kept.KEY))
        print(f"  {name:<10} a kept position holds {own / 1024:5.1f} KB (goal for Klondike <= 16 KB); positions "
              f"kept and played on from Python {kept_rate:8,.0f}/CPU-s;  mcts "
              f"{decisions / seconds:6.1f} decisions/CPU-s ({seconds / decisions * 1000:5.1f} ms each), "
              f"{decisions * DEFAULT_PLAYOUTS / seconds:8,.0f} trials/CPU-s")


PARTS = ("playouts", "greedy", "simulate", "solver", "startup", "search")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="random games in Python loops (default 200; "
                        "OpenSpiel's C++ loop and the native backend: ten times as many)")
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
    if "search" in parts:
        search(10 if args.quick else 40, 2000 if args.quick else 20000)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
