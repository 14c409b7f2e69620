"""The terminal, as players expect: hands in the deck's order, nothing wider than 80 columns,
the explain carets under their part, seats left human said, "did you mean" for every unknown
key, tab completion of ruleset names.

(A lone legal move played after a notice and the table drawn in place are tested with the hot
seat, `test_hot_seat.py`, where a session is driven through its input stream.)
"""

from __future__ import annotations

import io
import os
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console
from rich.text import Text
from typer.testing import CliRunner

from cardrules import load_ruleset
from cardrules.python import render
from cardrules.app.cli import app, complete_ruleset
from cardrules.base.errors import IllegalMoveError
from cardrules.python.explanation import Marked
from cardrules.app.play import HELP, Session
from cardrules.app.play_texts import help_text, why_not
from cardrules.app.realtime import REALTIME_HELP
from conftest import ROOT, RULESETS

runner = CliRunner()
BUNDLED = sorted(path.stem for path in RULESETS.glob("*.yaml"))
EXAMPLES = sorted(str(path) for path in (ROOT / "examples").glob("*.yaml"))


def run(*args: str, input: str | None = None) -> Any:  # noqa: A002 - mirrors CliRunner
    return runner.invoke(app, list(args), input=input, env={"COLUMNS": "80"})


def drawn(part: Any, width: int = 80) -> list[str]:
    """`part` as a console `width` columns wide prints it, line by line (no colours)."""
    console = Console(file=io.StringIO(), width=width, color_system=None)
    with console.capture() as capture:
        console.print(part)
    return capture.get().splitlines()


def hand_line(lines: list[str], pile: str) -> list[str]:
    return next(line.split()[1:] for line in lines if line.startswith(pile + " "))


# -- hands in the deck's order ----------------------------------------------------------------

SUITS = "♣♦♥♠"   # standard-52 lists clubs, diamonds, hearts, spades, each Ace to King
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


@pytest.mark.parametrize("seed", [1, 7, 2024])
def test_a_hand_is_drawn_to_its_owner_in_the_decks_order_and_the_state_keeps_the_deal(seed: int) -> None:
    game = load_ruleset("spades").new_game(seed=seed)
    before = [list(pile) for pile in game.state.piles]
    moves = [move.text() for move in game.legal_moves()]
    faces = hand_line(drawn(render.render_table(game, 0)), "h@1")
    assert len(faces) == 13
    assert faces == sorted(faces, key=lambda face: (SUITS.index(face[-1]), RANKS.index(face[:-1])))
    assert [list(pile) for pile in game.state.piles] == before            # drawing changes nothing
    assert [move.text() for move in game.legal_moves()] == moves
    dealt = [game.rules.deck.faces[card] for card in before[game.rules.pile_names.index("h@1")]]
    assert sorted(dealt) == sorted(faces) and dealt != faces  # the same cards; dealt in another order
    assert set(hand_line(drawn(render.render_table(game, 0)), "h@2")) == {game.rules.deck.back}


def test_the_hand_stays_sorted_as_cards_leave_it() -> None:
    game = load_ruleset("spades").new_game(seed=5)
    rng = random.Random(5)
    for _ in range(12):  # bids and a few tricks, moves chosen at random
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_moves()))
        seat = game.current_player
        faces = hand_line(drawn(render.render_table(game, seat)), f"h@{seat + 1}")
        assert faces == sorted(faces, key=lambda face: (SUITS.index(face[-1]), RANKS.index(face[:-1])))


def test_a_deck_without_suits_and_ranks_keeps_the_dealt_order() -> None:
    rules = load_ruleset("ten-bucks", {"copies": "3"})
    game = rules.new_game(deal="2 1 1 2 2 1", players=2)   # seat 1: $2 $1 $2, seat 2: $1 $2 $1
    assert hand_line(drawn(render.render_table(game, 0)), "h@1") == ["$2", "$1", "$2"]
    assert render.display_order(game, "hand") is None


def test_only_a_hand_drawn_card_by_card_is_sorted() -> None:
    game = load_ruleset("spades").new_game(seed=1)
    assert render.display_order(game, "hand") is not None
    assert render.display_order(game, "trick") is None     # seen by all: as played
    assert render.display_order(game, "taken") is None


# -- nothing wider than 80 columns ------------------------------------------------------------

@pytest.mark.parametrize("name", BUNDLED + EXAMPLES)
def test_tables_help_and_moves_fit_80_columns(name: str) -> None:
    rules = load_ruleset(name)
    game = rules.new_game(seed=3)
    rng = random.Random(3)
    for step in range(40):  # a few positions of a random game
        if game.is_over:
            break
        if step % 10 == 0:
            seat = game.current_player
            table = render.render_seats_table(game, seat) if rules.simultaneous else render.render_table(game, seat)
            for part in (table, render.render_moves(game, game.legal_moves()), render.render_rules_help(game)):
                assert max(map(len, drawn(part))) <= 80
        game.apply(rng.choice(game.legal_moves()))
    for template in (HELP, REALTIME_HELP):  # the help is written to fit: the console wraps none of it
        text = help_text(template, game).plain
        assert drawn(help_text(template, game)) == text.splitlines()
        assert max(map(len, text.splitlines())) <= 80


def test_the_status_line_wraps_between_its_parts() -> None:
    game = load_ruleset("spades").new_game(seed=1)
    whole = render.status_line(game, 0).plain
    assert len(whole) > 80  # four labelled values and the turn: too wide for one line
    lines = [line.rstrip() for line in drawn(render.render_table(game, 0))[-2:]]
    assert max(map(len, lines)) <= 80 and "   ".join(lines) == whole
    assert lines[-1].startswith("Bags: ") and lines[-1].endswith("seat 1 to play")
    assert drawn(render.render_table(game, 0), width=200)[-1].rstrip() == whole  # room enough: one line


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(alphabet="ab♥$()/1", min_size=1, max_size=30), min_size=1, max_size=12),
       st.integers(min_value=20, max_value=120))
def test_a_packed_line_wraps_between_its_parts_only(parts: list[str], width: int) -> None:
    texts = [Text(part.replace(" ", "")) for part in parts]
    lines = [line.rstrip() for line in drawn(render.PackedLine(texts), width)]
    assert all(len(line) <= width for line in lines)
    kept = [part for line in lines for part in line.split("   ")]
    assert len(kept) == len(texts)
    for shown, text in zip(kept, texts):  # every part whole on one line; one wider than the console cut short
        assert shown == text.plain if len(text.plain) <= width else shown == text.plain[:width - 1] + "…"


def test_rows_of_piles_the_outcome_and_the_title_wrap_between_their_parts() -> None:
    rules = load_ruleset("ten-bucks-expansions")
    game = rules.new_game(seed=2, players=5)
    rng = random.Random(2)
    while not game.is_over:
        game.apply(rng.choice(game.legal_moves()))
    pile = re.compile(r"^\S+ (\S+( \(\d+\))?|\[  \])$")  # `c3@4 $3 (2)`, `c5@1 $4/5`, `s1 [  ]`
    row = [line for line in drawn(render.render_table(game, None)) if line.startswith("c")]
    assert len(row) > 1  # the claimed bills of five seats: too many piles for one line
    assert all(pile.match(part) for line in row for part in line.rstrip().split("   "))
    outcome = render.outcome_text(game).plain
    told = [line.rstrip() for line in drawn(render.packed(render.outcome_text(game)), 60)]
    assert len(outcome) > 60 and len(told) > 1 and max(map(len, told)) <= 60
    assert "   ".join(told) == outcome  # cut only where its parts meet
    result = run("play", "ten-bucks-expansions", "--players", "5", *[f"--seat={s}=random" for s in "12345"],
                 "--seed", "2")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "Ten Bucks with Wild Wagers, Zero Risk and Bad Investment  seed: shown at the end"
    assert lines[1] == "copies=6  wilds=4  zeros=12  weird=2"


# -- the explanation's carets under the right characters ---------------------------------------

def caret_checked(lines: list[str], part: str, width: int) -> None:
    """The line of carets stands under `part` on the line above it, each line within `width`."""
    row = next(i for i, line in enumerate(lines) if line.strip().startswith("^"))
    expression, carets = lines[row - 1], lines[row]
    start = carets.index("^")
    length = len(carets[start:].split(" ", 1)[0])
    assert expression[start:start + length] == part[:length]
    assert max(map(len, lines)) <= width


@pytest.mark.parametrize("width", [40, 60, 80])
def test_a_long_expression_is_cut_to_a_window_with_the_carets_under_its_part(width: int) -> None:
    words = [f"clause_{i}(c) and" for i in range(30)]
    text = " ".join(words) + " final(c)"
    part = "clause_17(c)"
    start = text.index(part)
    mark = Marked("when", text, start, start + len(part), None, "is false: clause_17(c) is false")
    caret_checked(mark.lines(width), part, width)
    wide = Marked("when", "a and b", 6, 7, None, "is false")
    assert wide.lines(width) == ["when", "  a and b", "        ^ is false"]


def test_why_a_move_is_not_legal_fits_the_console_with_the_carets_in_place() -> None:
    game = load_ruleset("ten-bucks").new_game(seed=3)
    told = why_not(game, "h@1:1>s3", 0, IllegalMoveError("'h@1:1>s3' is not a legal move now"), 80)
    lines = told.splitlines()
    assert max(map(len, lines)) <= 80
    caret_checked(lines, "value(s) in c.values", 80)
    assert drawn("\n".join(lines)) == lines  # the console wraps none of it


def test_a_long_condition_is_cut_to_80_columns_with_the_carets_under_its_false_part() -> None:
    game = load_ruleset("canfield").new_game(seed=2)
    error = IllegalMoveError("'t4>t2' is not a legal move now")
    part = "below(top(t).rank) == c.rank"
    wide = why_not(game, "t4>t2", 0, error, 200).splitlines()
    assert max(map(len, wide)) > 80  # the whole condition, on a wide console
    caret_checked(wide, part, 200)
    lines = why_not(game, "t4>t2", 0, error, 80).splitlines()
    caret_checked(lines, part, 80)
    assert "..." in lines[-3] and lines[-1].strip() == "is false: below(top(t).rank) is 4, c.rank is 8 (as empty(t) is false)"
    assert drawn("\n".join(lines)) == lines  # the console wraps none of it


def test_an_illegal_move_at_an_80_column_terminal_keeps_its_carets_under_the_part() -> None:
    game = load_ruleset("ten-bucks").new_game(seed=3)
    out = io.StringIO()
    console = Console(file=out, width=80, color_system=None)
    Session(game, {0: None, 1: make_greedy(1), 2: make_greedy(2), 3: make_greedy(3)}, console, True,
            input=io.StringIO("h@1:1>s3\nquit\n")).run()
    lines = out.getvalue().splitlines()
    assert max(map(len, lines)) <= 80
    caret_checked(lines, "value(s) in c.values", 80)


def make_greedy(seed: int) -> Any:
    from cardrules.agents.bots import make_bot
    return make_bot("greedy", seed)


# -- scripted input gives every move; piped output is never cleared -----------------------------

def test_a_script_still_gives_a_lone_move_and_piped_output_scrolls() -> None:
    rules = load_ruleset("ten-bucks", {"copies": "3"})
    game = rules.new_game(deal="1 2 1 2 1 2", players=2)
    out = io.StringIO()
    Session(game, {0: None, 1: None}, Console(file=out, width=80), False,
            input=io.StringIO("h@1:1>s1\npass\nh@2:2>s2\nquit\n")).run()
    text = out.getvalue()
    assert "2. seat 1: pass" in text and "only move" not in text
    interactive = io.StringIO()
    game = rules.new_game(deal="1 2 2 1 1 2", players=2)
    Session(game, {0: None, 1: make_greedy(1)}, Console(file=interactive, width=80), True,
            input=io.StringIO("h@1:1>s1\nshow\nquit\n")).run()
    assert "\x1b" not in interactive.getvalue() and interactive.getvalue().count("h@1 $") >= 2


# -- seats left human ---------------------------------------------------------------------------

def test_seats_not_given_are_said_to_be_human_in_a_game_of_several() -> None:
    snap = str(ROOT / "examples" / "snap.yaml")
    result = run("play", snap, "--seat", "2=random", "--seed", "1", input="quit\n")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[1] == "Hot seat: seats 1 and 3 are human and take turns at this terminal."
    assert lines[2] == "(A seat not given with --seat is human; --seat 3=greedy makes seat 3 a bot.)"
    named = run("play", snap, "--seat", "2=random", "--seat", "3=greedy", "--seed", "1", input="quit\n")
    assert named.exit_code == 0 and "Hot seat" not in named.stdout
    chosen = run("play", "ten-bucks", "--players", "2", "--seat", "1=human", "--seat", "2=human", "--seed", "1",
                 input="quit\n")
    assert chosen.exit_code == 0 and "Hot seat" not in chosen.stdout  # both humans asked for
    alone = run("play", "klondike", "--seed", "1", input="quit\n")
    assert alone.exit_code == 0 and "Hot seat" not in alone.stdout


# -- "did you mean" with every allowed key --------------------------------------------------------

def test_an_unknown_ruleset_key_names_the_closest_and_lists_every_allowed_key(tmp_path: Path) -> None:
    text = (RULESETS / "klondike.yaml").read_text(encoding="utf-8")
    broken = tmp_path / "klondike.yaml"
    broken.write_text(text.replace("waste: {short: w, show: fan}", "waste: {short: w, shwo: fan}", 1),
                      encoding="utf-8")
    assert broken.read_text(encoding="utf-8") != text
    result = run("validate", str(broken))
    assert result.exit_code == 1
    assert ("unknown key 'shwo' (did you mean 'show'? allowed: count, covered_by, empty_piles, hide_empty, "
            "label, labels, order, per_player, short, show, visibility)") in result.output
    top = tmp_path / "top.yaml"
    top.write_text(text.replace("\ntitle:", "\ntitel:", 1), encoding="utf-8")
    result = run("validate", str(top))
    assert "unknown key 'titel' (did you mean 'title'? allowed: deck, description, " in result.output
    assert "turns, variables, zones)" in result.output  # the whole list, not cut short


def test_an_unknown_option_or_seat_key_names_the_closest_and_lists_them_all() -> None:
    option = run("play", "klondike", "-o", "drwa=3")
    assert option.exit_code == 1
    assert "klondike has no option 'drwa' (did you mean 'draw'? options: cumulative, draw, scoring)" in option.output
    kind = run("play", "spades", "--seat", "2=gredy")
    assert kind.exit_code == 2
    assert "did you mean 'greedy'? choose human, random, greedy, montecarlo, ismcts" in " ".join(kind.output.split())
    param = run("play", "nerts", "--seat", "2=greedy:sped=2")
    assert param.exit_code == 2
    assert "has no parameter 'sped'; did you mean 'speed'? parameters: speed (" in " ".join(param.output.split())
    far = run("play", "nerts", "--seat", "2=greedy:xyz=2")
    assert "did you mean" not in far.output and "parameters: speed (" in " ".join(far.output.split())


# -- tab completion ------------------------------------------------------------------------------

def test_tab_completion_offers_bundled_names_and_yaml_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    assert complete_ruleset("klondike-v") == ["klondike-vegas", "klondike-vegas-cumulative"]
    assert complete_ruleset("")[:len(BUNDLED)] == BUNDLED
    assert complete_ruleset("examples/sn") == ["examples/snap.yaml"]
    assert "examples/" in complete_ruleset("exa")
    assert all(name.endswith((".yaml", ".yml", "/")) for name in complete_ruleset("examples/"))
    assert "examples/klondike-easy.deal" not in complete_ruleset("examples/")
    assert complete_ruleset("no-such-folder/x") == []


def test_the_shell_asks_the_command_for_completions() -> None:
    env = {**os.environ, "_CARDRULES_COMPLETE": "complete_bash", "COMP_WORDS": "cardrules play ten-bucks-w",
           "COMP_CWORD": "2"}
    command = Path(sys.executable).parent / "cardrules"  # the installed command: the shell calls it by name
    done = subprocess.run([str(command)], env=env, capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.stdout.split() == ["ten-bucks-wild-two", "ten-bucks-wild-wagers"]


def test_an_example_move_too_long_for_the_help_line_goes_on_a_line_of_its_own() -> None:
    class LongMove:
        def text(self, long: bool = False) -> str:
            return "eight:hand@1:8D>discard clubs" if long else "eight:h@1:8D>d clubs"

    class Game:
        def legal_moves(self) -> list[LongMove]:
            return [LongMove()]

    for template, own_line in ((HELP, False), (REALTIME_HELP, True)):  # the realtime line is longer
        lines = help_text(template, Game()).plain.splitlines()  # type: ignore[arg-type]
        assert max(map(len, lines)) <= 80
        assert (" " * 18 + "eight:h@1:8D>d clubs" in lines) == own_line
        assert any(line.endswith("e.g. eight:h@1:8D>d clubs") for line in lines) != own_line
