"""Stage 6: what a game tells of itself. `ResultsAndViews` gives its scores and winners, its
variables, the record of the moves made as each seat may know it (a move naming a card a seat
could not see writes it `?`), and a seat's whole view."""

from __future__ import annotations

from typing import Any

from ..base.errors import ArgumentError, printable, unknown
from .game_core import GameCore
from .movegen import remember
from .moves import Move


class ResultsAndViews(GameCore):
    """Scores, winners, variables, the record of the moves made, and views."""

    def scores(self) -> list[int]:
        score = self.rules.score
        if score is None:
            return [0] * self.players
        self.rules.meter.reset()
        return [score(self.state, {"player": p}) for p in range(self.players)]

    def evaluation(self, player: int) -> int:
        """How well a seat stands, for bots, higher being better: the ruleset's `heuristic`, or else
        its score (negated under `score_order: lower`)."""
        rules = self.rules
        heuristic = rules.heuristic or rules.score
        rules.meter.reset()
        return 0 if heuristic is None else rules.score_sign * heuristic(self.state, {"player": player})

    def winners(self) -> list[int] | None:
        """The seats that won a finished multi-seat game (0-based): those its end condition names,
        else, when it ended `won` or `over`, those with the best score (the highest, or under
        `score_order: lower` the lowest); nobody after `lost`,
        `draw`, `limit` or `abandoned`. None for a one-seat ruleset or an unfinished game."""
        if self.players == 1 or not self.state.over:
            return None
        if self.state.winners is not None:
            return self.rules.whole_teams(self.players, self.state.winners)
        if self.state.outcome not in ("won", "over"):
            return []
        return self.rules.best_by_score(self.scores())

    def variable(self, name: str, player: int | None = None, *, card: int | str | None = None) -> Any:
        """A variable's value; for a per-player variable, `player`'s (default: the seat to act); for
        a per-card variable, the value on `card` (its id or its code)."""
        variable = self.rules.variables.get(name) if isinstance(name, str) else None
        if variable is None:
            raise ArgumentError(unknown("variable", printable(str(name)), self.rules.variables))
        if variable.per_card or card is not None:
            if not variable.per_card:
                raise ArgumentError(f"'{name}' is not a per_card variable: it has no value on a card")
            return self.state.vars[variable.slot + self._card_id(card)]
        if player is not None:
            player = self._check_seat(player, "player")
        offset = (player if player is not None else self.state.current) if variable.per_player else 0
        return self.state.vars[variable.slot + offset]

    def label(self, player: int = 0) -> str | None:
        """The ruleset's `label` for a seat (a name for the result, such as a money bracket), if any."""
        self._check_seat(player, "player")
        label = self.rules.label
        self.rules.meter.reset()
        return None if label is None else str(label(self.state, {"player": player}))

    def persistent_values(self) -> dict[str, Any]:
        """The `persist` variables to save: a value, or for a per-player variable a list by seat."""
        values: dict[str, Any] = {}
        for name in self.rules.persistent_variables():
            if self.rules.variables[name].per_player:
                values[name] = [self.variable(name, p) for p in range(self.players)]
            else:
                values[name] = self.variable(name)
        return values

    # -- the record of the moves made ------------------------------------------------------

    def record(self, seat: int | None, start: int = 0) -> list[str]:
        """The texts of the moves made (from the `start`th, 0-based), as `seat` may know them (None:
        a spectator, who knows what every seat knows): a move that names a card (`take: any`) names
        it only to a seat that could see it before the move or right after, and else writes it `?`
        (`h@2:?>p1`)."""
        if seat is not None:
            seat = self._check_seat(seat)
        knowers = self._knowers
        texts = self._texts

        def text(move: Move) -> str:
            known = texts.get(move)
            if known is None:  # kept as the listings keep moves (emptied when full: MAX_KNOWN)
                known = remember(texts, move, move.text())
            return known
        return [text(move) if index not in knowers or seat in knowers[index] else text(move.concealed())
                for index, move in enumerate(self.history[start:], start)]

    def _named_seers(self, pick: int | tuple[int, ...] | None, pile: int) -> list[frozenset[int | None]] | None:
        """Who sees each card a move names (`take: any`) on `pile` (None: a spectator); None when
        the move names no card."""
        if pick is None:
            return None
        return [self.seers(card, pile) for card in (pick if isinstance(pick, tuple) else (pick,))]

    def _note_knowers(self, move: Move, knew: list[frozenset[int | None]],
                      after: list[frozenset[int | None]] | None) -> None:
        """After a move that names cards: keep who may know them (`record`) unless every seat may:
        those who, for every card named, saw it before the move or right after its own effects
        (`after`, noted by `State.note_named_seers` before the triggers that follow the move)."""
        S = self.state
        S.named, S.named_seers = (), None
        assert after is not None, "every way of applying a move notes them after its effects"
        knowers: frozenset[int | None] | None = None
        for before, seen in zip(knew, after):
            both = before | seen
            knowers = both if knowers is None else knowers & both
        if knowers is not None and None not in knowers:  # a spectator sees only what every seat sees
            self._knowers[len(self.history) - 1] = knowers

    # -- a seat's view ---------------------------------------------------------------------

    def view(self, player: int | None = 0) -> dict[str, Any]:
        """What `player` may see: face-up cards by code, hidden cards as None, counts, variables,
        the record of the moves made (`record`) and its legal moves. None: a spectator's view (what
        every seat sees; no legal moves)."""
        if player is not None:
            player = self._check_seat(player, "player")
        rules = self.rules
        codes = rules.deck.codes
        zones: dict[str, Any] = {}

        def shown(piles: tuple[int, ...], single: bool) -> Any:
            cards = [[codes[c] if self.visible(c, p, player) else None for c in self.state.piles[p]] for p in piles]
            return cards[0] if single else cards

        for zone in rules.zones.values():
            if zone.seat_piles is None:
                zones[zone.name] = shown(zone.piles, zone.single)
            else:  # a per-player zone: seat by seat
                zones[zone.name] = [shown(group, zone.single) for group in zone.seat_piles[:self.players]]
        variables: dict[str, Any] = {}
        marks: dict[str, dict[str, Any]] = {}
        for variable in rules.variables.values():
            if variable.per_card:  # seen as the card is
                marks[variable.name] = {codes[c]: self.state.vars[variable.slot + c]
                                        for p, cards in enumerate(self.state.piles) for c in cards
                                        if self.visible(c, p, player)}
            elif variable.per_player:
                variables[variable.name] = [self.state.vars[variable.slot + p] for p in range(self.players)]
            else:
                variables[variable.name] = self.state.vars[variable.slot]
        view = {"ruleset": rules.name, "player": player, "current_player": self.state.current, "phase": self.phase,
                "zones": zones, "variables": variables, **({"marks": marks} if marks else {}),
                "over": self.state.over, "outcome": self.state.outcome,
                "history": self.record(player),
                "legal_moves": [m.text() for m in self.legal_moves(player)] if player is not None else []}
        if rules.out_of_turn:  # whose turn it is, while a seat is asked to act out of turn
            view["turn_player"] = self.turn_player
        if rules.rotation:  # which way the turns go, and the seat `turn_to` chose for the next (None: in order)
            view["direction"] = self.state.direction
            view["next_seat"] = self.state.next_seat if self.state.next_seat >= 0 else None
        return view
