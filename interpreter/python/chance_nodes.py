"""Stage 6: chance nodes for agents. A game started with `explicit_chance=True` does not draw the
chance of play itself (`random`, `place: random`): the move (or the setup) that meets such a draw
is taken back and the game waits at a chance node, where the caller chooses the outcome, as
OpenSpiel's chance nodes do. The move is then made again with the outcomes chosen so far, which
either completes it or stops it at its next draw. Shuffles still draw on the game's seed (their
outcomes, every order of a pile, are too many to list), as the deal does.
"""

from __future__ import annotations

from typing import Any

from ..base.errors import IllegalMoveError
from .game_core import GameCore, PendingChance, as_whole, shown_value
from .moves import Move
from .state import ChanceNeeded

SETUP = -1   # the key in `chance_log` of the outcomes chosen for the setup's draws


class ChanceNodes(GameCore):
    """`is_chance_node`, `chance_outcomes`, `apply_chance`, and the moves made around them."""

    def _apply(self, move: Move, settle: bool) -> None:
        raise NotImplementedError  # python/engine.py: a move, drawing as `state.outcomes` says

    def _set_up(self) -> None:
        raise NotImplementedError  # python/engine.py: the setup and what follows it

    @property
    def explicit_chance(self) -> bool:
        """Whether the caller chooses the outcomes of the game's draws of chance (chance nodes)."""
        return self.state.outcomes is not None

    @property
    def is_chance_node(self) -> bool:
        """Whether the game waits for the outcome of a draw of chance: no seat acts until
        `apply_chance` (or `apply_action`) chooses it."""
        return self._chance is not None

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """At a chance node, each outcome's number and its probability, as OpenSpiel lists them: the
        draws of the language are alike likely (`random`: each item of its list; `place: random`:
        each number of cards that goes under the packet). Empty elsewhere."""
        pending = self._chance
        if pending is None:
            return []
        n = len(pending.items)
        return [(i, 1.0 / n) for i in range(n)]

    def chance_items(self) -> list[Any]:
        """At a chance node, what each outcome draws, in outcome order: `random`'s items as
        `variable` gives values (a card as its id), or for `place: random` how many cards go under
        the packet. Empty elsewhere. The chance node belongs to the game, not to a seat: its items
        may name cards no seat can see."""
        return list(self._chance.items) if self._chance is not None else []

    def apply_chance(self, outcome: int) -> None:
        """Choose the outcome of the draw the game waits for (a number of `chance_outcomes`). The
        move then goes on; it may stop at its next draw, a new chance node."""
        pending = self._chance
        if pending is None:
            raise IllegalMoveError("no draw of chance waits for an outcome (is_chance_node is false)")
        number = as_whole(outcome)
        if number is None or not 0 <= number < len(pending.items):
            raise IllegalMoveError(f"outcome {shown_value(outcome)} is not one of this draw's "
                                   f"0..{len(pending.items) - 1}")
        self._chance = None
        self._decided(pending.chosen + (number,), pending.move, True)

    def _apply_chosen(self, move: Move, settle: bool) -> None:
        """`apply` under explicit chance: the move's draws take no outcome yet, so the first one
        stops it at a chance node; a move that draws nothing is made at once."""
        if self._chance is not None:
            raise IllegalMoveError("the game waits for a draw of chance: choose its outcome with apply_chance "
                                   "(chance_outcomes lists them)")
        self._decided((), move, settle)

    def _decided(self, chosen: tuple[int, ...], move: Move | None, settle: bool) -> None:
        """Make the move (None: the setup) with `chosen` as its draws' outcomes. Run out of them, it
        is taken back (as a failing move is) and the game waits at a chance node; made, its outcomes
        are logged at its place in the history."""
        index = SETUP if move is None else len(self.history)
        S = self.state
        before = S.copy() if move is None else None  # (the setup's effects are not all journaled)
        S.outcomes = list(chosen)
        try:
            if move is None:
                self._set_up()
            else:
                self._apply(move, settle)  # (a move stopped is taken back, as a failing one)
        except ChanceNeeded as needed:
            if before is not None:
                self.state = before  # the game as it was before the setup's effects
            self._chance = PendingChance(move, chosen, needed.items)
            return
        finally:
            self.state.outcomes = []
        if chosen:
            self.chance_log[index] = chosen
