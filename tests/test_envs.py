"""cardrules.envs: every bundled ruleset passes Gymnasium's and PettingZoo's own checkers (with
their warnings as errors), and the environments keep the game's rules: masks, rewards from the
score, illegal actions, truncation, the seat asked to move, races in simultaneous play."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import random
import re
import warnings
from pathlib import Path

import gymnasium
import numpy as np
import pytest
from cardrules import load_ruleset
from cardrules.envs import (
    MAX_FIXED_ACTIONS,
    CardrulesAEC,
    CardrulesEnv,
    one_seat_rulesets,
    parallel_env,
    pettingzoo_env,
)
from cardrules.base.errors import ArgumentError, SetupError
from cardrules.base.resources import rulesets_dir
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, parallel_api_test

ROOT = Path(__file__).resolve().parent.parent
BUNDLED = sorted(p.stem for p in rulesets_dir().glob("*.yaml"))


@contextlib.contextmanager
def strict():
    """The checkers' warnings raised as errors, their progress lines swallowed."""
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("error")
        yield


def test_every_bundled_one_seat_ruleset_is_registered_and_only_those():
    expected = [name for name in BUNDLED if load_ruleset(name).min_players == 1]
    assert sorted(one_seat_rulesets()) == expected
    assert "klondike" in expected and "ten-bucks" not in expected
    for name in expected:
        assert f"cardrules/{name}-v0" in gymnasium.registry


@pytest.mark.parametrize("name", sorted(one_seat_rulesets()))
def test_gymnasium_check_env_passes(name):
    env = gymnasium.make(f"cardrules/{name}-v0")
    with strict():
        check_env(env.unwrapped)


@pytest.mark.parametrize("name", [*BUNDLED, "examples/snap.yaml"])
def test_pettingzoo_api_test_passes(name):
    ruleset = ROOT / name if name.endswith(".yaml") else name
    with strict():
        api_test(pettingzoo_env(ruleset), num_cycles=60)
        if load_ruleset(ruleset).simultaneous:
            parallel_api_test(parallel_env(ruleset), num_cycles=60)


def test_make_takes_the_rulesets_options_and_any_ruleset_file():
    env = gymnasium.make("cardrules/klondike-v0", options={"draw": 3})
    env.reset(seed=1)
    assert env.unwrapped.game.rules.option_values["draw"] == 3
    env = gymnasium.make("cardrules/ruleset-v0", ruleset=str(ROOT / "tests/fixtures/mini.yaml"))
    observation, _info = env.reset(seed=1)
    assert observation.shape == env.observation_space.shape


def masked_choice(rng: random.Random, mask: np.ndarray) -> int:
    return rng.choice(np.flatnonzero(mask).tolist())


def test_the_rewards_add_up_to_the_change_of_score_and_the_game_ends_terminated():
    env = CardrulesEnv("klondike")
    for seed in range(3):
        _, info = env.reset(seed=seed)
        first = env.game.scores()[0]
        total, rng = 0.0, random.Random(seed)
        terminated = truncated = False
        while not (terminated or truncated):
            _observation, reward, terminated, truncated, info = env.step(masked_choice(rng, info["action_mask"]))
            total += reward
            assert info["action_mask"].tolist() == [int(a in env.game.legal_actions())
                                                    for a in range(env.action_space.n)]
        assert total == env.game.scores()[0] - first
        assert terminated == (env.game.outcome != "limit") and env.game.is_over


def test_score_order_lower_turns_the_rewards_round():
    env = pettingzoo_env(ROOT / "tests/fixtures/scoring/penalty.yaml")  # score_order: lower
    assert env.unwrapped.seats.rules.score_sign == -1
    env.reset(seed=3)
    game = env.unwrapped.game
    rng = random.Random(3)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    first = game.scores()
    for agent in env.agent_iter(2000):
        _observation, reward, terminated, truncated, info = env.last()
        totals[agent] += reward
        env.step(None if terminated or truncated else masked_choice(rng, info["action_mask"]))
    for seat, agent in enumerate(env.possible_agents):
        assert totals[agent] == -(game.scores()[seat] - first[seat])


def test_an_illegal_action_changes_nothing_and_costs_the_penalty():
    env = CardrulesEnv("klondike", illegal_reward=-2.5)
    observation, info = env.reset(seed=4)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    before = env.game.observation_tensor()
    after, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal"]) == (-2.5, False, False, True)
    assert env.game.observation_tensor() == before and not env.game.history
    assert np.array_equal(after, observation)
    with pytest.raises(ArgumentError, match="an action is an int"):
        env.step("draw")
    with pytest.raises(ArgumentError, match="there is no action"):
        env.step(env.action_space.n)


def test_a_seed_in_the_reset_options_deals_that_game():
    env = CardrulesEnv("klondike")
    observation, _info = env.reset(options={"seed": 17})
    game = load_ruleset("klondike").new_game(seed=17)
    assert observation.tolist() == np.array(game.observation_tensor(), dtype=np.float32).tolist()
    again, _ = env.reset(seed=99, options={"seed": 17})
    assert np.array_equal(again, observation)


def test_max_steps_truncates_the_episode():
    env = CardrulesEnv("klondike", max_steps=5)
    _, info = env.reset(seed=1)
    rng = random.Random(1)
    for step in range(5):
        _observation, _reward, terminated, truncated, info = env.step(masked_choice(rng, info["action_mask"]))
        assert truncated == (step == 4) and not terminated


def test_win_rewards_go_to_the_winners_at_the_end_only():
    for seed in range(3):
        env = pettingzoo_env("ten-bucks", players=3, reward="win")
        env.reset(seed=seed)
        game = env.unwrapped.game
        rng = random.Random(seed)
        paid = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter(5000):
            _observation, reward, terminated, truncated, info = env.last()
            if reward:
                assert game.is_over
            paid[agent] += reward
            env.step(None if terminated or truncated else masked_choice(rng, info["action_mask"]))
        assert game.is_over
        assert [seat for seat, agent in enumerate(env.possible_agents) if paid[agent] == 1] == game.winners()


@pytest.mark.parametrize("ruleset, players", [("ten-bucks", 4), ("examples/snap.yaml", 3), ("spades", 4)])
def test_the_agent_selected_is_the_seat_the_game_asks_and_only_it_has_moves(ruleset, players):
    path = ROOT / ruleset if ruleset.endswith(".yaml") else ruleset
    env = pettingzoo_env(path, players=players)
    seen_other = False
    for seed in range(3):
        env.reset(seed=seed)
        game = env.unwrapped.game
        rng = random.Random(seed)
        for agent in env.agent_iter(400):
            observation, _reward, terminated, truncated, info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            seat = env.possible_agents.index(agent)
            assert seat == game.current_player
            seen_other |= getattr(game, "turn_player", seat) != seat
            assert np.flatnonzero(info["action_mask"]).tolist() == sorted(game.legal_actions())
            for other, name in enumerate(env.possible_agents):
                if other != seat and name in env.infos:
                    assert not env.infos[name]["action_mask"].any()
            assert np.array_equal(observation, np.array(game.observation_tensor(seat), dtype=np.float32))
            env.step(masked_choice(rng, info["action_mask"]))
    if ruleset.endswith("snap.yaml"):
        assert seen_other  # seats were asked to snap out of turn


def race(game):
    """Two seats' moves to the same pile, one for each seat, if the position offers them."""
    by_place = {}
    for seat in range(game.players):
        for move in game.legal_moves(seat):
            if move.name == "to_foundation":
                by_place.setdefault(move.dst, {}).setdefault(seat, move)
    return next((seats for seats in by_place.values() if len(seats) == 2), None)


def test_a_simultaneous_game_refuses_a_move_another_seat_took_first_and_lets_a_seat_wait():
    env = parallel_env("nerts", players=2)
    raced = 0
    for seed in range(6):
        _, infos = env.reset(seed=seed)
        game = env.game
        rng = random.Random(seed)
        for _ in range(400):
            if not env.agents:
                break
            pair = race(game)
            if pair:
                actions = {f"player_{seat}": game.action(move) for seat, move in pair.items()}
            else:
                actions = {agent: masked_choice(rng, infos[agent]["action_mask"]) for agent in env.agents}
            before = len(game.history)
            _, _, _, _, infos = env.step(actions)
            waited = sum(action == env.wait for action in actions.values())
            turned = [agent for agent in infos if infos[agent]["refused"]]
            assert not any(info["illegal"] for info in infos.values())
            assert len(game.history) - before == len(actions) - waited - len(turned)
            if pair:
                raced += 1
                assert len(turned) == 1 and len(game.history) - before == 1
    assert raced  # seats did race for a place
    _observations, infos = env.reset(seed=0)
    before = env.game.observation_tensor(0)
    env.step({agent: env.wait for agent in env.agents})
    assert env.game.observation_tensor(0) == before


def test_environments_refuse_what_they_cannot_play():
    with pytest.raises(ArgumentError, match="pettingzoo_env"):
        CardrulesEnv("ten-bucks")
    with pytest.raises(ArgumentError, match="parallel_env"):
        CardrulesAEC("nerts")
    with pytest.raises(ArgumentError, match="played in turns"):
        parallel_env("spades")
    with pytest.raises(ArgumentError, match="actions='listed'"):
        CardrulesEnv("dollartaire", actions="fixed")
    with pytest.raises(ArgumentError, match="reward is one of"):
        CardrulesEnv("klondike", reward="money")
    with pytest.raises(ArgumentError, match="max_steps"):
        CardrulesEnv("klondike", max_steps=0)
    for bad in ("-1", float("nan"), True):
        with pytest.raises(ArgumentError, match="illegal_reward is a finite number"):
            CardrulesEnv("klondike", illegal_reward=bad)
    with pytest.raises(SetupError, match="for 2-6 players, not 9"):
        pettingzoo_env("ten-bucks", players=9)


def test_listed_actions_pick_the_legal_moves_in_order():
    assert load_ruleset("dollartaire").num_actions > MAX_FIXED_ACTIONS
    env = CardrulesEnv("dollartaire")
    assert env.seats.actions == "listed"
    _, info = env.reset(seed=2)
    moves = env.game.legal_moves()
    assert info["action_mask"].sum() == len(moves) and info["action_mask"][: len(moves)].all()
    expected = moves[-1].text()
    env.step(len(moves) - 1)
    assert env.game.history[-1].text() == expected
    _observation, _reward, _terminated, _truncated, info = env.step(len(env.game.legal_moves()))
    assert info["illegal"]


def test_the_learning_example_runs_and_plots(tmp_path):
    spec = importlib.util.spec_from_file_location("learn_ten_bucks", ROOT / "examples" / "learn_ten_bucks.py")
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    learned, others = example.train(12, seed=1)
    assert len(learned) == len(others) == 12
    assert all(value >= 0 for value in learned + others)  # money held at the end
    picture = tmp_path / "learning.png"
    example.plot(learned, others, picture, window=4)
    assert picture.read_bytes().startswith(b"\x89PNG")


def test_bad_arguments_to_the_environments_are_clean_errors():
    env = CardrulesEnv("klondike")
    for options, message in [("draw=3", "reset's options are a dict such as {'seed': 17} or None, not str"),
                             ([("seed", 1)], "not list"), (3, "not int 3")]:
        with pytest.raises(ArgumentError, match=re.escape(message)):
            env.reset(options=options)
    with pytest.raises(SetupError, match="a seed is a whole number, not 'x'"):
        env.reset(options={"seed": "x"})
    for seed in (-1, "1", 1.5, True, np.float64(2)):
        with pytest.raises(ArgumentError, match="reset's seed is a whole number of 0 or more"):
            env.reset(seed=seed)
    aec = pettingzoo_env("ten-bucks", players=2)
    with pytest.raises(ArgumentError, match="call reset\\(\\) before observe\\(\\)"):
        aec.observe("player_0")
    with pytest.raises(ArgumentError, match="call reset\\(\\) before step\\(\\)"):
        aec.step(0)
    aec.reset(seed=1)
    for agent in ("player_9", "player_-1", 0, np.int64(0), None):
        with pytest.raises(ArgumentError, match="there is no agent .*: the agents are player_0, player_1"):
            aec.observe(agent)
    with pytest.raises(ArgumentError, match="reset's options are a dict"):
        aec.reset(options="seed=3")
    par = parallel_env("nerts", players=2)
    with pytest.raises(ArgumentError, match="call reset\\(\\) before step\\(\\)"):
        par.step({})
    par.reset(seed=1)
    with pytest.raises(ArgumentError, match="no action for player_0, player_1: every agent still playing sends one "
                                            f"\\(wait, action {par.wait}, does nothing\\)"):
        par.step({})
    with pytest.raises(ArgumentError, match="no action for player_1"):
        par.step({"player_0": par.wait})
    with pytest.raises(ArgumentError, match="there is no agent 'player_5'"):
        par.step({"player_0": par.wait, "player_1": par.wait, "player_5": par.wait})
    with pytest.raises(ArgumentError, match="step takes a dict of actions by agent, not list"):
        par.step([par.wait, par.wait])
    before = par.game.observation_tensor(0)
    par.step({"player_0": np.int64(par.wait), "player_1": np.int32(par.wait)})  # numpy actions: waiting
    assert par.game.observation_tensor(0) == before


def test_numpy_integers_are_taken_as_seeds_players_and_options():
    env = CardrulesEnv("klondike", options={"draw": np.int64(3), "scoring": np.str_("vegas")})
    assert env.seats.rules.option_values["draw"] == 3 and env.seats.rules.option_values["scoring"] == "vegas"
    first, _ = env.reset(seed=np.int64(4))
    again, _ = env.reset(seed=4)
    assert (first == again).all()
    env.reset(options={"seed": np.uint16(17)})
    assert env.game.seed == 17 and type(env.game.seed) is int
    aec = pettingzoo_env("ten-bucks", players=np.int64(3))
    aec.reset(seed=np.int32(2), options={"seed": np.int64(5)})
    assert aec.possible_agents == ["player_0", "player_1", "player_2"] and aec.game.seed == 5
