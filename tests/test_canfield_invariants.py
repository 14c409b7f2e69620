"""Canfield invariants over 500 seeded random games (rulesets/canfield.yaml), over its options.

After every move: every card is in exactly one pile; each foundation is one suit built up from
the base rank, turning the corner; each column is built down in alternating colours, turning the
corner; only the reserve's top card is face up and the reserve never grows; no column is empty
while the reserve has cards; with autoplay, no top card that fits a foundation is left; the view
hides every face-down card. Every game ends (won, lost, or at the move limit).
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

import pytest

from cardrules import load_ruleset

GAMES = 500
MAX_MOVES = 200
OPTIONS = [{"autoplay": True, "draw": 3}, {"autoplay": False, "draw": 3}, {"autoplay": True, "draw": 1},
           {"autoplay": False, "draw": 1}]


@lru_cache(maxsize=None)
def rules_for(autoplay: bool, draw: int) -> Any:
    return load_ruleset("canfield", options={"autoplay": autoplay, "draw": draw})


def above(rank: int) -> int:
    return rank % 13 + 1


def check_position(game: Any, reserve_before: int) -> int:
    rules, state = game.rules, game.state
    deck, zones = rules.deck, rules.zones
    rank, suit, color = (deck.attribute_table(a) for a in ("rank", "suit", "color"))
    assert sorted(c for pile in state.piles for c in pile) == list(range(52))
    base = game.variable("base")
    for f in zones["foundation"].piles:
        cards = state.piles[f]
        if cards:
            assert rank[cards[0]] == base and len({suit[c] for c in cards}) == 1
            assert all(rank[b] == above(rank[a]) for a, b in zip(cards, cards[1:]))
    for t in zones["tableau"].piles:
        cards = state.piles[t]
        assert all(state.up[c] for c in cards)
        assert all(color[a] != color[b] and above(rank[b]) == rank[a] for a, b in zip(cards, cards[1:]))
    (reserve,) = zones["reserve"].piles
    cards = state.piles[reserve]
    assert len(cards) <= reserve_before
    assert [bool(state.up[c]) for c in cards] == [False] * (len(cards) - 1) + [True] * bool(cards)
    if cards:
        assert all(state.piles[t] for t in zones["tableau"].piles)
    if game.variable("base") and rules.option_values["autoplay"] and not game.is_over:
        sources = [reserve, *zones["waste"].piles, *zones["tableau"].piles]
        homes = [state.piles[f][-1] if state.piles[f] else None for f in zones["foundation"].piles]
        for p in sources:
            if state.piles[p]:
                top = state.piles[p][-1]
                fits = any(rank[top] == base if h is None else suit[h] == suit[top] and above(rank[h]) == rank[top]
                           for h in homes)
                assert not fits, f"{deck.codes[top]} fits a foundation and was left"
    view = game.view(0)["zones"]
    for name, zone in zones.items():
        shown = [view[name]] if zone.single else view[name]
        for pile_id, seen in zip(zone.piles, shown):
            assert [entry is None for entry in seen] == [not state.up[c] for c in state.piles[pile_id]]
    return len(cards)


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: f"autoplay={o['autoplay']}-draw{o['draw']}")
def test_canfield_invariants_hold_over_random_games(options: dict[str, Any]) -> None:
    rules = rules_for(**options)
    outcomes = set()
    for seed in range(GAMES // len(OPTIONS)):
        game = rules.new_game(seed=seed, max_moves=MAX_MOVES)
        rng = random.Random(seed)
        reserve = check_position(game, 13)
        while not game.is_over:
            game.apply(rng.choice(game.legal_moves()))
            reserve = check_position(game, reserve)
        assert game.outcome in ("won", "lost", "limit")
        outcomes.add(game.outcome)
        again = rules.new_game(seed=seed, max_moves=MAX_MOVES)  # a seed gives the same deal again
        assert again.deal_order == game.deal_order
    assert "lost" in outcomes
