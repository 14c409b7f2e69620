"""Crazy Eights invariants over 500 seeded random matches (rulesets/crazy-eights.yaml), 2 to 5
players, short matches (targets 1, 50 and 100: one hand to a few).

The test keeps its own account of the game, apart from the ruleset's expressions: the suit to
follow (the starter's, then each card's, or the suit an eight named, read from the move's text)
and, before every move, what the move will leave (the mover's hand less the card played or plus
the card drawn). After every move: every card is in exactly one pile; the ruleset's suit to follow
is the test's; the legal moves are exactly those the rules allow (a card of the suit to follow or
of the top card's rank; any eight, naming each of the four suits; else a draw while the stock
lasts; else a pass while another seat can play); a hand ends exactly when a seat has emptied its
hand or the stock is empty and nobody can play, and then the seats with the fewest penalty points
in hand score the difference from each other seat; a new hand is dealt (the right number of cards
each, a starter that is not an eight, the next seat to play first) unless a total has reached the
target; every seat's view shows its own hand and the discard pile, and no card of another seat's
hand nor of the stock (at every position of a match's first 60 moves, then at every fourth: a
view holds the whole record of moves). Every match ends (never at the move limit) with the highest
total winning.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import cache
from typing import Any

import pytest

from cardrules import load_ruleset

GAMES = 500
PLAYERS = [2, 3, 4, 5]
TARGETS = [1, 50, 100]
SUIT_NAMES = ["clubs", "diamonds", "hearts", "spades"]


@cache
def rules_for(target: int) -> Any:
    return load_ruleset("crazy-eights", options={"target": target})


class Account:
    """The test's own reading of a game: card attributes, piles, and the suit to follow."""

    def __init__(self, game: Any) -> None:
        self.game = game
        rules = game.rules
        self.rank = rules.deck.attribute_table("rank")
        self.suit = rules.deck.attribute_table("suit")
        self.codes = rules.deck.codes
        self.hand_piles = [rules.zones["hand"].seat_piles[s][0] for s in range(game.players)]
        self.stock_pile = rules.zones["stock"].piles[0]
        self.discard_pile = rules.zones["discard"].piles[0]
        self.follow = self.suit[self.top()]

    def hands(self) -> list[list[int]]:
        return [list(self.game.state.piles[p]) for p in self.hand_piles]

    def stock(self) -> list[int]:
        return list(self.game.state.piles[self.stock_pile])

    def top(self) -> int:
        return self.game.state.piles[self.discard_pile][-1]

    def points(self, cards: list[int]) -> int:
        return sum(50 if self.rank[c] == 8 else min(self.rank[c], 10) for c in cards)

    def fits(self, card: int, top: int, follow: str) -> bool:
        return self.rank[card] == 8 or self.suit[card] == follow or self.rank[card] == self.rank[top]

    def can_play(self, hand: list[int], top: int, follow: str) -> bool:
        return any(self.fits(c, top, follow) for c in hand)

    def expected_moves(self) -> set[str]:
        """The legal moves' texts, by the rules."""
        game = self.game
        seat = game.current_player
        hands, top = self.hands(), self.top()
        mine, at = hands[seat], f"h@{seat + 1}"
        moves = {f"play:{at}:{self.codes[c]}>d" for c in mine if self.rank[c] != 8 and self.fits(c, top, self.follow)}
        moves |= {f"eight:{at}:{self.codes[c]}>d {suit}" for c in mine if self.rank[c] == 8 for suit in SUIT_NAMES}
        if moves:
            return moves
        if self.stock():
            return {f"s>{at}"}
        assert any(self.can_play(hands[s], top, self.follow) for s in range(game.players) if s != seat)
        return {"pass"}


def check_views(game: Any, account: Account) -> None:
    hands = account.hands()
    for seat in range(game.players):
        view = game.view(seat)["zones"]
        assert view["stock"] == [None] * len(account.stock())
        assert view["discard"] == [account.codes[c] for c in game.state.piles[account.discard_pile]]
        for other, shown in enumerate(view["hand"]):
            if other == seat:
                assert shown == [account.codes[c] for c in hands[other]]
            else:
                assert shown == [None] * len(hands[other])


def play_match(rules: Any, seed: int, players: int, target: int, tally: Counter[str]) -> Any:
    game = rules.new_game(seed=seed, players=players)
    rng = random.Random(seed)
    account = Account(game)
    size = 7 if players == 2 else 5
    hands_dealt = 1
    assert game.current_player == 0 and game.variable("hands") == 1
    while not game.is_over:
        assert sorted(c for pile in game.state.piles for c in pile) == list(range(52))
        assert game.variable("wanted") == account.follow
        assert {m.text() for m in game.legal_moves()} == account.expected_moves()
        if len(game.history) <= 60 or len(game.history) % 4 == 0:  # (a view holds the whole record)
            check_views(game, account)
        # What the move will leave, by the rules.
        seat = game.current_player
        hands, stock, top = account.hands(), account.stock(), account.top()
        totals = [game.variable("total", s) for s in range(players)]
        move = rng.choice(game.legal_moves())
        text = move.text()
        follow = account.follow
        if move.name in ("play", "eight"):
            hands[seat].remove(move.pick)
            top = move.pick
            follow = text.split()[-1] if move.name == "eight" else account.suit[move.pick]
        elif move.name == "draw":
            hands[seat].append(stock.pop())
        else:
            assert text == "pass"
        over = any(not h for h in hands) or not stock and not any(account.can_play(h, top, follow) for h in hands)
        game.apply(move)
        if not over:
            account.follow = follow
            assert [game.variable("total", s) for s in range(players)] == totals
            assert game.variable("hands") == hands_dealt
            assert game.current_player == (seat if move.name == "draw" else (seat + 1) % players)
            continue
        # The hand is over: the fewest points in hand score the difference from each other seat.
        held = [account.points(h) for h in hands]
        tally["hands"] += 1
        tally["blocked"] += all(hands)
        low = min(held)
        gains = [sum(held) - players * low if held[s] == low else 0 for s in range(players)]
        assert [game.variable("total", s) for s in range(players)] == [t + g for t, g in zip(totals, gains)]
        if any(not h for h in hands):
            assert gains == [sum(held) if not hands[s] else 0 for s in range(players)]
        if max(t + g for t, g in zip(totals, gains)) >= target:
            assert game.is_over
            break
        hands_dealt += 1
        assert game.variable("hands") == hands_dealt and game.current_player == (hands_dealt - 1) % players
        assert [len(h) for h in account.hands()] == [size] * players
        assert len(game.state.piles[account.discard_pile]) == 1 and account.rank[account.top()] != 8
        assert len(account.stock()) == 52 - size * players - 1
        account.follow = account.suit[account.top()]
    assert sorted(c for pile in game.state.piles for c in pile) == list(range(52))
    check_views(game, account)
    return game


@pytest.mark.parametrize("players", PLAYERS)
def test_crazy_eights_invariants_hold_over_seeded_matches(players: int) -> None:
    tally: Counter[str] = Counter()
    longest = 0
    for seed in range(GAMES // len(PLAYERS)):
        target = TARGETS[seed % len(TARGETS)]
        game = play_match(rules_for(target), seed, players, target, tally)
        assert game.outcome == "over" and game.reason == "a seat reached the target", (seed, game.reason)
        totals = [game.variable("total", s) for s in range(players)]
        assert max(totals) >= target
        assert game.winners() == [s for s in range(players) if totals[s] == max(totals)]
        longest = max(longest, game.variable("hands"))
    assert tally["hands"] > GAMES // len(PLAYERS) and longest >= 3  # matches of several hands were played
    assert tally["blocked"] >= 1  # hands that ended with the stock empty and nobody able to play
