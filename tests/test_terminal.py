"""The terminal is never hijacked, and no command ends in a traceback.

- Text from a ruleset (title, pile labels, variable labels, help, reasons, labels) that looks like
  Rich markup or an emoji code is printed as it is (`tests/fixtures/markup.yaml`).
- Text a player typed that is echoed back (an illegal move, a bad `--seat` or `--option` value)
  has its control characters escaped (`errors.printable`).
- Characters that reorder or hide text (bidirectional overrides and isolates, zero-width ones) in
  text from a ruleset or typed are shown escaped (`\\u202e`), and a title past 200 characters is cut.
- `main()` turns an unexpected exception into one line on standard error and exit status 2 (the
  traceback with `--debug`); Ctrl-C exits 130 without a traceback.
"""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console
from typer.testing import CliRunner

from cardrules import load_ruleset
from cardrules.app import cli
from cardrules.base.errors import MAX_TITLE, printable, shown_title, terminal_console
from cardrules.app.play import Session

ROOT = Path(__file__).resolve().parent.parent
MARKUP = str(ROOT / "tests" / "fixtures" / "markup.yaml")
runner = CliRunner()
LITERAL = ["Odd [/nope] [bold]title [link=x]here :smile:", "r[/nope]", "r[bold]", "r[link=x]",
           "[bold]Points[/nope]: 0", "End it [/nope] now [bold]please [link=x]here",
           "Game over: won ([/nope] the reason [bold]x [link=x]y)", "[/nope] the label [bold]"]


def run(*args: str, input: str | None = None) -> Any:  # noqa: A002 - mirrors CliRunner
    return runner.invoke(cli.app, list(args), input=input, env={"COLUMNS": "200"})


# -- ruleset text that looks like markup -------------------------------------------------------

def test_play_prints_ruleset_texts_as_they_are() -> None:
    result = run("play", MARKUP, "--seed", "1", input="help\nstop\n")
    assert result.exit_code == 0, (result.output, result.exception)
    for text in LITERAL:
        assert text in result.stdout, text
    assert "\x1b" not in result.stdout and "😄" not in result.stdout


def test_simulate_and_solve_print_ruleset_texts_as_they_are() -> None:
    simulated = run("simulate", MARKUP, "-n", "2")
    assert simulated.exit_code == 0, (simulated.output, simulated.exception)
    assert LITERAL[0] in simulated.stdout and "[/nope] the reason [bold]x [link=x]y" in simulated.stdout
    sample = run("solve", MARKUP, "--sample", "2", "--thoughtful")
    assert sample.exit_code == 0, (sample.output, sample.exception)
    assert sample.stdout.startswith(LITERAL[0])
    one = run("solve", MARKUP, "--seed", "2", "--thoughtful")
    assert one.exit_code == 0 and one.stdout.startswith("solvable in 1 moves")


# -- control characters a player typed ---------------------------------------------------------

def test_printable_escapes_control_characters_but_newline_and_tab() -> None:
    assert printable("a\x1b[31mb\x07\r\x00\x7f\x9b\u0085c") == "a\\x1b[31mb\\x07\\x0d\\x00\\x7f\\x9b\\x85c"
    assert printable("line\n\tindented ♥ é [bold]") == "line\n\tindented ♥ é [bold]"


def test_an_illegal_scripted_move_is_echoed_with_its_control_characters_escaped() -> None:
    result = run("play", "klondike", "--seed", "5", input="t1>\x1b]0;pwned\x07\x1b[2J\n")
    assert result.exit_code == 1
    assert "'t1>\\x1b]0;pwned\\x07\\x1b[2j' is not a legal move now" in result.stderr  # input is read lowercased
    assert "\x1b" not in result.stderr and "\x07" not in result.stderr


def test_an_illegal_move_typed_at_the_terminal_is_echoed_escaped() -> None:
    game = load_ruleset("klondike").new_game(seed=5)
    out = io.StringIO()
    console = Console(file=out, width=200, color_system=None)
    Session(game, {0: None}, console, True, input=io.StringIO("\x1b[2Jt9\x9b>f1\nquit\n")).run()
    text = out.getvalue()
    assert "'\\x1b[2jt9\\x9b>f1' is not a legal move now" in text
    assert "\x1b" not in text and "\x9b" not in text


@pytest.mark.parametrize("args", [("--seat", "2=\x1b[2Jgreedy"), ("--seat", "2=greedy:speed=\x1b]0;x\x07"),
                                  ("--seat", "\x1b[2J=greedy"), ("-o", "copies=\x1b[2J"), ("-o", "\x1b[2J=3")])
def test_a_bad_seat_or_option_value_is_echoed_escaped(args: tuple[str, str]) -> None:
    result = run("play", "ten-bucks", "--players", "2", *args, input="quit\n")
    assert result.exit_code in (1, 2), result.output
    assert "\\x1b" in result.stderr and "\x1b" not in result.stderr and "\x07" not in result.stderr


# -- unexpected errors: one line, status 2; --debug: the traceback -----------------------------

def main(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    """Run `cardrules.app.cli.main` with `argv`: its exit status and standard error."""
    monkeypatch.setattr(sys, "argv", ["cardrules", *argv])
    monkeypatch.setattr(cli, "_debug", False)
    with pytest.raises(SystemExit) as exited:
        cli.main()
    code = exited.value.code
    return (code if isinstance(code, int) else 0 if code is None else 1), capsys.readouterr().err


def boom(*args: Any, **kwargs: Any) -> Any:
    raise KeyError("x")


def test_an_unexpected_error_is_one_line_and_status_2(monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(cli, "load_ruleset", boom)
    code, err = main(monkeypatch, capsys, "play", "klondike")
    assert code == 2
    assert err == ("cardrules: internal error (KeyError: 'x'); this is a bug, please report it with the "
                   "command you ran; --debug shows the traceback\n")


def test_debug_shows_the_traceback(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(cli, "load_ruleset", boom)
    code, err = main(monkeypatch, capsys, "--debug", "play", "klondike")
    assert code == 2 and "Traceback (most recent call last)" in err and "KeyError: 'x'" in err


def test_simulate_and_solve_follow_the_same_rule(monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    import cardrules.workbench.simulate
    import cardrules.workbench.solver
    monkeypatch.setattr(cardrules.workbench.simulate, "simulate_games", boom)
    code, err = main(monkeypatch, capsys, "simulate", "klondike", "-n", "2")
    assert code == 2 and err.startswith("cardrules: internal error (KeyError: 'x')") and err.count("\n") == 1
    monkeypatch.setattr(cardrules.workbench.solver, "solve", boom)
    code, err = main(monkeypatch, capsys, "solve", "klondike", "--seed", "1", "--thoughtful")
    assert code == 2 and err.startswith("cardrules: internal error (KeyError: 'x')") and err.count("\n") == 1


def test_an_error_of_the_users_making_keeps_status_1(monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    code, err = main(monkeypatch, capsys, "play", "no-such-game")
    assert code == 1 and err.startswith("error: no ruleset 'no-such-game'") and "Traceback" not in err


def test_ctrl_c_exits_130_without_a_traceback(monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    def interrupted(*args: Any, **kwargs: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "load_ruleset", interrupted)
    code, err = main(monkeypatch, capsys, "play", "klondike")
    assert code == 130 and "Traceback" not in err


def test_the_module_run_as_a_command_reports_an_internal_error_in_one_line() -> None:
    program = ("import sys, cardrules.app.cli as cli\n"
               "def boom(*args, **kwargs): raise RuntimeError('\\x1b[2Jbad')\n"
               "cli.load_ruleset = boom\n"
               "sys.argv = ['cardrules'] + sys.argv[1:]\n"
               "cli.main()\n")
    done = subprocess.run([sys.executable, "-c", program, "play", "klondike"], capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr.startswith("cardrules: internal error (RuntimeError: \\x1b[2Jbad); this is a bug")
    assert done.stderr.count("\n") == 1 and "\x1b" not in done.stderr
    debug = subprocess.run([sys.executable, "-c", program, "--debug", "play", "klondike"], capture_output=True,
                           text=True)
    assert debug.returncode == 2 and "Traceback (most recent call last)" in debug.stderr
    listed = subprocess.run([sys.executable, "-m", "cardrules.app.cli", "list"], capture_output=True, text=True)
    assert listed.returncode == 0 and "klondike" in listed.stdout


def test_cascades_tiers_wrap_between_cards_never_inside_one() -> None:
    # Decktet faces hold spaces (`Painter 3 ☀⌘`): a tier longer than the screen breaks between
    # cards (set two spaces apart), each continuation indented past the tier's name.
    import random

    from cardrules.python.render import render_table

    rules = load_ruleset("cascades-v2", {"extended": True})
    faces = set(rules.deck.faces)
    checked = 0
    for seed in range(1, 12):
        game = rules.new_game(seed=seed)
        rng = random.Random(seed)
        for _ in range(60):
            if game.is_over or not game.legal_moves():
                break
            game.apply(rng.choice(game.legal_moves()))
        for width in (40, 60, 80):
            out = io.StringIO()
            Console(file=out, width=width, color_system=None).print(render_table(game, 0))
            for line in out.getvalue().splitlines():
                assert len(line) <= width
                if line.startswith(("t1 ", "t2 ", "t3 ", "   ")) and line.strip() and "[  ]" not in line:
                    cards = line[3:].strip().split("  ")
                    assert all(card in faces for card in cards), line
                    checked += len(cards)
    assert checked > 300


# -- text that reorders or hides itself ----------------------------------------------------------

BIDI_AND_ZERO_WIDTH = [0x061C, 0x200B, 0x200C, 0x200D, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E,
                       0x2060, 0x2066, 0x2067, 0x2068, 0x2069, 0xFEFF]
HIDDEN = "".join(chr(code) for code in BIDI_AND_ZERO_WIDTH)

# Every text of a one-seat game holds a right-to-left override or a zero-width character; the title
# is 5,000 characters long.
SNEAKY = """\
ruleset: sneaky
title: "Safe\\u202eelit\\u200b%s"
deck: standard-52
variables:
  score: {initial: 0, label: "Po\\u2066ints\\ufeff"}
zones:
  stock: {visibility: none, label: "st\\u200dock"}
  row: {count: 2, short: r, labels: ["r\\u2067one", "r\\u061ctwo"], show: fan}
setup:
  - take_deck: stock
  - deal: {from: stock, to: row, counts: 1, face: up}
moves:
  stop:
    help: "End \\u202dit\\u2060 now"
    do: [{end: {result: won, reason: "the \\u200freason"}}]
label: "'the \\u202alabel'"
""" % ("x" * 5000)


@pytest.fixture
def sneaky(tmp_path: Path) -> str:
    path = tmp_path / "sneaky.yaml"
    path.write_text(SNEAKY, encoding="utf-8")
    return str(path)


def test_printable_escapes_bidirectional_and_zero_width_characters_visibly() -> None:
    for code in BIDI_AND_ZERO_WIDTH:
        assert printable(f"a{chr(code)}b") == f"a\\u{code:04x}b"
    assert printable("עברית ‎ok") == "עברית \\u200eok"  # right-to-left letters are kept as they are


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(st.one_of(st.sampled_from(HIDDEN + "\x1b\x07\x9b\x7f\t\n"),
                          st.characters(codec="utf-8", exclude_categories=["Cs"])), max_size=40).map("".join))
def test_printable_leaves_nothing_that_moves_or_hides_text_and_is_unchanged_on_safe_text(text: str) -> None:
    shown = printable(text)
    assert not {c for c in shown if ord(c) < 0x20 and c not in "\t\n" or 0x7F <= ord(c) < 0xA0 or c in HIDDEN}
    if not {c for c in text if ord(c) < 0x20 and c not in "\t\n" or 0x7F <= ord(c) < 0xA0 or c in HIDDEN}:
        assert shown == text


def test_a_title_past_the_bound_is_cut_with_an_ellipsis() -> None:
    assert shown_title("x" * 5000) == "x" * (MAX_TITLE - 1) + "…"
    assert shown_title("x" * MAX_TITLE) == "x" * MAX_TITLE
    assert shown_title("Klondike\u202e") == "Klondike\\u202e"


def _shown_safely(output: str) -> None:
    assert not set(output) & set(HIDDEN), [hex(ord(c)) for c in set(output) & set(HIDDEN)]
    assert "x" * MAX_TITLE not in output


def test_play_shows_every_ruleset_text_escaped_and_the_title_cut(sneaky: str) -> None:
    result = run("play", sneaky, "--seed", "1", input="help\nstop\n")
    assert result.exit_code == 0, (result.output, result.exception)
    _shown_safely(result.stdout)
    for shown in ("Safe\\u202eelit\\u200b", "Po\\u2066ints\\ufeff", "r\\u2067one", "End \\u202dit\\u2060 now",
                  "the \\u200freason", "the \\u202alabel", "x…"):
        assert shown in result.stdout, shown


def test_validate_rules_and_simulate_show_them_escaped_too(sneaky: str) -> None:
    for args in (("validate", sneaky), ("rules", sneaky), ("simulate", sneaky, "-n", "2"), ("stats",)):
        result = run(*args)
        assert result.exit_code == 0, (args, result.output)
        _shown_safely(result.output)
    assert "Safe\\u202eelit" in run("rules", sneaky).stdout


def test_an_error_quoting_such_text_escapes_it(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(SNEAKY.replace("take_deck: stock", "take_deck: \"st\\u202eock\""), encoding="utf-8")
    result = run("play", str(path))
    assert result.exit_code == 1 and "st\\u202eock" in result.output
    _shown_safely(result.output)


def test_a_terminal_console_escapes_what_it_prints_and_keeps_its_stream() -> None:
    out = io.StringIO()
    console = terminal_console(file=out, width=80, color_system=None)
    console.print("left\u202eright")
    assert out.getvalue() == "left\\u202eright\n" and not console.is_terminal
