"""The rules in words as a document: blocks of text (title, headings, paragraphs, nested items)
that the describer adds section by section, rendered as plain text or as Markdown."""

from __future__ import annotations

import textwrap
from collections.abc import Iterable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Block:
    kind: str   # "title", "heading", "para", "item"
    text: str
    level: int = 0  # an item's depth


@dataclass
class RulesDocument:
    title: str
    blocks: list[Block] = field(default_factory=list)

    def heading(self, text: str) -> None:
        self.blocks.append(Block("heading", text))

    def para(self, text: str, level: int = 0) -> None:
        self.blocks.append(Block("para", text, level))

    def item(self, text: str, level: int = 0) -> None:
        self.blocks.append(Block("item", text, level))

    def items(self, entries: Iterable[tuple[str, int]]) -> None:
        for text, level in entries:
            self.item(text, level)


def render_text(doc: RulesDocument, width: int = 80) -> str:
    """Plain text, wrapped at `width` columns."""
    width = max(width, 30)
    out: list[str] = []
    for block in doc.blocks:
        if block.kind == "title":
            out += [block.text, "=" * min(len(block.text), width)]
        elif block.kind == "heading":
            out += ["", block.text, "-" * min(len(block.text), width)]
        elif block.kind == "para":
            indent = "  " * block.level
            out += textwrap.wrap(block.text, width, initial_indent=indent, subsequent_indent=indent,
                                 break_on_hyphens=False) or [""]
        else:
            indent = "  " * block.level
            out += textwrap.wrap(block.text, width, initial_indent=indent + "- ", subsequent_indent=indent + "  ",
                                 break_on_hyphens=False)
    return "\n".join(out).rstrip() + "\n"


def render_markdown(doc: RulesDocument) -> str:
    """Markdown: `#` title, `##` sections, nested lists (text as it is, unwrapped)."""
    out: list[str] = []
    previous = ""
    for block in doc.blocks:
        text = block.text.replace("*", "\\*").replace("_", "\\_")
        if block.kind == "title":
            out += [f"# {text}", ""]
        elif block.kind == "heading":
            if previous == "item":
                out.append("")
            out += [f"## {text}", ""]
        elif block.kind == "para":
            if previous == "item":
                out.append("")
            out += [text, ""]
        else:
            out.append("  " * block.level + f"- {text}")
        previous = block.kind
    return "\n".join(out).rstrip() + "\n"
