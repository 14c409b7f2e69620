"""The rules in words: `cardrules rules RULESET` (setup, moves, triggers, end, score), from the
merged ruleset document and its parsed expression trees.

A loaded ruleset (so every check has passed) is described section by section; each expression is
parsed again (`parser.parse_expression`, memoized), its options folded to the values chosen (as
the compiler folds them; `fold=False` keeps `the draw option`), and spoken node by node
(`Speaker`). A ruleset function is written out where it is called when its body is small, and is
named otherwise; every function is also described on its own. A construct without good English
is shown as its expression text in backticks. Nothing is evaluated but constant folding of
literals (never `eval`); nothing here knows any game.

Its modules, from the bottom up: `folding` (options folded, constants computed), `vocabulary`
(what is known of the ruleset, word helpers), `speaker_base` and `speaker` (an expression in
words), `document` (blocks, then plain text or Markdown), `describer_base`, `effects`, `moves`
and `sections` (the ruleset, section by section); this module loads a ruleset and describes it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...front.source import Document
from .document import RulesDocument, render_markdown, render_text
from .folding import simplify
from .sections import RulesDescriber
from .speaker import Speaker
from .vocabulary import Book, Term

__all__ = ["Book", "Speaker", "Term", "describe", "render_markdown", "render_text", "rules_document", "simplify"]


def describe(name_or_path: str | Path, options: dict[str, Any] | None = None,
             search_path: tuple[str | Path, ...] = (), fold: bool = True) -> RulesDocument:
    """The rules of a ruleset (after `extends:`), in words. Loads it first, so a broken ruleset
    is a `CardrulesError` at its place, as `cardrules validate` reports it."""
    from ...python.load import load_ruleset

    rules = load_ruleset(name_or_path, options, search_path)
    return rules_document(rules, rules.front_end.doc, fold)  # the merged document the load built from


def rules_document(rules: Any, doc: Document, fold: bool = True) -> RulesDocument:
    """The rules of a loaded `Ruleset` whose merged document is `doc`."""
    return RulesDescriber(rules, doc, fold).run()
