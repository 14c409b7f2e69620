"""Stage 6: run games. `Game` holds a mutable `State` (python/state.py) over a shared, compiled `Ruleset`.

The API follows the usual agent vocabulary: current player, legal moves, apply,
undo, clone, a view per seat, is over, scores. Piles are lists of card ids that
are never changed in place (a change replaces the list), so a clone copies only
the outer lists and an undo entry keeps the old list. Every change goes through
the `State` methods, which write an undo journal.

`Game` joins the parts of a game, each in its module over `GameCore` (python/game_core.py):
its legal moves (legal_moves.py), the turn order (turns.py), repetitions, cycles and the end
(game_end.py), moves as numbers and text and observations for agents (agent_interface.py),
results, records and views (results.py). Here are the setup and the life of a move: listing
with the generated enumerators, apply, the end conditions, undo and clone, and `explain`, which
report a failing rule where it is written (`runtime_error`) and so stay beside the ruleset's
builder (the import cycle docs/design.md names).
"""

from __future__ import annotations

import hashlib
import random
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..base.errors import IllegalMoveError, SetupError, SourcePos
from ..front.compiler import StepLimitError
from ..model.persisted import value_problem
from ..model.closures import checked_mark, runtime_error
from ..model.rules import Ruleset
from .agent_interface import AgentInterface
from .chance_nodes import ChanceNodes
from .game_core import as_whole, is_whole, move_text, not_a_move, shown_value
from .game_end import GameEnd
from .legal_moves import LegalMoves
from .moves import BLIND, Lineage, Move  # (Move is public here too: cardrules.Move)
from .results import ResultsAndViews
from .state import State
from .turns import TurnOrder

if TYPE_CHECKING:
    from .explanation import Explanation


# Whether a move runs its template's generated apply function and the end conditions their generated
# check (python/applygen.py) where they have them; tests switch it off to compare with the closures.
WRITTEN_OUT = True


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


def _written_at(rules: Ruleset, path: tuple[Any, ...]) -> SourcePos | None:
    """Where a part of the ruleset is written (None for a ruleset not built from a file)."""
    return rules.front_end.doc.pos(path) if rules.front_end is not None else None


def _check_setup(seed: Any, deal: Any, players: Any, persisted: Any, max_moves: Any) -> None:
    """Refuse, with a `SetupError` that says what is expected, arguments a game cannot start from."""
    if seed is not None and not is_whole(seed):
        raise SetupError(f"a seed is a whole number, not {shown_value(seed)}")
    if players is not None and not is_whole(players):
        raise SetupError(f"players is a whole number of seats, not {shown_value(players)}")
    if deal is not None:
        if not isinstance(deal, (str, list, tuple)):
            raise SetupError(f"a deal is a text of card codes or a list of card codes (top of the deck first), "
                             f"not {shown_value(deal)}")
        if not isinstance(deal, str):
            for code in deal:
                if not isinstance(code, str):
                    raise SetupError(f"a deal lists card codes (strings such as 'AS'), not {shown_value(code)}")
    if persisted is not None and not isinstance(persisted, dict):
        raise SetupError(f"persisted values are a dict by variable name, not {shown_value(persisted)}")
    if max_moves is not None and not (is_whole(max_moves) and max_moves >= 0):
        raise SetupError(f"max_moves is a whole number of moves, 0 or more, not {shown_value(max_moves)}")


class Game(LegalMoves, TurnOrder, GameEnd, AgentInterface, ChanceNodes, ResultsAndViews):
    """One game of a ruleset: start it from a seed or an explicit deal, then apply moves."""

    def __init__(self, rules: Ruleset, seed: int | None = None, deal: list[str] | str | None = None,
                 players: int | None = None, persisted: dict[str, Any] | None = None,
                 max_moves: int | None = None, explicit_chance: bool = False) -> None:
        _check_setup(seed, deal, players, persisted, max_moves)
        if not isinstance(explicit_chance, bool):
            raise SetupError(f"explicit_chance is true or false, not {explicit_chance!r}")
        seed, players, max_moves = (as_whole(value) for value in (seed, players, max_moves))  # numpy ints as ints
        self.rules = rules
        rules.meter.reset()  # the setup's steps (limits.MAX_STEPS), as every unit of work below
        self.lineage = Lineage(rules)
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
        # (GameCore, python/game_core.py, declares and describes each attribute.)
        self._listed = None
        self.history = []
        self._knowers = {}
        self._legal = None
        self._seat_legal = {}
        self._numbered = None
        self._texts = {}
        S = self.state
        for variable in rules.variables.values():
            if variable.per_card:  # a mark on every card, alike; none on "no card"
                S.vars[variable.slot:variable.slot + variable.width] = \
                    [checked_mark(variable.initial(S, {"player": 0}), variable.pos)] * len(deck) + [None]
                continue
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
        self.persisted_start = self.persistent_values()  # before setup
        self._chance, self.chance_log = None, {}
        self._seen, self._keys = {}, []  # (set again by `_set_up`: a chance node may come first)
        self._cycle, self._cycle_begin, self._cycle_stack = None, None, []
        if explicit_chance:  # the caller chooses each draw's outcome (python/chance_nodes.py)
            S.outcomes = []
            self._decided((), None, True)
        else:
            self._set_up()

    def _set_up(self) -> None:
        """The setup's effects, the `at_start` triggers, the first turn: the game as dealt."""
        rules, S = self.rules, self.state
        rules.meter.reset()
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
        self._seen = {}  # `end.repeat`
        self._keys = []
        self._cycle = None  # `end.cycle`
        self._cycle_begin = None
        self._cycle_stack = []
        self._count_position()
        self._after_change()

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
        self._offer_pass(out)

    def _offer_pass(self, out: list[Move]) -> None:
        """`turns.no_move: pass`: a seat to act that has no move is offered `pass` alone, if some other
        seat could move were it its turn (from the turn's first phase); if none could, nobody can
        move, nothing is offered, and the game ends as `end.no_moves` says."""
        k = self.rules.stuck_pass
        if k is None or out:
            return
        S, rules = self.state, self.rules
        current, phase = S.current, S.phase
        try:
            for seat in range(self.players):
                if seat == current:
                    continue
                S.current, S.phase = seat, 0  # (put back below: the enumerators read the seat and phase)
                found: list[Move] = []
                try:
                    rules.enumerate_all(S, found, Move, self.lineage)
                except Exception as exc:  # noqa: BLE001 - reported as the listing's own failure
                    raise runtime_error(exc, f"the legal moves of seat {seat + 1} (no_move: pass asks whether "
                                        f"another seat can move)", rules.moves[k].pos) from None
                if found:
                    break
            else:
                return
        finally:
            S.current, S.phase = current, phase
        known = self.lineage.known  # the same Move each time, as listings offer theirs
        move = known.get(("pass", k))
        if move is None:
            move = known[("pass", k)] = Move(self.lineage, k, -1, 0, -1)
        out.append(move)

    def apply(self, move: Move, settle: bool = True) -> None:
        """Apply a legal move; raises `IllegalMoveError` for any other. In a simultaneous game the
        move is made by its seat (`move.actor`), and one that has become illegal is refused.

        `settle=False` is for searches that take most moves back at once: the work that follows a
        move (the end conditions, the move limit, listing the next legal moves to see whether any
        is left) is left out until `settle()`. Until then only `state`, `undo` and `settle` may be
        used; an `end` effect has ended the game already. Not with `end.repeat`.

        The move must come from this game's `legal_moves()` (or from a `clone` or `determinize`d
        copy's); a move of another game, or of another ruleset, is refused.

        Under explicit chance, a move that meets a draw of chance stops there and is taken back:
        the game waits at a chance node for `apply_chance` (python/chance_nodes.py)."""
        if self.state.outcomes is not None:
            self._apply_chosen(move, settle)
        else:
            self._apply(move, settle)

    def _apply(self, move: Move, settle: bool) -> None:
        if not isinstance(move, Move):
            raise IllegalMoveError(not_a_move(move))
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
            raise IllegalMoveError(f"{move_text(move)} is made by seat index {move.actor}, which this game has not")
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
                raise IllegalMoveError(self._malformed(move) or f"{move_text(move)} is not a legal move now")
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
                else:
                    self._offer_pass(legal)
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

    def undo(self, legal: list[Move] | None = None) -> None:
        """Take back the last move (or `finish`). A search that kept the legal moves of the
        position it goes back to passes them as `legal`, so they are not listed again (and
        `apply` finds its next move among them by identity)."""
        S = self.state
        if self._chance is not None and self._chance.move is not None:  # a move waiting for chance: not made
            self._chance = None
            self._legal, self._seat_legal = legal, {}
            return
        if not S.marks:
            raise IllegalMoveError("there is no move to undo")
        S.undo_to(S.marks.pop())
        self._listed = None
        if self.history and len(self.history) > len(S.marks):
            self.history.pop()
            self.chance_log.pop(len(self.history), None)
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
        other._chance, other.chance_log = self._chance, dict(self.chance_log)
        return other

    # -- moves explained (beside `parse_move`, python/agent_interface.py; here as python/explain.py,
    # which it imports, reads the ruleset's builder: the import cycle docs/design.md names) ------

    def explain(self, text: str, seat: int | None = None) -> Explanation:
        """Why `text` is, or is not, a legal move now for the seat to act (or `seat`): an
        `Explanation` (`str()` reads it). Text that names no move gets "did you mean"
        suggestions; a move that exists but is not legal now gets the check that fails, down
        to the part of the ruleset's condition that is false (python/explain.py). It tells no card the
        seat cannot see. Bad arguments raise as `parse_move` does."""
        from .explain import explain

        return explain(self, text, seat)
