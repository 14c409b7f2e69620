"""Bots that choose moves, for any ruleset.

- `random`: uniform among the legal moves.
- `greedy`: the move that raises its seat's score (or the ruleset's `heuristic`) most right away.
- `montecarlo`: flat Monte Carlo: random playouts after each candidate move, the best mean result.
- `ismcts`: information-set Monte Carlo tree search, for games with hidden cards (in Python).
- `mcts`: the same search with its trials in compiled code where the native backend plays the
  ruleset (agents/mcts.py), in Python where it cannot: strong and fast enough to judge a rule by.

The searches live in agents/search.py and agents/mcts.py; this module holds the simple bots, the
hint, and the kinds of bot by name (`BOT_KINDS`, `make_bot`).

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
the searches: a playout from the copy's position without it). Such a value gives no
hidden card away, and costs no random draw, so where the copy offers every move the bots decide
as they would without the rule.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from typing import Any, Callable, Protocol

from ..python.engine import Game, Move
from .mcts import MctsBot
from .search import IsmctsBot, MonteCarloBot, offered_in


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
    ties are broken at random. It never goes back to a position it has decided in before (as its
    seat sees it: `view_hash`) while another move leads elsewhere, so it does not shuttle cards
    to and fro."""

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)
        self.game: Game | None = None  # the game it remembers positions of
        self.seen: set[int] = set()
        self.slots: tuple[int, ...] = ()

    def choose(self, game: Game) -> Move:
        player = game.current_player
        moves = game.legal_moves()
        if game is not self.game:
            self.game, self.seen, self.slots = game, set(), game.rules.number_slots()
        slots = self.slots
        self.seen.add(view_hash(game, player, slots))
        trial = game.determinize(player, self.rng)  # the cards this seat cannot see, guessed
        before = trial.evaluation(player)
        best: list[Move] = []
        best_rank: tuple[bool, int] | None = None
        for move, mine in zip(moves, offered_in(trial, moves)):
            if mine is None:  # the copy lacks it: valued as leaving the copy as it is
                rank = (False, 0)
            else:
                trial.apply(mine)
                rank = (view_hash(trial, player, slots) not in self.seen, trial.evaluation(player) - before)
                trial.undo()
            if best_rank is None or rank > best_rank:
                best, best_rank = [move], rank
            elif rank == best_rank:
                best.append(move)
        return self.rng.choice(best)


VIEW_HASH_MULTIPLIER = 0x9E3779B97F4A7C15  # (odd: every step of the hash is one to one)
_WORD = 2 ** 64 - 1


def view_hash(game: Game, seat: int, slots: tuple[int, ...]) -> int:
    """A position as `seat` sees it, hashed to 64 bits (the greedy bot's memory; compiled code
    hashes alike, native/bots.py): each pile's size and cards (a card the seat cannot see as one
    value), the numbers and truth values of the variables in `slots` (none as -2**63), the seat to
    act and the phase; 0 is taken as 1 (compiled code keeps 0 for an empty place)."""
    S = game.state
    visible = game.visible
    h = 0
    for p, pile in enumerate(S.piles):
        h = (h * VIEW_HASH_MULTIPLIER + len(pile) + 1) & _WORD
        for card in pile:
            h = (h * VIEW_HASH_MULTIPLIER + (card + 2 if visible(card, p, seat) else 1)) & _WORD
    for slot in slots:
        value = S.vars[slot]
        h = (h * VIEW_HASH_MULTIPLIER + ((-2 ** 63 if value is None else int(value)) & _WORD)) & _WORD
    h = (h * VIEW_HASH_MULTIPLIER + S.current + 1) & _WORD
    h = (h * VIEW_HASH_MULTIPLIER + S.phase + 1) & _WORD
    return h or 1


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
    values = list(S.vars)
    if game.rules.mark_slots:  # the marks on a card the seat cannot see are as unseen as the card
        unseen = (card for p, pile in enumerate(S.piles) for card in pile if not visible(card, p, seat))
        for slot in game.rules.marks_on(unseen):
            values[slot] = -1
    return piles, tuple(values), S.current, S.phase


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
        "exploration": (float, 0.7, "the UCB exploration constant"),
        "seconds": (float, 0.0, "CPU seconds per decision at most (0: no bound; a bound makes play depend "
                    "on the machine)")}, "information-set MCTS, in Python"),
}


BOT_KINDS["mcts"] = BotKind(MctsBot, {
    "playouts": (int, 200, "trials per decision: a deal of the unseen cards, a walk down the tree, a random playout"),
    "seconds": (float, 0.0, "CPU seconds per decision at most (0: no bound; a bound makes play depend on the "
                "machine)"),
    "depth": (int, 200, "most moves per playout; then the seats' evaluations (heuristic or score) judge"),
    "exploration": (float, 0.7, "the UCB exploration constant")},
    "information-set MCTS, its playouts in compiled code where the native backend plays the ruleset")


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
