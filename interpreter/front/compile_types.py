"""Stage 4's vocabulary: the static types of expressions, the `Scope` a name is resolved in, a ruleset
`Function`, the `Compiled` result, and the errors the checker raises (front/checker.py)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from .parser import Node

# Types are plain strings: int bool str card cards pile piles list pairs none any, and subsets (of a
# list of cards, or of another list), which only a comprehension walks.
INT, BOOL, STR, CARD, CARDS, PILE, PILES, LIST, PAIRS, PAIRS_ANY, NONE, ANY = (
    "int", "bool", "str", "card", "cards", "pile", "piles", "list", "pairs", "pairs_any", "none", "any")
SUBSETS, SUBSETS_ANY = "subsets", "subsets_any"

_TYPE_WORDS = {INT: "a number", BOOL: "a truth value", STR: "a string", CARD: "a card", CARDS: "a list of cards",
               PILE: "a pile", PILES: "a list of piles", LIST: "a list", PAIRS: "a list of pairs of cards",
               PAIRS_ANY: "a list of pairs", SUBSETS: "the subsets of a list of cards",
               SUBSETS_ANY: "the subsets of a list",
               NONE: "none", ANY: "a value"}


class CompileError(Exception):
    """A static error in an expression; `offset` points into the expression string."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset


@dataclass(frozen=True)
class Compiled:
    source: str
    type: str
    const: bool = False
    value: Any = None
    total: bool = False  # cannot fail when it runs (see the module's docstring)
    none: bool = True  # may be `none` (a card attribute may be: `top(p).rank` of an empty pile)


@dataclass
class Function:
    """A ruleset function: parameters and body, inlined where called."""

    name: str
    params: tuple[str, ...]
    body: Node
    # Where the body came from, to report errors inside it.
    locate: Callable[[int], Any] | None = None


@dataclass
class Scope:
    """Everything a name in an expression can mean, for one context."""

    bindings: dict[str, tuple[str, str]] = field(default_factory=dict)  # DSL name -> (python expr, type)
    variables: dict[str, tuple[int, str, bool]] = field(default_factory=dict)  # name -> (slot, type, per_player)
    # name -> (piles, is_single, is_per_player)
    zones: dict[str, tuple[tuple[int, ...], bool, bool]] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    card_attributes: dict[str, str] = field(default_factory=dict)  # name -> type
    functions: dict[str, Function] = field(default_factory=dict)
    # Python locals already holding a pile's card list, by the pile's source: {"b_dst": "pile_dst"}.
    pile_aliases: dict[str, str] = field(default_factory=dict)
    # The expression takes part in listing the legal moves (a move's when, take, match, select,
    # for_seat), where `legal_moves()` would list them inside their own listing.
    listing: bool = False
    # Options as values given when the game starts, of these types (a backend that serves every
    # option combination: native), rather than the constants `options` gives.
    option_kinds: dict[str, str] | None = None
    # Per-card variables (marks on cards): name -> (first slot, type); card c's value is at slot + c.
    card_variables: dict[str, tuple[int, str]] = field(default_factory=dict)

    def with_bindings(self, extra: dict[str, tuple[str, str]], pile_aliases: dict[str, str] | None = None) -> "Scope":
        merged = dict(self.bindings)
        merged.update(extra)
        rebound = {code for code, _ in extra.values()}  # a name bound anew no longer holds the aliased pile
        aliases = {code: local for code, local in self.pile_aliases.items() if code not in rebound}
        aliases.update(pile_aliases or {})
        return Scope(merged, self.variables, self.zones, self.options, self.card_attributes, self.functions, aliases,
                     self.listing, self.option_kinds, self.card_variables)


class TooLargeError(CompileError):
    """An expression that grows past the limits once its functions are written out; reported at
    the outermost call that leads there."""


class InlinedFunctionError(CompileError):
    """An error inside a ruleset function's body, reported at the function's own text."""

    def __init__(self, message: str, offset: int, function: Function) -> None:
        super().__init__(message, offset)
        self.function = function


def type_of_value(value: Any) -> str:
    if isinstance(value, bool):
        return BOOL
    if isinstance(value, int):
        return INT
    if isinstance(value, str):
        return STR
    if value is None:
        return NONE
    if isinstance(value, (list, tuple)):
        return LIST
    return ANY
