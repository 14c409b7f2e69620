"""How good is `hint`? Klondike deals played by always taking the hint, against the greedy bot
(the hint of old): games won, positions repeated (a move back to a position the game had been in:
the loops the old hint fell into), and CPU time per decision.

    python benchmarks/hint_quality.py --deals 40 --moves 600
"""

from __future__ import annotations

import argparse
import time

from cardrules import load_ruleset
from cardrules.agents.bots import GreedyBot, suggest_move, view_key


def play(name: str, deals: int, most: int, options: dict[str, object]) -> tuple[int, int, int, float]:
    """Games won, positions repeated, decisions and CPU seconds, over seeds 1..deals."""
    rules = load_ruleset("klondike", options)
    won = repeated = decisions = 0
    start = time.process_time()
    for seed in range(1, deals + 1):
        game = rules.new_game(seed=seed)
        bot = GreedyBot(seed)
        seen = {view_key(game, 0)}
        while not game.is_over and len(game.history) < most:
            game.apply(suggest_move(game) if name == "hint" else bot.choose(game))
            decisions += 1
            key = view_key(game, 0)
            repeated += key in seen
            seen.add(key)
        won += game.outcome == "won"
    return won, repeated, decisions, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=20, help="Klondike seeds 1..N (default 20)")
    parser.add_argument("--moves", type=int, default=600, help="moves at most per game (default 600)")
    parser.add_argument("--draw", type=int, default=1, choices=(1, 3))
    args = parser.parse_args()
    print(f"Klondike draw {args.draw}, seeds 1-{args.deals}, at most {args.moves} moves a game")
    for name in ("hint", "greedy"):
        won, repeated, decisions, seconds = play(name, args.deals, args.moves, {"draw": args.draw})
        print(f"  {name:7} won {won:3} of {args.deals}   positions repeated {repeated:6}   "
              f"{1000 * seconds / max(decisions, 1):.1f} ms CPU a decision")


if __name__ == "__main__":
    main()
