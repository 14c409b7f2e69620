"""Broken rulesets: `load_ruleset` raises `RulesetError` at the right file, line and column.

Every file in ``tests/fixtures/broken/`` is ``tests/fixtures/mini.yaml`` (a small
valid ruleset derived from klondike.yaml) with one thing broken; its first line
says what. Each case gives the exact ``line:col`` of the error, the text that
must start at that column (so a wrong column shows what it points at instead) and
a fragment of the message, and checks the ``format_error`` rendering: the
``path:line:col: message`` header, the source line and a caret under the column.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cardrules import format_error, load_ruleset

from helpers import load_error

FIXTURES = Path(__file__).resolve().parent / "fixtures"
MINI = FIXTURES / "mini.yaml"
BROKEN = FIXTURES / "broken"

# (fixture in broken/, line, column, text starting at that column, fragment of the message)
CASES: list[tuple[str, int, int, str, str]] = [
    # YAML and schema
    ("yaml_syntax", 31, 16, ": tableau", "YAML syntax error: mapping values are not allowed"),
    ("duplicate_key", 30, 3, "draw:", "duplicate key 'draw'"),
    ("unknown_move_key", 33, 5, "wehn:", "unknown key 'wehn'"),
    ("wrong_type", 14, 20, "three", "'three' is not of type 'integer'"),
    ("missing_moves", 2, 1, "ruleset: mini", "'moves' is required"),
    # effects: an unknown one is named at its key, whatever effect it is nested in
    ("unknown_effect", 22, 9, "burn: used", "unknown effect 'burn': effects are act, add,"),
    ("unknown_effect_name", 35, 9, "moov", "unknown effect 'moov'"),
    ("effect_missing_key", 35, 9, "if:", "'then' is required"),
    # expression syntax, in every YAML quoting style: the caret is on the offending character
    ("dsl_plain", 33, 43, "> 0", "unexpected '>'"),
    ("dsl_plain_multiline", 34, 25, "! 1", "unexpected character '!'"),
    ("dsl_single", 33, 39, "== 1'", "unexpected '=='"),
    ("dsl_single_escapes", 33, 40, "?'", "unexpected character '?'"),
    ("dsl_double", 33, 32, '$"', "unexpected character '$'"),
    ("dsl_double_escapes", 33, 44, '?"', "unexpected character '?'"),
    ("dsl_block", 35, 27, "= 1", "unexpected character '='"),
    ("dsl_folded", 35, 25, "= 1", "unexpected character '='"),
    # an expression that stops short: the caret is just after its last character (the closing quote)
    ("dsl_unexpected_end", 33, 31, '"', "end of the expression"),
    # names
    ("unknown_zone_from", 25, 11, "stok", "unknown zone 'stok'"),
    ("unknown_zone_from_list", 31, 19, "tablo", "unknown zone 'tablo'"),
    ("unknown_name", 33, 23, "dest)", "unknown name 'dest'"),
    ("unknown_option", 26, 23, "drw,", "unknown option 'drw' (did you mean 'draw'? options: draw)"),
    ("unknown_attribute", 33, 41, "rnk >", "unknown card attribute 'rnk' (did you mean 'rank'?"),
    ("loop_unknown_zone", 20, 15, "tablo", "unknown name 'tablo'"),
    ("score_unknown_name", 41, 8, "scor", "unknown name 'scor'"),
    ("unknown_variable", 36, 15, "scor: 5", "unknown variable 'scor'"),
    ("unknown_deck", 3, 7, "standard-53", "deck 'standard-53' not found"),
    ("turn_up_type", 22, 18, "p", "expected a card, got a pile"),
    # errors in ruleset functions are reported at the function's own text
    ("function_body", 16, 47, "rnak + 1", "unknown card attribute 'rnak' (did you mean 'rank'?"),
    ("function_call_types", 16, 24, "t) or", "got a card (in function 'fits')"),
    ("function_recursion", 17, 15, 'pong(x)"', "recursion is not allowed"),
]


def test_mini_fixture_loads() -> None:
    rules = load_ruleset(MINI)
    assert [m.name for m in rules.moves] == ["draw", "play"]
    assert rules.new_game(seed=1).legal_moves()


def test_every_broken_fixture_has_a_case() -> None:
    assert sorted(p.stem for p in BROKEN.glob("*.yaml")) == sorted(c[0] for c in CASES)


@pytest.mark.parametrize("name,line,col,at,fragment", [pytest.param(*c, id=c[0]) for c in CASES])
def test_error_position(name: str, line: int, col: int, at: str, fragment: str) -> None:
    path = BROKEN / f"{name}.yaml"
    error = load_error(path)
    assert fragment in error.message
    assert error.pos is not None
    source_lines = path.read_text(encoding="utf-8").splitlines()
    pointed = source_lines[error.pos.line - 1][error.pos.col - 1:] if error.pos.line <= len(source_lines) else ""
    assert (error.pos.line, error.pos.col) == (line, col), f"points at {pointed!r}, expected {at!r}"
    assert error.pos.path == str(path)
    source = source_lines[line - 1]
    assert source[col - 1:].startswith(at)
    assert format_error(error).splitlines() == [
        f"{path}:{line}:{col}: {error.message}",
        f"    {source}",
        "    " + " " * (col - 1) + "^",
    ]
    assert str(error) == f"{path}:{line}:{col}: {error.message}"


def test_error_in_a_function_body_names_the_function() -> None:
    error = load_error(BROKEN / "function_call_types.yaml")
    # The call site is line 33 ("fits(dst, card)"), but the error is inside fits, on line 16.
    assert error.pos is not None and error.pos.line == 16
    assert error.message.endswith("(in function 'fits')")


def test_recursion_names_the_cycle() -> None:
    error = load_error(BROKEN / "function_recursion.yaml")
    assert "pong -> ping -> pong" in error.message or "ping -> pong -> ping" in error.message


def test_the_path_shown_is_the_one_given(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "broken.yaml").write_text((BROKEN / "unknown_name.yaml").read_text(encoding="utf-8"),
                                          encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    error = load_error(Path("broken.yaml"))
    assert format_error(error).startswith("broken.yaml:33:23: unknown name 'dest'")


def test_tabs_in_the_source_line_keep_the_caret_under_the_column(tmp_path: Path) -> None:
    # A tab inside a double-quoted expression: format_error shows it as one space, so the caret still fits.
    text = MINI.read_text(encoding="utf-8").replace('    when: "fits(card, dst)"',
                                                    '    when: "fits(card,\tdest)"')
    path = tmp_path / "tab.yaml"
    path.write_text(text, encoding="utf-8")
    error = load_error(path)
    assert error.pos is not None and (error.pos.line, error.pos.col) == (33, 23)
    header, source, caret = format_error(error).splitlines()
    assert source[caret.index("^")] == "d"


# -- options given at load time --------------------------------------------------------------


def test_unknown_option_at_load() -> None:
    error = load_error(MINI, nope=1)
    assert "no option 'nope'" in error.message
    assert "draw" in error.message  # the options there are
    assert format_error(error).startswith("error: ") or format_error(error).startswith(f"{MINI}:")


@pytest.mark.parametrize("value", [5, "5", "two", True])
def test_bad_option_value_at_load(value: object) -> None:
    error = load_error(MINI, draw=value)
    assert "option 'draw' cannot be" in error.message
    assert "choose from: 1, 3" in error.message


@pytest.mark.parametrize("value", [3, "3", " 3 "])
def test_good_option_value_at_load(value: object) -> None:
    assert load_ruleset(MINI, options={"draw": value}).option_values == {"draw": 3}


# -- files that are not rulesets -------------------------------------------------------------


def test_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "empty.yaml"
    path.write_text("# nothing here\n", encoding="utf-8")
    error = load_error(path)
    assert "empty" in error.message
    assert error.pos is not None and error.pos.path == str(path)


def test_not_a_mapping(tmp_path: Path) -> None:
    path = tmp_path / "list.yaml"
    path.write_text("- ruleset: mini\n", encoding="utf-8")
    error = load_error(path)
    assert "mapping" in error.message
    assert error.pos is not None and (error.pos.line, error.pos.col) == (1, 1)


def test_missing_file(tmp_path: Path) -> None:
    error = load_error(tmp_path / "nowhere.yaml")
    assert "nowhere" in error.message
