"""Bots decide from their seat's view only.

Two games that differ only in cards a seat cannot see must get the same decision from a bot of
the same kind and seed. The second game is made two ways:

- ``game.determinize(seat, rng)``: every card the seat cannot see dealt anew among the places of
  the hidden cards (checked first: visible cards stay in place, faces and the multiset of cards
  are kept, the seat's view is unchanged, the original game is untouched, and the hidden cards
  do move for some seeds, so the comparison is not vacuous);
- two explicit deals: the second deal swaps two cards the seat cannot see (for Ten Bucks with
  three or more players, one bill from each of two other seats' hands; for Klondike two
  face-down cards). Both games are then played in lockstep, the observing seat by its bot in
  each game, while the seat's views agree.

For the random and the greedy bot, over seeded games of every Ten Bucks ruleset (2 to 6
players) and of Klondike (face-down cards and stock hidden).
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

import pytest

from cardrules import load_ruleset
from cardrules.agents.bots import make_bot
from helpers import TEN_BUCKS_RULESETS

TEN_BUCKS = TEN_BUCKS_RULESETS
RULESETS = TEN_BUCKS + ["klondike"]
BOTS = ["random", "greedy"]
GAMES = 60  # seeded games per ruleset (and bot)
KLONDIKE_MOVES = 120  # positions looked at per Klondike game (random Klondike games run long)


@lru_cache(maxsize=None)
def rules_for(name: str) -> Any:
    return load_ruleset(name)


def new_game(name: str, seed: int) -> Any:
    rules = rules_for(name)
    if rules.max_players == 1:
        return rules.new_game(seed=seed)
    return rules.new_game(seed=seed, players=2 + seed % 5)


def positions(name: str, seed: int) -> Any:
    """The positions of a seeded random game (a seeded random choice among the legal moves)."""
    game = new_game(name, seed)
    driver = random.Random(10_000 + seed)
    limit = KLONDIKE_MOVES if name == "klondike" else None
    while not game.is_over and (limit is None or len(game.history) < limit):
        yield game
        game.apply(driver.choice(game.legal_moves()))


def snapshot(game: Any) -> tuple[Any, ...]:
    S = game.state
    return (tuple(tuple(p) for p in S.piles), bytes(S.up), tuple(S.vars), S.current, S.phase, S.over,
            tuple(str(m) for m in game.history), tuple(str(m) for m in game.legal_moves()))


def hidden_slots(game: Any, seat: int) -> list[tuple[int, int]]:
    """(pile, index) of every card `seat` cannot see, by the zones' visibility (not `game.visible`)."""
    rules, S = game.rules, game.state
    out = []
    for pile, cards in enumerate(S.piles):
        zone = rules.zones[rules.pile_zone[pile]]
        for i, card in enumerate(cards):
            if zone.visibility == "all":
                continue
            if zone.visibility == "owner" and rules.pile_owner[pile] == seat:
                continue
            if zone.visibility != "none" and S.up[card]:
                continue
            out.append((pile, i))
    return out


def layout(game: Any, slots: list[tuple[int, int]]) -> list[str]:
    codes = game.rules.deck.codes
    return [codes[game.state.piles[p][i]] for p, i in slots]


def check_determinized(game: Any, other: Any, seat: int) -> None:
    """`other` is `game` with only the cards `seat` cannot see dealt anew."""
    S, T = game.state, other.state
    hidden = set(hidden_slots(game, seat))
    assert sorted(c for p in S.piles for c in p) == sorted(c for p in T.piles for c in p), "cards created or lost"
    assert [len(p) for p in S.piles] == [len(p) for p in T.piles]
    for pile, cards in enumerate(S.piles):
        for i, card in enumerate(cards):
            moved = T.piles[pile][i]
            assert T.up[moved] == S.up[card], "a face changed"
            if (pile, i) not in hidden:
                assert moved == card, f"the visible {game.rules.deck.codes[card]} moved"
    assert tuple(T.vars) == tuple(S.vars)
    assert (T.current, T.phase, T.frames) == (S.current, S.phase, S.frames)
    assert other.view(seat) == game.view(seat)  # with the legal moves, when `seat` is to move


@pytest.mark.parametrize("name", RULESETS)
def test_determinize_keeps_visible_cards_faces_and_the_multiset_and_moves_hidden_cards(name: str) -> None:
    mixed = changed = same_seed_same = 0
    for seed in range(GAMES):
        for step, game in enumerate(positions(name, seed)):
            if step % 3:
                continue
            for seat in range(game.players):
                before = snapshot(game)
                other = game.determinize(seat, random.Random(seed * 7919 + step))
                assert snapshot(game) == before, "determinize changed the game itself"
                check_determinized(game, other, seat)
                again = game.determinize(seat, random.Random(seed * 7919 + step))
                same_seed_same += again.state.piles == other.state.piles
                slots = hidden_slots(game, seat)
                if len(set(layout(game, slots))) >= 2:
                    mixed += 1
                    changed += layout(other, slots) != layout(game, slots)
    assert same_seed_same > 0 and mixed > 0
    # Not vacuous: where at least two different hidden cards exist, the guess mostly differs.
    assert changed > mixed // 2, (changed, mixed)
    print(f"\n{name}: {mixed} determinized views with mixed hidden cards, {changed} changed")


@pytest.mark.parametrize("kind", BOTS)
@pytest.mark.parametrize("name", RULESETS)
def test_a_bot_decides_the_same_in_a_determinized_copy(name: str, kind: str) -> None:
    """The copy differs from the game only in cards the seat to move cannot see."""
    compared = differing = 0
    for seed in range(GAMES):
        for step, game in enumerate(positions(name, seed)):
            seat = game.current_player
            other = game.determinize(seat, random.Random(seed * 104729 + step))
            slots = hidden_slots(game, seat)
            differing += layout(other, slots) != layout(game, slots)
            # What the bot imagines depends only on the view: both games give the same copy.
            guess = game.determinize(seat, random.Random(step)).state
            assert other.determinize(seat, random.Random(step)).state.piles == guess.piles
            bot_seed = seed * 1000 + step
            here = make_bot(kind, bot_seed).choose(game)
            there = make_bot(kind, bot_seed).choose(other)
            assert here.key() == there.key(), (name, kind, seed, step, str(here), str(there))
            compared += 1
    assert compared > 0
    assert differing > compared // 4, (differing, compared)
    print(f"\n{name} {kind}: {compared} decisions compared, {differing} with hidden cards moved")


class PeekingBot:
    """A bot that cheats: it picks a legal move by the cards its seat cannot see."""

    name = "peeking"

    def choose(self, game: Any) -> Any:
        moves = game.legal_moves()
        hidden = [game.state.piles[p][i] for p, i in hidden_slots(game, game.current_player)]
        return moves[sum(k * card for k, card in enumerate(hidden)) % len(moves)]


@pytest.mark.parametrize("name", ["ten-bucks", "klondike"])
def test_the_comparison_catches_a_bot_that_peeks_at_hidden_cards(name: str) -> None:
    """The comparison above is not vacuous: a bot reading hidden cards is caught."""
    caught = 0
    for seed in range(10):
        for step, game in enumerate(positions(name, seed)):
            if len(game.legal_moves()) < 2:
                continue
            other = game.determinize(game.current_player, random.Random(step))
            caught += str(PeekingBot().choose(game)) != str(PeekingBot().choose(other))
    assert caught > 0


def swapped_deal(game: Any, seat: int, rng: random.Random) -> list[str] | None:
    """The game's deal with two cards `seat` cannot see swapped (of different codes), or None.

    For Ten Bucks with three or more players the two come from two different other seats' hands.
    """
    rules, S = game.rules, game.state
    codes = rules.deck.codes
    slots = hidden_slots(game, seat)
    if rules.max_players > 1 and game.players >= 3:
        owners = sorted({rules.pile_owner[p] for p, _ in slots})
        first, second = rng.sample(owners, 2)
        a = [(p, i) for p, i in slots if rules.pile_owner[p] == first]
        b = [(p, i) for p, i in slots if rules.pile_owner[p] == second]
        pairs = [(x, y) for x in a for y in b]
    else:
        pairs = [(x, y) for k, x in enumerate(slots) for y in slots[k + 1:]]
    pairs = [(x, y) for x, y in pairs if codes[S.piles[x[0]][x[1]]] != codes[S.piles[y[0]][y[1]]]]
    if not pairs:
        return None
    (p, i), (q, j) = rng.choice(pairs)
    order = list(game.deal_order)  # top of the deck first, as S.deck_order
    x, y = S.deck_order.index(S.piles[p][i]), S.deck_order.index(S.piles[q][j])
    order[x], order[y] = order[y], order[x]
    return order


@pytest.mark.parametrize("kind", BOTS)
@pytest.mark.parametrize("name", RULESETS)
def test_a_bot_decides_the_same_after_a_deal_that_swaps_hidden_cards(name: str, kind: str) -> None:
    """Seat 1 (index 0) watches; its bot plays it in both games, the other seats play the same moves."""
    seat = 0
    compared = 0
    for seed in range(GAMES):
        first = new_game(name, seed)
        rng = random.Random(seed)
        order = swapped_deal(first, seat, rng)
        assert order is not None
        if first.players > 1:
            second = first.rules.new_game(deal=order, players=first.players)
        else:
            second = first.rules.new_game(deal=order)
        # The deals differ, in places the seat cannot see; its views agree.
        assert second.deal_order != first.deal_order
        assert [[first.rules.deck.codes[c] for c in p] for p in first.state.piles] != \
               [[second.rules.deck.codes[c] for c in p] for p in second.state.piles]
        assert second.view(seat) == first.view(seat)
        bot_first, bot_second = make_bot(kind, seed), make_bot(kind, seed)
        others = random.Random(20_000 + seed)
        while not first.is_over and len(first.history) < (KLONDIKE_MOVES if name == "klondike" else 10**6):
            if first.view(seat) != second.view(seat):
                break  # a swapped card has come into view: the games now differ visibly
            if first.current_player == seat:
                here, there = bot_first.choose(first), bot_second.choose(second)
                assert str(here) == str(there), (name, kind, seed, len(first.history), str(here), str(there))
                compared += 1
                text = str(here)
            else:
                common = [str(m) for m in first.legal_moves() if str(m) in {str(n) for n in second.legal_moves()}]
                if not common:
                    break
                text = others.choice(common)
            first.apply(first.parse_move(text))
            second.apply(second.parse_move(text))
    assert compared >= GAMES, compared
    print(f"\n{name} {kind}: {compared} decisions compared after swapped deals")
