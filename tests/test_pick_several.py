"""Choosing several cards of a pile in one move: `take: {any: K}` (docs/language.md, Moves).

tests/fixtures/hidden/pass-three.yaml: each seat holds five cards only it sees; each in turn
passes any three of them face down to the next seat in one move, then lays any two face up on
the table, a pair of one rank scoring a point.
"""

from __future__ import annotations

import itertools
import math
import random
from pathlib import Path
from typing import Any

import pytest

from cardrules import IllegalMoveError, RulesetError, load_ruleset
from cardrules import native
from cardrules.native import native_backend

from helpers import FIXTURES, pile_ids

PASS_THREE = FIXTURES / "hidden" / "pass-three.yaml"


def _hand(game: Any, seat: int) -> list[int]:
    return pile_ids(game, "hand", seat)


def _expected_sets(game: Any, cards: list[int], k: int) -> set[tuple[str, ...]]:
    """Each set of k cards, by its codes, worked out apart from the engine."""
    codes = game.rules.deck.codes
    return {tuple(sorted(codes[c] for c in chosen)) for chosen in itertools.combinations(cards, k)}


def _offered(game: Any, name: str) -> list[tuple[str, ...]]:
    """The sets of cards the legal moves `name` choose, by their codes (from the moves' texts)."""
    texts = [str(m) for m in game.legal_moves() if m.name == name]
    return [tuple(sorted(t.rsplit(":", 1)[1].split(">")[0].split(","))) for t in texts]


def test_pass_offers_every_set_of_three_cards_of_the_hand_once() -> None:
    rules = load_ruleset(PASS_THREE)
    for seed in range(10):
        game = rules.new_game(seed=seed)
        offered = _offered(game, "pass")
        assert len(offered) == len(set(offered)) == math.comb(5, 3)
        assert set(offered) == _expected_sets(game, _hand(game, 0), 3)


def test_equal_cards_give_one_move_per_set_of_codes(tmp_path: Path) -> None:
    # Two decks of Aces and Twos: hands hold equal cards, and a set is offered once by its codes.
    path = tmp_path / "pass-copies.yaml"
    path.write_text(PASS_THREE.read_text(encoding="utf-8").replace(
        'deck: {name: standard-52, where: "card.rank <= 6"}',
        'deck: {name: standard-52, copies: 2, where: "card.rank <= 2"}'), encoding="utf-8")
    rules = load_ruleset(path)
    duplicated = 0
    for seed in range(20):
        game = rules.new_game(seed=seed)
        hand = _hand(game, 0)
        offered = _offered(game, "pass")
        assert len(offered) == len(set(offered)) and set(offered) == _expected_sets(game, hand, 3)
        duplicated += len(offered) < math.comb(5, 3)
    assert duplicated > 10  # equal cards did occur, and were offered once


def test_a_pass_moves_exactly_the_chosen_cards_face_down_in_their_order() -> None:
    rules = load_ruleset(PASS_THREE)
    for seed in range(10):
        game = rules.new_game(seed=seed)
        before, receiver = _hand(game, 0), _hand(game, 1)
        move = random.Random(seed).choice(game.legal_moves())
        chosen = list(move.pick)
        assert chosen == [c for c in before if c in chosen]  # named in the hand's order
        game.apply(move)
        assert _hand(game, 0) == [c for c in before if c not in chosen]
        assert _hand(game, 1) == receiver + chosen
        assert not any(game.state.up[c] for c in chosen)
        assert game.variable("passed", 0) is True


def test_cards_and_card_name_the_chosen_cards_in_a_moves_rules() -> None:
    # After the passes, a lay of two cards of one rank scores; two of different ranks do not.
    rules = load_ruleset(PASS_THREE)
    pairs = mixed = 0
    for seed in range(40):
        game = rules.new_game(seed=seed, players=2)
        for _ in range(2):
            game.apply(game.legal_moves()[0])
        codes = game.rules.deck.codes
        for move in game.legal_moves():
            trial = game.clone()
            trial.apply(move)
            ranks = {game.rules.deck.attribute_table("rank")[c] for c in move.pick}
            assert trial.variable("points", 0) == (1 if len(ranks) == 1 else 0), [codes[c] for c in move.pick]
            assert pile_ids(trial, "table") == list(move.pick)
            pairs += len(ranks) == 1
            mixed += len(ranks) == 2
    assert pairs and mixed


def test_a_condition_on_the_chosen_cards_offers_only_the_sets_that_meet_it(tmp_path: Path) -> None:
    # Laying only pairs: the move's `when` reads `cards`, the set being listed.
    path = tmp_path / "pairs.yaml"
    path.write_text(PASS_THREE.read_text(encoding="utf-8").replace(
        '    when: "all(of(passed, s) for s in seats) and not laid"',
        '    when: "all(of(passed, s) for s in seats) and not laid and cards[0].rank == cards[1].rank"'),
        encoding="utf-8")
    rules = load_ruleset(path)
    ranks = rules.deck.attribute_table("rank")
    found = 0
    for seed in range(30):
        game = rules.new_game(seed=seed, players=2)
        for _ in range(2):
            game.apply(game.legal_moves()[0])
        hand = _hand(game, game.current_player)
        pairs = {key for key in _expected_sets(game, hand, 2)
                 if len({ranks[rules.deck.codes.index(code)] for code in key}) == 1}
        assert set(_offered(game, "lay")) == pairs
        found += len(pairs)
    assert found > 5


def test_the_passer_and_receiver_know_the_passed_cards_and_a_third_seat_does_not() -> None:
    rules = load_ruleset(PASS_THREE)
    game = rules.new_game(seed=3)
    move = game.legal_moves()[0]
    text = str(move)
    game.apply(move)
    codes = [game.rules.deck.codes[c] for c in move.pick]
    assert game.record(0) == [text] and game.record(1) == [text]
    assert game.record(2) == ["pass:h@1:?,?,?"] and game.record(None) == ["pass:h@1:?,?,?"]
    hand = game.view(0)["zones"]["hand"][1]  # the passer still knows the three it passed
    assert [c for c in hand if c is not None] == codes
    assert all(c is None for c in game.view(2)["zones"]["hand"][1])
    # A bot's determinized copy for seat 1 keeps the cards it passed where they went.
    copy = game.determinize(0, random.Random(1))
    assert [c for c in _hand(copy, 1) if c in move.pick] == list(move.pick)


def test_a_move_text_names_the_set_and_a_set_not_offered_is_refused() -> None:
    rules = load_ruleset(PASS_THREE)
    game = rules.new_game(seed=2)
    move = game.legal_moves()[4]
    assert game.parse_move(str(move)) == move
    codes = [game.rules.deck.codes[c] for c in _hand(game, 0)]
    with pytest.raises(IllegalMoveError, match="not a legal move"):
        game.parse_move(f"pass:h@1:{codes[0]},{codes[1]}")  # two cards where the move takes three
    # the same cards named out of the hand's order name the same move (the listed text keeps that order)
    picked = [game.rules.deck.codes[c] for c in move.pick]
    assert game.parse_move(f"pass:h@1:{','.join(reversed(picked))}") is move


def test_cards_a_seat_cannot_see_are_not_offered_to_choose_among(tmp_path: Path) -> None:
    path = tmp_path / "blind.yaml"
    path.write_text(PASS_THREE.read_text(encoding="utf-8").replace(
        "  lay:\n", "  grab:\n    from: stock\n    take: {any: 2}\n    to: hand\n  lay:\n"), encoding="utf-8")
    game = load_ruleset(path).new_game(seed=1, players=2)
    assert not [m for m in game.legal_moves() if m.name == "grab"]  # the stock is face down to all


def test_random_games_conserve_cards_and_never_show_a_seat_a_card_it_cannot_know() -> None:
    rules = load_ruleset(PASS_THREE)
    for seed in range(120):
        rng = random.Random(seed)
        game = rules.new_game(seed=seed, players=rng.choice([2, 3, 4]))
        knows: list[set[int]] = [set(_hand(game, s)) for s in range(game.players)]
        while not game.is_over:
            move = rng.choice(game.legal_moves())
            seat = game.current_player
            if move.name == "pass":
                assert len(move.pick) == 3 and set(move.pick) <= set(_hand(game, seat))
                knows[(seat + 1) % game.players] |= set(move.pick)
            game.apply(move)
            cards = sorted(c for p in game.state.piles for c in p)
            assert cards == list(range(len(rules.deck)))
            table = set(pile_ids(game, "table"))
            for s in range(game.players):
                view = game.view(s)["zones"]["hand"]
                for owner in range(game.players):
                    for card, code in zip(_hand(game, owner), view[owner]):
                        assert (code is not None) == (card in knows[s] or card in table), (seed, s, owner)
        assert game.outcome == "over"


def test_too_many_sets_of_cards_to_number_is_an_error_at_its_line(tmp_path: Path) -> None:
    path = tmp_path / "many.yaml"
    path.write_text(PASS_THREE.read_text(encoding="utf-8").replace(
        'deck: {name: standard-52, where: "card.rank <= 6"}', "deck: standard-52").replace(
        "take: {any: 3}", "take: {any: 10}"), encoding="utf-8")
    with pytest.raises(RulesetError, match="15,820,024,220 sets of cards") as caught:
        load_ruleset(path)
    assert caught.value.pos is not None and caught.value.pos.line == 26


@pytest.mark.parametrize("deck", ["standard", "two decks"])
def test_the_native_backend_offers_the_same_sets_of_cards_in_the_same_order(tmp_path: Path, deck: str) -> None:
    # At every step the legal moves (each set of cards as the compiled code numbers it, and its
    # action number), piles, faces, who knows which card, variables; with two decks, sets of equal
    # cards are offered once, the first found, in both backends.
    path = PASS_THREE
    if deck == "two decks":
        path = tmp_path / "pass-three.yaml"
        (tmp_path / "two-decks.yaml").write_text((FIXTURES / "runs" / "two-decks.yaml").read_text(encoding="utf-8"))
        path.write_text(PASS_THREE.read_text(encoding="utf-8").replace(
            'deck: {name: standard-52, where: "card.rank <= 6"}', 'deck: {name: two-decks, where: "card.rank <= 3"}'),
            encoding="utf-8")
    rules = load_ruleset(path)
    backend = native_backend(rules)
    fewer = False  # a listing where equal cards made fewer sets than C(5, 3)
    for players in (2, 3, 4):
        for seed in range(6):
            game = rules.new_game(seed=seed, players=players)
            fewer |= len(game.legal_moves()) < math.comb(5, 3)
            native.compare(backend, game, random.Random(seed).choice)
            assert game.outcome == "over" and {m.name for m in game.history} == {"pass", "lay"}
    assert fewer == (deck == "two decks")
