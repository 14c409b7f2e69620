"""The JSON Schemas `cardrules schema` prints serve editors: every bundled ruleset, variant,
example and deck passes them, every property carries a description, and they still refuse what
a ruleset or a variant may not say."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest
from cardrules.app.cli import app
from cardrules.front.source import load_document
from conftest import ROOT
from jsonschema import Draft202012Validator
from typer.testing import CliRunner

RULESET_FILES = sorted([*(ROOT / "rulesets").glob("*.yaml"), *(ROOT / "examples").glob("*.yaml")])
DECK_FILES = sorted((ROOT / "rulesets" / "decks").glob("*.yaml"))


@cache
def printed(*args: str) -> Draft202012Validator:
    result = CliRunner().invoke(app, ["schema", *args])
    assert result.exit_code == 0, result.output
    schema = json.loads(result.stdout)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def errors(data, *args: str) -> list[str]:
    return [error.message for error in printed(*args).iter_errors(data)]


@pytest.mark.parametrize("path", RULESET_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_bundled_ruleset_variant_and_example_passes_the_printed_schema(path: Path) -> None:
    assert errors(load_document(path).data) == []


@pytest.mark.parametrize("path", DECK_FILES, ids=lambda p: p.name)
def test_every_bundled_deck_passes_the_printed_deck_schema(path: Path) -> None:
    assert errors(load_document(path).data, "--deck") == []


def test_the_bundled_files_include_variants() -> None:
    variants = [p for p in RULESET_FILES if "extends" in load_document(p).data]
    assert len(variants) >= 10


def undescribed(node, path: str = "") -> list[str]:
    """Every property (at any depth, in definitions too) without a description."""
    found = []
    if isinstance(node, dict):
        for name, value in node.get("properties", {}).items():
            if not (isinstance(value, dict) and value.get("description")):
                found.append(f"{path}/{name}")
        for key, value in node.items():
            found += undescribed(value, f"{path}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found += undescribed(value, f"{path}/{i}")
    return found


@pytest.mark.parametrize("args", [(), ("--deck",)])
def test_every_property_of_the_printed_schemas_has_a_description(args) -> None:
    assert undescribed(printed(*args).schema) == []


FULL = {"ruleset": "tiny", "deck": "standard-52", "zones": {"pile": {}}, "setup": [],
        "moves": {"take": {"from": "pile", "to": "pile"}}}


def test_a_ruleset_without_extends_needs_every_section() -> None:
    assert errors(FULL) == []
    for section in ("deck", "zones", "setup", "moves"):
        partial = {k: v for k, v in FULL.items() if k != section}
        assert any(f"'{section}' is a required property" in e for e in errors(partial))


def test_a_variant_holds_only_what_it_changes_and_null_removes() -> None:
    variant = {"ruleset": "tiny-easy", "extends": "tiny", "options": {"draw": {"default": 3}},
               "moves": {"take": {"when": "size(src) > 1"}, "old": None}, "zones": {"pile": {"count": 2}}}
    assert errors(variant) == []
    assert errors({"ruleset": "v", "extends": ["a", "b"], "title": None}) == []


@pytest.mark.parametrize("variant, message", [
    ({"extends": "tiny"}, "'ruleset' is a required property"),
    ({"ruleset": "v", "extends": "tiny", "colour": "red"}, "Additional properties are not allowed"),
    ({"ruleset": "v", "extends": "tiny", "players": "four"}, "is not valid under any of the given schemas"),
    ({"ruleset": "v", "extends": "tiny", "moves": {"take": {"take": {"all": 2}}}}, "is not valid under any"),
    # a list replaces the base's whole: what it holds is checked in full
    ({"ruleset": "v", "extends": "tiny", "triggers": [{"when": "true"}]}, "is not valid under any"),
    ({"ruleset": "v", "extends": "tiny", "setup": [{"shuffle_all": "pile"}]}, "is not valid under any"),
])
def test_a_variant_is_still_checked(variant, message) -> None:
    assert any(message in e for e in errors(variant)), errors(variant)


def test_the_loader_still_needs_every_section_after_the_merge(tmp_path: Path) -> None:
    from cardrules import load_ruleset
    from cardrules.base.errors import RulesetError

    (tmp_path / "base.yaml").write_text("ruleset: base\nplayers: 1\n", encoding="utf-8")
    (tmp_path / "variant.yaml").write_text("ruleset: variant\nextends: base.yaml\n", encoding="utf-8")
    with pytest.raises(RulesetError, match="is required"):
        load_ruleset(tmp_path / "variant.yaml")
