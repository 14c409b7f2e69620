"""A `take: run` move's pair check (`all(... for a, b in pairs(cards))`) costs one scan per source.

movegen turns such a check into a walk down the source's face-up run, once per source, and loops
the run lengths only up to the longest that passes (`MoveGenerator._plan_runs`). Nothing else may
change: the same moves, in the same order, and the same errors. So every test here lists the moves
with the rewrite and without it (`movegen.RUN_SCAN`, read when a ruleset loads):

* 320 random games of tests/fixtures/runs/spider-like.yaml, 20 for each way its rules are written
  (with and without `match`, the run check before or after the build check, face-down or open
  columns, one or two decks), compared move list by move list;
* every bundled ruleset compiles to the very same code, and plays the same random games;
* explicit deals: exactly which lengths are offered when the longest valid run is shorter than the
  face-up run, which spellings of the check are rewritten and which are not, and that a guard, or a
  check that can fail, fails where and when it did;
* 60 random `when`s made of pair checks and other parts (some of which can fail, some of which read
  the length or the destination), with and without `match`: the same listings, or the same error.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from cardrules import load_ruleset
from cardrules.python import movegen
from cardrules.base.errors import RulesetRuntimeError
from cardrules.base.limits import MAX_STEPS
from conftest import RULESETS

SPIDER = Path(__file__).resolve().parent / "fixtures" / "runs" / "spider-like.yaml"
SPIDER_COMBOS = [{"moves": moves, "order": order, "open": open_, "decks": decks}
                 for moves in ("indexed", "plain") for order in ("run_last", "run_first")
                 for open_ in (False, True) for decks in (1, 2)]
GAMES_PER_COMBO = 20  # 16 combinations: 320 games
MAX_MOVES = 100
SCAN = "while run"  # in the generated code: a pair check became a scan


@contextmanager
def scanning(on: bool) -> Iterator[None]:
    saved = movegen.RUN_SCAN
    movegen.RUN_SCAN = on
    try:
        yield
    finally:
        movegen.RUN_SCAN = saved


def load(source: str | Path, scan: bool, options: dict[str, Any] | None = None) -> Any:
    with scanning(scan):
        return load_ruleset(source, options=options)


@cache
def loaded(source: str, scan: bool, options: tuple[tuple[str, Any], ...] = ()) -> Any:
    return load(source, scan, dict(options))


def listing(game: Any) -> list[tuple[Any, ...]]:
    """The legal moves, in order, each with everything that tells it apart and its text."""
    return [move.key() + (str(move),) for move in game.legal_moves()]


def play_both(fast: Any, plain: Any, seed: int, max_moves: int = MAX_MOVES, counts: Counter[int] | None = None) -> int:
    """One random game on both rulesets (the same seed, the same choices), comparing the legal moves
    before every move and the piles after it; returns the moves made."""
    a, b = fast.new_game(seed=seed), plain.new_game(seed=seed)
    rng = random.Random(seed)
    made = 0
    while made < max_moves and not a.is_over:
        moves = listing(a)
        assert moves == listing(b), f"seed {seed}, after {[str(m) for m in a.history]}"
        if counts is not None:
            counts.update(move[2] for move in moves)  # run lengths offered
        if not moves:
            break
        i = rng.randrange(len(moves))
        a.apply(a.legal_moves()[i])
        b.apply(b.legal_moves()[i])
        made += 1
        assert a.state.piles == b.state.piles and a.state.up == b.state.up
    assert (a.is_over, a.state.outcome) == (b.is_over, b.state.outcome)
    return made


# -- the Spider-like fixture ---------------------------------------------------------------

@pytest.mark.parametrize("combo", SPIDER_COMBOS, ids=lambda c: "-".join(str(v) for v in c.values()))
def test_random_spider_like_games_list_the_same_moves(combo: dict[str, Any]) -> None:
    options = tuple(combo.items())
    fast, plain = loaded(str(SPIDER), True, options), loaded(str(SPIDER), False, options)
    assert SCAN in fast.generated_source and SCAN not in plain.generated_source
    first = SPIDER_COMBOS.index(combo) * GAMES_PER_COMBO
    counts: Counter[int] = Counter()
    made = sum(play_both(fast, plain, seed, counts=counts) for seed in range(first, first + GAMES_PER_COMBO))
    assert made > GAMES_PER_COMBO * MAX_MOVES // 2
    assert counts[3] > 0  # runs of several cards were offered, not only single cards


def test_the_rewrite_makes_listing_cheaper_on_the_fixture() -> None:
    # Steps are the loops' work (limits.MAX_STEPS): with the scan, a run's pairs are looked at once per
    # source instead of once per length and destination.
    for moves in ("indexed", "plain"):
        options = (("moves", moves), ("open", True))
        used = []
        for scan in (True, False):
            rules = loaded(str(SPIDER), scan, options)
            game = rules.new_game(seed=5)
            game.legal_moves()
            used.append(MAX_STEPS - rules.meter.left)
        assert used[0] * 2 < used[1], (moves, used)


# -- bundled rulesets ----------------------------------------------------------------------

BUNDLED = sorted(p.stem for p in RULESETS.glob("*.yaml"))


def option_combos(rules: Any, most: int = 64) -> list[dict[str, Any]]:
    """Every combination of the option values (or, past `most`, each value with the others at their defaults)."""
    names = list(rules.options)
    values = [rules.options[name].values for name in names]
    total = 1
    for v in values:
        total *= len(v)
    if total <= most:
        return [dict(zip(names, combo)) for combo in itertools.product(*values)]
    return [{name: value} for name, vs in zip(names, values) for value in vs]


@pytest.mark.parametrize("name", BUNDLED)
def test_bundled_rulesets_compile_to_the_same_code(name: str) -> None:
    for options in option_combos(load_ruleset(name)):
        assert load(name, True, options).generated_source == load(name, False, options).generated_source, options


@pytest.mark.parametrize("name", BUNDLED)
def test_bundled_rulesets_play_the_same_random_games(name: str) -> None:
    fast, plain = loaded(name, True), loaded(name, False)
    for seed in range(5):
        play_both(fast, plain, seed, max_moves=60)


# -- explicit deals ------------------------------------------------------------------------

RUNS = """\
ruleset: runs
players: 1
deck: DECK
variables:
  trump: {initial: "'spades'"}
zones:
  stock: {short: s}
  column: {count: 5, short: c}
functions:
  "fits(c, p)": "empty(p) or top(p).rank == c.rank + 1"
  "one_suit(cs)": "all(a.suit == b.suit and a.rank == b.rank + 1 for a, b in pairs(cs))"
  "legal(c, p, cs)": "fits(c, p) and one_suit(cs)"
setup:
  - take_deck: stock
  - deal: {from: stock, to: column, counts: "5 if i == 0 else 1", face: up}
moves:
  deal:
    from: stock
    to: column
    do:
      - move: {face: up}
  shift:
    from: column
    take: run
    to: column
    MATCH
    when: "WHEN"
"""
# Indexed: a space takes only a King, so `fits` implies an index (a `match` written as the engine derives it).
INDEXED = 'match: {card: "card.rank", dst: "13 if empty(dst) else top(dst).rank - 1"}'
FITS = '"fits(c, p)": "empty(p) or top(p).rank == c.rank + 1"'
FITS_INDEXED = '"fits(c, p)": "c.rank == 13 if empty(p) else top(p).rank == c.rank + 1"'

# Column 1 holds KD 9H 8S 7S 6S, all face up: the 3 top cards are a run of one suit, the 4 top not.
# Columns 2 to 5 hold 7D, 8D, 9D and TD: a destination for each length but the whole column.
DEAL = ["KD", "7D", "8D", "9D", "TD", "9H", "8S", "7S", "6S"]
SHIFTS = ["c1>c2", "c1x2>c3", "c1x3>c4", "c2>c3", "c3>c4", "c4>c5"]


def runs_ruleset(tmp_path: Path, when: str, match: bool = False, deck: str = "standard-52", more: str = "") -> Path:
    """The ruleset RUNS with this `when` (and `match`, or `more` keys) for its move `shift`."""
    path = tmp_path / f"runs{len(list(tmp_path.iterdir()))}.yaml"
    text = RUNS.replace("DECK", deck).replace("MATCH", INDEXED if match else more).replace("WHEN", when)
    path.write_text(text.replace(FITS, FITS_INDEXED) if match else text, encoding="utf-8")
    return path


def dealt(rules: Any, first: list[str]) -> Any:
    """A game whose deck lists `first` on top, the other cards after them in the deck's order."""
    codes = list(rules.deck.codes)
    for code in first:
        codes.remove(code)
    return rules.new_game(deal=first + codes)


def shifts(game: Any) -> list[str]:
    return [str(m) for m in game.legal_moves() if m.name == "shift"]


def both(path: Path) -> tuple[Any, Any]:
    return load(path, True), load(path, False)


def shift_code(rules: Any) -> str:
    """The generated enumerator of the move `shift`."""
    source = rules.generated_source
    start = source.index(f"def enum_{rules.moves_by_name['shift'].index}(")
    end = source.find("\ndef ", start)
    return source[start:] if end < 0 else source[start:end]


@pytest.mark.parametrize("match", [False, True], ids=["plain", "indexed"])
@pytest.mark.parametrize("when", ["fits(card, dst) and one_suit(cards)", "one_suit(cards) and fits(card, dst)",
                                  "legal(card, dst, cards)"])
def test_only_the_lengths_whose_pairs_pass_are_offered(tmp_path: Path, when: str, match: bool) -> None:
    fast, plain = both(runs_ruleset(tmp_path, when, match))
    assert SCAN in shift_code(fast) and SCAN not in shift_code(plain)
    if not when.startswith("one_suit"):  # (a check before the key that the engine cannot prove safe: no index)
        assert ("INDEX.get(" in shift_code(fast)) == match
    for rules in (fast, plain):
        # 9H onto TD (4 cards) fits, but 9H-8S is not one suit; KD (5 cards) has nowhere to go.
        assert shifts(dealt(rules, DEAL)) == SHIFTS
    # when the check comes first, or nothing before it can fail, lengths past the longest are not looped
    assert "b_stop = len(pile) - run" in shift_code(fast)


@pytest.mark.parametrize("match", [False, True], ids=["plain", "indexed"])
@pytest.mark.parametrize("when,scans", [
    # a direct comprehension; one in a function; one inside an `and` in a function
    ("fits(card, dst) and all(a.suit == b.suit and a.rank == b.rank + 1 for a, b in pairs(cards))", 1),
    ("one_suit(cards) and fits(card, dst)", 1),
    ("legal(card, dst, cards)", 1),
    # two checks, one with a filter (pairs it refuses pass)
    (("all(a.rank == b.rank + 1 for a, b in pairs(cards) if a.suit == b.suit) and "
      "all(a.suit == b.suit for a, b in pairs(cards)) and fits(card, dst)"), 2),
    # what is fixed for a source may be read: the source's top card, a card's face...
    ("fits(card, dst) and all(a.suit == top(src).suit and a.face_up for a, b in pairs(cards))", 1),
    # and a variable, here to let one suit's cards build in any suit
    ("fits(card, dst) and all(a.suit == b.suit or b.suit == trump for a, b in pairs(cards))", 1),
    # not rewritten: the pairs' test reads the destination, the length, or can fail; pairs of another list
    ("fits(card, dst) and all(a.suit == top(dst).suit for a, b in pairs(cards))", 0),
    ("fits(card, dst) and all(a.rank <= b.rank + n for a, b in pairs(cards))", 0),
    ("fits(card, dst) and all(a.rank == b.rank + 1 for a, b in pairs(cards) if 12 / a.rank > 1)", 0),
    ("fits(card, dst) and all(a.suit == b.suit for a, b in pairs(run(src)))", 0),
    ("fits(card, dst) and not all(a.suit == b.suit for a, b in pairs(cards))", 0),
])
def test_which_checks_become_scans_and_that_the_moves_stay_the_same(tmp_path: Path, when: str, scans: int,
                                                                    match: bool) -> None:
    fast, plain = both(runs_ruleset(tmp_path, when, match))
    assert shift_code(fast).count(SCAN) == scans
    assert shifts(dealt(fast, DEAL)) == shifts(dealt(plain, DEAL))
    for seed in range(8):
        play_both(fast, plain, seed, max_moves=80)


def failure(rules: Any, deal: list[str]) -> tuple[str, Any]:
    with pytest.raises(RulesetRuntimeError) as caught:
        dealt(rules, deal).legal_moves()
    return str(caught.value), caught.value.pos


@pytest.mark.parametrize("match", [False, True], ids=["plain", "indexed"])
def test_a_guard_that_can_fail_still_fails_for_lengths_past_the_run(tmp_path: Path, match: bool) -> None:
    # For 4 cards (9H onto TD) the division is by zero: the original tests it before the run check, so
    # the listing fails, though the run check would refuse those 4 cards. The loop must not stop at 3.
    fast, plain = both(runs_ruleset(tmp_path, "fits(card, dst) and 10 / (n - 4) != 0 and one_suit(cards)", match))
    assert shift_code(fast).count(SCAN) == 1
    message, pos = failure(fast, DEAL)
    assert (message, pos) == failure(plain, DEAL)
    assert "division by zero" in message and pos is not None


@pytest.mark.parametrize("match", [False, True], ids=["plain", "indexed"])
def test_a_part_that_can_fail_after_the_check_is_not_reached_past_the_run(tmp_path: Path, match: bool) -> None:
    fast, plain = both(runs_ruleset(tmp_path, "one_suit(cards) and 10 / (n - 4) != 0 and fits(card, dst)", match))
    assert "b_stop = len(pile) - run" in shift_code(fast)
    assert shifts(dealt(fast, DEAL)) == shifts(dealt(plain, DEAL)) == SHIFTS
    # a valid run of 4 reaches it in both
    deal = ["KD", "7D", "8D", "9D", "TD", "9S", "8S", "7S", "6S"]
    assert failure(fast, deal) == failure(plain, deal)


def test_a_check_that_can_fail_keeps_its_code_and_fails_at_the_same_place(tmp_path: Path) -> None:
    # 10 / (a.rank - 7) divides by zero at the pair 7S-6S, reached for 2 cards and more.
    fast, plain = both(runs_ruleset(tmp_path, "fits(card, dst) and all(10 / (a.rank - 7) != 0 for a, b in "
                                              "pairs(cards))"))
    assert SCAN not in shift_code(fast)
    message, pos = failure(fast, DEAL)
    assert (message, pos) == failure(plain, DEAL)
    assert "division by zero" in message and "a.rank - 7" in message


def test_a_deck_whose_cards_may_lack_the_attribute_keeps_the_check(tmp_path: Path) -> None:
    # `b.rank + 1` cannot fail when every card has a number rank; with a card that has none it can.
    deck = tmp_path / "jokers.yaml"
    deck.write_text("deck: jokers\nattributes: {rank: int, suit: str}\ncards:\n"
                    "  - each: {suit: [clubs, diamonds, hearts, spades], rank: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]}\n"
                    "  - {suit: joker}\n"
                    "code: '{rank}{suit}'\n"
                    "code_values: {rank: {1: A, 10: T, 11: J, 12: Q, 13: K}, suit: {clubs: C, diamonds: D, hearts: H, "
                    "spades: S, joker: JOKER}}\n", encoding="utf-8")
    when = "all(a.rank == b.rank + 1 and a.suit == b.suit for a, b in pairs(cards)) and fits(card, dst)"
    fast, plain = both(runs_ruleset(tmp_path, when, deck="jokers.yaml"))
    assert SCAN not in shift_code(fast)
    assert shifts(dealt(fast, DEAL)) == shifts(dealt(plain, DEAL)) == SHIFTS
    joker = ["KD", "7D", "8D", "9D", "TD", "9S", "8S", "JOKER", "6S"]  # for 3 cards: 8S on the joker, none + 1
    message, pos = failure(fast, joker)
    assert (message, pos) == failure(plain, joker)


def test_a_condition_on_the_cards_alone_is_computed_once_per_length(tmp_path: Path) -> None:
    # Without `match` the lengths loop inside each destination; a condition that reads the cards but not
    # the destination is remembered per source and length (fewer steps), with the same moves.
    fast, plain = both(runs_ruleset(tmp_path, "count(c for c in cards if c.rank > 10) <= 1 and fits(card, dst)"))
    assert "memo" in shift_code(fast) and "memo" not in shift_code(plain)
    used = []
    for rules in (fast, plain):
        game = dealt(rules, DEAL)
        assert shifts(game) == ["c1>c2", "c1x2>c3", "c1x3>c4", "c1x4>c5", "c2>c3", "c3>c4", "c4>c5"]
        used.append(MAX_STEPS - rules.meter.left)
    assert used[0] < used[1]
    for seed in range(8):
        play_both(fast, plain, seed, max_moves=80)


def test_a_filtered_check_lets_the_pairs_it_refuses_pass(tmp_path: Path) -> None:
    # Column 1: KD 9H 4C 7S 6S. Pairs of two suits pass whatever their ranks: every length is a run.
    fast, plain = both(runs_ruleset(tmp_path, "fits(card, dst) and "
                                              "all(a.rank == b.rank + 1 for a, b in pairs(cards) if a.suit == b.suit)"))
    assert SCAN in shift_code(fast)
    deal = ["KD", "7D", "8D", "5D", "TD", "9H", "4C", "7S", "6S"]
    for rules in (fast, plain):
        assert [s for s in shifts(dealt(rules, deal)) if s.startswith("c1")] == ["c1>c2", "c1x2>c3", "c1x3>c4",
                                                                                 "c1x4>c5"]


@pytest.mark.parametrize("limit,moves", [(350, None), (400, 89)])
def test_a_check_inside_a_select_search_does_not_shorten_the_search(tmp_path: Path, limit: int,
                                                                    moves: int | None) -> None:
    # `not empty(chosen)` puts the run check inside the loop over selections: the search runs for every
    # length before the check refuses it, and its steps count towards `limit`. With the loop over lengths
    # cut at the run (3 of 5 cards), a search of 350 steps would pass where the listing has always failed.
    select = f"select: {{from: column, max: 1, limit: {limit}}}"
    fast, plain = both(runs_ruleset(tmp_path, "not empty(chosen) and one_suit(cards)", more=select))
    assert SCAN in shift_code(fast) and "b_stop = k - 1" in shift_code(fast)
    if moves is None:
        assert failure(fast, DEAL) == failure(plain, DEAL)
        assert f"would look at more than {limit} selections" in failure(fast, DEAL)[0]
    else:
        assert len(dealt(fast, DEAL).legal_moves()) == moves
        assert listing(dealt(fast, DEAL)) == listing(dealt(plain, DEAL))


# -- random conditions ---------------------------------------------------------------------

PAIR_TESTS = ["a.suit == b.suit", "a.rank == b.rank + 1", "a.color != b.color", "a.rank > b.rank",
              "b.suit == trump", "a.suit == top(src).suit", "a.face_up",
              "a.rank == b.rank + n",          # reads the length: not rewritten
              "top(dst).rank > a.rank",        # reads the destination: not rewritten
              "10 / (a.rank - 7) != 0"]        # can fail: not rewritten
PARTS = ["fits(card, dst)", "n <= 4", "not empty(dst)", "empty(dst) or top(dst).suit == card.suit",
         "count(c for c in cards if c.rank > 10) <= 1", "size(src) > n", "card.rank != 9",
         "10 / (n - 4) != 0", "10 / (size(dst) - 2) != 0", "10 / (card.rank - 9) != 0"]  # the last three can fail


def random_when(rng: random.Random) -> str:
    def pair_check() -> str:
        terms = [rng.choice(PAIR_TESTS) for _ in range(rng.randint(1, 2))]
        body = f" {rng.choice(['and', 'or'])} ".join(terms)
        if rng.random() < 0.2:
            body = f"not ({body})"
        condition = rng.choice(["", "", " if a.suit == b.suit", " if 12 / b.rank > 1"])
        return f"all({body} for a, b in pairs(cards){condition})"

    parts = [pair_check() for _ in range(rng.randint(1, 2))] + rng.sample(PARTS, rng.randint(0, 3))
    rng.shuffle(parts)
    if len(parts) > 2 and rng.random() < 0.3:  # an `and` inside a part
        parts[:2] = [f"({parts[0]} and {parts[1]})"]
    return " and ".join(parts)


def trace(rules: Any, seed: int, deal: list[str] | None, moves: int) -> list[Any]:
    """The listings of a random game, up to the error that ends it if one does (its text and place)."""
    listings: list[Any] = []
    rng = random.Random(seed)
    try:
        game = dealt(rules, deal) if deal else rules.new_game(seed=seed)
        for _ in range(moves):
            listings.append(listing(game))
            if not listings[-1] or game.is_over:
                break
            game.apply(game.legal_moves()[rng.randrange(len(listings[-1]))])
    except RulesetRuntimeError as exc:
        listings.append((str(exc), exc.pos))
    return listings


@pytest.mark.parametrize("case", range(60))
def test_random_conditions_list_the_same_moves_and_fail_the_same_way(tmp_path: Path, case: int) -> None:
    rng = random.Random(f"runs/{case}")
    when = random_when(rng)
    fast, plain = both(runs_ruleset(tmp_path, when, match=rng.random() < 0.5))
    assert trace(fast, case, DEAL, 30) == trace(plain, case, DEAL, 30), when
    for seed in range(3):
        assert trace(fast, seed, None, 30) == trace(plain, seed, None, 30), when
