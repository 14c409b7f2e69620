"""Draw a game for the terminal with rich: the table as one seat sees it, the status line, the moves.

Generic over rulesets: zones are drawn as the ruleset's `layout` and each zone's
`show` style say (stack, fan, row or column), face-up cards with the deck's face
text and style, hidden cards as the deck's back.

A view is a seat (0-based) or None: a spectator's view, which shows only what every
seat may see (no seat's own hidden cards), for tables drawn to no one seat in particular.

A hand (a zone only its owner sees) is drawn to its owner in the deck's order (`display_order`):
the drawing only; the state and the move texts keep the dealt order. Lines are laid out for
the console's width: rows of cards wrap between cards, the status line between its parts.
"""

from __future__ import annotations

from functools import lru_cache
from collections.abc import Collection
from typing import Any, Callable

from rich.console import Group
from rich.errors import StyleSyntaxError
from rich.style import Style
from rich.table import Table
from rich.text import Text

from ..front.decks import Deck
from .engine import Game, Move
from .moves import BLIND

EMPTY = "[  ]"

def card_text(game: Game, card: int | None) -> Text:
    """A card as shown to a seat: its face (styled) or the deck's back when `card` is None."""
    deck = game.rules.deck
    if card is None:
        return Text(deck.back, style="blue")
    return Text(deck.faces[card], style=card_style(deck.styles[card]))


@lru_cache(maxsize=256)
def card_style(name: str) -> Style:
    """A deck's style for a card face, without links; one rich cannot read is left out."""
    try:
        return Style.parse(name).clear_meta_and_links() if name else Style()
    except StyleSyntaxError:
        return Style()


def _visible(game: Game, pile: int, card: int, player: int | None) -> int | None:
    return card if game.visible(card, pile, player) else None


_DECK_ORDERS: dict[int, tuple[Deck, tuple[int, ...] | None]] = {}  # id(deck) -> (the deck, its order)
MAX_DECK_ORDERS = 16  # the decks whose order is kept (a deck is immutable, but not hashable)


def _deck_order(deck: Deck) -> tuple[int, ...] | None:
    """The order `_suit_rank_order` works out for `deck`, kept for the last few decks drawn."""
    kept = _DECK_ORDERS.get(id(deck))
    if kept is not None and kept[0] is deck:
        return kept[1]
    if len(_DECK_ORDERS) >= MAX_DECK_ORDERS:
        _DECK_ORDERS.clear()
    order = _suit_rank_order(deck)
    _DECK_ORDERS[id(deck)] = (deck, order)
    return order


def _suit_rank_order(deck: Deck) -> tuple[int, ...] | None:
    """Each card's place in the deck's own order, card id by card id: by suit in the order the
    deck file first lists the suits, then by rank in the order it first lists the ranks (a deck
    of `each: {suit: [clubs, ...], rank: [1, ..., 13]}` sorts clubs first, each Ace to King).
    None when the deck's cards have no `suit` and `rank` (a deck of bills): such a deck gives no
    order, and hands keep the dealt one."""
    if "suit" not in deck.attributes or "rank" not in deck.attributes:
        return None
    places: dict[str, dict[str, int]] = {"suit": {}, "rank": {}}
    for card in deck.cards:
        for attribute, seen in places.items():
            seen.setdefault(repr(card.get(attribute)), len(seen))  # by its text: a list is not hashable
    ranks = len(places["rank"])
    return tuple(places["suit"][repr(card.get("suit"))] * ranks + places["rank"][repr(card.get("rank"))]
                 for card in deck.cards)


def display_order(game: Game, zone: str, player: int | None = None) -> Callable[[int], Any] | None:
    """How the cards of `zone` are sorted when drawn to a seat (`player`, None: a spectator) that sees
    them all: a sort key over card ids, or None to draw them as they lie. Only a zone drawn card by
    card (`show: row` or `column`; a stack or a fan shows its top cards as they lie) is sorted: by the
    zone's own `order` where the ruleset gives one (each card's key, equal keys as they lie), else a
    hand (a zone whose cards only their owner sees) by the deck's order (`_deck_order`). The state is
    never changed."""
    spec = game.rules.zones[zone]
    if spec.show not in ("row", "column"):
        return None
    written = game.rules.zone_orders.get(zone)
    if written is not None:
        state, env = game.state, {"player": player if player is not None else game.current_player}

        def key(card: int) -> Any:
            env["card"] = card
            return written(state, env)
        return key
    if spec.visibility != "owner":
        return None
    order = _deck_order(game.rules.deck)
    return None if order is None else order.__getitem__


def drawn_cards(game: Game, zone: str, pile: int, player: int | None) -> list[int]:
    """The cards of `pile` in the order they are drawn to `player`: a pile `player` sees whole in
    the zone's display order (`display_order`), any other as it lies (sorting cards the seat
    cannot see would tell where the ones it does know lie among them)."""
    cards = game.state.piles[pile]
    key = display_order(game, zone, player)
    if key is None or len(cards) < 2 or not all(game.visible(card, pile, player) for card in cards):
        return list(cards)
    return sorted(cards, key=key)


def _pile_line(game: Game, zone: str, pile: int, player: int | None) -> Text:
    rules = game.rules
    cards = drawn_cards(game, zone, pile, player)
    show = rules.zones[zone].show
    text = Text(f"{rules.pile_names[pile]} ", style="dim")
    if not cards:
        text.append(EMPTY, style="dim")
        return text
    if show == "stack":
        text.append_text(card_text(game, _visible(game, pile, cards[-1], player)))
        if len(cards) > 1:
            text.append(f" ({len(cards)})", style="dim")
        return text
    shown = cards if show == "row" else cards[-3:]
    if len(cards) > len(shown):
        text.append(f"({len(cards) - len(shown)}) ", style="dim")
    for i, card in enumerate(shown):
        if i:
            text.append(_gap(game))
        text.append_text(card_text(game, _visible(game, pile, card, player)))
    return text


def _gap(game: Game) -> str:
    """What separates cards side by side: two spaces where a face holds one (`Painter 3 ☀⌘`)."""
    return "  " if game.rules.deck.spaced_faces else " "


class CardRow:
    """A pile drawn as a row of cards that wraps between cards, never inside one (a face such as
    `Painter 3 ☀⌘` holds spaces): continuation lines are indented past the pile's name."""

    def __init__(self, label: Text, cards: list[Text], gap: str = " ") -> None:
        self.label, self.cards, self.gap = label, cards, gap

    def __rich_console__(self, console: Any, options: Any) -> Any:
        width = max(options.max_width, 1)
        indent = min(self.label.cell_len, width // 2)
        line = self.label.copy()
        for card in self.cards:
            if line.cell_len > indent and line.cell_len + len(self.gap) + card.cell_len > width:
                yield line
                line = Text(" " * indent)
            elif line.cell_len > indent:
                line.append(self.gap)
            line.append_text(card)
        line.truncate(width, overflow="ellipsis")
        yield line


def _row_line(game: Game, zone: str, pile: int, player: int | None) -> CardRow | Text:
    """A pile shown as a `row`: every card, wrapped between cards."""
    cards = drawn_cards(game, zone, pile, player)
    if not cards:
        return _pile_line(game, zone, pile, player)
    return CardRow(Text(f"{game.rules.pile_names[pile]} ", style="dim"),
                   [card_text(game, _visible(game, pile, card, player)) for card in cards], _gap(game))


def _column_table(game: Game, zone: str, player: int | None, piles: tuple[int, ...] | None = None) -> Table:
    rules = game.rules
    piles = shown_piles(game, zone) if piles is None else piles
    table = Table(box=None, show_edge=False, pad_edge=False, padding=(0, 1))
    for pile in piles:
        table.add_column(Text(rules.pile_names[pile], style="dim"), justify="left", min_width=3)
    drawn = {pile: drawn_cards(game, zone, pile, player) for pile in piles}
    height = max((len(cards) for cards in drawn.values()), default=0)
    for row in range(max(height, 1)):
        cells = []
        for pile in piles:
            cards = drawn[pile]
            if row < len(cards):
                cells.append(card_text(game, _visible(game, pile, cards[row], player)))
            else:
                cells.append(Text(EMPTY if row == 0 and not cards else "", style="dim"))
        table.add_row(*cells)
    return table


def shown_piles(game: Game, zone: str, seat: int | None = None, keep: Collection[int] = ()) -> tuple[int, ...]:
    """The piles of a zone to draw: all in use, or (`seat`) only that seat's of a per-player zone;
    in a zone that hides its empty piles, those empty piles in `keep` too (where a move can put cards)."""
    spec = game.rules.zones[zone]
    if seat is not None and spec.seat_piles is not None:
        piles = spec.seat_piles[seat]
    else:
        piles = spec.piles_for(game.players)
    return tuple(p for p in piles if game.state.piles[p] or p in keep) if spec.hide_empty else piles


def cover_levels(game: Game, piles: tuple[int, ...]) -> dict[int, int]:
    """Each pile's level in a zone whose piles cover one another (`covered_by`): 0 for a pile nothing
    lies on, else one more than the highest of the piles lying on it (a pyramid's apex is highest)."""
    cover = game.rules.cover
    level = {p: 0 for p in piles}
    for _ in piles:
        changed = False
        for p in piles:
            above = max((level[q] + 1 for q in cover[p] if q in level), default=0)
            if above != level[p]:
                level[p], changed = above, True
        if not changed:
            break
    return level


def _covering_lines(game: Game, zone: str, piles: tuple[int, ...], player: int | None) -> list[Text]:
    """A zone whose piles cover one another, a line per level, centred: the piles most deeply
    covered first (a pyramid's apex), those nothing covers last; covered piles dimmed."""
    cover = game.rules.cover
    level = cover_levels(game, piles)
    lines = []
    for depth in range(max(level.values(), default=0), -1, -1):
        line = Text()
        for p in (p for p in piles if level[p] == depth):
            if line.plain:
                line.append("   ")
            shown = _pile_line(game, zone, p, player)
            if any(game.state.piles[q] for q in cover[p]):
                shown.stylize("dim")
            line.append_text(shown)
        lines.append(line)
    width = max(len(line.plain) for line in lines)
    for line in lines:
        line.pad_left((width - len(line.plain)) // 2)
    return lines


def render_table(game: Game, player: int | None = 0) -> Group:
    """The table as `player` sees it (None: as a spectator), row by row of the ruleset's layout."""
    parts = _layout_rows(game, game.rules.layout, player)
    parts.append(PackedLine(status_parts(game, player)))
    return Group(*parts)


def render_seats_table(game: Game, player: int | None = 0, compact: bool = False) -> Group:
    """The table of a game where every seat plays at once, as `player` sees it (None: a spectator):
    the shared zones first, then each seat's own piles together (the viewer's first), laid out as
    the ruleset's layout says. `compact`: the other seats one line each (each pile's top card and
    its size), so that a small screen keeps the shared piles and the viewer's own in sight."""
    rules = game.rules
    shared = [[z for z in row if rules.zones[z].seat_piles is None] for row in rules.layout]
    own = [[z for z in row if rules.zones[z].seat_piles is not None] for row in rules.layout]
    parts = _layout_rows(game, [row for row in shared if row], player)
    seats = list(range(game.players))
    if player is not None:
        seats.remove(player)
        seats.insert(0, player)
    for seat in seats:
        if compact and seat != player:
            parts.append(_seat_line(game, [z for row in own for z in row], player, seat))
            continue
        parts.append(Text(f"seat {seat + 1}" + (" (you)" if seat == player else ""), style="bold"))
        parts.extend(_layout_rows(game, [row for row in own if row], player, seat))
    if compact:
        parts.append(Text(""))
    parts.append(PackedLine(status_parts(game, player)))
    return Group(*parts)


def _seat_line(game: Game, zones: list[str], player: int | None, seat: int) -> Text:
    """A seat's own piles on one line, as `player` sees them: each pile's top card and its size."""
    text = Text(f"seat {seat + 1} ", style="bold", no_wrap=True, overflow="ellipsis")
    for zone in zones:
        for pile in shown_piles(game, zone, seat):
            cards = game.state.piles[pile]
            text.append(f" {game.rules.pile_names[pile].split('@')[0]} ", style="dim")
            if not cards:
                text.append(EMPTY, style="dim")
                continue
            text.append_text(card_text(game, _visible(game, pile, cards[-1], player)))
            if len(cards) > 1:
                text.append(f"({len(cards)})", style="dim")
    return text


def _layout_rows(game: Game, layout: list[list[str]], player: int | None, seat: int | None = None) -> list[Any]:
    """The rows of `layout` as `player` sees them; with `seat`, only that seat's piles of per-player zones.
    Piles drawn side by side wrap between piles, never inside one (`PackedLine`)."""
    rules = game.rules
    parts: list[Any] = []
    for row in layout:
        line: list[Text] = []  # the piles side by side so far

        def flush() -> None:
            if line:
                parts.append(PackedLine(list(line)))
                line.clear()
        for zone in row:
            spec = rules.zones[zone]
            piles = shown_piles(game, zone, seat)
            if spec.show == "column":
                flush()
                parts.append(_column_table(game, zone, player, piles))
                continue
            if any(rules.cover[p] for p in piles):  # piles lying on others (`covered_by`): level by level
                flush()
                parts.extend(_covering_lines(game, zone, piles, player))
                continue
            if spec.show == "row":  # each pile on a line of its own, every card shown
                flush()
                parts.extend(_row_line(game, zone, pile, player) for pile in piles)
                continue
            line.extend(_pile_line(game, zone, pile, player) for pile in piles)
        flush()
        parts.append(Text(""))
    return parts


class PackedLine:
    """Parts of a line (a status line's labelled values) set `gap` apart, wrapped between parts,
    never inside one, to the console's width; a part wider than the console is cut short."""

    def __init__(self, parts: list[Text], gap: str = "   ") -> None:
        self.parts, self.gap = parts, gap

    def __rich_console__(self, console: Any, options: Any) -> Any:
        width = max(options.max_width, 1)
        line = Text()
        for part in self.parts:
            if line.cell_len and line.cell_len + len(self.gap) + part.cell_len > width:
                line.truncate(width, overflow="ellipsis")
                yield line
                line = Text()
            elif line.cell_len:
                line.append(self.gap)
            line.append_text(part)
        line.truncate(width, overflow="ellipsis")
        yield line


def packed(text: Text, gap: str = "   ") -> PackedLine:
    """A one-line text whose parts are set `gap` apart (`outcome_text`), to wrap between them."""
    return PackedLine([part for part in text.split(gap, allow_blank=False)], gap)


def status_parts(game: Game, player: int | None = 0) -> list[Text]:
    """The status line's parts: each labelled variable whose `show` condition holds, then the game's
    state (whose turn, the phase, the way the turns go). For a spectator (None) a seat's own value
    is the seat to play's."""
    rules = game.rules
    parts: list[Text] = []
    if player is None:
        player = game.current_player
    env = {"player": player}
    rules.meter.reset()  # the `show` conditions' steps (limits.MAX_STEPS)
    for variable in rules.variables.values():
        if variable.per_card:
            continue  # a mark is seen with its card, not on the status line
        if variable.label == variable.name.replace("_", " ") and variable.show is None:
            continue  # unlabelled bookkeeping variables stay hidden
        if variable.show is not None and not variable.show(game.state, env):
            continue
        text = Text(f"{variable.label}: ", style="dim")
        if variable.per_team:  # every team's value, team by team
            text.append(" / ".join(f"{name} {game.variable(variable.name, seats[0])}"
                                   for name, seats in rules.teams(game.players)), style="bold")
        elif variable.per_player and game.players > 1:  # every seat's value, seat 1 first
            values = [str(game.variable(variable.name, seat)) for seat in range(game.players)]
            text.append(" / ".join(values), style="bold")
        else:
            text.append(str(game.variable(variable.name, player)), style="bold")
        parts.append(text)
    if game.is_over:
        return parts
    turn = Text(style="bold")
    if game.state.asking is not None:  # asked to act out of turn (`out_of_turn`)
        turn.append(f"seat {game.current_player + 1} may act out of turn (seat {game.turn_player + 1}'s turn)")
    elif game.players > 1 and not rules.simultaneous:  # every seat plays at once: nobody's turn
        turn.append(f"seat {game.current_player + 1} to play")
    if game.phase is not None:
        turn.append(f" ({game.phase})" if turn.plain else f"({game.phase})")
    if turn.plain:
        parts.append(turn)
    if rules.rotation and game.players > 2 and game.state.direction < 0:  # `reverse`: said while it holds
        parts.append(Text("turns go down the seats", style="dim"))
    return parts


def status_line(game: Game, player: int | None = 0) -> Text:
    """The status line on one line (`status_parts`); drawn in a table it wraps between its parts
    (`PackedLine`)."""
    text = Text()
    for part in status_parts(game, player):
        if text.plain:
            text.append("   ")
        text.append_text(part)
    return text


def moved_card(game: Game, move: Move, piles: list[list[int]] | None = None) -> int | None:
    """The card a legal move moves (the first of several), if it names one; None for moves that
    take a whole pile or move no card. Ask before the move is applied, or give the piles as they
    were then (`list(game.state.piles)`: piles are replaced, never changed in place)."""
    template = game.rules.moves[move.template]
    named_only = template.named_text and template.take != "any"  # `draw`: its text names no card
    if move.src >= 0 and move.count and template.take != "all" and not named_only:
        pile = (game.state.piles if piles is None else piles)[move.src]
        if move.pick == BLIND:
            return None  # a card the seat takes blind: it does not know which
        if isinstance(move.pick, tuple):  # several cards chosen: the first (its text names them all)
            return move.pick[0]
        return move.pick if move.pick is not None else pile[len(pile) - move.count]
    return None


def describe_move(game: Game, move: Move) -> Text:
    """`t3>f1  A♥` — a legal move's text, then the card it moves as the seat to play sees it."""
    return _with_card(game, move, move.text(), moved_card(game, move),
                      lambda card: _visible(game, move.src, card, game.current_player))


def hint_text(game: Game, move: Move) -> Text:
    """`hint: t3>f1   (A♥, the move to_foundation)`: the text to type, as it parses back, then in
    brackets the card it moves (as the seat to play sees it) and the move's name."""
    text = Text("hint: ").append(move.text(), style="bold cyan")
    card = moved_card(game, move)
    text.append("   (", style="dim")
    if card is not None:
        text.append_text(card_text(game, _visible(game, move.src, card, game.current_player)))
        text.append(f" +{move.count - 1}, " if move.count > 1 else ", ", style="dim")
    text.append(game.rules.moves[move.template].name.replace("_", " "), style="dim")
    return text.append(")", style="dim")


def record_text(game: Game, move: Move, player: int | None) -> str:
    """The text of a move made (the last time it was made) as `player` (None: a spectator) may know
    it (`Game.record`): a card it names that `player` could not see is written `?`."""
    history = game.history
    for index in range(len(history) - 1, -1, -1):
        if history[index] is move:
            return game.record(player, index)[0]
    return move.concealed().text() if move.pick is not None else move.text()


def describe_played(game: Game, move: Move, card: int | None, player: int | None) -> Text:
    """A move just applied, for the record: its text as `player` (None: a spectator) may know it,
    then its card (`moved_card`, asked before the move) as `player` sees it where it lies now; a
    back if it went out of sight."""
    def seen(card: int) -> int | None:
        for pile, cards in enumerate(game.state.piles):
            if card in cards:
                return _visible(game, pile, card, player)
        return None
    return _with_card(game, move, record_text(game, move, player), card, seen)


def _with_card(game: Game, move: Move, move_text: str, card: int | None,
               shown: Callable[[int], int | None]) -> Text:
    text = Text(move_text, style="bold cyan")
    if card is not None:
        text.append("  ")
        text.append_text(card_text(game, shown(card)))
        if move.count > 1:
            text.append(f" +{move.count - 1}", style="dim")
    return text


def forced_text(game: Game) -> Text | None:
    """Why the seat to play must move now, when another seat's move handed it the turn (`act`):
    the seat and the move that did it, with the move's help. None on an ordinary turn."""
    if not game.state.frames or not game.history:
        return None
    forcer = game.state.frames[-1][0]
    move = game.history[-1]
    template = game.rules.moves[move.template]
    text = Text(f"Seat {forcer + 1} played ", style="bold yellow")
    text.append(f"'{game.record(game.current_player, len(game.history) - 1)[0]}'", style="bold cyan")
    if template.help:
        text.append(f": {template.help}")
    phase = f" (phase {game.phase})" if game.phase is not None else ""
    text.append(f" — you must move now{phase}", style="bold yellow")
    return text


def render_rules_help(game: Game) -> Table:
    """The ruleset's move templates with their help texts."""
    table = Table(box=None, show_header=False, padding=(0, 1))
    table.add_column(style="bold cyan")
    table.add_column()
    for template in game.rules.moves:  # Text: ruleset text is printed as it is, never as markup
        table.add_row(Text(template.name), Text(template.help))
    return table


def render_moves(game: Game, moves: list[Move]) -> Table:
    table = Table(box=None, show_header=False, padding=(0, 1))
    columns = 3 if len(moves) > 8 else 1
    for _ in range(columns):
        table.add_column(justify="right", style="dim")
        table.add_column(justify="left")
    rows = (len(moves) + columns - 1) // columns
    for r in range(rows):
        cells: list[Any] = []
        for c in range(columns):
            i = c * rows + r
            if i < len(moves):
                cells.extend([f"{i + 1}.", describe_move(game, moves[i])])
            else:
                cells.extend(["", ""])
        table.add_row(*cells)
    return table


def outcome_text(game: Game) -> Text:
    outcome = game.outcome or "unfinished"
    style = {"won": "bold green", "lost": "bold red"}.get(outcome, "bold yellow")
    text = Text(f"Game over: {outcome}", style=style)
    if game.reason:
        text.append(f" ({game.reason})", style="dim")
    label = game.label()
    if label:
        text.append(f"   {label}", style="bold magenta")
    scores = game.scores()
    text.append("   score" + ("s" if len(scores) > 1 else "") + ": " + ", ".join(str(s) for s in scores))
    winners = game.winners()
    if winners:
        text.append(f"   {winners_phrase(game, winners)}", style="bold")
    return text


def _listed(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def winners_phrase(game: Game, winners: list[int]) -> str:
    """Who won, in words: "seat 2 wins with 12", "North-South (seats 1 and 3) win with 512"."""
    teams = [(name, seats) for name, seats in game.rules.teams(game.players) if set(seats) <= set(winners)]
    if teams:
        names = [f"{name} (seat{'s' if len(seats) > 1 else ''} {_listed([str(s + 1) for s in seats])})"
                 for name, seats in teams]
        phrase = _listed(names) + (" win" if len(teams) == 1 and len(teams[0][1]) > 1 or len(teams) > 1 else " wins")
    else:
        phrase = f"seat{'s' if len(winners) > 1 else ''} {_listed([str(w + 1) for w in winners])} " \
                 f"win{'' if len(winners) > 1 else 's'}"
    scores = game.scores()
    shared = {scores[w] for w in winners}
    return phrase + (f" with {shared.pop()}" if len(shared) == 1 else "")
