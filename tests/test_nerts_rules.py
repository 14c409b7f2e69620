"""Nerts, rule by rule: one or more tests per sentence of the seed text
(shared/seeds/004_1201fff25175da8a.txt) and per reading in shared/GAMES.md (section 5) and in
the rulesets' comments, for the base game (rulesets/nerts.yaml) and the match to 100
(rulesets/nerts-match.yaml).

Every test starts from an explicit deal (see ``seat_cards`` and ``new_game``): for each seat, the
top of its pile of 13, its four work cards and the top of its stock are given; the rest of the
seat's own cards fill the piles from below. Seats are 0-based in the engine (``legal_moves(seat)``,
``winners()``, the helpers' ``p``) and 1-based in card codes and move texts (``AS1`` is seat 1's
Ace of spades; ``n@2>w1@2``: seat 2 plays the top of its pile of 13 onto its first work pile).
Nerts is simultaneous: a seat's move is found with ``parse_move(text, seat)`` and applied with
``apply``; a move that another seat's move has made illegal raises ``IllegalMoveError``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import pytest

from cardrules import IllegalMoveError, load_ruleset
from cardrules.storage import store
from cardrules.agents.bots import make_bot
from cardrules.python.engine import Game, Move
from cardrules.storage.store import save_game
from cardrules.agents.scheduler import Scheduler, simulate
from helpers import play, texts

BASE = "nerts"
MATCH = "nerts-match"
NERTS = "a seat emptied its pile of 13 and called Nerts"

RANKS = "A23456789TJQK"
SUITS = "CDHS"
SPADES_DOWN = [f"{r}S" for r in reversed(RANKS)]  # KS, QS, ..., AS: bottom first, the Ace on top


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------


@lru_cache(maxsize=None)
def ruleset(name: str = BASE, **options: Any) -> Any:
    return load_ruleset(name, options)


def own_cards(p: int) -> list[str]:
    """Seat p's 52 cards: clubs, diamonds, hearts, spades, each Ace to King."""
    return [f"{r}{s}{p + 1}" for s in SUITS for r in RANKS]


def c(p: int, *cards: str) -> list[str]:
    """Seat p's cards by rank and suit: ``c(0, "AS", "TD")`` is ``["AS1", "TD1"]``."""
    return [f"{card}{p + 1}" for card in cards]


def seat_cards(p: int, nerts: Sequence[str] = (), work: Sequence[str] = (),
               stock: Sequence[str] = ()) -> dict[str, list[str]]:
    """Seat p's piles as dealt: ``nerts`` is the top of its pile of 13 and ``stock`` the top of its
    stock (both bottom first: the last card is the top), ``work`` its first work cards; the seat's
    other cards (in ``own_cards`` order) fill the work piles, then the pile of 13 and the stock from
    below."""
    given = [*nerts, *work, *stock]
    assert len(set(given)) == len(given), "a card is given twice"
    assert all(card in own_cards(p) for card in given), f"seat {p + 1} holds only its own cards"
    assert len(nerts) <= 13 and len(work) <= 4 and len(stock) <= 35
    rest = [card for card in own_cards(p) if card not in given]
    fill_work, rest = rest[:4 - len(work)], rest[4 - len(work):]
    fill_nerts, fill_stock = rest[:13 - len(nerts)], rest[13 - len(nerts):]
    return {"nerts": fill_nerts + list(nerts), "work": list(work) + fill_work, "stock": fill_stock + list(stock)}


def make_deal(seats: Sequence[dict[str, list[str]]]) -> list[str]:
    """The deal (top of the deck first) that gives each seat those piles: setup deals each seat's
    pile of 13 (the first of its cards dealt at the bottom), then one card to each work pile, then
    its stock, each time the next card of the seat's own from the top of the deck; so one seat's
    52 cards in that order, then the next seat's, deal them."""
    return [card for seat in seats for card in (*seat["nerts"], *seat["work"], *seat["stock"])]


def new_game(*seats: dict[str, list[str]], name: str = BASE, persisted: dict[str, Any] | None = None,
             **options: Any) -> Game:
    rules = ruleset(name, **options)
    deal = make_deal(seats)
    in_play = sorted(rules.deck.codes[card] for card in rules.deck_cards[len(seats)])
    assert sorted(deal) == in_play, "the deal must list exactly the cards in play"
    game = rules.new_game(deal=deal, players=len(seats), persisted=persisted)
    for p, seat in enumerate(seats):
        assert nerts(game, p) == seat["nerts"]
        assert [work(game, p, i) for i in range(4)] == [[card] for card in seat["work"]]
        assert stock(game, p) == seat["stock"]
    return game


def plain(players: int = 2, name: str = BASE, **options: Any) -> Game:
    """Every seat's cards in ``own_cards`` order (nothing arranged)."""
    return new_game(*(seat_cards(p) for p in range(players)), name=name, **options)


def named(game: Game, pile_name: str) -> list[str]:
    """The card codes of the pile called ``pile_name`` (``n@1``, ``w2@1``, ``s@2``, ``x@1``, ``f3``), bottom first."""
    codes = game.rules.deck.codes
    return [codes[card] for card in game.state.piles[game.rules.pile_names.index(pile_name)]]


def faces_up(game: Game, pile_name: str) -> list[bool]:
    return [bool(game.state.up[card]) for card in game.state.piles[game.rules.pile_names.index(pile_name)]]


def nerts(game: Game, p: int) -> list[str]:
    return named(game, f"n@{p + 1}")


def work(game: Game, p: int, i: int) -> list[str]:
    return named(game, f"w{i + 1}@{p + 1}")


def stock(game: Game, p: int) -> list[str]:
    return named(game, f"s@{p + 1}")


def waste(game: Game, p: int) -> list[str]:
    return named(game, f"x@{p + 1}")


def foundations(game: Game) -> list[list[str]]:
    """Every foundation in the middle, empty ones included (f1 first)."""
    return [named(game, f"f{i + 1}") for i in range(24)]


def started(game: Game) -> list[list[str]]:
    return [f for f in foundations(game) if f]


def act(game: Game, p: int, *moves: str) -> None:
    """Seat p makes these moves, one after the other."""
    game.focus(p)
    play(game, *moves)


def seat_texts(game: Game, p: int, name: str | None = None) -> set[str]:
    """Seat p's legal moves' texts (only those of the move template ``name``, if given)."""
    game.focus(p)
    return texts(game, name)


def draws(game: Game, p: int, times: int) -> None:
    for _ in range(times):
        act(game, p, "draw")


def flags(game: Game, name: str) -> list[Any]:
    return [game.variable(name, p) for p in range(game.players)]


def spade_caller(p: int, **more: Sequence[str]) -> dict[str, list[str]]:
    """Seat p with the thirteen spades in its pile of 13, the Ace on top: it can empty the pile
    onto one foundation in 13 moves."""
    return seat_cards(p, nerts=c(p, *SPADES_DOWN), **more)


def call_nerts(game: Game, p: int) -> None:
    """Seat p (a ``spade_caller``) plays its thirteen spades to a new foundation."""
    act(game, p, f"ace:n@{p + 1}")
    spades = next(i for i, f in enumerate(foundations(game)) if f == [f"AS{p + 1}"])
    for _ in range(12):
        act(game, p, f"n@{p + 1}>f{spades + 1}")


class Scripted:
    """A scheduler agent that plays the first of its wanted move texts that is legal, else draws
    (else its first legal move)."""

    name = "scripted"

    def __init__(self, *wanted: str) -> None:
        self.wanted = list(wanted)

    def choose(self, game: Game) -> Move:
        moves = {str(m): m for m in game.legal_moves()}
        for text in self.wanted:
            if text in moves:
                self.wanted.remove(text)
                return moves[text]
        return next((m for m in moves.values() if m.name == "draw"), game.legal_moves()[0])


# ---------------------------------------------------------------------------
# Setup: "Each player deals a pile of thirteen cards in one pile, twelve cards face down and the
# thirteenth face up on top. Next to this pile, each player deals four cards face-up ... to begin
# four work piles. The remainder of each player's cards are held face-down as a stock ... (the
# waste pile has no cards at the start of play)." Foundations: none until an Ace starts one.
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_setup_deals_each_seat_13_with_the_top_up_4_work_cards_up_a_35_stock_down_and_no_waste(players: int) -> None:
    game = ruleset().new_game(seed=players, players=players)
    owner = {code: int(code[-1]) - 1 for code in game.deal_order}
    for p in range(players):
        assert len(nerts(game, p)) == 13
        assert faces_up(game, f"n@{p + 1}") == [False] * 12 + [True]
        for i in range(4):
            assert len(work(game, p, i)) == 1 and faces_up(game, f"w{i + 1}@{p + 1}") == [True]
        assert len(stock(game, p)) == 35 and not any(faces_up(game, f"s@{p + 1}"))
        assert waste(game, p) == []
        # Each seat's layout is made of its own deck only.
        layout = nerts(game, p) + stock(game, p) + [card for i in range(4) for card in work(game, p, i)]
        assert sorted(layout) == sorted(own_cards(p)) and all(owner[card] == p for card in layout)
    assert started(game) == []
    assert len(game.deal_order) == 52 * players
    assert flags(game, "stuck") == [False] * players and game.variable("rotations") == 0


def test_the_pile_of_13_holds_the_first_13_cards_of_the_seat_dealt_and_the_last_of_them_shows() -> None:
    seat1 = seat_cards(0, nerts=c(0, "2H", "9C", "KD"), work=c(0, "5S", "6S", "7S", "8S"), stock=c(0, "QC", "JC"))
    seat2 = seat_cards(1, nerts=c(1, "3D"), stock=c(1, "4D"))
    game = new_game(seat1, seat2)  # new_game checks every pile against the deal
    assert nerts(game, 0)[-1] == "KD1" and faces_up(game, "n@1")[-1]
    assert [work(game, 0, i) for i in range(4)] == [["5S1"], ["6S1"], ["7S1"], ["8S1"]]
    assert stock(game, 0)[-2:] == ["QC1", "JC1"] and nerts(game, 1)[-1] == "3D2" and stock(game, 1)[-1] == "4D2"
    # Seat 2's cards dealt before seat 1's give the same layout: `where` picks each seat's own.
    swapped = ruleset().new_game(deal=make_deal([seat2, seat1]), players=2)
    assert [named(swapped, n) for n in ("n@1", "w1@1", "s@1", "n@2", "s@2")] == \
        [named(game, n) for n in ("n@1", "w1@1", "s@1", "n@2", "s@2")]


# ---------------------------------------------------------------------------
# "Players play simultaneously ..., not taking turns": every seat has moves at every moment.
# ---------------------------------------------------------------------------


def test_every_seat_has_its_own_moves_at_once_and_may_move_twice_in_a_row() -> None:
    game = new_game(seat_cards(0, nerts=c(0, "AS")), seat_cards(1, nerts=c(1, "AH")), seat_cards(2))
    assert "ace:n@1" in seat_texts(game, 0) and "ace:n@2" in seat_texts(game, 1)
    assert {"draw@1", "draw@2", "draw@3"} <= seat_texts(game, 0) | seat_texts(game, 1) | seat_texts(game, 2)
    act(game, 1, "draw", "draw", "draw")  # no turns: seat 2 goes on as long as it likes
    act(game, 0, "ace:n@1")
    act(game, 1, "ace:n@2")
    assert started(game) == [["AS1"], ["AH2"]]
    assert len(stock(game, 1)) == 35 - 9 and len(waste(game, 1)) == 9


# ---------------------------------------------------------------------------
# "If two or more players try to play to the same foundation at the same time, the first played
# card ... stays there, and all other players must return the equivalent cards they had just
# tried to play on that same foundation pile to their previous positions."
# ---------------------------------------------------------------------------


def race_game() -> Game:
    """Seat 1 has started f1 with its Ace of spades; both seats show a Two of spades on their pile of 13."""
    game = new_game(seat_cards(0, nerts=c(0, "2S", "AS")), seat_cards(1, nerts=c(1, "9D", "2S")))
    act(game, 0, "ace:n@1")
    assert foundations(game)[0] == ["AS1"]
    return game


@pytest.mark.parametrize("first", [0, 1])
def test_a_race_for_one_foundation_is_won_by_the_first_card_and_the_other_goes_back(first: int) -> None:
    game = race_game()
    moves = {p: game.parse_move(f"n@{p + 1}>f1", p) for p in (0, 1)}  # both seats are offered the Two
    second = 1 - first
    before = nerts(game, second)
    game.apply(moves[first])
    assert foundations(game)[0] == ["AS1", f"2S{first + 1}"]
    with pytest.raises(IllegalMoveError):
        game.apply(moves[second])  # too late: the Two of spades is already there
    assert nerts(game, second) == before and faces_up(game, f"n@{second + 1}")[-1]  # its card stays
    assert foundations(game)[0] == ["AS1", f"2S{first + 1}"]
    assert f"n@{second + 1}>f1" not in seat_texts(game, second)
    assert [str(m) for m in game.history] == ["ace:n@1", f"n@{first + 1}>f1"]  # the refused move left no trace


@pytest.mark.parametrize(("fast", "slow"), [(0, 1), (1, 0)])
def test_the_scheduler_lands_the_faster_seats_card_and_refuses_the_slower_one(fast: int, slow: int) -> None:
    game = race_game()
    left = len(nerts(game, slow))
    agents = {p: Scripted(f"n@{p + 1}>f1") for p in (0, 1)}
    scheduler = Scheduler(game, agents, seed=1, speeds={fast: 3.0, slow: 1.0}, jitter=0.0)
    while not any(r.seat == slow for r in scheduler.records):
        scheduler.step()
    first, refused = scheduler.records[0], [r for r in scheduler.records if r.seat == slow][0]
    assert (first.seat, first.move, first.landed) == (fast, f"n@{fast + 1}>f1", True)
    assert first.time == pytest.approx(1 / 3)
    assert (refused.move, refused.landed) == (f"n@{slow + 1}>f1", False) and refused.time == pytest.approx(1.0)
    assert scheduler.refused == 1
    assert foundations(game)[0] == ["AS1", f"2S{fast + 1}"]
    assert nerts(game, slow)[-1] == f"2S{slow + 1}"  # back where it was, still showing
    assert len(nerts(game, slow)) == left


def test_the_scheduler_replays_the_refused_seat_which_decides_again() -> None:
    game = race_game()
    agents = {0: Scripted("n@1>f1"), 1: Scripted("n@2>f1")}
    scheduler = Scheduler(game, agents, seed=1, speeds={0: 3.0, 1: 1.0}, jitter=0.0)
    while len([r for r in scheduler.records if r.seat == 1]) < 2:
        scheduler.step()
    tries = [(r.move, r.landed) for r in scheduler.records if r.seat == 1]
    assert tries[0] == ("n@2>f1", False)
    assert tries[1][1] is True  # its next decision, made from the new position, landed


# ---------------------------------------------------------------------------
# Foundations: "always begun with an ace ... Players can always start new foundation piles by
# placing any available ace in the common area." Reading: the first free place; never a collision.
# ---------------------------------------------------------------------------


def test_aces_from_several_seats_at_once_start_one_foundation_each_and_never_collide() -> None:
    game = new_game(seat_cards(0, nerts=c(0, "AS")), seat_cards(1, nerts=c(1, "AS")), seat_cards(2, nerts=c(2, "AS")))
    moves = [game.parse_move(f"ace:n@{p + 1}", p) for p in range(3)]  # all decided on the same position
    for move in (moves[1], moves[2], moves[0]):
        game.apply(move)  # none is refused
    assert foundations(game)[:4] == [["AS2"], ["AS3"], ["AS1"], []]
    assert len(started(game)) == 3


@pytest.mark.parametrize("source", ["nerts", "waste", "work"])
def test_an_ace_from_each_source_starts_the_first_free_foundation(source: str) -> None:
    if source == "nerts":
        seat1, text = seat_cards(0, nerts=c(0, "AD")), "ace:n@1"
    elif source == "waste":
        seat1, text = seat_cards(0, stock=c(0, "AD", "9C", "9S")), "ace:x@1"
    else:
        seat1, text = seat_cards(0, work=c(0, "KC", "AD", "KS", "KH")), "ace:w2@1"
    game = new_game(seat1, seat_cards(1, nerts=c(1, "AH")))
    act(game, 1, "ace:n@2")
    if source == "waste":
        act(game, 0, "draw")
        assert waste(game, 0)[-1] == "AD1"
    assert text in seat_texts(game, 0, "ace")
    act(game, 0, text)
    assert foundations(game)[:3] == [["AH2"], ["AD1"], []]
    assert "AD1" not in nerts(game, 0) + waste(game, 0) + work(game, 0, 1)


def test_only_an_ace_starts_a_foundation_and_an_ace_never_goes_onto_one() -> None:
    game = new_game(seat_cards(0, nerts=c(0, "AH", "2S"), work=c(0, "AS", "3S", "2H", "KD")), seat_cards(1))
    assert {m for m in seat_texts(game, 0) if ">f" in m} == set()  # nothing builds on an empty foundation
    act(game, 0, "ace:w1@1")
    assert {m for m in seat_texts(game, 0) if ">f" in m} == {"n@1>f1"}  # only the Two of spades on it
    act(game, 0, "n@1>f1")
    assert nerts(game, 0)[-1] == "AH1"
    assert "ace:n@1" in seat_texts(game, 0)
    assert "n@1>f1" not in seat_texts(game, 0)  # an Ace is no Three of spades
    act(game, 0, "ace:n@1")
    assert started(game) == [["AS1", "2S1"], ["AH1"]]


# ---------------------------------------------------------------------------
# "can be built up by playing the next higher card of the same suit ... until the king is reached
# ... Any player may play onto any foundation."
# ---------------------------------------------------------------------------


def test_foundations_build_up_by_suit_one_rank_at_a_time_by_any_seat() -> None:
    seat1 = seat_cards(0, nerts=c(0, "AS"), work=c(0, "2H", "3S", "2S", "4S"))
    seat2 = seat_cards(1, nerts=c(1, "4S"), work=c(1, "3S", "2D", "5S", "QH"))
    game = new_game(seat1, seat2)
    act(game, 0, "ace:n@1")
    assert seat_texts(game, 0, "to_foundation") == {"w3@1>f1"}  # 2S; not 2H (suit), not 3S or 4S (rank)
    assert seat_texts(game, 1, "to_foundation") == set()
    act(game, 0, "w3@1>f1")
    assert seat_texts(game, 0, "to_foundation") == {"w2@1>f1"}
    assert seat_texts(game, 1, "to_foundation") == {"w1@2>f1"}  # seat 2's 3S on seat 1's foundation
    act(game, 1, "w1@2>f1")
    assert seat_texts(game, 0, "to_foundation") == {"w4@1>f1"}  # seat 1's 4S now fits, its 3S no more
    assert seat_texts(game, 1, "to_foundation") == {"n@2>f1"}
    act(game, 1, "n@2>f1", "w3@2>f1")
    assert foundations(game)[0] == ["AS1", "2S1", "3S2", "4S2", "5S2"]
    with pytest.raises(IllegalMoveError):
        act(game, 0, "w4@1>f1")  # the 4S of seat 1 was beaten to it


# ---------------------------------------------------------------------------
# "Work piles are built in descending order, alternating color, overlapping the cards."
# ---------------------------------------------------------------------------


def test_work_piles_build_down_by_one_in_alternating_colour() -> None:
    seat1 = seat_cards(0, nerts=c(0, "9H"), work=c(0, "TS", "TH", "JC", "9D"), stock=c(0, "9C", "5D", "6D"))
    game = new_game(seat1, seat_cards(1))
    act(game, 0, "draw")
    assert waste(game, 0)[-1] == "9C1"
    assert seat_texts(game, 0, "to_work") == {"n@1>w1@1", "x@1>w2@1"}  # 9H on TS; 9C on TH
    assert seat_texts(game, 0, "work_to_work") == {"w2@1>w3@1", "w4@1>w1@1"}  # TH on JC; 9D on TS
    act(game, 0, "n@1>w1@1")
    assert work(game, 0, 0) == ["TS1", "9H1"] and faces_up(game, "w1@1") == [True, True]
    # Neither Nine goes on the 9H now: only a black Eight would.
    assert "w4@1>w1@1" not in seat_texts(game, 0) and "x@1>w1@1" not in seat_texts(game, 0)
    act(game, 0, "x@1>w2@1")
    assert work(game, 0, 1) == ["TH1", "9C1"]


@pytest.mark.parametrize(("top", "card", "fits"), [
    ("TS", "9H", True), ("TS", "9D", True), ("TH", "9C", True), ("TD", "9S", True),
    ("TS", "9C", False),  # same colour
    ("TH", "9D", False),  # same colour
    ("TS", "8H", False),  # skips a rank
    ("TS", "JH", False),  # up, not down
    ("TS", "TH", False),  # same rank
    ("2C", "AH", True),   # an Ace may go on a Two of the other colour too
    ("2C", "AS", False),
])
def test_a_card_goes_on_a_work_pile_only_one_rank_lower_and_of_the_other_colour(top: str, card: str, fits: bool) -> None:
    seat1 = seat_cards(0, nerts=c(0, card), work=c(0, top, "KS", "KH", "KC"))
    game = new_game(seat1, seat_cards(1))
    assert ("n@1>w1@1" in seat_texts(game, 0)) is fits


# ---------------------------------------------------------------------------
# "You can move any card in one of your work piles onto another of your own work piles if it
# fits, and any cards on top of the card are moved go with it." / "Only one card at a time may
# be moved, except when moving a block of cards from one work pile to another."
# ---------------------------------------------------------------------------


def block_game() -> Game:
    """Seat 1's first work pile is TS 9H 8C (built from its pile of 13); JD, TC and 3C beside it."""
    seat1 = seat_cards(0, nerts=c(0, "8C", "9H"), work=c(0, "TS", "JD", "TC", "3C"))
    game = new_game(seat1, seat_cards(1))
    act(game, 0, "n@1>w1@1", "n@1>w1@1")
    assert work(game, 0, 0) == ["TS1", "9H1", "8C1"]
    return game


def test_a_whole_work_pile_moves_as_a_block_onto_another() -> None:
    game = block_game()
    assert {"w1@1x3>w2@1", "w1@1x2>w3@1"} <= seat_texts(game, 0, "work_to_work")
    act(game, 0, "w1@1x3>w2@1")
    assert work(game, 0, 1) == ["JD1", "TS1", "9H1", "8C1"] and work(game, 0, 0) == []
    assert all(faces_up(game, "w2@1"))


def test_a_card_inside_a_work_pile_moves_with_the_cards_on_it() -> None:
    game = block_game()
    act(game, 0, "w1@1x2>w3@1")  # the 9H, with the 8C on it, onto the TC
    assert work(game, 0, 0) == ["TS1"] and work(game, 0, 2) == ["TC1", "9H1", "8C1"]


def test_a_block_moves_only_where_its_lowest_card_fits_and_never_leaves_cards_on_it_behind() -> None:
    game = block_game()
    from_first = {m for m in seat_texts(game, 0, "work_to_work") if m.startswith("w1@1")}
    # 8C alone fits nowhere (no red Nine); 9H with 8C fits the TC only (not the JD); the whole
    # pile fits the JD only (not the TC). Nothing takes the 9H and leaves the 8C behind.
    assert from_first == {"w1@1x2>w3@1", "w1@1x3>w2@1"}


def test_only_single_cards_leave_the_pile_of_13_and_the_waste() -> None:
    seat1 = seat_cards(0, nerts=c(0, "8C", "9H"), work=c(0, "TS", "JD", "9S", "3C"), stock=c(0, "8H", "9C", "7C"))
    game = new_game(seat1, seat_cards(1))
    act(game, 0, "draw")
    assert waste(game, 0) == ["7C1", "9C1", "8H1"]
    assert all(m.count == 1 for m in game.legal_moves(0) if m.name in ("to_work", "to_foundation", "ace"))
    act(game, 0, "x@1>w3@1", "n@1>w1@1")
    assert work(game, 0, 2) == ["9S1", "8H1"] and waste(game, 0) == ["7C1", "9C1"]
    assert work(game, 0, 0) == ["TS1", "9H1"] and nerts(game, 0)[-1] == "8C1"


# ---------------------------------------------------------------------------
# "When a space results, it may be filled by a card from your pile of 13, your waste pile or
# another work pile." Reading: a whole work pile is not moved into a space (it changes nothing).
# ---------------------------------------------------------------------------


def space_game() -> Game:
    """Seat 1's first work pile emptied (its Ace went to the middle); the second is TS 9H 8C;
    the pile of 13 shows 5C, the waste 7D."""
    seat1 = seat_cards(0, nerts=c(0, "5C", "8C", "9H"), work=c(0, "AS", "TS", "KH", "QH"),
                       stock=c(0, "7D", "2C", "3C"))
    game = new_game(seat1, seat_cards(1))
    act(game, 0, "ace:w1@1", "n@1>w2@1", "n@1>w2@1", "draw")
    assert work(game, 0, 0) == [] and work(game, 0, 1) == ["TS1", "9H1", "8C1"]
    assert nerts(game, 0)[-1] == "5C1" and waste(game, 0)[-1] == "7D1"
    return game


@pytest.mark.parametrize(("text", "moved"), [
    ("n@1>w1@1", ["5C1"]),              # from the pile of 13
    ("x@1>w1@1", ["7D1"]),              # from the waste
    ("w2@1>w1@1", ["8C1"]),             # from another work pile
    ("w2@1x2>w1@1", ["9H1", "8C1"]),    # from another work pile, a card with the cards on it
])
def test_a_space_is_filled_from_the_pile_of_13_the_waste_or_another_work_pile(text: str, moved: list[str]) -> None:
    game = space_game()
    assert {"n@1>w1@1", "x@1>w1@1", "w2@1>w1@1", "w2@1x2>w1@1"} <= seat_texts(game, 0)
    act(game, 0, text)
    assert work(game, 0, 0) == moved


def test_a_whole_work_pile_does_not_move_into_a_space() -> None:
    game = space_game()
    moves = seat_texts(game, 0)
    assert "w2@1x3>w1@1" not in moves  # TS 9H 8C: the same pile again, elsewhere
    assert "w3@1>w1@1" not in moves and "w4@1>w1@1" not in moves  # a lone card: nothing would change
    with pytest.raises(IllegalMoveError):
        game.parse_move("w2@1x3>w1@1", 0)


def test_a_king_goes_only_to_a_space() -> None:
    seat1 = seat_cards(0, nerts=c(0, "KD"), work=c(0, "AS", "QS", "QC", "2D"))
    game = new_game(seat1, seat_cards(1))
    assert not any(m.startswith("n@1>") for m in seat_texts(game, 0))
    act(game, 0, "ace:w1@1")
    assert {m for m in seat_texts(game, 0) if m.startswith("n@1>")} == {"n@1>w1@1"}
    act(game, 0, "n@1>w1@1", "w2@1>w1@1")
    assert work(game, 0, 0) == ["KD1", "QS1"]


# ---------------------------------------------------------------------------
# "Cards from the top of your pile of 13 can be played onto empty spaces in your work piles. If
# they fit, they can also be played onto one of your existing work piles, or ... directly onto a
# foundation. When you have played the top card of your pile of 13 you can turn the next card of
# the pile face up." Reading: it turns up by itself.
# ---------------------------------------------------------------------------


def test_the_next_card_of_the_pile_of_13_turns_up_after_each_play_from_it() -> None:
    seat1 = seat_cards(0, nerts=c(0, "2S", "9H", "AS"), work=c(0, "TS", "KH", "KD", "KC"))
    game = new_game(seat1, seat_cards(1))
    act(game, 0, "ace:n@1")  # to a foundation
    assert nerts(game, 0)[-1] == "9H1" and faces_up(game, "n@1") == [False] * 11 + [True]
    act(game, 0, "n@1>w1@1")  # to a work pile
    assert nerts(game, 0)[-1] == "2S1" and faces_up(game, "n@1") == [False] * 10 + [True]
    assert "n@1>f1" in seat_texts(game, 0)  # the card turned up is playable at once
    act(game, 0, "n@1>f1")
    assert len(nerts(game, 0)) == 10 and faces_up(game, "n@1") == [False] * 9 + [True]


def test_only_the_top_card_of_the_pile_of_13_is_in_play() -> None:
    seat1 = seat_cards(0, nerts=c(0, "AS", "9C"), work=c(0, "TS", "KH", "KD", "KC"))
    game = new_game(seat1, seat_cards(1))
    assert "ace:n@1" not in seat_texts(game, 0)  # the Ace lies under the 9C
    assert seat_texts(game, 0, "to_work") == set() and seat_texts(game, 0, "ace") == set()


# ---------------------------------------------------------------------------
# "You can turn over cards from your stock three at a time and put them face-up onto your waste
# pile ... Be sure to keep the cards in the same order when you do so. The top card of your waste
# pile may be played to one of your work piles or to a foundation pile if it fits."
# ---------------------------------------------------------------------------


def test_the_stock_turns_three_at_a_time_onto_the_waste_keeping_their_order() -> None:
    stock1 = c(0, "2C", "3C", "4C", "5C", "6C", "7C")  # 7C on top
    game = new_game(seat_cards(0, stock=stock1), seat_cards(1))
    before = stock(game, 0)
    act(game, 0, "draw")
    # The three turned over as a packet: the top card of the stock lies lowest, the third shows.
    assert waste(game, 0) == ["7C1", "6C1", "5C1"] and faces_up(game, "x@1") == [True] * 3
    assert stock(game, 0) == before[:-3] and not any(faces_up(game, "s@1"))
    act(game, 0, "draw")
    assert waste(game, 0) == ["7C1", "6C1", "5C1", "4C1", "3C1", "2C1"]
    assert len(stock(game, 0)) == 29


def test_only_the_top_card_of_the_waste_is_in_play() -> None:
    game = new_game(seat_cards(0, stock=c(0, "3S", "AS", "AH"), work=c(0, "4D", "KC", "KS", "KH")), seat_cards(1))
    act(game, 0, "draw")
    assert waste(game, 0) == ["AH1", "AS1", "3S1"]
    from_waste = lambda: {m for m in seat_texts(game, 0) if "x@1" in m}  # noqa: E731
    assert from_waste() == {"x@1>w1@1"}  # the 3S on the 4D; the Aces are under it
    act(game, 0, "x@1>w1@1")
    assert from_waste() == {"ace:x@1"}
    act(game, 0, "ace:x@1", "ace:x@1")
    assert started(game) == [["AS1"], ["AH1"]] and waste(game, 0) == []


# "If there are only one or two cards left in the stock, place them on the waste pile, and then
# turn the waste pile over to start a new stock; do not pick up the waste pile and place it
# underneath so that you can deal three cards."


def test_with_two_left_they_go_to_the_waste_and_the_waste_turns_over_as_the_new_stock() -> None:
    game = new_game(seat_cards(0), seat_cards(1))
    original = stock(game, 0)
    draws(game, 0, 11)
    assert stock(game, 0) == original[:2] and len(waste(game, 0)) == 33
    act(game, 0, "draw")  # not three cards: the two, then the waste turned over
    assert waste(game, 0) == [] and stock(game, 0) == original
    assert not any(faces_up(game, "s@1"))
    act(game, 0, "draw")
    assert waste(game, 0) == original[-1:-4:-1]  # the new stock deals as the old one did


def test_with_one_left_it_goes_to_the_waste_and_the_waste_turns_over() -> None:
    stock1 = c(0, "AD", "9C", "9S")  # the first draw shows the Ace of diamonds
    game = new_game(seat_cards(0, stock=stock1), seat_cards(1))
    act(game, 0, "draw", "ace:x@1")  # 34 cards go round now
    draws(game, 0, 10)
    assert len(stock(game, 0)) == 2
    act(game, 0, "draw")
    assert waste(game, 0) == [] and len(stock(game, 0)) == 34
    circuit = stock(game, 0)
    draws(game, 0, 11)
    assert stock(game, 0) == circuit[:1] and len(waste(game, 0)) == 33
    act(game, 0, "draw")  # one left: it goes to the waste, and the 34 are the stock again
    assert waste(game, 0) == [] and stock(game, 0) == circuit


def test_with_no_stock_left_draw_only_turns_the_waste_over() -> None:
    stock1 = c(0, "AD", "AH", "9S")  # the first draw shows AD, with AH under it
    game = new_game(seat_cards(0, stock=stock1), seat_cards(1))
    act(game, 0, "draw", "ace:x@1", "ace:x@1")  # 33 cards go round now
    draws(game, 0, 10)  # 32 - 30: two left; the next draw turns the waste over
    act(game, 0, "draw")
    circuit = stock(game, 0)
    assert len(circuit) == 33
    draws(game, 0, 11)
    assert stock(game, 0) == [] and len(waste(game, 0)) == 33
    act(game, 0, "draw")
    assert waste(game, 0) == [] and stock(game, 0) == circuit


# ---------------------------------------------------------------------------
# "If it happens that all players are stuck (no further legal moves) ..., then everyone picks up
# their waste pile to re-form their stock, and then puts the top card of the stock on the bottom.
# ... If you get stuck but others can still play, you have to wait for everyone else to get
# stuck ... before you are allowed to transfer your top stock card to the bottom." Reading: stuck
# = a whole pass through the stock without a play; the waste goes under the stock.
# ---------------------------------------------------------------------------


def test_a_whole_pass_through_the_stock_without_a_play_makes_a_seat_stuck() -> None:
    game = new_game(seat_cards(0), seat_cards(1))
    draws(game, 0, 11)
    assert flags(game, "stuck") == [False, False]
    act(game, 0, "draw")
    assert flags(game, "stuck") == [True, False]


def test_a_seat_stuck_alone_waits_no_card_moves_to_the_bottom_and_the_others_play_on() -> None:
    game = new_game(seat_cards(0), seat_cards(1, nerts=c(1, "AS")))
    original = stock(game, 0)
    draws(game, 0, 12)
    assert flags(game, "stuck") == [True, False]
    assert stock(game, 0) == original and game.variable("rotations") == 0  # no card to the bottom yet
    draws(game, 0, 12)  # going round again changes nothing
    assert stock(game, 0) == original and game.variable("rotations") == 0
    assert "ace:n@2" in seat_texts(game, 1)
    act(game, 1, "ace:n@2")
    assert stock(game, 0) == original and flags(game, "stuck") == [True, False]


def test_when_every_seat_is_stuck_each_waste_goes_under_its_stock_and_the_top_card_to_the_bottom() -> None:
    game = new_game(seat_cards(0), seat_cards(1))
    s1, s2 = stock(game, 0), stock(game, 1)  # bottom first: s1[-1] is the top
    draws(game, 0, 12)  # seat 1 stuck
    draws(game, 0, 2)  # and it turns six more onto its waste while it waits
    assert waste(game, 0) == [s1[34], s1[33], s1[32], s1[31], s1[30], s1[29]]
    draws(game, 1, 11)
    assert game.variable("rotations") == 0 and stock(game, 0) == s1[:29]
    act(game, 1, "draw")  # seat 2's pass ends without a play: everyone is stuck
    assert game.variable("rotations") == 1
    # Seat 1: the waste turned over under the stock (the stock's order goes on: s28 .. s0, then
    # s34 .. s29), then its top card, s28, at the bottom.
    assert waste(game, 0) == []
    assert stock(game, 0) == [s1[28], *s1[29:35], *s1[0:28]]
    assert stock(game, 0)[-1] == s1[27]
    # Seat 2 had just turned its waste over: only its top card went to the bottom.
    assert waste(game, 1) == [] and stock(game, 1) == [s2[34], *s2[0:34]]
    assert not any(faces_up(game, "s@1")) and not any(faces_up(game, "s@2"))
    assert flags(game, "stuck") == [False, False] and flags(game, "played") == [False, False]
    # The next draw shows new cards: the packet no longer starts where it did.
    act(game, 1, "draw")
    assert waste(game, 1) == [s2[33], s2[32], s2[31]]


def test_a_play_clears_stuck_so_the_others_go_on_waiting() -> None:
    game = new_game(seat_cards(0, nerts=c(0, "AS")), seat_cards(1))
    draws(game, 0, 12)
    assert flags(game, "stuck") == [True, False]
    act(game, 0, "ace:n@1")  # seat 1 could still play after all
    assert flags(game, "stuck") == [False, False]
    s2 = stock(game, 1)
    draws(game, 1, 12)
    assert flags(game, "stuck") == [False, True]
    assert game.variable("rotations") == 0 and stock(game, 1) == s2


def test_a_play_during_the_pass_means_the_seat_is_not_stuck_at_its_end() -> None:
    game = new_game(seat_cards(0, stock=c(0, "AD", "9C", "9S")), seat_cards(1))
    act(game, 0, "draw", "ace:x@1")
    draws(game, 0, 11)  # the pass ends (two left, then the waste turned over)
    assert len(stock(game, 0)) == 34 and waste(game, 0) == []
    assert flags(game, "stuck") == [False, False]
    draws(game, 0, 12)  # a whole pass without a play
    assert flags(game, "stuck") == [True, False]


def test_moving_cards_between_work_piles_is_not_a_play_that_unsticks_a_seat() -> None:
    game = new_game(seat_cards(0, work=c(0, "TS", "9H", "KC", "KD")), seat_cards(1))
    draws(game, 0, 12)
    act(game, 0, "w2@1>w1@1")
    assert flags(game, "stuck") == [True, False]
    draws(game, 1, 12)
    assert game.variable("rotations") == 1


# ---------------------------------------------------------------------------
# "You can only move cards within your own area and into the common area. You cannot touch
# another player's area or take cards out of the common area."
# ---------------------------------------------------------------------------


def test_a_seat_cannot_touch_another_seats_piles() -> None:
    seat1 = seat_cards(0, nerts=c(0, "9H"), work=c(0, "KC", "KD", "KS", "KH"))
    seat2 = seat_cards(1, nerts=c(1, "9C"), work=c(1, "TS", "TC", "KS", "KH"))
    game = new_game(seat1, seat2)
    rules = game.rules
    own = {p: {i for i, owner in enumerate(rules.pile_owner) if owner == p} for p in (0, 1)}
    middle = set(rules.zones["foundation"].piles)
    for p in (0, 1):
        for move in game.legal_moves(p):
            assert move.src < 0 or move.src in own[p]
            assert move.dst < 0 or move.dst in own[p] | middle
    assert seat_texts(game, 0, "to_work") == set()  # 9H fits seat 2's TS, but that is seat 2's
    assert seat_texts(game, 1, "to_work") == set()
    for text in ("n@1>w1@2", "n@2>w1@2", "w1@2>w3@1", "draw@2", "x@2>w1@1"):
        with pytest.raises(IllegalMoveError):
            game.parse_move(text, 0)
    with pytest.raises(IllegalMoveError):
        game.parse_move("draw@1", 1)


def test_cards_never_leave_the_foundations() -> None:
    # Two spade foundations: seat 2's 2S could fit seat 1's Ace, or seat 1's red Three, if cards
    # could be taken out of the middle.
    seat1 = seat_cards(0, nerts=c(0, "AS"), work=c(0, "3H", "KC", "KD", "QD"))
    seat2 = seat_cards(1, nerts=c(1, "2S", "AS"), work=c(1, "3D", "KC", "KD", "QD"))
    game = new_game(seat1, seat2)
    act(game, 0, "ace:n@1")
    act(game, 1, "ace:n@2", "n@2>f2")
    assert started(game) == [["AS1"], ["AS2", "2S2"]]
    middle = set(game.rules.zones["foundation"].piles)
    for p in (0, 1):
        assert not any(move.src in middle for move in game.legal_moves(p))
    for p, texts_ in ((0, ("f2>f1", "f2>w1@1", "f1>w1@1")), (1, ("f2>f1", "f2>w1@2"))):
        for text in texts_:
            with pytest.raises(IllegalMoveError):
                game.parse_move(text, p)
    assert started(game) == [["AS1"], ["AS2", "2S2"]]


# ---------------------------------------------------------------------------
# "A player whose pile of 13 is exhausted yells "Nerts" or "Out", at which point the game
# immediately ends." / "When someone calls "Nerts!" play ends and scoring takes place."
# ---------------------------------------------------------------------------


def test_the_hand_ends_as_soon_as_a_pile_of_13_is_empty() -> None:
    game = new_game(spade_caller(0), seat_cards(1, nerts=c(1, "AH")))
    act(game, 0, "ace:n@1")
    for _ in range(11):
        act(game, 0, "n@1>f1")
    assert not game.is_over and nerts(game, 0) == ["KS1"]
    late = game.parse_move("ace:n@2", 1)
    act(game, 0, "n@1>f1")
    assert nerts(game, 0) == []
    assert game.is_over and game.outcome == "won" and game.reason == NERTS
    assert game.legal_moves(0) == [] and game.legal_moves(1) == []
    with pytest.raises(IllegalMoveError):
        game.apply(late)  # too late: the hand is over
    assert nerts(game, 1)[-1] == "AH2"


def test_the_scheduler_stops_at_the_call() -> None:
    game = new_game(spade_caller(0), seat_cards(1))
    agents = {0: Scripted("ace:n@1", *["n@1>f1"] * 12), 1: Scripted()}
    scheduler = simulate(game, agents, seed=3, speeds={0: 2.0, 1: 1.0})
    assert game.is_over and game.reason == NERTS
    assert scheduler.records[-1].seat == 0 and scheduler.records[-1].move == "n@1>f1"
    assert [r.move for r in scheduler.records if r.seat == 0] == ["ace:n@1"] + ["n@1>f1"] * 12
    assert scheduler.next_time() is None and scheduler.step() is None


def test_the_hand_is_not_over_while_every_pile_of_13_holds_a_card() -> None:
    game = new_game(spade_caller(0), spade_caller(1))
    act(game, 0, "ace:n@1")
    act(game, 1, "ace:n@2")
    for _ in range(11):
        act(game, 0, "n@1>f1")
        act(game, 1, "n@2>f2")
    assert not game.is_over and [len(nerts(game, p)) for p in (0, 1)] == [1, 1]


# ---------------------------------------------------------------------------
# Scoring: "Each player scores one point for each of their own cards that they managed to play
# into the common area. ... the foundation piles have to be sorted out according to the owners of
# the cards ... All players except the one count the number of cards left in their pile of 13 and
# remove that same number from their number from the foundation cards." (-1 each; -2 in the match.)
# ---------------------------------------------------------------------------


def scored_game(name: str = BASE, players: int = 2, persisted: dict[str, Any] | None = None,
                **options: Any) -> Game:
    """Seat 1 plays its Ace of diamonds from a work pile, then calls Nerts with its spades; seat 2
    meanwhile plays AH, 2H from its pile of 13, 3H from a work pile and 2D onto seat 1's AD: four
    cards in the middle, eleven left in its pile of 13. A third seat, if any, plays nothing."""
    seat1 = spade_caller(0, work=c(0, "AD", "KH", "KC", "QC"))
    seat2 = seat_cards(1, nerts=c(1, "2H", "AH"), work=c(1, "3H", "2D", "KS", "KC"))
    seats = [seat1, seat2] + [seat_cards(p) for p in range(2, players)]
    game = new_game(*seats, name=name, persisted=persisted, **options)
    act(game, 0, "ace:w1@1")       # f1: AD1
    act(game, 1, "ace:n@2")        # f2: AH2
    act(game, 1, "w2@2>f1")        # 2D2 on seat 1's Ace
    act(game, 1, "n@2>f2", "w1@2>f2")
    act(game, 0, "ace:n@1")        # f3: AS1
    for _ in range(12):
        act(game, 0, "n@1>f3")
    assert started(game) == [["AD1", "2D2"], ["AH2", "2H2", "3H2"], c(0, *reversed(SPADES_DOWN))]
    assert game.is_over and game.reason == NERTS
    return game


def test_the_caller_scores_one_per_own_card_in_the_middle() -> None:
    game = scored_game()
    assert game.scores()[0] == 14  # 13 spades and the AD; seat 2's 2D on its Ace is not seat 1's


def test_the_others_score_their_own_cards_in_the_middle_less_one_per_card_left_in_their_pile_of_13() -> None:
    game = scored_game()
    assert len(nerts(game, 1)) == 11
    assert game.scores()[1] == 4 - 11  # AH, 2H, 3H, 2D; eleven left in the pile of 13
    assert game.winners() == [0]


def test_with_three_seats_each_other_seat_loses_its_whole_pile_of_13() -> None:
    game = scored_game(players=3)
    assert game.scores() == [14, 4 - 11, 0 - 13]
    assert game.winners() == [0]


def test_the_score_goes_with_the_cards_whoever_built_the_foundation() -> None:
    # Seat 2 builds on seat 1's foundation and seat 1 on seat 2's: the points are the cards' owners'.
    seat1 = seat_cards(0, nerts=c(0, "3S", "AS"), work=c(0, "2H", "KC", "KD", "QD"))
    seat2 = seat_cards(1, nerts=c(1, "2S", "AH"), work=c(1, "3H", "KC", "KD", "QD"))
    game = new_game(seat1, seat2)
    act(game, 0, "ace:n@1")
    act(game, 1, "ace:n@2", "n@2>f1")
    act(game, 0, "n@1>f1", "w1@1>f2")
    act(game, 1, "w1@2>f2")
    assert started(game) == [["AS1", "2S2", "3S1"], ["AH2", "2H1", "3H2"]]
    assert game.scores() == [3 - 11, 3 - 11]


def test_equal_best_scores_share_the_win() -> None:
    # Seat 2 plays twelve hearts from its pile of 13 and AD, 2D from its work piles: 14 - 1 = 13,
    # as many as seat 1 scores by calling Nerts with its thirteen spades.
    seat1 = spade_caller(0)
    seat2 = seat_cards(1, nerts=c(1, *[f"{r}H" for r in reversed(RANKS[:12])]), work=c(1, "AD", "2D", "KC", "KS"))
    game = new_game(seat1, seat2)
    act(game, 1, "ace:n@2", *["n@2>f1"] * 11, "ace:w1@2", "w2@2>f2")
    assert len(nerts(game, 1)) == 1 and not game.is_over
    call_nerts(game, 0)
    assert game.is_over and game.scores() == [13, 13]
    assert game.winners() == [0, 1]


@pytest.mark.parametrize(("name", "options"), [(BASE, {"penalty": 2}), (MATCH, {})])
def test_the_published_rule_takes_two_per_card_left_in_the_pile_of_13(name: str, options: dict[str, Any]) -> None:
    game = scored_game(name, **options)
    assert game.scores() == [14, 4 - 2 * 11]


def test_the_score_counts_during_the_hand_too() -> None:
    game = new_game(seat_cards(0, nerts=c(0, "AS")), seat_cards(1))
    assert game.scores() == [-13, -13]
    act(game, 0, "ace:n@1")
    assert game.scores() == [1 - 12, -13]


# ---------------------------------------------------------------------------
# The match (nerts-match): -2 per card, hands played until a total reaches 100; totals kept
# between hands (persist, per seat); the hand that reaches the goal ends the match (labels), and
# the next hand starts a new match from 0.
# ---------------------------------------------------------------------------


def match_hand() -> Game:
    """One hand of the match as the command line plays it: the saved totals in, the totals out."""
    rules = ruleset(MATCH)
    persisted = store.load(rules.name) if rules.persistent_variables() else None
    game = scored_game(MATCH, persisted=persisted)
    save_game(game)
    return game


def totals(game: Game) -> list[int]:
    return [game.variable("total", p) for p in range(game.players)]


def test_the_match_keeps_a_total_per_seat_that_starts_at_0() -> None:
    rules = ruleset(MATCH)
    assert set(rules.persistent_variables()) == {"total", "match_over"}
    game = plain(name=MATCH)
    assert totals(game) == [0, 0] and game.variable("match_over") is False
    assert game.label(0) == game.label(1) == "match goes on"


def test_the_totals_add_each_hand_and_reaching_100_ends_the_match() -> None:
    hand = [14, 4 - 22]
    for n in range(1, 8):  # 14 a hand: 98 after seven hands
        game = match_hand()
        assert totals(game) == [14 * n, hand[1] * n]
        assert game.variable("match_over") is False
        assert [game.label(p) for p in (0, 1)] == ["match goes on"] * 2
        assert store.load(MATCH) == {"total": [14 * n, -18 * n], "match_over": False}
    game = match_hand()  # the eighth hand brings seat 1 to 112
    assert totals(game) == [112, -144]
    assert game.variable("match_over") is True
    assert [game.label(p) for p in (0, 1)] == ["match won", "match lost"]
    # The next hand starts a new match from 0.
    game = match_hand()
    assert totals(game) == hand
    assert game.variable("match_over") is False and game.label(0) == "match goes on"


def test_a_new_match_starts_from_0_before_the_first_move() -> None:
    game = plain(name=MATCH, persisted={"total": [104, 30], "match_over": True})
    assert totals(game) == [0, 0] and game.variable("match_over") is False


def test_a_hand_that_brings_the_other_seat_past_100_ends_the_match_for_it() -> None:
    game = scored_game(MATCH, persisted={"total": [20, 120], "match_over": False})
    assert totals(game) == [20 + 14, 120 - 18]
    assert game.variable("match_over") is True
    assert [game.label(p) for p in (0, 1)] == ["match lost", "match won"]


def test_totals_change_only_when_a_hand_ends() -> None:
    game = new_game(seat_cards(0, nerts=c(0, "AS")), seat_cards(1), name=MATCH,
                    persisted={"total": [40, 50], "match_over": False})
    act(game, 0, "ace:n@1")
    assert totals(game) == [40, 50] and game.scores() == [1 - 24, -26]


@pytest.mark.parametrize("goal", [50, 150])
def test_the_goal_option_moves_the_end_of_the_match(goal: int) -> None:
    game = scored_game(MATCH, persisted={"total": [90, 0], "match_over": False}, goal=goal)
    assert totals(game)[0] == 104
    assert game.variable("match_over") is (104 >= goal)


# ---------------------------------------------------------------------------
# Simulated time: the same seed and speeds give the same game; a different seed or speed differs.
# ---------------------------------------------------------------------------


def simulated(seed: int, speeds: dict[int, float], players: int = 3, kind: str = "random") -> tuple[Any, ...]:
    game = ruleset().new_game(seed=seed, players=players, max_moves=3000)
    agents = {p: make_bot(kind, 100 * seed + p) for p in range(players)}
    scheduler = simulate(game, agents, seed=seed, speeds=speeds)
    return (tuple((r.time, r.seat, r.move, r.landed) for r in scheduler.records),
            tuple(str(m) for m in game.history), game.outcome, tuple(game.scores()), scheduler.now)


@pytest.mark.parametrize("kind", ["random", "greedy"])
def test_the_same_seed_and_speeds_give_the_same_game_in_simulated_time(kind: str) -> None:
    speeds = {0: 1.5, 1: 1.0, 2: 0.75}
    first = simulated(7, speeds, kind=kind)
    assert len(first[0]) > 50
    assert simulated(7, speeds, kind=kind) == first


def test_a_different_seed_or_speed_gives_a_different_game() -> None:
    speeds = {0: 1.5, 1: 1.0, 2: 0.75}
    first = simulated(7, speeds)
    assert simulated(8, speeds)[0] != first[0]
    other_speed = simulated(7, {0: 1.0, 1: 1.0, 2: 0.75})
    assert other_speed[0] != first[0]
    # The same deal and bots, only the speed differs: the moves are decided at other times.
    assert [r[0] for r in other_speed[0][:5]] != [r[0] for r in first[0][:5]]


def test_a_refused_action_is_recorded_as_not_landed_and_leaves_no_move_in_the_history() -> None:
    for seed in range(1, 40):
        game = ruleset().new_game(seed=seed, players=4, max_moves=3000)
        agents = {p: make_bot("greedy", 100 * seed + p) for p in range(4)}
        scheduler = simulate(game, agents, seed=seed)
        if scheduler.refused:
            break
    else:
        pytest.fail("no action was refused in 39 four-player greedy games")
    assert [r.move for r in scheduler.records if r.landed] == [str(m) for m in game.history]
    assert scheduler.refused == sum(not r.landed for r in scheduler.records) > 0


def test_a_hand_where_everyone_stays_stuck_ends_after_five_rotations_with_no_play() -> None:
    # Seed 1 with two random bots: no card can move after move 765; without the reading the
    # stocks would turn until the move limit.
    game = ruleset().new_game(seed=1, players=2)
    simulate(game, {0: make_bot("random", 1), 1: make_bot("random", 2)}, seed=1)
    assert game.reason == "everyone was stuck five times in a row with no play"
    assert game.variable("stalls") == 5 and all(nerts(game, p) for p in (0, 1))
    scores = game.scores()
    assert game.winners() == [p for p in (0, 1) if scores[p] == max(scores)]


def test_a_play_resets_the_count_of_rotations_with_no_play() -> None:
    game = ruleset().new_game(seed=1, players=2)
    scheduler = Scheduler(game, {0: make_bot("random", 1), 1: make_bot("random", 2)}, seed=1)
    seen_reset = False
    while not game.is_over:
        before = game.variable("stalls")
        scheduler.step()
        if game.history and game.history[-1].name in ("ace", "to_foundation", "to_work"):
            assert game.variable("stalls") == 0
            seen_reset |= before > 0
    assert seen_reset


def test_a_quit_hand_does_not_count_towards_the_match() -> None:
    game = ruleset("nerts-match").new_game(seed=1, players=2, persisted={"total": [90, 10], "match_over": False})
    game.finish()
    assert game.persistent_values() == {"total": [90, 10], "match_over": False}
