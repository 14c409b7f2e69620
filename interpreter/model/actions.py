"""Action numbers: every move a ruleset can ever offer gets a fixed integer, as OpenSpiel's games do.

A front-end stage shared by both backends. The numbers are dense, template by template: each
move template owns a block of numbers starting at its offset, and within the block a move is
a mixed-radix number of the fields that tell its moves apart, each a local index:

- the source pile's place among the template's `from` piles (one value without `from`); where
  `from` names a per-player zone, its place among the piles the acting seat may use (so the
  same number means "my second work pile" whichever seat acts, as an agent shared by the seats
  wants);
- the destination's place among its `to` piles, in the same way (one value without `to`);
- for `take: run` only, the packet size less one (the other takes fix the count from the
  position: `top` 1, `all` the pile, `count` its expression, `any` one card);
- for `take: any`, the picked card (0: the blind pick of a hidden card, else card id + 1); for
  `take: {any: K}`, the set of K cards, as its place among all sets of K cards of the deck (the
  combinatorial number system: card ids sorted c1 < ... < cK give C(c1, 1) + ... + C(cK, K));
- for `for_seat`, the chosen seat; for `choose`, the index of the value named;
- for `select`, one digit per pile of the select zones: 0 not chosen, else (for `take: run`)
  the count taken, or 1 (for `top` and `all`, whose count the position fixes).

So `num_actions` is the size of a fixed action space (an action mask's length), the same for
every position and seat count of one ruleset with one set of options, and the number of a
move is the same in the Python and the native backend. In a simultaneous game the seat that
moves is not part of the number: each seat has its own legal actions. Two legal moves never
share a number (the fields left out are fixed by the position); the tests check this at every
step of seeded games of every bundled and fixture ruleset.
"""

from __future__ import annotations

import math
import operator
from dataclasses import dataclass
from typing import Any

from ..base.errors import ArgumentError


@dataclass(frozen=True)
class _Block:
    """One move template's numbers: where they start, how many, and the weight of each field."""

    offset: int
    size: int
    # For each acting seat: source pile (-1 without `from`) -> offset + its place x its weight;
    # destination pile -> its place x its weight.
    sources: tuple[dict[int, int], ...]
    targets: tuple[dict[int, int], ...]
    count_weight: int    # `take: run`: (packet size - 1) x this; 0 for other takes
    pick_weight: int     # `take: any`: (card + 1, 0 blind) x this
    seat_weight: int     # `for_seat`: the chosen seat x this (`choose`: the value's index x this)
    selected: tuple[int, ...]  # `select`: the piles, in order, each one digit
    select_digits: int         # values of one such digit


class ActionSpace:
    """The fixed action numbers of one loaded ruleset (see the module's docstring)."""

    def __init__(self, rules: Any) -> None:
        ncards, seats = len(rules.deck), rules.max_players
        blocks: list[_Block] = []
        offset = 0
        for template in rules.moves:
            digits = ncards + 1 if template.select_take == "run" else 2
            weight = digits ** len(template.select_piles)
            seat_weight = weight if template.for_seat or template.choices else 0
            weight *= seats if template.for_seat else len(template.choices) or 1
            pick_weight = weight if template.take == "any" else 0
            if template.take == "any":
                weight *= ncards + 1 if template.picks == 1 else math.comb(ncards, template.picks)
            count_weight = weight if template.take == "run" else 0
            weight *= ncards if template.take == "run" else 1
            targets, target_places = _weights(template.seat_targets, template.targets, seats, 0, weight)
            weight *= target_places
            sources, source_places = _weights(template.seat_sources, template.sources, seats, offset, weight)
            size = weight * source_places
            blocks.append(_Block(offset, size, sources, targets, count_weight, pick_weight, seat_weight,
                                 template.select_piles, digits))
            offset += size
        self.blocks = blocks
        self.size = offset

    def number(self, move: Any, seat: int) -> int:
        """The action number of a move of the ruleset made by `seat` (the seat to act; in a
        simultaneous game, `move.actor`)."""
        block = self.blocks[move.template]
        try:
            a = block.sources[seat][move.src] + block.targets[seat][move.dst]
        except (KeyError, IndexError):
            raise ArgumentError(f"seat {seat + 1} cannot make a '{move.name}' move between these piles") from None
        if block.count_weight:
            a += (move.count - 1) * block.count_weight
        if block.pick_weight:
            pick = move.pick
            if isinstance(pick, tuple):
                a += sum(math.comb(card, place) for place, card in enumerate(sorted(pick), 1)) * block.pick_weight
            else:
                a += (pick + 1) * block.pick_weight
        if block.seat_weight:
            a += move.seat * block.seat_weight
        if block.selected:
            chosen, digits, digit = dict(move.selection), block.select_digits, 0
            for pile in block.selected:
                count = chosen.get(pile, 0)
                digit = digit * digits + (count if digits > 2 else int(count > 0))
            a += digit
        return a

    def template_of(self, action: int) -> int:
        """The move template whose block holds `action` (which must be in range)."""
        self.check(action)
        for index, block in enumerate(self.blocks):
            if action < block.offset + block.size:
                return index
        raise AssertionError("unreachable: the blocks cover the range")

    def check(self, action: Any) -> int:
        """`action` as an int in range, or an `ArgumentError` saying what is wrong with it."""
        return action_index(action, self.size, "this ruleset's actions")


def action_index(action: Any, size: int, which: str) -> int:
    """`action` as an int in 0 .. size - 1 (`which` actions those are, for the message), or an
    `ArgumentError` saying what is wrong with it."""
    try:  # an int, or an integer of numpy's (an agent's action often is one), never a bool
        if isinstance(action, bool):
            raise TypeError
        action = operator.index(action)
    except TypeError:
        raise ArgumentError(f"an action is an int, not {type(action).__name__} {action!r:.40}") from None
    if not 0 <= action < size:
        raise ArgumentError(f"there is no action {action}: {which} are 0-{size - 1}")
    return action


def _weights(by_seat: tuple[tuple[int, ...], ...] | None, piles: tuple[int, ...], seats: int, base: int,
             weight: int) -> tuple[tuple[dict[int, int], ...], int]:
    """For each seat, pile -> base + its place x weight (-1 -> base without piles); and the places."""
    lists = by_seat or (piles,) * seats
    if not piles:
        return ({-1: base},) * seats, 1
    places = max(len(seat_piles) for seat_piles in lists)
    return tuple({pile: base + i * weight for i, pile in enumerate(seat_piles)} for seat_piles in lists), places
