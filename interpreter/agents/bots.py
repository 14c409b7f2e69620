"""Bots that choose moves, for any ruleset.

- `random`: uniform among the legal moves.
- `greedy`: the move that raises its seat's score (or the ruleset's `heuristic`) most right away.
- `montecarlo`: flat Monte Carlo: random playouts after each candidate move, the best mean result.
- `ismcts`: information-set Monte Carlo tree search, for games with hidden cards.

`suggest_move` is the terminal's `hint`: a short search on the seat's view that avoids going
back to a position the game has been in.

Each bot has its own seeded random generator, so a game played by bots is the same
on every machine for the same seeds. A bot decides from what its seat may see: the
legal moves offered to it, and copies of the game in which every card it cannot see
has been dealt anew at random (`Game.determinize`). Parameters are given by name
(`make_bot("ismcts", seed, iterations=500)`, `--seat 2=ismcts:iterations=500`).

A bot chooses among the moves the game offers its seat, never among a copy's: a move the copy
offers but the game does not is never chosen. Where a ruleset lets a move's legality hang on a card
the seat cannot see (`cardrules validate` warns), a copy may lack one of the game's moves; that
move is still a candidate, valued as if it left the copy as it is (`greedy`: a gain of 0;
`montecarlo` and `ismcts`: a playout from the copy's position without it). Such a value gives no
hidden card away, and costs no random draw, so where the copy offers every move the bots decide
as they would without the rule.
"""

from __future__ import annotations

import hashlib
import math
import random
from dataclasses import dataclass
from typing import Any, Callable, Protocol

from ..python.engine import Game, Move


class Bot(Protocol):
    name: str

    def choose(self, game: Game) -> Move: ...


class BotParameterError(ValueError):
    """A bot kind or parameter that does not exist, or a value out of range."""


class RandomBot:
    """Picks uniformly among the legal moves."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game) -> Move:
        return self.rng.choice(game.legal_moves())


class GreedyBot:
    """Picks the move that raises its seat's score (or the ruleset's `heuristic`) most right away;
    ties are broken at random."""

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game) -> Move:
        player = game.current_player
        moves = game.legal_moves()
        trial = game.determinize(player, self.rng)  # the cards this seat cannot see, guessed
        before = trial.evaluation(player)
        best: list[Move] = []
        best_gain = None
        for move, mine in zip(moves, offered_in(trial, moves)):
            if mine is None:  # the copy lacks it: valued as leaving the copy as it is
                gain = 0
            else:
                trial.apply(mine)
                gain = trial.evaluation(player) - before
                trial.undo()
            if best_gain is None or gain > best_gain:
                best, best_gain = [move], gain
            elif gain == best_gain:
                best.append(move)
        return self.rng.choice(best)


def offered_in(trial: Game, moves: list[Move]) -> list[Move | None]:
    """Each of `moves` (the game's legal moves for the seat to act) as `trial`, a copy of the game
    (`Game.determinize`), offers it, or None where the copy does not offer it."""
    by_key = {move.key(): move for move in trial.legal_moves()}
    return [by_key.get(move.key()) for move in moves]


# The hint (`suggest_move`): moves looked at, at most, over all its imagined deals, and how many deals.
HINT_BUDGET = 3_000
HINT_WORLDS = 3
HINT_WIN = 1_000_000  # what a won (lost) end adds to (takes from) a position's value in the hint's search


def view_key(game: Game, seat: int) -> tuple[Any, ...]:
    """A position as `seat` sees it: each pile's cards (those it cannot see as -1), the variables,
    the seat to act and the phase. Equal keys look the same to the seat."""
    S = game.state
    visible = game.visible
    piles = tuple(tuple(card if visible(card, p, seat) else -1 for card in pile) for p, pile in enumerate(S.piles))
    return piles, tuple(S.vars), S.current, S.phase


def seen_views(game: Game, seat: int) -> set[tuple[Any, ...]]:
    """The positions of the game so far (its start and after each move), as `seat` sees them now."""
    trial = game.clone()
    seen = {view_key(trial, seat)}
    while trial.state.marks:
        trial.undo()
        seen.add(view_key(trial, seat))
    return seen


def suggest_move(game: Game, seen: set[tuple[Any, ...]] | None = None, budget: int = HINT_BUDGET,
                 worlds: int = HINT_WORLDS) -> Move:
    """A move to suggest to the seat to act (the `hint` command), decided from its view alone.

    A short search: on `worlds` copies of the game in which the cards the seat cannot see are
    dealt anew (`Game.determinize`, from a seed drawn from the seat's view, so the same position
    gets the same hint), each legal move is valued by the best position two moves deep (the
    seat's score or `heuristic`, a won or lost end above or below any), summed over the copies.
    A move back to a position the game has already been in (`seen`: by default every position
    since the deal) is suggested only if every move is one; among equals, the move after which
    the seat sees the most cards, then the first listed. `budget` bounds the moves looked at."""
    moves = game.legal_moves()
    if len(moves) <= 1:
        if not moves:
            raise ValueError("there is no legal move to suggest")
        return moves[0]
    seat = game.current_player
    if seen is None:
        seen = seen_views(game, seat)
    rng = _view_rng(game, seat)
    values = [0.0] * len(moves)
    fresh = [True] * len(moves)
    sight = [0] * len(moves)
    left = [budget]

    def value(trial: Game, depth: int) -> float:
        here = float(trial.evaluation(seat))
        if trial.is_over:
            won = trial.outcome == "won" if trial.players == 1 else seat in (trial.winners() or [])
            return here + (HINT_WIN if won else -HINT_WIN if trial.outcome != "limit" else 0)
        if depth == 0 or left[0] <= 0 or trial.current_player != seat:
            return here
        best = here
        for move in trial.legal_moves():
            if left[0] <= 0:
                break
            left[0] -= 1
            trial.apply(move)
            best = max(best, value(trial, depth - 1))
            trial.undo()
        return best

    for _ in range(worlds):
        trial = game.determinize(seat, rng)
        by_key = {move.key(): move for move in trial.legal_moves()}
        for index, move in enumerate(moves):
            mine = by_key.get(move.key())
            if mine is None:
                continue
            left[0] -= 1
            trial.apply(mine)
            if view_key(trial, seat) in seen:
                fresh[index] = False
            sight[index] = max(sight[index], sum(1 for p, pile in enumerate(trial.state.piles)
                                                 for card in pile if trial.visible(card, p, seat)))
            values[index] += value(trial, 1)
            trial.undo()
    candidates = [i for i in range(len(moves)) if fresh[i]] or list(range(len(moves)))
    return moves[max(candidates, key=lambda i: (values[i], sight[i], -i))]


def _view_rng(game: Game, seat: int) -> random.Random:
    """A generator seeded from what `seat` sees: decisions drawn from it give no hidden card away."""
    digest = hashlib.sha256(repr(view_key(game, seat)).encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def safe_move(game: Game, worlds: int = HINT_WORLDS) -> Move | None:
    """The first legal move of the seat to act that its ruleset calls safe (`safe:`: it can never
    hurt), for `play --autoplay`; None if there is none. Decided on the seat's view: the move must
    be safe in each of `worlds` copies of the game with the cards the seat cannot see dealt anew."""
    rules = game.rules
    candidates = [move for move in game.legal_moves() if rules.moves[move.template].safe is not None]
    if not candidates:
        return None
    seat = game.current_player
    rng = _view_rng(game, seat)
    trials = [game.determinize(seat, rng) for _ in range(worlds)]
    for move in candidates:
        if all(trial.is_safe(move) for trial in trials):
            return move
    return None


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
class _Node:
    """A node of the information-set tree: reached by `move` (its key), made by `mover`."""

    move: tuple[Any, ...] | None
    mover: int
    visits: int = 0
    available: int = 0
    reward: float = 0.0

    def __post_init__(self) -> None:
        self.children: dict[tuple[Any, ...], _Node] = {}


class IsmctsBot:
    """Single-observer information-set MCTS (Cowling, Powley and Whitehouse, 2012): each of
    `iterations` passes deals the unseen cards anew (consistent with the seat's view), walks the
    tree by UCB among the moves legal in that deal, adds one node, plays out at random (at most
    `depth` moves) and credits every node with the result for the seat that moved there.
    The most visited move at the root is played."""

    name = "ismcts"

    def __init__(self, seed: int | None = None, iterations: int = 300, depth: int = 200,
                 exploration: float = 0.7) -> None:
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.depth = depth
        self.exploration = exploration

    def choose(self, game: Game) -> Move:
        seat = game.current_player
        moves = game.legal_moves()
        if len(moves) == 1:
            return moves[0]
        root = _Node(None, seat)
        scale = _Scale()
        for _ in range(self.iterations):
            trial = game.determinize(seat, self.rng)
            node, path = root, [root]
            while not trial.is_over:
                # At the root, the game's moves (each as the copy offers it, None where it does not);
                # below, the copy's.
                at_root = node is root
                options = moves if at_root else trial.legal_moves()
                if not options:
                    break
                playable = offered_in(trial, moves) if at_root else options
                untried = [i for i, m in enumerate(options) if m.key() not in node.children]
                if untried:
                    index = self.rng.choice(untried)
                    move = options[index]
                    child = _Node(move.key(), trial.current_player)
                    node.children[move.key()] = child
                    path.append(child)
                    mine = playable[index]
                    if mine is not None:  # else played out from the copy as it is
                        trial.apply(mine)
                    break
                children = [node.children[m.key()] for m in options]
                for child in children:
                    child.available += 1
                chosen = max(range(len(options)), key=lambda i: self._ucb(children[i]))
                node = children[chosen]
                path.append(node)
                mine = playable[chosen]
                if mine is None:  # the copy lacks the game's move: played out from the copy as it is
                    break
                trial.apply(mine)
            _playout(trial, self.rng, self.depth)
            for visited in path[1:]:
                visited.visits += 1
                visited.reward += scale.value(trial, visited.mover)
        by_key = {m.key(): m for m in moves}
        visited_moves = [(child.visits, key) for key, child in root.children.items() if key in by_key]
        if not visited_moves:
            return self.rng.choice(moves)
        most = max(v for v, _ in visited_moves)
        return by_key[self.rng.choice([k for v, k in visited_moves if v == most])]

    def _ucb(self, node: _Node) -> float:
        if node.visits == 0:
            return math.inf
        return node.reward / node.visits + self.exploration * math.sqrt(math.log(max(node.available, 1)) / node.visits)


@dataclass(frozen=True)
class BotKind:
    factory: Callable[..., Bot]
    params: dict[str, tuple[type, Any, str]]  # name -> (type, default, help)
    help: str


BOT_KINDS: dict[str, BotKind] = {
    "random": BotKind(RandomBot, {}, "uniform among the legal moves"),
    "greedy": BotKind(GreedyBot, {}, "the best score (or heuristic) gain one move ahead"),
    "montecarlo": BotKind(MonteCarloBot, {
        "budget": (int, 200, "random playouts per decision, shared over the moves"),
        "depth": (int, 200, "most moves per playout")}, "flat Monte Carlo"),
    "ismcts": BotKind(IsmctsBot, {
        "iterations": (int, 300, "tree passes per decision"),
        "depth": (int, 200, "most moves per playout"),
        "exploration": (float, 0.7, "the UCB exploration constant")}, "information-set MCTS"),
}


def bot_params(kind: str, given: dict[str, str]) -> dict[str, Any]:
    """Check and convert a bot's parameters given as text (`iterations=500`)."""
    if kind not in BOT_KINDS:
        raise BotParameterError(f"no bot '{kind}' (bots: {', '.join(BOT_KINDS)})")
    spec = BOT_KINDS[kind].params
    values: dict[str, Any] = {}
    for name, text in given.items():
        if name not in spec:
            known = ", ".join(spec) or "none"
            raise BotParameterError(f"bot '{kind}' has no parameter '{name}' (parameters: {known})")
        kind_type = spec[name][0]
        try:
            value = kind_type(text)
        except ValueError:
            raise BotParameterError(f"{kind}: {name} must be {'a whole number' if kind_type is int else 'a number'}, "
                                    f"not {text!r}") from None
        if not value > 0:
            raise BotParameterError(f"{kind}: {name} must be above 0, not {text!r}")
        values[name] = value
    return values


def seat_seed(seed: int, seat: int) -> int:
    """The seed of the bot at `seat` (0-based) in the game dealt from `seed`: a hash of the two, so a
    bot's seed (or its moves) does not give the game's seed, hence the deal, away."""
    digest = hashlib.sha256(f"cardrules bot {seed} {seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def make_bot(kind: str, seed: int | None, **params: Any) -> Bot:
    """A bot by kind name and parameters; raises KeyError for an unknown kind."""
    bot: Bot = BOT_KINDS[kind].factory(seed, **params)
    return bot
