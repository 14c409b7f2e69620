"""Agents' speed (issue 32, goal 7): steps per CPU-second of a learning loop that reads the
observation and the legal-action mask at every step and picks a legal action at random.

    python benchmarks/envs_speed.py [--games 100]

Both sides play the same rules, OpenSpiel's Klondike (`solitaire`; in cardrules the ruleset
benchmarks/openspiel/solitaire.yaml), in this one process, CPU time:

- OpenSpiel: a Python loop over pyspiel, each step `observation_tensor()` and
  `legal_actions_mask()` turned into NumPy arrays, then `apply_action` (chance outcomes, its
  deal, are applied too but not counted as steps; nor is kEnd, the action that ends a game with
  no move left, which the ruleset does not have);
- cardrules: the Gymnasium environment (`cardrules.envs`), `reset` then `step` with a legal action
  drawn from `info["action_mask"]`; each step returns the observation.

Goal: cardrules' steps per CPU-second at least OpenSpiel's (the ratio printed >= 1.0).
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
RULESET = HERE / "openspiel" / "solitaire.yaml"
KEND = 0  # solitaire's action that ends a game when no move is left


def openspiel(games: int) -> tuple[float, float] | None:
    """OpenSpiel's steps per CPU-second and steps a game, or None without the package."""
    try:
        import numpy as np
        import pyspiel
    except ImportError:
        print("OpenSpiel is not installed (pip install open_spiel): nothing to compare with")
        return None
    game = pyspiel.load_game("solitaire")  # loading is not timed
    steps, start = 0, time.process_time()
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            np.asarray(state.observation_tensor(), dtype=np.float32)
            mask = np.asarray(state.legal_actions_mask(), dtype=np.int8)
            action = rng.choice(np.flatnonzero(mask).tolist())
            state.apply_action(action)
            steps += action != KEND
    return steps / (time.process_time() - start), steps / games


def cardrules_env(games: int) -> tuple[float, float]:
    """The Gymnasium environment's steps per CPU-second and steps a game."""
    import gymnasium
    import numpy as np

    import cardrules.envs  # noqa: F401 - registers the environments

    env = gymnasium.make("cardrules/ruleset-v0", ruleset=str(RULESET))  # loading is not timed
    steps, start = 0, time.process_time()
    for seed in range(games):
        rng = random.Random(seed)
        _, info = env.reset(seed=seed)
        done = False
        while not done:
            action = rng.choice(np.flatnonzero(info["action_mask"]).tolist())
            _, _, terminated, truncated, info = env.step(action)
            done = terminated or truncated
            steps += 1
    return steps / (time.process_time() - start), steps / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    args = parser.parse_args()
    print(f"OpenSpiel's Klondike (solitaire) on both sides, {args.games} random games, CPU time, one process")
    theirs = openspiel(args.games)
    ours, length = cardrules_env(args.games)
    print(f"  cardrules Gymnasium env (obs + mask each step): {ours:10,.0f} steps/CPU-s  ({length:.1f} steps a game)")
    if theirs is not None:
        print(f"  pyspiel Python loop (obs + mask each step):     {theirs[0]:10,.0f} steps/CPU-s  ({theirs[1]:.1f} steps a game)")
        ratio = ours / theirs[0]
        print(f"  ratio {ratio:.2f}x  (goal >= 1.0x: {'met' if ratio >= 1.0 else 'not met'})")


if __name__ == "__main__":
    main()
