"""The built-in functions of the effect language, declared once: what each one is.

A built-in's facts are read by every stage that reasons about rule text: the compiler
checks calls against `arity` and lowers them (compile/builtin_functions.py,
compile/board_functions.py: each registers its lowering under a declared name), keeps
statements that draw random numbers apart (`random`), hoists pure work out of loops
(`pure`); the analysis finds which zones a shuffle must deal whole (`order_free`), which
choices may offer hidden cards (`cards`), and what values a move can take (`scalar`,
`element`). A new built-in is one declaration here and one lowering in compile/; no
other list of built-in names exists.

`cards` says which cards the result may hold: `none` (numbers, players, truth values,
texts), `arg` (only cards of argument `card_arg`), `args` (cards of any argument), or
`any` (anything: nothing known). `scalar` and `element` name the abstract value of the
result read as one value, or as a list's element, in the small interpretation of
analysis/domains.py (None: nothing known):

* `nat`: a whole number from 0; `index`: from -1; `bool`: true or false;
* `players`: a seat; `cards`: a card;
* `extreme`: one of its arguments (`min`, `max`: the elements of one list argument, or
  any of several arguments); `abs`: the absolute values of its argument's;
* `select`: its second or third argument; `between`: from its first argument's lowest to
  its second's highest (`random`); `of_arg`: an element of its first argument; `sum`:
  the bounds of its list's numbers times its length, when the rules fix both;
* `range`: the integers `range` gives; `cells`: the cells of the board its first
  argument names.
"""

from __future__ import annotations

import attrs


@attrs.frozen
class BuiltinFacts:
    """One built-in function (see the module's docstring for each field)."""

    name: str
    arity: tuple[int, ...]
    random: bool = False  # draws random numbers
    pure: bool = False  # reads only its arguments: no random numbers, no values or memo
    order_free: bool = False  # its result does not depend on the order of its one list argument
    cards: str = "any"
    card_arg: int = 0
    scalar: str | None = None
    element: str | None = None


_DECLARED = (
    BuiltinFacts("len", (1,), pure=True, order_free=True, cards="none", scalar="nat"),
    BuiltinFacts("count", (1,), pure=True, order_free=True, cards="none", scalar="nat"),
    BuiltinFacts("size", (1,), pure=True, order_free=True, cards="none", scalar="nat"),
    BuiltinFacts("sum", (1,), pure=True, order_free=True, cards="none", scalar="sum"),
    BuiltinFacts("min", (1, 2, 3, 4), pure=True, order_free=True, cards="args", scalar="extreme"),
    BuiltinFacts("max", (1, 2, 3, 4), pure=True, order_free=True, cards="args", scalar="extreme"),
    BuiltinFacts("any", (1,), pure=True, order_free=True, cards="none", scalar="bool"),
    BuiltinFacts("all", (1,), pure=True, order_free=True, cards="none", scalar="bool"),
    BuiltinFacts("exists", (1,), pure=True, cards="none", scalar="bool"),
    BuiltinFacts("abs", (1,), pure=True, cards="none", scalar="abs"),
    BuiltinFacts("index_of", (2,), pure=True, cards="none", scalar="index"),
    BuiltinFacts("sorted", (1,), pure=True, cards="arg", element="of_arg"),
    BuiltinFacts("reversed", (1,), pure=True, cards="arg", element="of_arg"),
    BuiltinFacts("range", (1, 2), cards="none", element="range"),
    BuiltinFacts("random", (2,), random=True, cards="none", scalar="between"),
    BuiltinFacts("pick_random", (1,), random=True, order_free=True, cards="arg", scalar="of_arg"),
    BuiltinFacts("shuffled", (1,), random=True, order_free=True, cards="arg", element="of_arg"),
    BuiltinFacts("top", (1, 2), cards="arg", scalar="cards", element="cards"),
    BuiltinFacts("bottom", (1, 2), cards="arg", scalar="cards", element="cards"),
    BuiltinFacts("cards_named", (2,), cards="arg", card_arg=1, element="cards"),
    BuiltinFacts("select", (3,), cards="args", scalar="select", element="select"),
    BuiltinFacts("owner", (1,), cards="none", scalar="players"),
    BuiltinFacts("seat", (1,), cards="none", scalar="players"),
    BuiltinFacts("next_player", (1, 2), cards="none", scalar="players"),
    BuiltinFacts("players_from", (1, 2), cards="none", element="players"),
    BuiltinFacts("is_bot", (1,), cards="none", scalar="bool"),
    BuiltinFacts("zone_of", (1,), cards="none"),
    BuiltinFacts("has_grant", (2,), cards="none", scalar="bool"),
    BuiltinFacts("has_effect", (2,), cards="none"),
    BuiltinFacts("can_use", (2,), cards="none"),
    BuiltinFacts("uses", (1,), cards="none", scalar="nat"),
    BuiltinFacts("text", (1,), cards="none"),
    BuiltinFacts("join", (1, 2), cards="none"),
    BuiltinFacts("pad", (2,), cards="none"),
    # boards (compile/board_functions.py): cells are whole numbers, never cards
    BuiltinFacts("cell", (3,), cards="none"),
    BuiltinFacts("row", (2,), cards="none"),
    BuiltinFacts("column", (2,), cards="none"),
    BuiltinFacts("step", (3,), cards="none"),
    BuiltinFacts("directions", (1,), cards="none"),
    BuiltinFacts("cells", (1,), cards="none", element="cells"),
    BuiltinFacts("neighbors", (2,), cards="none", element="cells"),
    BuiltinFacts("ray", (3,), cards="none", element="cells"),
    BuiltinFacts("lines", (2,), cards="none"),
)

BUILTIN_FACTS: dict[str, BuiltinFacts] = {b.name: b for b in _DECLARED}


def facts_of(name: str) -> BuiltinFacts | None:
    """The declaration of built-in `name` (None: no built-in has that name)."""
    return BUILTIN_FACTS.get(name)


def named(predicate: str) -> frozenset[str]:
    """The names of the built-ins whose boolean fact `predicate` holds (`random`, `pure`...)."""
    return frozenset(b.name for b in _DECLARED if getattr(b, predicate))
