"""`teams`: partnerships. A seat's team comes from one expression (`team(seat)` in the rules), a
`per_team` variable is one value its seats share, the winners are whole teams, and the views, the
end message and `simulate` name the teams.

The fixture tests/fixtures/teams/partners.yaml: eight clubs Ace to 8 lie face up in a row; in turn
each seat takes one into its own pile and its team scores the card's rank (`points`, per team).
Seats 1 and 3 (North-South) play against seats 2 and 4 (East-West). Taking the 8 ends the game at
once, and the team of the seat after the taker wins.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from cardrules import load_ruleset
from cardrules.python import render
from cardrules.base.errors import CardrulesError, RulesetError, RulesetRuntimeError
from cardrules.workbench.simulate import simulate_games
from helpers import FIXTURES, play, play_both_backends

PARTNERS = FIXTURES / "teams" / "partners.yaml"
# The row's cards, left to right: r1..r8 (the deal of seed 1).
ROW = ["4C", "7C", "2C", "6C", "8C", "AC", "5C", "3C"]


def _game(players: int = 4):  # type: ignore[no-untyped-def]
    game = load_ruleset(str(PARTNERS)).new_game(seed=1, players=players)
    assert [game.view(0)["zones"]["row"][i][0] for i in range(8)] == ROW
    return game


def _with(tmp_path: Path, old: str, new: str) -> Path:
    text = PARTNERS.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "partners-changed.yaml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def test_each_seats_team_comes_from_the_of_expression_for_every_number_of_players() -> None:
    rules = load_ruleset(str(PARTNERS))
    assert rules.teams(4) == [("North-South", (0, 2)), ("East-West", (1, 3))]
    assert rules.teams(3) == [("North-South", (0, 2)), ("East-West", (1,))]
    assert rules.teams(2) == [("North-South", (0,)), ("East-West", (1,))]


def test_a_per_team_variable_changed_by_one_seat_changes_for_its_whole_team_only() -> None:
    game = _game()
    play(game, "r1>t@1")  # seat 1 takes the 4
    assert [game.variable("points", s) for s in range(4)] == [4, 0, 4, 0]
    assert [game.variable("took", s) for s in range(4)] == [1, 0, 0, 0]  # per player: its own
    play(game, "r2>t@2", "r3>t@3")  # the 7 to East-West, the 2 to North-South
    assert [game.variable("points", s) for s in range(4)] == [6, 7, 6, 7]
    game.undo()
    assert [game.variable("points", s) for s in range(4)] == [4, 7, 4, 7]


def test_a_loop_over_one_seat_of_each_team_gives_each_team_once() -> None:
    game = _game()
    play(game, "r1>t@1", "r2>t@2", "r3>t@3")
    assert game.view(0)["variables"]["bonus"] == [0, 0, 0, 0]
    play(game, "r5>t@4")  # the 8: the game ends
    assert game.view(0)["variables"]["bonus"] == [1, 2, 1, 2]


def test_a_per_team_initial_value_is_its_first_seats() -> None:
    game = _game()
    assert game.view(0)["variables"]["start"] == [0, 10, 0, 10]  # 10 * player, for seats 1 and 2


def test_team_in_an_expression_is_the_teams_of_expression() -> None:
    # The heuristic: the seat's team's points less the best other team's.
    game = _game(players=3)
    play(game, "r2>t@1", "r4>t@2")  # 7 to North-South (seats 1 and 3), 6 to East-West (seat 2)
    assert [game.evaluation(s) for s in range(3)] == [1, -1, 1]


def test_the_seat_an_end_condition_names_wins_with_its_whole_team() -> None:
    game = _game()
    play(game, "r1>t@1", "r5>t@2")  # seat 2 takes the 8: the seat after it, seat 3, wins
    assert game.is_over and game.outcome == "won" and game.winners() == [0, 2]
    three = _game(players=3)
    play(three, "r1>t@1", "r2>t@2", "r5>t@3")  # seat 3 takes the 8: seat 1 wins, and seat 3 with it
    assert three.winners() == [0, 2]


def test_winners_by_score_are_the_best_team() -> None:
    game = _game()
    # Nobody takes the 8 until last: North-South 4 + 2 + 1 + 8, East-West 7 + 6 + 5 + 3.
    play(game, "r1>t@1", "r2>t@2", "r3>t@3", "r4>t@4", "r6>t@1", "r7>t@2")
    assert not game.is_over
    play(game, "r8>t@3", "r5>t@4")  # the 8 ends it: won, the team of the seat after seat 4 (seat 1)
    assert game.winners() == [0, 2]
    over = _game()
    # Without the 8 (it stays last, and the row is not empty) the game goes on, so end it by score:
    play(over, "r1>t@1", "r2>t@2", "r3>t@3", "r4>t@4", "r6>t@1", "r7>t@2", "r8>t@3")
    over.state.end("over", "for the test")
    assert over.scores() == [10, 18, 10, 18] and over.winners() == [1, 3]


def test_seats_of_one_team_scoring_apart_is_an_error_at_the_score(tmp_path: Path) -> None:
    path = _with(tmp_path, "score: points", 'score: "sum(c.rank for c in cards(taken))"')
    game = load_ruleset(str(path)).new_game(seed=1)
    play(game, "r1>t@1", "r2>t@2", "r3>t@3", "r4>t@4")
    game.state.end("over", "for the test")
    with pytest.raises(RulesetRuntimeError, match=r"North-South's differ \(seat 1 4, seat 3 2\)") as caught:
        game.winners()
    assert caught.value.pos is not None and caught.value.pos.line == 39
    # Adding the team's seats up is the way out the message gives.
    path = _with(tmp_path, "score: points",
                 'score: "sum(size(of(taken, s)) for s in seats if team(s) == team(player))"')
    game = load_ruleset(str(path)).new_game(seed=1)
    play(game, "r1>t@1", "r2>t@2", "r3>t@3")
    game.state.end("over", "for the test")
    assert game.scores() == [2, 1, 2, 1] and game.winners() == [0, 2]


@pytest.mark.parametrize(("old", "new", "line", "message"), [
    ("  points: {initial: 0, per_team: true, label: Points}",
     "  points: {initial: 0, per_team: true, per_player: true}", 13, "per_player or per_team, not both"),
    ('  of: "player % 2"', '  of: "player * 2"', 10, r"teams are \[0, 2\]: each team is numbered from 0 up"),
    ('  of: "player % 2"', '  of: "eight_by"', 10, r"unknown name 'eight_by' \(known here: player, players\)"),
    ('  of: "player % 2"', '  of: "player % 3"', 11, "with 3 players there are 3 teams, and 2 names"),
    ('  of: "player % 2"', '  of: "player / (players - 2)"', 10, "division by zero"),
    ("heuristic:", 'functions:\n  "team(s)": "s"\nheuristic:', 42, "given by teams.of"),
])
def test_a_wrong_teams_declaration_is_refused_at_its_line(tmp_path: Path, old: str, new: str, line: int,
                                                           message: str) -> None:
    with pytest.raises(CardrulesError, match=message) as caught:  # at load: a RulesetError or, running, its runtime kin
        load_ruleset(str(_with(tmp_path, old, new)))
    assert caught.value.pos is not None and caught.value.pos.line == line


def test_a_per_team_variable_without_teams_is_refused(tmp_path: Path) -> None:
    text = PARTNERS.read_text(encoding="utf-8")
    path = tmp_path / "no-teams.yaml"
    path.write_text(text.replace('teams:\n  of: "player % 2"\n  names: [North-South, East-West]\n', "")
                    .replace("heuristic:", "#"), encoding="utf-8")
    with pytest.raises(RulesetError, match="needs teams") as caught:
        load_ruleset(str(path))
    assert caught.value.pos is not None and caught.value.pos.line == 10


def test_the_status_line_shows_a_per_team_value_by_team_and_the_end_names_the_winning_team() -> None:
    game = _game()
    play(game, "r1>t@1", "r2>t@2")
    assert "Points: North-South 4 / East-West 7" in render.status_line(game, 0).plain
    play(game, "r5>t@3")  # the 8: seat 4's team, East-West, wins
    assert "East-West (seats 2 and 4) win with 7" in render.outcome_text(game).plain
    two = _game(players=2)
    play(two, "r5>t@1")
    assert "East-West (seat 2) wins with 0" in render.outcome_text(two).plain


def test_without_teams_the_end_names_the_winning_seats() -> None:
    game = load_ruleset(str(FIXTURES / "scoring" / "penalty.yaml")).new_game(seed=1, players=3)
    play(game, "r4>t@1", "r6>t@2", "r1>t@3", "r2>t@1", "r5>t@2", "r3>t@3")  # 5, 7, 9: the lowest wins
    assert "seat 1 wins with 5" in render.outcome_text(game).plain


def test_random_games_share_every_team_value_and_win_as_teams() -> None:
    rules = load_ruleset(str(PARTNERS))
    rng = random.Random(11)
    for seed in range(150):
        players = rng.choice([2, 3, 4])
        game = rules.new_game(seed=seed, players=players)
        teams = rules.teams(players)
        while not game.is_over:
            game.apply(rng.choice(game.legal_moves()))
            for _, seats in teams:
                assert len({game.variable("points", s) for s in seats}) == 1
        winners = game.winners()
        assert winners and any(set(winners) == set(seats) for _, seats in teams)
        # Each team's points are the ranks its seats took: counted once, however many seats it has.
        taken = game.view(0)["zones"]["taken"]
        for _, seats in teams:
            assert game.variable("points", seats[0]) == sum(
                int(c[:-1].replace("A", "1")) for s in seats for c in taken[s])


def test_simulate_gives_each_team_its_share_of_the_wins() -> None:
    run = simulate_games(str(PARTNERS), 60, players=4, seed=2)
    teams = run.summary["teams"]
    assert [(t["team"], t["seats"]) for t in teams] == [("North-South", [1, 3]), ("East-West", [2, 4])]
    won = [sum(1 for r in run.records if set(r.winners or ()) == {s - 1 for s in t["seats"]}) for t in teams]
    assert [t["wins"] for t in teams] == won and sum(won) == 60
    assert json.loads(json.dumps(run.summary))["teams"][0]["share"] == won[0] / 60
    # Without teams there are none to show.
    assert simulate_games(str(FIXTURES / "scoring" / "penalty.yaml"), 5, players=2).summary["teams"] == []


def test_the_native_backend_shares_team_values_and_names_the_same_winners() -> None:
    rules = load_ruleset(str(PARTNERS))
    play_both_backends(rules, range(8), players=(2, 3, 4))  # the variables and the winners too
