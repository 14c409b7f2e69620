"""`mcts`, the search bot that needs nothing from a ruleset's author: information-set Monte-Carlo
tree search (`bots.IsmctsBot`'s algorithm) whose trials run in compiled code where the native
backend can play the ruleset, and in Python where it cannot.

Each decision runs `playouts` trials (fewer if `seconds` of CPU run out first): the position copied,
the cards the seat cannot see dealt anew (`determinize`), a walk down the tree by UCB among the
moves the copy offers, one node added, then random moves at every seat until the game ends or
`depth` moves are made. A playout that ends the game credits each node with its mover's share of
the win (one seat: 1 won, 0 lost); one cut short credits the seats whose evaluation (the ruleset's
`heuristic`, else the score) leads, or, alone at the table, the evaluation scaled between the
lowest and highest seen. So a heuristic shortens playouts; it never replaces the search. The move
played is the root's most visited, always one the game offers its seat.

Natively a trial costs no Python game: the root position is copied into arrays made once per
decision (`NativeGame.clone`, `copy_from`), dealt anew and played out by compiled code
(`NativeGame.determinize`, `Native.random_playout`), from the bot's own Mersenne Twister streams,
so a seed gives the same moves on every machine (unless `seconds` stops the search first). Where
compiled code stops (a bound of its own, a fault), the decision is made again by the Python search.
The two backends run the same search but not the same random draws: their moves may differ.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from ..python.engine import Game, Move
from .search import IsmctsBot, TreeNode, descend, most_visited

DEFAULT_PLAYOUTS = 200
DEFAULT_DEPTH = 200


class MctsBot:
    """ISMCTS with compiled trials where it can (module docstring)."""

    name = "mcts"

    def __init__(self, seed: int | None = None, playouts: int = DEFAULT_PLAYOUTS, seconds: float = 0.0,
                 depth: int = DEFAULT_DEPTH, exploration: float = 0.7) -> None:
        self.rng = random.Random(seed)
        self.playouts = playouts
        self.seconds = seconds
        self.depth = depth
        self.exploration = exploration
        self.python = IsmctsBot(None, playouts, depth, exploration, seconds)
        self.python.rng = self.rng  # one stream of draws, whichever search decides
        self._backends: dict[int, tuple[Any, Any]] = {}  # id(ruleset) -> (ruleset, its native backend or None)
        self._streams: Any = None  # the Mersenne Twister states of the native playouts, a row per seat

    def choose(self, game: Game) -> Move:
        moves = game.legal_moves()
        if len(moves) == 1:
            return moves[0]
        backend = self._backend(game)
        if backend is not None:
            from ..native import NativeStop

            try:
                return self._native_search(game, moves, backend)
            except NativeStop:
                pass  # compiled code stopped at one of its bounds: the Python search decides
        return self.python.choose(game)

    def _backend(self, game: Game) -> Any:
        """The ruleset's native backend, or None where there is none (`compiled_trials`)."""
        rules = game.rules
        known = self._backends.get(id(rules))
        if known is not None and known[0] is rules:
            return known[1]
        backend = compiled_trials(rules)[0]
        self._backends[id(rules)] = (rules, backend)
        return backend

    def _native_search(self, game: Game, moves: list[Move], backend: Any) -> Move:
        np = backend.np
        seat, players = game.current_player, game.players
        root_position = backend.start(game)
        trial = root_position.clone()
        codes = [backend.code(move) for move in moves]
        if self._streams is None or len(self._streams) != players:
            self._streams = np.array([random.Random(self.rng.getrandbits(64)).getstate()[1] for _ in range(players)],
                                     dtype=np.int64)
        streams = self._streams
        limit = root_position.move_limit
        lead = np.zeros(root_position.moves + self.playouts + self.depth + 2 if players > 1 else 1, dtype=np.int64)
        stats = np.zeros(5, dtype=np.int64)
        low, high = math.inf, -math.inf
        root = TreeNode(None, seat)
        playing = _Playing(trial)

        def listed(at_root: bool) -> tuple[list[Any], list[Any]] | None:
            """The moves at a node: at the root the game's (None where the copy lacks one), below the copy's."""
            offered = [int(a) for a in trial.out[:trial.cnt]]
            if not offered:
                return None
            return (codes, [c if c in offered else None for c in codes]) if at_root else (offered, offered)

        deadline = time.process_time() + self.seconds if self.seconds else math.inf
        for iteration in range(self.playouts):
            if iteration and time.process_time() > deadline:
                break
            trial.copy_from(root_position)
            trial.determinize(seat, streams[seat])
            path = descend(root, self.rng, self.exploration, listed, lambda code: code, playing)
            cut = trial.moves + self.depth
            cut_short = False
            if not trial.is_over:
                if limit < 0 or cut < limit:
                    trial.move_limit = cut
                trial.repeat_room(self.depth)
                backend.random_playout(trial, streams, lead, stats)
                cut_short = trial.moves >= cut and (limit < 0 or cut < limit)
            if players > 1:
                if cut_short or not trial.is_over:
                    mask = trial.leaders()
                    shares = [1.0 if mask >> p & 1 else 0.0 for p in range(players)]
                else:
                    winners = trial.winners() or []
                    shares = [1.0 if p in winners else 0.0 for p in range(players)]
                total = sum(shares)
                values = [share / total if total else 0.0 for share in shares]
            elif trial.is_over and not cut_short and trial.outcome in ("won", "lost"):
                values = [1.0 if trial.outcome == "won" else 0.0]
            else:
                evaluation = trial.evaluation(0)
                low, high = min(low, evaluation), max(high, evaluation)
                values = [(evaluation - low) / (high - low) if high > low else 0.5]
            for visited in path[1:]:
                visited.visits += 1
                visited.reward += values[visited.mover]
        code_of = {move.key(): code for move, code in zip(moves, codes)}
        return most_visited(root, moves, lambda move: code_of[move.key()], self.rng)


def compiled_trials(rules: Any) -> tuple[Any, str | None]:
    """The native backend an `mcts` seat runs its trials in, or None and why not: Numba missing,
    a construct the backend does not cover, a game where every seat plays at once."""
    if rules.simultaneous:
        return None, "every seat plays at once"
    from ..native import Unsupported, native_available, native_backend

    if not native_available():
        return None, "the native backend is not installed: pip install 'cardrules[native]'"
    try:
        return native_backend(rules), None
    except Unsupported as exc:
        return None, f"the native backend does not play this ruleset: {exc}"


def default_bot(rules: Any, players: int) -> tuple[str, str | None]:
    """The kind of bot a seat not given plays in `simulate` and `compare`: in a game of several
    seats, `mcts` where its trials run in compiled code, else `greedy` (an mcts decision in Python
    costs some 0.1 s), with why; alone at the table, `greedy` (random playouts tell a solitaire
    little, and its games can run to thousands of moves: 200 playouts of 200 moves a decision
    cost some 0.2 s of CPU in a patience of 52 cards)."""
    if players == 1:
        return "greedy", None
    backend, why = compiled_trials(rules)
    if backend is not None:
        return "mcts", None
    return "greedy", f"seats not given are greedy bots, not mcts: {why}"


class _Playing:
    """A native position as `search.descend` plays on it: moves by their codes."""

    def __init__(self, position: Any) -> None:
        self.position = position

    @property
    def is_over(self) -> bool:
        return bool(self.position.is_over)

    @property
    def current_player(self) -> int:
        return int(self.position.current_player)

    def apply(self, code: int) -> None:
        self.position.apply_code(code)
