"""`sorted`, `unique` and `index` (docs/language.md, "Builtins"): a list in increasing order, without
repeats, the place of an item; as calls and as comprehensions; errors at their place; both backends
alike (tests/fixtures/lists/order.yaml works them out after every move; the native fuzzer draws
them too)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from cardrules import RulesetError, RulesetRuntimeError, load_ruleset

from helpers import VALUES, play_both_backends, value_of

ORDER = Path(__file__).parent / "fixtures" / "lists" / "order.yaml"

@pytest.mark.parametrize("expr, initial, value", [
    ("sorted([3, -1, 2, 2])[0] * 100 + sorted([3, -1, 2, 2])[3]", "0", -97),
    ("sorted(['b', 'B', 'a', ''])[1]", "\"''\"", "B"),  # strings as Python orders them: upper case first
    ("size(sorted([]))", "0", 0),
    ("size(unique([3, 1, 3, 2, 1]))", "0", 3),
    ("unique([3, 1, 3, 2, 1])[1] * 10 + unique([3, 1, 3, 2, 1])[2]", "0", 12),
    ("unique(['n', 'm', 'n'])[1]", "\"''\"", "m"),
    ("index([5, 7, 5], 5) * 10 + index([5, 7, 5], 7)", "0", 1),
    ("index([5, 7], 6) == none", "false", True),
    ("index(['a', 'b'], 'b')", "0", 1),
    ("index(row, row[2])", "0", 2),
    ("index(cards(row[1]), top(row[1]))", "0", 2),
    ("index(cards(row[1]), top(row[0])) == none", "false", True),
    ("size(unique(cards(row[2]) + cards(row[2])))", "0", 4),
    ("size(unique([row[0], row[1], row[0]]))", "0", 2),
    ("sorted(c.rank for c in cards(row[2]))[0] <= min(c.rank for c in cards(row[2]))", "false", True),
    ("size(unique(c.rank for c in cards(row[2]) if c.rank > 20))", "0", 0),
])
def test_each_gives_what_python_gives(tmp_path: Path, expr: str, initial: str, value: Any) -> None:
    assert value_of(tmp_path, expr, initial) == value


def test_the_fixture_works_them_out_as_the_cards_lie() -> None:
    rules = load_ruleset(ORDER)
    ranks = lambda pile: [rules.deck.cards[c]["rank"] for c in pile]  # noqa: E731
    suits = lambda pile: [rules.deck.cards[c]["suit"] for c in pile]  # noqa: E731
    for seed in range(30):
        game, rng = rules.new_game(seed=seed), random.Random(seed)
        while not game.is_over:
            game.apply(rng.choice(game.legal_moves()))
            row = [game.state.piles[p] for p in rules.zones["row"].piles]
            value = game.variable
            assert value("lowest") == (min(ranks(row[0])) if row[0] else -1)
            assert value("suits") == len(set(suits(row[1])))
            assert value("king") == (ranks(row[2]).index(13) if 13 in ranks(row[2]) else -1)
            assert value("first") == (min(suits(row[1])) if row[1] else "")
            sizes = [len(p) for p in row]
            assert value("fullest") == sizes.index(max(sizes))
            assert value("place") == (len(row[0]) - 1 if row[0] else -1)
            assert value("ranks") == sum(sorted(set(ranks(row[0] + row[1] + row[2])))[-2:])


def test_both_backends_work_them_out_alike() -> None:
    games = play_both_backends(load_ruleset(ORDER), range(1, 9))
    assert all(game.outcome == "won" for game in games)


@pytest.mark.parametrize("expr, message", [
    ("sorted(cards(row[0]))[0].rank", "cards and piles have no order"),
    ("size(sorted(c for c in cards(row[0])))", "cards and piles have no order"),
    ("size(sorted([1], 2))", "sorted() takes 1 argument"),
    ("index([1, 2])", "index() takes 2 arguments"),
    ("index(cards(row[0]), 3)", "expected a card"),
])
def test_a_wrong_call_is_an_error_at_its_place(tmp_path: Path, expr: str, message: str) -> None:
    path = tmp_path / "values.yaml"
    path.write_text(VALUES.replace("EXPR", expr).replace("VALUE", "0"))
    with pytest.raises(RulesetError) as caught:
        load_ruleset(path)
    assert message in caught.value.message
    assert caught.value.pos is not None and caught.value.pos.line == 16


@pytest.mark.parametrize("expr", ["sorted([1, none])[0]", "sorted(list(c.face_up for c in cards(row[0])))[0]",
                                  "sorted(list(none if c.rank > 0 else 1 for c in cards(row[0])))[0]"])
def test_what_has_no_order_is_a_run_time_error_in_both_backends(tmp_path: Path, expr: str) -> None:
    from cardrules.native import NativeStop, Unsupported, native_backend

    path = tmp_path / "values.yaml"
    path.write_text(VALUES.replace("EXPR", expr).replace("VALUE", "0"))
    rules = load_ruleset(path)
    game = rules.new_game(seed=1)
    with pytest.raises(RulesetRuntimeError, match="sorted"):
        game.apply(game.legal_moves()[0])
    try:
        backend = native_backend(rules)
    except Unsupported as refused:  # (truth values have no order: no compiled code is written for them)
        assert "sorted() of bool_list" in str(refused)
        return
    position = backend.start(rules.new_game(seed=1))
    with pytest.raises(NativeStop):
        position.apply_code(position.legal_codes()[0])
