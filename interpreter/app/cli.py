"""The `cardrules` command: play, simulate, compare, solve, validate, list, rules, schema, stats, reset.
A thin layer over the library.

Start-up is kept short: `cardrules --help` and each command's `--help` import only typer and
this module. Each command imports what it uses when it runs (the compiler, Lark, jsonschema,
rich, the store), so `cardrules schema` never loads the engine and `validate` never loads rich.
"""

from __future__ import annotations

import json
import sys
import traceback
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, List, Optional

import typer

from ..base.errors import CardrulesError, DealError, format_error, printable, shown_title, terminal_console
from ..base.limits import DEFAULT_MAX_POSITIONS, DEFAULT_MAX_POSITIONS_NATIVE, DEFAULT_TIMEOUT

if TYPE_CHECKING:
    from rich.console import Console

    from ..python.engine import Game
    from ..model.ruleset import Ruleset
    from ..storage import saves
    from ..storage.saves import SavedGame

app = typer.Typer(no_args_is_help=True, pretty_exceptions_enable=False, rich_markup_mode=None,
                  help="Card games as data: play, check and list YAML rulesets.")

_debug = False  # `--debug`: an internal error shows its traceback


def _show_version(value: bool) -> None:
    if value:
        from .. import __version__

        typer.echo(f"cardrules {__version__}")
        raise typer.Exit()


@app.callback()
def _options(debug: bool = typer.Option(False, "--debug", help="On an internal error (a bug), show the "
                                        "traceback."),
             version: bool = typer.Option(False, "--version", callback=_show_version, is_eager=True,
                                          help="Print the version and exit.")) -> None:
    """Card games as data: play, check and list YAML rulesets."""
    global _debug
    _debug = debug


def _search_path_option() -> Any:
    """`--path`, as every command that loads a ruleset takes it."""
    return typer.Option([], "--path", metavar="DIR", help="A folder the ruleset may also read decks and bases from "
                        "(besides its own folder tree and the bundled rulesets); repeatable.")


def _ruleset_option() -> Any:
    """`--option`, as every command that plays a ruleset takes it."""
    return typer.Option([], "--option", "-o", metavar="NAME=VALUE", help="Set a ruleset option: --option draw=3.")


def _report(error: CardrulesError) -> None:
    typer.echo(printable(format_error(error)), err=True)


def _fail(error: CardrulesError) -> None:
    _report(error)
    raise typer.Exit(1)


def _pairs(items: list[str], what: str) -> dict[str, str]:
    result = {}
    for item in items:
        if "=" not in item:
            raise typer.BadParameter(f"expected {what}=VALUE, got {item!r}")
        key, value = item.split("=", 1)
        result[key.strip()] = value.strip()
    return result


def load_ruleset(name_or_path: str | Path, options: dict[str, Any] | None = None,
                 search_path: tuple[str | Path, ...] = ()) -> Ruleset:
    """`cardrules.load_ruleset`, imported when a command first needs it (tests replace this one)."""
    from ..python.load import load_ruleset as load

    return load(name_or_path, options, search_path)


MAX_COMPLETIONS = 200  # the most names a tab completion offers (a folder of many files)


def complete_ruleset(incomplete: str) -> list[str]:
    """Tab completion of a RULESET argument: the bundled rulesets' names, then the `.yaml` files and
    the folders under the path typed so far (`examples/sn` -> `examples/snap.yaml`)."""
    from ..base.resources import rulesets_dir

    names = sorted(path.stem for path in rulesets_dir().glob("*.yaml") if path.stem.startswith(incomplete))
    folder, slash, start = incomplete.rpartition("/")
    prefix = folder + slash                  # the folder as typed, completed names follow it
    base = Path(prefix or ".")
    try:
        entries = sorted(base.iterdir())[:10 * MAX_COMPLETIONS]
    except OSError:  # no such folder, or one that may not be read
        entries = []
    for entry in entries:
        if not entry.name.startswith(start) or (entry.name.startswith(".") and not start.startswith(".")):
            continue
        try:
            if entry.is_dir():
                names.append(f"{prefix}{entry.name}/")
            elif entry.suffix in (".yaml", ".yml"):
                names.append(f"{prefix}{entry.name}")
        except OSError:
            continue
    return names[:MAX_COMPLETIONS]


@app.command()
def play(
    ruleset: str = typer.Argument(..., help="A ruleset file, or the name of a bundled ruleset (see `cardrules list`).",
                                  autocompletion=complete_ruleset),
    seed: Optional[int] = typer.Option(None, "--seed", help="Shuffle with this seed (a new one is chosen and shown "
                                       "otherwise: at the end in games of several seats with hidden cards)."),
    deal: Optional[Path] = typer.Option(None, "--deal", metavar="FILE", help="A deal file: card codes, top of the deck first."),
    option: List[str] = _ruleset_option(),
    seat: List[str] = typer.Option([], "--seat", metavar="N=KIND", help="Seat kinds: --seat 1=random (human, random, greedy, "
                                   "montecarlo, ismcts, mcts; a seat not given is human); "
                                   "a bot's parameters after a colon: --seat 2=greedy:speed=1.5 (actions per "
                                   "second, where every seat plays at once)."),
    players: Optional[int] = typer.Option(None, "--players", help="Number of players, where the ruleset allows a choice."),
    as_json: bool = typer.Option(False, "--json", help="Print a JSON summary at the end (the table goes to stderr)."),
    autoplay: bool = typer.Option(False, "--autoplay", help="Play for you the moves the ruleset calls safe "
                                  "(`safe:`, such as low cards to the foundations); undo takes them "
                                  "back with your move."),
    resume: bool = typer.Option(False, "--resume", help="Go on with the last saved game of the ruleset (`save`, "
                                "or `quit` at a terminal): its deal, options and seats (--seat may change a seat)."),
    search_path: List[Path] = _search_path_option(),
) -> None:
    """Play a game in the terminal; bots fill the seats you give them."""
    if seed is not None and deal is not None:
        raise typer.BadParameter("give --seed or --deal, not both")
    if resume and (seed is not None or deal is not None or option or players is not None):
        raise typer.BadParameter("--resume plays the saved game: its deal, options and players are the saved "
                                 "ones (give no --seed, --deal, --option or --players)")
    try:
        with ExitStack() as held:  # a resumed save stays claimed until the game ends or is saved anew
            _play(ruleset, seed, deal, option, seat, players, as_json, autoplay, resume, search_path, held)
    except CardrulesError as error:
        _fail(error)


@dataclass
class _Setup:
    """A game about to be played (`play`, `serve`): its ruleset, the game, its seed, the seats."""

    rules: Ruleset
    game: Game
    seed: int | None
    specs: dict[int, Any]          # seat index -> SeatSpec
    seat_texts: dict[str, str]     # seat number (from 1) -> its `--seat` text, the saved ones first
    resumed: SavedGame | None
    secret: bool                   # would the seed give hidden cards away

    @property
    def kinds(self) -> dict[int, str]:
        return {s: spec.kind for s, spec in self.specs.items()}

    def bots(self) -> dict[int, Any]:
        """Seat index -> its bot, or None for a human."""
        from ..agents.seats import make_bots

        return make_bots(self.specs, self.game.players, self.seed if self.seed is not None else 0)


def _set_up(ruleset: str, seed: int | None, deal: Path | None, option: list[str], seat: list[str],
            players: int | None, resume: bool, search_path: list[Path], held: ExitStack,
            one_human_simultaneous: bool = True) -> _Setup:
    """Load the ruleset (or the save to resume, claimed in `held`), deal the game and read the seats.
    `one_human_simultaneous`: where every seat plays at once the seats not given are bots unless
    none is given (one terminal has one human)."""
    import random

    from ..storage import store
    from ..agents.seats import SeatError, SeatSpec, check_seats, parse_seat
    from ..front.source import read_bounded

    resumed: saves.SavedGame | None = None
    if resume:
        resumed, rules, game = _resume(ruleset, tuple(search_path), held)
        seed = resumed.seed
    else:
        rules = load_ruleset(ruleset, _pairs(option, "--option NAME"), tuple(search_path))
    deal_text = read_bounded(deal, str(deal), DealError) if deal is not None else None
    secret = _secret_seed(rules, players if resumed is None else resumed.players)
    if deal is None and seed is None and resumed is None:  # a short seed to replay, unless it would give hidden hands away
        draw = random.SystemRandom()
        seed = draw.getrandbits(64) if secret else draw.randrange(1, 1_000_000_000)
    if resumed is None:
        persisted = store.load(rules) if rules.persistent_variables() else None
        if deal_text is not None:
            in_play = rules.deck_cards.get(players if players is not None else rules.default_players)
            order = rules.deck.parse_order(deal_text, str(deal), cards=in_play)
            game = rules.new_game(deal=[rules.deck.codes[c] for c in order], players=players, persisted=persisted)
        else:
            game = rules.new_game(seed=seed, players=players, persisted=persisted)
    specs: dict[int, SeatSpec] = {}
    seat_texts: dict[str, str] = {}
    try:
        given = list(resumed.seats.items()) if resumed is not None else []
        for key, text in given + list(_pairs(seat, "--seat SEAT").items()):
            index, spec = parse_seat(key, text, game.players)
            specs[index] = spec
            seat_texts[str(index + 1)] = text
        if rules.simultaneous and one_human_simultaneous:  # one terminal, one human: the seats not given are bots
            human_given = any(not spec.is_bot for spec in specs.values())
            for s in range(game.players):
                if s not in specs and (human_given or s > 0):
                    specs[s] = SeatSpec("greedy")
        check_seats(rules, specs, game.players, one_terminal=one_human_simultaneous)
    except SeatError as exc:
        raise typer.BadParameter(printable(str(exc))) from None
    return _Setup(rules, game, seed, specs, seat_texts, resumed, secret)


def _play(ruleset: str, seed: int | None, deal: Path | None, option: list[str], seat: list[str],
          players: int | None, as_json: bool, autoplay: bool, resume: bool, search_path: list[Path],
          held: ExitStack) -> None:
    """`play`, once its arguments are checked; a resumed save is claimed in `held`."""
    from rich.text import Text

    from ..python import render

    from ..storage import saves, store
    from ..workbench.catalogue import option_text
    from .play import Session, play_simultaneous
    from .play import summary, timed_summary

    setup = _set_up(ruleset, seed, deal, option, seat, players, resume, search_path, held)
    rules, game, seed, specs, seat_texts, resumed, secret = (setup.rules, setup.game, setup.seed, setup.specs,
                                                              setup.seat_texts, setup.resumed, setup.secret)
    kinds = setup.kinds
    bot_seed = seed if seed is not None else 0
    seats = setup.bots()
    console = terminal_console(stderr=as_json, highlight=False)
    interactive = sys.stdin.isatty() and any(b is None for b in seats.values())
    if not as_json:  # Text: the title and options are printed as they are, never read as markup
        head = Text(shown_title(rules.title), style="bold")
        head.append("  seed: shown at the end" if secret and seed is not None
                    else f"  seed {seed if seed is not None else '-'}")
        for name, value in rules.option_values.items():
            head.append(f"  {name}={option_text(value)}")
        console.print(render.packed(head, "  "))  # at a narrow terminal: wrapped between its parts
        notice = _hot_seat_notice(game.players, seats, set(specs))
        if notice is not None:
            console.print(Text(notice, style="bold"))
    if not rules.simultaneous:  # an mcts seat's first decision would compile without a word
        from ..workbench.engines import say_if_mcts_compiles

        say_if_mcts_compiles(rules, kinds.values(), lambda line: terminal_console(stderr=True, highlight=False).print(
            Text(line, style="dim"), soft_wrap=True))
    if rules.simultaneous:  # every seat plays at once: on a clock
        try:
            scheduler, simulated = play_simultaneous(game, seats, specs, bot_seed, console,
                                                     quiet=as_json and not interactive)
        finally:
            if game.is_over:
                store.save_game(game)
        _count_result(console, game, [s for s, bot in seats.items() if bot is None], as_json)
        _show_seed(console, game, seed, secret and not as_json)
        if as_json:
            speeds = {s: specs[s].speed for s in range(game.players) if s in specs and specs[s].is_bot}
            print(json.dumps(timed_summary(game, seed, kinds, scheduler, speeds, simulated), indent=2))
        return
    if resumed is not None and not as_json:
        console.print(Text(f"Resumed the game saved {resumed.saved or ''} ({len(game.history)} moves made)",
                           style="dim"))
    file = saves.save_file(rules)
    data_key = store.data_key(rules)
    seat_record = {key: text for key, text in seat_texts.items() if specs[int(key) - 1].is_bot}

    def saver() -> Path:
        return saves.write_save(saves.game_to_save(game, file, seat_record), data_key)

    session = Session(game, seats, console, interactive, quiet=as_json and not interactive, saver=saver,
                      autoplay=autoplay)
    try:
        session.run()
    finally:
        if game.is_over:
            store.save_game(game)
    if resumed is not None and resumed.path is not None and (game.is_over or session.saved_to is not None):
        saves.remove_save(resumed.path)  # ended, or saved anew: the old save has served
    if session.saved_to is not None and not as_json:
        console.print(Text(f"Resume it with: cardrules play {ruleset} --resume", style="bold"))
    _count_result(console, game, session.humans, as_json)
    _show_seed(console, game, seed, secret and not as_json)
    if as_json:
        print(json.dumps(summary(game, seed, kinds), indent=2))


@app.command()
def serve(
    ruleset: Optional[str] = typer.Argument(None, help="A ruleset file, or the name of a bundled ruleset (see "
                                            "`cardrules list`); none: a lobby of the bundled rulesets.",
                                            autocompletion=complete_ruleset),
    seed: Optional[int] = typer.Option(None, "--seed", help="Shuffle with this seed (a new one is chosen otherwise)."),
    deal: Optional[Path] = typer.Option(None, "--deal", metavar="FILE", help="A deal file: card codes, top of the deck first."),
    option: List[str] = _ruleset_option(),
    seat: List[str] = typer.Option([], "--seat", metavar="N=KIND", help="Seat kinds: --seat 2=mcts (human, random, greedy, "
                                   "montecarlo, ismcts, mcts); a seat not given is human, with a link of its own."),
    players: Optional[int] = typer.Option(None, "--players", help="Number of players, where the ruleset allows a choice."),
    resume: bool = typer.Option(False, "--resume", help="Go on with the last saved game of the ruleset."),
    host: str = typer.Option("127.0.0.1", "--host", help="The address to listen on (only this machine by default; "
                             "0.0.0.0 lets other machines join)."),
    port: int = typer.Option(8000, "--port", min=0, max=65535, help="The port to listen on (0: any free one)."),
    bot_delay: float = typer.Option(0.4, "--bot-delay", min=0.0, max=10.0, help="Seconds between the bots' moves, "
                                    "so that each can be seen."),
    search_path: List[Path] = _search_path_option(),
) -> None:
    """Serve a game to web browsers: one secret link per human seat, and one for spectators. Given
    no ruleset, a lobby: one secret link to a page that opens tables of the bundled rulesets."""
    if ruleset is None and (seed is not None or deal is not None or option or seat or players is not None or resume):
        raise typer.BadParameter("the lobby's tables are set up on its page: give a RULESET to choose "
                                 "--seed, --deal, --option, --seat, --players or --resume")
    if seed is not None and deal is not None:
        raise typer.BadParameter("give --seed or --deal, not both")
    if resume and (seed is not None or deal is not None or option or players is not None):
        raise typer.BadParameter("--resume plays the saved game: give no --seed, --deal, --option or --players")
    from importlib.util import find_spec

    if find_spec("uvicorn") is None or find_spec("starlette") is None:
        _fail(CardrulesError("cardrules serve needs the web extra: pip install 'cardrules[web]'"))
    try:
        if ruleset is None:
            _serve_lobby(host, port, bot_delay)
            return
        with ExitStack() as held:
            _serve(ruleset, seed, deal, option, seat, players, resume, host, port, bot_delay, search_path, held)
    except CardrulesError as error:
        _fail(error)


def _serve(ruleset: str, seed: int | None, deal: Path | None, option: list[str], seat: list[str],
           players: int | None, resume: bool, host: str, port: int, bot_delay: float,
           search_path: list[Path], held: ExitStack) -> None:
    """`serve`, once its arguments are checked: the game dealt, its links printed, served until Ctrl-C."""
    from ..web.server import serve_table
    from ..web.table import open_table
    from ..workbench.describe import describe, render_text

    setup = _set_up(ruleset, seed, deal, option, seat, players, resume, search_path, held,
                    one_human_simultaneous=False)
    rules = setup.rules
    words = render_text(describe(ruleset, dict(rules.option_values), tuple(search_path)), 80)
    table = open_table(setup.game, setup.specs, setup.seed if setup.seed is not None else 0, words,
                       setup.seat_texts, setup.resumed.path if setup.resumed is not None else None)

    def say(line: str) -> None:
        typer.echo(printable(line))
        sys.stdout.flush()
    if not rules.simultaneous:  # an mcts seat's first decision would compile without a word
        from ..workbench.engines import say_if_mcts_compiles

        say_if_mcts_compiles(rules, setup.kinds.values(), say)
    serve_table(table, host, port, bot_delay, say)


def _serve_lobby(host: str, port: int, bot_delay: float) -> None:
    """`serve` with no ruleset: the lobby of the bundled rulesets, served until Ctrl-C."""
    from ..web.lobby import Lobby
    from ..web.server import serve_lobby
    from ..workbench.catalogue import bundled
    from ..workbench.describe import describe, render_text

    def say(line: str) -> None:
        typer.echo(printable(line))
        sys.stdout.flush()

    lobby = Lobby(bundled(), lambda name, options: load_ruleset(name, options),
                  lambda name, values: render_text(describe(name, values), 80))
    serve_lobby(lobby, host, port, bot_delay, say)


def _hot_seat_notice(players: int, seats: dict[int, Any], given: set[int]) -> str | None:
    """Said before a game where a seat `--seat` did not name is human besides another: those
    seats share this terminal, in turn (hot seat). Seats not given are human (so `--seat 2=random`
    in a three-seat game leaves seats 1 and 3 to humans), and the line says how to make one a bot.
    None when no such seat is left to surprise anyone (one human, or every human seat given)."""
    humans = [s for s in range(players) if seats.get(s) is None]
    unnamed = [s for s in humans if s not in given]
    if len(humans) < 2 or not unnamed:
        return None
    listed = ", ".join(str(s + 1) for s in humans[:-1]) + f" and {humans[-1] + 1}"
    last = unnamed[-1] + 1
    return (f"Hot seat: seats {listed} are human and take turns at this terminal.\n"
            f"(A seat not given with --seat is human; --seat {last}=greedy makes seat {last} a bot.)")


def _count_result(console: Console, game: Game, humans: list[int], quiet: bool) -> None:
    """Count a game one human played, once it has ended or been quit after a move (`cardrules
    stats`), and show the options' figures as they now stand."""
    if not game.is_over or len(humans) != 1 or not game.history:
        return
    from rich.text import Text

    from .play import count_result, results_text
    from ..python.render import PackedLine
    from ..storage.saves import options_key

    record = count_result(game, humans[0])
    if not quiet:
        title = Text(f"{shown_title(game.rules.title)} ({options_key(game.rules, game.players)}):", style="dim")
        console.print(PackedLine([title, results_text(record)], " "))  # narrow: on two lines, each whole


def _resume(ruleset: str, search_path: tuple[Path, ...], held: ExitStack) -> tuple[SavedGame, Ruleset, Game]:
    """The newest saved game of a ruleset, claimed in `held` (no other process may resume it
    meanwhile), read, checked and replayed."""
    from ..storage import saves, store
    from ..base.errors import SaveError

    loaded = load_ruleset(ruleset, search_path=search_path)
    name, key, file = loaded.name, store.data_key(loaded), saves.save_file(loaded)
    found = saves.list_saves(key)
    if not found:
        raise SaveError(f"no saved game of {key} to resume (`save` during a game, or `quit` at a terminal, "
                        f"saves one)")
    held.enter_context(saves.claim(found[-1]))
    saved = saves.read_save(found[-1])
    if saved.ruleset != name:
        raise SaveError(f"{found[-1]}: the saved game is of {printable(saved.ruleset)}, not of {name}")
    if saved.file != file:
        raise SaveError(f"{found[-1]}: the saved game is of the ruleset "
                        f"{'bundled with cardrules' if saved.file is None else printable(saved.file)}, "
                        f"not of {'the bundled one' if file is None else file}")
    rules = load_ruleset(ruleset, dict(saved.options), search_path)
    return saved, rules, saves.replay(saved, rules)


def _secret_seed(rules: Ruleset, players: int | None) -> bool:
    """Would the seed give hidden cards away: a game of several seats with a zone not every seat sees?"""
    seats = players if players is not None else rules.default_players
    return seats > 1 and any(zone.visibility != "all" for zone in rules.zones.values())


def _show_seed(console: Console, game: Game, seed: int | None, show: bool) -> None:
    """The seed of a game whose seed was kept secret while it was played, once it has ended."""
    if show and seed is not None and game.is_over:
        from rich.text import Text

        console.print(Text(f"seed {seed}", style="dim"))


@app.command()
def simulate(
    ruleset: str = typer.Argument(..., help="A ruleset file, or the name of a bundled ruleset (see `cardrules list`)."),
    games: int = typer.Option(..., "-n", "--games", help="How many games to play."),
    players: Optional[int] = typer.Option(None, "--players", help="Number of players, where the ruleset allows a choice."),
    seat: List[str] = typer.Option([], "--seat", metavar="N=KIND", help="Bot seats: --seat 2=greedy (random, greedy, montecarlo, "
                                   "ismcts, mcts), parameters after a colon: --seat 2=mcts:playouts=100, and "
                                   "speed=N where every seat plays at once. Seats not given are mcts bots (greedy where "
                                   "the native backend cannot run their search: a line says why)."),
    option: List[str] = _ruleset_option(),
    seed: int = typer.Option(1, "--seed", help="Game k (counting from 0) is dealt from seed + k."),
    jobs: int = typer.Option(1, "--jobs", "-j", help="Worker processes (Ray: CPUs of the local Ray); 1 plays here."),
    backend: str = typer.Option("local", "--backend", help="local (processes here) or ray (needs the ray extra)."),
    address: Optional[str] = typer.Option(None, "--address", help="With --backend ray: the Ray cluster to use "
                                          "(default: a local Ray started for the run)."),
    engine: str = typer.Option("auto", "--engine", help="auto, python or native: the ruleset compiled with Numba "
                               "(the native extra) plays random and greedy seats, the same games many times faster; where it "
                               "cannot, one line says why and Python plays. auto: native where it can and its code is "
                               "compiled already or the run is long enough to pay for compiling it (500 games)."),
    out: Optional[Path] = typer.Option(None, "--out", metavar="FILE", help="Write the summary as JSON to this file."),
    csv_file: Optional[Path] = typer.Option(None, "--csv", metavar="FILE", help="Write one CSV row per game to this file."),
    plots: Optional[Path] = typer.Option(None, "--plots", metavar="DIR", help="Write PNG charts into this folder (needs the plots extra)."),
    search_path: List[Path] = _search_path_option(),
) -> None:
    """Play many all-bot games and summarize them: wins, scores, lengths, choices, endings, lead changes."""

    from ..workbench.simulate import simulate_command

    code = simulate_command(ruleset, games, players, seat, option, seed, jobs, backend, address, out, csv_file,
                            plots, console=terminal_console(highlight=False), search_path=[str(p) for p in search_path],
                            engine=engine)
    if code:
        raise typer.Exit(code)


@app.command()
def compare(
    rulesets: List[str] = typer.Argument(..., help="Ruleset files or bundled names: "
                                         "the base first, then the variants compared with it."),
    games: int = typer.Option(..., "-n", "--games", help="How many games to play under each ruleset."),
    variant: List[str] = typer.Option([], "--variant", "-V", metavar="NAME=VALUE[,NAME=VALUE...]",
                                      help="Also compare the base with these options (repeatable: one variant "
                                      "each): --variant draw=3 --variant draw=3,scoring=vegas."),
    players: Optional[int] = typer.Option(None, "--players", help="Number of players, where the rulesets allow a choice."),
    seat: List[str] = typer.Option([], "--seat", metavar="N=KIND", help="Bot seats, the same under every ruleset "
                                   "(as simulate's). Seats not given are mcts bots (else greedy, as in simulate)."),
    option: List[str] = typer.Option([], "--option", "-o", metavar="NAME=VALUE", help="Set an option of every "
                                     "ruleset compared (a --variant's own value wins)."),
    seed: int = typer.Option(1, "--seed", help="Game k (counting from 0) is dealt from seed + k, under every ruleset."),
    jobs: int = typer.Option(1, "--jobs", "-j", help="Worker processes; 1 plays here."),
    engine: str = typer.Option("auto", "--engine", help="auto, python or native (as simulate's)."),
    out: Optional[Path] = typer.Option(None, "--json", "--out", metavar="FILE",
                                       help="Write the comparison (and each ruleset's summary) as JSON to this file."),
    csv_file: Optional[Path] = typer.Option(None, "--csv", metavar="FILE", help="Write one CSV row per measure and "
                                            "ruleset (value, difference, 95% interval) to this file."),
    plots: Optional[Path] = typer.Option(None, "--plots", metavar="DIR", help="Write PNG charts into this folder, one "
                                         "per measure (needs the plots extra)."),
    search_path: List[Path] = _search_path_option(),
) -> None:
    """Play the same seeds under several rulesets (or option sets) with the same bots; show each measure side by
    side with its difference from the base, the 95% interval, and * where it is significant."""

    from ..workbench.compare import compare_command

    code = compare_command(rulesets, games, variant, players, seat, option, seed, jobs, out, csv_file, plots,
                           console=terminal_console(highlight=False), search_path=[str(p) for p in search_path],
                           engine=engine)
    if code:
        raise typer.Exit(code)


SOLVE_HELP = (
    "Solve a one-player deal: solvable (with the moves), unsolvable, or unknown; or the best score.\n\n"
    "A solvable answer comes with moves, checked to win when replayed. An unsolvable answer assumes that "
    "every safe: claim of the ruleset is true (playing a move where its safe: holds never turns a winnable "
    "position into a lost one; --no-safe does without the claims), that every reachable position was searched "
    "(else the answer is unknown), and that the positions the search tells apart leave out only variables "
    "the rules never read (found by following the compiled rules).\n\n"
    "Time: --timeout bounds the search; a solution found is then shortened within --shorten-timeout, and "
    "the two times are reported apart. Both count --clock: wall time by default, or CPU time (--clock cpu), "
    "which gives every deal the same work on a loaded machine."
)


@app.command(help=SOLVE_HELP)
def solve(
    ruleset: str = typer.Argument(..., help="A one-player ruleset file, or the name of a bundled ruleset.",
                                  autocompletion=complete_ruleset),
    seed: Optional[int] = typer.Option(None, "--seed", help="Solve the deal of this seed."),
    deal: Optional[Path] = typer.Option(None, "--deal", metavar="FILE", help="Solve this deal file (card codes, top of the deck first)."),
    option: List[str] = _ruleset_option(),
    thoughtful: bool = typer.Option(False, "--thoughtful", help="Every card visible (how solitaires are analysed); "
                                    "needed where the player cannot see some cards."),
    timeout: float = typer.Option(DEFAULT_TIMEOUT, "--timeout", help="Give up searching after this many seconds "
                                  "per deal (answer: unknown), counted on --clock; inf: no limit."),
    clock: str = typer.Option("wall", "--clock", help="What the timeouts count: wall (elapsed time) or cpu (the "
                              "solving process's CPU time: the same work whatever else loads the machine; with "
                              "--jobs, each worker's own). The times reported count the same."),
    shorten_timeout: Optional[float] = typer.Option(None, "--shorten-timeout", show_default="a quarter of --timeout",
                                                    help="Seconds (on --clock) to shorten a solution found, after "
                                                         "the search and reported apart; 0: the moves as found "
                                                         "(unless past the move limit); inf: no limit."),
    no_safe: bool = typer.Option(False, "--no-safe", help="Ignore the ruleset's safe: claims and try every legal "
                                 "move: slower, but its answers do not rest on them. Where both are definite, it "
                                 "must agree with the answer without it; if not, a safe: claim is wrong."),
    max_positions: Optional[int] = typer.Option(None, "--max-positions", show_default=False,
                                                help="Give up past this many positions kept, a bound on memory "
                                                     f"(default {DEFAULT_MAX_POSITIONS:,}, about 400 bytes each; "
                                                     f"--engine native: {DEFAULT_MAX_POSITIONS_NATIVE:,}, about "
                                                     "150 bytes each)."),
    engine: str = typer.Option("python", "--engine", help="python, native or auto: the search compiled with Numba "
                               "(the 'native' extra), many times the positions a second; where it cannot search a "
                               "ruleset, one line says why and Python searches. auto: native where it can and its code "
                               "is compiled already or --sample is 10 deals or more (the engines may find different "
                               "solutions, so the default is one engine)."),
    sample: Optional[int] = typer.Option(None, "--sample", help="Solve seeds 1..N and report the solvable share."),
    jobs: int = typer.Option(1, "--jobs", "-j", help="Worker processes for --sample."),
    as_json: bool = typer.Option(False, "--json", help="Print the answer as JSON."),
    search_path: List[Path] = _search_path_option(),
) -> None:
    from ..workbench.solver import solve_command

    code = solve_command(ruleset, seed, deal, option, thoughtful, timeout, sample, jobs, as_json,
                         console=terminal_console(highlight=False), max_positions=max_positions,
                         search_path=[str(p) for p in search_path], use_safe=not no_safe, clock=clock,
                         shorten_timeout=shorten_timeout, engine=engine)
    if code:
        raise typer.Exit(code)


@app.command()
def validate(rulesets: List[str] = typer.Argument(..., help="Ruleset files or bundled names."),
    search_path: List[Path] = _search_path_option(),
) -> None:
    """Check rulesets (or deck files): YAML, schema, expressions and names. Errors show file:line:col.
    Warns (at the move) when a short random play finds a move whose legality hangs on cards its seat cannot see."""
    import gc

    from ..front.decks import load_deck
    from ..base.errors import RulesetWarning
    from ..workbench.leaks import find_leaks
    from ..python.load import check_ruleset
    from ..front.source import is_file
    from ..workbench.catalogue import header as catalogue_header

    gc.freeze()  # the modules just imported live as long as the process: the collector need not scan them again

    failed = False
    for name in rulesets:
        try:
            path = Path(name)
            header = catalogue_header(path) if is_file(path) else {}
            if "cards" in header and "moves" not in header:
                deck = load_deck(path)
                typer.echo(printable(f"ok  {name}  (deck {deck.name}: {len(deck)} cards)"))
                continue
            rules, combinations = check_ruleset(name, search_path=tuple(search_path))
        except CardrulesError as error:
            _report(error)
            failed = True
            continue
        typer.echo(f"ok  {printable(name)}  ({shown_title(rules.title)}: {len(rules.moves)} moves, {len(rules.zones)} zones, "
                   f"{len(rules.options)} options, checked under {combinations} option combinations)")
        note = _borrowed_name_note(rules)
        if note:
            typer.echo(printable(note))
        # What the ruleset writes that the engine does not use, and moves that give hidden cards away.
        for warning in [*rules.warnings, *(RulesetWarning(leak.message(), leak.pos) for leak in find_leaks(rules))]:
            _report(RulesetWarning(f"warning: {warning.message}", warning.pos))
    if failed:
        raise typer.Exit(1)


def _borrowed_name_note(rules: Ruleset) -> str | None:
    """For a file that declares the name of a bundled ruleset without being it: where its saved
    values, saves and statistics go (its own key, never the bundled ruleset's)."""
    from ..base.resources import rulesets_dir
    from ..model.ruleset import data_key, is_bundled

    if is_bundled(rules) or not (rulesets_dir() / f"{rules.name}.yaml").is_file():
        return None
    return (f"    note: {rules.name} is also the name of a bundled ruleset; this file is not it: its saved "
            f"values, saves and statistics are its own, kept under {data_key(rules)!r}, and it never reads "
            f"nor changes the bundled one's")


@app.command("list")
def list_rulesets() -> None:
    """The bundled rulesets: what each extends, its description, its options' defaults and allowed values."""
    from rich.padding import Padding
    from rich.text import Text

    from ..workbench.catalogue import allowed_text, bundled, option_text

    console = terminal_console(highlight=False)
    for entry in bundled():
        low, high = entry.min_players, entry.max_players
        players_text = f"{low}-{high} players" if low != high else f"{low} player{'s' if low > 1 else ''}"
        head = Text(entry.name, style="bold cyan")
        head.append(f"  {players_text}", style="dim")
        if entry.extends:
            head.append("  extends ", style="dim")
            head.append(", ".join(entry.extends))
        console.print(head)
        if entry.description:
            console.print(Padding(Text(entry.description), (0, 0, 0, 4)))
        options = ", ".join(f"{k}={option_text(spec.get('default'))} ({allowed_text(spec)})"
                            for k, spec in entry.options.items())
        if options:
            console.print(Padding(Text("options: ", style="dim").append(options, style=""), (0, 0, 0, 4)))


@app.command("rules")
def rules_text(
    ruleset: str = typer.Argument(..., help="A ruleset file, or the name of a bundled ruleset (see `cardrules list`).",
                                  autocompletion=complete_ruleset),
    option: list[str] = _ruleset_option(),  # noqa: B008 - as every command takes it
    output_format: str = typer.Option("text", "--format", metavar="text|markdown", help="text (wrapped to the terminal) or markdown."),
    width: int | None = typer.Option(None, "--width", min=30, help="Wrap text at this many columns (default: "
                                        "the terminal's width, 80 when not a terminal)."),
    no_fold: bool = typer.Option(False, "--no-fold", help="Keep the options in the text (`the draw option`) "
                                 "instead of folding them to the chosen values."),
    search_path: list[Path] = _search_path_option(),  # noqa: B008
) -> None:
    """The rules in words: players, deck, options, zones, setup, each move with its conditions, triggers, end, score."""
    import shutil

    from ..workbench.describe import describe, render_markdown, render_text

    if output_format not in ("text", "markdown"):
        raise typer.BadParameter(f"--format is text or markdown, not {output_format!r}")
    try:
        document = describe(ruleset, _pairs(option, "--option NAME"), tuple(search_path), fold=not no_fold)
    except CardrulesError as error:
        _fail(error)
        return
    if output_format == "markdown":
        text = render_markdown(document)
    else:
        columns = width or (shutil.get_terminal_size((80, 24)).columns if sys.stdout.isatty() else 80)
        text = render_text(document, columns)
    typer.echo(printable(text), nl=False)


@app.command()
def schema(deck: bool = typer.Option(False, "--deck", help="Print the deck file schema instead.")) -> None:
    """Print the JSON Schema of ruleset files, variants included (or of deck files), for editors."""
    from ..front.schema import published_schema

    print(json.dumps(published_schema("deck" if deck else "ruleset"), indent=2, ensure_ascii=False))


@app.command()
def stats(ruleset: Optional[str] = typer.Argument(None, help="Only this ruleset (its name, or its file).",
                                  autocompletion=complete_ruleset),
          as_json: bool = typer.Option(False, "--json", help="Print the statistics as JSON."),
          forget: bool = typer.Option(False, "--reset", help="Forget the ruleset's statistics."),
          search_path: List[Path] = _search_path_option(),
) -> None:
    """Your results by ruleset and options: games played and won, streaks, best score."""
    from rich.table import Table

    from ..storage import saves
    from ..front.source import is_file

    from ..storage.store import data_key

    try:  # a file's figures are kept under its name and path (`ruleset.data_key`); a bundled name as it is
        name = data_key(load_ruleset(ruleset, search_path=tuple(search_path))) \
            if ruleset is not None and is_file(Path(ruleset)) else ruleset
        if forget:
            if name is None:
                raise typer.BadParameter("--reset forgets one ruleset's statistics: name it")
            print(printable(f"forgot the statistics of {name}" if saves.reset_stats(name) else f"no statistics of {name}"))
            return
        data = saves.read_stats()
    except CardrulesError as error:
        _fail(error)
        return
    if name is not None:
        data = {name: data[name]} if name in data else {}
    if as_json:
        print(json.dumps(data, indent=2))
        return
    if not data:
        print("no games counted yet" + (f" for {printable(name)}" if name is not None else "") +
              " (a game counts when one human plays it with `cardrules play` to its end, or quits it)")
        return
    table = Table(box=None, header_style="bold", pad_edge=False)
    for column in ("ruleset", "options", "played", "won", "%", "streak", "longest", "best"):
        table.add_column(column, justify="left" if column in ("ruleset", "options") else "right",
                         overflow="fold")  # a file's key (its name and path) shown whole, folded
    for ruleset_name in sorted(data):
        for key, record in sorted(data[ruleset_name].items()):
            best = record.get("best_score")
            table.add_row(ruleset_name, key, str(record["played"]), str(record["won"]),
                          f"{100 * record['won'] / record['played']:.0f}" if record["played"] else "-",
                          str(record["streak"]), str(record["best_streak"]), "-" if best is None else str(best))
    terminal_console(highlight=False).print(table)


@app.command()
def reset(ruleset: str = typer.Argument(..., help="The ruleset whose saved values to forget.",
                                  autocompletion=complete_ruleset),
    search_path: List[Path] = _search_path_option(),
) -> None:
    """Forget a ruleset's values kept between games (for example the cumulative Vegas balance)."""
    from ..storage import store
    from ..model.ruleset import find_ruleset

    try:
        name = store.data_key(load_ruleset(find_ruleset(ruleset), search_path=tuple(search_path)))
        backup = store.reset(name)
    except CardrulesError as error:
        _fail(error)
        return
    if backup is not None:
        print(printable(f"the store was corrupt; a copy is at {backup}"))
    print(printable(f"reset the saved values of {name} ({store.store_path()})"))


def main() -> None:
    """The `cardrules` command. Errors of the user's making are reported by each command; any other
    exception is a bug: one line on standard error and exit status 2 (`--debug`: the traceback)."""
    try:
        app()
    except KeyboardInterrupt:
        sys.exit(130)
    except Exception as exc:  # noqa: BLE001 - the one place an unexpected error is reported
        if _debug:
            traceback.print_exc()
        else:
            what = printable(f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__)[:300]
            print(f"cardrules: internal error ({what}); this is a bug, please report it with the command "
                  f"you ran; --debug shows the traceback", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
