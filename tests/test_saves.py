"""Saving and resuming games (`save`, `quit` at a terminal, `play --resume`) and the statistics
(`cardrules stats`): what is kept, what is checked when it is read back, and that several
processes at once lose nothing."""

from __future__ import annotations

import io
import json
import multiprocessing
import os
from pathlib import Path
from typing import Any

import pytest
from cardrules import load_ruleset
from cardrules.storage import saves
from cardrules.storage import store
from cardrules.app.cli import app
from cardrules.base.errors import SaveError
from cardrules.app.play import Session
from cardrules.storage.store import data_key
from rich.console import Console
from typer.testing import CliRunner

runner = CliRunner()

# Two draws end the game: won or lost as the option says; the score is the rank of the top card drawn.
COIN = """\
ruleset: coin
deck: standard-52
options:
  goal: {values: [win, lose], default: win}
zones:
  stock: {short: s}
  waste: {short: w}
setup:
  - take_deck: stock
moves:
  draw:
    from: stock
    to: waste
    do:
      - move: {flip: true}
end:
  when:
    - if: "size(waste) >= 2 and option.goal == 'win'"
      result: won
    - if: "size(waste) >= 2"
      result: lost
score: "0 if empty(waste) else top(waste).rank"
"""


def run(*args: str, input: str | None = None):
    return runner.invoke(app, list(args), input=input, env={"COLUMNS": "200"})


@pytest.fixture
def coin(tmp_path: Path) -> str:
    path = tmp_path / "coin.yaml"
    path.write_text(COIN, encoding="utf-8")
    return str(path)


def key(ruleset: str) -> str:
    """What a ruleset's saves and statistics are kept under (a bundled name, else name and path)."""
    return data_key(load_ruleset(ruleset))


def saved_files(ruleset: str) -> list[Path]:
    return saves.list_saves(key(ruleset))


# -- save and resume -------------------------------------------------------------------------

def test_save_stops_the_game_and_resume_replays_its_moves() -> None:
    result = run("play", "klondike", "--seed", "5", "-o", "draw=3", input="draw\ndraw\nsave\n")
    assert result.exit_code == 0, result.output
    assert "Resume it with: cardrules play klondike --resume" in result.output
    assert "Game over" not in result.output
    [path] = saved_files("klondike")
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["seed"] == 5 and data["options"]["draw"] == 3
    assert data["moves"] == ["draw", "draw"]

    resumed = run("play", "klondike", "--resume", "--json", input="undo\nquit\n")
    assert resumed.exit_code == 0, resumed.output
    summary = json.loads(resumed.stdout)
    assert summary["seed"] == 5 and summary["options"]["draw"] == 3
    assert summary["moves"] == data["moves"][:-1]  # the saved moves, the last one undone: undo reaches into them


def test_resume_goes_on_from_the_saved_position(coin: str) -> None:
    assert run("play", coin, "--seed", "3", input="draw\nsave\n").exit_code == 0
    result = run("play", coin, "--resume", "--json", input="draw\n")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["moves"] == ["draw", "draw"] and summary["outcome"] == "won"
    game = load_ruleset(coin).new_game(seed=3)
    game.apply(game.parse_move("draw"))
    game.apply(game.parse_move("draw"))
    assert summary["scores"] == game.scores()


def test_a_resumed_save_is_removed_once_the_game_ends(coin: str) -> None:
    run("play", coin, "--seed", "3", input="draw\nsave\n")
    assert len(saved_files(coin)) == 1
    assert run("play", coin, "--resume", input="draw\n").exit_code == 0
    assert saved_files(coin) == []


def test_a_resumed_game_saved_again_replaces_its_old_save(coin: str) -> None:
    run("play", coin, "--seed", "3", input="save\n")
    [first] = saved_files(coin)
    run("play", coin, "--resume", input="draw\nsave\n")
    [second] = saved_files(coin)
    assert second != first and json.loads(second.read_text(encoding="utf-8"))["moves"] == ["draw"]


def test_a_resumed_game_abandoned_drops_its_save_and_counts_as_lost(coin: str) -> None:
    run("play", coin, "--seed", "3", input="draw\nsave\n")
    assert run("play", coin, "--resume", input="quit\n").exit_code == 0
    assert saved_files(coin) == []
    [record] = saves.read_stats()[key(coin)].values()
    assert (record["played"], record["won"]) == (1, 0)


def test_resume_takes_the_newest_of_several_saves(coin: str) -> None:
    run("play", coin, "--seed", "3", input="save\n")
    run("play", coin, "--seed", "4", input="draw\nsave\n")
    summary = json.loads(run("play", coin, "--resume", "--json", input="quit\n").stdout)
    assert summary["seed"] == 4 and summary["moves"] == ["draw"]
    assert len(saved_files(coin)) == 1  # the older one is still there


def test_resume_keeps_the_saved_bot_seats() -> None:
    result = run("play", "ten-bucks", "--seed", "2", "--players", "3", "--seat", "2=random", "--seat", "3=greedy",
                 input="save\n")
    assert result.exit_code == 0, result.output
    [path] = saved_files("ten-bucks")
    assert json.loads(path.read_text(encoding="utf-8"))["seats"] == {"2": "random", "3": "greedy"}
    summary = json.loads(run("play", "ten-bucks", "--resume", "--json", input="quit\n").stdout)
    assert summary["seats"] == {"1": "human", "2": "random", "3": "greedy"}


def test_resume_without_a_save_says_so() -> None:
    result = run("play", "klondike", "--resume")
    assert result.exit_code == 1
    assert "no saved game of klondike" in result.output and "Traceback" not in result.output


def test_resume_refuses_options_seed_and_players() -> None:
    for extra in (["-o", "draw=3"], ["--seed", "1"], ["--players", "2"]):
        result = run("play", "klondike", "--resume", *extra)
        assert result.exit_code == 2 and "--resume plays the saved game" in result.output


def test_games_saved_at_once_by_several_processes_are_all_kept() -> None:
    context = multiprocessing.get_context("spawn")
    with context.Pool(4) as pool:
        paths = pool.map(_save_one, range(12))
    assert len(set(paths)) == 12
    assert sorted(str(p) for p in saved_files("klondike")) == sorted(paths)
    assert sorted(saves.read_save(Path(p)).seed for p in paths) == list(range(12))


def _save_one(seed: int) -> str:
    game = load_ruleset("klondike").new_game(seed=seed)
    return str(saves.write_save(saves.game_to_save(game, None, {}), "klondike"))


# -- checked when read ---------------------------------------------------------------------

def _one_save(coin: str) -> Path:
    run("play", coin, "--seed", "3", input="draw\nsave\n")
    [path] = saved_files(coin)
    return path


@pytest.mark.parametrize("change, message", [
    (lambda d: "{not json", "1:2: the saved game is corrupt"),
    (lambda d: json.dumps({**d, "moves": "draw"}), "moves: expected a list of move texts"),
    (lambda d: json.dumps({**d, "moves": ["draw", 3]}), "moves[2]: expected a move's text"),
    (lambda d: json.dumps({**d, "seed": None}), "expected a seed or a deal"),
    (lambda d: json.dumps({**d, "seed": 2 ** 70}), "seed: expected an integer"),
    (lambda d: json.dumps({**d, "players": 0}), "players: expected a number of seats"),
    (lambda d: json.dumps({**d, "cardrules_save": 99}), "cardrules_save: expected 1"),
    (lambda d: json.dumps({**d, "extra": 1}), "extra: expected no such field"),
    (lambda d: json.dumps({**d, "options": {"goal": [1]}}), "options: expected an object of option values"),
    (lambda d: json.dumps({**d, "options": {"goal": "sideways"}}), "sideways"),
    (lambda d: json.dumps({**d, "moves": ["draw", "w>s"]}), "move 2 of the saved game ('w>s') cannot be replayed"),
    (lambda d: json.dumps({**d, "moves": ["draw", "draw", "draw"]}),
     "move 3 of the saved game ('draw') cannot be replayed: the game was already over"),
])
def test_a_bad_save_is_reported_with_its_file_and_left_untouched(coin: str, change, message: str) -> None:
    path = _one_save(coin)
    text = change(json.loads(path.read_text(encoding="utf-8")))
    path.write_text(text, encoding="utf-8")
    result = run("play", coin, "--resume")
    assert result.exit_code == 1, result.output
    assert message in result.output and "Traceback" not in result.output
    assert path.read_text(encoding="utf-8") == text


def test_a_save_too_large_is_refused_unread(coin: str, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _one_save(coin)
    monkeypatch.setattr(saves, "MAX_SAVE_BYTES", 50)
    with pytest.raises(SaveError, match="larger than 50 bytes"):
        saves.read_save(path)


def test_a_save_of_another_ruleset_is_refused(coin: str) -> None:
    path = _one_save(coin)
    data = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps({**data, "ruleset": "klondike"}), encoding="utf-8")
    result = run("play", coin, "--resume")
    assert result.exit_code == 1 and "is of klondike, not of coin" in result.output


# -- quit at a terminal ----------------------------------------------------------------------

def _terminal(game, script: str):
    out = io.StringIO()
    written: list[Path] = []

    def saver() -> Path:
        written.append(Path(f"save-{len(written)}"))
        return written[-1]

    session = Session(game, {0: None}, Console(file=out, width=100), True, input=io.StringIO(script), saver=saver)
    session.run()
    return session, written, out.getvalue()


def test_quit_at_a_terminal_asks_and_enter_goes_on_playing() -> None:
    game = load_ruleset("klondike").new_game(seed=5)
    _, written, out = _terminal(game, "draw\nquit\n\ndraw\nquit\na\n")
    assert "Quit: save it to resume later (s), abandon it (a), or go on playing (Enter)?" in out
    assert len(game.history) == 2 and game.outcome == "abandoned" and written == []


def test_quit_at_a_terminal_can_save_the_game() -> None:
    game = load_ruleset("klondike").new_game(seed=5)
    session, written, out = _terminal(game, "draw\nquit\ns\n")
    assert written == [Path("save-0")] and session.saved_to == Path("save-0")
    assert not game.is_over and "Saved the game to save-0" in out


def test_quit_before_any_move_does_not_ask() -> None:
    game = load_ruleset("klondike").new_game(seed=5)
    _, written, out = _terminal(game, "quit\n")
    assert "Quit:" not in out and game.outcome == "abandoned" and written == []


def test_the_end_of_input_at_a_terminal_saves_a_game_under_way() -> None:
    game = load_ruleset("klondike").new_game(seed=5)
    _, written, _ = _terminal(game, "draw\n")
    assert written == [Path("save-0")] and not game.is_over


def test_scripted_quit_abandons_without_asking() -> None:
    result = run("play", "klondike", "--seed", "5", "--json", input="draw\nquit\n")
    assert json.loads(result.stdout)["outcome"] == "abandoned"
    assert saved_files("klondike") == []


# -- statistics ------------------------------------------------------------------------------

def test_stats_count_games_wins_streaks_and_the_best_score(coin: str) -> None:
    scores = []
    for seed in (1, 2, 3):
        summary = json.loads(run("play", coin, "--seed", str(seed), "--json", input="draw\ndraw\n").stdout)
        assert summary["outcome"] == "won"
        scores.append(summary["scores"][0])
    run("play", coin, "--seed", "4", "-o", "goal=lose", input="draw\ndraw\n")
    data = saves.read_stats()[key(coin)]
    assert data["goal=win"] == {"played": 3, "won": 3, "streak": 3, "best_streak": 3, "best_score": max(scores)}
    assert data["goal=lose"]["played"] == 1 and data["goal=lose"]["won"] == 0
    table = run("stats").stdout
    assert "coin" in table and "goal=win" in table and "100" in table


def test_a_loss_ends_the_streak_but_not_the_longest(coin: str) -> None:
    ruleset = load_ruleset(coin)
    for won in (True, True, False, True):
        record = saves.record_result(ruleset, 1, won, None)
    assert (record["played"], record["won"], record["streak"], record["best_streak"]) == (4, 3, 1, 2)


def test_the_best_score_follows_the_score_order(tmp_path: Path) -> None:
    path = tmp_path / "low.yaml"
    path.write_text(COIN + "score_order: lower\n", encoding="utf-8")
    ruleset = load_ruleset(str(path))
    for score in (7, 3, 9):
        record = saves.record_result(ruleset, 1, True, score)
    assert record["best_score"] == 3


def test_a_saved_game_is_not_counted_until_it_ends(coin: str) -> None:
    run("play", coin, "--seed", "3", input="draw\nsave\n")
    assert key(coin) not in saves.read_stats()
    run("play", coin, "--resume", input="draw\n")
    assert saves.read_stats()[key(coin)]["goal=win"]["won"] == 1


def test_a_multiseat_game_counts_the_human_seats_win() -> None:
    result = run("play", "ten-bucks", "--seed", "2", "--players", "3", "--seat", "2=random", "--seat", "3=random",
                 "--seat", "1=random", "--json")
    assert result.exit_code == 0
    assert "ten-bucks" not in saves.read_stats()  # no human: nothing to count
    ruleset = load_ruleset("ten-bucks")
    game = ruleset.new_game(seed=2, players=2)
    from cardrules.agents.bots import make_bot

    bot = make_bot("random", 1)
    while not game.is_over:
        game.apply(bot.choose(game))
    from cardrules.app.play import count_result

    record = count_result(game, 0)
    assert record["won"] == (1 if 0 in (game.winners() or []) else 0)
    assert record["best_score"] == game.scores()[0]


def test_stats_reset_forgets_one_ruleset(coin: str) -> None:
    run("play", coin, "--seed", "1", input="draw\ndraw\n")
    saves.record_result(load_ruleset("klondike"), 1, False, 0)
    result = run("stats", "--reset", coin)
    assert result.exit_code == 0 and "forgot the statistics of coin" in result.stdout
    assert set(saves.read_stats()) == {"klondike"}


def test_stats_json_and_one_ruleset(coin: str) -> None:
    run("play", coin, "--seed", "1", input="draw\ndraw\n")
    saves.record_result(load_ruleset("klondike"), 1, False, 0)
    data = json.loads(run("stats", "klondike", "--json").stdout)
    assert list(data) == ["klondike"]


def test_a_corrupt_stats_file_is_reported_and_never_overwritten(coin: str) -> None:
    path = saves.stats_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    for text, message in [("[1, 2", "stats.json:1:6"), ('{"coin": {"goal=win": {"played": -1}}}', "expected a count"),
                          ('{"coin": {"goal=win": {"played": 1, "won": 2, "streak": 0, "best_streak": 0}}}',
                           "more won than played")]:
        path.write_text(text, encoding="utf-8")
        result = run("play", coin, "--seed", "1", input="draw\ndraw\n")
        assert result.exit_code == 1 and message in result.output and "Traceback" not in result.output
        assert path.read_text(encoding="utf-8") == text
        assert run("stats").exit_code == 1


def test_results_of_games_ending_at_once_in_several_processes_all_count(coin: str) -> None:
    context = multiprocessing.get_context("spawn")
    with context.Pool(4) as pool:
        pool.starmap(_count_one, [(coin, os.environ["CARDRULES_HOME"], seed) for seed in range(16)])
    assert saves.read_stats()[key(coin)]["goal=win"]["played"] == 16


def _count_one(coin: str, home: str, seed: int) -> None:
    os.environ["CARDRULES_HOME"] = home
    saves.record_result(load_ruleset(coin), 1, seed % 2 == 0, seed)


def test_a_game_on_the_clock_counts_in_the_statistics_too() -> None:
    result = run("play", "nerts", "--seed", "3", "--seat", "2=greedy:speed=0.5", input="1\nquit\n")
    assert result.exit_code == 0, result.output
    [record] = saves.read_stats()["nerts"].values()
    assert (record["played"], record["won"]) == (1, 0)


# -- one resume at a time ----------------------------------------------------------------------

# Costs 52 when it is set up (the change a game's end applies to the kept balance); two draws end it.
PAID = COIN.replace("ruleset: coin", "ruleset: paid").replace(
    "zones:", "variables:\n  balance: {initial: 0, persist: true}\nzones:").replace(
    "  - take_deck: stock", "  - take_deck: stock\n  - add: {balance: -52}")


def test_a_save_being_played_is_refused_to_a_second_resume(coin: str) -> None:
    path = _one_save(coin)
    with saves.claim(path):
        result = run("play", coin, "--resume", input="draw\n")
        assert result.exit_code == 1, result.output
        assert "this saved game is being played in another cardrules process" in result.output
        assert "Traceback" not in result.output
    assert saved_files(coin) == [path]  # untouched: resumed once free
    assert run("play", coin, "--resume", input="draw\n").exit_code == 0
    assert saved_files(coin) == []


def test_a_save_resumed_by_several_processes_at_once_is_counted_once(tmp_path: Path) -> None:
    ruleset = tmp_path / "paid.yaml"
    ruleset.write_text(PAID, encoding="utf-8")
    assert run("play", str(ruleset), "--seed", "3", input="draw\nsave\n").exit_code == 0
    context = multiprocessing.get_context("spawn")
    start, results = context.Barrier(3), context.Queue()
    workers = [context.Process(target=_resume_one, args=(str(ruleset), os.environ["CARDRULES_HOME"], start, results))
               for _ in range(3)]
    for worker in workers:
        worker.start()
    outcomes = [results.get(timeout=120) for _ in workers]
    for worker in workers:
        worker.join()
    assert sorted(code for code, _ in outcomes) == [0, 1, 1]
    for code, output in outcomes:
        assert code == 0 or ("being played in another cardrules process" in output
                             or "no saved game of paid" in output), output  # the first may have finished
    assert store.load(key(str(ruleset))) == {"balance": -52}
    [record] = saves.read_stats()[key(str(ruleset))].values()
    assert (record["played"], record["won"]) == (1, 1)
    assert saved_files(str(ruleset)) == []


def _resume_one(ruleset: str, home: str, start: Any, results: Any) -> None:
    os.environ["CARDRULES_HOME"] = home
    start.wait()
    result = runner.invoke(app, ["play", ruleset, "--resume", "--json"], input="draw\n")
    results.put((result.exit_code, result.output))
