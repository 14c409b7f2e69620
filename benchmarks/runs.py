"""Benchmark: random play where runs must be one suit, with the run scan of movegen on and off.

    python benchmarks/runs.py [--games N] [--moves M] [--rounds R]

Plays tests/fixtures/runs/spider-like.yaml (two decks; with and without a `match` index; Spider's
face-down columns, and every card dealt face up, which makes long face-up runs of which only the
top few cards are in sequence) and Klondike, each loaded twice in this process: with the rewrite
of `take: run` pair checks into one scan per source (`cardrules.python.movegen.RUN_SCAN`, the default)
and without it (the loops as before it). Both play the same games: seeds 0..N-1, a uniformly
random legal move by `random.Random(seed)`, at most M moves a game (the two list the same moves,
so they choose the same ones). CPU time (`time.process_time`) of the play only, dealing
included, loading not; each line is the best of R rounds.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from pathlib import Path
from typing import Any

from cardrules import load_ruleset
from cardrules.python import movegen

SPIDER = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "runs" / "spider-like.yaml"
CASES: list[tuple[str, str | Path, dict[str, Any]]] = [
    ("spider-like, indexed", SPIDER, {"moves": "indexed"}),
    ("spider-like, plain", SPIDER, {"moves": "plain"}),
    ("spider-like, indexed, open", SPIDER, {"moves": "indexed", "open": True}),
    ("spider-like, plain, open", SPIDER, {"moves": "plain", "open": True}),
    ("klondike", "klondike", {}),
]


def load(source: str | Path, options: dict[str, Any], scan: bool) -> Any:
    saved = movegen.RUN_SCAN
    movegen.RUN_SCAN = scan
    try:
        return load_ruleset(source, options=options)
    finally:
        movegen.RUN_SCAN = saved


def play(rules: Any, games: int, max_moves: int) -> tuple[float, int]:
    """CPU seconds and moves of `games` random games."""
    seconds, moves = 0.0, 0
    for seed in range(games):
        start = time.process_time()
        game = rules.new_game(seed=seed)
        rng = random.Random(seed)
        made = 0
        while made < max_moves and not game.is_over:
            legal = game.legal_moves()
            if not legal:
                break
            game.apply(rng.choice(legal))
            made += 1
        seconds += time.process_time() - start
        moves += made
    return seconds, moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--moves", type=int, default=300, help="at most this many moves a game")
    parser.add_argument("--rounds", type=int, default=3, help="report the best of this many rounds")
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}; {args.games} games of at most "
          f"{args.moves} moves per line, best of {args.rounds} rounds (CPU time)")
    print(f"{'ruleset':<28} {'moves':>7} {'scan off':>12} {'scan on':>12} {'speed-up':>9}")
    for name, source, options in CASES:
        rulesets = {scan: load(source, options, scan) for scan in (False, True)}
        best: dict[bool, float] = {}
        counts: set[int] = set()
        for _ in range(args.rounds):
            for scan in (False, True):
                seconds, moves = play(rulesets[scan], args.games, args.moves)
                counts.add(moves)
                best[scan] = min(best.get(scan, float("inf")), seconds / moves * 1000)
        if len(counts) != 1:
            sys.exit(f"{name}: the two played different games ({sorted(counts)} moves)")
        print(f"{name:<28} {counts.pop():>7} {best[False]:>9.3f} ms {best[True]:>9.3f} ms "
              f"{best[False] / best[True]:>8.1f}x")


if __name__ == "__main__":
    main()
