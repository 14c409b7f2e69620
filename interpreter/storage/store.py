"""Per-user storage of `persist` variables (for example the cumulative Vegas balance).

One JSON file in the user's data directory (platformdirs; `CARDRULES_HOME`
overrides it), keyed by the ruleset's data key (`ruleset.data_key`), then by variable: an integer,
true/false, or for a per-player variable a list of those by seat.

The data key is what every per-user datum of a ruleset is kept under (its persistent values
here, its saves and statistics in `storage/saves.py`), and no file can forge it: a bundled ruleset (its
file in the package's rulesets folder) keeps its own name; any
other file is keyed by the name it declares and its resolved path
(`my-vegas (/home/me/games/my-vegas.yaml)`), so a file declaring a bundled ruleset's name, or
a variant that `extends:` one, never reads nor changes the bundled ruleset's data.

A game reads the values when it starts (`load`) and applies its *change* when it
ends (`save`): holding a lock shared by every cardrules process (`persistent.json.lock`
beside the file), it reads the current values, adds each integer's change (a
true/false value is written only if the game changed it) and writes the file
atomically: a temporary file in the same folder, flushed to disk, then renamed over
the old one. So games played in parallel all count.

Saved values are checked strictly. A file that does not parse, is over 1 MB, or
holds anything but 64-bit integers and true/false (of the type each variable has)
raises `SaveError` naming the file, the ruleset and the variable, and is never
overwritten; `reset` keeps a copy of it before starting afresh.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from filelock import FileLock, Timeout
from platformdirs import user_data_dir

from ..base.errors import SaveError
from ..base.limits import MAX_FILE_BYTES
from ..model.persisted import Unkept, describe_value, parse_int, problem_of, scalar_problem, value_problem
from ..model.ruleset import data_key  # what the store is keyed by (storage/saves.py and the CLI use it too)

if TYPE_CHECKING:
    from ..model.ruleset import Ruleset
    from ..python.engine import Game

LOCK_TIMEOUT = 30.0      # seconds a game's end waits for another process's save before giving up
MAX_BYTES = MAX_FILE_BYTES  # a bigger store is reported as corrupt, not read
FIX = "fix the file or run `cardrules reset` to start afresh (a copy is kept)"


def data_dir() -> Path:
    """The user's cardrules data folder (`CARDRULES_HOME` overrides it): the store, saved games, statistics."""
    home = os.environ.get("CARDRULES_HOME")
    return Path(home) if home else Path(user_data_dir("cardrules", appauthor=False))


def store_path() -> Path:
    return data_dir() / "persistent.json"


def lock_path(path: Path) -> Path:
    """The lock file that guards the store at `path`."""
    return path.with_name(path.name + ".lock")


def _corrupt(path: Path, what: str) -> SaveError:
    return SaveError(f"{path}: the saved values are corrupt ({what}); {FIX}")


def _where(ruleset: str, name: str, problem: str) -> str:
    return f"{ruleset}, variable `{name}`: {problem}"


def read_json(path: Path, limit: int, corrupt: Callable[[str, str], SaveError]) -> Any:
    """A per-user JSON file of at most `limit` bytes, parsed; None if there is none. NaN, Infinity
    and integers of more than 20 characters are read as values no check accepts (`Unkept`).
    `corrupt(where, problem)` is the error for a file that does not read as JSON (`where`: its
    path, with the line and column where JSON says so)."""
    try:
        with open(path, "rb") as handle:
            raw = handle.read(limit + 1)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise SaveError(f"cannot read {path}: {exc}") from None
    if len(raw) > limit:
        raise corrupt(str(path), f"larger than {limit:,} bytes")
    try:
        return json.loads(raw.decode("utf-8"), parse_constant=Unkept, parse_int=parse_int)
    except UnicodeDecodeError as exc:
        raise corrupt(str(path), f"not UTF-8 text: {exc.reason} at byte {exc.start}") from None
    except json.JSONDecodeError as exc:
        raise corrupt(f"{path}:{exc.lineno}:{exc.colno}", exc.msg) from None
    except (ValueError, RecursionError) as exc:
        raise corrupt(str(path), "nested too deeply" if isinstance(exc, RecursionError) else str(exc)) from None


def _read_all(path: Path) -> dict[str, dict[str, Any]]:
    """Every saved value, checked: integers in the 64-bit range and true/false, or lists of those."""
    data = read_json(path, MAX_BYTES, lambda where, problem: SaveError(
        f"{where}: the saved values are corrupt ({problem}); {FIX}"))
    if data is None:
        return {}
    if not isinstance(data, dict) or not all(isinstance(v, dict) for v in data.values()):
        raise _corrupt(path, "expected an object of objects")
    for ruleset, values in data.items():
        for name, value in values.items():
            problem = problem_of(value, None, None)
            if problem:
                raise _corrupt(path, _where(ruleset, name, problem))
    return data


def write_json(path: Path, data: Any) -> None:
    """Write `data` as JSON to `path` atomically: a temporary file in the same folder, flushed to
    disk, then renamed over the old one (a reader sees the old file or the new, never a part)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.stem}-", suffix=".json", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(data, handle, indent=2, sort_keys=True)
            handle.write("\n")
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


@contextmanager
def locked(path: Path) -> Iterator[None]:
    """Hold the lock of the file at `path`, shared by every cardrules process (waiting at most
    `LOCK_TIMEOUT` seconds for another process)."""
    lock = lock_path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with FileLock(lock, timeout=LOCK_TIMEOUT):
            yield
    except Timeout:
        raise SaveError(f"another cardrules process holds {path}: gave up after waiting "
                        f"{LOCK_TIMEOUT:g} s for its lock file {lock}") from None
    except OSError as exc:
        raise SaveError(f"cannot update {path}: {exc}") from None


def load(rules: Ruleset | str) -> dict[str, Any]:
    """The saved values of a ruleset's `persist` variables (empty if none), under its `data_key`,
    each checked against its variable: a list by seat for a per-player one, of the variable's
    type. Given only a key, every value saved under it (checked as integers or true/false)."""
    path = store_path()
    data = _read_all(path)
    if isinstance(rules, str):
        return dict(data.get(rules, {}))
    key = data_key(rules)
    saved = data.get(key, {})
    values: dict[str, Any] = {}
    for variable in rules.variables.values():
        if variable.persist and variable.name in saved:
            value = saved[variable.name]
            problem = value_problem(variable, value)
            if problem:
                raise _corrupt(path, _where(key, variable.name, problem))
            values[variable.name] = value
    return values  # values of variables the ruleset no longer has stay in the file, unused


def _changed(current: Any, start: Any, end: Any) -> Any:
    """One saved value after a game's change: an integer gains `end - start`; any other value
    becomes `end` if the game changed it. Raises ValueError if `current` is not of `start`'s type."""
    kind = bool if isinstance(start, bool) else int if isinstance(start, int) else None
    problem = scalar_problem(current, kind)
    if problem:
        raise ValueError(problem)
    if kind is int:
        return current + (end - start)
    return end if end != start else current


def _apply(current: Any, start: Any, end: Any) -> Any:
    """A saved value (None if there is none) after a game's change; a list seat by seat (a list
    shorter than the seats is first extended with the game's start values)."""
    if not isinstance(start, list):
        if isinstance(current, list):
            raise ValueError("a list where a single value is expected")
        return _changed(start if current is None else current, start, end)
    if current is None:
        current = []
    if not isinstance(current, list):
        raise ValueError(f"{describe_value(current)} where a list by seat is expected")
    result = list(current) + start[len(current):]
    for seat, (s, e) in enumerate(zip(start, end)):
        try:
            result[seat] = _changed(result[seat], s, e)
        except ValueError as exc:
            raise ValueError(f"seat {seat + 1}: {exc}") from None
    return result


def save(ruleset: str, start: dict[str, Any], end: dict[str, Any]) -> None:
    """Apply one game's change to the saved values under the key `ruleset` (`data_key`), atomically and under the
    store's lock, so that games ending at the same time all count. `start` holds the values the
    game began with (before its setup), `end` those it ended with; see `_changed`."""
    if all(value == start.get(name, value) for name, value in end.items()):
        return  # no change: nothing to write
    path = store_path()
    with locked(path):
        data = _read_all(path)
        values = dict(data.get(ruleset, {}))
        for name, value in end.items():  # an unchanged value is kept (written if it was missing)
            if name not in start:
                continue
            try:
                new = _apply(values.get(name), start[name], value)
            except ValueError as exc:
                raise _corrupt(path, _where(ruleset, name, str(exc))) from None
            problem = problem_of(new, None, None)
            if problem:
                raise SaveError(f"cannot save `{name}` of {ruleset} in {path}: {problem}; nothing was saved")
            values[name] = new
        data[ruleset] = values
        write_json(path, data)


def save_game(game: Game) -> None:
    """Apply a game's change to its `persist` values to the store (other games' changes are kept)."""
    save(data_key(game.rules), game.persisted_start, game.persistent_values())


def reset(ruleset: str) -> Path | None:
    """Forget the saved values under the key `ruleset` (`data_key`). Returns where a corrupt
    store was copied, if it was."""
    path = store_path()
    if not path.exists():
        return None
    with locked(path):
        try:
            data = _read_all(path)
            backup = None
        except SaveError:
            stamp = time.strftime("%Y%m%d-%H%M%S")
            fd, name = tempfile.mkstemp(prefix=f"persistent.corrupt-{stamp}-", suffix=".json", dir=path.parent)
            os.close(fd)
            backup = Path(name)  # a new name each time: an earlier copy is never overwritten
            os.replace(path, backup)
            data = {}
        if ruleset in data or backup is not None:
            data.pop(ruleset, None)
            write_json(path, data)
    return backup
