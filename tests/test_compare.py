"""`cardrules compare`: the same seeds under several rulesets, each measure's difference from the
base with its paired 95% interval, marked where significant; its JSON, CSV and charts."""

from __future__ import annotations

import csv
import io
import json
import math
import random
import statistics
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console
from typer.testing import CliRunner

from cardrules import load_ruleset
from cardrules.app.cli import app
from cardrules.workbench.compare import (Difference, Measure, compare_command, compare_games, difference_text, entries,
                               paired_mean_difference, paired_ratio_difference, paired_share_difference)
from cardrules.workbench.simulate import wilson

FIXTURES = Path(__file__).parent / "fixtures" / "compare"
DUEL = str(FIXTURES / "duel.yaml")              # seat 2 wins every game
DUEL_FIRST = str(FIXTURES / "duel-first.yaml")  # the same game, seat 1 wins every game


def command(*rulesets: str, games: int, **kwargs: Any) -> tuple[int, str, str]:
    """Run the command (seats not given random); its exit code, standard output and standard error."""
    out, err = io.StringIO(), io.StringIO()
    kwargs.setdefault("default_seat", "random")
    code = compare_command(list(rulesets), games, console=Console(file=out, width=80, highlight=False),
                           err_console=Console(file=err, width=200, highlight=False), **kwargs)
    return code, out.getvalue(), err.getvalue()


def row(report: dict[str, Any], measure: str, seat: int | None = None) -> dict[str, Any]:
    (found,) = [m for m in report["measures"] if m["measure"] == measure and m["seat"] == seat]
    return found


# -- differences known by construction ------------------------------------------------------------

def test_a_variant_where_seat_1_always_wins_is_100_points_up_and_marked(tmp_path: Path) -> None:
    out = tmp_path / "compare.json"
    code, stdout, err = command(DUEL, DUEL_FIRST, games=30, out=out)
    assert code == 0, err
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["base"] == "duel" and report["variants"] == ["duel-first"]
    seat1, seat2 = row(report, "wins", 1), row(report, "wins", 2)
    assert [v["value"] for v in seat1["values"]] == [0.0, 1.0]
    (difference,) = seat1["differences"]
    assert difference["difference"] == 1.0 and difference["significant"]
    assert 0 < difference["low"] < 1 == difference["high"]
    assert seat2["differences"][0]["difference"] == -1.0 and seat2["differences"][0]["significant"]
    first = row(report, "first_player", 1)
    assert [v["value"] for v in first["values"]] == [-0.5, 0.5] and first["differences"][0]["significant"]
    # The cards are the same under both (the same seeds, deck and bots): scores and lengths do not move.
    for measure, seat in (("score", 1), ("score", 2), ("moves", None), ("lead_changes", None)):
        (same,) = row(report, measure, seat)["differences"]
        assert (same["difference"], same["low"], same["high"], same["significant"]) == (0.0, 0.0, 0.0, False)
    assert "+100.0" in stdout and "*" in stdout
    assert "duel-first: seat 1 wins 100.0 points more often" in stdout
    assert "duel-first: seat 2 wins 100.0 points less often" in stdout
    assert all(len(line) <= 80 for line in stdout.splitlines())


def test_identical_rulesets_differ_by_nothing() -> None:
    comparison = compare_games(["ten-bucks", "ten-bucks"], 12, players=3, seed=4)
    for measure in comparison.rows:
        (difference,) = measure.differences
        assert difference is not None and difference.difference == 0 and not difference.significant, measure.label
        assert difference.low <= 0 <= difference.high
    assert comparison.headlines() == []
    _, stdout, _ = command("ten-bucks", "ten-bucks", games=4, players=3)
    table = stdout.split("B-A: the difference")[0]
    assert "No difference is significant" in stdout and "B-A" in table and "*" not in table


def test_every_ruleset_plays_the_same_deals_with_the_same_bots() -> None:
    comparison = compare_games(["klondike", "klondike-draw3"], 3, seats=["1=random"], seed=7)
    base, variant = comparison.runs
    assert [r.seed for r in base.records] == [r.seed for r in variant.records] == [7, 8, 9]
    for seed in (7, 8, 9):
        one = load_ruleset("klondike").new_game(seed=seed)
        three = load_ruleset("klondike-draw3").new_game(seed=seed)
        assert one.state.piles == three.state.piles  # the deal
    assert base.plan.seats == variant.plan.seats and base.plan.option_values["draw"] == 1
    assert variant.plan.option_values["draw"] == 3


# -- option sets ---------------------------------------------------------------------------------

def test_an_option_set_is_the_base_with_those_options(tmp_path: Path) -> None:
    by_file, by_option = tmp_path / "file.json", tmp_path / "option.json"
    code, _, err = command(DUEL, DUEL_FIRST, games=10, out=by_file)
    assert code == 0, err
    code, stdout, err = command(DUEL, games=10, variants=["winner=1"], out=by_option)
    assert code == 0, err
    file_report, option_report = (json.loads(p.read_text(encoding="utf-8")) for p in (by_file, by_option))
    assert option_report["variants"] == ["duel winner=1"]
    assert option_report["rulesets"][1]["options"] == {"winner": 1}
    assert [m["differences"] for m in option_report["measures"]] == \
        [[{**d, "ruleset": "duel winner=1"} for d in m["differences"]] for m in file_report["measures"]]
    assert "duel winner=1: seat 1 wins 100.0 points more often" in stdout


def test_shared_options_apply_to_every_ruleset_and_a_variant_s_own_win() -> None:
    chosen = entries(["klondike"], ["draw=3,scoring=vegas", "draw=3"], ["scoring=none"])
    assert [(e.ruleset, e.options) for e in chosen] == [
        ("klondike", ("scoring=none",)),
        ("klondike", ("draw=3", "scoring=vegas")),
        ("klondike", ("scoring=none", "draw=3"))]
    comparison = compare_games(["klondike"], 2, variants=["draw=3"], options=["scoring=none"], seats=["1=random"])
    assert [run.plan.option_values for run in comparison.runs] == [
        {"draw": 1, "scoring": "none", "cumulative": False}, {"draw": 3, "scoring": "none", "cumulative": False}]
    assert comparison.labels == ["klondike", "klondike draw=3"]


# -- outputs -------------------------------------------------------------------------------------

def test_json_and_csv_hold_the_values_differences_and_intervals(tmp_path: Path) -> None:
    out, table = tmp_path / "c.json", tmp_path / "c.csv"
    code, _, err = command("ten-bucks", "ten-bucks-wild-wagers", games=16, players=3, seed=2, out=out,
                           csv_file=table)
    assert code == 0, err
    report = json.loads(out.read_text(encoding="utf-8"))
    with table.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 2 * len(report["measures"])
    base_summary, variant_summary = (r["summary"] for r in report["rulesets"])
    assert base_summary["games"] == variant_summary["games"] == 16
    assert report["seeds"] == [2, 17] and report["players"] == 3
    for measure in report["measures"]:
        base, variant = (r for r in rows if r["measure"] == measure["measure"] and r["label"] == measure["label"])
        assert (base["ruleset"], variant["ruleset"]) == ("ten-bucks", "ten-bucks-wild-wagers")
        (difference,) = measure["differences"]
        if difference is None:
            assert variant["difference"] == ""
            continue
        assert float(variant["difference"]) == pytest.approx(difference["difference"], abs=1e-5)
        assert float(variant["difference_low"]) == pytest.approx(difference["low"], abs=1e-5)
        assert float(variant["difference_high"]) == pytest.approx(difference["high"], abs=1e-5)
        assert variant["significant"] == str(int(difference["significant"])) and base["difference"] == ""
        assert difference["low"] <= difference["difference"] <= difference["high"]
    # The win shares are simulate's, with its Wilson intervals.
    for seat in (1, 2, 3):
        values = row(report, "wins", seat)["values"]
        for value, summary in zip(values, (base_summary, variant_summary)):
            wins = summary["wins"][seat - 1]
            assert (value["value"], value["low"], value["high"]) == pytest.approx(
                (wins["share"], *wilson(wins["wins"], 16)))
    moves = row(report, "moves")
    assert [v["value"] for v in moves["values"]] == pytest.approx(
        [base_summary["moves"]["mean"], variant_summary["moves"]["mean"]])
    assert row(report, "branching")["values"][0]["value"] == pytest.approx(base_summary["branching"])


def test_plots_draw_one_chart_per_measure(tmp_path: Path) -> None:
    folder = tmp_path / "charts"
    code, stdout, err = command(DUEL, DUEL_FIRST, games=8, plots=folder)
    assert code == 0, err
    names = {"wins.png", "endings.png", "scores.png", "length.png", "branching.png", "lead_changes.png",
             "differences.png"}
    assert {p.name for p in folder.iterdir()} == names
    for name in names:
        data = (folder / name).read_bytes()
        assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 1000
    assert "differences.png" in stdout.replace("\n", "")


def test_the_cli_command(tmp_path: Path) -> None:
    out = tmp_path / "c.json"
    result = CliRunner().invoke(app, ["compare", DUEL, "--variant", "winner=1", "-n", "5", "--seat", "1=random",
                                      "--json", str(out)])
    assert result.exit_code == 0, result.output
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["rulesets"][0]["summary"]["seats"] == {"1": "random", "2": "mcts"}  # the default bot
    # From 0 of 5 games to 5 of 5: Newcombe's interval reaches down by the two Wilson intervals' sides.
    low, _ = wilson(5, 5)
    side = 100 * math.hypot(1 - low, 1 - low)
    assert report["headlines"][0] == f"duel winner=1: seat 1 wins 100.0 points more often (±{side:.1f})"


def test_jobs_and_engine_are_passed_to_every_ruleset(tmp_path: Path) -> None:
    reports = []
    for jobs in (1, 2):
        out = tmp_path / f"jobs{jobs}.json"
        code, _, err = command("ten-bucks", "ten-bucks-wild-two", games=8, players=2, jobs=jobs, out=out)
        assert code == 0, err
        report = json.loads(out.read_text(encoding="utf-8"))
        assert report["run"]["jobs"] == jobs
        reports.append({k: v for k, v in report.items() if k != "run"})
    assert reports[0]["measures"] == reports[1]["measures"]
    # Native plays random and greedy seats only: each ruleset says so, and Python plays.
    code, _, err = command(DUEL, DUEL_FIRST, games=2, seat=["1=montecarlo:budget=2"], engine="native")
    assert code == 0 and err.count("native engine: it plays random and greedy seats") == 2


# -- errors --------------------------------------------------------------------------------------

@pytest.mark.parametrize(("rulesets", "kwargs", "code", "message"), [
    (["klondike", "no-such-game"], {}, 1, "no ruleset 'no-such-game'"),
    (["klondike"], {}, 2, "compare needs a variant"),
    (["klondike"], {"variants": ["draw"]}, 2, "--variant 'draw': expected NAME=VALUE"),
    (["klondike"], {"variants": ["draw=3,"]}, 2, "expected NAME=VALUE"),
    (["klondike"], {"variants": ["draw=7"]}, 1, "option 'draw' cannot be '7'"),
    (["klondike"], {"variants": ["colour=red"]}, 1, "colour"),
    (["klondike", "ten-bucks"], {}, 2, "give --players"),
    (["klondike", "klondike-draw3"], {"seat": ["1=wizard"]}, 2, "seat kind 'wizard'"),
])
def test_bad_arguments_are_clear_errors(rulesets: list[str], kwargs: dict[str, Any], code: int, message: str) -> None:
    result, stdout, err = command(*rulesets, games=2, **kwargs)
    assert result == code
    assert message in err and stdout == "" and "Traceback" not in err


def test_the_cli_prints_errors_without_a_traceback() -> None:
    result = CliRunner().invoke(app, ["compare", "klondike", "--variant", "draw=7", "-n", "2"])
    assert result.exit_code == 1 and "cannot be '7'" in result.output and "Traceback" not in result.output


# -- the intervals -------------------------------------------------------------------------------

def test_newcombe_s_paired_interval_against_a_published_example() -> None:
    # Fagerland, Lydersen and Laake, Statistical Analysis of Contingency Tables (2017), chapter 8:
    # complete response before and after consolidation therapy (Cavo et al., 2012), the paired
    # table [[59, 6], [16, 80]]; the Newcombe square-and-add interval of the difference is
    # -0.0621 (-0.1186 to -0.0046).
    before = [1.0] * 59 + [1.0] * 6 + [0.0] * 16 + [0.0] * 80
    after = [1.0] * 59 + [0.0] * 6 + [1.0] * 16 + [0.0] * 80
    delta, low, high = paired_share_difference(after, before)
    assert (delta, low, high) == pytest.approx((-0.0621, -0.1186, -0.0046), abs=5e-5)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([0.0, 0.5, 1.0]), st.sampled_from([0.0, 0.5, 1.0])), min_size=2, max_size=60))
def test_a_paired_share_interval_holds_the_difference_and_stays_in_bounds(pairs: list[tuple[float, float]]) -> None:
    base, variant = [b for b, _ in pairs], [v for _, v in pairs]
    delta, low, high = paired_share_difference(base, variant)
    assert -1 <= low <= delta <= high <= 1
    assert delta == pytest.approx(statistics.fmean(variant) - statistics.fmean(base))
    assert paired_share_difference(base, base)[0] == 0  # the same games: no difference


def test_paired_means_and_ratios() -> None:
    generator = random.Random(3)
    base = [generator.gauss(10, 3) for _ in range(400)]
    variant = [b + 2 + generator.gauss(0, 1) for b in base]  # 2 more, paired closely
    found = paired_mean_difference(base, variant)
    assert found is not None
    delta, low, high = found
    assert low < 2 < high and high - low < 0.4
    assert delta == pytest.approx(statistics.fmean(variant) - statistics.fmean(base))
    assert paired_mean_difference([1.0], [2.0]) is None  # one pair: no interval
    # A ratio of totals: legal moves over decisions, 3 per decision under the base, 4 under the variant.
    decisions = [float(generator.randint(1, 20)) for _ in range(200)]
    options_base = [3 * d + generator.choice([-1, 0, 1]) for d in decisions]
    options_variant = [4 * d + generator.choice([-1, 0, 1]) for d in decisions]
    found = paired_ratio_difference((options_base, decisions), (options_variant, decisions))
    assert found is not None
    delta, low, high = found
    assert delta == pytest.approx(sum(options_variant) / sum(decisions) - sum(options_base) / sum(decisions))
    assert low < 1 < high and low > 0.9
    assert paired_ratio_difference(([0.0, 0.0], [0.0, 0.0]), ([1.0, 1.0], [1.0, 1.0])) is None  # nothing counted


def test_a_cell_shows_the_difference_with_the_larger_side_of_its_interval() -> None:
    moves = Measure("moves", "moves", "mean", [30.0, 30.0], [None, None], [None])
    wins = Measure("wins", "seat 1 wins", "share", [0.5, 0.6], [None, None], [None], seat=1)
    assert difference_text(moves, Difference(-0.01, -0.2, 0.2)).plain == "+0.0 ±0.2"  # never "-0.0"
    assert difference_text(moves, Difference(-0.06, -0.2, 0.2)).plain == "-0.1 ±0.3"
    assert difference_text(wins, Difference(0.08, 0.05, 0.1)).plain == "+8.0 ±3.0 *"
