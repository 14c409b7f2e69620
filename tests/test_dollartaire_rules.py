"""Dollartaire, rule by rule: one or more tests per sentence of the seed text
(shared/seeds/000_9eb3ad69f6fa661e.txt) and per reading in shared/GAMES.md (section 2).

Every test starts from an explicit deal (see ``make_deal``) so the situation it
checks is exact. A deal lists the 48 bills top of the deck first; setup deals them
round by round to the six bank stacks, so deal[0..5] is the bottom row (stacks
1..6) and deal[42..47] the top row, whose bills are turned face up. Face-up
cascades above a stack's top bill only arise by play, so the tests build exact
positions by scripting a few moves from a chosen deal.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import pytest

from cardrules import CardrulesError, IllegalMoveError, load_ruleset
from helpers import play, snapshot, texts

DENOMS = ("$1", "$5", "$10", "$20", "$50", "$100")
VALUE = {code: int(code[1:]) for code in DENOMS}
FULL_DECK = [code for code in DENOMS for _ in range(8)]


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------


@lru_cache(maxsize=None)
def rules() -> Any:
    return load_ruleset("dollartaire")


def make_deal(stacks: Sequence[Sequence[str]]) -> list[str]:
    """The deal (top of the deck first) that gives the six bank stacks ``stacks``.

    ``stacks[i]`` lists the top bills of stack i+1, bottom first (at most 8); each
    stack is padded underneath with the unnamed bills, lowest denominations first.
    """
    assert len(stacks) == 6 and all(len(s) <= 8 for s in stacks)
    left = Counter(FULL_DECK)
    for stack in stacks:
        for code in stack:
            left[code] -= 1
            assert left[code] >= 0, f"{code} is named more than 8 times"
    spare = iter([code for code in DENOMS for _ in range(left[code])])
    full = [[next(spare) for _ in range(8 - len(s))] + list(s) for s in stacks]
    deal = [full[i][r] for r in range(8) for i in range(6)]
    assert sorted(deal) == sorted(FULL_DECK)
    return deal


def new_game(stacks: Sequence[Sequence[str]], **kwargs: Any) -> Any:
    return rules().new_game(deal=make_deal(stacks), **kwargs)


def bank_pile(game: Any, k: int) -> int:
    return game.rules.zones["bank"].piles[k - 1]


def wallet_pile(game: Any) -> int:
    return game.rules.zones["wallet"].piles[0]


def codes(game: Any, pile: int) -> list[str]:
    names = game.rules.deck.codes
    return [names[c] for c in game.state.piles[pile]]


def faces(game: Any, k: int) -> list[bool]:
    return [bool(game.state.up[c]) for c in game.state.piles[bank_pile(game, k)]]


def stack(game: Any, k: int) -> list[str]:
    """Bank stack k (1-based), bottom first."""
    return codes(game, bank_pile(game, k))


def face_up_run(game: Any, k: int) -> list[str]:
    """The face-up bills at the top of stack k, bottom first."""
    return [code for code, up in zip(stack(game, k), faces(game, k)) if up]


def wallet(game: Any) -> list[str]:
    return codes(game, wallet_pile(game))


def wallet_value(game: Any) -> int:
    values = game.rules.deck
    return sum(values.cards[c]["value"] for c in game.state.piles[wallet_pile(game)])


def total(game: Any) -> int:
    value = game.variable("wallet_total")
    assert game.scores() == [value]
    return value


def set_wallet_total(game: Any, value: int) -> None:
    game.state.set_var(game.rules.variables["wallet_total"].slot, value)


# A deal in which no move is ever possible: every stack shows a $1 (nothing to build a
# $1 on, no open $100 or $50).
DEAD = [["$1"]] * 6


# ---------------------------------------------------------------------------
# Set up: 48 bills, six even stacks of 8, the top bills turned over
# ---------------------------------------------------------------------------


def test_deck_is_48_bills_eight_of_each_denomination_worth_1488() -> None:
    deck = rules().deck
    assert len(deck) == 48
    values = [deck.cards[c]["value"] for c in range(len(deck))]
    assert Counter(values) == {1: 8, 5: 8, 10: 8, 20: 8, 50: 8, 100: 8}
    assert sum(values) == 1488
    assert sorted(deck.codes) == sorted(FULL_DECK)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_setup_deals_all_48_bills_round_by_round_into_six_stacks_of_eight(seed: int) -> None:
    deal = rules().new_game(seed=seed).deal_order
    game = rules().new_game(deal=deal)
    assert len(game.rules.zones["bank"].piles) == 6
    for k in range(1, 7):
        assert len(stack(game, k)) == 8
        assert stack(game, k) == deal[k - 1::6]  # deal[k-1] at the bottom, deal[42+k-1] on top
    assert sum(len(stack(game, k)) for k in range(1, 7)) == 48
    assert wallet(game) == []


def test_setup_turns_only_the_top_bill_of_each_stack_face_up() -> None:
    game = new_game([["$100"], ["$50"], ["$20"], ["$10"], ["$5"], ["$1"]])
    view = game.view(0)["zones"]["bank"]
    for k in range(1, 7):
        assert faces(game, k) == [False] * 7 + [True]
        assert view[k - 1][:7] == [None] * 7  # face-down bills are hidden
        assert view[k - 1][7] == stack(game, k)[7]
    assert [view[k][7] for k in range(6)] == ["$100", "$50", "$20", "$10", "$5", "$1"]


def test_setup_starts_with_an_empty_wallet_at_zero() -> None:
    game = new_game([["$100"], ["$50"], ["$20"], ["$10"], ["$5"], ["$1"]])
    assert total(game) == 0
    assert wallet(game) == []
    assert not game.is_over and game.outcome is None


def test_deal_must_be_the_whole_48_bill_deck() -> None:
    deal = make_deal(DEAD)
    with pytest.raises(CardrulesError):
        rules().new_game(deal=deal[:47])
    with pytest.raises(CardrulesError):
        rules().new_game(deal=deal[:47] + ["$100", "$100"])
    with pytest.raises(CardrulesError):
        rules().new_game(deal=deal[:47] + ["$2"])
    ninth_one = list(deal)
    ninth_one[ninth_one.index("$5")] = "$1"
    with pytest.raises(CardrulesError):  # nine $1s, seven $5s
        rules().new_game(deal=ninth_one)


def test_seeded_deal_is_a_shuffle_of_the_deck_and_repeats_with_the_seed() -> None:
    game = rules().new_game(seed=5)
    assert sorted(game.deal_order) == sorted(FULL_DECK)
    assert rules().new_game(seed=5).deal_order == game.deal_order
    assert rules().new_game(seed=6).deal_order != game.deal_order


# ---------------------------------------------------------------------------
# Only face-up bills are played
# ---------------------------------------------------------------------------


def test_only_face_up_bills_are_ever_played() -> None:
    for seed in range(8):
        game = rules().new_game(seed=seed, max_moves=300)
        rng = random.Random(seed)
        while not game.is_over:
            moves = game.legal_moves()
            for move in moves:
                piles = game.state.piles
                moved = piles[move.src][len(piles[move.src]) - move.count:]
                moved += [c for p, n in move.selection for c in piles[p][len(piles[p]) - n:]]
                assert moved and all(game.state.up[c] for c in moved), str(move)
            game.apply(rng.choice(moves))


# ---------------------------------------------------------------------------
# Building: in denominational order, highest to lowest, no skipping
# ---------------------------------------------------------------------------


PAIRS = [(low, high) for i, low in enumerate(DENOMS) for high in DENOMS[i + 1:]]


@pytest.mark.parametrize(("low", "high"), PAIRS, ids=[f"{lo}-on-{hi}" for lo, hi in PAIRS])
def test_a_bill_builds_only_onto_the_next_higher_denomination(low: str, high: str) -> None:
    game = new_game([[high], [low], ["$1"], ["$1"], ["$1"], ["$1"]])
    next_higher = DENOMS.index(high) == DENOMS.index(low) + 1
    assert ("build:b2>b1" in texts(game)) == next_higher
    assert "build:b1>b2" not in texts(game)  # never onto a lower bill


def test_builds_in_a_position_are_exactly_the_next_higher_ones() -> None:
    game = new_game([["$20"], ["$10"], ["$5"], ["$50"], ["$1"], ["$100"]])
    assert texts(game, "build") == {
        "build:b2>b1",  # $10 onto $20
        "build:b3>b2",  # $5 onto $10
        "build:b1>b4",  # $20 onto $50
        "build:b5>b3",  # $1 onto $5
        "build:b4>b6",  # $50 onto $100
    }


def test_a_5_cannot_be_placed_on_a_20_because_the_10_is_missing() -> None:
    game = new_game([["$20"], ["$5"], ["$1"], ["$1"], ["$1"], ["$1"]])
    assert "build:b2>b1" not in texts(game)
    with pytest.raises(IllegalMoveError):
        game.parse_move("build:b2>b1")


def test_equal_bills_do_not_build_on_each_other() -> None:
    game = new_game([["$20"], ["$20"], ["$10"], ["$10"], ["$1"], ["$1"]])
    assert texts(game, "build") == {"build:b3>b1", "build:b3>b2", "build:b4>b1", "build:b4>b2"}


def test_a_10_moves_onto_a_20_to_form_the_short_cascade_20_10() -> None:
    game = new_game([["$20"], ["$5", "$10"], ["$1"], ["$1"], ["$1"], ["$1"]])
    play(game, "build:b2>b1")
    assert face_up_run(game, 1) == ["$20", "$10"]
    assert len(stack(game, 1)) == 9 and len(stack(game, 2)) == 7
    assert stack(game, 1)[-2:] == ["$20", "$10"]


def test_a_cascade_20_10_1_is_built_one_bill_at_a_time() -> None:
    # $20>$10>$5>$1 is allowed: each bill the next lower denomination.
    game = new_game([["$20"], ["$10"], ["$5"], ["$1"], ["$1"], ["$1"]])
    play(game, "build:b2>b1", "build:b3>b1", "build:b4>b1")
    assert face_up_run(game, 1) == ["$20", "$10", "$5", "$1"]


def scripted_cascade_game() -> Any:
    """b1 $50; b2 $20>$10>$5 (built); b3 $20; b4 $10; b5 $5; b6 $1; b4/b5 each show another bill."""
    game = new_game([["$50"], ["$20"], ["$20"], ["$10", "$10"], ["$5", "$5"], ["$1"]])
    play(game, "build:b4>b2", "build:b5>b2")
    assert face_up_run(game, 2) == ["$20", "$10", "$5"]
    assert [face_up_run(game, k) for k in (1, 3, 4, 5, 6)] == [["$50"], ["$20"], ["$10"], ["$5"], ["$1"]]
    return game


def test_a_whole_cascade_20_10_5_moves_onto_a_50() -> None:
    game = scripted_cascade_game()
    assert "build:b2x3>b1" in texts(game)
    before = stack(game, 2)
    play(game, "build:b2x3>b1")
    assert face_up_run(game, 1) == ["$50", "$20", "$10", "$5"]
    assert stack(game, 2) == before[:-3]
    assert faces(game, 2)[-1]  # the bill under the cascade turned up


def test_part_of_a_cascade_from_its_top_moves_onto_the_next_higher_bill() -> None:
    game = scripted_cascade_game()
    builds = texts(game, "build")
    assert "build:b2x2>b3" in builds  # $10>$5 onto the other $20
    assert "build:b2>b4" in builds  # the $5 alone onto the $10
    play(game, "build:b2x2>b3")
    assert face_up_run(game, 3) == ["$20", "$10", "$5"]
    assert face_up_run(game, 2) == ["$20"]


def test_a_cascade_moves_only_onto_the_next_higher_bill_of_its_bottom_bill() -> None:
    # $20>$10>$5 may go onto a $50 only; not onto a $100, a $20 or a $10.
    game = new_game([["$100"], ["$20"], ["$20"], ["$10", "$10"], ["$5", "$5"], ["$1"]])
    play(game, "build:b4>b2", "build:b5>b2")
    assert face_up_run(game, 2) == ["$20", "$10", "$5"]
    from_b2 = {m for m in texts(game, "build") if m.startswith("build:b2")}
    assert from_b2 == {"build:b2x2>b3", "build:b2>b4"}
    assert not any(m.startswith("build:b2x3") for m in texts(game))


def test_a_100_builds_onto_nothing() -> None:
    game = new_game([["$100"], ["$100"], ["$50"], ["$20"], ["$1"], ["$1"]])
    assert not any(m.startswith("build:b1") or m.startswith("build:b2") for m in texts(game))


def test_moving_a_bill_turns_the_uncovered_bill_face_up() -> None:
    game = new_game([["$20"], ["$100", "$10"], ["$1"], ["$1"], ["$1"], ["$1"]])
    assert game.view(0)["zones"]["bank"][1][-2] is None
    play(game, "build:b2>b1")
    assert stack(game, 2)[-1] == "$100" and faces(game, 2) == [False] * 6 + [True]
    assert game.view(0)["zones"]["bank"][1][-1] == "$100"
    assert game.view(0)["zones"]["bank"][1][:-1] == [None] * 6


# ---------------------------------------------------------------------------
# Withdrawal 1: a face-up $100 and exactly $100 more of face-up bills -> $200
# ---------------------------------------------------------------------------


def three_stack_game() -> Any:
    """b1 $100; b2 a lone $50; b3 the cascade $20>$10>$5; b5 the cascade $10>$5; b4 and b6 show a $1."""
    game = new_game([["$100"], ["$50"], ["$20"], ["$1", "$5", "$10"], ["$10"], ["$1", "$5"]])
    play(game, "build:b4>b3", "build:b6>b3", "build:b4>b5")
    assert [face_up_run(game, k) for k in range(1, 7)] == [
        ["$100"], ["$50"], ["$20", "$10", "$5"], ["$1"], ["$10", "$5"], ["$1"]]
    return game


def test_a_100_takes_a_lone_50_a_20_10_5_and_a_10_5_from_three_stacks_for_200() -> None:
    # The seed's own example: "you play a $100 and take a lone $50 from one stack, and a
    # $20>$10>$5 cascade plus a $10>$5 cascade from two other stacks and put $200 in your wallet".
    game = three_stack_game()
    assert "withdraw:b1+b2+b3x3+b5x2>w" in texts(game)
    sizes = [len(stack(game, k)) for k in range(1, 7)]
    play(game, "withdraw:b1+b2+b3x3+b5x2>w")
    assert total(game) == 200
    assert Counter(wallet(game)) == Counter(["$100", "$50", "$20", "$10", "$5", "$10", "$5"])
    assert wallet_value(game) == 200
    assert [len(stack(game, k)) for k in range(1, 7)] == [sizes[0] - 1, sizes[1] - 1, sizes[2] - 3, sizes[3],
                                                           sizes[4] - 2, sizes[5]]
    for k in (1, 2, 3, 5):  # every uncovered bill turned up
        assert faces(game, k)[-1] and not any(faces(game, k)[:-1])


def test_a_50_takes_a_20_10_5_and_a_10_5_for_100() -> None:
    # The seed's example: "you play a $50 and take a $20>$10>$5 cascade plus a $10>$5 cascade".
    game = three_stack_game()
    play(game, "withdraw:b2+b3x3+b5x2>w")
    assert total(game) == 100
    assert Counter(wallet(game)) == Counter(["$50", "$20", "$10", "$5", "$10", "$5"])
    assert face_up_run(game, 1) == ["$100"]


def test_withdrawals_in_the_three_stack_position_are_exactly_the_two_exact_sums() -> None:
    game = three_stack_game()
    assert texts(game, "withdraw") == {"withdraw:b1+b2+b3x3+b5x2>w", "withdraw:b2+b3x3+b5x2>w"}


def test_a_100_can_take_another_100() -> None:
    game = new_game([["$100"], ["$100"], ["$1"], ["$1"], ["$1"], ["$1"]])
    assert texts(game, "withdraw") == {"withdraw:b1+b2>w", "withdraw:b2+b1>w"}
    play(game, "withdraw:b1+b2>w")
    assert total(game) == 200
    assert wallet(game) == ["$100", "$100"]


def test_a_50_can_take_another_50() -> None:
    game = new_game([["$50"], ["$50"], ["$1"], ["$1"], ["$1"], ["$1"]])
    assert texts(game, "withdraw") == {"withdraw:b1+b2>w", "withdraw:b2+b1>w"}
    play(game, "withdraw:b2+b1>w")
    assert total(game) == 100
    assert wallet(game) == ["$50", "$50"]


def test_withdrawals_take_exactly_the_takers_value_in_any_combination_of_stacks() -> None:
    # $100 and two $50s; $20, $20, $10. Every exact sum, and nothing else.
    game = new_game([["$100"], ["$50"], ["$20"], ["$20"], ["$10"], ["$50"]])
    assert texts(game, "withdraw") == {
        "withdraw:b1+b2+b6>w",          # $100: $50 + $50
        "withdraw:b1+b2+b3+b4+b5>w",    # $100: $50 + $20 + $20 + $10
        "withdraw:b1+b3+b4+b5+b6>w",
        "withdraw:b2+b6>w",             # $50: the other $50
        "withdraw:b2+b3+b4+b5>w",       # $50: $20 + $20 + $10
        "withdraw:b6+b2>w",
        "withdraw:b6+b3+b4+b5>w",
    }


def test_a_100_or_50_cannot_withdraw_less_or_more_than_its_value() -> None:
    game = new_game([["$100"], ["$50"], ["$20"], ["$5"], ["$1"], ["$1"]])
    # $50+$20+$5 = 75 for the $100 and $20+$5 = 25 for the $50: no exact sum.
    assert texts(game, "withdraw") == set()
    for text in ("withdraw:b1+b2>w", "withdraw:b1+b2+b3+b4>w", "withdraw:b2+b3+b4>w", "withdraw:b2+b1>w"):
        with pytest.raises(IllegalMoveError):
            game.parse_move(text)


def test_bills_below_50_cannot_take_money() -> None:
    game = new_game([["$20"], ["$20"], ["$10"], ["$10"], ["$5"], ["$5"]])
    assert texts(game, "withdraw") == set()
    assert texts(game, "combine") == set()


def test_you_may_take_as_much_or_as_little_of_each_cascade_as_you_like() -> None:
    # b2 is $20>$10>$5: the $50 may take just its $10>$5, or all of it.
    game = scripted_cascade_game()
    assert texts(game, "withdraw") == {"withdraw:b1+b2x2+b3+b4+b5>w", "withdraw:b1+b2x3+b4+b5>w"}
    play(game, "withdraw:b1+b2x2+b3+b4+b5>w")
    assert face_up_run(game, 2) == ["$20"]
    assert total(game) == 100


def test_tails_must_include_the_top_bill_20_10_cannot_be_taken_leaving_the_5() -> None:
    # b1 $50, b2 $20>$10>$5, b3 $20: $20 + $10 from b2 and the $20 of b3 would be $50, but
    # the $5 blocks: no withdrawal at all.
    game = new_game([["$50"], ["$20"], ["$20"], ["$1", "$10"], ["$1", "$5"], ["$1"]])
    play(game, "build:b4>b2", "build:b5>b2")
    assert face_up_run(game, 2) == ["$20", "$10", "$5"]
    assert [face_up_run(game, k) for k in (1, 3, 4, 5, 6)] == [["$50"], ["$20"], ["$1"], ["$1"], ["$1"]]
    assert texts(game, "withdraw") == set()


def test_a_stack_ending_in_a_1_gives_nothing_to_a_withdrawal() -> None:
    game = new_game([["$50"], ["$20"], ["$20"], ["$5"], ["$5"], ["$1", "$1"]])
    assert texts(game, "withdraw") == {"withdraw:b1+b2+b3+b4+b5>w"}  # $20 + $20 + $5 + $5
    play(game, "build:b6>b4")  # b4 is now $5>$1
    assert face_up_run(game, 4) == ["$5", "$1"]
    assert texts(game, "withdraw") == set()
    assert not any("b4" in m for m in texts(game, "withdraw"))


def test_a_1_blocks_every_time_even_when_the_tails_would_sum_exactly() -> None:
    # b1 $50; b2, b3, b4 each $10>$5>$1 ($16); b5 and b6 each a lone $1: $16*3 + $1 + $1 = $50.
    game = new_game([["$50"], ["$10"], ["$10"], ["$10"], ["$1", "$1", "$1", "$1"], ["$1", "$5", "$5", "$5"]])
    play(game, "build:b6>b2", "build:b6>b3", "build:b6>b4", "build:b5>b2", "build:b5>b3", "build:b5>b4")
    runs = [face_up_run(game, k) for k in range(2, 7)]
    assert runs == [["$10", "$5", "$1"]] * 3 + [["$1"], ["$1"]]
    assert sum(VALUE[c] for run in runs for c in run) == 50
    assert texts(game, "withdraw") == set()


def test_the_taking_100_must_be_open_not_under_a_cascade() -> None:
    # b1 is $100>$50: the $50 on it is open and may withdraw, the $100 under it may not.
    game = new_game([["$100"], ["$1"], ["$50", "$50", "$50"], ["$20"], ["$20"], ["$10"]])
    play(game, "build:b3>b1")
    assert face_up_run(game, 1) == ["$100", "$50"]
    # The buried $100 would take b3's $50 + $20 + $20 + $10, or combine with b2's $1.
    assert texts(game, "withdraw") == {
        "withdraw:b1+b3>w", "withdraw:b1+b4+b5+b6>w",   # the $50 on top of b1
        "withdraw:b3+b1>w", "withdraw:b3+b4+b5+b6>w",   # b3's $50 (taking b1's $50 alone)
    }
    assert texts(game, "combine") == set()
    play(game, "withdraw:b1+b4+b5+b6>w")
    assert total(game) == 100  # the $50 withdrew, not the $100
    assert face_up_run(game, 1) == ["$100"]


def test_a_100_uncovered_again_is_open_and_may_withdraw_and_combine() -> None:
    game = new_game([["$100"], ["$1"], ["$50", "$50", "$50"], ["$20"], ["$20"], ["$10"]])
    play(game, "build:b3>b1", "withdraw:b3+b1>w")
    assert face_up_run(game, 1) == ["$100"] and face_up_run(game, 3) == ["$50"]
    assert "combine:b1+b2>w" in texts(game)
    assert "withdraw:b1+b3+b4+b5+b6>w" in texts(game)
    play(game, "withdraw:b1+b3+b4+b5+b6>w")
    assert total(game) == 100 + 200


def test_a_withdrawal_moves_the_taker_and_the_taken_bills_to_the_wallet() -> None:
    game = three_stack_game()
    bank_before = Counter(c for k in range(1, 7) for c in stack(game, k))
    play(game, "withdraw:b1+b2+b3x3+b5x2>w")
    bank_after = Counter(c for k in range(1, 7) for c in stack(game, k))
    assert bank_before - bank_after == Counter(wallet(game))
    assert sum(bank_after.values()) + len(wallet(game)) == 48


# ---------------------------------------------------------------------------
# Withdrawal 3: an open $100 and a $1 -> $101
# ---------------------------------------------------------------------------


def test_an_open_100_and_an_open_1_combine_for_101() -> None:
    game = new_game([["$100"], ["$5", "$1"], ["$20"], ["$20"], ["$50"], ["$10"]])
    assert texts(game, "combine") == {"combine:b1+b2>w"}
    play(game, "combine:b1+b2>w")
    assert total(game) == 101
    assert sorted(wallet(game)) == ["$1", "$100"]
    assert wallet_value(game) == 101
    assert faces(game, 1)[-1] and faces(game, 2)[-1] and stack(game, 2)[-1] == "$5"


def test_a_100_combines_with_exactly_one_1_each_time() -> None:
    game = new_game([["$100"], ["$1"], ["$1"], ["$20"], ["$20"], ["$20"]])
    assert texts(game, "combine") == {"combine:b1+b2>w", "combine:b1+b3>w"}
    assert all(len(m.selection) == 1 for m in game.legal_moves() if m.name == "combine")
    play(game, "combine:b1+b3>w")
    assert total(game) == 101 and len(wallet(game)) == 2


def test_combine_needs_a_100_and_a_1() -> None:
    game = new_game([["$50"], ["$1"], ["$100"], ["$5"], ["$20"], ["$20"]])
    assert texts(game, "combine") == {"combine:b3+b2>w"}  # not the $50, not the $5


def test_a_100_at_the_start_of_a_cascade_cannot_combine_with_a_1() -> None:
    # "$100>$50>$20: you are NOT allowed to pull the $100 out ... to combine it with a $1".
    game = new_game([["$100"], ["$1"], ["$50"], ["$20"], ["$5"], ["$5"]])
    assert texts(game, "combine") == {"combine:b1+b2>w"}
    play(game, "build:b3>b1", "build:b4>b1")
    assert face_up_run(game, 1) == ["$100", "$50", "$20"]
    assert texts(game, "combine") == set()
    with pytest.raises(IllegalMoveError):
        game.parse_move("combine:b1+b2>w")


# ---------------------------------------------------------------------------
# The empty position: only a $100, never more than six stacks
# ---------------------------------------------------------------------------


def emptied_game() -> Any:
    """Empty stack 6 by play; b4 ends up $100>$50>$20>$10>$5 over a face-down $20; b5 shows a $100."""
    game = new_game([
        ["$10"],
        ["$20"],
        ["$50"],
        ["$20", "$100"],
        ["$100", "$100", "$100", "$100", "$1"],
        ["$1", "$1", "$1", "$100", "$50", "$20", "$10", "$5"],
    ])
    # The cascade of b6 leaves bill by bill: $5 onto $10, $10 onto $20, $20 onto $50, $50 onto $100.
    play(game, "build:b6>b1", "build:b6>b2", "build:b6>b3", "build:b6>b4")
    # Gather a long cascade on b4's $100.
    play(game, "build:b3>b4", "build:b2>b4", "build:b1>b4")
    assert face_up_run(game, 4) == ["$100", "$50", "$20", "$10", "$5"]
    # b6's $100 and its three $1s leave by combining with b5's $1 and $100s.
    play(game, "combine:b6+b5>w", "combine:b5+b6>w", "combine:b5+b6>w", "combine:b5+b6>w")
    assert stack(game, 6) == []
    assert total(game) == 404
    assert face_up_run(game, 5) == ["$100"] and len(stack(game, 5)) == 4
    assert [face_up_run(game, k) for k in (1, 2, 3)] == [["$10"], ["$20"], ["$50"]]
    return game


def test_an_emptied_stack_leaves_an_empty_position() -> None:
    game = emptied_game()
    assert len(game.view(0)["zones"]["bank"]) == 6
    assert game.view(0)["zones"]["bank"][5] == []
    assert not game.is_over


def test_the_empty_position_takes_a_100_with_the_cascade_on_it_and_nothing_else() -> None:
    game = emptied_game()
    to_b6 = {m for m in texts(game) if m.endswith(">b6")}
    assert to_b6 == {"open_position:b4x5>b6", "open_position:b5>b6"}
    assert not any(m.startswith("build:") and m.endswith(">b6") for m in texts(game))
    play(game, "open_position:b4x5>b6")
    assert stack(game, 6) == ["$100", "$50", "$20", "$10", "$5"]
    assert all(faces(game, 6))
    assert stack(game, 4)[-1] == "$20" and faces(game, 4)[-1]  # the uncovered bill turns up


def test_a_bill_other_than_a_100_never_opens_a_position() -> None:
    game = emptied_game()
    for text in ("open_position:b4x4>b6", "open_position:b4>b6", "open_position:b1>b6",
                 "build:b1>b6", "build:b4>b6", "open_position:b3>b6"):
        with pytest.raises(IllegalMoveError):
            game.parse_move(text)
    opens = [m for m in game.legal_moves() if m.name == "open_position"]
    assert opens
    for m in opens:
        assert game.rules.deck.cards[game.state.piles[m.src][-m.count]]["value"] == 100


def test_a_player_may_leave_the_position_empty_and_play_on() -> None:
    game = emptied_game()
    assert texts(game) - texts(game, "open_position")  # other moves remain
    play(game, "build:b4>b1")  # the $5 onto the $10 of b1
    assert stack(game, 6) == []
    assert texts(game, "open_position")


def test_the_bank_never_holds_more_than_six_stacks() -> None:
    game = emptied_game()
    play(game, "open_position:b4x5>b6")
    assert all(stack(game, k) for k in range(1, 7))
    assert texts(game, "open_position") == set()  # b5's open $100 has nowhere to go
    assert face_up_run(game, 5) == ["$100"]
    assert len(game.view(0)["zones"]["bank"]) == 6


def test_no_position_opens_while_all_six_stacks_stand() -> None:
    for seed in range(6):
        game = rules().new_game(seed=seed, max_moves=400)
        rng = random.Random(seed)
        while not game.is_over:
            bank = [game.state.piles[p] for p in game.rules.zones["bank"].piles]
            opens = [m for m in game.legal_moves() if m.name == "open_position"]
            if all(bank):
                assert opens == []
            for m in opens:
                assert game.state.piles[m.dst] == []
            game.apply(rng.choice(game.legal_moves()))
            assert sum(1 for p in game.rules.zones["bank"].piles if game.state.piles[p]) <= 6


# ---------------------------------------------------------------------------
# The end: when no move is possible; score the wallet
# ---------------------------------------------------------------------------


def test_the_game_is_over_when_no_move_is_possible() -> None:
    game = new_game(DEAD)
    assert game.legal_moves() == []
    assert game.is_over
    assert game.outcome == "over"
    assert "no move" in game.reason
    assert game.scores() == [0]
    assert game.label() == "Poor House"


def test_the_game_goes_on_while_a_move_remains_and_ends_when_none_does() -> None:
    game = new_game([["$1", "$5"], ["$1", "$1"], ["$1"], ["$1"], ["$1"], ["$1"]])
    assert texts(game) == {f"build:b{k}>b1" for k in range(2, 7)}  # a $1 onto the only $5
    assert not game.is_over and game.outcome is None
    play(game, "build:b2>b1")
    # The $5 is covered and every stack shows a $1: the bank is closed.
    assert face_up_run(game, 1) == ["$5", "$1"] and face_up_run(game, 2) == ["$1"]
    assert game.legal_moves() == []
    assert game.is_over and game.outcome == "over"
    with pytest.raises(IllegalMoveError):
        game.parse_move("build:b3>b1")


def test_the_last_combination_closes_the_bank_with_101_poor_house() -> None:
    game = new_game([["$1", "$100"], ["$1", "$1"], ["$1"], ["$1"], ["$1"], ["$1"]])
    assert texts(game) == {f"combine:b1+b{k}>w" for k in range(2, 7)}
    play(game, "combine:b1+b2>w")
    assert game.is_over and game.outcome == "over"
    assert game.scores() == [101]
    assert game.label() == "Poor House"


def test_a_game_closing_with_500_is_middle_class() -> None:
    game = new_game([["$1", "$100", "$100"], ["$1", "$100", "$100"], ["$1", "$50"], ["$1", "$50"],
                     ["$1"], ["$1"]])
    play(game, "withdraw:b1+b2>w", "withdraw:b1+b2>w")
    assert total(game) == 400 and not game.is_over
    play(game, "withdraw:b3+b4>w")
    assert game.is_over and game.outcome == "over"
    assert game.scores() == [500] and wallet_value(game) == 500
    assert game.label() == "Middle Class"


def test_a_game_closing_with_1000_is_upper_crust() -> None:
    game = new_game([["$1", "$100", "$100"]] * 4 + [["$1", "$50", "$50"]] * 2)
    play(game, "withdraw:b1+b2>w", "withdraw:b1+b2>w", "withdraw:b3+b4>w", "withdraw:b3+b4>w")
    assert total(game) == 800 and not game.is_over
    assert game.label() == "Middle Class"
    play(game, "withdraw:b5+b6>w", "withdraw:b5+b6>w")
    assert game.is_over and game.outcome == "over"
    assert game.scores() == [1000] and wallet_value(game) == 1000
    assert game.label() == "Upper Crust"


@pytest.mark.parametrize(("amount", "label"), [
    (0, "Poor House"), (101, "Poor House"), (400, "Poor House"), (498, "Poor House"),
    (500, "Middle Class"), (808, "Middle Class"), (998, "Middle Class"),
    (1000, "Upper Crust"), (1101, "Upper Crust"), (1488, "Upper Crust"),
])
def test_labels_poor_house_to_498_middle_class_500_to_998_upper_crust_from_1000(amount: int, label: str) -> None:
    # $498 and $998 cannot be reached by play (every total is 200a + 100b + 101c with c <= 8),
    # so the wallet total is set directly.
    game = new_game(DEAD)
    set_wallet_total(game, amount)
    assert game.scores() == [amount]
    assert game.label() == label


def test_the_score_is_the_wallet_total() -> None:
    game = three_stack_game()
    play(game, "withdraw:b1+b2+b3x3+b5x2>w")
    assert game.scores() == [game.variable("wallet_total")] == [200]
    assert game.view(0)["variables"]["wallet_total"] == 200


def test_the_move_cap_ends_a_game_with_outcome_limit() -> None:
    # Reading (GAMES.md / ruleset): a game stops after 1000 moves, or the cap given to new_game.
    assert rules().max_moves == 1000
    assert new_game(DEAD).max_moves == 1000
    game = new_game([["$1", "$100", "$100"]] * 4 + [["$1", "$50", "$50"]] * 2, max_moves=3)
    play(game, "withdraw:b1+b2>w", "withdraw:b1+b2>w")
    assert not game.is_over
    play(game, "withdraw:b3+b4>w")
    assert game.is_over and game.outcome == "limit"
    assert len(game.history) == 3 and game.legal_moves() == []
    assert game.scores() == [600] and game.label() == "Middle Class"


def test_the_move_cap_ends_a_shuttling_game_with_outcome_limit() -> None:
    game = new_game([["$5"], ["$5"], ["$1"], ["$20"], ["$20"], ["$20"]], max_moves=4)
    play(game, "build:b3>b1", "build:b1>b2", "build:b2>b1")
    assert not game.is_over
    play(game, "build:b1>b2")
    assert game.is_over and game.outcome == "limit"
    assert game.legal_moves() == []


def shuttle(game: Any, times: int) -> None:
    """Move the $1 lying on b1 or b2 to the other one, ``times`` times."""
    for _ in range(times):
        play(game, "build:b1>b2" if stack(game, 1)[-1] == "$1" else "build:b2>b1")


def test_shuttling_a_bill_leaves_the_bank_open_until_the_1000_move_cap() -> None:
    # GAMES.md: "End: when no move is possible"; the seed: "Continue playing until it is
    # impossible to make any more moves". Shuttling a $1 between two $5s is always possible,
    # so only the move cap ends this game.
    game = new_game([["$5"], ["$5"], ["$1"], ["$20"], ["$20"], ["$20"]])
    play(game, "build:b3>b1")
    n = 1
    while not game.is_over and n < 1000:
        assert game.legal_moves(), "the game stopped with no end reached"
        shuttle(game, 1)
        n += 1
    assert (n, game.outcome) == (1000, "limit"), game.reason


def test_the_bank_stays_open_while_a_withdrawal_is_possible() -> None:
    # Shuttling a $1 back and forth must not close the bank while the two open $50s can
    # still take each other: the game is over only when no move is possible.
    game = new_game([["$5"], ["$5"], ["$1"], ["$50"], ["$50"], ["$20"]])
    play(game, "build:b3>b1")
    shuttle(game, 4)  # the position after the first move comes back twice
    assert not game.is_over, game.reason
    assert "withdraw:b4+b5>w" in texts(game)
    play(game, "withdraw:b4+b5>w")
    assert total(game) == 100


# ---------------------------------------------------------------------------
# Undo and the wallet total
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("move", ["withdraw:b1+b2+b3x3+b5x2>w", "withdraw:b2+b3x3+b5x2>w"])
def test_undo_of_a_withdrawal_restores_everything(move: str) -> None:
    game = three_stack_game()
    before = snapshot(game)
    play(game, move)
    assert snapshot(game) != before
    game.undo()
    assert snapshot(game) == before
    play(game, move)  # and it can be played again
    assert total(game) in (100, 200)


def test_undo_of_a_combination_an_opening_and_a_build_restores_everything() -> None:
    game = emptied_game()
    for move in ("open_position:b4x5>b6", "build:b4>b1", "open_position:b5>b6"):
        before = snapshot(game)
        play(game, move)
        game.undo()
        assert snapshot(game) == before
    game = new_game([["$100"], ["$1"], ["$1"], ["$20"], ["$20"], ["$20"]])
    before = snapshot(game)
    play(game, "combine:b1+b2>w")
    game.undo()
    assert snapshot(game) == before


def test_undo_of_the_closing_move_reopens_the_bank() -> None:
    game = new_game([["$1", "$100"], ["$1", "$1"], ["$1"], ["$1"], ["$1"], ["$1"]])
    before = snapshot(game)
    play(game, "combine:b1+b2>w")
    assert game.is_over
    game.undo()
    assert not game.is_over and game.outcome is None
    assert snapshot(game) == before


@pytest.mark.parametrize("seed", range(10))
def test_wallet_total_is_the_face_value_of_the_bills_in_the_wallet_after_every_move(seed: int) -> None:
    game = rules().new_game(seed=seed)
    rng = random.Random(seed)
    withdrawals = 0
    while not game.is_over:
        moves = game.legal_moves()
        takes = [m for m in moves if m.name in ("withdraw", "combine")]
        move = rng.choice(takes) if takes and rng.random() < 0.7 else rng.choice(moves)
        before = total(game)
        game.apply(move)
        assert total(game) == wallet_value(game)
        if move.name == "withdraw":
            withdrawals += 1
            taker = game.rules.deck.cards[game.state.piles[wallet_pile(game)][-sum(n for _, n in move.selection) - 1]]
            assert total(game) - before == 2 * taker["value"]
        elif move.name == "combine":
            assert total(game) - before == 101
        else:
            assert total(game) == before
    assert game.outcome in ("over", "limit")
