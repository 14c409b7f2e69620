"""A game's position in flat arrays (`NativeGame`), started from a Python game's position and
played by the compiled module: legal moves, apply, undo, views, scores, the end.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any, Protocol

from ..base.errors import IllegalMoveError
from .sources import repeat_store
from .values import (ASKED, ASKING, ASK_AFTER, ASK_CHOSEN, ASK_DIRECTION, ASK_FROM, ASK_PHASE, ASK_SEAT, CHANCE,
                     CURRENT, CYCLE, CYCLE_OFFERED, CYCLE_TRACKING, DIRECTION, DRAWS, FRAMES, MAX_CYCLE_POSITIONS,
                     MAX_MOVES, MAX_REPEAT_POSITIONS, META, MOVES, NEXT_SEAT, NFRAMES, NO_INT, NativeStop, OVER, PHASE,
                     PLAYERS, REASON, RESULT, SEEN, Unsupported, WINNERS)



class Backend(Protocol):
    """What a position asks of the native backend that plays it (native/backend.py's `Native`): the
    ruleset, its compiled module (called through `call`) and numpy, the tables of results and
    reasons, the options as inputs, and the moves and variables as the compiled code numbers them."""

    rules: Any
    module: Any
    results: list[str]
    reasons: list[str]
    options: Any
    max_legal: int
    draws_chance: bool

    @property
    def np(self) -> Any: ...  # numpy

    def move_fields(self, code: int) -> _Fields: ...

    def variable_codes(self, values: list[Any]) -> list[int]: ...

    def limit_reason(self, game: NativeGame) -> str: ...

    def call(self, name: str, *args: Any) -> Any: ...  # a function of the compiled module (Native.call)


def _turn_fields(M: Any, rules: Any, current: int, phase: int, frames: tuple[tuple[int, int], ...], next_seat: int,
                 direction: int, asking: Any) -> None:
    """The turn's fields of M as a Python game's state has them (state.State): the seat to act and
    its phase, the seats acting for others, the next seat and the direction, the seats asked to act
    out of turn. (Where every seat plays at once, `act` only adds frames: M keeps their number and
    the first 4.)"""
    M[CURRENT], M[PHASE] = current, phase
    if len(frames) > 4 and not rules.simultaneous:
        raise Unsupported("a game with more than 4 seats acting for others at once")
    for i, (seat, at) in enumerate(frames[:4]):
        M[FRAMES + 2 * i], M[FRAMES + 2 * i + 1] = seat, at
    M[NFRAMES] = len(frames)
    M[NEXT_SEAT], M[DIRECTION] = next_seat, direction
    M[ASKING:ASK_AFTER + 1] = 0
    if asking is not None:  # seats asked to act out of turn: the round they are asked in
        resume, at, chosen, rest, after = asking
        n = int(M[PLAYERS])
        seats = (current, *rest)  # the seat asked, then those still to ask: on round the table
        step = (seats[1] - seats[0]) % n if len(seats) > 1 else 1
        M[ASKING:ASK_AFTER + 1] = [1, resume, at, chosen, seats[-1] if rest else current, 1 if step == 1 else -1,
                                   n - len(rest), after]


def _cycle_rows(rules: Any) -> int:
    """The positions of a cycle of `end.cycle` compiled code can follow (one row, unused, without it)."""
    return MAX_CYCLE_POSITIONS if rules.cycle is not None else 1


def deal_scratch(native: Backend) -> tuple[Any, Any, Any]:
    """What `NativeGame.dealt` deals in, made once a backend: the deck's order, room for the legal
    moves and for the positions of a cycle."""
    rules, np = native.rules, native.np
    ncards = len(rules.deck)
    return (np.zeros(max(ncards, 1), dtype=np.int64), np.empty(native.max_legal, dtype=np.int64),
            np.empty((_cycle_rows(rules), ncards), dtype=np.int64))


class NativeGame:
    """A game's position in flat arrays, played by the compiled module."""

    ended: tuple[str | None, str] | None  # the Python game's ending, where it ended at the deal

    def __init__(self, native: Backend, game: Any) -> None:
        rules = native.rules
        S = game.state
        ncards = len(rules.deck)
        np = native.np
        self._arrays(native, tracks_knowledge=S.known is not None)
        for p, pile in enumerate(S.piles):
            self.N[p] = len(pile)
            self.C[p, :len(pile)] = pile
        self.U[:ncards] = list(S.up)
        if S.known is not None:
            self.U[ncards + 1:] = S.known
        self.V = np.array(native.variable_codes(S.vars) or [0], dtype=np.int64)
        self.M[MOVES] = len(game.history)
        self.M[MAX_MOVES] = game.max_moves if game.max_moves is not None else -1
        self.M[OVER] = int(S.over)
        self.M[PLAYERS] = game.players
        self.M[WINNERS] = -1 if S.winners is None else sum(1 << w for w in S.winners)
        _turn_fields(self.M, rules, S.current, S.phase, S.frames, S.next_seat, S.direction, S.asking)
        if native.draws_chance and not 0 <= S.chance < 2 ** 64:  # (a seed < 0, or of more than 64 bits)
            raise NativeStop("compiled code keeps a chance seed of 0 to 2**64 - 1 for its draws of chance")
        self.M[CHANCE], self.M[DRAWS] = (S.chance + 2 ** 63) % 2 ** 64 - 2 ** 63, S.shuffles  # (the seed in 64 bits)
        # A game over before it starts (no move at the deal) keeps the Python game's ending.
        if S.over:
            self.ended = (S.outcome, S.reason)
        if game._cycle is not None:
            self._cycle_under_way(*game._cycle)
        if rules.repeat is not None:
            self._count_seen(game)
        self.cnt = 0 if S.over else self._call("legal", self.C, self.N, self.U, self.V, self.O, self.M, self.out)
        if self.cnt < 0:
            raise NativeStop("compiled code stopped: more legal moves than it keeps")

    def _arrays(self, native: Backend, tracks_knowledge: bool, room: bool = True) -> None:
        """The arrays of a position, empty: no card in any pile, every card face down, the meta
        fields 0; and the scratch arrays compiled code works in (without `room`, no room to list
        moves or follow a cycle in: `make_room` makes it)."""
        rules, np = native.rules, native.np
        ncards, npiles = len(rules.deck), rules.pile_count
        self.native = native
        self.C = np.zeros((npiles, max(ncards, 1)), dtype=np.int64)
        self.N = np.zeros(npiles, dtype=np.int64)
        # The faces, one more entry (0) for "no card", then who knows each card (`_KNOWLEDGE`).
        self.U = np.zeros(ncards + 1 + (ncards if tracks_knowledge else 0), dtype=np.int64)
        self.V = np.zeros(max(rules.var_count, 1), dtype=np.int64)
        self.O = native.options
        self.M = np.zeros(META, dtype=np.int64)
        # (the legal moves and the positions of a cycle under way are written before they are read)
        self.out = np.empty(native.max_legal if room else 0, dtype=np.int64)
        self.CK = np.empty((_cycle_rows(rules) if room else 0, ncards), dtype=np.int64)
        self.BK = np.zeros(ncards, dtype=np.int64)
        self.KEY = np.zeros(ncards, dtype=np.int64)
        self.MC = np.zeros(max(ncards, 1), dtype=np.int64)
        self.TMP = np.zeros(max(ncards, 1), dtype=np.int64)
        self.stats = np.zeros(5, dtype=np.int64)  # of the last playout (Native.playout)
        self.lead = np.zeros(1, dtype=np.int64)
        self.ended = None

    @classmethod
    def dealt(cls, native: Backend, seed: int, players: int, max_moves: int | None, MT: Any,
              scratch: tuple[Any, Any, Any]) -> NativeGame:
        """A game started in compiled code (the module's `deal_game`) from `seed`, as `Game(rules,
        seed, players=players, max_moves=max_moves)` starts it, MT the state of `random.Random(seed)`.
        It keeps its position alone, as a `clone` does: the moves are listed, and a cycle followed,
        in `scratch` (`deal_scratch`)."""
        game = cls.__new__(cls)
        rules = native.rules
        order, out, CK = scratch
        game._arrays(native, rules.tracks_knowledge, room=False)
        M = game.M
        M[MAX_MOVES] = max_moves if max_moves is not None else -1
        M[PLAYERS] = players
        M[WINNERS] = -1
        _turn_fields(M, rules, 0, 0, (), -1, 1, None)
        M[CHANCE], M[DRAWS] = seed, 0  # (0 <= seed < 2**63: the Python game's chance seed as it is)
        if rules.repeat is not None:
            game.KEY = repeat_store(native, 256)
        game.cnt = game._call("deal_game", game.C, game.N, game.U, game.V, game.O, M, out, CK, game.BK,
                              game.KEY, game.MC, game.TMP, MT, order)
        if game.cnt < 0:
            raise NativeStop("compiled code stopped: more legal moves than it keeps")
        game.out = out[:game.cnt].copy()
        game.CK = CK[:game._cycle_seen()].copy()
        return game

    def _cycle_under_way(self, seen: frozenset[Any], offered: bool) -> None:
        """The cycle of `end.cycle` under way in the Python game (`Game._cycle`): its positions
        (each card's place and face, as `position_key` keys them), or, once one of them offered
        another move, only that."""
        if offered:
            self.M[CYCLE] = CYCLE_OFFERED
            return
        if len(seen) > len(self.CK):
            raise NativeStop("compiled code stopped: too many positions in one cycle")
        cap1 = len(self.native.rules.deck) + 1
        for row, (piles, up) in enumerate(seen):
            for p, pile in enumerate(piles):
                for i, card in enumerate(pile):
                    self.CK[row, card] = (p * cap1 + i) * 2 + up[card] + 1
        self.M[CYCLE], self.M[SEEN] = CYCLE_TRACKING, len(seen)

    def _count_seen(self, game: Any) -> None:
        """`end.repeat`: a store of positions seen (in KEY) holding those the Python game has counted
        (`Game._seen`), each rebuilt in arrays and keyed by the compiled code."""
        native, np = self.native, self.native.np
        seen = [(key, times) for key, times in game._seen.items() if times > 0]
        self.KEY = repeat_store(native, max(256, 2 * len(seen)))
        for (piles, up, values, current, phase, frames, next_seat, direction, asking), times in seen:
            C, N = np.zeros_like(self.C), np.zeros_like(self.N)
            for p, pile in enumerate(piles):
                N[p] = len(pile)
                C[p, :len(pile)] = pile
            U = np.zeros_like(self.U)
            U[:len(up)] = list(up)
            V = np.array(native.variable_codes(list(values)) or [0], dtype=np.int64)
            M = self.M.copy()
            _turn_fields(M, native.rules, current, phase, frames, next_seat, direction, asking)
            self._call("repeat_seen", C, N, U, V, M, self.KEY, times)

    def repeat_room(self, more: int) -> None:
        """`end.repeat`: room in the store of positions seen for `more` more (at most
        MAX_REPEAT_POSITIONS in all: past them compiled code stops, and Python plays)."""
        if self.native.rules.repeat is None:
            return
        ncards = len(self.native.rules.deck)
        used, room = int(self.KEY[ncards]), int(self.KEY[ncards + 1])
        wanted = min(used + more, MAX_REPEAT_POSITIONS)
        if wanted > room:
            larger = repeat_store(self.native, max(wanted, min(2 * room, MAX_REPEAT_POSITIONS)))
            self._call("repeat_copy", self.KEY, larger)
            self.KEY = larger

    def clone(self) -> NativeGame:
        """A copy with state arrays of its own, to keep or to play on (a search's trials: `copy_from`
        sets it back to a position without allocating). It holds the position alone: its legal
        moves and the positions of a cycle under way, not the room to list more or track a longer
        cycle, which is made when it is first played on (`make_room`); scratch arrays are shared."""
        other = copy.copy(self)
        other.C, other.N, other.U, other.V, other.M = (a.copy() for a in (self.C, self.N, self.U, self.V, self.M))
        other.out, other.CK, other.KEY = self.out[:self.cnt].copy(), self.CK[:self._cycle_seen()].copy(), self.KEY.copy()
        return other

    def _cycle_seen(self) -> int:
        """The positions of the cycle under way that CK holds (0 where none is followed)."""
        return int(self.M[SEEN]) if self.M[CYCLE] == CYCLE_TRACKING else 0

    def make_room(self) -> None:
        """Room for compiled code that lists legal moves (`max_legal` of them) and tracks a cycle
        (`MAX_CYCLE_POSITIONS` positions), where a kept copy (`clone`) holds only its own."""
        np = self.native.np
        if len(self.out) < self.native.max_legal:
            out = np.empty(self.native.max_legal, dtype=np.int64)
            out[:self.cnt] = self.out[:self.cnt]
            self.out = out
        rows = _cycle_rows(self.native.rules)
        if len(self.CK) < rows:
            CK = np.empty((rows, self.CK.shape[1]), dtype=np.int64)
            CK[:len(self.CK)] = self.CK
            self.CK = CK

    def copy_from(self, other: NativeGame) -> None:
        """Make this copy (`clone`) the position `other` holds: its cards, faces, variables, turn,
        legal moves, the cycle under way and the positions counted for `end.repeat`."""
        np = self.native.np
        self.make_room()
        for mine, theirs in ((self.C, other.C), (self.N, other.N), (self.U, other.U), (self.V, other.V),
                             (self.M, other.M)):
            np.copyto(mine, theirs)
        self.cnt = other.cnt
        self.out[:other.cnt] = other.out[:other.cnt]
        rules = self.native.rules
        seen = other._cycle_seen()
        self.CK[:seen] = other.CK[:seen]
        if rules.repeat is not None:  # (the store grows as a game goes on: copied whole when its size differs)
            if len(self.KEY) == len(other.KEY):
                np.copyto(self.KEY, other.KEY)
            else:
                self.KEY = other.KEY.copy()
        self.ended = other.ended

    def determinize(self, seat: int, MT: Any) -> None:
        """As `Game.determinize`, in place: the cards `seat` cannot see dealt anew, drawn from the
        Mersenne Twister state `MT` (a `random.Random`'s, advanced in place); the legal moves listed
        again."""
        self.make_room()
        self._call("determinize", self.C, self.N, self.U, self.V, self.M, seat, MT)
        self.cnt = 0 if self.M[OVER] else self._call("legal", self.C, self.N, self.U, self.V, self.O, self.M, self.out)
        if self.cnt < 0:
            raise NativeStop("compiled code stopped: more legal moves than it keeps")

    def evaluation(self, seat: int) -> int:
        """As `Game.evaluation`: the ruleset's heuristic for `seat`, else its score."""
        return int(self._call("evaluation", self.C, self.N, self.U, self.V, self.O, self.M, seat))

    def leaders(self) -> int:
        """The seats whose evaluation is the highest, a bit each."""
        return int(self._call("leaders", self.C, self.N, self.U, self.V, self.O, self.M))

    def _call(self, name: str, *args: Any) -> Any:
        return self.native.call(name, *args)

    def _seat_listing(self, seat: int | None) -> tuple[Any, int]:
        """The legal moves of the seat to act, or of `seat` (in a game where every seat plays at
        once each has its own; in another, a seat not to act has none): an array and a count."""
        current = int(self.M[CURRENT])
        if seat is None or seat == current:
            return self.out, self.cnt
        if not 0 <= seat < self.M[PLAYERS]:
            raise IllegalMoveError(f"there is no seat {seat + 1}")
        if not self.native.rules.simultaneous:
            return self.out, 0
        out = self.native.np.zeros(self.native.max_legal, dtype=self.native.np.int64)
        try:
            cnt = self._call("seat_legal", self.C, self.N, self.U, self.V, self.O, self.M, out, seat)
        finally:
            self.M[CURRENT] = current
        return out, cnt

    def focus(self, seat: int) -> None:
        """As `Game.focus`: in a game where every seat plays at once, make `seat` the seat to act
        (the one `legal_codes()` and `legal_actions()` list for). Not a move."""
        if self.native.rules.simultaneous and seat != self.M[CURRENT]:
            self.out, self.cnt = self._seat_listing(seat)
            self.M[CURRENT] = seat

    def legal_codes(self, seat: int | None = None) -> list[int]:
        """The legal moves (of the seat to act, or of `seat`) as the compiled code numbers them
        (`Native.code`), in its order."""
        out, cnt = self._seat_listing(seat)
        return [int(a) for a in out[:cnt]]

    def apply_code(self, code: int, seat: int | None = None) -> None:
        """Apply the legal move the compiled code numbers `code` (in a game where every seat plays
        at once, made by `seat`, which becomes the seat to act, if given)."""
        out, cnt = self._seat_listing(seat)
        if code not in out[:cnt]:
            raise IllegalMoveError(f"move code {code} is not legal now")
        if seat is not None and seat != self.M[CURRENT]:
            self.out, self.cnt, self.M[CURRENT] = out, cnt, seat
        self.repeat_room(1)
        self.make_room()
        self.cnt = self._call("step", self.C, self.N, self.U, self.V, self.O, self.M, self.out, self.cnt, self.CK,
                              self.BK, self.KEY, self.MC, self.TMP, code)

    def legal_actions(self, seat: int | None = None) -> list[int]:
        """The legal moves' action numbers (`model/actions.py`: the same as the Python backend's `Game`),
        of the seat to act or of `seat`."""
        space = self.native.rules.actions
        acting = int(self.M[CURRENT]) if seat is None else seat
        return [space.number(self.native.move_fields(code), acting) for code in self.legal_codes(seat)]

    def apply_action(self, action: int, seat: int | None = None) -> None:
        """Apply the legal move (of the seat to act, or of `seat`) whose action number is `action`."""
        action = self.native.rules.actions.check(action)
        for code, number in zip(self.legal_codes(seat), self.legal_actions(seat)):
            if number == action:
                self.apply_code(code, seat)
                return
        raise IllegalMoveError(f"action {action} is not legal now")

    @property
    def is_over(self) -> bool:
        return bool(self.M[OVER])

    @property
    def moves(self) -> int:
        """Moves made in the game (its history's length)."""
        return int(self.M[MOVES])

    @property
    def outcome(self) -> str | None:
        if self.ended is not None:
            return self.ended[0]
        return self.native.results[self.M[RESULT]] if self.M[OVER] else None

    @property
    def reason(self) -> str:
        if self.ended is not None:
            return self.ended[1]
        reason = self.native.reasons[self.M[REASON]]
        return self.native.limit_reason(self) if reason == "@limit" else reason

    @property
    def move_limit(self) -> int:
        """The moves after which the game ends with the result "limit" (-1: none); a search may
        lower it on a copy to cut a playout short."""
        return int(self.M[MAX_MOVES])

    @move_limit.setter
    def move_limit(self, moves: int) -> None:
        self.M[MAX_MOVES] = moves

    @property
    def players(self) -> int:
        """The seats in the game."""
        return int(self.M[PLAYERS])

    @property
    def current_player(self) -> int:
        return int(self.M[CURRENT])

    def winners(self) -> list[int] | None:
        """As `Game.winners`: the seats an end condition named, else (won or over) the best scores."""
        if self.M[PLAYERS] == 1 or not self.M[OVER]:
            return None
        players = int(self.M[PLAYERS])
        if self.M[WINNERS] >= 0:
            return self.native.rules.whole_teams(players, [p for p in range(players) if self.M[WINNERS] >> p & 1])
        if self.outcome not in ("won", "over"):
            return []
        return self.native.rules.best_by_score([self.score(p) for p in range(players)])

    def score(self, player: int = 0) -> int:
        return int(self._call("score", self.C, self.N, self.U, self.V, self.O, self.M, player))

    def asking(self) -> tuple[int, int, int, tuple[int, ...], int] | None:
        """The seats asked to act out of turn, as state.State.asking says them."""
        M = self.M
        if M[ASKING] == 0:
            return None
        n = int(M[PLAYERS])
        rest = tuple(int((M[ASK_FROM] + M[ASK_DIRECTION] * (j + 1)) % n) for j in range(int(M[ASKED]), n))
        return int(M[ASK_SEAT]), int(M[ASK_PHASE]), int(M[ASK_CHOSEN]), rest, int(M[ASK_AFTER])

    def piles(self) -> list[list[int]]:
        return [[int(c) for c in self.C[p, :self.N[p]]] for p in range(len(self.N))]

    def faces(self) -> list[int]:
        """Each card's face, 1 up (as state.State.up)."""
        return [int(u) for u in self.U[:len(self.native.rules.deck)]]

    def known(self) -> list[int] | None:
        """By card, the seats (a bit each) that know it where they cannot see it, as
        state.State.known (None where the ruleset keeps no such record)."""
        if not self.native.rules.tracks_knowledge:
            return None
        return [int(k) for k in self.U[len(self.native.rules.deck) + 1:]]

    def visible(self, card: int, pile: int, seat: int | None) -> bool:
        """May `seat` see `card` lying on `pile` (None: a spectator), as `Game.visible` says?"""
        return bool(self.native.module.sees(self.C, self.N, self.U, card, pile, -1 if seat is None else seat))


@dataclass(frozen=True, slots=True)
class _Fields:
    """A move's fields, as `engine.Move` has them (for `actions.ActionSpace.number`)."""

    template: int
    src: int
    count: int
    dst: int
    selection: tuple[tuple[int, int], ...]
    pick: int | tuple[int, ...] | None
    seat: int


def _int_of(value: Any) -> int:
    if value is None:
        return NO_INT
    return int(value)
