"""Every bad argument to the library is a `CardrulesError` that says what was expected, and a move
belongs to the game (and the ruleset) that offered it.

A table of calls, each with the error class and a fragment of its message; never an
AttributeError, IndexError, KeyError or TypeError. Then moves across games: a move of another
ruleset or of another game is refused, a move of a `clone` or a `determinize`d copy is taken, and
every bot still plays games to the end.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pytest

from cardrules import IllegalMoveError, SetupError, load_ruleset
from cardrules.agents.bots import BOT_KINDS, make_bot
from cardrules.python.engine import Game, Move
from cardrules.base.errors import ArgumentError, CardrulesError, DealError

ROOT = Path(__file__).resolve().parent.parent
KLONDIKE = load_ruleset("klondike")
RACE = load_ruleset(ROOT / "tests" / "fixtures" / "race.yaml")


def klondike() -> Game:
    return KLONDIKE.new_game(seed=1)


def ten_bucks() -> Game:
    return load_ruleset("ten-bucks").new_game(seed=1, players=2)


def race() -> Game:
    return RACE.new_game(seed=1)


def undone() -> None:
    game = klondike()
    game.undo()


CALLS: list[tuple[str, Callable[[], Any], type[CardrulesError], str]] = [
    ("apply a text", lambda: klondike().apply("draw"), IllegalMoveError,  # type: ignore[arg-type]
     "use game.apply(game.parse_move('draw'))"),
    ("apply None", lambda: klondike().apply(None), IllegalMoveError,  # type: ignore[arg-type]
     "apply takes a Move (one of game.legal_moves()), not None"),
    ("apply a number", lambda: klondike().apply(3), IllegalMoveError, "apply takes a Move"),  # type: ignore[arg-type]
    ("apply an unknown template", lambda: klondike().apply(Move(KLONDIKE, 99, 0, 1, 1)), IllegalMoveError,
     "a move's template is an index into the ruleset's moves, 0-"),
    ("apply a pile out of range", lambda: klondike().apply(Move(KLONDIKE, 1, 999, 1, 2)), IllegalMoveError,
     "a move's src is a pile index"),
    ("apply a pile that is not a number", lambda: klondike().apply(Move(KLONDIKE, 1, 0, 1, "t1")),  # type: ignore[arg-type]
     IllegalMoveError, "a move's dst is a pile index"),
    ("apply a negative count", lambda: klondike().apply(Move(KLONDIKE, 1, 0, -2, 1)), IllegalMoveError,
     "a move's count is a number of cards"),
    ("apply a card out of range", lambda: klondike().apply(Move(KLONDIKE, 1, 0, 1, 1, (), 999)),
     IllegalMoveError, "a move's pick is a card index"),
    ("apply a seat the game has not", lambda: race().apply(_with_actor(race(), 7)), IllegalMoveError,
     "seat index 7"),
    ("legal moves of seat 99", lambda: klondike().legal_moves(seat=99), ArgumentError,
     "seat must be a seat index, 0-0 in this game of 1 seat"),
    ("legal moves of seat -1", lambda: ten_bucks().legal_moves(seat=-1), ArgumentError,
     "seat must be a seat index, 0-1 in this game of 2 seats (0 is seat 1), not -1"),
    ("legal moves of seat '1'", lambda: ten_bucks().legal_moves(seat="1"), ArgumentError,  # type: ignore[arg-type]
     "not '1'"),
    ("view of player -5", lambda: klondike().view(player=-5), ArgumentError, "player must be a seat index"),
    ("view of player 2.5", lambda: ten_bucks().view(player=2.5), ArgumentError, "not 2.5"),  # type: ignore[arg-type]
    ("record of seat 9", lambda: ten_bucks().record(9), ArgumentError, "seat must be a seat index"),
    ("parse_move(None)", lambda: klondike().parse_move(None), IllegalMoveError,  # type: ignore[arg-type]
     "parse_move takes a move's text (such as 'draw' or 't3>f1'), not None"),
    ("parse_move of an illegal move", lambda: klondike().parse_move("t9>f9"), IllegalMoveError,
     "'t9>f9' is not a legal move now"),
    ("parse_move for seat 5", lambda: ten_bucks().parse_move("pass", seat=5), ArgumentError,
     "seat must be a seat index"),
    ("an unknown variable", lambda: klondike().variable("nope"), ArgumentError,
     "unknown variable 'nope' (variables: "),
    ("a misspelt variable", lambda: ten_bucks().variable("mony"), ArgumentError, "did you mean 'money'?"),
    ("a variable of seat 3", lambda: ten_bucks().variable("money", 3), ArgumentError,
     "player must be a seat index, 0-1"),
    ("a variable named by a number", lambda: klondike().variable(3), ArgumentError,  # type: ignore[arg-type]
     "unknown variable '3'"),
    ("label of seat 99", lambda: klondike().label(99), ArgumentError, "player must be a seat index"),
    ("focus on seat 9", lambda: race().focus(9), IllegalMoveError, "there is no seat 10: focus takes a seat index"),
    ("focus on a bad seat, turns taken", lambda: ten_bucks().focus(-3), IllegalMoveError, "there is no seat -2"),
    ("focus on seat None", lambda: race().focus(None), IllegalMoveError, "there is no seat None"),  # type: ignore[arg-type]
    ("a seed that is text", lambda: KLONDIKE.new_game(seed="x"), SetupError,  # type: ignore[arg-type]
     "a seed is a whole number, not 'x'"),
    ("a seed that is a float", lambda: KLONDIKE.new_game(seed=1.5), SetupError,  # type: ignore[arg-type]
     "a seed is a whole number, not 1.5"),
    ("players as text", lambda: KLONDIKE.new_game(seed=1, players="2"), SetupError,  # type: ignore[arg-type]
     "players is a whole number of seats, not '2'"),
    ("players out of range", lambda: KLONDIKE.new_game(seed=1, players=3), SetupError,
     "is for 1-1 players, not 3"),
    ("no seed and no deal", lambda: KLONDIKE.new_game(), SetupError, "a game needs a seed or a deal"),
    ("a deal that is a number", lambda: KLONDIKE.new_game(deal=52), SetupError,  # type: ignore[arg-type]
     "a deal is a text of card codes or a list of card codes"),
    ("a deal listing None", lambda: KLONDIKE.new_game(deal=["AS", None]), SetupError,  # type: ignore[list-item]
     "a deal lists card codes (strings such as 'AS'), not None"),
    ("a deal of garbage", lambda: KLONDIKE.new_game(deal="garbage"), DealError,
     "'garbage' is not a card of the standard-52 deck"),
    ("a deal too short", lambda: KLONDIKE.new_game(deal=["AS"]), DealError, "the deal lists 1 cards"),
    ("persisted values that are no dict", lambda: KLONDIKE.new_game(seed=1, persisted=[1]),  # type: ignore[arg-type]
     SetupError, "persisted values are a dict by variable name"),
    ("a persisted value of -2 ** 63", lambda: KLONDIKE.new_game(seed=1, persisted={"balance": -(2 ** 63)}),
     SetupError, "the persisted value of 'balance': -9223372036854775808 is outside the 64-bit integer range"),
    ("a persisted value past 64 bits", lambda: KLONDIKE.new_game(seed=1, persisted={"balance": 2 ** 63}),
     SetupError, "is outside the 64-bit integer range"),
    ("a persisted value of the wrong type", lambda: KLONDIKE.new_game(seed=1, persisted={"balance": "9"}),
     SetupError, "the persisted value of 'balance': the text \"9\" where an integer is expected"),
    ("a move limit that is text", lambda: KLONDIKE.new_game(seed=1, max_moves="9"),  # type: ignore[arg-type]
     SetupError, "max_moves is a whole number of moves"),
    ("undo with nothing to undo", undone, IllegalMoveError, "there is no move to undo"),
    ("determinize for seat -1", lambda: ten_bucks().determinize(-1, random.Random(1)), ArgumentError,
     "seat must be a seat index, 0-1 in this game of 2 seats (0 is seat 1), not -1"),
    ("determinize for seat 2 of 2", lambda: ten_bucks().determinize(2, random.Random(1)), ArgumentError,
     "seat must be a seat index, 0-1"),
    ("determinize for seat '0'", lambda: ten_bucks().determinize("0", random.Random(1)), ArgumentError,  # type: ignore[arg-type]
     "not '0'"),
    ("determinize for seat True", lambda: ten_bucks().determinize(True, random.Random(1)), ArgumentError,
     "not True"),
    ("determinize for a numpy float seat", lambda: ten_bucks().determinize(np.float64(1), random.Random(1)),
     ArgumentError, "seat must be a seat index"),
    ("determinize with a number as rng", lambda: ten_bucks().determinize(0, 5), ArgumentError,  # type: ignore[arg-type]
     "determinize draws on a random.Random (rng), not 5"),
    ("determinize with numpy's generator", lambda: ten_bucks().determinize(0, np.random.default_rng(1)),  # type: ignore[arg-type]
     ArgumentError, "determinize draws on a random.Random"),
    ("legal moves of a numpy seat out of range", lambda: ten_bucks().legal_moves(seat=np.int64(5)), ArgumentError,
     "not np.int64(5)" if np.__version__ >= "2" else "not 5"),
    ("a seed that is a numpy float", lambda: KLONDIKE.new_game(seed=np.float64(1)), SetupError,  # type: ignore[arg-type]
     "a seed is a whole number"),
    ("players as a numpy bool", lambda: load_ruleset("ten-bucks").new_game(seed=1, players=np.bool_(True)),  # type: ignore[arg-type]
     SetupError, "players is a whole number of seats"),
]


def _with_actor(game: Game, actor: int) -> Move:
    move = game.legal_moves()[0]
    move.actor = actor
    return move


@pytest.mark.parametrize("call, error, fragment", [c[1:] for c in CALLS], ids=[c[0] for c in CALLS])
def test_a_bad_argument_is_a_clean_error(call: Callable[[], Any], error: type[CardrulesError], fragment: str) -> None:
    with pytest.raises(error) as caught:
        call()
    assert fragment in str(caught.value)
    assert isinstance(caught.value, CardrulesError)


@pytest.mark.parametrize("integer", [np.int64, np.int32, np.uint8, np.intp])
def test_numpy_integers_are_taken_where_a_whole_number_is_meant(integer: type) -> None:
    plain = load_ruleset("ten-bucks").new_game(seed=7, players=2)
    game = load_ruleset("ten-bucks").new_game(seed=integer(7), players=integer(2), max_moves=integer(200))
    assert (type(game.seed), type(game.players), type(game.max_moves)) == (int, int, int)
    assert game.view(integer(1)) == plain.view(1) and game.record(integer(0)) == plain.record(0)
    assert game.variable("money", integer(1)) == plain.variable("money", 1)
    assert game.legal_moves(seat=integer(game.current_player)) == game.legal_moves()
    copy = game.determinize(integer(1), random.Random(3))
    assert copy.view(1) == plain.determinize(1, random.Random(3)).view(1)


def test_a_spectators_view_has_no_legal_moves() -> None:
    game = ten_bucks()
    assert game.view(None)["legal_moves"] == [] and game.view(0)["legal_moves"]


# -- moves belong to their game --------------------------------------------------------------

def test_a_move_of_another_ruleset_is_refused() -> None:
    draw3 = load_ruleset("klondike-draw3").new_game(seed=1)
    game = klondike()
    stranger = draw3.legal_moves()[0]
    assert str(stranger) == str(game.legal_moves()[0]) == "draw"
    with pytest.raises(IllegalMoveError, match="draw is a move of klondike-draw3, not of this game of klondike"):
        game.apply(stranger)
    other_options = load_ruleset("klondike", options={"draw": 3}).new_game(seed=1).legal_moves()[0]
    with pytest.raises(IllegalMoveError, match="a move of another ruleset named klondike"):
        game.apply(other_options)
    assert game.history == []


def test_a_move_of_another_game_of_the_same_ruleset_is_refused() -> None:
    game, twin = klondike(), klondike()
    with pytest.raises(IllegalMoveError, match="is a move of another game of klondike, not of this one"):
        game.apply(twin.legal_moves()[0])
    game.apply(game.legal_moves()[0])


def test_moves_of_clones_and_determinized_copies_are_taken() -> None:
    game = ten_bucks()
    game.apply(game.clone().legal_moves()[0])
    game.apply(game.determinize(game.current_player, random.Random(1)).legal_moves()[0])
    game.apply(game.determinize(game.current_player, random.Random(2)).clone().clone().legal_moves()[0])
    assert len(game.history) == 3
    # A clone's move is taken even after the game has moved on, while it is still legal.
    solitaire = klondike()
    kept = solitaire.clone().legal_moves()
    solitaire.apply(kept[0])
    solitaire.undo()
    solitaire.apply(kept[0])


def test_a_move_built_by_hand_on_the_games_own_ruleset_is_checked_like_any_other() -> None:
    game = klondike()
    legal = game.legal_moves()[0]
    game.apply(Move(KLONDIKE, legal.template, legal.src, legal.count, legal.dst))
    with pytest.raises(IllegalMoveError, match="is not a legal move now"):
        game.apply(Move(KLONDIKE, 1, 0, 1, 2))


@pytest.mark.parametrize("kind", sorted(BOT_KINDS))
def test_every_bot_plays_games_to_the_end(kind: str) -> None:
    params: dict[str, Any] = {"montecarlo": {"budget": 20, "depth": 20},
                              "ismcts": {"iterations": 20, "depth": 20},
                              "mcts": {"playouts": 20, "depth": 20}}.get(kind, {})
    for name, players in (("ten-bucks", 3), ("klondike", 1)):
        rules = load_ruleset(name)
        game = rules.new_game(seed=2, players=players, max_moves=150)
        bots = [make_bot(kind, seat, **params) for seat in range(players)]
        while not game.is_over:
            game.apply(bots[game.current_player].choose(game))
        assert game.is_over and game.outcome is not None
