"""Which variables matter to the solver (workbench/solver.py): a walk over a ruleset's compiled rules.

`analyse` follows the compiled effects, triggers and end conditions once per ruleset to find the
variables that steer the game (kept in the search's position key), whether the game can end
`won`, and how its score is made (whether it only accumulates).
"""

from __future__ import annotations

import re
import types
import weakref
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from ..front.compiler import names_in, variable_reads
from ..model.ruleset import Ruleset


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
