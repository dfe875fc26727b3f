"""The engine's hard limits on what rule files and running games may ask for.

Rule files come from modders, so every size a file can name is bounded: a number too
large to compute with, a card count that would fill memory, must be a diagnostic at its
`file:line:col`, never a hang or an exhausted machine. The limits are named here, in one
place at the bottom of the pipeline, so the load-time checks (rules/, lang/, compile/)
and the run-time checks (runtime/) use the same figures and `docs/format.md` ("Limits")
can list them. Each is far beyond what any bundled game needs.

Limits of the YAML reader itself (file size, nodes, nesting) live beside it in
`rules/yamlload.py` and `rules/positions.py`; the run loop's step budget and frame
depth in `runtime/loop.py`. Add new limits below, each with a comment saying what it
bounds and why the figure.
"""

from __future__ import annotations

# Integer literals, in effect text and as YAML values: magnitude at most 2**63 - 1 (a
# 64-bit signed integer, what other engines and save readers can hold). Python's own
# guard refuses to convert more than 4,300 digits; this bound is far below it.
MAX_INT_LITERAL = 2**63 - 1

# Levels of nesting in one effect text or expression: brackets, operators, blocks (a
# chain `1 + 1 + ...` nests one level per `+`). The parser, the compiler and compiled
# code recurse once per level; this keeps them far from Python's recursion limit.
MAX_NESTING = 100

# Copies of one card definition (`count`), and cards placed when a game starts in all
# (the sum of `count` over the definitions with an `in` zone). The start components do
# not depend on the player count: `in` zones are shared. The run-time side (cards
# created by effects) keeps a game under MAX_CARDS too.
MAX_CARDS_PER_DEF = 10_000
MAX_CARDS = 100_000

# Players a game may declare (`players.max`): every player count is started when a game
# is validated, and per-player zones and counters grow with it.
MAX_PLAYERS = 64

# Entries of one counter (`size`, or its `keys`): each player holds all of them.
MAX_COUNTER_SIZE = 10_000

# Values computed while a game runs. Integers: magnitude at most 2**63 - 1 when stored
# (a local, a counter, a card attribute); lists and strings: at most MAX_LENGTH items or
# characters when stored. Arithmetic inside one expression may pass them briefly (it is
# bounded by the expression's text); what a game keeps may not, so doubling a number or
# a list in a loop stops with a rule error long before memory runs out.
MAX_INT = 2**63 - 1
MAX_LENGTH = 1_000_000

# Work of expressions per resolution (between two decisions), per legal-action listing
# and per observation (the game's views): items gone through by comprehensions,
# any/all and the like (each list its length plus CALL_WORK), cards shuffled, items
# and characters made by `+` and `*` on lists and texts, long lists gone through whole
# (`in`, `sum`...), and calls. Each list is counted when it is known (one addition per
# list, not per item), so nested comprehensions over long lists stop within a fraction
# of a second. The same budget holds while a game starts (validate starts every player
# count, each with its own).
MAX_WORK = 10_000_000

# Work charged per call of a function that calls other functions or values, per value
# worked out (not a memo hit) and per call of a procedure from an effect that never
# waits: a call costs about what going through ten items does, so a chain of functions
# each calling the next twice (2**40 calls) stops at a million calls, in well under a
# second. A function that calls none costs what its expression costs (its comprehensions
# are charged): the calls below it fan out only as far as its text.
CALL_WORK = 10

# How deeply the game's functions may call each other (f calls g calls h ...): each
# level is a Python call, so a chain of thousands would exhaust Python's stack. A load
# error past it, at the function that starts the too-long chain.
MAX_CALL_DEPTH = 32

# Integers inside one expression: a product (`*`) whose magnitude passes 2**256 is a
# rule error where it is made (repeated squaring would otherwise build numbers of
# millions of digits before anything keeps them). Room for the product of four kept
# numbers; sums and differences can only add a bit each, so they are not checked.
MAX_INT_ARITHMETIC = 2**256

# Lists short enough to go through uncharged: a comprehension over the seats, or over a
# written or constant list at most this long, that is in no other comprehension (its
# work is bounded by the rule text, as arithmetic's is; nested, every list is charged),
# and a list shorter than this gone through whole by `in`, `sum` and the like (tested
# inline, so the hot path makes no call for a hand of cards). The most seats a game has.
SMALL_LIST = 64

# Decimals of a number written in effect text (`0.125` has 3): a longer one is refused
# (write the fraction by dividing: `1/3`). Exact fractions worked out while rules run are
# bounded too: a numerator or denominator past MAX_FRACTION_DIGITS digits is a rule
# error `limit` (dividing by 3 again and again would grow them without end).
MAX_DECIMALS = 18
MAX_FRACTION_DIGITS = 60
