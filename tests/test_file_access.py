"""A ruleset reads only what it should: its own folder tree and the bundled rulesets.

`deck:` and `extends:` name YAML files; a name that leads elsewhere (an absolute path, `../`,
a symbolic link out of the folder, /proc or /etc) is refused, a folder is added only on
purpose (`search_path`, the command line's `--path`), no file is read past its size bound or
from a pipe or device, and the text of a file that is not a ruleset is never echoed.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cardrules import RulesetError, format_error, load_ruleset
from cardrules.base.limits import MAX_FILE_BYTES

FIXTURES = Path(__file__).resolve().parent / "fixtures"
MINI = (FIXTURES / "mini.yaml").read_text(encoding="utf-8")
STANDARD_52 = (FIXTURES.parent.parent / "rulesets" / "decks" / "standard-52.yaml").read_text(encoding="utf-8")
SECRET = "cardrules-test-secret-7f3a"


def _ruleset(folder: Path, deck: str = "standard-52", name: str = "game.yaml") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(MINI.replace("deck: standard-52", f"deck: {deck}", 1), encoding="utf-8")
    return path


def _message(error: RulesetError) -> str:
    return format_error(error)


@pytest.mark.parametrize("deck", ["/proc/self/environ", "/proc/self/environ.yaml", "/etc/passwd",
                                  "../../../../../../etc/passwd", "/dev/zero"])
def test_a_deck_outside_the_allowed_folders_is_refused_and_nothing_of_it_is_shown(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, deck: str) -> None:
    monkeypatch.setenv("CARDRULES_TEST_SECRET", SECRET)
    with pytest.raises(RulesetError) as caught:
        load_ruleset(_ruleset(tmp_path, deck))
    shown = _message(caught.value)
    assert f"deck '{deck}'" in shown and SECRET not in shown and "root:" not in shown
    assert caught.value.pos is not None and caught.value.pos.line == 3


@pytest.mark.parametrize("base", ["/proc/self/environ", "../../../../../../../etc/passwd", "/etc/hostname"])
def test_extends_outside_the_allowed_folders_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        base: str) -> None:
    monkeypatch.setenv("CARDRULES_TEST_SECRET", SECRET)
    path = tmp_path / "v.yaml"
    path.write_text(f"ruleset: v\nextends: {base}\n", encoding="utf-8")
    with pytest.raises(RulesetError, match="no ruleset") as caught:
        load_ruleset(path)
    assert SECRET not in _message(caught.value)


def test_a_deck_in_a_sibling_folder_needs_the_folder_on_the_search_path(tmp_path: Path) -> None:
    (tmp_path / "decks-elsewhere").mkdir()
    (tmp_path / "decks-elsewhere" / "my-deck.yaml").write_text(STANDARD_52, encoding="utf-8")
    path = _ruleset(tmp_path / "game", "../decks-elsewhere/my-deck")
    with pytest.raises(RulesetError, match="outside the folders this ruleset may read") as caught:
        load_ruleset(path)
    assert "--path" in caught.value.message
    rules = load_ruleset(path, search_path=(tmp_path / "decks-elsewhere",))
    assert len(rules.deck) == 52


def test_a_deck_in_the_rulesets_own_folder_tree_is_read(tmp_path: Path) -> None:
    (tmp_path / "game" / "decks").mkdir(parents=True)
    (tmp_path / "game" / "decks" / "mine.yaml").write_text(STANDARD_52, encoding="utf-8")
    (tmp_path / "game" / "sub").mkdir()
    (tmp_path / "game" / "sub" / "other.yaml").write_text(STANDARD_52, encoding="utf-8")
    assert len(load_ruleset(_ruleset(tmp_path / "game", "mine")).deck) == 52
    assert len(load_ruleset(_ruleset(tmp_path / "game", "sub/other", "g2.yaml")).deck) == 52
    assert len(load_ruleset(_ruleset(tmp_path / "game", "standard-52", "g3.yaml")).deck) == 52  # bundled


def test_a_symbolic_link_out_of_the_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "deck.yaml").write_text(STANDARD_52, encoding="utf-8")
    (tmp_path / "game").mkdir()
    os.symlink(tmp_path / "outside" / "deck.yaml", tmp_path / "game" / "linked.yaml")
    with pytest.raises(RulesetError, match="outside the folders this ruleset may read"):
        load_ruleset(_ruleset(tmp_path / "game", "linked"))


def test_only_yaml_files_are_read_through_a_name(tmp_path: Path) -> None:
    (tmp_path / "deck.txt").write_text(STANDARD_52, encoding="utf-8")
    with pytest.raises(RulesetError, match="deck 'deck.txt' not found"):
        load_ruleset(_ruleset(tmp_path, "deck.txt"))


def test_a_pipe_named_like_a_deck_is_not_read_and_does_not_hang(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "fifo.yaml")
    with pytest.raises(RulesetError, match="not a regular file"):
        load_ruleset(_ruleset(tmp_path, "fifo"))


def test_a_file_past_the_size_bound_is_not_read(tmp_path: Path) -> None:
    path = tmp_path / "huge.yaml"
    path.write_text(MINI + "#" * (MAX_FILE_BYTES + 1), encoding="utf-8")
    with pytest.raises(RulesetError, match=f"larger than {MAX_FILE_BYTES:,} bytes"):
        load_ruleset(path)


def test_a_system_file_named_on_the_command_line_is_not_read() -> None:
    with pytest.raises(RulesetError, match="not a file cardrules reads"):
        load_ruleset("/proc/self/environ")


def test_a_file_that_is_not_a_ruleset_is_not_echoed(tmp_path: Path) -> None:
    path = tmp_path / "notes.yaml"
    path.write_text(f"just some text {SECRET}\n", encoding="utf-8")
    with pytest.raises(RulesetError, match="a ruleset must be a mapping") as caught:
        load_ruleset(path)
    assert SECRET not in _message(caught.value)
    deck = tmp_path / "d.yaml"
    deck.write_text(f"- {SECRET}\n", encoding="utf-8")
    with pytest.raises(RulesetError, match="a deck file must be a mapping") as caught:
        load_ruleset(_ruleset(tmp_path, "d"))
    assert SECRET not in _message(caught.value)


def test_a_binary_file_is_reported_without_its_bytes(tmp_path: Path) -> None:
    path = tmp_path / "bin.yaml"
    path.write_bytes(b"ruleset: x\n\xff\xfe" + SECRET.encode())
    with pytest.raises(RulesetError, match="not a UTF-8 text file") as caught:
        load_ruleset(path)
    assert SECRET not in _message(caught.value)


@pytest.mark.parametrize("name", ["x" * 5000, "a\x00b", "x/" * 3000 + "d"])
def test_a_name_the_system_refuses_is_a_clean_error_cut_short_in_the_message(tmp_path: Path, name: str) -> None:
    with pytest.raises(RulesetError) as caught:  # not found (a NUL byte: a control character)
        load_ruleset(_ruleset(tmp_path, f'"{name}"'.replace("\x00", "\\0")))
    assert len(caught.value.message) < 200
    with pytest.raises(RulesetError, match="no ruleset"):
        load_ruleset(name)
