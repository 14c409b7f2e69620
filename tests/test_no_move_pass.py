"""`turns.no_move: pass` (docs/language.md, "A seat with no move"): a seat to act with no legal move
is offered `pass` alone, which hands the turn on and shows in the record; the game ends (as
`end.no_moves` says) only when no seat can move. tests/fixtures/turns/shed.yaml: a shedding game
with no drawing."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from cardrules import RulesetError, load_ruleset

from helpers import play_both_backends, replaced

SHED = Path(__file__).parent / "fixtures" / "turns" / "shed.yaml"


def playable(game, seat: int) -> bool:  # type: ignore[no-untyped-def]
    """Has `seat` a card of the top card's suit or rank (the rule of `play`)?"""
    rules, S = game.rules, game.state
    top = rules.deck.cards[S.piles[rules.zones["pile"].piles[0]][-1]]
    hand = rules.zones["hand"].seat_piles[seat][0]
    return any(rules.deck.cards[c]["suit"] == top["suit"] or rules.deck.cards[c]["rank"] == top["rank"]
               for c in S.piles[hand])


def games(players: int, seeds: range):  # type: ignore[no-untyped-def]
    rules = load_ruleset(SHED)
    for seed in seeds:
        game = rules.new_game(seed=seed, players=players)
        rng = random.Random(seed)
        positions = []
        while not game.is_over:
            moves = game.legal_moves()
            positions.append((game.current_player, [m.text() for m in moves],
                              [playable(game, s) for s in range(players)]))
            game.apply(rng.choice(moves))
        yield game, positions


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_seat_that_cannot_play_passes_while_another_can_and_the_game_ends_when_none_can(players: int) -> None:
    passes = 0
    for game, positions in games(players, range(1, 31)):
        for i, (seat, texts, can) in enumerate(positions):
            if can[seat]:
                assert "pass" not in texts and texts  # a seat that can play is never offered pass
            else:
                assert texts == ["pass"] and any(can)  # offered alone, and only while another seat can play
                assert game.history[i].text() == "pass"
                after = positions[i + 1][0] if i + 1 < len(positions) else None
                assert after in (None, (seat + 1) % players)  # the turn goes to the next seat
                passes += 1
        if game.reason == "nobody can play":
            assert not any(playable(game, s) for s in range(players))
        else:
            assert game.reason == "a hand is empty"
    assert passes > 20


def test_without_it_a_seat_with_no_move_ends_the_game_as_before(tmp_path: Path) -> None:
    rules = load_ruleset(replaced(tmp_path, SHED.read_text(), "turns: {order: rotation, no_move: pass}",
                                  "turns: {order: rotation}"))
    ended_early = 0
    for seed in range(1, 31):
        game = rules.new_game(seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            game.apply(rng.choice(game.legal_moves()))
        assert all(m.text() != "pass" for m in game.history)
        if game.reason == "nobody can play":
            ended_early += any(playable(game, s) for s in range(game.players))
    assert ended_early > 0  # the first stuck seat ended games another seat could have gone on with


def test_both_backends_pass_alike() -> None:
    rules = load_ruleset(SHED)
    for players in (2, 3, 4):
        played = play_both_backends(rules, range(1, 11), [players])
        assert sum(m.text() == "pass" for game in played for m in game.history) > 0


def test_pass_has_an_action_number_and_bots_take_it() -> None:
    from cardrules.agents.bots import make_bot

    rules = load_ruleset(SHED)
    game = rules.new_game(seed=3)
    game.apply(game.legal_moves()[0])
    assert [m.text() for m in game.legal_moves()] == ["pass"]
    for kind in ("random", "greedy", "mcts"):
        assert make_bot(kind, 1).choose(game).text() == "pass"
    (action,) = game.legal_actions()
    seat = game.current_player
    game.apply_action(action)
    assert game.history[-1].text() == "pass" and game.current_player == (seat + 1) % game.players


@pytest.mark.parametrize("old, new, message", [
    ("players: {min: 2, max: 4, default: 3}", "players: 1", "needs a game of more than one seat"),
    ("turns: {order: rotation, no_move: pass}", "turns: {order: simultaneous, no_move: pass}", "seats taking turns"),
    ("moves:\n  play:", "moves:\n  pass: {do: [end_turn]}\n  play:", "clashes with the 'pass'"),
    ("    do:\n      - move: {face: up}", "    out_of_turn: true\n    do:\n      - move: {face: up}", "both offer 'pass'"),
])
def test_pass_where_it_cannot_mean_anything_is_refused_at_its_place(tmp_path: Path, old: str, new: str,
                                                                     message: str) -> None:
    with pytest.raises(RulesetError, match=message) as caught:
        load_ruleset(replaced(tmp_path, SHED.read_text(), old, new))
    assert caught.value.pos is not None


def test_explain_and_the_rules_in_words_say_when_a_seat_passes() -> None:
    from cardrules.workbench.describe import describe

    game = load_ruleset(SHED).new_game(seed=1)
    why = game.explain("pass")
    assert not why.legal and "may pass only when it has no other move (and another seat has one)" in str(why)
    paras = [block.text for block in describe(SHED).blocks if block.kind == "para"]
    assert ('A seat with no legal move passes (its only move, "pass"): the turn goes to the next seat. When no seat '
            'can move, the game ends (below).') in paras
