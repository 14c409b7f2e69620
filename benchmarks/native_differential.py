"""The native backend against the Python reference, game by game and move by move.

    python benchmarks/native_differential.py [--games 300] [--greedy-games 30] [--max-moves 2000] [--jobs 1]
                                             [--only nerts,peek] [--views]

For every bundled, test-fixture and example ruleset the native backend runs, every combination of
its options and every number of seats, plays `--games` seeded random games through both backends
(`native.compare`: the legal moves in order, piles, faces, who knows which card, variables, the
seat to act and its phase after every move, with `--views` which cards each seat sees too; the
outcome, reason, winners and scores at the end) and prints the games, moves and outcomes compared.
Where every seat plays at once, every seat's moves are compared at every step (a seeded random
seat moves), and `--games` games are also simulated on the clock by both engines
(`simulate.play_game`: random seats, moves landed and refused) and their records compared.
Rulesets it does not run are listed with the construct and place it names. Then, where seats take
turns, `--greedy-games` games with a greedy bot at every seat, natively (`Native.playout`) and in
Python (`bots.GreedyBot`, seeded alike), which must end alike: the moves made, piles, faces,
variables, outcome, reason, winners and scores (where greedy seats do not play natively, the
reason is printed). Exit status 1 on any difference.
"""

from __future__ import annotations

import argparse
import itertools
import random
import re
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def combinations(name: str) -> list[dict[str, Any]]:
    from cardrules import load_ruleset

    rules = load_ruleset(name)
    names = list(rules.options)
    return [dict(zip(names, values)) for values in itertools.product(*(rules.options[n].values for n in names))]


def run(name: str, options: dict[str, Any], players: int, games: int, max_moves: int,
        greedy_games: int, views: bool = False) -> tuple[int, int, Counter[str], str]:
    from cardrules import load_ruleset
    from cardrules.native import Mismatch, compare, native_backend

    rules = load_ruleset(name, options)
    backend = native_backend(rules)
    moves, outcomes = 0, Counter[str]()
    for seed in range(games):
        rng = random.Random(seed)
        game = rules.new_game(seed=seed, max_moves=max_moves, players=players)
        try:
            moves += compare(backend, game, rng.choice, rng.choice, views=views)
        except Mismatch as exc:
            return seed, moves, outcomes, f"MISMATCH: {exc}"
        outcomes[game.outcome or "?"] += 1
    return games, moves, outcomes, greedy(backend, players, greedy_games, max_moves)


def _end(game: Any) -> tuple[Any, ...]:
    S = game.state
    return len(game.history), [list(p) for p in S.piles], list(S.up), game.outcome, game.reason, game.winners(), \
        game.scores()


def greedy(backend: Any, players: int, games: int, max_moves: int) -> str:
    """Greedy games natively and in Python: what differs first, a note where greedy seats do not
    play natively, or "" (the same ends; a game compiled code stopped in is left out)."""
    from cardrules.agents.bots import GreedyBot
    from cardrules.base.errors import CardrulesError
    from cardrules.native import NativeStop

    rules = backend.rules
    if rules.simultaneous:  # played on the clock: `run_scheduled` compares its simulations
        return ""
    for seed in range(games):
        seeds = [seed * 100 + s for s in range(players)]
        position = backend.start(rules.new_game(seed=seed, max_moves=max_moves, players=players))
        game = rules.new_game(seed=seed, max_moves=max_moves, players=players)
        bots = [GreedyBot(s) for s in seeds]
        try:
            backend.playout(position, seeds, "greedy")
        except NativeStop:
            continue  # Python replays such games in `simulate`
        try:
            while not game.is_over:
                game.apply(bots[game.current_player].choose(game))
        except CardrulesError as exc:
            return f"MISMATCH: greedy game {seed}: Python stopped ({exc}), native did not"
        native_end = (position.moves, position.piles(), position.faces(), position.outcome,
                      position.reason, position.winners(), [position.score(p) for p in range(players)])
        if native_end != _end(game) or backend.variable_codes(game.state.vars) != \
                [int(v) for v in position.V[:len(game.state.vars)]]:
            return f"MISMATCH: greedy game {seed} ends otherwise: python {_end(game)!r:.300}, native {native_end!r:.300}"
    return ""


def run_scheduled(name: str, options: dict[str, Any], players: int, games: int) -> tuple[int, int, Counter[str], str]:
    """A game where every seat plays at once: `games` games simulated on the clock by both engines
    (random seats), their records compared (moves, refusals, decisions, scores, winners, leads)."""
    from dataclasses import replace

    from cardrules.workbench.simulate import compiled, play_game, prepare

    given = [f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in options.items()]
    plan = prepare(name, games, players, options=given, engine="native")
    if plan.engine != "native":
        return 0, 0, Counter(), "the native engine did not take the simulation"
    rules = compiled(plan)
    moves, outcomes = 0, Counter[str]()
    for index in range(games):
        native_record = play_game(rules, plan, index)
        python_record = play_game(rules, replace(plan, engine="python"), index)
        if native_record != python_record:
            return index, moves, outcomes, f"game {index}: python {python_record}, native {native_record}"
        moves += python_record.moves
        outcomes[python_record.outcome] += 1
    return games, moves, outcomes, ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300, help="games per option combination (default 300)")
    parser.add_argument("--greedy-games", type=int, default=30, help="greedy games per option combination "
                        "(default 30)")
    parser.add_argument("--max-moves", type=int, default=2000, help="cut games at this many moves (default 2000)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--skip", default="", help="rulesets to leave out, comma-separated (klondike,cascades)")
    parser.add_argument("--only", default="", help="only these rulesets, comma-separated (nerts,peek)")
    parser.add_argument("--views", action="store_true", help="compare which cards each seat sees at every step too")
    args = parser.parse_args(argv)
    from cardrules import load_ruleset
    from cardrules.native import Unsupported, native_backend

    work = []
    scheduled = []  # (where every seat plays at once) the simulations on the clock
    fixtures = [str(p) for p in sorted((ROOT / "tests" / "fixtures").rglob("*.yaml"))
                if not {"broken", "native"} & set(p.parts) and re.search(r"^ruleset:", p.read_text(), re.MULTILINE)]
    examples = [str(p) for p in sorted((ROOT / "examples").glob("*.yaml"))]
    skipped = set(filter(None, args.skip.split(",")))
    only = set(filter(None, args.only.split(",")))
    for name in [p.stem for p in sorted((ROOT / "rulesets").glob("*.yaml"))] + fixtures + examples:
        if Path(name).stem in skipped or only and Path(name).stem not in only:
            continue
        try:
            rules = load_ruleset(name)
            native_backend(rules)  # compiled once here; the workers load it
        except Unsupported as exc:
            print(f"{Path(name).stem:<28} not native: {exc}")
            continue
        work += [(name, options, players) for options in combinations(name)
                 for players in range(rules.min_players, rules.max_players + 1)]
        if rules.simultaneous:
            scheduled += [(name, options, players) for options in combinations(name)
                          for players in range(rules.min_players, rules.max_players + 1)]
    start = time.perf_counter()
    failed = False
    with ProcessPoolExecutor(args.jobs) as pool:
        results = pool.map(run, *zip(*work), [args.games] * len(work), [args.max_moves] * len(work),
                           [args.greedy_games] * len(work), [args.views] * len(work))
        for (name, options, players), (games, moves, outcomes, problem) in zip(work, results):
            shown = " ".join(f"{k}={v}" for k, v in options.items()) + f" seats={players}"
            print(f"{Path(name).stem:<28} {shown:<52} {games:>5} games {moves:>9,} moves  "
                  f"{dict(sorted(outcomes.items()))}")
            if problem:
                print(f"  {problem}")
                failed = failed or problem.startswith("MISMATCH")
        results = pool.map(run_scheduled, *zip(*scheduled), [args.games] * len(scheduled)) if scheduled else []
        for (name, options, players), (games, moves, outcomes, problem) in zip(scheduled, results):
            shown = " ".join(f"{k}={v}" for k, v in options.items()) + f" seats={players}"
            print(f"{Path(name).stem + ' (clock)':<28} {shown:<52} {games:>5} games {moves:>9,} moves  "
                  f"{dict(sorted(outcomes.items()))}")
            if problem:
                print(f"  MISMATCH: {problem}")
                failed = True
    print(f"{len(work)} combinations ({len(scheduled)} on the clock too) in {time.perf_counter() - start:.0f} s: "
          + ("differences found" if failed else "no difference"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
