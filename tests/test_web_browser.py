"""`cardrules serve` in a real headless Chromium (Playwright): a Klondike deal won by clicks alone,
an illegal drop answered with its reason, undo, two Ten Bucks seats in two browser contexts whose
pages never hold the other seat's hidden cards (checked after every move), Nerts against a bot in
real time, and a hostile client in the page."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from typing import Any

import pytest

import cardrules
from cardrules.agents.bots import make_bot
from cardrules.web.server import make_app
from cardrules.web.table import WebTable
from cardrules.workbench.solver import new_search_game, solve_game

from browser import has_browser, launch, served
from conftest import ROOT
from test_web_table import expected_cards

if not has_browser():  # CI installs Debian's chromium (.ci/run): there, a missing browser is a failure
    if os.environ.get("CI"):
        raise RuntimeError("the browser tests need Chromium: apt-get install chromium")
    pytest.skip("no Chromium here (apt-get install chromium, or python -m playwright install chromium)",
                allow_module_level=True)

from playwright.sync_api import Page, sync_playwright  # noqa: E402


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_playwright() as playwright:
        chromium = launch(playwright)
        yield chromium
        chromium.close()


def open_seat(browser: Any, base: str, table: WebTable, seat: int | None) -> tuple[Page, list[str]]:
    """A new browser context (its own cookies and storage) on a seat's link; and its page's errors."""
    token = next(link.token for link in table.links if link.index == seat)
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.goto(f"{base}/play/{token}")
    page.wait_for_selector("body[data-version]")
    return page, errors


def wait_version(page: Page, table: WebTable) -> None:
    """Until the page has drawn the table's current view, or a later one: bots may move on after
    the version is read (within 30 s: the suite's other workers may hold both cores while the bots
    move and the page draws)."""
    page.wait_for_function("v => Number(document.body.dataset.version) >= v", arg=table.version, timeout=30_000)


def changing(page: Page, table: WebTable, act: Any) -> None:
    """Do `act` and wait until the table has changed and the page has drawn the change."""
    before = table.version
    act()
    page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before, timeout=30_000)
    wait_version(page, table)


def click_pile(page: Page, name: str, index: int | None = None) -> None:
    """Click a pile by its name: on its card `index` if drawn (the card's visible top-left corner),
    else on its top card, else on the pile itself."""
    pile = page.locator(f'.pile[data-name="{name}"]')
    card = pile.locator(f'.card[data-index="{index}"]') if index is not None else pile.locator(".card").last
    if index is not None and card.count() == 0:
        card = pile.locator(".card").last
    target = card if card.count() else pile
    target.click(position={"x": 6, "y": 6})


def test_a_klondike_deal_is_won_by_clicks_alone(browser: Any) -> None:
    rules = cardrules.load_ruleset("klondike")
    order = rules.deck.parse_order((ROOT / "examples" / "klondike-easy.deal").read_text())
    deal = [rules.deck.codes[c] for c in order]
    solution = solve_game(new_search_game(rules, deal=deal), timeout=60, clock="cpu")
    assert solution.answer == "solvable"
    game = rules.new_game(deal=deal)
    replica = rules.new_game(deal=deal)
    table = WebTable(game, {0: None})
    with served(make_app(table, bot_delay=0.0)) as base:
        page, errors = open_seat(browser, base, table, 0)
        for text in solution.moves:
            move = replica.parse_move(text)
            source = replica.state.piles[move.src]
            click_pile(page, rules.pile_names[move.src], len(source) - move.count)
            changing(page, table, lambda: click_pile(page, rules.pile_names[move.dst]))
            replica.apply(move)
            assert [str(m) for m in game.history] == [str(m) for m in replica.history], text
        wait_version(page, table)
        assert game.outcome == "won"
        assert page.locator("#over").is_visible() and "won" in page.locator("#over").inner_text()
        assert errors == []


def test_an_illegal_drop_shows_why_and_undo_takes_a_move_back(browser: Any) -> None:
    from cardrules.workbench.describe import describe, render_text

    rules = cardrules.load_ruleset("klondike")
    game = rules.new_game(seed=3)
    table = WebTable(game, {0: None}, rules_text=render_text(describe("klondike"), 80))
    with served(make_app(table, bot_delay=0.0)) as base:
        page, errors = open_seat(browser, base, table, 0)
        page.click("#rules")             # the rules in words, in the side panel
        page.wait_for_function("() => document.getElementById('rulestext').textContent.length > 0")
        assert page.locator("#rulestext").inner_text().strip() == table.rules_text.strip()
        page.click("#hint")              # a hint names a legal move and marks its piles
        page.wait_for_selector("#message pre.hint")
        assert page.locator("#message pre").inner_text().startswith("hint: ")
        assert page.locator(".pile.hinted").count() >= 1
        click_pile(page, "t2")          # the 10 of diamonds onto an empty foundation: not legal
        click_pile(page, "f1")
        page.wait_for_selector("#message pre.refused")
        why = page.locator("#message pre").inner_text()
        assert why == str(game.explain("t2>f1", 0)) and why.startswith("'t2>f1' is not a legal move now")
        assert game.history == []
        click_pile(page, "t1")           # the ace: its destinations are highlighted
        targets = sorted(page.locator(".pile.target").evaluate_all("els => els.map(e => e.dataset.name)"))
        t1 = rules.pile_names.index("t1")
        assert targets == sorted(rules.pile_names[m.dst] for m in game.legal_moves() if m.src == t1) and "f1" in targets
        changing(page, table, lambda: click_pile(page, "f1"))
        assert [str(m) for m in game.history] == ["t1>f1"]
        assert page.locator('.pile[data-name="f1"] .card').get_attribute("data-code") == "AD"
        changing(page, table, lambda: page.click("#undo"))
        assert game.history == [] and page.locator('.pile[data-name="f1"] .card').count() == 0
        changing(page, table, lambda: page.click("#redo"))
        assert [str(m) for m in game.history] == ["t1>f1"]
        changing(page, table, lambda: page.click("#undo"))
        source = page.locator('.pile[data-name="t1"] .card').last  # dragged, this time
        changing(page, table, lambda: source.drag_to(page.locator('.pile[data-name="f1"]')))
        assert [str(m) for m in game.history] == ["t1>f1"] and not table.view(0)["can_redo"]
        assert errors == []


def dom_piles(page: Page) -> dict[int, list[str | None]]:
    """Every pile drawn in the page: the cards' codes as the page holds them (None: a back)."""
    found = page.locator(".pile").evaluate_all(
        "els => els.map(e => [Number(e.dataset.pile), [...e.querySelectorAll('.card')].map("
        "c => c.dataset.code === undefined ? null : c.dataset.code)])")
    return {pile: cards for pile, cards in found}


def test_two_seats_on_their_own_screens_never_hold_each_others_hidden_cards(browser: Any) -> None:
    from cardrules.python import render

    rules = cardrules.load_ruleset("ten-bucks")
    game = rules.new_game(seed=21, players=2)
    table = WebTable(game, {0: None, 1: None})
    updates = hidden = found = 0
    with served(make_app(table, bot_delay=0.0)) as base:
        pages = [open_seat(browser, base, table, seat) for seat in (0, 1)]
        while not game.is_over:
            for seat, (page, errors) in enumerate(pages):
                wait_version(page, table)
                drawn = dom_piles(page)
                for zone_row in rules.layout:
                    for zone in zone_row:
                        for pile in render.shown_piles(game, zone):
                            want = expected_cards(game, pile, seat, render.drawn_cards(game, zone, pile, seat))
                            shown = drawn[pile] if rules.zones[zone].show in ("row", "column") else drawn[pile][-3:]
                            assert shown == want[len(want) - len(shown):], (seat, rules.pile_names[pile])
                            hidden += want.count(None)
                            found += sum(1 for w, s in zip(want[len(want) - len(shown):], shown) if w is None and s)
                assert errors == []
            updates += 1
            page = pages[game.current_player][0]
            changing(page, table, page.locator("#moves button").first.click)
        assert updates > 10 and hidden > 0 and found == 0
        print(f"secrecy: {updates} updates checked in both pages, {hidden} hidden cards, {found} found")


def test_three_cards_are_passed_by_clicking_them_one_by_one_then_the_pass_pile(browser: Any) -> None:
    rules = cardrules.load_ruleset("hearts")
    game = rules.new_game(seed=5)
    table = WebTable(game, {0: None, 1: make_bot("random", 1), 2: make_bot("random", 2), 3: make_bot("random", 3)})
    hand = rules.pile_names.index("h@1")
    codes = [rules.deck.codes[c] for c in game.state.piles[hand]]
    with served(make_app(table, bot_delay=0.0)) as base:
        page, errors = open_seat(browser, base, table, 0)
        # 286 ways to pass three cards: not 286 buttons, a word that they are pointed at
        assert page.locator("#moves button").count() == 0
        assert page.locator("#moves .more").inner_text() == "286 moves: point at their cards and piles"

        def click_card(code: str) -> None:
            page.locator(f'.pile[data-name="h@1"] .card[data-code="{code}"]').click(position={"x": 6, "y": 6})

        def chosen() -> list[str]:
            return sorted(page.locator(".card.selected").evaluate_all("els => els.map(e => e.dataset.code)"))

        for code in codes[:3]:
            click_card(code)
            assert page.locator(".pile.target").count() == (1 if code == codes[2] else 0)
        assert chosen() == sorted(codes[:3])
        assert page.locator("#message pre.picking").inner_text() == "3 cards chosen: now where they go"
        assert page.locator(".pile.target").evaluate_all("els => els.map(e => e.dataset.name)") == ["p@1"]
        click_card(codes[3])             # a fourth: no move passes four
        assert page.locator("#message pre.refused").inner_text() == "no move picks that card with those chosen"
        assert chosen() == sorted(codes[:3])
        click_card(codes[1])             # out again, and another in
        assert chosen() == sorted([codes[0], codes[2]])
        assert page.locator("#message pre.picking").inner_text() == "2 cards chosen: choose 1 more"
        click_pile(page, "p@1")          # not yet: two cards are no pass
        assert game.history == [] and chosen() == sorted([codes[0], codes[2]])
        click_card(codes[4])
        changing(page, table, lambda: click_pile(page, "p@1"))
        passed = game.history[0]
        assert table.movers[0] == 0
        assert passed.src == hand and sorted(rules.deck.codes[c] for c in passed.pick) == sorted([codes[0], codes[2], codes[4]])
        assert errors == []


def test_nerts_against_a_bot_in_real_time(browser: Any) -> None:
    rules = cardrules.load_ruleset("nerts")
    game = rules.new_game(seed=5, players=2)
    table = WebTable(game, {0: None, 1: make_bot("greedy", 2)}, speeds={1: 4.0})
    with served(make_app(table, bot_delay=0.0)) as base:
        page, errors = open_seat(browser, base, table, 0)
        deadline = time.monotonic() + 4
        played = 0
        while time.monotonic() < deadline and not game.is_over:
            buttons = page.locator("#moves button")
            if buttons.count():
                buttons.first.click()
                played += 1
            page.wait_for_timeout(300)
        bots = sum(1 for seat in table.movers if seat == 1)
        assert bots >= 4 and played > 0 and 0 in table.movers
        wait_version(page, table)
        log = page.locator("#log li").all_inner_texts()
        assert any(entry.startswith("seat 2: ") for entry in log)
        assert errors == []


def test_a_hostile_client_gets_errors_and_changes_nothing(browser: Any) -> None:
    rules = cardrules.load_ruleset("ten-bucks")
    game = rules.new_game(seed=8, players=2)
    table = WebTable(game, {0: None, 1: None})
    seat1 = str(game.legal_moves()[0])
    with served(make_app(table, bot_delay=0.0)) as base:
        page, _ = open_seat(browser, base, table, 1)
        token = next(link.token for link in table.links if link.index == 1)
        answers = page.evaluate("""async ([token, seat1]) => {
            const open = (t) => new Promise((done) => {
                const ws = new WebSocket("ws://" + location.host + "/ws/" + t);
                const got = [];
                ws.onmessage = (e) => got.push(JSON.parse(e.data));
                ws.onopen = () => done({ws, got, open: true});
                ws.onerror = () => done({ws, got, open: false});
            });
            const pause = (ms) => new Promise((r) => setTimeout(r, ms));
            const guessed = await open(token.slice(0, -2) + "xy");
            const mine = await open(token);
            for (const raw of [JSON.stringify({type: "move", text: seat1}), JSON.stringify({type: "move", action: 0}),
                               "{", JSON.stringify({type: "move", text: seat1, seat: 0}), JSON.stringify({type: "undo"})])
                mine.ws.send(raw);
            await pause(500);
            const closed = new Promise((r) => { mine.ws.onclose = (e) => r(e.code); });
            mine.ws.send("x".repeat(100000));
            const code = await Promise.race([closed, pause(3000).then(() => "open")]);
            return {guessed: guessed.open, replies: mine.got.map((m) => m.type), code};
        }""", [token, seat1])
        assert answers["guessed"] is False
        assert answers["replies"][0] == "view" and answers["replies"][1:] == ["error"] * 5
        assert answers["code"] == 1009  # the oversized frame closed the socket
        assert game.history == [] and table.version == 0


def test_a_phone_sized_page_fits_its_width_and_plays_by_clicks(browser: Any) -> None:
    rules = cardrules.load_ruleset("klondike")
    game = rules.new_game(seed=3)
    table = WebTable(game, {0: None})
    with served(make_app(table, bot_delay=0.0)) as base:
        token = table.links[0].token
        page = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True).new_page()
        page.goto(f"{base}/play/{token}")
        page.wait_for_selector("body[data-version]")
        width = page.evaluate("() => document.documentElement.clientWidth")
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width  # no sideways scrolling
        boxes = page.locator(".pile").evaluate_all("els => els.map(e => e.getBoundingClientRect().right)")
        assert len(boxes) == 13 and max(boxes) <= width  # the stock, waste, 4 foundations and 7 columns
        assert page.locator("#moves button").count() == len(game.legal_moves())  # under the table, not cut off
        changing(page, table, lambda: (click_pile(page, "t1"), click_pile(page, "f1")))
        assert [str(m) for m in game.history] == ["t1>f1"]


def test_the_lobby_opens_a_table_whose_seat_link_plays(browser: Any) -> None:
    from cardrules.web.lobby import Lobby
    from cardrules.workbench.catalogue import bundled

    lobby = Lobby(bundled(), lambda name, options: cardrules.load_ruleset(name, options), lambda name, values: "")
    with served(make_app(None, bot_delay=0.0, lobby=lobby)) as base:
        page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{base}/lobby/{lobby.token}")
        page.wait_for_selector("#ruleset option", state="attached")
        assert page.locator("#ruleset").input_value() == next(iter(lobby.entries))  # the first offered
        page.select_option("#ruleset", "ten-bucks")
        page.fill("#players", "3")
        page.dispatch_event("#players", "change")
        assert page.locator("#seats select").count() == 3
        page.select_option('#seats select[name="seat2"]', "human")  # seats after the first are greedy unless chosen
        page.select_option('#seats select[name="seat3"]', "random")
        page.click("#open")
        page.wait_for_selector("#tables li[data-table='1'] a")
        opened = lobby.tables[0].table
        assert opened.game.rules.name == "ten-bucks" and opened.game.players == 3
        assert opened.seats[0] is None and opened.seats[1] is None and opened.seats[2] is not None
        links = page.locator("#tables li[data-table='1'] [data-link]").evaluate_all("els => els.map(e => e.dataset.link)")
        assert links == [f"{base}/play/{link.token}" for link in opened.links if link.index is not None]
        seat = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        seat.goto(links[1])
        seat.wait_for_selector("body[data-version]")
        assert seat.locator("#title").inner_text() == "Ten Bucks" and seat.locator("#who").inner_text() == "seat 2"
        page.wait_for_function("() => document.querySelector(\"#tables li[data-table='1']\").textContent.includes('open (1 page)')")
        phone = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        phone.goto(f"{base}/lobby/{lobby.token}")
        phone.wait_for_selector("#tables li[data-table='1']")
        assert phone.evaluate("() => document.documentElement.scrollWidth <= document.documentElement.clientWidth")
        assert errors == []
