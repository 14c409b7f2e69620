"""`argsort(KEY for NAME in ITEMS)` (docs/language.md, "Comprehensions"): the items themselves (cards,
piles, numbers, strings, lists) in increasing order of their keys, equal keys keeping the order the
items came in; a sort of cards by a key, which `sorted` (numbers and strings only) cannot say."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cardrules import RulesetError, RulesetRuntimeError, load_ruleset

from helpers import VALUES, pile_ids, play_both_backends, value_of

RANKS = "A23456789TJQK"


def rank_of(code: str) -> int:
    return RANKS.index(code[0]) + 1


@pytest.mark.parametrize("expr, value", [
    ("argsort(-x for x in [3, 1, 2])", [3, 2, 1]),
    ("argsort(x / 10 for x in [25, 3, 21, 7])", [3, 7, 25, 21]),                  # ties as they came
    ("argsort(1 if w == 'a' else 0 for w in ['b', 'a', 'c'])", ["b", "c", "a"]),
    ("argsort(x % 3 for x in range(8))", [0, 3, 6, 1, 4, 7, 2, 5]),
    ("argsort(x for x in [5, 4] if x > 9)", []),
    ("size(argsort(size(s) for s in subsets([1, 2, 3])))", 8),
    ("argsort(size(s) for s in subsets([1, 2, 3]))[7]", [1, 2, 3]),             # lists are items too
    ("argsort(size(r) for r in row)[0] == row[0]", True),                        # piles: rows of 2, 3, 4 cards
    ("argsort(-size(r) for r in row)[0] == row[2]", True),
])
def test_the_items_in_the_order_of_their_keys(tmp_path: Path, expr: str, value: Any) -> None:
    initial = '"[]"' if isinstance(value, list) else "false" if isinstance(value, bool) else "0"
    assert value_of(tmp_path, expr, initial) == value


def test_cards_sorted_by_a_key_of_the_rules_own(tmp_path: Path) -> None:
    """The row's cards by rank, then (the key's tie-break) by the order the deck lists suits."""
    expr = "list(c.rank * 10 + index(['spades', 'hearts', 'diamonds', 'clubs'], c.suit) for c in " \
           "argsort(c.rank * 10 + index(['spades', 'hearts', 'diamonds', 'clubs'], c.suit) for c in cards(row[2])))"
    path = tmp_path / "values.yaml"
    path.write_text(VALUES.replace("EXPR", expr).replace("VALUE", '"[]"'))
    rules = load_ruleset(path)
    for seed in range(6):
        game = rules.new_game(seed=seed)
        codes = [rules.deck.codes[c] for c in pile_ids(game, "row", 2)]
        game.apply(game.legal_moves()[0])
        suits = "SHDC"
        assert game.variable("x") == sorted(rank_of(c) * 10 + suits.index(c[1]) for c in codes)


def test_argsort_gives_a_list_of_cards_that_cards_functions_take(tmp_path: Path) -> None:
    """The lowest card of the row: the first of the sorted cards, as `argmin` gives it."""
    assert value_of(tmp_path, "argsort(c.rank for c in cards(row[2]))[0] == argmin(c.rank for c in cards(row[2]))",
                    "false") is True
    assert value_of(tmp_path, "size(argsort(c.rank for c in cards(row[1])))") == 3


def test_a_key_that_is_none_or_no_number_is_an_error_at_its_place(tmp_path: Path) -> None:
    with pytest.raises(RulesetRuntimeError, match="values.yaml:16"):
        value_of(tmp_path, "size(argsort(x for x in [1, none, 2]))")
    with pytest.raises(RulesetRuntimeError, match="values.yaml:16"):
        value_of(tmp_path, "size(argsort(c.rank for c in [row[0][0], none]))")
    with pytest.raises(RulesetError, match="values.yaml:16"):
        value_of(tmp_path, "argsort(c.suit for c in cards(row[0]))")
    with pytest.raises(RulesetError, match="it cannot unpack pairs"):
        value_of(tmp_path, "argsort(a.rank for a, b in pairs(cards(row[2])))")


def test_the_rules_in_words_say_argsort(tmp_path: Path) -> None:
    from cardrules.workbench.describe import describe

    path = tmp_path / "values.yaml"
    path.write_text(VALUES.replace("EXPR", "argsort(c.rank for c in cards(row[2]))").replace("VALUE", '"[]"'))
    text = " ".join("\n".join(block.text for block in describe(path).blocks).split())
    assert "Set x to the c in the cards of the third row pile in increasing order of c's rank (equal ones as " \
           "they come)" in text


NATIVE_CASES = [  # (numbers and truth values: the native backend keeps no list in a variable)
    "all(argsort(c.rank for c in cards(stock)[:9])[i].rank <= argsort(c.rank for c in cards(stock)[:9])[i + 1].rank "
    "for i in range(8))",
    "argsort(c.rank for c in cards(stock)[:9])[0].rank * 100 + argsort(c.rank for c in cards(stock)[:9])[8].rank",
    "argsort(-c.rank for c in cards(stock)[-12:] if c.suit != 'hearts')[2] == cards(stock)[0]",
    "argsort(x % 4 for x in range(11))[1] * 100 + argsort(x % 4 for x in range(11))[10]",
    "argsort(1 if w == 'a' else 0 for w in ['b', 'a', 'c'])[2] == 'a' and size(argsort(c.rank for c in cards(stock) "
    "if c.rank > 20)) == 0",
    "argsort(-size(r) for r in row)[0] == row[2] and argsort(size(r) for r in row)[1] == row[1]",
    # sets of cards, each a list (natively a row of groups): by the sums of their ranks, by their sizes
    "list(sum(c.rank for c in s) for s in argsort(sum(c.rank for c in s) for s in subsets(cards(stock)[:5], 2))) "
    "== sorted(sum(c.rank for c in s) for s in subsets(cards(stock)[:5], 2)) "
    "and list(size(s) for s in argsort(-size(s) for s in subsets(cards(row[1])))) "
    "== list(3 - size(s) for s in argsort(size(s) for s in subsets(cards(row[1]))))",
]


def test_the_native_backend_sorts_as_python_does(tmp_path: Path) -> None:
    # (one ruleset for all the cases, x0 to x4, so that it compiles once)
    path = tmp_path / "values.yaml"
    text = VALUES.replace("  x: {initial: VALUE}\n", "".join(f"  x{i}: {{initial: {'false' if '==' in e or 'all' in e else 0}}}\n"
                                                              for i, e in enumerate(NATIVE_CASES)))
    path.write_text(text.replace("x: \"EXPR\"", ", ".join(f"x{i}: \"{e}\"" for i, e in enumerate(NATIVE_CASES))))
    rules = load_ruleset(path)
    games = play_both_backends(rules, range(4))  # (every x compared after the move, in each game)
    assert all(game.variable("done") for game in games)
    assert len({game.variable("x1") for game in games}) > 1  # (the deal decides: not a constant)
    assert all(game.variable("x0") is True and game.variable("x3") == 407 and game.variable("x4") is True
               and game.variable("x5") is True and game.variable("x6") is True for game in games)
