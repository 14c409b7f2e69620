"""The lobby of `cardrules serve` without a ruleset: the bundled rulesets it offers, tables opened
from its page's requests (players, options, seat kinds), their links, the bound on tables open,
saved games and `persist` values of its tables, and its answers to requests it refuses."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

import cardrules
from cardrules.storage import saves, store
from cardrules.web.lobby import Lobby
from cardrules.web.server import MAX_MESSAGE, make_app
from cardrules.workbench.catalogue import bundled

from conftest import RULESETS
from test_web_table import check_view, receive_until


def new_lobby(max_tables: int = 8) -> Lobby:
    return Lobby(bundled(), lambda name, options: cardrules.load_ruleset(name, options),
                 lambda name, values: f"the rules of {name}", max_tables)


def lobby_client(lobby: Lobby) -> TestClient:
    return TestClient(make_app(None, bot_delay=0.0, lobby=lobby))


def ask(client: TestClient, lobby: Lobby, request: Any, **headers: str) -> Any:
    return client.post(f"/api/lobby/{lobby.token}", content=json.dumps(request),
                       headers={"content-type": "application/json", **headers})


def test_the_lobby_offers_every_bundled_ruleset_with_its_players_and_options() -> None:
    lobby = new_lobby()
    client = lobby_client(lobby)
    state = client.get(f"/api/lobby/{lobby.token}").json()
    offered = {entry["name"]: entry for entry in state["rulesets"]}
    assert sorted(offered) == sorted(p.stem for p in RULESETS.glob("*.yaml"))
    for name, entry in offered.items():  # as the ruleset itself says once loaded
        rules = cardrules.load_ruleset(name)
        assert entry["players"] == [rules.min_players, rules.max_players, rules.default_players], name
        assert entry["title"] == rules.title
        assert set(entry["options"]) == set(rules.options), name
    assert offered["klondike"]["options"]["draw"] == {"default": 1, "values": [1, 3],
                                                      "help": "Cards turned from the stock at a time."}
    assert state["tables"] == [] and state["kinds"] == ["human", "greedy", "random", "mcts"]
    page = client.get(f"/lobby/{lobby.token}")
    assert page.status_code == 200 and "lobby.js" in page.text
    assert "default-src 'self'" in page.headers["content-security-policy"]
    for wrong in ("nope", lobby.token[:-1] + ("A" if lobby.token[-1] != "A" else "B")):
        assert client.get(f"/lobby/{wrong}").status_code == 404
        assert client.get(f"/api/lobby/{wrong}").status_code == 404
        assert client.post(f"/api/lobby/{wrong}", content="{}",
                           headers={"content-type": "application/json"}).status_code == 404
    assert TestClient(make_app(None, bot_delay=0.0)).get(f"/lobby/{lobby.token}").status_code == 404


def test_a_table_opened_with_players_options_and_seats_is_served_at_its_links() -> None:
    lobby = new_lobby()
    with lobby_client(lobby) as client:
        answer = ask(client, lobby, {"ruleset": "ten-bucks", "players": 3, "seats": ["human", "greedy", "human"],
                                     "options": {}})
        assert answer.status_code == 200, answer.text
        table = answer.json()["table"]
        assert table["number"] == 1 and table["players"] == 3 and table["title"] == "Ten Bucks"
        assert [s["kind"] for s in table["seats"]] == ["human", "greedy", "human"]
        assert table["seats"][1]["link"] is None and table["seats"][0]["link"] != table["seats"][2]["link"]
        opened = lobby.tables[0].table
        assert opened.game.players == 3 and opened.seats[0] is None and opened.seats[1] is not None
        assert opened.rules_text == "the rules of ten-bucks"
        assert client.get(table["seats"][0]["link"]).status_code == 200
        assert client.get(table["spectator"]).status_code == 200
        with client.websocket_connect("/ws/" + table["seats"][2]["link"].rsplit("/", 1)[1]) as socket:
            view = receive_until(socket, "view")["view"]
            assert view["seat"] == 2
            check_view(opened.game, view, 2)
            state = client.get(f"/api/lobby/{lobby.token}").json()
            assert [s["pages"] for s in state["tables"][0]["seats"]] == [0, 0, 1]
        answer = ask(client, lobby, {"ruleset": "klondike", "options": {"draw": 3, "scoring": "vegas"}})
        assert answer.status_code == 200, answer.text
        rules = lobby.tables[1].table.game.rules
        assert rules.option_values["draw"] == 3 and rules.option_values["scoring"] == "vegas"
        assert [t["number"] for t in client.get(f"/api/lobby/{lobby.token}").json()["tables"]] == [1, 2]


def test_bots_of_a_lobby_table_play_when_a_page_opens() -> None:
    lobby = new_lobby()
    with lobby_client(lobby) as client:
        table = ask(client, lobby, {"ruleset": "spades", "seats": ["greedy", "random", "greedy", "random"]}).json()["table"]
        game = lobby.tables[0].table.game
        assert all(s["link"] is None for s in table["seats"]) and game.history == []
        with client.websocket_connect("/ws/" + table["spectator"].rsplit("/", 1)[1]) as socket:
            for _ in range(50):
                view = receive_until(socket, "view")["view"]
                if view["made"] >= 6:
                    break
            assert view["made"] >= 6 and view["seat"] is None and view["moves"] == []
            hands = [p for row in view["rows"] for zone in row["zones"] if zone["zone"] == "hand" for p in zone["piles"]]
            assert len(hands) == 4 and sum(len(p["cards"]) for p in hands) > 0
            assert all(card == {"back": game.rules.deck.back} for p in hands for card in p["cards"])


@pytest.mark.parametrize("request_, why", [
    ({"ruleset": "no-such-game"}, "no such ruleset here"),
    ({"ruleset": "../rulesets/klondike"}, "no such ruleset here"),
    ({"ruleset": str(RULESETS / "klondike.yaml")}, "no such ruleset here"),
    ({"ruleset": "klondike", "players": 2}, "Klondike is for 1-1 players"),
    ({"ruleset": "ten-bucks", "players": "3"}, "Ten Bucks is for 2-6 players"),
    ({"ruleset": "ten-bucks", "players": True}, "Ten Bucks is for 2-6 players"),
    ({"ruleset": "klondike", "options": {"drew": 3}}, "Klondike has no option 'drew'; options: draw, "),
    ({"ruleset": "klondike", "options": {"draw": 2}}, "draw"),
    ({"ruleset": "klondike", "options": {"draw": [3]}}, "option draw: a value is a short string"),
    ({"ruleset": "klondike", "options": ["draw=3"]}, "options are an object"),
    ({"ruleset": "klondike", "seats": ["wizard"]}, "seat 1: seat kind 'wizard'"),
    ({"ruleset": "klondike", "seats": "human"}, "seats are a list"),
    ({"ruleset": "klondike", "seats": ["human", "greedy"]}, "seats are a list of at most 1"),
    ({"ruleset": "klondike", "seats": ["mcts:playouts=-1"]}, "seat 1:"),
    ({"ruleset": "ten-bucks", "seats": ["human", "greedy:speed=2"]}, "speed means something only"),
    ({"ruleset": "klondike", "seed": 3}, "unknown field 'seed'"),
    ([], "a request is a JSON object"),
])
def test_a_request_the_lobby_refuses_is_answered_and_opens_nothing(request_: Any, why: str) -> None:
    lobby = new_lobby()
    client = lobby_client(lobby)
    answer = ask(client, lobby, request_)
    assert answer.status_code == 400 and why in answer.json()["error"], answer.text
    assert lobby.tables == [] and client.get(f"/api/lobby/{lobby.token}").json()["tables"] == []


def test_a_request_not_from_the_lobbys_page_or_too_big_is_refused() -> None:
    lobby = new_lobby()
    client = lobby_client(lobby)
    url = f"/api/lobby/{lobby.token}"
    assert ask(client, lobby, {"ruleset": "klondike"}, origin="http://evil.example").status_code == 403
    assert client.post(url, content=json.dumps({"ruleset": "klondike"}),  # a form post, not JSON
                       headers={"content-type": "application/x-www-form-urlencoded"}).status_code == 403
    big = {"ruleset": "klondike", "options": {"scoring": "x" * MAX_MESSAGE}}
    assert ask(client, lobby, big).status_code == 413
    assert client.post(url, content="{not json", headers={"content-type": "application/json"}).status_code == 400
    assert lobby.tables == []


def test_at_most_max_tables_are_open_and_a_finished_one_no_page_shows_makes_room() -> None:
    lobby = new_lobby(max_tables=2)
    with lobby_client(lobby) as client:
        for _ in range(2):
            assert ask(client, lobby, {"ruleset": "klondike"}).status_code == 200
        full = ask(client, lobby, {"ruleset": "klondike"})
        assert full.status_code == 400 and full.json()["error"] == "2 tables are open: finish one first"
        first, second = (t.table for t in lobby.tables)
        token = first.links[0].token
        first.game.finish("abandoned", "the player stopped")
        with client.websocket_connect(f"/ws/{token}") as socket:  # finished, but a page shows it
            receive_until(socket, "view")
            assert ask(client, lobby, {"ruleset": "klondike"}).status_code == 400
        assert ask(client, lobby, {"ruleset": "klondike"}).status_code == 200
        assert [t.number for t in lobby.tables] == [2, 3] and lobby.tables[0].table is second
        assert client.get(f"/play/{token}").status_code == 404  # the closed table's links are gone


def test_a_lobby_table_saves_with_its_bots_and_counts_persisted_values() -> None:
    lobby = new_lobby()
    with lobby_client(lobby) as client:
        ask(client, lobby, {"ruleset": "ten-bucks", "players": 2, "seats": ["human", "montecarlo:budget=20"]})
        table = lobby.tables[0].table
        game = table.game
        table.handle(0, {"type": "move", "text": str(game.legal_moves(0)[0])})
        reply = table.handle(0, {"type": "save"})
        assert reply is not None and reply["type"] == "saved"
        found = saves.list_saves(store.data_key(game.rules))
        saved = saves.read_save(found[-1])
        assert saved.seats == {"2": "montecarlo:budget=20"} and saved.players == 2
        assert [str(m) for m in saves.replay(saved, game.rules).history] == [str(m) for m in game.history]
        ask(client, lobby, {"ruleset": "klondike", "options": {"scoring": "vegas", "cumulative": True}})
        vegas = lobby.tables[1].table
        assert store.load(vegas.game.rules) == {}  # nothing kept yet
        vegas.game.finish("abandoned", "the player stopped")
        assert vegas.on_over is not None
        vegas.on_over(vegas.game)  # as the table tells it once the game has ended
        assert store.load(vegas.game.rules) == {"balance": -52}


def test_serve_with_no_ruleset_prints_the_lobbys_link_and_serves_it(tmp_path: Path) -> None:
    process = subprocess.Popen([sys.executable, "-m", "cardrules.app.cli", "serve", "--port", "0"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        first, second = process.stdout.readline(), process.stdout.readline()
        assert first.startswith("cardrules lobby: serving at http://127.0.0.1:")
        assert second.split()[0] == "lobby"
        link = second.split()[-1]
        with urllib.request.urlopen(link, timeout=10) as page:
            assert page.status == 200 and b"lobby.js" in page.read()
    finally:
        process.terminate()
        process.wait(10)
    refused = subprocess.run([sys.executable, "-m", "cardrules.app.cli", "serve", "--seed", "3"],
                             capture_output=True, text=True)
    assert refused.returncode == 2 and "the lobby's tables are set up on its page" in refused.stderr
