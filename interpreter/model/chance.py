"""Chance after the deal: the random numbers of each draw of chance (a shuffle, a random place),
the same in both backends, so a game replays alike in either."""

from __future__ import annotations

import random


def chance_stream(chance: int, draw: int) -> random.Random:
    """The random numbers of a game's `draw`-th draw of chance after the deal (a shuffle, a random
    place), from its `chance` seed: the same in both backends (native_runtime.chance_order)."""
    return random.Random(f"{chance}/{draw}")
