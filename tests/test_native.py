"""The native backend (native.py) against the Python reference: the same legal moves in the same
order, positions, variables, outcomes and scores at every step; the same simulations; and a clear
fallback wherever it cannot run a ruleset."""

from __future__ import annotations

import itertools
import random
import re
from pathlib import Path
from typing import Any

import pytest
from cardrules import load_ruleset, native
from cardrules.errors import RulesetRuntimeError
from cardrules.native import Unsupported, native_backend
from cardrules.simulate import simulate_games
from conftest import RULESETS
from test_klondike_rules import ah_deal, dead_deal, won_deal

FIXTURES = Path(__file__).parent / "fixtures" / "native"
BUNDLED = sorted(p.stem for p in RULESETS.glob("*.yaml"))


def _native_or_reason(name: str) -> tuple[Any, Any]:
    rules = load_ruleset(name)
    try:
        return rules, native_backend(rules)
    except Unsupported as exc:
        return rules, exc


@pytest.mark.parametrize("name", BUNDLED)
def test_every_bundled_ruleset_runs_natively_or_names_the_construct_and_its_place(name: str) -> None:
    rules, backend = _native_or_reason(name)
    if isinstance(backend, Unsupported):
        assert backend.what and backend.pos is not None
        assert re.match(r".+\.yaml:\d+:\d+: ", str(backend)), str(backend)
    else:
        assert backend.rules is rules


def _klondike_combinations() -> list[dict[str, Any]]:
    rules = load_ruleset("klondike")
    names = list(rules.options)
    return [dict(zip(names, values)) for values in itertools.product(*(rules.options[n].values for n in names))]


def _walk_both(rules: Any, backend: Any, seed: int, max_moves: int, bias: float = 0.0, prefer: tuple[str, ...] = (),
               deal: list[str] | None = None) -> tuple[int, str | None]:
    """One seeded game (or `deal`) through both backends, compared at every step. With `bias`, the
    moves named in `prefer` are chosen when offered with that probability."""
    game = rules.new_game(seed=seed, max_moves=max_moves) if deal is None else \
        rules.new_game(deal=deal, max_moves=max_moves)
    rng = random.Random(seed)

    def choose(legal: list[Any]) -> Any:
        preferred = [m for m in legal if m.name in prefer]
        return rng.choice(preferred if preferred and rng.random() < bias else legal)

    steps = native.compare(backend, game, choose)
    return steps, game.outcome


def test_a_difference_between_the_backends_is_reported_with_the_step_and_what_differs() -> None:
    rules = load_ruleset("klondike")
    backend = native_backend(rules)
    broken = native.Native(rules, backend.source, {"strings": {}, "results": ["", "won", "lost"],
                                                   "reasons": [""]})
    broken.np1 += 1  # action numbers of another layout: the lists of legal moves differ at once
    with pytest.raises(native.Mismatch, match=r"after 0 moves of seed 3: the legal moves differ"):
        native.compare(broken, rules.new_game(seed=3), lambda legal: legal[0])


@pytest.mark.parametrize("options", _klondike_combinations(), ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_klondike_plays_the_same_in_both_backends_move_for_move(options: dict[str, Any]) -> None:
    rules = load_ruleset("klondike", options)
    backend = native_backend(rules)
    outcomes = set()
    for seed in range(16):
        _, outcome = _walk_both(rules, backend, seed, 250, 0.6 if seed % 2 else 0.0, ("draw", "redeal"))
        outcomes.add(outcome)
    # Deals that end otherwise: no move, a whole cycle through the stock (or the pass limit), a win.
    for seed in range(4):
        _, outcome = _walk_both(rules, backend, seed, 2000, 0.9, ("draw", "redeal"), dead_deal())
        outcomes.add(outcome)
        _walk_both(rules, backend, seed, 2000, 0.9, ("draw", "redeal"), ah_deal())
        _, outcome = _walk_both(rules, backend, seed, 2000, 0.95, ("to_foundation",), won_deal())
        outcomes.add(outcome)
    assert {"lost", "limit", "won"} <= outcomes


@pytest.mark.parametrize("name", ["klondike-draw3", "klondike-vegas", "klondike-vegas-cumulative"])
def test_klondike_variants_play_the_same_in_both_backends(name: str) -> None:
    rules = load_ruleset(name)
    backend = native_backend(rules)
    for seed in range(10):
        _walk_both(rules, backend, seed, 300, 0.5 if seed % 2 else 0.0, ("draw", "redeal"))


def test_one_compiled_module_serves_every_option_combination_and_variant() -> None:
    sources = {native.lower(load_ruleset("klondike", options))[0] for options in _klondike_combinations()}
    sources |= {native.lower(load_ruleset(name))[0] for name in ("klondike-draw3", "klondike-vegas")}
    assert len(sources) == 1  # options are inputs of the compiled code, not constants in it


def test_the_compiled_module_is_cached_under_the_hash_of_its_source() -> None:
    backend = native_backend(load_ruleset("klondike"))
    cached = list(native.cache_dir().glob("cardrules_native_*.py"))
    assert any(path.read_text() == backend.source for path in cached)


def test_native_random_playouts_make_the_moves_of_the_python_random_bot() -> None:
    from cardrules.bots import RandomBot

    rules = load_ruleset("klondike", {"draw": 3})
    backend = native_backend(rules)
    for seed in range(8):
        game = rules.new_game(seed=seed)
        score, decisions, options, _ = backend.playout(backend.start(game), seed * 31 + 7)
        bot = RandomBot(seed * 31 + 7)
        offered = 0
        while not game.is_over:
            offered += len(game.legal_moves())
            game.apply(bot.choose(game))
        assert (decisions, options, score) == (len(game.history), offered, game.scores()[0])


def test_simulate_with_the_native_engine_gives_the_python_engines_summary() -> None:
    python = simulate_games("klondike", 24, options=["draw=3"], seed=5)
    lines: list[str] = []
    compiled = simulate_games("klondike", 24, options=["draw=3"], seed=5, engine="native", note=lines.append)
    assert compiled.plan.engine == "native" and not lines
    assert compiled.summary == python.summary


def test_simulate_native_engine_on_jobs_gives_the_same_summary() -> None:
    one = simulate_games("klondike", 16, seed=3, engine="native")
    two = simulate_games("klondike", 16, seed=3, engine="native", jobs=2)
    assert one.summary == two.summary


def test_native_engine_falls_back_with_one_line_where_a_ruleset_uses_what_it_lacks() -> None:
    lines: list[str] = []
    run = simulate_games("cascades", 3, engine="native", note=lines.append)
    assert run.plan.engine == "python"
    assert len(lines) == 1 and "not for this ruleset" in lines[0] and re.search(r"cascades\.yaml:\d+:\d+", lines[0])


def test_native_engine_falls_back_with_one_line_for_bots_other_than_random() -> None:
    lines: list[str] = []
    run = simulate_games("klondike", 2, seats=["1=greedy"], engine="native", note=lines.append)
    assert run.plan.engine == "python"
    assert lines == ["native engine: it plays random seats only; playing with the Python engine"]


def test_without_numba_the_native_backend_says_which_extra_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(native, "native_available", lambda: False)
    with pytest.raises(Unsupported, match=r"cardrules\[native\]"):
        native_backend(load_ruleset("klondike"))


def test_a_rule_that_fails_in_compiled_code_is_reported_by_the_python_backend_at_its_place() -> None:
    ruleset = str(FIXTURES / "fails.yaml")
    rules = load_ruleset(ruleset)
    backend = native_backend(rules)
    with pytest.raises(native.NativeStop):
        backend.playout(backend.start(rules.new_game(seed=1)), 1)
    with pytest.raises(RulesetRuntimeError) as caught:
        simulate_games(ruleset, 1, engine="native")
    assert caught.value.pos is not None and caught.value.pos.line == 19  # the score's line
