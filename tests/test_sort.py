"""Ordering cards (docs/language.md, "Ordering cards"): the `sort` effect lays a pile's cards in
order of a key worked out for each card, in both backends; a zone's `order` draws its piles in the
ruleset's order without moving a card. tests/fixtures/order/sorting.yaml."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardrules import RulesetError, RulesetRuntimeError, load_ruleset

from helpers import play_both_backends, replaced

SORTING = Path(__file__).parent / "fixtures" / "order" / "sorting.yaml"
HAND, ROW = 1, 2


def value(rules, card: int) -> int:  # type: ignore[no-untyped-def]
    rank = rules.deck.cards[card]["rank"]
    return 14 if rank == 1 else rank


def red(rules, card: int) -> bool:  # type: ignore[no-untyped-def]
    return rules.deck.cards[card]["color"] == "red"


def test_sort_lays_the_cards_lowest_key_at_the_bottom_and_descending_keeps_equal_keys_in_order() -> None:
    rules = load_ruleset(SORTING)
    for seed in range(1, 16):
        game = rules.new_game(seed=seed)
        dealt, row = list(game.state.piles[HAND]), list(game.state.piles[ROW])
        game.apply(game.legal_moves()[0])  # arrange: by value, Aces high
        arranged = game.state.piles[HAND]
        assert sorted(arranged) == sorted(dealt)
        assert [value(rules, c) for c in arranged] == sorted(value(rules, c) for c in dealt)
        assert arranged == sorted(dealt, key=lambda c: value(rules, c))  # equal values: as they lay
        game.apply(game.legal_moves()[0])  # rearrange: reds first (descending), each colour as it lay
        assert game.state.piles[HAND] == [c for c in arranged if red(rules, c)] + [c for c in arranged if not red(rules, c)]
        assert game.state.piles[ROW] == sorted(row, key=lambda c: rules.deck.cards[c]["rank"])
        assert all(not game.state.up[c] for c in row)  # faces as they lay
        assert game.outcome == "won"


def test_undo_puts_the_cards_back_as_they_lay() -> None:
    rules = load_ruleset(SORTING)
    game = rules.new_game(seed=3)
    dealt = list(game.state.piles[HAND])
    game.apply(game.legal_moves()[0])
    assert game.state.piles[HAND] != dealt
    game.undo()
    assert game.state.piles[HAND] == dealt


def test_both_backends_sort_alike() -> None:
    games = play_both_backends(load_ruleset(SORTING), range(1, 21))
    assert all(game.outcome == "won" for game in games)


def _edited(tmp_path: Path, old: str, new: str) -> Path:
    return replaced(tmp_path, SORTING.read_text(), old, new)


def test_a_key_that_is_none_is_an_error_at_the_key_and_stops_compiled_code(tmp_path: Path) -> None:
    from cardrules.native import NativeStop, native_backend

    path = _edited(tmp_path, 'by: "value(card)"', 'by: "card.rank if card.rank < 13 else none"')
    rules = load_ruleset(path)
    seed = next(s for s in range(1, 50) if any(rules.deck.cards[c]["rank"] == 13
                                               for c in rules.new_game(seed=s).state.piles[HAND]))
    game = rules.new_game(seed=seed)
    with pytest.raises(RulesetRuntimeError) as caught:
        game.apply(game.legal_moves()[0])
    line = next(i for i, text in enumerate(path.read_text().splitlines(), 1) if "card.rank < 13" in text)
    assert caught.value.pos is not None and caught.value.pos.line == line
    position = native_backend(rules).start(rules.new_game(seed=seed))
    with pytest.raises(NativeStop):
        position.apply_code(position.legal_codes()[0])


@pytest.mark.parametrize("old, new, message", [
    ('sort: {pile: hand, by: "value(card)"}', "sort: {pile: hand}", "by"),
    ("descending: true}", "descending: 1}", "descending"),
    ('by: "value(card)"', "by: \"card.suit\"", "number"),
    ('order: "(0 if card.suit == \'hearts\' else 1) * 20 + card.rank"', 'order: "card.suit"', "number"),
])
def test_a_sort_or_an_order_that_is_not_a_number_of_each_card_is_refused(tmp_path: Path, old: str, new: str,
                                                                          message: str) -> None:
    with pytest.raises(RulesetError, match=message):
        load_ruleset(_edited(tmp_path, old, new))


def test_a_zones_order_draws_its_cards_so_and_moves_none() -> None:
    from cardrules.python import render

    rules = load_ruleset(SORTING)
    game = rules.new_game(seed=2)
    lying = list(game.state.piles[HAND])
    drawn = render.drawn_cards(game, "hand", HAND, 0)
    hearts = [c for c in lying if rules.deck.cards[c]["suit"] == "hearts"]
    others = [c for c in lying if rules.deck.cards[c]["suit"] != "hearts"]
    assert drawn == sorted(hearts, key=lambda c: rules.deck.cards[c]["rank"]) + \
        sorted(others, key=lambda c: rules.deck.cards[c]["rank"])
    assert game.state.piles[HAND] == lying
    # A pile with cards the seat cannot see is drawn as it lies (its order would tell where they are).
    assert render.drawn_cards(game, "row", ROW, 0) == game.state.piles[ROW]


def test_the_rules_in_words_say_the_order_and_the_sorts() -> None:
    from cardrules.workbench.describe import describe

    items = [block.text for block in describe(SORTING).blocks if block.kind == "item"]
    assert any(text.startswith("hand: ") and "its cards are shown in order of" in text and text.endswith(", lowest first.")
               for text in items)
    assert any(text.startswith("Sort the cards of the hand by ") and text.endswith(", the lowest at the bottom.")
               for text in items)
    assert any(text.startswith("Sort the cards of the hand by ") and text.endswith(", the highest at the bottom.")
               for text in items)
