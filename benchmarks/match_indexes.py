"""Check and benchmark: the same legal moves with and without the destination indexes `when` implies.

    python benchmarks/match_indexes.py [--games N] [--moves M] [--only NAME ...]

Every bundled ruleset and every example (rulesets/*.yaml, examples/*.yaml) is loaded twice in this
process: with the indexes movegen derives from each move's `when` (`cardrules.python.movegen.INDEXES`, the
default) and with none (every destination tried). Both play the same games: seeds 0..N-1 (default
300), at most M moves a game (default 200), each move drawn by `random.Random(seed)` among the legal
moves sorted by their fields. At every position the two listings must hold the same moves (as
multisets: with an index, a `take: run` move lists its lengths before its destinations, so the order
may differ); a ruleset's first difference is printed in its place, and the run then ends with exit
status 1. Prints, per ruleset, the moves
with an index, the positions compared, and the CPU time (`time.process_time`) each way of listing
and making the moves, loading and comparing not counted. tests/test_match_indexes.py runs the same
check on a few games of each.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

from cardrules import load_ruleset
from cardrules.python import movegen

ROOT = Path(__file__).resolve().parent.parent


def sources() -> list[Path]:
    """The bundled rulesets and the examples, by name."""
    return sorted((ROOT / "rulesets").glob("*.yaml")) + sorted((ROOT / "examples").glob("*.yaml"))


def load(source: str | Path, indexed: bool) -> Any:
    """The ruleset with (or without) the destination indexes its moves' conditions imply."""
    saved = movegen.INDEXES
    movegen.INDEXES = indexed
    try:
        return load_ruleset(str(source))
    finally:
        movegen.INDEXES = saved


def indexed_moves(rules: Any) -> list[str]:
    """The moves of `rules` whose destinations come from an index."""
    return [template.name for template in rules.moves if template.index_key is not None]


class ListingsDiffer(AssertionError):
    """The two loads of one ruleset list different moves somewhere."""


def compare(indexed: Any, plain: Any, seed: int, max_moves: int) -> tuple[int, float, float]:
    """Play one seeded game with both loads at once, comparing the legal moves at every position.
    Returns the positions compared and the CPU seconds each load spent listing and making its moves."""
    games = [rules.new_game(seed=seed, max_moves=max_moves) for rules in (indexed, plain)]
    rng = random.Random(seed)
    spent = [0.0, 0.0]
    positions = 0
    while True:
        listings: list[dict[Any, Any]] = [{}, {}]
        order = (0, 1) if positions % 2 == 0 else (1, 0)  # each goes first in turn: the first pays more
        for i in order:
            start = time.process_time()
            legal = games[i].legal_moves()
            spent[i] += time.process_time() - start
            listings[i] = {move.key(): move for move in legal}
            if len(listings[i]) != len(legal):
                raise ListingsDiffer(f"seed {seed}, after {positions} moves: a move listed twice")
        positions += 1
        if sorted(listings[0]) != sorted(listings[1]):
            only_indexed = sorted(set(listings[0]) - set(listings[1]))
            only_plain = sorted(set(listings[1]) - set(listings[0]))
            raise ListingsDiffer(f"seed {seed}, after {positions - 1} moves: only with indexes "
                                 f"{[str(listings[0][k]) for k in only_indexed]}, only without "
                                 f"{[str(listings[1][k]) for k in only_plain]}")
        if games[0].is_over or not listings[0]:
            assert games[1].is_over == games[0].is_over
            return positions, spent[0], spent[1]
        key = rng.choice(sorted(listings[0]))
        for i in order:
            start = time.process_time()
            games[i].apply(listings[i][key])
            spent[i] += time.process_time() - start


def check(source: str | Path, games: int, max_moves: int) -> tuple[list[str], int, float, float]:
    """Compare `games` seeded games of one ruleset: its indexed moves, the positions compared, and
    the CPU seconds of play with and without indexes."""
    indexed, plain = load(source, True), load(source, False)
    assert not indexed_moves(plain)
    positions, with_index, without = 0, 0.0, 0.0
    for seed in range(games):
        counted, a, b = compare(indexed, plain, seed, max_moves)
        positions, with_index, without = positions + counted, with_index + a, without + b
    return indexed_moves(indexed), positions, with_index, without


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--only", nargs="*", default=None, help="ruleset names (file stems) to check")
    args = parser.parse_args()
    failed = False
    print(f"{args.games} games of at most {args.moves} moves each; play CPU seconds with / without indexes")
    for source in sources():
        if args.only and source.stem not in args.only:
            continue
        try:
            moves, positions, with_index, without = check(source, args.games, args.moves)
        except ListingsDiffer as exc:
            print(f"{source.stem:32} DIFFER: {exc}")
            failed = True
            continue
        print(f"{source.stem:32} {positions:8} positions  {with_index:7.2f} s / {without:7.2f} s  "
              f"indexed: {', '.join(moves) or '-'}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
