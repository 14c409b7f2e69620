"""Stage 5b, whether generated code cannot fail: `_CannotFail` tells, from what is known at load (the
deck's attribute tables, the locals that hold a card), whether the code of an enumerator's condition
can raise when it runs. python/rewrites.py makes a rewrite that changes only the work (an index, a
scan of a run, a value put back into its condition) only where it says the code cannot fail."""

from __future__ import annotations

import ast
from functools import lru_cache


@lru_cache(maxsize=4096)
def _parse(source: str) -> ast.expr | None:
    """The syntax tree of generated code (None if it is not one expression). The trees are kept, as
    the same code comes again for each option combination a validation builds: no caller changes them."""
    try:
        return ast.parse(source, mode="eval").body
    except (SyntaxError, RecursionError, MemoryError, ValueError):
        return None


# Kinds of value, for `_CannotFail`: a number (never `none`), a string, a card of the deck, anything.
_INT, _STR, _CARD, _ANY = "int", "str", "card", "any"
_CARD_OR_NONE = "card or none"  # (with `_CannotFail.tops`) a pile's top or bottom card, none if it is empty


def _top_or_none(node: ast.IfExp) -> str | None:
    """The local holding the pile if this is the compiler's `top(p)` or `bottom(p)` of a pile in a
    local, `(pile[-1] if pile else None)`; else None."""
    body, end = node.body, getattr(node.body, "slice", None)
    first_or_last = (isinstance(end, ast.Constant) and end.value == 0) or (
        isinstance(end, ast.UnaryOp) and isinstance(end.op, ast.USub) and isinstance(end.operand, ast.Constant)
        and end.operand.value == 1)
    if isinstance(node.test, ast.Name) and isinstance(body, ast.Subscript) and first_or_last \
            and isinstance(body.value, ast.Name) and body.value.id == node.test.id \
            and isinstance(node.orelse, ast.Constant) and node.orelse.value is None:
        return node.test.id
    return None


def _emptiness_test(node: ast.expr) -> str | None:
    """The local holding the pile if `node` is the compiler's `empty(p)` of a pile in a local, `(not pile)`."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not) and isinstance(node.operand, ast.Name):
        return node.operand.id
    return None


class _MayFail(Exception):
    pass


def _variable_slot(node: ast.expr) -> bool:
    """Is this the slot of a variable as the compiler reads one that cannot fail: `V[3]`, or the acting
    seat's value of a per-player variable, `V[3 + b_player]`?"""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) and isinstance(node.right, ast.Name) \
            and node.right.id == "b_player":
        node = node.left
    return isinstance(node, ast.Constant) and type(node.value) is int


class _CannotFail:
    """Tells whether generated code cannot raise when it runs, from what is known at load: which
    locals hold a card of the deck (`cards`), what each card attribute table gives for every card
    (`tables`, see `MoveGenerator._table_kinds`), and the code of the hoisted locals.

    The compiler's `Compiled.total` cannot know the deck: `b.rank + 1` may fail for a card without a
    rank. Here it cannot, when every card has a number rank. Only a few forms are known (names,
    constants, an attribute table or `U` indexed by a card, a variable, `and`, `or`, `not`, `if else`,
    `==` and `!=` on anything, order and `+ - *` on numbers, `//` and `%` by a non-zero constant, `-`
    of a number); any other code may fail. A value read from a name the facts do not type, a variable
    or a hoisted local of unknown kind is `_ANY`: fine to compare with `==` or test, not to add.
    """

    def __init__(self, tables: dict[str, str], hoisted: dict[str, str], cards: frozenset[str],
                 tops: bool = False) -> None:
        self.tables = tables
        self.hoisted = hoisted
        self.cards = cards
        # `(pile[-1] if pile else None)`, a pile's top card or none, read from a local list: an
        # attribute table gives none for none (with `tops`; `_derived_index` asks so).
        self.tops = tops
        self._filled: frozenset[str] = frozenset()  # the locals holding piles known not to be empty here
        self._hoisted_kinds: dict[str, str] = {}

    def kind(self, source: str, cards: tuple[str, ...] = (), filled: frozenset[str] = frozenset()) -> str | None:
        """The kind of value the code gives, None when it may fail; `cards` are more locals holding a card,
        `filled` locals holding a pile known to hold a card (with `tops`)."""
        node = _parse(source)
        if node is None:
            return None
        self._filled = filled
        try:
            return self._kind(node, self.cards | set(cards))
        except (_MayFail, RecursionError):
            return None

    def _kind(self, node: ast.expr, cards: frozenset[str]) -> str:
        if isinstance(node, ast.Constant):
            value = node.value
            return _INT if type(value) is int else _STR if type(value) is str else _ANY
        if isinstance(node, ast.Name):
            if node.id in cards:
                return _CARD
            if node.id in ("b_n", "b_src", "b_dst", "b_player", "b_target"):
                return _INT
            if node.id in self.hoisted:  # its code cannot fail (the hoister takes no other): only its kind is asked
                if node.id not in self._hoisted_kinds:
                    self._hoisted_kinds[node.id] = self.kind(self.hoisted[node.id]) or _ANY
                return self._hoisted_kinds[node.id]
            return _ANY  # reading a local or a global cannot fail
        if isinstance(node, ast.Subscript):
            table = node.value.id if isinstance(node.value, ast.Name) else ""
            if table == "V" and _variable_slot(node.slice):
                return _ANY
            kind = self._kind(node.slice, cards)
            if (table in self.tables or table == "U") and kind == _CARD:
                return self.tables.get(table, _INT)
            if table in self.tables and kind == _CARD_OR_NONE:
                return _ANY
            raise _MayFail
        if isinstance(node, (ast.BoolOp, ast.Tuple)):
            for item in node.values if isinstance(node, ast.BoolOp) else node.elts:
                self._kind(item, cards)
            return _ANY
        if isinstance(node, ast.UnaryOp):
            operand = self._kind(node.operand, cards)
            if isinstance(node.op, ast.Not):
                return _ANY
            if isinstance(node.op, ast.USub) and operand == _INT:
                return _INT
            raise _MayFail
        if isinstance(node, ast.BinOp):
            left, right = self._kind(node.left, cards), self._kind(node.right, cards)
            if left == right == _INT and (isinstance(node.op, (ast.Add, ast.Sub, ast.Mult)) or (
                    isinstance(node.op, (ast.FloorDiv, ast.Mod)) and isinstance(node.right, ast.Constant)
                    and node.right.value != 0)):
                return _INT
            raise _MayFail
        if isinstance(node, ast.Compare):
            kinds = [self._kind(node.left, cards)] + [self._kind(c, cards) for c in node.comparators]
            for op, left, right in zip(node.ops, kinds, kinds[1:]):
                if not (isinstance(op, (ast.Eq, ast.NotEq, ast.Is, ast.IsNot)) or (
                        isinstance(op, (ast.Lt, ast.LtE, ast.Gt, ast.GtE)) and left == right and left in (_INT, _STR))):
                    raise _MayFail
            return _ANY
        if isinstance(node, ast.IfExp):
            if self.tops:
                pile = _top_or_none(node)
                if pile is not None:
                    return _CARD if pile in self._filled else _CARD_OR_NONE
            self._kind(node.test, cards)
            then = self._kind(node.body, cards)
            filled = _emptiness_test(node.test) if self.tops else None
            if filled is not None:  # `b if empty(p) else top(p).rank + 1`: p holds a card past the test
                saved = self._filled
                self._filled = saved | {filled}
                try:
                    otherwise = self._kind(node.orelse, cards)
                finally:
                    self._filled = saved
            else:
                otherwise = self._kind(node.orelse, cards)
            return then if then == otherwise else _ANY
        raise _MayFail
