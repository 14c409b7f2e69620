"""A `take: run` move with `match` walks down each source's face-up run once (`movegen.WALK_RUNS`).

Its loop over run lengths goes down the pile from the top and stops at the first card face down,
instead of finding the run's length first and looping over a slice of that length. Nothing else
may change: the same moves in the same order, and the same steps counted (limits.MAX_STEPS). So
the rulesets that have such a move (Klondike and its variants, Dollartaire, the Spider-like
fixture, whose pair checks are left as they are written, `movegen.RUN_SCAN` off, since a scan of
them needs the run's length first) play seeded random games both ways, compared after every move:
the legal moves, the steps the meter has left, the piles and faces.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from cardrules import load_ruleset
from cardrules.python import movegen

SPIDER = str(Path(__file__).resolve().parent / "fixtures" / "runs" / "spider-like.yaml")
WALK = "for b_card in reversed(pile):"  # in the generated code: the walked loop over lengths

CASES = [("klondike", ()), ("klondike-draw3", ()), ("klondike-vegas", ()), ("dollartaire", ()),
         (SPIDER, (("moves", "indexed"), ("open", False))), (SPIDER, (("moves", "indexed"), ("open", True))),
         (SPIDER, (("moves", "indexed"), ("decks", 2)))]
# (With `order: run_first` the run check comes before the build's equality: the engine derives no
# index past a check it cannot prove safe (docs/language.md: when an index is used), so no walk is made.)


@contextmanager
def walking(on: bool, scan: bool) -> Iterator[None]:
    saved = movegen.WALK_RUNS, movegen.RUN_SCAN
    movegen.WALK_RUNS, movegen.RUN_SCAN = on, scan
    try:
        yield
    finally:
        movegen.WALK_RUNS, movegen.RUN_SCAN = saved


@cache
def loaded(source: str, walk: bool, options: tuple[tuple[str, Any], ...]) -> Any:
    with walking(walk, source != SPIDER):
        return load_ruleset(source, options=dict(options))


def play_both(walked: Any, plain: Any, seed: int, max_moves: int) -> int:
    a, b = walked.new_game(seed=seed), plain.new_game(seed=seed)
    rng = random.Random(seed)
    made = 0
    while made < max_moves and not a.is_over:
        moves = [m.key() + (str(m),) for m in a.legal_moves()]
        assert moves == [m.key() + (str(m),) for m in b.legal_moves()], f"seed {seed}, after {made} moves"
        i = rng.randrange(len(moves))
        a.apply(a.legal_moves()[i])
        b.apply(b.legal_moves()[i])
        made += 1
        assert walked.meter.left == plain.meter.left, f"seed {seed}, move {made}: steps differ"
        assert a.state.piles == b.state.piles and a.state.up == b.state.up
    assert (a.is_over, a.state.outcome, a.state.reason) == (b.is_over, b.state.outcome, b.state.reason)
    return made


@pytest.mark.parametrize("source, options", CASES, ids=lambda v: Path(v).stem if isinstance(v, str) else "")
def test_walked_runs_list_the_same_moves_with_the_same_steps(source: str, options: tuple[tuple[str, Any], ...]) -> None:
    walked, plain = loaded(source, True, options), loaded(source, False, options)
    assert WALK in walked.generated_source and WALK not in plain.generated_source
    made = sum(play_both(walked, plain, seed, max_moves=150) for seed in range(6))
    assert made > 100
