"""The helpers every compiled ruleset shares (native/backend.py): checked arithmetic, moving cards, turns,
shuffles, and Python's Mersenne Twister. Compiled by Numba once and cached beside this file, so that a
ruleset's own module compiles only its own code. Imported only by generated modules (Numba needed).
"""

from typing import Any

import numpy as np
from numba import njit, objmode

from ..model.chance import chance_stream

NO_INT = -9223372036854775807 - 1  # an int that is `none`: below every number (limits.INT_MIN)
NO_STR = -1  # a string that is `none`
NO_MASK = -1  # a list attribute of no card
INT_MAX = 9223372036854775807  # numbers are -INT_MAX .. INT_MAX, as in base/limits.py
SMALL = 3037000499  # the largest n with n * n <= INT_MAX: a product of two such never overflows


class Stop(Exception):
    """Compiled code met an error (native.NativeStop): the Python backend replays to report it."""


# Every check below is made before the operation, on values that cannot overflow: a test of the
# result after a wrapping operation (`r // b != a`) is undefined behaviour to the compiler, which
# may remove it. A result outside -INT_MAX .. INT_MAX (-2 ** 63 included) stops compiled code.


@njit(cache=True)
def ck(x):
    if x == NO_INT:
        raise Stop("none")
    return x


@njit(cache=True)
def add(a, b):
    if a == NO_INT or b == NO_INT:
        raise Stop("none")
    if (b > 0 and a > INT_MAX - b) or (b < 0 and a < -INT_MAX - b):
        raise Stop("overflow")
    return a + b


@njit(cache=True)
def sub(a, b):
    if a == NO_INT or b == NO_INT:
        raise Stop("none")
    if (b < 0 and a > INT_MAX + b) or (b > 0 and a < -INT_MAX + b):
        raise Stop("overflow")
    return a - b


@njit(cache=True)
def neg(a):
    if a == NO_INT:
        raise Stop("none")
    return -a


@njit(cache=True)
def mul(a, b):
    if a == NO_INT or b == NO_INT:
        raise Stop("none")
    if -SMALL <= a <= SMALL and -SMALL <= b <= SMALL:
        return a * b
    if a == 0 or b == 0:
        return 0
    if abs(a) > INT_MAX // abs(b):  # (both within -INT_MAX .. INT_MAX, so abs cannot overflow)
        raise Stop("overflow")
    return a * b


@njit(cache=True)
def div(a, b):
    if a == NO_INT or b == NO_INT:
        raise Stop("none")
    if b == 0:
        raise Stop("division by zero")
    return a // b


@njit(cache=True)
def mod(a, b):
    if a == NO_INT or b == NO_INT:
        raise Stop("none")
    if b == 0:
        raise Stop("division by zero")
    return a % b


@njit(cache=True)
def power(a, b):
    if a == NO_INT or b == NO_INT:
        raise Stop("none")
    if b < 0:
        raise Stop("negative exponent")
    if b == 0:
        return 1
    if a == 0 or a == 1:
        return a
    if a == -1:
        return -1 if b % 2 == 1 else 1
    if b >= 64:
        raise Stop("overflow")
    r = 1
    for _ in range(b):
        r = mul(r, a)
    return r


# A range longer than this stops compiled code, and the Python backend (which counts its steps)
# computes the rest; nested loops over ranges stay as bounded as loops over cards.
RANGE_LIMIT = 10000


@njit(cache=True)
def range_end(lo, hi):
    """The end of `range(lo, hi)`, at least lo (so that hi - lo, its length, is 0 to RANGE_LIMIT)."""
    if hi <= lo:
        return lo
    if lo <= INT_MAX - RANGE_LIMIT and hi > lo + RANGE_LIMIT:  # (past INT_MAX - RANGE_LIMIT, hi - lo is short)
        raise Stop("a long range")
    return hi


# More sets than this in one `subsets(...)` stops compiled code, and the Python backend (which counts
# its steps) computes the rest, as for a long range.
SUBSETS_LIMIT = 10000


@njit(cache=True)
def subsets_total(n, low, high):
    """How many sets of `low` to `high` of n items there are (at most SUBSETS_LIMIT, else Stop);
    each count is built up to its size or the rest, the smaller, so every step stays below it."""
    total = 0
    for k in range(max(low, 0), min(high, n) + 1):
        c = 1
        for j in range(1, min(k, n - k) + 1):
            c = c * (n - j + 1) // j
            if c > SUBSETS_LIMIT:
                raise Stop("many subsets")
        total += c
        if total > SUBSETS_LIMIT:
            raise Stop("many subsets")
    return total


@njit(cache=True)
def next_subset(idx, st, n, low):
    """The next set of `subsets(...)` in Python's order (fewer items first; then as
    itertools.combinations gives them): the places of its items in idx, its size returned; st[0]
    holds the size of the last set given (-1 before the first). Called once a set, as many times as
    `subsets_total` counts."""
    k = st[0]
    if k >= 0:
        i = k - 1
        while i >= 0 and idx[i] == n - k + i:
            i -= 1
        if i >= 0:
            idx[i] += 1
            for j in range(i + 1, k):
                idx[j] = idx[j - 1] + 1
            return k
        k += 1
    else:
        k = max(low, 0)
    st[0] = k
    for t in range(k):
        idx[t] = t
    return k


@njit(cache=True)
def subset_items(items, idx, k):
    """The items of the set whose places idx[:k] holds, in a new array."""
    chosen = np.empty(k, dtype=np.int64)
    for t in range(k):
        chosen[t] = items[idx[t]]
    return chosen


# `disjoint(groups)`: at most this many groups (a choice is a bit mask of them), and groups tried
# while choosing; past either, compiled code stops and the Python backend (which counts its
# steps) computes it, as for many subsets.
DISJOINT_GROUPS = 62
DISJOINT_LIMIT = 10000


@njit(cache=True)
def disjoint_choices(G):
    """`disjoint(groups)` of the groups in G (a row each: its length, then its items): every choice
    of them no two of which share an item, as a bit mask of the groups, in Python's order (the
    empty choice, then by the number of groups, each number in the order of the groups' places);
    only choices that stay disjoint are extended."""
    n = len(G)
    if n > DISJOINT_GROUPS:
        raise Stop("many groups")
    clash = np.zeros(n, dtype=np.int64)  # the groups that share an item with each
    for g in range(n):
        for h in range(g + 1, n):
            shared = False
            for a in range(1, 1 + G[g, 0]):
                for b in range(1, 1 + G[h, 0]):
                    if G[g, a] == G[h, b]:
                        shared = True
            if shared:
                clash[g] |= 1 << h
                clash[h] |= 1 << g
    out = np.zeros(16, dtype=np.int64)
    m = 1  # the empty choice
    idx = np.empty(n + 1, dtype=np.int64)
    chosen = np.zeros(n + 1, dtype=np.int64)
    tries = 0
    for k in range(1, n + 1):
        found = 0
        d = 0
        idx[0] = -1
        while d >= 0:
            g = idx[d] + 1
            while g <= n - (k - d) and chosen[d] & clash[g] != 0:
                g += 1
                tries += 1
            tries += 1
            if tries > DISJOINT_LIMIT:
                raise Stop("many choices of groups")
            if g > n - (k - d):
                d -= 1
                continue
            idx[d] = g
            if d == k - 1:
                if m == len(out):
                    out = np.concatenate((out, np.zeros(m, dtype=np.int64)))
                out[m] = chosen[d] | (1 << g)
                m += 1
                found += 1
            else:
                chosen[d + 1] = chosen[d] | (1 << g)
                d += 1
                idx[d] = g
        if found == 0:
            break
    return out[:m]


@njit(cache=True)
def popcount(x):
    """The number of bits set in x (x >= 0): the groups of a choice."""
    count = 0
    while x:
        x &= x - 1
        count += 1
    return count


@njit(cache=True)
def clip(i, lo, hi):
    """A slice bound `i` of the window lo..hi (Python's: negative from the end, clamped) as an index."""
    n = hi - lo
    if i < 0:
        i = max(i + n, 0)
    elif i > n:
        i = n
    return lo + i


@njit(cache=True)
def item_face_up(U, card, nocard):
    """`c.face_up` of a comprehension's item `c`, which may be none (`list(top(p) for p in ...)`):
    a card's face, and on none a stop, where the Python backend fails."""
    if card == nocard:
        raise Stop("none")
    return U[card] == 1


@njit(cache=True)
def covered(N, COVER, pile):
    """Does a pile lying on `pile` hold a card (`covered_by`)? COVER's rows end at -1."""
    for q in COVER[pile]:
        if q < 0:
            return False
        if N[q] > 0:
            return True
    return False


@njit(cache=True)
def all_filled(N, first, pile):
    """Do the piles first .. pile - 1 all hold cards (`empty_piles: first`)?"""
    for q in range(first, pile):
        if N[q] == 0:
            return False
    return True


# Copies by loops, not by slice assignment: a slice assigned compiles NumPy's shape check and its
# message formatting into the caller's module (some 1.5 CPU-s of a ruleset's first compile).
@njit(cache=True)
def copy_into(dst, src, n):
    """dst[:n] = src[:n], a row of numbers."""
    for j in range(n):
        dst[j] = src[j]


@njit(cache=True)
def put_group(rows, count, cards, lo, hi):
    """Row `count` of a list of groups: its length, then the cards cards[lo:hi] (at most a deck)."""
    if hi - lo > rows.shape[1] - 1:
        raise Stop("a group longer than the deck")
    rows[count, 0] = hi - lo
    for j in range(hi - lo):
        rows[count, 1 + j] = cards[lo + j]


@njit(cache=True)
def same(a, b):
    """Do two rows of numbers (a position's keys) hold the same values?"""
    for j in range(len(b)):
        if a[j] != b[j]:
            return False
    return True


@njit(cache=True)
def mixed_equal(a, a_none, b, b_none, numbers):
    """`a == b` of values of two kinds, as Python has them: equal when both are none (each kind's
    code for none given), never when one is; else equal when both are numbers in Python (numbers,
    piles, cards and truth values: `numbers`) and the same number."""
    if a == a_none or b == b_none:
        return a == a_none and b == b_none
    return numbers and a == b


@njit(cache=True)
def after(a, b, answer):
    """`answer`, once `a` and `b` are computed (either may stop): `x == y` of two kinds that are
    never equal, as Python computes it."""
    return answer


@njit(cache=True)
def at(xs, i):
    n = len(xs)
    if i < -n or i >= n:
        raise Stop("index out of range")
    return xs[i] if i >= 0 else xs[n + i]


@njit(cache=True)
def sort_ints(xs):
    """`sorted(xs)` of numbers: a new array, in increasing order; none among them stops (Python
    cannot order it)."""
    for i in range(len(xs)):
        ck(xs[i])
    return np.sort(xs)


@njit(cache=True)
def sort_strings(xs, rank):
    """`sorted(xs)` of strings (their ids): a new array, in the order `rank` gives each id (STR_RANK:
    Python's order of the strings); none among them stops."""
    keys = np.empty(len(xs), dtype=np.int64)
    for i in range(len(xs)):
        if xs[i] < 0:
            raise Stop("ordering none")
        keys[i] = rank[xs[i]]
    return xs[np.argsort(keys, kind="mergesort")]


@njit(cache=True)
def unique_of(xs):
    """`unique(xs)`: a new array of the items without repeats, each where it first is (found by a
    stable sort, so among equal items the first comes first)."""
    order = np.argsort(xs, kind="mergesort")
    first = np.zeros(len(xs), dtype=np.bool_)
    for k in range(len(xs)):
        if k == 0 or xs[order[k]] != xs[order[k - 1]]:
            first[order[k]] = True
    return xs[first]


@njit(cache=True)
def index_in(xs, x):
    """`index(xs, x)`: where x first is among the items (from 0), none (NO_INT) where it is not."""
    for i in range(len(xs)):
        if xs[i] == x:
            return i
    return NO_INT


@njit(cache=True)
def marked(card, nocard):
    """The card whose mark (a per-card variable) is set: no card stops compiled code (Python reports it)."""
    if card == nocard:
        raise Stop("there is no card to mark")
    return card


@njit(cache=True)
def seat_of(M, seat):
    """A seat used as an index (`of(x, seat)`, a per-player variable's slot): one of the game's
    M[12] seats, else compiled code stops (Python reports it)."""
    if seat < 0 or seat >= M[12]:
        raise Stop("no such seat")
    return seat


@njit(cache=True)
def mask_of(mask):
    if mask == NO_MASK:
        raise Stop("a list attribute of no card")
    return mask


@njit(cache=True)
def mask_best(mask, low, largest):
    """min (or, `largest`, max) of a card's list of numbers held as a mask (bit i: low + i); of an
    empty list, none (NO_INT), as in Python."""
    if mask == NO_MASK:
        raise Stop("a list attribute of no card")
    if mask == 0:
        return NO_INT
    best = 0
    for bit in range(63):
        if (mask >> bit) & 1:
            best = bit
            if not largest:
                break
    return best + low


@njit(cache=True)
def has_int(mask, x, low):
    """`x in card.LIST` of numbers: bit i of the mask stands for low + i (0 <= i < 63)."""
    m = mask_of(mask)
    if x == NO_INT or x < low or (x - low > 62 if low >= 0 else x > low + 62):  # (neither can overflow)
        return False
    return (m >> (x - low)) & 1 == 1


@njit(cache=True)
def has(mask, s):
    """`s in card.LIST` of strings: the strings of list attributes are numbered first, 0 to 62, so a
    string of a higher number is in no card's list (a shift of 64 or more is taken mod 64)."""
    m = mask_of(mask)
    return (m >> s) & 1 == 1 if 0 <= s < 63 else False


@njit(cache=True)
def run_start(row, n, U):
    k = n
    while k > 0 and U[row[k - 1]] == 1:
        k -= 1
    return k


@njit(cache=True)
def move_cards(C, N, U, src, dst, n, flip, face, bottom, TMP):
    if n <= 0:
        return
    n = min(n, N[src])
    base = N[src] - n
    for i in range(n):
        TMP[i] = C[src, base + n - 1 - i] if flip else C[src, base + i]
    if flip:
        for i in range(n):
            U[TMP[i]] = 1 - U[TMP[i]]
    if face >= 0:
        for i in range(n):
            U[TMP[i]] = face
    N[src] = base
    if bottom:
        m = N[dst]
        for i in range(m - 1, -1, -1):
            C[dst, i + n] = C[dst, i]
        for i in range(n):
            C[dst, i] = TMP[i]
    else:
        m = N[dst]
        for i in range(n):
            C[dst, m + i] = TMP[i]
    N[dst] += n


@njit(cache=True)
def end(M, result, reason):
    if M[0] == 0:
        M[0] = 1
        M[1] = result
        M[2] = reason


@njit(cache=True)
def turn_to(M, seat):
    """`turn_to`: the seat takes the next turn."""
    if seat < 0 or seat >= M[12]:
        raise Stop("turn_to: no such seat")
    M[26] = seat


@njit(cache=True)
def act(M, seat, phase):
    """`act`: the seat acts now, in that phase; the turn comes back after its move."""
    if seat < 0 or seat >= M[12]:
        raise Stop("act: no such seat")
    if M[24] == 4:
        raise Stop("act: more than 4 seats acting for others at once")
    act_at_once(M, seat, phase)


@njit(cache=True)
def act_at_once(M, seat, phase):
    """`act` where every seat plays at once (and the rest of `act`): the seat is the one to act now,
    the one that was noted among M's frames. Nothing comes back to the seat that acted (no turn
    passes on), so there frames are only ever added (engine.Game.apply): M keeps their number,
    which within one game tells them apart (end.repeat), and the first 4."""
    if seat < 0 or seat >= M[12]:
        raise Stop("act: no such seat")
    f = M[24]
    if f < 4:
        M[16 + 2 * f] = M[10]
        M[17 + 2 * f] = M[11]
    M[24] = f + 1
    M[10] = seat
    M[11] = phase
    M[14] = 1


@njit(cache=True)
def lift(C, N, pile, card):
    """Bring `card` to the top of `pile`, the others keeping their order."""
    j = N[pile] - 1
    while C[pile, j] != card:
        j -= 1
    for i in range(j, N[pile] - 1):
        C[pile, i] = C[pile, i + 1]
    C[pile, N[pile] - 1] = card


@njit(cache=True)
def mt_word(MT):
    """The next 32-bit output of a Mersenne Twister (MT19937) whose 624 words and position are MT."""
    if MT[624] >= 624:
        for i in range(624):
            y = (MT[i] & 0x80000000) | (MT[(i + 1) % 624] & 0x7fffffff)
            v = MT[(i + 397) % 624] ^ (y >> 1)
            if y & 1:
                v ^= 0x9908b0df
            MT[i] = v
        MT[624] = 0
    y = MT[MT[624]]
    MT[624] += 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9d2c5680
    y ^= (y << 15) & 0xefc60000
    y ^= y >> 18
    return y & 0xffffffff


@njit(cache=True)
def mt_seed_key(MT, key, length):
    """Seed a Mersenne Twister state (624 words and a position, as `random.Random.getstate()[1]`)
    from the 32-bit words key[:length] (the low word first), as Python's `random.Random(seed)`
    seeds it from the words of abs(seed): MT19937's init_by_array."""
    MT[0] = 19650218
    for i in range(1, 624):
        MT[i] = (1812433253 * (MT[i - 1] ^ (MT[i - 1] >> 30)) + i) & 0xffffffff
    i, j = 1, 0
    for _ in range(max(624, length)):
        MT[i] = ((MT[i] ^ (((MT[i - 1] ^ (MT[i - 1] >> 30)) * 1664525) & 0xffffffff)) + key[j] + j) & 0xffffffff
        i += 1
        j += 1
        if i >= 624:
            MT[0] = MT[623]
            i = 1
        if j >= length:
            j = 0
    for _ in range(623):
        MT[i] = ((MT[i] ^ (((MT[i - 1] ^ (MT[i - 1] >> 30)) * 1566083941) & 0xffffffff)) - i) & 0xffffffff
        i += 1
        if i >= 624:
            MT[0] = MT[623]
            i = 1
    MT[0] = 0x80000000
    MT[624] = 624


@njit(cache=True)
def mt_seed_rows(MT, KEYS, LENGTHS):
    """Seed each row of MT from its key (`mt_seed_key`): the generators of a playout's seats."""
    for i in range(len(LENGTHS)):
        mt_seed_key(MT[i], KEYS[i], LENGTHS[i])


@njit(cache=True)
def place_deck(C, N, U, pile, order):
    """The shuffled deck face down under a pile's cards, order[0] on top (state.State.place_deck)."""
    n = len(order)
    for i in range(N[pile] - 1, -1, -1):
        C[pile, i + n] = C[pile, i]
    for i in range(n):
        C[pile, i] = order[n - 1 - i]
        U[order[i]] = 0
    N[pile] += n


@njit(cache=True)
def randbelow(MT, n):
    """A uniform integer below n (n < 2**32), exactly as Python's `random.Random.choice` picks one."""
    k = 0
    while (n >> k) > 0:
        k += 1
    r = mt_word(MT) >> (32 - k)
    while r >= n:
        r = mt_word(MT) >> (32 - k)
    return r


@njit(cache=True)
def random_float(MT):
    """A float in [0, 1) exactly as Python's `random.Random.random` draws it: 53 bits from two outputs."""
    a = mt_word(MT) >> 5
    b = mt_word(MT) >> 6
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


def _draw(chance: int, draw: int) -> Any:
    """model.chance.chance_stream of a draw as compiled code keeps it: the seed wrapped into 64 bits."""
    return chance_stream(int(chance) % 2 ** 64, int(draw))


def chance_order(chance: int, draw: int, n: int) -> np.ndarray:
    """The order the game's `draw`-th draw of chance (engine.State.shuffle) puts n cards in:
    position i gets the card that lay at order[i]."""
    order = list(range(n))
    _draw(chance, draw).shuffle(order)
    return np.array(order, dtype=np.int64)


@njit(cache=True)
def shuffle_pile(C, N, M, pile):
    """Shuffle a pile as the Python backend does: the game's next draw of chance (M[36] the chance
    seed, M[37] the draws made), worked out by Python's own generator (a draw is rare: once a hand)."""
    n = N[pile]
    with objmode(order="int64[:]"):
        order = chance_order(M[36], M[37], n)
    M[37] += 1
    cards = C[pile, :n].copy()
    for i in range(n):
        C[pile, i] = cards[order[i]]


def chance_place(chance: int, draw: int, rest: int) -> int:
    """Where the game's `draw`-th draw of chance (engine.State.bury) puts a packet among `rest` cards."""
    return _draw(chance, draw).randint(0, int(rest))


def chance_index(chance: int, draw: int, n: int) -> int:
    """The place among n that the game's `draw`-th draw of chance picks (engine.State.chance_index)."""
    return _draw(chance, draw).randrange(int(n))


@njit(cache=True)
def draw_index(M, n):
    """`random`: a place among n, alike likely each, as the Python backend draws it: the game's next
    draw of chance, worked out by Python's generator."""
    with objmode(at="int64"):
        at = chance_index(M[36], M[37], n)
    M[37] += 1
    return at


@njit(cache=True)
def bury_top(C, N, M, pile, n):
    """Put the top n cards of a pile, together and in their order, under any number of the others,
    as the Python backend does: the game's next draw of chance, worked out by Python's generator."""
    total = N[pile]
    rest = total - n
    with objmode(at="int64"):
        at = chance_place(M[36], M[37], rest)
    M[37] += 1
    packet = C[pile, rest:total].copy()
    for i in range(rest - 1, at - 1, -1):
        C[pile, i + n] = C[pile, i]
    for i in range(n):
        C[pile, at + i] = packet[i]


@njit(cache=True)
def getrandbits64(MT):
    """Python's `random.Random.getrandbits(64)` (two words, the first the low one), as the signed
    64-bit integer compiled code keeps a seed in."""
    low = mt_word(MT)
    return low | (mt_word(MT) << 32)


@njit(cache=True)
def mt_shuffle(MT, xs):
    """Shuffle xs in place exactly as Python's `random.Random.shuffle` does (3.11)."""
    for i in range(len(xs) - 1, 0, -1):
        j = randbelow(MT, i + 1)
        xs[i], xs[j] = xs[j], xs[i]
