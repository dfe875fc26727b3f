"""The registry of seat kinds: every kind of seat is registered once, here.

A seat is given by a spec, `NAME` or `NAME:KEY=VALUE,KEY=VALUE` (options for agents
that take them). The kinds are the built-in ones registered below (`human`, `random`,
`first`), every bot the game defines (it decides inside the state, so it has no
agent), and any kind registered later with `register`. Seat validation, the CLI's help,
`orrery describe` and `create_agent` all read this registry, so a new kind of seat is
one `register` call.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from interpreter.agents.builtin import FirstAgent, RandomAgent, agent_seed
from interpreter.agents.protocol import Agent
from interpreter.diagnostics import GameError, hint_for
from interpreter.model import GameDef
from interpreter.model.seats import SeatSpec, parse_seat

# (spec, game definition, seed of the game, seat number) -> the agent for that seat
AgentFactory = Callable[["SeatSpec", GameDef, int, int], Agent]


@attrs.frozen
class SeatKind:
    """One kind of seat. `factory` is None for kinds that have no agent of their own:
    `human` (each front-end supplies its person) and game bots (they act inside the
    state). `options` names the options the kind accepts."""

    name: str
    description: str
    kind: str  # "built-in", "interactive", "agent" or "bot"
    factory: AgentFactory | None = None
    options: tuple[str, ...] = ()
    # Checks a spec's option values for a game (GameError when one is wrong), so a bad
    # value is refused with the seat, before any game is played.
    check: Callable[[SeatSpec, GameDef], None] | None = None


_KINDS: dict[str, SeatKind] = {}


def register(kind: SeatKind) -> None:
    """Add a kind of seat (a name may be registered once)."""
    if kind.name in _KINDS:
        raise ValueError(f"seat kind '{kind.name}' is registered already")
    _KINDS[kind.name] = kind


def registered() -> list[SeatKind]:
    """The kinds registered by the engine and its extensions (not game bots)."""
    return list(_KINDS.values())


def seat_kinds(gd: GameDef) -> list[SeatKind]:
    """Every kind of seat a game can be played with: registered kinds, then its bots."""
    bots = [SeatKind(bot.id, bot.description, "bot") for bot in gd.bots.values() if bot.id not in _KINDS]
    return [*_KINDS.values(), *bots]


def check_seat(spec: str | SeatSpec, gd: GameDef) -> SeatSpec:
    """The parsed spec if `spec` names a kind of seat this game can use, with options
    that kind accepts and values it takes (its `check`); otherwise a GameError that lists
    the kinds (and a guess), or says what is wrong."""
    parsed, kind = _kind_of(spec, gd)
    if kind.check is not None:
        kind.check(_with_defaults(parsed, gd), gd)
    return parsed


def _kind_of(spec: str | SeatSpec, gd: GameDef) -> tuple[SeatSpec, SeatKind]:
    """The parsed spec and its kind, with options the kind accepts (not yet their values)."""
    parsed = parse_seat(spec)
    kinds = {k.name: k for k in seat_kinds(gd)}
    kind = kinds.get(parsed.kind)
    if kind is None:
        hint = hint_for(parsed.kind, kinds)
        raise GameError(f"unknown seat '{parsed.kind}'; seats: {', '.join(kinds)}" + (f" ({hint})" if hint else ""))
    unknown = [key for key in parsed.options if key not in kind.options]
    if unknown:
        accepted = ", ".join(kind.options) if kind.options else "none"
        raise GameError(f"seat '{parsed.kind}' has no option '{unknown[0]}' (options: {accepted})")
    return parsed, kind


def _with_defaults(parsed: SeatSpec, gd: GameDef) -> SeatSpec:
    """The spec's options over the game's `seat_options` for that kind."""
    defaults = gd.seat_options.get(parsed.kind)
    return SeatSpec(parsed.kind, {**defaults, **parsed.options}) if defaults else parsed


def is_bot(spec: str | SeatSpec, gd: GameDef) -> bool:
    """True when the seat is played by a bot of the game (inside the state)."""
    return parse_seat(spec).kind in gd.bots


def create_agent(spec: str | SeatSpec, gd: GameDef, seed: int = 0, seat: int = 0) -> Agent:
    """The agent for a seat of kind `spec` in a game seeded `seed`, its options over the
    game's `seat_options` for that kind (GameError for a kind that has no agent: `human`
    and game bots)."""
    parsed, kind = _kind_of(spec, gd)  # (the factory checks the option values as it reads them)
    if kind.factory is None:
        what = "a game bot, which plays inside the state" if parsed.kind in gd.bots else "played by a person"
        raise GameError(f"seat '{parsed.kind}' has no agent: it is {what}")
    return kind.factory(_with_defaults(parsed, gd), gd, seed, seat)


def describe_kinds(gd: GameDef) -> list[dict[str, Any]]:
    """The seat kinds as plain data, for `describe` and the CLI's help."""
    return [{"id": k.name, "kind": k.kind, "description": k.description,
             **({"options": list(k.options)} if k.options else {}),
             **({"defaults": dict(gd.seat_options[k.name])} if gd.seat_options.get(k.name) else {})}
            for k in seat_kinds(gd)]


register(SeatKind("human", "a person at the terminal", "built-in"))
register(SeatKind("random", "an agent that picks uniformly among the legal actions", "built-in",
                  lambda spec, gd, seed, seat: RandomAgent(agent_seed(seed, seat), seat)))
register(SeatKind("first", "an agent that always picks the first legal action", "built-in",
                  lambda spec, gd, seed, seat: FirstAgent()))
