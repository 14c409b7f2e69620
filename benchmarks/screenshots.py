"""Screenshots of the browser table (`cardrules serve`) for the README: Klondike, Spades, Cascades and
Nerts, each a fixed deal some moves in, drawn by headless Chromium at 1280x860 (and Klondike at phone
width). Needs the `web` extra, Playwright and a Chromium (`apt-get install chromium`).

    python benchmarks/screenshots.py [--out docs/screenshots]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "tests") not in sys.path:
    sys.path.insert(0, str(ROOT / "tests"))

from browser import launch, served  # noqa: E402

from cardrules import load_ruleset  # noqa: E402
from cardrules.agents.bots import make_bot  # noqa: E402
from cardrules.web.server import make_app  # noqa: E402
from cardrules.web.table import WebTable  # noqa: E402

# name -> (seed, players, moves played at random before the picture, bot seats, wait in seconds)
TABLES = {
    "klondike": (3, None, 12, (), 0.0),
    "spades": (11, 4, 17, (1, 2, 3), 0.0),
    "cascades": (4, None, 10, (), 0.0),
    "nerts": (5, 2, 0, (1,), 3.0),
}


def table_for(name: str, seed: int, players: int | None, moves: int, bots: tuple[int, ...]) -> WebTable:
    rules = load_ruleset(name)
    game = rules.new_game(seed=seed, players=players)
    rng = random.Random(seed)
    for _ in range(moves):  # some moves in, with the seat to act a human
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_moves()))
    seats = {s: make_bot("greedy", s) if s in bots else None for s in range(game.players)}
    return WebTable(game, seats, speeds={s: 2.0 for s in bots})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = launch(playwright)
        for name, (seed, players, moves, bots, wait) in TABLES.items():
            table = table_for(name, seed, players, moves, bots)
            token = table.links[0].token
            with served(make_app(table, bot_delay=0.0)) as base:
                sizes = [("", 1280, 860)] + ([("-phone", 390, 844)] if name == "klondike" else [])
                for suffix, width, height in sizes:
                    page = browser.new_context(viewport={"width": width, "height": height}).new_page()
                    page.goto(f"{base}/play/{token}")
                    page.wait_for_selector("body[data-version]")
                    time.sleep(wait)
                    path = args.out / f"{name}{suffix}.png"
                    page.screenshot(path=str(path))
                    page.context.close()
                    print(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}: {name}, seed {seed}, "
                          f"{len(table.game.history)} moves made")
        browser.close()


if __name__ == "__main__":
    main()
