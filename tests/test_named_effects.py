"""Named effects (`effects:` blocks with parameters, run by `call`) and `with` (docs/language.md,
"Named effects"): written out at their calls by the front end (front/blocks.py), arguments worked
out once at the call, errors where the cause is written, both backends alike.
tests/fixtures/effects/tricks.yaml takes each trick with one block and deals hands with another."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from cardrules import RulesetRuntimeError, load_ruleset
from cardrules.base.limits import MAX_INLINE_DEPTH, MAX_YAML_VALUES

from helpers import load_error, pile_ids, play_both_backends, replaced

TRICKS = Path(__file__).parent / "fixtures" / "effects" / "tricks.yaml"
TEXT = TRICKS.read_text()


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def variant(tmp_path: Path, old: str, new: str, text: str = TEXT) -> Path:
    return replaced(tmp_path, text, old, new, "variant.yaml")


def test_the_trick_goes_to_the_seat_worked_out_before_its_cards_leave_the_trick() -> None:
    rules = load_ruleset(TRICKS)
    for seed in range(1, 31):
        game, rng, tricks = rules.new_game(seed=seed), random.Random(seed), 0
        assert [len(pile_ids(game, "hand", s)) for s in (0, 1)] == [3, 3]  # deal_hands(3) in the setup
        while not game.is_over:
            trick = pile_ids(game, "trick")
            leader = game.state.vars[0]
            move = rng.choice(game.legal_moves())
            if len(trick) == 1:  # this card completes the trick: the highest rank wins, the leader on a tie
                ranks = [rules.deck.cards[c]["rank"] for c in trick + [move.pick]]
                winner = (leader + ranks.index(max(ranks))) % 2
                taken = [len(pile_ids(game, "taken", s)) for s in (0, 1)]
                game.apply(move)
                tricks += 1
                assert len(pile_ids(game, "taken", winner)) == taken[winner] + 2
                assert len(pile_ids(game, "taken", 1 - winner)) == taken[1 - winner]
                assert game.state.vars[0] == winner and pile_ids(game, "trick") == []
                if not game.is_over:
                    assert game.current_player == winner  # turn_to: player
            else:
                game.apply(move)
        assert tricks == 9 and game.scores() == [len(pile_ids(game, "taken", s)) // 2 for s in (0, 1)]
        assert game.state.vars[3] == 3  # three hands dealt, by the setup and the trigger


def test_named_effects_play_the_same_natively() -> None:
    games = play_both_backends(load_ruleset(TRICKS), range(1, 13))
    assert all(game.is_over and sum(game.scores()) == 9 for game in games)


@pytest.mark.parametrize("triggers", [True, False])
def test_with_works_out_every_value_before_the_effects_run(tmp_path: Path, triggers: bool) -> None:
    text = TEXT if triggers else TEXT[:TEXT.index("triggers:")] + TEXT[TEXT.index("end:"):]
    path = variant(tmp_path, '      - move: {face: up}\n',
                   '      - with: {before: "size(of(hand, player))", top: "card"}\n'
                   '        do:\n'
                   '          - move: {face: up}\n'
                   '          - set: {hands: "before * 100 + top.rank"}\n', text)
    rules = load_ruleset(path)
    # Without the trigger's calls (whose `player` hides the mover's), the move's effects are written
    # out as one Python function (python/applygen.py), `with` included; with them, closures run it.
    assert (rules.moves[0].apply is not None) == (not triggers)
    game = rules.new_game(seed=4)
    move = game.legal_moves()[0]
    game.apply(move)
    assert game.state.vars[3] == 3 * 100 + rules.deck.cards[move.pick]["rank"]  # the hand's size before the move
    play_both_backends(rules, range(1, 5))


def test_the_rules_in_words_say_each_call_with_its_names() -> None:
    from cardrules.workbench.describe import describe

    items = [block.text for block in describe(TRICKS).blocks if block.kind == "item"]
    assert "With n = 3:" in items
    assert any(text.startswith("With player = ") for text in items)


@pytest.mark.parametrize("old,new,needle,message", [
    ('call: "take_trick(winner())"', 'call: "take_trik(winner())"', "take_trik",
     "unknown named effects 'take_trik' (did you mean 'take_trick'?"),
    ('call: "take_trick(winner())"', 'call: "take_trick(winner(), 1)"', "take_trick(winner(), 1)",
     "'take_trick' takes 1 argument, not 2"),
    ('call: "take_trick(winner())"', 'call: "take_trick"', 'call: "take_trick"', "expected the name of named effects"),
    ('"deal_hands(n)":', '"deal_hands(n, n)":', '"deal_hands(n, n)"', "name a parameter twice"),
    ('"deal_hands(n)":', '"deal_hands(n":', '"deal_hands(n"', "named effects are written name(param, ...)"),
    ('"deal_hands(n)":', '"deal_hands(hands)":', '"deal_hands(hands)"', "'hands' is a variable's name"),
])
def test_a_call_or_a_block_written_wrong_is_an_error_where_it_is_written(tmp_path: Path, old: str, new: str,
                                                                       needle: str, message: str) -> None:
    error = load_error(variant(tmp_path, old, new))
    assert message in error.message
    assert error.pos is not None and error.pos.line == line_of(TEXT.replace(old, new, 1), needle)


def test_an_error_inside_an_argument_points_inside_it(tmp_path: Path) -> None:
    path = variant(tmp_path, 'call: "take_trick(winner())"', 'call: "take_trick(winer())"')
    error = load_error(path)
    line = path.read_text().splitlines()[line_of(path.read_text(), "winer()") - 1]
    assert "winer" in error.message
    assert error.pos is not None and (error.pos.line, error.pos.col) == (line_of(path.read_text(), "winer()"),
                                                                        line.index("winer") + 1)


def test_a_block_sees_its_parameters_not_the_names_of_the_place_it_is_called_from(tmp_path: Path) -> None:
    # `card` is bound where play's effects run, but not in a block: checked once, where it is written
    path = variant(tmp_path, "    - add: {tricks: 1}\n", "    - add: {tricks: \"card.rank\"}\n")
    error = load_error(path)
    assert "card" in error.message
    assert error.pos is not None and error.pos.line == line_of(path.read_text(), "card.rank")


def test_a_block_never_called_is_checked_too(tmp_path: Path) -> None:
    path = variant(tmp_path, "effects:\n", "effects:\n  \"unused()\":\n    - turn_to: \"of(taken, 0)\"\n")
    error = load_error(path)
    assert error.pos is not None and error.pos.line == line_of(path.read_text(), 'turn_to: "of(taken, 0)"')


def test_an_effect_of_a_block_wrong_for_its_arguments_is_an_error_at_the_block(tmp_path: Path) -> None:
    path = variant(tmp_path, 'call: "take_trick(winner())"', 'call: "take_trick(trick)"')
    error = load_error(path)
    assert error.message == (f"expected a number, got a pile (in the effects 'take_trick', called at line "
                             f"{line_of(path.read_text(), 'take_trick(trick)')})")
    assert error.pos is not None and error.pos.line == line_of(path.read_text(), "of(taken, player)")


def test_a_seat_that_is_no_seat_of_the_game_is_a_run_time_error_at_the_argument(tmp_path: Path) -> None:
    path = variant(tmp_path, 'call: "take_trick(winner())"', 'call: "take_trick(winner() + 5)"')
    game = load_ruleset(path).new_game(seed=1)
    with pytest.raises(RulesetRuntimeError) as caught:
        for _ in range(2):
            game.apply(game.legal_moves()[0])
    assert "no seat" in caught.value.message
    assert caught.value.pos is not None and caught.value.pos.line == line_of(path.read_text(), "winner() + 5")


def test_blocks_that_call_themselves_are_an_error_at_the_block(tmp_path: Path) -> None:
    direct = variant(tmp_path, "    - add: {hands: 1}\n", "    - add: {hands: 1}\n    - call: \"deal_hands(n)\"\n")
    error = load_error(direct)
    assert "call themselves (deal_hands -> deal_hands)" in error.message
    assert error.pos is not None and error.pos.line == line_of(direct.read_text(), '"deal_hands(n)":')
    through = variant(tmp_path, "    - turn_to: player\n", "    - turn_to: player\n    - call: \"deal_hands(1)\"\n",
                      direct.read_text())
    assert "call themselves" in load_error(through).message


def test_calls_nested_too_deep_or_written_out_too_large_are_errors(tmp_path: Path) -> None:
    def ruleset(blocks: list[str]) -> Path:
        path = tmp_path / "deep.yaml"
        path.write_text("ruleset: deep\nplayers: 1\ndeck: standard-52\nvariables:\n  x: {initial: 0}\n"
                        "zones:\n  stock: {}\neffects:\n" + "".join(blocks) +
                        "setup:\n  - take_deck: stock\n  - call: \"b0()\"\nmoves:\n  wait: {}\n")
        return path

    depth = MAX_INLINE_DEPTH + 2
    chain = [f'  "b{i}()":\n    - call: "b{i + 1}()"\n' for i in range(depth)] + [f'  "b{depth}()":\n    - add: {{x: 1}}\n']
    assert f"more than {MAX_INLINE_DEPTH} deep" in load_error(ruleset(chain)).message
    fan = [f'  "b{i}()":\n' + f'    - call: "b{i + 1}()"\n' * 8 for i in range(8)] + ['  "b8()":\n    - add: {x: 1}\n']
    assert f"more than {MAX_YAML_VALUES:,} values" in load_error(ruleset(fan)).message


def test_a_variant_calls_its_base_s_blocks_and_errors_name_the_file_that_holds_the_cause(tmp_path: Path) -> None:
    base = tmp_path / "base.yaml"
    base.write_text(TEXT)
    (tmp_path / "three.yaml").write_text("ruleset: three\nextends: base\nsetup:\n  - take_deck: stock\n"
                                         "  - call: \"deal_hands(4)\"\n")
    game = load_ruleset(tmp_path / "three.yaml").new_game(seed=2)
    assert [len(pile_ids(game, "hand", s)) for s in (0, 1)] == [4, 4]
    (tmp_path / "wrong.yaml").write_text("ruleset: wrong\nextends: base\nsetup:\n  - take_deck: stock\n"
                                         "  - call: \"deal_hands(trick)\"\n")
    error = load_error(tmp_path / "wrong.yaml")
    assert error.pos is not None and (Path(error.pos.path).name, error.pos.line) in (
        ("wrong.yaml", 5), ("base.yaml", line_of(TEXT, "counts: n")))


def test_a_variant_replaces_a_block_by_writing_its_signature_again(tmp_path: Path) -> None:
    (tmp_path / "base.yaml").write_text(TEXT)
    (tmp_path / "more.yaml").write_text('ruleset: more\nextends: base\neffects:\n  "deal_hands(n)":\n'
                                        '    - deal: {from: stock, to: hand, counts: "n + 1"}\n')
    game = load_ruleset(tmp_path / "more.yaml").new_game(seed=2)
    assert [len(pile_ids(game, "hand", s)) for s in (0, 1)] == [4, 4]
    assert game.state.vars[3] == 0  # the base's block counted the hands; this one does not


def test_a_variable_set_only_from_a_with_or_a_loop_name_has_that_kind_natively(tmp_path: Path) -> None:
    # The native backend finds the kind of a variable holding a card from the values set into it:
    # here a name of a `with` and a loop's name (tests/native_fuzzing.py found the first).
    path = variant(tmp_path, "  hands: {initial: 0}\n", "  hands: {initial: 0}\n  held: {initial: none}\n"
                   "  last: {initial: none}\n")
    text = path.read_text().replace('      - move: {face: up}\n',
                                    '      - with: {top: "card"}\n'
                                    '        do:\n'
                                    '          - move: {face: up}\n'
                                    '          - set: {held: top}\n'
                                    '      - for: "c in cards(trick)"\n'
                                    '        do:\n'
                                    '          - set: {last: c}\n')
    path.write_text(text)
    rules = load_ruleset(path)
    play_both_backends(rules, range(1, 4))
    game = rules.new_game(seed=2)
    move = game.legal_moves()[0]
    game.apply(move)
    assert game.variable("held") == move.pick and game.variable("last") == move.pick


NESTED = """\
ruleset: nested
players: 2
deck: standard-52
variables:
  n: {initial: 0}
  ended: {initial: 0}
zones:
  stock: {visibility: none}
  hand: {per_player: true, visibility: owner}
effects:
  "bump()":
    - add: {n: 1}
  "draw_to(seat, k)":
    - while: "size(of(hand, seat)) < k"
      do:
        - move: {from: stock, to: "of(hand, seat)", count: 1}
        - call: "bump()"
setup:
  - take_deck: stock
  - for: "s in seats"
    do:
      - if: "s >= 0"
        then:
          - call: "draw_to(s, 2)"
turns:
  order: rotation
moves:
  draw:
    do:
      - call: "draw_to(player, size(hand) + 1)"
on_end:
  - call: "bump()"
  - set: {ended: 1}
end:
  when:
    - if: "n >= 8"
      result: over
"""


def test_calls_stand_wherever_effects_do_and_a_block_may_have_no_parameters(tmp_path: Path) -> None:
    # In the setup inside a loop and a condition, in a loop until done inside a block, in a move, in
    # on_end; a block calling a block; a block of no parameters is its effects, said as they are.
    from cardrules.workbench.describe import describe

    path = tmp_path / "nested.yaml"
    path.write_text(NESTED)
    rules = load_ruleset(path)
    game = rules.new_game(seed=1)
    assert [len(pile_ids(game, "hand", s)) for s in (0, 1)] == [2, 2] and game.variable("n") == 4
    for _ in range(4):
        game.apply(game.legal_moves()[0])
    assert game.is_over and game.variable("n") == 9 and game.variable("ended") == 1  # on_end's bump too
    assert [len(pile_ids(game, "hand", s)) for s in (0, 1)] == [4, 4]
    play_both_backends(rules, range(1, 3))
    items = [block.text for block in describe(path).blocks if block.kind == "item"]
    assert "With seat = s and k = 2:" in items and "Add 1 to n." in items and "With:" not in items
