"""Stage 6c, the checks of one move a text names (python/explain.py): made again in the order the
generated enumerator makes them (the turn, the phase, the piles, the source, the destination, the
selection, the conditions), the first that fails told as the move's `Reason`."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ..front.compiler import PILE
from .explain_parts import Explaining, _Frame
from .explain_texts import _Shape
from .explanation import Marked, Reason
from .moves import BLIND, Move

if TYPE_CHECKING:
    from ..model.rules import MoveTemplate


class _MoveCheck:
    """The checks of one move a text names, in the order the generated enumerator makes them."""

    def __init__(self, explainer: Explaining, template: MoveTemplate, shape: _Shape) -> None:
        self.x = explainer
        self.game = explainer.game
        self.rules = explainer.rules
        self.template = template
        self.shape = shape
        self.spec: dict[str, Any] = explainer.front.data["moves"].get(template.name, {}) \
            if explainer.front is not None else {}
        self.move: Move | None = None

    def names(self, pile: int) -> str:
        return self.rules.pile_names[pile]

    def reason(self, why: str, marks: Iterable[Marked] = ()) -> Reason:
        text = self.move.text() if self.move is not None else self.template.name
        return Reason(self.template.name, self.template.help, text, why, tuple(marks))

    def fits(self) -> str | None:
        """None when the shape is this template's form, else why not (the text names it otherwise)."""
        t, shape = self.template, self.shape
        if shape.name is not None and shape.name != t.name.lower():
            return "another move's name"
        if t.named_text or shape.named:
            if not (t.named_text and shape.named):
                return "named"
            return "a card" if (shape.picks is not None) != (t.take == "any") else None
        if shape.name is None and not (shape.src >= 0 or shape.dst >= 0):
            return "no piles"
        if shape.one_pile:
            if t.sources and t.targets:
                return "needs two piles"
            if not t.sources:  # only a destination: the one pile written is it
                shape.dst, shape.src = shape.src, -1
                if shape.count is not None or shape.picks is not None:
                    return "a destination takes no count"
        if (shape.src >= 0) != bool(t.sources) or (shape.dst >= 0) != bool(t.targets):
            return "other piles"
        if shape.src >= 0 and shape.src not in t.sources or shape.dst >= 0 and shape.dst not in t.targets:
            return "other zones"
        if shape.count is not None and t.take != "run":
            return "a count"
        if (shape.picks is not None) != (t.take == "any"):
            return "a card"
        if shape.selection and not t.select_piles:
            return "a selection"
        if shape.word is not None and not (t.for_seat or t.choices):
            return "a trailing word"
        return None

    def build(self) -> str | None:
        """Make the move; None, or why the text cannot be this move (a card or seat it does not have)."""

        t, shape, S = self.template, self.shape, self.game.state
        src, dst = shape.src, shape.dst
        if t.named_text:
            src = t.sources[0] if t.sources else -1
            dst = t.targets[0] if t.targets else -1
        pile = S.piles[src] if src >= 0 else []
        count = 0
        pick: Any = None
        if src >= 0:
            if t.take == "run":
                count = shape.count or 1
            elif t.take == "all":
                count = len(pile)
            elif t.take == "any":
                count = t.picks
            elif t.take == "top":
                count = 1
            else:
                count = self.take_count(src)
        theirs = t.seat_sources is not None and src >= 0 and src not in t.seat_sources[self.x.seat]
        if t.take == "any" and src >= 0 and theirs:
            pick = BLIND  # not the seat's pile (told by `piles`): its cards are not looked at
        elif t.take == "any" and src >= 0:
            assert shape.picks is not None
            codes = self.rules.deck.codes
            if shape.picks == ("?",) * len(shape.picks) and len(shape.picks) == t.picks:
                pick = BLIND if t.picks == 1 else None
                if pick is None:
                    return f"name the {t.picks} cards to take"
            else:
                if len(shape.picks) != t.picks:
                    return f"{t.name} takes {t.picks} card{'s' if t.picks > 1 else ''}: name {'it' if t.picks == 1 else 'them'}"
                chosen: list[int] = []
                for code in shape.picks:
                    card = next((c for c in reversed(pile) if codes[c].lower() == code and c not in chosen
                                 and c not in self.x.hidden), None)
                    if card is None:
                        return f"you see no card '{code}' on {self.names(src)}"
                    chosen.append(card)
                pick = chosen[0] if t.picks == 1 else tuple(sorted(chosen, key=pile.index))
        seat = -1
        if t.for_seat or t.choices:
            word = shape.word
            if word is None:
                return f"{t.name} names {'a seat' if t.for_seat else 'a value'}: add it after the move"
            if t.for_seat:
                if not (word.startswith("seat") and word[4:].isdigit() and 1 <= int(word[4:]) <= self.game.players):
                    return f"'{word}' is no seat of this game (seat1-seat{self.game.players})"
                seat = int(word[4:]) - 1
            else:
                offered = t.offered_choices(self.game.players)
                texts = [t.choice_text(i).strip() for i in offered]
                values = [text.lower() for text in texts]
                if word not in values:
                    listed = ", ".join(texts[:12]) + (", ..." if len(texts) > 12 else "")
                    return f"{t.name} names one of: {listed}; not '{word}'"
                seat = offered[values.index(word)]
        move = Move(self.rules, t.index, src, count, dst, shape.selection, pick, seat)
        if self.rules.simultaneous:
            move.actor = shape.actor if shape.actor is not None else self.x.seat
        self.move = move
        return None

    def take_count(self, src: int) -> int:
        """A `take: N` move's count (an expression of `src`), or the pile's size where it fails."""
        take = self.spec.get("take")
        if isinstance(take, int) and not isinstance(take, bool):
            return take
        front = self.x.front
        if front is None or take is None:
            return len(self.game.state.piles[src])
        frame = self.frame(("moves", self.template.name, "take"), {"src": src, "player": self.x.seat,
                                                                     "move": self.template.name}, "take")
        value = self.x.value(front.parse(("moves", self.template.name, "take")), frame)
        return value.value if value.ok and isinstance(value.value, int) else len(self.game.state.piles[src])

    def frame(self, path: tuple[Any, ...], env: dict[str, Any], label: str) -> _Frame:
        front = self.x.front
        text = str(front._value(path))
        return _Frame(self.template.scope, env, self.secret_names(env), text,
                      lambda offset: front.doc.expr_pos(path, offset), label)

    def secret_names(self, env: dict[str, Any]) -> frozenset[str]:
        hidden = self.x.hidden
        names = set()
        for name in ("card", "pick"):
            if env.get(name) in hidden:
                names.add(name)
        for name in ("cards", "chosen"):
            if any(c in hidden for c in env.get(name) or ()):
                names.add(name)
        return frozenset(names)

    def env(self) -> dict[str, Any]:
        move = self.move
        assert move is not None
        S = self.game.state
        pick = move.pick
        if pick == BLIND:
            pick = next((c for c in reversed(S.piles[move.src]) if c in self.x.hidden), None)
        pile = S.piles[move.src] if move.src >= 0 else []
        cards = list(pick) if isinstance(pick, tuple) else [pick] if pick is not None else \
            (pile[len(pile) - move.count:] if move.count else [])
        env = {"src": move.src, "dst": move.dst, "n": move.count, "cards": cards,
               "card": cards[0] if cards else None, "player": self.x.seat, "move": self.template.name,
               "pick": pick, "target": move.seat}
        if self.template.choices:
            env.update(self.template.named_values(move.seat))
        if move.selection:
            env["selection"] = move.selection
            env["chosen_piles"] = [p for p, _ in move.selection]
            env["chosen"] = [c for p, n in move.selection for c in S.piles[p][len(S.piles[p]) - n:]]
        return env

    # -- the checks --------------------------------------------------------------------------

    def check(self) -> Reason:
        """Why the move is not legal now (the first check that fails)."""
        for step in (self.turn, self.phase, self.piles, self.source, self.destination, self.selection,
                     self.conditions):
            reason = step()
            if reason is not None:
                return reason
        return self.reason("it is not among the legal moves now")

    def turn(self) -> Reason | None:
        S, seat = self.game.state, self.x.seat
        move = self.move
        assert move is not None
        if self.rules.simultaneous:
            if move.actor != seat:
                return self.reason(f"it is seat {move.actor + 1}'s move; you are seat {seat + 1}")
            return None
        if seat != S.current:
            return self.reason(f"it is seat {S.current + 1}'s turn to act, not seat {seat + 1}'s")
        if self.rules.out_of_turn:
            t = self.template
            if S.asking is not None and not (t.out_of_turn or t.declines):
                return self.reason(f"seat {seat + 1} is asked to act out of turn: only the moves made out of "
                                   f"turn, or pass")
            if t.declines and S.asking is None:
                return self.reason("only a seat asked to act out of turn may pass")
            if t.out_of_turn and S.asking is not None and t.asked_after != self.rules.opens_asking \
                    and S.asking[4] not in t.asked_after:
                return self.reason("it may be made out of turn only after other moves")
        if self.template.stuck:  # `turns.no_move: pass` (python/engine.py `_offer_pass`)
            return self.reason(f"seat {seat + 1} may pass only when it has no other move (and another seat has one)")
        return None

    def phase(self) -> Reason | None:
        wanted = self.spec.get("phase")
        if wanted is None or not self.rules.phases:
            return None
        names = [wanted] if isinstance(wanted, str) else list(wanted)
        now = self.rules.phases[self.game.state.phase]
        if now in names:
            return None
        return self.reason(f"it is made in the {' or '.join(names)} phase of a turn; this is the {now} phase")

    def piles(self) -> Reason | None:
        t, move, seat = self.template, self.move, self.x.seat
        assert move is not None
        for pile, rows, seats, verb in ((move.src, t.seat_sources, t.source_seats, "takes from"),
                                        (move.dst, t.seat_targets, t.target_seats, "goes to")):
            if pile < 0 or rows is None:
                continue
            owner = self.rules.pile_owner[pile]
            if pile not in rows[seat]:
                if seats == "others" and owner == seat:
                    return self.reason(f"{self.names(pile)} is your own pile: this move {verb} another seat's")
                return self.reason(f"{self.names(pile)} is not one of your piles (you are seat {seat + 1})")
            if seats != "own" and owner >= self.game.players:
                return self.reason(f"{self.names(pile)} is seat {owner + 1}'s, and this game has {self.game.players} seats")
        return None

    def covered(self, pile: int) -> str | None:
        S = self.game.state
        over = [q for q in self.rules.cover[pile] if S.piles[q]] if self.rules.cover else []
        if over:
            return f"{self.names(pile)} is covered by {', '.join(self.names(q) for q in over)}"
        return None

    def source(self) -> Reason | None:
        t, move, S = self.template, self.move, self.game.state
        assert move is not None
        if move.src < 0:
            return None
        pile = S.piles[move.src]
        name = self.names(move.src)
        if not pile:
            return self.reason(f"{name} is empty")
        covered = self.covered(move.src)
        if covered is not None:
            return self.reason(covered)
        if t.take == "run":
            up = 0
            while up < len(pile) and S.up[pile[len(pile) - 1 - up]]:
                up += 1
            if move.count > len(pile):
                return self.reason(f"{name} holds only {len(pile)} card{'s' if len(pile) > 1 else ''}")
            if move.count > up:
                if up == 0:
                    return self.reason(f"the top card of {name} is face down")
                top = f"the top {up} cards" if up > 1 else "the top card"
                return self.reason(f"only {top} of {name} {'are' if up > 1 else 'is'} face up, "
                                   f"not {move.count}")
        elif t.take == "count" and not 1 <= move.count <= len(pile):
            return self.reason(f"it takes {move.count} cards, and {name} holds {len(pile)}")
        elif t.take == "any" and move.pick == BLIND and not any(c in self.x.hidden for c in pile):
            return self.reason(f"{name} holds no card hidden from you: name the card")
        return None

    def destination(self) -> Reason | None:
        move, S = self.move, self.game.state
        assert move is not None
        if move.dst < 0:
            return None
        if move.dst == move.src:
            return self.reason("a move cannot put cards back on the pile they come from")
        covered = self.covered(move.dst)
        if covered is not None:
            return self.reason(covered)
        first = self.rules.empty_first[move.dst] if self.rules.empty_first else -1
        if not S.piles[move.dst] and first >= 0:
            before = [q for q in range(first, move.dst) if not S.piles[q]]
            if before:
                return self.reason(f"the empty piles are filled in order: {self.names(before[0])} first")
        return None

    def selection(self) -> Reason | None:
        t, move, S = self.template, self.move, self.game.state
        assert move is not None
        if not t.select_piles:
            return None
        spec = self.spec.get("select", {})
        if not move.selection:
            example = next((m.text() for m in self.game.legal_moves(self.x.seat) if m.template == t.index), None)
            return self.reason("it chooses further piles (select): write them after the source, as in "
                               + (example or f"{t.name}:SRC+P>DST"))
        for p, count in move.selection:
            name = self.names(p)
            if p not in t.select_piles or p in (move.src, move.dst):
                return self.reason(f"{name} cannot be chosen")
            pile = S.piles[p]
            if not pile:
                return self.reason(f"{name} is empty")
            take = t.select_take
            if take == "top" and count != 1 or take == "all" and count != len(pile) or count > len(pile):
                return self.reason(f"{name} gives {'its top card' if take == 'top' else 'all its cards'}, "
                                   f"not {count}")
            if take == "run" and not all(S.up[c] for c in pile[len(pile) - count:]):
                return self.reason(f"the {count} top cards of {name} are not all face up")
        fewest, most = spec.get("min", 1), spec.get("max", len(t.select_piles))
        if not fewest <= len(move.selection) <= most:
            return self.reason(f"it chooses {fewest}-{most} piles, not {len(move.selection)}")
        if "when" in spec:
            for p, _ in move.selection:
                env = {**self.env(), "p": p}
                path = ("moves", t.name, "select", "when")
                frame = self.frame(path, env, f"select.when, p = {self.names(p)}")
                frame.extra = (("p", "b_p", PILE),)
                reason = self.condition(path, frame)
                if reason is not None:
                    return reason
        attribute = spec.get("sum")
        if attribute is not None and "equals" in spec:
            chosen = self.env()["chosen"]
            if any(c in self.x.hidden for c in chosen):
                return self.reason("the cards chosen do not add up to what select.equals wants "
                                   "(some you cannot see)")
            table = self.rules.deck.attribute_table(attribute)
            total = sum(table[c] for c in chosen)
            path = ("moves", t.name, "select", "equals")
            frame = self.frame(path, self.env(), "select.equals")
            goal = self.x.value(self.x.front.parse(path), frame)
            if goal.ok and total != goal.value:
                shown = "" if goal.secret else f" {goal.value}"
                return self.reason(f"the {attribute} of the cards chosen adds up to {total}, not{shown or ' the goal'}",
                                   [self.x.mark(self.x.front.parse(path), frame,
                                                f"is{shown or ' another number'}")])
        return None

    def condition(self, path: tuple[Any, ...], frame: _Frame) -> Reason | None:
        """The condition at `path` (a `when`, `for_seat`, `select.when`): None if it holds."""
        node = self.x.front.parse(path)
        value = self.x.value(node, frame)
        if not value.ok:
            raise self.x.failure(value, node, frame)
        if value.value:
            return None
        marks: list[Marked] = []
        self.x.false_part(node, frame, marks)
        return self.reason(f"its {path[-1] if path[-2] != 'select' else 'select.when'} condition is false", marks)

    def conditions(self) -> Reason | None:
        t = self.template
        if self.x.front is None:
            return None
        env = self.env()
        for key in ("for_seat", "when"):
            if key not in self.spec:
                continue
            path = ("moves", t.name, key)
            frame = self.frame(path, env, key)
            reason = self.condition(path, frame)  # (a move's index only skips what `when` refuses)
            if reason is not None:
                return reason
        return None
