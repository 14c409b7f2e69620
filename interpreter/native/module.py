"""Lowering, part 5: the whole module of a ruleset (`lower`): its tables, the listing, the
effects, triggers, the end conditions, scores and the fixed code of sources.py.
"""

from __future__ import annotations

from typing import Any

from ..base.limits import MAX_TRIGGER_PASSES
from ..front.parser import Name
from .bots import SOURCE as BOTS_SOURCE
from .deal import _DealBuilder
from .search import SOURCE as SEARCH_SOURCE
from .simultaneous import SOURCE as SIMULTANEOUS_SOURCE
from .sources import _DRIVER, _KNOWLEDGE, _LEGAL_NAMES, _RUNTIME, _SAME_ITEMS, _STR_BEST, _repeat_source
from .values import LISTS, LOOPED, MAX_FOUND, MAX_LEGAL, NO_INT, NO_STR, Unsupported, _Val, _array, _int, _seat_radix


class _ModuleBuilder(_DealBuilder):
    """The whole module: tables, the listing, each move's effects, triggers, the end, playouts."""

    def build(self) -> tuple[str, dict[str, Any]]:
        rules = self.rules
        self.deck = rules.deck
        ncards, npiles = len(rules.deck), rules.pile_count
        lines = [_RUNTIME, f"NC = {ncards}", f"NOCARD = {ncards}", f"NP = {npiles}", f"NP1 = {npiles + 1}",
                 f"CAP1 = {ncards + 1}", f"PK = {ncards + 2}", f"SE = {_seat_radix(rules)}"]
        # The solver's position keys: each card's pile, place and face in KEYBITS bits.
        keybits = (npiles * (ncards + 1) * 2 + 1).bit_length()
        lines += [f"KEYBITS = {keybits}", f"CARDWORDS = {(ncards * keybits + 63) // 64}"]
        # Who knows which card, after the faces in U (only where the ruleset keeps it).
        lines += [f"KN = {ncards + 1}", f"TRACKS = {rules.tracks_knowledge}"]
        # The first slot of each per-card variable (a mark on card c at V[slot + c]).
        lines.append(f"MARKS = np.array({list(rules.mark_slots)!r}, dtype=np.int64)")
        # The variables the greedy bot's position hash reads (native/bots.py view_hash).
        lines.append(f"NUMBER_SLOTS = np.array({list(rules.number_slots())!r}, dtype=np.int64)")
        if rules.tracks_knowledge:
            lines.append(_KNOWLEDGE)
        if rules.repeat is not None:  # end.repeat: the positions seen, kept in KEY after the cycle's scratch key
            lines.append(_repeat_source(rules))
        body = [self._listing(), self._moves_applied(), self._safe(), self._triggers(), self._after_change(),
                self._deal(), self._score(), _DRIVER, SEARCH_SOURCE, BOTS_SOURCE]
        if self.lists_names:  # `legal_moves()` in expressions
            body.append(f"LEGAL_NAMES = {_array([self.sid(t.name) for t in rules.moves])}\nMAX_LEGAL = {MAX_LEGAL}\n"
                        f"{_LEGAL_NAMES}")
        if rules.simultaneous:  # every seat plays at once: each seat's moves, and the clock of simulate
            body.append(SIMULTANEOUS_SOURCE)
        tables = []
        for name, kind in sorted(self.deck.attributes.items()):
            # (a card that lacks the attribute has none: NO_INT, NO_STR)
            if kind == "int":
                values = [card.get(name) for card in self.deck.cards]
                if all(v is None or isinstance(v, int) and not isinstance(v, bool) for v in values):
                    tables.append(f"A_{name} = {_array([NO_INT if v is None else v for v in values] + [NO_INT])}")
            elif kind == "str":
                values = [card.get(name) for card in self.deck.cards]
                if all(v is None or isinstance(v, str) for v in values):
                    tables.append(f"A_{name} = {_array([NO_STR if v is None else self.sid(v) for v in values] + [NO_STR])}")
        for name, masks in sorted(self.masks.items()):
            tables.append(f"A_{name} = {_array(masks + [-1])}")
        for name, (masks, _) in sorted(self.int_masks.items()):
            tables.append(f"A_{name} = {_array(masks + [-1])}")
        tables.append(f"PILE_INDEX = {_array(rules.pile_index)}")
        kinds = {"all": 0, "none": 1, "owner": 2, "top": 3}
        tables.append(f"VISIBILITY = {_array([kinds.get(rules.zones[z].visibility, 4) for z in rules.pile_zone])}")
        codes: dict[str, int] = {}
        tables.append(f"CODE = {_array([codes.setdefault(c, len(codes)) for c in self.deck.codes])}")
        tables.append(f"NCODES = {len(codes)}")
        phases = rules.phases
        tables.append(f"NPHASES = {len(phases)}")
        tables.append(f"OPTIONAL = {_array([int(i in rules.optional_phases) for i in range(len(phases))] + [0])}")
        tables.append(f"INTERRUPT = {_array([int(i in rules.interrupt_phases) for i in range(len(phases))] + [0])}")
        tables.append(f"ROTATION = {rules.rotation}")
        tables.append(f"SIMULTANEOUS = {rules.simultaneous}")
        tables.append(f"FIRST_PHASE = {rules.first_phase}")
        # Moves out of turn (`out_of_turn`): which moves are, which is the engine's `pass`, after
        # which moves (index + 1; 0: the deal) the seats are asked, and whether every seat is.
        tables.append(f"OUT_OF_TURN = {_array([int(t.out_of_turn) for t in rules.moves] + [0])}")
        tables.append(f"DECLINES = {_array([int(t.declines) for t in rules.moves] + [0])}")
        tables.append(f"OPENS = {_array([int(k in rules.opens_asking) for k in range(-1, len(rules.moves))])}")
        tables.append(f"ASKS_EVERYONE = {int(rules.asks_everyone)}")
        tables.append(f"ASKS_OUT_OF_TURN = {rules.out_of_turn}")  # (else the code for it is left out when compiled)
        # A selection is one digit per pile of its move's `select` (the count taken, 0: none), then
        # for `take: {any: K}` one per card after the first, so an action number needs CAP1 ** (the
        # most such digits of a move) more values.
        widest = self.selection_digits()
        radix = len(rules.moves) * (npiles + 1) ** 2 * (ncards + 1) * (ncards + 2) * (rules.max_players + 1) * \
            (ncards + 1) ** widest
        if radix >= 2 ** 62:
            raise self.no("too many moves to number in 64 bits (piles, cards and selections)", ("moves",))
        tables.append(f"SELR = {(ncards + 1) ** widest}")
        tables.append(f"SELPOW = {_array([(ncards + 1) ** i for i in range(max(widest, 1))])}")
        tables.append(f"PICK_AT = {_array([(ncards + 1) ** len(t.select_piles) for t in rules.moves] or [1])}")
        tables.append(f"MAX_FOUND = {MAX_FOUND}")
        tables.append(f"PILE_OWNER = {_array(rules.pile_owner)}")
        tables.append(f"EMPTY_FIRST = {_array(rules.empty_first)}")
        widest = max((len(c) for c in rules.cover), default=0)  # each pile's covering piles, -1 after the last
        tables.append(f"COVER = np.array({[list(c) + [-1] * (widest - len(c)) for c in rules.cover] if widest else [[-1]]!r}, "
                      f"dtype=np.int64)")
        tables.append(f"PILE_ZONE = {_array([self.sid(z) for z in rules.pile_zone])}")
        for name, zone in rules.zones.items():
            tables.append(f"Z_{name} = {_array(zone.piles)}")
            if zone.seat_piles is not None:
                rows = [group[0] if zone.single else list(group) for group in zone.seat_piles]
                tables.append(f"SEATS_{name} = np.array({rows!r}, dtype=np.int64)")
        tables.append(f"PHASE_NAMES = {_array([self.sid(p) for p in rules.phases] or [NO_STR])}")
        for name in rules.variables:  # a variable no rule reads still holds its start (a string: its id)
            if name not in self.kinds:
                try:
                    self.var_kind(name)
                except Unsupported:
                    pass  # (nothing compiled reads or sets it)
        if self.compares_lists:
            body.append(_SAME_ITEMS)
        if self.orders_strings:  # every string the module numbers, ranked as Python orders strings
            ranks = {text: rank for rank, text in enumerate(sorted(self.strings))}
            body.append(f"STR_RANK = {_array([ranks[text] for text in self.strings])}\n{_STR_BEST}")
        source = "\n".join(lines + tables + self.helpers + body) + "\n"
        # The slots of variables holding strings (their ids; none is NO_STR) and cards (none is
        # NOCARD), seat by seat.
        def slots(kind: str) -> list[int]:
            return [slot for name, variable in rules.variables.items() if self.kinds.get(name) == kind
                    for slot in variable.slots]
        return source, {"strings": dict(self.strings), "results": self.results, "reasons": self.reasons,
                        "select_piles": dict(self.select_piles), "string_slots": slots("str"),
                        "card_slots": slots("card"), "nocard": ncards,
                        "selection_digits": self.selection_digits(), "deal_refused": self.deal_refused}

    def _safe(self) -> str:
        """`is_safe(..., a)`: does action a's template declare it safe here (`safe:`), as
        `Game.is_safe` says? The solver plays such a move alone."""
        out, calls = [], []
        args = "C, N, U, V, O, M, MC, b_src, b_dst, b_n, b_card, b_pick, b_target, b_player, b_sel"
        for template in self.rules.moves:
            if template.safe is None:
                continue
            env = self.move_env(template, True)
            if template.take == "any":
                env["pick"] = _int("b_pick")
            test = self.expr(self.parse(("moves", template.name, "safe")), env, "bool").code
            k = template.index
            out.append(f"@njit(cache=True)\ndef safe_{k}({args}):\n    return {test}\n")
            calls.append(f"    if k == {k}: return safe_{k}({args})")
        out.append("""@njit(cache=True)
def is_safe(C, N, U, V, O, M, MC, a):
    k, b_src, b_dst, b_n, b_pick, b_target, b_sel = decode(a)
    if not HAS_SAFE[k]:
        return False
    b_player = M[10]
    b_card, b_pick = take_cards(C, N, U, M, MC, b_src, b_n, b_pick, b_sel // PICK_AT[k])
""" + "\n".join(calls) + "\n    return False\n")
        self.helpers.append(f"HAS_SAFE = {_array([int(t.safe is not None) for t in self.rules.moves])}")
        return "\n".join(out)

    def _triggers(self) -> str:
        """`triggers`, run after move k, and `start_triggers`, the `at_start` ones, run once the
        deal is done (with `move` the empty string, as engine.Game runs them)."""
        if self.data.get("triggers"):
            self.helpers.append(f"MOVE_NAMES = {_array([self.sid(t.name) for t in self.rules.moves])}")
        after_move = self._trigger_function("triggers(C, N, U, V, O, M, TMP, k, b_player)",
                                            {"player": _int("b_player"), "move": _Val("str", "MOVE_NAMES[k]")},
                                            at_start=False)
        try:  # (the start is dealt in Python where these cannot be lowered: native/deal.py)
            at_start = self._trigger_function("start_triggers(C, N, U, V, O, M, TMP, b_player)",
                                              {"player": _int("b_player"), "move": _Val("str", repr(self.sid("")))},
                                              at_start=True)
        except Unsupported:
            at_start = "@njit(cache=True)\ndef start_triggers(C, N, U, V, O, M, TMP, b_player):\n" \
                       "    raise Stop('the triggers at the start')\n"
        return after_move + at_start

    def _trigger_function(self, signature: str, env: dict[str, _Val], at_start: bool) -> str:
        lines = ["@njit(cache=True)", f"def {signature}:", "    pass"]
        for i, spec in enumerate(self.data.get("triggers", [])):
            path = ("triggers", i)
            if at_start and not spec.get("at_start", False):
                continue
            after = spec.get("after") if not at_start else None
            indent = "    "
            if after is not None:
                ks = tuple(self.rules.moves_by_name[name].index for name in after)
                lines.append(f"    if k in {ks!r}:" if len(ks) > 1 else f"    if k == {ks[0]}:")
                indent = "        "
            trigger_env = env
            repeat = bool(spec.get("repeat", False))
            if repeat:  # passes until nothing applies; too many stop, and Python says where
                passes = self.fresh("passes")
                lines += [f"{indent}for {passes} in range({MAX_TRIGGER_PASSES + 1}):",
                          f"{indent}    if {passes} == {MAX_TRIGGER_PASSES}: raise Stop('a repeat trigger')"]
                indent += "    "
            if "for" in spec:
                name, items = self.loop(path + ("for",), trigger_env)
                x, chosen, count = self.fresh("x"), self.fresh("chosen"), self.fresh("n")
                inner = dict(trigger_env)
                inner[name] = _Val(LOOPED.get(items.type, "card"), x, maybe_none=items.type == "int_list")
                test = self.expr(self.parse(path + ("when",)), inner, "bool").code if "when" in spec else "True"
                if items.type in ("piles", *LISTS):
                    lines += [f"{indent}{chosen} = np.empty(len({items.code}), dtype=np.int64); {count} = 0",
                              f"{indent}for {x} in {items.code}:"]
                elif items.type in ("range", "seats"):  # numbers (a range's end is checked: range_end)
                    lo, hi = (items.lo, items.hi) if items.type == "range" else ("0", items.code)
                    lines += [f"{indent}{chosen} = np.empty(max({hi} - ({lo}), 0), dtype=np.int64); {count} = 0",
                              f"{indent}for {x} in range({lo}, {hi}):"]
                else:
                    lines += [f"{indent}{chosen} = np.empty({items.hi} - ({items.lo}), dtype=np.int64); {count} = 0",
                              f"{indent}for {x} in {items.arr}[{items.lo}:{items.hi}]:"]
                lines += [f"{indent}    if {test}:", f"{indent}        {chosen}[{count}] = {x}; {count} += 1"]
                if repeat:
                    lines.append(f"{indent}if {count} == 0: break")
                lines.append(f"{indent}for {x} in {chosen}[:{count}]:")
                lines += self.effects(path + ("do",), inner, indent + "    ")
            else:
                if "when" in spec:
                    test = self.expr(self.parse(path + ("when",)), trigger_env, "bool").code
                    if repeat:
                        lines.append(f"{indent}if not ({test}): break")
                    else:
                        lines.append(f"{indent}if {test}:")
                        indent += "    "
                lines += self.effects(path + ("do",), trigger_env, indent)
        return "\n".join(lines) + "\n"

    def _after_change(self) -> str:
        rules = self.rules
        spec = self.data.get("end", {})
        env = {"player": _int("b_player")}
        lines = ["@njit(cache=True)", "def after_change(C, N, U, V, O, M, out, CK, BK, KEY):", "    cnt = 0",
                 "    b_player = M[29] if M[28] == 1 else M[10]",  # the seat whose turn it is
                 "    if M[0] == 0:", "        pass"]
        if rules.repeat is not None:  # the position the move led to is counted, whatever follows (Game.apply)
            lines.insert(4, "    seen = repeat_seen(C, N, U, V, M, KEY, 1)")
        for i, cond in enumerate(spec.get("when", [])):
            test = self.expr(self.parse(("end", "when", i, "if")), env, "bool").code
            lines.append(f"        {'if' if i == 0 else 'elif'} {test}:")
            if "winners" in cond:
                lines.append(f"            M[13] = {self.winners(('end', 'when', i, 'winners'), env)}")
            lines.append(f"            end(M, {self.result_code(cond['result'])}, "
                         f"{self.reason_code(cond.get('reason', ''))})")
        if rules.repeat is not None:
            count, result, reason = rules.repeat
            lines.append(f"    if M[0] == 0 and seen >= {count}:")
            lines.append(f"        end(M, {self.result_code(result)}, {self.reason_code(reason)})")
        lines.append("    if M[0] == 0 and M[4] >= 0 and M[3] >= M[4]:")
        lines.append(f"        end(M, {self.result_code('limit')}, {self.reason_code('@limit')})")
        lines.append("    if M[0] == 0:")
        lines.append("        cnt = legal(C, N, U, V, O, M, out)")
        lines.append("        if cnt < 0: raise Stop('too many legal moves')")
        cycle = rules.cycle
        if cycle is not None:
            lines.append("        track_cycle(C, N, U, V, O, M, out, cnt, CK, BK, KEY)")
        result, reason = rules.no_moves_result
        # (every seat playing at once: no seat has a move)
        none_left = " and not others_have_moves(C, N, U, V, O, M, out)" if rules.simultaneous else ""
        lines.append(f"        if M[0] == 0 and cnt == 0{none_left}:")
        lines.append(f"            end(M, {self.result_code(result)}, {self.reason_code(reason)})")
        lines.append("    if M[0] != 0:")
        lines.append("        cnt = 0")
        if "on_end" in self.data:
            lines += self.effects(("on_end",), env, "        ")
        lines.append("    return cnt")
        text = "\n".join(lines) + "\n"
        return self._cycle_code(env) + text

    def winners(self, path: tuple[Any, ...], env: dict[str, _Val]) -> str:
        """Code for the winning seats an end condition names, as a bit mask: a seat, or a list of
        seats (`list(...)`, `seats`, a range). A seat the game has not stops compiled code, and Python
        reports it; a seat named twice wins once, as in Python."""
        value = self.expr(self.parse(path), env)
        if value.type == "int":
            return f"winners_mask(np.array([{self.checked(value)}]), M[12])"
        if value.type == "int_list":
            return f"winners_mask({value.code}, M[12])"
        if value.type == "seats":
            return f"((1 << {value.code}) - 1)"
        if value.type == "range":
            return f"winners_mask(np.arange({value.lo}, {value.hi}), M[12])"
        raise self.no(f"winners that are {value.type}, not seats", path)

    def _cycle_code(self, env: dict[str, _Val]) -> str:
        cycle = self.rules.cycle
        if cycle is None:
            return "@njit(cache=True)\ndef cycle_begin(C, N, U, V, O, M, out, cnt, BK, k):\n    pass\n"
        counts = self.expr(self.parse(("end", "cycle", "when")), env, "bool").code \
            if "when" in self.data["end"]["cycle"] else "True"
        # (one more entry, 0, for no move yet: the deal, native/deal.py)
        self.helpers.append(f"IN_CYCLE = {_array([int(t.index in cycle.moves) for t in self.rules.moves] + [0])}")
        result, reason = self.result_code(cycle.result), self.reason_code(cycle.reason)
        return f'''
@njit(cache=True)
def counts(C, N, U, V, O, M):
    b_player = M[10]
    return {counts}


@njit(cache=True)
def offers_other(out, cnt):
    for i in range(cnt):
        if IN_CYCLE[out[i] // (NP1 * NP1 * CAP1 * PK * SE * SELR)] == 0:
            return True
    return False


@njit(cache=True)
def cycle_begin(C, N, U, V, O, M, out, cnt, BK, k):
    if M[6] == 0 and IN_CYCLE[k] == 1:
        if not counts(C, N, U, V, O, M):
            M[7] = 0
        elif offers_other(out, cnt):
            M[7] = 1
        else:
            position_key(C, N, U, BK)
            M[7] = 2


@njit(cache=True)
def track_cycle(C, N, U, V, O, M, out, cnt, CK, BK, KEY):
    begin = M[7]
    M[7] = 0
    if IN_CYCLE[M[5]] == 0 or not counts(C, N, U, V, O, M):
        M[6] = 0
        M[8] = 0
        return
    if M[6] == 1:
        return
    if M[6] == 0:
        if begin == 1:
            M[6] = 1
            return
        M[8] = 0
        if begin == 2:
            copy_into(CK[0], BK, NC)
            M[8] = 1
    position_key(C, N, U, KEY)
    for i in range(M[8]):
        if same(CK[i], KEY[:NC]):
            M[6] = 2
            end(M, {result}, {reason})
            return
    if offers_other(out, cnt):
        M[6] = 1
        M[8] = 0
        return
    if M[8] == len(CK):
        raise Stop("too many positions in one cycle")
    copy_into(CK[M[8]], KEY, NC)
    M[8] += 1
    M[6] = 2
'''

    def _score(self) -> str:
        env = {"player": _int("b_player")}
        code = "0"
        if self.rules.score is not None:
            if "score" in self.data:
                value = self.expr(self.parse(("score",)), env, "int")
            else:
                value = self.expr(Name(0, "score"), env)
            code = self.checked(value)
        evaluation = code
        if "heuristic" in self.data:
            evaluation = self.checked(self.expr(self.parse(("heuristic",)), env, "int"))
        if self.rules.score_sign < 0:  # `score_order: lower`: bots and the search want it high
            evaluation = f"neg({evaluation})"
        return (f"@njit(cache=True)\ndef score(C, N, U, V, O, M, b_player):\n    return {code}\n\n\n"
                f"@njit(cache=True)\ndef evaluation(C, N, U, V, O, M, b_player):\n    return {evaluation}\n")



def lower(rules: Any) -> tuple[str, dict[str, Any]]:
    """The generated module's source for a ruleset, and the tables to read its results with;
    raises `Unsupported` naming the first construct the backend does not cover."""
    return _ModuleBuilder(rules).build()
