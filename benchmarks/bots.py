"""How well a bot judges a rule: its win share against random and greedy seats, on every bundled
ruleset of several seats, and its CPU per decision.

    python benchmarks/bots.py [--bot mcts] [--games 60] [--opponents random,greedy]
                              [--only REGEX ...] [--ten-bucks-seats 2,3,4,5,6] [--jobs 2]
                              [--spades-bids HANDS]

For each ruleset of several seats that the Python engine plays turn by turn (rulesets/*.yaml and
examples/*.yaml; Nerts, where every seat plays at once, is left out and said so), at its default
number of seats (Ten Bucks and its variants at each of `--ten-bucks-seats`), and each kind of
opponent: `--games` games (seeds 1..N), the bot under test (`--bot`, `KIND[:NAME=VALUE,...]` as
`--seat` takes it) at seat g mod the seats in game g, with every seat of its team where the ruleset
has teams (a Spades side), the opponents' kind in the others. Prints per line: the bot's win share
(a shared win counts 1/k) with its 95% Wilson interval, the fair share (its seats over all seats),
the share over the fair one, whether the goal holds (against random: at least 1.5 times the fair
share; against greedy: the interval above it), the games that reached their move limit, and the
bot's CPU per decision (its mean and 95th percentile, measured in the worker that plays it).
Seeds are fixed, so a run is the same on every machine but for the CPU figures. With
`--spades-bids HANDS`: single hands of Spades, the bot's side against each opponent kind, and how far
the side's bids (summed) are from the tricks its seats take, on average (the goal: within 2).
"""

from __future__ import annotations

import argparse
import math
import re
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

from intervals import wilson  # noqa: E402

TEN_BUCKS_PREFIX = "ten-bucks"


def rulesets(only: list[str]) -> list[Path]:
    files = sorted((ROOT / "rulesets").glob("*.yaml")) + sorted((ROOT / "examples").glob("*.yaml"))
    return [f for f in files if not only or any(re.search(text, f.stem) for text in only)]


def play(path: str, players: int, bot: str, opponent: str, seed: int) -> tuple[float, bool, list[float]]:
    """Game `seed`: the bot's share of the win, whether the game reached its limit, and the CPU
    seconds of each of the bot's decisions."""
    from cardrules import load_ruleset
    from cardrules.agents.bots import make_bot, seat_seed
    from cardrules.agents.seats import parse_seat

    rules = load_ruleset(path)
    game = rules.new_game(seed=seed, players=players)
    mine = {seed % players}
    for _, seats in rules.teams(players):
        if seed % players in seats:
            mine = set(seats)
    spec = parse_seat("1", bot, players)[1]
    bots = {s: make_bot(spec.kind, seat_seed(seed, s), **spec.bot_params) if s in mine else
            make_bot(opponent, seat_seed(seed, s)) for s in range(players)}
    times: list[float] = []
    while not game.is_over:
        seat = game.current_player
        started = time.process_time()
        move = bots[seat].choose(game)
        if seat in mine:
            times.append(time.process_time() - started)
        game.apply(move)
    winners = game.winners() or []
    share = sum(1 for w in winners if w in mine) / len(winners) if winners else 0.0
    return share, game.outcome == "limit", times


# Spades played one hand at a time: the match is over after every hand, so the hand's bids and
# tricks are still there when the game ends (the next hand's deal would clear them).
ONE_HAND = 'extends: spades\nruleset: spades-one-hand\nfunctions:\n  "match_over()": "true"\n'


def spades_hand(path: str, bot: str, opponent: str, seed: int) -> tuple[int, int, int]:
    """Hand `seed` of Spades, the bot's side at seats (seed mod 2, + 2): the side's bids summed (a nil
    adds 0), the tricks its two seats took, and its nil bids."""
    from cardrules import load_ruleset
    from cardrules.agents.bots import make_bot, seat_seed
    from cardrules.agents.seats import parse_seat

    rules = load_ruleset(path)
    game = rules.new_game(seed=seed)
    mine = {seed % 2, seed % 2 + 2}
    spec = parse_seat("1", bot, 4)[1]
    bots = {s: make_bot(spec.kind, seat_seed(seed, s), **spec.bot_params) if s in mine else
            make_bot(opponent, seat_seed(seed, s)) for s in range(4)}
    while not game.is_over:
        game.apply(bots[game.current_player].choose(game))
    bid, tricks = rules.variables["bid"].slot, rules.variables["tricks"].slot
    values = game.state.vars
    return (sum(values[bid + s] for s in mine), sum(values[tricks + s] for s in mine),
            sum(values[bid + s] == 0 for s in mine))


def spades_bids(bot: str, hands: int, opponents: list[str], jobs: int) -> None:
    """The issue's Spades goal: the bot's side bids within 2 tricks of what it takes, on average."""
    import statistics
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "spades-one-hand.yaml"
        path.write_text(ONE_HAND)
        print(f"\nSpades, {hands} hands a line (seeds 1-{hands}): the {bot} side's bids against the tricks it takes")
        print(f"{'against':8} {'mean |bid - taken| (95%)':>26} {'mean bid - taken':>17} {'nil bids':>9} {'goal':>5}")
        with ProcessPoolExecutor(jobs) as pool:
            for opponent in opponents:
                rows = list(pool.map(spades_hand, [str(path)] * hands, [bot] * hands, [opponent] * hands,
                                     range(1, hands + 1)))
                gaps = [abs(b - t) for b, t, _ in rows]
                mean = statistics.fmean(gaps)
                half = 1.96 * statistics.stdev(gaps) / math.sqrt(len(gaps)) if len(gaps) > 1 else math.nan
                signed = statistics.fmean(b - t for b, t, _ in rows)
                nils = sum(n for _, _, n in rows)
                print(f"{opponent:8} {mean:12.2f} ({mean - half:4.2f}-{mean + half:4.2f}) {signed:17.2f} {nils:9} "
                      f"{'yes' if mean <= 2 else 'NO':>5}", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot", default="mcts", help="the bot under test, as --seat takes it (default mcts)")
    parser.add_argument("--games", type=int, default=60, help="games per ruleset, seat count and opponent (default 60)")
    parser.add_argument("--opponents", default="random,greedy")
    parser.add_argument("--only", nargs="*", default=[], help="rulesets whose name matches one of these "
                        "(regular expressions: ^ten-bucks$)")
    parser.add_argument("--ten-bucks-seats", default="3", help="seat counts for Ten Bucks and its variants "
                        "(default 3; the issue's goal: 2,3,4,5,6)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--spades-bids", type=int, default=0, metavar="HANDS",
                        help="also play this many single hands of Spades and report how far the bot's side's bids "
                        "are from the tricks it takes (the goal: 2 on average)")
    args = parser.parse_args()
    from cardrules import load_ruleset

    print(f"bot {args.bot}, {args.games} games a line (seeds 1-{args.games}), its seat g mod seats in game g")
    print(f"{'ruleset':34} {'seats':>5} {'against':8} {'win share (95%)':>22} {'fair':>6} {'ratio':>6} {'goal':>5} "
          f"{'limit':>5} {'ms/decision':>12} {'p95':>6}")
    failed = 0
    with ProcessPoolExecutor(args.jobs) as pool:
        for path in rulesets(args.only):
            rules = load_ruleset(str(path))
            if rules.max_players < 2:
                continue
            if rules.simultaneous:
                print(f"{path.stem:34} every seat plays at once: left out (the scheduler's seats, not turns)")
                continue
            counts = [int(c) for c in args.ten_bucks_seats.split(",")] if path.stem.startswith(TEN_BUCKS_PREFIX) \
                else [rules.new_game(seed=1).players]
            for players in counts:
                if not rules.min_players <= players <= rules.max_players:
                    continue
                for opponent in args.opponents.split(","):
                    results = list(pool.map(play, [str(path)] * args.games, [players] * args.games,
                                            [args.bot] * args.games, [opponent] * args.games,
                                            range(1, args.games + 1)))
                    won = sum(share for share, _, _ in results)
                    limits = sum(1 for _, limit, _ in results if limit)
                    times = sorted(t for _, _, ts in results for t in ts)
                    mine = max((len(seats) for _, seats in rules.teams(players)), default=1)
                    fair = mine / players
                    low, high = wilson(won, args.games)
                    share = won / args.games
                    goal = share >= 1.5 * fair if opponent == "random" else low > fair
                    failed += not goal
                    mean = 1000 * sum(times) / len(times) if times else math.nan
                    p95 = 1000 * times[int(0.95 * (len(times) - 1))] if times else math.nan
                    print(f"{path.stem:34} {players:5} {opponent:8} {share:7.1%} ({low:5.1%}-{high:5.1%}) "
                          f"{fair:6.1%} {share / fair:6.2f} {'yes' if goal else 'NO':>5} {limits:5} {mean:12.1f} "
                          f"{p95:6.1f}", flush=True)
    print(f"\n{failed} lines short of their goal")
    if args.spades_bids:
        spades_bids(args.bot, args.spades_bids, args.opponents.split(","), args.jobs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
