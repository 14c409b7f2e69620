"""cardrules: card games as data, run by one generic interpreter.

    >>> from cardrules import load_ruleset
    >>> rules = load_ruleset("path/to/game.yaml", options={"draw": 3})
    >>> game = rules.new_game(seed=7)
    >>> game.apply(game.legal_moves()[0])

Packages by stage, each importing only those below it (docs/design.md): app (the command
line, the terminal table) -> workbench (simulate, compare, solve, describe) -> agents (bots,
environments) and storage (kept values, saved games) -> the two backends, python (the
reference: Game, Move) and native (Numba) -> model (the loaded Ruleset) -> front (source,
schema, variants, decks, parser, compiler) -> base (errors, limits, files).

The public names are imported on first use (PEP 562), so `import cardrules` (and the
command line's `--help`) does not load the compiler, Lark, jsonschema or YAML.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .python.engine import Game, Move
    from .base.errors import (
        ArgumentError,
        CardrulesError,
        DealError,
        ExpressionSyntaxError,
        IllegalMoveError,
        RulesetError,
        RulesetRuntimeError,
        SaveError,
        SetupError,
        format_error,
    )
    from .model.ruleset import Ruleset, find_ruleset
    from .python.load import load_ruleset

# Each public name and the module that defines it.
_HOMES = {
    "Game": "python.engine", "Move": "python.engine",
    "Ruleset": "model.ruleset", "find_ruleset": "model.ruleset", "load_ruleset": "python.load",
    "ArgumentError": "base.errors", "CardrulesError": "base.errors", "DealError": "base.errors",
    "ExpressionSyntaxError": "base.errors", "IllegalMoveError": "base.errors", "RulesetError": "base.errors",
    "RulesetRuntimeError": "base.errors", "SaveError": "base.errors", "SetupError": "base.errors",
    "format_error": "base.errors",
}

__all__ = [
    "ArgumentError", "CardrulesError", "DealError", "ExpressionSyntaxError", "Game", "IllegalMoveError", "Move", "Ruleset",
    "RulesetError", "RulesetRuntimeError", "SaveError", "SetupError", "find_ruleset", "format_error", "load_ruleset",
]
__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f".{home}", __name__), name)
    globals()[name] = value  # found once; later lookups do not come here
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
