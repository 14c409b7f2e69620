"""`score_order: lower`: a ruleset says once that lower scores are better, and the winners by
score, the bots, `simulate`'s leaders and summary, and the solver's best score all follow it.

The fixture tests/fixtures/scoring/penalty.yaml: six clubs Ace to 6 lie face up in a row; each
seat in turn takes one into its own pile, or, holding two, stops the game; a seat's score is the
sum of the ranks it took.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from cardrules import load_ruleset
from cardrules.agents.bots import GreedyBot
from cardrules.base.errors import RulesetError
from cardrules.workbench.simulate import simulate_games
from cardrules.workbench.simulate_play import _leaders
from cardrules.workbench.solver import OPTIMAL, solve_game
from cardrules.workbench.solver_search import new_search_game

from helpers import FIXTURES, play, play_both_backends

PENALTY = FIXTURES / "scoring" / "penalty.yaml"
# The row's cards, left to right: r1..r6 (the deal of seed 1).
ROW = ["3C", "4C", "6C", "AC", "5C", "2C"]


def _higher(tmp_path: Path) -> Path:
    """The same game with higher scores better (the default)."""
    path = tmp_path / "penalty-higher.yaml"
    path.write_text(PENALTY.read_text(encoding="utf-8").replace("score_order: lower\n", ""), encoding="utf-8")
    return path


def _game(path: Path = PENALTY, players: int = 2):  # type: ignore[no-untyped-def]
    game = load_ruleset(str(path)).new_game(seed=1, players=players)
    assert [game.view(0)["zones"]["row"][i][0] for i in range(6)] == ROW
    return game


def test_lower_score_wins_a_game_that_ends_over(tmp_path: Path) -> None:
    # Seat 1 takes the 3, the 4 and the 5 (12); seat 2 the 6, the Ace and the 2 (9).
    for path, winner in ((PENALTY, 1), (_higher(tmp_path), 0)):
        game = _game(path)
        play(game, "r1>t@1", "r3>t@2", "r2>t@1", "r4>t@2", "r5>t@1", "r6>t@2")
        assert game.is_over and game.scores() == [3 + 4 + 5, 6 + 1 + 2]
        assert game.winners() == [winner]


def test_a_tie_for_the_lowest_score_is_shared_and_three_seats_compare_alike() -> None:
    game = _game()
    play(game, "r1>t@1", "r3>t@2", "r2>t@1", "r4>t@2", "stop")  # 3 + 4 against 6 + 1
    assert game.is_over and game.scores() == [7, 7] and game.winners() == [0, 1]
    game = _game(players=3)
    play(game, "r4>t@1", "r6>t@2", "r1>t@3", "r2>t@1", "r5>t@2", "r3>t@3")  # 1 + 4, 2 + 5, 3 + 6
    assert game.is_over and game.scores() == [5, 7, 9] and game.winners() == [0]


def test_evaluation_is_higher_for_the_seat_that_stands_better() -> None:
    game = _game()
    play(game, "r3>t@1", "r4>t@2")  # seat 1 holds 6, seat 2 holds 1
    assert game.scores() == [6, 1]
    assert game.evaluation(0) == -6 and game.evaluation(1) == -1
    assert _leaders(game) == (1,)


def test_the_greedy_bot_takes_the_lowest_card_and_the_highest_without_the_order(tmp_path: Path) -> None:
    game = _game()
    assert str(GreedyBot(seed=3).choose(game)) == "r4>t@1"  # the Ace
    assert str(GreedyBot(seed=3).choose(_game(_higher(tmp_path)))) == "r3>t@1"  # the 6


def test_simulate_counts_the_lowest_score_as_the_lead_and_the_win(tmp_path: Path) -> None:
    lower = simulate_games(str(PENALTY), 40, players=2, seed=3, seats=["1=greedy", "2=random"])
    higher = simulate_games(str(_higher(tmp_path)), 40, players=2, seed=3, seats=["1=greedy", "2=random"])
    assert lower.summary["score_order"] == "lower" and higher.summary["score_order"] == "higher"
    # The greedy seat plays for its own order and wins most games either way.
    assert lower.summary["wins"][0]["share"] > 0.6 and higher.summary["wins"][0]["share"] > 0.6
    assert lower.summary["scores"][0]["mean"] < lower.summary["scores"][1]["mean"]
    assert higher.summary["scores"][0]["mean"] > higher.summary["scores"][1]["mean"]
    for record in lower.records:
        if record.winners:
            best = min(record.scores)
            assert all(record.scores[w] == best for w in record.winners)


def test_the_solver_finds_the_lowest_score_a_solitaire_can_end_with(tmp_path: Path) -> None:
    # Alone, the player must take two cards before stopping: the Ace and the 2 are best.
    for path, best in ((PENALTY, 1 + 2), (_higher(tmp_path), 21)):
        game = new_search_game(load_ruleset(str(path)), seed=1)
        result = solve_game(game, timeout=None)
        assert result.answer == OPTIMAL and result.score == best
        there = game.clone()
        for text in result.moves:
            there.apply(there.parse_move(text))
        assert there.is_over and there.scores() == [best]


def test_a_score_order_that_is_not_higher_or_lower_is_refused_at_its_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(PENALTY.read_text(encoding="utf-8").replace("score_order: lower", "score_order: lowest"),
                    encoding="utf-8")
    with pytest.raises(RulesetError) as caught:
        load_ruleset(str(path))
    assert caught.value.pos is not None and caught.value.pos.line == 25
    assert "score_order" in str(caught.value)


def test_random_games_end_with_the_lowest_scores_winning() -> None:
    rules = load_ruleset(str(PENALTY))
    rng = random.Random(5)
    for seed in range(60):
        game = rules.new_game(seed=seed, players=rng.choice([2, 3]))
        while not game.is_over:
            game.apply(rng.choice(game.legal_moves()))
        scores = game.scores()
        assert game.winners() == [p for p, s in enumerate(scores) if s == min(scores)]


def test_the_native_backend_plays_and_judges_a_lower_score_game_as_the_python_one() -> None:
    rules = load_ruleset(str(PENALTY))
    play_both_backends(rules, range(8), players=(1, 2, 3))  # the winners too
    # Lead changes and comebacks come from the compiled evaluation: the same as Python's.
    python = simulate_games(str(PENALTY), 30, players=3, seed=2)
    compiled = simulate_games(str(PENALTY), 30, players=3, seed=2, engine="native")
    assert compiled.plan.engine == "native" and compiled.summary == python.summary
