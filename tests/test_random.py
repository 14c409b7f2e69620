"""`random` (docs/language.md, "Chance that is not a shuffle"): a variable set to an item of a list
drawn by chance, each alike likely; from the game's seed, replayed alike, taken back by undo, drawn
anew in a bot's imagined copy; both backends alike. tests/fixtures/chance/dice.yaml rolls a die,
draws a passing direction at the deal, a word and a card of the stock."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from cardrules import RulesetError, RulesetRuntimeError, load_ruleset

from helpers import play_both_backends, refuses_unkept_seeds

DICE = Path(__file__).parent / "fixtures" / "chance" / "dice.yaml"
TEXT = DICE.read_text()


def rolls(game) -> list[int]:  # type: ignore[no-untyped-def]
    """Play the game out, the first legal move each time; the die after each roll."""
    seen = []
    while not game.is_over:
        game.apply(game.legal_moves()[0])
        seen.append(game.variable("die"))
    return seen


def test_each_item_comes_alike_likely() -> None:
    rules = load_ruleset(DICE)
    faces: Counter[int] = Counter()
    directions: Counter[int] = Counter()
    words: Counter[str] = Counter()
    for seed in range(400):
        game = rules.new_game(seed=seed)
        directions[game.variable("direction")] += 1  # drawn at the deal
        faces.update(rolls(game))
        words[game.variable("word")] += 1
    assert set(faces) == set(range(1, 7)) and set(directions) == {0, 1, 2, 3}
    assert set(words) == {"left", "right", "across", "keep"}
    # 4,000 rolls: each face within 4 standard deviations of 1/6 (fixed seeds: the same counts each run)
    assert all(abs(count - 4000 / 6) < 4 * (4000 * 5 / 36) ** 0.5 for count in faces.values()), faces
    assert all(abs(count - 100) < 4 * (400 * 3 / 16) ** 0.5 for count in directions.values()), directions


def test_the_rules_act_on_the_value_drawn() -> None:
    rules = load_ruleset(DICE)
    for seed in range(50):
        game = rules.new_game(seed=seed)
        points = [0, 0]
        while not game.is_over:
            seat = game.current_player
            game.apply(game.legal_moves()[0])
            die = game.variable("die")
            points[seat] += die
            if die == 6:
                points[seat] *= 2
            held = game.variable("held")
            assert held in game.state.piles[rules.zones["stock"].piles[0]]  # a card of the stock, left there
        assert game.scores() == points


def test_a_game_replays_its_draws_from_its_seed_and_undo_takes_a_draw_back() -> None:
    rules = load_ruleset(DICE)
    assert rolls(rules.new_game(seed=7)) == rolls(rules.new_game(seed=7))
    assert len({tuple(rolls(rules.new_game(seed=s))) for s in range(10)}) == 10
    game = rules.new_game(seed=3)
    game.apply(game.legal_moves()[0])
    first = game.variable("die"), game.variable("word"), game.variable("held")
    game.undo()
    assert game.variable("die") == 0
    game.apply(game.legal_moves()[0])
    assert (game.variable("die"), game.variable("word"), game.variable("held")) == first


def test_a_bots_imagined_copy_draws_anew() -> None:
    game = load_ruleset(DICE).new_game(seed=3)
    drawn = set()
    for i in range(12):
        copy = game.determinize(0, random.Random(i))
        copy.apply(copy.legal_moves()[0])
        drawn.add(copy.variable("die"))
    assert len(drawn) > 1


def test_both_backends_draw_alike() -> None:
    games = play_both_backends(load_ruleset(DICE), range(1, 6), players=(1, 2, 3))
    assert all(game.is_over for game in games)


@pytest.mark.parametrize("items, message", [("[]", "no items to draw from"),
                                            ("list(none if x > 0 else 1 for x in [1, 2])", "not a number")])
def test_a_draw_with_nothing_fit_to_draw_is_a_run_time_error_in_both_backends(tmp_path: Path, items: str,
                                                                              message: str) -> None:
    from cardrules.native import NativeStop, native_backend

    path = tmp_path / "dice.yaml"
    path.write_text(TEXT.replace('random: {die: "range(1, 7)"}', f'random: {{die: "{items}"}}'))
    rules = load_ruleset(path)
    game = rules.new_game(seed=1)
    with pytest.raises(RulesetRuntimeError, match=message) as caught:
        game.apply(game.legal_moves()[0])
    assert caught.value.pos is not None and caught.value.pos.line == TEXT.splitlines().index(
        next(line for line in TEXT.splitlines() if "random: {die:" in line)) + 1
    position = native_backend(rules).start(rules.new_game(seed=1))
    with pytest.raises(NativeStop):
        position.apply_code(position.legal_codes()[0])


def test_a_draw_needs_a_list_and_the_solver_refuses_it_in_play(tmp_path: Path) -> None:
    path = tmp_path / "dice.yaml"
    path.write_text(TEXT.replace('random: {die: "range(1, 7)"}', 'random: {die: "6"}'))
    with pytest.raises(RulesetError, match="expected a list"):
        load_ruleset(path)
    assert load_ruleset(DICE).shuffles_in_play is not None


def test_compiled_code_does_not_start_a_game_whose_seed_it_cannot_keep() -> None:
    # a ruleset that draws in play, as one that shuffles (tests/test_native_deal.py)
    refuses_unkept_seeds(load_ruleset(DICE))
