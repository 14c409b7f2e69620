"""A move's effects and triggers, and the end conditions, written out as one generated function each
(python/applygen.py), do exactly what the closures they are written from do (`engine.WRITTEN_OUT` off).
Written out, a move of a ruleset played seat by seat takes `Game.apply`'s short way
(`Game._apply_written`), so these tests hold that way against the long one too.

Random play of every bundled ruleset, in two games side by side, compares after every move
everything a move can change: piles, faces, variables, turn, end, the undo journal, the record and
the legal moves. Rulesets whose effects fail in each way an effect can fail report the same error,
at the same place, and leave the game as it was.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from cardrules import CardrulesError, load_ruleset
from cardrules.python import engine
from cardrules.base.resources import rulesets_dir

BUNDLED = sorted(p.stem for p in rulesets_dir().glob("*.yaml"))
# A trigger that repeats (`repeat`) and runs at the start too (`at_start`).
AUTOPLAY = str(Path(__file__).parent / "fixtures" / "triggers" / "autoplay.yaml")
# Moves that name a value (`choose`), bound in their conditions and effects.
CALLS = str(Path(__file__).parent / "fixtures" / "choose" / "calls.yaml")
# A variable each team shares (`per_team`), changed for the whole team.
PARTNERS = str(Path(__file__).parent / "fixtures" / "teams" / "partners.yaml")
GAMES = 100
MOVES = 60


def _position(game: Any) -> tuple[Any, ...]:
    S = game.state
    return (tuple(tuple(p) for p in S.piles), bytes(S.up), tuple(S.vars), S.current, S.phase, S.frames, S.over,
            S.outcome, S.reason, S.winners, tuple(S.journal), tuple(S.marks), tuple(m.text() for m in game.history),
            tuple(m.text() for m in game.legal_moves()))


def _apply(game: Any, move: Any, written_out: bool) -> None:
    saved = engine.WRITTEN_OUT
    engine.WRITTEN_OUT = written_out
    try:
        game.apply(move)
    finally:
        engine.WRITTEN_OUT = saved


@pytest.mark.parametrize("name", BUNDLED + [AUTOPLAY, CALLS, PARTNERS], ids=lambda n: Path(n).stem)
def test_the_written_out_moves_play_as_the_closures_do(name: str) -> None:
    rules = load_ruleset(name)
    written = sum(t.apply is not None for t in rules.moves)
    for seed in range(GAMES):
        fast, slow = rules.new_game(seed=seed), rules.new_game(seed=seed)
        rng = random.Random(seed)
        for _ in range(MOVES):
            assert _position(fast) == _position(slow)
            legal = fast.legal_moves()
            if fast.is_over or not legal:
                break
            index = rng.randrange(len(legal))
            _apply(fast, legal[index], True)
            _apply(slow, slow.legal_moves()[index], False)
        assert _position(fast) == _position(slow)
        assert fast.scores() == slow.scores()
    if Path(name).stem.startswith(("klondike", "cascades", "autoplay", "calls", "partners")):  # these are written out whole (the others only in part)
        assert written == len(rules.moves) and rules.end_check is not None


RULESET = """\
ruleset: failing
deck: standard-52
variables:
  n: {initial: 0}
  text: {initial: "'a'"}
zones:
  stock: {}
  waste: {}
  empty: {count: 2}
setup:
  - take_deck: stock
moves:
  draw:
    from: stock
    to: waste
    do:
DO
TRIGGERS
END
"""

# (name, the effects of `draw` (after `do:`), triggers, end conditions): each fails on the first draw.
FAILING = [
    ("add reads the top of an empty pile", "      - move\n      - add: {n: \"top(empty[0]).rank\"}", "", ""),
    ("add to a text", "      - move\n      - add: {text: 1}", "", ""),
    ("a sum past 64 bits", "      - move\n      - add: {n: 9223372036854775807}\n      - add: {n: 1}", "", ""),
    ("set a value past 64 bits", "      - move\n      - set: {n: \"9223372036854775807 + size(waste)\"}", "", ""),
    ("set divides by zero", "      - set: {n: \"10 / size(empty[1])\"}\n      - move", "", ""),
    ("an if test fails", "      - move\n      - if: \"top(empty[0]).rank > 1\"\n        then:\n          - add: {n: 1}", "",
     ""),
    ("a for loop's items fail", ("      - move\n      - for: c in [top(waste), top(empty[1])]\n        do:\n"
                                 "          - add: {n: \"c.rank\"}"), "", ""),
    ("a move's count fails", "      - move: {from: stock, to: waste, count: \"10 / size(empty[0])\"}", "", ""),
    ("turn_up of a card out of range", "      - move\n      - turn_up: \"cards(empty[0])[3]\"", "", ""),
    ("a trigger's for and when fail", "      - move",
     "triggers:\n  - for: p in empty\n    when: \"top(p).rank > 0\"\n    do:\n      - add: {n: 1}", ""),
    ("a trigger's body fails", "      - move",
     "triggers:\n  - for: p in [waste]\n    do:\n      - add: {n: \"10 / size(empty[0])\"}", ""),
    ("a trigger's when fails", "      - move", ("triggers:\n  - when: \"top(empty[1]).rank > 0\"\n    do:\n"
                                               "      - end: {result: won}"), ""),
    ("a repeat trigger never stops applying", "      - move",
     "triggers:\n  - repeat: true\n    when: \"size(waste) > 0\"\n    do:\n      - add: {n: 1}", ""),
    ("a repeat trigger's items fail on a later pass", "      - move",
     ("triggers:\n  - repeat: true\n    for: p in [waste]\n    when: \"n < 2 or top(empty[0]).rank > 0\"\n"
      "    do:\n      - add: {n: 1}"), ""),
    ("an end condition fails", "      - move", "", ("end:\n  when:\n    - if: \"size(waste) > 5\"\n      result: won\n"
                                                   "    - if: \"size(waste) > 0 and top(empty[0]).rank > 0\"\n"
                                                   "      result: lost")),
]


def _failing(tmp_path: Path, effects: str, triggers: str, end: str) -> Path:
    path = tmp_path / "failing.yaml"
    text = RULESET.replace("DO\n", effects + "\n").replace("TRIGGERS\n", triggers + "\n" if triggers else "")
    path.write_text(text.replace("END\n", end + "\n" if end else ""), encoding="utf-8")
    return path


def _failure(path: Path, written_out: bool) -> tuple[Any, ...]:
    saved = engine.WRITTEN_OUT
    engine.WRITTEN_OUT = written_out
    try:
        game = load_ruleset(path).new_game(seed=1)
        before = _position(game)
        try:
            game.apply(game.legal_moves()[0])
        except CardrulesError as exc:
            error = exc
        else:
            raise AssertionError("the move did not fail")
        assert _position(game) == before  # a move applies whole or not at all
        return type(error), str(error), error.pos
    finally:
        engine.WRITTEN_OUT = saved


@pytest.mark.parametrize("case", FAILING, ids=[case[0] for case in FAILING])
def test_a_written_out_effect_fails_as_its_closure_does(tmp_path: Path, case: tuple[str, str, str, str]) -> None:
    _, effects, triggers, end = case
    path = _failing(tmp_path, effects, triggers, end)
    rules = load_ruleset(path)
    assert rules.moves[0].apply is not None and rules.end_check is not None  # the case runs written out
    fast, slow = _failure(path, True), _failure(path, False)
    assert fast == slow
    assert fast[2] is not None and fast[2].line > 1  # at the expression (or effect) that failed
