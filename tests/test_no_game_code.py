"""Game knowledge lives in rulesets: the interpreter names no bundled game or deck."""

from __future__ import annotations

import re

from conftest import ROOT

GAME_NAMES = re.compile(r"klondike|canfield|dollartaire|cascades|decktet|nerts|ten.?bucks|standard-52", re.IGNORECASE)


def test_interpreter_names_no_bundled_game_or_deck() -> None:
    offenders = []
    for path in sorted((ROOT / "interpreter").rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if GAME_NAMES.search(line):
                offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not offenders, "game knowledge in the interpreter:\n" + "\n".join(offenders)


def test_the_check_would_catch_a_game_name() -> None:
    assert GAME_NAMES.search("if rules.name == 'Klondike':")
    assert GAME_NAMES.search("TEN_BUCKS = 10") and GAME_NAMES.search("deck = 'standard-52'")
