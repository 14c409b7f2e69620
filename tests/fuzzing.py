"""Fuzzing: case generators, the case runner and an isolated worker, shared by tests/test_fuzz.py
(Hypothesis, a small fixed budget) and benchmarks/fuzz.py (any number of cases, in parallel).

The promise under test: any input from a stranger (a ruleset file, a deck file, an expression, a
saved-values file, a move text typed at the terminal) either works or fails with a
`CardrulesError`; never another exception, a hang or unbounded memory.

A *case* is plain JSON data (`Case`): what to feed the library, and nothing else, so a failing
case can be written to a file and replayed. Every generator is a plain function of a
`random.Random` (`GENERATORS[target](rng)`): the script draws from `random.Random(f"{seed}/...")`,
so the same seed gives the same cases; the tests wrap the same functions in Hypothesis
strategies (`st.randoms(use_true_random=False).map(generator)`), so Hypothesis can shrink them.

`run_case(case, folder)` feeds a case to the library and returns "accepted" (everything worked)
or raises: a `CardrulesError` is a clean error, anything else is a bug. `execute` classifies one
run; `Worker` runs cases in a forked process with a time limit and a memory cap, so a case that
hangs or eats memory shows as "slow" or as a MemoryError instead of stopping the run.

Targets: expressions (built from the grammar, put into each expression slot of a host ruleset),
mutated (the bundled rulesets' own expressions, mutated in place), yaml (bundled ruleset and
deck files with text and tree mutations), store (the saved `persist` values), moves (move texts
for `Game.parse_move`, and scripted terminal play through the command line), and extremes (a
fixed list of crafted inputs: deep nesting, huge literals, YAML bombs, hostile paths and titles).
"""

from __future__ import annotations

import base64
import functools
import io
import json
import multiprocessing
import os
import random
import re
import resource
import shutil
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
RULESETS = ROOT / "rulesets"
DECKS = RULESETS / "decks"
INTERPRETER = ROOT / "interpreter"

TARGETS = ("expressions", "mutated", "yaml", "store", "moves")
DEFAULT_TIMEOUT = 5.0
DEFAULT_MEMORY = 2 * 1024 ** 3  # bytes of address space a worker may use beyond what it holds when forked


# ---------------------------------------------------------------------------------------------
# Cases


@dataclass
class Case:
    """One input. `kind` says how to run it: expr, mutated, yaml, store, move, cli."""

    target: str
    kind: str
    data: dict[str, Any]
    name: str = ""  # a label: the extreme's name, or target-seed-index for generated cases

    def to_dict(self) -> dict[str, Any]:
        return {"target": self.target, "kind": self.kind, "name": self.name, "data": self.data}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Case:
        return cls(d["target"], d["kind"], d["data"], d.get("name", ""))

    def describe(self, limit: int = 600) -> str:
        """The input, for a failure message (long texts cut in the middle)."""
        d = self.data
        if self.kind == "expr":
            text = f"slot {d['slot']}" + (f" (set {d['var']})" if d.get("var") else "") + f": {_cut(d['expr'], limit)!r}"
        elif self.kind == "mutated":
            text = f"{d['file']} at {'.'.join(map(str, d['path']))}: {_cut(d['expr'], limit)!r} (was {d['original']!r})"
        elif self.kind == "yaml":
            text = f"{d['file']}:\n{_cut(d['text'], limit)}"
        elif self.kind == "store":
            text = f"store for {d['ruleset']}: {_cut(repr(base64.b64decode(d['content'])), limit)}"
        elif self.kind == "move":
            text = (f"{d['ruleset']} seed {d['seed']} players {d['players']} after {d['prefix']!r}: "
                    f"parse_move({_cut(d['text'], limit)!r}, seat={d['seat']})")
        elif self.kind == "deal":
            text = f"{d['ruleset']} players {d['players']}, deal: {_cut(d['text'], limit)!r}"
        elif self.kind == "cli":
            files = "".join(f"\n--- {k}:\n{_cut(v, limit)}" for k, v in d.get("files", {}).items())
            text = f"cardrules {' '.join(d['args'])} with input {_cut(d['input'], limit)!r}{files}"
        else:
            text = json.dumps(d)[:limit]
        return f"[{self.target}/{self.kind}{' ' + self.name if self.name else ''}] {text}"


def _cut(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    half = limit // 2
    return f"{text[:half]}...<{len(text) - limit} more>...{text[-half:]}"


def case_rng(seed: int | str, target: str, index: int) -> random.Random:
    """The random source of one generated case: the same (seed, target, index) gives the same case."""
    return random.Random(f"{seed}/{target}/{index}")


# ---------------------------------------------------------------------------------------------
# Bundled files, cached


def bundled_rulesets() -> list[str]:
    return sorted(p.name for p in RULESETS.glob("*.yaml"))


def bundled_decks() -> list[str]:
    return sorted(p.name for p in DECKS.glob("*.yaml"))


@functools.cache
def bundled_text(file: str) -> str:
    return (RULESETS / file).read_text(encoding="utf-8")


@functools.cache
def bundled_rules(name: str) -> Any:
    """A bundled ruleset, loaded once per process (default options)."""
    from cardrules import load_ruleset

    return load_ruleset(name)


# The bundled ruleset each deck file is played with, when a mutated deck still loads.
DECK_USERS = {"standard-52.yaml": "klondike.yaml", "decktet.yaml": "cascades.yaml",
              "dollar-bills.yaml": "dollartaire.yaml", "standard-52-by-owner.yaml": "nerts.yaml",
              "ten-bucks-bills.yaml": "ten-bucks.yaml"}


# ---------------------------------------------------------------------------------------------
# Shared pieces of generation

HUGE_INTS = ["9223372036854775807", "9223372036854775808", "18446744073709551616", "1" + "0" * 40,
             "1" + "0" * 300, "9" * 4300, "9" * 4301, "1" + "0" * 5000]
WEIRD_CHARS = ["\x00", "\t", "\n", "\r", "\x0b", "\x0c", "\x1b", "\x7f", "\x85", "\u00a0", "\u2028", "\u3000",
               "\ufeff", "\ufffd", "é", "ß", "İ", "²", "٣", "３", "𝟗", "😀", "\\", "'", '"', "#", ":", "&", "*",
               "!", "%", "@", "`", "|", ">", "{", "}", "[", "]", ",", "-", "?", "$", ";", "~", "^", "="]
PYTHON_NAMES = ["__import__", "__builtins__", "__class__", "__dict__", "__globals__", "S", "env", "P", "U", "V",
                "lambda", "def", "class", "import", "is", "del", "pass", "None", "True", "False", "return",
                "yield", "await", "async", "print", "eval", "exec", "open", "os", "sys", "self", "len", "range",
                "b_card", "b_players", "_expr_1", "runtime_error"]
JUNK_NAMES = ["nope", "tablaeu", "x", "q", "rank", "suit", "foo_bar", "_", "_x", "a" * 300, "option"]


def random_char(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.5:
        return chr(rng.randint(32, 126))
    if r < 0.85:
        return rng.choice(WEIRD_CHARS)
    return chr(rng.choice([rng.randint(0, 31), rng.randint(0x80, 0x2FFF), rng.randint(0xE000, 0x10FFFF)]))


def weighted(rng: random.Random, table: list[tuple[float, Any]]) -> Any:
    total = sum(w for w, _ in table)
    x = rng.random() * total
    for w, item in table:
        x -= w
        if x < 0:
            return item
    return table[-1][1]


# ---------------------------------------------------------------------------------------------
# Target: expressions built from the grammar, in every expression slot of a host ruleset

# The host: a two-seat game with every kind of name (single and counted zones, a per-player zone,
# per-player and plain variables of each type, options, functions). Each @@slot@@ holds an
# expression; a case replaces one of them, the others keep their defaults (SLOTS).
HOST = """\
ruleset: fuzzhost
title: Fuzz host
players: {min: 1, max: 2, default: 2}
deck:
  name: standard-52
  where: @@deck_where@@
options:
  draw: {values: [1, 3], default: 1}
  mode: {values: [easy, hard], default: easy}
  strict: {values: [false, true], default: false}
variables:
  score: {initial: 0, per_player: true, label: Score}
  passes: {initial: 1}
  flag: {initial: false}
  note: {initial: "'x'"}
  best: {initial: @@initial@@, show: "flag"}
zones:
  stock: {short: s}
  waste: {short: w, show: fan}
  foundation: {count: 4, short: f}
  tableau: {count: 3, short: t, show: column}
  hand: {per_player: true, short: h, visibility: owner}
functions:
  "fits(c, t)": "empty(t) or top(t).rank == c.rank + 1"
  "bonus()": "10 if option.mode == 'hard' else 1"
  "fz(a, b)": @@function@@
setup:
  - take_deck: stock
  - deal: {from: stock, to: tableau, counts: @@counts@@}
  - deal: {from: stock, to: hand, counts: 3}
  - for: p in tableau
    do:
      - turn_up: top(p)
moves:
  draw:
    from: stock
    take: @@take@@
    to: waste
    do:
      - move: {flip: true}
  play:
    from: [waste, hand]
    to: tableau
    when: @@when@@
    do:
      - move
      - add: {score: 5}
  fuzz:
    from: [tableau, waste]
    to: foundation
    when: "fz(card, dst) != 12345"
    do:
      - move: {from: @@move.from@@, to: @@move.to@@, count: @@move.count@@}
      - turn_up: @@turn_up@@
      - set: {@@set_var@@: @@set@@}
      - add: {score: @@add@@}
  redeal:
    from: waste
    take: all
    to: stock
    when: "empty(stock)"
    do:
      - move: {flip: true}
      - add: {passes: 1}
triggers:
  - name: fuzz trigger
    for: p in tableau
    when: @@trigger@@
    do:
      - turn_up: top(p)
end:
  when:
    - if: @@end@@
      result: won
      reason: fuzz
  max_moves: 200
score: @@score@@
label: @@label@@
heuristic: @@heuristic@@
"""

CARD, PILE, PILES, CARDS, INT, BOOL, STR, LIST, ANY = "card", "pile", "piles", "cards", "int", "bool", "str", "list", "any"
# slot -> (default expression, static type wanted there, names bound there, the move that runs it,
# the ruleset's names it sees: "all" (variables, zones), "zones" (a variable's initial) or "none")
MOVE_NAMES = {"src": PILE, "dst": PILE, "card": CARD, "cards": CARDS, "n": INT, "player": INT, "move": STR}
SLOTS: dict[str, tuple[str, str, dict[str, str], str | None, str]] = {
    "when": ("fits(card, dst)", BOOL, MOVE_NAMES, "play", "all"),
    "take": ("min(option.draw, size(src))", INT, {"src": PILE, "player": INT, "move": STR}, "draw", "all"),
    "move.from": ("src", PILE, MOVE_NAMES, "fuzz", "all"),
    "move.to": ("dst", PILE, MOVE_NAMES, "fuzz", "all"),
    "move.count": ("n", INT, MOVE_NAMES, "fuzz", "all"),
    "turn_up": ("top(src)", CARD, MOVE_NAMES, "fuzz", "all"),
    "set": ("'y'", ANY, MOVE_NAMES, "fuzz", "all"),
    "add": ("1", INT, MOVE_NAMES, "fuzz", "all"),
    "function": ("a.rank + size(b)", ANY, {"a": CARD, "b": PILE}, "fuzz", "all"),
    "trigger": ("not empty(p) and not top(p).face_up", BOOL, {"p": PILE, "player": INT, "move": STR}, None, "all"),
    "end": ("all(size(f) == 13 for f in foundation)", BOOL, {"player": INT}, None, "all"),
    "score": ("score", INT, {"player": INT}, None, "all"),
    "label": ("'fine'", STR, {"player": INT}, None, "all"),
    "heuristic": ("score + size(hand)", INT, {"player": INT}, None, "all"),
    "initial": ("none", ANY, {"player": INT}, None, "zones"),
    "counts": ("i + 1", INT, {"i": INT, "player": INT}, None, "all"),
    "deck_where": ("card.rank <= 13", BOOL, {"card": CARD, "players": INT, "seats": LIST}, None, "none"),
}
SET_VARS = ["note", "note", "score", "passes", "flag", "best", "nope", "hand"]


def host_text(slot: str | None = None, expr: str | None = None, var: str | None = None) -> str:
    """The host ruleset with `expr` in `slot` (and the default expressions elsewhere)."""
    text = HOST
    for name, (default, *_rest) in SLOTS.items():
        value = expr if name == slot and expr is not None else default
        text = text.replace(f"@@{name}@@", json.dumps(value))
    return text.replace("@@set_var@@", var if slot == "set" and var else "note")


VARIABLE_TYPES = {"score": INT, "passes": INT, "flag": BOOL, "note": STR, "best": ANY}
ZONE_TYPES = {"stock": PILE, "waste": PILE, "hand": PILE, "foundation": PILES, "tableau": PILES}
OPTION_TYPES = {"draw": INT, "mode": STR, "strict": BOOL}
OPTION_VALUES = {"draw": ["1", "3"], "mode": ["'easy'", "'hard'"], "strict": ["true", "false"]}
CARD_ATTRS = {"rank": INT, "suit": STR, "color": STR, "face_up": BOOL, "copy": INT}
PILE_ATTRS = {"index": INT, "zone": STR, "owner": INT}
BUILTINS = ["size", "empty", "top", "bottom", "cards", "run", "min", "max", "sum", "count", "all", "any", "abs",
            "pairs", "of", "list"]
COMPREHENSIONS = ["all", "any", "sum", "count", "min", "max", "list"]
BINARY = ["+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "in", "not in", "and", "or"]
STRINGS = ["'hearts'", "'spades'", "'red'", "''", "'x y'", '"hearts"', "'é'", '"it\'s"', "'a\"b'", "'easy'",
           "'" + "z" * 200 + "'", "'tableau'"]


class ExpressionGenerator:
    """Random expressions from the grammar's constructs, mostly well typed for the names in scope.

    `expr(want, depth)` gives an expression of the static type `want` (int, bool, card, pile, piles,
    cards, list, str, any) most of the time, and now and then anything at all: an unknown name,
    a Python name, a wrong type, a wrong argument count, a huge number.
    """

    def __init__(self, rng: random.Random, bindings: dict[str, str], max_depth: int = 5,
                 sees: str = "all") -> None:
        self.rng = rng
        self.scope = dict(bindings)
        self.sees = sees
        self.max_depth = max_depth
        self._fresh = 0

    # -- helpers ------------------------------------------------------------------------------

    def sp(self) -> str:
        r = self.rng.random()
        if r < 0.93:
            return " "
        return self.rng.choice(["", "  ", "\t", "\n", " \n  ", "\r", "\u00a0"])

    def paren(self, text: str) -> str:
        return f"({text})" if self.rng.random() < 0.85 else text

    def names_of(self, want: str) -> list[str]:
        names = [n for n, t in self.scope.items() if t == want or want == ANY or t == ANY]
        if self.sees == "all":
            names += [n for n, t in VARIABLE_TYPES.items() if t == want or want == ANY or t == ANY]
        if self.sees in ("all", "zones"):
            names += [n for n, t in ZONE_TYPES.items() if t == want or want == ANY]
        if want in (INT, ANY):
            names += ["players"]
        if want in (LIST, ANY):
            names += ["seats"]
        return names

    def junk_leaf(self) -> str:
        rng = self.rng
        return weighted(rng, [
            (3, lambda: rng.choice(JUNK_NAMES)),
            (3, lambda: rng.choice(PYTHON_NAMES)),
            (2, lambda: rng.choice(HUGE_INTS)),
            (1, lambda: "option." + rng.choice(["nope", "draw2", "__class__", "mode"])),
            (1, lambda: rng.choice(["phase", "target", "chosen", "chosen_piles", "i", "move", "player"])),
            (1, lambda: rng.choice(STRINGS)),
            (1, lambda: rng.choice(["true", "false", "none", "[]", "0", "-0"])),
        ])()

    # -- generation ---------------------------------------------------------------------------

    def expr(self, want: str = ANY, depth: int | None = None) -> str:
        rng = self.rng
        depth = self.max_depth if depth is None else depth
        if rng.random() < 0.06:
            want = rng.choice([INT, BOOL, CARD, PILE, PILES, CARDS, LIST, STR, ANY])
        if rng.random() < 0.04:
            return self.junk_leaf()
        if depth <= 0 or rng.random() < 0.25 + 0.1 * (self.max_depth - depth):
            return self.leaf(want)
        maker = getattr(self, f"_{want}")
        return maker(depth - 1)

    def leaf(self, want: str) -> str:
        rng = self.rng
        names = self.names_of(want)
        if want == INT:
            return weighted(rng, [(4, lambda: str(rng.randint(0, 13))), (2, lambda: rng.choice(names)),
                                  (1, lambda: "option.draw"), (1, lambda: rng.choice(HUGE_INTS[:5])),
                                  (1, lambda: str(rng.randint(0, 10 ** 6)))])()
        if want == BOOL:
            return weighted(rng, [(3, lambda: rng.choice(["true", "false"])), (1, lambda: "option.strict"),
                                  (2, lambda: rng.choice(names) if names else "flag")])()
        if want == STR:
            return weighted(rng, [(3, lambda: rng.choice(STRINGS)), (1, lambda: "option.mode"),
                                  (1, lambda: rng.choice(names) if names else "note")])()
        if want == CARD:
            return rng.choice(names + ["none"]) if names else "none"
        if want == LIST:
            return rng.choice(["seats", "[]", "[1, 2, 3]", "['hearts', 'spades']", "[0, 1]"])
        if not names:
            return self.junk_leaf()
        return rng.choice(names)

    def _bind(self, kind: str) -> str:
        self._fresh += 1
        base = self.rng.choice(["q", "c", "p", "x", "k"])
        if self.rng.random() < 0.2:  # shadow a name of the ruleset or the context
            return self.rng.choice(["card", "src", "stock", "score", "player", "option", "tableau", "i"])
        return f"{base}{self._fresh}"

    def comprehension(self, func: str, element: str, depth: int) -> str:
        rng = self.rng
        kind = rng.choice([PILES, CARDS, LIST, "pairs"])
        if kind == "pairs":
            a, b = self._bind(CARD), self._bind(CARD)
            items = f"pairs({self.expr(CARDS, depth)})"
            saved = dict(self.scope)
            self.scope[a] = self.scope[b] = CARD
            names = f"{a},{self.sp()}{b}"
        else:
            a = self._bind(kind)
            items = self.expr(kind, depth)
            saved = dict(self.scope)
            self.scope[a] = {PILES: PILE, CARDS: CARD, LIST: ANY}[kind]
            names = a
        body = self.expr(element, depth)
        cond = f" if {self.expr(BOOL, depth)}" if rng.random() < 0.5 else ""
        self.scope = saved
        return f"{func}({body} for {names} in {items}{cond})"

    def call(self, depth: int) -> str:
        """Any builtin with 0-3 arguments of any type (mostly the wrong ones)."""
        rng = self.rng
        func = rng.choice(BUILTINS + ["fits", "bonus", "fz", "nope", "print", "len"])
        args = [self.expr(rng.choice([ANY, PILE, CARDS, INT]), depth) for _ in range(rng.randint(0, 3))]
        return f"{func}({f',{self.sp()}'.join(args)})"

    def ternary(self, want: str, depth: int) -> str:
        return (f"{self.paren(self.expr(want, depth))} if {self.paren(self.expr(BOOL, depth))} "
                f"else {self.paren(self.expr(want, depth))}")

    def index(self, want: str, depth: int) -> str:
        i = self.expr(INT, depth) if self.rng.random() < 0.8 else f"-{self.rng.randint(1, 9)}"
        if want == PILE:
            return f"{self.rng.choice(['tableau', 'foundation'])}[{i}]"
        if want == CARD:
            return f"cards({self.expr(PILE, depth)})[{i}]"
        if want == INT:
            return f"[{', '.join(self.expr(INT, depth) for _ in range(self.rng.randint(1, 3)))}][{i}]"
        return f"{self.paren(self.expr(self.rng.choice([LIST, PILES, CARDS]), depth))}[{i}]"

    def _int(self, depth: int) -> str:
        rng = self.rng
        return weighted(rng, [
            (5, lambda: f"{self.paren(self.expr(INT, depth))}{self.sp()}{rng.choice('+-*/%')}{self.sp()}"
                        f"{self.paren(self.expr(INT, depth))}"),
            (2, lambda: f"-{self.expr(INT, depth)}"),
            (2, lambda: f"size({self.expr(rng.choice([PILE, CARDS, PILES, LIST]), depth)})"),
            (1, lambda: f"abs({self.expr(INT, depth)})"),
            (1, lambda: f"{rng.choice(['min', 'max'])}({self.expr(INT, depth)}, {self.expr(INT, depth)})"),
            (1, lambda: f"{rng.choice(['min', 'max', 'sum'])}({self.expr(LIST, depth)})"),
            (2, lambda: f"{self.paren(self.expr(CARD, depth))}.{rng.choice(['rank', 'rank', 'copy'])}"),
            (1, lambda: f"{self.paren(self.expr(PILE, depth))}.{rng.choice(['index', 'owner'])}"),
            (2, lambda: self.comprehension(rng.choice(["sum", "count", "min", "max"]), INT, depth)),
            (1, lambda: self.ternary(INT, depth)),
            (1, lambda: self.index(INT, depth)),
            (1, lambda: f"of(score, {self.expr(INT, depth)})"),
            (1, lambda: "bonus()"),
            (1, lambda: self.call(depth)),
        ])()

    def _bool(self, depth: int) -> str:
        rng = self.rng
        return weighted(rng, [
            (4, lambda: f"{self.paren(self.expr(INT, depth))} {rng.choice(['==', '!=', '<', '<=', '>', '>='])} "
                        f"{self.paren(self.expr(INT, depth))}"),
            (2, lambda: f"{self.paren(self.expr(ANY, depth))} {rng.choice(['==', '!='])} "
                        f"{self.paren(self.expr(ANY, depth))}"),
            (2, lambda: f"{self.paren(self.expr(rng.choice([INT, STR, CARD, PILE]), depth))} "
                        f"{rng.choice(['in', 'not in'])} {self.paren(self.expr(rng.choice([LIST, CARDS, PILES, STR]), depth))}"),
            (2, lambda: f"not{self.sp() or ' '}{self.paren(self.expr(BOOL, depth))}"),
            (3, lambda: f"{self.paren(self.expr(BOOL, depth))} {rng.choice(['and', 'or'])} "
                        f"{self.paren(self.expr(BOOL, depth))}"),
            (2, lambda: f"empty({self.expr(rng.choice([PILE, CARDS, PILES, LIST]), depth)})"),
            (2, lambda: self.comprehension(rng.choice(["all", "any"]), BOOL, depth)),
            (1, lambda: f"{self.paren(self.expr(CARD, depth))}.face_up"),
            (1, lambda: f"fits({self.expr(CARD, depth)}, {self.expr(PILE, depth)})"),
            (1, lambda: f"fz({self.expr(CARD, depth)}, {self.expr(PILE, depth)})"),
            (1, lambda: f"{rng.choice(['all', 'any'])}({self.expr(rng.choice([LIST, CARDS, PILES]), depth)})"),
            (1, lambda: self.ternary(BOOL, depth)),
            (1, lambda: self.call(depth)),
        ])()

    def _str(self, depth: int) -> str:
        rng = self.rng
        return weighted(rng, [
            (3, lambda: f"{self.paren(self.expr(CARD, depth))}.{rng.choice(['suit', 'color'])}"),
            (1, lambda: f"{self.paren(self.expr(PILE, depth))}.zone"),
            (1, lambda: self.ternary(STR, depth)),
            (1, lambda: f"{self.expr(STR, depth)} + {self.expr(STR, depth)}"),
            (1, lambda: f"{self.paren(self.expr(CARD, depth))}.{rng.choice(['nope', '__class__', 'rank'])}"),
        ])()

    def _card(self, depth: int) -> str:
        rng = self.rng
        return weighted(rng, [
            (4, lambda: f"{rng.choice(['top', 'bottom'])}({self.expr(rng.choice([PILE, CARDS]), depth)})"),
            (2, lambda: self.index(CARD, depth)),
            (1, lambda: self.ternary(CARD, depth)),
            (1, lambda: f"{rng.choice(['min', 'max'])}({self.expr(CARDS, depth)})"),
        ])()

    def _pile(self, depth: int) -> str:
        rng = self.rng
        return weighted(rng, [
            (4, lambda: self.index(PILE, depth)),
            (2, lambda: f"of(hand, {self.expr(INT, depth)})"),
            (1, lambda: self.ternary(PILE, depth)),
            (1, lambda: f"{self.expr(PILES, depth)}[0]"),
        ])()

    def _piles(self, depth: int) -> str:
        rng = self.rng
        return weighted(rng, [
            (2, lambda: rng.choice(["tableau", "foundation"])),
            (2, lambda: self.comprehension("list", PILE, depth)),
            (1, lambda: f"[{', '.join(self.expr(PILE, depth) for _ in range(rng.randint(0, 3)))}]"),
            (1, lambda: self.ternary(PILES, depth)),
        ])()

    def _cards(self, depth: int) -> str:
        rng = self.rng
        return weighted(rng, [
            (3, lambda: f"{rng.choice(['cards', 'run'])}({self.expr(PILE, depth)})"),
            (1, lambda: self.comprehension("list", CARD, depth)),
            (1, lambda: f"[{', '.join(self.expr(CARD, depth) for _ in range(rng.randint(0, 3)))}]"),
            (1, lambda: self.ternary(CARDS, depth)),
        ])()

    def _list(self, depth: int) -> str:
        rng = self.rng
        return weighted(rng, [
            (2, lambda: f"[{', '.join(self.expr(rng.choice([INT, INT, STR, ANY]), depth) for _ in range(rng.randint(0, 4)))}]"),
            (1, lambda: self.comprehension("list", rng.choice([INT, STR, ANY]), depth)),
            (1, lambda: "[" * (k := rng.randint(1, 6)) + self.expr(INT, depth) + "]" * k),
            (1, lambda: self.ternary(LIST, depth)),
            (1, lambda: f"list({self.expr(rng.choice([LIST, CARDS, PILES]), depth)})"),
        ])()

    def _any(self, depth: int) -> str:
        return self.expr(self.rng.choice([INT, BOOL, STR, CARD, PILE, PILES, CARDS, LIST]), depth + 1)


def generate_expression(rng: random.Random, slot: str | None = None) -> Case:
    """An expression for `slot` (a random slot if None), mostly of the type the slot wants."""
    slot = slot if slot is not None else rng.choice(list(SLOTS))
    _, want, bindings, _, sees = SLOTS[slot]
    gen = ExpressionGenerator(rng, bindings, max_depth=rng.choice([1, 2, 3, 3, 4, 4, 5, 6]), sees=sees)
    expr = gen.expr(want)
    data: dict[str, Any] = {"slot": slot, "expr": expr, "seed": rng.randint(1, 10 ** 6)}
    if slot == "set":
        data["var"] = rng.choice(SET_VARS)
    return Case("expressions", "expr", data)


# ---------------------------------------------------------------------------------------------
# Target: the bundled rulesets' own expressions, mutated in place

_EXPR_KEYS = {"when", "if", "initial", "where", "counts", "safe", "for_seat", "equals", "card", "dst", "seat",
              "turn_up", "turn_down", "take_deck", "for", "winners", "take", "count", "from", "to"}


def expression_paths(data: Any, path: tuple[Any, ...] = ()) -> list[tuple[tuple[Any, ...], str]]:
    """(path, text) of every expression-like string of a ruleset's data."""
    found: list[tuple[tuple[Any, ...], str]] = []
    if isinstance(data, dict):
        for key, value in data.items():
            found += expression_paths(value, path + (key,))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            found += expression_paths(value, path + (i,))
    elif isinstance(data, str) and path:
        key = path[-1]
        parent = path[-2] if len(path) >= 2 else None
        if (path in (("score",), ("label",), ("heuristic",)) or key in _EXPR_KEYS
                or parent in ("set", "add", "functions", "where") or (path[0] == "variables" and key == "show")
                or (parent == "take_deck")):
            found.append((path, data))
    return found


@functools.cache
def bundled_expressions() -> list[tuple[str, tuple[Any, ...], str]]:
    """(file, path, text) for every expression of every bundled ruleset (its own file only)."""
    out = []
    for file in bundled_rulesets():
        data = yaml.safe_load(bundled_text(file))
        out += [(file, path, text) for path, text in expression_paths(data)]
    return out


@functools.cache
def bundled_names() -> list[str]:
    names: set[str] = set()
    for _, _, text in bundled_expressions():
        names.update(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text))
    return sorted(names)


_TOKEN = re.compile(r"\s+|[A-Za-z_][A-Za-z0-9_]*|\d+|'[^']*'|\"[^\"]*\"|==|!=|<=|>=|.", re.DOTALL)
TOKENS = ["(", ")", "[", "]", ",", ".", "+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "and", "or",
          "not", "in", "if", "else", "for", "true", "false", "none", "'", '"', "0", "1", "13", "-1", "999999",
          "(((", ")))", "[[", " ", "\n", "top(", "size(", "all(", "option.", "lambda", ":", "**", "//", "=",
          "&", "|", "^", "~", "<<", "@", "$", "\\", "#", "{", "}", ";"]


def tokenize(text: str) -> list[str]:
    return _TOKEN.findall(text)


def mutate_expression(rng: random.Random, text: str, names: list[str]) -> str:
    """1-3 token or character mutations: delete, duplicate, swap, insert, replace a name or number."""
    tokens = tokenize(text) or [""]
    for _ in range(rng.choice([1, 1, 1, 2, 2, 3])):
        i = rng.randrange(len(tokens))
        op = rng.choice(["delete", "duplicate", "swap", "insert_token", "insert_char", "replace_name",
                         "replace_number", "replace_char", "truncate"])
        if op == "delete" and len(tokens) > 1:
            del tokens[i]
        elif op == "duplicate":
            tokens.insert(i, tokens[i])
        elif op == "swap":
            j = rng.randrange(len(tokens))
            tokens[i], tokens[j] = tokens[j], tokens[i]
        elif op == "insert_token":
            tokens.insert(i, rng.choice(TOKENS) if rng.random() < 0.7 else f" {rng.choice(names)} ")
        elif op == "insert_char":
            tokens.insert(i, random_char(rng))
        elif op == "replace_name":
            spots = [k for k, t in enumerate(tokens) if re.fullmatch(r"[A-Za-z_]\w*", t)]
            if spots:
                k = rng.choice(spots)
                tokens[k] = rng.choice(names + JUNK_NAMES + PYTHON_NAMES)
        elif op == "replace_number":
            spots = [k for k, t in enumerate(tokens) if t.isdigit()]
            if spots:
                tokens[rng.choice(spots)] = rng.choice(["0", "1", "-1", "100000"] + HUGE_INTS)
        elif op == "replace_char":
            tokens[i] = random_char(rng)
        elif op == "truncate":
            del tokens[i:]
            if not tokens:
                tokens = [""]
    return "".join(tokens)


def generate_mutated(rng: random.Random) -> Case:
    exprs = bundled_expressions()
    file, path, original = rng.choice(exprs)
    mutated = mutate_expression(rng, original, bundled_names())
    options: dict[str, Any] = {}
    if rng.random() < 0.4:  # a random combination of the ruleset's option values
        try:
            rules = bundled_rules(file[:-5])
            options = {name: rng.choice(o.values) for name, o in rules.options.items()}
        except Exception:  # noqa: BLE001 - a bundled ruleset that fails to load shows in its own cases
            options = {}
    return Case("mutated", "mutated", {"file": file, "path": list(path), "original": original, "expr": mutated,
                                       "options": options, "seed": rng.randint(1, 10 ** 6)})


# ---------------------------------------------------------------------------------------------
# Target: YAML documents (bundled rulesets and decks), mutated

def nested(open_: str, close: str, depth: int, inner: str = "1") -> str:
    return open_ * depth + inner + close * depth


def yaml_snippet(rng: random.Random) -> str:
    """A YAML value in flow style, of any type."""
    return weighted(rng, [
        (3, lambda: rng.choice(["[]", "{}", "null", "~", "true", "false", "0", "-1", "1.5", "-0.0", ".nan", ".inf",
                                "-.inf", "1e400", "1e-400", "0x1F", "0o17", "017", "0b101", "1_000", "190:20:30",
                                "2001-12-14", "2001-12-14t21:59:43.10-05:00", "yes", "no", "on", "off", "''",
                                "' '", '"\\x00"', '"\\ud800"', '"\\u001b[31m"', "=", "<<", "'[/nope]'",
                                "'[bold]x'", "'[link=file:///etc/passwd]x[/link]'"])),
        (2, lambda: rng.choice(HUGE_INTS) if rng.random() < 0.8 else "-" + rng.choice(HUGE_INTS)),
        (1, lambda: "0x" + "f" * rng.choice([20, 5000])),
        (2, lambda: rng.choice(["!!binary aGVsbG8=", "!!set {a, b}", "!!omap [{a: 1}]", "!!pairs [{a: 1}]",
                                "!!str 1", "!!int '12'", "!!float '1.5'", "!!bool 'yes'", "!!python/name:os.system",
                                "!!python/object/apply:os.system ['true']", "!custom 1", "!!null ''",
                                "!!timestamp 2001-12-14", "!!map {a: 1}", "!!seq [1]"])),
        (2, lambda: rng.choice(["[1, [2, [3]]]", "{x: 1, y: [1, 2]}", "[stock, waste]", "{a: {b: {c: null}}}",
                                "{name: standard-52}", "[[1, 2], [3, 4]]", "{<<: {a: 1}, b: 2}", "{<<: [1, 2]}",
                                "{? [a, b]: 1}", "{[1]: 2}", "{{a: 1}: 2}", "{1: a, 1.5: b, null: c, true: d}",
                                "[*undefined]", "{draw: {values: [], default: 1}}"])),
        (2, lambda: "'" + rng.choice(["top(stock)", "1 +", "player", "card.rank", "option.draw", "(((", "x" * 5000,
                                      "size(tableau)", "none"]) + "'"),
        (2, lambda: nested("[", "]", rng.choice([2, 10, 50, 200, 1000, 5000]))),
        (1, lambda: nested("{a: ", "}", rng.choice([2, 10, 50, 200, 1000]))),
        (1, lambda: "[" + ", ".join(["1"] * rng.choice([10, 1000, 100000])) + "]"),
        (1, lambda: "'" + "".join(random_char(rng) for _ in range(rng.randint(1, 20))).replace("'", "''") + "'"),
    ])()


_SENTINEL = "FUZZSENTINEL"


def _all_paths(data: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(data, dict):
        for k, v in data.items():
            out += _all_paths(v, path + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out += _all_paths(v, path + (i,))
    return out


def _set_at(data: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = value
    return data


def _dump(data: Any) -> str:
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=10 ** 9, default_flow_style=None)


def mutate_yaml_tree(rng: random.Random, text: str) -> str:
    """Delete a key, or replace a value by other YAML (any type, anchors and aliases, deep nesting)."""
    data = yaml.safe_load(text)
    paths = _all_paths(data)
    snippets: list[str] = []
    for _ in range(rng.choice([1, 1, 2, 3])):
        path = rng.choice(paths[1:] or paths)
        op = rng.random()
        try:
            if op < 0.25 and path:  # delete a key or an item
                parent = data
                for key in path[:-1]:
                    parent = parent[key]
                del parent[path[-1]]
            elif op < 0.35 and path and isinstance(path[-1], str):  # rename a key
                parent = data
                for key in path[:-1]:
                    parent = parent[key]
                new_key = rng.choice([path[-1] + "s", path[-1].upper(), "nope", "", path[-1][:-1] or "x", "1"])
                parent[new_key] = parent.pop(path[-1])
            elif op < 0.5:  # an anchor on one value, aliases of it elsewhere
                snippets.append("&fz " + yaml_snippet(rng))
                data = _set_at(data, path, f"{_SENTINEL}{len(snippets) - 1}")
                for _ in range(rng.randint(1, 3)):
                    other = rng.choice(paths)
                    if other[:len(path)] != path and path[:len(other)] != other:
                        snippets.append("*fz")
                        data = _set_at(data, other, f"{_SENTINEL}{len(snippets) - 1}")
                paths = _all_paths(data)
            else:
                snippets.append(yaml_snippet(rng))
                data = _set_at(data, path, f"{_SENTINEL}{len(snippets) - 1}")
                paths = _all_paths(data)
        except (KeyError, IndexError, TypeError):
            continue
    out = _dump(data)
    for i, snippet in reversed(list(enumerate(snippets))):
        out = out.replace(f"'{_SENTINEL}{i}'", snippet).replace(f"{_SENTINEL}{i}", snippet)
    return out


def mutate_yaml_text(rng: random.Random, text: str) -> str:
    """Byte, line and indentation mutations of the raw text."""
    lines = text.split("\n")
    for _ in range(rng.choice([1, 1, 2, 3, 5])):
        op = rng.choice(["char", "insert", "delete_range", "delete_line", "dup_line", "swap_lines", "indent",
                         "dedent", "tab", "dup_key", "truncate", "snippet_line"])
        i = rng.randrange(len(lines))
        line = lines[i]
        if op == "char" and line:
            k = rng.randrange(len(line))
            lines[i] = line[:k] + random_char(rng) + line[k + 1:]
        elif op == "insert":
            k = rng.randint(0, len(line))
            lines[i] = line[:k] + "".join(random_char(rng) for _ in range(rng.randint(1, 4))) + line[k:]
        elif op == "delete_range" and line:
            k = rng.randrange(len(line))
            lines[i] = line[:k] + line[k + rng.randint(1, 10):]
        elif op == "delete_line" and len(lines) > 1:
            del lines[i]
        elif op == "dup_line":
            lines.insert(i, line)
        elif op == "swap_lines":
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        elif op == "indent":
            lines[i] = " " * rng.randint(1, 4) + line
        elif op == "dedent":
            lines[i] = line[rng.randint(1, 4):] if line.startswith(" ") else line
        elif op == "tab":
            lines[i] = "\t" + line.lstrip(" ")
        elif op == "dup_key":
            keyed = [k for k, text in enumerate(lines) if re.match(r"\s*[\w\"'(), -]+:", text)]
            if keyed:
                k = rng.choice(keyed)
                width = len(lines[k]) - len(lines[k].lstrip())
                end = k + 1  # the key's line and the more indented lines under it
                while end < len(lines) and (not lines[end].strip() or len(lines[end]) - len(lines[end].lstrip()) > width):
                    end += 1
                lines[end:end] = lines[k:end]
        elif op == "truncate":
            cut = rng.randint(0, len("\n".join(lines)))
            return "\n".join(lines)[:cut]
        elif op == "snippet_line":
            indent = line[:len(line) - len(line.lstrip())]
            lines.insert(i, f"{indent}{rng.choice(['fz', 'moves', 'zones', 'x', '? [a]', '<<'])}: {yaml_snippet(rng)}")
    return "\n".join(lines)


def generate_yaml(rng: random.Random) -> Case:
    if rng.random() < 0.7:
        file = rng.choice(bundled_rulesets())
        text = bundled_text(file)
    else:
        deck = rng.choice(bundled_decks())
        file = f"decks/{deck}"
        text = bundled_text(file)
    if rng.random() < 0.5:
        text = mutate_yaml_tree(rng, text)
        if rng.random() < 0.3:
            text = mutate_yaml_text(rng, text)
    else:
        text = mutate_yaml_text(rng, text)
    # How the file is read: loaded and played, checked by `validate` (every option combination),
    # or played at the terminal (the title, labels and help texts are printed).
    mode = "load" if file.startswith("decks/") else weighted(rng, [(8, "load"), (1, "validate"), (1, "cli")])
    return Case("yaml", "yaml", {"file": file, "text": text, "seed": rng.randint(1, 10 ** 6), "mode": mode})


# ---------------------------------------------------------------------------------------------
# Target: the store of `persist` values (CARDRULES_HOME/persistent.json)

STORE_RULESETS = ["klondike-vegas-cumulative", "nerts-match"]


def _valid_store(rng: random.Random) -> dict[str, Any]:
    data: dict[str, Any] = {}
    if rng.random() < 0.9:
        data["klondike-vegas-cumulative"] = {"balance": rng.randint(-500, 500)}
    if rng.random() < 0.9:
        data["nerts-match"] = {"total": [rng.randint(-50, 120) for _ in range(rng.randint(0, 6))],
                               "match_over": rng.random() < 0.3}
    if rng.random() < 0.3:
        data["klondike"] = {"balance": 5}
    return data


STORE_VALUES = ["NaN", "Infinity", "-Infinity", "1.5", "1e308", "-0.0", "1e999", "true", "false", "null", '"x"',
                '""', "[]", "{}", "[1, 2, 3]", '[1, "x", null]', '{"a": 1}', '[[[]]]', "9" * 5000, "-" + "9" * 4400,
                "123456789012345678901234567890", "-1", "0", '"\\ud800"', '"\\u0000"']


def generate_store(rng: random.Random) -> Case:
    data = _valid_store(rng)
    snippets: list[str] = []
    for _ in range(rng.choice([0, 0, 1, 1, 2, 3])):
        paths = _all_paths(data)
        path = rng.choice(paths)
        snippet = weighted(rng, [(6, lambda: rng.choice(STORE_VALUES)),
                                 (1, lambda: nested("[", "]", rng.choice([10, 1000, 100000]))),
                                 (1, lambda: nested('{"a": ', "}", rng.choice([10, 1000, 100000])))])()
        snippets.append(snippet)
        data = _set_at(data, path, f"{_SENTINEL}{len(snippets) - 1}")
    text = json.dumps(data, indent=rng.choice([None, 2]))
    for i, snippet in reversed(list(enumerate(snippets))):
        text = text.replace(f'"{_SENTINEL}{i}"', snippet)
    raw = text.encode("utf-8")
    for _ in range(rng.choice([0, 0, 0, 0, 0, 1, 2])):
        op = rng.choice(["truncate", "byte", "insert", "bom", "empty", "dup_key", "delete"])
        if op == "truncate":
            raw = raw[:rng.randint(0, len(raw))]
        elif op == "byte" and raw:
            k = rng.randrange(len(raw))
            raw = raw[:k] + bytes([rng.randrange(256)]) + raw[k + 1:]
        elif op == "insert":
            k = rng.randint(0, len(raw))
            raw = raw[:k] + bytes(rng.randrange(256) for _ in range(rng.randint(1, 4))) + raw[k:]
        elif op == "bom":
            raw = b"\xef\xbb\xbf" + raw
        elif op == "empty":
            raw = rng.choice([b"", b"null", b"[]", b"1", b'"x"', b"{}", b'{"nerts-match": []}', b"NaN"])
        elif op == "dup_key":
            raw = raw.replace(b'"balance"', b'"balance": "x", "balance"', 1)
        elif op == "delete" and raw:
            k = rng.randrange(len(raw))
            raw = raw[:k] + raw[k + rng.randint(1, 8):]
    return Case("store", "store", {"ruleset": rng.choice(STORE_RULESETS),
                                   "content": base64.b64encode(raw).decode("ascii"),
                                   "seed": rng.randint(1, 10 ** 6)})


# ---------------------------------------------------------------------------------------------
# Target: move texts (Game.parse_move, and scripted play at the terminal)

MOVE_RULESETS = ["klondike", "klondike-draw3", "cascades", "cascades-v2", "dollartaire", "nerts", "ten-bucks",
                 "ten-bucks-expansions"]
MOVE_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789@x:>+ -_#"
NUMBERS = ["0", "-1", "00", "01", "99", "4294967296", "9" * 30, "9" * 5000, "²", "٣", "３", "𝟗", "⑦", "1.5", "1e3"]


def mutate_move_text(rng: random.Random, text: str) -> str:
    for _ in range(rng.choice([1, 1, 2, 3])):
        op = rng.choice(["char", "insert", "delete", "number", "case", "space", "concat", "dup"])
        k = rng.randint(0, len(text))
        if op == "char" and text:
            k = min(k, len(text) - 1)
            text = text[:k] + (rng.choice(MOVE_CHARS) if rng.random() < 0.6 else random_char(rng)) + text[k + 1:]
        elif op == "insert":
            text = text[:k] + (rng.choice(MOVE_CHARS) if rng.random() < 0.6 else random_char(rng)) + text[k:]
        elif op == "delete" and text:
            text = text[:k] + text[k + rng.randint(1, 3):]
        elif op == "number":
            text = re.sub(r"\d+", lambda m: rng.choice(NUMBERS) if rng.random() < 0.7 else m.group(), text)
        elif op == "case":
            text = text.swapcase() if rng.random() < 0.5 else text.upper()
        elif op == "space":
            text = text[:k] + rng.choice([" ", "  ", "\t", "\n", "\u00a0", "\u3000", "\x0b"]) + text[k:]
        elif op == "concat":
            text = text + rng.choice(["", " ", ">", "+"]) + text
        elif op == "dup":
            text = text * rng.randint(2, 50)
    return text


def random_move_text(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.6:
        return "".join(rng.choice(MOVE_CHARS) for _ in range(rng.randint(0, 12)))
    if r < 0.9:
        return "".join(random_char(rng) for _ in range(rng.randint(0, 12)))
    return rng.choice(["x" * 100000, "t1>" * 10000, " " * 1000, "\x00", "", "help", "quit", "undo"])


def play_random(game: Any, rng: random.Random, steps: int, prefer: str | None = None) -> list[tuple[str, int | None]]:
    """Play up to `steps` random legal moves (a simultaneous game: a random seat's). Returns
    (text, seat) of each move played. `prefer`: a move template chosen half the time when legal."""
    played: list[tuple[str, int | None]] = []
    rules = game.rules
    for _ in range(steps):
        if game.is_over:
            break
        seat: int | None = None
        if rules.simultaneous:
            seats = list(range(game.players))
            rng.shuffle(seats)
            moves = []
            for seat in seats:
                moves = game.legal_moves(seat)
                if moves:
                    break
        else:
            moves = game.legal_moves()
        if not moves:
            break
        preferred = [m for m in moves if prefer is not None and m.name == prefer]
        move = rng.choice(preferred) if preferred and rng.random() < 0.5 else rng.choice(moves)
        played.append((move.text(), seat))
        game.apply(move)
    return played


def generate_move(rng: random.Random) -> Case:
    r = rng.random()
    if r < 0.1:
        return generate_cli(rng)
    if r < 0.2:
        return generate_deal(rng)
    name = rng.choice(MOVE_RULESETS)
    rules = bundled_rules(name)
    players = rng.randint(rules.min_players, min(rules.max_players, 4))
    seed = rng.randint(1, 10 ** 6)
    game = rules.new_game(seed=seed, players=players)
    prefix = play_random(game, rng, rng.choice([0, 0, 1, 3, 10, 30]))
    seat = rng.randrange(game.players) if rules.simultaneous else None
    legal = game.legal_moves(seat)
    r = rng.random()
    if legal and r < 0.7:
        move = rng.choice(legal)
        text = rng.choice([move.text(), move.text(long=True), str(move)])
        if rng.random() < 0.9:
            text = mutate_move_text(rng, text)
    else:
        text = random_move_text(rng)
    return Case("moves", "move", {"ruleset": name, "players": players, "seed": seed,
                                  "prefix": [list(p) for p in prefix], "text": text, "seat": seat})


def generate_deal(rng: random.Random) -> Case:
    """A deal (card codes, top of the deck first), mutated: the other text a player may type in."""
    name = rng.choice(MOVE_RULESETS)
    rules = bundled_rules(name)
    players = rng.randint(rules.min_players, min(rules.max_players, 4))
    codes = rules.new_game(seed=rng.randint(1, 10 ** 6), players=players).deal_order
    for _ in range(rng.choice([0, 1, 1, 2, 3])):
        op = rng.choice(["swap", "delete", "duplicate", "case", "comment", "junk", "char", "other_deck", "empty",
                         "huge", "separator"])
        i = rng.randrange(len(codes)) if codes else 0
        if op == "swap" and codes:
            j = rng.randrange(len(codes))
            codes[i], codes[j] = codes[j], codes[i]
        elif op == "delete" and codes:
            del codes[i]
        elif op == "duplicate" and codes:
            codes.insert(i, codes[rng.randrange(len(codes))])
        elif op == "case":
            codes = [c.lower() if rng.random() < 0.5 else c for c in codes]
        elif op == "comment":
            codes.insert(i, rng.choice(["# comment", "#", "#\n", "\n# x\n"]))
        elif op == "junk":
            codes.insert(i, "".join(random_char(rng) for _ in range(rng.randint(1, 5))))
        elif op == "char" and codes:
            codes[i] = mutate_move_text(rng, codes[i])
        elif op == "other_deck":
            codes.insert(i, rng.choice(["AS", "AS1", "1C", "ZZ", "10H", "TD7", "$1", "K", "ace"]))
        elif op == "empty":
            codes = []
        elif op == "huge":
            codes = codes * rng.choice([2, 100])
        elif op == "separator":
            codes = [c + rng.choice([",", ";", "\t", "\n", "\r\n", "\u00a0", "\x00"]) for c in codes]
    sep = rng.choice([" ", "\n", "  ", "\t"])
    return Case("moves", "deal", {"ruleset": name, "players": players, "text": sep.join(codes),
                                  "seed": rng.randint(1, 10 ** 6)})


CLI_GAMES = [("klondike", []), ("klondike-draw3", []), ("ten-bucks", ["--players", "2", "--seat", "2=random"]),
             ("dollartaire", []), ("cascades", [])]


def generate_cli(rng: random.Random) -> Case:
    """Scripted play at the terminal: legal moves, numbers, commands, and a bad line or two."""
    name, extra = rng.choice(CLI_GAMES)
    seed = rng.randint(1, 10 ** 6)
    rules = bundled_rules(name)
    players = 2 if "--players" in extra else rules.default_players
    game = rules.new_game(seed=seed, players=players)
    lines: list[str] = []
    for _ in range(rng.randint(0, 12)):
        if game.is_over:
            break
        if game.current_player != 0:  # the bot's turn: it plays by itself, we cannot know its move
            break
        moves = game.legal_moves()
        r = rng.random()
        if r < 0.55 and moves:
            i = rng.randrange(len(moves))
            move = moves[i]
            lines.append(rng.choice([move.text(), move.text(long=True).upper(), str(i + 1), f"  {move.text()}  "]))
            game.apply(move)
        elif r < 0.75:
            lines.append(rng.choice(["help", "?", "show", "hint", "", "   "]))
        elif r < 0.8 and game.history:
            lines.append("undo")
            game.undo()
        else:
            bad = rng.choice(NUMBERS + ["undo", "quit", "q", "exit"]) if rng.random() < 0.5 else (
                mutate_move_text(rng, moves[0].text()) if moves and rng.random() < 0.5 else random_move_text(rng))
            lines.append(bad.replace("\n", " ").replace("\r", " "))
            break
    if rng.random() < 0.5:
        lines.append("quit")
    return Case("moves", "cli", {"args": ["play", name, "--seed", str(seed)] + extra, "input": "\n".join(lines) + "\n"})


GENERATORS: dict[str, Callable[[random.Random], Case]] = {
    "expressions": generate_expression, "mutated": generate_mutated, "yaml": generate_yaml,
    "store": generate_store, "moves": generate_move,
}


def generate(target: str, seed: int | str, index: int) -> Case:
    """Case `index` of `target` for a run with `seed`."""
    case = GENERATORS[target](case_rng(seed, target, index))
    case.name = f"{target}-{seed}-{index}"
    return case


# ---------------------------------------------------------------------------------------------
# Crafted extremes

MINI = (ROOT / "tests" / "fixtures" / "mini.yaml").read_text(encoding="utf-8")


def _bomb(levels: int = 10, width: int = 10) -> str:
    rows = ["  - &a0 [" + ", ".join(["x"] * width) + "]"]
    for k in range(1, levels):
        rows.append(f"  - &a{k} [" + ", ".join([f"*a{k - 1}"] * width) + "]")
    return "\n".join(rows) + "\n"


def _extreme_cases() -> dict[str, Case]:
    def expr(name: str, slot: str, text: str) -> tuple[str, Case]:
        return name, Case("extremes", "expr", {"slot": slot, "expr": text, "seed": 1}, name)

    def ruleset(name: str, text: str, file: str = "x.yaml") -> tuple[str, Case]:
        return name, Case("extremes", "yaml", {"file": file, "text": text, "seed": 1}, name)

    def cli(name: str, text: str, args: list[str] | None = None, input_: str = "help\nshow\nquit\n") -> tuple[str, Case]:
        return name, Case("extremes", "cli", {"args": args or ["play", "{dir}/x.yaml", "--seed", "1"],
                                              "input": input_, "files": {"x.yaml": text}}, name)

    def args(name: str, argv: list[str]) -> tuple[str, Case]:
        """Command-line arguments a stranger may type: a usage error (exit 2) is a clean error too."""
        return name, Case("extremes", "cli", {"args": argv, "input": "quit\n", "usage_ok": True}, name)

    mini = MINI
    items = [
        expr("minus-3000", "score", "-" * 3000 + "1"),
        expr("sum-20000", "score", " + ".join(["1"] * 20000)),
        expr("lists-500", "when", "[" * 500 + "]" * 500),
        expr("not-300", "when", "not " * 300 + "true"),
        expr("int-5000-digits", "score", "9" * 5000),
        expr("parens-3000", "score", "(" * 3000 + "1" + ")" * 3000),
        expr("ternary-2000", "score", "1 if true else " * 2000 + "1"),
        expr("and-20000", "when", " and ".join(["true"] * 20000)),
        expr("index-3000", "score", "[1]" + "[0]" * 3000),
        ruleset("alias-bomb-ruleset", mini + "indexes:\n" + _bomb()),
        ruleset("alias-bomb-deck", bundled_text("decks/standard-52.yaml") + "fz:\n" + _bomb(), "decks/standard-52.yaml"),
        ruleset("yaml-list-20000-deep", mini + "indexes: " + nested("[", "]", 20000) + "\n"),
        ruleset("yaml-flow-list-990KB", mini + "indexes: [" + "1," * 494_000 + "1]\n"),  # under the 1 MB cap
        ruleset("yaml-mapping-key", mini + "indexes:\n  - ? {a: 1}\n    : 2\n"),
        ruleset("yaml-list-key", mini + "indexes:\n  - ? [a, b]\n    : 2\n"),
        ruleset("yaml-int-5000-digits", mini + "indexes: [" + "9" * 5000 + "]\n"),
        ruleset("yaml-binary", mini.replace("title:", "x:") + "title: !!binary aGVsbG8=\n"),
        ruleset("yaml-date-title", mini + "title: 2001-12-14\n"),
        ruleset("deck-proc-environ", mini.replace("deck: standard-52", "deck: /proc/self/environ")),
        ruleset("deck-dev-zero", mini.replace("deck: standard-52", "deck: /dev/zero")),
        ruleset("extends-etc-passwd", "ruleset: x\nextends: ../../../etc/passwd\n"),
        ruleset("extends-proc-environ", "ruleset: x\nextends: /proc/self/environ\n"),
        ruleset("extends-folder", "ruleset: x\nextends: ../\n"),
        cli("title-rich-markup", mini + 'title: "x [/nope]"\n'),
        cli("title-ansi-escape", mini + 'title: "\\e[2J\\e[31mred\\e]0;pwned\\a"\n'),
        cli("help-rich-markup", mini.replace("  play:\n", '  play:\n    help: "[bold]x[/nope] [link=file:///etc/passwd]y"\n')),
        cli("zone-label-markup", mini.replace("stock: {short: s}", 'stock: {short: s, label: "[/]"}')),
        cli("end-reason-and-label-markup", mini.replace('    - if: "empty(stock) and empty(waste)"\n      result: won',
                                                         '    - if: "true"\n      result: won\n      reason: "[/nope] [bold]"')
            + "label: \"'[/nope]'\"\n"),
        ("deck-style-and-face-markup", Case("extremes", "cli", {
            "args": ["play", "{dir}/x.yaml", "--seed", "1"], "input": "help\nshow\n1\nquit\n",
            "files": {"x.yaml": mini.replace("deck: standard-52", "deck: mydeck"),
                      "mydeck.yaml": bundled_text("decks/standard-52.yaml")
                      .replace('red: "bold red"', 'red: "[/nope] blink nope-style 999"')
                      .replace('clubs: "♣"', 'clubs: "[/x]"').replace('back: "▒▒"', 'back: "[bold]"')}},
            "deck-style-and-face-markup")),
        cli("terminal-digit", mini, input_="²\n"),
        args("cli-seat-digit", ["play", "ten-bucks", "--players", "2", "--seat", "²=random", "--seed", "1"]),
        args("cli-option-digit", ["play", "klondike", "-o", "draw=³", "--seed", "1"]),
        args("cli-bot-parameter-huge", ["play", "ten-bucks", "--players", "2", "--seat", "2=greedy:speed=" + "9" * 5000,
                                        "--seed", "1"]),
        args("cli-deal-dev-zero", ["play", "klondike", "--deal", "/dev/zero"]),
        args("cli-deal-proc-environ", ["play", "klondike", "--deal", "/proc/self/environ"]),
        args("cli-deal-folder", ["play", "klondike", "--deal", "/"]),
        args("cli-validate-dev-zero", ["validate", "/dev/zero"]),
        args("cli-play-proc-environ", ["play", "/proc/self/environ", "--seed", "1"]),
        cli("terminal-huge-number", mini, input_="9" * 5000 + "\n"),
    ]
    return dict(items)


EXTREMES: dict[str, Case] = _extreme_cases()


# ---------------------------------------------------------------------------------------------
# Running a case

class CliFailure(Exception):
    """The command line exited with a status other than 0 or 1, or printed a traceback."""


class EscapeInOutput(Exception):
    """The command line printed a raw escape character taken from its input (terminal injection)."""


def finish_game(game: Any) -> None:
    """Everything a caller reads at the end of a game: it must work or raise a CardrulesError."""
    if not game.is_over:
        game.finish()
    game.scores()
    game.winners()
    for p in range(game.players):
        game.view(p)
        game.label(p)
        game.evaluation(p)  # the `heuristic`, as bots read it
    game.persistent_values()
    [m.text(long=True) for m in game.history]


def play_rules(rules: Any, seed: int, prefer: str | None = None, steps: int = 30) -> None:
    rng = random.Random(seed)
    players = rng.randint(rules.min_players, rules.max_players)
    game = rules.new_game(seed=seed, players=players)
    play_random(game, rng, steps, prefer)
    for move in game.legal_moves():
        game.is_safe(move)  # the `safe` conditions, as the solver reads them
    if game.history and rng.random() < 0.3:
        game.undo()
    finish_game(game)


def _copy_decks(folder: Path) -> None:
    shutil.copytree(DECKS, folder / "decks")


def run_case(case: Case, folder: Path) -> str:
    """Feed one case to the library in `folder` (an empty folder of its own). Returns "accepted";
    a clean failure raises a CardrulesError, a bug any other exception."""
    from cardrules import load_ruleset

    d = case.data
    if case.kind == "generate":  # a case whose generation itself failed: generate it again
        return run_case(generate(d["target"], d["seed"], d["index"]), folder)
    if case.kind == "expr":
        _copy_decks(folder)
        path = folder / "fuzzhost.yaml"
        path.write_text(host_text(d["slot"], d["expr"], d.get("var")), encoding="utf-8")
        rules = load_ruleset(path)
        play_rules(rules, d["seed"], SLOTS[d["slot"]][3])
        return "accepted"
    if case.kind == "mutated":
        _copy_decks(folder)
        data = yaml.safe_load(bundled_text(d["file"]))
        _set_at(data, tuple(d["path"]), d["expr"])
        path = folder / d["file"]
        path.write_text(_dump(data), encoding="utf-8")
        rules = load_ruleset(path, d.get("options") or None)
        play_rules(rules, d["seed"])
        return "accepted"
    if case.kind == "yaml":
        _copy_decks(folder)
        path = folder / d["file"]
        path.write_text(d["text"], encoding="utf-8")
        if d["file"].startswith("decks/"):
            from cardrules.front.decks import load_deck

            load_deck(path)
            user = DECK_USERS.get(path.name)
            if user is None:
                return "accepted"
            path = folder / user
            path.write_text(bundled_text(user), encoding="utf-8")
        mode = d.get("mode", "load")
        if mode == "cli":
            return _run_cli(Case(case.target, "cli", {"args": ["play", str(path), "--seed", str(d["seed"])],
                                                      "input": CLI_SCRIPT}), folder, copy=False)
        if mode == "validate":
            from cardrules.python.load import check_ruleset

            rules, _ = check_ruleset(path, most=8)  # a few option combinations, not up to 256
        else:
            rules = load_ruleset(path)
        play_rules(rules, d["seed"])
        return "accepted"
    if case.kind == "deal":
        rules = bundled_rules(d["ruleset"])
        game = rules.new_game(deal=d["text"], players=d["players"])
        play_random(game, random.Random(d["seed"]), 10)
        finish_game(game)
        return "accepted"
    if case.kind == "store":
        from cardrules.storage import store

        home = folder / "home"
        home.mkdir()
        os.environ["CARDRULES_HOME"] = str(home)
        (home / "persistent.json").write_bytes(base64.b64decode(d["content"]))
        rules = bundled_rules(d["ruleset"])
        values = store.load(rules)
        rng = random.Random(d["seed"])
        most = max(rules.min_players, min(rules.max_players, 3))
        game = rules.new_game(seed=d["seed"], players=rng.randint(rules.min_players, most), persisted=values)
        play_random(game, rng, rng.choice([0, 5, 30]))
        finish_game(game)
        start = getattr(game, "persisted_start", values)  # the values the game began with, before setup
        store.save(rules.name, start, game.persistent_values())
        return "accepted"
    if case.kind == "move":
        rules = bundled_rules(d["ruleset"])
        game = rules.new_game(seed=d["seed"], players=d["players"])
        for text, seat in d["prefix"]:
            game.apply(game.parse_move(text, seat))
        move = game.parse_move(d["text"], d["seat"])
        move.text(long=True)
        game.apply(move)
        finish_game(game)
        return "accepted"
    if case.kind == "cli":
        return _run_cli(case, folder)
    raise ValueError(f"unknown case kind {case.kind!r}")


CLI_SCRIPT = "help\nshow\nhint\n1\nundo\nshow\n1\nquit\n"


def _run_cli(case: Case, folder: Path, copy: bool = True) -> str:
    from cardrules.app.cli import app
    from typer.testing import CliRunner

    d = case.data
    if copy:
        _copy_decks(folder)
    for name, text in d.get("files", {}).items():
        (folder / name).write_text(text, encoding="utf-8")
    home = folder / "home"
    home.mkdir(exist_ok=True)
    args = [a.replace("{dir}", str(folder)) for a in d["args"]]
    result = CliRunner().invoke(app, args, input=d["input"],
                                env={"COLUMNS": "120", "CARDRULES_HOME": str(home), "FORCE_COLOR": None,
                                     "TERM": "dumb"})
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    output = result.output
    if "Traceback (most recent call last)" in output:
        raise CliFailure(f"exit {result.exit_code}, a traceback in the output:\n{output[-3000:]}")
    if result.exit_code == 2 and d.get("usage_ok") and "Traceback" not in output:
        from cardrules import CardrulesError

        raise CardrulesError(f"usage error: {_cut(output.strip(), 600)}")
    if result.exit_code not in (0, 1):
        raise CliFailure(f"exit {result.exit_code}:\n{output[-2000:]}")
    if "\x1b" in output:
        raise EscapeInOutput(f"a raw ESC character in the output: {output[output.index(chr(27)) - 40:][:120]!r}")
    if result.exit_code == 1:
        from cardrules import CardrulesError

        raise CardrulesError(f"exit 1: {_cut(output.strip(), 600)}")
    return "accepted"


# ---------------------------------------------------------------------------------------------
# Classifying a run

@dataclass
class Result:
    outcome: str  # accepted, error (a CardrulesError), uncaught, slow, crash (the worker died)
    seconds: float
    error_type: str = ""
    message: str = ""
    frame: str = ""  # innermost traceback frame inside interpreter/: "interpreter/x.py:12 func"
    traceback: str = ""

    @property
    def bad(self) -> bool:
        return self.outcome not in ("accepted", "error")

    @property
    def key(self) -> str:
        """What kind of failure this is: the exception type and the innermost interpreter frame."""
        if self.outcome == "slow":
            return "slow"
        if self.outcome == "crash":
            return f"crash: {self.message}"
        return f"{self.error_type} at {self.frame or '(no interpreter frame)'}"

    def summary(self) -> str:
        if not self.bad:
            return f"{self.outcome} in {self.seconds:.2f} s" + (f": {self.message[:300]}" if self.message else "")
        return f"{self.outcome}: {self.key}: {self.message[:500]}\n{self.traceback}"


def innermost_frame(tb: Any) -> str:
    frames = traceback.extract_tb(tb)
    inner = ""
    root = str(INTERPRETER)
    for fr in frames:
        if fr.filename.startswith(root):
            inner = f"interpreter/{Path(fr.filename).name}:{fr.lineno} {fr.name}"
    if not inner and frames:  # not in interpreter/: the outermost library frame outside it
        fr = frames[-1]
        inner = f"{_short_path(fr.filename)}:{fr.lineno} {fr.name}"
    return inner


def _short_path(filename: str) -> str:
    parts = Path(filename).parts
    for marker in ("site-packages", "lib"):
        if marker in parts:
            return "/".join(parts[parts.index(marker) + 1:])
    return filename


def _format_tb(exc: BaseException, limit_lines: int = 40) -> str:
    lines = traceback.format_exception(type(exc), exc, exc.__traceback__)
    text = "".join(lines)
    rows = text.splitlines()
    if len(rows) > limit_lines:
        rows = rows[:6] + [f"    ... {len(rows) - limit_lines} lines ..."] + rows[-(limit_lines - 6):]
    return "\n".join(rows)


def execute(case: Case, workdir: Path) -> Result:
    """Run one case in this process, in a fresh folder under `workdir`, and classify the outcome."""
    from cardrules import CardrulesError

    folder = Path(tempfile.mkdtemp(prefix="case-", dir=workdir))
    saved_home = os.environ.get("CARDRULES_HOME")
    start = time.perf_counter()
    try:
        run_case(case, folder)
        return Result("accepted", time.perf_counter() - start)
    except CardrulesError as exc:
        return Result("error", time.perf_counter() - start, type(exc).__name__, str(exc)[:1000])
    except (Exception, SystemExit, GeneratorExit) as exc:  # noqa: BLE001 - any other exception is a bug
        seconds = time.perf_counter() - start
        try:
            message = str(exc)[:2000]
        except Exception:  # noqa: BLE001 - str() of a huge int can fail too
            message = f"<unprintable {type(exc).__name__}>"
        return Result("uncaught", seconds, type(exc).__name__, message, innermost_frame(exc.__traceback__),
                      _format_tb(exc))
    finally:
        if saved_home is None:
            os.environ.pop("CARDRULES_HOME", None)
        else:
            os.environ["CARDRULES_HOME"] = saved_home
        shutil.rmtree(folder, ignore_errors=True)


# ---------------------------------------------------------------------------------------------
# Worker processes: a time limit and a memory cap per case

def _address_space() -> int:
    """Bytes of address space this process holds now (0 where /proc does not say)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[0]) * resource.getpagesize()
    except (OSError, ValueError, IndexError):
        return 0


def _worker_main(conn: Any, memory: int, workdir: str) -> None:
    if memory:
        # `memory` more than the worker holds when forked: a parent that has loaded Numba and
        # LLVM (other tests in the same process) holds gigabytes of address space it never uses
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        cap = _address_space() + memory
        cap = cap if hard == resource.RLIM_INFINITY else min(cap, hard)
        resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    os.environ["CARDRULES_HOME"] = str(Path(workdir) / "home")
    sys.stdin = io.StringIO("")  # no case may wait for a terminal
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        case, result = handle(message, Path(workdir))
        try:
            conn.send((case.to_dict(), result))
        except Exception as exc:  # noqa: BLE001 - an unpicklable or huge result
            conn.send((case.to_dict(), Result(result.outcome, result.seconds, result.error_type,
                                              f"(result not sendable: {exc})", result.frame, result.traceback[:5000])))


def handle(message: dict[str, Any], workdir: Path) -> tuple[Case, Result]:
    """A worker's request: a case (a dict), or {"generate": [target, seed, index]} to generate one
    and run it. A generator that fails (it plays bundled games) is reported as that case failing."""
    if "generate" in message:
        target, seed, index = message["generate"]
        try:
            case = generate(target, seed, index)
        except BaseException:  # noqa: BLE001 - classified by execute, which generates it again
            case = Case(target, "generate", {"target": target, "seed": seed, "index": index},
                        f"{target}-{seed}-{index}")
        return case, execute(case, workdir)
    case = Case.from_dict(message)
    return case, execute(case, workdir)


class Worker:
    """A forked process that runs cases one at a time, with a time limit and a memory cap. A case
    over the time limit kills the process (a new one replaces it) and counts as slow."""

    def __init__(self, timeout: float = DEFAULT_TIMEOUT, memory: int = DEFAULT_MEMORY,
                 workdir: Path | None = None) -> None:
        self.timeout = timeout
        self.memory = memory
        self._own_workdir = workdir is None
        self.workdir = Path(tempfile.mkdtemp(prefix="cardrules-fuzz-")) if workdir is None else workdir
        self.process: Any = None
        self.conn: Any = None
        self.started = 0.0  # when the case in progress was sent
        self.case: Case | None = None
        self.start()

    def start(self) -> None:
        ctx = multiprocessing.get_context("fork")
        parent, child = ctx.Pipe()
        self.process = ctx.Process(target=_worker_main, args=(child, self.memory, str(self.workdir)), daemon=True)
        self.process.start()
        child.close()
        self.conn = parent

    def restart(self) -> None:
        self.kill()
        self.start()

    def kill(self) -> None:
        if self.process is not None and self.process.is_alive():
            self.process.kill()
        if self.process is not None:
            self.process.join()
        if self.conn is not None:
            self.conn.close()
        self.process = self.conn = None

    def send(self, request: Case | tuple[str, int | str, int]) -> None:
        """Start a case: a `Case`, or (target, seed, index) for the worker to generate."""
        if isinstance(request, Case):
            self.case = request
            message: dict[str, Any] = request.to_dict()
        else:
            target, seed, index = request
            self.case = Case(target, "generate", {"target": target, "seed": seed, "index": index},
                             f"{target}-{seed}-{index}")
            message = {"generate": list(request)}
        self.started = time.perf_counter()
        self.conn.send(message)

    def receive(self) -> tuple[Case, Result]:
        """The case in progress and its result (call when `conn` is readable)."""
        assert self.case is not None
        case = self.case
        try:
            case_dict, result = self.conn.recv()
            case = Case.from_dict(case_dict)
        except (EOFError, OSError):
            self.process.join(1)
            code = self.process.exitcode
            result = Result("crash", time.perf_counter() - self.started, "", f"the worker died (exit code {code})")
        self.case = None
        if result.outcome in ("crash", "uncaught"):
            self.restart()  # a fresh process after anything odd (a MemoryError can leave a mess)
        return case, result

    def timed_out(self) -> tuple[Case, Result]:
        """Give up on the case in progress: the process is replaced; the case counts as slow."""
        assert self.case is not None
        case, seconds = self.case, time.perf_counter() - self.started
        self.case = None
        self.restart()
        return case, Result("slow", seconds, "", f"over the time limit of {self.timeout:g} s")

    def run(self, request: Case | tuple[str, int | str, int]) -> Result:
        return self.run_full(request)[1]

    def run_full(self, request: Case | tuple[str, int | str, int]) -> tuple[Case, Result]:
        self.send(request)
        if self.conn.poll(self.timeout):
            return self.receive()
        return self.timed_out()

    def close(self) -> None:
        if self.conn is not None and self.process is not None and self.process.is_alive():
            try:
                self.conn.send(None)
                self.process.join(2)
            except (OSError, BrokenPipeError):
                pass
        self.kill()
        if self._own_workdir:
            shutil.rmtree(self.workdir, ignore_errors=True)


# ---------------------------------------------------------------------------------------------
# Minimizing a failing case: shorten its main input while it fails the same way

def _main_field(case: Case) -> str | None:
    return {"expr": "expr", "mutated": "expr", "yaml": "text", "store": "content", "move": "text",
            "cli": "input", "deal": "text"}.get(case.kind)


def _shrink(items: list[Any], still_fails: Callable[[list[Any]], bool], budget: list[int]) -> list[Any]:
    """Delta debugging light: remove chunks, halving their size, while the failure stays."""
    chunk = max(len(items) // 2, 1)
    while chunk >= 1 and budget[0] > 0:
        i = 0
        changed = False
        while i < len(items) and budget[0] > 0:
            trial = items[:i] + items[i + chunk:]
            budget[0] -= 1
            if trial != items and still_fails(trial):
                items = trial
                changed = True
            else:
                i += chunk
        if not changed:
            chunk //= 2
    return items


def minimize(case: Case, run: Callable[[Case], Result], budget: int = 400) -> Case:
    """A shorter case that fails with the same `Result.key` (lines, then tokens, then characters)."""
    field_name = _main_field(case)
    if field_name is None:
        return case
    target_key = run(case).key
    binary = case.kind == "store"

    def make(value: Any) -> Case:
        data = dict(case.data)
        data[field_name] = base64.b64encode(value).decode("ascii") if binary else value
        return Case(case.target, case.kind, data, case.name)

    def fails(value: Any) -> bool:
        result = run(make(value))
        return result.bad and result.key == target_key

    left = [budget]
    value: Any = base64.b64decode(case.data[field_name]) if binary else case.data[field_name]
    if case.kind == "move" and case.data["prefix"]:  # first the moves played before
        data = dict(case.data)

        def prefix_fails(prefix: list[Any]) -> bool:
            r = run(Case(case.target, case.kind, {**data, "prefix": prefix}, case.name))
            return r.bad and r.key == target_key
        data["prefix"] = _shrink(list(case.data["prefix"]), prefix_fails, left)
        case = Case(case.target, case.kind, data, case.name)
    if binary:
        value = bytes(_shrink(list(value), lambda xs: fails(bytes(xs)), left))
    else:
        if "\n" in value:
            value = "\n".join(_shrink(value.split("\n"), lambda xs: fails("\n".join(xs)), left))
        value = "".join(_shrink(tokenize(value) if case.kind in ("expr", "mutated") else list(value),
                                lambda xs: fails("".join(xs)), left))
        value = "".join(_shrink(list(value), lambda xs: fails("".join(xs)), left))
    return make(value)
