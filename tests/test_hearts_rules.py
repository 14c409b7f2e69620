"""Hearts, rule by rule (rulesets/hearts.yaml): one or more tests per sentence of the rules its
header quotes, each from an explicit deal, including what may NOT be done (a move the rules forbid
is not among the legal moves).

Deals list codes top of the deck first; the setup deals them one at a time round the table, so
the deal's card k goes to seat k % 4 (0-based). The first hand passes to the left, so `start`
deals the hands that, after each seat k has passed `gifts[k]` to seat k + 1, are the hands asked
for, and makes those four passes.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

import pytest

from cardrules import RulesetError, load_ruleset
from helpers import pile, play, texts

RANKS = "A23456789TJQK"
FULL_DECK = {rank + suit for suit in "CDHS" for rank in RANKS}

# After the pass. Seat 1 (0-based 0) holds the 2 of clubs; seat 4 (3) no club, the high hearts and
# spades, the queen among them; seat 3 (2) the Ace of clubs.
MIXED = (
    "2C 3C 4C 5C 2D 3D 4D 5D 2H 3H 4H 2S 3S",
    "6C 7C 8C 9C 6D 7D 8D 9D 5H 6H 7H 4S 5S",
    "TC JC QC KC AC TD JD QD KD 8H 9H 6S 7S",
    "AD TH JH QH KH AH 8S 9S TS JS QS KS AS",
)
MIXED_GIFTS = ("6D 7D 8D", "TD JD QD", "8S 9S TS", "2D 3D 4D")  # each in the next seat's hand above
# Seat 3 (2) holds the Ace of clubs and twelve hearts; seat 4 (3) no club, the Ace of hearts and
# every spade but the two.
HEARTS_LEFT = (
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC 2S",
    "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    "AC 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
    "AH 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
)
HEARTS_LEFT_GIFTS = ("2D 3D 4D", "AC 2H 3H", "3S 4S 5S", "2C 3C 4C")
# Seat 1 holds every club and takes every trick; seat 4 (3) holds the queen of spades and twelve
# hearts, nothing else.
MOON = (
    "AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC",
    "AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
    "AH AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS KS",
    "QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
)
MOON_GIFTS = ("2D 3D 4D", "AH AS 2S", "QS 2H 3H", "2C 3C 4C")


@cache
def rules_for(target: int = 100) -> Any:
    return load_ruleset("hearts", options={"target": target})


def hands_deal(hands: Sequence[str]) -> list[str]:
    """The deal that gives seat k the 13 cards of `hands[k]`."""
    split = [hand.split() for hand in hands]
    assert all(len(hand) == 13 for hand in split)
    assert {c for hand in split for c in hand} == FULL_DECK
    return [split[k % 4][k // 4] for k in range(52)]


def before_pass(hands: Sequence[str], gifts: Sequence[str]) -> list[str]:
    """The hands dealt, when seat k passes `gifts[k]` to the left and is to end with `hands[k]`."""
    dealt = []
    for k in range(4):
        mine, given, received = set(hands[k].split()), set(gifts[k].split()), set(gifts[k - 1].split())
        assert given <= set(hands[(k + 1) % 4].split()) and received <= mine
        dealt.append(" ".join(sorted(mine - received | given)))
    return dealt


def hand(game: Any, seat: int) -> set[str]:
    return set(pile(game, "hand", seat))


def pass_move(game: Any, cards: str) -> Any:
    """The legal move by which the seat to act passes these three cards."""
    wanted = set(cards.split())
    return next(m for m in game.legal_moves() if m.name == "pass" and set(moved(m)) == wanted)


def moved(move: Any) -> list[str]:
    """The codes a move names (`h@1:2C,3D,4H>p@1`, `h@1:2C>x`)."""
    return str(move).split(":")[1].split(">")[0].split(",")


def make_passes(game: Any, gifts: Sequence[str]) -> None:
    for cards in gifts:
        game.apply(pass_move(game, cards))


def new_game(hands: Sequence[str], gifts: Sequence[str], target: int = 100) -> Any:
    """The hands dealt so that `gifts` passed to the left give `hands`; before the pass."""
    return rules_for(target).new_game(deal=hands_deal(before_pass(hands, gifts)))


def start(hands: Sequence[str] = MIXED, gifts: Sequence[str] = MIXED_GIFTS, target: int = 100) -> Any:
    """A game at the first lead, with `hands` held after the pass."""
    game = new_game(hands, gifts, target)
    make_passes(game, gifts)
    assert [hand(game, s) for s in range(4)] == [set(h.split()) for h in hands]
    return game


def play_card(game: Any, code: str) -> None:
    play(game, f"h@{game.current_player + 1}:{code}>x")


def playable(game: Any) -> set[str]:
    """The codes of the cards the seat to act may play."""
    return {moved(m)[0] for m in game.legal_moves() if m.name == "play"}


def var(game: Any, name: str, seat: int | None = None) -> Any:
    return game.variable(name, seat)


def points(game: Any) -> list[int]:
    return [var(game, "points", s) for s in range(4)]


def set_points(game: Any, totals: Sequence[int]) -> None:
    """A match under way: the seats' totals from earlier hands."""
    slot = game.rules.variables["points"].slot
    for seat, total in enumerate(totals):
        game.state.vars[slot + seat] = total


def play_out(game: Any) -> None:
    """Play the hand under way to its end, each seat passing or playing its first legal move."""
    hands = var(game, "hands")
    while not game.is_over and var(game, "hands") == hands:
        game.apply(game.legal_moves()[0])


def penalty(codes: Sequence[str]) -> int:
    """The rules' points of cards taken, counted here: a heart 1, the queen of spades 13."""
    return sum(1 for c in codes if c[1] == "H") + sum(13 for c in codes if c == "QS")


# -- the deal -------------------------------------------------------------------------------------


def test_four_players_without_partnerships_and_the_52_card_deck_dealt_13_each() -> None:
    rules = rules_for()
    assert rules.teams(4) == []  # each for themselves (Spades has two sides here)
    game = rules.new_game(seed=3)
    assert game.players == 4
    hands = [hand(game, s) for s in range(4)]
    assert [len(h) for h in hands] == [13, 13, 13, 13] and set().union(*hands) == FULL_DECK


def test_each_seat_sees_its_own_hand_and_no_other() -> None:
    game = new_game(MIXED, MIXED_GIFTS)
    for seat in range(4):
        view = game.view(seat)["zones"]["hand"]
        for other in range(4):
            assert (None not in view[other]) if other == seat else view[other] == [None] * 13


# -- the pass -------------------------------------------------------------------------------------


def test_before_the_play_each_seat_passes_three_cards_of_its_hand_in_one_move() -> None:
    game = new_game(MIXED, MIXED_GIFTS)
    dealt = before_pass(MIXED, MIXED_GIFTS)
    for seat in range(4):
        assert game.current_player == seat
        moves = game.legal_moves()
        assert {m.name for m in moves} == {"pass"}  # no card is played while the seats pass
        assert len(moves) == 286  # each set of 3 of its 13 cards (13 * 12 * 11 / 6), once
        assert {frozenset(moved(m)) for m in moves} == {
            frozenset((a, b, c)) for i, a in enumerate(dealt[seat].split()) for j, b in enumerate(dealt[seat].split())
            for c in dealt[seat].split()[j + 1:] if i < j}
        game.apply(pass_move(game, MIXED_GIFTS[seat]))


def test_the_passed_cards_join_the_hands_only_when_all_four_have_passed() -> None:
    game = new_game(MIXED, MIXED_GIFTS)
    dealt = before_pass(MIXED, MIXED_GIFTS)
    for seat in range(3):
        game.apply(pass_move(game, MIXED_GIFTS[seat]))
    assert [len(hand(game, s)) for s in range(4)] == [10, 10, 10, 13]
    assert [set(pile(game, "passed", s)) for s in range(4)] == [set(g.split()) for g in MIXED_GIFTS[:3]] + [set()]
    assert hand(game, 1) == set(dealt[1].split()) - set(MIXED_GIFTS[1].split())  # seat 1's gift is not there yet
    game.apply(pass_move(game, MIXED_GIFTS[3]))
    assert [hand(game, s) for s in range(4)] == [set(h.split()) for h in MIXED]
    assert all(pile(game, "passed", s) == [] for s in range(4))


def test_a_seat_does_not_see_the_cards_passed_to_it_before_it_has_passed_its_own() -> None:
    game = new_game(MIXED, MIXED_GIFTS)
    dealt = before_pass(MIXED, MIXED_GIFTS)
    for seat in range(4):
        view = game.view(seat)
        for other in range(4):
            shown = view["zones"]["passed"][other]
            assert (None not in shown) if other == seat else shown == [None] * len(shown)
        assert sorted(view["zones"]["hand"][seat]) == sorted(dealt[seat].split())  # nothing received yet
        if seat > 0:  # what the seat on its right passed to it: three cards it does not know
            assert game.record(seat)[seat - 1] == f"h@{seat}:?,?,?>p@{seat}"
            assert len(pile(game, "passed", seat - 1)) == 3
        game.apply(pass_move(game, MIXED_GIFTS[seat]))
    for seat in range(4):  # now each sees the cards passed to it, in its hand
        assert set(MIXED_GIFTS[seat - 1].split()) <= set(game.view(seat)["zones"]["hand"][seat])


def test_the_passer_still_knows_the_cards_it_passed_and_no_other_seat_learns_them() -> None:
    game = start()
    gift = set(MIXED_GIFTS[0].split())  # seat 1's, to seat 2
    assert gift <= set(game.view(0)["zones"]["hand"][1]) - {None}
    assert set(game.view(0)["zones"]["hand"][1]) - {None} == gift
    for seat in (2, 3):
        assert set(game.view(seat)["zones"]["hand"][1]) == {None}


def test_the_passes_go_left_right_across_then_none_and_round_again() -> None:
    game = start(target=1000)
    assert var(game, "hands") == 1  # the first hand passed to the left: `start` checks the hands
    for number, shift in ((2, 3), (3, 2), (4, 0), (5, 1), (6, 3)):
        play_out(game)
        assert var(game, "hands") == number and not game.is_over
        if shift == 0:  # no passing: the holder of the 2 of clubs leads at once
            assert not var(game, "passing") and texts(game, "pass") == set()
            holder = next(s for s in range(4) if "2C" in hand(game, s))
            assert game.current_player == holder and playable(game) == {"2C"}
            continue
        assert var(game, "passing") and game.current_player == 0 and texts(game, "play") == set()
        before = [hand(game, s) for s in range(4)]
        gifts = []
        for seat in range(4):
            move = game.legal_moves()[0]
            gifts.append(set(moved(move)))
            game.apply(move)
        for seat in range(4):
            receiver = (seat + shift) % 4
            assert hand(game, receiver) == before[receiver] - gifts[receiver] | gifts[seat]


# -- the play -------------------------------------------------------------------------------------


def test_the_holder_of_the_two_of_clubs_after_the_pass_leads_it() -> None:
    game = start()
    assert game.current_player == 0 and playable(game) == {"2C"}
    # Seat 2 passes the 2 of clubs to seat 3, who then leads it.
    hands = ("3C 4C 5C 6C 2D 3D 4D 5D 2H 3H 4H 2S 3S", "2C 7C 8C 9C 6D 7D 8D 9D 5H 6H 7H 4S 5S") + MIXED[2:]
    game = new_game(hands, ("2C 6D 7D", "TD JD QD", "8S 9S TS", "2D 3D 4D"))
    assert "2C" in hand(game, 0)
    make_passes(game, ("2C 6D 7D", "TD JD QD", "8S 9S TS", "2D 3D 4D"))
    assert game.current_player == 1 and var(game, "leader") == 1 and playable(game) == {"2C"}


def test_each_player_must_follow_the_suit_led_if_able() -> None:
    game = start()
    play_card(game, "2C")
    assert playable(game) == {"6C", "7C", "8C", "9C"}
    play_card(game, "9C")
    assert playable(game) == {"TC", "JC", "QC", "KC", "AC"}


def test_on_the_first_trick_a_seat_without_the_suit_led_plays_no_heart_and_not_the_queen() -> None:
    game = start()
    play(game, "h@1:2C>x", "h@2:9C>x", "h@3:AC>x")
    assert playable(game) == {"AD", "8S", "9S", "TS", "JS", "KS", "AS"}  # not TH-AH, not QS
    game = start(HEARTS_LEFT, HEARTS_LEFT_GIFTS)
    play_card(game, "2C")
    assert playable(game) == set(HEARTS_LEFT[1].split())  # diamonds alone: any of them
    play(game, "h@2:5D>x", "h@3:AC>x")
    assert playable(game) == set(HEARTS_LEFT[3].split()) - {"AH", "QS"}


def test_on_the_first_trick_a_hand_of_hearts_and_the_queen_alone_may_play_any_of_them() -> None:
    game = start(MOON, MOON_GIFTS)
    play(game, "h@1:2C>x", "h@2:2D>x")
    assert playable(game) == set(MOON[2].split()) - {"AH"}  # spades: no heart
    play_card(game, "2S")
    assert playable(game) == set(MOON[3].split())  # nothing but points: the queen or any heart


def test_after_the_first_trick_a_seat_without_the_suit_led_may_play_any_card() -> None:
    game = start()
    play(game, "h@1:2C>x", "h@2:9C>x", "h@3:AC>x", "h@4:AD>x")
    assert game.current_player == 2
    play_card(game, "TC")
    assert playable(game) == set(MIXED[3].split()) - {"AD"}  # hearts and the queen of spades too


def test_hearts_may_not_be_led_before_a_heart_has_been_played() -> None:
    game = start()
    play(game, "h@1:2C>x", "h@2:9C>x", "h@3:AC>x", "h@4:AD>x")
    assert not var(game, "broken")
    assert playable(game) == set(MIXED[2].split()) - {"AC", "8H", "9H"}


def test_a_heart_played_on_a_trick_breaks_hearts_for_the_next_lead() -> None:
    game = start()
    play(game, "h@1:2C>x", "h@2:9C>x", "h@3:AC>x", "h@4:AD>x")
    play(game, "h@3:TC>x", "h@4:TH>x")  # seat 4 has no club: a heart
    assert var(game, "broken")
    play(game, "h@1:3C>x", "h@2:6C>x")
    assert game.current_player == 2  # the Ten of clubs won: the Ten of hearts, another suit, did not
    assert {"8H", "9H"} <= playable(game)


def test_the_queen_of_spades_does_not_break_hearts() -> None:
    game = start()
    play(game, "h@1:2C>x", "h@2:9C>x", "h@3:AC>x", "h@4:AD>x")
    play(game, "h@3:TC>x", "h@4:QS>x", "h@1:3C>x", "h@2:6C>x")
    assert game.current_player == 2 and not var(game, "broken")
    assert not {"8H", "9H"} & playable(game)


def test_a_leader_holding_only_hearts_may_lead_one_before_they_are_broken() -> None:
    game = start(HEARTS_LEFT, HEARTS_LEFT_GIFTS)
    play(game, "h@1:2C>x", "h@2:5D>x", "h@3:AC>x", "h@4:3S>x")
    assert game.current_player == 2 and not var(game, "broken")
    assert playable(game) == set(HEARTS_LEFT[2].split()) - {"AC"}


def test_the_highest_card_of_the_suit_led_wins_ace_high_and_the_winner_leads() -> None:
    game = start()
    play(game, "h@1:2C>x", "h@2:9C>x", "h@3:AC>x", "h@4:AD>x")  # the Ace of diamonds is no club
    assert pile(game, "taken", 2) == ["2C", "9C", "AC", "AD"] and pile(game, "trick") == []
    assert game.current_player == 2 and var(game, "leader") == 2
    game = start()
    play(game, "h@1:2C>x", "h@2:9C>x", "h@3:KC>x", "h@4:AD>x")  # the King beats the Nine
    assert game.current_player == 2 and len(pile(game, "taken", 2)) == 4
    play(game, "h@3:AC>x", "h@4:8S>x", "h@1:5C>x", "h@2:6C>x")  # and the Ace the Six
    assert game.current_player == 2 and len(pile(game, "taken", 2)) == 8
    play(game, "h@3:6S>x", "h@4:AS>x", "h@1:2S>x", "h@2:5S>x")
    assert game.current_player == 3 and pile(game, "taken", 3) == ["6S", "AS", "2S", "5S"]


def test_the_cards_of_a_trick_go_face_up_to_its_winner_for_every_seat_to_see() -> None:
    game = start()
    play(game, "h@1:2C>x", "h@2:9C>x", "h@3:AC>x", "h@4:AD>x")
    for seat in range(4):
        assert game.view(seat)["zones"]["taken"][2] == ["2C", "9C", "AC", "AD"]


# -- the scoring ----------------------------------------------------------------------------------


def test_each_heart_taken_counts_one_point_and_the_queen_of_spades_thirteen() -> None:
    game = start(target=1)  # the match ends with the hand: the tricks stay where they were taken
    play(game, "h@1:2C>x", "h@2:9C>x", "h@3:AC>x", "h@4:AD>x")
    play(game, "h@3:TC>x", "h@4:QS>x", "h@1:3C>x", "h@2:6C>x")  # seat 3 takes the queen
    play_out(game)
    assert game.is_over
    taken = [pile(game, "taken", s) for s in range(4)]
    assert points(game) == [penalty(t) for t in taken]
    assert sum(points(game)) == 26 and points(game)[2] >= 13


def test_a_seat_that_takes_every_heart_and_the_queen_shoots_the_moon_scoring_0_and_the_others_26() -> None:
    game = start(MOON, MOON_GIFTS)
    play_out(game)
    assert points(game) == [0, 26, 26, 26]
    assert var(game, "hands") == 2 and not game.is_over


def test_taking_every_heart_but_not_the_queen_is_no_moon() -> None:
    # Seat 2 (0-based 1) takes the first trick with the Ace of clubs, and with it the queen of
    # spades; seat 1 wins the diamond it leads next with the Ace, then every trick with its spades,
    # and every heart with them.
    hands = ("2C AD AS KS JS TS 9S 8S 7S 6S 5S 4S 3S", "AC 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
             "3C 4C 5C 6C 7C 8C 9C TC JC QC KC 2S AH", "QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH")
    game = start(hands, ("2D 3D 4D", "3C 4C 5C", "2H 3H 4H", "3S 4S 5S"), target=1)
    play(game, "h@1:2C>x", "h@2:AC>x", "h@3:3C>x", "h@4:QS>x")  # seat 4: nothing but points
    assert game.current_player == 1
    play_out(game)
    assert {c for c in pile(game, "taken", 0) if c[1] == "H"} == {c for c in FULL_DECK if c[1] == "H"}
    assert points(game) == [13, 13, 0, 0]


# -- the match ----------------------------------------------------------------------------------


def test_the_target_is_an_option_from_1_to_1000_by_default_100() -> None:
    assert load_ruleset("hearts").option_values["target"] == 100
    assert rules_for(50).option_values["target"] == 50
    for wrong in (0, 1001):
        with pytest.raises(RulesetError, match="target"):
            load_ruleset("hearts", options={"target": wrong})


def test_the_match_goes_on_while_every_total_is_below_the_target() -> None:
    game = start(MOON, MOON_GIFTS)
    set_points(game, [70, 73, 73, 73])
    play_out(game)
    assert points(game) == [70, 99, 99, 99] and not game.is_over
    assert var(game, "hands") == 2 and var(game, "passing") and game.current_player == 0
    hands = [hand(game, s) for s in range(4)]
    assert [len(h) for h in hands] == [13] * 4 and set().union(*hands) == FULL_DECK
    assert hands != [set(h.split()) for h in MOON]  # shuffled and dealt anew
    assert all(pile(game, "taken", s) == [] for s in range(4)) and not var(game, "broken")


def test_the_match_ends_after_a_hand_that_brings_a_total_to_the_target_and_the_lowest_wins() -> None:
    game = start(MOON, MOON_GIFTS)
    set_points(game, [95, 80, 60, 74])
    play_out(game)
    assert game.is_over and game.outcome == "over" and game.reason == "a seat reached the target"
    assert points(game) == [95, 106, 86, 100]
    assert game.winners() == [2]  # 86: the lowest; seat 1's 95 does not win


def test_a_total_exactly_at_the_target_ends_the_match() -> None:
    game = start(MOON, MOON_GIFTS, target=50)
    set_points(game, [40, 24, 0, 10])
    play_out(game)
    assert points(game) == [40, 50, 26, 36] and game.is_over and game.winners() == [2]


def test_equal_lowest_totals_share_the_win() -> None:
    game = start(MOON, MOON_GIFTS)
    set_points(game, [50, 10, 10, 80])
    play_out(game)
    assert points(game) == [50, 36, 36, 106]
    assert game.winners() == [1, 2]
    assert game.scores() == [50, 36, 36, 106]
