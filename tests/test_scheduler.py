"""Simultaneous play on a small test game (tests/fixtures/race.yaml): every seat's moves at any
moment, a move refused once another seat's move has made it illegal, the scheduler's clock,
reproducibility, and the language pieces that came with it (`place: bottom`, `deal` reading
`dst`, `on_start`, per-seat persisted values)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardrules import IllegalMoveError, RulesetError, load_ruleset
from cardrules.agents.bots import make_bot
from cardrules.agents.scheduler import Scheduler, simulate
from conftest import ROOT
from helpers import pile, variant_of

RACE = ROOT / "tests" / "fixtures" / "race.yaml"
# Rows are dealt four rounds, seat 1 the clubs, seat 2 the spades: the Aces come last, on top.
ACES_ON_TOP = "4C 4S 3C 3S 2C 2S AC AS " + " ".join(f"{r}{s}" for r in "56789TJQK" for s in "CS")


def race(deal: str = ACES_ON_TOP):  # type: ignore[no-untyped-def]
    return load_ruleset(RACE).new_game(deal=deal, players=2)


def test_every_seat_has_its_own_moves_at_any_moment() -> None:
    game = race()
    assert {str(m) for m in game.legal_moves(0)} == {"r@1>p", "shuffle@1"}
    assert {str(m) for m in game.legal_moves(1)} == {"r@2>p", "shuffle@2"}
    assert game.view(1)["legal_moves"] == [str(m) for m in game.legal_moves(1)]


def test_the_first_card_to_a_pile_stays_and_the_other_is_refused_where_it_lies() -> None:
    game = race()
    first, second = game.parse_move("r@2>p", 1), game.parse_move("r@1>p", 0)
    game.apply(first)
    assert pile(game, "pile") == ["AS"]
    with pytest.raises(IllegalMoveError):
        game.apply(second)  # an Ace no longer fits: the card stays on seat 1's row
    assert pile(game, "row", 0) == ["4C", "3C", "2C", "AC"]
    assert game.variable("played", 0) == 0 and game.variable("played", 1) == 1


def test_a_move_is_made_by_its_own_seat() -> None:
    game = race()
    game.apply(game.parse_move("shuffle", 0))  # a named move may leave out its seat
    assert pile(game, "row", 0) == ["AC", "4C", "3C", "2C"]  # place: bottom
    assert [str(m) for m in game.history] == ["shuffle@1"]
    assert game.current_player == 0
    game.apply(game.parse_move("shuffle@2", 1))
    assert game.current_player == 1 and pile(game, "row", 1) == ["AS", "4S", "3S", "2S"]
    game.undo()
    assert game.current_player == 0 and pile(game, "row", 1) == ["4S", "3S", "2S", "AS"]


def test_focus_chooses_the_seat_that_legal_moves_mean() -> None:
    game = race()
    game.focus(1)
    assert game.current_player == 1
    assert {str(m) for m in game.legal_moves()} == {"r@2>p", "shuffle@2"}
    with pytest.raises(IllegalMoveError, match="there is no seat 3"):
        game.focus(2)


def test_a_turn_based_game_offers_no_moves_to_a_seat_not_to_act() -> None:
    game = load_ruleset(ROOT / "tests" / "fixtures" / "phases.yaml").new_game(seed=1)
    assert game.legal_moves(1) == [] and game.legal_moves(0)


def test_the_faster_seat_lands_first_and_the_slower_is_refused() -> None:
    for fast in (0, 1):
        game = race()
        agents = {seat: make_bot("greedy", seat) for seat in (0, 1)}
        scheduler = Scheduler(game, agents, seed=3, speeds={fast: 1.5, 1 - fast: 1.0}, jitter=0.1)
        scheduler.run()
        first = scheduler.records[0]
        assert first.seat == fast and first.landed and first.move == f"r@{fast + 1}>p"
        refused = [r for r in scheduler.records if not r.landed]
        assert refused and refused[0].seat == 1 - fast and refused[0].move == f"r@{2 - fast}>p"
        assert scheduler.refused == len(refused)
        # The faster seat goes on with its 2, 3 and 4; the slower one's Ace never fits again.
        assert game.is_over and game.winners() == [fast]


def test_a_simulated_game_is_the_same_for_the_same_seeds_and_speeds() -> None:
    def run(seed: int, speed: float) -> list[tuple[float, int, str, bool]]:
        game = load_ruleset(RACE).new_game(seed=seed, players=3)
        agents = {seat: make_bot("random", 10 * seed + seat) for seat in range(3)}
        scheduler = simulate(game, agents, seed=seed, speeds={0: speed})
        assert game.is_over
        return [(r.time, r.seat, r.move, r.landed) for r in scheduler.records]

    assert run(5, 1.5) == run(5, 1.5)
    assert run(5, 1.5) != run(5, 3.0)
    assert run(5, 1.5) != run(6, 1.5)


def test_clock_times_follow_the_speeds() -> None:
    game = race()
    scheduler = Scheduler(game, {0: make_bot("random", 1)}, seed=1, speeds={0: 2.0}, jitter=0.0)
    scheduler.run(until=3.2)
    assert [r.time for r in scheduler.records] == [0.5, 1.0, 1.5, 2.0, 2.5, 3.0][:len(scheduler.records)]
    assert scheduler.now == 3.2
    record = scheduler.human_move(1, game.parse_move("shuffle", 1), 3.5)
    assert record.landed and record.time == 3.5 and record.seat == 1


def test_a_scheduler_needs_a_simultaneous_game_and_positive_speeds() -> None:
    turn_based = load_ruleset(ROOT / "tests" / "fixtures" / "phases.yaml").new_game(seed=1)
    with pytest.raises(ValueError, match="simultaneous games only"):
        Scheduler(turn_based, {})
    with pytest.raises(ValueError, match="seat 1: a speed is a number of actions per second above 0"):
        Scheduler(race(), {0: make_bot("random", 1)}, speeds={0: 0.0})


def test_a_simultaneous_game_has_no_phases(tmp_path: Path) -> None:
    path = variant_of(tmp_path, RACE, "ruleset: v\nturns:\n  order: simultaneous\n  phases: [a, b]\n")
    with pytest.raises(RulesetError, match="a simultaneous game has no turns to divide into phases"):
        load_ruleset(path)


def test_deal_where_reads_the_pile_dealt_to() -> None:
    game = load_ruleset(RACE).new_game(seed=9, players=3)
    suits = ["C", "S", "H"]
    for seat in range(3):
        assert {code[-1] for code in pile(game, "row", seat)} == {suits[seat]}


def test_on_start_runs_after_setup(tmp_path: Path) -> None:
    path = variant_of(tmp_path, RACE, "ruleset: v\non_start:\n  - move: {from: row, to: spare, count: 1}\n")
    game = load_ruleset(path).new_game(deal=ACES_ON_TOP, players=2)
    assert pile(game, "spare", 0) == ["AC"] and pile(game, "row", 0) == ["4C", "3C", "2C"]
    assert game.history == [] and game.state.journal == []


def test_a_per_seat_persisted_value_is_saved_and_read_by_seat() -> None:
    game = race()
    game.apply(game.parse_move("r@2>p", 1))
    assert game.persistent_values() == {"played": [0, 1]}
    again = load_ruleset(RACE).new_game(deal=ACES_ON_TOP, players=2, persisted={"played": [4, 7]})
    assert [again.variable("played", p) for p in (0, 1)] == [4, 7]
    three = load_ruleset(RACE).new_game(seed=1, players=3, persisted={"played": [4, 7]})
    assert [three.variable("played", p) for p in (0, 1, 2)] == [4, 7, 0]  # a seat not saved starts anew


def test_visibility_top_shows_only_the_top_card_of_a_squared_pile(tmp_path: Path) -> None:
    path = variant_of(tmp_path, RACE, "ruleset: v\nzones:\n  pile: {visibility: top}\n")
    game = load_ruleset(path).new_game(deal=ACES_ON_TOP, players=2)
    game.apply(game.parse_move("r@1>p", 0))
    game.apply(game.parse_move("r@1>p", 0))
    assert pile(game, "pile") == ["AC", "2C"]
    assert game.view(1)["zones"]["pile"] == [None, "2C"]
    assert game.view(0)["zones"]["pile"] == [None, "2C"]
