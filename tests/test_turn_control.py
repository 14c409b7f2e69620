"""Turn control: `turn_to` (who takes the next turn), `reverse` and the name `direction`, in both
backends. The game is `tests/fixtures/turns/order.yaml`: the holder of the two of clubs starts;
an Ace reverses the order of play, a Jack makes the next seat miss its turn, a King gives its
player another turn, a Queen gives the turn to the seat holding the most cards."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from cardrules import load_ruleset, native
from cardrules.base.errors import RulesetError, RulesetRuntimeError
from helpers import replaced

ORDER = Path(__file__).parent / "fixtures" / "turns" / "order.yaml"
DECK = [r + s for s in "CDHS" for r in "A23456789TJQK"]


def deal(*hands: list[str]) -> list[str]:
    """A deal giving seat i the cards hands[i] (5 each, dealt one per seat per row); the rest fill up."""
    named = {c for hand in hands for c in hand}
    spare = iter(c for c in DECK if c not in named and c != "2C")
    full = [hand + [next(spare) for _ in range(5 - len(hand))] for hand in hands]
    rows = [full[seat][row] for row in range(5) for seat in range(len(hands))]
    return rows + [c for c in DECK if c not in rows]


def game_of(*hands: list[str]) -> Any:
    return load_ruleset(ORDER).new_game(deal=deal(*hands), players=len(hands))


def play(game: Any, code: str) -> None:
    """The seat to act plays the card `code` from its hand."""
    codes = game.rules.deck.codes
    game.apply(next(m for m in game.legal_moves() if codes[m.pick] == code))


def test_turn_to_in_the_setup_gives_the_first_turn_to_the_holder_of_the_two_of_clubs() -> None:
    assert game_of(["3H"], ["4H"], ["2C"], ["5H"]).current_player == 2
    assert game_of(["3H"], ["4H"], ["6H"], ["5H"]).current_player == 0  # not dealt: seat 1 starts


def test_without_turn_to_the_turns_go_round_in_seat_order() -> None:
    game = game_of(["2C", "3H"], ["4H"], ["6H"], ["5H"])
    seen = [game.current_player]
    for code in ("3H", "4H", "6H", "5H"):
        play(game, code)
        seen.append(game.current_player)
    assert seen == [0, 1, 2, 3, 0]


def test_reverse_sends_the_turns_the_other_way_until_reversed_again() -> None:
    game = game_of(["2C", "AH"], ["4H", "AS"], ["6H"], ["5H", "7H"])
    play(game, "AH")
    assert (game.current_player, game.state.direction) == (3, -1)
    play(game, "5H")
    assert game.current_player == 2
    play(game, "6H")
    assert game.current_player == 1
    play(game, "AS")  # reversed again: up the seats
    assert (game.current_player, game.state.direction) == (2, 1)


def test_a_jack_makes_the_next_seat_in_order_miss_its_turn_whichever_way_the_turns_go() -> None:
    game = game_of(["2C", "JH"], ["4H", "AS"], ["6H"], ["5H", "JS"])
    play(game, "JH")
    assert game.current_player == 2  # seat 1 missed its turn
    play(game, "6H")
    play(game, "JS")  # seat 3, turns going up: seat 0 misses its turn
    assert game.current_player == 1
    play(game, "AS")  # now down the seats
    assert game.current_player == 0


def test_a_king_gives_its_player_another_turn() -> None:
    game = game_of(["2C", "KH"], ["4H"], ["6H"], ["5H"])
    play(game, "KH")
    assert game.current_player == 0
    play(game, "2C")
    assert game.current_player == 1  # after the extra turn, on in order


def test_a_queen_gives_the_turn_to_the_seat_holding_the_most_cards() -> None:
    game = game_of(["2C", "QH"], ["4H"], ["6H"], ["5H"])
    play(game, "QH")  # seat 0 has 4 cards left, the others 5: seat 1 is the first with the most
    assert game.current_player == 1
    play(game, "4H")
    assert game.current_player == 2


def test_undo_takes_back_the_order_of_the_turns_with_the_move() -> None:
    game = game_of(["2C", "AH"], ["4H"], ["6H"], ["5H"])
    play(game, "AH")
    game.undo()
    assert (game.current_player, game.state.direction, game.state.next_seat) == (0, 1, -1)
    clone = game.clone()
    play(clone, "AH")
    assert game.state.direction == 1 and clone.state.direction == -1


def _expected_next(game: Any, player: int, card: str) -> int:
    """The seat to act after `player` played `card` (the position after the move)."""
    n, direction = game.players, game.state.direction
    if card[0] == "K":
        return player
    if card[0] == "J":
        return (player + 2 * direction) % n
    if card[0] == "Q":
        sizes = [len(game.state.piles[p]) for p in game.rules.zones["hand"].piles[:n]]
        return sizes.index(max(sizes))
    return (player + direction) % n


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_in_random_play_every_card_hands_the_turn_on_as_its_rule_says(players: int) -> None:
    rules = load_ruleset(ORDER)
    codes = rules.deck.codes
    for seed in range(60):
        game = rules.new_game(seed=seed, players=players)
        rng = random.Random(seed)
        while not game.is_over:
            player, direction = game.current_player, game.state.direction
            move = rng.choice(game.legal_moves())
            game.apply(move)
            card = codes[move.pick]
            assert game.state.direction == (-direction if card[0] == "A" else direction)
            if not game.is_over:
                assert game.current_player == _expected_next(game, player, card), f"seed {seed}: {card}"


def test_the_native_backend_hands_the_turns_on_as_the_python_one_does() -> None:
    rules = load_ruleset(ORDER)
    backend = native.native_backend(rules)
    for seed in range(40):
        rng = random.Random(seed)
        native.compare(backend, rules.new_game(seed=seed, players=2 + seed % 4), rng.choice)


def _variant(tmp_path: Path, old: str, new: str) -> Path:
    return replaced(tmp_path, ORDER.read_text(encoding="utf-8"), old, new)


def test_turn_control_in_a_game_whose_turns_do_not_rotate_is_refused_at_its_place(tmp_path: Path) -> None:
    path = _variant(tmp_path, "  order: rotation\n", "  order: simultaneous\n")
    with pytest.raises(RulesetError, match=r"turn_to needs turns that rotate") as caught:
        load_ruleset(path)
    assert caught.value.pos is not None and caught.value.pos.line == 23  # the setup's turn_to


def test_turn_to_a_seat_the_game_has_not_is_a_run_time_error_at_the_expression(tmp_path: Path) -> None:
    rules = load_ruleset(_variant(tmp_path, "          - turn_to: player\n", "          - turn_to: players\n"))
    game = rules.new_game(deal=deal(["2C", "KH"], ["4H"], ["6H"], ["5H"]), players=4)
    with pytest.raises(RulesetRuntimeError, match="turn_to: there is no seat 4"):
        play(game, "KH")
    assert game.current_player == 0 and not game.history  # the move changed nothing


def test_the_views_and_the_status_line_say_which_way_the_turns_go() -> None:
    from cardrules.python.render import status_line

    game = game_of(["2C", "AH"], ["4H"], ["6H"], ["5H"])
    assert (game.view(1)["direction"], game.view(1)["next_seat"]) == (1, None)
    assert "down the seats" not in status_line(game, 0).plain
    play(game, "AH")
    assert game.view(None)["direction"] == -1
    assert "turns go down the seats" in status_line(game, 0).plain
