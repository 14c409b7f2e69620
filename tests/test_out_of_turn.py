"""`out_of_turn`: moves any seat may make whenever their conditions hold, whose turn it is or not.

After a move the seats are asked in turn order, from the seat after the one that moved (that seat
last); a seat asked makes its move out of turn or `pass`es; the first that acts ends the asking,
and the turn goes on where it was (or with the seat a `turn_to` of the move names). Who is asked
must not tell a hidden card: where the moves read cards not every seat sees, every seat is asked.

Two games use it:

- examples/snap.yaml (Snap, shared pile): each seat in turn turns the top card of its face-down
  stack onto the pile; when the top two cards of the pile match in rank, any seat may snap and win
  the pile. The pile is public, so only the seats that may snap are asked.
- tests/fixtures/turns/claims.yaml: draw, then discard; any other seat holding a card of the
  discard's rank may claim it (both cards to its pairs) and then takes the turn. The claim reads
  the claimer's hand, which only its holder sees, so every seat is asked after every discard.
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path
from typing import Any

import pytest
from cardrules import load_ruleset
from cardrules.python import render
from cardrules.agents.bots import make_bot
from cardrules.base.errors import RulesetError
from cardrules.workbench.simulate import simulate_games
from helpers import FIXTURES, MINI, pile, play, play_both_backends, snapshot

ROOT = Path(__file__).resolve().parent.parent
SNAP = ROOT / "examples" / "snap.yaml"
CLAIMS = FIXTURES / "turns" / "claims.yaml"


def line_of(path: Path, text: str) -> int:
    """The 1-based line of a file holding `text`."""
    return next(n for n, line in enumerate(path.read_text().splitlines(), 1) if text in line)


def changed(tmp_path: Path, base: Path, old: str, new: str) -> Path:
    text = base.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / base.name
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def snap_game(turned: list[str], path: Path = SNAP) -> Any:
    """Three-seat Snap whose first cards turned up are `turned`, seat 1 first: the i-th card turned
    is seat i % 3's, the top of its stack after i // 3 turns (dealt one card a seat a row, 17 rows)."""
    rules = load_ruleset(str(path))
    order: list[str | None] = [None] * 52
    for i, code in enumerate(turned):
        order[(16 - i // 3) * 3 + i % 3] = code
    rest = iter(c for c in rules.deck.codes if c not in turned)
    return rules.new_game(deal=[code if code is not None else next(rest) for code in order], players=3)


def claims_game(hands: list[list[str]], draws: list[str], path: Path = CLAIMS) -> Any:
    """Three-seat Claims with these hands (three cards each) and the stock's top cards `draws`."""
    rules = load_ruleset(str(path))
    order = [hands[i % 3][i // 3] for i in range(9)] + draws
    order += [c for c in rules.deck.codes if c not in order]
    return rules.new_game(deal=order, players=3)


def names(game: Any) -> set[str]:
    return {move.name for move in game.legal_moves()}


def move_named(game: Any, name: str, card: str | None = None) -> Any:
    """The legal move of that name (taking that card, for a pick from a hand)."""
    codes = game.rules.deck.codes
    return next(m for m in game.legal_moves() if m.name == name and (card is None or codes[m.pick] == card))


def asked_in_order(game: Any) -> list[int]:
    """Let every seat asked pass; the seats asked, in order."""
    seats = []
    while game.state.asking is not None:
        seats.append(game.current_player)
        game.apply(move_named(game, "pass"))
    return seats


# -- Snap: a move out of turn on what every seat sees -------------------------------------------


def test_snap_is_not_offered_while_the_top_two_cards_of_the_pile_differ() -> None:
    game = snap_game(["KS", "QH"])
    assert names(game) == {"turn"}  # the deal shows no pair: nobody is asked
    play(game, "k@1>p")
    assert (game.current_player, names(game)) == (1, {"turn"})
    play(game, "k@2>p")
    assert (game.current_player, names(game), game.state.asking) == (2, {"turn"}, None)


def test_a_pair_showing_asks_every_seat_in_turn_order_from_the_seat_after_the_mover() -> None:
    game = snap_game(["KS", "KH"])
    play(game, "k@1>p", "k@2>p")  # seat 2 turns the second King
    assert names(game) == {"snap", "pass"} and game.turn_player == 2
    assert asked_in_order(game) == [2, 0, 1]  # seat 3, seat 1, then seat 2 (the mover) last
    # Nobody snapped: seat 3's turn goes on, and it may still snap (a move out of turn is also
    # a seat's move in its own turn).
    assert (game.current_player, names(game)) == (2, {"turn", "snap"})


def test_the_first_seat_asked_that_snaps_wins_the_pile_and_the_others_are_not_asked() -> None:
    game = snap_game(["KS", "KH"])
    play(game, "k@1>p", "k@2>p", "pass")  # seat 3 lets it go
    assert game.current_player == 0
    game.apply(move_named(game, "snap"))  # seat 1 snaps
    assert pile(game, "won", 0) == ["KS", "KH"] and pile(game, "pile") == []
    # The turn goes on where it was, seat 3's, and seat 2 is not asked.
    assert (game.current_player, game.turn_player, names(game), game.state.asking) == (2, 2, {"turn"}, None)


def test_a_snap_in_the_seats_own_turn_does_not_use_up_its_turn() -> None:
    game = snap_game(["KS", "KH"])
    play(game, "k@1>p", "k@2>p")
    asked_in_order(game)
    game.apply(move_named(game, "snap"))  # seat 3, in its own turn
    assert pile(game, "won", 2) == ["KS", "KH"]
    assert (game.current_player, names(game)) == (2, {"turn"})  # it still turns its card


def test_only_the_seats_that_may_act_out_of_turn_are_asked_when_that_tells_nothing_hidden(tmp_path: Path) -> None:
    path = changed(tmp_path, SNAP, 'when: "pair_showing()"', 'when: "pair_showing() and player != 0"')
    assert not load_ruleset(str(path)).asks_everyone  # the condition reads only the pile
    game = snap_game(["KS", "KH"], path)
    play(game, "k@1>p", "k@2>p")
    assert asked_in_order(game) == [2, 1]  # seat 1 may not snap: it is passed over


def test_the_game_does_not_end_while_a_pair_shows_on_the_pile() -> None:
    codes = list(load_ruleset(str(SNAP)).deck.codes)  # suit by suit, Ace to King
    turned = [c for c in codes if c != "QH"][:50] + ["QH"]  # the last card turned matches the one under it
    ranks = [c[:-1] for c in turned]
    assert ranks[49:] == ["Q", "Q"] and all(a != b for a, b in itertools.pairwise(ranks[:50]))
    game = snap_game(turned)
    for _ in range(51):
        assert game.state.asking is None and not game.is_over
        game.apply(move_named(game, "turn"))
    assert asked_in_order(game) == [0, 1, 2]  # the last card made a pair: everyone may snap it
    # Every stack is played out, but the pair still shows: seat 1, whose turn it is, must snap.
    assert not game.is_over and names(game) == {"snap"}
    game.apply(move_named(game, "snap"))
    assert game.is_over and game.reason == "every stack is played out" and len(pile(game, "won", 0)) == 51


# -- Claims: a move out of turn on cards only their holder sees ----------------------------------


HANDS = [["2C", "3C", "4C"], ["5D", "6D", "4H"], ["2S", "5S", "6S"]]


def test_a_claim_on_a_hidden_hand_asks_every_seat_after_each_discard() -> None:
    game = claims_game(HANDS, ["AD", "AH"])
    assert game.rules.asks_everyone
    play(game, "s>h@1")  # seat 1 draws the AD: no discard yet, nobody is asked
    assert (game.current_player, game.phase, game.state.asking) == (0, "discard", None)
    game.apply(move_named(game, "discard", "4C"))
    # Seat 2 holds the 4H and may claim; seat 3 may not, and is asked all the same; seat 1 (the
    # discarder) is asked last and may not claim its own discard.
    assert (game.current_player, names(game)) == (1, {"claim", "pass"})
    play(game, "pass")
    assert (game.current_player, names(game)) == (2, {"pass"})
    play(game, "pass")
    assert (game.current_player, names(game)) == (0, {"pass"})
    play(game, "pass")
    assert (game.current_player, game.turn_player, game.phase, game.state.asking) == (1, 1, "draw", None)


def test_who_is_asked_does_not_tell_who_holds_the_card_to_claim_with() -> None:
    holders = []
    for hands in (HANDS, [HANDS[0], ["5D", "6D", "AH"], ["2S", "5S", "4H"]], [HANDS[0], ["5D", "6D", "AH"],
                                                                              ["2S", "5S", "6S"]]):
        game = claims_game(hands, ["AD", "AS"])
        play(game, "s>h@1")
        game.apply(move_named(game, "discard", "4C"))
        holders.append([s for s in range(3) if any(c == "4H" for c in pile(game, "hand", s))])
        assert asked_in_order(game) == [1, 2, 0]  # the same, whoever holds the 4H (or nobody)
        assert game.view(2)["zones"]["hand"][1] == [None, None, None]  # still unseen
    assert holders == [[1], [2], []]


def test_a_claim_gives_the_claimer_the_next_turn_and_passes_over_the_seats_between() -> None:
    game = claims_game(HANDS, ["AD", "AH"])
    play(game, "s>h@1")
    game.apply(move_named(game, "discard", "2C"))
    assert (game.current_player, names(game)) == (1, {"pass"})  # seat 2 holds no 2
    play(game, "pass")
    game.apply(move_named(game, "claim", "2S"))  # seat 3 claims with its 2 of spades
    assert pile(game, "pairs", 2) == ["2S", "2C"] and pile(game, "discard") == []
    assert game.variable("claims", 2) == 1
    # Seat 3 takes the next turn, from its first phase; seat 2's turn is passed over; a claim is
    # not a discard, so nobody is asked after it.
    assert (game.current_player, game.turn_player, game.phase, game.state.asking) == (2, 2, "draw", None)
    play(game, "s>h@3")
    game.apply(move_named(game, "discard", "5S"))
    assert asked_in_order(game) == [0, 1, 2]
    assert (game.current_player, game.phase) == (0, "draw")


def test_the_seats_are_asked_only_after_the_moves_out_of_turn_names() -> None:
    game = claims_game(HANDS, ["4D", "AH"])
    play(game, "s>h@1")  # a draw: not a discard, so nobody is asked, though seat 2 holds a 4
    assert (game.current_player, game.phase, game.state.asking) == (0, "discard", None)


def test_undo_takes_back_a_pass_and_a_claim_with_the_asking() -> None:
    game = claims_game(HANDS, ["AD", "AH"])
    play(game, "s>h@1")
    game.apply(move_named(game, "discard", "4C"))
    before = snapshot(game), game.state.asking, game.current_player
    play(game, "pass")
    game.undo()
    assert (snapshot(game), game.state.asking, game.current_player) == before
    game.apply(move_named(game, "claim", "4H"))
    assert game.current_player == 1 and game.state.asking is None
    game.undo()
    assert (snapshot(game), game.state.asking, game.current_player) == before


def test_views_and_the_status_line_say_who_is_asked_and_whose_turn_it_is() -> None:
    game = claims_game(HANDS, ["AD", "AH"])
    play(game, "s>h@1")
    game.apply(move_named(game, "discard", "4C"))
    play(game, "pass")  # seat 3 is asked, in seat 2's turn
    view = game.view(2)
    assert (view["current_player"], view["turn_player"]) == (2, 1)
    assert "seat 3 may act out of turn (seat 2's turn)" in render.status_line(game, 2).plain
    play(game, "pass", "pass")
    assert game.view(1)["turn_player"] == 1 and "seat 2 to play" in render.status_line(game, 1).plain


def test_a_determinized_copy_asks_the_same_seats() -> None:
    game = claims_game(HANDS, ["AD", "AH"])
    play(game, "s>h@1")
    game.apply(move_named(game, "discard", "4C"))
    copy = game.determinize(2, random.Random(3))
    assert (copy.current_player, copy.state.asking) == (game.current_player, game.state.asking)
    assert asked_in_order(copy) == [1, 2, 0]


# -- load errors ---------------------------------------------------------------------------------


@pytest.mark.parametrize("base, old, new, message, at", [
    (SNAP, "  order: rotation\n", "  order: simultaneous\n", "simultaneous game", "    out_of_turn: true"),
    (SNAP, "moves:\n", "moves:\n  pass:\n    do: []\n", "a move named 'pass' clashes", "  pass:"),
    (CLAIMS, "      - turn_to: player\n", "      - end_turn\n", "'end_turn' in a move made out of turn",
     "- end_turn"),
    (SNAP, "score:", "triggers:\n  - name: hand on\n    do:\n      - act: {seat: \"0\"}\nscore:",
     "'act' in a trigger that may follow a move made out of turn", "- act:"),
    (CLAIMS, "out_of_turn: [discard]", "out_of_turn: [discards]", "unknown move 'discards'", "out_of_turn:"),
])
def test_a_wrong_out_of_turn_is_refused_at_its_line(tmp_path: Path, base: Path, old: str, new: str, message: str,
                                                    at: str) -> None:
    path = changed(tmp_path, base, old, new)
    with pytest.raises(RulesetError, match=message) as caught:
        load_ruleset(str(path))
    assert caught.value.pos is not None and caught.value.pos.line == line_of(path, at)


def test_out_of_turn_in_a_game_of_one_seat_is_refused_at_its_line(tmp_path: Path) -> None:
    assert "moves:\n" in MINI
    path = tmp_path / "one.yaml"
    path.write_text(MINI.replace("moves:\n", "moves:\n  call:\n    out_of_turn: true\n    do: []\n", 1))
    with pytest.raises(RulesetError, match="more than one seat") as caught:
        load_ruleset(str(path))
    assert caught.value.pos is not None and caught.value.pos.line == line_of(path, "out_of_turn: true")


@pytest.mark.parametrize("path", [SNAP, CLAIMS], ids=["snap", "claims"])
def test_the_native_backend_asks_the_same_seats_move_for_move(path: Path) -> None:
    # legal moves, piles, variables, the seat to act and the seats asked, at every step
    play_both_backends(load_ruleset(str(path)), range(12), players=(2, 3, 4))


# -- random play and bots ------------------------------------------------------------------------


@pytest.mark.parametrize("path, cards", [(SNAP, 52), (CLAIMS, 24)])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_keep_every_card_end_and_ask_only_for_moves_out_of_turn(path: Path, cards: int,
                                                                            players: int) -> None:
    rules = load_ruleset(str(path))
    out_of_turn = {t.name for t in rules.moves if t.out_of_turn}
    for seed in range(170):  # 510 games of each ruleset over the three seat counts
        game = rules.new_game(seed=seed, players=players)
        rng = random.Random(seed)
        while not game.is_over:
            legal = game.legal_moves()
            kinds = {m.name for m in legal}
            if game.state.asking is not None:  # a seat asked has the moves out of turn and `pass`
                assert "pass" in kinds and kinds <= out_of_turn | {"pass"}
                if not rules.asks_everyone:  # asked only when it may act
                    assert kinds != {"pass"}
            else:
                assert "pass" not in kinds
            game.apply(rng.choice(legal))
            assert sum(len(p) for p in game.state.piles) == cards
            for seat in range(players):  # a seat sees only its own hidden cards
                hand = game.view(seat)["zones"].get("hand")
                if hand is not None:
                    assert all(c is None for s, h in enumerate(hand) if s != seat for c in h)
        assert game.outcome == "over", (seed, game.reason)


@pytest.mark.parametrize("path, bots", [(SNAP, ["1=greedy", "2=random", "3=ismcts:iterations=20"]),
                                        (CLAIMS, ["1=greedy", "2=ismcts:iterations=20", "3=random"])])
def test_bots_play_games_with_moves_out_of_turn(path: Path, bots: list[str]) -> None:
    run = simulate_games(str(path), 12, players=3, seats=bots, seed=5)
    assert len(run.records) == 12 and all(r.outcome == "over" for r in run.records)


def test_a_greedy_bot_snaps_when_asked() -> None:
    game = snap_game(["KS", "KH"])
    play(game, "k@1>p", "k@2>p")
    bot = make_bot("greedy", 1)
    move = bot.choose(game)
    assert move.name == "snap"  # a pile won beats letting it go
