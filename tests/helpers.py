"""Helpers shared by the rules tests: reading piles, playing move texts, snapshotting a game."""

from __future__ import annotations

from typing import Any

# Every bundled Ten Bucks ruleset: the base and its expansions.
TEN_BUCKS_RULESETS = [
    "ten-bucks",
    "ten-bucks-wild-wagers",
    "ten-bucks-wild-two",
    "ten-bucks-zero-risk",
    "ten-bucks-bad-investment",
    "ten-bucks-expansions",
]


def pile_ids(game: Any, zone: str, i: int = 0) -> list[int]:
    return list(game.state.piles[game.rules.zones[zone].piles[i]])


def pile(game: Any, zone: str, i: int = 0) -> list[str]:
    """Card codes of a pile, bottom first."""
    codes = game.rules.deck.codes
    return [codes[c] for c in pile_ids(game, zone, i)]


def faces(game: Any, zone: str, i: int = 0) -> list[bool]:
    return [bool(game.state.up[c]) for c in pile_ids(game, zone, i)]


def texts(game: Any, name: str | None = None) -> set[str]:
    """The legal moves' texts (only those of the move template `name`, if given)."""
    return {str(m) for m in game.legal_moves() if name is None or m.name == name}


def play(game: Any, *moves: str) -> None:
    for text in moves:
        game.apply(game.parse_move(text))


def snapshot(game: Any) -> tuple[Any, ...]:
    """Everything a move can change: piles, faces, variables, end state, history and moves."""
    state = game.state
    return (
        tuple(tuple(p) for p in state.piles),
        bytes(state.up),
        tuple(state.vars),
        state.over,
        state.outcome,
        state.reason,
        tuple(str(m) for m in game.history),
        tuple(str(m) for m in game.legal_moves()),
        tuple(game.scores()),
        game.label(),
        repr(game.view(0)),
    )
