"""What the browser tests and benchmarks/screenshots.py share: a table served on a free local port
in a background thread, and a headless Chromium (the distribution's package, driven by Playwright).

`.ci/run` installs Debian's `chromium`; elsewhere `CARDRULES_CHROMIUM` names a browser, or
Playwright's own (`python -m playwright install chromium`) is used if present."""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

CHROMIUM_FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def chromium_path() -> str | None:
    """A Chromium to drive: `CARDRULES_CHROMIUM`, else the distribution's; None to let Playwright use its own."""
    given = os.environ.get("CARDRULES_CHROMIUM")
    if given:
        return given
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


def has_browser() -> bool:
    if chromium_path() is not None:
        return True
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        return Path(p.chromium.executable_path).exists()


def launch(playwright: Any) -> Any:
    return playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS)


@contextmanager
def served(app: Any) -> Iterator[str]:
    """Serve an ASGI app on 127.0.0.1 at a free port in a thread; yields its base URL."""
    import uvicorn

    from cardrules.web.server import MAX_MESSAGE

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off", ws_max_size=MAX_MESSAGE))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(5)
        listener.close()
