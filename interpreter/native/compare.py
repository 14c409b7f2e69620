"""The two backends compared move by move (`compare`): the legal moves in order, piles, faces,
who knows which card, variables and the turn after every move, and the ending. A difference
is a `Mismatch` (a bug of the native backend).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from ..base.errors import CardrulesError
from .backend import Native
from .game import NativeGame
from .values import CURRENT, DIRECTION, DRAWS, NEXT_SEAT, PHASE


class Mismatch(CardrulesError):
    """The two backends disagree (a bug of the native backend): what differs, and after which moves."""


Check = Callable[[str, Any, Any], None]  # check(what, python's, native's): raises Mismatch where they differ


def compare(native: Native, game: Any, choose: Callable[[list[Any]], Any],
            choose_seat: Callable[[list[int]], int] | None = None, views: bool = False) -> int:
    """Play `game` to its end through both backends at once, `choose` picking each move among the
    Python backend's legal moves, and compare them at every step: the legal moves (as the compiled
    code numbers them, in order, and as the API's action numbers), the piles, faces, who knows
    which card, variables and the order of the turns, then the outcome, reason and score (with
    `views`, which cards each seat and a spectator see, too). Returns the moves played; raises
    `Mismatch` at the first difference.

    Where every seat plays at once, every seat's legal moves are compared, and at each step
    `choose_seat` (default: a generator seeded with the game's seed) picks a seat to focus, then the
    seat that moves among those that have a move."""
    position = native.start(game)
    steps = 0
    if choose_seat is None:
        choose_seat = random.Random(game.seed).choice

    def check(what: str, python: Any, compiled: Any) -> None:
        if python != compiled:
            raise Mismatch(f"after {steps} moves of seed {game.seed}: {what} differ: "
                           f"python {python!r:.200}, native {compiled!r:.200}")

    if game.seed is not None:
        compare_deal(native, game.seed, game.players, game.max_moves, check)

    simultaneous = native.rules.simultaneous
    while True:
        compare_listing(native, game, position, check)
        if game.is_over:
            break
        if simultaneous:  # focus a seat (not a move), then a seat that has a move makes one
            focus = choose_seat(list(range(game.players)))
            game.focus(focus)
            position.focus(focus)
            legal = game.legal_moves(choose_seat([s for s in range(game.players) if game.legal_moves(s)]))
        else:
            legal = game.legal_moves()
        move = choose(legal)
        game.apply(move)
        position.apply_code(native.code(move), move.actor if simultaneous else None)
        steps += 1
        compare_position(native, game, position, check, views)
    compare_ending(game, position, check)
    return steps


def compare_deal(native: Native, seed: int, players: int, max_moves: int | None, check: Check) -> None:
    """`compare`'s test of the start of a game: the game `Native.deal` starts (in compiled code, where
    the module can) is the one the Python backend deals and `Native.start` copies, array for array
    (the piles, faces, who knows which card, variables and every meta field) with the same legal moves."""
    python = native.start(native.rules.new_game(seed=seed, players=players, max_moves=max_moves))
    dealt = native.deal(seed, players, max_moves)
    check("the dealt piles", python.piles(), dealt.piles())
    check("the dealt faces", python.faces(), dealt.faces())
    check("the cards known to seats at the deal", python.known(), dealt.known())
    for name in ("V", "M"):
        check(f"the dealt {name}", [int(x) for x in getattr(python, name)], [int(x) for x in getattr(dealt, name)])
    check("the legal moves at the deal", python.legal_codes(), dealt.legal_codes())
    check("the end at the deal", (python.outcome, python.reason), (dealt.outcome, dealt.reason))


def compare_listing(native: Native, game: Any, position: NativeGame, check: Check) -> None:
    """`compare`'s test of a position's legal moves (as the compiled code numbers them, in order,
    and as action numbers; where every seat plays at once, each seat's) and of whether it ends."""
    check("the legal moves", [native.code(m) for m in game.legal_moves()], position.legal_codes())
    check("the action numbers", game.legal_actions(), position.legal_actions())
    for seat in range(game.players) if native.rules.simultaneous else ():
        check(f"seat {seat + 1}'s legal moves", [native.code(m) for m in game.legal_moves(seat)],
              position.legal_codes(seat))
        check(f"seat {seat + 1}'s action numbers", game.legal_actions(seat), position.legal_actions(seat))
    check("the end", game.is_over, position.is_over)


def compare_position(native: Native, game: Any, position: NativeGame, check: Check, views: bool = False) -> None:
    """`compare`'s test after a move: the piles, faces, who knows which card, variables, the order of
    the turns, the draws of chance made (with `views`, which cards each seat and a spectator see)."""
    check("the piles", [list(p) for p in game.state.piles], position.piles())
    check("the faces", list(game.state.up), position.faces())
    check("the cards known to seats", game.state.known, position.known())
    check("the variables", native.variable_codes(game.state.vars), [int(v) for v in position.V[:len(game.state.vars)]])
    check("the seat to act, its phase and the turns' order", (game.state.current, game.state.phase,
          game.state.next_seat, game.state.direction), (int(position.M[CURRENT]), int(position.M[PHASE]),
          int(position.M[NEXT_SEAT]), int(position.M[DIRECTION])))
    check("the seats asked to act out of turn", game.state.asking, position.asking())
    check("the draws of chance made", game.state.shuffles, int(position.M[DRAWS]))
    for seat in (None, *range(game.players)) if views else ():
        check(f"the cards seen by {'a spectator' if seat is None else f'seat {seat + 1}'}",
              [[c for c in pile if game.visible(c, p, seat)] for p, pile in enumerate(game.state.piles)],
              [[c for c in pile if position.visible(c, p, seat)] for p, pile in enumerate(position.piles())])


def compare_ending(game: Any, position: NativeGame, check: Check) -> None:
    """`compare`'s test of a finished game: the outcome, reason, winners and every seat's score."""
    check("the outcomes", (game.outcome, game.reason), (position.outcome, position.reason))
    check("the winners", game.winners(), position.winners())
    check("the scores", game.scores(), [position.score(p) for p in range(game.players)])
