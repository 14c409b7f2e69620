"""The start of a game in compiled code (`Native.deal`, native/deal.py): the deck shuffled from the
seed as Python's `random.Random(seed)` shuffles it, the variables' starting values, `setup`,
`on_start`, `at_start` triggers and the first turn, array for array the position the Python backend
deals (`native.compare`, which every move-for-move test of tests/test_native.py runs, checks it
for each ruleset it plays; tests/test_native.py checks that no bundled ruleset, example or fixture
deals in Python). Where compiled code cannot deal a game (a seed it does not keep, a game over at
the deal), the Python backend deals it and the position is copied."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from cardrules import load_ruleset
from cardrules.native import NativeStop, native_backend
from cardrules.native import runtime as rt
from cardrules.native.compare import Mismatch, compare_deal
from cardrules.native.values import seed_words
from helpers import refuses_unkept_seeds


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("seed", [0, 1, 7, 2 ** 31 - 1, 2 ** 32 - 1, 2 ** 32, 2 ** 32 + 1, 2 ** 62 + 5, 2 ** 63 - 1])
def test_a_seed_gives_the_mersenne_twister_state_and_shuffle_of_pythons_random(seed: int) -> None:
    state = np.zeros(625, dtype=np.int64)
    words = seed_words(seed)
    assert words is not None
    rt.mt_seed_key(state, np.array(words, dtype=np.int64), len(words))
    assert [int(x) for x in state] == list(random.Random(seed).getstate()[1])
    order, expected = np.arange(52, dtype=np.int64), list(range(52))
    rt.mt_shuffle(state, order)
    random.Random(seed).shuffle(expected)
    assert order.tolist() == expected


def test_the_bots_generators_of_a_playout_are_seeded_in_compiled_code_as_python_seeds_them() -> None:
    native = native_backend(load_ruleset("klondike"))
    seeds = [0, 1, 2 ** 32 - 1, 2 ** 32, 2 ** 63 + 5, 2 ** 64 - 1, -9, 2 ** 64 + 3]  # (the last from Python's own)
    for some in (seeds, seeds[:-1]):
        assert native._generators(some).tolist() == [list(random.Random(seed).getstate()[1]) for seed in some]


def _dealt_in_compiled_code(native: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the Python deal fail, so that a game `native.deal` returns was surely dealt natively."""
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("dealt in Python")
    monkeypatch.setattr(native.rules, "new_game", refuse)


@pytest.mark.parametrize(("name", "players"), [("klondike", 1), ("spades", 4), ("ten-bucks", 2), ("ten-bucks", 6),
                                               ("crazy-eights", 3)])
def test_a_game_dealt_in_compiled_code_is_the_one_python_deals(name: str, players: int,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    # (spades: a variable per team; ten bucks: min of a card's list of numbers in the setup, at 2
    # and 6 seats; crazy eights: a trigger at the start)
    rules = load_ruleset(name)
    native = native_backend(rules)
    assert native.deal_refused is None
    dealt = []
    with monkeypatch.context() as patched:
        _dealt_in_compiled_code(native, patched)
        for seed in range(12):
            dealt.append(native.deal(seed, players))
    for seed, position in enumerate(dealt):
        python = native.start(rules.new_game(seed=seed, players=players))
        assert position.piles() == python.piles() and position.faces() == python.faces()
        assert position.known() == python.known()
        assert position.V.tolist() == python.V.tolist() and position.M.tolist() == python.M.tolist()
        assert position.legal_codes() == python.legal_codes()


def test_a_deal_that_differs_from_pythons_is_a_mismatch() -> None:
    native = native_backend(load_ruleset("klondike"))

    def check(what: str, python: Any, compiled: Any) -> None:
        if python != compiled:
            raise Mismatch(what)
    compare_deal(native, 5, 1, None, check)
    other = native.deal
    native.deal = lambda seed, players=None, max_moves=None: other(seed + 1, players, max_moves)  # type: ignore[method-assign]
    with pytest.raises(Mismatch, match="the dealt piles"):
        compare_deal(native, 5, 1, None, check)


def test_a_played_game_from_a_compiled_deal_ends_as_the_python_game() -> None:
    rules = load_ruleset("spades")
    native = native_backend(rules)
    for seed in range(5):
        game = rules.new_game(seed=seed)
        from cardrules.agents.bots import RandomBot
        bots = [RandomBot(seed) for _ in range(game.players)]
        while not game.is_over:
            game.apply(bots[game.current_player].choose(game))
        position = native.deal(seed)
        native.playout(position, seed)
        assert (position.moves, [position.score(p) for p in range(4)]) == (len(game.history), game.scores())


OVER_AT_THE_DEAL = """
ruleset: over
players: 1
deck: standard-52
zones: {stock: {short: s}, waste: {short: w}}
setup: [{take_deck: stock}]
moves:
  draw: {from: stock, to: waste}
end: {when: [{if: "size(stock) > 10", result: lost, reason: too many cards}]}
"""


def test_a_game_over_at_the_deal_is_dealt_in_python_and_keeps_its_ending(tmp_path: Path) -> None:
    rules = load_ruleset(_write(tmp_path, "over", OVER_AT_THE_DEAL))
    native = native_backend(rules)
    position = native.deal(3)
    assert position.is_over and (position.outcome, position.reason) == ("lost", "too many cards")
    assert position.legal_codes() == []


def test_a_seed_past_63_bits_is_dealt_in_python_alike() -> None:
    rules = load_ruleset("klondike")
    native = native_backend(rules)
    for seed in (2 ** 63, 2 ** 70 + 9):
        position, python = native.deal(seed), native.start(rules.new_game(seed=seed))
        assert position.piles() == python.piles() and position.M.tolist() == python.M.tolist()


SHUFFLED_IN_PLAY = """
ruleset: reshuffle
players: 1
deck: standard-52
zones: {stock: {short: s}, waste: {short: w}}
variables: {turns: {initial: 0}}
setup: [{take_deck: stock}]
moves:
  draw: {from: stock, to: waste}
  again:
    from: waste
    to: stock
    take: all
    when: "empty(stock) and turns < 2"
    do: [move, {shuffle: stock}, {add: {turns: 1}}]
end: {when: [{if: "empty(stock) and turns == 2", result: over}]}
score: "top(waste).rank"
"""


def test_a_negative_seed_where_compiled_code_draws_chance_is_played_in_python(tmp_path: Path) -> None:
    rules = load_ruleset(_write(tmp_path, "reshuffle", SHUFFLED_IN_PLAY))
    native = refuses_unkept_seeds(rules)  # (a shuffle's order drawn from the seed)
    position = native.deal(7)  # (a seed compiled code keeps: the same game as Python's)
    game = rules.new_game(seed=7)
    while not game.is_over:
        move = game.legal_moves()[-1]
        game.apply(move)
        position.apply_code(native.code(move))
    assert position.piles() == [list(p) for p in game.state.piles] and position.score() == game.scores()[0]


def test_min_and_max_of_a_cards_list_of_numbers_are_compiled_and_none_for_an_empty_list(tmp_path: Path) -> None:
    (tmp_path / "bills.yaml").write_text("""
deck: bills
attributes: {name: str, values: list}
cards:
  - {name: a, values: [3, 1, 2]}
  - {name: b, values: [-4, 9]}
  - {name: c, values: [5]}
  - {name: e, values: []}
code: "{name}"
""", encoding="utf-8")
    rules = load_ruleset(_write(tmp_path, "spread", """
ruleset: spread
players: 1
deck: bills
zones: {stock: {short: s}, waste: {short: w}}
variables: {low: {initial: 0}, high: {initial: 0}}
setup: [{take_deck: stock}]
moves:
  draw:
    from: stock
    to: waste
    do: [move, {add: {low: "min(card.values)", high: "max(card.values)"}}]
end: {when: [{if: "size(stock) == 1", result: over}]}
score: "high - low"
"""))
    native = native_backend(rules)
    assert native.deal_refused is None
    for deal, ending in ((["a", "b", "c", "e"], (3, 15)), (["a", "e", "b", "c"], None)):
        game = rules.new_game(deal=deal)
        position, made, stopped = native.start(game), 0, None
        try:
            while not position.is_over:
                position.apply_code(position.legal_codes()[0])
                made += 1
        except NativeStop:
            stopped = made  # (the moves made before the one that stopped)
        python_error = None
        try:
            while not game.is_over:
                game.apply(game.legal_moves()[0])
        except Exception as exc:  # noqa: BLE001 - the error Python reports
            python_error = (len(game.history), str(exc))
        if ending is None:
            # (none, in both: adding it is the error, at the second move)
            assert python_error is not None and "got none" in python_error[1] and stopped == python_error[0] == 1
        else:
            assert python_error is None and stopped is None
            assert (position.moves, position.score()) == ending == (len(game.history), game.scores()[0])
