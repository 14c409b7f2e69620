"""The rules in words: `cardrules rules RULESET` (setup, moves, triggers, end, score), from the
merged ruleset document and its parsed expression trees.

A loaded ruleset (so every check has passed) is described section by section; each expression is
parsed again (`parser.parse_expression`, memoized), its options folded to the values chosen (as
the compiler folds them; `fold=False` keeps `the draw option`), and spoken node by node
(`Speaker`). A ruleset function is written out where it is called when its body is small, and is
named otherwise; every function is also described on its own. A construct without good English
is shown as its expression text in backticks. Nothing is evaluated but constant folding of
literals (never `eval`); nothing here knows any game.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...base.errors import RulesetError, shown_title
from ...front.parser import Const, ListLit, Node, ParseError, parse_loop, parse_signature
from ...front.source import Document, PathKey
from .document import Block, RulesDocument, render_markdown, render_text
from .folding import free_names, simplify
from .speaker import Speaker, _parse
from .speaker_base import INLINE_DEPTH
from .vocabulary import Book, Term, ZoneInfo, _capital, _join, _plain, _value_text

__all__ = ["Book", "Speaker", "Term", "describe", "render_markdown", "render_text", "rules_document", "simplify"]

_RESULT_WORDS = {"won": "won", "lost": "lost", "draw": "a draw", "over": "over (no winner or loser)",
                 "limit": "stopped (result: limit)"}
_VISIBILITY_WORDS = {
    "faces": "face-up cards are seen by all, face-down ones by nobody",
    "all": "every card is seen by all",
    "none": "only the number of cards is seen",
    "owner": "its seat sees all of its cards, the others only the face-up ones",
    "top": "only the top card is seen, when face up",
}
_RESULT_TITLE = {"won": "Won", "lost": "Lost", "draw": "A draw", "over": "Over, with no winner or loser",
                 "limit": "Stopped (result: limit)"}


# ---------------------------------------------------------------------------------------------
# The ruleset, section by section


def describe(name_or_path: str | Path, options: dict[str, Any] | None = None,
             search_path: tuple[str | Path, ...] = (), fold: bool = True) -> RulesDocument:
    """The rules of a ruleset (after `extends:`), in words. Loads it first, so a broken ruleset
    is a `CardrulesError` at its place, as `cardrules validate` reports it."""
    from ...model.ruleset import load_ruleset

    rules = load_ruleset(name_or_path, options, search_path)
    return rules_document(rules, rules.front_end.doc, fold)  # the merged document the load built from


def rules_document(rules: Any, doc: Document, fold: bool = True) -> RulesDocument:
    """The rules of a loaded `Ruleset` whose merged document is `doc`."""
    return _Describer(rules, doc, fold).run()


class _Describer:
    def __init__(self, rules: Any, doc: Document, fold: bool) -> None:
        self.rules = rules
        self.doc = doc
        self.data: dict[str, Any] = doc.data
        self.out = RulesDocument(rules.title)
        zones = {}
        for name, spec in (self.data.get("zones") or {}).items():
            zone = rules.zones[name]
            zones[name] = ZoneInfo(name, zone.label, zone.single, zone.seat_piles is not None,
                                   int(spec.get("count", 1)))
        functions: dict[str, tuple[tuple[str, ...], Node]] = {}
        for key, body in (self.data.get("functions") or {}).items():
            signature = self.parsed(("functions", key), key, signature=True)
            functions[signature.name] = (signature.params, self.parsed(("functions", key), body))
        if "teams" in self.data:
            functions.pop("team", None)
        variables = {name: bool(spec.get("per_player") or spec.get("per_team"))
                     for name, spec in (self.data.get("variables") or {}).items()}
        flags = frozenset(name for name, option in rules.options.items()
                          if all(isinstance(v, bool) for v in option.values))
        self.book = Book(dict(rules.option_values), fold, zones, variables, functions, "teams" in self.data, flags)

    # -- expressions --------------------------------------------------------------------------

    def parsed(self, path: PathKey, source: Any, signature: bool = False) -> Any:
        """The tree of the expression at `path` (already checked when the ruleset loaded)."""
        try:
            if signature:
                return parse_signature(str(source))
            return _parse(source)
        except ParseError as exc:  # pragma: no cover - the loader has parsed every expression
            raise RulesetError(exc.message, self.doc.expr_pos(path, exc.offset)) from None

    def speaker(self, names: dict[str, Term] | None = None) -> Speaker:
        return Speaker(self.book, {"player": Term("the player", "seat"), **(names or {})})

    def words(self, path: PathKey, source: Any, speaker: Speaker) -> str:
        node = simplify(self.parsed(path, source), self.book)
        return speaker.say(node)

    def condition(self, path: PathKey, source: Any, speaker: Speaker) -> str:
        """A `when`: an expression, a YAML truth value or number, or a list that must all hold."""
        if isinstance(source, list):
            parts = [self.words(path + (i,), s, speaker) for i, s in enumerate(source)]
            return _join(parts) if parts else "always"
        text = self.words(path, source, speaker)
        return {"true": "always", "false": "never"}.get(text, text)

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
            values = ", ".join(_option_text(v) for v in spec.get("values") or ())
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

    # -- moves --------------------------------------------------------------------------------

    def _zone_list(self, spec: Any) -> list[str]:
        return [spec] if isinstance(spec, str) else list(spec or ())

    def _pile_term(self, zones: list[str], role: str, shared: bool) -> Term:
        if len(zones) == 1 and not shared:
            info = self.book.zones[zones[0]]
            return Term(f"{info.owner}{info.label if info.single else info.singular}", "pile")
        return Term(f"the {role} pile", "pile")

    def _zones_words(self, zones: list[str]) -> str:
        words = []
        for zone in zones:
            info = self.book.zones[zone]
            words.append(f"{info.owner}{info.label}" if info.single else f"a {info.singular}"
                         + (" of the player's" if info.per_player else ""))
        return _join(words, "or")

    def move_names(self, name: str, spec: dict[str, Any]) -> dict[str, Term]:
        sources = self._zone_list(spec.get("from"))
        targets = self._zone_list(spec.get("to"))
        shared = bool(set(sources) & set(targets))
        names: dict[str, Term] = {"move": Term(f'"{name}"')}
        if sources:
            names["src"] = self._pile_term(sources, "source", shared)
            names["card"] = Term("the card", "card")
            names["cards"] = Term("the moved cards", "cards")
            names["n"] = Term("the number of cards moved", "number")
        if targets:
            names["dst"] = self._pile_term(targets, "destination", shared)
        if spec.get("for_seat") is not None:
            names["target"] = Term("the chosen seat", "seat")
        if spec.get("select"):
            names["chosen"] = Term("the chosen cards", "cards")
            names["chosen_piles"] = Term("the chosen piles", "piles")
        for choice in spec.get("choose") or {}:
            names[choice] = Term(f"the {_plain(choice)} chosen")
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
                self.out.item(f"From {self._zones_words(sources)}: {self.take(path, spec.get('take', 'top'), speaker)}.", 1)
            if targets:
                self.out.item(f"To {self._zones_words(targets)}.", 1)
            if spec.get("for_seat") is not None:
                self.out.item("It also chooses a seat: any seat for which "
                              f"{self.condition(path + ('for_seat',), spec['for_seat'], speaker)}.", 1)
            for choice, values in (spec.get("choose") or {}).items():
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

    # -- effects ------------------------------------------------------------------------------

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
        elif verb == "set":
            parts = [f"{self.words(here + (k,), k, speaker)} to "
                     f"{speaker.say(simplify(self.parsed(here + (k,), v), self.book), top=False)}"
                     for k, v in body.items()]
            out.item(f"Set {_join(parts)}.", level)
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
        elif verb == "act":
            phase = f", in the {body['phase']} phase" if body.get("phase") else ""
            out.item(f"{_capital(say('seat', body['seat']))} must make one move now{phase}; then the turn comes back.",
                     level)
        elif verb == "turn_to":
            out.item(f"The next turn goes to {self.words(here, body, speaker)}.", level)
        elif verb == "end":
            reason = f": {body['reason']}" if body.get("reason") else ""
            out.item(f"The game ends, {_RESULT_WORDS.get(body['result'], body['result'])}{reason}.", level)
        elif verb == "take_deck":
            out.item(f"Put the whole deck, shuffled, face down on {self.words(here, body, speaker)}.", level)
        elif verb == "move_chosen":
            body = body or {}
            to = say("to", body["to"]) if body.get("to") else self._name_text(speaker, "dst", "the destination")
            face = f", face {body['face']}" if body.get("face") else ""
            out.item(f"Move the chosen cards, pile by pile, to {to}{face}.", level)
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
            self.out.item(f"{_outcome(rule['result'], rule.get('reason'))} when {condition}.")
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
            self.out.item(f"{_outcome(cycle.result, cycle.reason)} when {_join(list(spec['moves']))} alone bring the "
                          "cards back to a position they held since any other move was made, and no position on the "
                          f"way offered any other move{only}.")
        repeat = end.get("repeat")
        if repeat:
            self.out.item(f"{_outcome(repeat['result'], repeat.get('reason'))} when the same position (cards, faces, "
                          f"variables, seat to act) occurs {repeat['count']} times.")
        result, reason = self.rules.no_moves_result
        default = "" if end.get("no_moves") else " (the default)"
        self.out.item(f"{_outcome(result, reason)} when no move is possible{default}.")
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


def _outcome(result: str, reason: str | None) -> str:
    """`Won ("all 52 cards are on the foundations")`."""
    words = _RESULT_TITLE.get(result, result)
    return f'{words} ("{reason}")' if reason else words


def _option_text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)
