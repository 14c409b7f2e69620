"""Cascades, rule by rule: one or more tests per sentence of the seed text
(shared/seeds/002_ad842519e3153e93.txt) and per reading in the Cascades section of
shared/GAMES.md, for version 1 (``cascades``) and version 2 (``cascades-v2``).

Every test starts from an explicit deal so the situation it checks is exact.
Deals list card codes, top of the deck first.

Version 1 setup deals the nine draw-pile cards round by round: deal[0..2] are the
bottom cards of draw piles 1..3, deal[3..5] the middle ones and deal[6..8] the tops;
deal[9:] is the stock, deal[9] on top. ``draw`` turns three stock cards one by one,
so of the stock cards (a, b, c) (a on top) c ends on top of the waste and is played
first, then b, then a: ``turns`` builds a stock from groups listed in the order
their cards become playable. The very first play is the top of the first three
turned cards (deal[11]), which starts tier 1: the deck is not turned again before
it is played, so every version 1 game opens with ``draw`` and ``w>t1``.

Version 2 takes the Aces out of the deck (first two from the top beside row 1, the
next two beside row 2, the last two beside row 3); the other cards stay in the stock
in deal order.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import pytest

from cardrules import IllegalMoveError, load_ruleset
from helpers import faces, pile, play, texts

# ---------------------------------------------------------------------------
# The Decktet (GAMES.md, section 3)
# ---------------------------------------------------------------------------

MO, SU, WA, LE, WY, KN = "moons", "suns", "waves", "leaves", "wyrms", "knots"
ACE = {MO: "AceMoons", SU: "AceSuns", WA: "AceWaves", LE: "AceLeaves", WY: "AceWyrms", KN: "AceKnots"}
CROWN = {MO: "Huntress", SU: "Bard", WA: "Sea", LE: "End", WY: "Calamity", KN: "Windfall"}
NUMERALS: dict[int, dict[str, tuple[str, ...]]] = {
    2: {"Author": (MO, KN), "Desert": (SU, WY), "Origin": (WA, LE)},
    3: {"Journey": (MO, WA), "Painter": (SU, KN), "Savage": (LE, WY)},
    4: {"Mountain": (MO, SU), "Sailor": (WA, LE), "Battle": (WY, KN)},
    5: {"Forest": (MO, LE), "Discovery": (SU, WA), "Soldier": (WY, KN)},
    6: {"Lunatic": (MO, WA), "Penitent": (SU, WY), "Market": (LE, KN)},
    7: {"ChanceMeeting": (MO, LE), "Castle": (SU, KN), "Cave": (WA, WY)},
    8: {"Diplomat": (MO, SU), "Mill": (WA, LE), "Betrayal": (WY, KN)},
    9: {"Pact": (MO, SU), "Darkness": (WA, WY), "Merchant": (LE, KN)},
}
PAWNS: dict[str, tuple[str, ...]] = {"Harvest": (MO, SU, LE), "Watchman": (MO, WY, KN), "LightKeeper": (SU, WA, KN),
         "Borderland": (WA, LE, WY)}
COURTS: dict[str, tuple[str, ...]] = {"Consul": (MO, WA, KN), "Rite": (MO, LE, WY), "Island": (SU, WA, WY), "Window": (SU, LE, KN)}

KIND: dict[str, str] = {}
RANK: dict[str, int] = {}
SUITS: dict[str, tuple[str, ...]] = {}
for _suit, _code in ACE.items():
    KIND[_code], RANK[_code], SUITS[_code] = "ace", 1, (_suit,)
for _rank, _cards in NUMERALS.items():
    for _code, _suits in _cards.items():
        KIND[_code], RANK[_code], SUITS[_code] = "numeral", _rank, _suits
for _code, _suits in PAWNS.items():
    KIND[_code], RANK[_code], SUITS[_code] = "pawn", 10, _suits
for _code, _suits in COURTS.items():
    KIND[_code], RANK[_code], SUITS[_code] = "court", 11, _suits
for _suit, _code in CROWN.items():
    KIND[_code], RANK[_code], SUITS[_code] = "crown", 12, (_suit,)

BASIC = [c for c in KIND if KIND[c] not in ("pawn", "court")]
EXTENDED = list(KIND)
assert len(BASIC) == 36 and len(EXTENDED) == 44

# Version 2 tests put the Aces on top of the deck in this order (rows {Moons, Knots},
# {Suns, Wyrms}, {Waves, Leaves}).
V2_ACES = [ACE[MO], ACE[KN], ACE[SU], ACE[WY], ACE[WA], ACE[LE]]


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------


@lru_cache(maxsize=None)
def rules_for(version: int = 1, extended: bool = False) -> Any:
    return load_ruleset("cascades" if version == 1 else "cascades-v2", options={"extended": extended})


def deck_for(extended: bool) -> list[str]:
    return EXTENDED if extended else BASIC


def turns(*groups: Sequence[str | None]) -> list[str | None]:
    """A stock (top first) whose draws make each group's cards playable in the listed order.

    A draw turns stock cards a, b, c (a on top) one by one, so c ends on the waste's top:
    the group [x, y, z] becomes the stock cards [z, y, x]. Shorter groups get unnamed
    cards beneath them.
    """
    stock: list[str | None] = []
    for group in groups:
        assert 1 <= len(group) <= 3
        stock += [None] * (3 - len(group)) + list(reversed(group))
    return stock


def stock_for_plays(plays: Sequence[str]) -> list[str]:
    """The stock (top first) that lets ``plays`` be played one after another in a single pass."""
    stock: list[str] = []
    for i in range(0, len(plays), 3):
        stock += list(reversed(plays[i:i + 3]))
    return stock


def fill(named: Sequence[str | None], extended: bool) -> tuple[list[str], list[str]]:
    """``named`` with its None entries replaced by unnamed cards, and the unnamed cards left over."""
    cards = [c for c in named if c is not None]
    assert len(cards) == len(set(cards)), "a card is named twice"
    assert set(cards) <= set(deck_for(extended)), set(cards) - set(deck_for(extended))
    spare = [c for c in deck_for(extended) if c not in set(cards)]
    it = iter(spare)
    filled = [c if c is not None else next(it) for c in named]
    return filled, list(it)


def v1_deal(stock: Sequence[str | None] = (), piles: Sequence[Sequence[str | None]] = ((), (), ()),
            extended: bool = False) -> list[str]:
    """The version 1 deal with these draw piles and this stock.

    ``piles[i]`` lists draw pile i+1 bottom to top (at most three cards; missing cards
    are filled in beneath); ``stock`` lists the first stock cards, top first. The rest
    of the stock, and None entries, are unnamed cards in deck order.
    """
    assert len(piles) == 3 and all(len(p) <= 3 for p in piles)
    padding: list[str | None] = [None, None, None]
    full_piles = [padding[:3 - len(p)] + list(p) for p in piles]
    flat = [c for p in full_piles for c in p] + list(stock)
    filled, rest = fill(flat, extended)
    filled_piles = [filled[3 * i:3 * i + 3] for i in range(3)]
    deal = [filled_piles[i][r] for r in range(3) for i in range(3)] + filled[9:] + rest
    assert sorted(deal) == sorted(deck_for(extended))
    return deal


def v1_game(stock: Sequence[str | None] = (), piles: Sequence[Sequence[str | None]] = ((), (), ()),
            extended: bool = False, **kwargs: Any) -> Any:
    return rules_for(1, extended).new_game(deal=v1_deal(stock, piles, extended), **kwargs)


def v2_deal(stock: Sequence[str | None] = (), aces: Sequence[str] = tuple(V2_ACES), extended: bool = False) -> list[str]:
    """The version 2 deal: the six Aces on top of the deck in this order, then the stock (top first)."""
    assert sorted(aces) == sorted(ACE.values())
    filled, rest = fill(list(aces) + list(stock), extended)
    deal = filled + rest
    assert sorted(deal) == sorted(deck_for(extended))
    return deal


def v2_game(stock: Sequence[str | None] = (), aces: Sequence[str] = tuple(V2_ACES), extended: bool = False,
            **kwargs: Any) -> Any:
    return rules_for(2, extended).new_game(deal=v2_deal(stock, aces, extended), **kwargs)


def tier(game: Any, k: int) -> list[str]:
    """Tier k (1-based), left to right."""
    return pile(game, "tier", k - 1)


def draw_pile(game: Any, k: int) -> list[str]:
    """Draw pile k (1-based), bottom first."""
    return pile(game, "reserve", k - 1)


def refused(game: Any, text: str) -> bool:
    """True when the move is not legal: not listed, and parse_move refuses it."""
    if text in texts(game):
        return False
    with pytest.raises(IllegalMoveError):
        game.parse_move(text)
    return True


def draw_through(game: Any) -> int:
    """Draw until the stock is empty; the number of draws."""
    n = 0
    while pile(game, "stock"):
        play(game, "draw")
        n += 1
    return n


def pass_without_playing(game: Any) -> None:
    draw_through(game)
    play(game, "redeal")


def first_pass(game: Any) -> None:
    """Version 1's pass 1 playing only the compulsory first card (the top of the first three turned)."""
    play(game, "draw", "w>t1")
    pass_without_playing(game)


# ---------------------------------------------------------------------------
# An independent statement of the rules (used by the random-game check at the end)
# ---------------------------------------------------------------------------


def shares(a: Sequence[str], b: Sequence[str]) -> bool:
    return bool(set(a) & set(b))


def fits(tiers: Sequence[Sequence[str]], t: int, card: str, row_aces: Sequence[Sequence[str]] | None = None) -> bool:
    """May ``card`` go at the right end of tier ``t`` (0-based)? ``row_aces``: version 2's Aces by row."""
    row = tiers[t]
    if row_aces is not None:
        if not any(shares(SUITS[card], SUITS[a]) for a in row_aces[t]):
            return False
    elif row and not shares(SUITS[row[-1]], SUITS[card]):
        return False

    def same(cards: Sequence[str]) -> int:
        return sum(1 for x in cards if RANK[x] == RANK[card])

    kind = KIND[card]
    here = same(row)
    if kind in ("ace", "crown"):
        room = 2
    elif kind in ("pawn", "court"):
        room = 2 if t == 0 else 1
    else:
        room = 1
    if here >= room:
        return False
    if t > 0:
        return same(tiers[t - 1]) > here
    if kind in ("pawn", "court") and here == 1:
        return same(tiers[2]) >= 1
    return True


# ---------------------------------------------------------------------------
# The deck
# ---------------------------------------------------------------------------


def test_basic_deck_is_the_36_aces_numerals_and_crowns_without_the_excuse() -> None:
    rules = rules_for(1, extended=False)
    assert sorted(rules.deck.codes) == sorted(BASIC)
    assert len(rules.deck) == 36
    for cid, code in enumerate(rules.deck.codes):
        card = rules.deck.cards[cid]
        assert card["kind"] == KIND[code] and card["rank"] == RANK[code]
        assert tuple(card["suits"]) == SUITS[code]


def test_extended_deck_adds_the_four_pawns_and_four_courts_but_never_the_excuse() -> None:
    rules = rules_for(1, extended=True)
    assert sorted(rules.deck.codes) == sorted(EXTENDED)
    assert len(rules.deck) == 44
    assert "Excuse" not in rules.deck.codes
    kinds = [c["kind"] for c in rules.deck.cards]
    assert kinds.count("pawn") == 4 and kinds.count("court") == 4
    for cid, code in enumerate(rules.deck.codes):
        assert tuple(rules.deck.cards[cid]["suits"]) == SUITS[code]
        assert len(SUITS[code]) == (3 if KIND[code] in ("pawn", "court") else 2 if KIND[code] == "numeral" else 1)


@pytest.mark.parametrize("version", [1, 2])
@pytest.mark.parametrize("extended", [False, True])
def test_seeded_deal_is_a_shuffle_of_the_whole_deck(version: int, extended: bool) -> None:
    rules = rules_for(version, extended)
    game = rules.new_game(seed=11)
    assert sorted(game.deal_order) == sorted(deck_for(extended))
    assert rules.new_game(seed=11).deal_order == game.deal_order
    assert rules.new_game(seed=12).deal_order != game.deal_order


# ---------------------------------------------------------------------------
# Version 1 setup: three face-down draw piles of three, the rest in the stock
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("extended", [False, True])
def test_setup_deals_three_face_down_draw_piles_of_three_cards_round_by_round(extended: bool) -> None:
    deal = list(reversed(deck_for(extended)))
    game = rules_for(1, extended).new_game(deal=deal)
    for k in range(1, 4):
        assert draw_pile(game, k) == [deal[k - 1], deal[k + 2], deal[k + 5]]
        assert faces(game, "reserve", k - 1) == [False, False, False]
        assert game.view(0)["zones"]["reserve"][k - 1] == [None, None, None]


@pytest.mark.parametrize("extended", [False, True])
def test_setup_keeps_the_remaining_cards_face_down_in_the_stock_in_deal_order(extended: bool) -> None:
    deal = list(deck_for(extended))
    game = rules_for(1, extended).new_game(deal=deal)
    stock = pile(game, "stock")
    assert len(stock) == (27 if not extended else 35)
    assert stock == deal[9:][::-1]  # bottom first: deal[9] on top
    assert not any(faces(game, "stock"))
    view = game.view(0)["zones"]
    assert view["stock"] == [None] * len(stock)
    assert view["waste"] == [] and view["tier"] == [[], [], []]
    assert game.variable("passes") == 0
    assert texts(game) == {"draw"}
    assert not game.is_over and game.scores() == [0]


# ---------------------------------------------------------------------------
# Working through the deck three cards at a time
# ---------------------------------------------------------------------------


def test_draw_turns_three_cards_one_by_one_so_the_third_is_on_top() -> None:
    deal = list(BASIC)
    game = rules_for(1).new_game(deal=deal)
    play(game, "draw")
    assert pile(game, "waste") == deal[9:12]  # bottom first: deal[11] on top
    assert all(faces(game, "waste"))
    assert game.view(0)["zones"]["waste"] == deal[9:12]
    assert len(pile(game, "stock")) == 24
    # The first card turned is played (it starts tier 1) before the deck is turned again.
    play(game, "w>t1")
    play(game, "draw")
    assert pile(game, "waste") == deal[9:11] + deal[12:15]  # deal[14] on top
    assert len(pile(game, "stock")) == 21


def test_only_the_top_turned_card_is_playable() -> None:
    # Author on top, Sailor beneath it, Journey at the bottom of the three.
    game = v1_game(turns(["Author", "Sailor", "Journey"]))
    play(game, "draw")
    waste_moves = [m for m in game.legal_moves() if str(m).startswith("w>")]
    assert [str(m) for m in waste_moves] == ["w>t1"] and waste_moves[0].count == 1
    play(game, "w>t1")
    assert tier(game, 1) == ["Author"]
    # Sailor (Waves, Leaves) fits nowhere; Journey beneath it would fit tier 1 but is covered.
    assert not any(m.startswith("w>") for m in texts(game))
    assert refused(game, "w>t1")
    assert pile(game, "waste")[-2:] == ["Journey", "Sailor"]


def test_the_card_beneath_becomes_playable_once_the_top_card_is_played() -> None:
    game = v1_game(turns(["Author", "Journey", "Lunatic"]))
    play(game, "draw", "w>t1")
    assert pile(game, "waste")[-1] == "Journey"
    assert "w>t1" in texts(game)
    play(game, "w>t1")
    assert "w>t1" in texts(game)
    play(game, "w>t1")
    assert tier(game, 1) == ["Author", "Journey", "Lunatic"]
    assert pile(game, "waste") == []


def test_draw_turns_the_last_one_or_two_cards_when_fewer_than_three_remain() -> None:
    deal = list(EXTENDED)  # 35 stock cards: eleven turns of three, then two
    game = rules_for(1, True).new_game(deal=deal)
    play(game, "draw", "w>t1")  # the first card turned (deal[11]) starts tier 1
    for _ in range(10):
        play(game, "draw")
    assert pile(game, "stock") == deal[42:44][::-1]
    assert pile(game, "waste") == deal[9:11] + deal[12:42]
    play(game, "draw")
    assert pile(game, "waste") == deal[9:11] + deal[12:44]
    assert pile(game, "stock") == [] and "draw" not in texts(game)
    # Second pass: with one card played the basic deck's 26 cards end with a turn of two.
    game = rules_for(1).new_game(deal=list(BASIC))
    play(game, "draw", "w>t1")
    pass_without_playing(game)
    assert draw_through(game) == 9
    assert pile(game, "waste") == [c for c in BASIC[9:] if c != BASIC[11]]


def test_redeal_is_offered_only_when_the_stock_is_empty() -> None:
    game = rules_for(1).new_game(deal=list(BASIC))
    assert refused(game, "redeal")
    play(game, "draw")
    assert refused(game, "redeal")
    play(game, "w>t1")  # the first card turned starts tier 1
    while pile(game, "stock"):
        assert "redeal" not in texts(game)
        assert refused(game, "redeal")
        play(game, "draw")
    assert "redeal" in texts(game) and "draw" not in texts(game)


def test_redeal_turns_the_waste_over_to_form_the_deck_again_keeping_the_order() -> None:
    deal = list(BASIC)
    game = rules_for(1).new_game(deal=deal)
    stock_before = pile(game, "stock")
    play(game, "draw", "w>t1")  # the first card turned (deal[11]) starts tier 1
    draw_through(game)
    play(game, "redeal")
    assert pile(game, "waste") == []
    assert pile(game, "stock") == [c for c in stock_before if c != deal[11]]
    assert not any(faces(game, "stock"))
    assert game.variable("passes") == 1
    play(game, "draw")
    assert pile(game, "waste") == [deal[9], deal[10], deal[12]]


# ---------------------------------------------------------------------------
# The first play starts tier 1
# ---------------------------------------------------------------------------


def test_the_first_play_is_the_top_turned_card_and_starts_tier_1() -> None:
    deal = list(BASIC)
    game = rules_for(1).new_game(deal=deal)
    play(game, "draw")
    assert texts(game) == {"w>t1"}
    assert refused(game, "w>t2") and refused(game, "w>t3")
    play(game, "w>t1")
    assert tier(game, 1) == [deal[11]]
    assert game.scores() == [1]
    assert "draw" in texts(game)


def test_tiers_2_and_3_refuse_a_card_whose_rank_is_not_in_the_tier_above() -> None:
    game = v1_game(turns(["Author", "Sailor"]))
    play(game, "draw", "w>t1")
    # Sailor (4): tier 2 is empty (no suit condition) but tier 1 has no 4.
    assert refused(game, "w>t2") and refused(game, "w>t3")


# ---------------------------------------------------------------------------
# Suits: a card at the right end shares a suit with the card now at that end
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(("card", "allowed"), [
    ("Journey", True),     # Moons, Waves: shares Moons
    ("Painter", True),     # Suns, Knots: shares Knots, Author's second suit
    ("Sailor", False),     # Waves, Leaves
    ("Discovery", False),  # Suns, Waves
    ("AceKnots", True),
    ("AceSuns", False),
    ("Windfall", True),    # the Knots crown
    ("Bard", False),       # the Suns crown
])
def test_a_card_at_the_right_end_must_share_a_suit_with_the_card_at_that_end(card: str, allowed: bool) -> None:
    game = v1_game(turns(["Author", card]))  # Author: Moons, Knots
    play(game, "draw", "w>t1")
    assert ("w>t1" in texts(game)) == allowed
    if allowed:
        play(game, "w>t1")
        assert tier(game, 1) == ["Author", card]
    else:
        assert refused(game, "w>t1")


def test_the_suit_is_matched_with_the_card_now_at_the_end_not_with_earlier_cards() -> None:
    # Castle (Suns, Knots) shares Knots with Author but nothing with Journey (Moons, Waves).
    game = v1_game(turns(["Author", "Journey", "Castle"]))
    play(game, "draw", "w>t1", "w>t1")
    assert refused(game, "w>t1")
    # Sailor (Waves, Leaves) shares nothing with Author but Waves with Journey.
    game = v1_game(turns(["Author", "Journey", "Sailor"]))
    play(game, "draw", "w>t1", "w>t1", "w>t1")
    assert tier(game, 1) == ["Author", "Journey", "Sailor"]


def test_multi_suit_cards_match_on_any_of_their_suits() -> None:
    # Light Keeper (Suns, Waves, Knots) follows Author by Knots; Sailor follows it by Waves;
    # Castle (Suns, Knots) could not follow Sailor.
    game = v1_game(turns(["Author", "LightKeeper", "Sailor"], ["Castle"]), extended=True)
    play(game, "draw", "w>t1", "w>t1", "w>t1")
    assert tier(game, 1) == ["Author", "LightKeeper", "Sailor"]
    play(game, "draw")
    assert refused(game, "w>t1")


def test_an_empty_tier_has_no_suit_condition() -> None:
    # Desert (Suns, Wyrms) shares no suit with Author, yet starts tier 2 (rank 2 is in tier 1).
    game = v1_game(turns(["Author", "Desert"]))
    play(game, "draw", "w>t1")
    assert refused(game, "w>t1")
    play(game, "w>t2")
    assert tier(game, 2) == ["Desert"]


# ---------------------------------------------------------------------------
# Ranks: each numeral once per tier; tiers 2 and 3 need the rank in the tier directly above
# ---------------------------------------------------------------------------


def test_each_numeral_rank_at_most_once_per_tier() -> None:
    # Origin (2; Waves, Leaves) shares Waves with Journey but tier 1 already holds a 2.
    game = v1_game(turns(["Author", "Journey", "Origin"]))
    play(game, "draw", "w>t1", "w>t1")
    assert refused(game, "w>t1")
    assert "w>t2" in texts(game)


def test_a_rank_goes_on_tier_2_only_if_already_in_tier_1() -> None:
    game = v1_game(turns(["Author", "Journey", "Mountain"], ["Painter"]))
    play(game, "draw", "w>t1")
    # Journey (3): no 3 in tier 1 yet.
    assert refused(game, "w>t2")
    play(game, "w>t1")
    # Mountain (4): no 4 in tier 1.
    assert refused(game, "w>t2")
    play(game, "w>t1")
    play(game, "draw")
    # Painter (3; Suns, Knots): shares Suns with Mountain, but tier 1 holds a 3 already; the empty
    # tier 2 takes it now that tier 1 holds a 3.
    assert refused(game, "w>t1")
    play(game, "w>t2")
    assert tier(game, 2) == ["Painter"]


def test_a_rank_goes_on_tier_3_only_if_already_in_tier_2_the_tier_directly_above() -> None:
    game = v1_game(turns(["Author", "Journey", "Desert"], ["Painter", "Origin"]))
    play(game, "draw", "w>t1", "w>t1")
    # Desert (2): tier 2 holds no 2 yet, so not tier 3 (which is empty: no suit condition).
    assert refused(game, "w>t3")
    play(game, "w>t2")
    play(game, "draw")
    # Painter (3): in tier 1 but not in tier 2, so not on the empty tier 3; tier 2 takes it
    # (Suns with Desert; a 3 is in tier 1).
    assert refused(game, "w>t3")
    play(game, "w>t2")
    # Origin (2): tier 2 holds a 2 now, so the empty tier 3 takes it.
    assert refused(game, "w>t1") and refused(game, "w>t2")
    play(game, "w>t3")
    assert tier(game, 1) == ["Author", "Journey"]
    assert tier(game, 2) == ["Desert", "Painter"]
    assert tier(game, 3) == ["Origin"]


# ---------------------------------------------------------------------------
# Aces and Crowns: two per tier; a lower tier needs one above (two above for its second)
# ---------------------------------------------------------------------------

HIGH_LOW = pytest.mark.parametrize("kind", [ACE, CROWN], ids=["aces", "crowns"])


@HIGH_LOW
def test_at_most_two_aces_or_crowns_per_tier(kind: dict[str, str]) -> None:
    game = v1_game(turns([kind[MO], "Mountain", kind[SU]], ["Desert", kind[WY]]))
    play(game, "draw", "w>t1", "w>t1", "w>t1", "draw", "w>t1")
    assert tier(game, 1) == [kind[MO], "Mountain", kind[SU], "Desert"]
    # The Wyrms card shares Wyrms with Desert, but tier 1 holds two already.
    assert refused(game, "w>t1")


@HIGH_LOW
def test_an_ace_or_crown_on_a_lower_tier_needs_one_in_the_tier_above(kind: dict[str, str]) -> None:
    game = v1_game(turns(["Author", kind[KN], kind[MO]], [kind[SU]]))
    play(game, "draw", "w>t1")
    # The Knots one: tier 1 holds none, so neither lower tier takes it.
    assert refused(game, "w>t2") and refused(game, "w>t3")
    play(game, "w>t1")
    # The Moons one: tier 2 now may (one in tier 1), tier 3 may not (none in tier 2).
    assert refused(game, "w>t3")
    play(game, "w>t2")
    play(game, "draw")
    # The Suns one: tier 3 may start with it now; not tier 2 (suit) nor tier 1 (suit).
    assert refused(game, "w>t1") and refused(game, "w>t2")
    play(game, "w>t3")
    assert [tier(game, k) for k in (1, 2, 3)] == [["Author", kind[KN]], [kind[MO]], [kind[SU]]]


def test_an_ace_above_does_not_let_a_crown_onto_a_lower_tier_nor_the_reverse() -> None:
    game = v1_game(turns([ACE[MO], CROWN[MO]]))
    play(game, "draw", "w>t1")
    assert refused(game, "w>t2")
    game = v1_game(turns([CROWN[MO], ACE[MO]]))
    play(game, "draw", "w>t1")
    assert refused(game, "w>t2")


@HIGH_LOW
def test_a_second_ace_or_crown_on_a_lower_tier_is_refused_while_the_tier_above_holds_one(
        kind: dict[str, str]) -> None:
    game = v1_game(turns([kind[MO], "Journey", "Mountain"], [kind[WA], "Sailor", kind[LE]]))
    play(game, "draw", "w>t1", "w>t1", "w>t1", "draw", "w>t2", "w>t2")
    assert tier(game, 2) == [kind[WA], "Sailor"]
    # The Leaves one shares Leaves with Sailor, but tier 1 holds only one.
    assert refused(game, "w>t2")


@HIGH_LOW
def test_a_second_ace_or_crown_on_a_lower_tier_is_allowed_once_the_tier_above_holds_two(
        kind: dict[str, str]) -> None:
    game = v1_game(turns([kind[MO], "Journey", "Mountain"], [kind[SU], kind[WA], "Sailor"], [kind[LE]]))
    play(game, "draw", "w>t1", "w>t1", "w>t1", "draw", "w>t1", "w>t2", "w>t2", "draw")
    assert tier(game, 1) == [kind[MO], "Journey", "Mountain", kind[SU]]
    play(game, "w>t2")
    assert tier(game, 2) == [kind[WA], "Sailor", kind[LE]]


# ---------------------------------------------------------------------------
# Draw piles: pile 1 opens after pass 1, pile 2 after pass 2, pile 3 after pass 3
# ---------------------------------------------------------------------------


def test_draw_piles_open_one_by_one_after_passes_1_2_and_3() -> None:
    # Pass 1 plays only the first card turned, Author (Moons, Knots); then nothing is played.
    # Each pile's top shares Moons with Author and has a rank of its own, so it fits tier 1.
    tops = ["Journey", "Mountain", "Forest"]
    game = v1_game(turns(["Author"]), piles=[[top] for top in tops])
    for done in range(4):  # passes completed
        assert game.variable("passes") == done
        assert not game.is_over
        view = game.view(0)["zones"]["reserve"]
        for k in (1, 2, 3):
            is_open = done >= k
            assert faces(game, "reserve", k - 1) == [False, False, is_open]
            assert view[k - 1] == [None, None, tops[k - 1] if is_open else None]
            if is_open:
                assert f"d{k}>t1" in texts(game)
            else:
                assert refused(game, f"d{k}>t1")
        if done == 0:
            play(game, "draw", "w>t1")
            assert tier(game, 1) == ["Author"]
            assert [faces(game, "reserve", k) for k in range(3)] == [[False, False, False]] * 3
            assert not any(m.startswith("d") and m != "draw" for m in texts(game))
        if done < 3:
            pass_without_playing(game)
    play(game, "d3>t1")
    assert tier(game, 1) == ["Author", tops[2]]


def test_an_open_draw_pile_may_be_played_at_any_time_and_its_next_card_turns_up() -> None:
    # The first card turned, Castle (Suns, Knots), starts tier 1; Author follows it by Knots.
    game = v1_game(turns(["Castle"]), piles=[["Sailor", "Journey", "Author"], [], []])
    first_pass(game)
    play(game, "draw")  # in the middle of a pass, with the waste not empty
    assert pile(game, "waste")
    assert "d1>t1" in texts(game)
    play(game, "d1>t1")
    assert tier(game, 1) == ["Castle", "Author"]
    assert faces(game, "reserve", 0) == [False, True]
    assert game.view(0)["zones"]["reserve"][0] == [None, "Journey"]
    play(game, "d1>t1")  # Journey follows Author by Moons
    assert faces(game, "reserve", 0) == [True]
    # Sailor (4) follows Journey by Waves.
    play(game, "d1>t1")
    assert tier(game, 1) == ["Castle", "Author", "Journey", "Sailor"]
    assert draw_pile(game, 1) == [] and not any(m.startswith("d1") for m in texts(game))


def test_every_draw_pile_opens_once_the_stock_and_waste_are_empty() -> None:
    plays, _ = WON_BASIC
    game = won_game(extended=False)
    for card, t in plays[:27]:
        if not pile(game, "waste"):
            play(game, "draw")
        play(game, f"w>t{t}")
    assert pile(game, "stock") == [] and pile(game, "waste") == []
    assert game.variable("passes") == 0
    assert [faces(game, "reserve", k) for k in range(3)] == [[False, False, True]] * 3
    assert all(top is not None for *_, top in game.view(0)["zones"]["reserve"])
    assert not game.is_over


# ---------------------------------------------------------------------------
# Passes and the end of the game
# ---------------------------------------------------------------------------

# A chain for tier 1 (distinct ranks but for the two Aces; each card shares a suit with the one
# before it): FIRST is the first card turned, the compulsory first play; then CHAIN, one card a pass.
FIRST = "AceMoons"
CHAIN = ["Author", "Painter", "Mountain", "Forest", "Market", "Castle", "Diplomat", "Pact", "Bard", "AceSuns"]


def chain_game() -> Any:
    """FIRST on top of the first three turned; the chain at the bottom of the stock, CHAIN[0] lowest:
    each pass ends with its next card on top."""
    stock: list[str | None] = turns([FIRST]) + [None] * (27 - 3 - len(CHAIN)) + list(reversed(CHAIN))
    return v1_game(stock)


def open_chain_game(game: Any) -> None:
    play(game, "draw")
    assert pile(game, "waste")[-1] == FIRST
    play(game, "w>t1")


def test_passes_are_unlimited_while_each_pass_plays_a_card() -> None:
    game = chain_game()
    open_chain_game(game)
    for n, card in enumerate(CHAIN, start=1):
        draw_through(game)
        assert pile(game, "waste")[-1] == card
        play(game, "w>t1", "redeal")
        assert not game.is_over, n
        assert game.variable("passes") == n
    assert tier(game, 1) == [FIRST] + CHAIN
    assert game.variable("passes") == 10
    assert "draw" in texts(game)


def test_a_pass_that_plays_nothing_does_not_end_the_game_while_a_draw_pile_is_still_closed() -> None:
    game = rules_for(1).new_game(deal=list(BASIC))
    first_pass(game)  # pass 1 always plays: the first card turned starts tier 1
    assert not game.is_over
    for n in (2, 3):  # passes 2 and 3 play nothing; pass 3 is played with draw pile 3 still closed
        pass_without_playing(game)
        assert not game.is_over, n
        assert game.outcome is None
    assert game.variable("passes") == 3


def test_a_cycle_with_every_draw_pile_open_is_not_lost_while_a_draw_pile_card_could_be_played() -> None:
    # Reading (GAMES.md): the game ends when a whole pass, with all draw piles open, *can* play
    # nothing. Here the tops of draw piles 2 and 3 fit tier 1 after pass 3 and stay unplayed.
    game = rules_for(1).new_game(deal=list(BASIC))
    first_pass(game)
    for _ in range(2):
        pass_without_playing(game)
    assert game.variable("passes") == 3 and not game.is_over
    for n in range(2):  # passes 4 and 5: nothing played, but d3>t1 offered all along
        while pile(game, "stock"):
            assert "d3>t1" in texts(game)
            play(game, "draw")
        play(game, "redeal")
        assert not game.is_over, n
    play(game, "d3>t1")
    assert tier(game, 1)[-1] == "Origin"


def position(game: Any) -> tuple[Any, ...]:
    """Every card, where it lies and which way up (for the cycle rule: variables are not part of it)."""
    zones = [z for z in ("stock", "waste", "tier", "reserve", "aces") if z in game.rules.zones]
    return tuple((tuple(pile(game, z, i)), tuple(faces(game, z, i)))
                 for z in zones for i in range(len(game.rules.zones[z].piles)))


def random_game(game: Any, rng: random.Random) -> None:
    """Random play that prefers plays a little, so games get long."""
    while not game.is_over:
        moves = game.legal_moves()
        plays = [m for m in moves if ">" in str(m)]
        game.apply(rng.choice(plays if plays and rng.random() < 0.7 else moves))


STOCK_TURNS = {"draw", "redeal"}


@pytest.mark.parametrize(("version", "seed"), [(1, 233), (1, 51), (2, 36), (2, 0)])
def test_the_game_is_lost_as_soon_as_a_whole_cycle_through_the_deck_could_play_nothing(version: int, seed: int) -> None:
    game = rules_for(version).new_game(seed=seed)
    random_game(game, random.Random(seed))
    assert game.outcome == "lost" and "cycle" in game.reason
    # Walk back through the stock turns that ended it: back to the position it came back to,
    # every position offered only stock turns (with every draw pile open), and none repeated before.
    final = position(game)
    walked = []
    while True:
        assert game.history and game.history[-1].name in STOCK_TURNS
        game.undo()
        assert texts(game) <= STOCK_TURNS, texts(game)
        if version == 1:
            assert game.variable("passes") >= 3
        here = position(game)
        assert here not in walked  # the game ended at the first position to come back
        walked.append(here)
        if here == final:
            break
    assert len(walked) >= 2


def test_a_card_played_from_a_draw_pile_breaks_the_cycle() -> None:
    # Author, the first card turned, starts tier 1; Journey, atop draw pile 1, follows it by Moons.
    game = v1_game(turns(["Author"]), piles=[["Journey"], [], []])
    first_pass(game)
    for _ in range(2):
        pass_without_playing(game)
    assert game.variable("passes") == 3 and not game.is_over
    play(game, "d1>t1")
    before = texts(game)
    pass_without_playing(game)
    assert not game.is_over
    assert texts(game) == before  # the same position as after the play: offered as much


# Full games found by search: (card, tier) in play order. Basic: each tier holds one of each
# numeral rank, two Aces and two Crowns. Extended: the top tier's second Pawn and Court go last.
WON_BASIC: tuple[list[tuple[str, int]], int] = ([
    ("AceWyrms", 1), ("Penitent", 1), ("Betrayal", 1), ("Painter", 1), ("Bard", 1), ("Mountain", 1),
    ("Forest", 1), ("Origin", 1), ("Sea", 1), ("Darkness", 1), ("Cave", 1), ("AceWaves", 1),
    ("Lunatic", 2), ("Author", 2), ("ChanceMeeting", 2), ("Diplomat", 2), ("Pact", 2), ("AceSuns", 2),
    ("Discovery", 2), ("Sailor", 2), ("AceLeaves", 2), ("End", 2), ("Savage", 2), ("Calamity", 2),
    ("Battle", 3), ("Soldier", 3), ("Desert", 3), ("Castle", 3), ("Windfall", 3), ("Market", 3),
    ("AceKnots", 3), ("Merchant", 3), ("Mill", 3), ("Journey", 3), ("Huntress", 3), ("AceMoons", 3),
], 27)
WON_EXTENDED: tuple[list[tuple[str, int]], int] = ([
    ("Harvest", 1), ("Author", 1), ("AceMoons", 1), ("Rite", 1), ("Merchant", 1), ("AceLeaves", 1),
    ("ChanceMeeting", 1), ("Savage", 1), ("Market", 1), ("Battle", 1), ("Calamity", 1), ("Betrayal", 1),
    ("Windfall", 1), ("Soldier", 1),
    ("Lunatic", 2), ("Discovery", 2), ("Painter", 2), ("Castle", 2), ("Consul", 2), ("Watchman", 2),
    ("AceWyrms", 2), ("Darkness", 2), ("Sea", 2), ("Origin", 2), ("AceWaves", 2), ("Mill", 2),
    ("Sailor", 2), ("End", 2),
    ("Desert", 3), ("Borderland", 3), ("Penitent", 3), ("Cave", 3), ("Journey", 3), ("Mountain", 3),
    ("Huntress", 3), ("Diplomat", 3), ("AceSuns", 3), ("Bard", 3), ("Pact", 3), ("Forest", 3),
    ("Window", 3), ("AceKnots", 3),
    ("LightKeeper", 1), ("Island", 1),
], 35)


def won_game(extended: bool) -> Any:
    """The stock gives the first plays in a single pass; the last nine come from draw piles 1, 2, 3."""
    plays, n_stock = WON_EXTENDED if extended else WON_BASIC
    cards = [c for c, _ in plays]
    from_piles = cards[n_stock:]
    piles = [list(reversed(from_piles[3 * k:3 * k + 3])) for k in range(3)]  # bottom first
    return v1_game(stock_for_plays(cards[:n_stock]), piles, extended=extended)


@pytest.mark.parametrize("extended", [False, True], ids=["basic", "extended"])
def test_the_game_is_won_when_every_card_is_in_a_tier(extended: bool) -> None:
    plays, n_stock = WON_EXTENDED if extended else WON_BASIC
    game = won_game(extended)
    for i, (card, t) in enumerate(plays):
        assert not game.is_over
        if i < n_stock:
            if not pile(game, "waste"):
                play(game, "draw")
            assert pile(game, "waste")[-1] == card
            play(game, f"w>t{t}")
        else:
            k = 1 + (i - n_stock) // 3
            assert draw_pile(game, k)[-1] == card
            play(game, f"d{k}>t{t}")
    assert game.is_over and game.outcome == "won"
    assert "every card" in game.reason
    total = 44 if extended else 36
    assert game.scores() == [total]
    for t in (1, 2, 3):
        assert tier(game, t) == [c for c, tt in plays if tt == t]
    assert game.variable("passes") == 0


def test_the_game_is_not_won_while_a_draw_pile_still_holds_a_card() -> None:
    plays, n_stock = WON_BASIC
    game = won_game(extended=False)
    for i, (card, t) in enumerate(plays[:-1]):
        if i < n_stock:
            if not pile(game, "waste"):
                play(game, "draw")
            play(game, f"w>t{t}")
        else:
            play(game, f"d{1 + (i - n_stock) // 3}>t{t}")
        assert not game.is_over
    assert draw_pile(game, 3) == [plays[-1][0]]


def test_the_move_limit_ends_the_game_as_limit() -> None:
    game = rules_for(1).new_game(deal=list(BASIC), max_moves=5)
    play(game, "draw", "w>t1", "draw", "draw")
    assert not game.is_over
    play(game, "draw")
    assert game.is_over and game.outcome == "limit"


# ---------------------------------------------------------------------------
# The extended deck: pawns and courts
# ---------------------------------------------------------------------------

PAWN_ORDER = ["Harvest", "Watchman", "LightKeeper", "Borderland"]
COURT_ORDER = ["Consul", "Rite", "Island", "Window"]


@pytest.mark.parametrize("order", [PAWN_ORDER, COURT_ORDER], ids=["pawns", "courts"])
def test_top_tier_takes_a_second_pawn_or_court_only_once_the_bottom_tier_holds_one(order: list[str]) -> None:
    # Every card here shares a suit with the card at the end of each tier it is tried on,
    # so only the rank rules decide.
    p1, p2, p3, p4 = order
    game = v1_game(turns([p1, p2, p3], [p4]), extended=True)
    play(game, "draw")
    assert refused(game, "w>t2") and refused(game, "w>t3")
    play(game, "w>t1")
    # Second one: not on tier 1 (the bottom tier holds none), not tier 3 (tier 2 holds none).
    assert refused(game, "w>t1") and refused(game, "w>t3")
    play(game, "w>t2")
    # Third one: still not tier 1; tier 3 may take it now.
    assert refused(game, "w>t1")
    play(game, "w>t3")
    play(game, "draw")
    # Fourth one: the bottom tier holds one now, so tier 1 takes its second.
    assert "w>t1" in texts(game)
    play(game, "w>t1")
    assert tier(game, 1) == [p1, p4]
    assert tier(game, 2) == [p2] and tier(game, 3) == [p3]


@pytest.mark.parametrize("order", [PAWN_ORDER, COURT_ORDER], ids=["pawns", "courts"])
def test_lower_tiers_take_one_pawn_and_one_court_each(order: list[str]) -> None:
    p1, p2, p3, p4 = order
    game = v1_game(turns([p1, p2, p3], [p4]), extended=True)
    play(game, "draw", "w>t1", "w>t2", "w>t3", "draw")
    assert refused(game, "w>t2") and refused(game, "w>t3")


def test_pawns_and_courts_are_counted_apart() -> None:
    # A Court on tier 1 does not let a Pawn onto tier 2.
    game = v1_game(turns(["Consul", "Watchman"]), extended=True)
    play(game, "draw", "w>t1")
    assert refused(game, "w>t2")
    # Two Pawns and two Courts may share the top tier (a Pawn on the bottom tier for the second).
    game = v1_game(turns(["Harvest", "Watchman", "LightKeeper"], ["Borderland", "Rite"]), extended=True)
    play(game, "draw", "w>t1", "w>t2", "w>t3", "draw", "w>t1")
    assert "w>t1" in texts(game)  # Rite (Moons, Leaves, Wyrms) after Borderland: the first Court


# ---------------------------------------------------------------------------
# Version 2: the Aces beside the rows
# ---------------------------------------------------------------------------


def row_aces(game: Any) -> list[list[str]]:
    return [list(p) for p in game.view(0)["zones"]["aces"]]


@pytest.mark.parametrize("extended", [False, True])
def test_v2_deals_the_aces_beside_the_rows_round_by_round_like_every_deal(extended: bool) -> None:
    order = [ACE[WA], ACE[KN], ACE[SU], ACE[MO], ACE[LE], ACE[WY]]
    others = [c for c in deck_for(extended) if KIND[c] != "ace"]
    # Aces spread through the deck: after others[0], others[2], ...
    deal: list[str] = []
    for i, card in enumerate(others):
        deal.append(card)
        if i % 3 == 0 and i // 3 < 6:
            deal.append(order[i // 3])
    assert sorted(deal) == sorted(deck_for(extended))
    game = rules_for(2, extended).new_game(deal=deal)
    rows = row_aces(game)
    # The 1st and 4th Aces from the top go beside row 1, the 2nd and 5th row 2, the 3rd and 6th row 3.
    assert [sorted(r) for r in rows] == [sorted(order[0::3]), sorted(order[1::3]), sorted(order[2::3])]
    for r in range(3):
        assert all(faces(game, "aces", r))


@pytest.mark.parametrize("extended", [False, True])
def test_v2_keeps_every_other_card_face_down_in_the_stock_in_deal_order(extended: bool) -> None:
    others = [c for c in deck_for(extended) if KIND[c] != "ace"]
    deal = others[:5] + [ACE[MO], ACE[SU]] + others[5:9] + [ACE[WA], ACE[LE], ACE[WY]] + others[9:] + [ACE[KN]]
    game = rules_for(2, extended).new_game(deal=deal)
    assert pile(game, "stock") == others[::-1]
    assert len(pile(game, "stock")) == (30 if not extended else 38)
    assert not any(faces(game, "stock"))
    assert sorted(c for r in row_aces(game) for c in r) == sorted(ACE.values())
    assert all(len(r) == 2 for r in row_aces(game))
    assert texts(game) == {"draw"}


def test_v2_has_no_draw_piles() -> None:
    rules = rules_for(2)
    assert "reserve" not in rules.zones
    game = v2_game()
    assert "reserve" not in game.view(0)["zones"]
    assert set(game.view(0)["zones"]) == {"stock", "waste", "aces", "tier"}
    for _ in range(3):
        play(game, "draw")
        assert not any(m.startswith("d") and m != "draw" for m in texts(game))


def test_v2_a_card_must_share_a_suit_with_one_of_its_rows_aces_not_with_the_previous_card() -> None:
    # Row 1 has the Ace of Moons and a Knots or Wyrms Ace. Battle (Wyrms, Knots) starts it;
    # Forest (Moons, Leaves) shares nothing with Battle but Moons with the Ace;
    # Sailor (Waves, Leaves) shares Leaves with Forest but nothing with the row's Aces.
    game = v2_game(turns(["Battle", "Forest", "Sailor"]))
    assert ACE[MO] in row_aces(game)[0]
    play(game, "draw", "w>t1", "w>t1")
    assert tier(game, 1) == ["Battle", "Forest"]
    assert refused(game, "w>t1")


def test_v2_an_empty_row_also_needs_a_suit_of_its_aces() -> None:
    game = v2_game(turns(["Sailor"]))
    play(game, "draw")
    assert refused(game, "w>t1")
    assert not any(m.startswith("w>") for m in texts(game))


def test_v2_follows_the_same_rank_rules() -> None:
    # Soldier (5; Wyrms, Knots) matches row 1's Aces but row 1 holds a 5 (Forest); row 2 takes it
    # (its Aces hold Wyrms or Knots), row 3 does not (no 5 in row 2).
    game = v2_game(turns(["Battle", "Forest", "Soldier"]))
    play(game, "draw", "w>t1", "w>t1")
    assert refused(game, "w>t1") and refused(game, "w>t3")
    play(game, "w>t2")
    assert tier(game, 2) == ["Soldier"]


def test_v2_drawing_through_while_a_card_fits_and_redealing_does_not_lose() -> None:
    # Seed 1: w>t1 is legal along the way; the player only turns the deck.
    game = load_ruleset("cascades-v2").new_game(seed=1)
    offered = False
    while pile(game, "stock"):
        play(game, "draw")
        offered = offered or "w>t1" in texts(game)
    assert offered
    play(game, "redeal")
    assert not game.is_over and game.outcome is None
    assert game.variable("passes") == 1


def test_v2_allows_any_number_of_passes_while_each_plays_a_card() -> None:
    # The last stock card is the waste's top at each pass's end; a tier 1 chain for row 1's Aces
    # (Moons and Knots or Wyrms): all share Moons, distinct ranks.
    chain = ["Author", "Journey", "Mountain", "Forest", "Lunatic", "ChanceMeeting", "Diplomat", "Pact", "Huntress"]
    stock: list[str | None] = [None] * (30 - len(chain)) + list(reversed(chain))
    game = v2_game(stock)
    for n, card in enumerate(chain, start=1):
        draw_through(game)
        assert pile(game, "waste")[-1] == card
        play(game, "w>t1", "redeal")
        assert not game.is_over
        assert game.variable("passes") == n
    assert tier(game, 1) == chain


def v2_won_plays(rows: list[list[str]], extended: bool) -> list[tuple[str, int]]:
    """A play order (card, row 1-3) that places every non-Ace card, for these row Aces."""
    row_suits = [{s for a in r for s in SUITS[a]} for r in rows]
    groups: list[tuple[list[str], list[int]]] = [(list(cards), [0, 1, 2]) for cards in NUMERALS.values()]
    groups.append((list(CROWN.values()), [0, 0, 1, 1, 2, 2]))
    if extended:
        groups.append((list(PAWNS), [0, 0, 1, 2]))
        groups.append((list(COURTS), [0, 0, 1, 2]))
    placed: list[list[str]] = [[], [], []]
    for cards, slots in groups:
        for perm in itertools.permutations(cards):
            if all(set(SUITS[c]) & row_suits[s] for c, s in zip(perm, slots)):
                for c, s in zip(perm, slots):
                    placed[s].append(c)
                break
        else:
            raise AssertionError(f"no way to place {cards} for Aces {rows}")
    # Row 1 first (all but its second Pawn and Court), then rows 2 and 3, then those two.
    late = []
    for kind in ("pawn", "court"):
        of_kind = [c for c in placed[0] if KIND[c] == kind]
        if len(of_kind) == 2:
            late.append(of_kind[1])
    order = [(c, 1) for c in placed[0] if c not in late]
    order += [(c, 2) for c in placed[1]] + [(c, 3) for c in placed[2]] + [(c, 1) for c in late]
    return order


@pytest.mark.parametrize("extended", [False, True], ids=["basic", "extended"])
def test_v2_is_won_when_every_card_but_the_aces_is_in_a_row(extended: bool) -> None:
    # Which Aces a row gets is read from the game, so the won game does not depend on it.
    rows = row_aces(v2_game(extended=extended))
    plays = v2_won_plays(rows, extended)
    game = v2_game(stock_for_plays([c for c, _ in plays]), extended=extended)
    assert row_aces(game) == rows
    for card, t in plays:
        assert not game.is_over
        if not pile(game, "waste"):
            play(game, "draw")
        assert pile(game, "waste")[-1] == card
        play(game, f"w>t{t}")
    assert game.is_over and game.outcome == "won"
    assert game.scores() == [38 if extended else 30]
    assert sorted(c for r in row_aces(game) for c in r) == sorted(ACE.values())


# ---------------------------------------------------------------------------
# Every rule at once: legal moves in random games match the rules as stated above
# ---------------------------------------------------------------------------


def expected_moves(game: Any, version: int) -> set[str]:
    zones = game.view(0)["zones"]
    stock, waste, tiers = zones["stock"], zones["waste"], zones["tier"]
    passes = game.variable("passes")
    # Version 1: the very first play is the top of the first three turned cards, starting tier 1;
    # the deck is not turned again until it is played (tiers only grow, so nothing played = all empty).
    first_card_waiting = version == 1 and bool(waste) and not any(tiers)
    out: set[str] = set()
    if stock and not first_card_waiting:
        out.add("draw")
    elif not stock and waste:
        out.add("redeal")
    sources: list[tuple[str, str]] = []
    if waste:
        sources.append(("w", waste[-1]))
    if version == 1:
        for k, p in enumerate(zones["reserve"], start=1):
            is_open = passes >= k or (not stock and not waste)
            if p and is_open:
                assert p[-1] is not None, "an open draw pile shows its top card"
                sources.append((f"d{k}", p[-1]))
            assert all(c is None for c in p[:-1])
            if p and not is_open:
                assert p[-1] is None, "a closed draw pile hides its top card"
    aces = zones.get("aces")
    for name, card in sources:
        for t in range(3):
            if fits(tiers, t, card, aces):
                out.add(f"{name}>t{t + 1}")
    if first_card_waiting:
        assert out == {"w>t1"}, "the first card turned always fits the empty first tier, and only it"
    return out


@pytest.mark.parametrize("version", [1, 2])
@pytest.mark.parametrize("extended", [False, True], ids=["basic", "extended"])
def test_legal_moves_and_endings_in_random_games_follow_the_rules(version: int, extended: bool) -> None:
    rules = rules_for(version, extended)
    for seed in range(60):
        game = rules.new_game(seed=seed, max_moves=400)  # some draw on past cards that could be played
        rng = random.Random(seed)
        # The cycle rule, stated apart: the positions since the last play (while every draw pile is
        # open), and whether any of them offered a play.
        cycle: tuple[set[Any], bool] | None = None
        while not game.is_over:
            expected = expected_moves(game, version)
            assert texts(game) == expected, (seed, [str(m) for m in game.history])
            counts = version == 2 or game.variable("passes") >= 3
            before = (position(game), bool(expected - STOCK_TURNS)) if counts else None
            moves = game.legal_moves()
            plays = [m for m in moves if ">" in str(m)]
            move = rng.choice(plays if plays and rng.random() < 0.7 else moves)
            game.apply(move)
            zones = game.view(0)["zones"]
            all_placed = not zones["stock"] and not zones["waste"] and \
                (version == 2 or not any(zones["reserve"]))
            closed = False
            if move.name in STOCK_TURNS and (version == 2 or game.variable("passes") >= 3):
                here, offered = position(game), bool(expected_moves(game, version) - STOCK_TURNS)
                if cycle is None and before is None:  # every pile has just opened: a cycle begins here
                    cycle = ({here}, offered)
                else:
                    seen, any_offered = cycle if cycle is not None else ({before[0]}, before[1])
                    closed = here in seen and not any_offered
                    cycle = (seen | {here}, any_offered or (offered and here not in seen))
            else:
                cycle = None
            if all_placed:
                assert game.outcome == "won"
            elif closed:
                assert game.outcome == "lost" and "cycle" in game.reason, (seed, [str(m) for m in game.history])
            elif game.is_over and len(game.history) == game.max_moves:
                assert game.outcome == "limit"  # drawing on while a card could be played
            elif game.is_over:
                assert game.outcome == "lost" and expected_moves(game, version) == set(), seed
            else:
                assert game.outcome is None, (seed, [str(m) for m in game.history])


def test_v1_the_first_card_turned_must_be_played_before_the_deck_is_turned_again() -> None:
    game = load_ruleset("cascades").new_game(seed=11)
    game.apply(game.parse_move("draw"))
    assert [str(m) for m in game.legal_moves()] == ["w>t1"]  # it always fits the empty first tier
    game.apply(game.parse_move("w>t1"))
    assert "draw" in [str(m) for m in game.legal_moves()]


def test_v2_drawing_is_never_held_back_by_the_first_card() -> None:
    game = load_ruleset("cascades-v2").new_game(seed=11)
    game.apply(game.parse_move("draw"))
    assert "draw" in [str(m) for m in game.legal_moves()]
