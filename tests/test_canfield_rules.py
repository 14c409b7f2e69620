"""Canfield, rule by rule (rulesets/canfield.yaml): one or more tests per sentence of the rules
its header quotes, each from an explicit deal.

Deals list codes top of the deck first. The setup moves the top 13 cards to the reserve as one
packet (the deal's first card ends on top), deals the next card to the first foundation (the base
rank), then one card to each of the four columns; the rest is the stock, its first card on top.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import pytest

from cardrules import IllegalMoveError, load_ruleset
from helpers import faces, pile, play, texts

RANKS = "A23456789TJQK"
FULL_DECK = [rank + suit for suit in "CDHS" for rank in RANKS]


@lru_cache(maxsize=None)
def rules_for(autoplay: bool = False, draw: int = 3) -> Any:
    return load_ruleset("canfield", options={"autoplay": autoplay, "draw": draw})


def make_deal(reserve: Sequence[str] = (), base: str | None = None, tableau: Sequence[str | None] = (),
              stock: Sequence[str] = ()) -> list[str]:
    """The deal giving: `reserve` bottom to top as the reserve's top cards (the rest of its 13
    filled in below them), `base` on the first foundation, `tableau` the four columns' cards,
    `stock` the stock's first cards, top first; unnamed places get the unnamed cards in order."""
    named = [*reserve, *(c for c in (base, *tableau) if c is not None), *stock]
    assert len(named) == len(set(named)) and set(named) <= set(FULL_DECK)
    spare = iter([c for c in FULL_DECK if c not in set(named)])
    reserve_cards = [next(spare) for _ in range(13 - len(reserve))] + list(reserve)  # bottom to top
    columns = list(tableau) + [None] * (4 - len(tableau))
    deal = reserve_cards[::-1] + [base or next(spare)] + [c or next(spare) for c in columns] + list(stock)
    deal += list(spare)
    assert sorted(deal) == sorted(FULL_DECK)
    return deal


def new_game(autoplay: bool = False, draw: int = 3, **layout: Any) -> Any:
    return rules_for(autoplay, draw).new_game(deal=make_deal(**layout))


def column(game: Any, k: int) -> list[str]:
    return pile(game, "tableau", k - 1)


def foundation(game: Any, k: int) -> list[str]:
    return pile(game, "foundation", k - 1)


def empty_layout_game(autoplay: bool = False, **layout: Any) -> Any:
    """A game whose reserve has been used up: its 13 cards moved to the waste's bottom."""
    game = new_game(autoplay, **layout)
    state, zones = game.state, game.rules.zones
    reserve, waste = zones["reserve"].piles[0], zones["waste"].piles[0]
    cards = state.piles[reserve][:]
    state.piles[reserve][:] = []
    state.piles[waste][:0] = cards
    for card in cards:
        state.up[card] = 1
    return game


# -- the layout ---------------------------------------------------------------------------------

def test_the_reserve_holds_13_cards_and_only_its_top_card_is_face_up() -> None:
    game = new_game(reserve=["7S"])
    assert len(pile(game, "reserve")) == 13 and pile(game, "reserve")[-1] == "7S"
    assert faces(game, "reserve") == [False] * 12 + [True]


def test_one_card_is_dealt_face_up_to_the_first_foundation_and_one_to_each_of_four_columns() -> None:
    game = new_game(base="9H", tableau=["KS", "2D", "JC", "5H"])
    assert foundation(game, 1) == ["9H"] and faces(game, "foundation", 0) == [True]
    assert [column(game, k) for k in range(1, 5)] == [["KS"], ["2D"], ["JC"], ["5H"]]
    assert all(faces(game, "tableau", i) == [True] for i in range(4))
    assert len(pile(game, "stock")) == 52 - 13 - 1 - 4 and not any(faces(game, "stock"))


def test_the_first_card_dealt_to_the_foundations_sets_the_base_rank() -> None:
    assert new_game(base="9H").variable("base") == 9
    assert new_game(base="KC").variable("base") == 13


# -- the foundations ------------------------------------------------------------------------------

def test_an_empty_foundation_takes_a_card_of_the_base_rank_and_no_other() -> None:
    game = new_game(reserve=["9C"], base="9H", tableau=["AS", "AC", "QD", "2H"])
    assert texts(game, "to_foundation") == {"r>f2"}  # not the Aces: the base rank is 9
    play(game, "r>f2")
    assert foundation(game, 2) == ["9C"]


def test_a_base_card_is_offered_once_to_the_first_empty_foundation() -> None:
    game = new_game(reserve=["9C"], base="9H", tableau=["9S", "AC", "QD", "2H"])
    assert texts(game, "to_foundation") == {"r>f2", "t1>f2"}
    with pytest.raises(IllegalMoveError):
        game.parse_move("r>f3")


def test_foundations_build_up_by_suit() -> None:
    game = new_game(reserve=["TC"], base="9H", tableau=["TH", "JH", "QD", "2H"])
    assert texts(game, "to_foundation") == {"t1>f1"}  # TH on 9H; not TC (another suit), not JH yet
    play(game, "t1>f1", "t2>f1")
    assert foundation(game, 1) == ["9H", "TH", "JH"]


def test_foundations_turn_the_corner_from_king_to_ace() -> None:
    game = new_game(reserve=["5D"], base="KH", tableau=["AH", "2H", "AS", "3D"])
    assert texts(game, "to_foundation") == {"t1>f1"}  # AH on KH; not 2H before it
    play(game, "t1>f1", "t2>f1")
    assert foundation(game, 1) == ["KH", "AH", "2H"]


def test_a_foundation_card_never_goes_back_to_the_tableau() -> None:
    game = new_game(base="8H", tableau=["9C", "2D", "JC", "5H"])
    assert not any(str(m).startswith("f") for m in game.legal_moves())


# -- the tableau ------------------------------------------------------------------------------------

def test_the_tableau_builds_down_in_alternating_colours() -> None:
    game = new_game(reserve=["7D"], base="KC", tableau=["8S", "8H", "6C", "2D"])
    assert texts(game, "to_tableau") == {"r>t1"}  # 7D on 8S; not on 8H (same colour)
    play(game, "r>t1")
    assert column(game, 1) == ["8S", "7D"]
    assert texts(game, "tableau_to_tableau") == {"t3>t1"}  # 6C on 7D


def test_the_tableau_turns_the_corner_an_ace_takes_a_king() -> None:
    game = new_game(reserve=["KD"], base="5C", tableau=["AS", "AH", "QC", "2D"])
    assert texts(game, "to_tableau") == {"r>t1"}  # KD on AS (other colour), not on AH
    play(game, "r>t1")
    assert column(game, 1) == ["AS", "KD"]
    assert "t3>t1" in texts(game, "tableau_to_tableau")  # and the Queen goes on the King


def test_the_top_card_or_the_whole_column_may_move_never_part_of_a_longer_column() -> None:
    game = new_game(reserve=["8C", "9H"], base="KC", tableau=["TS", "JH", "9D", "TC"])
    play(game, "r>t1", "r>t1")  # 9H, then 8C, onto TS
    assert column(game, 1) == ["TS", "9H", "8C"]
    # the whole column onto JH, or the top card 8C onto 9D; never 9H 8C onto TC
    assert {t for t in texts(game, "tableau_to_tableau") if t.startswith("t1")} == {"t1x3>t2", "t1>t3"}
    play(game, "t1x3>t2")
    assert column(game, 2) == ["JH", "TS", "9H", "8C"]


def test_a_space_is_filled_from_the_reserve_at_once() -> None:
    game = new_game(reserve=["4S", "QH"], base="KH", tableau=["AH", "2D", "JC", "5H"])
    play(game, "t1>f1")  # AH home leaves a space
    assert column(game, 1) == ["QH"]  # filled at once from the reserve's top
    assert pile(game, "reserve")[-1] == "4S" and faces(game, "reserve")[-1]  # its next card turns up
    assert len(pile(game, "reserve")) == 12


def test_with_the_reserve_used_up_a_space_takes_the_top_card_of_the_waste_and_only_it() -> None:
    game = empty_layout_game(base="KH", tableau=["AH", "2D", "JC", "5H"], stock=["7C", "8C", "9C"])
    play(game, "t1>f1")
    assert column(game, 1) == []
    play(game, "draw")  # 7C, 8C, 9C turned over: 9C on top
    assert pile(game, "waste")[-1] == "9C"
    assert "w>t1" in texts(game, "to_tableau")
    assert not any(str(m).endswith(">t1") and str(m).startswith("t") for m in game.legal_moves())


# -- the stock ----------------------------------------------------------------------------------

@pytest.mark.parametrize("draw", [3, 1])
def test_the_stock_is_turned_onto_the_waste_so_many_cards_at_a_time(draw: int) -> None:
    game = new_game(draw=draw, stock=["7C", "8C", "9C", "TC"])
    play(game, "draw")
    assert pile(game, "waste") == ["7C", "8C", "9C"][:draw]  # turned over: the stock's top card first
    assert all(faces(game, "waste"))


def test_the_waste_turns_over_into_a_new_stock_with_no_limit_on_passes() -> None:
    game = new_game()
    for _ in range(5):  # five passes
        while pile(game, "stock"):
            play(game, "draw")
        assert "redeal" in texts(game)
        play(game, "redeal")
    assert game.variable("passes") == 6 and not game.is_over


# -- autoplay -------------------------------------------------------------------------------------

def test_autoplay_sends_every_card_that_fits_home_by_itself_until_nothing_changes() -> None:
    # KH is the base: AH goes home from a column; its space takes 2H from the reserve, which goes
    # home too, then 3H from the other column; the two spaces take the reserve's 6D and 5S.
    game = new_game(autoplay=True, reserve=["5S", "6D", "2H"], base="KH", tableau=["AH", "3H", "JC", "5C"])
    assert foundation(game, 1) == ["KH", "AH", "2H", "3H"]
    assert column(game, 1) == ["6D"] and column(game, 2) == ["5S"]
    assert len(pile(game, "reserve")) == 13 - 3 and faces(game, "reserve")[-1]


def test_without_autoplay_a_card_that_fits_waits_for_the_player() -> None:
    game = new_game(autoplay=False, reserve=["2H"], base="KH", tableau=["AH", "3H", "JC", "5S"])
    assert foundation(game, 1) == ["KH"]
    assert texts(game, "to_foundation") == {"t1>f1"}


# -- the end --------------------------------------------------------------------------------------

def test_the_game_is_won_when_all_52_cards_are_on_the_foundations() -> None:
    rules = rules_for(autoplay=True)
    for seed in range(200):  # random play wins some deals (5% of these)
        game = rules.new_game(seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            before = sum(len(pile(game, "foundation", i)) for i in range(4))
            game.apply(rng.choice(game.legal_moves()))
        if game.outcome == "won":
            assert before < 52 and all(len(pile(game, "foundation", i)) == 13 for i in range(4))
            assert game.reason == "all 52 cards are on the foundations" and game.scores() == [52]
            return
        assert game.outcome in ("lost", "limit")
    raise AssertionError("no seed won")


def test_a_whole_cycle_through_the_stock_that_offers_no_other_move_loses() -> None:
    rules = rules_for(autoplay=True)
    for seed in range(40):
        game = rules.new_game(seed=seed)
        for _ in range(400):
            if game.is_over:
                break
            moves = game.legal_moves()
            turning = [m for m in moves if m.name in ("draw", "redeal")]
            game.apply(turning[0] if turning else moves[0])
        if game.outcome == "lost":
            assert game.reason == "a whole cycle through the stock offered no move but turning it"
            return
    raise AssertionError("no game of stock turns only was lost by the cycle rule")
