"""Stage 6c, what `Game.explain` answers (python/explain.py): whether a text is a legal move now, and
if not, the reason for each move it names, with the part of the ruleset's condition marked that is
false (`Explanation`, `Reason`, `Marked`), told in full or briefly as `cardrules play` tells it."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..base.errors import SourcePos, printable
from .moves import Move

# The widest part of an expression shown around its marked part.
WIDTH = 100
# The moves a brief explanation (`cardrules play`) tells, of those a text names.
BRIEF_REASONS = 2


@dataclass(frozen=True)
class Marked:
    """A part of a ruleset expression marked as the one that fails."""

    label: str               # what the expression is: "when", "fits_tableau(c, t), c = 7H, t = t6"
    text: str                # the expression as written
    start: int               # the marked part: text[start:end]
    end: int
    pos: SourcePos | None    # where the marked part is written
    note: str                # what is wrong with it ("is false: ...")

    def lines(self, width: int | None = None) -> list[str]:
        """Three lines: where and what, the expression (around the part), a caret line under the part.
        The expression and caret lines fit in `width` characters (the expression is cut to a window
        around the part; a note that would not fit after the carets goes on a line of its own)."""
        where = f"{Path(self.pos.path).name}:{self.pos.line}:{self.pos.col}: " if self.pos is not None else ""
        text, start, end = self.text.replace("\n", " "), self.start, self.end
        # The window's width: WIDTH, or what `width` leaves after the indent and the "..." either side.
        window = WIDTH if width is None else max(width - 8, 20)
        if len(printable(text)) > (WIDTH if width is None else width - 2):  # a window around the part
            left = max(0, min(start - 10, len(text) - window))
            cut = text[left:left + window]
            prefix = "..." if left else ""
            text = prefix + cut + ("..." if left + window < len(text) else "")
            start, end = start - left + len(prefix), min(end - left, window) + len(prefix)
        shown = printable(text)
        end += len(printable(text[:end])) - len(text[:end])  # escapes widen the line
        start += len(printable(text[:start])) - len(text[:start])
        carets = "  " + " " * start + "^" * max(1, end - start)
        note = printable(self.note)
        tail = [carets + " " + note] if width is None or len(carets) + 1 + len(note) <= width else [carets, "  " + note]
        return [printable(f"{where}{self.label}"), "  " + shown, *tail]


@dataclass(frozen=True)
class Reason:
    """Why one move a text names is not legal now."""

    move: str                 # the move template's name
    help: str
    text: str                 # the move's text as the engine writes it
    why: str                  # one sentence
    marks: tuple[Marked, ...] = ()

    def lines(self, brief: bool = False, width: int | None = None) -> list[str]:
        head = f"{self.move}" + (f" ({self.help.rstrip('.')})" if self.help and not brief else "")
        out = [printable(f"{head}: {self.why}")]
        for mark in (self.marks[-1:] if brief else self.marks):
            out.extend("  " + line for line in mark.lines(None if width is None else width - 2))
        return out


@dataclass(frozen=True)
class Explanation:
    """What `Game.explain` found: whether the text is a legal move now, and if not, why.

    `str()` gives the whole explanation; `lines(brief=True)` a short one (the innermost marked
    part of each move), as `cardrules play` prints it."""

    text: str                             # the text asked about, as typed (stripped)
    legal: bool
    move: Move | None = None              # the legal move, when it is one
    problem: str = ""                     # why the text names no move (unknown pile, name, form)
    reasons: tuple[Reason, ...] = ()      # for each move the text names: why it is not legal now
    suggestions: tuple[str, ...] = ()     # "did you mean" texts, the legal ones first
    legal_suggestions: frozenset[str] = field(default_factory=frozenset)

    @property
    def headline(self) -> str:
        shown = printable(self.text)
        if self.legal:
            return f"'{shown}' is a legal move now"
        return f"'{shown}' is not a legal move now"

    def lines(self, brief: bool = False, width: int | None = None) -> list[str]:
        """The explanation line by line (`brief`: as `cardrules play` tells it); the lines that show
        an expression and the carets under its marked part fit in `width` characters."""
        out = []
        if self.legal:
            written = self.move.text() if self.move is not None else self.text
            out.append(self.headline + ("" if written == " ".join(self.text.lower().split()) else f" ({written})"))
            return out
        if self.problem:
            out.append(printable(self.problem))
        told = self.reasons[:BRIEF_REASONS] if brief else self.reasons
        for reason in told:
            out.extend(reason.lines(brief, width))
        if len(told) < len(self.reasons):
            rest = len(self.reasons) - len(told)
            out.append(f"(and {rest} more move{'s' if rest > 1 else ''} written so: game.explain tells all)")
        if self.suggestions:
            out.append("did you mean " + ", ".join(
                printable(s) + (" (legal now)" if s in self.legal_suggestions else "") for s in self.suggestions) + "?")
        return out

    def __str__(self) -> str:
        body = self.lines()
        return "\n".join(body if self.legal else [self.headline + ":"] + ["  " + line for line in body])
