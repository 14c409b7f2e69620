"""The moves in words, for the rules in words: each move's zones, what it takes, what it chooses,
when it is legal and its effects, on `EffectsDescriber`."""

from __future__ import annotations

from typing import Any

from ...front.parser import Const
from ...front.source import PathKey
from .document import Block
from .effects import EffectsDescriber
from .folding import simplify
from .speaker import Speaker
from .vocabulary import Term, _join, _plain, _value_text


class MovesDescriber(EffectsDescriber):
    """Describes the moves: the names a move's expressions read, and each move's parts."""

    def _zone_list(self, spec: Any) -> list[str]:
        return [spec] if isinstance(spec, str) else list(spec or ())

    def _pile_term(self, zones: list[str], role: str, shared: bool, seats: str = "own") -> Term:
        if len(zones) == 1 and not shared:
            info = self.book.zones[zones[0]]
            owner = info.owner if seats == "own" else "the "  # (another seat's, or any seat's: said where it goes)
            return Term(f"{owner}{info.label if info.single else info.singular}", "pile")
        return Term(f"the {role} pile", "pile")

    def _zones_words(self, zones: list[str], seats: str = "own") -> str:
        """The zones a move takes from or goes to; of a per-player zone, the acting seat's piles, or
        (`from_seats`, `to_seats`) another seat's or any seat's."""
        whose = {"own": "the player's", "others": "another player's", "all": "any player's"}[seats]
        words = []
        for zone in zones:
            info = self.book.zones[zone]
            if info.per_player and seats != "own":
                words.append(f"{whose} {info.label if info.single else info.singular}")
            else:
                words.append(f"{info.owner}{info.label}" if info.single else f"a {info.singular}"
                             + (f" of {whose}" if info.per_player else ""))
        return _join(words, "or")

    def move_names(self, name: str, spec: dict[str, Any]) -> dict[str, Term]:
        sources = self._zone_list(spec.get("from"))
        targets = self._zone_list(spec.get("to"))
        shared = bool(set(sources) & set(targets))
        names: dict[str, Term] = {"move": Term(f'"{name}"')}
        if sources:
            names["src"] = self._pile_term(sources, "source", shared, spec.get("from_seats", "own"))
            names["card"] = Term("the card", "card")
            names["cards"] = Term("the moved cards", "cards")
            names["n"] = Term("the number of cards moved", "number")
        if targets:
            names["dst"] = self._pile_term(targets, "destination", shared, spec.get("to_seats", "own"))
        if spec.get("for_seat") is not None:
            names["target"] = Term("the chosen seat", "seat")
        if spec.get("select"):
            names["chosen"] = Term("the chosen cards", "cards")
            names["chosen_piles"] = Term("the chosen piles", "piles")
        for choice, values in (spec.get("choose") or {}).items():
            names[choice] = Term(f"the {_plain(choice)} chosen", "seat" if values == "seats" else "")
        return names

    def moves(self) -> None:
        self.out.heading("Moves")
        for name, spec in (self.data.get("moves") or {}).items():
            path: PathKey = ("moves", name)
            speaker = self.speaker(self.move_names(name, spec))
            help_ = f": {spec['help']}" if spec.get("help") else ""
            self.out.item(f"{name}{help_}")
            phase = spec.get("phase")
            if phase:
                phases = [phase] if isinstance(phase, str) else phase
                self.out.item(f"Only in the {_join(phases, 'or')} phase.", 1)
            out_of_turn = spec.get("out_of_turn")
            if out_of_turn:
                after = "" if out_of_turn is True else f", right after {_join(list(out_of_turn), 'or')}"
                self.out.item(f"Any seat may make it whenever it is legal, in turn or not{after}.", 1)
            sources = self._zone_list(spec.get("from"))
            targets = self._zone_list(spec.get("to"))
            if sources:
                self.out.item(f"From {self._zones_words(sources, spec.get('from_seats', 'own'))}: "
                              f"{self.take(path, spec.get('take', 'top'), speaker)}.", 1)
            if targets:
                self.out.item(f"To {self._zones_words(targets, spec.get('to_seats', 'own'))}.", 1)
            if spec.get("for_seat") is not None:
                self.out.item("It also chooses a seat: any seat for which "
                              f"{self.condition(path + ('for_seat',), spec['for_seat'], speaker)}.", 1)
            for choice, values in (spec.get("choose") or {}).items():
                if values == "seats":
                    self.out.item(f"It also names {_plain(choice)}: any seat of the game.", 1)
                    continue
                said = _join([_value_text(v) for v in values], "or") if isinstance(values, list) \
                    else self.words(path + ("choose", choice), values, speaker)
                self.out.item(f"It also names {_plain(choice)}: one of {said}.", 1)
            if spec.get("when") is not None:
                self.out.item(f"Legal when {self.condition(path + ('when',), spec['when'], speaker)}.", 1)
            if spec.get("select"):
                self.select(path + ("select",), spec["select"], speaker)
            if "do" in spec:
                if not self.headed_effects(Block("item", "Then:", 1), path + ("do",), spec["do"] or [], speaker, 2):
                    self.out.item("It changes nothing but the turn.", 1)
            else:
                self.out.item("The cards move there.", 1)
            if spec.get("safe") is not None:
                self.out.item("Safe (the solver plays it without trying others) when "
                              f"{self.condition(path + ('safe',), spec['safe'], speaker)}.", 1)

    def take(self, path: PathKey, take: Any, speaker: Speaker) -> str:
        if take == "top":
            return "its top card (the card)"
        if take == "run":
            return "any face-up run from its top (the card is the run's bottom card)"
        if take == "all":
            return "the whole pile (the card is its bottom card)"
        if take == "any":
            return "any one card of it (the card)"
        if isinstance(take, dict):
            return f"any {take.get('any')} cards of it (the card is the first)"
        node = simplify(self.parsed(path + ("take",), take), self.book)
        if isinstance(node, Const) and type(node.value) is int:
            count = "its top card" if node.value == 1 else f"its top {node.value} cards"
        else:
            count = f"as many cards from its top as {speaker.say(node)}"
        return f"{count} (the card is the bottom one)"

    def select(self, path: PathKey, select: dict[str, Any], speaker: Speaker) -> None:
        zones = self._zone_list(select.get("from"))
        gives = {"top": "its top card", "run": "a face-up run from its top", "all": "all its cards"}[
            select.get("take", "top")]
        low, high = select.get("min", 1), select.get("max")
        count = f"at least {low}" if high is None else f"{low} to {high}" if high != low else f"exactly {low}"
        piles = "pile" if high == 1 == low else "piles"
        among = _join([self.book.zone_term(z).text for z in zones], "or")
        self.out.item(f"It also chooses {count} other {piles} of {among}, each giving {gives} (the chosen "
                      "cards):", 1)
        inner = speaker.with_names({"p": Term("p", "pile")})
        if select.get("when") is not None:
            self.out.item(f"a pile p may be chosen when {self.condition(path + ('when',), select['when'], inner)};", 2)
        if select.get("sum") and select.get("equals") is not None:
            self.out.item(f"the chosen cards' {_plain(select['sum'])}, added up, is exactly "
                          f"{self.words(path + ('equals',), select['equals'], speaker)};", 2)
        if select.get("limit"):
            self.out.item(f"at most {select['limit']:,} choices are tried in one position.", 2)
