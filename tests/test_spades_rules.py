"""Spades, rule by rule (rulesets/spades.yaml): one or more tests per sentence of the rules its
header quotes, each from an explicit deal.

Deals list codes top of the deck first; the setup deals them one at a time round the table, so
the deal's card k goes to seat k % 4 (0-based). `hands_deal` builds a deal from four hands.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from typing import Any

import pytest

from cardrules import load_ruleset
from cardrules.agents.bots import make_bot
from helpers import pile, play, texts

RANKS = "A23456789TJQK"
FULL_DECK = {rank + suit for suit in "CDHS" for rank in RANKS}

# Mixed hands: seat 1 (0-based 0) holds the Ace of clubs and a few low cards of every suit, seat 4
# (3) the high hearts and most of the spades, one club and one diamond.
MIXED = (
    "AC 2C 3C 4C AD 2D 3D 4D AH 2H 3H 2S 3S",
    "5C 6C 7C 8C 5D 6D 7D 8D 4H 5H 6H 4S 5S",
    "9C TC JC QC 9D TD JD QD 7H 8H 9H 6S 7S",
    "KC KD TH JH QH KH AS 8S 9S TS JS QS KS",
)
# One suit a seat: seat 1 holds every spade and so takes every trick.
SUITED = tuple(" ".join(rank + suit for rank in RANKS) for suit in "SHDC")


@cache
def rules_for(target: int = 500) -> Any:
    return load_ruleset("spades", options={"target": target})


def hands_deal(hands: Sequence[str]) -> list[str]:
    """The deal that gives seat k the 13 cards of `hands[k]`."""
    split = [hand.split() for hand in hands]
    assert all(len(hand) == 13 for hand in split)
    assert {c for hand in split for c in hand} == FULL_DECK
    return [split[k % 4][k // 4] for k in range(52)]


def new_game(hands: Sequence[str] = MIXED, target: int = 500) -> Any:
    return rules_for(target).new_game(deal=hands_deal(hands))


def hand(game: Any, seat: int) -> set[str]:
    return set(pile(game, "hand", seat))


def bid_all(game: Any, *bids: int) -> None:
    """The four bids, in the order the seats bid."""
    for number in bids:
        play(game, f"bid {number}")


def card_played(game: Any) -> str:
    """The code of the card the last move played."""
    return game.rules.deck.codes[game.history[-1].pick]


def play_card(game: Any, code: str) -> None:
    seat = game.current_player
    play(game, f"h@{seat + 1}:{code}>x")


def playable(game: Any) -> set[str]:
    """The codes of the cards the seat to act may play."""
    return {text.split(":")[1].split(">")[0] for text in texts(game, "play")}


def var(game: Any, name: str, seat: int | None = None) -> Any:
    return game.variable(name, seat)


def play_out(game: Any) -> None:
    """Play the hand under way to its end, each seat playing its first legal card."""
    hands = var(game, "hands")
    while not game.is_over and var(game, "hands") == hands:
        game.apply(game.legal_moves()[0])


def set_points(game: Any, side: int, points: int) -> None:
    """A match under way: give a side (0: seats 1 and 3, 1: seats 2 and 4) a total."""
    slot = game.rules.variables["points"].slot
    for seat in (side, side + 2):
        game.state.vars[slot + seat] = points


# -- the deal and the bidding --------------------------------------------------------------------


def test_each_hand_the_dealer_deals_all_52_cards_13_each() -> None:
    game = rules_for().new_game(seed=3)
    hands = [hand(game, s) for s in range(4)]
    assert [len(h) for h in hands] == [13, 13, 13, 13]
    assert set().union(*hands) == FULL_DECK


def test_the_deal_gives_each_seat_its_hand_and_shows_it_to_that_seat_only() -> None:
    game = new_game()
    assert hand(game, 0) == set(MIXED[0].split())
    view = game.view(1)["zones"]["hand"]
    assert sorted(view[1]) == sorted(MIXED[1].split())
    assert all(card is None for seat in (0, 2, 3) for card in view[seat])


def test_bidding_starts_left_of_the_dealer_and_each_seat_bids_once_0_to_13() -> None:
    game = new_game()
    assert var(game, "dealer") == 3 and game.current_player == 0
    assert texts(game) == {f"bid {k}" for k in range(14)}
    for seat in range(4):
        assert game.current_player == seat
        play(game, f"bid {seat + 1}")
    assert [var(game, "bid", s) for s in range(4)] == [1, 2, 3, 4]
    assert texts(game, "bid") == set()


def test_no_card_is_played_before_every_seat_has_bid() -> None:
    game = new_game()
    bid_all(game, 3, 3, 3)
    assert texts(game, "play") == set()


def test_a_bid_of_zero_is_nil_and_adds_nothing_to_the_sides_contract() -> None:
    game = new_game()
    bid_all(game, 0, 2, 4, 1)
    assert var(game, "bid", 0) == 0


# -- the play -----------------------------------------------------------------------------------


def test_the_player_left_of_the_dealer_leads_the_first_trick() -> None:
    game = new_game()
    bid_all(game, 1, 1, 1, 1)
    assert game.current_player == 0 and texts(game, "play")


def test_spades_may_not_be_led_before_they_are_broken() -> None:
    game = new_game()
    bid_all(game, 1, 1, 1, 1)
    assert playable(game) == set(MIXED[0].split()) - {"2S", "3S"}


def test_a_leader_holding_nothing_but_spades_may_lead_a_spade_before_they_are_broken() -> None:
    game = new_game(SUITED)
    bid_all(game, 1, 1, 1, 1)
    assert not var(game, "broken")
    assert playable(game) == set(SUITED[0].split())


def test_each_player_must_follow_the_suit_led_if_able() -> None:
    game = new_game()
    bid_all(game, 1, 1, 1, 1)
    play_card(game, "AC")
    assert playable(game) == {"5C", "6C", "7C", "8C"}
    play_card(game, "5C")
    assert playable(game) == {"9C", "TC", "JC", "QC"}
    play_card(game, "9C")
    assert playable(game) == {"KC"}


def test_a_player_without_the_suit_led_may_play_any_card() -> None:
    game = new_game(SUITED)
    bid_all(game, 1, 1, 1, 1)
    play_card(game, "2S")
    assert playable(game) == set(SUITED[1].split())


def test_the_highest_card_of_the_suit_led_wins_with_ace_high_and_the_winner_leads() -> None:
    game = new_game()
    bid_all(game, 1, 1, 1, 1)
    for code in ("2C", "8C", "QC", "KC"):  # the King beats the Queen
        play_card(game, code)
    assert [var(game, "tricks", s) for s in range(4)] == [0, 0, 0, 1]
    assert game.current_player == 3 and var(game, "leader") == 3
    game = new_game()
    bid_all(game, 1, 1, 1, 1)
    for code in ("AC", "5C", "9C", "KC"):  # the Ace beats the King
        play_card(game, code)
    assert [var(game, "tricks", s) for s in range(4)] == [1, 0, 0, 0]
    assert game.current_player == 0


def test_a_card_of_another_suit_than_the_one_led_wins_nothing() -> None:
    game = new_game()
    bid_all(game, 1, 1, 1, 1)
    play(game, "h@1:AC>x", "h@2:5C>x", "h@3:9C>x", "h@4:KC>x")
    play(game, "h@1:AD>x", "h@2:5D>x", "h@3:9D>x", "h@4:KD>x")
    play(game, "h@1:2C>x", "h@2:6C>x", "h@3:TC>x", "h@4:KH>x")  # the King of hearts loses to the Ten
    assert [var(game, "tricks", s) for s in range(4)] == [2, 0, 1, 0]
    assert game.current_player == 2


def test_a_spade_led_wins_over_the_aces_of_the_other_suits() -> None:
    game = new_game(SUITED)
    bid_all(game, 1, 1, 1, 1)
    play(game, "h@1:2S>x", "h@2:AH>x", "h@3:AD>x", "h@4:AC>x")
    assert [var(game, "tricks", s) for s in range(4)] == [1, 0, 0, 0]


def test_a_spade_trumps_the_suit_led_and_breaks_spades() -> None:
    game = new_game()
    bid_all(game, 1, 1, 1, 1)
    play(game, "h@1:AC>x", "h@2:5C>x", "h@3:9C>x", "h@4:KC>x")
    play(game, "h@1:AD>x", "h@2:5D>x", "h@3:9D>x", "h@4:KD>x")
    play(game, "h@1:2C>x", "h@2:6C>x", "h@3:TC>x")
    assert not var(game, "broken")
    assert "AS" in playable(game) and "TH" in playable(game)  # no clubs left: any card
    play_card(game, "AS")
    assert var(game, "broken")
    assert [var(game, "tricks", s) for s in range(4)] == [2, 0, 0, 1]
    assert game.current_player == 3
    assert "KS" in playable(game)  # spades are broken: they may be led
    play_card(game, "KS")
    assert playable(game) == {"2S", "3S"}


def test_trumps_rank_among_themselves_ace_high_and_the_highest_spade_wins() -> None:
    game = new_game()
    bid_all(game, 1, 1, 1, 1)
    play(game, "h@1:AC>x", "h@2:5C>x", "h@3:9C>x", "h@4:KC>x")
    play(game, "h@1:AD>x", "h@2:5D>x", "h@3:9D>x", "h@4:KD>x")
    play(game, "h@1:2C>x", "h@2:6C>x", "h@3:TC>x", "h@4:8S>x")  # seat 4 trumps, and leads
    play(game, "h@4:TH>x", "h@1:AH>x", "h@2:4H>x", "h@3:7H>x")  # the Ace of hearts wins
    play(game, "h@1:3C>x", "h@2:7C>x", "h@3:JC>x", "h@4:9S>x")
    play(game, "h@4:JH>x", "h@1:2H>x", "h@2:5H>x", "h@3:8H>x")
    assert var(game, "leader") == 3
    play(game, "h@4:QS>x", "h@1:2S>x", "h@2:4S>x", "h@3:7S>x")
    assert var(game, "leader") == 3 and var(game, "tricks", 3) == 4


def test_the_cards_of_a_trick_go_to_its_winner_face_up_for_every_seat_to_see() -> None:
    game = new_game()
    bid_all(game, 1, 1, 1, 1)
    play(game, "h@1:AC>x", "h@2:5C>x", "h@3:9C>x", "h@4:KC>x")
    assert pile(game, "trick") == []
    assert pile(game, "taken", 0) == ["AC", "5C", "9C", "KC"]
    assert game.view(2)["zones"]["taken"][0] == ["AC", "5C", "9C", "KC"]


# -- the scoring ----------------------------------------------------------------------------------


def test_a_side_that_makes_its_contract_scores_10_a_trick_bid_and_1_a_bag() -> None:
    game = new_game(SUITED)
    bid_all(game, 3, 1, 2, 1)  # seat 1 takes all 13 tricks: its side bid 5
    play_out(game)
    assert var(game, "points", 0) == var(game, "points", 2) == 50 + 8
    assert var(game, "bags", 0) == 8


def test_a_side_that_takes_fewer_tricks_than_its_contract_loses_10_a_trick_bid() -> None:
    game = new_game(SUITED)
    bid_all(game, 3, 1, 2, 1)
    play_out(game)
    assert var(game, "points", 1) == var(game, "points", 3) == -20
    assert var(game, "bags", 1) == 0


def test_a_nil_bid_scores_100_when_its_bidder_takes_no_trick() -> None:
    game = new_game(SUITED)
    bid_all(game, 5, 0, 0, 2)  # seats 2 and 3 bid nil and take nothing
    play_out(game)
    assert var(game, "points", 0) == 50 + 8 + 100  # seat 3's nil counts for seat 1's side
    assert var(game, "points", 1) == -20 + 100


def test_a_nil_bid_loses_100_when_its_bidder_takes_a_trick_and_its_tricks_are_bags() -> None:
    game = new_game(SUITED, target=100)
    bid_all(game, 0, 4, 5, 1)  # seat 1 bids nil and takes all 13 tricks; seat 3's 5 are not made
    play_out(game)
    # -50 for the contract, -100 for the nil, and its 13 tricks are bags: 10 of them cost 100 more
    assert var(game, "points", 0) == -50 - 100 - 100
    assert var(game, "bags", 0) == 3


def test_every_10_bags_cost_a_side_100_points_and_10_bags() -> None:
    game = new_game(SUITED)
    bid_all(game, 1, 1, 1, 1)  # the side takes 13 tricks on a bid of 2: 11 bags
    play_out(game)
    assert var(game, "points", 0) == 20 + 11 - 100
    assert var(game, "bags", 0) == 1


def test_bags_gather_over_hands_until_they_reach_10() -> None:
    game = new_game(SUITED)
    slot = game.rules.variables["bags"].slot
    game.state.vars[slot] = game.state.vars[slot + 2] = 6  # six bags from earlier hands
    bid_all(game, 6, 1, 4, 1)  # the side bids 10 and takes 13: 3 more bags, 9 in all
    play_out(game)
    assert var(game, "bags", 0) == 9 and var(game, "points", 0) == 103


# -- the next hand and the match ----------------------------------------------------------------


def test_after_the_13th_trick_the_deal_passes_left_and_a_new_hand_is_dealt() -> None:
    game = new_game()
    bid_all(game, 1, 1, 1, 1)
    play_out(game)
    assert not game.is_over and var(game, "hands") == 2
    assert var(game, "dealer") == 0 and game.current_player == 1  # seat 2 bids and leads first now
    assert var(game, "bidding") and not var(game, "broken")
    assert [var(game, "bid", s) for s in range(4)] == [-1] * 4
    assert [var(game, "tricks", s) for s in range(4)] == [0] * 4
    hands = [hand(game, s) for s in range(4)]
    assert [len(h) for h in hands] == [13] * 4 and set().union(*hands) == FULL_DECK
    assert all(pile(game, "taken", s) == [] for s in range(4)) and pile(game, "stock") == []
    assert hands != [set(h.split()) for h in MIXED]  # the cards were shuffled


def test_the_new_hand_is_shuffled_from_the_game_seed_the_same_way_every_time() -> None:
    hands = []
    for _ in range(2):
        game = new_game()
        bid_all(game, 1, 1, 1, 1)
        play_out(game)
        hands.append([hand(game, s) for s in range(4)])
    assert hands[0] == hands[1]


def test_the_match_ends_when_a_side_reaches_the_target_and_the_higher_total_wins() -> None:
    game = new_game(SUITED, target=100)
    bid_all(game, 10, 1, 3, 1)  # seat 1's side takes 13 on 13
    play_out(game)
    assert game.is_over and game.reason == "a side reached the target"
    assert var(game, "points", 0) == 130
    assert game.winners() == [0, 2]


def test_the_match_goes_on_while_the_sides_totals_are_equal_past_the_target() -> None:
    for earlier, over in ((30, False), (20, True)):
        game = new_game(SUITED, target=100)
        set_points(game, 1, earlier)
        bid_all(game, 13, 0, 0, 0)  # 130 + 100 for seat 3's nil; the other side 200 for two nils
        play_out(game)
        assert var(game, "points", 0) == 230 and var(game, "points", 1) == 200 + earlier
        assert game.is_over == over
        if not over:
            assert var(game, "hands") == 2 and var(game, "bidding")


def test_a_side_that_falls_to_minus_200_loses_the_match_at_once() -> None:
    game = new_game(SUITED)
    bid_all(game, 0, 4, 5, 1)
    play_out(game)
    assert var(game, "points", 0) == -250
    assert game.is_over and game.reason == "a side fell to -200"
    assert game.winners() == [1, 3]


def test_partners_always_hold_the_same_total() -> None:
    game = new_game()
    bid_all(game, 2, 5, 1, 3)
    play_out(game)
    assert var(game, "points", 0) == var(game, "points", 2)
    assert var(game, "points", 1) == var(game, "points", 3)


@pytest.mark.parametrize("seat", range(4))
def test_a_seat_sees_its_own_hand_the_trick_and_the_tricks_taken_but_no_other_hand(seat: int) -> None:
    game = new_game()
    bid_all(game, 1, 1, 1, 1)
    play(game, "h@1:AC>x", "h@2:5C>x")
    view = game.view(seat)["zones"]
    assert view["trick"] == ["AC", "5C"]
    for other in range(4):
        shown = view["hand"][other]
        assert (None not in shown) if other == seat else shown == [None] * len(shown)


# -- bots ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("seat", range(4))
def test_a_bots_determinized_copy_keeps_what_its_seat_knows_and_deals_the_rest_anew(seat: int) -> None:
    game = new_game()
    bid_all(game, 1, 1, 1, 1)
    play(game, "h@1:AC>x", "h@2:5C>x", "h@3:9C>x", "h@4:KC>x", "h@1:AD>x", "h@2:5D>x")
    copy = game.determinize(seat, random.Random(seat))
    assert copy.view(seat) == game.view(seat)  # its hand, the trick, the tricks taken, the bids
    unseen = set().union(*(hand(game, s) for s in range(4) if s != seat))
    assert set().union(*(hand(copy, s) for s in range(4) if s != seat)) == unseen
    assert [len(hand(copy, s)) for s in range(4)] == [len(hand(game, s)) for s in range(4)]
    assert any(hand(copy, s) != hand(game, s) for s in range(4) if s != seat)


def test_search_bots_play_a_match_to_its_end() -> None:
    game = rules_for(100).new_game(seed=2)
    bots = {s: make_bot("ismcts" if s % 2 == 0 else "greedy", 10 + s, **({"iterations": 4, "depth": 8} if s % 2 == 0
                                                                          else {})) for s in range(4)}
    while not game.is_over:
        game.apply(bots[game.current_player].choose(game))
    assert game.outcome == "over" and game.winners() in ([0, 2], [1, 3])


def test_greedy_seats_bid_what_their_hands_can_take_and_never_a_nil_the_heuristic_does_not_value() -> None:
    """The ruleset's heuristic once scored +100 for a nil the moment it was bid, so greedy seats bid
    nil every time. Now a bid is valued by its distance from the tricks the hand can expect (aces,
    kings, spades past the third; at least 1), a nil by more: over 12 hands greedy sides bid within
    2 tricks, on average, of the tricks they take."""
    rules = load_ruleset("spades")
    nils, differences = 0, []
    for seed in range(12):
        game = rules.new_game(seed=seed)
        bots = [make_bot("greedy", 10 * seed + s) for s in range(4)]
        trick = rules.zones["trick"].piles[0]
        while True:
            bids = [game.variable("bid", s) for s in range(4)]
            taken = [game.variable("tricks", s) for s in range(4)]
            if min(bids) >= 0 and sum(taken) == 12 and len(game.state.piles[trick]) == 3:
                break  # the hand's last card is to be played: the last trick goes to one side or the other
            game.apply(bots[game.current_player].choose(game))
        nils += bids.count(0)
        differences += [abs(bids[side] + bids[side + 2] - taken[side] - taken[side + 2] - 0.5) for side in (0, 1)]
    assert nils == 0
    assert sum(differences) / len(differences) <= 2
