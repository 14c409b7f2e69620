"""Turn runs (model/turn_runs.py): which moves commute with the turns of a stock, as read from the rules,
and the Python search's pruning after a turn, tested against the search without it (every deal
searched to the end both ways) and against a plain walk of every reachable position."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
from cardrules import load_ruleset
from cardrules.workbench import solver_search
from cardrules.model import turn_runs as turn_runs_module
from cardrules.workbench.solver import SOLVABLE, UNKNOWN, UNSOLVABLE, solve
from cardrules.workbench.solver_analysis import analyse
from cardrules.workbench.solver_search import _Search
from cardrules.model.turn_runs import turn_runs
from test_solver import TINY_STOCK, mini_klondike, oracle


def variant(folder: Path, text: str) -> Any:
    path = folder / "variant.yaml"
    path.write_text("extends: klondike\nruleset: variant\n" + text, encoding="utf-8")
    return load_ruleset(str(path))


def names(rules: Any, templates: frozenset[int]) -> set[str]:
    return {rules.moves[t].name for t in templates}


def test_klondikes_stock_turns_are_draw_and_redeal_and_the_other_moves_commute_off_the_waste() -> None:
    rules = load_ruleset("klondike-draw3")
    runs = turn_runs(rules)
    assert runs is not None
    assert names(rules, runs.turns) == {"draw", "redeal"}
    assert runs.piles == {*rules.zones["stock"].piles, *rules.zones["waste"].piles}
    assert names(rules, runs.commuting) == {"to_foundation", "tableau_to_tableau", "foundation_to_tableau"}
    index = {t.name: t.index for t in rules.moves}
    waste, column, foundation = rules.zones["waste"].piles[0], rules.zones["tableau"].piles[2], rules.zones["foundation"].piles[0]
    assert runs.commutes(index["to_foundation"], column, foundation)
    assert not runs.commutes(index["to_foundation"], waste, foundation)  # it changes what the turns bring up
    assert not runs.commutes(index["waste_to_tableau"], waste, column)
    assert not runs.commutes(index["draw"], rules.zones["stock"].piles[0], waste)


def test_cascades_draw_piles_open_with_the_passes_so_nothing_commutes_with_its_turns() -> None:
    assert turn_runs(load_ruleset("cascades")) is None


@pytest.mark.parametrize("text", [
    # a trigger that may run after a turn: what it does there is not read
    ("triggers:\n  - name: flip\n    for: p in tableau\n    when: \"not empty(p) and not top(p).face_up\"\n"
     "    do:\n      - turn_up: top(p)\n"),
    # an end condition that reads the stock
    "end:\n  when:\n    - if: \"empty(stock) and all(size(f) == 13 for f in foundation)\"\n      result: won\n",
    # legal_moves() reads every move's rules
    "end:\n  when:\n    - if: \"all(m == 'draw' for m in legal_moves())\"\n      result: lost\n",
    # two seats
    "players: 2\n",
    # a variable holding a pile: a rule can read the waste through it without naming it
    ("variables:\n  last:\n    initial: waste\nmoves:\n  tableau_to_tableau:\n"
     "    when: \"fits_tableau(card, dst) and size(last) < 30\"\n"),
])
def test_rules_that_could_tell_the_orders_apart_get_no_turn_runs(tmp_path: Path, text: str) -> None:
    assert turn_runs(variant(tmp_path, text)) is None


@pytest.mark.parametrize("variables, kind", [
    ("  count: {initial: 0}\n", "int"),                        # a number written out
    ("  seen: {initial: \"size(stock) > 3\"}\n", "bool"),       # an expression of one type
    ("  best: {initial: \"none\"}\n", "int"),                   # none, then only numbers set into it
    ("  name: {initial: \"'draw'\"}\n", "any"),                 # a string
    ("  last: {initial: \"none\"}\n", "any"),                   # none, then a pile set into it
    ("  pile: {initial: waste}\n", "any"),                       # a pile
])
def test_the_front_end_types_each_variable_once_and_turn_runs_reads_it(tmp_path: Path, variables: str,
                                                                          kind: str) -> None:
    name = variables.split(":")[0].strip()
    sets = {"best": "size(waste)", "last": "tableau[0]"}.get(name)
    draw = (f"moves:\n  draw:\n    do:\n      - move: {{flip: true}}\n      - set: {{{name}: \"{sets}\"}}\n"
            if sets else "")
    rules = variant(tmp_path, "variables:\n" + variables + draw)
    assert rules.variable_kinds[name] == kind
    assert (turn_runs(rules) is None) == (kind == "any")  # a variable that may hold a pile: no turn runs


def test_a_move_that_names_what_the_turns_use_does_not_commute(tmp_path: Path) -> None:
    # A column move that reads the waste, and a trigger after foundation moves that reads it.
    rules = variant(tmp_path, (
        "moves:\n  tableau_to_tableau:\n    when: \"fits_tableau(card, dst) and size(waste) < 20\"\n"
        "triggers:\n  - name: exposed\n    after: [to_foundation, tableau_to_tableau]\n    for: p in tableau\n"
        "    when: \"not empty(p) and not top(p).face_up\"\n    do:\n      - turn_up: top(p)\n"
        "  - name: tally\n    after: [foundation_to_tableau]\n    when: \"empty(waste)\"\n    do:\n      - add: {score: 1}\n"))
    runs = turn_runs(rules)
    assert runs is not None and names(rules, runs.commuting) == {"to_foundation"}


def test_after_a_turn_the_search_tries_no_move_that_commutes_with_the_turns() -> None:
    rules = load_ruleset("klondike-draw3")
    for seed in range(1, 30):
        game = solver_search.new_search_game(rules, seed)
        draw = next(m for m in game.legal_moves() if rules.moves[m.template].name == "draw")
        game.apply(draw)
        search = _Search(game, analyse(rules), math.inf, 10 ** 6, use_safe=False)
        runs = search.runs
        assert runs is not None
        legal = game.legal_moves()
        commuting = [m for m in legal if runs.commutes(m.template, m.src, m.dst)]
        if not commuting:
            continue
        tried = search.frame(search.turned_key(search.key()), 0, 0, after_turn=True).todo
        assert not any(runs.commutes(m.template, m.src, m.dst) for m in tried)
        assert len(tried) == len(legal) - len(commuting)
        assert len(search.frame(search.key(), 0, 0).todo) == len(legal)  # not after a turn: every move
        return
    pytest.fail("no deal had a move commuting with the turns after a draw")


def test_turn_runs_answer_as_every_reachable_position_says() -> None:
    rules = load_ruleset(TINY_STOCK)
    assert turn_runs(rules) is not None
    for seed in range(1, 21):
        result = solve(rules, seed=seed, thoughtful=True, timeout=None)
        assert result.answer == (SOLVABLE if oracle(rules, seed=seed)[0] else UNSOLVABLE), seed


@pytest.mark.parametrize("draw", [1, 3])
def test_pruning_turn_runs_changes_no_answer_of_the_search_without_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, draw: int) -> None:
    """The check that prunes, against the search without it: every deal searched to the end."""
    rules = load_ruleset(mini_klondike(tmp_path), {"draw": draw})
    assert turn_runs(rules) is not None
    answers = {}
    for pruned in (True, False):
        monkeypatch.setattr(solver_search, "turn_runs", turn_runs_module.turn_runs if pruned else lambda rules: None)
        answers[pruned] = [solve(rules, seed=seed, thoughtful=True, timeout=None, use_safe=use_safe).answer
                           for seed in range(1, 21) for use_safe in (True, False)]
    assert answers[True] == answers[False] and UNKNOWN not in answers[True]
    assert SOLVABLE in answers[True] and (draw == 1 or UNSOLVABLE in answers[True])
