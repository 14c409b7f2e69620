"""Variants compared side by side: `cardrules compare BASE VARIANT [VARIANT...] -n GAMES`.

Above `workbench/simulate.py`, below the CLI: each ruleset (a bundled name or a file, or the base ruleset
with a set of options, `--variant NAME=VALUE,...`) becomes one `simulate.Plan`; every plan plays
the same seeds (game k from seed + k) with the same seats, so game k of a variant is the same
deal as game k of the base wherever the two rulesets deal the same deck, with its bots seeded
alike. `simulate.summarize` summarizes each run; this module puts each measure of every variant
beside the base's, with the difference, its 95% interval and a mark where the interval
excludes 0.

The intervals (docs/design.md, "Comparing variants"): games are the units and they come in
pairs (the same seed under both rulesets), so every interval is a paired one.
- Shares of games (win share by seat, first-player advantage, each way of ending): Newcombe's
  hybrid score interval for a difference of paired proportions (his method 10): the two Wilson
  intervals, combined with the correlation of the paired games. A shared win counts a fraction,
  and the correlation is then the Pearson correlation of the per-game values (the phi
  coefficient when they are 0 or 1).
- Means per game (scores by seat, moves, turns, lead changes): the normal interval of the mean
  of the per-seed differences.
- Ratios pooled over games (legal moves per decision, the real-choice share of decisions, the
  comeback share of games won): the per-game totals linearized (the delta method), then the
  normal interval of the mean of the per-seed differences; decisions of one game are not
  independent, so the game stays the unit.
"""

from __future__ import annotations

import csv
import io
import math
import statistics
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..base.errors import CardrulesError, printable, shown_title, terminal_console
from .simulate import (DEFAULT_BOT, DEFAULT_SEED, Z95, GameRecord, Run, SimulateError, check_plots, report_failure,
                       simulate_games, wilson, write_outputs)

MAX_RULESETS = 26  # columns are lettered A, B, C, ...
SIGNIFICANT = "*"


# -- what to compare -----------------------------------------------------------------------

@dataclass(frozen=True)
class Entry:
    """One column of a comparison: a ruleset and the options it is played with."""

    ruleset: str
    options: tuple[str, ...]          # NAME=VALUE, the shared ones first
    variant_options: tuple[str, ...]  # the option set of `--variant` (empty for a ruleset given by name)


def parse_option_set(text: str) -> tuple[str, ...]:
    """`--variant "draw=3,scoring=vegas"`: its NAME=VALUE items. Raises `SimulateError`."""
    items = tuple(item.strip() for item in text.split(","))
    if not text.strip() or any("=" not in item or not item.split("=", 1)[0].strip() for item in items):
        raise SimulateError(f"--variant {text!r}: expected NAME=VALUE[,NAME=VALUE...]")
    return items


def entries(rulesets: Sequence[str], variants: Sequence[str] = (), options: Sequence[str] = ()) -> list[Entry]:
    """The rulesets named, then the base (the first) with each option set of `variants`; every
    one with the shared `options` (an option set's own value wins)."""
    if not rulesets:
        raise SimulateError("name the base ruleset")
    sets = [parse_option_set(text) for text in variants]
    result = [Entry(name, tuple(options), ()) for name in rulesets]
    for option_set in sets:
        own = {item.split("=", 1)[0].strip() for item in option_set}
        shared = tuple(item for item in options if item.split("=", 1)[0].strip() not in own)
        result.append(Entry(rulesets[0], shared + option_set, option_set))
    if len(result) < 2:
        raise SimulateError("compare needs a variant: another ruleset, or an option set with --variant NAME=VALUE")
    if len(result) > MAX_RULESETS:
        raise SimulateError(f"at most {MAX_RULESETS} rulesets at once, not {len(result)}")
    return result


# -- intervals -----------------------------------------------------------------------------

def _newcombe_correlation(xs: Sequence[float], ys: Sequence[float]) -> float:
    """The correlation of paired shares as Newcombe's method 10 takes it: Pearson's, a positive
    one shrunk by 1 / (2 n sd(x) sd(y)) and no lower than 0 (his correction, which for values of
    0 and 1 takes n/2 from the cross products' difference of the 2x2 table); 0 where either side
    does not vary."""
    n = len(xs)
    if n < 2 or len(set(xs)) < 2 or len(set(ys)) < 2:
        return 0.0
    correlation = statistics.correlation(xs, ys)
    if correlation < 0:
        return correlation
    spread = statistics.pstdev(xs) * statistics.pstdev(ys)
    return max(0.0, correlation - 1 / (2 * n * spread))


def paired_share_difference(base: Sequence[float], variant: Sequence[float],
                            z: float = Z95) -> tuple[float, float, float]:
    """The difference of two shares of the same games (variant - base, each game's value in
    [0, 1]) and its interval: Newcombe's method 10 (Statistics in Medicine 17, 2635, 1998), the
    two Wilson intervals combined with the correlation of the pairs."""
    n = len(base)
    p1, p2 = sum(variant) / n, sum(base) / n
    l1, u1 = wilson(sum(variant), n, z)
    l2, u2 = wilson(sum(base), n, z)
    phi = _newcombe_correlation(base, variant)
    delta = p1 - p2
    low = delta - math.sqrt(max(0.0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2))
    high = delta + math.sqrt(max(0.0, (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2))
    return delta, max(-1.0, low), min(1.0, high)


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float] | None:
    """The mean and its normal interval; None for fewer than two values."""
    if len(values) < 2:
        return None
    mean = statistics.fmean(values)
    half = z * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def paired_mean_difference(base: Sequence[float], variant: Sequence[float],
                           z: float = Z95) -> tuple[float, float, float] | None:
    """The mean of the per-seed differences (variant - base) and its normal interval."""
    return mean_interval([v - b for b, v in zip(base, variant)], z)


def _linearized(tops: Sequence[float], bottoms: Sequence[float]) -> tuple[float, list[float]] | None:
    """A ratio of totals, sum(tops) / sum(bottoms), and each game's share of its error (the
    delta method): their mean is 0 and their spread is the ratio's. None where nothing counts."""
    total = sum(bottoms)
    if total == 0:
        return None
    ratio = sum(tops) / total
    scale = total / len(bottoms)
    return ratio, [(t - ratio * b) / scale for t, b in zip(tops, bottoms)]


def ratio_interval(tops: Sequence[float], bottoms: Sequence[float],
                   z: float = Z95) -> tuple[float, float, float] | None:
    """A ratio of per-game totals and its normal interval (linearized)."""
    line = _linearized(tops, bottoms)
    if line is None or len(tops) < 2:
        return None
    ratio, residuals = line
    half = z * statistics.stdev(residuals) / math.sqrt(len(residuals))
    return ratio, ratio - half, ratio + half


def paired_ratio_difference(base: tuple[Sequence[float], Sequence[float]],
                            variant: tuple[Sequence[float], Sequence[float]],
                            z: float = Z95) -> tuple[float, float, float] | None:
    """The difference of two ratios of per-game totals over the same seeds, and its interval."""
    one, two = _linearized(*base), _linearized(*variant)
    if one is None or two is None or len(base[0]) < 2:
        return None
    differences = [v - b for b, v in zip(one[1], two[1])]
    delta = two[0] - one[0]
    half = z * statistics.stdev(differences) / math.sqrt(len(differences))
    return delta, delta - half, delta + half


# -- the measures --------------------------------------------------------------------------

@dataclass
class Difference:
    """A variant's difference from the base on one measure."""

    difference: float
    low: float
    high: float

    @property
    def significant(self) -> bool:
        """The 95% interval excludes 0 (rounding noise aside)."""
        return self.low > 1e-12 or self.high < -1e-12


@dataclass
class Measure:
    """One row of the comparison: each ruleset's value (with its own interval, where it has one)
    and each variant's difference from the base (None where it is not defined)."""

    key: str                       # wins, first_player, score, moves, turns, branching, choice_share,
    label: str                     # ending, lead_changes, comebacks
    kind: str                      # share (shown in %, differences in points), mean, ratio
    values: list[float | None]
    intervals: list[tuple[float, float] | None]
    differences: list[Difference | None]   # one per variant (the rulesets after the base)
    seat: int | None = None        # 1-based
    ending: tuple[str, str] | None = None  # outcome, reason
    digits: int = 1

    def as_dict(self, labels: Sequence[str]) -> dict[str, Any]:
        return {"measure": self.key, "label": self.label, "kind": self.kind, "seat": self.seat,
                "outcome": self.ending[0] if self.ending else None,
                "reason": self.ending[1] if self.ending else None,
                "values": [{"ruleset": label, "value": value, "low": interval[0] if interval else None,
                            "high": interval[1] if interval else None}
                           for label, value, interval in zip(labels, self.values, self.intervals)],
                "differences": [None if d is None else
                                {"ruleset": label, "difference": d.difference, "low": d.low, "high": d.high,
                                 "significant": d.significant}
                                for label, d in zip(labels[1:], self.differences)]}


def _win_credit(record: GameRecord, seat: int) -> float:
    if record.winners is None:  # one seat: a game won
        return 1.0 if record.outcome == "won" else 0.0
    return 1 / len(record.winners) if seat in record.winners else 0.0


def _share_measure(key: str, label: str, per_game: list[list[float]], **extra: Any) -> Measure:
    n = len(per_game[0])
    values: list[float | None] = [sum(v) / n for v in per_game]
    intervals: list[tuple[float, float] | None] = [wilson(sum(v), n) for v in per_game]
    differences: list[Difference | None] = [Difference(*paired_share_difference(per_game[0], v))
                                            for v in per_game[1:]]
    return Measure(key, label, "share", values, intervals, differences, **extra)


def _mean_measure(key: str, label: str, per_game: list[list[float]], **extra: Any) -> Measure:
    means = [mean_interval(v) for v in per_game]
    values: list[float | None] = [statistics.fmean(v) for v in per_game]
    pairs = [paired_mean_difference(per_game[0], v) for v in per_game[1:]]
    return Measure(key, label, "mean", values, [None if m is None else (m[1], m[2]) for m in means],
                   [None if p is None else Difference(*p) for p in pairs], **extra)


def _ratio_measure(key: str, label: str, kind: str, per_game: list[tuple[list[float], list[float]]],
                   **extra: Any) -> Measure:
    ratios = [ratio_interval(*v) for v in per_game]
    values: list[float | None] = []
    for tops, bottoms in per_game:
        values.append(sum(tops) / sum(bottoms) if sum(bottoms) else None)
    pairs = [paired_ratio_difference(per_game[0], v) for v in per_game[1:]]
    return Measure(key, label, kind, values, [None if r is None else (r[1], r[2]) for r in ratios],
                   [None if p is None else Difference(*p) for p in pairs], **extra)


def measures(runs: Sequence[Run]) -> list[Measure]:
    """Every measure of the runs, the first run being the base. The runs play the same seeds
    with the same number of players."""
    records = [run.records for run in runs]
    players = runs[0].plan.players
    several = players > 1
    turn_based = several and not any(run.plan.simultaneous for run in runs)
    rows: list[Measure] = []
    for seat in range(players):
        label = f"seat {seat + 1} wins" if several else "games won"
        rows.append(_share_measure("wins", label, [[_win_credit(r, seat) for r in games] for games in records],
                                   seat=seat + 1))
    if turn_based:  # seat 1's share above an even share: seat 1 moves first unless the setup says otherwise
        even = 1 / players
        first = _share_measure("first_player", "first-player edge",
                               [[_win_credit(r, 0) for r in games] for games in records], seat=1)
        first.values = [None if v is None else v - even for v in first.values]
        first.intervals = [None if i is None else (i[0] - even, i[1] - even) for i in first.intervals]
        rows.append(first)
    for seat in range(players):
        rows.append(_mean_measure("score", f"seat {seat + 1} score" if several else "score",
                                  [[float(r.scores[seat]) for r in games] for games in records], seat=seat + 1))
    rows.append(_mean_measure("moves", "moves", [[float(r.moves) for r in games] for games in records]))
    if turn_based:
        rows.append(_mean_measure("turns", "turns", [[float(r.turns) for r in games] for games in records]))
    rows.append(_ratio_measure("branching", "legal moves", "ratio",
                               [([float(r.options) for r in games], [float(r.decisions) for r in games])
                                for games in records], digits=2))
    rows.append(_ratio_measure("choice_share", "real choices", "share",
                               [([float(r.choices) for r in games], [float(r.decisions) for r in games])
                                for games in records]))
    endings: list[tuple[str, str]] = []
    for games in records:
        for r in games:
            if (r.outcome, r.reason) not in endings:
                endings.append((r.outcome, r.reason))
    for outcome, reason in endings:
        rows.append(_share_measure("ending", f"ends {outcome}" + (f": {reason}" if reason else ""),
                                   [[1.0 if (r.outcome, r.reason) == (outcome, reason) else 0.0 for r in games]
                                    for games in records], ending=(outcome, reason)))
    if several:
        rows.append(_mean_measure("lead_changes", "lead changes",
                                  [[float(r.lead_changes or 0) for r in games] for games in records]))
        rows.append(_ratio_measure("comebacks", "comebacks", "share",
                                   [([1.0 if r.comeback else 0.0 for r in games],
                                     [0.0 if r.comeback is None else 1.0 for r in games]) for games in records]))
    return rows


# -- a comparison --------------------------------------------------------------------------

@dataclass
class Comparison:
    """The runs compared (the base first), their labels and the measures."""

    entries: list[Entry]
    runs: list[Run]
    labels: list[str]
    rows: list[Measure] = field(default_factory=list)

    def headlines(self) -> list[str]:
        """One plain sentence per significant difference."""
        lines = []
        for i, label in enumerate(self.labels[1:]):
            for row in self.rows:
                difference = row.differences[i]
                if row.key != "first_player" and difference is not None and difference.significant:
                    lines.append(f"{label}: {_sentence(row, difference)}")  # first-player: seat 1's win share
        return lines

    def report(self) -> dict[str, Any]:
        """The JSON report: each ruleset's `simulate` summary, then the measures compared."""
        first = self.runs[0]
        return {"base": self.labels[0], "variants": self.labels[1:], "games": first.plan.games,
                "seeds": [first.plan.seed, first.plan.seed + first.plan.games - 1], "players": first.plan.players,
                "rulesets": [{"label": label, "ruleset": run.plan.name, "options": run.plan.option_values,
                              "summary": run.summary} for label, run in zip(self.labels, self.runs)],
                "measures": [row.as_dict(self.labels) for row in self.rows],
                "headlines": self.headlines(),
                "run": {"engines": [run.plan.engine for run in self.runs], "jobs": first.jobs,
                        "seconds": round(sum(run.seconds for run in self.runs), 3)}}

    def csv(self) -> str:
        """One row per measure and ruleset: its value and interval, and for a variant its
        difference from the base with the interval and whether it is significant."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["measure", "label", "seat", "outcome", "reason", "ruleset", "value", "low", "high",
                         "difference", "difference_low", "difference_high", "significant"])
        for row in self.rows:
            for i, label in enumerate(self.labels):
                interval = row.intervals[i]
                difference = row.differences[i - 1] if i else None
                writer.writerow([row.key, row.label, "" if row.seat is None else row.seat,
                                 row.ending[0] if row.ending else "", row.ending[1] if row.ending else "", label,
                                 _csv_number(row.values[i]), _csv_number(interval[0] if interval else None),
                                 _csv_number(interval[1] if interval else None),
                                 *([_csv_number(difference.difference), _csv_number(difference.low),
                                    _csv_number(difference.high), int(difference.significant)]
                                   if difference is not None else ["", "", "", ""])])
        return out.getvalue()


def _csv_number(value: float | None) -> str:
    return "" if value is None else f"{value:.6g}"


def _label(entry: Entry, run: Run) -> str:
    if entry.variant_options:
        return f"{run.plan.name} " + " ".join(item.replace(" ", "") for item in entry.variant_options)
    return run.plan.name


def compare_games(rulesets: Sequence[str], games: int, variants: Sequence[str] = (), players: int | None = None,
                  seats: Iterable[str] = (), options: Sequence[str] = (), seed: int = DEFAULT_SEED, jobs: int = 1,
                  search_path: Iterable[str] = (), engine: str = "python", progress: Console | None = None,
                  note: Callable[[str], None] = lambda line: None, default_seat: str = "random") -> Comparison:
    """Play the same seeds under every ruleset (or option set) and compare each with the first."""
    chosen = entries(rulesets, variants, options)
    seats = list(seats)
    folders = list(search_path)
    runs: list[Run] = []
    for entry in chosen:
        run = simulate_games(entry.ruleset, games, players, seats, entry.options, seed, jobs, progress=progress,
                             search_path=folders, engine=engine, note=note, default_seat=default_seat)
        if runs and run.plan.players != runs[0].plan.players:
            raise SimulateError(f"{run.plan.name} is played by {run.plan.players} and {runs[0].plan.name} by "
                                f"{runs[0].plan.players} players: compare rulesets for the same number of players "
                                f"(give --players)")
        runs.append(run)
    labels = [_label(entry, run) for entry, run in zip(chosen, runs)]
    return Comparison(chosen, runs, labels, measures(runs))


# -- text ----------------------------------------------------------------------------------

def _value_text(row: Measure, value: float | None) -> str:
    if value is None:
        return "-"
    if row.kind == "share":
        return f"{value * 100:+.1f}" if row.key == "first_player" else f"{value:.1%}"
    return f"{value:.{row.digits}f}"


def _margin(row: Measure, difference: Difference) -> tuple[str, str]:
    """The difference and its interval as ± the interval's larger side (the interval lies
    within it; Wilson-based intervals are lopsided near 0% and 100%), in points for shares."""
    scale = 100 if row.kind == "share" else 1
    digits = row.digits
    delta = difference.difference * scale
    if round(delta, digits) == 0:
        delta = 0.0  # no "-0.0"
    side = max(difference.difference - difference.low, difference.high - difference.difference) * scale
    return f"{delta:+.{digits}f}", f"±{side:.{digits}f}"


def difference_text(row: Measure, difference: Difference | None) -> Text:
    """A table cell: the difference, its interval, and the mark of a significant one."""
    if difference is None:
        return Text("-")
    delta, margin = _margin(row, difference)
    text = Text(f"{delta} {margin}")
    if difference.significant:
        text.stylize("bold")
        text.append(f" {SIGNIFICANT}", style="bold")
    return text


def _sentence(row: Measure, difference: Difference) -> str:
    """The difference in words: "seat 1 wins 8.0 points more often (±3.1)"."""
    delta, side = _margin(row, difference)
    size = delta.lstrip("+-")
    more = difference.difference > 0
    margin = f"({side})"
    seat = f"seat {row.seat}"
    if row.key == "wins":
        if row.label == "games won":
            return f"games are won {size} points {'more' if more else 'less'} often {margin}"
        return f"{seat} wins {size} points {'more' if more else 'less'} often {margin}"
    if row.key == "score":
        who = seat if row.label != "score" else "the score"
        verb = "scores" if row.label != "score" else "is"
        return f"{who} {verb} {size} {'more' if more else 'less'} on average {margin}"
    if row.key in ("moves", "turns"):
        return f"games last {size} {row.key} {'longer' if more else 'shorter'} on average {margin}"
    if row.key == "branching":
        return f"a decision has {size} {'more' if more else 'fewer'} legal moves on average {margin}"
    if row.key == "choice_share":
        return f"a decision is a real choice {size} points {'more' if more else 'less'} often {margin}"
    if row.key == "ending":
        outcome, reason = row.ending or ("", "")
        how = outcome + (f" ({reason})" if reason else "")
        return f"games end {how} {size} points {'more' if more else 'less'} often {margin}"
    if row.key == "lead_changes":
        return f"the lead changes {size} times {'more' if more else 'less'} per game {margin}"
    if row.key == "comebacks":
        return f"the winner comes from behind {size} points {'more' if more else 'less'} often {margin}"
    return f"{row.label}: {delta} {margin}"


def render_comparison(comparison: Comparison) -> list[Any]:
    """The comparison as rich renderables: the rulesets lettered, one table, the headlines."""
    first = comparison.runs[0].plan
    parts: list[Any] = []
    seats = ", ".join(f"{s}={kind}" for s, kind in comparison.runs[0].summary["seats"].items())
    head = Text(f"{first.games} games each, seeds {first.seed}-{first.seed + first.games - 1}, "
                f"{first.players} player{'s' if first.players > 1 else ''}, seats {seats}", style="dim")
    parts.append(head)
    key = Text()
    for i, (label, run) in enumerate(zip(comparison.labels, comparison.runs)):
        key.append(f"{'' if i == 0 else chr(10)}{chr(65 + i)} ", style="bold")
        key.append(label)
        title = run.plan.title
        if title and title != run.plan.name:
            key.append(f"  {shown_title(title)}", style="dim")
        if i == 0:
            key.append("  (base)", style="dim")
    parts.append(key)

    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, collapse_padding=True)
    table.add_column("measure", overflow="fold", min_width=12)
    for i in range(len(comparison.runs)):
        letter = chr(65 + i)
        table.add_column(letter, justify="right", no_wrap=True)
        if i:
            table.add_column(f"{letter}-A", justify="right", no_wrap=True)
    for row in comparison.rows:
        cells: list[Any] = [Text(row.label)]
        for i, value in enumerate(row.values):
            cells.append(_value_text(row, value))
            if i:
                cells.append(difference_text(row, row.differences[i - 1]))
        table.add_row(*cells)
    parts.append(table)
    parts.append(Text(f"B-A: the difference from A, ± the larger side of its 95% interval, in points for shares; "
                      f"{SIGNIFICANT} where the interval excludes 0.", style="dim"))
    lines = comparison.headlines()
    parts.append(Text("\n".join(lines) if lines else "No difference is significant at 95%.",
                      style="bold" if lines else ""))
    return parts


# -- plots ---------------------------------------------------------------------------------

def write_comparison_plots(comparison: Comparison, folder: Path) -> list[Path]:
    """One PNG per measure, the rulesets in one legend: wins.png, scores.png, length.png,
    branching.png, endings.png, and for several seats lead_changes.png; differences.png shows
    the difference of every share (wins, endings, real choices, comebacks) from the base's with
    its interval."""
    check_plots()
    from matplotlib.figure import Figure

    from .simulate import compiled, fit_title, plot_text, save_figure

    folder.mkdir(parents=True, exist_ok=True)
    labels = [plot_text(label) for label in comparison.labels]
    count = len(labels)
    colors = [f"C{i % 10}" for i in range(count)]
    first = comparison.runs[0].plan
    what = f"{first.games} games each"
    written: list[Path] = []

    def save(figure: Figure, name: str) -> None:
        written.append(save_figure(figure, folder / name))

    def grouped_bars(rows: list[Measure], name: str, title: str, ylabel: str, tick: Callable[[Measure], str],
                     even: float | None = None) -> None:
        figure = Figure(figsize=(8, 4.5))
        axes = figure.add_subplot()
        width = 0.8 / count
        for i in range(count):
            xs = [g + (i - (count - 1) / 2) * width for g in range(len(rows))]
            values = [row.values[i] or 0.0 for row in rows]
            errors = [[max(0.0, v - (row.intervals[i] or (v, v))[0]) for v, row in zip(values, rows)],
                      [max(0.0, (row.intervals[i] or (v, v))[1] - v) for v, row in zip(values, rows)]]
            axes.bar(xs, values, width, yerr=errors, capsize=4, color=colors[i], label=labels[i])
        axes.set_xticks(range(len(rows)), [tick(row) for row in rows])
        axes.set_ylim(0, 1)
        if even is not None:
            axes.axhline(even, color="grey", linestyle="--", label=f"even share ({even:.0%})")
        axes.set_ylabel(ylabel)
        axes.set_title(fit_title(f"{title}: {what} (95% intervals)", 8))
        axes.legend(fontsize="small")
        save(figure, name)

    wins = [row for row in comparison.rows if row.key == "wins"]
    grouped_bars(wins, "wins.png", "Win share by seat" if first.players > 1 else "Games won", "share of games",
                 lambda row: f"seat {row.seat}", 1 / first.players if first.players > 1 else None)
    endings = [row for row in comparison.rows if row.key == "ending"]
    grouped_bars(endings, "endings.png", "How games end", "share of games",
                 lambda row: fit_title(row.label.removeprefix("ends "), 1.6))

    figure = Figure(figsize=(8, 4.5))
    axes = figure.add_subplot()
    players = first.players
    width = 0.8 / count
    for i, run in enumerate(comparison.runs):
        data = [[float(r.scores[s]) for r in run.records] for s in range(players)]
        positions = [s + (i - (count - 1) / 2) * width for s in range(players)]
        boxes = axes.boxplot(data, positions=positions, widths=width * 0.9, patch_artist=True, manage_ticks=False)
        for patch in boxes["boxes"]:
            patch.set_facecolor(colors[i])
            patch.set_alpha(0.6)
        boxes["boxes"][0].set_label(labels[i])
    axes.set_xticks(range(players), [f"seat {s + 1}" for s in range(players)])
    axes.set_ylabel("final score")
    axes.set_title(fit_title(f"Scores by seat: {what}", 8))
    axes.legend(fontsize="small")
    save(figure, "scores.png")

    figure = Figure(figsize=(8, 4.5))
    axes = figure.add_subplot()
    lengths = [[r.moves for r in run.records] for run in comparison.runs]
    longest, shortest = max(max(v) for v in lengths), min(min(v) for v in lengths)
    bins: Any = [v - 0.5 for v in range(shortest, longest + 2)] if longest - shortest <= 60 else 40  # whole moves
    axes.hist(lengths, bins=bins, histtype="step", linewidth=1.5, color=colors, label=labels)
    axes.ticklabel_format(axis="x", useOffset=False)
    by_limit: dict[int, list[int]] = {}  # each move limit and the rulesets that have it
    for i, run in enumerate(comparison.runs):
        by_limit.setdefault(compiled(run.plan).max_moves, []).append(i)
    for limit, which in sorted(by_limit.items()):
        if limit <= longest * 1.2:
            shared = len(which) == count and count > 1
            axes.axvline(limit, color="grey" if shared else colors[which[0]], linestyle="--",
                         label=f"move limit {limit:,}" + ("" if shared else f" ({', '.join(labels[i] for i in which)})"))
    limits = sorted(by_limit)
    if all(limit > longest * 1.2 for limit in limits):
        axes.text(0.99, 0.97, f"move limit {', '.join(f'{v:,}' for v in limits)}: beyond the longest game",
                  transform=axes.transAxes, ha="right", va="top", fontsize="small")
    axes.set(xlabel="moves", ylabel="games")
    axes.set_title(fit_title(f"Game length: {what}", 8))
    axes.legend(fontsize="small")
    save(figure, "length.png")

    figure = Figure(figsize=(8, 4.5))
    axes = figure.add_subplot()
    per_game = [[r.branching for r in run.records if r.decisions] or [0.0] for run in comparison.runs]
    boxes = axes.boxplot(per_game, patch_artist=True)
    for patch, color, label in zip(boxes["boxes"], colors, labels):
        patch.set_facecolor(color)
        patch.set_alpha(0.6)
        patch.set_label(label)
    axes.set_xticks(range(1, count + 1), [chr(65 + i) for i in range(count)])
    axes.set_ylabel("legal moves per decision (per game)")
    axes.set_title(fit_title(f"Branching: {what}", 8))
    axes.legend(fontsize="small")
    save(figure, "branching.png")

    if players > 1:
        figure = Figure(figsize=(8, 4.5))
        axes = figure.add_subplot()
        changes = [[r.lead_changes or 0 for r in run.records] for run in comparison.runs]
        most = max(max(v) for v in changes)
        axes.hist(changes, bins=[v - 0.5 for v in range(0, most + 2)] if most <= 60 else 40, color=colors,
                  label=labels)
        axes.set(xlabel="lead changes", ylabel="games")
        axes.set_title(fit_title(f"Lead changes per game: {what}", 8))
        axes.legend(fontsize="small")
        save(figure, "lead_changes.png")

    shares = [row for row in comparison.rows if row.kind == "share"]  # one unit: points
    figure = Figure(figsize=(8, 1.2 + 0.3 * len(shares) * (count - 1)))
    axes = figure.add_subplot()
    ticks: list[str] = []
    y = 0
    for row in reversed(shares):
        scale = 100
        for i, difference in enumerate(row.differences):
            if difference is not None:
                axes.errorbar([difference.difference * scale], [y],
                              xerr=[[(difference.difference - difference.low) * scale],
                                    [(difference.high - difference.difference) * scale]],
                              fmt="o", color=colors[i + 1], capsize=3,
                              label=labels[i + 1] if not any(labels[i + 1] == t.get_label()
                                                             for t in axes.get_lines()) else None)
            ticks.append(plot_text(row.label))
            y += 1
    axes.axvline(0, color="grey", linewidth=1)
    axes.set_yticks(range(len(ticks)), ticks, fontsize="small")
    axes.set_xlabel("difference from the base (percentage points)")
    axes.set_title(fit_title(f"Differences from {labels[0]} (95% intervals): {what}", 8))
    handles, names = axes.get_legend_handles_labels()
    unique = {name: handle for handle, name in zip(handles, names)}
    axes.legend(list(unique.values()), list(unique.keys()), fontsize="small")
    save(figure, "differences.png")
    return written


# -- the command ---------------------------------------------------------------------------

def compare_command(rulesets: Sequence[str], games: int, variants: Sequence[str] = (), players: int | None = None,
                    seat: Sequence[str] = (), option: Sequence[str] = (), seed: int = DEFAULT_SEED, jobs: int = 1,
                    out: Path | None = None, csv_file: Path | None = None, plots: Path | None = None,
                    console: Console | None = None, err_console: Console | None = None,
                    show_progress: bool = True, search_path: Sequence[str] = (), engine: str = "auto",
                    default_seat: str | None = None) -> int:
    """`cardrules compare`: play, print the comparison on `console`, write the files asked for.
    Seats not given play `default_seat`, by default mcts (else greedy) bots, as `simulate`'s. Progress and
    errors go to `err_console`. Returns the exit code: 0, 1 for an error of a ruleset, a game or a
    file, 2 for a bad argument."""
    console = console if console is not None else terminal_console(highlight=False)
    err_console = err_console if err_console is not None else terminal_console(stderr=True, highlight=False)
    try:
        if plots is not None:
            check_plots()
        comparison = compare_games(rulesets, games, variants, players, seat, option, seed, jobs, search_path, engine,
                                   err_console if show_progress else None,
                                   lambda line: err_console.print(Text(printable(line)), soft_wrap=True),
                                   default_seat or DEFAULT_BOT)
        for part in render_comparison(comparison):
            console.print(part)
            console.print()
        seconds = sum(run.seconds for run in comparison.runs)
        console.print(Text(f"{games * len(comparison.runs)} games in {seconds:.2f} s, {jobs} job"
                           f"{'s' if jobs > 1 else ''}", style="dim"))
        write_outputs(console, out, comparison.report, csv_file, comparison.csv, plots,
                      lambda folder: write_comparison_plots(comparison, folder))
    except (CardrulesError, OSError) as error:
        return report_failure(err_console, error)
    return 0


__all__ = ["Comparison", "Difference", "Entry", "Measure", "compare_command", "compare_games", "entries",
           "difference_text", "mean_interval", "measures", "paired_mean_difference", "paired_ratio_difference",
           "paired_share_difference", "parse_option_set", "ratio_interval", "render_comparison",
           "write_comparison_plots"]
