"""Compiled code for games where every seat plays at once (`turns.order: simultaneous`).

Part of the generated module of such a ruleset (native/backend.py appends `SOURCE`): each seat's legal
moves (the seat to act, `M[10]`, is the seat listed, as `Game.focus` makes it), whether any other
seat has a move (the end by `no_moves`), landing a move chosen earlier, and `scheduled_playout`,
the loop of `scheduler.Scheduler` as `simulate.play_game` runs it: every seat decides on its own
clock, its move lands after its reaction time (1 / speed, times `uniform(1 - jitter, 1 + jitter)`
from the seat's clock generator, Python's `random.Random(f"{seed}/{seat}")`), the earliest landing
first (by time, then by the order of the decisions), and a move another seat's has made illegal
is refused. A bot's choice is one call (`choose_action`, native/bots.py: `bots.RandomBot` or
`bots.GreedyBot`).
"""

SOURCE = '''
@njit(cache=True)
def others_have_moves(C, N, U, V, O, M, out):
    """Has any seat but the one to act a legal move now? (Lists into out; M[10] is kept.)"""
    me = M[10]
    found = False
    cnt = 0
    for seat in range(M[12]):
        if seat == me:
            continue
        M[10] = seat
        cnt = legal(C, N, U, V, O, M, out)
        if cnt != 0:
            found = True
            break
    M[10] = me
    if found and cnt < 0:
        raise Stop("too many legal moves")
    return found


@njit(cache=True)
def seat_legal(C, N, U, V, O, M, out, seat):
    """Make `seat` the seat to act (Game.focus) and list its legal moves into out: how many."""
    M[10] = seat
    if M[0] != 0:
        return 0
    cnt = legal(C, N, U, V, O, M, out)
    if cnt < 0:
        raise Stop("too many legal moves")
    return cnt


@njit(cache=True)
def land(C, N, U, V, O, M, out, CK, BK, KEY, MC, TMP, seat, a):
    """Seat `seat` makes the move `a` it chose earlier: played and settled if it is still one of
    the seat's legal moves (True), else refused (False: nothing changes but the seat to act)."""
    cnt = seat_legal(C, N, U, V, O, M, out, seat)
    for i in range(cnt):
        if out[i] == a:
            step(C, N, U, V, O, M, out, cnt, CK, BK, KEY, MC, TMP, a)
            return True
    return False


@njit(cache=True)
def reaction(CLOCK, speed, jitter):
    """A reaction time: 1 / speed, times uniform(1 - jitter, 1 + jitter) as Python's draws it."""
    delay = 1.0 / speed
    low = 1.0 - jitter
    high = 1.0 + jitter
    delay *= low + (high - low) * random_float(CLOCK)
    return delay


@njit(cache=True)
def scheduled_playout(C, N, U, V, O, M, out, CK, BK, KEY, MC, TMP, MT, CLOCK, KINDS, W, SPEED, jitter, stats,
                      LEAD):
    """Play to the end as simulate.play_game does with a Scheduler: seat s's bot of kind KINDS[s]
    with generator MT[s] (`choose_action`, native/bots.py; W the greedy bot's arrays, or None), its
    clock CLOCK[s], its speed SPEED[s]. `stats`: decisions, legal moves
    summed over them, decisions with a choice, moves landed, lead changes, moves refused;
    LEAD[i] the leaders after move i (LEAD[0]: at the start)."""
    n = M[12]
    T = np.zeros(n, dtype=np.float64)
    ORDER = np.zeros(n, dtype=np.int64)
    PENDING = np.full(n, -1, dtype=np.int64)  # the move each seat chose (-1: none)
    now = 0.0
    order = 0
    several = n > 1
    held = -1
    if several:
        LEAD[0] = leaders(C, N, U, V, O, M)
    seat = 0
    while True:
        # The seat decides from what it sees now (Scheduler._decide); its move lands later.
        cnt = seat_legal(C, N, U, V, O, M, out, seat)
        PENDING[seat] = -1
        if cnt > 0:
            stats[0] += 1
            stats[1] += cnt
            if cnt > 1:
                stats[2] += 1
            PENDING[seat] = choose_action(C, N, U, V, O, M, out, cnt, MT[seat], KINDS[seat], W)
        order += 1
        T[seat] = now + reaction(CLOCK[seat], SPEED[seat], jitter)
        ORDER[seat] = order
        if order < n:  # the first decisions: every seat in order
            seat = order
            continue
        if M[0] != 0:
            break
        # The earliest landing (the heap of (time, order, seat)).
        seat = 0
        for s in range(1, n):
            if T[s] < T[seat] or (T[s] == T[seat] and ORDER[s] < ORDER[seat]):
                seat = s
        now = max(now, T[seat])
        if PENDING[seat] >= 0:
            if land(C, N, U, V, O, M, out, CK, BK, KEY, MC, TMP, seat, PENDING[seat]):
                stats[3] += 1
                if several:
                    held = track_leaders(C, N, U, V, O, M, LEAD, stats, held)
            else:
                stats[5] += 1
        if M[0] != 0:
            break
'''
