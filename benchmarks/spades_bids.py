"""How greedy seats bid in Spades: nil bids, and each side's bid against the tricks it takes.

    python benchmarks/spades_bids.py [--games 20] [--hands 3] [--bot greedy] [--ruleset spades]

Plays `--games` seeded games with the same bot kind at every seat and looks at the first `--hands`
hands of each, just before the hand's last card: the bids, and each side's tricks so far. The
last trick goes to one side or the other, so half a trick is added to each side's count. Prints
the bids, how many were nil, and a side's bid minus its tricks (mean, and mean of its absolute
value). The ruleset's `heuristic` is what greedy seats follow (rulesets/spades.yaml).
"""

from __future__ import annotations

import argparse
import statistics

from cardrules import load_ruleset
from cardrules.agents.bots import make_bot


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--hands", type=int, default=3)
    parser.add_argument("--bot", default="greedy")
    parser.add_argument("--ruleset", default="spades")
    args = parser.parse_args(argv)
    rules = load_ruleset(args.ruleset)
    trick = rules.zones["trick"].piles[0]
    bids_made = nils = 0
    differences: list[float] = []
    for seed in range(args.games):
        game = rules.new_game(seed=seed)
        bots = [make_bot(args.bot, 10 * seed + seat) for seat in range(4)]
        hands = 0
        while not game.is_over and hands < args.hands:
            bids = [game.variable("bid", s) for s in range(4)]
            taken = [game.variable("tricks", s) for s in range(4)]
            if min(bids) >= 0 and sum(taken) == 12 and len(game.state.piles[trick]) == 3:
                bids_made += 4
                nils += bids.count(0)
                differences += [bids[side] + bids[side + 2] - (taken[side] + taken[side + 2] + 0.5) for side in (0, 1)]
                hands += 1
            game.apply(bots[game.current_player].choose(game))
    print(f"{args.bot} at every seat, {args.games} games, the first {args.hands} hands of each: {bids_made} bids, "
          f"{nils} nil; a side's bid minus its tricks: mean {statistics.mean(differences):+.2f}, "
          f"mean of its absolute value {statistics.mean(abs(d) for d in differences):.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
