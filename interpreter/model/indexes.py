"""Stage 5a: derive a move's destination index from its `when` condition.

A move with `from` and `to` lists its destinations through an index (a hash join, see
python/movegen.py) when its condition says that a value of the moved cards equals a value of the
destination. The index is read off the condition itself, so it can never leave out a move the
condition allows: after ruleset functions are written out and options folded, a conjunct
`A == B` of the condition, where `A` reads the moved cards (`src`, `card`, `cards`, `n`) but not
`dst`, and `B` reads `dst` but none of those, gives the key pair (`A`, `B`); `A + 1 == B - 2`
is rearranged (integer offsets move across). An `X if P else Y` whose test `P` reads only the
destination gives, for a card key that both branches give, the destination key
`KX if P else KY`. Any other form gives no key (the destinations are then all tried).

This module finds the candidate keys from the syntax alone; python/movegen.py then keeps the first
whose code is a number and cannot fail, and only when the conjuncts before it cannot fail
either (so that skipping a destination never hides an error the condition would have raised).
A hand-written `match` is checked against the candidates by `same_index`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Union

from ..front.compiler import Function, show
from ..front.parser import (Attr, Binary, Call, Comprehension, Const, Index, ListLit, Name, Node, Slice, Ternary, Unary,
                           conjuncts)

# The names of a move that belong to the moved packet, and those no index key may read.
PACKET_NAMES = frozenset({"src", "card", "cards", "n"})
DESTINATION_NAMES = frozenset({"dst"})
# How deep ruleset functions are written out while looking for keys (the compiler has its own limit).
_MAX_EXPANSION = 32


@dataclass(frozen=True)
class Leaf:
    """The destination key of one branch: `base + offset`, or the constant `offset` when `base` is None."""

    base: Node | None
    offset: int


@dataclass(frozen=True)
class Fork:
    """`then if condition else otherwise`, where `condition` reads only the destination."""

    condition: Node
    then: "Tree"
    otherwise: "Tree"


Tree = Union[Leaf, Fork]


@dataclass(frozen=True)
class IndexKey:
    """A derived index: the card's key and the destination's key (both expressions of the move's names),
    and what `when` tests before the key holds."""

    card: Node
    dst: Node
    # The top-level conjuncts of `when` (functions written out) up to the one the key comes from: a
    # destination whose key differs is never tested, so these must not be able to fail.
    guards: tuple[Node, ...] = ()

    def text(self) -> str:
        return f"{show(self.card)} == {show(self.dst)}"


class _Expander:
    """Writes out ruleset function calls and folds options, on the parts of a condition a key may
    come from (the `and`s, `if else`s and `==`s at its top, and the two sides of those `==`s)."""

    def __init__(self, functions: dict[str, Function], options: dict[str, Any], bound: frozenset[str]) -> None:
        self.functions = functions
        self.options = options
        self.bound = bound  # names the scope binds itself (`option` may be one)

    def expand(self, node: Node, names: dict[str, Node] | None = None, depth: int = 0) -> Node:
        """`node` with each parameter in `names` replaced by its argument, each ruleset function
        call by its body (arguments put in), each `option.NAME` by its value, and each `if else`
        with a constant test by its branch."""
        names = names or {}
        if depth > _MAX_EXPANSION:
            raise _NoKey
        if isinstance(node, Name):
            return names.get(node.name, node)
        if isinstance(node, Const):
            return node
        if isinstance(node, Attr):
            if isinstance(node.obj, Name) and node.obj.name == "option" and "option" not in names \
                    and "option" not in self.bound:
                if node.name not in self.options:
                    raise _NoKey
                return Const(node.pos, self.options[node.name])
            return Attr(node.pos, self.expand(node.obj, names, depth), node.name, node.name_pos)
        if isinstance(node, Call):
            args = tuple(self.expand(a, names, depth) for a in node.args)
            function = self.functions.get(node.func)
            if function is None:
                return Call(node.pos, node.func, args)
            if len(args) != len(function.params):
                raise _NoKey
            return self.expand(function.body, dict(zip(function.params, args)), depth + 1)
        if isinstance(node, Binary):
            left = self.expand(node.left, names, depth)
            right = self.expand(node.right, names, depth)
            if node.op in ("and", "or") and _is_truth(left):
                return right if left.value == (node.op == "and") else left  # type: ignore[attr-defined]
            if node.op in ("==", "!=") and _is_plain(left) and _is_plain(right) \
                    and type(left.value) is type(right.value):  # type: ignore[attr-defined]
                return Const(node.pos, (left.value == right.value) == (node.op == "=="))  # type: ignore[attr-defined]
            return Binary(node.pos, node.op, left, right)
        if isinstance(node, Unary):
            operand = self.expand(node.operand, names, depth)
            if node.op == "not" and _is_truth(operand):
                return Const(node.pos, not operand.value)  # type: ignore[attr-defined]
            return Unary(node.pos, node.op, operand)
        if isinstance(node, Ternary):
            condition = self.expand(node.condition, names, depth)
            if isinstance(condition, Const) and isinstance(condition.value, bool):
                return self.expand(node.then if condition.value else node.otherwise, names, depth)
            return Ternary(node.pos, self.expand(node.then, names, depth), condition,
                           self.expand(node.otherwise, names, depth))
        if isinstance(node, Index):
            return Index(node.pos, self.expand(node.obj, names, depth), self.expand(node.index, names, depth))
        if isinstance(node, Slice):
            return Slice(node.pos, self.expand(node.obj, names, depth),
                         None if node.lo is None else self.expand(node.lo, names, depth),
                         None if node.hi is None else self.expand(node.hi, names, depth))
        if isinstance(node, ListLit):
            return ListLit(node.pos, tuple(self.expand(i, names, depth) for i in node.items))
        # A comprehension binds names of its own: no key may hold one (see `_free_names`).
        return node


class _NoKey(Exception):
    """The condition (or a part of it) gives no index key."""


def _free_names(node: Node) -> frozenset[str] | None:
    """The names `node` reads, None if it holds something no key may hold (a comprehension)."""
    found: set[str] = set()
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, Comprehension):
            return None
        if isinstance(item, Name):
            found.add(item.name)
        elif isinstance(item, Attr):
            if not (isinstance(item.obj, Name) and item.obj.name == "option"):
                stack.append(item.obj)
        elif isinstance(item, Call):
            stack.extend(item.args)
        elif isinstance(item, Binary):
            stack.extend((item.left, item.right))
        elif isinstance(item, Unary):
            stack.append(item.operand)
        elif isinstance(item, Ternary):
            stack.extend((item.then, item.condition, item.otherwise))
        elif isinstance(item, Index):
            stack.extend((item.obj, item.index))
        elif isinstance(item, Slice):
            stack.extend(n for n in (item.obj, item.lo, item.hi) if n is not None)
        elif isinstance(item, ListLit):
            stack.extend(item.items)
    return frozenset(found)


def _is_truth(node: Node) -> bool:
    return isinstance(node, Const) and type(node.value) is bool


def _is_plain(node: Node) -> bool:
    """A constant number, string or truth value (options fold to these)."""
    return isinstance(node, Const) and type(node.value) in (int, str, bool)


def _is_int(node: Node) -> bool:
    return isinstance(node, Const) and type(node.value) is int


def _split_offset(node: Node) -> tuple[Node | None, int]:
    """`node` as `base + offset` with an integer constant `offset` (base None: the constant itself)."""
    if _is_int(node):
        return None, node.value  # type: ignore[attr-defined]
    if isinstance(node, Binary) and node.op in ("+", "-"):
        if isinstance(node.right, Const) and _is_int(node.right):
            base, offset = _split_offset(node.left)
            return base, offset + (node.right.value if node.op == "+" else -node.right.value)
        if node.op == "+" and isinstance(node.left, Const) and _is_int(node.left):
            base, offset = _split_offset(node.right)
            return base, offset + node.left.value
    return node, 0


class _Finder:
    """The candidate keys of one condition, in the order a conjunct gives them."""

    def __init__(self, others: frozenset[str]) -> None:
        self.others = others  # names of the move no key may read at all (`target`, a selection's cards)

    def side(self, node: Node) -> str | None:
        """'card' if `node` reads the moved packet and not the destination, 'dst' if it reads nothing
        of the packet, else None."""
        names = _free_names(node)
        if names is None or names & self.others:
            return None
        if names & PACKET_NAMES:
            return None if names & DESTINATION_NAMES else "card"
        return "dst"

    def keys(self, node: Node) -> dict[str, tuple[Node, Tree]]:
        """{text of a card key: (card key, destination tree)} such that `node` true implies the card
        key equals the tree's value for the destination."""
        if isinstance(node, Binary) and node.op == "and":
            found = self.keys(node.left)
            for text, key in self.keys(node.right).items():
                found.setdefault(text, key)
            return found
        if isinstance(node, Binary) and node.op == "==":
            for card_side, dst_side in ((node.left, node.right), (node.right, node.left)):
                if self.side(card_side) == "card" and self.side(dst_side) == "dst":
                    card_base, card_offset = _split_offset(card_side)
                    dst_base, dst_offset = _split_offset(dst_side)
                    if card_base is None:
                        continue
                    return {show(card_base): (card_base, Leaf(dst_base, dst_offset - card_offset))}
            return {}
        if isinstance(node, Ternary) and self.side(node.condition) == "dst":
            then, otherwise = self.keys(node.then), self.keys(node.otherwise)
            return {text: (card, Fork(node.condition, tree, otherwise[text][1]))
                    for text, (card, tree) in then.items() if text in otherwise}
        return {}


def _leaves(tree: Tree) -> list[Leaf]:
    return [tree] if isinstance(tree, Leaf) else _leaves(tree.then) + _leaves(tree.otherwise)


def _plus(base: Node | None, offset: int) -> Node:
    if base is None:
        return Const(0, offset)
    if offset == 0:
        return base
    return Binary(0, "+" if offset > 0 else "-", base, Const(0, abs(offset)))


def _written(tree: Tree, shift: int) -> Node:
    if isinstance(tree, Leaf):
        return _plus(tree.base, tree.offset + shift)
    return Ternary(0, _written(tree.then, shift), tree.condition, _written(tree.otherwise, shift))


def _index_key(card: Node, tree: Tree, guards: tuple[Node, ...] = ()) -> IndexKey:
    """The key pair for `card == value of tree`, its offsets placed where they cost least: on the card
    when every destination branch that reads the destination has the same one (the destination's
    keys are then read as they are, with no arithmetic that a missing card would make fail)."""
    offsets = {leaf.offset for leaf in _leaves(tree) if leaf.base is not None}
    shift = -offsets.pop() if len(offsets) == 1 else 0
    return IndexKey(_plus(card, shift), _written(tree, shift), guards)


def candidate_keys(when: Node, functions: dict[str, Function], options: dict[str, Any],
                   bound: frozenset[str], others: frozenset[str]) -> list[IndexKey]:
    """The index keys `when` implies, best first: those of its first top-level conjunct that gives any,
    then the next. `bound` are the names the move's scope binds (a binding named `option` hides the
    options); `others` the move's names no key may read."""
    finder = _Finder(others)
    expander = _Expander(functions, options, bound)
    found: list[IndexKey] = []
    try:
        expanded = expander.expand(when)
    except (_NoKey, RecursionError):
        return []
    parts = conjuncts(expanded)
    for i, conjunct in enumerate(parts):
        for card, tree in finder.keys(conjunct).values():
            # an index whose destination keys are all constants says nothing of the destination
            if any(leaf.base is not None for leaf in _leaves(tree)) or isinstance(tree, Fork):
                found.append(_index_key(card, tree, tuple(parts[:i + 1])))
    return found


def written_key(card: Node, dst: Node, functions: dict[str, Function], options: dict[str, Any],
                bound: frozenset[str], others: frozenset[str]) -> IndexKey | None:
    """A hand-written `match: {card, dst}` in the form `candidate_keys` gives (its offsets moved as
    they would be), None if it has no such form."""
    expander, finder = _Expander(functions, options, bound), _Finder(others)
    try:
        card = expander.expand(card)
    except (_NoKey, RecursionError):
        return None
    dst_tree = _value_tree(expander, finder, dst)
    card_base, card_offset = _split_offset(card)
    if dst_tree is None or card_base is None or finder.side(card_base) != "card":
        return None
    return _index_key(card_base, _shifted(dst_tree, -card_offset))


def _value_tree(expander: _Expander, finder: _Finder, node: Node) -> Tree | None:
    """A destination key written by hand as a tree of `if else` on the destination."""
    try:
        node = expander.expand(node)
    except (_NoKey, RecursionError):
        return None

    def tree(item: Node) -> Tree | None:
        if isinstance(item, Ternary) and finder.side(item.condition) == "dst":
            then, otherwise = tree(item.then), tree(item.otherwise)
            return None if then is None or otherwise is None else Fork(item.condition, then, otherwise)
        if finder.side(item) != "dst":
            return None
        base, offset = _split_offset(item)
        return Leaf(base, offset)

    return tree(node)


def _shifted(tree: Tree, by: int) -> Tree:
    if isinstance(tree, Leaf):
        return Leaf(tree.base, tree.offset + by)
    return Fork(tree.condition, _shifted(tree.then, by), _shifted(tree.otherwise, by))


def same_index(one: IndexKey, other: IndexKey) -> bool:
    """Do the two keys pair the same cards with the same destinations (written alike, offsets moved)?"""
    return show(one.card) == show(other.card) and show(one.dst) == show(other.dst)
