"""The ruleset section by section, for the rules in words: players and cards, options, zones,
variables, functions, setup, turns, moves, triggers, end and score (`RulesDescriber`, on
`MovesDescriber`), each a heading of the document and its items."""

from __future__ import annotations

from typing import Any

from ...base.errors import shown_title
from ...front.parser import Const, parse_loop
from ...front.source import PathKey
from .document import Block, RulesDocument
from .folding import simplify
from .moves import MovesDescriber
from .speaker import Speaker
from .speaker_base import INLINE_DEPTH
from .vocabulary import Term, _capital, _join

_VISIBILITY_WORDS = {
    "faces": "face-up cards are seen by all, face-down ones by nobody",
    "all": "every card is seen by all",
    "none": "only the number of cards is seen",
    "owner": "its seat sees all of its cards, the others only the face-up ones",
    "top": "only the top card is seen, when face up",
}
_RESULT_TITLE = {"won": "Won", "lost": "Lost", "draw": "A draw", "over": "Over, with no winner or loser",
                 "limit": "Stopped (result: limit)"}


class RulesDescriber(MovesDescriber):
    """Writes the rules of one loaded ruleset, section by section (`run`)."""

    # -- sections -----------------------------------------------------------------------------

    def run(self) -> RulesDocument:
        self.out.blocks.append(Block("title", shown_title(self.rules.title)))
        if self.data.get("description"):
            self.out.para(str(self.data["description"]))
        self.out.para("Below, seats, piles and items are numbered from 0 where rules compute with them "
                      "(seat 0 is the first seat, a zone's pile 0 its first pile).")
        self.general()
        self.options()
        self.zones()
        self.variables()
        self.functions()
        self.setup()
        self.turns()
        self.moves()
        self.triggers()
        self.end()
        self.score()
        return self.out

    def general(self) -> None:
        rules, data = self.rules, self.data
        self.out.heading("Players and cards")
        if rules.min_players == rules.max_players:
            players = f"{rules.min_players} player{'s' if rules.min_players > 1 else ''}"
        else:
            players = f"{rules.min_players} to {rules.max_players} players (default {rules.default_players})"
        self.out.item(f"Players: {players}.")
        teams = data.get("teams")
        if isinstance(teams, dict):
            speaker = self.speaker({"player": Term("the seat", "seat")})
            names = teams.get("names")
            named = f" ({_join([str(n) for n in names])})" if names else ""
            self.out.item(f"Teams{named}: each seat's team is "
                          f"{self.words(('teams', 'of'), teams['of'], speaker)}; a team wins together.")
        deck = data.get("deck")
        name = deck if isinstance(deck, str) else deck.get("name") if isinstance(deck, dict) else None
        counts = sorted({len(rules.deck_cards[p]) for p in rules.deck_cards}) if rules.deck_cards else []
        count = (f"{counts[0]} cards" if len(counts) == 1 else
                 "; ".join(f"{len(rules.deck_cards[p])} cards with {p} players" for p in sorted(rules.deck_cards))
                 if counts else "")
        self.out.item(f"Deck: {name}{f' ({count})' if count else ''}.")
        if isinstance(deck, dict):
            if deck.get("copies"):
                self.out.item(f"{deck['copies']} decks are shuffled together.", 1)
            where = deck.get("where")
            speaker = self.speaker({"card": Term("the card", "card")})
            if isinstance(where, str):
                self.out.item(f"Only the cards for which {self.words(('deck', 'where'), where, speaker)} are used.", 1)
            elif isinstance(where, dict):
                self.out.item("Only the cards for which one of these holds are used:", 1)
                for key, text in where.items():
                    self.out.item(f"{key}: {self.words(('deck', 'where', key), text, speaker)}.", 2)

    def options(self) -> None:
        options = self.data.get("options") or {}
        if not options:
            return
        self.out.heading("Options")
        for name, spec in options.items():
            chosen = self.rules.option_values.get(name)
            values = ", ".join(_option_text(v) for v in spec.get("values") or ()) if "values" in spec \
                else f"a whole number from {spec.get('min')} to {spec.get('max')}"
            default = spec.get("default")
            state = f"chosen: {_option_text(chosen)}" if chosen == default and type(chosen) is type(default) \
                else f"chosen: {_option_text(chosen)}; default {_option_text(default)}"
            help_ = f" {spec['help']}" if spec.get("help") else ""
            self.out.item(f"{name} ({values}; {state}).{help_}")
        if self.book.fold:
            self.out.para("The rules below are written for the chosen values.")

    def zones(self) -> None:
        self.out.heading("Zones")
        rules = self.rules
        for name, info in self.book.zones.items():
            spec = self.data["zones"][name]
            zone = rules.zones[name]
            piles = "one pile" if info.single else f"{info.count} piles"
            if info.single:
                codes = zone.short
            elif spec.get("labels"):
                labels = spec["labels"]
                codes = f"{zone.short}{labels[0]} to {zone.short}{labels[-1]}"
            else:
                codes = f"{zone.short}1 to {zone.short}{info.count}"
            if info.per_player:
                codes += "@seat"
                piles += " for each seat"
            facts = [f"{piles} ({codes})", _VISIBILITY_WORDS.get(zone.visibility, zone.visibility)]
            if spec.get("empty_piles") == "first":
                facts.append("a move to an empty pile is offered for the first empty one only")
            if spec.get("covered_by") is not None:
                speaker = self.speaker({"i": Term("i", "number")})
                facts.append("pile i lies under the piles whose indexes are "
                             f"{self.words(('zones', name, 'covered_by'), spec['covered_by'], speaker)}; a pile "
                             "with a card on it is covered, and no move takes from it or puts onto it")
            if spec.get("order") is not None:
                speaker = self.speaker({"card": Term("the card", "card")})
                facts.append(f"its cards are shown in order of {self.words(('zones', name, 'order'), spec['order'], speaker)}"
                             ", lowest first")
            self.out.item(f"{info.label}: " + "; ".join(facts) + ".")
        layout = self.data.get("layout")
        if layout:
            rows = "; ".join(", ".join(self.book.zones[z].label for z in row) for row in layout)
            self.out.para(f"Laid out in rows: {rows}.")

    def variables(self) -> None:
        variables = self.data.get("variables") or {}
        if not variables:
            return
        self.out.heading("Variables")
        speaker = self.speaker({"player": Term("the seat", "seat")})
        for name, spec in variables.items():
            facts = []
            if spec.get("per_player"):
                facts.append("one for each seat")
            if spec.get("per_team"):
                facts.append("one for each team")
            if spec.get("per_card"):
                facts.append("a mark on each card, seen as the card is")
            if spec.get("persist"):
                facts.append("kept from game to game")
            if spec.get("label"):
                facts.append(f'shown as "{spec["label"]}"')
            if spec.get("show") is not None:
                shown = simplify(self.parsed(("variables", name, "show"), spec["show"]), self.book)
                if isinstance(shown, Const):
                    facts.append("shown" if shown.value else "not shown")
                else:
                    facts.append(f"shown while {speaker.say(shown)}")
            extra = f" ({'; '.join(facts)})" if facts else ""
            start = self.words(("variables", name, "initial"), spec.get("initial"), speaker)
            self.out.item(f"{name}{extra}: starts at {start}.")

    def functions(self) -> None:
        if not self.book.functions:
            return
        self.out.heading("Functions")
        self.out.para("Named conditions and values, used by name below where they are too long to write out.")
        for name, (params, body) in self.book.functions.items():
            speaker = Speaker(self.book, {p: Term(p) for p in params}, depth=INLINE_DEPTH)
            folded = simplify(body, self.book)
            text = speaker.say(folded)
            if isinstance(folded, Const) and self.book.fold and not isinstance(body, Const):
                text = f"{'always ' if isinstance(folded.value, bool) else ''}{text} (with the chosen options)"
            self.out.item(f"{name}({', '.join(params)}): {text}.")

    def setup(self) -> None:
        self.out.heading("Setup")
        speaker = self.speaker()
        self.effects(("setup",), self.data.get("setup") or [], speaker, 0)
        if self.data.get("on_start"):
            self.headed_effects(Block("para", "Then, when a game starts:"), ("on_start",), self.data["on_start"],
                                speaker, 0)

    def turns(self) -> None:
        turns = self.data.get("turns") or {}
        order = turns.get("order") or ("solo" if self.rules.max_players == 1 else "rotation")
        self.out.heading("Turns")
        text = {"solo": "One seat plays every move.",
                "rotation": "The seats take turns, seat 1 first, then up the seats.",
                "simultaneous": "There are no turns: every seat may move at any moment."}[order]
        self.out.para(text)
        for phase in turns.get("phases") or ():
            if isinstance(phase, str):
                self.out.item(f"Phase {phase}.")
            else:
                notes = []
                if phase.get("optional"):
                    notes.append("passed over when it offers no move")
                if phase.get("interrupt"):
                    notes.append("entered only when a move makes a seat act")
                self.out.item(f"Phase {phase['name']}" + (f" ({'; '.join(notes)})" if notes else "") + ".")
        if turns.get("phases"):
            self.out.para("After a move the turn goes to its next phase; after the last phase, to the next seat.")
        if turns.get("no_move") == "pass":
            self.out.para("A seat with no legal move passes (its only move, \"pass\"): the turn goes to the next seat. "
                          "When no seat can move, the game ends (below).")

    # -- triggers, end, score -----------------------------------------------------------------

    def triggers(self) -> None:
        triggers = self.data.get("triggers") or []
        if not triggers:
            return
        self.out.heading("After each move")
        self.out.para("These run in order after a move's own effects.")
        for i, trigger in enumerate(triggers):
            path: PathKey = ("triggers", i)
            speaker = self.speaker({"move": Term("the move just made")})
            name = trigger.get("name") or f"trigger {i + 1}"
            after = trigger.get("after")
            when = ("after every move" if after is None else
                    f"after {_join(list(after), 'or')}" if after else "")
            if trigger.get("at_start"):
                when = (when + ", and once " if when else "once ") + "when a game starts, before anyone moves"
            self.out.item(f"{_capital(name)} ({when}):")
            inner = speaker
            loop_text = ""
            if trigger.get("for"):
                loop = parse_loop(str(trigger["for"]))
                iterable = simplify(loop.iterable, self.book)
                inner = speaker.with_names(speaker._loop_names(loop.names, iterable))
                loop_text = f"for each {' and '.join(loop.names)} in {speaker.say(iterable)}"
            condition = self.condition(path + ("when",), trigger["when"], inner) \
                if trigger.get("when") is not None else ""
            if loop_text and condition:
                head = f"{_capital(loop_text)} such that {condition}:"
            elif loop_text:
                head = f"{_capital(loop_text)}:"
            elif condition:
                head = f"If {condition}:"
            else:
                head = ""
            if head:
                self.out.item(head, 1)
            self.effects(path + ("do",), trigger.get("do") or [], inner, 2 if head else 1)
            if trigger.get("repeat"):
                self.out.item("This repeats until it no longer applies.", 1)

    def end(self) -> None:
        end = self.data.get("end") or {}
        self.out.heading("End of the game")
        speaker = self.speaker({"player": Term("the seat to act", "seat")})
        if end.get("when"):
            self.out.para("After every move (and once after the setup), the first of these that holds ends the "
                          "game:")
        for i, rule in enumerate(end.get("when") or ()):
            path: PathKey = ("end", "when", i)
            condition = self.condition(path + ("if",), rule["if"], speaker)
            self.out.item(f"{_outcome(rule['result'], rule.get('reason'), self.rules.max_players)} when {condition}.")
            if rule.get("winners") is not None:
                teams = ", with their teams" if self.book.teams else ""
                self.out.item(f"The winners are {self.words(path + ('winners',), rule['winners'], speaker)}{teams}.",
                              1)
        self.out.para("Also:" if end.get("when") else "The game ends:")
        cycle = self.rules.cycle
        if cycle is not None:
            spec = end["cycle"]
            only = ""
            if spec.get("when") is not None:
                only = f", counting only positions where {self.condition(('end', 'cycle', 'when'), spec['when'], speaker)}"
            self.out.item(f"{_outcome(cycle.result, cycle.reason, self.rules.max_players)} when {_join(list(spec['moves']))} alone bring the "
                          "cards back to a position they held since any other move was made, and no position on the "
                          f"way offered any other move{only}.")
        repeat = end.get("repeat")
        if repeat:
            self.out.item(f"{_outcome(repeat['result'], repeat.get('reason'), self.rules.max_players)} when the same position (cards, faces, "
                          f"variables, seat to act) occurs {repeat['count']} times.")
        result, reason = self.rules.no_moves_result
        default = "" if end.get("no_moves") else " (the default)"
        # (where a seat with no move passes, `turns.no_move: pass`, only a table where no seat can move ends so)
        stuck = "no seat can move" if self.rules.stuck_pass is not None else "no move is possible"
        self.out.item(f"{_outcome(result, reason, self.rules.max_players)} when {stuck}{default}.")
        default = "" if end.get("max_moves") else " (the default)"
        self.out.item(f"{_outcome('limit', None)} after {self.rules.max_moves:,} moves{default}.")
        if self.data.get("on_end"):
            self.headed_effects(Block("para", "When the game ends, however it ends:"), ("on_end",),
                                self.data["on_end"], self.speaker(), 0)

    def score(self) -> None:
        data = self.data
        self.out.heading("Score")
        speaker = self.speaker({"player": Term("the seat", "seat")})
        if data.get("score") is not None:
            self.out.para(f"Each seat scores {self.words(('score',), data['score'], speaker)}.")
        elif "score" in self.book.variables:
            self.out.para("Each seat scores its score variable.")
        else:
            self.out.para("Every seat scores 0.")
        order = data.get("score_order", "higher")
        self.out.para("Lower scores are better." if order == "lower" else "Higher scores are better.")
        if any(r.get("winners") is None for r in (data.get("end") or {}).get("when") or ()) \
                and self.rules.max_players > 1:
            self.out.para("Where an ending names no winners and the game is won or over, the best scores win.")
        if data.get("label") is not None:
            self.out.para(f"Shown with the result: {self.words(('label',), data['label'], speaker)}.")
        if data.get("heuristic") is not None:
            self.out.para("For bots and the solver, a seat stands as well as "
                          f"{self.words(('heuristic',), data['heuristic'], speaker)}.")


def _outcome(result: str, reason: str | None, seats: int = 1) -> str:
    """`Won ("all 52 cards are on the foundations")`. A game of several seats that is over has its
    winners (named by the ending, or by the best scores), so it is only "Over" there."""
    words = "Over" if result == "over" and seats > 1 else _RESULT_TITLE.get(result, result)
    return f'{words} ("{reason}")' if reason else words


def _option_text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)
