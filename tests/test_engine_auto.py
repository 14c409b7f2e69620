"""`--engine auto`, the default of simulate and compare (solve takes it when asked): the native
engine where Numba is installed, the seats and the ruleset are ones it plays, and its compiled code
is at hand or the run pays for compiling it; else Python, with one line saying why. A line says so
before compiling.

Each test builds a ruleset of its own text (a number no other test adds to its score), so that its
native module is new to the cache and to this process whatever ran before."""

from __future__ import annotations

import itertools
import os
import random
from pathlib import Path

import pytest

from cardrules import load_ruleset
from cardrules.agents.seats import SeatSpec
from cardrules.app.cli import app
from cardrules.native import native_backend
from cardrules.workbench import simulate_play, solver
from cardrules.workbench.engines import COMPILING
from cardrules.workbench.simulate_play import NATIVE_PAYS_FROM, choose_engine
from cardrules.workbench.solver import NATIVE_SOLVES_FROM, choose_solver_engine

ROOT = Path(__file__).resolve().parent.parent
_SALTS = itertools.count(random.Random(os.getpid()).randrange(10**6, 10**9, 1000))


def fresh_ruleset(folder: Path) -> Path:
    """tests/fixtures/mini.yaml scoring a number no other build has: a module not compiled yet."""
    text = (ROOT / "tests/fixtures/mini.yaml").read_text()
    assert "add: {score: 5}" in text
    path = folder / "mini-fresh.yaml"
    path.write_text(text.replace("add: {score: 5}", f"add: {{score: {next(_SALTS)}}}"))
    return path


def seats(*kinds: str) -> list[SeatSpec]:
    return [SeatSpec(kind) for kind in kinds]


def test_auto_plays_python_until_native_code_is_compiled_or_the_run_pays_for_compiling(tmp_path: Path) -> None:
    rules = load_ruleset(fresh_ruleset(tmp_path))
    lines: list[str] = []
    assert choose_engine(rules, "auto", seats("greedy"), lines.append, NATIVE_PAYS_FROM - 1) == "python"
    assert len(lines) == 1 and "not compiled yet" in lines[0] and "--engine native" in lines[0]
    lines.clear()
    assert choose_engine(rules, "auto", seats("greedy"), lines.append, NATIVE_PAYS_FROM) == "native"
    assert lines == [COMPILING]
    lines.clear()
    assert choose_engine(rules, "native", seats("greedy"), lines.append, 1) == "native"  # asked: compiled, said so
    assert lines == [COMPILING]


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, bool, bool]:
    """A fresh ruleset compiled here by a playout: its path, and whether its code was at hand
    before the playout and after."""
    path = fresh_ruleset(tmp_path_factory.mktemp("compiled"))
    rules = load_ruleset(path)
    backend = native_backend(rules)
    before = backend.compiled_before()
    backend.playout(backend.start(rules.new_game(seed=1)), 1)  # compiles the playout
    return path, before, backend.compiled_before()


def test_auto_plays_native_without_a_word_once_its_code_is_compiled(compiled: tuple[Path, bool, bool]) -> None:
    path, before, after = compiled
    assert not before and after
    rules = load_ruleset(path)
    lines: list[str] = []
    assert choose_engine(rules, "auto", seats("random"), lines.append, 1) == "native" and lines == []
    # A new process finds it in the cache: the same module's Numba index files.
    module = native_backend(rules).module
    assert any((Path(module.__file__).parent / "__pycache__").glob(f"{module.__name__}.*.nbi"))


def test_play_says_so_before_an_mcts_seats_first_decision_compiles(compiled: tuple[Path, bool, bool],
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from cardrules.native.backend import Native

    path = compiled[0]
    argv = ["play", str(path), "--seed", "1", "--seat", "1=mcts:playouts=2,depth=3"]
    done = CliRunner().invoke(app, argv)
    assert done.exit_code == 0, done.output
    assert COMPILING not in done.output  # compiled: nothing to say
    monkeypatch.setattr(Native, "compiled_before", lambda self: False)
    done = CliRunner().invoke(app, argv)
    assert done.exit_code == 0, done.output
    assert f"{COMPILING}, for the mcts seats' playouts" in done.stderr
    assert COMPILING not in done.stdout


def test_auto_says_why_it_plays_python(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    rules = load_ruleset(fresh_ruleset(tmp_path))
    lines: list[str] = []
    assert choose_engine(rules, "auto", seats("ismcts"), lines.append, 10_000) == "python"
    assert lines == ["engine: python (the native engine plays random and greedy seats without parameters only)"]
    lines.clear()
    # An mcts seat searches in compiled code whichever engine applies the moves: nothing to say.
    assert choose_engine(rules, "auto", seats("mcts", "mcts"), lines.append, 10_000) == "python" and lines == []
    monkeypatch.setattr("cardrules.native.native_available", lambda: False)
    assert choose_engine(rules, "auto", seats("greedy"), lines.append, 10_000) == "python"
    assert lines == ["engine: python (the native engine needs Numba: pip install 'cardrules[native]')"]


def test_auto_names_what_the_native_engine_does_not_cover(tmp_path: Path) -> None:
    variant = tmp_path / "klondike-looks.yaml"  # a list of lists: the native backend does not cover it
    variant.write_text("extends: klondike\nruleset: klondike-looks\n"
                       "heuristic: \"size(list(list(c.rank for c in cards(p)) for p in tableau))\"\n")
    lines: list[str] = []
    assert choose_engine(load_ruleset(variant), "auto", seats("greedy"), lines.append, 10_000) == "python"
    assert len(lines) == 1 and lines[0].startswith("engine: python (the native engine does not cover this ruleset: ")


def test_an_unknown_engine_names_the_three(tmp_path: Path) -> None:
    rules = load_ruleset(fresh_ruleset(tmp_path))
    with pytest.raises(simulate_play.SimulateError, match="choose auto or python or native"):
        choose_engine(rules, "fast", seats("greedy"), print, 1)
    with pytest.raises(solver.SolveError, match="choose auto or python or native"):
        choose_solver_engine(rules, "fast", print)


def test_the_solver_searches_natively_where_auto_finds_it_pays(tmp_path: Path) -> None:
    rules = load_ruleset(fresh_ruleset(tmp_path))
    lines: list[str] = []
    assert choose_solver_engine(rules, "auto", lines.append, 1) == "python"
    assert len(lines) == 1 and "not compiled yet" in lines[0]
    lines.clear()
    assert choose_solver_engine(rules, "auto", lines.append, NATIVE_SOLVES_FROM) == "native"
    assert lines == [COMPILING]
    # `solve` itself resolves auto (here: not compiled, one deal: Python) and reports the engine that searched.
    result = solver.solve(rules, seed=1, thoughtful=True, timeout=20, engine="auto")
    assert result.engine == "python"


def test_simulate_defaults_to_auto_on_the_command_line_and_solve_takes_it(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    path = fresh_ruleset(tmp_path)
    runner = CliRunner()
    done = runner.invoke(app, ["simulate", str(path), "-n", "3"])
    assert done.exit_code == 0, done.output
    assert "engine: python (native code for this ruleset is not compiled yet" in done.output
    done = runner.invoke(app, ["solve", str(path), "--seed", "1", "--thoughtful", "--timeout", "20", "--engine", "auto"])
    assert done.exit_code == 0, done.output
    assert "engine: python (native code for this ruleset is not compiled yet" in done.stderr
    # solve's default is one engine (the two searches may find different solutions): nothing to say
    done = runner.invoke(app, ["solve", str(path), "--seed", "1", "--thoughtful", "--timeout", "20"])
    assert done.exit_code == 0 and done.stderr == "", done.output
