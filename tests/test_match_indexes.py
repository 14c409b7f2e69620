"""A move's destination index comes from its `when`, so the moves offered are those `when` allows.

The engine derives the index from the condition itself (interpreter/model/indexes.py, python/movegen.py): an
equality between a value of the moved cards and a value of the destination, through functions and
`if else` on the destination. A variant that changes a function changes its index with it: Klondike
with Queens allowed into spaces offers a Queen to an empty column, in both backends. A hand-written
`match` that the condition does not imply is ignored (validate warns, at its line); one it implies
is used without a word. Every bundled ruleset and example lists the same moves with and without its
indexes (a few games each here; benchmarks/match_indexes.py plays 300). Also from that try: an
`if else` that gives a truth value one way and a number the other is refused at load, and errors in
a function a variant overrides point at the variant's own line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from cardrules import load_ruleset
from cardrules.app.cli import app
from cardrules.base.errors import RulesetError, RulesetRuntimeError
from cardrules.native import native_backend
from match_indexes import check, load, sources
from typer.testing import CliRunner

KQ = """\
extends: klondike
ruleset: kq-klondike
functions:
  "fits_tableau(c, t)": "c.rank >= 12 if empty(t) else (top(t).color != c.color and top(t).rank == c.rank + 1)"
"""
MIXED = """\
extends: klondike
ruleset: mixed-klondike
functions:
  "fits_tableau(c, t)": "c.rank if empty(t) else (top(t).color != c.color)"
"""
UNGUARDED = """\
extends: klondike
ruleset: unguarded-klondike
functions:
  "fits_tableau(c, t)": "top(t).rank - 1 == c.rank and top(t).color != c.color"
"""
MISSPELT = """\
extends: klondike
ruleset: misspelt-klondike
functions:
  "fits_tableau(c, t)": "c.rank == 13 if empty(t) else (top(t).color != c.colour and top(t).rank == c.rank + 1)"
"""


def written(tmp_path: Path, text: str, name: str = "variant.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def validate(path: Path) -> Any:
    return CliRunner().invoke(app, ["validate", str(path)], env={"COLUMNS": "200"})


def queen_by_a_space(rules: Any) -> Any:
    """A Klondike game whose first column is empty and whose waste shows the Queen of hearts."""
    game = rules.new_game(seed=1)
    piles, up = game.state.piles, game.state.up
    stock, waste = rules.zones["stock"].piles[0], rules.zones["waste"].piles[0]
    space = rules.zones["tableau"].piles[0]
    queen = rules.deck.codes.index("QH")
    for pile in piles:
        if queen in pile:
            pile.remove(queen)
    for card in piles[space]:
        up[card] = 0
    piles[stock][:0] = piles[space]  # the column's cards go under the stock, face down
    piles[space] = []
    piles[waste].append(queen)
    up[queen] = 1
    game._legal = None
    return game


def onto_space(game: Any) -> list[str]:
    space = game.rules.zones["tableau"].piles[0]
    return [str(m) for m in game.legal_moves() if m.dst == space]


def test_a_variant_that_lets_queens_into_spaces_offers_a_queen_to_an_empty_column_in_both_backends(
        tmp_path: Path) -> None:
    kq = load_ruleset(str(written(tmp_path, KQ)))
    game = queen_by_a_space(kq)
    assert "w>t1" in onto_space(game)
    backend = native_backend(kq)
    position = backend.start(game)
    assert position.legal_codes() == [backend.code(m) for m in game.legal_moves()]
    # Klondike itself keeps the space for a King
    assert "w>t1" not in onto_space(queen_by_a_space(load_ruleset("klondike")))


KEYED = """\
extends: klondike
ruleset: keyed-klondike
indexes:
  - &down_by_one {card: "card.rank", dst: "13 if empty(dst) else top(dst).rank - 1"}
moves:
  waste_to_tableau:
    match: *down_by_one
  tableau_to_tableau:
    match: *down_by_one
"""


def test_the_inherited_index_the_new_condition_does_not_imply_is_ignored_with_a_warning_at_its_line(
        tmp_path: Path) -> None:
    parent = written(tmp_path, KEYED, "keyed-klondike.yaml")  # Klondike with its King index written out
    path = written(tmp_path, KQ.replace("extends: klondike", f"extends: {parent}"))
    kq = load_ruleset(str(path))
    indexed = {t.name: t.index_key.text() if t.index_key else None for t in kq.moves}
    assert indexed["to_foundation"] == "card.rank - 1 == 0 if empty(dst) else top(dst).rank"
    assert indexed["waste_to_tableau"] is None and indexed["tableau_to_tableau"] is None
    warned = sorted((Path(w.pos.path).name, w.pos.line) for w in kq.warnings)
    assert warned == [("keyed-klondike.yaml", 7), ("keyed-klondike.yaml", 9)]
    assert "w>t1" in onto_space(queen_by_a_space(kq))  # the Queen is offered all the same
    result = validate(path)
    assert result.exit_code == 0 and result.output.startswith("ok ")
    assert result.output.count("this 'match' is ignored: 'when' does not imply it") == 2


def test_a_variant_of_the_bundled_klondike_inherits_no_index_and_no_warning(tmp_path: Path) -> None:
    kq = load_ruleset(str(written(tmp_path, KQ)))
    assert kq.warnings == []
    assert "warning" not in validate(written(tmp_path, KQ)).output


def test_a_written_index_the_condition_implies_is_used_without_a_warning(tmp_path: Path) -> None:
    keyed = load_ruleset(str(written(tmp_path, KEYED, "keyed-klondike.yaml")))
    assert keyed.warnings == []
    indexed = {t.name: t.index_key.text() if t.index_key else None for t in keyed.moves}
    assert indexed["tableau_to_tableau"] == "card.rank + 1 == 14 if empty(dst) else top(dst).rank"
    assert indexed == {t.name: t.index_key.text() if t.index_key else None for t in load_ruleset("klondike").moves}
    assert indexed["draw"] is None


def test_a_written_index_that_contradicts_its_condition_never_removes_a_move(tmp_path: Path) -> None:
    path = written(tmp_path, "extends: klondike\nruleset: keyed-wrong\nmoves:\n  waste_to_tableau:\n"
                             "    match: {card: card.rank, dst: \"99\"}\n")
    rules = load_ruleset(str(path))
    (warning,) = rules.warnings
    assert (Path(warning.pos.path), warning.pos.line) == (path, 5)
    assert "the index it implies is card.rank + 1 == 14 if empty(dst) else top(dst).rank" in warning.message
    game = rules.new_game(seed=7)
    plain = load("klondike", True).new_game(seed=7)
    assert sorted(m.key() for m in game.legal_moves()) == sorted(m.key() for m in plain.legal_moves())
    assert str(path) + ":5:5: warning: this 'match' is ignored" in validate(path).output


@pytest.mark.parametrize(("when", "index"), [
    ("fits_tableau(card, dst)", "card.rank + 1 == 14 if empty(dst) else top(dst).rank"),
    ("not empty(dst) and top(dst).rank == card.rank + 1", "card.rank + 1 == top(dst).rank"),
    ("dst.index + 2 == src.index", "src.index - 2 == dst.index"),
    ("card.rank == (1 if option.draw == 1 else 2) + size(dst)", "card.rank - 1 == size(dst)"),
    # no index: an `or`, an order, a test on the card, a check before the key that can fail
    ("empty(dst) or top(dst).rank == card.rank + 1", None),
    ("top(dst).rank > card.rank", None),
    ("top(dst).rank == card.rank if card.rank > 3 else false", None),
    ("10 / (size(dst) - 3) > 0 and top(dst).rank == card.rank + 1", None),
])
def test_the_index_is_read_off_the_condition_or_not_at_all(tmp_path: Path, when: str, index: str | None) -> None:
    path = written(tmp_path, "extends: klondike\nruleset: keyed\nmoves:\n  waste_to_tableau:\n    match: null\n"
                             f"    when: \"{when}\"\n")
    rules = load_ruleset(str(path))
    template = rules.moves_by_name["waste_to_tableau"]
    assert (template.index_key.text() if template.index_key else None) == index
    assert rules.warnings == []


@pytest.mark.parametrize("source", sources(), ids=lambda p: p.stem)
def test_every_ruleset_and_example_lists_the_same_moves_with_and_without_its_indexes(source: Path) -> None:
    _, positions, _, _ = check(source, games=20, max_moves=200)
    assert positions >= 20


def test_an_if_else_giving_a_truth_value_one_way_and_a_number_the_other_is_refused_at_the_variants_line(
        tmp_path: Path) -> None:
    path = written(tmp_path, MIXED)
    with pytest.raises(RulesetError) as caught:
        load_ruleset(str(path))
    error = caught.value
    column = MIXED.split("\n")[3].index("c.rank if") + 1
    assert (Path(error.pos.path), error.pos.line, error.pos.col) == (path, 4, column)
    assert "'if else' gives a number one way and a truth value the other" in error.message
    result = validate(path)
    assert result.exit_code == 1
    assert f"{path}:4:{column}: 'if else' gives a number one way and a truth value the other" in result.output


def test_an_error_in_a_function_a_variant_overrides_points_at_the_variants_line(tmp_path: Path) -> None:
    path = written(tmp_path, MISSPELT)
    with pytest.raises(RulesetError) as caught:
        load_ruleset(str(path))
    column = MISSPELT.split("\n")[3].index("colour") + 1
    assert (Path(caught.value.pos.path), caught.value.pos.line, caught.value.pos.col) == (path, 4, column)
    result = validate(path)
    assert result.exit_code == 1 and f"{path}:4:{column}: unknown card attribute 'colour'" in result.output


def test_a_run_time_error_in_a_function_a_variant_overrides_points_at_the_variants_line(tmp_path: Path) -> None:
    path = written(tmp_path, UNGUARDED)
    rules = load_ruleset(str(path))
    game = queen_by_a_space(rules)  # a space: `top(t).rank - 1` has no card to read there
    with pytest.raises(RulesetRuntimeError) as caught:
        game.legal_moves()
    column = UNGUARDED.split("\n")[3].index("top(t).rank - 1") + 1
    assert (Path(caught.value.pos.path), caught.value.pos.line, caught.value.pos.col) == (path, 4, column)
    assert "while evaluating 'top(t).rank - 1'" in caught.value.message
