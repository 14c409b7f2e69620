"""Where compiled modules live: a folder only this user may write (`CARDRULES_CACHE`, else the
user's cache folder), each module written whole under the hash of its source and loaded
from there, never through a link.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from ..base import resources
from ..base.errors import CacheError


def cache_dir() -> Path:
    """Where compiled modules are kept: `native` in `CARDRULES_CACHE`, else in the user cache folder."""
    return resources.cache_dir("native")


def _private_cache_dir() -> Path:
    """The folder of compiled modules, made and checked (`resources.private_cache_dir`) with its
    `__pycache__`, where Numba keeps its index files (unpickled when a module loads): both only
    this user may write, or a `CacheError`. Where `NUMBA_CACHE_DIR` sends Numba's files
    elsewhere, that folder is held to the same rule."""
    folder = resources.private_cache_dir("native", ("__pycache__",))
    numba_cache = os.environ.get("NUMBA_CACHE_DIR")
    if numba_cache and os.path.exists(numba_cache):
        problem = resources.cache_problem(Path(numba_cache))
        if problem:
            raise CacheError(f"NUMBA_CACHE_DIR {numba_cache} {problem}: Numba loads the compiled code kept there, "
                             f"so cardrules uses only a folder no other user can write; make it yours "
                             f"(chmod go-w), or unset NUMBA_CACHE_DIR")
    return folder


def _read_unfollowed(path: Path) -> str | None:
    """The text of the file at `path`, None if there is none or it is a symbolic link (never followed)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    with os.fdopen(fd, encoding="utf-8") as handle:
        return handle.read()


def _write_module(path: Path, source: str) -> None:
    """Write a generated module whole (whatever other processes do): into a new temporary file of
    the folder (made with O_EXCL, so never through a link planted there), then renamed over `path`
    (which replaces a link at `path`, never what it points to)."""
    fd, temp = tempfile.mkstemp(prefix=f".{path.stem}-", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(source)
        os.replace(temp, path)
    except BaseException:
        if os.path.lexists(temp):
            os.unlink(temp)
        raise


def _first_line(exc: BaseException) -> str:
    """The line of a Numba error that says what failed (its message repeats 'Failed in ... mode
    pipeline' once per function it passed through)."""
    lines = [line for line in str(exc).splitlines() if line.strip() and not line.startswith("Failed in ")]
    return lines[0][:200] if lines else type(exc).__name__


def _load_module(source: str) -> Any:
    digest = hashlib.sha256(source.encode()).hexdigest()[:24]
    name = f"cardrules_native_{digest}"
    if name in sys.modules:
        return sys.modules[name]
    folder = _private_cache_dir()
    path = folder / f"{name}.py"
    if _read_unfollowed(path) != source:
        _write_module(path, source)
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
