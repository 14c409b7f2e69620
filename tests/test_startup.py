"""Start-up: the command line and `import cardrules` load only what they use.

Each check runs in a fresh interpreter and reads `sys.modules` there, since this test
process has long imported everything.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

# What a command that does not load a ruleset must leave alone: the compiler and engine,
# the parsers of YAML, expressions and schemas, the terminal library and the saved-values store.
HEAVY = ("cardrules.python.engine", "cardrules.model.ruleset", "cardrules.front.compiler", "cardrules.python.movegen", "cardrules.front.parser",
         "cardrules.front.source", "cardrules.front.schema", "cardrules.storage.store", "lark", "yaml", "jsonschema", "rich",
         "platformdirs", "filelock")


def loaded_after(program: str, *argv: str, env: dict[str, str] | None = None) -> dict[str, object]:
    """Run `program` in a new interpreter; what it printed last (JSON) and the modules then loaded.

    The program may call `cli.main()` (which exits); the modules are reported at exit."""
    wrapper = ("import atexit, json, sys\n"
               "atexit.register(lambda: print('\\nMODULES ' + json.dumps(sorted(sys.modules)), flush=True))\n"
               + program)
    done = subprocess.run([sys.executable, "-c", wrapper, *argv], check=False, capture_output=True, text=True,
                          timeout=120, env=env)
    marker = done.stdout.rindex("MODULES ")
    return {"modules": set(json.loads(done.stdout[marker + len("MODULES "):])), "stdout": done.stdout[:marker],
            "stderr": done.stderr, "code": done.returncode}


def heavy_in(modules: object) -> list[str]:
    assert isinstance(modules, set)
    return sorted(m for m in modules if m.split(".")[0] in HEAVY or m in HEAVY)


def test_importing_the_command_line_loads_nothing_heavy() -> None:
    run = loaded_after("import cardrules.app.cli\n")
    assert run["code"] == 0, run["stderr"]
    assert heavy_in(run["modules"]) == []


def test_importing_the_package_loads_nothing_heavy_until_a_name_is_used() -> None:
    run = loaded_after("import cardrules\n"
                       "print(json.dumps(sorted(m for m in sys.modules if m.startswith('cardrules'))))\n"
                       "rules = cardrules.load_ruleset('klondike')\n"
                       "print(type(rules).__name__, rules.name)\n")
    assert run["code"] == 0, run["stderr"]
    lines = str(run["stdout"]).splitlines()
    assert json.loads(lines[0]) == ["cardrules"]
    assert lines[1] == "Ruleset klondike"
    assert {"cardrules.model.ruleset", "lark", "yaml"} <= run["modules"]  # type: ignore[operator]


@pytest.mark.parametrize("argv", [("--help",), ("--version",), ("validate", "--help"), ("play", "--help"),
                                  ("solve", "--help"), ("simulate", "--help"), ("compare", "--help"),
                                  ("rules", "--help")])
def test_help_and_version_load_nothing_heavy(argv: tuple[str, ...]) -> None:
    run = loaded_after("import cardrules.app.cli as cli\nsys.argv = ['cardrules'] + sys.argv[1:]\ncli.main()\n", *argv)
    assert run["code"] == 0, run["stderr"]
    assert "Usage: cardrules" in str(run["stdout"]) or argv == ("--version",)
    assert heavy_in(run["modules"]) == []


def test_version_prints_the_package_version() -> None:
    import cardrules

    done = subprocess.run([sys.executable, "-m", "cardrules.app.cli", "--version"], check=False, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0 and done.stdout == f"cardrules {cardrules.__version__}\n"


def test_schema_command_does_not_load_jsonschema_or_the_compiler() -> None:
    run = loaded_after("import cardrules.app.cli as cli\nsys.argv = ['cardrules', 'schema']\ncli.main()\n")
    assert run["code"] == 0, run["stderr"]
    assert json.loads(str(run["stdout"]))["title"] == "cardrules ruleset"
    assert heavy_in(run["modules"]) == ["cardrules.front.schema"]


def test_validate_loads_neither_the_terminal_library_nor_the_store(tmp_path: Path) -> None:
    # jsonschema only while the files are not known valid: the first time, not the second.
    env = {**os.environ, "CARDRULES_CACHE": str(tmp_path)}
    for known in (False, True):
        run = loaded_after("import cardrules.app.cli as cli\nsys.argv = ['cardrules', 'validate', 'klondike']\ncli.main()\n",
                           env=env)
        assert run["code"] == 0, run["stderr"]
        assert str(run["stdout"]).startswith("ok  klondike")
        modules = run["modules"]
        assert isinstance(modules, set)
        assert ("jsonschema" in modules) is not known and "cardrules.model.ruleset" in modules
        assert not {"rich", "cardrules.storage.store", "platformdirs", "filelock", "cardrules.app.play"} & modules


def test_the_lazy_package_names_are_the_modules_own() -> None:
    import cardrules
    import cardrules.python.engine
    import cardrules.base.errors
    import cardrules.model.ruleset
    import cardrules.python.load

    assert cardrules.Game is cardrules.python.engine.Game and cardrules.Move is cardrules.python.engine.Move
    assert cardrules.load_ruleset is cardrules.python.load.load_ruleset
    assert cardrules.CardrulesError is cardrules.base.errors.CardrulesError
    assert set(cardrules.__all__) <= set(dir(cardrules))
    for name in cardrules.__all__:
        assert getattr(cardrules, name) is not None
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        cardrules.nope  # noqa: B018 - the lookup is the test


def test_star_import_gives_every_public_name() -> None:
    namespace: dict[str, object] = {}
    exec("from cardrules import *", namespace)  # noqa: S102 - a fixed statement
    import cardrules

    assert {name for name in namespace if not name.startswith("__")} == set(cardrules.__all__)
