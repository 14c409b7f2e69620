"""The lobby of `cardrules serve` given no ruleset: the bundled rulesets to choose from, the tables
open, and a new table set up from a request. Plain Python with no web code, as `web/table.py` is;
`web/server.py` carries its requests and serves the tables it opens.

Whoever holds the lobby's link (a secret token, as a seat's link is) may open tables and sees every
table's seat links: it is the link a host shares with the friends they play with. A request names a
bundled ruleset only (never a file), players within its range, its options and a kind for each
seat, each checked as the command line checks them. At most `MAX_TABLES` tables are open at once;
a finished table that no page shows makes room for a new one.
"""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass
from typing import Any, Callable

from ..agents.seats import SeatError, SeatSpec, check_seats, parse_seat
from ..base.errors import printable
from ..python.engine import Game
from ..workbench.catalogue import Entry, option_text
from .table import WebError, WebTable, open_table

MAX_TABLES = 8          # tables open at once
MAX_SEAT_TEXT = 60      # the longest seat kind with its parameters (`mcts:playouts=400`)
SEAT_KINDS = ("human", "greedy", "random", "mcts")   # offered by the page; any kind `--seat` takes is accepted


@dataclass
class LobbyTable:
    """A table the lobby opened: its number (from 1), ruleset and seat kinds."""

    number: int
    name: str
    table: WebTable
    kinds: list[str]


class Lobby:
    """The rulesets on offer and the tables open, each made by `open`."""

    def __init__(self, entries: list[Entry], load: Callable[[str, dict[str, str]], Any],
                 rules_text: Callable[[str, dict[str, Any]], str], max_tables: int = MAX_TABLES) -> None:
        self.token = secrets.token_urlsafe(18)
        self.entries = {entry.name: entry for entry in entries}
        self.load = load                  # (name, options) -> the ruleset, as `cardrules.load_ruleset`
        self.rules_text = rules_text      # (name, option values) -> the rules in words
        self.max_tables = max_tables
        self.tables: list[LobbyTable] = []
        self.opened = 0

    def state(self, pages: Callable[[WebTable], dict[int | None, int]]) -> dict[str, Any]:
        """What the lobby's page shows: the rulesets, and each table with its links and how many
        pages each link has open (`pages`)."""
        return {"rulesets": [entry.data() for entry in self.entries.values()], "kinds": list(SEAT_KINDS),
                "max_tables": self.max_tables,
                "tables": [self.table_data(t, pages(t.table)) for t in self.tables]}

    @staticmethod
    def table_data(opened: LobbyTable, pages: dict[int | None, int]) -> dict[str, Any]:
        """A table as the lobby's page shows it: its ruleset, progress, and each seat's link and pages open."""
        table = opened.table
        game = table.game
        links = {link.index: link.token for link in table.links}
        return {"number": opened.number, "name": opened.name, "title": game.rules.title, "players": game.players,
                "over": game.is_over, "made": len(game.history),
                "to_play": None if game.is_over or game.rules.simultaneous else game.current_player + 1,
                "seats": [{"seat": s + 1, "kind": opened.kinds[s], "link": f"/play/{links[s]}" if s in links else None,
                           "pages": pages.get(s, 0)} for s in range(game.players)],
                "spectator": f"/play/{links[None]}"}

    def open(self, request: Any, idle: Callable[[WebTable], bool]) -> LobbyTable:
        """A new table from a request `{"ruleset", "players"?, "options"?, "seats"?}`; `WebError`
        for a request that is not one, `CardrulesError` for a ruleset that refuses its options.
        Finished tables `idle` says no page shows are closed first, if the lobby is full."""
        name, players, options, seat_texts = self._read(request)
        if len(self.tables) >= self.max_tables:
            self.tables = [t for t in self.tables if not (t.table.game.is_over and idle(t.table))]
        if len(self.tables) >= self.max_tables:
            raise WebError(f"{self.max_tables} tables are open: finish one first")
        rules = self.load(name, options)
        if players is not None and not rules.min_players <= players <= rules.max_players:
            raise WebError(f"{rules.title} is for {rules.min_players}-{rules.max_players} players")
        count = players if players is not None else rules.default_players
        specs: dict[int, SeatSpec] = {}
        try:
            for s, text in enumerate(seat_texts[:count]):
                index, spec = parse_seat(str(s + 1), text, count)
                specs[index] = spec
            check_seats(rules, specs, count, one_terminal=False)
        except SeatError as exc:
            raise WebError(printable(str(exc))) from None
        seed = random.SystemRandom().getrandbits(63)
        persisted = None
        if rules.persistent_variables():
            from ..storage import store

            persisted = store.load(rules)
        game: Game = rules.new_game(seed=seed, players=count, persisted=persisted)
        words = self.rules_text(name, dict(rules.option_values))
        texts = {str(s + 1): seat_texts[s] for s in range(count) if s < len(seat_texts)}
        table = open_table(game, specs, seed, words, texts)
        self.opened += 1
        opened = LobbyTable(self.opened, name, table, [specs.get(s, SeatSpec()).kind for s in range(count)])
        self.tables.append(opened)
        return opened

    def _read(self, request: Any) -> tuple[str, int | None, dict[str, str], list[str]]:
        """A request's ruleset, players, options (as typed on a command line) and seat texts, checked."""
        if not isinstance(request, dict):
            raise WebError("a request is a JSON object")
        unknown = set(request) - {"ruleset", "players", "options", "seats"}
        if unknown:
            raise WebError(f"unknown field {sorted(unknown)[0]!r}: fields are ruleset, players, options, seats")
        name = request.get("ruleset")
        if not isinstance(name, str) or name not in self.entries:
            raise WebError("no such ruleset here; the lobby offers " + ", ".join(self.entries))
        entry = self.entries[name]
        players = request.get("players")
        if players is not None and (type(players) is not int or not entry.min_players <= players <= entry.max_players):
            raise WebError(f"{entry.title} is for {entry.min_players}-{entry.max_players} players")
        given = request.get("options", {})
        if not isinstance(given, dict):
            raise WebError("options are an object of NAME: VALUE")
        options: dict[str, str] = {}
        for key, value in given.items():
            if key not in entry.options:
                raise WebError(f"{entry.title} has no option {printable(str(key))[:40]!r}"
                               + (f"; options: {', '.join(entry.options)}" if entry.options else ""))
            if type(value) not in (str, int, bool) or len(str(value)) > 40:
                raise WebError(f"option {key}: a value is a short string, a whole number or true/false")
            options[key] = option_text(value)
        seats = request.get("seats", [])
        if not isinstance(seats, list) or len(seats) > entry.max_players \
                or not all(isinstance(t, str) and 0 < len(t) <= MAX_SEAT_TEXT for t in seats):
            raise WebError(f"seats are a list of at most {entry.max_players} kinds "
                           f"({', '.join(SEAT_KINDS)})")
        return name, players, options, seats
