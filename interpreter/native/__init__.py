"""Backend 2: a ruleset compiled to native code with Numba (docs/native.md).

A loaded ruleset is lowered to a module of array code in five steps, each a class built on the
one before: `scope` (what names mean), `expressions`, `listing` (legal moves), `effects`, and
`module` (the whole module, `lower`), with the fixed code of `sources`; `values` holds the layout
of the arrays and the errors. `cache` keeps compiled modules, `game` plays one (`NativeGame`),
`backend` is the backend of one ruleset (`native_backend`), `compare` checks it against the Python
backend move by move. `runtime` holds the helpers every module shares; `bots`, `search` and
`simultaneous` are code added to a module for playouts, the solver's search and games where
every seat plays at once; `solver` drives the compiled search. The public names are these:
"""

from .backend import Native, native_available, native_backend
from .cache import cache_dir
from .compare import Mismatch, compare, compare_deal, compare_ending, compare_listing, compare_position
from .game import NativeGame
from .module import lower
from .values import NativeStop, Unsupported

__all__ = ["Mismatch", "Native", "NativeGame", "NativeStop", "Unsupported", "cache_dir", "compare", "compare_deal",
           "compare_ending", "compare_listing", "compare_position", "lower", "native_available", "native_backend"]
