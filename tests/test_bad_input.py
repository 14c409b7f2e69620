"""Every bad ruleset or deck input is a `RulesetError` at its line and column, never a Python
exception from deep inside a library, and nothing in it can drive the terminal.

The validator is driven as a user drives it (`cardrules validate`): exit status 1, the message
with its position, no traceback.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardrules import RulesetError, format_error, load_ruleset
from cardrules.app.cli import app
from cardrules.front.decks import load_deck
from cardrules.base.errors import SourcePos

from helpers import mini_with




# (what, text replaced in mini.yaml, replacement, line, column, fragment of the message)
CASES = [
    ("a mapping used as a key", "variables:\n", "variables:\n  ? {a: 1}\n  : {initial: 0}\n", 9, 5,
     "a key must be a plain value"),
    ("a list used as a key", "variables:\n", "variables:\n  ? [a, b]\n  : {initial: 0}\n", 9, 5,
     "a key must be a plain value"),
    ("an integer of 5,000 digits", "default: 1", "default: " + "9" * 5000, 7, 14, "the number is too large"),
    ("an integer past 64 bits", "default: 1", "default: 9223372036854775808", 7, 14, "outside the 64-bit range"),
    ("an ANSI clear-screen in the title", "ruleset: mini", 'ruleset: mini\ntitle: "x\\e[2J\\e[H"', 3, 10,
     "control character U+001B"),
    ("an OSC window title in a help text", "    to: waste\n", '    to: waste\n    help: "\\e]0;pwned\\a"\n', 28, 12,
     "control character U+001B"),
    ("a control character in a key", "  score:\n", '  "sco\\x1bre":\n', 9, 7, "control character U+001B"),
    ("a character YAML forbids", "ruleset: mini", "ruleset: mini\x7f", 2, 14, "character U+007F is not allowed"),
    ("a merge key of a scalar", "variables:\n", "variables:\n  <<: 3\n", 9, 7,
     "a merge key (<<) takes a mapping or a list of mappings"),
]


@pytest.mark.parametrize("old,new,line,col,fragment", [pytest.param(o, n, li, c, f, id=w)
                                                        for w, o, n, li, c, f in CASES])
def test_bad_yaml_is_a_ruleset_error_at_its_place(tmp_path: Path, old: str, new: str, line: int, col: int,
                                                  fragment: str) -> None:
    path = mini_with(tmp_path, old, new)
    with pytest.raises(RulesetError) as caught:
        load_ruleset(path)
    error = caught.value
    assert fragment in error.message
    assert error.pos is not None and (error.pos.line, error.pos.col) == (line, col)
    shown = format_error(error)
    assert "\x1b" not in shown and "\x07" not in shown and "\x7f" not in shown


@pytest.mark.parametrize("old,new,line,col,fragment", [pytest.param(o, n, li, c, f, id=w)
                                                        for w, o, n, li, c, f in CASES[:6]])
def test_validate_reports_bad_yaml_without_a_traceback(tmp_path: Path, old: str, new: str, line: int, col: int,
                                                       fragment: str) -> None:
    path = mini_with(tmp_path, old, new)
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)  # an exit, not a crash
    assert f"{path}:{line}:{col}: " in result.output and fragment in result.output
    assert "Traceback" not in result.output and "\x1b" not in result.output


def test_derive_from_a_list_valued_attribute_is_an_error_at_derive(tmp_path: Path) -> None:
    path = tmp_path / "deck.yaml"
    path.write_text("deck: multi\nattributes: {suits: list, rank: int, kind: str}\ncode: '{rank}{suits}'\n"
                    "derive:\n  kind: {from: suits, map: {a: x}}\n"
                    "cards:\n  - each: {rank: [1, 2], suits: [[a, b], [c]]}\n", encoding="utf-8")
    with pytest.raises(RulesetError, match="derive: card 1's 'suits' is a list") as caught:
        load_deck(path)
    assert caught.value.pos is not None and caught.value.pos.line == 5


def test_format_error_escapes_control_characters_and_keeps_the_caret_under_the_column() -> None:
    text = 'title: "\x1b[2J" bad\n'
    shown = format_error(RulesetError("boom", SourcePos("f.yaml", 1, 15, text)))
    header, source, caret = shown.split("\n")
    assert "\x1b" not in shown and "\\x1b" in source
    assert source[caret.index("^")] == "b"  # "bad", after the escape widened the line


def test_format_error_shows_only_the_part_of_a_long_line_around_the_column() -> None:
    text = "x: [" + "1," * 5000 + "oops]\n"
    col = text.index("oops") + 1
    shown = format_error(RulesetError("boom", SourcePos("f.yaml", 1, col, text)))
    _, source, caret = shown.split("\n")
    assert len(source) < 120 and source[caret.index("^")] == "o"
