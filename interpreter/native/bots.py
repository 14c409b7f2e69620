"""The bots of native playouts: compiled code (`SOURCE`, part of every generated module, native/backend.py)
that chooses a seat's move as `bots.RandomBot` or `bots.GreedyBot` does, from the same Mersenne
Twister draws.

`choose_action(C, N, U, V, O, M, out, cnt, MT, kind, W)` is the move of the seat to act (`M[10]`)
among `out[:cnt]`, for any playout loop: `kind` RANDOM_SEAT or GREEDY_SEAT, `MT` that seat's
Mersenne Twister (a `random.Random` state: native.Native.playout), `W = greedy_work(C, N, U, V, M,
len(out))` the arrays the greedy bot works in, made once per playout, or None where no seat is
greedy: Numba then leaves the greedy bot out of what it compiles (a branch on `W is None` is
decided by the argument's type), which spares random playouts some 4 CPU-seconds of compiling.

`greedy_choose` is `GreedyBot.choose` on the state arrays: the position copied, the cards the seat
cannot see dealt anew on the copy (`determinize`: `Game.determinize`), each of the game's legal moves
that the copy offers tried on a copy of it (as the solver's search keeps a stack of copies, so no
undo), one the copy lacks counted as a gain of 0, and the moves whose gain of the seat's evaluation
is the highest drawn among: always one of the game's moves. Which cards a seat sees is the
compiled `sees` (the blind picks' rule, which reads what each seat knows of cards it cannot see,
`State.known`, kept after the faces in U where the ruleset keeps it).
"""

from __future__ import annotations

SEAT_KINDS = ("random", "greedy")  # the bots a native playout plays, by their number in compiled code

SOURCE = '''
RANDOM_SEAT, GREEDY_SEAT = 0, 1
MAX_REMEMBERED = 1 << 16
VIEW_HASH_MULTIPLIER = 0x9E3779B97F4A7C15


@njit(cache=True)
def greedy_work(C, N, U, V, M, size):
    """The arrays greedy_choose works in (made once per playout): the determinized copy and its
    `size` legal moves at most, a copy of it to try a move on with the scratch arrays a step needs
    (on a copy no cycle of `end.cycle` is under way, so one step keeps at most two of its positions),
    the moves of the best gain, and each seat's memory of the positions it decided in (view_hash;
    a hash table of twice the moves the game may still make, at most 2 * MAX_REMEMBERED)."""
    work = max(NC, 1)
    left = M[4] - M[3] if M[4] >= 0 else MAX_REMEMBERED
    room = 64
    while room < 2 * (min(left, MAX_REMEMBERED) + 2):
        room *= 2
    return (C.copy(), N.copy(), U.copy(), V.copy(), M.copy(), np.empty(size, dtype=np.int64),
            C.copy(), N.copy(), U.copy(), V.copy(), M.copy(), np.empty(size, dtype=np.int64),
            np.empty(size, dtype=np.int64), np.zeros((2, NC), dtype=np.int64), np.zeros(NC, dtype=np.int64),
            np.zeros(NC, dtype=np.int64), np.zeros(work, dtype=np.int64), np.zeros(work, dtype=np.int64),
            np.zeros((M[12], room), dtype=np.uint64), np.zeros(M[12], dtype=np.int64))


@njit(cache=True)
def view_hash(C, N, U, V, M, seat):
    """`bots.view_hash`: the position as `seat` sees it (each pile's size and cards, a card it
    cannot see as 1, the numbers and truth values of the variables, the seat to act, the phase),
    hashed to 64 bits in unsigned arithmetic, which wraps as Python's `& (2**64 - 1)` does."""
    K = np.uint64(VIEW_HASH_MULTIPLIER)
    h = np.uint64(0)
    for p in range(len(N)):
        h = h * K + np.uint64(N[p] + 1)
        for i in range(N[p]):
            card = C[p, i]
            h = h * K + (np.uint64(card + 2) if sees(C, N, U, card, p, seat) else np.uint64(1))
    for s in NUMBER_SLOTS:
        h = h * K + np.uint64(V[s])
    h = h * K + np.uint64(M[10] + 1)
    h = h * K + np.uint64(M[11] + 1)
    return h if h != np.uint64(0) else np.uint64(1)


@njit(cache=True)
def remembered(T, h, add):
    """Is `h` in the table T (open addressing, 0 for an empty place)? With `add`, put it there;
    a table more than half full stops compiled code (the Python bot remembers without bound)."""
    mask = np.int64(len(T) - 1)
    i = np.int64((h ^ (h >> np.uint64(29))) & np.uint64(mask))
    while T[i] != np.uint64(0):
        if T[i] == h:
            return True
        i = (i + np.int64(1)) & mask
    if add:
        T[i] = h
    return False


@njit(cache=True)
def copy_position(C, N, U, V, M, C2, N2, U2, V2, M2):
    """Copy a position into another's arrays (of each pile, only the cards it holds)."""
    for p in range(len(N)):
        n = N[p]
        N2[p] = n
        copy_into(C2[p], C[p], n)
    copy_into(U2, U, len(U))
    copy_into(V2, V, len(V))
    copy_into(M2, M, len(M))


@njit(cache=True)
def determinize(C, N, U, V, M, seat, MT):
    """`Game.determinize` in place: the cards `seat` cannot see, gathered pile by pile, sorted by
    card id, shuffled as Python's `random.shuffle` with the seat's Mersenne Twister MT and put back
    in their places, each place keeping the face of the card that lay there and what other seats
    knew of it (`State.known`, after the faces in U where the ruleset keeps it) and the marks on it
    (per-card variables, in V from each slot of MARKS); then a new seed for the
    draws of chance to come (`getrandbits(64)`) and no cycle under way."""
    piles = np.empty(NC, dtype=np.int64)
    places = np.empty(NC, dtype=np.int64)
    faces = np.empty(NC, dtype=np.int64)
    known = np.zeros(NC, dtype=np.int64)
    cards = np.empty(NC, dtype=np.int64)
    marks = np.empty((len(MARKS), NC), dtype=np.int64)
    m = 0
    for p in range(len(N)):
        for i in range(N[p]):
            card = C[p, i]
            if not sees(C, N, U, card, p, seat):
                piles[m], places[m], faces[m], cards[m] = p, i, U[card], card
                if TRACKS:
                    known[m] = U[KN + card]
                for j in range(len(MARKS)):
                    marks[j, m] = V[MARKS[j] + card]
                m += 1
    hidden = np.sort(cards[:m])
    mt_shuffle(MT, hidden)
    for k in range(m):
        C[piles[k], places[k]] = hidden[k]
        U[hidden[k]] = faces[k]
        if TRACKS:  # what other seats know of a hidden card stays with its place (Game.determinize)
            U[KN + hidden[k]] = known[k]
        for j in range(len(MARKS)):  # so do its marks
            V[MARKS[j] + hidden[k]] = marks[j, k]
    M[36] = getrandbits64(MT)
    M[6] = 0
    M[7] = 0
    M[8] = 0


@njit(cache=True)
def greedy_choose(C, N, U, V, O, M, out, cnt, MT, W):
    """`bots.GreedyBot.choose` for the seat to act (M[10]) among its legal moves out[:cnt], with its
    Mersenne Twister MT, in the arrays W (greedy_work): the move whose gain of the seat's evaluation
    on the seat's determinized copy is the highest, drawn among equals. A move the copy does not
    offer gains 0 (it leaves the copy as it is); a move only the copy offers is never chosen."""
    TC, TN, TU, TV, TM, TOUT, C2, N2, U2, V2, M2, OUT2, BEST, CK, BK, KEY, MC, TMP, SEEN, HELD = W
    seat = M[10]
    if not remembered(SEEN[seat], view_hash(C, N, U, V, M, seat), True):
        HELD[seat] += 1
        if 2 * HELD[seat] > len(SEEN[seat]):
            raise Stop("more positions than the greedy bot keeps")
    copy_position(C, N, U, V, M, TC, TN, TU, TV, TM)
    determinize(TC, TN, TU, TV, TM, seat, MT)
    tcnt = legal(TC, TN, TU, TV, O, TM, TOUT)
    if tcnt < 0:
        raise Stop("too many legal moves")
    before = evaluation(TC, TN, TU, TV, O, TM, seat)
    found = 0
    best_gain = sub(before, before)
    best_fresh = False
    for i in range(cnt):
        a = out[i]
        offered = False
        for j in range(tcnt):
            if TOUT[j] == a:
                offered = True
                break
        gain = sub(before, before)
        fresh = False  # a move the copy lacks leaves it as it is: where the seat has been
        if offered:
            copy_position(TC, TN, TU, TV, TM, C2, N2, U2, V2, M2)
            OUT2[:tcnt] = TOUT[:tcnt]  # the copy's moves, as a step reads them (end.cycle)
            step(C2, N2, U2, V2, O, M2, OUT2, tcnt, CK, BK, KEY, MC, TMP, a)
            gain = sub(evaluation(C2, N2, U2, V2, O, M2, seat), before)
            fresh = not remembered(SEEN[seat], view_hash(C2, N2, U2, V2, M2, seat), False)
        # ranked as (fresh, gain): a move to a position not decided in before beats any other
        if found == 0 or (fresh and not best_fresh) or (fresh == best_fresh and gain > best_gain):
            found = 0
            best_gain = gain
            best_fresh = fresh
        if gain == best_gain and fresh == best_fresh:
            BEST[found] = a
            found += 1
    return BEST[randbelow(MT, found)]


@njit(cache=True)
def choose_action(C, N, U, V, O, M, out, cnt, MT, kind, W):
    """The move of the seat to act (M[10]) among out[:cnt] (cnt > 0), as bots.RandomBot (kind
    RANDOM_SEAT) or bots.GreedyBot (GREEDY_SEAT) with the seat's Mersenne Twister MT chooses it."""
    if W is None:  # no greedy seat (decided when compiled)
        return out[randbelow(MT, cnt)]
    if kind == RANDOM_SEAT:
        return out[randbelow(MT, cnt)]
    return greedy_choose(C, N, U, V, O, M, out, cnt, MT, W)
'''
