"""Options over a range of whole numbers (`{min, max, default}`, docs/language.md "options"):
any whole number from min to max, given as a number or its text; `validate` checks the ruleset at
the least, the default and the most; both backends read it; the rules in words and `list` say it.
tests/fixtures/options/bonus.yaml: the points a play to the tableau earns."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardrules import RulesetError, load_ruleset
from cardrules.python.load import check_ruleset

from helpers import play_both_backends, replaced

BONUS = Path(__file__).parent / "fixtures" / "options" / "bonus.yaml"


def scored(rules) -> list[int]:  # type: ignore[no-untyped-def]
    """The score after each play to the tableau in a seeded game (draws earn nothing)."""
    game = rules.new_game(seed=4)
    seen = []
    for _ in range(60):
        plays = [m for m in game.legal_moves() if m.name == "play"]
        moves = plays or game.legal_moves()
        if not moves or game.is_over:
            break
        game.apply(moves[0])
        if plays:
            seen.append(game.scores()[0])
    return seen


@pytest.mark.parametrize("given, value", [(None, 5), (-1000, -1000), (1000, 1000), (0, 0), ("-250", -250),
                                          (" 42 ", 42), ("+7", 7)])
def test_any_whole_number_from_min_to_max_is_the_options_value(given: object, value: int) -> None:
    rules = load_ruleset(BONUS, None if given is None else {"bonus": given})
    assert rules.option_values["bonus"] == value
    earned = scored(rules)
    assert earned and earned == [value * (k + 1) for k in range(len(earned))]  # each play adds the value


@pytest.mark.parametrize("given", [1001, -1001, "1001", "abc", "", "1.5", True, 2.0, "1e3"])
def test_a_value_outside_the_range_or_not_a_whole_number_is_refused(given: object) -> None:
    with pytest.raises(RulesetError, match=r"option 'bonus' cannot be .* \(a whole number from -1000 to 1000\)"):
        load_ruleset(BONUS, {"bonus": given})


def _edited(tmp_path: Path, old: str, new: str) -> Path:
    return replaced(tmp_path, BONUS.read_text(), old, new)


@pytest.mark.parametrize("old, new, message, line_of", [
    ("    min: -1000\n    max: 1000\n", "    min: 1000\n    max: -1000\n", "min 1000 is more than max -1000", "min: 1000"),
    ("    default: 5\n    help: Points", "    default: 1001\n    help: Points", "default 1001 is not a whole number from -1000 to 1000",
     "default: 1001"),
    ("    default: 5\n    help: Points", "    default: true\n    help: Points", "default True is not a whole number",
     "default: true"),
    ("    max: 1000\n", "", "option 'bonus' needs 'values', or 'min' and 'max'", "  bonus:"),
    ("    min: -1000\n", "    min: -1000\n    values: [1, 2]\n", "gives 'values' or 'min' and 'max', not both", "min: -1000"),
])
def test_a_range_that_does_not_hold_together_is_refused_at_its_place(tmp_path: Path, old: str, new: str, message: str,
                                                                      line_of: str) -> None:
    path = _edited(tmp_path, old, new)
    with pytest.raises(RulesetError, match=message) as caught:
        load_ruleset(path)
    line = next(i for i, text in enumerate(path.read_text().splitlines(), 1) if line_of in text)
    assert caught.value.pos is not None and caught.value.pos.line == line


def test_validate_checks_the_least_the_default_and_the_most(tmp_path: Path) -> None:
    _, combos = check_ruleset(BONUS)
    assert combos == 2 * 3  # draw 1, 3 by bonus -1000, 5, 1000
    # A rule the default folds away is still checked at the range's ends.
    path = _edited(tmp_path, 'when: "fits(card, dst)"', 'when: "fits(card, dst) and (option.bonus < 1000 or card.nosuch == 1)"')
    load_ruleset(path)  # at the default the second part folds to true
    with pytest.raises(RulesetError, match=r"nosuch.*\(with options draw=1 bonus=1000\)"):
        check_ruleset(path)


def test_both_backends_read_the_value_given() -> None:
    for value in (-1000, 1000, 7):
        games = play_both_backends(load_ruleset(BONUS, {"bonus": value}), range(1, 4))
        assert all(game.is_over for game in games)


def test_the_rules_in_words_and_list_say_the_range() -> None:
    from cardrules.workbench.catalogue import allowed_text as _allowed_text
    from cardrules.workbench.describe import describe

    items = [block.text for block in describe(BONUS, {"bonus": -250}).blocks if block.kind == "item"]
    assert ("bonus (a whole number from -1000 to 1000; chosen: -250; default 5). Points a card played to the tableau "
            "earns.") in items
    assert _allowed_text({"min": -1000, "max": 1000, "default": 5}) == "-1000..1000"
    assert _allowed_text({"values": [1, 3], "default": 1}) == "1|3"
