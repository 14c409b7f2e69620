"""The describer's base for the rules in words: what it knows of one loaded ruleset (the `Book`
built from the rules and their merged document), the document it writes, and an expression at
its path in the document as words; `effects`, `moves` and `sections` describe on it."""

from __future__ import annotations

from typing import Any

from ...base.errors import RulesetError
from ...front.parser import Node, ParseError, parse_signature
from ...front.source import Document, PathKey
from .document import RulesDocument
from .folding import simplify
from .speaker import Speaker, _parse
from .vocabulary import Book, Term, ZoneInfo, _join


class DescriberBase:
    """The state of one description, and expressions in words at their paths."""

    def __init__(self, rules: Any, doc: Document, fold: bool) -> None:
        self.rules = rules
        self.doc = doc
        self.data: dict[str, Any] = doc.data
        self.out = RulesDocument(rules.title)
        zones = {}
        for name, spec in (self.data.get("zones") or {}).items():
            zone = rules.zones[name]
            zones[name] = ZoneInfo(name, zone.label, zone.single, zone.seat_piles is not None,
                                   int(spec.get("count", 1)))
        functions: dict[str, tuple[tuple[str, ...], Node]] = {}
        for key, body in (self.data.get("functions") or {}).items():
            signature = self.parsed(("functions", key), key, signature=True)
            functions[signature.name] = (signature.params, self.parsed(("functions", key), body))
        if "teams" in self.data:
            functions.pop("team", None)
        variables = {name: bool(spec.get("per_player") or spec.get("per_team"))
                     for name, spec in (self.data.get("variables") or {}).items()}
        flags = frozenset(name for name, option in rules.options.items()
                          if all(isinstance(v, bool) for v in option.values))
        marks = frozenset(name for name, spec in (self.data.get("variables") or {}).items() if spec.get("per_card"))
        self.book = Book(dict(rules.option_values), fold, zones, variables, functions, "teams" in self.data, flags,
                         marks)

    # -- expressions --------------------------------------------------------------------------

    def parsed(self, path: PathKey, source: Any, signature: bool = False) -> Any:
        """The tree of the expression at `path` (already checked when the ruleset loaded)."""
        try:
            if signature:
                return parse_signature(str(source))
            return _parse(source)
        except ParseError as exc:  # pragma: no cover - the loader has parsed every expression
            raise RulesetError(exc.message, self.doc.expr_pos(path, exc.offset)) from None

    def speaker(self, names: dict[str, Term] | None = None) -> Speaker:
        return Speaker(self.book, {"player": Term("the player", "seat"), **(names or {})})

    def words(self, path: PathKey, source: Any, speaker: Speaker) -> str:
        node = simplify(self.parsed(path, source), self.book)
        return speaker.say(node)

    def condition(self, path: PathKey, source: Any, speaker: Speaker) -> str:
        """A `when`: an expression, a YAML truth value or number, or a list that must all hold."""
        if isinstance(source, list):
            parts = [self.words(path + (i,), s, speaker) for i, s in enumerate(source)]
            return _join(parts) if parts else "always"
        text = self.words(path, source, speaker)
        return {"true": "always", "false": "never"}.get(text, text)
