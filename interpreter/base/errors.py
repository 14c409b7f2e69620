"""One exception hierarchy for every stage of the pipeline.

The library raises structured errors carrying a `SourcePos`; only the CLI (or a
caller) formats them, with `format_error`, as ``path:line:col: message`` followed
by the source line and a caret.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Any, Iterable, cast

if TYPE_CHECKING:
    from rich.console import Console


@dataclass(frozen=True)
class SourcePos:
    """A place in a text file: 1-based line and column, plus the file's text for context."""

    path: str
    line: int
    col: int
    text: str | None = None

    def source_line(self) -> str | None:
        if self.text is None:
            return None
        lines = self.text.split("\n")  # lines as positions count them (not at other breaks)
        if 1 <= self.line <= len(lines):
            return lines[self.line - 1].rstrip("\r")
        return None

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.col}"


class CardrulesError(Exception):
    """Base class of every error the library raises on purpose."""

    def __init__(self, message: str, pos: SourcePos | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.pos = pos

    def __str__(self) -> str:
        return f"{self.pos}: {self.message}" if self.pos else self.message


class RulesetError(CardrulesError):
    """A ruleset or deck file is broken: YAML syntax, schema, expression or name errors."""


class ExpressionSyntaxError(RulesetError):
    """An expression string does not parse."""


class RulesetWarning(CardrulesError):
    """Not an error: something a ruleset writes that the engine does not use (a `match` its `when`
    does not imply). Kept in `Ruleset.warnings`; `cardrules validate` prints it. Never raised."""


class RulesetRuntimeError(CardrulesError):
    """An expression failed while a game ran (for example `top(p).rank` on an empty pile)."""


class IllegalMoveError(CardrulesError):
    """A move that is not legal in the current state, or text that names no legal move."""


class SetupError(CardrulesError):
    """A game cannot start as asked: a player count the ruleset does not allow, no seed nor deal."""


class DealError(SetupError):
    """A deal file (an explicit card order) is malformed or does not match the deck."""


class SaveError(CardrulesError):
    """The per-user store of persistent values could not be read or written."""


class CacheError(CardrulesError):
    """The cache folder of compiled code is not safe to load from (another user could write it) or
    cannot be made."""


class ArgumentError(CardrulesError):
    """A library function was called with an argument it cannot take (a seat out of range, an
    unknown variable name, a value of the wrong type)."""


# C0 control characters but tab and newline, DEL, and C1 control characters.
_CONTROLS = {code: f"\\x{code:02x}" for code in (*range(0x20), *range(0x7F, 0xA0)) if code not in (0x09, 0x0A)}
# Characters that reorder or hide text: the bidirectional marks, embeddings, overrides and isolates
# (U+061C, U+200E-200F, U+202A-202E, U+2066-2069) and the zero-width ones (U+200B-200D, U+2060, U+FEFF).
INVISIBLE = {code: f"\\u{code:04x}" for code in (0x061C, *range(0x200B, 0x2010), *range(0x202A, 0x202F),
                                                  0x2060, *range(0x2066, 0x206A), 0xFEFF)}
_UNSAFE = {**_CONTROLS, **INVISIBLE}

MAX_TITLE = 200  # a longer title is cut (`shown_title`)


def printable(text: str) -> str:
    """`text` safe to print to a terminal: control characters (C0 but tab and newline, DEL, C1)
    are written as `\\xNN` escapes, so text a player typed cannot move the cursor, recolour the
    screen or retitle the window when it is echoed back; characters that reorder or hide text
    (bidirectional overrides and isolates, zero-width characters: `INVISIBLE`) as `\\uNNNN`, so
    that text from a ruleset reads on screen as it is in the file."""
    return text.translate(_UNSAFE)


def shown_title(title: str) -> str:
    """A ruleset's title as a terminal shows it: `printable`, and cut to `MAX_TITLE` characters
    with an ellipsis."""
    return printable(title if len(title) <= MAX_TITLE else title[:MAX_TITLE - 1] + "…")


def shortened(text: str, most: int = 60) -> str:
    """A name from an input, cut to `most` characters for a message (`abc...`)."""
    return text if len(text) <= most else text[:most - 3] + "..."


def shortened_path(text: str, most: int = 60) -> str:
    """A path from an input, cut in the middle to `most` characters (`/tmp/...name.yaml`), so
    that the file's name stays in the message."""
    if len(text) <= most:
        return text
    head = (most - 3) // 3
    return text[:head] + "..." + text[len(text) - (most - 3 - head):]


def first_control(text: str) -> int:
    """The index of the first control character in `text` (those `printable` escapes), or -1."""
    for index, char in enumerate(text):
        if ord(char) in _CONTROLS:
            return index
    return -1


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """`did you mean 'tableau'? ` for the closest of `known` to `name`; empty if none is close."""
    close = difflib.get_close_matches(name, sorted(set(known)), n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'? " if close else ""


def unknown(what: str, name: str, known: Iterable[str], heading: str | None = None) -> str:
    """`unknown zone 'tablaeu' (did you mean 'tableau'? zones: stock, waste, ...)`."""
    known = sorted(set(known))
    hint = did_you_mean(name, known)
    listing = f"{heading or what + 's'}: {', '.join(known) if known else 'none'}"
    return f"unknown {what} '{name}' ({hint}{listing})"


class EscapingStream:
    """A text stream that writes through to `stream` with the characters that reorder or hide text
    (`INVISIBLE`: bidirectional overrides, zero-width characters) escaped visibly: what a
    console of `terminal_console` prints from a ruleset (labels, pile names, faces, help texts)
    reads on screen as it is in the file. (Control characters never reach it: a ruleset may not
    hold them, text typed is escaped with `printable`, and rich's own are kept.)"""

    def __init__(self, stream: Any) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        self.stream.write(text.translate(INVISIBLE))
        return len(text)

    def __getattr__(self, name: str) -> Any:  # flush, isatty, fileno, encoding: the stream's own
        return getattr(self.stream, name)


def terminal_console(file: Any = None, stderr: bool = False, **options: Any) -> Console:
    """A rich Console for text from rulesets: it prints to `file` (else standard output, or
    standard error with `stderr`) through an `EscapingStream`."""
    import sys

    from rich.console import Console

    stream = EscapingStream(file if file is not None else sys.stderr if stderr else sys.stdout)
    return Console(file=cast(IO[str], stream), **options)  # (a stream in all but its declared type)


SOURCE_WIDTH = 100  # a longer source line is shown as the part around the column


def format_error(error: CardrulesError) -> str:
    """Render an error as ``path:line:col: message`` with the source line and a caret. Control
    characters are escaped (a file's text cannot drive the terminal) and a long line is cut to
    the part around the column."""
    if error.pos is None:
        return printable(f"error: {error.message}")
    lines = [printable(f"{error.pos}: {error.message}")]
    source = error.pos.source_line()
    if source is not None:
        expanded = source.expandtabs(1)
        caret = max(error.pos.col - 1, 0)
        if len(expanded) > SOURCE_WIDTH:
            start = max(0, min(caret - SOURCE_WIDTH // 2, len(expanded) - SOURCE_WIDTH))
            cut = expanded[start:start + SOURCE_WIDTH]
            expanded = ("..." if start else "") + cut + ("..." if start + SOURCE_WIDTH < len(expanded) else "")
            caret = caret - start + (3 if start else 0)
        shown = printable(expanded)
        caret += len(printable(expanded[:caret])) - len(expanded[:caret])  # escapes widen the line
        lines.append("    " + shown)
        lines.append("    " + " " * caret + "^")
    return "\n".join(lines)
