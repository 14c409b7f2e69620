"""Confidence intervals shared by the statistics scripts."""

from __future__ import annotations

import math

Z95 = 1.959963984540054


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (successes may be fractional: shared wins)."""
    if n == 0:
        return float("nan"), float("nan")
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(max(0.0, p * (1 - p)) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def seat_share_lines(wins: list[float], games: int, notes: list[str] | None = None) -> list[str]:
    """One line per seat: its win share (shared wins count a fraction) with the 95% interval."""
    lines = []
    for seat, won in enumerate(wins):
        low, high = wilson(won, games)
        note = f"; {notes[seat]}" if notes else ""
        lines.append(f"  seat {seat + 1}: win share {won / games:6.1%}  [95% CI {low:6.1%} - {high:6.1%}]"
                     f"  ({won:g} wins{note})")
    return lines
