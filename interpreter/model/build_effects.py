"""Building a ruleset, part 3 (`_EffectsBuilder`): effects (moving, dealing and showing cards,
setting variables, loops, conditions, the turn) as closures, and the setup.
"""

from __future__ import annotations

from typing import Any

from ..front.compiler import BOOL, CARD, CARDS, INT, LIST, PILE, PILES, STR, Scope
from ..front.compile_types import _TYPE_WORDS as TYPE_WORDS
from ..base.errors import RulesetError, RulesetRuntimeError, SourcePos, unknown
from ..base.limits import INT_MAX, INT_MIN, MAX_WHILE_PASSES
from ..front.parser import Loop, ParseError, parse_loop, parse_signature
from ..front.source import PathKey
from .build_tables import _TablesBuilder
from .closures import _a_seat_of
from .effects import AssignEffect, EndEffect, ForEffect, IfEffect, MoveEffect, TurnEffect, WithEffect
from .rules import Effect, Zone


def _drawn(items: Any, type_: str, where: SourcePos | None) -> Any:
    """An evaluator of one item of the list `items` gives, drawn by chance (`random`): the game's
    next draw, alike likely each place in the list; of the variable's type (`type_`)."""
    def draw(S: Any, env: dict[str, Any]) -> Any:
        listed = items(S, env)
        if not isinstance(listed, (list, tuple)) or not listed:
            raise RulesetRuntimeError(f"random: no items to draw from ({listed!r})", where)
        value = listed[S.chance_index(len(listed), listed)]
        if type_ == INT and (type(value) is not int) or type_ == BOOL and type(value) is not bool \
                or type_ == STR and type(value) is not str:
            raise RulesetRuntimeError(f"random: drew {value!r}, not {TYPE_WORDS[type_]}", where)
        return value
    return draw


def marked_card(card: Any, pos: SourcePos | None) -> int:
    """The card whose mark `set`, `add` or `random` changes (the one in `card`): no card is an error."""
    if card is None:
        raise RulesetRuntimeError("there is no card to mark: `card` is none", pos)
    return int(card)


class _EffectsBuilder(_TablesBuilder):
    """Effects as closures, and the setup."""

    def _mark_step(self, path: PathKey, var: str, kind: str, scope: Scope) -> tuple[int, int, Any, SourcePos | None]:
        """One value `set`, `add` or `random` puts on the card in `card` (a per-card variable):
        (its first slot, 3, the value's evaluator, where)."""
        slot, type_ = self.scope.card_variables[var]
        if scope.bindings.get("card", ("", ""))[1] != CARD:
            raise RulesetError(f"'{var}' is a per-card variable: {kind} changes the card in `card`, and no card "
                               f"is known here (for: card in ..., or with: {{card: ...}})",
                               self.doc.pos(path, key=True))
        if kind == "add" and type_ != INT:
            raise RulesetError(f"'add' needs a number variable; '{var}' holds {TYPE_WORDS[type_]}",
                               self.doc.pos(path, key=True))
        pos = self.doc.pos(path)
        if kind == "random":  # (a list of cards or piles is refused: a mark is no card and no pile)
            return slot, 3, _drawn(self.evaluator(path, scope, (LIST,)), type_, pos), pos
        value = self.evaluator(path, scope, (type_,))
        return slot, 3, value, pos

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
        if kind in ("set", "add", "random"):
            steps = []
            drawing = kind == "random"  # each value drawn by chance from a list of them
            if drawing and path[0] in ("moves", "triggers") and self.rules.shuffles_in_play is None:
                self.rules.shuffles_in_play = self.doc.pos(path)
            for var, _ in spec[kind].items():
                if var not in self.rules.variables and var not in self.scope.variables:
                    raise RulesetError(unknown("variable", var, self.scope.variables),
                                       self.doc.pos(path + (kind, var), key=True))
                if var in self.scope.card_variables:  # a mark on the card in `card`
                    steps.append(self._mark_step(path + (kind, var), var, kind, scope))
                    continue
                slot, type_, per_player = self.scope.variables[var]
                if kind == "add" and type_ not in (INT, "any"):
                    raise RulesetError(f"'add' needs a number variable; '{var}' holds a truth value",
                                       self.doc.pos(path + (kind, var), key=True))
                expect = (LIST, CARDS, PILES) if drawing else (INT,) if kind == "add" or type_ == INT else \
                    (BOOL,) if type_ == BOOL else None
                # whose value: 0 the game's, 1 the seat's in `player`, 2 every seat's of its team
                per = 2 if self.rules.variables[var].per_team else 1 if per_player else 0
                evaluator = self.evaluator(path + (kind, var), scope, expect)
                if drawing:
                    evaluator = _drawn(evaluator, type_, self.doc.pos(path + (kind, var)))
                steps.append((slot, per, evaluator, self.doc.pos(path + (kind, var))))
            adding = kind == "add"
            mates = self.globals.get("MATES", ())

            def assign(S: Any, env: dict[str, Any]) -> None:
                values = [(slot, per, fn(S, env), pos) for slot, per, fn, pos in steps]
                for slot, per, value, pos in values:
                    if per == 3:  # a mark on the card in `card`
                        targets = [slot + marked_card(env["card"], pos)]
                    elif per == 2:  # the team's value, in each of its seats
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
            if all(fn in self.inline and per != 3 for _, per, fn, _ in steps):
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
        if kind == "while":
            return self._while(path, scope, setup)
        if kind == "with":
            return self._with(path, scope, setup)
        if kind == "sort":
            return self._sort(path + ("sort",), scope)
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

    def _with(self, path: PathKey, scope: Scope, setup: bool) -> Effect:
        """`with: {NAME: VALUE, ...}` and `do`: every value worked out first, then the effects run with
        each name bound to its value (named effects' calls are written out so: front/blocks.py)."""
        values, bindings = [], {}
        for name in self._value(path + ("with",)):
            self._check_new_name(name, path + ("with", name))
            values.append(self.evaluator(path + ("with", name), scope))
            bindings[name] = (f"b_{name}", self.value_types[path + ("with", name)])
        names = tuple(bindings)
        try:
            body = self.effects(path + ("do",), scope.with_bindings(bindings), setup)
        except RulesetError as exc:
            if path not in self.doc.calls:
                raise
            block, called = self.doc.calls[path]  # named effects written out: say which call it was
            at = f"line {called.line}" if called.path == (exc.pos.path if exc.pos else None) else str(called)
            raise type(exc)(f"{exc.message} (in the effects '{block}', called at {at})", exc.pos) from None
        seat_at = self.doc.pos(path + ("with", "player")) if "player" in bindings else None

        def with_names(S: Any, env: dict[str, Any]) -> None:
            inner = dict(env)
            inner.update(zip(names, [value(S, env) for value in values]))
            if seat_at is not None and not (type(inner["player"]) is int and 0 <= inner["player"] < S.players):
                raise RulesetRuntimeError(f"with: there is no seat {inner['player']!r} to be the player", seat_at)
            for eff in body:
                eff(S, inner)
        if all(value in self.inline for value in values):
            self.inline[with_names] = WithEffect(tuple(bindings[name][0] for name in names),
                                                 tuple(self.inline[value] for value in values), tuple(body))
        return with_names

    def _check_new_name(self, name: str, path: PathKey) -> None:
        """A name an effect binds must not hide a variable or a zone (what it reads would change)."""
        if name in self.scope.variables or name in self.scope.zones:
            kind = "variable" if name in self.scope.variables else "zone"
            raise RulesetError(f"'{name}' is a {kind}'s name: give the value another name", self.doc.pos(path, key=True))

    def _sort(self, path: PathKey, scope: Scope) -> Effect:
        """`sort: {pile, by, descending}`: the pile's cards laid in order of each card's key (`card`
        bound to it), the lowest at the bottom (or the highest), equal keys in the order they lay;
        a step a card."""
        spec = self._value(path)
        pile = self.evaluator(path + ("pile",), scope, (PILE,))
        key = self.evaluator(path + ("by",), scope.with_bindings({"card": ("b_card", CARD)}), (INT,))
        descending = bool(spec.get("descending", False))
        charge = self.rules.meter.charge
        where = self.doc.pos(path + ("pile",))

        def sort(S: Any, env: dict[str, Any]) -> None:
            sorted_pile = pile(S, env)
            if sorted_pile is None:
                raise RulesetRuntimeError("sort: the pile is none", where)
            cards = S.piles[sorted_pile]
            charge(cards)
            inner = dict(env)
            keys = []
            for card in cards:
                inner["card"] = card
                keys.append(key(S, inner))
            order = sorted(range(len(cards)), key=keys.__getitem__, reverse=descending)  # stable either way
            S.reorder(sorted_pile, [cards[i] for i in order])
        return sort

    def _while(self, path: PathKey, scope: Scope, setup: bool) -> Effect:
        """`while: COND` with `do`: the effects again and again while the condition holds, each pass
        a step (MAX_STEPS); past MAX_WHILE_PASSES passes a run-time error at the `while`."""
        test = self.evaluator(path + ("while",), scope, (BOOL,))
        body = self.effects(path + ("do",), scope, setup)
        charge = self.rules.meter.charge
        where = self.doc.pos(path + ("while",))
        one_pass = (None,)

        def repeat_while(S: Any, env: dict[str, Any]) -> None:
            passes = 0
            while test(S, env):
                if passes == MAX_WHILE_PASSES:
                    raise RulesetRuntimeError(f"while: the condition still holds after {MAX_WHILE_PASSES:,} passes "
                                              "(its 'do' must change what the condition reads)", where)
                passes += 1
                charge(one_pass)
                for eff in body:
                    eff(S, env)
        return repeat_while

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

    def _named_effects(self) -> None:
        """Check each block of named effects once (front/blocks.py writes them out at their calls),
        its parameters untyped, as function bodies are: errors show even in blocks never called, and
        a block reads only its parameters, `player` and what every expression may (not the names of
        the place it is called from). What checking builds is dropped."""
        saved = self.rules.tracks_knowledge, self.rules.shuffles_in_play
        for key in self.data.get("effects") or {}:
            path = ("effects", key)
            signature = parse_signature(str(key))
            for param in signature.params:
                self._check_new_name(param, path)
            bindings = {"player": ("b_player", INT)}
            bindings.update({param: (f"b_{param}", "any") for param in signature.params})
            self.effects(path, self.scope.with_bindings(bindings), setup=True)
        self.rules.tracks_knowledge, self.rules.shuffles_in_play = saved

    def _setup(self) -> None:
        self._named_effects()
        scope = self.scope.with_bindings({"player": ("b_player", INT)})
        self.rules.setup = self.effects(("setup",), scope, setup=True)
        if "on_start" in self.data:
            self.rules.on_start = self.effects(("on_start",), scope)

    def zone_piles(self, path: PathKey) -> tuple[int, ...]:
        """Every pile of the zones named at `path` (a zone or a list of zones)."""
        return tuple(p for zone in self._zones_at(path) for p in zone.piles)

    def seat_zone_piles(self, path: PathKey, seats: str = "own") -> tuple[tuple[int, ...], ...] | None:
        """For zones that include a per-player zone: the piles each acting seat may use, in the
        zones' order (shared piles, and of a per-player zone the seat's own, or, as `seats` says,
        every other seat's or every seat's, in seat order: the moves leave out seats not in the
        game); None when every zone is shared."""
        zones = self._zones_at(path)
        if all(zone.seat_piles is None for zone in zones):
            return None

        def piles(zone: Zone, seat: int) -> tuple[int, ...]:
            if zone.seat_piles is None:
                return zone.piles
            if seats == "own":
                return zone.seat_piles[seat]
            return tuple(p for other, row in enumerate(zone.seat_piles) if seats == "all" or other != seat for p in row)
        return tuple(tuple(p for zone in zones for p in piles(zone, seat)) for seat in range(self.rules.max_players))

    def _zones_at(self, path: PathKey) -> list[Zone]:
        value = self._value(path)
        names = [value] if isinstance(value, str) else value
        for i, name in enumerate(names):
            if name not in self.rules.zones:
                where = path if isinstance(value, str) else path + (i,)
                raise RulesetError(unknown("zone", name, self.rules.zones), self.doc.pos(where))
        return [self.rules.zones[name] for name in names]
