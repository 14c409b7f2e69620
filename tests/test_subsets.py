"""`subsets(...)` (docs/language.md, "Subsets"): every set of a list's items, walked by a
comprehension, in both backends; tests/fixtures/subsets/fifteens.yaml scores a hand of five with it
as Cribbage counts fifteens, pairs, flushes and runs."""

from __future__ import annotations

from pathlib import Path

import pytest
from cardrules import RulesetError, load_ruleset
from cardrules.base.errors import RulesetRuntimeError
from helpers import pile, play_both_backends, replaced

FIFTEENS = Path(__file__).resolve().parent / "fixtures" / "subsets" / "fifteens.yaml"
RULES = load_ruleset(FIFTEENS)


def hand_of(codes: list[str], players: int = 1) -> object:
    """A game of Fifteens whose first seat holds the first four cards and draws the fifth."""
    game = RULES.new_game(seed=1, players=players)
    S, deck = game.state, RULES.deck
    hand, stock = RULES.zones["hand"].seat_piles[0][0], RULES.zones["stock"].piles[0]
    wanted = [deck.codes.index(code) for code in codes]
    for pile_cards in S.piles:  # the cards wanted leave their piles; the hand's go to the stock
        pile_cards[:] = [c for c in pile_cards if c not in wanted]
    S.piles[stock][:0] = [c for c in range(len(deck)) if c not in wanted and not any(c in p for p in S.piles)]
    S.piles[hand][:] = wanted[:4]
    S.piles[stock].append(wanted[4])  # the top of the stock, drawn next
    return game


def draw_when(tmp_path: Path, condition: str) -> tuple[Path, str]:
    """Fifteens whose draw is legal only when `condition` holds: the file and its text."""
    text = FIFTEENS.read_text(encoding="utf-8")
    path = replaced(tmp_path, text, "    phase: draw\n    from: stock", f"    phase: draw\n    when: \"{condition}\"\n"
                    "    from: stock")
    return path, path.read_text(encoding="utf-8")


def scored(codes: list[str]) -> int:
    game = hand_of(codes)
    game.apply(next(m for m in game.legal_moves() if m.name == "draw"))
    assert sorted(pile(game, "hand")) == sorted(codes)
    game.apply(next(m for m in game.legal_moves() if m.name == "discard"))
    return game.variable("points", 0)


def test_four_fives_and_a_jack_score_eight_fifteens_and_six_pairs() -> None:
    # fifteens: the jack with each five (4) and three of the fives (4): 8, two each; pairs: 6, two each
    assert scored(["5H", "5D", "5C", "JS", "5S"]) == 2 * 8 + 2 * 6


def test_a_run_of_four_in_one_suit_scores_its_runs_flushes_and_fifteens() -> None:
    # 3 4 5 6 9 of hearts: fifteens 6+9 and 4+5+6 (2); no pair; flushes: five sets of four and the
    # five (6); runs: 3-4-5, 4-5-6 and 3-4-5-6 (3)
    assert scored(["3H", "4H", "5H", "6H", "9H"]) == 2 * 2 + 6 + 3


def test_a_low_hand_scores_its_one_fifteen_and_three_runs() -> None:
    # A 2 3 4 6 of two suits: one fifteen (2+3+4+6: no other set adds up to 15), no pair; runs:
    # A-2-3, 2-3-4 and A-2-3-4 (the 6 is in none); three hearts are no flush
    assert scored(["AH", "2S", "3H", "4S", "6H"]) == 2 * 1 + 3


def test_the_backends_play_it_alike() -> None:
    games = play_both_backends(RULES, range(4), players=(1, 2, 3))
    assert all(game.is_over for game in games)
    assert any(game.variable("points", 0) > 0 for game in games)


def test_subsets_of_a_whole_deck_are_over_the_step_limit_where_they_are_walked(tmp_path: Path) -> None:
    path, text = draw_when(tmp_path, "count(s for s in subsets(cards(stock))) > 0")
    rules = load_ruleset(path)
    with pytest.raises(RulesetRuntimeError, match="steps") as caught:
        rules.new_game(seed=1).legal_moves()
    assert caught.value.pos is not None and caught.value.pos.line == text[:text.index("subsets(cards(stock")].count("\n") + 1


@pytest.mark.parametrize("expression,fragment", [
    ("size(subsets(cards(stock))) == 1", "got the subsets of a list of cards"),
    ("subsets(cards(stock), 2) == subsets(cards(stock), 2)", "cannot be compared"),
    ("size([subsets(cards(stock))]) == 1", "walked by a comprehension"),
    ("count(s for s in subsets(cards(stock), 'two')) == 1", "expected a number"),
    ("count(s for s in subsets(cards(stock), 1, 2, 3)) == 1", "takes 1 or 2 or 3 arguments, got 4"),
])
def test_subsets_are_walked_never_kept_or_compared(tmp_path: Path, expression: str, fragment: str) -> None:
    path = replaced(tmp_path, FIFTEENS.read_text(encoding="utf-8"), 'if: "size(stock) < players"', f'if: "{expression}"')
    with pytest.raises(RulesetError, match=fragment):
        load_ruleset(path)


@pytest.mark.parametrize("bounds", ["0, index([1], 2)", "index([1], 2), 3", "index([1], 2)"])
def test_a_bound_that_is_none_is_an_error_in_both_backends(tmp_path: Path, bounds: str) -> None:
    # (Python once read a high bound of none as "no bound", where compiled code stops: found by the
    # native fuzzer, the none given by index() of an item not in the list)
    from cardrules.native import NativeStop, native_backend

    path, _ = draw_when(tmp_path, f"count(s for s in subsets(cards(hand), {bounds})) >= 0")
    rules = load_ruleset(path)
    with pytest.raises(RulesetRuntimeError, match="a number was expected, got none"):
        rules.new_game(seed=1).legal_moves()
    with pytest.raises(NativeStop):
        native_backend(rules).deal(1)  # (the moves are listed at the deal: there, compiled code stops)


def test_compiled_code_walks_at_most_ten_thousand_sets_and_leaves_more_to_python(tmp_path: Path) -> None:
    # 44 cards in the stock: 150,975 sets of one to four, within Python's step limit, past the
    # native backend's bound, where compiled code stops and the Python backend plays
    from cardrules.native import NativeStop, native_backend

    path, _ = draw_when(tmp_path, "count(s for s in subsets(cards(stock), 1, 4)) > 0")
    rules = load_ruleset(path)
    game = rules.new_game(seed=1)
    assert [m.name for m in game.legal_moves()] == ["draw"]
    with pytest.raises(NativeStop, match="many subsets"):
        native_backend(rules).start(game)


def test_the_rules_say_the_sets_in_words() -> None:
    from cardrules.workbench.describe import describe, render_text

    text = render_text(describe(str(FIFTEENS)), 100)
    assert "pairs_in(p): the number of s in the sets of 2 cards of the cards of p" in " ".join(text.split())
    assert "the sets of 4 to 5 cards of the cards of p" in " ".join(text.split())
