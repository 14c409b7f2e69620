"""What the build asks of the backend that runs a loaded ruleset's games (python/load.py supplies
the Python backend's): a writer of each move template's listing function and of the joined
listing, a writer of each template's apply function and of the end checks, and the class of its
games. The model imports no backend: the backend hands itself to the build (`load_ruleset`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from ..front.compiler import Scope
    from ..front.source import PathKey


class ListingWriter(Protocol):
    """Writes the function that lists one move template's moves, then all of them joined."""

    def template(self, template: Any, path: PathKey, spec: dict[str, Any],
                 scope: Scope) -> Callable[..., None]: ...

    def merged(self) -> Callable[..., None]: ...


class ApplyWriter(Protocol):
    """Writes one function per move template for what its moves do (None: its closures run), and
    one for the end conditions."""

    def template(self, template: Any, selects: bool) -> Callable[..., None] | None: ...

    def end_check(self) -> Callable[[Any, int], int] | None: ...


@dataclass(frozen=True)
class GameBackend:
    """A backend a ruleset is built for: its writers, each made for one build, and its games
    (`game(rules, seed=, deal=, players=, persisted=, max_moves=)`). The writers are given the
    build (`build_moves._Builder`) and templates (`rules.MoveTemplate`), typed Any here so that
    the model's modules import one another in no circle, type checking included."""

    name: str
    listing: Callable[[Any], ListingWriter]
    apply: Callable[[Any], ApplyWriter]
    game: Callable[..., Any]
