"""Stage 2b: decks as data. Load a deck file into a table of cards and their attributes.

A deck file lists cards explicitly or as products of attribute values (`each`),
with copies, attributes derived from others (`derive`), the short code used in
deal files and move texts (`code`), and how a face-up card is shown (`face`,
`style`). Attributes may hold a list (a card of several suits).

A deck built from a file's text is kept (`base/memo.py`) under that text, so a ruleset loaded again
(`validate` loads one per option combination) does not build its deck again; each load gets its
own copy of the card table.
"""

from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from ..base.errors import DealError, RulesetError, SourcePos, unknown
from ..base.limits import MAX_CARDS
from ..base.memo import Memo
from .source import Document, copy_data, load_document, read_bounded

_FIELD = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


@dataclass(frozen=True)
class Deck:
    """An immutable card table: card ids are indexes into `cards`."""

    name: str
    description: str
    attributes: dict[str, str]          # name -> "int" | "str" | "list"
    cards: tuple[dict[str, Any], ...]   # attribute values per card id
    codes: tuple[str, ...]              # short code per card id
    faces: tuple[str, ...]              # display text per card id
    styles: tuple[str, ...]             # rich style per card id
    back: str = "##"

    def __len__(self) -> int:
        return len(self.cards)

    @cached_property
    def spaced_faces(self) -> bool:
        """Does a face hold a space (`Painter 3 ☀⌘`)? Then the terminal sets cards two spaces apart."""
        return any(" " in face for face in self.faces)

    def copy(self) -> Deck:
        """The same deck with its own attribute and card mappings (the strings are shared)."""
        return Deck(self.name, self.description, dict(self.attributes), tuple(copy_data(c) for c in self.cards),
                    self.codes, self.faces, self.styles, self.back)

    def subset(self, ids: list[int]) -> "Deck":
        """The deck of only these cards (a ruleset's `deck.where`), renumbered from 0."""
        return Deck(self.name, self.description, self.attributes, tuple(self.cards[i] for i in ids),
                    tuple(self.codes[i] for i in ids), tuple(self.faces[i] for i in ids),
                    tuple(self.styles[i] for i in ids), self.back)

    def repeated(self, times: int) -> "Deck":
        """`times` decks shuffled together (a ruleset's `deck.copies`): the cards again and again,
        each card's `copy` renumbered across all of them (1 for the first of equal cards, ...)."""
        cards = [copy_data(card) for _ in range(times) for card in self.cards]
        _number_copies(cards)
        return Deck(self.name, self.description, self.attributes, tuple(cards), self.codes * times,
                    self.faces * times, self.styles * times, self.back)

    def attribute_table(self, name: str) -> dict[int | None, Any]:
        """Card id -> value of one attribute; `None` (no card) maps to None, so `top(p).rank` of an
        empty pile is none rather than an error."""
        table: dict[int | None, Any] = {i: card.get(name) for i, card in enumerate(self.cards)}
        table[None] = None
        return table

    def parse_order(self, text: str, source: str = "<deal>", cards: tuple[int, ...] | None = None) -> list[int]:
        """Read a deal: card codes separated by white space, top of the deck first, `#` comments.

        `cards` are the ids in play (a ruleset may use fewer cards with fewer players); default all.
        """
        in_play = tuple(range(len(self.codes))) if cards is None else cards
        by_code: dict[str, list[int]] = {}
        for card_id in reversed(in_play):
            by_code.setdefault(self.codes[card_id].upper(), []).append(card_id)
        order: list[int] = []
        for line_no, line in enumerate(text.splitlines(), 1):
            line = line.split("#", 1)[0]
            for match in re.finditer(r"\S+", line):
                code = match.group().upper()
                where = f"{source}:{line_no}:{match.start() + 1}"
                shown = match.group() if len(match.group()) <= 20 else match.group()[:17] + "..."
                if code not in by_code:
                    if any(c.upper() == code for c in self.codes):
                        raise DealError(f"{where}: '{shown}' is not among the cards in play")
                    raise DealError(f"{where}: '{shown}' is not a card of the {self.name} deck")
                if not by_code[code]:
                    raise DealError(f"{where}: '{shown}' appears more often than the deck holds it")
                order.append(by_code[code].pop())
        if len(order) != len(in_play):
            missing = sorted({code for code, ids in by_code.items() if ids})
            raise DealError(f"{source}: the deal lists {len(order)} cards, the game uses "
                            f"{len(in_play)} of the {self.name} deck"
                            + (f" (missing: {' '.join(missing[:10])})" if missing else ""))
        return order


def _format(template: str, card: dict[str, Any], values: dict[str, dict[Any, str]]) -> str:
    def one(name: str, value: Any) -> str:
        if isinstance(value, (list, dict)):  # a list inside a list: shown as it is
            return str(value)
        mapping = values.get(name, {})
        return str(mapping.get(value, value))

    def field(match: re.Match[str]) -> str:
        name = match.group(1)
        value = card.get(name)
        if isinstance(value, list):
            return "".join(one(name, v) for v in value)
        return "" if value is None else one(name, value)

    return " ".join(_FIELD.sub(field, template).split())  # a field left empty leaves no double space


# Decks built: (name shown, text) -> the deck, never handed out itself. Sized in bytes, roughly.
_BUILT: Memo[Deck] = Memo("decks", 64, 16_000_000)


def load_deck(path: Path, display_path: str | None = None) -> Deck:
    """Load and check a deck file."""
    shown = display_path if display_path is not None else str(path)
    text = read_bounded(path, shown)
    key = (shown, text)
    deck = _BUILT.get(key)
    if deck is None:
        deck = _build(load_document(path, text, shown))
        _BUILT.put(key, deck, len(text) + 400 * len(deck))
    return deck.copy()


def _number_copies(cards: list[dict[str, Any]]) -> None:
    """Number equal cards 1, 2, ... in deck order (`copy`), so a ruleset can keep only some copies."""
    seen: dict[str, int] = {}
    for card in cards:
        key = repr(sorted((k, v) for k, v in card.items() if k != "copy"))
        seen[key] = seen.get(key, 0) + 1
        card["copy"] = seen[key]


def _build(doc: Document) -> Deck:
    """The deck a deck file's document describes, checked."""
    data = doc.data
    if not isinstance(data, dict):
        raise RulesetError("a deck file must be a mapping", SourcePos(doc.path, 1, 1))  # its text is not shown
    from .schema import validate  # late import: schema loads the ruleset schema

    validate(doc, "deck")
    attributes: dict[str, str] = dict(data["attributes"])
    cards: list[dict[str, Any]] = []
    origins: list[tuple[Any, ...]] = []  # where each card's values are written, for errors
    total = 0
    for i, entry in enumerate(data["cards"]):
        copies = entry.get("copies", 1)
        total += copies * math.prod(len(values) for values in entry["each"].values()) if "each" in entry else copies
        if total > MAX_CARDS:  # counted before the cards are made
            raise RulesetError(f"the deck has more than {MAX_CARDS:,} cards", doc.pos(("cards", i)))
        if "each" in entry:
            names = list(entry["each"])
            for combo in itertools.product(*(entry["each"][n] for n in names)):
                card = dict(zip(names, combo))
                card.update(entry.get("with", {}))
                cards.extend(dict(card) for _ in range(copies))
                origins.extend([("cards", i, "each")] * copies)
        else:
            card = {k: v for k, v in entry.items() if k != "copies"}
            cards.extend(dict(card) for _ in range(copies))
            origins.extend([("cards", i)] * copies)
    references: list[tuple[tuple[str, ...], Any]] = [(("derive", n, "from"), r["from"])
                                                     for n, r in data.get("derive", {}).items()]
    if "style" in data:
        references.append((("style", "from"), data["style"]["from"]))
    for where, source in references:
        if source not in attributes:
            raise RulesetError(unknown("attribute", source, attributes), doc.pos(where))
    for name, rule in data.get("derive", {}).items():
        for index, card in enumerate(cards):
            value = card.get(rule["from"])
            if isinstance(value, (list, dict)):
                raise RulesetError(f"derive: card {index + 1}'s '{rule['from']}' is a list; a derived attribute maps "
                                   f"single values", doc.pos(("derive", name, "from")))
            card[name] = rule["map"].get(value)
    if "copy" in attributes:
        raise RulesetError("'copy' is given to every card (1 for the first of equal cards, 2 for the next, ...); "
                           "the deck cannot declare it", doc.pos(("attributes", "copy"), key=True))
    _number_copies(cards)
    attributes["copy"] = "int"
    for index, card in enumerate(cards):
        for name, value in card.items():
            where = origins[index] + ((name,) if len(origins[index]) == 2 else ())
            if name not in attributes:
                raise RulesetError(f"card {index + 1} has attribute '{name}', which the deck does not declare",
                                   doc.pos(where, key=True))
            wanted = attributes[name]
            ok = (value is None or (wanted == "int" and isinstance(value, int) and not isinstance(value, bool))
                  or (wanted == "str" and isinstance(value, str)) or (wanted == "list" and isinstance(value, list)))
            if not ok:
                raise RulesetError(f"card {index + 1}: attribute '{name}' should be {wanted}, got {value!r}",
                                   doc.pos(where))
    code_values = data.get("code_values", {})
    face_values = data.get("face_values", {})
    codes = tuple(_format(data["code"], card, code_values) for card in cards)
    face_template = str(data.get("face", data["code"]))
    faces = tuple(_format(face_template, card, face_values) for card in cards)
    style_rule = data.get("style")
    styles = tuple(str(style_rule["map"].get(card.get(style_rule["from"]), "")) if style_rule else ""
                   for card in cards)
    _check_codes(doc, cards, codes)
    return Deck(data["deck"], data.get("description", ""), attributes, tuple(cards), codes, faces, styles,
                data.get("back", "##"))


def _check_codes(doc: Document, cards: list[dict[str, Any]], codes: tuple[str, ...]) -> None:
    """Cards that differ must have different codes, or deal files would be ambiguous."""
    seen: dict[str, dict[str, Any]] = {}
    for card, code in zip(cards, codes):
        if any(c.isspace() or c == "#" for c in code) or not code:
            raise RulesetError(f"card code {code!r} must be non-empty, without spaces or '#'", doc.pos(("code",)))
        other = seen.setdefault(code.upper(), card)
        if {k: v for k, v in other.items() if k != "copy"} != {k: v for k, v in card.items() if k != "copy"}:
            raise RulesetError(f"two different cards share the code {code!r}", doc.pos(("code",)))
