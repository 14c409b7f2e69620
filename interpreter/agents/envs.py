"""Environments for learning agents: any ruleset as a Gymnasium or PettingZoo environment.

An optional extra (`pip install 'cardrules[envs]'`): Gymnasium, PettingZoo and NumPy.

- `CardrulesEnv` (Gymnasium): a one-seat ruleset. Importing this module registers every bundled
  one-seat ruleset as `cardrules/<name>-v0`: `gymnasium.make("cardrules/<name>-v0",
  options={...})` (the ruleset's options); any ruleset file with
  `gymnasium.make("cardrules/ruleset-v0", ruleset="my-game.yaml")`.
- `pettingzoo_env(ruleset, players=N)` (PettingZoo AEC): any ruleset; the agent selected is the
  seat the game asks to move. A ruleset whose seats all play at once (`turns: simultaneous`) is
  played through `parallel_env`, turned into AEC form by PettingZoo's own converter.
- `parallel_env(ruleset, players=2)` (PettingZoo parallel): a simultaneous ruleset. Each step
  every seat sends one action (or `WAIT`, the last action number, to let the moment pass); they
  land one after another in an order drawn at random, and an action that an earlier one made
  illegal is refused (`info["refused"]`), as a card two seats race for goes to one of them.

Agents are `player_0`, `player_1`, ... (the engine's seat numbers, 0-based). Observations are
the acting seat's view only (`Game.observation_tensor`, laid out in `model/observation.py`), float32 of
a fixed shape; the actions are the ruleset's fixed action numbers (`model/actions.py`), with the legal
ones in `info["action_mask"]` (and `action_masks()` on the Gymnasium environment, as maskable
learners ask). Rewards are each seat's change of score (its negation under `score_order: lower`),
so an episode's rewards add up to the final score less the first; with `reward="win"` a seat gets
1 when the game ends with it among the winners (a one-seat game: ends `won`), else 0.

`actions="fixed"` (the default where the ruleset has at most `MAX_FIXED_ACTIONS` action numbers)
uses the fixed numbers; `actions="listed"` (the default past that: a move selecting runs from
several piles tells billions apart) makes action i the i-th legal move in the engine's order,
up to `MAX_LISTED_ACTIONS`. `env.unwrapped.seats.actions` says which is in use.

An action that is not legal changes nothing: it costs `illegal_reward` (default -1) and sets
`info["illegal"]`. A game that ends at its move limit (`outcome: limit`), or an environment that
reaches `max_steps` steps, is truncated, not terminated.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from io import StringIO
from numbers import Integral
from pathlib import Path
from typing import Any

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv, ParallelEnv
    from pettingzoo.utils.conversions import parallel_to_aec
except ImportError as missing:  # pragma: no cover - the extra is part of the test install
    raise ImportError(f"cardrules.envs needs the envs extra ({missing.name} is missing): "
                      "pip install 'cardrules[envs]'") from None

from ..model.actions import action_index
from ..python.engine import Game
from ..base.errors import ArgumentError, IllegalMoveError, printable
from ..base.resources import rulesets_dir
from ..model.ruleset import Ruleset
from ..python.load import load_ruleset

REWARDS = ("score", "win")
ACTIONS = ("auto", "fixed", "listed")
DEFAULT_MAX_STEPS = 100_000
MAX_FIXED_ACTIONS = 1 << 20      # an action mask longer than this is refused: use actions="listed"
MAX_LISTED_ACTIONS = 4096        # actions="listed": the legal moves an agent can pick from, in order
MAX_OBSERVATION = 4_000_000      # entries of one observation (piles x cards x 2, and the rest)


def _ruleset(ruleset: str | Path | Ruleset, options: dict[str, Any] | None) -> Ruleset:
    if isinstance(ruleset, Ruleset):
        if options:
            raise ArgumentError("options go with a ruleset's name or path, not with a loaded ruleset")
        return ruleset
    return load_ruleset(ruleset, options)


def _check(rules: Ruleset, reward: str, actions: str, illegal_reward: Any, max_steps: int) -> None:
    if reward not in REWARDS:
        raise ArgumentError(f"reward is one of {', '.join(REWARDS)}, not {reward!r}")
    if actions not in ACTIONS:
        raise ArgumentError(f"actions is one of {', '.join(ACTIONS)}, not {actions!r}")
    if isinstance(illegal_reward, bool) or not isinstance(illegal_reward, (int, float)) \
            or not math.isfinite(illegal_reward):
        raise ArgumentError(f"illegal_reward is a finite number, not {illegal_reward!r:.40}")
    if not isinstance(max_steps, int) or isinstance(max_steps, bool) or max_steps < 1:
        raise ArgumentError(f"max_steps is a whole number of at least 1, not {max_steps!r}")
    if actions == "fixed" and rules.num_actions > MAX_FIXED_ACTIONS:
        raise ArgumentError(f"'{rules.name}' numbers its moves up to {rules.num_actions:,} (a move that selects "
                            f"cards from several piles, or picks several cards, tells many apart): too many "
                            f"for an action mask; pass actions='listed' (action i: the i-th legal move)")
    if rules.observation.size > MAX_OBSERVATION:
        raise ArgumentError(f"'{rules.name}' would be observed through {rules.observation.size:,} numbers "
                            f"(piles x cards): more than {MAX_OBSERVATION:,}")


def reset_options(options: Any) -> dict[str, Any]:
    """`reset`'s options, checked: None, or a mapping, whose key `seed` (if there) deals that game
    (the new game checks it; other keys are left to wrappers, as PettingZoo's tests pass some); an
    `ArgumentError` for anything else."""
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise ArgumentError(f"reset's options are a dict such as {{'seed': 17}} or None, not "
                            f"{type(options).__name__} {printable(repr(options))[:40]} (a ruleset's "
                            f"options are given when the environment is made)")
    return dict(options)


def reset_seed(seed: Any) -> int | None:
    """`reset`'s seed: None, or a whole number of 0 or more (numpy's too); else an `ArgumentError`."""
    if seed is None:
        return None
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, Integral) or seed < 0:
        raise ArgumentError(f"reset's seed is a whole number of 0 or more, or None, not {printable(repr(seed))[:40]}")
    return int(seed)


def _observation_space(rules: Ruleset) -> spaces.Box:
    low, high = rules.observation.bounds()
    return spaces.Box(np.array(low, dtype=np.float32), np.array(high, dtype=np.float32), dtype=np.float32)


def _ansi(game: Game, seat: int | None) -> str:
    from rich.console import Console

    from ..python.render import render_seats_table, render_table

    out = StringIO()
    table = render_seats_table if game.rules.simultaneous else render_table
    Console(file=out, width=100, color_system=None, highlight=False).print(table(game, seat))
    return printable(out.getvalue())


class _Seats:
    """What the three environments share: a game, its seats' scores and their rewards."""

    def __init__(self, rules: Ruleset, players: int | None, reward: str, actions: str, illegal_reward: float,
                 max_steps: int) -> None:
        _check(rules, reward, actions, illegal_reward, max_steps)
        self.rules = rules
        if actions == "auto":
            actions = "fixed" if rules.num_actions <= MAX_FIXED_ACTIONS else "listed"
        self.actions = actions
        self.listed = actions == "listed"
        self.action_count = MAX_LISTED_ACTIONS if self.listed else rules.num_actions
        self.observation_size = rules.observation.size
        # The number of seats, checked by the engine as every game checks it (a SetupError if the
        # ruleset does not allow it), here rather than at the first reset.
        self.players = rules.new_game(seed=0, players=players).players
        self.reward_kind = reward
        self.illegal_reward = float(illegal_reward)
        self.max_steps = max_steps
        self.game: Game | None = None
        self.steps = 0
        self.last_scores: list[int] = []

    def new_game(self, np_random: np.random.Generator, options: Any) -> Game:
        """A new game: `options={"seed": N}` deals game N, else the environment's generator picks."""
        seed = reset_options(options).get("seed")
        if seed is None:
            seed = int(np_random.integers(2**63 - 1))
        self.game = self.rules.new_game(seed=seed, players=self.players)
        self.steps = 0
        self.last_scores = self.scores()
        return self.game

    def scores(self) -> list[int]:
        game = self.game
        assert game is not None
        if self.reward_kind == "win":
            return [0] * self.players
        return [self.rules.score_sign * s for s in game.scores()]

    def rewards(self) -> list[float]:
        """Each seat's reward for what happened since the last call."""
        game = self.game
        assert game is not None
        if self.reward_kind == "win":
            if not game.is_over:
                return [0.0] * self.players
            if self.players == 1:
                return [float(game.outcome == "won")]
            winners = game.winners() or []
            return [float(seat in winners) for seat in range(self.players)]
        now = self.scores()
        gained = [float(b - a) for a, b in zip(self.last_scores, now)]
        self.last_scores = now
        return gained

    def ended(self) -> tuple[bool, bool]:
        """(terminated, truncated)."""
        game = self.game
        assert game is not None
        if game.is_over:
            return game.outcome != "limit", game.outcome == "limit"
        return False, self.steps >= self.max_steps

    def observation(self, seat: int) -> np.ndarray:
        """`Game.observation_tensor` as a float32 array, filled from its entries that are not 0."""
        game = self.game
        assert game is not None
        indexes, values = game.observation_entries(seat)
        out = np.zeros(self.observation_size, dtype=np.float32)
        out[indexes] = values
        return out

    def mask(self, seat: int) -> np.ndarray:
        game = self.game
        assert game is not None
        mask = np.zeros(self.action_count, dtype=np.int8)
        if not game.is_over and (self.rules.simultaneous or seat == game.current_player):
            if self.listed:
                mask[: len(game.legal_moves(seat))] = 1
            else:
                mask[game.legal_actions(seat)] = 1
        return mask

    def play(self, action: Any, seat: int | None = None) -> bool:
        """Apply `action` for the seat to act (or `seat`); False if it is not legal now."""
        game = self.game
        assert game is not None
        self.steps += 1
        if not self.listed:
            try:
                game.apply_action(action, seat)
            except IllegalMoveError:
                return False
            return True
        index = action_index(action, MAX_LISTED_ACTIONS, "with actions='listed' the actions")
        moves = game.legal_moves(seat)
        if index >= len(moves):
            return False
        game.apply(moves[index])
        return True


class CardrulesEnv(gymnasium.Env):  # type: ignore[misc]
    """A one-seat ruleset as a Gymnasium environment (see the module's docstring)."""

    metadata = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012 (the base classes declare it so)

    def __init__(self, ruleset: str | Path | Ruleset, options: dict[str, Any] | None = None,
                 render_mode: str | None = None, reward: str = "score", actions: str = "auto",
                 illegal_reward: float = -1.0, max_steps: int = DEFAULT_MAX_STEPS) -> None:
        rules = _ruleset(ruleset, options)
        if rules.min_players != 1:
            raise ArgumentError(f"'{rules.name}' is played by {rules.min_players} or more seats: "
                                f"use cardrules.envs.pettingzoo_env('{rules.name}')")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ArgumentError(f"render_mode is 'ansi' or None, not {render_mode!r}")
        self.seats = _Seats(rules, 1, reward, actions, illegal_reward, max_steps)
        self.render_mode = render_mode
        self.action_space = spaces.Discrete(self.seats.action_count)
        self.observation_space = _observation_space(rules)

    @property
    def game(self) -> Game | None:
        """The game being played (None before the first `reset`)."""
        return self.seats.game

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        reset_options(options)  # checked before anything changes
        super().reset(seed=reset_seed(seed))
        self.seats.new_game(self.np_random, options)
        return self.seats.observation(0), self._info(False)

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        seats = self.seats
        if seats.game is None:
            raise ArgumentError("call reset() before step()")
        if seats.game.is_over:
            raise ArgumentError("the game is over: call reset()")
        legal = seats.play(action)
        reward = seats.rewards()[0] if legal else seats.illegal_reward
        terminated, truncated = seats.ended()
        return seats.observation(0), reward, terminated, truncated, self._info(not legal)

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as booleans over the action space."""
        return self.seats.mask(0).astype(bool)

    def _info(self, illegal: bool) -> dict[str, Any]:
        return {"action_mask": self.seats.mask(0), "illegal": illegal}

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.seats.game is None:
            return None
        return _ansi(self.seats.game, 0)


class _SeatsEnv:
    """What the two PettingZoo environments share: their seats, agents and spaces (one object
    each, as PettingZoo asks), the game, and the table as text."""

    metadata: dict[str, Any]

    def _take_seats(self, rules: Ruleset, players: int | None, render_mode: str | None, reward: str, actions: str,
                    illegal_reward: float, max_steps: int, extra_actions: int = 0) -> None:
        self.seats = _Seats(rules, players, reward, actions, illegal_reward, max_steps)
        self.metadata = {**self.metadata, "name": f"cardrules_{rules.name}_v0"}
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(self.seats.players)]
        self._action_space = spaces.Discrete(self.seats.action_count + extra_actions)
        self._observation_space = _observation_space(rules)
        self._np_random: np.random.Generator | None = None

    def _new_game(self, seed: int | None, options: dict[str, Any] | None) -> Game:
        """`reset`'s game: the generator seeded anew by `seed` (made at the first reset)."""
        seed = reset_seed(seed)
        reset_options(options)  # checked before anything changes
        if seed is not None or self._np_random is None:
            self._np_random, _ = gymnasium.utils.seeding.np_random(seed)
        self.agents = list(self.possible_agents)
        return self.seats.new_game(self._np_random, options)

    def _seat(self, agent: Any) -> int:
        """The seat of one of the environment's agents (`player_0`, ...); else an `ArgumentError`."""
        if isinstance(agent, str) and agent in self.possible_agents:
            return self.possible_agents.index(agent)
        raise ArgumentError(f"there is no agent {printable(repr(agent))[:40]}: the agents are "
                            f"{', '.join(self.possible_agents)}")

    def _started(self, call: str) -> Game:
        """The game under way, or an `ArgumentError` if `reset` has not been called."""
        if self.seats.game is None:
            raise ArgumentError(f"call reset() before {call}()")
        return self.seats.game

    def observation_space(self, agent: str) -> spaces.Box:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._action_space

    @property
    def game(self) -> Game | None:
        """The game being played (None before the first `reset`)."""
        return self.seats.game

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.seats.game is None:
            return None
        return _ansi(self.seats.game, None)

    def close(self) -> None:
        pass


class CardrulesAEC(_SeatsEnv, AECEnv):  # type: ignore[misc]
    """A turn-based ruleset as a PettingZoo AEC environment (see the module's docstring)."""

    metadata = {"render_modes": ["ansi"], "render_fps": 4, "name": "cardrules_v0", "is_parallelizable": False}  # noqa: RUF012 (the base classes declare it so)

    def __init__(self, ruleset: str | Path | Ruleset, players: int | None = None,
                 options: dict[str, Any] | None = None, render_mode: str | None = None, reward: str = "score",
                 actions: str = "auto", illegal_reward: float = -1.0, max_steps: int = DEFAULT_MAX_STEPS) -> None:
        super().__init__()
        rules = _ruleset(ruleset, options)
        if rules.simultaneous:
            raise ArgumentError(f"every seat of '{rules.name}' plays at once: use "
                                f"cardrules.envs.pettingzoo_env or parallel_env")
        self._take_seats(rules, players, render_mode, reward, actions, illegal_reward, max_steps)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        game = self._new_game(seed, options)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[game.current_player]
        self._update_infos(False)

    def observe(self, agent: str) -> np.ndarray:
        seat = self._seat(agent)
        self._started("observe")
        return self.seats.observation(seat)

    def step(self, action: Any) -> None:
        self._started("step")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seats = self.seats
        game = seats.game
        assert game is not None
        self._cumulative_rewards[agent] = 0.0
        legal = seats.play(action)
        if legal:
            self.rewards = dict(zip(self.agents, seats.rewards()))
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.rewards[agent] = seats.illegal_reward
        terminated, truncated = seats.ended()
        if terminated or truncated:
            self.terminations = dict.fromkeys(self.agents, terminated)
            self.truncations = dict.fromkeys(self.agents, truncated)
        else:
            self.agent_selection = self.possible_agents[game.current_player]
        self._update_infos(not legal, agent)
        self._accumulate_rewards()

    def _update_infos(self, illegal: bool, mover: str | None = None) -> None:
        for seat, agent in enumerate(self.possible_agents):
            self.infos[agent] = {"action_mask": self.seats.mask(seat), "illegal": illegal and agent == mover}


class CardrulesParallel(_SeatsEnv, ParallelEnv):  # type: ignore[misc]
    """A ruleset whose seats all play at once as a PettingZoo parallel environment (see the
    module's docstring). The last action number, `wait`, is always legal and does nothing."""

    metadata = {"render_modes": ["ansi"], "render_fps": 4, "name": "cardrules_v0"}  # noqa: RUF012 (the base classes declare it so)

    def __init__(self, ruleset: str | Path | Ruleset, players: int | None = None,
                 options: dict[str, Any] | None = None, render_mode: str | None = None, reward: str = "score",
                 actions: str = "auto", illegal_reward: float = -1.0, max_steps: int = DEFAULT_MAX_STEPS) -> None:
        rules = _ruleset(ruleset, options)
        if not rules.simultaneous:
            raise ArgumentError(f"'{rules.name}' is played in turns: use cardrules.envs.pettingzoo_env")
        self._take_seats(rules, players, render_mode, reward, actions, illegal_reward, max_steps, extra_actions=1)
        self.agents: list[str] = []
        self.wait = self.seats.action_count

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, np.ndarray], dict[str, dict[str, Any]]]:
        self._new_game(seed, options)
        return self._observations(), self._infos(set(), set())

    def step(self, actions: dict[str, Any]) -> tuple[dict[str, np.ndarray], dict[str, float], dict[str, bool],
                                                     dict[str, bool], dict[str, dict[str, Any]]]:
        seats = self.seats
        game = self._started("step")
        assert self._np_random is not None
        self._check_actions(actions)
        masks = {agent: seats.mask(seat) for seat, agent in enumerate(self.possible_agents) if agent in actions}
        illegal: set[str] = set()
        refused: set[str] = set()
        order = [agent for agent in self.agents if agent in actions]
        self._np_random.shuffle(order)
        for agent in order:
            action = actions[agent]
            if action == self.wait or game.is_over:
                continue
            seat = self.possible_agents.index(agent)
            if not seats.play(action, seat):  # legal when the seat looked: another seat's action came first
                (refused if _offered(masks[agent], action) else illegal).add(agent)
        gained = seats.rewards()
        rewards = {agent: (seats.illegal_reward if agent in illegal else 0.0) + gained[seat]
                   for seat, agent in enumerate(self.possible_agents) if agent in self.agents}
        terminated, truncated = seats.ended()
        observations, infos = self._observations(), self._infos(illegal, refused)
        terminations = dict.fromkeys(self.agents, terminated)
        truncations = dict.fromkeys(self.agents, truncated)
        if terminated or truncated:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def _check_actions(self, actions: Any) -> None:
        """Refuse (`ArgumentError`) what is not an action for each agent still playing: not a dict,
        an agent unknown or done, an agent left out (`wait` does nothing)."""
        if not isinstance(actions, Mapping):
            raise ArgumentError(f"step takes a dict of actions by agent, not {type(actions).__name__}")
        for agent in actions:
            self._seat(agent)
            if agent not in self.agents:
                raise ArgumentError(f"{agent} is not playing: the game has ended, call reset()")
        missing = [agent for agent in self.agents if agent not in actions]
        if missing:
            raise ArgumentError(f"no action for {', '.join(missing)}: every agent still playing sends one "
                                f"(wait, action {self.wait}, does nothing)")

    def _observations(self) -> dict[str, np.ndarray]:
        return {agent: self.seats.observation(seat) for seat, agent in enumerate(self.possible_agents)
                if agent in self.agents}

    def _infos(self, illegal: set[str], refused: set[str]) -> dict[str, dict[str, Any]]:
        infos = {}
        for seat, agent in enumerate(self.possible_agents):
            if agent in self.agents:
                mask = np.zeros(self._action_space.n, dtype=np.int8)
                mask[: self.wait] = self.seats.mask(seat)
                mask[self.wait] = 1
                infos[agent] = {"action_mask": mask, "illegal": agent in illegal, "refused": agent in refused}
        return infos


def _offered(mask: np.ndarray, action: Any) -> bool:
    try:
        return 0 <= int(action) < len(mask) and bool(mask[int(action)])
    except (TypeError, ValueError):
        return False


def pettingzoo_env(ruleset: str | Path | Ruleset, players: int | None = None, **kwargs: Any) -> AECEnv:
    """Any ruleset as a PettingZoo AEC environment (a simultaneous one through `parallel_env`)."""
    rules = _ruleset(ruleset, kwargs.pop("options", None))
    if rules.simultaneous:
        return parallel_to_aec(CardrulesParallel(rules, players, **kwargs))
    return CardrulesAEC(rules, players, **kwargs)


def parallel_env(ruleset: str | Path | Ruleset, players: int | None = None, **kwargs: Any) -> ParallelEnv:
    """A ruleset whose seats all play at once as a PettingZoo parallel environment."""
    return CardrulesParallel(ruleset, players, **kwargs)


@functools.cache
def one_seat_rulesets() -> tuple[str, ...]:
    """The bundled rulesets played by one seat (their `extends:` chains merged, nothing compiled)."""
    from ..front.source import load_document
    from ..front.variants import resolve_extends

    names = []
    for path in sorted(rulesets_dir().glob("*.yaml")):
        data = resolve_extends(load_document(path), path).data
        players = data.get("players", 1) if isinstance(data, dict) else None
        if players == 1 or (isinstance(players, dict) and players.get("min") == 1):
            names.append(path.stem)
    return tuple(names)


def register() -> None:
    """Register `cardrules/<name>-v0` for each bundled one-seat ruleset, and `cardrules/ruleset-v0`
    (give it `ruleset=`): done when this module is imported."""
    for name in one_seat_rulesets():
        env_id = f"cardrules/{name}-v0"
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point="cardrules.envs:CardrulesEnv", kwargs={"ruleset": name})
    if "cardrules/ruleset-v0" not in gymnasium.registry:
        gymnasium.register("cardrules/ruleset-v0", entry_point="cardrules.envs:CardrulesEnv")


register()
