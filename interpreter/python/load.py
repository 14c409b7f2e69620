"""The Python backend's entry: `load_ruleset` and `check_ruleset` (model/ruleset.py) building for
this backend, whose listing (movegen) and apply (applygen) functions the build writes and whose
`Game` (engine) plays. `cardrules.load_ruleset` is this one; the native backend lowers a ruleset
loaded here (`cardrules.native.native_backend`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..model import ruleset as building
from ..model.game_backend import GameBackend
from ..model.rules import Ruleset
from .applygen import ApplyGenerator
from .movegen import MoveGenerator


def _game(rules: Ruleset, **how: Any) -> Any:
    """A `Game` of `rules` (`Ruleset.new_game`); the engine is imported when a game first starts,
    so `validate` and `rules` never load it."""
    from .engine import Game

    return Game(rules, **how)


PYTHON = GameBackend("python", MoveGenerator, ApplyGenerator, _game)


def load_ruleset(name_or_path: str | Path, options: dict[str, Any] | None = None,
                 search_path: tuple[str | Path, ...] = ()) -> Ruleset:
    """Load, validate and compile a ruleset. `options` maps option names to values (or their text).

    The ruleset may name (in `extends:` and `deck:`) files in its own folder tree and the bundled
    rulesets; `search_path` adds folders."""
    return building.load_ruleset(name_or_path, options, search_path, backend=PYTHON)


def check_ruleset(name_or_path: str | Path, most: int = 256,
                  search_path: tuple[str | Path, ...] = ()) -> tuple[Ruleset, int]:
    """Load a ruleset under every combination of its option values (`validate`'s check; see
    model/ruleset.py): the ruleset with default options and the number of combinations checked."""
    return building.check_ruleset(name_or_path, most, search_path, backend=PYTHON)
