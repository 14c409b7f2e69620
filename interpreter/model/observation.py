"""A seat's view as numbers and as text, OpenSpiel-style: for agents and learning code.

`ObservationLayout(rules)` fixes, for one loaded ruleset (its options folded), a flat vector
of `size` floats that any position, seat and number of players fills the same way. Its parts,
in order (`parts` lists each with its offset and length):

- `cards` (piles x cards): for each card the seat can see, at [pile, card], its place in the
  pile counted from the bottom, (index + 1) / deck size; 0 where the card is not, or is not seen;
- `face_up` (piles x cards): 1 at [pile, card] for a card the seat sees lying face up;
- `hidden` (piles): how many cards of the pile the seat cannot see, / deck size;
- `sizes` (piles): how many cards the pile holds, / deck size;
- `variables` (slots x 2): each variable slot's value (a number; a truth value 0 or 1; a pile
  its number; a word its place among the words of the deck's card attributes, sorted, 1-based,
  else -1; a list its length) and 1 where the value is `none` (the value then 0). A per-player
  variable has one slot per seat, seat 1 first; a per-card variable (a mark) one per card, then
  one for no card, and a card the seat cannot see leaves its marks' slots 0;
- `seat` (seats): 1 for the observing seat;
- `to_act` (seats): 1 for the seat to act (in a simultaneous game, the seat last focused);
- `phase` (phases, at least 1): 1 for the current phase of the turn;
- `over` (1): 1 once the game has ended.

Piles are numbered as the ruleset lays them out, every seat's piles of the largest table, so the
shape does not change with the number of players; seats past the game's players stay empty.
Only what `Game.view(seat)` shows goes in: a card the seat cannot see sets no `cards` or
`face_up` entry and is counted in `hidden` only. Values lie within `bounds()` (variables within
64-bit integers, the rest within [0, 1]).

`observation_string` and `information_state_string` are the same view as text: the first the
seat's view now, the second (perfect recall) the seat's view after the deal and after each move,
each move as the seat knows it, so two games give the same string exactly when the seat could
not tell them apart from what it has seen.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

VARIABLE_BOUND = float(2**63)  # a variable is a 64-bit integer (limits: the engine checks overflow)


@dataclass(frozen=True)
class Part:
    name: str
    offset: int
    length: int


class ObservationLayout:
    """Where each part of a ruleset's observation vector lies (see the module's docstring)."""

    def __init__(self, rules: Any) -> None:
        self.piles = rules.pile_count
        self.cards = len(rules.deck)
        self.slots = rules.var_count
        self.seats = rules.max_players
        self.phases = max(len(rules.phases), 1)
        lengths = [("cards", self.piles * self.cards), ("face_up", self.piles * self.cards),
                   ("hidden", self.piles), ("sizes", self.piles), ("variables", 2 * self.slots),
                   ("seat", self.seats), ("to_act", self.seats), ("phase", self.phases), ("over", 1)]
        parts, offset = [], 0
        for name, length in lengths:
            parts.append(Part(name, offset, length))
            offset += length
        self.parts = tuple(parts)
        self.size = offset
        self.offsets = {part.name: part.offset for part in parts}
        words = {value for card in rules.deck.cards for value in card.values() if isinstance(value, str)}
        self.words = {word: place for place, word in enumerate(sorted(words), 1)}

    def bounds(self) -> tuple[list[float], list[float]]:
        """The lowest and highest value of each entry."""
        low, high = [0.0] * self.size, [1.0] * self.size
        start = self.offsets["variables"]
        for slot in range(self.slots):
            low[start + 2 * slot] = -VARIABLE_BOUND
            high[start + 2 * slot] = VARIABLE_BOUND
        return low, high

    def encode(self, game: Any, seat: int) -> list[float]:
        """The observation vector of `seat` (0-based) in `game`."""
        out = [0.0] * self.size
        indexes, values = self.entries(game, seat)
        for index, value in zip(indexes, values):
            out[index] = value
        return out

    def entries(self, game: Any, seat: int) -> tuple[list[int], list[float]]:
        """The entries of `seat`'s observation vector that are not 0: their indexes and values
        (for filling an array in one step: the vector is mostly zeros)."""
        rules, state = game.rules, game.state
        indexes: list[int] = []
        values: list[float] = []
        n = float(self.cards)
        sees, up = rules.sees, state.up
        cards_at, face_at = self.offsets["cards"], self.offsets["face_up"]
        hidden_at, sizes_at = self.offsets["hidden"], self.offsets["sizes"]
        unseen: set[int] = set()  # the cards the seat cannot see: their marks are unseen too
        for pile, cards in enumerate(state.piles):
            if not cards:
                continue
            hidden = 0
            row = pile * self.cards
            for index, card in enumerate(cards):
                if sees(state, card, pile, seat):
                    indexes.append(cards_at + row + card)
                    values.append((index + 1) / n)
                    if up[card]:
                        indexes.append(face_at + row + card)
                        values.append(1.0)
                else:
                    hidden += 1
                    unseen.add(card)
            if hidden:
                indexes.append(hidden_at + pile)
                values.append(hidden / n)
            indexes.append(sizes_at + pile)
            values.append(len(cards) / n)
        start = self.offsets["variables"]
        unseen_marks = rules.marks_on(unseen)
        for slot, value in enumerate(state.vars):
            if slot in unseen_marks:
                continue
            if value is None:
                indexes.append(start + 2 * slot + 1)
                values.append(1.0)
            else:
                number = self._number(value)
                if number:
                    indexes.append(start + 2 * slot)
                    values.append(number)
        indexes += (self.offsets["seat"] + seat, self.offsets["to_act"] + state.current,
                    self.offsets["phase"] + state.phase)
        values += (1.0, 1.0, 1.0)
        if state.over:
            indexes.append(self.offsets["over"])
            values.append(1.0)
        return indexes, values

    def _number(self, value: Any) -> float:
        if isinstance(value, (bool, int)):
            return float(value)
        if isinstance(value, str):
            return float(self.words.get(value, -1))
        try:
            return float(len(value))
        except TypeError:
            return 0.0


def observation_string(game: Any, seat: int) -> str:
    """The seat's view now (`Game.view` without its record of moves), as one line of JSON."""
    view = game.view(seat)
    del view["history"]
    return json.dumps(view, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def information_state_string(game: Any, seat: int) -> str:
    """Everything the seat has seen: its view after the deal and after each move, with each move
    as the seat knows it (`Game.record`), a line each. Made by playing the game again from the
    deal on a copy, so its cost grows with the length of the game."""
    replay = game.clone()
    while replay.history:
        replay.undo()
    lines = [observation_string(replay, seat)]
    texts = game.record(seat)
    for index, (move, text) in enumerate(zip(game.history, texts)):
        replay.apply(move)
        for outcome in game.chance_log.get(index, ()):  # explicit chance: the outcomes chosen then
            replay.apply_chance(outcome)
        lines.append(f"{text} {observation_string(replay, seat)}")
    if game.state.over and not replay.state.over:  # ended by `Game.finish` (a player quit)
        lines.append(f"finish {observation_string(game, seat)}")
    return "\n".join(lines)
