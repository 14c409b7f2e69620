"""Moves that name a value (`choose: {NAME: VALUES}`, docs/language.md "Moves"): one move per value,
the value bound in the move's conditions and effects, named at the end of its text, numbered in
the fixed action space; the values known at load, with positioned errors otherwise.
(tests/fixtures/choose/calls.yaml: bid 0-3, then call a suit before each card is turned.)"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from cardrules import IllegalMoveError, RulesetError, load_ruleset
from helpers import texts

CALLS = Path(__file__).parent / "fixtures" / "choose" / "calls.yaml"


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
    ("{x: [1], y: [2]}", "choose"),
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
