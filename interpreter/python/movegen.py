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
from ..model.rules import choice_local
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
# counting the run's steps after it, instead of finding the run's length first (`_Enumerator._run_loop`),
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
        """Generate `enum(S, out, Move, rules)`, which appends every legal move of this template
        (written by `_Enumerator`)."""
        enumerator = _Enumerator(self, template, path, spec, scope)
        source = enumerator.source()
        template.pos = self.host.doc.expr_pos(path + ("when",), 0) if "when" in spec else self.host.doc.pos(path)
        self.parts.append((template, enumerator.shared_index, enumerator.index_at - 3, enumerator.body))
        self.spans.extend(enumerator.spans)
        return self.host.define(f"enum_{template.index}", source, spans=enumerator.spans)

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


class _Enumerator:
    """One move template's enumerator, `enum_<k>(S, out, Move, rules)`, written line by line.

    Loops nest as source pile -> destination pile -> run length (for `take: run`). With
    `match`, destinations are instead indexed once by their key and looked up per card:
    source -> run length -> matching destinations. Each `when` conjunct, and each
    subexpression that cannot fail (a pile's top card, a card's attribute), is placed in the
    outermost loop whose names it uses, and computed once there. A conjunct that can fail
    keeps its place after the conjuncts before it (its loop is no outer than theirs, and
    within a loop conditions are tested in the order written), so they guard it.
    """

    def __init__(self, generator: MoveGenerator, template: MoveTemplate, path: PathKey, spec: dict[str, Any],
                 scope: Scope) -> None:
        self.generator, self.host = generator, generator.host
        self.template, self.path, self.spec = template, path, spec
        k = self.k = template.index
        self.run = template.take == "run"
        written = spec.get("match")
        scope = dataclasses.replace(scope, listing=True)  # no `legal_moves()` while they are listed
        if written is not None and not (template.sources and template.targets):
            raise RulesetError("'match' needs a move with both 'from' and 'to'", self.host.doc.pos(path + ("match",)))
        # The destination index comes from `when` itself (model/indexes.py), so it never leaves out a move
        # `when` allows; a hand-written `match` is only checked against it.
        template.index_key = generator._derived_index(template, path, spec, scope)
        self.match = template.index_key
        # Loop levels: 1 source, then (card, destination) in the order the loops nest.
        if self.match is not None:
            self.card_level, self.dst_level = (2 if self.run else 1), 3
        else:
            self.card_level, self.dst_level = (3 if self.run else 1), 2
        innermost = max(self.card_level if template.sources else 0, self.dst_level if template.targets else 0)
        self.select = spec.get("select")
        if self.select is not None:
            innermost += 1  # conditions on the chosen cards sit in the loop over selections
        self.for_seat = "for_seat" in spec
        self.chooses = self.for_seat or bool(template.choices)
        if self.chooses:
            innermost += 1  # conditions on the chosen seat (or value) sit in the loop over seats (values)
        self.select_level = innermost
        if self.select is not None:
            self.host.globals[f"SELECT_{k}"] = make_selector(self.host, template, path + ("select",), self.select, scope)
        self.seat_level = innermost
        self.hoister = _Hoister({"src": 1, "card": self.card_level, "dst": self.dst_level, "chosen": self.select_level,
                                 "target": self.seat_level}, innermost, f"h{k}_")
        self.scope = scope.with_bindings({}, {"b_src": "pile", "b_dst": "pile_dst"})
        self.spans: list[Span] = []
        self.conditions: list[tuple[int, str]] = []  # (level, python condition)
        self.totals: list[bool] = []  # for each condition: its code cannot fail (`Compiled.total`)
        self.lines: list[str] = []
        self.indent = "    "
        self.emitted: set[int] = set()
        self.shared_index: tuple[Any, ...] | None = None  # what `merged` builds one index for
        self.index_at = 0  # where the index lines start
        self.body: list[str] = []  # the lines but the head and the index's, for `merged`

    def compile_here(self, node: Node, where: PathKey, expect: tuple[str, ...] | None = None,
                     hoisting: bool = True) -> Compiled:
        compiled, compiler = self.host.compile_node(node, where, self.scope, expect, self.hoister if hoisting else None)
        self.spans.extend(self.host.spans(compiler, where))
        return compiled

    def source(self) -> str:
        """The enumerator's code; `shared_index`, `index_at` and `body` are set alongside."""
        template, path, k = self.template, self.path, self.k
        self._gates()
        self._when()
        card_key = dst_key = ""
        if self.match is not None:
            card_key = self.compile_here(self.match.card, path + ("when",)).source
            dst_key = self.compile_here(self.match.dst, path + ("when",), hoisting=False).source
        count_source = self._count()
        # Piles to loop over: a tuple, or, with per-player zones, a tuple per acting seat.
        self.host.globals[f"SRC_{k}"] = template.seat_sources or template.sources
        self.host.globals["REMEMBER"] = remember
        self.host.globals["pick_sets"], self.host.globals["comb"] = pick_sets, math.comb
        self.host.globals[f"DST_{k}"] = template.seat_targets or template.targets
        sources = f"SRC_{k}[b_player]" if template.seat_sources else f"SRC_{k}"
        self.targets = f"DST_{k}[b_player]" if template.seat_targets else f"DST_{k}"
        self.plan = _RunPlan(self.conditions, "longest", [], {}, False)
        if self.run and RUN_SCAN:
            levels = _Levels(self.card_level, self.dst_level, self.match is not None, bool(template.targets))
            self.plan = self.generator._plan_runs(self.conditions, self.totals, self.hoister, levels, card_key, k)
        self.conditions = self.plan.conditions
        # With an index and nothing that needs the run's length before its loop (scans, a bound from
        # them, a check of the steps within the loop), the loop over lengths walks down the face-up
        # run itself, stopping at the first card face down, and counts its steps after.
        self.walking = WALK_RUNS and self.run and self.match is not None and not self.plan.scans \
            and self.plan.bound == "longest" and not template.choices
        every = " ".join([src for _, src in self.conditions] + [src for _, _, src in self.hoister.items] + [card_key])
        self.uses_cards = "b_cards" in names_in(every)
        # `take: any` from piles whose cards the seat may not all see: a hidden card is offered blind,
        # as one move (`BLIND`) for all of them, and only if no condition reads the card (else
        # whether it is offered would tell which card it is).
        self.blind = template.take == "any" and any(
            self.host.rules.zones[self.host.rules.pile_zone[p]].visibility != "all" for p in template.sources)
        self.reads_card = bool({"b_card", "b_cards"} & names_in(every)) or self.select is not None
        self.card_key = card_key
        lines = self.lines
        lines += [f"def enum_{k}(S, out, Move, rules):",
                  "    P = S.piles; U = S.up; V = S.vars; b_player = S.current; b_move = " + repr(template.name)
                  + "; MK = rules.known", STEPS_START]
        self._place_card_facts()
        self.inlined = self.generator._inline_single_uses(self.conditions, self.hoister, self.emit_level, self.plan,
                                                          card_key)
        self.emit(0, "return")
        index_at = len(lines)
        index_lines = self.generator._index_lines(template, self.targets, dst_key, "INDEX", None) \
            if self.match is not None else []
        lines.extend(self.indent + line for line in index_lines)
        if template.sources:
            self._source_loop(sources, count_source)
        else:
            lines.append(f"{self.indent}b_src = -1; b_n = 0")
        walked = self.indent  # the loop over sources' body, where a walked run's steps are counted
        if self.run and self.match is not None:
            self._run_loop()
        if template.targets:
            self._dst_loop()
        else:
            lines.append(f"{self.indent}b_dst = -1")
        if self.run and self.match is None:
            self._run_loop()
        self._offers()
        if self.walking:
            lines.append(f"{walked}steps += b_n")
        levels_used = {lvl for lvl, _ in self.conditions} | set(self.emit_level.values())
        assert levels_used <= self.emitted, f"conditions at loop levels {levels_used - self.emitted} were not placed"
        # Moves whose destinations are the same piles with the same key share one index.
        self.shared_index = (template.seat_targets is not None, template.seat_targets or template.targets, dst_key) \
            if self.match is not None else None
        self.index_at = index_at
        self.body = lines[3:index_at] + lines[index_at + len(index_lines):]
        return "\n".join(lines + [STEPS_END]) + "\n"

    def _gates(self) -> None:
        """The conditions of the turn (its phase, who is asked out of turn) and of `for_seat`."""
        template, path, spec, host = self.template, self.path, self.spec, self.host
        if "phase" in spec:  # offered only in that phase (or those phases) of the turn
            phases = host.rules.phases
            wanted = [spec["phase"]] if isinstance(spec["phase"], str) else spec["phase"]
            for i, name in enumerate(wanted):
                if name not in phases:
                    where = path + ("phase",) + ((i,) if isinstance(spec["phase"], list) else ())
                    raise RulesetError(unknown("phase", name, phases) if phases else "'phase' needs turns.phases",
                                       host.doc.pos(where))
            indexes = tuple(sorted({phases.index(name) for name in wanted}))
            self.conditions.append((0, f"(S.phase == {indexes[0]})" if len(indexes) == 1
                                    else f"(S.phase in {indexes!r})"))
            self.totals.append(True)
        if host.rules.out_of_turn and not template.out_of_turn:
            # A seat asked to act out of turn has only the moves made out of turn, and `pass`.
            self.conditions.append((0, "(S.asking is not None)" if template.declines else "(S.asking is None)"))
            self.totals.append(True)
        elif template.out_of_turn and template.asked_after != host.rules.opens_asking:
            # Asked only after some moves: not while the seats are asked after another.
            after = tuple(sorted(template.asked_after))
            self.conditions.append((0, f"(S.asking is None or S.asking[4] in {after!r})"))
            self.totals.append(True)
        if self.for_seat:
            for conjunct in conjuncts(host.parse(path + ("for_seat",))):
                compiled = self.compile_here(conjunct, path + ("for_seat",), (BOOL,))
                self.conditions.append((self.seat_level, compiled.source))
                self.totals.append(compiled.total)
        # Other seats' piles (`from_seats`, `to_seats`): only those of seats in the game.
        for seats, pile in ((template.source_seats, "b_src"), (template.target_seats, "b_dst")):
            if seats != "own":
                test = f"(PILE_OWNER[{pile}] < S.players)"
                self.conditions.append((self.hoister.level_of(test), test))
                self.totals.append(True)

    def _when(self) -> None:
        """`when`'s conjuncts, each at the outermost loop it may be tested in."""
        if "when" not in self.spec:
            return
        path = self.path
        before = 0  # the innermost loop level of the conjuncts so far
        when_total = []
        for conjunct in conjuncts(self.host.parse(path + ("when",))):
            compiled = self.compile_here(conjunct, path + ("when",), (BOOL,))
            when_total.append(compiled.const or compiled.total)
            if compiled.const:
                if not compiled.value:
                    self.conditions.append((0, "False"))
                    self.totals.append(True)
                continue
            level = self.hoister.level_of(compiled.source)  # the outermost loop where its names are known
            if not compiled.total:  # guarded by the conjuncts before it: tested after them
                level = max(level, before)
            before = max(before, level)
            self.conditions.append((level, compiled.source))
            self.totals.append(compiled.total)
        self.template.when_total = tuple(when_total)

    def _count(self) -> str | None:
        """A `take: N` move's count, as code (None for other takes)."""
        if self.template.take != "count":
            return None
        take = self.spec["take"]
        if isinstance(take, int):
            return repr(take)
        path = self.path
        count_source = self.compile_here(self.host.parse(path + ("take",)), path + ("take",), (INT,), False).source
        if names_in(count_source) & {"b_dst", "b_cards", "b_card", "b_n", "pile_dst"}:
            raise RulesetError("a take count can only use 'src' among the move's names",
                               self.host.doc.pos(path + ("take",)))
        return count_source

    def _place_card_facts(self) -> None:
        """The loop each hoisted part is computed in. With an index, most cards find no destination:
        a card fact needed only by destination conditions is computed inside the (short) loop over
        matching destinations."""
        hoister = self.hoister
        self.emit_level = {name: lvl for lvl, name, _ in hoister.items}
        if self.match is None:
            return
        for lvl, name, _ in hoister.items:
            users = [l for l, cond in self.conditions if name in names_in(cond)]
            users += [self.emit_level[n] for _, n, src in hoister.items if name in names_in(src)]
            if lvl == self.card_level and name not in names_in(self.card_key) and users and \
                    min(users) == self.dst_level:
                self.emit_level[name] = self.dst_level

    def offer(self, args: str, key: str) -> None:
        """Append the move. In a game where moves are not given to a seat after they are listed (not
        simultaneous), the listing offers the `Move` it made for the same fields before, if any
        (`MAX_KNOWN`)."""
        indent = self.indent
        if not self.host.rules.simultaneous:
            self.lines.append(f"{indent}mv = MK.get({key})")
            self.lines.append(f"{indent}if mv is None: mv = REMEMBER(MK, {key}, Move(rules, {args}))")
            self.lines.append(f"{indent}out.append(mv)")
        else:
            self.lines.append(f"{indent}out.append(Move(rules, {args}))")

    def emit(self, level: int, exit_word: str = "continue") -> None:
        """The hoisted parts and conditions of loop `level`, at the current indent."""
        self.emitted.add(level)
        indent, lines = self.indent, self.lines
        for _, name, source in self.hoister.items:
            if self.emit_level[name] == level and name not in self.inlined:
                lines.append(f"{indent}{name} = {source}")
        for i, (lvl, cond) in enumerate(self.conditions):
            if lvl != level:
                continue
            memo = self.plan.memo.get(i)
            if memo is None:
                lines.append(f"{indent}if not {cond}: {exit_word}")
            else:  # the outcome for this run length, the first time a destination asks for it
                lines.append(f"{indent}failed = {memo}[b_n]")
                lines.append(f"{indent}if failed is None: failed = {memo}[b_n] = not {cond}")
                lines.append(f"{indent}if failed: {exit_word}")

    def bind_cards(self, count: str) -> None:
        indent = self.indent
        self.lines.append(f"{indent}b_n = {count}; b_card = pile[-b_n]" if count != "b_n" else
                          f"{indent}b_card = pile[-b_n]")
        if self.uses_cards:
            self.lines.append(f"{indent}b_cards = pile[-b_n:]")

    def _run_loop(self) -> None:
        """The loop over run lengths: over the cards from the top down, n counted alongside (a
        slice walked backwards costs less than indexing the pile for each length)."""
        lines, plan = self.lines, self.plan
        if self.walking:  # the face-up run from the top down; its length is counted after the loop
            lines.append(f"{self.indent}b_n = 0")
            lines.append(f"{self.indent}for b_card in reversed(pile):")
            self.indent += "    "
            lines.append(f"{self.indent}if not U[b_card]: break")
            lines.append(f"{self.indent}b_n += 1")
            if self.uses_cards:
                lines.append(f"{self.indent}b_cards = pile[-b_n:]")
            self.emit(self.card_level)
            return
        lines.extend(self.indent + line for line in plan.scan_lines())
        lines.append(f"{self.indent}steps += {plan.bound}")
        # the cards pile[-1], ..., pile[-bound]: a slice backwards that stops before pile[-bound - 1]
        stop = "k - 1" if plan.bound == "longest" else f"len(pile) - {plan.bound} - 1"
        lines.append(f"{self.indent}b_n = 0; b_stop = {stop}")
        lines.append(f"{self.indent}for b_card in pile[:b_stop if b_stop >= 0 else None:-1]:")
        self.indent += "    "
        lines.append(f"{self.indent}b_n += 1")
        if self.uses_cards:
            lines.append(f"{self.indent}b_cards = pile[-b_n:]")
        self.emit(self.card_level)

    def _dst_loop(self) -> None:
        lines = self.lines
        if self.match is not None:
            # not counted: the destinations a card finds are at most the piles (limits.MAX_PILES)
            lines.append(f"{self.indent}for b_dst in INDEX.get({self.card_key}, ()):")
        else:
            lines.append(f"{self.indent}steps += len({self.targets})")
            lines.append(f"{self.indent}for b_dst in {self.targets}:")
        self.indent += "    "
        if self.template.sources:
            lines.append(f"{self.indent}if b_dst == b_src: continue")
        lines.append(f"{self.indent}pile_dst = P[b_dst]")
        if self.match is None:  # (with an index, the index leaves such destinations out)
            lines.extend(self.indent + line for line in self.generator._destination_filters(self.template))
        self.emit(self.dst_level)

    def _source_loop(self, sources: str, count_source: str | None) -> None:
        """The loop over source piles, and over the cards a `take: any` move picks."""
        template, lines = self.template, self.lines
        lines.append(f"{self.indent}steps += len({sources})")
        lines.append(f"{self.indent}for b_src in {sources}:")
        self.indent += "    "
        indent = self.indent
        lines.append(f"{indent}if steps > budget: over_steps()")
        lines.append(f"{indent}pile = P[b_src]")
        lines.append(f"{indent}if not pile: continue")
        if any(self.host.rules.cover[p] for p in template.sources):  # `covered_by`: not from a covered pile
            lines.append(f"{indent}if any(P[q] for q in COVER[b_src]): continue")
        if template.take == "top":
            self.bind_cards("1")
        elif template.take == "all":
            self.bind_cards("len(pile)")
        elif template.take == "any" and template.picks > 1:  # any K cards: each set of codes once
            lines.append(f"{indent}steps += comb(len(pile), {template.picks})")
            lines.append(f"{indent}if steps > budget: over_steps()")
            offered = "[c for c in pile if SEES(S, c, b_src, b_player)]" if self.blind else "pile"
            lines.append(f"{indent}for b_pick in pick_sets({offered}, {template.picks}, CODE):")
            self.indent = indent = indent + "    "
            lines.append(f"{indent}b_n = {template.picks}; b_card = b_pick[0]")
            if self.uses_cards:
                lines.append(f"{indent}b_cards = [*b_pick]")
        elif template.take == "any":  # any one card of the pile; equal cards (one code) give one move
            self._any_card()
        elif self.walking:
            lines.append(f"{indent}if not U[pile[-1]]: continue")  # no face-up card
        elif self.run:
            lines.append(f"{indent}k = len(pile)")
            lines.append(f"{indent}while k and U[pile[k - 1]]: k -= 1")
            lines.append(f"{indent}if k == len(pile): continue")
            lines.append(f"{indent}longest = len(pile) - k")
        else:
            lines.append(f"{indent}b_n = {count_source}")
            lines.append(f"{indent}if b_n < 1 or b_n > len(pile): continue")
            self.bind_cards("b_n")
        self.emit(1)
        lines.extend(self.indent + line for line in self.plan.source_lines())

    def _any_card(self) -> None:
        """The loop over the cards of a `take: any` move's source, each code once, a card the seat
        cannot see offered blind."""
        lines, indent = self.lines, self.indent
        lines.append(f"{indent}codes_seen = set()")
        if self.blind:
            lines.append(f"{indent}offered_blind = False")
        lines.append(f"{indent}steps += len(pile)")
        lines.append(f"{indent}for b_card in reversed(pile):")
        self.indent = indent = indent + "    "
        lines.append(f"{indent}if steps > budget: over_steps()")
        if self.blind:
            lines.append(f"{indent}if not SEES(S, b_card, b_src, b_player):")
            lines.append(f"{indent}    if {'True' if self.reads_card else 'offered_blind'}: continue")
            lines.append(f"{indent}    offered_blind = True; b_pick = {BLIND}")
            lines.append(f"{indent}else:")
            lines.append(f"{indent}    if CODE[b_card] in codes_seen: continue")
            lines.append(f"{indent}    codes_seen.add(CODE[b_card]); b_pick = b_card")
        else:
            lines.append(f"{indent}if CODE[b_card] in codes_seen: continue")
            lines.append(f"{indent}codes_seen.add(CODE[b_card])")
        lines.append(f"{indent}b_n = 1")
        if self.uses_cards:
            lines.append(f"{indent}b_cards = [b_card]")

    def _offers(self) -> None:
        """The innermost loop (over chosen seats, values or selections) and the move offered."""
        template, k, lines = self.template, self.k, self.lines
        pick = (", b_pick" if self.blind or template.picks > 1 else ", b_card") if template.take == "any" else \
            (", None" if self.chooses else "")
        seat_arg = ", b_target" if self.chooses else ""
        if self.select is not None and self.for_seat:
            raise RulesetError("a move cannot have both 'select' and 'for_seat'", self.host.doc.pos(self.path))
        if self.chooses:
            if self.for_seat:
                lines.append(f"{self.indent}for b_target in range(S.players):")
            else:  # `choose`: the value's index goes in the move (as a seat does), the value is bound
                lines.append(f"{self.indent}steps += {len(template.choices)}")
                lines.append(f"{self.indent}if steps > budget: over_steps()")
                names = ", ".join(choice_local(j) for j in range(len(template.choice_names)))
                lines.append(f"{self.indent}for b_target, ({names},) in enumerate(CHOICES_{k}):")
                for j, seat in enumerate(template.choice_seats):  # a game offers only its own seats
                    if seat:
                        lines.append(f"{self.indent}    if {choice_local(j)} >= S.players: continue")
            self.indent += "    "
            self.emit(self.seat_level)
            self.offer(f"{k}, b_src, b_n, b_dst, (){pick}{seat_arg}", f"({k}, b_src, b_n, b_dst{pick}{seat_arg})")
        elif self.select is not None:
            lines.append(f"{self.indent}for b_selection, b_chosen_piles, b_chosen in SELECT_{k}(S, b_src, b_dst, "
                         f"b_card, b_n, b_player):")
            self.indent += "    "
            self.emit(self.select_level)
            lines.append(f"{self.indent}out.append(Move(rules, {k}, b_src, b_n, b_dst, b_selection{pick}))")
        else:
            self.offer(f"{k}, b_src, b_n, b_dst{', ()' + pick if pick else ''}", f"({k}, b_src, b_n, b_dst{pick})")
