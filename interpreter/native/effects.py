"""Lowering, part 4: a move's effects (moving, dealing, showing cards; setting variables;
loops and conditions; the turn) as compiled code, and the function that applies each move.
"""

from __future__ import annotations

from typing import Any

from ..base.limits import MAX_WHILE_PASSES
from ..front.compile_types import INT
from ..front.parser import ListLit, parse_loop
from .listing import _ListingBuilder
from .lists import array_of
from .sources import _ON_PILE
from .values import ITEMS, LISTS, LOOPED, _Val, _int


class _EffectsBuilder(_ListingBuilder):
    """Each move's effects, in compiled code."""

    setting_up = False  # lowering the setup, where `take_deck` places the deck (native/deal.py)

    def take_deck(self, path: tuple[Any, ...], env: dict[str, _Val], indent: str) -> list[str]:
        raise self.no("take_deck outside the setup", path)

    def effects(self, path: tuple[Any, ...], env: dict[str, _Val], indent: str) -> list[str]:
        lines: list[str] = []
        for i in range(len(self.value_at(path))):
            lines += self.effect(path + (i,), env, indent)
        return lines or [f"{indent}pass"]

    def effect(self, path: tuple[Any, ...], env: dict[str, _Val], indent: str) -> list[str]:
        spec = self.value_at(path)
        self.path = path
        if spec == "move" or (isinstance(spec, dict) and "move" in spec):
            return self.move_effect(path + ("move",), {} if spec == "move" else (spec["move"] or {}), env, indent)
        kind = spec if isinstance(spec, str) else next(iter(spec)) if "if" not in spec else "if"
        if kind in ("turn_up", "turn_down"):
            card = self.as_type(self.expr(self.parse(path + (kind,)), env), "card").code
            c, face = self.fresh("c"), int(kind == "turn_up")
            if self.rules.tracks_knowledge:  # who saw it is kept (state.State.turn)
                return [f"{indent}{c} = {card}", f"{indent}if {c} != NOCARD: turn_card(C, N, U, {c}, {face})"]
            return [f"{indent}{c} = {card}", f"{indent}if {c} != NOCARD: U[{c}] = {face}"]
        if kind in ("set", "add", "random"):
            lines, stores = [], []
            for var in spec[kind]:
                variable = self.rules.variables[var]
                value = self.expr(self.parse(path + (kind, var)), env)
                if kind == "random":  # an item drawn by chance: the game's next draw (M[37]), as Python draws it
                    value, drawing = self.drawn(value, path + (kind, var), indent)
                    lines += drawing
                temp = self.fresh("v")
                lines += self.stored(var, value, path + (kind, var), indent, temp, adding=kind == "add")
                if variable.per_card:  # the card in `card` (no card: stop, as Python does)
                    stores.append((f"{variable.slot} + marked({self.as_type(env['card'], 'card').code}, NOCARD)", temp, ""))
                elif variable.per_team:  # every seat of the acting seat's team
                    mate = self.fresh("mate")
                    stores.append((f"{variable.slot} + {mate}", temp, mate))
                else:
                    stores.append((f"{variable.slot}" if not variable.per_player else
                                   f"{variable.slot} + seat_of(M, {env['player'].code})", temp, ""))
            for slot, temp, mate in stores:
                at = indent
                if mate:
                    lines += [f"{indent}for {mate} in range(M[12]):",
                              f"{indent}    if {self.team(mate)} == {self.team(env['player'].code)}:"]
                    at = indent + "        "
                lines.append(f"{at}V[{slot}] = add(ck(V[{slot}]), {temp})" if kind == "add" else
                             f"{at}V[{slot}] = {temp}")
            return lines
        if kind == "if":
            test = self.expr(self.parse(path + ("if",)), env, "bool").code
            lines = [f"{indent}if {test}:"] + self.effects(path + ("then",), env, indent + "    ")
            if "else" in spec:
                lines += [f"{indent}else:"] + self.effects(path + ("else",), env, indent + "    ")
            return lines
        if kind == "for":
            loop = parse_loop(str(self.value_at(path + ("for",))))
            if isinstance(loop.iterable, ListLit) and len(loop.names) == 1 and len(loop.iterable.items) <= 16:
                # A list written out (`player in [0, 1]`): its items first, then the body once per item.
                lines, bound = [], []
                for item in loop.iterable.items:
                    value = self.expr(item, env)
                    if value.type not in ("int", "pile"):
                        raise self.no(f"a loop over a list of {value.type}", path + ("for",))
                    x = self.fresh("x")
                    lines.append(f"{indent}{x} = {self.checked(value)}")
                    bound.append(_Val(value.type, x))
                for value in bound:
                    if loop.names[0] == "player":  # (each item a seat of the game, as in model/ruleset.py)
                        lines.append(f"{indent}seat_of(M, {value.code})")
                    lines += self.effects(path + ("do",), {**env, loop.names[0]: value}, indent)
                return lines
            name, items = self.loop(path + ("for",), env)
            x = self.fresh("x")
            inner = dict(env)
            inner[name] = _Val(LOOPED.get(items.type, "card"), x, maybe_none=items.type == "int_list")
            seat = [f"{indent}    seat_of(M, {x})"] if name == "player" else []
            if items.type in ("piles", *LISTS):  # (a list built by list(...) is an array of its own)
                head = [f"{indent}for {x} in {items.code}:"]
            elif items.type == "seats":  # every seat of the game, from seat 0
                head = [f"{indent}for {x} in range({items.code}):"]
            elif items.type == "range":
                head = [f"{indent}for {x} in range({items.lo}, {items.hi}):"]
            else:
                copy = self.fresh("items")
                head = [f"{indent}{copy} = {items.arr}[{items.lo}:{items.hi}].copy()", f"{indent}for {x} in {copy}:"]
            return head + seat + self.effects(path + ("do",), inner, indent + "    ")
        if kind == "with":  # every value first, each in a local of its own; then the effects that see them
            lines, inner = [], dict(env)
            for name in spec["with"]:
                value = self.expr(self.parse(path + ("with", name)), env)
                if value.type not in ("int", "bool", "str", "card", "pile", "none"):
                    raise self.no(f"a name for a value of {value.type} (with)", path + ("with", name))
                if not value.const:
                    x = self.fresh("w")
                    lines.append(f"{indent}{x} = {value.code}")
                    value = _Val(value.type, x, maybe_none=value.maybe_none)
                inner[name] = value
            if "player" in spec["with"]:  # (a seat of the game, as in model/build_effects.py)
                lines.append(f"{indent}seat_of(M, {self.checked(inner['player'])})")
            return lines + self.effects(path + ("do",), inner, indent)
        if kind == "while":  # passes until the condition fails; too many stop, and Python says where
            test = self.expr(self.parse(path + ("while",)), env, "bool").code
            passes = self.fresh("passes")
            return [f"{indent}{passes} = 0", f"{indent}while {test}:",
                    f"{indent}    if {passes} == {MAX_WHILE_PASSES}: raise Stop('a while loop')",
                    f"{indent}    {passes} += 1"] + self.effects(path + ("do",), env, indent + "    ")
        if kind == "act":
            actor = self.checked(self.expr(self.parse(path + ("act", "seat")), env, "int"))
            name = spec["act"].get("phase")
            phase = self.rules.phases.index(name) if name is not None else 0
            return [f"{indent}{'act_at_once' if self.rules.simultaneous else 'act'}(M, {actor}, {phase})"]
        if kind == "end_turn":
            return [f"{indent}M[15] = 1"]
        if kind == "turn_to":
            next_seat = self.checked(self.expr(self.parse(path + ("turn_to",)), env, "int"))
            return [f"{indent}turn_to(M, {next_seat})"]
        if kind == "reverse":
            return [f"{indent}M[27] = -M[27]"]
        if kind == "move_chosen":  # each chosen pile's cards, in the order chosen
            k = self.template_index(path)
            options = spec["move_chosen"] or {}
            to = self.checked(self.expr(self.parse(path + ("move_chosen", "to")), env)) if "to" in options \
                else env["dst"].code
            face = {"up": 1, "down": 0}.get(options.get("face", ""), -1)
            t, q = self.fresh("t"), self.fresh("q")
            count = f"(b_sel // SELPOW[{q}]) % CAP1"
            return [f"{indent}{t} = {to}",
                    f"{indent}for {q} in range(len(SELP_{k})):",
                    f"{indent}    if {count} > 0:",
                    f"{indent}        move_cards(C, N, U, SELP_{k}[{q}], {t}, {count}, False, {face}, False, TMP)"]
        if kind == "shuffle":
            pile = self.checked(self.expr(self.parse(path + ("shuffle",)), env))
            if self.rules.tracks_knowledge:  # nobody knows where a card went
                p = self.fresh("p")
                return [f"{indent}{p} = {pile}", f"{indent}shuffle_pile(C, N, M, {p})", f"{indent}forget(C, N, U, {p}, N[{p}])"]
            return [f"{indent}shuffle_pile(C, N, M, {pile})"]
        if kind == "sort":
            return self.sort_effect(path + ("sort",), spec["sort"], env, indent)
        if kind == "show":
            return self.show_effect(path + ("show",), spec["show"], env, indent)
        if kind == "deal":
            return self.deal_effect(path + ("deal",), spec["deal"], env, indent)
        if kind == "take_deck" and self.setting_up:  # (only the setup takes the deck)
            return self.take_deck(path + ("take_deck",), env, indent)
        if kind == "end":
            result = self.result_code(spec["end"]["result"])
            reason = self.reason_code(spec["end"].get("reason", ""))
            return [f"{indent}end(M, {result}, {reason})"]
        raise self.no(f"the effect '{kind}'", path)

    def drawn(self, items: _Val, path: tuple[Any, ...], indent: str) -> tuple[_Val, list[str]]:
        """`random`: the item of a list drawn by chance (the code that draws it, then its value)."""
        items = self._items(items)
        if items.type not in ITEMS:
            raise self.no(f"random of {items.type}", path)
        listed, i = self.fresh("items"), self.fresh("i")
        lines = [f"{indent}{listed} = {array_of(items)}",
                 f"{indent}if len({listed}) == 0: raise Stop('random of no items')",
                 f"{indent}{i} = draw_index(M, len({listed}))"]
        kind = ITEMS[items.type]
        if kind == "bool":
            return _Val("bool", f"({listed}[{i}] != 0)"), lines
        return _Val(kind, f"{listed}[{i}]", maybe_none=kind == "int"), lines

    def stored(self, var: str, value: _Val, path: tuple[Any, ...], indent: str, target: str,
               adding: bool = False) -> list[str]:
        """Code that puts into `target` what the variable `var` holds for `value` (set into it, or,
        `adding`, added to it): a truth value as 1 or 0, a number checked (none is an error where the
        variable is typed a number), a string, pile or card as its code (none: its kind's code for none)."""
        var_kind = self.var_kind(var)
        if var_kind == "bool":
            if value.type != "bool":
                raise self.no("a truth value was expected", path)
            return [f"{indent}{target} = 1 if {value.code} else 0"]
        declared = self.front.scope.card_variables[var][1] if var in self.front.scope.card_variables \
            else self.front.scope.variables[var][1]
        if var_kind == "int" and declared == INT:  # (typed: none is an error)
            if value.type not in ("int", "none"):
                raise self.no("a number was expected", path)
            return [f"{indent}{target} = {self.checked(value) if value.type == 'int' else 'ck(NO_INT)'}"]
        # a string, a pile, a card or a number of a variable not typed (or none: its code for none)
        if adding and var_kind != "int" or value.type not in (var_kind, "none"):
            raise self.no(f"{'add' if adding else 'set'} of {value.type} to a variable holding {var_kind}", path)
        value = self.as_type(value, var_kind)
        return [f"{indent}{target} = {self.checked(value) if adding else value.code}"]

    def sort_effect(self, path: tuple[Any, ...], spec: dict[str, Any], env: dict[str, _Val],
                    indent: str) -> list[str]:
        """`sort`, as model/build_effects.py's: each card's key worked out bottom to top, then a stable
        insertion sort of the pile by them (the lowest at the bottom, or with `descending` the highest)."""
        pile = self.checked(self.expr(self.parse(path + ("pile",)), env))
        p, keys, j, i, k, c = (self.fresh(name) for name in ("p", "keys", "j", "i", "k", "c"))
        key = self.checked(self.expr(self.parse(path + ("by",)), {**env, "card": _Val("card", c)}, "int"))
        after = "<" if spec.get("descending", False) else ">"  # (a key that must move past this one)
        return [f"{indent}{p} = {pile}",
                f"{indent}{keys} = np.empty(N[{p}], dtype=np.int64)",
                f"{indent}for {j} in range(N[{p}]):",
                f"{indent}    {c} = C[{p}, {j}]",
                f"{indent}    {keys}[{j}] = {key}",
                f"{indent}for {i} in range(1, N[{p}]):",
                f"{indent}    {k} = {keys}[{i}]",
                f"{indent}    {c} = C[{p}, {i}]",
                f"{indent}    {j} = {i} - 1",
                f"{indent}    while {j} >= 0 and {keys}[{j}] {after} {k}:",
                f"{indent}        {keys}[{j} + 1] = {keys}[{j}]",
                f"{indent}        C[{p}, {j} + 1] = C[{p}, {j}]",
                f"{indent}        {j} -= 1",
                f"{indent}    {keys}[{j} + 1] = {k}",
                f"{indent}    C[{p}, {j} + 1] = {c}"]

    def deal_effect(self, path: tuple[Any, ...], spec: dict[str, Any], env: dict[str, _Val],
                    indent: str) -> list[str]:
        """`deal` during play, as model/ruleset.py's: one card a pile a row, left to right, while a pile's
        count (of `i`, its index) is above the row; with `where`, the topmost card of the source
        that matches (`card`, `dst` the pile dealt to), brought to the top first."""
        zone = self.rules.zones[spec["to"]]
        i, wanted, row, more, q, source = (self.fresh(x) for x in ("i", "wanted", "row", "more", "q", "source"))
        if zone.seat_piles is not None:  # the piles of the seats in the game, seat by seat (Zone.piles_for)
            per_seat = len(zone.seat_piles[0])
            count = f"M[12] * {per_seat}"
            dealt = f"SEATS_{zone.name}[{q} // {per_seat}]" if zone.single else \
                f"SEATS_{zone.name}[{q} // {per_seat}, {q} % {per_seat}]"
        else:
            count, dealt = str(len(zone.piles)), f"Z_{zone.name}[{q}]"
        counts = self.checked(self.expr(self.parse(path + ("counts",)), {**env, "i": _int(i)}, "int"))
        src = self.checked(self.expr(self.parse(path + ("from",)), env))
        face = int(spec.get("face", "down") == "up")
        find = [f"{indent}            if N[{source}] == 0: raise Stop('the deal ran out of cards')"]
        if "where" in spec:
            j, card = self.fresh("j"), self.fresh("card")
            inner = {**env, "card": _Val("card", card), "dst": _Val("pile", dealt)}
            test = self.expr(self.parse(path + ("where",)), inner, "bool").code
            deep = indent + "                "
            find = [f"{indent}            {j} = N[{source}] - 1",
                    f"{indent}            while {j} >= 0:",
                    f"{deep}{card} = C[{source}, {j}]",
                    f"{deep}if {test}: break",
                    f"{deep}{j} -= 1",
                    f"{indent}            if {j} < 0: raise Stop('the deal ran out of cards that match where')",
                    f"{indent}            if {j} < N[{source}] - 1: lift(C, N, {source}, C[{source}, {j}])"]
        return [f"{indent}{wanted} = np.empty({count}, dtype=np.int64)",
                f"{indent}for {i} in range({count}):",
                f"{indent}    {wanted}[{i}] = {counts}",
                f"{indent}{row} = 0",
                f"{indent}{more} = True",
                f"{indent}while {more}:",
                f"{indent}    {more} = False",
                f"{indent}    for {q} in range({count}):",
                f"{indent}        if {wanted}[{q}] > {row}:",
                f"{indent}            {more} = True",
                f"{indent}            {source} = {src}",
                *find,
                f"{indent}            move_cards(C, N, U, {source}, {dealt}, 1, False, {face}, False, TMP)",
                f"{indent}    {row} += 1"]

    def show_effect(self, path: tuple[Any, ...], spec: dict[str, Any], env: dict[str, _Val],
                    indent: str) -> list[str]:
        """`show: {card | pile, to}`: the seat learns the card, or every card of the pile as it lies
        (model/ruleset.py's `_show_effect`); a seat the game has not stops (Python reports it)."""
        seat = self.checked(self.expr(self.parse(path + ("to",)), env, "int"))
        s, c = self.fresh("seat"), self.fresh("c")
        lines = [f"{indent}{s} = {seat}", f"{indent}if {s} < 0 or {s} >= M[12]: raise Stop('show: no such seat')"]
        if "pile" in spec:
            pile = self.checked(self.expr(self.parse(path + ("pile",)), env))
            p = self.fresh("p")
            return lines + [f"{indent}{p} = {pile}", f"{indent}for {c} in C[{p}, :N[{p}]]:",
                            f"{indent}    U[KN + {c}] |= 1 << {s}"]
        card = self.as_type(self.expr(self.parse(path + ("card",)), env), "card").code
        return lines + [f"{indent}{c} = {card}", f"{indent}if {c} != NOCARD: U[KN + {c}] |= 1 << {s}"]

    def template_index(self, path: tuple[Any, ...]) -> int:
        if path[:1] != ("moves",) or "select" not in self.value_at(path[:2]):
            raise self.no("move_chosen outside a move with 'select'", path)
        return int(self.rules.moves_by_name[path[1]].index)

    def loop(self, path: tuple[Any, ...], env: dict[str, _Val]) -> tuple[str, _Val]:
        loop = parse_loop(str(self.value_at(path)))
        items = self.expr(loop.iterable, env)
        if items.type not in ("piles", "cards", "range", "seats", *LISTS):
            raise self.no(f"a loop over {items.type}", path)
        return loop.names[0], items

    def move_effect(self, path: tuple[Any, ...], options: dict[str, Any], env: dict[str, _Val],
                    indent: str) -> list[str]:
        src = self.checked(self.expr(self.parse(path + ("from",)), env)) if "from" in options else env["src"].code
        dst = self.checked(self.expr(self.parse(path + ("to",)), env)) if "to" in options else env["dst"].code
        s, d = self.fresh("s"), self.fresh("d")
        lines = [f"{indent}{s} = {src}", f"{indent}{d} = {dst}"]
        if "card" in options:  # one given card: brought to the top of its pile (Stop if it is not there), moved
            card = self.as_type(self.expr(self.parse(path + ("card",)), env), "card").code
            c = self.fresh("c")
            lines += [f"{indent}{c} = {card}",
                      f"{indent}if not on_pile(C, N, {s}, {c}): raise Stop('the card is not on the pile')",
                      f"{indent}lift(C, N, {s}, {c})"]
            if _ON_PILE not in self.helpers:
                self.helpers.append(_ON_PILE)
            count = "1"
        elif "count" in options:
            count = self.checked(self.expr(self.parse(path + ("count",)), env, "int"))
        elif "from" in options:
            count = f"N[{s}]"
        else:
            count = env["n"].code
            if "pick" in env:  # `take: any`: the chosen card (cards, bottom first) to the top first
                t = self.fresh("t")
                lines += [f"{indent}if {env['pick'].code} >= 0:",
                          f"{indent}    for {t} in range({count}): lift(C, N, {s}, MC[{t}])"]
        face = {"up": 1, "down": 0}.get(options.get("face", ""), -1)
        flip = bool(options.get("flip", False))
        bottom = options.get("place", "top") == "bottom"
        if options.get("place") == "random":  # moved to the top, then buried together at a random place
            k = self.fresh("k")
            forget = [f"{indent}forget(C, N, U, {d}, {k})"] if self.rules.tracks_knowledge else []
            return lines + [f"{indent}{k} = min({count}, N[{s}])",
                            f"{indent}move_cards(C, N, U, {s}, {d}, {k}, {flip}, {face}, False, TMP)"] + forget + \
                [f"{indent}if {k} > 0: bury_top(C, N, M, {d}, {k})"]
        lines.append(f"{indent}move_cards(C, N, U, {s}, {d}, {count}, {flip}, {face}, {bottom}, TMP)")
        return lines

    def result_code(self, result: str) -> int:
        if result not in self.results:
            self.results.append(result)
        return self.results.index(result)

    def reason_code(self, reason: str) -> int:
        if reason not in self.reasons:
            self.reasons.append(reason)
        return self.reasons.index(reason)

    def _moves_applied(self) -> str:
        self.results: list[str] = [""]
        self.reasons: list[str] = [""]
        out = []
        calls: list[str] = []
        for template in self.rules.moves:
            path = ("moves", template.name)
            spec = self.value_at(path)
            env = self.move_env(template, True)
            if template.take == "any":
                env["pick"] = _int("b_pick")
            k = template.index
            if "select" in spec:  # the selection's cards and piles, as they lie before the effects
                env["chosen"] = _Val("cards", arr="CHOSEN_CARDS", lo="0", hi="n_chosen_cards")
                env["chosen_piles"] = _Val("piles", "CHOSEN_PILES[:n_chosen_piles]")
            if "do" in spec:
                lines = self.effects(path + ("do",), env, "    ")
            else:
                lines = self.move_effect(path + ("do",), {}, env, "    ")
            if any("CHOSEN_" in line for line in lines):
                lines = [f"    CHOSEN_PILES = np.empty(len(SELP_{k}), dtype=np.int64); n_chosen_piles = 0",
                         "    CHOSEN_CARDS = np.empty(NC, dtype=np.int64); n_chosen_cards = 0",
                         f"    for q in range(len(SELP_{k})):",
                         "        taken = (b_sel // SELPOW[q]) % CAP1",
                         "        if taken == 0: continue",
                         f"        p = SELP_{k}[q]; CHOSEN_PILES[n_chosen_piles] = p; n_chosen_piles += 1",
                         "        for t in range(N[p] - taken, N[p]):",
                         "            CHOSEN_CARDS[n_chosen_cards] = C[p, t]; n_chosen_cards += 1"] + lines
            args = "C, N, U, V, O, M, MC, TMP, b_src, b_dst, b_n, b_card, b_pick, b_target, b_player, b_sel"
            out.append(f"@njit(cache=True)\ndef apply_{k}({args}):\n" + "\n".join(lines) + "\n")
            calls.append(f"    {'if' if not calls else 'elif'} k == {k}: apply_{k}({args})")
        out.append("@njit(cache=True)\ndef apply_effects(C, N, U, V, O, M, MC, TMP, k, b_src, b_dst, b_n, b_card, "
                   "b_pick, b_target, b_player, b_sel):\n" + "\n".join(calls) + "\n")
        return "\n".join(out)
