"""Per-user storage of games in progress and of results: `play`'s save and resume, and `stats`.

Saves and statistics are kept under the ruleset's data key (`ruleset.data_key`: a bundled ruleset's
name, any other file's name and resolved path), so a file never reads nor changes another's.

A saved game is one JSON file in `saves/FOLDER/` of the user's data folder (`store.data_dir`;
FOLDER: a bundled ruleset's name, else the file's name and a hash of its key, `coin@3f2a...`):
the ruleset (its name, and the resolved path of its file when it is not bundled), the option
values, the number of seats, the seed or the deal, the persistent values the game began with,
the seats' kinds and the texts of the moves made. Each save is written atomically under a new
name, never over another file, so games saved at once by several processes are all kept. Resuming reads the newest save of the
ruleset, claims it (`claim`: a lock beside it held while the game is played, so a second process
resuming the same save is refused), checks every field, loads the ruleset again and replays the
moves one by one: each must be legal, or the save is refused naming the move. The file is removed
only once the resumed game has ended or been saved again (under a new name), so a crash loses
nothing.

Statistics (`stats.json`), by data key and then by option values (`draw=3 scoring=vegas`): games
played and won, the current and the longest winning streak, the best score. A game counts once,
when it ends or is abandoned after a move was made (abandoned counts as lost); a saved game counts
when it is finished. Updated under a lock shared by every cardrules process, and written
atomically; a file that does not check is reported and never overwritten.

A save holds the deal, so it tells every hidden card to whoever reads the file: it is for resuming
at the same terminal, not for handing to the other seats.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeGuard

from filelock import FileLock, Timeout

from ..base.errors import IllegalMoveError, SaveError, printable
from ..base.limits import INT_MAX, INT_MIN, MAX_SAVE_BYTES
from ..model.ruleset import is_bundled
from .store import data_dir, data_key, locked, read_json, write_json

if TYPE_CHECKING:
    from ..python.engine import Game
    from ..model.ruleset import Ruleset

SAVE_FORMAT = 1
STATS_FIELDS = ("played", "won", "streak", "best_streak")


def saves_dir(key: str) -> Path:
    """The folder of the saves kept under a data key (`ruleset.data_key`): a bundled ruleset's name
    as it is; any other key as its ruleset's name and a hash of the whole key (a name has no `@`,
    so no other key's folder is a bundled ruleset's)."""
    name, _, rest = key.partition(" ")
    folder = name if not rest else f"{name}@{hashlib.sha256(key.encode('utf-8')).hexdigest()[:16]}"
    return data_dir() / "saves" / folder


def stats_path() -> Path:
    return data_dir() / "stats.json"


@dataclass
class SavedGame:
    """What it takes to set a game up again and replay it (see the module's docstring)."""
    ruleset: str
    file: str | None                 # the ruleset's file, when it is not a bundled ruleset
    options: dict[str, Any]
    players: int
    seed: int | None
    deal: list[str] | None
    persisted: dict[str, Any]
    seats: dict[str, str]            # seat number (from 1) -> `--seat` text, for the seats not human
    moves: list[str]
    saved: str = ""                  # when, in UTC (ISO 8601)
    path: Path | None = field(default=None, compare=False)  # the file it was read from

    def to_json(self) -> dict[str, Any]:
        return {"cardrules_save": SAVE_FORMAT, "ruleset": self.ruleset, "file": self.file,
                "options": self.options, "players": self.players, "seed": self.seed, "deal": self.deal,
                "persisted": self.persisted, "seats": self.seats, "moves": self.moves, "saved": self.saved}


def save_file(rules: Ruleset) -> str | None:
    """What a save records as the ruleset's file: None for a bundled ruleset, else its resolved path."""
    return None if is_bundled(rules) or rules.path is None else str(rules.path.resolve())


def game_to_save(game: Game, file: str | None, seats: dict[str, str]) -> SavedGame:
    """A game as a save: the deal (its seed, or the cards), its options and its moves' full texts."""
    rules = game.rules
    return SavedGame(rules.name, file, dict(rules.option_values), game.players, game.seed,
                     game.deal_order if game.seed is None else None, dict(game.persisted_start), dict(seats),
                     [move.text() for move in game.history])


def write_save(saved: SavedGame, key: str) -> Path:
    """Write a save under a new name in the folder of its ruleset's data `key` (atomically; never
    over another save)."""
    folder = saves_dir(key)
    saved.saved = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime()) + f"-{time.time_ns() % 1_000_000_000:09d}"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".saving-", suffix=".json", dir=folder)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(saved.to_json(), handle, indent=1)
                handle.write("\n")
                handle.flush()
                os.fsync(handle.fileno())
            for attempt in range(1000):  # a name no other save has: link() never replaces a file
                path = folder / f"{stamp}{'' if attempt == 0 else f'-{attempt}'}.json"
                try:
                    os.link(tmp, path)
                    break
                except FileExistsError:
                    continue
            else:
                raise SaveError(f"cannot find a free name for a save in {folder}")
        finally:
            os.unlink(tmp)
    except OSError as exc:
        raise SaveError(f"cannot save the game in {folder}: {exc}") from None
    saved.path = path
    return path


def list_saves(key: str) -> list[Path]:
    """The saves kept under a data key, oldest first (their names sort by the time they were written)."""
    folder = saves_dir(key)
    try:
        return sorted(p for p in folder.iterdir() if p.suffix == ".json" and not p.name.startswith("."))
    except FileNotFoundError:
        return []
    except OSError as exc:
        raise SaveError(f"cannot read {folder}: {exc}") from None


def _read_json(path: Path, what: str) -> Any:
    """A save or the statistics, parsed within `MAX_SAVE_BYTES` (None if there is no file)."""
    return read_json(path, MAX_SAVE_BYTES, lambda where, problem: SaveError(f"{where}: {what} is corrupt ({problem})"))


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and INT_MIN <= value <= INT_MAX


def _scalar(value: Any) -> bool:
    """A value a save may hold for an option or a persistent variable."""
    return isinstance(value, (bool, str)) or _is_int(value)


def read_save(path: Path) -> SavedGame:
    """A save file, every field checked (a `SaveError` names the file and the field)."""
    data = _read_json(path, "the saved game")
    if data is None:
        raise SaveError(f"{path}: no such saved game")

    def bad(where: str, expected: str) -> SaveError:
        return SaveError(f"{path}: the saved game is corrupt ({where}: expected {expected}); "
                         f"delete the file to forget it")

    if not isinstance(data, dict):
        raise bad("the file", "an object")
    if data.get("cardrules_save") != SAVE_FORMAT:
        raise bad("cardrules_save", f"{SAVE_FORMAT}, the save format this version reads")
    unknown = sorted(set(data) - {"cardrules_save", "ruleset", "file", "options", "players", "seed", "deal",
                                  "persisted", "seats", "moves", "saved"})
    if unknown:
        raise bad(printable(unknown[0]), "no such field")
    ruleset, file, options = data.get("ruleset"), data.get("file"), data.get("options")
    if not isinstance(ruleset, str) or not ruleset:
        raise bad("ruleset", "a ruleset's name")
    if file is not None and not isinstance(file, str):
        raise bad("file", "a path or null")
    if not isinstance(options, dict) or not all(_scalar(v) for v in options.values()):
        raise bad("options", "an object of option values")
    players, seed, deal = data.get("players"), data.get("seed"), data.get("deal")
    if not _is_int(players) or players < 1:
        raise bad("players", "a number of seats")
    if (seed is None) == (deal is None):
        raise bad("seed, deal", "a seed or a deal")
    if seed is not None and not _is_int(seed):
        raise bad("seed", "an integer")
    if deal is not None and not (isinstance(deal, list) and all(isinstance(c, str) for c in deal)):
        raise bad("deal", "a list of card codes")
    persisted, seats, moves = data.get("persisted", {}), data.get("seats", {}), data.get("moves")
    if not isinstance(persisted, dict) or not all(
            _scalar(v) or isinstance(v, list) and all(_scalar(x) for x in v) for v in persisted.values()):
        raise bad("persisted", "an object of integers and true/false")
    if not isinstance(seats, dict) or not all(isinstance(k, str) and k.isdigit() and isinstance(v, str)
                                              for k, v in seats.items()):
        raise bad("seats", "an object of seat numbers to seat kinds")
    if not isinstance(moves, list):
        raise bad("moves", "a list of move texts")
    for number, text in enumerate(moves, 1):
        if not isinstance(text, str):
            raise bad(f"moves[{number}]", "a move's text")
    saved = data.get("saved", "")
    return SavedGame(ruleset, file, options, players, seed, deal, persisted, seats, moves,
                     saved if isinstance(saved, str) else "", path)


def replay(saved: SavedGame, rules: Ruleset) -> Game:
    """The saved game set up again under `rules` and its moves replayed, each checked to be legal."""
    game = rules.new_game(seed=saved.seed, deal=saved.deal, players=saved.players, persisted=saved.persisted)
    for number, text in enumerate(saved.moves, 1):
        try:
            if game.is_over:
                raise IllegalMoveError("the game was already over")
            game.apply(game.parse_move(text))
        except IllegalMoveError as exc:
            raise SaveError(f"{saved.path}: move {number} of the saved game ({printable(text)!r}) cannot be "
                            f"replayed: {exc}; was the ruleset changed since the game was saved?") from None
    return game


def _claim_path(path: Path) -> Path:
    return path.with_name(f".{path.name}.claim")


@contextmanager
def claim(path: Path) -> Iterator[None]:
    """Hold a save while its game is played: a lock beside it that one process at a time holds
    (the system drops it if the process dies, so a crash loses nothing). A second process resuming
    the same save is refused at once, so the game is counted once. Inside, the save may have gone:
    a process that held it before ended the game (then reading it says so)."""
    lock = FileLock(_claim_path(path), timeout=0)
    try:
        lock.acquire()
    except Timeout:
        raise SaveError(f"{path}: this saved game is being played in another cardrules process; "
                        f"finish or save it there first") from None
    except OSError as exc:
        raise SaveError(f"cannot claim the saved game {path}: {exc}") from None
    try:
        yield
    finally:
        if not path.exists():  # the game ended or was saved anew: its claim has served
            try:
                os.unlink(_claim_path(path))
            except OSError:
                pass
        lock.release()


def remove_save(path: Path) -> None:
    """Forget a save that has been resumed and then ended or saved anew."""
    try:
        path.unlink()
    except FileNotFoundError:
        pass
    except OSError as exc:
        raise SaveError(f"cannot remove the resumed save {path}: {exc}") from None


# -- statistics -----------------------------------------------------------------------------

def options_key(rules: Ruleset, players: int) -> str:
    """The statistics' key of a ruleset's option values (and of the seats, where they may vary)."""
    parts = [f"{name}={str(value).lower() if isinstance(value, bool) else value}"
             for name, value in rules.option_values.items()]
    if rules.min_players != rules.max_players:
        parts.append(f"players={players}")
    return " ".join(parts) or "-"


def _check_stats(path: Path, data: Any) -> dict[str, dict[str, dict[str, Any]]]:
    def bad(where: str, problem: str) -> SaveError:
        return SaveError(f"{path}: the statistics are corrupt ({where}: {problem}); fix the file or "
                         f"run `cardrules stats --reset RULESET`")

    if data is None:
        return {}
    if not isinstance(data, dict):
        raise bad("the file", "expected an object")
    for ruleset, by_options in data.items():
        if not isinstance(by_options, dict):
            raise bad(printable(ruleset), "expected an object")
        for key, record in by_options.items():
            where = f"{printable(ruleset)}, {printable(key)}"
            if not isinstance(record, dict):
                raise bad(where, "expected an object")
            for name in STATS_FIELDS:
                value = record.get(name)
                if not _is_int(value) or value < 0:
                    raise bad(f"{where}, {name}", f"expected a count, not {printable(repr(value))}")
            if record["won"] > record["played"] or record["streak"] > record["best_streak"]:
                raise bad(where, "more won than played, or a streak longer than the best")
            best = record.get("best_score")
            if best is not None and not _is_int(best):
                raise bad(f"{where}, best_score", f"expected an integer or null, not {printable(repr(best))}")
    return data


def read_stats() -> dict[str, dict[str, dict[str, Any]]]:
    """Every ruleset's statistics, checked: {ruleset: {options key: record}}."""
    path = stats_path()
    return _check_stats(path, _read_json(path, "the statistics file"))


def record_result(rules: Ruleset, players: int, won: bool, score: int | None) -> dict[str, Any]:
    """Count one game of `rules` (won or not, the human seat's score if the ruleset scores) and
    return its options' record as it now stands."""
    path = stats_path()
    with locked(path):
        data = read_stats()
        by_options = data.setdefault(data_key(rules), {})
        record = by_options.setdefault(options_key(rules, players),
                                       {"played": 0, "won": 0, "streak": 0, "best_streak": 0, "best_score": None})
        record["played"] += 1
        if won:
            record["won"] += 1
            record["streak"] += 1
            record["best_streak"] = max(record["best_streak"], record["streak"])
        else:
            record["streak"] = 0
        if score is not None:
            best = record.get("best_score")
            if best is None or rules.score_sign * score > rules.score_sign * best:
                record["best_score"] = score
        write_json(path, data)
    return dict(record)


def reset_stats(ruleset: str) -> bool:
    """Forget the statistics under one data key (`ruleset.data_key`); False if there were none."""
    path = stats_path()
    with locked(path):
        data = read_stats()
        if ruleset not in data:
            return False
        del data[ruleset]
        write_json(path, data)
    return True


__all__ = ["SavedGame", "claim", "game_to_save", "list_saves", "options_key", "read_save", "read_stats",
           "record_result", "remove_save", "replay", "reset_stats", "save_file", "saves_dir", "stats_path", "write_save"]
