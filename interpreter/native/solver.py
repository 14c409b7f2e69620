"""The solver's search on the native backend (`cardrules solve --engine native`).

The search itself is compiled code (native/search.py, part of every ruleset's native module);
this module gives it its arrays, grows them when it asks, keeps the clock between chunks of
moves, runs the restarts, and turns the winning moves back into the Python game's moves.
workbench/solver.py keeps the rest (the answer, the shortening of a solution, the replay that proves it),
so that both engines give the same kind of answer, resting on the same things (workbench/solver.py's
docstring): the native search takes the same position key (the variables `analyse` finds
steering the game), trusts the same `safe:` claims and proves positions lost the same way.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from typing import Any

from ..base.errors import CardrulesError
from .backend import Native, native_backend
from .game import NativeGame
from .values import MAX_MOVES, Unsupported
from .search import (ACT, FRAME_FIELDS, MAXL, R_EXHAUSTED, R_NEED, R_PAUSED, R_WON, RT_COMMUTING, RT_TURN, S_CHUNK,
                     S_COMP, S_DEPTH, S_GEN, S_NEED, S_NODES, S_NPOS, S_RNG, S_SAFE, S_STOP, S_USED, S_WON, SCALARS)
from ..model.turn_runs import turn_runs, variables_may_hold_piles

CHUNK = 20_000  # moves between looks at the clock
# The arrays' first sizes (each doubles when the search asks): levels of the path, the pool of
# listed moves, and keys kept (up to the bound on positions).
FIRST_DEPTH, FIRST_POOL, FIRST_ROWS = 256, 8 * MAXL, 1 << 16
RESTART_JITTER = 2.0  # as workbench/solver.py's restarts
# `end.repeat` counts the positions of the game's path: the compiled search keeps no such count.
REPEAT_UNSEARCHED = "end.repeat (the native search does not count the positions of its path)"


# Where a zone may be named without telling its piles apart: aggregates over all its piles,
# and effects in a loop over them that do the same to each pile, whatever the order.
ORDERLESS = frozenset({"count", "all", "any", "sum", "min", "max"})
ORDERLESS_EFFECTS = frozenset({"turn_up", "turn_down", "add"})
# Parts of a ruleset that do not run during a search (the deal is dealt) or only show things.
NOT_PLAYED = frozenset({"ruleset", "title", "description", "extends", "players", "deck", "options", "variables",
                        "zones", "layout", "setup", "on_start", "indexes", "help", "label", "show"})


def interchangeable_piles(rules: Any) -> list[list[int]]:
    """Groups of piles that the rules never tell apart: the piles of a shared zone that every rule
    read during play names only as a whole (a move's `from`/`to`, `x in zone`, `count`, `all`,
    `any`, `sum`, `min`, `max` over its piles, a trigger's loop over it doing only `turn_up`,
    `turn_down` and `add`), with no `index` of a pile read, no variable holding a pile and no
    `select` (whose search goes through the piles in order).
    Positions that differ only by how such piles are ordered have the same futures (each is the
    other with the piles renamed), so the search keys them as one: the piles of a group sorted
    by their bottom card. A use the walk cannot place keeps the zone's piles apart."""
    from ..front.parser import (
        Attr,
        Binary,
        Comprehension,
        Name,
        Node,
        ParseError,
        parse_expression,
        parse_loop,
    )

    front = rules.front_end
    zones = {name for name, zone in rules.zones.items() if zone.seat_piles is None and len(zone.piles) > 1}
    if variables_may_hold_piles(rules):
        return []
    if any("select" in spec for spec in front.data.get("moves", {}).values() if isinstance(spec, dict)):
        return []  # a selection's search (and its limit) goes through the piles in order
    apart: set[str] = set()
    reads_index = False

    def walk(node: Any) -> None:
        nonlocal reads_index
        if isinstance(node, Name):
            if node.name in zones:
                apart.add(node.name)
            return
        if isinstance(node, Attr) and node.name == "index":
            reads_index = True
        if isinstance(node, Comprehension) and node.func in ORDERLESS and isinstance(node.iterable, Name):
            for part in (node.element, node.condition):
                walk(part)
            return
        if isinstance(node, Binary) and node.op in ("in", "notin") and isinstance(node.right, Name):
            walk(node.left)
            return
        if isinstance(node, Node):
            for field in dataclasses.fields(node):
                walk(getattr(node, field.name))
        elif isinstance(node, tuple):
            for part in node:
                walk(part)

    def visit(value: Any, path: tuple[Any, ...]) -> None:
        if isinstance(value, dict):
            loop = value.get("for")
            if isinstance(loop, str):
                try:
                    header = parse_loop(loop)
                except ParseError:
                    header = None
                orderless = all(isinstance(e, dict) and set(e) <= ORDERLESS_EFFECTS for e in value.get("do", []))
                if header is not None and not (orderless and isinstance(header.iterable, Name)):
                    walk(header.iterable)
            for key, item in value.items():
                if key not in NOT_PLAYED and key != "for":
                    visit(item, path + (key,))
        elif isinstance(value, list):
            for i, item in enumerate(value):
                visit(item, path + (i,))
        elif isinstance(value, str):
            if len(path) >= 3 and path[0] == "moves" and path[2] in ("from", "to") and value in zones:
                return  # a move's source or destination zone: any of its piles
            try:
                walk(parse_expression(value))
            except ParseError:
                pass  # not an expression (a name of a move, a result)

    for key, value in front.data.items():
        if key not in NOT_PLAYED:
            visit(value, (key,))
    if reads_index:
        return []
    return [list(rules.zones[name].piles) for name in sorted(zones - apart)]


class NativeSearch:
    """One search of one game's position, with its arrays. Making it compiles (or loads from the
    cache) the search code, so that the clock of the search itself does not count that."""

    def __init__(self, game: Any, relevant: Iterable[int], max_positions: int, use_safe: bool) -> None:
        rules = game.rules
        if rules.max_players > 16 or len(rules.phases) >= 1 << 16:
            raise Unsupported("the solver's keys: more than 16 seats or 65,535 phases")
        if rules.repeat is not None:
            raise Unsupported(REPEAT_UNSEARCHED)
        if game._cycle is not None:  # (its positions so far are not on the search's path)
            raise Unsupported("a game with a cycle under way")
        self.native: Native = native_backend(rules)
        if "won" not in self.native.results:
            raise Unsupported("a ruleset that cannot end won (the native solver searches for wins)")
        self.game = game
        self.max_positions = max_positions
        np = self.np = self.native.np
        self.start: NativeGame = self.native.start(game)
        self.start.M[MAX_MOVES] = -1  # the search's game never ends `limit`
        self.module = self.native.module
        ncards, npiles = len(rules.deck), rules.pile_count
        self.slots = np.array(sorted(relevant), dtype=np.int64)
        groups = interchangeable_piles(rules)
        self.groups = groups
        widest = max((len(g) for g in groups), default=1)
        self.SYMG = np.array([g + [-1] * (widest - len(g)) for g in groups] or [[-1]], dtype=np.int64)[:len(groups)]
        self.SYML = np.array([len(g) for g in groups], dtype=np.int64)
        self.CANON = np.zeros(npiles + widest, dtype=np.int64)
        runs = turn_runs(rules)
        self.RT = np.zeros(max(len(rules.moves), 1), dtype=np.int64)
        self.RZ = np.zeros(max(npiles, 1), dtype=np.int64)
        if runs is not None:
            self.RT[sorted(runs.turns)] = RT_TURN
            self.RT[sorted(runs.commuting)] = RT_COMMUTING
            self.RZ[sorted(runs.piles)] = 1
        card_words = int(self.module.CARDWORDS)
        self.width = card_words + len(self.slots) + 3
        self.ST = np.zeros(SCALARS, dtype=np.int64)
        self.ST[S_SAFE] = int(use_safe and any(t.safe is not None for t in rules.moves))
        self.ST[S_WON] = self.native.results.index("won")
        self.LS = np.zeros((2 * len(rules.moves), 3), dtype=np.float64)
        self.SK = np.zeros((MAXL, 4), dtype=np.float64)
        self.KEY = np.zeros(max(ncards, 1), dtype=np.int64)
        self.KW = np.zeros(self.width, dtype=np.int64)
        self.BK = np.zeros(max(ncards, 1), dtype=np.int64)
        self.MC = np.zeros(max(ncards, 1), dtype=np.int64)
        self.TMP = np.zeros(max(ncards, 1), dtype=np.int64)
        self.cycle = rules.cycle is not None
        self._levels(FIRST_DEPTH, npiles, ncards)
        self.POOL = np.zeros(FIRST_POOL, dtype=np.int64)
        self._arena(min(FIRST_ROWS, max_positions + 1))
        self._call("search_begin", *self._begin_args(0.0))  # compiles the search now, not on the clock
        self.ST[S_CHUNK] = 0
        self._call("search_run", *self._run_args(0.0))
        self._call("rehash", self.KEYS, 0, np.full(4, -1, dtype=np.int64))
        self._arena(len(self.KEYS))
        self.LS[:] = 0
        self.ST[S_NODES] = self.ST[S_GEN] = 0

    # -- arrays ---------------------------------------------------------------------------------

    def _levels(self, depth: int, npiles: int, ncards: int) -> None:
        np, S = self.np, self.start
        self.LC = np.zeros((depth, npiles, S.C.shape[1]), dtype=np.int64)
        self.LN = np.zeros((depth, npiles), dtype=np.int64)
        self.LU = np.zeros((depth, len(S.U)), dtype=np.int64)
        self.LV = np.zeros((depth, len(S.V)), dtype=np.int64)
        self.LM = np.zeros((depth, len(S.M)), dtype=np.int64)
        self.FR = np.zeros((depth, FRAME_FIELDS), dtype=np.int64)
        self.CKG = np.zeros((depth if self.cycle else 1, max(ncards, 1)), dtype=np.int64)
        self.LC[0], self.LN[0], self.LU[0], self.LV[0], self.LM[0] = S.C, S.N, S.U, S.V, S.M

    def _grow_levels(self) -> None:
        np = self.np
        depth = 2 * len(self.LC)
        for name in ("LC", "LN", "LU", "LV", "LM", "FR") + (("CKG",) if self.cycle else ()):
            old = getattr(self, name)
            new = np.zeros((depth,) + old.shape[1:], dtype=old.dtype)
            new[:len(old)] = old
            setattr(self, name, new)

    def _arena(self, rows: int) -> None:
        """A new, empty arena of keys (and table)."""
        np = self.np
        self.KEYS = np.zeros((rows, self.width), dtype=np.int64)
        self.PVAL = np.zeros(rows, dtype=np.int64)
        self.PGEN = np.zeros(rows, dtype=np.int64)
        self.COMP = np.zeros(rows, dtype=np.int64)
        self.TABLE = np.full(self._table_size(rows), -1, dtype=np.int64)
        self.ST[S_NPOS] = self.ST[S_USED] = self.ST[S_COMP] = 0

    @staticmethod
    def _table_size(rows: int) -> int:
        size = 16
        while size < 2 * rows + 2:
            size *= 2
        return size

    def _grow_arena(self) -> bool:
        """Room for more keys: a larger arena while under the bound, else the keys of positions
        only left open by earlier restarts dropped. False when no room can be made."""
        np = self.np
        rows = len(self.KEYS)
        if rows < self.max_positions + 1:
            rows = min(2 * rows, self.max_positions + 1)
            for name in ("KEYS", "PVAL", "PGEN", "COMP"):
                old = getattr(self, name)
                new = np.zeros((rows,) + old.shape[1:], dtype=old.dtype)
                new[:len(old)] = old
                setattr(self, name, new)
            self.TABLE = np.full(self._table_size(rows), -1, dtype=np.int64)
            self._call("rehash", self.KEYS, self.ST[S_NPOS], self.TABLE)
            return True
        self.TABLE[:] = -1
        self._call("compact", self.KEYS, self.PVAL, self.PGEN, self.COMP, self.FR, self.ST, self.TABLE)
        return bool(self.ST[S_NPOS] + 1 < len(self.KEYS))

    # -- running --------------------------------------------------------------------------------

    def _call(self, name: str, *args: Any) -> Any:
        return self.start._call(name, *args)  # a Stop of compiled code becomes NativeStop

    def _begin_args(self, jitter: float) -> tuple[Any, ...]:
        return (self.LC, self.LN, self.LU, self.LV, self.LM, self.start.O, self.FR, self.POOL, self.KEYS, self.PVAL,
                self.PGEN, self.TABLE, self.COMP, self.slots, self.SYMG, self.SYML, self.CANON, self.KEY, self.KW, self.MC,
                self.LS, self.SK, jitter, self.RT, self.RZ, self.ST)

    def _run_args(self, jitter: float) -> tuple[Any, ...]:
        return (self.LC, self.LN, self.LU, self.LV, self.LM, self.start.O, self.FR, self.POOL, self.KEYS, self.PVAL,
                self.PGEN, self.TABLE, self.COMP, self.CKG, self.slots, self.SYMG, self.SYML, self.CANON, self.KEY,
                self.KW, self.BK, self.MC, self.TMP, self.LS, self.SK, jitter, self.RT, self.RZ, self.ST)

    def run(self, deadline: float, clock: Callable[[], float], limits: Iterable[int]) -> tuple[list[int] | None, bool, str]:
        """Search with restarts (`limits`: the positions each may add) until one wins, one searches
        every reachable position, or the time (`clock` past `deadline`) or the bound on
        positions kept runs out. Returns the winning actions (or None), whether every reachable
        position was searched, and why the search stopped short ("" if it did not)."""
        ST = self.ST
        ST[S_CHUNK] = CHUNK
        for attempt, limit in enumerate(limits):
            jitter = 0.0 if attempt == 0 else RESTART_JITTER if attempt % 2 else 1000.0
            ST[S_GEN] = attempt + 1
            ST[S_RNG] = 0x9E3779B97F4A7C15 * (attempt + 1) % (1 << 63) or 1
            ST[S_STOP] = ST[S_NODES] + limit
            if len(self.KEYS) - ST[S_NPOS] < 2 and not self._grow_arena():
                return None, False, f"more than {self.max_positions:,} positions"
            code = self._call("search_begin", *self._begin_args(jitter))
            while code in (R_PAUSED, R_NEED):
                if code == R_NEED:
                    need = int(ST[S_NEED])
                    if need & 1:
                        self._grow_levels()
                    if need & 2:
                        pool = self.np.zeros(2 * len(self.POOL), dtype=self.np.int64)
                        pool[:len(self.POOL)] = self.POOL
                        self.POOL = pool
                    if need & 12 and not self._grow_arena():
                        return None, False, f"more than {self.max_positions:,} positions"
                if clock() > deadline:
                    return None, False, "time ran out"
                code = self._call("search_run", *self._run_args(jitter))
            if code == R_WON:
                depth = int(ST[S_DEPTH])
                return [int(a) for a in self.FR[:depth + 1, ACT]], False, ""
            if code == R_EXHAUSTED:
                return None, True, ""
            if clock() > deadline:
                return None, False, "time ran out"
        return None, False, "no restarts left"

    @property
    def nodes(self) -> int:
        """Positions searched (each new one counts once per restart that reaches it)."""
        return int(self.ST[S_NODES])

    def moves(self, actions: list[int]) -> list[Any]:
        """The Python game's moves for winning actions, played from the position searched (the
        game is left where it was): each must be one of its legal moves, and the last must win."""
        game = self.game
        depth = len(game.history)
        found: list[Any] = []
        try:
            for a in actions:
                move = next((m for m in game.legal_moves() if self.native.code(m) == a), None)
                if move is None:
                    raise CardrulesError(f"the native search's move {a} is not legal in the Python game "
                                         f"after {len(found)} moves (a bug of the native backend)")
                game.apply(move)
                found.append(move)
            if game.outcome != "won":
                raise CardrulesError("the native search's moves do not win in the Python game "
                                     "(a bug of the native backend)")
        finally:
            while len(game.history) > depth:
                game.undo()
        return found


__all__ = ["NativeSearch"]
