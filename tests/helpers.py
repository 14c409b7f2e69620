"""Helpers shared by the rules tests: reading piles, playing move texts, snapshotting a game."""

from __future__ import annotations

import random
from collections.abc import Iterable
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).resolve().parent / "fixtures"
MINI = (FIXTURES / "mini.yaml").read_text(encoding="utf-8")  # a small valid ruleset to break one thing in

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


def variant_of(tmp_path: Any, base: Any, text: str, name: str = "v.yaml") -> Any:
    """A variant file in `tmp_path` that extends a copy of `base` placed beside it (a ruleset may
    extend only files in its own folder tree or the bundled ones); `text` follows `extends:`."""
    (tmp_path / base.name).write_text(base.read_text(encoding="utf-8"), encoding="utf-8")
    path = tmp_path / name
    path.write_text(f"extends: {base.stem}\n{text}", encoding="utf-8")
    return path


def replaced(tmp_path: Path, text: str, old: str, new: str, name: str = "edited.yaml") -> Path:
    """`text` with its first `old` (which must be there) replaced by `new`, written into `tmp_path`."""
    assert old in text
    path = tmp_path / name
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def mini_with(tmp_path: Path, old: str, new: str, name: str = "r.yaml") -> Path:
    """tests/fixtures/mini.yaml with its first `old` replaced by `new`, written into `tmp_path`."""
    return replaced(tmp_path, MINI, old, new, name)


def play_both_backends(rules: Any, seeds: Iterable[int], players: Iterable[int | None] = (None,)) -> list[Any]:
    """Seeded random games of `rules` through the Python and the native backend, compared at every
    step (`native.compare`: legal moves, piles, variables, turns, the end, winners); returns the
    Python games, played out. For each number of players (None: the default), each seed."""
    from cardrules import native

    backend = native.native_backend(rules)
    games = []
    for count in players:
        for seed in seeds:
            game = rules.new_game(seed=seed, players=count)
            native.compare(backend, game, random.Random(seed).choice)
            games.append(game)
    return games


# OpenSpiel's card games (spades, hearts) order the suits clubs, diamonds, hearts, spades and the
# ranks 2 to Ace, and name a card by its suit and rank (spades: `D7`; hearts: `7D`).
OPENSPIEL_SUITS = "CDHS"
OPENSPIEL_RANKS = "23456789TJQKA"


def openspiel_suit_rank(game: Any, card: int) -> tuple[int, int]:
    """A standard-52 card's suit (0-3) and rank (0-12) in OpenSpiel's spades and hearts."""
    attributes = game.rules.deck.cards[card]
    return OPENSPIEL_SUITS.index(attributes["suit"][0].upper()), (attributes["rank"] - 2) % 13


def load_error(path: Path, **options: object) -> Any:
    """The `RulesetError` loading `path` (with `options`) raises."""
    import pytest

    from cardrules import RulesetError, load_ruleset

    with pytest.raises(RulesetError) as info:
        load_ruleset(path, options=options or None)
    return info.value


# A game of one move, `go`, that sets `x` to EXPR (its initial value VALUE): a test of one expression
# worked out in play, after a deal of rows of 2, 3 and 4 face-up cards (the stock keeps the rest).
VALUES = """\
ruleset: values
players: 1
deck: standard-52
variables:
  x: {initial: VALUE}
  done: {initial: false}
zones:
  stock: {}
  row: {count: 3}
setup:
  - take_deck: stock
  - deal: {from: stock, to: row, counts: "i + 2", face: up}
moves:
  go:
    do:
      - set: {x: "EXPR", done: true}
end:
  when:
    - if: "done"
      result: won
"""


def value_of(tmp_path: Path, expr: str, initial: str = "0") -> Any:
    """`x` after the one move of VALUES with EXPR `expr` (and `x` starting at `initial`)."""
    from cardrules import load_ruleset

    path = tmp_path / "values.yaml"
    path.write_text(VALUES.replace("EXPR", expr).replace("VALUE", initial))
    game = load_ruleset(path).new_game(seed=1)
    game.apply(game.legal_moves()[0])
    return game.variable("x")


def score_changes(game: Any, move: Any, variable: str = "score") -> list[int]:
    """Apply `move`; how each seat's per-player `variable` changed."""
    before = [game.variable(variable, s) for s in range(game.players)]
    game.apply(move)
    return [game.variable(variable, s) - b for s, b in enumerate(before)]


def refuses_unkept_seeds(rules: Any) -> Any:
    """The native backend of `rules`, which draws chance in play, checked not to start a game from
    a seed compiled code cannot keep (-7: Python draws from the seed as it is, compiled code keeps
    64 bits, 0 to 2**64 - 1), so that the Python backend plays it."""
    import pytest

    from cardrules.native import NativeStop, native_backend

    native = native_backend(rules)
    assert native.draws_chance
    with pytest.raises(NativeStop, match="chance seed"):
        native.start(rules.new_game(seed=-7))
    with pytest.raises(NativeStop, match="chance seed"):
        native.deal(-7)
    return native
