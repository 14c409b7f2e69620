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

The rewrites that change only the work (hoisting, scans of runs, which indexes are usable) are in
rewrites.py, which asks cannot_fail.py whether code can fail; the search behind `select` is in
select_search.py.
"""

from __future__ import annotations

import dataclasses
import itertools
import keyword
import math
import operator
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..front.compiler import BOOL, INT, Compiled, Scope, Span, names_in
from ..base.errors import RulesetError, RulesetWarning, unknown
from ..model.indexes import IndexKey, candidate_keys, same_index, written_key as written_index
from ..front.parser import Node, conjuncts
from ..front.source import PathKey
from .moves import BLIND
from .rewrites import _Hoister, _Levels, _Rewrites, _RunPlan
from .select_search import make_selector

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


class MoveGenerator(_Rewrites):
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
