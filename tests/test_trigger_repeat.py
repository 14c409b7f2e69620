"""Triggers that repeat until they no longer apply (`repeat: true`) and that run at the start of a
game too (`at_start: true`), in both backends. The game is `tests/fixtures/triggers/autoplay.yaml`:
Klondike whose Aces and Twos go to the foundations by themselves, from the deal on."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from cardrules import load_ruleset, native
from cardrules.base.errors import RulesetError, RulesetRuntimeError
from cardrules.base.limits import MAX_TRIGGER_PASSES
from helpers import pile
from test_klondike_rules import column, make_deal

AUTOPLAY = Path(__file__).parent / "fixtures" / "triggers" / "autoplay.yaml"


def _variant(tmp_path: Path, old: str, new: str) -> Any:
    text = AUTOPLAY.read_text(encoding="utf-8").replace("extends: ../../../rulesets/klondike.yaml", "extends: klondike")
    assert old in text
    path = tmp_path / "variant.yaml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return load_ruleset(path)


# Column 2 holds 2S under AS: the start takes AS home, turns 2S up, and (a second pass) takes it too.
STACKED = make_deal([column("KH", size=1), column("2S", "AS", size=2), column("QC", size=3), column("QD", size=4),
                     column("JH", size=5), column("JS", size=6), column("TC", size=7)])


def _waiting(game: Any) -> list[str]:
    """Face-up Aces and Twos on top of a column that a foundation would take."""
    rules, S = game.rules, game.state
    codes = rules.deck.codes
    found = []
    for p in rules.zones["tableau"].piles:
        if S.piles[p] and S.up[S.piles[p][-1]]:
            code = codes[S.piles[p][-1]]
            rank = 1 if code[0] == "A" else 2 if code[0] == "2" else 0
            tops = {codes[S.piles[f][-1]] for f in rules.zones["foundation"].piles if S.piles[f]}
            if rank == 1 or rank == 2 and "A" + code[1] in tops:
                found.append(code)
    return found


def test_an_at_start_trigger_runs_once_the_deal_is_done_and_repeats_until_it_no_longer_applies() -> None:
    game = load_ruleset(AUTOPLAY).new_game(deal=STACKED)
    assert pile(game, "foundation", 0) == ["AS", "2S"]  # two passes: AS, then the 2S it uncovered
    assert pile(game, "tableau", 1) == [] and not game.history
    assert game.state.journal == []  # the start is not a move: nothing to undo


def test_without_repeat_the_trigger_runs_one_pass(tmp_path: Path) -> None:
    rules = _variant(tmp_path, "    repeat: true\n", "")
    game = rules.new_game(deal=STACKED)
    assert pile(game, "foundation", 0) == ["AS"] and pile(game, "tableau", 1) == ["2S"]


def test_without_at_start_the_trigger_waits_for_the_first_move(tmp_path: Path) -> None:
    rules = _variant(tmp_path, "    at_start: true\n", "")
    game = rules.new_game(deal=STACKED)
    assert pile(game, "tableau", 1) == ["2S", "AS"] and all(not pile(game, "foundation", i) for i in range(4))
    game.apply(game.parse_move("draw"))
    assert pile(game, "foundation", 0) == ["AS", "2S"]


def test_after_every_move_no_ace_or_two_that_could_go_home_stays_on_a_column() -> None:
    rules = load_ruleset(AUTOPLAY)
    for seed in range(40):
        game = rules.new_game(seed=seed, max_moves=200)
        rng = random.Random(seed)
        assert _waiting(game) == []
        while not game.is_over:
            game.apply(rng.choice(game.legal_moves()))
            assert _waiting(game) == [], f"seed {seed}, after {game.history[-1]}"
            assert sum(len(p) for p in game.state.piles) == 52


def test_undo_takes_back_every_pass_of_the_trigger_with_its_move() -> None:
    rules = load_ruleset(AUTOPLAY)
    for seed in range(20):
        game = rules.new_game(seed=seed, max_moves=120)
        rng = random.Random(seed)
        while not game.is_over:
            before = ([list(p) for p in game.state.piles], bytes(game.state.up), list(game.state.vars))
            game.apply(rng.choice(game.legal_moves()))
            if rng.random() < 0.3:
                game.undo()
                assert ([list(p) for p in game.state.piles], bytes(game.state.up), list(game.state.vars)) == before


def test_a_trigger_that_never_stops_applying_is_an_error_naming_it_not_a_hang(tmp_path: Path) -> None:
    rules = _variant(tmp_path, "    do:\n      - move: {from: p, count: 1,",
                     "    do:\n      - add: {score: 1}\n      - move: {from: p, count: 0,")
    with pytest.raises(RulesetRuntimeError, match=rf"trigger 'aces and twos home' still applies after "
                                                  rf"{MAX_TRIGGER_PASSES:,} passes") as caught:
        rules.new_game(deal=STACKED)
    assert caught.value.pos is not None and caught.value.pos.path.endswith("variant.yaml")


def test_a_repeating_trigger_without_when_or_for_is_refused_at_load(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text((AUTOPLAY.parents[1] / "mini.yaml").read_text(encoding="utf-8")
                    + "triggers:\n  - repeat: true\n    do:\n      - add: {score: 1}\n", encoding="utf-8")
    with pytest.raises(RulesetError, match="a trigger that repeats needs a 'when' or a 'for'") as caught:
        load_ruleset(path)
    assert caught.value.pos is not None and caught.value.pos.line == len(path.read_text().splitlines()) - 2


def test_the_native_backend_repeats_as_the_python_one_does() -> None:
    rules = load_ruleset(AUTOPLAY)
    backend = native.native_backend(rules)
    for seed in range(30):
        rng = random.Random(seed)
        native.compare(backend, rules.new_game(seed=seed, max_moves=300), rng.choice)
