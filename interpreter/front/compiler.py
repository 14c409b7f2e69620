"""Stage 4: check expression ASTs statically and compile them to Python source.

`Compiler` is the one door the builder (model/) and the Python backend's tools go through: the
checker (front/checker.py) turns the parsed tree into a typed tree (front/typed.py: names
resolved, types checked, constants and options folded, ruleset functions written out), and the
writer (front/emit_python.py) writes Python source from that tree. Nothing from the ruleset text
reaches Python except through that tree, so the generated code can only read game state.

Each compiled expression is a `Compiled(source, type, const, value, total, none)`: `total` says
the code cannot fail when it runs (front/checker.py says when), so it may be computed earlier
than the expression says (hoisted). Code that can fail is recorded in `Compiler.spans` with the
syntax node it came from, so that a run-time error names the subexpression that failed
(`failing_part`, here with the other helpers that read generated code: `names_in`,
`variable_reads`, `show`).
"""

from __future__ import annotations

import io
import re
import tokenize
from functools import lru_cache
from typing import Callable

from ..base.errors import SourcePos
from .check_calls import _BUILTIN_NAMES
from .checker import Checker
from .compile_types import (ANY, BOOL, CARD, CARDS, INT, LIST, NONE, PAIRS, PAIRS_ANY, PILE, PILES, STR, Compiled,
                            CompileError, Function, InlinedFunctionError, Scope, TooLargeError, type_of_value)
from .emit_python import UNROLL_MOST, PythonEmitter
from .parser import Attr, Binary, Call, Comprehension, Const, Index, ListLit, Name, Node, Slice, Ternary, Unary
from .runtime import RUNTIME_GLOBALS, Meter, StepLimitError, id_checks


class Compiler:
    """Compiles expressions of one scope to Python. `uses` tells which state parts the code reads;
    `spans` the code that can fail, with the node each came from."""

    def __init__(self, scope: Scope, hoist: Callable[[Compiled], Compiled] | None = None,
                 budget: list[int] | None = None) -> None:
        self.scope = scope
        self.checker = Checker(scope, budget)
        # `hoist`, where given, may replace a subexpression that cannot fail by a local computed
        # once in an outer loop of a generated enumerator (see python/rewrites.py, `_Hoister`).
        self.writer = PythonEmitter(scope, hoist)
        self.uses = self.writer.uses
        self.spans = self.writer.spans

    def compile(self, node: Node, expect: tuple[str, ...] | None = None) -> Compiled:
        """Compile `node`; with `expect`, its type must be one of those (a value the checker cannot
        type is checked when the code runs)."""
        return self.writer.write(self.checker.check_whole(node, expect))


@lru_cache(maxsize=4096)
def names_in(source: str) -> frozenset[str]:
    """The Python names a piece of generated code uses (string literals are not looked into)."""
    names = set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.NAME:
            names.add(token.string)
    return frozenset(names)


# A read of the variables in generated code: `V[3]`, a seat's `V[6 + b_player]`, or a bare `V`.
_VAR_ACCESS = re.compile(r"\bV\b(?:\s*\[\s*(\d+)\s*(\+)?)?")


def variable_reads(source: str, seats: int) -> tuple[frozenset[int], bool]:
    """The variable slots a piece of generated code reads (all the seats' slots of a per-player
    variable), and whether it may also read others (`V` or `S.vars` used but by a constant slot)."""
    slots: set[int] = set()
    unplaced = False
    for match in _VAR_ACCESS.finditer(source):
        if source[match.end():].lstrip().startswith("= S.vars"):
            continue  # the prologue that binds V
        if match.group(1) is None:
            unplaced = True
        else:
            slot = int(match.group(1))
            slots.update(range(slot, slot + (seats if match.group(2) else 1)))
    return frozenset(slots), unplaced or "S.vars" in source.replace("V = S.vars", "")


_LEVELS = {"or": 2, "and": 3, "+": 6, "-": 6, "*": 7, "/": 7, "%": 7, "**": 9}  # comparisons and `in`: 5


def _level(node: Node) -> int:
    """How tightly a node binds (docs/language.md, Operators): 1 conditional ... 10 postfix and atoms."""
    if isinstance(node, Ternary):
        return 1
    if isinstance(node, Binary):
        return _LEVELS.get(node.op, 5)
    if isinstance(node, Unary):
        return 4 if node.op == "not" else 8
    return 10


def show(node: Node) -> str:
    """The expression text of a node, for messages (with the parentheses its operators need)."""
    def at_least(child: Node, level: int) -> str:
        text = show(child)
        return text if _level(child) >= level else f"({text})"

    if isinstance(node, Const):
        value = node.value
        if value is None or isinstance(value, bool):
            return {None: "none", True: "true", False: "false"}[value]
        if isinstance(value, str):
            return f'"{value}"' if "'" in value else f"'{value}'"
        return str(value)
    if isinstance(node, Name):
        return node.name
    if isinstance(node, Attr):
        return f"{at_least(node.obj, 10)}.{node.name}"
    if isinstance(node, Index):
        return f"{at_least(node.obj, 10)}[{show(node.index)}]"
    if isinstance(node, Slice):
        bounds = (show(b) if b is not None else "" for b in (node.lo, node.hi))
        return f"{at_least(node.obj, 10)}[{':'.join(bounds)}]"
    if isinstance(node, Call):
        return f"{node.func}({', '.join(show(a) for a in node.args)})"
    if isinstance(node, Comprehension):
        condition = f" if {at_least(node.condition, 2)}" if node.condition is not None else ""
        return (f"{node.func}({show(node.element)} for {', '.join(node.names)} in {at_least(node.iterable, 2)}"
                f"{condition})")
    if isinstance(node, Binary):
        level = _level(node)
        word = "not in" if node.op == "notin" else node.op
        if level == 5:  # comparisons do not chain
            return f"{at_least(node.left, 6)} {word} {at_least(node.right, 6)}"
        if node.op == "**":  # right-associative; its right side may be negated (2 ** -1)
            return f"{at_least(node.left, 10)} ** {at_least(node.right, 8)}"
        return f"{at_least(node.left, level)} {word} {at_least(node.right, level + 1)}"
    if isinstance(node, Unary):
        return f"not {at_least(node.operand, 4)}" if node.op == "not" else f"-{at_least(node.operand, 8)}"
    if isinstance(node, Ternary):
        return f"{at_least(node.then, 2)} if {at_least(node.condition, 2)} else {at_least(node.otherwise, 1)}"
    if isinstance(node, ListLit):
        return f"[{', '.join(show(i) for i in node.items)}]"
    return "?"  # pragma: no cover


# A subexpression that can fail: its generated code, its node, and where the node's offsets point.
Span = tuple[str, Node, Callable[[int], SourcePos]]
# The key, in the globals of generated code, of {function name: (its source, its spans)}.
SPANS = "__spans__"


def failing_part(exc: BaseException, only: list[Span] | None = None) -> tuple[SourcePos, str] | None:
    """Where the subexpression whose generated code raised `exc` is written, and its text; None
    when the failure is not inside code the compiler noted (a check of a whole expression's
    value, the step count of a generated loop).

    The traceback's innermost frame of generated code gives the failing instruction's place in
    its source (`co_positions`); the noted code that encloses it most tightly names the node.
    `only`: the code noted for the one expression that failed, where a generated function holds
    several (python/applygen.py).
    """
    tb = exc.__traceback__
    owner: tuple[str, list[Span]] | None = None
    last = None
    while tb is not None:
        table = tb.tb_frame.f_globals.get(SPANS)
        if table is not None:  # generated code (a comprehension inside it runs in a frame of its own)
            owner = table.get(tb.tb_frame.f_code.co_name, owner)
            last = tb
        tb = tb.tb_next
    if owner is None or last is None:
        return None
    source, spans = owner
    if only is not None:
        spans = only
    positions = list(last.tb_frame.f_code.co_positions())
    index = last.tb_lasti // 2  # one position per 2-byte code unit
    if not 0 <= index < len(positions):
        return None
    line, end_line, col, end_col = positions[index]
    if line is None or end_line is None or col is None or end_col is None:
        return None
    lines = source.split("\n")
    if not 1 <= line <= end_line <= len(lines):
        return None

    def offset(number: int, column: int) -> int:  # columns count UTF-8 bytes
        text = lines[number - 1]
        return sum(len(x) + 1 for x in lines[:number - 1]) + len(text.encode()[:column].decode(errors="ignore"))

    start, end = offset(line, col), offset(end_line, end_col)
    best: Span | None = None
    for span in spans:
        text = span[0]
        if best is not None and len(text) >= len(best[0]):
            continue
        at = source.find(text)
        while 0 <= at <= start:
            if at + len(text) >= end:
                best = span
                break
            at = source.find(text, at + 1)
    if best is None:
        return None
    return best[2](best[1].pos), show(best[1])


# The names other modules import from here: the compiler's own, and those of its types (compile_types.py) and of the
# run-time helpers of generated code (runtime.py).
__all__ = ["ANY", "BOOL", "CARD", "CARDS", "INT", "LIST", "NONE", "PAIRS", "PAIRS_ANY", "PILE", "PILES", "RUNTIME_GLOBALS",
           "SPANS", "STR", "UNROLL_MOST", "CompileError", "Compiled", "Compiler", "Function", "InlinedFunctionError",
           "Meter", "Scope", "Span", "StepLimitError", "TooLargeError", "_BUILTIN_NAMES", "failing_part",
           "id_checks", "names_in", "show", "type_of_value", "variable_reads"]
