"""Gin Rummy, rule by rule (rulesets/gin-rummy.yaml): one or more tests per sentence of the rules its
header gives and per reading it chose, each from an explicit deal.

Deals list codes top of the deck first: the setup deals them one at a time, so card k (k < 20)
goes to seat k % 2 (0-based), card 20 is turned up to start the discard pile, and the next ones
are the stock's top cards. Seat 2 (1) deals first, so seat 1 (0) speaks first. Move texts:
`d>h@1` (the discard pile's top card taken), `s>h@1` (a draw), `pass`, `discard:h@1:KS>d`,
`knock:h@1:KS>d`.
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

# The pone's three melds (A-2-3 of clubs, three fives, 9-10-J of hearts) and a King of spades; the
# dealer's ten cards meld nothing, but four of them lay off onto the pone's melds: the four of
# clubs, the five of clubs, the eight of hearts and, through it, the seven.
MELDED = "AC 2C 3C 5D 5H 5S 9H TH JH KS"
LAYS_OFF = "4C 5C 8H 7H KD KC 2S 6S 9C 9D"


@cache
def rules_for(target: int = 100, knock: int = 10) -> Any:
    return load_ruleset("gin-rummy", options={"target": target, "knock": knock})


def deal_of(pone: str, dealer: str, up: str, stock: Sequence[str] = ()) -> list[str]:
    hands = [pone.split(), dealer.split()]
    top = [hands[k % 2][k // 2] for k in range(20)] + [up, *stock]
    assert len(set(top)) == len(top) and set(top) <= set(DECK)
    return top + [c for c in DECK if c not in top]


def new_game(pone: str, dealer: str, up: str, stock: Sequence[str] = (), **options: Any) -> Any:
    return rules_for(**options).new_game(deal=deal_of(pone, dealer, up, stock))


def texts(game: Any, name: str | None = None) -> set[str]:
    return {m.text() for m in game.legal_moves() if name is None or m.name == name}


def play(game: Any, text: str) -> None:
    game.apply(next(m for m in game.legal_moves() if m.text() == text))


def points(game: Any) -> list[int]:
    return [game.variable("score", s) for s in (0, 1)]


def both_pass_then_draw(game: Any) -> None:
    play(game, "pass")
    play(game, "pass")
    play(game, "s>h@1")


# -- the deal and the turned card ----------------------------------------------------------------

def test_ten_cards_each_one_turned_up_and_the_non_dealer_may_take_it_or_pass() -> None:
    game = new_game(MELDED, LAYS_OFF, "8C", ["4S"])
    assert [len(pile(game, "hand", s)) for s in (0, 1)] == [10, 10] and len(pile(game, "stock")) == 31
    assert pile(game, "discard") == ["8C"] and game.view(DEALER)["zones"]["discard"] == ["8C"]
    assert game.current_player == PONE and texts(game) == {"d>h@1", "pass"}


def test_if_the_non_dealer_passes_the_dealer_may_take_it_and_if_both_pass_the_non_dealer_draws() -> None:
    game = new_game(MELDED, LAYS_OFF, "8C", ["4S"])
    play(game, "pass")
    assert game.current_player == DEALER and texts(game) == {"d>h@2", "pass"}
    play(game, "pass")
    assert game.current_player == PONE and texts(game) == {"s>h@1"}   # not the turned card now


def test_a_card_taken_from_the_discard_pile_is_not_discarded_in_the_same_turn() -> None:
    game = new_game(MELDED, LAYS_OFF, "8C", ["4S"])
    play(game, "d>h@1")
    assert game.current_player == PONE and len(pile(game, "hand", PONE)) == 11
    assert "discard:h@1:8C>d" not in texts(game) and "discard:h@1:KS>d" in texts(game)
    play(game, "discard:h@1:KS>d")
    assert pile(game, "discard") == ["KS"] and game.current_player == DEALER
    assert texts(game) == {"d>h@2", "s>h@2"}   # a turn: the stock's top or the discard pile's


def test_the_drawer_discards_face_up_and_the_turn_passes() -> None:
    game = new_game(MELDED, LAYS_OFF, "8C", ["4S", "QD"])
    both_pass_then_draw(game)
    play(game, "discard:h@1:4S>d")
    assert pile(game, "discard") == ["8C", "4S"] and game.state.up[DECK.index("4S")]
    assert game.view(DEALER)["zones"]["discard"] == [None, "4S"]   # a squared pile: its top only
    play(game, "s>h@2")
    assert "QD" in pile(game, "hand", DEALER) and game.current_player == DEALER


# -- knocking and the count -----------------------------------------------------------------------

def test_a_player_may_knock_only_with_ten_or_less_deadwood_after_its_discard() -> None:
    game = new_game(MELDED, LAYS_OFF, "8C", ["4S"])
    both_pass_then_draw(game)
    assert texts(game, "knock") == {"knock:h@1:KS>d", "knock:h@1:4S>d"}   # 4 or 10 left
    strict = new_game(MELDED, LAYS_OFF, "8C", ["4S"], knock=5)
    both_pass_then_draw(strict)
    assert texts(strict, "knock") == {"knock:h@1:KS>d"}


def test_the_knocker_scores_the_difference_after_the_other_lays_off_onto_its_melds() -> None:
    game = new_game(MELDED, LAYS_OFF, "8C", ["4S"])
    both_pass_then_draw(game)
    play(game, "knock:h@1:KS>d")
    # the dealer's 70 less 4C, 5C, 8H and 7H laid off (24): 46; the knocker's 4S: 4
    assert points(game) == [46 - 4, 0]
    assert game.variable("dealer") == PONE and game.current_player == DEALER   # the winner deals
    assert [len(pile(game, "hand", s)) for s in (0, 1)] == [10, 10] and len(pile(game, "discard")) == 1


def test_a_card_taken_up_face_up_is_turned_down_with_its_hand_for_the_next_deal() -> None:
    game = new_game(MELDED, LAYS_OFF, "8C", ["QD", "4S"])
    play(game, "d>h@1")                 # the turned eight of clubs: the dealer sees it taken
    play(game, "discard:h@1:KS>d")
    assert game.view(DEALER)["zones"]["hand"][PONE].count("8C") == 1
    play(game, "s>h@2")
    play(game, "discard:h@2:QD>d")
    play(game, "s>h@1")
    play(game, "knock:h@1:4S>d")
    assert points(game) == [46 - 8, 0]   # the eight of clubs is the knocker's deadwood now
    # the cards gathered lie face down, whatever lay face up before: no card drawn later shows
    assert not any(game.state.up[DECK.index(c)] for s in (0, 1) for c in pile(game, "hand", s))
    assert not any(game.state.up[DECK.index(c)] for c in pile(game, "stock"))
    assert game.view(DEALER)["zones"]["hand"][PONE] == [None] * 10


def test_the_other_player_undercuts_with_as_little_deadwood_and_scores_25_more() -> None:
    game = new_game("AC 2C 3C 5D 5H 5S 9H TH JH 9S", "4C QH 7D 7C 7S 2D 3D 4D 6H KC", "8C", ["KS"])
    both_pass_then_draw(game)
    play(game, "knock:h@1:KS>d")
    # knocker 9 (the nine of spades); the dealer's KC 10 and 6H 6, its 4C and QH laid off: 16
    assert points(game) == [16 - 9, 0]
    game = new_game("AC 2C 3C 5D 5H 5S 9H TH JH 9S", "4C QH 7D 7C 7S 2D 3D 4D 6H 8H", "8C", ["KS"])
    both_pass_then_draw(game)
    play(game, "knock:h@1:KS>d")
    assert points(game) == [0, 9 - 6 + 25]   # the 8H laid off too, not the 6H (no 7H): 6, it undercuts
    assert game.variable("dealer") == DEALER


def test_gin_scores_25_and_all_the_other_s_deadwood_with_nothing_laid_off() -> None:
    game = new_game("AC 2C 3C 5D 5H 5S 9H TH JH QH", "4C KH 7D 7C 7S 2D 3D 4D 6S KC", "8C", ["8S"])
    both_pass_then_draw(game)
    play(game, "knock:h@1:8S>d")
    assert points(game) == [25 + 4 + 10 + 6 + 10, 0]   # 4C and KH would fit, but gin allows no laying off


def test_the_melds_counted_leave_the_least_deadwood() -> None:
    # 4-5-6-7 of hearts, two more sevens and three Kings: the run to 6 with the three sevens leaves
    # the 2 of clubs and the 9 of spades; the run to 7 would leave the other sevens as well
    dealer = "4C 5C 8H AH KD QC 2S 6S 9C 9D"
    game = new_game("4H 5H 6H 7H 7C 7D KS KC 2C 9S", dealer, "8C", ["KH"])
    both_pass_then_draw(game)
    assert texts(game, "knock") == {"knock:h@1:9S>d", "knock:h@1:2C>d"}   # 2 or 9 left
    game = new_game("4H 5H 6H 7H 7C 7D KS QS 2C 9S", dealer.replace("QC", "KC"), "8C", ["2H"])
    both_pass_then_draw(game)
    assert texts(game, "knock") == set()   # 23 at the least


def test_a_hand_is_void_when_the_stock_is_down_to_two_cards_and_the_same_dealer_deals_again() -> None:
    game = new_game(MELDED, LAYS_OFF, "8C")
    play(game, "pass")
    play(game, "pass")
    for _ in range(29):   # each seat draws and discards what it drew
        seat = game.current_player + 1
        before = set(pile(game, "hand", game.current_player))
        play(game, f"s>h@{seat}")
        drawn = (set(pile(game, "hand", game.current_player)) - before).pop()
        play(game, f"discard:h@{seat}:{drawn}>d")
    assert points(game) == [0, 0] and game.variable("dealer") == DEALER and game.current_player == PONE
    assert len(pile(game, "stock")) == 31 and len(pile(game, "discard")) == 1
    assert not game.is_over


def test_the_match_ends_with_the_hand_that_reaches_the_target() -> None:
    game = new_game(MELDED, LAYS_OFF, "8C", ["4S"], target=40)
    both_pass_then_draw(game)
    play(game, "knock:h@1:KS>d")
    assert game.is_over and game.winners() == [PONE] and game.reason == "a player reached the target"


# -- the bots, the rules in words (tests/test_native.py plays gin-rummy in both backends, knocks included)

def test_greedy_seats_beat_random_ones() -> None:
    rules = rules_for(target=25)
    wins = 0
    for seed in range(10):
        greedy = seed % 2
        bots = {s: make_bot("greedy" if s == greedy else "random", 10 * seed + s) for s in (0, 1)}
        game = rules.new_game(seed=seed)
        while not game.is_over:
            game.apply(bots[game.current_player].choose(game))
        wins += game.winners() == [greedy]
    assert wins >= 9, wins


def test_the_rules_in_words_say_the_melds_and_the_knock() -> None:
    from cardrules.workbench.describe import describe

    text = "\n".join(block.text for block in describe("gin-rummy").blocks)
    assert "the choices among melds(h) of groups no two of which share an item" in text
