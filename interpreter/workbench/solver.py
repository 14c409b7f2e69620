"""Solve one-player deals: can this deal be won, and how? (`cardrules solve`).

A depth-first search over the real deal, for any one-seat ruleset:

- Positions are keyed like `Game._position_key` (piles, faces, variables, seat, phase), except
  that variables the rules never read to decide a move, a trigger or the end of the game (a
  score; a pass counter that only some options consult) are left out: positions that differ
  only in them have the same futures. Which variables matter is found once per ruleset by
  following its compiled rules (`analyse`). A position seen before is not searched again, so
  cycles and transpositions cost little and the search never leans on the move limit.
- A legal move whose template declares it `safe:` (and whose test holds here) is played at
  once, without trying the others: the ruleset's promise, trusted (below). `use_safe=False`
  (`solve --no-safe`) ignores every `safe:` and tries all legal moves.
- Right after a turn of the stock (in a win search), only turns and the moves that do not
  commute with them are tried (model/turn_runs.py: a move that touches nothing the turns use can as
  well be played before them). A position reached by a turn is its own node (fewer moves tried
  from it), unless the same position searched with every move is known.
- The other moves are tried in a cheap, generic order: kinds of move (template, and whether
  the move uncovers the card beneath) that have raised the ruleset's evaluation (`heuristic`,
  else its score) most so far first, then those that turned cards face up.
- One `Game` is walked with apply and undo, never cloned; moves are applied unsettled
  (`Game.apply(move, settle=False)`), so a move that reaches a position seen before is taken
  back before the game lists the next legal moves.
- Depth-first searches of such puzzles have heavy tails, so the search restarts: the Luby
  sequence of position budgets, every restart after the first breaking ties at random and
  shaking the order. A restart that finishes within its budget has searched every reachable
  position. Restarts are seeded: the same deal gets the same answer unless time runs out.
- A win search keeps what it proved across restarts: a position from which every move was
  tried, and whose strongly connected component (Tarjan's algorithm: positions that reach one
  another through cycles) was closed, cannot lead to a win, and is never searched again. A
  restart cut short loses only the positions of components still open.

A ruleset that can end `won` (an end condition, `no_moves`, `repeat`, or an `end` effect) is
searched for a win: `solvable` with the moves (shortened: detours back to a position of the
path are cut), `unsolvable` when every reachable position was tried, `unknown` when the time
(or the memory bound) ran out. A ruleset that can never end `won` is searched for the best
score (the highest, or the lowest under `score_order: lower`; below, "lowered" means made
worse): the best finished game, or, while no move searched has lowered the score, the best
position reached (the score then stays until the game ends). `optimal` when the search was
exhausted, `best found` otherwise. There is no generic upper bound on a score to prune with;
where the score is one variable that only accumulates, a position reached again with no
better score so far is not searched again. The moves are those from the position searched
from: the deal's start for `solve`, wherever the game stands for `solve_game`.

What the answers rest on. `solvable` rests on nothing: its moves are replayed to a win. The
search ignores the move limit (`limit` is no win). `unsolvable` (and `optimal`) assumes:

1. every `safe:` claim is true: from any position where a move's `safe:` holds, playing the move
   never turns a winnable position into an unwinnable one (in a score search: never lowers the
   best score reachable), "position" being the search's own (its key, below). The search plays
   the first such move alone, so a false claim can hide every win: `--no-safe` checks the
   claims, and where both answers are definite they must agree;
2. every reachable position was searched: a restart finished within its budget (a search cut
   short by the time or the memory bound answers `unknown`, never `unsolvable`);
3. the position key leaves out only variables the rules never read to decide a move, a trigger
   or the end of the game (`analyse`; a read it cannot place keeps every variable), so that
   positions with one key have the same futures. End rules that look back at how a position
   was reached are not in the key either. `end.cycle` ends a game only where its moves were all
   that was offered since the cycle began, which leaves the futures alike where at most one of
   its moves is legal at a time (a stock turned round can only go round). `end.repeat`
   counts positions: the search then keeps nothing proven across restarts, but within one it
   still takes a position seen as searched;
4. `turn_runs` read the rules right: a move it finds commuting with the turns gives the same
   position played before a run of turns as after it, and no rule looks at the order (it refuses
   a ruleset where a trigger may follow a turn, an end condition names what the turns use, or
   `legal_moves()` is read). Every game then has an order in which no such move follows a turn
   directly and no run of turns comes back round, and that order is all the search tries.

Time. `timeout` bounds the search; a solution found is then shortened within its own budget
(`shorten_timeout`, by default a quarter of `timeout`), and the result reports the two times
apart. Both count `clock`: "wall" (elapsed) or "cpu" (`time.process_time()`: this process's CPU
time, the same work for every deal however loaded the machine).

The solver sees every card. Solving a deal in which the player cannot see some cards is what
solitaire analyses call playing "thoughtfully" (`--thoughtful`); without it such a deal is
refused. A one-seat ruleset whose cards all lie open is solved either way.
"""

from __future__ import annotations

import json
import math
import random
import shlex
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from rich.console import Console
from rich.text import Text

from ..python.engine import Game
from ..base.errors import CardrulesError, DealError, format_error, printable, terminal_console
from ..base.limits import DEFAULT_MAX_POSITIONS, DEFAULT_MAX_POSITIONS_NATIVE, DEFAULT_TIMEOUT
from ..model.ruleset import Ruleset
from ..python.load import load_ruleset
from ..front.source import read_bounded
from .engines import native_pays
from .solver_analysis import Analysis, analyse
from .solver_search import _OutOfBudget, _Search, new_search_game

# The search stops (answer `unknown`) past DEFAULT_MAX_POSITIONS positions kept (the native search:
# DEFAULT_MAX_POSITIONS_NATIVE, about the same memory), to bound its memory, and after
# DEFAULT_TIMEOUT seconds; all live in base/limits.py, where the command line reads them without
# importing the solver.
# A solution found is shortened within this share of the search's time budget (by default).
SHORTEN_SHARE = 0.25
# The clocks a time budget can be counted on: elapsed time, or this process's CPU time.
CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.process_time}
RESTART_JITTER = 2.0  # how far (in places) a restart may move a move in the order
RESTART_BASE = 1000  # positions: the Luby sequence's unit
Z95 = 1.959963984540054

SOLVABLE, UNSOLVABLE, UNKNOWN, OPTIMAL, BEST_FOUND = "solvable", "unsolvable", "unknown", "optimal", "best found"
# python: the readable reference search; native: the same search compiled (native/solver.py).
SOLVER_ENGINES = ("auto", "python", "native")
# Deals from which compiling the search first pays for itself, where `auto` chooses (a deal solved in
# Python costs seconds; the first native compile of a ruleset some 10-30 s).
NATIVE_SOLVES_FROM = 10


class SolveError(CardrulesError):
    """A ruleset or deal the solver will not take: several seats, hidden cards without --thoughtful."""


# ---------------------------------------------------------------------------------------------
# The search


@dataclass
class SolveResult:
    """The answer for one deal. `moves` replay from the position searched from (the deal's start
    for `solve`), as move texts."""

    answer: str                 # solvable, unsolvable, unknown; or for a score: optimal, best found, unknown
    moves: list[str] = field(default_factory=list)
    nodes: int = 0              # positions searched
    seconds: float = 0.0        # in all: the search and the shortening
    score: int | None = None    # the best final score found (score search only)
    goal: str = "win"           # "win" or "score"
    reason: str = ""            # why the answer is unknown (time, memory)
    search_seconds: float = 0.0   # finding the answer
    shorten_seconds: float = 0.0  # cutting detours out of the moves found
    clock: str = "wall"         # what the seconds count: "wall" (elapsed) or "cpu" (this process's CPU time)
    safe_moves: bool = True     # were the ruleset's `safe:` claims trusted?
    engine: str = "python"      # which search answered: python, or native (compiled)

    def as_dict(self) -> dict[str, Any]:
        return {"answer": self.answer, "goal": self.goal, "moves": self.moves, "move_count": len(self.moves),
                "score": self.score, "nodes": self.nodes, "seconds": round(self.seconds, 3),
                "search_seconds": round(self.search_seconds, 3), "shorten_seconds": round(self.shorten_seconds, 3),
                "clock": self.clock, "safe_moves": self.safe_moves, "engine": self.engine,
                "reason": self.reason or None}


def solve_game(game: Game, timeout: float | None = DEFAULT_TIMEOUT,
               max_positions: int | None = None, *, use_safe: bool = True, clock: str = "wall",
               shorten_timeout: float | None = None, engine: str = "python") -> SolveResult:
    """Search a game from where it stands, seeing every card. The game is left where it started,
    and the moves of the answer are those to play from there (not the game's earlier moves).

    Start it with a huge `max_moves` (see `new_search_game`): a game that ends `limit` is no win.
    The search restarts: short depth-first searches (the Luby sequence of position budgets),
    each after the first with the order of moves shaken, until one wins or one searches every
    reachable position without being cut short (the deal is then unsolvable, or the best score
    found is optimal).

    `use_safe=False` ignores the ruleset's `safe:` claims (every legal move is tried: slower, but
    it checks them). `max_positions` bounds the positions kept (None: the engine's default, in
    base/limits.py; past it the answer is `unknown`). `timeout` bounds the search in seconds of `clock` ("wall": elapsed time;
    "cpu": this process's CPU time, which a loaded machine does not eat into). A solution found
    is then shortened within `shorten_timeout` seconds of the same clock (None: a quarter of
    `timeout`; math.inf: no limit but its rounds), or at least `timeout` while it is longer than
    the ruleset's move limit. The result reports the search's time and the shortening's apart.

    `engine="native"` runs the search in compiled code (native/solver.py; a win search of a
    ruleset the native backend covers, else `Unsupported` says why): the same search, answers
    resting on the same things, many times the positions a second. Compiling it (once per
    ruleset, then cached) is not counted on the clock.
    """
    tick = _clock(clock)
    check_solvable_ruleset(game.rules)
    if engine not in SOLVER_ENGINES:
        raise SolveError(f"engine {engine!r}: choose {' or '.join(SOLVER_ENGINES)}")
    if engine == "auto":  # (`solve_command` chooses before, saying why)
        engine = choose_solver_engine(game.rules, engine, lambda line: None)
    if max_positions is None:
        max_positions = DEFAULT_MAX_POSITIONS_NATIVE if engine == "native" else DEFAULT_MAX_POSITIONS
    analysis = analyse(game.rules)
    native = None
    if engine == "native" and not game.is_over:
        from ..native import Unsupported
        from ..native.solver import NativeSearch

        slots = analysis.relevant if analysis.relevant is not None else range(game.rules.var_count)
        try:
            native = NativeSearch(game, slots, max_positions, use_safe)
        except Unsupported as exc:
            raise SolveError(f"the native solver cannot search this game: {exc} (engine='python' can)") from None
    start = tick()
    deadline = start + timeout if timeout is not None else math.inf
    search = _Search(game, analysis, deadline, max_positions, use_safe, tick)
    goal = "win" if analysis.can_win else "score"
    depth = len(game.history)
    reason = ""
    exhausted = False
    if native is not None:
        actions, exhausted, reason = native.run(deadline, tick, _restart_limits())
        search.nodes = native.nodes
        if actions is not None:
            search.solution = [str(m) for m in native.moves(actions)]
    else:
        try:
            for attempt, limit in enumerate(_restart_limits()):
                search.jitter = 0.0 if attempt == 0 else RESTART_JITTER if attempt % 2 else 1000.0
                search.rng = random.Random(attempt)
                if search.run(limit) or search.solution is not None:
                    break
            exhausted = search.solution is None
        except _OutOfBudget as exc:
            reason = str(exc)
        finally:
            while len(game.history) > depth:
                game.undo()
    searched = tick()
    best = search.best()
    found = search.solution if search.solution is not None else best[1] if best is not None else []
    if len(found) > 1:  # cut detours: within their own budget, and more if the moves are past the move limit
        budget = shorten_budget(timeout, shorten_timeout)
        if depth + len(found) > game.rules.max_moves:
            budget = max(budget, timeout if timeout is not None else math.inf)
        if budget > 0:
            found = search.shorten(found, searched + budget)
    if best is not None and found and search.monotone:  # the score cannot fall: stop where it is reached
        found = _first_reaching(game, found, best[0])
    end = tick()
    if goal == "win":
        answer = SOLVABLE if search.solution is not None else UNSOLVABLE if exhausted else UNKNOWN
        score = None
    else:
        answer = (UNSOLVABLE if exhausted else UNKNOWN) if best is None else OPTIMAL if exhausted else BEST_FOUND
        score = game.rules.score_sign * best[0] if best is not None else None
    if answer in (SOLVABLE, OPTIMAL, UNSOLVABLE):
        reason = ""
    if answer in (UNSOLVABLE, UNKNOWN):
        found = []
    return SolveResult(answer, found, search.nodes, end - start, score, goal, reason,
                       search_seconds=searched - start, shorten_seconds=end - searched, clock=clock,
                       safe_moves=use_safe, engine=engine)


def choose_solver_engine(rules: Ruleset, engine: str, note: Callable[[str], None], deals: int = 1) -> str:
    """The engine a search will use: `native` where asked for and able to search the ruleset
    (compiled here, so that worker processes find it in the cache), else `python`, with one line
    to `note` saying why. `auto` takes native where it can search the ruleset and its compiled
    code is at hand, or `deals` is enough to pay for compiling it (`NATIVE_SOLVES_FROM`); else
    Python, saying why. (Not the default: the two searches may find different solutions, and a
    command should not answer differently as the cache fills.)"""
    if engine not in SOLVER_ENGINES:
        raise SolveError(f"engine {engine!r}: choose {' or '.join(SOLVER_ENGINES)}")
    if engine == "python":
        return engine
    from ..native import Unsupported, native_available, native_backend

    asked = engine == "native"
    if not asked and not native_available():
        note("engine: python (the native solver needs Numba: pip install 'cardrules[native]')")
        return "python"
    try:
        if rules.repeat is not None:
            from ..native.solver import REPEAT_UNSEARCHED

            raise Unsupported(REPEAT_UNSEARCHED)
        backend = native_backend(rules)
        if not analyse(rules).can_win or "won" not in backend.results:
            raise Unsupported("a search for the best score: the ruleset never ends won")
    except Unsupported as exc:
        note(f"native solver: not for this ruleset ({exc}); searching with Python" if asked else
             f"engine: python (the native solver does not search this ruleset: {exc})")
        return "python"
    return "native" if native_pays(backend, asked, deals, NATIVE_SOLVES_FROM, "deals", note) else "python"


def shorten_budget(timeout: float | None, shorten_timeout: float | None) -> float:
    """The seconds a solution's shortening may take: `shorten_timeout`, or by default a quarter of
    the search's `timeout` (no limit but the rounds' when the search has none)."""
    if shorten_timeout is not None:
        return shorten_timeout
    return timeout * SHORTEN_SHARE if timeout is not None else math.inf


def _clock(name: str) -> Callable[[], float]:
    try:
        return CLOCKS[name]
    except KeyError:
        raise SolveError(f"unknown clock {name!r}: use " + " or ".join(CLOCKS)) from None


def _first_reaching(game: Game, moves: list[str], score: int) -> list[str]:
    """The moves up to the first position (not a finished game) where the score so far, as the
    search compares scores, reaches `score`."""
    rules = game.rules
    depth = len(game.history)
    try:
        for i, text in enumerate(moves):
            if (rules.score is not None and not game.is_over
                    and rules.score_sign * rules.score(game.state, {"player": 0}) >= score):
                return moves[:i]
            game.apply(game.parse_move(text))
    finally:
        while len(game.history) > depth:
            game.undo()
    return moves


def _restart_limits(base: int = RESTART_BASE) -> Iterable[int]:
    """Positions allowed to each restart: base times the Luby sequence 1 1 2 1 1 2 4 1 1 2 ..."""
    i = 1
    while True:
        k = 1
        while (1 << k) - 1 < i:
            k += 1
        j = i
        while j != (1 << k) - 1:  # luby(i) = luby(i - 2^(k-1) + 1) until i = 2^k - 1
            j -= (1 << (k - 1)) - 1
            k = 1
            while (1 << k) - 1 < j:
                k += 1
        yield base * (1 << (k - 1))
        i += 1


def hidden_cards(game: Game) -> int:
    """How many cards the player cannot see."""
    return sum(1 for pile, cards in enumerate(game.state.piles) for card in cards
               if not game.visible(card, pile, 0))


def check_solvable_ruleset(rules: Ruleset) -> None:
    if rules.min_players > 1 or rules.simultaneous:
        seats = f"{rules.min_players}-{rules.max_players}" if rules.min_players != rules.max_players \
            else str(rules.min_players)
        raise SolveError(f"{rules.name} is a game for {seats} players; the solver answers only one-player "
                         f"games (for several seats, pit bots against each other with --seat)")
    if rules.shuffles_in_play is not None:
        raise SolveError(f"{rules.name} shuffles cards during play (or places one at random): what a shuffle "
                         f"brings is chance, not a "
                         f"choice, so no line of play is sure to win and the solver answers only games dealt "
                         f"once, at the start (for a game with chance, measure it with bots: cardrules simulate)",
                         rules.shuffles_in_play)


def check_visibility(game: Game, thoughtful: bool) -> None:
    hidden = hidden_cards(game)
    if hidden and not thoughtful:
        raise SolveError(
            f"the player cannot see {hidden} of the cards in this deal. The solver looks at every card, so "
            f"its answer is for 'thoughtful' play (all cards known), the usual way solitaires are analysed: "
            f"add --thoughtful to solve it so. A strategy that cannot see the cards is a bot: try "
            f"`cardrules simulate {game.rules.name} --seat 1=ismcts`.")


def replay(rules: Ruleset, moves: Sequence[str], seed: int | None = None,
           deal: list[str] | str | None = None) -> Game:
    """Play move texts from the deal's start, as `cardrules play` would (with the ruleset's move
    limit); moves left after the game has ended are not played."""
    game = rules.new_game(seed=seed, deal=deal, players=1)
    for text in moves:
        if game.is_over:
            break
        game.apply(game.parse_move(text))
    return game


def solve(rules: Ruleset, seed: int | None = None, deal: list[str] | str | None = None,
          thoughtful: bool = False, timeout: float | None = DEFAULT_TIMEOUT,
          max_positions: int | None = None, *, use_safe: bool = True, clock: str = "wall",
          shorten_timeout: float | None = None, engine: str = "python") -> SolveResult:
    """Solve one deal of a one-player ruleset (refusing hidden cards unless `thoughtful`). The
    keywords are `solve_game`'s: `use_safe=False` ignores `safe:`; `clock` is "wall" or "cpu";
    `engine` "python" or "native"."""
    check_solvable_ruleset(rules)
    _clock(clock)
    game = new_search_game(rules, seed, deal)
    check_visibility(game, thoughtful)
    return solve_game(game, timeout, max_positions, use_safe=use_safe, clock=clock,
                      shorten_timeout=shorten_timeout, engine=engine)


# ---------------------------------------------------------------------------------------------
# Many deals


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if n == 0:
        return float("nan"), float("nan")
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(max(0.0, p * (1 - p)) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: Sequence[float], q: float) -> float:
    """The q-quantile (0..1) with linear interpolation."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    position = q * (len(ordered) - 1)
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


_WORKER: dict[str, Any] = {}


def _worker_init(ruleset: str, options: dict[str, Any], search_path: tuple[str, ...] = ()) -> None:
    _WORKER["rules"] = load_ruleset(ruleset, options, search_path)


def _worker_solve(job: tuple[int, bool, float | None, int | None, dict[str, Any]]) -> dict[str, Any]:
    """One deal of a sample: its answer without the moves, and whether a solution replays to a win."""
    seed, thoughtful, timeout, max_positions, keywords = job
    rules = _WORKER["rules"]
    result = solve(rules, seed=seed, thoughtful=thoughtful, timeout=timeout, max_positions=max_positions, **keywords)
    data = {"seed": seed, **result.as_dict()}
    del data["moves"]
    if result.answer == SOLVABLE:
        data["replays"] = replay(rules, result.moves, seed=seed).outcome == "won"
    return data


def solve_sample(ruleset: str, options: dict[str, Any], count: int, thoughtful: bool = False,
                 timeout: float | None = DEFAULT_TIMEOUT, jobs: int = 1, first_seed: int = 1,
                 max_positions: int | None = None,
                 progress: Callable[[dict[str, Any]], None] | None = None,
                 search_path: tuple[str, ...] = (), *, use_safe: bool = True, clock: str = "wall",
                 shorten_timeout: float | None = None, engine: str = "python") -> dict[str, Any]:
    """Solve seeds first_seed..first_seed+count-1 (in `jobs` processes, each compiling the ruleset
    once) and sum up: the solvable share with its 95% Wilson interval, unknowns, time per deal.
    The keywords are `solve_game`'s (a "cpu" clock counts each worker's own CPU time)."""
    rules = load_ruleset(ruleset, options, search_path)
    check_solvable_ruleset(rules)
    _clock(clock)
    check_visibility(new_search_game(rules, seed=first_seed), thoughtful)
    seeds = range(first_seed, first_seed + count)
    keywords = {"use_safe": use_safe, "clock": clock, "shorten_timeout": shorten_timeout, "engine": engine}
    work = [(seed, thoughtful, timeout, max_positions, keywords) for seed in seeds]
    results: list[dict[str, Any]] = []
    started = time.perf_counter()
    if jobs <= 1:
        _WORKER["rules"] = rules
        for job in work:
            results.append(_worker_solve(job))
            if progress:
                progress(results[-1])
    else:
        with ProcessPoolExecutor(max_workers=jobs, initializer=_worker_init,
                                 initargs=(ruleset, dict(rules.option_values), search_path)) as pool:
            for result in pool.map(_worker_solve, work):
                results.append(result)
                if progress:
                    progress(result)
    wall = time.perf_counter() - started
    summary = summarise(rules, results, timeout, jobs, wall)
    budget = shorten_budget(timeout, shorten_timeout)
    summary.update({"clock": clock, "safe_moves": use_safe, "engine": engine, "shorten_timeout": None if math.isinf(budget) else budget,
                    "results": summary.pop("results")})
    return summary


def _median(values: Iterable[float]) -> float | None:
    listed = list(values)
    return round(statistics.median(listed), 4) if listed else None


def summarise(rules: Ruleset, results: list[dict[str, Any]], timeout: float | None, jobs: int,
              wall: float) -> dict[str, Any]:
    n = len(results)
    answers = {a: sum(1 for r in results if r["answer"] == a)
               for a in (SOLVABLE, UNSOLVABLE, UNKNOWN, OPTIMAL, BEST_FOUND)}
    times = [r["seconds"] for r in results]
    summary: dict[str, Any] = {
        "ruleset": rules.name, "options": rules.option_values, "deals": n,
        "seeds": [results[0]["seed"], results[-1]["seed"]] if results else [],
        "timeout": timeout, "jobs": jobs, "wall_seconds": round(wall, 3),
        "answers": {k: v for k, v in answers.items() if v},
        "unknown": answers[UNKNOWN],
        "median_seconds": round(statistics.median(times), 4) if times else None,
        "p90_seconds": round(percentile(times, 0.9), 4) if times else None,
        # the two parts of a deal's time: the search, and the shortening of a solution found
        "median_search_seconds": _median(r.get("search_seconds", r["seconds"]) for r in results),
        "median_shorten_seconds": _median(r.get("shorten_seconds", 0.0) for r in results),
        "goal": results[0]["goal"] if results else ("win" if analyse(rules).can_win else "score"),
    }
    if summary["goal"] == "win":
        solvable = answers[SOLVABLE]
        low, high = wilson(solvable, n)
        summary.update({"solvable": solvable, "not_replaying": sum(1 for r in results if r.get("replays") is False), "share": solvable / n if n else None, "interval": [low, high],
                        "share_if_unknown_solvable": (solvable + answers[UNKNOWN]) / n if n else None})
    else:
        scores = [r["score"] for r in results if r["score"] is not None]
        summary.update({"optimal": answers[OPTIMAL],
                        "mean_score": statistics.mean(scores) if scores else None,
                        "median_score": statistics.median(scores) if scores else None,
                        "min_score": min(scores) if scores else None, "max_score": max(scores) if scores else None})
    summary["results"] = results
    return summary


# ---------------------------------------------------------------------------------------------
# The command


def _option_pairs(items: Iterable[str]) -> dict[str, str]:
    pairs = {}
    for item in items:
        if "=" not in item:
            raise SolveError(f"expected --option NAME=VALUE, got {item!r}")
        name, value = item.split("=", 1)
        pairs[name.strip()] = value.strip()
    return pairs


def _option_text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _replay_hint(rules: Ruleset, ruleset: str, seed: int | None, deal: Path | None) -> str:
    where = f"--seed {seed}" if seed is not None else f"--deal {shlex.quote(str(deal))}"
    options = "".join(f" -o {k}={_option_text(v)}" for k, v in rules.option_values.items()
                      if v != rules.options[k].default)
    return f"cardrules play {shlex.quote(ruleset)} {where}{options}"


def _percent(x: float) -> str:
    return f"{100 * x:.1f}%"


def solve_command(ruleset: str, seed: int | None, deal: Path | None, options: Sequence[str], thoughtful: bool,
                  timeout: float | None, sample: int | None, jobs: int, as_json: bool, console: Console,
                  err_console: Console | None = None, max_positions: int | None = None,
                  search_path: Sequence[str] = (), use_safe: bool = True, clock: str = "wall",
                  shorten_timeout: float | None = None, engine: str = "python") -> int:
    """`cardrules solve`: solve one deal (--seed or --deal) or a sample of seeds. Returns the exit
    code: 0 when the search answered (whatever the answer), 1 for an error or a refusal. A
    timeout of None or infinity sets no time limit (the bound on positions kept still holds);
    a shortening timeout of None is a quarter of the timeout, infinity no limit. `use_safe`
    False ignores the ruleset's `safe:` claims; `clock` ("wall" or "cpu") is what the timeouts
    count; `engine` "native" searches in compiled code where it can (else one line says why), "auto"
    where it can and pays (`choose_solver_engine`)."""
    errors = err_console if err_console is not None else terminal_console(stderr=True, highlight=False)
    try:
        if sample is not None:
            if seed is not None or deal is not None:
                raise SolveError("--sample solves seeds 1..N: give it without --seed or --deal")
            if sample < 1:
                raise SolveError("--sample needs a number of deals, 1 or more")
        elif (seed is None) == (deal is None):
            raise SolveError("give --seed N or --deal FILE (or --sample N)")
        if timeout is not None and not timeout >= 0:
            raise SolveError("--timeout must be a number of seconds, 0 or more (inf: no limit)")
        if timeout is not None and math.isinf(timeout):
            timeout = None
        if shorten_timeout is not None and not shorten_timeout >= 0:
            raise SolveError("--shorten-timeout must be a number of seconds, 0 or more (inf: no limit)")
        if clock not in CLOCKS:
            raise SolveError(f"--clock must be {' or '.join(CLOCKS)}, not {clock!r}")
        if max_positions is not None and max_positions < 1:
            raise SolveError("--max-positions needs a number of positions, 1 or more")
        chosen = _option_pairs(options)
        folders = tuple(str(Path(p).expanduser().resolve()) for p in search_path)
        rules = load_ruleset(ruleset, chosen, folders)
        check_solvable_ruleset(rules)
        engine = choose_solver_engine(rules, engine, lambda line: errors.print(line, markup=False, highlight=False),
                                      sample if sample is not None else 1)
        if sample is not None:
            return _sample_command(ruleset, rules, sample, thoughtful, timeout, max(1, jobs), as_json, console,
                                   max_positions, folders, use_safe=use_safe, clock=clock,
                                   shorten_timeout=shorten_timeout, engine=engine)
        deal_text: list[str] | None = None
        if deal is not None:
            text = read_bounded(deal, str(deal), DealError)
            order = rules.deck.parse_order(text, str(deal), cards=rules.deck_cards.get(1))
            deal_text = [rules.deck.codes[c] for c in order]
        result = solve(rules, seed=seed, deal=deal_text, thoughtful=thoughtful, timeout=timeout,
                       max_positions=max_positions, use_safe=use_safe, clock=clock, shorten_timeout=shorten_timeout,
                       engine=engine)
    except CardrulesError as error:
        errors.print(Text(printable(format_error(error))), highlight=False)
        return 1
    if result.answer == SOLVABLE:  # the moves must win as `cardrules play` plays them
        check = replay(rules, result.moves, seed=seed, deal=deal_text)
        if check.outcome != "won":
            result.reason = (f"the solution does not win when replayed ({check.outcome}: {check.reason}); "
                             f"it is {len(result.moves)} moves long")
    if as_json:
        budget = shorten_budget(timeout, shorten_timeout)
        data = {"ruleset": rules.name, "seed": seed, "deal": deal_text if seed is None else None,
                "options": rules.option_values, "thoughtful": thoughtful, "timeout": timeout,
                "shorten_timeout": None if math.isinf(budget) else budget, **result.as_dict()}
        console.print(json.dumps(data, indent=2), markup=False, highlight=False, soft_wrap=True)
        return 0
    unit = " CPU" if clock == "cpu" else ""
    stats = f"{result.nodes:,} positions, search {result.search_seconds:.2f} s{unit}"
    if result.moves:
        stats += f", shortening {result.shorten_seconds:.2f} s{unit}"
    if not use_safe:
        stats += ", safe: ignored"
    # Text, not markup: a reason may quote the ruleset (its end reasons), printed as it is.
    if result.goal == "win":
        if result.answer == SOLVABLE:
            console.print(Text.assemble(("solvable", "bold green"), f" in {len(result.moves)} moves ({stats})"))
        elif result.answer == UNSOLVABLE:
            console.print(Text.assemble(("unsolvable", "bold red"), f": no reachable position wins ({stats}, "
                                        "all searched)"))
            if use_safe and any(t.safe is not None for t in rules.moves):
                console.print("this trusts the ruleset's safe: claims; --no-safe checks them", style="dim",
                              markup=False, highlight=False)
        else:
            console.print(Text.assemble(("unknown", "bold yellow"), f": {result.reason} before an answer ({stats})"))
    else:
        if result.score is None:
            what = "no game end is reachable" if result.answer == UNSOLVABLE else f"{result.reason}, no end reached"
            console.print(Text.assemble((result.answer, "bold yellow"), f": {what} ({stats})"))
        else:
            how = "optimal: every reachable position searched" if result.answer == OPTIMAL \
                else f"best found: {result.reason}"
            console.print(Text.assemble("best score ", (str(result.score), "bold"),
                                        f" in {len(result.moves)} moves ({how}; {stats})"))
    if result.moves:
        console.print(" ".join(result.moves), markup=False, highlight=False, soft_wrap=True)
        console.print("replay: printf '%s\\n' " + " ".join(shlex.quote(m) for m in result.moves)
                      + " | " + _replay_hint(rules, ruleset, seed, deal),
                      markup=False, highlight=False, soft_wrap=True, style="dim")
    if result.reason and result.answer == SOLVABLE:
        console.print(Text(f"warning: {result.reason}"), highlight=False)
    return 0


def _sample_command(ruleset: str, rules: Ruleset, count: int, thoughtful: bool, timeout: float | None,
                    jobs: int, as_json: bool, console: Console, max_positions: int | None = None,
                    search_path: tuple[str, ...] = (), *, use_safe: bool = True, clock: str = "wall",
                    shorten_timeout: float | None = None, engine: str = "python") -> int:
    done: list[dict[str, Any]] = []
    keywords: dict[str, Any] = {"use_safe": use_safe, "clock": clock, "shorten_timeout": shorten_timeout,
                                "engine": engine}

    def progress(result: dict[str, Any]) -> None:
        done.append(result)
        if status is not None:
            solved = sum(1 for r in done if r["answer"] in (SOLVABLE, OPTIMAL))
            status.update(f"solving: {len(done)}/{count} deals, {solved} solved")

    status = console.status(f"solving: 0/{count} deals") if console.is_terminal and not as_json else None
    if status is not None:
        with status:
            summary = solve_sample(ruleset, dict(rules.option_values), count, thoughtful, timeout, jobs,
                                   max_positions=max_positions, progress=progress, search_path=search_path,
                                   **keywords)
    else:
        summary = solve_sample(ruleset, dict(rules.option_values), count, thoughtful, timeout, jobs,
                               max_positions=max_positions, search_path=search_path, **keywords)
    if as_json:
        console.print(json.dumps(summary, indent=2), markup=False, highlight=False, soft_wrap=True)
        return 0
    n = summary["deals"]
    head = [rules.title, f"seeds 1-{n}"] + [f"{k}={_option_text(v)}" for k, v in rules.option_values.items()]
    unit = " CPU" if clock == "cpu" else ""
    head.append(f"timeout {timeout:g} s{unit}" if timeout is not None else "no timeout")
    head.append(f"{jobs} job{'s' if jobs > 1 else ''}" + (", thoughtful" if thoughtful else "")
                + ("" if use_safe else ", safe: ignored"))
    console.print(Text("  ".join(head)), highlight=False)
    if summary["goal"] == "win":
        low, high = summary["interval"]
        answers = summary["answers"]
        console.print(f"solvable {summary['solvable']}/{n} = {_percent(summary['share'])}  "
                      f"[95% CI {_percent(low)} - {_percent(high)}]", markup=False, highlight=False)
        console.print(f"unsolvable {answers.get(UNSOLVABLE, 0)}, unknown {summary['unknown']}"
                      + (f" (if every unknown were solvable: {_percent(summary['share_if_unknown_solvable'])})"
                         if summary["unknown"] else ""), markup=False, highlight=False)
        if summary["not_replaying"]:
            console.print(f"warning: {summary['not_replaying']} solutions do not win when replayed (past the "
                          f"move limit?)", markup=False, highlight=False)
    else:
        console.print(f"best score: mean {summary['mean_score']:.1f}  median {summary['median_score']:g}  "
                      f"min {summary['min_score']}  max {summary['max_score']}  "
                      f"(optimal {summary['optimal']}/{n}, unknown {summary['unknown']})"
                      if summary["mean_score"] is not None else f"no deal reached an end (unknown {summary['unknown']})",
                      markup=False, highlight=False)
    console.print(f"{'CPU time' if clock == 'cpu' else 'time'} per deal: median {summary['median_seconds']:.2f} s (search "
                  f"{summary['median_search_seconds']:.2f} s, shortening {summary['median_shorten_seconds']:.2f} s), "
                  f"90th percentile {summary['p90_seconds']:.2f} s; wall {summary['wall_seconds']:.1f} s",
                  markup=False, highlight=False)
    return 0


__all__ = ["Analysis", "SolveError", "SolveResult", "analyse", "check_solvable_ruleset", "check_visibility",
           "choose_solver_engine",
           "hidden_cards", "new_search_game", "percentile", "replay", "shorten_budget", "solve", "solve_command",
           "solve_game", "solve_sample", "summarise", "wilson"]
