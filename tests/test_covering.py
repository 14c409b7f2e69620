"""`covered_by`: piles that lie on one another. A pile on which a pile with cards lies is covered:
no move takes from it or puts onto it, and `covered(p)` says so in expressions.

The ruleset is examples/pyramid.yaml (Pyramid solitaire): 28 cards face up in seven rows, each
card covered by the two below it; free cards adding up to 13 are removed in pairs, Kings alone; the
stock turns one card at a time onto the waste, whose top card is free.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from cardrules import load_ruleset
from cardrules.python import render
from cardrules.workbench import solver
from cardrules.front.decks import load_deck
from cardrules.base.errors import RulesetError
from cardrules.base.resources import rulesets_dir
from cardrules.model.turn_runs import turn_runs
from helpers import play, play_both_backends, texts

PYRAMID = Path(__file__).parent.parent / "examples" / "pyramid.yaml"
ALL_CODES = list(load_deck(rulesets_dir() / "decks" / "standard-52.yaml").codes)


def _deal(pyramid: dict[int, str], stock: list[str] = ()) -> list[str]:  # type: ignore[assignment]
    """A deal: the named cards on pyramid piles (1-based, as the texts name them) and on top of
    the stock, the others anywhere else."""
    chosen = set(pyramid.values()) | set(stock)
    rest = iter(c for c in ALL_CODES if c not in chosen)
    order = [pyramid[p] if p in pyramid else next(rest) for p in range(1, 29)]
    return order + list(stock) + list(rest)


def _game(pyramid: dict[int, str], stock: list[str] = ()):  # type: ignore[no-untyped-def,assignment]
    return load_ruleset(str(PYRAMID)).new_game(deal=_deal(pyramid, stock))


def test_each_card_is_covered_by_the_two_cards_below_it() -> None:
    rules = load_ruleset(str(PYRAMID))
    first = rules.zones["pyramid"].piles[0]
    name = {p: rules.pile_names[p] for p in rules.zones["pyramid"].piles}
    covers = {name[p]: sorted((name[q] for q in rules.cover[p]), key=lambda n: int(n[1:]))
              for p in rules.zones["pyramid"].piles}
    assert covers["p1"] == ["p2", "p3"] and covers["p5"] == ["p8", "p9"] and covers["p16"] == ["p22", "p23"]
    assert all(covers[f"p{i}"] == [] for i in range(22, 29))  # the bottom row lies on nothing
    assert rules.cover[first - 1] == ()  # other zones: nothing covers their piles


def test_only_free_cards_can_be_removed_at_the_start() -> None:
    # Seed 1: the bottom row is Q♠ 7♥ 8♦ K♦ A♥ 9♥ J♣; K♥ (p6) and 10♣ + 3♣ (p2, p5) are covered.
    game = load_ruleset(str(PYRAMID)).new_game(seed=1)
    assert texts(game) == {"p25>d", "p22>p26", "draw"}


def test_a_card_is_free_once_both_cards_covering_it_are_gone() -> None:
    game = _game({22: "KS", 23: "KH", 16: "6C", 24: "7D"})
    assert "p16>p24" not in texts(game)
    play(game, "p22>d")  # one King gone: p23 still lies on p16
    assert "p16>p24" not in texts(game) and not any(t.startswith("p16") for t in texts(game))
    play(game, "p23>d")
    assert "p16>p24" in texts(game)
    play(game, "p16>p24")
    assert game.view(0)["zones"]["discard"] == ["KS", "KH", "6C", "7D"]


def test_a_covered_pile_is_no_destination() -> None:
    # The waste's 7♣ would pair with 6♣ on p16, which p22 and p23 still cover.
    game = _game({22: "KS", 23: "KH", 16: "6C"}, stock=["7C"])
    play(game, "draw")
    assert "w>p16" not in texts(game)
    play(game, "p22>d", "p23>d")
    assert "w>p16" in texts(game)


def test_a_card_may_not_pair_with_a_card_that_covers_it() -> None:
    game = _game({16: "6C", 22: "7H", 23: "2S"})  # 6♣ + 7♥ = 13, but 7♥ lies on 6♣
    assert not any("p16" in t for t in texts(game))


def test_covered_in_an_expression_says_whether_a_pile_lying_on_it_holds_a_card(tmp_path: Path) -> None:
    path = tmp_path / "pyramid.yaml"
    text = PYRAMID.read_text(encoding="utf-8")
    path.write_text(text.replace('score: "size(discard)"',
                                 'score: "count(p for p in pyramid if not empty(p) and not covered(p))"'),
                    encoding="utf-8")
    game = load_ruleset(str(path)).new_game(deal=_deal({22: "KS", 23: "KH"}))
    assert game.scores() == [7]  # the bottom row
    play(game, "p22>d")
    assert game.scores() == [6]  # p22 gone; p16 still lies under p23
    play(game, "p23>d")
    assert game.scores() == [6]  # p23 gone, p16 free


@pytest.mark.parametrize(("covered_by", "message"), [
    ('"[i + 1]"', r"covered_by gives pile 27 \[28\]: a list of other piles' indexes, 0 to 27"),
    ('"[i]"', r"covered_by gives pile 0 \[0\]"),
    ('"[(i + 1) % 28]"', r"covered_by goes round: p1 lies under p2 lies under .* lies under p28 lies under p1"),
    ('"[size(stock)]"', "covered_by reads only i, options and functions of them"),
    ('"i"', "list"),
])
def test_a_wrong_covered_by_is_refused_at_its_line(tmp_path: Path, covered_by: str, message: str) -> None:
    text = PYRAMID.read_text(encoding="utf-8")
    old = 'covered_by: "[i + row(i) + 1, i + row(i) + 2] if row(i) < 6 else []"'
    assert old in text
    path = tmp_path / "pyramid.yaml"
    path.write_text(text.replace(old, f"covered_by: {covered_by}"), encoding="utf-8")
    with pytest.raises(RulesetError, match=message) as caught:
        load_ruleset(str(path))
    assert caught.value.pos is not None and caught.value.pos.line == 37


def test_the_terminal_draws_the_pyramid_level_by_level_apex_first() -> None:
    game = load_ruleset(str(PYRAMID)).new_game(seed=1)
    lines = [line.plain.rstrip() for line in render.render_table(game).renderables if hasattr(line, "plain")]
    rows = [line for line in lines if line.lstrip().startswith("p")]
    assert [sum(1 for word in r.split() if word.startswith("p")) for r in rows] == [1, 2, 3, 4, 5, 6, 7]
    assert rows[0].strip() == "p1 J♠" and rows[-1].startswith("p22 Q♠")
    assert rows[0].index("p1") == rows[-1].index("p25")  # centred: the apex above the middle


def test_random_games_never_move_a_covered_card_and_keep_every_card() -> None:
    rules = load_ruleset(str(PYRAMID))
    pyramid = rules.zones["pyramid"].piles
    for seed in range(120):
        game = rules.new_game(seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            move = rng.choice(game.legal_moves())
            for pile in (move.src, move.dst):
                if pile in pyramid:
                    assert not any(game.state.piles[q] for q in rules.cover[pile]), (seed, str(move))
            game.apply(move)
        assert sorted(c for p in game.state.piles for c in p) == list(range(52))


def test_the_native_backend_lists_the_same_free_cards() -> None:
    rules = load_ruleset(str(PYRAMID))
    play_both_backends(rules, range(30))


def test_the_solver_wins_a_pyramid_and_keeps_its_pruning_of_stock_turns() -> None:
    # Turns of the stock touch no pyramid pile: the moves among the pyramid commute with them.
    rules = load_ruleset(str(PYRAMID), {"passes": 1})
    runs = turn_runs(rules)
    assert runs is not None and {rules.moves[t].name for t in runs.turns} == {"draw", "redeal"}
    result = solver.solve(rules, seed=7, thoughtful=True, timeout=60)
    assert result.answer == "solvable"
    game = rules.new_game(seed=7)
    for text in result.moves:
        game.apply(game.parse_move(text))
    assert game.outcome == "won"


COVERED_TURNS = """\
ruleset: covered-turns
deck: standard-52
zones:
  pack: {count: 2, short: k, covered_by: "[1] if i == 0 else []"}
  column: {count: 2, short: c}
  home: {short: h}
setup:
  - take_deck: pack[0]
  - deal: {from: "pack[0]", to: column, counts: 3, face: up}
moves:
  draw: {from: pack, to: pack, when: "src.index == 0 and dst.index == 1", do: [{move: {face: up}}]}
  redeal: {from: pack, take: all, to: pack, when: "src.index == 1 and dst.index == 0", do: [{move: {flip: true}}]}
  home: {from: column, to: home}
  build: {from: column, to: column}
"""


def test_turns_among_piles_that_cover_one_another_are_not_pruned(tmp_path: Path) -> None:
    # The stock and the waste are the two piles of one zone, the waste lying on the stock: a move
    # that empties the waste would free the stock, so the stock's turns are no turns to fold.
    # Without the covering they are (the columns' moves commuting with them).
    path = tmp_path / "covered-turns.yaml"
    for covered, turns in ((True, {"home", "build"}), (False, {"draw", "redeal"})):
        path.write_text(COVERED_TURNS if covered else COVERED_TURNS.replace(', covered_by: "[1] if i == 0 else []"', ""),
                        encoding="utf-8")
        rules = load_ruleset(str(path))
        runs = turn_runs(rules)
        assert runs is not None and {rules.moves[t].name for t in runs.turns} == turns
