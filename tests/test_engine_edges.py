"""Edge cases of loading and running rulesets, each a defect found in review and fixed."""

from __future__ import annotations

import gc
import random
import weakref
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardrules import (ExpressionSyntaxError, RulesetError, RulesetRuntimeError, SetupError, load_ruleset)
from cardrules.app.cli import app
from cardrules.front.decks import load_deck

BASE = """\
ruleset: edge
deck: standard-52
players: 1
variables:
  score: {initial: 0}
  tag: {initial: 0}
zones:
  rest: {}
  left: {count: 2, short: l}
  right: {count: 2, short: r}
setup:
  - take_deck: rest
  - deal: {from: rest, to: left, counts: 2, face: up}
moves:
"""


def _write(tmp_path: Path, text: str, name: str = "edge.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _load(tmp_path: Path, moves: str, **options: object):
    return load_ruleset(_write(tmp_path, BASE + moves), options=options or None)


def test_a_condition_whose_string_mentions_a_loop_name_is_kept(tmp_path: Path) -> None:
    rules = _load(tmp_path, """\
  wait:
    when: "option_text != 'pile'"
    do: [{add: {tag: 1}}]
  other:
    from: left
    to: right
""".replace("option_text", "'pile'"))
    game = rules.new_game(seed=1)
    assert "wait" not in [str(m) for m in game.legal_moves()]  # 'pile' != 'pile' is false


def test_moves_with_only_a_source_name_themselves_in_their_text(tmp_path: Path) -> None:
    rules = _load(tmp_path, """\
  burn:
    from: left
    do: [{move: {to: rest}}]
  keep:
    from: left
    do: [{add: {tag: 1}}]
""")
    texts = [str(m) for m in rules.new_game(seed=1).legal_moves()]
    assert texts == ["burn:l1", "burn:l2", "keep:l1", "keep:l2"]


def test_two_zones_may_not_share_a_pile_name(tmp_path: Path) -> None:
    text = BASE.replace("rest: {}", "rest: {short: l1}") + "  x:\n    from: left\n    to: right\n"
    with pytest.raises(RulesetError, match="pile name 'l1' is used by zones 'rest' and 'left'"):
        load_ruleset(_write(tmp_path, text))


def test_moving_a_packet_onto_its_own_pile_keeps_every_card(tmp_path: Path) -> None:
    rules = _load(tmp_path, """\
  turn_over:
    from: left
    take: all
    do: [{move: {to: src, flip: true}}]
""")
    game = rules.new_game(seed=1)
    before = list(game.state.piles[rules.zones["left"].piles[0]])
    game.apply(game.parse_move("turn_over:l1"))
    after = game.state.piles[rules.zones["left"].piles[0]]
    assert after == list(reversed(before))
    assert all(not game.state.up[c] for c in after)
    assert sum(len(p) for p in game.state.piles) == 52


def test_a_failing_effect_leaves_the_game_unchanged(tmp_path: Path) -> None:
    rules = _load(tmp_path, """\
  bad:
    from: left
    to: right
    do: [move, {add: {score: "top(dst).rank - top(right[1]).rank"}}]
""")
    game = rules.new_game(seed=1)
    piles = [list(p) for p in game.state.piles]
    moves = [str(m) for m in game.legal_moves()]
    with pytest.raises(RulesetRuntimeError) as caught:
        game.apply(game.legal_moves()[0])
    assert caught.value.pos is not None and caught.value.pos.line == 18
    assert [list(p) for p in game.state.piles] == piles
    assert [str(m) for m in game.legal_moves()] == moves and game.history == []
    with pytest.raises(Exception, match="no move to undo"):
        game.undo()


def test_adding_none_to_a_variable_is_reported_at_the_expression(tmp_path: Path) -> None:
    rules = _load(tmp_path, """\
  bad:
    from: left
    to: right
    do: [move, {add: {score: "top(right[1]).rank"}}]
""")
    game = rules.new_game(seed=1)
    with pytest.raises(RulesetRuntimeError, match="a number was expected, got none") as caught:
        game.apply(game.legal_moves()[0])
    assert caught.value.pos is not None and caught.value.pos.line == 18


def test_functions_may_use_pile_attributes_and_per_player_variables(tmp_path: Path) -> None:
    text = BASE.replace("score: {initial: 0}", "score: {initial: 0, per_player: true}").replace(
        "moves:\n", 'functions:\n  "first(p)": "p.index == 0 and score == 0"\nmoves:\n')
    rules = load_ruleset(_write(tmp_path, text + "  x:\n    from: left\n    to: right\n    when: first(dst)\n"))
    assert sorted(str(m) for m in rules.new_game(seed=1).legal_moves()) == ["l1>r1", "l2>r1"]


def test_a_variable_display_may_call_a_function(tmp_path: Path) -> None:
    text = BASE.replace("tag: {initial: 0}", 'tag: {initial: 0, label: Tag, show: "shown()"}').replace(
        "moves:\n", 'functions:\n  "shown()": "tag == 0"\nmoves:\n')
    rules = load_ruleset(_write(tmp_path, text + "  x:\n    from: left\n    to: right\n"))
    assert rules.variables["tag"].show is not None


def test_validate_checks_branches_that_only_other_options_keep(tmp_path: Path) -> None:
    text = BASE.replace("players: 1\n", "players: 1\noptions:\n  mode: {values: [easy, hard], default: easy}\n")
    path = _write(tmp_path, text + "  x:\n    from: left\n    to: right\n"
                                   "    when: \"true if option.mode == 'easy' else size(nowhere) > 0\"\n")
    load_ruleset(path)  # the defaults fold the broken branch away
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert result.exit_code == 1
    assert "unknown name 'nowhere'" in result.stderr and "(with options mode=hard)" in result.stderr


def test_a_deck_rule_must_name_a_declared_attribute(tmp_path: Path) -> None:
    path = _write(tmp_path, "deck: d\nattributes: {rank: int, color: str}\ncards:\n  - each: {rank: [1, 2]}\n"
                            "derive:\n  color: {from: rnak, map: {}}\ncode: \"{rank}\"\n", "deck.yaml")
    with pytest.raises(RulesetError, match="unknown attribute 'rnak' \\(did you mean 'rank'") as caught:
        load_deck(path)
    assert caught.value.pos is not None and (caught.value.pos.line, caught.value.pos.col) == (6, 17)


def test_a_deck_entry_with_with_needs_each(tmp_path: Path) -> None:
    path = _write(tmp_path, "deck: d\nattributes: {rank: int}\ncards:\n  - {rank: 1, with: {rank: 2}}\ncode: x\n",
                  "deck.yaml")
    with pytest.raises(RulesetError, match="'each' is a dependency of 'with'"):
        load_deck(path)


def test_players_min_above_max_is_reported_as_such(tmp_path: Path) -> None:
    text = BASE.replace("players: 1", "players: {min: 3, max: 2}") + "  x:\n    from: left\n    to: right\n"
    with pytest.raises(RulesetError, match="players: min is more than max"):
        load_ruleset(_write(tmp_path, text))


def test_syntax_errors_are_expression_syntax_errors(tmp_path: Path) -> None:
    with pytest.raises(ExpressionSyntaxError):
        _load(tmp_path, "  x:\n    from: left\n    to: right\n    when: \"1 +\"\n")


def test_a_player_count_the_ruleset_does_not_allow_is_a_setup_error(tmp_path: Path) -> None:
    rules = _load(tmp_path, "  x:\n    from: left\n    to: right\n")
    with pytest.raises(SetupError, match="for 1-1 players, not 3"):
        rules.new_game(seed=1, players=3)
    with pytest.raises(SetupError, match="a seed or a deal"):
        rules.new_game()


def test_min_of_cards_is_refused_because_cards_have_no_order(tmp_path: Path) -> None:
    with pytest.raises(RulesetError, match="expected a list, got a list of cards"):
        _load(tmp_path, "  x:\n    from: left\n    to: right\n    when: \"min(cards(src)) == 1\"\n")


def test_an_option_default_must_match_a_value_exactly(tmp_path: Path) -> None:
    text = BASE.replace("players: 1\n", "players: 1\noptions:\n  flag: {values: [1, 0], default: true}\n")
    with pytest.raises(RulesetError, match="default True is not one of the values"):
        load_ruleset(_write(tmp_path, text + "  x:\n    from: left\n    to: right\n"))


SHUTTLE = BASE.replace("  - deal: {from: rest, to: left, counts: 2, face: up}",
                       "  - deal: {from: rest, to: left, counts: 1, face: up}") + """\
  across:
    from: [left, right]
    to: [left, right]
    when: "empty(dst)"
end:
  repeat: {count: 3, result: over, reason: round in circles}
"""


def test_a_position_seen_the_set_number_of_times_ends_the_game(tmp_path: Path) -> None:
    rules = load_ruleset(_write(tmp_path, SHUTTLE))
    game = rules.new_game(seed=1)
    first = str(game.legal_moves()[0])
    game.apply(game.parse_move(first))          # position B (1st time)
    back = first.split(">")[1] + ">" + first.split(">")[0]
    game.apply(game.parse_move(back))           # start position again (2nd time)
    assert not game.is_over
    game.apply(game.parse_move(first))          # B (2nd)
    game.apply(game.parse_move(back))           # start (3rd): the game ends
    assert game.is_over and game.outcome == "over" and game.reason == "round in circles"
    game.undo()                                  # undo forgets the third visit
    assert not game.is_over
    game.apply(game.parse_move(back))
    assert game.is_over


def test_without_repeat_a_position_may_come_back_any_number_of_times(tmp_path: Path) -> None:
    rules = load_ruleset(_write(tmp_path, SHUTTLE.replace(
        "end:\n  repeat: {count: 3, result: over, reason: round in circles}\n", "")))
    game = rules.new_game(seed=1, max_moves=50)
    for _ in range(20):
        game.apply(game.legal_moves()[0])
    assert not game.is_over


MANY = """\
ruleset: many
deck: dollar-bills
zones:
  rest: {}
  stacks: {count: 12, short: s}
  out: {}
setup:
  - take_deck: rest
  - deal: {from: rest, to: stacks, counts: 4, face: up}
moves:
  gather:
    from: stacks
    to: out
    select:
      from: stacks
      take: run
      LIMIT
    do: [move, {move_chosen: {}}]
"""


def test_a_selection_that_would_search_too_long_is_an_error_naming_the_move(tmp_path: Path) -> None:
    rules = load_ruleset(_write(tmp_path, MANY.replace("LIMIT", "limit: 1000")))
    with pytest.raises(RulesetRuntimeError, match="move 'gather' would look at more than 1,000 selections in one position") as caught:
        rules.new_game(seed=1)
    assert caught.value.pos is not None and caught.value.pos.line == 14


def test_a_sum_target_prunes_the_search_and_finds_exact_totals(tmp_path: Path) -> None:
    text = MANY.replace("LIMIT", "sum: value\n      equals: 5\n      limit: 20000").replace("counts: 4", "counts: 1")
    rules = load_ruleset(_write(tmp_path, text))
    game = rules.new_game(seed=1)
    values = rules.deck.attribute_table("value")
    for move in game.legal_moves():
        assert sum(values[c] for p, n in move.selection for c in game.state.piles[p][-n:]) == 5
    assert game.legal_moves(), "some stacks show $1 and $5 bills, so $5 can be gathered"


@pytest.mark.parametrize("name", ["klondike-draw3", "dollartaire", "cascades"])
def test_a_move_applied_unsettled_then_settled_leaves_the_game_as_a_plain_apply_does(name: str) -> None:
    """`apply(move, settle=False)` + `settle()` (a search's way) equals `apply(move)`: the same
    legal moves, outcome and score after every move of a random game; `undo(legal)` hands back
    the legal moves kept, and the next apply finds its move among them."""
    import random
    rules = load_ruleset(name)
    plain, lazy = rules.new_game(seed=11), rules.new_game(seed=11)
    rng = random.Random(5)
    while not plain.is_over:
        index = rng.randrange(len(plain.legal_moves()))
        kept = lazy.legal_moves()
        lazy.apply(kept[index], settle=False)
        lazy.undo(kept)  # taken back at once, as a search does with a position seen before
        again = lazy.legal_moves()
        assert len(again) == len(kept) and all(a is b for a, b in zip(again, kept))
        lazy.apply(kept[index], settle=False)
        lazy.settle()
        lazy.settle()  # a second settle does nothing
        plain.apply(plain.legal_moves()[index])
        assert [str(m) for m in lazy.legal_moves()] == [str(m) for m in plain.legal_moves()]
        assert (lazy.outcome, lazy.reason, lazy.scores()) == (plain.outcome, plain.reason, plain.scores())
        assert lazy._position_key() == plain._position_key()
    assert len(plain.history) > 20


def test_an_unsettled_move_is_refused_where_positions_are_counted(tmp_path: Path) -> None:
    rules = _load(tmp_path, """\
  shift:
    from: left
    to: right
end:
  repeat: {count: 3, result: draw}
""")
    game = rules.new_game(seed=1)
    with pytest.raises(ValueError, match="end.repeat"):
        game.apply(game.legal_moves()[0], settle=False)
    assert game.history == [] and game.legal_moves()


@pytest.mark.parametrize("name", ["klondike", "spades", "nerts"])
def test_a_game_and_its_copies_are_freed_without_the_cycle_collector(name: str) -> None:
    # A game that only Python's cyclic collector could free keeps its whole undo journal alive
    # until it runs: about a tenth of a long random playout's time went to that (engine._lister_of).
    rules = load_ruleset(name)
    game = rules.new_game(seed=4)
    rng = random.Random(4)
    for _ in range(40):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_moves()))
    copies = [game, game.clone(), game.determinize(0, random.Random(4))]
    refs = [weakref.ref(copy) for copy in copies]
    enabled = gc.isenabled()
    gc.disable()
    try:
        del game, copies
        assert [ref() for ref in refs] == [None] * len(refs)
    finally:
        if enabled:
            gc.enable()
