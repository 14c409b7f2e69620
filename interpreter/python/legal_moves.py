"""Stage 6: the legal moves of a game. `LegalMoves` lists them for the seat to act (or any seat,
in a simultaneous game) with the ruleset's generated enumerators (python/movegen.py), keeps a
listing while nothing it reads changes, and gives `legal_moves()` to the ruleset's expressions."""

from __future__ import annotations

from typing import Any

from ..base.errors import IllegalMoveError
from .game_core import GameCore, as_whole, shown_value
from .moves import BLIND, Move


class LegalMoves(GameCore):
    """Listing a game's legal moves (`Game._generate`, python/engine.py, runs the enumerators)."""


    def legal_moves(self, seat: int | None = None) -> list[Move]:
        """The legal moves of the seat to act, or of `seat`. In a turn-based game a seat that is not
        to act has none; in a simultaneous game every seat has its own at any moment. At a chance
        node (python/chance_nodes.py) no seat has any."""
        S = self.state
        if self._chance is not None:
            return []
        if seat is None or seat == S.current:
            if self._legal is None:
                self._legal = self._enumerate()
            return list(self._legal)
        seat = self._check_seat(seat)
        if not self.rules.simultaneous:
            return []
        if seat not in self._seat_legal:
            saved, S.current = S.current, seat  # enumerators read the acting seat from the state
            try:
                self._seat_legal[seat] = self._enumerate()
            finally:
                S.current = saved
        return list(self._seat_legal[seat])

    def is_safe(self, move: Move) -> bool:
        """Does the move's template declare it safe here (`safe:`): a move that can never hurt, which
        a solver plays without trying the others?"""
        safe = self.rules.moves[move.template].safe
        if safe is None:
            return False
        pick = self._blind_card(move.src) if move.pick == BLIND else move.pick
        env = self._move_env(move, pick)
        self.rules.meter.reset()
        return bool(safe(self.state, env))

    def _move_env(self, move: Move, pick: int | tuple[int, ...] | None) -> dict[str, Any]:
        """The names a move's own expressions see (`when`, `do`, `safe`), as the move stands now."""
        S = self.state
        template = self.rules.moves[move.template]
        pile = S.piles[move.src] if move.src >= 0 else []
        cards = list(pick) if isinstance(pick, tuple) else [pick] if pick is not None else \
            (pile[len(pile) - move.count:] if move.count else [])
        env = {"src": move.src, "dst": move.dst, "n": move.count, "cards": cards,
               "card": cards[0] if cards else None, "player": S.current, "move": template.name,
               "pick": pick, "target": move.seat}
        if template.choices:  # `choose`: the value named, by its index
            env.update(template.named_values(move.seat))
        return env

    def focus(self, seat: int) -> None:
        """In a simultaneous game: make `seat` the one that `current_player` and `legal_moves()`
        mean (the seat about to decide). Not a move: nothing is recorded."""
        S = self.state
        index = as_whole(seat)
        if index is None or not 0 <= index < self.players:
            raise IllegalMoveError(f"there is no seat {index + 1 if index is not None else shown_value(seat)}: focus "
                                   f"takes a seat index, 0-{self.players - 1}")
        seat = index
        if not self.rules.simultaneous or seat == S.current:
            return
        if self._legal is not None:
            self._seat_legal[S.current] = self._legal
        S.current = seat
        self._legal = self._seat_legal.pop(seat, None)

    def _enumerate(self) -> list[Move]:
        S = self.state
        listed, self._listed = self._listed, None
        if S.over:
            return []
        rules = self.rules
        if listed is not None and self._still_listed(listed[0]):  # listed for `legal_moves()`, still true
            out = list(listed[1])
        else:
            out = []
            self._generate(out)
        if rules.simultaneous:
            for move in out:
                move.actor = self.state.current
        return out

    def _listing_key(self) -> tuple[int, int, int, bool]:
        """Where a listing was made: the journal's length, the seat and phase to act, the end."""
        S = self.state
        return len(S.journal), S.current, S.phase, S.over

    def _still_listed(self, key: tuple[int, int, int, bool]) -> bool:
        """Are the moves listed at `key` (within this move) still the legal ones? Yes if since then
        only variables the listing does not read have changed."""
        S = self.state
        length, current, phase, over = key
        if (current, phase, over) != (S.current, S.phase, S.over) or len(S.journal) < length:
            return False
        reads = self.rules.listing_reads
        return all(entry[0] == "var" and reads is not None and entry[1] not in reads
                   for entry in S.journal[length:])

    def _legal_names(self) -> list[str]:
        """`legal_moves()` in a ruleset's expressions: the names of the moves the seat to act may make
        now, one per legal move. The listing is kept for the engine's own, if nothing changes between."""
        S = self.state
        if self._listed is not None and self._still_listed(self._listed[0]):
            moves = self._listed[1]
        else:
            moves = []
            if not S.over:
                self._generate(moves, reset=False)  # within the unit of work (and its steps) that asks
            self._listed = (self._listing_key(), moves)
        names = self.rules.move_names
        return [names[move.template] for move in moves]
