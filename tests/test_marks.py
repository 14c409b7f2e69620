"""Marks on cards: `per_card` variables (docs/language.md, "Marks on cards"), one value on each card
that rules set (`set`, `add`, `random` on the card in `card`) and read (`c.NAME`, or the bare name
for the card in `card`); seen as the card is, kept where a hidden card lies in a bot's guess, taken
back by undo, both backends alike. tests/fixtures/marks/played.yaml marks each card with the seat
it is dealt to, the seat that plays it and when, and tags the early ones."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from cardrules import ArgumentError, RulesetRuntimeError, load_ruleset
from cardrules.native import native_backend

from helpers import load_error, pile, pile_ids, play_both_backends, replaced

PLAYED = Path(__file__).parent / "fixtures" / "marks" / "played.yaml"
TEXT = PLAYED.read_text()
DECK = [rank + suit for suit in "CDHS" for rank in "A23456789TJQK"]


def variant(tmp_path: Path, old: str, new: str, text: str = TEXT) -> Path:
    return replaced(tmp_path, text, old, new, "variant.yaml")


def dealt(*hands: str) -> list[str]:
    """The deal giving seat k the cards of hands[k] (dealt one at a time round the table)."""
    split = [hand.split() for hand in hands]
    top = [split[k % len(hands)][k // len(hands)] for k in range(4 * len(hands))]
    return top + [c for c in DECK if c not in top]


def marks(game, name: str) -> dict[str, object]:  # type: ignore[no-untyped-def]
    return {code: game.variable(name, card=i) for i, code in enumerate(game.rules.deck.codes)}


def test_each_card_carries_the_seat_it_was_dealt_to_the_seat_that_played_it_and_when() -> None:
    rules = load_ruleset(PLAYED)
    for players in (2, 3):
        for seed in range(20):
            game = rules.new_game(seed=seed, players=players)
            hands = {code: seat for seat in range(players) for code in pile(game, "hand", seat)}
            played: dict[str, tuple[int, int]] = {}
            rng = random.Random(seed)
            while not game.is_over:
                move = rng.choice(game.legal_moves())
                played[game.rules.deck.codes[move.pick]] = (game.current_player, len(played))
                game.apply(move)
            full = len(played) == 4 * players  # (else a seat had only cards of the rank played last)
            by, at, dealt_to, tag = (marks(game, name) for name in ("by", "at", "dealt_to", "tag"))
            for code in DECK:
                assert dealt_to[code] == hands.get(code, -1)
                assert (by[code], at[code]) == played.get(code, (-1, -1))
                assert tag[code] == ("early" if full and code in played and played[code][1] < 2 * players
                                     else "new")
            # The score reads the marks: the ranks a seat played, one more for each of its early cards.
            for seat in range(players):
                mine = [c for c, (who, _) in played.items() if who == seat]
                rank = {code: DECK.index(code) % 13 + 1 for code in DECK}
                early = sum(1 for c in mine if played[c][1] < 2 * players) if full else 0
                assert game.scores()[seat] == sum(rank[c] for c in mine) + early


def test_a_rule_reads_the_marks_the_card_played_last_decides_what_may_follow() -> None:
    rules = load_ruleset(PLAYED)
    game = rules.new_game(deal=dealt("5C 6C 7C 8C", "5D 9D TD JD"))
    game.apply(next(m for m in game.legal_moves() if m.text().endswith(":5C>t")))
    assert {m.text() for m in game.legal_moves()} == {"h@2:9D>t", "h@2:TD>t", "h@2:JD>t"}  # not 5D
    game.apply(next(m for m in game.legal_moves() if m.text() == "h@2:9D>t"))
    game.apply(next(m for m in game.legal_moves() if m.text() == "h@1:6C>t"))
    assert "h@2:5D>t" in {m.text() for m in game.legal_moves()}  # the 5 of clubs is no longer the last


def test_both_backends_play_marks_alike() -> None:
    rules = load_ruleset(PLAYED)
    games = play_both_backends(rules, range(8), players=(2, 3))
    assert all(game.is_over for game in games)
    assert sum(len(pile(game, "table")) == 4 * game.players for game in games) > 8


def test_a_seat_sees_the_marks_of_the_cards_it_sees_and_no_others() -> None:
    rules = load_ruleset(PLAYED)
    game = rules.new_game(seed=5)
    game.apply(game.legal_moves()[0])
    for seat in (0, 1):
        view = game.view(seat)
        seen = set(pile(game, "hand", seat)) | set(pile(game, "table"))
        assert set(view["marks"]["dealt_to"]) == seen
        assert all(view["marks"]["dealt_to"][code] == game.variable("dealt_to", card=code) for code in seen)
    assert set(game.view(None)["marks"]["by"]) == set(pile(game, "table"))  # a spectator: the table only
    assert "by" not in game.view(0)["variables"]


def test_an_agent_s_observation_holds_the_marks_of_the_cards_it_sees_only() -> None:
    from cardrules.model.observation import ObservationLayout

    rules = load_ruleset(PLAYED)
    layout = ObservationLayout(rules)
    game = rules.new_game(seed=5)
    start, first = layout.offsets["variables"], rules.variables["dealt_to"].slot
    indexes = set(layout.entries(game, 1)[0])
    at = {card: start + 2 * (first + card) for card in range(52)}
    assert all(at[c] in indexes for c in pile_ids(game, "hand", 1))  # its own cards: dealt to seat 2 (1)
    assert not any(at[c] in indexes for c in pile_ids(game, "stock"))  # -1 on each, unseen
    assert layout.encode(game, 1)[at[pile_ids(game, "hand", 1)[0]]] == 1.0


def test_a_bot_s_guess_keeps_the_marks_of_each_hidden_card_where_the_card_lies() -> None:
    rules = load_ruleset(PLAYED)
    backend = native_backend(rules)
    game = rules.new_game(seed=6)
    game.apply(game.legal_moves()[0])
    hand = rules.zones["hand"].seat_piles[1][0]
    slot = rules.variables["dealt_to"].slot
    for step in range(10):
        copy = game.determinize(0, random.Random(step))
        # seat 2's hand holds other cards in the copy, each marked as dealt to seat 2; the stock's none
        assert all(copy.variable("dealt_to", card=c) == 1 for c in copy.state.piles[hand])
        assert all(copy.variable("dealt_to", card=c) == -1 for c in pile_ids(copy, "stock"))
        # compiled code guesses alike
        position = backend.start(game)
        C, N, U, V, M = position.C.copy(), position.N.copy(), position.U.copy(), position.V.copy(), position.M.copy()
        mt = np.array(random.Random(step).getstate()[1], dtype=np.int64)
        backend.module.determinize(C, N, U, V, M, 0, mt)
        assert [[int(c) for c in C[p, :N[p]]] for p in range(len(N))] == [list(p) for p in copy.state.piles]
        assert [int(v) for v in V[slot:slot + 52]] == [copy.variable("dealt_to", card=c) for c in range(52)]
    assert any(copy.state.piles[hand] != game.state.piles[hand] for copy in
               (game.determinize(0, random.Random(s)) for s in range(3)))


def test_undo_takes_a_mark_back() -> None:
    game = load_ruleset(PLAYED).new_game(seed=2)
    move = game.legal_moves()[0]
    game.apply(move)
    assert (game.variable("by", card=move.pick), game.variable("at", card=move.pick)) == (0, 0)
    game.undo()
    assert (game.variable("by", card=move.pick), game.variable("at", card=move.pick)) == (-1, -1)


def test_with_and_random_mark_a_card_named_by_an_expression(tmp_path: Path) -> None:
    path = variant(tmp_path, "  dealt_to: {initial: -1, per_card: true}\n",
                   "  dealt_to: {initial: -1, per_card: true}\n  luck: {initial: 0, per_card: true}\n")
    text = path.read_text().replace("      - move: {face: up}\n",
                                    "      - move: {face: up}\n"
                                    "      - with: {card: \"bottom(table)\"}\n"
                                    "        do:\n"
                                    "          - random: {luck: \"[1, 2, 3]\"}\n"
                                    "          - add: {luck: \"10 * luck\"}\n")
    path.write_text(text)
    rules = load_ruleset(path)
    games = play_both_backends(rules, range(6))
    lucks = {game.variable("luck", card=pile_ids(game, "table")[0]) for game in games}
    assert lucks <= {11, 22, 33} and len(lucks) > 1  # drawn once per play, the last kept, then times 11
    others = {game.variable("luck", card=c) for game in games for c in pile_ids(game, "table")[1:]}
    assert others == {0}


@pytest.mark.parametrize(("old", "new", "message", "where"), [
    ("  at: {initial: -1, per_card: true}\n", "  at: {initial: -1, per_card: true, per_player: true}\n",
     "a per_card variable cannot be per_player too", "per_player"),
    ("  at: {initial: -1, per_card: true}\n", "  rank: {initial: -1, per_card: true}\n",
     "per_card variable 'rank' has the name of a card attribute", "rank:"),
    ("  at: {initial: -1, per_card: true}\n", "  at: {initial: none, per_card: true}\n",
     "a per_card variable holds a number, a truth value or a string: its initial value is none", "at: {initial"),
    ("  at: {initial: -1, per_card: true}\n", "  at: {initial: -1, per_card: true, show: \"true\"}\n",
     "a per_card variable is not on the status line", "show"),
    ("      - set: {by: player, at: played}\n", "      - set: {by: card, at: played}\n",
     "expected a number, got a card", "by: card"),
    ("      - set: {by: player, at: played}\n", "      - set: {by: \"'x'\", at: played}\n",
     "expected a number, got a string", "by: \"'x'\""),
    ("              - set: {tag: \"'early'\"}\n", "              - add: {tag: 1}\n",
     "'add' needs a number variable; 'tag' holds a string", "add: {tag"),
    ("      - add: {played: 1}\n", "      - add: {played: \"at\"}\n", None, None),  # the played card's: fine
    ("          - add: {bonus:", "          - add: {by: 1}\n          - add: {bonus:",
     "'by' is a per-card variable: add changes the card in `card`, and no card is known here", "add: {by"),
    ("    when: \"empty(table) or", "    when: \"at < 0 and empty(table) or", None, None),
    ("  \"last()\": \"max(c.at", "  \"last()\": \"at + max(c.at",
     "'at' is a per-card variable, and no card is known here: read it as CARD.at", "at + max"),
])
def test_marks_written_wrong_are_errors_where_they_are_written(tmp_path: Path, old: str, new: str,
                                                                message: str | None, where: str | None) -> None:
    path = variant(tmp_path, old, new)
    if message is None:  # written right: it loads and plays
        game = load_ruleset(path).new_game(seed=1)
        while not game.is_over:
            game.apply(game.legal_moves()[0])
        return
    error = load_error(path)
    assert message in error.message and where is not None
    text = path.read_text()
    assert error.pos is not None and error.pos.line == next(i for i, line in enumerate(text.splitlines(), 1)
                                                             if where in line)


def test_a_mark_on_no_card_is_none_and_marking_no_card_is_a_run_time_error(tmp_path: Path) -> None:
    text = TEXT.replace("  played: {initial: 0}\n", "  played: {initial: 0}\n  bare: {initial: false}\n")
    path = variant(tmp_path, "      - move: {face: up}\n",
                   "      - move: {face: up}\n      - set: {bare: \"top(hand).by == none\"}\n", text)
    for game in play_both_backends(load_ruleset(path), range(4)):
        assert game.variable("bare") == (len(pile(game, "hand", 1 - game.current_player)) == 0)
    broken = variant(tmp_path, "      - move: {face: up}\n",
                     "      - move: {face: up}\n      - with: {card: \"top(of(hand, 1))\"}\n"
                     "        do:\n          - set: {tag: \"'seen'\"}\n")
    game = load_ruleset(broken).new_game(deal=dealt("5C 6C 7C 8C", "5D 9D TD JD"))
    for code in "5C 9D 6C 5D 7C TD 8C".split():
        game.apply(next(m for m in game.legal_moves() if m.text().endswith(f":{code}>t")))
    with pytest.raises(RulesetRuntimeError, match="there is no card to mark"):
        game.apply(game.legal_moves()[0])  # seat 2 plays its last card: its hand is then empty


def test_the_game_reads_a_mark_by_card_id_or_code() -> None:
    game = load_ruleset(PLAYED).new_game(deal=dealt("5C 6C 7C 8C", "5D 9D TD JD"))
    assert game.variable("dealt_to", card="9D") == game.variable("dealt_to", card=DECK.index("9D")) == 1
    with pytest.raises(ArgumentError, match="not a per_card variable"):
        game.variable("played", card="9D")
    with pytest.raises(ArgumentError, match="no card of the deck"):
        game.variable("by", card="XX")


def test_the_rules_in_words_say_what_marks_are() -> None:
    from cardrules.workbench.describe import describe

    text = "\n".join(block.text for block in describe(PLAYED).blocks)
    assert "by (a mark on each card, seen as the card is" in text
    assert "Set the card's by to the player and the card's at to played." in text
    assert "Set card's dealt to to s." in text  # (the loop's name, `card`)
