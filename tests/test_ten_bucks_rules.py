"""Ten Bucks, rule by rule: one or more tests per sentence of the seed text
(shared/seeds/003_cfa1118029310021.txt) and per reading in shared/GAMES.md (section 4) and
in the rulesets' comments, for the base game (rulesets/ten-bucks.yaml) and its expansions
Wild Wagers (and its "worth 2" variant), Zero Risk, Bad Investment and all three together.

Every test starts from an explicit deal (see ``make_deal``): each seat's hand is given in
full, and the leftovers (the bills setup puts on the stacks) after them. Seats are 0-based in
the engine (``current_player``, ``winners()``, the helpers' ``p``) and 1-based in move texts
(``h@2:3>s3``: seat 2 plays a 3 from its hand to the stack of 3s; ``s3>c3@2``: seat 2 claims
the stack of 3s; ``force seat2``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest

from cardrules import IllegalMoveError, load_ruleset
from helpers import play, texts

BASE = "ten-bucks"
WILD = "ten-bucks-wild-wagers"
WILD_TWO = "ten-bucks-wild-two"
ZERO = "ten-bucks-zero-risk"
BAD = "ten-bucks-bad-investment"
ALL = "ten-bucks-expansions"

WON_10 = "a seat has claimed $10 or more"
WON_ZEROS = "a seat has claimed ten $0 bills"
HANDS_OUT = "the hands ran out; the highest total wins"


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------


@lru_cache(maxsize=None)
def ruleset(name: str = BASE, **options: Any) -> Any:
    return load_ruleset(name, options)


def make_deal(hands: Sequence[Sequence[str]], leftovers: Sequence[str] = ()) -> list[str]:
    """The deal (top of the deck first) that gives seat i the bills ``hands[i]`` (in that order)
    and leaves ``leftovers`` for the stacks: setup deals one bill per seat per round, seat 1
    first, and what is left under that goes to the stacks."""
    rounds = len(hands[0])
    assert all(len(hand) == rounds for hand in hands), "setup deals the hands evenly"
    assert len(leftovers) < len(hands), "fewer leftovers than seats"
    return [hand[r] for r in range(rounds) for hand in hands] + list(leftovers)


def new_game(hands: Sequence[Sequence[str]], leftovers: Sequence[str] = (), name: str = BASE,
             **options: Any) -> Any:
    rules = ruleset(name, **options)
    deal = make_deal(hands, leftovers)
    in_play = sorted(rules.deck.codes[c] for c in rules.deck_cards[len(hands)])
    assert sorted(deal) == in_play, f"the deal must list exactly the bills in play: {in_play}"
    game = rules.new_game(deal=deal, players=len(hands))
    assert [hand(game, p) for p in range(len(hands))] == [list(h) for h in hands]
    return game


def named(game: Any, name: str) -> list[str]:
    """The card codes of the pile called ``name`` (``s3``, ``h@2``, ``c3@2``, ``out``), bottom first."""
    codes = game.rules.deck.codes
    return [codes[c] for c in game.state.piles[game.rules.pile_names.index(name)]]


def stack(game: Any, value: int) -> list[str]:
    return named(game, f"s{value}")


def hand(game: Any, p: int) -> list[str]:
    return named(game, f"h@{p + 1}")


def claimed(game: Any, p: int, value: int) -> list[str]:
    return named(game, f"c{value}@{p + 1}")


def stacks(game: Any) -> dict[int, list[str]]:
    """The started stacks, by number."""
    return {v: stack(game, v) for v in range(-2, 8) if stack(game, v)}


def faces_up(game: Any, name: str) -> list[bool]:
    return [bool(game.state.up[c]) for c in game.state.piles[game.rules.pile_names.index(name)]]


def seen_hand(game: Any, viewer: int, p: int) -> list[str | None]:
    """Seat p's hand as seat ``viewer`` sees it (None: a hidden bill)."""
    return game.view(viewer)["zones"]["hand"][p]


def money(game: Any) -> list[int]:
    return [game.variable("money", p) for p in range(game.players)]


def claims(game: Any) -> list[int]:
    return [game.variable("claims", p) for p in range(game.players)]


def turn(game: Any) -> tuple[int, str]:
    """Who must act, and in which phase."""
    return game.current_player, game.phase


def claim_texts(game: Any) -> set[str]:
    return texts(game, "claim")


def forces(game: Any) -> set[str]:
    return texts(game, "force")


# ---------------------------------------------------------------------------
# Setup: bills 1..N, dealt evenly, leftovers face up on their stacks, seat 1 starts
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("copies", [3, 6, 10])
def test_setup_uses_the_bills_1_to_the_number_of_players_copies_of_each(players: int, copies: int) -> None:
    rules = ruleset(BASE, copies=copies)
    bills = Counter(rules.deck.codes[c] for c in rules.deck_cards[players])
    assert bills == {str(v): copies for v in range(1, players + 1)}


def test_setup_has_six_copies_of_each_bill_by_default() -> None:
    rules = ruleset(BASE)
    assert Counter(rules.deck.codes[c] for c in rules.deck_cards[4]) == {"1": 6, "2": 6, "3": 6, "4": 6}
    assert rules.new_game(seed=1).players == 4  # 4 players by default


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_setup_deals_every_bill_evenly_one_round_at_a_time_from_seat_1(players: int) -> None:
    rules = ruleset(BASE, copies=3)
    for seed in (1, 2):
        game = rules.new_game(seed=seed, players=players)
        deal = game.deal_order
        for p in range(players):
            assert hand(game, p) == deal[p::players]  # deal[0] to seat 1, deal[1] to seat 2, ...
            assert faces_up(game, f"h@{p + 1}") == [False] * 3
        # 1..N with `copies` of each divides evenly: the base game never has leftovers
        assert stacks(game) == {} and named(game, "out") == [] and named(game, "deck") == []


def test_setup_hands_are_hidden_from_the_other_seats() -> None:
    game = new_game([["1", "2", "2"], ["1", "1", "2"]], copies=3)
    assert seen_hand(game, 0, 0) == ["1", "2", "2"]
    assert seen_hand(game, 0, 1) == [None, None, None]
    assert seen_hand(game, 1, 0) == [None, None, None]
    assert seen_hand(game, 1, 1) == ["1", "1", "2"]


def test_setup_puts_the_leftovers_face_up_on_the_stacks_of_their_numbers() -> None:
    # Zero Risk, 3 players: 3 each of 1..3 and eight $0 = 17 bills, 5 a seat, 2 left over.
    game = new_game([["0", "0", "0", "1", "1"], ["0", "0", "1", "2", "3"], ["0", "0", "2", "3", "3"]],
                    leftovers=["0", "2"], name=ZERO, copies=3, zeros=8)
    assert stacks(game) == {0: ["0"], 2: ["2"]}
    assert faces_up(game, "s0") == [True] and faces_up(game, "s2") == [True]
    assert game.view(1)["zones"]["stack"][2] == ["0"] and game.view(1)["zones"]["stack"][4] == ["2"]
    assert [len(hand(game, p)) for p in range(3)] == [5, 5, 5]


def test_setup_puts_a_two_number_leftover_on_its_lower_number() -> None:
    # Bad Investment, 2 players, one of each -2, -1, 7: 11 bills, one left over.
    game = new_game([["1", "1", "1", "-2", "7"], ["2", "2", "2", "-1", "1/2"]],
                    leftovers=["1/2"], name=BAD, copies=3, weird=1)
    assert stacks(game) == {1: ["1/2"]}
    assert faces_up(game, "s1") == [True]


def test_setup_puts_a_wild_leftover_on_the_lowest_stack() -> None:
    # Wild Wagers, 4 players, three wild bills: 15 bills, three left over.
    game = new_game([["1", "1", "1"], ["2", "2", "W"], ["3", "3", "3"], ["4", "4", "W"]],
                    leftovers=["4", "W", "2"], name=WILD, copies=3, wilds=3)
    assert stacks(game) == {2: ["2", "W"], 4: ["4"]}
    assert faces_up(game, "s2") == [True, True]
    assert named(game, "out") == []


def test_setup_puts_a_wild_leftover_out_of_play_when_no_stack_is_started() -> None:
    # Wild Wagers, 2 players, three wild bills: 9 bills, one left over, and it is wild.
    game = new_game([["1", "1", "1", "W"], ["2", "2", "2", "W"]], leftovers=["W"], name=WILD, copies=3, wilds=3)
    assert stacks(game) == {}
    assert named(game, "out") == ["W"]
    assert game.view(1)["zones"]["out"] == ["W"]
    # out of play for good: no move touches it
    assert texts(game) == {"h@1:1>s1"}


@pytest.mark.parametrize("name", [BASE, WILD, ZERO, BAD, ALL])
def test_setup_seat_1_starts_with_its_play(name: str) -> None:
    for seed in (1, 2, 3):
        game = ruleset(name).new_game(seed=seed, players=3)
        assert turn(game) == (0, "play")
        assert all(m.name == "play" for m in game.legal_moves())


# ---------------------------------------------------------------------------
# A turn: you must play a bill onto the stack of its number, then you may claim a stack
# ---------------------------------------------------------------------------


def three_of_a_kind() -> Any:
    """3 players, 3 copies: every seat holds 1, 2, 3."""
    return new_game([["1", "2", "3"]] * 3, copies=3)


def test_turn_starts_with_a_play_no_claim_or_pass_before() -> None:
    game = three_of_a_kind()
    assert texts(game) == {"h@1:1>s1", "h@1:2>s2", "h@1:3>s3"}
    play(game, "h@1:1>s1", "pass")
    assert turn(game) == (1, "play")
    # the stack of 1s lies there and seat 2 may claim it, but only after playing
    assert texts(game) == {"h@2:1>s1", "h@2:2>s2", "h@2:3>s3"}
    with pytest.raises(IllegalMoveError):
        game.parse_move("pass")
    with pytest.raises(IllegalMoveError):
        game.parse_move("s1>c1@2")
    play(game, "h@2:2>s2")
    assert "s1>c1@2" in texts(game)


def test_turn_a_bill_goes_on_the_stack_of_its_number_or_starts_it() -> None:
    game = three_of_a_kind()
    play(game, "h@1:2>s2")
    assert stacks(game) == {2: ["2"]}
    assert faces_up(game, "s2") == [True]
    assert hand(game, 0) == ["1", "3"]
    play(game, "pass")
    # each bill has exactly one place: the stack of its number (started or not)
    assert texts(game) == {"h@2:1>s1", "h@2:2>s2", "h@2:3>s3"}
    play(game, "h@2:2>s2")
    assert stacks(game) == {2: ["2", "2"]}


def test_turn_then_the_seat_may_claim_one_whole_stack() -> None:
    game = three_of_a_kind()
    play(game, "h@1:1>s1", "pass", "h@2:1>s1", "pass")
    assert stack(game, 1) == ["1", "1"]
    play(game, "h@3:2>s2")
    assert turn(game) == (2, "claim")
    assert texts(game) == {"s1>c1@3", "pass"}
    play(game, "s1>c1@3")
    assert claimed(game, 2, 1) == ["1", "1"]  # the whole stack
    assert stacks(game) == {2: ["2"]}
    assert money(game) == [0, 0, 2] and claims(game) == [0, 0, 1]
    assert turn(game) == (0, "play")  # one claim a turn: the turn has passed


def test_turn_pass_claims_nothing_and_the_turn_goes_on() -> None:
    game = three_of_a_kind()
    play(game, "h@1:1>s1", "pass", "h@2:2>s2")
    play(game, "pass")
    assert stacks(game) == {1: ["1"], 2: ["2"]}
    assert money(game) == [0, 0, 0] and claims(game) == [0, 0, 0]
    assert turn(game) == (2, "play")


def test_turn_order_goes_round_the_table() -> None:
    game = three_of_a_kind()
    seen = []
    for bill in ["1", "2", "3", "2", "1", "1"]:
        seen.append(turn(game))
        play(game, f"h@{game.current_player + 1}:{bill}>s{bill}", "pass")
    assert seen == [(0, "play"), (1, "play"), (2, "play")] * 2


# ---------------------------------------------------------------------------
# Diversity: you can't claim a number you claimed before, or the one you just played
# ---------------------------------------------------------------------------


def test_diversity_refuses_a_number_claimed_before() -> None:
    game = new_game([["1", "1", "2"], ["2", "3", "3"], ["3", "2", "1"]], copies=3)
    play(game, "h@1:1>s1", "pass")
    play(game, "h@2:2>s2", "s1>c1@2")  # seat 2 claims the 1s
    play(game, "h@3:3>s3", "s2>c2@3")  # seat 3 claims the 2s
    play(game, "h@1:1>s1", "s3>c3@1")  # seat 1 claims the 3s
    assert claims(game) == [1, 1, 1]  # Slow Down allows everyone
    play(game, "h@2:3>s3")
    assert stacks(game) == {1: ["1"], 3: ["3"]}
    assert claim_texts(game) == set()  # the 1s: claimed before; the 3s: just played
    play(game, "pass")
    play(game, "h@3:2>s2")
    assert claim_texts(game) == {"s1>c1@3", "s3>c3@3"}  # seat 3 never claimed 1 or 3


def test_diversity_refuses_the_number_just_played() -> None:
    game = three_of_a_kind()
    play(game, "h@1:1>s1", "pass")
    play(game, "h@2:1>s1")
    assert claim_texts(game) == set()  # the only stack is the 1s, which seat 2 just played to
    assert texts(game) == {"pass"}
    play(game, "pass", "h@3:2>s2")
    assert claim_texts(game) == {"s1>c1@3"}  # seat 3 did not play a 1: it may


def test_diversity_just_played_means_this_turn_only() -> None:
    game = three_of_a_kind()
    play(game, "h@1:1>s1", "pass", "h@2:2>s2", "pass", "h@3:3>s3", "pass")
    play(game, "h@1:2>s2")
    # seat 1 played a 1 on its last turn and a 2 now: the 1s are open to it, the 2s not
    assert claim_texts(game) == {"s1>c1@1", "s3>c3@1"}


def test_diversity_just_played_does_not_bind_a_forced_seat() -> None:
    game = new_game([["3", "1", "2"], ["3", "1", "2"], ["3", "1", "2"]], copies=3)
    play(game, "h@1:3>s3", "pass")
    play(game, "h@2:3>s3")  # 3 + 3 = 6: Five Max
    # seat 2 just played a 3 (and seat 1 did on its own last turn): only seat 2 is bound
    assert forces(game) == {"force seat1", "force seat3"}
    play(game, "force seat1")
    assert turn(game) == (0, "forced")
    play(game, "s3>c3@1")
    assert money(game) == [6, 0, 0] and claimed(game, 0, 3) == ["3", "3"]


def test_diversity_binds_the_forced_seat_by_its_claims_before() -> None:
    # Seat 2 has claimed 2s before; when seat 3 makes the 2s worth 6, seat 2 cannot be forced.
    game = new_game([["1", "2", "2", "2", "3"], ["2", "3", "3", "3", "1"], ["1", "1", "1", "2", "3"]],
                    copies=5)
    play(game, "h@1:1>s1", "pass", "h@2:2>s2", "pass")
    play(game, "h@3:1>s1", "pass")
    play(game, "h@1:2>s2", "s1>c1@1")  # seat 1 claims the 1s
    play(game, "h@2:3>s3", "s2>c2@2")  # seat 2 claims the 2s
    play(game, "h@3:1>s1", "s3>c3@3")  # seat 3 claims the 3
    assert claims(game) == [1, 1, 1]
    play(game, "h@1:2>s2", "pass", "h@2:1>s1", "pass")
    assert stack(game, 1) == ["1", "1"]
    play(game, "h@3:1>s1", "pass")  # 1 + 1 + 1 = 3: no Five Max yet
    play(game, "h@1:2>s2", "pass")
    play(game, "h@2:3>s3", "pass", "h@3:2>s2")
    assert stack(game, 2) == ["2", "2", "2"]  # seat 3 made the 2s worth 6
    # everyone has one stack; seat 2 claimed 2s before, seat 3 just played one: only seat 1
    assert claims(game) == [1, 1, 1]
    assert forces(game) == {"force seat1"}
    play(game, "force seat1", "s2>c2@1")
    assert money(game) == [8, 4, 3]


# ---------------------------------------------------------------------------
# Slow Down: never more than 1 stack ahead of the seat with fewest
# ---------------------------------------------------------------------------


def slow_down_game() -> Any:
    """3 players, 4 copies; seat 2 claims the first stack, so it is one ahead."""
    game = new_game([["1", "1", "1", "2"], ["2", "1", "3", "3"], ["3", "2", "2", "3"]], copies=4)
    play(game, "h@1:1>s1", "pass")
    play(game, "h@2:2>s2", "s1>c1@2")
    play(game, "h@3:3>s3", "pass")
    play(game, "h@1:1>s1", "pass")
    assert claims(game) == [0, 1, 0]
    return game


def test_slow_down_refuses_a_seat_a_stack_ahead_of_the_fewest() -> None:
    game = slow_down_game()
    play(game, "h@2:1>s1")
    # the 2s (played by seat 2 last turn, never claimed) and the 3s: Diversity allows both,
    # but seat 2 already has one stack more than seats 1 and 3
    assert stacks(game) == {1: ["1", "1"], 2: ["2"], 3: ["3"]}
    assert claim_texts(game) == set()
    play(game, "pass")
    play(game, "h@3:2>s2")
    assert claim_texts(game) == {"s1>c1@3", "s3>c3@3"}  # seat 3, at the fewest, may


def test_slow_down_allows_a_second_stack_once_everyone_has_one() -> None:
    game = slow_down_game()
    play(game, "h@2:1>s1", "pass")
    play(game, "h@3:2>s2", "s1>c1@3")
    play(game, "h@1:1>s1", "s3>c3@1")
    assert claims(game) == [1, 1, 1]
    play(game, "h@2:3>s3")
    assert claim_texts(game) == {"s2>c2@2"}  # 1 stack, the fewest is 1: allowed
    play(game, "s2>c2@2")
    assert claims(game) == [1, 2, 1] and money(game) == [3, 5, 2]


def test_slow_down_with_two_players() -> None:
    game = new_game([["1", "2", "1"], ["2", "1", "2"]], copies=3)
    play(game, "h@1:1>s1", "pass")
    play(game, "h@2:2>s2", "s1>c1@2")
    play(game, "h@1:2>s2", "pass")
    play(game, "h@2:1>s1")
    assert stacks(game) == {1: ["1"], 2: ["2", "2"]}
    assert claim_texts(game) == set()  # the 2s: seat 2 is a stack ahead of seat 1
    play(game, "pass")
    play(game, "h@1:1>s1")
    assert claim_texts(game) == {"s2>c2@1"}  # seat 1, behind, catches up
    play(game, "s2>c2@1")
    assert claims(game) == [1, 1] and money(game) == [4, 1]


# ---------------------------------------------------------------------------
# Five Max: a play that makes a stack worth 5+ forces a seat that can claim it to claim it
# ---------------------------------------------------------------------------

# 5 players, 3 copies of 1..5: a single 5 makes a stack worth 5.
FIVE = [["1", "2", "3"], ["5", "4", "1"], ["1", "3", "5"], ["2", "4", "5"], ["2", "3", "4"]]


def five_game() -> Any:
    """Seat 1 has put a 1 on the table; seat 2 plays a 5."""
    game = new_game(FIVE, copies=3)
    play(game, "h@1:1>s1", "pass")
    play(game, "h@2:5>s5")
    return game


def test_five_max_a_stack_worth_5_must_be_forced_now_or_at_the_end_of_the_turn() -> None:
    game = five_game()
    assert turn(game) == (1, "force")
    # every seat that can claim the 5s may be chosen (not seat 2: it just played a 5), or wait;
    # no claim or pass skips the duty
    assert texts(game) == {"force seat1", "force seat3", "force seat4", "force seat5", "wait"}


def test_five_max_a_stack_under_5_forces_nothing() -> None:
    game = three_of_a_kind()
    play(game, "h@1:3>s3", "pass")
    play(game, "h@2:1>s1")
    assert turn(game) == (1, "claim")
    play(game, "pass", "h@3:1>s1")  # 1 + 1 = 2
    assert turn(game) == (2, "claim")
    assert texts(game) == {"s3>c3@3", "pass"}


def test_five_max_forcing_another_seat_now() -> None:
    game = five_game()
    play(game, "force seat3")
    assert turn(game) == (2, "forced")
    # the forced seat may only claim that stack: not pass, not the 1s it could claim on its turn
    assert stacks(game) == {1: ["1"], 5: ["5"]}
    assert texts(game) == {"s5>c5@3"}
    play(game, "s5>c5@3")
    assert money(game) == [0, 0, 5, 0, 0] and claims(game) == [0, 0, 1, 0, 0]
    assert claimed(game, 2, 5) == ["5"]
    # the turn comes back to seat 2, which still has its own optional claim
    assert turn(game) == (1, "claim")
    assert texts(game) == {"s1>c1@2", "pass"}
    play(game, "s1>c1@2")
    assert money(game) == [0, 1, 5, 0, 0]
    # nothing is pending any more: the end of the turn is passed over, seat 3 plays next
    assert turn(game) == (2, "play")


def test_five_max_waiting_until_the_end_of_the_turn() -> None:
    game = five_game()
    play(game, "wait")
    assert turn(game) == (1, "claim")
    assert texts(game) == {"s1>c1@2", "pass"}  # the 5s: seat 2 just played them
    play(game, "s1>c1@2")
    assert turn(game) == (1, "settle")
    # now the force is due: no pass; seat 2 has a stack now, the others none, all may claim
    assert texts(game) == {"force seat1", "force seat3", "force seat4", "force seat5"}
    play(game, "force seat5")
    assert turn(game) == (4, "forced")
    assert texts(game) == {"s5>c5@5"}
    play(game, "s5>c5@5")
    assert money(game) == [0, 1, 0, 0, 5]
    assert stacks(game) == {}
    assert turn(game) == (2, "play")  # the turn passes on from seat 2, not from seat 5


def test_five_max_waiting_and_passing_still_forces_at_the_end() -> None:
    game = five_game()
    play(game, "wait", "pass")
    assert turn(game) == (1, "settle")
    assert texts(game) == {"force seat1", "force seat3", "force seat4", "force seat5"}
    play(game, "force seat1", "s5>c5@1")
    assert money(game) == [5, 0, 0, 0, 0]
    assert turn(game) == (2, "play")


def test_five_max_the_forced_claim_is_a_claim_of_the_forced_seat() -> None:
    # It counts for Slow Down: seat 3, forced, is now a stack ahead and may not claim on its turn.
    game = five_game()
    play(game, "force seat3", "s5>c5@3", "pass")
    assert claims(game) == [0, 0, 1, 0, 0]
    play(game, "h@3:3>s3")
    assert stacks(game) == {1: ["1"], 3: ["3"]}
    assert claim_texts(game) == set()


def test_five_max_the_mover_is_not_offered_the_stack_it_just_played() -> None:
    """The seed says the forced seat "can be yourself", but the stack is always the number the
    mover just played, which Diversity refuses it: the mover (with no claims, having never
    claimed a 5) is never among the targets, neither now nor at the end of the turn."""
    game = five_game()
    assert "force seat2" not in forces(game)
    play(game, "wait", "pass")
    assert turn(game) == (1, "settle")
    assert "force seat2" not in forces(game)


def test_five_max_offers_only_seats_that_can_claim() -> None:
    # 4 players, 4 copies. Before the 4s reach 8: seat 2 has two stacks (Slow Down), seat 4
    # has claimed 4s before (Diversity), seat 3 plays the 4: only seat 1 may be forced.
    game = new_game([["2", "1", "3", "3"], ["1", "4", "2", "2"], ["4", "4", "1", "3"], ["3", "2", "1", "4"]],
                    copies=4)
    play(game, "h@1:2>s2", "pass")
    play(game, "h@2:1>s1", "s2>c2@2")
    play(game, "h@3:4>s4", "s1>c1@3")
    play(game, "h@4:3>s3", "s4>c4@4")
    play(game, "h@1:1>s1", "s3>c3@1")
    play(game, "h@2:4>s4", "s1>c1@2")
    assert claims(game) == [1, 2, 1, 1]
    play(game, "h@3:4>s4")
    assert stack(game, 4) == ["4", "4"]
    assert turn(game) == (2, "force")
    assert texts(game) == {"force seat1", "wait"}
    play(game, "force seat1", "s4>c4@1")
    assert money(game) == [11, 3, 1, 4]
    assert game.is_over and game.winners() == [0]  # a forced claim can win


def five_max_stuck_game() -> Any:
    """2 players, 5 copies. Seat 1 makes the 2s worth 6 while seat 2 is a stack ahead."""
    game = new_game([["1", "2", "2", "2", "1"], ["2", "1", "1", "1", "2"]], copies=5)
    play(game, "h@1:1>s1", "pass")
    play(game, "h@2:2>s2", "s1>c1@2")
    play(game, "h@1:2>s2", "pass")
    play(game, "h@2:1>s1", "pass")
    play(game, "h@1:2>s2")
    assert stack(game, 2) == ["2", "2", "2"]
    return game


def test_five_max_with_nobody_able_to_claim_nothing_happens() -> None:
    game = five_max_stuck_game()
    # seat 1 just played the 2s, seat 2 is a stack ahead: no force, no wait, straight to the claim
    assert turn(game) == (0, "claim")
    assert texts(game) == {"s1>c1@1", "pass"}
    play(game, "pass")
    assert turn(game) == (1, "play")  # the end of the turn owes nothing either
    assert stack(game, 2) == ["2", "2", "2"]
    assert money(game) == [0, 1]


def test_five_max_counts_every_play_that_leaves_a_stack_at_5_or_more() -> None:
    game = five_max_stuck_game()
    play(game, "pass")
    play(game, "h@2:2>s2")  # 6 -> 8: the stack did not cross 5, it stays above
    assert turn(game) == (1, "force")
    assert texts(game) == {"force seat1", "wait"}
    play(game, "force seat1", "s2>c2@1")
    assert money(game) == [8, 1]


def test_five_max_at_the_end_of_the_turn_forces_a_seat_that_became_able() -> None:
    """Reading: the duty lasts to the end of the turn; when the mover's own claim lets a seat
    claim the stack (Slow Down), that seat is forced then."""
    game = five_max_stuck_game()
    play(game, "s1>c1@1")
    assert claims(game) == [1, 1]
    assert turn(game) == (0, "settle")
    assert texts(game) == {"force seat2"}
    play(game, "force seat2", "s2>c2@2")
    assert money(game) == [1, 7]
    assert turn(game) == (1, "play")


# ---------------------------------------------------------------------------
# After claiming, reveal all your hand bills of the same value, for good
# ---------------------------------------------------------------------------


def reveal_game() -> Any:
    """3 players, 4 copies; seat 2 holds 2, 1, 1, 3 and claims the 1s."""
    game = new_game([["1", "2", "3", "3"], ["2", "1", "1", "3"], ["3", "2", "2", "1"]], copies=4)
    play(game, "h@1:1>s1", "pass")
    assert seen_hand(game, 0, 1) == [None] * 4
    play(game, "h@2:2>s2", "s1>c1@2")
    return game


def test_reveal_the_claimers_bills_of_that_number_face_up() -> None:
    game = reveal_game()
    assert hand(game, 1) == ["1", "1", "3"]
    assert faces_up(game, "h@2") == [True, True, False]
    assert seen_hand(game, 0, 1) == ["1", "1", None]  # the 3 stays hidden
    assert seen_hand(game, 2, 1) == ["1", "1", None]
    assert seen_hand(game, 1, 1) == ["1", "1", "3"]
    assert seen_hand(game, 1, 0) == [None, None, None]  # seat 1 claimed nothing, shows nothing


def test_reveal_lasts_for_the_rest_of_the_game() -> None:
    game = reveal_game()
    play(game, "h@3:3>s3", "pass", "h@1:2>s2", "pass")
    assert seen_hand(game, 0, 1) == ["1", "1", None]
    play(game, "h@2:1>s1")
    assert seen_hand(game, 0, 1) == ["1", None]
    assert faces_up(game, "s1") == [True]


def test_reveal_after_a_forced_claim_too() -> None:
    game = five_game()
    assert seen_hand(game, 0, 2) == [None, None, None]
    play(game, "force seat3", "s5>c5@3")
    assert hand(game, 2) == ["1", "3", "5"]
    assert seen_hand(game, 0, 2) == [None, None, "5"]


# ---------------------------------------------------------------------------
# The end: $10 wins at once; when the hands run out, the highest total wins
# ---------------------------------------------------------------------------


def ten_game(last_one: bool = True) -> Any:
    """2 players, 6 copies: seat 1 is forced to claim three 2s ($6), then claims the 1s."""
    game = new_game([["2", "1", "2", "1", "2", "1"], ["2", "2", "1", "1", "2", "1"]], copies=6)
    play(game, "h@1:2>s2", "pass", "h@2:2>s2", "pass")
    play(game, "h@1:1>s1", "pass")
    play(game, "h@2:2>s2", "force seat1", "s2>c2@1", "pass")
    play(game, "h@1:2>s2", "pass")
    play(game, "h@2:1>s1", "s2>c2@2")
    play(game, "h@1:1>s1", "pass")
    play(game, "h@2:1>s1" if last_one else "h@2:2>s2", "pass")
    assert money(game) == [6, 2]
    play(game, "h@1:2>s2")
    return game


def test_the_first_to_claim_10_wins_at_once() -> None:
    game = ten_game()
    assert stack(game, 1) == ["1", "1", "1", "1"]
    play(game, "s1>c1@1")
    assert money(game) == [10, 2]
    assert game.is_over and game.outcome == "won" and game.reason == WON_10
    assert game.winners() == [0]
    assert game.legal_moves() == []
    assert hand(game, 0) and hand(game, 1)  # bills are left: the $10 ended it


def test_9_is_not_a_win() -> None:
    game = ten_game(last_one=False)
    assert stack(game, 1) == ["1", "1", "1"]
    play(game, "s1>c1@1")
    assert money(game) == [9, 2]
    assert not game.is_over and game.winners() is None
    assert turn(game) == (1, "play")


def test_a_forced_claim_that_reaches_10_wins_for_the_forced_seat() -> None:
    game = new_game([["1", "2", "1", "2", "1", "2"], ["1", "1", "2", "2", "1", "2"]], copies=6)
    play(game, "h@1:1>s1", "pass", "h@2:1>s1", "pass")
    play(game, "h@1:2>s2", "pass", "h@2:1>s1", "s2>c2@2")
    play(game, "h@1:1>s1", "pass", "h@2:2>s2", "pass")
    play(game, "h@1:2>s2", "s1>c1@1")
    assert money(game) == [4, 2] and claims(game) == [1, 1]
    play(game, "h@2:2>s2")  # 2 + 2 + 2
    assert texts(game) == {"force seat1", "wait"}
    play(game, "force seat1", "s2>c2@1")
    assert game.is_over and game.reason == WON_10
    assert game.winners() == [0]  # seat 2 moved; seat 1 won


def test_when_the_hands_run_out_the_highest_total_wins() -> None:
    game = new_game([["1", "2", "1"], ["2", "1", "2"]], copies=3)
    play(game, "h@1:1>s1", "pass", "h@2:2>s2", "s1>c1@2")
    play(game, "h@1:2>s2", "pass", "h@2:1>s1", "pass")
    play(game, "h@1:1>s1", "s2>c2@1")
    play(game, "h@2:2>s2")
    # the last bill is down, but its seat still has its claim
    assert not game.is_over and turn(game) == (1, "claim")
    play(game, "pass")
    assert game.is_over and game.outcome == "won" and game.reason == HANDS_OUT
    assert money(game) == [4, 1] and game.scores() == [4, 1]
    assert game.winners() == [0]


def test_when_the_hands_run_out_equal_totals_share_the_win() -> None:
    game = new_game([["1", "2", "2"], ["1", "1", "2"]], copies=3)
    play(game, "h@1:1>s1", "pass", "h@2:1>s1", "pass")
    play(game, "h@1:2>s2", "s1>c1@1")
    play(game, "h@2:1>s1", "s2>c2@2")
    play(game, "h@1:2>s2", "pass", "h@2:2>s2", "pass")
    assert game.is_over and game.reason == HANDS_OUT
    assert money(game) == [2, 2]
    assert game.winners() == [0, 1]


# ---------------------------------------------------------------------------
# Wild Wagers: a wild bill joins any stack and takes its number, but can't start one
# ---------------------------------------------------------------------------


def test_wild_bill_cannot_start_a_stack() -> None:
    game = new_game([["W", "1", "1", "2"], ["W", "2", "2", "1"]], name=WILD, copies=3, wilds=2)
    assert texts(game) == {"h@1:1>s1", "h@1:2>s2"}
    play(game, "h@1:1>s1", "pass")
    assert texts(game) == {"h@2:W>s1", "h@2:1>s1", "h@2:2>s2"}  # on the 1s, not a new stack


def test_wild_bill_goes_on_any_started_stack() -> None:
    game = new_game([["1", "2", "3", "3"], ["W", "W", "W", "1"], ["1", "2", "2", "3"]],
                    name=WILD, copies=3, wilds=3)
    play(game, "h@1:1>s1", "pass", "h@2:1>s1", "pass", "h@3:2>s2", "pass", "h@1:3>s3", "pass")
    assert texts(game, "play") == {"h@2:W>s1", "h@2:W>s2", "h@2:W>s3"}


def test_wild_bill_takes_the_number_of_the_stack_it_joins() -> None:
    game = new_game([["W", "1", "1", "2"], ["W", "2", "2", "1"]], name=WILD, copies=3, wilds=2)
    play(game, "h@1:1>s1", "pass")
    play(game, "h@2:W>s1")
    assert stack(game, 1) == ["1", "W"]
    assert claim_texts(game) == set()  # playing a wild on the 1s is playing a 1 (Diversity)
    play(game, "pass", "h@1:2>s2", "s1>c1@1")
    assert claimed(game, 0, 1) == ["1", "W"]
    assert money(game) == [2, 0]  # the wild kept its number once claimed


@pytest.mark.parametrize(("name", "worth"), [(WILD, 6), (WILD_TWO, 5)])
def test_wild_bill_counts_as_its_stack_for_five_max_and_money(name: str, worth: int) -> None:
    """A 3 and a wild on it make the 3s worth 6 (Five Max); claimed, the wild is worth 3
    (Wild Wagers), or 2 in the variant "Once claimed, a wild bill is always worth 2"."""
    game = new_game([["3", "1", "1", "1"], ["W", "2", "2", "2"], ["W", "W", "3", "3"]],
                    name=name, copies=3, wilds=3)
    play(game, "h@1:3>s3", "pass")
    play(game, "h@2:W>s3")
    assert turn(game) == (1, "force")
    assert texts(game) == {"force seat1", "force seat3", "wait"}
    play(game, "force seat3", "s3>c3@3")
    assert claimed(game, 2, 3) == ["3", "W"]
    assert money(game) == [0, 0, worth]


def test_wild_two_worth_2_whatever_the_stack() -> None:
    game = new_game([["W", "1", "1", "2"], ["W", "2", "2", "1"]], name=WILD_TWO, copies=3, wilds=2)
    play(game, "h@1:1>s1", "pass", "h@2:W>s1", "pass", "h@1:2>s2", "s1>c1@1")
    assert money(game) == [3, 0]  # 1 + 2


def test_wild_only_hand_with_no_stack_started_does_not_end_the_game() -> None:
    """BUG: a seat whose bills are all wild, with no stack on the table, has no legal move
    (`no_bill` needs an empty hand), so the game ends as "no move is possible" (lost).

    Here seat 2 plays its 2, seat 1 makes the 2s worth 6 and forces seat 2 to claim them:
    the table is empty and seat 2 holds four wild bills. The seat cannot play; its turn
    should pass (or the ruleset should say what happens), not end the game."""
    game = new_game([["2", "2", "1", "1", "1"], ["2", "W", "W", "W", "W"]], name=WILD, copies=3, wilds=4)
    play(game, "h@1:2>s2", "pass", "h@2:2>s2", "pass")
    play(game, "h@1:2>s2", "force seat2", "s2>c2@2", "pass")
    assert stacks(game) == {} and hand(game, 1) == ["W"] * 4
    assert not game.is_over, (game.outcome, game.reason)
    assert game.current_player == 1 and game.legal_moves()


def test_wild_only_opening_hand_does_not_end_the_game() -> None:
    """BUG (as above), from the first move: 4 players, 3 copies, four wild bills, all dealt to
    seat 1; no stack is started, seat 1 has no legal move and the game is over before it starts."""
    game = new_game([["W", "W", "W", "W"], ["1", "1", "1", "2"], ["2", "2", "3", "3"], ["3", "4", "4", "4"]],
                    name=WILD, copies=3, wilds=4)
    assert not game.is_over, (game.outcome, game.reason)
    assert game.current_player == 0 and game.legal_moves()


# ---------------------------------------------------------------------------
# Zero Risk: $0 bills; the 0 stack ignores Diversity; ten $0 bills claimed win at once
# ---------------------------------------------------------------------------


def zero_game() -> Any:
    """2 players, 3 copies, eight $0 bills."""
    return new_game([["0", "0", "0", "0", "1", "1", "2"], ["0", "0", "0", "0", "2", "2", "1"]],
                    name=ZERO, copies=3, zeros=8)


def test_zero_risk_deck_adds_the_zeros_option() -> None:
    assert Counter(ruleset(ZERO).deck.codes[c] for c in ruleset(ZERO).deck_cards[2]) == {"0": 12, "1": 6, "2": 6}
    bills = Counter(ruleset(ZERO, zeros=16).deck.codes[c] for c in ruleset(ZERO, zeros=16).deck_cards[3])
    assert bills["0"] == 16


def test_zero_stack_may_be_claimed_in_the_turn_you_played_to_it() -> None:
    game = zero_game()
    play(game, "h@1:0>s0")
    assert turn(game) == (0, "claim")  # a stack worth 0: no Five Max
    assert claim_texts(game) == {"s0>c0@1"}
    play(game, "s0>c0@1")
    assert claimed(game, 0, 0) == ["0"]
    assert money(game) == [0, 0] and claims(game) == [1, 0]


def test_zero_stack_may_be_claimed_again() -> None:
    game = zero_game()
    play(game, "h@1:0>s0", "s0>c0@1")
    play(game, "h@2:0>s0", "s0>c0@2")
    play(game, "h@1:0>s0")
    assert claim_texts(game) == {"s0>c0@1"}  # claimed before, and just played to
    play(game, "s0>c0@1")
    assert claimed(game, 0, 0) == ["0", "0"] and claims(game) == [2, 1]


def test_zero_stack_still_obeys_slow_down() -> None:
    game = zero_game()
    play(game, "h@1:0>s0", "s0>c0@1")
    play(game, "h@2:1>s1", "pass")
    play(game, "h@1:0>s0")
    assert claims(game) == [1, 0]
    assert claim_texts(game) == set()  # the 0s and the 1s: seat 1 is a stack ahead


def test_zero_risk_keeps_diversity_for_the_other_numbers() -> None:
    game = zero_game()
    play(game, "h@1:1>s1", "pass")
    play(game, "h@2:0>s0")
    assert claim_texts(game) == {"s0>c0@2", "s1>c1@2"}
    play(game, "s1>c1@2")
    play(game, "h@1:1>s1", "s0>c0@1")
    play(game, "h@2:0>s0")
    assert claim_texts(game) == {"s0>c0@2"}  # the 1s: claimed before


def test_zero_bills_never_make_five_max() -> None:
    game = zero_game()
    for _ in range(3):
        play(game, "h@1:0>s0", "pass", "h@2:0>s0", "pass")
    assert stack(game, 0) == ["0"] * 6
    play(game, "h@1:0>s0")
    assert turn(game) == (0, "claim")


def ten_zeros_game(tenth: bool = True) -> Any:
    """2 players, 3 copies, ten $0 bills; seat 1 claims $2, seat 2 collects the $0 bills."""
    game = new_game([["0", "0", "0", "0", "0", "1", "1", "2"], ["2", "0", "0", "0", "0", "0", "2", "1"]],
                    name=ZERO, copies=3, zeros=10)
    play(game, "h@1:0>s0", "pass", "h@2:2>s2", "pass")
    play(game, "h@1:0>s0", "s2>c2@1")
    for _ in range(3):
        play(game, "h@2:0>s0", "pass", "h@1:0>s0", "pass")
    play(game, "h@2:0>s0" if tenth else "h@2:2>s2", "pass")
    play(game, "h@1:1>s1", "pass")
    play(game, "h@2:0>s0")
    return game


def test_ten_zeros_claimed_win_at_once_even_with_less_money() -> None:
    game = ten_zeros_game()
    assert stack(game, 0) == ["0"] * 10
    play(game, "s0>c0@2")
    assert money(game) == [2, 0]
    assert game.is_over and game.outcome == "won" and game.reason == WON_ZEROS
    assert game.winners() == [1]


def test_ten_zeros_count_in_total_over_several_claims() -> None:
    game = ten_zeros_game(tenth=False)
    assert stack(game, 0) == ["0"] * 9
    play(game, "s0>c0@2")
    assert not game.is_over  # nine
    play(game, "h@1:2>s2", "pass")
    play(game, "h@2:0>s0", "s0>c0@2")
    assert len(claimed(game, 1, 0)) == 10
    assert game.is_over and game.reason == WON_ZEROS and game.winners() == [1]


# ---------------------------------------------------------------------------
# Bad Investment: -2, -1 and 7 bills, and two-number bills; Diversity reads the top value
# ---------------------------------------------------------------------------


def test_bad_investment_deck() -> None:
    rules = ruleset(BAD, copies=3)
    assert Counter(rules.deck.codes[c] for c in rules.deck_cards[2]) == {
        "1": 3, "2": 3, "-2": 2, "-1": 2, "7": 2, "1/2": 2}
    assert Counter(rules.deck.codes[c] for c in rules.deck_cards[4]) == {
        "1": 3, "2": 3, "3": 3, "4": 3, "-2": 2, "-1": 2, "7": 2, "1/2": 2, "2/3": 2, "3/4": 2}
    weird = ruleset(BAD, copies=3, weird=4)
    assert Counter(weird.deck.codes[c] for c in weird.deck_cards[2])["7"] == 4


def multi_game() -> Any:
    """3 players, 3 copies, one each of -2, -1, 7 (the -1 is left over). Seat 2 claims the 2s,
    seat 3 the 3s; seat 1 puts a 2/3 on the stack of 3s."""
    game = new_game([["2", "2/3", "-2", "1/2", "3"], ["3", "1", "1/2", "7", "3"], ["1", "2", "2", "2/3", "1"]],
                    leftovers=["-1"], name=BAD, copies=3, weird=1)
    assert stacks(game) == {-1: ["-1"]}
    play(game, "h@1:2>s2", "pass")
    play(game, "h@2:3>s3", "s2>c2@2")
    play(game, "h@3:1>s1", "s3>c3@3")
    return game


def test_bad_investment_a_two_number_bill_goes_on_the_stack_of_either_number() -> None:
    game = multi_game()
    assert texts(game, "play") == {"h@1:2/3>s2", "h@1:2/3>s3", "h@1:1/2>s1", "h@1:1/2>s2",
                                   "h@1:-2>s-2", "h@1:3>s3"}
    play(game, "h@1:2/3>s3")
    assert stacks(game) == {-1: ["-1"], 1: ["1"], 3: ["2/3"]}


def test_bad_investment_diversity_reads_the_top_value() -> None:
    game = multi_game()
    play(game, "h@1:2/3>s3")
    assert claim_texts(game) == {"s1>c1@1", "s-1>c-1@1"}  # seat 1 played a 3 (the 2/3 on the 3s)
    play(game, "s1>c1@1")
    assert claims(game) == [1, 1, 1]
    play(game, "h@2:1>s1")
    # the 2/3 lies on the 3s: claiming it claims 3, which seat 2 (it claimed 2s) may
    assert claim_texts(game) == {"s3>c3@2", "s-1>c-1@2"}
    play(game, "pass", "h@3:2>s2")
    assert claim_texts(game) == {"s1>c1@3", "s-1>c-1@3"}  # seat 3 claimed 3s: not the 2/3
    play(game, "pass", "h@1:-2>s-2", "pass", "h@2:1/2>s1", "s3>c3@2")
    assert claimed(game, 1, 3) == ["2/3"]
    assert money(game) == [1, 5, 3]  # the 2/3 counts 3 on the stack of 3s


def test_bad_investment_a_claim_reveals_the_two_number_bills_showing_its_number() -> None:
    game = multi_game()
    # seat 2 claimed the 2s: its 1/2 shows a 2 and is revealed, its 1, 7 and 3 are not
    assert hand(game, 1) == ["3", "1", "1/2", "7"]
    assert seen_hand(game, 0, 1) == [None, None, "1/2", None]
    assert seen_hand(game, 1, 1) == ["3", "1", "1/2", "7"]


def test_bad_investment_a_leftover_two_number_bill_starts_its_lower_stack() -> None:
    game = new_game([["1", "1", "1", "-2", "7"], ["2", "2", "2", "-1", "1/2"]],
                    leftovers=["1/2"], name=BAD, copies=3, weird=1)
    play(game, "h@1:-2>s-2", "s1>c1@1")
    assert claimed(game, 0, 1) == ["1/2"] and money(game) == [1, 0]


def negative_game() -> Any:
    """2 players, 3 copies, two each of -2, -1 and 7."""
    return new_game([["-2", "-2", "1", "2", "7", "1/2", "-1"], ["-1", "1", "2", "1", "2", "7", "1/2"]],
                    name=BAD, copies=3, weird=2)


def test_bad_investment_negative_stacks_lower_the_claimers_money() -> None:
    game = negative_game()
    play(game, "h@1:-2>s-2", "pass")
    play(game, "h@2:-1>s-1", "pass")
    play(game, "h@1:-2>s-2")
    assert stack(game, -2) == ["-2", "-2"]
    assert turn(game) == (0, "claim")  # worth -4: no Five Max
    play(game, "s-1>c-1@1")
    assert money(game) == [-1, 0]
    play(game, "h@2:1>s1", "s-2>c-2@2")
    assert money(game) == [-1, -4]


def test_bad_investment_a_7_alone_makes_five_max() -> None:
    game = negative_game()
    play(game, "h@1:7>s7")
    assert stacks(game) == {7: ["7"]}
    assert turn(game) == (0, "force")
    assert texts(game) == {"force seat2", "wait"}
    play(game, "force seat2", "s7>c7@2")
    assert money(game) == [0, 7]


@pytest.mark.parametrize(("bill_to", "open_stack"), [("s2", "s1"), ("s1", "s2")])
def test_bad_investment_a_two_number_bill_is_played_as_its_stacks_number(bill_to: str, open_stack: str) -> None:
    # a 1/2 played on the 2s is a 2 played (Diversity): the 1s stay open to its player, and back
    game = negative_game()
    play(game, "h@1:1>s1", "pass", "h@2:2>s2", "pass")
    play(game, f"h@1:1/2>{bill_to}")
    assert claim_texts(game) == {f"{open_stack}>c{open_stack[1:]}@1"}


def test_bad_investment_a_two_number_bill_counts_its_stacks_number() -> None:
    game = negative_game()
    play(game, "h@1:1/2>s2", "pass")
    play(game, "h@2:1/2>s2", "pass")
    play(game, "h@1:2>s2")  # three bills on the 2s: worth 6
    assert turn(game) == (0, "force")
    play(game, "force seat2", "s2>c2@2")
    assert money(game) == [0, 6]


# ---------------------------------------------------------------------------
# All three expansions together
# ---------------------------------------------------------------------------


def test_expansions_deck_has_every_expansions_bills() -> None:
    rules = ruleset(ALL)
    assert Counter(rules.deck.codes[c] for c in rules.deck_cards[2]) == {
        "1": 6, "2": 6, "W": 4, "0": 12, "-2": 2, "-1": 2, "7": 2, "1/2": 2}


def test_expansions_have_every_expansions_rules() -> None:
    # 2 players, 3 copies, two wilds, eight $0, one each of -2, -1, 7: 21 bills, a wild left over.
    game = new_game([["W", "0", "7", "1/2", "0", "0", "0", "1", "1", "2"],
                     ["0", "0", "0", "0", "2", "2", "1", "1/2", "-2", "-1"]],
                    leftovers=["W"], name=ALL, copies=3, wilds=2, zeros=8, weird=1)
    assert named(game, "out") == ["W"]  # Wild Wagers: no stack to join
    assert texts(game) == {"h@1:0>s0", "h@1:7>s7", "h@1:1/2>s1", "h@1:1/2>s2", "h@1:1>s1", "h@1:2>s2"}
    play(game, "h@1:1>s1", "pass")
    play(game, "h@2:0>s0")
    assert claim_texts(game) == {"s0>c0@2", "s1>c1@2"}  # Zero Risk: the 0s just played to
    play(game, "s1>c1@2")
    play(game, "h@1:W>s0")  # Wild Wagers: a wild on the 0s is a 0
    assert stack(game, 0) == ["0", "W"]
    play(game, "s0>c0@1")
    play(game, "h@2:0>s0", "s0>c0@2")
    play(game, "h@1:0>s0")
    assert claim_texts(game) == {"s0>c0@1"}  # claimed before and just played to
    play(game, "s0>c0@1")
    assert claimed(game, 0, 0) == ["0", "W", "0"]  # the wild counts towards the ten $0 bills
    assert claims(game) == [2, 2]
    play(game, "h@2:2>s2", "pass")
    play(game, "h@1:7>s7")  # Bad Investment: a 7 alone
    assert texts(game) == {"force seat2", "wait"}
    play(game, "force seat2", "s7>c7@2")
    assert money(game) == [0, 8]


def test_five_max_forcing_yourself_is_a_claim_then_your_own_claim_may_follow(tmp_path: Path) -> None:
    """The forced seat "can be yourself": the mover is offered whenever it can claim the stack.
    Under Diversity it never can (it just played that number, see the test above), so a variant
    without Diversity shows it: the mover forces itself, claims in the `forced` phase, gets the
    turn back, and still has its own optional claim (the laws allowing)."""
    path = tmp_path / "no-diversity.yaml"
    path.write_text('ruleset: no-diversity\nextends: ten-bucks\nfunctions:\n  exempt(s): "true"\n')
    rules = load_ruleset(path, {"copies": 3})
    hands = [["3", "1", "2"], ["3", "1", "2"], ["3", "1", "2"]]
    game = rules.new_game(deal=make_deal(hands), players=3)
    play(game, "h@1:3>s3", "pass")
    play(game, "h@2:3>s3")  # 6 in the 3s
    assert turn(game) == (1, "force")
    assert {"force seat1", "force seat2", "force seat3"} <= texts(game)
    play(game, "force seat2")
    assert turn(game) == (1, "forced")
    assert texts(game) == {"s3>c3@2"}
    play(game, "s3>c3@2")
    assert turn(game) == (1, "claim") and money(game) == [0, 6, 0]
    assert "pass" in texts(game)  # its own claim is still to come (none is open: Slow Down)
    assert not {t for t in texts(game) if ">c" in t}
