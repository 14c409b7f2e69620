"""Simultaneous games at the terminal: bots on a clock, seat parameters (`speed`), a scripted human
in simulated time, and the real-time loop driven by a fake clock and a fake keyboard."""

from __future__ import annotations

import io
import json
import os
import pty
import re
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from cardrules import Game, Move, load_ruleset
from cardrules.agents.bots import make_bot, seat_seed
from cardrules.app.cli import app
from cardrules.agents.seats import SeatError, SeatSpec, check_seats, parse_seat
from cardrules.app.play_texts import ScriptError
from cardrules.app.realtime import CLEAR, RealtimeSession, TerminalInput, TimedLines
from cardrules.python.render import status_line
from cardrules.agents.scheduler import Scheduler
from conftest import ROOT

runner = CliRunner()
RACE = str(ROOT / "tests" / "fixtures" / "race.yaml")


def run(*args: str, input: str | None = None):  # noqa: A002 - mirrors CliRunner
    return runner.invoke(app, list(args), input=input, env={"COLUMNS": "200"})


def summary_of(*args: str, input: str | None = None) -> dict[str, Any]:  # noqa: A002
    result = run(*args, "--json", input=input)
    assert result.exit_code == 0, result.stderr
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def replay(game: Game, texts: list[str]) -> None:
    """Apply move texts of a simultaneous game; each names its seat (`draw@2`, `n@1>w2@1`)."""
    for text in texts:
        moves = [m for seat in range(game.players) for m in game.legal_moves(seat) if str(m) == text]
        assert len(moves) == 1, f"{text!r} should be exactly one seat's legal move"
        game.apply(moves[0])


def race_deal(tmp_path: Path) -> Path:
    """A deal of the race fixture where both rows show an Ace: the two seats race for the pile."""
    rules = load_ruleset(RACE)
    first = ["4C", "3C", "2C", "AC", "4S", "3S", "2S", "AS"]
    rest = [c for c in rules.deck.codes if c not in first and c[-1] in "CS"]
    path = tmp_path / "race.deal"
    path.write_text(" ".join(first + rest) + "\n")
    return path


# -- all bots, simulated time ------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3])
def test_all_bots_play_to_the_end_and_the_json_agrees_with_the_moves(players: int) -> None:
    seats = ["--seat", "1=greedy", "--seat", "2=greedy:speed=1.5"] + (["--seat", "3=random:speed=0.8"]
                                                                      if players == 3 else [])
    data = summary_of("play", "nerts", "--seed", "3", "--players", str(players), *seats)
    assert data["players"] == players and data["outcome"] == "won"
    assert data["seats"] == {"1": "greedy", "2": "greedy", **({"3": "random"} if players == 3 else {})}
    assert data["speeds"] == {"1": 1.0, "2": 1.5, **({"3": 0.8} if players == 3 else {})}
    assert data["move_count"] == len(data["moves"]) > 0
    assert data["simulated_seconds"] > 0
    assert data["refused"] == len(data["refused_moves"])
    assert all(re.search(r"@\d", m) for m in data["moves"])  # every move says whose it is
    game = load_ruleset("nerts").new_game(seed=3, players=players)
    replay(game, data["moves"])
    assert game.is_over and game.outcome == data["outcome"] and game.reason == data["reason"]
    assert game.scores() == data["scores"]
    best = max(data["scores"])
    assert data["winners"] == [s + 1 for s, score in enumerate(data["scores"]) if score == best]


def test_all_bots_same_seed_same_game_other_speed_other_game() -> None:
    args = ("play", "nerts", "--seed", "8", "--seat", "1=greedy", "--seat", "2=greedy:speed=2")
    first = summary_of(*args)
    assert summary_of(*args) == first
    slower = summary_of("play", "nerts", "--seed", "8", "--seat", "1=greedy", "--seat", "2=greedy:speed=0.5")
    assert slower["moves"] != first["moves"]
    assert slower["speeds"] == {"1": 1.0, "2": 0.5}
    # the slower seat 2 gets fewer moves in
    share = [sum(1 for m in d["moves"] if re.search(r"@2\b", m)) / d["move_count"] for d in (first, slower)]
    assert share[0] > share[1]


def test_all_bots_without_json_print_the_final_table_and_the_result() -> None:
    result = run("play", "nerts", "--seed", "3", "--seat", "1=greedy", "--seat", "2=random:speed=3")
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "Game over: won" in out and "simulated seconds" in out
    assert re.search(r"seats? [12]( and [12])? wins? with -?\d+", out)  # who won, and with what
    assert "seat 1" in out and "seat 2" in out and "to play" not in out


def test_match_totals_are_kept_after_an_all_bot_hand() -> None:
    data = summary_of("play", "nerts-match", "--seed", "2", "--seat", "1=greedy", "--seat", "2=greedy")
    assert data["persistent"]["total"] == data["scores"]


# -- seats and their parameters ---------------------------------------------------------------

def test_parse_seat_reads_a_kind_and_its_parameters() -> None:
    assert parse_seat("2", "greedy:speed=1.5", 3) == (1, SeatSpec("greedy", {"speed": 1.5}))
    assert parse_seat("1", "random", 2) == (0, SeatSpec("random", {}))
    assert parse_seat("1", "human", 2)[1].is_bot is False
    assert parse_seat("2", " greedy : speed = 2 ", 2)[1].speed == 2.0
    assert SeatSpec("greedy").speed == 1.0


@pytest.mark.parametrize("text,message", [
    ("greedy:sped=2", "seat 2: a greedy bot has no parameter 'sped'; did you mean 'speed'? parameters: speed"),
    ("greedy:speed=0", "seat 2: speed cannot be '0'"),
    ("greedy:speed=-1", "seat 2: speed cannot be '-1'"),
    ("greedy:speed=fast", "seat 2: speed cannot be 'fast'"),
    ("greedy:speed=inf", "seat 2: speed cannot be 'inf'"),
    ("greedy:speed", "seat 2: expected NAME=VALUE after 'greedy:', got 'speed'"),
    ("greedy:speed=1,speed=2", "seat 2: parameter 'speed' is given twice"),
    ("human:speed=2", "seat 2: a human seat takes no parameters"),
    ("genius:speed=2", "seat 2: seat kind 'genius'"),
])
def test_parse_seat_errors_name_the_seat(text: str, message: str) -> None:
    with pytest.raises(SeatError, match=re.escape(message)):
        parse_seat("2", text, 2)


def test_parse_seat_rejects_a_seat_out_of_range() -> None:
    with pytest.raises(SeatError, match="seat '3': seats are 1-2"):
        parse_seat("3", "greedy", 2)


def test_cli_seat_parameter_errors_are_clear() -> None:
    result = run("play", "nerts", "--seed", "1", "--seat", "2=greedy:speed=slow")
    assert result.exit_code == 2
    assert "seat 2: speed cannot be 'slow'" in result.stderr and "Traceback" not in result.stderr


def test_speed_is_rejected_where_seats_take_turns() -> None:
    result = run("play", "klondike", "--seed", "1", "--seat", "1=greedy:speed=2")
    assert result.exit_code == 2
    assert "seat 1: speed means something only where every seat plays at once; klondike takes turns" in result.stderr
    with pytest.raises(SeatError, match="takes turns"):
        check_seats(load_ruleset("klondike"), {0: SeatSpec("greedy", {"speed": 2.0})}, 1)


def test_turn_based_seats_without_parameters_work_as_before() -> None:
    data = summary_of("play", "klondike", "--seed", "11", "--seat", "1=random")
    assert data["seats"] == {"1": "random"} and "speeds" not in data and "simulated_seconds" not in data


def test_a_simultaneous_game_has_at_most_one_human() -> None:
    result = run("play", "nerts", "--seed", "1", "--players", "3", "--seat", "1=human", "--seat", "2=human")
    assert result.exit_code == 2
    assert "at most one human seat (seats 1, 2 are human)" in result.stderr


def test_a_simultaneous_game_fills_the_seats_not_given_with_greedy_bots() -> None:
    data = summary_of("play", "nerts", "--seed", "2", "--players", "3", "--seat", "1=random")
    assert data["seats"] == {"1": "random", "2": "greedy", "3": "greedy"}


def test_a_bot_takes_its_own_parameters_beside_its_speed() -> None:
    data = summary_of("play", "nerts", "--seed", "2", "--seat", "1=montecarlo:budget=20,depth=30,speed=2",
                      "--seat", "2=random")
    assert data["seats"]["1"] == "montecarlo" and data["speeds"]["1"] == 2.0
    result = run("play", "nerts", "--seed", "2", "--seat", "1=montecarlo:budget=lots", "--seat", "2=random")
    assert result.exit_code == 2 and "seat 1: montecarlo: budget must be a whole number, not 'lots'" in result.stderr


# -- a scripted human: line N at N seconds -----------------------------------------------------

def test_scripted_human_moves_land_at_one_a_second_between_the_bots() -> None:
    script = "draw\ndraw\n1\nshow\ndraw\n"
    data = summary_of("play", "nerts", "--seed", "3", "--seat", "2=greedy:speed=2", input=script)
    assert data["seats"] == {"1": "human", "2": "greedy"} and data["speeds"] == {"2": 2.0}
    assert data["outcome"] == "abandoned"  # the script ended before the game
    assert data["simulated_seconds"] == pytest.approx(5.0, abs=1.0)
    assert summary_of("play", "nerts", "--seed", "3", "--seat", "2=greedy:speed=2", input=script) == data

    # The same game through the scheduler: bots to time N, then the human's line N.
    game = load_ruleset("nerts").new_game(seed=3)
    scheduler = Scheduler(game, {1: make_bot("greedy", seat_seed(3, 1))}, 3, {1: 2.0})
    seen = game.clone()
    for n, line in enumerate(script.splitlines(), 1):
        scheduler.run(until=n)
        if line != "show":
            seen_moves = seen.legal_moves(0)
            move = seen_moves[int(line) - 1] if line.isdigit() else seen.parse_move(line, 0)
            assert scheduler.human_move(0, move, n).landed
        seen = game.clone()
    assert [str(m) for m in game.history] == data["moves"]
    mine = [m for m in data["moves"] if m.endswith("@1") or "@1>" in m]
    assert len(mine) == 4 and mine[0] == mine[1] == "draw@1"


def test_scripted_human_sees_a_log_of_every_action() -> None:
    result = run("play", "nerts", "--seed", "3", "--seat", "2=greedy:speed=2", input="draw\nhint\nshow\nquit\n")
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "one line a second, in simulated time" in out
    assert re.search(r"1\.00s seat 1 \(you\): draw@1", out)
    assert re.search(r"\d\.\d\ds seat 2: ", out)
    assert "hint: " in out and " 1. " in out  # the hint, and the moves listed by `show`
    assert "Game over: abandoned" in out


def test_scripted_illegal_line_stops_with_its_line_number() -> None:
    result = run("play", "nerts", "--seed", "3", "--seat", "2=greedy", input="draw\nw9>f1\ndraw\n")
    assert result.exit_code == 1
    assert "<stdin>:2: 'w9>f1' is not a legal move now" in result.stderr
    result = run("play", "nerts", "--seed", "3", "--seat", "2=greedy", input="draw\n99\n")
    assert result.exit_code == 1 and "<stdin>:2: there is no move 99" in result.stderr
    result = run("play", "nerts", "--seed", "3", "--seat", "2=greedy", input="undo\n")
    assert result.exit_code == 1 and "<stdin>:1: there is no undo when everyone plays at once" in result.stderr


def test_scripted_move_made_too_late_is_reported_and_the_script_goes_on(tmp_path: Path) -> None:
    deal = str(race_deal(tmp_path))
    script = "r@1>p\nshuffle\n"
    result = run("play", RACE, "--deal", deal, "--seat", "2=random:speed=2", input=script)
    assert result.exit_code == 0, result.stderr
    assert re.search(r"1\.00s seat 1 \(you\): r@1>p  too late: seat 2 got there first", result.stdout)
    data = summary_of("play", RACE, "--deal", deal, "--seat", "2=random:speed=2", input=script)
    assert {"time": 1.0, "seat": 1, "move": "r@1>p"} in data["refused_moves"]
    assert data["moves"][0] == "r@2>p" and "shuffle@1" in data["moves"]  # the next line was played


# -- the real-time loop, on a fake clock and keyboard -------------------------------------------

class FirstBot:
    """Always the first legal move: predictable races."""

    name = "first"

    def choose(self, game: Game) -> Move:
        return game.legal_moves()[0]


def realtime(game: Game, lines: list[tuple[float, str]], speeds: dict[int, float],
             bot: Any = None) -> tuple[RealtimeSession, io.StringIO]:
    out = io.StringIO()
    console = Console(file=out, width=120, highlight=False, color_system=None)
    source = TimedLines(lines)
    seats: dict[int, Any] = {0: None}
    for seat in range(1, game.players):
        seats[seat] = bot if bot is not None else make_bot("greedy", seat)
    session = RealtimeSession(game, seats, console, source, source.clock, speeds, seed=1, interactive=True,
                              simulated=False)
    return session, out


def test_bots_act_while_the_human_is_idle_and_the_screen_follows() -> None:
    game = load_ruleset("nerts").new_game(seed=5)
    session, out = realtime(game, [(6.0, "show"), (9.0, "quit")], {1: 2.0})
    session.run()
    bot_times = [float(e.plain.split("s ")[0]) for seat, e in session.log if seat == 1]
    assert len([t for t in bot_times if t < 6.0]) >= 6  # about 2 a second while the human typed nothing
    assert all(seat == 1 for seat, _ in session.log)     # the human made no move
    screens = out.getvalue().split(CLEAR)[1:]
    assert session.redraws == len(screens) >= len(bot_times)  # a fresh screen after each action
    early, late = screens[1], screens[-2]
    assert "Lately:" in early and "Your moves:" in late and "seat 1> " in late
    last = [e.plain for seat, e in session.log if seat == 1][-1]
    assert last.strip() in late  # the newest action of the others is on the screen
    assert game.outcome == "abandoned"
    assert "Game over: abandoned" in out.getvalue()


def test_a_number_is_read_from_the_list_on_screen_and_lands_on_the_clock() -> None:
    game = load_ruleset("nerts").new_game(seed=5)
    session, out = realtime(game, [(2.5, "1"), (3.0, "quit")], {1: 1.0})
    session.run()
    mine = [e.plain for seat, e in session.log if seat == 0]
    assert len(mine) == 1 and "2.50s seat 1 (you): " in mine[0]
    assert any(m.actor == 0 for m in game.history)


def test_too_late_in_real_time_names_the_seat_that_got_there_first(tmp_path: Path) -> None:
    rules = load_ruleset(RACE)
    codes = race_deal(tmp_path).read_text().split()
    game = rules.new_game(deal=codes)
    bot = FirstBot()
    probe = Scheduler(rules.new_game(deal=codes), {1: bot}, 1, {1: 2.0})
    due = probe.next_time()
    assert due is not None
    # The human presses 1 (r@1>p, on screen since the start) just as seat 2's Ace lands.
    session, out = realtime(game, [(due, "1"), (due + 1, "quit")], {1: 2.0}, bot)
    session.run()
    assert "too late: seat 2 got there first (r@1>p)" in out.getvalue()
    assert session.scheduler.refused == 1
    assert [str(m) for m in game.history][0] == "r@2>p"


def test_interactive_commands_leave_a_message_under_the_table() -> None:
    game = load_ruleset("nerts").new_game(seed=5)
    session, out = realtime(game, [(0.1, "hint"), (0.2, "nonsense"), (0.3, "help"), (0.4, "quit")], {1: 0.1})
    session.run()
    screens = out.getvalue().split(CLEAR)
    assert any("hint: " in s for s in screens)
    assert any("'nonsense' is not a legal move now; type 'help' for commands" in s for s in screens)
    assert any("Everyone plays at once" in s and "draw" in s for s in screens)
    assert not game.history  # nothing was played


def test_terminal_input_edits_the_line_and_never_blocks() -> None:
    master, slave = pty.openpty()
    try:
        with os.fdopen(slave, "r", closefd=False) as stream:
            echo = io.StringIO()
            with TerminalInput(stream, echo) as keys:
                assert keys.wait(0.0) is None
                os.write(master, b"dr")
                assert keys.wait(0.05) is None and keys.pending == "dr"
                os.write(master, b"x\x7faw\nquit\n")
                assert keys.wait(0.5) == "draw" and keys.line_no == 1
                assert keys.wait(0.0) == "quit"  # already read: no waiting
                os.write(master, b"\x1b[Ashow\r")
                assert keys.wait(0.5) == "show"
                os.write(master, b"\x04")
                with pytest.raises(EOFError):
                    keys.wait(0.5)
            assert echo.getvalue() == "drx\b \baw\nquit\nshow\n"  # echoed as edited, the arrow key dropped
    finally:
        os.close(master)
        os.close(slave)


def test_timed_lines_keep_a_simulated_clock() -> None:
    source = TimedLines.script(io.StringIO("a\nb\n"))
    assert source.wait(0.4) is None and source.clock() == pytest.approx(0.4)
    assert source.wait(5.0) == "a\n" and source.clock() == 1.0
    assert source.wait(None) == "b\n" and source.clock() == 2.0
    with pytest.raises(EOFError):
        source.wait(None)


def test_scripted_session_raises_with_the_line_number() -> None:
    game = load_ruleset("nerts").new_game(seed=5)
    source = TimedLines.script(io.StringIO("draw\nbogus\n"))
    console = Console(file=io.StringIO())
    session = RealtimeSession(game, {0: None, 1: make_bot("greedy", 1)}, console, source, source.clock, {1: 1.0})
    with pytest.raises(ScriptError, match="<stdin>:2: 'bogus' is not a legal move now"):
        session.run()


def test_nobody_is_to_play_where_every_seat_plays_at_once() -> None:
    game = load_ruleset("nerts").new_game(seed=5)
    assert "to play" not in status_line(game, 0).plain
    ten = load_ruleset("ten-bucks").new_game(seed=5)
    assert "seat 1 to play" in status_line(ten, 0).plain


def test_at_80x24_the_foundations_and_your_own_seat_stay_on_screen() -> None:
    # Six seats of Nerts drawn in full take 33 lines: the other seats go one line each, the
    # moves are cut short if need be, and the others' recent actions take what room is left.
    game = load_ruleset("nerts").new_game(seed=5, players=6)
    out = io.StringIO()
    console = Console(file=out, width=80, height=24, highlight=False, color_system=None)
    source = TimedLines([(12.0, "show"), (20.0, "quit")])
    seats: dict[int, Any] = {0: None, **{seat: make_bot("greedy", seat) for seat in range(1, 6)}}
    session = RealtimeSession(game, seats, console, source, source.clock, {s: 2.0 for s in range(1, 6)}, seed=1,
                              interactive=True, simulated=False)
    session.run()
    screens = out.getvalue().split(CLEAR)[1:-1]
    assert len(screens) > 20
    founded = 0
    for screen in screens:
        rows = screen.split("\n")
        assert len(rows) <= 24, screen
        assert all(len(row) <= 80 for row in rows), screen
        assert "seat 1 (you)" in screen and "seat 1> " in rows[-1]
        assert all(f"seat {s} " in screen for s in range(2, 7))  # every other seat, on a line of its own
        founded += any(row.startswith("f1 ") for row in rows)
    assert founded > 10  # once a foundation is started, it is on every screen


def test_at_a_terminal_quit_must_be_typed_twice_to_abandon() -> None:
    game = load_ruleset("nerts").new_game(seed=5)
    session, out = realtime(game, [(2.0, "quit"), (3.0, "show"), (4.0, "quit"), (5.0, "quit")], {1: 1.0})
    session.confirm_quit = True
    session.run()
    assert game.outcome == "abandoned"
    assert "quit again to abandon the game" in out.getvalue()
    assert 4.5 < max(float(e.plain.split("s ")[0]) for seat, e in session.log if seat == 1) < 5.5  # went on to 5 s
