"""Building a ruleset, part 1 (`_BuilderBase`): parsing and compiling one expression of the
document at its path, with errors at their place, and defining the generated functions.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from ..front.compiler import (INT, RUNTIME_GLOBALS, SPANS, Compiled, CompileError, Compiler, InlinedFunctionError,
                              Scope, Span, names_in)
from ..base.errors import ExpressionSyntaxError, RulesetError, SourcePos
from ..base.limits import MAX_RULESET_NODES
from ..base.memo import compile_once
from ..front.parser import Node, ParseError, parse_expression
from ..front.source import Document, FileAccess, PathKey
from .closures import _guarded, _guarded_at_load
from .effects import Expr
from .rules import Evaluator, Ruleset


class _BuilderBase:
    """One ruleset document being built: its paths, its compiled parts, its generated functions."""

    def __init__(self, doc: Document, path: Path, chosen: dict[str, Any], access: FileAccess) -> None:
        self.doc = doc
        self.access = access
        self.data: dict[str, Any] = doc.data
        self.path = path
        self.chosen = chosen
        self.rules = Ruleset()
        self.scope = Scope()
        self.globals: dict[str, Any] = dict(RUNTIME_GLOBALS)
        self.globals["charge"] = self.rules.meter.charge
        self.globals["METER"] = self.rules.meter
        self.globals[SPANS] = {}  # what each generated function's failures are reported at (`define`)
        self.node_budget = [MAX_RULESET_NODES]  # shared by every Compiler of this ruleset
        self.sources: list[str] = []
        self._counter = 0
        # The type the front end gave each expression it compiled for an evaluator, by its path
        # (`variable_kinds` reads the values set into each variable).
        self.value_types: dict[PathKey, str] = {}
        self.declining: dict[str, Any] | None = None  # the spec of the engine's `pass` (`_out_of_turn`)
        self.passing: dict[str, Any] | None = None  # the spec of the `pass` of `turns.no_move` (`_no_move`)
        self.asked_after: dict[str, frozenset[int]] = {}  # by move made out of turn: after which moves
        # What python/applygen.py needs to write a move's effects out: by evaluator, effect or trigger closure.
        self.inline: dict[Any, Any] = {}

    def error_at(self, path: PathKey, exc: ParseError | CompileError) -> RulesetError:
        if isinstance(exc, InlinedFunctionError) and exc.function.locate is not None:
            pos = exc.function.locate(exc.offset)
            return RulesetError(f"{exc.message} (in function '{exc.function.name}')", pos)
        kind = ExpressionSyntaxError if isinstance(exc, ParseError) else RulesetError
        return kind(exc.message, self.doc.expr_pos(path, exc.offset))

    def _locator(self, path: PathKey) -> Callable[[int], SourcePos]:
        """Offset inside the expression at `path` -> its position in the file."""
        return lambda offset: self.doc.expr_pos(path, offset)

    def parse(self, path: PathKey) -> Node:
        value = self._value(path)
        if isinstance(value, bool) or isinstance(value, int):
            from ..front.parser import Const

            return Const(0, value)
        try:
            return parse_expression(str(value))
        except ParseError as exc:
            raise self.error_at(path, exc) from None

    def _value(self, path: PathKey) -> Any:
        value: Any = self.data
        for key in path:
            value = value[key]
        return value

    def compile_node(self, node: Node, path: PathKey, scope: Scope, expect: tuple[str, ...] | None = None,
                     hoist: Callable[[Compiled], Compiled] | None = None) -> tuple[Compiled, Compiler]:
        compiler = Compiler(scope, hoist, self.node_budget)
        try:
            return compiler.compile(node, expect), compiler
        except CompileError as exc:
            raise self.error_at(path, exc) from None
        except RecursionError:  # the depth limits should make this unreachable; a clean error if not
            raise RulesetError("the expression is nested too deeply (functions written out)",
                               self.doc.expr_pos(path, node.pos)) from None

    def spans(self, compiler: Compiler, path: PathKey) -> list[Span]:
        """The code that can fail in what `compiler` compiled from the expression at `path`, each
        with where its node is written (in that expression, or in a ruleset function's body)."""
        here = self._locator(path)
        return [(source, node, function.locate if function is not None and function.locate is not None else here)
                for source, node, function in compiler.spans if function is None or function.locate is not None]

    def evaluator(self, path: PathKey, scope: Scope, expect: tuple[str, ...] | None = None,
                  node: Node | None = None) -> Evaluator:
        """Compile the expression at `path` into `fn(state, env)`."""
        node = node if node is not None else self.parse(path)
        compiled, compiler = self.compile_node(node, path, scope, expect)
        self.value_types[path] = compiled.type
        if compiled.const:
            value = compiled.value
            constant: Evaluator = lambda S, env: value
            self.inline[constant] = Expr("", [], "", None, True, value)
            return constant
        name = self._fresh("expr")
        prologue = self._prologue(compiled.source, scope, compiler.uses)
        result = compiled.source
        if expect == (INT,) and not result.startswith("want_int("):
            result = f"want_int({result})"  # a number that leaves the game must fit in 64 bits
        source = f"def {name}(S, env):\n{prologue}    return {result}\n"
        where = self.doc.expr_pos(path, node.pos)
        spans = self.spans(compiler, path)
        evaluator = _guarded(self.define(name, source, where, spans), str(self._value(path)), where)
        self.inline[evaluator] = Expr(result, spans, str(self._value(path)), where)
        return evaluator

    def _prologue(self, source: str, scope: Scope, uses: set[str], exclude: str = "") -> str:
        """The first lines of a generated function: the state parts and bindings its body reads."""
        lines = []
        if "P" in uses:
            lines.append("    P = S.piles\n")
        if "U" in uses:
            lines.append("    U = S.up\n")
        if "V" in uses:
            lines.append("    V = S.vars\n")
        for dsl_name, (py_name, _) in scope.bindings.items():
            if py_name != exclude and py_name in names_in(source):
                lines.append(f"    {py_name} = env[{dsl_name!r}]\n")
        return "".join(lines)

    def _fresh(self, prefix: str) -> str:
        self._counter += 1
        return f"_{prefix}_{self._counter}"

    def define(self, name: str, source: str, pos: SourcePos | None = None,
               spans: list[Span] | None = None) -> Callable[..., Any]:
        """Compile and run the generated function `name`; `spans` (its code that can fail) say
        where its run-time errors are reported (`runtime_error`)."""
        self.sources.append(source)
        self.globals[SPANS][name] = (source, spans or [])
        try:
            code = compile_once(source, f"<cardrules {self.rules.name}>")
        except (SyntaxError, RecursionError, MemoryError, ValueError):  # Python's own limits on nesting
            raise RulesetError("the expression is too deeply nested to compile", pos) from None
        exec(code, self.globals)  # generated from the parsed tree only, see front/compiler.py
        return self.globals[name]

    def _load_time_function(self, path: PathKey, node: Node, scope: Scope, types: tuple[str, ...],
                            prefix: str) -> tuple[Callable[..., Any], Compiler]:
        """An expression worked out at load (`teams.of`, `covered_by`) as a function of the scope's
        number bindings, in their order; its failures are reported at the expression."""
        compiled, compiler = self.compile_node(node, path, scope, types)
        name = self._fresh(prefix)
        params = ", ".join(binding for binding, _ in scope.bindings.values())
        source = f"def {name}({params}):\n    return {compiled.source}\n"
        function = self.define(name, source, self.doc.pos(path), self.spans(compiler, path))
        return _guarded_at_load(function, str(self._value(path)), self.doc.expr_pos(path, 0)), compiler
