"""Chance nodes in the agents' API (python/chance_nodes.py, docs/agents.md "Chance nodes"): a game
started with `explicit_chance=True` stops at each draw of chance during play (`random`, `place:
random`) and at the setup's, for the caller to choose the outcome, as OpenSpiel's chance nodes do.
tests/fixtures/chance/dice.yaml draws a direction at the deal and three values a roll;
tests/fixtures/rounds/bury.yaml tucks cards at a random place."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from cardrules import IllegalMoveError, load_ruleset
from cardrules.model.chance import chance_stream

from helpers import pile_ids

FIXTURES = Path(__file__).parent / "fixtures"
DICE = FIXTURES / "chance" / "dice.yaml"
BURY = FIXTURES / "rounds" / "bury.yaml"


def test_a_draw_in_the_setup_is_the_first_chance_node() -> None:
    game = load_ruleset(DICE).new_game(seed=3, explicit_chance=True)
    assert game.is_chance_node and game.explicit_chance
    assert game.chance_items() == [1, 3, 2, 0]  # `random: {direction: "[1, 3, 2, 0]"}`
    assert game.chance_outcomes() == [(0, 0.25), (1, 0.25), (2, 0.25), (3, 0.25)]
    assert game.legal_moves() == [] and game.legal_actions() == [0, 1, 2, 3]
    assert pile_ids(game, "stock") == []  # the setup is made whole once its draws are chosen
    game.apply_action(2)  # at a chance node, as in OpenSpiel: the outcome numbered 2
    assert not game.is_chance_node and game.chance_outcomes() == [] and game.chance_items() == []
    assert game.variable("direction") == 2
    assert len(pile_ids(game, "stock")) == 52  # the setup ran once, whole
    assert [move.text() for move in game.legal_moves()] == ["roll"]


def test_each_draw_of_a_move_waits_for_its_outcome_and_the_move_is_made_once_all_are_chosen() -> None:
    game = load_ruleset(DICE).new_game(seed=3, explicit_chance=True)
    game.apply_chance(0)
    stock = pile_ids(game, "stock")
    game.apply(game.legal_moves()[0])
    assert game.is_chance_node and game.chance_items() == [1, 2, 3, 4, 5, 6]
    assert game.history == [] and game.variable("rolls") == 0  # not made yet
    game.apply_chance(5)  # a six: the points so far doubled
    assert game.chance_items() == ["left", "right", "across", "keep"] and game.history == []
    game.apply_chance(1)
    assert game.chance_items() == stock  # `held: "cards(stock)"`: the stock's cards as they lie
    game.apply_chance(10)
    assert not game.is_chance_node and len(game.history) == 1
    assert game.variable("die", 0) == 6 and game.variable("points", 0) == 12 and game.variable("rolls", 0) == 1
    assert game.variable("word") == "right" and game.variable("held") == stock[10]
    assert game.chance_log == {-1: (0,), 0: (5, 1, 10)}
    assert game.current_player == 1


def test_outcomes_chosen_as_the_seed_would_draw_them_play_the_seeded_game() -> None:
    """Stopping at a draw and making the move again leaves no trace: a caller that chooses what
    the seed would have drawn plays exactly the game the engine plays by itself."""
    for path in (DICE, BURY):
        rules = load_ruleset(path)
        for seed in range(6):
            seeded = rules.new_game(seed=seed)
            chosen = rules.new_game(seed=seed, explicit_chance=True)
            moves = random.Random(seed)
            nodes = 0
            while not seeded.is_over:
                while chosen.is_chance_node:
                    nodes += 1
                    draw = chosen.state.shuffles + len(chosen._chance.chosen)
                    chosen.apply_chance(chance_stream(chosen.state.chance, draw).randrange(len(chosen.chance_items())))
                assert chosen.view(0) == seeded.view(0)
                legal = seeded.legal_moves()
                assert [m.text() for m in chosen.legal_moves()] == [m.text() for m in legal]
                k = moves.randrange(len(legal))
                seeded.apply(legal[k])
                chosen.apply(chosen.legal_moves()[k])
            while chosen.is_chance_node:  # (a last move may draw too)
                draw = chosen.state.shuffles + len(chosen._chance.chosen)
                chosen.apply_chance(chance_stream(chosen.state.chance, draw).randrange(len(chosen.chance_items())))
            assert chosen.is_over and chosen.view(0) == seeded.view(0)
            assert nodes > 0


def test_a_random_place_is_a_chance_node_over_how_many_cards_go_under_the_packet() -> None:
    game = load_ruleset(BURY).new_game(seed=1, explicit_chance=True)
    assert not game.is_chance_node  # (no draw in this setup)
    stock = pile_ids(game, "stock")
    game.apply(game.parse_move("bury2"))  # the top two together, under some of the other cards
    assert game.is_chance_node and game.chance_items() == list(range(len(stock) - 1))
    assert game.chance_outcomes()[0] == (0, 1 / (len(stock) - 1))
    game.apply_chance(3)
    assert pile_ids(game, "stock") == stock[:3] + stock[-2:] + stock[3:-2]


def test_what_cannot_be_done_at_a_chance_node_and_outcomes_out_of_range_are_refused() -> None:
    game = load_ruleset(DICE).new_game(seed=3, explicit_chance=True)
    game.apply_chance(0)
    roll = game.legal_moves()[0]
    with pytest.raises(IllegalMoveError, match="no draw of chance waits"):
        game.apply_chance(0)
    game.apply(roll)
    with pytest.raises(IllegalMoveError, match="waits for a draw of chance"):
        game.apply(roll)
    for bad in (6, -1, "2", 1.5, True):
        with pytest.raises(IllegalMoveError, match="is not one of this draw's 0..5"):
            game.apply_chance(bad)
    assert game.is_chance_node and game.chance_items() == [1, 2, 3, 4, 5, 6]  # unchanged by the refusals


def test_undo_at_a_chance_node_drops_the_waiting_move_and_after_it_forgets_its_outcomes() -> None:
    game = load_ruleset(DICE).new_game(seed=3, explicit_chance=True)
    game.apply_chance(0)
    before = game.view(0)
    game.apply(game.legal_moves()[0])
    game.apply_chance(2)
    game.undo()  # the roll waited at its second draw: it was never made
    assert not game.is_chance_node and game.view(0) == before and game.history == []
    game.apply(game.legal_moves()[0])
    for outcome in (5, 0, 0):
        game.apply_chance(outcome)
    assert game.variable("points", 0) == 12
    game.undo()
    assert game.view(0) == before and game.chance_log == {-1: (0,)}
    game.apply(game.legal_moves()[0])  # the same draws again wait for outcomes: none is kept from before
    assert game.is_chance_node and game.chance_items() == [1, 2, 3, 4, 5, 6]
    for outcome in (1, 0, 0):
        game.apply_chance(outcome)
    assert game.variable("die", 0) == 2 and game.variable("points", 0) == 2


def test_a_clone_at_a_chance_node_goes_its_own_way() -> None:
    game = load_ruleset(DICE).new_game(seed=3, explicit_chance=True)
    game.apply_chance(0)
    game.apply(game.legal_moves()[0])
    other = game.clone()
    for outcome in (0, 0, 0):
        other.apply_chance(outcome)
    assert other.variable("die", 0) == 1 and game.is_chance_node and game.variable("die", 0) == 0
    for outcome in (3, 0, 0):
        game.apply_chance(outcome)
    assert game.variable("die", 0) == 4 and other.variable("die", 0) == 1


def test_the_information_state_replays_the_outcomes_chosen() -> None:
    game = load_ruleset(DICE).new_game(seed=3, explicit_chance=True)
    game.apply_chance(1)
    for chosen in ((5, 0, 0), (2, 3, 7), (0, 0, 0)):
        game.apply(game.legal_moves()[0])
        for outcome in chosen:
            game.apply_chance(outcome)
    lines = game.information_state_string(0).splitlines()
    assert len(lines) == 4
    assert lines[-1].endswith(game.observation_string(0))
    assert '"die":6' in lines[1] and '"direction":3' in lines[0] and '"word":"keep"' in lines[2]


def test_a_seats_imagined_copy_draws_by_itself_and_the_engine_draws_without_explicit_chance() -> None:
    rules = load_ruleset(DICE)
    game = rules.new_game(seed=3, explicit_chance=True)
    game.apply_chance(0)
    copy = game.determinize(0, random.Random(1))
    copy.apply(copy.legal_moves()[0])
    assert not copy.is_chance_node and not copy.explicit_chance and len(copy.history) == 1
    plain = rules.new_game(seed=3)
    plain.apply(plain.legal_moves()[0])
    assert not plain.explicit_chance and not plain.is_chance_node and plain.chance_outcomes() == []
    assert plain.legal_actions() != [] and plain.chance_log == {}


def test_explicit_chance_is_true_or_false() -> None:
    from cardrules import SetupError

    with pytest.raises(SetupError, match="explicit_chance is true or false"):
        load_ruleset(DICE).new_game(seed=3, explicit_chance="yes")  # type: ignore[arg-type]
