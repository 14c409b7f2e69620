"""Stage 5: build an immutable, compiled `Ruleset` from a validated ruleset document.

Resolves the deck, options, variables and zones (every pile gets an integer
index), parses every expression once, type-checks it against the names it can
see, and compiles it to Python. Each move template becomes one generated
enumerator function (loops over sources, taken cards and destinations, with the
`when` conditions hoisted to the outermost loop whose names they use), and every
effect becomes a small closure. Nothing is parsed or tree-walked after this.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence

from ..front.compiler import (BOOL, CARD, CARDS, INT, LIST, PILE, PILES, RUNTIME_GLOBALS, SPANS, Compiled, CompileError, Compiler,
                       Function, InlinedFunctionError, Meter, Scope, Span, failing_part, id_checks, names_in,
                       type_of_value, variable_reads)
from ..front.decks import Deck, load_deck
from ..base.errors import (ArgumentError, ExpressionSyntaxError, RulesetError, RulesetRuntimeError, RulesetWarning, SaveError,
                     SourcePos, did_you_mean, shortened, shortened_path, unknown)
from ..base.limits import (INT_MAX, INT_MIN, MAX_CARDS, MAX_CHECK_NODES, MAX_CHOICES, MAX_PICK_SETS, MAX_OPTION_VALUES, MAX_OPTIONS, MAX_PILES, MAX_RULESET_NODES,
                     MAX_TRIGGER_PASSES)
from ..python.applygen import (ApplyGenerator, AssignEffect, EndEffect, Expr, ForEffect, IfEffect, MoveEffect, TriggerBody,
                       TurnEffect)
from ..base.memo import compile_once
from ..front.parser import Loop, Node, ParseError, parse_expression, parse_loop, parse_signature
from ..base.resources import rulesets_dir
from ..python.movegen import MoveGenerator
from ..front.schema import validate
from ..front.source import Document, FileAccess, PathKey, copy_document, is_file, load_document
from ..front.variants import resolve_extends

if TYPE_CHECKING:  # imported where first used: loading a ruleset (and `validate`) needs neither
    from .actions import ActionSpace
    from .observation import ObservationLayout

Effect = Callable[[Any, dict[str, Any]], None]
Evaluator = Callable[[Any, dict[str, Any]], Any]

# A game ends with the result "limit" after this many moves unless its ruleset says otherwise,
# so no ruleset can make a game (or a bot) run forever.
DEFAULT_MAX_MOVES = 100_000

MOVE_BINDINGS = {"src": ("b_src", PILE), "dst": ("b_dst", PILE), "cards": ("b_cards", CARDS),
                 "card": ("b_card", CARD), "n": ("b_n", INT), "player": ("b_player", INT)}


@dataclass(frozen=True)
class Option:
    name: str
    values: tuple[Any, ...]
    default: Any
    help: str


@dataclass(frozen=True)
class Variable:
    name: str
    slot: int
    per_player: bool
    persist: bool
    label: str
    initial: Evaluator
    show: Evaluator | None
    per_team: bool = False  # one value per team, kept in every seat of the team (`per_team`)


@dataclass(frozen=True)
class Zone:
    name: str
    piles: tuple[int, ...]          # every pile of the zone (of every seat, for a per-player zone)
    single: bool
    short: str
    label: str
    show: str
    visibility: str
    seat_piles: tuple[tuple[int, ...], ...] | None = None  # a per-player zone's piles, seat by seat
    hide_empty: bool = False  # the terminal leaves out empty piles
    empty_first: bool = False  # `empty_piles: first`: moves to an empty pile offered for the first one only

    def piles_for(self, players: int) -> tuple[int, ...]:
        """The piles in use in a game of `players` seats."""
        if self.seat_piles is None:
            return self.piles
        return tuple(p for seat in self.seat_piles[:players] for p in seat)


@dataclass
class MoveTemplate:
    name: str
    index: int
    help: str
    sources: tuple[int, ...]
    targets: tuple[int, ...]
    take: str
    effects: list[Effect]
    enumerate: Callable[..., None] = field(default=lambda *a: None)
    pos: SourcePos | None = None  # where the move is written, for errors while it is enumerated
    # With a per-player zone among `from` (`to`): the piles each acting seat may use.
    seat_sources: tuple[tuple[int, ...], ...] | None = None
    seat_targets: tuple[tuple[int, ...], ...] | None = None
    named_text: bool = False   # text is the bare name (one source pile, at most one target)
    safe: Evaluator | None = None  # when true, the move can never hurt: a solver plays it without trying others
    # Its effects and the triggers that follow it as one generated function (python/applygen.py), or None.
    apply: Callable[..., None] | None = None
    prefixed: bool = False     # text needs the name before the piles (another move shares the zones)
    for_seat: bool = False     # the move chooses a seat (`for_seat`)
    # `choose: {NAME: VALUES}`: the values the move may name, and the name (`Move.seat` is the index).
    choices: tuple[Any, ...] = ()
    choice_name: str = ""
    select_piles: tuple[int, ...] = ()  # `select`: the piles it may choose, in order, and what each gives
    select_take: str = ""
    picks: int = 1  # `take: {any: K}`: the move picks K cards of its source (`Move.pick` a tuple for K > 1)
    out_of_turn: bool = False  # any seat may make it when its conditions hold (`out_of_turn`)
    asked_after: frozenset[int] = frozenset()  # the moves after which the seats are asked to make it
    declines: bool = False     # the `pass` of a seat asked out of turn (made by the engine, not written)
    scope: Any = None          # the names its own expressions see (`python/explain.py` compiles their parts again)
    # The destination index its `when` implies (indexes.IndexKey), or None: every destination is tried.
    index_key: Any = None
    # For each top-level part of its `when` (split on `and`): whether it cannot fail. Such a part is
    # tested in the outermost loop its names allow, even before parts written ahead of it
    # (python/movegen.py; the native backend places the parts alike).
    when_total: tuple[bool, ...] = ()


@dataclass(frozen=True)
class Trigger:
    name: str
    after: frozenset[str] | None
    run: Effect
    at_start: bool = False  # also runs once when a game starts (after `setup` and `on_start`)


@dataclass(frozen=True)
class CycleRule:
    """`end.cycle`: the game ends when the moves of `moves` (template indexes) alone bring the cards
    back to a position they held since any other move, and no position on the way offered any
    other move; only positions where `when` holds count."""

    moves: frozenset[int]
    result: str
    reason: str
    when: Evaluator | None = None

    def counts(self, S: Any) -> bool:
        """Does the position count for a cycle (its `when` holds)?"""
        return self.when is None or bool(self.when(S, {"player": S.current}))

    def offers_other(self, legal: Sequence[Any]) -> bool:
        """Do these legal moves include one that is not a move of the cycle?"""
        return any(move.template not in self.moves for move in legal)


@dataclass(frozen=True)
class EndCondition:
    test: Evaluator
    result: str
    reason: str
    winners: Evaluator | None = None  # the winning seats: a seat or a list of seats
    winners_pos: SourcePos | None = None  # where `winners` is written

    def winners_of(self, S: Any, env: dict[str, Any]) -> tuple[int, ...] | None:
        """The seats `winners` names, each once; a seat the game has not is a run-time error at `winners`."""
        if self.winners is None:
            return None
        seats = self.winners(S, env)
        named = (seats,) if isinstance(seats, int) else tuple(seats)
        for seat in named:
            if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < S.players:
                raise RulesetRuntimeError(f"winners: there is no seat {seat!r} (the seats are 0 to {S.players - 1})",
                                          self.winners_pos)
        return tuple(dict.fromkeys(named))


class Ruleset:
    """A loaded, compiled ruleset with its option values fixed. Start games with `new_game`."""

    def __init__(self) -> None:
        self.name = ""
        self.title = ""
        self.description = ""
        self.path: Path | None = None
        self.deck: Deck
        self.deck_cards: dict[int, tuple[int, ...]] = {}  # number of players -> the card ids in play
        self.options: dict[str, Option] = {}
        self.option_values: dict[str, Any] = {}
        self.min_players = 1
        self.max_players = 1
        self.default_players = 1
        self.variables: dict[str, Variable] = {}
        self.var_count = 0
        self.zones: dict[str, Zone] = {}
        self.pile_count = 0
        self.pile_zone: tuple[str, ...] = ()
        # For each pile, the first pile of its zone (of its seat) if the zone says `empty_piles:
        # first`, else -1.
        self.empty_first: tuple[int, ...] = ()
        # Each pile's covering piles (`covered_by`): while one holds a card, no move takes from the
        # pile or puts onto it. Empty for a pile that nothing covers.
        self.cover: tuple[tuple[int, ...], ...] = ()
        self.pile_index: tuple[int, ...] = ()
        self.pile_names: tuple[str, ...] = ()
        self.pile_long_names: tuple[str, ...] = ()  # with zone names: `tableau3`, `hand@2`
        self.pile_owner: tuple[int, ...] = ()  # the seat a pile belongs to, -1 for shared piles
        self.layout: list[list[str]] = []
        self.setup: list[Effect] = []
        self.moves: list[MoveTemplate] = []
        # What the ruleset writes that the engine does not use, for `cardrules validate` to tell.
        self.warnings: list[RulesetWarning] = []
        self.moves_by_name: dict[str, MoveTemplate] = {}
        self.move_names: tuple[str, ...] = ()  # by template index
        # The variable slots the legal moves depend on (None: any may matter), so that a listing
        # made for `legal_moves()` survives a change of the others (`Game._enumerate`).
        self.listing_reads: frozenset[int] | None = None
        self.enumerate_all: Callable[..., None] = lambda *args: None
        self.known: dict[Any, Any] = {}  # moves listed with this ruleset as their origin (engine.Lineage.known)
        self.triggers: list[Trigger] = []
        self.end_conditions: list[EndCondition] = []
        # The end conditions as one generated function: the first that holds, or -1 (python/applygen.py); or None.
        self.end_check: Callable[[Any, int], int] | None = None
        self.no_moves_result = ("lost", "no move is possible")
        self.max_moves: int = DEFAULT_MAX_MOVES
        self.repeat: tuple[int, str, str] | None = None  # (count, result, reason) of `end.repeat`
        self.cycle: CycleRule | None = None  # `end.cycle`
        self.on_start: list[Effect] = []
        # Where a move or trigger shuffles (`shuffle`): a game with chance after the deal, which
        # the solver refuses. None when nothing shuffles during play.
        self.shuffles_in_play: SourcePos | None = None
        # Whether a seat can know a card it does not see (a card passed from an `owner` zone, or
        # `show`n): the engine then keeps, card by card, who knows it (state.State.known).
        self.tracks_knowledge = False
        self.on_end: list[Effect] = []
        self.score: Evaluator | None = None
        self.label: Evaluator | None = None
        self.heuristic: Evaluator | None = None  # how well a seat stands, for bots (default: the score)
        # How scores (and the heuristic) read: 1 when higher is better, -1 when lower is (`score_order`).
        self.score_sign = 1
        # Partnerships (`teams`): each seat's team, 0-based, by number of players; the teams' names.
        self.team_of: dict[int, tuple[int, ...]] = {}
        self.team_names: tuple[str, ...] = ()
        self.score_pos: SourcePos | None = None  # where the score is written (`score`, or the variable)
        self.rotation = False
        self.simultaneous = False  # every seat may move at any moment (`turns.order: simultaneous`)
        self.phases: tuple[str, ...] = ()  # a turn's phases, in order (`turns.phases`)
        self.optional_phases: frozenset[int] = frozenset()   # skipped when they offer no move
        self.interrupt_phases: frozenset[int] = frozenset()  # entered only through `act`
        self.first_phase = 0  # the phase a turn starts in: the first that is not an interrupt
        # Some move may be made out of turn (`out_of_turn`): after each move the seats are asked,
        # those that may make one, or (where that could tell a hidden card) every seat.
        self.out_of_turn = False
        self.asks_everyone = False
        self.opens_asking: frozenset[int] = frozenset()  # the moves (-1: the deal) after which they are asked
        # Turn by turn, nobody asked out of turn, no `end.repeat`, some template with a generated
        # apply (python/applygen.py): such a template's moves take `Game.apply`'s short way
        # (`Game._apply_written`; without any, looking for it would only cost).
        self.plain_turns = False
        self.generated_source = ""
        self.meter = Meter()  # the steps of one listing, move or end check (limits.MAX_STEPS)
        # sees(state, card, pile, seat): may the seat (None: a spectator) see which card lies there?
        self.sees: Callable[[Any, int, int, int | None], bool] = lambda S, card, pile, seat: True
        self.compiled_nodes = 0  # syntax nodes compiled (functions inlined), for `check_ruleset`'s budget
        # The checked front end (merged document, scope, parser) that built this ruleset, for other
        # backends to lower from (`native/backend.py`); not part of the API.
        self.front_end: Any = None
        # Other backends built for this ruleset, by name (`native.native_backend`'s), or why not.
        self.backends: dict[str, Any] = {}

    @cached_property
    def actions(self) -> ActionSpace:
        """The fixed action numbers of the ruleset's moves (`model/actions.py`), made when first asked for."""
        from .actions import ActionSpace

        return ActionSpace(self)

    @property
    def num_actions(self) -> int:
        """The size of the fixed action space: every move's action number is below it."""
        return self.actions.size

    @cached_property
    def observation(self) -> ObservationLayout:
        """The layout of the ruleset's observation vectors (`model/observation.py`), made when first asked for."""
        from .observation import ObservationLayout

        return ObservationLayout(self)

    def new_game(self, seed: int | None = None, deal: list[str] | str | None = None, players: int | None = None,
                 persisted: dict[str, Any] | None = None, max_moves: int | None = None) -> "Any":
        """Start a game from a seed (shuffled deck) or an explicit deal (card codes, top of the deck first).

        `persisted` gives the values of `persist` variables kept from earlier games; `max_moves`
        overrides the ruleset's move limit (simulations use a lower one).
        """
        from ..python.engine import Game

        return Game(self, seed=seed, deal=deal, players=players, persisted=persisted, max_moves=max_moves)

    def persistent_variables(self) -> list[str]:
        return [v.name for v in self.variables.values() if v.persist]

    def teams(self, players: int) -> list[tuple[str, tuple[int, ...]]]:
        """The teams of a game of `players` seats, team 0 first: each one's name and seats
        (0-based); none without `teams`."""
        team_of = self.team_of.get(players)
        if team_of is None:
            return []
        return [(self.team_names[t], tuple(s for s in range(players) if team_of[s] == t))
                for t in range(max(team_of) + 1)]

    def whole_teams(self, players: int, seats: Sequence[int]) -> list[int]:
        """The winning `seats` with, under `teams`, every other seat of their teams."""
        team_of = self.team_of.get(players)
        if team_of is None:
            return sorted(seats)
        won = {team_of[s] for s in seats}
        return [s for s in range(players) if team_of[s] in won]

    def best_by_score(self, scores: Sequence[int]) -> list[int]:
        """The seats with the best score (the highest, or under `score_order: lower` the lowest).
        Under `teams` a team's seats share a score; seats of one team scoring apart are an error
        at `score`, since which of them would win cannot be said."""
        for name, seats in self.teams(len(scores)):
            if len({scores[s] for s in seats}) > 1:
                listed = ", ".join(f"seat {s + 1} {scores[s]}" for s in seats)
                raise RulesetRuntimeError(f"the seats of a team share a score, and {name}'s differ ({listed}): "
                                          f"keep it in a per_team variable, or add the team's seats up",
                                          self.score_pos)
        best = max(self.score_sign * s for s in scores)
        return [p for p, s in enumerate(scores) if self.score_sign * s == best]


# ---------------------------------------------------------------------------------------------
# Loading


def is_bundled(rules: Ruleset) -> bool:
    """Was the ruleset loaded from its file in the package's rulesets folder (not a copy, nor a
    file that merely declares a bundled ruleset's name)?"""
    return rules.path is not None and rules.path.resolve().parent == rulesets_dir().resolve()


def data_key(rules: Ruleset) -> str:
    """What a ruleset's saved values, saves and statistics are kept under: a bundled ruleset's
    own name, else `NAME (RESOLVED PATH)`. A ruleset name is lower-case letters, digits and
    hyphens, so no other file's key can be a bundled ruleset's, nor another file's."""
    if is_bundled(rules):
        return rules.name
    if rules.path is None:
        raise SaveError(f"{rules.name} was not loaded from a file: it has no place to keep saved data")
    return f"{rules.name} ({rules.path.resolve()})"


def find_ruleset(name_or_path: str | Path) -> Path:
    """A ruleset file: an existing path, or the name of a bundled ruleset."""
    if not isinstance(name_or_path, (str, Path)):
        raise ArgumentError(f"a ruleset is named by a path or a bundled name, not {type(name_or_path).__name__}")
    path = Path(name_or_path)
    if is_file(path):
        return path
    bundled = rulesets_dir() / f"{name_or_path}.yaml"
    if is_file(bundled):
        return bundled
    available = ", ".join(sorted(p.stem for p in rulesets_dir().glob("*.yaml")))
    raise RulesetError(f"no ruleset '{shortened_path(str(name_or_path))}': not a file, nor a bundled ruleset ({available})")


def load_ruleset(name_or_path: str | Path, options: dict[str, Any] | None = None,
                 search_path: tuple[str | Path, ...] = ()) -> Ruleset:
    """Load, validate and compile a ruleset. `options` maps option names to values (or their text).

    The ruleset may name (in `extends:` and `deck:`) files in its own folder tree and the bundled
    rulesets; `search_path` adds folders."""
    path = find_ruleset(name_or_path)
    if options is not None and not isinstance(options, dict):
        raise ArgumentError(f"options are a dict of option names to values, not {type(options).__name__}")
    access = FileAccess.for_ruleset(path, search_path)
    return _Builder(_checked_document(path, access), path, options or {}, access).build()


def _checked_document(path: Path, access: FileAccess) -> Document:
    """The ruleset file at `path` read, its `extends:` merged in and checked against the schema:
    what every load of it builds from, whatever its options."""
    doc = resolve_extends(load_document(path), path, access)
    if not isinstance(doc.data, dict):  # not a ruleset: its text is not shown
        raise RulesetError("a ruleset must be a mapping of sections (ruleset, deck, zones, ...)",
                           SourcePos(doc.path, 1, 1))
    validate(doc, "ruleset")
    return doc


def check_ruleset(name_or_path: str | Path, most: int = 256,
                  search_path: tuple[str | Path, ...] = ()) -> tuple[Ruleset, int]:
    """Load a ruleset under every combination of its option values (the validator's check).

    Options fold into constants when a ruleset compiles, so a branch that the defaults
    leave out is only checked under the options that keep it. Past `most` combinations (or
    past `MAX_CHECK_NODES` compiled in all), each value of each option is tried with the
    others at their defaults. Returns the ruleset with default options and the number of
    combinations checked.
    """
    path = find_ruleset(name_or_path)
    access = FileAccess.for_ruleset(path, search_path)
    # Read, merged and schema-checked once: only the build depends on the options.
    doc = _checked_document(path, access)
    rules = _Builder(copy_document(doc), path, {}, access).build()
    names = list(rules.options)
    combos: list[dict[str, Any]]
    total = 1
    for name in names:
        total *= len(rules.options[name].values)
    cost = max(rules.compiled_nodes, 1)
    if total <= most and total * cost <= MAX_CHECK_NODES:
        combos = [dict(zip(names, values)) for values in itertools.product(*(rules.options[n].values for n in names))]
    else:
        combos = [{name: value} for name in names for value in rules.options[name].values]
        if len(combos) * cost > MAX_CHECK_NODES:
            raise RulesetError(f"the ruleset is too large to check under each of its {len(combos)} option values "
                               f"({cost:,} expression parts each)", SourcePos(str(rules.path), 1, 1))
    for combo in combos:
        try:
            _Builder(copy_document(doc), path, combo, access).build()
        except RulesetError as exc:
            shown = " ".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in combo.items())
            raise type(exc)(f"{exc.message} (with options {shown})", exc.pos) from None
    return rules, len(combos)


def _coerce_option(option: Option, value: Any) -> Any:
    for allowed in option.values:
        if value == allowed and type(value) is type(allowed):
            return allowed
    text = str(value).strip().lower()
    for allowed in option.values:
        if str(allowed).lower() == text:
            return allowed
    choices = ", ".join(str(v).lower() if isinstance(v, bool) else str(v) for v in option.values)
    raise RulesetError(f"option '{option.name}' cannot be {value!r} (choose from: {choices})")


class _Builder:
    def __init__(self, doc: Document, path: Path, chosen: dict[str, Any], access: FileAccess) -> None:
        self.doc = doc
        self.access = access
        self.data: dict[str, Any] = doc.data
        self.path = path
        self.chosen = chosen
        self.rules = Ruleset()
        self.scope = Scope()
        self.globals: dict[str, Any] = dict(RUNTIME_GLOBALS)
        self.globals["charge"] = self.rules.meter.charge
        self.globals["METER"] = self.rules.meter
        self.globals[SPANS] = {}  # what each generated function's failures are reported at (`define`)
        self.node_budget = [MAX_RULESET_NODES]  # shared by every Compiler of this ruleset
        self.sources: list[str] = []
        self._counter = 0
        self.movegen = MoveGenerator(self)
        self.declining: dict[str, Any] | None = None  # the spec of the engine's `pass` (`_out_of_turn`)
        self.asked_after: dict[str, frozenset[int]] = {}  # by move made out of turn: after which moves
        # What python/applygen.py needs to write a move's effects out: by evaluator, effect or trigger closure.
        self.inline: dict[Any, Any] = {}

    # -- errors ---------------------------------------------------------------------------

    def error_at(self, path: PathKey, exc: ParseError | CompileError) -> RulesetError:
        if isinstance(exc, InlinedFunctionError) and exc.function.locate is not None:
            pos = exc.function.locate(exc.offset)
            return RulesetError(f"{exc.message} (in function '{exc.function.name}')", pos)
        kind = ExpressionSyntaxError if isinstance(exc, ParseError) else RulesetError
        return kind(exc.message, self.doc.expr_pos(path, exc.offset))

    def _locator(self, path: PathKey) -> Callable[[int], SourcePos]:
        """Offset inside the expression at `path` -> its position in the file."""
        return lambda offset: self.doc.expr_pos(path, offset)

    def parse(self, path: PathKey) -> Node:
        value = self._value(path)
        if isinstance(value, bool) or isinstance(value, int):
            from ..front.parser import Const

            return Const(0, value)
        try:
            return parse_expression(str(value))
        except ParseError as exc:
            raise self.error_at(path, exc) from None

    def _value(self, path: PathKey) -> Any:
        value: Any = self.data
        for key in path:
            value = value[key]
        return value

    def compile_node(self, node: Node, path: PathKey, scope: Scope, expect: tuple[str, ...] | None = None,
                     hoist: Callable[[Compiled], Compiled] | None = None) -> tuple[Compiled, Compiler]:
        compiler = Compiler(scope, hoist, self.node_budget)
        try:
            return compiler.compile(node, expect), compiler
        except CompileError as exc:
            raise self.error_at(path, exc) from None
        except RecursionError:  # the depth limits should make this unreachable; a clean error if not
            raise RulesetError("the expression is nested too deeply (functions written out)",
                               self.doc.expr_pos(path, node.pos)) from None

    def spans(self, compiler: Compiler, path: PathKey) -> list[Span]:
        """The code that can fail in what `compiler` compiled from the expression at `path`, each
        with where its node is written (in that expression, or in a ruleset function's body)."""
        here = self._locator(path)
        return [(source, node, function.locate if function is not None and function.locate is not None else here)
                for source, node, function in compiler.spans if function is None or function.locate is not None]

    def evaluator(self, path: PathKey, scope: Scope, expect: tuple[str, ...] | None = None,
                  node: Node | None = None) -> Evaluator:
        """Compile the expression at `path` into `fn(state, env)`."""
        node = node if node is not None else self.parse(path)
        compiled, compiler = self.compile_node(node, path, scope, expect)
        if compiled.const:
            value = compiled.value
            constant: Evaluator = lambda S, env: value
            self.inline[constant] = Expr("", [], "", None, True, value)
            return constant
        name = self._fresh("expr")
        prologue = self._prologue(compiled.source, scope, compiler.uses)
        result = compiled.source
        if expect == (INT,) and not result.startswith("want_int("):
            result = f"want_int({result})"  # a number that leaves the game must fit in 64 bits
        source = f"def {name}(S, env):\n{prologue}    return {result}\n"
        where = self.doc.expr_pos(path, node.pos)
        spans = self.spans(compiler, path)
        evaluator = _guarded(self.define(name, source, where, spans), str(self._value(path)), where)
        self.inline[evaluator] = Expr(result, spans, str(self._value(path)), where)
        return evaluator

    def _prologue(self, source: str, scope: Scope, uses: set[str], exclude: str = "") -> str:
        """The first lines of a generated function: the state parts and bindings its body reads."""
        lines = []
        if "P" in uses:
            lines.append("    P = S.piles\n")
        if "U" in uses:
            lines.append("    U = S.up\n")
        if "V" in uses:
            lines.append("    V = S.vars\n")
        for dsl_name, (py_name, _) in scope.bindings.items():
            if py_name != exclude and py_name in names_in(source):
                lines.append(f"    {py_name} = env[{dsl_name!r}]\n")
        return "".join(lines)

    def _fresh(self, prefix: str) -> str:
        self._counter += 1
        return f"_{prefix}_{self._counter}"

    def define(self, name: str, source: str, pos: SourcePos | None = None,
               spans: list[Span] | None = None) -> Callable[..., Any]:
        """Compile and run the generated function `name`; `spans` (its code that can fail) say
        where its run-time errors are reported (`runtime_error`)."""
        self.sources.append(source)
        self.globals[SPANS][name] = (source, spans or [])
        try:
            code = compile_once(source, f"<cardrules {self.rules.name}>")
        except (SyntaxError, RecursionError, MemoryError, ValueError):  # Python's own limits on nesting
            raise RulesetError("the expression is too deeply nested to compile", pos) from None
        exec(code, self.globals)  # generated from the parsed tree only, see front/compiler.py
        return self.globals[name]

    # -- sections -------------------------------------------------------------------------

    def build(self) -> Ruleset:
        rules, data = self.rules, self.data
        rules.name = data["ruleset"]
        rules.title = data.get("title", rules.name)
        rules.description = data.get("description", "")
        rules.path = self.path
        self._options()
        self._players()
        self._deck()
        self._zones()
        self._teams()
        self._declare_variables()
        self._functions()
        self._covers()
        self._variables()
        self._setup()
        self._moves()
        self._triggers()
        self._end()
        self._apply_functions()
        rules.plain_turns = not rules.simultaneous and not rules.out_of_turn and rules.repeat is None \
            and any(template.apply is not None for template in rules.moves)
        rules.generated_source = "\n".join(self.sources)
        rules.compiled_nodes = MAX_RULESET_NODES - self.node_budget[0]
        rules.front_end = self
        if rules.out_of_turn:  # asking only the seats that may act must not tell what they hold
            from .turn_runs import reads_hidden_cards

            rules.asks_everyone = reads_hidden_cards(rules, (t.name for t in rules.moves if t.out_of_turn))
        return rules

    def _deck(self) -> None:
        spec = self.data["deck"]
        name = spec if isinstance(spec, str) else spec["name"]
        where: PathKey = ("deck",) if isinstance(spec, str) else ("deck", "name")
        folder = Path(self.doc.origin(where).path).parent  # the file that names the deck
        candidates = [folder / name, folder / f"{name}.yaml", folder / "decks" / f"{name}.yaml",
                      rulesets_dir() / "decks" / f"{name}.yaml"]
        found = self.access.find(name, candidates, f"deck '{shortened(name)}' not found (looked for it next to the "
                                 f"ruleset, in decks/ and among the bundled decks)", self.doc.pos(where))
        self.rules.deck = load_deck(found)
        rules = self.rules
        copies = spec.get("copies", 1) if isinstance(spec, dict) else 1
        if copies > 1:  # several decks shuffled together, before `where` (which may read `card.copy`)
            if copies * len(rules.deck) > MAX_CARDS:
                raise RulesetError(f"{copies} decks of {len(rules.deck)} cards are more than {MAX_CARDS:,} cards",
                                   self.doc.pos(("deck", "copies")))
            rules.deck = rules.deck.repeated(copies)
        counts = range(rules.min_players, rules.max_players + 1)
        if isinstance(spec, dict) and "where" in spec:
            kept = self._deck_filter(rules.deck)
            used = sorted({i for ids in kept.values() for i in ids})
            renumber = {old: new for new, old in enumerate(used)}
            rules.deck = rules.deck.subset(used)
            rules.deck_cards = {n: tuple(renumber[i] for i in kept[n]) for n in counts}
        else:
            rules.deck_cards = {n: tuple(range(len(rules.deck))) for n in counts}
        deck = rules.deck
        self.globals["CODE"] = deck.codes
        for attr, type_ in deck.attributes.items():
            self.scope.card_attributes[attr] = type_  # "int", "str", "list": the compiler's type names
            self.globals[f"A_{attr}"] = deck.attribute_table(attr)

    def _deck_filter(self, deck: Deck) -> dict[int, list[int]]:
        """The cards `deck.where` keeps, for each number of players the ruleset allows.

        `where` is an expression, or a mapping of named expressions of which any may hold (so that
        variants can each add their cards). It reads card attributes, options and `players`.
        """
        spec = self.data["deck"]["where"]
        paths: list[PathKey] = [("deck", "where", key) for key in spec] if isinstance(spec, dict) \
            else [("deck", "where")]
        scope = Scope(bindings={"card": ("b_card", CARD), "players": ("b_players", INT),
                                "seats": ("range(b_players)", "list")},
                      options=self.scope.options, card_attributes=dict(deck.attributes))
        tables = {f"A_{a}": deck.attribute_table(a) for a in deck.attributes}
        tests = []
        for path in paths:
            compiled, compiler = self.compile_node(self.parse(path), path, scope, (BOOL,))
            if compiler.uses:
                raise RulesetError("deck.where can only read card attributes, options and players",
                                   self.doc.pos(path))
            name = self._fresh("deck_where")
            source = f"def {name}(b_card, b_players):\n    return {compiled.source}\n"
            self.sources.append(source)
            namespace = {**RUNTIME_GLOBALS, **tables, **id_checks(0, len(deck)),
                         SPANS: {name: (source, self.spans(compiler, path))}}
            exec(compile_once(source, "<deck filter>"), namespace)  # generated from the parsed tree only
            tests.append(_guarded_at_load(namespace[name], str(self._value(path)), self.doc.expr_pos(path, 0)))
        kept: dict[int, list[int]] = {}
        for players in range(self.rules.min_players, self.rules.max_players + 1):
            kept[players] = [i for i in range(len(deck)) if any(test(i, players) for test in tests)]
            if not kept[players]:
                raise RulesetError(f"deck.where leaves no card (with {players} players)",
                                   self.doc.pos(("deck", "where")))
        return kept

    def _options(self) -> None:
        rules = self.rules
        specs = self.data.get("options", {})
        if len(specs) > MAX_OPTIONS:
            raise RulesetError(f"more than {MAX_OPTIONS} options", self.doc.pos(("options",)))
        for name, spec in specs.items():
            values = tuple(spec["values"])
            if len(values) > MAX_OPTION_VALUES:
                raise RulesetError(f"option '{name}' has more than {MAX_OPTION_VALUES} values",
                                   self.doc.pos(("options", name, "values")))
            if not any(spec["default"] == v and type(spec["default"]) is type(v) for v in values):
                raise RulesetError(f"default {spec['default']!r} is not one of the values", self.doc.pos(
                    ("options", name, "default")))
            rules.options[name] = Option(name, values, spec["default"], spec.get("help", ""))
        for name, value in self.chosen.items():
            if name not in rules.options:
                known = ", ".join(sorted(rules.options)) or "none"
                raise RulesetError(f"{rules.name} has no option '{name}' ({did_you_mean(name, rules.options)}"
                                   f"options: {known})")
        for name, option in rules.options.items():
            rules.option_values[name] = _coerce_option(option, self.chosen[name]) if name in self.chosen \
                else option.default
        self.scope.options = dict(rules.option_values)

    def _players(self) -> None:
        spec = self.data.get("players", 1)
        rules = self.rules
        if isinstance(spec, int):
            rules.min_players = rules.max_players = rules.default_players = spec
        else:
            rules.min_players, rules.max_players = spec["min"], spec["max"]
            rules.default_players = spec.get("default", spec["min"])
            if rules.min_players > rules.max_players:
                raise RulesetError("players: min is more than max", self.doc.pos(("players", "min")))
            if not rules.min_players <= rules.default_players <= rules.max_players:
                raise RulesetError("players: default must lie between min and max", self.doc.pos(("players",)))
        turns = self.data.get("turns", {})
        order = turns.get("order", "solo" if rules.max_players == 1 else "rotation")
        rules.rotation = order == "rotation"
        rules.simultaneous = order == "simultaneous"
        if rules.simultaneous and turns.get("phases"):
            raise RulesetError("a simultaneous game has no turns to divide into phases", self.doc.pos(("turns", "phases")))
        phase_specs = [p if isinstance(p, dict) else {"name": p} for p in turns.get("phases", ())]
        rules.phases = tuple(p["name"] for p in phase_specs)
        rules.optional_phases = frozenset(i for i, p in enumerate(phase_specs) if p.get("optional", False))
        rules.interrupt_phases = frozenset(i for i, p in enumerate(phase_specs) if p.get("interrupt", False))
        if len(set(rules.phases)) != len(rules.phases):
            raise RulesetError("turns.phases: each phase once", self.doc.pos(("turns", "phases")))
        if rules.phases and len(rules.interrupt_phases) == len(rules.phases):
            raise RulesetError("turns.phases: a turn needs a phase that is not an interrupt",
                               self.doc.pos(("turns", "phases")))
        rules.first_phase = min(set(range(len(rules.phases))) - rules.interrupt_phases, default=0)
        # `players` in expressions: the number of seats in this game; `seats`: their numbers, 0-based.
        self.globals["SEAT_LISTS"] = tuple(tuple(range(n)) for n in range(rules.max_players + 1))
        self.scope.bindings["players"] = ("S.players", INT)
        self.scope.bindings["seats"] = ("SEAT_LISTS[S.players]", "list")
        if rules.rotation:  # `direction`: 1 while the turns go up the seats, -1 once `reverse`d
            self.scope.bindings["direction"] = ("S.direction", INT)
        if rules.phases:
            self.globals["PHASE_NAMES"] = rules.phases
            # `phase` in expressions: the name of the turn's current phase.
            self.scope.bindings["phase"] = ("PHASE_NAMES[S.phase]", "str")

    def _zones(self) -> None:
        rules = self.rules
        index = 0
        zone_of: list[str] = []
        index_in: list[int] = []
        names: list[str] = []
        long_names: list[str] = []
        shorts: dict[str, str] = {}
        owners: list[int] = []
        empty_first: list[int] = []
        for name, spec in self.data["zones"].items():
            count = spec.get("count", 1)
            per_player = spec.get("per_player", False)
            seats = rules.max_players if per_player else 1
            seat_piles = tuple(tuple(range(index + s * count, index + (s + 1) * count)) for s in range(seats))
            piles = tuple(p for group in seat_piles for p in group)
            index += count * seats
            short = spec.get("short", name)
            for taken in (short, name):
                if taken in shorts and shorts[taken] != name:
                    raise RulesetError(f"zone name '{taken}' is already used by zone '{shorts[taken]}'",
                                       self.doc.pos(("zones", name)))
            shorts[short] = shorts[name] = name
            single = "count" not in spec
            labels = spec.get("labels") or [str(i + 1) for i in range(count)]
            if len(labels) != count or len(set(labels)) != count:
                raise RulesetError(f"labels: one different label for each of the {count} piles",
                                   self.doc.pos(("zones", name, "labels")))
            rules.zones[name] = Zone(name, piles, single, short, spec.get("label", name.replace("_", " ")),
                                     spec.get("show", "stack"), spec.get("visibility", "faces"),
                                     seat_piles if per_player else None, spec.get("hide_empty", False),
                                     spec.get("empty_piles", "each") == "first")
            if index > MAX_PILES:
                raise RulesetError(f"the zones have more than {MAX_PILES:,} piles in all (every seat's counted)",
                                   self.doc.pos(("zones", name)))
            for seat in range(seats):
                for i in range(count):
                    # the first pile of this seat's piles of the zone: an empty pile after an empty one
                    # of them is never offered as a destination (`empty_piles: first`)
                    empty_first.append(seat_piles[seat][0] if rules.zones[name].empty_first else -1)
                    zone_of.append(name)
                    index_in.append(i)
                    owners.append(seat if per_player else -1)
                    # A seat's pile is named with `@` and the seat's number: `h@2`, `w3@2`.
                    names.append((short if single else f"{short}{labels[i]}") + (f"@{seat + 1}" if per_player else ""))
                    long_names.append((name if single else f"{name}{labels[i]}") + (f"@{seat + 1}" if per_player else ""))
            if per_player:
                self.globals[f"SEATS_{name}"] = tuple(group[0] if single else group for group in seat_piles)
            self.scope.zones[name] = (piles, single, per_player)
        seen: dict[str, str] = {}
        for name, zone in zip(names, zone_of):
            if name in seen and seen[name] != zone or name in self.data["zones"] and name != zone:
                raise RulesetError(f"pile name '{name}' is used by zones '{seen.get(name, name)}' and '{zone}'; "
                                   f"give one a different 'short' name", self.doc.pos(("zones", zone)))
            seen[name] = zone
        rules.pile_count = index
        rules.pile_zone = tuple(zone_of)
        rules.empty_first = tuple(empty_first)
        self.globals["EMPTY_FIRST"] = rules.empty_first
        rules.pile_index = tuple(index_in)
        rules.pile_names = tuple(names)
        rules.pile_long_names = tuple(long_names)
        rules.pile_owner = tuple(owners)
        self.globals["PILE_ZONE"] = rules.pile_zone
        self.globals["PILE_INDEX"] = rules.pile_index
        self.globals["PILE_OWNER"] = rules.pile_owner
        self.globals.update(id_checks(rules.pile_count, len(rules.deck)))
        rules.sees = self.globals["SEES"] = _seeing(tuple(rules.zones[z].visibility for z in zone_of), rules.pile_owner)
        rules.tracks_knowledge = any(zone.visibility == "owner" for zone in rules.zones.values())
        layout = self.data.get("layout") or [[z] for z in rules.zones]
        for r, row in enumerate(layout):
            for c, zone in enumerate(row):
                if zone not in rules.zones:
                    raise RulesetError(unknown("zone", zone, rules.zones), self.doc.pos(("layout", r, c)))
        rules.layout = [list(row) for row in layout]

    def _teams(self) -> None:
        """`teams`: each seat's team, worked out at load for every number of players the ruleset
        allows, from an expression of `player`, `players` and options; that expression is also the
        function `team(seat)`. `MATES[players][seat]`: the seats of that seat's team."""
        spec = self.data.get("teams")
        rules = self.rules
        if spec is None:
            return
        path: PathKey = ("teams", "of")
        node = self.parse(path)
        scope = Scope(bindings={"player": ("b_player", INT), "players": ("b_players", INT)},
                      options=self.scope.options)
        team_of, _ = self._load_time_function(path, node, scope, (INT,), "team_of")  # no state in its scope
        names = spec.get("names")
        mates: list[tuple[tuple[int, ...], ...]] = [()] * (rules.max_players + 1)
        for players in range(rules.min_players, rules.max_players + 1):
            teams = tuple(team_of(seat, players) for seat in range(players))
            count = max(teams) + 1
            if min(teams) < 0 or set(teams) != set(range(count)):
                raise RulesetError(f"with {players} players the seats' teams are {list(teams)}: each team is "
                                   f"numbered from 0 up, with no number left out", self.doc.pos(path))
            if names is not None and len(names) < count:
                raise RulesetError(f"with {players} players there are {count} teams, and {len(names)} names",
                                   self.doc.pos(("teams", "names")))
            rules.team_of[players] = teams
            mates[players] = tuple(tuple(s for s in range(players) if teams[s] == teams[seat])
                                   for seat in range(players))
        most = max(max(t) for t in rules.team_of.values()) + 1
        rules.team_names = tuple(names) if names is not None else tuple(f"Team {t + 1}" for t in range(most))
        self.globals["MATES"] = tuple(mates)
        # `team(seat)` in expressions: the `of` expression with `player` that seat.
        self.scope.functions["team"] = Function("team", ("player",), node, self._locator(path))

    def _load_time_function(self, path: PathKey, node: Node, scope: Scope, types: tuple[str, ...],
                            prefix: str) -> tuple[Callable[..., Any], Compiler]:
        """An expression worked out at load (`teams.of`, `covered_by`) as a function of the scope's
        number bindings, in their order; its failures are reported at the expression."""
        compiled, compiler = self.compile_node(node, path, scope, types)
        name = self._fresh(prefix)
        params = ", ".join(binding for binding, _ in scope.bindings.values())
        source = f"def {name}({params}):\n    return {compiled.source}\n"
        function = self.define(name, source, self.doc.pos(path), self.spans(compiler, path))
        return _guarded_at_load(function, str(self._value(path)), self.doc.expr_pos(path, 0)), compiler

    def _covers(self) -> None:
        """`covered_by`: the piles lying on each pile of a zone, worked out at load from an
        expression of `i`, options and functions (which may not read the game's state). The
        covering may not go round (a pile lying, through others, on itself)."""
        rules = self.rules
        cover: list[tuple[int, ...]] = [()] * rules.pile_count
        scope = Scope(bindings={"i": ("b_i", INT)}, variables=self.scope.variables, zones=self.scope.zones,
                      options=self.scope.options, functions=self.scope.functions)
        for name, spec in self.data["zones"].items():
            if "covered_by" not in spec:
                continue
            path: PathKey = ("zones", name, "covered_by")
            covering, compiler = self._load_time_function(path, self.parse(path), scope, (LIST,), "covered_by")
            if compiler.uses:
                raise RulesetError("covered_by reads only i, options and functions of them: which piles lie on "
                                   "which is fixed", self.doc.pos(path))
            zone = rules.zones[name]
            count = len(zone.seat_piles[0]) if zone.seat_piles is not None else len(zone.piles)
            groups = zone.seat_piles if zone.seat_piles is not None else (zone.piles,)
            for i in range(count):
                on = covering(i)
                if not isinstance(on, (list, tuple)) or not all(isinstance(j, int) and not isinstance(j, bool)
                                                                and 0 <= j < count and j != i for j in on):
                    raise RulesetError(f"covered_by gives pile {i} {list(on) if isinstance(on, tuple) else on!r}: a list of other piles' indexes, 0 to "
                                       f"{count - 1}", self.doc.pos(path))
                for group in groups:
                    cover[group[i]] = tuple(group[j] for j in dict.fromkeys(on))
            _check_not_round(cover, zone.piles, rules.pile_names, self.doc.pos(path))
        rules.cover = tuple(cover)
        self.globals["COVER"] = rules.cover

    def _declare_variables(self) -> None:
        """Give every variable its slot, so expressions (functions included) can name it."""
        rules = self.rules
        slot = 0
        specs = self.data.get("variables", {})
        players = rules.max_players
        for name, spec in specs.items():
            if name in self.scope.zones:
                raise RulesetError(f"variable '{name}' has the name of a zone", self.doc.pos(("variables", name)))
            initial = spec["initial"]
            type_ = BOOL if isinstance(initial, bool) else INT if isinstance(initial, int) else "any"
            per_player = spec.get("per_player", False) or spec.get("per_team", False)  # kept per seat
            if spec.get("per_team", False) and "teams" not in self.data:
                raise RulesetError("a per_team variable needs teams: say which seats play together",
                                   self.doc.pos(("variables", name, "per_team"), key=True))
            if spec.get("per_team", False) and spec.get("per_player", False):
                raise RulesetError("a variable is per_player or per_team, not both",
                                   self.doc.pos(("variables", name, "per_team"), key=True))
            self.scope.variables[name] = (slot, type_, per_player)
            slot += players if per_player else 1
        rules.var_count = slot

    def _variables(self) -> None:
        """Compile each variable's initial value (from options only) and its `show` condition."""
        rules = self.rules
        specs = self.data.get("variables", {})
        init_scope = Scope(bindings={"player": ("b_player", INT), "players": self.scope.bindings["players"],
                                     "seats": self.scope.bindings["seats"]}, zones=self.scope.zones,
                           options=self.scope.options, card_attributes=self.scope.card_attributes,
                           functions=self.scope.functions)
        for name, spec in specs.items():
            path = ("variables", name)
            if spec.get("persist", False):  # kept in the store, which holds numbers and truth values only
                compiled, _ = self.compile_node(self.parse(path + ("initial",)), path + ("initial",), init_scope)
                if compiled.type not in (INT, BOOL):
                    raise RulesetError("a `persist` variable starts as a number or a truth value (the store keeps "
                                       "nothing else)", self.doc.pos(path + ("initial",)))
            initial = self.evaluator(path + ("initial",), init_scope)
            show = self.evaluator(path + ("show",), self.scope.with_bindings({"player": ("b_player", INT)}), (BOOL,)) \
                if "show" in spec else None
            rules.variables[name] = Variable(name, self.scope.variables[name][0], self.scope.variables[name][2],
                                             spec.get("persist", False), spec.get("label", name.replace("_", " ")),
                                             initial, show, spec.get("per_team", False))

    def _functions(self) -> None:
        for key, body_text in self.data.get("functions", {}).items():
            try:
                signature = parse_signature(str(key))
            except ParseError as exc:
                raise RulesetError(f"a function is written name(param, ...): {exc.message}",
                                   self.doc.pos(("functions", key), key=True)) from None
            path = ("functions", key)
            body = self.parse(path)
            if signature.name == "team" and "teams" in self.data:
                raise RulesetError("team(seat) is given by teams.of: name this function otherwise",
                                   self.doc.pos(path, key=True))
            if signature.name in self.scope.functions:
                raise RulesetError(f"function '{signature.name}' is defined twice", self.doc.pos(path, key=True))
            self.scope.functions[signature.name] = Function(
                signature.name, signature.params, body, self._locator(path))
        # Check each body once with untyped parameters, so errors show even in unused functions.
        for function in self.scope.functions.values():
            if function.name == "team" and "teams" in self.data:
                continue  # checked as teams.of
            bindings = {"player": ("b_player", INT)}
            bindings.update({p: (f"p_{p}", "any") for p in function.params})
            path = next(("functions", k) for k in self.data["functions"]
                        if parse_signature(str(k)).name == function.name)
            self.compile_node(function.body, path, self.scope.with_bindings(bindings))

    # -- effects --------------------------------------------------------------------------

    def effects(self, path: PathKey, scope: Scope, setup: bool = False) -> list[Effect]:
        return [self.effect(path + (i,), scope, setup) for i in range(len(self._value(path)))]

    def effect(self, path: PathKey, scope: Scope, setup: bool) -> Effect:
        spec = self._value(path)
        if spec == "move" or (isinstance(spec, dict) and "move" in spec):
            options = {} if spec == "move" else spec["move"]
            return self._move_effect(path + ("move",), options, scope)
        kind = spec if isinstance(spec, str) else next(iter(spec)) if "if" not in spec else "if"
        if kind in ("turn_up", "turn_down"):
            card = self.evaluator(path + (kind,), scope, (CARD,))
            face = kind == "turn_up"

            def turn(S: Any, env: dict[str, Any]) -> None:
                c = card(S, env)
                if c is not None:
                    S.turn(c, face)
            if card in self.inline:
                self.inline[turn] = TurnEffect(self.inline[card], face)
            return turn
        if kind in ("set", "add"):
            steps = []
            for var, _ in spec[kind].items():
                if var not in self.rules.variables and var not in self.scope.variables:
                    raise RulesetError(unknown("variable", var, self.scope.variables),
                                       self.doc.pos(path + (kind, var), key=True))
                slot, type_, per_player = self.scope.variables[var]
                if kind == "add" and type_ not in (INT, "any"):
                    raise RulesetError(f"'add' needs a number variable; '{var}' holds a truth value",
                                       self.doc.pos(path + (kind, var), key=True))
                expect = (INT,) if kind == "add" or type_ == INT else (BOOL,) if type_ == BOOL else None
                # whose value: 0 the game's, 1 the seat's in `player`, 2 every seat's of its team
                per = 2 if self.rules.variables[var].per_team else 1 if per_player else 0
                steps.append((slot, per, self.evaluator(path + (kind, var), scope, expect),
                              self.doc.pos(path + (kind, var))))
            adding = kind == "add"
            mates = self.globals.get("MATES", ())

            def assign(S: Any, env: dict[str, Any]) -> None:
                values = [(slot, per, fn(S, env), pos) for slot, per, fn, pos in steps]
                for slot, per, value, pos in values:
                    if per == 2:  # the team's value, in each of its seats
                        targets = [slot + mate for mate in mates[S.players][env["player"]]]
                    else:
                        targets = [slot + env["player"] if per else slot]
                    for target in targets:
                        assign_one(S, target, value, pos)

            def assign_one(S: Any, slot: int, value: Any, pos: SourcePos | None) -> None:
                if adding:
                    old = S.vars[slot]
                    if not isinstance(old, int) or isinstance(old, bool):
                        raise RulesetRuntimeError(f"cannot add {value!r} to {old!r}", pos)
                    value = old + value
                if isinstance(value, int) and not isinstance(value, bool) and not INT_MIN <= value <= INT_MAX:
                    raise RulesetRuntimeError(f"the value {'of the sum ' if adding else ''}is outside the 64-bit "
                                              f"range ({INT_MIN} to {INT_MAX})", pos)
                S.set_var(slot, value)
            if all(fn in self.inline for _, _, fn, _ in steps):
                self.inline[assign] = AssignEffect(adding, tuple((slot, per, self.inline[fn], pos)
                                                                 for slot, per, fn, pos in steps))
            return assign
        if kind == "if":
            test = self.evaluator(path + ("if",), scope, (BOOL,))
            then = self.effects(path + ("then",), scope, setup)
            otherwise = self.effects(path + ("else",), scope, setup) if "else" in spec else []

            def branch(S: Any, env: dict[str, Any]) -> None:
                for eff in (then if test(S, env) else otherwise):
                    eff(S, env)
            if test in self.inline:
                self.inline[branch] = IfEffect(self.inline[test], tuple(then), tuple(otherwise))
            return branch
        if kind == "for":
            loop, inner_scope, var_names = self._loop(path + ("for",), scope)
            items = self.evaluator(path + ("for",), scope, (PILES, CARDS, "list"), node=loop.iterable)
            body = self.effects(path + ("do",), inner_scope, setup)

            charge = self.rules.meter.charge

            # A loop binding `player` reads and changes each item's per-player variables and zones:
            # each must be a seat of the game. (`player` is always bound where a loop can be, so such a
            # loop is never written out by applygen: this closure runs it.)
            seat_at = self.doc.pos(path + ("for",)) if var_names[0] == "player" else None

            def for_each(S: Any, env: dict[str, Any]) -> None:
                for item in charge(list(items(S, env))):
                    if seat_at is not None and not (type(item) is int and 0 <= item < S.players):
                        raise RulesetRuntimeError(f"for: there is no seat {item!r} to be the player", seat_at)
                    inner = dict(env)
                    inner[var_names[0]] = item
                    for eff in body:
                        eff(S, inner)
            if items in self.inline:
                self.inline[for_each] = ForEffect(inner_scope.bindings[var_names[0]][0], self.inline[items], tuple(body))
            return for_each
        if kind == "move_chosen":
            if "chosen" not in scope.bindings:
                raise RulesetError("move_chosen needs a move with 'select'", self.doc.pos(path))
            options = spec["move_chosen"] or {}
            target = self.evaluator(path + ("move_chosen", "to"), scope, (PILE,)) if "to" in options else None
            chosen_face = {"up": True, "down": False}.get(options.get("face", ""), None)

            def move_chosen(S: Any, env: dict[str, Any]) -> None:
                to = target(S, env) if target is not None else env["dst"]
                for pile, count in env["selection"]:
                    S.move_cards(pile, to, count, False, chosen_face)
            return move_chosen
        if kind == "act":
            seat_of = self.evaluator(path + ("act", "seat"), scope, (INT,))
            phases = self.rules.phases
            phase_name = spec["act"].get("phase")
            if phase_name is not None and phase_name not in phases:
                raise RulesetError(unknown("phase", phase_name, phases) if phases else "'phase' needs turns.phases",
                                   self.doc.pos(path + ("act", "phase")))
            phase_index = phases.index(phase_name) if phase_name is not None else 0

            seat_at = self.doc.pos(path + ("act", "seat"))

            def act(S: Any, env: dict[str, Any]) -> None:
                seat = _a_seat_of(S, seat_of(S, env), "act", seat_at)
                S.set_frames(S.frames + ((S.current, S.phase),))
                S.set_current(seat, phase_index)
                env["acted"] = True  # the turn is handed over; it comes back after that seat's move
            return act
        if kind in ("turn_to", "reverse") and not self.rules.rotation:
            raise RulesetError(f"{kind} needs turns that rotate (turns.order: rotation)", self.doc.pos(path))
        if kind == "turn_to":
            seat_to, to_at = self.evaluator(path + ("turn_to",), scope, (INT,)), self.doc.pos(path + ("turn_to",))

            def turn_to(S: Any, env: dict[str, Any]) -> None:
                S.set_turn_order(_a_seat_of(S, seat_to(S, env), "turn_to", to_at), S.direction)
            return turn_to
        if kind == "reverse":
            return lambda S, env: S.set_turn_order(S.next_seat, -S.direction)
        if kind == "end_turn":
            def end_turn(S: Any, env: dict[str, Any]) -> None:
                env["end_turn"] = True  # the turn passes on after this move, skipping later phases
            return end_turn
        if kind == "end":
            result, reason = spec["end"]["result"], spec["end"].get("reason", "")
            ending: Effect = lambda S, env: S.end(result, reason)
            self.inline[ending] = EndEffect(result, reason)
            return ending
        if kind == "take_deck":
            if not setup:
                raise RulesetError("take_deck is only allowed in setup", self.doc.pos(path))
            pile = self.evaluator(path + ("take_deck",), scope, (PILE,))
            return lambda S, env: S.place_deck(pile(S, env))
        if kind == "deal":
            return self._deal_effect(path + ("deal",), scope)
        if kind == "show":
            return self._show_effect(path + ("show",), scope)
        if kind == "shuffle":
            pile = self.evaluator(path + ("shuffle",), scope, (PILE,))
            if path[0] in ("moves", "triggers") and self.rules.shuffles_in_play is None:
                self.rules.shuffles_in_play = self.doc.pos(path)
            charge = self.rules.meter.charge

            def shuffle(S: Any, env: dict[str, Any]) -> None:
                shuffled = pile(S, env)
                charge(S.piles[shuffled])  # a step a card, as a loop over the pile
                S.shuffle(shuffled)
            return shuffle
        raise RulesetError(f"unknown effect '{kind}'", self.doc.pos(path))  # pragma: no cover - schema catches

    def _show_effect(self, path: PathKey, scope: Scope) -> Effect:
        """`show: {card | pile, to}`: the seat `to` learns a card, or every card of a pile, as it lies."""
        spec = self._value(path)
        if ("card" in spec) == ("pile" in spec):
            raise RulesetError("show takes 'card' (one card) or 'pile' (every card of a pile), one of them",
                               self.doc.pos(path))
        one = self.evaluator(path + ("card",), scope, (CARD,)) if "card" in spec else None
        pile = self.evaluator(path + ("pile",), scope, (PILE,)) if "pile" in spec else None
        seat_of, at = self.evaluator(path + ("to",), scope, (INT,)), self.doc.pos(path + ("to",))
        self.rules.tracks_knowledge = True
        charge = self.rules.meter.charge

        def show(S: Any, env: dict[str, Any]) -> None:
            seat = _a_seat_of(S, seat_of(S, env), "show", at)
            shown = list(S.piles[pile(S, env)]) if pile is not None else [one(S, env)]  # type: ignore[misc]
            for card in charge(shown):
                if card is not None:  # the top of an empty pile: nothing to show
                    S.set_known(card, S.known[card] | 1 << seat)
        return show

    def _loop(self, path: PathKey, scope: Scope) -> tuple[Loop, Scope, tuple[str, ...]]:
        try:
            loop = parse_loop(str(self._value(path)))
        except ParseError as exc:
            raise self.error_at(path, exc) from None
        if len(loop.names) != 1:
            raise RulesetError("a for loop takes one name: \"p in tableau\"", self.doc.pos(path))
        compiled, _ = self.compile_node(loop.iterable, path, scope, (PILES, CARDS, "list"))
        element = {PILES: PILE, CARDS: CARD}.get(compiled.type, "any")
        name = loop.names[0]
        return loop, scope.with_bindings({name: (f"b_{name}", element)}), loop.names

    def _move_effect(self, path: PathKey, options: dict[str, Any], scope: Scope) -> Effect:
        src = self.evaluator(path + ("from",), scope, (PILE,)) if "from" in options else None
        dst = self.evaluator(path + ("to",), scope, (PILE,)) if "to" in options else None
        count = self.evaluator(path + ("count",), scope, (INT,)) if "count" in options else None
        one = self.evaluator(path + ("card",), scope, (CARD,)) if "card" in options else None
        if src is None and "src" not in scope.bindings or dst is None and "dst" not in scope.bindings:
            raise RulesetError("this move effect needs 'from' and 'to' (there is no chosen source or destination here)",
                               self.doc.pos(path))
        if one is not None and count is not None:
            raise RulesetError("a move effect takes 'card' or 'count', not both", self.doc.pos(path + ("card",)))
        flip = options.get("flip", False)
        face = {"up": True, "down": False}.get(options.get("face", ""), None)
        bottom = options.get("place", "top") == "bottom"
        anywhere = options.get("place") == "random"
        if anywhere and path[0] in ("moves", "triggers") and self.rules.shuffles_in_play is None:
            self.rules.shuffles_in_play = self.doc.pos(path + ("place",))
        charge = self.rules.meter.charge

        def move(S: Any, env: dict[str, Any]) -> None:
            source = src(S, env) if src is not None else env["src"]
            target = dst(S, env) if dst is not None else env["dst"]
            if one is not None:  # one given card: bring it to the top of its pile, then move it
                card = one(S, env)
                pile = S.piles[source]
                if card not in pile:
                    raise RulesetRuntimeError(f"the card {self.rules.deck.codes[card] if card is not None else 'none'}"
                                              f" is not on {self.rules.pile_names[source]}", self.doc.pos(path + ("card",)))
                S.lift(source, len(pile) - pile.index(card))
                n = 1
            elif count is not None:
                n = count(S, env)
            elif src is None:
                n = env["n"]
                if env.get("pick") is not None:  # `take: any`: bring the chosen cards to the top first
                    S.bring_up(source, env["pick"])
            else:
                n = len(S.piles[source])
            if anywhere:
                n = min(n, len(S.piles[source]))  # the cards that move, to be buried together
            S.move_cards(source, target, n, flip, face, bottom)
            if anywhere and n > 0:
                charge(S.piles[target])  # a step a card of the pile, as a shuffle
                S.bury(target, n)
        if one is None and not anywhere and all(fn is None or fn in self.inline for fn in (src, dst, count)):
            parts = [self.inline[fn] if fn is not None else None for fn in (src, dst, count)]
            self.inline[move] = MoveEffect(parts[0], parts[1], parts[2], flip, face, bottom)
        return move

    def _deal_effect(self, path: PathKey, scope: Scope) -> Effect:
        spec = self._value(path)
        src = self.evaluator(path + ("from",), scope, (PILE,))
        zone = spec["to"]
        if zone not in self.rules.zones:
            raise RulesetError(unknown("zone", zone, self.rules.zones), self.doc.pos(path + ("to",)))
        target_zone = self.rules.zones[zone]
        counts = self.evaluator(path + ("counts",), scope.with_bindings({"i": ("b_i", INT)}), (INT,))
        face = spec.get("face", "down") == "up"
        only = self.evaluator(path + ("where",), scope.with_bindings({"card": ("b_card", CARD), "dst": ("b_dst", PILE)}),
                              (BOOL,)) if "where" in spec else None

        charge = self.rules.meter.charge

        def next_card(S: Any, env: dict[str, Any], source: int, target: int) -> int:
            """How deep in the source pile the next card for `target` lies (1 is the top)."""
            pile = S.piles[source]
            for depth in range(1, len(pile) + 1):
                if only is None or only(S, {**env, "card": pile[-depth], "dst": target}):
                    charge(range(depth))  # the cards looked at are steps (a deal may run in every move)
                    return depth
            raise RulesetRuntimeError("the deal ran out of cards" + (" that match 'where'" if only else ""),
                                      self.doc.pos(path))

        def deal(S: Any, env: dict[str, Any]) -> None:
            piles = target_zone.piles_for(S.players)  # a per-player zone: the seats in this game
            wanted = []
            for i, _ in enumerate(piles):
                inner = dict(env)
                inner["i"] = i
                wanted.append(counts(S, inner))
            row = 0
            while any(w > row for w in wanted):
                for pile, w in zip(piles, wanted):
                    if w > row:
                        source = src(S, env)
                        depth = next_card(S, env, source, pile)
                        if depth > 1:  # bring the matching card to the top, keeping the others' order
                            S.lift(source, depth)
                        S.move_cards(source, pile, 1, False, face)
                row += 1
        return deal

    def _setup(self) -> None:
        scope = self.scope.with_bindings({"player": ("b_player", INT)})
        self.rules.setup = self.effects(("setup",), scope, setup=True)
        if "on_start" in self.data:
            self.rules.on_start = self.effects(("on_start",), scope)

    # -- moves ----------------------------------------------------------------------------

    def zone_piles(self, path: PathKey) -> tuple[int, ...]:
        """Every pile of the zones named at `path` (a zone or a list of zones)."""
        return tuple(p for zone in self._zones_at(path) for p in zone.piles)

    def seat_zone_piles(self, path: PathKey) -> tuple[tuple[int, ...], ...] | None:
        """For zones that include a per-player zone: the piles each acting seat may use (shared
        piles, and that seat's own); None when every zone is shared."""
        zones = self._zones_at(path)
        if all(zone.seat_piles is None for zone in zones):
            return None
        return tuple(tuple(p for zone in zones for p in (zone.piles if zone.seat_piles is None
                                                          else zone.seat_piles[seat]))
                     for seat in range(self.rules.max_players))

    def _zones_at(self, path: PathKey) -> list[Zone]:
        value = self._value(path)
        names = [value] if isinstance(value, str) else value
        for i, name in enumerate(names):
            if name not in self.rules.zones:
                where = path if isinstance(value, str) else path + (i,)
                raise RulesetError(unknown("zone", name, self.rules.zones), self.doc.pos(where))
        return [self.rules.zones[name] for name in names]

    def _moves(self) -> None:
        rules = self.rules
        self._out_of_turn()
        for index, (name, spec) in enumerate(self.data["moves"].items()):
            path: PathKey = ("moves", name)
            sources = self.zone_piles(path + ("from",)) if "from" in spec else ()
            targets = self.zone_piles(path + ("to",)) if "to" in spec else ()
            bindings = {"player": MOVE_BINDINGS["player"], "move": ("b_move", "str")}
            if sources:
                bindings.update({k: MOVE_BINDINGS[k] for k in ("src", "cards", "card", "n")})
            if targets:
                bindings["dst"] = MOVE_BINDINGS["dst"]
            if "select" in spec:
                bindings["chosen"] = ("b_chosen", CARDS)
                bindings["chosen_piles"] = ("b_chosen_piles", PILES)
            if "for_seat" in spec:
                bindings["target"] = ("b_target", INT)
            choice_name, choices = self._choices(path, spec, bindings)
            if choices:
                bindings[choice_name] = ("b_choice", type_of_value(choices[0]))
                self.globals[f"CHOICES_{index}"] = choices
            scope = self.scope.with_bindings(bindings)
            given = spec.get("take", "top")
            take, picks = (given, 1) if not isinstance(given, dict) else \
                ("any", self._pick_count(path + ("take", "any"), given["any"]))  # `take: {any: K}`
            if "do" in spec:
                effects = self.effects(path + ("do",), scope)
            elif sources and targets:
                effects = [self._move_effect(path + ("do",), {}, scope)]
            else:
                raise RulesetError("a move without both 'from' and 'to' needs 'do' effects", self.doc.pos(path))
            template = MoveTemplate(name, index, spec.get("help", ""), sources, targets,
                                    take if take in ("top", "run", "all", "any") else "count", effects)
            if sources:
                template.seat_sources = self.seat_zone_piles(path + ("from",))
            if targets:
                template.seat_targets = self.seat_zone_piles(path + ("to",))
            template.for_seat = "for_seat" in spec
            template.out_of_turn = bool(spec.get("out_of_turn", False))
            template.asked_after = self.asked_after.get(name, frozenset())
            template.declines = spec is self.declining
            template.picks = picks
            template.choices, template.choice_name = choices, choice_name
            if isinstance(spec.get("select"), dict) and "from" in spec["select"]:
                template.select_piles = self.zone_piles(path + ("select", "from"))
                template.select_take = spec["select"].get("take", "top")
            template.scope = scope
            template.enumerate = self.movegen.template(template, path, spec, scope)
            template.named_text = len(sources) <= 1 and len(targets) <= 1
            if "safe" in spec:
                template.safe = self.evaluator(path + ("safe",), scope, (BOOL,))
            rules.moves.append(template)
            rules.moves_by_name[name] = template
        rules.enumerate_all = self.movegen.merged()
        rules.move_names = tuple(t.name for t in rules.moves)
        rules.listing_reads = self._listing_reads()
        # A move's text (`t3>f1`) leaves out its name unless another move joins the same kinds of
        # zone; a move with only a source or only a destination (`t3`) always names itself.
        def zone_pairs(t: MoveTemplate) -> set[tuple[str | None, str | None]]:
            return {(rules.pile_zone[s] if s >= 0 else None, rules.pile_zone[d] if d >= 0 else None)
                    for s in t.sources or (-1,) for d in t.targets or (-1,)}

        for template in rules.moves:
            if template.named_text:
                continue
            if not (template.sources and template.targets):
                template.prefixed = True
                continue
            template.prefixed = any(zone_pairs(template) & zone_pairs(other) for other in rules.moves
                                    if other is not template and not other.named_text)

    def _out_of_turn(self) -> None:
        """Moves any seat may make out of turn (`out_of_turn`): checked, and the engine's `pass` (a
        seat asked declines) added as the last move, offered only to a seat being asked."""
        rules, moves = self.rules, self.data["moves"]
        claims = [name for name, spec in moves.items() if spec.get("out_of_turn")]
        if not claims:
            return
        from .turn_runs import effect_paths

        where = self.doc.pos(("moves", claims[0], "out_of_turn"))
        if rules.max_players < 2:
            raise RulesetError("out_of_turn needs a game of more than one seat", where)
        if rules.simultaneous:
            raise RulesetError("out_of_turn: in a simultaneous game every seat may move at any moment already", where)
        if PASS in moves:
            raise RulesetError(f"a move named '{PASS}' clashes with the '{PASS}' the engine offers a seat asked to act "
                               f"out of turn: rename it", self.doc.pos(("moves", PASS), key=True))
        names = list(moves)
        for name in claims:  # the moves after which the seats are asked (`true`: after any)
            after = moves[name]["out_of_turn"]
            for i, other in enumerate(after if isinstance(after, list) else ()):
                if other not in moves:
                    raise RulesetError(unknown("move", other, moves), self.doc.pos(("moves", name, "out_of_turn", i)))
            # (-1: the deal, before any move)
            self.asked_after[name] = frozenset(names.index(other) for other in after) if isinstance(after, list) \
                else frozenset(range(-1, len(names)))
        # A move out of turn does not hand the turn on (the turn goes on where it was), nor may a
        # trigger that can follow it: their effects, where they are written, and what they are.
        checked = [(("moves", name, "do"), moves[name].get("do", []), "a move made out of turn: the turn goes on "
                    "where it was after it (turn_to names the seat that takes the next turn)") for name in claims]
        for i, trigger in enumerate(self.data.get("triggers", [])):
            after = trigger.get("after")
            if after is None or set([after] if isinstance(after, str) else after) & set(claims):
                checked.append((("triggers", i, "do"), trigger.get("do", []),
                                "a trigger that may follow a move made out of turn (give the trigger 'after:')"))
        for path, effects, what in checked:
            for at, effect in effect_paths(effects, path):
                if effect in TURN_HANDING:
                    raise RulesetError(f"'{effect}' in {what}", self.doc.pos(at))
        rules.out_of_turn = True
        rules.opens_asking = frozenset().union(*self.asked_after.values())
        self.declining = {"help": "Let the chance to act out of turn go.", "do": []}
        self.data = {**self.data, "moves": {**moves, PASS: self.declining}}

    def _pick_count(self, path: PathKey, count: int) -> int:
        """`take: {any: K}`: K, checked to leave a fixed action space of a bounded size (one action
        number per set of K cards of the deck)."""
        sets = math.comb(len(self.rules.deck), count)
        if sets > MAX_PICK_SETS:
            raise RulesetError(f"take: {{any: {count}}} from a deck of {len(self.rules.deck)} cards gives {sets:,} "
                               f"sets of cards, more than the {MAX_PICK_SETS:,} a move may tell apart",
                               self.doc.pos(path))
        return count

    def _choices(self, path: PathKey, spec: dict[str, Any], bindings: dict[str, Any]) -> tuple[str, tuple[Any, ...]]:
        """A move's `choose: {NAME: VALUES}`: the name and the values, known at load (a list, or an
        expression of options and constants giving one): numbers or strings, of one kind, each once."""
        if "choose" not in spec:
            return "", ()
        ((name, given),) = spec["choose"].items()
        where = path + ("choose", name)
        for other in ("for_seat", "select"):
            if other in spec:
                raise RulesetError(f"a move cannot have both 'choose' and '{other}'", self.doc.pos(where))
        if name in bindings or name in self.scope.variables or name in self.scope.zones or name == "option":
            raise RulesetError(f"'{name}' is already a name here (a binding, variable or zone): choose another",
                               self.doc.pos(where, key=True))
        if isinstance(given, list):
            values = tuple(given)
        else:
            compiled, _ = self.compile_node(self.parse(where), where, self.scope, (LIST,))
            if not compiled.const:
                raise RulesetError("the values to choose from must be known when the ruleset loads (a list, "
                                   "range(...) of numbers, or an expression of options)", self.doc.pos(where))
            values = tuple(compiled.value)
        kinds = {type(v) for v in values}
        if not values or len(kinds) != 1 or not kinds <= {int, str}:
            raise RulesetError("choose: one or more values, all numbers or all strings", self.doc.pos(where))
        if len(values) > MAX_CHOICES:
            raise RulesetError(f"choose: more than {MAX_CHOICES:,} values", self.doc.pos(where))
        if len(set(values)) != len(values):
            repeated = next(v for v in values if values.count(v) > 1)
            raise RulesetError(f"choose: the value {repeated!r} is there twice", self.doc.pos(where))
        if any(isinstance(v, str) and not v or isinstance(v, str) and not v.replace("_", "").replace("-", "").isalnum()
               for v in values):
            raise RulesetError("choose: a string value is a word (letters, digits, '-', '_'), since move texts "
                               "end with it", self.doc.pos(where))
        return name, values

    def _listing_reads(self) -> frozenset[int] | None:
        """The variable slots the generated listing reads, or None when it may read any (a
        `select` search calls evaluators of its own)."""
        if any("select" in spec for spec in self.data["moves"].values()):
            return None
        slots, unplaced = variable_reads(self.sources[-1], self.rules.max_players)  # enumerate_all, just defined
        return None if unplaced else slots

    def _triggers(self) -> None:
        for i, spec in enumerate(self.data.get("triggers", [])):
            path: PathKey = ("triggers", i)
            scope = self.scope.with_bindings({"player": ("b_player", INT), "move": ("b_move", "str")})
            after = spec.get("after")
            if after is not None:
                for j, name in enumerate(after):
                    if name not in self.rules.moves_by_name:
                        raise RulesetError(unknown("move", name, self.rules.moves_by_name),
                                           self.doc.pos(path + ("after", j)))
            test: Evaluator | None = None
            if "for" in spec:
                loop, inner, names = self._loop(path + ("for",), scope)
                items = self._filtered_items(path, loop, scope, inner, names[0], spec.get("when"))
            else:
                inner, names, items = scope, (), None
                test = self.evaluator(path + ("when",), inner, (BOOL,)) if "when" in spec else None
            body = self.effects(path + ("do",), inner)
            name = spec.get("name", f"trigger {i + 1}")
            repeat = bool(spec.get("repeat", False))
            if repeat and items is None and test is None:
                raise RulesetError("a trigger that repeats needs a 'when' or a 'for': it runs again while one holds",
                                   self.doc.pos(path + ("repeat",)))
            too_long = _repeat_limit(name, self.doc.pos(path)) if repeat else None
            run = _trigger_runner(items, names, test, body, too_long)
            if (items is None or items in self.inline) and (test is None or test in self.inline):
                self.inline[run] = TriggerBody(self.inline[items] if items is not None else None,
                                               inner.bindings[names[0]][0] if names else "",
                                               self.inline[test] if test is not None else None, tuple(body),
                                               too_long)
            self.rules.triggers.append(Trigger(name, frozenset(after) if after is not None else None, run,
                                               bool(spec.get("at_start", False))))

    def _filtered_items(self, path: PathKey, loop: Loop, scope: Scope, inner: Scope, name: str,
                        when: Any) -> Evaluator:
        """One generated function for `for x in items` plus `when`: the items for which the trigger fires."""
        iterable, outer_compiler = self.compile_node(loop.iterable, path + ("for",), scope, (PILES, CARDS, "list"))
        condition = "True"
        compiler = outer_compiler
        spans = self.spans(outer_compiler, path + ("for",))
        if when is not None:
            compiled, compiler = self.compile_node(self.parse(path + ("when",)), path + ("when",), inner, (BOOL,))
            condition = compiled.source
            spans += self.spans(compiler, path + ("when",))
        py_name = inner.bindings[name][0]
        body = f"[{py_name} for {py_name} in charge({iterable.source}) if {condition}]"
        function_name = self._fresh("items")
        prologue = self._prologue(body, scope, outer_compiler.uses | compiler.uses, exclude=py_name)
        source = f"def {function_name}(S, env):\n{prologue}    return {body}\n"
        items = _guarded(self.define(function_name, source, spans=spans), "trigger", self.doc.pos(path))
        self.inline[items] = Expr(body, spans, "trigger", self.doc.pos(path))
        return items

    def _apply_functions(self) -> None:
        """What each move does, and the end checks, as one generated function each (python/applygen.py)."""
        generator = ApplyGenerator(self)
        for template in self.rules.moves:
            template.apply = generator.template(template, "select" in self.data["moves"][template.name])
        self.rules.end_check = generator.end_check()

    def _end(self) -> None:
        spec = self.data.get("end", {})
        scope = self.scope.with_bindings({"player": ("b_player", INT)})
        for i, cond in enumerate(spec.get("when", [])):
            test = self.evaluator(("end", "when", i, "if"), scope, (BOOL,))
            winners = self.evaluator(("end", "when", i, "winners"), scope, (INT, "list")) \
                if "winners" in cond else None
            where = self.doc.pos(("end", "when", i, "winners")) if "winners" in cond else None
            self.rules.end_conditions.append(EndCondition(test, cond["result"], cond.get("reason", ""), winners,
                                                          where))
        if "no_moves" in spec:
            self.rules.no_moves_result = (spec["no_moves"]["result"], spec["no_moves"].get("reason",
                                                                                           "no move is possible"))
        self.rules.max_moves = spec.get("max_moves", DEFAULT_MAX_MOVES)
        if "repeat" in spec:
            repeat = spec["repeat"]
            self.rules.repeat = (repeat["count"], repeat["result"],
                                 repeat.get("reason", f"a position occurred {repeat['count']} times"))
        if "cycle" in spec:
            cycle = spec["cycle"]
            for j, name in enumerate(cycle["moves"]):
                if name not in self.rules.moves_by_name:
                    raise RulesetError(unknown("move", name, self.rules.moves_by_name),
                                       self.doc.pos(("end", "cycle", "moves", j)))
            when = self.evaluator(("end", "cycle", "when"), scope, (BOOL,)) if "when" in cycle else None
            self.rules.cycle = CycleRule(frozenset(self.rules.moves_by_name[n].index for n in cycle["moves"]),
                                         cycle["result"], cycle.get("reason", "a cycle of moves offered nothing else"),
                                         when)
        if "on_end" in self.data:
            self.rules.on_end = self.effects(("on_end",), scope)
        if "label" in self.data:
            self.rules.label = self.evaluator(("label",), scope, ("str",))
        if "heuristic" in self.data:
            self.rules.heuristic = self.evaluator(("heuristic",), scope, (INT,))
        if self.data.get("score_order") == "lower":
            self.rules.score_sign = -1
        if "score" in self.data:
            self.rules.score = self.evaluator(("score",), scope, (INT,))
            self.rules.score_pos = self.doc.pos(("score",))
        elif "score" in self.rules.variables:
            self.rules.score = self.evaluator(("variables", "score", "initial"), scope, node=_name_node("score"))
            self.rules.score_pos = self.doc.pos(("variables", "score"))


def _seeing(visibility: tuple[str, ...], owner: tuple[int, ...]) -> Callable[[Any, int, int, int | None], bool]:
    """The rule of who sees which card, from each pile's zone `visibility` and owner (see
    docs/language.md, zones): `sees(state, card, pile, seat)`; seat None is a spectator, who sees
    only what every seat sees."""
    def sees(S: Any, card: int, pile: int, seat: int | None) -> bool:
        kind = visibility[pile]
        if kind == "all":
            return True
        if seat is not None and S.known is not None and S.known[card] >> seat & 1:
            return True  # shown to the seat, or seen by it before it went out of its sight
        if kind == "none":
            return False
        if kind == "owner" and owner[pile] == seat:
            return True  # a seat sees all of its own cards; the others only those face up (revealed)
        if kind == "top":  # a squared pile: only its top card shows, if face up
            cards = S.piles[pile]
            return bool(cards) and cards[-1] == card and bool(S.up[card])
        return bool(S.up[card])
    return sees


def _name_node(name: str) -> Node:
    from ..front.parser import Name

    return Name(0, name)


PASS = "pass"  # the move of a seat asked to act out of turn that lets the chance go
TURN_HANDING = ("act", "end_turn")  # effects that hand the turn on, refused in moves made out of turn


def _a_seat_of(S: Any, seat: int, effect: str, pos: SourcePos) -> int:
    """`seat` if this game has it, else the run-time error of the effect that names it."""
    if not 0 <= seat < S.players:
        raise RulesetRuntimeError(f"{effect}: there is no seat {seat}", pos)
    return seat


def _repeat_limit(name: str, pos: SourcePos) -> Callable[[], None]:
    """What a `repeat` trigger that still applies after `MAX_TRIGGER_PASSES` passes raises."""
    def fail() -> None:
        raise RulesetRuntimeError(f"trigger '{name}' still applies after {MAX_TRIGGER_PASSES:,} passes: a trigger "
                                  "with 'repeat' must stop applying (its 'do' must change what its 'when' reads)", pos)
    return fail


def _trigger_runner(items: Evaluator | None, names: tuple[str, ...], test: Evaluator | None,
                    body: list[Effect], too_long: Callable[[], None] | None = None) -> Effect:
    """A trigger's run: its `do` once (if `when` holds) or per item of `for` for which it holds;
    with `repeat` (`too_long` given), again and again while any does."""
    def run_body(S: Any, env: dict[str, Any]) -> None:
        for eff in body:
            eff(S, env)

    def run_once(S: Any, env: dict[str, Any]) -> None:
        if test is None or test(S, env):
            run_body(S, env)

    def run_each(S: Any, env: dict[str, Any], found: list[Any]) -> None:
        for item in found:
            inner = dict(env)
            inner[names[0]] = item
            run_once(S, inner)

    if too_long is None:
        if items is None:
            return run_once
        return lambda S, env: run_each(S, env, list(items(S, env)))

    def repeat(S: Any, env: dict[str, Any]) -> None:
        for _ in range(MAX_TRIGGER_PASSES):
            if items is None:
                assert test is not None  # (checked at load)
                if not test(S, env):
                    return
                run_body(S, env)
            else:
                found = list(items(S, env))
                if not found:
                    return
                run_each(S, env, found)
        too_long()
    return repeat


def _check_not_round(cover: list[tuple[int, ...]], piles: tuple[int, ...], names: tuple[str, ...],
                     pos: SourcePos | None) -> None:
    """Refuse covering that goes round (a pile lying, through others, on itself): taking away
    the piles nothing lies on, again and again, must take them all."""
    left = set(piles)
    free = [p for p in piles if not cover[p]]
    under: dict[int, list[int]] = {}
    for p in piles:
        for above in cover[p]:
            under.setdefault(above, []).append(p)
    waiting = {p: len(cover[p]) for p in piles}
    while free:
        pile = free.pop()
        left.discard(pile)
        for below in under.get(pile, ()):
            waiting[below] -= 1
            if waiting[below] == 0:
                free.append(below)
    if left:  # each pile left lies under one left: follow them up to where they go round
        pile, seen = min(left), []
        while pile not in seen:
            seen.append(pile)
            pile = next(above for above in cover[pile] if above in left)
        loop = seen[seen.index(pile):] + [pile]
        raise RulesetError("covered_by goes round: " + " lies under ".join(names[p] for p in loop), pos)


def _guarded_at_load(function: Callable[..., Any], text: str, pos: SourcePos) -> Callable[..., Any]:
    """A load-time expression of numbers (`deck.where`: a card and the player count; `teams.of`:
    a seat and the player count; `covered_by`: a pile); failures are reported at the expression."""
    def run(*numbers: int) -> Any:
        try:
            return function(*numbers)
        except Exception as exc:  # noqa: BLE001 - reported with the expression's position
            raise runtime_error(exc, text, pos) from None
    return run


def _guarded(function: Callable[..., Any], text: str, pos: SourcePos) -> Evaluator:
    """A generated function whose failures are reported at `pos` (where its text is written)."""
    def run(S: Any, env: dict[str, Any]) -> Any:
        try:
            return function(S, env)
        except Exception as exc:  # noqa: BLE001 - reported with the expression's position
            raise runtime_error(exc, text, pos) from None
    return run


def runtime_error(exc: Exception, text: str, pos: SourcePos | None,
                  only: list[Span] | None = None) -> RulesetRuntimeError:
    """`exc`, raised by generated code while evaluating `text` (written at `pos`), as an error
    at the subexpression that failed, if the compiler noted it; else at `pos`. `only`: the code
    noted for that expression, where a generated function holds several."""
    if isinstance(exc, RulesetRuntimeError):
        return exc
    detail = str(exc)
    if isinstance(exc, TypeError) and "NoneType" in detail:
        detail = "a card was expected but there is none here (the top of an empty pile?)"
    elif isinstance(exc, ZeroDivisionError):
        detail = "division by zero"
    elif isinstance(exc, IndexError):
        detail = "an index is out of range"
    failed = failing_part(exc, only)
    if failed is not None:
        where, part = failed
        return RulesetRuntimeError(f"while evaluating {part!r}{'' if part == text else f' in {text!r}'}: {detail}",
                                   where)
    return RulesetRuntimeError(f"while evaluating {text!r}: {detail}", pos)
