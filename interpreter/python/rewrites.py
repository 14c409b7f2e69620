"""Stage 5b, the rewrites of a generated enumerator that change only its work (python/movegen.py):
conditions' subexpressions computed once, in the outermost loop whose names they use (`_Hoister`), and
put back where only one condition uses them (`_inline_single_uses`); a `take: run` move's pair checks
turned into one scan of each source's run (`_plan_runs`); a destination index used only where its
keys cannot fail (`_usable_index`). Whether code cannot fail is python/cannot_fail.py's to say."""

from __future__ import annotations

import ast
import dataclasses
import io
import tokenize
from functools import lru_cache
from typing import TYPE_CHECKING

from ..front.compiler import BOOL, INT, Compiled, CompileError, Compiler, Scope, names_in
from ..front.parser import Node
from ..front.typed import Typed
from ..model.indexes import IndexKey
from .cannot_fail import _ANY, _CARD, _INT, _STR, _CannotFail, _emptiness_test, _parse

if TYPE_CHECKING:
    from ..model.ruleset import _Builder


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
            elif name == "b_target" or name.startswith("b_choice"):
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


@dataclasses.dataclass(frozen=True)
class _Levels:
    """The loop levels of a `take: run` move's enumerator (see `movegen._Enumerator`)."""

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


@lru_cache(maxsize=4096)
def _name_columns(source: str) -> tuple[tuple[str, int], ...]:
    """Each Python name in one line of generated code, with the column it starts at (string literals
    are not looked into). The same conditions are generated for every option combination a
    validation builds, so the answers are kept."""
    try:
        return tuple((token.string, token.start[1]) for token in tokenize.generate_tokens(io.StringIO(source).readline)
                     if token.type == tokenize.NAME)
    except (tokenize.TokenError, SyntaxError):
        return ()


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


class _Rewrites:
    """The rewrites `MoveGenerator` (python/movegen.py) makes in the enumerators it generates, with the
    kinds of value of the deck's attribute tables they rely on; the state is the generator's."""

    host: _Builder
    _tables: dict[str, str] | None  # see `_table_kinds`

    def _usable_index(self, key: IndexKey, scope: Scope) -> bool:
        """Can the listing use this index: both keys numbers whose code cannot fail, the card's not
        reading the destination and the destination's nothing of the move, and every conjunct tested
        before the key holds unable to fail (a destination left out is never tested)?

        Each key and conjunct is checked once; whether a part of it can fail is read off its typed
        tree (front/typed.py), and only the code of parts the tree cannot vouch for is written."""
        safety = _CannotFail(self._table_kinds(), {}, frozenset({"b_card"}), tops=True)
        compiler = Compiler(scope)

        def typed(node: Node) -> Typed | None:
            try:
                return compiler.checker.check_whole(node)
            except (CompileError, RecursionError):
                return None

        def cannot_fail(part: Typed, filled: frozenset[str] = frozenset(), truth: bool = False) -> bool:
            """As the tree says (`total`), or `_CannotFail` knowing the deck and the piles `filled`
            holds a card; else part by part, through `and`, `or`, `not`, `==`, `!=` and `if else`
            (past `empty(p)`, `p` holds a card). With `truth`, the value must be a truth value (else
            the code checks it when it runs)."""
            if truth and part.type != BOOL:
                return False
            if part.total or safety.kind(compiler.writer.write(part).source, filled=filled) is not None:
                return True
            if part.kind in ("and", "or", "not"):
                return all(cannot_fail(arg, filled, True) for arg in part.args)
            if part.kind == "compare" and part.info in ("==", "!="):
                return all(cannot_fail(arg, filled) for arg in part.args)
            if part.kind == "ternary":
                test, then, otherwise = part.args
                tested = _parse(compiler.writer.write(test).source)
                emptied = _emptiness_test(tested) if tested is not None else None
                return cannot_fail(test, filled, True) and cannot_fail(then, filled, truth) \
                    and cannot_fail(otherwise, filled | {emptied} if emptied else filled, truth)
            return False

        card, dst = typed(key.card), typed(key.dst)
        if card is None or dst is None or not card.type == dst.type == INT:
            return False
        card_code, dst_code = compiler.writer.write(card).source, compiler.writer.write(dst).source
        if names_in(card_code) & {"b_dst", "pile_dst"} or names_in(dst_code) & {"b_src", "pile", "b_card", "b_cards", "b_n"}:
            return False
        return cannot_fail(card) and cannot_fail(dst) and all(
            checked is not None and cannot_fail(checked, truth=True) for checked in map(typed, key.guards))

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
            places = [column for token, column in _name_columns(code) if token == name]
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
