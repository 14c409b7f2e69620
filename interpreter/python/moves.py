"""A move of the Python backend (`Move`): a move template applied to a source pile, a card count
and a destination pile, with what it picks and chooses; its canonical text; and the lineage of
games whose listings made it (`Lineage`). Below the engine, so that what reads moves (explain,
render) need not import the engine."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..model.rules import Ruleset

# A `take: any` move's pick that names no card: a blind pick (the card is taken unseen), or a move
# as a seat that cannot see the card knows it.
BLIND = -1


class Lineage:
    """The token a game and its `clone`s and `determinize`d copies share, carried by the moves their
    enumerators make (as `Move.origin`), so `Game.apply` can tell its own moves from another game's.
    A listing offers again the `Move` it made for the same fields (`known`): the moves of a lineage
    are not to be changed (but for `actor`, set by the engine in a simultaneous game, where moves
    are not kept)."""

    __slots__ = ("known", "rules")

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules
        # The moves the lineage's listings made, by their fields, to offer again (movegen.MAX_KNOWN).
        self.known: dict[Any, Move] = {}


class Move:
    """One legal move: a move template applied to a source pile, a card count and a destination pile.

    `str(move)` is its canonical text, which `Game.parse_move` reads back. `origin` is the game
    lineage that offered the move (or, for a move built by hand, a ruleset).
    """

    __slots__ = ("origin", "template", "src", "count", "dst", "selection", "pick", "seat", "actor")

    def __init__(self, rules: Ruleset | Lineage, template: int, src: int, count: int, dst: int,
                 selection: tuple[tuple[int, int], ...] = (), pick: int | tuple[int, ...] | None = None,
                 seat: int = -1) -> None:
        self.origin = rules
        self.template = template
        self.src = src
        self.count = count
        self.dst = dst
        self.selection = selection  # for `select` moves: (pile, card count) for each chosen pile
        self.pick = pick  # for `take: any`: the card chosen from the source pile (`{any: K}`: the K cards)
        self.seat = seat  # for `for_seat`: the seat chosen (0-based); for `choose`: the value's index
        self.actor = -1  # in a simultaneous game: the seat that makes the move

    @property
    def rules(self) -> Ruleset:
        origin = self.origin
        return origin.rules if isinstance(origin, Lineage) else origin

    @property
    def name(self) -> str:
        return self.rules.moves[self.template].name

    def key(self) -> tuple[Any, ...]:
        return (self.template, self.src, self.count, self.dst, self.selection, self.pick, self.seat, self.actor)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Move) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def text(self, long: bool = False) -> str:
        rules = self.rules
        template = rules.moves[self.template]
        seat = "" if self.seat < 0 else template.choice_text(self.seat) if template.choices else f" seat{self.seat + 1}"
        names = rules.pile_long_names if long else rules.pile_names
        # what tells apart the moves of one template from one pile: the cards of a run, the card
        # picked, the piles of a `select` (with their card counts)
        taken = (f"x{self.count}" if template.take == "run" and self.count > 1 else "") \
            + (_pick_text(rules.deck.codes, self.pick, template.picks) if template.take == "any" else "") \
            + "".join(f"+{names[p]}" + (f"x{c}" if c > 1 else "") for p, c in self.selection)
        if template.named_text:  # in a simultaneous game the name carries the seat that moves
            return template.name + (f"@{self.actor + 1}" if self.actor >= 0 else "") + taken + seat

        def pile(p: int) -> str:
            return names[p]
        parts = []
        if self.src >= 0:
            parts.append(pile(self.src) + taken)
        if self.dst >= 0:
            parts.append(pile(self.dst))
        text = ">".join(parts)
        return (f"{template.name}:{text}" if template.prefixed else text) + seat

    def picking(self, card: int | tuple[int, ...] | None) -> "Move":
        """The same move with `card` as its pick (a blind pick, once it is known which card it took)."""
        other = Move(self.origin, self.template, self.src, self.count, self.dst, self.selection, card, self.seat)
        other.actor = self.actor
        return other

    def concealed(self) -> "Move":
        """The move without the card it picks (`take: any`): its text names the card as `?`
        (`h@2:?>p1`), as a seat that cannot see that card knows the move."""
        return self.picking(None)

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        try:
            return f"Move({self.text()!r})"
        except Exception:  # noqa: BLE001 - a move built by hand with fields that name nothing
            return f"Move(template={self.template!r}, src={self.src!r}, count={self.count!r}, dst={self.dst!r})"


def _pick_text(codes: Sequence[str], pick: int | tuple[int, ...] | None, picks: int) -> str:
    """The part of a `take: any` move's text that names its cards: `:7H`, `:2C,7H,QS` for several;
    a card not named (a blind pick, or as a seat that cannot see it knows the move) is `?`."""
    if isinstance(pick, tuple):
        return ":" + ",".join(codes[c] for c in pick)
    if pick is None or pick == BLIND:
        return ":" + ",".join("?" * picks)
    return f":{codes[pick]}"
