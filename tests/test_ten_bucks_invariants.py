"""Ten Bucks invariants over many seeded random games of every Ten Bucks ruleset.

Each of the six rulesets (the base game, Wild Wagers, Wild Wagers with claimed wilds worth 2,
Zero Risk, Bad Investment and all expansions) plays ``GAMES`` seeded games; game ``k`` has
``2 + k % 5`` players and is played by a ``random.Random(k)`` choosing among the legal moves.

Checked against models written here, apart from the rulesets and the engine:

- the view (the mover's after every move, every seat's at the start and after every second
  move): it shows exactly the cards that seat may see (its own hand whole, others' hands only
  face up, the shared zones by their visibility) with their true codes, every other card as
  None, and no pile of a seat beyond the players; a move offered names only a bill its seat sees;
- no bill is created or lost: the piles hold the bills in play, each exactly once;
- money is the worth of the bills in a seat's claimed piles (a bill counts as its pile's
  number; with ten-bucks-wild-two a wild bill counts 2), and "claims" counts the claims made;
- the laws: Slow Down (a claimer has the fewest stacks, so the counts never differ by more
  than one), Diversity (never a number claimed before, nor the number the seat whose turn it
  is just played, except the 0 stack with Zero Risk), Five Max (a play leaving its stack at 5
  or more makes it pending; by the next turn nobody who may claim it is left unforced);
- claimed numbers are revealed: a bill in a hand is face up exactly when its seat has claimed
  one of its numbers; stacks and claimed piles hold only bills of their number (or wild
  bills, never at the bottom);
- hands: at the start of every turn each hand holds the deal less the bills its seat played;
  without wild bills the hands therefore differ in size by at most one; a seat passes
  (`no_bill`) exactly when no bill of its hand fits (an empty hand, or with Wild Wagers only
  wild bills and no stack started);
- every game ends within a bound on moves, won, by one of the ruleset's end conditions, with
  the winners that condition names; never by "no move is possible".
"""

from __future__ import annotations

import random
import time
from functools import lru_cache
from typing import Any

import pytest

from cardrules import load_ruleset
from helpers import TEN_BUCKS_RULESETS

GAMES = 1000  # per ruleset
RULESETS = TEN_BUCKS_RULESETS
ZERO_EXEMPT = {"ten-bucks-zero-risk", "ten-bucks-expansions"}  # the 0 stack ignores Diversity
WILD_WORTH_TWO = {"ten-bucks-wild-two"}
WILD_RULESETS = {"ten-bucks-wild-wagers", "ten-bucks-wild-two", "ten-bucks-expansions"}
STUCK = "no move is possible"  # the engine's end when a seat has no legal move
ALL_SEATS_EVERY = 2  # every seat's view is checked every 2nd move (the mover's after every move)
REASON_TEN = "a seat has claimed $10 or more"
REASON_ZEROS = "a seat has claimed ten $0 bills"
REASON_HANDS = "the hands ran out; the highest total wins"
REASON_NO_PLAY = "no seat can play a bill (wild bills, and no stack to put them on); the highest total wins"
SECONDS: dict[str, float] = {}


@lru_cache(maxsize=None)
def rules_for(name: str) -> Any:
    return load_ruleset(name)


class Model:
    """Facts about one ruleset and player count, read from the deck and zones once."""

    def __init__(self, rules: Any, players: int) -> None:
        self.rules = rules
        self.players = players
        zones = rules.zones
        self.codes = rules.deck.codes
        cards = rules.deck.cards
        self.values = [tuple(cards[c]["values"]) for c in range(len(rules.deck))]
        self.wild = [cards[c]["kind"] == "wild" for c in range(len(rules.deck))]
        self.in_play = sorted(rules.deck_cards[players])
        self.stack = list(zones["stack"].piles)  # stack[i] is the stack of number i - 2
        self.hand = [group[0] for group in zones["hand"].seat_piles[:players]]
        self.claimed = [list(group) for group in zones["claimed"].seat_piles[:players]]
        self.unused = [p for group in zones["hand"].seat_piles[players:] for p in group] + \
                      [p for group in zones["claimed"].seat_piles[players:] for p in group]
        self.out = zones["out"].piles[0]
        self.deck = zones["deck"].piles[0]
        self.number = {p: i - 2 for i, p in enumerate(self.stack)}
        for group in self.claimed:
            self.number.update({p: i - 2 for i, p in enumerate(group)})
        # Every pile: its zone's name, its visibility, the seat owning it (None for shared piles).
        self.layout: list[tuple[str, str, list[tuple[int | None, list[int]]]]] = []
        for name, zone in zones.items():
            if zone.seat_piles is None:
                self.layout.append((name, zone.visibility, [(None, list(zone.piles))]))
            else:
                self.layout.append((name, zone.visibility,
                                    [(seat, list(group)) for seat, group in enumerate(zone.seat_piles[:players])]))


def may_see(visibility: str, owner: int | None, seat: int, face_up: bool) -> bool:
    """The visibility rules, written apart from the engine."""
    if visibility == "all":
        return True
    if visibility == "none":
        return False
    if visibility == "faces":
        return face_up
    assert visibility == "owner", visibility
    return owner == seat or face_up


def expected_pile(cards: list[int], visibility: str, owner: int | None, seat: int, up: bytearray,
                  codes: list[str]) -> list[str | None]:
    """What `seat` should be shown of a pile: the code of each card it may see, else None."""
    return [codes[c] if may_see(visibility, owner, seat, bool(up[c])) else None for c in cards]


def check_view(game: Any, model: Model, seat: int) -> None:
    state = game.state
    piles, up, codes = state.piles, state.up, model.codes
    zones = game.view(seat)["zones"]
    assert set(zones) == {name for name, _, _ in model.layout}
    for name, visibility, groups in model.layout:
        zone = game.rules.zones[name]
        seen_zone = zones[name]
        if zone.seat_piles is not None:
            assert len(seen_zone) == model.players, f"{name}: a pile of a seat beyond the players is shown"
        for owner, pile_ids in groups:
            shown = seen_zone if owner is None else seen_zone[owner]
            shown_piles = [shown] if zone.single else shown
            assert len(shown_piles) == len(pile_ids)
            for pile, seen in zip(pile_ids, shown_piles):
                cards = piles[pile]
                if not cards and not seen:
                    continue
                if visibility == "all" or (visibility == "owner" and owner == seat):
                    expected: list[str | None] = [codes[c] for c in cards]  # the fast path of may_see
                else:
                    expected = expected_pile(cards, visibility, owner, seat, up, codes)
                assert seen == expected, (f"seat {seat}'s view of {name} of seat {owner}: {seen}, "
                                          f"should be {expected} (true {[codes[c] for c in cards]})")


def check_position(game: Any, model: Model, ruleset: str, claims_made: list[int]) -> None:
    state = game.state
    piles = state.piles
    up = state.up
    players = model.players
    # No bill created or lost; the piles of absent seats stay empty.
    assert sorted(c for pile in piles for c in pile) == model.in_play
    assert all(not piles[p] for p in model.unused)
    assert not piles[model.deck]
    # Stacks, claimed piles and the out pile lie face up; a stack (and each claimed pile) holds
    # only bills of its number or wild bills, never a wild one at the bottom.
    for pile in model.stack + [p for group in model.claimed for p in group]:
        v = model.number[pile]
        cards = piles[pile]
        assert all(up[c] for c in cards)
        assert all(model.wild[c] or v in model.values[c] for c in cards), (ruleset, v, [model.codes[c] for c in cards])
        if cards:
            assert not model.wild[cards[0]], "a wild bill starts a stack"
    assert all(up[c] and model.wild[c] for c in piles[model.out])
    money = [game.variable("money", p) for p in range(players)]
    claims = [game.variable("claims", p) for p in range(players)]
    for p in range(players):
        # Money is the worth of the claimed bills: each bill counts as its pile's number
        # (a wild bill 2 with ten-bucks-wild-two).
        worth = sum((2 if ruleset in WILD_WORTH_TWO and model.wild[c] else model.number[pile])
                    for pile in model.claimed[p] for c in piles[pile])
        assert money[p] == worth, (ruleset, p, money[p], worth)
        taken = sum(1 for pile in model.claimed[p] if piles[pile])
        assert claims[p] == claims_made[p]
        if ruleset in ZERO_EXEMPT:
            assert taken <= claims[p]
        else:
            assert taken == claims[p]  # Diversity: one claimed pile per claim
        # Revealed bills: face up in a hand exactly when the seat has claimed one of its numbers.
        claimed_numbers = {model.number[pile] for pile in model.claimed[p] if piles[pile]}
        for c in piles[model.hand[p]]:
            assert bool(up[c]) == any(v in claimed_numbers for v in model.values[c]), (ruleset, model.codes[c])
    # Slow Down: only a seat with the fewest stacks claims, so the counts differ by at most one.
    assert max(claims) - min(claims) <= 1, claims
    # Reaching $10 (or ten $0 bills with Zero Risk) ends the game at once.
    if any(m >= 10 for m in money):
        assert game.is_over and game.reason == REASON_TEN
    if ruleset in ZERO_EXEMPT and any(len(piles[model.claimed[p][2]]) >= 10 for p in range(players)):
        assert game.is_over and game.reason in (REASON_TEN, REASON_ZEROS)


def may_claim(game: Any, model: Model, ruleset: str, seat: int, pile: int) -> bool:
    """The three laws' `can claim`, written apart from the ruleset."""
    piles = game.state.piles
    if not piles[pile]:
        return False
    claims = [game.variable("claims", p) for p in range(model.players)]
    if claims[seat] != min(claims):
        return False
    v = model.number[pile]
    if ruleset in ZERO_EXEMPT and v == 0:
        return True
    if piles[model.claimed[seat][v + 2]]:
        return False
    return not (seat == game.variable("mover") and v == game.variable("played"))


def can_play(game: Any, model: Model, seat: int) -> bool:
    """Whether some bill of the seat's hand fits a stack: a wild bill needs a started stack."""
    piles = game.state.piles
    started = any(piles[s] for s in model.stack)
    return any(started if model.wild[c] else True for c in piles[model.hand[seat]])


def play_checked(ruleset: str, seed: int, script: list[str] | None = None,
                 deal: str | None = None, players: int | None = None) -> tuple[Any, int]:
    """Play game `seed` (2 + seed % 5 players, a seeded random choice among the legal moves), or
    the given deal and move texts, checking every position; return the game and its turns."""
    rules = rules_for(ruleset)
    if deal is None:
        players = 2 + seed % 5
        game = rules.new_game(seed=seed, players=players)
    else:
        assert players is not None
        game = rules.new_game(deal=deal, players=players)
    model = Model(rules, players)
    rng = random.Random(seed)
    scripted = iter(script or [])
    claims_made = [0] * players
    played = [0] * players
    dealt = [len(game.state.piles[h]) for h in model.hand]
    assert len(set(dealt)) == 1 and dealt[0] == len(model.in_play) // players, dealt
    each = dealt[0]
    # A turn with a bill is at most: play, force or wait, the forced claim, claim or pass, a
    # settling force and its forced claim; a turn without one is a single `no_bill`, and between
    # two plays each other seat passes at most once.
    plays = each * players
    bound = 6 * plays + players * (plays + 1)
    check_position(game, model, ruleset, claims_made)
    for seat in range(players):
        check_view(game, model, seat)
    turns = 0
    while not game.is_over:
        assert len(game.history) < bound, (ruleset, seed)
        state = game.state
        piles = state.piles
        mover = game.current_player
        moves = game.legal_moves()
        assert moves
        # A move names only a bill its seat may see.
        for m in moves:
            if m.pick is not None:
                assert game.visible(m.pick, m.src, mover) and m.src == model.hand[mover]
        if game.phase == "play":
            # A turn starts: each hand holds the deal less the bills its seat played.
            turns += 1
            sizes = [len(piles[h]) for h in model.hand]
            assert sizes == [each - played[p] for p in range(players)], (sizes, played)
            if ruleset not in WILD_RULESETS:
                assert max(sizes) - min(sizes) <= 1
            # A seat passes exactly when it has no bill that fits.
            names = {m.name for m in moves}
            if can_play(game, model, mover):
                assert names == {"play"}, names
            else:
                assert [m.name for m in moves] == ["no_bill"]
            # Five Max: a stack left pending is one that no seat may claim any more.
            pending = game.variable("pending")
            if pending is not None:
                assert not any(may_claim(game, model, ruleset, p, pending) for p in range(players)), (ruleset, seed)
        move = rng.choice(moves) if script is None else game.parse_move(next(scripted))
        name = move.name
        if name == "claim":
            v = model.number[move.src]
            claims = [game.variable("claims", p) for p in range(players)]
            assert claims[mover] == min(claims), "Slow Down broken"
            if not (ruleset in ZERO_EXEMPT and v == 0):
                assert not piles[model.claimed[mover][v + 2]], "Diversity broken: number claimed before"
                assert not (mover == game.variable("mover") and v == game.variable("played")), \
                    "Diversity broken: the number just played"
            assert move.dst == model.claimed[mover][v + 2]
            if game.phase == "forced":
                assert move.src == game.variable("pending")
                # The forced seat is never the seat whose turn it is: Diversity forbids it the
                # number it has just played.
                assert mover != game.variable("mover")
            claims_made[mover] += 1
        elif name == "play":
            played[mover] += 1
        game.apply(move)
        if name == "play":
            dst = game.state.piles[move.dst]
            total = len(dst) * model.number[move.dst]
            assert game.variable("pending") == (move.dst if total >= 5 else None), (ruleset, seed, total)
            assert game.variable("played") == model.number[move.dst] and game.variable("mover") == mover
        check_position(game, model, ruleset, claims_made)
        check_view(game, model, mover)
        if len(game.history) % ALL_SEATS_EVERY == 0:
            for seat in range(players):
                if seat != mover:
                    check_view(game, model, seat)
    assert next(scripted, None) is None, "the game ended before its script"
    # The end: won, by one of the ruleset's conditions, with the winners it names.
    assert game.outcome == "won", (ruleset, seed, game.outcome, game.reason)
    assert game.legal_moves() == []
    winners = game.winners()
    assert winners, (ruleset, seed)
    money = [game.variable("money", p) for p in range(players)]
    if game.reason == REASON_TEN:
        assert winners == [p for p in range(players) if money[p] >= 10]
    elif game.reason == REASON_ZEROS:
        assert ruleset in ZERO_EXEMPT
        assert winners == [p for p in range(players) if len(game.state.piles[model.claimed[p][2]]) >= 10]
    elif game.reason == REASON_NO_PLAY:
        # Only wild bills left in the hands, and no stack to put them on.
        assert ruleset in WILD_RULESETS
        assert game.phase == "play" and not any(can_play(game, model, p) for p in range(players))
        assert any(game.state.piles[h] for h in model.hand)
        assert max(money) < 10
        assert winners == [p for p in range(players) if money[p] == max(money)]
    else:
        assert game.reason == REASON_HANDS, game.reason
        assert all(not game.state.piles[h] for h in model.hand)
        assert max(money) < 10
        assert winners == [p for p in range(players) if money[p] == max(money)]
    return game, turns


@pytest.mark.parametrize("ruleset", RULESETS)
def test_random_games_keep_views_bills_money_and_laws_and_end_won(ruleset: str) -> None:
    start = time.perf_counter()
    reasons: dict[str, int] = {}
    by_players: dict[int, int] = {}
    moves = 0
    for seed in range(GAMES):
        game, _ = play_checked(ruleset, seed)
        reasons[game.reason] = reasons.get(game.reason, 0) + 1
        by_players[game.players] = by_players.get(game.players, 0) + 1
        moves += len(game.history)
    assert sum(reasons.values()) == GAMES
    assert STUCK not in reasons
    assert by_players == {n: GAMES // 5 for n in range(2, 7)}
    # Both main ways to end occur (the checks above are not vacuous for either).
    assert reasons.get(REASON_TEN, 0) > 0 and reasons.get(REASON_HANDS, 0) > 0, reasons
    SECONDS[ruleset] = time.perf_counter() - start
    print(f"\n{ruleset}: {GAMES} games, {moves} moves, {reasons}, {SECONDS[ruleset]:.1f} s")


def test_the_invariant_games_cover_every_ruleset_and_player_count() -> None:
    # Six rulesets x GAMES seeds, 2 + seed % 5 players: each count 2..6 gets GAMES / 5 games.
    assert len(RULESETS) == 6 and GAMES >= 1000
    assert {2 + seed % 5 for seed in range(GAMES)} == {2, 3, 4, 5, 6}


# Seed 700 of ten-bucks-wild-wagers (2 players) in the random play above, as a deal and moves:
# it reaches a position where seat 1 holds only wild bills and no stack is started.
STUCK_DEAL = "1 2 2 1 W 2 1 1 W 2 W 2 2 1 W 1"
STUCK_MOVES = [
    "h@1:2>s2", "pass", "h@2:2>s2", "pass", "h@1:2>s2", "wait", "pass", "force seat2", "s2>c2@2",
    "h@2:1>s1", "pass", "h@1:1>s1", "pass", "h@2:2>s2", "pass", "h@1:1>s1", "pass", "h@2:2>s2", "pass",
    "h@1:W>s1", "s2>c2@1", "h@2:1>s1", "wait", "pass", "force seat1", "s1>c1@1",
]


def test_a_seat_holding_only_wild_bills_with_no_stack_started_passes_and_the_game_goes_on() -> None:
    # Before the `no_bill` reading for this case, the position had no legal move at all and the
    # game ended "lost: no move is possible".
    game = rules_for("ten-bucks-wild-wagers").new_game(deal=STUCK_DEAL, players=2)
    for text in STUCK_MOVES:
        game.apply(game.parse_move(text))
    model = Model(game.rules, 2)
    piles = game.state.piles
    # The position: seat 1 to play, every stack empty, seat 1 holding three wild bills.
    assert game.current_player == 0 and game.phase == "play"
    assert all(not piles[s] for s in model.stack)
    assert [model.codes[c] for c in piles[model.hand[0]]] == ["W", "W", "W"]
    assert not game.is_over
    assert [m.name for m in game.legal_moves()] == ["no_bill"]
    game.apply(game.legal_moves()[0])
    # Seat 2 plays on; its bill starts a stack, so the wild bills may follow.
    assert game.current_player == 1 and game.phase == "play"
    assert {m.name for m in game.legal_moves()} == {"play"}


# Seed 1360 of ten-bucks-wild-wagers (2 players), played with plain bills first and claims
# whenever possible: both seats are left with two wild bills and every stack claimed.
NO_PLAY_DEAL = "2 2 W W 1 W 1 2 W 1 1 1 1 2 2 2"
NO_PLAY_MOVES = [
    "h@1:2>s2", "pass", "h@2:2>s2", "pass", "h@1:1>s1", "s2>c2@1", "h@2:2>s2", "s1>c1@2", "h@1:2>s2", "pass",
    "h@2:2>s2", "pass", "h@1:1>s1", "pass", "h@2:2>s2", "pass", "h@1:1>s1", "pass", "h@2:1>s1", "s2>c2@2",
    "h@1:1>s1", "pass", "h@2:1>s1", "force seat1", "s1>c1@1", "pass",
]


@pytest.mark.parametrize("ruleset", ["ten-bucks-wild-wagers", "ten-bucks-wild-two"])
def test_when_no_seat_can_play_a_wild_bill_the_game_ends_and_the_highest_totals_share_the_win(ruleset: str) -> None:
    # Random play never reaches this end (none in 20,000 seeds); this game does, under every check.
    game, _ = play_checked(ruleset, 0, script=NO_PLAY_MOVES, deal=NO_PLAY_DEAL, players=2)
    assert game.reason == REASON_NO_PLAY
    model = Model(game.rules, 2)
    assert [[model.codes[c] for c in game.state.piles[h]] for h in model.hand] == [["W", "W"], ["W", "W"]]
    assert [game.variable("money", p) for p in range(2)] == [9, 9]
    assert game.winners() == [0, 1]
