"""Building a ruleset, part 4 (`_Builder`): the move templates (with their choices and what a
seat asked out of turn may do), triggers, the generated listing and apply functions, and the
end rule; `build` runs every part in order.
"""

from __future__ import annotations

import itertools
import math
from pathlib import Path
from typing import Any

from ..front.compiler import ANY, BOOL, CARDS, INT, LIST, NONE, PILES, Scope, type_of_value, variable_reads
from ..base.errors import RulesetError, unknown
from ..base.limits import MAX_CHOICES, MAX_PICK_SETS, MAX_RULESET_NODES
from ..front.parser import Loop
from ..front.source import Document, FileAccess, PathKey
from .build_effects import _EffectsBuilder
from .effects import Expr, TriggerBody
from .game_backend import GameBackend
from .closures import _guarded, _name_node, _repeat_limit, _trigger_runner
from .rules import (CycleRule, DEFAULT_MAX_MOVES, EndCondition, Evaluator, MOVE_BINDINGS, MoveTemplate, PASS, Ruleset,
                    TURN_HANDING, Trigger, choice_local)


class _Builder(_EffectsBuilder):
    """The whole ruleset: `build` makes it, part by part."""

    def __init__(self, doc: Document, path: Path, chosen: dict[str, Any], access: FileAccess,
                 backend: GameBackend) -> None:
        super().__init__(doc, path, chosen, access)
        self.backend = backend
        self.listing = backend.listing(self)  # the generated listing of each move template (python/movegen.py)

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
        self._orders()
        self._variables()
        self._setup()
        self._moves()
        self._triggers()
        self._end()
        self._apply_functions()
        rules.plain_turns = not rules.simultaneous and not rules.out_of_turn and rules.repeat is None \
            and any(template.apply is not None for template in rules.moves)
        rules.variable_kinds = self._variable_kinds()
        rules.generated_source = "\n".join(self.sources)
        rules.compiled_nodes = MAX_RULESET_NODES - self.node_budget[0]
        rules.front_end = self
        rules.game_backend = self.backend
        if rules.out_of_turn:  # asking only the seats that may act must not tell what they hold
            from .turn_runs import reads_hidden_cards

            rules.asks_everyone = reads_hidden_cards(rules, (t.name for t in rules.moves if t.out_of_turn))
        return rules

    def _moves(self) -> None:
        rules = self.rules
        self._out_of_turn()
        self._no_move()
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
            choice_names, choice_seats, choices = self._choices(path, spec, bindings)
            for j, choice_name in enumerate(choice_names):
                bindings[choice_name] = (choice_local(j), INT if choice_seats[j] else type_of_value(choices[0][j]))
            if choices:
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
            for side, key, piles in (("from", "from_seats", sources), ("to", "to_seats", targets)):
                seats = spec.get(key, "own")
                rows = self.seat_zone_piles(path + (side,), seats) if piles else None
                if seats != "own" and rows is None:
                    raise RulesetError(f"'{key}' needs a per-player zone in '{side}'", self.doc.pos(path + (key,)))
                if side == "from":
                    template.seat_sources, template.source_seats = rows, seats
                else:
                    template.seat_targets, template.target_seats = rows, seats
            template.for_seat = "for_seat" in spec
            template.out_of_turn = bool(spec.get("out_of_turn", False))
            template.asked_after = self.asked_after.get(name, frozenset())
            template.declines = spec is self.declining
            template.stuck = spec is self.passing
            if template.stuck:
                rules.stuck_pass = index
            template.picks = picks
            template.choices, template.choice_names, template.choice_seats = choices, choice_names, choice_seats
            if isinstance(spec.get("select"), dict) and "from" in spec["select"]:
                template.select_piles = self.zone_piles(path + ("select", "from"))
                template.select_take = spec["select"].get("take", "top")
            template.scope = scope
            template.enumerate = self.listing.template(template, path, spec, scope)
            template.named_text = len(sources) <= 1 and len(targets) <= 1
            if "safe" in spec:
                template.safe = self.evaluator(path + ("safe",), scope, (BOOL,))
            rules.moves.append(template)
            rules.moves_by_name[name] = template
        rules.enumerate_all = self.listing.merged()
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

    def _no_move(self) -> None:
        """`turns.no_move: pass`: the engine's `pass` added as the last move, never offered by its own
        listing (`when: false`): the engine offers it alone to a seat that has no other move while
        another seat has one (python/engine.py `_offer_pass`, native/listing.py `legal`)."""
        turns = self.data.get("turns") or {}
        if turns.get("no_move", "end") != "pass":
            return
        rules, moves = self.rules, self.data["moves"]
        where = self.doc.pos(("turns", "no_move"))
        if rules.max_players < 2:
            raise RulesetError("no_move: pass needs a game of more than one seat (alone, a seat that cannot move "
                               "has nobody to pass to)", where)
        if turns.get("order") == "simultaneous":
            raise RulesetError("no_move: pass is for seats taking turns: where every seat plays at once, a seat "
                               "with no move waits", where)
        if self.declining is not None:
            raise RulesetError(f"no_move: pass and out_of_turn moves would both offer '{PASS}'", where)
        if PASS in moves:
            raise RulesetError(f"a move named '{PASS}' clashes with the '{PASS}' that no_move: pass offers a seat "
                               "with no other move: rename it, or leave the passing to no_move",
                               self.doc.pos(("moves", PASS), key=True))
        self.passing = {"help": "No other move is possible: the turn passes to the next seat.", "when": False,
                        "do": ["end_turn"]}
        self.data = {**self.data, "moves": {**moves, PASS: self.passing}}

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

    def _choices(self, path: PathKey, spec: dict[str, Any], bindings: dict[str, Any]) \
            -> tuple[tuple[str, ...], tuple[bool, ...], tuple[tuple[Any, ...], ...]]:
        """A move's `choose: {NAME: VALUES, ...}`: the names, which of them name a seat, and every
        combination of their values, the first name's slowest. Each VALUES is known at load (a list,
        or an expression of options and constants giving one: numbers or strings, of one kind, each
        once), or `seats`: every seat a game of the ruleset may have (a game offers its own)."""
        if "choose" not in spec:
            return (), (), ()
        names, seats, lists = [], [], []
        for name, given in spec["choose"].items():
            where = path + ("choose", name)
            for other in ("for_seat", "select"):
                if other in spec:
                    raise RulesetError(f"a move cannot have both 'choose' and '{other}'", self.doc.pos(where))
            if name in bindings or name in self.scope.variables or name in self.scope.zones or name == "option":
                raise RulesetError(f"'{name}' is already a name here (a binding, variable or zone): choose another",
                                   self.doc.pos(where, key=True))
            names.append(name)
            seats.append(given == "seats")
            lists.append(tuple(range(self.rules.max_players)) if given == "seats" else self._choice_values(where, given))
        count = math.prod(len(values) for values in lists)  # (counted before any is made)
        if count > MAX_CHOICES:
            raise RulesetError(f"choose: {count:,} combinations of values, more than {MAX_CHOICES:,}",
                               self.doc.pos(path + ("choose",)))
        return tuple(names), tuple(seats), tuple(itertools.product(*lists))

    def _choice_values(self, where: PathKey, given: Any) -> tuple[Any, ...]:
        """The values one name of `choose` may take, as written at `where`."""
        if isinstance(given, list):
            values = tuple(given)
        else:
            compiled, _ = self.compile_node(self.parse(where), where, self.scope, (LIST,))
            if not compiled.const:
                raise RulesetError("the values to choose from must be known when the ruleset loads (a list, "
                                   "range(...) of numbers, an expression of options, or `seats`)", self.doc.pos(where))
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
        return values

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
        generator = self.backend.apply(self)
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

    def _variable_kinds(self) -> dict[str, str]:
        """Each variable's kind, typed once by the front end: a number or a truth value (INT, BOOL)
        where it starts as one (a value written out, or an expression of that type), or where every
        value set into it anywhere (setup, moves, triggers, the end) is of the one type it starts
        with or `none`; else ANY (it may hold a string, a pile, piles, or values of several types)."""
        kinds: dict[str, str] = {}
        set_types: dict[str, set[str]] = {}
        for path, type_ in self.value_types.items():
            if len(path) >= 2 and path[-2] == "set" and isinstance(path[-1], str):
                set_types.setdefault(path[-1], set()).add(type_)
        for name, (_, declared, _) in self.scope.variables.items():
            start = self.value_types.get(("variables", name, "initial"))
            if declared in (INT, BOOL) or start in (INT, BOOL):
                kinds[name] = declared if declared in (INT, BOOL) else str(start)
                continue
            found = (set_types.get(name, set()) | {start or NONE}) - {NONE}
            kinds[name] = found.pop() if len(found) == 1 and found <= {INT, BOOL} else ANY
        return kinds

