"""Stage 6: a game in the vocabulary of agents. `AgentInterface` names moves by number
(model/actions.py) and by text, encodes what a seat sees (model/observation.py), and deals a copy
of the game as a seat could imagine it (`determinize`), on which bots decide."""

from __future__ import annotations

import random
import re
from typing import Self

from ..base.errors import ArgumentError, IllegalMoveError, printable
from ..model.observation import information_state_string, observation_string
from .game_core import GameCore, not_a_move, shown_value
from .moves import Move


class AgentInterface(GameCore):
    """Moves as numbers and as text, observations, and determinized copies."""


    # -- moves as numbers (model/actions.py) --------------------------------------------------------

    @property
    def num_actions(self) -> int:
        """The size of the ruleset's fixed action space: every action number is below it."""
        return self.rules.num_actions

    def action(self, move: Move) -> int:
        """A move's action number (its seat: `move.actor` in a simultaneous game, else the seat to act)."""
        if not isinstance(move, Move):
            raise ArgumentError(not_a_move(move))
        if move.rules is not self.rules:
            raise ArgumentError(self._foreign(move))
        return self.rules.actions.number(move, move.actor if move.actor >= 0 else self.state.current)

    def legal_actions(self, seat: int | None = None) -> list[int]:
        """The action numbers of `legal_moves(seat)`, in the same order; at a chance node, as in
        OpenSpiel, the numbers of its outcomes (`chance_outcomes`), for `apply_action`."""
        if self._chance is not None:
            return list(range(len(self._chance.items)))
        return list(self._numbered_listing(seat)[1])

    def _numbered_listing(self, seat: int | None) -> tuple[list[Move], list[int]]:
        """`legal_moves(seat)` and their numbers, kept with the listing they number (so that
        `apply_action` after `legal_actions` numbers the moves once)."""
        moves = self.legal_moves(seat)
        S = self.state
        listed = self._legal if seat is None or seat == S.current else self._seat_legal.get(seat)
        kept = self._numbered
        if kept is not None and listed is not None and kept[0] is listed:
            return moves, kept[1]
        number = self.rules.actions.number
        acting = S.current if seat is None else seat
        numbers = [number(move, acting) for move in moves]
        if listed is not None:
            self._numbered = (listed, numbers)
        return moves, numbers

    def action_move(self, action: int, seat: int | None = None) -> Move:
        """The legal move (of the seat to act, or of `seat`) whose action number is `action`;
        an `IllegalMoveError` if none is (an `ArgumentError` if it is no action number at all)."""
        space = self.rules.actions
        action = space.check(action)
        moves, numbers = self._numbered_listing(seat)
        try:
            return moves[numbers.index(action)]
        except ValueError:
            name = self.rules.moves[space.template_of(action)].name
            raise IllegalMoveError(f"action {action} (a '{name}' move) is not legal now") from None

    def apply_action(self, action: int, seat: int | None = None) -> None:
        """Apply the legal move whose action number is `action` (see `action_move`); at a chance
        node, choose the outcome numbered `action` (`apply_chance`)."""
        if self._chance is not None:
            self.apply_chance(action)
            return
        self.apply(self.action_move(action, seat))

    # -- observations for agents (model/observation.py) --------------------------------------------

    def observation_tensor(self, seat: int | None = None) -> list[float]:
        """What `seat` (default: the seat to act) sees, as a flat list of floats whose length and
        layout are fixed for the ruleset and its options (`rules.observation`: its `size`, `parts`
        and `bounds()`). A card the seat cannot see is counted, never named."""
        return self.rules.observation.encode(self, self._observer(seat))

    def observation_entries(self, seat: int | None = None) -> tuple[list[int], list[float]]:
        """The entries of `observation_tensor(seat)` that are not 0, as (indexes, values): the
        same vector, for filling an array of zeros in one step."""
        return self.rules.observation.entries(self, self._observer(seat))

    def observation_string(self, seat: int | None = None) -> str:
        """What `seat` (default: the seat to act) sees now, as text (`view` without the record)."""
        return observation_string(self, self._observer(seat))

    def information_state_string(self, seat: int | None = None) -> str:
        """Everything `seat` (default: the seat to act) has seen since the deal, as text: equal for
        two games exactly when the seat could not tell them apart (perfect recall)."""
        return information_state_string(self, self._observer(seat))

    def _observer(self, seat: int | None) -> int:
        if seat is None:
            return self.state.current
        return self._check_seat(seat, "seat")

    # -- moves as text --------------------------------------------------------------------

    def parse_move(self, text: str, seat: int | None = None) -> Move:
        """The legal move (of the seat to act, or of `seat`) whose text, in short or long form and
        any case, is `text`. A seat's own named move may leave out its `@seat` (`draw`)."""
        if not isinstance(text, str):
            raise IllegalMoveError(f"parse_move takes a move's text (such as 'draw' or 't3>f1'), "
                                   f"not {shown_value(text)}")
        wanted = " ".join(text.strip().lower().split())
        legal = self.legal_moves(seat)
        for move in legal:
            texts = (move.text().lower(), move.text(long=True).lower())
            if wanted in texts or (move.actor >= 0 and self.rules.moves[move.template].named_text
                                   and wanted == texts[0].replace(f"@{move.actor + 1}", "", 1)):
                return move
        if "," in wanted:  # several cards picked (`h@1:KC,3C,5C>p@1`): named in any order
            unordered = _picks_unordered(wanted)
            for move in legal:
                if move.pick is not None and unordered in (_picks_unordered(move.text().lower()),
                                                           _picks_unordered(move.text(long=True).lower())):
                    return move
        raise IllegalMoveError(f"'{printable(text.strip())}' is not a legal move now")

    # -- a copy as a seat could imagine it ------------------------------------------------

    def determinize(self, seat: int, rng: random.Random) -> Self:
        """A copy of the game as `seat` could imagine it: every card it cannot see is dealt anew at
        random among the places of the cards it cannot see (faces kept as they lie), and the
        shuffles still to come (`shuffle`) draw on a seed taken from `rng`.

        The result depends only on what the seat sees (its view) and on `rng`: the hidden cards
        are gathered in card-id order before the shuffle, so two games that differ only in cards
        the seat cannot see give the same copy. The copy has no undo history and no record of the
        deal. Bots decide on such copies, never on the game itself.
        """
        seat = self._check_seat(seat)
        if not isinstance(rng, random.Random):
            raise ArgumentError(f"determinize draws on a random.Random (rng), not {shown_value(rng)}")
        other = self.clone()
        S = other.state
        slots: list[tuple[int, int]] = []
        hidden: list[int] = []
        for pile, cards in enumerate(S.piles):
            for i, card in enumerate(cards):
                if not self.visible(card, pile, seat):
                    slots.append((pile, i))
                    hidden.append(card)
        if hidden:
            faces = [S.up[card] for card in hidden]
            # What other seats know of a hidden card stays with its place, not with the card:
            # the copy must not tell `seat` which cards they know (a peek at a hand it has not seen).
            masks = [S.known[card] for card in hidden] if S.known is not None else None
            # So do the marks on it (per-card variables): who played the card there, when, ...
            marks = [(first, [S.vars[first + card] for card in hidden]) for first in self.rules.mark_slots]
            hidden.sort()
            rng.shuffle(hidden)
            piles = {pile: list(S.piles[pile]) for pile, _ in slots}
            for k, ((pile, i), card, face) in enumerate(zip(slots, hidden, faces)):
                piles[pile][i] = card
                S.up[card] = face
                if masks is not None:
                    S.known[card] = masks[k]  # type: ignore[index]
                for first, values in marks:
                    S.vars[first + card] = values[k]
            for pile, cards in piles.items():
                S.piles[pile] = cards
        S.journal = []
        S.marks = []
        S.deck_order = []
        # The shuffles still to come are as unknown to the seat as the hidden cards: a new seed for
        # them from `rng`, and no seed of the real game kept on the copy.
        S.chance = rng.getrandbits(64)
        S.outcomes = None  # (the copy's draws come from that seed, even under explicit chance)
        other._chance, other.chance_log = None, {}
        other.seed = None
        other._texts = {}  # the real game's record texts name cards the seat may not know
        other._seen, other._keys = {}, []  # positions seen hold the real cards: forgotten
        other._cycle, other._cycle_begin, other._cycle_stack = None, None, []
        other.history = list(self.history)
        for index, knowers in self._knowers.items():
            if seat not in knowers:  # a card the seat may not know: forgotten from the record too
                other.history[index] = self.history[index].concealed()
        other._legal, other._seat_legal = None, {}
        return other


_PICKS = re.compile(r":([^:>+\s]+(?:,[^:>+\s]+)+)")


def _picks_unordered(text: str) -> str:
    """A move text with the cards of each several-card pick in one order (sorted), so that texts
    naming the same cards in another order compare equal."""
    return _PICKS.sub(lambda found: ":" + ",".join(sorted(found.group(1).split(","))), text)
