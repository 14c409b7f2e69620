"""Stage 1b: resolve `extends:`, merging a variant file into the ruleset it extends.

A variant names its base (a path relative to itself, or a bundled ruleset) and
overrides it: mappings merge key by key, at every depth, so a move, a zone, an
option or one key of them can be replaced or added; a key set to `null` is
removed; any other value (a list, a string) replaces the base's. The merged
document remembers which file every value came from, so later errors point at
the variant's line, or the base's, whichever holds the value.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..base.errors import RulesetError, SourcePos, shortened
from ..base.limits import MAX_EXTENDS_FILES
from ..base.resources import rulesets_dir
from .source import Document, FileAccess, PathKey, load_document

_MISSING = object()
_MAX_DEPTH = 16


def find_base(name: str, variant: Path, access: FileAccess, pos: SourcePos) -> Path:
    """The file `extends: name` means, seen from the variant at `variant`."""
    candidates = [variant.parent / name, variant.parent / f"{name}.yaml", rulesets_dir() / f"{name}.yaml"]
    return access.find(name, candidates, f"extends: no ruleset '{shortened(name)}' next to this file or among the "
                       f"bundled ones", pos)


def resolve_extends(doc: Document, path: Path, access: FileAccess | None = None) -> Document:
    """The document with its `extends:` chain merged in (unchanged if it extends nothing).

    Every file of the chain is read and resolved once, however often it is named."""
    access = access if access is not None else FileAccess.for_ruleset(path)
    return _Resolver(access).resolve(doc, path, ())[0]


class _Resolver:
    """Resolves one `extends:` tree, remembering each file's result (fan-out costs nothing)."""

    def __init__(self, access: FileAccess) -> None:
        self.access = access
        self.done: dict[Path, tuple[Document, Document, list[Path]]] = {}  # file -> own doc, merged, bases

    def base(self, name: str, variant: Path, chain: tuple[Path, ...], pos: SourcePos) \
            -> tuple[Path, Document, Document, list[Path]]:
        """The file `name` names, its own document, its merged document and the files merged into it."""
        base_path = find_base(name, variant, self.access, pos).resolve()
        if base_path in chain or len(chain) >= _MAX_DEPTH:
            raise RulesetError(f"extends: '{name}' leads back to this file (a cycle of variants)", pos)
        if base_path not in self.done:
            if len(self.done) >= MAX_EXTENDS_FILES:
                raise RulesetError(f"extends: more than {MAX_EXTENDS_FILES} files in one chain of variants", pos)
            own = load_document(base_path)
            merged, bases = self.resolve(own, base_path, chain)
            self.done[base_path] = (own, merged, bases)
        own, merged, bases = self.done[base_path]
        return base_path, own, merged, bases

    def resolve(self, doc: Document, path: Path, chain: tuple[Path, ...]) -> tuple[Document, list[Path]]:
        """The merged document and the files merged into it, bases first (not counting `doc` itself).

        `extends: [a, b, c]` combines variants of one base: `a` is resolved fully, then the changes
        `b` and `c` make themselves are merged over it in order; each must extend only files that
        are already part of the result (a game with several expansions).
        """
        data = doc.data
        if not isinstance(data, dict) or "extends" not in data:
            return doc, []
        names = data["extends"]
        listed = isinstance(names, list)
        if isinstance(names, str):
            names = [names]
        if not (isinstance(names, list) and names and all(isinstance(n, str) for n in names)):
            raise RulesetError("extends: expected the name or path of a ruleset, or a list of them",
                               doc.pos(("extends",)))
        if "ruleset" not in data:
            raise RulesetError("a variant needs its own 'ruleset' name", doc.pos(("extends",), key=True))
        here = path.resolve()
        result: Document | None = None
        included: list[Path] = []
        for i, name in enumerate(names):
            where: PathKey = ("extends", i) if listed else ("extends",)
            base_path, base_doc, base, base_chain = self.base(name, path, chain + (here,), doc.pos(where))
            if not isinstance(base.data, dict):
                raise RulesetError(f"extends: '{name}' is not a ruleset", doc.pos(where))
            if result is None:
                result = base
            else:
                missing = [p for p in base_chain if p not in included]
                if missing:
                    raise RulesetError(f"extends: '{name}' is a variant of '{missing[0].stem}', which the rulesets "
                                       f"before it in the list do not include", doc.pos(where))
                if "extends" not in base_doc.data:
                    raise RulesetError(f"extends: '{name}' is not a variant; only the first in the list may be a "
                                       f"base", doc.pos(where))
                result = merge(result, base_doc)  # only the changes that variant makes itself
            included.extend(p for p in base_chain + [base_path] if p not in included)
        assert result is not None
        return merge(result, doc), included


def merge(base: Document, variant: Document) -> Document:
    """Merge `variant` over `base` (see the module docstring)."""
    out = Document(variant.path, variant.text, None)
    out.data = _merge((), base, variant, out, base.data, variant.data)
    out.data.pop("extends", None)
    out.data["extends"] = variant.data["extends"]
    return out


def _adopt(doc: Document, path: PathKey, value: Any, out: Document) -> None:
    """Copy the node map of `doc` for `value` (found at `path`) and everything inside it into `out`,
    remembering where each node came from. Walks the value, so it costs the value's size."""
    stack = [(path, value)]
    while stack:
        here, item = stack.pop()
        for table, origins, out_table, out_origins in ((doc.nodes, doc.origins, out.nodes, out.origins),
                                                       (doc.key_nodes, doc.key_origins, out.key_nodes,
                                                        out.key_origins)):
            node = table.get(here)
            if node is not None:
                out_table[here] = node
                out_origins[here] = origins.get(here, doc)
        if isinstance(item, dict):
            stack.extend((here + (key,), inner) for key, inner in item.items())
        elif isinstance(item, list):
            stack.extend((here + (i,), inner) for i, inner in enumerate(item))


def _merge(path: PathKey, base: Document, variant: Document, out: Document, old: Any, new: Any) -> Any:
    if new is _MISSING:
        _adopt(base, path, old, out)
        return old
    if isinstance(old, dict) and isinstance(new, dict):
        result: dict[Any, Any] = {}
        for key in list(old) + [k for k in new if k not in old]:
            value = _merge(path + (key,), base, variant, out, old.get(key, _MISSING), new.get(key, _MISSING))
            if value is not None and value is not _MISSING:
                result[key] = value
        for table, origins, doc in ((out.nodes, out.origins, variant), (out.key_nodes, out.key_origins, variant)):
            source = doc.nodes if table is out.nodes else doc.key_nodes
            if path in source:
                table[path] = source[path]
                origins[path] = doc.origins.get(path, doc) if table is out.nodes else doc.key_origins.get(path, doc)
        return result
    if new is None:
        return None  # removed
    _adopt(variant, path, new, out)
    return new
