"""Observations for agents (model/observation.py): the tensor holds what the seat's view holds and
nothing else, and the information state string tells two games apart exactly by what the seat saw."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from cardrules import load_ruleset
from cardrules.base.errors import ArgumentError

ROOT = Path(__file__).resolve().parent.parent

# Rulesets with something to hide: hands (Ten Bucks, Spades), a hand shown to one seat (Peek),
# face-down piles (Klondike), moves out of turn (Snap), every seat at once (Nerts).
OBSERVED = [("klondike", None), ("ten-bucks", 3), ("spades", 4), (ROOT / "examples" / "ten-bucks-peek.yaml", 3),
            (ROOT / "examples" / "snap.yaml", 3), ("nerts", 2)]


def decoded(game, seat):
    """The tensor read back: for each pile, its cards the seat sees by place (None where not), and sizes."""
    layout = game.rules.observation
    tensor = game.observation_tensor(seat)
    n = layout.cards
    at = layout.offsets
    piles = []
    for pile in range(layout.piles):
        size = round(tensor[at["sizes"] + pile] * n)
        places: list = [None] * size
        for card in range(n):
            value = tensor[at["cards"] + pile * n + card]
            if value:
                places[round(value * n) - 1] = game.rules.deck.codes[card]
        hidden = round(tensor[at["hidden"] + pile] * n)
        piles.append((places, hidden))
    return piles


def viewed(game, seat):
    """The view's piles, by pile number: card codes, None for a card the seat cannot see."""
    view = game.view(seat)
    piles = {}
    for zone in game.rules.zones.values():
        shown = view["zones"][zone.name]
        groups = [zone.piles] if zone.seat_piles is None else zone.seat_piles[:game.players]
        lists = [shown] if zone.seat_piles is None else shown
        for group, seen in zip(groups, lists):
            seen = [seen] if zone.single else seen
            for pile, cards in zip(group, seen):
                piles[pile] = cards
    return piles


def positions(rules, players, seeds, steps):
    """Seeded random games, each at its first `steps` positions (in a game where every seat plays
    at once, the seat that moves drawn at random too)."""
    for seed in seeds:
        game = rules.new_game(seed=seed, players=players)
        rng = random.Random(seed)
        for _ in range(steps):
            if game.is_over:
                break
            yield seed, game
            seat = rng.randrange(game.players) if rules.simultaneous else None
            moves = game.legal_moves(seat)
            if moves:
                game.apply(rng.choice(moves))


@pytest.mark.parametrize("ruleset, players", OBSERVED, ids=lambda v: Path(str(v)).stem if v else "")
def test_the_tensor_holds_exactly_the_cards_the_view_shows_at_every_step(ruleset, players):
    for seed, game in positions(load_ruleset(ruleset), players, range(4), 60):
        for seat in range(game.players):
            piles = decoded(game, seat)
            for pile, cards in viewed(game, seat).items():
                places, hidden = piles[pile]
                assert places == cards, (seed, seat, pile)
                assert hidden == cards.count(None)


@pytest.mark.parametrize("ruleset, players", OBSERVED[1:4], ids=lambda v: Path(str(v)).stem if v else "")
def test_a_seat_observes_the_same_whatever_the_cards_it_cannot_see(ruleset, players):
    differs = 0
    for seed, game in positions(load_ruleset(ruleset), players, range(6), 15):
        for seat in range(players):
            other = game.determinize(seat, random.Random(seed + 100))
            assert other.observation_tensor(seat) == game.observation_tensor(seat)
            assert other.observation_string(seat) == game.observation_string(seat)
            differs += other.observation_tensor((seat + 1) % players) != game.observation_tensor((seat + 1) % players)
    assert differs  # the copies did deal the hidden cards anew


def test_the_layout_covers_every_entry_and_the_values_lie_within_the_bounds():
    for name, players in (("klondike", None), ("ten-bucks", 6), ("spades", 4), ("dollartaire", None)):
        rules = load_ruleset(name)
        layout = rules.observation
        assert sum(part.length for part in layout.parts) == layout.size
        assert [p.offset for p in layout.parts] == sorted(p.offset for p in layout.parts)
        low, high = layout.bounds()
        for _, game in positions(rules, players, range(1, 2), 40):
            tensor = game.observation_tensor()
            assert len(tensor) == layout.size
            assert all(lo <= v <= hi for lo, v, hi in zip(low, tensor, high))


def test_the_tensor_marks_the_seat_the_seat_to_act_the_phase_and_the_variables():
    rules = load_ruleset("ten-bucks")
    game = rules.new_game(seed=2, players=3)
    at = rules.observation.offsets
    tensor = game.observation_tensor(2)
    assert tensor[at["seat"]:at["seat"] + rules.max_players] == [0, 0, 1, 0, 0, 0]
    assert tensor[at["to_act"] + game.current_player] == 1
    slot = rules.variables["played"].slot
    assert (tensor[at["variables"] + 2 * slot], tensor[at["variables"] + 2 * slot + 1]) == (0, 1)  # none
    slot = rules.variables["mover"].slot
    assert tensor[at["variables"] + 2 * slot] == game.variable("mover")
    assert tensor[at["over"]] == 0


def _draws_through_the_stock(deal):
    rules = load_ruleset("klondike")
    game = rules.new_game(deal=deal)
    while True:
        moves = {m.name: m for m in game.legal_moves()}
        if "draw" not in moves:
            game.apply(moves["redeal"])
            return game
        game.apply(moves["draw"])


def test_the_information_state_remembers_cards_seen_that_are_hidden_again():
    # Two deals differing in the order of two stock cards: drawn through the stock and turned
    # back, both stand alike (the stock face down), but the player saw the waste in another order.
    rules = load_ruleset("klondike")
    first = rules.new_game(seed=5)
    stock = first.state.piles[rules.zones["stock"].piles[0]]
    order = list(first.state.deck_order)
    i, j = order.index(stock[0]), order.index(stock[1])
    swapped = list(order)
    swapped[i], swapped[j] = swapped[j], swapped[i]
    codes = rules.deck.codes
    a = _draws_through_the_stock(" ".join(codes[c] for c in order))
    b = _draws_through_the_stock(" ".join(codes[c] for c in swapped))
    assert a.observation_tensor() == b.observation_tensor()
    assert a.observation_string() == b.observation_string()
    assert a.information_state_string() != b.information_state_string()
    a.undo()
    assert a.information_state_string().count("\n") == len(a.history)


def test_the_information_state_is_the_same_for_hands_the_seat_never_saw():
    rules = load_ruleset("spades")
    first = rules.new_game(seed=7)
    hands = [first.state.piles[p] for p in rules.zones["hand"].seat_piles[1] + rules.zones["hand"].seat_piles[2]]
    order = list(first.state.deck_order)
    i, j = order.index(hands[0][0]), order.index(hands[1][0])
    order[i], order[j] = order[j], order[i]
    second = rules.new_game(deal=" ".join(rules.deck.codes[c] for c in order))
    for game in (first, second):
        for _ in range(4):  # every seat bids 3
            game.apply(next(m for m in game.legal_moves() if m.text().endswith("3")))
    assert first.information_state_string(0) == second.information_state_string(0)
    assert first.information_state_string(3) == second.information_state_string(3)
    assert first.information_state_string(1) != second.information_state_string(1)
    assert first.information_state_string(0).count("\n") == 4


def test_an_observer_must_be_a_seat_of_the_game():
    game = load_ruleset("ten-bucks").new_game(seed=1, players=3)
    for bad in (3, -1, "1", 1.0):
        with pytest.raises(ArgumentError, match="seat index"):
            game.observation_tensor(bad)
        with pytest.raises(ArgumentError, match="seat index"):
            game.information_state_string(bad)
