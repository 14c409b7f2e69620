"""Stage 1: read YAML text into plain data while remembering where every value came from.

`load_document` composes the YAML node tree (keeping PyYAML's marks), builds plain
Python data from it and keeps a map from each value's path (a tuple of keys and
indices) to its node. Later stages use `Document.pos` to point errors at a line and
column, and `Document.expr_pos` to point at one character inside an expression
string, whatever its YAML quoting style.

Files are untrusted: `read_bounded` reads only regular files of bounded size (never a
device, a pipe or `/proc`), the composer bounds nesting, and the builder bounds the
values a document expands to through aliases (base/limits.py), rejects keys that are not
plain values, integers outside 64 bits and control characters in strings (which could
take over a terminal when a title or a card is printed).

A file is read from disk on every load, within those rules; what its text loads to is kept
(`base/memo.py`) under the text itself and the name it is shown by, so the same text is composed and
checked once per process and a changed file is loaded anew. Each load gets its own copy of the
data (mappings and lists; the values in them are immutable), so no caller can change what a
later load sees. Only documents that loaded without an error are kept.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from yaml.constructor import SafeConstructor
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ..base.errors import CardrulesError, RulesetError, SourcePos, first_control, shortened
from ..base.limits import INT_MAX, INT_MIN, MAX_FILE_BYTES, MAX_YAML_DEPTH, MAX_YAML_VALUES
from ..base.memo import Memo
from ..base.resources import rulesets_dir

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
    # For named effects written out at a call (front/blocks.py): the `with` they became, to the
    # block's name and where the call is written.
    calls: dict[PathKey, tuple[str, SourcePos]] = field(default_factory=dict)

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


def exists(path: Path) -> bool:
    """Does `path` name something? False, not an error, for a name the system refuses (too long,
    a NUL byte in it)."""
    try:
        return path.exists()
    except (OSError, ValueError):
        return False


def is_file(path: Path) -> bool:
    """Is `path` a regular file? False for a name the system refuses (as `exists`)."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


@dataclass(frozen=True)
class FileAccess:
    """The folders a ruleset's `extends:` and `deck:` may name files in: the folder tree of the
    ruleset that was asked for, the bundled rulesets, and any the user adds (`--path DIR`).

    Only YAML files (`.yaml`, `.yml`) are ever read through a name a ruleset gives, and a name
    must lead inside one of the folders after every `..` and symbolic link is followed."""

    roots: tuple[Path, ...]

    @classmethod
    def for_ruleset(cls, path: str | Path, search_path: tuple[str | Path, ...] = ()) -> "FileAccess":
        folders = [Path(path).resolve().parent, rulesets_dir().resolve()]
        return cls(tuple(dict.fromkeys(folders + [Path(p).expanduser().resolve() for p in search_path])))

    def allows(self, path: Path) -> bool:
        resolved = path.resolve()
        return any(resolved == root or root in resolved.parents for root in self.roots)

    def find(self, name: str, candidates: list[Path], not_found: str, pos: SourcePos) -> Path:
        """The first candidate file that exists, is a YAML file and lies in an allowed folder; else
        an error: `not_found`, or that the file lies outside those folders."""
        outside = None
        for candidate in candidates:
            if candidate.suffix not in (".yaml", ".yml") or not exists(candidate):
                continue
            if not self.allows(candidate):
                outside = outside or candidate
            elif not is_file(candidate):
                raise RulesetError(f"'{shortened(name)}' is not a regular file", pos)
            else:
                return candidate
        if outside is not None:
            raise RulesetError(f"'{shortened(name)}' is outside the folders this ruleset may read (its own folder "
                               f"tree and the bundled rulesets; `--path DIR` adds a folder)", pos)
        raise RulesetError(not_found, pos)


_MERGE_TAG = "tag:yaml.org,2002:merge"
_SYSTEM_FOLDERS = tuple(Path(p) for p in ("/proc", "/sys", "/dev"))


def read_bounded(path: str | Path, shown: str | None = None, error: type[CardrulesError] = RulesetError) -> str:
    """The UTF-8 text of a regular file of at most `MAX_FILE_BYTES`; anything else raises `error`.

    A device, a pipe, a folder or a file under /proc, /sys or /dev is refused before it is
    read (opening is non-blocking, so a pipe cannot hang the reader)."""
    shown = str(path) if shown is None else shown
    resolved = Path(path).resolve()
    if any(resolved == folder or folder in resolved.parents for folder in _SYSTEM_FOLDERS):
        raise error(f"{shown}: not a file cardrules reads (a system file)")
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise error(f"file not found: {shown}") from None
    except OSError as exc:
        raise error(f"cannot read {shown}: {exc.strerror or exc}") from None
    try:
        regular = stat.S_ISREG(os.fstat(fd).st_mode)
    except OSError:
        regular = False
    if not regular:
        os.close(fd)
        raise error(f"{shown}: not a regular file")
    try:
        with os.fdopen(fd, "rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise error(f"cannot read {shown}: {exc.strerror or exc}") from None
    if len(data) > MAX_FILE_BYTES:
        raise error(f"{shown}: the file is larger than {MAX_FILE_BYTES:,} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise error(f"{shown}: not a UTF-8 text file (byte {exc.start + 1})") from None


class _TooLarge(yaml.MarkedYAMLError):
    """A document nested past `MAX_YAML_DEPTH` or with more than `MAX_YAML_VALUES` nodes."""


_OPENING = (yaml.SequenceStartEvent, yaml.MappingStartEvent)
_CLOSING = (yaml.SequenceEndEvent, yaml.MappingEndEvent)


class _Bounds:
    """Counts nesting and nodes while a document is parsed, and stops past the limits."""

    def __init__(self) -> None:
        self.depth = 0
        self.nodes = 0

    def enter(self, mark: Any) -> None:
        self.depth += 1
        self.nodes += 1
        if self.depth > MAX_YAML_DEPTH:
            raise _TooLarge(None, None, f"mappings and lists are nested more than {MAX_YAML_DEPTH} deep", mark)
        self.count(mark)

    def count(self, mark: Any) -> None:
        self.nodes += 1
        if self.nodes > MAX_YAML_VALUES:
            raise _TooLarge(None, None, f"the document has more than {MAX_YAML_VALUES:,} values", mark)


class _BoundedLoader(yaml.SafeLoader):
    """PyYAML's pure-Python safe loader with the bounds (its composer recurses once per level)."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self.bounds = _Bounds()

    def compose_node(self, parent: Node | None, index: Any) -> Node | None:
        event = self.peek_event()
        if isinstance(event, _OPENING):
            self.bounds.enter(event.start_mark)
            try:
                return super().compose_node(parent, index)  # type: ignore[no-any-return]
            finally:
                self.bounds.depth -= 1
        self.bounds.count(event.start_mark)
        return super().compose_node(parent, index)  # type: ignore[no-any-return]


def _check_events(text: str) -> None:
    """Check the bounds on libyaml's event stream (before its recursive composer runs)."""
    bounds = _Bounds()
    for event in yaml.parse(text, Loader=yaml.CSafeLoader):
        if isinstance(event, _OPENING):
            bounds.enter(event.start_mark)
        elif isinstance(event, _CLOSING):
            bounds.depth -= 1
        elif isinstance(event, (yaml.ScalarEvent, yaml.AliasEvent)):
            bounds.count(event.start_mark)


def _compose(text: str) -> Node | None:
    """The node tree of a YAML text, within the bounds. With libyaml (PyYAML's C extension) the
    bounds are checked on its event stream first, and then its composer (fast, but recursive in C)
    builds the tree; without it, the pure-Python composer checks them as it goes."""
    loader: Any = None
    if getattr(yaml, "__with_libyaml__", False):
        try:
            _check_events(text)
            loader = yaml.CSafeLoader(text)
        except yaml.YAMLError as exc:
            # libyaml >= 0.2.6 (PyYAML 6.0.4) stops at its own nesting limit while reading ahead,
            # before our first level too deep is seen; the pure-Python loader finds that level.
            if "nesting depth" not in str(getattr(exc, "problem", "")):
                raise
    if loader is None:
        loader = _BoundedLoader(text)
    try:
        return loader.get_single_node()  # type: ignore[no-any-return]
    finally:
        loader.dispose()


class _Builder:
    """Turns a composed node tree into plain data and a path -> node map, within the limits."""

    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self.constructor = SafeConstructor()
        self.values = 0

    def error(self, message: str, node: Node, offset: int | None = None) -> RulesetError:
        index = node.start_mark.index
        if offset is not None and isinstance(node, ScalarNode):
            index = _scalar_offset(self.doc.text, node, offset)
        return RulesetError(message, self.doc._mark_pos(index))

    def build(self, node: Node, path: PathKey, depth: int = 1) -> Any:
        self.values += 1
        if self.values > MAX_YAML_VALUES:
            raise self.error(f"the document expands to more than {MAX_YAML_VALUES:,} values "
                             f"(aliases of aliases?)", node)
        if depth > MAX_YAML_DEPTH:  # aliases can nest what the composer saw as shallow
            raise self.error(f"mappings and lists are nested more than {MAX_YAML_DEPTH} deep "
                             f"(aliases included)", node)
        self.doc.nodes[path] = node
        if isinstance(node, MappingNode):
            return self.mapping(node, path, depth)
        if isinstance(node, SequenceNode):
            return [self.build(item, path + (i,), depth + 1) for i, item in enumerate(node.value)]
        return self.scalar(node)

    def mapping(self, node: MappingNode, path: PathKey, depth: int) -> dict[Any, Any]:
        result: dict[Any, Any] = {}
        merged: dict[Any, Any] = {}  # from `<<: *anchor` keys; the mapping's own keys win
        for key_node, value_node in node.value:
            if key_node.tag == _MERGE_TAG:
                sources = value_node.value if isinstance(value_node, SequenceNode) else [value_node]
                for source in sources:
                    if not isinstance(source, MappingNode):
                        raise self.error("a merge key (<<) takes a mapping or a list of mappings", source)
                    for key, value in self.mapping(source, path, depth).items():
                        merged.setdefault(key, value)
                continue
            if not isinstance(key_node, ScalarNode):
                raise self.error("a key must be a plain value (a name), not a mapping or a list", key_node)
            key = self.scalar(key_node)
            if key in result:
                raise self.error(f"duplicate key {key!r}", key_node)
            self.doc.key_nodes[path + (key,)] = key_node
            result[key] = self.build(value_node, path + (key,), depth + 1)
        for key, value in merged.items():
            result.setdefault(key, value)
        return result

    def scalar(self, node: ScalarNode) -> Any:
        self.values += 1
        try:
            value = self.constructor.construct_object(node, deep=True)
        except ValueError:  # Python refuses to read integers of more than 4,300 digits
            raise self.error("the number is too large (numbers are 64-bit integers)", node) from None
        if isinstance(value, int) and not isinstance(value, bool) and not INT_MIN <= value <= INT_MAX:
            raise self.error(f"the number {value if abs(value) < 10 ** 30 else 'given'} is outside the 64-bit "
                             f"range ({INT_MIN} to {INT_MAX})", node)
        if isinstance(value, str):
            bad = first_control(value)
            if bad >= 0:
                raise self.error(f"control character U+{ord(value[bad]):04X} in a string: rulesets may not hold "
                                 f"terminal control characters", node, bad)
        return value


# Documents loaded: (name shown, text) -> the document, never handed out itself (see `copy_document`).
# Sized in bytes, roughly: the text, and some 400 bytes a value for the data and its nodes.
_LOADED: Memo[Document] = Memo("YAML documents", 64, 64_000_000)
_BYTES_PER_VALUE = 400


def copy_data(value: Any) -> Any:
    """`value` with every mapping and list copied (the scalars YAML gives are immutable)."""
    if type(value) is dict:
        return {key: copy_data(item) for key, item in value.items()}
    if type(value) is list:
        return [copy_data(item) for item in value]
    return value


def copy_document(doc: Document) -> Document:
    """A document of its own for one load, sharing only immutable parts with `doc` (the text and
    the YAML nodes, which nothing changes)."""
    return Document(doc.path, doc.text, copy_data(doc.data), dict(doc.nodes), dict(doc.key_nodes), dict(doc.origins),
                    dict(doc.key_origins), dict(doc.calls))


def load_document(path: str | Path, text: str | None = None, display_path: str | None = None) -> Document:
    """Load a YAML file (or the given text for it) into a `Document`."""
    shown = display_path if display_path is not None else str(path)
    if text is None:
        text = read_bounded(path, shown)
    key = (shown, text)
    known = _LOADED.get(key)
    if known is None:
        known, values = _load_text(shown, text)
        _LOADED.put(key, known, len(text) + values * _BYTES_PER_VALUE)
    return copy_document(known)


def _load_text(shown: str, text: str) -> tuple[Document, int]:
    """The document of `text` (shown as `shown` in errors) and the number of values it holds."""
    doc = Document(shown, text, None)
    try:
        node = _compose(text)
    except _TooLarge as exc:
        raise RulesetError(str(exc.problem), doc._mark_pos(exc.problem_mark.index)) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        pos = doc._mark_pos(mark.index) if mark is not None else None
        message = "YAML syntax error: " + (exc.problem or exc.context or "invalid YAML")
        raise RulesetError(message, pos) from None
    except yaml.reader.ReaderError as exc:  # a character YAML does not allow
        where = min(max(exc.position, 0), len(text))
        raise RulesetError(f"character U+{exc.character if isinstance(exc.character, int) else 0:04X} is not "
                           f"allowed in a YAML file", doc._mark_pos(where)) from None
    except yaml.YAMLError:
        raise RulesetError("YAML error: the file cannot be read as YAML", SourcePos(shown, 1, 1)) from None
    if node is None:
        raise RulesetError("the file is empty", SourcePos(shown, 1, 1, text))
    builder = _Builder(doc)
    try:
        doc.data = builder.build(node, ())
    except yaml.constructor.ConstructorError as exc:
        mark = exc.problem_mark
        pos = doc._mark_pos(mark.index) if mark is not None else None
        raise RulesetError(f"YAML error: {exc.problem}", pos) from None
    return doc, builder.values
