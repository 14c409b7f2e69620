"""A normal (non-editable) install works from anywhere: the wheel carries the grammar and rulesets."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from conftest import ROOT


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, f"{' '.join(args)}\n{result.stdout}\n{result.stderr}"
    return result


def test_wheel_installs_into_a_fresh_venv_and_validates_every_bundled_ruleset(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    _run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(dist), str(ROOT)],
         cwd=tmp_path)
    wheel = next(dist.glob("cardrules-*.whl"))
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", str(venv)], cwd=tmp_path)
    bin_dir = venv / ("Scripts" if sys.platform == "win32" else "bin")
    _run([str(bin_dir / "python"), "-m", "pip", "install", "--quiet", str(wheel)], cwd=tmp_path)

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    located = _run([str(bin_dir / "python"), "-c", "import cardrules; print(cardrules.__file__)"], cwd=elsewhere)
    assert str(venv) in located.stdout  # the installed copy, not the source tree

    names = sorted(p.stem for p in (ROOT / "rulesets").glob("*.yaml"))
    cardrules = str(bin_dir / "cardrules")
    validated = _run([cardrules, "validate", *names], cwd=elsewhere)
    for name in names:
        assert f"ok  {name}" in validated.stdout
    listed = _run([cardrules, "list"], cwd=elsewhere)
    assert all(name in listed.stdout for name in names)
    played = _run([cardrules, "play", "klondike", "--seed", "4", "--seat", "1=random", "--json"], cwd=elsewhere)
    assert json.loads(played.stdout)["outcome"] in ("won", "lost", "limit")
    schema = _run([cardrules, "schema"], cwd=elsewhere)
    assert json.loads(schema.stdout)["title"] == "cardrules ruleset"
    import zipfile

    with zipfile.ZipFile(wheel) as built:  # the browser table's page travels with the package
        assert {"cardrules/web/static/table.html", "cardrules/web/static/table.js", "cardrules/web/static/lobby.html",
                "cardrules/web/static/lobby.js", "cardrules/web/static/lobby.css",
                "cardrules/web/static/table.css"} <= set(built.namelist())
    refused = subprocess.run([cardrules, "serve", "klondike"], cwd=elsewhere, capture_output=True, text=True)
    assert refused.returncode == 1 and "needs the web extra" in refused.stderr and "Traceback" not in refused.stderr
