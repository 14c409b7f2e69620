"""A seat never learns a card it cannot see: not from move texts, records, views, seeds or bots.

The game is `tests/fixtures/hidden/pass-cards.yaml`: each seat holds a hand only it sees and passes
a card of its choice face down onto the next seat's pile (`pass`, text `h@1:5S>p2`) or dare pile
(`dare`, which forces that seat to `answer`), or lays it face up on the table (`show`). A move's
text names its card only to a seat that could see it before the move or right after; to others
it reads `h@1:?>p2`. Each test plays real moves and checks that the code (and the face) of every
card passed face down is absent where another seat looks, and that a seat's own pass is named.
"""

from __future__ import annotations

import io
import json
import random
import re
from pathlib import Path
from typing import Any

from rich.console import Console
from typer.testing import CliRunner

from cardrules import load_ruleset
from cardrules.agents.bots import make_bot, seat_seed
from cardrules.app.cli import app
from cardrules.python.engine import Game
from cardrules.app.play import Session, summary
from cardrules.python.render import forced_text
from cardrules.agents.scheduler import Scheduler

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = str(ROOT / "tests" / "fixtures" / "hidden" / "pass-cards.yaml")
runner = CliRunner()


def run(*args: str, input: str | None = None) -> Any:  # noqa: A002 - mirrors CliRunner
    return runner.invoke(app, list(args), input=input, env={"COLUMNS": "200"})


def new_game(players: int = 2, seed: int = 5) -> Game:
    return load_ruleset(FIXTURE).new_game(seed=seed, players=players)


def move(game: Game, template: str, index: int = 0) -> Any:
    """The `index`th legal move of a template (`pass`, `dare`, `show`, `answer`)."""
    return [m for m in game.legal_moves() if m.name == template][index]


def code(game: Game, card: int) -> str:
    return game.rules.deck.codes[card]


def face(game: Game, card: int) -> str:
    return game.rules.deck.faces[card]


def absent(card_code: str, text: str) -> bool:
    """No move text of `text` names the card (`:3D>`), and the code appears nowhere as a word."""
    return f":{card_code}>" not in text and re.search(rf"\b{re.escape(card_code)}\b", text) is None


# -- the API: records and views ----------------------------------------------------------------

def test_a_record_names_a_card_only_to_the_seats_that_could_see_it() -> None:
    game = new_game()
    mine = move(game, "pass")
    game.apply(mine)                                   # seat 1 passes a card face down to p2
    theirs = move(game, "pass", 1)
    game.apply(theirs)                                 # seat 2 passes one to p1
    a, b = code(game, mine.pick), code(game, theirs.pick)
    assert game.record(0) == [f"h@1:{a}>p2", "h@2:?>p1"]
    assert game.record(1) == ["h@1:?>p2", f"h@2:{b}>p1"]
    assert game.record(None) == ["h@1:?>p2", "h@2:?>p1"]
    assert [str(m) for m in game.history] == [f"h@1:{a}>p2", f"h@2:{b}>p1"]  # the full texts stay
    assert game.record(1, 1) == [f"h@2:{b}>p1"]
    for seat, hidden in ((0, b), (1, a)):
        view = game.view(seat)
        assert view["history"] == game.record(seat)
        assert absent(hidden, json.dumps(view))
    spectator = game.view(None)
    assert spectator["history"] == ["h@1:?>p2", "h@2:?>p1"] and spectator["legal_moves"] == []
    assert absent(a, json.dumps(spectator)) and absent(b, json.dumps(spectator))


def test_a_card_laid_face_up_is_named_to_every_seat() -> None:
    game = new_game(players=3)
    shown = move(game, "show")
    game.apply(shown)
    text = f"h@1:{code(game, shown.pick)}>x"
    assert game.record(0) == game.record(1) == game.record(2) == game.record(None) == [text]


def test_a_third_seat_does_not_learn_a_card_passed_between_two_others() -> None:
    game = new_game(players=3)
    passed = move(game, "pass")
    game.apply(passed)
    assert game.record(0) == [f"h@1:{code(game, passed.pick)}>p2"]
    assert game.record(1) == game.record(2) == ["h@1:?>p2"]


def test_the_record_follows_undo_clone_and_determinize() -> None:
    game = new_game()
    hidden = move(game, "pass")
    game.apply(hidden)
    game.undo()
    assert game.record(1) == []
    shown = move(game, "show")                         # the same place in the record, now public
    game.apply(shown)
    assert game.record(1) == [f"h@1:{code(game, shown.pick)}>x"]
    game.undo()
    game.apply(hidden)
    copy = game.clone()
    assert copy.record(1) == game.record(1) == ["h@1:?>p2"]
    dare = move(copy, "dare")
    copy.apply(dare)                                   # the copy goes its own way
    assert len(copy.record(1)) == 2 and game.record(1) == ["h@1:?>p2"]
    copy.undo()
    assert copy.record(1) == ["h@1:?>p2"] and copy.record(0) == game.record(0)
    # A determinized copy forgets the card from the move itself, not only from its text.
    guess = game.determinize(1, random.Random(3))
    assert guess.record(1) == game.record(1) and guess.view(1) == game.view(1)
    assert [str(m) for m in guess.history] == ["h@1:?>p2"] and guess.history[0].pick is None
    assert game.determinize(0, random.Random(3)).history[0] == hidden  # seat 1 knows its own card


def test_a_failing_move_leaves_no_record_behind() -> None:
    game = new_game()
    game.apply(move(game, "pass"))
    before = (game.record(0), game.record(1), game.record(None))
    game.apply(move(game, "show"))
    game.undo()
    assert (game.record(0), game.record(1), game.record(None)) == before


def test_the_forced_seat_is_told_the_forcing_move_without_its_card() -> None:
    game = new_game()
    dare = move(game, "dare")
    game.apply(dare)
    assert game.current_player == 1 and game.phase == "answer"
    message = forced_text(game)
    assert message is not None
    assert "Seat 1 played 'h@1:?>d2'" in message.plain and absent(code(game, dare.pick), message.plain)


# -- the terminal: a human against a bot -------------------------------------------------------

def replay_against_random(seed: int, lines: int) -> tuple[Game, list[Any]]:
    """The game `play FIXTURE --players 2 --seat 2=random --seed SEED` plays when seat 1 types `1`
    (the first move listed) `lines` times: the game, and seat 2's moves."""
    game = new_game(seed=seed)
    bot = make_bot("random", seat_seed(seed, 1))
    bot_moves = []
    typed = 0
    while not game.is_over and typed < lines:
        if game.current_player == 0:
            game.apply(game.legal_moves()[0])
            typed += 1
        else:
            chosen = bot.choose(game)
            bot_moves.append(chosen)
            game.apply(chosen)
    return game, bot_moves


def hidden_passes(game: Game, moves: list[Any]) -> list[int]:
    """The cards of `moves` passed face down (not laid on the table)."""
    return [m.pick for m in moves if m.pick is not None and m.name in ("pass", "dare")]


def test_scripted_play_never_prints_a_card_the_human_cannot_see() -> None:
    checked = 0
    for seed in range(1, 7):
        game, bot_moves = replay_against_random(seed, 10)
        result = run("play", FIXTURE, "--players", "2", "--seat", "2=random", "--seed", str(seed), input="1\n" * 10)
        assert result.exit_code == 0, result.output
        out = result.stdout
        for card in hidden_passes(game, bot_moves):
            assert absent(code(game, card), out), (seed, code(game, card))
            assert face(game, card) not in out.split(), (seed, face(game, card))
            checked += 1
        assert "2. seat 2: h@2:?>" in out or "2. seat 2: h@2:" in out  # the bot's move is logged
        for own in game.history:
            if own.pick is not None and game.rules.pile_owner[own.src] == 0:
                assert f"seat 1: {own}" in out                  # seat 1's own passes are named
        assert str(game.history[0]) == game.record(0)[0]
        assert "h@2:?>" in out
    assert checked >= 6


def test_the_forced_move_line_hides_the_bots_card() -> None:
    for seed in range(1, 40):  # a seed where the bot dares seat 1 early
        game, bot_moves = replay_against_random(seed, 2)
        if bot_moves and bot_moves[0].name == "dare":
            break
    else:
        raise AssertionError("no seed where the random bot dares first")
    result = run("play", FIXTURE, "--players", "2", "--seat", "2=random", "--seed", str(seed), input="1\n" * 10)
    assert result.exit_code == 0, result.output
    out = " ".join(result.stdout.split())
    assert "Seat 2 played 'h@2:?>d1'" in out and "you must move now (phase answer)" in out
    assert absent(code(game, bot_moves[0].pick), result.stdout)


def test_the_json_record_is_the_humans_own() -> None:
    seed = 4
    game, bot_moves = replay_against_random(seed, 10)
    result = run("play", FIXTURE, "--players", "2", "--seat", "2=random", "--seed", str(seed), "--json",
                 input="1\n" * 10)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["moves"] == game.record(0) and data["seed"] == seed
    assert any(text.startswith("h@2:?>") for text in data["moves"])
    for card in hidden_passes(game, bot_moves):
        assert absent(code(game, card), result.stdout)
    assert any(text == str(m) and m.pick is not None for text, m in zip(data["moves"], game.history))


def test_the_json_record_of_bots_alone_is_complete_and_of_two_humans_the_spectators() -> None:
    bots = run("play", FIXTURE, "--players", "2", "--seat", "1=random", "--seat", "2=random", "--seed", "3",
               "--json")
    assert bots.exit_code == 0, bots.output
    data = json.loads(bots.stdout)
    assert data["moves"] and all(":?>" not in text for text in data["moves"])
    game = new_game(seed=3)
    for text in data["moves"]:                          # the full texts replay the game
        game.apply(game.parse_move(text))
    assert game.is_over
    game = new_game(seed=3)
    hot = Session(game, {0: None, 1: None}, Console(file=io.StringIO()), False,
                  input=io.StringIO("1\n" * 12), quiet=True)
    hot.run()
    record = summary(game, 3, {0: "human", 1: "human"})["moves"]
    assert record == game.record(None) and all(":?>" in t for t in record if t.startswith("h@"))


# -- the terminal: two humans at one terminal --------------------------------------------------

def test_the_hot_seat_log_and_recall_name_no_passed_card() -> None:
    game = new_game()
    passes = []
    script = []
    probe = new_game()
    for _ in range(6):  # each seat passes its first listed card, in turn
        chosen = move(probe, "pass")
        passes.append(chosen.pick)
        script.append(str(chosen))
        probe.apply(chosen)
    result = run("play", FIXTURE, "--players", "2", "--seed", "5", input="\n".join(script) + "\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    for card in passes:
        assert absent(code(game, card), out)
    assert "1. seat 1: h@1:?>p2" in out and "2. seat 2: h@2:?>p1" in out
    seat2 = out[out.index("hand-over: seat 2"):]
    seat2 = seat2[:seat2.index("hand-over: seat 1")]  # seat 2's screen (seat 1's show what it passed)
    assert face(game, passes[0]) not in seat2.split()   # seat 1's first card, passed before seat 2 looked
    # Interactive: the screen is cleared at each hand-over and the moves missed are recalled.
    game = new_game()
    screen = io.StringIO()
    console = Console(file=screen, force_terminal=True, width=200, color_system=None)
    lines = ["", script[0], "", script[1], "", script[2], "quit"]
    Session(game, {0: None, 1: None}, console, True, input=io.StringIO("\n".join(lines) + "\n")).run()
    shown = screen.getvalue()
    recalls = [part.strip().split("\n\n")[0] for part in shown.split("Since your last look:")[1:]]
    assert len(recalls) == 3 and all(absent(code(game, card), part) for part in recalls for card in passes[:3])
    assert recalls[0] == "1. seat 1: h@1:?>p2  ▒▒" and recalls[1].startswith("2. seat 2: h@2:?>p1")


# -- seeds -------------------------------------------------------------------------------------

def test_the_seed_of_a_hidden_game_of_several_seats_is_shown_only_at_the_end() -> None:
    result = run("play", FIXTURE, "--players", "2", "--seat", "2=random", "--seed", "77", input="1\n" * 10)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Pass Cards") and "77" not in lines[0] and "shown at the end" in lines[0]
    assert "77" not in "\n".join(lines[:-2])
    game_over = next(i for i, line in enumerate(lines) if line.startswith("Game over"))
    assert "seed 77" in lines[game_over + 1:]
    solitaire = run("play", "klondike", "--seed", "77", input="quit\n")
    assert solitaire.stdout.splitlines()[0].startswith("Klondike  seed 77")


def test_an_unasked_seed_of_a_hidden_game_is_long_and_replays_it() -> None:
    result = run("play", FIXTURE, "--players", "2", "--seat", "1=random", "--seat", "2=random", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["seed"] >= 10**9  # drawn from 2**64 values (below 10**9 with odds of 5e-11)
    game = new_game(seed=data["seed"])
    for text in data["moves"]:
        game.apply(game.parse_move(text))
    assert game.is_over
    again = run("play", FIXTURE, "--players", "2", "--seat", "1=random", "--seat", "2=random", "--json",
                "--seed", str(data["seed"]))
    assert json.loads(again.stdout)["moves"] == data["moves"]  # bots too: the same game
    plain = run("play", "klondike", "--seat", "1=random", "--json")
    assert json.loads(plain.stdout)["seed"] < 10**9             # a one-seat game keeps a short seed


def test_bot_seeds_are_hashes_of_the_game_seed_and_seat() -> None:
    seeds = {seat_seed(seed, seat) for seed in range(50) for seat in range(6)}
    assert len(seeds) == 300 and all(0 <= s < 2**64 for s in seeds)
    assert seat_seed(7, 1) == seat_seed(7, 1) != 7 * 1000 + 1
    assert min(seeds) > 10**6  # not the game seed with the seat appended


# -- every seat at once: the real-time log ---------------------------------------------------

RACE = """\
ruleset: pass-race
players: {min: 2, max: 2, default: 2}
deck: standard-52
zones:
  stock: {visibility: none, hide_empty: true}
  hand: {per_player: true, short: h, visibility: owner, show: row}
  pile: {count: 2, short: p, visibility: none}
turns: {order: simultaneous}
setup:
  - take_deck: stock
  - deal: {from: stock, to: hand, counts: 3}
moves:
  pass:
    from: hand
    take: any
    to: pile
    when: "dst.index == (player + 1) % 2"
    do: [{move: {face: down}}]
end:
  when:
    - if: "all(empty(of(hand, p)) for p in seats)"
      result: over
      reason: every hand is empty
"""


def test_the_real_time_log_and_records_hide_the_bots_cards(tmp_path: Path) -> None:
    path = tmp_path / "pass-race.yaml"
    path.write_text(RACE, encoding="utf-8")
    result = run("play", str(path), "--seat", "2=random:speed=2", "--seed", "9", input="1\n" * 6)
    assert result.exit_code == 0, result.output
    game = load_ruleset(path).new_game(seed=9)
    theirs = [game.rules.deck.codes[c] for c in game.state.piles[game.rules.zones["hand"].seat_piles[1][0]]]
    mine = [game.rules.deck.codes[c] for c in game.state.piles[game.rules.zones["hand"].seat_piles[0][0]]]
    out = result.stdout
    assert "seat 2: h@2:?>p1" in out and any(f"seat 1 (you): h@1:{c}>p2" in out for c in mine)
    assert all(absent(c, out) for c in theirs)
    data = json.loads(run("play", str(path), "--seat", "2=random:speed=2", "--seed", "9", "--json",
                          input="1\n" * 6).stdout)
    assert any(t.startswith("h@2:?>") for t in data["moves"]) and all(absent(c, json.dumps(data)) for c in theirs)
    # A refused move names its card to the seat that chose it, and to no one who cannot see it.
    game = load_ruleset(path).new_game(seed=9)
    scheduler = Scheduler(game, {}, 9)
    chosen = game.legal_moves(0)[0]
    assert scheduler.human_move(0, chosen).landed
    refused = scheduler.human_move(0, chosen)
    assert not refused.landed
    assert refused.text_for(0) == str(chosen) and refused.text_for(1) == refused.text_for(None) == "h@1:?>p2"
    landed = scheduler.records[0]
    assert landed.text_for(0) == str(chosen) and landed.text_for(1) == "h@1:?>p2"


# -- taking a card blind -------------------------------------------------------------------------

STEAL = """\
  steal:
    help: Take a card of your choice from your hand or the stock, unseen, onto your pile.
    phase: play
    from: [hand, stock]
    take: any
    to: pile
    when: "WHEN"
    do: [{move: {face: down}}]
"""


def _with_steal(tmp_path: Path, when: str = "dst.index == player") -> Any:
    """pass-cards with `steal`: a `take: any` from the seat's own hand or from the stock, which no seat sees."""
    text = Path(FIXTURE).read_text(encoding="utf-8")
    path = tmp_path / "steal.yaml"
    path.write_text(text.replace("  answer:\n", STEAL.replace("WHEN", when) + "  answer:\n", 1), encoding="utf-8")
    return load_ruleset(path)


def test_hidden_cards_taken_by_take_any_are_offered_blind_as_one_move(tmp_path: Path) -> None:
    rules = _with_steal(tmp_path)
    game = rules.new_game(seed=5, players=2)
    steals = [m for m in game.legal_moves() if m.name == "steal"]
    own = {code(game, c) for c in game.state.piles[rules.zones["hand"].seat_piles[0][0]]}
    texts = sorted(m.text() for m in steals)
    # the stock's cards are hidden from seat 1: one blind move; its own hand: one move per card
    assert texts == sorted([f"steal:h@1:{c}>p1" for c in own] + ["steal:stock:?>p1"])
    blind = next(m for m in steals if m.text() == "steal:stock:?>p1")
    assert blind.pick == -1  # the Move names no card, in its text or its fields
    top_hidden = game.state.piles[rules.zones["stock"].piles[0]][-1]
    game.apply(blind)
    assert game.state.piles[rules.zones["pile"].piles[0]] == [top_hidden]
    assert game.record(0)[-1] == "steal:stock:?>p1" and game.record(1)[-1] == "steal:stock:?>p1"
    assert game.history[-1].pick == top_hidden  # the game itself (not a seat's record) knows which


def test_the_blind_offer_does_not_depend_on_which_cards_are_hidden(tmp_path: Path) -> None:
    rules = _with_steal(tmp_path)
    stock = rules.zones["stock"].piles[0]
    one, two = rules.new_game(seed=5, players=2), rules.new_game(seed=5, players=2)
    two.state.piles[stock] = list(reversed(two.state.piles[stock]))  # the same cards, hidden in another order
    two._legal = None
    assert [m.text() for m in one.legal_moves()] == [m.text() for m in two.legal_moves()]
    assert one.legal_actions() == two.legal_actions()  # the action numbers name no hidden card either


def test_a_condition_on_the_card_offers_no_hidden_card_at_all(tmp_path: Path) -> None:
    rules = _with_steal(tmp_path, "dst.index == player and card.rank > 0")
    game = rules.new_game(seed=5, players=2)
    steals = [m.text() for m in game.legal_moves() if m.name == "steal"]
    assert steals and not any(":?" in text for text in steals)  # only the seat's own, seen cards
