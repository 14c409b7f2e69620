"""Random-play invariants of the klondike ruleset.

1,000 seeded games, spread over the option combinations (draw 1/3 x none/standard/
vegas, plus cumulative Vegas), each played with a seeded ``random.Random(seed)``
choosing among ``game.legal_moves()`` under a cap of ``MAX_MOVES`` moves. After
every move:

* the cards across all piles are exactly the 52 cards of the deck, each once;
* ``game.view(0)`` shows every face-up card by its code and no face-down card;
* the layout is a Klondike layout (stock face down, waste and foundations face
  up, foundations in suit from the Ace, each column's face-up part a run down in
  alternating colour over its face-down part, a non-empty column's top face up);
* the score and the balance obey the scoring option;
* the legal moves have distinct texts.

Every game ends within the cap with an outcome among won / lost / limit. A
subsample checks that undo after each move restores the previous state and move
list; another that the same seed (or the same ``deal_order``) gives the same game.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache
from typing import Any

import pytest

from cardrules import load_ruleset

MAX_MOVES = 300
TOTAL_GAMES = 1000
UNDO_EVERY = 10  # in each combination, every 10th game (0, 10, ...) also checks undo after each move
REPLAY_EVERY = 10  # in each combination, games 5, 15, ... are replayed for determinism
OUTCOMES = {"won", "lost", "limit"}

# (draw, scoring, cumulative)
COMBOS = [
    (1, "none", False),
    (1, "standard", False),
    (1, "vegas", False),
    (1, "vegas", True),
    (3, "none", False),
    (3, "standard", False),
    (3, "vegas", False),
    (3, "vegas", True),
]
COMBO_IDS = [f"draw{d}-{s}" + ("-cumulative" if c else "") for d, s, c in COMBOS]
SEEDS_BY_COMBO = {i: [s for s in range(TOTAL_GAMES) if s % len(COMBOS) == i] for i in range(len(COMBOS))}
assert sum(len(v) for v in SEEDS_BY_COMBO.values()) == TOTAL_GAMES

RED_SUITS = {"D", "H"}


@lru_cache(maxsize=None)
def ruleset(draw: int, scoring: str, cumulative: bool) -> Any:
    return load_ruleset("klondike", options={"draw": draw, "scoring": scoring, "cumulative": cumulative})


@lru_cache(maxsize=None)
def card_info(rules: Any) -> tuple[tuple[str, ...], tuple[int, ...], tuple[str, ...], tuple[bool, ...]]:
    codes = tuple(rules.deck.codes)
    ranks = tuple("A23456789TJQK".index(c[0]) + 1 for c in codes)
    suits = tuple(c[1] for c in codes)
    red = tuple(s in RED_SUITS for s in suits)
    return codes, ranks, suits, red


def start_balance(seed: int) -> int:
    return (seed % 7) * 10 - 20


def check_state(game: Any) -> None:
    """The invariants that hold after every move."""
    rules = game.rules
    state = game.state
    piles = state.piles
    up = state.up
    codes, ranks, suits, red = card_info(rules)
    zones = rules.zones

    # No card created or lost: every card of the deck in exactly one place.
    every = [c for p in piles for c in p]
    assert len(every) == 52 and sorted(every) == list(range(52)), Counter(every).most_common(3)

    # The view shows face-up cards by code and hides face-down ones.
    view = game.view(0)["zones"]
    for name, zone in zones.items():
        shown = [view[name]] if zone.single else view[name]
        assert len(shown) == len(zone.piles)
        for p, seen in zip(zone.piles, shown):
            pile = piles[p]
            assert len(seen) == len(pile)
            for card, code in zip(pile, seen):
                assert code == (codes[card] if up[card] else None), (name, codes[card], code)

    # A Klondike layout.
    for p in zones["stock"].piles:
        assert not any(up[c] for c in piles[p])
    for p in zones["waste"].piles:
        assert all(up[c] for c in piles[p])
    for p in zones["foundation"].piles:
        pile = piles[p]
        assert all(up[c] for c in pile)
        assert [ranks[c] for c in pile] == list(range(1, len(pile) + 1))
        assert len({suits[c] for c in pile}) <= 1
    for p in zones["tableau"].piles:
        pile = piles[p]
        if not pile:
            continue
        assert up[pile[-1]], "a column's top card is face up"
        k = len(pile)
        while k and up[pile[k - 1]]:
            k -= 1
        assert not any(up[c] for c in pile[:k]), "face-down cards lie under the face-up ones"
        run = pile[k:]
        for lower, upper in zip(run, run[1:]):
            assert ranks[upper] == ranks[lower] - 1 and red[upper] != red[lower]

    # Scoring.
    scoring = rules.option_values["scoring"]
    score = game.scores()[0]
    assert score == game.variable("score")
    on_foundations = sum(len(piles[p]) for p in zones["foundation"].piles)
    if scoring == "none":
        assert score == 0
    elif scoring == "vegas":
        assert score == -52 + 5 * on_foundations
        limit = 1 if rules.option_values["draw"] == 1 else 3
        assert 1 <= game.variable("passes") <= limit

    # Legal moves: distinct texts, none once the game is over.
    moves = [str(m) for m in game.legal_moves()]
    assert len(moves) == len(set(moves)), moves
    if game.is_over:
        assert moves == []


def undo_state(game: Any) -> tuple[Any, ...]:
    state = game.state
    return (tuple(tuple(p) for p in state.piles), bytes(state.up), tuple(state.vars), state.over,
            state.outcome, tuple(str(m) for m in game.legal_moves()), len(game.history))


def play_checked(draw: int, scoring: str, cumulative: bool, seed: int, check_undo: bool) -> Any:
    rules = ruleset(draw, scoring, cumulative)
    balance = start_balance(seed)
    game = rules.new_game(seed=seed, max_moves=MAX_MOVES, persisted={"balance": balance})
    rng = random.Random(seed)
    check_state(game)
    for _ in range(MAX_MOVES):
        if game.is_over:
            break
        moves = game.legal_moves()
        assert moves, "a game that is not over has a legal move"
        move = rng.choice(moves)
        before = undo_state(game) if check_undo else None
        game.apply(move)
        if check_undo:
            game.undo()
            assert undo_state(game) == before, f"seed {seed}: undo of {move} did not restore the state"
            game.apply(game.parse_move(str(move)))
        check_state(game)
        if not game.is_over:
            assert game.variable("balance") == balance
    assert game.is_over, f"seed {seed}: not over after {len(game.history)} moves"
    assert game.outcome in OUTCOMES, game.outcome
    assert len(game.history) <= MAX_MOVES
    if game.outcome == "limit":
        assert len(game.history) == MAX_MOVES
    if game.outcome == "won":
        assert all(len(game.state.piles[p]) == 13 for p in rules.zones["foundation"].piles)
    if game.outcome == "lost" and "cycle" not in game.reason:
        # Lost without a closed cycle of stock turns: no move was possible.
        assert game.reason == rules.no_moves_result[1]
    elif game.outcome == "lost":
        assert game.history[-1].name in ("draw", "redeal")  # a stock turn closed the cycle
    expected_balance = balance + game.scores()[0] if (cumulative and scoring == "vegas") else balance
    assert game.variable("balance") == expected_balance
    assert game.persistent_values() == {"balance": expected_balance}
    return game


@pytest.mark.parametrize(("draw", "scoring", "cumulative", "seeds"),
                         [(*combo, SEEDS_BY_COMBO[i]) for i, combo in enumerate(COMBOS)], ids=COMBO_IDS)
def test_random_play_invariants(draw: int, scoring: str, cumulative: bool, seeds: list[int]) -> None:
    outcomes: Counter[str] = Counter()
    for j, seed in enumerate(seeds):
        game = play_checked(draw, scoring, cumulative, seed, check_undo=j % UNDO_EVERY == 0)
        outcomes[game.outcome] += 1
    assert sum(outcomes.values()) == len(seeds)
    assert set(outcomes) <= OUTCOMES


def play_plain(game: Any, seed: int) -> tuple[list[str], list[int], str | None]:
    rng = random.Random(seed)
    while not game.is_over:
        game.apply(rng.choice(game.legal_moves()))
    return [str(m) for m in game.history], game.scores(), game.outcome


@pytest.mark.parametrize(("draw", "scoring", "cumulative"), COMBOS, ids=COMBO_IDS)
def test_the_same_seed_gives_the_same_game(draw: int, scoring: str, cumulative: bool) -> None:
    rules = ruleset(draw, scoring, cumulative)
    index = COMBOS.index((draw, scoring, cumulative))
    seeds = SEEDS_BY_COMBO[index][REPLAY_EVERY // 2::REPLAY_EVERY]
    assert len(seeds) >= 12
    for seed in seeds:
        first = rules.new_game(seed=seed, max_moves=MAX_MOVES)
        second = rules.new_game(seed=seed, max_moves=MAX_MOVES)
        assert first.deal_order == second.deal_order
        from_deal = rules.new_game(deal=first.deal_order, max_moves=MAX_MOVES)
        assert from_deal.deal_order == first.deal_order
        assert [str(m) for m in from_deal.legal_moves()] == [str(m) for m in first.legal_moves()]
        assert from_deal.view(0) == first.view(0)
        a = play_plain(first, seed)
        b = play_plain(second, seed)
        c = play_plain(from_deal, seed)
        assert a == b, f"seed {seed}: two runs of the same seed differ"
        assert a == c, f"seed {seed}: the deal_order replay differs from the seeded game"


def test_seeds_give_different_shuffles_of_the_whole_deck() -> None:
    rules = ruleset(1, "standard", False)
    orders = {tuple(rules.new_game(seed=seed).deal_order) for seed in range(200)}
    assert len(orders) == 200
    assert all(sorted(order) == sorted(rules.deck.codes) for order in orders)
    # The deck itself does not depend on the options.
    assert ruleset(3, "vegas", True).new_game(seed=7).deal_order == rules.new_game(seed=7).deal_order
