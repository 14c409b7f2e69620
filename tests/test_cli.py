"""The `cardrules` command: play (scripted and all-bot), validate, list, schema, reset."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardrules import load_ruleset
from cardrules.app.cli import app
from conftest import ROOT

runner = CliRunner()


def run(*args: str, input: str | None = None):  # noqa: A002 - mirrors CliRunner
    return runner.invoke(app, list(args), input=input, env={"COLUMNS": "200"})


# -- list, schema, validate ----------------------------------------------------------------

def test_list_shows_bundled_rulesets_with_descriptions_and_options() -> None:
    result = run("list")
    assert result.exit_code == 0
    assert "klondike" in result.stdout
    assert "The classic solitaire" in result.stdout
    assert "scoring=standard" in result.stdout


def test_list_shows_each_options_allowed_values() -> None:
    lines = run("list").stdout.splitlines()
    row = next(i for i, line in enumerate(lines) if line.split()[:1] == ["klondike"])
    block = "\n".join(lines[row:row + 3])
    assert "draw=1 (1|3)" in block and "scoring=standard (none|standard|vegas)" in block
    assert "cumulative=false (false|true)" in block


def test_help_names_every_bot_kind_and_no_python_types() -> None:
    from cardrules.agents.bots import BOT_KINDS

    for command in ("play", "simulate"):
        text = " ".join(run(command, "--help").stdout.split())
        for kind in BOT_KINDS:
            assert kind in text, (command, kind)
        assert "<list[" not in text and "<bool>" not in text and "<path>" not in text
    assert "human" in " ".join(run("play", "--help").stdout.split())


def test_shell_completion_is_offered() -> None:
    text = run("--help").stdout
    assert "--install-completion" in text and "--show-completion" in text


def test_list_shows_what_each_variant_extends_and_its_defaults() -> None:
    lines = run("list").stdout.splitlines()
    row = next(line for line in lines if line.split()[:1] == ["klondike-vegas-cumulative"])
    assert row.split()[1:] == ["1", "player", "extends", "klondike-vegas"]
    block = "\n".join(lines[lines.index(row):lines.index(row) + 4])
    assert "scoring=vegas" in block and "cumulative=true" in block


def test_schema_prints_the_ruleset_json_schema() -> None:
    result = run("schema")
    assert result.exit_code == 0
    schema = json.loads(result.stdout)
    assert schema["title"] == "cardrules ruleset"
    assert {"moves", "zones", "setup", "end"} <= set(schema["properties"])


def test_schema_deck_prints_the_deck_schema() -> None:
    schema = json.loads(run("schema", "--deck").stdout)
    assert schema["title"] == "cardrules deck"


def test_validate_accepts_every_bundled_ruleset() -> None:
    names = [p.stem for p in (ROOT / "rulesets").glob("*.yaml")]
    result = run("validate", *names)
    assert result.exit_code == 0, result.stderr
    for name in names:
        assert f"ok  {name}" in result.stdout


def _broken_copy(tmp_path: Path, old: str, new: str) -> Path:
    text = (ROOT / "rulesets" / "klondike.yaml").read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "broken.yaml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def _line_col(path: Path, needle: str, offset: int = 0) -> str:
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if needle in line:
            return f"{number}:{line.index(needle) + offset + 1}"
    raise AssertionError(needle)


def test_validate_reports_an_unknown_zone_at_its_line_and_column(tmp_path: Path) -> None:
    path = _broken_copy(tmp_path, 'when: "empty(stock) and may_redeal()"', 'when: "empty(stok) and may_redeal()"')
    result = run("validate", str(path))
    assert result.exit_code == 1
    where = _line_col(path, "stok")
    assert f"{path}:{where}: unknown name 'stok'" in result.stderr
    assert "^" in result.stderr and "Traceback" not in result.stderr


def test_validate_reports_a_dsl_syntax_error_at_the_character(tmp_path: Path) -> None:
    path = _broken_copy(tmp_path, 'when: "fits_foundation(card, dst)"', 'when: "fits_foundation(card, dst) and"')
    result = run("validate", str(path))
    assert result.exit_code == 1
    where = _line_col(path, "dst) and", len("dst) and"))
    assert f"{path}:{where}: unexpected the end of the expression" in result.stderr


def test_validate_reports_a_schema_error_at_the_unknown_key(tmp_path: Path) -> None:
    path = _broken_copy(tmp_path, "    take: run\n", "    take: run\n    tkae: top\n")
    result = run("validate", str(path))
    assert result.exit_code == 1
    assert f"{path}:{_line_col(path, 'tkae')}: unknown key 'tkae'" in result.stderr


def test_validate_reports_a_yaml_syntax_error(tmp_path: Path) -> None:
    path = _broken_copy(tmp_path, "  stock: {short: s, show: stack}", "  stock: {short: s, show: stack")
    result = run("validate", str(path))
    assert result.exit_code == 1
    assert f"{path}:" in result.stderr and "YAML syntax error" in result.stderr


def test_validate_checks_every_file_and_fails_if_any_is_broken(tmp_path: Path) -> None:
    path = _broken_copy(tmp_path, "count: 7", "count: seven")
    result = run("validate", "klondike", str(path))
    assert result.exit_code == 1
    assert "ok  klondike" in result.stdout
    assert f"{path}:{_line_col(path, 'seven')}" in result.stderr


# -- play: scripted -------------------------------------------------------------------------

def test_play_scripted_applies_moves_by_text_and_number() -> None:
    game = load_ruleset("klondike").new_game(seed=5)
    second = sorted(str(m) for m in game.legal_moves())
    result = run("play", "klondike", "--seed", "5", "--json", input="draw\n1\n")
    assert result.exit_code == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["moves"][0] == "draw"
    game.apply(game.parse_move("draw"))
    assert summary["moves"][1] == str(game.legal_moves()[0])
    assert summary["outcome"] == "abandoned"  # the input ended before the game did
    assert second  # the first position has moves


def test_play_scripted_undo_takes_back_the_last_move() -> None:
    result = run("play", "klondike", "--seed", "5", "--json", input="draw\ndraw\nundo\n")
    assert json.loads(result.stdout)["moves"] == ["draw"]


def test_play_scripted_redo_plays_again_what_undo_took_back() -> None:
    result = run("play", "klondike", "--seed", "5", "--json", input="draw\ndraw\nundo\nredo\n")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["moves"] == ["draw", "draw"]
    twice = run("play", "klondike", "--seed", "5", "--json", input="draw\ndraw\nundo\nundo\nredo\nredo\n")
    assert json.loads(twice.stdout)["moves"] == ["draw", "draw"]


def test_play_scripted_redo_is_gone_once_another_move_is_made() -> None:
    result = run("play", "klondike", "--seed", "5", "--json", input="draw\nundo\ndraw\nredo\n")
    assert result.exit_code == 1
    assert "<stdin>:4: there is nothing to redo" in result.stderr
    fresh = run("play", "klondike", "--seed", "5", input="redo\n")
    assert "there is nothing to redo" in fresh.stderr


def test_play_scripted_hint_suggests_a_legal_move() -> None:
    result = run("play", "klondike", "--seed", "5", input="hint\nquit\n")
    assert result.exit_code == 0
    hinted = [line for line in result.stdout.splitlines() if line.startswith("hint: ")][0].split()[1]
    game = load_ruleset("klondike").new_game(seed=5)
    assert hinted in [str(m) for m in game.legal_moves()]


def test_play_scripted_illegal_move_stops_with_the_input_line() -> None:
    result = run("play", "klondike", "--seed", "5", input="draw\nt1>f4x\n")
    assert result.exit_code == 1
    assert "<stdin>:2: 't1>f4x' is not a legal move now" in result.stderr
    assert "Traceback" not in result.stderr


def test_play_prints_the_table_with_suit_symbols_and_backs() -> None:
    result = run("play", "klondike", "--seed", "5", input="quit\n")
    assert "▒▒" in result.stdout
    assert any(s in result.stdout for s in "♣♦♥♠")
    assert "Game over: abandoned" in result.stdout


# -- play: bots -----------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["random", "greedy"])
def test_play_all_bots_plays_to_the_end_and_reports_json(kind: str) -> None:
    result = run("play", "klondike", "--seed", "11", "--seat", f"1={kind}", "--json")
    assert result.exit_code == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["outcome"] in ("won", "lost", "limit")
    assert summary["seed"] == 11 and summary["seats"] == {"1": kind}
    assert summary["move_count"] == len(summary["moves"]) > 0
    again = json.loads(run("play", "klondike", "--seed", "11", "--seat", f"1={kind}", "--json").stdout)
    assert again == summary  # same seed, same game


def test_play_json_summary_replays_through_the_api() -> None:
    summary = json.loads(run("play", "klondike", "--seed", "3", "--seat", "1=greedy", "--json",
                             "-o", "draw=3", "-o", "scoring=vegas").stdout)
    assert summary["options"] == {"draw": 3, "scoring": "vegas", "cumulative": False}
    game = load_ruleset("klondike", options=summary["options"]).new_game(seed=3)
    for text in summary["moves"]:
        game.apply(game.parse_move(text))
    assert game.scores() == summary["scores"] and game.outcome == summary["outcome"]


def test_play_from_a_deal_file_uses_that_card_order() -> None:
    deal = ROOT / "examples" / "klondike-easy.deal"
    result = run("play", "klondike", "--deal", str(deal), "--seat", "1=greedy", "--json")
    summary = json.loads(result.stdout)
    codes = [w for line in deal.read_text().splitlines() for w in line.split("#")[0].split()]
    assert summary["deal"] == codes
    assert summary["outcome"] == "won"


def test_play_rejects_a_deal_file_with_an_unknown_card(tmp_path: Path) -> None:
    deal = tmp_path / "bad.deal"
    deal.write_text("AS 2S\n3S ZZ\n")
    result = run("play", "klondike", "--deal", str(deal))
    assert result.exit_code == 1
    assert f"{deal}:2:4: 'ZZ' is not a card of the standard-52 deck" in result.stderr


def test_play_rejects_a_bad_option_value() -> None:
    result = run("play", "klondike", "--option", "draw=5")
    assert result.exit_code == 1
    assert "option 'draw' cannot be '5' (choose from: 1, 3)" in result.stderr


def test_play_rejects_an_unknown_option() -> None:
    result = run("play", "klondike", "--option", "speed=fast")
    assert result.exit_code == 1
    assert "klondike has no option 'speed'" in result.stderr


def test_play_rejects_an_unknown_seat_kind() -> None:
    result = run("play", "klondike", "--seat", "1=genius")
    assert result.exit_code != 0
    assert "genius" in result.stderr


def test_play_rejects_seed_and_deal_together() -> None:
    result = run("play", "klondike", "--seed", "1", "--deal", "x.deal")
    assert result.exit_code == 2


def test_play_unknown_ruleset_names_the_bundled_ones() -> None:
    result = run("play", "klondyke")
    assert result.exit_code == 1
    assert "no ruleset 'klondyke'" in result.stderr and "klondike" in result.stderr


# -- cumulative Vegas through the CLI -------------------------------------------------------

VEGAS = ("-o", "scoring=vegas", "-o", "cumulative=true", "--seat", "1=greedy", "--json")


def test_cumulative_vegas_balance_carries_over_and_resets(private_store: Path) -> None:
    first = json.loads(run("play", "klondike", "--seed", "1", *VEGAS).stdout)
    second = json.loads(run("play", "klondike", "--seed", "2", *VEGAS).stdout)
    assert first["persistent"]["balance"] == first["scores"][0]
    assert second["persistent"]["balance"] == first["scores"][0] + second["scores"][0]
    stored = json.loads((private_store / "persistent.json").read_text())
    assert stored["klondike"]["balance"] == second["persistent"]["balance"]
    result = run("reset", "klondike")
    assert result.exit_code == 0
    third = json.loads(run("play", "klondike", "--seed", "1", *VEGAS).stdout)
    assert third["persistent"]["balance"] == first["scores"][0]


def test_non_cumulative_vegas_leaves_the_balance_alone() -> None:
    json.loads(run("play", "klondike", "--seed", "1", *VEGAS).stdout)
    plain = json.loads(run("play", "klondike", "--seed", "2", "-o", "scoring=vegas", "--seat", "1=greedy",
                           "--json").stdout)
    first = json.loads(run("play", "klondike", "--seed", "1", "-o", "scoring=vegas", "--seat", "1=greedy",
                           "--json").stdout)
    assert plain["persistent"]["balance"] == first["persistent"]["balance"]


def test_a_corrupt_store_is_reported_and_left_untouched(private_store: Path) -> None:
    store = private_store / "persistent.json"
    store.write_text('{"klondike": {"balance": 12')
    result = run("play", "klondike", "--seed", "1", *VEGAS)
    assert result.exit_code == 1
    assert f"{store}:1:" in result.stderr and "corrupt" in result.stderr
    assert store.read_text() == '{"klondike": {"balance": 12'
    reset = run("reset", "klondike")
    assert reset.exit_code == 0 and "a copy is at" in reset.stdout
    assert list(private_store.glob("persistent.corrupt-*.json"))


def test_validate_checks_deck_files_too(tmp_path: Path) -> None:
    decks = sorted(str(p) for p in (ROOT / "rulesets" / "decks").glob("*.yaml"))
    result = run("validate", *decks)
    assert result.exit_code == 0 and result.stdout.count("ok  ") == len(decks)
    broken = tmp_path / "bad-deck.yaml"
    broken.write_text("deck: bad\nattributes: {value: int}\ncards:\n  - {value: one}\ncode: \"{value}\"\n")
    result = run("validate", str(broken))
    assert result.exit_code == 1
    assert "attribute 'value' should be int, got 'one'" in result.stderr and f"{broken}:4:13:" in result.stderr


@pytest.mark.parametrize("ruleset,options", [("dollartaire", []), ("cascades", ["-o", "extended=true"]),
                                             ("cascades-v2", [])])
def test_every_solitaire_plays_to_the_end_with_bots(ruleset: str, options: list[str]) -> None:
    result = run("play", ruleset, "--seed", "6", "--seat", "1=greedy", "--json", *options)
    assert result.exit_code == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["outcome"] in ("won", "lost", "over", "limit") and summary["move_count"] > 0
    game = load_ruleset(ruleset, options=summary["options"]).new_game(seed=6)
    for text in summary["moves"]:
        game.apply(game.parse_move(text))
    assert game.scores() == summary["scores"]


def test_dollartaire_scripted_play_shows_bills_and_the_wallet() -> None:
    game = load_ruleset("dollartaire").new_game(seed=3)
    withdrawal = next(str(m) for m in game.legal_moves() if str(m).startswith("withdraw:"))
    result = run("play", "dollartaire", "--seed", "3", input=f"{withdrawal}\nquit\n")
    assert result.exit_code == 0, result.stderr
    assert "$50" in result.stdout and "Wallet: 100" in result.stdout
    assert "Poor House" in result.stdout  # the label shown with the result


def test_cascades_scripted_play_shows_decktet_cards_and_tiers() -> None:
    result = run("play", "cascades-v2", "--seed", "4", input="draw\nquit\n")
    assert result.exit_code == 0, result.stderr
    assert "Ace ☾" in result.stdout or "Ace ☀" in result.stdout
    assert all(f"t{i}" in result.stdout for i in (1, 2, 3))


@pytest.mark.parametrize("ruleset, args", [("klondike", []), ("ten-bucks", ["--players", "2", "--seat", "2=random"]),
                                           ("cascades", []), ("dollartaire", [])])
def test_help_shows_an_example_move_of_the_game_at_hand(ruleset: str, args: list[str]) -> None:
    result = run("play", ruleset, "--seed", "5", *args, "--json", input="help\nquit\n")
    line = next(line for line in result.output.splitlines() if "play a move by its text" in line)
    example = line.split("e.g. ", 1)[1].split(" or ")[0].split(" (")[0].strip()
    game = load_ruleset(ruleset).new_game(seed=5, players=2 if args else None)
    assert game.parse_move(example) in game.legal_moves()
    assert ruleset == "klondike" or "t3>f1" not in line
