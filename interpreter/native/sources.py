"""The fixed code every generated module carries (the knowledge of cards, piles, picks, the
store of positions for `end.repeat`, the driver of turns and playouts), as text that
module.py joins to what it generates.
"""

from __future__ import annotations

from typing import Any



_RUNTIME = '''
import numpy as np
from numba import njit

from cardrules.native.runtime import *  # noqa: F403 - the shared helpers, compiled once


@njit(cache=True)
def top_of(xs, lo, hi):
    return xs[hi - 1] if hi > lo else NOCARD


@njit(cache=True)
def bottom_of(xs, lo, hi):
    return xs[lo] if hi > lo else NOCARD


@njit(cache=True)
def contains(xs, x):
    """`x in xs`, a list built by list(...)."""
    for y in xs:
        if y == x:
            return True
    return False


@njit(cache=True)
def among(x, xs):
    """`x in [a, b, ...]`, a list written out: `x`, then every item, computed before they are compared
    (the arguments, in the order Python computes them); then as `contains`."""
    return contains(xs, x)


@njit(cache=True)
def winners_mask(seats, players):
    """The winning seats an end condition names, as a bit mask, each seat once (a seat the game has
    not stops: Python reports it)."""
    mask = 0
    for seat in seats:
        if seat < 0 or seat >= players:
            raise Stop("winners: a seat the game has not")
        mask |= 1 << seat
    return mask


@njit(cache=True)
def list_sum(xs):
    """`sum(xs)` of a list of numbers (none in it stops: Python says where)."""
    total = 0
    for x in xs:
        total = add(total, ck(x))
    return total


@njit(cache=True)
def list_best(xs, most):
    """`min(xs)` (`max(xs)` if most) of a list of numbers: none if empty; none beside other items
    stops (Python's min cannot order it)."""
    if len(xs) == 1:
        return xs[0]
    best = NO_INT
    for i in range(len(xs)):
        x = ck(xs[i])
        if i == 0 or (x > best if most else x < best):
            best = x
    return best


@njit(cache=True)
def enc(k, src, dst, n, pick, seat):
    return ((((k * NP1 + src + 1) * NP1 + dst + 1) * CAP1 + n) * PK + pick + 2) * SE + seat + 1


@njit(cache=True)
def sees(C, N, U, card, pile, seat):
    kind = VISIBILITY[pile]
    if kind == 0:
        return True
    if TRACKS and seat >= 0 and (U[KN + card] >> seat) & 1 == 1:
        return True  # shown to the seat, or seen by it before it went out of its sight
    if kind == 1:
        return False
    if kind == 2 and seat >= 0 and PILE_OWNER[pile] == seat:
        return True
    if kind == 3:
        return N[pile] > 0 and C[pile, N[pile] - 1] == card and U[card] == 1
    return U[card] == 1


@njit(cache=True)
def blind_card(C, N, U, pile, seat):
    for j in range(N[pile] - 1, -1, -1):
        if not sees(C, N, U, C[pile, j], pile, seat):
            return C[pile, j]
    raise Stop("no hidden card")


@njit(cache=True)
def position_key(C, N, U, key):
    for p in range(len(N)):
        for i in range(N[p]):
            card = C[p, i]
            key[card] = ((p * CAP1 + i) * 2 + U[card]) + 1
'''


# Who knows which card (a ruleset that `tracks_knowledge`: state.State.known): U[KN + card] is the
# bit mask of the seats that know the card where they cannot see it. Moving cards keeps it as
# state.State.move_cards does; `forget` is a draw of chance's (state.State._rearrange).
_KNOWLEDGE = '''
from cardrules.native.runtime import move_cards as move_cards_unseen


@njit(cache=True)
def private_seers(C, N, U, card, pile):
    """The seats that see `card` on `pile`, -1 (every seat's bit) if all do (engine.State.private_seers)."""
    if sees(C, N, U, card, pile, -1):
        return -1
    mask = U[KN + card]
    owner = PILE_OWNER[pile]
    if owner >= 0 and (mask >> owner) & 1 == 0 and sees(C, N, U, card, pile, owner):
        mask |= 1 << owner
    return mask


@njit(cache=True)
def move_cards(C, N, U, src, dst, n, flip, face, bottom, TMP):
    """Move cards as native_runtime.move_cards does; who saw a card keeps knowing it out of sight."""
    if n <= 0:
        return
    n = min(n, N[src])
    moved = C[src, N[src] - n:N[src]].copy()
    masks = np.empty(n, dtype=np.int64)
    for i in range(n):
        masks[i] = private_seers(C, N, U, moved[i], src)
    move_cards_unseen(C, N, U, src, dst, n, flip, face, bottom, TMP)
    for i in range(n):
        if masks[i] != 0:
            U[KN + moved[i]] = 0 if sees(C, N, U, moved[i], dst, -1) else masks[i]


@njit(cache=True)
def turn_card(C, N, U, card, face):
    """Turn a card where it lies; who saw it keeps knowing it out of sight (engine.State.turn)."""
    pile = 0
    for p in range(len(N)):
        for i in range(N[p]):
            if C[p, i] == card:
                pile = p
    mask = private_seers(C, N, U, card, pile)
    U[card] = face
    if mask != 0:
        U[KN + card] = 0 if sees(C, N, U, card, pile, -1) else mask


@njit(cache=True)
def forget(C, N, U, pile, n):
    """Nobody knows any more where the top n cards of `pile` lie (they are shuffled or buried)."""
    for i in range(max(N[pile] - n, 0), N[pile]):
        U[KN + C[pile, i]] = 0
'''


_ON_PILE = '''
@njit(cache=True)
def on_pile(C, N, pile, card):
    """Does `pile` hold `card`?"""
    for i in range(N[pile]):
        if C[pile, i] == card:
            return True
    return False
'''


_PICK_SETS = '''
@njit(cache=True)
def n_choose(n, k):
    """How many sets of k of n items (at most limits.MAX_PICK_SETS: the deck's sets of k cards)."""
    r = 1
    for i in range(k):
        r = r * (n - i) // (i + 1)
    return r


@njit(cache=True)
def next_set(PLACES, k, n, first):
    """The places of the next set of k of n items, in itertools.combinations' order."""
    if first:
        for t in range(k):
            PLACES[t] = t
        return
    i = k - 1
    while PLACES[i] == i + n - k:
        i -= 1
    PLACES[i] += 1
    for t in range(i + 1, k):
        PLACES[t] = PLACES[t - 1] + 1


@njit(cache=True)
def set_seen(SEEN, seen, PICKED, k):
    """Was a set of cards of the same codes offered before (SEEN[:seen], codes sorted)? If not, keep it."""
    key = np.empty(k, dtype=np.int64)
    for t in range(k):
        key[t] = CODE[PICKED[t]]
    key = np.sort(key)
    for i in range(seen):
        same = True
        for t in range(k):
            if SEEN[i, t] != key[t]:
                same = False
                break
        if same:
            return True
    SEEN[seen, :] = key
    return False
'''


# `end.repeat` (game_end.GameEnd._position_key): every position a game reaches is counted, in a store
# kept in KEY after the cycle's scratch key (KEY[:NC]), so that the compiled functions' arguments
# stay as they are; a KEY of NC words keeps no store and counts nothing (a greedy bot's trial copy,
# which forgets the positions seen as Game.determinize does: one position counted once there can
# end nothing, since `count` is at least 2). The store: KEY[NC] the keys kept, KEY[NC + 1] how many
# it has room for, KEY[NC + 2] the size of its table; then each card's code (scratch), the key of
# the position now, the open-addressing table (0: empty, else the key's row + 1), the keys a row
# each, and their counts. Keys are exact (the cards packed RBITS bits each, then every variable and
# the turn's fields as Python's key has them), and a hash match is always checked word by word.
# NativeGame.repeat_room makes room; past MAX_REPEAT_POSITIONS keys compiled code stops.
_REPEAT = '''
@njit(cache=True)
def repeat_key(C, N, U, V, M, CODES, KW):
    """The position's key (engine.Game._position_key) in KW: each card's place and face, the
    variables, the seat to act and its phase, the seats acting for others, the next seat and the
    direction, and the seats asked to act out of turn (engine.State.asking: the turn to go back
    to, the move they are asked after and the seats still to ask, in order)."""
    for c in range(NC):
        CODES[c] = U[c]  # a card in no pile: its face alone
    for p in range(NP):
        for i in range(N[p]):
            c = C[p, i]
            CODES[c] = U[c] + 2 * (1 + p * CAP1 + i)
    KW[:] = 0
    for c in range(NC):
        KW[c // RPER] |= CODES[c] << (RBITS * (c % RPER))
    w = RCARDS
    for s in range(NV):
        KW[w + s] = V[s]
    w += NV
    frames = M[24]
    KW[w], KW[w + 1], KW[w + 2] = M[10], M[11], frames
    for j in range(2 * min(frames, 4)):  # (where every seat plays at once, frames are only added: their number tells)
        KW[w + 3 + j] = M[16 + j]
    KW[w + 11], KW[w + 12] = M[26], M[27]
    w += 13
    if M[28] == 1:
        n = M[12]
        KW[w], KW[w + 1], KW[w + 2], KW[w + 3], KW[w + 4], KW[w + 5] = 1, M[29], M[30], M[31], M[35], n - M[34]
        for j in range(M[34], n):
            KW[w + 6 + j - M[34]] = (M[32] + M[33] * (j + 1)) % n


@njit(cache=True)
def repeat_add(KEY, times):
    """Count `times` more occurrences of the key now (KW, in the store): how often it has occurred."""
    used, room, size = KEY[NC], KEY[NC + 1], KEY[NC + 2]
    kw = NC + 3 + NC
    table = kw + RW
    keys = table + size
    counts = keys + room * RW
    KW = KEY[kw:table]
    mask = size - 1
    i = key_hash(KW) & mask
    while KEY[table + i] != 0:
        row = KEY[table + i] - 1
        if same(KEY[keys + row * RW:keys + (row + 1) * RW], KW):
            KEY[counts + row] += times
            return KEY[counts + row]
        i = (i + 1) & mask
    if used == room:
        raise Stop("more positions than end.repeat keeps")
    KEY[keys + used * RW:keys + (used + 1) * RW] = KW
    KEY[counts + used] = times
    KEY[table + i] = used + 1
    KEY[NC] = used + 1
    return times


@njit(cache=True)
def repeat_seen(C, N, U, V, M, KEY, times):
    """`end.repeat`: count the position now `times` more times; how often it has occurred (0 where
    KEY keeps no store)."""
    if len(KEY) == NC:
        return 0
    kw = NC + 3 + NC
    repeat_key(C, N, U, V, M, KEY[NC + 3:kw], KEY[kw:kw + RW])
    return repeat_add(KEY, times)


@njit(cache=True)
def repeat_copy(OLD, NEW):
    """Count every key of the store OLD in the (larger, empty) store NEW."""
    size = OLD[NC + 2]
    keys = NC + 3 + NC + RW + size
    counts = keys + OLD[NC + 1] * RW
    kw = NC + 3 + NC
    for row in range(OLD[NC]):
        NEW[kw:kw + RW] = OLD[keys + row * RW:keys + (row + 1) * RW]
        repeat_add(NEW, OLD[counts + row])
'''


def _repeat_source(rules: Any) -> str:
    """`_REPEAT` with the sizes of this ruleset's position keys."""
    ncards, npiles = len(rules.deck), rules.pile_count
    bits = (2 * (1 + npiles * (ncards + 1)) + 1).bit_length()  # a card's code: 2 x (1 + its place) + its face
    per_word = 63 // bits
    card_words = (ncards + per_word - 1) // per_word
    words = card_words + rules.var_count + 13 + 6 + rules.max_players
    return "\n".join([f"RBITS = {bits}", f"RPER = {per_word}", f"RCARDS = {card_words}",
                      f"NV = {rules.var_count}", f"RW = {words}", _REPEAT])


def repeat_store(native: Any, room: int) -> Any:
    """An empty store of positions seen (`_REPEAT`) with room for `room` keys, after the scratch key."""
    np = native.np
    ncards = len(native.rules.deck)
    words = int(native.module.RW)
    size = 16
    while size < 2 * room:
        size *= 2
    store = np.zeros(ncards + 3 + ncards + words + size + room * (words + 1), dtype=np.int64)
    store[ncards + 1], store[ncards + 2] = room, size
    return store


_DRIVER = '''
@njit(cache=True)
def next_phase(M, end_turn):
    """The turn's next phase (interrupt phases are entered only by `act`), or the next turn."""
    following = M[11] + 1
    while following < NPHASES and INTERRUPT[following] == 1:
        following += 1
    if NPHASES > 0 and not end_turn and following < NPHASES:
        M[11] = following
        return
    first = FIRST_PHASE
    if ROTATION:
        if M[26] >= 0:  # `turn_to` chose the seat
            M[10] = M[26]
            M[26] = -1
        else:
            M[10] = (M[10] + M[27]) % M[12]
        M[11] = first
    elif NPHASES > 0:
        M[11] = first


@njit(cache=True)
def advance_turn(C, N, U, V, O, M, out, end_turn):
    """After a move: back to the seat an `act` interrupted, or on to the next phase or turn; an
    optional phase that offers no move is passed over."""
    if M[24] > 0:
        M[24] -= 1
        f = M[24]
        M[10] = M[16 + 2 * f]
        M[11] = M[17 + 2 * f]
        end_turn = False
    next_phase(M, end_turn)
    skip_optional_phases(C, N, U, V, O, M, out)


@njit(cache=True)
def skip_optional_phases(C, N, U, V, O, M, out):
    """An optional phase that offers the seat no move is passed over."""
    for _ in range(NPHASES * M[12]):
        if M[0] != 0 or OPTIONAL[M[11]] == 0:
            return
        if legal(C, N, U, V, O, M, out) != 0:
            return
        next_phase(M, False)


@njit(cache=True)
def may_act_out_of_turn(C, N, U, V, O, M, out, seat, phase, after):
    """Has `seat`, if asked now, a move out of turn other than `pass`? (A look: M is restored.)"""
    saved_seat, saved_phase, saved_asking, saved_after = M[10], M[11], M[28], M[35]
    M[10], M[11], M[28], M[35] = seat, phase, 1, after
    cnt = legal(C, N, U, V, O, M, out)
    M[10], M[11], M[28], M[35] = saved_seat, saved_phase, saved_asking, saved_after
    if cnt < 0:
        raise Stop("too many legal moves")
    for i in range(cnt):
        if DECLINES[decode(out[i])[0]] == 0:
            return True
    return False


@njit(cache=True)
def ask(C, N, U, V, O, M, out, mover, direction, start, resume, phase, chosen, after):
    """Give the move to the first seat of the round from `mover` (from its `start`-th) to be asked
    out of turn, or, if none is, back to the turn that goes on (engine.Game._ask)."""
    n = M[12]
    for j in range(start, n):
        seat = (mover + direction * (j + 1)) % n
        if ASKS_EVERYONE == 1 or may_act_out_of_turn(C, N, U, V, O, M, out, seat, phase, after):
            M[26] = -1
            M[28], M[29], M[30], M[31] = 1, resume, phase, chosen
            M[32], M[33], M[34], M[35] = mover, direction, j + 1, after
            M[10], M[11] = seat, phase
            return
    if M[28] == 1:
        back_to_turn(M, resume, phase, chosen)


@njit(cache=True)
def back_to_turn(M, resume, phase, chosen):
    """The asking is over: the turn goes on where it was (engine.Game._back_to_turn)."""
    M[28] = 0
    M[10], M[11] = resume, phase
    if chosen >= 0:
        M[26] = chosen


@njit(cache=True)
def answered(C, N, U, V, O, M, out, k, resume, phase, chosen, seat):
    """After a move out of turn or a `pass` (engine.Game._answered)."""
    if DECLINES[k] == 1:
        ask(C, N, U, V, O, M, out, M[32], M[33], M[34], resume, phase, chosen, M[35])
        return
    if M[26] >= 0:  # the move's `turn_to`: that seat's turn starts now
        M[28] = 0
        M[10], M[11] = M[26], FIRST_PHASE
        M[26] = -1
    else:
        back_to_turn(M, resume, phase, chosen)
    skip_optional_phases(C, N, U, V, O, M, out)
    if M[0] == 0 and OPENS[k + 1] == 1:
        ask(C, N, U, V, O, M, out, seat, M[27], 0, M[10], M[11], M[26], k)


@njit(cache=True)
def decode(a):
    """An action number's fields: template, source, destination, count, pick, seat, selection."""
    sel = a % SELR
    a //= SELR
    seat = a % SE - 1
    r = a // SE
    pick = r % PK - 2
    r //= PK
    n = r % CAP1
    r //= CAP1
    dst = r % NP1 - 1
    r //= NP1
    src = r % NP1 - 1
    return r // NP1, src, dst, n, pick, seat, sel


@njit(cache=True)
def take_cards(C, N, U, M, MC, src, n, pick, sel):
    """The cards a move takes, into MC; returns its first card (NOCARD: none) and its pick (a blind
    pick resolved to the card it gets). `take: {any: K}`: the other cards are digits of `sel` (the
    selection field past the digits of a `select`: PICK_AT)."""
    if pick == -1:
        pick = blind_card(C, N, U, src, M[10])
    if pick >= 0:
        MC[0] = pick
        for i in range(1, n):
            MC[i] = (sel // SELPOW[i - 1]) % CAP1
    elif src >= 0:
        for i in range(n):
            MC[i] = C[src, N[src] - n + i]
    card = MC[0] if pick >= 0 or (src >= 0 and n > 0) else NOCARD
    return card, pick


@njit(cache=True)
def play(C, N, U, V, O, M, out, cnt, BK, MC, TMP, a):
    """Apply action `a` (one of out[:cnt]) with its triggers and the turn that follows; the end is
    not checked and the next moves are not listed (`after_change` settles)."""
    k, b_src, b_dst, n, pick, seat, b_sel = decode(a)
    b_player = M[10]
    asked = ASKS_OUT_OF_TURN and (M[28] == 1 or OUT_OF_TURN[k] == 1)  # a seat asked answers, or acts unasked
    resume, phase, chosen = (M[29], M[30], M[31]) if M[28] == 1 else (M[10], M[11], M[26])
    if asked and M[28] == 0:
        M[26] = -1  # kept aside, so that a `turn_to` of the move can be told from it
    cycle_begin(C, N, U, V, O, M, out, cnt, BK, k)
    card, pick = take_cards(C, N, U, M, MC, b_src, n, pick, b_sel // PICK_AT[k])
    M[3] += 1
    M[5] = k
    M[14] = 0
    M[15] = 0
    apply_effects(C, N, U, V, O, M, MC, TMP, k, b_src, b_dst, n, card, pick, seat, b_player, b_sel)
    triggers(C, N, U, V, O, M, TMP, k, b_player)
    if ASKS_OUT_OF_TURN:
        if M[0] == 0 and asked:
            answered(C, N, U, V, O, M, out, k, resume, phase, chosen, b_player)
        elif M[0] == 0 and M[14] == 0:
            advance_turn(C, N, U, V, O, M, out, M[15] == 1)
            if M[0] == 0 and OPENS[k + 1] == 1:
                ask(C, N, U, V, O, M, out, b_player, M[27], 0, M[10], M[11], M[26], k)
    elif M[0] == 0 and M[14] == 0 and not SIMULTANEOUS:  # (where every seat plays at once, no turn to pass on)
        advance_turn(C, N, U, V, O, M, out, M[15] == 1)


@njit(cache=True)
def step(C, N, U, V, O, M, out, cnt, CK, BK, KEY, MC, TMP, a):
    """Apply action `a` (one of out[:cnt]) and settle: returns the number of legal moves after."""
    play(C, N, U, V, O, M, out, cnt, BK, MC, TMP, a)
    return after_change(C, N, U, V, O, M, out, CK, BK, KEY)


@njit(cache=True)
def leaders(C, N, U, V, O, M):
    """The seats whose evaluation (the heuristic, else the score) is the highest, as a bit mask."""
    best = NO_INT
    mask = 0
    for p in range(M[12]):
        v = evaluation(C, N, U, V, O, M, p)
        if v > best:
            best = v
            mask = 0
        if v == best:
            mask |= 1 << p
    return mask


@njit(cache=True)
def track_leaders(C, N, U, V, O, M, LEAD, stats, held):
    """After a move: the leaders kept in LEAD[moves made], and where one seat leads and another
    led alone before, a lead change counted (stats[4]); returns the leader held now (a bit mask)."""
    mask = leaders(C, N, U, V, O, M)
    if M[3] < len(LEAD):
        LEAD[M[3]] = mask
    else:
        raise Stop("a game longer than the leaders kept")
    if mask & (mask - 1) == 0:  # one leader: a change if another led before
        if held >= 0 and mask != held:
            stats[4] += 1
        held = mask
    return held


@njit(cache=True)
def playout(C, N, U, V, O, M, out, CK, BK, KEY, MC, TMP, MT, KINDS, W, stats, LEAD):
    """Play to the end, each seat choosing as its bot (KINDS[seat]: RANDOM_SEAT or GREEDY_SEAT,
    native/bots.py; W: greedy_work's arrays, None where no seat is greedy) with its own Mersenne
    Twister state MT[seat] (a Python `random.Random`'s): the moves Python's random and greedy bots
    make. `stats`: decisions, legal moves summed over them, decisions with a choice, turns (runs of moves
    by one seat), lead changes; LEAD[i] the leaders after move i (LEAD[0]: at the start)."""
    cnt = legal(C, N, U, V, O, M, out)
    if cnt < 0:
        raise Stop("too many legal moves")
    several = M[12] > 1
    last = -1
    held = -1
    if several:
        LEAD[0] = leaders(C, N, U, V, O, M)
    while M[0] == 0:
        stats[0] += 1
        stats[1] += cnt
        if cnt > 1:
            stats[2] += 1
        mover = M[10]
        a = choose_action(C, N, U, V, O, M, out, cnt, MT[mover], KINDS[mover], W)
        cnt = step(C, N, U, V, O, M, out, cnt, CK, BK, KEY, MC, TMP, a)
        if mover != last:
            stats[3] += 1
        last = mover
        if several:
            held = track_leaders(C, N, U, V, O, M, LEAD, stats, held)
    return score(C, N, U, V, O, M, 0)
'''


_LEGAL_NAMES = '''
@njit(cache=True)
def legal_names(C, N, U, V, O, M):
    """`legal_moves()`: the names (ids) of the legal moves of the seat to act now, one per move in
    the listing's order, listed into arrays of their own (a listing under way may be read still)."""
    if M[0] != 0:
        return np.empty(0, dtype=np.int64)
    room = 64
    while True:
        codes = np.empty(room, dtype=np.int64)
        cnt = legal(C, N, U, V, O, M, codes)
        if cnt >= 0:
            break
        if room >= MAX_LEGAL:
            raise Stop("too many legal moves")
        room = min(room * 16, MAX_LEGAL)
    names = np.empty(cnt, dtype=np.int64)
    for i in range(cnt):
        names[i] = LEGAL_NAMES[codes[i] // (NP1 * NP1 * CAP1 * PK * SE * SELR)]
    return names
'''


_SAME_ITEMS = '''
@njit(cache=True)
def same_items(xs, ys):
    """`xs == ys` of two lists of one kind of item: the same items in the same order."""
    if len(xs) != len(ys):
        return False
    for i in range(len(xs)):
        if xs[i] != ys[i]:
            return False
    return True
'''


_STR_BEST = '''
@njit(cache=True)
def str_best(xs, most):
    """`min(xs)` (`max(xs)` if most) of a list of strings, by the strings' order (STR_RANK), not
    their ids: none if empty; none beside other items stops (Python cannot order it)."""
    if len(xs) == 1:
        return xs[0]
    best = NO_STR
    for i in range(len(xs)):
        x = xs[i]
        if x < 0:
            raise Stop("ordering none")
        if i == 0 or (STR_RANK[x] > STR_RANK[best] if most else STR_RANK[x] < STR_RANK[best]):
            best = x
    return best
'''
