"""`cardrules serve` without a browser: what each seat's page is sent (never a card the seat cannot
see), what a seat may ask and what it is refused, the bots that fill seats, the clock of games
where every seat plays at once, and the server's answers to hostile clients."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

import cardrules
from cardrules.agents.bots import make_bot
from cardrules.web.server import BURST, MAX_MESSAGE, MAX_PAGES, make_app
from cardrules.web.table import WebError, WebTable
from cardrules.web.view import table_view

from conftest import RULESETS

TURN_BASED = sorted(p.stem for p in RULESETS.glob("*.yaml")
                    if not cardrules.load_ruleset(p.stem).simultaneous)


def expected_cards(game: Any, pile: int, seat: int | None, drawn: list[int]) -> list[str | None]:
    """What a pile's cards must be in a seat's view: the code of each card the seat sees, None for the others."""
    codes = game.rules.deck.codes
    return [codes[c] if game.visible(c, pile, seat) else None for c in drawn]


def check_view(game: Any, view: dict[str, Any], seat: int | None) -> int:
    """Every pile of `view` holds exactly the cards `seat` sees, each where it lies, the others as
    backs with nothing else; returns the hidden cards checked."""
    from cardrules.python import render

    hidden = 0
    for row in view["rows"]:
        for zone in row["zones"]:
            for pile in zone["piles"]:
                drawn = render.drawn_cards(game, zone["zone"], pile["pile"], seat)
                want = expected_cards(game, pile["pile"], seat, drawn)
                got = [card.get("code") for card in pile["cards"]]
                assert got == want, (zone["zone"], pile["name"])
                for card, code in zip(pile["cards"], want):
                    if code is None:
                        hidden += 1
                        assert set(card) == {"back"}, card
    return hidden


@pytest.mark.parametrize("name", TURN_BASED)
def test_every_view_holds_only_what_its_seat_sees(name: str) -> None:
    rules = cardrules.load_ruleset(name)
    rng = random.Random(f"web/{name}")
    game = rules.new_game(seed=rng.randrange(10**6), max_moves=120)
    table = WebTable(game, {s: None for s in range(game.players)})
    while not game.is_over:
        for seat in [None, *range(game.players)]:
            view = table.view(seat)
            check_view(game, view, seat)
            assert json.dumps(view)  # plain JSON
            legal = {str(m) for m in game.legal_moves(seat)} if seat == game.current_player else set()
            assert {m["text"] for m in view["moves"]} == legal
            drawn = {p["pile"] for row in view["rows"] for zone in row["zones"] for p in zone["piles"]}
            ends = {m[end] for m in view["moves"] for end in ("src", "dst") if m[end] >= 0}
            assert ends <= drawn, "a move's pile is not drawn, so it cannot be pointed at"
        seat = game.current_player
        move = rng.choice(game.legal_moves())
        assert table.handle(seat, {"type": "move", "text": str(move)}) is None


def test_a_move_out_of_turn_or_by_a_spectator_is_refused_and_changes_nothing() -> None:
    game = cardrules.load_ruleset("ten-bucks").new_game(seed=4, players=2)
    table = WebTable(game, {0: None, 1: None})
    first = str(game.legal_moves()[0])
    for seat, message in [(1, {"type": "move", "text": first}), (None, {"type": "move", "text": first}),
                          (0, {"type": "move", "action": "3"}), (0, {"type": "move", "action": True}),
                          (0, {"type": "move", "text": "x" * 201}), (0, {"type": "move", "text": "7"}),
                          (0, {"type": "move"}), (0, {"type": "dance"}), (1, {"type": "undo"}),
                          (1, {"type": "hint"}), (0, {"type": "move", "action": 10**30})]:
        with pytest.raises(WebError):
            table.handle(seat, message)
    assert game.history == [] and table.version == 0


def test_an_illegal_move_is_answered_with_its_reason() -> None:
    game = cardrules.load_ruleset("klondike").new_game(seed=3)
    table = WebTable(game, {0: None})
    reply = table.handle(0, {"type": "move", "text": "t2>f1"})
    assert reply is not None and reply["type"] == "refused"
    assert reply["why"] == str(game.explain("t2>f1", 0)) and "t2>f1" in reply["why"]
    assert game.history == []


def test_undo_takes_back_the_bots_moves_too_and_redo_plays_them_again() -> None:
    game = cardrules.load_ruleset("ten-bucks").new_game(seed=9, players=3)
    table = WebTable(game, {0: None, 1: make_bot("random", 1), 2: make_bot("random", 2)})
    while game.current_player == 0:  # seat 1's turn: a bill, then maybe a claim
        table.handle(0, {"type": "move", "text": str(game.legal_moves()[0])})
    while table.bot_turn():
        pass
    assert game.current_player == 0 and len(game.history) >= 3
    made = [str(m) for m in game.history]
    last = max(i for i, seat in enumerate(table.movers) if seat == 0)  # seat 1's last decision
    table.handle(0, {"type": "undo"})
    assert [str(m) for m in game.history] == made[:last] and table.view(0)["can_redo"]
    table.handle(0, {"type": "redo"})
    assert [str(m) for m in game.history] == made and table.movers[0] == 0 and 1 in table.movers


def test_hint_is_a_legal_move_of_the_seat() -> None:
    game = cardrules.load_ruleset("klondike").new_game(seed=5)
    table = WebTable(game, {0: None})
    reply = table.handle(0, {"type": "hint"})
    assert reply is not None and reply["move"]["text"] in {str(m) for m in game.legal_moves()}


def test_save_writes_a_save_the_table_names(tmp_path: Path) -> None:
    game = cardrules.load_ruleset("klondike").new_game(seed=5)
    written: list[Path] = []

    def saver() -> Path:
        path = tmp_path / "save.json"
        path.write_text(json.dumps([str(m) for m in game.history]))
        written.append(path)
        return path
    table = WebTable(game, {0: None}, saver=saver)
    table.handle(0, {"type": "move", "text": str(game.legal_moves()[0])})
    reply = table.handle(0, {"type": "save"})
    assert reply is not None and "save.json" in reply["text"] and json.loads(written[0].read_text()) == [
        str(game.history[0])]
    assert not WebTable(cardrules.load_ruleset("klondike").new_game(seed=5), {0: None}).view(0)["can_save"]


def test_the_end_is_told_once() -> None:
    game = cardrules.load_ruleset("ten-bucks").new_game(seed=2, players=2)
    ended: list[str | None] = []
    table = WebTable(game, {0: make_bot("random", 1), 1: make_bot("random", 2)},
                     on_over=lambda g: ended.append(g.outcome))
    while table.bot_turn():
        pass
    assert game.is_over and ended == [game.outcome]
    view = table.view(None)
    assert view["over"] and view["outcome"].startswith("Game over")


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_where_every_seat_plays_at_once_bots_act_on_the_clock_and_a_stale_move_is_too_late() -> None:
    game = cardrules.load_ruleset("nerts").new_game(seed=7, players=2)
    clock = Clock()
    table = WebTable(game, {0: None, 1: make_bot("greedy", 1)}, speeds={1: 2.0}, clock=clock)
    assert not table.tick()  # the clock has not started: no page has opened
    table.begin()
    seen = len(game.history)
    assert table.view(0)["moves"] and [link.index for link in table.links] == [0, None]  # seat 2 is a bot: no page
    clock.now += 30
    assert table.tick() and len(game.history) > seen
    assert all(mover == 1 for mover in table.movers)
    move = str(game.legal_moves(0)[0])
    assert table.handle(0, {"type": "move", "text": move, "seen": len(game.history)}) is None
    assert table.movers[-1] == 0
    with pytest.raises(WebError):
        table.handle(0, {"type": "undo"})


def taken_away(game: Any) -> tuple[str, str] | None:
    """A move of seat 1's that a move of seat 2's, both legal now, would make impossible."""
    for mine in game.legal_moves(0):
        for theirs in game.legal_moves(1):
            if mine.dst == theirs.dst and mine.dst >= 0:
                trial = game.clone()
                trial.apply(theirs)
                if str(mine) not in {str(m) for m in trial.legal_moves(0)}:
                    return str(mine), str(theirs)
    return None


def test_a_move_another_seat_has_made_impossible_since_its_seat_looked_is_too_late() -> None:
    rng = random.Random(3)
    game = cardrules.load_ruleset("nerts").new_game(seed=3, players=2)
    pair = None
    while pair is None:  # play on until seat 2 has a move that takes one of seat 1's away
        assert not game.is_over
        seat = len(game.history) % 2
        game.focus(seat)
        game.apply(rng.choice(game.legal_moves(seat)))
        pair = taken_away(game)
    mine, theirs = pair
    table = WebTable(game, {0: None, 1: None}, clock=Clock())
    table.begin()
    seen = len(game.history)
    assert table.handle(1, {"type": "move", "text": theirs, "seen": seen}) is None
    reply = table.handle(0, {"type": "move", "text": mine, "seen": seen})
    assert reply is not None and reply["why"].startswith("too late")
    reply = table.handle(0, {"type": "move", "text": mine, "seen": len(game.history)})  # seen since: why not
    assert reply is not None and reply["why"] == str(game.explain(mine, 0))


# -- the server -----------------------------------------------------------------------------

def client_for(table: WebTable) -> TestClient:
    return TestClient(make_app(table, bot_delay=0.0))


def receive_until(socket: Any, want: str) -> dict[str, Any]:
    for _ in range(200):
        data = socket.receive_json()
        if data["type"] == want:
            return data
    raise AssertionError(f"no {want} message")


def test_pages_and_sockets_need_a_seat_token() -> None:
    table = WebTable(cardrules.load_ruleset("klondike").new_game(seed=1), {0: None})
    client = client_for(table)
    token = table.links[0].token
    page = client.get(f"/play/{token}")
    assert page.status_code == 200 and "table.js" in page.text
    assert "default-src 'self'" in page.headers["content-security-policy"]
    for wrong in ("nope", token[:-1] + ("A" if token[-1] != "A" else "B"), "x" * 500):
        assert client.get(f"/play/{wrong}").status_code == 404
        with pytest.raises(WebSocketDisconnect):
            with client.websocket_connect(f"/ws/{wrong}") as socket:
                socket.receive_json()
    with pytest.raises(WebSocketDisconnect):  # a page of another site may not open a seat's socket
        with client.websocket_connect(f"/ws/{token}", headers={"origin": "http://evil.example"}) as socket:
            socket.receive_json()
    assert client.get("/static/table.js").status_code == 200


def test_a_token_holds_a_few_pages_at_once() -> None:
    table = WebTable(cardrules.load_ruleset("klondike").new_game(seed=1), {0: None})
    token = table.links[0].token
    with client_for(table) as client:
        pages = [client.websocket_connect(f"/ws/{token}") for _ in range(MAX_PAGES)]
        for page in pages:
            page.__enter__()
            assert page.receive_json()["type"] == "view"
        with pytest.raises(WebSocketDisconnect):
            with client.websocket_connect(f"/ws/{token}") as extra:
                extra.receive_json()
        pages[0].__exit__(None, None, None)
        with client.websocket_connect(f"/ws/{token}") as again:  # one closed: room for another
            assert again.receive_json()["type"] == "view"
        for page in pages[1:]:
            page.__exit__(None, None, None)


def test_a_hostile_client_gets_errors_and_changes_nothing() -> None:
    game = cardrules.load_ruleset("ten-bucks").new_game(seed=4, players=2)
    table = WebTable(game, {0: None, 1: None})
    client = client_for(table)
    seat2 = next(link.token for link in table.links if link.index == 1)
    first = str(game.legal_moves()[0])
    with client.websocket_connect(f"/ws/{seat2}") as socket:
        view = receive_until(socket, "view")["view"]
        assert view["seat"] == 1 and view["moves"] == []
        for raw in ["not json", "[1, 2]", json.dumps({"type": "move", "text": first}),  # seat 1's move
                    json.dumps({"type": "move", "action": 0}), json.dumps({"type": "move", "text": first, "seat": 0}),
                    json.dumps({"type": "fly"}), json.dumps({"type": "move", "text": "a" * (MAX_MESSAGE + 10)}),
                    json.dumps({"type": "undo"}), json.dumps({"type": "save"})]:
            socket.send_text(raw)
            reply = socket.receive_json()
            assert reply["type"] == "error", raw
        assert game.history == []
        for _ in range(BURST + 20):
            socket.send_text(json.dumps({"type": "rules"}))
        replies = [socket.receive_json() for _ in range(BURST + 20)]
        assert any(r["type"] == "error" and "too many" in r["message"] for r in replies)
    assert game.history == [] and table.version == 0


def test_bots_play_their_turns_and_every_page_is_told() -> None:
    game = cardrules.load_ruleset("spades").new_game(seed=11)
    table = WebTable(game, {0: None, 1: make_bot("random", 1), 2: make_bot("random", 2), 3: make_bot("random", 3)})
    seat1 = table.links[0].token
    spectator = table.links[-1].token
    with client_for(table) as client, client.websocket_connect(f"/ws/{seat1}") as socket, \
            client.websocket_connect(f"/ws/{spectator}") as watcher:
        view = receive_until(socket, "view")["view"]
        assert view["to_play"] == 0
        socket.send_text(json.dumps({"type": "move", "text": view["moves"][0]["text"]}))
        for _ in range(20):
            view = receive_until(socket, "view")["view"]
            if view["made"] >= 4:
                break
        assert view["made"] >= 4 and view["to_play"] == 0 and [e["seat"] for e in view["log"][:4]] == [1, 2, 3, 4]
        check_view(game, view, 0)
        seen = receive_until(watcher, "view")["view"]
        assert seen["seat"] is None and seen["moves"] == []
        watcher.send_text(json.dumps({"type": "move", "text": view["moves"][0]["text"]}))
        assert receive_until(watcher, "error")["message"].startswith("a spectator")


def test_serve_prints_a_link_per_human_seat_and_serves_them(tmp_path: Path) -> None:
    process = subprocess.Popen([sys.executable, "-m", "cardrules.app.cli", "serve", "ten-bucks", "--players", "3",
                                "--seat", "3=random", "--port", "0", "--seed", "5"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        lines = [process.stdout.readline() for _ in range(4)]
        assert lines[0].startswith("Ten Bucks: serving at http://127.0.0.1:")
        assert [line.split()[:-1] for line in lines[1:]] == [["seat", "1"], ["seat", "2"], ["spectator"]]
        for line in lines[1:]:
            with urllib.request.urlopen(line.split()[-1], timeout=10) as page:
                assert page.status == 200
    finally:
        process.terminate()
        process.wait(10)


def test_view_of_a_finished_game_offers_no_moves() -> None:
    game = cardrules.load_ruleset("klondike").new_game(seed=1)
    game.finish("abandoned", "the player stopped")
    view = table_view(game, 0)
    assert view["over"] and view["moves"] == [] and view["to_play"] is None


def test_a_game_served_part_way_knows_who_made_each_move() -> None:
    game = cardrules.load_ruleset("spades").new_game(seed=11)
    rng = random.Random(2)
    movers = []
    for _ in range(9):
        movers.append(game.current_player)
        game.apply(rng.choice(game.legal_moves()))
    assert WebTable(game, {s: None for s in range(4)}).movers == movers


def test_autoplay_plays_the_safe_moves_and_undo_takes_them_back_with_the_seats_move() -> None:
    rules = cardrules.load_ruleset("klondike")
    game = rules.new_game(seed=3)
    table = WebTable(game, {0: None})
    assert table.view(0)["autoplay"] is False
    table.handle(0, {"type": "autoplay", "on": True})
    played = 0
    while table.bot_turn():  # the ace of diamonds on t1 goes up by itself
        played += 1
    assert played >= 1 and all(rules.moves[m.template].safe is not None for m in game.history)
    assert table.bot_turn() is False
    with pytest.raises(WebError):  # nothing of the seat's own to undo: autoplay's moves go back with one
        table.handle(0, {"type": "undo"})
    auto_made = len(game.history)
    table.handle(0, {"type": "move", "text": str(game.legal_moves()[0])})
    while table.bot_turn():
        pass
    table.handle(0, {"type": "undo"})
    assert len(game.history) == auto_made
    with pytest.raises(WebError):
        table.handle(0, {"type": "autoplay", "on": "yes"})
    assert WebTable(cardrules.load_ruleset("ten-bucks").new_game(seed=1), {0: None}).view(0)["autoplay"] is None


def test_where_every_seat_plays_at_once_each_page_shows_its_own_piles_first_and_no_hidden_card() -> None:
    rules = cardrules.load_ruleset("nerts")
    game = rules.new_game(seed=12, players=3)
    table = WebTable(game, {s: None for s in range(3)}, clock=Clock())
    table.begin()
    rng = random.Random(12)
    titles = [row.get("title") for row in table.view(1)["rows"] if row.get("title")]
    assert titles == ["seat 2 (you)", "seat 1", "seat 3"]
    for _ in range(150):
        if game.is_over:
            break
        for seat in (None, 0, 1, 2):
            check_view(game, table.view(seat), seat)
        seat = rng.randrange(3)
        moves = game.legal_moves(seat)
        if moves:
            table.handle(seat, {"type": "move", "text": str(rng.choice(moves)), "seen": len(game.history)})
    assert len(game.history) > 50
