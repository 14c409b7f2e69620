"""The solver's depth-first search (workbench/solver.py drives it): one game walked by apply and
undo, positions keyed by the variables that steer it (workbench/solver_analysis.py), and the
shortening of a solution found.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any, Callable

from ..model.ruleset import Ruleset
from ..model.turn_runs import turn_runs
from ..python.engine import Game, Move
from .solver_analysis import Analysis

# The search's own game never ends `limit`: repeated positions are pruned instead.
SEARCH_MAX_MOVES = 10 ** 12


class _OutOfBudget(Exception):
    pass


class _Frame:
    """A position on the search path: its legal moves, the moves still to try, how it stands."""

    __slots__ = ("legal", "todo", "evaluation", "faces", "score", "key", "index", "low")

    def __init__(self, legal: list[Move], todo: list[Move], evaluation: int, faces: int, score: int,
                 key: Any, index: int) -> None:
        self.legal = legal
        self.todo = todo  # best last: they are popped
        self.evaluation = evaluation
        self.faces = faces
        self.score = score
        # Its key, and (a win search) its discovery number and the lowest discovery number of a
        # position on the component stack that it reaches (Tarjan's algorithm, see `_Search.run`).
        self.key = key
        self.index = index
        self.low = index


class _Search:
    """Depth-first search with a table of positions seen, on one game walked by apply and undo."""

    def __init__(self, game: Game, analysis: Analysis, deadline: float, max_positions: int,
                 use_safe: bool = True, clock: Callable[[], float] = time.perf_counter) -> None:
        self.game = game
        self.state = game.state
        self.rules = game.rules
        self.analysis = analysis
        self.deadline = deadline  # on `clock`
        self.clock = clock
        self.max_positions = max_positions
        self.base = len(game.history)  # moves found are those played after the position searched from
        self.nodes = 0
        self.score_goal = not analysis.can_win
        # A score search keeps the best score so far by position (a pure accumulator), or else
        # tells positions apart by the score's variables too.
        self.dominance = self.score_goal and analysis.accumulating
        self.slots = analysis.relevant if analysis.relevant is not None else tuple(range(self.rules.var_count))
        if self.score_goal and not analysis.accumulating:
            self.slots = tuple(sorted(set(self.slots) | set(analysis.objective)))
        self.small_deck = len(self.rules.deck) < 255
        self.seen: dict[Any, int] = {}
        # A win search proves positions lost as it goes, and keeps them across restarts: `dead`
        # holds every position from which no win is reachable. Within a run, `open` numbers the
        # positions of strongly connected components not yet closed (`components` is their stack).
        # Sound only where a position's future does not depend on how it was reached.
        self.proving = not self.score_goal and self.rules.repeat is None
        self.dead: set[Any] = set()
        self.open: dict[Any, int] = {}
        self.components: list[Any] = []
        # `safe:` moves are played alone (the ruleset's promise, trusted) unless `use_safe` is off.
        self.safe_templates = use_safe and any(t.safe is not None for t in self.rules.moves)
        # Right after a turn of the stock, only turns and the moves that do not commute with them
        # (model/turn_runs.py): a win search's pruning, sound for any order of the moves that commute.
        self.runs = None if self.score_goal else turn_runs(self.rules)
        self.solution: list[str] | None = None
        # A score search: the best finished game, and the best position. While no move searched
        # has lowered the score, every position's score can be kept to the end of the game, so
        # the best position counts.
        self.best_final: tuple[int, list[str]] | None = None
        self.best_position: tuple[int, list[str]] | None = None
        self.monotone = True
        # What each kind of move (its template, and whether it uncovers what lay under the cards it
        # takes) has done to the evaluation and to the cards face up, on average: the order to try.
        self.learned: dict[tuple[int, bool], list[float]] = {}
        self.jitter = 0.0  # restarts shake the order of moves (by up to this many places)
        self.rng = random.Random(0)

    # -- positions ----------------------------------------------------------------------------

    def key(self) -> Any:
        """The position's key (its last item False: see `turned_key`)."""
        S = self.state
        V = S.vars
        values = tuple([V[i] for i in self.slots])
        piles: Any = b"\xff".join(map(bytes, S.piles)) if self.small_deck else tuple(map(tuple, S.piles))
        key: Any = (piles, bytes(S.up), values, S.current, S.phase, S.frames, S.next_seat, S.direction, False)
        try:
            hash(key)
        except TypeError:  # a variable holding a list
            key = (piles, bytes(S.up), repr(values), S.current, S.phase, S.frames, S.next_seat, S.direction, False)
        return key

    @staticmethod
    def turned_key(key: Any) -> Any:
        """The key of the position as reached by a turn of the stock: searched with fewer moves,
        so not the same node as the position reached otherwise."""
        return key[:-1] + (True,)

    def so_far(self) -> int:
        """The score now (before any end-of-game effects), as the search compares scores: higher
        is better (negated under `score_order: lower`)."""
        score = self.rules.score
        return 0 if score is None else self.rules.score_sign * int(score(self.state, {"player": 0}))

    def seen_before(self, key: Any, score: int, parent: _Frame | None) -> bool:
        """Was this position searched before (in a score search by dominance: with at least this
        score so far)? In a win search, a position of a component still open lowers the parent's
        `low`; a position searched before and not open is proven lost."""
        if self.proving:
            index = self.open.get(key)
            if index is not None:
                if parent is not None and index < parent.low:
                    parent.low = index
                return True
            return key in self.dead
        old = self.seen.get(key)
        return old is not None and old <= (-score if self.dominance else 0)

    def visit(self, key: Any, score: int, parent: _Frame | None) -> int | None:
        """Mark a position searched and return its discovery number; None when it was searched
        before (see `seen_before`)."""
        return None if self.seen_before(key, score, parent) else self.mark(key, score)

    def mark(self, key: Any, score: int) -> int:
        """Mark a position not searched before as searched; its discovery number."""
        if self.proving:
            self.open[key] = index = self.nodes
            self.components.append(key)
        else:
            self.seen[key] = -score if self.dominance else 0
            index = self.nodes
        self.nodes += 1
        if self.nodes & 31 == 0 or self.nodes == 1:
            if self.clock() > self.deadline:
                raise _OutOfBudget("time ran out")
            if len(self.seen) + len(self.open) + len(self.dead) > self.max_positions:
                raise _OutOfBudget(f"more than {self.max_positions:,} positions")
        return index

    def close(self, frame: _Frame, parent: _Frame | None) -> None:
        """A win search has tried every move of `frame` without a win. If no position it reached is
        still open above it, it closes a component: every position in it is proven lost. Otherwise
        it hands its `low` to its parent."""
        if frame.low == frame.index:
            components, open_, dead = self.components, self.open, self.dead
            while True:
                key = components.pop()
                del open_[key]
                dead.add(key)
                if key == frame.key:
                    break
        elif parent is not None and frame.low < parent.low:
            parent.low = frame.low

    def finished(self) -> bool:
        """At a finished game: record it. True when the search is over (a win)."""
        game = self.game
        if self.score_goal:
            if game.outcome != "limit":
                score = self.rules.score_sign * game.scores()[0]
                if self.best_final is None or score > self.best_final[0]:
                    self.best_final = (score, self.path())
            return False
        if game.outcome == "won":
            self.solution = self.path()
            return True
        return False

    def path(self) -> list[str]:
        """The moves from the position searched from to here (move texts)."""
        return [str(m) for m in self.game.history[self.base:]]

    def best(self) -> tuple[int, list[str]] | None:
        """A score search's answer: the best score the player can end with, and the moves."""
        candidates = [c for c in (self.best_final, self.best_position if self.monotone else None) if c is not None]
        return max(candidates, key=lambda c: c[0]) if candidates else None

    # -- ordering -----------------------------------------------------------------------------

    def _kind(self, move: Move) -> tuple[int, bool]:
        uncovers = False
        if move.src >= 0 and move.count > 0 and move.pick is None:
            pile = self.state.piles[move.src]
            rest = len(pile) - move.count
            uncovers = rest <= 0 or not self.state.up[pile[rest - 1]]
        return move.template, uncovers

    def frame(self, key: Any, index: int, score: int, after_turn: bool = False) -> _Frame:
        """The frame of the position reached (already visited as `index`): a safe move alone, or
        every legal move, the most promising last; after a turn of the stock, not the moves that
        commute with the turns."""
        game = self.game
        legal = game.legal_moves()
        tried = legal
        if after_turn and self.runs is not None:
            commutes = self.runs.commutes
            tried = [m for m in legal if not commutes(m.template, m.src, m.dst)]
        evaluation, faces = game.evaluation(0), self.state.up.count(1)
        if self.safe_templates:
            for move in tried:
                if game.is_safe(move):
                    return _Frame(legal, [move], evaluation, faces, score, key, index)
        learned = self.learned
        ranked = []
        shaking = self.jitter > 0
        rng = self.rng
        for place, move in enumerate(tried):
            stats = learned.get(self._kind(move))
            tie = rng.random() if shaking else -place  # a restart breaks ties at random
            if stats is None:  # a kind never tried: try it early, to learn what it does
                ranked.append((math.inf, math.inf, tie, move))
            else:
                ranked.append((stats[0] / stats[2], stats[1] / stats[2], tie, move))
        ranked.sort(key=lambda r: r[:3])
        if shaking and len(ranked) > 1:  # and shakes the order a little
            shaken = sorted(((i + rng.random() * self.jitter, r[3]) for i, r in enumerate(ranked)),
                            key=lambda r: r[0])
            return _Frame(legal, [m for _, m in shaken], evaluation, faces, score, key, index)
        return _Frame(legal, [r[3] for r in ranked], evaluation, faces, score, key, index)

    def _learn(self, kind: tuple[int, bool], frame: _Frame) -> None:
        gain = self.game.evaluation(0) - frame.evaluation
        turned = self.state.up.count(1) - frame.faces
        stats = self.learned.get(kind)
        if stats is None:
            self.learned[kind] = [gain, turned, 1]
        else:
            stats[0] += gain
            stats[1] += turned
            stats[2] += 1

    # -- the walk -----------------------------------------------------------------------------

    def run(self, limit: float = math.inf) -> bool:
        """One depth-first search from the game's position, over at most `limit` new positions.
        True when it was not cut short: every reachable position was searched."""
        game = self.game
        self.seen, self.open, self.components = {}, {}, []
        stop = self.nodes + limit
        if game.is_over:
            self.finished()
            return True
        score_goal = self.score_goal
        proving = self.proving
        score = self.so_far() if score_goal else 0
        if score_goal:
            self._position(score)
        key = self.key()
        index = self.visit(key, score, None)
        if index is None:  # proven lost by an earlier restart
            return True
        stack = [self.frame(key, index, score)]
        # Moves are applied unsettled: a position seen before then costs no listing of its moves
        # (most moves in a search reach one, and are taken back at once).
        lazy = game.rules.repeat is None
        runs = self.runs
        while stack:
            frame = stack[-1]
            if not frame.todo:
                stack.pop()
                if proving:
                    self.close(frame, stack[-1] if stack else None)
                if stack:
                    game.undo(stack[-1].legal)
                continue
            move = frame.todo.pop()
            kind = self._kind(move)
            after_turn = runs is not None and move.template in runs.turns
            game.apply(move, settle=not lazy)
            if score_goal:
                score = self.so_far()
                if score < frame.score:
                    self.monotone = False
            key = every_move = self.key()
            if after_turn:
                key = self.turned_key(key)
            if lazy:
                # Reached by a turn, the position searched with every move counts as well.
                if not game.is_over and (self.seen_before(key, score, frame)
                                         or after_turn and self.seen_before(every_move, score, frame)):
                    game.undo(frame.legal)
                    continue
                game.settle()
            self._learn(kind, frame)  # what a move to a new position did
            if game.is_over:
                if self.finished():
                    return False
            elif self.nodes >= stop:  # this restart's share is spent: back to the start
                game.undo()
                while len(stack) > 1:
                    stack.pop()
                    game.undo()
                return False
            else:
                # unsettled, the position was just found new; settled, it is checked here
                index = self.mark(key, score) if lazy else self.visit(key, score, frame)
                if index is not None:
                    if score_goal:
                        self._position(score)
                    stack.append(self.frame(key, index, score, after_turn))
                    continue
            game.undo(frame.legal)
        return True

    def _position(self, score: int) -> None:
        if self.best_position is None or score > self.best_position[0]:
            self.best_position = (score, self.path())

    # -- shorter solutions --------------------------------------------------------------------

    def shorten(self, moves: list[str], deadline: float) -> list[str]:
        """Cut detours out of moves found depth first: from each position on their path, a move that
        reaches a later position of the path (the same key, and in a score search no lower score
        so far) jumps there. Rounds repeat while they shorten the moves and time is left. The
        moves must lead to a win, or to the score to keep. The game is left where it started."""
        game = self.game
        depth = len(game.history)
        for _ in range(8):
            keys: dict[Any, int] = {}
            scores: list[int] = []
            try:
                for i, text in enumerate(moves):
                    keys[self.key()] = i
                    scores.append(self.so_far())
                    game.apply(game.parse_move(text))
                final = len(moves)
                ended = game.is_over
                goal = (game.scores()[0] if ended else self.so_far()) if self.score_goal else 0
                if not ended:
                    keys[self.key()] = final
                    scores.append(goal)
            finally:
                while len(game.history) > depth:
                    game.undo()
            shorter: list[str] = []
            i = 0
            try:
                while i < final:
                    if self.clock() > deadline:
                        return moves
                    best, best_j = None, i + 1
                    for move in game.legal_moves():
                        game.apply(move)
                        if game.is_over:
                            done = ended and (game.outcome == "won" if not self.score_goal else
                                              game.outcome != "limit" and game.scores()[0] >= goal)
                            j = final if done else -1
                        else:
                            j = keys.get(self.key(), -1)
                            if j > best_j and self.score_goal and self.so_far() < scores[j]:
                                j = -1
                        game.undo()
                        if j > best_j:
                            best, best_j = move, j
                    if best is None:
                        best = game.parse_move(moves[i])
                    shorter.append(str(best))
                    game.apply(best)
                    i = best_j
            finally:
                while len(game.history) > depth:
                    game.undo()
            if len(shorter) >= len(moves):
                break
            moves = shorter
        return moves


def new_search_game(rules: Ruleset, seed: int | None = None, deal: list[str] | str | None = None) -> Game:
    """A game to search: one seat, and a move limit it never reaches."""
    return Game(rules, seed=seed, deal=deal, players=1, max_moves=SEARCH_MAX_MOVES)

