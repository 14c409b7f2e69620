"""The speaker's base for the rules in words: its state (the ruleset's `Book`, the names of one
context, the budget of functions written out), the helpers every node kind uses, and the words of
names, constants, attributes, indexes, slices, lists, conditionals and operators; `speaker.Speaker`
adds the entry points and the words of comprehensions and calls."""

from __future__ import annotations

from collections.abc import Sequence

from ...front.parser import Attr, Binary, Call, Comprehension, Const, Index, ListLit, Name, Node, Slice, Ternary, Unary
from .folding import _const_items
from .vocabulary import Book, Term, _join, _ordinal, _plain, _value_text, possessive

INLINE_NODES = 40          # a function body of at most this many nodes is written out where it is called
INLINE_BUDGET = 120        # nodes written out by inlining in one expression, in all
INLINE_DEPTH = 1           # a function written out names the functions its body calls

_COMPARE = {"==": ("is", "is not"), "!=": ("is not", "is"), "<": ("is less than", "is not less than"),
            "<=": ("is at most", "is more than"), ">": ("is more than", "is at most"),
            ">=": ("is at least", "is less than")}
_LISTED = frozenset({"cards", "piles", "list", "numbers"})  # kinds of what `+` joins rather than adds
_ARITH = {"+": "plus", "-": "minus", "*": "times", "/": "divided by (rounded down)", "%": "modulo",
          "**": "to the power of"}
_LEVEL = {"or": 2, "and": 3, "+": 6, "-": 6, "*": 7, "/": 7, "%": 7, "**": 9}
_NEGATED = {"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<"}
_QUANTITY = {"==": "exactly", "!=": "other than", "<": "fewer than", "<=": "at most", ">": "more than",
             ">=": "at least"}

_GLOBALS = {
    "players": "the number of players",
    "seats": "the seats",
    "direction": "the direction of play (1 or -1)",
    "phase": "the phase",
    "player": "the player",
    "move": "the move's name",
}


class SpeakerBase:
    """A speaker's state, helpers and the words of every node kind but comprehensions and calls."""

    def __init__(self, book: Book, names: dict[str, Term] | None = None, budget: list[int] | None = None,
                 depth: int = 0, calls: dict[str, int] | None = None) -> None:
        self.book = book
        self.names = dict(names or {})
        self.budget = budget if budget is not None else [INLINE_BUDGET]
        self.depth = depth
        self.calls = calls  # how often the expression being spoken calls each function (None: not begun)

    def with_names(self, extra: dict[str, Term]) -> SpeakerBase:
        """This speaker with `extra` names added (`Speaker.with_names`)."""
        raise NotImplementedError

    def say(self, node: Node, neg: bool = False, top: bool = True) -> str:
        """`node` in words (`Speaker.say`)."""
        raise NotImplementedError

    # -- helpers ------------------------------------------------------------------------------

    @staticmethod
    def _not(text: str, neg: bool) -> str:
        return f"not {text}" if neg else text

    def kind(self, node: Node) -> str:
        """What a node gives, as far as the words need it."""
        if isinstance(node, Name):
            if node.name in self.names:
                return self.names[node.name].kind
            if node.name in self.book.zones:
                return self.book.zone_term(node.name).kind
            return {"seats": "seats", "players": "number"}.get(node.name, "")
        if isinstance(node, Call):
            if node.func in ("cards", "run"):
                return "cards"
            if node.func in ("top", "bottom"):
                return "card"
            if node.func in ("size", "count", "sum", "abs", "index"):
                return "number"
            if node.func in ("sorted", "unique") and node.args:
                return self.kind(node.args[0])
            if node.func == "range":
                return "numbers"
            if node.func == "of" and node.args and isinstance(node.args[0], Name) \
                    and node.args[0].name in self.book.zones:
                return "pile" if self.book.zones[node.args[0].name].single else "piles"
            return ""
        if isinstance(node, Index):
            return {"piles": "pile", "cards": "card", "pile": "card", "seats": "seat"}.get(self.kind(node.obj), "")
        if isinstance(node, Slice):
            obj = self.kind(node.obj)
            return "cards" if obj == "pile" else obj
        if isinstance(node, Comprehension) and node.func in ("list", "sorted", "unique"):
            element = self.with_names(self._loop_names(node.names, node.iterable)).kind(node.element)
            return {"pile": "piles", "card": "cards"}.get(element, "list")
        if isinstance(node, Comprehension) and node.func in ("argmin", "argmax"):
            return self._element_kind(node.iterable)
        if isinstance(node, Comprehension) and node.func == "argsort":
            return {"pile": "piles", "card": "cards"}.get(self._element_kind(node.iterable), "list")
        if isinstance(node, ListLit):
            return "list"
        if isinstance(node, Binary) and node.op == "+":  # lists joined: cards and cards give cards
            kinds = {self.kind(node.left), self.kind(node.right)}
            if kinds & _LISTED:
                return kinds.pop() if len(kinds) == 1 else "list"
            return ""
        if isinstance(node, Const):
            return "number" if type(node.value) is int else ""
        return ""

    def _element_kind(self, iterable: Node) -> str:
        return {"piles": "pile", "cards": "card", "seats": "seat", "numbers": "number"}.get(self.kind(iterable), "")

    def _loop_names(self, names: Sequence[str], iterable: Node) -> dict[str, Term]:
        if isinstance(iterable, Call) and iterable.func == "subsets" and iterable.args:
            items = self.kind(iterable.args[0])  # each set is a list of the items
            return {n: Term(n, "cards" if items in ("cards", "pile") else "list") for n in names}
        if isinstance(iterable, Call) and iterable.func == "pairs" and len(names) == 2:
            element = self._element_kind(iterable.args[0]) if iterable.args else ""
            return {n: Term(n, element) for n in names}
        element = self._element_kind(iterable)
        return {n: Term(n, element) for n in names}

    def _wrap(self, text: str, top: bool) -> str:
        return text if top else f"({text})"

    # -- node kinds ---------------------------------------------------------------------------

    def _const(self, node: Const, neg: bool, top: bool) -> str:
        if isinstance(node.value, bool):
            return "false" if node.value == neg else "true"
        return self._not(_value_text(node.value), neg)

    def _name(self, node: Name, neg: bool, top: bool) -> str:
        name = node.name
        if name in self.names:
            text = self.names[name].text
        elif name in self.book.marks:
            text = possessive(self.names.get("card", Term("the card")).text, _plain(name))
        elif name in self.book.variables:
            owner = self.names.get("player", Term("the player")).text
            text = possessive(owner, name) if self.book.variables[name] else name
        elif name in self.book.zones:
            text = self.book.zone_term(name).text
        elif name in _GLOBALS:
            text = _GLOBALS[name]
        else:
            text = _plain(name)
        return self._not(text, neg)

    def _attr(self, node: Attr, neg: bool, top: bool) -> str:
        if isinstance(node.obj, Name) and node.obj.name == "option" and "option" not in self.names:
            if node.name in self.book.flags:
                return f"the {_plain(node.name)} option is {'off' if neg else 'on'}"
            return self._not(f"the {_plain(node.name)} option", neg)
        owner = self.say(node.obj, top=False)
        if node.name == "face_up":
            return f"{owner} is {'not ' if neg else ''}face up"
        words = {"index": "index", "zone": "zone", "owner": "seat"}
        thing = words.get(node.name, _plain(node.name)) if self.kind(node.obj) != "card" or node.name == "zone" \
            else _plain(node.name)
        return self._not(possessive(owner, thing), neg)

    def _index(self, node: Index, neg: bool, top: bool) -> str:
        kind = self.kind(node.obj)
        noun = {"piles": "pile", "cards": "card", "pile": "card", "seats": "seat"}.get(kind, "item")
        if isinstance(node.index, Const) and type(node.index.value) is int:
            k = node.index.value
            if kind == "piles" and isinstance(node.obj, Name) and node.obj.name in self.book.zones and k >= 0:
                zone = self.book.zones[node.obj.name]
                # An ordinal, as a person counts ("the 13th clock pile"): a number here is 0-based
                # where the rules compute with it (the text's header says so), so none is written.
                owner = "the player's " if zone.per_player else "the "
                return self._not(f"{owner}{_ordinal(k + 1)} {zone.singular}", neg)
            obj = self.say(node.obj, top=False)
            if kind in ("pile", "cards"):
                where = f"from the bottom of {obj}" if k >= 0 else f"from the top of {obj}"
                return self._not(f"the {_ordinal(k + 1 if k >= 0 else -k)} card {where}", neg)
            if k >= 0:
                return self._not(f"the {_ordinal(k + 1)} {noun} of {obj}", neg)
            if k == -1:
                return self._not(f"the last {noun} of {obj}", neg)
            return self._not(f"the {_ordinal(-k)}-to-last {noun} of {obj}", neg)
        obj = self.say(node.obj, top=False)
        return self._not(f"{noun} number {self.say(node.index, top=False)} of {obj}", neg)

    def _slice(self, node: Slice, neg: bool, top: bool) -> str:
        kind = self.kind(node.obj)
        nouns = {"piles": "piles", "cards": "cards", "pile": "cards", "seats": "seats"}.get(kind, "items")
        obj = self.say(node.obj, top=False)
        lo, hi = node.lo, node.hi
        lo_k = lo.value if isinstance(lo, Const) and type(lo.value) is int else None
        hi_k = hi.value if isinstance(hi, Const) and type(hi.value) is int else None
        if lo is None and hi is None:
            text = f"all the {nouns} of {obj}"
        elif hi is None and lo_k is not None and lo_k < 0:
            text = f"the last {-lo_k} {nouns} of {obj}"
        elif hi is None and lo_k is not None:
            text = f"the {nouns} of {obj} but the first {lo_k}"
        elif lo is None and hi_k is not None and hi_k >= 0:
            text = f"the first {hi_k} {nouns} of {obj}"
        elif lo is None and hi_k is not None:
            text = f"the {nouns} of {obj} but the last {-hi_k}"
        else:
            start = f"from position {self.say(lo, top=False)}" if lo is not None else "from the first"
            end = f" up to, not including, position {self.say(hi, top=False)}" if hi is not None else " on"
            text = f"the {nouns} of {obj} {start}{end}"
        return self._not(text, neg)

    def _listlit(self, node: ListLit, neg: bool, top: bool) -> str:
        if not node.items:
            return self._not("an empty list", neg)
        return self._not("the list of " + _join([self.say(i, top=False) for i in node.items]), neg)

    def _unary(self, node: Unary, neg: bool, top: bool) -> str:
        if node.op == "not":
            return self.say(node.operand, not neg, top)
        text = f"minus {self.say(node.operand, top=False)}" if not isinstance(node.operand, Const) \
            else f"-{self.say(node.operand)}"
        return self._not(text, neg)

    def _ternary(self, node: Ternary, neg: bool, top: bool) -> str:
        parts = []
        current: Node = node
        while isinstance(current, Ternary):
            parts.append(f"{self.say(current.then, neg, top=False)} if {self.say(current.condition, top=False)}")
            current = current.otherwise
        parts.append(f"otherwise {self.say(current, neg, top=False)}")
        return self._wrap(", ".join(parts), top)

    def _binary(self, node: Binary, neg: bool, top: bool) -> str:
        op = node.op
        if op in ("and", "or"):
            return self._chain(node, neg, top)
        if op in _COMPARE:
            return self._compare(node, neg, top)
        if op in ("in", "notin"):
            return self._member(node, neg != (op == "notin"))
        level = _LEVEL[op]

        def side(child: Node, least: int) -> str:
            text = self.say(child, top=False)
            return f"({text})" if isinstance(child, Binary) and _LEVEL.get(child.op, 5) < least else text

        if op == "**":
            text = f"{side(node.left, 10)} to the power of {side(node.right, 9)}"
        elif op == "+" and self.kind(node) in _LISTED:  # two lists joined
            text = f"{side(node.left, level)} followed by {side(node.right, level + 1)}"
        else:
            text = f"{side(node.left, level)} {_ARITH[op]} {side(node.right, level + 1)}"
        return self._not(text, neg)

    def _compare(self, node: Binary, neg: bool, top: bool) -> str:
        left, right = node.left, node.right
        if isinstance(left, Const) and not isinstance(right, Const):  # "3 <= n": the name first
            flipped = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}.get(node.op, node.op)
            left, right, op = right, left, flipped
        else:
            op = node.op
        if isinstance(right, Const) and isinstance(right.value, bool) and op in ("==", "!="):
            return self.say(left, neg != ((op == "==") != right.value), top)
        if isinstance(left, Comprehension) and left.func == "count":  # "exactly 2 f in the foundation piles ..."
            return self._counted(left, _NEGATED[op] if neg else op, right)
        words = _COMPARE[op][1 if neg else 0]
        return f"{self.say(left, top=False)} {words} {self.say(right, top=False)}"

    def _counted(self, count: Comprehension, op: str, right: Node) -> str:
        inner = self.with_names(self._loop_names(count.names, count.iterable))
        names = " and ".join(count.names)
        tests = [inner.say(count.condition)] if count.condition is not None else []
        if not (isinstance(count.element, Name) and count.element.name in count.names):
            tests.append(inner.say(count.element))
        quantity = f"{_QUANTITY[op]} {self.say(right, top=False)} {names} in {self.say(count.iterable, top=False)}"
        return f"{quantity} are such that {_join(tests)}" if tests else f"there are {quantity}"

    def _member(self, node: Binary, negative: bool) -> str:
        left = self.say(node.left, top=False)
        right = node.right
        if isinstance(right, ListLit) or _const_items(right) is not None:
            items = [self.say(i, top=False) for i in right.items] if isinstance(right, ListLit) \
                else [_value_text(v) for v in (_const_items(right) or ())]
            if not items:
                return f"{left} is {'anything' if negative else 'never anything'}"
            if len(items) == 1:
                return f"{left} is {'not ' if negative else ''}{items[0]}"
            if negative:
                return f"{left} is neither " + " nor ".join(items) if len(items) == 2 \
                    else f"{left} is none of " + _join(items, "and")
            return f"{left} is {_join(items, 'or')}"
        if isinstance(right, Call) and right.func == "range" and right.args:
            bounds = [self.say(a, top=False) for a in right.args]
            span = f"from 0 to {bounds[0]} minus 1" if len(bounds) == 1 else f"from {bounds[0]} to {bounds[1]} minus 1"
            if all(isinstance(a, Const) and type(a.value) is int for a in right.args):
                values = [a.value for a in right.args]  # type: ignore[attr-defined]
                low, high = (0, values[0]) if len(values) == 1 else (values[0], values[1])
                span = f"from {low} to {high - 1}"
            return f"{left} is {'not ' if negative else ''}a number {span}"
        return f"{left} is {'not ' if negative else ''}one of {self.say(right, top=False)}"

    def _chain(self, node: Binary, neg: bool, top: bool) -> str:
        op = node.op
        items: list[Node] = []

        def flatten(n: Node) -> None:
            if isinstance(n, Binary) and n.op == op:
                flatten(n.left)
                flatten(n.right)
            else:
                items.append(n)

        flatten(node)
        if neg and op == "or":  # not (a or b): neither a nor b
            texts = [self.say(i, top=False) for i in items]
            return self._wrap("neither " + ", nor ".join(texts) if len(texts) > 2 else
                              f"neither {texts[0]} nor {texts[1]}", top)
        if neg:  # not (a and b)
            texts = [self.say(i, top=False) for i in items]
            return self._wrap("not all of " + _join(texts) if len(texts) > 2 else
                              f"not both {texts[0]} and {texts[1]}", top)
        texts = [self.say(i, top=False) for i in items]
        complex_ = any("," in t or " either " in f" {t}" or " both " in f" {t}" for t in texts)
        joined = f", {op} ".join(texts) if complex_ else f" {op} ".join(texts)
        if top:
            return joined
        if op == "or":
            return f"either {joined}"
        return f"both {joined}" if len(texts) == 2 else f"({joined})"
