"""`cardrules simulate`: many all-bot games, summarized; the same whatever the jobs or the backend."""

from __future__ import annotations

import csv
import io
import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from cardrules import load_ruleset
from cardrules.agents.bots import make_bot, seat_seed
from cardrules.agents.scheduler import simulate
from cardrules.workbench.simulate import simulate_command, simulate_games, summarize, wilson
from cardrules.workbench.simulate_play import batches, prepare, run_games
from conftest import ROOT


def command(*, ruleset: str, games: int, **kwargs: Any) -> tuple[int, str, str]:
    """Run the command (seats not given random, as the games played directly below); its exit
    code, standard output and standard error (as text)."""
    out, err = io.StringIO(), io.StringIO()
    kwargs.setdefault("default_seat", "random")
    code = simulate_command(ruleset, games, console=Console(file=out, width=200, highlight=False),
                            err_console=Console(file=err, width=200, highlight=False), **kwargs)
    return code, out.getvalue(), err.getvalue()


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def without_run(report: dict[str, Any]) -> dict[str, Any]:
    """A JSON report less its `run` part (the backend, the jobs and the timing)."""
    assert {"backend", "jobs", "seconds", "games_per_second"} <= set(report["run"])
    return {k: v for k, v in report.items() if k != "run"}


# -- games played straight through the library, to check the records against --------------

def direct_game(name: str, seed: int, kinds: dict[int, str], players: int | None = None,
                speeds: dict[int, float] | None = None) -> tuple[Any, list[int]]:
    """A game as `cardrules play` plays it with bots in every seat; the game, and the seat that
    made each move."""
    rules = load_ruleset(name)
    game = rules.new_game(seed=seed, players=players)
    bots = {s: make_bot(kinds.get(s, "random"), seat_seed(seed, s)) for s in range(game.players)}
    if rules.simultaneous:
        simulate(game, dict(bots), seed, speeds or {s: 1.0 for s in bots})
        return game, [m.actor for m in game.history]
    movers = []
    while not game.is_over:
        movers.append(game.current_player)
        game.apply(bots[game.current_player].choose(game))
    return game, movers


def direct_lead_changes(name: str, seed: int, players: int) -> tuple[int, set[int]]:
    """Replay a turn-based game of random bots: the changes of unique leader (by evaluation)
    after each move, and the leaders at the middle move."""
    rules = load_ruleset(name)
    game, _ = direct_game(name, seed, {}, players)
    replay = rules.new_game(seed=seed, players=players)

    def leaders() -> set[int]:
        values = [replay.evaluation(p) for p in range(players)]
        return {p for p, v in enumerate(values) if v == max(values)}

    middle = len(game.history) // 2
    at_middle = leaders() if middle == 0 else set()
    changes, held = 0, None
    for number, move in enumerate(game.history, 1):
        replay.apply(replay.parse_move(str(move)))
        now = leaders()
        if number == middle:
            at_middle = now
        if len(now) == 1:
            (leader,) = now
            changes += held is not None and leader != held
            held = leader
    return changes, at_middle


# -- the same results whatever the jobs --------------------------------------------------------

def test_batches_cover_every_game_once() -> None:
    for games in (1, 2, 7, 40, 401):
        for jobs in (1, 2, 3, 8):
            covered = [i for start, stop in batches(games, jobs) for i in range(start, stop)]
            assert covered == list(range(games))
    assert len(batches(400, 2)) == 8


def test_one_and_two_jobs_give_the_same_records_and_summary() -> None:
    plan = prepare("ten-bucks", 40, players=4, seed=5)
    one = run_games(plan, jobs=1)
    two = run_games(plan, jobs=2)
    assert one == two
    assert [r.index for r in two] == list(range(40)) and [r.seed for r in two] == list(range(5, 45))
    assert summarize(plan, one) == summarize(plan, two)
    assert summarize(plan, list(reversed(two))) == summarize(plan, one)  # only the index orders the records


@pytest.mark.skipif(sys.platform != "linux", reason="workers are forked on Linux only; elsewhere each loads the ruleset")
def test_workers_forked_from_this_process_load_nothing_again(monkeypatch: pytest.MonkeyPatch) -> None:
    from cardrules.workbench import simulate_play

    assert simulate_play.MP_START_METHOD == "fork"
    plan = prepare("ten-bucks", 24, players=3, seed=2)
    parent = os.getpid()
    loaded = simulate_play.load_ruleset

    def load_here_only(*args: Any, **kwargs: Any) -> Any:
        if os.getpid() != parent:
            raise AssertionError("a worker loaded the ruleset again")
        return loaded(*args, **kwargs)
    monkeypatch.setattr(simulate_play, "load_ruleset", load_here_only)
    simulate_play._COMPILED.clear()
    records = run_games(plan, jobs=2)
    assert [r.index for r in records] == list(range(24)) and records == run_games(plan, jobs=1)


def test_a_process_running_other_threads_spawns_its_workers_and_gets_the_same_records(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import multiprocessing
    import threading

    from cardrules.workbench import simulate_play

    methods: list[str] = []
    get_context = multiprocessing.get_context

    def context(method: str) -> Any:
        methods.append(method)
        return get_context(method)
    monkeypatch.setattr(simulate_play.multiprocessing, "get_context", context)
    plan = prepare("ten-bucks", 12, players=3, seed=4)
    release = threading.Event()
    busy = threading.Thread(target=release.wait)
    busy.start()
    try:
        records = run_games(plan, jobs=2)  # spawned: each worker loads the ruleset itself
    finally:
        release.set()
        busy.join()
    assert methods == ["spawn"] and records == run_games(plan, jobs=1)


def test_the_json_report_is_the_same_for_one_and_two_jobs(tmp_path: Path) -> None:
    reports = []
    for jobs in (1, 2):
        out = tmp_path / f"jobs{jobs}.json"
        code, _, err = command(ruleset="klondike", games=6, jobs=jobs, out=out)
        assert code == 0, err
        report = json.loads(out.read_text(encoding="utf-8"))
        assert report["run"]["jobs"] == jobs and report["run"]["backend"] == "local"
        reports.append(without_run(report))
    assert reports[0] == reports[1]


def test_the_ray_backend_gives_the_local_backends_results(tmp_path: Path) -> None:
    import ray

    local, remote = tmp_path / "local.json", tmp_path / "ray.json"
    local_csv, remote_csv = tmp_path / "local.csv", tmp_path / "ray.csv"
    code, _, err = command(ruleset="ten-bucks", games=30, players=4, seed=11, out=local, csv_file=local_csv)
    assert code == 0, err
    assert not ray.is_initialized()
    # A local Ray with 2 CPUs, started for the run and shut down after it.
    code, stdout, err = command(ruleset="ten-bucks", games=30, players=4, seed=11, jobs=2, backend="ray",
                                out=remote, csv_file=remote_csv)
    assert code == 0, err
    assert not ray.is_initialized()
    assert "30 games in" in stdout and "2 jobs, ray" in stdout
    assert json.loads(remote.read_text(encoding="utf-8"))["run"]["backend"] == "ray"
    assert without_run(json.loads(remote.read_text(encoding="utf-8"))) == \
        without_run(json.loads(local.read_text(encoding="utf-8")))
    assert remote_csv.read_text(encoding="utf-8") == local_csv.read_text(encoding="utf-8")


# -- the outputs, checked against games played through the library ----------------------------

def test_json_and_csv_of_a_multi_seat_game_match_games_played_directly(tmp_path: Path) -> None:
    out, rows_file = tmp_path / "sim.json", tmp_path / "games.csv"
    code, stdout, err = command(ruleset="ten-bucks", games=24, players=4, out=out, csv_file=rows_file)
    assert code == 0, err
    report = json.loads(out.read_text(encoding="utf-8"))
    rows = read_csv(rows_file)
    assert [int(r["index"]) for r in rows] == list(range(24))
    assert [int(r["seed"]) for r in rows] == list(range(1, 25))  # the default seed is 1
    for index in (0, 9, 23):
        row = rows[index]
        game, movers = direct_game("ten-bucks", 1 + index, {}, players=4)
        assert row["outcome"] == game.outcome and row["reason"] == game.reason
        assert row["winners"] == " ".join(str(w + 1) for w in game.winners())
        assert [int(row[f"score_{s}"]) for s in range(1, 5)] == game.scores()
        assert int(row["moves"]) == len(game.history) and int(row["players"]) == 4
        runs = sum(1 for i, seat in enumerate(movers) if i == 0 or seat != movers[i - 1])
        assert int(row["turns"]) == runs
        assert int(row["decisions"]) == len(game.history)  # every move is a bot's decision here
        changes, at_middle = direct_lead_changes("ten-bucks", 1 + index, 4)
        assert int(row["lead_changes"]) == changes
        assert row["comeback"] == str(int(not set(game.winners()) & at_middle))

    # The summary agrees with the rows.
    assert report["games"] == 24 and report["players"] == 4 and report["seeds"] == [1, 24]
    assert report["seats"] == {str(s): "random" for s in range(1, 5)}
    credit = [0.0] * 4
    for row in rows:
        winners = [int(w) for w in row["winners"].split()]
        for w in winners:
            credit[w - 1] += 1 / len(winners)
    for s, wins in enumerate(report["wins"]):
        assert wins["seat"] == s + 1
        assert wins["share"] == pytest.approx(credit[s] / 24)
        assert (wins["low"], wins["high"]) == pytest.approx(wilson(credit[s], 24))
        assert wins["low"] <= wins["share"] <= wins["high"]
    assert sum(w["share"] for w in report["wins"]) == pytest.approx(1.0)  # every game has a winner
    scores = [int(r["score_1"]) for r in rows]
    assert report["scores"][0]["mean"] == pytest.approx(sum(scores) / 24)
    assert report["scores"][0]["min"] == min(scores) and report["scores"][0]["max"] == max(scores)
    assert report["moves"]["mean"] == pytest.approx(sum(int(r["moves"]) for r in rows) / 24)
    decisions = sum(int(r["decisions"]) for r in rows)
    assert report["decisions"] == decisions
    assert report["branching"] == pytest.approx(
        sum(float(r["mean_branching"]) * int(r["decisions"]) for r in rows) / decisions, abs=1e-3)
    assert report["choice_share"] == pytest.approx(sum(int(r["real_choices"]) for r in rows) / decisions)
    assert 0 < report["choice_share"] <= 1 and report["branching"] >= 1
    assert report["lead_changes"]["mean"] == pytest.approx(sum(int(r["lead_changes"]) for r in rows) / 24)
    assert report["comebacks"]["games"] == sum(int(r["comeback"]) for r in rows)
    assert report["comebacks"]["of"] == 24
    assert sum(e["games"] for e in report["endings"]) == 24 == sum(report["outcomes"].values())
    # The tables say the same.
    for heading in ("Seats", "Games", "Endings", "win share", "95% CI", "lead changes", "branching"):
        assert heading in stdout
    assert "24 games in" in stdout and "games/s" in stdout


def test_a_solitaire_reports_the_share_of_games_won(tmp_path: Path) -> None:
    out, rows_file = tmp_path / "klondike.json", tmp_path / "klondike.csv"
    code, stdout, err = command(ruleset="klondike", games=3, seat=["1=greedy"], seed=3, out=out, csv_file=rows_file)
    assert code == 0, err
    report = json.loads(out.read_text(encoding="utf-8"))
    rows = read_csv(rows_file)
    assert report["seats"] == {"1": "greedy"} and report["players"] == 1
    games = [direct_game("klondike", 3 + i, {0: "greedy"})[0] for i in range(3)]
    for row, game in zip(rows, games):
        assert (row["outcome"], row["reason"], int(row["score_1"]), int(row["moves"])) == \
            (game.outcome, game.reason, game.scores()[0], len(game.history))
        assert row["winners"] == "" and row["lead_changes"] == "" and row["turns"] == "1"
    won = sum(1 for g in games if g.outcome == "won")
    (wins,) = report["wins"]
    assert (wins["wins"], wins["share"]) == (won, won / 3)
    assert report["lead_changes"] is None and report["comebacks"] is None
    assert report["outcomes"] == {o: sum(1 for g in games if g.outcome == o) for o in {g.outcome for g in games}}
    assert "won" in stdout and "lead changes" not in stdout


def test_a_simultaneous_game_is_played_on_the_scheduler(tmp_path: Path) -> None:
    rows_file, out = tmp_path / "nerts.csv", tmp_path / "nerts.json"
    code, stdout, err = command(ruleset="nerts", games=3, seat=["2=random:speed=2"], seed=8,
                                csv_file=rows_file, out=out)
    assert code == 0, err
    rows = read_csv(rows_file)
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["simultaneous"] is True and report["seats"] == {"1": "random", "2": "random:speed=2.0"}
    for index in (0, 2):
        game, _ = direct_game("nerts", 8 + index, {}, speeds={0: 1.0, 1: 2.0})
        row = rows[index]
        assert (row["outcome"], row["reason"]) == (game.outcome, game.reason)
        assert [int(row["score_1"]), int(row["score_2"])] == game.scores()
        assert row["winners"] == " ".join(str(w + 1) for w in game.winners() or [])
        assert int(row["moves"]) == len(game.history) == int(row["turns"])  # every move is a turn
        assert int(row["decisions"]) >= len(game.history)
    assert "refused" in report and "refused (too late)" in stdout


def test_plots_are_written_as_png_files(tmp_path: Path) -> None:
    folder = tmp_path / "charts"
    code, stdout, err = command(ruleset="ten-bucks", games=12, players=3, plots=folder)
    assert code == 0, err
    for name in ("scores.png", "length.png", "wins.png"):
        data = (folder / name).read_bytes()
        assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 1000
    assert "wins.png" in stdout


def test_the_progress_bar_goes_to_standard_error() -> None:
    out, err = io.StringIO(), io.StringIO()
    code = simulate_command("ten-bucks", 5, players=2, console=Console(file=out, width=120),
                            err_console=Console(file=err, width=120, force_terminal=True))
    assert code == 0
    assert "games/s" in err.getvalue() and "5/5" in err.getvalue()
    assert "5/5" not in out.getvalue()


def test_a_library_run_returns_records_and_summary() -> None:
    run = simulate_games("ten-bucks", 6, players=2, seats=["1=greedy"], options=[], seed=2)
    assert [r.index for r in run.records] == list(range(6)) and run.summary["games"] == 6
    assert run.summary["seats"] == {"1": "greedy", "2": "random"}
    assert run.report()["run"]["jobs"] == 1


# -- errors ------------------------------------------------------------------------------------

@pytest.mark.parametrize(("kwargs", "code", "message"), [
    ({"ruleset": "no-such-game", "games": 2}, 1, "no ruleset 'no-such-game'"),
    ({"ruleset": "klondike", "games": 0}, 2, "at least 1, not 0"),
    ({"ruleset": "klondike", "games": 2, "jobs": 0}, 2, "jobs must be at least 1"),
    ({"ruleset": "klondike", "games": 2, "backend": "spark"}, 2, "backend 'spark': choose local or ray"),
    ({"ruleset": "klondike", "games": 2, "address": "auto"}, 2, "give it with --backend ray"),
    ({"ruleset": "klondike", "games": 2, "seat": ["2=random"]}, 2, "seat '2': seats are 1-1"),
    ({"ruleset": "klondike", "games": 2, "seat": ["1=human"]}, 2, "plays bots only"),
    ({"ruleset": "klondike", "games": 2, "seat": ["1=wizard"]}, 2, "seat kind 'wizard'"),
    ({"ruleset": "klondike", "games": 2, "seat": ["1"]}, 2, "expected --seat SEAT=VALUE"),
    ({"ruleset": "klondike", "games": 2, "seat": ["1=random:speed=2"]}, 2, "takes turns"),
    ({"ruleset": "klondike", "games": 2, "seat": ["1=greedy", "1=random"]}, 2, "seat 1 is given twice"),
    ({"ruleset": "ten-bucks", "games": 2, "players": 9}, 2, "not 9"),
    ({"ruleset": "klondike", "games": 2, "option": ["draw"]}, 2, "expected --option NAME=VALUE"),
    ({"ruleset": "klondike", "games": 2, "option": ["draw=7"]}, 1, "option 'draw' cannot be '7'"),
])
def test_bad_arguments_are_clear_errors(kwargs: dict[str, Any], code: int, message: str) -> None:
    result, stdout, err = command(**kwargs)
    assert result == code
    assert message in err and stdout == ""


def test_missing_extras_are_named(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # as if not installed: importing it fails
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    code, _, err = command(ruleset="ten-bucks", games=2, backend="ray")
    assert code == 1 and "pip install 'cardrules[ray]'" in err
    code, _, err = command(ruleset="ten-bucks", games=2, plots=tmp_path / "charts")
    assert code == 1 and "pip install 'cardrules[plots]'" in err
    assert not (tmp_path / "charts").exists()


def test_an_error_of_the_ruleset_in_a_game_names_the_game_and_its_seed(tmp_path: Path) -> None:
    # A move's condition divides by zero once the stock is down to 20 cards: every game stops there.
    text = (ROOT / "tests" / "fixtures" / "mini.yaml").read_text(encoding="utf-8")
    path = tmp_path / "fails.yaml"
    assert 'when: "fits(card, dst)"' in text
    path.write_text(text.replace('when: "fits(card, dst)"', 'when: "fits(card, dst) and 10 % (size(stock) - 20) >= 0"'),
                    encoding="utf-8")
    code, stdout, err = command(ruleset=str(path), games=3, seed=5, seat=["1=random"])
    assert code == 1 and stdout == ""
    assert "game 1 of the run (seed 5): " in err and "division by zero" in err
    assert "Traceback" not in err


def test_an_unwritable_output_is_an_error(tmp_path: Path) -> None:
    code, _, err = command(ruleset="ten-bucks", games=2, out=tmp_path / "missing" / "sim.json")
    assert code == 1 and "cannot write" in err


def test_wilson_intervals() -> None:
    assert wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert wilson(10, 10) == pytest.approx((0.7225, 1.0), abs=1e-4)
    low, high = wilson(2.5, 10)  # a shared win counts a fraction
    assert low < 0.25 < high


def test_a_long_bot_text_is_folded_whole_into_a_narrow_summary_table() -> None:
    from cardrules.workbench.simulate import render_summary
    seat = "montecarlo:budget=3,depth=4"
    plan = prepare("ten-bucks", 2, players=2, seats=[f"1={seat}"])
    summary = summarize(plan, run_games(plan))
    out = io.StringIO()
    console = Console(file=out, width=80, highlight=False)
    for part in render_summary(summary):
        console.print(part)
    seat_rows = out.getvalue().split("Games")[0].splitlines()
    kind_cells = [line.split("│")[1].strip() for line in seat_rows if line.count("│") >= 6]
    assert "…" not in out.getvalue()
    assert seat in "".join(kind_cells) and "random" in kind_cells


def test_the_command_seats_greedy_bots_where_none_are_given_alone_at_the_table(tmp_path: Path) -> None:
    # A designer's first run should show games that can be won: greedy, not random, by default.
    out = tmp_path / "run.json"
    code, _, _ = command(ruleset="klondike", games=6, out=out, default_seat=None)
    assert code == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["seats"] == {"1": "greedy"}
    code, _, _ = command(ruleset="klondike", games=6, out=out, default_seat=None, engine="native")
    report = json.loads(out.read_text(encoding="utf-8"))
    assert code == 0 and report["seats"] == {"1": "greedy"} and report["run"]["engine"] == "native"


# -- progress where standard error is no terminal, and the charts' details ----------------------

def test_progress_is_a_plain_line_where_standard_error_is_no_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    import cardrules.workbench.simulate as simulate_module

    monkeypatch.setattr(simulate_module, "PLAIN_PROGRESS_SECONDS", 0.0)  # a line at every game
    out, err = io.StringIO(), io.StringIO()
    code = simulate_command("ten-bucks", 5, players=2, console=Console(file=out, width=120),
                            err_console=Console(file=err, width=120))
    assert code == 0
    lines = err.getvalue().splitlines()
    assert [line.split(":")[0] for line in lines] == ["ten-bucks"] * 4  # not once the run is done
    assert [line.split()[1] for line in lines] == ["1/5", "2/5", "3/5", "4/5"]
    assert all(line.endswith("games/s") for line in lines) and "\x1b" not in err.getvalue()


def test_plain_progress_prints_once_every_period() -> None:
    from cardrules.workbench.simulate import PlainProgress

    now = [0.0]
    err = io.StringIO()
    progress = PlainProgress(Console(file=err, width=120), "klondike", 100, every=10.0, clock=lambda: now[0])
    for time_now in (3.0, 9.9, 10.0, 15.0, 20.5, 40.0):
        now[0] = time_now
        progress(10)
    assert err.getvalue().splitlines() == ["klondike: 30/100 games, 3.0 games/s", "klondike: 50/100 games, 2.4 games/s",
                                           "klondike: 60/100 games, 1.5 games/s"]


def test_chart_titles_fold_to_fit_and_show_dollars_as_they_are() -> None:
    from cardrules.workbench.simulate import fit_title

    title = fit_title("Klondike (Vegas scoring, pay $52, win $5 a card): 2000 games: final scores by seat", 3)
    assert all(len(line) <= 30 for line in title.splitlines()) and len(title.splitlines()) > 1
    assert title.count(r"\$") == 2 and title.replace("\n", " ").replace(r"\$", "$").startswith("Klondike (Vegas")


def test_the_move_limit_is_marked_on_game_lengths() -> None:
    from matplotlib.figure import Figure

    from cardrules.workbench.simulate import mark_move_limit

    near, far = Figure().add_subplot(), Figure().add_subplot()
    mark_move_limit(near, 200, 200, 3)
    mark_move_limit(far, 100_000, 180, 0)
    (line,) = near.get_lines()
    assert list(line.get_xdata()) == [200, 200] and line.get_label() == "move limit 200 (3 games)"
    assert not far.get_lines() and "move limit 100,000: beyond the longest game (180)" in far.texts[0].get_text()


def test_in_a_game_of_several_seats_the_seats_not_given_are_mcts_bots_where_their_search_is_compiled(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "run.json"
    code, _, err = command(ruleset="ten-bucks", games=3, players=2, seat=["1=random"], out=out, default_seat=None)
    report = json.loads(out.read_text(encoding="utf-8"))
    assert code == 0 and report["seats"] == {"1": "random", "2": "mcts"} and "greedy bots, not mcts" not in err
    # without the native backend, greedy bots, and a line says why
    monkeypatch.setattr("cardrules.native.native_available", lambda: False)
    code, _, err = command(ruleset="ten-bucks", games=3, players=2, out=out, default_seat=None)
    report = json.loads(out.read_text(encoding="utf-8"))
    assert code == 0 and report["seats"] == {"1": "greedy", "2": "greedy"}
    assert "seats not given are greedy bots, not mcts: the native backend is not installed" in " ".join(err.split())
