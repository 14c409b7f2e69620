"""The web server of `cardrules serve` (the `web` extra: Starlette on uvicorn): the table's page, its
static files, and one WebSocket per open page over which a seat plays (`web/table.py` decides).

Nothing a seat may not know leaves the server for it: every page is sent its own seat's view, and
only after every change. Every message from a browser is bounded (`MAX_MESSAGE` bytes; a larger
frame closes the socket), rate-limited (`RATE` a second, `BURST` at once; `MAX_PAGES` sockets a
token), must be a JSON object
of a known kind with fields of the right types, and is answered with a clean error otherwise; a
wrong or missing token gets a 404 page or a refused socket and nothing else. A socket opened from
a page of another site (its `Origin` is not this server) is refused.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import socket
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Callable

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..base.errors import CardrulesError, printable
from .lobby import Lobby
from .table import Seat, WebError, WebTable

STATIC = Path(__file__).parent / "static"
MAX_MESSAGE = 4096   # bytes in one message from a browser
RATE = 10.0          # messages a second a socket may send, on average
BURST = 30           # messages a socket may send at once
MAX_PAGES = 8        # open sockets a seat's token may hold at once (its pages and tabs)
KINDS = frozenset({"move", "explain", "hint", "undo", "redo", "save", "rules", "autoplay"})
SECURITY_HEADERS = {
    "content-security-policy": "default-src 'self'; connect-src 'self'; img-src 'self' data:; "
                               "frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "cache-control": "no-store",
}


class Bucket:
    """A token bucket: `RATE` messages a second on average, `BURST` at once."""

    def __init__(self, rate: float = RATE, burst: int = BURST) -> None:
        self.rate, self.burst = rate, burst
        self.level, self.at = float(burst), time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.level = min(self.burst, self.level + (now - self.at) * self.rate)
        self.at = now
        if self.level < 1:
            return False
        self.level -= 1
        return True


def parse_message(raw: str) -> dict[str, Any]:
    """A browser's message as a checked JSON object of a known kind; `WebError` otherwise."""
    if len(raw.encode("utf-8", "replace")) > MAX_MESSAGE:
        raise WebError(f"a message is at most {MAX_MESSAGE} bytes")
    try:
        message = json.loads(raw)
    except ValueError:
        raise WebError("a message is a JSON object") from None
    if not isinstance(message, dict):
        raise WebError("a message is a JSON object")
    kind = message.get("type")
    if kind not in KINDS:
        raise WebError(f"unknown request; requests are {', '.join(sorted(KINDS))}")
    return message


class TableServer:
    """The table's connections and the tasks that play its bots; one lock orders every change."""

    def __init__(self, table: WebTable, bot_delay: float = 0.4) -> None:
        self.table = table
        self.bot_delay = bot_delay
        self.lock = asyncio.Lock()
        self.sockets: dict[WebSocket, Seat] = {}
        self._bots: asyncio.Task[None] | None = None
        self._clock: asyncio.Task[None] | None = None

    async def send_views(self) -> None:
        """Every open page gets its own seat's view of the table as it now is."""
        for ws, seat in list(self.sockets.items()):
            await self._send(ws, {"type": "view", "view": self.table.view(seat.index)})

    async def _send(self, ws: WebSocket, data: dict[str, Any]) -> None:
        try:
            await ws.send_text(json.dumps(data))
        except Exception:  # noqa: BLE001 - a page gone while being written to: forget it
            self.sockets.pop(ws, None)

    def wake_bots(self) -> None:
        """Let the bots play their turns (one move at a time, each shown), if they are not already."""
        if self.table.scheduler is not None:
            if self._clock is None or self._clock.done():
                self._clock = asyncio.create_task(self._run_clock())
            return
        if self._bots is None or self._bots.done():
            self._bots = asyncio.create_task(self._run_bots())

    async def _run_bots(self) -> None:
        while True:
            await asyncio.sleep(self.bot_delay)
            async with self.lock:
                moved = await asyncio.to_thread(self.table.bot_turn)
                if not moved:
                    return
                await self.send_views()

    async def _run_clock(self) -> None:
        """Where every seat plays at once: land each bot action when it is due."""
        table = self.table
        while not table.game.is_over:
            due = table.next_due()
            await asyncio.sleep(0.5 if due is None else min(due, 0.5))
            async with self.lock:
                if await asyncio.to_thread(table.tick):
                    await self.send_views()
        async with self.lock:
            await self.send_views()

    def pages(self) -> dict[int | None, int]:
        """How many pages each seat (None: spectators) has open."""
        count: dict[int | None, int] = {}
        for seat in self.sockets.values():
            count[seat.index] = count.get(seat.index, 0) + 1
        return count

    async def serve_socket(self, ws: WebSocket, seat: Seat) -> None:
        """Play over `ws` for `seat` (whose token the socket's path gave) until the page goes."""
        if sum(1 for held in self.sockets.values() if held is seat) >= MAX_PAGES:
            await ws.close(code=4429)
            return
        await ws.accept()
        self.sockets[ws] = seat
        self.table.begin()
        bucket = Bucket()
        try:
            async with self.lock:
                await self._send(ws, {"type": "view", "view": self.table.view(seat.index)})
            self.wake_bots()
            while True:
                raw = await ws.receive_text()
                if not bucket.take():
                    await self._send(ws, {"type": "error", "message": "too many messages: slow down"})
                    continue
                await self._answer(ws, seat, raw)
        except WebSocketDisconnect:
            pass
        finally:
            self.sockets.pop(ws, None)

    async def _answer(self, ws: WebSocket, seat: Seat, raw: str) -> None:
        async with self.lock:
            before = self.table.version
            try:
                message = parse_message(raw)
                reply = await asyncio.to_thread(self.table.handle, seat.index, message)
            except CardrulesError as exc:
                reply = {"type": "error", "message": printable(str(exc))}
            if reply is not None:
                await self._send(ws, reply)
            if self.table.version != before:
                await self.send_views()
        self.wake_bots()


def _same_origin(headers: Mapping[str, str]) -> bool:
    """A request (a socket) made by a page of this server, or by a client that sends no `Origin`."""
    origin = headers.get("origin")
    if origin is None:
        return True
    host = headers.get("host", "")
    return origin.split("://", 1)[-1].rstrip("/") == host


class Hall:
    """The tables a server serves (one, or those its lobby opens), each found by a seat's token."""

    def __init__(self, bot_delay: float) -> None:
        self.bot_delay = bot_delay
        self.servers: list[TableServer] = []

    def add(self, table: WebTable) -> TableServer:
        server = TableServer(table, self.bot_delay)
        self.servers.append(server)
        return server

    def find(self, token: Any) -> tuple[TableServer, Seat] | None:
        for server in self.servers:
            seat = server.table.seat_of(token)
            if seat is not None:
                return server, seat
        return None

    def pages(self, table: WebTable) -> dict[int | None, int]:
        """How many pages each seat of `table` has open (none yet for a table just opened)."""
        server = next((server for server in self.servers if server.table is table), None)
        return server.pages() if server is not None else {}

    def idle(self, table: WebTable) -> bool:
        """No page shows `table`."""
        return not self.pages(table)

    def keep(self, tables: list[WebTable]) -> None:
        """Serve only these tables (those the lobby still has open)."""
        self.servers = [server for server in self.servers if any(server.table is t for t in tables)]


def make_app(table: WebTable | None, bot_delay: float = 0.4, lobby: Lobby | None = None) -> Starlette:
    """The ASGI application serving `table` (and, with a `lobby`, the tables it opens):
    `/play/TOKEN` the page of the seat the token names, `/ws/TOKEN` its socket, `/static/` the
    pages' scripts and styles; `/lobby/TOKEN` the lobby's page and `/api/lobby/TOKEN` its state
    (GET) and a new table (POST a JSON request)."""
    hall = Hall(bot_delay)
    if table is not None:
        hall.add(table)
    opening = asyncio.Lock()

    async def page(request: Request) -> Response:
        if hall.find(request.path_params.get("token")) is None:
            return PlainTextResponse("no such table", status_code=404, headers=SECURITY_HEADERS)
        return FileResponse(STATIC / "table.html", headers=SECURITY_HEADERS)

    async def socket_route(ws: WebSocket) -> None:
        found = hall.find(ws.path_params.get("token"))
        if found is None or not _same_origin(ws.headers):
            await ws.close(code=4403)
            return
        await found[0].serve_socket(ws, found[1])

    def is_lobby(token: Any) -> bool:
        return lobby is not None and isinstance(token, str) and \
            hmac.compare_digest(lobby.token.encode(), token.encode("utf-8", "replace"))

    async def lobby_page(request: Request) -> Response:
        if not is_lobby(request.path_params.get("token")):
            return PlainTextResponse("no such lobby", status_code=404, headers=SECURITY_HEADERS)
        return FileResponse(STATIC / "lobby.html", headers=SECURITY_HEADERS)

    async def lobby_api(request: Request) -> Response:
        if lobby is None or not is_lobby(request.path_params.get("token")):
            return JSONResponse({"error": "no such lobby"}, status_code=404, headers=SECURITY_HEADERS)
        if request.method == "GET":
            return JSONResponse(lobby.state(hall.pages), headers=SECURITY_HEADERS)
        if not _same_origin(request.headers) or request.headers.get("content-type", "").split(";")[0] != "application/json":
            return JSONResponse({"error": "a new table is asked for by the lobby's page, as JSON"},
                                status_code=403, headers=SECURITY_HEADERS)
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_MESSAGE:
                return JSONResponse({"error": f"a request is at most {MAX_MESSAGE} bytes"}, status_code=413,
                                    headers=SECURITY_HEADERS)
        try:
            asked = json.loads(body)
        except ValueError:
            return JSONResponse({"error": "a request is a JSON object"}, status_code=400, headers=SECURITY_HEADERS)
        async with opening:
            try:
                opened = await asyncio.to_thread(lobby.open, asked, hall.idle)
            except CardrulesError as exc:
                return JSONResponse({"error": printable(str(exc))}, status_code=400, headers=SECURITY_HEADERS)
            hall.add(opened.table)
            hall.keep([t.table for t in lobby.tables])
            return JSONResponse({"table": lobby.table_data(opened, {})}, headers=SECURITY_HEADERS)

    async def home(request: Request) -> Response:
        return PlainTextResponse("A cardrules table: open the link the server printed for your seat.",
                                 headers=SECURITY_HEADERS)

    async def no_icon(request: Request) -> Response:
        return Response(status_code=204)

    routes = [
        Route("/", home),
        Route("/favicon.ico", no_icon),
        Route("/play/{token}", page),
        WebSocketRoute("/ws/{token}", socket_route),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    if lobby is not None:
        routes[2:2] = [Route("/lobby/{token}", lobby_page), Route("/api/lobby/{token}", lobby_api, methods=["GET", "POST"])]
    app = Starlette(routes=routes)
    app.state.hall = hall
    return app


def _listen(host: str, port: int) -> tuple[socket.socket, str]:
    """A socket listening on `host`:`port` (0: a free port), and the address to print."""
    listener = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind((host, port))
    except OSError as exc:
        listener.close()
        raise CardrulesError(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    listener.listen(128)
    return listener, f"http://{f'[{host}]' if ':' in host else host}:{listener.getsockname()[1]}"


def _run(app: Starlette, listener: socket.socket) -> None:
    """Serve `app` on `listener` until interrupted. Pages opened before the server is up wait in the
    listening queue."""
    import uvicorn

    config = uvicorn.Config(app, log_level="warning", ws_max_size=MAX_MESSAGE, ws_ping_interval=20.0, lifespan="off")
    uvicorn.Server(config).run(sockets=[listener])


def serve_lobby(lobby: Lobby, host: str, port: int, bot_delay: float, say: Callable[[str], None]) -> None:
    """Listen on `host`:`port`, say the lobby's link, and serve it and the tables it opens until interrupted."""
    listener, address = _listen(host, port)
    say(f"cardrules lobby: serving at {address}/ (Ctrl-C stops)")
    say(f"  lobby      {address}/lobby/{lobby.token}")
    _run(make_app(None, bot_delay, lobby), listener)


def serve_table(table: WebTable, host: str, port: int, bot_delay: float, say: Callable[[str], None]) -> None:
    """Listen on `host`:`port` (0: a free port), say the address and each seat's link, and serve
    `table` until interrupted."""
    from ..base.errors import shown_title

    listener, address = _listen(host, port)
    say(f"{shown_title(table.game.rules.title)}: serving at {address}/ (Ctrl-C stops)")
    for link in table.links:
        who = "spectator" if link.index is None else f"seat {link.index + 1}"
        say(f"  {who:10} {address}/play/{link.token}")
    _run(make_app(table, bot_delay), listener)
