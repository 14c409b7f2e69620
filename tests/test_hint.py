"""The `hint` command (`bots.suggest_move`): a short search on the seat's own view that never
leads back to a position the game has been in while another move would not, and whose text
types back as the move."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from cardrules import load_ruleset
from cardrules.agents.bots import seen_views, suggest_move, view_key
from cardrules.app.cli import app
from conftest import RULESETS
from typer.testing import CliRunner

# Two ways to take from the stock: onto `a` (nothing) or `b`; a card on `b` that is a King wins,
# any other card on `b` loses. Every card is seen. `score` never moves, so only the search's look at the ends tells.
ENDS = """\
ruleset: ends
deck: standard-52
zones:
  stock: {short: s, visibility: all}
  a: {short: a, visibility: all}
  b: {short: b, visibility: all}
setup:
  - take_deck: stock
moves:
  to_a:
    from: stock
    to: a
  to_b:
    from: stock
    to: b
end:
  when:
    - if: "not empty(b) and top(b).rank == 13"
      result: won
    - if: "not empty(b)"
      result: lost
score: "0"
"""


def ends_game(tmp_path: Path, top: list[str]):
    """The ENDS game dealt with `top` as the top cards of the stock (the first one on top)."""
    path = tmp_path / "ends.yaml"
    path.write_text(ENDS, encoding="utf-8")
    rules = load_ruleset(str(path))
    codes = list(rules.deck.codes)
    rest = [c for c in codes if c not in top]
    return rules.new_game(deal=top + rest)


def test_hint_takes_a_move_that_wins_at_once(tmp_path: Path) -> None:
    game = ends_game(tmp_path, ["KS"])
    assert suggest_move(game).text() == "to_b"


def test_hint_avoids_a_move_that_loses_at_once(tmp_path: Path) -> None:
    game = ends_game(tmp_path, ["5S", "KS"])
    assert suggest_move(game).text() == "to_a"


def test_hint_looks_a_move_ahead_to_a_win(tmp_path: Path) -> None:
    # The 5 must go to `a` first to bring the King up: greedy, one move deep, sees no difference.
    game = ends_game(tmp_path, ["5S", "KS"])
    game.apply(game.parse_move(suggest_move(game).text()))
    assert suggest_move(game).text() == "to_b" and game.legal_moves()


def test_following_the_hint_in_klondike_never_returns_to_a_position() -> None:
    # Klondike seed 11: the greedy hint of old shuttled a run, t7x2>t6 then t6x2>t7, 40 times.
    game = load_ruleset("klondike").new_game(seed=11)
    seen = {view_key(game, 0)}
    for _ in range(80):
        if game.is_over:
            break
        game.apply(suggest_move(game))
        key = view_key(game, 0)
        assert key not in seen, game.record(0)[-4:]
        seen.add(key)
    assert len(game.history) >= 40


def test_hint_never_suggests_undoing_the_last_move_while_another_move_exists() -> None:
    rules = load_ruleset("klondike")
    rng = random.Random(4)
    checked = 0
    for seed in range(1, 13):
        game = rules.new_game(seed=seed)
        for _ in range(rng.randrange(5, 30)):
            if game.is_over:
                break
            game.apply(rng.choice(game.legal_moves()))
        if game.is_over or not game.history:
            continue
        before = game.clone()
        before.undo()
        back = view_key(before, 0)
        hint = suggest_move(game)
        others = [m for m in game.legal_moves() if _after(game, m) != back]
        if others:
            assert _after(game, hint) != back
            checked += 1
    assert checked >= 8


def _after(game, move):
    trial = game.clone()
    trial.apply(move)
    return view_key(trial, 0)


def test_seen_views_hold_the_start_and_every_position_since() -> None:
    game = load_ruleset("klondike").new_game(seed=3)
    keys = [view_key(game, 0)]
    for _ in range(6):
        game.apply(game.legal_moves()[0])
        keys.append(view_key(game, 0))
    assert seen_views(game, 0) == set(keys)


def test_hint_depends_only_on_what_the_seat_sees() -> None:
    # Two Klondike deals that differ only in two face-down tableau cards look the same to the
    # player, so they get the same hint, whichever cards lie face down.
    rules = load_ruleset("klondike")
    game = rules.new_game(seed=8)
    tableau = rules.zones["tableau"].piles
    hidden = [c for p in tableau for c in game.state.piles[p] if not game.visible(c, p, 0)]
    order = game.deal_order
    a, b = rules.deck.codes[hidden[0]], rules.deck.codes[hidden[-1]]
    swapped = [b if c == a else a if c == b else c for c in order]
    other = rules.new_game(deal=swapped)
    assert view_key(other, 0) == view_key(game, 0)
    assert rules.new_game(deal=order).state.piles != other.state.piles
    assert suggest_move(rules.new_game(deal=order)).key() == suggest_move(other).key()


@pytest.mark.parametrize("path", sorted(RULESETS.glob("*.yaml")), ids=lambda p: p.stem)
def test_hint_text_parses_back_as_the_move(path: Path) -> None:
    rules = load_ruleset(path)
    rng = random.Random(7)
    game = rules.new_game(seed=5)
    for _ in range(6):
        if game.is_over:
            break
        hint = suggest_move(game, budget=200, worlds=1)
        assert game.parse_move(hint.text()) == hint
        game.apply(rng.choice(game.legal_moves()))


def test_the_hint_command_prints_a_text_that_can_be_typed_back() -> None:
    result = CliRunner().invoke(app, ["play", "klondike", "--seed", "11", "--json"], input="hint\nquit\n",
                                env={"COLUMNS": "200"})
    line = next(line for line in result.output.splitlines() if line.startswith("hint: "))
    text = line.split()[1]
    game = load_ruleset("klondike").new_game(seed=11)
    hint = suggest_move(game)
    assert game.parse_move(text) == hint
    assert line.rstrip().endswith(f"{game.rules.moves[hint.template].name.replace('_', ' ')})")
