"""Per-user storage of `persist` variables (for example the cumulative Vegas balance).

One JSON file in the user's data directory (platformdirs; `CARDRULES_HOME`
overrides it), keyed by ruleset name. Writes are atomic: a temporary file in the
same folder, flushed to disk, then renamed over the old one. A corrupt file is
never overwritten silently: reading it raises `SaveError` naming the file, and
`reset` keeps a copy of it before starting afresh.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from platformdirs import user_data_dir

from .errors import SaveError


def store_path() -> Path:
    home = os.environ.get("CARDRULES_HOME")
    base = Path(home) if home else Path(user_data_dir("cardrules", appauthor=False))
    return base / "persistent.json"


def _read_all(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise SaveError(f"cannot read {path}: {exc}") from None
    except json.JSONDecodeError as exc:
        raise SaveError(f"{path}:{exc.lineno}:{exc.colno}: the saved values are corrupt ({exc.msg}); "
                        f"fix the file or run `cardrules reset` to start afresh (a copy is kept)") from None
    if not isinstance(data, dict) or not all(isinstance(v, dict) for v in data.values()):
        raise SaveError(f"{path}: the saved values are corrupt (expected an object of objects); "
                        f"fix the file or run `cardrules reset` to start afresh (a copy is kept)")
    return data


def _write_all(path: Path, data: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".persistent-", suffix=".json", dir=path.parent)
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


def load(ruleset: str) -> dict[str, Any]:
    """The saved values of one ruleset (empty if none)."""
    return dict(_read_all(store_path()).get(ruleset, {}))


def save(ruleset: str, values: dict[str, Any]) -> None:
    """Replace the saved values of one ruleset, atomically."""
    if not values:
        return
    path = store_path()
    data = _read_all(path)
    data[ruleset] = values
    _write_all(path, data)


def reset(ruleset: str) -> Path | None:
    """Forget one ruleset's saved values. Returns where a corrupt store was copied, if it was."""
    path = store_path()
    try:
        data = _read_all(path)
        backup = None
    except SaveError:
        backup = path.with_name(f"persistent.corrupt-{int(time.time())}.json")
        os.replace(path, backup)
        data = {}
    if ruleset in data or backup is not None:
        data.pop(ruleset, None)
        _write_all(path, data)
    return backup
