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
import json
import socket
import time
from pathlib import Path
from typing import Any, Callable

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..base.errors import CardrulesError, printable
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

    async def serve_socket(self, ws: WebSocket) -> None:
        seat = self.table.seat_of(ws.path_params.get("token"))
        if seat is None or not _same_origin(ws):
            await ws.close(code=4403)
            return
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


def _same_origin(ws: WebSocket) -> bool:
    """A socket opened by a page of this server (or by a client that sends no `Origin`)."""
    origin = ws.headers.get("origin")
    if origin is None:
        return True
    host = ws.headers.get("host", "")
    return origin.split("://", 1)[-1].rstrip("/") == host


def make_app(table: WebTable, bot_delay: float = 0.4) -> Starlette:
    """The ASGI application serving `table`: `/play/TOKEN` the page of the seat the token names,
    `/ws/TOKEN` its socket, `/static/` the page's script and style."""
    server = TableServer(table, bot_delay)

    async def page(request: Request) -> Response:
        if table.seat_of(request.path_params.get("token")) is None:
            return PlainTextResponse("no such table", status_code=404, headers=SECURITY_HEADERS)
        return FileResponse(STATIC / "table.html", headers=SECURITY_HEADERS)

    async def home(request: Request) -> Response:
        return PlainTextResponse("A cardrules table: open the link the server printed for your seat.",
                                 headers=SECURITY_HEADERS)

    async def no_icon(request: Request) -> Response:
        return Response(status_code=204)

    app = Starlette(routes=[
        Route("/", home),
        Route("/favicon.ico", no_icon),
        Route("/play/{token}", page),
        WebSocketRoute("/ws/{token}", server.serve_socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ])
    app.state.server = server
    return app


def serve_table(table: WebTable, host: str, port: int, bot_delay: float, say: Callable[[str], None]) -> None:
    """Listen on `host`:`port` (0: a free port), say the address and each seat's link, and serve
    `table` until interrupted. Pages opened before the server is up wait in the listening queue."""
    import uvicorn

    from ..base.errors import shown_title

    listener = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind((host, port))
    except OSError as exc:
        listener.close()
        raise CardrulesError(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    listener.listen(128)
    address = f"http://{f'[{host}]' if ':' in host else host}:{listener.getsockname()[1]}"
    say(f"{shown_title(table.game.rules.title)}: serving at {address}/ (Ctrl-C stops)")
    for link in table.links:
        who = "spectator" if link.index is None else f"seat {link.index + 1}"
        say(f"  {who:10} {address}/play/{link.token}")
    config = uvicorn.Config(make_app(table, bot_delay), log_level="warning", ws_max_size=MAX_MESSAGE,
                            ws_ping_interval=20.0, lifespan="off")
    uvicorn.Server(config).run(sockets=[listener])
