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

This module evaluates and explains conditions (`_Explainer`) and is the entry point; a text is read
back (and "did you mean" found) in explain_texts.py, one move's checks are made in explain_checks.py,
the parts evaluated are explain_parts.py's, and what is told is explanation.py's.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..front.compiler import (
    CARD,
    CARDS,
    PILE,
    PILES,
    CompileError,
    Compiler,
    Function,
    StepLimitError,
)
from ..base.errors import CardrulesError, IllegalMoveError
from ..base.memo import compile_once
from .explain_checks import _MoveCheck
from .explain_parts import _conjuncts, _disjuncts, _Frame, _names, _span, _Value, _Watched
from .explain_texts import _pool, _read_text, _suggest, replace_shape
from .explanation import Explanation, Marked, Reason
from .moves import Move
from ..front.parser import Binary, Call, Node, Ternary, Unary, parse_signature

if TYPE_CHECKING:
    from .game_core import GameCore
    from .state import State

# Compiled parts, by ruleset: (template scope id, extra bindings, node) -> (function, type).
_COMPILED: weakref.WeakKeyDictionary[Any, dict[Any, tuple[Callable[..., Any], str]]] = weakref.WeakKeyDictionary()
_MOST_COMPILED = 4_000


class _Explainer:
    """Explains moves of one game for one seat."""

    def __init__(self, game: GameCore, seat: int) -> None:
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
        from ..model.closures import runtime_error

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


# -- the entry point ------------------------------------------------------------------------------

def explain(game: GameCore, text: str, seat: int | None = None) -> Explanation:
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
        from ..model.closures import runtime_error

        raise runtime_error(exc, "explaining the move", rules.moves[0].pos if rules.moves else None) from None


def _explain(game: GameCore, wanted: str, shown: str, seat: int, legal_moves: list[Move]) -> Explanation:
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
                from ..model.closures import runtime_error

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
