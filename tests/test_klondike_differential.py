"""Differential test: the engine's ``klondike`` ruleset against the reference Klondike.

Random games (300 seeds over the 6 option combinations) and a few explicit
deals that reach the rarer situations (wins, dead deals, empty-pass redeals)
are played move by move on both; after every move the legal move texts (as
sets), the score, ``is_over`` and the outcome must agree.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import lru_cache
from operator import itemgetter
from typing import Any

import pytest

import cardrules  # noqa: E402

from reference_klondike import ReferenceKlondike, shuffled_deck  # noqa: E402
from test_reference_klondike import (  # noqa: E402
    SCORING_TABLEAU,
    TABLEAU,
    dead_deal,
    make_deal,
    won_deal,
)

DRAWS = (1, 3)
SCORINGS = ("none", "standard", "vegas")
COMBOS = [(draw, scoring) for draw in DRAWS for scoring in SCORINGS]
GAMES_PER_COMBO = 50
MAX_MOVES = 1500
HISTORY_TAIL = 12

# Seeds 0..299: seed s plays under COMBOS[s % 6], so each combination gets 50 deals.
RANDOM_CASES = [
    pytest.param(draw, scoring, seed, id=f"draw{draw}-{scoring}-seed{seed}")
    for seed in range(GAMES_PER_COMBO * len(COMBOS))
    for draw, scoring in [COMBOS[seed % len(COMBOS)]]
]


@lru_cache(maxsize=None)
def ruleset(draw: int, scoring: str) -> Any:
    return cardrules.load_ruleset("klondike", options={"draw": draw, "scoring": scoring})


Policy = Callable[[list[Any], random.Random], Any]


def uniform(moves: list[Any], rng: random.Random) -> Any:
    return rng.choice(moves)


def foundation_first(moves: list[Any], rng: random.Random) -> Any:
    """A foundation move if any, else draw, else redeal, else a random move."""
    texts = [str(m) for m in moves]
    for i, text in enumerate(texts):
        if ">f" in text:
            return moves[i]
    for wanted in ("draw", "redeal"):
        if wanted in texts:
            return moves[texts.index(wanted)]
    return rng.choice(moves)


def biased(moves: list[Any], rng: random.Random) -> Any:
    """Half the time a foundation move when one exists, otherwise uniform."""
    to_f = [m for m in moves if ">f" in str(m)]
    if to_f and rng.random() < 0.5:
        return rng.choice(to_f)
    return rng.choice(moves)


def play_both(game: Any, ref: ReferenceKlondike, rng: random.Random, policy: Policy, label: str) -> int:
    """Play ``game`` and ``ref`` side by side, comparing after every move; return moves made."""
    history: list[str] = []

    def where(step: int) -> str:
        tail = history[-HISTORY_TAIL:]
        more = "... " if len(history) > HISTORY_TAIL else ""
        return f"{label}, step {step}, after moves {more}{tail}"

    for step in range(MAX_MOVES + 1):
        # str(move) once per move; sorting by text keeps the random choice reproducible.
        pairs = sorted(((str(m), m) for m in game.legal_moves()), key=itemgetter(0))
        engine_texts = [text for text, _ in pairs]
        engine_moves = [move for _, move in pairs]
        ref_texts = sorted(ref.legal_moves())
        if engine_texts != ref_texts:
            only_engine = sorted(set(engine_texts) - set(ref_texts))
            only_ref = sorted(set(ref_texts) - set(engine_texts))
            dupes = sorted({t for t in engine_texts if engine_texts.count(t) > 1})
            pytest.fail(
                f"{where(step)}: legal moves differ\n"
                f"  engine only:    {only_engine}\n"
                f"  reference only: {only_ref}\n"
                + (f"  engine duplicates: {dupes}\n" if dupes else "")
                + f"  engine: {engine_texts}\n  reference: {ref_texts}"
            )
        engine_score = game.scores()[0]
        assert engine_score == ref.score, f"{where(step)}: score engine {engine_score} != reference {ref.score}"
        assert game.is_over == ref.is_over, (
            f"{where(step)}: is_over engine {game.is_over} (outcome {game.outcome!r}) != "
            f"reference {ref.is_over} (outcome {ref.outcome!r})"
        )
        if ref.is_over:
            assert game.outcome == ref.outcome, f"{where(step)}: outcome engine {game.outcome!r} != reference {ref.outcome!r}"
            return step
        if step == MAX_MOVES:
            return step
        move = policy(engine_moves, rng)
        text = str(move)
        game.apply(move)
        ref.apply(text)
        history.append(text)
    raise AssertionError("unreachable")  # pragma: no cover


@pytest.mark.parametrize(("draw", "scoring", "seed"), RANDOM_CASES)
def test_random_game_matches_reference(draw: int, scoring: str, seed: int) -> None:
    game = ruleset(draw, scoring).new_game(seed=seed)
    deal = list(game.deal_order)
    assert len(deal) == 52 and len(set(deal)) == 52, f"seed {seed}: bad deal_order {deal}"
    ref = ReferenceKlondike(deal, draw=draw, scoring=scoring)
    play_both(game, ref, random.Random(seed), uniform, f"draw={draw} scoring={scoring} seed={seed}")


@pytest.mark.parametrize(("draw", "scoring"), COMBOS, ids=[f"draw{d}-{s}" for d, s in COMBOS])
def test_explicit_deal_is_dealt_as_given(draw: int, scoring: str) -> None:
    deal = shuffled_deck(1234)
    game = ruleset(draw, scoring).new_game(deal=list(deal))
    assert list(game.deal_order) == deal
    ref = ReferenceKlondike(deal, draw=draw, scoring=scoring)
    assert sorted(str(m) for m in game.legal_moves()) == sorted(ref.legal_moves())
    assert game.scores() == [ref.score]


EXPLICIT_DEALS: dict[str, Callable[[], list[str]]] = {
    "won": won_deal,
    "dead": dead_deal,
    "tableau": lambda: make_deal(TABLEAU),
    "scoring": lambda: make_deal(SCORING_TABLEAU, stock=["AC", "JC"]),
}
POLICIES: dict[str, Policy] = {"foundation_first": foundation_first, "biased": biased}
EXPLICIT_CASES = [
    pytest.param(name, policy, draw, scoring, id=f"{name}-{policy}-draw{draw}-{scoring}")
    for name in EXPLICIT_DEALS
    for policy in POLICIES
    for draw, scoring in COMBOS
]


@pytest.mark.parametrize(("deal_name", "policy", "draw", "scoring"), EXPLICIT_CASES)
def test_explicit_deal_matches_reference(deal_name: str, policy: str, draw: int, scoring: str) -> None:
    deal = EXPLICIT_DEALS[deal_name]()
    game = ruleset(draw, scoring).new_game(deal=list(deal))
    ref = ReferenceKlondike(deal, draw=draw, scoring=scoring)
    label = f"deal={deal_name} policy={policy} draw={draw} scoring={scoring}"
    play_both(game, ref, random.Random(99), POLICIES[policy], label)
    if deal_name == "won" and policy == "foundation_first":
        assert ref.outcome == "won" and game.outcome == "won", label
    if deal_name == "dead":
        assert ref.outcome == "lost" and game.outcome == "lost", label
