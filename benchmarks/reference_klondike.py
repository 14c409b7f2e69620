"""Hand-written reference Klondike in plain Python.

This module is the oracle and the speed baseline for the cardrules engine's
``klondike`` ruleset. It imports nothing from ``cardrules`` and uses only the
standard library. Cards are small ints internally (``suit * 13 + rank - 1``)
and are shown as 2-character codes (``"TH"`` is the ten of hearts); moves are
the canonical text strings the engine also produces (``"draw"``, ``"redeal"``,
``"w>f1"``, ``"t3>f2"``, ``"w>t4"``, ``"f2>t5"``, ``"t1>t3"``, ``"t1x3>t3"``).
"""

from __future__ import annotations

import random

__all__ = [
    "RANKS",
    "SUITS",
    "ReferenceKlondike",
    "full_deck",
    "play_random",
    "shuffled_deck",
]

RANKS = "A23456789TJQK"
SUITS = "CDHS"

# ---------------------------------------------------------------------------
# Card tables (card id = suit_index * 13 + rank - 1)
# ---------------------------------------------------------------------------

_CODES: list[str] = [r + s for s in SUITS for r in RANKS]
_ID: dict[str, int] = {code: i for i, code in enumerate(_CODES)}
_RANK: list[int] = [i % 13 + 1 for i in range(52)]
_RED: list[bool] = [(i // 13) in (1, 2) for i in range(52)]
# The card a foundation whose top is card c accepts next (-1 after a King).
_NEXT_UP: list[int] = [i + 1 if i % 13 != 12 else -1 for i in range(52)]
# The (two) cards of rank + 1 and opposite colour that card c may be built on.
_PARENTS: list[tuple[int, ...]] = [
    tuple(p for p in range(52) if _RANK[p] == _RANK[c] + 1 and _RED[p] != _RED[c]) for c in range(52)
]

# ---------------------------------------------------------------------------
# Move texts and their parsed form
# ---------------------------------------------------------------------------

_DRAW, _REDEAL, _W2F, _T2F, _W2T, _F2T, _T2T = range(7)
_MAX_RUN = 52  # generous bound; a face-up run is at most 13 cards in practice

_W2F_TXT = [f"w>f{k + 1}" for k in range(4)]
_T2F_TXT = [[f"t{i + 1}>f{k + 1}" for k in range(4)] for i in range(7)]
_W2T_TXT = [f"w>t{j + 1}" for j in range(7)]
_F2T_TXT = [[f"f{k + 1}>t{j + 1}" for j in range(7)] for k in range(4)]
# _T2T_TXT[i][n][j]: move the top n cards of column i onto column j.
_T2T_TXT = [
    [[""] * 7] + [[(f"t{i + 1}>t{j + 1}" if n == 1 else f"t{i + 1}x{n}>t{j + 1}") for j in range(7)] for n in range(1, _MAX_RUN + 1)]
    for i in range(7)
]

_PARSE: dict[str, tuple[int, int, int, int]] = {"draw": (_DRAW, 0, 0, 0), "redeal": (_REDEAL, 0, 0, 0)}
for _k in range(4):
    _PARSE[_W2F_TXT[_k]] = (_W2F, 0, _k, 0)
    for _j in range(7):
        _PARSE[_F2T_TXT[_k][_j]] = (_F2T, _k, _j, 0)
for _i in range(7):
    _PARSE[_W2T_TXT[_i]] = (_W2T, 0, _i, 0)
    for _k in range(4):
        _PARSE[_T2F_TXT[_i][_k]] = (_T2F, _i, _k, 0)
    for _n in range(1, _MAX_RUN + 1):
        for _j in range(7):
            if _j != _i:
                _PARSE[_T2T_TXT[_i][_n][_j]] = (_T2T, _i, _j, _n)

# Scoring: (start, w>t, w>f, t>f, auto-turn, f>t).
_SCORING: dict[str, tuple[int, int, int, int, int, int]] = {
    "none": (0, 0, 0, 0, 0, 0),
    "standard": (0, 5, 10, 10, 5, -15),
    "vegas": (-52, 0, 5, 5, 0, -5),
}


def full_deck() -> list[str]:
    """The 52 codes in suit order C, D, H, S and rank order A..K."""
    return list(_CODES)


def shuffled_deck(seed: int) -> list[str]:
    """``full_deck()`` shuffled in place by ``random.Random(seed).shuffle``."""
    deck = full_deck()
    random.Random(seed).shuffle(deck)
    return deck


class ReferenceKlondike:
    """One game of single-player Klondike.

    Internal layout: every pile is a list of card ids, bottom first, top last.
    ``_down[i]`` is the number of face-down cards at the bottom of column i;
    stock cards are face down and waste and foundation cards face up.
    """

    __slots__ = (
        "draw",
        "scoring",
        "score",
        "outcome",
        "_stock",
        "_waste",
        "_found",
        "_tab",
        "_down",
        "_fcount",
        "_redeals",
        "_max_redeals",
        "_cycle",
        "_cycle_offered",
        "_legal",
        "_pts",
    )

    def __init__(self, deal: list[str], draw: int = 1, scoring: str = "standard") -> None:
        if draw not in (1, 3):
            raise ValueError(f"draw must be 1 or 3, not {draw!r}")
        if scoring not in _SCORING:
            raise ValueError(f"scoring must be one of {sorted(_SCORING)}, not {scoring!r}")
        if len(deal) != 52 or set(deal) != set(_CODES):
            raise ValueError("deal must be the 52 distinct card codes")
        ids = [_ID[c] for c in deal]
        self.draw: int = draw
        self.scoring: str = scoring
        self._pts = _SCORING[scoring]
        self.score: int = self._pts[0]
        self.outcome: str | None = None
        tab: list[list[int]] = [[] for _ in range(7)]
        pos = 0
        for r in range(7):
            for i in range(r, 7):
                tab[i].append(ids[pos])
                pos += 1
        self._tab = tab
        self._down: list[int] = list(range(7))  # column i: i face down + 1 face up
        self._stock: list[int] = ids[pos:][::-1]  # deal[28] is the stock top (last)
        self._waste: list[int] = []
        self._found: list[list[int]] = [[] for _ in range(4)]
        self._fcount = 0
        self._redeals = 0
        if scoring == "vegas":
            self._max_redeals: int | None = 0 if draw == 1 else 2
        else:
            self._max_redeals = None
        # Lost when a whole cycle of stock turns offered nothing else (GAMES.md): the (stock,
        # waste) positions since the last other move (None: no cycle under way; the rest of the
        # table cannot change during one), and whether any of them offered another move.
        self._cycle: set[tuple[tuple[int, ...], tuple[int, ...]]] | None = None
        self._cycle_offered = False
        self._legal: list[str] | None = None

    # ------------------------------------------------------------------ queries

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    def foundation_count(self) -> int:
        return self._fcount

    def zone(self, name: str) -> list[str]:
        """Cards of a zone, bottom first: "stock", "waste", "f1".."f4", "t1".."t7"."""
        if name == "stock":
            pile = self._stock
        elif name == "waste":
            pile = self._waste
        elif len(name) == 2 and name[0] == "f" and name[1] in "1234":
            pile = self._found[int(name[1]) - 1]
        elif len(name) == 2 and name[0] == "t" and name[1] in "1234567":
            pile = self._tab[int(name[1]) - 1]
        else:
            raise ValueError(f"unknown zone {name!r}")
        return [_CODES[c] for c in pile]

    def face_up_count(self, column: int) -> int:
        """Number of face-up cards on top of column ``column`` (1-based)."""
        return len(self._tab[column - 1]) - self._down[column - 1]

    def legal_moves(self) -> list[str]:
        if self._legal is None:
            self._legal = self._generate()
        return list(self._legal)

    # --------------------------------------------------------------- generation

    def _generate(self) -> list[str]:
        if self.outcome is not None:
            return []
        moves: list[str] = []
        add = moves.append
        tab = self._tab
        if self._stock:
            add("draw")
        elif self._waste and (self._max_redeals is None or self._redeals < self._max_redeals):
            add("redeal")

        # Foundations: which one wants which card, and the first empty one, which takes an Ace (the
        # four are alike: an Ace is offered to the first empty foundation only).
        empty_f: list[int] = []
        want: dict[int, int] = {}
        for k, f in enumerate(self._found):
            if f:
                nxt = _NEXT_UP[f[-1]]
                if nxt >= 0:
                    want[nxt] = k
            elif not empty_f:
                empty_f.append(k)
        # Tableau: top card -> column, and the empty columns.
        empty_t: list[int] = []
        where: dict[int, int] = {}
        for j, col in enumerate(tab):
            if col:
                where[col[-1]] = j
            else:
                empty_t.append(j)

        waste = self._waste
        if waste:
            c = waste[-1]
            if _RANK[c] == 1:
                for k in empty_f:
                    add(_W2F_TXT[k])
            elif c in want:
                add(_W2F_TXT[want[c]])
            if _RANK[c] == 13:
                for j in empty_t:
                    add(_W2T_TXT[j])
            else:
                for p in _PARENTS[c]:
                    dst = where.get(p)
                    if dst is not None:
                        add(_W2T_TXT[dst])

        for k, f in enumerate(self._found):
            if f:
                c = f[-1]
                row = _F2T_TXT[k]
                if _RANK[c] == 13:
                    for j in empty_t:
                        add(row[j])
                else:
                    for p in _PARENTS[c]:
                        dst = where.get(p)
                        if dst is not None:
                            add(row[dst])

        down = self._down
        for i, col in enumerate(tab):
            size = len(col)
            if not size:
                continue
            c = col[-1]
            if _RANK[c] == 1:
                for k in empty_f:
                    add(_T2F_TXT[i][k])
            elif c in want:
                add(_T2F_TXT[i][want[c]])
            texts = _T2T_TXT[i]
            for n in range(1, size - down[i] + 1):
                c = col[size - n]
                if _RANK[c] == 13:
                    for j in empty_t:
                        if j != i:
                            add(texts[n][j])
                else:
                    for p in _PARENTS[c]:
                        dst = where.get(p)
                        if dst is not None and dst != i:
                            add(texts[n][dst])
        return moves

    # ----------------------------------------------------------------- applying

    def apply(self, text: str) -> None:
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        if text not in legal:
            raise ValueError(f"illegal move {text!r}")
        kind, a, b, n = _PARSE[text]
        pts = self._pts
        turning = kind in (_DRAW, _REDEAL)
        if turning and self._cycle is None:
            self._cycle = {(tuple(self._stock), tuple(self._waste))}
            self._cycle_offered = any(m not in ("draw", "redeal") for m in legal)
        elif not turning:
            self._cycle = None
        if kind == _DRAW:
            stock, waste = self._stock, self._waste
            for _ in range(min(self.draw, len(stock))):
                waste.append(stock.pop())
        elif kind == _REDEAL:
            self._stock = self._waste[::-1]
            self._waste = []
            self._redeals += 1
        else:
            if kind == _W2F:
                self._found[b].append(self._waste.pop())
                self._fcount += 1
                self.score += pts[2]
            elif kind == _W2T:
                self._tab[b].append(self._waste.pop())
                self.score += pts[1]
            elif kind == _F2T:
                self._tab[b].append(self._found[a].pop())
                self._fcount -= 1
                self.score += pts[5]
            else:
                col = self._tab[a]
                if kind == _T2F:
                    self._found[b].append(col.pop())
                    self._fcount += 1
                    self.score += pts[3]
                else:  # _T2T
                    self._tab[b].extend(col[-n:])
                    del col[-n:]
                # Auto-turn: only the source column can be left with a face-down top.
                if col and self._down[a] == len(col):
                    self._down[a] -= 1
                    self.score += pts[4]
        if self._fcount == 52:
            self.outcome = "won"
            self._legal = []
            return
        self._legal = legal = self._generate()
        if turning and self._cycle is not None:
            here = (tuple(self._stock), tuple(self._waste))
            if here in self._cycle and not self._cycle_offered:
                self.outcome = "lost"  # back where the cycle began, and nothing else was ever offered
                self._legal = []
                return
            if here not in self._cycle:
                self._cycle.add(here)
                self._cycle_offered = self._cycle_offered or any(m not in ("draw", "redeal") for m in legal)
        if not legal:
            self.outcome = "lost"


def play_random(
    seed: int,
    draw: int,
    scoring: str,
    max_moves: int = 2000,
    deal: list[str] | None = None,
) -> tuple[int, int]:
    """Play uniformly random legal moves; return (moves made, final score).

    The deal is ``shuffled_deck(seed)`` unless ``deal`` is given; moves are
    chosen with ``random.Random(seed).choice`` over ``legal_moves()``.
    """
    game = ReferenceKlondike(shuffled_deck(seed) if deal is None else deal, draw, scoring)
    rng = random.Random(seed)
    moves = 0
    while moves < max_moves and game.outcome is None:
        game.apply(rng.choice(game.legal_moves()))
        moves += 1
    return moves, game.score
