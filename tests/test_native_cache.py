"""The native backend's cache folder: what is loaded from it runs, so a folder another user could
write (or owns) is refused with a `CacheError`, the folders cardrules makes there are private,
and a generated module is written without following a link planted in its place."""

from __future__ import annotations

import hashlib
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from cardrules.native import cache as native
from cardrules.base import resources
from cardrules.front import schema
from cardrules.base.errors import CacheError


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "cache"
    monkeypatch.setenv("CARDRULES_CACHE", str(root))
    return root


def mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_the_folders_made_are_private(cache: Path) -> None:
    folder = native._private_cache_dir()
    assert folder == cache / "native"
    for made in (cache, folder, folder / "__pycache__"):
        assert made.is_dir() and mode(made) == 0o700


def test_missing_parents_of_the_cache_are_made_private_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDRULES_CACHE", str(tmp_path / "a" / "b"))
    native._private_cache_dir()
    assert mode(tmp_path / "a") == 0o700 and mode(tmp_path / "a" / "b") == 0o700


@pytest.mark.parametrize("where", ["", "native", "native/__pycache__"])
@pytest.mark.parametrize("bits", [0o777, 0o770, 0o702])
def test_a_folder_others_may_write_is_refused(cache: Path, where: str, bits: int) -> None:
    native._private_cache_dir()
    folder = cache / where
    folder.chmod(bits)  # as root too: the mode is what counts, not who may write
    with pytest.raises(CacheError, match=f"{folder} may be written by other users \\(mode {bits:04o}\\)"):
        native._private_cache_dir()
    folder.chmod(0o755)  # read by others, written by its owner only: fine
    native._private_cache_dir()


def test_a_folder_another_user_owns_is_refused(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    native._private_cache_dir()
    mine = os.stat(cache).st_uid
    monkeypatch.setattr(os, "geteuid", lambda: mine + 1)
    with pytest.raises(CacheError, match=f"belongs to another user \\(uid {mine}, you are {mine + 1}\\)"):
        native._private_cache_dir()


def test_a_file_in_place_of_the_folder_is_refused(cache: Path) -> None:
    cache.mkdir(mode=0o700)
    (cache / "native").write_text("", encoding="utf-8")
    with pytest.raises(CacheError, match="native is not a folder"):
        native._private_cache_dir()


def test_a_link_to_another_users_folder_is_refused(cache: Path, tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    cache.mkdir(mode=0o700)
    (cache / "native").symlink_to(shared)
    with pytest.raises(CacheError, match="may be written by other users"):
        native._private_cache_dir()


def test_a_module_is_loaded_from_a_private_folder_only(cache: Path) -> None:
    native._private_cache_dir()
    (cache / "native").chmod(0o777)
    with pytest.raises(CacheError):
        native._load_module("ANSWER = 'never loaded'\n")


def test_links_planted_at_the_module_and_old_temporary_names_are_never_followed(cache: Path, tmp_path: Path) -> None:
    source = "ANSWER = 42\n"
    stem = f"cardrules_native_{hashlib.sha256(source.encode()).hexdigest()[:24]}"
    folder = native._private_cache_dir()
    victim = tmp_path / "victim.txt"
    victim.write_text("mine\n", encoding="utf-8")
    (folder / f"{stem}.py").symlink_to(victim)
    (folder / f"{stem}.{os.getpid()}.tmp").symlink_to(victim)  # the name an older version wrote to
    module = native._load_module(source)
    assert module.ANSWER == 42
    assert victim.read_text(encoding="utf-8") == "mine\n"
    written = folder / f"{stem}.py"
    assert not written.is_symlink() and written.read_text(encoding="utf-8") == source
    assert not [p for p in folder.iterdir() if p.name.startswith(f".{stem}")]  # no temporary file left


def test_the_cli_reports_an_unsafe_cache_without_a_traceback(cache: Path) -> None:
    pytest.importorskip("numba")
    native._private_cache_dir()
    cache.chmod(0o777)
    # A process of its own: one that has the module already (another test's) loads nothing from the folder.
    result = subprocess.run([sys.executable, "-m", "cardrules.app.cli", "simulate", "klondike", "-n", "1", "--engine",
                             "native"], capture_output=True, text=True, env={**os.environ, "CARDRULES_CACHE": str(cache)})
    assert result.returncode == 1, result.stdout + result.stderr
    assert f"the cache folder {cache} may be written by other users" in result.stderr
    assert "Traceback" not in result.stdout + result.stderr


def test_schema_verdicts_in_a_folder_others_may_write_are_not_believed(cache: Path) -> None:
    digest = b"\x01" * 32
    schema._keep_valid("ruleset", digest)
    assert schema._known_valid("ruleset", digest)
    resources.cache_dir("schema").chmod(0o777)
    assert not schema._known_valid("ruleset", digest)


def test_a_numba_cache_folder_others_may_write_is_refused(cache: Path, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    shared = tmp_path / "numba"
    shared.mkdir(mode=0o700)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(shared))
    native._private_cache_dir()
    shared.chmod(0o777)
    with pytest.raises(CacheError, match=f"NUMBA_CACHE_DIR {shared} may be written by other users"):
        native._private_cache_dir()
