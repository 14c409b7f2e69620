"""`Game.explain(text)`: why a move text is, or is not, a legal move now.

Klondike from explicit deals (the false part of `fits_tableau`, `fits_foundation`, `redeal`'s
`empty(stock)`, a run not face up, typos with "did you mean"); the checks before the conditions
(turn, phase, piles) on Ten Bucks; hidden cards never told (a test game whose conditions read cards
nobody sees, and Spades, Ten Bucks and Nerts against determinized copies); every bundled ruleset
and example; and `cardrules play` answering with the reason.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from cardrules import ArgumentError, CardrulesError, IllegalMoveError, load_ruleset
from cardrules.app.cli import app
from cardrules.python.engine import Game
from cardrules.python.explain import _Explainer
from cardrules.python.explain_texts import _pool
from cardrules.python.explanation import Explanation, Marked
from conftest import ROOT
from helpers import play
from test_klondike_rules import make_deal
from typer.testing import CliRunner

GUESS = str(ROOT / "tests" / "fixtures" / "explain" / "guess.yaml")
BUNDLED = sorted(str(p) for p in (ROOT / "rulesets").glob("*.yaml"))
EXAMPLES = sorted(str(p) for p in (ROOT / "examples").glob("**/*.yaml"))


def klondike() -> Game:
    """t1 a red 8, t2 a red 7 on top, t7 six cards face down under a 5; the stock's top is the 7H."""
    columns = [["8H"], [None, "7D"], [None, None, "2C"], [None, None, None, "3C"], [None] * 4 + ["4C"],
               [None] * 5 + ["KC"], [None] * 6 + ["5C"]]
    return load_ruleset("klondike").new_game(deal=make_deal(columns, stock=["7H", "9S"]))


def marks(explanation: Explanation) -> list[Marked]:
    return [mark for reason in explanation.reasons for mark in reason.marks]


def marked(mark: Marked) -> str:
    return mark.text[mark.start:mark.end]


# -- Klondike -------------------------------------------------------------------------------------

def test_a_red_seven_onto_a_red_eight_marks_the_colour_part_of_fits_tableau() -> None:
    game = klondike()
    why = game.explain("t2>t1")
    assert not why.legal
    assert [r.move for r in why.reasons] == ["tableau_to_tableau"]
    assert "Any face-up run" in why.reasons[0].help
    when, body = marks(why)
    assert (when.label, marked(when)) == ("when", "fits_tableau(card, dst)")
    assert body.label == "fits_tableau(c, t) with c = 7D, t = t1"
    assert marked(body) == "top(t).color != c.color"
    assert "top(t).color is 'red', c.color is 'red'" in body.note
    assert body.pos is not None and body.pos.path.endswith("klondike.yaml") and body.pos.line > 1
    text = str(why)
    assert text.startswith("'t2>t1' is not a legal move now:")
    caret = [line for line in text.splitlines() if "^^^" in line][-1]
    assert caret.index("^") == next(line for line in text.splitlines()
                                    if line.strip().startswith("c.rank == 13")).index("top(t).color")


def test_the_waste_s_red_seven_names_waste_to_tableau_and_the_colour_part() -> None:
    game = klondike()
    play(game, "draw")
    why = game.explain("w>t1")
    assert [r.move for r in why.reasons] == ["waste_to_tableau"]
    assert marked(marks(why)[-1]) == "top(t).color != c.color"


def test_a_card_not_an_ace_to_an_empty_foundation_marks_the_ace_rule() -> None:
    why = klondike().explain("t2>f1")
    assert [r.move for r in why.reasons] == ["to_foundation"]
    last = marks(why)[-1]
    assert marked(last) == "c.rank == 1"
    assert "c.rank is 7" in last.note and "empty(f) is true" in last.note


def test_redeal_with_cards_in_the_stock_marks_empty_stock() -> None:
    game = klondike()
    play(game, "draw")
    why = game.explain("redeal")
    (mark,) = marks(why)
    assert marked(mark) == "empty(stock)" and mark.text == "empty(stock) and may_redeal()"
    assert "its when condition is false" in why.reasons[0].why


def test_a_run_longer_than_the_face_up_cards_is_told_so() -> None:
    why = klondike().explain("t7x3>t1")
    assert why.reasons[0].why == "only the top card of t7 is face up, not 3"


def test_the_structural_checks_come_first() -> None:
    game = klondike()
    assert game.explain("w>t1").reasons[0].why == "w is empty"
    assert game.explain("t1>t1").reasons[0].why == "a move cannot put cards back on the pile they come from"


@pytest.mark.parametrize("typed, problem, suggested", [
    ("t3>f9", "there is no pile 'f9'", "t3>f"),
    ("drwa", "no move or pile is named 'drwa'", "draw"),
    ("t3>>f1", "there is no pile '>f1'", "t3>f1"),
])
def test_a_typo_gets_did_you_mean(typed: str, problem: str, suggested: str) -> None:
    why = klondike().explain(typed)
    assert not why.legal and not why.reasons
    assert why.problem.startswith(problem)
    assert any(s.startswith(suggested) for s in why.suggestions)
    assert "did you mean" in str(why)


def test_a_legal_move_is_said_to_be_legal() -> None:
    game = klondike()
    for move in game.legal_moves():
        for text in (move.text(), move.text(long=True).upper()):
            why = game.explain(f"  {text} ")
            assert why.legal and why.move == move and not why.reasons
            assert "is a legal move now" in str(why)


def test_a_move_name_alone_asks_for_its_piles() -> None:
    why = klondike().explain("to_foundation")
    assert why.problem.startswith("to_foundation is written with its piles")


def test_bad_arguments_raise_as_parse_move_does() -> None:
    game = klondike()
    with pytest.raises(IllegalMoveError, match="parse_move takes a move's text"):
        game.explain(5)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError):
        load_ruleset("ten-bucks").new_game(seed=1).explain("pass", seat=9)


def test_a_game_that_is_over_says_so() -> None:
    game = klondike()
    game.finish()
    why = game.explain("draw")
    assert not why.legal and why.problem.startswith("the game is over")


def test_a_rule_past_the_step_limit_while_explaining_is_a_ruleset_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from cardrules import RulesetRuntimeError
    from cardrules.front import runtime

    game = load_ruleset("ten-bucks").new_game(seed=1)
    game.legal_moves()
    monkeypatch.setattr(runtime, "MAX_STEPS", 3)  # `no_bill`'s when looks at every bill of the hand
    with pytest.raises(RulesetRuntimeError) as caught:
        game.explain("no_bill")
    assert caught.value.pos is not None


# -- the checks before the conditions, in a game of several seats -----------------------------------

def test_ten_bucks_tells_the_turn_and_the_phase() -> None:
    game = load_ruleset("ten-bucks").new_game(seed=1)
    assert game.phase == "play"
    move = game.legal_moves()[0]
    other = game.explain(move.text(), seat=1)
    assert other.reasons[0].why == "it is seat 1's turn to act, not seat 2's"
    phase = game.explain("pass")
    assert phase.reasons[0].why == "it is made in the claim phase of a turn; this is the play phase"
    theirs = game.explain("h@2:1>s1")
    assert theirs.reasons[0].why == "h@2 is not one of your piles (you are seat 1)"


# -- hidden cards ----------------------------------------------------------------------------------

def hidden_codes(game: Game, seat: int) -> set[str]:
    """The codes of the cards `seat` cannot see that it sees nowhere else (codes that are words:
    a code that is a number, a Ten Bucks bill, says nothing among the numbers of an explanation)."""
    codes = game.rules.deck.codes
    hidden = _Explainer(game, seat).hidden
    seen = {codes[c] for cards in game.state.piles for c in cards if c not in hidden}
    return {codes[c] for c in hidden if not codes[c].lstrip("-").isdigit()} - seen


def never_names(text: str, codes: set[str]) -> bool:
    return not any(re.search(rf"(?<![\w@]){re.escape(code)}(?!\w)", text) for code in codes)


def test_a_condition_on_a_card_nobody_sees_shows_no_value() -> None:
    game = load_ruleset(GUESS).new_game(seed=3, players=2)
    hand = game.view(0)["zones"]["hand"][0]
    secret = hidden_codes(game, 0)
    why = game.explain(f"pair:h@1:{hand[0]}>x")
    (mark,) = marks(why)
    assert marked(mark) == "next_top().rank == card.rank"
    assert mark.note == "is false (it reads a card you cannot see)"
    twin = game.explain(f"twin:h@1:{hand[0]}>x")
    call, body = marks(twin)
    assert marked(call) == "same(card, next_top())"
    assert body.label == f"same(c, d) with c = {hand[0]}, d = (not shown)"
    assert "is false (it reads a card you cannot see)" == body.note
    for text in (str(why), str(twin)):
        assert never_names(text, secret)
        assert "rank is" not in text  # no rank told


def test_the_visible_part_is_marked_when_it_is_false_whatever_the_hidden_part() -> None:
    game = load_ruleset(GUESS).new_game(seed=3, players=2)
    for _ in range(3):  # three cards on the table: `size(table) < 3` is false, and seen to be
        move = next(m for m in game.legal_moves() if m.name == "guess")
        game.apply(move)
        play(game, "wait")
    hand = game.view(0)["zones"]["hand"][0]
    why = game.explain(f"pair:h@1:{hand[0]}>x")
    (mark,) = marks(why)
    assert marked(mark) == "size(table) < 3" and "size(table) is 3" in mark.note


@pytest.mark.parametrize("name, players", [("spades", None), ("ten-bucks", 4), ("nerts", 3), (GUESS, 3)])
def test_an_explanation_is_the_same_whatever_the_cards_the_seat_cannot_see(name: str, players: int | None) -> None:
    rules = load_ruleset(name)
    rng = random.Random(7)
    compared = 0
    for seed in range(3):
        game = rules.new_game(seed=seed, players=players)
        for _ in range(25):
            if game.is_over:
                break
            seat = game.current_player
            secret = hidden_codes(game, seat)
            copy = game.determinize(seat, random.Random(seed))
            legal = {m.text() for m in game.legal_moves(seat)}
            pool = [t for t in _pool(game, seat, _Explainer(game, seat).hidden) if t not in legal]
            for text in rng.sample(pool, min(8, len(pool))):
                mine, theirs = game.explain(text, seat), copy.explain(text, seat)
                assert never_names(str(mine), secret), str(mine)
                if not theirs.legal:
                    assert [r.lines() for r in mine.reasons] == [r.lines() for r in theirs.reasons]
                    compared += 1
            game.apply(rng.choice(game.legal_moves()))
    assert compared > 20


# -- every ruleset -------------------------------------------------------------------------------

@pytest.mark.parametrize("path", BUNDLED + EXAMPLES, ids=lambda p: Path(p).stem)
def test_every_ruleset_explains_its_legal_moves_as_legal_and_the_others_without_crashing(path: str) -> None:
    try:
        rules = load_ruleset(path)
    except CardrulesError:
        pytest.skip("not a loadable ruleset alone")
    rng = random.Random(3)
    told = 0
    for seed in range(2):
        try:
            game = rules.new_game(seed=seed)
        except CardrulesError:
            pytest.skip("needs other setup")
        for _ in range(30):
            legal = game.legal_moves()
            if game.is_over or not legal:
                break
            seat = game.current_player
            for move in legal[:8]:
                assert game.explain(move.text(), seat).legal
            pool = _pool(game, seat, _Explainer(game, seat).hidden)
            for text in rng.sample(pool, min(10, len(pool))) + ["zz>t1", "x", "nonsense move"]:
                try:
                    why = game.explain(text, seat)
                except CardrulesError:
                    continue
                assert why.legal or why.problem or why.reasons
                for reason in why.reasons:
                    assert reason.why and "not among the legal moves" not in reason.why, (text, str(why))
                told += 1
            game.apply(rng.choice(legal))
    assert told


# -- the terminal --------------------------------------------------------------------------------

def run(*args: str, input: str | None = None):
    return CliRunner().invoke(app, list(args), input=input, env={"COLUMNS": "200"})


def test_play_answers_an_illegal_move_with_the_reason() -> None:
    result = run("play", "klondike", "--seed", "5", input="draw\nredeal\n")
    assert result.exit_code == 1
    err = result.stderr
    assert "<stdin>:2: 'redeal' is not a legal move now" in err
    assert "redeal: its when condition is false" in err
    assert "empty(stock) and may_redeal()" in err and "^^^^^^^^^^^^ is false" in err
    assert re.search(r"klondike\.yaml:\d+:\d+: when", err)
    assert len(err.strip().splitlines()) <= 8  # short on screen
    typo = run("play", "klondike", "--seed", "5", input="t3>f9\n")
    assert "there is no pile 'f9'" in typo.stderr and "did you mean t3>f" in typo.stderr


def test_play_in_real_time_answers_with_the_reason_too() -> None:
    result = run("play", "nerts", "--seed", "3", "--seat", "2=greedy", input="draw\nw9>f1\ndraw\n")
    assert result.exit_code == 1
    assert "<stdin>:2: 'w9>f1' is not a legal move now" in result.stderr
    assert "there is no pile 'w9'" in result.stderr
