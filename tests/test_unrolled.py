"""`all` and `any` over a zone's piles are written out as `and` and `or` of the piles (front/emit_python.py,
`_unrolled`): the same value, the same steps charged, the items tested in order."""

from __future__ import annotations

import itertools

from cardrules import load_ruleset
from cardrules.front.compiler import Meter
from cardrules.front.emit_python import _unrolled


def evaluate(code: str, piles: list[list[int]], meter: Meter) -> object:
    return eval(code, {"__builtins__": {}, "charge": meter.charge, "P": piles, "len": len, "all": all, "any": any})


def test_unrolled_all_and_any_give_the_generators_values_and_steps() -> None:
    element = "(len(P[l_p_0_7]) == 2)"
    for func, sizes in itertools.product(("all", "any"), itertools.product((0, 2), repeat=3)):
        piles = [[1] * n for n in sizes]
        code = _unrolled(func, "charge((0, 1, 2))", "l_p_0_7", element)
        assert code is not None and "for" not in code
        unrolled, generator = Meter(), Meter()
        assert evaluate(code, piles, unrolled) is evaluate(f"{func}({element} for l_p_0_7 in charge((0, 1, 2)))",
                                                          piles, generator)
        assert unrolled.left == generator.left


def test_only_short_tuples_of_numbers_are_unrolled() -> None:
    assert _unrolled("all", "charge(P[3])", "x", "x") is None
    assert _unrolled("all", f"charge(({', '.join(map(str, range(9)))}))", "x", "x") is None
    assert _unrolled("any", "charge((4,))", "l_x_0_1", "('l_x_0_1' == l_x_0_1)") == "(charge((4,)) and ((('l_x_0_1' == 4))))"


def test_klondike_end_check_is_written_out() -> None:
    source = load_ruleset("klondike").generated_source
    end = source[source.index("def end_check"):]
    assert "(charge((2, 3, 4, 5)) and ((len(P[2]) == 13)) and" in end.split("\n\n")[0]
