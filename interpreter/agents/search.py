"""The searches of the Monte Carlo bots in Python: `montecarlo` (flat) and `ismcts` (information-set
tree search), and what they share with `mcts` (agents/mcts.py, its trials in compiled code): the
tree's nodes, UCB, a playout's value to a seat, the game's moves as a copy offers them.

A search decides on copies of the game in which the cards its seat cannot see are dealt anew
(`Game.determinize`); it chooses among the moves the game offers, never among a copy's
(`offered_in`); see agents/bots.py.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import Any, Callable

from ..python.engine import Game, Move


def offered_in(trial: Game, moves: list[Move]) -> list[Move | None]:
    """Each of `moves` (the game's legal moves for the seat to act) as `trial`, a copy of the game
    (`Game.determinize`), offers it, or None where the copy does not offer it."""
    by_key = {move.key(): move for move in trial.legal_moves()}
    return [by_key.get(move.key()) for move in moves]


def result_value(game: Game, seat: int, low: float, high: float) -> float:
    """How good a playout's end is for `seat`, in [0, 1]: its share of the win in a game of several
    seats (by score when the playout was cut short), 1 or 0 for a solitaire won or lost, else its
    evaluation scaled between the lowest and highest seen so far."""
    if game.players > 1:
        if game.is_over:
            winners = game.winners() or []
            return 1.0 / len(winners) if seat in winners else 0.0
        values = [game.evaluation(p) for p in range(game.players)]
        best = max(values)
        leaders = [p for p, v in enumerate(values) if v == best]
        return 1.0 / len(leaders) if seat in leaders else 0.0
    if game.is_over and game.outcome in ("won", "lost"):
        return 1.0 if game.outcome == "won" else 0.0
    if high <= low:
        return 0.5
    return (game.evaluation(seat) - low) / (high - low)


def _playout(game: Game, rng: random.Random, depth: int) -> None:
    """Random moves until the game ends or `depth` moves are played."""
    for _ in range(depth):
        if game.is_over:
            return
        moves = game.legal_moves()
        if not moves:
            return
        game.apply(rng.choice(moves))


class _Scale:
    """The lowest and highest evaluation seen in playouts, to bring one-seat scores into [0, 1]."""

    def __init__(self) -> None:
        self.low = math.inf
        self.high = -math.inf

    def value(self, game: Game, seat: int) -> float:
        if game.players == 1 and not (game.is_over and game.outcome in ("won", "lost")):
            evaluation = game.evaluation(seat)
            self.low, self.high = min(self.low, evaluation), max(self.high, evaluation)
        return result_value(game, seat, self.low, self.high)


class MonteCarloBot:
    """Flat Monte Carlo: `budget` random playouts (each on a fresh guess of the hidden cards, at
    most `depth` moves), shared out over the candidate moves; the best mean result wins."""

    name = "montecarlo"

    def __init__(self, seed: int | None = None, budget: int = 200, depth: int = 200) -> None:
        self.rng = random.Random(seed)
        self.budget = budget
        self.depth = depth

    def choose(self, game: Game) -> Move:
        seat = game.current_player
        moves = game.legal_moves()
        if len(moves) == 1:
            return moves[0]
        per_move = max(1, self.budget // len(moves))
        scale = _Scale()
        finals: dict[int, list[Game]] = {}
        for index, move in enumerate(moves):
            ends = []
            for _ in range(per_move):
                trial = game.determinize(seat, self.rng)
                mine = offered_in(trial, [move])[0]
                if mine is not None:  # else played out from the copy as it is
                    trial.apply(mine)
                _playout(trial, self.rng, self.depth)
                scale.value(trial, seat)  # widen the scale before any mean is taken
                ends.append(trial)
            finals[index] = ends
        means = [sum(scale.value(g, seat) for g in finals[i]) / len(finals[i]) for i in range(len(moves))]
        best = max(means)
        return self.rng.choice([m for m, v in zip(moves, means) if v == best])


@dataclass
class TreeNode:
    """A node of the information-set tree: reached by `move` (its key), made by `mover`."""

    move: Any  # the key of the move that reaches it (None at the root)
    mover: int
    visits: int = 0
    available: int = 0
    reward: float = 0.0

    def __post_init__(self) -> None:
        self.children: dict[Any, TreeNode] = {}


class IsmctsBot:
    """Single-observer information-set MCTS (Cowling, Powley and Whitehouse, 2012): each of
    `iterations` passes deals the unseen cards anew (consistent with the seat's view), walks the
    tree by UCB among the moves legal in that deal, adds one node, plays out at random (at most
    `depth` moves) and credits every node with the result for the seat that moved there.
    The most visited move at the root is played."""

    name = "ismcts"

    def __init__(self, seed: int | None = None, iterations: int = 300, depth: int = 200,
                 exploration: float = 0.7, seconds: float = 0.0) -> None:
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.depth = depth
        self.exploration = exploration
        self.seconds = seconds  # CPU time per decision, at most (0: no bound but the iterations)

    def choose(self, game: Game) -> Move:
        seat = game.current_player
        moves = game.legal_moves()
        if len(moves) == 1:
            return moves[0]
        root = TreeNode(None, seat)
        scale = _Scale()
        deadline = time.process_time() + self.seconds if self.seconds else math.inf
        for iteration in range(self.iterations):
            if iteration and time.process_time() > deadline:
                break
            trial = game.determinize(seat, self.rng)
            def listed(at_root: bool) -> tuple[list[Any], list[Any]] | None:
                # At the root, the game's moves (each as the copy offers it, None where it does not);
                # below, the copy's.
                options = moves if at_root else trial.legal_moves()
                if not options:
                    return None
                return options, offered_in(trial, moves) if at_root else options

            path = descend(root, self.rng, self.exploration, listed, lambda m: m.key(), trial)
            _playout(trial, self.rng, self.depth)
            for visited in path[1:]:
                visited.visits += 1
                visited.reward += scale.value(trial, visited.mover)
        return most_visited(root, moves, lambda m: m.key(), self.rng)


def ucb(node: TreeNode, exploration: float) -> float:
    """A child's value to the tree walk: its mean reward and a bonus for how seldom it was chosen
    among the times it was available (UCB1, as ISMCTS counts availability)."""
    if node.visits == 0:
        return math.inf
    return node.reward / node.visits + exploration * math.sqrt(math.log(max(node.available, 1)) / node.visits)


def descend(root: TreeNode, rng: random.Random, exploration: float,
            listed: Callable[[bool], tuple[list[Any], list[Any]] | None], key: Callable[[Any], Any],
            trial: Any) -> list[TreeNode]:
    """One walk of an ISMCTS trial down the tree from `root`, playing on `trial` (a copy dealt
    anew: anything with `is_over`, `current_player` and `apply`): at each node the moves
    `listed(at_root)` gives (the options, keyed by `key`, and each as the copy can play it, None
    where it cannot; None when there is none), by UCB among those tried, until a node gets its
    first untried child (drawn at random), which is played and ends the walk. A move the copy
    cannot play ends it where it is (the playout starts from the copy as it is). Returns the
    nodes visited, the root first."""
    node, path = root, [root]
    while not trial.is_over:
        found = listed(node is root)
        if found is None:
            break
        options, playable = found
        untried = [i for i, option in enumerate(options) if key(option) not in node.children]
        if untried:
            index = rng.choice(untried)
            child = node.children[key(options[index])] = TreeNode(key(options[index]), trial.current_player)
            path.append(child)
            if playable[index] is not None:
                trial.apply(playable[index])
            break
        children = [node.children[key(option)] for option in options]
        for child in children:
            child.available += 1
        chosen = max(range(len(options)), key=lambda i: ucb(children[i], exploration))
        node = children[chosen]
        path.append(node)
        if playable[chosen] is None:
            break
        trial.apply(playable[chosen])
    return path


def most_visited(root: TreeNode, moves: list[Move], key: Callable[[Move], Any], rng: random.Random) -> Move:
    """The game's move whose child of `root` was visited most (drawn among equals; any move if none was)."""
    by_key = {key(m): m for m in moves}
    visited = [(child.visits, k) for k, child in root.children.items() if k in by_key]
    if not visited:
        return rng.choice(moves)
    most = max(v for v, _ in visited)
    return by_key[rng.choice([k for v, k in visited if v == most])]
