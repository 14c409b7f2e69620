"""Shared fixtures: paths into the repository and the hand-written reference game."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULESETS = ROOT / "rulesets"
BENCHMARKS = ROOT / "benchmarks"

# The reference Klondike lives in benchmarks/ so the benchmark script can use it too.
if str(BENCHMARKS) not in sys.path:
    sys.path.insert(0, str(BENCHMARKS))
