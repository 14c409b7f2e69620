"""The games of a simulation (workbench/simulate.py summarizes them): the plan of a run, checked
and loaded once; each game played to its end and recorded; the batches played here, on a pool of
processes that each compile the ruleset once, or as Ray tasks.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import sys
import threading
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from ..agents.bots import Bot, make_bot, seat_seed
from ..agents.mcts import default_bot
from ..python.engine import Game, Move
from ..base.errors import CardrulesError, SetupError
from ..agents.seats import SeatError, SeatSpec, check_seats, parse_seat
from ..model.ruleset import Ruleset, find_ruleset
from ..python.load import load_ruleset
from ..front.source import is_file
from ..agents.scheduler import DEFAULT_JITTER, Scheduler
from .engines import native_pays, say_if_mcts_compiles

BACKENDS = ("local", "ray")
DEFAULT_SEED = 1
# How worker processes start. On Linux they are forked from this process once it has loaded the
# ruleset and played the run's first game (so its compiled code is loaded too): a worker starts
# with nothing to load. `start_games` forks them before the caller starts any thread (a progress
# display; a process where other threads run already is not forked). Elsewhere forking is not
# safe (macOS) or not there (Windows): workers are spawned and each loads the ruleset itself.
MP_START_METHOD = "fork" if sys.platform == "linux" else "spawn"


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


DEFAULT_BOT = "default"  # as a run's default seat: mcts where it searches in compiled code (several seats), else greedy


def prepare(ruleset: str, games: int, players: int | None = None, seats: Iterable[str] = (),
            options: Iterable[str] = (), seed: int = DEFAULT_SEED, search_path: Iterable[str] = (),
            engine: str = "python", note: Callable[[str], None] = lambda line: None,
            default_seat: str = "random") -> Plan:
    """Check a run's arguments and load the ruleset once: `seats` as `SEAT=KIND[:NAME=VALUE,...]`,
    `options` as `NAME=VALUE`, the seats not given `default_seat` (DEFAULT_BOT: `mcts` where its
    trials run in compiled code, else greedy, with a line to `note` saying why). Raises `SimulateError` for a bad
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
        if default_seat == DEFAULT_BOT and len(specs) < count:
            default_seat, why = default_bot(rules, count)
            if why is not None:
                note(why)
        for s in range(count):
            specs.setdefault(s, SeatSpec(default_seat))
        check_seats(rules, specs, count)
    except SeatError as exc:
        raise SimulateError(str(exc)) from None
    chosen = choose_engine(rules, engine, [specs[s] for s in range(count)], note, games)
    say_if_mcts_compiles(rules, [spec.kind for spec in specs.values()], note)
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
    native = native_backend(rules)
    refused = 0
    try:
        position = native.deal(seed, plan.players)  # (dealt in compiled code where the module can)
        players = position.players
        seeds = [seat_seed(seed, s) for s in range(players)]
        kinds = [spec.kind for spec in plan.seats]
        if plan.simultaneous:  # the Scheduler's clock, seeded with the game's seed
            decisions, options, choices, refused = native.scheduled_playout(
                position, seeds, seed, [spec.speed for spec in plan.seats], DEFAULT_JITTER, kinds)
        else:
            _, decisions, options, choices = native.playout(position, seeds, kinds)
        scores = tuple(position.score(p) for p in range(players))
        winners = position.winners()
    except NativeStop:
        return _play_python(rules, replace(plan, engine="python"), index)
    moves = position.moves
    lead_changes = comeback = None
    if players > 1:
        lead_changes = int(position.stats[4])
        if winners:
            middle = int(position.lead[moves // 2])
            comeback = not any(middle >> w & 1 for w in winners)
    return GameRecord(index, seed, players, position.outcome or "unfinished", position.reason,
                      tuple(winners) if winners is not None else None, scores, moves, int(position.stats[3]),
                      decisions, options, choices, lead_changes, comeback, refused)


ENGINES = ("auto", "python", "native")
# Games from which compiling a ruleset first pays for itself (docs/native.md, "When native pays", has
# the measurement); once compiled, a ruleset's module loads in well under a second.
NATIVE_PAYS_FROM = 500


def choose_engine(rules: Ruleset, engine: str, seats: Sequence[SeatSpec], note: Callable[[str], None],
                  games: int = 0) -> str:
    """The engine a run will use, with one line to `note` where it is not the one asked for, or is
    about to compile. `native` where asked for and able to play it, else `python` (saying why);
    `auto` (the command line's default) takes native where Numba is installed, every seat is one
    the compiled code plays (random or greedy, without parameters) and the ruleset lowers, and
    either its compiled code is at hand or the run is long enough to pay for compiling it
    (`NATIVE_PAYS_FROM` games); else Python, saying why."""
    if engine not in ENGINES:
        raise SimulateError(f"engine {engine!r}: choose {' or '.join(ENGINES)}")
    if engine == "python":
        return engine
    from ..native import Unsupported, native_available, native_backend

    asked = engine == "native"
    if not asked and not native_available():
        note("engine: python (the native engine needs Numba: pip install 'cardrules[native]')")
        return "python"
    others = [spec for spec in seats if spec.kind not in ("random", "greedy") or spec.bot_params]
    if others:  # (an mcts seat searches in compiled code whatever engine applies the moves: auto says nothing)
        if asked:
            note("native engine: it plays random and greedy seats without parameters only; playing with the Python "
                 "engine" + (" (mcts seats still run their search in compiled code)"
                             if any(spec.kind == "mcts" for spec in seats) else ""))
        elif any(spec.kind != "mcts" for spec in others):
            note("engine: python (the native engine plays random and greedy seats without parameters only)")
        return "python"
    try:
        backend = native_backend(rules)
    except Unsupported as exc:
        note(f"native engine: not for this ruleset ({exc}); playing with the Python engine" if asked else
             f"engine: python (the native engine does not cover this ruleset: {exc})")
        return "python"
    return "native" if native_pays(backend, asked, games, NATIVE_PAYS_FROM, "games", note) else "python"


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


class Games:
    """A plan's games under way (`start_games`): `run` waits for them all, telling `advance(n)` as
    games finish, and returns their records sorted by game index."""

    def __init__(self, plan: Plan, jobs: int, backend: str, address: str | None) -> None:
        self.plan, self.jobs, self.backend, self.address = plan, jobs, backend, address
        self.first: list[GameRecord] = []   # games this process played before the workers started
        self.pool: ProcessPoolExecutor | None = None
        self.pending: set[Future[list[GameRecord]]] = set()
        if backend == "local" and jobs > 1:
            self._start_pool()

    def _start_pool(self) -> None:
        plan = self.plan
        # (a process with other threads running is not forked: a lock one of them holds would stay held)
        method = MP_START_METHOD if threading.active_count() == 1 else "spawn"
        context = multiprocessing.get_context(method)
        games = range(plan.games)
        if method == "fork":  # load here once, and play a game, so that the workers need not
            self.first = [play_game(compiled(plan), plan, 0)]
            games = range(1, plan.games)
        work = [(games.start + start, games.start + stop) for start, stop in batches(len(games), self.jobs)]
        if not work:
            return
        self.pool = ProcessPoolExecutor(max_workers=min(self.jobs, len(work)), mp_context=context,
                                        initializer=_init_worker, initargs=(plan,))
        self.pending = {self.pool.submit(play_batch, plan, start, stop) for start, stop in work}  # forks now

    def run(self, advance: Callable[[int], None] | None = None) -> list[GameRecord]:
        step: Callable[[int], None] = advance if advance is not None else (lambda n: None)
        plan = self.plan
        if self.backend == "ray":
            records = _run_ray(plan, self.jobs, self.address, step)
        elif self.jobs == 1:
            rules = compiled(plan)
            records = []
            for index in range(plan.games):
                records.append(play_game(rules, plan, index))
                step(1)
        else:
            records = list(self.first)
            step(len(records))
            pending = self.pending
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    batch = future.result()
                    records.extend(batch)
                    step(len(batch))
        records.sort(key=lambda r: r.index)
        return records

    def close(self) -> None:
        for future in self.pending:
            future.cancel()
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)

    def __enter__(self) -> Games:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def start_games(plan: Plan, jobs: int = 1, backend: str = "local", address: str | None = None) -> Games:
    """Start playing every game of the plan: here (one job), on a pool of `jobs` worker processes
    (started now: call this before starting any thread, as a progress display), or as Ray tasks."""
    _check_backend(backend, jobs)
    if address is not None and backend != "ray":
        raise SimulateError("--address names a Ray cluster: give it with --backend ray")
    return Games(plan, jobs, backend, address)


def run_games(plan: Plan, jobs: int = 1, backend: str = "local", address: str | None = None,
              advance: Callable[[int], None] | None = None) -> list[GameRecord]:
    """Play every game of the plan; the records sorted by game index. `advance(n)` is told as
    games finish."""
    with start_games(plan, jobs, backend, address) as games:
        return games.run(advance)


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
