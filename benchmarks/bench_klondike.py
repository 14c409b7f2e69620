"""Benchmark: random Klondike games through the cardrules engine and the reference.

    python benchmarks/bench_klondike.py [--games N] [--draw 1|3] [--scoring none|standard|vegas]

Both sides play the same deals (the reference is dealt each engine game's
``deal_order``) with uniformly random legal moves chosen by
``random.Random(seed).choice`` over their own move lists, in one process.
Only the playing is timed (dealing a game included, loading the ruleset not).

Figures for issue 13, item 3 (the Python backend gets fast), `--games 200`, on a shared 2-CPU
machine under load (Python 3.11.7; two runs each, the figures of both given):

    before (558e5f3)    interpreter 36.9-37.7 us/move   reference 12.1 us/move   3.05-3.11x
    after               interpreter 28.8-31.0 us/move   reference 12.1-12.7 us/move   2.35-2.50x

The 200 games are the same move for move before and after (198 cut at 2000 moves, 2 lost).
The goal was 1.5x; docs/design.md ("How the Python backend lists and applies moves") says what
was kept, and what was measured and left out.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from reference_klondike import play_random  # noqa: E402


@dataclass
class Result:
    name: str
    seconds: float = 0.0
    games: int = 0
    moves: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)

    @property
    def per_move(self) -> float:
        return self.seconds / self.moves if self.moves else float("nan")

    def line(self) -> str:
        return (
            f"{self.name:<12} {self.games / self.seconds:>10.1f} games/s {self.moves / self.seconds:>12,.0f} moves/s"
            f"   mean {self.moves / self.games:>7.1f} moves/game   {self.per_move * 1e6:>7.2f} us/move"
            f"   ({self.seconds:.2f} s" + (f"; outcomes {dict(sorted(self.outcomes.items()))})" if self.outcomes else ")")
        )


def bench_engine(games: int, first_seed: int, draw: int, scoring: str, max_moves: int) -> tuple[Result, list[list[str]]]:
    from cardrules import load_ruleset

    rules = load_ruleset("klondike", options={"draw": draw, "scoring": scoring})  # not timed
    result = Result("interpreter")
    deals: list[list[str]] = []
    for seed in range(first_seed, first_seed + games):
        start = time.perf_counter()
        game = rules.new_game(seed=seed)
        rng = random.Random(seed)
        moves = 0
        while moves < max_moves and not game.is_over:
            game.apply(rng.choice(game.legal_moves()))
            moves += 1
        result.seconds += time.perf_counter() - start
        result.games += 1
        result.moves += moves
        result.outcomes[game.outcome or "cut"] += 1
        deals.append(list(game.deal_order))
    return result, deals


def bench_reference(deals: list[list[str]], first_seed: int, draw: int, scoring: str, max_moves: int) -> Result:
    result = Result("reference")
    for seed, deal in enumerate(deals, start=first_seed):
        start = time.perf_counter()
        moves, _score = play_random(seed, draw, scoring, max_moves=max_moves, deal=deal)
        result.seconds += time.perf_counter() - start
        result.games += 1
        result.moves += moves
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300, help="number of games (seeds) to play (default 300)")
    parser.add_argument("--draw", type=int, choices=(1, 3), default=1, help="cards per draw (default 1)")
    parser.add_argument("--scoring", choices=("none", "standard", "vegas"), default="standard", help="scoring (default standard)")
    parser.add_argument("--max-moves", type=int, default=2000, help="cut a game after this many moves (default 2000)")
    parser.add_argument("--first-seed", type=int, default=0, help="seed of the first game (default 0)")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")

    print(
        f"Klondike draw {args.draw}, scoring {args.scoring}: {args.games} random games, seeds "
        f"{args.first_seed}..{args.first_seed + args.games - 1}, cut at {args.max_moves} moves "
        f"(Python {platform.python_version()})"
    )
    engine, deals = bench_engine(args.games, args.first_seed, args.draw, args.scoring, args.max_moves)
    reference = bench_reference(deals, args.first_seed, args.draw, args.scoring, args.max_moves)
    print(engine.line())
    print(reference.line())
    print(f"ratio interpreter/reference time per move: {engine.per_move / reference.per_move:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
