"""Stage 6: whose move comes next. `TurnOrder` moves a game on after a move: to the turn's next
phase or the next seat's turn (`phases`, `act`, `turn_to`, `reverse`), past optional phases that
offer nothing, and through the seats asked to act out of turn (`out_of_turn`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .game_core import GameCore
from .moves import Move
from .state import Asking

if TYPE_CHECKING:
    from ..model.ruleset import MoveTemplate


class TurnOrder(GameCore):
    """The turn's phases and seats, and the asking of seats out of turn."""


    def _advance_turn(self, end_turn: bool) -> None:
        """After a move: the turn's next phase, or (after the last, or `end_turn`) the next seat's turn."""
        S = self.state
        if S.frames:  # a seat acted for another (`act`): back to that one, then on from its phase
            seat, phase = S.frames[-1]
            S.set_frames(S.frames[:-1])
            S.set_current(seat, phase)
            end_turn = False
        self._next_phase(end_turn)
        self._skip_optional_phases()

    def _next_phase(self, end_turn: bool) -> None:
        """The turn's next phase (interrupt phases are entered only by `act`), or the next turn."""
        rules, S = self.rules, self.state
        following = S.phase + 1
        while following in rules.interrupt_phases:
            following += 1
        if rules.phases and not end_turn and following < len(rules.phases):
            S.set_current(S.current, following)
            return
        first = rules.first_phase
        if rules.rotation:
            following = S.next_seat
            if following >= 0:  # `turn_to` chose the seat
                S.set_turn_order(-1, S.direction)
            else:
                following = (S.current + S.direction) % self.players
            S.set_current(following, first)
        elif rules.phases:
            S.set_current(S.current, first)

    # -- acting out of turn (`out_of_turn`) ---------------------------------------------------------
    #
    # After each move the seats are asked in turn order, from the one after the seat that moved
    # (that seat last): those that may make a move out of turn now, or, where that could tell
    # a hidden card (`Ruleset.asks_everyone`), every seat. The seat asked has those moves and
    # `pass`; a pass asks the next; any other move ends the asking, the turn goes on where it was
    # (or the seat its `turn_to` names starts a turn), and the seats are asked again after it.
    # A move out of turn made in the seat's own turn is no turn's move either: the turn goes on.

    def _ask_out_of_turn(self, mover: int, after: int) -> None:
        S = self.state
        if after not in self.rules.opens_asking:
            return
        seats = tuple((mover + S.direction * i) % self.players for i in range(1, self.players + 1))
        self._ask(seats, (S.current, S.phase, S.next_seat, (), after))

    def _ask(self, seats: tuple[int, ...], asking: Asking) -> None:
        """Give the move to the first of `seats` to be asked, or, if none is, back to the turn."""
        S = self.state
        resume, phase, chosen, _, after = asking
        for i, seat in enumerate(seats):
            if self.rules.asks_everyone or self._may_act_out_of_turn(seat, asking):
                if S.next_seat >= 0:  # kept aside, so that a `turn_to` of the answer can be told from it
                    S.set_turn_order(-1, S.direction)
                S.set_asking((resume, phase, chosen, seats[i + 1:], after))
                S.set_current(seat, phase)
                return
        if S.asking is not None:
            self._back_to_turn(asking)

    def _back_to_turn(self, asking: Asking) -> None:
        """The asking is over: the turn goes on where it was, with the `turn_to` seat kept aside."""
        S = self.state
        resume, phase, chosen, _, _ = asking
        if S.asking is not None:
            S.set_asking(None)
        S.set_current(resume, phase)
        if chosen >= 0:
            S.set_turn_order(chosen, S.direction)

    def _may_act_out_of_turn(self, seat: int, asking: Asking) -> bool:
        """Has `seat`, if asked now, a move out of turn (other than `pass`)?"""
        S = self.state
        saved = S.current, S.phase, S.asking
        S.current, S.phase, S.asking = seat, asking[1], asking  # a look, not a change: not journaled
        moves: list[Move] = []
        try:
            self._generate(moves)
        finally:
            S.current, S.phase, S.asking = saved
        return any(not self.rules.moves[move.template].declines for move in moves)

    def _answered(self, template: MoveTemplate, asking: Asking, seat: int) -> None:
        S = self.state
        if template.declines:
            self._ask(asking[3], asking)
            return
        if S.next_seat >= 0:  # the move's `turn_to`: that seat's turn starts now
            if S.asking is not None:
                S.set_asking(None)
            S.set_current(S.next_seat, self.rules.first_phase)
            S.set_turn_order(-1, S.direction)
        else:
            self._back_to_turn(asking)
        self._skip_optional_phases()
        if not S.over:
            self._ask_out_of_turn(seat, template.index)

    def _skip_optional_phases(self) -> None:
        """An optional phase that offers the seat no move is passed over (a move owed only sometimes)."""
        rules, S = self.rules, self.state
        if not rules.optional_phases:
            return
        for _ in range(len(rules.phases) * self.players):  # at most one full round of phases
            if S.over or S.phase not in rules.optional_phases:
                return
            moves: list[Move] = []
            self._generate(moves)
            if moves:
                return
            self._next_phase(False)
