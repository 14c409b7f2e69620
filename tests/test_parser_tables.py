"""The expression parsers: the shipped parse tables (`grammar/expressions.tables.json`) are
written from the grammar as it is and parse exactly as the parsers built from the grammar do;
a parsed text is kept as one frozen tree, and an error is raised anew each time."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import lark
import pytest
from cardrules import RulesetError
from cardrules.base import memo as memo_module
from cardrules.front import parser as parser_module
from cardrules.base.memo import Memo
from cardrules.front.parser import (
    STARTS,
    ParseError,
    build_parser,
    grammar_digest,
    parse_expression,
)
from cardrules.base.resources import grammar_dir
from cardrules.front.source import load_document
from conftest import ROOT

FIXTURES = Path(__file__).resolve().parent / "fixtures"
YAML_FILES = [*sorted((ROOT / "rulesets").glob("*.yaml")), *sorted((ROOT / "examples").glob("*.yaml")),
              *sorted(FIXTURES.glob("*.yaml")), *sorted((FIXTURES / "broken").glob("*.yaml"))]


# -- parsed texts ---------------------------------------------------------------------------------------

def test_an_expression_error_is_raised_anew_each_time_with_its_offset() -> None:
    for text in ("top(dst).rank ==", "a +* b", "f(x for in y)", "card.rank == 'A"):
        with pytest.raises(ParseError) as first:
            parse_expression(text)
        with pytest.raises(ParseError) as second:
            parse_expression(text)
        assert first.value is not second.value
        assert (first.value.message, first.value.offset) == (second.value.message, second.value.offset)


def test_a_parsed_expression_is_one_frozen_tree_equal_to_a_fresh_parse(monkeypatch: pytest.MonkeyPatch) -> None:
    text = "all(size(f) == 13 for f in foundation) and top(dst).rank == card.rank + 1 if x else -1"
    memo_module.clear()
    first = parse_expression(text)
    assert parse_expression(text) is first
    with monkeypatch.context() as cold:
        cold.setattr(Memo, "get", lambda self, key: None)
        fresh = parse_expression(text)
    assert fresh is not first and fresh == first
    with pytest.raises(AttributeError):
        first.pos = 3  # type: ignore[misc] - frozen: no later stage can change what the next load gets


# -- the shipped parse tables ------------------------------------------------------------------------

def test_the_shipped_tables_are_written_from_the_grammar_as_it_is() -> None:
    tables = parser_module._tables()
    grammar = (grammar_dir() / parser_module.GRAMMAR_FILE).read_text(encoding="utf-8")
    written = (grammar_dir() / parser_module.TABLES_FILE).read_text(encoding="utf-8")
    assert f'"grammar_sha256":"{grammar_digest(grammar)}"' in written, \
        "the grammar changed: run `python -m cardrules.front.parser` to write grammar/expressions.tables.json anew"
    if lark.__version__ in written:
        assert tables is not None and set(tables["parsers"]) == set(STARTS)


def corpus() -> list[str]:
    """Every string in the bundled rulesets, examples and fixtures, and broken pieces of them."""
    texts: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                walk(key)
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, str):
            texts.add(value)

    for path in YAML_FILES:
        try:
            walk(load_document(path).data)
        except RulesetError:
            pass
    pieces = set()
    for text in sorted(texts):
        for cut in {len(text) // 3, len(text) // 2, len(text) - 1}:
            pieces.add(text[:cut])
        pieces.update({text + ")", "(" + text, text.replace(" ", "", 1), text.replace("(", "[", 1), text + " if"})
    return sorted(texts | pieces | {"", " ", "1 +", "a..b", "x for x in y", "f(,)", "'unclosed", "not not x"})


def outcomes(parse: Any, texts: list[str], start: str) -> list[Any]:
    results = []
    for text in texts:
        try:
            results.append(parse(text, start))
        except ParseError as error:
            results.append(("error", error.message, error.offset))
    return results


def test_the_shipped_parsers_parse_as_the_grammar_does(monkeypatch: pytest.MonkeyPatch) -> None:
    if parser_module._tables() is None:
        pytest.skip(f"the shipped tables were written by another Lark than {lark.__version__}")
    texts = corpus()
    assert len(texts) > 1000
    for start in STARTS:
        shipped = parser_module._load_parser(start)
        assert shipped is not None
        built = build_parser(start)
        monkeypatch.setattr(parser_module, "_parser", lambda s, parser=shipped: parser)
        from_tables = outcomes(parser_module._parse_anew, texts, start)
        monkeypatch.setattr(parser_module, "_parser", lambda s, parser=built: parser)
        from_grammar = outcomes(parser_module._parse_anew, texts, start)
        assert from_tables == from_grammar
        assert any(not isinstance(r, tuple) for r in from_tables) and any(isinstance(r, tuple) for r in from_tables)


def test_stale_tables_are_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    parser_module._tables.cache_clear()
    monkeypatch.setattr(parser_module, "_grammar", lambda: "// another grammar\n")
    try:
        assert parser_module._tables() is None
        assert parser_module._load_parser("start") is None
    finally:
        parser_module._tables.cache_clear()


def test_the_parsers_in_use_come_from_the_shipped_tables_not_the_grammar(monkeypatch: pytest.MonkeyPatch) -> None:
    """What the tables are for: no parser is built from the grammar when they are current (how much
    faster loading is, is measured by benchmarks/startup.py, not here)."""
    if parser_module._tables() is None:
        pytest.skip(f"the shipped tables were written by another Lark than {lark.__version__}")

    def no_building(start: str) -> None:
        raise AssertionError(f"the parser of {start!r} was built from the grammar")

    monkeypatch.setattr(parser_module, "build_parser", no_building)
    parser_module._parser.cache_clear()
    try:
        for start in STARTS:
            assert parser_module._parser(start) is not None
    finally:
        parser_module._parser.cache_clear()
