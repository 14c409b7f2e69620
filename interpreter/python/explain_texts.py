"""Stage 6c, the texts of moves for `Game.explain` (python/explain.py): a text read back into the moves
it could name (`_read_text`: move name, piles, count, cards, seat or value, as `Move.text` writes them),
and "did you mean" suggestions for a text that names no move (difflib over the legal move texts and
the texts of the moves the position's piles could make)."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .moves import BLIND, Move

if TYPE_CHECKING:
    from .game_core import GameCore
    from ..model.rules import Ruleset

# How many texts of possible moves "did you mean" compares with, and how many it offers.
MAX_POOL = 5_000
SUGGESTIONS = 3


# -- reading a text back into moves ---------------------------------------------------------------

@dataclass
class _Shape:
    """The parts of a move text (`Move.text`'s form), as piles and numbers."""

    name: str | None = None            # a move name written (`build:`, `draw`)
    actor: int | None = None           # `draw@2`: the seat that moves (simultaneous games)
    src: int = -1
    count: int | None = None           # `t3x2`
    picks: tuple[str, ...] | None = None  # `h@1:7H` (codes, lowercase), `?` for a blind pick
    selection: tuple[tuple[int, int], ...] = ()
    dst: int = -1
    word: str | None = None            # a trailing `seat2` or value
    named: bool = False                # the bare name of a move (`draw`, `draw@2`)
    one_pile: bool = False             # only one pile written (a source or a destination)


_COUNTED = re.compile(r"^(.*)x([0-9]+)$")


def _pile_names(rules: Ruleset) -> dict[str, int]:
    names = {name.lower(): i for i, name in enumerate(rules.pile_long_names)}
    names.update({name.lower(): i for i, name in enumerate(rules.pile_names)})
    return names


def _pile_and_count(piles: dict[str, int], text: str) -> tuple[int, int | None] | None:
    if text in piles:
        return piles[text], None
    found = _COUNTED.match(text)
    if found and found.group(1) in piles:
        return piles[found.group(1)], int(found.group(2))
    return None


def _read_text(rules: Ruleset, wanted: str) -> tuple[list[_Shape], str]:
    """The shapes `wanted` (lowercase, single spaces) may be, or none and what is wrong."""
    piles = _pile_names(rules)
    names = {t.name.lower() for t in rules.moves}
    shapes: list[_Shape] = []
    problems: list[str] = []
    splits: list[tuple[str, str | None]] = [(wanted, None)]
    words = wanted.split(" ")
    for k in range(1, len(words)):  # the values a move names (`seat2 7`) after its piles, fewest first
        splits.insert(0, (" ".join(words[:k]), " ".join(words[k:])))
    picking = {t.name.lower() for t in rules.moves if t.named_text and t.take == "any"}
    for head, word in splits:
        bare, at, seat = head.partition("@")
        if head in names or (at and bare in names and seat.isdigit()):  # `draw`, `draw@2`
            shapes.append(_Shape(name=bare if at else head, actor=int(seat) - 1 if at else None, word=word,
                                 named=True))
            continue
        named, colon, codes = head.partition(":")
        bare, at, seat = named.partition("@")
        if colon and bare in picking and (not at or seat.isdigit()):  # `play:7h`, `play@2:7h`: the cards
            shapes.append(_Shape(name=bare, actor=int(seat) - 1 if at else None, word=word, named=True,
                                 picks=tuple(codes.split(","))))
            continue
        name, rest = None, head
        prefix, colon, after = head.partition(":")
        if colon and prefix in names:
            name, rest = prefix, after
        src_text, arrow, dst_text = rest.partition(">")
        shape = _Shape(name=name, word=word)
        if not arrow:
            shape.one_pile = True
        parts = src_text.split("+")
        first, colon, picks = parts[0].partition(":")
        found = _pile_and_count(piles, first)
        if found is None:
            problems.append(f"there is no pile '{first}'" if first and first not in names
                            else f"no move is written '{wanted}'")
            continue
        shape.src, shape.count = found
        if colon:
            shape.picks = tuple(picks.split(","))
        selection = []
        for part in parts[1:]:
            chosen = _pile_and_count(piles, part)
            if chosen is None:
                problems.append(f"there is no pile '{part}'")
                break
            selection.append((chosen[0], chosen[1] or 1))
        else:
            shape.selection = tuple(selection)
            if arrow:
                if dst_text not in piles:
                    problems.append(f"there is no pile '{dst_text}'")
                    continue
                shape.dst = piles[dst_text]
            shapes.append(shape)
    if shapes:
        return shapes, ""
    if not wanted:
        return [], "no move was written"
    if problems and all(p.startswith("there is no pile") for p in problems) and ">" not in wanted \
            and ":" not in wanted and "@" not in wanted:
        return [], f"no move or pile is named '{wanted.split(' ')[0]}'"
    return [], problems[0] if problems else f"no move is written '{wanted}'"


def replace_shape(shape: _Shape) -> _Shape:
    """A copy of a shape (a template's check may read its one pile as a destination)."""
    return _Shape(**vars(shape))


# -- did you mean ---------------------------------------------------------------------------------

def _pool(game: GameCore, seat: int, hidden: frozenset[int]) -> list[str]:
    """The texts of the moves the position's piles could make (legal or not), up to MAX_POOL."""

    rules, S = game.rules, game.state
    texts: list[str] = []
    codes = rules.deck.codes
    for t in rules.moves:
        if len(texts) >= MAX_POOL:
            break
        sources = (t.seat_sources[seat] if t.seat_sources is not None and seat < len(t.seat_sources) else t.sources) \
            if t.sources else (-1,)
        targets = (t.seat_targets[seat] if t.seat_targets is not None and seat < len(t.seat_targets) else t.targets) \
            if t.targets else (-1,)
        words = list(range(game.players)) if t.for_seat else t.offered_choices(game.players) if t.choices else [-1]
        if t.named_text:
            sources, targets = (t.sources[0] if t.sources else -1,), (t.targets[0] if t.targets else -1,)
        for src in sources:
            pile = S.piles[src] if src >= 0 else []
            if src >= 0 and not pile and not t.named_text:
                continue
            shapes: list[tuple[int, Any]] = [(1, None)]
            if t.take == "run":
                up = 0
                while up < len(pile) and S.up[pile[len(pile) - 1 - up]]:
                    up += 1
                shapes = [(n, None) for n in range(1, max(up, 1) + 1)]
            elif t.take == "any":
                if t.picks != 1:
                    continue
                seen_codes: set[str] = set()
                shapes = []
                for card in reversed(pile):
                    if card in hidden:
                        if (1, BLIND) not in shapes:
                            shapes.append((1, BLIND))
                    elif codes[card] not in seen_codes:
                        seen_codes.add(codes[card])
                        shapes.append((1, card))
            for dst in targets:
                if dst >= 0 and dst == src:
                    continue
                for count, pick in shapes:
                    for word in words:
                        move = Move(rules, t.index, src, count, dst, (), pick, word)
                        if rules.simultaneous:
                            move.actor = seat
                        texts.append(move.text())
                        if len(texts) >= MAX_POOL:
                            return texts
    return texts


def _suggest(wanted: str, legal: list[str], pool: list[str]) -> tuple[str, ...]:
    close = difflib.get_close_matches(wanted, legal, n=SUGGESTIONS, cutoff=0.6)
    others = [t for t in difflib.get_close_matches(wanted, pool, n=SUGGESTIONS + len(close), cutoff=0.6)
              if t not in close]
    return tuple((close + others)[:SUGGESTIONS])
