"""Variants as files: `extends:` merges a variant over its base, key by key; errors name the right file."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardrules import RulesetError, load_ruleset
from cardrules.python.load import check_ruleset
from conftest import RULESETS


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_bundled_klondike_variants_only_change_option_defaults() -> None:
    base = load_ruleset("klondike")
    vegas = load_ruleset("klondike-vegas")
    cumulative = load_ruleset("klondike-vegas-cumulative")
    draw3 = load_ruleset("klondike-draw3")
    assert vegas.option_values == {**base.option_values, "scoring": "vegas"}
    assert cumulative.option_values == {**base.option_values, "scoring": "vegas", "cumulative": True}
    assert draw3.option_values == {**base.option_values, "draw": 3}
    assert [m.name for m in vegas.moves] == [m.name for m in base.moves]
    assert vegas.name == "klondike-vegas" and vegas.title == "Klondike (Vegas)"


def test_a_variant_plays_like_its_base_with_those_options() -> None:
    variant = load_ruleset("klondike-vegas").new_game(seed=9)
    base = load_ruleset("klondike", options={"scoring": "vegas"}).new_game(seed=9)
    assert variant.scores() == base.scores() == [-52]
    assert [str(m) for m in variant.legal_moves()] == [str(m) for m in base.legal_moves()]


def test_a_variant_replaces_one_key_of_a_move_and_keeps_the_rest(tmp_path: Path) -> None:
    path = _write(tmp_path, "no-redeal.yaml", "extends: klondike\nruleset: no-redeal\nmoves:\n"
                                               "  redeal:\n    when: \"false\"\n")
    rules = load_ruleset(path)
    assert rules.moves_by_name["redeal"].take == "all"  # from the base
    game = rules.new_game(seed=3)
    for _ in range(24):
        game.apply(game.parse_move("draw"))
    assert "redeal" not in [str(m) for m in game.legal_moves()]


def test_null_removes_a_move_and_new_entries_are_added(tmp_path: Path) -> None:
    path = _write(tmp_path, "v.yaml", "extends: klondike\nruleset: v\nmoves:\n  redeal: null\n"
                                       "  give_up:\n    help: Stop.\n    do: [{end: {result: lost, reason: gave up}}]\n"
                                       "end:\n  cycle:\n    moves: [draw]\n")
    rules = load_ruleset(path)
    names = [m.name for m in rules.moves]
    assert "redeal" not in names and names[-1] == "give_up"
    game = rules.new_game(seed=1)
    game.apply(game.parse_move("give_up"))
    assert game.outcome == "lost" and game.reason == "gave up"


def test_an_error_in_a_variant_points_at_the_variant_file(tmp_path: Path) -> None:
    path = _write(tmp_path, "bad.yaml", "extends: klondike\nruleset: bad\nmoves:\n  redeal:\n"
                                         "    when: \"empty(stok)\"\n")
    with pytest.raises(RulesetError) as caught:
        load_ruleset(path)
    pos = caught.value.pos
    assert pos is not None and (pos.path, pos.line, pos.col) == (str(path), 5, 18)


def test_an_error_in_an_inherited_value_points_at_the_base_file(tmp_path: Path) -> None:
    # Removing a function the base's moves call breaks the base's text, so the error is reported there.
    path = _write(tmp_path, "v.yaml", "extends: klondike\nruleset: v\nfunctions:\n  \"may_redeal()\": null\n")
    with pytest.raises(RulesetError) as caught:
        load_ruleset(path)
    pos = caught.value.pos
    assert pos is not None and pos.path == str(RULESETS / "klondike.yaml")
    assert "may_redeal" in (pos.source_line() or "")


def test_removing_a_move_the_base_still_names_is_reported_in_the_base(tmp_path: Path) -> None:
    # The base's end.cycle names `redeal`.
    path = _write(tmp_path, "v.yaml", "extends: klondike\nruleset: v\nmoves:\n  redeal: null\n")
    with pytest.raises(RulesetError, match="unknown move 'redeal'") as caught:
        load_ruleset(path)
    assert caught.value.pos is not None and caught.value.pos.path == str(RULESETS / "klondike.yaml")


def test_a_schema_error_in_a_variant_points_at_the_variant(tmp_path: Path) -> None:
    path = _write(tmp_path, "v.yaml", "extends: klondike\nruleset: v\nzones:\n  tableau: {count: seven}\n")
    with pytest.raises(RulesetError) as caught:
        load_ruleset(path)
    pos = caught.value.pos
    assert pos is not None and (pos.path, pos.line) == (str(path), 4)


def test_variants_chain_and_resolve_relative_to_the_variant(tmp_path: Path) -> None:
    _write(tmp_path, "one.yaml", "extends: klondike\nruleset: one\noptions:\n  draw: {default: 3}\n")
    path = _write(tmp_path, "two.yaml", "extends: one.yaml\nruleset: two\noptions:\n  scoring: {default: none}\n")
    rules = load_ruleset(path)
    assert (rules.option_values["draw"], rules.option_values["scoring"]) == (3, "none")


def test_a_cycle_of_variants_is_reported(tmp_path: Path) -> None:
    _write(tmp_path, "a.yaml", "extends: b\nruleset: a\n")
    path = _write(tmp_path, "b.yaml", "extends: a\nruleset: b\n")
    with pytest.raises(RulesetError, match="a cycle of variants"):
        load_ruleset(path)


def test_a_missing_base_is_reported_at_extends(tmp_path: Path) -> None:
    path = _write(tmp_path, "v.yaml", "ruleset: v\nextends: klondyke\n")
    with pytest.raises(RulesetError, match="no ruleset 'klondyke'") as caught:
        load_ruleset(path)
    assert caught.value.pos is not None and caught.value.pos.line == 2


def test_a_variant_needs_its_own_name(tmp_path: Path) -> None:
    path = _write(tmp_path, "v.yaml", "extends: klondike\n")
    with pytest.raises(RulesetError, match="its own 'ruleset' name"):
        load_ruleset(path)


def test_the_base_deck_is_found_next_to_the_base(tmp_path: Path) -> None:
    base_dir = tmp_path / "games"
    base_dir.mkdir()
    deck = (RULESETS / "decks" / "standard-52.yaml").read_text()
    _write(base_dir, "my-deck.yaml", deck)
    _write(base_dir, "base.yaml", (RULESETS / "klondike.yaml").read_text().replace("deck: standard-52",
                                                                                  "deck: my-deck"))
    path = _write(tmp_path, "v.yaml", "extends: games/base.yaml\nruleset: v\n")
    assert len(load_ruleset(path).deck) == 52


@pytest.mark.parametrize("broken", ["base", "variant"])
def test_validate_reports_a_variants_error_as_loading_that_combination_does(tmp_path: Path, broken: str) -> None:
    # The checker reads, merges and schema-checks a file once and builds each combination of options
    # from that; an error only one combination shows is the one a load under those options gives,
    # at the same place, whichever file of the chain holds it.
    bad = "\"true if option.mode == 'easy' else size(nowhere) > 0\""
    base = "options:\n  mode: {values: [easy, hard], default: easy}\nmoves:\n  redeal:\n    when: " + \
        (bad if broken == "base" else "\"empty(stock)\"") + "\n"
    _write(tmp_path, "base.yaml", "extends: klondike\nruleset: base\n" + base)
    path = _write(tmp_path, "variant.yaml", "extends: base.yaml\nruleset: v\noptions:\n  draw: {default: 3}\n"
                  + ("moves:\n  redeal:\n    when: " + bad + "\n" if broken == "variant" else ""))
    load_ruleset(path)  # the defaults fold the broken branch away
    with pytest.raises(RulesetError) as loaded:
        load_ruleset(path, options={"mode": "hard", "draw": 1, "scoring": "none", "cumulative": False})
    with pytest.raises(RulesetError) as checked:
        check_ruleset(path)
    assert checked.value.message == loaded.value.message + \
        " (with options draw=1 scoring=none cumulative=false mode=hard)"
    assert checked.value.pos == loaded.value.pos
    assert loaded.value.pos is not None and loaded.value.pos.path == str(tmp_path / f"{broken}.yaml")
