"""Gin Rummy invariants over 500 seeded random matches (rulesets/gin-rummy.yaml), short ones (to 10,
25 and 50 points), with the default knock limit of 10 and with limits of 5 and 0 (gin only).

The test follows each hand itself, from the moves made, apart from the ruleset's expressions: the
dealer, each seat's cards in the order they lie, the discard pile, the size of the stock, the
turned card's offer (the non-dealer's, then the dealer's, then the non-dealer's draw), the seat to
act, whether it has drawn and the card it took from the discard pile. It finds the melds itself,
by brute force: every way to lay a hand out in sets and runs, the least deadwood, and the
knocker's melds as the header names them (the first arrangement leaving the least, in the order
of `disjoint` over the hand's melds); and it lays the other's cards off itself. After every move
it checks:
- every one of the 52 cards lies in exactly one pile; each hand holds the cards the test expects,
  10 of them, 11 for the seat that has drawn and not yet discarded; the discard pile is the cards
  discarded (its cards face up) and the stock holds the rest;
- the seat to act and its legal moves are exactly the ones the rules allow: in the opening, the
  non-dealer may take the turned card or pass, then the dealer may, then the non-dealer must draw
  from the stock; after that a seat that has not drawn may draw from the stock or take the top
  card of the discard pile; once it has drawn it may discard any card but one just taken from the
  discard pile, and knock with any such card when the least deadwood of the ten cards left is at
  most the knock limit;
- the scores change only at a knock, by exactly what the test computes: the knocker with less
  deadwood scores the difference; else the other has undercut it and scores the difference and
  25; gin (no deadwood) scores 25 and all the other's deadwood, with nothing laid off. Otherwise
  the other's deadwood is the least it can leave with the cards that fit the knocker's melds laid
  off (the fourth of a set of three, a run's next card at either end, also through cards of its
  own deadwood that lie between);
- a discard that leaves two cards in the stock ends the hand void: nothing is scored and the same
  dealer deals again; else the winner of a hand (the knocker, or the seat that undercut it) deals
  the next; each deal gives 10 cards each, turns one up and starts with the non-dealer;
- no seat's view shows a card of the stock, or of the other's hand but the ones it saw taken
  from the discard pile (they lie face up); of the discard pile it shows only the top card, face
  up; the knocker's face-down discard (left on the pile when the knock ends the match) only to
  the knocker and to a seat that saw it taken. The record of a knock, and of a discard that voids
  the hand, names the card to the other seat only when that seat knew it: taken from the discard
  pile, or in its sight once the hand is dealt anew (in its hand or turned up).
Every match ends (never at the move limit) with the one seat that reached the target winning, at
the knock that took it there. The moves are random, but to keep hands short (random play seldom
gets its deadwood down to a knock) a seat takes the discard pile's top card when it lowers its
least deadwood, and discards a card that leaves the least, nineteen times in twenty (four in five
when only gin may knock, so that hands run the stock down and come out void); and it knocks half
the times it may (half of those with the card that leaves the least), so that knocks, gin and
undercuts come up. Each option's matches must show: the turned card taken by either seat and
refused by both, gin, gin against cards that would have fitted, a knock with a card the other
knew, matches of several hands; with a knock limit, knocks won, undercuts (at equal deadwood, and
thanks to laying off), a layoff that lowers the count, a chained one, and a knock whose melds
the header's tie rule picks among arrangements that count differently; with gin only, void
hands. (A count that needs the other to lay its hand out otherwise than with its least deadwood
comes up in a few matches of each option, and is checked, but not required.)
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
MATCHES = [(10, 10), (25, 10), (50, 10), (25, 5), (10, 0)]  # (target, knock limit)
RUNS = {(10, 10): 230, (25, 10): 110, (50, 10): 40, (25, 5): 70, (10, 0): 50}  # matches of each: 500 in all
assert sum(RUNS.values()) == GAMES and set(RUNS) == set(MATCHES)

Meld = tuple[int, ...]  # card ids, in the order they lie in the hand


@cache
def rules_for(target: int, knock: int) -> Any:
    return load_ruleset("gin-rummy", options={"target": target, "knock": knock})


@dataclass
class Hand:
    """One hand (a deal) as the rules run it, followed from the moves made."""

    dealer: int
    held: list[list[int]]  # each seat's cards, in the order they lie (bottom first)
    discards: list[int]  # the discard pile, bottom first
    stock: int  # the number of cards in the stock
    offer: int = 1  # 1: the non-dealer may take the turned card; 2: the dealer; 3: the non-dealer draws; 0: done
    to_act: int = -1
    drawn: bool = False  # the seat to act has drawn and now discards (or knocks)
    taken: int | None = None  # the card it took from the discard pile this turn
    seen: set[int] = field(default_factory=set)  # the cards taken from the discard pile: both seats know them

    def __post_init__(self) -> None:
        self.to_act = 1 - self.dealer


@dataclass
class Knock:
    """A knock, counted here: each seat's deadwood as it counts, and what the hand scores."""

    knocker: int
    mine: int  # the knocker's deadwood
    theirs: int  # the other's, after laying off (its whole deadwood against gin)
    whole: int  # the other's least deadwood, nothing laid off
    gains: list[int] = field(default_factory=lambda: [0, 0])
    winner: int = -1
    kinds: set[str] = field(default_factory=set)


class Account:
    """The test's own reading of a match: card attributes, the scores, and the hand in progress."""

    def __init__(self, game: Any, target: int, knock: int) -> None:
        self.game = game
        self.target = target
        self.knock = knock
        rules = game.rules
        self.rank = [int(info["rank"]) for info in rules.deck.cards]
        self.suit = [str(info["suit"]) for info in rules.deck.cards]
        self.codes = list(rules.deck.codes)
        self.hand_piles = [rules.zones["hand"].seat_piles[s][0] for s in range(2)]
        self.stock_pile = rules.zones["stock"].piles[0]
        self.discard_pile = rules.zones["discard"].piles[0]
        self.scores = [0, 0]
        self.hand = self.new_hand(1)  # seat 2 deals first
        self.hands = 0  # the hands ended so far
        self.where = "the deal"  # for the messages: the seed and the last move

    def pile(self, index: int) -> list[int]:
        return list(self.game.state.piles[index])

    def new_hand(self, dealer: int) -> Hand:
        held = [self.pile(p) for p in self.hand_piles]
        discards = self.pile(self.discard_pile)
        assert [len(h) for h in held] == [10, 10] and len(discards) == 1 and self.game.state.up[discards[0]]
        assert len(self.pile(self.stock_pile)) == 31
        return Hand(dealer, held, discards, 31)

    def value(self, card: int) -> int:
        return min(self.rank[card], 10)

    # -- melds and deadwood, found here by brute force -----------------------------------------

    def melds(self, cards: list[int]) -> list[Meld]:
        """Every meld among `cards`, listed as the header's `melds(h)` lists them: the sets (of
        three, then of four, by the places of their cards), then the runs (by the places of their
        two end cards); each meld's cards in the order they lie."""
        found: list[Meld] = [s for k in (3, 4) for s in combinations(cards, k)
                             if len({self.rank[c] for c in s}) == 1]
        for a, b in combinations(cards, 2):
            low, high = sorted((self.rank[a], self.rank[b]))
            if self.suit[a] != self.suit[b] or high - low < 2:
                continue
            run = tuple(c for c in cards if self.suit[c] == self.suit[a] and low <= self.rank[c] <= high)
            if len(run) == high - low + 1:
                found.append(run)
        return found

    def arrangements(self, cards: list[int]) -> list[tuple[Meld, ...]]:
        """Every way to lay `cards` out in melds, no card in two (the empty one included), in the
        order of `disjoint`: by the number of melds, then by the melds' places in `melds`."""
        melds = self.melds(cards)
        found: list[tuple[Meld, ...]] = []
        for k in range(len(melds) + 1):
            chosen = [c for c in combinations(melds, k)
                      if len({card for m in c for card in m}) == sum(len(m) for m in c)]
            if not chosen:
                break  # no k melds share no card: no more either
            found += chosen
        return found

    def left(self, cards: list[int] | tuple[int, ...], arrangement: tuple[Meld, ...]) -> list[int]:
        melded = {c for m in arrangement for c in m}
        return [c for c in cards if c not in melded]

    def deadwood(self, cards: list[int]) -> int:
        return deadwood_of(self, frozenset(cards))

    def counted_melds(self, cards: list[int]) -> tuple[Meld, ...]:
        """The melds `cards` are counted with: the first arrangement that leaves the least deadwood."""
        best: tuple[int, tuple[Meld, ...]] | None = None
        for arrangement in self.arrangements(cards):
            worth = sum(self.value(c) for c in self.left(cards, arrangement))
            if best is None or worth < best[0]:
                best = (worth, arrangement)
        assert best is not None
        return best[1]

    def laid_off(self, rest: list[int], melds: tuple[Meld, ...]) -> set[int]:
        """The cards of `rest` (the other's deadwood) that fit the knocker's `melds`: the fourth
        card of a set of three, and a run's next cards at either end, one after another through
        the cards of `rest` itself."""
        fit: set[int] = set()
        for meld in melds:
            ranks = sorted(self.rank[c] for c in meld)
            if len(meld) == 3 and ranks[0] == ranks[-1]:
                fit |= {c for c in rest if self.rank[c] == ranks[0]}
            elif ranks[0] != ranks[-1]:
                suit = self.suit[meld[0]]
                by_rank = {self.rank[c]: c for c in rest if self.suit[c] == suit}
                for step, edge in ((-1, ranks[0]), (1, ranks[-1])):
                    rank = edge + step
                    while rank in by_rank:
                        fit.add(by_rank[rank])
                        rank += step
        return fit

    def laid_out(self, cards: list[int], melds: tuple[Meld, ...]) -> tuple[int, set[int]]:
        """The other's deadwood against the knocker's `melds`: the least it can leave, laying its
        cards out in any arrangement and laying off the cards of its deadwood that fit; and the
        cards it lays off so (with the first arrangement that leaves the least)."""
        laid = []
        for arrangement in self.arrangements(cards):
            rest = self.left(cards, arrangement)
            fit = self.laid_off(rest, melds)
            laid.append((sum(self.value(c) for c in rest if c not in fit), fit))
        least = min(worth for worth, _ in laid)
        return least, next(fit for worth, fit in laid if worth == least)

    def count_knock(self, knocker: int) -> Knock:
        """The knocker's hand (its discard gone) against the other's: the points and the next dealer."""
        mine_cards, other = self.hand.held[knocker], self.hand.held[1 - knocker]
        mine, whole = self.deadwood(mine_cards), self.deadwood(other)
        melds = self.counted_melds(mine_cards)
        assert sum(self.value(c) for c in self.left(mine_cards, melds)) == mine
        if mine == 0:  # gin: nothing laid off
            count = Knock(knocker, 0, whole, whole, winner=knocker, kinds={"gin"})
            count.gains[knocker] = 25 + whole
            if self.laid_out(other, melds)[0] < whole:
                count.kinds.add("gin with cards that would fit")
            return count
        theirs, fit = self.laid_out(other, melds)
        count = Knock(knocker, mine, theirs, whole)
        if theirs < whole:
            count.kinds.add("layoff")
        if any(not self.laid_off([c], melds) for c in fit):  # a card that fits only through another
            count.kinds.add("chained layoff")
        # Laid off after the melds that leave the other the least deadwood, a different count?
        plain = self.left(other, self.counted_melds(other))
        if sum(self.value(c) for c in plain if c not in self.laid_off(plain, melds)) != theirs:
            count.kinds.add("layoff needing other melds")
        # Another arrangement of the knocker's with as little deadwood: a different count?
        ties = [a for a in self.arrangements(mine_cards) if a != melds
                and sum(self.value(c) for c in self.left(mine_cards, a)) == mine]
        if any(self.laid_out(other, a)[0] != theirs for a in ties):
            count.kinds.add("knocker's tied melds differ")
        if mine < theirs:
            count.gains[knocker] = theirs - mine
            count.winner = knocker
            count.kinds.add("knock won")
        else:
            count.gains[1 - knocker] = mine - theirs + 25
            count.winner = 1 - knocker
            count.kinds.add("undercut")
            if theirs == mine:
                count.kinds.add("undercut at equal deadwood")
            if whole > mine:
                count.kinds.add("undercut by laying off")
        return count

    # -- following the moves --------------------------------------------------------------------

    def follow(self, move: Any, tally: Counter[str]) -> tuple[Knock | None, bool]:
        """Update the hand for `move`, made by the seat to act (before it is applied): the knock it
        makes, if it is one, and whether the hand ends with it (a knock or a void hand)."""
        hand, seat = self.hand, self.game.current_player
        held = hand.held[seat]
        if move.name == "pass":
            assert hand.offer in (1, 2) and not hand.drawn
            tally["turned card refused by the non-dealer" if hand.offer == 1 else "turned card refused by both"] += 1
            hand.offer += 1
            hand.to_act = 1 - seat
            return None, False
        if move.name == "take":
            assert not hand.drawn and hand.offer in (0, 1, 2)
            if hand.offer:
                tally["turned card taken by the " + ("non-dealer" if hand.offer == 1 else "dealer")] += 1
            hand.taken = hand.discards.pop()
            hand.seen.add(hand.taken)
            held.append(hand.taken)
            hand.drawn, hand.offer = True, 0
            return None, False
        if move.name == "draw":
            assert not hand.drawn and hand.offer in (0, 3)
            held.append(self.pile(self.stock_pile)[-1])  # the top of the stock
            hand.stock -= 1
            hand.drawn, hand.offer = True, 0
            return None, False
        card = move.pick
        assert move.name in ("discard", "knock") and hand.drawn and card in held and card != hand.taken
        held.remove(card)
        hand.discards.append(card)
        hand.drawn, hand.taken = False, None
        hand.to_act = 1 - seat
        if move.name == "knock":
            assert self.deadwood(held) <= self.knock
            count = self.count_knock(seat)
            tally.update(count.kinds)
            return count, True
        if hand.stock <= 2:
            tally["void hand"] += 1
            return None, True
        return None, False


@cache
def _melds_of_deck(deck: tuple[tuple[int, str], ...]) -> dict[int, list[tuple[frozenset[int], int]]]:
    """Every meld of the deck (as its set of cards, and its worth): the sets of three and four, the
    runs; listed under their lowest card id."""
    by_rank: dict[int, list[int]] = {}
    by_suit: dict[str, dict[int, int]] = {}
    for card, (rank, suit) in enumerate(deck):
        by_rank.setdefault(rank, []).append(card)
        by_suit.setdefault(suit, {})[rank] = card
    melds = [frozenset(s) for cards in by_rank.values() for k in (3, 4) for s in combinations(cards, k)]
    for ranks in by_suit.values():
        for low in ranks:
            high = low + 2
            while all(r in ranks for r in range(low, high + 1)):
                melds.append(frozenset(ranks[r] for r in range(low, high + 1)))
                high += 1
    by_card: dict[int, list[tuple[frozenset[int], int]]] = {card: [] for card in range(len(deck))}
    for m in melds:
        by_card[min(m)].append((m, sum(min(deck[c][0], 10) for c in m)))
    return by_card


_DEADWOOD: dict[frozenset[int], int] = {}


def deadwood_of(account: Account, cards: frozenset[int]) -> int:
    """The least deadwood of `cards`: the most the melds of an arrangement can take out of their
    worth, by brute force over every arrangement (cached: each seat's hands come up again)."""
    if cards not in _DEADWOOD:
        deck = tuple(zip(account.rank, account.suit))
        by_card = _melds_of_deck(deck)
        melds = [(m, w) for card in cards for m, w in by_card[card] if m <= cards]

        def most(i: int, used: frozenset[int]) -> int:
            if i == len(melds):
                return 0
            skip = most(i + 1, used)
            meld, worth = melds[i]
            return max(skip, worth + most(i + 1, used | meld)) if not meld & used else skip

        _DEADWOOD[cards] = sum(account.value(c) for c in cards) - most(0, frozenset())
    return _DEADWOOD[cards]


def check_moves(game: Any, account: Account) -> None:
    hand, moves = account.hand, game.legal_moves()
    seat = game.current_player
    assert seat == hand.to_act, account.where
    name = f"h@{seat + 1}"
    if hand.offer in (1, 2):
        assert seat == (1 - hand.dealer if hand.offer == 1 else hand.dealer) and not hand.drawn
        assert {m.text() for m in moves} == {f"d>{name}", "pass"}
    elif hand.offer == 3:
        assert seat == 1 - hand.dealer and not hand.drawn
        assert [m.text() for m in moves] == [f"s>{name}"]
    elif not hand.drawn:
        assert {m.text() for m in moves} == {f"s>{name}", f"d>{name}"} and len(moves) == 2
    else:
        held = hand.held[seat]
        assert len(held) == 11
        allowed = [c for c in held if c != hand.taken]
        knocks = [c for c in allowed if account.deadwood([x for x in held if x != c]) <= account.knock]
        assert sorted((m.name, m.pick) for m in moves) == sorted(
            [("discard", c) for c in allowed] + [("knock", c) for c in knocks]), account.where
        for m in moves:
            assert m.text() == f"{m.name}:{name}:{account.codes[m.pick]}>d"


def check_position(game: Any, account: Account, knocked: int | None = None) -> None:
    """The piles, the dealer, the scores and each seat's view; `knocked`: the knocker, when the
    match has just ended with its knock (its discard face down on the discard pile)."""
    hand, state = account.hand, game.state
    assert sorted(c for pile in state.piles for c in pile) == list(range(52))
    hands = [account.pile(p) for p in account.hand_piles]
    discards, stock = account.pile(account.discard_pile), account.pile(account.stock_pile)
    assert hands == hand.held and discards == hand.discards and len(stock) == hand.stock, account.where
    for seat in range(2):
        holding = hand.drawn and seat == hand.to_act
        assert len(hands[seat]) == (11 if holding else 10)
    assert len(hands[0]) + len(hands[1]) + len(discards) + len(stock) == 52
    face_down = discards[-1:] if knocked is not None else []
    assert all(state.up[c] for c in discards if c not in face_down)
    assert not any(state.up[c] for c in face_down)
    assert game.variable("dealer") == hand.dealer, account.where
    assert [game.variable("score", s) for s in range(2)] == account.scores == list(game.scores())
    check_views(game, account, hands, discards, stock, face_down, knocked)


def check_views(game: Any, account: Account, hands: list[list[int]], discards: list[int], stock: list[int],
                face_down: list[int], knocked: int | None) -> None:
    hand, codes = account.hand, account.codes
    for seat in range(2):
        zones = game.view(seat)["zones"]
        for other, shown in enumerate(zones["hand"]):
            if other == seat:
                assert sorted(shown) == sorted(codes[c] for c in hands[seat])
            else:  # as they lie, those it saw taken from the discard pile known
                expected = [codes[c] if c in hand.seen else None for c in hands[other]]
                assert shown == expected, (account.where, f"seat {seat + 1} sees", set(shown) - set(expected))
        assert zones["stock"] == [None] * len(stock)
        if discards:  # its top card, face up; the knocker's, face down, to the knocker (and a seat that knew it)
            top = codes[discards[-1]] if not face_down or seat == knocked or discards[-1] in hand.seen else None
            assert zones["discard"] == [None] * (len(discards) - 1) + [top], account.where
        else:
            assert zones["discard"] == []


def check_record(game: Any, account: Account, move: Any, seat: int, ended: bool, over: bool) -> None:
    """The record of a discard or a knock names the card to its seat, and to the other one when
    that seat saw it: discarded face up (the hand going on), taken from the discard pile before, or
    in its sight once the move is done (dealt to it, or turned up, when the hand was dealt anew)."""
    card = move.pick
    dealt = ended and not over and (card in account.pile(account.hand_piles[1 - seat])
                                    or account.pile(account.discard_pile) == [card])
    seen = (move.name == "discard" and not ended) or card in account.hand.seen or dealt
    for viewer in range(2):
        shown = account.codes[card] if viewer == seat or seen else "?"
        assert game.record(viewer)[-1] == f"{move.name}:h@{seat + 1}:{shown}>d", (account.where, viewer)


def choose(game: Any, account: Account, rng: random.Random) -> Any:
    """A random move, nudged towards low deadwood (see the module's docstring)."""
    moves = game.legal_moves()
    hand, seat = account.hand, game.current_player
    held = hand.held[seat]
    knocks = [m for m in moves if m.name == "knock"]
    if knocks and rng.random() < 0.5:
        if rng.random() < 0.5:
            return min(knocks, key=lambda m: account.deadwood([c for c in held if c != m.pick]))
        return rng.choice(knocks)
    if rng.random() < (0.95 if account.knock else 0.8):
        if hand.drawn:
            discards = [m for m in moves if m.name == "discard"]
            return min(discards, key=lambda m: account.deadwood([c for c in held if c != m.pick]))
        take = [m for m in moves if m.name == "take"]
        if take:
            top = hand.discards[-1]
            now = account.deadwood(held)
            after = min(account.deadwood([c for c in held if c != out] + [top]) for out in held)
            return take[0] if after < now else rng.choice([m for m in moves if m.name != "take"])
    return rng.choice(moves)


def play_match(rules: Any, seed: int, target: int, knock: int, tally: Counter[str]) -> Any:
    game = rules.new_game(seed=seed)
    rng = random.Random(seed)
    account = Account(game, target, knock)
    account.where = f"seed {seed}, the deal"
    assert game.current_player == 0 and game.variable("dealer") == 1  # seat 2 deals first
    check_position(game, account)
    moves = 0
    while not game.is_over:
        check_moves(game, account)
        move = choose(game, account, rng)
        seat = game.current_player
        count, ended = account.follow(move, tally)
        changes = score_changes(game, move)
        moves += 1
        account.where = f"seed {seed}, move {moves} ({move.text()})"
        gains = count.gains if count is not None else [0, 0]
        assert changes == gains, (account.where, count)
        before, account.scores = account.scores, [s + g for s, g in zip(account.scores, gains)]
        over = max(account.scores) >= target
        assert game.is_over == over, account.where
        if move.name == "knock" or move.name == "discard" and ended:  # (the others: named to both)
            check_record(game, account, move, seat, ended, over)
            tally["knocked with a card known to the other"] += move.name == "knock" and move.pick in account.hand.seen
        if over:
            assert count is not None and max(before) < target, account.where  # reached at this very knock
            account.hand.dealer = count.winner  # the winner is the dealer, though no hand follows
            check_position(game, account, knocked=seat)
            break
        if ended:
            tally["hands"] += 1
            account.hands += 1
            dealer = account.hand.dealer if count is None else count.winner
            account.hand = account.new_hand(dealer)
        check_position(game, account)
    assert game.is_over and game.outcome == "over", (seed, game.reason)
    assert game.reason == "a player reached the target"
    totals = [game.variable("score", s) for s in range(2)]
    winners = [s for s in range(2) if totals[s] >= target]
    assert len(winners) == 1 and game.winners() == winners, (seed, totals)
    tally["hands"] += 1
    tally["matches of several hands"] += account.hands > 0
    return game


@pytest.mark.parametrize(("target", "knock"), MATCHES, ids=[f"to{t}-knock{k}" for t, k in MATCHES])
def test_gin_rummy_invariants_hold_over_seeded_matches(target: int, knock: int) -> None:
    rules = rules_for(target, knock)
    tally: Counter[str] = Counter()
    for seed in range(RUNS[(target, knock)]):
        play_match(rules, seed, target, knock, tally)
    # The events of the game came up (void hands only when gin alone ends a hand: the seats knock
    # long before the stock runs down otherwise).
    common = ["turned card taken by the non-dealer", "turned card taken by the dealer",
              "turned card refused by the non-dealer", "turned card refused by both", "gin",
              "gin with cards that would fit", "knocked with a card known to the other", "matches of several hands"]
    if knock > 0:
        common += ["knock won", "undercut", "undercut at equal deadwood", "undercut by laying off", "layoff",
                   "chained layoff", "knocker's tied melds differ"]
    else:
        common += ["void hand"]
    assert all(tally[kind] > 0 for kind in common), {kind: tally[kind] for kind in common}
