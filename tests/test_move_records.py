"""A move's record shows what the seats saw when it was made (docs/language.md, "Move texts",
"Cards known to one seat").

Which seats a move's text names a card to is decided right after the move's own effects, before
the triggers that follow it; a card every seat saw stays known to every seat when a trigger (or a
move) takes it out of their sight.

tests/fixtures/hidden/tricks.yaml: a trick is played face up and gathered face down by a trigger
right after the card that completes it. tests/fixtures/hidden/pass-singly.yaml: three cards passed
one at a time face down, handed on together by a trigger after the third. Their options turn
cards face down where they lie (`turn_down`), which every seat saw and goes on knowing.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardrules import load_ruleset
from cardrules.python import engine
from cardrules import native
from cardrules.python.state import EVERY_SEAT
from cardrules.native import native_backend

from helpers import FIXTURES, pile_ids

TRICKS = FIXTURES / "hidden" / "tricks.yaml"
PASS_SINGLY = FIXTURES / "hidden" / "pass-singly.yaml"


@pytest.fixture(params=[True, False], ids=["generated", "closures"])
def written_out(request: Any, monkeypatch: pytest.MonkeyPatch) -> bool:
    """Both ways of applying a move: the generated apply functions and the closures."""
    monkeypatch.setattr(engine, "WRITTEN_OUT", request.param)
    return bool(request.param)


def _won(game: Any) -> list[int]:
    return [card for seat in range(game.players) for card in pile_ids(game, "won", seat)]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_card_that_completes_a_trick_is_named_to_every_seat(written_out: bool, players: int) -> None:
    rules = load_ruleset(TRICKS)
    gathered = 0
    for seed in range(4):
        game = rules.new_game(seed=seed, players=players)
        rng = random.Random(seed)
        while not game.is_over:
            move = rng.choice(game.legal_moves())
            game.apply(move)
            completed = not pile_ids(game, "trick")  # the trigger gathered the trick face down
            gathered += completed
            full = str(game.history[-1])
            assert game.history[-1].pick == move.pick and full.endswith(f":{rules.deck.codes[move.pick]}>x")
            for seat in (*range(players), None):
                assert game.record(seat, len(game.history) - 1) == [full]
            if completed:
                assert not any(game.state.up[card] for card in _won(game))
        assert all(game.record(seat) == [str(m) for m in game.history] for seat in (*range(players), None))
    assert gathered == 4 * 4  # 4 games of 4 tricks


def test_a_trick_gathered_face_down_stays_known_to_every_seat(written_out: bool) -> None:
    rules = load_ruleset(TRICKS)
    game = rules.new_game(seed=3)
    rng = random.Random(3)
    for _ in range(3):  # the first trick, its last card completing it
        game.apply(rng.choice(game.legal_moves()))
    won = _won(game)
    assert len(won) == 3 and not pile_ids(game, "trick")
    assert all(game.state.known[card] == EVERY_SEAT for card in won)
    codes = [rules.deck.codes[card] for card in won]
    for seat in range(3):  # every seat saw the trick face up, and sees what it remembers
        assert [c for pile in game.view(seat)["zones"]["won"] for c in pile] == codes
        assert all(game.visible(card, pile, seat) for pile in range(rules.pile_count)
                   for card in game.state.piles[pile] if card in won)
    game.undo()  # the completing card back in its hand, the trick face up: nobody's memory needed
    assert all(game.state.known[card] == 0 for card in won) and len(pile_ids(game, "trick")) == 2


def test_a_bots_copy_keeps_the_cards_of_tricks_its_seat_saw() -> None:
    rules = load_ruleset(TRICKS)
    game = rules.new_game(seed=5)
    rng = random.Random(5)
    for _ in range(6):  # two tricks
        game.apply(rng.choice(game.legal_moves()))
    won = {seat: pile_ids(game, "won", seat) for seat in range(3)}
    assert sum(len(cards) for cards in won.values()) == 6
    moved = 0
    for seat in range(3):
        for k in range(6):
            copy = game.determinize(seat, random.Random(k))
            assert {s: pile_ids(copy, "won", s) for s in range(3)} == won  # seen: kept where they lie
            assert copy.view(seat) == game.view(seat)
            others = [s for s in range(3) if s != seat]
            moved += any(pile_ids(copy, "hand", s) != pile_ids(game, "hand", s) for s in others)
    assert moved > 0  # the hands it cannot see were dealt anew


def test_a_trick_turned_face_down_where_it_lies_then_gathered_stays_known_to_every_seat(written_out: bool) -> None:
    rules = load_ruleset(TRICKS, options={"turned": True})
    game = rules.new_game(seed=3)
    rng = random.Random(3)
    while not game.is_over:
        game.apply(rng.choice(game.legal_moves()))
        won = _won(game)
        assert all(game.state.known[card] == EVERY_SEAT for card in won)
        assert all(game.visible(card, pile, seat) for seat in range(3) for pile in range(rules.pile_count)
                   for card in game.state.piles[pile] if card in won)
    assert len(_won(game)) == 12


def test_a_card_turned_face_down_where_it_lies_stays_known_to_every_seat(written_out: bool) -> None:
    rules = load_ruleset(PASS_SINGLY, options={"covered": True})
    assert rules.moves[1].apply is not None  # `lay` and its trigger: a generated function
    game = rules.new_game(seed=4)
    rng = random.Random(4)
    while not game.is_over:
        game.apply(rng.choice(game.legal_moves()))
    table = pile_ids(game, "table")
    assert len(table) == 15 and [bool(game.state.up[c]) for c in table] == [False] * 14 + [True]
    codes = [rules.deck.codes[c] for c in table]
    assert all(game.view(seat)["zones"]["table"] == codes for seat in range(3))
    assert game.view(None)["zones"]["table"] == [None] * 14 + codes[-1:]  # a spectator: what lies in sight
    for k in range(3):  # a bot's copy keeps them where they lie
        assert pile_ids(game.determinize(k, random.Random(k)), "table") == table


def test_each_pass_is_alike_to_the_receiver_whichever_card_came_last(written_out: bool) -> None:
    rules = load_ruleset(PASS_SINGLY)
    for seed in range(6):
        game = rules.new_game(seed=seed)
        rng = random.Random(seed)
        passes: dict[int, list[int]] = {0: [], 1: [], 2: []}
        passed: dict[int, dict[int, int]] = {0: {}, 1: {}, 2: {}}  # the cards each seat passed, when
        while not game.is_over:
            move = rng.choice(game.legal_moves())
            if move.name == "pass":
                passes[game.current_player].append(len(game.history))
                passed[game.current_player][move.pick] = len(game.history)
            game.apply(move)
        for passer, indexes in passes.items():
            assert len(indexes) == 3
            receiver, third = (passer + 1) % 3, (passer + 2) % 3
            full = [str(game.history[i]) for i in indexes]
            hidden = f"h@{passer + 1}:?>p@{passer + 1}"
            assert [game.record(passer, i)[0] for i in indexes] == full and all("?" not in t for t in full)
            assert [game.record(None, i)[0] for i in indexes] == [hidden] * 3
            for seat in (receiver, third):  # the third pass as the first two: unless the seat passed
                # that card on itself before (it came round to the passer), it is `?`
                assert [game.record(seat, i)[0] for i in indexes] == [
                    text if passed[seat].get(game.history[i].pick, i) < i else hidden
                    for i, text in zip(indexes, full)]
            assert any(game.history[i].pick not in passed[receiver] for i in indexes)


def test_a_card_the_trigger_hands_on_is_seen_in_the_receivers_hand() -> None:
    rules = load_ruleset(PASS_SINGLY)
    game = rules.new_game(seed=2)
    passed = []
    for _ in range(7):  # seat 1 passes three cards (its 1st, 4th and 7th moves of the game)
        move = game.legal_moves()[0]
        if game.current_player == 0:
            passed.append(move.pick)
        game.apply(move)
    codes = [rules.deck.codes[card] for card in passed]
    hand = game.view(1)["zones"]["hand"][1]
    assert hand[-3:] == codes and len(hand) == 6  # five, two passed on, three received
    assert game.view(2)["zones"]["hand"][1] == [None] * 6
    assert game.record(1)[6] == "h@1:?>p@1" and game.record(0)[6] == f"h@1:{codes[-1]}>p@1"


@pytest.mark.parametrize(("path", "players", "option"), [
    (TRICKS, 3, {}), (TRICKS, 4, {"turned": True}), (PASS_SINGLY, 2, {"covered": True}), (PASS_SINGLY, 3, {})])
def test_the_native_backend_keeps_who_knows_which_card_as_the_python_one(path: Any, players: int,
                                                                       option: dict[str, bool]) -> None:
    # At every step: legal moves, piles, faces, who knows each card, and what every seat sees.
    rules = load_ruleset(path, options=option)
    backend = native_backend(rules)
    for seed in range(3):
        game = rules.new_game(seed=seed, players=players)
        native.compare(backend, game, random.Random(seed).choice, views=True)
        assert game.is_over
    if path == TRICKS:  # the last trick: gathered face down, known to every seat in both
        assert any(mask == EVERY_SEAT for mask in game.state.known)


def test_an_agents_information_state_tells_the_trigger_by_the_view_after_the_move() -> None:
    rules = load_ruleset(PASS_SINGLY)
    game = rules.new_game(seed=2)
    passed = []
    for _ in range(7):  # seat 1's third pass is the 7th move: the trigger hands its cards to seat 2
        move = game.legal_moves()[0]
        if game.current_player == 0:
            passed.append(rules.deck.codes[move.pick])
        game.apply(move)
    lines = game.information_state_string(1).splitlines()
    assert len(lines) == 8  # the deal, then a line per move
    passes = [lines[k] for k in (1, 4, 7)]
    assert all(line.startswith("h@1:?>p@1 ") for line in passes)
    assert not any(code in line for code in passed for line in lines[:7])  # unseen before the trigger
    assert all(code in lines[7].split(" ", 1)[1] for code in passed)  # in its hand, in the view after
