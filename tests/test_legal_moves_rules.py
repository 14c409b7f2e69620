"""Rules about what can be done: the `legal_moves()` builtin and the `end.cycle` rule, on small
rulesets written for the test (Klondike's and Cascades' own cycle rules are tested with them)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cardrules import CardrulesError, load_ruleset
from helpers import mini_with, texts

MINI_END = '''end:
  when:
    - if: "empty(stock) and empty(waste)"
      result: won
'''
ONLY_DRAWS_END = MINI_END + '''    - if: "all(m == 'draw' for m in legal_moves())"
      result: lost
      reason: only draws are possible
'''


def test_an_end_condition_on_legal_moves_ends_the_game_exactly_when_only_draws_are_possible(tmp_path: Path) -> None:
    with_rule = load_ruleset(mini_with(tmp_path, MINI_END, ONLY_DRAWS_END))
    without = load_ruleset(mini_with(tmp_path, "ruleset: mini", "ruleset: mini-plain", name="plain.yaml"))
    endings = 0
    for seed in range(40):
        game, reference = with_rule.new_game(seed=seed), without.new_game(seed=seed)
        rng = random.Random(seed)
        while not reference.is_over:
            possible = texts(reference)
            if reference.outcome is None and possible <= {"draw"} and possible:
                assert game.is_over and game.outcome == "lost" and game.reason == "only draws are possible"
                endings += 1
                break
            assert not game.is_over and texts(game) == possible
            move = rng.choice(sorted(possible))
            game.apply(game.parse_move(move))
            reference.apply(reference.parse_move(move))
    assert endings >= 10  # the rule was put to the test


def mini_with_trigger(tmp_path: Path, variables: str, effects: str, when: str = "fits(card, dst)") -> Path:
    """tests/fixtures/mini.yaml with these variables (YAML lines), a trigger after every move
    running these effects (YAML lines), and `play` allowed when `when` holds."""
    path = mini_with(tmp_path, "variables:\n", "variables:\n" + variables)
    text = path.read_text(encoding="utf-8").replace('when: "fits(card, dst)"', f'when: "{when}"', 1)
    path.write_text(text.replace("end:\n", "triggers:\n  - do:\n" + effects + "end:\n", 1), encoding="utf-8")
    return path


def after_random_moves(rules: Any, games: int = 10, moves: int = 30) -> Iterator[Any]:
    """Each of `games` seeded games after each of up to `moves` random moves."""
    for seed in range(games):
        game = rules.new_game(seed=seed)
        rng = random.Random(seed)
        for _ in range(moves):
            if game.is_over:
                break
            game.apply(rng.choice(game.legal_moves()))
            yield game


def test_legal_moves_names_one_entry_per_legal_move(tmp_path: Path) -> None:
    rules = load_ruleset(mini_with_trigger(
        tmp_path, "  offered:\n    initial: 0\n  plays:\n    initial: 0\n",
        "      - set: {offered: \"size(legal_moves())\", plays: \"count(m for m in legal_moves() if m == 'play')\"}\n"))
    checked = 0
    for game in after_random_moves(rules):
        if not game.is_over:
            moves = game.legal_moves()
            assert game.variable("offered") == len(moves)
            assert game.variable("plays") == sum(1 for m in moves if m.name == "play")
            checked += game.variable("plays")
    assert checked > 0


def test_a_listing_made_for_legal_moves_is_not_reused_after_a_variable_it_reads_changes(tmp_path: Path) -> None:
    # The trigger lists the moves, then locks `play`: the engine must list them again.
    rules = load_ruleset(mini_with_trigger(
        tmp_path, "  seen:\n    initial: 0\n  locked:\n    initial: false\n",
        "      - set: {seen: \"size(legal_moves())\"}\n      - set: {locked: \"not locked\"}\n",
        when="not locked and fits(card, dst)"))
    for game in after_random_moves(rules):
        if game.variable("locked"):
            assert all(m.name != "play" for m in game.legal_moves())


@pytest.mark.parametrize("key", ["when", "take"])
def test_legal_moves_is_refused_in_a_moves_own_conditions(tmp_path: Path, key: str) -> None:
    old = '    when: "fits(card, dst)"\n'
    new = {"when": '    when: "fits(card, dst) and size(legal_moves()) > 0"\n',
           "take": '    when: "fits(card, dst)"\n    take: "size(legal_moves())"\n'}[key]
    with pytest.raises(CardrulesError) as caught:
        load_ruleset(mini_with(tmp_path, old, new))
    message = str(caught.value)
    assert "legal_moves()" in message and "r.yaml:" in message


def test_end_cycle_names_only_moves_of_the_ruleset(tmp_path: Path) -> None:
    path = mini_with(tmp_path, MINI_END, MINI_END + "  cycle:\n    moves: [draw, shuffle]\n    result: lost\n")
    with pytest.raises(CardrulesError) as caught:
        load_ruleset(path)
    message = str(caught.value)
    assert "shuffle" in message and "draw" in message and ":" in message.split()[0]


def test_legal_moves_in_expressions_reads_each_games_own_moves_in_clones_and_copies(tmp_path: Path) -> None:
    # `legal_moves()` reaches the game through a weak reference (engine._lister_of): a clone or a
    # determinized copy must read its own listing, never the game it was copied from.
    rules = load_ruleset(mini_with_trigger(
        tmp_path, "  offered:\n    initial: 0\n", "      - set: {offered: \"size(legal_moves())\"}\n"))
    game = next(after_random_moves(rules, 1))
    for copy in (game.clone(), game.determinize(0, random.Random(1))):
        move = copy.legal_moves()[0]
        copy.apply(move)
        if not copy.is_over:
            assert copy.variable("offered") == len(copy.legal_moves())
    assert game.variable("offered") == len(game.legal_moves())
