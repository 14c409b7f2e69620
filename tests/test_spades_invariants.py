"""Spades invariants over 500 seeded games (rulesets/spades.yaml), over its match targets.

The matches to 500 and 300 bid at random (most end when a side falls to -200, after a hand or
two); those to 200 and 100 bid two to four tricks a seat, so that sides make their contracts and
matches run over several hands to the target. The play is random. After every move: every card is in exactly one pile; the cards
a seat may play are those the rules allow, computed here apart from the ruleset (follow suit;
spades not led before they are broken unless the hand holds only spades); each seat's tricks
taken match its pile of taken cards; partners hold the same total and bags; every seat's view
shows its own hand, the trick and the taken cards, and no card of another seat's hand. Every
match ends (never at the move limit) with the side of the higher total winning.
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import pytest

from cardrules import load_ruleset

GAMES = 500
# (target, whether the seats bid two to four rather than at random)
MATCHES = [(500, False), (300, False), (200, True), (100, True)]


@cache
def rules_for(target: int) -> Any:
    return load_ruleset("spades", options={"target": target})


def expected_plays(game: Any) -> set[int]:
    """The cards the seat to act may play, by the rules (not by the ruleset's expressions)."""
    rules, state = game.rules, game.state
    rank, suit = rules.deck.attribute_table("rank"), rules.deck.attribute_table("suit")
    seat = game.current_player
    hand = state.piles[rules.zones["hand"].seat_piles[seat][0]]
    trick = state.piles[rules.zones["trick"].piles[0]]
    if trick:
        led = suit[trick[0]]
        following = [c for c in hand if suit[c] == led]
        return set(following or hand)
    if game.variable("broken") or all(suit[c] == "spades" for c in hand):
        return set(hand)
    assert rank  # (ranks do not matter for what may be led)
    return {c for c in hand if suit[c] != "spades"}


def check_position(game: Any, views: bool = True) -> None:
    rules, state = game.rules, game.state
    zones = rules.zones
    assert sorted(c for pile in state.piles for c in pile) == list(range(52))
    variables = [[game.variable(name, s) for s in range(4)] for name in ("points", "bags", "tricks")]
    points, bags, tricks = variables
    assert points[0] == points[2] and points[1] == points[3]
    assert bags[0] == bags[2] and bags[1] == bags[3] and all(0 <= b < 10 for b in bags)
    for seat in range(4):
        assert len(state.piles[zones["taken"].seat_piles[seat][0]]) == 4 * tricks[seat]
    trick = state.piles[zones["trick"].piles[0]]
    assert len(trick) < 4 and all(state.up[c] for c in trick)
    hands = [len(state.piles[zones["hand"].seat_piles[s][0]]) for s in range(4)]
    assert 4 * sum(tricks) + len(trick) + sum(hands) == 52
    if not game.is_over and not game.variable("bidding"):
        assert {m.pick for m in game.legal_moves()} == expected_plays(game)
    for seat in range(4 if views else 0):
        view = game.view(seat)["zones"]
        for other, shown in enumerate(view["hand"]):
            assert (None not in shown) if other == seat else all(card is None for card in shown)
        assert None not in view["trick"] and all(None not in taken for taken in view["taken"])


def choose(game: Any, rng: random.Random, careful: bool) -> Any:
    moves = game.legal_moves()
    if careful and game.variable("bidding"):
        wanted = f"bid {rng.randint(2, 4)}"
        return next(m for m in moves if m.text() == wanted)
    return rng.choice(moves)


@pytest.mark.parametrize(("target", "careful"), MATCHES, ids=[f"to{t}" for t, _ in MATCHES])
def test_spades_invariants_hold_over_seeded_matches(target: int, careful: bool) -> None:
    rules = rules_for(target)
    reasons = set()
    longest = 0
    for seed in range(GAMES // len(MATCHES)):
        game = rules.new_game(seed=seed)
        rng = random.Random(seed)
        check_position(game)
        while not game.is_over:
            game.apply(choose(game, rng, careful))
            # The views at every position of the first hand, then at every seventh of the next
            # nine (a view holds the record of every move made: checking all would cost the square).
            made = len(game.history)
            check_position(game, views=made <= 56 or made % 7 == 0 and made <= 560)
        check_position(game)
        assert game.outcome == "over", (seed, game.reason)
        points = [game.variable("points", s) for s in range(4)]
        best = max(points)
        assert game.winners() == [s for s in range(4) if points[s] == best]
        if game.reason == "a side reached the target":
            assert best >= target and points[0] != points[1]
        else:
            assert game.reason == "a side fell to -200" and min(points) <= -200
        reasons.add(game.reason)
        longest = max(longest, game.variable("hands"))
    if careful:
        assert reasons == {"a side reached the target", "a side fell to -200"}
        assert longest >= 5  # matches of several hands were played
    else:
        assert "a side fell to -200" in reasons and longest >= 3
