"""Per-player zones and per-seat views: each seat sees its own hand, and of the others only what is revealed."""

from __future__ import annotations

import json
import random

import pytest
from typer.testing import CliRunner

from cardrules import RulesetError, load_ruleset
from cardrules.app.cli import app
from conftest import ROOT

SWAP = ROOT / "tests" / "fixtures" / "swap.yaml"


def test_every_seat_has_its_own_pile_named_with_its_seat() -> None:
    rules = load_ruleset(SWAP)
    assert rules.pile_names == ("stock", "h@1", "h@2", "h@3", "h@4", "x")
    assert rules.pile_owner == (-1, 0, 1, 2, 3, -1)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_deal_goes_to_the_seats_in_the_game_only(players: int) -> None:
    game = load_ruleset(SWAP).new_game(seed=1, players=players)
    hands = game.rules.zones["hand"].seat_piles
    assert hands is not None
    assert [len(game.state.piles[h[0]]) for h in hands] == [3] * players + [0] * (4 - players)
    assert len(game.view(0)["zones"]["hand"]) == players


def test_moves_come_from_the_acting_seats_own_pile() -> None:
    game = load_ruleset(SWAP).new_game(seed=1, players=3)
    for seat in (0, 1, 2, 0):
        assert game.current_player == seat
        assert {str(m) for m in game.legal_moves()} == {f"h@{seat + 1}>x", f"reveal:h@{seat + 1}"}
        game.apply(game.parse_move(f"h@{seat + 1}>x"))


def test_a_seat_sees_its_own_hand_and_only_revealed_cards_of_the_others() -> None:
    game = load_ruleset(SWAP).new_game(seed=1, players=2)
    codes = game.rules.deck.codes
    mine, theirs = (list(game.state.piles[h[0]]) for h in game.rules.zones["hand"].seat_piles[:2])
    assert game.view(0)["zones"]["hand"] == [[codes[c] for c in mine], [None, None, None]]
    game.apply(game.parse_move("reveal:h@1"))  # seat 1 turns its top card up
    assert game.view(1)["zones"]["hand"][0] == [None, None, codes[mine[-1]]]
    assert game.view(1)["zones"]["hand"][1] == [codes[c] for c in theirs]
    assert game.view(0)["zones"]["stock"] == [None] * 46  # visibility none: only the count


def test_of_and_owner_name_any_seats_piles() -> None:
    rules = load_ruleset(SWAP)
    game = rules.new_game(seed=2, players=2)
    while not game.is_over:
        game.apply(game.legal_moves()[0])
    assert game.outcome == "over" and game.reason == "the first two hands are empty"


def test_of_takes_a_per_player_zone(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "bad.yaml"
    path.write_text(SWAP.read_text().replace("of(hand, p)", "of(table, p)"))
    with pytest.raises(RulesetError, match="of\\(ZONE, seat\\) takes a per-player zone") as caught:
        load_ruleset(path)
    assert caught.value.pos is not None and (caught.value.pos.source_line() or "").find("of(table") >= 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_no_view_ever_shows_a_card_its_seat_may_not_see(players: int) -> None:
    rules = load_ruleset(SWAP)
    codes = rules.deck.codes
    hands = rules.zones["hand"].seat_piles
    for seed in range(60):
        game = rules.new_game(seed=seed, players=players)
        rng = random.Random(seed)
        while not game.is_over:
            for seat in range(players):
                view = game.view(seat)["zones"]
                for owner in range(players):
                    pile = game.state.piles[hands[owner][0]]
                    expected = [codes[c] if owner == seat or game.state.up[c] else None for c in pile]
                    assert view["hand"][owner] == expected
                assert view["table"] == [codes[c] for c in game.state.piles[rules.zones["table"].piles[0]]]
                assert set(view["stock"]) <= {None}
            game.apply(rng.choice(game.legal_moves()))


def test_all_bot_play_with_several_seats_reports_every_score() -> None:
    result = CliRunner().invoke(app, ["play", str(SWAP), "--players", "3", "--seed", "4", "--seat", "1=random",
                                      "--seat", "2=greedy", "--seat", "3=random", "--json"])
    assert result.exit_code == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["players"] == 3 and len(summary["scores"]) == 3
    assert summary["seats"] == {"1": "random", "2": "greedy", "3": "random"}


HAND = """\
ruleset: hand
players: {min: 2, max: 3}
deck: dollar-bills
zones:
  bank: {visibility: none}
  hand: {per_player: true, short: h, visibility: owner, show: row}
  table: {short: x, visibility: all}
setup:
  - take_deck: bank
  - deal: {from: bank, to: hand, counts: 5}
moves:
  play:
    help: Any bill from your hand onto the table.
    from: hand
    take: any
    to: table
    when: "card.value != 100"
"""


def _hand_game(tmp_path, seed: int = 3):  # type: ignore[no-untyped-def]
    path = tmp_path / "hand.yaml"
    path.write_text(HAND)
    return load_ruleset(path).new_game(seed=seed)


def test_take_any_offers_each_different_card_of_the_hand_once(tmp_path) -> None:  # type: ignore[no-untyped-def]
    game = _hand_game(tmp_path)
    codes = game.rules.deck.codes
    hand = game.state.piles[game.rules.zones["hand"].seat_piles[0][0]]
    wanted = {f"h@1:{codes[c]}>x" for c in hand if codes[c] != "$100"}
    assert {str(m) for m in game.legal_moves()} == wanted
    assert len(wanted) < 5 or len({codes[c] for c in hand}) == 5  # equal bills make one move


def test_take_any_moves_that_card_and_keeps_the_others_in_order(tmp_path) -> None:  # type: ignore[no-untyped-def]
    game = _hand_game(tmp_path)
    hand_pile = game.rules.zones["hand"].seat_piles[0][0]
    before = list(game.state.piles[hand_pile])
    move = game.legal_moves()[-1]
    chosen = move.pick
    game.apply(move)
    assert game.state.piles[hand_pile] == [c for c in before if c != chosen]
    assert game.state.piles[game.rules.zones["table"].piles[0]] == [chosen]
    text = str(move)
    game.apply(game.legal_moves()[0])  # seat 2 plays; the first move's text does not change
    assert str(game.history[0]) == text
    game.undo()
    game.undo()
    assert game.state.piles[hand_pile] == before
