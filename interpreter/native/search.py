"""The solver's search, as source for every compiled ruleset module (native/backend.py appends it).

Depth-first, on a stack of positions: level d holds frame d's position, and a move tried is
played on a copy at level d + 1 (no undo needed). Position keys are exact (every card's pile,
place and face, the variables that steer the game, the turn), kept in an arena with an
open-addressing hash table, so a position is never taken for another: an `unsolvable` stays a
proof. As in the Python search (workbench/solver.py, the reference): Tarjan's components prove positions
lost across restarts, a `safe:` move is played alone, the other moves are ordered by what each
kind of move has done so far, and a position seen before costs no listing of its moves.
native/solver.py allocates the arrays, grows them when the search asks, and keeps the clock.
Numba compiles these functions only when a search first calls them.
"""

# Names the compiled search and its driver (native/solver.py) share; SOURCE defines them too.
# Frame fields (FR[d, f]): its moves POOL[FS:FE], those still to try POOL[LO:I] (the last first),
# its key's place in the arena, discovery number, lowest number reached, evaluation, faces up,
# the move tried last, the level whose position a cycle under way began from, and whether the
# position was reached by a turn of the stock (then the moves that commute with the turns are
# not tried: model/turn_runs.py).
FS, FE, LO, I, POS, INDEX, LOW, EVAL, FACES, ACT, BASE, TURN = range(12)
FRAME_FIELDS = 12
# What each template is to the turn runs (RT[k]): a turn, a move that may commute with them
# (when neither of its piles is a turn's: RZ[p] == 1), or neither.
RT_OTHER, RT_TURN, RT_COMMUTING = range(3)
# Set in a key's word of the seat and phase (KW[CARDWORDS + len(SLOTS)]) for a position reached
# by a turn of the stock.
TURN_BIT = 1 << 48
# The search's scalars (ST[f]), and what search_run returns.
S_GEN, S_DEPTH, S_NODES, S_STOP, S_NPOS, S_USED, S_COMP, S_SAFE, S_RNG, S_WON, S_CHUNK, S_NEED = range(12)
SCALARS = 12
R_EXHAUSTED, R_CUT, R_WON, R_PAUSED, R_NEED = range(5)
DEAD = -1  # the arena's mark of a position proven lost
MAXL = 1 << 14  # legal moves one position may have

_SHARED = ("FS", "FE", "LO", "I", "POS", "INDEX", "LOW", "EVAL", "FACES", "ACT", "BASE", "TURN", "RT_OTHER",
           "RT_TURN", "RT_COMMUTING", "TURN_BIT", "S_GEN", "S_DEPTH", "S_NODES",
           "S_STOP", "S_NPOS", "S_USED", "S_COMP", "S_SAFE", "S_RNG", "S_WON", "S_CHUNK", "S_NEED", "R_EXHAUSTED",
           "R_CUT", "R_WON", "R_PAUSED", "R_NEED", "DEAD", "MAXL")

SOURCE = "\n" + "\n".join(f"{name} = {globals()[name]}" for name in _SHARED) + '''


@njit(cache=True)
def search_key(C, N, U, V, M, SLOTS, SYMG, SYML, CANON, KEY, KW):
    """The position's key in KW: every card's pile, place and face, the variables that steer the
    game (SLOTS), the seat to act, its phase and the seats acting for others (TURN_BIT clear).
    The piles of each group of interchangeable ones (SYMG[g, :SYML[g]]) count in the order of
    their bottom cards."""
    for p in range(NP):
        CANON[p] = p
    for g in range(len(SYML)):
        m = SYML[g]
        row = SYMG[g]
        ORDER = CANON[NP:NP + m]
        for j in range(m):  # insertion sort by bottom card, the empty piles last
            p = row[j]
            b = C[p, 0] if N[p] > 0 else NC
            i = j - 1
            while i >= 0 and (C[ORDER[i], 0] if N[ORDER[i]] > 0 else NC) > b:
                ORDER[i + 1] = ORDER[i]
                i -= 1
            ORDER[i + 1] = p
        for j in range(m):
            CANON[ORDER[j]] = row[j]
    KEY[:] = 0
    for p in range(NP):
        q = CANON[p]
        for i in range(N[p]):
            c = C[p, i]
            KEY[c] = (q * CAP1 + i) * 2 + U[c] + 1
    KW[:] = 0
    bit = 0
    for c in range(NC):
        v = KEY[c]
        w = bit >> 6
        o = bit & 63
        KW[w] |= v << o
        if o + KEYBITS > 64:
            KW[w + 1] |= v >> (64 - o)
        bit += KEYBITS
    w = CARDWORDS
    for s in SLOTS:
        KW[w] = V[s]
        w += 1
    KW[w] = M[10] | (M[11] << 16) | (M[24] << 32) | ((M[26] + 1) << 40) | (int(M[27] < 0) << 56)
    KW[w + 1] = M[16] | (M[17] << 16) | (M[18] << 32) | (M[19] << 48)
    KW[w + 2] = M[20] | (M[21] << 16) | (M[22] << 32) | (M[23] << 48)


@njit(cache=True)
def key_hash(KW):
    h = -3750763034362895579  # FNV-1a's offset basis, as a signed 64-bit number
    for x in KW:
        h = (h ^ x) * 1099511628211
    h ^= (h >> 29) & 0x7FFFFFFFF
    h *= -4658895280553007687
    return h ^ ((h >> 32) & 0xFFFFFFFF)


@njit(cache=True)
def lookup(KW, KEYS, TABLE):
    """The arena place of the key in KW, or -1 - (the empty table slot where it would go)."""
    mask = len(TABLE) - 1
    i = key_hash(KW) & mask
    while True:
        pos = TABLE[i]
        if pos < 0:
            return -1 - i
        if same(KEYS[pos], KW):
            return pos
        i = (i + 1) & mask


@njit(cache=True)
def rehash(KEYS, npos, TABLE):
    """Fill an empty (all -1) table with the arena's first npos keys."""
    mask = len(TABLE) - 1
    for pos in range(npos):
        i = key_hash(KEYS[pos]) & mask
        while TABLE[i] >= 0:
            i = (i + 1) & mask
        TABLE[i] = pos


@njit(cache=True)
def compact(KEYS, PVAL, PGEN, COMP, FR, ST, TABLE):
    """Drop the keys of positions left open by earlier restarts (searched, not proven): keep the
    positions proven lost and those open in this restart. TABLE must be all -1; it is refilled."""
    gen = ST[S_GEN]
    NEW = np.full(ST[S_NPOS], -1, dtype=np.int64)
    kept = 0
    for pos in range(ST[S_NPOS]):
        if PVAL[pos] == DEAD or PGEN[pos] == gen:
            NEW[pos] = kept
            KEYS[kept] = KEYS[pos]
            PVAL[kept] = PVAL[pos]
            PGEN[kept] = PGEN[pos]
            kept += 1
    ST[S_NPOS] = kept
    ST[S_USED] = kept
    for i in range(ST[S_COMP]):
        COMP[i] = NEW[COMP[i]]
    for d in range(ST[S_DEPTH] + 1):
        FR[d, POS] = NEW[FR[d, POS]]
    rehash(KEYS, kept, TABLE)


@njit(cache=True)
def random01(ST):
    """xorshift64: a number in [0, 1) (restarts shake the order of moves with it)."""
    x = ST[S_RNG]
    x ^= x << 13
    x ^= (x >> 7) & 0x01FFFFFFFFFFFFFF
    x ^= x << 17
    ST[S_RNG] = x
    return ((x >> 11) & 0x1FFFFFFFFFFFFF) / 9007199254740992.0


@njit(cache=True)
def kind_of(C, N, U, a):
    """A move's kind, for the order: its template, and whether it uncovers the card beneath."""
    k, src, dst, n, pick, seat, sel = decode(a)
    uncovers = 0
    if src >= 0 and n > 0 and pick == -2:
        rest = N[src] - n
        if rest <= 0 or U[C[src, rest - 1]] == 0:
            uncovers = 1
    return 2 * k + uncovers


@njit(cache=True)
def faces_up(U):
    total = 0
    for c in range(NC):
        total += U[c]
    return total


@njit(cache=True)
def commutes(RT, RZ, a):
    """Does move a commute with the turns of the stock (model/turn_runs.py)?"""
    k, src, dst, n, pick, seat, sel = decode(a)
    return RT[k] == RT_COMMUTING and (src < 0 or RZ[src] == 0) and (dst < 0 or RZ[dst] == 0)


@njit(cache=True)
def open_frame(C, N, U, V, O, M, MC, FR, POOL, d, cnt, ev, faces, LS, SK, jitter, RT, RZ, ST):
    """Make the position at level d (its evaluation ev, faces up) a frame with its cnt legal
    moves (at POOL[FR[d, FS]:]): a safe move alone, else every move, the most promising last.
    Reached by a turn, the moves that commute with the turns go below LO: listed, not tried."""
    s = FR[d, FS]
    e = s + cnt
    FR[d, FE] = e
    FR[d, I] = e
    FR[d, EVAL] = ev
    FR[d, FACES] = faces
    if FR[d, TURN] == 1:
        j = s
        for i in range(s, e):
            if commutes(RT, RZ, POOL[i]):
                a = POOL[i]
                POOL[i] = POOL[j]
                POOL[j] = a
                j += 1
        s = j
        cnt = e - s
    FR[d, LO] = s
    if ST[S_SAFE] == 1:
        for i in range(s, e):
            if is_safe(C, N, U, V, O, M, MC, POOL[i]):
                a = POOL[i]
                POOL[i] = POOL[e - 1]
                POOL[e - 1] = a
                FR[d, LO] = e - 1
                return
    if cnt < 2:
        return
    for j in range(cnt):
        a = POOL[s + j]
        kind = kind_of(C, N, U, a)
        if LS[kind, 2] == 0:  # a kind never tried: early, to learn what it does
            SK[j, 0] = np.inf
            SK[j, 1] = np.inf
        else:
            SK[j, 0] = LS[kind, 0] / LS[kind, 2]
            SK[j, 1] = LS[kind, 1] / LS[kind, 2]
        SK[j, 2] = random01(ST) if jitter > 0 else -j  # a restart breaks ties at random
        SK[j, 3] = j
    for j in range(1, cnt):  # insertion sort: the lists are short
        r0, r1, r2, r3 = SK[j, 0], SK[j, 1], SK[j, 2], SK[j, 3]
        i = j - 1
        while i >= 0 and (SK[i, 0] > r0 or (SK[i, 0] == r0 and (SK[i, 1] > r1 or (SK[i, 1] == r1 and SK[i, 2] > r2)))):
            SK[i + 1, 0], SK[i + 1, 1], SK[i + 1, 2], SK[i + 1, 3] = SK[i, 0], SK[i, 1], SK[i, 2], SK[i, 3]
            i -= 1
        SK[i + 1, 0], SK[i + 1, 1], SK[i + 1, 2], SK[i + 1, 3] = r0, r1, r2, r3
    if jitter > 0:  # and shakes the order a little
        for j in range(cnt):
            SK[j, 0] = j + random01(ST) * jitter
        for j in range(1, cnt):
            r0, r3 = SK[j, 0], SK[j, 3]
            i = j - 1
            while i >= 0 and SK[i, 0] > r0:
                SK[i + 1, 0], SK[i + 1, 3] = SK[i, 0], SK[i, 3]
                i -= 1
            SK[i + 1, 0], SK[i + 1, 3] = r0, r3
    TMPL = POOL[e:e + cnt]  # free room past the frame's moves
    for j in range(cnt):
        TMPL[j] = POOL[s + np.int64(SK[j, 3])]
    copy_into(POOL[s:e], TMPL, e - s)


@njit(cache=True)
def mark(KW, found, KEYS, PVAL, PGEN, TABLE, COMP, FR, d, ST):
    """Record the new position at level d (its key in KW, `found` from lookup) as searched."""
    if found >= 0:  # left open by an earlier restart: searched again
        pos = found
    else:
        pos = ST[S_NPOS]
        ST[S_NPOS] += 1
        KEYS[pos] = KW
        TABLE[-1 - found] = pos
        ST[S_USED] += 1
    PVAL[pos] = ST[S_NODES]
    PGEN[pos] = ST[S_GEN]
    COMP[ST[S_COMP]] = pos
    ST[S_COMP] += 1
    FR[d, POS] = pos
    FR[d, INDEX] = ST[S_NODES]
    FR[d, LOW] = ST[S_NODES]
    ST[S_NODES] += 1


@njit(cache=True)
def search_begin(LC, LN, LU, LV, LM, O, FR, POOL, KEYS, PVAL, PGEN, TABLE, COMP, SLOTS, SYMG, SYML, CANON, KEY, KW,
                 MC, LS, SK, jitter, RT, RZ, ST):
    """Start a restart from the position at level 0: R_EXHAUSTED when it was proven lost before."""
    ST[S_COMP] = 0
    search_key(LC[0], LN[0], LU[0], LV[0], LM[0], SLOTS, SYMG, SYML, CANON, KEY, KW)
    found = lookup(KW, KEYS, TABLE)
    if found >= 0 and PVAL[found] == DEAD:
        ST[S_DEPTH] = -1
        return R_EXHAUSTED
    mark(KW, found, KEYS, PVAL, PGEN, TABLE, COMP, FR, 0, ST)
    cnt = legal(LC[0], LN[0], LU[0], LV[0], O, LM[0], POOL[:MAXL])
    if cnt < 0:
        raise Stop("too many legal moves")
    FR[0, FS] = 0
    FR[0, BASE] = 0
    FR[0, TURN] = 0
    open_frame(LC[0], LN[0], LU[0], LV[0], O, LM[0], MC, FR, POOL, 0, cnt,
               evaluation(LC[0], LN[0], LU[0], LV[0], O, LM[0], 0), faces_up(LU[0]), LS, SK, jitter, RT, RZ, ST)
    ST[S_DEPTH] = 0
    return R_PAUSED


@njit(cache=True)
def search_run(LC, LN, LU, LV, LM, O, FR, POOL, KEYS, PVAL, PGEN, TABLE, COMP, CKG, SLOTS, SYMG, SYML, CANON, KEY,
               KW, BK, MC, TMP, LS, SK, jitter, RT, RZ, ST):
    """Go on with the search for at most ST[S_CHUNK] moves. Returns R_WON (the moves are
    FR[0..d, ACT], d = ST[S_DEPTH]), R_EXHAUSTED (every reachable position was searched), R_CUT
    (the restart's share of positions is spent), R_PAUSED (the chunk is done) or R_NEED (arrays
    to grow first, ST[S_NEED]: 1 levels, 2 the move pool, 4 the key arena, 8 the table)."""
    d = ST[S_DEPTH]
    gen = ST[S_GEN]
    depth_cap = LC.shape[0]
    steps = 0
    while d >= 0:
        s = FR[d, FS]
        e = FR[d, FE]
        need = 0
        if d + 2 >= depth_cap:
            need |= 1
        if e + (e - s) + 2 * MAXL > len(POOL):
            need |= 2
        if ST[S_NPOS] + 1 >= KEYS.shape[0]:
            need |= 4
        if 2 * (ST[S_USED] + 1) > len(TABLE):
            need |= 8
        if need != 0 or steps >= ST[S_CHUNK]:
            ST[S_DEPTH] = d
            ST[S_NEED] = need
            return R_NEED if need != 0 else R_PAUSED
        if FR[d, I] == FR[d, LO]:  # every move tried, no win
            if FR[d, LOW] == FR[d, INDEX]:  # it closes a component: all of it is proven lost
                while True:
                    ST[S_COMP] -= 1
                    pos = COMP[ST[S_COMP]]
                    PVAL[pos] = DEAD
                    if pos == FR[d, POS]:
                        break
            elif d > 0 and FR[d, LOW] < FR[d - 1, LOW]:
                FR[d - 1, LOW] = FR[d, LOW]
            d -= 1
            continue
        FR[d, I] -= 1
        a = POOL[FR[d, I]]
        FR[d, ACT] = a
        kind = kind_of(LC[d], LN[d], LU[d], a)
        turn = 1 if RT[kind >> 1] == RT_TURN else 0
        c = d + 1
        for p in range(NP):  # only the cards there are
            for i in range(LN[d, p]):
                LC[c, p, i] = LC[d, p, i]
        copy_into(LN[c], LN[d], LN.shape[1])
        copy_into(LU[c], LU[d], LU.shape[1])
        copy_into(LV[c], LV[d], LV.shape[1])
        copy_into(LM[c], LM[d], LM.shape[1])
        out = POOL[e:e + MAXL]
        copy_into(out, POOL[s:e], e - s)  # the moves offered before the move, for a cycle's start
        base = FR[d, BASE] if LM[d, 6] == 2 else d
        FR[c, BASE] = base
        play(LC[c], LN[c], LU[c], LV[c], O, LM[c], out, e - s, BK, MC, TMP, a)
        steps += 1
        found = -1
        if LM[c, 0] == 0:  # a position searched before costs no listing of its moves
            search_key(LC[c], LN[c], LU[c], LV[c], LM[c], SLOTS, SYMG, SYML, CANON, KEY, KW)
            # Reached by a turn: the position searched with every move counts as well, then the
            # position as reached by a turn (searched with fewer moves) is looked up.
            for t in range(turn + 1):
                if t == 1:
                    KW[CARDWORDS + len(SLOTS)] |= TURN_BIT
                found = lookup(KW, KEYS, TABLE)
                if found >= 0 and (PVAL[found] == DEAD or PGEN[found] == gen):
                    break
            if found >= 0:
                if PVAL[found] == DEAD:
                    continue
                if PGEN[found] == gen:  # open: on the path, or in a component not closed yet
                    if PVAL[found] < FR[d, LOW]:
                        FR[d, LOW] = PVAL[found]
                    continue
        cnt = after_change(LC[c], LN[c], LU[c], LV[c], O, LM[c], out, CKG[base:], BK, KEY)
        ev = evaluation(LC[c], LN[c], LU[c], LV[c], O, LM[c], 0)
        faces = faces_up(LU[c])
        LS[kind, 0] += ev - FR[d, EVAL]
        LS[kind, 1] += faces - FR[d, FACES]
        LS[kind, 2] += 1
        if LM[c, 0] != 0:
            if LM[c, 1] == ST[S_WON]:
                ST[S_DEPTH] = d
                return R_WON
            continue
        if ST[S_NODES] >= ST[S_STOP]:
            ST[S_DEPTH] = d
            return R_CUT
        mark(KW, found, KEYS, PVAL, PGEN, TABLE, COMP, FR, c, ST)
        FR[c, FS] = e
        FR[c, TURN] = turn
        open_frame(LC[c], LN[c], LU[c], LV[c], O, LM[c], MC, FR, POOL, c, cnt, ev, faces, LS, SK, jitter, RT, RZ, ST)
        d = c
    ST[S_DEPTH] = -1
    return R_EXHAUSTED
'''
