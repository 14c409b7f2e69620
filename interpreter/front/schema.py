"""Stage 2: check loaded YAML data against the JSON Schemas in `grammar/`.

Errors are reported at the line and column of the offending value, using the
path jsonschema gives and the `Document`'s node map. jsonschema is imported when a
document is first checked (printing the schema does not need it). Data found valid is
remembered (`base/memo.py`) under the SHA-256 of its `repr`, which tells apart every value YAML
gives (a mapping's order included), so the same data is not checked twice in a process; and
between processes, as an empty file named by the SHA-256 of that digest and the schema file's
text in the cache folder (`resources.cache_dir("schema")`), so a process that loads only data
checked before (the bundled rulesets, a file not changed since it was last loaded) never
imports jsonschema, a third of a cold `cardrules validate`. Only a verdict of valid is kept,
the schema's text is part of its name, and a folder that cannot be read or written is only a
miss.
"""

from __future__ import annotations

import hashlib
import json
import os
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..base.errors import CacheError, RulesetError, did_you_mean, shortened
from ..base.memo import Memo
from ..base.resources import cache_dir, cache_problem, grammar_dir, private_cache_dir

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError

    from .source import Document


@cache
def load_schema(kind: str) -> dict[str, Any]:
    """The JSON Schema of a `ruleset` or a `deck` file."""
    return json.loads((grammar_dir() / f"{kind}.schema.json").read_text(encoding="utf-8"))


@cache
def published_schema(kind: str) -> dict[str, Any]:
    """The schema `cardrules schema` prints, for editors: a deck file's as it is; a ruleset file's
    accepting a variant too (a file with `extends:`, which holds only what it changes).

    The loader checks the merged ruleset against `load_schema` (every section present). A variant
    file is checked here as the merge reads it: where sections merge key by key (mappings), any
    key may be left out and any value may be null (which removes the base's); a list replaces the
    base's whole, so what it holds is checked in full. The top level lists every section with its
    description (what an editor completes); `else` holds a file without `extends` to the full
    schema, `then` a variant to its own name and base."""
    schema = load_schema(kind)
    if kind != "ruleset":
        return schema
    full = {key: schema[key] for key in ("type", "required", "additionalProperties", "properties")}
    defs = dict(schema["$defs"])
    variant = _partial(full, defs)
    out = {key: schema[key] for key in ("$schema", "$id", "title", "description")}
    out.update(type="object", additionalProperties=False, properties=variant["properties"])
    out["if"] = {"type": "object", "required": ["extends"]}
    out["then"] = {"required": ["ruleset", "extends"]}
    out["else"] = {"$ref": "#/$defs/ruleset"}
    text = json.dumps([out, defs])
    kept = {name: value for name, value in defs.items()  # a variant form the same as its definition goes
            if not name.endswith(_VARIANT) or f'"#/$defs/{name}"' in text}
    out["$defs"] = {**kept, "ruleset": full}
    return out


_VARIANT = ".variant"  # the name of a definition's form in a variant file (`published_schema`)


def _partial(node: Any, defs: dict[str, Any]) -> Any:
    """`node` as a variant may write it where the base's value is merged key by key."""
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        name = ref.rsplit("/", 1)[1]
        made = name + _VARIANT
        if made not in defs:
            defs[made] = None  # while it is made: a definition that names itself names its variant form
            defs[made] = _partial(defs[name], defs)
        return node if defs[made] == defs[name] else {**node, "$ref": f"#/$defs/{made}"}
    out = {key: value for key, value in node.items() if key not in ("required", "minProperties", "dependentRequired")}
    if isinstance(node.get("properties"), dict):
        out["properties"] = {key: _nullable(_partial(value, defs)) for key, value in node["properties"].items()}
    if isinstance(node.get("additionalProperties"), dict):
        out["additionalProperties"] = _nullable(_partial(node["additionalProperties"], defs))
    for key in ("oneOf", "anyOf"):
        if key in node:
            alternatives = [_partial(value, defs) for value in node[key]]
            if alternatives != node[key]:  # partial alternatives may overlap: any one of them will do
                out.pop(key)
                out["anyOf"] = alternatives
    return out


def _nullable(node: Any) -> Any:
    """`node`, or null (a variant's null removes the base's value); its description kept in view."""
    if not isinstance(node, dict):
        return node
    described = {"description": node["description"]} if "description" in node else {}
    return {**described, "anyOf": [node, {"type": "null"}]}


@cache
def _validator(kind: str) -> Draft202012Validator:
    from jsonschema import Draft202012Validator

    return Draft202012Validator(load_schema(kind))


_SIZE_WORDS = {"maxItems": "has more than {} items", "minItems": "needs at least {} item(s)",
               "maxProperties": "has more than {} entries", "maxLength": "is longer than {} characters"}


def _short(text: str, most: int = 200) -> str:
    """A message cut to `most` characters (jsonschema quotes whole values, which may be huge)."""
    return text if len(text) <= most else text[:most - 25] + " ... " + text[-20:]


def _describe(error: ValidationError) -> str:
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        return _unknown_keys(error, shorten=True)  # the allowed keys listed whole
    return _short(_full_description(error))


def _unknown_keys(error: ValidationError, shorten: bool = False) -> str:
    """`unknown key 'labl' (did you mean 'label'? allowed: help, label, ...)`: the closest allowed
    key to the one unknown key, and every allowed key; `shorten` cuts the unknown keys' text only."""
    allowed_keys = error.schema.get("properties", {})
    extras = sorted(set(error.instance) - set(allowed_keys), key=str)
    named = ", ".join(repr(e) for e in extras)
    hint = did_you_mean(str(extras[0]), allowed_keys) if len(extras) == 1 else ""
    allowed = ", ".join(sorted(allowed_keys))
    return f"unknown key {_short(named, 120) if shorten else named}" + (f" ({hint}allowed: {allowed})" if allowed else "")


def _full_description(error: ValidationError) -> str:
    where = "/".join(str(p) for p in error.absolute_path)
    if error.validator in _SIZE_WORDS:
        return f"{where or 'the document'} {_SIZE_WORDS[str(error.validator)].format(error.validator_value)}"
    if error.validator == "additionalProperties":
        return _unknown_keys(error)
    if error.validator == "required":
        return error.message.replace("is a required property", "is required") + (f" in {where}" if where else "")
    if error.validator == "oneOf" and error.context:
        from jsonschema.exceptions import best_match

        inner = best_match(error.context)
        return f"{where or 'value'}: {inner.message}" if where else inner.message
    return f"{where}: {error.message}" if where else error.message


def _error_path(error: ValidationError) -> tuple[Any, ...]:
    path = tuple(error.absolute_path)
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        extras = sorted(set(error.instance) - set(error.schema.get("properties", {})), key=str)
        if extras:
            return path + (extras[0],)
    return path


# (kind, SHA-256 of the data's repr) of data found valid; each entry counts 1.
_VALID: Memo[bool] = Memo("valid documents", 1024, 1024)


# The most verdicts kept on disk; past it, the older half goes.
MAX_KEPT_VERDICTS = 4096


@cache
def _schema_digest(kind: str) -> bytes:
    return hashlib.sha256((grammar_dir() / f"{kind}.schema.json").read_bytes()).digest()


def _verdict_file(kind: str, data_digest: bytes) -> Path:
    name = hashlib.sha256(kind.encode("utf-8") + b"\0" + _schema_digest(kind) + data_digest).hexdigest()
    return cache_dir("schema") / name


def _known_valid(kind: str, data_digest: bytes) -> bool:
    """Whether data of this digest was found valid against this schema by an earlier process (only
    a folder no other user can write is believed: `resources.cache_problem`)."""
    try:
        path = _verdict_file(kind, data_digest)
        return path.is_file() and cache_problem(path.parent) is None and cache_problem(path.parent.parent) is None
    except OSError:
        return False


def _keep_valid(kind: str, data_digest: bytes) -> None:
    """Note on disk that data of this digest is valid (nothing if the cache folder cannot be written)."""
    try:
        path = _verdict_file(kind, data_digest)
        if not path.parent.is_dir():
            private_cache_dir("schema")
        path.touch()
        kept = list(os.scandir(path.parent))
        if len(kept) > MAX_KEPT_VERDICTS:
            kept.sort(key=lambda entry: entry.stat().st_mtime_ns)
            for entry in kept[:len(kept) // 2]:
                os.unlink(entry.path)
    except (OSError, CacheError):
        pass


def validate(doc: Document, kind: str) -> None:
    """Raise `RulesetError` at the first schema error (in file order)."""
    digest = hashlib.sha256(repr(doc.data).encode("utf-8")).digest()
    key = (kind, digest)
    if _VALID.get(key):
        return
    if _known_valid(kind, digest):
        _VALID.put(key, True, 1)
        return
    errors = list(_validator(kind).iter_errors(doc.data))
    if not errors:
        _VALID.put(key, True, 1)
        _keep_valid(kind, digest)
        return
    # The deepest error under the earliest position is the most useful one.
    def order(e: ValidationError) -> tuple[int, int, int]:
        pos = doc.pos(_error_path(e), key=e.validator == "additionalProperties")
        return (pos.line, pos.col, -len(e.absolute_path))

    error = min(errors, key=order)
    while error.validator == "oneOf" and error.context:
        chosen = _chosen_alternative(error)
        if isinstance(chosen, tuple):  # a mapping (or a name) that is none of the alternatives
            message, key = chosen
            path = tuple(error.absolute_path) + ((key,) if key is not None else ())
            raise RulesetError(message, doc.pos(path, key=key is not None))
        if chosen is None:
            from jsonschema.exceptions import best_match

            deeper = best_match(error.context)
            path = tuple(error.absolute_path) + tuple(deeper.relative_path)
            raise RulesetError(f"{_describe(deeper)}", doc.pos(path))
        error = min(chosen, key=order)  # the errors inside the alternative the entry names
    raise RulesetError(_describe(error), doc.pos(_error_path(error), key=error.validator == "additionalProperties"))


def _alternatives(error: ValidationError) -> list[tuple[int, list[str], Any]]:
    """A `oneOf`'s alternatives that a mapping's keys tell apart: (index, required keys, const)."""
    return [(i, list(alt.get("required", [])), alt.get("const")) for i, alt in enumerate(error.validator_value)
            if isinstance(alt, dict)]


def _chosen_alternative(error: ValidationError) -> list[ValidationError] | tuple[str, Any] | None:
    """For a `oneOf` whose alternatives are told apart by a key (an effect is `{move: ...}`,
    `{turn_up: ...}`, ... or the name `move`), or by being a mapping: the errors inside the alternative the entry names,
    or, when it names none, the message saying so and what it may be, with the key to point at
    (None: the entry itself); None for other `oneOf`s."""
    alternatives = _alternatives(error)
    keyed = [(i, required) for i, required, _ in alternatives if required]
    mappings = [i for i, alt in enumerate(error.validator_value) if isinstance(alt, dict) and alt.get("type") == "object"]
    if isinstance(error.instance, dict) and len(mappings) == 1 and len(keyed) < 2:
        # a name or a mapping (`deck: NAME` or `deck: {name: ...}`): a mapping's errors are its own
        inside = [e for e in error.context if e.relative_schema_path and e.relative_schema_path[0] == mappings[0]]
        return inside or None
    if len(keyed) < 2:
        return None
    names = sorted({str(c) for _, _, c in alternatives if isinstance(c, str)} | {r[0] for _, r in keyed})
    what = error.schema.get("title", "entry")
    instance = error.instance
    if isinstance(instance, dict):
        # the alternative whose first key the entry has (all of its keys, if several do)
        matching = sorted((not all(k in instance for k in required), i)
                          for i, required in keyed if required[0] in instance)
        if matching:
            index = matching[0][1]
            inside = [e for e in error.context if e.relative_schema_path and e.relative_schema_path[0] == index]
            return inside or None
        first = next(iter(instance), None)
        return f"unknown {what} {shortened(repr(first))}: {what}s are {', '.join(names)}", first
    if isinstance(instance, str) and not any(c == instance for _, _, c in alternatives):
        return f"unknown {what} {shortened(repr(instance))}: {what}s are {', '.join(names)}", None
    if not isinstance(instance, str):
        return f"{what} {shortened(repr(instance))} is not a name or a mapping: {what}s are {', '.join(names)}", None
    return None
