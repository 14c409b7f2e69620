"""Lowering, part 5a: the start of a game in compiled code (`deal_game`): the deck shuffled from the
game's seed as Python's `random.Random(seed).shuffle` shuffles it, the variables' starting values,
`setup` and `on_start`, the first turn, `at_start` triggers, the seats asked out of turn at the
deal, and the end conditions checked, each as python/engine.py's `Game` does them.

Where the start uses what this backend does not lower, the module has no `deal_game` (`DEALS = 0`)
and the game is dealt in Python and copied (`Native.deal` says so, and does that).
"""

from __future__ import annotations

from typing import Any

from .effects import _EffectsBuilder
from .values import NONE_CODES, Unsupported, _int


class _DealBuilder(_EffectsBuilder):
    """The start of a game: `deal_game(C, N, U, V, O, M, out, CK, BK, KEY, MC, TMP, MT, ORDER)`, MT the
    state of `random.Random(seed)` (`Native._generators`)."""

    def _deal(self) -> str:
        """`deal_game`, or `DEALS = 0` and the reason in `self.deal_refused` where the start cannot
        be lowered."""
        self.deal_refused: str | None = None
        try:
            body = self._deal_body()
        except Unsupported as exc:  # (tables its code needed stay in the module, unused)
            self.deal_refused = str(exc)
            return "DEALS = 0\n"
        # The cards in play by the number of seats (none for a number the game is not for), padded.
        in_play = [list(self.rules.deck_cards.get(n, ())) for n in range(self.rules.max_players + 1)]
        widest = max(len(cards) for cards in in_play)
        tables = [f"DECK_CARDS = np.array({[cards + [0] * (widest - len(cards)) for cards in in_play]!r}, "
                  "dtype=np.int64)",
                  f"DECK_COUNT = np.array({[len(cards) for cards in in_play]!r}, dtype=np.int64)"]
        head = ["@njit(cache=True)",
                "def deal_game(C, N, U, V, O, M, out, CK, BK, KEY, MC, TMP, MT, ORDER):",
                '    """A game from its seed (MT, seeded as Python seeds random.Random(seed)): the deck in',
                '    play shuffled into ORDER, then the start as engine.Game makes it; returns the legal',
                '    moves\' count (listed in out), as after a move."""',
                "    n_order = DECK_COUNT[M[12]]",
                "    for i in range(n_order):",
                "        ORDER[i] = DECK_CARDS[M[12], i]",
                "    mt_shuffle(MT, ORDER[:n_order])"]
        return "\n".join(["DEALS = 1", *tables, *head, *body]) + "\n"

    def _deal_body(self) -> list[str]:
        rules = self.rules
        lines: list[str] = []
        # Each variable's starting value: its `initial` with `player` the seat (a team's: its first seat's).
        for name, variable in rules.variables.items():
            path = ("variables", name, "initial")
            if variable.per_card:  # each card's, then none for no card
                c = self.fresh("c")
                lines += [f"    for {c} in range(NC):"]
                lines += self.stored(name, self.expr(self.parse(path), {"player": _int("0")}),
                                     path, "        ", f"V[{variable.slot} + {c}]")
                lines.append(f"    V[{variable.slot} + NC] = {NONE_CODES.get(self.var_kind(name), 'NO_INT')}")
                continue
            if not variable.per_player:
                lines += self.stored(name, self.expr(self.parse(path), {"player": _int("0")}), path, "    ",
                                     f"V[{variable.slot}]")
                continue
            p, first = self.fresh("p"), self.fresh("first")
            lines += [f"    for {p} in range(M[12]):", f"        {first} = {p}"]
            if variable.per_team:
                q = self.fresh("q")
                lines += [f"        for {q} in range({p}):",
                          f"            if {self.team(q)} == {self.team(p)}:",
                          f"                {first} = {q}",
                          "                break"]
            lines += self.stored(name, self.expr(self.parse(path), {"player": _int(first)}), path, "        ",
                                 f"V[{variable.slot} + {p}]")
        env = {"player": _int("b_player")}
        lines.append("    b_player = 0")
        self.setting_up = True
        try:
            for i in range(len(self.data.get("setup") or [])):
                lines += self.effect(("setup", i), env, "    ")
        finally:
            self.setting_up = False
        for i in range(len(self.data.get("on_start") or [])):
            lines += self.effect(("on_start", i), env, "    ")
        lines += ["    if NPHASES > 0:", "        M[10] = 0", "        M[11] = FIRST_PHASE",
                  "    start_triggers(C, N, U, V, O, M, TMP, M[10])",
                  "    if M[26] >= 0:",  # the start chose who moves first (`turn_to`)
                  "        M[10] = M[26]", "        M[26] = -1",
                  "    if NPHASES > 0:", "        skip_optional_phases(C, N, U, V, O, M, out)",
                  "    if ASKS_OUT_OF_TURN and OPENS[0] == 1:",  # a move out of turn at the deal
                  "        ask(C, N, U, V, O, M, out, (M[10] - M[27]) % M[12], M[27], 0, M[10], M[11], M[26], -1)",
                  f"    M[5] = {len(rules.moves)}",  # no move made yet: no cycle of `end.cycle` under way
                  "    cnt = after_change(C, N, U, V, O, M, out, CK, BK, KEY)",
                  "    M[5] = 0",
                  "    return cnt"]
        return lines

    def take_deck(self, path: tuple[Any, ...], env: dict[str, Any], indent: str) -> list[str]:
        """`take_deck: PILE` in the setup: the shuffled deck (ORDER) face down under the pile's cards,
        its first card on top (state.State.place_deck)."""
        pile = self.checked(self.expr(self.parse(path), env))
        return [f"{indent}place_deck(C, N, U, {pile}, ORDER[:n_order])"]
