"""A destination index is kept between listings while its piles are unchanged (`movegen.KEEP_INDEXES`).

A destination index (derived from a move's `when`) maps each destination's key to the
destinations with that key. Where the key
reads only the destination's cards, the merged listing keeps the index with the piles it was
built from and uses it again while those piles are equal lists. Nothing else may change: the
same moves in the same order and the same steps counted. So rulesets with indexes play seeded
random games with kept indexes and with indexes built at every listing, compared after every
move; two games of one ruleset played move by move in turn (the kept indexes are the ruleset's,
shared by its games) must each match their game alone; and a key that reads a variable, which
changes without any pile changing, is never kept.
"""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from cardrules import load_ruleset
from cardrules.python import movegen

FIXTURES = Path(__file__).resolve().parent / "fixtures"
SPIDER = str(FIXTURES / "runs" / "spider-like.yaml")
EACH_EMPTY = str(FIXTURES / "zones" / "klondike-each-empty.yaml")
CASES = ["klondike", "klondike-draw3", "dollartaire", SPIDER, EACH_EMPTY]


@cache
def loaded(source: str, keep: bool) -> Any:
    saved = movegen.KEEP_INDEXES
    movegen.KEEP_INDEXES = keep
    try:
        return load_ruleset(source)
    finally:
        movegen.KEEP_INDEXES = saved


def listing(game: Any) -> list[tuple[Any, ...]]:
    return [m.key() + (str(m),) for m in game.legal_moves()]


def same_position(a: Any, b: Any) -> bool:
    return a.state.piles == b.state.piles and a.state.up == b.state.up and a.state.vars == b.state.vars


@pytest.mark.parametrize("source", CASES, ids=lambda v: Path(v).stem)
def test_kept_indexes_list_the_same_moves_with_the_same_steps(source: str) -> None:
    kept, plain = loaded(source, True), loaded(source, False)
    assert "INDEXES.get(" in kept.generated_source and "INDEXES" not in plain.generated_source
    made = 0
    for seed in range(5):
        a, b = kept.new_game(seed=seed), plain.new_game(seed=seed)
        rng = random.Random(seed)
        while made < 200 * (seed + 1) and not a.is_over:
            moves = listing(a)
            assert moves == listing(b), f"seed {seed}, after {made} moves"
            assert kept.meter.left == plain.meter.left, f"seed {seed}, after {made} moves: steps differ"
            i = rng.randrange(len(moves))
            a.apply(a.legal_moves()[i])
            b.apply(b.legal_moves()[i])
            made += 1
            assert same_position(a, b)
        assert (a.is_over, a.outcome, a.reason) == (b.is_over, b.outcome, b.reason)
    assert made > 300


def test_games_of_one_ruleset_played_in_turn_each_list_their_own_moves() -> None:
    kept, plain = loaded("klondike", True), loaded("klondike", False)
    games = [(kept.new_game(seed=s), plain.new_game(seed=s), random.Random(s)) for s in (3, 4, 5)]
    for _ in range(150):
        for a, b, rng in games:  # each game's listing follows another game's, with other piles
            if a.is_over:
                continue
            moves = listing(a)
            assert moves == listing(b)
            i = rng.randrange(len(moves))
            a.apply(a.legal_moves()[i])
            b.apply(b.legal_moves()[i])
            assert same_position(a, b)


def test_an_index_whose_key_reads_a_variable_is_built_at_every_listing(tmp_path: Path) -> None:
    variant = tmp_path / "keyed-by-passes.yaml"
    variant.write_text(
        "extends: klondike\nruleset: klondike-keyed-by-passes\nmoves:\n  waste_to_tableau:\n"
        "    match: null\n"
        "    when: \"card.rank == 13 if empty(dst) and passes >= 0 else fits_tableau(card, dst)\"\n")
    source = loaded(str(variant), True).generated_source
    listing_source = source[source.index("def enumerate_all"):]
    block = listing_source[listing_source.index("b_move = 'waste_to_tableau'"):]
    block = block[:block.index("b_move = ", 10)]
    assert "INDEX.get(" in block and "V[" in block and "INDEXES" not in block  # its own index, built afresh
    assert "INDEXES.get(" in listing_source  # while the other moves' indexes are kept
