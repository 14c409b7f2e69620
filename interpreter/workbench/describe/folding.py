"""Folding for the rules in words: an expression tree with a ruleset's options folded to the
values chosen, its constant parts computed and calls of functions that give a constant replaced by
it, as the compiler folds them (`simplify`); and the walks over a tree the speaker needs
(`free_names`, `size`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...base.limits import INT_MAX, INT_MIN
from ...front.parser import Attr, Binary, Call, Comprehension, Const, Index, ListLit, Name, Node, Slice, Ternary, Unary

if TYPE_CHECKING:
    from .vocabulary import Book


def _in_range(value: Any) -> bool:
    return not isinstance(value, int) or isinstance(value, bool) or INT_MIN <= value <= INT_MAX


def _compute(op: str, a: Any, b: Any) -> Any:
    """`a op b` for constants, or raises (then the expression is left as written)."""
    if op in ("+", "-", "*", "/", "%", "**"):
        if not (type(a) is int and type(b) is int):
            raise TypeError
        if op == "**" and (b < 0 or b > 64 or abs(a) > 2 ** 32):
            raise ValueError
        result = {"+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b, "/": lambda: a // b,
                  "%": lambda: a % b, "**": lambda: a ** b}[op]()
        if not _in_range(result):
            raise OverflowError
        return result
    if op == "==":
        return a == b and type(a) is type(b) or a is None and b is None
    if op == "!=":
        return not (a == b and type(a) is type(b) or a is None and b is None)
    if op in ("<", "<=", ">", ">="):
        if not (type(a) is type(b) and type(a) in (int, str)):
            raise TypeError
        return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]
    if op in ("in", "notin"):
        if isinstance(b, str) and isinstance(a, str):
            found = a in b
        elif isinstance(b, (tuple, list)):
            found = any(item == a and type(item) is type(a) for item in b)
        else:
            raise TypeError
        return found if op == "in" else not found
    raise TypeError


def _const_items(node: Node) -> tuple[Any, ...] | None:
    if isinstance(node, Const) and isinstance(node.value, (tuple, list)):
        return tuple(node.value)
    if isinstance(node, ListLit) and all(isinstance(i, Const) for i in node.items):
        return tuple(i.value for i in node.items)  # type: ignore[attr-defined]
    return None


def free_names(node: Node | None) -> set[str]:
    """The names a node reads that none of its comprehensions binds."""
    if node is None:
        return set()
    if isinstance(node, Name):
        return {node.name}
    if isinstance(node, Comprehension):
        inner = free_names(node.element) | free_names(node.condition)
        return free_names(node.iterable) | (inner - set(node.names))
    names: set[str] = set()
    for child in _children(node):
        names |= free_names(child)
    return names


def _children(node: Node) -> list[Node]:
    if isinstance(node, Attr):
        return [node.obj]
    if isinstance(node, Index):
        return [node.obj, node.index]
    if isinstance(node, Slice):
        return [n for n in (node.obj, node.lo, node.hi) if n is not None]
    if isinstance(node, Call):
        return list(node.args)
    if isinstance(node, Comprehension):
        return [n for n in (node.element, node.iterable, node.condition) if n is not None]
    if isinstance(node, Unary):
        return [node.operand]
    if isinstance(node, Binary):
        return [node.left, node.right]
    if isinstance(node, Ternary):
        return [node.then, node.condition, node.otherwise]
    if isinstance(node, ListLit):
        return list(node.items)
    return []


def size(node: Node) -> int:
    """Nodes in a tree."""
    return 1 + sum(size(child) for child in _children(node))


def simplify(node: Node, book: Book, subst: dict[str, Node] | None = None, depth: int = 0) -> Node:
    """`node` with `subst`'s names replaced and, where `book.fold`, options folded to their values,
    constant parts computed, and calls of functions whose body gives a constant replaced by it."""
    subst = subst or {}

    def again(child: Node) -> Node:
        return simplify(child, book, subst, depth)

    if isinstance(node, Const):
        return node
    if isinstance(node, Name):
        return subst.get(node.name, node)
    if isinstance(node, Attr):
        if book.fold and isinstance(node.obj, Name) and node.obj.name == "option" and "option" not in subst \
                and node.name in book.options:
            return Const(node.pos, book.options[node.name])
        return Attr(node.pos, again(node.obj), node.name, node.name_pos)
    if isinstance(node, Index):
        return Index(node.pos, again(node.obj), again(node.index))
    if isinstance(node, Slice):
        return Slice(node.pos, again(node.obj), again(node.lo) if node.lo is not None else None,
                     again(node.hi) if node.hi is not None else None)
    if isinstance(node, ListLit):
        return ListLit(node.pos, tuple(again(i) for i in node.items))
    if isinstance(node, Comprehension):
        captured = set()
        for value in subst.values():
            captured |= free_names(value)
        inner = {k: v for k, v in subst.items() if k not in node.names}
        names = list(node.names)
        for i, name in enumerate(names):  # a bound name an argument also reads: renamed
            if name in captured:
                fresh = name + "2"
                while fresh in captured or fresh in names:
                    fresh += "2"
                names[i] = fresh
                inner[name] = Name(node.pos, fresh)
        element = simplify(node.element, book, inner, depth)
        condition = simplify(node.condition, book, inner, depth) if node.condition is not None else None
        if isinstance(condition, Const) and condition.value is True:
            condition = None
        return Comprehension(node.pos, node.func, element, tuple(names), again(node.iterable), condition)
    if isinstance(node, Unary):
        operand = again(node.operand)
        if book.fold and isinstance(operand, Const):
            if node.op == "not":
                return Const(node.pos, not operand.value)
            if type(operand.value) is int and _in_range(-operand.value):
                return Const(node.pos, -operand.value)
        return Unary(node.pos, node.op, operand)
    if isinstance(node, Ternary):
        condition = again(node.condition)
        if book.fold and isinstance(condition, Const):
            return again(node.then if condition.value else node.otherwise)
        return Ternary(node.pos, again(node.then), condition, again(node.otherwise))
    if isinstance(node, Binary):
        left = again(node.left)
        if book.fold and node.op in ("and", "or") and isinstance(left, Const):
            if bool(left.value) == (node.op == "or"):
                return left
            return again(node.right)
        right = again(node.right)
        if book.fold and node.op == "and" and isinstance(right, Const) and right.value is True:
            return left
        if book.fold and node.op == "or" and isinstance(right, Const) and right.value is False:
            return left
        if book.fold and isinstance(left, Const):
            items = _const_items(right) if node.op in ("in", "notin") else None
            other: Any = items if items is not None else right.value if isinstance(right, Const) else _MISSING
            if other is not _MISSING:
                try:
                    return Const(node.pos, _compute(node.op, left.value, other))
                except (TypeError, ValueError, ZeroDivisionError, OverflowError):
                    pass
        return Binary(node.pos, node.op, left, right)
    if isinstance(node, Call):
        args = tuple(again(a) for a in node.args)
        call = Call(node.pos, node.func, args)
        if not book.fold:
            return call
        if node.func in book.functions:
            if depth < 16:
                params, body = book.functions[node.func]
                if len(params) == len(args):
                    inlined = simplify(body, book, dict(zip(params, args)), depth + 1)
                    if isinstance(inlined, Const):
                        return inlined
            return call
        if node.func in ("min", "max", "abs") and args and all(isinstance(a, Const) and type(a.value) is int
                                                             for a in args):
            values = [a.value for a in args]  # type: ignore[attr-defined]
            if node.func == "abs":
                if len(values) == 1 and _in_range(abs(values[0])):
                    return Const(node.pos, abs(values[0]))
            elif len(values) >= 2:
                return Const(node.pos, min(values) if node.func == "min" else max(values))
        return call
    return node


_MISSING = object()
