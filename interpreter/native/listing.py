"""Lowering, part 3: the legal moves of a position, one loop nest per move template in the
Python backend's order (python/movegen.py), with `take: any` picks and `select` searches.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..front.parser import Node
from .expressions import _Emitter
from .sources import _PICK_SETS
from .values import _Val, _array, _int, _names


class _ListingBuilder(_Emitter):
    """The legal moves of a position, in compiled code."""

    def pick_digits(self) -> int:
        """The digits of the selection field a `take: {any: K}` move uses for its cards after the
        first (a card id each, bottom first as `Move.pick`): K - 1 for the largest K."""
        return max([t.picks - 1 for t in self.rules.moves if t.take == "any"], default=0)

    def selection_digits(self) -> int:
        """The digits of the selection field of the move that uses most: one per pile its `select`
        may choose (`PICK_AT`: the count taken), then its `take: {any: K}` cards after the first."""
        return max([len(t.select_piles) + (t.picks - 1 if t.take == "any" else 0) for t in self.rules.moves],
                   default=0)

    def codes_repeat(self) -> bool:
        """Do two cards of the deck share a code (two decks, say)? `take: any` then offers each code once."""
        codes = self.rules.deck.codes
        return len(set(codes)) < len(codes)

    def _listing(self) -> str:
        from ..front.parser import conjuncts

        stuck = self.rules.stuck_pass
        name = "legal" if stuck is None else "legal_of_turn"  # (`turns.no_move: pass`: wrapped below)
        out = ["@njit(cache=True)", f"def {name}(C, N, U, V, O, M, out):", "    cnt = 0", "    b_player = M[10]"]
        if any(t.take == "any" for t in self.rules.moves) and self.codes_repeat():  # each different card once a source
            out.append("    CODES_SEEN = np.zeros(NCODES, dtype=np.int64); stamp = 0")
        if self.pick_digits():  # `take: {any: K}`: the cards offered, a set's places among them, its cards
            out.append(f"    OFFERED = np.empty(NC, dtype=np.int64); PLACES = np.empty({self.pick_digits() + 1}, "
                       f"dtype=np.int64); PICKED = np.empty({self.pick_digits() + 1}, dtype=np.int64)")
        if any("select" in self.value_at(("moves", t.name)) for t in self.rules.moves):
            out.append("    SP = np.empty((MAX_FOUND, NP), dtype=np.int64); SC = np.empty((MAX_FOUND, NP), "
                       "dtype=np.int64); SL = np.empty(MAX_FOUND, dtype=np.int64)")
            out.append(f"    USED = np.zeros({len(self.rules.moves)}, dtype=np.int64)")
            out.append("    CHOSEN = np.empty(NC, dtype=np.int64)  # a selection's cards, pile by pile, bottom first")
        for template in self.rules.moves:
            out += self._template_listing(template, conjuncts)
        out.append("    return cnt")
        if stuck is not None:
            out += self._passing(stuck)
        return "\n".join(out) + "\n"

    @staticmethod
    def _passing(k: int) -> list[str]:
        """`turns.no_move: pass` (python/engine.py `_offer_pass`): a seat with no move is offered the
        move `pass` (template k) alone, if another seat could move were it its turn (from the turn's
        first phase); else nothing, and the game ends by `end.no_moves`."""
        return ["", "", "@njit(cache=True)", "def legal(C, N, U, V, O, M, out):",
                "    cnt = legal_of_turn(C, N, U, V, O, M, out)",
                "    if cnt != 0:",
                "        return cnt",
                "    me, phase = M[10], M[11]",
                "    found = False",
                "    for seat in range(M[12]):",
                "        if seat == me:",
                "            continue",
                "        M[10] = seat; M[11] = 0",
                "        if legal_of_turn(C, N, U, V, O, M, out) != 0:",
                "            found = True",
                "            break",
                "    M[10] = me; M[11] = phase",
                "    if not found:",
                "        return 0",
                f"    out[0] = enc({k}, -1, -1, 0, -2, -1) * SELR",
                "    return 1"]

    def _template_listing(self, template: Any, conjuncts: Callable[[Node], list[Node]]) -> list[str]:
        """The loops that list one move template's legal moves, nested as `movegen` nests them."""
        path = ("moves", template.name)
        spec = self.value_at(path)
        k = template.index
        sources = f"S_{k}[b_player]" if template.seat_sources else f"S_{k}"
        targets = f"D_{k}[b_player]" if template.seat_targets else f"D_{k}"
        self.helpers.append(f"S_{k} = np.array({[list(r) for r in template.seat_sources] if template.seat_sources else list(template.sources)!r}, dtype=np.int64)\n"
                            f"D_{k} = np.array({[list(r) for r in template.seat_targets] if template.seat_targets else list(template.targets)!r}, dtype=np.int64)")
        env = self.move_env(template, False)
        # the destination index its `when` implies, as the Python backend uses it (python/movegen.py)
        run, match, any_card = template.take == "run", template.index_key, template.take == "any"
        if match is not None:
            card_level, dst_level = (2 if run else 1), 3
        else:
            card_level, dst_level = (3 if run else 1), 2
        innermost = max(card_level if template.sources else 0, dst_level if template.targets else 0)
        for_seat = "for_seat" in spec
        # `choose`: one move per value, its index where a for_seat move has its seat (as movegen does)
        chooses = bool(template.choices)
        if chooses:
            for j, name in enumerate(template.choice_names):
                self.helpers.append(f"CH_{k}_{j} = {_array(self.choice_codes(template, j))}")
                env[name] = self.choice(template, j)
        select = spec.get("select")
        if select is not None:
            innermost += 1  # conditions on the chosen cards sit in the loop over selections
        select_level = innermost
        if select is not None:  # a selection's cards (filled in the loop over selections) and piles
            env["chosen"] = _Val("cards", arr="CHOSEN", lo="0", hi="n_chosen")
            env["chosen_piles"] = _Val("piles", "SP[si, :SL[si]]")
        seat_level = innermost + 1 if for_seat or chooses else innermost
        conditions: list[tuple[int, str]] = []
        if "phase" in spec:  # offered only in that phase (or those phases) of the turn
            wanted = [spec["phase"]] if isinstance(spec["phase"], str) else spec["phase"]
            indexes = sorted({self.rules.phases.index(name) for name in wanted})
            conditions.append((0, "(" + " or ".join(f"M[11] == {i}" for i in indexes) + ")"))
        if self.rules.out_of_turn and not template.out_of_turn:  # as movegen: asked, only these and `pass`
            conditions.append((0, "(M[28] == 1)" if template.declines else "(M[28] == 0)"))
        elif template.out_of_turn and template.asked_after != self.rules.opens_asking:
            after = " or ".join(f"M[35] == {i}" for i in sorted(template.asked_after))
            conditions.append((0, f"(M[28] == 0 or {after})"))
        if for_seat:
            env["target"] = _int("b_target")
            for conjunct in conjuncts(self.parse(path + ("for_seat",))):
                conditions.append((seat_level, self.expr(conjunct, env, "bool").code))
        # Other seats' piles (`from_seats`, `to_seats`): only those of seats in the game, as movegen tests
        for seats, pile, level in ((template.source_seats, "b_src", 1), (template.target_seats, "b_dst", dst_level)):
            if seats != "own":
                conditions.append((level, f"(PILE_OWNER[{pile}] < M[12])"))
        before = 0
        reads_card = reads_chosen = False
        if "when" in spec:
            parts = conjuncts(self.parse(path + ("when",)))
            if len(template.when_total) != len(parts):
                raise self.no("a move whose conditions the front end did not place", path + ("when",))
            for conjunct, total in zip(parts, template.when_total):
                code = self.expr(conjunct, env, "bool").code
                level = 0
                names = _names(conjunct, self.functions)
                reads_card = reads_card or bool(names & {"card", "cards"})
                reads_chosen = reads_chosen or "chosen" in names
                if names & {"src"}:
                    level = max(level, 1)
                if names & {"card", "cards", "n"}:
                    level = max(level, card_level)
                if names & {"dst"}:
                    level = max(level, dst_level)
                if names & {"target", *template.choice_names}:
                    level = max(level, seat_level)
                if names & {"chosen", "chosen_piles"}:
                    level = max(level, select_level)
                # As the front end places them (movegen.template): a conjunct that can fail no
                # earlier than the ones before it; one that cannot in the outermost loop its names
                # allow, even ahead of parts written before it (false there, those are not reached).
                if not total:
                    level = max(level, before)
                before = max(before, level)
                conditions.append((level, code))
        lines: list[str] = []
        indent = "    "

        def emit(level: int) -> None:
            for lvl, code in conditions:
                if lvl == level:
                    lines.append(f"{indent}if not {code}: continue")

        lines.append(f"    for _once in range(1):  # move {template.name}")
        indent = "        "
        emit(0)
        if match is not None:
            dst_key = self.expr(match.dst, env)
            card_key = self.expr(match.card, env)
            lines.append(f"{indent}DK = np.empty(len({targets}), dtype=np.int64)")
            lines.append(f"{indent}for i in range(len({targets})):")
            lines.append(f"{indent}    b_dst = {targets}[i]")
            lines.append(f"{indent}    DK[i] = {self.as_type(dst_key, 'int').code}")
        if template.sources:
            lines.append(f"{indent}for b_src in {sources}:")
            indent += "    "
            lines.append(f"{indent}if N[b_src] == 0: continue")
            if any(self.rules.cover[p] for p in template.sources):  # `covered_by`: not from a covered pile
                lines.append(f"{indent}if covered(N, COVER, b_src): continue")
            if any_card and template.picks > 1:
                lines += self.pick_sets(template, indent)
                indent += "    "
            elif any_card:  # any one card, each different card (code) once; hidden ones blind, once
                zones = {self.rules.zones[self.rules.pile_zone[p]] for p in template.sources}
                blind = any(zone.visibility != "all" for zone in zones)
                # (a card whose code another card has is offered once: where no code repeats, every card)
                once = ["if CODES_SEEN[CODE[b_card]] == stamp: continue",
                        "CODES_SEEN[CODE[b_card]] = stamp; b_pick = b_card"] if self.codes_repeat() else ["b_pick = b_card"]
                lines.append(f"{indent}{'stamp += 1; ' if self.codes_repeat() else ''}offered_blind = False")
                lines.append(f"{indent}for j in range(N[b_src] - 1, -1, -1):")
                indent += "    "
                lines.append(f"{indent}b_card = C[b_src, j]")
                if blind:
                    lines.append(f"{indent}if not sees(C, N, U, b_card, b_src, b_player):")
                    lines.append(f"{indent}    if {reads_card} or offered_blind: continue")
                    lines.append(f"{indent}    offered_blind = True; b_pick = -1")
                    lines.append(f"{indent}else:")
                    lines += [f"{indent}    {line}" for line in once]
                else:
                    lines += [f"{indent}{line}" for line in once]
                lines.append(f"{indent}b_n = 1")
            elif template.take == "top":
                lines.append(f"{indent}b_n = 1; b_card = C[b_src, N[b_src] - 1]")
            elif template.take == "all":
                lines.append(f"{indent}b_n = N[b_src]; b_card = C[b_src, 0]")
            elif template.take == "count":
                take = spec["take"]
                count = repr(take) if isinstance(take, int) else \
                    self.checked(self.expr(self.parse(path + ("take",)), env, "int"))
                lines.append(f"{indent}b_n = {count}")
                lines.append(f"{indent}if b_n < 1 or b_n > N[b_src]: continue")
                lines.append(f"{indent}b_card = C[b_src, N[b_src] - b_n]")
            else:
                lines.append(f"{indent}longest = N[b_src] - run_start(C[b_src], N[b_src], U)")
                lines.append(f"{indent}if longest == 0: continue")
            emit(1)
        else:
            lines.append(f"{indent}b_src = -1; b_n = 0")

        def run_loop() -> None:
            nonlocal indent
            lines.append(f"{indent}for b_n in range(1, longest + 1):")
            indent += "    "
            lines.append(f"{indent}b_card = C[b_src, N[b_src] - b_n]")
            emit(card_level)

        if run and match is not None:
            run_loop()
        if template.targets:
            if match is not None:
                lines.append(f"{indent}key = {self.as_type(card_key, 'int').code}")
                lines.append(f"{indent}for i in range(len({targets})):")
                indent += "    "
                lines.append(f"{indent}if DK[i] != key: continue")
                lines.append(f"{indent}b_dst = {targets}[i]")
            else:
                lines.append(f"{indent}for b_dst in {targets}:")
                indent += "    "
            if template.sources:
                lines.append(f"{indent}if b_dst == b_src: continue")
            if any(self.rules.cover[p] for p in template.targets):  # `covered_by`: not onto a covered pile
                lines.append(f"{indent}if covered(N, COVER, b_dst): continue")
            if any(self.rules.empty_first[p] >= 0 for p in template.targets):  # `empty_piles: first`
                lines.append(f"{indent}if N[b_dst] == 0 and EMPTY_FIRST[b_dst] >= 0 and "
                             f"not all_filled(N, EMPTY_FIRST[b_dst], b_dst): continue")
            emit(dst_level)
        else:
            lines.append(f"{indent}b_dst = -1")
        if run and match is None:
            run_loop()
        pick = "b_pick" if any_card else "-2"
        others = "b_others" if any_card and template.picks > 1 else "0"
        selection = others
        if select is not None:
            chooser = self.selector(template, path + ("select",), select, env)
            lines.append(f"{indent}found = {chooser}(C, N, U, V, O, M, b_src, b_dst, b_card, b_n, b_player, "
                         f"SP, SC, SL, USED, {k})")
            lines.append(f"{indent}for si in range(found):")
            indent += "    "
            if reads_chosen:
                lines += [f"{indent}n_chosen = 0",
                          f"{indent}for sj in range(SL[si]):",
                          f"{indent}    for t in range(N[SP[si, sj]] - SC[si, sj], N[SP[si, sj]]):",
                          f"{indent}        CHOSEN[n_chosen] = C[SP[si, sj], t]; n_chosen += 1"]
            emit(select_level)
            lines.append(f"{indent}b_sel = 0")
            lines.append(f"{indent}for sj in range(SL[si]):")
            lines.append(f"{indent}    b_sel += SC[si, sj] * SELPOW[SELPOS_{k}[SP[si, sj]]]")
            selection = f"b_sel + {others}"
        if for_seat or chooses:
            lines.append(f"{indent}for b_target in range({len(template.choices) if chooses else 'M[12]'}):")
            indent += "    "
            for j, seat in enumerate(template.choice_seats):  # a game offers only its own seats
                if seat:
                    lines.append(f"{indent}if CH_{k}_{j}[b_target] >= M[12]: continue")
            emit(seat_level)
        lines.append(f"{indent}if cnt == len(out): return -1")
        lines.append(f"{indent}out[cnt] = enc({k}, b_src, b_dst, b_n, {pick}, "
                     f"{'b_target' if for_seat or chooses else '-1'}) "
                     f"* SELR + {selection}; cnt += 1")
        return lines

    def pick_sets(self, template: Any, indent: str) -> list[str]:
        """`take: {any: K}` (movegen.pick_sets): every set of K of the cards of `b_src` the seat sees, as
        itertools.combinations orders them (places in the pile, bottom first), sets of the same
        codes once; the loop over sets, its body one level deeper. Binds b_n, b_card, b_pick (the
        first card) and b_others (the other cards, the selection field's digits)."""
        k = template.picks
        after = len(template.select_piles)  # (the digits of a `select` come first)
        if _PICK_SETS not in self.helpers:
            self.helpers.append(_PICK_SETS)
        zones = {self.rules.zones[self.rules.pile_zone[p]] for p in template.sources}
        seen = "if not sees(C, N, U, C[b_src, j], b_src, b_player): continue" if \
            any(zone.visibility != "all" for zone in zones) else ""
        repeats = len(set(self.rules.deck.codes)) < len(self.rules.deck)  # equal cards: each set of codes once
        body = indent + "    "
        lines = [f"{indent}offered = 0",
                 f"{indent}for j in range(N[b_src]):",
                 *([f"{indent}    {seen}"] if seen else []),
                 f"{indent}    OFFERED[offered] = C[b_src, j]; offered += 1",
                 f"{indent}if offered < {k}: continue",
                 f"{indent}sets = n_choose(offered, {k})"]
        if repeats:
            lines.append(f"{indent}SETS_SEEN = np.empty((sets, {k}), dtype=np.int64); sets_seen = 0")
        lines += [f"{indent}for set_index in range(sets):",
                  f"{body}next_set(PLACES, {k}, offered, set_index == 0)",
                  f"{body}for t in range({k}): PICKED[t] = OFFERED[PLACES[t]]"]
        if repeats:
            lines += [f"{body}if set_seen(SETS_SEEN, sets_seen, PICKED, {k}): continue", f"{body}sets_seen += 1"]
        return lines + [f"{body}b_n = {k}; b_card = PICKED[0]; b_pick = PICKED[0]; b_others = 0",
                        f"{body}for t in range(1, {k}): b_others += PICKED[t] * SELPOW[t - 1 + {after}]"]

    def selector(self, template: Any, path: tuple[Any, ...], spec: dict[str, Any], env: dict[str, _Val]) -> str:
        """The search of `select` (movegen.make_selector), as a compiled function: piles tried in
        order, each skipped or giving one of its counts, cut where a sum of values that cannot
        be negative passes the goal; more than `limit` steps in one listing stops (Python replays)."""
        rules, k = self.rules, template.index
        zones = [rules.zones[z] for z in (spec["from"] if isinstance(spec["from"], list) else [spec["from"]])]
        piles, take = list(template.select_piles), template.select_take
        tried = f"SELP_{k}"  # the piles tried, in order: with a per-player zone, the seat's own (and the shared)
        if any(zone.seat_piles is not None for zone in zones):
            rows = [[p for zone in zones for p in (zone.piles if zone.seat_piles is None else zone.seat_piles[seat])]
                    for seat in range(rules.max_players)]
            self.helpers.append(f"SELSEAT_{k} = np.array({rows!r}, dtype=np.int64)")
            tried = f"SELSEAT_{k}[b_player]"
        inner = dict(env)
        inner["p"] = _Val("pile", "p")
        # (as make_selector binds them: the source's top n cards, whatever the move takes)
        inner["cards"] = _Val("cards", arr="C[b_src]", lo="N[b_src] - b_n", hi="N[b_src]")
        test = self.expr(self.parse(path + ("when",)), inner, "bool").code if "when" in spec else "True"
        goal = self.checked(self.expr(self.parse(path + ("equals",)), inner, "int")) if "equals" in spec else None
        attribute = spec.get("sum")
        values = f"A_{attribute}" if attribute else None
        fewest, most, limit = spec.get("min", 1), spec.get("max", len(piles)), spec.get("limit", 10_000)
        self.select_piles[k] = piles
        self.helpers.append(f"SELP_{k} = {_array(piles)}\n"
                            f"SELPOS_{k} = {_array([piles.index(p) if p in piles else 0 for p in range(rules.pile_count)])}")
        count = {"top": "1", "all": "N[p]"}.get(take, "N[p] - run_start(C[p], N[p], U)")
        name = f"select_{k}"
        value = f"ck({values}[C[p, N[p] - 1 - t]])" if values else "0"
        self.helpers.append(f'''@njit(cache=True)
def {name}(C, N, U, V, O, M, b_src, b_dst, b_card, b_n, b_player, SP, SC, SL, USED, k):
    n_opt = 0
    OP = np.empty(NP, dtype=np.int64); NO = np.empty(NP, dtype=np.int64)
    OC = np.empty((NP, NC + 1), dtype=np.int64); OV = np.empty((NP, NC + 1), dtype=np.int64)
    for p in {tried}:
        if p == b_src or p == b_dst or N[p] == 0:
            continue
        if not {test}:
            continue
        {"most_counts = " + count}
        OP[n_opt] = p
        if {take == "top" or take == "all"}:
            NO[n_opt] = 1
            OC[n_opt, 0] = most_counts
            total = 0
            for t in range(most_counts):
                total = add(total, {value})
            OV[n_opt, 0] = total
        else:
            NO[n_opt] = most_counts
            total = 0
            for t in range(most_counts):
                total = add(total, {value})
                OC[n_opt, t] = t + 1
                OV[n_opt, t] = total
        n_opt += 1
    has_goal = {goal is not None}
    goal = {goal if goal is not None else "0"}
    prune = has_goal
    for i in range(n_opt):
        for j in range(NO[i]):
            if OV[i, j] < 0:
                prune = False
    found = 0
    # the depth-first walk of make_selector, one frame per pile: SJ the next choice (-1: entering;
    # 0..NO-1: give that count; NO: skip it), ST the sum so far, SI whether the parent chose a count
    SJ = np.empty(n_opt + 1, dtype=np.int64); ST = np.empty(n_opt + 1, dtype=np.int64)
    SI = np.empty(n_opt + 1, dtype=np.int64)
    chosen_p = np.empty(n_opt + 1, dtype=np.int64); chosen_c = np.empty(n_opt + 1, dtype=np.int64)
    n_chosen = 0
    depth = 0
    SJ[0] = -1; ST[0] = 0; SI[0] = 0
    while depth >= 0:
        i = depth
        j = SJ[depth]
        if j == -1:
            USED[k] += 1
            if USED[k] > {limit}:
                raise Stop("more selections than the limit")
            if (prune and ST[depth] > goal) or i == n_opt:
                if i == n_opt and not (prune and ST[depth] > goal):
                    if {fewest} <= n_chosen <= {most} and (not has_goal or ST[depth] == goal):
                        if found == len(SL):
                            raise Stop("too many selections")
                        for c in range(n_chosen):
                            SP[found, c] = chosen_p[c]
                            SC[found, c] = chosen_c[c]
                        SL[found] = n_chosen
                        found += 1
                if SI[depth] == 1:
                    n_chosen -= 1
                depth -= 1
                continue
            SJ[depth] = 0 if n_chosen < {most} else NO[i]
            continue
        if j < NO[i]:
            SJ[depth] = j + 1
            chosen_p[n_chosen] = OP[i]; chosen_c[n_chosen] = OC[i, j]; n_chosen += 1
            depth += 1
            SJ[depth] = -1; ST[depth] = add(ST[depth - 1], OV[i, j]); SI[depth] = 1
            continue
        if j == NO[i]:
            SJ[depth] = j + 1
            depth += 1
            SJ[depth] = -1; ST[depth] = ST[depth - 1]; SI[depth] = 0
            continue
        if SI[depth] == 1:
            n_chosen -= 1
        depth -= 1
    return found
''')
        return name
