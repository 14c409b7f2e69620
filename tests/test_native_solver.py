"""The solver on the native backend (`solve --engine native`): the same answers as the Python
search and as a plain count of every reachable position, on hand-made rulesets and on Klondike;
its solutions replay to a win; its bounds (time, positions kept) and the growth of its arrays."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("numba", reason="the native solver needs the 'native' extra")

from cardrules import load_ruleset
from cardrules.native import solver as native_solver
from cardrules.native.solver import REPEAT_UNSEARCHED
from cardrules.workbench.solver import (
    SOLVABLE,
    UNKNOWN,
    UNSOLVABLE,
    SolveError,
    choose_solver_engine,
    replay,
    solve,
    solve_game,
)
from cardrules.workbench.solver_analysis import analyse
from cardrules.workbench.solver_search import new_search_game
from test_solver import TINY, TINY_STOCK, command, mini_klondike, oracle, winnable_keys


def native(rules: Any, seed: int, **keywords: Any) -> Any:
    result = solve(rules, seed=seed, thoughtful=True, engine="native", **keywords)
    assert result.engine == "native"
    if result.answer == SOLVABLE:  # the moves win as `cardrules play` plays them
        assert replay(rules, result.moves, seed=seed).outcome == "won", seed
    else:
        assert result.moves == []
    return result


@pytest.mark.parametrize("path", [TINY, TINY_STOCK])
@pytest.mark.parametrize("use_safe", [True, False])
def test_native_answers_match_every_reachable_position(path: str, use_safe: bool) -> None:
    """Solvable where some reachable position wins, unsolvable (a proof) where none does: with the
    ruleset's safe moves and without, a stock turning round (cycles) included."""
    rules = load_ruleset(path)
    answers = []
    for seed in range(1, 21):
        result = native(rules, seed, timeout=None, use_safe=use_safe)
        assert result.answer == (SOLVABLE if oracle(rules, seed=seed)[0] else UNSOLVABLE), seed
        answers.append(result.answer)
    assert SOLVABLE in answers and UNSOLVABLE in answers


def test_restarts_of_a_position_each_and_a_tight_bound_on_positions_still_prove(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Restarts of one position each leave keys of positions searched but not proven; with room for
    no more positions than the deal has, the search must drop those (keeping every position it
    proved lost) to carry on, and still give the true answer."""
    from cardrules.workbench import solver

    luby = solver._restart_limits
    monkeypatch.setattr(solver, "_restart_limits", lambda: luby(1))
    rules = load_ruleset(TINY_STOCK)
    for seed in range(1, 21):
        _, reachable = winnable_keys(rules, seed)
        result = native(rules, seed, timeout=None, max_positions=len(reachable) + 1)
        assert result.answer == (SOLVABLE if oracle(rules, seed=seed)[0] else UNSOLVABLE), seed


def test_arrays_that_start_small_grow_as_the_search_asks(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Levels, the move pool and the key arena begin at a few entries: every growth path runs, and
    the answers are those of the Python search (which exhausts these small deals too)."""
    monkeypatch.setattr(native_solver, "FIRST_DEPTH", 4)
    monkeypatch.setattr(native_solver, "FIRST_ROWS", 2)
    monkeypatch.setattr(native_solver, "FIRST_POOL", 2 * native_solver.MAXL + 8)
    rules = load_ruleset(mini_klondike(tmp_path), {"draw": 3})
    definite = 0
    for seed in range(1, 13):
        ours = native(rules, seed, timeout=None, use_safe=False)
        python = solve(rules, seed=seed, thoughtful=True, timeout=None, use_safe=False)
        assert ours.answer == python.answer, seed
        definite += ours.answer != UNKNOWN
    assert definite == 12


@pytest.mark.parametrize("draw", [1, 3])
def test_mini_klondike_answers_are_the_python_searchs_with_and_without_safe_moves(tmp_path: Path, draw: int) -> None:
    """Klondike's own rules and safe moves, cut down so that both searches exhaust every deal:
    the two engines give the same definite answers, deal by deal."""
    rules = load_ruleset(mini_klondike(tmp_path), {"draw": draw})
    tally = {SOLVABLE: 0, UNSOLVABLE: 0}
    for seed in range(1, 31):
        for use_safe in (True, False):
            ours = native(rules, seed, timeout=None, use_safe=use_safe)
            python = solve(rules, seed=seed, thoughtful=True, timeout=None, use_safe=use_safe)
            assert ours.answer == python.answer, (seed, use_safe)
            tally[ours.answer] += 1
    assert tally[SOLVABLE] > 0 and (draw == 1 or tally[UNSOLVABLE] > 0), tally


def test_klondike_draw_three_deals_the_python_search_answers_get_the_same_answers() -> None:
    """Real deals: seeds the Python search decides in a few seconds, one of them a proof of loss."""
    rules = load_ruleset("klondike-draw3")
    for seed, answer in ((2, SOLVABLE), (10, SOLVABLE), (21, SOLVABLE), (24, UNSOLVABLE)):
        assert solve(rules, seed=seed, thoughtful=True, timeout=30, clock="cpu").answer == answer, seed
        assert native(rules, seed, timeout=30, clock="cpu").answer == answer, seed


def test_a_game_that_has_moved_is_solved_from_where_it_stands() -> None:
    rules = load_ruleset("klondike-draw3")
    game = new_search_game(rules, seed=2)
    assert rules.cycle is not None
    for _ in range(3):  # not turning the stock: a cycle under way is the Python search's alone
        game.apply(next(m for m in game.legal_moves() if m.template not in rules.cycle.moves))
    history = [str(m) for m in game.history]
    result = solve_game(game, timeout=30, engine="native")
    assert [str(m) for m in game.history] == history  # left where it stood
    assert result.answer == SOLVABLE
    for text in result.moves:
        game.apply(game.parse_move(text))
    assert game.outcome == "won"
    turning = new_search_game(rules, seed=2)
    turning.apply(next(m for m in turning.legal_moves() if m.template in rules.cycle.moves))
    with pytest.raises(SolveError, match="a game with a cycle under way"):
        solve_game(turning, engine="native")


def test_a_ruleset_that_counts_positions_is_searched_in_python(tmp_path: Path) -> None:
    # end.repeat counts the positions of the game's path, which the native search does not keep
    variant = tmp_path / "klondike-repeats.yaml"
    variant.write_text("extends: klondike\nruleset: klondike-repeats\n"
                       "end:\n  repeat: {count: 3, result: lost, reason: round in circles}\n")
    rules = load_ruleset(str(variant))
    with pytest.raises(SolveError, match="end.repeat"):
        solve(rules, seed=1, thoughtful=True, timeout=1, engine="native")
    lines: list[str] = []
    assert choose_solver_engine(rules, "native", lines.append) == "python"
    assert lines == [f"native solver: not for this ruleset ({REPEAT_UNSEARCHED}); searching with Python"]


def test_time_and_the_bound_on_positions_give_unknown_with_the_reason() -> None:
    rules = load_ruleset("klondike-draw3")
    result = solve(rules, seed=3, thoughtful=True, timeout=0.2, engine="native")
    assert (result.answer, result.reason) == (UNKNOWN, "time ran out")
    result = solve(rules, seed=3, thoughtful=True, timeout=30, max_positions=5_000, engine="native")
    assert (result.answer, result.reason) == (UNKNOWN, "more than 5,000 positions")
    assert result.nodes > 5_000  # positions left open by earlier restarts were dropped to go on


def test_the_command_searches_natively_or_says_in_one_line_why_not() -> None:
    code, out, err = command(ruleset="klondike-draw3", seed=2, thoughtful=True, engine="native")
    assert code == 0 and out.startswith("solvable in ") and err == ""
    code, out, err = command(ruleset="dollartaire", seed=2, thoughtful=True, engine="native", timeout=1)
    assert code == 0 and out.startswith("best score ")
    assert err.count("\n") == 1 and "native solver: not for this ruleset (a search for the best score" in err
    code, out, err = command(ruleset="klondike", seed=2, thoughtful=True, engine="fast")
    assert code == 1 and "engine 'fast': choose auto or python or native" in err


def test_the_api_refuses_a_ruleset_the_native_solver_cannot_search() -> None:
    with pytest.raises(SolveError, match="native solver cannot search this game: a ruleset that cannot end won"):
        solve(load_ruleset("dollartaire"), seed=1, thoughtful=True, engine="native")


def test_a_sample_in_worker_processes_searches_natively_with_the_same_answers() -> None:
    from cardrules.workbench.solver import solve_sample

    one = solve_sample(TINY, {}, 8, timeout=None, engine="native")
    two = solve_sample(TINY, {}, 8, timeout=None, jobs=2, engine="native")
    python = solve_sample(TINY, {}, 8, timeout=None)
    assert one["engine"] == two["engine"] == "native"
    answers = [[r["answer"] for r in s["results"]] for s in (one, two, python)]
    assert answers[0] == answers[1] == answers[2]
    assert all(r["replays"] for r in one["results"] if r["answer"] == SOLVABLE)


def test_the_key_keeps_only_the_variables_that_steer_the_game() -> None:
    """Klondike's score never decides a move: positions that differ only in it are one."""
    rules = load_ruleset("klondike-draw3")
    relevant = analyse(rules).relevant
    assert relevant is not None and rules.front_end.scope.variables["score"][0] not in relevant
    search = native_solver.NativeSearch(new_search_game(rules, seed=2), relevant, 1000, True)
    assert search.width == search.module.CARDWORDS + len(relevant) + 3
    assert math.ceil(52 * search.module.KEYBITS / 64) == search.module.CARDWORDS


# -- piles the rules never tell apart -------------------------------------------------------------

def variant(folder: Path, text: str) -> Any:
    path = folder / "variant.yaml"
    path.write_text("extends: klondike\nruleset: variant\n" + text, encoding="utf-8")
    return load_ruleset(str(path))


def test_klondikes_foundations_and_columns_are_interchangeable_piles() -> None:
    rules = load_ruleset("klondike")
    assert native_solver.interchangeable_piles(rules) == [list(rules.zones["foundation"].piles),
                                                         list(rules.zones["tableau"].piles)]


@pytest.mark.parametrize("text, apart", [
    # a rule naming one column by its place
    ("end:\n  when:\n    - if: \"empty(tableau[0]) and all(size(f) == 13 for f in foundation)\"\n      result: won\n",
     {"tableau"}),
    # the place of a pile read
    ("moves:\n  waste_to_tableau:\n    when: \"fits_tableau(card, dst) and dst.index > 0\"\n", {"tableau", "foundation"}),
    # a loop over the columns that deals to them in order
    (("triggers:\n  - name: refill\n    for: p in tableau\n    when: \"empty(p) and not empty(stock)\"\n"
      "    do:\n      - move: {from: stock, to: p, count: 1}\n"), {"tableau"}),
    # a variable holding a pile
    (("variables:\n  last:\n    initial: waste\nmoves:\n  waste_to_tableau:\n    do:\n      - move\n"
      "      - set: {last: dst}\n"), {"tableau", "foundation"}),
])
def test_a_rule_that_tells_piles_apart_keeps_them_apart(tmp_path: Path, text: str, apart: set[str]) -> None:
    rules = variant(tmp_path, text)
    groups = native_solver.interchangeable_piles(rules)
    kept = {name for name in ("foundation", "tableau") if list(rules.zones[name].piles) in groups}
    assert kept == {"foundation", "tableau"} - apart


def test_keying_interchangeable_piles_as_one_changes_no_answer_and_searches_fewer_positions(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check that prunes, against the search without it: every deal exhausted both ways."""
    rules = load_ruleset(mini_klondike(tmp_path), {"draw": 3})
    assert native_solver.interchangeable_piles(rules)
    nodes = {}
    answers = {}
    for together in (True, False):
        if not together:
            monkeypatch.setattr(native_solver, "interchangeable_piles", lambda rules: [])
        results = [native(rules, seed, timeout=None, use_safe=False) for seed in range(1, 31)]
        answers[together] = [r.answer for r in results]
        nodes[together] = sum(r.nodes for r in results)
    assert answers[True] == answers[False] and UNKNOWN not in answers[True]
    assert nodes[True] < nodes[False]


@pytest.mark.parametrize("draw", [1, 3])
def test_pruning_turn_runs_natively_changes_no_answer_of_the_search_without_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, draw: int) -> None:
    """The check that prunes (model/turn_runs.py), against the native search without it and the Python
    search with it: every deal searched to the end, with and without safe moves."""
    from cardrules.model import turn_runs as turn_runs_module

    rules = load_ruleset(mini_klondike(tmp_path), {"draw": draw})
    search = native_solver.NativeSearch(new_search_game(rules, 1), [], 10 ** 6, True)
    assert sorted(search.RT) == [0, 1, 1, 2, 2, 2] and search.RZ.sum() == 2  # draw, redeal; 3 commuting
    answers = {}
    for pruned in (True, False):
        monkeypatch.setattr(native_solver, "turn_runs", turn_runs_module.turn_runs if pruned else lambda rules: None)
        answers[pruned] = [native(rules, seed, timeout=None, use_safe=use_safe).answer
                           for seed in range(1, 21) for use_safe in (True, False)]
    python = [solve(rules, seed=seed, thoughtful=True, timeout=None, use_safe=use_safe).answer
              for seed in range(1, 21) for use_safe in (True, False)]
    assert answers[True] == answers[False] == python and UNKNOWN not in python


def test_each_engine_has_its_own_default_bound_on_positions(monkeypatch: pytest.MonkeyPatch) -> None:
    """A native position costs less memory, so its default bound is higher (base/limits.py); an
    explicit bound counts for both."""
    from cardrules.workbench import solver

    monkeypatch.setattr(solver, "DEFAULT_MAX_POSITIONS", 40)
    monkeypatch.setattr(solver, "DEFAULT_MAX_POSITIONS_NATIVE", 60)
    rules = load_ruleset("klondike-draw3")
    assert solve(rules, seed=3, thoughtful=True, timeout=30).reason == "more than 40 positions"
    assert native(rules, 3, timeout=30).reason == "more than 60 positions"
    assert native(rules, 3, timeout=30, max_positions=50).reason == "more than 50 positions"
