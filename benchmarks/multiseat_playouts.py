"""Random playouts of the multi-seat rulesets: CPU microseconds a move, Python backend.

    python benchmarks/multiseat_playouts.py [--games 60]

Each ruleset plays `--games` seeded random games (Ten Bucks with 3 seats, Spades with 4), three
times; the best CPU time is printed per move. These rulesets keep the record of which seat knows
which card (a hand is an `owner` zone), so the figure shows what that costs. To compare with an
older checkout, run the script with that checkout's package first on PYTHONPATH.
"""

from __future__ import annotations

import argparse
import random
import time

from cardrules import load_ruleset

CASES = [("ten-bucks", 3), ("spades", 4), ("tests/fixtures/hidden/pass-cards.yaml", 3)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60, help="games per ruleset (default 60)")
    args = parser.parse_args()
    for name, players in CASES:
        rules = load_ruleset(name)
        best, moves = float("inf"), 0
        for _ in range(3):
            start, moves = time.process_time(), 0
            for seed in range(args.games):
                game = rules.new_game(seed=seed, players=players)
                rng = random.Random(seed)
                while not game.is_over:
                    game.apply(rng.choice(game.legal_moves()))
                    moves += 1
            best = min(best, time.process_time() - start)
        print(f"{rules.name:12} {players} seats  {moves:6} moves  {best / moves * 1e6:6.1f} µs a move (CPU)")


if __name__ == "__main__":
    main()
