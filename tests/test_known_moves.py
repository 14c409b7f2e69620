"""A game's listings offer again the `Move` they made before for the same move (`Lineage.known`):
the moves are those a fresh listing makes, field for field, in the same order; the same move is one
object from one position to the next; the store of moves is bounded; a simultaneous game, whose
moves are given to a seat after they are listed, makes its moves afresh."""

from __future__ import annotations

import random
from typing import Any

import pytest
from cardrules import load_ruleset
from cardrules.python import movegen
from cardrules.python.engine import Lineage, Move
from cardrules.base.resources import rulesets_dir

BUNDLED = sorted(p.stem for p in rulesets_dir().glob("*.yaml"))


def _fields(move: Move) -> tuple[Any, ...]:
    return (move.key(), move.text(), move.text(long=True), type(move.origin))


def _fresh_listing(game: Any) -> list[Move]:
    """The legal moves listed into a new lineage (nothing known), as `legal_moves()` would list them."""
    out: list[Move] = []
    game.rules.meter.reset()
    game.rules.enumerate_all(game.state, out, Move, Lineage(game.rules))
    game._offer_pass(out)  # `turns: {no_move: pass}`: the engine's pass, when nothing else is legal
    for move in out:
        if game.rules.simultaneous:
            move.actor = game.state.current
    return out


@pytest.mark.parametrize("name", BUNDLED)
def test_known_moves_are_the_moves_a_fresh_listing_makes(name: str) -> None:
    rules = load_ruleset(name)
    for seed in range(20):
        game = rules.new_game(seed=seed)
        rng = random.Random(seed)
        seen: dict[Any, Move] = {}
        for _ in range(80):
            legal = game.legal_moves()
            if game.is_over or not legal:
                break
            assert [_fields(m) for m in legal] == [_fields(m) for m in _fresh_listing(game)]
            for move in legal:
                assert move.origin is game.lineage
                if not rules.simultaneous and not move.selection:  # (a `select` move is made afresh)
                    assert seen.setdefault(move.key(), move) is move  # one object for one move
            game.apply(rng.choice(legal))


def test_a_move_offered_again_is_still_legal_and_applies() -> None:
    """A move kept from an earlier position, once legal again, is accepted as the move listed now."""
    rules = load_ruleset("klondike")
    game = rules.new_game(seed=3)
    first = {m.key(): m for m in game.legal_moves()}
    draw = next(m for m in game.legal_moves() if m.name == "draw")
    game.apply(draw)
    clone = game.clone()
    assert any(m is first.get(m.key()) for m in clone.legal_moves())  # a clone shares the game's lineage
    game.undo()
    assert game.legal_moves() == list(first.values())
    game.apply(draw)
    assert game.history == [draw]


def test_the_store_of_known_moves_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(movegen, "MAX_KNOWN", 3)
    rules = load_ruleset("klondike")
    game = rules.new_game(seed=5)
    rng = random.Random(5)
    for _ in range(200):
        legal = game.legal_moves()
        assert len(game.lineage.known) <= 3
        assert [_fields(m) for m in legal] == [_fields(m) for m in _fresh_listing(game)]
        game.apply(rng.choice(legal))


def test_a_simultaneous_game_makes_its_moves_afresh() -> None:
    rules = load_ruleset("nerts")
    assert rules.simultaneous
    game = rules.new_game(seed=1)
    assert not game.lineage.known
    mine = game.legal_moves(0)
    theirs = game.legal_moves(1)
    assert mine and theirs and all(m.actor == 0 for m in mine) and all(m.actor == 1 for m in theirs)
    assert not game.lineage.known
