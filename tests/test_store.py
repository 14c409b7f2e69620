"""The store of `persist` values: parallel games all count (each applies its change under a
lock), saved values are checked strictly (corrupt ones are reported, never overwritten), and a
held lock makes a save wait, then fail clearly."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from filelock import FileLock
from typer.testing import CliRunner

from cardrules import load_ruleset
from cardrules.storage import store
from cardrules.agents.bots import make_bot
from cardrules.app.cli import app
from cardrules.python.engine import Game
from cardrules.base.errors import SaveError
from cardrules.storage.store import save_game

VEGAS = "klondike-vegas-cumulative"
MATCH = "nerts-match"


def write_store(data: dict[str, Any] | str) -> Path:
    path = store.store_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def saved() -> dict[str, Any]:
    return json.loads(store.store_path().read_text(encoding="utf-8"))


def played(seed: int, persisted: dict[str, Any] | None) -> Game:
    """A cumulative Vegas game played to its end by a random bot (not yet saved)."""
    game = load_ruleset(VEGAS).new_game(seed=seed, persisted=persisted)
    bot = make_bot("random", seed)
    while not game.is_over:
        game.apply(bot.choose(game))
    return game


# -- parallel games all count ---------------------------------------------------------------

def test_parallel_cli_games_on_one_store_all_count(tmp_path: Path) -> None:
    home = tmp_path / "home"
    env = {**os.environ, "CARDRULES_HOME": str(home)}
    procs = [subprocess.Popen([sys.executable, "-m", "cardrules.app.cli", "play", VEGAS, "--seat", "1=random",
                               "--seed", str(k), "--json"], env=env, stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for k in range(1, 13)]
    changes = []
    for proc in procs:
        out, err = proc.communicate(timeout=600)
        assert proc.returncode == 0, err
        summary = json.loads(out)
        changes.append(summary["scores"][0])  # the ruleset adds the score to the balance at the end
    assert len(set(changes)) > 1  # the games really differ
    assert json.loads((home / "persistent.json").read_text())[VEGAS]["balance"] == sum(changes)


def test_parallel_threads_saving_changes_all_count() -> None:
    write_store({VEGAS: {"balance": 1000}})
    deltas = list(range(-8, 12))
    threads = [threading.Thread(target=store.save, args=(VEGAS, {"balance": 1000}, {"balance": 1000 + d}))
               for d in deltas]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert saved()[VEGAS]["balance"] == 1000 + sum(deltas)


# -- a game's change, not its end value ------------------------------------------------------

@pytest.mark.parametrize("order", [(0, 1), (1, 0)])
def test_two_games_from_the_same_saved_value_both_count_in_either_order(order: tuple[int, int]) -> None:
    write_store({VEGAS: {"balance": 250}})
    rules = load_ruleset(VEGAS)
    games = [played(seed, store.load(rules)) for seed in (1, 2)]
    assert [g.persisted_start for g in games] == [{"balance": 250}] * 2
    for index in order:
        save_game(games[index])
    assert saved()[VEGAS]["balance"] == 250 + games[0].scores()[0] + games[1].scores()[0]


def test_the_start_is_taken_before_setup_and_on_start_and_survives_clone() -> None:
    rules = load_ruleset(MATCH)
    game = rules.new_game(seed=1, persisted={"total": [104, 30], "match_over": True})
    assert game.persistent_values() == {"total": [0, 0], "match_over": False}  # on_start began a new match
    assert game.persisted_start == {"total": [104, 30], "match_over": True}
    assert game.clone().persisted_start == game.persisted_start
    assert rules.new_game(seed=1).persisted_start == {"total": [0, 0], "match_over": False}


def test_a_new_match_after_a_finished_one_saves_the_new_totals() -> None:
    write_store({MATCH: {"total": [104, 30], "match_over": True}})
    store.save(MATCH, {"total": [104, 30], "match_over": True}, {"total": [14, -18], "match_over": False})
    assert saved()[MATCH] == {"total": [14, -18], "match_over": False}


def test_per_player_totals_change_seat_by_seat() -> None:
    write_store({MATCH: {"total": [10, 20], "match_over": False}})
    start = {"total": [10, 20], "match_over": False}
    store.save(MATCH, start, {"total": [24, 2], "match_over": False})
    store.save(MATCH, start, {"total": [10, 35], "match_over": False})
    assert saved()[MATCH] == {"total": [24, 17], "match_over": False}


def test_a_saved_list_shorter_than_the_seats_is_extended_with_the_start_values() -> None:
    write_store({MATCH: {"total": [10]}})
    store.save(MATCH, {"total": [10, 0, 0]}, {"total": [12, 5, -3]})
    assert saved()[MATCH]["total"] == [12, 5, -3]


def test_a_saved_list_longer_than_the_seats_keeps_its_other_seats() -> None:
    write_store({MATCH: {"total": [1, 2, 3]}})
    store.save(MATCH, {"total": [1, 2]}, {"total": [4, 2]})
    assert saved()[MATCH]["total"] == [4, 2, 3]


def test_a_bool_is_written_only_when_the_game_changed_it() -> None:
    write_store({MATCH: {"total": [0, 0], "match_over": False}})
    ends_match = ({"total": [0, 0], "match_over": False}, {"total": [100, 0], "match_over": True})
    goes_on = ({"total": [0, 0], "match_over": False}, {"total": [5, 0], "match_over": False})
    store.save(MATCH, *ends_match)
    store.save(MATCH, *goes_on)  # ended later, but it did not touch match_over
    assert saved()[MATCH] == {"total": [105, 0], "match_over": True}


def test_a_game_without_a_change_writes_nothing() -> None:
    store.save(VEGAS, {"balance": 0}, {"balance": 0})
    assert not store.store_path().exists()


def test_other_rulesets_and_unknown_variables_are_kept_but_ignored() -> None:
    write_store({VEGAS: {"balance": 5, "retired": [1, 2]}, "klondike": {"balance": -7}})
    assert store.load(load_ruleset(VEGAS)) == {"balance": 5}
    store.save(VEGAS, {"balance": 5}, {"balance": 8})
    assert saved() == {VEGAS: {"balance": 8, "retired": [1, 2]}, "klondike": {"balance": -7}}


def test_a_change_that_would_leave_the_64_bit_range_is_refused() -> None:
    path = write_store({VEGAS: {"balance": 2**63 - 10}})
    before = path.read_bytes()
    with pytest.raises(SaveError, match="outside the 64-bit integer range"):
        store.save(VEGAS, {"balance": 0}, {"balance": 100})
    assert path.read_bytes() == before


# -- corrupt values are reported and never overwritten --------------------------------------

BIG = "1" + "0" * 4999
CORRUPT = {  # id: (ruleset, the file's text)
    "nan": (VEGAS, '{"%s": {"balance": NaN}}' % VEGAS),
    "infinity": (VEGAS, '{"%s": {"balance": Infinity}}' % VEGAS),
    "minus-infinity": (VEGAS, '{"%s": {"balance": -Infinity}}' % VEGAS),
    "huge-float": (VEGAS, '{"%s": {"balance": 1e400}}' % VEGAS),
    "float": (VEGAS, '{"%s": {"balance": 1.5}}' % VEGAS),
    "bool-for-int": (VEGAS, '{"%s": {"balance": true}}' % VEGAS),
    "null": (VEGAS, '{"%s": {"balance": null}}' % VEGAS),
    "5000-digits": (VEGAS, '{"%s": {"balance": %s}}' % (VEGAS, BIG)),
    "2**63": (VEGAS, '{"%s": {"balance": %d}}' % (VEGAS, 2**63)),
    "below-int64": (VEGAS, '{"%s": {"balance": %d}}' % (VEGAS, -2**63 - 1)),
    "string": (VEGAS, '{"%s": {"balance": "12"}}' % VEGAS),
    "list-for-single": (VEGAS, '{"%s": {"balance": [12]}}' % VEGAS),
    "object-for-single": (VEGAS, '{"%s": {"balance": {"v": 1}}}' % VEGAS),
    "single-for-per-player": (MATCH, '{"%s": {"total": 5}}' % MATCH),
    "bool-in-list": (MATCH, '{"%s": {"total": [1, true]}}' % MATCH),
    "float-in-list": (MATCH, '{"%s": {"total": [1, 2.5]}}' % MATCH),
    "list-in-list": (MATCH, '{"%s": {"total": [[1], 2]}}' % MATCH),
    "int-for-bool": (MATCH, '{"%s": {"total": [1, 2], "match_over": 1}}' % MATCH),
    "null-for-bool": (MATCH, '{"%s": {"total": [1, 2], "match_over": null}}' % MATCH),
}


def change_of(ruleset: str) -> tuple[dict[str, Any], dict[str, Any]]:
    if ruleset == VEGAS:
        return {"balance": 0}, {"balance": -52}
    return {"total": [0, 0], "match_over": False}, {"total": [14, -18], "match_over": True}


@pytest.mark.parametrize("ruleset,text", CORRUPT.values(), ids=CORRUPT.keys())
def test_each_corrupt_value_is_reported_and_the_file_left_untouched(ruleset: str, text: str) -> None:
    path = write_store(text)
    before = path.read_bytes()
    with pytest.raises(SaveError) as error:
        store.load(load_ruleset(ruleset))
    message = str(error.value)
    assert str(path) in message and "corrupt" in message and ruleset in message
    assert "`balance`" in message or "`total`" in message or "`match_over`" in message
    assert path.read_bytes() == before
    with pytest.raises(SaveError, match="corrupt"):
        store.save(ruleset, *change_of(ruleset))  # a game's attempted save
    assert path.read_bytes() == before
    assert sorted(p.name for p in path.parent.iterdir() if p.name != "persistent.json.lock") == ["persistent.json"]


@pytest.mark.parametrize("ruleset,text", [CORRUPT[k] for k in ("nan", "5000-digits", "bool-for-int", "string",
                                                                  "single-for-per-player")])
def test_play_on_a_corrupt_value_exits_1_with_the_message_and_no_traceback(ruleset: str, text: str) -> None:
    path = write_store(text)
    before = path.read_bytes()
    result = CliRunner().invoke(app, ["play", ruleset, "--seat", "1=random", "--seed", "1"])
    assert result.exit_code == 1
    assert f"{path}: the saved values are corrupt" in result.stderr and ruleset in result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    assert isinstance(result.exception, SystemExit)
    assert path.read_bytes() == before


def test_a_store_bigger_than_the_bound_is_reported_not_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store, "MAX_BYTES", 100)
    path = write_store({VEGAS: {"balance": 1, "padding": list(range(100))}})
    with pytest.raises(SaveError, match="corrupt .*larger than 100 bytes"):
        store.load(load_ruleset(VEGAS))
    with pytest.raises(SaveError, match="larger than"):
        store.save(VEGAS, {"balance": 0}, {"balance": 1})
    assert json.loads(path.read_text())[VEGAS]["balance"] == 1


@pytest.mark.parametrize("text", ["[" * 100_000 + "]" * 100_000, '{"x": ' * 100_000 + "1" + "}" * 100_000,
                                  "\xff\xfe{}"])
def test_deeply_nested_or_undecodable_json_is_reported_as_corrupt(text: str) -> None:
    path = store.store_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("latin-1"))
    with pytest.raises(SaveError, match=re.escape(f"{path}: the saved values are corrupt")):
        store.load(load_ruleset(VEGAS))


def test_values_a_ruleset_does_not_have_are_still_checked_as_integers_or_bools() -> None:
    path = write_store({"klondike": {"balance": 1.5}, VEGAS: {"balance": 3}})
    with pytest.raises(SaveError, match=r"klondike, variable `balance`: 1\.5"):
        store.load(load_ruleset(VEGAS))
    assert json.loads(path.read_text())["klondike"]["balance"] == 1.5


def test_reset_copies_a_corrupt_store_aside_and_starts_afresh() -> None:
    path = write_store('{"%s": {"balance": NaN}}' % VEGAS)
    backup = store.reset(VEGAS)
    assert backup is not None and backup.read_text() == '{"%s": {"balance": NaN}}' % VEGAS
    assert saved() == {}
    assert store.load(load_ruleset(VEGAS)) == {}
    assert path.exists()


# -- a held lock --------------------------------------------------------------------------------

def test_a_held_lock_makes_save_wait_then_fail_clearly(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store, "LOCK_TIMEOUT", 0.5)
    path = write_store({VEGAS: {"balance": 7}})
    lock = store.lock_path(path)
    with FileLock(lock):
        began = time.monotonic()
        with pytest.raises(SaveError) as error:
            store.save(VEGAS, {"balance": 7}, {"balance": 9})
        assert time.monotonic() - began >= 0.4
    message = str(error.value)
    assert f"another cardrules process holds {path}" in message and str(lock) in message
    assert saved()[VEGAS]["balance"] == 7


def test_a_save_waits_for_a_lock_that_is_released_in_time() -> None:
    path = write_store({VEGAS: {"balance": 7}})
    lock = FileLock(store.lock_path(path), thread_local=False)  # released by another thread
    lock.acquire()
    releaser = threading.Timer(0.5, lock.release)
    releaser.start()
    began = time.monotonic()
    store.save(VEGAS, {"balance": 7}, {"balance": 9})
    assert time.monotonic() - began >= 0.4
    releaser.join()
    assert saved()[VEGAS]["balance"] == 9
