"""Moves that name a value (`choose: {NAME: VALUES}`, docs/language.md "Moves"): one move per value,
the value bound in the move's conditions and effects, named at the end of its text, numbered in
the fixed action space; the values known at load, with positioned errors otherwise.
(tests/fixtures/choose/calls.yaml: bid 0-3, then call a suit before each card is turned;
tests/fixtures/choose/ask.yaml: several values named together, a seat and a rank, `ask seat3 5`.)"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from cardrules import IllegalMoveError, RulesetError, load_ruleset
from helpers import texts

CALLS = Path(__file__).parent / "fixtures" / "choose" / "calls.yaml"
ASK = Path(__file__).parent / "fixtures" / "choose" / "ask.yaml"


def test_a_move_that_names_a_value_is_offered_once_per_value_its_text_ending_with_the_value() -> None:
    game = load_ruleset(CALLS).new_game(seed=1)
    assert [str(m) for m in game.legal_moves()] == ["bid 0", "bid 1", "bid 2", "bid 3"]
    game.apply(game.parse_move("BID  2"))  # any case, runs of spaces as one
    assert game.variable("bid", 0) == 2
    assert str(game.history[-1]) == "bid 2"
    assert texts(game) == {"call clubs", "call diamonds", "call hearts", "call spades"}


def test_the_value_named_is_bound_in_the_moves_condition() -> None:
    game = load_ruleset(CALLS).new_game(seed=1)
    game.apply(game.parse_move("bid 1"))
    game.apply(game.parse_move("call hearts"))
    game.apply(game.parse_move("bid 0"))
    game.apply(game.parse_move("call hearts"))  # seat 2 may call hearts; seat 1 may not call it again
    game.apply(game.parse_move("pass_bid"))
    assert texts(game) == {"call clubs", "call diamonds", "call spades"}
    with pytest.raises(IllegalMoveError):
        game.parse_move("call hearts")
    with pytest.raises(IllegalMoveError):
        game.parse_move("call stars")


def test_the_value_named_is_bound_in_the_moves_effects_over_200_random_games() -> None:
    rules = load_ruleset(CALLS)
    codes = rules.deck.codes
    suits = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
    for seed in range(200):
        game = rules.new_game(seed=seed)
        rng = random.Random(seed)
        right = [0, 0]
        while not game.is_over:
            seat, move = game.current_player, rng.choice(game.legal_moves())
            game.apply(move)
            if move.name == "call":
                turned = codes[game.state.piles[game.rules.zones["shown"].piles[0]][-1]]
                right[seat] += suits[turned[-1]] == str(move).split()[1]
        bids = [game.variable("bid", p) for p in (0, 1)]
        assert [game.variable("right", p) for p in (0, 1)] == right
        assert game.scores() == [right[p] + 5 * (right[p] == bids[p]) for p in (0, 1)]


def test_the_values_may_come_from_an_options_expression() -> None:
    game = load_ruleset(CALLS, {"suits": 2}).new_game(seed=1)
    game.apply(game.parse_move("bid 0"))
    assert texts(game) == {"call clubs", "call hearts"}


def test_each_value_has_its_own_action_number_in_a_fixed_action_space() -> None:
    rules = load_ruleset(CALLS)
    game = rules.new_game(seed=3)
    assert rules.num_actions == 1 + 4 + 4  # bid 0-3, pass, call one of four suits
    bids = game.legal_actions()
    assert len(set(bids)) == 4 and [str(game.action_move(a)) for a in bids] == ["bid 0", "bid 1", "bid 2", "bid 3"]
    game.apply_action(bids[3])
    assert game.variable("bid", 0) == 3
    calls = game.legal_actions()
    assert [game.action(m) for m in game.legal_moves()] == calls
    assert not set(calls) & set(bids) and max(calls) < rules.num_actions


RULESET = """\
ruleset: c
deck: standard-52
players: 1
variables:
  v: {initial: 0}
zones:
  stock: {short: s}
setup:
  - take_deck: stock
moves:
  name:
    choose: CHOOSE
    do:
      - set: {v: 1}
end:
  when:
    - if: "v == 1"
      result: over
"""


@pytest.mark.parametrize("choose, fragment", [
    ("{x: [1, 2, 1]}", "the value 1 is there twice"),
    ("{x: 'range(v)'}", "must be known when the ruleset loads"),
    ("{x: '[1, ''a'']'}", "all numbers or all strings"),
    ("{x: '[]'}", "one or more values"),
    ("{x: ['two words']}", "a string value is a word"),
    ("{v: [1, 2]}", "'v' is already a name here"),
    ("{x: 'range(2000)'}", "must be known when the ruleset loads"),
    ("{x: [" + ", ".join(str(i) for i in range(1001)) + "]}", "more than 1,000 values"),
    ("{x: 'range(40)', y: 'range(30)'}", "1,200 combinations of values, more than 1,000"),
    # (counted, not made: a billion combinations are refused at once)
    ("{x: 'range(1000)', y: 'range(1000)', z: 'range(1000)'}", "1,000,000,000 combinations of values"),
    ("{x: [1], v: [2]}", "'v' is already a name here"),
])
def test_a_bad_choose_is_an_error_at_its_place(tmp_path: Path, choose: str, fragment: str) -> None:
    path = tmp_path / "c.yaml"
    path.write_text(RULESET.replace("CHOOSE", choose), encoding="utf-8")
    with pytest.raises(RulesetError) as caught:
        load_ruleset(path)
    assert fragment in caught.value.message
    assert caught.value.pos is not None and caught.value.pos.line == 12


def test_choose_and_for_seat_do_not_go_together(tmp_path: Path) -> None:
    path = tmp_path / "c.yaml"
    path.write_text(RULESET.replace("    choose: CHOOSE", "    for_seat: 'true'\n    choose: {x: [1]}"),
                    encoding="utf-8")
    with pytest.raises(RulesetError, match="both 'choose' and 'for_seat'"):
        load_ruleset(path)


def _ranks(game, pile: list[int]) -> list[int]:  # type: ignore[no-untyped-def]
    return [game.rules.deck.cards[c]["rank"] for c in pile]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_move_names_a_seat_and_a_value_together_once_per_seat_of_the_game_and_value(players: int) -> None:
    rules = load_ruleset(ASK)
    assert len(rules.moves[0].choices) == 4 * 6  # every seat a game may have, times the six ranks
    for seed in range(20):
        game = rules.new_game(seed=seed, players=players)
        rng = random.Random(seed)
        while not game.is_over:
            me = game.current_player
            hands = [game.state.piles[game.rules.zones["hand"].seat_piles[s][0]] for s in range(players)]
            held = sorted(set(_ranks(game, hands[me])))
            # the seats of this game only, the first name's values slowest, each rank the asker holds
            expected = [f"ask seat{s + 1} {r}" for s in range(players) if s != me and hands[s] for r in held]
            legal = game.legal_moves()
            assert [str(m) for m in legal if m.name == "ask"] == expected
            move = rng.choice(legal)
            if move.name == "ask":
                seat, rank = (int(w) for w in str(move).removeprefix("ask seat").split())
                seat -= 1
                theirs = [c for c in hands[seat] if _ranks(game, [c])[0] == rank]
                stock = list(game.state.piles[game.rules.zones["stock"].piles[0]])
                mine = list(hands[me])
                game.apply(game.parse_move(str(move).upper()))
                assert game.variable("asked_last") == seat
                now = game.state.piles[game.rules.zones["hand"].seat_piles[me][0]]
                book = game.state.piles[game.rules.zones["book"].seat_piles[me][0]]
                gained = theirs if theirs else stock[-1:]
                if _ranks(game, mine + gained).count(rank) == 4:  # a book of the rank asked for is laid down
                    assert sorted(_ranks(game, book)[-4:]) == [rank] * 4 and rank not in _ranks(game, now)
                else:
                    assert sorted(now) == sorted(mine + gained)
            elif move.name == "give":
                seat = int(str(move).rsplit("seat", 1)[1]) - 1
                assert seat != me and len(hands[me]) > 5 and str(move).startswith("give:h@")
                game.apply(move)
                theirs_now, mine_now = (game.state.piles[game.rules.zones["hand"].seat_piles[s][0]] for s in (seat, me))
                assert theirs_now[-1] == move.pick and move.pick not in mine_now
            else:
                game.apply(move)
        books = [game.variable("books", s) for s in range(players)]
        assert game.scores() == books
        assert sum(len(p) for p in game.state.piles) == 24


def test_each_combination_has_its_own_action_number_and_the_rules_name_both_values() -> None:
    from cardrules.workbench.describe import describe

    rules = load_ruleset(ASK)
    assert rules.moves[0].name == "ask" and rules.actions.blocks[0].size == 4 * 6
    game = rules.new_game(seed=5, players=3)
    actions = game.legal_actions()
    assert [game.action(m) for m in game.legal_moves()] == actions
    assert [str(game.action_move(a)) for a in actions] == [str(m) for m in game.legal_moves()]
    items = [block.text for block in describe(ASK).blocks if block.kind == "item"]
    assert "It also names seat: any seat of the game." in items
    assert "It also names rank: one of the numbers from 1 to 6." in items


def test_explain_reads_both_values_and_says_which_a_move_may_name() -> None:
    game = load_ruleset(ASK).new_game(seed=5, players=3)
    legal = game.legal_moves()
    assert game.explain(str(legal[0])).legal
    assert "; not 'seat4 1'" in str(game.explain("ask seat4 1"))  # no fourth seat in a game of three
    assert "ask names one of: seat1 1, seat1 2" in str(game.explain("ask seat9 9"))
    asked_for_more = game.explain("ask seat2 1")  # seat 1 holds no ace (seed 5): the condition says so
    assert not asked_for_more.legal and "any(c.rank == rank for c in cards(hand))" in str(asked_for_more)


def test_naming_a_seat_and_a_value_plays_the_same_natively() -> None:
    from helpers import play_both_backends

    games = play_both_backends(load_ruleset(ASK), range(1, 6), players=(2, 3, 4))
    assert all(game.is_over for game in games)
