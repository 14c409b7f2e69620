"""Building a ruleset, part 2 (`_TablesBuilder`): the deck, options, players, zones and their
piles, teams, covering, variables and the ruleset's functions.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ..front.compiler import BOOL, CARD, INT, LIST, RUNTIME_GLOBALS, SPANS, STR, Function, Scope, id_checks
from ..front.compile_types import _TYPE_WORDS as TYPE_WORDS
from ..front.decks import Deck, load_deck
from ..base.errors import RulesetError, did_you_mean, shortened, unknown
from ..base.limits import MAX_CARDS, MAX_OPTION_VALUES, MAX_OPTIONS, MAX_PILES
from ..base.memo import compile_once
from ..front.parser import ParseError, parse_signature
from ..base.resources import rulesets_dir
from ..front.source import PathKey
from .build_base import _BuilderBase
from .closures import _check_not_round, _guarded_at_load, _seeing
from .rules import Option, Variable, Zone


class _TablesBuilder(_BuilderBase):
    """The tables of a ruleset: deck, options, players, zones, teams, variables, functions."""

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
            if "values" not in spec:
                rules.options[name] = self._range_option(name, spec)
                continue
            for key in ("min", "max"):
                if key in spec:
                    raise RulesetError(f"option '{name}' gives 'values' or 'min' and 'max', not both",
                                       self.doc.pos(("options", name, key), key=True))
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

    def _range_option(self, name: str, spec: dict[str, Any]) -> Option:
        """An option over the whole numbers from `min` to `max` (docs/language.md, "options")."""
        for key in ("min", "max"):
            if key not in spec:
                raise RulesetError(f"option '{name}' needs 'values', or 'min' and 'max'",
                                   self.doc.pos(("options", name), key=True))
        low, high, default = spec["min"], spec["max"], spec["default"]
        if low > high:
            raise RulesetError(f"option '{name}': min {low} is more than max {high}", self.doc.pos(("options", name, "min")))
        if type(default) is not int or not low <= default <= high:
            raise RulesetError(f"default {default!r} is not a whole number from {low} to {high}",
                               self.doc.pos(("options", name, "default")))
        checked = tuple(sorted({low, default, high}))
        return Option(name, checked, default, spec.get("help", ""), low, high)

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

    def _orders(self) -> None:
        """A zone's `order`: the key of each card when its piles are drawn, a number of `card` (and
        `player`, the seat it is drawn to), read at each drawing."""
        scope = self.scope.with_bindings({"card": ("b_card", CARD), "player": ("b_player", INT)})
        for name, spec in self.data["zones"].items():
            if "order" in spec:
                self.rules.zone_orders[name] = self.evaluator(("zones", name, "order"), scope, (INT,))

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
            if spec.get("per_card", False):
                self.scope.card_variables[name] = (slot, self._declare_mark(name, spec))
                slot += len(rules.deck) + 1  # one value per card, then none for "no card"
                continue
            self.scope.variables[name] = (slot, type_, per_player)
            slot += players if per_player else 1
        rules.var_count = slot

    def _declare_mark(self, name: str, spec: dict[str, Any]) -> str:
        """Check a per-card variable's declaration (a mark on each card, read as CARD.NAME) and give
        its type: a number, a truth value or a string, as its `initial` (which sees options, and is
        the same on every card: a bot's guess of the cards it cannot see keeps each hidden card's
        marks where the card lies, Game.determinize) is, and every value set into it must be."""
        for other in ("per_player", "per_team", "persist"):
            if spec.get(other, False):
                raise RulesetError(f"a per_card variable cannot be {other} too",
                                   self.doc.pos(("variables", name, other), key=True))
        if "show" in spec:
            raise RulesetError("a per_card variable is not on the status line: it is seen with its card",
                               self.doc.pos(("variables", name, "show"), key=True))
        if name in self.scope.card_attributes or name == "face_up":
            raise RulesetError(f"per_card variable '{name}' has the name of a card attribute",
                               self.doc.pos(("variables", name), key=True))
        path: PathKey = ("variables", name, "initial")
        scope = Scope(bindings={"players": self.scope.bindings["players"]}, options=self.scope.options)
        compiled, _ = self.compile_node(self.parse(path), path, scope)
        if compiled.type not in (INT, BOOL, STR):
            raise RulesetError(f"a per_card variable holds a number, a truth value or a string: its initial "
                               f"value is {TYPE_WORDS.get(compiled.type, compiled.type)}", self.doc.pos(path))
        return str(compiled.type)

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
            marks = name in self.scope.card_variables
            initial = self.evaluator(path + ("initial",), init_scope)
            show = self.evaluator(path + ("show",), self.scope.with_bindings({"player": ("b_player", INT)}), (BOOL,)) \
                if "show" in spec else None
            if marks:
                rules.variables[name] = Variable(name, self.scope.card_variables[name][0], False, False,
                                                 spec.get("label", name.replace("_", " ")), initial, show,
                                                 width=len(rules.deck) + 1, per_card=True,
                                                 pos=self.doc.pos(path + ("initial",)))
                continue
            rules.variables[name] = Variable(name, self.scope.variables[name][0], self.scope.variables[name][2],
                                             spec.get("persist", False), spec.get("label", name.replace("_", " ")),
                                             initial, show, spec.get("per_team", False),
                                             width=rules.max_players if self.scope.variables[name][2] else 1)

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


def _coerce_option(option: Option, value: Any) -> Any:
    if option.is_range:
        assert option.low is not None and option.high is not None
        number = value if type(value) is int else _whole_number(value)
        if number is None or not option.low <= number <= option.high:
            raise RulesetError(f"option '{option.name}' cannot be {value!r} (a whole number from {option.low} to "
                               f"{option.high})")
        return number
    for allowed in option.values:
        if value == allowed and type(value) is type(allowed):
            return allowed
    text = str(value).strip().lower()
    for allowed in option.values:
        if str(allowed).lower() == text:
            return allowed
    choices = ", ".join(str(v).lower() if isinstance(v, bool) else str(v) for v in option.values)
    raise RulesetError(f"option '{option.name}' cannot be {value!r} (choose from: {choices})")


def _whole_number(value: Any) -> int | None:
    """A whole number given as text (`-o stake=-250`), else None (a truth value is not one)."""
    if not isinstance(value, str) or not re.fullmatch(r"\s*[+-]?\d{1,19}\s*", value):
        return None
    return int(value)
