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
import math
import statistics
import textwrap
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from rich.console import Console
from rich.progress import (BarColumn, MofNCompleteColumn, Progress, ProgressColumn, Task, TextColumn,
                           TimeElapsedColumn, TimeRemainingColumn)
from rich.table import Table
from rich.text import Text

from ..base.errors import CardrulesError, format_error, printable, shown_title, terminal_console
from ..agents.seats import SeatSpec
from .simulate_play import (BACKENDS, DEFAULT_BOT, DEFAULT_SEED, ENGINES, GameRecord, MissingExtraError, Plan, SimulateError,
                            _check_backend, batches, compiled, import_ray, play_batch, play_game, prepare, run_games,
                            start_games)

Z95 = 1.959963984540054  # the standard normal quantile of 0.975
PLAIN_PROGRESS_SECONDS = 10.0  # where standard error is no terminal: a progress line this often


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
    with start_games(plan, jobs, backend, address) as running:  # workers start before the progress display's thread
        if progress is None:
            records = running.run()
        elif not progress.is_terminal:  # a log file or a pipe: no bar, a plain line now and then
            records = running.run(PlainProgress(progress, plan.name, games))
        else:
            columns = (TextColumn("{task.description}", style="bold", markup=False), BarColumn(),
                       MofNCompleteColumn(), _GamesPerSecond(), TimeElapsedColumn(), TimeRemainingColumn())
            with Progress(*columns, console=progress, transient=True) as bar:
                task = bar.add_task(f"{plan.name}", total=games)
                records = running.run(lambda n: bar.advance(task, n))
    seconds = time.perf_counter() - start
    return Run(plan, records, summarize(plan, records), seconds, jobs, backend)


def simulate_command(ruleset: str, games: int, players: int | None = None, seat: Sequence[str] = (),
                     option: Sequence[str] = (), seed: int = DEFAULT_SEED, jobs: int = 1, backend: str = "local",
                     address: str | None = None, out: Path | None = None, csv_file: Path | None = None,
                     plots: Path | None = None, console: Console | None = None,
                     err_console: Console | None = None, show_progress: bool = True,
                     search_path: Sequence[str] = (), engine: str = "auto", default_seat: str | None = None) -> int:
    """`cardrules simulate`: play, print the summary tables on `console`, write the files asked for.
    Seats not given play `default_seat`, by default mcts bots where their search runs
    in compiled code, else greedy bots (simulate_play.DEFAULT_BOT). The progress bar
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
                             default_seat or DEFAULT_BOT)
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
