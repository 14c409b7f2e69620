"""The loaded ruleset as data: its options, variables, zones, move templates, triggers, cycle
and end rules (`Ruleset`, shared by every game of it), and the key its saved data is kept under.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Sequence

from ..front.compiler import BOOL, CARD, CARDS, INT, PILE, Meter
from ..front.decks import Deck
from ..base.errors import ArgumentError, RulesetRuntimeError, RulesetWarning, SaveError, SourcePos
from ..base.resources import rulesets_dir

if TYPE_CHECKING:  # imported where first used: loading a ruleset (and `validate`) needs neither
    from .actions import ActionSpace
    from .game_backend import GameBackend
    from .observation import ObservationLayout


Effect = Callable[[Any, dict[str, Any]], None]


Evaluator = Callable[[Any, dict[str, Any]], Any]


# A game ends with the result "limit" after this many moves unless its ruleset says otherwise,
# so no ruleset can make a game (or a bot) run forever.
DEFAULT_MAX_MOVES = 100_000


MOVE_BINDINGS = {"src": ("b_src", PILE), "dst": ("b_dst", PILE), "cards": ("b_cards", CARDS),
                 "card": ("b_card", CARD), "n": ("b_n", INT), "player": ("b_player", INT)}


def choice_local(j: int) -> str:
    """The generated code's name for the value of a move's `j`-th `choose` name."""
    return "b_choice" if j == 0 else f"b_choice{j}"


@dataclass(frozen=True)
class Option:
    """An option: its listed values, or (`low`, `high`) any whole number from `low` to `high`, whose
    `values` are then the ones `validate` checks the ruleset under (the least, the default, the most)."""

    name: str
    values: tuple[Any, ...]
    default: Any
    help: str
    low: int | None = None
    high: int | None = None

    @property
    def is_range(self) -> bool:
        return self.low is not None


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
    width: int = 1  # its slots: one, one per seat the ruleset allows, or one per card then one for no card
    per_card: bool = False  # a mark on each card (`per_card`): card c's value at slot + c
    pos: SourcePos | None = None  # where its `initial` is written

    @property
    def slots(self) -> range:
        return range(self.slot, self.slot + self.width)


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
    # Whose piles of those per-player zones (`from_seats`, `to_seats`): "own", "others" or "all"; for
    # the last two the rows hold every seat's the ruleset allows, and the moves take only the piles of
    # seats in the game (a pile's owner below the number of seats).
    source_seats: str = "own"
    target_seats: str = "own"
    named_text: bool = False   # text is the bare name (one source pile, at most one target)
    safe: Evaluator | None = None  # when true, the move can never hurt: a solver plays it without trying others
    # Its effects and the triggers that follow it as one generated function (python/applygen.py), or None.
    apply: Callable[..., None] | None = None
    prefixed: bool = False     # text needs the name before the piles (another move shares the zones)
    for_seat: bool = False     # the move chooses a seat (`for_seat`)
    # `choose: {NAME: VALUES, ...}`: each combination of values the move may name, one value per name,
    # in the order of `choice_names` (`Move.seat` is the combination's index); `choice_seats` marks the
    # names whose values are seats (`seats`: every seat a game may have; a game offers only its own).
    choices: tuple[tuple[Any, ...], ...] = ()
    choice_names: tuple[str, ...] = ()
    choice_seats: tuple[bool, ...] = ()
    select_piles: tuple[int, ...] = ()  # `select`: the piles it may choose, in order, and what each gives
    select_take: str = ""
    picks: int = 1  # `take: {any: K}`: the move picks K cards of its source (`Move.pick` a tuple for K > 1)
    out_of_turn: bool = False  # any seat may make it when its conditions hold (`out_of_turn`)
    asked_after: frozenset[int] = frozenset()  # the moves after which the seats are asked to make it
    declines: bool = False     # the `pass` of a seat asked out of turn (made by the engine, not written)
    stuck: bool = False        # the `pass` of a seat with no other move (`turns.no_move: pass`; made by the engine)
    scope: Any = None          # the names its own expressions see (`python/explain.py` compiles their parts again)
    # The destination index its `when` implies (indexes.IndexKey), or None: every destination is tried.
    index_key: Any = None
    # For each top-level part of its `when` (split on `and`): whether it cannot fail. Such a part is
    # tested in the outermost loop its names allow, even before parts written ahead of it
    # (python/movegen.py; the native backend places the parts alike).
    when_total: tuple[bool, ...] = ()

    def named_values(self, index: int) -> dict[str, Any]:
        """The values the combination `index` of `choose` gives the move's names."""
        return dict(zip(self.choice_names, self.choices[index]))

    def offered_choices(self, players: int) -> list[int]:
        """The combinations of `choose` a game of `players` seats may offer: those of its own seats."""
        return [i for i, values in enumerate(self.choices)
                if all(not seat or value < players for value, seat in zip(values, self.choice_seats))]

    def choice_text(self, index: int) -> str:
        """How a move's text ends for the combination `index` of `choose`: each value after a space,
        a seat as `seat3`."""
        return "".join(f" seat{value + 1}" if seat else f" {value}"
                       for value, seat in zip(self.choices[index], self.choice_seats))


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
        # `turns.no_move: pass`: the index of the engine's `pass`, offered alone to a seat with no other
        # move while another seat has one (None: a seat with no move ends the game).
        self.stuck_pass: int | None = None
        self.max_moves: int = DEFAULT_MAX_MOVES
        self.repeat: tuple[int, str, str] | None = None  # (count, result, reason) of `end.repeat`
        self.cycle: CycleRule | None = None  # `end.cycle`
        self.on_start: list[Effect] = []
        # Where a move or trigger shuffles (`shuffle`): a game with chance after the deal, which
        # the solver refuses. None when nothing shuffles during play.
        self.shuffles_in_play: SourcePos | None = None
        # Whether a seat can know a card it does not see (a card passed from an `owner` zone, or
        # `show`n): the engine then keeps, card by card, who knows it (state.State.known).
        # Each variable's kind as the front end typed it (INT, BOOL, or ANY: it may hold anything else).
        self.variable_kinds: dict[str, str] = {}
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
        # A zone's own drawing order (`order`: each card's key, `card` bound), by zone name (python/render.py).
        self.zone_orders: dict[str, Evaluator] = {}
        self.front_end: Any = None
        self.game_backend: GameBackend | None = None  # what it was built for (model/game_backend.py): its games
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
                 persisted: dict[str, Any] | None = None, max_moves: int | None = None,
                 explicit_chance: bool = False) -> "Any":
        """Start a game from a seed (shuffled deck) or an explicit deal (card codes, top of the deck first).

        `persisted` gives the values of `persist` variables kept from earlier games; `max_moves`
        overrides the ruleset's move limit (simulations use a lower one). With `explicit_chance`,
        the game stops at each draw of chance during play for its caller to choose the outcome
        (chance nodes: python/chance_nodes.py).
        """
        if self.game_backend is None:
            raise ArgumentError("this ruleset was built for no backend that plays games")
        return self.game_backend.game(self, seed=seed, deal=deal, players=players, persisted=persisted,
                                      max_moves=max_moves, explicit_chance=explicit_chance)

    @cached_property
    def mark_slots(self) -> tuple[int, ...]:
        """The first slot of each per-card variable (card c's value is at first + c), found when first
        asked for (the variables are built by then)."""
        return tuple(v.slot for v in self.variables.values() if v.per_card)

    def marks_on(self, cards: Iterable[int]) -> set[int]:
        """The slots of every mark on these cards: what a seat that cannot see them does not see."""
        return {first + card for first in self.mark_slots for card in cards}

    def persistent_variables(self) -> list[str]:
        return [v.name for v in self.variables.values() if v.persist]

    def number_slots(self) -> tuple[int, ...]:
        """The variables' slots that hold numbers or truth values (`variable_kinds`), every seat's
        for a per-seat variable, in order: what a position's hash for the greedy bot reads
        (agents/bots.py `view_hash`, native/bots.py alike)."""
        slots: list[int] = []
        for name, variable in self.variables.items():
            if self.variable_kinds.get(name) in (INT, BOOL):
                slots.extend(variable.slots)
        return tuple(sorted(slots))

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


PASS = "pass"  # the move of a seat asked to act out of turn that lets the chance go


TURN_HANDING = ("act", "end_turn")  # effects that hand the turn on, refused in moves made out of turn
