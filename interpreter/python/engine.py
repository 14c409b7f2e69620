"""Stage 6: run games. `Game` holds a mutable `State` (python/state.py) over a shared, compiled `Ruleset`.

The API follows the usual agent vocabulary: current player, legal moves, apply,
undo, clone, a view per seat, is over, scores. Piles are lists of card ids that
are never changed in place (a change replaces the list), so a clone copies only
the outer lists and an undo entry keeps the old list. Every change goes through
the `State` methods, which write an undo journal.
"""

from __future__ import annotations

import hashlib
import numbers
import random
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..base.errors import ArgumentError, IllegalMoveError, SetupError, SourcePos, printable, unknown
from ..front.compiler import StepLimitError
from .movegen import remember
from .moves import BLIND, Lineage, Move  # (Move is public here too: cardrules.Move)
from ..model.observation import information_state_string, observation_string
from ..model.persisted import value_problem
from ..model.ruleset import CycleRule, MoveTemplate, Ruleset, runtime_error
from .state import Asking, State

if TYPE_CHECKING:
    from .explain import Explanation


# Whether a move runs its template's generated apply function and the end conditions their generated
# check (python/applygen.py) where they have them; tests switch it off to compare with the closures.
WRITTEN_OUT = True

# The positions a cycle keeps once one of them offered another move (`Game._track_cycle`).
_NOTHING_KEPT: frozenset[Any] = frozenset()


def _lister_of(game: Game) -> Callable[[], list[str]]:
    """`legal_moves()` for the expressions of `game` (`State.lister`). It holds the game weakly: a
    state pointing back at its game would make every game a reference cycle, which only Python's
    cyclic garbage collector frees, with the whole undo journal of a long playout in it (about a
    tenth of a random playout's time went to that collector)."""
    method = weakref.WeakMethod(game._legal_names)

    def lister() -> list[str]:
        bound = method()
        return bound() if bound is not None else []
    return lister


def _as_whole(value: Any) -> int | None:
    """`value` as a whole number if it is one: an int, or an integer of numpy (or any other
    `numbers.Integral`, as agents pass them); None for anything else, true/false included."""
    if isinstance(value, int):
        return None if isinstance(value, bool) else value
    return int(value) if isinstance(value, numbers.Integral) else None


def _whole(value: Any) -> bool:
    return _as_whole(value) is not None


def _shown(value: Any) -> str:
    """A value given where another was expected, as an error message quotes it: short and printable."""
    text = printable(repr(value))
    return text if len(text) <= 80 else text[:77] + "..."


def _move_text(move: Move) -> str:
    """A move's text, or (for a move built by hand whose fields name nothing) its fields."""
    try:
        return move.text()
    except (IndexError, KeyError, TypeError, AttributeError, ValueError):
        return repr(move)


def _not_a_move(value: Any) -> str:
    """What `Game.apply` says when given something other than a `Move`."""
    if isinstance(value, str):
        return f"apply takes a Move, not the text {_shown(value)}: use game.apply(game.parse_move({_shown(value)}))"
    return f"apply takes a Move (one of game.legal_moves()), not {_shown(value)}"


def _written_at(rules: Ruleset, path: tuple[Any, ...]) -> SourcePos | None:
    """Where a part of the ruleset is written (None for a ruleset not built from a file)."""
    return rules.front_end.doc.pos(path) if rules.front_end is not None else None


def _check_setup(seed: Any, deal: Any, players: Any, persisted: Any, max_moves: Any) -> None:
    """Refuse, with a `SetupError` that says what is expected, arguments a game cannot start from."""
    if seed is not None and not _whole(seed):
        raise SetupError(f"a seed is a whole number, not {_shown(seed)}")
    if players is not None and not _whole(players):
        raise SetupError(f"players is a whole number of seats, not {_shown(players)}")
    if deal is not None:
        if not isinstance(deal, (str, list, tuple)):
            raise SetupError(f"a deal is a text of card codes or a list of card codes (top of the deck first), "
                             f"not {_shown(deal)}")
        if not isinstance(deal, str):
            for code in deal:
                if not isinstance(code, str):
                    raise SetupError(f"a deal lists card codes (strings such as 'AS'), not {_shown(code)}")
    if persisted is not None and not isinstance(persisted, dict):
        raise SetupError(f"persisted values are a dict by variable name, not {_shown(persisted)}")
    if max_moves is not None and not (_whole(max_moves) and max_moves >= 0):
        raise SetupError(f"max_moves is a whole number of moves, 0 or more, not {_shown(max_moves)}")


class Game:
    """One game of a ruleset: start it from a seed or an explicit deal, then apply moves."""

    def __init__(self, rules: Ruleset, seed: int | None = None, deal: list[str] | str | None = None,
                 players: int | None = None, persisted: dict[str, Any] | None = None,
                 max_moves: int | None = None) -> None:
        _check_setup(seed, deal, players, persisted, max_moves)
        seed, players, max_moves = (_as_whole(value) for value in (seed, players, max_moves))  # numpy ints as ints
        self.rules = rules
        rules.meter.reset()  # the setup's steps (limits.MAX_STEPS), as every unit of work below
        self.lineage = Lineage(rules)  # shared by clones: the moves of this game carry it
        self.max_moves = max_moves if max_moves is not None else rules.max_moves
        self.players = players if players is not None else rules.default_players
        if not rules.min_players <= self.players <= rules.max_players:
            raise SetupError(f"{rules.name} is for {rules.min_players}-{rules.max_players} players, "
                             f"not {self.players}")
        self.seed = seed
        deck = rules.deck
        in_play = rules.deck_cards[self.players]  # `deck.where` may keep cards by the number of players
        if deal is not None:
            order = deck.parse_order(deal if isinstance(deal, str) else " ".join(deal), cards=in_play)
        else:
            if seed is None:
                raise SetupError("a game needs a seed or a deal")
            order = list(in_play)
            random.Random(seed).shuffle(order)
        self.state = State(rules, self.players)
        self.state.deck_order = order
        # The shuffles after the deal draw on the seed; a game from a deal (and no seed), on the deal.
        self.state.chance = seed if seed is not None else int.from_bytes(
            hashlib.sha256(" ".join(deck.codes[c] for c in order).encode()).digest()[:8], "big")
        self.state.lister = _lister_of(self)
        # The moves listed for `legal_moves()` in the current state (keyed by `_listing_key`), which
        # the engine's own listing takes over; cleared when a move starts or is taken back.
        self._listed: tuple[Any, list[Move]] | None = None
        self.history: list[Move] = []
        # By history index, for moves that name a card (`take: any`) not every seat may know: the seats
        # (None: a spectator) that could see that card before or right after the move (`record`).
        self._knowers: dict[int, frozenset[int | None]] = {}
        self._legal: list[Move] | None = None  # the moves of the seat to act
        self._seat_legal: dict[int, list[Move]] = {}  # a simultaneous game's other seats' moves
        self._numbered: tuple[list[Move], list[int]] | None = None  # a listing and its action numbers
        # The texts of the moves made (`record`), by the move (its fields): a view holds the record
        # of every move, which would otherwise be written out anew for every view (movegen.MAX_KNOWN).
        # Shared with clones, not with determinized copies (it holds texts naming hidden cards).
        self._texts: dict[Move, str] = {}
        S = self.state
        for variable in rules.variables.values():
            count = self.players if variable.per_player else 1
            for p in range(count):
                # a team's value: as its first seat's
                value = variable.initial(S, {"player": rules.team_of[self.players].index(
                    rules.team_of[self.players][p]) if variable.per_team else p})
                if variable.persist and persisted and variable.name in persisted:

                    saved = persisted[variable.name]  # a per-player value is saved as a list of seats
                    problem = value_problem(variable, saved)
                    if problem:  # (a number outside the 64-bit range, a value of the wrong type)
                        raise SetupError(f"the persisted value of '{variable.name}': {problem}")
                    if not variable.per_player:
                        value = saved
                    elif isinstance(saved, list) and p < len(saved):
                        value = saved[p]
                S.vars[variable.slot + p] = value
        self.persisted_start = self.persistent_values()  # before setup: what the game's change is measured from
        env = {"player": 0}
        try:
            for effect in rules.setup:
                effect(S, env)
            for effect in rules.on_start:
                effect(S, env)
        except StepLimitError as exc:  # an effect's loop (a `for`, a deal, a shuffle) went past the limit
            raise runtime_error(exc, "the setup", _written_at(rules, ("setup",))) from None
        if rules.phases:
            S.current, S.phase = 0, rules.first_phase
        starting = [trigger for trigger in rules.triggers if trigger.at_start]
        if starting:  # `at_start` triggers: once the deal is done, before anyone moves
            rules.meter.reset()
            start_env: dict[str, Any] = {"player": S.current, "move": ""}
            for trigger in starting:
                try:
                    trigger.run(S, start_env)
                except StepLimitError as exc:
                    where = _written_at(rules, ("triggers", rules.triggers.index(trigger)))
                    raise runtime_error(exc, f"trigger '{trigger.name}'", where) from None
        if S.next_seat >= 0:  # the start chose who moves first (`turn_to`)
            S.current, S.next_seat = S.next_seat, -1
        if rules.phases:
            self._skip_optional_phases()
        if rules.out_of_turn:  # the deal may already offer a move out of turn: asked from the first seat
            self._ask_out_of_turn((S.current - S.direction) % self.players, -1)
        S.journal.clear()
        self._listed = None  # keyed by the journal's length, which starts again here
        # With `end.repeat`: how often each position has occurred, and the key after each move.
        self._seen: dict[Any, int] = {}
        self._keys: list[Any] = []
        # With `end.cycle`: the cycle under way (the positions it went through since any other move,
        # and whether any of them offered another move), or None; its first position, noted when a
        # move of the cycle starts one; and (for undo) the value before each settled move, with the
        # history length it was made at.
        self._cycle: tuple[frozenset[Any], bool] | None = None
        self._cycle_begin: tuple[Any, bool] | None = None
        self._cycle_stack: list[tuple[int, tuple[frozenset[Any], bool] | None]] = []
        self._count_position()
        self._after_change()

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

    def legal_moves(self, seat: int | None = None) -> list[Move]:
        """The legal moves of the seat to act, or of `seat`. In a turn-based game a seat that is not
        to act has none; in a simultaneous game every seat has its own at any moment."""
        S = self.state
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
            env[template.choice_name] = template.choices[move.seat]
        return env

    def focus(self, seat: int) -> None:
        """In a simultaneous game: make `seat` the one that `current_player` and `legal_moves()`
        mean (the seat about to decide). Not a move: nothing is recorded."""
        S = self.state
        index = _as_whole(seat)
        if index is None or not 0 <= index < self.players:
            raise IllegalMoveError(f"there is no seat {index + 1 if index is not None else _shown(seat)}: focus "
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

    def _generate(self, out: list[Move], reset: bool = True) -> None:
        """Append the legal moves of the seat to act (the moves carry this game's lineage). A rule
        that fails while they are listed is reported at the move whose conditions failed."""
        rules = self.rules
        if reset:
            rules.meter.reset()
        try:
            rules.enumerate_all(self.state, out, Move, self.lineage)
        except Exception as whole:  # noqa: BLE001 - find the move whose conditions failed, to report it there
            for template in rules.moves:
                rules.meter.reset()
                try:
                    template.enumerate(self.state, [], Move, rules)
                except Exception as exc:  # noqa: BLE001
                    raise runtime_error(exc, f"move '{template.name}'", template.pos) from None
            # Each move alone stays within the limits, all of them together do not.
            raise runtime_error(whole, "the legal moves", rules.moves[0].pos if rules.moves else None) from None

    def apply(self, move: Move, settle: bool = True) -> None:
        """Apply a legal move; raises `IllegalMoveError` for any other. In a simultaneous game the
        move is made by its seat (`move.actor`), and one that has become illegal is refused.

        `settle=False` is for searches that take most moves back at once: the work that follows a
        move (the end conditions, the move limit, listing the next legal moves to see whether any
        is left) is left out until `settle()`. Until then only `state`, `undo` and `settle` may be
        used; an `end` effect has ended the game already. Not with `end.repeat`.

        The move must come from this game's `legal_moves()` (or from a `clone` or `determinize`d
        copy's); a move of another game, or of another ruleset, is refused."""
        if not isinstance(move, Move):
            raise IllegalMoveError(_not_a_move(move))
        rules = self.rules
        legal = self._legal
        if rules.plain_turns and legal is not None and move.pick is None and not move.selection and WRITTEN_OUT:
            for candidate in legal:
                if candidate is move:
                    run = rules.moves[move.template].apply
                    if run is not None:
                        self._apply_written(move, run, legal, settle)
                        return
                    break
        S = self.state
        simultaneous = rules.simultaneous and move.actor >= 0
        if simultaneous and move.actor >= self.players:
            raise IllegalMoveError(f"{_move_text(move)} is made by seat index {move.actor}, which this game has not")
        legal = self.legal_moves(move.actor) if simultaneous else \
            self._legal if self._legal is not None else self.legal_moves()
        for candidate in legal:
            if candidate is move:
                break
        else:
            origin = move.origin
            if origin is not self.lineage and origin is not rules:
                raise IllegalMoveError(self._foreign(move))
            if move not in legal:
                raise IllegalMoveError(self._malformed(move) or f"{_move_text(move)} is not a legal move now")
        template = rules.moves[move.template]
        mark = self._begin_move(move, legal)
        if simultaneous and S.current != move.actor:
            S.set_current(move.actor)  # the seat that moves is `player` for the move's rules
        mover, asked = S.current, S.asking
        if template.out_of_turn and asked is None and not rules.simultaneous:
            # Made in the seat's own turn, it is still no turn's move: the turn goes on where it was.
            asked = (S.current, S.phase, S.next_seat, (), -1)
            if S.next_seat >= 0:  # kept aside, so that a `turn_to` of the move can be told from it
                S.set_turn_order(-1, S.direction)
        pick = self._blind_card(move.src) if move.pick == BLIND else move.pick
        knew = self._named_seers(pick, move.src)  # who could see the cards named, before
        S.named, S.named_seers = () if pick is None else pick if isinstance(pick, tuple) else (pick,), None
        run = template.apply if WRITTEN_OUT and not move.selection else None
        if run is None:
            env = self._move_env(move, pick)
            if move.selection:
                env["selection"] = move.selection
                env["chosen_piles"] = [p for p, _ in move.selection]
                env["chosen"] = [c for p, n in move.selection for c in S.piles[p][len(S.piles[p]) - n:]]
        src, dst, count, seat = move.src, move.dst, move.count, move.seat
        if pick != move.pick:  # a blind pick: the record keeps the card it turned out to be
            move = move.picking(pick)
        self.history.append(move)
        counted = False
        try:
            try:
                if run is not None:  # the effects and triggers written out as one function
                    run(S, src, dst, count, S.current, pick, seat)  # (it takes the cards itself, if it reads them)
                    acted = end_turn = False
                else:
                    for effect in template.effects:
                        effect(S, env)
                    S.note_named_seers()  # (the generated function notes them at the same point)
                    for trigger in rules.triggers:
                        if trigger.after is None or template.name in trigger.after:
                            trigger.run(S, env)
                    acted, end_turn = bool(env.get("acted")), bool(env.get("end_turn", False))
            except StepLimitError as exc:  # an effect's loop (a `for`, a deal, a shuffle) went past the limit
                raise runtime_error(exc, f"move '{template.name}'", template.pos) from None
            if knew is not None:
                self._note_knowers(move, knew, S.named_seers)
            if not S.over and asked is not None:  # a seat asked out of turn has answered (or acted unasked)
                self._answered(template, asked, mover)
            elif not S.over and not acted and not rules.simultaneous:
                if S.frames or rules.phases or rules.rotation:
                    self._advance_turn(end_turn)  # (a turn without phases and seats to rotate stays as it is)
                if move.template in rules.opens_asking and not S.over:
                    self._ask_out_of_turn(mover, move.template)
            if rules.repeat is not None:
                counted = self._count_position()
            if settle:
                self._after_change()
            elif rules.repeat is not None:
                raise ValueError("a ruleset with end.repeat needs every move settled")
            else:
                self._legal, self._seat_legal = None, {}
        except BaseException:
            self._take_back_failed(mark, counted)
            raise

    def _begin_move(self, move: Move, legal: list[Move]) -> int:
        """What every move starts with: a fresh budget of steps for its effects and triggers, an
        undo mark (returned), and the start of an `end.cycle` cycle if it starts one."""
        rules, S = self.rules, self.state
        rules.meter.reset()
        mark = len(S.journal)
        S.marks.append(mark)
        self._listed = None
        cycle = rules.cycle
        if cycle is not None and self._cycle is None and move.template in cycle.moves:
            self._cycle_begin = self._cycle_start(cycle, legal)
        return mark

    def _take_back_failed(self, mark: int, counted: bool = False) -> None:
        """A move applies whole or not at all: a failing rule leaves the game as it was."""
        self.state.undo_to(mark)
        self.state.named, self.state.named_seers = (), None
        self.state.marks.pop()
        self.history.pop()
        self._knowers.pop(len(self.history), None)
        if counted:
            self._uncount_position()
        self._restore_cycle()
        self._legal, self._seat_legal = None, {}

    def _apply_written(self, move: Move, run: Callable[..., None], legal: list[Move], settle: bool) -> None:
        """`apply` the short way, for a legal move (found in `legal` by identity) of a ruleset whose
        turns go seat by seat with nobody asked out of turn (`Ruleset.plain_turns`), naming no card
        and no selection, whose template's effects and triggers are one generated function `run`.
        Everything `apply` would check or do otherwise does not arise for such a move."""
        rules, S = self.rules, self.state
        mark = self._begin_move(move, legal)
        self.history.append(move)
        try:
            try:
                run(S, move.src, move.dst, move.count, S.current, None, move.seat)
            except StepLimitError as exc:
                template = rules.moves[move.template]
                raise runtime_error(exc, f"move '{template.name}'", template.pos) from None
            if not S.over and (S.frames or rules.phases or rules.rotation):
                self._advance_turn(False)
            if settle:
                self._after_change()
            else:
                self._legal, self._seat_legal = None, {}
        except BaseException:
            self._take_back_failed(mark)
            raise

    def _blind_card(self, pile: int) -> int:
        """The card a blind pick (`BLIND`) from `pile` takes: the topmost the seat to act cannot see."""
        S = self.state
        for card in reversed(S.piles[pile]):
            if not self.visible(card, pile, S.current):
                return card
        raise IllegalMoveError(f"{self.rules.pile_names[pile]} has no card hidden from seat {S.current + 1}")

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

    def _foreign(self, move: Move) -> str:
        """Why a move offered by another game (or built on another ruleset) is refused."""
        origin = move.origin
        rules = origin.rules if isinstance(origin, Lineage) else origin
        if rules is self.rules:
            return f"{_move_text(move)} is a move of another game of {self.rules.name}, not of this one"
        name = getattr(rules, "name", None)
        if name == self.rules.name:
            where = f"of another ruleset named {name} (loaded apart, or with other options)"
        else:
            where = f"of {name}" if isinstance(name, str) else f"made on {type(rules).__name__}"
        return f"{_move_text(move)} is a move {where}, not of this game of {self.rules.name}"

    def _malformed(self, move: Move) -> str | None:
        """What is wrong with the fields of a move built by hand, if they name nothing in this game."""
        rules = self.rules
        if not _whole(move.template) or not 0 <= move.template < len(rules.moves):
            return (f"a move's template is an index into the ruleset's moves, 0-{len(rules.moves) - 1}, "
                    f"not {_shown(move.template)}")
        for field, value in (("src", move.src), ("dst", move.dst)):
            if not _whole(value) or not -1 <= value < rules.pile_count:
                return f"a move's {field} is a pile index, 0-{rules.pile_count - 1} (-1: none), not {_shown(value)}"
        if not _whole(move.count) or move.count < 0:
            return f"a move's count is a number of cards, 0 or more, not {_shown(move.count)}"
        picked: tuple[Any, ...] = move.pick if isinstance(move.pick, tuple) and move.pick else (move.pick,)
        if move.pick not in (None, BLIND) and not all(_whole(c) and 0 <= c < len(rules.deck) for c in picked):
            return (f"a move's pick is a card index, 0-{len(rules.deck) - 1} (or a tuple of them), "
                    f"not {_shown(move.pick)}")
        return None

    def _check_seat(self, seat: Any, what: str = "seat") -> int:
        """A seat index this game has, as an int (a numpy integer is taken); else an `ArgumentError`
        saying which seats it has."""
        index = _as_whole(seat)
        if index is None or not 0 <= index < self.players:
            raise ArgumentError(f"{what} must be a seat index, 0-{self.players - 1} in this game of "
                                f"{self.players} seat{'s' if self.players > 1 else ''} (0 is seat 1), "
                                f"not {_shown(seat)}")
        return index

    def _advance_turn(self, end_turn: bool) -> None:
        """After a move: the turn's next phase, or (after the last, or `end_turn`) the next seat's turn."""
        S = self.state
        if S.frames:  # a seat acted for another (`act`): back to that one, then on from its phase
            seat, phase = S.frames[-1]
            S.set_frames(S.frames[:-1])
            S.set_current(seat, phase)
            end_turn = False
        self._next_phase(end_turn)
        self._skip_optional_phases()

    def _next_phase(self, end_turn: bool) -> None:
        """The turn's next phase (interrupt phases are entered only by `act`), or the next turn."""
        rules, S = self.rules, self.state
        following = S.phase + 1
        while following in rules.interrupt_phases:
            following += 1
        if rules.phases and not end_turn and following < len(rules.phases):
            S.set_current(S.current, following)
            return
        first = rules.first_phase
        if rules.rotation:
            following = S.next_seat
            if following >= 0:  # `turn_to` chose the seat
                S.set_turn_order(-1, S.direction)
            else:
                following = (S.current + S.direction) % self.players
            S.set_current(following, first)
        elif rules.phases:
            S.set_current(S.current, first)

    # -- acting out of turn (`out_of_turn`) ---------------------------------------------------------
    #
    # After each move the seats are asked in turn order, from the one after the seat that moved
    # (that seat last): those that may make a move out of turn now, or, where that could tell
    # a hidden card (`Ruleset.asks_everyone`), every seat. The seat asked has those moves and
    # `pass`; a pass asks the next; any other move ends the asking, the turn goes on where it was
    # (or the seat its `turn_to` names starts a turn), and the seats are asked again after it.
    # A move out of turn made in the seat's own turn is no turn's move either: the turn goes on.

    def _ask_out_of_turn(self, mover: int, after: int) -> None:
        S = self.state
        if after not in self.rules.opens_asking:
            return
        seats = tuple((mover + S.direction * i) % self.players for i in range(1, self.players + 1))
        self._ask(seats, (S.current, S.phase, S.next_seat, (), after))

    def _ask(self, seats: tuple[int, ...], asking: Asking) -> None:
        """Give the move to the first of `seats` to be asked, or, if none is, back to the turn."""
        S = self.state
        resume, phase, chosen, _, after = asking
        for i, seat in enumerate(seats):
            if self.rules.asks_everyone or self._may_act_out_of_turn(seat, asking):
                if S.next_seat >= 0:  # kept aside, so that a `turn_to` of the answer can be told from it
                    S.set_turn_order(-1, S.direction)
                S.set_asking((resume, phase, chosen, seats[i + 1:], after))
                S.set_current(seat, phase)
                return
        if S.asking is not None:
            self._back_to_turn(asking)

    def _back_to_turn(self, asking: Asking) -> None:
        """The asking is over: the turn goes on where it was, with the `turn_to` seat kept aside."""
        S = self.state
        resume, phase, chosen, _, _ = asking
        if S.asking is not None:
            S.set_asking(None)
        S.set_current(resume, phase)
        if chosen >= 0:
            S.set_turn_order(chosen, S.direction)

    def _may_act_out_of_turn(self, seat: int, asking: Asking) -> bool:
        """Has `seat`, if asked now, a move out of turn (other than `pass`)?"""
        S = self.state
        saved = S.current, S.phase, S.asking
        S.current, S.phase, S.asking = seat, asking[1], asking  # a look, not a change: not journaled
        moves: list[Move] = []
        try:
            self._generate(moves)
        finally:
            S.current, S.phase, S.asking = saved
        return any(not self.rules.moves[move.template].declines for move in moves)

    def _answered(self, template: MoveTemplate, asking: Asking, seat: int) -> None:
        S = self.state
        if template.declines:
            self._ask(asking[3], asking)
            return
        if S.next_seat >= 0:  # the move's `turn_to`: that seat's turn starts now
            if S.asking is not None:
                S.set_asking(None)
            S.set_current(S.next_seat, self.rules.first_phase)
            S.set_turn_order(-1, S.direction)
        else:
            self._back_to_turn(asking)
        self._skip_optional_phases()
        if not S.over:
            self._ask_out_of_turn(seat, template.index)

    def _skip_optional_phases(self) -> None:
        """An optional phase that offers the seat no move is passed over (a move owed only sometimes)."""
        rules, S = self.rules, self.state
        if not rules.optional_phases:
            return
        for _ in range(len(rules.phases) * self.players):  # at most one full round of phases
            if S.over or S.phase not in rules.optional_phases:
                return
            moves: list[Move] = []
            self._generate(moves)
            if moves:
                return
            self._next_phase(False)

    @property
    def phase(self) -> str | None:
        """The name of the current phase of the turn (None for rulesets without phases)."""
        return self.rules.phases[self.state.phase] if self.rules.phases else None

    def _cards_key(self) -> tuple[tuple[tuple[int, ...], ...], bytes]:
        """Where every card lies and which way up (the position `end.cycle` compares)."""
        S = self.state
        return tuple(map(tuple, S.piles)), bytes(S.up)

    def _position_key(self) -> Any:
        """The whole position (`end.repeat`): the cards, the variables and who is to act in which phase."""
        S = self.state
        return (*self._cards_key(), tuple(S.vars), S.current, S.phase, S.frames, S.next_seat, S.direction, S.asking)

    def _count_position(self) -> bool:
        """Count the position reached (only for rulesets with `end.repeat`)."""
        if self.rules.repeat is None:
            return False
        key = self._position_key()
        self._seen[key] = self._seen.get(key, 0) + 1
        self._keys.append(key)
        return True

    def _uncount_position(self) -> None:
        key = self._keys.pop()
        self._seen[key] -= 1

    def settle(self) -> None:
        """Finish a move applied with `settle=False`, exactly as `apply` would have (once)."""
        if self._legal is None:
            self._after_change()

    def _after_change(self) -> None:
        """Check the end conditions; a game with no legal move ends as the ruleset says."""
        rules = self.rules
        S = self.state
        self._legal = None
        if self._seat_legal:
            self._seat_legal = {}
        rules.meter.reset()
        if not S.over:
            check = rules.end_check if WRITTEN_OUT else None
            if check is not None:  # the end conditions written out as one function
                first = check(S, self.turn_player)
                if first >= 0:
                    condition = rules.end_conditions[first]
                    S.end(condition.result, condition.reason, condition.winners_of(S, {"player": self.turn_player}))
            else:
                env = {"player": self.turn_player}
                for condition in rules.end_conditions:
                    if condition.test(S, env):
                        S.end(condition.result, condition.reason, condition.winners_of(S, env))
                        break
        repeat = rules.repeat
        if not S.over and repeat is not None and self._keys and self._seen[self._keys[-1]] >= repeat[0]:
            S.end(repeat[1], repeat[2])
        if not S.over and self.max_moves is not None and len(self.history) >= self.max_moves:
            S.end("limit", f"the move limit ({self.max_moves}) was reached")
        if not S.over:
            if self._listed is None and not rules.simultaneous:  # (what `_enumerate` does then)
                legal: list[Move] = []
                rules.meter.reset()
                try:
                    rules.enumerate_all(S, legal, Move, self.lineage)
                except Exception:  # noqa: BLE001 - listed again, to report the failure at its move
                    legal = []
                    self._generate(legal)
                self._legal = legal
            else:
                self._legal = self._enumerate()
            cycle = rules.cycle
            if cycle is not None and (self._cycle is not None or self._cycle_begin is not None or not self.history
                                      or self.history[-1].template in cycle.moves):
                self._track_cycle(cycle, self._legal)  # (after any other move, with no cycle under way, a no-op)
            if not S.over and not self._legal and not any(self.legal_moves(seat) for seat in range(self.players)
                                                          if rules.simultaneous and seat != S.current):
                S.end(*rules.no_moves_result)
        if S.over:
            self._ended()

    def _cycle_start(self, cycle: CycleRule, legal: list[Move]) -> tuple[Any, bool] | None:
        """Where a move of `end.cycle` is about to start a cycle: the position now (its pile lists,
        which are never changed in place, and faces; None if it offers another move, as then the
        cycle can end nothing) and whether it offers another move; None where the cycle's `when`
        does not hold."""
        S = self.state
        if not cycle.counts(S):
            return None
        if cycle.offers_other(legal):
            return None, True
        return (tuple(S.piles), bytes(S.up)), False

    def _track_cycle(self, cycle: CycleRule, legal: list[Move]) -> None:
        """`end.cycle`: follow the positions the cycle's moves go through since any other move (the
        cards and their faces; variables such as a pass count are not part of a position) and end
        the game when one comes back with none of them having offered any other move. Once one
        has, the cycle can end nothing, and its positions are no longer kept."""
        S = self.state
        begin, self._cycle_begin = self._cycle_begin, None
        if not self.history or self.history[-1].template not in cycle.moves:
            if self._cycle is not None:  # another move: the cycle is broken
                self._cycle_stack.append((len(self.history), self._cycle))
                self._cycle = None
            return
        self._cycle_stack.append((len(self.history), self._cycle))  # for undo
        if not cycle.counts(S):
            self._cycle = None  # a cycle lasts while `when` holds
            return
        if self._cycle is not None:
            seen, offered_before = self._cycle
        elif begin is not None:
            start, offered_before = begin
            seen = _NOTHING_KEPT if offered_before else frozenset(((tuple(map(tuple, start[0])), start[1]),))
        else:  # `when` has just come to hold: the cycle begins here
            seen, offered_before = _NOTHING_KEPT, False
        if offered_before:
            self._cycle = (_NOTHING_KEPT, True)
            return
        key = self._cards_key()
        if key in seen:
            self._cycle = (seen, False)
            S.end(cycle.result, cycle.reason)
        elif cycle.offers_other(legal):
            self._cycle = (_NOTHING_KEPT, True)
        else:
            self._cycle = (seen | {key}, False)

    def _restore_cycle(self) -> None:
        """After a move is taken back: the cycle under way as it was before the move."""
        self._cycle_begin = None
        stack = self._cycle_stack
        while stack and stack[-1][0] > len(self.history):
            self._cycle = stack.pop()[1]

    def _ended(self) -> None:
        """The game has just ended: no more moves, and the ruleset's `on_end` effects run once."""
        self._legal, self._seat_legal = [], {}
        env = {"player": self.turn_player}
        self.rules.meter.reset()
        for effect in self.rules.on_end:
            effect(self.state, env)

    def finish(self, outcome: str = "abandoned", reason: str = "the player stopped") -> None:
        """End an unfinished game now (a player quits); the ruleset's `on_end` effects run."""
        if self.state.over:
            return
        S = self.state
        S.marks.append(len(S.journal))
        S.end(outcome, reason)
        self._ended()

    def undo(self, legal: list[Move] | None = None) -> None:
        """Take back the last move (or `finish`). A search that kept the legal moves of the
        position it goes back to passes them as `legal`, so they are not listed again (and
        `apply` finds its next move among them by identity)."""
        S = self.state
        if not S.marks:
            raise IllegalMoveError("there is no move to undo")
        S.undo_to(S.marks.pop())
        self._listed = None
        if self.history and len(self.history) > len(S.marks):
            self.history.pop()
            if self._knowers:
                self._knowers.pop(len(self.history), None)
            if self.rules.repeat is not None:
                self._uncount_position()
        self._restore_cycle()
        self._legal, self._seat_legal = legal, {}

    def clone(self) -> "Game":
        other = Game.__new__(Game)
        other.rules = self.rules
        other.players = self.players
        other.max_moves = self.max_moves
        other.seed = self.seed
        other.state = self.state.copy()
        other.state.lister = _lister_of(other)
        other._listed = None
        other.history = list(self.history)
        other._knowers = dict(self._knowers)
        other.lineage = self.lineage
        other._seen = dict(self._seen)
        other._cycle, other._cycle_begin, other._cycle_stack = self._cycle, self._cycle_begin, list(self._cycle_stack)
        other._keys = list(self._keys)
        other._legal = list(self._legal) if self._legal is not None else None
        other._seat_legal = {}
        other._numbered = None
        other._texts = self._texts
        other.persisted_start = self.persisted_start
        return other

    def determinize(self, seat: int, rng: random.Random) -> "Game":
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
            raise ArgumentError(f"determinize draws on a random.Random (rng), not {_shown(rng)}")
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
            hidden.sort()
            rng.shuffle(hidden)
            piles = {pile: list(S.piles[pile]) for pile, _ in slots}
            for k, ((pile, i), card, face) in enumerate(zip(slots, hidden, faces)):
                piles[pile][i] = card
                S.up[card] = face
                if masks is not None:
                    S.known[card] = masks[k]  # type: ignore[index]
            for pile, cards in piles.items():
                S.piles[pile] = cards
        S.journal = []
        S.marks = []
        S.deck_order = []
        # The shuffles still to come are as unknown to the seat as the hidden cards: a new seed for
        # them from `rng`, and no seed of the real game kept on the copy.
        S.chance = rng.getrandbits(64)
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

    # -- moves as numbers (model/actions.py) --------------------------------------------------------

    @property
    def num_actions(self) -> int:
        """The size of the ruleset's fixed action space: every action number is below it."""
        return self.rules.num_actions

    def action(self, move: Move) -> int:
        """A move's action number (its seat: `move.actor` in a simultaneous game, else the seat to act)."""
        if not isinstance(move, Move):
            raise ArgumentError(_not_a_move(move))
        if move.rules is not self.rules:
            raise ArgumentError(self._foreign(move))
        return self.rules.actions.number(move, move.actor if move.actor >= 0 else self.state.current)

    def legal_actions(self, seat: int | None = None) -> list[int]:
        """The action numbers of `legal_moves(seat)`, in the same order."""
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
        """Apply the legal move whose action number is `action` (see `action_move`)."""
        self.apply(self.action_move(action, seat))

    # -- observations for agents (model/observation.py) --------------------------------------------

    def observation_tensor(self, seat: int | None = None) -> list[float]:
        """What `seat` (default: the seat to act) sees, as a flat list of floats whose length and
        layout are fixed for the ruleset and its options (`rules.observation`: its `size`, `parts`
        and `bounds()`). A card the seat cannot see is counted, never named."""
        return self.rules.observation.encode(self, self._observer(seat))

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
            raise IllegalMoveError(f"parse_move takes a move's text (such as 'draw' or 't3>f1'), not {_shown(text)}")
        wanted = " ".join(text.strip().lower().split())
        for move in self.legal_moves(seat):
            texts = (move.text().lower(), move.text(long=True).lower())
            if wanted in texts or (move.actor >= 0 and self.rules.moves[move.template].named_text
                                   and wanted == texts[0].replace(f"@{move.actor + 1}", "", 1)):
                return move
        raise IllegalMoveError(f"'{printable(text.strip())}' is not a legal move now")

    def explain(self, text: str, seat: int | None = None) -> Explanation:
        """Why `text` is, or is not, a legal move now for the seat to act (or `seat`): an
        `Explanation` (`str()` reads it). Text that names no move gets "did you mean"
        suggestions; a move that exists but is not legal now gets the check that fails, down
        to the part of the ruleset's condition that is false (python/explain.py). It tells no card the
        seat cannot see. Bad arguments raise as `parse_move` does."""
        from .explain import explain

        return explain(self, text, seat)

    # -- results and views ----------------------------------------------------------------

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

    def variable(self, name: str, player: int | None = None) -> Any:
        """A variable's value; for a per-player variable, `player`'s (default: the seat to act)."""
        variable = self.rules.variables.get(name) if isinstance(name, str) else None
        if variable is None:
            raise ArgumentError(unknown("variable", printable(str(name)), self.rules.variables))
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

    def visible(self, card: int, pile: int, player: int | None) -> bool:
        """May `player` see which card `card` (lying on `pile`) is? `None` is a spectator, who
        sees only what every seat sees."""
        return self.rules.sees(self.state, card, pile, player)

    def seers(self, card: int, pile: int) -> frozenset[int | None]:
        """The seats that may see `card` lying on `pile`, and None if a spectator may (then every seat may)."""
        return frozenset(seat for seat in (None, *range(self.players)) if self.visible(card, pile, seat))

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
        variables = {}
        for variable in rules.variables.values():
            if variable.per_player:
                variables[variable.name] = [self.state.vars[variable.slot + p] for p in range(self.players)]
            else:
                variables[variable.name] = self.state.vars[variable.slot]
        view = {"ruleset": rules.name, "player": player, "current_player": self.state.current, "phase": self.phase,
                "zones": zones, "variables": variables, "over": self.state.over, "outcome": self.state.outcome,
                "history": self.record(player),
                "legal_moves": [m.text() for m in self.legal_moves(player)] if player is not None else []}
        if rules.out_of_turn:  # whose turn it is, while a seat is asked to act out of turn
            view["turn_player"] = self.turn_player
        if rules.rotation:  # which way the turns go, and the seat `turn_to` chose for the next (None: in order)
            view["direction"] = self.state.direction
            view["next_seat"] = self.state.next_seat if self.state.next_seat >= 0 else None
        return view
