"""What the browser table is sent: a game as one seat sees it, as plain JSON data.

The web layer's counterpart of the terminal's drawing (`python/render.py`, whose rules it shares:
the ruleset's `layout`, each zone's `show`, hands in the deck's order, the status line). A card
the seat cannot see is sent as a back and nothing else: no code, no face, no id, so no page
holds a card its seat may not know. The legal moves are the seat's own (none when it is not
to act), each with the piles and cards a click on the table names, for the page to highlight.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ..python import render
from ..python.engine import Game, Move
from ..python.moves import BLIND


# The terminal's sixteen colours as they read on a white card (a terminal's `yellow` or `white`
# would not); other colours are drawn as the deck gives them.
ON_WHITE = {"black": "#111111", "red": "#c8102e", "green": "#1b7f2a", "yellow": "#9a7400", "blue": "#1f4fb4",
            "magenta": "#a0279b", "cyan": "#0a7f8a", "white": "#6b6b6b"}


@lru_cache(maxsize=256)
def card_style(name: str) -> dict[str, str]:
    """A deck's style for a face (as the terminal reads it: `render.card_style`) as CSS properties:
    its colour, bold, italic."""
    style = render.card_style(name)
    css: dict[str, str] = {}
    color = style.color
    if color is not None and not color.is_default:
        css["color"] = ON_WHITE.get(color.name.removeprefix("bright_"), color.get_truecolor().hex)
    if style.bold:
        css["font-weight"] = "bold"
    if style.italic:
        css["font-style"] = "italic"
    return css


def card(game: Game, card_id: int | None) -> dict[str, Any]:
    """A card as a seat sees it: its code, face text and style; `{"back": ...}` for a hidden card."""
    deck = game.rules.deck
    if card_id is None:
        return {"back": deck.back}
    return {"code": deck.codes[card_id], "face": deck.faces[card_id], "style": card_style(deck.styles[card_id])}


def _pile(game: Game, zone: str, pile: int, seat: int | None, level: int | None) -> dict[str, Any]:
    cards = render.drawn_cards(game, zone, pile, seat)
    shown = [card(game, c if game.visible(c, pile, seat) else None) for c in cards]
    data: dict[str, Any] = {"pile": pile, "name": game.rules.pile_names[pile],
                            "long": game.rules.pile_long_names[pile], "cards": shown}
    if level is not None:
        data["level"] = level
        data["covered"] = any(game.state.piles[q] for q in game.rules.cover[pile])
    return data


def _zone(game: Game, zone: str, seat: int | None, targets: frozenset[int],
          owner: int | None = None) -> dict[str, Any]:
    """A zone as `seat` sees it: all its piles, or (`owner`) only that seat's of a per-seat zone;
    an empty pile the terminal leaves out is drawn where one of `seat`'s moves puts cards (`targets`)."""
    spec = game.rules.zones[zone]
    piles = render.shown_piles(game, zone, owner, keep=targets)
    levels = render.cover_levels(game, piles) if any(game.rules.cover[p] for p in piles) else None
    return {"zone": zone, "show": spec.show,
            "owner": spec.seat_piles is not None,
            "piles": [_pile(game, zone, p, seat, None if levels is None else levels[p]) for p in piles]}


def _rows(game: Game, seat: int | None, targets: frozenset[int]) -> list[dict[str, Any]]:
    """The table's rows, as the ruleset's `layout` says. Where every seat plays at once, as the
    terminal draws it: the shared zones first, then each seat's own piles together under its name,
    the viewer's first."""
    rules = game.rules
    if not rules.simultaneous:
        return [{"zones": [_zone(game, zone, seat, targets) for zone in row]} for row in rules.layout]
    shared = [[z for z in row if rules.zones[z].seat_piles is None] for row in rules.layout]
    own = [[z for z in row if rules.zones[z].seat_piles is not None] for row in rules.layout]
    rows: list[dict[str, Any]] = [{"zones": [_zone(game, zone, seat, targets) for zone in row]}
                                  for row in shared if row]
    seats = list(range(game.players))
    if seat is not None:
        seats.remove(seat)
        seats.insert(0, seat)
    for owner in seats:
        title = f"seat {owner + 1}" + (" (you)" if owner == seat else "")
        for i, row in enumerate(r for r in own if r):
            rows.append({"title": title if i == 0 else None,
                         "zones": [_zone(game, z, seat, targets, owner) for z in row]})
    return rows


def move_data(game: Game, move: Move, seat: int) -> dict[str, Any]:
    """A legal move of `seat`: its text (what the server is sent back), the piles it takes from and
    to, how many cards, and the cards it picks (codes; `?` for a card taken blind)."""
    template = game.rules.moves[move.template]
    codes = game.rules.deck.codes
    pick: list[str] | None = None
    if move.pick is not None:
        picked = move.pick if isinstance(move.pick, tuple) else (move.pick,)
        pick = ["?" if c == BLIND else codes[c] for c in picked]
    return {"text": move.text(), "name": template.name, "help": template.help,
            "src": move.src, "dst": move.dst, "count": move.count, "pick": pick,
            "choice": move.seat >= 0 or bool(move.selection)}


def table_view(game: Game, seat: int | None, moves: list[Move] | None = None) -> dict[str, Any]:
    """The whole table as `seat` (None: a spectator) sees it, with its legal moves (`moves`: the
    seat's listing, if the caller has it)."""
    rules = game.rules
    acting = not game.is_over and seat is not None and (rules.simultaneous or game.current_player == seat)
    if moves is None:
        moves = game.legal_moves(seat) if acting else []
    rows = _rows(game, seat, frozenset(m.dst for m in moves if m.dst >= 0))
    view: dict[str, Any] = {
        "title": rules.title,
        "players": game.players,
        "seat": seat,
        "to_play": None if game.is_over or rules.simultaneous else game.current_player,
        "simultaneous": rules.simultaneous,
        "rows": rows,
        "status": [part.plain for part in render.status_parts(game, seat)],
        "moves": [move_data(game, m, seat) for m in moves] if seat is not None else [],
        "over": game.is_over,
        "outcome": render.outcome_text(game).plain if game.is_over else None,
        "winners": [w + 1 for w in game.winners() or []] if game.is_over else None,
    }
    forced = render.forced_text(game) if acting else None
    if forced is not None:
        view["forced"] = forced.plain
    return view
