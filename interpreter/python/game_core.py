"""Stage 6: what every part of a `Game` shares. `GameCore` declares a game's attributes and holds
what the parts all read (the seat to act, who sees a card, the checks of the seats and moves
given); `Game` (python/engine.py) joins the parts (python/legal_moves.py, turns.py, game_end.py,
agent_interface.py, results.py) over it."""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Self

from ..base.errors import ArgumentError, IllegalMoveError, printable
from .moves import BLIND, Lineage, Move

if TYPE_CHECKING:
    from ..model.rules import Ruleset
    from .state import State


def as_whole(value: Any) -> int | None:
    """`value` as a whole number if it is one: an int, or an integer of numpy (or any other
    `numbers.Integral`, as agents pass them); None for anything else, true/false included."""
    if isinstance(value, int):
        return None if isinstance(value, bool) else value
    return int(value) if isinstance(value, numbers.Integral) else None


def is_whole(value: Any) -> bool:
    return as_whole(value) is not None


def shown_value(value: Any) -> str:
    """A value given where another was expected, as an error message quotes it: short and printable."""
    text = printable(repr(value))
    return text if len(text) <= 80 else text[:77] + "..."


def move_text(move: Move) -> str:
    """A move's text, or (for a move built by hand whose fields name nothing) its fields."""
    try:
        return move.text()
    except (IndexError, KeyError, TypeError, AttributeError, ValueError):
        return repr(move)


def not_a_move(value: Any) -> str:
    """What `Game.apply` says when given something other than a `Move`."""
    if isinstance(value, str):
        return (f"apply takes a Move, not the text {shown_value(value)}: "
                f"use game.apply(game.parse_move({shown_value(value)}))")
    return f"apply takes a Move (one of game.legal_moves()), not {shown_value(value)}"


@dataclass(frozen=True)
class PendingChance:
    """A draw of chance waiting for its outcome (python/chance_nodes.py): the move it belongs to
    (None: the setup), the outcomes already chosen for that move's earlier draws, and the items
    the draw picks among."""

    move: Move | None
    chosen: tuple[int, ...]
    items: tuple[Any, ...]


class GameCore:
    """The attributes of a game (set by `Game.__init__` and `Game.clone`) and what every part of it reads."""

    rules: Ruleset
    state: State
    lineage: Lineage  # shared by clones: the moves of this game carry it
    players: int
    max_moves: int | None
    seed: int | None
    history: list[Move]
    persisted_start: dict[str, Any]  # before setup: what the game's change is measured from
    # The moves listed for `legal_moves()` in the current state (keyed by `_listing_key`), which
    # the engine's own listing takes over; cleared when a move starts or is taken back.
    _listed: tuple[Any, list[Move]] | None
    # By history index, for moves that name a card (`take: any`) not every seat may know: the seats
    # (None: a spectator) that could see that card before or right after the move (`record`).
    _knowers: dict[int, frozenset[int | None]]
    _legal: list[Move] | None  # the moves of the seat to act
    _seat_legal: dict[int, list[Move]]  # a simultaneous game's other seats' moves
    _numbered: tuple[list[Move], list[int]] | None  # a listing and its action numbers
    # The texts of the moves made (`record`), by the move (its fields): a view holds the record
    # of every move, which would otherwise be written out anew for every view (movegen.MAX_KNOWN).
    # Shared with clones, not with determinized copies (it holds texts naming hidden cards).
    _texts: dict[Move, str]
    # With `end.repeat`: how often each position has occurred, and the key after each move.
    _seen: dict[Any, int]
    _keys: list[Any]
    # With `end.cycle`: the cycle under way (the positions it went through since any other move,
    # and whether any of them offered another move), or None; its first position, noted when a
    # move of the cycle starts one; and (for undo) the value before each settled move, with the
    # history length it was made at.
    _cycle: tuple[frozenset[Any], bool] | None
    _cycle_begin: tuple[Any, bool] | None
    _cycle_stack: list[tuple[int, tuple[frozenset[Any], bool] | None]]
    # Explicit chance (python/chance_nodes.py): the draw waiting for the caller's outcome, or None;
    # and by history index (-1: the setup), the outcomes the caller chose for that move's draws.
    _chance: PendingChance | None
    chance_log: dict[int, tuple[int, ...]]

    # -- made by the other parts ------------------------------------------------------------

    def legal_moves(self, seat: int | None = None) -> list[Move]:
        raise NotImplementedError  # python/legal_moves.py

    def _generate(self, out: list[Move], reset: bool = True) -> None:
        raise NotImplementedError  # python/engine.py

    def apply(self, move: Move, settle: bool = True) -> None:
        raise NotImplementedError  # python/engine.py

    def clone(self) -> Self:
        raise NotImplementedError  # python/engine.py

    def apply_chance(self, outcome: int) -> None:
        raise NotImplementedError  # python/chance_nodes.py

    def parse_move(self, text: str, seat: int | None = None) -> Move:
        raise NotImplementedError  # python/agent_interface.py

    # -- the game as it stands ----------------------------------------------------------------

    @property
    def deal_order(self) -> list[str]:
        """The deck as dealt: card codes, top of the deck first (a deal file of this game)."""
        return [self.rules.deck.codes[c] for c in self.state.deck_order]

    @property
    def current_player(self) -> int:
        """The seat to act: the seat whose turn it is, or a seat asked to act out of turn."""
        return self.state.current

    @property
    def turn_player(self) -> int:
        """The seat whose turn it is: `current_player`, but while a seat is asked to act out of turn
        (`out_of_turn`), the seat whose turn goes on afterwards."""
        S = self.state
        return S.asking[0] if S.asking is not None else S.current

    @property
    def is_over(self) -> bool:
        return self.state.over

    @property
    def outcome(self) -> str | None:
        return self.state.outcome

    @property
    def reason(self) -> str:
        return self.state.reason

    @property
    def phase(self) -> str | None:
        """The name of the current phase of the turn (None for rulesets without phases)."""
        return self.rules.phases[self.state.phase] if self.rules.phases else None

    # -- who sees a card -------------------------------------------------------------------

    def visible(self, card: int, pile: int, player: int | None) -> bool:
        """May `player` see which card `card` (lying on `pile`) is? `None` is a spectator, who
        sees only what every seat sees."""
        return self.rules.sees(self.state, card, pile, player)

    def seers(self, card: int, pile: int) -> frozenset[int | None]:
        """The seats that may see `card` lying on `pile`, and None if a spectator may (then every seat may)."""
        return frozenset(seat for seat in (None, *range(self.players)) if self.visible(card, pile, seat))

    def _blind_card(self, pile: int) -> int:
        """The card a blind pick (`BLIND`) from `pile` takes: the topmost the seat to act cannot see."""
        S = self.state
        for card in reversed(S.piles[pile]):
            if not self.visible(card, pile, S.current):
                return card
        raise IllegalMoveError(f"{self.rules.pile_names[pile]} has no card hidden from seat {S.current + 1}")

    # -- checks of the seats and moves given --------------------------------------------------

    def _check_seat(self, seat: Any, what: str = "seat") -> int:
        """A seat index this game has, as an int (a numpy integer is taken); else an `ArgumentError`
        saying which seats it has."""
        index = as_whole(seat)
        if index is None or not 0 <= index < self.players:
            raise ArgumentError(f"{what} must be a seat index, 0-{self.players - 1} in this game of "
                                f"{self.players} seat{'s' if self.players > 1 else ''} (0 is seat 1), "
                                f"not {shown_value(seat)}")
        return index

    def _card_id(self, card: Any) -> int:
        """A card of the deck, by its id or by its code (a code two cards share is refused: give the id)."""
        codes = self.rules.deck.codes
        if isinstance(card, str):
            ids = [i for i, code in enumerate(codes) if code.upper() == card.upper()]
            if len(ids) != 1:
                raise ArgumentError(f"card {card!r}: {'no card of the deck has this code' if not ids else 'several cards have this code: give its id'}")
            return ids[0]
        index = as_whole(card)
        if index is None or not 0 <= index < len(codes):
            raise ArgumentError(f"card must be a card's id, 0-{len(codes) - 1}, or its code, not {shown_value(card)}")
        return index

    def _foreign(self, move: Move) -> str:
        """Why a move offered by another game (or built on another ruleset) is refused."""
        origin = move.origin
        rules = origin.rules if isinstance(origin, Lineage) else origin
        if rules is self.rules:
            return f"{move_text(move)} is a move of another game of {self.rules.name}, not of this one"
        name = getattr(rules, "name", None)
        if name == self.rules.name:
            where = f"of another ruleset named {name} (loaded apart, or with other options)"
        else:
            where = f"of {name}" if isinstance(name, str) else f"made on {type(rules).__name__}"
        return f"{move_text(move)} is a move {where}, not of this game of {self.rules.name}"

    def _malformed(self, move: Move) -> str | None:
        """What is wrong with the fields of a move built by hand, if they name nothing in this game."""
        rules = self.rules
        if not is_whole(move.template) or not 0 <= move.template < len(rules.moves):
            return (f"a move's template is an index into the ruleset's moves, 0-{len(rules.moves) - 1}, "
                    f"not {shown_value(move.template)}")
        for field, value in (("src", move.src), ("dst", move.dst)):
            if not is_whole(value) or not -1 <= value < rules.pile_count:
                return (f"a move's {field} is a pile index, 0-{rules.pile_count - 1} (-1: none), "
                        f"not {shown_value(value)}")
        if not is_whole(move.count) or move.count < 0:
            return f"a move's count is a number of cards, 0 or more, not {shown_value(move.count)}"
        picked: tuple[Any, ...] = move.pick if isinstance(move.pick, tuple) and move.pick else (move.pick,)
        if move.pick not in (None, BLIND) and not all(is_whole(c) and 0 <= c < len(rules.deck) for c in picked):
            return (f"a move's pick is a card index, 0-{len(rules.deck) - 1} (or a tuple of them), "
                    f"not {shown_value(move.pick)}")
        return None
