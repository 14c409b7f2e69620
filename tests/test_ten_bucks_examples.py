"""The Ten Bucks example variants in examples/ (ten-bucks-*.yaml), rule by rule.

Each example turns an idea from the seed's "Action Fund" or "Shopping Spree" lists
(shared/seeds/003_cfa1118029310021.txt, end of the file) into a rule; the comment at the top of
each file states the rule. Every test starts from an explicit deal (see ``make_deal``), so the
situation it checks is exact, and most also play the same moves in the base game (or with the
variant's action declined) to show that the difference comes from the new rule. The last tests
play 200 seeded random games of every example, 2 to 6 players, and check that each ends without
error and that no bill is ever created or lost.

A deal lists the bills in play, top of the deck first. Setup deals them one per seat per round,
seat 1 first (so seat s's i-th bill is deal[i * players + s]); with values 1..players and
`copies` of each, nothing is left over for the stacks. Move texts: ``h@1:3>s3`` plays seat 1's 3
onto the 3 stack, ``s3>c3@2`` is seat 2 claiming the 3 stack, ``force seat3`` is Five Max.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import pytest

from cardrules import IllegalMoveError, load_ruleset
from conftest import ROOT
from helpers import pile, play, texts

EXAMPLES = ROOT / "examples"
NAMES = ("lock", "skip", "reverse", "again", "peek", "steal", "shopping", "refund", "full-stacks")


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------


@lru_cache(maxsize=None)
def rules(name: str, **options: Any) -> Any:
    """An example (`name` is the part after "ten-bucks-"), or the base game for "base"."""
    path = "ten-bucks" if name == "base" else EXAMPLES / f"ten-bucks-{name}.yaml"
    return load_ruleset(path, options)


def make_deal(hands: Sequence[Sequence[int]]) -> list[str]:
    """The deal that gives seat s (0-based) the bills ``hands[s]``, dealt in that order."""
    assert len({len(h) for h in hands}) == 1
    return [str(hands[s][r]) for r in range(len(hands[0])) for s in range(len(hands))]


def new_game(name: str, hands: Sequence[Sequence[int]], copies: int, **options: Any) -> Any:
    return rules(name, copies=copies, **options).new_game(deal=make_deal(hands), players=len(hands))


def hand(game: Any, seat: int) -> list[str]:
    """Seat `seat`'s (0-based) hand, bill codes bottom first."""
    return pile(game, "hand", seat)


def hand_faces(game: Any, seat: int) -> list[bool]:
    ids = game.state.piles[game.rules.zones["hand"].seat_piles[seat][0]]
    return [bool(game.state.up[c]) for c in ids]


def stack(game: Any, value: int) -> list[str]:
    return pile(game, "stack", value + 2)


def claimed(game: Any, seat: int, value: int) -> list[str]:
    return [game.rules.deck.codes[c] for c in game.state.piles[game.rules.zones["claimed"].seat_piles[seat][value + 2]]]


def stack_pile(game: Any, value: int) -> int:
    return game.rules.zones["stack"].piles[value + 2]


def money(game: Any, seat: int) -> int:
    return game.variable("money", seat)


def set_money(game: Any, seat: int, value: int) -> None:
    game.state.set_var(game.rules.variables["money"].slot + seat, value)


def seen_hand(game: Any, viewer: int, seat: int) -> list[str | None]:
    """Seat `seat`'s hand as seat `viewer` sees it (None for a hidden bill)."""
    return game.view(viewer)["zones"]["hand"][seat]


def cards_in_play(game: Any) -> list[int]:
    return sorted(c for p in game.state.piles for c in p)


# ---------------------------------------------------------------------------
# Every example loads, extends the base and says which idea it implements
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_each_example_is_a_ten_bucks_variant_that_names_its_idea(name: str) -> None:
    text = (EXAMPLES / f"ten-bucks-{name}.yaml").read_text()
    assert text.startswith("# Ten Bucks: ")
    header = text.split("\nruleset:")[0]
    assert "shared/seeds/003_cfa1118029310021.txt" in header and "The rule adopted:" in header
    assert ("Action Fund" in header) or ("Shopping Spree" in header)
    assert "\nextends: ten-bucks\n" in text
    loaded = rules(name)
    assert loaded.name == f"ten-bucks-{name}"
    assert loaded.min_players == 2 and loaded.max_players == 6


# ---------------------------------------------------------------------------
# Lock a Pile: a $1 may lock a stack against claims until the locker's next turn
# ---------------------------------------------------------------------------

LOCK_HANDS = [[1, 2, 3], [2, 3, 1], [3, 1, 2]]  # copies 3, three players


def test_lock_a_1_offers_a_lock_of_any_started_stack_or_none() -> None:
    game = new_game("lock", LOCK_HANDS, copies=3)
    play(game, "h@1:1>s1")
    assert game.phase == "lock"
    assert texts(game) == {"lock:s1", "no_lock"}  # only the 1 stack is started
    play(game, "lock:s1")
    assert game.variable("lock", 0) == stack_pile(game, 1)
    assert game.phase == "claim" and texts(game) == {"pass"}


def test_lock_other_bills_offer_no_lock() -> None:
    game = new_game("lock", LOCK_HANDS, copies=3)
    play(game, "h@1:2>s2")
    assert game.phase == "claim" and texts(game) == {"pass"}  # no lock phase after a 2
    play(game, "pass", "h@2:3>s3")
    assert game.phase == "claim" and texts(game, "claim") == {"s2>c2@2"}


def test_lock_a_locked_stack_offers_no_claim_until_the_lockers_next_turn() -> None:
    game = new_game("lock", LOCK_HANDS, copies=3)
    play(game, "h@1:1>s1", "lock:s1", "pass", "h@2:2>s2")
    assert texts(game, "claim") == set()  # seat 2 may not claim the locked 1 stack
    with pytest.raises(IllegalMoveError):
        game.parse_move("s1>c1@2")
    play(game, "pass", "h@3:3>s3")
    assert texts(game, "claim") == {"s2>c2@3"}  # nor seat 3; the 2 stack is open
    play(game, "pass")
    assert game.current_player == 0 and game.variable("lock", 0) == stack_pile(game, 1)
    play(game, "h@1:2>s2")  # seat 1's next turn: its lock has ended
    assert game.variable("lock", 0) is None
    assert texts(game, "claim") == {"s1>c1@1", "s3>c3@1"}
    play(game, "s1>c1@1")
    assert money(game, 0) == 1


def test_lock_declined_or_base_game_leaves_the_stack_claimable() -> None:
    for game in (new_game("lock", LOCK_HANDS, copies=3), new_game("base", LOCK_HANDS, copies=3)):
        play(game, "h@1:1>s1")
        if game.phase == "lock":
            play(game, "no_lock")
        play(game, "pass", "h@2:2>s2")
        assert texts(game, "claim") == {"s1>c1@2"}


# Two players, copies 5: the fifth 1 makes the 1 stack worth $5 (Five Max).
FIVE_ONES = [[1, 1, 1, 2, 2], [1, 1, 2, 2, 2]]


def five_ones(name: str, last: str) -> Any:
    game = new_game(name, FIVE_ONES, copies=5)
    for seat in (1, 2, 1, 2):
        play(game, f"h@{seat}:1>s1")
        if game.phase == "lock":
            play(game, "no_lock")
        play(game, "pass")
    play(game, "h@1:1>s1")
    assert stack(game, 1) == ["1"] * 5
    if last:
        assert game.phase == "lock"
        play(game, last)
    return game


def test_lock_a_locked_stack_escapes_five_max() -> None:
    game = five_ones("lock", "lock:s1")
    assert game.phase == "claim" and texts(game) == {"pass"}  # no force: nobody can claim it
    play(game, "pass")
    assert game.current_player == 1 and game.phase == "play"  # no settle either
    play(game, "h@2:2>s2")
    assert texts(game, "claim") == set()
    play(game, "pass")
    assert game.current_player == 0 and stack(game, 1) == ["1"] * 5


def test_lock_an_open_five_stack_is_forced_as_in_the_base_game() -> None:
    for game in (five_ones("lock", "no_lock"), five_ones("base", "")):
        assert game.phase == "force"
        assert texts(game) == {"force seat2", "wait"}
        play(game, "force seat2", "s1>c1@2")
        assert money(game, 1) == 5


# lock=both: a locked stack cannot grow either. Two players, copies 3.
def test_lock_both_a_locked_stack_cannot_be_played_on_but_by_its_locker() -> None:
    game = new_game("lock", [[2, 1, 1], [2, 1, 2]], copies=3, lock="both")
    play(game, "h@1:2>s2", "pass", "h@2:2>s2", "pass")
    play(game, "h@1:1>s1", "lock:s1", "pass")
    assert texts(game) == {"h@2:2>s2"}  # seat 2's 1 may not go on the locked 1 stack
    play(game, "h@2:2>s2", "force seat1", "s2>c2@1", "pass")
    assert game.current_player == 0
    assert texts(game) == {"h@1:1>s1"}  # the locker's own lock ends as its turn begins
    play(game, "h@1:1>s1")
    assert game.variable("lock", 0) is None


def test_lock_both_a_seat_whose_bills_fit_only_locked_stacks_passes() -> None:
    game = new_game("lock", [[2, 1, 2], [1, 1, 2]], copies=3, lock="both")
    play(game, "h@1:2>s2", "pass", "h@2:2>s2", "pass", "h@1:1>s1", "lock:s1", "pass")
    assert hand(game, 1) == ["1", "1"]
    assert texts(game) == {"stuck"}
    play(game, "stuck")
    assert game.current_player == 0 and game.phase == "play"
    assert hand(game, 1) == ["1", "1"]  # the bills stay in hand


def test_lock_claim_only_a_locked_stack_still_grows() -> None:
    game = new_game("lock", [[2, 1, 2], [1, 1, 2]], copies=3)
    play(game, "h@1:2>s2", "pass", "h@2:2>s2", "pass", "h@1:1>s1", "lock:s1", "pass")
    assert texts(game) == {"h@2:1>s1"}
    play(game, "h@2:1>s1", "no_lock", "pass")
    assert stack(game, 1) == ["1", "1"]


# ---------------------------------------------------------------------------
# Skip a Turn: a $2 makes the next seat skip its next turn
# ---------------------------------------------------------------------------

SKIP_HANDS = [[2, 1, 1], [2, 1, 3], [2, 3, 3]]  # copies 3, three players


def test_skip_a_2_makes_the_next_seat_skip_its_turn() -> None:
    game = new_game("skip", SKIP_HANDS, copies=3)
    play(game, "h@1:2>s2", "pass")
    assert game.current_player == 2 and game.phase == "play"
    assert len(game.history) == 2  # seat 2 made no move at all: no skip-as-a-move
    assert hand(game, 1) == ["2", "1", "3"]


def test_skip_other_bills_skip_nobody_as_in_the_base_game() -> None:
    for name in ("skip", "base"):
        game = new_game(name, SKIP_HANDS, copies=3)
        play(game, "h@1:1>s1", "pass")
        assert game.current_player == 1 and game.phase == "play"
        assert texts(game) == {"h@2:2>s2", "h@2:1>s1", "h@2:3>s3"}


def test_skip_chain_and_a_skipped_seat_still_claims_when_forced() -> None:
    game = new_game("skip", SKIP_HANDS, copies=3)
    play(game, "h@1:2>s2", "pass")                  # seat 2 skipped
    play(game, "h@3:2>s2", "pass")                  # seat 3's 2: seat 1 skips
    assert game.current_player == 1
    play(game, "h@2:2>s2")                          # $6: Five Max; seat 3 is to skip next
    assert game.phase == "force" and texts(game) == {"force seat1", "force seat3", "wait"}
    play(game, "force seat3", "s2>c2@3")            # the skipped seat claims all the same
    assert money(game, 2) == 6
    play(game, "pass")
    assert game.current_player == 0 and game.phase == "play"


def test_skip_with_two_players_a_2_gives_you_the_next_turn() -> None:
    game = new_game("skip", [[2, 1, 2], [1, 2, 1]], copies=3)
    play(game, "h@1:2>s2", "pass")
    assert game.current_player == 0 and game.phase == "play"


# ---------------------------------------------------------------------------
# Reverse: a $3 turns the order of play around
# ---------------------------------------------------------------------------

REVERSE_HANDS = [[3, 1, 1], [2, 1, 3], [2, 3, 2]]  # copies 3, three players


def test_reverse_a_3_turns_the_order_of_play_around() -> None:
    game = new_game("reverse", REVERSE_HANDS, copies=3)
    play(game, "h@1:3>s3", "pass")
    assert game.current_player == 2 and game.phase == "play"  # seat 3, not seat 2
    assert game.view(0)["direction"] == -1
    play(game, "h@3:2>s2", "pass")
    assert game.current_player == 1  # and on round the other way: seat 2


def test_reverse_other_bills_keep_the_order_as_in_the_base_game() -> None:
    for name in ("reverse", "base"):
        game = new_game(name, REVERSE_HANDS, copies=3)
        play(game, "h@1:1>s1", "pass")
        assert game.current_player == 1
        play(game, "h@2:2>s2", "pass")
        assert game.current_player == 2


# ---------------------------------------------------------------------------
# Again: a $1 gives you the next turn too
# ---------------------------------------------------------------------------

AGAIN_HANDS = [[1, 2, 1], [2, 1, 3], [2, 3, 3]]  # copies 3, three players


def test_again_a_1_gives_the_seat_that_played_it_the_next_turn() -> None:
    game = new_game("again", AGAIN_HANDS, copies=3)
    play(game, "h@1:1>s1", "pass")
    assert game.current_player == 0 and game.phase == "play"
    play(game, "h@1:2>s2", "pass")
    assert game.current_player == 1  # a $2 passes the turn on as usual


def test_again_other_bills_pass_the_turn_as_in_the_base_game() -> None:
    for name in ("again", "base"):
        game = new_game(name, AGAIN_HANDS, copies=3)
        play(game, "h@1:2>s2", "pass")
        assert game.current_player == 1


# ---------------------------------------------------------------------------
# Peek: a $3 shows you the next player's hand
# ---------------------------------------------------------------------------

PEEK_HANDS = [[3, 1, 2], [2, 1, 3], [1, 3, 2]]  # copies 3, three players


def test_peek_a_3_shows_the_next_seats_hand_to_the_seat_that_played_it_only() -> None:
    game = new_game("peek", PEEK_HANDS, copies=3)
    play(game, "h@1:3>s3")
    assert seen_hand(game, 0, 1) == ["2", "1", "3"]           # seat 1 sees seat 2's hand
    assert seen_hand(game, 2, 1) == [None, None, None]        # seat 3 does not
    assert seen_hand(game, 0, 2) == [None, None, None]        # nor does seat 1 see seat 3's
    play(game, "pass", "h@2:1>s1", "pass")
    assert seen_hand(game, 0, 1) == ["2", "3"]                # still known, as the hand shrinks
    assert seen_hand(game, 2, 1) == [None, None]


def test_peek_other_bills_show_nothing_as_in_the_base_game() -> None:
    for name in ("peek", "base"):
        game = new_game(name, PEEK_HANDS, copies=3)
        play(game, "h@1:1>s1")
        assert seen_hand(game, 0, 1) == [None, None, None]
    game = new_game("base", PEEK_HANDS, copies=3)
    play(game, "h@1:3>s3")
    assert seen_hand(game, 0, 1) == [None, None, None]


def test_peek_a_bots_copy_keeps_the_hand_its_seat_saw() -> None:
    game = new_game("peek", PEEK_HANDS, copies=3)
    play(game, "h@1:3>s3")
    for k in range(4):
        copy = game.determinize(0, random.Random(k))
        assert hand(copy, 1) == ["2", "1", "3"]


# ---------------------------------------------------------------------------
# Pickpocket: claiming on your turn lets you steal a revealed bill
# ---------------------------------------------------------------------------

STEAL_HANDS = [[3, 2, 2], [1, 3, 3], [2, 1, 1]]  # copies 3, three players


def steal_start(name: str) -> Any:
    game = new_game(name, STEAL_HANDS, copies=3)
    play(game, "h@1:3>s3", "pass", "h@2:1>s1", "s3>c3@2")  # seat 2 reveals its two 3s
    assert hand(game, 1) == ["3", "3"] and hand_faces(game, 1) == [True, True]
    assert game.current_player == 2 and game.phase == "play"  # nobody had a revealed bill to steal
    play(game, "h@3:2>s2", "s1>c1@3")                         # seat 3 claims, revealing its 1s
    return game


def test_steal_after_a_claim_you_may_take_a_revealed_bill() -> None:
    game = steal_start("steal")
    assert game.phase == "steal" and game.variable("thief") == 2
    assert texts(game) == {"steal:s3 seat2", "no_steal"}  # seat 1 shows nothing
    play(game, "steal:s3 seat2")
    assert hand(game, 1) == ["3"]
    assert hand(game, 2) == ["1", "1", "3"] and hand_faces(game, 2) == [True, True, True]
    for viewer in (0, 1):  # everyone sees the stolen bill in its new hand
        assert seen_hand(game, viewer, 2) == ["1", "1", "3"]
        assert seen_hand(game, viewer, 1) == ["3"]
    assert game.current_player == 0 and game.phase == "play"
    assert sorted(texts(game)) == ["h@1:2>s2"]


def test_steal_may_be_declined_and_the_base_game_has_no_steal() -> None:
    game = steal_start("steal")
    play(game, "no_steal")
    assert hand(game, 1) == ["3", "3"] and game.current_player == 0
    base = steal_start("base")
    assert base.current_player == 0 and base.phase == "play"


def test_steal_passing_instead_of_claiming_steals_nothing() -> None:
    game = new_game("steal", STEAL_HANDS, copies=3)
    play(game, "h@1:3>s3", "pass", "h@2:1>s1", "s3>c3@2", "h@3:2>s2", "pass")
    assert game.current_player == 0 and game.phase == "play" and game.variable("thief") == -1


def test_steal_a_forced_claim_makes_no_thief() -> None:
    # Two players, copies 3: seat 1's third 2 makes the 2 stack $6; seat 2 must claim it.
    game = new_game("steal", [[2, 2, 1], [2, 1, 1]], copies=3)
    play(game, "h@1:2>s2", "pass", "h@2:2>s2", "pass", "h@1:2>s2", "force seat2", "s2>c2@2")
    assert game.variable("thief") == -1
    assert game.current_player == 0 and game.phase == "claim"


def test_steal_plays_the_same_in_the_native_backend_move_for_move() -> None:
    # `revealed(p, v)` is a list(... for ...) of cards (indexed, and tested for being empty), and
    # `move: {card}` takes that one card: both compiled, compared at every step with the Python
    # backend (legal moves, piles, faces, variables, turns, the end, winners, scores).
    from helpers import play_both_backends

    games = play_both_backends(rules("steal"), range(5), players=range(2, 7))
    assert sum(move.name == "steal" for game in games for move in game.history) >= 10

# ---------------------------------------------------------------------------
# Shopping Spree: buy the Small Change goal
# ---------------------------------------------------------------------------

# copies 4, three players: seat 2 claims $2, seat 3 $3, seat 1 $1, then seat 2 may shop.
SHOP_HANDS = [[2, 3, 1, 1], [3, 2, 3, 1], [1, 2, 3, 2]]


def shop_start() -> Any:
    game = new_game("shopping", SHOP_HANDS, copies=4)
    assert game.phase == "play"  # nobody can pay yet: no shop phase
    play(game, "h@1:2>s2", "pass", "h@2:3>s3", "s2>c2@2", "h@3:1>s1", "s3>c3@3")
    assert game.current_player == 0 and game.phase == "play"  # seat 1 has $0
    play(game, "h@1:3>s3", "s1>c1@1")
    assert game.current_player == 1 and game.phase == "shop"
    assert texts(game) == {"buy", "browse"}
    return game


def test_shopping_buying_costs_the_price_and_is_public() -> None:
    game = shop_start()
    play(game, "buy")
    assert money(game, 1) == 0 and game.variable("bought", 1) is True
    assert game.view(0)["variables"]["bought"] == [False, True, False]
    assert game.phase == "play"


def test_shopping_a_buyer_claims_only_1s_and_2s_and_diversity_no_longer_binds() -> None:
    game = shop_start()
    play(game, "buy", "h@2:2>s2")
    assert texts(game, "claim") == {"s2>c2@2"}  # a 2 claimed before and just played; the 3 stack is barred
    play(game, "s2>c2@2")
    assert money(game, 1) == 2 and claimed(game, 1, 2) == ["2", "2"]


def test_shopping_browsing_keeps_the_base_rules() -> None:
    game = shop_start()
    play(game, "browse", "h@2:2>s2")
    assert texts(game, "claim") == {"s3>c3@2"}
    assert money(game, 1) == 2
    play(game, "pass")
    assert game.current_player == 2 and game.phase == "shop"  # seat 3 has $3
    play(game, "browse", "h@3:2>s2", "pass")
    assert game.current_player == 0 and game.phase == "play"  # seat 1 has $1 only
    play(game, "h@1:1>s1", "pass")
    assert game.phase == "shop" and texts(game) == {"buy", "browse"}  # seat 2 may still buy later


def test_shopping_five_max_forces_on_a_buyer_only_1s_and_2s() -> None:
    game = shop_start()
    play(game, "buy", "h@2:3>s3")  # the 3 stack: $6, Five Max
    assert game.phase == "force" and texts(game) == {"force seat1", "wait"}  # seat 3 claimed 3 before; seat 2 bought


def test_shopping_once_only_and_a_buyer_wins_at_its_goal() -> None:
    game = rules("shopping", copies=4, goal=5, price=1).new_game(deal=make_deal(SHOP_HANDS), players=3)
    play(game, "h@1:2>s2", "pass", "h@2:3>s3", "s2>c2@2", "h@3:1>s1", "s3>c3@3", "h@1:3>s3", "s1>c1@1")
    play(game, "buy", "h@2:2>s2", "s2>c2@2")              # seat 2: $2 - 1 + 2 = $3
    play(game, "buy", "h@3:2>s2", "s2>c2@3")              # seat 3: $3 - 1 + 2 = $4
    play(game, "browse", "h@1:1>s1", "s3>c3@1")           # seat 1: $1 + 3 = $4
    assert [money(game, s) for s in range(3)] == [4, 3, 4] and not game.is_over
    assert game.current_player == 1 and game.phase == "play"  # bought already: no shop phase again
    play(game, "h@2:1>s1", "s1>c1@2")                     # the 1 stack: $2, reaching seat 2's goal of $5
    assert game.is_over and game.outcome == "won" and game.winners() == [1]
    assert money(game, 1) == 5
    assert game.reason == "a seat has reached its goal ($10, or the Small Change goal)"


def test_shopping_default_goal_is_7_and_an_unbought_seat_still_needs_10() -> None:
    game = shop_start()
    play(game, "buy")
    # Give seat 2 (the buyer) $6 and seat 1 $9 directly: neither has won (the buyer needs 7, seat 1 10).
    set_money(game, 1, 6)
    set_money(game, 0, 9)
    play(game, "h@2:2>s2")
    assert not game.is_over
    play(game, "s2>c2@2")                    # $6 + $2 = $8 >= 7
    assert game.is_over and game.winners() == [1]


# ---------------------------------------------------------------------------
# Refund: put a claimed pile back in the centre instead of claiming
# ---------------------------------------------------------------------------

REFUND_HANDS = [[3, 1, 3], [1, 2, 2], [2, 3, 1]]  # copies 3, three players


def test_refund_returns_the_pile_with_its_money_and_frees_the_number() -> None:
    game = new_game("refund", REFUND_HANDS, copies=3)
    play(game, "h@1:3>s3", "pass", "h@2:1>s1", "s3>c3@2", "h@3:2>s2", "s1>c1@3")
    assert money(game, 1) == 3 and game.variable("claims", 1) == 1
    play(game, "h@1:1>s1", "s2>c2@1")
    play(game, "h@2:2>s2")
    assert texts(game, "refund") == {"c3@2>s3"}
    assert texts(game, "claim") == {"s1>c1@2"}  # the 2 stack was just played to (Diversity)
    play(game, "c3@2>s3")
    assert money(game, 1) == 0 and game.variable("claims", 1) == 0
    assert claimed(game, 1, 3) == [] and stack(game, 3) == ["3"]
    assert game.current_player == 2 and game.phase == "play"
    play(game, "h@3:3>s3")  # the 3 stack: $6, Five Max; seat 2 may claim 3 again (and is slowest)
    assert texts(game) == {"force seat2", "wait"}
    play(game, "force seat2", "s3>c3@2")
    assert money(game, 1) == 6


def test_refund_is_not_a_play_so_five_max_does_not_count_it() -> None:
    game = new_game("refund", [[2, 1, 2, 1], [2, 1, 1, 2]], copies=4)  # two players
    play(game, "h@1:2>s2", "pass", "h@2:2>s2", "pass", "h@1:1>s1", "s2>c2@1")  # seat 1 claims $4
    play(game, "h@2:1>s1", "pass", "h@1:2>s2")
    assert texts(game) == {"c2@1>s2", "pass"}  # 2 was just played: no claim of the 2 stack
    play(game, "c2@1>s2")                      # $4 back onto a $2: the stack is worth $6
    assert stack(game, 2) == ["2", "2", "2"] and money(game, 0) == 0
    assert game.current_player == 1 and game.phase == "play"  # no force, no settle


def test_refund_the_base_game_has_no_refund() -> None:
    game = new_game("base", REFUND_HANDS, copies=3)
    play(game, "h@1:3>s3", "pass", "h@2:1>s1", "s3>c3@2", "h@3:2>s2", "s1>c1@3", "h@1:1>s1", "s2>c2@1")
    play(game, "h@2:2>s2")
    assert texts(game) == {"s1>c1@2", "pass"}
    with pytest.raises(IllegalMoveError):
        game.parse_move("c3@2>s3")


# ---------------------------------------------------------------------------
# Full Stacks: the 1 stack is full at four bills
# ---------------------------------------------------------------------------

FOUR_ONES = [[1, 1, 2, 2], [1, 1, 2, 2]]  # copies 4, two players


def four_ones(name: str, **options: Any) -> Any:
    game = new_game(name, FOUR_ONES, copies=4, **options)
    play(game, "h@1:1>s1", "pass", "h@2:1>s1", "pass", "h@1:1>s1", "pass", "h@2:1>s1")
    assert stack(game, 1) == ["1"] * 4
    return game


def test_full_stacks_four_1s_make_a_full_stack() -> None:
    game = four_ones("full-stacks")
    assert game.phase == "force" and texts(game) == {"force seat1", "wait"}
    play(game, "force seat1", "s1>c1@1")
    assert money(game, 0) == 4


def test_full_stacks_base_game_and_option_five_wait_for_five_dollars() -> None:
    for game in (four_ones("base"), four_ones("full-stacks", ones=5)):
        assert game.phase == "claim" and texts(game) == {"pass"}


def test_full_stacks_three_1s_with_option_three() -> None:
    game = new_game("full-stacks", FOUR_ONES, copies=4, ones=3)
    play(game, "h@1:1>s1", "pass", "h@2:1>s1", "pass", "h@1:1>s1")
    assert game.phase == "force" and texts(game) == {"force seat2", "wait"}


# ---------------------------------------------------------------------------
# 500 seeded random games of each example: they end, no bill appears or vanishes, and no view shows
# a seat a bill it cannot know
# ---------------------------------------------------------------------------

OPTION_SETS: dict[str, list[dict[str, Any]]] = {
    "lock": [{}, {"lock": "both"}],
    "skip": [{}],
    "reverse": [{}],
    "again": [{}],
    "peek": [{}],
    "steal": [{}],
    "shopping": [{}, {"price": 1, "goal": 5}, {"price": 4, "goal": 8}],
    "refund": [{}],
    "full-stacks": [{}, {"ones": 3}],
}
REASONS = {
    "a seat has claimed $10 or more",
    "a seat has reached its goal ($10, or the Small Change goal)",
    "the hands ran out; the highest total wins",
}


def hands_of(game: Any) -> list[list[int]]:
    return [list(game.state.piles[p]) for p in game.rules.zones["hand"].piles_for(game.players)]


@pytest.mark.parametrize("name", NAMES)
def test_500_random_games_end_conserve_every_bill_and_show_no_seat_a_bill_it_cannot_know(name: str) -> None:
    """Each seat's knowledge is followed here apart from the engine: its own hand, bills face up,
    and hands shown to it (Peek: a $3 played shows the next seat's hand to the player). No
    example passes a bill from one hand to another."""
    copies_cycle = (3, 4, 6)
    for seed in range(500):
        players = 2 + seed % 5
        options = OPTION_SETS[name][seed % len(OPTION_SETS[name])]
        game = rules(name, copies=copies_cycle[seed % 3], **options).new_game(
            seed=seed, players=players, max_moves=5000)
        in_play = sorted(game.rules.deck_cards[players])
        rng = random.Random(seed)
        knows: list[set[int]] = [set() for _ in range(players)]
        while not game.is_over:
            actor = game.current_player
            move = rng.choice(game.legal_moves())
            game.apply(move)
            assert cards_in_play(game) == in_play, (name, seed)
            after = hands_of(game)
            if name == "peek" and move.name == "play" and game.variable("played") == 3:
                knows[actor] |= set(after[(actor + game.state.direction) % players])
            for viewer in range(players):
                shown = game.view(viewer)["zones"]["hand"]
                for seat in range(players):
                    expected = [game.rules.deck.codes[c] if seat == viewer or game.state.up[c] or c in knows[viewer]
                                else None for c in after[seat]]
                    assert shown[seat] == expected, (name, seed, viewer, seat)
        assert game.outcome == "won", (name, seed, game.outcome, game.reason)
        assert game.reason in REASONS
        assert game.winners()
