"""The loader's memos (`cardrules.base.memo`): the same results and errors as loading from scratch,
never a stale file, nothing shared that a caller could change, and bounded."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from cardrules import RulesetError, format_error, load_ruleset
from cardrules.base import memo as memo_module
from cardrules.front import parser as parser_module
from cardrules.front import source as source_module
from cardrules.front.decks import load_deck
from cardrules.base.memo import Memo
from cardrules.python.load import check_ruleset
from cardrules.front.schema import validate
from cardrules.front.source import load_document
from conftest import ROOT

FIXTURES = Path(__file__).resolve().parent / "fixtures"
BROKEN = sorted((FIXTURES / "broken").glob("*.yaml"))
RULESETS = sorted((ROOT / "rulesets").glob("*.yaml")) + sorted((ROOT / "examples").glob("*.yaml"))


def outcome(path: Path, **options: Any) -> str:
    """What loading `path` gives, as text: the error as the command line shows it, or the
    compiled ruleset's generated code and tables."""
    try:
        rules = load_ruleset(path, options=options or None)
    except RulesetError as error:
        return "error\n" + format_error(error)
    return "\n".join(["ok", rules.generated_source, repr(rules.pile_names), repr(rules.deck.codes),
                      repr(rules.deck.cards), repr(rules.option_values), repr(sorted(rules.zones))])


# -- the same results and errors -------------------------------------------------------------------

@pytest.mark.parametrize("path", BROKEN, ids=lambda p: p.stem)
def test_a_broken_file_fails_the_same_way_with_the_memos_warm(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with monkeypatch.context() as cold:
        cold.setattr(Memo, "get", lambda self, key: None)
        expected = outcome(path)
    assert expected.startswith("error\n")
    load_ruleset(FIXTURES / "mini.yaml")  # the file it is a broken copy of: its parts are now known
    assert outcome(path) == expected
    assert outcome(path) == expected  # and once more, with this file's own parts known too


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.stem)
def test_a_ruleset_loads_the_same_with_the_memos_warm(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with monkeypatch.context() as cold:
        cold.setattr(Memo, "get", lambda self, key: None)
        expected = outcome(path)
    assert outcome(path) == expected
    assert outcome(path) == expected


# -- never stale ------------------------------------------------------------------------------------

def write(path: Path, text: str) -> None:
    """Write `path` so that its modification time differs from the last write's."""
    before = path.stat().st_mtime_ns if path.exists() else 0
    path.write_text(text, encoding="utf-8")
    if path.stat().st_mtime_ns == before:  # a coarse clock: the memo must not depend on it anyway
        os.utime(path, ns=(before + 1_000_000, before + 1_000_000))


def test_a_changed_ruleset_file_is_read_again(tmp_path: Path) -> None:
    text = (FIXTURES / "mini.yaml").read_text(encoding="utf-8")
    path = tmp_path / "game.yaml"
    write(path, text)
    assert load_ruleset(path).title != "Changed"
    write(path, text.replace("ruleset: mini\n", "ruleset: mini\ntitle: Changed\n", 1))
    assert load_ruleset(path).title == "Changed"
    write(path, text.replace('when: "fits(card, dst)"', 'when: "fits(card, dest)"', 1))
    with pytest.raises(RulesetError, match="unknown name 'dest'") as info:
        load_ruleset(path)
    assert info.value.pos is not None and info.value.pos.line == 33
    write(path, text)  # back as it was: loads again
    assert load_ruleset(path).title != "Changed"


def test_the_same_text_under_another_name_reports_that_name(tmp_path: Path) -> None:
    text = (FIXTURES / "broken" / "unknown_name.yaml").read_text(encoding="utf-8")
    for name in ("one.yaml", "two.yaml"):
        write(tmp_path / name, text)
        with pytest.raises(RulesetError) as info:
            load_ruleset(tmp_path / name)
        assert format_error(info.value).startswith(f"{tmp_path / name}:33:23: unknown name 'dest'")


def test_a_changed_deck_file_is_read_again(tmp_path: Path) -> None:
    ruleset = (FIXTURES / "mini.yaml").read_text(encoding="utf-8")
    deck = (ROOT / "rulesets" / "decks" / "standard-52.yaml").read_text(encoding="utf-8")
    assert "deck: standard-52" in ruleset
    write(tmp_path / "game.yaml", ruleset.replace("deck: standard-52", "deck: my-deck", 1))
    write(tmp_path / "my-deck.yaml", deck)
    assert load_ruleset(tmp_path / "game.yaml").deck.codes[0] == "AC"
    write(tmp_path / "my-deck.yaml", deck.replace('code: "{rank}{suit}"', 'code: "{suit}{rank}"', 1))
    assert load_ruleset(tmp_path / "game.yaml").deck.codes[0] == "CA"
    write(tmp_path / "my-deck.yaml", deck.replace("  rank: int\n", "  rank: int\n  rnak: int\n", 1)
          .replace("derive:", "bad_key: 1\nderive:", 1))
    with pytest.raises(RulesetError, match="unknown key 'bad_key'") as info:
        load_ruleset(tmp_path / "game.yaml")
    assert info.value.pos is not None and info.value.pos.path == str(tmp_path / "my-deck.yaml")


def test_a_changed_base_of_a_variant_is_read_again(tmp_path: Path) -> None:
    write(tmp_path / "base.yaml", (FIXTURES / "mini.yaml").read_text(encoding="utf-8"))
    write(tmp_path / "variant.yaml", "extends: base\nruleset: variant\ntitle: Variant\n")
    assert [m.name for m in load_ruleset(tmp_path / "variant.yaml").moves] == ["draw", "play"]
    base = (tmp_path / "base.yaml").read_text(encoding="utf-8")
    write(tmp_path / "base.yaml", base.replace("  play:\n", "  put:\n", 1))
    assert [m.name for m in load_ruleset(tmp_path / "variant.yaml").moves] == ["draw", "put"]
    write(tmp_path / "base.yaml", base.replace('when: "fits(card, dst)"', 'when: "fits(card, dest)"', 1))
    with pytest.raises(RulesetError) as info:
        load_ruleset(tmp_path / "variant.yaml")
    assert format_error(info.value).startswith(f"{tmp_path / 'base.yaml'}:33:23: unknown name 'dest'")


def test_a_file_that_became_unreadable_is_an_error_not_a_memory(tmp_path: Path) -> None:
    path = tmp_path / "game.yaml"
    write(path, (FIXTURES / "mini.yaml").read_text(encoding="utf-8"))
    load_ruleset(path)
    path.unlink()
    path.mkdir()  # the same name, no longer a regular file
    with pytest.raises(RulesetError, match="not a regular file|no ruleset"):
        load_ruleset(path)


# -- nothing shared that a caller could change ----------------------------------------------------

def test_each_load_gets_its_own_data() -> None:
    path = FIXTURES / "mini.yaml"
    first = load_document(path)
    first.data["ruleset"] = "changed"
    first.data["moves"]["play"]["when"] = "nonsense ("
    first.data["zones"].clear()
    second = load_document(path)
    assert second.data["ruleset"] == "mini" and second.data["zones"]
    assert second.data["moves"]["play"]["when"] != "nonsense ("
    assert load_ruleset(path).name == "mini"


def test_each_load_gets_its_own_deck() -> None:
    path = ROOT / "rulesets" / "decks" / "standard-52.yaml"
    first = load_deck(path)
    first.cards[0]["rank"] = 99
    first.attributes["rank"] = "str"
    second = load_deck(path)
    assert second.cards[0]["rank"] != 99 and second.attributes["rank"] == "int"
    assert second.codes == first.codes


def test_rulesets_loaded_twice_share_no_mutable_state() -> None:
    one, two = load_ruleset("klondike"), load_ruleset("klondike")
    assert one is not two and one.meter is not two.meter and one.deck is not two.deck
    assert one.generated_source == two.generated_source
    game_one, game_two = one.new_game(seed=5), two.new_game(seed=5)
    game_one.apply(game_one.legal_moves()[0])
    assert [str(m) for m in game_two.legal_moves()] == [str(m) for m in two.new_game(seed=5).legal_moves()]


def test_schema_errors_are_found_in_data_changed_after_a_valid_check() -> None:
    doc = load_document(FIXTURES / "mini.yaml")
    validate(doc, "ruleset")
    doc.data["moves"]["play"]["wehn"] = "true"
    with pytest.raises(RulesetError, match="unknown key 'wehn'"):
        validate(doc, "ruleset")
    del doc.data["moves"]["play"]["wehn"]
    validate(doc, "ruleset")
    doc.data["players"] = True  # equal to 1 in Python, but not an integer to the schema
    with pytest.raises(RulesetError, match="players"):
        validate(doc, "ruleset")


# -- bounded ------------------------------------------------------------------------------------------

def test_a_memo_keeps_at_most_its_entries_and_size() -> None:
    memo: Memo[str] = Memo("test", max_entries=3, max_size=10)
    for i in range(5):
        memo.put(i, f"v{i}", 1)
    assert len(memo) == 3 and memo.get(0) is None and memo.get(4) == "v4"
    memo.get(2)  # used: now the most recent
    memo.put(5, "v5", 1)
    assert memo.get(2) == "v2" and memo.get(3) is None
    memo.put("big", "x", 8)
    assert memo.size <= 10 and memo.get("big") == "x"
    memo.put("huge", "y", 11)  # larger than the whole memo: not kept
    assert memo.get("huge") is None and memo.size <= 10
    memo.clear()
    assert len(memo) == 0 and memo.size == 0


def test_clear_forgets_every_memo() -> None:
    load_ruleset("klondike")
    memo_module.clear()
    assert all(len(m) == 0 for m in memo_module._ALL)
    assert load_ruleset("klondike").name == "klondike"


def test_validate_parses_and_composes_each_text_once(monkeypatch: pytest.MonkeyPatch) -> None:
    memo_module.clear()
    composed: list[str] = []
    parsed: list[tuple[str, str]] = []
    real_compose, real_parse = source_module._compose, parser_module._parse_anew
    monkeypatch.setattr(source_module, "_compose", lambda text: composed.append(text) or real_compose(text))
    monkeypatch.setattr(parser_module, "_parse_anew",
                        lambda text, start: parsed.append((start, text)) or real_parse(text, start))
    _, combinations = check_ruleset("klondike")
    assert combinations == 12
    assert len(composed) == 2  # the ruleset and its deck, once each
    assert len(parsed) > 20 and len(parsed) == len(set(parsed))


# -- schema verdicts kept between processes ---------------------------------------------------------

def test_a_valid_document_is_known_valid_to_the_next_process_and_only_while_unchanged(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDRULES_CACHE", str(tmp_path / "cache"))
    from cardrules.front import schema

    checked: list[str] = []
    real = schema._validator
    monkeypatch.setattr(schema, "_validator", lambda kind: checked.append(kind) or real(kind))
    doc = load_document(FIXTURES / "mini.yaml")
    memo_module.clear()
    validate(doc, "ruleset")
    assert checked == ["ruleset"] and len(list((tmp_path / "cache" / "schema").iterdir())) == 1
    memo_module.clear()  # as a new process: nothing in memory, the verdict on disk
    validate(doc, "ruleset")
    assert checked == ["ruleset"]
    doc.data["title"] = 5  # other data: checked, and its error found
    with pytest.raises(RulesetError, match="title: 5 is not of type 'string'"):
        validate(doc, "ruleset")
    assert checked == ["ruleset", "ruleset"] and len(list((tmp_path / "cache" / "schema").iterdir())) == 1
    memo_module.clear()
    monkeypatch.setattr(schema, "_schema_digest", lambda kind: b"another schema")
    del doc.data["title"]
    validate(doc, "ruleset")  # valid, but against another schema text: checked again
    assert checked == ["ruleset"] * 3


def test_schema_verdicts_are_bounded_and_a_folder_that_cannot_be_written_is_only_a_miss(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cardrules.front import schema

    monkeypatch.setenv("CARDRULES_CACHE", str(tmp_path))
    monkeypatch.setattr(schema, "MAX_KEPT_VERDICTS", 4)
    for n in range(6):
        schema._keep_valid("ruleset", bytes([n]))
    assert 2 <= len(list((tmp_path / "schema").iterdir())) <= 4
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("CARDRULES_CACHE", str(tmp_path / "file"))  # a folder that cannot be made
    memo_module.clear()
    validate(load_document(FIXTURES / "mini.yaml"), "ruleset")
    assert not schema._known_valid("ruleset", b"\0")
