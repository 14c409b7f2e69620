"""Where the installed package keeps its grammar, schema and bundled rulesets.

In a wheel they are the subpackages `cardrules.grammar` and `cardrules.rulesets`;
in a source checkout they are the top-level folders `grammar/` and `rulesets/`.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from .errors import CacheError

_PACKAGE_DIR = Path(__file__).resolve().parent.parent  # the cardrules package (interpreter/ in a checkout)


def _first_existing(*candidates: Path) -> Path:
    for candidate in candidates:
        if candidate.is_dir():
            return candidate
    return candidates[0]


def grammar_dir() -> Path:
    return _first_existing(_PACKAGE_DIR / "grammar", _PACKAGE_DIR.parent / "grammar")


def rulesets_dir() -> Path:
    return _first_existing(_PACKAGE_DIR / "rulesets", _PACKAGE_DIR.parent / "rulesets")


def cache_root() -> Path:
    """The folder of everything cardrules keeps between processes: `CARDRULES_CACHE`, else
    `cardrules` in the user's cache folder."""
    override = os.environ.get("CARDRULES_CACHE")
    if override:
        return Path(override)
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("cardrules"))


def cache_dir(kind: str) -> Path:
    """Where what cardrules keeps between processes of one kind goes (`native` modules, `schema`
    verdicts): a folder under `cache_root()`. Everything in it may be deleted at any time."""
    return cache_root() / kind


def cache_problem(folder: Path) -> str | None:
    """Why code or verdicts must not be loaded from `folder` (it is not a folder, another user owns
    it, or users other than its owner may write it), or None. Root is held to it too: a folder
    others may write is refused whoever runs. Where the system has no user ids (Windows), None."""
    if not hasattr(os, "geteuid"):
        return None
    try:
        info = os.stat(folder)
    except OSError as exc:
        return f"cannot be read ({exc.strerror or exc})"
    if not stat.S_ISDIR(info.st_mode):
        return "is not a folder"
    if info.st_uid != os.geteuid():
        return f"belongs to another user (uid {info.st_uid}, you are {os.geteuid()})"
    if info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return f"may be written by other users (mode {stat.S_IMODE(info.st_mode):04o})"
    return None


def private_cache_dir(kind: str, inner: tuple[str, ...] = ()) -> Path:
    """`cache_dir(kind)`, made if missing (each folder made only its owner may use, mode 0700) and
    checked with `cache_problem`, as are the folders `inner` within it (made the same way), and
    the cache root: what is loaded from it runs as this process, so a folder another user could
    write is refused with a `CacheError`, never used."""
    root = cache_root()
    folder = root / kind
    made_only = [parent for parent in root.parents if not parent.exists()]  # made private, not checked
    checked = [root, folder, *(folder / name for name in inner)]
    for level in [*reversed(made_only), *checked]:
        try:
            os.mkdir(level, 0o700)
        except FileExistsError:
            pass
        except OSError as exc:
            raise CacheError(f"cannot make the cache folder {level}: {exc.strerror or exc}") from None
        problem = cache_problem(level) if level in checked else None
        if problem:
            raise CacheError(f"the cache folder {level} {problem}: the compiled code kept there runs when it is "
                             f"loaded, so cardrules uses only a folder no other user can write; make it yours "
                             f"(chmod go-w), delete it, or set CARDRULES_CACHE to another folder")
    return folder
