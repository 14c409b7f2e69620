"""Stage 5d: one generated function per move template for what a move does, and one for the end checks.

model/ruleset.py compiles every effect into a small closure and every expression into a generated
function called with a dict of bindings: readable, and the reference for what a move does. A
move then costs a chain of calls and dicts. This module writes, from the same compiled
expressions, one function per move template that runs its effects and then the triggers that
follow it (`apply_<k>(S, b_src, b_dst, b_n, b_player, b_pick, b_target)`), and
one for the end conditions (`end_check(S, b_player)`: the index of the first that holds, or -1),
with the bindings as Python locals.

Each expression keeps its own guard: a failure inside it is reported exactly as its evaluator
reports it (`runtime_error`, restricted to the spans of that expression), and every other check
(an `add` to something that is not a number, a value outside 64 bits, the steps of a loop) raises
what the closure raises. Only the effects written here are inlined (move without `card`, turn_up,
turn_down, set, add, if, for, end); a template with any other (act, end_turn, move_chosen, ...)
or with `select` keeps its closures, and so do its triggers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..front.compiler import names_in
from ..base.errors import RulesetRuntimeError, SourcePos
from ..base.limits import INT_MAX, INT_MIN, MAX_TRIGGER_PASSES
from ..model.rules import choice_local
from ..model.effects import (AssignEffect, EndEffect, Expr, ForEffect, IfEffect, MoveEffect, TriggerBody, TurnEffect,
                             WithEffect)

if TYPE_CHECKING:
    from ..front.compiler import Span
    from ..model.ruleset import MoveTemplate, _Builder


class _CannotInline(Exception):
    pass


def _fail(exprs: list[tuple[str, SourcePos | None, list[Span]]]) -> Callable[[Exception, int], RulesetRuntimeError]:
    from ..model.closures import runtime_error

    def fail(exc: Exception, index: int) -> RulesetRuntimeError:
        text, pos, spans = exprs[index]
        return runtime_error(exc, text, pos, spans)
    return fail


def _add_error(value: Any, old: Any, pos: SourcePos | None) -> RulesetRuntimeError:
    return RulesetRuntimeError(f"cannot add {value!r} to {old!r}", pos)


def _range_error(adding: bool, pos: SourcePos | None) -> RulesetRuntimeError:
    return RulesetRuntimeError(f"the value {'of the sum ' if adding else ''}is outside the 64-bit range "
                               f"({INT_MIN} to {INT_MAX})", pos)


def _not_whole(value: Any) -> bool:
    return not isinstance(value, int) or isinstance(value, bool)


def _out_of_range(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and not INT_MIN <= value <= INT_MAX


class ApplyGenerator:
    """Writes the apply functions of one ruleset being built (after its moves, triggers and end)."""

    def __init__(self, host: _Builder) -> None:
        self.host = host
        self.exprs: list[tuple[str, SourcePos | None, list[Span]]] = []
        self.consts: list[Any] = []
        self.spans: list[Span] = []
        self._temp = 0

    def _fresh(self) -> str:
        self._temp += 1
        return f"t{self._temp}"

    def _value(self, expr: Expr, lines: list[str], indent: str, bound: frozenset[str]) -> str:
        """Code that evaluates `expr` into a local (guarded as its evaluator is); the local's name."""
        if expr.const:
            self.consts.append(expr.value)
            return f"CONSTS[{len(self.consts) - 1}]"
        used = {name for name in names_in(expr.code) if name.startswith("b_")}
        if not used <= bound:
            raise _CannotInline
        local = self._fresh()
        self.exprs.append((expr.text, expr.pos, expr.spans))
        self.spans.extend(expr.spans)
        lines += [f"{indent}try:",
                  f"{indent}    {local} = {expr.code}",
                  f"{indent}except ERROR as exc:",
                  f"{indent}    raise FAIL(exc, {len(self.exprs) - 1}) from None"]
        return local

    def _where(self, pos: SourcePos | None) -> str:
        self.consts.append(pos)
        return f"CONSTS[{len(self.consts) - 1}]"

    def effects(self, effects: Any, lines: list[str], indent: str, bound: frozenset[str], pick: bool) -> None:
        for effect in effects:
            self.effect(effect, lines, indent, bound, pick)

    def effect(self, effect: Any, lines: list[str], indent: str, bound: frozenset[str], pick: bool) -> None:
        info = self.host.inline.get(effect)
        if isinstance(info, MoveEffect):
            source = self._value(info.src, lines, indent, bound) if info.src is not None else "b_src"
            target = self._value(info.dst, lines, indent, bound) if info.dst is not None else "b_dst"
            if info.src is None and "b_src" not in bound or info.dst is None and "b_dst" not in bound:
                raise _CannotInline
            if info.count is not None:
                count = self._value(info.count, lines, indent, bound)
            elif info.src is None:
                count = "b_n"
                if pick:  # `take: any`: bring the chosen card to the top first
                    lines.append(f"{indent}if b_pick is not None: S.bring_up({source}, b_pick)")
            else:
                count = f"len(P[{source}])"
            lines.append(f"{indent}S.move_cards({source}, {target}, {count}, {info.flip}, {info.face!r}, {info.bottom})")
        elif isinstance(info, TurnEffect):
            card = self._value(info.card, lines, indent, bound)
            lines += [f"{indent}if {card} is None:",
                      f"{indent}    pass",
                      f"{indent}elif S.known is not None:",  # who saw it is kept (State.turn)
                      f"{indent}    S.turn({card}, {info.face})",
                      f"{indent}else:",
                      f"{indent}    S.journal.append(('up', {card}, U[{card}])); U[{card}] = {int(info.face)}"]
        elif isinstance(info, AssignEffect):
            values: list[tuple[str, int, str, str]] = []
            for slot_number, per, expr, pos in info.steps:
                if per and "b_player" not in bound:
                    raise _CannotInline
                values.append((str(slot_number), per, self._value(expr, lines, indent, bound), self._where(pos)))
            for slot, per, value, where in values:
                inner, target = indent, f"{slot} + b_player" if per else slot
                if per == 2:  # a per-team variable: every seat of the acting seat's team
                    mate = self._fresh()
                    lines.append(f"{indent}for {mate} in MATES[S.players][b_player]:")
                    inner, target = indent + "    ", f"{slot} + {mate}"
                if info.adding:  # the value is a whole number (checked by its evaluator): so is the sum
                    old, total = self._fresh(), self._fresh()
                    lines += [f"{inner}{old} = V[{target}]",
                              f"{inner}if NOT_WHOLE({old}): raise ADD_ERROR({value}, {old}, {where})",
                              f"{inner}{total} = {old} + {value}",
                              f"{inner}if not {INT_MIN} <= {total} <= {INT_MAX}: raise RANGE_ERROR(True, {where})"]
                    result = total
                else:
                    lines.append(f"{inner}if OUT_OF_RANGE({value}): raise RANGE_ERROR(False, {where})")
                    result = value
                lines.append(f"{inner}S.journal.append(('var', {target}, V[{target}])); V[{target}] = {result}")
        elif isinstance(info, IfEffect):
            test = self._value(info.test, lines, indent, bound)
            lines.append(f"{indent}if {test}:")
            self.effects(info.then, lines, indent + "    ", bound, pick)
            lines.append(f"{indent}    pass")
            if info.otherwise:
                lines.append(f"{indent}else:")
                self.effects(info.otherwise, lines, indent + "    ", bound, pick)
        elif isinstance(info, ForEffect):
            if info.var in bound:
                raise _CannotInline  # the loop's name hides another: the closures' envs keep them apart
            items = self._value(info.items, lines, indent, bound)
            lines.append(f"{indent}for {info.var} in charge(AS_LIST({items})):")
            self.effects(info.body, lines, indent + "    ", bound | {info.var}, pick)
            lines.append(f"{indent}    pass")
        elif isinstance(info, WithEffect):
            if bound & set(info.vars):
                raise _CannotInline  # a name hides another: the closures' envs keep them apart
            named = [self._value(value, lines, indent, bound) for value in info.values]  # all first
            for var, local in zip(info.vars, named):
                lines.append(f"{indent}{var} = {local}")
            self.effects(info.body, lines, indent, bound | set(info.vars), pick)
        elif isinstance(info, EndEffect):
            lines.append(f"{indent}S.end({info.result!r}, {info.reason!r})")
        else:
            raise _CannotInline

    def trigger(self, trigger: Any, lines: list[str], bound: frozenset[str]) -> None:
        info = self.host.inline.get(trigger.run)
        if not isinstance(info, TriggerBody):
            raise _CannotInline
        indent = "    "
        if info.too_long is not None:  # `repeat`: passes until nothing applies (or too many)
            passes = self._fresh()
            lines += [f"{indent}for {passes} in range({MAX_TRIGGER_PASSES + 1}):",
                      f"{indent}    if {passes} == {MAX_TRIGGER_PASSES}: CONSTS[{len(self.consts)}]()"]
            self.consts.append(info.too_long)
            indent += "    "
        if info.items is not None:
            if info.var in bound:
                raise _CannotInline
            items = self._value(info.items, lines, indent, bound | {info.var})
            if info.too_long is not None:
                lines.append(f"{indent}if not {items}: break")
            lines.append(f"{indent}for {info.var} in {items}:")
            self.effects(info.body, lines, indent + "    ", bound | {info.var}, False)
            lines.append(f"{indent}    pass")
        elif info.test is not None:
            test = self._value(info.test, lines, indent, bound)
            if info.too_long is not None:
                lines.append(f"{indent}if not {test}: break")
                self.effects(info.body, lines, indent, bound, False)
                lines.append(f"{indent}pass")
            else:
                lines.append(f"{indent}if {test}:")
                self.effects(info.body, lines, indent + "    ", bound, False)
                lines.append(f"{indent}    pass")
        else:
            self.effects(info.body, lines, indent, bound, False)

    def template(self, template: MoveTemplate, selects: bool) -> Callable[..., None] | None:
        """`apply_<k>`: the template's effects, then the triggers that follow it; None when some
        effect is not one written here."""
        if selects:
            return None
        rules = self.host.rules
        chosen = {choice_local(j) for j in range(len(template.choice_names))}
        bound = frozenset({"b_player", "b_move", "b_target"} | chosen
                          | ({"b_src", "b_n", "b_cards", "b_card"} if template.sources else set())
                          | ({"b_dst"} if template.targets else set()))
        lines: list[str] = []
        start = (len(self.exprs), len(self.consts), len(self.spans), self._temp)
        try:
            self.effects(template.effects, lines, "    ", bound, template.take == "any")
            if template.take == "any":  # who sees the cards it names, before the triggers (Game.record)
                lines.append("    S.note_named_seers()")
            for trigger in rules.triggers:
                if trigger.after is None or template.name in trigger.after:
                    self.trigger(trigger, lines, frozenset({"b_player", "b_move"}))
        except _CannotInline:
            del self.exprs[start[0]:], self.consts[start[1]:], self.spans[start[2]:]
            self._temp = start[3]
            return None
        name = f"apply_{template.index}"
        head = [f"def {name}(S, b_src, b_dst, b_n, b_player, b_pick, b_target):",
                f"    P = S.piles; U = S.up; V = S.vars; b_move = {template.name!r}"]
        if template.choices:  # `choose`: the value named, by its index
            names = ", ".join(choice_local(j) for j in range(len(template.choice_names)))
            head.append(f"    {names}, = CHOICES_{template.index}[b_target]")
        if {"b_cards", "b_card"} & names_in("\n".join(lines)):  # the cards taken, as the engine's env has them
            picked = "[*b_pick]" if template.picks > 1 else "[b_pick]"  # `take: {any: K}`: a tuple of cards
            head.append(f"    b_cards = {picked} if b_pick is not None else P[b_src][len(P[b_src]) - b_n:] if b_n else []")
            head.append("    b_card = b_cards[0] if b_cards else None")
        return self._define(name, head + lines + ["    return None"])

    def end_check(self) -> Callable[[Any, int], int] | None:
        """`end_check(S, b_player)`: the index of the first end condition that holds, or -1."""
        lines = ["def end_check(S, b_player):", "    P = S.piles; U = S.up; V = S.vars"]
        for i, condition in enumerate(self.host.rules.end_conditions):
            info = self.host.inline.get(condition.test)
            if not isinstance(info, Expr):
                return None
            try:
                test = self._value(info, lines, "    ", frozenset({"b_player"}))
            except _CannotInline:
                return None
            lines.append(f"    if {test}: return {i}")
        return self._define("end_check", lines + ["    return -1"])

    def _define(self, name: str, lines: list[str]) -> Callable[..., Any]:
        host = self.host
        host.globals["FAIL"] = _fail(self.exprs)
        host.globals["CONSTS"] = self.consts
        host.globals["ADD_ERROR"] = _add_error
        host.globals["RANGE_ERROR"] = _range_error
        host.globals["NOT_WHOLE"] = _not_whole
        host.globals["OUT_OF_RANGE"] = _out_of_range
        host.globals["AS_LIST"] = list
        host.globals["ERROR"] = Exception
        return host.define(name, "\n".join(lines) + "\n", spans=list(self.spans))
