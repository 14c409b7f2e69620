"""`while` in effects: the effects again and again while a condition holds (docs/language.md,
"Loops until done"), bounded, in both backends. tests/fixtures/loops/dealer.yaml: a dealer who
draws to a stand value."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardrules import RulesetError, RulesetRuntimeError, load_ruleset
from cardrules.base.limits import MAX_WHILE_PASSES

from helpers import play_both_backends

DEALER = Path(__file__).parent / "fixtures" / "loops" / "dealer.yaml"


def points(rules, card: int) -> int:  # type: ignore[no-untyped-def]
    rank = rules.deck.cards[card]["rank"]
    return 10 if rank >= 10 else rank


@pytest.mark.parametrize("stand", [17, 21, 60])
def test_the_dealer_draws_until_the_total_reaches_the_stand_value(stand: int) -> None:
    rules = load_ruleset(DEALER, {"stand": stand})
    for seed in range(1, 21):
        game = rules.new_game(seed=seed)
        stock_before = list(game.state.piles[0])
        game.apply(game.legal_moves()[0])
        drawn = game.state.piles[1]
        totals = [sum(points(rules, c) for c in drawn[:k]) for k in range(len(drawn) + 1)]
        # Drawn from the top, one at a time, and no more once the total reached the stand value.
        assert drawn == stock_before[::-1][:len(drawn)]
        assert totals[-1] >= stand and all(t < stand for t in totals[:-1])
        assert game.scores() == [totals[-1]]
        assert game.outcome == ("won" if totals[-1] <= 21 else "lost")


def test_a_while_whose_condition_never_fails_is_an_error_at_the_while_after_its_passes() -> None:
    rules = load_ruleset(DEALER, {"stand": 400})  # the whole deck makes 340: the stock runs out first
    game = rules.new_game(seed=1)
    with pytest.raises(RulesetRuntimeError) as caught:
        game.apply(game.legal_moves()[0])
    line = next(i for i, text in enumerate(DEALER.read_text().splitlines(), 1) if "- while:" in text)
    assert caught.value.pos is not None and caught.value.pos.line == line
    assert f"still holds after {MAX_WHILE_PASSES:,} passes" in caught.value.message
    assert len(game.history) == 0 and len(game.state.piles[0]) == 52  # the move is not made


@pytest.mark.parametrize("stand", [17, 21, 60])
def test_the_native_backend_draws_as_the_python_backend(stand: int) -> None:
    games = play_both_backends(load_ruleset(DEALER, {"stand": stand}), range(1, 31))
    assert {game.outcome for game in games} <= {"won", "lost"} and all(game.is_over for game in games)


def test_natively_a_while_that_never_stops_stops_compiled_code_where_python_raises() -> None:
    from cardrules.native import NativeStop, native_backend

    rules = load_ruleset(DEALER, {"stand": 400})
    backend = native_backend(rules)
    position = backend.start(rules.new_game(seed=1))
    with pytest.raises(NativeStop, match="a while loop"):
        position.apply_code(position.legal_codes()[0])


def test_a_while_needs_its_do_and_a_truth_value(tmp_path: Path) -> None:
    text = DEALER.read_text()
    no_do = tmp_path / "no-do.yaml"
    no_do.write_text(re.sub(r"\n        do:\n          - move: \{from: stock, to: dealer, count: 1, face: up\}", "", text))
    with pytest.raises(RulesetError, match="do"):
        load_ruleset(no_do)
    number = tmp_path / "number.yaml"
    number.write_text(text.replace('- while: "sum(points(c) for c in cards(dealer)) < option.stand"',
                                   '- while: "sum(points(c) for c in cards(dealer))"'))
    with pytest.raises(RulesetError) as caught:
        load_ruleset(number)
    assert caught.value.pos is not None and caught.value.pos.line == text.splitlines().index(
        next(t for t in text.splitlines() if "- while:" in t)) + 1


def test_the_rules_in_words_say_the_loop() -> None:
    from cardrules.workbench.describe import describe

    items = [(block.text, block.level) for block in describe(DEALER).blocks if block.kind == "item"]
    loop = next(i for i, (text, _) in enumerate(items) if text.startswith("While the sum of"))
    assert items[loop][0].endswith("is less than 17, again and again:")
    assert items[loop + 1] == ("Move 1 card from the top of the stock to the dealer, face up.", items[loop][1] + 1)
