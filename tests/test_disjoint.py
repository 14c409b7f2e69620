"""`disjoint(groups)` (docs/language.md, "Builtins"): every choice of groups no two of which share an
item, fewer groups first; enough to find Gin Rummy's melds with the least deadwood
(tests/fixtures/melds/deadwood.yaml), bounded by the step budget, errors at their place."""

from __future__ import annotations

import random
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

from cardrules import RulesetError, RulesetRuntimeError, load_ruleset
from cardrules.native import native_backend

from helpers import VALUES, pile_ids, play_both_backends, value_of

DEADWOOD = Path(__file__).parent / "fixtures" / "melds" / "deadwood.yaml"
DECK = [rank + suit for suit in "CDHS" for rank in "A23456789TJQK"]

@pytest.mark.parametrize("expr, value", [
    ("size(disjoint([]))", 1),                                   # the empty choice only
    ("size(disjoint([[1, 2], [2, 3], [4], [1, 5]]))", 10),
    ("size(disjoint([[1, 2], [2, 3], [4], [1, 5]])[9])", 3),     # [2, 3], [4], [1, 5]: the largest last
    ("disjoint([[1, 2], [2, 3], [4], [1, 5]])[9][2][1]", 5),
    ("disjoint([[1, 2], [2, 3], [4], [1, 5]])[5][1][0]", 4),     # [1, 2], [4]: the first pair of groups
    ("size(disjoint([[7], [7], [7]]))", 4),                      # equal groups share their items
    ("count(p for p in disjoint(list([i] for i in range(10))) if size(p) == 5)", 252),
    ("sum(size(p) for p in disjoint([[1], [2, 1], [3]]))", 7),   # [], [1], [2 1], [3], [1] [3], [2 1] [3]
])
def test_every_choice_of_groups_that_share_no_item_fewer_first(tmp_path: Path, expr: str, value: Any) -> None:
    assert value_of(tmp_path, expr) == value


def deadwood(codes: list[str]) -> int:
    """The least deadwood of a hand, by trying every way to split it into melds and the rest."""
    rank = {c: "A23456789TJQK".index(c[0]) + 1 for c in DECK}

    def meld(group: tuple[str, ...]) -> bool:
        ranks = sorted(rank[c] for c in group)
        same_rank = len(group) <= 4 and len(set(ranks)) == 1
        run = len({c[1] for c in group}) == 1 and ranks == list(range(ranks[0], ranks[0] + len(group)))
        return len(group) >= 3 and (same_rank or run)

    def best(cards: tuple[str, ...]) -> int:
        if not cards:
            return 0
        first, rest = cards[0], cards[1:]
        least = min(rank[first], 10) + best(rest)  # the first card left out of every meld
        for size in range(2, len(rest) + 1):
            for others in combinations(rest, size):
                if meld((first, *others)):
                    least = min(least, best(tuple(c for c in rest if c not in others)))
        return least

    return best(tuple(codes))


def test_the_melds_chosen_leave_the_least_deadwood() -> None:
    rules = load_ruleset(DEADWOOD)
    # 4 5 6 7 of hearts and two more sevens: the run 4-5-6 and the sevens (0), not the run to 7 (14)
    hand = ["4H", "5H", "6H", "7H", "7C", "7D", "KS", "QS", "2C", "9D"]
    assert deadwood(hand) == 10 + 10 + 2 + 9
    game = rules.new_game(deal=[c for k in range(10) for c in (hand[k], DECK[40 + k])] + [
        c for c in DECK if c not in hand and c not in DECK[40:50]], players=2)
    assert sorted(rules.deck.codes[c] for c in pile_ids(game, "hand", 0)) == sorted(hand)
    assert game.scores()[0] == 31
    for seed in range(40):  # random hands of ten, counted both ways
        game = rules.new_game(seed=seed, players=1)
        codes = [rules.deck.codes[c] for c in pile_ids(game, "hand", 0)]
        assert game.scores() == [deadwood(codes)], codes


def test_random_games_end_with_each_seat_s_least_deadwood() -> None:
    rules = load_ruleset(DEADWOOD)
    for seed in range(6):
        game = rules.new_game(seed=seed, players=3)
        rng = random.Random(seed)
        while not game.is_over:
            game.apply(rng.choice(game.legal_moves()))
        hands = [[rules.deck.codes[c] for c in pile_ids(game, "hand", s)] for s in range(3)]
        assert game.scores() == [deadwood(h) for h in hands]
        assert game.winners() == [s for s in range(3) if game.scores()[s] == min(game.scores())]


def test_groups_that_are_not_lists_are_errors_at_their_place(tmp_path: Path) -> None:
    with pytest.raises(RulesetError, match="expected a list, got a number") as caught:
        value_of(tmp_path, "size(disjoint(3))")
    pos = caught.value.pos
    assert pos is not None
    line = (tmp_path / "values.yaml").read_text().splitlines()[pos.line - 1]
    assert "disjoint(3)" in line and line[pos.col - 1:].startswith("3))")
    with pytest.raises(RulesetRuntimeError, match="a list was expected, got 3"):
        value_of(tmp_path, "size(disjoint([[1], 3]))")


def test_too_many_choices_are_over_the_step_limit(tmp_path: Path) -> None:
    with pytest.raises(RulesetRuntimeError, match="steps"):
        value_of(tmp_path, "size(disjoint(list([i] for i in range(40))))")  # 2**40 choices


def test_the_rules_in_words_say_disjoint() -> None:
    from cardrules.workbench.describe import describe

    text = "\n".join(block.text for block in describe(DEADWOOD).blocks)
    assert "for every p in the choices among melds(h) of groups no two of which share an item" in text


def test_both_backends_count_deadwood_alike() -> None:
    rules = load_ruleset(DEADWOOD)
    games = play_both_backends(rules, range(3), players=(1, 3))
    assert all(game.is_over for game in games)
    backend = native_backend(rules)
    for seed in range(20):
        game = rules.new_game(seed=seed, players=1)
        assert [backend.start(game).score(0)] == game.scores()


NATIVE_CASES = [
    "size(disjoint(list(s for s in subsets(cards(stock)[:6], 2) if s[0].rank + s[1].rank > 12)))",
    "sum(size(p) * 10 + count(m for m in p) for p in disjoint(list(s for s in subsets(cards(stock)[:5], 1, 2))))",
    "max(sum(size(m) for m in p) for p in disjoint(list(s for s in subsets(cards(stock)[-7:], 3) "
    "if s[0].suit == s[2].suit or s[0].rank < s[1].rank)))",
    "size(disjoint(list(s for s in subsets(cards(stock)[:0], 1))))",
    "count(m for m in list(s for s in subsets(cards(stock)[:6], 2, 3) if s[0].rank > 6))",
]


def test_the_native_backend_gives_the_choices_python_gives(tmp_path: Path) -> None:
    # (one ruleset for all the cases, x0 to x4, so that it compiles once)
    path = tmp_path / "values.yaml"
    text = VALUES.replace("  x: {initial: VALUE}\n", "".join(f"  x{i}: {{initial: 0}}\n" for i in range(len(NATIVE_CASES))))
    path.write_text(text.replace("x: \"EXPR\"", ", ".join(f"x{i}: \"{e}\"" for i, e in enumerate(NATIVE_CASES))))
    rules = load_ruleset(path)
    games = play_both_backends(rules, range(4))  # (every x compared after the move, in each game)
    assert all(game.variable("done") for game in games)
    assert len({game.variable("x0") for game in games}) > 1  # (the deal decides: not a constant)
