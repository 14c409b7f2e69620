"""Fuzzing in the suite: any input from a stranger works or fails with a CardrulesError.

The generators live in tests/fuzzing.py, shared with benchmarks/fuzz.py (which runs any number of
cases, in parallel, and keeps the failing ones). Here each target gets a small fixed budget of
Hypothesis examples, derandomized so every run tries the same inputs. Each case runs in a worker
process with a time limit (5 s) and a memory cap (2 GB), so a hang or a memory hog fails its test
instead of stopping the suite. A case passes when it works or raises a `CardrulesError`; anything
else (another exception, a hang, a crash of the worker) fails, showing the input and the traceback.

A failure shows the input and the case as JSON: save that as FILE and run
`python benchmarks/fuzz.py --replay FILE --minimize` to see it again and shrink it.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterator
from typing import Any

import fuzzing
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

# No shrinking: a failing case is reported as generated, at once (shrinking a slow case would run
# it many times over). `python benchmarks/fuzz.py --replay FILE --minimize` shrinks it instead.
FUZZ = settings(deadline=None, derandomize=True, database=None, print_blob=False,
                phases=[Phase.explicit, Phase.generate],
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.large_base_example, HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module")
def worker() -> Iterator[fuzzing.Worker]:
    w = fuzzing.Worker(timeout=fuzzing.DEFAULT_TIMEOUT, memory=fuzzing.DEFAULT_MEMORY)
    yield w
    w.close()


def cases(generator: Callable[..., fuzzing.Case]) -> st.SearchStrategy[fuzzing.Case]:
    """The plain generator as a Hypothesis strategy: its random draws come from Hypothesis, which
    can then shrink a failing case by shrinking the draws."""
    return st.randoms(use_true_random=False, note_method_calls=False).map(generator)


class FuzzFailure(AssertionError):
    """A case that neither worked nor failed with a CardrulesError."""


def check(worker: fuzzing.Worker, case: fuzzing.Case) -> None:
    result = worker.run(case)
    if result.bad:
        raise FuzzFailure(f"{result.summary()}\n\ninput: {case.describe(1500)}\n\n"
                          f"case file (save it as FILE, then python benchmarks/fuzz.py --replay FILE --minimize):\n"
                          f"{json.dumps(case.to_dict())}")


# -- expressions built from the grammar, in every expression slot of the host ruleset ---------

@pytest.mark.parametrize("slot", list(fuzzing.SLOTS))
@settings(FUZZ, max_examples=6)
@given(data=st.data())
def test_expressions_in_every_slot(worker: fuzzing.Worker, slot: str, data: Any) -> None:
    case = data.draw(cases(functools.partial(fuzzing.generate_expression, slot=slot)), label="case")
    check(worker, case)


def test_host_ruleset_loads_and_plays(worker: fuzzing.Worker) -> None:
    """The host with its default expressions works: the fuzz cases change only one slot of it."""
    case = fuzzing.Case("expressions", "expr", {"slot": "when", "expr": "fits(card, dst)", "seed": 1})
    result = worker.run(case)
    assert result.outcome == "accepted", result.summary()


# -- the bundled rulesets' expressions, mutated ------------------------------------------------

@settings(FUZZ, max_examples=50)
@given(case=cases(fuzzing.generate_mutated))
def test_mutated_expressions(worker: fuzzing.Worker, case: fuzzing.Case) -> None:
    check(worker, case)


# -- ruleset and deck files, mutated -----------------------------------------------------------

@settings(FUZZ, max_examples=50)
@given(case=cases(fuzzing.generate_yaml))
def test_mutated_yaml(worker: fuzzing.Worker, case: fuzzing.Case) -> None:
    check(worker, case)


# -- the saved values of `persist` variables ---------------------------------------------------

@settings(FUZZ, max_examples=40)
@given(case=cases(fuzzing.generate_store))
def test_mutated_store(worker: fuzzing.Worker, case: fuzzing.Case) -> None:
    check(worker, case)


# -- move texts: Game.parse_move, and scripted play at the terminal ----------------------------

@settings(FUZZ, max_examples=50)
@given(case=cases(fuzzing.generate_move))
def test_move_texts(worker: fuzzing.Worker, case: fuzzing.Case) -> None:
    check(worker, case)


@settings(FUZZ, max_examples=6)
@given(case=cases(fuzzing.generate_cli))
def test_terminal_play(worker: fuzzing.Worker, case: fuzzing.Case) -> None:
    check(worker, case)


# -- crafted extremes --------------------------------------------------------------------------

@pytest.mark.parametrize("name", list(fuzzing.EXTREMES))
def test_extreme(worker: fuzzing.Worker, name: str) -> None:
    check(worker, fuzzing.EXTREMES[name])
