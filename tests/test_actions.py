"""Moves as integers (model/actions.py): every move of a ruleset has a fixed action number, dense within
`num_actions`, the same in every game of the ruleset and (tests/test_native.py) in both backends."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy
import pytest
from cardrules import load_ruleset
from cardrules.base.errors import ArgumentError, IllegalMoveError
from conftest import RULESETS
from test_native import FIXTURE_RULESETS

BUNDLED = sorted(p.stem for p in RULESETS.glob("*.yaml"))


def _check_position(game: Any, seat: int | None) -> None:
    moves, actions = game.legal_moves(seat), game.legal_actions(seat)
    assert len(actions) == len(moves) and len(set(actions)) == len(actions), "two legal moves share a number"
    for move, action in zip(moves, actions):
        assert 0 <= action < game.num_actions
        assert game.action(move) == action
        assert game.action_move(action, seat) is move


@pytest.mark.parametrize("name", BUNDLED + FIXTURE_RULESETS, ids=lambda n: Path(n).stem)
def test_legal_moves_have_distinct_action_numbers_that_name_them_back(name: str) -> None:
    rules = load_ruleset(name)
    for seed in range(3):
        game = rules.new_game(seed=seed, players=max(rules.min_players, min(rules.max_players, 3)), max_moves=150)
        rng = random.Random(seed)
        while not game.is_over:
            for seat in range(game.players) if rules.simultaneous else [None]:
                _check_position(game, seat)
            actions = game.legal_actions()
            game.apply_action(actions[rng.randrange(len(actions))])


def test_an_action_number_is_fixed_by_the_move_not_by_the_game() -> None:
    rules = load_ruleset("klondike")
    numbers: dict[str, set[int]] = {}
    for seed in range(40):
        game = rules.new_game(seed=seed)
        for move, action in zip(game.legal_moves(), game.legal_actions()):
            numbers.setdefault(str(move), set()).add(action)
    assert len(numbers) > 10 and all(len(found) == 1 for found in numbers.values())
    assert numbers["draw"] == {0}  # the first move template's block starts at 0
    # distinct moves, distinct numbers: the same number never names two texts
    assert len({next(iter(found)) for found in numbers.values()}) == len(numbers)


def test_the_action_space_is_dense_template_by_template() -> None:
    rules = load_ruleset("klondike")
    space = rules.actions
    offset = 0
    for template, block in zip(rules.moves, space.blocks):
        assert block.offset == offset and block.size >= 1
        assert space.template_of(offset) == space.template_of(offset + block.size - 1) == template.index
        offset += block.size
    assert offset == rules.num_actions == 2617  # 1 + 1 + 8x4 + 7 + 7x7x52 (runs) + 4x7
    assert load_ruleset("klondike", options={"draw": 3}).num_actions == rules.num_actions


def test_per_player_piles_are_numbered_from_the_acting_seat() -> None:
    rules = load_ruleset("nerts")
    game = rules.new_game(seed=3, players=3)
    by_place: dict[tuple[int, int, int, int], set[int]] = {}  # (template, place of src, of dst, count)
    rng = random.Random(3)
    for _ in range(80):
        for seat in range(3):
            for move, action in zip(game.legal_moves(seat), game.legal_actions(seat)):
                template = rules.moves[move.template]
                src = template.seat_sources[seat].index(move.src) if template.seat_sources else move.src
                dst = template.seat_targets[seat].index(move.dst) if template.seat_targets else move.dst
                by_place.setdefault((move.template, src, dst, move.count), set()).add(action)
        seat = rng.randrange(3)
        actions = game.legal_actions(seat)
        if actions:
            game.apply_action(rng.choice(actions), seat)
    # "my work pile 1 onto my pile 3" is one number whichever seat makes it; distinct moves differ
    shared = [numbers for numbers in by_place.values()]
    assert len(by_place) > 20 and all(len(numbers) == 1 for numbers in shared)
    assert len({next(iter(numbers)) for numbers in shared}) == len(shared)
    assert rules.num_actions == 5151  # not 6 seats' piles squared: 6 + 24x6 + 2x4 + 4x4x312 + 1


def test_apply_action_plays_the_move_it_names() -> None:
    rules = load_ruleset("klondike")
    by_move, by_action = rules.new_game(seed=11), rules.new_game(seed=11)
    rng = random.Random(2)
    for _ in range(60):
        move = rng.choice(by_move.legal_moves())
        by_action.apply_action(by_move.action(move))
        by_move.apply(move)
        assert by_move.state.piles == by_action.state.piles and list(by_move.state.up) == list(by_action.state.up)
    by_action.apply_action(numpy.int64(by_action.legal_actions()[0]))  # an agent's numpy integer is an int


@pytest.mark.parametrize("bad", [-1, 2617, 10**30, "3", 2.0, True, None])
def test_an_action_that_is_no_number_of_the_ruleset_is_an_argument_error(bad: Any) -> None:
    game = load_ruleset("klondike").new_game(seed=1)
    with pytest.raises(ArgumentError, match="action"):
        game.apply_action(bad)
    assert not game.history


def test_a_number_of_a_move_not_legal_now_is_refused_naming_its_move() -> None:
    game = load_ruleset("klondike").new_game(seed=1)
    illegal = next(a for a in range(game.num_actions) if a not in game.legal_actions())
    name = game.rules.moves[game.rules.actions.template_of(illegal)].name
    with pytest.raises(IllegalMoveError, match=rf"action {illegal} \(a '{name}' move\) is not legal now"):
        game.apply_action(illegal)
    assert not game.history


def test_a_simultaneous_games_actions_are_each_seats_own() -> None:
    game = load_ruleset("nerts").new_game(seed=4, players=2)
    for seat in (0, 1):
        moves = game.legal_moves(seat)
        action = game.legal_actions(seat)[0]
        game.apply_action(action, seat)
        assert game.history[-1] == moves[0] and game.history[-1].actor == seat
