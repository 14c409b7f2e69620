"""The budgets that bound every load, check and game, in one place.

A ruleset is a stranger's file, so each stage of the pipeline has a bound on the
work and memory one input can cost, and stops with a `CardrulesError` at the
offending place when it is passed. docs/language.md ("Limits") lists them for
ruleset authors; the values are generous for real games (the bundled ones use a
few percent of each) and small enough that a hostile file fails within about a
second.
"""

from __future__ import annotations

# -- files ---------------------------------------------------------------------------------
MAX_FILE_BYTES = 1_000_000        # a ruleset, deck, deal or saved-values file
MAX_SAVE_BYTES = 16_000_000       # a saved game (the texts of up to `end.max_moves` moves) or the statistics
MAX_YAML_DEPTH = 40               # nesting of mappings and lists, aliases expanded
MAX_YAML_VALUES = 100_000         # values in one document, aliases expanded (alias bombs)
MAX_EXTENDS_FILES = 32            # distinct files in one `extends:` tree (each is read once)

# -- numbers -------------------------------------------------------------------------------
# Integers are 64-bit signed and symmetric: -(2**63 - 1) to 2**63 - 1 in both backends, so that
# -2**63 is no number (the native backend holds `none` as it). A literal, an option value, a saved
# value, a variable, a score or a power outside this range is an error at the place that made it.
INT_MIN = -(2 ** 63 - 1)
INT_MAX = 2 ** 63 - 1

# -- expressions ---------------------------------------------------------------------------
MAX_EXPRESSION_CHARS = 4_000      # one expression string
MAX_EXPRESSION_DEPTH = 48         # nesting of one expression's syntax tree
MAX_INLINE_DEPTH = 16             # ruleset functions calling functions, one inside the other
MAX_COMPILED_NODES = 20_000       # syntax nodes compiled for one expression, functions inlined
MAX_RULESET_NODES = 400_000       # syntax nodes compiled for a whole ruleset
MAX_CHECK_NODES = 4_000_000       # syntax nodes compiled by one `validate` over its option combinations

# -- a ruleset's size ----------------------------------------------------------------------
MAX_CARDS = 10_000                # cards in a deck (after `each` and `copies`)
MAX_PILES = 2_000                 # piles of all zones together, every seat's counted
MAX_PLAYERS = 16                  # the schema says so too
MAX_OPTION_VALUES = 64            # allowed values of one option
MAX_OPTIONS = 32
MAX_MOVES_LIMIT = 10_000_000      # the highest `end.max_moves` a ruleset may set
MAX_SELECT_LIMIT = 1_000_000      # the highest `select.limit`
MAX_CHOICES = 1_000               # values one `choose` may name
MAX_PICK_SETS = 1_000_000         # sets of cards `take: {any: K}` may tell apart: C(deck size, K)

# -- a game --------------------------------------------------------------------------------
# Steps (loop iterations of the enumerators and comprehensions, selections tried) that one
# listing of the legal moves, one move with its triggers, or one end check may take.
MAX_STEPS = 1_000_000
# Passes of one `repeat` trigger after one move (or at the start): one that still applies after
# them is a run-time error naming it, never a hang.
MAX_TRIGGER_PASSES = 10_000
# Passes of one `while` effect each time it runs: one whose condition still holds after them is a
# run-time error at the `while`, never a hang (each pass is a step too, counted in MAX_STEPS).
MAX_WHILE_PASSES = 10_000

# -- the solver (`cardrules solve`) -----------------------------------------------------------
DEFAULT_MAX_POSITIONS = 4_000_000  # positions kept before the search gives up (answer: unknown)
# The native search's (`--engine native`): about the same memory (some 1.5 GB), since its position
# costs about 150 bytes (an exact packed key and its table slot) against about 400 for Python's.
DEFAULT_MAX_POSITIONS_NATIVE = 10_000_000
DEFAULT_TIMEOUT = 10.0             # seconds of search per deal unless --timeout says otherwise
