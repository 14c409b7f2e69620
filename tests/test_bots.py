"""The bots: every kind plays every bundled ruleset to the end, decides from its seat's view
only, takes its parameters by name, and the search bots beat random play where it matters."""

from __future__ import annotations

import random

import pytest

from cardrules import load_ruleset
from cardrules.agents.bots import BOT_KINDS, BotParameterError, bot_params, make_bot
from cardrules.agents.mcts import MctsBot
from cardrules.base.resources import rulesets_dir
from cardrules.agents.scheduler import simulate
from cardrules.native import native_backend
from conftest import ROOT
from helpers import TEN_BUCKS_RULESETS

BUNDLED = sorted(p.stem for p in rulesets_dir().glob("*.yaml"))
SMALL = {"random": {}, "greedy": {}, "montecarlo": {"budget": 6, "depth": 15},
         "ismcts": {"iterations": 8, "depth": 15}, "mcts": {"playouts": 8, "depth": 15}}


@pytest.mark.parametrize("kind", sorted(BOT_KINDS))
@pytest.mark.parametrize("name", BUNDLED)
def test_every_bot_plays_every_bundled_ruleset_to_the_end(kind: str, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if kind == "mcts":  # its Python search here; its compiled trials in tests/test_mcts.py
        monkeypatch.setattr(MctsBot, "_backend", lambda self, game: None)
    rules = load_ruleset(name)
    players = max(rules.min_players, min(rules.max_players, 3))
    game = rules.new_game(seed=5, players=players, max_moves=40)
    bots = {seat: make_bot(kind, 100 + seat, **SMALL[kind]) for seat in range(players)}
    if rules.simultaneous:
        simulate(game, bots, seed=5)
    else:
        while not game.is_over:
            game.apply(bots[game.current_player].choose(game))
    assert game.is_over and game.outcome in ("won", "lost", "over", "draw", "limit")


@pytest.mark.parametrize("kind", ["montecarlo", "ismcts", "mcts"])
@pytest.mark.parametrize("name", TEN_BUCKS_RULESETS[:2] + ["klondike"])
def test_search_bots_decide_the_same_when_only_hidden_cards_differ(kind: str, name: str) -> None:
    rules = load_ruleset(name)
    players = 1 if rules.max_players == 1 else 4
    checked = 0
    for seed in range(3):
        game = rules.new_game(seed=seed, players=players)
        walker = random.Random(seed)
        for _ in range(6):
            if game.is_over:
                break
            seat = game.current_player
            other = game.determinize(seat, random.Random(1000 + seed))  # the same view, other hidden cards
            assert other.view(seat) == game.view(seat)
            first = make_bot(kind, 7, **SMALL[kind]).choose(game)
            second = make_bot(kind, 7, **SMALL[kind]).choose(other)
            assert first == second
            checked += 1
            game.apply(walker.choice(game.legal_moves()))
    assert checked >= 10


def test_bot_parameters_are_checked_by_name_and_type() -> None:
    assert bot_params("ismcts", {"iterations": "50", "exploration": "1.5"}) == {"iterations": 50, "exploration": 1.5}
    with pytest.raises(BotParameterError, match="bot 'ismcts' has no parameter 'iters'"):
        bot_params("ismcts", {"iters": "5"})
    with pytest.raises(BotParameterError, match="montecarlo: budget must be a whole number, not 'many'"):
        bot_params("montecarlo", {"budget": "many"})
    with pytest.raises(BotParameterError, match="montecarlo: budget must be above 0"):
        bot_params("montecarlo", {"budget": "0"})
    with pytest.raises(BotParameterError, match="no bot 'genius'"):
        bot_params("genius", {})


@pytest.mark.parametrize("kind,params", [("montecarlo", {"budget": 60}), ("ismcts", {"iterations": 80})])
def test_search_bots_beat_random_bots_at_ten_bucks(kind: str, params: dict[str, int]) -> None:
    rules = load_ruleset("ten-bucks")
    wins = 0.0
    games = 12
    for seed in range(games):
        game = rules.new_game(seed=seed, players=4)
        bots = {0: make_bot(kind, seed, **params)}
        bots.update({seat: make_bot("random", 10 * seed + seat) for seat in (1, 2, 3)})
        while not game.is_over:
            game.apply(bots[game.current_player].choose(game))
        winners = game.winners() or []
        wins += 1 / len(winners) if 0 in winners else 0
    assert wins / games > 0.4  # a fair share would be 0.25


def test_greedy_reads_the_rulesets_heuristic(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # Klondike with a heuristic that prizes cards left in the stock: greedy then never draws.
    path = tmp_path / "v.yaml"
    path.write_text("ruleset: v\nextends: klondike\nheuristic: \"size(stock) * 100 - size(waste)\"\n")
    game = load_ruleset(path).new_game(seed=3)
    assert game.evaluation(0) == 24 * 100
    move = make_bot("greedy", 1).choose(game)
    assert move.name != "draw"


def test_greedy_never_goes_back_to_a_position_while_another_move_leads_elsewhere() -> None:
    # tests/fixtures/bots/shuttle.yaml: moving the card to and fro costs nothing, a draw a point;
    # counting points alone, greedy would shuttle to the move limit (200)
    rules = load_ruleset(ROOT / "tests" / "fixtures" / "bots" / "shuttle.yaml")
    backend = native_backend(rules)
    for seed in range(3):
        game = rules.new_game(seed=seed)
        bot = make_bot("greedy", seed)
        while not game.is_over:
            game.apply(bot.choose(game))
        texts = [str(move) for move in game.history]
        assert game.outcome == "won" and texts == ["there", "draw", "back", "draw"] * 3 + ["there", "draw"]
        position = backend.start(rules.new_game(seed=seed))  # compiled playouts choose alike
        backend.playout(position, seed, "greedy")
        assert (position.outcome, position.moves) == ("won", 14)
