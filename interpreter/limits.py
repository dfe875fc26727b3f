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

# Work of expressions per resolution (between two decisions) and per legal-action
# listing: items gone through by comprehensions, any/all and the like, and cards
# shuffled. Each is counted when its list is known (one addition per list, not per
# item), so nested comprehensions over long lists stop within a fraction of a second.
MAX_WORK = 10_000_000
