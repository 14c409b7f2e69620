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
- for `take: any`, the picked card (0: the blind pick of a hidden card, else card id + 1);
- for `for_seat`, the chosen seat;
- for `select`, one digit per pile of the select zones: 0 not chosen, else (for `take: run`)
  the count taken, or 1 (for `top` and `all`, whose count the position fixes).

So `num_actions` is the size of a fixed action space (an action mask's length), the same for
every position and seat count of one ruleset with one set of options, and the number of a
move is the same in the Python and the native backend. In a simultaneous game the seat that
moves is not part of the number: each seat has its own legal actions. Two legal moves never
share a number (the fields left out are fixed by the position); the tests check this at every
step of seeded games of every bundled ruleset.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import Any

from .errors import ArgumentError


@dataclass(frozen=True)
class _Block:
    """One move template's numbers: its offset and the radix of each field."""

    offset: int
    sources: tuple[dict[int, int], ...]  # for each acting seat: pile -> place among its `from` piles
    targets: tuple[dict[int, int], ...]
    source_count: int
    target_count: int
    counts: int               # packet sizes told apart (`take: run`), else 1
    picks: int                # `take: any`: cards + 1 (blind), else 1
    seats: int                # `for_seat`: seats, else 1
    selected: tuple[int, ...]  # `select`: the piles, in order
    select_digits: int         # values of one select pile's digit
    size: int


class ActionSpace:
    """The fixed action numbers of one loaded ruleset (see the module's docstring)."""

    def __init__(self, rules: Any) -> None:
        ncards = len(rules.deck)
        blocks: list[_Block] = []
        offset = 0
        for template in rules.moves:
            sources = _places(template.seat_sources or (template.sources,))
            targets = _places(template.seat_targets or (template.targets,))
            counts = ncards if template.take == "run" else 1
            picks = ncards + 1 if template.take == "any" else 1
            seats = rules.max_players if template.for_seat else 1
            digits = ncards + 1 if template.select_take == "run" else 2
            source_count, target_count = max(map(len, sources)), max(map(len, targets))
            size = (max(source_count, 1) * max(target_count, 1) * counts * picks * seats
                    * digits ** len(template.select_piles))
            blocks.append(_Block(offset, sources, targets, source_count, target_count, counts, picks, seats,
                                 template.select_piles, digits, size))
            offset += size
        self.blocks = blocks
        self.size = offset

    def number(self, move: Any, seat: int) -> int:
        """The action number of a move of the ruleset made by `seat` (the seat to act; in a
        simultaneous game, `move.actor`)."""
        block = self.blocks[move.template]
        sources = block.sources[seat if len(block.sources) > 1 else 0]
        targets = block.targets[seat if len(block.targets) > 1 else 0]
        a = sources.get(move.src, 0)
        a = a * max(block.target_count, 1) + targets.get(move.dst, 0)
        a = a * block.counts + (move.count - 1 if block.counts > 1 else 0)
        a = a * block.picks + (move.pick + 1 if block.picks > 1 else 0)
        a = a * block.seats + (move.seat if block.seats > 1 else 0)
        if block.selected:
            chosen = dict(move.selection)
            for pile in block.selected:
                count = chosen.get(pile, 0)
                a = a * block.select_digits + (count if block.select_digits > 2 else int(count > 0))
        return block.offset + a

    def template_of(self, action: int) -> int:
        """The move template whose block holds `action` (which must be in range)."""
        self.check(action)
        for index, block in enumerate(self.blocks):
            if action < block.offset + block.size:
                return index
        raise AssertionError("unreachable: the blocks cover the range")

    def check(self, action: Any) -> int:
        """`action` as an int in range, or an `ArgumentError` saying what is wrong with it."""
        try:  # an int, or an integer of numpy's (an agent's action often is one), never a bool
            if isinstance(action, bool):
                raise TypeError
            action = operator.index(action)
        except TypeError:
            raise ArgumentError(f"an action is an int, not {type(action).__name__} {action!r:.40}") from None
        if not 0 <= action < self.size:
            raise ArgumentError(f"there is no action {action}: this ruleset's actions are 0-{self.size - 1}")
        return action


def _places(piles_by_seat: tuple[tuple[int, ...], ...]) -> tuple[dict[int, int], ...]:
    return tuple({pile: i for i, pile in enumerate(piles)} for piles in piles_by_seat)


def action_space(rules: Any) -> ActionSpace:
    """The action numbers of a loaded ruleset (made once, kept with it)."""
    space = rules.backends.get("actions")
    if space is None:
        space = rules.backends["actions"] = ActionSpace(rules)
    return space
