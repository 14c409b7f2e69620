"""`play --autoplay`: the moves a ruleset calls safe (`safe:`) are played for the human, decided
on the seat's view, and `undo` takes them back together with the move that led to them."""

from __future__ import annotations

import io
import random

from cardrules import load_ruleset
from cardrules.agents.bots import safe_move, view_key
from cardrules.app.play import Session
from rich.console import Console


def session(game, script: str, autoplay: bool = True) -> tuple[Session, str]:
    out = io.StringIO()
    s = Session(game, {0: None}, Console(file=out, width=120), False, input=io.StringIO(script), autoplay=autoplay)
    s.run()
    return s, out.getvalue()


def test_autoplay_plays_the_aces_before_the_first_move() -> None:
    # Klondike seed 2 deals A♥ on column 2 and A♣ on column 7.
    game = load_ruleset("klondike").new_game(seed=2)
    s, out = session(game, "quit\n")
    assert [m.text() for m in game.history] == ["t2>f1", "t7>f2"]
    assert s.undos.auto == {0, 1} and "1. t2>f1  A♥ (auto)" in out


def test_without_autoplay_nothing_is_played_for_the_player() -> None:
    game = load_ruleset("klondike").new_game(seed=2)
    session(game, "quit\n", autoplay=False)
    assert game.history == []


def test_undo_takes_back_the_move_and_what_autoplay_made_after_it() -> None:
    game = load_ruleset("klondike").new_game(seed=2)
    s, _ = session(game, "draw\nundo\n")  # the draw turns A♠ up, which autoplay plays
    assert [m.text() for m in game.history] == ["t2>f1", "t7>f2"]
    assert s.undos.auto == {0, 1}


def test_redo_plays_them_again_and_a_second_undo_takes_them_together() -> None:
    game = load_ruleset("klondike").new_game(seed=2)
    s, _ = session(game, "draw\nundo\nredo\n")
    assert [m.text() for m in game.history] == ["t2>f1", "t7>f2", "draw", "w>f3"]
    assert s.undos.auto == {0, 1, 3}
    game2 = load_ruleset("klondike").new_game(seed=2)
    s2, _ = session(game2, "draw\nundo\nredo\nundo\n")
    assert len(game2.history) == 2 and s2.undos.auto == {0, 1}


def test_autoplay_plays_only_moves_the_ruleset_calls_safe() -> None:
    # Klondike's safe: never a waste card when drawing three (it changes what later turns bring up).
    rules = load_ruleset("klondike", {"draw": 3})
    rng = random.Random(1)
    played = offered = 0
    for seed in range(1, 30):
        game = rules.new_game(seed=seed)
        for _ in range(60):
            if game.is_over:
                break
            move = safe_move(game)
            if move is not None:
                assert game.is_safe(move) and move.text().split(">")[0] != "w"
                played += 1
            offered += any(m.text().startswith("w>f") for m in game.legal_moves())
            game.apply(rng.choice(game.legal_moves()))
    assert played > 10 and offered > 0


def test_autoplay_decides_on_what_the_seat_sees() -> None:
    # Two deals that differ only in face-down cards give the same autoplay move.
    rules = load_ruleset("klondike")
    for seed in (2, 5, 9):
        game = rules.new_game(seed=seed)
        tableau = rules.zones["tableau"].piles
        hidden = [c for p in tableau for c in game.state.piles[p] if not game.visible(c, p, 0)]
        a, b = rules.deck.codes[hidden[0]], rules.deck.codes[hidden[-1]]
        other = rules.new_game(deal=[b if c == a else a if c == b else c for c in game.deal_order])
        assert view_key(other, 0) == view_key(game, 0)
        first, second = safe_move(game), safe_move(other)
        assert (first is None) == (second is None) and (first is None or first.key() == second.key())


def test_autoplay_does_nothing_where_no_move_is_called_safe() -> None:
    game = load_ruleset("ten-bucks").new_game(seed=3, players=2)
    assert not any(t.safe for t in game.rules.moves)
    assert safe_move(game) is None
