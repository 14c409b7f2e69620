"""Which moves commute with the turns of a stock: the solvers' pruning of turn runs.

A solitaire's stock turns (turning cards onto the waste, turning the waste over) touch only the
stock, the waste and a pass counter. A move that touches none of those (a column's card to a
foundation) can be played before a run of turns as well as after it, with the same result. So
a search may, right after a turn, try only turns and the moves that use what the turns use:
every game can be put in that
order (the moves that commute moved before the turns, the turns that come back round dropped),
so a win is still found if there is one, and `unsolvable` stays a proof. This is Solvitaire's
folding of stock turns, said of any ruleset: the search keeps a bit in each position's key
saying whether it was reached by a turn (positions reached by a turn are searched with fewer
moves, so the two are not the same node).

`turn_runs` decides it from the rules, conservatively: the whole analysis is refused (no pruning)
where a part of the rules it cannot place could tell the orders apart. The same walk over what a
part of the rules names answers the engine's other question of that kind: whether a move made
out of turn may depend on hidden cards (`reads_hidden_cards`).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..front.parser import (
    Binary,
    Call,
    Name,
    Node,
    ParseError,
    parse_expression,
    parse_loop,
)

# Effects a turn or a commuting move may have: they change only the piles and variables they name.
PLAIN_EFFECTS = frozenset({"move", "turn_up", "turn_down", "set", "add", "if", "then", "else", "for", "do"})
# Parts of a move that name what it reads or changes (the rest is text for people).
MOVE_PARTS = frozenset({"take", "when", "match", "safe", "do"})


@dataclass(frozen=True)
class TurnRuns:
    """The turns (template numbers), the piles they use, and the moves that commute with them
    when neither their source nor their destination is one of those piles."""

    turns: frozenset[int]
    piles: frozenset[int]
    commuting: frozenset[int]

    def commutes(self, template: int, src: int, dst: int) -> bool:
        """Does a move of `template` from pile `src` to pile `dst` (-1: none) commute with the turns?"""
        return template in self.commuting and src not in self.piles and dst not in self.piles


class _Names:
    """The zones and variables a part of the rules names (a user function's body counted where
    it is called); `unplaced` when it calls `legal_moves()`, which reads every move's rules."""

    def __init__(self, rules: Any) -> None:
        front = rules.front_end
        self.zones = set(rules.zones)
        self.single = {name for name, zone in rules.zones.items() if len(zone.piles) == 1}
        self.variables = set(front.scope.variables)
        self.functions: dict[str, str] = {}
        for signature, body in (front.data.get("functions") or {}).items():
            if isinstance(signature, str) and isinstance(body, str):
                self.functions[signature.split("(")[0].strip()] = body
        self.unplaced = False
        self._bodies: dict[str, frozenset[str]] = {}

    def of_text(self, text: str) -> set[str]:
        found: set[str] = set()
        try:
            self._walk(parse_expression(text), found)
        except ParseError:
            if text in self.zones or text in self.variables:
                found.add(text)
        return found

    def of_value(self, value: Any, skip: frozenset[str] = frozenset()) -> set[str]:
        """Names in a YAML value: every string (a key naming a variable, as in `add`, too)."""
        found: set[str] = set()
        if isinstance(value, dict):
            for key, item in value.items():
                if key in skip:
                    continue
                if isinstance(key, str) and (key in self.variables or key in self.zones):
                    found.add(key)
                if key == "for" and isinstance(item, str):
                    try:
                        self._walk(parse_loop(item).iterable, found)
                    except ParseError:
                        self.unplaced = True
                    continue
                found |= self.of_value(item)
        elif isinstance(value, list):
            for item in value:
                found |= self.of_value(item)
        elif isinstance(value, str):
            found |= self.of_text(value)
        return found

    def _walk(self, node: Any, found: set[str]) -> None:
        if isinstance(node, Name):
            if node.name in self.zones or node.name in self.variables:
                found.add(node.name)
            return
        if isinstance(node, Binary) and node.op in ("==", "!=", "in", "notin"):
            # A pile compared with a zone's pile (`src != waste`), or looked for among a zone's
            # piles (`src in tableau`): which pile it is, not what the pile holds.
            sides = [node.left, node.right] if node.op in ("==", "!=") else [node.right]
            identity = [s for s in sides if isinstance(s, Name) and s.name in self.zones
                        and (node.op in ("==", "!=") or s.name not in self.single)]
            if identity:
                for side in (node.left, node.right):
                    if side not in identity:
                        self._walk(side, found)
                return
        if isinstance(node, Call):
            if node.func == "legal_moves":
                self.unplaced = True
            elif node.func in self.functions:
                found |= self._body(node.func)
        if isinstance(node, Node):
            for field in dataclasses.fields(node):
                self._walk(getattr(node, field.name), found)
        elif isinstance(node, tuple):
            for part in node:
                self._walk(part, found)

    def _body(self, name: str) -> frozenset[str]:
        if name not in self._bodies:
            self._bodies[name] = frozenset()  # a recursive call adds nothing more
            self._bodies[name] = frozenset(self.of_text(self.functions[name]))
        return self._bodies[name]


def reads_hidden_cards(rules: Any, moves: Iterable[str]) -> bool:
    """Might whether one of these moves is legal depend on a card some seat cannot see? Yes where
    its parts name a zone whose cards are not all public (`visibility` other than `all`), a
    variable that may hold piles, or `legal_moves()`: an over-approximation, names not values."""
    from ..front.compiler import ANY, PILE, PILES

    names, found = _Names(rules), set()
    data = rules.front_end.data["moves"]
    for name in moves:
        parts = {part: value for part, value in data[name].items()
                 if part in ("from", "take", "when", "match", "for_seat", "select")}
        found |= names.of_value(parts)
        if re.search(r"\bdst\b", repr(parts)):  # the destination's cards are read
            found |= names.of_value(data[name].get("to"))
    variables = rules.front_end.scope.variables
    return names.unplaced or any(rules.zones[n].visibility != "all" for n in found if n in rules.zones) or \
        any(variables[n][1] in (PILE, PILES, ANY) for n in found if n in variables)


def variables_may_hold_piles(rules: Any) -> bool:
    """Might a variable hold a pile (or piles)? Then a rule can reach a pile's cards through it
    without naming the pile's zone. Decided from the kinds the front end gave the variables
    (`Ruleset.variable_kinds`): any that is not surely a number or a truth value might."""
    from ..front.compiler import BOOL, INT

    return any(kind not in (INT, BOOL) for kind in rules.variable_kinds.values())


def effect_paths(effects: Any, path: tuple[Any, ...]) -> Iterable[tuple[tuple[Any, ...], str]]:
    """Every effect in a list of effects as written (nested ones included): its path and its name."""
    if isinstance(effects, list):
        for i, effect in enumerate(effects):
            if isinstance(effect, dict):
                for key in effect:
                    if isinstance(key, str):
                        yield path + (i, key), key
                for key in ("then", "else", "do"):
                    yield from effect_paths(effect.get(key), path + (i, key))
            elif isinstance(effect, str):
                yield path + (i,), effect


def turn_runs(rules: Any) -> TurnRuns | None:
    """The turns of a stock and the moves that commute with them, or None where the rules give
    no such turns or could tell the orders apart. A set of turns is the moves that name nothing
    but some zones and variables (and have `from` and `to` among those zones); a move commutes
    with them when it names none of those (but in `from`/`to`: decided per pile). Refused: more
    than one seat or a turn's phases, turns among piles that cover one another, `repeat`, a variable that may hold a pile, `legal_moves()`, a trigger that may run after a
    turn (give it `after:`), an end condition naming what the turns use, a turn or commuting move
    with `select`, `for_seat` or an effect other than moving cards, turning them and variables.
    Where several sets of turns qualify, the one that leaves the most moves commuting counts."""
    front = rules.front_end
    data = front.data
    if rules.max_players != 1 or rules.phases or rules.repeat is not None or variables_may_hold_piles(rules):
        return None
    names = _Names(rules)
    moves = data.get("moves") or {}
    specs: list[dict[str, Any]] = [spec if isinstance(spec := moves.get(t.name), dict) else {} for t in rules.moves]
    core = [names.of_value({k: v for k, v in spec.items() if k in MOVE_PARTS}) for spec in specs]
    plain = [not ({"select", "for_seat"} & set(spec)) and {name for _, name in effect_paths(spec.get("do", []), ())} <= PLAIN_EFFECTS
             for spec in specs]
    ended = set().union(*(names.of_value(rule.get("if")) for rule in (data.get("end") or {}).get("when", [])
                          if isinstance(rule, dict)))
    triggers = data.get("triggers") or []
    # What each trigger names, and the moves it follows (a move it may follow and whose names it
    # shares with the turns does not commute with them).
    after_names = [names.of_value(trigger, skip=frozenset({"name", "after"})) for trigger in triggers]
    afters = [set(trigger.get("after") or []) if isinstance(trigger, dict) else set() for trigger in triggers]
    if names.unplaced:
        return None
    zone_of = {pile: name for name, zone in rules.zones.items() for pile in zone.piles}

    def named(t: int) -> set[str]:
        template = rules.moves[t]
        return core[t] | {zone_of[p] for p in (*template.sources, *template.targets)}

    best: TurnRuns | None = None
    for seed in range(len(rules.moves)):
        used = named(seed)
        turns = frozenset(t for t in range(len(rules.moves)) if plain[t] and rules.moves[t].sources
                          and rules.moves[t].targets and named(t) <= used)
        if seed not in turns or used & ended:
            continue
        turn_names = {rules.moves[t].name for t in turns}
        if any(not isinstance(trigger, dict) or not isinstance(trigger.get("after"), list)
               or turn_names & set(trigger["after"]) for trigger in triggers):
            continue
        piles = frozenset(p for name in used if name in rules.zones for p in rules.zones[name].piles)
        if any(rules.cover[p] for p in piles):  # a turn's pile another could uncover: its order matters
            continue
        commuting = frozenset(t for t in range(len(rules.moves))
                              if t not in turns and plain[t] and not core[t] & used
                              and not any(used & after_names[i] for i, after in enumerate(afters)
                                          if rules.moves[t].name in after)
                              and not (set(rules.moves[t].sources) and set(rules.moves[t].sources) <= piles)
                              and not (set(rules.moves[t].targets) and set(rules.moves[t].targets) <= piles))
        if commuting and (best is None or (len(commuting), len(turns)) > (len(best.commuting), len(best.turns))):
            best = TurnRuns(turns, piles, commuting)
    return best


__all__ = ["TurnRuns", "turn_runs"]
