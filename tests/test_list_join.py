"""Lists joined with `+` (docs/language.md, "Lists"): `a + b` of two lists is a new list of a's
items then b's, in both backends; cards and cards give cards (walked, indexed, sliced, compared),
and `+` of a list and a number is an error at load, or in play where the kind is known only then.
"""

from __future__ import annotations

import random
from itertools import combinations
from pathlib import Path

import pytest
from cardrules import load_ruleset
from cardrules.base.errors import RulesetRuntimeError
from cardrules.front.compile_types import ANY, CARDS, LIST, CompileError, Scope
from cardrules.front.compiler import Compiler
from cardrules.front.parser import parse_expression
from cardrules.native import native_backend

STARTER = Path(__file__).parent / "fixtures" / "lists" / "starter.yaml"
SCOPE = Scope(zones={"a": ((0,), True, False), "b": ((1,), True, False)}, variables={"held": (0, ANY, False)})




def test_the_hand_joined_with_the_starter_is_counted_as_cribbage_counts_it() -> None:
    rules = load_ruleset(str(STARTER))
    game = rules.new_game(seed=4)
    S, cards = game.state, rules.deck.cards
    hand, starter = rules.zones["hand"].seat_piles[0][0], rules.zones["starter"].piles[0]
    game.apply(next(m for m in game.legal_moves() if m.name == "draw"))
    counted = S.piles[hand] + S.piles[starter]
    values = [min(cards[c]["rank"], 10) for c in counted]
    fifteens = sum(1 for k in range(2, 6) for s in combinations(values, k) if sum(s) == 15)
    nobs = sum(1 for c in S.piles[hand] if cards[c]["rank"] == 11 and cards[c]["suit"] == cards[counted[-1]]["suit"])
    game.apply(next(m for m in game.legal_moves() if m.name == "discard"))
    assert game.state.vars[0] == 2 * fifteens + nobs + 1  # (the hand joined after the starter: the list built)


@pytest.mark.parametrize("text,expected", [
    ("[1, 2] + [3]", (1, 2, 3)),  # (known at load: a list written out)
    ("[] + []", ()),
])
def test_lists_known_at_load_are_joined_at_load(text: str, expected: tuple[int, ...]) -> None:
    compiled = Compiler(SCOPE).compile(parse_expression(text))
    assert compiled.const and compiled.value == expected


def test_cards_and_cards_give_cards_and_other_lists_a_list() -> None:
    assert Compiler(SCOPE).compile(parse_expression("cards(a) + cards(b)")).type == CARDS
    assert Compiler(SCOPE).compile(parse_expression("cards(a) + [1]")).type == LIST
    assert Compiler(SCOPE).compile(parse_expression("held + [1]")).type == LIST  # (held checked to be a list)


@pytest.mark.parametrize("text", ["cards(a) + 1", "2 + [1]", "cards(a) + 'x'"])
def test_a_list_and_another_value_are_not_joined(text: str) -> None:
    with pytest.raises(CompileError, match="'\\+' joins two lists or adds two numbers"):
        Compiler(SCOPE).compile(parse_expression(text))


def _ruleset(tmp_path: Path, score: str, initial: str = "none") -> Path:
    path = tmp_path / "joined.yaml"
    path.write_text(f"""
ruleset: joined
players: 1
deck: standard-52
zones: {{stock: {{short: s}}, waste: {{short: w}}}}
variables: {{held: {{initial: "{initial}"}}}}
setup: [{{take_deck: stock}}, {{deal: {{from: stock, to: waste, counts: 3, face: up}}}}]
moves:
  draw: {{from: stock, to: waste, do: [{{move: {{face: up}}}}]}}
end: {{when: [{{if: "size(stock) < 47", result: over}}]}}
score: "{score}"
""", encoding="utf-8")
    return path


def test_joined_lists_compare_as_lists_built_never_as_lists_written_out(tmp_path: Path) -> None:
    # (a join is a list built, as list(...): equal to another built list of the same items, never to
    # a list written out, as in Python; known at load, [1] + [2] is written out)
    score = ("(1 if cards(waste)[:1] + cards(waste)[1:] == list(c for c in cards(waste)) else 0) * 100"
             " + (1 if list(x for x in [1]) + [2] == [1, 2] else 0) * 10 + (1 if [1] + [2] == [1, 2] else 0)")
    game = load_ruleset(_ruleset(tmp_path, score)).new_game(seed=1)
    assert game.scores() == [101]


def test_a_value_of_a_kind_known_in_play_that_is_not_a_list_is_an_error_there(tmp_path: Path) -> None:
    with pytest.raises(RulesetRuntimeError, match="a list was expected"):
        load_ruleset(_ruleset(tmp_path, "size(held + cards(waste))", initial="3")).new_game(seed=1).scores()


def test_a_function_adds_or_joins_its_parameters_as_the_arguments_are(tmp_path: Path) -> None:
    # A function's body is checked alone, its parameters of no known kind: `h + up` there is `+`
    # of two values known only in play (it was taken for numbers, and `size(...)` of it refused).
    path = _ruleset(tmp_path, "sizes(cards(waste), cards(stock)[:2]) * 100 + both(3, 4) + held", initial="5")
    path.write_text(path.read_text().replace("score:", 'functions: {"sizes(h, up)": "size(h + up)", '
                                                       '"both(h, up)": "h + up"}\nscore:'))
    rules = load_ruleset(path)
    game = rules.new_game(seed=1)
    assert game.scores() == [5 * 100 + 7 + 5]
    position = native_backend(rules).start(game)
    assert [position.score(0)] == game.scores()
    broken = _ruleset(tmp_path, "held + held", initial="none")
    with pytest.raises(RulesetRuntimeError, match="a number was expected, got none"):
        load_ruleset(broken).new_game(seed=1).scores()


def test_random_games_of_the_fixture_keep_every_card() -> None:
    rules = load_ruleset(str(STARTER))
    for seed in range(20):
        rng = random.Random(seed)
        game = rules.new_game(seed=seed)
        while not game.is_over:
            game.apply(rng.choice(game.legal_moves()))
        assert sorted(c for pile in game.state.piles for c in pile) == list(range(52))
        assert all(v >= 0 for v in game.state.vars)


def test_the_native_backend_joins_and_compares_alike(tmp_path: Path) -> None:
    score = ("(1 if cards(waste)[:1] + cards(waste)[1:] == list(c for c in cards(waste)) else 0) * 1000"
             " + (1 if list(x for x in [1]) + [2] == [1, 2] else 0) * 100 + sum(x for x in [] + list(c.rank for c in"
             " cards(waste)) + [5]) + size(cards(stock)[:2] + [] + cards(waste))")
    rules = load_ruleset(_ruleset(tmp_path, score))
    game = rules.new_game(seed=1)
    position = native_backend(rules).start(game)
    while not game.is_over:
        move = game.legal_moves()[0]
        game.apply(move)
        position.apply_code(native_backend(rules).code(move))
    assert position.is_over and [position.score(0)] == game.scores()
    assert game.scores()[0] > 1000


def test_the_rules_in_words_say_a_join_as_one_list_followed_by_the_other() -> None:
    from cardrules.workbench.describe import describe
    from cardrules.workbench.describe.document import render_markdown

    text = render_markdown(describe(str(STARTER)))
    assert "counted(p): the cards of p followed by the cards of the starter." in text
    assert "2 times the number of s" in text  # (numbers are still added: "plus", "times")
