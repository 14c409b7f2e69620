"""The differential fuzzer in the suite: generated rulesets played through the native backend and the
Python reference, compared step by step (tests/native_fuzzing.py, shared with
benchmarks/native_fuzz.py, which runs any number of modules and shrinks what differs).

A small fixed budget: Hypothesis draws two modules of a dozen probes each, derandomized so every run
plays the same ones (compiling a module costs 10-20 CPU-seconds). A difference fails with the probe,
the game and what differed; `python benchmarks/native_fuzz.py --seed S` shrinks such differences to
a ruleset of one expression. The plain tests below check that the generator keeps reaching the
constructs where native faults have been found, so the fuzzer cannot silently lose them.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import native_fuzzing as nf
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

FUZZ = settings(max_examples=2, deadline=None, derandomize=True, database=None, print_blob=False,
                phases=[Phase.explicit, Phase.generate],
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

PROBES = 12  # per module in the suite (benchmarks/native_fuzz.py: 150)


@FUZZ
@given(st.randoms(use_true_random=False))
def test_generated_rulesets_play_the_same_natively_step_by_step(tmp_path_factory: pytest.TempPathFactory,
                                                                 rng: random.Random) -> None:
    items = nf.probes(rng, PROBES)
    run = nf.fuzz_module(tmp_path_factory.mktemp("fuzz"), items, seed=rng.randrange(1000), passes=2)
    assert run.tally.games > 0 and run.tally.moves > 0
    assert len(run.tally.evaluated) == len(run.module.items)  # every probe was in focus (or failed there) in some game
    shown = [f"probe {d.probe} ({run.module.items[d.probe].slot}: {run.module.items[d.probe].text}), "
             f"seed {d.seed}, {d.players} seats, start {d.start}: {d.kind}: {d.detail}"
             for d in run.differences if d.probe is not None and d.probe < len(run.module.items)]
    assert not run.differences, "\n".join(shown) or run.differences


def _generated(count: int = 3000) -> list[nf.Probe]:
    return nf.probes(random.Random("reach"), count)


def test_the_generator_reaches_the_constructs_where_native_faults_were_found() -> None:
    # Each fault found before (docs/native.md, "Errors") has its construct among the probes drawn,
    # in the slots where it was found: products and powers of edge numbers (overflow tests that
    # LLVM removed), ranges with edge bounds, strings numbered past 63 tested against a list
    # attribute of strings (a shift taken mod 64), `select` sums of a number attribute holding
    # ±2^62 and 2^63 - 1, -2^63, seats the game has not given to `of`, and what writing compiled code
    # from the typed tree found: `count` of truth values, the face of a comprehension's item.
    texts = [(p.slot, p.text) for p in _generated()]
    edge = r"(9223372036854775807|4611686018427387904|2147483648)"

    def some(pattern: str, slots: tuple[str, ...] | None = None) -> bool:
        return any(re.search(pattern, text) and (slots is None or slot in slots) for slot, text in texts)

    assert some(edge + r"\)? \* ") or some(r" \* \(?-?" + edge)
    assert some(r"\*\* (62|63|64|31)\)") and some(edge + r"\)? \*\* ")
    assert some(r"range\([^()]*" + edge)
    assert some(r"'n6[4-9]' in [^()]+\.tags")
    assert some(r".", ("select",)) and sum(big + other > nf.INT_MAX for big in nf.BIGS for other in nf.BIGS) > 0
    assert some(r"-9223372036854775807 - players")
    assert some(r"of\(b, (players|7|3|\(-1\)|\(-4\))\)") and some(r"of\(hand, (players|7|3|\(-1\))\)")
    # a variable holding a card or none, set and read; `count` of truth values (an item's kind
    # unknown to the checker counts whatever it is)
    assert some(r".", ("set_card",)) and some(r"\brk\.(rank|big|name|face_up)")
    assert some(r"^count\(\(?(not |true|false|\w+\.face_up|\w+ (==|in) )")
    assert some(r"\((cards|run)\(\w+\) \+ ") and some(r"\((seats|range\(\d+\)|\[\]) \+ ")  # lists joined
    assert some(r".", ("mark",)) and some(r"\.mk\b") and some(r"\.ms\b")  # marks on cards, set and read
    assert some(r"for dm in arg(min|max)\(") and some(r"\) \+ list\(ds for ds")  # the best choice; groups joined
    assert some(r"\b\w+\) (not )?in cards\(")  # a card among cards
    # every kind of expression, every slot, every built-in
    kinds = {node.kind for p in _generated() for _, node in p.expr.nodes()}
    assert kinds == set(nf.KINDS)
    assert {slot for slot, _ in texts} == set(nf.SLOTS)
    for builtin in ("size", "empty", "top", "bottom", "cards", "run", "min", "max", "sum", "count", "all", "any",
                    "abs", "pairs", "of", "range", "argmin", "argmax", "argsort", "list", "legal_moves", "subsets", "sorted",
                    "unique", "index", "disjoint"):
        assert some(rf"\b{builtin}\("), builtin


def test_a_module_numbers_more_than_64_strings_the_tags_below_64_and_holds_edge_numbers(tmp_path: Path) -> None:
    # The list attribute `tags` is compiled as bit masks of its strings' numbers (all below 64);
    # the names and the literals of the expressions are numbered after them, past 64.
    from cardrules import load_ruleset
    from cardrules.native import lower

    items = [nf.Probe("when", nf.leaf(nf.BOOL, f"'{name}' in top(stock).tags")) for name in nf.STRINGS]
    nf.write_module(tmp_path, items)
    _, tables = lower(load_ruleset(str(tmp_path / "nativefuzz.yaml")))
    strings = tables["strings"]
    assert len(strings) > 64 and any(strings[text] >= 64 for text in nf.STRINGS)
    assert all(strings[tag] < 63 for tag in nf.TAGS if tag in strings)
    deck = nf.deck_text()
    assert str(nf.INT_MAX) in deck and str(-nf.INT_MAX) in deck and str(2 ** 62) in deck
    assert sum('"big"' not in line for line in deck.splitlines() if line.startswith("  - ")) > 0  # none


def test_shrinking_tries_smaller_expressions_of_the_same_kind_in_the_same_slot() -> None:
    item = nf.probe(random.Random(5), "set_int", max_depth=4)
    while item.expr.size() < 6:
        item = nf.probe(random.Random(item.text), "set_int", max_depth=4)
    candidates = nf.smaller(item)
    assert candidates and all(c.slot == "set_int" and c.expr.kind == nf.INT for c in candidates)
    assert all((c.expr.size(), len(c.text)) < (item.expr.size(), len(item.text)) for c in candidates)
    assert any(c.expr.size() == 1 for c in candidates)  # down to a single value
    text = nf.reproducer(candidates[0])
    assert "ruleset: nativefuzz" in text and candidates[0].text.replace('"', '\\"') in text


def test_a_difference_is_reported_with_its_probe_and_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A native backend that numbers one move otherwise: the first listing that offers it differs, and
    # the difference names the probe in focus and the game.
    items = [nf.Probe("set_int", nf.leaf(nf.INT, "a + 1")), nf.Probe("when", nf.leaf(nf.BOOL, "flag"))]
    module, rules, backend = nf.build(tmp_path, items)
    code = backend.code
    monkeypatch.setattr(backend, "code", lambda move: code(move) + (move.name == "p0"))
    tally = nf.Tally()
    found, _ = nf.play_module(rules, backend, len(module.items), 3, 2, 0, 60, tally)
    assert found is not None and found.kind == "the legal moves differ" and found.probe == 0
    assert (found.seed, found.players, found.start) == (3, 2, 0)


def test_a_deal_that_differs_is_reported_at_the_probe_worked_out_at_the_deal(tmp_path: Path,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    # The start of each game is compared too (`native.compare_deal`: the compiled deal against
    # Python's): a compiled deal that sets the on_start probe's variable otherwise is a difference at
    # that probe, before any move. Where Python raises at the deal, the compiled deal must stop.
    # (the probe is worked out in games of three seats, so that one failing at every deal leaves others)
    items = [nf.Probe("start", nf.leaf(nf.INT, "size(stock) * 3")), nf.Probe("when", nf.leaf(nf.BOOL, "flag"))]
    module, rules, backend = nf.build(tmp_path, items)
    assert "on_start:" in module.text and all(line in module.text for line in nf.SETUPS[2 % len(nf.SETUPS)])
    for count in range(len(nf.SETUPS)):  # each setup is dealt by some module
        text, _ = nf.module_text([nf.Probe("when", nf.leaf(nf.BOOL, "flag"))] * max(count, 1) if count else [])
        assert all(line in text for line in nf.SETUPS[max(count, 1) % len(nf.SETUPS)])
    assert nf.play_module(rules, backend, 2, 3, 3, 0, 60, nf.Tally(), starting=0)[0] is None
    deal = backend.deal

    def wrong(seed: int, players: int | None = None, max_moves: int | None = None) -> object:
        game = deal(seed, players, max_moves)
        game.V[rules.variables["ri"].slot] += 1
        return game
    monkeypatch.setattr(backend, "deal", wrong)
    found, _ = nf.play_module(rules, backend, 2, 3, 3, 0, 60, nf.Tally(), starting=0)
    assert found is not None and found.kind.startswith("at the deal: ") and found.probe == 0
    failing = [nf.Probe("start", nf.leaf(nf.INT, "of(b, 7)")), nf.Probe("when", nf.leaf(nf.BOOL, "flag"))]
    _, failing_rules, failing_backend = nf.build(tmp_path / "failing", failing)
    tally = nf.Tally()
    assert nf.play_module(failing_rules, failing_backend, 2, 3, 3, 0, 60, tally, starting=0)[0] is None
    assert tally.ends["an error at the deal"] == 1 and tally.errors == 1
    two_seats = nf.Tally()  # the probe is not worked out in a game of two: it plays
    assert nf.play_module(failing_rules, failing_backend, 2, 3, 2, 0, 60, two_seats, starting=0)[0] is None
    assert two_seats.games == 1 and two_seats.errors == 0
    monkeypatch.setattr(failing_backend, "deal", lambda *args: backend.start(rules.new_game(seed=1)))  # a game
    found, _ = nf.play_module(failing_rules, failing_backend, 2, 3, 3, 0, 60, nf.Tally(), starting=0)
    assert found is not None and found.kind == "native dealt where Python raised" and found.probe == 0


def test_a_probe_that_crashes_the_loader_is_a_difference_and_the_others_play_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Loading fails with something other than a positioned error (as `len(range(...))` of 64-bit
    # bounds once raised OverflowError): the probe is found by loading each alone, kept as a
    # "crash at load" difference, and left out of the module, which loads without it.
    import cardrules
    import cardrules.native

    items = [nf.Probe("set_int", nf.leaf(nf.INT, "a + 1")), nf.Probe("set_int", nf.leaf(nf.INT, "a + 777")),
             nf.Probe("when", nf.leaf(nf.BOOL, "flag"))]
    load = cardrules.load_ruleset

    def crashing(path: str, *args: object, **kwargs: object) -> object:
        if "a + 777" in Path(path).read_text(encoding="utf-8"):
            raise OverflowError("Python int too large to convert to C ssize_t")
        return load(path, *args, **kwargs)

    monkeypatch.setattr(cardrules, "load_ruleset", crashing)
    monkeypatch.setattr(cardrules.native, "native_backend", lambda rules: None)
    module, rules, _ = nf.build(tmp_path, items)
    assert [p.text for p in module.items] == ["a + 1", "flag"]
    assert [(p.text, kind) for p, kind in module.crashed] == \
        [("a + 777", "crash at load: OverflowError: Python int too large to convert to C ssize_t")]
