"""Self-tests of the hand-written reference Klondike (benchmarks/reference_klondike.py).

Most tests build an explicit deal (see ``make_deal``) so the situation they check is exact.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from reference_klondike import ReferenceKlondike, full_deck, play_random, shuffled_deck

# ---------------------------------------------------------------------------
# Deal construction helpers
# ---------------------------------------------------------------------------


def make_deal(columns: Sequence[Sequence[str | None]], stock: list[str] | None = None) -> list[str]:
    """The deal (top of deck first) that produces the given layout.

    ``columns[i]`` lists column i+1 bottom to top and must hold i+1 entries;
    ``stock`` lists the first stock cards, top first. ``None`` entries in the
    columns and the rest of the stock are filled with the unused cards in
    ``full_deck()`` order.
    """
    assert [len(c) for c in columns] == [1, 2, 3, 4, 5, 6, 7]
    stock = list(stock or [])
    named = [c for col in columns for c in col if c is not None] + stock
    assert len(named) == len(set(named)), "a card is named twice"
    spare = iter(c for c in full_deck() if c not in set(named))
    cols = [[c if c is not None else next(spare) for c in col] for col in columns]
    deal = [cols[i][r] for r in range(7) for i in range(r, 7)]
    deal += stock
    deal += list(spare)
    assert len(deal) == 52 and set(deal) == set(full_deck())
    return deal


def column(*top: str, size: int) -> list[str | None]:
    """A column of ``size`` cards whose top cards (bottom to top) are ``top``."""
    return [None] * (size - len(top)) + list(top)


# Column tops used by several tests (column k has k cards):
#   t1: AC alone (plays to a foundation, leaving an empty column)
#   t2: KH over AD (so column 2 empties once KH and AD leave)
#   t3: QS (fits on KH)   t4: QH (same colour as KH)
#   t5: JD (fits on QS)   t6: 3H   t7: 2C (fits on 3H)
TABLEAU: list[list[str | None]] = [
    column("AC", size=1),
    ["AD", "KH"],
    column("QS", size=3),
    column("QH", size=4),
    column("JD", size=5),
    column("3H", size=6),
    column("2C", size=7),
]

# A deal in which nothing but stock turns is ever possible: all tableau tops
# are black non-Aces, every Ace and every red card of rank 2-4 is face down,
# and the stock holds only black cards and red cards of rank 5 or more.
DEAD_TOPS = ["2C", "2S", "3C", "3S", "4C", "4S", "5C"]
DEAD_HIDDEN = ["AC", "AD", "AH", "AS", "2D", "2H", "3D", "3H", "4D", "4H"]


def dead_deal() -> list[str]:
    hidden = iter(DEAD_HIDDEN)
    cols: list[list[str | None]] = []
    for i in range(7):
        cols.append([next(hidden, None) for _ in range(i)] + [DEAD_TOPS[i]])
    deal = make_deal(cols)
    stock = deal[28:]
    assert not any(c[0] == "A" for c in stock)
    assert not any(c[1] in "DH" and c[0] in "234" for c in stock)
    return deal


def won_deal() -> list[str]:
    """Ranks 7..A dealt to the tableau (so each column is lowest on top), 8..K in the stock."""
    by_rank = {r: [r + s for s in "CDHS"] for r in "A23456789TJQK"}
    tableau = [c for r in "765432A" for c in by_rank[r]]
    stock = [c for r in "89TJQK" for c in by_rank[r]]
    return tableau + stock


def play_greedy(game: ReferenceKlondike) -> None:
    """Foundation moves first, else draw, else redeal, until the game ends."""
    for _ in range(10_000):
        if game.is_over:
            return
        moves = game.legal_moves()
        to_f = [m for m in moves if ">f" in m]
        if to_f:
            game.apply(to_f[0])
        elif "draw" in moves:
            game.apply("draw")
        else:
            game.apply("redeal")
    raise AssertionError("greedy play did not finish")


# ---------------------------------------------------------------------------
# Deck and setup
# ---------------------------------------------------------------------------


def test_shuffled_deck_is_random_shuffle_of_suit_major_deck() -> None:
    deck = full_deck()
    assert deck[:3] == ["AC", "2C", "3C"] and deck[12:14] == ["KC", "AD"] and deck[-1] == "KS"
    expected = list(deck)
    random.Random(42).shuffle(expected)
    assert shuffled_deck(42) == expected
    assert shuffled_deck(42) != shuffled_deck(43)


def test_setup_deals_round_robin_by_rows_and_turns_column_tops_up() -> None:
    deal = shuffled_deck(7)
    game = ReferenceKlondike(deal)
    pos = 0
    expected: list[list[str]] = [[] for _ in range(7)]
    for r in range(7):
        for i in range(r, 7):
            expected[i].append(deal[pos])
            pos += 1
    for i in range(7):
        assert game.zone(f"t{i + 1}") == expected[i]
        assert len(expected[i]) == i + 1
        assert game.face_up_count(i + 1) == 1
    # deal[0] is the first card dealt: the bottom of column 1, which is also its top.
    assert game.zone("t1") == [deal[0]]
    assert game.zone("t2") == [deal[1], deal[7]]
    assert game.zone("t7")[-1] == deal[27]


def test_setup_stock_holds_remaining_24_with_deal_28_on_top() -> None:
    deal = shuffled_deck(8)
    game = ReferenceKlondike(deal)
    stock = game.zone("stock")  # bottom first
    assert len(stock) == 24
    assert stock[-1] == deal[28]
    assert stock == deal[28:][::-1]
    assert game.zone("waste") == []
    assert all(game.zone(f"f{k}") == [] for k in range(1, 5))
    assert game.foundation_count() == 0
    assert not game.is_over and game.outcome is None


def test_constructor_rejects_bad_arguments() -> None:
    deal = shuffled_deck(1)
    with pytest.raises(ValueError):
        ReferenceKlondike(deal, draw=2)
    with pytest.raises(ValueError):
        ReferenceKlondike(deal, scoring="casino")
    with pytest.raises(ValueError):
        ReferenceKlondike(deal[:51])
    with pytest.raises(ValueError):
        ReferenceKlondike(deal[:51] + deal[:1])


# ---------------------------------------------------------------------------
# Stock and waste
# ---------------------------------------------------------------------------


def test_draw_one_moves_stock_top_to_waste() -> None:
    deal = shuffled_deck(3)
    game = ReferenceKlondike(deal, draw=1)
    assert "draw" in game.legal_moves()
    game.apply("draw")
    assert game.zone("waste") == [deal[28]]
    game.apply("draw")
    assert game.zone("waste") == [deal[28], deal[29]]
    assert len(game.zone("stock")) == 22


def test_draw_three_moves_packet_one_at_a_time_so_third_card_is_waste_top() -> None:
    deal = shuffled_deck(3)
    game = ReferenceKlondike(deal, draw=3)
    game.apply("draw")
    assert game.zone("waste") == [deal[28], deal[29], deal[30]]  # bottom first: deal[30] on top
    game.apply("draw")
    assert game.zone("waste")[-1] == deal[33]
    assert len(game.zone("stock")) == 18


def test_draw_three_takes_what_is_left_when_stock_has_fewer() -> None:
    # The third stock card is an Ace: play it, leaving 23 cards to cycle.
    deal = make_deal([column(size=i + 1) for i in range(7)], stock=["KD", "QD", "AH"])
    game = ReferenceKlondike(deal, draw=3, scoring="none")
    game.apply("draw")
    game.apply("w>f1")
    for _ in range(7):
        game.apply("draw")
    assert game.zone("stock") == [] and len(game.zone("waste")) == 23
    game.apply("redeal")
    for _ in range(7):
        game.apply("draw")
    assert len(game.zone("stock")) == 2
    before_stock = game.zone("stock")
    waste_before = game.zone("waste")
    game.apply("draw")
    assert game.zone("stock") == []
    assert game.zone("waste") == waste_before + before_stock[::-1]
    assert "draw" not in game.legal_moves()


def test_draw_illegal_when_stock_empty() -> None:
    game = ReferenceKlondike(make_deal(TABLEAU), draw=1)
    game.apply("t1>f1")  # a play, so that the redeal below does not lose
    for _ in range(24):
        game.apply("draw")
    assert "draw" not in game.legal_moves()
    with pytest.raises(ValueError):
        game.apply("draw")


def test_redeal_turns_waste_over_so_first_drawn_card_is_stock_top_again() -> None:
    deal = make_deal(TABLEAU)
    game = ReferenceKlondike(deal, draw=1, scoring="standard")
    assert "redeal" not in game.legal_moves()  # stock not empty
    game.apply("t1>f1")
    for _ in range(24):
        game.apply("draw")
    waste = game.zone("waste")
    assert waste == deal[28:]
    assert "redeal" in game.legal_moves()
    game.apply("redeal")
    assert not game.is_over
    assert game.zone("waste") == []
    assert game.zone("stock") == waste[::-1]  # waste top -> stock bottom
    assert game.zone("stock")[-1] == deal[28]  # waste bottom -> stock top
    game.apply("draw")
    assert game.zone("waste") == [deal[28]]


def test_redeal_illegal_while_stock_not_empty() -> None:
    game = ReferenceKlondike(shuffled_deck(5))
    assert "redeal" not in game.legal_moves()
    with pytest.raises(ValueError):
        game.apply("redeal")


def test_redeal_illegal_when_stock_and_waste_both_empty() -> None:
    # won_deal: clear the tableau and play the stock to the foundations, except the
    # last stock card KS, which goes to an empty column instead.
    game = ReferenceKlondike(won_deal(), draw=1, scoring="standard")
    while not (game.zone("stock") == [] and game.zone("waste") == ["KS"]):
        moves = game.legal_moves()
        to_f = [m for m in moves if ">f" in m]
        game.apply(to_f[0] if to_f else "draw")
    game.apply("w>t1")
    moves = game.legal_moves()
    assert "redeal" not in moves and "draw" not in moves
    assert not game.is_over and game.foundation_count() == 51


def _pass_with_play(game: ReferenceKlondike, play: str, draws: int) -> None:
    game.apply(play)
    for _ in range(draws):
        game.apply("draw")


def test_vegas_draw_one_allows_no_redeal() -> None:
    game = ReferenceKlondike(make_deal(TABLEAU), draw=1, scoring="vegas")
    _pass_with_play(game, "t1>f1", 24)
    assert "redeal" not in game.legal_moves()
    assert not game.is_over  # other moves (e.g. t3>t2) remain


def test_vegas_draw_three_allows_two_redeals() -> None:
    # Each pass makes one play (AC, then 2C, then KH to the empty column).
    game = ReferenceKlondike(make_deal(TABLEAU), draw=3, scoring="vegas")
    _pass_with_play(game, "t1>f1", 8)
    assert "redeal" in game.legal_moves()
    game.apply("redeal")
    _pass_with_play(game, "t7>f1", 8)  # 2C
    assert "redeal" in game.legal_moves()
    game.apply("redeal")
    _pass_with_play(game, "t2>t1", 8)
    assert "redeal" not in game.legal_moves()
    assert not game.is_over


@pytest.mark.parametrize("scoring", ["none", "standard"])
@pytest.mark.parametrize("draw", [1, 3])
def test_non_vegas_redeals_are_unlimited(draw: int, scoring: str) -> None:
    game = ReferenceKlondike(make_deal(TABLEAU), draw=draw, scoring=scoring)
    game.apply("t1>f1")
    # KH moves to the empty column 1, AD (under it) goes up, then KH shuttles
    # between the two empty columns: one play in each pass.
    plays = ["t2>t1", "t2>f2", "t1>t2", "t2>t1", "t1>t2", "t2>t1"]
    for play in plays:
        while "draw" in game.legal_moves():
            game.apply("draw")
        game.apply("redeal")
        game.apply(play)
    assert not game.is_over
    while "draw" in game.legal_moves():
        game.apply("draw")
    assert "redeal" in game.legal_moves()


# ---------------------------------------------------------------------------
# Foundations
# ---------------------------------------------------------------------------


def test_ace_is_offered_to_the_first_empty_foundation_only() -> None:
    game = ReferenceKlondike(make_deal(TABLEAU))
    moves = game.legal_moves()
    assert "t1>f1" in moves and not {"t1>f2", "t1>f3", "t1>f4"} & set(moves)
    game.apply("t1>f1")
    assert game.zone("f1") == ["AC"]
    assert game.foundation_count() == 1


def test_foundation_takes_same_suit_one_higher_only() -> None:
    game = ReferenceKlondike(make_deal(TABLEAU))
    assert not any(m.startswith("t7>f") for m in game.legal_moves())  # 2C needs AC first
    game.apply("t1>f1")
    moves = game.legal_moves()
    assert "t7>f1" in moves
    assert not {"t7>f2", "t7>f3", "t7>f4"} & set(moves)  # 2C is not an Ace
    game.apply("t7>f1")
    assert game.zone("f1") == ["AC", "2C"]


def test_waste_to_foundation() -> None:
    deal = make_deal([column(size=i + 1) for i in range(7)], stock=["AD", "2D", "3S"])
    game = ReferenceKlondike(deal, draw=1)
    game.apply("draw")
    assert "w>f1" in game.legal_moves() and "w>f4" not in game.legal_moves()
    game.apply("w>f1")
    game.apply("draw")
    assert "w>f1" in game.legal_moves() and "w>f2" not in game.legal_moves()
    game.apply("w>f1")
    game.apply("draw")
    assert not any(m.startswith("w>f") for m in game.legal_moves())  # 3S is not 3D
    assert game.zone("f1") == ["AD", "2D"]


def test_foundation_to_tableau_needs_opposite_colour_one_lower() -> None:
    game = ReferenceKlondike(make_deal(TABLEAU), scoring="standard")
    game.apply("t1>f1")
    # AC cannot go onto the tableau (no red 2 on top); it never goes to an empty column.
    assert not any(m.startswith("f1>") for m in game.legal_moves())
    game.apply("t7>f1")
    moves = game.legal_moves()
    assert "f1>t6" in moves  # 2C onto 3H
    assert [m for m in moves if m.startswith("f1>")] == ["f1>t6"]
    game.apply("f1>t6")
    assert game.zone("f1") == ["AC"]
    assert game.zone("t6")[-2:] == ["3H", "2C"]
    assert game.face_up_count(6) == 2


def test_no_moves_after_a_win_although_kings_could_leave_foundations() -> None:
    game = ReferenceKlondike(won_deal(), scoring="standard")
    play_greedy(game)
    assert game.outcome == "won"
    assert game.legal_moves() == []
    with pytest.raises(ValueError):
        game.apply("f1>t1")


def test_king_from_foundation_goes_to_empty_column_only() -> None:
    game = ReferenceKlondike(won_deal(), draw=1, scoring="standard")
    while game.zone("stock") or game.zone("waste") != ["KS"]:
        moves = game.legal_moves()
        to_f = [m for m in moves if ">f" in m]
        game.apply(to_f[0] if to_f else "draw")
    game.apply("w>t3")  # KS to an empty column; the other suits are complete
    complete = [k for k in range(1, 5) if game.zone(f"f{k}")[-1:] in (["KC"], ["KD"], ["KH"])]
    assert len(complete) == 3
    f2t = sorted(m for m in game.legal_moves() if m.startswith("f"))
    expected = sorted(f"f{k}>t{j}" for k in complete for j in range(1, 8) if j != 3)
    assert f2t == expected


# ---------------------------------------------------------------------------
# Tableau
# ---------------------------------------------------------------------------


def test_empty_column_takes_only_a_king() -> None:
    game = ReferenceKlondike(make_deal(TABLEAU))
    assert "t2>t1" not in game.legal_moves()  # column 1 not empty yet
    game.apply("t1>f1")
    moves = game.legal_moves()
    assert "t2>t1" in moves  # KH to the empty column
    assert not {"t3>t1", "t4>t1", "t5>t1", "t6>t1"} & set(moves)


def test_lone_king_is_offered_to_another_empty_column() -> None:
    game = ReferenceKlondike(make_deal(TABLEAU))
    game.apply("t1>f1")
    game.apply("t2>t1")  # KH now fills column 1 alone; AD turns up in column 2
    assert game.zone("t2") == ["AD"] and game.face_up_count(2) == 1
    assert "t1>t2" not in game.legal_moves()
    game.apply("t2>f2")
    assert game.zone("t2") == []
    assert "t1>t2" in game.legal_moves()
    game.apply("t1>t2")
    assert game.zone("t1") == [] and game.zone("t2") == ["KH"]


def test_king_run_goes_to_empty_column_with_x_count() -> None:
    game = ReferenceKlondike(make_deal(TABLEAU))
    game.apply("t3>t2")  # QS onto KH
    assert game.zone("t2")[-2:] == ["KH", "QS"] and game.face_up_count(2) == 2
    game.apply("t1>f1")
    moves = game.legal_moves()
    assert "t2x2>t1" in moves  # the King run
    assert "t2>t1" not in moves  # QS alone is no King
    game.apply("t2x2>t1")
    assert game.zone("t1") == ["KH", "QS"]
    assert game.face_up_count(1) == 2
    # Column 2 turned its face-down AD up; once AD goes up it is empty, and the
    # King run that fills column 1 alone is offered to it.
    assert game.zone("t2") == ["AD"] and game.face_up_count(2) == 1
    assert "t1x2>t2" not in game.legal_moves()
    game.apply("t2>f2")
    assert "t1x2>t2" in game.legal_moves()
    assert "t1>t2" not in game.legal_moves()


def test_tableau_needs_alternating_colour_and_rank_one_lower() -> None:
    game = ReferenceKlondike(make_deal(TABLEAU))
    moves = set(game.legal_moves())
    assert "t3>t2" in moves  # QS (black) on KH (red)
    assert "t4>t2" not in moves  # QH (red) on KH (red)
    assert "t5>t2" not in moves  # JD is two below KH
    assert "t7>t6" in moves  # 2C on 3H
    assert "t5>t3" in moves  # JD on QS
    assert "t5>t4" not in moves  # JD on QH: same colour


def test_run_moves_with_count_and_only_bottom_card_must_fit() -> None:
    game = ReferenceKlondike(make_deal(TABLEAU))
    game.apply("t5>t3")  # JD on QS: column 3 face up [QS, JD]
    game.apply("t3x2>t2")  # QS+JD on KH
    assert game.zone("t2")[-3:] == ["KH", "QS", "JD"]
    assert game.face_up_count(2) == 3
    game.apply("t1>f1")
    moves = game.legal_moves()
    assert "t2x3>t1" in moves
    assert "t2x2>t1" not in moves and "t2>t1" not in moves
    assert not any(m.startswith("t2x4") for m in moves)  # only face-up cards move


def test_waste_to_tableau() -> None:
    deal = make_deal(TABLEAU, stock=["JH", "KS", "QD"])
    game = ReferenceKlondike(deal, draw=1)
    game.apply("draw")  # JH: fits on QS (t3)
    assert "w>t3" in game.legal_moves() and "w>t4" not in game.legal_moves()
    game.apply("draw")  # KS: needs an empty column
    assert not any(m.startswith("w>t") for m in game.legal_moves())
    game.apply("t1>f1")
    assert "w>t1" in game.legal_moves()
    game.apply("w>t1")
    game.apply("draw")  # QD fits on KS
    assert "w>t1" in game.legal_moves()


def test_auto_turn_reveals_new_column_top() -> None:
    game = ReferenceKlondike(make_deal(TABLEAU))
    before = game.zone("t3")
    assert game.face_up_count(3) == 1
    game.apply("t3>t2")
    assert game.zone("t3") == before[:2]
    assert game.face_up_count(3) == 1  # before[1] was face down, now face up
    game.apply("t5>t2")  # JD on QS: column 5 turns its new top up too
    assert game.face_up_count(5) == 1 and len(game.zone("t5")) == 4


def test_illegal_and_malformed_moves_raise_value_error() -> None:
    game = ReferenceKlondike(make_deal(TABLEAU))
    for bad in ["t4>t2", "t1>t1", "t2x2>t1", "w>f1", "f1>t2", "nonsense", "", "t9>f1"]:
        with pytest.raises(ValueError):
            game.apply(bad)


# ---------------------------------------------------------------------------
# Scoring
# ---------------------------------------------------------------------------

# Layout for the scoring walk: KS alone in t1, 2C over one hidden card in t2,
# QH over two hidden cards in t3, 9D in t4, 8S in t5, 3D in t6; stock AC, JC, ...
SCORING_TABLEAU: list[list[str | None]] = [
    ["KS"],
    column("2C", size=2),
    column("QH", size=3),
    column("9D", size=4),
    column("8S", size=5),
    column("3D", size=6),
    column("5S", size=7),
]
# (move, standard delta, vegas delta)
SCORING_WALK = [
    ("draw", 0, 0),  # AC
    ("w>f1", 10, 5),
    ("t2>f1", 10 + 5, 5),  # t>f plus the auto-turned card
    ("t3>t1", 5, 0),  # t>t scores only its auto-turn
    ("draw", 0, 0),  # JC
    ("w>t1", 5, 0),  # JC on QH
    ("f1>t6", -15, -5),  # 2C on 3D
    ("t5>t4", 5, 0),  # 8S on 9D, auto-turn
]


@pytest.mark.parametrize("scoring", ["none", "standard", "vegas"])
def test_scoring_lines(scoring: str) -> None:
    deal = make_deal(SCORING_TABLEAU, stock=["AC", "JC"])
    game = ReferenceKlondike(deal, draw=1, scoring=scoring)
    expected = {"none": 0, "standard": 0, "vegas": -52}[scoring]
    assert game.score == expected
    for move, std, vegas in SCORING_WALK:
        game.apply(move)
        expected += {"none": 0, "standard": std, "vegas": vegas}[scoring]
        assert game.score == expected, move
    # Draws and a redeal score nothing (vegas draw 1 has no redeal).
    while "draw" in game.legal_moves():
        game.apply("draw")
    if scoring != "vegas":
        game.apply("redeal")
    assert game.score == expected and not game.is_over


def test_standard_score_has_no_floor() -> None:
    game = ReferenceKlondike(make_deal(TABLEAU), scoring="standard")
    game.apply("t1>f1")  # +10
    game.apply("t7>f1")  # +10, +5 auto-turn: 25
    assert game.score == 25
    for _ in range(5):  # 2C down to 3H (-15) and back up (+10): -5 a round
        game.apply("f1>t6")
        game.apply("t6>f1")
    assert game.score == 0
    game.apply("f1>t6")
    assert game.score == -15


# ---------------------------------------------------------------------------
# End of game
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("draw", [1, 3])
def test_game_is_won_when_all_52_cards_are_on_foundations(draw: int) -> None:
    game = ReferenceKlondike(won_deal(), draw=draw, scoring="standard")
    play_greedy(game)
    assert game.is_over and game.outcome == "won"
    assert game.foundation_count() == 52
    # 52 cards to foundations at +10, 21 auto-turns at +5, 24 waste cards via w>f.
    assert game.score == 52 * 10 + 21 * 5


def test_vegas_win_scores_52_times_5_from_minus_52() -> None:
    game = ReferenceKlondike(won_deal(), draw=1, scoring="vegas")
    play_greedy(game)
    assert game.outcome == "won" and game.score == -52 + 52 * 5


def test_game_is_lost_when_no_legal_move_is_left() -> None:
    game = ReferenceKlondike(dead_deal(), draw=1, scoring="vegas")
    for step in range(24):
        assert game.legal_moves() == ["draw"], step
        assert not game.is_over
        game.apply("draw")
    assert game.legal_moves() == []
    assert game.is_over and game.outcome == "lost"
    with pytest.raises(ValueError):
        game.apply("draw")


@pytest.mark.parametrize("draw", [1, 3])
def test_a_whole_cycle_that_offered_only_stock_turns_loses_at_the_redeal(draw: int) -> None:
    deal = dead_deal()
    game = ReferenceKlondike(deal, draw=draw, scoring="standard")
    while "draw" in game.legal_moves():
        game.apply("draw")
    assert game.legal_moves() == ["redeal"]
    waste = game.zone("waste")
    game.apply("redeal")
    # The redeal is applied, then the game is over.
    assert game.zone("stock") == waste[::-1] and game.zone("waste") == []
    assert game.is_over and game.outcome == "lost"
    assert game.legal_moves() == []


def test_drawing_through_while_a_card_could_be_played_does_not_lose() -> None:
    game = ReferenceKlondike(make_deal(TABLEAU), draw=1, scoring="standard")
    for _ in range(3):  # t1>f1 offered all along, never played
        assert "t1>f1" in game.legal_moves()
        while "draw" in game.legal_moves():
            game.apply("draw")
        game.apply("redeal")
        assert not game.is_over
    game.apply("t1>f1")


def test_foundation_to_tableau_counts_as_a_play() -> None:
    game = ReferenceKlondike(make_deal(TABLEAU), draw=1, scoring="none")
    game.apply("t1>f1")
    game.apply("t7>f1")
    while "draw" in game.legal_moves():
        game.apply("draw")
    game.apply("redeal")
    game.apply("f1>t6")  # the only play of the second pass
    while "draw" in game.legal_moves():
        game.apply("draw")
    game.apply("redeal")
    assert not game.is_over


# ---------------------------------------------------------------------------
# Random play helper
# ---------------------------------------------------------------------------


def test_play_random_is_reproducible_and_bounded() -> None:
    first = play_random(11, 3, "vegas", max_moves=300)
    assert first == play_random(11, 3, "vegas", max_moves=300)
    assert 1 <= first[0] <= 300
    moves, score = play_random(11, 1, "none", max_moves=50, deal=won_deal())
    assert moves <= 50 and score == 0
