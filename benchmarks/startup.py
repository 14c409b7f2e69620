"""Benchmark: how long cardrules takes to start, in CPU seconds, against the goals of issue 13.

    python benchmarks/startup.py [--repeat N] [--ruleset NAME] [--pythonpath DIR]

Each command runs in a new process, as a person runs it; its CPU time (user and system) is
read with `resource.getrusage(RUSAGE_CHILDREN)` around the process. The warm load is timed
with `time.process_time` inside one process: the ruleset is loaded once, then timed loading
again. Every figure is the median of `--repeat` runs (the fastest in brackets).

The processes keep what they keep between runs (`CARDRULES_CACHE`) in a folder of this run:
`validate` is timed once with the files' schema verdicts kept (as after any earlier load of
the same files: the bundled rulesets, a file not changed since), and once with an empty
folder each time (the first check of a file just written or changed, which imports jsonschema).

`--pythonpath DIR` puts DIR first on the path of every process measured, to time another copy
of the package (a directory holding a `cardrules` package, e.g. a checkout's `interpreter/`
linked as `DIR/cardrules`), so that figures before and after a change can be compared.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence

# (what, goal in CPU seconds or None); the commands are filled in by `main`.
GOALS = {
    "cardrules --help": 0.15,
    "cardrules --version": 0.15,
    "cardrules validate --help": 0.15,
    "cardrules validate {ruleset}": 0.30,
    "cardrules validate {ruleset}, first check of the files (no schema verdicts kept)": 0.30,
    "cold: load_ruleset('{ruleset}') in a new python": None,
    "warm: load_ruleset('{ruleset}') again in one process": 0.020,
    "floor: python -c pass": None,
    "floor: import typer and pydantic (what parsing a subcommand's arguments imports)": None,
}

WARM = """
import json, sys, time
from cardrules import load_ruleset
load_ruleset(sys.argv[1])
times = []
for _ in range(int(sys.argv[2])):
    started = time.process_time()
    load_ruleset(sys.argv[1])
    times.append(time.process_time() - started)
print(json.dumps(times))
"""

# The expression parsers from the shipped tables against built from the grammar, in one process
# (`grammar/expressions.tables.json`: shipping them is worth it only if loading is much cheaper).
PARSE_TABLES = """
import json, sys, time
from cardrules.front import parser
parser._tables()
loaded, built = [], []
for _ in range(int(sys.argv[1])):
    started = time.process_time()
    for start in parser.STARTS:
        assert parser._load_parser(start) is not None, "the shipped tables were not written by this Lark"
    loaded.append(time.process_time() - started)
    started = time.process_time()
    for start in parser.STARTS:
        parser.build_parser(start)
    built.append(time.process_time() - started)
print(json.dumps([loaded, built]))
"""


def child_cpu(argv: Sequence[str], env: dict[str, str]) -> float | str:
    """CPU seconds (user + system) that running `argv` to its end took, or why it failed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        lines = [line.strip("│╭╰─╮╯ ") for line in done.stderr.splitlines()]
        return f"failed (exit status {done.returncode}: {next((text for text in reversed(lines) if text), '?')})"
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


# What the installed `cardrules` script runs (pip's entry-point script, less its regular expression).
CARDRULES = [sys.executable, "-c", "import sys\nfrom cardrules.app.cli import main\nsys.argv[0] = 'cardrules'\nmain()"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=5, help="runs of each measurement (default 5)")
    parser.add_argument("--ruleset", default="klondike", help="the ruleset to validate and load (default klondike)")
    parser.add_argument("--pythonpath", help="a directory put first on the path of every process measured")
    args = parser.parse_args()

    env = dict(os.environ)
    cache = tempfile.TemporaryDirectory(prefix="cardrules-startup-")
    env["CARDRULES_CACHE"] = os.path.join(cache.name, "kept")
    if args.pythonpath:
        env["PYTHONPATH"] = os.pathsep.join([args.pythonpath, *filter(None, [env.get("PYTHONPATH")])])
    cli = CARDRULES
    name = args.ruleset
    commands = {
        "cardrules --help": [*cli, "--help"],
        "cardrules --version": [*cli, "--version"],
        "cardrules validate --help": [*cli, "validate", "--help"],
        "cardrules validate {ruleset}": [*cli, "validate", name],
        "cardrules validate {ruleset}, first check of the files (no schema verdicts kept)": [*cli, "validate", name],
        "cold: load_ruleset('{ruleset}') in a new python": [
            sys.executable, "-c", f"from cardrules import load_ruleset; load_ruleset({name!r})"],
        "floor: python -c pass": [sys.executable, "-c", "pass"],
        "floor: import typer and pydantic (what parsing a subcommand's arguments imports)": [
            sys.executable, "-c", "import typer, pydantic"],
    }
    located = subprocess.run([sys.executable, "-c", "import cardrules; print(cardrules.__file__)"], env=env,
                             capture_output=True, text=True, check=True).stdout.strip()
    subprocess.run(commands["cardrules validate {ruleset}"], env=env, capture_output=True, check=False)  # verdicts kept
    print(f"cardrules start-up, CPU seconds (user + system): median of {args.repeat} (fastest)")
    print(f"  package: {located}")
    print(f"  python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs"
          + ("; PYTHONDONTWRITEBYTECODE is set: cardrules' own modules are compiled from source in every "
             "process (an installed copy has .pyc files)" if env.get("PYTHONDONTWRITEBYTECODE")
             and not os.path.exists(importlib.util.cache_from_source(located)) else ""))
    print()
    for what, goal in GOALS.items():
        if what.startswith("warm:"):
            out = subprocess.run([sys.executable, "-c", WARM, name, str(args.repeat)], env=env, capture_output=True,
                                 text=True, check=True).stdout
            runs = json.loads(out.strip().splitlines()[-1])
        else:
            if what.startswith("cardrules validate {ruleset},"):  # an empty cache folder for each run
                results = [child_cpu(commands[what], {**env, "CARDRULES_CACHE": os.path.join(cache.name, f"empty-{i}")})
                           for i in range(args.repeat)]
            else:
                results = [child_cpu(commands[what], env) for _ in range(args.repeat)]
            failed = [r for r in results if isinstance(r, str)]
            if failed:
                print(f"  {what.format(ruleset=name):<84} {failed[0]}")
                continue
            runs = [r for r in results if isinstance(r, float)]
        median, fastest = statistics.median(runs), min(runs)
        verdict = "" if goal is None else f"goal <= {goal:.3f}  {'met' if median <= goal else 'NOT MET'}"
        print(f"  {what.format(ruleset=name):<84} {median:7.3f} ({fastest:.3f})   {verdict}")
    out = subprocess.run([sys.executable, "-c", PARSE_TABLES, str(args.repeat)], env=env, capture_output=True,
                         text=True, check=True).stdout
    loaded, built = (statistics.median(runs) for runs in json.loads(out.strip().splitlines()[-1]))
    print(f"  {'expression parsers, one process: from the shipped tables / built from the grammar':<84} "
          f"{loaded:7.3f} / {built:.3f}  ({built / loaded:.0f}x)")


if __name__ == "__main__":
    main()
