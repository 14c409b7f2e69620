"""Stage 3: parse expression strings (Lark, LALR) into small AST nodes with offsets.

Every node records `pos`, the character offset of its start inside the
expression string; the loader turns it into a file line and column. The nodes are
frozen, so a parsed text is kept (`base/memo.py`) and shared by every ruleset that writes it.

The parsers (one per start symbol) are Lark's LALR parsers of `grammar/expressions.lark`.
Building their tables takes a tenth of a second, so they are shipped built, as Lark's own
serialized form in `grammar/expressions.tables.json` (JSON, never pickle) with the SHA-256 of
the grammar and the Lark version that wrote them; where either differs, the parsers are built
from the grammar as before. `python -m cardrules.front.parser` writes the file anew after a change
to the grammar (tests/test_startup.py fails until then).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import cache
from typing import Any

import lark
from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError

from ..base.limits import MAX_EXPRESSION_CHARS, MAX_EXPRESSION_DEPTH
from ..base.memo import Memo
from ..base.resources import grammar_dir


@dataclass(frozen=True)
class Node:
    pos: int


@dataclass(frozen=True)
class Const(Node):
    value: Any


@dataclass(frozen=True)
class Name(Node):
    name: str


@dataclass(frozen=True)
class Attr(Node):
    obj: Node
    name: str
    name_pos: int


@dataclass(frozen=True)
class Index(Node):
    obj: Node
    index: Node


@dataclass(frozen=True)
class Slice(Node):
    """`obj[lo:hi]`; a bound left out is None (Python's slicing, negative bounds from the end)."""
    obj: Node
    lo: Node | None
    hi: Node | None


@dataclass(frozen=True)
class Call(Node):
    func: str
    args: tuple[Node, ...]


@dataclass(frozen=True)
class Comprehension(Node):
    func: str
    element: Node
    names: tuple[str, ...]
    iterable: Node
    condition: Node | None


@dataclass(frozen=True)
class Unary(Node):
    op: str  # "not" or "neg"
    operand: Node


@dataclass(frozen=True)
class Binary(Node):
    op: str  # + - * / % ** == != < <= > >= in notin and or
    left: Node
    right: Node


@dataclass(frozen=True)
class Ternary(Node):
    then: Node
    condition: Node
    otherwise: Node


@dataclass(frozen=True)
class ListLit(Node):
    items: tuple[Node, ...]


@dataclass(frozen=True)
class Signature:
    name: str
    params: tuple[str, ...]


@dataclass(frozen=True)
class Loop:
    names: tuple[str, ...]
    iterable: Node


class ParseError(Exception):
    """An expression did not parse; `offset` is where, inside the expression string."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset


def _start(item: Any) -> int:
    if isinstance(item, Token):
        return item.start_pos or 0
    if isinstance(item, Node):
        return item.pos
    return 0


@v_args(inline=True)
class _ToAst(Transformer):
    def number(self, tok: Token) -> Node:
        return Const(tok.start_pos or 0, int(tok))

    def string(self, tok: Token) -> Node:
        return Const(tok.start_pos or 0, str(tok)[1:-1])

    @v_args(meta=True, inline=True)
    def true(self, meta: Any) -> Node:
        return Const(meta.start_pos, True)

    @v_args(meta=True, inline=True)
    def false(self, meta: Any) -> Node:
        return Const(meta.start_pos, False)

    @v_args(meta=True, inline=True)
    def none(self, meta: Any) -> Node:
        return Const(meta.start_pos, None)

    def name(self, tok: Token) -> Node:
        return Name(tok.start_pos or 0, str(tok))

    def attr(self, obj: Node, tok: Token) -> Node:
        return Attr(obj.pos, obj, str(tok), tok.start_pos or 0)

    def index(self, obj: Node, index: Node) -> Node:
        return Index(obj.pos, obj, index)

    def slice(self, obj: Node, lo: Node | None, hi: Node | None) -> Node:
        return Slice(obj.pos, obj, lo, hi)

    def args(self, *items: Node) -> tuple[Node, ...]:
        return tuple(items)

    def names(self, *toks: Token) -> tuple[str, ...]:
        return tuple(str(t) for t in toks)

    def call(self, func: Token, args: tuple[Node, ...] | None) -> Node:
        return Call(func.start_pos or 0, str(func), args or ())

    def comprehension(self, func: Token, element: Node, names: tuple[str, ...], iterable: Node,
                      condition: Node | None) -> Node:
        return Comprehension(func.start_pos or 0, str(func), element, names, iterable, condition)

    @v_args(meta=True, inline=True)
    def list(self, meta: Any, items: tuple[Node, ...] | None) -> Node:
        return ListLit(meta.start_pos, items or ())

    @v_args(meta=True, inline=True)
    def not_(self, meta: Any, operand: Node) -> Node:
        return Unary(meta.start_pos, "not", operand)

    @v_args(meta=True, inline=True)
    def neg(self, meta: Any, operand: Node) -> Node:
        return Unary(meta.start_pos, "neg", operand)

    def _binary(op: str):  # type: ignore[misc]
        def build(self: Any, left: Node, right: Node) -> Node:
            return Binary(left.pos, op, left, right)
        return build

    add = _binary("+")
    sub = _binary("-")
    mul = _binary("*")
    div = _binary("/")
    mod = _binary("%")
    pow = _binary("**")
    and_ = _binary("and")
    or_ = _binary("or")
    in_ = _binary("in")
    not_in = _binary("notin")

    def compare(self, left: Node, op: Token, right: Node) -> Node:
        return Binary(left.pos, str(op), left, right)

    def ternary(self, then: Node, condition: Node, otherwise: Node) -> Node:
        return Ternary(then.pos, then, condition, otherwise)

    def signature(self, name: Token, *params: Token | None) -> Signature:
        return Signature(str(name), tuple(str(p) for p in params if p is not None))

    def loop(self, names: tuple[str, ...], iterable: Node) -> Loop:
        return Loop(names, iterable)


_TERMINAL_NAMES = {
    "NAME": "a name", "INT": "a number", "STRING": "a string", "COMP_OP": "a comparison",
    "LPAR": "'('", "RPAR": "')'", "LSQB": "'['", "RSQB": "']'", "COMMA": "','", "DOT": "'.'",
    "PLUS": "'+'", "MINUS": "'-'", "STAR": "'*'", "SLASH": "'/'", "PERCENT": "'%'", "_POW": "'**'", "COLON": "':'",
    "$END": "the end of the expression",
}


def _describe_expected(expected: set[str]) -> str:
    words = []
    for term in sorted(expected):
        if term in _TERMINAL_NAMES:
            words.append(_TERMINAL_NAMES[term])
        elif term.isupper() and term.isalpha():
            words.append(f"'{term.lower()}'")
        else:
            words.append(term)
    words = sorted(set(words))
    if len(words) > 6:
        return ", ".join(words[:6]) + ", ..."
    return ", ".join(words)


GRAMMAR_FILE = "expressions.lark"
TABLES_FILE = "expressions.tables.json"
STARTS = ("start", "signature", "loop")
_OPTIONS: dict[str, Any] = {"parser": "lalr", "propagate_positions": True, "maybe_placeholders": True}


@cache
def _grammar() -> str:
    return (grammar_dir() / GRAMMAR_FILE).read_text(encoding="utf-8")


def grammar_digest(grammar: str) -> str:
    return hashlib.sha256(grammar.encode("utf-8")).hexdigest()


def _int_keys(pairs: list[tuple[str, Any]]) -> dict[Any, Any]:
    """JSON object keys back to what Lark wrote: its tables are keyed by numbers (state and
    token numbers); its names are never all digits."""
    return {int(key) if key.isdigit() else key: value for key, value in pairs}


@cache
def _tables() -> dict[str, Any] | None:
    """The shipped parse tables, if they were written from this grammar by this Lark version."""
    try:
        tables = json.loads((grammar_dir() / TABLES_FILE).read_text(encoding="utf-8"), object_pairs_hook=_int_keys)
    except (OSError, ValueError):
        return None
    if not isinstance(tables, dict) or tables.get("grammar_sha256") != grammar_digest(_grammar()) \
            or tables.get("lark") != lark.__version__:
        return None
    return tables


def build_parser(start: str) -> Lark:
    """The parser of `start` built from the grammar (what the shipped tables hold, built anew)."""
    return Lark(_grammar(), start=start, **_OPTIONS)


def _load_parser(start: str) -> Lark | None:
    """The parser of `start` from the shipped tables, or None."""
    tables = _tables()
    if tables is None or start not in tables.get("parsers", {}):
        return None
    try:
        return Lark.load(tables["parsers"][start])
    except Exception:  # noqa: BLE001 - tables this Lark cannot read: they are built instead
        return None


@cache
def _parser(start: str) -> Lark:
    return _load_parser(start) or build_parser(start)


def write_tables() -> str:
    """Write `grammar/expressions.tables.json` from the grammar; returns its path."""
    grammar = _grammar()
    parsers = {}
    for start in STARTS:
        data, memo = build_parser(start).memo_serialize([lark.lexer.TerminalDef, lark.grammar.Rule])
        parsers[start] = {"data": data, "memo": memo}
    path = grammar_dir() / TABLES_FILE
    text = json.dumps({"grammar_sha256": grammar_digest(grammar), "lark": lark.__version__, "parsers": parsers},
                      separators=(",", ":"), sort_keys=True)
    path.write_text(text + "\n", encoding="utf-8")
    return str(path)


# Parsed texts: (start symbol, text) -> its tree. Sized in characters of text; a tree takes some
# hundred bytes a character at most.
_PARSED: Memo[Any] = Memo("parsed expressions", 20_000, 400_000)


def _check_depth(tree: Tree) -> None:
    """Refuse a tree nested deeper than `MAX_EXPRESSION_DEPTH` (walked without recursion: the
    later stages recurse once per level)."""
    stack: list[tuple[Any, int]] = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_EXPRESSION_DEPTH:
            offset = node.meta.start_pos if not node.meta.empty else 0
            raise ParseError(f"the expression is nested more than {MAX_EXPRESSION_DEPTH} deep", offset)
        stack.extend((child, depth + 1) for child in node.children if isinstance(child, Tree))


def _parse(text: str, start: str) -> Any:
    if len(text) > MAX_EXPRESSION_CHARS:
        raise ParseError(f"the expression is longer than {MAX_EXPRESSION_CHARS:,} characters", 0)
    key = (start, text)
    tree = _PARSED.get(key)
    if tree is None:
        tree = _parse_anew(text, start)  # a failure raises, and is not kept
        _PARSED.put(key, tree, len(text) + 16)
    return tree


def _parse_anew(text: str, start: str) -> Any:
    try:
        tree = _parser(start).parse(text)
        _check_depth(tree)
        return _ToAst().transform(tree)
    except UnexpectedToken as exc:
        tok = exc.token
        if tok.type == "$END" or tok.start_pos is None:
            offset = len(text.rstrip())
        else:
            offset = tok.start_pos
        found = "the end of the expression" if tok.type == "$END" else repr(str(tok))
        raise ParseError(f"unexpected {found}: expected {_describe_expected(set(exc.expected))}",
                         offset) from None
    except UnexpectedCharacters as exc:
        where = exc.pos_in_stream or 0
        raise ParseError(f"unexpected character {text[where]!r}", where) from None
    except UnexpectedEOF as exc:
        raise ParseError(f"unexpected end of the expression: expected {_describe_expected(set(exc.expected))}",
                         len(text)) from None
    except UnexpectedInput as exc:  # pragma: no cover - other Lark input errors
        raise ParseError(str(exc), getattr(exc, "pos_in_stream", 0) or 0) from None
    except VisitError as exc:  # pragma: no cover - a bug in the transformer
        raise ParseError(f"cannot read the expression: {exc.orig_exc}", 0) from None


def parse_expression(text: str) -> Node:
    """Parse one expression; raises `ParseError` with the offset of the problem."""
    if not text.strip():
        raise ParseError("empty expression", 0)
    return _parse(text, "start")


def parse_signature(text: str) -> Signature:
    """Parse a function signature such as ``fits(card, pile)``."""
    return _parse(text, "signature")


def parse_loop(text: str) -> Loop:
    """Parse a loop header such as ``p in tableau``."""
    return _parse(text, "loop")


if __name__ == "__main__":
    print(f"wrote {write_tables()}")


def conjuncts(node: Node) -> list[Node]:
    """The parts of `a and b and ...`, in the order written (a node that is no `and`: itself)."""
    if isinstance(node, Binary) and node.op == "and":
        return conjuncts(node.left) + conjuncts(node.right)
    return [node]
