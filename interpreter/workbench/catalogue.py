"""The bundled rulesets as a list of what a player chooses from: `cardrules list` prints it, and the
lobby of `cardrules serve` offers it. Read from each file's top-level keys (a variant's after its
merge with its parents), within the loader's limits, without building the rulesets.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..base.errors import CardrulesError
from ..base.resources import rulesets_dir


@dataclass(frozen=True)
class Entry:
    """One bundled ruleset as its header says it."""

    name: str
    title: str
    description: str
    extends: tuple[str, ...]
    min_players: int
    max_players: int
    default_players: int
    options: dict[str, dict[str, Any]] = field(default_factory=dict)  # name -> default, values or min/max, help

    def data(self) -> dict[str, Any]:
        """As plain JSON data."""
        return {"name": self.name, "title": self.title, "description": self.description,
                "extends": list(self.extends), "players": [self.min_players, self.max_players, self.default_players],
                "options": self.options}


def header(path: Path) -> dict[str, Any]:
    """The top-level mapping of a YAML file, read within the loader's limits ({} if it has none)."""
    from ..front.source import load_document

    try:
        data = load_document(path).data
        return data if isinstance(data, dict) else {}
    except CardrulesError:
        return {}


def entry(path: Path) -> Entry:
    """A ruleset file's entry: its own header, with a variant's options and players as merged."""
    from ..front.source import load_document
    from ..front.variants import resolve_extends

    data = header(path)
    given = data.get("extends") or ()
    extends = tuple(str(e) for e in given) if isinstance(given, list) else (str(given),) if given else ()
    if extends:
        try:
            data = resolve_extends(load_document(path), path).data
        except CardrulesError:
            pass
    players = data.get("players", 1)
    bounds: tuple[int, int, int] = (1, 1, 1)
    if isinstance(players, dict):
        low, high, default = (players.get(key) for key in ("min", "max", "default"))
        low = low if isinstance(low, int) else 1
        bounds = (low, high if isinstance(high, int) else low, default if isinstance(default, int) else low)
    elif isinstance(players, int):
        bounds = (players, players, players)
    options = {str(name): {key: spec[key] for key in ("default", "values", "min", "max", "help") if key in spec}
               for name, spec in (data.get("options") or {}).items() if isinstance(spec, dict)}
    name = path.stem
    return Entry(name, str(data.get("title", name)), str(data.get("description", "") or ""), extends,
                 *bounds, options)


def bundled() -> list[Entry]:
    """Every bundled ruleset, by name."""
    return [entry(path) for path in sorted(rulesets_dir().glob("*.yaml"), key=lambda p: p.stem)]


def allowed_text(spec: dict[str, Any]) -> str:
    """An option's allowed values as `cardrules list` shows them: `1|3`, or `-1000..1000`."""
    if "values" in spec:
        return "|".join(option_text(v) for v in spec.get("values") or ())
    return f"{spec.get('min')}..{spec.get('max')}"


def option_text(value: Any) -> str:
    """An option's value as typed on a command line (`true`, not `True`)."""
    return str(value).lower() if isinstance(value, bool) else str(value)
