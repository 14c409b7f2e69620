"""cardrules: card games as data, run by one generic interpreter.

    >>> from cardrules import load_ruleset
    >>> rules = load_ruleset("path/to/game.yaml", options={"draw": 3})
    >>> game = rules.new_game(seed=7)
    >>> game.apply(game.legal_moves()[0])

Pipeline, one module per stage: source (YAML with positions) -> schema (JSON
Schema) -> parser (Lark expressions) -> compiler (checked, to Python) ->
ruleset (the compiled game) -> engine (states, moves, undo, views).
"""

from .engine import Game, Move
from .errors import (ArgumentError, CardrulesError, DealError, ExpressionSyntaxError, IllegalMoveError, RulesetError,
                     RulesetRuntimeError, SaveError, SetupError, format_error)
from .ruleset import Ruleset, find_ruleset, load_ruleset

__all__ = [
    "ArgumentError", "CardrulesError", "DealError", "ExpressionSyntaxError", "Game", "IllegalMoveError", "Move", "Ruleset",
    "RulesetError", "RulesetRuntimeError", "SaveError", "SetupError", "find_ruleset", "format_error", "load_ruleset",
]
__version__ = "0.1.0"
