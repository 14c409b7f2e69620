"""Stage 5b: generate the Python code that enumerates a ruleset's legal moves.

Each move template becomes one block of generated loops: source pile -> destination pile
-> run length (for `take: run`), or, with a `match` key, source -> run length ->
destinations looked up in an index built once per position (a hash join). Each `when`
conjunct, and each subexpression that cannot fail (a pile's top card, a card's attribute),
is computed once, in the outermost loop whose names it uses (unless only one condition that
cannot fail uses it, once, in the loop where it is tested: it is then left in that condition,
`MoveGenerator._inline_single_uses`); a conjunct that can fail is tested no earlier than the
conjuncts written before it. With `match`, a `take: run` move's loop over lengths walks down
the source's face-up run itself (`WALK_RUNS`). A `take: run` move's check on every
two neighbouring moved cards (`all(... for a, b in pairs(cards))`) becomes one scan of the
source's face-up run, and lengths past the longest run that passes are not looped
(`MoveGenerator._plan_runs`). All blocks are also joined
into one function, `enumerate_all`, so a position costs one call and destination indexes
that several moves share are built once. Every position is listed whole: keeping the blocks
whose reads a move did not change was measured slower than listing whole (docs/design.md).
"""

from __future__ import annotations

import ast
import dataclasses
import io
import itertools
import keyword
import math
import operator
import tokenize
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..front.compiler import BOOL, INT, PILE, Compiled, CompileError, Compiler, Scope, Span, names_in
from ..base.errors import RulesetError, RulesetRuntimeError, RulesetWarning, unknown
from ..model.indexes import IndexKey, candidate_keys, same_index, written_key as written_index
from ..base.limits import MAX_STEPS
from ..front.parser import Binary, Node, Ternary, Unary, conjuncts
from ..front.source import PathKey
from .moves import BLIND

# The generated loops count their steps in a local and settle with the ruleset's meter at the end
# (a call per loop would cost a fifth of a listing); past the budget, `over_steps` raises. The
# count is checked once per source pile (and card of a `take: any`); what one source can cost
# between checks is bounded by the cards and piles a ruleset may have.
STEPS_START = "    steps = 0; budget = METER.left"
STEPS_END = "    METER.left -= steps"

# Whether a `take: run` move's pair checks become one scan per source (`MoveGenerator._plan_runs`), read
# when a ruleset loads; tests and benchmarks/runs.py switch it off to compare with the plain loops.
RUN_SCAN = True

# Whether a `take: run` move with `match` walks down each source's face-up run in its loop over lengths,
# counting the run's steps after it, instead of finding the run's length first (`MoveGenerator.template`),
# read when a ruleset loads; tests switch it off to compare with the two walks.
WALK_RUNS = True

# Whether a destination index whose keys read only its piles' cards is kept between listings and used
# again while those piles are the same lists (`MoveGenerator._index_lines`), read when a ruleset
# loads; tests switch it off to compare with an index built at every listing.
KEEP_INDEXES = True

# Whether a move's destinations are looked up in the index its `when` implies (`MoveGenerator._derived_index`),
# read when a ruleset loads; tests and benchmarks/match_indexes.py switch it off to compare with every
# destination tried.
INDEXES = True

# The moves a game's listings have made, kept to be offered again (`Lineage.known`, by their
# fields), up to this many: a listing makes a `Move` only for a move it has not offered before.
MAX_KNOWN = 100_000


def remember(known: dict[Any, Any], key: Any, move: Any) -> Any:
    """Keep a move just made for `known` (emptied when full); return it."""
    if len(known) >= MAX_KNOWN:
        known.clear()
    known[key] = move
    return move

def pick_sets(offered: list[int], count: int, codes: Any) -> list[tuple[int, ...]]:
    """`take: {any: K}`: every set of `count` cards of `offered` (the pile's cards the seat may
    choose), each as a tuple in the pile's order, bottom first; sets of equal cards (the same codes)
    once, the first found."""
    seen: set[tuple[str, ...]] = set()
    found = []
    for cards in itertools.combinations(offered, count):
        key = tuple(sorted(codes[c] for c in cards))
        if key not in seen:
            seen.add(key)
            found.append(cards)
    return found


if TYPE_CHECKING:
    from ..model.ruleset import MoveTemplate, _Builder


class MoveGenerator:
    """Generates enumerators for the move templates of one ruleset being built."""

    def __init__(self, host: _Builder) -> None:
        self.host = host
        self.parts: list[tuple[MoveTemplate, Any, int, list[str]]] = []
        self.spans: list[Span] = []  # the code that can fail in every template, for `enumerate_all`
        self._tables: dict[str, str] | None = None  # see `_table_kinds`

    def template(self, template: MoveTemplate, path: PathKey, spec: dict[str, Any], scope: Scope) -> Callable[..., None]:
        """Generate `enum(S, out, Move, rules)`, which appends every legal move of this template.

        Loops nest as source pile -> destination pile -> run length (for `take: run`). With
        `match`, destinations are instead indexed once by their key and looked up per card:
        source -> run length -> matching destinations. Each `when` conjunct, and each
        subexpression that cannot fail (a pile's top card, a card's attribute), is placed in the
        outermost loop whose names it uses, and computed once there. A conjunct that can fail
        keeps its place after the conjuncts before it (its loop is no outer than theirs, and
        within a loop conditions are tested in the order written), so they guard it.
        """
        k = template.index
        run = template.take == "run"
        written = spec.get("match")
        scope = dataclasses.replace(scope, listing=True)  # no `legal_moves()` while they are listed
        if written is not None and not (template.sources and template.targets):
            raise RulesetError("'match' needs a move with both 'from' and 'to'", self.host.doc.pos(path + ("match",)))
        # The destination index comes from `when` itself (model/indexes.py), so it never leaves out a move
        # `when` allows; a hand-written `match` is only checked against it.
        template.index_key = self._derived_index(template, path, spec, scope)
        match = template.index_key
        # Loop levels: 1 source, then (card, destination) in the order the loops nest.
        if match is not None:
            card_level, dst_level = (2 if run else 1), 3
        else:
            card_level, dst_level = (3 if run else 1), 2
        innermost = max(card_level if template.sources else 0, dst_level if template.targets else 0)
        select = spec.get("select")
        if select is not None:
            innermost += 1  # conditions on the chosen cards sit in the loop over selections
        for_seat = "for_seat" in spec
        chooses = for_seat or bool(template.choices)
        if chooses:
            innermost += 1  # conditions on the chosen seat (or value) sit in the loop over seats (values)
        select_level = innermost
        if select is not None:
            self.host.globals[f"SELECT_{k}"] = make_selector(self.host, template, path + ("select",), select, scope)
        seat_level = innermost
        hoister = _Hoister({"src": 1, "card": card_level, "dst": dst_level, "chosen": select_level,
                            "target": seat_level}, innermost, f"h{k}_")
        scope = scope.with_bindings({}, {"b_src": "pile", "b_dst": "pile_dst"})

        spans: list[Span] = []

        def compile_here(node: Node, where: PathKey, expect: tuple[str, ...] | None = None,
                         hoisting: bool = True) -> Compiled:
            compiled, compiler = self.host.compile_node(node, where, scope, expect, hoister if hoisting else None)
            spans.extend(self.host.spans(compiler, where))
            return compiled

        conditions: list[tuple[int, str]] = []  # (level, python condition)
        totals: list[bool] = []  # for each condition: its code cannot fail (`Compiled.total`)
        if "phase" in spec:  # offered only in that phase (or those phases) of the turn
            phases = self.host.rules.phases
            wanted = [spec["phase"]] if isinstance(spec["phase"], str) else spec["phase"]
            for i, name in enumerate(wanted):
                if name not in phases:
                    where = path + ("phase",) + ((i,) if isinstance(spec["phase"], list) else ())
                    raise RulesetError(unknown("phase", name, phases) if phases else "'phase' needs turns.phases",
                                       self.host.doc.pos(where))
            indexes = tuple(sorted({phases.index(name) for name in wanted}))
            conditions.append((0, f"(S.phase == {indexes[0]})" if len(indexes) == 1 else f"(S.phase in {indexes!r})"))
            totals.append(True)
        if self.host.rules.out_of_turn and not template.out_of_turn:
            # A seat asked to act out of turn has only the moves made out of turn, and `pass`.
            conditions.append((0, "(S.asking is not None)" if template.declines else "(S.asking is None)"))
            totals.append(True)
        elif template.out_of_turn and template.asked_after != self.host.rules.opens_asking:
            # Asked only after some moves: not while the seats are asked after another.
            after = tuple(sorted(template.asked_after))
            conditions.append((0, f"(S.asking is None or S.asking[4] in {after!r})"))
            totals.append(True)
        if for_seat:
            for conjunct in conjuncts(self.host.parse(path + ("for_seat",))):
                compiled = compile_here(conjunct, path + ("for_seat",), (BOOL,))
                conditions.append((seat_level, compiled.source))
                totals.append(compiled.total)
        if "when" in spec:
            before = 0  # the innermost loop level of the conjuncts so far
            when_total = []
            for conjunct in conjuncts(self.host.parse(path + ("when",))):
                compiled = compile_here(conjunct, path + ("when",), (BOOL,))
                when_total.append(compiled.const or compiled.total)
                if compiled.const:
                    if not compiled.value:
                        conditions.append((0, "False"))
                        totals.append(True)
                    continue
                level = hoister.level_of(compiled.source)  # the outermost loop where its names are known
                if not compiled.total:  # guarded by the conjuncts before it: tested after them
                    level = max(level, before)
                before = max(before, level)
                conditions.append((level, compiled.source))
                totals.append(compiled.total)
            template.when_total = tuple(when_total)
        card_key = dst_key = ""
        if match is not None:
            card_key = compile_here(match.card, path + ("when",)).source
            dst_key = compile_here(match.dst, path + ("when",), hoisting=False).source
        count_source = None
        if template.take == "count":
            take = spec["take"]
            if isinstance(take, int):
                count_source = repr(take)
            else:
                count_source = compile_here(self.host.parse(path + ("take",)), path + ("take",), (INT,), False).source
                if names_in(count_source) & {"b_dst", "b_cards", "b_card", "b_n", "pile_dst"}:
                    raise RulesetError("a take count can only use 'src' among the move's names",
                                       self.host.doc.pos(path + ("take",)))
        # Piles to loop over: a tuple, or, with per-player zones, a tuple per acting seat.
        self.host.globals[f"SRC_{k}"] = template.seat_sources or template.sources
        self.host.globals["REMEMBER"] = remember
        self.host.globals["pick_sets"], self.host.globals["comb"] = pick_sets, math.comb
        self.host.globals[f"DST_{k}"] = template.seat_targets or template.targets
        sources = f"SRC_{k}[b_player]" if template.seat_sources else f"SRC_{k}"
        targets = f"DST_{k}[b_player]" if template.seat_targets else f"DST_{k}"
        plan = _RunPlan(conditions, "longest", [], {}, False)
        if run and RUN_SCAN:
            levels = _Levels(card_level, dst_level, match is not None, bool(template.targets))
            plan = self._plan_runs(conditions, totals, hoister, levels, card_key, k)
        conditions = plan.conditions
        # With an index and nothing that needs the run's length before its loop (scans, a bound from
        # them, a check of the steps within the loop), the loop over lengths walks down the face-up
        # run itself, stopping at the first card face down, and counts its steps after.
        walking = WALK_RUNS and run and match is not None and not plan.scans and plan.bound == "longest" and not template.choices
        every = " ".join([src for _, src in conditions] + [src for _, _, src in hoister.items] + [card_key])
        uses_cards = "b_cards" in names_in(every)
        # `take: any` from piles whose cards the seat may not all see: a hidden card is offered blind,
        # as one move (`BLIND`) for all of them, and only if no condition reads the card (else
        # whether it is offered would tell which card it is).
        blind = template.take == "any" and any(self.host.rules.zones[self.host.rules.pile_zone[p]].visibility != "all"
                                               for p in template.sources)
        reads_card = bool({"b_card", "b_cards"} & names_in(every)) or select is not None
        lines = [f"def enum_{k}(S, out, Move, rules):",
                 "    P = S.piles; U = S.up; V = S.vars; b_player = S.current; b_move = " + repr(template.name)
                 + "; MK = rules.known", STEPS_START]
        # In a game where moves are not given to a seat after they are listed (not simultaneous), the
        # listing offers the `Move` it made for the same fields before, if any (`MAX_KNOWN`).
        interning = not self.host.rules.simultaneous

        def offer(args: str, key: str) -> None:
            if interning:
                lines.append(f"{indent}mv = MK.get({key})")
                lines.append(f"{indent}if mv is None: mv = REMEMBER(MK, {key}, Move(rules, {args}))")
                lines.append(f"{indent}out.append(mv)")
            else:
                lines.append(f"{indent}out.append(Move(rules, {args}))")

        indent = "    "

        # With an index, most cards find no destination: a card fact needed only by destination
        # conditions is computed inside the (short) loop over matching destinations.
        emit_level = {name: lvl for lvl, name, _ in hoister.items}
        if match is not None:
            for lvl, name, _ in hoister.items:
                users = [l for l, cond in conditions if name in names_in(cond)]
                users += [emit_level[n] for _, n, src in hoister.items if name in names_in(src)]
                if lvl == card_level and name not in names_in(card_key) and users and \
                        min(users) == dst_level:
                    emit_level[name] = dst_level

        inlined = self._inline_single_uses(conditions, hoister, emit_level, plan, card_key)

        emitted: set[int] = set()

        def emit(level: int, exit_word: str = "continue") -> None:
            emitted.add(level)
            for _, name, source in hoister.items:
                if emit_level[name] == level and name not in inlined:
                    lines.append(f"{indent}{name} = {source}")
            for i, (lvl, cond) in enumerate(conditions):
                if lvl != level:
                    continue
                memo = plan.memo.get(i)
                if memo is None:
                    lines.append(f"{indent}if not {cond}: {exit_word}")
                else:  # the outcome for this run length, the first time a destination asks for it
                    lines.append(f"{indent}failed = {memo}[b_n]")
                    lines.append(f"{indent}if failed is None: failed = {memo}[b_n] = not {cond}")
                    lines.append(f"{indent}if failed: {exit_word}")

        def bind_cards(count: str) -> None:
            lines.append(f"{indent}b_n = {count}; b_card = pile[-b_n]" if count != "b_n" else
                         f"{indent}b_card = pile[-b_n]")
            if uses_cards:
                lines.append(f"{indent}b_cards = pile[-b_n:]")

        def run_loop() -> None:
            """The loop over run lengths: over the cards from the top down, n counted alongside (a
            slice walked backwards costs less than indexing the pile for each length)."""
            nonlocal indent
            if walking:  # the face-up run from the top down; its length is counted after the loop
                lines.append(f"{indent}b_n = 0")
                lines.append(f"{indent}for b_card in reversed(pile):")
                indent += "    "
                lines.append(f"{indent}if not U[b_card]: break")
                lines.append(f"{indent}b_n += 1")
                if uses_cards:
                    lines.append(f"{indent}b_cards = pile[-b_n:]")
                emit(card_level)
                return
            lines.extend(indent + line for line in plan.scan_lines())
            lines.append(f"{indent}steps += {plan.bound}")
            # the cards pile[-1], ..., pile[-bound]: a slice backwards that stops before pile[-bound - 1]
            stop = "k - 1" if plan.bound == "longest" else f"len(pile) - {plan.bound} - 1"
            lines.append(f"{indent}b_n = 0; b_stop = {stop}")
            lines.append(f"{indent}for b_card in pile[:b_stop if b_stop >= 0 else None:-1]:")
            indent += "    "
            lines.append(f"{indent}b_n += 1")
            if uses_cards:
                lines.append(f"{indent}b_cards = pile[-b_n:]")
            emit(card_level)

        def dst_loop() -> None:
            nonlocal indent
            if match is not None:
                # not counted: the destinations a card finds are at most the piles (limits.MAX_PILES)
                lines.append(f"{indent}for b_dst in INDEX.get({card_key}, ()):")
            else:
                lines.append(f"{indent}steps += len({targets})")
                lines.append(f"{indent}for b_dst in {targets}:")
            indent += "    "
            if template.sources:
                lines.append(f"{indent}if b_dst == b_src: continue")
            lines.append(f"{indent}pile_dst = P[b_dst]")
            if match is None:  # (with an index, the index leaves such destinations out)
                lines.extend(indent + line for line in self._destination_filters(template))
            emit(dst_level)

        emit(0, "return")
        index_at = len(lines)
        index_lines = self._index_lines(template, targets, dst_key, "INDEX", None) if match is not None else []
        lines.extend(indent + line for line in index_lines)
        if template.sources:
            lines.append(f"{indent}steps += len({sources})")
            lines.append(f"{indent}for b_src in {sources}:")
            indent += "    "
            lines.append(f"{indent}if steps > budget: over_steps()")
            lines.append(f"{indent}pile = P[b_src]")
            lines.append(f"{indent}if not pile: continue")
            if any(self.host.rules.cover[p] for p in template.sources):  # `covered_by`: not from a covered pile
                lines.append(f"{indent}if any(P[q] for q in COVER[b_src]): continue")
            if template.take == "top":
                bind_cards("1")
            elif template.take == "all":
                bind_cards("len(pile)")
            elif template.take == "any" and template.picks > 1:  # any K cards: each set of codes once
                lines.append(f"{indent}steps += comb(len(pile), {template.picks})")
                lines.append(f"{indent}if steps > budget: over_steps()")
                offered = "[c for c in pile if SEES(S, c, b_src, b_player)]" if blind else "pile"
                lines.append(f"{indent}for b_pick in pick_sets({offered}, {template.picks}, CODE):")
                indent += "    "
                lines.append(f"{indent}b_n = {template.picks}; b_card = b_pick[0]")
                if uses_cards:
                    lines.append(f"{indent}b_cards = [*b_pick]")
            elif template.take == "any":  # any one card of the pile; equal cards (one code) give one move
                lines.append(f"{indent}codes_seen = set()")
                if blind:
                    lines.append(f"{indent}offered_blind = False")
                lines.append(f"{indent}steps += len(pile)")
                lines.append(f"{indent}for b_card in reversed(pile):")
                indent += "    "
                lines.append(f"{indent}if steps > budget: over_steps()")
                if blind:
                    lines.append(f"{indent}if not SEES(S, b_card, b_src, b_player):")
                    lines.append(f"{indent}    if {'True' if reads_card else 'offered_blind'}: continue")
                    lines.append(f"{indent}    offered_blind = True; b_pick = {BLIND}")
                    lines.append(f"{indent}else:")
                    lines.append(f"{indent}    if CODE[b_card] in codes_seen: continue")
                    lines.append(f"{indent}    codes_seen.add(CODE[b_card]); b_pick = b_card")
                else:
                    lines.append(f"{indent}if CODE[b_card] in codes_seen: continue")
                    lines.append(f"{indent}codes_seen.add(CODE[b_card])")
                lines.append(f"{indent}b_n = 1")
                if uses_cards:
                    lines.append(f"{indent}b_cards = [b_card]")
            elif walking:
                lines.append(f"{indent}if not U[pile[-1]]: continue")  # no face-up card
            elif run:
                lines.append(f"{indent}k = len(pile)")
                lines.append(f"{indent}while k and U[pile[k - 1]]: k -= 1")
                lines.append(f"{indent}if k == len(pile): continue")
                lines.append(f"{indent}longest = len(pile) - k")
            else:
                lines.append(f"{indent}b_n = {count_source}")
                lines.append(f"{indent}if b_n < 1 or b_n > len(pile): continue")
                bind_cards("b_n")
            emit(1)
            lines.extend(indent + line for line in plan.source_lines())
        else:
            lines.append(f"{indent}b_src = -1; b_n = 0")
        walked = indent  # the loop over sources' body, where a walked run's steps are counted
        if run and match is not None:
            run_loop()
        if template.targets:
            dst_loop()
        else:
            lines.append(f"{indent}b_dst = -1")
        if run and match is None:
            run_loop()
        pick = (", b_pick" if blind or template.picks > 1 else ", b_card") if template.take == "any" else \
            (", None" if chooses else "")
        seat_arg = ", b_target" if chooses else ""
        if select is not None and for_seat:
            raise RulesetError("a move cannot have both 'select' and 'for_seat'", self.host.doc.pos(path))
        if chooses:
            if for_seat:
                lines.append(f"{indent}for b_target in range(S.players):")
            else:  # `choose`: the value's index goes in the move (as a seat does), the value is bound
                lines.append(f"{indent}steps += {len(template.choices)}")
                lines.append(f"{indent}if steps > budget: over_steps()")
                lines.append(f"{indent}for b_target, b_choice in enumerate(CHOICES_{k}):")
            indent += "    "
            emit(seat_level)
            offer(f"{k}, b_src, b_n, b_dst, (){pick}{seat_arg}", f"({k}, b_src, b_n, b_dst{pick}{seat_arg})")
        elif select is not None:
            lines.append(f"{indent}for b_selection, b_chosen_piles, b_chosen in SELECT_{k}(S, b_src, b_dst, b_card, b_n, "
                         f"b_player):")
            indent += "    "
            emit(select_level)
            lines.append(f"{indent}out.append(Move(rules, {k}, b_src, b_n, b_dst, b_selection{pick}))")
        else:
            offer(f"{k}, b_src, b_n, b_dst{', ()' + pick if pick else ''}", f"({k}, b_src, b_n, b_dst{pick})")
        if walking:
            lines.append(f"{walked}steps += b_n")
        levels_used = {lvl for lvl, _ in conditions} | set(emit_level.values())
        assert levels_used <= emitted, f"conditions at loop levels {levels_used - emitted} were not placed"
        source = "\n".join(lines + [STEPS_END]) + "\n"
        template.pos = self.host.doc.expr_pos(path + ("when",), 0) if "when" in spec else self.host.doc.pos(path)
        # Moves whose destinations are the same piles with the same key share one index.
        index = (template.seat_targets is not None, template.seat_targets or template.targets, dst_key) \
            if match is not None else None
        body = lines[3:index_at] + lines[index_at + len(index_lines):]
        self.parts.append((template, index, index_at - 3, body))
        self.spans.extend(spans)
        return self.host.define(f"enum_{k}", source, spans=spans)

    def _derived_index(self, template: MoveTemplate, path: PathKey, spec: dict[str, Any],
                       scope: Scope) -> IndexKey | None:
        """The destination index this move's `when` implies (model/indexes.py): the first candidate whose
        keys are numbers and cannot fail, found past conjuncts that cannot fail; None when there is
        none (every destination is then tried). A hand-written `match` is compiled (its errors are
        the ruleset's) and, unless it is one of the indexes the condition implies, ignored, with a
        warning in `rules.warnings` (it would leave out moves the condition allows)."""
        if not (template.sources and template.targets):
            return None
        scope = scope.with_bindings({}, {"b_src": "pile", "b_dst": "pile_dst"})
        bound = frozenset(scope.bindings)
        others = bound - {"src", "dst", "card", "cards", "n", "player", "move"}
        functions, options = scope.functions, scope.options
        written = spec.get("match")
        written_key = None
        if written is not None:
            nodes = {}
            for part in ("card", "dst"):
                nodes[part] = self.host.parse(path + ("match", part))
                code = self.host.compile_node(nodes[part], path + ("match", part), scope)[0].source
                where = self.host.doc.pos(path + ("match", part))
                if part == "card" and names_in(code) & {"b_dst", "pile_dst"}:
                    raise RulesetError("match.card cannot use the destination", where)
                if part == "dst" and names_in(code) & {"b_src", "pile", "b_card", "b_cards", "b_n"}:
                    raise RulesetError("match.dst can use only the destination", where)
            written_key = written_index(nodes["card"], nodes["dst"], functions, options, bound, others)
        if not INDEXES:
            return None
        candidates = candidate_keys(self.host.parse(path + ("when",)), functions, options, bound, others) \
            if "when" in spec else []
        usable = [key for key in candidates if self._usable_index(key, scope)]
        if written is None:
            return usable[0] if usable else None
        for key in usable:
            if written_key is not None and same_index(key, written_key):
                return key
        used = f"the index it implies is {usable[0].text()}" if usable else "every destination is tried"
        self.host.rules.warnings.append(RulesetWarning(
            f"this 'match' is ignored: 'when' does not imply it, so it could leave out moves 'when' allows "
            f"({used}); remove it", self.host.doc.pos(path + ("match",), key=True)))
        return usable[0] if usable else None

    def _usable_index(self, key: IndexKey, scope: Scope) -> bool:
        """Can the listing use this index: both keys numbers whose code cannot fail, the card's not
        reading the destination and the destination's nothing of the move, and every conjunct tested
        before the key holds unable to fail (a destination left out is never tested)?"""
        safety = _CannotFail(self._table_kinds(), {}, frozenset({"b_card"}), tops=True)

        def compiled(node: Node) -> Compiled | None:
            try:
                return Compiler(scope).compile(node)
            except (CompileError, RecursionError):
                return None

        def cannot_fail(node: Node, filled: frozenset[str] = frozenset(), truth: bool = False) -> bool:
            """As the compiler says (`Compiled.total`), or `_CannotFail` knowing the deck and the
            piles `filled` holds a card; else part by part, through `and`, `or`, `not`, `==`, `!=`
            and `if else` (past `empty(p)`, `p` holds a card). With `truth`, the value must be a
            truth value (else the compiled code checks it when it runs)."""
            code = compiled(node)
            if code is None or (truth and code.type != BOOL):
                return False
            if code.total or safety.kind(code.source, filled=filled) is not None:
                return True
            if isinstance(node, Binary) and node.op in ("and", "or"):
                return cannot_fail(node.left, filled, True) and cannot_fail(node.right, filled, True)
            if isinstance(node, Binary) and node.op in ("==", "!="):
                return cannot_fail(node.left, filled) and cannot_fail(node.right, filled)
            if isinstance(node, Unary) and node.op == "not":
                return cannot_fail(node.operand, filled, True)
            if isinstance(node, Ternary):
                test = compiled(node.condition)
                tested = _parse(test.source) if test is not None else None
                emptied = _emptiness_test(tested) if tested is not None else None
                return cannot_fail(node.condition, filled, True) and cannot_fail(node.then, filled, truth) \
                    and cannot_fail(node.otherwise, filled | {emptied} if emptied else filled, truth)
            return False

        card, dst = compiled(key.card), compiled(key.dst)
        return card is not None and dst is not None and card.type == dst.type == INT \
            and not names_in(card.source) & {"b_dst", "pile_dst"} \
            and not names_in(dst.source) & {"b_src", "pile", "b_card", "b_cards", "b_n"} \
            and cannot_fail(key.card) and cannot_fail(key.dst) \
            and all(cannot_fail(guard, truth=True) for guard in key.guards)

    def _inline_single_uses(self, conditions: list[tuple[int, str]], hoister: _Hoister, emit_level: dict[str, int],
                            plan: _RunPlan, card_key: str) -> set[str]:
        """Put back into its condition a hoisted subexpression that only that condition uses, once, in
        the loop where it is computed (`conditions` is changed; the names put back are returned).

        Hoisting such a value gains nothing (it is computed once per pass of that loop either way) and
        costs its computation where the condition would not have needed it (`a if empty else b`, the
        right of a failed `and`). Only in a condition that cannot fail (`_CannotFail`): its code then
        holds nothing an error could be reported at, and the values put back cannot fail either (the
        hoister takes no other). Values that a match key, a scan of a run or a remembered condition
        reads stay as they are.
        """
        hoisted = {name: source for _, name, source in hoister.items}
        safety = _CannotFail(self._table_kinds(), hoisted, frozenset({"b_card"}))
        safe = [safety.kind(code) is not None and i not in plan.memo for i, (_, code) in enumerate(conditions)]
        kept = names_in(card_key) | names_in(" ".join(f"{scan.body} {scan.condition or ''}" for scan in plan.scans))
        inlined: set[str] = set()
        for _, name, source in reversed(hoister.items):
            if name in kept or any(name in names_in(other) for _, n, other in hoister.items
                                   if n != name and n not in inlined):
                continue
            users = [i for i, (_, code) in enumerate(conditions) if name in names_in(code)]
            if len(users) != 1 or not safe[users[0]] or conditions[users[0]][0] != emit_level[name]:
                continue
            level, code = conditions[users[0]]
            places = [token.start[1] for token in _tokens(code) if token.type == tokenize.NAME and token.string == name]
            if len(places) != 1 or code.count("\n"):
                continue
            at = places[0]
            conditions[users[0]] = (level, f"{code[:at]}({source}){code[at + len(name):]}")
            inlined.add(name)
        return inlined

    def _plan_runs(self, conditions: list[tuple[int, str]], totals: list[bool], hoister: _Hoister,
                   levels: _Levels, card_key: str, k: int) -> _RunPlan:
        """How a `take: run` move offers its run lengths: which pair checks become one scan per source,
        which of them also end the loop over lengths early, and which conditions are remembered by length.

        A pair check is a condition (or a part of an `and`) whose code is
        `all(BODY for a, b in charge(pairs(b_cards)) [if COND])`, however it is written (in a function,
        behind a folded option): every two neighbouring moved cards pass. When BODY and COND read only
        `a`, `b` and what is fixed for the source (constants, options, variables, the source pile), it
        holds for n cards exactly when n <= m, m the longest length whose pairs all pass (a run of one
        suit in sequence stays one when its bottom card is left behind). So a scan walks down from the
        top card once per source, just before the loop over lengths first runs for it
        (`_RunPlan.scan_lines`), and the check becomes `b_n <= m`. This is done only where BODY and COND
        cannot fail (`_CannotFail`, which knows the deck): computing them early, or fewer times, then
        changes nothing but the work. A check that can fail keeps its code, and its place (it is
        remembered by length, below), so every error is raised where, and when, it was before: the
        simplest choice that is right.

        The loop over lengths stops at m instead of the face-up run's length (the check is then
        left out) when nothing that a length's pass evaluates before the check can fail: for lengths
        past m, those parts would have run only to be refused by the check.

        Without `match` the lengths are looped inside each destination. A condition that reads the
        moved cards (or a comprehension) but not the destination is then computed once per source and
        length, the first time a destination asks, and remembered for the others (`_RunPlan.memo`).

        What changes is only the work: the steps counted (limits.MAX_STEPS) are the pairs the scan
        looked at, not those the check would have looked at once per length (and destination).
        """
        hoisted = {name: source for _, name, source in hoister.items}
        safety = _CannotFail(self._table_kinds(), hoisted, frozenset({"b_card"}))

        def scannable(check: tuple[str, str, str, str | None] | None) -> tuple[str, str, str, str | None] | None:
            """The pair check, if its pairs' test reads only what is fixed for a source and cannot fail."""
            if check is None:
                return None
            a, b, body, condition = check
            tests = [body] + ([condition] if condition else [])
            if hoister.level_of(" ".join(tests)) > 1 or any(safety.kind(t, (a, b)) is None for t in tests):
                return None
            return check

        split: list[tuple[int, str, bool]] = []  # (level, code, cannot fail) of each condition or part
        checks: dict[int, _Scan] = {}  # the pair checks among them, by index
        for (level, source), total in zip(conditions, totals):
            parts = _and_parts(source) if level >= levels.card else [source]
            scans = [scannable(_pair_check(part)) for part in parts]
            if not any(scans):
                split.append((level, source, total))
                continue
            for part, scan in zip(parts, scans):
                if scan is None:
                    split.append((level, f"({part})", total))
                    continue
                name = f"run{k}_{len(checks)}"
                checks[len(split)] = _Scan(name, *scan)
                split.append((level, f"(b_n <= {name})", True))
        # A pass over one length evaluates, in order: the conditions at the length's level, then (with
        # `match`) the card's key and those at the destination's level, then those of select or seat loops.
        passes = {levels.card} | ({levels.dst} if levels.match else set())
        clear, key_read, cutting = True, False, []
        for level, i in sorted((level, i) for i, (level, _, _) in enumerate(split) if level >= levels.card):
            if levels.match and level >= levels.dst and not key_read:
                key_read = True
                clear = clear and safety.kind(card_key) in (_INT, _STR, _CARD)  # a dict key that can be looked up
            if level not in passes:
                clear = False  # inside a `select` search or a loop over seats
            if i in checks:
                if clear:
                    cutting.append(i)
            elif not (split[i][2] or safety.kind(split[i][1]) is not None):
                clear = False
        names = [checks[i].name for i in cutting]
        bound = "longest" if not names else names[0] if len(names) == 1 else f"min({', '.join(names)})"
        kept = [(level, code) for i, (level, code, _) in enumerate(split) if i not in cutting]
        memo: dict[int, str] = {}
        if not levels.match and levels.targets:
            for i, (level, code) in enumerate(kept):
                if level >= levels.card and hoister.level_of(code) == levels.card \
                        and not _reads(code, hoisted) & {"b_dst", "pile_dst"} and {"charge", "b_cards"} & names_in(code):
                    memo[i] = f"memo{k}_{i}"
        return _RunPlan(kept, bound, list(checks.values()), memo, levels.targets and not levels.match)

    def _table_kinds(self) -> dict[str, str]:
        """The kind of value (`_INT`, `_STR`, else `_ANY`) each card attribute table (`A_rank`) gives
        for every card of the deck; tables that lack a card are left out."""
        if self._tables is None:
            ids = range(len(self.host.rules.deck))
            self._tables = {}
            for name, table in self.host.globals.items():
                if name.startswith("A_") and isinstance(table, dict) and all(i in table for i in ids):
                    values = [table[i] for i in ids]
                    self._tables[name] = _INT if values and all(type(v) is int for v in values) else \
                        _STR if values and all(type(v) is str for v in values) else _ANY
        return self._tables

    def _destination_filters(self, template: MoveTemplate) -> list[str]:
        """The checks that leave a destination out whatever is moved: not onto a covered pile
        (`covered_by`), and of a zone's empty piles only the first (`empty_piles: first`)."""
        rules = self.host.rules
        lines = []
        if any(rules.cover[p] for p in template.targets):
            lines.append("if any(P[q] for q in COVER[b_dst]): continue")
        if any(rules.empty_first[p] >= 0 for p in template.targets):
            lines.append("if not pile_dst and EMPTY_FIRST[b_dst] >= 0 and "
                         "not all(P[q] for q in range(EMPTY_FIRST[b_dst], b_dst)): continue")
        return lines

    def _index_lines(self, template: MoveTemplate, targets: str, dst_key: str, name: str,
                     slot: int | None) -> list[str]:
        """The code that builds a destination index `name`: each destination's key (`match.dst`)
        to the destinations with that key, in order, the ones `_destination_filters` leaves out
        left out (after their key is computed, as the loop over destinations would). With a
        `slot` (an index shared by the merged listing), where the keys read only the
        destinations' cards (and each destination the same piles: not a per-player zone), the
        index is kept in `INDEXES[slot]` with the piles it was built from, and used again while
        those piles are equal lists (piles are never changed in place: a move makes new lists)."""
        build = [f"{name} = {{}}",
                 f"for b_dst in {targets}:",
                 "    pile_dst = P[b_dst]",
                 f"    b_key = {dst_key}",
                 *(f"    {line}" for line in self._destination_filters(template)),
                 f"    {name}.setdefault(b_key, []).append(b_dst)"]
        rules = self.host.rules
        reads = {n for n in names_in(dst_key) if not keyword.iskeyword(n)}
        if (slot is None or not KEEP_INDEXES or template.seat_targets is not None
                or not reads <= {"pile_dst", "None", "True", "False"} | set(self._table_kinds())):
            return build
        piles = set(template.targets)
        for p in template.targets:
            piles.update(rules.cover[p])
            if rules.empty_first[p] >= 0:
                piles.update(range(rules.empty_first[p], p))
        keyed = sorted(piles)
        self.host.globals[f"INDEX_PILES_{slot}"] = operator.itemgetter(*keyed) if len(keyed) > 1 else \
            (lambda P, q=keyed[0]: (P[q],))
        self.host.globals.setdefault("INDEXES", {})
        return [f"b_keyed = INDEX_PILES_{slot}(P)",
                f"b_kept = INDEXES.get({slot})",
                f"if b_kept is not None and b_kept[0] == b_keyed: {name} = b_kept[1]",
                "else:",
                *(f"    {line}" for line in build),
                f"    INDEXES[{slot}] = (b_keyed, {name})  # one store: a reader sees the pair whole"]

    def merged(self) -> Callable[..., None]:
        """One function enumerating every move template in order (fewer calls per position).

        Each template's block is its own generated body inside a one-pass loop (a failed
        state-only condition `break`s out of it); destination indexes with the same piles and
        key are built once, by the first block that needs them.
        """
        lines = ["def enumerate_all(S, out, Move, rules):",
                 "    P = S.piles; U = S.up; V = S.vars; b_player = S.current; MK = rules.known", STEPS_START]
        shared: dict[Any, str] = {}
        for template, index, _, _ in self.parts:
            if index is not None and index not in shared:
                shared[index] = f"INDEX_{len(shared)}"
                lines.append(f"    {shared[index]} = None")
        for template, index, index_at, body in self.parts:
            k = template.index
            block = list(body)
            if index is not None:
                name = shared[index]
                indent = "    "
                build = self._index_lines(template, f"DST_{k}{'[b_player]' if index[0] else ''}", index[2], name,
                                          list(shared).index(index))
                block[index_at:index_at] = [f"{indent}if {name} is None:",
                                            *(f"{indent}    {line}" for line in build),
                                            f"{indent}INDEX = {name}"]
            lines.append(f"    b_move = {template.name!r}")
            lines.append("    for _ in ONCE:")
            for line in block:
                if line.endswith(": return"):
                    line = line[: -len("return")] + "break"
                lines.append("    " + line)
        self.host.globals["ONCE"] = (0,)
        return self.host.define("enumerate_all", "\n".join(lines + [STEPS_END]) + "\n", spans=self.spans)

    # -- triggers and end -----------------------------------------------------------------

class _Hoister:
    """Collects subexpressions of an enumerator's conditions, each computed once at its loop level
    (the compiler offers only code that cannot fail, so computing it early, before the conditions
    that guard it, is safe).

    `levels` gives the loop level of the source pile, the chosen card and the destination pile
    (0 is the state alone, before any loop). Equal subexpressions share one local.
    """

    def __init__(self, levels: dict[str, int], innermost: int, prefix: str) -> None:
        self.levels = levels
        self.prefix = prefix
        self.innermost = innermost
        self.items: list[tuple[int, str, str]] = []
        self._by_source: dict[str, str] = {}
        self._levels: dict[str, int] = {}

    def level_of(self, source: str) -> int:
        level = 0
        for name in names_in(source):
            if name in ("b_src", "pile"):
                level = max(level, self.levels["src"])
            elif name in ("b_dst", "pile_dst"):
                level = max(level, self.levels["dst"])
            elif name in ("b_card", "b_cards", "b_n"):
                level = max(level, self.levels["card"])
            elif name in ("b_chosen", "b_chosen_piles"):
                level = max(level, self.levels["chosen"])
            elif name in ("b_target", "b_choice"):
                level = max(level, self.levels["target"])
            elif name in self._levels:
                level = max(level, self._levels[name])
        return level

    def __call__(self, compiled: Compiled) -> Compiled:
        source = compiled.source
        names = names_in(source)
        if any(name.startswith("l_") for name in names) or source.isidentifier():
            return compiled  # bound inside a comprehension, or already a plain name
        if "V" in names:
            return compiled  # a variable may hold `none` where a pile is read: computed only where written
        name = self._by_source.get(source)
        if name is None:
            level = self.level_of(source)
            if level > self.innermost:
                return compiled
            name = f"{self.prefix}{len(self.items)}"
            self._by_source[source] = name
            self._levels[name] = level
            self.items.append((level, name, source))
        return Compiled(name, compiled.type, total=True, none=compiled.none)


def make_selector(host: _Builder, template: MoveTemplate, path: PathKey, spec: dict[str, Any],
                  scope: Scope) -> Callable[..., list[tuple[Any, list[int], list[int]]]]:
    """The search behind `select`: choose piles (each giving cards from its top) whose cards sum to a goal.

    Piles are tried in order, each either skipped or giving one of its allowed counts; with a
    goal (`equals`) and no negative values, a branch whose sum already exceeds it is cut. More
    than `limit` steps in one listing of the legal moves (over all its sources and destinations)
    is an error naming the move, never a hang; every step also counts towards the listing's
    `MAX_STEPS`.
    """
    piles = template.select_piles
    seat_piles = host.seat_zone_piles(path + ("from",))
    take = template.select_take
    pile_test = host.evaluator(path + ("when",), scope.with_bindings({"p": ("b_p", PILE)}), (BOOL,)) \
        if "when" in spec else None
    goal_of = host.evaluator(path + ("equals",), scope, (INT,)) if "equals" in spec else None
    attribute = spec.get("sum")
    if attribute is not None and host.scope.card_attributes.get(attribute) != INT:
        raise RulesetError(f"select.sum must name a number attribute of the cards, not '{attribute}'",
                           host.doc.pos(path + ("sum",)))
    if goal_of is not None and attribute is None:
        raise RulesetError("select.equals needs select.sum (the attribute to add up)", host.doc.pos(path + ("equals",)))
    values = host.rules.deck.attribute_table(attribute) if attribute else None
    fewest, most = spec.get("min", 1), spec.get("max", len(piles))
    limit = spec.get("limit", 10_000)
    where = host.doc.pos(path, key=True)  # the `select:` key of the move
    name = template.name
    meter = host.rules.meter
    used = [-1, 0]  # the listing (meter.epoch) the count belongs to, and the steps taken in it

    def select(S: Any, src: int, dst: int, card: Any, n: int, player: int) -> list[tuple[Any, list[int], list[int]]]:
        P, U = S.piles, S.up
        env = {"src": src, "dst": dst, "card": card, "n": n, "player": player, "move": name,
               "cards": P[src][len(P[src]) - n:] if src >= 0 and n else []}
        options: list[tuple[int, list[tuple[int, int]]]] = []
        for p in (seat_piles[player] if seat_piles is not None else piles):
            pile = P[p]
            if p == src or p == dst or not pile:
                continue
            if pile_test is not None:
                env["p"] = p
                if not pile_test(S, env):
                    continue
            if take == "top":
                counts = [1]
            elif take == "all":
                counts = [len(pile)]
            else:
                k = len(pile)
                while k and U[pile[k - 1]]:
                    k -= 1
                counts = list(range(1, len(pile) - k + 1))
            options.append((p, [(c, sum(values[x] for x in pile[len(pile) - c:]) if values else 0) for c in counts]))
        goal = goal_of(S, env) if goal_of is not None else None
        prune = goal is not None and all(v >= 0 for _, opts in options for _, v in opts)
        found: list[tuple[Any, list[int], list[int]]] = []
        chosen: list[tuple[int, int]] = []
        if used[0] != meter.epoch:
            used[0], used[1] = meter.epoch, 0

        def walk(i: int, total: int) -> None:
            used[1] += 1
            meter.left -= 1
            if used[1] > limit or meter.left < 0:
                raise RulesetRuntimeError(f"move '{name}' would look at more than "
                                          f"{limit if used[1] > limit else MAX_STEPS:,} selections in one position; "
                                          f"narrow its 'select' (when, equals, max) or raise its 'limit'", where)
            if prune and goal is not None and total > goal:
                return
            if i == len(options):
                if fewest <= len(chosen) <= most and (goal is None or total == goal):
                    picked = tuple(chosen)
                    found.append((picked, [p for p, _ in picked],
                                  [x for p, c in picked for x in P[p][len(P[p]) - c:]]))
                return
            if len(chosen) < most:
                p, opts = options[i]
                for count, value in opts:
                    chosen.append((p, count))
                    walk(i + 1, total + value)
                    chosen.pop()
            walk(i + 1, total)

        walk(0, 0)
        return found

    return select


@dataclasses.dataclass(frozen=True)
class _Levels:
    """The loop levels of a `take: run` move's enumerator (see `MoveGenerator.template`)."""

    card: int  # the loop over run lengths
    dst: int  # the loop over destinations
    match: bool  # destinations come from an index, inside the loop over lengths
    targets: bool  # the move has destinations


@dataclasses.dataclass(frozen=True)
class _Scan:
    """A pair check turned into a scan of the source's face-up run, once per source."""

    name: str  # the local that ends holding m, the longest length whose pairs all pass
    a: str  # the locals the comprehension binds each pair's cards to (lower card, upper card)
    b: str
    body: str  # the code each pair must pass
    condition: str | None  # the comprehension's `if`: pairs it refuses pass


@dataclasses.dataclass
class _RunPlan:
    """How a `take: run` move's enumerator offers run lengths (see `MoveGenerator._plan_runs`)."""

    conditions: list[tuple[int, str]]  # (level, code), pair checks replaced or left out
    bound: str  # the longest length offered: `longest` (the face-up run) or scans' results
    scans: list[_Scan]
    memo: dict[int, str]  # condition index -> the local list of its outcomes by length, per source

    lazy: bool  # the lengths are looped inside each destination: scan when a destination first needs it

    def source_lines(self) -> list[str]:
        """Code run once per source pile, after its own conditions: the memo lists, and the scans'
        results marked not yet known (0) when they are `lazy`."""
        return [f"{name} = [None] * (longest + 1)" for name in self.memo.values()] + \
            [f"{scan.name} = 0" for scan in self.scans if self.lazy]

    def scan_lines(self) -> list[str]:
        """Code run before the loop over lengths: the scans (once per source).

        A scan walks the pairs from the top down (`a` the lower card, `b` the one on it, as
        `pairs(cards)` gives them) while they pass, within the face-up run (`pile[k:]`)."""
        lines = []
        for scan in self.scans:
            fails = f"{scan.condition} and not {scan.body}" if scan.condition else f"not {scan.body}"
            code = [f"{scan.name} = len(pile) - 1",
                    f"while {scan.name} > k:",
                    f"    {scan.a} = pile[{scan.name} - 1]; {scan.b} = pile[{scan.name}]",
                    f"    if {fails}: break",
                    f"    {scan.name} -= 1",
                    f"{scan.name} = len(pile) - {scan.name}",
                    f"steps += {scan.name}"]
            lines += [f"if not {scan.name}:"] + ["    " + line for line in code] if self.lazy else code
        return lines


_PAIRS_OF_CARDS = "charge(pairs(b_cards))"  # the compiled `pairs(cards)` a comprehension loops over


def _tokens(source: str) -> list[tokenize.TokenInfo]:
    try:
        return list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, SyntaxError):
        return []


def _parse(source: str) -> ast.expr | None:
    try:
        return ast.parse(source, mode="eval").body
    except (SyntaxError, RecursionError, MemoryError, ValueError):
        return None


def _and_parts(source: str) -> list[str]:
    """Generated code that is an `and` of parts, as the code of each part (nested `and`s flattened):
    testing them one after the other is the same as testing the whole."""
    node = _parse(source)
    if node is None:
        return [source]
    parts: list[str] = []

    def walk(node: ast.expr) -> None:
        if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And):
            for value in node.values:
                walk(value)
        else:
            parts.append(ast.get_source_segment(source, node) or "")

    walk(node)
    return parts if all(parts) else [source]


def _pair_check(source: str) -> tuple[str, str, str, str | None] | None:
    """(a, b, BODY, COND) when generated code is `all(BODY for a, b in charge(pairs(b_cards)) [if COND])`,
    BODY and COND parenthesised; else None."""
    node = _parse(source)
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "all"
            and len(node.args) == 1 and not node.keywords and isinstance(node.args[0], ast.GeneratorExp)):
        return None
    generator = node.args[0]
    if len(generator.generators) != 1:
        return None
    loop = generator.generators[0]
    target = loop.target
    if loop.is_async or len(loop.ifs) > 1 or ast.unparse(loop.iter) != _PAIRS_OF_CARDS \
            or not (isinstance(target, ast.Tuple) and len(target.elts) == 2):
        return None
    a, b = target.elts
    if not (isinstance(a, ast.Name) and isinstance(b, ast.Name)) or a.id == b.id:
        return None
    body = ast.get_source_segment(source, generator.elt)
    condition = ast.get_source_segment(source, loop.ifs[0]) if loop.ifs else None
    if body is None or (loop.ifs and condition is None):
        return None
    return a.id, b.id, f"({body})", f"({condition})" if condition is not None else None


def _reads(source: str, hoisted: dict[str, str]) -> frozenset[str]:
    """The names generated code reads, with those the hoisted locals it reads were computed from."""
    names: set[str] = set()
    todo = [source]
    while todo:
        for name in names_in(todo.pop()):
            if name not in names:
                names.add(name)
                if name in hoisted:
                    todo.append(hoisted[name])
    return frozenset(names)


# Kinds of value, for `_CannotFail`: a number (never `none`), a string, a card of the deck, anything.
_INT, _STR, _CARD, _ANY = "int", "str", "card", "any"
_CARD_OR_NONE = "card or none"  # (with `_CannotFail.tops`) a pile's top or bottom card, none if it is empty


def _top_or_none(node: ast.IfExp) -> str | None:
    """The local holding the pile if this is the compiler's `top(p)` or `bottom(p)` of a pile in a
    local, `(pile[-1] if pile else None)`; else None."""
    body, end = node.body, getattr(node.body, "slice", None)
    first_or_last = (isinstance(end, ast.Constant) and end.value == 0) or (
        isinstance(end, ast.UnaryOp) and isinstance(end.op, ast.USub) and isinstance(end.operand, ast.Constant)
        and end.operand.value == 1)
    if isinstance(node.test, ast.Name) and isinstance(body, ast.Subscript) and first_or_last \
            and isinstance(body.value, ast.Name) and body.value.id == node.test.id \
            and isinstance(node.orelse, ast.Constant) and node.orelse.value is None:
        return node.test.id
    return None


def _emptiness_test(node: ast.expr) -> str | None:
    """The local holding the pile if `node` is the compiler's `empty(p)` of a pile in a local, `(not pile)`."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not) and isinstance(node.operand, ast.Name):
        return node.operand.id
    return None


class _MayFail(Exception):
    pass


def _variable_slot(node: ast.expr) -> bool:
    """Is this the slot of a variable as the compiler reads one that cannot fail: `V[3]`, or the acting
    seat's value of a per-player variable, `V[3 + b_player]`?"""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) and isinstance(node.right, ast.Name) \
            and node.right.id == "b_player":
        node = node.left
    return isinstance(node, ast.Constant) and type(node.value) is int


class _CannotFail:
    """Tells whether generated code cannot raise when it runs, from what is known at load: which
    locals hold a card of the deck (`cards`), what each card attribute table gives for every card
    (`tables`, see `MoveGenerator._table_kinds`), and the code of the hoisted locals.

    The compiler's `Compiled.total` cannot know the deck: `b.rank + 1` may fail for a card without a
    rank. Here it cannot, when every card has a number rank. Only a few forms are known (names,
    constants, an attribute table or `U` indexed by a card, a variable, `and`, `or`, `not`, `if else`,
    `==` and `!=` on anything, order and `+ - *` on numbers, `//` and `%` by a non-zero constant, `-`
    of a number); any other code may fail. A value read from a name the facts do not type, a variable
    or a hoisted local of unknown kind is `_ANY`: fine to compare with `==` or test, not to add.
    """

    def __init__(self, tables: dict[str, str], hoisted: dict[str, str], cards: frozenset[str],
                 tops: bool = False) -> None:
        self.tables = tables
        self.hoisted = hoisted
        self.cards = cards
        # `(pile[-1] if pile else None)`, a pile's top card or none, read from a local list: an
        # attribute table gives none for none (with `tops`; `_derived_index` asks so).
        self.tops = tops
        self._filled: frozenset[str] = frozenset()  # the locals holding piles known not to be empty here
        self._hoisted_kinds: dict[str, str] = {}

    def kind(self, source: str, cards: tuple[str, ...] = (), filled: frozenset[str] = frozenset()) -> str | None:
        """The kind of value the code gives, None when it may fail; `cards` are more locals holding a card,
        `filled` locals holding a pile known to hold a card (with `tops`)."""
        node = _parse(source)
        if node is None:
            return None
        self._filled = filled
        try:
            return self._kind(node, self.cards | set(cards))
        except (_MayFail, RecursionError):
            return None

    def _kind(self, node: ast.expr, cards: frozenset[str]) -> str:
        if isinstance(node, ast.Constant):
            value = node.value
            return _INT if type(value) is int else _STR if type(value) is str else _ANY
        if isinstance(node, ast.Name):
            if node.id in cards:
                return _CARD
            if node.id in ("b_n", "b_src", "b_dst", "b_player", "b_target"):
                return _INT
            if node.id in self.hoisted:  # its code cannot fail (the hoister takes no other): only its kind is asked
                if node.id not in self._hoisted_kinds:
                    self._hoisted_kinds[node.id] = self.kind(self.hoisted[node.id]) or _ANY
                return self._hoisted_kinds[node.id]
            return _ANY  # reading a local or a global cannot fail
        if isinstance(node, ast.Subscript):
            table = node.value.id if isinstance(node.value, ast.Name) else ""
            if table == "V" and _variable_slot(node.slice):
                return _ANY
            kind = self._kind(node.slice, cards)
            if (table in self.tables or table == "U") and kind == _CARD:
                return self.tables.get(table, _INT)
            if table in self.tables and kind == _CARD_OR_NONE:
                return _ANY
            raise _MayFail
        if isinstance(node, (ast.BoolOp, ast.Tuple)):
            for item in node.values if isinstance(node, ast.BoolOp) else node.elts:
                self._kind(item, cards)
            return _ANY
        if isinstance(node, ast.UnaryOp):
            operand = self._kind(node.operand, cards)
            if isinstance(node.op, ast.Not):
                return _ANY
            if isinstance(node.op, ast.USub) and operand == _INT:
                return _INT
            raise _MayFail
        if isinstance(node, ast.BinOp):
            left, right = self._kind(node.left, cards), self._kind(node.right, cards)
            if left == right == _INT and (isinstance(node.op, (ast.Add, ast.Sub, ast.Mult)) or (
                    isinstance(node.op, (ast.FloorDiv, ast.Mod)) and isinstance(node.right, ast.Constant)
                    and node.right.value != 0)):
                return _INT
            raise _MayFail
        if isinstance(node, ast.Compare):
            kinds = [self._kind(node.left, cards)] + [self._kind(c, cards) for c in node.comparators]
            for op, left, right in zip(node.ops, kinds, kinds[1:]):
                if not (isinstance(op, (ast.Eq, ast.NotEq, ast.Is, ast.IsNot)) or (
                        isinstance(op, (ast.Lt, ast.LtE, ast.Gt, ast.GtE)) and left == right and left in (_INT, _STR))):
                    raise _MayFail
            return _ANY
        if isinstance(node, ast.IfExp):
            if self.tops:
                pile = _top_or_none(node)
                if pile is not None:
                    return _CARD if pile in self._filled else _CARD_OR_NONE
            self._kind(node.test, cards)
            then = self._kind(node.body, cards)
            filled = _emptiness_test(node.test) if self.tops else None
            if filled is not None:  # `b if empty(p) else top(p).rank + 1`: p holds a card past the test
                saved = self._filled
                self._filled = saved | {filled}
                try:
                    otherwise = self._kind(node.orelse, cards)
                finally:
                    self._filled = saved
            else:
                otherwise = self._kind(node.orelse, cards)
            return then if then == otherwise else _ANY
        raise _MayFail
