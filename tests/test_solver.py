"""The solver: answers on small hand-made deals that are known, checked against a plain
breadth-first count of every reachable position; every solution replays to a win."""

from __future__ import annotations

import io
import json
import math
from collections import deque
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from cardrules import load_ruleset
from cardrules.cli import app
from cardrules.solver import (BEST_FOUND, OPTIMAL, SOLVABLE, UNKNOWN, UNSOLVABLE, SolveError, analyse, replay, solve,
                              solve_command, solve_sample, wilson)
from conftest import ROOT
from intervals import wilson as reference_wilson

FIXTURES = ROOT / "tests" / "fixtures" / "solver"
TINY = str(FIXTURES / "tiny.yaml")            # open cards; wins and losses
TINY_BANK = str(FIXTURES / "tiny-bank.yaml")  # open cards; a score, no win
TINY_STOCK = str(FIXTURES / "tiny-stock.yaml")  # open cards and a stock turning round: cycles
SORTED_DEAL = FIXTURES / "klondike-sorted.deal"
TINY_LOST_DEAL = FIXTURES / "tiny-lost.deal"


def oracle(rules: Any, seed: int | None = None, deal: str | None = None) -> tuple[bool, int | None]:
    """Every position reachable from the deal, by clones and full position keys (no solver code):
    can the game be won, and the best score of any position reached (finished or not)."""
    game = rules.new_game(seed=seed, deal=deal, max_moves=10 ** 9)
    seen = {game._position_key()}
    queue = deque([game])
    won, best = False, game.scores()[0]
    while queue:
        here = queue.popleft()
        for move in here.legal_moves():
            there = here.clone()
            there.apply(move)
            best = max(best, there.scores()[0])
            if there.is_over:
                won = won or there.outcome == "won"
                continue
            key = there._position_key()
            if key not in seen:
                seen.add(key)
                queue.append(there)
    return won, best


def command(*, ruleset: str, seed: int | None = None, deal: Path | None = None, options: tuple[str, ...] = (),
            thoughtful: bool = False, timeout: float | None = 10.0, sample: int | None = None, jobs: int = 1,
            as_json: bool = False) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = solve_command(ruleset, seed, deal, list(options), thoughtful, timeout, sample, jobs, as_json,
                         Console(file=out, width=200, highlight=False), Console(file=err, width=200))
    return code, out.getvalue(), err.getvalue()


# -- a Klondike deal with a known answer ------------------------------------------------------

@pytest.mark.parametrize("draw", [1, 3])
def test_a_sorted_klondike_deal_is_solvable_and_the_moves_win(draw: int) -> None:
    rules = load_ruleset("klondike", {"draw": draw})
    deal = SORTED_DEAL.read_text(encoding="utf-8")
    result = solve(rules, deal=deal, thoughtful=True, timeout=20)
    assert result.answer == SOLVABLE
    assert 52 <= len(result.moves) <= rules.max_moves
    assert result.nodes >= 1 and result.seconds >= 0
    game = replay(rules, result.moves, deal=deal)
    assert game.outcome == "won" and len(game.history) == len(result.moves)


def test_a_solution_replays_to_a_win_through_the_play_command() -> None:
    code, out, _ = command(ruleset="klondike", deal=SORTED_DEAL, thoughtful=True, as_json=True)
    assert code == 0
    data = json.loads(out)
    assert data["answer"] == SOLVABLE and data["move_count"] == len(data["moves"]) > 0
    played = CliRunner().invoke(app, ["play", "klondike", "--deal", str(SORTED_DEAL), "--json"],
                                input="".join(m + "\n" for m in data["moves"]), env={"COLUMNS": "200"})
    assert played.exit_code == 0, played.stderr
    summary = json.loads(played.stdout)
    assert summary["outcome"] == "won" and summary["moves"] == data["moves"]


def test_the_text_answer_lists_the_moves_and_a_replay_command() -> None:
    code, out, _ = command(ruleset="klondike", deal=SORTED_DEAL, thoughtful=True, options=("draw=3",))
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("solvable in ")
    moves = lines[1].split()
    assert replay(load_ruleset("klondike", {"draw": 3}), moves, deal=SORTED_DEAL.read_text()).outcome == "won"
    assert lines[2].startswith("replay: printf '%s\\n' ")
    assert lines[2].endswith(f"| cardrules play klondike --deal {SORTED_DEAL} -o draw=3")
    assert "'w>f1'" in lines[2]  # quoted for the shell


# -- hidden cards, several seats, bad arguments ------------------------------------------------

def test_hidden_cards_need_thoughtful() -> None:
    rules = load_ruleset("klondike")
    with pytest.raises(SolveError, match="--thoughtful"):
        solve(rules, seed=1)
    code, out, err = command(ruleset="klondike", seed=1)
    assert code == 1 and not out
    assert "cannot see 45 of the cards" in err and "--thoughtful" in err and "ismcts" in err
    code, _, err = command(ruleset="dollartaire", sample=3)
    assert code == 1 and "--thoughtful" in err


def test_a_ruleset_with_every_card_open_is_solved_without_thoughtful() -> None:
    rules = load_ruleset(TINY)
    assert solve(rules, seed=1).answer == solve(rules, seed=1, thoughtful=True).answer == SOLVABLE


def test_games_for_several_seats_are_refused() -> None:
    with pytest.raises(SolveError, match="2-6 players"):
        solve(load_ruleset("ten-bucks"), seed=1, thoughtful=True)
    code, out, err = command(ruleset="nerts", seed=1, thoughtful=True)
    assert code == 1 and "one-player games" in err and not out


@pytest.mark.parametrize("kwargs, message", [
    ({}, "give --seed N or --deal FILE"),
    ({"seed": 1, "deal": SORTED_DEAL}, "give --seed N or --deal FILE"),
    ({"seed": 1, "sample": 3}, "without --seed or --deal"),
    ({"sample": 0}, "1 or more"),
    ({"seed": 1, "options": ("draw",)}, "NAME=VALUE"),
    ({"seed": 1, "options": ("draw=2",)}, "option 'draw' cannot be"),
    ({"deal": Path("no-such.deal")}, "file not found: no-such.deal"),
])
def test_bad_arguments_are_errors(kwargs: dict[str, Any], message: str) -> None:
    code, out, err = command(ruleset="klondike", thoughtful=True, **kwargs)
    assert code == 1 and message in err and not out


# -- wins and losses checked against every reachable position ----------------------------------

def test_answers_match_an_exhaustive_count_and_solutions_win() -> None:
    rules = load_ruleset(TINY)
    answers = []
    for seed in range(1, 21):
        result = solve(rules, seed=seed, timeout=None)
        won, _ = oracle(rules, seed=seed)
        assert result.answer == (SOLVABLE if won else UNSOLVABLE), seed
        if won:
            assert replay(rules, result.moves, seed=seed).outcome == "won"
        else:
            assert result.moves == []
        answers.append(result.answer)
    assert answers.count(UNSOLVABLE) == 2  # seeds 3 and 13


def winnable_keys(rules: Any, seed: int) -> tuple[set[Any], set[Any]]:
    """Every position reachable from the deal, by the solver's position key: those from which a win
    can be reached, and all of them (a breadth-first walk, then backward induction)."""
    from cardrules.solver import _Search
    analysis = analyse(rules)

    def key(game: Any) -> Any:
        return _Search(game, analysis, math.inf, 10 ** 9).key()

    start = rules.new_game(seed=seed, max_moves=10 ** 9)
    graph: dict[Any, list[Any]] = {}
    winning: set[Any] = set()
    queue = deque([start])
    graph[key(start)] = []
    while queue:
        here = queue.popleft()
        here_key = key(here)
        for move in here.legal_moves():
            there = here.clone()
            there.apply(move)
            if there.is_over:
                if there.outcome == "won":
                    winning.add(here_key)
                continue
            there_key = key(there)
            graph[here_key].append(there_key)
            if there_key not in graph:
                graph[there_key] = []
                queue.append(there)
    changed = True
    while changed:
        changed = False
        for position, children in graph.items():
            if position not in winning and any(child in winning for child in children):
                winning.add(position)
                changed = True
    return winning, set(graph)


def test_positions_proven_lost_never_include_a_winnable_one_even_when_a_search_is_cut_short() -> None:
    """Tarjan's components: a search cut short after any number of positions keeps only positions
    from which no win is reachable, and a later search with that knowledge gives the true answer."""
    from cardrules.solver import _Search, new_search_game
    proven = 0
    for rules, seed in [(load_ruleset(path), seed) for path in (TINY, TINY_STOCK) for seed in range(1, 21)]:
        winning, reachable = winnable_keys(rules, seed)
        for limit in (1, 2, 3, 5, 8, 13):
            game = new_search_game(rules, seed=seed)
            search = _Search(game, analyse(rules), math.inf, 10 ** 9)
            start = search.key()
            search.run(limit)
            assert not (search.dead & winning), (seed, limit)
            assert search.dead <= reachable
            proven += len(search.dead)
            exhausted = search.run()  # carries on with what the cut search proved
            assert search.solution is not None or exhausted
            assert (search.solution is not None) == (start in winning), (seed, limit)
    assert proven > 0  # the cut searches did prove positions lost


def test_restarts_of_a_few_positions_each_still_give_the_true_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    from cardrules import solver
    luby = solver._restart_limits
    monkeypatch.setattr(solver, "_restart_limits", lambda: luby(1))
    rules = load_ruleset(TINY)
    for seed in range(1, 21):
        result = solve(rules, seed=seed, timeout=None)
        assert result.answer == (SOLVABLE if oracle(rules, seed=seed)[0] else UNSOLVABLE), seed
        if result.answer == SOLVABLE:
            assert replay(rules, result.moves, seed=seed).outcome == "won"


def test_a_hand_made_lost_deal_is_unsolvable() -> None:
    rules = load_ruleset(TINY)
    deal = TINY_LOST_DEAL.read_text(encoding="utf-8")
    assert oracle(rules, deal=deal)[0] is False
    result = solve(rules, deal=deal)
    assert result.answer == UNSOLVABLE and result.moves == [] and result.nodes > 1
    code, out, _ = command(ruleset=TINY, deal=TINY_LOST_DEAL)
    assert code == 0 and out.startswith("unsolvable: no reachable position wins")


def test_a_win_that_an_effect_declares_is_found(tmp_path: Path) -> None:
    rules = load_ruleset(TINY)
    assert analyse(rules).can_win
    text = (FIXTURES / "tiny.yaml").read_text(encoding="utf-8")
    head, _, _ = text.partition("end:")
    claimed = head.replace("    safe: \"card.rank <= 2\"", "    do:\n      - move\n      - if: \"all(size(f) == 3 "
                           "for f in foundation)\"\n        then: [{end: {result: won, reason: claimed}}]\n")
    claimed += "end:\n  no_moves: {result: lost}\n"
    path = tmp_path / "claimed.yaml"
    path.write_text(claimed, encoding="utf-8")
    other = load_ruleset(str(path))
    assert not other.end_conditions and analyse(other).can_win  # only the effect can end it won
    result = solve(other, seed=1)
    assert result.answer == SOLVABLE and replay(other, result.moves, seed=1).outcome == "won"


# -- scores without a win ----------------------------------------------------------------------

def test_a_score_only_ruleset_gets_its_best_score_optimal() -> None:
    rules = load_ruleset(TINY_BANK)
    analysis = analyse(rules)
    assert not analysis.can_win and analysis.accumulating
    for seed in range(1, 13):
        result = solve(rules, seed=seed, timeout=None)
        _, best = oracle(rules, seed=seed)
        assert result.goal == "score" and result.answer == OPTIMAL and result.score == best, seed
        assert replay(rules, result.moves, seed=seed).scores()[0] == best
    code, out, _ = command(ruleset=TINY_BANK, seed=7)
    assert code == 0 and out.startswith(f"best score {oracle(rules, seed=7)[1]} in ")
    assert "optimal: every reachable position searched" in out


def test_dollartaire_reports_a_best_score_whose_moves_reach_it() -> None:
    rules = load_ruleset("dollartaire")
    assert not analyse(rules).can_win
    result = solve(rules, seed=3, thoughtful=True, timeout=1.5)
    assert result.answer in (BEST_FOUND, OPTIMAL) and result.score is not None and result.score >= 1000
    game = replay(rules, result.moves, seed=3)
    assert game.scores()[0] == result.score and game.outcome in (None, "over")


# -- what the search keys positions by ---------------------------------------------------------

def test_only_variables_that_steer_the_game_tell_positions_apart() -> None:
    def names(rules: Any, slots: Any) -> set[str]:
        return {name for name, v in rules.variables.items() if v.slot in slots}

    standard = load_ruleset("klondike")
    assert names(standard, analyse(standard).relevant) == {"played_this_pass", "stalled"}
    vegas = load_ruleset("klondike", {"scoring": "vegas"})  # the number of passes is limited
    assert names(vegas, analyse(vegas).relevant) == {"passes", "played_this_pass", "stalled"}
    dollars = load_ruleset("dollartaire")
    assert analyse(dollars).relevant == () and names(dollars, analyse(dollars).objective) == {"wallet_total"}


# -- timeouts and samples ----------------------------------------------------------------------

def test_running_out_of_time_gives_unknown() -> None:
    rules = load_ruleset("klondike")
    result = solve(rules, seed=3, thoughtful=True, timeout=0)
    assert result.answer == UNKNOWN and result.moves == [] and "time" in result.reason
    code, out, _ = command(ruleset="klondike", seed=3, thoughtful=True, timeout=0)
    assert code == 0 and out.startswith("unknown: time ran out")
    code, out, _ = command(ruleset="klondike", seed=3, thoughtful=True, timeout=0, as_json=True)
    data = json.loads(out)
    assert data["answer"] == UNKNOWN and data["moves"] == [] and {"nodes", "seconds"} <= set(data)


def test_a_sample_reports_the_exact_share_with_its_interval() -> None:
    rules = load_ruleset(TINY)
    expected = sum(oracle(rules, seed=seed)[0] for seed in range(1, 21))
    assert expected == 18
    summary = solve_sample(TINY, {}, 20, timeout=None)
    assert summary["solvable"] == 18 and summary["share"] == 0.9 and summary["unknown"] == 0
    assert summary["answers"] == {SOLVABLE: 18, UNSOLVABLE: 2} and summary["not_replaying"] == 0
    assert summary["interval"] == pytest.approx(list(reference_wilson(18, 20)))
    assert summary["median_seconds"] >= 0 and summary["p90_seconds"] >= summary["median_seconds"]
    assert [r["seed"] for r in summary["results"]] == list(range(1, 21))


def test_a_sample_in_worker_processes_gives_the_same_answers() -> None:
    code, out, _ = command(ruleset=TINY, sample=20, jobs=2, as_json=True)
    assert code == 0
    data = json.loads(out)
    single = solve_sample(TINY, {}, 20)
    assert [(r["seed"], r["answer"], r["nodes"]) for r in data["results"]] == \
        [(r["seed"], r["answer"], r["nodes"]) for r in single["results"]]
    assert data["jobs"] == 2 and data["solvable"] == 18
    code, out, _ = command(ruleset=TINY, sample=20)
    assert code == 0 and "solvable 18/20 = 90.0%  [95% CI 69.9% - 97.2%]" in out
    assert "unsolvable 2, unknown 0" in out and "time per deal: median" in out


def test_a_sample_of_a_score_only_ruleset_sums_up_the_best_scores() -> None:
    code, out, _ = command(ruleset=TINY_BANK, sample=6, as_json=True)
    data = json.loads(out)
    rules = load_ruleset(TINY_BANK)
    best = [oracle(rules, seed=seed)[1] for seed in range(1, 7)]
    assert data["goal"] == "score" and data["optimal"] == 6
    assert [r["score"] for r in data["results"]] == best and data["max_score"] == max(best)


def test_wilson_interval() -> None:
    assert wilson(18, 20) == pytest.approx(reference_wilson(18, 20))
    low, high = wilson(0, 10)
    assert low == 0 and 0.25 < high < 0.35


def test_the_command_has_a_default_timeout_and_a_position_bound() -> None:
    result = CliRunner().invoke(app, ["solve", "klondike", "--seed", "3", "--thoughtful", "--max-positions", "50",
                                      "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["answer"] == UNKNOWN and data["timeout"] == 10.0 and "more than 50 positions" in data["reason"]
    code, out, _ = command(ruleset=TINY, seed=1, timeout=math.inf, as_json=True)
    assert code == 0 and json.loads(out)["timeout"] is None and json.loads(out)["answer"] == SOLVABLE
    for bad in (["--timeout", "-1"], ["--timeout", "nan"], ["--max-positions", "0"]):
        result = CliRunner().invoke(app, ["solve", TINY, "--seed", "1", *bad])
        assert result.exit_code == 1 and ("--timeout" in result.output or "--max-positions" in result.output), bad
