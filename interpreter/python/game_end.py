"""Stage 6: how a game ends besides its end conditions. `GameEnd` counts the positions for
`end.repeat`, follows the cycles of `end.cycle`, runs `on_end` once, and ends a game a player
quits (`finish`); `Game._after_change` (python/engine.py) checks the end conditions."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .game_core import GameCore
from .moves import Move

if TYPE_CHECKING:
    from ..model.rules import CycleRule


# The positions a cycle keeps once one of them offered another move (`GameEnd._track_cycle`).
_NOTHING_KEPT: frozenset[Any] = frozenset()


class GameEnd(GameCore):
    """Repeated positions, cycles, and the end of a game."""


    def _cards_key(self) -> tuple[tuple[tuple[int, ...], ...], bytes]:
        """Where every card lies and which way up (the position `end.cycle` compares)."""
        S = self.state
        return tuple(map(tuple, S.piles)), bytes(S.up)

    def _position_key(self) -> Any:
        """The whole position (`end.repeat`): the cards, the variables and who is to act in which phase."""
        S = self.state
        return (*self._cards_key(), tuple(S.vars), S.current, S.phase, S.frames, S.next_seat, S.direction, S.asking)

    def _count_position(self) -> bool:
        """Count the position reached (only for rulesets with `end.repeat`)."""
        if self.rules.repeat is None:
            return False
        key = self._position_key()
        self._seen[key] = self._seen.get(key, 0) + 1
        self._keys.append(key)
        return True

    def _uncount_position(self) -> None:
        key = self._keys.pop()
        self._seen[key] -= 1

    def _cycle_start(self, cycle: CycleRule, legal: list[Move]) -> tuple[Any, bool] | None:
        """Where a move of `end.cycle` is about to start a cycle: the position now (its pile lists,
        which are never changed in place, and faces; None if it offers another move, as then the
        cycle can end nothing) and whether it offers another move; None where the cycle's `when`
        does not hold."""
        S = self.state
        if not cycle.counts(S):
            return None
        if cycle.offers_other(legal):
            return None, True
        return (tuple(S.piles), bytes(S.up)), False

    def _track_cycle(self, cycle: CycleRule, legal: list[Move]) -> None:
        """`end.cycle`: follow the positions the cycle's moves go through since any other move (the
        cards and their faces; variables such as a pass count are not part of a position) and end
        the game when one comes back with none of them having offered any other move. Once one
        has, the cycle can end nothing, and its positions are no longer kept."""
        S = self.state
        begin, self._cycle_begin = self._cycle_begin, None
        if not self.history or self.history[-1].template not in cycle.moves:
            if self._cycle is not None:  # another move: the cycle is broken
                self._cycle_stack.append((len(self.history), self._cycle))
                self._cycle = None
            return
        self._cycle_stack.append((len(self.history), self._cycle))  # for undo
        if not cycle.counts(S):
            self._cycle = None  # a cycle lasts while `when` holds
            return
        if self._cycle is not None:
            seen, offered_before = self._cycle
        elif begin is not None:
            start, offered_before = begin
            seen = _NOTHING_KEPT if offered_before else frozenset(((tuple(map(tuple, start[0])), start[1]),))
        else:  # `when` has just come to hold: the cycle begins here
            seen, offered_before = _NOTHING_KEPT, False
        if offered_before:
            self._cycle = (_NOTHING_KEPT, True)
            return
        key = self._cards_key()
        if key in seen:
            self._cycle = (seen, False)
            S.end(cycle.result, cycle.reason)
        elif cycle.offers_other(legal):
            self._cycle = (_NOTHING_KEPT, True)
        else:
            self._cycle = (seen | {key}, False)

    def _restore_cycle(self) -> None:
        """After a move is taken back: the cycle under way as it was before the move."""
        self._cycle_begin = None
        stack = self._cycle_stack
        while stack and stack[-1][0] > len(self.history):
            self._cycle = stack.pop()[1]

    def _ended(self) -> None:
        """The game has just ended: no more moves, and the ruleset's `on_end` effects run once."""
        self._legal, self._seat_legal = [], {}
        env = {"player": self.turn_player}
        self.rules.meter.reset()
        for effect in self.rules.on_end:
            effect(self.state, env)

    def finish(self, outcome: str = "abandoned", reason: str = "the player stopped") -> None:
        """End an unfinished game now (a player quits); the ruleset's `on_end` effects run."""
        if self.state.over:
            return
        S = self.state
        S.marks.append(len(S.journal))
        S.end(outcome, reason)
        self._ended()
