"""Klondike, rule by rule: one or more tests per sentence of the seed text
(shared/seeds/001_b77253741698a8ca.txt) and per reading in shared/GAMES.md.

Every test starts from an explicit deal (see ``make_deal``) so the situation it
checks is exact. Deals list codes top of the deck first; setup deals row by row
(row r gives one card to each column i >= r), the last card dealt to a column is
its top, and deal[28:] is the stock with deal[28] on top.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import pytest

from cardrules import CardrulesError, IllegalMoveError, load_ruleset
from helpers import faces, pile, play, snapshot, texts

RANKS = "A23456789TJQK"
SUITS = "CDHS"
FULL_DECK = [rank + suit for suit in SUITS for rank in RANKS]
RED = set("DH")

DRAWS = (1, 3)
SCORINGS = ("none", "standard", "vegas")
COMBOS = [(draw, scoring) for draw in DRAWS for scoring in SCORINGS]
COMBO_IDS = [f"draw{d}-{s}" for d, s in COMBOS]


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------


@lru_cache(maxsize=None)
def rules_for(draw: int = 1, scoring: str = "standard", cumulative: bool = False) -> Any:
    return load_ruleset("klondike", options={"draw": draw, "scoring": scoring, "cumulative": cumulative})


def new_game(deal: Sequence[str], draw: int = 1, scoring: str = "standard", cumulative: bool = False,
             **kwargs: Any) -> Any:
    return rules_for(draw, scoring, cumulative).new_game(deal=list(deal), **kwargs)


def make_deal(columns: Sequence[Sequence[str | None]], stock: Sequence[str | None] = ()) -> list[str]:
    """The deal (top of deck first) that produces the given layout.

    ``columns[i]`` lists column i+1 bottom to top and holds i+1 entries; ``stock``
    lists the first stock cards, top (first drawn) first. ``None`` entries and the
    rest of the stock are filled with the unnamed cards in deck order.
    """
    assert [len(c) for c in columns] == [1, 2, 3, 4, 5, 6, 7]
    assert len(stock) <= 24
    named = [c for col in columns for c in col if c is not None] + [c for c in stock if c is not None]
    assert len(named) == len(set(named)), "a card is named twice"
    assert set(named) <= set(FULL_DECK)
    spare = iter([c for c in FULL_DECK if c not in set(named)])
    cols = [[c if c is not None else next(spare) for c in col] for col in columns]
    stock_cards = [c if c is not None else next(spare) for c in stock]
    deal = [cols[i][r] for r in range(7) for i in range(r, 7)] + stock_cards + list(spare)
    assert len(deal) == 52 and sorted(deal) == sorted(FULL_DECK)
    return deal


def column(*top: str, size: int) -> list[str | None]:
    """A column of ``size`` cards whose top cards (bottom to top) are ``top``; the rest filled in."""
    return [None] * (size - len(top)) + list(top)


def layout(tops: dict[int, Sequence[str | None]]) -> list[list[str | None]]:
    """Seven columns (1..7 cards); ``tops[k]`` gives the top cards of column k (1-based)."""
    return [column(*tops.get(k, ()), size=k) for k in range(1, 8)]


def col(game: Any, k: int) -> list[str]:
    """Tableau column k (1-based), bottom first."""
    return pile(game, "tableau", k - 1)


def col_faces(game: Any, k: int) -> list[bool]:
    return faces(game, "tableau", k - 1)


def found(game: Any, k: int) -> list[str]:
    return pile(game, "foundation", k - 1)


def score(game: Any) -> int:
    value = game.scores()[0]
    assert value == game.variable("score")
    return value


def draw_until_stock_empty(game: Any) -> int:
    n = 0
    while pile(game, "stock"):
        play(game, "draw")
        n += 1
    return n


def is_red(code: str) -> bool:
    return code[1] in RED


# A deal in which nothing but stock turns is ever possible: all tableau tops are
# black non-Aces, every Ace and every red card of rank 2-4 is face down, and the
# stock holds only black cards and red cards of rank 5 or more.
DEAD_TOPS = ["2C", "2S", "3C", "3S", "4C", "4S", "5C"]
DEAD_HIDDEN = ["AC", "AD", "AH", "AS", "2D", "2H", "3D", "3H", "4D", "4H"]


def dead_deal() -> list[str]:
    hidden = iter(DEAD_HIDDEN)
    cols: list[list[str | None]] = [[next(hidden, None) for _ in range(i)] + [DEAD_TOPS[i]] for i in range(7)]
    deal = make_deal(cols)
    stock = deal[28:]
    assert not any(c[0] == "A" for c in stock)
    assert not any(is_red(c) and c[0] in "234" for c in stock)
    return deal


def won_deal() -> list[str]:
    """Ranks 7..A dealt to the tableau (each column lowest on top), 8..K in the stock in rank order."""
    by_rank = {r: [r + s for s in SUITS] for r in RANKS}
    tableau = [c for r in "765432A" for c in by_rank[r]]
    stock = [c for r in "89TJQK" for c in by_rank[r]]
    return tableau + stock


def play_greedy(game: Any, on_move: Any = None) -> None:
    """Foundation moves first, else draw, else redeal, until the game ends."""
    for _ in range(2000):
        if game.is_over:
            return
        moves = texts(game)
        to_f = sorted(m for m in moves if ">f" in m)
        text = to_f[0] if to_f else "draw" if "draw" in moves else "redeal"
        play(game, text)
        if on_move is not None:
            on_move(game, text)
    raise AssertionError("greedy play did not finish")


# Layout for the tableau tests (column k has k cards):
#   t1: AC alone              t2: KH over 9H          t3: QS over 5H, one more
#   t4: QH                    t5: JD                  t6: KD
#   t7: QC
TABLEAU_TOPS: dict[int, Sequence[str | None]] = {
    1: ["AC"], 2: ["9H", "KH"], 3: ["5H", "QS"], 4: ["QH"], 5: ["JD"], 6: ["KD"], 7: ["QC"],
}


def tableau_game(stock: Sequence[str | None] = (), **kwargs: Any) -> Any:
    return new_game(make_deal(layout(TABLEAU_TOPS), stock), **kwargs)


# ---------------------------------------------------------------------------
# Initial setup: 7 columns of 1..7, top card up, 24 in the stock
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_setup_deals_seven_columns_of_one_to_seven_cards_row_by_row(seed: int) -> None:
    rules = rules_for()
    deal = rules.new_game(seed=seed).deal_order
    game = new_game(deal)
    expected: list[list[str]] = [[] for _ in range(7)]
    pos = 0
    for r in range(7):
        for i in range(r, 7):
            expected[i].append(deal[pos])
            pos += 1
    for k in range(1, 8):
        assert len(col(game, k)) == k
        assert col(game, k) == expected[k - 1]
    assert sum(len(col(game, k)) for k in range(1, 8)) == 28


def test_setup_turns_only_the_top_card_of_each_column_face_up() -> None:
    game = new_game(FULL_DECK)
    for k in range(1, 8):
        assert col_faces(game, k) == [False] * (k - 1) + [True]


def test_setup_puts_the_24_remaining_cards_face_down_in_the_stock() -> None:
    deal = list(reversed(FULL_DECK))
    game = new_game(deal)
    assert len(pile(game, "stock")) == 24
    assert pile(game, "stock") == deal[28:][::-1]  # bottom first: deal[28] on top
    assert pile(game, "stock")[-1] == deal[28]
    assert not any(faces(game, "stock"))


@pytest.mark.parametrize(("draw", "scoring"), COMBOS, ids=COMBO_IDS)
def test_setup_starts_with_empty_waste_and_foundations(draw: int, scoring: str) -> None:
    game = new_game(FULL_DECK, draw=draw, scoring=scoring)
    assert pile(game, "waste") == []
    assert all(found(game, k) == [] for k in range(1, 5))
    assert score(game) == (-52 if scoring == "vegas" else 0)
    assert game.variable("passes") == 1
    assert not game.is_over and game.outcome is None
    assert "draw" in texts(game)


def test_deal_must_be_the_whole_52_card_deck() -> None:
    with pytest.raises(CardrulesError):
        new_game(FULL_DECK[:51])
    with pytest.raises(CardrulesError):
        new_game(FULL_DECK[:51] + ["AC"])
    with pytest.raises(CardrulesError):
        new_game(FULL_DECK[:51] + ["XX"])


def test_seeded_deal_is_a_shuffle_of_the_52_card_deck() -> None:
    game = rules_for().new_game(seed=5)
    assert sorted(game.deal_order) == sorted(FULL_DECK)
    assert rules_for().new_game(seed=5).deal_order == game.deal_order
    assert rules_for().new_game(seed=6).deal_order != game.deal_order


# ---------------------------------------------------------------------------
# Turning the stock: draw 1 and draw 3
# ---------------------------------------------------------------------------


def test_draw1_turns_one_card_at_a_time_face_up_onto_the_waste() -> None:
    deal = list(FULL_DECK)
    game = new_game(deal, draw=1)
    for n in range(1, 25):
        play(game, "draw")
        assert pile(game, "waste") == deal[28:28 + n]
        assert all(faces(game, "waste"))
        assert len(pile(game, "stock")) == 24 - n
    assert "draw" not in texts(game)


def test_draw3_turns_three_cards_one_by_one_so_the_third_ends_on_top() -> None:
    deal = list(FULL_DECK)
    game = new_game(deal, draw=3)
    play(game, "draw")
    assert pile(game, "waste") == deal[28:31]  # bottom first: deal[30] on top
    assert pile(game, "waste")[-1] == deal[30]
    assert all(faces(game, "waste"))
    assert len(pile(game, "stock")) == 21
    play(game, "draw")
    assert pile(game, "waste") == deal[28:34]
    assert draw_until_stock_empty(game) == 6  # 24 cards = 8 turns of three


def test_draw3_turns_the_remaining_cards_when_fewer_than_three_are_left() -> None:
    # AH on top of the stock plays away, so the second pass holds 23 cards: 7 turns of 3, then 2.
    deal = make_deal(layout({1: ["KS"]}), stock=[None, None, "AH"])
    game = new_game(deal, draw=3)
    stock = deal[28:]
    play(game, "draw", "w>f1")
    draw_until_stock_empty(game)
    play(game, "redeal")
    rest = [c for c in stock if c != "AH"]
    assert pile(game, "stock") == rest[::-1]
    for _ in range(7):
        play(game, "draw")
    assert pile(game, "waste") == rest[:21]
    play(game, "draw")
    assert pile(game, "waste") == rest  # the last two, in order
    assert pile(game, "stock") == []
    assert "draw" not in texts(game)


@pytest.mark.parametrize("draw", DRAWS)
def test_only_the_top_waste_card_is_playable(draw: int) -> None:
    deal = make_deal(layout({1: ["KS"]}), stock=["AH", "5D", "AS"])
    game = new_game(deal, draw=draw)
    for _ in range(1 if draw == 3 else 3):
        play(game, "draw")
    assert pile(game, "waste") == ["AH", "5D", "AS"]
    waste_moves = [m for m in game.legal_moves() if str(m).startswith("w>")]
    assert waste_moves and all(m.count == 1 for m in waste_moves)
    play(game, "w>f1")
    assert found(game, 1) == ["AS"]
    # 5D is now on top; AH below it is not available.
    assert not any(m.startswith("w>f") for m in texts(game))
    assert pile(game, "waste") == ["AH", "5D"]


def test_top_waste_card_plays_to_the_tableau_and_to_the_foundations() -> None:
    deal = make_deal(layout({1: ["KS"]}), stock=["QH", "AD"])
    game = new_game(deal, draw=1)
    play(game, "draw")
    assert "w>t1" in texts(game)
    play(game, "w>t1")
    assert col(game, 1) == ["KS", "QH"] and all(col_faces(game, 1))
    play(game, "draw")
    assert "w>f1" in texts(game)
    play(game, "w>f1")
    assert found(game, 1) == ["AD"] and pile(game, "waste") == []


# ---------------------------------------------------------------------------
# Recycling the stock (redeal)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("draw", DRAWS)
def test_redeal_is_offered_only_when_the_stock_is_empty(draw: int) -> None:
    game = new_game(FULL_DECK, draw=draw)
    while pile(game, "stock"):
        assert "redeal" not in texts(game)
        play(game, "draw")
    assert "redeal" in texts(game) and "draw" not in texts(game)


@pytest.mark.parametrize("draw", DRAWS)
def test_redeal_turns_the_waste_over_keeping_the_order(draw: int) -> None:
    deal = make_deal(layout({1: ["AC"]}))
    game = new_game(deal, draw=draw)
    stock_before = pile(game, "stock")
    play(game, "t1>f1")  # a card played in the pass, so the redeal does not end the game
    draw_until_stock_empty(game)
    play(game, "redeal")
    assert pile(game, "waste") == []
    assert pile(game, "stock") == stock_before
    assert not any(faces(game, "stock"))
    assert game.variable("passes") == 2
    # The second pass turns the cards in the same order as the first.
    play(game, "draw")
    assert pile(game, "waste") == deal[28:28 + draw]


def _stall_free_pass(game: Any, forth: bool) -> None:
    """One pass of draws plus one played card (2C between foundation 1 and column 6), then a redeal."""
    play(game, "f1>t6" if forth else "t6>f1")
    draw_until_stock_empty(game)
    play(game, "redeal")


# t1: AC alone, t6: 3H, t7: 2C. After t1>f1, t7>f1 the 2C can go back and forth.
PASS_TOPS: dict[int, Sequence[str | None]] = {1: ["AC"], 6: ["3H"], 7: ["2C"]}


@pytest.mark.parametrize("draw", DRAWS)
@pytest.mark.parametrize("scoring", ["none", "standard"])
def test_redeal_is_unlimited_under_none_and_standard_scoring(draw: int, scoring: str) -> None:
    game = new_game(make_deal(layout(PASS_TOPS)), draw=draw, scoring=scoring)
    play(game, "t1>f1", "t7>f1")
    for n in range(10):
        _stall_free_pass(game, forth=n % 2 == 0)
        assert not game.is_over
        assert game.variable("passes") == n + 2
    assert "draw" in texts(game)


def test_vegas_draw1_allows_one_pass_and_offers_no_redeal() -> None:
    game = new_game(make_deal(layout(PASS_TOPS)), draw=1, scoring="vegas")
    play(game, "t1>f1", "t7>f1")
    draw_until_stock_empty(game)
    assert pile(game, "waste") and "redeal" not in texts(game)
    assert not game.is_over  # other moves remain (2C back to 3H)
    with pytest.raises(IllegalMoveError):
        game.parse_move("redeal")
    assert game.variable("passes") == 1


def test_vegas_draw3_allows_three_passes() -> None:
    game = new_game(make_deal(layout(PASS_TOPS)), draw=3, scoring="vegas")
    play(game, "t1>f1", "t7>f1")
    _stall_free_pass(game, forth=True)
    assert game.variable("passes") == 2
    _stall_free_pass(game, forth=False)
    assert game.variable("passes") == 3
    play(game, "f1>t6")
    draw_until_stock_empty(game)
    assert "redeal" not in texts(game)
    assert not game.is_over
    with pytest.raises(IllegalMoveError):
        game.parse_move("redeal")


@pytest.mark.parametrize("draw", DRAWS)
def test_vegas_cumulative_has_the_same_pass_limit(draw: int) -> None:
    game = new_game(make_deal(layout(PASS_TOPS)), draw=draw, scoring="vegas", cumulative=True)
    play(game, "t1>f1", "t7>f1")
    for n in range(2 if draw == 3 else 0):  # draw 3: passes 1 and 2 end in a redeal
        _stall_free_pass(game, forth=n % 2 == 0)
    play(game, "f1>t6")
    draw_until_stock_empty(game)
    assert "redeal" not in texts(game)


# ---------------------------------------------------------------------------
# Tableau building: down in alternating colour; runs; empty columns take Kings
# ---------------------------------------------------------------------------


def test_tableau_builds_down_in_alternating_colour() -> None:
    game = tableau_game()
    moves = texts(game)
    assert {"t3>t2", "t3>t6"} <= moves  # QS (black) on KH / KD (red)
    assert {"t7>t2", "t7>t6"} <= moves  # QC (black) on KH / KD
    assert {"t5>t3", "t5>t7"} <= moves  # JD (red) on QS / QC
    play(game, "t3>t2")
    assert col(game, 2) == ["9H", "KH", "QS"]
    assert col_faces(game, 2) == [False, True, True]


def test_tableau_refuses_a_card_of_the_same_colour() -> None:
    game = tableau_game()
    moves = texts(game)
    assert "t4>t2" not in moves and "t4>t6" not in moves  # QH on KH / KD: both red
    assert "t5>t4" not in moves  # JD on QH: both red
    with pytest.raises(IllegalMoveError):
        game.parse_move("t4>t2")


def test_tableau_refuses_a_card_of_the_wrong_rank() -> None:
    game = tableau_game()
    moves = texts(game)
    assert "t3>t5" not in moves  # QS on JD: colours alternate but the rank goes up
    assert "t7>t4" not in moves  # QC on QH: same rank
    assert "t5>t2" not in moves  # JD on KH: two ranks down (and same colour)
    assert "t6>t3" not in moves  # KD on QS
    game2 = new_game(make_deal(layout({1: ["KS"], 2: ["JH"], 3: ["TD"]})))
    assert "t2>t1" not in texts(game2)  # JH on KS: red on black but two ranks down
    assert "t3>t1" not in texts(game2)


def test_waste_to_tableau_follows_the_same_building_rule() -> None:
    tops = {1: ["KS"], 2: ["KH"], 3: ["5S"], 4: ["9D"], 5: ["TC"], 6: ["4H"], 7: ["8C"]}
    deal = make_deal(layout(tops), stock=["QD", "QC", "JC", "KC"])
    game = new_game(deal, draw=1)
    play(game, "draw")  # QD: on KS only
    assert "w>t1" in texts(game) and "w>t2" not in texts(game)
    play(game, "draw")  # QC: on KH only
    assert "w>t2" in texts(game) and "w>t1" not in texts(game)
    play(game, "draw")  # JC: no red Queen on any column
    assert not any(m.startswith("w>t") for m in texts(game))
    play(game, "draw")  # KC: a King needs an empty column, and there is none
    assert not any(m.startswith("w>t") for m in texts(game))


def test_a_face_up_run_moves_as_a_unit() -> None:
    game = tableau_game()
    play(game, "t3>t2", "t5>t2")  # KH QS JD in column 2
    assert col(game, 2)[1:] == ["KH", "QS", "JD"]
    assert "t2x2>t6" in texts(game)  # QS JD onto KD
    play(game, "t2x2>t6")
    assert col(game, 6)[-3:] == ["KD", "QS", "JD"]
    assert col_faces(game, 6)[-3:] == [True, True, True]
    assert col(game, 2) == ["9H", "KH"]
    assert col_faces(game, 2) == [False, True]


def test_any_face_up_part_of_a_run_may_move() -> None:
    game = tableau_game()
    play(game, "t3>t2", "t5>t2")
    moves = texts(game)
    assert "t2>t7" in moves  # JD alone onto QC
    assert "t2x2>t6" in moves  # QS JD onto KD
    play(game, "t2>t7")
    assert col(game, 7)[-2:] == ["QC", "JD"] and col(game, 2) == ["9H", "KH", "QS"]


def test_a_run_never_takes_face_down_cards() -> None:
    game = tableau_game()
    play(game, "t3>t2", "t5>t2", "t1>f1")
    moves = texts(game)
    assert "t2x3>t1" in moves
    assert not any(m.startswith("t2x4") for m in moves)  # the hidden 9H stays
    assert all(m.count <= 3 for m in game.legal_moves() if str(m).startswith("t2"))


def test_a_run_moves_only_if_its_bottom_card_fits() -> None:
    game = tableau_game()
    play(game, "t3>t2", "t5>t2")
    moves = texts(game)
    assert "t2x2>t7" not in moves  # QS on QC
    assert "t2x3>t6" not in moves  # KH on KD
    with pytest.raises(IllegalMoveError):
        game.parse_move("t2x2>t7")


def test_an_empty_column_accepts_only_a_king() -> None:
    game = tableau_game()
    play(game, "t1>f1")
    assert col(game, 1) == []
    moves = game.legal_moves()
    to_t1 = [m for m in moves if str(m).endswith(">t1")]
    codes = game.rules.deck.codes
    for m in to_t1:
        src = game.state.piles[m.src]
        assert codes[src[len(src) - m.count]][0] == "K", str(m)
    assert "t3>t1" not in texts(game)  # QS
    assert "t7>t1" not in texts(game)  # QC
    assert "t5>t1" not in texts(game)  # JD
    with pytest.raises(IllegalMoveError):
        game.parse_move("t3>t1")
    assert "t2>t1" in texts(game)  # KH
    assert "t6>t1" in texts(game)  # KD
    play(game, "t6>t1")
    assert col(game, 1) == ["KD"]


def test_an_empty_column_accepts_a_king_headed_run() -> None:
    game = tableau_game()
    play(game, "t3>t2", "t5>t2", "t1>f1")
    moves = texts(game)
    assert "t2x3>t1" in moves  # KH QS JD
    assert "t2x2>t1" not in moves and "t2>t1" not in moves  # QS- or JD-headed
    play(game, "t2x3>t1")
    assert col(game, 1) == ["KH", "QS", "JD"] and all(col_faces(game, 1))
    assert col(game, 2) == ["9H"] and col_faces(game, 2) == [True]


def test_an_empty_column_accepts_a_king_from_the_waste_but_no_other_card() -> None:
    deal = make_deal(layout({1: ["AC"]}), stock=["QD", "KD"])
    game = new_game(deal, draw=1)
    play(game, "t1>f1", "draw")
    assert pile(game, "waste")[-1] == "QD"
    assert "w>t1" not in texts(game)
    play(game, "draw")
    assert "w>t1" in texts(game)
    play(game, "w>t1")
    assert col(game, 1) == ["KD"]


def test_a_king_may_move_from_one_column_into_an_empty_one() -> None:
    game = new_game(make_deal(layout({1: ["AC"], 2: ["AD", "KH"]})))
    play(game, "t1>f1", "t2>t1")  # KH fills column 1; AD turns up in column 2
    assert col(game, 1) == ["KH"] and col(game, 2) == ["AD"] and col_faces(game, 2) == [True]
    assert "t1>t2" not in texts(game)  # column 2 is not empty
    play(game, "t2>f2")
    assert "t1>t2" in texts(game)
    play(game, "t1>t2")
    assert col(game, 1) == [] and col(game, 2) == ["KH"]


# ---------------------------------------------------------------------------
# Foundations: up by suit from the Ace; the top card may come back
# ---------------------------------------------------------------------------


def test_an_ace_starts_an_empty_foundation_offered_once_for_the_first_empty_one() -> None:
    # The four foundations are alike (any suit may start any of them), so an Ace is offered one
    # move, to the first empty foundation, not four that give the same game (`empty_piles: first`).
    deal = make_deal(layout({1: ["AC"], 2: ["AD"]}))
    game = new_game(deal)
    moves = texts(game)
    assert "t1>f1" in moves and not {"t1>f2", "t1>f3", "t1>f4"} & moves
    play(game, "t1>f1")
    assert found(game, 1) == ["AC"]
    moves = texts(game)
    assert "t2>f2" in moves and not {"t2>f1", "t2>f3", "t2>f4"} & moves  # AD is not the Club after AC
    assert not any(m.startswith("f1>f") for m in moves)  # foundation cards do not move between foundations
    play(game, "t2>f2")
    assert found(game, 2) == ["AD"]


def test_an_empty_foundation_takes_only_an_ace() -> None:
    tops = {1: ["2C"], 2: ["KH"], 3: ["5S"], 4: ["9D"], 5: ["TC"], 6: ["JH"], 7: ["4S"]}
    deal = make_deal(layout(tops), stock=["2D", "KS"])
    game = new_game(deal, draw=1)
    moves = texts(game)
    assert not any(">f" in m for m in moves)
    play(game, "draw")
    assert not any(">f" in m for m in texts(game))
    with pytest.raises(IllegalMoveError):
        game.parse_move("t1>f1")


def test_foundations_build_up_in_suit() -> None:
    # t1: AC; t2: 2D; t3: 3C; t7: 2C (over the hidden 3D).
    deal = make_deal(layout({1: ["AC"], 2: ["2D"], 3: ["3C"], 7: ["3D", "2C"]}))
    game = new_game(deal)
    play(game, "t1>f1")
    moves = texts(game)
    assert "t2>f1" not in moves  # 2D on AC: wrong suit
    assert "t3>f1" not in moves  # 3C on AC: skips the 2
    assert "t7>f1" in moves  # 2C on AC
    play(game, "t7>f1")
    assert found(game, 1) == ["AC", "2C"]
    assert "t3>f1" in texts(game)  # now 3C follows
    play(game, "t3>f1")
    assert found(game, 1) == ["AC", "2C", "3C"]


def test_only_the_top_tableau_card_goes_to_a_foundation() -> None:
    deal = make_deal(layout({1: ["AD"], 2: ["3D"], 3: ["2C"]}), stock=["2D"])
    game = new_game(deal, draw=1)
    play(game, "t1>f1", "draw", "w>f1", "t3>t2")  # f1: AD 2D; column 2: 3D under 2C
    assert found(game, 1) == ["AD", "2D"] and col(game, 2)[-2:] == ["3D", "2C"]
    moves = game.legal_moves()
    assert not any(str(m).startswith("t2") and ">f" in str(m) for m in moves)
    with pytest.raises(IllegalMoveError):
        game.parse_move("t2x2>f1")


def test_the_top_foundation_card_may_go_back_to_the_tableau() -> None:
    # t1: AC; t5: 3D; t6: 3H; t7: 2C. f1 will hold AC 2C.
    deal = make_deal(layout({1: ["AC"], 5: ["3D"], 6: ["3H"], 7: ["2C"]}))
    game = new_game(deal)
    play(game, "t1>f1", "t7>f1")
    moves = game.legal_moves()
    f_moves = {str(m) for m in moves if str(m).startswith("f")}
    assert f_moves == {"f1>t5", "f1>t6"}  # 2C onto a red 3 only
    assert all(m.count == 1 for m in moves if str(m).startswith("f"))
    play(game, "f1>t5")
    assert found(game, 1) == ["AC"] and col(game, 5)[-2:] == ["3D", "2C"]
    assert all(col_faces(game, 5)[-2:])


@pytest.mark.parametrize("scoring", SCORINGS)
def test_a_king_may_come_back_from_a_full_foundation_to_an_empty_column(scoring: str) -> None:
    game = new_game(won_deal(), draw=1, scoring=scoring)
    while not any(len(found(game, k)) == 13 for k in range(1, 5)):
        moves = sorted(m for m in texts(game) if ">f" in m)
        play(game, moves[0] if moves else "draw")
    full = next(k for k in range(1, 5) if len(found(game, k)) == 13)
    assert found(game, full)[-1] == "KC" and col(game, 1) == []
    assert not game.is_over
    before = score(game)
    play(game, f"f{full}>t1")
    assert col(game, 1) == ["KC"] and len(found(game, full)) == 12
    assert score(game) == before + {"none": 0, "standard": -15, "vegas": -5}[scoring]


# ---------------------------------------------------------------------------
# Automatic turning of exposed cards
# ---------------------------------------------------------------------------


def test_an_exposed_face_down_card_turns_up_automatically() -> None:
    game = tableau_game()
    play(game, "t3>t2")  # QS leaves column 3: 5H below turns up
    assert col(game, 3)[-1] == "5H"
    assert col_faces(game, 3) == [False, True]
    assert game.view(0)["zones"]["tableau"][2] == [None, "5H"]
    play(game, "t1>f1", "t2x2>t1")  # KH QS leave column 2: 9H turns up
    assert col(game, 2) == ["9H"] and col_faces(game, 2) == [True]


def test_a_card_exposed_by_a_foundation_move_turns_up() -> None:
    deal = make_deal(layout({1: ["AC"], 7: ["8H", "2C"]}))
    game = new_game(deal)
    play(game, "t1>f1", "t7>f1")
    assert col(game, 7)[-1] == "8H" and col_faces(game, 7)[-1]
    assert col_faces(game, 7) == [False] * 5 + [True]


def test_an_emptied_column_stays_empty() -> None:
    game = tableau_game()
    play(game, "t1>f1")
    assert col(game, 1) == [] and game.view(0)["zones"]["tableau"][0] == []


# ---------------------------------------------------------------------------
# Standard scoring (no floor at 0)
# ---------------------------------------------------------------------------


def test_standard_waste_to_tableau_scores_5() -> None:
    game = new_game(make_deal(layout({1: ["KS"]}), stock=["QH"]), scoring="standard")
    play(game, "draw")
    assert score(game) == 0
    play(game, "w>t1")
    assert score(game) == 5


def test_standard_waste_to_foundation_scores_10() -> None:
    game = new_game(make_deal(layout({1: ["KS"]}), stock=["AH"]), scoring="standard")
    play(game, "draw", "w>f1")
    assert score(game) == 10


def test_standard_tableau_to_foundation_scores_10() -> None:
    game = new_game(make_deal(layout({1: ["AC"]})), scoring="standard")
    play(game, "t1>f1")  # the column empties: nothing turns over
    assert score(game) == 10


def test_standard_turning_over_a_tableau_card_scores_5() -> None:
    game = new_game(make_deal(layout({1: ["KS"], 3: ["QH"]})), scoring="standard")
    play(game, "t3>t1")  # tableau to tableau scores nothing; the turn scores 5
    assert score(game) == 5
    deal = make_deal(layout({1: ["AC"], 7: ["2C"]}))
    game = new_game(deal, scoring="standard")
    play(game, "t1>f1", "t7>f1")  # 10, then 10 + 5 for the turned card
    assert score(game) == 25


def test_standard_tableau_to_tableau_without_a_turn_scores_nothing() -> None:
    deal = make_deal(layout({1: ["KS"], 3: ["QH"], 4: ["QD"], 5: ["JC"]}))
    game = new_game(deal, scoring="standard")
    play(game, "t3>t1", "t5>t1")  # two turns: 10
    assert score(game) == 10
    play(game, "t1>t4")  # JC from KS QH JC onto QD: QH was already face up
    assert score(game) == 10


def test_standard_foundation_to_tableau_costs_15() -> None:
    deal = make_deal(layout({1: ["AC"], 6: ["3H"], 7: ["2C"]}))
    game = new_game(deal, scoring="standard")
    play(game, "t1>f1", "t7>f1")
    before = score(game)
    play(game, "f1>t6")
    assert score(game) == before - 15


def test_standard_score_has_no_floor_at_zero() -> None:
    deal = make_deal(layout({1: ["AC"], 6: ["3H"], 7: ["2C"]}))
    game = new_game(deal, scoring="standard")
    play(game, "t1>f1", "t7>f1")
    assert score(game) == 25
    for _ in range(5):  # 2C down (-15) and back up (+10): -5 a round
        play(game, "f1>t6", "t6>f1")
    assert score(game) == 0
    play(game, "f1>t6")
    assert score(game) == -15
    play(game, "t6>f1", "f1>t6")
    assert score(game) == -20


@pytest.mark.parametrize("scoring", SCORINGS)
def test_drawing_and_redealing_score_nothing(scoring: str) -> None:
    game = new_game(make_deal(layout(PASS_TOPS)), draw=3, scoring=scoring)
    play(game, "t1>f1")
    before = score(game)
    for _ in range(8):
        play(game, "draw")
        assert score(game) == before
    play(game, "redeal")
    assert score(game) == before


# (move, standard delta, vegas delta). Layout: KS alone in t1, 2C over a hidden card
# in t2, QH in t3, 9D in t4, 8S in t5, 3D in t6; stock AC, JC, ...
SCORING_TOPS: dict[int, Sequence[str | None]] = {1: ["KS"], 2: ["2C"], 3: ["QH"], 4: ["9D"], 5: ["8S"],
                                                 6: ["3D"], 7: ["5S"]}
SCORING_WALK = [
    ("draw", 0, 0),  # AC
    ("w>f1", 10, 5),
    ("t2>f1", 10 + 5, 5),  # tableau to foundation plus the turned card
    ("t3>t1", 5, 0),  # tableau to tableau scores only its turn
    ("draw", 0, 0),  # JC
    ("w>t1", 5, 0),  # JC on QH
    ("f1>t6", -15, -5),  # 2C on 3D
    ("t5>t4", 5, 0),  # 8S on 9D, turn
    ("t6>f1", 10, 5),  # 2C back up
]


@pytest.mark.parametrize("scoring", SCORINGS)
def test_every_scoring_line_per_move(scoring: str) -> None:
    game = new_game(make_deal(layout(SCORING_TOPS), stock=["AC", "JC"]), draw=1, scoring=scoring)
    expected = -52 if scoring == "vegas" else 0
    assert score(game) == expected
    for move, std, vegas in SCORING_WALK:
        play(game, move)
        expected += {"none": 0, "standard": std, "vegas": vegas}[scoring]
        assert score(game) == expected, move


# ---------------------------------------------------------------------------
# Vegas scoring
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("draw", DRAWS)
def test_vegas_starts_at_minus_52(draw: int) -> None:
    game = new_game(FULL_DECK, draw=draw, scoring="vegas")
    assert score(game) == -52
    assert game.view(0)["variables"]["score"] == -52


def test_vegas_pays_5_for_every_card_moved_to_a_foundation() -> None:
    deal = make_deal(layout({1: ["AC"], 7: ["2C"]}), stock=["AH"])
    game = new_game(deal, draw=1, scoring="vegas")
    play(game, "t1>f1")
    assert score(game) == -47
    play(game, "t7>f1")  # the turned card pays nothing under Vegas
    assert score(game) == -42
    play(game, "draw", "w>f2")
    assert score(game) == -37


def test_vegas_takes_5_back_when_a_card_leaves_a_foundation() -> None:
    deal = make_deal(layout({1: ["AC"], 6: ["3H"], 7: ["2C"]}))
    game = new_game(deal, scoring="vegas")
    play(game, "t1>f1", "t7>f1")
    assert score(game) == -42
    play(game, "f1>t6")
    assert score(game) == -47
    for _ in range(3):  # no farming: up and down again nets nothing
        play(game, "t6>f1", "f1>t6")
    assert score(game) == -47


def test_vegas_other_moves_score_nothing() -> None:
    deal = make_deal(layout({1: ["KS"], 3: ["QH"], 4: ["QD"], 5: ["JC"]}), stock=["JD"])
    game = new_game(deal, draw=1, scoring="vegas")
    play(game, "t3>t1", "draw", "t5>t1", "t1>t4")  # turns, tableau moves, a draw
    assert score(game) == -52


@pytest.mark.parametrize("draw", DRAWS)
def test_vegas_full_win_scores_208(draw: int) -> None:
    game = new_game(won_deal(), draw=draw, scoring="vegas")
    seen: list[tuple[int, int]] = []

    def check(g: Any, _text: str) -> None:
        on_foundations = sum(len(found(g, k)) for k in range(1, 5))
        assert score(g) == -52 + 5 * on_foundations
        seen.append((on_foundations, score(g)))

    play_greedy(game, check)
    assert game.outcome == "won"
    assert score(game) == 208
    # "To become profitable, you must move 11 cards to the foundations."
    assert all((s > 0) == (n >= 11) for n, s in seen)


# ---------------------------------------------------------------------------
# Cumulative Vegas: the balance carries from game to game
# ---------------------------------------------------------------------------


def test_balance_is_the_only_persistent_variable_and_starts_at_zero() -> None:
    rules = rules_for(1, "vegas", True)
    assert rules.persistent_variables() == ["balance"]
    game = rules.new_game(deal=FULL_DECK)
    assert game.variable("balance") == 0 and game.persistent_values() == {"balance": 0}


@pytest.mark.parametrize("draw", DRAWS)
def test_cumulative_vegas_keeps_the_persisted_balance_at_the_start(draw: int) -> None:
    game = new_game(FULL_DECK, draw=draw, scoring="vegas", cumulative=True, persisted={"balance": 10})
    assert game.variable("balance") == 10
    assert game.persistent_values() == {"balance": 10}
    assert score(game) == -52  # the score itself starts fresh
    play(game, "draw")
    assert game.variable("balance") == 10  # nothing changes until the game ends


def test_cumulative_vegas_adds_the_score_to_the_balance_when_the_game_is_lost() -> None:
    game = new_game(dead_deal(), draw=1, scoring="vegas", cumulative=True, persisted={"balance": 10})
    draw_until_stock_empty(game)
    assert game.is_over and game.outcome == "lost"
    assert game.variable("balance") == 10 - 52
    assert game.persistent_values() == {"balance": -42}


@pytest.mark.parametrize("draw", DRAWS)
def test_cumulative_vegas_adds_the_score_to_the_balance_when_the_game_is_won(draw: int) -> None:
    game = new_game(won_deal(), draw=draw, scoring="vegas", cumulative=True, persisted={"balance": 10})
    balances: list[int] = []
    play_greedy(game, lambda g, _t: balances.append(g.variable("balance")))
    assert game.outcome == "won"
    assert set(balances[:-1]) == {10}  # unchanged while the game runs
    assert game.variable("balance") == 10 + 208


def test_cumulative_vegas_adds_the_score_to_the_balance_on_finish() -> None:
    deal = make_deal(layout({1: ["AC"], 7: ["2C"]}))
    game = new_game(deal, draw=3, scoring="vegas", cumulative=True, persisted={"balance": 100})
    play(game, "t1>f1", "t7>f1")
    assert game.variable("balance") == 100
    game.finish()
    assert game.is_over
    assert game.variable("balance") == 100 - 42
    assert game.persistent_values() == {"balance": 58}
    assert game.legal_moves() == []
    game.finish()  # a second finish changes nothing
    assert game.variable("balance") == 58


def test_cumulative_balance_carries_over_from_game_to_game() -> None:
    rules = rules_for(1, "vegas", True)
    first = rules.new_game(deal=dead_deal(), persisted={"balance": 0})
    draw_until_stock_empty(first)
    assert first.is_over and first.persistent_values() == {"balance": -52}
    second = rules.new_game(deal=won_deal(), persisted=first.persistent_values())
    assert second.variable("balance") == -52
    play_greedy(second)
    assert second.outcome == "won"
    assert second.persistent_values() == {"balance": -52 + 208}


@pytest.mark.parametrize("draw", DRAWS)
def test_non_cumulative_vegas_leaves_the_balance_alone(draw: int) -> None:
    game = new_game(won_deal(), draw=draw, scoring="vegas", cumulative=False, persisted={"balance": 10})
    assert game.variable("balance") == 10
    play_greedy(game)
    assert game.outcome == "won" and score(game) == 208
    assert game.variable("balance") == 10
    game2 = new_game(FULL_DECK, draw=draw, scoring="vegas", cumulative=False, persisted={"balance": 10})
    play(game2, "draw")
    game2.finish()
    assert game2.variable("balance") == 10


@pytest.mark.parametrize("scoring", ["none", "standard"])
def test_cumulative_applies_only_to_vegas(scoring: str) -> None:
    game = new_game(won_deal(), scoring=scoring, cumulative=True, persisted={"balance": 10})
    play_greedy(game)
    assert game.outcome == "won" and score(game) == (625 if scoring == "standard" else 0)
    assert game.variable("balance") == 10
    game2 = new_game(FULL_DECK, scoring=scoring, cumulative=True, persisted={"balance": 10})
    game2.finish()
    assert game2.variable("balance") == 10


# ---------------------------------------------------------------------------
# End of the game
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(("draw", "scoring"), COMBOS, ids=COMBO_IDS)
def test_the_game_is_won_when_all_52_cards_are_on_the_foundations(draw: int, scoring: str) -> None:
    game = new_game(won_deal(), draw=draw, scoring=scoring)

    def check(g: Any, _text: str) -> None:
        on_foundations = sum(len(found(g, k)) for k in range(1, 5))
        assert g.is_over == (on_foundations == 52)

    play_greedy(game, check)
    assert game.is_over and game.outcome == "won"
    for k in range(1, 5):
        cards = found(game, k)
        assert [c[0] for c in cards] == list(RANKS)
        assert len({c[1] for c in cards}) == 1
    assert game.legal_moves() == []
    expected = {"none": 0, "standard": 52 * 10 + 21 * 5, "vegas": 208}[scoring]
    assert score(game) == expected


def test_the_game_is_won_by_a_short_scripted_sequence() -> None:
    game = new_game(won_deal(), draw=1, scoring="standard")
    # Column tops: t1 7C, t2 6S, t3 4D, t4 3H, t5 2H, t6 AD, t7 AS.
    assert [col(game, k)[-1] for k in range(1, 8)] == ["7C", "6S", "4D", "3H", "2H", "AD", "AS"]
    play(game, "t7>f1", "t7>f2", "t7>f3")  # AS AH AC
    assert found(game, 1) == ["AS"] and found(game, 2) == ["AH"] and found(game, 3) == ["AC"]
    assert not game.is_over
    play_greedy(game)
    assert game.outcome == "won"


def test_the_game_is_lost_when_no_move_is_possible() -> None:
    # Vegas draw 1: one pass; the dead deal offers nothing but 24 draws.
    game = new_game(dead_deal(), draw=1, scoring="vegas")
    for n in range(24):
        assert not game.is_over
        assert texts(game) == {"draw"}, n
        play(game, "draw")
    assert game.is_over and game.outcome == "lost"
    assert game.legal_moves() == []
    assert game.reason


# "Lost when the only possible move is to recycle the stock" (GAMES.md, revised reading): lost as
# soon as a whole cycle through the stock (every turn and the recycle, back to the position where
# the cycle began) has offered no move but stock turns. What counts is what could be played.


@pytest.mark.parametrize(("draw", "scoring"), COMBOS, ids=COMBO_IDS)
def test_the_game_is_lost_when_a_whole_cycle_through_the_stock_offered_only_stock_turns(
        draw: int, scoring: str) -> None:
    game = new_game(dead_deal(), draw=draw, scoring=scoring)
    for _ in range(24 // draw):
        assert texts(game) == {"draw"}
        play(game, "draw")
    if scoring == "vegas" and draw == 1:
        # no redeal: no move is possible at all
        assert game.is_over and game.outcome == "lost"
        return
    assert not game.is_over
    assert texts(game) == {"redeal"}
    play(game, "redeal")  # back to the deal's own position: the cycle closes here, not a pass later
    assert game.is_over and game.outcome == "lost"
    assert "cycle" in game.reason
    assert game.legal_moves() == []


@pytest.mark.parametrize("draw", DRAWS)
def test_drawing_through_the_stock_to_look_does_not_lose_while_a_card_can_be_played(draw: int) -> None:
    # AC and 2C could go to the foundation all along; the player only turns the stock.
    game = new_game(make_deal(layout(PASS_TOPS)), draw=draw, scoring="standard")
    for n in range(3):
        assert {"t1>f1", "draw"} <= texts(game)
        draw_until_stock_empty(game)
        play(game, "redeal")
        assert not game.is_over, n
    assert game.variable("passes") == 4
    play(game, "t1>f1", "t7>f1")  # the cards were playable after all
    assert found(game, 1) == ["AC", "2C"]


def test_drawing_through_seed_1_and_redealing_does_not_lose() -> None:
    game = load_ruleset("klondike").new_game(seed=1)
    assert "t6>f1" in texts(game)  # an Ace on column 6
    for _ in range(24):
        play(game, "draw")
        assert "t6>f1" in texts(game)
    play(game, "redeal")
    assert not game.is_over and game.outcome is None


# "Deal A": nothing but stock turns is ever possible except for the AH, placed in the stock so that
# it is on the waste's top after ``AH_DRAWS[draw]`` turns. Tableau tops are black 3-6; the other
# Aces, the red 2-5 (which would fit on a top) are hidden; once the AH is home, nothing can follow it.
AH_DEAL_TOPS = ["3C", "3S", "4C", "4S", "5C", "5S", "6C"]
AH_DEAL_HIDDEN = ["AC", "AD", "AS", "2D", "2H", "3D", "3H", "4D", "4H", "5D", "5H"]
AH_STOCK_INDEX = 11  # the 12th stock card: on top after 12 turns of one, or 4 turns of three
AH_DRAWS = {1: 12, 3: 4}


def ah_deal() -> list[str]:
    hidden = iter(AH_DEAL_HIDDEN)
    cols: list[list[str | None]] = [[next(hidden, None) for _ in range(i)] + [AH_DEAL_TOPS[i]] for i in range(7)]
    stock: list[str | None] = [None] * AH_STOCK_INDEX + ["AH"]
    deal = make_deal(cols, stock)
    assert not any(is_red(c) and c[0] in "2345" or c[0] == "A" and c != "AH" for c in deal[28:])
    return deal


def ah_game(draw: int, scoring: str = "standard") -> Any:
    game = new_game(ah_deal(), draw=draw, scoring=scoring)
    for _ in range(AH_DRAWS[draw]):
        assert texts(game) == {"draw"}
        play(game, "draw")
    assert pile(game, "waste")[-1] == "AH"
    return game


@pytest.mark.parametrize("draw", DRAWS)
def test_a_card_offered_only_from_the_waste_keeps_the_game_going(draw: int) -> None:
    game = ah_game(draw)
    assert texts(game) == {"draw", "w>f1"}
    for n in range(3):  # never played, but offered on every pass
        draw_until_stock_empty(game)
        play(game, "redeal")
        assert not game.is_over, n
        for _ in range(AH_DRAWS[draw]):
            play(game, "draw")
        assert "w>f1" in texts(game)


def test_a_cycle_that_starts_mid_stock_closes_where_it_began_draw1() -> None:
    game = ah_game(1)
    play(game, "w>f1")  # the cycle begins here: stock 12, waste 11
    assert len(pile(game, "stock")) == 12
    draw_until_stock_empty(game)
    play(game, "redeal")
    for _ in range(10):
        play(game, "draw")
        assert not game.is_over
    play(game, "draw")  # stock 12 and waste 11 again, in the same order: the cycle is closed
    assert len(pile(game, "stock")) == 12
    assert game.is_over and game.outcome == "lost" and "cycle" in game.reason


def test_a_draw3_cycle_that_starts_off_the_stock_orbit_closes_when_a_position_comes_back() -> None:
    # After the AH goes home mid-stock the stock holds 12 cards; turns of three from 23 never
    # leave 12, but the stock turned through (stock empty, the waste in deck order) comes back:
    # the cycle closes there, on the second pass, without waiting for its redeal.
    game = ah_game(3)
    play(game, "w>f1")
    assert len(pile(game, "stock")) == 12
    draw_until_stock_empty(game)
    play(game, "redeal")
    for n in range(7):  # 23 cards: 7 turns of three and one of two
        play(game, "draw")
        assert not game.is_over, n
    play(game, "draw")
    assert pile(game, "stock") == [] and len(pile(game, "waste")) == 23
    assert game.is_over and game.outcome == "lost" and "cycle" in game.reason


def test_vegas_draw3_loses_by_the_cycle_before_the_pass_limit_is_reached() -> None:
    game = ah_game(3, scoring="vegas")
    play(game, "w>f1")
    draw_until_stock_empty(game)
    play(game, "redeal")  # pass 2
    draw_until_stock_empty(game)  # the turned-through stock of pass 1 comes back
    assert game.variable("passes") == 2
    assert game.is_over and game.outcome == "lost" and "cycle" in game.reason


def test_vegas_draw3_a_play_on_the_last_pass_ends_with_no_move_when_the_stock_runs_out() -> None:
    game = ah_game(3, scoring="vegas")
    draw_until_stock_empty(game)
    play(game, "redeal")  # pass 2, the AH left unplayed
    draw_until_stock_empty(game)
    play(game, "redeal")  # pass 3: no cycle closed, the AH was offered
    assert not game.is_over and game.variable("passes") == 3
    for _ in range(AH_DRAWS[3]):
        play(game, "draw")
    play(game, "w>f1")
    draw_until_stock_empty(game)
    assert "redeal" not in texts(game)  # the pass limit
    assert game.is_over and game.outcome == "lost" and "cycle" not in game.reason


def test_vegas_draw1_never_completes_a_cycle_the_single_pass_runs_out() -> None:
    game = ah_game(1, scoring="vegas")
    play(game, "w>f1")
    draw_until_stock_empty(game)
    assert game.is_over and game.outcome == "lost" and "cycle" not in game.reason


@pytest.mark.parametrize("draw", DRAWS)
def test_a_play_during_the_cycle_starts_it_again(draw: int) -> None:
    game = ah_game(draw)
    draw_until_stock_empty(game)
    play(game, "redeal")
    for _ in range(AH_DRAWS[draw]):
        play(game, "draw")
    play(game, "w>f1")  # on the second pass: a new cycle begins here
    draw_until_stock_empty(game)
    play(game, "redeal")
    assert not game.is_over


def test_a_move_limit_ends_the_game_as_limit() -> None:
    game = new_game(FULL_DECK, max_moves=3)
    play(game, "draw", "draw")
    assert not game.is_over
    play(game, "draw")
    assert game.is_over and game.outcome == "limit" and game.legal_moves() == []


def test_no_move_is_legal_once_the_game_is_over() -> None:
    game = new_game(dead_deal(), draw=1, scoring="vegas")
    draw_until_stock_empty(game)
    assert game.is_over
    assert game.legal_moves() == []
    before = snapshot(game)
    with pytest.raises(IllegalMoveError):
        game.parse_move("draw")
    assert snapshot(game) == before


# ---------------------------------------------------------------------------
# Undo and clone
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("scoring", SCORINGS)
def test_undo_restores_piles_faces_and_score_exactly(scoring: str) -> None:
    game = new_game(make_deal(layout(SCORING_TOPS), stock=["AC", "JC"]), draw=1, scoring=scoring)
    snapshots = [snapshot(game)]
    for move, _, _ in SCORING_WALK:
        play(game, move)
        snapshots.append(snapshot(game))
    for expected in reversed(snapshots):
        assert snapshot(game) == expected
        if game.history:
            game.undo()
    assert game.history == []
    with pytest.raises(IllegalMoveError):
        game.undo()


@pytest.mark.parametrize("draw", DRAWS)
def test_undo_of_a_redeal_restores_waste_stock_and_passes(draw: int) -> None:
    game = new_game(make_deal(layout({1: ["AC"]})), draw=draw, scoring="standard")
    play(game, "t1>f1")
    draw_until_stock_empty(game)
    before = snapshot(game)
    play(game, "redeal")
    assert pile(game, "waste") == [] and game.variable("passes") == 2
    game.undo()
    assert snapshot(game) == before
    assert pile(game, "stock") == [] and len(pile(game, "waste")) == 24 and all(faces(game, "waste"))
    assert game.variable("passes") == 1


def test_undo_of_a_losing_redeal_reopens_the_game() -> None:
    game = new_game(dead_deal(), draw=3, scoring="none")
    draw_until_stock_empty(game)
    before = snapshot(game)
    play(game, "redeal")
    assert game.is_over and game.outcome == "lost"
    game.undo()
    assert not game.is_over and snapshot(game) == before
    play(game, "redeal")  # the cycle is followed again exactly as before the undo
    assert game.is_over and game.outcome == "lost"


@pytest.mark.parametrize("draw", DRAWS)
def test_a_clone_follows_the_cycle_under_way(draw: int) -> None:
    game = new_game(dead_deal(), draw=draw, scoring="none")
    draw_until_stock_empty(game)
    play(game, "redeal")
    assert game.is_over
    game.undo()
    clone = game.clone()
    play(clone, "redeal")
    assert clone.is_over and clone.outcome == "lost"  # a clone follows the same cycle


def test_undo_then_replay_gives_the_same_state() -> None:
    game = tableau_game(stock=["KS"])
    play(game, "t3>t2", "t5>t2", "t1>f1")
    before = snapshot(game)
    play(game, "t2x3>t1")  # a run move with an auto-turn
    after = snapshot(game)
    game.undo()
    assert snapshot(game) == before
    assert col_faces(game, 2) == [False, True, True, True]
    play(game, "t2x3>t1")
    assert snapshot(game) == after


def test_undo_reopens_a_finished_game_and_restores_the_balance() -> None:
    game = new_game(dead_deal(), draw=1, scoring="vegas", cumulative=True, persisted={"balance": 10})
    for _ in range(23):
        play(game, "draw")
    before = snapshot(game)
    play(game, "draw")
    assert game.is_over and game.variable("balance") == -42
    game.undo()
    assert not game.is_over and game.outcome is None
    assert game.variable("balance") == 10
    assert snapshot(game) == before
    game.finish()
    assert game.variable("balance") == -42
    game.undo()  # undoing finish
    assert snapshot(game) == before


def test_clone_is_independent_of_the_original() -> None:
    game = tableau_game(stock=["KS"])
    play(game, "t3>t2")
    original = snapshot(game)
    other = game.clone()
    assert snapshot(other) == original
    play(other, "t5>t2", "t1>f1", "t2x3>t1", "draw")
    assert snapshot(game) == original
    cloned = snapshot(other)
    play(game, "t7>t6", "draw")
    assert snapshot(other) == cloned
    other.undo()
    other.undo()
    assert snapshot(game) != snapshot(other)
    # Undo on the clone reaches back into the shared history without touching the original.
    while other.history:
        other.undo()
    assert col(other, 3)[-1] == "QS"
    assert col(game, 3)[-1] == "5H"


def test_clone_of_a_move_list_applies_to_the_clone() -> None:
    game = tableau_game()
    other = game.clone()
    move = game.parse_move("t3>t2")
    other.apply(move)
    assert col(other, 2)[-1] == "QS" and col(game, 2)[-1] == "KH"


# ---------------------------------------------------------------------------
# Illegal moves
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("bad", ["t4>t2", "t1>t1", "t2x2>t1", "w>f1", "f1>t2", "redeal", "nonsense", "",
                                 "t9>f1", "t3>t1"])
def test_an_illegal_move_text_raises_and_changes_nothing(bad: str) -> None:
    game = tableau_game()
    before = snapshot(game)
    with pytest.raises(IllegalMoveError):
        game.parse_move(bad)
    assert snapshot(game) == before


def test_applying_a_move_that_is_not_legal_now_raises_and_changes_nothing() -> None:
    game = tableau_game()
    move = game.parse_move("t1>f1")
    game.apply(move)
    before = snapshot(game)
    with pytest.raises(IllegalMoveError):
        game.apply(move)  # column 1 is empty now
    assert snapshot(game) == before
    stale = game.clone()
    stale_move = stale.parse_move("t3>t2")
    play(game, "t7>t2")  # QC takes the place QS wanted
    before = snapshot(game)
    with pytest.raises(IllegalMoveError):
        game.apply(stale_move)
    assert snapshot(game) == before


# ---------------------------------------------------------------------------
# What the player sees
# ---------------------------------------------------------------------------


def test_the_view_hides_face_down_cards_and_shows_face_up_ones() -> None:
    deal = list(FULL_DECK)
    game = new_game(deal, draw=3)
    view = game.view(0)
    zones = view["zones"]
    assert zones["stock"] == [None] * 24
    assert zones["waste"] == [] and zones["foundation"] == [[], [], [], []]
    for k in range(1, 8):
        assert zones["tableau"][k - 1] == [None] * (k - 1) + [col(game, k)[-1]]
    play(game, "draw")
    zones = game.view(0)["zones"]
    assert zones["waste"] == deal[28:31]
    assert zones["stock"] == [None] * 21


def test_the_view_never_names_a_face_down_card() -> None:
    game = tableau_game(stock=["KS"])
    play(game, "t3>t2", "t5>t2", "t1>f1", "t2x3>t1", "draw")
    view = game.view(0)
    hidden = {c for k in range(1, 8) for c, up in zip(col(game, k), col_faces(game, k)) if not up}
    hidden |= set(pile(game, "stock"))
    shown = repr(view)
    for code in hidden:
        assert f"'{code}'" not in shown, code
    assert view["zones"]["tableau"][0] == ["KH", "QS", "JD"]
    assert view["zones"]["foundation"][0] == ["AC"]
    assert view["zones"]["waste"] == ["KS"]


def test_the_view_of_the_stock_after_a_redeal_is_hidden() -> None:
    game = new_game(FULL_DECK, draw=1)
    draw_until_stock_empty(game)
    assert game.view(0)["zones"]["waste"] == FULL_DECK[28:]
    play(game, "redeal")
    zones = game.view(0)["zones"]
    assert zones["stock"] == [None] * 24 and zones["waste"] == []


def test_the_view_reports_score_passes_and_legal_moves() -> None:
    game = new_game(make_deal(layout({1: ["AC"]})), scoring="standard")
    play(game, "t1>f1")
    view = game.view(0)
    assert view["variables"]["score"] == 10
    assert view["variables"]["passes"] == 1
    assert sorted(view["legal_moves"]) == sorted(texts(game))
    assert view["over"] is False and view["outcome"] is None
