"""Cribbage, rule by rule (rulesets/cribbage.yaml): one or more tests per sentence of the rules its
header gives and per reading it chose, each from an explicit deal.

Deals list codes top of the deck first: the setup deals them one at a time, so card k (k < 12)
goes to seat k % 2 (0-based), and card 12 is the top of the stock, the starter once both seats
have laid their cards in the crib. Seat 2 (1) deals first, so seat 1 (0) is the pone. Move texts:
`h@1:2C,3C>c` (two cards to the crib), `h@1:5C>l@1` (seat 1 lays a card).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from cardrules import load_ruleset
from cardrules.agents.bots import make_bot
from helpers import pile

DECK = [rank + suit for suit in "CDHS" for rank in "A23456789TJQK"]
PONE, DEALER = 0, 1


@cache
def rules_for(target: int = 121) -> Any:
    return load_ruleset("cribbage", options={"target": target})


def deal_of(pone: str, dealer: str, starter: str) -> list[str]:
    """The deal that gives the pone and the dealer their six cards and turns up `starter`."""
    hands = [pone.split(), dealer.split()]
    top = [hands[k % 2][k // 2] for k in range(12)] + [starter]
    assert len(set(top)) == 13 and set(top) <= set(DECK)
    return top + [c for c in DECK if c not in top]


def new_game(pone: str, dealer: str, starter: str, pone_crib: str, dealer_crib: str, target: int = 121) -> Any:
    """A game whose two seats have laid their crib cards (the pone's first), the starter turned."""
    game = rules_for(target).new_game(deal=deal_of(pone, dealer, starter))
    to_crib(game, pone_crib)
    to_crib(game, dealer_crib)
    return game


def to_crib(game: Any, codes: str) -> None:
    wanted = set(codes.split())
    codes_of = game.rules.deck.codes
    game.apply(next(m for m in game.legal_moves() if {codes_of[c] for c in m.pick} == wanted))


def points(game: Any) -> list[int]:
    return [game.variable("score", seat) for seat in (0, 1)]


def lay(game: Any, code: str) -> list[int]:
    """The seat to act lays `code`; what each seat gained by it (with what followed: a go, the show)."""
    before = points(game)
    seat = game.current_player
    game.apply(next(m for m in game.legal_moves() if m.text() == f"h@{seat + 1}:{code}>l@{seat + 1}"))
    return [after - b for after, b in zip(points(game), before)]


def layable(game: Any) -> set[str]:
    return {m.text().split(":")[1].split(">")[0] for m in game.legal_moves() if m.name == "lay"}


def set_points(game: Any, seat: int, value: int) -> None:
    """A game under way: give a seat a total."""
    game.state.vars[game.rules.variables["score"].slot + seat] = value


# -- the deal and the crib ----------------------------------------------------------------------

def test_six_cards_each_and_the_pone_then_the_dealer_lay_two_in_the_crib_unseen() -> None:
    game = rules_for().new_game(deal=deal_of("5C 5D 5H JS 2C 3C", "6D 7D 8D 9D KC QC", "5S"))
    assert [len(pile(game, "hand", s)) for s in (0, 1)] == [6, 6] and len(pile(game, "stock")) == 40
    assert game.current_player == PONE and game.variable("dealer") == DEALER
    assert {m.name for m in game.legal_moves()} == {"crib"} and len(game.legal_moves()) == 15  # any two of six
    to_crib(game, "2C 3C")
    assert game.current_player == DEALER and len(game.legal_moves()) == 15
    assert game.view(DEALER)["zones"]["crib"] == [None, None]
    assert game.record(DEALER)[-1] == "h@1:?,?>c" and game.record(PONE)[-1] == "h@1:2C,3C>c"
    to_crib(game, "KC QC")
    assert sorted(pile(game, "crib")) == ["2C", "3C", "KC", "QC"]
    # each seat sees the two cards it laid there, and only those
    assert sorted(c for c in game.view(PONE)["zones"]["crib"] if c) == ["2C", "3C"]
    assert sorted(c for c in game.view(DEALER)["zones"]["crib"] if c) == ["KC", "QC"]


def test_the_starter_is_turned_from_the_stock_once_the_crib_is_full_and_the_pone_lays_first() -> None:
    game = new_game("5C 5D 5H JS 2C 3C", "6D 7D 8D 9D KC QC", "5S", "2C 3C", "KC QC")
    assert pile(game, "starter") == ["5S"] and game.view(DEALER)["zones"]["starter"] == ["5S"]
    assert game.current_player == PONE and layable(game) == {"5C", "5D", "5H", "JS"}
    assert points(game) == [0, 0]


def test_a_jack_turned_up_gives_the_dealer_two_for_his_heels() -> None:
    game = new_game("5C 5D 5H JS 2C 3C", "6D 7D 8D 9D KC QC", "JH", "2C 3C", "KC QC")
    assert points(game) == [0, 2]


# -- the play -----------------------------------------------------------------------------------

# The pone holds four fives' partners; pairs, a pair royal and a double pair royal, then a go.
PAIRS = ("5C 5H KC QC AD AH", "5D 5S KD QD AS 2S", "9C", "AD AH", "AS 2S")


def test_pairs_peg_two_a_pair_royal_six_and_a_double_pair_royal_twelve() -> None:
    game = new_game(*PAIRS)
    assert lay(game, "5C") == [0, 0] and game.variable("count") == 5
    assert lay(game, "5D") == [0, 2]
    assert lay(game, "5H") == [8, 0]   # fifteen 2 and a pair royal 6
    assert lay(game, "5S") == [0, 12]
    assert game.variable("count") == 20


def test_a_seat_that_cannot_lay_says_go_and_the_last_to_lay_pegs_one_then_the_count_starts_again() -> None:
    game = new_game(*PAIRS)
    for code in ("5C", "5D", "5H", "5S"):
        lay(game, code)
    assert lay(game, "KC") == [1, 0]   # 30: neither can lay (K, Q left): a go for the pone
    assert game.variable("count") == 0 and game.current_player == DEALER  # the other seat leads
    assert lay(game, "KD") == [0, 0]   # no pair with the King of the count before
    assert lay(game, "QC") == [0, 0]
    shows = [shown(["5C", "5H", "KC", "QC"], "9C"),
             shown(["5D", "5S", "KD", "QD"], "9C") + shown(["AD", "AH", "AS", "2S"], "9C", crib=True)]
    assert lay(game, "QD") == [shows[PONE], 2 + 1 + shows[DEALER]]  # a pair of Queens, the last card


# The pone lays on while the dealer cannot, to 31; a run of three in the dealer's last cards.
GOES = ("KC 5C 4C 2C 9S 8S", "KD QD JD TD 7S 6S", "AH", "9S 8S", "7S 6S")


def test_the_other_seat_lays_what_it_can_after_a_go_and_thirty_one_pegs_two() -> None:
    game = new_game(*GOES)
    assert lay(game, "KC") == [0, 0]
    assert lay(game, "KD") == [0, 2]
    assert lay(game, "5C") == [0, 0] and game.variable("count") == 25
    assert game.current_player == PONE   # the dealer cannot lay (Q J T): passed over
    assert lay(game, "4C") == [0, 0] and game.current_player == PONE
    assert lay(game, "2C") == [2, 0]   # exactly 31: 2, and no go point more
    assert game.variable("count") == 0 and game.current_player == DEALER
    assert lay(game, "QD") == [0, 0] and game.current_player == DEALER  # the pone has no card left
    assert lay(game, "JD") == [0, 0]
    before = points(game)
    gained = lay(game, "TD")   # Q J T: a run of three, the last card 1, then the show
    show = shown(["KC", "5C", "4C", "2C"], "AH") + shown(["KD", "QD", "JD", "TD"], "AH") \
        + shown(["9S", "8S", "7S", "6S"], "AH", crib=True)
    assert gained[DEALER] + gained[PONE] == 3 + 1 + show and before == [2, 2]


def test_a_card_that_would_pass_thirty_one_is_not_offered() -> None:
    game = new_game(*GOES)
    for code in ("KC", "KD", "5C"):
        lay(game, code)
    assert layable(game) == {"4C", "2C"}   # 25: the pone's cards
    game_dealer = new_game(*GOES)
    lay(game_dealer, "KC")
    assert layable(game_dealer) == {"KD", "QD", "JD", "TD"}  # 10: any


# Runs in the play, in any order, growing to six cards.
RUNS = ("2H 4H 6H 8H TH QH", "3C 5C 7C 9C KH AH", "9H", "TH QH", "KH AH")


def test_runs_in_the_play_peg_one_per_card_in_any_order() -> None:
    game = new_game(*RUNS)
    assert lay(game, "2H") == [0, 0]
    assert lay(game, "3C") == [0, 0]
    assert lay(game, "4H") == [3, 0]    # 2 3 4
    assert lay(game, "5C") == [0, 4]    # 2 3 4 5 (and 14)
    assert lay(game, "6H") == [5, 0]    # 20: a run of five
    assert lay(game, "7C") == [0, 7]    # 27: a run of six, and the go (the pone's 8 and the 9 pass 31)
    assert game.current_player == PONE and game.variable("count") == 0


def test_a_run_broken_by_another_card_does_not_count_nor_do_pairs_and_runs_across_a_new_count() -> None:
    game = new_game("4C KC 5H 6C 9S 8S", "6D KD 2S 3S 7S TS", "AH", "9S 8S", "7S TS")
    assert lay(game, "4C") == [0, 0]
    assert lay(game, "6D") == [0, 0]
    assert lay(game, "KC") == [0, 0]   # 20
    assert lay(game, "KD") == [0, 3]   # 30: a pair of Kings; neither can lay: a go for the dealer
    assert game.current_player == PONE
    assert lay(game, "5H") == [0, 0]   # after the go: no run with the 4 and 6 of the count before
    assert lay(game, "2S") == [0, 0]
    assert lay(game, "6C") == [0, 0]   # 5 2 6: no run


# -- the show -----------------------------------------------------------------------------------

def test_the_show_counts_the_pone_then_the_dealer_then_the_crib_and_the_hand_of_29() -> None:
    game = new_game("5C 5D 5H JS 2C 3C", "6D 7D 8D 9D KC QC", "5S", "2C 3C", "KC QC")
    assert shown(["5C", "5D", "5H", "JS"], "5S") == 29
    for code in ("5C", "9D", "5D", "8D"):    # 27: neither can lay, a go for the dealer
        lay(game, code)
    assert points(game) == [0, 1]
    for code in ("5H", "7D", "JS"):
        lay(game, code)
    assert lay(game, "6D") == [29, 1 + 13 + 8]   # the last card 1; the hands 29 and 13, the crib 8
    # 29: eight fifteens 16, six pairs 12, his nobs 1; the dealer's 13: two fifteens 4, a run of
    # five 5, a flush of four in the hand 4; the crib 8: four fifteens, and its four clubs no flush


def test_a_flush_of_the_hand_counts_four_or_five_with_the_starter_and_the_crib_only_five() -> None:
    game = new_game(*RUNS)
    for code in ("2H", "3C", "4H", "5C", "6H", "7C", "8H"):
        lay(game, code)
    assert lay(game, "9C") == [9, 1 + 8 + 5]
    # The pone's 2 4 6 8 of hearts with the 9 of hearts: fifteens 6+9, 2+4+9, and a flush of five;
    # the dealer's 3 5 7 9 of clubs: fifteen 3+5+7, the pair of nines, a flush of four; the crib's
    # T Q K A of hearts with the 9 of hearts: a flush of five, nothing else.


def test_the_game_ends_at_once_when_the_pone_reaches_the_target_in_the_show() -> None:
    game = new_game("5C 5D 5H JS 2C 3C", "6D 7D 8D 9D KC QC", "5S", "2C 3C", "KC QC", target=26)
    for code in ("5C", "9D", "5D", "8D", "5H", "7D", "JS", "6D"):
        lay(game, code)
    assert game.is_over and points(game) == [29, 2]   # the dealer's hand and crib are not counted
    assert game.winners() == [PONE]


def test_the_game_ends_at_once_when_a_seat_reaches_the_target_in_the_play() -> None:
    game = new_game(*PAIRS)
    set_points(game, PONE, 115)
    lay(game, "5C")
    lay(game, "5D")
    assert lay(game, "5H") == [8, 0] and game.is_over and game.winners() == [PONE]
    assert game.reason == "a player reached the target"


def test_after_the_show_the_deal_passes_and_the_new_pone_lays_in_the_crib_first() -> None:
    game = new_game("5C 5D 5H JS 2C 3C", "6D 7D 8D 9D KC QC", "5S", "2C 3C", "KC QC")
    for code in ("5C", "9D", "5D", "8D", "5H", "7D", "JS", "6D"):
        lay(game, code)
    assert not game.is_over and game.variable("dealer") == PONE and game.current_player == DEALER
    assert [len(pile(game, "hand", s)) for s in (0, 1)] == [6, 6] and len(pile(game, "stock")) == 40
    assert all(not pile(game, zone, s) for zone in ("laid",) for s in (0, 1))
    assert not pile(game, "crib") and not pile(game, "starter") and game.variable("count") == 0


# -- a reference count of a hand, for the tests above -----------------------------------------

def shown(hand: Sequence[str], starter: str, crib: bool = False) -> int:
    """A hand's (or, `crib`, the crib's) count with the starter, as the rules state it."""
    from itertools import combinations

    rank = {code: "A23456789TJQK".index(code[0]) + 1 for code in DECK}
    cards = [*hand, starter]
    total = 0
    for size in range(2, 6):
        for group in combinations(cards, size):
            if sum(min(rank[c], 10) for c in group) == 15:
                total += 2
    total += 2 * sum(1 for a, b in combinations(cards, 2) if rank[a] == rank[b])
    for size in (5, 4, 3):
        runs = [g for g in combinations(cards, size) if sorted(rank[c] for c in g)
                == list(range(min(rank[c] for c in g), min(rank[c] for c in g) + size))]
        if runs:
            total += size * len(runs)
            break
    if all(c[1] == starter[1] for c in hand):
        total += 5
    elif not crib and all(c[1] == hand[0][1] for c in hand):
        total += 4
    total += sum(1 for c in hand if c[0] == "J" and c[1] == starter[1])
    return total


def test_the_reference_count_gives_the_known_hands() -> None:
    assert shown(["5C", "5D", "5H", "JS"], "5S") == 29
    assert shown(["5C", "5D", "5H", "JS"], "5S", crib=True) == 29
    assert shown(["6D", "7D", "8D", "9D"], "5S") == 13
    assert shown(["2C", "3C", "KC", "QC"], "5S", crib=True) == 8
    assert shown(["3C", "3D", "4C", "5C"], "AH") == 2 + 2 + 2 * 3   # 3+3+4+5, the pair, a double run
    assert shown(["2H", "4H", "6H", "8H"], "9H") == 4 + 5 and shown(["TH", "QH", "KH", "AH"], "9H", crib=True) == 5
    assert shown(["2H", "4H", "6H", "8H"], "9C") == 4 + 4 and shown(["2H", "4H", "6H", "8H"], "9C", crib=True) == 4


# -- the bots, the rules in words (tests/test_native.py plays every bundled ruleset in both backends) -------------------------------------------------

def test_greedy_seats_beat_random_ones() -> None:
    rules = rules_for(61)
    wins = 0
    for seed in range(20):
        greedy = seed % 2  # each seat in turn
        bots = {s: make_bot("greedy" if s == greedy else "random", 10 * seed + s) for s in (0, 1)}
        game = rules.new_game(seed=seed)
        while not game.is_over:
            game.apply(bots[game.current_player].choose(game))
        wins += game.winners() == [greedy]
    assert wins >= 17, wins  # (without its heuristic, greedy won 11 of these 20: the crib was laid at random)


def test_the_rules_in_words_say_the_play_and_the_show() -> None:
    from cardrules.workbench.describe import describe

    text = "\n".join(block.text for block in describe("cribbage").blocks)
    assert "at (a mark on each card, seen as the card is): starts at -1." in text
    assert "Set the card's at to played." in text
