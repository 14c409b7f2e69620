"""The effects in words, for the rules in words: each effect of a setup, a move, a trigger or the
end of a game as an item of the document, nested under `if` and `for`, on `DescriberBase`."""

from __future__ import annotations

from typing import Any

from ...front.parser import Const, ListLit, parse_loop
from ...front.source import PathKey
from .describer_base import DescriberBase
from .document import Block
from .folding import free_names, simplify
from .speaker import Speaker
from .vocabulary import Term, ZoneInfo, _capital, _join, _value_text

_RESULT_WORDS = {"won": "won", "lost": "lost", "draw": "a draw", "over": "over (no winner or loser)",
                 "limit": "stopped (result: limit)"}


class EffectsDescriber(DescriberBase):
    """Lists effects as items: moves of cards, deals, variables set, conditions and loops."""

    def effects(self, path: PathKey, effects: list[Any], speaker: Speaker, level: int) -> int:
        """The effects as items; how many blocks they gave (none where options fold them away)."""
        before = len(self.out.blocks)
        for i, effect in enumerate(effects):
            self.effect(path + (i,), effect, speaker, level)
        return len(self.out.blocks) - before

    def headed_effects(self, head: Block, path: PathKey, effects: list[Any], speaker: Speaker, level: int) -> int:
        """`head`, then the effects; neither when the effects fold away."""
        self.out.blocks.append(head)
        added = self.effects(path, effects, speaker, level)
        if not added:
            self.out.blocks.pop()
        return added

    def effect(self, path: PathKey, effect: Any, speaker: Speaker, level: int) -> None:
        out = self.out
        if effect == "move":
            out.item(f"Move the cards taken to {self._name_text(speaker, 'dst', 'the destination')}.", level)
            return
        if effect == "end_turn":
            out.item("The turn passes to the next seat.", level)
            return
        if effect == "reverse":
            out.item("The order of play reverses.", level)
            return
        if not isinstance(effect, dict) or not effect:  # pragma: no cover - the schema allows no other
            return
        verb = next(iter(effect))
        body = effect[verb]
        here = path + (verb,)

        def say(key: str, text: Any) -> str:
            return self.words(here + (key,), text, speaker)

        if verb == "move":
            self.move_effect(here, body or {}, speaker, level)
        elif verb in ("turn_up", "turn_down"):
            out.item(f"Turn {self.words(here, body, speaker)} face {'up' if verb == 'turn_up' else 'down'}.", level)
        elif verb in ("set", "random"):  # (random: each value one item of a list, drawn by chance)
            of = "one item of " if verb == "random" else ""
            parts = [f"{self.words(here + (k,), k, speaker)} to {of}"
                     f"{speaker.say(simplify(self.parsed(here + (k,), v), self.book), top=False)}"
                     for k, v in body.items()]
            drawn = ", drawn by chance (each item alike likely)" if verb == "random" else ""
            out.item(f"Set {_join(parts)}{drawn}.", level)
        elif verb == "add":
            parts = []
            for key, value in body.items():
                target = self.words(here + (key,), key, speaker)
                amount = simplify(self.parsed(here + (key,), value), self.book)
                if isinstance(amount, Const) and type(amount.value) is int and amount.value < 0:
                    parts.append(f"take {-amount.value} from {target}")
                else:
                    parts.append(f"add {speaker.say(amount, top=False)} to {target}")
            out.item(_capital(_join(parts)) + ".", level)
        elif verb == "if":
            condition = simplify(self.parsed(here, body), self.book)
            then, otherwise = effect.get("then") or [], effect.get("else") or []
            if isinstance(condition, Const):  # folded by the options
                chosen, key = (then, "then") if condition.value else (otherwise, "else")
                self.effects(path + (key,), chosen, speaker, level)
                return
            out.item(f"If {speaker.say(condition)}:", level)
            if not self.effects(path + ("then",), then, speaker, level + 1):
                out.item("nothing.", level + 1)
            if otherwise:
                out.item("Otherwise:", level)
                self.effects(path + ("else",), otherwise, speaker, level + 1)
        elif verb == "for":
            loop = parse_loop(str(body))
            iterable = simplify(loop.iterable, self.book)
            names = speaker._loop_names(loop.names, iterable)
            inner = speaker.with_names(names)
            if isinstance(iterable, ListLit) and len(iterable.items) == 1 and len(loop.names) == 1:
                out.item(f"With {loop.names[0]} = {speaker.say(iterable.items[0])}:", level)
            elif isinstance(iterable, ListLit) and iterable.items:
                items = _join([speaker.say(i, top=False) for i in iterable.items])
                out.item(f"For each {' and '.join(loop.names)} of {items}:", level)
            else:
                out.item(f"For each {' and '.join(loop.names)} in {speaker.say(iterable)}:", level)
            self.effects(path + ("do",), effect.get("do") or [], inner, level + 1)
        elif verb == "with":
            values = {name: simplify(self.parsed(here + (name,), value), self.book) for name, value in body.items()}
            parts = [f"{name} = {speaker.say(value, top=False)}" for name, value in values.items()]
            inner = speaker.with_names({name: Term(name, speaker.kind(value)) for name, value in values.items()})
            if parts:
                out.item(f"With {_join(parts)}:", level)
            if not self.effects(path + ("do",), effect.get("do") or [], inner, level + 1 if parts else level) and parts:
                out.item("nothing.", level + 1)
        elif verb == "while":
            condition = simplify(self.parsed(here, body), self.book)
            if isinstance(condition, Const) and not condition.value:  # folded by the options: never runs
                return
            out.item(f"While {speaker.say(condition)}, again and again:", level)
            if not self.effects(path + ("do",), effect.get("do") or [], speaker, level + 1):
                out.item("nothing.", level + 1)
        elif verb == "act":
            phase = f", in the {body['phase']} phase" if body.get("phase") else ""
            out.item(f"{_capital(say('seat', body['seat']))} must make one move now{phase}; then the turn comes back.",
                     level)
        elif verb == "turn_to":
            out.item(f"The next turn goes to {self.words(here, body, speaker)}.", level)
        elif verb == "end":
            reason = f": {body['reason']}" if body.get("reason") else ""
            result = body["result"]
            words = "over" if result == "over" and self.rules.max_players > 1 else _RESULT_WORDS.get(result, result)
            out.item(f"The game ends, {words}{reason}.", level)
        elif verb == "take_deck":
            out.item(f"Put the whole deck, shuffled, face down on {self.words(here, body, speaker)}.", level)
        elif verb == "move_chosen":
            body = body or {}
            to = say("to", body["to"]) if body.get("to") else self._name_text(speaker, "dst", "the destination")
            face = f", face {body['face']}" if body.get("face") else ""
            out.item(f"Move the chosen cards, pile by pile, to {to}{face}.", level)
        elif verb == "sort":
            key = self.words(here + ("by",), body.get("by"), speaker.with_names({"card": Term("the card", "card")}))
            end = "the highest" if body.get("descending") else "the lowest"
            out.item(f"Sort the cards of {say('pile', body['pile'])} by {key}, {end} at the bottom.", level)
        elif verb == "show":
            what = say("card", body["card"]) if body.get("card") else f"every card of {say('pile', body['pile'])}" \
                if body.get("pile") else "nothing"
            out.item(f"Show {what} to {say('to', body['to'])} (known until a shuffle).", level)
        elif verb == "shuffle":
            out.item(f"Shuffle {self.words(here, body, speaker)}.", level)
        elif verb == "deal":
            self.deal(here, body, speaker, level)
        else:  # pragma: no cover - the schema allows no other
            out.item(f"`{verb}`.", level)

    def _name_text(self, speaker: Speaker, name: str, fallback: str) -> str:
        term = speaker.names.get(name)
        return term.text if term is not None else fallback

    def move_effect(self, path: PathKey, body: dict[str, Any], speaker: Speaker, level: int) -> None:
        source = self.words(path + ("from",), body["from"], speaker) if body.get("from") \
            else self._name_text(speaker, "src", "the source")
        target = self.words(path + ("to",), body["to"], speaker) if body.get("to") \
            else self._name_text(speaker, "dst", "the destination")
        if body.get("card"):
            what = f"{self.words(path + ('card',), body['card'], speaker)} (wherever it lies in {source})"
        elif body.get("count") is not None:
            count = self.words(path + ("count",), body["count"], speaker)
            what = f"{count} card{'s' if count != '1' else ''} from the top of {source}"
        elif body.get("from"):
            what = f"all the cards of {source}"
        else:
            what = f"the cards taken from {source}"
        place = {"bottom": " under its cards", "random": " at a random place among its cards"}.get(
            body.get("place", "top"), "")
        notes = []
        if body.get("flip"):
            notes.append("turned over as a packet (order reversed, each card turned)")
        if body.get("face"):
            notes.append(f"face {body['face']}")
        self.out.item(f"Move {what} to {target}{place}" + (", " + ", ".join(notes) if notes else "") + ".", level)

    def deal(self, path: PathKey, body: dict[str, Any], speaker: Speaker, level: int) -> None:
        zone = self.book.zones[body["to"]]
        source = self.words(path + ("from",), body["from"], speaker)
        piles = f"the {zone.label}" if zone.single else f"the {zone.count} {zone.plural}"
        if zone.per_player:
            piles = f"each seat's {zone.label}" + ("" if zone.single else f" ({zone.count} piles each)")
        counts = self._counts(path + ("counts",), body["counts"], speaker, zone)
        face = f"face {body.get('face', 'down')}"
        where = ""
        if body.get("where"):
            inner = speaker.with_names({"card": Term("the card", "card"), "dst": Term("the pile dealt to", "pile")})
            where = f"; each pile gets the next card from the top for which {self.words(path + ('where',), body['where'], inner)}"
        self.out.item(f"Deal from {source} to {piles}, one card at a time, row by row, {face}: {counts}{where}.",
                      level)

    def _counts(self, path: PathKey, source: Any, speaker: Speaker, zone: ZoneInfo) -> str:
        node = simplify(self.parsed(path, source), self.book)
        if "i" in free_names(node) and not zone.per_player and zone.count <= 20:
            values = [simplify(node, self.book, {"i": Const(0, k)}) for k in range(zone.count)]
            if self.book.fold and all(isinstance(v, Const) for v in values):
                listed = ", ".join(_value_text(v.value) for v in values)  # type: ignore[attr-defined]
                formula = speaker.with_names({"i": Term("i", "number")}).say(node)
                return f"{listed} cards ({formula} for pile i)"
        text = speaker.with_names({"i": Term("i (the pile's index)", "number")}).say(node)
        return f"{text} card{'s' if text != '1' else ''} each"
