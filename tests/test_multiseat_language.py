"""Language features for multi-seat games, each on a small test ruleset of its own: `players` and
`seats`, decks kept by player count and by named conditions, copy numbers, `extends` lists,
`winners`, optional and interrupt phases, moves in several phases, moving one given card,
pile labels, `of(variable, seat)`, and determinized copies of a game."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from cardrules import RulesetError, load_ruleset
from cardrules.front.decks import load_deck
from cardrules.python.render import render_table
from helpers import pile, play, texts
from rich.console import Console

# Seats play a card of their hand to the table, then may take the table; the game ends when
# the hands are empty. The cards are the Aces and Twos of standard-52 per player count.
BASE = """
ruleset: base
players: {min: 2, max: 4, default: 2}
deck:
  name: standard-52
  where:
    low: "card.rank <= 2 and card.copy == 1 and (card.suit in ['clubs', 'spades'] or players > 2)"
options:
  bonus: {values: [0, 1], default: 0}
variables:
  taken: {initial: 0, per_player: true}
  most: {initial: "players * 10"}
zones:
  stock: {visibility: none}
  hand: {per_player: true, short: h, visibility: owner}
  table: {short: x, visibility: all}
  won: {per_player: true, short: w, visibility: all}
turns:
  order: rotation
  phases: [play, {name: take, optional: true}, {name: gift, interrupt: true}]
setup:
  - take_deck: stock
  - deal: {from: stock, to: hand, counts: "size(stock) / players"}
moves:
  play: {phase: play, from: hand, take: any, to: table, do: [{move: {face: up}}]}
  take:
    phase: [take, gift]
    from: table
    take: all
    to: won
    when: "size(src) >= 2 and (phase == 'gift' or of(taken, player) <= min(of(taken, q) for q in seats))"
    do: [move, {add: {taken: 1}}]
  give:
    phase: take
    for_seat: "target != player"
    when: "size(table) >= 3"
    do: [{act: {seat: target, phase: gift}}]
  keep: {phase: take, when: "size(table) >= 2", do: []}
end:
  when:
    - if: "all(empty(of(hand, p)) for p in seats)"
      result: won
      reason: the hands are empty
score: "size(won)"
"""


@pytest.fixture
def base(tmp_path: Path) -> Path:
    path = tmp_path / "base.yaml"
    path.write_text(BASE)
    return path


def _variant(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"ruleset: {name}\n" + text)
    return path


def test_deck_where_keeps_cards_by_the_number_of_players(base: Path) -> None:
    rules = load_ruleset(base)
    codes = rules.deck.codes
    assert sorted(codes[c] for c in rules.deck_cards[2]) == ["2C", "2S", "AC", "AS"]
    assert sorted(codes[c] for c in rules.deck_cards[3]) == ["2C", "2D", "2H", "2S", "AC", "AD", "AH", "AS"]
    game = rules.new_game(seed=1, players=2)
    assert sum(len(p) for p in game.state.piles) == 4
    assert sum(len(p) for p in rules.new_game(seed=1, players=4).state.piles) == 8


def test_players_and_seats_are_names_everywhere(base: Path) -> None:
    rules = load_ruleset(base)
    assert rules.new_game(seed=1, players=3).variable("most") == 30
    game = rules.new_game(deal="AC AS 2C 2S", players=2)
    assert len(pile(game, "hand", 0)) == 2 and len(pile(game, "hand", 1)) == 2


def test_a_deal_file_lists_the_cards_in_play_for_that_many_players(base: Path) -> None:
    rules = load_ruleset(base)
    with pytest.raises(Exception, match="'AD' is not among the cards in play"):
        rules.new_game(deal="AC AS 2C 2S AD", players=2)
    with pytest.raises(Exception, match="the deal lists 3 cards, the game uses 4 of the standard-52 deck"):
        rules.new_game(deal="AC AS 2C", players=2)
    rules.new_game(deal="AC AS 2C 2S AD AH 2D 2H", players=3)


def test_a_variant_adds_cards_with_a_named_condition_and_removes_one_with_null(base: Path, tmp_path: Path) -> None:
    more = _variant(tmp_path, "more", f"extends: {base}\ndeck:\n  where:\n    threes: \"card.rank == 3\"\n")
    rules = load_ruleset(more)
    assert len(rules.deck_cards[2]) == 8  # the four low cards and the four Threes
    none_left = _variant(tmp_path, "threes", f"extends: {more}\ndeck:\n  where:\n    low: null\n")
    assert sorted(load_ruleset(none_left).deck.codes[c] for c in load_ruleset(none_left).deck_cards[2]) == \
        ["3C", "3D", "3H", "3S"]


def test_deck_where_that_keeps_nothing_names_the_player_count(base: Path, tmp_path: Path) -> None:
    path = _variant(tmp_path, "empty", f"extends: {base}\ndeck:\n  where:\n    low: \"players > 3\"\n")
    with pytest.raises(RulesetError, match="deck.where leaves no card \\(with 2 players\\)"):
        load_ruleset(path)


def test_deck_where_reads_no_game_state(base: Path, tmp_path: Path) -> None:
    path = _variant(tmp_path, "state", f"extends: {base}\ndeck:\n  where:\n    low: \"size(table) == 0\"\n")
    with pytest.raises(RulesetError, match="unknown name 'table' \\(known here: card, players, seats\\)"):
        load_ruleset(path)


def test_equal_cards_are_numbered_by_copy(tmp_path: Path) -> None:
    path = tmp_path / "bills.yaml"
    path.write_text("deck: bills\nattributes: {value: int}\ncards:\n  - {value: 1, copies: 3}\n  - {value: 2}\n"
                    "code: \"{value}\"\n")
    deck = load_deck(path)
    assert [(card["value"], card["copy"]) for card in deck.cards] == [(1, 1), (1, 2), (1, 3), (2, 1)]
    assert deck.codes == ("1", "1", "1", "2")


def test_a_deck_cannot_declare_copy(tmp_path: Path) -> None:
    path = tmp_path / "bills.yaml"
    path.write_text("deck: bills\nattributes: {value: int, copy: int}\ncards:\n  - {value: 1}\ncode: \"{value}\"\n")
    with pytest.raises(RulesetError, match="'copy' is given to every card"):
        load_deck(path)


def test_extends_a_list_merges_each_variants_own_changes(base: Path, tmp_path: Path) -> None:
    _variant(tmp_path, "a", f"extends: {base}\noptions:\n  bonus: {{default: 1}}\n")
    _variant(tmp_path, "b", f"extends: {base}\nvariables:\n  most: {{initial: 7}}\n")
    both = _variant(tmp_path, "ab", "extends: [a, b]\n")
    rules = load_ruleset(both)
    assert rules.name == "ab"
    assert rules.option_values == {"bonus": 1}
    assert rules.new_game(seed=1).variable("most") == 7


def test_extends_a_list_refuses_a_variant_of_another_base(base: Path, tmp_path: Path) -> None:
    _variant(tmp_path, "a", f"extends: {base}\n")
    other = tmp_path / "other.yaml"
    other.write_text(BASE.replace("ruleset: base", "ruleset: other"))
    _variant(tmp_path, "c", f"extends: {other}\n")
    path = _variant(tmp_path, "ac", "extends: [a, c]\n")
    with pytest.raises(RulesetError, match="'c' is a variant of 'other', which the rulesets before it"):
        load_ruleset(path)


def test_extends_a_list_takes_a_base_only_first(base: Path, tmp_path: Path) -> None:
    _variant(tmp_path, "a", f"extends: {base}\n")
    path = _variant(tmp_path, "ab", f"extends: [a, {base}]\n")
    with pytest.raises(RulesetError, match="only the first in the list may be a base"):
        load_ruleset(path)


def test_end_winners_names_the_seats_and_defaults_to_the_best_score(base: Path, tmp_path: Path) -> None:
    game = load_ruleset(base).new_game(deal="AC AS 2C 2S", players=2)
    play(game, "h@1:2C>x", "h@2:2S>x", "x>w@2", "h@1:AC>x")
    assert game.winners() is None  # not over yet
    play(game, "h@2:AS>x")  # the hands are empty
    assert game.is_over and game.scores() == [0, 2] and game.winners() == [1]
    tie = _variant(tmp_path, "tie", f"extends: {base}\nscore: \"1\"\n")
    game = load_ruleset(tie).new_game(deal="AC AS 2C 2S", players=2)
    play(game, "h@1:2C>x", "h@2:2S>x", "x>w@2", "h@1:AC>x", "h@2:AS>x")
    assert game.winners() == [0, 1]  # equal scores share the win
    named = _variant(tmp_path, "named", f"extends: {base}\nend:\n  when:\n"
                     "    - {if: \"all(empty(of(hand, p)) for p in seats)\", result: won, winners: \"players - 2\"}\n")
    game = load_ruleset(named).new_game(deal="AC AS 2C 2S", players=2)
    play(game, "h@1:2C>x", "h@2:2S>x", "x>w@2", "h@1:AC>x", "h@2:AS>x")
    assert game.winners() == [0]
    game.undo()
    assert game.winners() is None and game.state.winners is None


def test_an_optional_phase_without_moves_is_passed_over(base: Path) -> None:
    game = load_ruleset(base).new_game(deal="AC AS 2C 2S", players=2)
    play(game, "h@1:2C>x")  # one card on the table: nothing to take, the take phase is passed over
    assert (game.current_player, game.phase) == (1, "play")
    play(game, "h@2:2S>x")
    assert (game.current_player, game.phase) == (1, "take")
    assert texts(game) == {"x>w@2", "keep"}


def test_an_interrupt_phase_is_entered_only_by_act(base: Path) -> None:
    # Seat 1 holds AC 2D, seat 2 AS 2H, seat 3 2C 2S; AD AH stay in the stock.
    game = load_ruleset(base).new_game(deal="AC AS 2C 2D 2H 2S AD AH", players=3)
    play(game, "h@1:2D>x", "h@2:2H>x", "keep")
    assert (game.current_player, game.phase) == (2, "play")  # the take phase led to seat 3, not to gift
    play(game, "h@3:2S>x")
    assert texts(game, "give") == {"give seat1", "give seat2"}
    play(game, "give seat1")
    assert (game.current_player, game.phase) == (0, "gift")
    assert texts(game) == {"x>w@1"}  # in the gift phase the take needs no turn of its own
    play(game, "x>w@1")
    assert (game.current_player, game.phase) == (0, "play")  # back to seat 3's turn, which is over


def test_a_ruleset_needs_a_phase_that_is_not_an_interrupt(base: Path, tmp_path: Path) -> None:
    path = _variant(tmp_path, "v", f"extends: {base}\nturns:\n  phases: [{{name: play, interrupt: true}}]\n")
    with pytest.raises(RulesetError, match="a turn needs a phase that is not an interrupt"):
        load_ruleset(path)


def test_a_move_phase_list_names_known_phases(base: Path, tmp_path: Path) -> None:
    path = _variant(tmp_path, "v", f"extends: {base}\nmoves:\n  take: {{phase: [take, gfit]}}\n")
    with pytest.raises(RulesetError, match="unknown phase 'gfit' \\(did you mean 'gift'"):
        load_ruleset(path)


def test_a_move_effect_moves_one_given_card(base: Path, tmp_path: Path) -> None:
    path = _variant(tmp_path, "v", f"extends: {base}\nsetup:\n  - take_deck: stock\n"
                    "  - for: \"c in cards(stock)\"\n    do:\n      - if: \"c.rank == 1\"\n"
                    "        then: [{move: {from: stock, card: c, to: table, face: up}}]\n")
    game = load_ruleset(path).new_game(deal="AC 2C AS 2S", players=2)
    assert sorted(pile(game, "table")) == ["AC", "AS"]
    assert pile(game, "stock") == ["2S", "2C"]  # the others keep their order (top last)


def test_a_move_effect_card_must_lie_on_its_pile(base: Path, tmp_path: Path) -> None:
    path = _variant(tmp_path, "v", f"extends: {base}\nsetup:\n  - take_deck: stock\n"
                    "  - move: {from: table, card: top(stock), to: table}\n")
    with pytest.raises(Exception, match="is not on x"):
        load_ruleset(path).new_game(seed=1)


def test_labels_name_piles_and_hide_empty_leaves_them_out(base: Path, tmp_path: Path) -> None:
    path = _variant(tmp_path, "v", f"extends: {base}\nzones:\n  won: {{count: 2, labels: [lo, hi], hide_empty: true}}\n"
                    "moves:\n  take: {when: \"size(src) >= 2 and dst.index == 1\"}\n")
    rules = load_ruleset(path)
    assert [rules.pile_names[p] for p in rules.zones["won"].piles[:4]] == ["wlo@1", "whi@1", "wlo@2", "whi@2"]
    game = rules.new_game(deal="AC AS 2C 2S", players=2)
    play(game, "h@1:2C>x", "h@2:2S>x", "x>whi@2")
    console = Console(width=100, record=True)
    console.print(render_table(game, 0))
    shown = console.export_text()
    assert "whi@2" in shown and "wlo@1" not in shown and "whi@1" not in shown


def test_labels_need_one_label_per_pile(base: Path, tmp_path: Path) -> None:
    path = _variant(tmp_path, "v", f"extends: {base}\nzones:\n  won: {{count: 2, labels: [lo]}}\n")
    with pytest.raises(RulesetError, match="one different label for each of the 2 piles"):
        load_ruleset(path)


def test_of_reads_another_seats_variable(base: Path) -> None:
    game = load_ruleset(base).new_game(deal="AC AS 2C 2S", players=2)
    play(game, "h@1:2C>x", "h@2:2S>x", "x>w@2")
    # Seat 2 has taken once, seat 1 never: `of(taken, player) <= min(of(taken, q) ...)` keeps seat 2 out.
    play(game, "h@1:AC>x", "h@2:AS>x")
    assert "x>w@2" not in texts(game)


def test_a_variable_holding_none_is_read_only_where_written(base: Path, tmp_path: Path) -> None:
    # `size(aim)` must not be computed before `aim != none` is known: conditions on variables are
    # not hoisted ahead of the guards written before them.
    path = _variant(tmp_path, "v", f"extends: {base}\nvariables:\n  aim: {{initial: none}}\n"
                    "moves:\n  keep: {when: \"aim != none and size(aim) > 0\"}\n")
    game = load_ruleset(path).new_game(deal="AC AS 2C 2S", players=2)
    play(game, "h@1:2C>x", "h@2:2S>x")
    assert texts(game) == {"x>w@2"}


def test_determinize_deals_anew_only_what_the_seat_cannot_see(base: Path) -> None:
    rules = load_ruleset(base)
    game = rules.new_game(seed=3, players=4)
    hands = [list(game.state.piles[p]) for p in rules.zones["hand"].piles_for(4)]
    changed = False
    for k in range(20):
        copy = game.determinize(0, random.Random(k))
        new_hands = [list(copy.state.piles[p]) for p in rules.zones["hand"].piles_for(4)]
        assert new_hands[0] == hands[0]  # seat 1 sees its own hand
        assert sorted(c for h in new_hands for c in h) == sorted(c for h in hands for c in h)
        changed |= new_hands != hands
        assert copy.state.deck_order == [] and copy.state.journal == []
    assert changed
    assert [list(game.state.piles[p]) for p in rules.zones["hand"].piles_for(4)] == hands  # the game is untouched


def test_nobody_wins_a_multi_seat_game_that_ends_lost_unless_named(base: Path, tmp_path: Path) -> None:
    path = _variant(tmp_path, "v", f"extends: {base}\nend:\n  when:\n"
                    "    - {if: \"size(table) == 2\", result: lost, reason: two on the table}\n")
    game = load_ruleset(path).new_game(deal="AC AS 2C 2S", players=2)
    play(game, "h@1:2C>x", "h@2:2S>x")
    assert game.outcome == "lost" and game.winners() == []
