"""Euchre invariants over 500 seeded random matches (rulesets/euchre.yaml), short ones (to 3 and to
5 points), with and without "stick the dealer".

The test follows each hand itself, from the moves made, apart from the ruleset's expressions: who
deals and speaks, the suit turned up, the trump made, the maker and a lone maker's partner, each
trick's cards and who played them. After every move it checks:
- every one of the 24 cards lies in exactly one pile;
- the seat to act is the one the rules name (round the table from the dealer's left while trump
  is made; the dealer, to discard, when it took the turned card; the leader and the seats after
  it, a lone maker's partner passed over; a trick's winner leads the next);
- the legal moves are the ones the rules allow, computed here: the turned card's suit or a pass
  in round 1, any other suit in round 2 (no pass for a stuck dealer), any card of the dealer's six
  to discard, and in the play the cards that follow the suit led, the left bower following trump
  and not its printed suit (any card without one);
- no seat's view shows another seat's hand (a lone maker's partner's included), the three cards
  left in the pack, or the dealer's discard (nor does the record of moves name it to them);
- when a hand ends, the side the scoring names gains what it says (makers with 3 or 4 tricks 1,
  all 5 2, alone all 5 4; makers with fewer than 3 euchred: the defenders 2), and a hand thrown
  in scores nothing.
Every match ends (never at the move limit) with the side that reached the target winning.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import pytest

from cardrules import load_ruleset

GAMES = 500
MATCHES = [(3, False), (3, True), (5, False), (5, True)]  # (target, stick the dealer)
SUITS = ("clubs", "diamonds", "hearts", "spades")
RED = {"diamonds", "hearts"}


@cache
def rules_for(target: int, stick: bool) -> Any:
    return load_ruleset("euchre", options={"target": target, "stick": stick})


@dataclass
class Hand:
    """One hand as the rules run it, followed from the moves made."""

    dealer: int
    turned: int  # the card turned up
    kitty: frozenset[int]  # the three cards left in the pack
    speaker: int = 0  # the seat to speak while trump is made
    round: int = 1
    trump: str | None = None
    maker: int = -1
    out: int = -1  # a lone maker's partner
    discarding: bool = False
    discarded: int | None = None
    trick: list[tuple[int, int]] = field(default_factory=list)  # (seat, card), in the order played
    to_play: int = -1
    made: int = 0
    tricks: int = 0

    def __post_init__(self) -> None:
        self.speaker = (self.dealer + 1) % 4

    def next_seat(self, seat: int) -> int:
        seat = (seat + 1) % 4
        return (seat + 1) % 4 if seat == self.out else seat


def new_hand(game: Any, dealer: int) -> Hand:
    rules, state = game.rules, game.state
    up = state.piles[rules.zones["up"].piles[0]]
    pack = state.piles[rules.zones["pack"].piles[0]]
    assert len(up) == 1 and state.up[up[0]] and len(pack) == 3
    return Hand(dealer, up[0], frozenset(pack))


def attributes(game: Any, card: int) -> tuple[int, str]:
    info = game.rules.deck.cards[card]
    return info["rank"], info["suit"]


def suit_in_play(game: Any, card: int, trump: str) -> str:
    """A card's suit in the play: both jacks of trump's colour are trumps."""
    rank, suit = attributes(game, card)
    return trump if rank == 11 and (suit in RED) == (trump in RED) else suit


def power(game: Any, card: int, led: str, trump: str) -> int:
    rank, suit = attributes(game, card)
    high = 14 if rank == 1 else rank
    if suit_in_play(game, card, trump) == trump:
        return 100 + (16 if rank == 11 and suit == trump else 15 if rank == 11 else high)
    return 50 + high if suit == led else high


def expected_moves(game: Any, hand: Hand, stick: bool) -> set[str] | set[int]:
    """The texts of the moves allowed while trump is made; else the card ids that may go."""
    rules, state = game.rules, game.state
    held = list(state.piles[rules.zones["hand"].seat_piles[game.current_player][0]])
    if hand.trump is None:
        turned = attributes(game, hand.turned)[1]
        suits = [turned] if hand.round == 1 else [s for s in SUITS if s != turned]
        texts = {f"{how} {suit}" for how in ("call", "alone") for suit in suits}
        stuck = stick and hand.round == 2 and game.current_player == hand.dealer
        return texts if stuck else texts | {"pass"}
    if hand.discarding:
        return set(held)
    if not hand.trick:
        return set(held)
    led = suit_in_play(game, hand.trick[0][1], hand.trump)
    following = [c for c in held if suit_in_play(game, c, hand.trump) == led]
    return set(following or held)


def check_moves(game: Any, hand: Hand, stick: bool) -> None:
    moves = game.legal_moves()
    expected = expected_moves(game, hand, stick)
    if hand.trump is None:
        assert game.current_player == hand.speaker
        assert {m.text() for m in moves} == expected
    elif hand.discarding:
        assert game.current_player == hand.dealer
        assert {m.name for m in moves} == {"discard"} and {m.pick for m in moves} == expected
    else:
        assert game.current_player == hand.to_play != hand.out
        assert {m.name for m in moves} == {"play"} and {m.pick for m in moves} == expected


def check_position(game: Any, hand: Hand) -> None:
    rules, state = game.rules, game.state
    assert sorted(c for pile in state.piles for c in pile) == list(range(24))
    hands = [state.piles[rules.zones["hand"].seat_piles[s][0]] for s in range(4)]
    trick = state.piles[rules.zones["trick"].piles[0]]
    assert [c for _, c in hand.trick] == list(trick) and all(state.up[c] for c in trick)
    for seat in range(4):
        view = game.view(seat)
        zones = view["zones"]
        for other, shown in enumerate(zones["hand"]):
            if other == seat:
                assert sorted(shown) == sorted(rules.deck.codes[c] for c in hands[seat])
            else:
                assert shown == [None] * len(hands[other])
        secret = set(hand.kitty) | ({hand.discarded} if hand.discarded is not None and seat != hand.dealer else set())
        assert not {rules.deck.codes[c] for c in secret} & set(zones["pack"])


def points_of(game: Any) -> list[int]:
    return [game.variable("score", s) for s in range(2)]


def hand_points(hand: Hand) -> list[int]:
    """What the hand gives each side (0: seats 1 and 3; 1: seats 2 and 4)."""
    if hand.trump is None:
        return [0, 0]  # thrown in
    side = hand.maker % 2
    if hand.made < 3:
        gains = {1 - side: 2}
    else:
        gains = {side: 1 if hand.made < 5 else 4 if hand.out >= 0 else 2}
    return [gains.get(0, 0), gains.get(1, 0)]


def follow(game: Any, hand: Hand, move: Any) -> bool:
    """Update `hand` for `move`, made by the seat to act (before it is applied); True when the
    hand ends with it."""
    seat = game.current_player
    if move.name == "pass":
        hand.speaker = (seat + 1) % 4
        if seat == hand.dealer:
            hand.round += 1
        return hand.round == 3
    if move.name in ("call", "alone"):
        hand.trump, hand.maker = move.text().split()[1], seat
        hand.out = (seat + 2) % 4 if move.name == "alone" else -1
        hand.discarding = hand.round == 1 and hand.out != hand.dealer
        hand.to_play = hand.next_seat(hand.dealer)
        return False
    if move.name == "discard":
        hand.discarding, hand.discarded = False, move.pick
        return False
    trump = hand.trump
    assert move.name == "play" and trump is not None
    hand.trick.append((seat, move.pick))
    hand.to_play = hand.next_seat(seat)
    if len(hand.trick) == (3 if hand.out >= 0 else 4):
        led = suit_in_play(game, hand.trick[0][1], trump)
        winner = max(hand.trick, key=lambda played: power(game, played[1], led, trump))[0]
        hand.made += winner % 2 == hand.maker % 2
        hand.tricks += 1
        hand.trick, hand.to_play = [], winner
    return hand.tricks == 5


def choose(game: Any, rng: random.Random) -> Any:
    """A random move; while trump is made, a pass seven times in ten where one is offered (so that
    round 2, and hands thrown in, come up)."""
    moves = game.legal_moves()
    passing = [m for m in moves if m.name == "pass"]
    return passing[0] if passing and rng.random() < 0.7 else rng.choice(moves)


@pytest.mark.parametrize(("target", "stick"), MATCHES, ids=[f"to{t}{'-stick' if s else ''}" for t, s in MATCHES])
def test_euchre_invariants_hold_over_seeded_matches(target: int, stick: bool) -> None:
    rules = rules_for(target, stick)
    seen = {"alone": 0, "thrown in": 0, "euchred": 0, "march": 0, "round 2": 0, "hands": 0}
    for seed in range(GAMES // len(MATCHES)):
        game = rules.new_game(seed=seed)
        rng = random.Random(seed)
        hand = new_hand(game, 3)
        check_position(game, hand)
        moves = 0
        while not game.is_over:
            check_moves(game, hand, stick)
            move = choose(game, rng)
            before = points_of(game)
            over = follow(game, hand, move)
            game.apply(move)
            moves += 1
            if move.name == "discard":  # named to the dealer alone
                for seat in range(4):
                    card = game.rules.deck.codes[move.pick] if seat == hand.dealer else "?"
                    assert game.record(seat)[-1] == f"h@{hand.dealer + 1}:{card}>pack"
            if over:
                gains = hand_points(hand)
                assert [a - b for a, b in zip(points_of(game), before)] == gains, (seed, moves)
                seen["hands"] += 1
                seen["alone"] += hand.out >= 0
                seen["thrown in"] += hand.trump is None
                seen["euchred"] += hand.trump is not None and hand.made < 3
                seen["march"] += hand.made == 5
                seen["round 2"] += hand.round == 2
                if game.is_over:
                    break
                assert game.variable("dealer") == (hand.dealer + 1) % 4
                hand = new_hand(game, (hand.dealer + 1) % 4)
            check_position(game, hand)
        check_position(game, hand)
        assert game.outcome == "over", (seed, game.reason)
        totals = points_of(game)
        winners = [side for side in (0, 1) if totals[side] >= target]
        assert len(winners) == 1 and game.winners() == [winners[0], winners[0] + 2]
        assert max(totals) < target + 4
    # Every kind of hand came up (but a hand thrown in, when the dealer is stuck).
    assert all(count > 0 for kind, count in seen.items() if not (stick and kind == "thrown in")), seen
    assert seen["thrown in"] == 0 if stick else seen["thrown in"] > 0
    assert seen["hands"] >= GAMES // len(MATCHES) * (2 if target > 3 else 1)
