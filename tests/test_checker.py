"""The checker catches wrong rules: truth values where conditions are, comparable types in
comparisons, the right type for every effect argument; what only the game can tell is checked
when it runs, with the error at the expression.

Each load-time case changes one expression of tests/fixtures/mini.yaml and names the text the
error's column must point at. Each run-time case is a rule that once played wrong silently
(an Ace that could never be played, a game won before any move) or crashed deep inside Python.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from cardrules import RulesetError, RulesetRuntimeError, load_ruleset

from helpers import mini_with

WHEN = 'when: "fits(card, dst)"'
END_IF = 'if: "empty(stock) and empty(waste)"'
ADD = "      - add: {score: 5}"



# (what is checked, text replaced, replacement, the text the error points at, a fragment of the message)
LOAD_ERRORS = [
    ("a number compared with a string (Aces can never be played)", WHEN, "when: \"card.rank == 'A'\"",
     "card.rank == 'A'", "a number and a string cannot be compared"),
    ("a card compared with a number", WHEN, 'when: "card != 3"', "card != 3", "a card and a number cannot be compared"),
    ("a pile compared with a number", WHEN, 'when: "dst == 1"', "dst == 1", "a pile and a number cannot be compared"),
    ("cards put in order", WHEN, 'when: "card < top(dst)"', "card < top(dst)", "cannot be compared for order"),
    ("a card looked for in a list of piles", WHEN, 'when: "card in tableau"', "card in tableau",
     "a card is never in a list of piles"),
    ("a number as an end condition (won before any move)", END_IF, 'if: "size(stock)"', "size(stock)",
     "expected a truth value, got a number"),
    ("a number as a move condition", WHEN, 'when: "size(dst) + 1"', "size(dst) + 1",
     "expected a truth value, got a number"),
    ("a number under 'and'", WHEN, 'when: "fits(card, dst) and size(dst)"', "size(dst)",
     "expected a truth value, got a number"),
    ("a number under 'not'", WHEN, 'when: "not size(dst)"', "size(dst)", "expected a truth value, got a number"),
    ("a card as a ternary's condition", WHEN, 'when: "true if top(dst) else false"', "top(dst) else",
     "expected a truth value, got a card"),
    ("a number as a comprehension's filter", WHEN, 'when: "any(true for p in tableau if size(p))"', "size(p))",
     "expected a truth value, got a number"),
    ("a number as all()'s element", WHEN, 'when: "all(size(p) for p in tableau)"', "size(p) for",
     "expected a truth value, got a number"),
    ("a list of cards summed", WHEN, 'when: "sum(cards(dst)) > 3"', "cards(dst)) >", "expected a list, got a list of cards"),
    ("a string added to a number", ADD, "      - add: {score: \"'five'\"}", "'five'", "expected a number, got a string"),
    ("a truth value given to a number variable", ADD, "      - set: {score: \"empty(dst)\"}", "empty(dst)",
     "expected a number, got a truth value"),
    ("a number as a pile to move from", ADD, '      - move: {from: "3", to: dst}', '3", to', "expected a pile, got a number"),
]


@pytest.mark.parametrize("old,new,at,fragment", [pytest.param(o, n, a, f, id=i) for i, o, n, a, f in LOAD_ERRORS])
def test_a_wrong_rule_is_refused_at_load_at_its_text(tmp_path: Path, old: str, new: str, at: str,
                                                      fragment: str) -> None:
    with pytest.raises(RulesetError) as caught:
        load_ruleset(mini_with(tmp_path, old, new))
    error = caught.value
    assert fragment in error.message
    assert error.pos is not None
    line = error.pos.source_line() or ""
    assert line[error.pos.col - 1:].startswith(at), (line, error.pos.col)


def test_add_to_a_truth_value_variable_is_refused(tmp_path: Path) -> None:
    path = mini_with(tmp_path, "    initial: 0\n", "    initial: 0\n  done:\n    initial: false\n")
    path.write_text(path.read_text().replace(ADD, "      - add: {done: 1}"))
    with pytest.raises(RulesetError, match="'add' needs a number variable; 'done' holds a truth value"):
        load_ruleset(path)


def _with_any_variable(tmp_path: Path, old: str, new: str) -> Path:
    """mini with `aim`, a variable of no fixed type (`initial: none`), and one change."""
    path = mini_with(tmp_path, "    initial: 0\n", "    initial: 0\n  aim:\n    initial: none\n")
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    return path


def _first_play(path: Path) -> RulesetRuntimeError:
    """Play the deal until a `play` move (waste to tableau) is applied; it must fail."""
    game = load_ruleset(path).new_game(seed=1)
    rng = random.Random(1)
    while not game.is_over:
        plays = [m for m in game.legal_moves() if m.name == "play"]
        if plays:
            with pytest.raises(RulesetRuntimeError) as caught:
                game.apply(plays[0])
            return caught.value
        game.apply(rng.choice(game.legal_moves()))
    raise AssertionError("no play was possible")


@pytest.mark.parametrize("effect,at,fragment", [
    ('      - move: {from: "max([999])", to: dst}', "max([999])", "a pile was expected, got 999"),
    ('      - turn_up: "max([99999])"', "max([99999])", "a card was expected, got 99999"),
    ('      - turn_up: "max([-1])"', "max([-1])", "a card was expected, got -1"),  # once: the deck's last card
    ("      - add: {score: \"max(['a', 'b'])\"}", "max(['a', 'b'])", "a number was expected, got 'b'"),
    ('      - set: {score: "aim"}', "aim", "a number was expected, got none"),
])
def test_a_value_of_unknown_type_is_checked_where_it_is_used(tmp_path: Path, effect: str, at: str,
                                                             fragment: str) -> None:
    error = _first_play(_with_any_variable(tmp_path, ADD, effect))
    assert fragment in error.message
    assert error.pos is not None and (error.pos.source_line() or "")[error.pos.col - 1:].startswith(at)


def test_a_score_reading_a_variable_of_unknown_type_fails_at_the_score_not_in_winners(tmp_path: Path) -> None:
    path = _with_any_variable(tmp_path, "score: score", "score: aim")
    game = load_ruleset(path).new_game(seed=1)
    with pytest.raises(RulesetRuntimeError, match="while evaluating 'aim': a number was expected, got none") as caught:
        game.scores()
    assert caught.value.pos is not None and caught.value.pos.source_line() == "score: aim"


def test_a_condition_of_unknown_type_must_hold_a_truth_value(tmp_path: Path) -> None:
    path = _with_any_variable(tmp_path, END_IF, 'if: "aim"')
    with pytest.raises(RulesetRuntimeError, match="a truth value was expected, got none"):
        load_ruleset(path).new_game(seed=1)


def test_comparisons_that_make_sense_still_load(tmp_path: Path) -> None:
    checks = ("top(dst) == none and card != top(src) and card.suit != 'clubs' and 'spades' != card.suit "
              "and card in cards(src) and dst in tableau and size(cards(dst)) >= 0 and option.draw in [1, 3]")
    load_ruleset(mini_with(tmp_path, WHEN, f'when: "{checks}"'))
