"""`cardrules rules RULESET`: the rules in words (interpreter/workbench/describe.py).

Every bundled ruleset and example prints in full; a few renderings are checked word for word;
each kind of expression node, and each builtin, has a small case of its own.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from cardrules.front import parser
from cardrules.app.cli import app
from cardrules.front.compiler import _BUILTIN_NAMES
from cardrules.workbench.describe import (
    Book,
    Speaker,
    Term,
    describe,
    render_markdown,
    render_text,
    simplify,
)
from cardrules.workbench.describe.speaker_base import INLINE_NODES
from cardrules.workbench.describe.vocabulary import ZoneInfo
from cardrules.base.errors import RulesetError
from cardrules.front.parser import Node, parse_expression
from cardrules.front.source import FileAccess, load_document
from cardrules.front.variants import resolve_extends
from conftest import ROOT, RULESETS
from typer.testing import CliRunner

BUNDLED = sorted(RULESETS.glob("*.yaml"))
EXAMPLES = sorted((ROOT / "examples").glob("*.yaml"))


def flat(text: str) -> str:
    """Text with its wrapping undone (runs of white space as one space)."""
    return " ".join(text.split())


def merged(path: Path) -> dict[str, Any]:
    doc = resolve_extends(load_document(path), path, FileAccess.for_ruleset(path))
    data = doc.data
    assert isinstance(data, dict)
    return data


def rules_of(name: str | Path, fold: bool = True, **options: Any) -> str:
    return render_text(describe(name, options or None, fold=fold), 100)


def block(text: str, move: str) -> str:
    """The lines of one move's entry (from `- NAME:` to the next move), unwrapped."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"- {move}:") or line == f"- {move}")
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("- ") or not lines[i].strip()),
               len(lines))
    return flat("\n".join(lines[start:end]))


# -- every bundled ruleset and example --------------------------------------------------------

@pytest.mark.parametrize("path", BUNDLED + EXAMPLES, ids=lambda p: p.name)
def test_every_ruleset_prints_every_move_help_trigger_and_end_reason(path: Path) -> None:
    data = merged(path)
    for fold in (True, False):
        document = describe(path, fold=fold)
        text = flat(render_text(document, 80))
        lowered = text.lower()
        assert text.startswith(flat(document.title))
        for name, spec in (data.get("moves") or {}).items():
            assert f"- {name}" in text, name
            if spec.get("help"):
                assert flat(spec["help"]) in text, (name, spec["help"])
        for i, trigger in enumerate(data.get("triggers") or ()):
            assert flat(trigger.get("name") or f"trigger {i + 1}").lower() in lowered
        end = data.get("end") or {}
        reasons = [rule.get("reason") for rule in end.get("when") or ()]
        reasons += [(end.get(key) or {}).get("reason") for key in ("cycle", "no_moves", "repeat")]
        for reason in filter(None, reasons):
            assert flat(reason) in text, reason
        assert "Score" in text and "End of the game" in text
        markdown = render_markdown(document)
        assert markdown.startswith(f"# {document.title}")


@pytest.mark.parametrize("path", BUNDLED + EXAMPLES, ids=lambda p: p.name)
def test_no_expression_of_a_bundled_ruleset_falls_back_to_its_text(path: Path) -> None:
    """Backticks mark an expression shown as written; the bundled rulesets need none (a backtick
    in a help text or description is the author's)."""
    data = merged(path)
    written = flat(" ".join(str(v) for v in _strings(data) if "`" in str(v)))
    text = flat(rules_of(path))
    assert text.count("`") == written.count("`")


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def test_the_wrapped_text_keeps_to_its_width() -> None:
    for width in (80, 60):
        text = render_text(describe("klondike"), width)
        assert max(len(line) for line in text.splitlines()) <= width


# -- specific renderings --------------------------------------------------------------------

def test_klondike_tableau_moves_speak_of_colour_and_rank() -> None:
    text = rules_of("klondike")
    move = block(text, "tableau_to_tableau")
    assert "Any face-up run of a column onto another column." in move
    assert ("Legal when the card's rank is 13 if the destination pile is empty, otherwise both the color of the "
            "top card of the destination pile is not the card's color and the rank of the top card of the "
            "destination pile is the card's rank plus 1.") in move
    assert "any face-up run from its top" in move
    # the function is also described on its own, with its parameters
    assert ("fits_tableau(c, t): c's rank is 13 if t is empty, otherwise both the color of the top card of t is "
            "not c's color and the rank of the top card of t is c's rank plus 1.") in flat(text)


def test_klondike_foundation_move_is_its_function_written_out_for_the_foundation() -> None:
    move = block(rules_of("klondike"), "to_foundation")
    assert ("Legal when the card's rank is 1 if the foundation pile is empty, otherwise both the suit of the top "
            "card of the foundation pile is the card's suit and the rank of the top card of the foundation pile "
            "plus 1 is the card's rank.") in move
    assert "From the waste or a tableau pile: its top card" in move
    assert "Add 10 to score." in move


def test_redeal_needs_the_stock_empty_and_vegas_limits_the_passes() -> None:
    assert "Legal when the stock is empty." in block(rules_of("klondike"), "redeal")
    # the variant prints its merged rules: Vegas scoring, one pass with draw 1
    vegas = rules_of("klondike-vegas")
    assert "Legal when the stock is empty and passes is less than 1." in block(vegas, "redeal")
    assert "score (shown as \"Score\"; shown): starts at -52." in flat(vegas)
    assert "Take 5 from score." in block(vegas, "foundation_to_tableau")


def test_klondike_draw_three_folds_the_option_into_the_draw() -> None:
    draw = block(rules_of("klondike", draw=3), "draw")
    assert "as many cards from its top as the smaller of 3 and the number of cards in the stock" in draw
    assert "the smaller of 1 and" in block(rules_of("klondike"), "draw")
    assert "draw (1, 3; chosen: 3; default 1)." in flat(rules_of("klondike", draw=3))
    unfolded = rules_of("klondike", fold=False, draw=3)
    assert "the smaller of the draw option and the number of cards in the stock" in block(unfolded, "draw")
    assert "the scoring option is not \"vegas\", or passes is less than (1 if the draw option is 1, otherwise 3)" \
        in block(unfolded, "redeal")


def test_klondike_setup_deals_one_to_seven_and_turns_the_tops_up() -> None:
    text = flat(rules_of("klondike"))
    assert "Put the whole deck, shuffled, face down on the stock." in text
    assert ("Deal from the stock to the 7 tableau piles, one card at a time, row by row, face down: 1, 2, 3, 4, 5, "
            "6, 7 cards (i plus 1 for pile i).") in text
    assert "For each p in the tableau piles: - Turn the top card of p face up." in text


def test_klondike_end_lists_each_way_a_game_ends() -> None:
    text = flat(rules_of("klondike"))
    assert ('Won ("all 52 cards are on the foundations") when the number of cards in f is 13 for every f in the '
            "foundation piles.") in text
    assert 'Lost ("a whole cycle through the stock offered no move but turning it") when draw and redeal alone' in text
    assert 'Lost ("no move is possible") when no move is possible.' in text
    assert "Stopped (result: limit) after 2,000 moves." in text
    assert ("Turn up exposed cards (after to_foundation or tableau_to_tableau): - For each p in the tableau piles "
            "such that p is not empty and the top card of p is not face up:") in text


def test_where_a_seat_with_no_move_passes_only_a_table_where_no_seat_can_move_ends_the_game() -> None:
    text = flat(rules_of("crazy-eights"))
    assert 'A seat with no legal move passes' in text
    assert 'Lost ("no move is possible") when no seat can move (the default).' in text
    assert "when no move is possible" not in text


def test_cumulative_vegas_adds_the_score_to_the_balance_at_the_end() -> None:
    text = flat(rules_of("klondike-vegas-cumulative"))
    assert "When the game ends, however it ends: - Add score to balance." in text
    assert "When the game ends" not in flat(rules_of("klondike"))  # the branch folds away


def test_multi_seat_rulesets_speak_of_seats_phases_and_winners() -> None:
    text = flat(rules_of("ten-bucks"))
    assert "Players: 2 to 6 players (default 4)." in text
    assert "Phase force (passed over when it offers no move)." in text
    assert "Only in the claim or forced phase." in text
    assert "The winners are the list of p for every p in the seats such that p's money is at least 10." in text
    assert "Legal when value(the stack pile) is one of the card's values." in block(rules_of("ten-bucks"), "play")
    spades = flat(rules_of("spades"))
    assert "Teams (North-South and East-West): each seat's team is the seat modulo 2" in spades
    assert "It also names" in spades


# -- node kinds, one by one -----------------------------------------------------------------

@pytest.fixture
def speaker() -> Speaker:
    functions = {
        "fits": (("c", "t"), parse_expression("c.rank == 13 if empty(t) else top(t).rank == c.rank + 1")),
        "half": (("x",), parse_expression("x / 2")),
        "always": ((), parse_expression("option.draw == 3")),
    }
    book = Book(
        options={"draw": 3, "autoplay": True},
        zones={"stock": ZoneInfo("stock", "stock", True, False, 1),
               "tableau": ZoneInfo("tableau", "tableau", False, False, 7),
               "tier": ZoneInfo("tier", "tiers", False, False, 3),
               "hand": ZoneInfo("hand", "hand", True, True, 1)},
        variables={"passes": False, "money": True},
        functions=functions,
        teams=True,
        flags=frozenset({"autoplay"}),
    )
    names = {"card": Term("the card", "card"), "cards": Term("the moved cards", "cards"),
             "src": Term("the source pile", "pile"), "dst": Term("the destination pile", "pile"),
             "n": Term("the number of cards moved", "number"), "player": Term("the player", "seat")}
    return Speaker(book, names)


def say(speaker: Speaker, text: str, fold: bool = True) -> str:
    speaker.book.fold = fold
    return speaker.say(simplify(parse_expression(text), speaker.book))


@pytest.mark.parametrize("text, words", [
    ("13", "13"), ("'vegas'", '"vegas"'), ("true", "true"), ("false", "false"), ("none", "none"),
])
def test_constants(speaker: Speaker, text: str, words: str) -> None:
    assert say(speaker, text) == words


@pytest.mark.parametrize("text, words", [
    ("card", "the card"), ("passes", "passes"), ("money", "the player's money"), ("stock", "the stock"),
    ("tableau", "the tableau piles"), ("tier", "the tiers"), ("players", "the number of players"),
    ("seats", "the seats"), ("direction", "the direction of play (1 or -1)"), ("phase", "the phase"),
    ("hand", "the player's hand"),
])
def test_names(speaker: Speaker, text: str, words: str) -> None:
    assert say(speaker, text) == words


@pytest.mark.parametrize("text, words", [
    ("card.rank", "the card's rank"), ("top(dst).suit", "the suit of the top card of the destination pile"),
    ("card.face_up", "the card is face up"), ("not top(src).face_up", "the top card of the source pile is not face up"),
    ("dst.index", "the destination pile's index"), ("src.zone", "the source pile's zone"),
    ("dst.owner", "the destination pile's seat"), ("card.color_name", "the card's color name"),
])
def test_attributes(speaker: Speaker, text: str, words: str) -> None:
    assert say(speaker, text) == words


def test_options_fold_to_the_chosen_values_or_are_named(speaker: Speaker) -> None:
    assert say(speaker, "option.draw") == "3"
    assert say(speaker, "option.draw", fold=False) == "the draw option"
    assert say(speaker, "option.autoplay", fold=False) == "the autoplay option is on"
    assert say(speaker, "not option.autoplay", fold=False) == "the autoplay option is off"
    assert say(speaker, "min(option.draw, size(src))") == "the smaller of 3 and the number of cards in the source pile"


@pytest.mark.parametrize("text, words", [
    ("tableau[0]", "the first tableau pile"), ("tier[2]", "the third tier"),
    # an ordinal, never a pile number that could be read 1-based beside the 0-based ones (`clock[12]`)
    ("tableau[12]", "the 13th tableau pile"), ("tableau[20]", "the 21st tableau pile"),
    ("tableau[11]", "the 12th tableau pile"), ("top(tableau[0]).rank", "the rank of the top card of the first tableau pile"),
    ("cards(src)[-1]", "the first card from the top of the cards of the source pile"),
    ("src[0]", "the first card from the bottom of the source pile"),
    ("seats[1]", "the second seat of the seats"), ("[1, 2][-1]", "the last item of the list of 1 and 2"),
    ("[1, 2][-2]", "the second-to-last item of the list of 1 and 2"),
    ("tableau[passes]", "pile number passes of the tableau piles"),
])
def test_indexes(speaker: Speaker, text: str, words: str) -> None:
    assert say(speaker, text) == words


@pytest.mark.parametrize("text, words", [
    ("cards(src)[-3:]", "the last 3 cards of the cards of the source pile"),
    ("tableau[1:]", "the piles of the tableau piles but the first 1"),
    ("cards(src)[:2]", "the first 2 cards of the cards of the source pile"),
    ("cards(src)[:-2]", "the cards of the cards of the source pile but the last 2"),
    ("[1, 2, 3][passes:n]", ("the items of the list of 1, 2 and 3 from position passes up to, not including, "
                            "position the number of cards moved")),
    ("cards(src)[:]", "all the cards of the cards of the source pile"),
])
def test_slices(speaker: Speaker, text: str, words: str) -> None:
    assert say(speaker, text) == words


@pytest.mark.parametrize("text, words", [
    ("size(src)", "the number of cards in the source pile"), ("size(tableau)", "the number of piles in the tableau piles"),
    ("empty(dst)", "the destination pile is empty"), ("not empty(dst)", "the destination pile is not empty"),
    ("top(src)", "the top card of the source pile"), ("bottom(src)", "the bottom card of the source pile"),
    ("cards(src)", "the cards of the source pile"), ("run(src)", "the face-up cards on top of the source pile"),
    ("min(n, passes)", "the smaller of the number of cards moved and passes"),
    ("max(n, passes, 2)", "the greatest of the number of cards moved, passes and 2"),
    ("max([n, passes])", "the greatest of the list of the number of cards moved and passes"),
    ("sum([n, 1])", "the sum of the list of the number of cards moved and 1"),
    ("count(tableau)", "the number of items in the tableau piles"),
    ("all([true, empty(src)])", "every item of the list of true and the source pile is empty is true"),
    ("any([empty(src)])", "some item of the list of the source pile is empty is true"),
    ("abs(n - 5)", "the absolute value of the number of cards moved minus 5"),
    ("range(4)", "the numbers from 0 to 3"), ("range(1, 11)", "the numbers from 1 to 10"),
    ("range(n)", "the numbers from 0 to the number of cards moved minus 1"),
    ("of(hand, 2)", "seat 2's hand"), ("of(money, player)", "the player's money"),
    ("covered(dst)", "the destination pile is covered"), ("not covered(dst)", "the destination pile is not covered"),
    ("team(player)", "the player's team"), ("legal_moves()", "the names of the moves legal now"),
])
def test_builtins(speaker: Speaker, text: str, words: str) -> None:
    assert say(speaker, text) == words


def test_every_builtin_of_the_compiler_has_words(speaker: Speaker) -> None:
    calls = {"size": "size(src)", "empty": "empty(src)", "top": "top(src)", "bottom": "bottom(src)",
             "cards": "cards(src)", "run": "run(src)", "min": "min(1, n)", "max": "max(1, n)", "sum": "sum([n])",
             "count": "count([n])", "all": "all([true])", "any": "any([true])", "abs": "abs(n)",
             "pairs": "all(a.rank == b.rank for a, b in pairs(cards))", "of": "of(hand, n)",
             "legal_moves": "legal_moves()", "range": "range(n)", "covered": "covered(src)",
             "subsets": "count(s for s in subsets(cards(src), 2) if size(s) == n)", "sorted": "sorted([n, 1])",
             "unique": "unique(cards(src))", "index": "index(cards(src), card)",
             "disjoint": "size(disjoint([[n], [1, n]]))"}
    assert set(calls) == set(_BUILTIN_NAMES)
    for name, text in calls.items():
        words = say(speaker, text)
        assert "`" not in words and f"{name}(" not in words, (name, words)


@pytest.mark.parametrize("text, words", [
    ("all(size(t) == 0 for t in tableau)", "the number of cards in t is 0 for every t in the tableau piles"),
    ("not all(empty(t) for t in tableau)", "not t is empty for every t in the tableau piles"),
    ("any(empty(t) for t in tableau if t != dst)",
     "t is empty for some t in the tableau piles such that t is not the destination pile"),
    ("not any(empty(t) for t in tableau)", "t is empty for no t in the tableau piles"),
    ("count(c for c in cards(src) if c.face_up)", "the number of c in the cards of the source pile such that c is face up"),
    ("count(c.face_up for c in cards(src))", "the number of c in the cards of the source pile for which c is face up"),
    ("count(t for t in tableau if empty(t)) >= 2", "at least 2 t in the tableau piles are such that t is empty"),
    ("sum(size(t) for t in tableau)", "the sum of the number of cards in t for every t in the tableau piles"),
    ("min(c.rank for c in cards(src))", "the least c's rank for every c in the cards of the source pile"),
    ("max(c.rank for c in cards(src))", "the greatest c's rank for every c in the cards of the source pile"),
    ("argmin(size(t) for t in tableau)", ("the t in the tableau piles with the least the number of cards in t "
                                         "(the first on a tie)")),
    ("argmax(s for s in seats)", "the s in the seats with the greatest s (the first on a tie)"),
    ("list(t for t in tableau if empty(t))", "the list of t for every t in the tableau piles such that t is empty"),
    ("all(a.rank == b.rank + 1 for a, b in pairs(cards))",
     "a's rank is b's rank plus 1 for each neighbouring pair a and b of the moved cards"),
])
def test_comprehensions(speaker: Speaker, text: str, words: str) -> None:
    assert say(speaker, text) == words


@pytest.mark.parametrize("text, words", [
    ("not passes", "not passes"), ("-n", "minus the number of cards moved"), ("-(5)", "-5"),
    ("not (n == 1)", "the number of cards moved is not 1"),
    ("not (empty(src) or empty(dst))", "neither the source pile is empty nor the destination pile is empty"),
    ("not (empty(src) and empty(dst))", "not both the source pile is empty and the destination pile is empty"),
])
def test_unary(speaker: Speaker, text: str, words: str) -> None:
    assert say(speaker, text) == words


@pytest.mark.parametrize("text, words", [
    ("n + 1", "the number of cards moved plus 1"), ("n - 1", "the number of cards moved minus 1"),
    ("n * 2", "the number of cards moved times 2"), ("n / 2", "the number of cards moved divided by (rounded down) 2"),
    ("n % 2", "the number of cards moved modulo 2"), ("2 ** n", "2 to the power of the number of cards moved"),
    ("(n + 1) * 2", "(the number of cards moved plus 1) times 2"), ("n - (passes - 1)", ("the number of cards moved "
                                                                                         "minus (passes minus 1)")),
    ("n == 1", "the number of cards moved is 1"), ("n != 1", "the number of cards moved is not 1"),
    ("n < 1", "the number of cards moved is less than 1"), ("n <= 1", "the number of cards moved is at most 1"),
    ("n > 1", "the number of cards moved is more than 1"), ("n >= 1", "the number of cards moved is at least 1"),
    ("3 <= n", "the number of cards moved is at least 3"), ("empty(src) == false", "the source pile is not empty"),
    ("card.kind in ['ace', 'crown']", 'the card\'s kind is "ace" or "crown"'),
    ("card.kind not in ['ace', 'crown']", 'the card\'s kind is neither "ace" nor "crown"'),
    ("n in range(1, 4)", "the number of cards moved is a number from 1 to 3"),
    ("'a' in card.kind", '"a" is one of the card\'s kind'),
    ("empty(src) and n == 1", "the source pile is empty and the number of cards moved is 1"),
    ("empty(src) or n == 1 or passes", "the source pile is empty or the number of cards moved is 1 or passes"),
    ("(empty(src) or n == 1) and (passes or empty(dst))",
     ("either the source pile is empty or the number of cards moved is 1, and either passes or the destination pile "
     "is empty")),
    ("empty(src) or (n == 1 and passes)", "the source pile is empty, or both the number of cards moved is 1 and passes"),
])
def test_binary_operators(speaker: Speaker, text: str, words: str) -> None:
    assert say(speaker, text) == words


@pytest.mark.parametrize("text, words", [
    ("1 if empty(dst) else 2", "1 if the destination pile is empty, otherwise 2"),
    ("1 if n == 1 else 2 if n == 2 else 3",
     "1 if the number of cards moved is 1, 2 if the number of cards moved is 2, otherwise 3"),
    ("card.rank == (1 if empty(dst) else 2)", "the card's rank is (1 if the destination pile is empty, otherwise 2)"),
    ("1 if option.draw == 3 else 2", "1"),
])
def test_conditionals(speaker: Speaker, text: str, words: str) -> None:
    assert say(speaker, text) == words


@pytest.mark.parametrize("text, words", [
    ("[]", "an empty list"), ("[1, n]", "the list of 1 and the number of cards moved"),
])
def test_lists(speaker: Speaker, text: str, words: str) -> None:
    assert say(speaker, text) == words


def test_small_functions_are_written_out_others_named(speaker: Speaker) -> None:
    assert say(speaker, "fits(card, dst)") == ("the card's rank is 13 if the destination pile is empty, otherwise the "
                                              "rank of the top card of the destination pile is the card's rank plus 1")
    assert say(speaker, "not fits(card, dst)") == ("the card's rank is not 13 if the destination pile is empty, "
                                                  "otherwise the rank of the top card of the destination pile is "
                                                  "not the card's rank plus 1")
    # called twice in one expression: named both times
    assert say(speaker, "half(n) + half(passes)") == "half(the number of cards moved) plus half(passes)"
    # a function whose body folds to a constant is that constant
    assert say(speaker, "always() and empty(src)") == "the source pile is empty"
    assert say(speaker, "always() and empty(src)", fold=False) == "the draw option is 3 and the source pile is empty"
    large = " + ".join(["x"] * INLINE_NODES)
    speaker.book.functions["big"] = (("x",), parse_expression(large))
    assert say(speaker, "big(n)") == "big(the number of cards moved)"


def test_an_argument_never_becomes_a_name_bound_in_the_function(speaker: Speaker) -> None:
    speaker.book.functions["has"] = (("x",), parse_expression("any(c.rank == x for c in cards(stock))"))
    words = say(speaker, "has(c.rank)")  # the caller's c is not the function's c
    assert words == "c2's rank is c's rank for some c2 in the cards of the stock"


def test_every_node_kind_of_the_parser_has_words() -> None:
    kinds = [c for c in vars(parser).values() if isinstance(c, type) and issubclass(c, Node) and c is not Node]
    assert {k.__name__ for k in kinds} == {"Const", "Name", "Attr", "Index", "Slice", "Call", "Comprehension",
                                           "Unary", "Binary", "Ternary", "ListLit"}
    for kind in kinds:
        assert callable(getattr(Speaker, f"_{kind.__name__.lower()}", None)), kind


@pytest.mark.parametrize("text, folded", [
    ("1 + 2 * 3", "7"), ("option.draw == 3", "true"), ("not (option.draw == 1)", "true"),
    ("min(4, option.draw)", "3"), ("abs(-5)", "5"), ("'a' in ['a', 'b']", "true"), ("2 ** 70", "2 ** 70"),
    ("1 / 0", "1 / 0"), ("passes if false else 4", "4"), ("false and passes", "false"), ("passes and true", "passes"),
    ("passes or false", "passes"), ("true or passes", "true"),
])
def test_folding_computes_constants_only_within_bounds(speaker: Speaker, text: str, folded: str) -> None:
    from cardrules.front.compiler import show

    assert show(simplify(parse_expression(text), speaker.book)) == folded


def test_book_is_a_plain_dataclass() -> None:
    assert dataclasses.is_dataclass(Book) and dataclasses.is_dataclass(ZoneInfo)


# -- errors and the command line ------------------------------------------------------------

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args), env={"COLUMNS": "200"})


def test_cli_prints_the_rules_of_klondike() -> None:
    result = run("rules", "klondike")
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert out.startswith("Klondike\n========\n")
    for heading in ("Players and cards", "Options", "Zones", "Setup", "Moves", "After each move", "End of the game",
                    "Score"):
        assert f"\n{heading}\n" in out
    assert max(len(line) for line in out.splitlines()) <= 80  # not a terminal: 80 columns


def test_cli_takes_options_width_and_markdown() -> None:
    result = run("rules", "klondike", "-o", "draw=3", "--width", "60")
    assert result.exit_code == 0
    assert max(len(line) for line in result.stdout.splitlines()) <= 60
    assert "the smaller of 3 and" in flat(result.stdout)
    markdown = run("rules", "klondike-vegas", "--format", "markdown")
    assert markdown.exit_code == 0
    assert markdown.stdout.startswith("# Klondike (Vegas)\n") and "\n## Moves\n" in markdown.stdout
    assert "\n- tableau\\_to\\_tableau: Any face-up run" in markdown.stdout
    unfolded = run("rules", "klondike", "--no-fold")
    assert "the draw option" in flat(unfolded.stdout)


def test_cli_reports_an_unknown_ruleset_without_a_traceback() -> None:
    result = run("rules", "klondyke")
    assert result.exit_code == 1
    assert "no ruleset 'klondyke'" in result.stderr and "klondike" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout


def test_cli_reports_a_bad_option_and_a_bad_format() -> None:
    result = run("rules", "klondike", "-o", "draw=5")
    assert result.exit_code == 1 and "option 'draw' cannot be '5'" in result.stderr
    assert run("rules", "klondike", "--format", "html").exit_code == 2


def test_cli_reports_a_broken_ruleset_at_its_line(tmp_path: Path) -> None:
    text = (RULESETS / "klondike.yaml").read_text(encoding="utf-8").replace('when: "empty(stock) and may_redeal()"',
                                                                            'when: "empty(stok)"')
    broken = tmp_path / "broken.yaml"
    broken.write_text(text, encoding="utf-8")
    result = run("rules", str(broken))
    assert result.exit_code == 1
    assert "broken.yaml:" in result.stderr and "unknown name 'stok'" in result.stderr and "^" in result.stderr
    assert "Traceback" not in result.stderr
    with pytest.raises(RulesetError):
        describe(broken)


def test_the_rules_command_loads_neither_the_terminal_library_nor_the_store() -> None:
    from test_startup import loaded_after

    run_ = loaded_after("import cardrules.app.cli as cli\nsys.argv = ['cardrules', 'rules', 'klondike']\ncli.main()\n")
    assert run_["code"] == 0, run_["stderr"]
    assert str(run_["stdout"]).startswith("Klondike")
    modules = run_["modules"]
    assert isinstance(modules, set)
    assert "cardrules.workbench.describe" in modules
    assert not {"rich", "cardrules.storage.store", "cardrules.app.play"} & modules


def test_the_excerpt_in_the_language_reference_is_real_output() -> None:
    docs = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    section = docs[docs.index('<a id="rules-in-words"></a>'):docs.index("## Errors")]
    excerpt = section[section.index("```\n") + 4:section.rindex("```")]
    out = run("rules", "klondike", "-o", "draw=3").stdout.splitlines()
    for line in excerpt.splitlines():
        if line.strip() != "...":
            assert line in out, line


FIXTURES = sorted((ROOT / "tests" / "fixtures").rglob("*.yaml"))


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: str(p.relative_to(ROOT / "tests" / "fixtures")))
def test_every_fixture_that_loads_prints_without_an_internal_error(path: Path) -> None:
    from cardrules.base.errors import CardrulesError

    try:
        document = describe(path)
    except CardrulesError:  # a broken fixture, a deck, or one that needs a search path: the loader's error
        return
    assert render_text(document, 80) and render_markdown(document)
    assert describe(path, fold=False).blocks
