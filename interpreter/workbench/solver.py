"""Solve one-player deals: can this deal be won, and how? (`cardrules solve`).

A depth-first search over the real deal, for any one-seat ruleset:

- Positions are keyed like `Game._position_key` (piles, faces, variables, seat, phase), except
  that variables the rules never read to decide a move, a trigger or the end of the game (a
  score; a pass counter that only some options consult) are left out: positions that differ
  only in them have the same futures. Which variables matter is found once per ruleset by
  following its compiled rules (`analyse`). A position seen before is not searched again, so
  cycles and transpositions cost little and the search never leans on the move limit.
- A legal move whose template declares it `safe:` (and whose test holds here) is played at
  once, without trying the others: the ruleset's promise, trusted (below). `use_safe=False`
  (`solve --no-safe`) ignores every `safe:` and tries all legal moves.
- Right after a turn of the stock (in a win search), only turns and the moves that do not
  commute with them are tried (model/turn_runs.py: a move that touches nothing the turns use can as
  well be played before them). A position reached by a turn is its own node (fewer moves tried
  from it), unless the same position searched with every move is known.
- The other moves are tried in a cheap, generic order: kinds of move (template, and whether
  the move uncovers the card beneath) that have raised the ruleset's evaluation (`heuristic`,
  else its score) most so far first, then those that turned cards face up.
- One `Game` is walked with apply and undo, never cloned; moves are applied unsettled
  (`Game.apply(move, settle=False)`), so a move that reaches a position seen before is taken
  back before the game lists the next legal moves.
- Depth-first searches of such puzzles have heavy tails, so the search restarts: the Luby
  sequence of position budgets, every restart after the first breaking ties at random and
  shaking the order. A restart that finishes within its budget has searched every reachable
  position. Restarts are seeded: the same deal gets the same answer unless time runs out.
- A win search keeps what it proved across restarts: a position from which every move was
  tried, and whose strongly connected component (Tarjan's algorithm: positions that reach one
  another through cycles) was closed, cannot lead to a win, and is never searched again. A
  restart cut short loses only the positions of components still open.

A ruleset that can end `won` (an end condition, `no_moves`, `repeat`, or an `end` effect) is
searched for a win: `solvable` with the moves (shortened: detours back to a position of the
path are cut), `unsolvable` when every reachable position was tried, `unknown` when the time
(or the memory bound) ran out. A ruleset that can never end `won` is searched for the best
score (the highest, or the lowest under `score_order: lower`; below, "lowered" means made
worse): the best finished game, or, while no move searched has lowered the score, the best
position reached (the score then stays until the game ends). `optimal` when the search was
exhausted, `best found` otherwise. There is no generic upper bound on a score to prune with;
where the score is one variable that only accumulates, a position reached again with no
better score so far is not searched again. The moves are those from the position searched
from: the deal's start for `solve`, wherever the game stands for `solve_game`.

What the answers rest on. `solvable` rests on nothing: its moves are replayed to a win. The
search ignores the move limit (`limit` is no win). `unsolvable` (and `optimal`) assumes:

1. every `safe:` claim is true: from any position where a move's `safe:` holds, playing the move
   never turns a winnable position into an unwinnable one (in a score search: never lowers the
   best score reachable), "position" being the search's own (its key, below). The search plays
   the first such move alone, so a false claim can hide every win: `--no-safe` checks the
   claims, and where both answers are definite they must agree;
2. every reachable position was searched: a restart finished within its budget (a search cut
   short by the time or the memory bound answers `unknown`, never `unsolvable`);
3. the position key leaves out only variables the rules never read to decide a move, a trigger
   or the end of the game (`analyse`; a read it cannot place keeps every variable), so that
   positions with one key have the same futures. End rules that look back at how a position
   was reached are not in the key either. `end.cycle` ends a game only where its moves were all
   that was offered since the cycle began, which leaves the futures alike where at most one of
   its moves is legal at a time (a stock turned round can only go round). `end.repeat`
   counts positions: the search then keeps nothing proven across restarts, but within one it
   still takes a position seen as searched;
4. `turn_runs` read the rules right: a move it finds commuting with the turns gives the same
   position played before a run of turns as after it, and no rule looks at the order (it refuses
   a ruleset where a trigger may follow a turn, an end condition names what the turns use, or
   `legal_moves()` is read). Every game then has an order in which no such move follows a turn
   directly and no run of turns comes back round, and that order is all the search tries.

Time. `timeout` bounds the search; a solution found is then shortened within its own budget
(`shorten_timeout`, by default a quarter of `timeout`), and the result reports the two times
apart. Both count `clock`: "wall" (elapsed) or "cpu" (`time.process_time()`: this process's CPU
time, the same work for every deal however loaded the machine).

The solver sees every card. Solving a deal in which the player cannot see some cards is what
solitaire analyses call playing "thoughtfully" (`--thoughtful`); without it such a deal is
refused. A one-seat ruleset whose cards all lie open is solved either way.
"""

from __future__ import annotations

import json
import math
import random
import re
import shlex
import statistics
import time
import types
import weakref
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from rich.console import Console
from rich.text import Text

from ..front.compiler import names_in, variable_reads
from ..python.engine import Game, Move
from ..base.errors import CardrulesError, DealError, format_error, printable, terminal_console
from ..base.limits import DEFAULT_MAX_POSITIONS, DEFAULT_MAX_POSITIONS_NATIVE, DEFAULT_TIMEOUT
from ..model.ruleset import Ruleset, load_ruleset
from ..front.source import read_bounded
from ..model.turn_runs import turn_runs

# The search's own game never ends `limit`: repeated positions are pruned instead.
SEARCH_MAX_MOVES = 10 ** 12
# The search stops (answer `unknown`) past DEFAULT_MAX_POSITIONS positions kept (the native search:
# DEFAULT_MAX_POSITIONS_NATIVE, about the same memory), to bound its memory, and after
# DEFAULT_TIMEOUT seconds; all live in base/limits.py, where the command line reads them without
# importing the solver.
# A solution found is shortened within this share of the search's time budget (by default).
SHORTEN_SHARE = 0.25
# The clocks a time budget can be counted on: elapsed time, or this process's CPU time.
CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.process_time}
RESTART_JITTER = 2.0  # how far (in places) a restart may move a move in the order
RESTART_BASE = 1000  # positions: the Luby sequence's unit
Z95 = 1.959963984540054

SOLVABLE, UNSOLVABLE, UNKNOWN, OPTIMAL, BEST_FOUND = "solvable", "unsolvable", "unknown", "optimal", "best found"
# python: the readable reference search; native: the same search compiled (native/solver.py).
SOLVER_ENGINES = ("python", "native")


class SolveError(CardrulesError):
    """A ruleset or deal the solver will not take: several seats, hidden cards without --thoughtful."""


# ---------------------------------------------------------------------------------------------
# Which variables matter: a walk over the compiled rules


_ALL = -1  # a read the analysis cannot place: every variable counts


@dataclass(frozen=True)
class Analysis:
    """What the solver needs to know about a ruleset, found once from its compiled form."""

    relevant: tuple[int, ...] | None  # variable slots that steer the game (None: all of them)
    can_win: bool                     # can a game end `won`?
    objective: tuple[int, ...]        # the slots (not among `relevant`) that the final score reads
    accumulating: bool                # the score is one variable that only grows by `add`s of steered values


def _cells(function: Any) -> dict[str, Any]:
    """A closure's free variables by name."""
    code = getattr(function, "__code__", None)
    closure = getattr(function, "__closure__", None)
    if code is None or not closure:
        return {}
    values = {}
    for name, cell in zip(code.co_freevars, closure):
        try:
            values[name] = cell.cell_contents
        except ValueError:  # an empty cell
            pass
    return values


def _functions_in(value: Any, depth: int = 0) -> Iterable[types.FunctionType]:
    """The Python functions held by a closure cell: itself, or inside (nested) lists and tuples."""
    if isinstance(value, types.FunctionType):
        yield value
    elif isinstance(value, (list, tuple)) and depth < 4:
        for item in value:
            yield from _functions_in(item, depth + 1)


class _Walker:
    """Collects facts `(slots read, target)`: the target is None (the read steers the game: which
    moves are legal, where cards go, when the game ends) or the slots of the variables that are
    set from what was read."""

    def __init__(self, rules: Ruleset, sources: dict[str, str] | None = None) -> None:
        self.rules = rules
        if sources is None:  # the generated functions' source, by name
            sources = {}
            for block in re.split(r"(?m)^(?=def )", rules.generated_source):
                match = re.match(r"def (\w+)\(", block)
                if match:
                    sources[match.group(1)] = block
        self.sources = sources
        self.facts: list[tuple[frozenset[int], frozenset[int] | None]] = []
        self.wins = False  # an effect that ends the game `won`
        self.adds: dict[int, list[frozenset[int]]] = {}  # slot -> what each `add` to it reads
        self.sets: set[int] = set()  # slots written other than by `add`
        self._seen: set[tuple[int, frozenset[int] | None]] = set()

    def _slots(self, slot: int, per_player: bool) -> frozenset[int]:
        return frozenset(range(slot, slot + (self.rules.max_players if per_player else 1)))

    def _generated(self, function: types.FunctionType) -> str | None:
        if not function.__code__.co_filename.startswith("<cardrules"):
            return None
        return self.sources.get(function.__name__)

    def reads(self, source: str) -> frozenset[int]:
        slots, unplaced = variable_reads(source, self.rules.max_players)
        return slots | {_ALL} if unplaced else slots

    def walk(self, function: Any, target: frozenset[int] | None) -> None:
        """Follow an effect, an evaluator or a generated function, recording what it reads for what."""
        if not isinstance(function, types.FunctionType):
            return
        marker = (id(function), target)
        if marker in self._seen:
            return
        self._seen.add(marker)
        source = self._generated(function)
        if source is not None:
            self.facts.append((self.reads(source), target))
            namespace = function.__globals__
            for name in names_in(source):  # helpers the generated code calls (a `select`'s search)
                helper = namespace.get(name)
                if isinstance(helper, types.FunctionType) and helper is not function:
                    self.walk(helper, target)
            return
        cells = _cells(function)
        if cells.get("result") == "won":
            self.wins = True
        if function.__name__ == "assign" and "steps" in cells and "adding" in cells:
            for step in cells["steps"]:
                slots = self._slots(step[0], bool(step[1]))
                if cells["adding"]:
                    for slot in slots:
                        self.adds.setdefault(slot, []).append(self._reads_of(step[2]))
                else:
                    self.sets.update(slots)
                self.walk(step[2], slots)
            return
        if function.__name__ == "branch" and {"test", "then", "otherwise"} <= set(cells):
            bodies = list(cells["then"]) + list(cells["otherwise"])
            self.walk(cells["test"], self._writes(bodies))
            for effect in bodies:
                self.walk(effect, target)
            return
        for value in cells.values():
            for inner in _functions_in(value):
                self.walk(inner, target)

    def _reads_of(self, function: Any) -> frozenset[int]:
        """Every slot an evaluator reads (for the accumulator check)."""
        sub = _Walker(self.rules, self.sources)
        sub.walk(function, None)
        return frozenset(s for reads, _ in sub.facts for s in reads)

    def _writes(self, effects: Sequence[Any]) -> frozenset[int] | None:
        """The slots a list of effects may set; None when they do more than set variables."""
        slots: set[int] = set()
        for effect in effects:
            cells = _cells(effect)
            name = getattr(effect, "__name__", "")
            if name == "assign" and "steps" in cells:
                for step in cells["steps"]:
                    slots |= self._slots(step[0], bool(step[1]))
            elif name == "branch" and {"then", "otherwise"} <= set(cells):
                inner = self._writes(list(cells["then"]) + list(cells["otherwise"]))
                if inner is None:
                    return None
                slots |= inner
            else:
                return None
        return frozenset(slots)


def _closure(facts: list[tuple[frozenset[int], frozenset[int] | None]], start: set[int]) -> set[int]:
    """`start` and every slot read to set a slot already in the set, to a fixpoint."""
    result = set(start)
    changed = True
    while changed:
        changed = False
        for reads, target in facts:
            if target is not None and target & result and not reads <= result:
                result |= reads
                changed = True
    return result


_ANALYSES: "weakref.WeakKeyDictionary[Ruleset, Analysis]" = weakref.WeakKeyDictionary()


def analyse(rules: Ruleset) -> Analysis:
    """Which variables steer the game, whether it can be won, and how its score is made."""
    cached = _ANALYSES.get(rules)
    if cached is not None:
        return cached
    walker = _Walker(rules)
    walker.walk(rules.enumerate_all, None)
    for template in rules.moves:
        for effect in template.effects:
            walker.walk(effect, None)
    for trigger in rules.triggers:
        walker.walk(trigger.run, None)
    for condition in rules.end_conditions:
        walker.walk(condition.test, None)
    if rules.cycle is not None and rules.cycle.when is not None:  # `end.cycle` (its moves and cards are kept)
        walker.walk(rules.cycle.when, None)
    steering = {s for reads, target in walker.facts if target is None for s in reads}
    steering = _closure(walker.facts, steering)
    all_slots = set(range(rules.var_count))
    relevant: tuple[int, ...] | None = None if _ALL in steering else tuple(sorted(steering & all_slots))
    can_win = (walker.wins or any(c.result == "won" for c in rules.end_conditions)
               or rules.no_moves_result[0] == "won" or (rules.repeat is not None and rules.repeat[1] == "won"))
    # The score, with what the end effects feed it.
    objective: set[int] = set()
    score_source = ""
    if rules.score is not None:
        scorer = _Walker(rules, walker.sources)
        scorer.walk(rules.score, None)
        objective = {s for reads, _ in scorer.facts for s in reads}
        score_source = "".join(scorer.sources[f.__name__] for f in _generated_functions(rules.score, scorer))
    end_walker = _Walker(rules, walker.sources)
    for effect in rules.on_end:
        end_walker.walk(effect, None)
    objective = _closure(walker.facts + end_walker.facts, objective)
    if _ALL in objective:
        objective = set(all_slots)
    kept = set(relevant) if relevant is not None else all_slots
    free = objective - kept
    accumulating = False
    single = re.fullmatch(r"def \w+\(S, env\):\n    V = S\.vars\n    return (?:want_int\()?V\[(\d+)\]\)?\n\s*",
                          score_source)  # the score is one variable (checked to fit 64 bits)
    if single and {int(single.group(1))} == free:
        slot = int(single.group(1))
        end_written = slot in end_walker.sets or slot in end_walker.adds
        accumulating = (slot not in walker.sets and not end_written
                        and all(not (reads & free) and _ALL not in reads for reads in walker.adds.get(slot, [])))
    analysis = Analysis(relevant, can_win, tuple(sorted(free)), accumulating)
    _ANALYSES[rules] = analysis
    return analysis


def _generated_functions(function: Any, walker: _Walker, depth: int = 0) -> list[types.FunctionType]:
    if not isinstance(function, types.FunctionType) or depth > 6:
        return []
    if walker._generated(function) is not None:
        return [function]
    return [g for value in _cells(function).values() for inner in _functions_in(value)
            for g in _generated_functions(inner, walker, depth + 1)]


# ---------------------------------------------------------------------------------------------
# The search


@dataclass
class SolveResult:
    """The answer for one deal. `moves` replay from the position searched from (the deal's start
    for `solve`), as move texts."""

    answer: str                 # solvable, unsolvable, unknown; or for a score: optimal, best found, unknown
    moves: list[str] = field(default_factory=list)
    nodes: int = 0              # positions searched
    seconds: float = 0.0        # in all: the search and the shortening
    score: int | None = None    # the best final score found (score search only)
    goal: str = "win"           # "win" or "score"
    reason: str = ""            # why the answer is unknown (time, memory)
    search_seconds: float = 0.0   # finding the answer
    shorten_seconds: float = 0.0  # cutting detours out of the moves found
    clock: str = "wall"         # what the seconds count: "wall" (elapsed) or "cpu" (this process's CPU time)
    safe_moves: bool = True     # were the ruleset's `safe:` claims trusted?
    engine: str = "python"      # which search answered: python, or native (compiled)

    def as_dict(self) -> dict[str, Any]:
        return {"answer": self.answer, "goal": self.goal, "moves": self.moves, "move_count": len(self.moves),
                "score": self.score, "nodes": self.nodes, "seconds": round(self.seconds, 3),
                "search_seconds": round(self.search_seconds, 3), "shorten_seconds": round(self.shorten_seconds, 3),
                "clock": self.clock, "safe_moves": self.safe_moves, "engine": self.engine,
                "reason": self.reason or None}


class _OutOfBudget(Exception):
    pass


class _Frame:
    """A position on the search path: its legal moves, the moves still to try, how it stands."""

    __slots__ = ("legal", "todo", "evaluation", "faces", "score", "key", "index", "low")

    def __init__(self, legal: list[Move], todo: list[Move], evaluation: int, faces: int, score: int,
                 key: Any, index: int) -> None:
        self.legal = legal
        self.todo = todo  # best last: they are popped
        self.evaluation = evaluation
        self.faces = faces
        self.score = score
        # Its key, and (a win search) its discovery number and the lowest discovery number of a
        # position on the component stack that it reaches (Tarjan's algorithm, see `_Search.run`).
        self.key = key
        self.index = index
        self.low = index


class _Search:
    """Depth-first search with a table of positions seen, on one game walked by apply and undo."""

    def __init__(self, game: Game, analysis: Analysis, deadline: float, max_positions: int,
                 use_safe: bool = True, clock: Callable[[], float] = time.perf_counter) -> None:
        self.game = game
        self.state = game.state
        self.rules = game.rules
        self.analysis = analysis
        self.deadline = deadline  # on `clock`
        self.clock = clock
        self.max_positions = max_positions
        self.base = len(game.history)  # moves found are those played after the position searched from
        self.nodes = 0
        self.score_goal = not analysis.can_win
        # A score search keeps the best score so far by position (a pure accumulator), or else
        # tells positions apart by the score's variables too.
        self.dominance = self.score_goal and analysis.accumulating
        self.slots = analysis.relevant if analysis.relevant is not None else tuple(range(self.rules.var_count))
        if self.score_goal and not analysis.accumulating:
            self.slots = tuple(sorted(set(self.slots) | set(analysis.objective)))
        self.small_deck = len(self.rules.deck) < 255
        self.seen: dict[Any, int] = {}
        # A win search proves positions lost as it goes, and keeps them across restarts: `dead`
        # holds every position from which no win is reachable. Within a run, `open` numbers the
        # positions of strongly connected components not yet closed (`components` is their stack).
        # Sound only where a position's future does not depend on how it was reached.
        self.proving = not self.score_goal and self.rules.repeat is None
        self.dead: set[Any] = set()
        self.open: dict[Any, int] = {}
        self.components: list[Any] = []
        # `safe:` moves are played alone (the ruleset's promise, trusted) unless `use_safe` is off.
        self.safe_templates = use_safe and any(t.safe is not None for t in self.rules.moves)
        # Right after a turn of the stock, only turns and the moves that do not commute with them
        # (model/turn_runs.py): a win search's pruning, sound for any order of the moves that commute.
        self.runs = None if self.score_goal else turn_runs(self.rules)
        self.solution: list[str] | None = None
        # A score search: the best finished game, and the best position. While no move searched
        # has lowered the score, every position's score can be kept to the end of the game, so
        # the best position counts.
        self.best_final: tuple[int, list[str]] | None = None
        self.best_position: tuple[int, list[str]] | None = None
        self.monotone = True
        # What each kind of move (its template, and whether it uncovers what lay under the cards it
        # takes) has done to the evaluation and to the cards face up, on average: the order to try.
        self.learned: dict[tuple[int, bool], list[float]] = {}
        self.jitter = 0.0  # restarts shake the order of moves (by up to this many places)
        self.rng = random.Random(0)

    # -- positions ----------------------------------------------------------------------------

    def key(self) -> Any:
        """The position's key (its last item False: see `turned_key`)."""
        S = self.state
        V = S.vars
        values = tuple([V[i] for i in self.slots])
        piles: Any = b"\xff".join(map(bytes, S.piles)) if self.small_deck else tuple(map(tuple, S.piles))
        key: Any = (piles, bytes(S.up), values, S.current, S.phase, S.frames, S.next_seat, S.direction, False)
        try:
            hash(key)
        except TypeError:  # a variable holding a list
            key = (piles, bytes(S.up), repr(values), S.current, S.phase, S.frames, S.next_seat, S.direction, False)
        return key

    @staticmethod
    def turned_key(key: Any) -> Any:
        """The key of the position as reached by a turn of the stock: searched with fewer moves,
        so not the same node as the position reached otherwise."""
        return key[:-1] + (True,)

    def so_far(self) -> int:
        """The score now (before any end-of-game effects), as the search compares scores: higher
        is better (negated under `score_order: lower`)."""
        score = self.rules.score
        return 0 if score is None else self.rules.score_sign * int(score(self.state, {"player": 0}))

    def seen_before(self, key: Any, score: int, parent: _Frame | None) -> bool:
        """Was this position searched before (in a score search by dominance: with at least this
        score so far)? In a win search, a position of a component still open lowers the parent's
        `low`; a position searched before and not open is proven lost."""
        if self.proving:
            index = self.open.get(key)
            if index is not None:
                if parent is not None and index < parent.low:
                    parent.low = index
                return True
            return key in self.dead
        old = self.seen.get(key)
        return old is not None and old <= (-score if self.dominance else 0)

    def visit(self, key: Any, score: int, parent: _Frame | None) -> int | None:
        """Mark a position searched and return its discovery number; None when it was searched
        before (see `seen_before`)."""
        return None if self.seen_before(key, score, parent) else self.mark(key, score)

    def mark(self, key: Any, score: int) -> int:
        """Mark a position not searched before as searched; its discovery number."""
        if self.proving:
            self.open[key] = index = self.nodes
            self.components.append(key)
        else:
            self.seen[key] = -score if self.dominance else 0
            index = self.nodes
        self.nodes += 1
        if self.nodes & 31 == 0 or self.nodes == 1:
            if self.clock() > self.deadline:
                raise _OutOfBudget("time ran out")
            if len(self.seen) + len(self.open) + len(self.dead) > self.max_positions:
                raise _OutOfBudget(f"more than {self.max_positions:,} positions")
        return index

    def close(self, frame: _Frame, parent: _Frame | None) -> None:
        """A win search has tried every move of `frame` without a win. If no position it reached is
        still open above it, it closes a component: every position in it is proven lost. Otherwise
        it hands its `low` to its parent."""
        if frame.low == frame.index:
            components, open_, dead = self.components, self.open, self.dead
            while True:
                key = components.pop()
                del open_[key]
                dead.add(key)
                if key == frame.key:
                    break
        elif parent is not None and frame.low < parent.low:
            parent.low = frame.low

    def finished(self) -> bool:
        """At a finished game: record it. True when the search is over (a win)."""
        game = self.game
        if self.score_goal:
            if game.outcome != "limit":
                score = self.rules.score_sign * game.scores()[0]
                if self.best_final is None or score > self.best_final[0]:
                    self.best_final = (score, self.path())
            return False
        if game.outcome == "won":
            self.solution = self.path()
            return True
        return False

    def path(self) -> list[str]:
        """The moves from the position searched from to here (move texts)."""
        return [str(m) for m in self.game.history[self.base:]]

    def best(self) -> tuple[int, list[str]] | None:
        """A score search's answer: the best score the player can end with, and the moves."""
        candidates = [c for c in (self.best_final, self.best_position if self.monotone else None) if c is not None]
        return max(candidates, key=lambda c: c[0]) if candidates else None

    # -- ordering -----------------------------------------------------------------------------

    def _kind(self, move: Move) -> tuple[int, bool]:
        uncovers = False
        if move.src >= 0 and move.count > 0 and move.pick is None:
            pile = self.state.piles[move.src]
            rest = len(pile) - move.count
            uncovers = rest <= 0 or not self.state.up[pile[rest - 1]]
        return move.template, uncovers

    def frame(self, key: Any, index: int, score: int, after_turn: bool = False) -> _Frame:
        """The frame of the position reached (already visited as `index`): a safe move alone, or
        every legal move, the most promising last; after a turn of the stock, not the moves that
        commute with the turns."""
        game = self.game
        legal = game.legal_moves()
        tried = legal
        if after_turn and self.runs is not None:
            commutes = self.runs.commutes
            tried = [m for m in legal if not commutes(m.template, m.src, m.dst)]
        evaluation, faces = game.evaluation(0), self.state.up.count(1)
        if self.safe_templates:
            for move in tried:
                if game.is_safe(move):
                    return _Frame(legal, [move], evaluation, faces, score, key, index)
        learned = self.learned
        ranked = []
        shaking = self.jitter > 0
        rng = self.rng
        for place, move in enumerate(tried):
            stats = learned.get(self._kind(move))
            tie = rng.random() if shaking else -place  # a restart breaks ties at random
            if stats is None:  # a kind never tried: try it early, to learn what it does
                ranked.append((math.inf, math.inf, tie, move))
            else:
                ranked.append((stats[0] / stats[2], stats[1] / stats[2], tie, move))
        ranked.sort(key=lambda r: r[:3])
        if shaking and len(ranked) > 1:  # and shakes the order a little
            shaken = sorted(((i + rng.random() * self.jitter, r[3]) for i, r in enumerate(ranked)),
                            key=lambda r: r[0])
            return _Frame(legal, [m for _, m in shaken], evaluation, faces, score, key, index)
        return _Frame(legal, [r[3] for r in ranked], evaluation, faces, score, key, index)

    def _learn(self, kind: tuple[int, bool], frame: _Frame) -> None:
        gain = self.game.evaluation(0) - frame.evaluation
        turned = self.state.up.count(1) - frame.faces
        stats = self.learned.get(kind)
        if stats is None:
            self.learned[kind] = [gain, turned, 1]
        else:
            stats[0] += gain
            stats[1] += turned
            stats[2] += 1

    # -- the walk -----------------------------------------------------------------------------

    def run(self, limit: float = math.inf) -> bool:
        """One depth-first search from the game's position, over at most `limit` new positions.
        True when it was not cut short: every reachable position was searched."""
        game = self.game
        self.seen, self.open, self.components = {}, {}, []
        stop = self.nodes + limit
        if game.is_over:
            self.finished()
            return True
        score_goal = self.score_goal
        proving = self.proving
        score = self.so_far() if score_goal else 0
        if score_goal:
            self._position(score)
        key = self.key()
        index = self.visit(key, score, None)
        if index is None:  # proven lost by an earlier restart
            return True
        stack = [self.frame(key, index, score)]
        # Moves are applied unsettled: a position seen before then costs no listing of its moves
        # (most moves in a search reach one, and are taken back at once).
        lazy = game.rules.repeat is None
        runs = self.runs
        while stack:
            frame = stack[-1]
            if not frame.todo:
                stack.pop()
                if proving:
                    self.close(frame, stack[-1] if stack else None)
                if stack:
                    game.undo(stack[-1].legal)
                continue
            move = frame.todo.pop()
            kind = self._kind(move)
            after_turn = runs is not None and move.template in runs.turns
            game.apply(move, settle=not lazy)
            if score_goal:
                score = self.so_far()
                if score < frame.score:
                    self.monotone = False
            key = every_move = self.key()
            if after_turn:
                key = self.turned_key(key)
            if lazy:
                # Reached by a turn, the position searched with every move counts as well.
                if not game.is_over and (self.seen_before(key, score, frame)
                                         or after_turn and self.seen_before(every_move, score, frame)):
                    game.undo(frame.legal)
                    continue
                game.settle()
            self._learn(kind, frame)  # what a move to a new position did
            if game.is_over:
                if self.finished():
                    return False
            elif self.nodes >= stop:  # this restart's share is spent: back to the start
                game.undo()
                while len(stack) > 1:
                    stack.pop()
                    game.undo()
                return False
            else:
                # unsettled, the position was just found new; settled, it is checked here
                index = self.mark(key, score) if lazy else self.visit(key, score, frame)
                if index is not None:
                    if score_goal:
                        self._position(score)
                    stack.append(self.frame(key, index, score, after_turn))
                    continue
            game.undo(frame.legal)
        return True

    def _position(self, score: int) -> None:
        if self.best_position is None or score > self.best_position[0]:
            self.best_position = (score, self.path())

    # -- shorter solutions --------------------------------------------------------------------

    def shorten(self, moves: list[str], deadline: float) -> list[str]:
        """Cut detours out of moves found depth first: from each position on their path, a move that
        reaches a later position of the path (the same key, and in a score search no lower score
        so far) jumps there. Rounds repeat while they shorten the moves and time is left. The
        moves must lead to a win, or to the score to keep. The game is left where it started."""
        game = self.game
        depth = len(game.history)
        for _ in range(8):
            keys: dict[Any, int] = {}
            scores: list[int] = []
            try:
                for i, text in enumerate(moves):
                    keys[self.key()] = i
                    scores.append(self.so_far())
                    game.apply(game.parse_move(text))
                final = len(moves)
                ended = game.is_over
                goal = (game.scores()[0] if ended else self.so_far()) if self.score_goal else 0
                if not ended:
                    keys[self.key()] = final
                    scores.append(goal)
            finally:
                while len(game.history) > depth:
                    game.undo()
            shorter: list[str] = []
            i = 0
            try:
                while i < final:
                    if self.clock() > deadline:
                        return moves
                    best, best_j = None, i + 1
                    for move in game.legal_moves():
                        game.apply(move)
                        if game.is_over:
                            done = ended and (game.outcome == "won" if not self.score_goal else
                                              game.outcome != "limit" and game.scores()[0] >= goal)
                            j = final if done else -1
                        else:
                            j = keys.get(self.key(), -1)
                            if j > best_j and self.score_goal and self.so_far() < scores[j]:
                                j = -1
                        game.undo()
                        if j > best_j:
                            best, best_j = move, j
                    if best is None:
                        best = game.parse_move(moves[i])
                    shorter.append(str(best))
                    game.apply(best)
                    i = best_j
            finally:
                while len(game.history) > depth:
                    game.undo()
            if len(shorter) >= len(moves):
                break
            moves = shorter
        return moves


def solve_game(game: Game, timeout: float | None = DEFAULT_TIMEOUT,
               max_positions: int | None = None, *, use_safe: bool = True, clock: str = "wall",
               shorten_timeout: float | None = None, engine: str = "python") -> SolveResult:
    """Search a game from where it stands, seeing every card. The game is left where it started,
    and the moves of the answer are those to play from there (not the game's earlier moves).

    Start it with a huge `max_moves` (see `new_search_game`): a game that ends `limit` is no win.
    The search restarts: short depth-first searches (the Luby sequence of position budgets),
    each after the first with the order of moves shaken, until one wins or one searches every
    reachable position without being cut short (the deal is then unsolvable, or the best score
    found is optimal).

    `use_safe=False` ignores the ruleset's `safe:` claims (every legal move is tried: slower, but
    it checks them). `max_positions` bounds the positions kept (None: the engine's default, in
    base/limits.py; past it the answer is `unknown`). `timeout` bounds the search in seconds of `clock` ("wall": elapsed time;
    "cpu": this process's CPU time, which a loaded machine does not eat into). A solution found
    is then shortened within `shorten_timeout` seconds of the same clock (None: a quarter of
    `timeout`; math.inf: no limit but its rounds), or at least `timeout` while it is longer than
    the ruleset's move limit. The result reports the search's time and the shortening's apart.

    `engine="native"` runs the search in compiled code (native/solver.py; a win search of a
    ruleset the native backend covers, else `Unsupported` says why): the same search, answers
    resting on the same things, many times the positions a second. Compiling it (once per
    ruleset, then cached) is not counted on the clock.
    """
    tick = _clock(clock)
    check_solvable_ruleset(game.rules)
    if engine not in SOLVER_ENGINES:
        raise SolveError(f"engine {engine!r}: choose {' or '.join(SOLVER_ENGINES)}")
    if max_positions is None:
        max_positions = DEFAULT_MAX_POSITIONS_NATIVE if engine == "native" else DEFAULT_MAX_POSITIONS
    analysis = analyse(game.rules)
    native = None
    if engine == "native" and not game.is_over:
        from ..native import Unsupported
        from ..native.solver import NativeSearch

        slots = analysis.relevant if analysis.relevant is not None else range(game.rules.var_count)
        try:
            native = NativeSearch(game, slots, max_positions, use_safe)
        except Unsupported as exc:
            raise SolveError(f"the native solver cannot search this game: {exc} (engine='python' can)") from None
    start = tick()
    deadline = start + timeout if timeout is not None else math.inf
    search = _Search(game, analysis, deadline, max_positions, use_safe, tick)
    goal = "win" if analysis.can_win else "score"
    depth = len(game.history)
    reason = ""
    exhausted = False
    if native is not None:
        actions, exhausted, reason = native.run(deadline, tick, _restart_limits())
        search.nodes = native.nodes
        if actions is not None:
            search.solution = [str(m) for m in native.moves(actions)]
    else:
        try:
            for attempt, limit in enumerate(_restart_limits()):
                search.jitter = 0.0 if attempt == 0 else RESTART_JITTER if attempt % 2 else 1000.0
                search.rng = random.Random(attempt)
                if search.run(limit) or search.solution is not None:
                    break
            exhausted = search.solution is None
        except _OutOfBudget as exc:
            reason = str(exc)
        finally:
            while len(game.history) > depth:
                game.undo()
    searched = tick()
    best = search.best()
    found = search.solution if search.solution is not None else best[1] if best is not None else []
    if len(found) > 1:  # cut detours: within their own budget, and more if the moves are past the move limit
        budget = shorten_budget(timeout, shorten_timeout)
        if depth + len(found) > game.rules.max_moves:
            budget = max(budget, timeout if timeout is not None else math.inf)
        if budget > 0:
            found = search.shorten(found, searched + budget)
    if best is not None and found and search.monotone:  # the score cannot fall: stop where it is reached
        found = _first_reaching(game, found, best[0])
    end = tick()
    if goal == "win":
        answer = SOLVABLE if search.solution is not None else UNSOLVABLE if exhausted else UNKNOWN
        score = None
    else:
        answer = (UNSOLVABLE if exhausted else UNKNOWN) if best is None else OPTIMAL if exhausted else BEST_FOUND
        score = game.rules.score_sign * best[0] if best is not None else None
    if answer in (SOLVABLE, OPTIMAL, UNSOLVABLE):
        reason = ""
    if answer in (UNSOLVABLE, UNKNOWN):
        found = []
    return SolveResult(answer, found, search.nodes, end - start, score, goal, reason,
                       search_seconds=searched - start, shorten_seconds=end - searched, clock=clock,
                       safe_moves=use_safe, engine=engine)


def choose_solver_engine(rules: Ruleset, engine: str, note: Callable[[str], None]) -> str:
    """The engine a search will use: `native` where asked for and able to search the ruleset
    (compiled here, so that worker processes find it in the cache), else `python`, with one line
    to `note` saying why."""
    if engine not in SOLVER_ENGINES:
        raise SolveError(f"engine {engine!r}: choose {' or '.join(SOLVER_ENGINES)}")
    if engine == "python":
        return engine
    from ..native import Unsupported, native_backend

    try:
        if rules.repeat is not None:
            from ..native.solver import REPEAT_UNSEARCHED

            raise Unsupported(REPEAT_UNSEARCHED)
        if not analyse(rules).can_win or "won" not in native_backend(rules).results:
            raise Unsupported("a search for the best score: the ruleset never ends won")
    except Unsupported as exc:
        note(f"native solver: not for this ruleset ({exc}); searching with Python")
        return "python"
    return engine


def shorten_budget(timeout: float | None, shorten_timeout: float | None) -> float:
    """The seconds a solution's shortening may take: `shorten_timeout`, or by default a quarter of
    the search's `timeout` (no limit but the rounds' when the search has none)."""
    if shorten_timeout is not None:
        return shorten_timeout
    return timeout * SHORTEN_SHARE if timeout is not None else math.inf


def _clock(name: str) -> Callable[[], float]:
    try:
        return CLOCKS[name]
    except KeyError:
        raise SolveError(f"unknown clock {name!r}: use " + " or ".join(CLOCKS)) from None


def _first_reaching(game: Game, moves: list[str], score: int) -> list[str]:
    """The moves up to the first position (not a finished game) where the score so far, as the
    search compares scores, reaches `score`."""
    rules = game.rules
    depth = len(game.history)
    try:
        for i, text in enumerate(moves):
            if (rules.score is not None and not game.is_over
                    and rules.score_sign * rules.score(game.state, {"player": 0}) >= score):
                return moves[:i]
            game.apply(game.parse_move(text))
    finally:
        while len(game.history) > depth:
            game.undo()
    return moves


def _restart_limits(base: int = RESTART_BASE) -> Iterable[int]:
    """Positions allowed to each restart: base times the Luby sequence 1 1 2 1 1 2 4 1 1 2 ..."""
    i = 1
    while True:
        k = 1
        while (1 << k) - 1 < i:
            k += 1
        j = i
        while j != (1 << k) - 1:  # luby(i) = luby(i - 2^(k-1) + 1) until i = 2^k - 1
            j -= (1 << (k - 1)) - 1
            k = 1
            while (1 << k) - 1 < j:
                k += 1
        yield base * (1 << (k - 1))
        i += 1


def new_search_game(rules: Ruleset, seed: int | None = None, deal: list[str] | str | None = None) -> Game:
    """A game to search: one seat, and a move limit it never reaches."""
    return Game(rules, seed=seed, deal=deal, players=1, max_moves=SEARCH_MAX_MOVES)


def hidden_cards(game: Game) -> int:
    """How many cards the player cannot see."""
    return sum(1 for pile, cards in enumerate(game.state.piles) for card in cards
               if not game.visible(card, pile, 0))


def check_solvable_ruleset(rules: Ruleset) -> None:
    if rules.min_players > 1 or rules.simultaneous:
        seats = f"{rules.min_players}-{rules.max_players}" if rules.min_players != rules.max_players \
            else str(rules.min_players)
        raise SolveError(f"{rules.name} is a game for {seats} players; the solver answers only one-player "
                         f"games (for several seats, pit bots against each other with --seat)")
    if rules.shuffles_in_play is not None:
        raise SolveError(f"{rules.name} shuffles cards during play (or places one at random): what a shuffle "
                         f"brings is chance, not a "
                         f"choice, so no line of play is sure to win and the solver answers only games dealt "
                         f"once, at the start (for a game with chance, measure it with bots: cardrules simulate)",
                         rules.shuffles_in_play)


def check_visibility(game: Game, thoughtful: bool) -> None:
    hidden = hidden_cards(game)
    if hidden and not thoughtful:
        raise SolveError(
            f"the player cannot see {hidden} of the cards in this deal. The solver looks at every card, so "
            f"its answer is for 'thoughtful' play (all cards known), the usual way solitaires are analysed: "
            f"add --thoughtful to solve it so. A strategy that cannot see the cards is a bot: try "
            f"`cardrules simulate {game.rules.name} --seat 1=ismcts`.")


def replay(rules: Ruleset, moves: Sequence[str], seed: int | None = None,
           deal: list[str] | str | None = None) -> Game:
    """Play move texts from the deal's start, as `cardrules play` would (with the ruleset's move
    limit); moves left after the game has ended are not played."""
    game = rules.new_game(seed=seed, deal=deal, players=1)
    for text in moves:
        if game.is_over:
            break
        game.apply(game.parse_move(text))
    return game


def solve(rules: Ruleset, seed: int | None = None, deal: list[str] | str | None = None,
          thoughtful: bool = False, timeout: float | None = DEFAULT_TIMEOUT,
          max_positions: int | None = None, *, use_safe: bool = True, clock: str = "wall",
          shorten_timeout: float | None = None, engine: str = "python") -> SolveResult:
    """Solve one deal of a one-player ruleset (refusing hidden cards unless `thoughtful`). The
    keywords are `solve_game`'s: `use_safe=False` ignores `safe:`; `clock` is "wall" or "cpu";
    `engine` "python" or "native"."""
    check_solvable_ruleset(rules)
    _clock(clock)
    game = new_search_game(rules, seed, deal)
    check_visibility(game, thoughtful)
    return solve_game(game, timeout, max_positions, use_safe=use_safe, clock=clock,
                      shorten_timeout=shorten_timeout, engine=engine)


# ---------------------------------------------------------------------------------------------
# Many deals


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if n == 0:
        return float("nan"), float("nan")
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(max(0.0, p * (1 - p)) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: Sequence[float], q: float) -> float:
    """The q-quantile (0..1) with linear interpolation."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    position = q * (len(ordered) - 1)
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


_WORKER: dict[str, Any] = {}


def _worker_init(ruleset: str, options: dict[str, Any], search_path: tuple[str, ...] = ()) -> None:
    _WORKER["rules"] = load_ruleset(ruleset, options, search_path)


def _worker_solve(job: tuple[int, bool, float | None, int | None, dict[str, Any]]) -> dict[str, Any]:
    """One deal of a sample: its answer without the moves, and whether a solution replays to a win."""
    seed, thoughtful, timeout, max_positions, keywords = job
    rules = _WORKER["rules"]
    result = solve(rules, seed=seed, thoughtful=thoughtful, timeout=timeout, max_positions=max_positions, **keywords)
    data = {"seed": seed, **result.as_dict()}
    del data["moves"]
    if result.answer == SOLVABLE:
        data["replays"] = replay(rules, result.moves, seed=seed).outcome == "won"
    return data


def solve_sample(ruleset: str, options: dict[str, Any], count: int, thoughtful: bool = False,
                 timeout: float | None = DEFAULT_TIMEOUT, jobs: int = 1, first_seed: int = 1,
                 max_positions: int | None = None,
                 progress: Callable[[dict[str, Any]], None] | None = None,
                 search_path: tuple[str, ...] = (), *, use_safe: bool = True, clock: str = "wall",
                 shorten_timeout: float | None = None, engine: str = "python") -> dict[str, Any]:
    """Solve seeds first_seed..first_seed+count-1 (in `jobs` processes, each compiling the ruleset
    once) and sum up: the solvable share with its 95% Wilson interval, unknowns, time per deal.
    The keywords are `solve_game`'s (a "cpu" clock counts each worker's own CPU time)."""
    rules = load_ruleset(ruleset, options, search_path)
    check_solvable_ruleset(rules)
    _clock(clock)
    check_visibility(new_search_game(rules, seed=first_seed), thoughtful)
    seeds = range(first_seed, first_seed + count)
    keywords = {"use_safe": use_safe, "clock": clock, "shorten_timeout": shorten_timeout, "engine": engine}
    work = [(seed, thoughtful, timeout, max_positions, keywords) for seed in seeds]
    results: list[dict[str, Any]] = []
    started = time.perf_counter()
    if jobs <= 1:
        _WORKER["rules"] = rules
        for job in work:
            results.append(_worker_solve(job))
            if progress:
                progress(results[-1])
    else:
        with ProcessPoolExecutor(max_workers=jobs, initializer=_worker_init,
                                 initargs=(ruleset, dict(rules.option_values), search_path)) as pool:
            for result in pool.map(_worker_solve, work):
                results.append(result)
                if progress:
                    progress(result)
    wall = time.perf_counter() - started
    summary = summarise(rules, results, timeout, jobs, wall)
    budget = shorten_budget(timeout, shorten_timeout)
    summary.update({"clock": clock, "safe_moves": use_safe, "engine": engine, "shorten_timeout": None if math.isinf(budget) else budget,
                    "results": summary.pop("results")})
    return summary


def _median(values: Iterable[float]) -> float | None:
    listed = list(values)
    return round(statistics.median(listed), 4) if listed else None


def summarise(rules: Ruleset, results: list[dict[str, Any]], timeout: float | None, jobs: int,
              wall: float) -> dict[str, Any]:
    n = len(results)
    answers = {a: sum(1 for r in results if r["answer"] == a)
               for a in (SOLVABLE, UNSOLVABLE, UNKNOWN, OPTIMAL, BEST_FOUND)}
    times = [r["seconds"] for r in results]
    summary: dict[str, Any] = {
        "ruleset": rules.name, "options": rules.option_values, "deals": n,
        "seeds": [results[0]["seed"], results[-1]["seed"]] if results else [],
        "timeout": timeout, "jobs": jobs, "wall_seconds": round(wall, 3),
        "answers": {k: v for k, v in answers.items() if v},
        "unknown": answers[UNKNOWN],
        "median_seconds": round(statistics.median(times), 4) if times else None,
        "p90_seconds": round(percentile(times, 0.9), 4) if times else None,
        # the two parts of a deal's time: the search, and the shortening of a solution found
        "median_search_seconds": _median(r.get("search_seconds", r["seconds"]) for r in results),
        "median_shorten_seconds": _median(r.get("shorten_seconds", 0.0) for r in results),
        "goal": results[0]["goal"] if results else ("win" if analyse(rules).can_win else "score"),
    }
    if summary["goal"] == "win":
        solvable = answers[SOLVABLE]
        low, high = wilson(solvable, n)
        summary.update({"solvable": solvable, "not_replaying": sum(1 for r in results if r.get("replays") is False), "share": solvable / n if n else None, "interval": [low, high],
                        "share_if_unknown_solvable": (solvable + answers[UNKNOWN]) / n if n else None})
    else:
        scores = [r["score"] for r in results if r["score"] is not None]
        summary.update({"optimal": answers[OPTIMAL],
                        "mean_score": statistics.mean(scores) if scores else None,
                        "median_score": statistics.median(scores) if scores else None,
                        "min_score": min(scores) if scores else None, "max_score": max(scores) if scores else None})
    summary["results"] = results
    return summary


# ---------------------------------------------------------------------------------------------
# The command


def _option_pairs(items: Iterable[str]) -> dict[str, str]:
    pairs = {}
    for item in items:
        if "=" not in item:
            raise SolveError(f"expected --option NAME=VALUE, got {item!r}")
        name, value = item.split("=", 1)
        pairs[name.strip()] = value.strip()
    return pairs


def _option_text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _replay_hint(rules: Ruleset, ruleset: str, seed: int | None, deal: Path | None) -> str:
    where = f"--seed {seed}" if seed is not None else f"--deal {shlex.quote(str(deal))}"
    options = "".join(f" -o {k}={_option_text(v)}" for k, v in rules.option_values.items()
                      if v != rules.options[k].default)
    return f"cardrules play {shlex.quote(ruleset)} {where}{options}"


def _percent(x: float) -> str:
    return f"{100 * x:.1f}%"


def solve_command(ruleset: str, seed: int | None, deal: Path | None, options: Sequence[str], thoughtful: bool,
                  timeout: float | None, sample: int | None, jobs: int, as_json: bool, console: Console,
                  err_console: Console | None = None, max_positions: int | None = None,
                  search_path: Sequence[str] = (), use_safe: bool = True, clock: str = "wall",
                  shorten_timeout: float | None = None, engine: str = "python") -> int:
    """`cardrules solve`: solve one deal (--seed or --deal) or a sample of seeds. Returns the exit
    code: 0 when the search answered (whatever the answer), 1 for an error or a refusal. A
    timeout of None or infinity sets no time limit (the bound on positions kept still holds);
    a shortening timeout of None is a quarter of the timeout, infinity no limit. `use_safe`
    False ignores the ruleset's `safe:` claims; `clock` ("wall" or "cpu") is what the timeouts
    count; `engine` "native" searches in compiled code where it can (else one line says why)."""
    errors = err_console if err_console is not None else terminal_console(stderr=True, highlight=False)
    try:
        if sample is not None:
            if seed is not None or deal is not None:
                raise SolveError("--sample solves seeds 1..N: give it without --seed or --deal")
            if sample < 1:
                raise SolveError("--sample needs a number of deals, 1 or more")
        elif (seed is None) == (deal is None):
            raise SolveError("give --seed N or --deal FILE (or --sample N)")
        if timeout is not None and not timeout >= 0:
            raise SolveError("--timeout must be a number of seconds, 0 or more (inf: no limit)")
        if timeout is not None and math.isinf(timeout):
            timeout = None
        if shorten_timeout is not None and not shorten_timeout >= 0:
            raise SolveError("--shorten-timeout must be a number of seconds, 0 or more (inf: no limit)")
        if clock not in CLOCKS:
            raise SolveError(f"--clock must be {' or '.join(CLOCKS)}, not {clock!r}")
        if max_positions is not None and max_positions < 1:
            raise SolveError("--max-positions needs a number of positions, 1 or more")
        chosen = _option_pairs(options)
        folders = tuple(str(Path(p).expanduser().resolve()) for p in search_path)
        rules = load_ruleset(ruleset, chosen, folders)
        check_solvable_ruleset(rules)
        engine = choose_solver_engine(rules, engine, lambda line: errors.print(line, markup=False, highlight=False))
        if sample is not None:
            return _sample_command(ruleset, rules, sample, thoughtful, timeout, max(1, jobs), as_json, console,
                                   max_positions, folders, use_safe=use_safe, clock=clock,
                                   shorten_timeout=shorten_timeout, engine=engine)
        deal_text: list[str] | None = None
        if deal is not None:
            text = read_bounded(deal, str(deal), DealError)
            order = rules.deck.parse_order(text, str(deal), cards=rules.deck_cards.get(1))
            deal_text = [rules.deck.codes[c] for c in order]
        result = solve(rules, seed=seed, deal=deal_text, thoughtful=thoughtful, timeout=timeout,
                       max_positions=max_positions, use_safe=use_safe, clock=clock, shorten_timeout=shorten_timeout,
                       engine=engine)
    except CardrulesError as error:
        errors.print(Text(printable(format_error(error))), highlight=False)
        return 1
    if result.answer == SOLVABLE:  # the moves must win as `cardrules play` plays them
        check = replay(rules, result.moves, seed=seed, deal=deal_text)
        if check.outcome != "won":
            result.reason = (f"the solution does not win when replayed ({check.outcome}: {check.reason}); "
                             f"it is {len(result.moves)} moves long")
    if as_json:
        budget = shorten_budget(timeout, shorten_timeout)
        data = {"ruleset": rules.name, "seed": seed, "deal": deal_text if seed is None else None,
                "options": rules.option_values, "thoughtful": thoughtful, "timeout": timeout,
                "shorten_timeout": None if math.isinf(budget) else budget, **result.as_dict()}
        console.print(json.dumps(data, indent=2), markup=False, highlight=False, soft_wrap=True)
        return 0
    unit = " CPU" if clock == "cpu" else ""
    stats = f"{result.nodes:,} positions, search {result.search_seconds:.2f} s{unit}"
    if result.moves:
        stats += f", shortening {result.shorten_seconds:.2f} s{unit}"
    if not use_safe:
        stats += ", safe: ignored"
    # Text, not markup: a reason may quote the ruleset (its end reasons), printed as it is.
    if result.goal == "win":
        if result.answer == SOLVABLE:
            console.print(Text.assemble(("solvable", "bold green"), f" in {len(result.moves)} moves ({stats})"))
        elif result.answer == UNSOLVABLE:
            console.print(Text.assemble(("unsolvable", "bold red"), f": no reachable position wins ({stats}, "
                                        "all searched)"))
            if use_safe and any(t.safe is not None for t in rules.moves):
                console.print("this trusts the ruleset's safe: claims; --no-safe checks them", style="dim",
                              markup=False, highlight=False)
        else:
            console.print(Text.assemble(("unknown", "bold yellow"), f": {result.reason} before an answer ({stats})"))
    else:
        if result.score is None:
            what = "no game end is reachable" if result.answer == UNSOLVABLE else f"{result.reason}, no end reached"
            console.print(Text.assemble((result.answer, "bold yellow"), f": {what} ({stats})"))
        else:
            how = "optimal: every reachable position searched" if result.answer == OPTIMAL \
                else f"best found: {result.reason}"
            console.print(Text.assemble("best score ", (str(result.score), "bold"),
                                        f" in {len(result.moves)} moves ({how}; {stats})"))
    if result.moves:
        console.print(" ".join(result.moves), markup=False, highlight=False, soft_wrap=True)
        console.print("replay: printf '%s\\n' " + " ".join(shlex.quote(m) for m in result.moves)
                      + " | " + _replay_hint(rules, ruleset, seed, deal),
                      markup=False, highlight=False, soft_wrap=True, style="dim")
    if result.reason and result.answer == SOLVABLE:
        console.print(Text(f"warning: {result.reason}"), highlight=False)
    return 0


def _sample_command(ruleset: str, rules: Ruleset, count: int, thoughtful: bool, timeout: float | None,
                    jobs: int, as_json: bool, console: Console, max_positions: int | None = None,
                    search_path: tuple[str, ...] = (), *, use_safe: bool = True, clock: str = "wall",
                    shorten_timeout: float | None = None, engine: str = "python") -> int:
    done: list[dict[str, Any]] = []
    keywords: dict[str, Any] = {"use_safe": use_safe, "clock": clock, "shorten_timeout": shorten_timeout,
                                "engine": engine}

    def progress(result: dict[str, Any]) -> None:
        done.append(result)
        if status is not None:
            solved = sum(1 for r in done if r["answer"] in (SOLVABLE, OPTIMAL))
            status.update(f"solving: {len(done)}/{count} deals, {solved} solved")

    status = console.status(f"solving: 0/{count} deals") if console.is_terminal and not as_json else None
    if status is not None:
        with status:
            summary = solve_sample(ruleset, dict(rules.option_values), count, thoughtful, timeout, jobs,
                                   max_positions=max_positions, progress=progress, search_path=search_path,
                                   **keywords)
    else:
        summary = solve_sample(ruleset, dict(rules.option_values), count, thoughtful, timeout, jobs,
                               max_positions=max_positions, search_path=search_path, **keywords)
    if as_json:
        console.print(json.dumps(summary, indent=2), markup=False, highlight=False, soft_wrap=True)
        return 0
    n = summary["deals"]
    head = [rules.title, f"seeds 1-{n}"] + [f"{k}={_option_text(v)}" for k, v in rules.option_values.items()]
    unit = " CPU" if clock == "cpu" else ""
    head.append(f"timeout {timeout:g} s{unit}" if timeout is not None else "no timeout")
    head.append(f"{jobs} job{'s' if jobs > 1 else ''}" + (", thoughtful" if thoughtful else "")
                + ("" if use_safe else ", safe: ignored"))
    console.print(Text("  ".join(head)), highlight=False)
    if summary["goal"] == "win":
        low, high = summary["interval"]
        answers = summary["answers"]
        console.print(f"solvable {summary['solvable']}/{n} = {_percent(summary['share'])}  "
                      f"[95% CI {_percent(low)} - {_percent(high)}]", markup=False, highlight=False)
        console.print(f"unsolvable {answers.get(UNSOLVABLE, 0)}, unknown {summary['unknown']}"
                      + (f" (if every unknown were solvable: {_percent(summary['share_if_unknown_solvable'])})"
                         if summary["unknown"] else ""), markup=False, highlight=False)
        if summary["not_replaying"]:
            console.print(f"warning: {summary['not_replaying']} solutions do not win when replayed (past the "
                          f"move limit?)", markup=False, highlight=False)
    else:
        console.print(f"best score: mean {summary['mean_score']:.1f}  median {summary['median_score']:g}  "
                      f"min {summary['min_score']}  max {summary['max_score']}  "
                      f"(optimal {summary['optimal']}/{n}, unknown {summary['unknown']})"
                      if summary["mean_score"] is not None else f"no deal reached an end (unknown {summary['unknown']})",
                      markup=False, highlight=False)
    console.print(f"{'CPU time' if clock == 'cpu' else 'time'} per deal: median {summary['median_seconds']:.2f} s (search "
                  f"{summary['median_search_seconds']:.2f} s, shortening {summary['median_shorten_seconds']:.2f} s), "
                  f"90th percentile {summary['p90_seconds']:.2f} s; wall {summary['wall_seconds']:.1f} s",
                  markup=False, highlight=False)
    return 0


__all__ = ["Analysis", "SolveError", "SolveResult", "analyse", "check_solvable_ruleset", "check_visibility",
           "choose_solver_engine",
           "hidden_cards", "new_search_game", "percentile", "replay", "shorten_budget", "solve", "solve_command",
           "solve_game", "solve_sample", "summarise", "wilson"]
