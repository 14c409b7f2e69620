"""The texts of play at the terminal that both kinds of session show (app/play.py's `Session`,
app/realtime.py's `RealtimeSession`): the help with an example move from the game at hand, and
why a move text is not legal now; and the error that stops a script at a line that is neither.
"""

from __future__ import annotations

from rich.text import Text

from ..base.errors import CardrulesError
from ..python.engine import Game

LINE_WIDTH = 80  # what the texts of play (help, notices) are written to fit, as a terminal's width
EXAMPLE_INDENT = 18  # where the help's explanations start (after `  <move text>     `)


def why_not(game: Game, word: str, seat: int, error: CardrulesError, width: int = LINE_WIDTH) -> str:
    """What a player is told for a move text that is not legal now: the error, then in a few
    lines why (`Game.explain`, as the seat may know it); an expression and the carets under its
    marked part fit in `width` columns, so the carets stay under it."""
    head = f"{error}; type 'help' for commands"
    try:
        lines = game.explain(word, seat).lines(brief=True, width=width - 2)
    except CardrulesError as exc:  # a rule that fails while it is explained: said, not raised
        lines = [f"(the reason cannot be told: {exc})"]
    return "\n".join([head, *("  " + line for line in lines)])


class ScriptError(CardrulesError):
    """A scripted (non-terminal) input line that is not a legal move or command."""


def help_text(template: str, game: Game) -> Text:
    """A help text (`HELP`, `REALTIME_HELP`) with its example move taken from the game at hand:
    a legal move now, in its short and long forms (`w>t7 or waste>tableau7`)."""
    moves = game.legal_moves()
    move = next((m for m in moves if ">" in m.text()), moves[0] if moves else None)
    if move is None:
        example = game.rules.moves[0].name if game.rules.moves else "a move's text"
    elif move.text(long=True) != move.text() and _widest(template.format(
            example=f"{move.text()} or {move.text(long=True)}")) <= LINE_WIDTH:
        example = f"{move.text()} or {move.text(long=True)}"
    else:  # the short form alone where both would not fit on the line
        example = move.text()
        if _widest(template.format(example=example)) > LINE_WIDTH:  # on a line of its own, under the texts
            example = "\n" + " " * EXAMPLE_INDENT + example
    return Text(template.format(example=example))


def _widest(text: str) -> int:
    return max(len(line) for line in text.splitlines())
