"""`mcts`, the search bot with compiled trials (agents/mcts.py): it chooses only moves the game
offers, the same ones for a seed, from its seat's view alone; it beats random and greedy seats at
Ten Bucks; a playout cut short is judged by the seats' evaluations; where the native backend cannot
play, or compiled code stops, the Python search decides."""

from __future__ import annotations

from typing import Any

import pytest

from cardrules import load_ruleset
from cardrules.agents import mcts
from cardrules.agents.bots import make_bot, seat_seed
from cardrules.native import NativeStop



def _play(name: str, kinds: list[str], seed: int, max_moves: int | None = None, **params: Any) -> tuple[Any, list[str]]:
    """Game `seed` of `name` with a bot of kinds[s] at seat s (mcts with `params`), every choice
    checked against the game's legal moves; returns the game and its moves' texts."""
    rules = load_ruleset(name)
    game = rules.new_game(seed=seed, players=len(kinds), max_moves=max_moves)
    bots = [make_bot(kind, seat_seed(seed, s), **(params if kind == "mcts" else {})) for s, kind in enumerate(kinds)]
    texts = []
    while not game.is_over:
        move = bots[game.current_player].choose(game)
        assert move in game.legal_moves()
        texts.append(str(move))
        game.apply(move)
    return game, texts


def _wins(name: str, kinds: list[str], seat: int, games: int, **params: Any) -> float:
    """Seat `seat`'s wins over `games` games (a shared win counted as its share)."""
    total = 0.0
    for seed in range(games):
        game, _ = _play(name, kinds, 500 + seed, **params)
        winners = game.winners() or []
        total += 1 / len(winners) if seat in winners else 0.0
    return total


def test_mcts_chooses_only_offered_moves_and_the_same_ones_for_a_seed() -> None:
    first = _play("ten-bucks", ["mcts", "mcts", "mcts"], 3, playouts=30)[1]
    again = _play("ten-bucks", ["mcts", "mcts", "mcts"], 3, playouts=30)[1]
    other = _play("ten-bucks", ["mcts", "mcts", "mcts"], 4, playouts=30)[1]
    assert first == again and first != other and len(first) > 20


def test_mcts_beats_random_and_greedy_seats_at_ten_bucks() -> None:
    # 3 seats: a fair share is a third of the games. Against random seats at least 1.5 times it,
    # against greedy seats more than it (12 games each, fixed seeds).
    assert _wins("ten-bucks", ["mcts", "random", "random"], 0, 12, playouts=100) >= 1.5 * 12 / 3 + 1
    assert _wins("ten-bucks", ["greedy", "mcts", "greedy"], 1, 12, playouts=100) > 12 / 3 + 1


def test_a_playout_cut_short_is_judged_by_the_seats_evaluations(monkeypatch: pytest.MonkeyPatch) -> None:
    # depth 1: playouts stop after one move, and the seats whose evaluation leads are credited;
    # the bot still plays only offered moves, to the end of the game
    from cardrules.native import NativeGame

    judged: list[int] = []
    real = NativeGame.leaders

    def leaders(self: Any) -> int:
        judged.append(self.moves)
        return real(self)

    monkeypatch.setattr(NativeGame, "leaders", leaders)
    game, texts = _play("ten-bucks", ["mcts", "random"], 8, depth=1, playouts=20)
    assert game.is_over and game.winners() and texts
    assert len(judged) >= 20 * 5
    judged.clear()
    _play("ten-bucks", ["mcts", "random"], 8, depth=5000, playouts=20)  # playouts to the end: none judged so
    assert judged == []
    # one seat: Klondike, cut at 10 moves, each playout valued by its score between the lowest and highest seen
    game, texts = _play("klondike", ["mcts"], 2, max_moves=40, depth=10, playouts=20)
    assert game.is_over and len(texts) == 40


def test_where_native_cannot_play_or_stops_the_python_search_decides(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = load_ruleset("ten-bucks")
    game = rules.new_game(seed=11, players=3)
    calls: list[str] = []
    real_python = mcts.IsmctsBot.choose

    def python_choose(self: Any, game: Any) -> Any:
        calls.append("python")
        return real_python(self, game)

    monkeypatch.setattr(mcts.IsmctsBot, "choose", python_choose)

    def stops(self: Any, *args: Any) -> Any:
        calls.append("native")
        raise NativeStop("compiled code stopped: too many legal moves")

    monkeypatch.setattr(mcts.MctsBot, "_native_search", stops)
    bot = make_bot("mcts", 1, playouts=10)
    while len(game.legal_moves()) < 2:
        game.apply(game.legal_moves()[0])
    assert bot.choose(game) in game.legal_moves() and calls == ["native", "python"]
    # no native backend at all (Numba missing): the Python search alone, asked once per ruleset
    monkeypatch.setattr("cardrules.native.native_available", lambda: False)
    calls.clear()
    bot = make_bot("mcts", 1, playouts=10)
    assert bot.choose(game) in game.legal_moves() and bot.choose(game) in game.legal_moves()
    assert calls == ["python", "python"]


def test_a_seconds_bound_stops_the_search_early(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = load_ruleset("ten-bucks")
    game = rules.new_game(seed=2, players=3)
    while len(game.legal_moves()) < 2:
        game.apply(game.legal_moves()[0])
    trials: list[int] = []
    real = mcts.TreeNode.__init__

    def counted(self: Any, *args: Any, **kwargs: Any) -> None:
        trials.append(1)
        real(self, *args, **kwargs)

    counted_node = type("Counted", (mcts.TreeNode,), {"__init__": counted})
    monkeypatch.setattr(mcts, "TreeNode", counted_node)  # the root
    monkeypatch.setattr("cardrules.agents.search.TreeNode", counted_node)  # a node per trial
    clock = iter(range(0, 1000, 10))  # ten seconds pass between looks at the clock
    monkeypatch.setattr(mcts.time, "process_time", lambda: float(next(clock)))
    make_bot("mcts", 1, playouts=500, seconds=25).choose(game)
    assert len(trials) == 1 + 3  # the root, then a node per trial: 3 trials before 25 seconds had passed
