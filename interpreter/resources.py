"""Where the installed package keeps its grammar, schema and bundled rulesets.

In a wheel they are the subpackages `cardrules.grammar` and `cardrules.rulesets`;
in a source checkout they are the top-level folders `grammar/` and `rulesets/`.
"""

from __future__ import annotations

import os
from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent


def _first_existing(*candidates: Path) -> Path:
    for candidate in candidates:
        if candidate.is_dir():
            return candidate
    return candidates[0]


def grammar_dir() -> Path:
    return _first_existing(_PACKAGE_DIR / "grammar", _PACKAGE_DIR.parent / "grammar")


def rulesets_dir() -> Path:
    return _first_existing(_PACKAGE_DIR / "rulesets", _PACKAGE_DIR.parent / "rulesets")


def cache_dir(kind: str) -> Path:
    """Where what cardrules keeps between processes of one kind goes (`native` modules, `schema`
    verdicts): a folder under `CARDRULES_CACHE`, else under the user's cache folder. Everything in
    it may be deleted at any time."""
    override = os.environ.get("CARDRULES_CACHE")
    if override:
        return Path(override) / kind
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("cardrules")) / kind
