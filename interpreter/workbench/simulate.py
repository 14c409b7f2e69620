"""The designer's workbench: play many all-bot games of a ruleset and summarize them.

`cardrules simulate RULESET -n GAMES` plays GAMES games between bots (seats not given are
`random`) and shows how they went: each seat's share of the wins with a 95% Wilson interval,
its scores, how long games last, how many moves a seat has to choose from, how games end, and
for games of several seats how often the lead changes hands and how often the winner came from
behind (was not among the leaders at the middle move of the game). Leaders are the seats with the
best evaluation (heuristic or score), the lowest under the ruleset's `score_order: lower`.

Game k (0-based) is dealt from seed `seed + k`, and its bots are seeded as `cardrules play`
seeds them (`bots.seat_seed(game seed, seat)`; the clock of a game where every seat plays at once
is seeded with the game seed), so any game of a run can be replayed alone with
`cardrules play RULESET --seed S --seat ...`. Values kept between games (`persist`) are not
read nor saved: every game starts from the ruleset's initial values.

Games are played in batches: in this process (`jobs` 1), in a pool of processes that each
compile the ruleset once, or as Ray tasks (`backend="ray"`, the optional extra
`cardrules[ray]`) on a local Ray started for the run or on an existing cluster. Each game
depends only on its own seeds and the records are sorted by game index before any statistic
is taken, so the summary is the same whatever the number of jobs or the backend.
"""

from __future__ import annotations

import csv
import io
import json
import logging
import math
import multiprocessing
import os
import statistics
import textwrap
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from rich.console import Console
from rich.progress import (BarColumn, MofNCompleteColumn, Progress, ProgressColumn, Task, TextColumn,
                           TimeElapsedColumn, TimeRemainingColumn)
from rich.table import Table
from rich.text import Text

from ..agents.bots import Bot, make_bot, seat_seed
from ..python.engine import Game, Move
from ..base.errors import CardrulesError, SetupError, format_error, printable, shown_title, terminal_console
from ..agents.seats import SeatError, SeatSpec, check_seats, parse_seat
from ..model.ruleset import Ruleset, find_ruleset, load_ruleset
from ..front.source import is_file
from ..agents.scheduler import DEFAULT_JITTER, Scheduler

BACKENDS = ("local", "ray")
DEFAULT_SEED = 1
Z95 = 1.959963984540054  # the standard normal quantile of 0.975
PLAIN_PROGRESS_SECONDS = 10.0  # where standard error is no terminal: a progress line this often
# Worker processes start fresh (not forked): the same on every platform, and safe after a
# caller has started threads (a progress display, a Ray client).
MP_START_METHOD = "spawn"


class SimulateError(CardrulesError):
    """A bad argument to a simulation: a game count, seat, option, backend or number of jobs."""


class MissingExtraError(CardrulesError):
    """A feature that needs an optional extra (`cardrules[ray]`, `cardrules[plots]`) not installed."""


# -- what to play --------------------------------------------------------------------------

@dataclass(frozen=True)
class Plan:
    """Everything a worker needs to play any game of a run: sent to worker processes and Ray tasks."""

    ruleset: str                               # a file path (absolute) or a bundled ruleset's name
    options: tuple[tuple[str, str], ...]       # as given: NAME, VALUE text
    players: int
    seats: tuple[SeatSpec, ...]                # one per seat, all bots
    seed: int                                  # game k is dealt from seed + k
    games: int
    name: str = ""
    title: str = ""
    option_values: dict[str, Any] = field(default_factory=dict)
    simultaneous: bool = False
    stamp: str = ""                            # the ruleset file's version: a worker's cached copy must match
    search_path: tuple[str, ...] = ()          # more folders the ruleset may read (`--path`)
    engine: str = "python"                     # or "native": the compiled backend plays (random and greedy seats)
    score_order: str = "higher"                # which scores are better (the ruleset's `score_order`)
    teams: tuple[tuple[str, tuple[int, ...]], ...] = ()  # each team's name and seats (`teams`)

    def game_seed(self, index: int) -> int:
        return self.seed + index


@dataclass(frozen=True)
class GameRecord:
    """How one game went. Seats are 0-based here (1-based in the outputs)."""

    index: int
    seed: int
    players: int
    outcome: str
    reason: str
    winners: tuple[int, ...] | None   # seats that won a game of several seats; None for one seat
    scores: tuple[Any, ...]
    moves: int
    turns: int                        # maximal runs of moves by one seat (every move where all play at once)
    decisions: int                    # times a bot chose a move
    options: int                      # legal moves summed over the decisions
    choices: int                      # decisions with more than one legal move
    lead_changes: int | None          # None for one seat
    comeback: bool | None             # the winners were not among the leaders at the middle move
    refused: int = 0                  # moves that landed too late (every seat plays at once)

    @property
    def branching(self) -> float:
        return self.options / self.decisions if self.decisions else 0.0


def _pairs(items: Iterable[str], what: str) -> list[tuple[str, str]]:
    result = []
    for item in items:
        if "=" not in item:
            raise SimulateError(f"expected {what}=VALUE, got {item!r}")
        key, value = item.split("=", 1)
        result.append((key.strip(), value.strip()))
    return result


def _portable_name(ruleset: str) -> str:
    """The ruleset as a worker elsewhere can find it: an absolute path, or a bundled name."""
    path = Path(ruleset)
    return str(path.resolve()) if is_file(path) else ruleset


def _stamp(ruleset: str) -> str:
    """The version of a ruleset file (its modification time and size), so that a worker that
    outlives a run (Ray's) does not play an edited file from its cache."""
    try:
        stat = find_ruleset(ruleset).stat()
    except (CardrulesError, OSError):
        return ""
    return f"{stat.st_mtime_ns}-{stat.st_size}"


def prepare(ruleset: str, games: int, players: int | None = None, seats: Iterable[str] = (),
            options: Iterable[str] = (), seed: int = DEFAULT_SEED, search_path: Iterable[str] = (),
            engine: str = "python", note: Callable[[str], None] = lambda line: None,
            default_seat: str = "random") -> Plan:
    """Check a run's arguments and load the ruleset once: `seats` as `SEAT=KIND[:NAME=VALUE,...]`,
    `options` as `NAME=VALUE`, the seats not given `default_seat`. Raises `SimulateError` for a bad
    argument, or the ruleset's own error. `engine` "native" asks for the compiled backend (see
    `choose_engine`)."""
    if games < 1:
        raise SimulateError(f"the number of games must be at least 1, not {games}")
    option_pairs = tuple(_pairs(options, "--option NAME"))
    seat_pairs = _pairs(seats, "--seat SEAT")
    folders = tuple(str(Path(p).expanduser().resolve()) for p in search_path)
    rules = load_ruleset(ruleset, dict(option_pairs), folders)
    try:
        count = rules.new_game(seed=seed, players=players).players  # checks the number of players
    except SetupError as exc:
        raise SimulateError(exc.message) from None
    specs: dict[int, SeatSpec] = {}
    try:
        for key, text in seat_pairs:
            index, spec = parse_seat(key, text, count)
            if index in specs:
                raise SeatError(f"seat {index + 1} is given twice")
            if not spec.is_bot:
                raise SeatError(f"seat {index + 1}: a simulation plays bots only, not {spec.kind!r}")
            specs[index] = spec
        for s in range(count):
            specs.setdefault(s, SeatSpec(default_seat))
        check_seats(rules, specs, count)
    except SeatError as exc:
        raise SimulateError(str(exc)) from None
    chosen = choose_engine(rules, engine, [specs[s] for s in range(count)], note)
    plan = Plan(_portable_name(ruleset), option_pairs, count, tuple(specs[s] for s in range(count)), seed, games,
                rules.name, rules.title, dict(rules.option_values), rules.simultaneous, _stamp(ruleset), folders,
                chosen, "lower" if rules.score_sign < 0 else "higher", tuple(rules.teams(count)))
    _COMPILED[_cache_key(plan)] = rules  # games played in this process use this copy
    return plan


# -- playing one game ----------------------------------------------------------------------

class _Counted:
    """A bot whose decisions are counted: how many moves it had to choose from each time."""

    def __init__(self, bot: Bot, tally: list[int]) -> None:
        self.bot = bot
        self.name = bot.name
        self.tally = tally  # decisions, legal moves summed, decisions with a real choice

    def choose(self, game: Game) -> Move:
        legal = len(game.legal_moves())
        tally = self.tally
        tally[0] += 1
        tally[1] += legal
        if legal > 1:
            tally[2] += 1
        return self.bot.choose(game)


def _leaders(game: Game) -> tuple[int, ...]:
    values = [game.evaluation(p) for p in range(game.players)]
    best = max(values)
    return tuple(p for p, v in enumerate(values) if v == best)


def play_game(rules: Ruleset, plan: Plan, index: int) -> GameRecord:
    """Play game `index` of the plan to its end and record it. An error of the ruleset met on the
    way says which game it stopped (its seed, to play it again with `cardrules play`)."""
    try:
        if plan.engine == "native":
            return _play_native(rules, plan, index)
        return _play_python(rules, plan, index)
    except CardrulesError as error:
        error.message = f"game {index + 1} of the run (seed {plan.game_seed(index)}): {error.message}"
        error.args = (error.message, *error.args[1:])  # as a worker process passes it on
        raise


def _play_python(rules: Ruleset, plan: Plan, index: int) -> GameRecord:
    """Game `index` played by the Python backend."""
    seed = plan.game_seed(index)
    game = rules.new_game(seed=seed, players=plan.players)
    tally = [0, 0, 0]
    bots = {s: _Counted(make_bot(spec.kind, seat_seed(seed, s), **spec.bot_params), tally)
            for s, spec in enumerate(plan.seats)}
    several = game.players > 1
    leaders: list[tuple[int, ...]] = [_leaders(game)] if several else []
    turns = 0
    last_mover: int | None = None
    refused = 0

    def moved(mover: int) -> None:
        nonlocal turns, last_mover
        if plan.simultaneous or mover != last_mover:
            turns += 1
        last_mover = mover
        if several:
            leaders.append(_leaders(game))

    if plan.simultaneous:
        # `scheduler.simulate`'s loop, a step at a time to look at the table after every move.
        speeds = {s: spec.speed for s, spec in enumerate(plan.seats)}
        scheduler = Scheduler(game, dict(bots), seed, speeds)
        while not game.is_over and scheduler.next_time() is not None:
            before = len(game.history)
            scheduler.step()
            if len(game.history) > before:
                moved(game.history[-1].actor)
        refused = scheduler.refused
    else:
        while not game.is_over:
            mover = game.current_player
            game.apply(bots[mover].choose(game))
            moved(mover)
    moves = len(game.history)
    winners = game.winners()
    lead_changes = comeback = None
    if several:
        lead_changes = 0
        held: int | None = None
        for tied in leaders[1:]:  # the unique leader after each move; a tie changes nothing
            if len(tied) == 1:
                if held is not None and tied[0] != held:
                    lead_changes += 1
                held = tied[0]
        if winners:
            comeback = not set(winners) & set(leaders[moves // 2])
    return GameRecord(index, seed, game.players, game.outcome or "unfinished", game.reason,
                      tuple(winners) if winners is not None else None, tuple(game.scores()), moves, turns,
                      tally[0], tally[1], tally[2], lead_changes, comeback, refused)


def _play_native(rules: Ruleset, plan: Plan, index: int) -> GameRecord:
    """Game `index` played by the native backend: the same moves as `play_game`'s random and greedy
    bots make (the same random draws; where every seat plays at once, on the same clock). Where
    compiled code stops at an error, the Python backend plays the game instead, and reports the
    error as it always does."""
    from ..native import NativeStop, native_backend

    seed = plan.game_seed(index)
    game = rules.new_game(seed=seed, players=plan.players)
    native = native_backend(rules)
    refused = 0
    try:
        position = native.start(game)
        seeds = [seat_seed(seed, s) for s in range(game.players)]
        kinds = [spec.kind for spec in plan.seats]
        if plan.simultaneous:  # the Scheduler's clock, seeded with the game's seed
            decisions, options, choices, refused = native.scheduled_playout(
                position, seeds, seed, [spec.speed for spec in plan.seats], DEFAULT_JITTER, kinds)
        else:
            _, decisions, options, choices = native.playout(position, seeds, kinds)
        scores = tuple(position.score(p) for p in range(game.players))
        winners = position.winners()
    except NativeStop:
        return _play_python(rules, replace(plan, engine="python"), index)
    moves = position.moves
    lead_changes = comeback = None
    if game.players > 1:
        lead_changes = int(position.stats[4])
        if winners:
            middle = int(position.lead[moves // 2])
            comeback = not any(middle >> w & 1 for w in winners)
    return GameRecord(index, seed, game.players, position.outcome or "unfinished", position.reason,
                      tuple(winners) if winners is not None else None, scores, moves, int(position.stats[3]),
                      decisions, options, choices, lead_changes, comeback, refused)


ENGINES = ("python", "native")


def choose_engine(rules: Ruleset, engine: str, seats: Sequence[SeatSpec], note: Callable[[str], None]) -> str:
    """The engine a run will use: `native` where asked for and able to play it (compiled here, so
    worker processes find it in the cache), else `python`, with one line to `note` saying why."""
    if engine not in ENGINES:
        raise SimulateError(f"engine {engine!r}: choose {' or '.join(ENGINES)}")
    if engine == "python":
        return engine
    from ..native import Unsupported, native_backend

    if any(spec.kind not in ("random", "greedy") or spec.bot_params for spec in seats):
        note("native engine: it plays random and greedy seats without parameters only; playing with the Python engine")
        return "python"
    try:
        native_backend(rules)
    except Unsupported as exc:
        note(f"native engine: not for this ruleset ({exc}); playing with the Python engine")
        return "python"
    return engine


# -- workers: each compiles the ruleset once ------------------------------------------------

_COMPILED: dict[tuple[str, tuple[tuple[str, str], ...], str, tuple[str, ...]], Ruleset] = {}


def _cache_key(plan: Plan) -> tuple[str, tuple[tuple[str, str], ...], str, tuple[str, ...]]:
    return plan.ruleset, plan.options, plan.stamp, plan.search_path


def compiled(plan: Plan) -> Ruleset:
    """The plan's ruleset with its options, compiled once per process (keyed by the ruleset's
    path, options and file version)."""
    key = _cache_key(plan)
    rules = _COMPILED.get(key)
    if rules is None:
        rules = _COMPILED[key] = load_ruleset(plan.ruleset, dict(plan.options), plan.search_path)
    return rules


def _init_worker(plan: Plan) -> None:
    compiled(plan)


def play_batch(plan: Plan, start: int, stop: int) -> list[GameRecord]:
    """Games `start` to `stop - 1` of the plan (in a worker process, a Ray task or here)."""
    rules = compiled(plan)
    return [play_game(rules, plan, index) for index in range(start, stop)]


def batches(games: int, jobs: int) -> list[tuple[int, int]]:
    """The runs of game indexes handed out at once: about four batches per job."""
    size = max(1, games // (4 * jobs))
    return [(start, min(start + size, games)) for start in range(0, games, size)]


def _check_backend(backend: str, jobs: int) -> None:
    if backend not in BACKENDS:
        raise SimulateError(f"backend {backend!r}: choose {' or '.join(BACKENDS)}")
    if jobs < 1:
        raise SimulateError(f"the number of jobs must be at least 1, not {jobs}")


def run_games(plan: Plan, jobs: int = 1, backend: str = "local", address: str | None = None,
              advance: Callable[[int], None] | None = None) -> list[GameRecord]:
    """Play every game of the plan; the records sorted by game index. `advance(n)` is told as
    games finish."""
    _check_backend(backend, jobs)
    if address is not None and backend != "ray":
        raise SimulateError("--address names a Ray cluster: give it with --backend ray")
    step: Callable[[int], None] = advance if advance is not None else (lambda n: None)
    if backend == "ray":
        records = _run_ray(plan, jobs, address, step)
    elif jobs == 1:
        rules = compiled(plan)
        records = []
        for index in range(plan.games):
            records.append(play_game(rules, plan, index))
            step(1)
    else:
        records = _run_pool(plan, jobs, step)
    records.sort(key=lambda r: r.index)
    return records


def _run_pool(plan: Plan, jobs: int, step: Callable[[int], None]) -> list[GameRecord]:
    """The batches on a pool of `jobs` fresh processes, each of which compiles the ruleset once
    (started with `spawn`: a script that calls this needs the `if __name__ == "__main__":` guard)."""
    records: list[GameRecord] = []
    context = multiprocessing.get_context(MP_START_METHOD)
    work = batches(plan.games, jobs)
    with ProcessPoolExecutor(max_workers=min(jobs, len(work)), mp_context=context, initializer=_init_worker,
                             initargs=(plan,)) as pool:
        pending: set[Future[list[GameRecord]]] = {pool.submit(play_batch, plan, start, stop)
                                                  for start, stop in work}
        try:
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    batch = future.result()
                    records.extend(batch)
                    step(len(batch))
        except BaseException:
            for future in pending:
                future.cancel()
            raise
    return records


def import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise MissingExtraError("the ray backend needs Ray: pip install 'cardrules[ray]'") from None
    return ray


def _run_ray(plan: Plan, jobs: int, address: str | None, step: Callable[[int], None]) -> list[GameRecord]:
    ray = import_ray()
    started = False
    if not ray.is_initialized():
        quiet = {"logging_level": logging.ERROR, "log_to_driver": False}
        if address is None:  # a small local Ray for this run only
            os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
            ray.init(num_cpus=jobs, include_dashboard=False, **quiet)
        else:
            ray.init(address=address, **quiet)
        started = True
    try:
        remote = ray.remote(num_cpus=1)(play_batch)
        plan_ref = ray.put(plan)
        pending = [remote.remote(plan_ref, start, stop) for start, stop in batches(plan.games, jobs)]
        records: list[GameRecord] = []
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for batch in ray.get(done):
                records.extend(batch)
                step(len(batch))
        return records
    finally:
        if started:
            ray.shutdown()


# -- statistics ----------------------------------------------------------------------------

def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (successes may be fractional: shared wins)."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(max(p * (1 - p), 0.0) / n + z * z / (4 * n * n)) / denominator
    return max(0.0, min(centre - half, p)), min(1.0, max(centre + half, p))  # p inside, despite rounding


def describe(values: Sequence[float]) -> dict[str, float]:
    """Mean, standard deviation (of the sample) and quartiles of some numbers."""
    data = sorted(values)
    if not data:
        return {"mean": 0.0, "std": 0.0, "min": 0.0, "q1": 0.0, "median": 0.0, "q3": 0.0, "max": 0.0}
    if len(data) == 1:
        q1 = median = q3 = float(data[0])
    else:
        q1, median, q3 = statistics.quantiles(data, n=4, method="inclusive")
    return {"mean": statistics.fmean(data), "std": statistics.stdev(data) if len(data) > 1 else 0.0,
            "min": data[0], "q1": q1, "median": median, "q3": q3, "max": data[-1]}


def _seat_text(spec: SeatSpec) -> str:
    params = ",".join(f"{k}={v}" for k, v in spec.params.items())
    return spec.kind + (f":{params}" if params else "")


def summarize(plan: Plan, records: Sequence[GameRecord]) -> dict[str, Any]:
    """The summary of a run, from its records in order of game index (and nothing else)."""
    records = sorted(records, key=lambda r: r.index)
    n = len(records)
    players = plan.players
    wins: list[dict[str, Any]] = []
    if players == 1:
        won = sum(1 for r in records if r.outcome == "won")
        low, high = wilson(won, n)
        wins.append({"seat": 1, "wins": won, "share": won / n if n else 0.0, "low": low, "high": high})
    else:
        credit = [0.0] * players
        for r in records:
            for w in r.winners or ():
                credit[w] += 1 / len(r.winners or ())
        for s in range(players):
            low, high = wilson(credit[s], n)
            wins.append({"seat": s + 1, "wins": credit[s], "share": credit[s] / n if n else 0.0,
                         "low": low, "high": high})
    team_credit = [0.0] * len(plan.teams)  # a game's win, shared among the teams that won it
    for r in records:
        winning = [t for t, (_, seats) in enumerate(plan.teams) if set(seats) & set(r.winners or ())]
        for t in winning:
            team_credit[t] += 1 / len(winning)
    teams: list[dict[str, Any]] = []
    for (name, seats), team_wins in zip(plan.teams, team_credit):
        low, high = wilson(team_wins, n)
        teams.append({"team": name, "seats": [s + 1 for s in seats], "wins": team_wins,
                      "share": team_wins / n if n else 0.0, "low": low, "high": high})
    decisions = sum(r.decisions for r in records)
    options = sum(r.options for r in records)
    choices = sum(r.choices for r in records)
    outcomes: dict[str, int] = {}
    reasons: dict[tuple[str, str], int] = {}
    for r in records:
        outcomes[r.outcome] = outcomes.get(r.outcome, 0) + 1
        reasons[(r.outcome, r.reason)] = reasons.get((r.outcome, r.reason), 0) + 1
    summary: dict[str, Any] = {
        "ruleset": plan.name,
        "title": plan.title,
        "options": plan.option_values,
        "players": players,
        "simultaneous": plan.simultaneous,
        "games": n,
        "seeds": [plan.seed, plan.seed + plan.games - 1],
        "seats": {str(s + 1): _seat_text(spec) for s, spec in enumerate(plan.seats)},
        "wins": wins,
        "teams": teams,
        "score_order": plan.score_order,
        "scores": [{"seat": s + 1, **describe([r.scores[s] for r in records])} for s in range(players)],
        "moves": describe([r.moves for r in records]),
        "turns": describe([r.turns for r in records]),
        "decisions": decisions,
        "branching": options / decisions if decisions else 0.0,
        "choice_share": choices / decisions if decisions else 0.0,
        "outcomes": dict(sorted(outcomes.items(), key=lambda kv: (-kv[1], kv[0]))),
        "endings": [{"outcome": o, "reason": reason, "games": count}
                    for (o, reason), count in sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0]))],
        "lead_changes": None,
        "comebacks": None,
    }
    if players > 1:
        summary["lead_changes"] = {**describe([r.lead_changes or 0 for r in records]),
                                   "games_with_a_change": sum(1 for r in records if r.lead_changes)}
        decided = [r for r in records if r.comeback is not None]
        count = sum(1 for r in decided if r.comeback)
        summary["comebacks"] = {"games": count, "of": len(decided), "share": count / len(decided) if decided else 0.0}
    if plan.simultaneous:
        summary["refused"] = describe([r.refused for r in records])
    return summary


# -- outputs -------------------------------------------------------------------------------

def csv_text(plan: Plan, records: Sequence[GameRecord]) -> str:
    """One row per game, seats 1-based."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["index", "seed", "players", "outcome", "reason", "winners",
                     *[f"score_{s + 1}" for s in range(plan.players)], "moves", "turns", "decisions",
                     "mean_branching", "real_choices", "lead_changes", "comeback", "refused"])
    for r in sorted(records, key=lambda r: r.index):
        writer.writerow([r.index, r.seed, r.players, r.outcome, r.reason,
                         " ".join(str(w + 1) for w in r.winners or ()), *r.scores, r.moves, r.turns, r.decisions,
                         f"{r.branching:.4f}", r.choices, "" if r.lead_changes is None else r.lead_changes,
                         "" if r.comeback is None else int(r.comeback), r.refused])
    return out.getvalue()


def check_plots() -> None:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise MissingExtraError("--plots needs matplotlib: pip install 'cardrules[plots]'") from None


def _bins(values: Sequence[Any]) -> Any:
    """Histogram bins: one per whole number over a short range of whole numbers, else matplotlib's."""
    if values and all(float(v).is_integer() for v in values) and max(values) - min(values) <= 60:
        low, high = int(min(values)), int(max(values))
        return [v - 0.5 for v in range(low, high + 2)]
    return "auto"


def plot_text(text: str) -> str:
    """Text from a ruleset as matplotlib shows it, literally: a `$` would start mathematics."""
    return text.replace("$", r"\$")


def fit_title(text: str, inches: float) -> str:
    """A chart title (or label) folded at spaces to fit `inches` of width, `$` shown as it is."""
    lines = textwrap.wrap(plot_text(text), max(12, int(inches * 10)), break_long_words=False,
                          break_on_hyphens=False)
    return "\n".join(lines) or " "


def mark_move_limit(axes: Any, limit: int, longest: int, limited: int) -> None:
    """Mark the move limit on a histogram of game lengths: a line where it is in sight, else a
    note that it is beyond the longest game."""
    if limit <= longest * 1.2:
        axes.axvline(limit, color="tab:red", linestyle="--", label=f"move limit {limit:,} ({limited} games)")
    else:
        axes.text(0.99, 0.97, f"move limit {limit:,}: beyond the longest game ({longest:,})",
                  transform=axes.transAxes, ha="right", va="top", fontsize="small")


def save_figure(figure: Any, path: Path) -> Path:
    """Lay a matplotlib figure out and write it to `path` as a PNG (`simulate` and `compare` charts)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(figure)
    figure.tight_layout()
    figure.savefig(path, format="png", dpi=100)
    return path


def write_plots(plan: Plan, records: Sequence[GameRecord], summary: dict[str, Any], folder: Path) -> list[Path]:
    """PNG charts: scores.png (histogram per seat), length.png (moves per game, the move limit
    marked), wins.png (win share by seat with its 95% interval, the even share marked)."""
    check_plots()
    from matplotlib.figure import Figure

    folder.mkdir(parents=True, exist_ok=True)
    title = f"{plan.title or plan.name}: {len(records)} games"
    written = []

    def save(figure: Figure, name: str) -> None:
        written.append(save_figure(figure, folder / name))

    figure = Figure(figsize=(7, 4))
    axes = figure.add_subplot()
    by_seat = [[r.scores[s] for r in records] for s in range(plan.players)]
    labels = [plot_text(f"seat {s + 1} ({summary['seats'][str(s + 1)]})") for s in range(plan.players)]
    axes.hist(by_seat, bins=_bins([v for seat in by_seat for v in seat]), label=labels)  # side by side
    axes.set(xlabel="score", ylabel="games")
    axes.set_title(fit_title(f"{title}: final scores by seat", 7))
    if plan.players > 1:
        axes.legend()
    save(figure, "scores.png")

    figure = Figure(figsize=(7, 4))
    axes = figure.add_subplot()
    if plan.players > 1 and not plan.simultaneous:
        lengths = [[r.moves for r in records], [r.turns for r in records]]
        axes.hist(lengths, bins=_bins(lengths[0] + lengths[1]), label=["moves", "turns"])
    else:
        axes.hist([r.moves for r in records], bins=_bins([r.moves for r in records]), label="moves")
    mark_move_limit(axes, compiled(plan).max_moves, max(r.moves for r in records),
                    sum(1 for r in records if r.outcome == "limit"))
    axes.legend()
    axes.set(xlabel="moves" if plan.players == 1 else "moves / turns", ylabel="games")
    axes.set_title(fit_title(f"{title}: game length", 7))
    save(figure, "length.png")

    figure = Figure(figsize=(7, 4))
    axes = figure.add_subplot()
    wins = summary["wins"]
    shares = [w["share"] for w in wins]
    errors = [[max(0.0, w["share"] - w["low"]) for w in wins], [max(0.0, w["high"] - w["share"]) for w in wins]]
    kinds = [fit_title(summary["seats"][str(w["seat"])].replace(",", ", "), 7 / len(wins)) for w in wins]
    labels = [f"seat {w['seat']}\n{kind}" for w, kind in zip(wins, kinds)]
    axes.bar(range(len(wins)), shares, yerr=errors, capsize=6, color="tab:blue")
    axes.set_xticks(range(len(wins)), labels)
    axes.set_ylim(0, 1)
    if plan.players > 1:
        axes.axhline(1 / plan.players, color="grey", linestyle="--", label=f"even share (1/{plan.players})")
        axes.legend()
    axes.set(ylabel="share of games")
    axes.set_title(fit_title(f"{title}: {'games won' if plan.players == 1 else 'win share by seat'} "
                             f"(95% Wilson interval)", 7))
    save(figure, "wins.png")
    return written


def _num(value: float, digits: int = 1) -> str:
    return f"{value:.{digits}f}" if isinstance(value, float) and not float(value).is_integer() else f"{value:g}"


def render_summary(summary: dict[str, Any]) -> list[Any]:
    """The summary as rich renderables: a heading, the seats, the games, how they ended."""
    parts: list[Any] = []
    options = "  ".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in summary["options"].items())
    low, high = summary["seeds"]
    head = Text(shown_title(summary["title"] or summary["ruleset"]), style="bold")
    head.append(f"  {summary['games']} games, seeds {low}-{high}, {summary['players']} "
                f"player{'s' if summary['players'] > 1 else ''}  {options}"
                + ("  (lower scores are better)" if summary["score_order"] == "lower" else ""), style="dim")
    parts.append(head)

    seats = Table(title="Seats", title_justify="left", show_edge=False)
    for name, justify in (("seat", "right"), ("kind", "left"),
                          ("won" if summary["players"] == 1 else "win share", "right"), ("95% CI", "right"),
                          ("score mean", "right"), ("sd", "right"), ("quartiles", "right")):
        # A long bot text (its parameters) folds onto more lines rather than being cut.
        seats.add_column(name, justify=justify, no_wrap=name != "kind",  # type: ignore[arg-type]
                         overflow="fold" if name == "kind" else "ellipsis", min_width=6 if name == "kind" else None)
    for wins, scores in zip(summary["wins"], summary["scores"]):
        seat = str(wins["seat"])
        seats.add_row(seat, Text(summary["seats"][seat]), f"{wins['share']:.1%}",
                      f"{wins['low'] * 100:.1f}-{wins['high']:.1%}", f"{scores['mean']:.1f}", f"{scores['std']:.1f}",
                      " / ".join(_num(scores[k]) for k in ("q1", "median", "q3")))
    parts.append(seats)
    if summary.get("teams"):
        teams = Table(title="Teams", title_justify="left", show_edge=False)
        for name, justify in (("team", "left"), ("seats", "left"), ("win share", "right"), ("95% CI", "right")):
            teams.add_column(name, justify=justify)  # type: ignore[arg-type]
        for team in summary["teams"]:
            teams.add_row(Text(team["team"]), ", ".join(str(s) for s in team["seats"]), f"{team['share']:.1%}",
                          f"{team['low'] * 100:.1f}-{team['high']:.1%}")
        parts.append(teams)

    games = Table(title="Games", title_justify="left", show_edge=False)
    for name in ("", "mean", "sd", "min", "q1", "median", "q3", "max"):
        games.add_column(name, justify="left" if not name else "right")
    rows = [("moves", summary["moves"])]
    if summary["players"] > 1 and not summary["simultaneous"]:  # else a turn is the game, or a move
        rows.append(("turns", summary["turns"]))
    if summary["lead_changes"] is not None:
        rows.append(("lead changes", summary["lead_changes"]))
    if "refused" in summary:
        rows.append(("refused (too late)", summary["refused"]))
    for label, stats in rows:
        games.add_row(label, f"{stats['mean']:.1f}", f"{stats['std']:.1f}",
                      *[_num(stats[k]) for k in ("min", "q1", "median", "q3", "max")])
    parts.append(games)
    facts = Text()
    facts.append(f"branching: {summary['branching']:.2f} legal moves per decision "
                 f"({summary['decisions']} decisions); a real choice (more than one move) in "
                 f"{summary['choice_share']:.1%}")
    comebacks = summary["comebacks"]
    if comebacks is not None:
        with_change = summary["lead_changes"]["games_with_a_change"]
        facts.append(f"\nlead changes in {with_change} of {summary['games']} games; the winner was not "
                     f"among the leaders at the middle move in {comebacks['games']} of {comebacks['of']} "
                     f"games won ({comebacks['share']:.1%})")
    parts.append(facts)

    endings = Table(title="Endings", title_justify="left", show_edge=False)
    endings.add_column("outcome")
    endings.add_column("reason")
    endings.add_column("games", justify="right")
    endings.add_column("share", justify="right")
    for ending in summary["endings"]:
        endings.add_row(Text(ending["outcome"]), Text(ending["reason"]), str(ending["games"]),
                        f"{ending['games'] / summary['games']:.1%}")
    parts.append(endings)
    return parts


# -- the command ---------------------------------------------------------------------------

class _GamesPerSecond(ProgressColumn):
    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text(f"{speed:.1f} games/s" if speed else "- games/s", style="cyan")


class PlainProgress:
    """Progress for a standard error that is no terminal (a log, a pipe), where the bar does not
    show: one plain line every `every` seconds, `NAME: DONE/TOTAL games, RATE games/s`."""

    def __init__(self, console: Console, name: str, total: int, every: float | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.console = console
        self.name = name
        self.total = total
        self.every = PLAIN_PROGRESS_SECONDS if every is None else every
        self.clock = clock
        self.start = self.last = clock()
        self.done = 0

    def __call__(self, count: int) -> None:
        self.done += count
        now = self.clock()
        if now - self.last >= self.every and self.done < self.total:
            self.last = now
            rate = self.done / (now - self.start) if now > self.start else 0.0
            self.console.print(Text(printable(f"{self.name}: {self.done}/{self.total} games, {rate:.1f} games/s")),
                               soft_wrap=True)


@dataclass
class Run:
    """A finished run: the plan, the records by game index, their summary, and how long it took."""

    plan: Plan
    records: list[GameRecord]
    summary: dict[str, Any]
    seconds: float
    jobs: int
    backend: str

    def report(self) -> dict[str, Any]:
        """The JSON report: the summary, with how the run went (the only part that varies) under `run`."""
        return {**self.summary, "run": {"backend": self.backend, "engine": self.plan.engine, "jobs": self.jobs,
                                        "seconds": round(self.seconds, 3),
                                        "games_per_second": round(len(self.records) / self.seconds, 2)
                                        if self.seconds > 0 else None}}


def simulate_games(ruleset: str, games: int, players: int | None = None, seats: Iterable[str] = (),
                   options: Iterable[str] = (), seed: int = DEFAULT_SEED, jobs: int = 1, backend: str = "local",
                   address: str | None = None, progress: Console | None = None,
                   search_path: Iterable[str] = (), engine: str = "python",
                   note: Callable[[str], None] = lambda line: None, default_seat: str = "random") -> Run:
    """Check the arguments, play the games (with a progress bar on `progress`, if given) and
    summarize them. Seats not given play `default_seat`."""
    _check_backend(backend, jobs)
    if address is not None and backend != "ray":
        raise SimulateError("--address names a Ray cluster: give it with --backend ray")
    plan = prepare(ruleset, games, players, seats, options, seed, search_path, engine, note, default_seat)
    if backend == "ray":
        import_ray()
    start = time.perf_counter()
    if progress is None:
        records = run_games(plan, jobs, backend, address)
    elif not progress.is_terminal:  # a log file or a pipe: no bar, a plain line now and then
        records = run_games(plan, jobs, backend, address, PlainProgress(progress, plan.name, games))
    else:
        columns = (TextColumn("{task.description}", style="bold", markup=False), BarColumn(), MofNCompleteColumn(),
                   _GamesPerSecond(), TimeElapsedColumn(), TimeRemainingColumn())
        with Progress(*columns, console=progress, transient=True) as bar:
            task = bar.add_task(f"{plan.name}", total=games)
            records = run_games(plan, jobs, backend, address, lambda n: bar.advance(task, n))
    seconds = time.perf_counter() - start
    return Run(plan, records, summarize(plan, records), seconds, jobs, backend)


def simulate_command(ruleset: str, games: int, players: int | None = None, seat: Sequence[str] = (),
                     option: Sequence[str] = (), seed: int = DEFAULT_SEED, jobs: int = 1, backend: str = "local",
                     address: str | None = None, out: Path | None = None, csv_file: Path | None = None,
                     plots: Path | None = None, console: Console | None = None,
                     err_console: Console | None = None, show_progress: bool = True,
                     search_path: Sequence[str] = (), engine: str = "python", default_seat: str | None = None) -> int:
    """`cardrules simulate`: play, print the summary tables on `console`, write the files asked for.
    Seats not given play `default_seat`, by default greedy bots, which can win. The progress bar
    and errors go to `err_console` (standard error). Returns
    the exit code: 0, 1 for an error of the ruleset, a game or a file, 2 for a bad argument."""
    console = console if console is not None else terminal_console(highlight=False)
    err_console = err_console if err_console is not None else terminal_console(stderr=True, highlight=False)
    try:
        if plots is not None:
            check_plots()
        run = simulate_games(ruleset, games, players, seat, option, seed, jobs, backend, address,
                             err_console if show_progress else None, search_path, engine,
                             lambda line: err_console.print(Text(printable(line)), soft_wrap=True),
                             default_seat or "greedy")
        for part in render_summary(run.summary):
            console.print(part)
            console.print()
        rate = f" ({len(run.records) / run.seconds:.1f} games/s)" if run.seconds > 0 else ""
        where = f"{jobs} job{'s' if jobs > 1 else ''}" + (", ray" if backend == "ray" else "") + \
            (", native engine" if run.plan.engine == "native" else "")
        console.print(Text(f"{len(run.records)} games in {run.seconds:.2f} s{rate}, {where}", style="dim"))
        write_outputs(console, out, run.report, csv_file, lambda: csv_text(run.plan, run.records), plots,
                      lambda folder: write_plots(run.plan, run.records, run.summary, folder))
    except (CardrulesError, OSError) as error:
        return report_failure(err_console, error)
    return 0


def write_outputs(console: Console, out: Path | None, report: Callable[[], dict[str, Any]], csv_file: Path | None,
                  csv_rows: Callable[[], str], plots: Path | None, draw: Callable[[Path], list[Path]]) -> None:
    """Write the files a command was asked for (`--out`/`--json`, `--csv`, `--plots`), each made
    only if asked for, and say on `console` which were written (`simulate`, `compare`)."""
    written: list[Path] = []
    if out is not None:
        out.write_text(json.dumps(report(), indent=2) + "\n", encoding="utf-8")
        written.append(out)
    if csv_file is not None:
        csv_file.write_text(csv_rows(), encoding="utf-8")
        written.append(csv_file)
    if plots is not None:
        written.extend(draw(plots))
    if written:
        console.print(Text("wrote " + ", ".join(str(p) for p in written), style="dim"))


def report_failure(err_console: Console, error: CardrulesError | OSError) -> int:
    """Print why a command failed on `err_console`, without a traceback; its exit code: 2 for a bad
    argument (`SimulateError`), 1 for an error of a ruleset, a game or a file."""
    if isinstance(error, SimulateError):
        err_console.print(Text(printable(f"error: {error.message}")), soft_wrap=True)
        return 2
    if isinstance(error, CardrulesError):
        err_console.print(Text(printable(format_error(error))), soft_wrap=True)
        return 1
    err_console.print(Text(f"error: cannot write {error.filename or 'a file'}: {error.strerror or error}"),
                      soft_wrap=True)
    return 1


__all__ = ["BACKENDS", "ENGINES", "GameRecord", "MissingExtraError", "Plan", "PlainProgress", "Run", "SimulateError",
           "batches", "compiled", "csv_text", "describe", "fit_title", "mark_move_limit", "play_batch", "play_game",
           "plot_text", "prepare", "render_summary", "report_failure",
           "run_games", "save_figure", "simulate_command", "simulate_games", "summarize", "wilson", "write_outputs",
           "write_plots"]
