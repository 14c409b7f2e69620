"""Stage 2b: named effects (`effects:` blocks with parameters) written out at their calls.

A ruleset's top-level `effects` section names effect lists with parameters, as `functions`
names expressions: `"take_trick(seat)": [...]`. An effect `- call: "take_trick(winner())"`
becomes, in the document every later stage reads, the effect

    - with: {seat: "winner()"}
      do: [the block's effects]

so the arguments are worked out once, at the call, before any of the block's effects runs, and
every backend, check and description sees plain effects. Each value written out keeps the node of
the place it was written (the block's line for its effects, the argument inside the call's text
for each value), so errors point where the designer wrote the cause. Calls inside blocks are
written out first; a block that calls itself, directly or through others, is an error, as are
calls nested more than `MAX_INLINE_DEPTH` deep and a document grown past `MAX_YAML_VALUES`.
What a block may read (its parameters, not the call's names) is checked where the ruleset is
built (model/build_effects.py, `_named_effects`), once per block.
"""

from __future__ import annotations

from typing import Any

from yaml.error import Mark
from yaml.nodes import Node, ScalarNode

from ..base.errors import ExpressionSyntaxError, RulesetError, unknown
from ..base.limits import MAX_INLINE_DEPTH, MAX_YAML_VALUES
from .parser import Call, ParseError, parse_expression, parse_signature
from .source import Document, PathKey, _scalar_offset, copy_data

# Where effect lists are: the top-level sections, each move's and trigger's `do`, and inside an
# effect its `then`, `else` and `do`.
_TOP_LEVEL = ("setup", "on_start", "on_end")
_NESTED = ("then", "else", "do")


class _Block:
    def __init__(self, name: str, params: tuple[str, ...], path: PathKey) -> None:
        self.name, self.params, self.path = name, params, path
        self.done = False  # its own calls written out


def expand_blocks(doc: Document) -> None:
    """Write out every `call` of `doc` (a merged, schema-checked ruleset) in place."""
    data = doc.data
    if not isinstance(data, dict) or ("effects" not in data and not _has_call(data)):
        return
    _Expander(doc).run()


def _has_call(value: Any) -> bool:
    """Is there a `call` effect anywhere (without a section of blocks, each is an error)?"""
    if isinstance(value, dict):
        return "call" in value or any(_has_call(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_call(v) for v in value)
    return False


class _Expander:
    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self.blocks: dict[str, _Block] = {}
        self.values = 0  # values written out so far

    def run(self) -> None:
        data = self.doc.data
        for key in data.get("effects") or {}:
            path = ("effects", key)
            try:
                signature = parse_signature(str(key))
            except ParseError as exc:
                raise RulesetError(f"named effects are written name(param, ...): {exc.message}",
                                   self.doc.pos(path, key=True)) from None
            if signature.name in self.blocks:
                raise RulesetError(f"effects '{signature.name}' are defined twice", self.doc.pos(path, key=True))
            if len(set(signature.params)) != len(signature.params):
                raise RulesetError(f"effects '{signature.name}' name a parameter twice", self.doc.pos(path, key=True))
            self.blocks[signature.name] = _Block(signature.name, signature.params, path)
        for block in self.blocks.values():
            self.finish(block, [])
        for section in _TOP_LEVEL:
            if isinstance(data.get(section), list):
                self.effects((section,), [])
        for name, move in (data.get("moves") or {}).items():
            if isinstance(move, dict) and isinstance(move.get("do"), list):
                self.effects(("moves", name, "do"), [])
        for i, trigger in enumerate(data.get("triggers") or []):
            if isinstance(trigger, dict) and isinstance(trigger.get("do"), list):
                self.effects(("triggers", i, "do"), [])

    def finish(self, block: _Block, calling: list[_Block]) -> None:
        """Write out the calls inside `block` (those it calls first)."""
        if block.done:
            return
        if block in calling:
            chain = " -> ".join(b.name for b in calling[calling.index(block):] + [block])
            raise RulesetError(f"effects '{block.name}' call themselves ({chain}): named effects are written out "
                               f"where they are called, so they cannot recur", self.doc.pos(block.path, key=True))
        if len(calling) >= MAX_INLINE_DEPTH:
            raise RulesetError(f"named effects call one another more than {MAX_INLINE_DEPTH} deep",
                               self.doc.pos(block.path, key=True))
        if isinstance(self.value(block.path), list):
            self.effects(block.path, calling + [block])
        block.done = True

    def value(self, path: PathKey) -> Any:
        value: Any = self.doc.data
        for key in path:
            value = value[key]
        return value

    def effects(self, path: PathKey, calling: list[_Block]) -> None:
        items = self.value(path)
        for i, item in enumerate(items):
            if not isinstance(item, dict):
                continue
            if "call" in item:
                items[i] = self.call(path + (i,), calling)
            else:
                for key in _NESTED:
                    if isinstance(item.get(key), list):
                        self.effects(path + (i, key), calling)

    def call(self, path: PathKey, calling: list[_Block]) -> dict[str, Any]:
        """The effect `{with: {param: argument, ...}, do: [the block's effects]}` for the call at `path`,
        its nodes those of the places each part was written."""
        text = str(self.value(path + ("call",)))
        where = path + ("call",)
        try:
            node = parse_expression(text)
        except ParseError as exc:
            raise ExpressionSyntaxError(f"call: {exc.message}", self.doc.expr_pos(where, exc.offset)) from None
        if not isinstance(node, Call) or node.func == "":
            raise RulesetError("call: expected the name of named effects and their arguments, as in "
                               "\"take_trick(winner())\"", self.doc.expr_pos(where, node.pos))
        block = self.blocks.get(node.func)
        if block is None:
            raise RulesetError(f"call: {unknown('named effects', node.func, self.blocks, 'named effects')}",
                               self.doc.expr_pos(where, node.pos))
        arguments = _arguments(text, node)
        if len(arguments) != len(block.params):
            raise RulesetError(f"call: '{block.name}' takes {len(block.params)} argument"
                               f"{'' if len(block.params) == 1 else 's'}, not {len(arguments)}",
                               self.doc.expr_pos(where, node.pos))
        self.finish(block, calling)
        body = self.value(block.path)
        self.values += _size(body) + len(arguments) + 2
        if self.values > MAX_YAML_VALUES:
            raise RulesetError(f"named effects written out at their calls make more than {MAX_YAML_VALUES:,} values",
                               self.doc.pos(where))
        self.doc.calls[path] = (block.name, self.doc.pos(where))
        call_node = self.doc.nodes.get(where)
        origin = self.doc.origin(where)
        self._place(path, self.doc.nodes.get(path), self.doc.origin(path))
        self._place(path + ("with",), call_node, origin)
        bound: dict[str, Any] = {}
        for param, (start, argument) in zip(block.params, arguments):
            bound[param] = argument
            self._place(path + ("with", param), _part(origin.text, call_node, start, argument), origin)
            self._place(path + ("with", param), self.doc.key_nodes.get(block.path), self.doc.origin(block.path, True),
                        key=True)
        self._place(path + ("do",), self.doc.nodes.get(block.path), self.doc.origin(block.path))
        self._copy_nodes(block.path, path + ("do",), body)
        return {"with": bound, "do": copy_data(body)}

    def _place(self, path: PathKey, node: Node | None, origin: Document, key: bool = False) -> None:
        if node is None:
            return
        (self.doc.key_nodes if key else self.doc.nodes)[path] = node
        (self.doc.key_origins if key else self.doc.origins)[path] = origin

    def _copy_nodes(self, source: PathKey, target: PathKey, value: Any) -> None:
        """Give each value inside `value` (at `source`), copied to `target`, its node and file."""
        stack: list[tuple[PathKey, Any]] = [((), value)]
        while stack:
            rest, item = stack.pop()
            for key in (False, True):
                node = (self.doc.key_nodes if key else self.doc.nodes).get(source + rest)
                if node is not None and rest:
                    self._place(target + rest, node, self.doc.origin(source + rest, key), key)
            if isinstance(item, dict):
                stack.extend((rest + (k,), inner) for k, inner in item.items())
            elif isinstance(item, list):
                stack.extend((rest + (i,), inner) for i, inner in enumerate(item))


def _arguments(text: str, call: Call) -> list[tuple[int, str]]:
    """Each argument of the call written in `text`: where it starts in `text`, and its text
    (split at the commas outside brackets and strings, as the parser read them)."""
    if not call.args:
        return []
    opening = text.index("(", call.pos)
    closing = text.rindex(")")
    parts: list[tuple[int, str]] = []
    depth, quote, start = 0, "", opening + 1
    for i in range(opening + 1, closing):
        ch = text[i]
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append((start, text[start:i]))
            start = i + 1
    parts.append((start, text[start:closing]))
    result = []
    for start, part in parts:
        stripped = part.lstrip()
        result.append((start + len(part) - len(stripped), stripped.rstrip()))
    return result


def _part(text: str, node: Node | None, start: int, part: str) -> Node | None:
    """A node for `part`, the characters of the scalar `node`'s value from `start` on, that
    places it where it is written in the file `text` (so errors inside an argument point inside it)."""
    if not isinstance(node, ScalarNode):
        return node
    first = _scalar_offset(text, node, start)
    last = _scalar_offset(text, node, start + len(part))
    return ScalarNode(node.tag, part, Mark(node.start_mark.name, first, 0, 0, None, None),
                      Mark(node.start_mark.name, max(last, first + 1), 0, 0, None, None))


def _size(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + sum(_size(v) for v in value.values())
    if isinstance(value, list):
        return 1 + sum(_size(v) for v in value)
    return 1
