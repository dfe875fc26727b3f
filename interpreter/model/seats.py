"""Who plays a seat, as a record: `SeatSpec(kind, options)`.

A seat is written `KIND` or `KIND:KEY=VALUE,KEY=VALUE` (`random`, `ismcts:iterations=50`,
a game's bot by its id). The text is parsed once, where it comes in (the command line,
the browser table, the Python API, a save), into this record; below that edge nothing
compares seat texts: the runtime knows a seat's game bot by the record's kind, and
`str(spec)` writes the one canonical text back (what saves, logs and `state.seats` hold).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import attrs

from interpreter.diagnostics import GameError
from interpreter.model.definitions import BotDef


@attrs.frozen
class SeatSpec:
    """A parsed seat: the kind's name and its options (strings as given)."""

    kind: str
    options: Mapping[str, str] = attrs.field(factory=dict)

    def __str__(self) -> str:
        if not self.options:
            return self.kind
        return self.kind + ":" + ",".join(f"{k}={v}" for k, v in self.options.items())


@attrs.frozen
class Seating:
    """Who plays every seat of a game: the records, their canonical texts, and the game
    bot of each seat one plays (None: someone outside the state decides there). Made
    once per seating by the game (`seating_of`), shared by every state seated so."""

    specs: tuple[SeatSpec, ...]
    texts: tuple[str, ...]
    bots: tuple[BotDef | None, ...]


def seating_of(specs: Sequence[SeatSpec], bots: Mapping[str, BotDef]) -> Seating:
    """The seating of `specs` in a game whose bots are `bots` (found by each record's kind)."""
    return Seating(tuple(specs), tuple(str(spec) for spec in specs), tuple(bots.get(spec.kind) for spec in specs))


RANDOM = SeatSpec("random")  # the seat a game gives every player unless told otherwise


def parse_seat(spec: str | SeatSpec) -> SeatSpec:
    """`KIND` or `KIND:KEY=VALUE,...` as a SeatSpec (spaces around the parts dropped);
    GameError saying what is wrong when it is malformed or no text."""
    if isinstance(spec, SeatSpec):
        return spec
    if not isinstance(spec, str):
        raise GameError(f"a seat is a text like 'random' or 'ismcts:iterations=50', not {spec!r}")
    name, _, rest = spec.strip().partition(":")
    options: dict[str, str] = {}
    if rest:
        for item in rest.split(","):
            key, eq, value = item.partition("=")
            if not eq or not key.strip():
                raise GameError(f"seat '{spec}': options are KEY=VALUE separated by commas, not '{item}'")
            options[key.strip()] = value.strip()
    if not name.strip():
        raise GameError(f"seat '{spec}' has no name")
    return SeatSpec(name.strip(), options)
