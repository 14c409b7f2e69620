"""Every legal move has its own text, which reads back to it (docs/language.md, "Move text").

Over every bundled ruleset, example and fixture that plays: seeded random games, and at every
position the texts of the legal moves (of every seat, in a game where all play at once) are
distinct and `parse_move` reads each, short and long, back to its own move; `explain` finds it
legal. Then the case that was ambiguous: a `take: any` move from one pile to one pile, whose text
was its bare name whichever card it picked.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from cardrules import IllegalMoveError, load_ruleset

ROOT = Path(__file__).resolve().parent.parent
BUNDLED = sorted(p.stem for p in (ROOT / "rulesets").glob("*.yaml"))
EXAMPLES = sorted(str(p) for p in (ROOT / "examples").glob("*.yaml"))
FIXTURES = sorted(str(p) for p in (ROOT / "tests" / "fixtures").rglob("*.yaml")
                  if "broken" not in p.parts and re.search(r"^ruleset:", p.read_text(), re.MULTILINE))


def _check_position(game: Any, seat: int | None) -> None:
    moves = game.legal_moves(seat)
    short = [move.text() for move in moves]
    long = [move.text(long=True) for move in moves]
    assert len(set(short)) == len(short), f"two legal moves share a text: {sorted(short)}"
    assert len({t.lower() for t in long}) == len(long), f"two legal moves share a long text: {sorted(long)}"
    for move, text, long_text in zip(moves, short, long):
        assert game.parse_move(text, seat) is move
        assert game.parse_move(long_text.upper(), seat) is move


@pytest.mark.parametrize("name", BUNDLED + EXAMPLES + FIXTURES, ids=lambda n: Path(n).stem)
def test_legal_move_texts_are_distinct_and_read_back_to_their_moves(name: str) -> None:
    rules = load_ruleset(name)
    players = max(rules.min_players, min(rules.max_players, 3))
    explained = 0
    for seed in range(2):
        game = rules.new_game(seed=seed, players=players, max_moves=60)
        rng = random.Random(seed)
        while not game.is_over:
            for seat in range(game.players) if rules.simultaneous else [None]:
                _check_position(game, seat)
            moves = game.legal_moves()
            move = rng.choice(moves)
            if explained < 3:  # explain reads texts as parse_move does (a few: it is slower)
                assert game.explain(move.text()).legal
                explained += 1
            game.apply(move)


# A one-seat game whose `play` takes any card of one hand to one discard pile (`pair`: two cards).
ONE_PILE = """\
ruleset: one-pile
title: One pile
description: take any from one pile to one pile
players: {min: 1, max: 1, default: 1}
deck: {name: standard-52, where: "card.rank <= 1"}
zones:
  stock: {visibility: none, hide_empty: true}
  hand: {short: h, visibility: all, show: row}
  discard: {short: d, show: stack}
setup:
  - take_deck: stock
  - deal: {from: stock, to: hand, counts: 4, face: up}
moves:
  play:
    from: hand
    take: any
    to: discard
  pair:
    from: hand
    take: {any: 2}
    to: discard
    when: "size(hand) == 4"
end:
  when:
    - if: "empty(hand)"
      result: won
      reason: the hand is empty
"""


def _one_pile_to_one_pile(tmp_path: Path, text: str = ONE_PILE) -> Any:
    path = tmp_path / "one-pile.yaml"
    path.write_text(text, encoding="utf-8")
    return load_ruleset(path)


def test_a_take_any_move_from_one_pile_to_one_pile_names_its_card(tmp_path: Path) -> None:
    rules = _one_pile_to_one_pile(tmp_path)
    game = rules.new_game(seed=1)
    codes = rules.deck.codes
    hand = list(game.state.piles[rules.zones["hand"].piles[0]])
    plays = [m for m in game.legal_moves() if m.name == "play"]
    assert sorted(m.pick for m in plays) == sorted(hand) and len(plays) == 4
    assert sorted(str(m) for m in plays) == sorted(f"play:{codes[c]}" for c in hand)  # 4 picks, 4 texts
    pairs = [m for m in game.legal_moves() if m.name == "pair"]
    assert len(pairs) == 6 and len({str(m) for m in pairs}) == 6
    assert all(str(m) == "pair:" + ",".join(codes[c] for c in m.pick) for m in pairs)
    for move in plays + pairs:
        assert game.parse_move(str(move)) is move and game.parse_move(str(move).lower()) is move
        assert game.explain(str(move)).legal
        assert game.action_move(game.action(move)) is move  # the agents' numbers name the same moves
    assert len({game.action(m) for m in plays + pairs}) == 10
    chosen = plays[2]
    game.apply(game.parse_move(f"PLAY:{codes[chosen.pick]}"))
    assert game.history == [chosen] and game.record(0) == [f"play:{codes[chosen.pick]}"]
    assert game.state.piles[rules.zones["discard"].piles[0]] == [chosen.pick]
    with pytest.raises(IllegalMoveError):
        game.parse_move("play")  # the bare name names no one move
    wrong = game.explain(f"play:{codes[chosen.pick]}")  # that card has gone: not in the hand
    assert not wrong.legal and codes[chosen.pick].lower() in str(wrong).lower()


def test_the_bare_name_of_such_a_move_is_explained(tmp_path: Path) -> None:
    game = _one_pile_to_one_pile(tmp_path).new_game(seed=1)
    answer = game.explain("play")
    assert not answer.legal and answer.problem is not None
    assert answer.problem.startswith("play names the card it takes, as in play:")
    assert game.explain("pair").problem.startswith("pair names the cards it takes")


def test_in_a_simultaneous_game_such_a_move_names_its_seat_then_its_card(tmp_path: Path) -> None:
    rules = _one_pile_to_one_pile(tmp_path, ONE_PILE.replace(
        "players: {min: 1, max: 1, default: 1}", "players: {min: 2, max: 2, default: 2}\nturns: {order: simultaneous}"))
    game = rules.new_game(seed=4)
    codes = rules.deck.codes
    for seat in range(2):
        plays = [m for m in game.legal_moves(seat) if m.name == "play"]
        assert sorted(str(m) for m in plays) == sorted(f"play@{seat + 1}:{codes[m.pick]}" for m in plays)
        assert len(plays) == 4
        for move in plays:
            assert game.parse_move(str(move), seat) is move
            assert game.parse_move(f"play:{codes[move.pick]}", seat) is move  # its own seat may be left out
            assert game.explain(str(move), seat).legal


# Templates written as their bare name (one source pile, one destination) whose moves differ in
# what they take: the cards of a run, the piles of a `select` (once all printed `gather`, `pay`).
NAMED_PARTS = """\
ruleset: named-parts
players: 1
deck: standard-52
zones:
  stock: {short: s}
  waste: {short: w}
  row: {short: r, count: 3}
  pile: {short: p}
setup:
  - take_deck: stock
  - deal: {from: stock, to: row, counts: 1, face: up}
  - deal: {from: stock, to: waste, counts: 3, face: up}
moves:
  pay:
    from: stock
    to: pile
    select: {from: row, take: top, max: 2}
    do: [move, {move_chosen: {}}]
  gather: {from: waste, take: run, to: pile}
"""


def test_a_move_named_by_its_template_alone_still_names_its_run_and_its_selection(tmp_path: Path) -> None:
    game = _one_pile_to_one_pile(tmp_path, NAMED_PARTS).new_game(seed=1)
    texts = sorted(str(m) for m in game.legal_moves())
    assert texts == sorted(["gather", "gatherx2", "gatherx3", "pay+r1", "pay+r2", "pay+r3", "pay+r1+r2", "pay+r1+r3",
                            "pay+r2+r3"]), texts
    _check_position(game, None)
    game.apply(game.parse_move("PAY+R1+R3"))
    assert [len(pile) for pile in game.state.piles] == [45, 3, 0, 1, 0, 3]  # r1 and r3 gone with the stock card


def test_the_cards_of_a_several_card_pick_may_be_named_in_any_order() -> None:
    from cardrules import load_ruleset

    game = load_ruleset("hearts").new_game(seed=1)
    move = game.legal_moves()[0]  # three cards passed: h@1:JS,3C,TH>p@1
    head, rest = str(move).split(":")
    cards, destination = rest.split(">")
    for order in ([2, 1, 0], [1, 0, 2]):
        named = cards.split(",")
        text = f"{head}:{','.join(named[i] for i in order)}>{destination}"
        assert text != str(move) and game.parse_move(text) == move
    other = [str(m) for m in game.legal_moves() if m != move][0]
    assert game.parse_move(other) != move
