"""Statistics of Dollartaire games played by bots.

    python benchmarks/dollartaire_stats.py [--games N] [--bots random,greedy] [--first-seed S]
                                           [--max-moves M]

Each bot kind plays N seeded games: game k is dealt from seed S+k and the bot is made
with the same seed (``make_bot(kind, seed)``), so every figure is reproducible. Printed
per bot: the mean wallet and its standard deviation, min/median/max, the share of games
in each label (Poor House / Middle Class / Upper Crust), how games ended (outcome "over":
the bank closed; "limit": the ruleset's move cap; each with the engine's reason), and a
text histogram of the wallet in $100 buckets.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from typing import Any

LABELS = ("Poor House", "Middle Class", "Upper Crust")


def play(rules: Any, kind: str, seed: int, max_moves: int | None) -> tuple[int, str, str, int, str]:
    from cardrules.agents.bots import make_bot

    game = rules.new_game(seed=seed, max_moves=max_moves)
    bot = make_bot(kind, seed)
    while not game.is_over:
        game.apply(bot.choose(game))
    return game.scores()[0], game.label(), game.outcome, len(game.history), game.reason


def histogram(wallets: list[int], width: int = 50) -> list[str]:
    buckets = Counter(w // 100 for w in wallets)
    top = max(buckets.values())
    lines = []
    for b in range(0, max(buckets) + 1):
        n = buckets.get(b, 0)
        bar = "#" * (round(n / top * width) if n else 0)
        lines.append(f"    ${b * 100:>5}-{b * 100 + 99:<5} {n:>6}  {bar}")
    return lines


def report(kind: str, results: list[tuple[int, str, str, int, str]], seconds: float) -> str:
    wallets = [r[0] for r in results]
    labels = Counter(r[1] for r in results)
    endings = Counter(r[2] for r in results)
    moves = [r[3] for r in results]
    reasons = Counter((r[2], r[4]) for r in results)
    n = len(results)
    lines = [
        f"== {kind}: {n} games in {seconds:.1f} s ({n / seconds:.1f} games/s, mean {statistics.mean(moves):.1f} moves/game)",
        f"  wallet: mean ${statistics.mean(wallets):.1f}  sd ${statistics.pstdev(wallets):.1f}"
        f"  min ${min(wallets)}  median ${statistics.median(wallets):g}  max ${max(wallets)}",
        "  labels: " + "  ".join(f"{label} {labels.get(label, 0) / n:.1%} ({labels.get(label, 0)})" for label in LABELS),
        "  ended:  " + "  ".join(f"{end} {endings.get(end, 0) / n:.1%} ({endings.get(end, 0)})"
                                for end in sorted(set(endings) | {"over", "limit"})),
        *(f"          {end}: {reason}: {count / n:.1%} ({count})" for (end, reason), count in sorted(reasons.items())),
        "  wallet histogram ($100 buckets):",
        *histogram(wallets),
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Play seeded Dollartaire games per bot kind and print statistics.")
    parser.add_argument("--games", type=int, default=1000, help="games per bot kind (default 1000)")
    parser.add_argument("--bots", default="random,greedy", help="comma-separated bot kinds (default random,greedy)")
    parser.add_argument("--first-seed", type=int, default=0, help="seed of the first game (default 0)")
    parser.add_argument("--max-moves", type=int, default=None,
                        help="move cap per game (default: the ruleset's own, 1000)")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")

    from cardrules import load_ruleset
    from cardrules.agents.bots import BOT_KINDS

    kinds = [k.strip() for k in args.bots.split(",") if k.strip()]
    unknown = [k for k in kinds if k not in BOT_KINDS]
    if unknown or not kinds:
        parser.error(f"unknown bot kind(s) {', '.join(unknown) or '(none)'}; known: {', '.join(BOT_KINDS)}")
    rules = load_ruleset("dollartaire")
    cap = args.max_moves if args.max_moves is not None else rules.max_moves
    print(f"Dollartaire: {args.games} games per bot, seeds {args.first_seed}..{args.first_seed + args.games - 1}, "
          f"move cap {cap}")
    for kind in kinds:
        start = time.perf_counter()
        results = [play(rules, kind, seed, args.max_moves)
                   for seed in range(args.first_seed, args.first_seed + args.games)]
        print(report(kind, results, time.perf_counter() - start), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
