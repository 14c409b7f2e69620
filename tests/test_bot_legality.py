"""Bots choose only among the moves the game offers their seat, and `validate` warns where a move's
legality hangs on cards its seat cannot see.

Every ruleset that plays (bundled, examples, test fixtures but those of tests/fixtures/broken/ and
native/, which break on purpose), every bot kind at every seat, on a small fixed-seed budget
(benchmarks/bot_legality.py runs 200 games each); the rulesets whose legal moves leak
(tests/fixtures/leaks/clock.yaml and two older fixtures) more, in both engines; the Canfield games
that stopped on an illegal move; and the leak check."""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bot_legality import BOT_KINDS, bot_params, legality_files, native_agrees, play_checked
from cardrules import load_ruleset
from cardrules.agents.bots import GreedyBot, make_bot, offered_in
from cardrules.agents.mcts import MctsBot
from cardrules.app.cli import app
from cardrules.workbench.leaks import find_leaks
from cardrules.workbench.simulate import simulate_command
from conftest import ROOT

FIXTURES = ROOT / "tests" / "fixtures"
CLOCK = FIXTURES / "leaks" / "clock.yaml"
CLOCK_TURNED = FIXTURES / "leaks" / "clock-turned.yaml"
# Rulesets whose legal moves hang on cards a seat cannot see: a bot's copy often offers other moves.
LEAKING = [CLOCK, FIXTURES / "explain" / "guess.yaml", FIXTURES / "windows" / "windows.yaml"]
SMALL = {"budget": 4, "iterations": 4, "depth": 5}


def _name(path: Path) -> str:
    return str(path.relative_to(ROOT))


FILES = legality_files()


def test_the_files_checked_are_every_bundled_ruleset_example_and_fixture_that_plays() -> None:
    names = {_name(path) for path in FILES}
    assert {f"rulesets/{p.name}" for p in (ROOT / "rulesets").glob("*.yaml")} <= names
    assert {f"examples/{p.name}" for p in (ROOT / "examples").glob("*.yaml")} <= names
    assert _name(CLOCK) in names and "tests/fixtures/hidden/peek.yaml" in names
    assert not any(name.startswith(("tests/fixtures/broken/", "tests/fixtures/native/")) for name in names)


@pytest.mark.parametrize("kind", BOT_KINDS)
@pytest.mark.parametrize("path", FILES, ids=_name)
def test_every_bot_at_every_seat_chooses_a_legal_move_and_the_game_ends(
        path: Path, kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if kind == "mcts":  # its Python search here (a native module per file costs minutes); natively below
        monkeypatch.setattr(MctsBot, "_backend", lambda self, game: None)
    rules = load_ruleset(path)
    params = bot_params(kind, SMALL["budget"], SMALL["iterations"], SMALL["depth"])
    for seed in range(2):
        game, tally = play_checked(rules, kind, seed, 20, params)
        assert tally.illegal == [], f"seed {seed}"
        assert tally.ended and game.is_over, f"seed {seed}: {game.outcome}"
        assert tally.checked > 0


def _differing_positions(path: Path, seeds: range, moves: int) -> int:
    """Positions of random games where a copy dealt anew from the seat's view lists other moves."""
    rules = load_ruleset(path)
    differing = 0
    for seed in seeds:
        rng = random.Random(seed)
        game = rules.new_game(seed=seed, max_moves=moves)
        while not game.is_over:
            seat = game.current_player
            legal = game.legal_moves()
            copy = game.determinize(seat, rng)
            differing += {m.key() for m in legal} != {m.key() for m in copy.legal_moves(seat)}
            game.apply(rng.choice(legal))
    return differing


@pytest.mark.parametrize("kind", BOT_KINDS)
@pytest.mark.parametrize("path", LEAKING, ids=_name)
def test_where_a_copy_lists_other_moves_every_bot_still_chooses_among_the_games(path: Path, kind: str) -> None:
    # The copies differ from the game at many positions of these games (so the bots meet copies
    # that lack a legal move, or offer one the game does not): no choice is ever illegal.
    assert _differing_positions(path, range(3), 30) >= 10
    rules = load_ruleset(path)
    params = bot_params(kind, 8, 8, 5)
    checked = 0
    for seed in range(6):
        game, tally = play_checked(rules, kind, seed, 30, params)
        assert tally.illegal == [] and tally.ended, f"seed {seed}"
        checked += tally.checked
    assert checked >= 100


def test_a_legal_move_the_copy_lacks_is_still_valued_and_chosen() -> None:
    """Positions of the leaking Clock where the greedy bot's copy offers none of the game's moves:
    the bot still chooses one of the game's (each valued as a gain of 0), where a bot that took its
    candidates from the copy could choose none."""
    rules = load_ruleset(CLOCK)
    lacking = 0
    for seed in range(20):
        rng = random.Random(seed)
        game = rules.new_game(seed=seed, max_moves=40)
        bot = GreedyBot(seed)
        while not game.is_over:
            legal = game.legal_moves()
            state = bot.rng.getstate()
            copy = game.determinize(game.current_player, bot.rng)
            bot.rng.setstate(state)  # the bot deals the same copy
            if all(mine is None for mine in offered_in(copy, legal)):
                lacking += 1
                assert bot.choose(game) in legal
            game.apply(rng.choice(legal))
    assert lacking >= 5


@pytest.mark.parametrize("kind", ["montecarlo", "ismcts"])
def test_searching_bots_choose_among_the_games_moves_where_copies_lack_them(kind: str) -> None:
    """Positions of the leaking Clock with a choice, where a copy dealt from the seat's view offers
    none of the game's moves: the searching bots value each of the game's moves (played out from
    the copy as it is where the copy lacks it) and choose one of them."""
    rules = load_ruleset(CLOCK)
    lacking = 0
    for seed in range(20):
        rng = random.Random(seed)
        game = rules.new_game(seed=seed, max_moves=30)
        while not game.is_over:
            legal = game.legal_moves()
            copy = game.determinize(game.current_player, random.Random(seed))
            if len(legal) > 1 and all(mine is None for mine in offered_in(copy, legal)):
                lacking += 1
                assert make_bot(kind, seed, **bot_params(kind, 6, 6, 4)).choose(game) in legal
            game.apply(rng.choice(legal))
    assert lacking >= 3


def test_greedy_bot_on_canfield_seed_6_plays_only_legal_moves() -> None:
    # It once chose r>f2 at its 14th decision: a card had gone home face down, and the copy dealt
    # it anew.
    game = load_ruleset("canfield").new_game(seed=6)
    bot = GreedyBot(6)
    for _ in range(60):
        if game.is_over:
            break
        move = bot.choose(game)
        assert move in game.legal_moves(), f"move {len(game.history) + 1}: {move}"
        game.apply(move)
    assert len(game.history) >= 40


def test_simulate_canfield_with_its_default_greedy_seats_plays_20_games(tmp_path: Path) -> None:
    # `cardrules simulate canfield -n 20 --seed 1` stopped with "t4>f2 is not a legal move now".
    import json

    from rich.console import Console

    out = tmp_path / "run.json"
    console, errors = Console(record=True, width=120), Console(record=True, width=120)
    code = simulate_command("canfield", 20, seed=1, out=out, console=console, err_console=errors,
                            show_progress=False)
    assert code == 0, errors.export_text()
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["seats"] == {"1": "greedy"} and report["games"] == 20 and report["seeds"] == [1, 20]


@pytest.mark.parametrize("kind", ["random", "greedy"])
def test_native_bots_on_a_leaking_ruleset_play_the_python_bots_games(kind: str) -> None:
    """The native random and greedy bots (native/bots.py) choose among the game's moves as the
    Python ones do: the same games, to the same end, on the Clock whose copies list other moves."""
    pytest.importorskip("numba")
    rules = load_ruleset(CLOCK)
    for seed in range(4):
        game, tally = play_checked(rules, kind, seed, 60)
        assert tally.illegal == [] and tally.ended
        assert native_agrees(rules, kind, seed, 60, game), f"seed {seed}"


# -- the leak check of `cardrules validate` -----------------------------------------------------

def _position_of(path: Path, needle: str) -> tuple[int, int]:
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if needle in line:
            return number, line.index(needle) + 1
    raise AssertionError(needle)


def test_the_leak_check_finds_the_clocks_move_at_its_condition() -> None:
    leaks = find_leaks(load_ruleset(CLOCK), seconds=math.inf)
    assert [leak.move for leak in leaks] == ["play"]
    pos = leaks[0].pos
    assert pos is not None and (pos.line, pos.col) == _position_of(CLOCK, 'dst.index + 1 == card.rank')
    assert leaks[0].seat == 0 and leaks[0].example.startswith("c")


def test_the_leak_check_finds_nothing_where_cards_are_turned_up_first() -> None:
    assert find_leaks(load_ruleset(CLOCK_TURNED), seconds=math.inf) == []


@pytest.mark.parametrize("path", sorted((ROOT / "rulesets").glob("*.yaml")) + sorted((ROOT / "examples").glob("*.yaml")),
                         ids=_name)
def test_no_bundled_ruleset_or_example_leaks(path: Path) -> None:
    # Klondike reads its tableau's top cards, turned up by a trigger before any listing: no warning.
    assert find_leaks(load_ruleset(path), games=4, moves=60, seconds=math.inf) == []


def test_validate_warns_at_the_leaking_move_and_still_accepts_the_file() -> None:
    result = CliRunner().invoke(app, ["validate", str(CLOCK), str(CLOCK_TURNED), "klondike"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.stderr
    assert f"ok  {CLOCK}" in result.stdout and "ok  klondike" in result.stdout
    line, col = _position_of(CLOCK, 'dst.index + 1 == card.rank')
    warnings = [text for text in result.stderr.splitlines() if "warning:" in text]
    assert len(warnings) == 1
    assert warnings[0].startswith(f"{CLOCK}:{line}:{col}: warning: move 'play'")
    assert "cannot see" in warnings[0]
