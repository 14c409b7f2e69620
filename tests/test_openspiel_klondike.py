"""OpenSpiel's Klondike written as a ruleset (benchmarks/openspiel/solitaire.yaml) against
OpenSpiel's own C++ game `solitaire`, through pyspiel: from the same deal, the same legal
moves in every position, the same returns after every move, the same end.

pyspiel deals by chance outcomes, one revealed card each (the seven column tops, then the 24
waste cards, then each face-down column card as a move uncovers it); here they are the cards of
the cardrules game's deal, in that order, so both games play the same cards. OpenSpiel names a
move by the card it lands on and the card it moves, `5♠ ← 4♦`; each cardrules move is named so
too, and the random play (fixed seeds) chooses among OpenSpiel's names.
"""

from __future__ import annotations

import random
from collections import Counter

import pyspiel
import pytest
from cardrules import load_ruleset
from cardrules.agents.bots import RandomBot
from cardrules.python.engine import Game, Move
from cardrules.native import native_backend
from cardrules.model.ruleset import Ruleset
from conftest import BENCHMARKS
from helpers import play_both_backends

RULESET = BENCHMARKS / "openspiel" / "solitaire.yaml"

SUITS = ("spades", "hearts", "clubs", "diamonds")  # OpenSpiel's order: its card index 1-13 are spades
GLYPHS = {"spades": "♠", "hearts": "♥", "clubs": "♣", "diamonds": "♦"}
RANKS = "A23456789TJQK"
EMPTY_COLUMN = "\U0001F0BF"  # OpenSpiel's kGlyphEmpty
END = 0  # OpenSpiel's kEnd: the one action when no move is left


@pytest.fixture(scope="module")
def rules() -> Ruleset:
    return load_ruleset(RULESET)


def card_name(game: Game, card: int) -> str:
    attributes = game.rules.deck.cards[card]
    return RANKS[attributes["rank"] - 1] + GLYPHS[attributes["suit"]]


def reveal_action(game: Game, card: int) -> int:
    """OpenSpiel's chance outcome that reveals `card`: its card index."""
    attributes = game.rules.deck.cards[card]
    return SUITS.index(attributes["suit"]) * 13 + attributes["rank"]


def piles(game: Game, zone: str) -> list[list[int]]:
    return [game.state.piles[p] for p in game.rules.zones[zone].piles]


def openspiel_name(game: Game, move: Move) -> str:
    """The move as OpenSpiel's ActionToString names it: the card it lands on (a suit alone for an
    empty foundation, its empty-column glyph for a space), an arrow, the card it moves."""
    rules = game.rules
    if move.name.startswith("waste_"):
        source = piles(game, "waste")[0][3 * move.seat]  # `choose` keeps the value's index: 0, 3, 6, ...
    else:
        cards = game.state.piles[move.src]
        source = cards[len(cards) - move.count]
    destination = game.state.piles[move.dst]
    if destination:
        target = card_name(game, destination[-1])
    elif rules.pile_zone[move.dst] == "foundation":
        target = GLYPHS[SUITS[rules.zones["foundation"].piles.index(move.dst)]]
    else:
        target = EMPTY_COLUMN
    return f"{target} ← {card_name(game, source)}"


def deal_into(state: pyspiel.State, game: Game) -> set[int]:
    """Play pyspiel's 31 opening chance outcomes: the column tops, left to right, then the
    waste. The cards revealed."""
    order = [column[-1] for column in piles(game, "tableau")] + piles(game, "waste")[0]
    for card in order:
        assert state.is_chance_node()
        state.apply_action(reveal_action(game, card))
    assert not state.is_chance_node()
    return set(order)


def reveal_uncovered(state: pyspiel.State, game: Game, revealed: set[int]) -> None:
    """After a move that uncovered a face-down column card, pyspiel asks which card it is: the
    one the cardrules game has turned up."""
    while state.is_chance_node():
        turned = [column[-1] for column in piles(game, "tableau") if column and column[-1] not in revealed]
        assert len(turned) == 1, turned
        revealed.add(turned[0])
        state.apply_action(reveal_action(game, turned[0]))


def play_both(rules: Ruleset, seed: int, homeward: bool = False) -> Game:
    """One random game in both engines from the seed's deal, choosing among the moves to a
    foundation when there are any if `homeward`; the cardrules game, ended."""
    game = rules.new_game(seed=seed)
    state = pyspiel.load_game("solitaire").new_initial_state()
    revealed = deal_into(state, game)
    rng = random.Random(seed)
    moves = 0
    while not state.is_terminal():
        offered = {state.action_to_string(0, action): action for action in state.legal_actions()}
        if list(offered.values()) == [END]:
            assert game.is_over and game.reason.startswith("no move"), (seed, moves)
            state.apply_action(END)
            break
        assert not game.is_over, (seed, moves, game.reason)
        ours = {openspiel_name(game, move): move for move in game.legal_moves()}
        assert len(ours) == len(game.legal_moves()), (seed, moves)
        assert set(ours) == set(offered), (seed, moves, sorted(ours), sorted(offered))
        home = sorted(name for name, move in ours.items() if move.name.endswith("foundation"))
        name = rng.choice(home if homeward and home else sorted(offered))
        state.apply_action(offered[name])
        game.apply(ours[name])
        moves += 1
        reveal_uncovered(state, game, revealed)
        assert game.scores() == [state.returns()[0]], (seed, moves)
    assert state.is_terminal() and game.is_over, (seed, moves)
    assert game.scores() == [state.returns()[0]]
    if game.reason.startswith("OpenSpiel's depth limit"):
        assert len(state.history()) == 150  # chance outcomes and moves alike
    return game


@pytest.mark.parametrize("homeward", [False, True], ids=["random", "foundations-first"])
def test_the_ruleset_offers_openspiels_moves_and_returns_in_every_position(rules: Ruleset, homeward: bool) -> None:
    # Playing to the foundations first brings Kings home, where OpenSpiel lets them back onto a
    # column but not into a space; uniform play seldom does.
    games = [play_both(rules, seed, homeward) for seed in range(60)]
    made = Counter(move.name for game in games for move in game.history)
    assert min(made.values()) >= 50 and len(made) == len(rules.moves)  # every kind of move, often
    ends = Counter(game.reason.split(" (")[0] for game in games)
    assert ends["OpenSpiel's depth limit"] >= 30 and ends["no move is possible"] >= 1


def test_a_game_ends_at_openspiels_depth_limit_counting_its_chance_outcomes(rules: Ruleset) -> None:
    game = rules.new_game(seed=3)
    rng = random.Random(3)
    while not game.is_over:
        game.apply(rng.choice(game.legal_moves()))
    face_down = sum(1 for column in piles(game, "tableau") for card in column if not game.state.up[card])
    assert game.variable("depth") == len(game.history) + 52 - face_down
    assert game.variable("depth") >= 150 and game.outcome == "over"


def test_the_native_backend_plays_the_ruleset_as_the_python_backend(rules: Ruleset) -> None:
    play_both_backends(rules, range(6))  # every step compared: moves, piles, variables, the end, scores
    native = native_backend(rules)
    for seed in range(6):
        game = rules.new_game(seed=seed)
        bot = RandomBot(seed)
        while not game.is_over:
            game.apply(bot.choose(game))
        position = native.start(rules.new_game(seed=seed))
        assert native.playout(position, seed)[0] == game.scores()[0] and position.moves == len(game.history)
