"""The native backend (native/backend.py) against the Python reference: the same legal moves in the same
order, positions, variables, outcomes and scores at every step; the same simulations; and a clear
fallback wherever it cannot run a ruleset."""

from __future__ import annotations

import itertools
import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from cardrules import load_ruleset, native
from cardrules.base.errors import RulesetRuntimeError
from cardrules.native import Unsupported, native_backend
from cardrules.workbench.simulate import simulate_games
from cardrules.workbench.simulate_play import prepare
from conftest import RULESETS
from test_klondike_rules import ah_deal, dead_deal, won_deal

FIXTURES = Path(__file__).parent / "fixtures" / "native"
BUNDLED = sorted(p.stem for p in RULESETS.glob("*.yaml"))


# Fixture rulesets (not the broken ones, nor fails.yaml, whose every game ends in an error).
FIXTURE_RULESETS = sorted(str(p) for p in (Path(__file__).parent / "fixtures").rglob("*.yaml")
                          if not {"broken", "native"} & set(p.parts) and re.search(r"^ruleset:", p.read_text(), re.MULTILINE))


def _combinations(name: str) -> list[dict[str, Any]]:
    rules = load_ruleset(name)
    names = list(rules.options)
    return [dict(zip(names, values)) for values in itertools.product(*(rules.options[n].values for n in names))]


# Compiling a module costs about 13 s of CPU, so the suite plays three of the six Ten Bucks
# rulesets (ten-bucks-expansions extends wild wagers, zero risk and bad investment together);
# benchmarks/native_differential.py plays them all, with the fixtures and every option combination.
LEFT_TO_THE_BENCHMARK = {"ten-bucks-bad-investment", "ten-bucks-wild-two", "ten-bucks-wild-wagers"}
# Games where every seat plays at once have tests of their own (whole games, every seat's moves).
SIMULTANEOUS = {"nerts", "nerts-match"}
RACE = str(Path(__file__).parent / "fixtures" / "race.yaml")
GATHER = str(Path(__file__).parent / "fixtures" / "gather" / "gather.yaml")


def _cases() -> list[Any]:
    """The bundled rulesets, Klondike with every combination of its options (one compiled module
    serves them all)."""
    cases = [pytest.param(name, {}, id=name) for name in BUNDLED if name not in LEFT_TO_THE_BENCHMARK | SIMULTANEOUS]
    cases += [pytest.param("klondike", options, id="klondike" + "".join(f"-{k}={v}" for k, v in options.items()))
              for options in _combinations("klondike")[1:]]
    # A fixture with an interrupt phase, `act` and a comprehension over a list written out.
    cases.append(pytest.param(str(Path(__file__).parent / "fixtures" / "force.yaml"), {}, id="fixture-force"))
    # Moves that name a value (`choose`: numbers and strings), a variable holding a string, a loop over seats.
    cases.append(pytest.param(str(Path(__file__).parent / "fixtures" / "choose" / "calls.yaml"), {}, id="fixture-calls"))
    cases.append(pytest.param(str(Path(__file__).parent / "fixtures" / "choose" / "calls.yaml"), {"suits": 2},
                              id="fixture-calls-suits=2"))
    # Moves onto other seats' piles (`to_seats`), in games of 2 to 4 seats.
    cases.append(pytest.param(str(Path(__file__).parent / "fixtures" / "seats" / "layoff.yaml"), {},
                              id="fixture-layoff"))
    # Lists joined with `+` (a hand with the starter, walked by subsets; compared with a list built).
    cases.append(pytest.param(str(Path(__file__).parent / "fixtures" / "lists" / "starter.yaml"), {},
                              id="fixture-starter"))
    # Variables holding a card or none (one per seat too), set from themselves.
    cases.append(pytest.param(str(Path(__file__).parent / "fixtures" / "variables" / "cards.yaml"), {},
                              id="fixture-held-cards"))
    # Powers, ranges (loops, membership, sizes) and slices of cards with negative bounds.
    cases.append(pytest.param(str(Path(__file__).parent / "fixtures" / "windows" / "windows.yaml"), {},
                              id="fixture-windows"))
    return cases


EXAMPLES = sorted(str(p) for p in (RULESETS.parent / "examples").glob("*.yaml"))


@pytest.mark.parametrize("name", BUNDLED + EXAMPLES + FIXTURE_RULESETS, ids=lambda n: Path(n).stem)
def test_every_bundled_ruleset_example_and_fixture_lowers_to_native_code(name: str) -> None:
    # (none falls back to Python: issue 32's goal 4; what a ruleset the backend lacks is told is
    # test_native_engine_falls_back_with_one_line_where_a_ruleset_uses_what_it_lacks's)
    source, tables = native.lower(load_ruleset(name))
    compile(source, "<lowered>", "exec")  # Python that Numba can read
    assert tables["deal_refused"] is None  # the start of a game is compiled too (native/deal.py)


def _walk_both(rules: Any, backend: Any, seed: int, max_moves: int, bias: float = 0.0, prefer: tuple[str, ...] = (),
               deal: list[str] | None = None, players: int | None = None) -> tuple[int, str | None]:
    """One seeded game (or `deal`) through both backends, compared at every step. With `bias`, the
    moves named in `prefer` are chosen when offered with that probability."""
    game = rules.new_game(seed=seed, max_moves=max_moves, players=players) if deal is None else \
        rules.new_game(deal=deal, max_moves=max_moves)
    rng = random.Random(seed)

    def choose(legal: list[Any]) -> Any:
        preferred = [m for m in legal if m.name in prefer]
        return rng.choice(preferred if preferred and rng.random() < bias else legal)

    steps = native.compare(backend, game, choose)
    return steps, game.outcome


def test_a_difference_between_the_backends_is_reported_with_the_step_and_what_differs() -> None:
    rules = load_ruleset("klondike")
    backend = native_backend(rules)
    broken = native.Native(rules, backend.source, {"strings": {}, "results": ["", "won", "lost"], "reasons": [""],
                                                   "select_piles": {}})
    broken.np1 += 1  # action numbers of another layout: the lists of legal moves differ at once
    with pytest.raises(native.Mismatch, match=r"after 0 moves of seed 3: the legal moves differ"):
        native.compare(broken, rules.new_game(seed=3), lambda legal: legal[0])


@pytest.mark.parametrize(("name", "options"), _cases())
def test_each_ruleset_plays_the_same_natively_move_for_move_or_names_what_it_lacks_and_where(
        name: str, options: dict[str, Any]) -> None:
    rules = load_ruleset(name, options)
    try:
        backend = native_backend(rules)
    except Unsupported as exc:
        assert exc.what and exc.pos is not None
        assert re.match(r".+\.yaml:\d+:\d+: ", str(exc)), str(exc)
        return
    for players in range(rules.min_players, rules.max_players + 1):
        for seed in range(10 if rules.max_players == 1 else 4):
            _walk_both(rules, backend, seed, 300, players=players)
    if rules.max_players > 1:
        return
    for seed in range(10, 14):  # a solitaire turning its stock more often: the cycle rule and pass limits
        _walk_both(rules, backend, seed, 600, 0.7, ("draw", "redeal"))


def test_gin_rummy_counts_melds_layoffs_and_undercuts_the_same_natively() -> None:
    # (the random walks above seldom knock at Gin Rummy: greedy seats do, so the count of a
    # knock, the least deadwood, the knocker's melds and the layoffs onto them, is compared too)
    from cardrules.agents.bots import make_bot

    rules = load_ruleset("gin-rummy", {"target": 10})
    backend = native_backend(rules)
    knocks = 0
    for seed in range(3):
        game = rules.new_game(seed=seed)
        bots = {s: make_bot("greedy", 10 * seed + s) for s in (0, 1)}
        native.compare(backend, game, lambda legal: bots[game.current_player].choose(game))
        assert game.is_over
        knocks += sum(move.name == "knock" for move in game.history)
    assert knocks >= 3, knocks


def _offered_as_gather_says(game: Any, legal: list[Any]) -> None:
    """The Python backend offers `pair_up` and `match` (gather.yaml) as their rules say: two cards
    of two suits below 8 and a row's top card one rank above the first (`take: {any: 2}` with
    `select`, lists of strings and numbers); a row's top card with the top card of the seat's own
    hand of its rank (`select` from a per-player zone), its suit not among the discard's last two."""
    rules, piles = game.rules, game.state.piles
    suit, rank = (lambda c: rules.deck.cards[c]["suit"]), (lambda c: rules.deck.cards[c]["rank"])
    for move in legal:
        if move.name == "pair_up":
            (row, taken), = move.selection
            assert suit(move.pick[0]) != suit(move.pick[1]) and max(map(rank, move.pick)) < 8
            assert taken == 1 and rank(piles[row][-1]) == rank(move.pick[0]) + 1
        elif move.name == "match":
            (hand, taken), = move.selection
            card = piles[move.src][-1]
            assert hand == rules.zones["hand"].seat_piles[game.current_player][0] and taken == 1
            assert rank(piles[hand][-1]) == rank(card) and suit(card) not in map(suit, piles[move.dst][-2:])


def test_selections_judged_by_their_cards_triggers_over_numbers_slices_and_deals_with_where_play_the_same() -> None:
    # tests/fixtures/gather/gather.yaml: `when` on a selection's chosen cards and piles (listed and
    # applied), a trigger's `for` over a range, slices of piles, of a list of piles and of a range
    # with bounds known only in play, a `deal` with `where` during play, and `take: any` from a
    # hidden pile, blind but for the cards the seat knows; `select` with `take: {any: 2}` and from
    # a per-player zone, lists of numbers and strings built by `list(...)` (indexed, sliced, summed,
    # looped over, `in`, min and max), and winners built over a range. Compared at every step,
    # views included.
    rules = load_ruleset(GATHER)
    backend = native_backend(rules)
    played: set[str] = set()
    outcomes = set()
    for players in (2, 3):
        for seed in range(6):
            game = rules.new_game(seed=seed, players=players)
            rng = random.Random(seed)

            def choose(legal: list[Any]) -> Any:
                _offered_as_gather_says(game, legal)  # noqa: B023 - the game of this loop
                return rng.choice(legal)  # noqa: B023

            native.compare(backend, game, choose, views=True)
            played |= {move.name for move in game.history}
            outcomes.add(game.reason)
            if game.reason == "the stock and the pool are empty":  # the seats with the most points
                scores = game.scores()
                assert game.winners() == [p for p in range(players) if scores[p] == max(scores)]
    assert played == {"stash", "fish", "fish_two", "draw", "spread", "combine", "pair_up", "match"}
    assert "the stock and the pool are empty" in outcomes


def test_legal_moves_strings_in_order_lists_written_out_and_lists_compared_play_the_same_natively() -> None:
    # gather with the option `looking`: `legal_moves()` in a move's effects (the mover's moves in
    # the middle of the move: indexed), in a trigger (`size`, `count`, `in`, indexing) and in an
    # end condition (`all`, in the end check, while the next moves are being listed); `min` of
    # those names and `max` of the discard's suits, strings ordered as Python orders them (not by
    # their numbers in compiled code); lists written out used as values (of numbers sliced, of
    # piles, cards, strings and truth values indexed, empty, sized); lists compared with `==` and
    # `!=` (a list written out, a tuple in Python, is never equal to one built); lists of truth
    # values built by `list(...)` (indexed, looped over, `in`). Compared at every step. A game
    # ends where only fishing is left, others as without the option.
    rules = load_ruleset(GATHER, {"looking": True})
    backend = native_backend(rules)
    reasons: set[str] = set()
    looked: set[str] = set()
    least: set[str] = set()
    most: set[str] = set()
    written: set[tuple[str, Any]] = set()
    alike: set[int] = set()
    ups: set[int] = set()
    for players in (2, 3):
        for seed in range(4):
            game = rules.new_game(seed=seed, players=players)
            rng = random.Random(seed)
            native.compare(backend, game, lambda legal: rng.choice(legal))  # noqa: B023 - this game's
            reasons.add(game.reason)
            looked.add(game.variable("looked"))
            for _ in range(len(game.history)):  # the least name and the greatest suit seen along the game
                least.add(game.variable("least"))
                most.add(game.variable("most"))
                written |= {(name, game.variable(name)) for name in ("seen_suit", "named")}
                alike.add(game.variable("alike"))
                ups.add(game.variable("ups"))
                game.undo()
    assert reasons == {"only fishing is left", "the stock and the pool are empty"}
    assert {"draw", "fish", "fish_two"} <= looked
    assert {"combine", "draw", "fish"} <= least and {"spades", "hearts", "diamonds"} <= most
    # a top card or none (of an empty pile); a name written out, or the variable `looked` among them
    assert {("seen_suit", None), ("seen_suit", "clubs"), ("named", "draw"), ("named", "match")} <= written
    # each comparison (a bit of `alike`) both true and false, but `legal_moves()[:1] != ['draw']` (4)
    # always true; `true in` a list of truth values (1000) both ways
    assert all({value & bit for value in alike} == {0, bit} for bit in (1, 2, 8, 16))
    assert all(value & 4 for value in alike) and {value % 10000 >= 1000 for value in ups} == {False, True}
    assert {value >= 10000 for value in ups} == {False, True}  # an item of a list of truth values written out


def _positions(game: Any) -> list[Any]:
    """The positions a Python game went through from the deal: every pile's cards, the faces, the
    variables, the seat to act and its phase (taken back move by move on a copy)."""
    trial = game.clone()

    def position() -> Any:
        S = trial.state
        return tuple(map(tuple, S.piles)), bytes(S.up), tuple(S.vars), S.current, S.phase

    seen = [position()]
    while trial.state.marks:
        trial.undo()
        seen.append(position())
    return seen[::-1]


def test_a_position_that_comes_back_a_third_time_ends_the_game_the_same_natively() -> None:
    # end.repeat: gather with the option `waiting` (a seat may pass its turn); a seat that may wait
    # mostly does, so positions come back, by waiting and by cards going back and forth.
    rules = load_ruleset(GATHER, {"waiting": True})
    backend = native_backend(rules)
    for players in (2, 3):
        for seed in range(5):
            rng = random.Random(seed)

            def choose(legal: list[Any]) -> Any:
                waits = [move for move in legal if move.name == "wait"]
                return waits[0] if waits and rng.random() < 0.6 else rng.choice(legal)  # noqa: B023

            game = rules.new_game(seed=seed, players=players)
            native.compare(backend, game, choose)
            assert game.reason == "the same position came back a third time"
            positions = _positions(game)  # the last position came back a third time, and no other did before
            assert Counter(positions)[positions[-1]] == 3 and max(Counter(positions[:-1]).values()) == 2
    # A native game started from a Python game goes on counting the positions that game counted:
    # two seats wait, the deal's position comes back a second time; two more waits end the game.
    game = rules.new_game(seed=5, players=2)
    for _ in range(2):
        game.apply(next(move for move in game.legal_moves() if move.name == "wait"))
    assert native.compare(backend, game, lambda legal: next(m for m in legal if m.name == "wait")) == 2
    assert game.reason == "the same position came back a third time"


def test_the_native_backend_runs_every_bundled_ruleset() -> None:
    for name in BUNDLED:
        native.lower(load_ruleset(name))  # raises Unsupported for a construct it lacks


def _walk_simultaneous(rules: Any, backend: Any, seed: int, players: int, prefer: tuple[str, ...] = (),
                       persisted: dict[str, Any] | None = None) -> Any:
    """One seeded game where every seat plays at once through both backends, every seat's moves
    compared at every step: a seeded random seat is focused, then a seeded random seat that has a
    move makes a seeded random one (one named in `prefer` when offered, if any)."""
    game = rules.new_game(seed=seed, players=players, persisted=persisted)
    rng = random.Random(seed)

    def choose(legal: list[Any]) -> Any:
        preferred = [m for m in legal if m.name in prefer]
        return rng.choice(preferred or legal)

    native.compare(backend, game, choose, rng.choice)
    return game


@pytest.mark.parametrize("players", [2, 4])
def test_nerts_where_every_seat_plays_at_once_plays_the_same_natively_for_every_seat(players: int) -> None:
    rules = load_ruleset("nerts")
    backend = native_backend(rules)
    reasons = {_walk_simultaneous(rules, backend, seed, players).reason for seed in range(4)}
    # the first free foundation (`list(f for f in foundation if empty(f))[0]`) took every Ace
    assert "a seat emptied its pile of 13 and called Nerts" in reasons


def test_a_nerts_match_adds_each_hand_to_the_totals_the_same_natively() -> None:
    rules = load_ruleset("nerts-match")
    backend = native_backend(rules)
    totals = rules.variables["total"].slot
    game = _walk_simultaneous(rules, backend, 1, 2)
    assert game.state.vars[totals:totals + 2] == game.scores()  # `on_end` added the hand to the totals
    # a hand that ends the match (`on_end` sets match_over), and a hand after one (`on_start` resets)
    game = _walk_simultaneous(rules, backend, 1, 2, persisted={"total": [95, 95], "match_over": False})
    assert game.persistent_values()["match_over"] is True
    game = _walk_simultaneous(rules, backend, 2, 4, persisted={"total": [95, 95, 0, 0], "match_over": True})
    assert game.state.vars[totals:totals + 4] == game.scores()


def test_a_race_where_every_seat_plays_at_once_ends_the_same_natively_each_way() -> None:
    rules = load_ruleset(RACE)
    backend = native_backend(rules)
    games = [_walk_simultaneous(rules, backend, seed, players, ("play",))
             for players, seed in ((2, 0), (2, 51), (2, 192), (3, 18), (3, 35))]
    # won by the seat whose row is empty (`winners: list(...)`); lost when no seat has a move
    assert [(game.outcome, game.winners()) for game in games] == [
        ("limit", []), ("won", [0]), ("lost", []), ("limit", []), ("limit", [])]


def test_a_seat_made_to_act_where_every_seat_plays_at_once_plays_the_same_natively() -> None:
    # `act` where every seat plays at once (race, option nudging): the seat named becomes the seat to
    # act, and nothing comes back to the seat that acted, so its frames only pile up.
    rules = load_ruleset(RACE, {"nudging": True})
    backend = native_backend(rules)
    for players, seed in ((2, 51), (3, 18)):
        game = _walk_simultaneous(rules, backend, seed, players)
        assert any(move.name == "nudge" for move in game.history)
    game = rules.new_game(seed=3, players=3)
    for turn in range(6):  # (a native game starts where the Python one has more than 4 such frames)
        game.apply(next(move for move in game.legal_moves() if move.name == "nudge"))
        assert game.current_player == (turn + 1) % 3 and len(game.state.frames) == turn + 1
    native.compare(backend, game, random.Random(3).choice)
    python = simulate_games(RACE, 4, options=["nudging=true"], seed=4)
    compiled = simulate_games(RACE, 4, options=["nudging=true"], seed=4, engine="native")
    assert compiled.plan.engine == "native" and compiled.records == python.records


def test_a_native_position_lists_and_applies_any_seats_actions_where_every_seat_plays_at_once() -> None:
    from cardrules.base.errors import IllegalMoveError

    rules = load_ruleset("nerts")
    game = rules.new_game(seed=4, players=3)
    position = native_backend(rules).start(game)
    rng = random.Random(4)
    for _ in range(60):
        seat = rng.randrange(3)
        assert [position.legal_actions(s) for s in range(3)] == [game.legal_actions(s) for s in range(3)]
        action = rng.choice(game.legal_actions(seat))
        position.apply_action(action, seat)
        game.apply_action(action, seat)
        assert position.current_player == game.current_player == seat
        assert position.piles() == [list(p) for p in game.state.piles]
    position.focus(2)
    game.focus(2)
    assert position.legal_actions() == game.legal_actions() and position.current_player == 2
    illegal = next(a for a in range(rules.num_actions) if a not in game.legal_actions(0))
    with pytest.raises(IllegalMoveError, match=f"action {illegal} is not legal now"):
        position.apply_action(illegal, 0)
    assert position.current_player == 2  # a refused move changes nothing
    with pytest.raises(ValueError, match="on the clock"):  # no turn-by-turn playout of such a game
        native_backend(rules).playout(position, 1)


@pytest.mark.parametrize("options", _combinations("klondike"), ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_klondike_deals_that_end_each_way_play_the_same_in_both_backends(options: dict[str, Any]) -> None:
    rules = load_ruleset("klondike", options)
    backend = native_backend(rules)
    outcomes = set()
    # No move, a whole cycle through the stock (or the pass limit), a win, and the move limit.
    for seed in range(3):
        _, outcome = _walk_both(rules, backend, seed, 2000, 0.9, ("draw", "redeal"), dead_deal())
        outcomes.add(outcome)
        _walk_both(rules, backend, seed, 2000, 0.9, ("draw", "redeal"), ah_deal())
        _, outcome = _walk_both(rules, backend, seed, 2000, 0.95, ("to_foundation",), won_deal())
        outcomes.add(outcome)
    _, outcome = _walk_both(rules, backend, 5, 20)
    outcomes.add(outcome)
    assert {"lost", "limit", "won"} <= outcomes


def test_a_native_game_starts_where_a_cycle_through_the_stock_is_under_way() -> None:
    # end.cycle: a native game started from a Python game in the middle of a cycle goes on with the
    # cycle's positions (a deal with no move but turning the stock: the cycle ends it alike), or
    # with the note that a position on the way offered another move.
    rules = load_ruleset("klondike", {"draw": 3})
    backend = native_backend(rules)
    game = rules.new_game(deal=dead_deal())
    for _ in range(5):
        game.apply(game.legal_moves()[0])
    assert game._cycle is not None and len(game._cycle[0]) == 6 and not game._cycle[1]
    assert native.compare(backend, game, lambda legal: legal[0]) == 4
    assert game.reason == "a whole cycle through the stock offered no move but turning it"
    game = rules.new_game(seed=4, max_moves=100)
    while game._cycle is None or not game._cycle[1]:  # turning the stock where another move is offered
        game.apply(next(move for move in game.legal_moves() if move.name in ("draw", "redeal")))
    native.compare(backend, game, random.Random(4).choice)


def test_one_compiled_module_serves_every_option_combination_and_variant() -> None:
    sources = {native.lower(load_ruleset("klondike", options))[0] for options in _combinations("klondike")}
    sources |= {native.lower(load_ruleset(name))[0] for name in ("klondike-draw3", "klondike-vegas")}
    assert len(sources) == 1  # options are inputs of the compiled code, not constants in it


def test_the_compiled_module_is_cached_under_the_hash_of_its_source() -> None:
    backend = native_backend(load_ruleset("klondike"))
    cached = list(native.cache_dir().glob("cardrules_native_*.py"))
    assert any(path.read_text() == backend.source for path in cached)


def test_a_native_position_takes_the_action_numbers_of_the_python_game() -> None:
    from cardrules.base.errors import ArgumentError, IllegalMoveError

    rules = load_ruleset("klondike", {"draw": 3})
    game = rules.new_game(seed=9)
    position = native_backend(rules).start(game)
    rng = random.Random(9)
    for _ in range(80):
        assert position.legal_actions() == game.legal_actions()
        action = rng.choice(game.legal_actions())
        position.apply_action(action)
        game.apply_action(action)
        assert position.piles() == [list(p) for p in game.state.piles]
    with pytest.raises(ArgumentError, match="there is no action -1"):
        position.apply_action(-1)
    illegal = next(a for a in range(rules.num_actions) if a not in game.legal_actions())
    with pytest.raises(IllegalMoveError, match=f"action {illegal} is not legal now"):
        position.apply_action(illegal)


def test_native_random_playouts_make_the_moves_of_the_python_random_bot() -> None:
    from cardrules.agents.bots import RandomBot

    rules = load_ruleset("klondike", {"draw": 3})
    backend = native_backend(rules)
    for seed in range(8):
        game = rules.new_game(seed=seed)
        score, decisions, options, _ = backend.playout(backend.start(game), seed * 31 + 7)
        bot = RandomBot(seed * 31 + 7)
        offered = 0
        while not game.is_over:
            offered += len(game.legal_moves())
            game.apply(bot.choose(game))
        assert (decisions, options, score) == (len(game.history), offered, game.scores()[0])


def test_simulate_with_the_native_engine_gives_the_python_engines_summary() -> None:
    python = simulate_games("klondike", 24, options=["draw=3"], seed=5)
    lines: list[str] = []
    compiled = simulate_games("klondike", 24, options=["draw=3"], seed=5, engine="native", note=lines.append)
    assert compiled.plan.engine == "native" and not lines
    assert compiled.summary == python.summary


@pytest.mark.parametrize("players", [2, 5])
def test_simulate_a_game_of_several_seats_natively_gives_the_python_engines_summary(players: int) -> None:
    python = simulate_games("ten-bucks", 30, players=players, seed=11)
    compiled = simulate_games("ten-bucks", 30, players=players, seed=11, engine="native")
    assert compiled.plan.engine == "native"
    assert compiled.summary == python.summary  # wins by seat, scores, lengths, lead changes, comebacks


def test_simulate_native_engine_on_jobs_gives_the_same_summary() -> None:
    one = simulate_games("klondike", 16, seed=3, engine="native")
    two = simulate_games("klondike", 16, seed=3, engine="native", jobs=2)
    assert one.summary == two.summary


@pytest.mark.parametrize("players", [2, 4])
def test_simulate_nerts_natively_lands_and_refuses_the_moves_the_python_scheduler_does(players: int) -> None:
    python = simulate_games("nerts", 6, players=players, seed=7)
    compiled = simulate_games("nerts", 6, players=players, seed=7, engine="native")
    assert compiled.plan.engine == "native"
    assert compiled.records == python.records  # each game's moves, refusals, decisions, scores and winners
    assert compiled.summary == python.summary
    assert sum(r.refused for r in python.records) > 0  # moves made illegal by another seat's first


def test_simulate_nerts_with_greedy_seats_natively_lands_and_refuses_the_moves_the_python_scheduler_does() -> None:
    seats = ["1=greedy", "2=random", "3=greedy"]  # the greedy bot decides on the clock too
    python = simulate_games("nerts", 2, players=3, seats=seats, seed=5)
    compiled = simulate_games("nerts", 2, players=3, seats=seats, seed=5, engine="native")
    assert compiled.plan.engine == "native"
    assert compiled.records == python.records and compiled.summary == python.summary


def test_simulate_natively_keeps_each_seats_speed_where_every_seat_plays_at_once() -> None:
    seats = ["1=random:speed=3", "2=random:speed=0.5"]
    python = simulate_games("nerts", 3, seats=seats, seed=2)
    compiled = simulate_games("nerts", 3, seats=seats, seed=2, engine="native")
    assert compiled.plan.engine == "native" and compiled.records == python.records


def test_native_engine_falls_back_with_one_line_where_a_ruleset_uses_what_it_lacks(tmp_path: Path) -> None:
    variant = tmp_path / "klondike-looks.yaml"  # a list of lists: the native backend does not cover it
    variant.write_text("extends: klondike\nruleset: klondike-looks\n"
                       "heuristic: \"size(list(list(c.rank for c in cards(p)) for p in tableau))\"\n")
    lines: list[str] = []
    run = simulate_games(str(variant), 2, engine="native", note=lines.append)
    assert run.plan.engine == "python" and len(run.records) == 2
    assert len(lines) == 1 and "not for this ruleset" in lines[0]
    assert re.search(r"klondike-looks\.yaml:\d+:\d+: a list of int_list built by list", lines[0])


def test_native_engine_falls_back_with_one_line_for_bots_other_than_random_and_greedy() -> None:
    lines: list[str] = []
    plan = prepare("klondike", 2, seats=["1=montecarlo"], engine="native", note=lines.append)
    assert plan.engine == "python"
    assert lines == [("native engine: it plays random and greedy seats without parameters only; playing with the "
                      "Python engine")]


@pytest.mark.parametrize("name", ["pass-cards", "peek"])
def test_native_greedy_seats_keep_what_seats_know_of_cards_they_cannot_see(name: str) -> None:
    # A card passed face down stays known to the seat that held it (pass-cards), a card shown to a
    # seat is known to it (peek): the compiled determinize leaves such cards known, and their
    # places' knowledge with the places, as Game.determinize does.
    ruleset = str(Path(__file__).parent / "fixtures" / "hidden" / f"{name}.yaml")
    python = simulate_games(ruleset, 4, players=3, seats=["1=greedy", "2=greedy", "3=random"], seed=3)
    compiled = simulate_games(ruleset, 4, players=3, seats=["1=greedy", "2=greedy", "3=random"], seed=3,
                              engine="native")
    assert compiled.plan.engine == "native"
    assert compiled.records == python.records and compiled.summary == python.summary


def test_without_numba_the_native_backend_says_which_extra_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(native.backend, "native_available", lambda: False)
    with pytest.raises(Unsupported, match=r"cardrules\[native\]"):
        native_backend(load_ruleset("klondike"))


def test_a_rule_that_fails_in_compiled_code_is_reported_by_the_python_backend_at_its_place() -> None:
    ruleset = str(FIXTURES / "fails.yaml")
    rules = load_ruleset(ruleset)
    backend = native_backend(rules)
    with pytest.raises(native.NativeStop):
        backend.playout(backend.start(rules.new_game(seed=1)), 1)
    with pytest.raises(RulesetRuntimeError) as caught:
        simulate_games(ruleset, 1, engine="native")
    assert caught.value.pos is not None and caught.value.pos.line == 19  # the score's line


def _position_of(game: Any) -> tuple[Any, ...]:
    S = game.state
    return [list(p) for p in S.piles], list(S.up), game.scores(), game.outcome, S.current


def _native_position_of(position: Any) -> tuple[Any, ...]:
    return (position.piles(), position.faces(), [position.score(p) for p in range(int(position.M[12]))],
            position.outcome, position.current_player)


@pytest.mark.parametrize(("name", "players"), [("klondike", 1), ("ten-bucks", 2), ("ten-bucks", 5), ("spades", 4),
                                               ("cascades", 1)])
def test_native_greedy_choices_are_the_python_greedy_bots_move_for_move(name: str, players: int) -> None:
    """The compiled GreedyBot.choose (native_bots.choose_action) at every decision of a game, against
    the Python bot: face-down cards (Klondike) and hidden hands (Ten Bucks, Spades) dealt anew with
    the seat's generator, each move tried on a copy; then a whole native greedy playout."""
    from cardrules.agents.bots import GreedyBot

    rules = load_ruleset(name)
    backend = native_backend(rules)
    module = backend.module
    for seed in range(2):
        seeds = [seed * 100 + s for s in range(players)]
        game = rules.new_game(seed=seed, players=players, max_moves=300)
        position = backend.start(game)
        bots = [GreedyBot(s) for s in seeds]
        states = [np.array(random.Random(s).getstate()[1], dtype=np.int64) for s in seeds]
        work = module.greedy_work(position.C, position.N, position.U, position.V, position.M, len(position.out))
        while not game.is_over:
            seat = game.current_player
            move = bots[seat].choose(game)
            code = module.choose_action(position.C, position.N, position.U, position.V, position.O, position.M,
                                        position.out, position.cnt, states[seat], module.GREEDY_SEAT, work)
            assert code == backend.code(move), f"seed {seed}, move {len(game.history)}"
            game.apply(move)
            position.apply_code(code)
        assert all((state == np.array(bot.rng.getstate()[1])).all() for state, bot in zip(states, bots))
        assert _native_position_of(position) == _position_of(game)
        played = backend.start(rules.new_game(seed=seed, players=players, max_moves=300))
        _, decisions, _, _ = backend.playout(played, seeds, "greedy")
        assert decisions == len(game.history) and _native_position_of(played) == _position_of(game)


@pytest.mark.parametrize(("name", "players"), [("klondike", 1), ("ten-bucks", 5), ("spades", 4)])
def test_native_determinize_deals_the_hidden_cards_as_game_determinize(name: str, players: int) -> None:
    """The same places, cards, faces and chance seed as `Game.determinize`, and the same draws."""
    rules = load_ruleset(name)
    backend = native_backend(rules)
    game = rules.new_game(seed=4, players=players)
    position = backend.start(game)
    rng = random.Random(4)
    for step in range(12):
        seat = game.current_player
        C, N, U, V, M = position.C.copy(), position.N.copy(), position.U.copy(), position.V.copy(), position.M.copy()
        mt = np.array(random.Random(step).getstate()[1], dtype=np.int64)
        backend.module.determinize(C, N, U, V, M, seat, mt)
        bot_rng = random.Random(step)
        trial = game.determinize(seat, bot_rng)
        assert [[int(c) for c in C[p, :N[p]]] for p in range(len(N))] == [list(p) for p in trial.state.piles]
        cards = len(rules.deck)
        assert [int(u) for u in U[:cards]] == list(trial.state.up)
        assert trial.state.known is None or [int(k) for k in U[cards + 1:]] == trial.state.known
        assert int(M[native.values.CHANCE]) % 2 ** 64 == trial.state.chance
        assert (mt == np.array(bot_rng.getstate()[1], dtype=np.int64)).all()
        move = rng.choice(game.legal_moves())
        game.apply(move)
        position.apply_code(backend.code(move))


def test_simulate_with_native_greedy_seats_gives_the_python_engines_records_and_summary() -> None:
    python = simulate_games("klondike", 6, seats=["1=greedy"], seed=2)
    compiled = simulate_games("klondike", 6, seats=["1=greedy"], seed=2, engine="native")
    assert compiled.plan.engine == "native"
    assert compiled.records == python.records and compiled.summary == python.summary


def test_simulate_a_mixed_random_and_greedy_seating_natively_gives_the_python_engines_records() -> None:
    seats = ["1=greedy", "2=random", "3=greedy"]
    python = simulate_games("ten-bucks", 12, players=3, seats=seats, seed=7)
    compiled = simulate_games("ten-bucks", 12, players=3, seats=seats, seed=7, engine="native")
    assert compiled.plan.engine == "native"
    assert compiled.records == python.records and compiled.summary == python.summary
    assert {record.winners for record in python.records} != {(1,)}  # the greedy seats win games too


_LACKING_DECK = """deck: lacking
attributes: {rank: int, value: int, mark: str}
cards:
  - {rank: 1, value: 5, mark: a}
  - {rank: 2, mark: b}
  - {rank: 3, value: 7}
  - {rank: 4, value: 2, mark: a}
  - {rank: 5}
code: "r{rank}"
"""

_LACKING_RULES = """ruleset: lacking
deck: lacking.yaml
variables:
  seen: {initial: 0}
zones:
  stock: {}
  row: {count: 2}
setup:
  - take_deck: stock
moves:
  lay:
    from: stock
    to: row
    when: "card.value == none or card.value > size(dst) or card.mark == 'a'"
    do: [move, {add: {seen: "card.value if card.value != none else 100"}}]
  gather:
    from: stock
    to: row
    when: "card.mark == none or card.value == none"
    select: {from: row, take: top, sum: rank, equals: 4}
    do: [move, {move_chosen: {}}]
end:
  max_moves: 12
"""


def test_card_attributes_some_cards_lack_read_as_none_natively(tmp_path: Path) -> None:
    # A number or string attribute that some cards of the deck lack is `none` on those cards (the
    # compiled table of its values has `none` there).
    from helpers import play_both_backends

    (tmp_path / "lacking.yaml").write_text(_LACKING_DECK, encoding="utf-8")
    (tmp_path / "rules.yaml").write_text(_LACKING_RULES, encoding="utf-8")
    rules = load_ruleset(str(tmp_path / "rules.yaml"))
    games = play_both_backends(rules, range(8))
    assert {move.name for game in games for move in game.history} == {"lay", "gather"}
    assert {game.variable("seen") for game in games} == {114, 214}  # 100 for each card without a value


def test_a_variable_that_starts_as_a_string_and_that_no_rule_reads_is_kept_natively(tmp_path: Path) -> None:
    # `note` starts as a string and no rule reads or sets it, `last` starts as one and is set to
    # others: both are held as string numbers, and the native game starts from the Python game's.
    from helpers import play_both_backends

    path = tmp_path / "notes.yaml"
    path.write_text(MINI_NOTES, encoding="utf-8")
    rules = load_ruleset(str(path))
    games = play_both_backends(rules, range(3))
    assert {game.variable("note") for game in games} == {"quiet"}
    assert {game.variable("last") for game in games} <= {"start", "red", "black"} and len(games[0].history) > 2


MINI_NOTES = """ruleset: notes
deck: standard-52
variables:
  note: {initial: "'quiet'"}
  last: {initial: "'start'"}
zones:
  stock: {}
  waste: {}
setup:
  - take_deck: stock
moves:
  draw:
    from: stock
    to: waste
    do: [move, {set: {last: "'red' if card.color == 'red' else 'black'"}}]
end:
  max_moves: 10
"""


_LISTS_THAT_FAIL = """ruleset: failing-lists
deck: standard-52
variables:
  zero: {initial: 0}
  kind: {initial: 0}
zones:
  stock: {}
  waste: {}
setup:
  - take_deck: stock
moves:
  draw: {from: stock, to: waste}
  built_and_written:
    when: "kind == 0"
    do: [{set: {kind: 1}}]
  strings_and_numbers:
    when: "kind == 0"
    do: [{set: {kind: 2}}]
triggers:
  - name: a list written out against one built
    when: "kind == 1 and [1] == list(1 for c in cards(stock)[5 / zero:])"
    do: [{set: {kind: 0}}]
  - name: strings against numbers
    when: "kind == 2 and list(c.suit for c in cards(stock)) == list(c.rank for c in cards(stock)[5 / zero:])"
    do: [{set: {kind: 0}}]
"""


@pytest.mark.parametrize("move", ["built_and_written", "strings_and_numbers"])
def test_lists_compared_are_both_computed_natively_whatever_the_answer(tmp_path: Path, move: str) -> None:
    # A list written out is never equal to one built, nor a list of strings to one of numbers unless
    # both are empty: compiled code still computes both, as Python does, so an error in either
    # (here a slice bound divided by zero) stops it where Python raises.
    path = tmp_path / "lists.yaml"
    path.write_text(_LISTS_THAT_FAIL, encoding="utf-8")
    rules = load_ruleset(str(path))
    backend = native_backend(rules)
    game = rules.new_game(seed=1)
    position = backend.start(game)
    chosen = next(m for m in game.legal_moves() if m.name == move)
    with pytest.raises(RulesetRuntimeError, match="division by zero"):
        game.apply(chosen)
    with pytest.raises(native.NativeStop):
        position.apply_code(backend.code(chosen))


def _state_of(position: Any) -> Any:
    return (position.piles(), position.faces(), position.legal_codes(), position.is_over, position.moves,
            position.outcome, position.reason, position.score(0))


def test_a_kept_position_holds_its_state_and_plays_on_as_the_position_it_was_copied_from() -> None:
    # Bundled Klondike: its `end.cycle` keeps the positions of a turn through the stock under way. A
    # copy (`clone`) holds the legal moves and those positions, not room to list or track more
    # (which it makes when played on); played on with the same moves as the original, and set back
    # (`copy_from`) into another kept copy, it plays the same moves to the same positions.
    rules = load_ruleset(RULESETS / "klondike.yaml")
    backend = native_backend(rules)
    kept_during_a_cycle = kept_in_all = 0
    for seed in range(8):
        rng = random.Random(seed)
        position = backend.start(rules.new_game(seed=seed))
        keeps, kept_tracking = 0, False
        while not position.is_over:
            tracking = position.M[6] == 2 and position.M[8] > 1  # (CYCLE, SEEN: a turn through the stock kept)
            if keeps < 3 and rng.random() < 0.02 or tracking and not kept_tracking:
                keeps += 1
                kept_tracking |= tracking
                kept = position.clone()
                seen = int(position.M[8]) if tracking else 0  # (SEEN)
                kept_during_a_cycle += seen > 0
                assert len(kept.out) == position.cnt and len(kept.CK) == seen
                assert sum(a.nbytes for a in (kept.out, kept.CK)) == 8 * (position.cnt + seen * len(rules.deck))
                other = position.clone()
                other.copy_from(kept)  # (a kept copy set back into another)
                ahead = rng.getstate()
                for copy in (kept, other):
                    rng.setstate(ahead)
                    trial, original = copy, position.clone()
                    for _ in range(30):
                        assert _state_of(trial) == _state_of(original)
                        if trial.is_over:
                            break
                        code = rng.choice(trial.legal_codes())
                        trial.apply_code(code)
                        original.apply_code(code)
                rng.setstate(ahead)
                kept_in_all += 1
            position.apply_code(rng.choice(position.legal_codes()))
    assert kept_during_a_cycle > 0 and kept_in_all >= 10


def test_a_kept_position_of_openspiel_klondike_holds_at_most_16_kb() -> None:
    # issue 32, goal 1: a search keeps positions by the thousand
    rules = load_ruleset(Path(__file__).resolve().parent.parent / "benchmarks" / "openspiel" / "solitaire.yaml")
    position = native_backend(rules).start(rules.new_game(seed=1))
    kept = position.clone()
    held = sum(a.nbytes for a in (kept.C, kept.N, kept.U, kept.V, kept.M, kept.out, kept.CK, kept.KEY))
    assert held <= 16 * 1024
    kept.apply_code(kept.legal_codes()[0])  # and is played on as any position
    assert len(kept.out) == kept.native.max_legal
