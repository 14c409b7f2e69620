"""Euchre, rule by rule (rulesets/euchre.yaml): one or more tests per sentence of the rules its
header gives and per reading it chose, each from an explicit deal.

Deals list codes top of the deck first; the setup deals them one at a time round the table, so
the deal's card k (k < 20) goes to seat k % 4 (0-based), card 20 is turned up and the last three
stay in the pack. `deal` builds a deal from four hands and the turned card. The first dealer is
seat 4 (0-based 3), so seat 1 (0) speaks and leads first. Move texts: `call hearts`,
`alone hearts`, `pass`, `h@4:KC>pack` (the dealer discards), `h@1:TD>trick` (seat 1 plays).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from typing import Any

import pytest

from cardrules import IllegalMoveError, RulesetError, load_ruleset
from cardrules.agents.bots import make_bot
from cardrules.python import render
from helpers import pile, play, texts

FULL_DECK = {rank + suit for suit in "CDHS" for rank in "9TJQKA"}
OTHER_SUITS = ("clubs", "diamonds", "spades")  # with hearts turned up

# Hearts turned up; both red jacks are split between seats 1 and 2, the dealer (seat 4) holds
# the diamonds' top and the ten of clubs.
MIXED = ("JH AH KS 9C TD", "JD QD AS QS TS", "JS JC 9H AC 9D", "AD KD TC QH KC")
# Seat 1 holds the five highest hearts, so with hearts trump it takes every trick it plays to.
STRONG = ("JH JD AH KH QH", "AC KC QC JC TC", "AS KS QS JS TS", "AD KD QD TD 9D")
# Seat 1 holds the three highest hearts, the Ace of clubs and the nine of spades.
FOUR = ("JH JD AH AC 9S", "KC QC AS KS QS", "9D TD QD KD AD", "KH QH TH JC TC")
# Clubs spread round the table, for the order of a plain suit.
PLAIN = ("9C KC 9S AH JH", "JC AC TS KH QH", "QC 9D TD JS QS", "TC AD KD QD AS")


@cache
def rules_for(target: int = 10, stick: bool = False) -> Any:
    return load_ruleset("euchre", options={"target": target, "stick": stick})


def deal(hands: Sequence[str], up: str) -> list[str]:
    """The deal that gives seat k the 5 cards of `hands[k]` and turns up `up`; the three cards
    left stay in the pack."""
    split = [hand.split() for hand in hands]
    held = {c for hand in split for c in hand}
    assert all(len(hand) == 5 for hand in split) and len(held) == 20 and up not in held
    return [split[k % 4][k // 4] for k in range(20)] + [up] + sorted(FULL_DECK - held - {up})


def new_game(hands: Sequence[str] = MIXED, up: str = "KH", **options: Any) -> Any:
    return rules_for(**options).new_game(deal=deal(hands, up))


def var(game: Any, name: str, seat: int | None = None) -> Any:
    return game.variable(name, seat)


def hand(game: Any, seat: int) -> set[str]:
    return set(pile(game, "hand", seat))


def playable(game: Any) -> set[str]:
    """The codes of the cards the seat to act may play."""
    return {text.split(":")[1].split(">")[0] for text in texts(game, "play")}


def play_cards(game: Any, *codes: str) -> None:
    """Each code played in turn by the seat to act."""
    for code in codes:
        play(game, f"h@{game.current_player + 1}:{code}>trick")


def discard(game: Any, code: str) -> None:
    play(game, f"h@{var(game, 'dealer') + 1}:{code}>pack")


def passes(game: Any, count: int) -> None:
    for _ in range(count):
        play(game, "pass")


def points(game: Any) -> list[int]:
    return [var(game, "score", s) for s in range(4)]


def set_points(game: Any, side: int, value: int) -> None:
    """A match under way: give a side (0: seats 1 and 3, 1: seats 2 and 4) a total."""
    slot = game.rules.variables["score"].slot
    for seat in (side, side + 2):
        game.state.vars[slot + seat] = value


def play_out(game: Any) -> list[int]:
    """Play the hand under way to its end, each seat playing its first legal card; the seats that
    acted, in order."""
    dealer, actors = var(game, "dealer"), []
    while not game.is_over and var(game, "dealer") == dealer:
        actors.append(game.current_player)
        game.apply(game.legal_moves()[0])
    return actors


def drawn(game: Any, seat: int) -> list[str]:
    """The seat's hand as it is drawn to that seat."""
    rules = game.rules
    cards = render.drawn_cards(game, "hand", rules.zones["hand"].seat_piles[seat][0], seat)
    return [rules.deck.codes[c] for c in cards]


def hearts_ordered_up(hands: Sequence[str] = MIXED, up: str = "KH", dropped: str = "KC", **options: Any) -> Any:
    """Seat 1 orders up the turned heart and the dealer discards `dropped`: seat 1 leads."""
    game = new_game(hands, up, **options)
    play(game, "call hearts")
    discard(game, dropped)
    return game


# -- the players, the pack, the deal ----------------------------------------------------------


def test_four_players_in_two_partnerships_seats_1_and_3_against_2_and_4() -> None:
    rules = rules_for()
    assert rules.min_players == rules.max_players == 4
    assert rules.teams(4) == [("North-South", (0, 2)), ("East-West", (1, 3))]


def test_the_pack_is_the_24_cards_nine_to_ace_of_each_suit() -> None:
    assert sorted(rules_for().deck.codes) == sorted(FULL_DECK)


def test_five_cards_each_are_dealt_and_the_next_card_is_turned_up() -> None:
    game = rules_for().new_game(seed=5)
    hands = [hand(game, s) for s in range(4)]
    assert [len(h) for h in hands] == [5] * 4
    up, pack = pile(game, "up"), pile(game, "pack")
    assert len(up) == 1 and len(pack) == 3 and game.state.up[game.state.piles[game.rules.zones["up"].piles[0]][0]]
    assert set().union(*hands) | set(up) | set(pack) == FULL_DECK
    game = new_game()
    assert [hand(game, s) for s in range(4)] == [set(h.split()) for h in MIXED] and pile(game, "up") == ["KH"]


@pytest.mark.parametrize("seat", range(4))
def test_a_seat_sees_its_own_hand_and_the_turned_card_but_no_other_hand_nor_the_pack(seat: int) -> None:
    view = new_game().view(seat)["zones"]
    for other, shown in enumerate(view["hand"]):
        assert sorted(shown) == sorted(MIXED[seat].split()) if other == seat else shown == [None] * 5
    assert view["up"] == ["KH"] and view["pack"] == [None] * 3


# -- making trump: round 1 --------------------------------------------------------------------


def test_round_1_goes_round_from_the_dealers_left_each_seat_ordering_up_the_turned_suit_or_passing() -> None:
    game = new_game()
    assert var(game, "dealer") == 3
    for seat in (0, 1, 2, 3):
        assert game.current_player == seat
        assert texts(game) == {"pass", "call hearts", "alone hearts"}  # the turned card's suit only
        if seat < 3:
            play(game, "pass")
    with pytest.raises(IllegalMoveError):
        game.parse_move("call spades")


def test_no_card_is_played_nor_discarded_before_trump_is_made() -> None:
    game = new_game()
    for _ in range(7):
        assert texts(game, "play") == set() and texts(game, "discard") == set()
        play(game, "pass")


def test_ordering_up_makes_the_turned_suit_trump_and_the_dealer_takes_the_turned_card() -> None:
    game = new_game()
    play(game, "pass", "call hearts")  # seat 2 orders it up
    assert var(game, "trump") == "hearts" and var(game, "maker") == 1
    assert pile(game, "up") == [] and hand(game, 3) == set(MIXED[3].split()) | {"KH"}
    assert game.current_player == 3  # the dealer discards before anyone plays
    assert texts(game) == {f"h@4:{c}>pack" for c in MIXED[3].split() + ["KH"]}  # the turned card too


def test_the_dealer_discards_one_card_face_down_seen_by_nobody_else() -> None:
    game = new_game()
    play(game, "call hearts")
    discard(game, "KH")  # the card just taken up may go as well
    assert len(hand(game, 3)) == 5 and "KH" not in hand(game, 3) and pile(game, "pack")[-1] == "KH"
    assert texts(game, "discard") == set()
    for seat in (0, 1, 2):
        view = game.view(seat)
        assert view["zones"]["pack"] == [None] * 4 and view["zones"]["hand"][3] == [None] * 5
        assert game.record(seat)[-1] == "h@4:?>pack"
    assert game.record(3)[-1] == "h@4:KH>pack"


def test_the_dealer_may_order_up_the_turned_card_itself() -> None:
    game = new_game()
    passes(game, 3)
    play(game, "call hearts")
    assert var(game, "maker") == 3 and len(hand(game, 3)) == 6 and game.current_player == 3


# -- making trump: round 2 --------------------------------------------------------------------


def test_when_all_pass_the_card_is_turned_down_and_round_2_names_any_other_suit() -> None:
    game = new_game()
    passes(game, 4)
    assert pile(game, "up") == [] and pile(game, "pack")[-1] == "KH" and len(hand(game, 3)) == 5
    assert game.current_player == 0  # from the dealer's left again
    offered = {"pass"} | {f"{how} {suit}" for how in ("call", "alone") for suit in OTHER_SUITS}
    for seat in (0, 1, 2, 3):
        assert game.current_player == seat and texts(game) == offered
        if seat < 3:
            play(game, "pass")


def test_naming_the_turned_down_suit_in_round_2_is_not_offered() -> None:
    game = new_game()
    passes(game, 5)
    for text in ("call hearts", "alone hearts"):
        with pytest.raises(IllegalMoveError):
            game.parse_move(text)


def test_a_suit_named_in_round_2_is_trump_and_nobody_takes_a_card_or_discards() -> None:
    game = new_game()
    passes(game, 5)
    play(game, "call spades")  # seat 2
    assert var(game, "trump") == "spades" and var(game, "maker") == 1
    assert [len(hand(game, s)) for s in range(4)] == [5] * 4
    assert game.current_player == 0 and texts(game, "discard") == set() and len(texts(game, "play")) == 5


def test_without_stick_the_dealer_all_passing_again_throws_the_hand_in_and_the_deal_passes_left() -> None:
    game = new_game()
    passes(game, 7)
    assert "pass" in texts(game)  # the dealer may pass in round 2
    play(game, "pass")
    assert not game.is_over and points(game) == [0] * 4
    assert var(game, "dealer") == 0 and game.current_player == 1 and var(game, "round") == 1
    hands = [hand(game, s) for s in range(4)]
    assert [len(h) for h in hands] == [5] * 4 and len(pile(game, "pack")) == 3 and len(pile(game, "up")) == 1
    assert set().union(*hands) | set(pile(game, "up")) | set(pile(game, "pack")) == FULL_DECK
    assert hands != [set(h.split()) for h in MIXED]  # dealt anew


def test_stick_the_dealer_forbids_only_the_dealers_pass_in_round_2() -> None:
    game = new_game(stick=True)
    passes(game, 7)  # the dealer passed in round 1, the others in round 2
    assert game.current_player == 3
    assert texts(game) == {f"{how} {suit}" for how in ("call", "alone") for suit in OTHER_SUITS}
    with pytest.raises(IllegalMoveError):
        game.parse_move("pass")
    play(game, "call clubs")
    assert var(game, "trump") == "clubs" and var(game, "maker") == 3


# -- going alone ------------------------------------------------------------------------------


def test_a_lone_makers_partner_sits_out_the_hand_and_has_no_move() -> None:
    game = new_game()
    play(game, "alone hearts")
    assert var(game, "out") == 2
    discard(game, "KC")
    for _ in range(3):  # each trick has three cards: seat 3 is passed over
        assert len(hand(game, 2)) == 5 and texts(game, "play")
        assert game.current_player != 2 and len(pile(game, "trick")) < 3
        game.apply(game.legal_moves()[0])
    assert pile(game, "trick") == [] and len(hand(game, 2)) == 5
    actors = play_out(game)
    assert 2 not in actors and len(actors) == 12  # four more tricks of three cards
    assert var(game, "dealer") == 0 and points(game)[0] + points(game)[1] > 0  # the hand was scored


def test_with_a_lone_hand_the_first_lead_is_the_next_seat_left_of_the_dealer_that_plays() -> None:
    game = new_game()
    passes(game, 2)
    play(game, "alone hearts")  # seat 3 alone: seat 1, left of the dealer, sits out
    assert var(game, "out") == 0
    discard(game, "KC")
    assert game.current_player == 1


def test_when_the_dealers_partner_orders_up_alone_the_dealer_sits_out_and_takes_no_card() -> None:
    game = new_game()
    passes(game, 1)
    play(game, "alone hearts")  # seat 2, partner of the dealer
    assert var(game, "out") == 3
    assert hand(game, 3) == set(MIXED[3].split()) and pile(game, "pack")[-1] == "KH"
    assert game.current_player == 0 and texts(game, "discard") == set()
    assert 3 not in play_out(game)


def test_a_lone_dealer_takes_the_turned_card_and_discards() -> None:
    game = new_game()
    passes(game, 3)
    play(game, "alone hearts")
    assert var(game, "out") == 1 and game.current_player == 3 and len(hand(game, 3)) == 6
    discard(game, "KC")
    assert game.current_player == 0
    assert 1 not in play_out(game)


# -- the play ---------------------------------------------------------------------------------


def test_the_seat_left_of_the_dealer_leads_the_first_trick_any_card() -> None:
    game = hearts_ordered_up()
    assert game.current_player == 0 and playable(game) == set(MIXED[0].split())


def test_each_player_must_follow_the_suit_led_if_able_and_may_play_any_card_if_not() -> None:
    game = hearts_ordered_up()
    play_cards(game, "9C")
    assert playable(game) == hand(game, 1) == {"JD", "QD", "AS", "QS", "TS"}  # no club: any card
    play_cards(game, "QS")
    assert playable(game) == {"JC", "AC"}  # a club must follow; not the nine of hearts (a trump)
    for code in ("9H", "JS", "9D"):
        with pytest.raises(IllegalMoveError):
            play_cards(game, code)
    play_cards(game, "AC")
    assert playable(game) == {"TC"}
    play_cards(game, "TC")
    assert var(game, "best") == 2 and game.current_player == 2  # the Ace of clubs took it and leads


def test_the_left_bower_follows_trump_and_not_its_printed_suit() -> None:
    game = hearts_ordered_up()
    play_cards(game, "TD")  # a diamond led: the jack of diamonds is a trump, not a diamond
    assert playable(game) == {"QD"}
    with pytest.raises(IllegalMoveError):
        play_cards(game, "JD")
    play_cards(game, "QD", "9D", "AD")
    assert game.current_player == 3
    play_cards(game, "QH")  # trump led: seat 2's only trump is the left bower, which must follow
    assert playable(game) == {"JH", "AH"}
    play_cards(game, "AH")
    assert playable(game) == {"JD"}
    with pytest.raises(IllegalMoveError):
        play_cards(game, "AS")


def test_a_player_whose_only_card_of_the_left_bowers_printed_suit_is_that_bower_may_play_any_card() -> None:
    game = hearts_ordered_up()
    play_cards(game, "TD", "QD", "9D", "AD")  # the dealer takes it and leads the King of diamonds
    play_cards(game, "KD")
    assert playable(game) == {"JH", "AH", "KS", "9C"}
    play_cards(game, "JH")
    assert playable(game) == {"JD", "AS", "QS", "TS"}  # the jack of diamonds is no diamond


def test_leading_the_left_bower_leads_trump() -> None:
    game = new_game()
    passes(game, 4)
    play(game, "call diamonds")  # the jack of hearts is now the left bower, a diamond
    play_cards(game, "JH")
    assert playable(game) == {"JD", "QD"}
    play_cards(game, "QD")
    assert playable(game) == {"9D"}  # not the nine of hearts
    play_cards(game, "9D")
    assert playable(game) == {"AD", "KD"}  # not the Queen of hearts
    play_cards(game, "AD")
    assert var(game, "best") == 0  # the left bower beats the Ace of trump


def test_the_right_bower_beats_the_left_bower_which_beats_the_ace_of_trump() -> None:
    game = hearts_ordered_up()
    play_cards(game, "TD", "QD", "9D", "AD")
    play_cards(game, "KD", "AH", "JD", "9H")  # Ace of trump, then the left bower
    assert var(game, "best") == 1 and game.current_player == 1
    game = hearts_ordered_up()
    play_cards(game, "TD", "QD", "9D", "AD")
    play_cards(game, "KD", "JH", "JD", "9H")  # the right bower, then the left
    assert var(game, "best") == 0 and game.current_player == 0


def test_trumps_rank_right_bower_left_bower_then_ace_king_queen_ten_nine() -> None:
    game = hearts_ordered_up(FOUR, "9H", dropped="TC")  # the dealer holds KH QH TH 9H and JC
    play_cards(game, "9S", "QS", "9D", "TH")  # the ten of trump takes the Queen of the suit led
    assert var(game, "best") == 3
    play_cards(game, "9H", "AH", "KS", "TD")  # the nine of trump led, the Ace over it
    assert var(game, "best") == 0
    play_cards(game, "AC", "KC", "QD", "JC")
    play_cards(game, "JD", "AS", "KD", "QH")  # the left bower over the Queen
    assert var(game, "best") == 0
    play_cards(game, "JH", "QC", "AD", "KH")  # the right bower over the King
    assert var(game, "best") == 0 and points(game) == [1, 0, 1, 0]  # (seats 1 and 3 took 4 of 5)


def test_the_highest_trump_wins_else_the_highest_card_of_the_suit_led() -> None:
    game = hearts_ordered_up()
    play_cards(game, "9C", "QS", "AC", "TC")  # no trump: the Ace of the suit led wins
    assert var(game, "best") == 2
    play_cards(game, "9D")  # seat 3 leads a diamond; seat 4's Ace wins it over the lower diamonds
    play_cards(game, "AD", "TD", "QD")
    assert var(game, "best") == 3
    play_cards(game, "KD", "KS", "JD", "JS")  # the left bower (a trump) takes the King of diamonds
    assert var(game, "best") == 1
    play_cards(game, "AS")
    play_cards(game, "JC", "QH", "AH")  # the Ace of spades loses to two trumps
    assert var(game, "best") == 0


def test_the_other_suits_rank_ace_king_queen_jack_ten_nine() -> None:
    game = hearts_ordered_up(PLAIN, "9H", dropped="AS")
    play_cards(game, "9C", "JC", "QC", "TC")  # the Queen over the jack over the ten
    assert var(game, "best") == 2
    game = hearts_ordered_up(PLAIN, "9H", dropped="AS")
    play_cards(game, "9C", "JC", "QC")
    assert playable(game) == {"TC"}
    play_cards(game, "TC")
    play_cards(game, "9D", "KD", "9S", "TS")  # no clubs: the King of diamonds over the nine
    assert var(game, "best") == 3
    play_cards(game, "QD", "JH", "AC", "TD")  # seat 1 trumps with the right bower
    assert var(game, "best") == 0
    play_cards(game, "KC", "KH", "JS", "AD")
    assert var(game, "best") == 1  # a trump, though the King of clubs was led
    game = hearts_ordered_up(PLAIN, "9H", dropped="AS")
    play_cards(game, "KC", "AC", "QC", "TC")  # the Ace over the King
    assert var(game, "best") == 1


def test_the_winner_of_a_trick_leads_the_next_and_the_trick_is_gathered() -> None:
    game = hearts_ordered_up()
    play_cards(game, "TD", "QD", "9D", "AD")
    assert game.current_player == 3 and pile(game, "trick") == [] and len(pile(game, "pack")) == 8
    assert var(game, "made") == 0  # the trick is the defenders'


# -- scoring ----------------------------------------------------------------------------------


def test_makers_taking_4_tricks_score_1() -> None:
    game = hearts_ordered_up(FOUR, "9H", dropped="TC")
    play_cards(game, "JH", "KC", "9D", "9H", "JD", "QC", "TD", "TH", "AH", "QS", "QD", "QH")
    play_cards(game, "AC", "KS", "KD", "JC")  # the dealer must follow clubs
    play_cards(game, "9S", "AS", "AD", "KH")  # the dealer trumps the last trick
    assert var(game, "made") == 0 and points(game) == [1, 0, 1, 0]  # a new hand is under way
    assert var(game, "dealer") == 0


def test_makers_taking_3_tricks_score_1() -> None:
    game = hearts_ordered_up(FOUR, "9H", dropped="TC")
    play_cards(game, "JH", "KC", "9D", "9H", "JD", "QC", "TD", "TH", "AH", "QS", "QD", "QH")
    play_cards(game, "9S", "AS", "KD", "JC")  # seat 2 takes it and leads
    play_cards(game, "KS", "AD", "KH", "AC")
    assert points(game) == [1, 0, 1, 0]


def test_makers_taking_all_5_march_and_score_2() -> None:
    game = hearts_ordered_up(STRONG, "9H", dropped="9D")
    play_out(game)
    assert points(game) == [2, 0, 2, 0]


def test_a_lone_hand_taking_all_5_scores_4() -> None:
    game = new_game(STRONG, "9H")
    play(game, "alone hearts")
    discard(game, "9D")
    play_out(game)
    assert points(game) == [4, 0, 4, 0]


def test_a_lone_hand_taking_3_scores_1() -> None:
    game = new_game(FOUR, "9H")
    play(game, "alone hearts")
    discard(game, "TC")
    play_cards(game, "JH", "KC", "9H", "JD", "QC", "TH", "AH", "QS", "QH")
    play_cards(game, "9S", "AS", "JC")
    play_cards(game, "KS", "KH", "AC")
    assert points(game) == [1, 0, 1, 0]


def test_makers_taking_fewer_than_3_are_euchred_and_the_defenders_score_2() -> None:
    game = hearts_ordered_up()  # seat 1 ordered up: seats 1 and 3 are the makers
    play_cards(game, "TD", "QD", "9D", "AD")  # seat 4
    play_cards(game, "KD", "AH", "JD", "9H")  # seat 2
    play_cards(game, "AS", "JS", "QH", "KS")  # seat 4
    play_cards(game, "TC", "9C", "QS", "JC")  # seat 3
    play_cards(game, "AC", "KH", "JH", "TS")  # seat 1: the makers took 2
    assert points(game) == [0, 2, 0, 2]
    game = new_game(STRONG, "9H")
    play(game, "pass", "call hearts")  # seat 2 orders up into seat 1's five top trumps
    discard(game, "9D")
    play_out(game)
    assert points(game) == [2, 0, 2, 0]  # the defenders took all 5, and score 2


def test_after_each_hand_the_deal_passes_left_and_a_new_hand_is_dealt() -> None:
    game = hearts_ordered_up(STRONG, "9H", dropped="9D")
    play_out(game)
    assert var(game, "dealer") == 0 and game.current_player == 1 and var(game, "round") == 1
    assert var(game, "trump") == "" and var(game, "made") == 0
    hands = [hand(game, s) for s in range(4)]
    assert [len(h) for h in hands] == [5] * 4 and len(pile(game, "up")) == 1 and len(pile(game, "pack")) == 3
    assert set().union(*hands) | set(pile(game, "up")) | set(pile(game, "pack")) == FULL_DECK
    suit = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}[pile(game, "up")[0][1]]
    assert texts(game) == {"pass", f"call {suit}", f"alone {suit}"}


def test_after_a_lone_hand_the_partners_cards_are_gathered_for_the_next_deal() -> None:
    game = new_game(STRONG, "9H")
    play(game, "alone hearts")
    discard(game, "9D")
    play_out(game)
    assert var(game, "dealer") == 0 and [len(hand(game, s)) for s in range(4)] == [5] * 4


def test_the_match_ends_when_a_side_reaches_10_and_that_side_wins() -> None:
    for before, over in ((7, False), (8, True)):
        game = hearts_ordered_up(STRONG, "9H", dropped="9D")
        set_points(game, 0, before)
        set_points(game, 1, 9)
        play_out(game)
        assert points(game)[0] == before + 2 and game.is_over == over
        if over:
            assert game.outcome == "over" and game.reason == "a side reached the target"
            assert game.winners() == [0, 2]


def test_the_target_is_an_option_from_1_to_100_defaulting_to_10() -> None:
    option = rules_for().options["target"]
    assert (option.low, option.high, option.default) == (1, 100, 10)
    game = hearts_ordered_up(STRONG, "9H", dropped="9D", target=2)
    play_out(game)
    assert game.is_over and game.winners() == [0, 2]
    game = hearts_ordered_up(STRONG, "9H", dropped="9D", target=3)
    play_out(game)
    assert not game.is_over
    for bad in (0, 101):
        with pytest.raises(RulesetError):
            load_ruleset("euchre", options={"target": bad})


# -- the hands as shown -----------------------------------------------------------------------


def test_hands_are_shown_in_the_games_order_with_the_bowers_among_the_trumps() -> None:
    game = new_game()
    assert drawn(game, 1) == ["TS", "QS", "AS", "JD", "QD"]  # before trump: the jack in its suit
    assert drawn(game, 0) == ["KS", "JH", "AH", "9C", "TD"]  # spades, hearts, clubs, diamonds
    play(game, "call hearts")
    assert drawn(game, 1) == ["TS", "QS", "AS", "QD", "JD"]  # the left bower goes to the trumps
    assert drawn(game, 0) == ["KS", "9C", "TD", "AH", "JH"]  # the right bower highest of all
    assert drawn(game, 2) == ["JS", "JC", "AC", "9D", "9H"]
    assert pile(game, "hand", 1) == MIXED[1].split()  # only the drawing: the cards lie as dealt


# -- bots -------------------------------------------------------------------------------------


def test_greedy_and_random_seats_play_a_match_to_its_end() -> None:
    rules = rules_for(target=3)
    for seed in range(3):
        game = rules.new_game(seed=seed)
        bots = {s: make_bot("greedy" if s % 2 == 0 else "random", 10 * seed + s) for s in range(4)}
        while not game.is_over:
            game.apply(bots[game.current_player].choose(game))
        assert game.outcome == "over" and max(points(game)) >= 3
        assert game.winners() in ([0, 2], [1, 3])


@pytest.mark.parametrize("seat", range(4))
def test_a_bots_copy_keeps_what_its_seat_knows(seat: int) -> None:
    game = hearts_ordered_up()
    play_cards(game, "9C", "QS")
    copy = game.determinize(seat, random.Random(seat))
    assert copy.view(seat) == game.view(seat)
