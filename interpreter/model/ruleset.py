"""Stage 5: load a ruleset (`load_ruleset`): find it, read and merge it, check it against the
schema, and build an immutable, compiled `Ruleset` from it (`check_ruleset` does so under every
option combination, for `validate`).

The build (build_base, build_tables, build_effects, build_moves) resolves the deck, options,
variables and zones (every pile gets an integer index), parses every expression once,
type-checks it against the names it can see, and compiles it to Python. Every effect becomes a
small closure (closures); each move template's listing and apply functions are written by the
backend the build is given (`GameBackend`, model/game_backend.py: python/load.py gives the Python
backend's, and `cardrules.load_ruleset` is that one). Nothing is parsed or tree-walked after this.
The ruleset itself, as data, is in rules.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

from ..base.errors import ArgumentError, RulesetError, SourcePos, shortened_path
from ..base.limits import MAX_CHECK_NODES
from ..base.resources import rulesets_dir
from ..front.blocks import expand_blocks
from ..front.schema import validate
from ..front.source import Document, FileAccess, copy_document, is_file, load_document
from ..front.variants import resolve_extends
from .build_moves import _Builder
from .closures import runtime_error
from .game_backend import GameBackend
from .rules import DEFAULT_MAX_MOVES, CycleRule, MoveTemplate, Option, Ruleset, Variable, data_key, is_bundled

# Names other modules take from here (the ruleset's data is in rules.py, the builder in build_*.py).
__all__ = ["DEFAULT_MAX_MOVES", "CycleRule", "MoveTemplate", "Option", "Ruleset", "Variable", "_Builder", "check_ruleset",
           "data_key", "find_ruleset", "is_bundled", "load_ruleset", "runtime_error"]


def find_ruleset(name_or_path: str | Path) -> Path:
    """A ruleset file: an existing path, or the name of a bundled ruleset."""
    if not isinstance(name_or_path, (str, Path)):
        raise ArgumentError(f"a ruleset is named by a path or a bundled name, not {type(name_or_path).__name__}")
    path = Path(name_or_path)
    if is_file(path):
        return path
    bundled = rulesets_dir() / f"{name_or_path}.yaml"
    if is_file(bundled):
        return bundled
    available = ", ".join(sorted(p.stem for p in rulesets_dir().glob("*.yaml")))
    raise RulesetError(f"no ruleset '{shortened_path(str(name_or_path))}': not a file, nor a bundled ruleset ({available})")


def load_ruleset(name_or_path: str | Path, options: dict[str, Any] | None = None,
                 search_path: tuple[str | Path, ...] = (), *, backend: GameBackend) -> Ruleset:
    """Load, validate and compile a ruleset for `backend` (`cardrules.load_ruleset`, python/load.py,
    gives the Python backend). `options` maps option names to values (or their text).

    The ruleset may name (in `extends:` and `deck:`) files in its own folder tree and the bundled
    rulesets; `search_path` adds folders."""
    path = find_ruleset(name_or_path)
    if options is not None and not isinstance(options, dict):
        raise ArgumentError(f"options are a dict of option names to values, not {type(options).__name__}")
    access = FileAccess.for_ruleset(path, search_path)
    return _Builder(_checked_document(path, access), path, options or {}, access, backend).build()


def _checked_document(path: Path, access: FileAccess) -> Document:
    """The ruleset file at `path` read, its `extends:` merged in, checked against the schema, and its
    named effects written out at their calls: what every load of it builds from, whatever its options."""
    doc = resolve_extends(load_document(path), path, access)
    if not isinstance(doc.data, dict):  # not a ruleset: its text is not shown
        raise RulesetError("a ruleset must be a mapping of sections (ruleset, deck, zones, ...)",
                           SourcePos(doc.path, 1, 1))
    validate(doc, "ruleset")
    expand_blocks(doc)
    return doc


def check_ruleset(name_or_path: str | Path, most: int = 256,
                  search_path: tuple[str | Path, ...] = (), *, backend: GameBackend) -> tuple[Ruleset, int]:
    """Load a ruleset under every combination of its option values (the validator's check).

    Options fold into constants when a ruleset compiles, so a branch that the defaults
    leave out is only checked under the options that keep it. Past `most` combinations (or
    past `MAX_CHECK_NODES` compiled in all), each value of each option is tried with the
    others at their defaults. Returns the ruleset with default options and the number of
    combinations checked.
    """
    path = find_ruleset(name_or_path)
    access = FileAccess.for_ruleset(path, search_path)
    # Read, merged and schema-checked once: only the build depends on the options.
    doc = _checked_document(path, access)
    rules = _Builder(copy_document(doc), path, {}, access, backend).build()
    names = list(rules.options)
    combos: list[dict[str, Any]]
    total = 1
    for name in names:
        total *= len(rules.options[name].values)
    cost = max(rules.compiled_nodes, 1)
    if total <= most and total * cost <= MAX_CHECK_NODES:
        combos = [dict(zip(names, values)) for values in itertools.product(*(rules.options[n].values for n in names))]
    else:
        combos = [{name: value} for name in names for value in rules.options[name].values]
        if len(combos) * cost > MAX_CHECK_NODES:
            raise RulesetError(f"the ruleset is too large to check under each of its {len(combos)} option values "
                               f"({cost:,} expression parts each)", SourcePos(str(rules.path), 1, 1))
    for combo in combos:
        try:
            _Builder(copy_document(doc), path, combo, access, backend).build()
        except RulesetError as exc:
            shown = " ".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in combo.items())
            raise type(exc)(f"{exc.message} (with options {shown})", exc.pos) from None
    return rules, len(combos)
