"""Backend 2: a ruleset compiled to native code with Numba.

The front end (parse, check, types; `model/ruleset.py`'s build) has already accepted the ruleset.
This backend lowers the front end's typed trees (front/typed.py; the options kept as nodes, since
one module serves every combination of them: native/expressions.py) to array code that Numba
compiles: the state is flat integer arrays (`C[pile, i]` the cards of each pile bottom
first, `N[pile]` the sizes, `U[card]` the face bits, `V[slot]` the variables, `M` the game's
meta fields), moves are integers (`Native.code`), and listing, applying, triggers, end checks,
scoring and whole random playouts run in compiled code. Options are run-time inputs (`O`), so
one compiled module serves every option combination of a ruleset (that keeps its deck); it is
cached in the user cache folder under the hash of its generated source, and only the first load
pays for compiling. The helpers all rulesets share live in `native/runtime.py`.

Only code generated here from the typed trees reaches Numba (names are mapped, literals go
through `repr`); ruleset text is never evaluated. The Python backend stays the reference: where a
ruleset uses a construct this backend does not cover, `native_backend` says which one and where,
and callers keep the Python backend. Where compiled code meets an error (arithmetic on `none`, an
index out of range, a 64-bit overflow), it stops with `NativeStop`, and the caller replays the
game's moves through the Python backend, which reports (or, for an intermediate overflow Python
does not have, continues) exactly as the reference does. A function Numba fails to type or lower
(a fault of this backend, never of the ruleset) stops the same way, at that call and every later
one, so the Python backend plays such a ruleset instead of a crash.

What it covers, and what not yet: docs/native.md. A game starts in compiled code too (`Native.deal`:
the deck shuffled from the seed as Python shuffles it, then the setup, native/deal.py), or from a
Python game's position (`Native.start`). Games where every seat plays at once add
`native/simultaneous.py` to their module: each seat's moves, and the clock of `simulate`.
"""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path
from typing import Any

from .bots import SEAT_KINDS
from .cache import _first_line, _load_module
from .game import NativeGame, _Fields, _int_of, deal_scratch
from .module import lower
from .values import (CURRENT, MAX_LEGAL, MAX_MOVES, MAX_REPEAT_POSITIONS, MOVES, NO_STR, OVER, PLAYERS, NativeStop,
                     Unsupported, _seat_radix, seed_words)


def native_available() -> bool:
    """Is Numba installed (the native backend's compiler)?"""
    return importlib.util.find_spec("numba") is not None


class Native:
    """The native backend of one loaded ruleset (with its options)."""

    def __init__(self, rules: Any, source: str, tables: dict[str, Any]) -> None:
        import numpy

        self.np = numpy
        self.rules = rules
        self.source = source
        self.module = _load_module(source)
        from numba.core.errors import NumbaError

        # Set when Numba fails to type or lower a function of the module (a fault of the native
        # backend, never of the ruleset): every later call stops, and the Python backend plays.
        self.numba_error: type[Exception] = NumbaError
        self.fault: str | None = None
        strings = tables["strings"]
        self.strings: dict[str, int] = strings
        self.string_slots = frozenset(tables.get("string_slots", ()))
        self.card_slots = frozenset(tables.get("card_slots", ()))
        self.nocard = int(tables.get("nocard", 0))
        self.results: list[str] = tables["results"]
        self.reasons: list[str] = tables["reasons"]
        values = []
        for name in rules.options:
            value = rules.option_values[name]
            values.append(strings.get(value, -2) if isinstance(value, str) else int(value))
        self.options = numpy.array(values or [0], dtype=numpy.int64)
        self.max_legal = MAX_LEGAL
        self.np1, self.cap1 = rules.pile_count + 1, len(rules.deck) + 1
        self.seat_radix = _seat_radix(rules)
        self.select_piles: dict[int, list[int]] = tables.get("select_piles", {})
        self.selection_radix = self.cap1 ** tables.get("selection_digits", 0)
        self._random_kinds: dict[int, Any] = {}  # by seats: every seat random (SEAT_KINDS), for random_playout
        # Why the start of a game is not compiled (None: `deal` deals in compiled code), and its scratch arrays.
        self.deal_refused: str | None = tables.get("deal_refused", "the module has no deal")
        self._deal_scratch: tuple[Any, Any, Any] | None = None
        # Does compiled code draw chance (`shuffle`, a random place)? It keeps the chance seed as 64 bits
        # (M[CHANCE]): a game whose seed lies outside 0 to 2**64 - 1 is played in Python.
        self.draws_chance = any(f"{draw}(" in source for draw in ("shuffle_pile", "bury_top", "draw_index"))

    def compiled_before(self) -> bool:
        """Is this module's compiled code at hand (compiled in this process, or its Numba index
        files in the cache), so that its first use costs a load and not a compile?"""
        name = self.module.__name__
        for value in vars(self.module).values():  # a Numba dispatcher of this module that has compiled here
            if getattr(value, "signatures", None) and getattr(value, "__module__", None) == name:
                return True
        folder = Path(self.module.__file__).parent / "__pycache__"
        return any(folder.glob(f"{name}.*.nbi"))

    def code(self, move: Any) -> int:
        """A move's number as the compiled code lists it (sparse, with every field; the API's
        action numbers are `model/actions.py`'s)."""
        pick = -2 if move.pick is None else move.pick  # -1: a blind pick
        piles = self.select_piles.get(move.template, [])
        others = 0
        if isinstance(pick, tuple):  # `take: {any: K}`: the first card, then the others as digits after the select's
            pick, others = pick[0], sum(card * self.cap1 ** (len(piles) + i) for i, card in enumerate(pick[1:]))
        number = (((((move.template * self.np1 + move.src + 1) * self.np1 + move.dst + 1) * self.cap1 + move.count)
                   * (self.cap1 + 1) + pick + 2) * self.seat_radix + move.seat + 1)
        selection = sum(count * self.cap1 ** piles.index(pile) for pile, count in move.selection)
        return number * self.selection_radix + selection + others

    def move_fields(self, code: int) -> _Fields:
        """The move the compiled code numbers `code`, field by field (the inverse of `code`)."""
        code, selection = divmod(code, self.selection_radix)
        code, seat = divmod(code, self.seat_radix)
        code, pick = divmod(code, self.cap1 + 1)
        code, count = divmod(code, self.cap1)
        code, dst = divmod(code, self.np1)
        template, src = divmod(code, self.np1)
        piles = self.select_piles.get(template, [])
        chosen = tuple((pile, selection // self.cap1 ** i % self.cap1) for i, pile in enumerate(piles))
        picks = self.rules.moves[template].picks
        picked: int | tuple[int, ...] | None = None if pick == 0 else pick - 2
        if picks > 1 and pick > 0:  # `take: {any: K}`: the other cards are the selection's digits after the select's
            picked = (pick - 2, *(selection // self.cap1 ** (len(piles) + i) % self.cap1 for i in range(picks - 1)))
        return _Fields(template, src - 1, count, dst - 1, tuple(c for c in chosen if c[1]), picked, seat - 1)

    def variable_codes(self, values: list[Any]) -> list[int]:
        """Variables' values as the compiled code holds them: numbers, truth values as 0 / 1, a
        string as its id (NO_STR for none), a card as its number (NOCARD for none), none as NO_INT."""
        return [self._variable_code(slot, v) for slot, v in enumerate(values)]

    def _variable_code(self, slot: int, value: Any) -> int:
        if slot in self.string_slots:
            return NO_STR if value is None else self.strings.get(value, -2)
        if slot in self.card_slots:
            return self.nocard if value is None else int(value)
        return _int_of(value)

    def call(self, name: str, *args: Any) -> Any:
        """Call the compiled module's function `name`. Where compiled code stops (an error of the
        game), or Numba fails to build the function (a fault of this backend, kept: every later call
        stops at once), raises `NativeStop`."""
        if self.fault is not None:
            raise NativeStop(self.fault)
        try:
            return getattr(self.module, name)(*args)
        except self.module.Stop as exc:
            raise NativeStop(f"compiled code stopped: {exc}") from None
        except self.numba_error as exc:  # compiled lazily, at a first call
            self.fault = f"compiled code could not be built ({name}: {_first_line(exc)})"
            raise NativeStop(self.fault) from None

    def start(self, game: Any) -> NativeGame:
        """The native copy of a Python game's position (a fresh game, or any between moves)."""
        return NativeGame(self, game)

    def deal(self, seed: int, players: int | None = None, max_moves: int | None = None) -> NativeGame:
        """A new game from `seed`, the position `start(rules.new_game(seed=seed, players=players,
        max_moves=max_moves))` gives, dealt in compiled code where the module can
        (`deal_refused` says why not) and the game is not over at the deal; else dealt in Python
        and copied."""
        rules = self.rules
        players = rules.default_players if players is None else players
        if self.deal_refused is None and type(seed) is int and 0 <= seed < 2 ** 63 \
                and type(players) is int and rules.min_players <= players <= rules.max_players \
                and (max_moves is None or type(max_moves) is int and max_moves >= 0):
            if self._deal_scratch is None:
                self._deal_scratch = deal_scratch(self)
            game = NativeGame.dealt(self, seed, players, max_moves if max_moves is not None else rules.max_moves,
                                    self._generators([seed])[0], self._deal_scratch)
            if not game.is_over:  # (over at the deal: Python's game keeps how it ended)
                return game
        return self.start(rules.new_game(seed=seed, players=players, max_moves=max_moves))

    def limit_reason(self, game: NativeGame) -> str:
        return f"the move limit ({game.M[MAX_MOVES]}) was reached"

    def playout(self, game: NativeGame, seed: int | list[int], kinds: str | list[str] = "random") -> \
            tuple[int, int, int, int]:
        """Play `game` to its end as `bots.RandomBot(seed)` (or `bots.GreedyBot(seed)`, for `kinds`
        "greedy") would at every seat, or with `seed` and `kinds` lists, as the bot of kind
        kinds[s] seeded seed[s] at seat s: the same moves, from the same Mersenne Twister draws.
        Returns seat 0's final score, the decisions, the legal moves summed over them and the
        decisions that had a choice (`game.stats` has the turns, lead changes and leaders after
        every move too). Raises `NativeStop` where compiled code met an error: the Python backend,
        playing the same game, then says what it is."""
        if self.rules.simultaneous:
            raise ValueError("every seat plays at once: scheduled_playout plays such a game, on the clock")
        seeds = seed if isinstance(seed, list) else [seed] * int(game.M[PLAYERS])
        mt, seat_kinds, work, lead = self._bots(game, seeds, kinds)
        game.repeat_room(self._moves_left(game))
        game.make_room()
        stats = self.np.zeros(5, dtype=self.np.int64)
        score = int(game._call("playout", game.C, game.N, game.U, game.V, game.O, game.M, game.out, game.CK,
                               game.BK, game.KEY, game.MC, game.TMP, mt, seat_kinds, work, stats, lead))
        game.stats, game.lead = stats, lead
        return score, int(stats[0]), int(stats[1]), int(stats[2])

    def random_playout(self, game: NativeGame, MT: Any, lead: Any, stats: Any) -> None:
        """Play `game` to its end (or its move limit) with a random move at every seat, seat s
        drawing from the Mersenne Twister state MT[s] (advanced in place): a search's playout, with
        its scratch arrays made once (`lead` longer than the moves the game may make, `stats` 5)."""
        players = int(game.M[PLAYERS])
        kinds = self._random_kinds.get(players)
        if kinds is None:
            kinds = self._random_kinds[players] = self.np.zeros(players, dtype=self.np.int64)
        game.make_room()
        game._call("playout", game.C, game.N, game.U, game.V, game.O, game.M, game.out, game.CK, game.BK, game.KEY,
                   game.MC, game.TMP, MT, kinds, None, stats, lead)

    def scheduled_playout(self, game: NativeGame, seeds: list[int], clock_seed: int, speeds: list[float],
                          jitter: float, kinds: str | list[str] = "random") -> tuple[int, int, int, int]:
        """Play `game`, where every seat plays at once, to its end as `simulate.play_game` does with a
        `scheduler.Scheduler(game, bots, clock_seed, speeds)` and at each seat s a bot of kind
        kinds[s] (random or greedy) seeded seeds[s]: the same moves landed and refused, in the same
        order of time. Returns the decisions, the legal moves summed over them, the decisions that
        had a choice and the moves refused (`game.stats` has the moves landed and lead changes too,
        `game.lead` the leaders after every move). Raises as `playout`."""
        np = self.np
        mt, seat_kinds, work, lead = self._bots(game, seeds, kinds)
        game.repeat_room(self._moves_left(game))
        game.make_room()
        clock = np.array([random.Random(f"{clock_seed}/{s}").getstate()[1] for s in range(int(game.M[PLAYERS]))],
                         dtype=np.int64)
        stats = np.zeros(6, dtype=np.int64)
        game._call("scheduled_playout", game.C, game.N, game.U, game.V, game.O, game.M, game.out, game.CK, game.BK,
                   game.KEY, game.MC, game.TMP, mt, clock, seat_kinds, work, np.array(speeds, dtype=np.float64),
                   float(jitter), stats, lead)
        game.cnt = 0 if game.M[OVER] else game._call("seat_legal", game.C, game.N, game.U, game.V, game.O, game.M,
                                                     game.out, int(game.M[CURRENT]))
        game.stats, game.lead = stats, lead
        return int(stats[0]), int(stats[1]), int(stats[2]), int(stats[5])

    @staticmethod
    def _moves_left(game: NativeGame) -> int:
        """The moves a playout may still make (its positions to keep, for `end.repeat`)."""
        if game.M[MAX_MOVES] >= 0:
            return int(game.M[MAX_MOVES] - game.M[MOVES])
        return MAX_REPEAT_POSITIONS

    def _bots(self, game: NativeGame, seeds: list[int], kinds: str | list[str]) -> tuple[Any, Any, Any, Any]:
        """What a playout's bots need: each seat's Mersenne Twister (`random.Random(seed)`'s state),
        its kind of bot as compiled code numbers it, the arrays the greedy bot works in (None
        without greedy seats: then the greedy bot's code is left out of what compiles), and the
        array of the leaders after every move."""
        np = self.np
        players = int(game.M[PLAYERS])
        kinds = kinds if isinstance(kinds, list) else [kinds] * players
        if any(kind not in SEAT_KINDS for kind in kinds):
            raise ValueError(f"native playouts play {' and '.join(SEAT_KINDS)} seats, not {kinds}")
        mt = self._generators(seeds)
        seat_kinds = np.array([SEAT_KINDS.index(kind) for kind in kinds], dtype=np.int64)
        work = game._call("greedy_work", game.C, game.N, game.U, game.V, game.M, self.max_legal) \
            if "greedy" in kinds else None
        length = (int(game.M[MAX_MOVES]) if game.M[MAX_MOVES] >= 0 else 100_000) + 1
        # (the leaders after each move the playout makes are written as it makes it: only those
        # before it are cleared, so that a long move limit costs no more than the moves made)
        lead = np.empty(length if players > 1 else 1, dtype=np.int64)
        lead[:int(game.M[MOVES]) + 1] = 0
        return mt, seat_kinds, work, lead


    def _generators(self, seeds: list[int]) -> Any:
        """The Mersenne Twister states of `random.Random(seed)` for each seed, a row each: seeded in
        compiled code (seeds of at most 64 bits), else taken from Python's generator."""
        np = self.np
        words = [seed_words(seed) if type(seed) is int else None for seed in seeds]
        if any(w is None for w in words):
            return np.array([random.Random(s).getstate()[1] for s in seeds], dtype=np.int64)
        keys = np.zeros((len(seeds), 2), dtype=np.int64)
        lengths = np.empty(len(seeds), dtype=np.int64)
        for i, w in enumerate(words):
            assert w is not None
            keys[i, :len(w)] = w
            lengths[i] = len(w)
        mt = np.empty((len(seeds), 625), dtype=np.int64)
        self.call("mt_seed_rows", mt, keys, lengths)
        return mt


def native_backend(rules: Any) -> Native:
    """The native backend of a loaded ruleset; raises `Unsupported` (saying what and where) when
    Numba is missing or the ruleset uses a construct the backend does not cover."""
    cached = rules.backends.get("native")  # kept with the ruleset, for as long as it lives
    if cached is not None:
        if cached[1] is not None:
            raise cached[1]
        assert cached[0] is not None
        return cached[0]
    try:
        if not native_available():
            raise Unsupported("Numba is not installed (pip install 'cardrules[native]')")
        source, tables = lower(rules)
        backend: Native | None = Native(rules, source, tables)
        problem = None
    except Unsupported as exc:
        backend, problem = None, exc
    rules.backends["native"] = (backend, problem)
    if problem is not None:
        raise problem
    assert backend is not None
    return backend
