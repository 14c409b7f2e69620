"""Hot seat: several humans at one terminal each see only their own view; forced moves say why.

The games are Ten Bucks with two seats and three bills each of $1 and $2 (`-o copies=3`), from
deal files: the deal gives one bill per seat per round, seat 1 first, so "1 2 1 2 1 2" gives
seat 1 three $1 and seat 2 three $2. Hands are drawn on one line each (`h@1 $1 $1 $1`); a
hidden bill is the deck's back, `▒▒`.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

from rich.console import Console
from typer.testing import CliRunner

from cardrules import load_ruleset
from cardrules.agents.bots import Bot, make_bot
from cardrules.app.cli import app
from cardrules.app.play import Session
from cardrules.python.render import render_table
from helpers import play

runner = CliRunner()
BACK = "▒▒"
CLEAR = "\x1b[2J"
TWO = ("--players", "2", "-o", "copies=3")
SPLIT = "1 2 1 2 1 2"      # seat 1: $1 $1 $1, seat 2: $2 $2 $2
FORCING = "2 2 2 1 1 1"    # seat 1: $2 $2 $1, seat 2: $2 $1 $1


def run(*args: str, input: str | None = None):  # noqa: A002 - mirrors CliRunner
    return runner.invoke(app, list(args), input=input, env={"COLUMNS": "200"})


def deal_file(tmp_path: Path, order: str) -> str:
    path = tmp_path / "game.deal"
    path.write_text(order + "\n", encoding="utf-8")
    return str(path)


def hand(text: str, seat: int) -> list[str]:
    """The bills shown on seat `seat`'s hand lines of `text`, table by table."""
    return [line.split(None, 1)[1] if " " in line.strip() else "" for line in text.splitlines()
            if line.startswith(f"h@{seat} ")]


def hand_over_sections(text: str) -> list[tuple[int, str]]:
    """The output cut at each hand-over notice: (the seat handed to, the text up to the next)."""
    parts = re.split(r"^-- hand-over: seat (\d+) to play.*$", text, flags=re.MULTILINE)
    return [(int(parts[i]), parts[i + 1]) for i in range(1, len(parts), 2)]


def last_table(text: str) -> str:
    """The table drawn at the end: after the last status line of a game going on, to `Game over`."""
    lines = text.splitlines()
    end = max(i for i, line in enumerate(lines) if line.startswith("Game over"))
    start = max(i for i, line in enumerate(lines[:end]) if " to play (" in line) + 1
    return "\n".join(lines[start:end + 1])


# -- scripted hot seat through the CLI --------------------------------------------------------

def test_each_human_sees_only_their_own_hand(tmp_path: Path) -> None:
    script = "h@1:1>s1\npass\nh@2:2>s2\npass\nquit\n"
    result = run("play", "ten-bucks", *TWO, "--deal", deal_file(tmp_path, SPLIT), input=script)
    assert result.exit_code == 0, result.output
    out = result.stdout
    before_seat2_moves = out[:out.index("3. seat 2:")]
    seat2_turn = before_seat2_moves[before_seat2_moves.index("hand-over: seat 2"):]
    assert "h@2 $2 $2 $2" in seat2_turn                       # seat 2's own hand
    assert hand(seat2_turn, 1) == [f"{BACK} {BACK}"]          # seat 1's, hidden (one bill played)
    assert "$1 $1" not in seat2_turn
    sections = hand_over_sections(out)
    assert [seat for seat, _ in sections] == [1, 2, 1]
    for seat, section in sections:                            # no hand but the acting seat's shown
        other = 2 if seat == 1 else 1
        assert all(set(shown.split()) <= {BACK} for shown in hand(section.split("Game over")[0], other))
        assert all("$" in shown for shown in hand(section, seat)[:1])


def test_the_hand_over_is_a_one_line_notice_when_scripted(tmp_path: Path) -> None:
    result = run("play", "ten-bucks", *TWO, "--deal", deal_file(tmp_path, SPLIT), input="1\npass\nquit\n")
    lines = result.stdout.splitlines()
    notices = [line for line in lines if "hand-over" in line]
    assert notices == ["-- hand-over: seat 1 to play (seat 1's view only) --",
                       "-- hand-over: seat 2 to play (seat 2's view only) --"]
    assert "press Enter" not in result.stdout
    assert CLEAR not in result.stdout


def test_a_lone_human_gets_no_hand_over_notice(tmp_path: Path) -> None:
    result = run("play", "ten-bucks", *TWO, "--seat", "2=greedy", "--deal", deal_file(tmp_path, SPLIT),
                 input="1\npass\nquit\n")
    assert result.exit_code == 0, result.output
    assert "hand-over" not in result.stdout
    assert "h@1 $1 $1 $1" in result.stdout


def test_a_forced_move_says_which_seat_forced_it_and_with_what(tmp_path: Path) -> None:
    script = "h@1:2>s2\npass\nh@2:2>s2\npass\nh@1:2>s2\nforce seat2\ns2>c2@2\nquit\n"
    result = run("play", "ten-bucks", *TWO, "--deal", deal_file(tmp_path, FORCING), input=script)
    assert result.exit_code == 0, result.output
    out = result.stdout
    forced_turn = out[out.index("6. seat 1: force seat2"):out.index("7. seat 2 (forced): s2>c2@2")]
    assert "hand-over: seat 2 to play" in forced_turn
    message = " ".join(forced_turn.split())  # the message may wrap
    assert "Seat 1 played 'force seat2': Five Max: your play made a stack worth 5 or more" in message
    assert "you must move now (phase forced)" in message
    assert hand(forced_turn, 1) == [BACK]
    assert hand(forced_turn, 2) == ["$1 $1"]
    back_to_seat1 = out[out.index("7. seat 2 (forced)"):]
    assert "hand-over: seat 1 to play" in back_to_seat1
    assert "must move now" not in back_to_seat1


def test_a_forced_move_is_explained_to_a_lone_human_forced_by_a_bot(tmp_path: Path) -> None:
    # seat 1 (greedy) holds the three $2 bills: its third makes the $2 stack worth 6, which only
    # seat 2 may claim, so (now or at the end of its turn) it forces seat 2
    script = "h@2:1>s1\npass\nh@2:1>s1\npass\ns2>c2@2\nquit\n"
    result = run("play", "ten-bucks", *TWO, "--seat", "1=greedy", "--deal", deal_file(tmp_path, SPLIT[::-1]),
                 input=script)
    assert result.exit_code == 0, result.output
    out = result.stdout
    forced = out[out.index("seat 1: force seat2"):out.index("seat 2 (forced): s2>c2@2")]
    assert "Seat 1 played 'force seat2': Five Max" in " ".join(forced.split())
    assert "hand-over" not in out


def test_the_final_table_is_the_public_view(tmp_path: Path) -> None:
    # seat 2 plays a $2 and claims the $1 stack, so it reveals both its $1 bills
    script = "h@1:1>s1\npass\nh@2:2>s2\ns1>c1@2\nquit\n"
    result = run("play", "ten-bucks", *TWO, "--deal", deal_file(tmp_path, FORCING), input=script)
    assert result.exit_code == 0, result.output
    final = last_table(result.stdout)
    assert hand(final, 1) == [f"{BACK} {BACK}"]               # seat 1's bills stay hidden
    assert hand(final, 2) == ["$1 $1"]                        # seat 2's are revealed
    assert "to play" not in final and "Game over: abandoned" in final


def test_undo_takes_back_only_your_own_moves(tmp_path: Path) -> None:
    deal = deal_file(tmp_path, SPLIT)
    own = run("play", "ten-bucks", *TWO, "--deal", deal, "--json", input="h@1:1>s1\nundo\nh@1:1>s1\npass\n")
    assert own.exit_code == 0, own.output
    assert json.loads(own.stdout)["moves"] == ["h@1:1>s1", "pass"]
    other = run("play", "ten-bucks", *TWO, "--deal", deal, input="h@1:1>s1\npass\nundo\n")
    assert other.exit_code == 1
    assert "<stdin>:3: the last move was seat 1's; you can take back only your own" in other.stderr


def test_redo_against_bots_plays_the_bots_moves_again(tmp_path: Path) -> None:
    deal = deal_file(tmp_path, SPLIT)
    straight = run("play", "ten-bucks", *TWO, "--seat", "1=greedy", "--deal", deal, "--json", input="h@2:2>s2\npass\n")
    redone = run("play", "ten-bucks", *TWO, "--seat", "1=greedy", "--deal", deal, "--json",
                 input="h@2:2>s2\npass\nundo\nredo\n")
    assert redone.exit_code == 0, redone.output
    assert json.loads(redone.stdout)["moves"] == json.loads(straight.stdout)["moves"]
    assert len(json.loads(redone.stdout)["moves"]) > 4  # seat 2's moves and the bot's after them


def test_undo_against_bots_goes_back_to_your_last_decision(tmp_path: Path) -> None:
    deal = deal_file(tmp_path, SPLIT)
    first = run("play", "ten-bucks", *TWO, "--seat", "1=greedy", "--deal", deal, "--json", input="undo\n")
    assert first.exit_code == 1
    assert "there is no move of yours to undo" in first.stderr
    result = run("play", "ten-bucks", *TWO, "--seat", "1=greedy", "--deal", deal, "--json",
                 input="h@2:2>s2\npass\nundo\n")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["moves"][2:] == ["h@2:2>s2"]  # the bot's two moves and seat 2's pass are undone
    assert summary["outcome"] == "abandoned"


# -- bots --------------------------------------------------------------------------------------

def test_a_human_against_a_bot_never_sees_the_bots_hand(tmp_path: Path) -> None:
    result = run("play", "ten-bucks", *TWO, "--seat", "1=greedy", "--deal", deal_file(tmp_path, SPLIT),
                 input="h@2:2>s2\npass\nquit\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.index("1. seat 1: h@1:1>s1") < out.index("h@2 $2 $2 $2")  # the bot moved first
    assert hand(out, 1)[0] == f"{BACK} {BACK}"                 # its hand as seat 2 sees it
    assert all(set(shown.split()) <= {BACK} for shown in hand(out, 1))  # it holds no $2 to reveal


def test_all_bot_games_print_only_json_and_the_public_tables(tmp_path: Path) -> None:
    seats = ("--seat", "1=greedy", "--seat", "2=random", "--seat", "3=greedy")
    result = run("play", "ten-bucks", "--players", "3", *seats, "--seed", "4", "--json")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)  # nothing but the summary on stdout
    rules = load_ruleset("ten-bucks", summary["options"])
    game = rules.new_game(seed=4, players=3)
    for text in summary["moves"]:
        game.apply(game.parse_move(text))
    assert game.is_over and summary["winners"] == [p + 1 for p in game.winners() or []]
    shown = run("play", "ten-bucks", "--players", "3", *seats, "--seed", "4").stdout
    first = shown[:shown.index("Game over")].split("\n\n\n")[0]
    for seat in (1, 2, 3):  # at the start every hand is hidden from a spectator
        assert set(hand(first, seat)[0].split()) == {BACK}
    assert "hand-over" not in shown


# -- interactive hot seat (a terminal console, input from a stream) ----------------------------

MIXED = "1 2 2 1 1 2"       # seat 1: $1 $2 $1, seat 2: $2 $1 $2 (a choice of bills each turn)


def interactive(order: str, script: str, seats: dict[int, Bot | None] | None = None, play_lone: bool = True) -> str:
    rules = load_ruleset("ten-bucks", {"copies": "3"})
    game = rules.new_game(deal=order, players=2)
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=200, color_system=None)
    chosen = seats if seats is not None else {0: None, 1: None}
    Session(game, chosen, console, True, input=io.StringIO(script), play_lone=play_lone).run()
    return out.getvalue()


def test_interactive_hand_over_clears_the_screen_and_waits_for_enter() -> None:
    out = interactive(MIXED, "\nh@1:1>s1\n\nh@2:2>s2\nquit\n")  # seat 1's lone `pass` is played for it
    screens = out.split(CLEAR)
    prompts = [i for i, screen in enumerate(screens) if "take the seat and press Enter" in screen]
    assert [screens[i].split("\x1b[H")[-1].strip() for i in prompts] == [
        "Seat 1: take the seat and press Enter", "Seat 2: take the seat and press Enter"]
    seat1, seat2 = screens[prompts[0] + 1], screens[prompts[1] + 1]
    assert "h@1 $1 $2 $1" in seat1 and hand(seat1, 2)[0] == f"{BACK} {BACK} {BACK}"
    assert "seat 2's view" in seat2 and "h@2 $2 $1 $2" in seat2
    assert set(hand(seat2, 1)) == {f"{BACK} {BACK}"} and "h@1 $" not in seat2
    assert "Since your last look:" in seat2 and "1. seat 1: h@1:1>s1" in seat2  # what seat 1 did
    assert "2. seat 1: pass (your only move)" in seat2


def test_interactive_lone_moves_are_played_without_taking_the_seat() -> None:
    out = interactive(SPLIT, "\nquit\n")  # one kind of bill each: one move until seat 2 may claim $1
    notices = out[:out.index(CLEAR)].splitlines()
    assert notices == ["1. seat 1: h@1:1>s1  $1 (your only move)", "2. seat 1: pass (your only move)",
                       "3. seat 2: h@2:2>s2  $2 (your only move)"]
    assert out.count("take the seat") == 1 and "Seat 2: take the seat" in out  # seat 1 was never asked
    assert " 1.  s1>c1@2 " in out and " 2.  pass " in out  # seat 2's choice is asked


def test_interactive_forced_move_is_explained_before_the_choice() -> None:
    script = "\nh@1:2>s2\npass\n\nh@2:2>s2\npass\n\nh@1:2>s2\nforce seat2\n\n1\nquit\n"
    out = interactive(FORCING, script, play_lone=False)  # the forced seat's one claim is asked
    screen = [s for s in out.split(CLEAR) if "phase forced" in " ".join(s.split())]
    assert len(screen) == 1
    text = " ".join(screen[0].split())
    assert text.index("Seat 1 played 'force seat2'") < text.index("1. s2>c2@2") < text.index("seat 2>")
    assert hand(screen[0], 1) == [BACK]


def test_interactive_game_against_a_bot_needs_no_hand_over() -> None:
    out = interactive(MIXED, "h@2:2>s2\nquit\n", {0: make_bot("greedy", 1), 1: None})
    assert "take the seat" not in out and "press Enter" not in out and "Since your last look" not in out
    assert "1. seat 1: h@1:2>s2" in out and "h@2 $2 $1 $2" in out
    assert hand(out, 1) and all(set(shown.split()) <= {BACK} for shown in hand(out, 1))
    frames = out.split(CLEAR)[1:]  # at a terminal each turn's table is drawn in place
    assert len(frames) == 2 and all(frame.startswith("\x1b[H") for frame in frames)
    assert frames[1].split("\n")[:4] == ["\x1b[H3. seat 2: h@2:2>s2  $2", "4. seat 2: pass (your only move)",
                                          "5. seat 1: h@1:1>s1  $1", "6. seat 1: s2>c2@1"]  # the moves since


def test_hint_decides_on_the_seat_to_plays_view_only() -> None:
    # three seats, seat 1 to play; seats 2 and 3 swap hands between the two deals
    rules = load_ruleset("ten-bucks", {"copies": "3"})
    hints = []
    for order in ("1 1 2 2 1 3 3 2 3", "1 2 1 2 3 1 3 3 2"):
        game = rules.new_game(deal=order, players=3)
        out = io.StringIO()
        session = Session(game, {0: None, 1: None, 2: None}, Console(file=out, width=200), False,
                          input=io.StringIO("hint\nquit\n"))
        session.run()
        hints.append([line for line in out.getvalue().splitlines() if line.startswith("hint: ")])
    assert hints[0] == hints[1] and len(hints[0]) == 1


# -- rendering with no seat --------------------------------------------------------------------

def test_render_table_for_no_seat_shows_only_public_cards() -> None:
    rules = load_ruleset("ten-bucks", {"copies": "3"})
    game = rules.new_game(deal=FORCING, players=2)
    play(game, "h@1:1>s1", "pass", "h@2:2>s2", "s1>c1@2")  # seat 2 reveals its $1 bills

    def drawn(player: int | None) -> str:
        console = Console(width=100, record=True, file=io.StringIO())
        console.print(render_table(game, player))
        return console.export_text()

    public = drawn(None)
    assert hand(public, 1) == [f"{BACK} {BACK}"] and hand(public, 2) == ["$1 $1"]
    assert hand(drawn(0), 1) == ["$2 $2"]
    assert "s2 $2" in public and "c1@2 $1" in public
