"""Cascades invariants over many seeded random games: version 1 and version 2, basic and
extended decks (500 games each).

After every move: every card of the deck is in exactly one pile (none created or lost),
a card in a tier never leaves it (tiers only grow), and face-down cards are hidden
(None) in the player's view. Every game ends (won, lost or at the move limit), and a
seed, or the deal it made, gives the same game again.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

import pytest

from cardrules import load_ruleset
from cardrules.agents.bots import make_bot

GAMES = 500
VARIANTS = [("cascades", False), ("cascades", True), ("cascades-v2", False), ("cascades-v2", True)]
IDS = ["v1-basic", "v1-extended", "v2-basic", "v2-extended"]
OUTCOMES = {"won", "lost", "limit"}
# Random games stop here: a random player may draw on past a card it could play, and a game is
# lost only when a whole cycle through the deck could play nothing, so such games run long.
MAX_MOVES = 150


@lru_cache(maxsize=None)
def rules_for(name: str, extended: bool) -> Any:
    return load_ruleset(name, options={"extended": extended})


def tiers(game: Any) -> list[list[int]]:
    return [list(game.state.piles[p]) for p in game.rules.zones["tier"].piles]


def check_position(game: Any, whole_deck: list[int]) -> None:
    state = game.state
    # No card created or lost: the piles hold the whole deck, each card once.
    assert sorted(c for pile in state.piles for c in pile) == whole_deck
    # Face-down cards are hidden in the view; face-up cards are shown by code.
    codes = game.rules.deck.codes
    view = game.view(0)["zones"]
    for name, zone in game.rules.zones.items():
        shown = [view[name]] if zone.single else view[name]
        for pile_id, seen in zip(zone.piles, shown):
            cards = state.piles[pile_id]
            assert len(seen) == len(cards)
            for card, entry in zip(cards, seen):
                assert entry == (codes[card] if state.up[card] else None), (name, codes[card])
    for entry in view["stock"]:
        assert entry is None
    for row in view["tier"]:
        assert None not in row
    assert None not in view["waste"]


def play_checked(rules: Any, seed: int) -> Any:
    """A random game (the random bot, seeded with the game's seed), checked after every move."""
    game = rules.new_game(seed=seed, max_moves=MAX_MOVES)
    bot = make_bot("random", seed)
    whole_deck = list(range(len(rules.deck)))
    check_position(game, whole_deck)
    before = tiers(game)
    limit = game.max_moves
    while not game.is_over:
        assert len(game.history) < limit
        game.apply(bot.choose(game))
        after = tiers(game)
        for old, new in zip(before, after):
            assert new[:len(old)] == old, "a card left a tier"
        before = after
        check_position(game, whole_deck)
    assert game.outcome in OUTCOMES
    assert game.legal_moves() == []
    if game.outcome == "won":
        assert game.scores()[0] == sum(len(t) for t in tiers(game))
        placed = sum(len(t) for t in tiers(game))
        assert placed == len(rules.deck) - (6 if "aces" in rules.zones else 0)
    return game


def fingerprint(game: Any) -> tuple[Any, ...]:
    return (tuple(game.deal_order), tuple(str(m) for m in game.history), game.outcome, game.reason,
            tuple(tuple(p) for p in game.state.piles), tuple(game.scores()))


@pytest.mark.parametrize(("name", "extended"), VARIANTS, ids=IDS)
def test_random_games_keep_every_card_grow_tiers_hide_face_down_cards_and_end(name: str, extended: bool) -> None:
    rules = rules_for(name, extended)
    outcomes: dict[str, int] = {}
    for seed in range(GAMES):
        game = play_checked(rules, seed)
        outcomes[game.outcome] = outcomes.get(game.outcome, 0) + 1
    assert sum(outcomes.values()) == GAMES
    assert set(outcomes) <= OUTCOMES


def replay(rules: Any, seed: int, deal: list[str] | None = None) -> Any:
    game = rules.new_game(seed=seed, max_moves=MAX_MOVES) if deal is None else \
        rules.new_game(deal=deal, max_moves=MAX_MOVES)
    bot = make_bot("random", seed)
    while not game.is_over:
        game.apply(bot.choose(game))
    return game


@pytest.mark.parametrize(("name", "extended"), VARIANTS, ids=IDS)
def test_the_same_seed_gives_the_same_game(name: str, extended: bool) -> None:
    rules = rules_for(name, extended)
    for seed in random.Random(2024).sample(range(GAMES), 25):
        first = replay(rules, seed)
        assert fingerprint(replay(rules, seed)) == fingerprint(first)
        # Dealt from the first game's deal order, the same bot plays the same game.
        assert fingerprint(replay(rules, seed, deal=list(first.deal_order))) == fingerprint(first)
        # A fresh load of the ruleset deals the same.
        assert load_ruleset(name, options={"extended": extended}).new_game(seed=seed).deal_order == first.deal_order


@pytest.mark.parametrize(("name", "extended"), VARIANTS, ids=IDS)
def test_undo_restores_the_position_in_random_games(name: str, extended: bool) -> None:
    rules = rules_for(name, extended)
    for seed in range(0, GAMES, 25):
        game = rules.new_game(seed=seed, max_moves=MAX_MOVES)
        bot = make_bot("random", seed)
        while not game.is_over:
            snap = (tuple(tuple(p) for p in game.state.piles), bytes(game.state.up), tuple(game.state.vars),
                    tuple(str(m) for m in game.legal_moves()))
            move = bot.choose(game)
            game.apply(move)
            game.undo()
            assert (tuple(tuple(p) for p in game.state.piles), bytes(game.state.up), tuple(game.state.vars),
                    tuple(str(m) for m in game.legal_moves())) == snap
            assert not game.is_over
            game.apply(game.parse_move(str(move)))


@pytest.mark.parametrize(("name", "extended"), VARIANTS, ids=IDS)
def test_greedy_games_end_too(name: str, extended: bool) -> None:
    rules = rules_for(name, extended)
    for seed in range(40):
        game = rules.new_game(seed=seed)
        bot = make_bot("greedy", seed)
        whole_deck = list(range(len(rules.deck)))
        while not game.is_over:
            game.apply(bot.choose(game))
        check_position(game, whole_deck)
        assert game.outcome in OUTCOMES
