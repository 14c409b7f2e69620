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


import pytest  # noqa: E402


@pytest.fixture(autouse=True, scope="session")
def private_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Compiled rulesets (the native backend) go to a folder of the test run, never the user's;
    with pytest-xdist, one folder for all the run's workers, so that each ruleset compiles once."""
    import os

    if os.environ.get("PYTEST_XDIST_WORKER"):
        folder = tmp_path_factory.getbasetemp().parent / "cardrules-cache"
        folder.mkdir(mode=0o700, exist_ok=True)  # the native cache is refused if others may write it
    else:
        folder = tmp_path_factory.mktemp("cardrules-cache")
    os.environ["CARDRULES_CACHE"] = str(folder)
    return folder


@pytest.fixture(autouse=True)
def private_store(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test keeps persistent values (cumulative Vegas) in its own folder, never the user's."""
    home = tmp_path_factory.mktemp("cardrules-home")
    monkeypatch.setenv("CARDRULES_HOME", str(home))
    return home
