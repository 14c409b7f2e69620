"""Cards known to some seats and not others (docs/language.md, "Cards known to one seat").

tests/fixtures/hidden/peek.yaml: three seats hold hands only their owner sees. `give` passes a
card face down into the next seat's hand (the giver goes on knowing it), `peek` shows a seat
another's whole hand, `glimpse` one card of it, `mix` shuffles the mover's hand (nobody knows
where a card went), `lay` puts a card face up on the table. Views, move records and the bots'
determinized copies follow what each seat knows.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from cardrules import RulesetError, RulesetRuntimeError, load_ruleset
from cardrules import native
from cardrules.native import native_backend
from helpers import play

PEEK = Path(__file__).parent / "fixtures" / "hidden" / "peek.yaml"


def new_game(seed: int = 1) -> Any:
    return load_ruleset(PEEK).new_game(seed=seed)


def hand_ids(game: Any, seat: int) -> list[int]:
    return list(game.state.piles[game.rules.zones["hand"].seat_piles[seat][0]])


def codes(game: Any, cards: list[int]) -> list[str]:
    return [game.rules.deck.codes[c] for c in cards]


def shown_hand(game: Any, viewer: int, seat: int) -> list[str | None]:
    return game.view(viewer)["zones"]["hand"][seat]


def first(game: Any, name: str) -> Any:
    return next(m for m in game.legal_moves() if m.name == name)


def test_a_card_passed_face_down_is_known_to_its_passer_and_its_receiver_only() -> None:
    game = new_game()
    give = first(game, "give")
    card = game.rules.deck.codes[give.pick]
    game.apply(give)
    assert card in shown_hand(game, 0, 1) and card in shown_hand(game, 1, 1)
    assert card not in shown_hand(game, 2, 1) and shown_hand(game, 2, 1) == [None] * 5
    assert [c for c in shown_hand(game, 0, 1) if c is not None] == [card]  # the rest of that hand stays hidden
    assert game.record(0) == game.record(1) == [f"give:h@1:{card}"]
    assert game.record(2) == game.record(None) == ["give:h@1:?"]


def test_a_seat_shown_another_hand_sees_it_and_no_other_seat_does() -> None:
    game = new_game()
    play(game, "peek seat3")
    assert shown_hand(game, 0, 2) == codes(game, hand_ids(game, 2))
    assert shown_hand(game, 1, 2) == [None] * 4 and game.view(None)["zones"]["hand"][2] == [None] * 4


def test_a_seat_shown_one_card_sees_that_card_only() -> None:
    game = new_game()
    play(game, "glimpse seat2")
    top = codes(game, hand_ids(game, 1))[-1]
    assert shown_hand(game, 0, 1) == [None, None, None, top]


def test_a_card_shown_stays_known_as_it_moves_and_a_card_arriving_later_does_not() -> None:
    game = new_game()
    play(game, "peek seat2")  # seat 1 sees seat 2's hand
    seat2 = hand_ids(game, 1)
    give = next(m for m in game.legal_moves() if m.name == "give" and m.pick == seat2[0])
    game.apply(give)          # seat 2 gives one of them on to seat 3: seat 1 still knows it
    assert game.rules.deck.codes[seat2[0]] in shown_hand(game, 0, 2)
    arriving = first(game, "give")
    game.apply(arriving)      # seat 3 gives seat 1 a card: seat 1 sees it in its own hand
    assert shown_hand(game, 0, 1)[:3] == codes(game, seat2[1:])  # what seat 1 saw of seat 2's hand


def test_nobody_knows_where_a_card_went_in_a_shuffled_pile() -> None:
    game = new_game()
    play(game, "peek seat2")
    assert None not in shown_hand(game, 0, 1)
    play(game, "mix")  # seat 2 shuffles its hand
    assert shown_hand(game, 0, 1) == [None] * 4 and None not in shown_hand(game, 1, 1)


def test_undo_takes_knowledge_back() -> None:
    game = new_game()
    play(game, "peek seat3")
    game.undo()
    assert shown_hand(game, 0, 2) == [None] * 4
    game.apply(first(game, "give"))
    game.undo()
    assert all(mask == 0 for mask in game.state.known)


def test_a_bots_copy_keeps_the_cards_its_seat_knows() -> None:
    game = new_game()
    play(game, "peek seat2")
    for k in range(5):
        copy = game.determinize(0, random.Random(k))
        assert hand_ids(copy, 1) == hand_ids(game, 1)  # seen: kept
        assert copy.view(0) == game.view(0)


def test_a_bots_copy_does_not_tell_its_seat_which_cards_another_seat_knows() -> None:
    """Seat 1 peeked at seat 2's hand; seat 3's copy keeps that knowledge with seat 2's hand,
    whatever cards the copy deals there, so it does not tell seat 3 what seat 1 saw."""
    game = new_game()
    play(game, "peek seat2")
    dealt = []
    for k in range(5):
        copy = game.determinize(2, random.Random(k))
        known_to_seat1 = sorted(c for c in range(len(copy.state.known)) if copy.state.known[c] & 1)
        assert known_to_seat1 == sorted(hand_ids(copy, 1))
        assert shown_hand(copy, 0, 1) == codes(copy, hand_ids(copy, 1))
        dealt.append(sorted(hand_ids(copy, 1)))
    assert len({str(d) for d in dealt}) > 1 and any(d != sorted(hand_ids(game, 1)) for d in dealt)


def test_a_ruleset_without_private_cards_keeps_no_knowledge() -> None:
    assert load_ruleset("klondike").new_game(seed=1).state.known is None
    assert load_ruleset("spades").new_game(seed=1).state.known is not None


@pytest.mark.parametrize(("show", "message"), [
    ('{card: "top(of(hand, target))", pile: "of(hand, target)", to: player}', "'card'.*or 'pile'"),
    ('{pile: "of(hand, target)"}', "'to' is required"),
    ('{card: "of(hand, target)", to: player}', "a card"),
])
def test_a_show_says_one_card_or_one_pile_and_to_whom(tmp_path: Path, show: str, message: str) -> None:
    path = tmp_path / "r.yaml"
    path.write_text(PEEK.read_text().replace('{pile: "of(hand, target)", to: player}', show, 1))
    with pytest.raises(RulesetError, match=message) as caught:
        load_ruleset(path)
    assert caught.value.pos is not None and caught.value.pos.line == 29  # the peek's `- show`


def test_showing_a_seat_the_game_does_not_have_is_a_run_time_error_at_to(tmp_path: Path) -> None:
    path = tmp_path / "r.yaml"
    path.write_text(PEEK.read_text().replace('{pile: "of(hand, target)", to: player}',
                                             '{pile: "of(hand, target)", to: "player + 5"}', 1))
    game = load_ruleset(path).new_game(seed=1)
    with pytest.raises(RulesetRuntimeError, match="show: there is no seat 5"):
        play(game, "peek seat2")
    assert game.history == []


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_native_backend_keeps_who_knows_which_card_as_the_python_one_views_included(players: int) -> None:
    # At every step: the legal moves, piles, faces, who knows each card (`show`, cards passed face
    # down, forgotten in a shuffle) and which cards every seat and a spectator see.
    rules = load_ruleset(PEEK)
    backend = native_backend(rules)
    kinds: set[str] = set()
    for seed in range(8):
        game = rules.new_game(seed=seed, players=players)
        native.compare(backend, game, random.Random(seed).choice, views=True)
        kinds |= {move.name for move in game.history}
        assert game.outcome == "over"
    assert kinds == {"give", "peek", "glimpse", "mix", "lay"}


@pytest.mark.parametrize("seed", range(40))
def test_random_games_never_show_a_seat_a_card_it_has_not_seen_or_been_shown(seed: int) -> None:
    """Each seat's knowledge followed here apart from the engine: its own hand, the table, cards
    it gave (until shuffled), hands it peeked at, cards it glimpsed."""
    game = new_game(seed)
    rng = random.Random(seed)
    knows: list[set[int]] = [set() for _ in range(3)]
    while not game.is_over:
        move = rng.choice(game.legal_moves())
        actor = game.current_player
        if move.name == "give":
            knows[actor].add(move.pick)
        elif move.name == "peek":
            knows[actor] |= set(hand_ids(game, move.seat))
        elif move.name == "glimpse":
            knows[actor].add(hand_ids(game, move.seat)[-1])
        elif move.name == "mix":
            for seat in range(3):
                knows[seat] -= set(hand_ids(game, actor))
        game.apply(move)
        table = set(game.state.piles[game.rules.zones["table"].piles[0]])
        for viewer in range(3):
            for seat in range(3):
                expected = [game.rules.deck.codes[c] if seat == viewer or c in knows[viewer] else None
                            for c in hand_ids(game, seat)]
                assert shown_hand(game, viewer, seat) == expected
            assert set(game.view(viewer)["zones"]["table"]) == set(codes(game, sorted(table)))


def test_a_bots_copy_holds_no_record_text_naming_a_card_its_seat_does_not_know() -> None:
    game = new_game()
    give = first(game, "give")
    card = game.rules.deck.codes[give.pick]
    game.apply(give)
    assert game.record(0) == [f"give:h@1:{card}"]  # the text naming it, written for seat 1
    copy = game.determinize(2, random.Random(1))
    assert copy.record(2) == ["give:h@1:?"]
    assert not any(card in text for text in copy._texts.values())
