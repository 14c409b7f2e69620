"""Cribbage invariants over 500 seeded random games (rulesets/cribbage.yaml), to 31, 61 and the
default 121 points.

The test follows each hand itself, from the moves made, apart from the ruleset's expressions: the
dealer and the pone, each seat's cards, the crib, the starter, the running count and the cards laid
since it last started, who lays next, and every point scored, which it computes with its own
pegging and hand counting. After every move it checks:
- every one of the 52 cards lies in exactly one pile, and the hands, the crib, the starter, the
  laid cards and the stock hold the cards the test expects;
- the seat to act is the one the rules name (the pone, then the dealer, to lay away two cards to
  the crib; in the play, the seats in turn, one that cannot lay without passing 31 passed over;
  after a go the other seat when it has cards left, else the same one; the new pone after the
  show);
- the legal moves are exactly the ones the rules allow: every pair of the six cards to form the
  crib, and in the play every card of the hand that keeps the count at 31 or less;
- the points: each lay pegs 2 for a count of 15 or 31, 2, 6 or 12 for a pair, three or four of a
  kind, and the length of the longest run (in any order) ending with it, of the cards laid since
  the count started; 1 for the go (the last card of a count when neither seat can lay) unless the
  count is 31, which includes the last card of the play; 2 for his heels to the dealer; the show of
  the pone's hand, the dealer's, then the crib, each with the starter (fifteens, pairs, runs, double
  runs included, a flush of four or five, the crib's of five only, his nobs); the points scored
  after a seat reaches the target are not scored: the game ends at once;
- no seat's view shows the other seat's hand, the cards it laid away to the crib, or a card of the
  stock; the marks of a view (when each card was laid) name only cards the seat sees, and those of
  the cards laid say when they were laid; the record of the move to the crib names the two cards to
  their owner only.
Every game ends (never at the move limit) with the one seat that reached the target winning, at
the move that took it there. The moves are random; in the play, a card of the rank laid last is
preferred half the time, so that pairs royal come up.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations
from typing import Any

import pytest

from cardrules import load_ruleset
from helpers import score_changes

GAMES = 500
TARGETS = [31, 61, 121]
RUNS = {31: 200, 61: 150, 121: 150}  # games per target: 500 in all
assert sum(RUNS.values()) == GAMES


@cache
def rules_for(target: int) -> Any:
    return load_ruleset("cribbage", options={"target": target})


@dataclass
class Hand:
    """One hand (a deal) as the rules run it, followed from the moves made."""

    dealer: int
    held: list[set[int]]  # each seat's cards in hand
    crib: list[list[int]] = field(default_factory=lambda: [[], []])  # the cards each seat laid away
    starter: int | None = None
    laid: list[list[int]] = field(default_factory=lambda: [[], []])  # each seat's, in the order laid
    order: list[int] = field(default_factory=list)  # every card laid this hand, in order
    count: int = 0
    since: list[int] = field(default_factory=list)  # the cards laid since the count started
    to_act: int = -1

    def __post_init__(self) -> None:
        self.to_act = 1 - self.dealer

    @property
    def pone(self) -> int:
        return 1 - self.dealer

    @property
    def forming(self) -> bool:
        return self.starter is None


class Account:
    """The test's own reading of a game: card attributes, the scores, and the hand in progress."""

    def __init__(self, game: Any, target: int) -> None:
        self.game = game
        self.target = target
        rules = game.rules
        self.rank = [int(info["rank"]) for info in rules.deck.cards]
        self.suit = [str(info["suit"]) for info in rules.deck.cards]
        self.codes = list(rules.deck.codes)
        self.hand_piles = [rules.zones["hand"].seat_piles[s][0] for s in range(2)]
        self.laid_piles = [rules.zones["laid"].seat_piles[s][0] for s in range(2)]
        self.crib_pile = rules.zones["crib"].piles[0]
        self.starter_pile = rules.zones["starter"].piles[0]
        self.stock_pile = rules.zones["stock"].piles[0]
        self.scores = [0, 0]
        self.hand = self.new_hand(1)
        self.ended = ""  # the count that took a seat to the target

    def pile(self, index: int) -> list[int]:
        return list(self.game.state.piles[index])

    def new_hand(self, dealer: int) -> Hand:
        held = [set(self.pile(p)) for p in self.hand_piles]
        assert [len(h) for h in held] == [6, 6]
        assert len(self.pile(self.stock_pile)) == 40
        return Hand(dealer, held)

    def value(self, card: int) -> int:
        return min(self.rank[card], 10)

    def can_lay(self, seat: int) -> bool:
        return any(self.hand.count + self.value(c) <= 31 for c in self.hand.held[seat])

    # -- the points, computed here --------------------------------------------------------------

    def is_run(self, cards: tuple[int, ...] | list[int]) -> bool:
        ranks = sorted(self.rank[c] for c in cards)
        return ranks == list(range(ranks[0], ranks[0] + len(ranks)))

    def pegging(self) -> tuple[int, dict[str, int]]:
        """What the card just laid (the last of `since`) pegs, and what for."""
        since, count = self.hand.since, self.hand.count
        parts = {"fifteen" if count == 15 else "thirty-one": 2} if count in (15, 31) else {}
        same = 1
        while same < len(since) and self.rank[since[-same - 1]] == self.rank[since[-1]]:
            same += 1
        if same > 1:
            parts[f"{same} of a kind"] = {2: 2, 3: 6, 4: 12}[same]
        run = max([m for m in range(3, len(since) + 1) if self.is_run(since[-m:])], default=0)
        if run:
            parts["run in the play"] = run
        return sum(parts.values()), parts

    def shown(self, cards: list[int], crib: bool) -> tuple[int, set[str]]:
        """What four cards count with the starter in the show, and the kinds of points in it."""
        starter = self.hand.starter
        assert starter is not None and len(cards) == 4
        five = cards + [starter]
        parts: dict[str, int] = {}
        fifteens = sum(1 for m in range(2, 6) for s in combinations(five, m) if sum(map(self.value, s)) == 15)
        parts["fifteens"] = 2 * fifteens
        parts["pairs"] = 2 * sum(1 for a, b in combinations(five, 2) if self.rank[a] == self.rank[b])
        runs = next(([s for s in combinations(five, m) if self.is_run(s)] for m in (5, 4, 3)
                     if any(self.is_run(s) for s in combinations(five, m))), [])
        parts["runs"] = sum(len(s) for s in runs)  # each run of the longest length (a double run: two)
        if len({self.suit[c] for c in cards}) == 1:
            if self.suit[starter] == self.suit[cards[0]]:
                parts["flush of five"] = 5
            elif not crib:
                parts["flush of four"] = 4
        if any(self.rank[c] == 11 and self.suit[c] == self.suit[starter] for c in cards):
            parts["nobs"] = 1
        kinds = {k for k, v in parts.items() if v} | ({"double run"} if len(runs) > 1 else set())
        return sum(parts.values()), kinds

    def gain(self, gains: list[int], seat: int, points: int) -> bool:
        """Credits `points` to `seat` unless a seat has already reached the target (then nothing
        more is scored); True when a seat has reached it."""
        if max(self.scores[s] + gains[s] for s in range(2)) >= self.target:
            return True
        gains[seat] += points
        return self.scores[seat] + gains[seat] >= self.target

    # -- following the moves --------------------------------------------------------------------

    def follow(self, move: Any, tally: Counter[str]) -> tuple[list[int], bool]:
        """Update the hand for `move`, made by the seat to act (before it is applied): the points
        it scores each seat, and whether the game ends with it."""
        hand, seat = self.hand, self.game.current_player
        gains = [0, 0]
        if move.name == "crib":
            pair = list(move.pick)
            assert hand.forming and len(pair) == 2 and set(pair) <= hand.held[seat]
            hand.held[seat] -= set(pair)
            hand.crib[seat] = pair
            if seat == hand.pone:
                hand.to_act = hand.dealer
                return gains, False
            stock = self.pile(self.stock_pile)
            hand.starter = stock[-1]  # the cut: the top of the stock
            hand.to_act = hand.pone
            if self.rank[hand.starter] == 11:
                tally["his heels"] += 1
                self.ended = "his heels"
                return gains, self.gain(gains, hand.dealer, 2)
            return gains, False
        card = move.pick
        assert move.name == "lay" and not hand.forming and card in hand.held[seat]
        assert hand.count + self.value(card) <= 31
        hand.held[seat].remove(card)
        hand.laid[seat].append(card)
        hand.order.append(card)
        hand.since.append(card)
        hand.count += self.value(card)
        points, parts = self.pegging()
        tally.update(parts.keys())
        self.ended = "a card laid"
        if self.gain(gains, seat, points):
            return gains, True
        if self.can_lay(1 - seat):
            hand.to_act = 1 - seat
            return gains, False
        if self.can_lay(seat):
            hand.to_act = seat
            return gains, False
        # Neither can lay: the go (or the last card), and the count starts again.
        last = not hand.held[0] and not hand.held[1]
        go = hand.count < 31
        hand.count, hand.since = 0, []
        hand.to_act = seat if not hand.held[1 - seat] else 1 - seat
        if go:
            tally["last card" if last else "go"] += 1
            self.ended = "the last card" if last else "a go"
            if self.gain(gains, seat, 1):
                return gains, True
        if not last:
            return gains, False
        # The show: the pone's hand, the dealer's, then the crib, each with the starter.
        counted = [("the pone's hand", hand.pone, hand.laid[hand.pone], False),
                   ("the dealer's hand", hand.dealer, hand.laid[hand.dealer], False),
                   ("the crib", hand.dealer, hand.crib[0] + hand.crib[1], True)]
        for name, owner, cards, crib in counted:
            points, kinds = self.shown(cards, crib)
            tally.update(f"crib {k}" if crib else k for k in kinds)
            self.ended = name
            if self.gain(gains, owner, points):
                return gains, True
        return gains, False


def check_moves(game: Any, account: Account) -> None:
    hand, moves = account.hand, game.legal_moves()
    seat = game.current_player
    assert seat == hand.to_act
    held = hand.held[seat]
    if hand.forming:
        assert len(held) == 6 and not hand.crib[seat]
        assert {m.name for m in moves} == {"crib"}
        picks = [frozenset(m.pick) for m in moves]
        assert len(picks) == 15 and set(picks) == {frozenset(p) for p in combinations(held, 2)}
    else:
        assert {m.name for m in moves} == {"lay"}
        picks = [m.pick for m in moves]
        assert len(picks) == len(set(picks))
        assert set(picks) == {c for c in held if hand.count + account.value(c) <= 31}
        assert picks  # the seat to act can always lay


def check_position(game: Any, account: Account) -> None:
    hand, codes = account.hand, account.codes
    piles = game.state.piles
    assert sorted(c for pile in piles for c in pile) == list(range(52))
    hands = [account.pile(p) for p in account.hand_piles]
    laid = [account.pile(p) for p in account.laid_piles]
    crib, starter = account.pile(account.crib_pile), account.pile(account.starter_pile)
    stock = account.pile(account.stock_pile)
    assert [set(h) for h in hands] == hand.held
    assert laid == hand.laid and all(game.state.up[c] for pile in laid for c in pile)
    assert sorted(crib) == sorted(hand.crib[0] + hand.crib[1])
    assert starter == ([] if hand.starter is None else [hand.starter])
    assert len(stock) == 40 - len(starter)
    for seat in range(2):
        assert len(hands[seat]) + len(laid[seat]) + len(hand.crib[seat]) == 6
    assert game.variable("dealer") == hand.dealer
    assert game.variable("count") == hand.count
    assert [game.variable("score", s) for s in range(2)] == account.scores == list(game.scores())
    for seat in range(2):
        view = game.view(seat)
        zones = view["zones"]
        for other, shown in enumerate(zones["hand"]):
            if other == seat:
                assert sorted(shown) == sorted(codes[c] for c in hands[seat])
            else:
                assert shown == [None] * len(hands[other])
        # The crib: at most the seat's own two cards, never the other's.
        assert len(zones["crib"]) == len(crib)
        assert {c for c in zones["crib"] if c is not None} <= {codes[c] for c in hand.crib[seat]}
        assert zones["stock"] == [None] * len(stock)
        assert zones["starter"] == [codes[c] for c in starter]
        assert zones["laid"] == [[codes[c] for c in pile] for pile in laid]
        seen = {c for shown in zones["hand"] for c in shown if c is not None}
        seen |= {c for c in zones["crib"] if c is not None} | set(zones["starter"])
        seen |= {c for pile in zones["laid"] for c in pile}
        marks = view["marks"].get("at", {})
        assert set(marks) <= seen
        for when, card in enumerate(hand.order):
            assert marks[codes[card]] == when == game.variable("at", card=card)


def choose(game: Any, account: Account, rng: random.Random) -> Any:
    """A random move; in the play, half the time a card of the rank laid last where one is
    allowed (so that three and four of a kind come up)."""
    moves = game.legal_moves()
    since = account.hand.since
    if since and rng.random() < 0.5:
        pairing = [m for m in moves if account.rank[m.pick] == account.rank[since[-1]]]
        if pairing:
            return rng.choice(pairing)
    return rng.choice(moves)


def play_game(rules: Any, seed: int, target: int, tally: Counter[str]) -> Any:
    game = rules.new_game(seed=seed)
    rng = random.Random(seed)
    account = Account(game, target)
    assert game.current_player == 0 and game.variable("dealer") == 1  # seat 1 is the first pone
    check_position(game, account)
    moves = 0
    while not game.is_over:
        check_moves(game, account)
        move = choose(game, account, rng)
        seat = game.current_player
        gains, over = account.follow(move, tally)
        changes = score_changes(game, move)
        moves += 1
        assert changes == gains, (seed, moves, move.text())
        before, account.scores = account.scores, [s + g for s, g in zip(account.scores, gains)]
        assert game.is_over == over, (seed, moves, move.text())
        if move.name == "crib":  # the two cards are named to their owner alone
            cards = ",".join(account.codes[c] for c in move.pick)
            for viewer in range(2):
                shown = cards if viewer == seat else "?,?"
                assert game.record(viewer)[-1] == f"h@{seat + 1}:{shown}>c"
        else:
            for viewer in range(2):
                assert game.record(viewer)[-1] == f"h@{seat + 1}:{account.codes[move.pick]}>l@{seat + 1}"
        if over:
            assert max(before) < target <= max(account.scores), (seed, moves)  # reached at this very move
            break
        hand = account.hand
        if move.name == "lay" and not hand.held[0] and not hand.held[1]:  # the show was made: a new deal
            tally["hands"] += 1
            account.hand = account.new_hand(1 - hand.dealer)
        check_position(game, account)
    check_position(game, account)
    assert game.is_over and game.outcome == "over", (seed, game.reason)
    assert game.reason == "a player reached the target"
    totals = [game.variable("score", s) for s in range(2)]
    winners = [s for s in range(2) if totals[s] >= target]
    assert len(winners) == 1 and game.winners() == winners, (seed, totals)
    tally["won by the pone" if winners[0] == account.hand.pone else "won by the dealer"] += 1
    tally[f"won by {account.ended}"] += 1
    return game


@pytest.mark.parametrize("target", TARGETS, ids=[f"to{t}" for t in TARGETS])
def test_cribbage_invariants_hold_over_seeded_games(target: int) -> None:
    rules = rules_for(target)
    tally: Counter[str] = Counter()
    for seed in range(RUNS[target]):
        play_game(rules, seed, target, tally)
    # The events of the game came up.
    common = ["his heels", "fifteen", "thirty-one", "2 of a kind", "3 of a kind", "run in the play", "go",
              "last card", "fifteens", "pairs", "runs", "double run", "nobs", "flush of four", "crib runs",
              "won by the pone", "won by the dealer", "won by a card laid", "won by the pone's hand",
              "won by the dealer's hand", "won by the crib", "hands"]
    assert all(tally[kind] > 0 for kind in common), {kind: tally[kind] for kind in common}
    if target > 31:  # (rarer)
        assert tally["flush of five"] + tally["crib flush of five"] > 0
    if target == 121:
        assert tally["hands"] >= 5 * RUNS[target]  # games of several deals
