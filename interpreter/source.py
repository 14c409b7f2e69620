"""Stage 1: read YAML text into plain data while remembering where every value came from.

`load_document` composes the YAML node tree (keeping PyYAML's marks), builds plain
Python data from it and keeps a map from each value's path (a tuple of keys and
indices) to its node. Later stages use `Document.pos` to point errors at a line and
column, and `Document.expr_pos` to point at one character inside an expression
string, whatever its YAML quoting style.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from yaml.constructor import SafeConstructor
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from .errors import RulesetError, SourcePos

PathKey = tuple[Any, ...]


@dataclass
class Document:
    """Plain data loaded from one YAML file, with the node of every value by path."""

    path: str
    text: str
    data: Any
    nodes: dict[PathKey, Node] = field(default_factory=dict)
    key_nodes: dict[PathKey, Node] = field(default_factory=dict)
    # For a variant merged with the ruleset it extends: the file each value (or key) came from.
    origins: dict[PathKey, "Document"] = field(default_factory=dict)
    key_origins: dict[PathKey, "Document"] = field(default_factory=dict)

    def _mark_pos(self, index: int) -> SourcePos:
        line = self.text.count("\n", 0, index) + 1
        col = index - (self.text.rfind("\n", 0, index) + 1) + 1
        return SourcePos(self.path, line, col, self.text)

    def origin(self, path: PathKey, key: bool = False) -> "Document":
        """The file the value (or key) at `path` was written in."""
        return (self.key_origins if key else self.origins).get(tuple(path), self)

    def pos(self, path: PathKey, key: bool = False) -> SourcePos:
        """Position of the value at `path` (or of its key), or of its nearest parent."""
        path = tuple(path)
        while True:
            table = self.key_nodes if key else self.nodes
            node = table.get(path)
            if node is not None:
                return self.origin(path, key)._mark_pos(node.start_mark.index)
            if not path:
                return SourcePos(self.path, 1, 1, self.text)
            path = path[:-1]
            key = False

    def expr_pos(self, path: PathKey, offset: int) -> SourcePos:
        """Position of character `offset` of the string value at `path`."""
        node = self.nodes.get(tuple(path))
        if not isinstance(node, ScalarNode):
            return self.pos(path)
        origin = self.origin(path)
        return origin._mark_pos(_scalar_offset(origin.text, node, offset))


def _scalar_offset(text: str, node: ScalarNode, offset: int) -> int:
    """Map an offset in a scalar's value to an index in the file text.

    Walks the value and the raw source side by side; raw characters with no
    counterpart in the value (quotes, indentation, escape backslashes, block
    headers) are skipped, and a folded line break matches a space.
    """
    value = str(node.value)
    start, end = node.start_mark.index, node.end_mark.index
    j = start
    if node.style in ("'", '"'):
        j += 1
    elif node.style in ("|", ">"):
        newline = text.find("\n", start, end)
        j = newline + 1 if newline >= 0 else start
    i = 0
    limit = min(offset, len(value))
    while i < limit and j < end:
        ch = text[j]
        if ch == value[i]:
            i += 1
            j += 1
        elif value[i] == " " and ch == "\n":
            i += 1
            j += 1
            while j < end and text[j] == " ":
                j += 1
        else:
            j += 1
    while j < end and text[j] in " \n" and i < len(value) and value[i] not in " \n":
        j += 1
    return min(j, max(end - 1, start))


class _Builder:
    """Turns a composed node tree into plain data and a path -> node map."""

    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self.constructor = SafeConstructor()

    def build(self, node: Node, path: PathKey) -> Any:
        self.doc.nodes[path] = node
        if isinstance(node, MappingNode):
            self.constructor.flatten_mapping(node)
            result: dict[Any, Any] = {}
            for key_node, value_node in node.value:
                key = self.constructor.construct_object(key_node, deep=True)
                if isinstance(key, list):
                    key = tuple(key)
                if key in result:
                    raise RulesetError(f"duplicate key {key!r}", self.doc._mark_pos(key_node.start_mark.index))
                self.doc.key_nodes[path + (key,)] = key_node
                result[key] = self.build(value_node, path + (key,))
            return result
        if isinstance(node, SequenceNode):
            return [self.build(item, path + (i,)) for i, item in enumerate(node.value)]
        return self.constructor.construct_object(node, deep=True)


def load_document(path: str | Path, text: str | None = None, display_path: str | None = None) -> Document:
    """Load a YAML file (or the given text for it) into a `Document`."""
    shown = display_path if display_path is not None else str(path)
    if text is None:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except FileNotFoundError:
            raise RulesetError(f"file not found: {shown}") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise RulesetError(f"cannot read {shown}: {exc}") from None
    doc = Document(shown, text, None)
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        pos = doc._mark_pos(mark.index) if mark is not None else None
        message = "YAML syntax error: " + (exc.problem or exc.context or "invalid YAML")
        raise RulesetError(message, pos) from None
    except yaml.YAMLError as exc:
        raise RulesetError(f"YAML error: {exc}", SourcePos(shown, 1, 1, text)) from None
    if node is None:
        raise RulesetError("the file is empty", SourcePos(shown, 1, 1, text))
    try:
        doc.data = _Builder(doc).build(node, ())
    except yaml.constructor.ConstructorError as exc:
        mark = exc.problem_mark
        pos = doc._mark_pos(mark.index) if mark is not None else None
        raise RulesetError(f"YAML error: {exc.problem}", pos) from None
    return doc
