"""Stage 6c: why a move text is not legal now (`Game.explain`).

A text is read back into the moves it could name (`_read_text`: move name, piles, count,
cards, seat or value, as `Move.text` writes them). Text that names no move this ruleset could
ever offer gets "did you mean" suggestions (difflib over the legal move texts and the texts
of the moves the position's piles could make). For a move that exists but is not legal now,
the checks the generated enumerator makes are made again one by one, in its order, and the
first that fails is told: the game is over, not the seat's turn, the wrong phase, a pile not
the seat's, an empty or covered pile, a run not face up, a card not there, or the condition
(`for_seat`, `when`, `select`, `match`) that is false. A condition is explained on its parsed
tree: each part is compiled again (never the ruleset's text) and evaluated on the position,
descending into `and` (the false conjunct), `x if c else y` (the branch taken) and the
ruleset's functions (the body, its parameters bound), and the false part is marked in the
expression as written, with its file position.

Hidden cards stay hidden: the parts are evaluated on a copy of the state whose piles note
every card read (`_Watched`); a part that read a card the seat cannot see shows no value, and
a false part is named only when the seat could tell it is false (every other part of its `and`
is one it can see to be true), so an explanation tells no more than the legal moves do.
Evaluating counts against the ruleset's step meter, like a listing; a rule that fails is a
`RulesetRuntimeError` at its position.
"""

from __future__ import annotations

import difflib
import re
import weakref
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..front.compiler import (
    CARD,
    CARDS,
    PILE,
    PILES,
    CompileError,
    Compiler,
    Function,
    Scope,
    StepLimitError,
)
from ..base.errors import CardrulesError, IllegalMoveError, SourcePos, printable
from ..base.memo import compile_once
from .moves import BLIND, Move
from ..front.parser import (
    Binary,
    Call,
    Comprehension,
    Name,
    Node,
    Ternary,
    Unary,
    parse_signature,
)

if TYPE_CHECKING:
    from .engine import Game
    from .state import State
    from ..model.ruleset import MoveTemplate, Ruleset

# How many texts of possible moves "did you mean" compares with, and how many it offers.
MAX_POOL = 5_000
SUGGESTIONS = 3
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


# -- reading a text back into moves ---------------------------------------------------------------

@dataclass
class _Shape:
    """The parts of a move text (`Move.text`'s form), as piles and numbers."""

    name: str | None = None            # a move name written (`build:`, `draw`)
    actor: int | None = None           # `draw@2`: the seat that moves (simultaneous games)
    src: int = -1
    count: int | None = None           # `t3x2`
    picks: tuple[str, ...] | None = None  # `h@1:7H` (codes, lowercase), `?` for a blind pick
    selection: tuple[tuple[int, int], ...] = ()
    dst: int = -1
    word: str | None = None            # a trailing `seat2` or value
    named: bool = False                # the bare name of a move (`draw`, `draw@2`)
    one_pile: bool = False             # only one pile written (a source or a destination)


_COUNTED = re.compile(r"^(.*)x([0-9]+)$")


def _pile_names(rules: Ruleset) -> dict[str, int]:
    names = {name.lower(): i for i, name in enumerate(rules.pile_long_names)}
    names.update({name.lower(): i for i, name in enumerate(rules.pile_names)})
    return names


def _pile_and_count(piles: dict[str, int], text: str) -> tuple[int, int | None] | None:
    if text in piles:
        return piles[text], None
    found = _COUNTED.match(text)
    if found and found.group(1) in piles:
        return piles[found.group(1)], int(found.group(2))
    return None


def _read_text(rules: Ruleset, wanted: str) -> tuple[list[_Shape], str]:
    """The shapes `wanted` (lowercase, single spaces) may be, or none and what is wrong."""
    piles = _pile_names(rules)
    names = {t.name.lower() for t in rules.moves}
    shapes: list[_Shape] = []
    problems: list[str] = []
    splits: list[tuple[str, str | None]] = [(wanted, None)]
    if " " in wanted:
        first, last = wanted.rsplit(" ", 1)
        splits.insert(0, (first, last))
    picking = {t.name.lower() for t in rules.moves if t.named_text and t.take == "any"}
    for head, word in splits:
        bare, at, seat = head.partition("@")
        if head in names or (at and bare in names and seat.isdigit()):  # `draw`, `draw@2`
            shapes.append(_Shape(name=bare if at else head, actor=int(seat) - 1 if at else None, word=word,
                                 named=True))
            continue
        named, colon, codes = head.partition(":")
        bare, at, seat = named.partition("@")
        if colon and bare in picking and (not at or seat.isdigit()):  # `play:7h`, `play@2:7h`: the cards
            shapes.append(_Shape(name=bare, actor=int(seat) - 1 if at else None, word=word, named=True,
                                 picks=tuple(codes.split(","))))
            continue
        name, rest = None, head
        prefix, colon, after = head.partition(":")
        if colon and prefix in names:
            name, rest = prefix, after
        src_text, arrow, dst_text = rest.partition(">")
        shape = _Shape(name=name, word=word)
        if not arrow:
            shape.one_pile = True
        parts = src_text.split("+")
        first, colon, picks = parts[0].partition(":")
        found = _pile_and_count(piles, first)
        if found is None:
            problems.append(f"there is no pile '{first}'" if first and first not in names
                            else f"no move is written '{wanted}'")
            continue
        shape.src, shape.count = found
        if colon:
            shape.picks = tuple(picks.split(","))
        selection = []
        for part in parts[1:]:
            chosen = _pile_and_count(piles, part)
            if chosen is None:
                problems.append(f"there is no pile '{part}'")
                break
            selection.append((chosen[0], chosen[1] or 1))
        else:
            shape.selection = tuple(selection)
            if arrow:
                if dst_text not in piles:
                    problems.append(f"there is no pile '{dst_text}'")
                    continue
                shape.dst = piles[dst_text]
            shapes.append(shape)
    if shapes:
        return shapes, ""
    if not wanted:
        return [], "no move was written"
    if problems and all(p.startswith("there is no pile") for p in problems) and ">" not in wanted \
            and ":" not in wanted and "@" not in wanted:
        return [], f"no move or pile is named '{wanted.split(' ')[0]}'"
    return [], problems[0] if problems else f"no move is written '{wanted}'"


# -- evaluating parts of expressions on the position ----------------------------------------------

class _Watched(list):  # type: ignore[type-arg]
    """A pile's cards that note every card read from them (indexed, sliced, iterated, searched)."""

    __slots__ = ("seen",)

    def __init__(self, cards: Iterable[int], seen: set[int]) -> None:
        super().__init__(cards)
        self.seen = seen

    def __getitem__(self, index: Any) -> Any:
        value = list.__getitem__(self, index)
        if isinstance(index, slice):
            self.seen.update(value)
        else:
            self.seen.add(value)
        return value

    def __iter__(self) -> Any:
        self.seen.update(list.__iter__(self))
        return list.__iter__(self)

    def __reversed__(self) -> Any:
        self.seen.update(list.__iter__(self))
        return list.__reversed__(self)

    def __contains__(self, item: object) -> bool:
        self.seen.update(list.__iter__(self))
        return list.__contains__(self, item)

    def __eq__(self, other: object) -> bool:
        self.seen.update(list.__iter__(self))
        return list(list.__iter__(self)) == other

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    __hash__ = None  # type: ignore[assignment]


@dataclass
class _Frame:
    """An expression being explained: the names its parts see, and where it is written."""

    scope: Scope
    env: dict[str, Any]
    secret: frozenset[str]        # names whose values tell something the seat cannot see
    text: str
    locate: Callable[[int], SourcePos] | None
    label: str
    extra: tuple[tuple[str, str, str], ...] = ()  # bindings added to the template's scope (name, python, type)


@dataclass
class _Value:
    ok: bool
    value: Any = None
    type: str = "any"
    secret: bool = False
    error: BaseException | None = None


# Compiled parts, by ruleset: (template scope id, extra bindings, node) -> (function, type).
_COMPILED: weakref.WeakKeyDictionary[Any, dict[Any, tuple[Callable[..., Any], str]]] = weakref.WeakKeyDictionary()
_MOST_COMPILED = 4_000


def _names(node: Node) -> set[str]:
    """The names a node reads (its own comprehension names too: a cautious overestimate)."""
    found: set[str] = set()
    stack: list[Any] = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, Name):
            found.add(item.name)
        elif isinstance(item, Node):
            stack.extend(v for v in vars(item).values() if isinstance(v, (Node, tuple)))
        elif isinstance(item, tuple):
            stack.extend(v for v in item if isinstance(v, Node))
    return found


def _span(node: Node, text: str) -> tuple[int, int]:
    """Where a node is written in `text`: from its first to its last character, brackets balanced."""
    start, end = node.pos, node.pos
    stack: list[Any] = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, tuple):
            stack.extend(v for v in item if isinstance(v, Node))
            continue
        if not isinstance(item, Node):
            continue
        start = min(start, item.pos)
        children = [v for v in vars(item).values() if isinstance(v, (Node, tuple))]
        stack.extend(children)
        end = max(end, _token_end(item, text))
    # Balance brackets and parentheses: the call's `)`, an index's `]`, an operand's `(`.
    depth = 0
    quote = ""
    for char in text[start:end]:
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char in "([":
            depth += 1
        elif char in ")]":
            if depth:
                depth -= 1
            else:
                while start > 0 and text[start - 1] in " (\t\n":
                    start -= 1
                    if text[start] == "(":
                        break
    while depth and end < len(text):
        if text[end] in ")]":
            depth -= 1
        end += 1
    return start, end


def _token_end(node: Node, text: str) -> int:
    """The end of the last token a node itself writes (a name, a number, a string, `]`, `)`)."""
    from ..front.parser import Attr, Const, ListLit

    at = node.pos
    if isinstance(node, Name):
        return at + len(node.name)
    if isinstance(node, Attr):
        return node.name_pos + len(node.name)
    if isinstance(node, Const):
        if at < len(text) and text[at] in "'\"":
            close = text.find(text[at], at + 1)
            return close + 1 if close > 0 else len(text)
        end = at
        while end < len(text) and (text[end].isalnum() or text[end] == "_"):
            end += 1
        return end
    if isinstance(node, (Call, Comprehension)):
        return at + len(node.func) + 1  # `name(`; the balance adds the `)`
    if isinstance(node, ListLit):
        return at + 1
    return at


class _Explainer:
    """Explains moves of one game for one seat."""

    def __init__(self, game: Game, seat: int) -> None:
        self.game = game
        self.rules = game.rules
        self.front = game.rules.front_end
        self.seat = seat
        S = game.state
        self.hidden = frozenset(c for p, cards in enumerate(S.piles) for c in cards
                                if not self.rules.sees(S, c, p, seat))
        self.seen: set[int] = set()
        probe = S.copy()
        probe.piles = [_Watched(cards, self.seen) for cards in S.piles]
        self.probe: State = probe
        self.compiled = _COMPILED.setdefault(self.rules, {})
        functions = self.front.data.get("functions", {}) if self.front is not None else {}
        self.function_texts = {parse_signature(str(key)).name: (str(key), str(body)) for key, body in functions.items()}

    # -- values ------------------------------------------------------------------------------

    def _compile(self, node: Node, frame: _Frame) -> tuple[Callable[..., Any], str]:
        key = (id(frame.scope), frame.extra, node)
        found = self.compiled.get(key)
        if found is not None:
            return found
        scope = frame.scope.with_bindings({name: (py, type_) for name, py, type_ in frame.extra})
        compiler = Compiler(scope)
        compiled = compiler.compile(node)
        if compiled.const:
            value = compiled.value
            found = ((lambda S, env: value), compiled.type)
        else:
            prologue = self.front._prologue(compiled.source, scope, compiler.uses)
            source = f"def _part(S, env):\n{prologue}    return {compiled.source}\n"
            namespace: dict[str, Any] = {}
            code = compile_once(source, f"<cardrules {self.rules.name} explain>")
            exec(code, self.front.globals, namespace)  # noqa: S102 - generated from the parsed tree only
            found = (namespace["_part"], compiled.type)
        if len(self.compiled) >= _MOST_COMPILED:
            self.compiled.clear()
        self.compiled[key] = found
        return found

    def value(self, node: Node, frame: _Frame) -> _Value:
        """The node's value on the position, and whether it tells something the seat cannot see."""
        try:
            function, type_ = self._compile(node, frame)
        except CompileError:  # a part that does not compile alone: not explained further
            return _Value(False)
        self.seen.clear()
        try:
            value = function(self.probe, frame.env)
        except StepLimitError:
            raise
        except Exception as exc:  # noqa: BLE001 - told by the caller (a guard false before it, or a rule's error)
            return _Value(False, error=exc)
        secret = bool(self.seen & self.hidden) or bool(_names(node) & frame.secret) \
            or self._holds_hidden(value, type_)
        return _Value(True, value, type_, secret)

    def _holds_hidden(self, value: Any, type_: str) -> bool:
        if type_ == CARD:
            return value in self.hidden
        if type_ == CARDS and isinstance(value, (list, tuple)):
            return any(c in self.hidden for c in value)
        return False

    def show(self, value: Any, type_: str) -> str:
        """A value as a player reads it: card codes, pile names."""
        rules = self.rules
        if value is None:
            return "none"
        if isinstance(value, bool):
            return "true" if value else "false"
        if type_ == CARD and isinstance(value, int):
            return "a card you cannot see" if value in self.hidden else rules.deck.codes[value]
        if type_ == PILE and isinstance(value, int):
            return rules.pile_names[value]
        if type_ in (CARDS, PILES) and isinstance(value, (list, tuple)):
            items = [self.show(v, CARD if type_ == CARDS else PILE) for v in value[:8]]
            return "[" + ", ".join(items) + (", ..." if len(value) > 8 else "") + "]"
        text = repr(value) if isinstance(value, str) else str(value)
        return text if len(text) <= 40 else text[:37] + "..."

    # -- conditions --------------------------------------------------------------------------

    def mark(self, node: Node, frame: _Frame, note: str) -> Marked:
        start, end = _span(node, frame.text)
        pos = frame.locate(node.pos) if frame.locate is not None else None
        return Marked(frame.label, frame.text, start, end, pos, note)

    def failure(self, value: _Value, node: Node, frame: _Frame) -> CardrulesError:
        """A rule that failed while it was explained, as the engine reports it."""
        from ..model.ruleset import runtime_error

        assert value.error is not None
        pos = frame.locate(node.pos) if frame.locate is not None else None
        error = value.error if isinstance(value.error, Exception) else Exception(str(value.error))
        return runtime_error(error, frame.text, pos)

    def false_part(self, node: Node, frame: _Frame, out: list[Marked], suffix: str = "") -> None:
        """`node` is false, and the seat may know it: mark the part that makes it so (`suffix`: said
        of the first part marked)."""
        if isinstance(node, Binary) and node.op == "and":
            parts = _conjuncts(node)
            values: list[_Value] = []
            guarded = False
            for part in parts:
                value = self.value(part, frame)
                if not value.ok and value.error is not None and not guarded:
                    raise self.failure(value, part, frame)
                values.append(value)
                guarded = guarded or not (value.ok and value.value)
            for part, value in zip(parts, values):
                if value.ok and not value.secret and not value.value:
                    self.false_part(part, frame, out, suffix)
                    return
            unknown = [part for part, value in zip(parts, values) if not value.ok or value.secret]
            if len(unknown) == 1:  # every other part is seen to hold: this one is false
                self.false_part(unknown[0], frame, out, suffix)
                return
            out.append(self.mark(node, frame, "is false, on cards you cannot see" + suffix))
            return
        if isinstance(node, Ternary):
            condition = self.value(node.condition, frame)
            if condition.ok and not condition.secret:
                start, end = _span(node.condition, frame.text)
                taken = f" (as {frame.text[start:end]} is {'true' if condition.value else 'false'})"
                self.false_part(node.then if condition.value else node.otherwise, frame, out, taken)
                return
        out.append(self.mark(node, frame, self.leaf_note(node, frame) + suffix))
        if isinstance(node, Call) and node.func in frame.scope.functions and self.front is not None:
            self.function_body(node, frame.scope.functions[node.func], frame, out)

    def function_body(self, call: Node, function: Function, frame: _Frame, out: list[Marked]) -> None:
        assert isinstance(call, Call)
        args = [self.value(arg, frame) for arg in call.args]
        if not all(a.ok for a in args):
            return
        extra = list(frame.extra)
        env = dict(frame.env)
        secret = set(frame.secret)
        shown = []
        for i, (param, arg) in enumerate(zip(function.params, args)):
            py = f"x{len(extra)}_{i}"
            extra = [e for e in extra if e[0] != param] + [(param, py, arg.type)]
            env[param] = arg.value
            secret.discard(param)
            if arg.secret:
                secret.add(param)
            shown.append(f"{param} = {'(not shown)' if arg.secret else self.show(arg.value, arg.type)}")
        key, text = self.function_texts.get(function.name, (function.name, ""))
        if not text:
            return
        label = f"{key}" + (f" with {', '.join(shown)}" if shown else "")
        inner = _Frame(frame.scope, env, frozenset(secret), text, function.locate, label, tuple(extra))
        body = self.value(function.body, inner)
        if not body.ok or body.value:
            return
        self.false_part(function.body, inner, out)

    def leaf_note(self, node: Node, frame: _Frame) -> str:
        """`is false`, with what its operands are where the seat may see them."""
        value = self.value(node, frame)
        if value.ok and value.secret:
            return "is false (it reads a card you cannot see)"
        if isinstance(node, Binary) and node.op == "or":
            sides = [self.operands(side, frame) for side in _disjuncts(node)]
            return "is false: neither side holds" + (f" ({'; '.join(s for s in sides if s)})" if any(sides) else "")
        if isinstance(node, Unary) and node.op == "not":
            return f"is false: {self.written(node.operand, frame)} holds"
        shown = self.operands(node, frame)
        return "is false" + (f": {shown}" if shown else "")

    def written(self, node: Node, frame: _Frame) -> str:
        start, end = _span(node, frame.text)
        return frame.text[start:end]

    def operands(self, node: Node, frame: _Frame) -> str:
        """What a comparison's two sides are (`top(t).color is 'red', c.color is 'red'`), where the
        seat may see both; else nothing."""
        if not isinstance(node, Binary) or node.op in ("and", "or"):
            return ""
        left, right = self.value(node.left, frame), self.value(node.right, frame)
        if not (left.ok and right.ok) or left.secret or right.secret:
            return ""
        parts = []
        for side, value in ((node.left, left), (node.right, right)):
            written, shown = self.written(side, frame), self.show(value.value, value.type)
            if written != shown:
                parts.append(f"{written} is {shown}")
        return ", ".join(parts)


def _disjuncts(node: Node) -> list[Node]:
    if isinstance(node, Binary) and node.op == "or":
        return _disjuncts(node.left) + _disjuncts(node.right)
    return [node]


def _conjuncts(node: Node) -> list[Node]:
    if isinstance(node, Binary) and node.op == "and":
        return _conjuncts(node.left) + _conjuncts(node.right)
    return [node]


# -- the checks of one move -----------------------------------------------------------------------

class _MoveCheck:
    """The checks of one move a text names, in the order the generated enumerator makes them."""

    def __init__(self, explainer: _Explainer, template: MoveTemplate, shape: _Shape) -> None:
        self.x = explainer
        self.game = explainer.game
        self.rules = explainer.rules
        self.template = template
        self.shape = shape
        self.spec: dict[str, Any] = explainer.front.data["moves"].get(template.name, {}) \
            if explainer.front is not None else {}
        self.move: Move | None = None

    def names(self, pile: int) -> str:
        return self.rules.pile_names[pile]

    def reason(self, why: str, marks: Iterable[Marked] = ()) -> Reason:
        text = self.move.text() if self.move is not None else self.template.name
        return Reason(self.template.name, self.template.help, text, why, tuple(marks))

    def fits(self) -> str | None:
        """None when the shape is this template's form, else why not (the text names it otherwise)."""
        t, shape = self.template, self.shape
        if shape.name is not None and shape.name != t.name.lower():
            return "another move's name"
        if t.named_text or shape.named:
            if not (t.named_text and shape.named):
                return "named"
            return "a card" if (shape.picks is not None) != (t.take == "any") else None
        if shape.name is None and not (shape.src >= 0 or shape.dst >= 0):
            return "no piles"
        if shape.one_pile:
            if t.sources and t.targets:
                return "needs two piles"
            if not t.sources:  # only a destination: the one pile written is it
                shape.dst, shape.src = shape.src, -1
                if shape.count is not None or shape.picks is not None:
                    return "a destination takes no count"
        if (shape.src >= 0) != bool(t.sources) or (shape.dst >= 0) != bool(t.targets):
            return "other piles"
        if shape.src >= 0 and shape.src not in t.sources or shape.dst >= 0 and shape.dst not in t.targets:
            return "other zones"
        if shape.count is not None and t.take != "run":
            return "a count"
        if (shape.picks is not None) != (t.take == "any"):
            return "a card"
        if shape.selection and not t.select_piles:
            return "a selection"
        if shape.word is not None and not (t.for_seat or t.choices):
            return "a trailing word"
        return None

    def build(self) -> str | None:
        """Make the move; None, or why the text cannot be this move (a card or seat it does not have)."""

        t, shape, S = self.template, self.shape, self.game.state
        src, dst = shape.src, shape.dst
        if t.named_text:
            src = t.sources[0] if t.sources else -1
            dst = t.targets[0] if t.targets else -1
        pile = S.piles[src] if src >= 0 else []
        count = 0
        pick: Any = None
        if src >= 0:
            if t.take == "run":
                count = shape.count or 1
            elif t.take == "all":
                count = len(pile)
            elif t.take == "any":
                count = t.picks
            elif t.take == "top":
                count = 1
            else:
                count = self.take_count(src)
        theirs = t.seat_sources is not None and src >= 0 and src not in t.seat_sources[self.x.seat]
        if t.take == "any" and src >= 0 and theirs:
            pick = BLIND  # not the seat's pile (told by `piles`): its cards are not looked at
        elif t.take == "any" and src >= 0:
            assert shape.picks is not None
            codes = self.rules.deck.codes
            if shape.picks == ("?",) * len(shape.picks) and len(shape.picks) == t.picks:
                pick = BLIND if t.picks == 1 else None
                if pick is None:
                    return f"name the {t.picks} cards to take"
            else:
                if len(shape.picks) != t.picks:
                    return f"{t.name} takes {t.picks} card{'s' if t.picks > 1 else ''}: name {'it' if t.picks == 1 else 'them'}"
                chosen: list[int] = []
                for code in shape.picks:
                    card = next((c for c in reversed(pile) if codes[c].lower() == code and c not in chosen
                                 and c not in self.x.hidden), None)
                    if card is None:
                        return f"you see no card '{code}' on {self.names(src)}"
                    chosen.append(card)
                pick = chosen[0] if t.picks == 1 else tuple(sorted(chosen, key=pile.index))
        seat = -1
        if t.for_seat or t.choices:
            word = shape.word
            if word is None:
                return f"{t.name} names {'a seat' if t.for_seat else 'a value'}: add it after the move"
            if t.for_seat:
                if not (word.startswith("seat") and word[4:].isdigit() and 1 <= int(word[4:]) <= self.game.players):
                    return f"'{word}' is no seat of this game (seat1-seat{self.game.players})"
                seat = int(word[4:]) - 1
            else:
                values = [str(v).lower() for v in t.choices]
                if word not in values:
                    listed = ", ".join(str(v) for v in t.choices[:12]) + (", ..." if len(t.choices) > 12 else "")
                    return f"{t.name} names one of: {listed}; not '{word}'"
                seat = values.index(word)
        move = Move(self.rules, t.index, src, count, dst, shape.selection, pick, seat)
        if self.rules.simultaneous:
            move.actor = shape.actor if shape.actor is not None else self.x.seat
        self.move = move
        return None

    def take_count(self, src: int) -> int:
        """A `take: N` move's count (an expression of `src`), or the pile's size where it fails."""
        take = self.spec.get("take")
        if isinstance(take, int) and not isinstance(take, bool):
            return take
        front = self.x.front
        if front is None or take is None:
            return len(self.game.state.piles[src])
        frame = self.frame(("moves", self.template.name, "take"), {"src": src, "player": self.x.seat,
                                                                     "move": self.template.name}, "take")
        value = self.x.value(front.parse(("moves", self.template.name, "take")), frame)
        return value.value if value.ok and isinstance(value.value, int) else len(self.game.state.piles[src])

    def frame(self, path: tuple[Any, ...], env: dict[str, Any], label: str) -> _Frame:
        front = self.x.front
        text = str(front._value(path))
        return _Frame(self.template.scope, env, self.secret_names(env), text,
                      lambda offset: front.doc.expr_pos(path, offset), label)

    def secret_names(self, env: dict[str, Any]) -> frozenset[str]:
        hidden = self.x.hidden
        names = set()
        for name in ("card", "pick"):
            if env.get(name) in hidden:
                names.add(name)
        for name in ("cards", "chosen"):
            if any(c in hidden for c in env.get(name) or ()):
                names.add(name)
        return frozenset(names)

    def env(self) -> dict[str, Any]:
        move = self.move
        assert move is not None
        S = self.game.state
        pick = move.pick
        if pick == BLIND:
            pick = next((c for c in reversed(S.piles[move.src]) if c in self.x.hidden), None)
        pile = S.piles[move.src] if move.src >= 0 else []
        cards = list(pick) if isinstance(pick, tuple) else [pick] if pick is not None else \
            (pile[len(pile) - move.count:] if move.count else [])
        env = {"src": move.src, "dst": move.dst, "n": move.count, "cards": cards,
               "card": cards[0] if cards else None, "player": self.x.seat, "move": self.template.name,
               "pick": pick, "target": move.seat}
        if self.template.choices:
            env[self.template.choice_name] = self.template.choices[move.seat]
        if move.selection:
            env["selection"] = move.selection
            env["chosen_piles"] = [p for p, _ in move.selection]
            env["chosen"] = [c for p, n in move.selection for c in S.piles[p][len(S.piles[p]) - n:]]
        return env

    # -- the checks --------------------------------------------------------------------------

    def check(self) -> Reason:
        """Why the move is not legal now (the first check that fails)."""
        for step in (self.turn, self.phase, self.piles, self.source, self.destination, self.selection,
                     self.conditions):
            reason = step()
            if reason is not None:
                return reason
        return self.reason("it is not among the legal moves now")

    def turn(self) -> Reason | None:
        S, seat = self.game.state, self.x.seat
        move = self.move
        assert move is not None
        if self.rules.simultaneous:
            if move.actor != seat:
                return self.reason(f"it is seat {move.actor + 1}'s move; you are seat {seat + 1}")
            return None
        if seat != S.current:
            return self.reason(f"it is seat {S.current + 1}'s turn to act, not seat {seat + 1}'s")
        if self.rules.out_of_turn:
            t = self.template
            if S.asking is not None and not (t.out_of_turn or t.declines):
                return self.reason(f"seat {seat + 1} is asked to act out of turn: only the moves made out of "
                                   f"turn, or pass")
            if t.declines and S.asking is None:
                return self.reason("only a seat asked to act out of turn may pass")
            if t.out_of_turn and S.asking is not None and t.asked_after != self.rules.opens_asking \
                    and S.asking[4] not in t.asked_after:
                return self.reason("it may be made out of turn only after other moves")
        return None

    def phase(self) -> Reason | None:
        wanted = self.spec.get("phase")
        if wanted is None or not self.rules.phases:
            return None
        names = [wanted] if isinstance(wanted, str) else list(wanted)
        now = self.rules.phases[self.game.state.phase]
        if now in names:
            return None
        return self.reason(f"it is made in the {' or '.join(names)} phase of a turn; this is the {now} phase")

    def piles(self) -> Reason | None:
        t, move, seat = self.template, self.move, self.x.seat
        assert move is not None
        if move.src >= 0 and t.seat_sources is not None and move.src not in t.seat_sources[seat]:
            return self.reason(f"{self.names(move.src)} is not one of your piles (you are seat {seat + 1})")
        if move.dst >= 0 and t.seat_targets is not None and move.dst not in t.seat_targets[seat]:
            return self.reason(f"{self.names(move.dst)} is not one of your piles (you are seat {seat + 1})")
        return None

    def covered(self, pile: int) -> str | None:
        S = self.game.state
        over = [q for q in self.rules.cover[pile] if S.piles[q]] if self.rules.cover else []
        if over:
            return f"{self.names(pile)} is covered by {', '.join(self.names(q) for q in over)}"
        return None

    def source(self) -> Reason | None:
        t, move, S = self.template, self.move, self.game.state
        assert move is not None
        if move.src < 0:
            return None
        pile = S.piles[move.src]
        name = self.names(move.src)
        if not pile:
            return self.reason(f"{name} is empty")
        covered = self.covered(move.src)
        if covered is not None:
            return self.reason(covered)
        if t.take == "run":
            up = 0
            while up < len(pile) and S.up[pile[len(pile) - 1 - up]]:
                up += 1
            if move.count > len(pile):
                return self.reason(f"{name} holds only {len(pile)} card{'s' if len(pile) > 1 else ''}")
            if move.count > up:
                if up == 0:
                    return self.reason(f"the top card of {name} is face down")
                top = f"the top {up} cards" if up > 1 else "the top card"
                return self.reason(f"only {top} of {name} {'are' if up > 1 else 'is'} face up, "
                                   f"not {move.count}")
        elif t.take == "count" and not 1 <= move.count <= len(pile):
            return self.reason(f"it takes {move.count} cards, and {name} holds {len(pile)}")
        elif t.take == "any" and move.pick == BLIND and not any(c in self.x.hidden for c in pile):
            return self.reason(f"{name} holds no card hidden from you: name the card")
        return None

    def destination(self) -> Reason | None:
        move, S = self.move, self.game.state
        assert move is not None
        if move.dst < 0:
            return None
        if move.dst == move.src:
            return self.reason("a move cannot put cards back on the pile they come from")
        covered = self.covered(move.dst)
        if covered is not None:
            return self.reason(covered)
        first = self.rules.empty_first[move.dst] if self.rules.empty_first else -1
        if not S.piles[move.dst] and first >= 0:
            before = [q for q in range(first, move.dst) if not S.piles[q]]
            if before:
                return self.reason(f"the empty piles are filled in order: {self.names(before[0])} first")
        return None

    def selection(self) -> Reason | None:
        t, move, S = self.template, self.move, self.game.state
        assert move is not None
        if not t.select_piles:
            return None
        spec = self.spec.get("select", {})
        if not move.selection:
            example = next((m.text() for m in self.game.legal_moves(self.x.seat) if m.template == t.index), None)
            return self.reason("it chooses further piles (select): write them after the source, as in "
                               + (example or f"{t.name}:SRC+P>DST"))
        for p, count in move.selection:
            name = self.names(p)
            if p not in t.select_piles or p in (move.src, move.dst):
                return self.reason(f"{name} cannot be chosen")
            pile = S.piles[p]
            if not pile:
                return self.reason(f"{name} is empty")
            take = t.select_take
            if take == "top" and count != 1 or take == "all" and count != len(pile) or count > len(pile):
                return self.reason(f"{name} gives {'its top card' if take == 'top' else 'all its cards'}, "
                                   f"not {count}")
            if take == "run" and not all(S.up[c] for c in pile[len(pile) - count:]):
                return self.reason(f"the {count} top cards of {name} are not all face up")
        fewest, most = spec.get("min", 1), spec.get("max", len(t.select_piles))
        if not fewest <= len(move.selection) <= most:
            return self.reason(f"it chooses {fewest}-{most} piles, not {len(move.selection)}")
        if "when" in spec:
            for p, _ in move.selection:
                env = {**self.env(), "p": p}
                path = ("moves", t.name, "select", "when")
                frame = self.frame(path, env, f"select.when, p = {self.names(p)}")
                frame.extra = (("p", "b_p", PILE),)
                reason = self.condition(path, frame)
                if reason is not None:
                    return reason
        attribute = spec.get("sum")
        if attribute is not None and "equals" in spec:
            chosen = self.env()["chosen"]
            if any(c in self.x.hidden for c in chosen):
                return self.reason("the cards chosen do not add up to what select.equals wants "
                                   "(some you cannot see)")
            table = self.rules.deck.attribute_table(attribute)
            total = sum(table[c] for c in chosen)
            path = ("moves", t.name, "select", "equals")
            frame = self.frame(path, self.env(), "select.equals")
            goal = self.x.value(self.x.front.parse(path), frame)
            if goal.ok and total != goal.value:
                shown = "" if goal.secret else f" {goal.value}"
                return self.reason(f"the {attribute} of the cards chosen adds up to {total}, not{shown or ' the goal'}",
                                   [self.x.mark(self.x.front.parse(path), frame,
                                                f"is{shown or ' another number'}")])
        return None

    def condition(self, path: tuple[Any, ...], frame: _Frame) -> Reason | None:
        """The condition at `path` (a `when`, `for_seat`, `select.when`): None if it holds."""
        node = self.x.front.parse(path)
        value = self.x.value(node, frame)
        if not value.ok:
            raise self.x.failure(value, node, frame)
        if value.value:
            return None
        marks: list[Marked] = []
        self.x.false_part(node, frame, marks)
        return self.reason(f"its {path[-1] if path[-2] != 'select' else 'select.when'} condition is false", marks)

    def conditions(self) -> Reason | None:
        t = self.template
        if self.x.front is None:
            return None
        env = self.env()
        for key in ("for_seat", "when"):
            if key not in self.spec:
                continue
            path = ("moves", t.name, key)
            frame = self.frame(path, env, key)
            reason = self.condition(path, frame)  # (a move's index only skips what `when` refuses)
            if reason is not None:
                return reason
        return None


# -- did you mean ---------------------------------------------------------------------------------

def _pool(game: Game, seat: int, hidden: frozenset[int]) -> list[str]:
    """The texts of the moves the position's piles could make (legal or not), up to MAX_POOL."""

    rules, S = game.rules, game.state
    texts: list[str] = []
    codes = rules.deck.codes
    for t in rules.moves:
        if len(texts) >= MAX_POOL:
            break
        sources = (t.seat_sources[seat] if t.seat_sources is not None and seat < len(t.seat_sources) else t.sources) \
            if t.sources else (-1,)
        targets = (t.seat_targets[seat] if t.seat_targets is not None and seat < len(t.seat_targets) else t.targets) \
            if t.targets else (-1,)
        words = list(range(game.players)) if t.for_seat else list(range(len(t.choices))) if t.choices else [-1]
        if t.named_text:
            sources, targets = (t.sources[0] if t.sources else -1,), (t.targets[0] if t.targets else -1,)
        for src in sources:
            pile = S.piles[src] if src >= 0 else []
            if src >= 0 and not pile and not t.named_text:
                continue
            shapes: list[tuple[int, Any]] = [(1, None)]
            if t.take == "run":
                up = 0
                while up < len(pile) and S.up[pile[len(pile) - 1 - up]]:
                    up += 1
                shapes = [(n, None) for n in range(1, max(up, 1) + 1)]
            elif t.take == "any":
                if t.picks != 1:
                    continue
                seen_codes: set[str] = set()
                shapes = []
                for card in reversed(pile):
                    if card in hidden:
                        if (1, BLIND) not in shapes:
                            shapes.append((1, BLIND))
                    elif codes[card] not in seen_codes:
                        seen_codes.add(codes[card])
                        shapes.append((1, card))
            for dst in targets:
                if dst >= 0 and dst == src:
                    continue
                for count, pick in shapes:
                    for word in words:
                        move = Move(rules, t.index, src, count, dst, (), pick, word)
                        if rules.simultaneous:
                            move.actor = seat
                        texts.append(move.text())
                        if len(texts) >= MAX_POOL:
                            return texts
    return texts


def _suggest(wanted: str, legal: list[str], pool: list[str]) -> tuple[str, ...]:
    close = difflib.get_close_matches(wanted, legal, n=SUGGESTIONS, cutoff=0.6)
    others = [t for t in difflib.get_close_matches(wanted, pool, n=SUGGESTIONS + len(close), cutoff=0.6)
              if t not in close]
    return tuple((close + others)[:SUGGESTIONS])


# -- the entry point ------------------------------------------------------------------------------

def explain(game: Game, text: str, seat: int | None = None) -> Explanation:
    """Why `text` is or is not a legal move now for the seat to act (or `seat`). See `Game.explain`."""
    try:
        move = game.parse_move(text, seat)
    except IllegalMoveError:
        if not isinstance(text, str):
            raise
        move = None
    shown = text.strip()
    if move is not None:
        return Explanation(shown, True, move)
    S = game.state
    me = S.current if seat is None else seat
    rules = game.rules
    legal = game.legal_moves(seat)
    rules.meter.reset()  # explaining is one unit of work, as a listing
    if S.over:
        return Explanation(shown, False, problem=f"the game is over ({S.reason})" if S.reason else "the game is over")
    wanted = " ".join(shown.lower().split())
    try:
        return _explain(game, wanted, shown, me, legal)
    except StepLimitError as exc:
        from ..model.ruleset import runtime_error

        raise runtime_error(exc, "explaining the move", rules.moves[0].pos if rules.moves else None) from None


def _explain(game: Game, wanted: str, shown: str, seat: int, legal_moves: list[Move]) -> Explanation:
    rules = game.rules
    x = _Explainer(game, seat)
    legal_keys = {m.key()[:7]: m for m in legal_moves}
    legal_texts = [m.text() for m in legal_moves]
    shapes, problem = _read_text(rules, wanted)
    reasons: list[Reason] = []
    why_not: list[str] = []
    seen_moves: set[Any] = set()
    for shape in shapes:
        for template in rules.moves:
            check = _MoveCheck(x, template, replace_shape(shape))
            if check.fits() is not None:
                continue
            built = check.build()
            if built is not None:
                why_not.append(built)
                continue
            move = check.move
            assert move is not None
            if move.key() in seen_moves:
                continue
            seen_moves.add(move.key())
            same = legal_keys.get(move.key()[:7])
            if same is not None:
                reasons.append(check.reason(f"legal now, written '{same.text()}'"))
                continue
            try:
                reasons.append(check.check())
            except StepLimitError as exc:  # reported at the move, as a listing's is
                from ..model.ruleset import runtime_error

                raise runtime_error(exc, f"move '{template.name}'", template.pos) from None
    suggestions: tuple[str, ...] = ()
    if not reasons:
        named = next((t for shape in shapes if shape.named for t in rules.moves
                      if t.name.lower() == shape.name and not t.named_text), None)
        if named is not None:
            example = next((m.text() for m in legal_moves if m.template == named.index), None)
            why_not.insert(0, f"{named.name} is written with its piles"
                              + (f", as in {example}" if example else ""))
        picking = next((t for shape in shapes if shape.named and shape.picks is None for t in rules.moves
                        if t.name.lower() == shape.name and t.named_text and t.take == "any"), None)
        if picking is not None:  # `play` for `play:7H`
            example = next((m.text() for m in legal_moves if m.template == picking.index), None)
            why_not.insert(0, f"{picking.name} names the card{'s' if picking.picks > 1 else ''} it takes"
                              + (f", as in {example}" if example else ""))
        problem = why_not[0] if why_not else problem or f"no move is written '{wanted}'"
        hidden = x.hidden
        suggestions = _suggest(wanted, legal_texts, _pool(game, seat, hidden))
    return Explanation(shown, False, None, problem, tuple(reasons), suggestions, frozenset(legal_texts))


def replace_shape(shape: _Shape) -> _Shape:
    """A copy of a shape (a template's check may read its one pile as a destination)."""
    return _Shape(**vars(shape))
