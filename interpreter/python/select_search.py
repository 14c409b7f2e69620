"""Stage 5b, the search behind a move's `select` (python/movegen.py): the piles a move chooses, besides
its source and destination, whose cards add up to a goal; the generated enumerator calls it once per
source and destination."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..base.errors import RulesetError, RulesetRuntimeError
from ..base.limits import MAX_STEPS
from ..front.compiler import BOOL, INT, PILE, Scope
from ..front.source import PathKey

if TYPE_CHECKING:
    from ..model.ruleset import MoveTemplate, _Builder


def make_selector(host: _Builder, template: MoveTemplate, path: PathKey, spec: dict[str, Any],
                  scope: Scope) -> Callable[..., list[tuple[Any, list[int], list[int]]]]:
    """The search behind `select`: choose piles (each giving cards from its top) whose cards sum to a goal.

    Piles are tried in order, each either skipped or giving one of its allowed counts; with a
    goal (`equals`) and no negative values, a branch whose sum already exceeds it is cut. More
    than `limit` steps in one listing of the legal moves (over all its sources and destinations)
    is an error naming the move, never a hang; every step also counts towards the listing's
    `MAX_STEPS`.
    """
    piles = template.select_piles
    seat_piles = host.seat_zone_piles(path + ("from",))
    take = template.select_take
    pile_test = host.evaluator(path + ("when",), scope.with_bindings({"p": ("b_p", PILE)}), (BOOL,)) \
        if "when" in spec else None
    goal_of = host.evaluator(path + ("equals",), scope, (INT,)) if "equals" in spec else None
    attribute = spec.get("sum")
    if attribute is not None and host.scope.card_attributes.get(attribute) != INT:
        raise RulesetError(f"select.sum must name a number attribute of the cards, not '{attribute}'",
                           host.doc.pos(path + ("sum",)))
    if goal_of is not None and attribute is None:
        raise RulesetError("select.equals needs select.sum (the attribute to add up)", host.doc.pos(path + ("equals",)))
    values = host.rules.deck.attribute_table(attribute) if attribute else None
    fewest, most = spec.get("min", 1), spec.get("max", len(piles))
    limit = spec.get("limit", 10_000)
    where = host.doc.pos(path, key=True)  # the `select:` key of the move
    name = template.name
    meter = host.rules.meter
    used = [-1, 0]  # the listing (meter.epoch) the count belongs to, and the steps taken in it

    def select(S: Any, src: int, dst: int, card: Any, n: int, player: int) -> list[tuple[Any, list[int], list[int]]]:
        P, U = S.piles, S.up
        env = {"src": src, "dst": dst, "card": card, "n": n, "player": player, "move": name,
               "cards": P[src][len(P[src]) - n:] if src >= 0 and n else []}
        options: list[tuple[int, list[tuple[int, int]]]] = []
        for p in (seat_piles[player] if seat_piles is not None else piles):
            pile = P[p]
            if p == src or p == dst or not pile:
                continue
            if pile_test is not None:
                env["p"] = p
                if not pile_test(S, env):
                    continue
            if take == "top":
                counts = [1]
            elif take == "all":
                counts = [len(pile)]
            else:
                k = len(pile)
                while k and U[pile[k - 1]]:
                    k -= 1
                counts = list(range(1, len(pile) - k + 1))
            options.append((p, [(c, sum(values[x] for x in pile[len(pile) - c:]) if values else 0) for c in counts]))
        goal = goal_of(S, env) if goal_of is not None else None
        prune = goal is not None and all(v >= 0 for _, opts in options for _, v in opts)
        found: list[tuple[Any, list[int], list[int]]] = []
        chosen: list[tuple[int, int]] = []
        if used[0] != meter.epoch:
            used[0], used[1] = meter.epoch, 0

        def walk(i: int, total: int) -> None:
            used[1] += 1
            meter.left -= 1
            if used[1] > limit or meter.left < 0:
                raise RulesetRuntimeError(f"move '{name}' would look at more than "
                                          f"{limit if used[1] > limit else MAX_STEPS:,} selections in one position; "
                                          f"narrow its 'select' (when, equals, max) or raise its 'limit'", where)
            if prune and goal is not None and total > goal:
                return
            if i == len(options):
                if fewest <= len(chosen) <= most and (goal is None or total == goal):
                    picked = tuple(chosen)
                    found.append((picked, [p for p, _ in picked],
                                  [x for p, c in picked for x in P[p][len(P[p]) - c:]]))
                return
            if len(chosen) < most:
                p, opts = options[i]
                for count, value in opts:
                    chosen.append((p, count))
                    walk(i + 1, total + value)
                    chosen.pop()
            walk(i + 1, total)

        walk(0, 0)
        return found

    return select
