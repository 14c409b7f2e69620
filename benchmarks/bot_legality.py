"""Bots never choose a move the game does not offer: every ruleset, every bot kind, both engines.

    python benchmarks/bot_legality.py [--games 200] [--search-games N] [--max-moves 200] [--budget 20]
                                      [--iterations 20] [--depth 20] [--native] [--only TEXT ...]

Every bundled ruleset (rulesets/*.yaml), example (examples/*.yaml) and test fixture that plays
(tests/fixtures/**, but for those of tests/fixtures/broken/ and native/, which break on purpose)
plays `--games` games (seeds 0, 1, ...) with its default options and seats, cut at `--max-moves`
moves, with every bot kind at every seat (montecarlo with `--budget` playouts, ismcts and mcts with
`--iterations` passes, all `--depth` moves deep and `--search-games` games, by default `--games`).
Each move a bot chooses is checked against the game's legal moves for its seat at that moment (a
simultaneous game runs on the scheduler's clock, and is checked when the bot decides). A line per
ruleset and bot: games, moves checked, illegal moves found (0), games that ended or reached their
limit. With `--native`, each game of the random and greedy seats is also played by the native
backend (where it compiles the ruleset), which must end in the same position as the Python game.
tests/test_bot_legality.py runs the same checks on a small budget.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardrules import CardrulesError, Game, Move, Ruleset, load_ruleset
from cardrules.agents.bots import Bot, make_bot, seat_seed
from cardrules.agents.scheduler import DEFAULT_JITTER, DEFAULT_SPEED, Scheduler
from cardrules.front.source import load_document

ROOT = Path(__file__).resolve().parent.parent
# Folders of fixtures that break on purpose: none loads (broken/), or every game stops on an error
# of the ruleset (native/fails.yaml's score, once its stock is out).
BROKEN = (ROOT / "tests" / "fixtures" / "broken", ROOT / "tests" / "fixtures" / "native")
BOT_KINDS = ("random", "greedy", "montecarlo", "ismcts", "mcts")
NATIVE_KINDS = ("random", "greedy")  # the bots native playouts play


def legality_files() -> list[Path]:
    """The rulesets that play: bundled, examples and test fixtures (not those broken on purpose,
    nor deck files: a top-level mapping with `cards` and no `moves`, as `cardrules validate` tells)."""
    fixtures = [path for path in sorted((ROOT / "tests" / "fixtures").rglob("*.yaml"))
                if not any(folder in path.parents for folder in BROKEN)]
    files = sorted((ROOT / "rulesets").glob("*.yaml")) + sorted((ROOT / "examples").glob("*.yaml")) + fixtures
    return [path for path in files if not _is_deck(path)]


def _is_deck(path: Path) -> bool:
    data = load_document(path).data
    return isinstance(data, dict) and "cards" in data and "moves" not in data


@dataclass
class Tally:
    """What a game's checks found: bot decisions checked, the illegal choices (as text), and
    whether the game ended (over, or at its move limit)."""

    checked: int = 0
    illegal: list[str] = field(default_factory=list)
    ended: bool = False


class CheckedBot:
    """A bot whose every choice is checked against the legal moves the game offers its seat."""

    def __init__(self, bot: Bot, tally: Tally) -> None:
        self.bot = bot
        self.name = bot.name
        self.tally = tally

    def choose(self, game: Game) -> Move:
        seat = game.current_player  # in a simultaneous game, the seat the scheduler focused
        legal = game.legal_moves()
        move = self.bot.choose(game)
        self.tally.checked += 1
        if move not in legal:
            self.tally.illegal.append(f"seat {seat + 1}, move {len(game.history) + 1}: {move}")
        return move


def bot_params(kind: str, budget: int, iterations: int, depth: int) -> dict[str, Any]:
    """The parameters of a bot of `kind` for a check: small searches."""
    if kind == "montecarlo":
        return {"budget": budget, "depth": depth}
    if kind == "ismcts":
        return {"iterations": iterations, "depth": depth}
    if kind == "mcts":
        return {"playouts": iterations, "depth": depth}
    return {}


def play_checked(rules: Ruleset, kind: str, seed: int, max_moves: int, params: dict[str, Any] | None = None) -> \
        tuple[Game, Tally]:
    """Game `seed` of `rules` (at most `max_moves` moves) with a bot of `kind` at every seat, each
    seeded as `cardrules simulate` seeds it (`seat_seed`), every choice checked. A simultaneous
    game runs on the scheduler's clock with the game's seed, as `simulate` runs it."""
    game = rules.new_game(seed=seed, max_moves=max_moves)
    tally = Tally()
    bots = {seat: CheckedBot(make_bot(kind, seat_seed(seed, seat), **(params or {})), tally)
            for seat in range(game.players)}
    if rules.simultaneous:
        scheduler = Scheduler(game, dict(bots), seed, {seat: DEFAULT_SPEED for seat in bots})
        scheduler.run()
    else:
        while not game.is_over and not tally.illegal:
            game.apply(bots[game.current_player].choose(game))
    tally.ended = game.is_over
    return game, tally


def native_agrees(rules: Ruleset, kind: str, seed: int, max_moves: int, python: Game) -> bool:
    """Does the native backend, playing game `seed` with `kind` (random or greedy) bots seeded as
    `play_checked` seeds them, end in the position `python` (that game, played) ended in?
    Raises `native.Unsupported` where the backend does not compile the ruleset."""
    from cardrules.native import native_backend

    backend = native_backend(rules)
    game = rules.new_game(seed=seed, max_moves=max_moves)
    position = backend.start(game)
    seeds = [seat_seed(seed, seat) for seat in range(game.players)]
    if rules.simultaneous:
        backend.scheduled_playout(position, seeds, seed, [DEFAULT_SPEED] * game.players, DEFAULT_JITTER, kind)
    else:
        backend.playout(position, seeds, kind)
    S = python.state
    return (position.piles(), position.faces()[:len(S.up)], position.outcome,
            [position.score(p) for p in range(python.players)]) == \
        ([list(p) for p in S.piles], list(S.up), python.outcome, python.scores())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per ruleset and bot kind (default 200)")
    parser.add_argument("--search-games", type=int, default=None,
                        help="games per ruleset for montecarlo and ismcts (default: --games)")
    parser.add_argument("--max-moves", type=int, default=200, help="moves per game at most (default 200)")
    parser.add_argument("--budget", type=int, default=20, help="montecarlo playouts per decision (default 20)")
    parser.add_argument("--iterations", type=int, default=20, help="ismcts passes per decision (default 20)")
    parser.add_argument("--depth", type=int, default=20, help="moves per playout of montecarlo and ismcts")
    parser.add_argument("--native", action="store_true", help="also play random and greedy natively")
    parser.add_argument("--only", action="append", default=[],
                        help="only the files whose path holds this text (repeatable: any of them)")
    args = parser.parse_args()
    from cardrules.native import NativeStop, Unsupported

    started = time.process_time()
    total_checked = total_illegal = total_unended = total_native_off = 0
    print(f"{'ruleset':44} {'bot':10} {'games':>5} {'checked':>8} {'illegal':>7} {'ended':>5}  native")
    for path in legality_files():
        if args.only and not any(text in str(path) for text in args.only):
            continue
        name = str(path.relative_to(ROOT))
        try:
            rules = load_ruleset(path)
        except CardrulesError as error:
            print(f"{name:44} does not load: {error}")
            total_unended += 1
            continue
        for kind in BOT_KINDS:
            params = bot_params(kind, args.budget, args.iterations, args.depth)
            checked = illegal = ended = 0
            native = "-"
            agreeing = 0
            games = args.games if kind in NATIVE_KINDS or args.search_games is None else args.search_games
            for seed in range(games):
                game, tally = play_checked(rules, kind, seed, args.max_moves, params)
                checked += tally.checked
                illegal += len(tally.illegal)
                ended += tally.ended
                if args.native and kind in NATIVE_KINDS and native == "-":
                    try:
                        agreeing += native_agrees(rules, kind, seed, args.max_moves, game)
                    except Unsupported:
                        native = "unsupported"
                        total_native_off += 1
                    except NativeStop as error:
                        native = f"seed {seed} stopped: {error}"
                        total_native_off += 1
            if args.native and kind in NATIVE_KINDS and native == "-":
                native = f"{agreeing}/{games} agree"
            total_checked += checked
            total_illegal += illegal
            total_unended += games - ended
            print(f"{name:44} {kind:10} {games:5} {checked:8} {illegal:7} {ended:5}  {native}", flush=True)
    print(f"moves checked {total_checked}, illegal {total_illegal}, games not ended {total_unended}, "
          f"native not played {total_native_off}; {time.process_time() - started:.0f} CPU s")


if __name__ == "__main__":
    main()
