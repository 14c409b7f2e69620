"""A learning loop through the PettingZoo environment: nothing heavy, the shape of the thing.

    pip install 'cardrules[envs,plots]'
    python examples/learn_ten_bucks.py --episodes 400 --plot learning.png

Seat 1 (`player_0`) of a three-seat Ten Bucks game learns a tabular softmax policy: one
preference per action number (the ruleset's fixed action space), the illegal ones masked out,
trained by REINFORCE on the episode's return (its money at the end) less a running average. The
other seats play at random. Every episode is a new deal; the plot shows the learner's money and
the random seats' average, each as a moving average.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

import numpy as np
from cardrules.envs import pettingzoo_env


def masked_softmax(preferences: np.ndarray, mask: np.ndarray) -> np.ndarray:
    legal = mask.astype(bool)
    weights = np.zeros_like(preferences)
    exp = np.exp(preferences[legal] - preferences[legal].max())
    weights[legal] = exp / exp.sum()
    return weights


def train(episodes: int, seed: int = 0, rate: float = 0.05, ruleset: str = "ten-bucks",
          players: int = 3) -> tuple[list[float], list[float]]:
    """Play `episodes` games; the learner's return and the other seats' mean return, by episode."""
    env = pettingzoo_env(ruleset, players=players)
    learner = env.possible_agents[0]
    preferences = np.zeros(env.action_space(learner).n)
    rng = np.random.default_rng(seed)
    others_rng = random.Random(seed)
    baseline = 0.0
    learned, others = [], []
    for episode in range(episodes):
        env.reset(seed=seed * 100_000 + episode)
        returns = dict.fromkeys(env.possible_agents, 0.0)
        taken: list[tuple[int, np.ndarray]] = []
        for agent in env.agent_iter():
            _, reward, terminated, truncated, info = env.last()
            returns[agent] += reward
            if terminated or truncated:
                env.step(None)
                continue
            mask = info["action_mask"]
            if agent == learner:
                weights = masked_softmax(preferences, mask)
                action = int(rng.choice(len(weights), p=weights))
                taken.append((action, weights))
            else:
                action = others_rng.choice(np.flatnonzero(mask).tolist())
            env.step(action)
        advantage = returns[learner] - baseline
        baseline += 0.05 * (returns[learner] - baseline)
        for action, weights in taken:  # the gradient of log softmax: one-hot less the probabilities
            preferences -= rate * advantage * weights
            preferences[action] += rate * advantage
        learned.append(returns[learner])
        others.append(sum(returns[a] for a in env.possible_agents[1:]) / (players - 1))
    return learned, others


def moving_average(values: list[float], window: int) -> list[float]:
    out, total = [], 0.0
    for i, value in enumerate(values):
        total += value - (values[i - window] if i >= window else 0.0)
        out.append(total / min(i + 1, window))
    return out


def plot(learned: list[float], others: list[float], path: Path, window: int = 50) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(7, 4))
    axes.plot(moving_average(learned, window), label="learner (seat 1)")
    axes.plot(moving_average(others, window), label="random seats (mean)")
    axes.set_xlabel("episode")
    axes.set_ylabel(f"money at the end ({window}-episode moving average)")
    axes.set_title("Ten Bucks, 3 seats: a tabular softmax policy against random play")
    axes.legend()
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--plot", type=Path, default=Path("learning.png"), help="where to save the plot")
    args = parser.parse_args(argv)
    learned, others = train(args.episodes, args.seed)
    tail = max(len(learned) // 4, 1)
    print(f"first {tail} episodes: learner {np.mean(learned[:tail]):.2f}, random seats {np.mean(others[:tail]):.2f}")
    print(f"last {tail} episodes:  learner {np.mean(learned[-tail:]):.2f}, random seats {np.mean(others[-tail:]):.2f}")
    plot(learned, others, args.plot)
    print(f"plot: {args.plot}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
