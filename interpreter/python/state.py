"""Stage 6: the mutable part of one game. `State` holds its piles, faces, variables and turn over
the shared, compiled `Ruleset`, and journals every change so that a move can be taken back
(`Game.undo`, python/engine.py)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from ..model.chance import chance_stream

if TYPE_CHECKING:
    from ..model.ruleset import Ruleset


# `State.known` of a card every seat knows: it lay where every seat saw it before it went out of sight
# (a trick gathered face down). Every seat's bit is set in it (`mask >> seat & 1` is 1 for any seat).
EVERY_SEAT = -1


# seats still to ask, the move they are asked after.
Asking = tuple[int, int, int, tuple[int, ...], int]


class ChanceNeeded(BaseException):
    """A draw of chance met under explicit chance with no outcome chosen for it: the move (or the
    setup) is taken back, and the game waits at a chance node (`Game.chance_outcomes`). A
    BaseException, so that no rule's own error handling mistakes it for a failure."""

    def __init__(self, items: tuple[Any, ...]) -> None:
        super().__init__("a draw of chance waits for its outcome")
        self.items = items


class State:
    """The mutable part of a game. Every mutation is journaled for undo."""

    __slots__ = ("piles", "up", "vars", "current", "phase", "frames", "over", "outcome", "reason", "winners",
                 "journal", "marks", "deck_order", "players", "lister", "next_seat", "direction", "chance",
                 "shuffles", "known", "sees", "owners", "asking", "named", "named_seers", "outcomes")

    def __init__(self, rules: Ruleset, players: int) -> None:
        self.piles: list[list[int]] = [[] for _ in range(rules.pile_count)]
        self.up = bytearray(len(rules.deck))
        self.vars: list[Any] = [0] * rules.var_count
        self.current = 0
        self.phase = 0  # index into the ruleset's turn phases (0 when it has none)
        self.frames: tuple[tuple[int, int], ...] = ()  # (seat, phase) to return to after an `act`
        self.next_seat = -1  # the seat that takes the next turn (`turn_to`), -1: the next in order
        self.direction = 1   # the order of the turns: 1 up the seats, -1 down them (`reverse`)
        # While seats are asked to act out of turn (`out_of_turn`): the seat, phase and `turn_to`
        # seat (-1: none) of the turn that goes on afterwards, the seats still to ask, and the move
        # (template index; -1: the deal) after which they are asked. Else None.
        self.asking: Asking | None = None
        self.chance = 0      # the seed of the shuffles made after the deal (`shuffle`)
        self.shuffles = 0    # how many of them have been made: the next one's place in that seed's stream
        # Explicit chance (`Game(explicit_chance=True)`): the outcomes the caller chose for the draws
        # of the move under way (`random`, `place: random`), taken in order; a draw with none left
        # stops the move (`ChanceNeeded`). None: every draw comes from the `chance` seed.
        self.outcomes: list[int] | None = None
        # By card, the seats (a bit each) that know it where they could not see it: shown to them
        # (`show`), or seen by them before it moved out of their sight (a card passed face down;
        # a card every seat saw, as a trick gathered face down: `EVERY_SEAT`).
        # None where nothing can be known so (no `owner` zone, no `show`).
        self.known: list[int] | None = [0] * len(rules.deck) if rules.tracks_knowledge else None
        # The cards the move under way names (`take: any`), and who could see each of them right after
        # the move's own effects, before the triggers that follow it (`note_named_seers`; `Game.record`).
        self.named: tuple[int, ...] = ()
        self.named_seers: list[frozenset[int | None]] | None = None
        self.sees = rules.sees
        self.owners = rules.pile_owner
        self.over = False
        self.outcome: str | None = None
        self.reason = ""
        self.winners: tuple[int, ...] | None = None  # named by the end condition that ended the game
        self.journal: list[tuple[Any, ...]] = []
        self.marks: list[int] = []
        self.deck_order: list[int] = []
        self.players = players
        # `legal_moves()` in expressions: the names of the legal moves now (set by the Game).
        self.lister: Any = lambda: []

    def copy(self) -> "State":
        other = State.__new__(State)
        other.piles = list(self.piles)
        other.up = bytearray(self.up)
        other.vars = list(self.vars)
        other.current = self.current
        other.phase = self.phase
        other.frames = self.frames
        other.next_seat, other.direction = self.next_seat, self.direction
        other.asking = self.asking
        other.chance, other.shuffles = self.chance, self.shuffles
        other.outcomes = None if self.outcomes is None else []
        other.known = list(self.known) if self.known is not None else None
        other.sees, other.owners = self.sees, self.owners
        other.named, other.named_seers = (), None
        other.over = self.over
        other.outcome = self.outcome
        other.reason = self.reason
        other.winners = self.winners
        other.journal = list(self.journal)
        other.marks = list(self.marks)
        other.deck_order = self.deck_order
        other.players = self.players
        other.lister = self.lister  # the Game that copies a state points it at itself
        return other

    # -- mutations ------------------------------------------------------------------------

    def move_cards(self, src: int, dst: int, n: int, flip: bool = False, face: bool | None = None,
                   bottom: bool = False) -> None:
        if n <= 0:
            return
        piles = self.piles
        old_src, old_dst = piles[src], piles[dst]
        if n > len(old_src):
            n = len(old_src)
        moved = old_src[-n:]
        known = self.known
        if known is not None:  # who may know each card as it leaves, seeing it only privately
            knowers = [self.private_seers(card, src) for card in moved]
        if flip:
            moved.reverse()
            for card in moved:
                self.set_face(card, not self.up[card])
        if face is not None:
            for card in moved:
                if self.up[card] != face:
                    self.set_face(card, face)
        self.journal.append(("piles", src, old_src, dst, old_dst))
        piles[src] = old_src[:-n]
        under = piles[src] if src == dst else old_dst
        piles[dst] = moved + under if bottom else under + moved
        if known is not None:
            for card, mask in zip(moved[::-1] if flip else moved, knowers):
                # A card every seat sees now needs no one's memory; else its knowers keep knowing it.
                if mask:
                    self.set_known(card, 0 if self.sees(self, card, dst, None) else mask)

    def private_seers(self, card: int, pile: int) -> int:
        """The seats (a bit each) that see `card` on `pile`, who go on knowing it wherever it goes:
        `EVERY_SEAT` if every seat does. Besides the seats that know it, only a pile's owner can
        (`owner` visibility: model/ruleset.py)."""
        sees = self.sees
        if sees(self, card, pile, None):
            return EVERY_SEAT
        mask = self.known[card]  # type: ignore[index]
        owner = self.owners[pile]
        if owner >= 0 and not mask >> owner & 1 and sees(self, card, pile, owner):
            mask |= 1 << owner
        return mask

    def set_known(self, card: int, mask: int) -> None:
        known = self.known
        assert known is not None
        if known[card] != mask:
            self.journal.append(("known", card, known[card]))
            known[card] = mask

    def note_named_seers(self) -> None:
        """Right after a move's own effects, before the triggers that follow it: note who sees each
        card the move names (`named`) where it lies then. A move's record names a card to the seats
        that saw it before the move or right after it; what a trigger then does with the card is
        not the move's (results.ResultsAndViews.record)."""
        if not self.named:
            return
        seers: list[frozenset[int | None]] = []
        for card in self.named:
            for pile, cards in enumerate(self.piles):
                if card in cards:
                    seers.append(frozenset(seat for seat in (None, *range(self.players))
                                           if self.sees(self, card, pile, seat)))
                    break
            else:  # pragma: no cover - a card is always on some pile
                seers.append(frozenset())
        self.named_seers = seers

    def lift(self, pile: int, depth: int) -> None:
        """Bring the card `depth` from the top of a pile to its top (the others keep their order)."""
        old = self.piles[pile]
        index = len(old) - depth
        self.journal.append(("piles", pile, old, pile, old))
        self.piles[pile] = old[:index] + old[index + 1:] + [old[index]]

    def bring_up(self, pile: int, pick: int | tuple[int, ...]) -> None:
        """Bring a `take: any` move's card (or cards, in order: the last on top) to a pile's top."""
        for card in pick if isinstance(pick, tuple) else (pick,):
            cards = self.piles[pile]
            self.lift(pile, len(cards) - cards.index(card))

    def shuffle(self, pile: int) -> None:
        """Put a pile's cards in a random order (faces as they lie), the game's next shuffle: it
        depends only on the game's `chance` seed and on how many shuffles came before it."""
        cards = list(self.piles[pile])
        self._draw().shuffle(cards)
        self._rearrange(pile, cards, cards)  # nobody knows where a card went in a shuffled pile

    def reorder(self, pile: int, cards: list[int]) -> None:
        """Lay a pile's cards in an order the rules decide (`sort`): no chance, so a seat that knew a
        card still does."""
        self._rearrange(pile, cards, [])

    def bury(self, pile: int, n: int) -> None:
        """Put the top `n` cards of a pile, together and in their order, at a random place in it:
        under any number of the other cards, from none to all, alike likely. Like a shuffle, the
        game's next draw of chance; the cards' whereabouts in the pile are then known to nobody."""
        old = self.piles[pile]
        n = min(n, len(old))
        if n <= 0:
            return
        rest, packet = old[:len(old) - n], old[len(old) - n:]
        at = self.chance_index(len(rest) + 1)
        self._rearrange(pile, rest[:at] + packet + rest[at:], packet)

    def chance_index(self, n: int, items: Any = None) -> int:
        """A place among `n` (`random`: in `items`, what each place draws; `place: random`, no
        items: how many cards go under the packet), alike likely each: the game's next draw of
        chance. Under explicit chance, the caller's next outcome, or a stop (`ChanceNeeded`) if none
        is left."""
        outcomes = self.outcomes
        if outcomes is None:
            return self._draw().randrange(n)
        if not outcomes:
            raise ChanceNeeded(tuple(range(n)) if items is None else tuple(items))
        self._count_draw()  # (a draw of the stream all the same, so that the draws after it come alike)
        return outcomes.pop(0)

    def _draw(self) -> random.Random:
        """The game's next draw of chance after the deal (a shuffle, a random place): it depends only
        on the `chance` seed and on how many draws came before it."""
        return chance_stream(self.chance, self._count_draw())

    def _count_draw(self) -> int:
        """Count the game's next draw of chance (taken back by undo); its place in the stream."""
        draw = self.shuffles
        self.journal.append(("shuffles", draw))
        self.shuffles = draw + 1
        return draw

    def _rearrange(self, pile: int, cards: list[int], forgotten: list[int]) -> None:
        """Lay a pile's cards in a new order drawn by chance; who knew the `forgotten` ones no longer
        knows where they lie."""
        self.journal.append(("piles", pile, self.piles[pile], pile, self.piles[pile]))
        self.piles[pile] = cards
        if self.known is not None:
            for card in forgotten:
                self.set_known(card, 0)

    def turn(self, card: int, up: bool) -> None:
        """Turn a card face up or down where it lies (`turn_up`, `turn_down`); as a card moved out
        of sight (`move_cards`), a card turned out of the sight of seats that saw it stays known to them."""
        known = self.known
        if known is None:
            self.set_face(card, up)
            return
        pile = next(p for p, cards in enumerate(self.piles) if card in cards)
        mask = self.private_seers(card, pile)
        self.set_face(card, up)
        if mask:
            self.set_known(card, 0 if self.sees(self, card, pile, None) else mask)

    def set_face(self, card: int, up: bool) -> None:
        self.journal.append(("up", card, self.up[card]))
        self.up[card] = up

    def set_frames(self, frames: tuple[tuple[int, int], ...]) -> None:
        self.journal.append(("frames", self.frames))
        self.frames = frames

    def set_turn_order(self, next_seat: int, direction: int) -> None:
        """Say who takes the next turn (-1: the next seat in order) and which way the order runs."""
        self.journal.append(("turn", self.next_seat, self.direction))
        self.next_seat, self.direction = next_seat, direction

    def set_asking(self, asking: Asking | None) -> None:
        self.journal.append(("asking", self.asking))
        self.asking = asking

    def set_var(self, slot: int, value: Any) -> None:
        self.journal.append(("var", slot, self.vars[slot]))
        self.vars[slot] = value

    def end(self, outcome: str, reason: str, winners: tuple[int, ...] | None = None) -> None:
        if not self.over:
            self.journal.append(("meta", self.current, self.phase, self.over, self.outcome, self.reason, self.winners))
            self.over, self.outcome, self.reason, self.winners = True, outcome, reason, winners

    def set_current(self, player: int, phase: int = 0) -> None:
        """Give the turn (and its phase) to a seat."""
        self.journal.append(("meta", self.current, self.phase, self.over, self.outcome, self.reason, self.winners))
        self.current, self.phase = player, phase

    def place_deck(self, pile: int) -> None:
        self.piles[pile] = list(reversed(self.deck_order)) + self.piles[pile]
        for card in self.deck_order:
            self.up[card] = 0

    def undo_to(self, mark: int) -> None:
        journal = self.journal
        while len(journal) > mark:
            entry = journal.pop()
            kind = entry[0]
            if kind == "piles":
                _, src, old_src, dst, old_dst = entry
                self.piles[dst] = old_dst
                self.piles[src] = old_src
            elif kind == "up":
                self.up[entry[1]] = entry[2]
            elif kind == "var":
                self.vars[entry[1]] = entry[2]
            elif kind == "frames":
                self.frames = entry[1]
            elif kind == "turn":
                self.next_seat, self.direction = entry[1], entry[2]
            elif kind == "asking":
                self.asking = entry[1]
            elif kind == "shuffles":
                self.shuffles = entry[1]
            elif kind == "known":
                self.known[entry[1]] = entry[2]  # type: ignore[index]
            else:
                _, self.current, self.phase, self.over, self.outcome, self.reason, self.winners = entry
