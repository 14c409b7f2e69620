"""What simulate, compare and solve share in choosing their engine (`--engine auto`): whether a
ruleset's native code is at hand or a run pays for compiling it, and the line said before compiling.
"""

from __future__ import annotations

from typing import Any, Callable

# Said before a ruleset's native code is first compiled (`Native.compiled_before`): for a run's
# engine, and for mcts seats' playouts (simulate, compare, play).
COMPILING = "compiling the ruleset to native code (its first use: some 10-30 s)"


def native_pays(backend: Any, asked: bool, runs: int, pays_from: int, unit: str,
                note: Callable[[str], None]) -> bool:
    """Whether to go native with `backend`, a ruleset the native engine covers: yes where its code is
    at hand; where it must compile first, yes if `asked` or `runs` reach `pays_from` (in `unit`s:
    games, deals), saying so to `note` before compiling; else no, saying why."""
    if backend.compiled_before():
        return True
    if not asked and runs < pays_from:
        note(f"engine: python (native code for this ruleset is not compiled yet, which pays from about "
             f"{pays_from} {unit}: --engine native compiles it once)")
        return False
    note(COMPILING)
    return True


def say_if_mcts_compiles(rules: Any, kinds: Any, note: Callable[[str], None]) -> None:
    """One line before an mcts seat's first decision compiles the ruleset's native code (its
    playouts run there): `kinds` the seats' bot kinds, in a game where a seat is mcts."""
    if "mcts" not in kinds:
        return
    from ..agents.mcts import compiled_trials

    trials, _ = compiled_trials(rules)
    if trials is not None and not trials.compiled_before():
        note(f"{COMPILING}, for the mcts seats' playouts")
