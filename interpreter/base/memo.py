"""Bounded in-process memos of the loader's pure steps.

Loading a ruleset reads YAML, checks it against the schema, parses every expression and
compiles generated Python; `cardrules validate` does that once per option combination, and a
program may load the same ruleset many times. The results of those steps depend only on their
input text, so each is kept here under that text (or a SHA-256 of it), and a file changed on
disk is read and checked anew, since its text is part of the key. Failures are never kept: a
file that failed fails the same way again, through the same code.

Every memo is an LRU bounded in entries and in an estimate of the memory its values hold, so a
process that loads many large files keeps a bounded amount (docs/language.md, "Limits and
untrusted files"). `clear()` empties them all.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from types import CodeType
from typing import Generic, TypeVar

V = TypeVar("V")

_ALL: list[Memo[object]] = []


class Memo(Generic[V]):
    """An LRU of at most `max_entries` values whose sizes (in the caller's unit, roughly bytes)
    add up to at most `max_size`; a value larger than that alone is not kept."""

    def __init__(self, name: str, max_entries: int, max_size: int) -> None:
        self.name = name
        self.max_entries = max_entries
        self.max_size = max_size
        self.size = 0
        self.hits = 0
        self.misses = 0
        self._items: OrderedDict[Hashable, tuple[V, int]] = OrderedDict()
        self._lock = threading.Lock()
        _ALL.append(self)  # type: ignore[arg-type]

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: Hashable) -> V | None:
        with self._lock:
            item = self._items.get(key)
            if item is None:
                self.misses += 1
                return None
            self._items.move_to_end(key)
            self.hits += 1
            return item[0]

    def put(self, key: Hashable, value: V, size: int) -> None:
        if size > self.max_size:
            return
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self.size -= old[1]
            self._items[key] = (value, size)
            self.size += size
            while len(self._items) > self.max_entries or self.size > self.max_size:
                _, (_, dropped) = self._items.popitem(last=False)
                self.size -= dropped

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self.size = 0


def clear() -> None:
    """Forget everything the loader's memos hold (memory back; the next loads read and check anew)."""
    for memo in _ALL:
        memo.clear()


# Generated Python compiled to code objects: (source, file name) -> code. Sized in characters of
# source (a code object takes a few bytes a character).
_CODE: Memo[CodeType] = Memo("compiled code", 20_000, 4_000_000)


def compile_once(source: str, filename: str) -> CodeType:
    """`compile(source, filename, "exec")`, once per process for the same source and name. The
    caller runs the code object in a namespace of its own each time (code objects are immutable);
    an error (a syntax error, Python's limits on nesting) is raised each time, never kept."""
    key = (source, filename)
    code = _CODE.get(key)
    if code is None:
        code = compile(source, filename, "exec")
        _CODE.put(key, code, len(source))
    return code
