"""Hands and rounds inside one game: `shuffle` and `deal` during play (docs/language.md, Effects).

tests/fixtures/rounds/high-card.yaml deals three cards a seat from the 16 cards Ace to Four; when
the hands are empty a trigger scores the hand, gathers the cards back, shuffles the stock and
deals again. A shuffle draws on the game's seed (a game from a deal: on the deal), so a game
replays the same from its seed and moves, undo takes a shuffle back, and a bot's determinized
copy draws the shuffles still to come from the bot's own generator.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from cardrules import RulesetError, RulesetRuntimeError, load_ruleset
from cardrules.workbench.solver import SolveError, solve
from helpers import mini_with, pile, play, play_both_backends

HIGH_CARD = Path(__file__).parent / "fixtures" / "rounds" / "high-card.yaml"


def line_of(path: Path, text: str) -> int:
    """The 1-based line of a file holding `text`."""
    return next(n for n, line in enumerate(path.read_text().splitlines(), 1) if text in line)


def rules() -> Any:
    return load_ruleset(HIGH_CARD)


def play_hand(game: Any) -> None:
    """Play the hand under way (each seat its first card) until the next is dealt."""
    hands = game.variable("hands")
    while not game.is_over and game.variable("hands") == hands:
        game.apply(game.legal_moves()[0])


def hands(game: Any) -> list[list[str]]:
    return [pile(game, "hand", s) for s in range(game.players)]


def test_a_trigger_gathers_shuffles_and_deals_a_new_hand_during_play() -> None:
    game = rules().new_game(seed=4)
    play_hand(game)
    assert game.variable("hands") == 2
    assert [len(h) for h in hands(game)] == [3, 3]
    assert pile(game, "table", 0) == pile(game, "table", 1) == []
    assert len(pile(game, "stock")) == 10
    assert sorted(c for p in game.state.piles for c in p) == list(range(16))
    assert not any(game.state.up[c] for c in game.state.piles[game.rules.zones["stock"].piles[0]])


def test_a_shuffle_puts_the_gathered_cards_in_a_new_order() -> None:
    """Without the shuffle the next hand would be dealt from the cards as gathered."""
    changed = 0
    for seed in range(10):
        game = rules().new_game(seed=seed)
        while len(game.history) < 5:
            game.apply(game.legal_moves()[0])
        tables = [pile(game, "table", s) for s in range(2)]
        hand_left = pile(game, "hand", game.current_player)
        stock = pile(game, "stock")
        game.apply(game.legal_moves()[0])
        gathered = stock + tables[0] + tables[1] + hand_left  # bottom to top, as the trigger gathers
        assert sorted(pile(game, "stock") + [c for h in hands(game) for c in h]) == sorted(gathered)
        unshuffled = [gathered[::-1][k::2][:3] for k in range(2)]  # dealt round from the top
        changed += hands(game) != unshuffled
    assert changed >= 9


def test_the_same_seed_and_moves_shuffle_alike_and_other_seeds_differently() -> None:
    def second_hands(seed: int) -> list[list[str]]:
        game = rules().new_game(seed=seed)
        play_hand(game)
        return hands(game)
    assert second_hands(5) == second_hands(5)
    assert len({str(second_hands(seed)) for seed in range(8)}) == 8


def test_a_game_from_a_deal_shuffles_from_the_deal_the_same_way_every_time() -> None:
    deal = rules().new_game(seed=9).deal_order
    results = []
    for _ in range(2):
        game = rules().new_game(deal=deal)
        play_hand(game)
        results.append(hands(game))
    assert results[0] == results[1]
    other = rules().new_game(deal=deal[1:] + deal[:1])
    play_hand(other)
    assert hands(other) != results[0]


def test_undo_takes_a_shuffle_back_and_the_move_made_again_shuffles_alike() -> None:
    game = rules().new_game(seed=2)
    while len(game.history) < 5:
        game.apply(game.legal_moves()[0])
    before = [list(p) for p in game.state.piles], game.state.shuffles
    last = game.legal_moves()[0]
    game.apply(last)
    after = hands(game)
    assert game.state.shuffles == before[1] + 1
    game.undo()
    assert [list(p) for p in game.state.piles] == before[0] and game.state.shuffles == before[1]
    game.apply(game.legal_moves()[0])
    assert hands(game) == after


def test_a_determinized_copy_draws_the_shuffles_to_come_from_the_bots_generator() -> None:
    game = rules().new_game(seed=3)
    while len(game.history) < 5:
        game.apply(game.legal_moves()[0])

    def next_hands(copy: Any) -> list[list[str]]:
        copy.apply(copy.legal_moves()[0])
        return hands(copy)
    copies = [game.determinize(0, random.Random(k)) for k in (1, 1, 2)]
    assert all(copy.seed is None and copy.state.chance != game.state.chance for copy in copies)
    first, again, other = (next_hands(copy) for copy in copies)
    assert first == again and first != other


def test_a_determinized_copy_depends_only_on_the_seats_view_and_the_generator() -> None:
    """Two games alike but for the seed: the same view gives the same copy, shuffles to come too."""
    deal = rules().new_game(seed=6).deal_order
    one, two = rules().new_game(seed=6), rules().new_game(deal=deal)
    assert one.view(0) == two.view(0) and one.state.chance != two.state.chance
    copies = [game.determinize(0, random.Random(4)) for game in (one, two)]
    for copy in copies:
        play_hand(copy)
    assert hands(copies[0]) == hands(copies[1])


def test_the_solver_refuses_a_ruleset_that_shuffles_during_play(tmp_path: Path) -> None:
    path = mini_with(tmp_path, "  play:\n", "  mix:\n    when: \"empty(waste)\"\n    do:\n"
                                             "      - shuffle: stock\n  play:\n")
    with pytest.raises(SolveError, match="shuffles cards during play") as caught:
        solve(load_ruleset(path), seed=1, timeout=5)
    assert caught.value.pos is not None and caught.value.pos.line == line_of(path, "- shuffle")


def test_the_solver_takes_a_ruleset_that_shuffles_only_in_its_setup(tmp_path: Path) -> None:
    path = mini_with(tmp_path, "  - take_deck: stock\n", "  - take_deck: stock\n  - shuffle: stock\n")
    result = solve(load_ruleset(path), seed=1, thoughtful=True, timeout=5)
    assert result.answer in ("solvable", "unsolvable")


@pytest.mark.parametrize(("effect", "message"), [
    ("shuffle: tableau", "a pile"),
    ("shuffle: 3", "not of type .string."),
    ("shuffle: heap", "heap"),
])
def test_a_shuffle_of_anything_but_a_pile_is_an_error_at_its_place(tmp_path: Path, effect: str,
                                                                   message: str) -> None:
    path = mini_with(tmp_path, "  - take_deck: stock\n", f"  - take_deck: stock\n  - {effect}\n")
    with pytest.raises(RulesetError, match=message) as caught:
        load_ruleset(path)
    assert caught.value.pos is not None and caught.value.pos.line == line_of(path, "- shuffle")


MANY_SHUFFLES = """\
ruleset: many-shuffles
deck: {name: standard-52, copies: 190}
variables:
  passes: {initial: 0}
zones:
  stock: {short: s}
setup:
  - take_deck: stock
moves:
  mix:
    when: "passes == 0"
    do:
      - set: {passes: 1}
triggers:
  - name: shuffle again and again
    repeat: true
    when: "0 < passes and passes < PASSES"
    do:
      - shuffle: stock
      - add: {passes: 1}
end:
  when:
    - if: "passes >= PASSES"
      result: over
"""


@pytest.mark.parametrize(("passes", "fails"), [(50, False), (150, True)])
def test_a_shuffle_counts_a_step_a_card_toward_the_limit_of_one_move(tmp_path: Path, passes: int,
                                                                     fails: bool) -> None:
    """9,880 cards shuffled 150 times is past the 1,000,000 steps of one move; 50 times is not."""
    path = tmp_path / "r.yaml"
    path.write_text(MANY_SHUFFLES.replace("PASSES", str(passes)))
    game = load_ruleset(path).new_game(seed=1)
    if fails:
        with pytest.raises(RulesetRuntimeError, match="1,000,000 steps") as caught:
            play(game, "mix")
        assert caught.value.pos is not None and caught.value.pos.line == 11  # the move `mix` (its mapping)
        assert game.history == [] and game.variable("passes") == 0
    else:
        play(game, "mix")
        assert game.is_over and game.state.shuffles == passes - 1


def test_a_setup_past_the_step_limit_is_an_error_at_the_setup(tmp_path: Path) -> None:
    path = tmp_path / "r.yaml"
    path.write_text(MANY_SHUFFLES.replace("PASSES", "150").replace(
        "  - take_deck: stock\n", "  - take_deck: stock\n  - for: \"k in range(150)\"\n    do:\n      - shuffle: stock\n"))
    with pytest.raises(RulesetRuntimeError, match="the setup.*1,000,000 steps") as caught:
        load_ruleset(path).new_game(seed=1)
    assert caught.value.pos is not None and caught.value.pos.line == 8  # the setup (its list)


# -- a card placed at a random place in a pile (`move: {place: random}`) ---------------------

BURY = Path(__file__).parent / "fixtures" / "rounds" / "bury.yaml"


def _tuck_first(game: Any) -> tuple[int, int]:
    """Seat 1 tucks its first card into the stock: the card, and how many stock cards lie above it."""
    card = game.state.piles[game.rules.zones["hand"].piles[0]][0]
    game.apply(game.parse_move(f"h@1:{game.rules.deck.codes[card]}>s"))
    stock = game.state.piles[game.rules.zones["stock"].piles[0]]
    return card, len(stock) - 1 - stock.index(card)


def test_a_card_placed_at_random_goes_under_any_number_of_the_piles_cards_alike_likely() -> None:
    rules = load_ruleset(BURY)
    depths = []
    for seed in range(800):
        game = rules.new_game(seed=seed)
        before = list(game.state.piles[rules.zones["stock"].piles[0]])
        card, depth = _tuck_first(game)
        after = game.state.piles[rules.zones["stock"].piles[0]]
        assert [c for c in after if c != card] == before  # the others keep their order
        assert not game.state.up[card]  # face down, as the move said
        depths.append(depth)
    # 7 cards in the stock: 8 places, from the top (0 above it) to the bottom (7 above it).
    counts = [depths.count(d) for d in range(8)]
    assert sum(counts) == 800 and all(70 <= c <= 130 for c in counts), counts


def test_the_same_seed_and_moves_place_alike_and_undo_takes_the_place_back() -> None:
    rules = load_ruleset(BURY)
    first, second = rules.new_game(seed=4), rules.new_game(seed=4)
    assert _tuck_first(first) == _tuck_first(second)
    assert first.state.piles == second.state.piles
    stock_before = list(first.state.piles[rules.zones["stock"].piles[0]])
    first.apply(first.parse_move("bury2"))
    placed = list(first.state.piles[rules.zones["stock"].piles[0]])
    first.undo()
    assert first.state.piles[rules.zones["stock"].piles[0]] == stock_before
    first.apply(first.parse_move("bury2"))
    assert first.state.piles[rules.zones["stock"].piles[0]] == placed
    # Other seeds place elsewhere.
    assert len({_tuck_first(rules.new_game(seed=s))[1] for s in range(10)}) > 2


def test_a_packet_placed_at_random_stays_together_in_its_order() -> None:
    rules = load_ruleset(BURY)
    for seed in range(30):
        game = rules.new_game(seed=seed, players=1)
        stock = game.state.piles[rules.zones["stock"].piles[0]]
        top_two, rest = stock[-2:], stock[:-2]
        game.apply(game.parse_move("bury2"))
        after = game.state.piles[rules.zones["stock"].piles[0]]
        at = after.index(top_two[0])
        assert after[at:at + 2] == top_two and after[:at] + after[at + 2:] == rest


def test_a_seat_that_placed_its_card_at_random_no_longer_knows_where_it_lies() -> None:
    rules = load_ruleset(BURY)
    for seed in range(20):
        game = rules.new_game(seed=seed)
        card, _ = _tuck_first(game)
        stock = game.view(0)["zones"]["stock"]
        assert all(code is None for code in stock)  # the tucker sees no card of the stock
        assert game.state.known is not None and game.state.known[card] == 0


@pytest.mark.parametrize("path, draws_a_game", [(HIGH_CARD, 2), (BURY, 1)], ids=["shuffle-and-deal-again", "place-at-random"])
def test_the_native_backend_draws_chance_during_play_as_the_python_one(path: Path, draws_a_game: int) -> None:
    for game in play_both_backends(load_ruleset(path), range(12)):  # the piles and the draws made, at every step
        assert game.state.shuffles >= draws_a_game  # hands shuffled and dealt again, cards placed at random


def test_the_solver_names_a_place_at_random_as_chance(tmp_path: Path) -> None:
    with pytest.raises(SolveError, match="places one at random") as caught:
        solve(load_ruleset(BURY), seed=1, timeout=5)
    assert caught.value.pos is not None and caught.value.pos.line == line_of(BURY, "face: down, place: random")
    path = mini_with(tmp_path, "  - take_deck: stock\n", "  - take_deck: stock\n"
                                                         "  - move: {from: stock, to: stock, count: 1, place: middle}\n")
    with pytest.raises(RulesetError, match="middle") as bad:
        load_ruleset(path)
    assert bad.value.pos is not None and bad.value.pos.line == line_of(path, "place: middle")
