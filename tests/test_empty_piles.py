"""`empty_piles: first`: moves that differ only by which of a zone's empty piles they go to are
offered once, to the first empty pile (docs/language.md, zones)."""

from __future__ import annotations

import random
from pathlib import Path

from cardrules import load_ruleset
from cardrules.python.engine import Game, Move

EACH = Path(__file__).parent / "fixtures" / "zones" / "klondike-each-empty.yaml"


def _after(game: Game, move: Move) -> tuple[object, ...]:
    """The position after `move`, with the foundations as a set (which pile holds a suit is moot)."""
    child = game.clone()
    child.apply(move)
    foundations = set(child.rules.zones["foundation"].piles)
    piles = child.state.piles
    others = tuple(tuple(p) for i, p in enumerate(piles) if i not in foundations)
    return others, frozenset(tuple(piles[i]) for i in foundations)


def test_an_ace_is_offered_once_to_the_first_empty_foundation_not_to_each() -> None:
    plain, first = load_ruleset(EACH), load_ruleset("klondike")
    for seed in range(40):
        game = plain.new_game(seed=seed)
        aces = [m for m in game.legal_moves() if m.name == "to_foundation"]
        if aces:
            break
    assert len(aces) == 4 * len({m.src for m in aces})
    offered = [m for m in first.new_game(seed=seed).legal_moves() if m.name == "to_foundation"]
    assert len(offered) == len(aces) // 4
    assert {first.pile_names[m.dst] for m in offered} == {"f1"}


def test_an_ace_goes_to_the_first_empty_foundation_whichever_that_is_now() -> None:
    rules = load_ruleset("klondike")
    rng = random.Random(5)
    seen: set[int] = set()
    for seed in range(200):
        game = rules.new_game(seed=seed)
        for _ in range(300):
            if game.is_over:
                break
            empty = [f for f in rules.zones["foundation"].piles if not game.state.piles[f]]
            targets = {m.dst for m in game.legal_moves() if m.name == "to_foundation" and not game.state.piles[m.dst]}
            assert targets <= set(empty[:1]), (seed, targets)
            seen |= targets
            game.apply(rng.choice(game.legal_moves()))
    assert seen == set(rules.zones["foundation"].piles)  # each in its turn was the first empty one


def test_offering_the_first_empty_pile_only_loses_no_position_over_400_random_positions() -> None:
    # Sound: every move of Klondike offering each empty foundation leads to a position (foundations
    # as a set) that a move of the bundled Klondike (the first empty one only) also leads to, and
    # the other way round.
    plain, first = load_ruleset(EACH), load_ruleset("klondike")
    rng = random.Random(11)
    checked = 0
    for seed in range(20):
        game = plain.new_game(seed=seed)
        twin = first.new_game(seed=seed)
        for _ in range(200):
            if game.is_over:
                break
            plain_moves, first_moves = game.legal_moves(), twin.legal_moves()
            assert {_after(game, m) for m in plain_moves} == {_after(twin, m) for m in first_moves}
            assert len(first_moves) <= len(plain_moves)
            checked += 1
            move = rng.choice(first_moves)
            twin.apply(move)
            game.apply(game.parse_move(str(move)))
    assert checked >= 400
