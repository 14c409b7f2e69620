"""The values of `persist` variables, which a game starts from and the store keeps between games:
what such a value may be (an integer in the 64-bit range or true/false, of the variable's type; a
list by seat for a per-player one), and what is wrong with one that is not. The engine checks
values given to `new_game(persisted=...)` with it, the store the values it reads."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from ..base.limits import INT_MAX, INT_MIN

if TYPE_CHECKING:
    from .ruleset import Variable


class Unkept:
    """A JSON value the store never keeps (NaN, Infinity, an integer of more than 20
    characters), held while parsing so that the check can say where it is."""

    def __init__(self, text: str, big: bool = False) -> None:
        self.text, self.big = text, big


def parse_int(text: str) -> int | Unkept:
    # Anything longer than "-9223372036854775808" is outside the 64-bit range; never convert it
    # (Python refuses integers of more than 4,300 digits).
    return Unkept(f"an integer of {len(text.lstrip('-'))} digits", big=True) if len(text) > 20 else int(text)


def describe_value(value: Any) -> str:
    if isinstance(value, Unkept):
        return value.text
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, str):
        text = json.dumps(value)
        return f"the text {text if len(text) <= 40 else text[:37] + '...'}"
    return json.dumps(value)  # null, true/false, an integer, a number such as 1.5


def scalar_problem(value: Any, kind: type | None) -> str | None:
    """What is wrong with one saved value (`kind`: int, bool, or None for either), or None."""
    if isinstance(value, bool):
        if kind is not int:
            return None
    elif isinstance(value, int):
        if kind is not bool:
            return None if INT_MIN <= value <= INT_MAX else f"{value} is outside the 64-bit integer range"
    elif isinstance(value, Unkept) and value.big and kind is not bool:
        return f"{value.text} is outside the 64-bit integer range"
    expected = "an integer" if kind is int else "true or false" if kind is bool else "an integer or true/false"
    return f"{describe_value(value)} where {expected} is expected"


def problem_of(value: Any, per_player: bool | None, kind: type | None) -> str | None:
    """What is wrong with a saved value (`per_player`: a list by seat; None for either), or None."""
    if isinstance(value, list):
        if per_player is False:
            return "a list where a single value is expected"
        for seat, item in enumerate(value, 1):
            problem = scalar_problem(item, kind)
            if problem:
                return f"seat {seat}: {problem}"
        return None
    if per_player:
        return f"{describe_value(value)} where a list by seat is expected"
    return scalar_problem(value, kind)


def value_kind(variable: Variable) -> type | None:
    """The type of a variable's values (int or bool), from its initial value; None if unknown."""
    try:
        value = variable.initial(None, {"player": 0})
    except Exception:  # an initial value that needs a game: no type to compare
        return None
    return bool if isinstance(value, bool) else int if isinstance(value, int) else None


def value_problem(variable: Variable, value: Any) -> str | None:
    """What is wrong with a value given for a `persist` variable (as `load` checks a saved one), or None."""
    return problem_of(value, variable.per_player, value_kind(variable))
