"""What the rules in words know of one ruleset (its `Book`: options, zones, variables,
functions; a name as a `Term`), and the small word helpers every part of the description shares."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ...front.parser import Node

_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")


@dataclass(frozen=True)
class Term:
    """A name as words, and what kind of value it is (pile, piles, card, cards, seat, list, number)."""

    text: str
    kind: str = ""


@dataclass
class ZoneInfo:
    name: str
    label: str
    single: bool
    per_player: bool
    count: int

    @property
    def plural(self) -> str:
        """The zone's piles: "tableau piles", "tiers" (a label in the plural is kept)."""
        return self.label if self.label.endswith("s") else f"{self.label} piles"

    @property
    def singular(self) -> str:
        """One of its piles: "tableau pile", "tier"."""
        if self.label.endswith("s") and not self.label.endswith("ss"):
            return self.label[:-1]
        return f"{self.label} pile"

    @property
    def owner(self) -> str:
        return "the player's " if self.per_player else "the "


@dataclass
class Book:
    """What every expression of one ruleset is spoken with: its options, zones, variables, functions."""

    options: dict[str, Any] = field(default_factory=dict)
    fold: bool = True
    zones: dict[str, ZoneInfo] = field(default_factory=dict)
    variables: dict[str, bool] = field(default_factory=dict)  # name -> per player (or per team)
    functions: dict[str, tuple[tuple[str, ...], Node]] = field(default_factory=dict)
    teams: bool = False
    flags: frozenset[str] = frozenset()  # options whose values are true and false
    marks: frozenset[str] = frozenset()  # per-card variables: the bare name is the card's in `card`

    def zone_term(self, name: str) -> Term:
        zone = self.zones[name]
        if zone.single:
            return Term(f"{zone.owner}{zone.label}", "pile")
        return Term(f"{zone.owner}{zone.plural}", "piles")


def _plain(name: str) -> str:
    return name.replace("_", " ")


def _simple(text: str) -> bool:
    """Short enough to take a possessive ("the card's rank")."""
    return bool(re.fullmatch(r"(the |the player's )?[\w\-]+( [\w\-]+)?( pile)?( \d+)?", text)) \
        and " of " not in text


def possessive(owner: str, thing: str) -> str:
    return f"{owner}'s {thing}" if _simple(owner) else f"the {thing} of {owner}"


def _ordinal(n: int) -> str:
    """1 -> "first", ..., then "13th", "21st", "22nd", "23rd", "111th"."""
    if 1 <= n <= len(_ORDINALS):
        return _ORDINALS[n - 1]
    suffix = "th" if n % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _join(items: Sequence[str], word: str = "and") -> str:
    items = list(items)
    if not items:
        return "nothing"
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + f" {word} " + items[-1]


def _value_text(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, (tuple, list)):
        return "[" + ", ".join(_value_text(v) for v in value) + "]" if value else "an empty list"
    return str(value)


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]
