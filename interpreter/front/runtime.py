"""Stage 4's run-time half: the helpers the generated Python code calls (`RUNTIME_GLOBALS`), its
checks of values the compiler could not type (`want_int`, ...), and the step `Meter` every loop of
it is counted against (limits.MAX_STEPS). front/emit_python.py writes the calls; the loaded ruleset
(model/ruleset.py) runs the code in these globals."""

from __future__ import annotations

from itertools import combinations
from math import comb
from typing import Any, Callable

from ..base.limits import INT_MAX, INT_MIN, MAX_STEPS


def power(base: int, exponent: int) -> int:
    """`base ** exponent` for 64-bit integers: no negative exponent, no result out of range (so a
    huge power fails at once instead of computing a number of a billion digits); `none` on either
    side is an error, even where the answer would not hang on it (`none ** 0`)."""
    base, exponent = want_int(base), want_int(exponent)
    if exponent < 0:
        raise ValueCheckError(f"a power needs an exponent of 0 or more, got {exponent}")
    if base in (0, 1) or exponent == 0:
        return 1 if exponent == 0 else base
    if base == -1:
        return -1 if exponent % 2 else 1
    if exponent >= 64 or not INT_MIN <= base ** exponent <= INT_MAX:
        raise ValueCheckError(f"{base} ** {exponent} is outside the 64-bit range ({INT_MIN} to {INT_MAX})")
    return int(base ** exponent)


def int_range(*bounds: Any) -> tuple[int, ...]:
    """`range(high)` or `range(low, high)`: the numbers from `low` up to `high - 1`, as a list (a
    tuple); more than MAX_STEPS numbers is an error (the loops over them are counted too), and so
    is a bound that is no number (`none`: never read as the other form)."""
    low, high = (0, want_int(bounds[0])) if len(bounds) == 1 else (want_int(bounds[0]), want_int(bounds[1]))
    if high - low > MAX_STEPS:
        raise ValueCheckError(f"range({low}, {high}) has more than {MAX_STEPS:,} numbers")
    return tuple(range(low, high))


def face_up_run(pile: list[int], up: Any) -> list[int]:
    """The face-up cards on top of a pile, bottom first."""
    k = len(pile)
    while k > 0 and up[pile[k - 1]]:
        k -= 1
    return pile[k:]


def pairs(items: Any) -> list[tuple[Any, Any]]:
    """Neighbouring pairs: [a, b, c] -> [(a, b), (b, c)]."""
    return list(zip(items, items[1:]))


_EVERY_SIZE = object()  # `subsets(items)`: no bound on the sets' size given


class Subsets:
    """`subsets(items, low, high)`: every set of `low` to `high` of the items (both counted), each a
    list of them in their order, sets of fewer items first and, among sets of one size, as
    `itertools.combinations` gives them. Its length, the number of sets (at most MAX_STEPS + 1: a
    loop over more is over the step limit anyway), is what a loop over it is charged before it
    starts; the sets are made as the loop goes."""

    __slots__ = ("items", "sizes", "count")

    def __init__(self, items: Any, low: Any = 0, high: Any = _EVERY_SIZE) -> None:
        self.items = items
        low = max(want_int(low), 0)
        # (a bound that is `none` is an error, as in compiled code: not "no bound")
        high = len(items) if high is _EVERY_SIZE else min(want_int(high), len(items))
        self.sizes = range(low, high + 1)
        count = 0
        for k in self.sizes:
            count += comb(len(items), k)
            if count > MAX_STEPS:
                count = MAX_STEPS + 1
                break
        self.count = count

    def __len__(self) -> int:
        return self.count

    def __iter__(self) -> Any:
        for k in self.sizes:
            for chosen in combinations(self.items, k):
                yield list(chosen)


def subsets_of_size(items: Any, size: Any) -> Subsets:
    """`subsets(items, size)`: the sets of `size` of the items."""
    return Subsets(items, size, size)


class ValueCheckError(Exception):
    """A value the checker could not type turned out wrong when the code ran (reported at the expression)."""


def _shown(value: Any) -> str:
    text = "none" if value is None else "true" if value is True else "false" if value is False else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def seat_index(seat: int, players: int) -> int:
    """A seat used as an index (`of(x, seat)`): one of the game's seats, else the run-time error."""
    if 0 <= seat < players:
        return seat
    raise ValueCheckError(f"there is no seat {seat} (the seats are 0 to {players - 1})")


def want_int(value: Any) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        if INT_MIN <= value <= INT_MAX:
            return value
        raise ValueCheckError(f"the number is outside the 64-bit range ({INT_MIN} to {INT_MAX})")
    raise ValueCheckError(f"a number was expected, got {_shown(value)}")


def want_bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    raise ValueCheckError(f"a truth value was expected, got {_shown(value)}")


def want_str(value: Any) -> str:
    if isinstance(value, str):
        return value
    raise ValueCheckError(f"a string was expected, got {_shown(value)}")


def want_list(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return value
    raise ValueCheckError(f"a list was expected, got {_shown(value)}")


def want_container(value: Any) -> Any:
    if isinstance(value, (list, tuple, str)):
        return value
    raise ValueCheckError(f"a list or a string was expected after 'in', got {_shown(value)}")


def join(first: Any, second: Any) -> list[Any]:
    """`a + b` of two lists (a pile's cards, a list built or written out): a new list of a's items
    then b's."""
    return [*first, *second]


def plus(first: Any, second: Any, charge: Any) -> Any:
    """`a + b` of two values whose kinds are known only in play: two numbers added (in the 64-bit
    range), two lists joined (`join`, its copy counted by `charge`); anything else fails."""
    if isinstance(first, (list, tuple)) and isinstance(second, (list, tuple)):
        return charge(join(first, second))
    return want_int(want_int(first) + want_int(second))


def end_item(items: Any, end: int) -> Any:
    """`top` (end -1) or `bottom` (end 0) of a pile's cards or a list: `none` when it is empty."""
    return items[end] if items else None


def sorted_list(values: Any) -> list[Any]:
    """`sorted(xs)`: a new list of the items in increasing order: numbers, or strings as Python
    orders them (truth values, `none` and a mix of kinds have no order)."""
    items = list(want_list(values))
    kinds = {type(item) for item in items}
    if not (kinds <= {int} or kinds <= {str}):
        shown = sorted("none" if k is type(None) else "truth values" if k is bool else "numbers" if k is int
                       else "strings" if k is str else "lists" for k in kinds)
        raise ValueCheckError(f"sorted() orders numbers or strings, not {' and '.join(shown)}")
    return sorted(items)


def _equal_key(value: Any) -> Any:
    """A key that two values share exactly where `==` finds them equal (a list written out, a
    tuple, is never equal to one built, a list), so that repeats are found by hashing."""
    if type(value) in (list, tuple):
        return type(value), tuple(_equal_key(item) for item in value)
    return value


def unique_items(values: Any) -> list[Any]:
    """`unique(xs)`: a new list of the items without repeats (equal as `==` says), each where it
    first is; in time that grows with the items, not their square."""
    kept: dict[Any, Any] = {}
    for item in want_list(values):
        kept.setdefault(_equal_key(item), item)
    return list(kept.values())


def disjoint_groups(groups: Any, charge: Any) -> list[list[Any]]:
    """`disjoint(groups)`: every choice of the groups (lists) in which no two share an item (equal
    as `==` says), each a list of the groups chosen in their order: the empty choice first, then
    by the number of groups, and among choices of one number as `subsets` orders them. Only
    choices that stay disjoint are extended, each group tried charged as a step of a loop."""
    keys = [frozenset(_equal_key(item) for item in want_list(group)) for group in want_list(groups)]
    found: list[tuple[int, ...]] = [()]
    stack: list[tuple[tuple[int, ...], frozenset[Any]]] = [((), frozenset())]
    while stack:
        chosen, used = stack.pop()
        start = chosen[-1] + 1 if chosen else 0
        charge(range(start, len(keys)))
        for i in range(start, len(keys)):
            if keys[i].isdisjoint(used):
                found.append(chosen + (i,))
                stack.append((chosen + (i,), used | keys[i]))
    found.sort(key=lambda chosen: (len(chosen), chosen))
    return [[groups[i] for i in chosen] for chosen in charge(found)]


def mark_of(V: Any, slot: int, card: int | None) -> Any:
    """A per-card variable's value on `card` (its values start at `slot`); none for no card."""
    return None if card is None else V[slot + card]


def index_of(values: Any, item: Any) -> int | None:
    """`index(xs, x)`: where `x` first is among the items (from 0, equal as `==` says), `none` where
    it is not."""
    for i, other in enumerate(want_list(values)):
        if other == item:
            return i
    return None


def want_ints(values: Any) -> Any:
    for value in want_list(values):
        want_int(value)
    return values


def want_bools(values: Any) -> Any:
    for value in want_list(values):
        want_bool(value)
    return values


def id_checks(piles: int, cards: int) -> dict[str, Callable[..., Any]]:
    """`want_pile` and `want_card` for a ruleset of so many piles and cards (piles and cards are
    numbers inside the generated code, so a number from nowhere must not pass for one)."""
    def want_pile(value: Any) -> int:
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < piles:
            return value
        raise ValueCheckError(f"a pile was expected, got {_shown(value)}")

    def pile_or_list(P: Any, value: Any) -> Any:
        """A value of a kind known only at run time, taken where a pile or a list is: a pile (a
        number) gives its cards."""
        if isinstance(value, int) and not isinstance(value, bool):
            return P[want_pile(value)]
        if isinstance(value, (list, tuple)):
            return value
        raise ValueCheckError(f"a pile or a list was expected, got {_shown(value)}")

    def want_card(value: Any) -> int | None:
        if value is None or (isinstance(value, int) and not isinstance(value, bool) and 0 <= value < cards):
            return value
        raise ValueCheckError(f"a card was expected, got {_shown(value)}")
    return {"want_pile": want_pile, "want_card": want_card, "pile_or_list": pile_or_list}


class StepLimitError(Exception):
    """One listing of the legal moves, one move or one end check took more than `MAX_STEPS` steps."""


class Meter:
    """Counts the steps (loop iterations) of one unit of work of a game: a listing of the legal
    moves, a move with its triggers, or an end check. The engine resets it before each."""

    __slots__ = ("left", "epoch")

    def __init__(self) -> None:
        self.left = MAX_STEPS
        self.epoch = 0  # counts the resets: a `select` keeps its own count per listing

    def reset(self) -> None:
        self.left = MAX_STEPS
        self.epoch += 1

    def charge(self, items: Any) -> Any:
        """Count the steps of a loop over `items` (returned unchanged)."""
        self.left -= len(items)
        if self.left < 0:
            raise StepLimitError(f"more than {MAX_STEPS:,} steps (loops over piles and cards) in one listing "
                                 f"of the legal moves or one move")
        return items


def arg_best(keyed: Any, highest: bool) -> Any:
    """`argmax` / `argmin`: the first item whose key is the highest / lowest; None when there is none."""
    best_key = best = None
    for key, item in keyed:
        if key is None:  # as min and max do: no card's attribute has no order
            raise TypeError("'<' not supported between instances of 'NoneType' and 'int'")
        if best_key is None or (key > best_key if highest else key < best_key):
            best_key, best = key, item
    return best


def arg_sorted(keyed: Any) -> list[Any]:
    """`argsort`: the items in increasing order of their keys, items of equal keys in the order
    they came (a stable sort)."""
    pairs = list(keyed)
    for key, _ in pairs:
        if key is None:  # as argmin: `none` has no order
            raise TypeError("'<' not supported between instances of 'NoneType' and 'int'")
    return [item for _, item in sorted(pairs, key=lambda pair: pair[0])]


def over_steps() -> None:
    """A generated enumerator went past its budget of steps."""
    raise StepLimitError(f"more than {MAX_STEPS:,} steps (loops over piles and cards) in one listing of the legal "
                         f"moves or one move")


RUNTIME_GLOBALS: dict[str, Any] = {
    "__builtins__": {}, "len": len, "range": range, "enumerate": enumerate, "set": set, "reversed": reversed,
    "sum": sum, "min": min,
    "max": max, "all": all, "any": any, "abs": abs, "face_up_run": face_up_run, "pairs": pairs, "subsets": Subsets,
    "subsets_of_size": subsets_of_size, "mark_of": mark_of,
    "disjoint_groups": disjoint_groups,
    "None": None,
    "power": power, "int_range": int_range, "arg_best": arg_best, "arg_sorted": arg_sorted, "seat_index": seat_index,
    "want_int": want_int, "want_bool": want_bool, "want_str": want_str, "want_list": want_list,
    "want_container": want_container, "want_ints": want_ints, "want_bools": want_bools, "end_item": end_item, "join": join,
    "sorted_list": sorted_list, "plus": plus, "unique_items": unique_items, "index_of": index_of,
    "charge": Meter().charge, "over_steps": over_steps,  # charge (and METER): each ruleset's own meter
    **id_checks(0, 0),         # replaced with each ruleset's numbers of piles and cards
}
