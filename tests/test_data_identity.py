"""Saved data belongs to its ruleset: persistent values, saves and statistics are kept under a
key no file can forge (`ruleset.data_key`: a bundled ruleset's own name, any other file's name and
resolved path), so a file declaring a bundled ruleset's name never reads nor changes its data."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cardrules import load_ruleset
from cardrules.storage import saves
from cardrules.storage import store
from cardrules.agents.bots import make_bot, seat_seed
from cardrules.app.cli import app
from cardrules.storage.store import save_game
from cardrules.base.resources import rulesets_dir
from cardrules.model.ruleset import is_bundled

VEGAS = "klondike-vegas-cumulative"
STOLEN = -1_000_000_000_000

# Declares the bundled cumulative Vegas name and its persistent `balance`, and takes a trillion
# from it as it sets up; one draw ends the game.
STRANGER = f"""\
ruleset: {VEGAS}
deck: standard-52
variables:
  balance: {{initial: 0, persist: true}}
zones:
  stock: {{short: s}}
  waste: {{short: w}}
setup:
  - take_deck: stock
  - add: {{balance: {STOLEN}}}
moves:
  draw:
    from: stock
    to: waste
    do:
      - move: {{flip: true}}
end:
  when:
    - if: "size(waste) >= 2"
      result: won
score: balance
"""

runner = CliRunner()


def run(*args: str, input: str | None = None):
    return runner.invoke(app, list(args), input=input, env={"COLUMNS": "300"})


@pytest.fixture
def stranger(tmp_path: Path) -> str:
    path = tmp_path / f"{VEGAS}.yaml"  # its file name too is the bundled one's
    path.write_text(STRANGER, encoding="utf-8")
    return str(path)


def write_store(data: dict[str, Any]) -> None:
    path = store.store_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data), encoding="utf-8")


def stored() -> dict[str, Any]:
    return json.loads(store.store_path().read_text(encoding="utf-8"))


def test_the_bundled_ruleset_keeps_its_own_name_and_a_stranger_gets_its_path(stranger: str) -> None:
    assert store.data_key(load_ruleset(VEGAS)) == VEGAS
    assert store.data_key(load_ruleset(rulesets_dir() / f"{VEGAS}.yaml")) == VEGAS
    assert store.data_key(load_ruleset(stranger)) == f"{VEGAS} ({Path(stranger).resolve()})"


def test_a_copy_or_a_variant_of_the_bundled_ruleset_is_not_it(tmp_path: Path) -> None:
    copy = tmp_path / f"{VEGAS}.yaml"
    copy.write_text((rulesets_dir() / f"{VEGAS}.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    variant = tmp_path / "variant.yaml"
    variant.write_text(f"extends: {VEGAS}\nruleset: {VEGAS}\n", encoding="utf-8")
    for path in (copy, variant):
        rules = load_ruleset(path)
        assert rules.name == VEGAS and not is_bundled(rules)
        assert store.data_key(rules) == f"{VEGAS} ({path.resolve()})"


def test_a_strangers_game_never_changes_the_bundled_balance(stranger: str) -> None:
    write_store({VEGAS: {"balance": -37}})
    result = run("play", stranger, "--seed", "1", "--json", input="draw\ndraw\n")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["outcome"] == "won"
    data = stored()
    assert data[VEGAS] == {"balance": -37}
    assert data[store.data_key(load_ruleset(stranger))] == {"balance": STOLEN}
    assert store.load(load_ruleset(VEGAS)) == {"balance": -37}  # what the bundled game starts from


def test_the_strangers_own_balance_carries_over_apart(stranger: str) -> None:
    write_store({VEGAS: {"balance": -37}})
    for _ in range(2):
        game = load_ruleset(stranger).new_game(seed=1, persisted=store.load(load_ruleset(stranger)))
        game.apply(game.parse_move("draw"))
        game.apply(game.parse_move("draw"))
        save_game(game)  # the library's path: keyed by the game's ruleset
    assert store.load(load_ruleset(stranger)) == {"balance": 2 * STOLEN}
    assert store.load(load_ruleset(VEGAS)) == {"balance": -37}


def test_simulate_keeps_no_values(stranger: str) -> None:
    write_store({VEGAS: {"balance": -37}})
    result = run("simulate", stranger, "-n", "3")
    assert result.exit_code == 0, result.output
    assert stored() == {VEGAS: {"balance": -37}}


def test_reset_forgets_only_the_rulesets_own_values(stranger: str) -> None:
    key = store.data_key(load_ruleset(stranger))
    write_store({VEGAS: {"balance": -37}, key: {"balance": STOLEN}})
    assert run("reset", stranger).exit_code == 0
    assert stored() == {VEGAS: {"balance": -37}}
    write_store({VEGAS: {"balance": -37}, key: {"balance": STOLEN}})
    assert run("reset", VEGAS).exit_code == 0
    assert stored() == {key: {"balance": STOLEN}}


def test_statistics_are_kept_apart_and_shown_by_key(stranger: str) -> None:
    assert run("play", stranger, "--seed", "1", input="draw\ndraw\n").exit_code == 0
    key = store.data_key(load_ruleset(stranger))
    assert set(saves.read_stats()) == {key}
    assert run("stats", VEGAS, "--json").stdout.strip() == "{}"
    assert list(json.loads(run("stats", stranger, "--json").stdout)) == [key]
    assert "forgot" not in run("stats", "--reset", VEGAS).stdout
    assert set(saves.read_stats()) == {key}
    assert "forgot the statistics" in run("stats", "--reset", stranger).stdout
    assert saves.read_stats() == {}


def test_a_strangers_save_is_not_the_bundled_rulesets(stranger: str) -> None:
    assert run("play", stranger, "--seed", "1", input="draw\nsave\n").exit_code == 0
    [path] = saves.list_saves(store.data_key(load_ruleset(stranger)))
    assert path.parent != saves.saves_dir(VEGAS) and saves.list_saves(VEGAS) == []
    assert json.loads(path.read_text(encoding="utf-8"))["file"] == str(Path(stranger).resolve())
    result = run("play", VEGAS, "--resume")
    assert result.exit_code == 1 and f"no saved game of {VEGAS} to resume" in result.output


def test_a_save_put_in_the_bundled_folder_by_another_file_is_refused(stranger: str) -> None:
    assert run("play", stranger, "--seed", "1", input="draw\nsave\n").exit_code == 0
    [path] = saves.list_saves(store.data_key(load_ruleset(stranger)))
    planted = saves.saves_dir(VEGAS) / path.name
    planted.parent.mkdir(parents=True)
    path.rename(planted)
    result = run("play", VEGAS, "--resume")
    assert result.exit_code == 1, result.output
    assert "the saved game is of the ruleset" in result.output and "not of the bundled one" in result.output
    assert store.load(VEGAS) == {} and planted.exists()


def test_validate_says_whose_data_a_borrowed_name_keeps(stranger: str) -> None:
    result = run("validate", stranger)
    assert result.exit_code == 0, result.output
    key = store.data_key(load_ruleset(stranger))
    assert "is also the name of a bundled ruleset; this file is not it" in result.stdout
    assert repr(key) in result.stdout
    assert "note" not in run("validate", VEGAS).stdout


def test_values_saved_under_a_bundled_name_stay_the_bundled_rulesets(stranger: str) -> None:
    write_store({VEGAS: {"balance": -37}})
    result = run("play", VEGAS, "--seed", "3", "--seat", "1=random", "--json")
    assert result.exit_code == 0, result.output
    balance = json.loads(result.stdout)["persistent"]["balance"]
    game = load_ruleset(VEGAS).new_game(seed=3, persisted={"balance": 0})  # the same game, from $0
    bot = make_bot("random", seat_seed(3, 0))
    while not game.is_over:
        game.apply(bot.choose(game))
    assert balance == -37 + game.persistent_values()["balance"] != -37
    assert stored()[VEGAS] == {"balance": balance}
    assert store.load(load_ruleset(stranger)) == {}


def test_a_key_with_a_path_that_reorders_text_is_printed_escaped(tmp_path: Path) -> None:
    folder = tmp_path / "evil\u202efolder"
    folder.mkdir()
    path = folder / "coin.yaml"
    path.write_text(STRANGER.replace(f"ruleset: {VEGAS}", "ruleset: coin"), encoding="utf-8")
    assert run("play", str(path), "--seed", "1", input="draw\ndraw\n").exit_code == 0
    for args in (("stats",), ("stats", str(path)), ("reset", str(path)), ("stats", "--reset", str(path))):
        result = run(*args)
        assert result.exit_code == 0, (args, result.output)
        assert "\u202e" not in result.output and "evil\\u202efolder" in result.output, (args, result.output)


def test_stats_shows_a_files_key_whole_in_a_narrow_terminal(stranger: str) -> None:
    assert run("play", stranger, "--seed", "1", input="draw\ndraw\n").exit_code == 0
    table = runner.invoke(app, ["stats"], env={"COLUMNS": "80"}).stdout
    folded = "".join(line[:line.index("  ")] if "  " in line else line.strip()
                     for line in table.splitlines()[1:])  # the ruleset column, its lines joined
    assert store.data_key(load_ruleset(stranger)).replace(" ", "") in folded  # folded at its space, or anywhere
