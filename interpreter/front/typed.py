"""Stage 4's product: an expression as a typed tree, checked, folded and inlined, that knows no
backend.

The checker (front/checker.py) turns a parsed expression (front/parser.py) into `Typed` nodes:
every name resolved (a binding, a variable's slot, a zone's piles, a comprehension's item, a
function's parameter), every node given its static type, constants folded (options included, but where a backend takes them when the game starts),
ruleset functions written out at their calls, and a value whose type is known only when the game
runs wrapped in a `check`. A backend writes code from this tree and decides nothing the tree says:
front/emit_python.py writes the Python backend's source from it.

Each node says whether its code can fail when it runs (`total`) and whether its value may be `none`
(`none`); a node the checker made from a syntax node of its own (`unit`) is where a failure is
reported (its `node`) and, where it cannot fail, what a backend may compute earlier than written.
`KINDS` lists every kind of node with what its `info` and `args` hold; tests/test_typed.py checks
that every backend's writer covers every kind.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .parser import Node

# kind -> what `info` holds; `args` are the node's typed children, in the order they are checked.
KINDS: dict[str, str] = {
    "const": "nothing (`value` is the constant)",
    "pile": "the pile's number (a zone of one pile)",
    "piles": "nothing (`value` is the tuple of piles: a zone's, or a part of one)",
    "option": "the option's name: a value given when the game starts, where the scope says so (a backend "
              "that serves every option combination); elsewhere options are folded as constants",
    "binding": "the name the scope binds (the acting seat, the move's card, ...)",
    "variable": "(slot, per_player): a variable; per-player ones are the acting seat's",
    "seat_variable": "slot: of(VARIABLE, seat), args (seat,)",
    "seat_zone": "the zone's name: a per-player zone's pile(s) of the acting seat",
    "zone_of": "the zone's name: of(ZONE, seat), args (seat,)",
    "item": "(name, depth, offset): an item a comprehension binds",
    "param": "the parameter's index in the innermost function written out",
    "inline": "the Function: args (its arguments..., its body)",
    "face_up": "True where the card is surely a card: args (card,)",
    "card_attr": "the attribute's name: args (card,)",
    "card_variable": "slot: a per-card variable's value on a card (none on no card), args (card,)",
    "pile_attr": "index, zone or owner: args (pile,)",
    "check": "the kind the value is checked to be when the code runs (int, bool, str, card, pile or list): "
             "args (value,)",
    "loose": "nothing: args (value,), a value several kinds may take, so what uses it may fail",
    "index_pile": "nothing: a pile's card by index, args (pile, index)",
    "index": "nothing: an item of a list, args (list, index)",
    "slice": "(has_lo, has_hi): args (value, lo?, hi?)",
    "covered": "nothing: covered(pile), args (pile,)",
    "size": "nothing: size(value), args (value,)",
    "empty": "nothing: empty(value), args (value,)",
    "end": "top or bottom: args (pile or cards,)",
    "cards": "nothing: cards(pile), args (pile,)",
    "run": "nothing: run(pile), the face-up run, args (pile,)",
    "legal_moves": "nothing: legal_moves()",
    "pairs": "nothing: pairs(list), args (list,)",
    "subsets": "nothing: subsets(list, size) or subsets(list, low, high), args (list, sizes...)",
    "abs": "nothing: args (number,)",
    "range": "nothing: a range not folded, args (bounds...)",
    "best_of": "min or max: of one list, args (list,)",
    "best": "min or max: of several numbers, args (numbers...)",
    "list_count": "nothing: count(list), args (list,)",
    "sorted": "nothing: sorted(list), a new list of its numbers or strings in increasing order, args (list,)",
    "unique": "nothing: unique(list), a new list of its items without repeats, args (list,)",
    "disjoint": "nothing: disjoint(groups), every choice of the groups no two of which share an item, "
                "args (groups,)",
    "index_of": "nothing: index(list, item), where the item first is (none if nowhere), args (list, item)",
    "list_fold": "sum, all or any: of one list, args (list,)",
    "comprehension": "(func, names): args (iterable, element, condition?)",
    "iterate": "nothing: the items a comprehension walks, each step counted, args (value,)",
    "and": "nothing: args (left, right)",
    "or": "nothing: args (left, right)",
    "arith": "the operator (+ - * / % **): args (left, right)",
    "join": "nothing: a list of the left list's items then the right's (`+` of lists), args (left, right)",
    "plus": "nothing: `+` of two values of kinds known only in play (numbers added, or lists joined), "
            "args (left, right)",
    "compare": "the operator (== != < <= > >=): args (left, right)",
    "in": "in or notin: args (value, container)",
    "container": "nothing: a value checked to be a list or a string, args (value,)",
    "not": "nothing: args (value,)",
    "neg": "nothing: args (number,)",
    "ternary": "nothing: args (condition, then, otherwise)",
    "list": "nothing: a list written out, args (items...)",
    "same": "nothing: args (value,), a node checked as another's value (`a and b` with `a` true)",
}


@dataclass(eq=False, slots=True)
class Typed:
    """One node of a checked expression (see `KINDS` for `info` and `args`). The checker marks a
    node it made `unit` in place; a node kept to stand for a name (an item, a parameter) is copied
    where the name is used (`copy`)."""

    kind: str
    type: str  # front/compile_types.py: int bool str card cards pile piles list pairs none any
    node: Node  # the syntax node it was checked from (where a failure is reported)
    args: tuple["Typed", ...] = ()
    info: Any = None
    const: bool = False
    value: Any = None
    total: bool = False  # cannot fail when it runs
    none: bool = True  # may be `none`
    unit: bool = False  # checked from a syntax node of its own (see the module's docstring)

    def copy(self, **changes: Any) -> "Typed":
        other = Typed(self.kind, self.type, self.node, self.args, self.info, self.const, self.value, self.total,
                      self.none, self.unit)
        for name, value in changes.items():
            setattr(other, name, value)
        return other
