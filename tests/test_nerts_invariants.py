"""Nerts invariants over many seeded random games in simulated time: 500 games each with 2, 3
and 4 players (random bots through the scheduler, each seat at its own speed, the seed's penalty
1 or 2 in turn).

After every action the scheduler lands (driven step by step), landed or refused: every card of
the decks in play is in exactly one pile (none created or lost); a card on a seat's pile of 13,
work piles, stock or waste belongs to that seat; each foundation is one suit from the Ace upward
and only grows; the faces are as the rules lie them (the pile of 13 down but its top, the stock
down, everything else up); a refused action changed nothing. Every move a seat is offered takes
from its own piles (never from the middle) and goes to its own piles or the middle. Every game
ends, by a Nerts call (a pile of 13 empty), when everyone stayed stuck, or at the move limit, and the scores and winners are
those of the seed's formula computed here from the piles.
"""

from __future__ import annotations

import itertools
import random
from functools import lru_cache
from typing import Any

import pytest

from cardrules import load_ruleset
from cardrules.agents.bots import make_bot
from cardrules.python.engine import Game, Move
from cardrules.agents.scheduler import Scheduler

GAMES = 500
PLAYERS = [2, 3, 4]
# Random bots take hundreds to thousands of moves to empty a pile of 13 (a two-player hand can
# deadlock and run to the ruleset's 10,000). To keep the file within about a minute, most games
# stop at SHORT moves; every tenth runs to LONG, where many end by a Nerts call.
SHORT, LONG = 200, 1200
SPEEDS = (0.5, 0.8, 1.0, 1.5, 2.0)
NERTS = "a seat emptied its pile of 13 and called Nerts"
STALLED = "everyone was stuck five times in a row with no play"
RANK = {"A": 1, "T": 10, "J": 11, "Q": 12, "K": 13, **{str(n): n for n in range(2, 10)}}


@lru_cache(maxsize=None)
def rules_for(penalty: int) -> Any:
    return load_ruleset("nerts", options={"penalty": penalty})


class Layout:
    """The piles of a ruleset, by role, and each card's owner, rank and suit from its code."""

    def __init__(self, rules: Any, players: int) -> None:
        codes = rules.deck.codes
        self.owner = [int(code[-1]) - 1 for code in codes]
        self.rank = [RANK[code[0]] for code in codes]
        self.suit = [code[1] for code in codes]
        self.whole = sorted(rules.deck_cards[players])
        zones = rules.zones
        self.foundations = list(zones["foundation"].piles)
        self.middle = set(self.foundations)
        self.supply = zones["supply"].piles[0]
        seats = range(players)
        self.seat_piles = {p: {pile for name in ("nerts", "work", "stock", "waste") for pile in zones[name].piles
                               if rules.pile_owner[pile] == p} for p in seats}
        own_cards = {p: frozenset(card for card in self.whole if self.owner[card] == p) for p in seats}
        self.owned = [(pile, own_cards[p]) for p, piles in self.seat_piles.items() for pile in sorted(piles)]
        self.nerts = [zones["nerts"].piles[p] for p in seats]
        self.stocks = [zones["stock"].piles[p] for p in seats]
        self.face_up = [pile for name in ("work", "waste") for pile in zones[name].piles
                        if rules.pile_owner[pile] in seats] + self.foundations


def check_position(game: Game, layout: Layout, before: list[list[int]]) -> list[list[int]]:
    piles, up = game.state.piles, game.state.up
    # No card created or lost.
    assert sorted(itertools.chain.from_iterable(piles)) == layout.whole
    assert piles[layout.supply] == []
    # A seat's nerts, work, stock and waste piles hold only its own cards.
    for pile, own in layout.owned:
        assert own.issuperset(piles[pile]), game.rules.pile_names[pile]
    # Foundations: one suit from the Ace upward, and a card once there stays there.
    after = [piles[f] for f in layout.foundations]
    for old, cards in zip(before, after):
        if cards is old:
            continue
        assert cards[:len(old)] == old, "a card left a foundation"
        if cards:
            suit = layout.suit[cards[0]]
            assert [layout.rank[card] for card in cards] == list(range(1, len(cards) + 1))
            assert all(layout.suit[card] == suit for card in cards)
    # Faces: the pile of 13 down but its top, the stock down, work piles, waste and middle up.
    face = up.__getitem__
    for pile in layout.nerts:
        cards = piles[pile]
        assert sum(map(face, cards)) == (1 if cards else 0) and (not cards or face(cards[-1]))
    assert not any(map(face, itertools.chain.from_iterable(piles[pile] for pile in layout.stocks)))
    assert all(map(face, itertools.chain.from_iterable(piles[pile] for pile in layout.face_up)))
    return after


class Checked:
    """A random bot that first checks the moves its seat is offered: from its own piles only
    (never from the middle), to its own piles or the middle."""

    name = "random"

    def __init__(self, seed: int, layout: Layout) -> None:
        self.bot = make_bot("random", seed)
        self.layout = layout
        self.offers = 0

    def choose(self, game: Game) -> Move:
        seat = game.current_player
        own = self.layout.seat_piles[seat]
        for move in game.legal_moves():
            assert move.actor == seat
            assert move.src < 0 or move.src in own, str(move)
            assert move.dst < 0 or move.dst in own or move.dst in self.layout.middle, str(move)
        self.offers += 1
        return self.bot.choose(game)


def expected_scores(game: Game, layout: Layout, penalty: int) -> list[int]:
    piles = game.state.piles
    in_middle = [layout.owner[card] for f in layout.foundations for card in piles[f]]
    return [in_middle.count(p) - penalty * len(piles[layout.nerts[p]]) for p in range(game.players)]


def play_checked(players: int, seed: int) -> tuple[Game, Scheduler]:
    penalty = 1 + seed % 2
    rules = rules_for(penalty)
    max_moves = LONG if seed % 10 == 0 else SHORT
    game = rules.new_game(seed=seed, players=players, max_moves=max_moves)
    layout = Layout(rules, players)
    rng = random.Random(f"speeds/{players}/{seed}")
    speeds = {p: rng.choice(SPEEDS) for p in range(players)}
    agents = {p: Checked(100 * seed + p, layout) for p in range(players)}
    scheduler = Scheduler(game, agents, seed=seed, speeds=speeds)
    foundations = check_position(game, layout, [[] for _ in layout.foundations])
    while scheduler.next_time() is not None:
        piles = list(game.state.piles)
        record = scheduler.step()
        if record is None:
            continue
        if not record.landed:
            assert game.state.piles == piles, "a refused action moved cards"
        foundations = check_position(game, layout, foundations)
    # Every game ends: by a Nerts call, when everyone stayed stuck, or at the move limit.
    assert game.is_over
    empty = [p for p in range(players) if not game.state.piles[layout.nerts[p]]]
    if game.outcome == "won" and game.reason != NERTS:
        assert game.reason == STALLED and game.variable("stalls") == 5 and not empty
    elif game.outcome == "won":
        assert game.reason == NERTS and empty
        assert len(game.history) <= max_moves
    else:
        assert game.outcome == "limit" and len(game.history) == max_moves and not empty
    assert game.legal_moves() == [] and all(game.legal_moves(p) == [] for p in range(players))
    # The scores are the seed's: own cards in the middle, less the penalty per card left in the pile of 13.
    scores = expected_scores(game, layout, penalty)
    assert game.scores() == scores
    if game.outcome == "won":
        assert game.winners() == [p for p in range(players) if scores[p] == max(scores)]
        assert all(scores[p] == len([c for f in layout.foundations for c in game.state.piles[f]
                                     if layout.owner[c] == p]) for p in empty)
    else:
        assert game.winners() == []
    # The landed actions are the game's history; the refused ones left no move in it.
    assert [r.move for r in scheduler.records if r.landed] == [str(m) for m in game.history]
    return game, scheduler


@pytest.mark.parametrize("players", PLAYERS)
def test_random_games_keep_every_card_on_its_owners_layout_build_foundations_by_suit_end_and_score(
        players: int) -> None:
    ends: dict[str, int] = {}
    refused = rotations = 0
    for seed in range(GAMES):
        game, scheduler = play_checked(players, seed)
        ends[game.outcome] = ends.get(game.outcome, 0) + 1
        refused += scheduler.refused
        rotations += game.variable("rotations") > 0
    assert sum(ends.values()) == GAMES and set(ends) <= {"won", "limit"}
    # The games went through the rules' paths: hands called, races lost, everyone stuck.
    assert ends.get("won", 0) >= GAMES // 50
    assert refused > 0
    assert rotations > 0
