"""Who sits at the table: the player count and seats from the command line's --players
and --seats, the game's seat rules (`players.seats`) and the defaults of each command.

Shared by `orrery play`, `simulate`, `analyze` and `serve`; a choice that does not make
sense is a UsageError, which the command line reports with exit code 2, as it does a
name on the command line that names nothing (`unknown_names`).
"""

from __future__ import annotations

from collections.abc import Sequence

from interpreter.agents import check_seat, seat_kinds
from interpreter.diagnostics import Diagnostic, GameError
from interpreter.model import GameDef, SeatRule


class UsageError(Exception):
    """A command-line argument that does not make sense (exit 2)."""


UNKNOWN_NAME_CODES = frozenset({"not-found", "unknown-variant"})


def unknown_names(diagnostics: Sequence[Diagnostic], given: set[str]) -> bool:
    """Whether the only errors are names given on the command line (`given`) that name
    nothing (a game, variant or overlay): a usage error (exit 2), like an unknown seat.
    A name inside a rule file (an overlay's `base:`) is the file's error (exit 1)."""
    errors = [d for d in diagnostics if d.severity == "error"]
    return bool(errors) and all(d.code in UNKNOWN_NAME_CODES and (
        d.path in given or any(f"variant '{name}'" in d.message for name in given)) for d in errors)


def choose_seats(gd: GameDef, players: int | None, seats_text: str | None, first: str, rest: str,
                 allow_human: bool = True) -> tuple[int, list[str]]:
    """The player count and seats from --players / --seats and the defaults."""
    seats = _parse_seats(seats_text) if seats_text is not None else None
    if seats is not None and players is not None and len(seats) != players:
        raise UsageError(f"--players {players} but --seats names {len(seats)} seat{'s' if len(seats) != 1 else ''}")
    n = players or (len(seats) if seats else gd.default_players)
    if not gd.min_players <= n <= gd.max_players:
        span = f"{gd.min_players}" if gd.min_players == gd.max_players else f"{gd.min_players}-{gd.max_players}"
        raise UsageError(f"{gd.name} is for {span} players, not {n}{_variant_hint(gd, n)}")
    # Play follows the game's seat rules (`players.seats`); simulate seats anything.
    rules = gd.seat_rules if allow_human else ()
    seats = seats or [_default_seat(rules, i, first if i == 0 else rest) for i in range(n)]
    canonical = []
    for i, seat in enumerate(seats):
        try:
            spec = check_seat(seat, gd)
        except GameError as err:
            raise UsageError(str(err)) from None
        accepts = rules[min(i, len(rules) - 1)].accepts if rules else ()
        if accepts and spec.kind not in accepts:
            raise UsageError(f"seat {i + 1} of {gd.name} takes {' or '.join(accepts)} in play, not '{spec.kind}' "
                             f"(orrery simulate seats any kind anywhere)")
        if spec.kind == "human" and not allow_human:
            agents = [k.name for k in seat_kinds(gd) if k.kind != "bot" and k.name != "human"]
            raise UsageError(f"simulate has no human seats; use {', '.join(agents)} or a bot of the game")
        canonical.append(str(spec))  # one way to write each seat: what plays it compares one text
    return n, canonical


def _variant_hint(gd: GameDef, n: int) -> str:
    """A variant (not on yet) whose player counts take `n`, if the game has one."""
    fits = [v for v, (low, high) in gd.variant_players.items() if v not in gd.variants and low <= n <= high]
    who = "one player" if n == 1 else f"{n} players"
    return f"; for {who}, add --variant {fits[0]}" if fits else ""


def _default_seat(rules: tuple[SeatRule, ...], i: int, fallback: str) -> str:
    rule = rules[min(i, len(rules) - 1)] if rules else None
    return rule.default if rule is not None and rule.default is not None else fallback


def _parse_seats(text: str) -> list[str]:
    """Seats separated by commas; a `KEY=VALUE` part after a seat with options
    (`ismcts:iterations=400,rollout=random`) continues that seat's options."""
    seats: list[str] = []
    for part in (s.strip() for s in text.split(",")):
        if seats and "=" in part and ":" not in part and ":" in seats[-1]:
            seats[-1] += "," + part
        else:
            seats.append(part)
    if not all(seats):
        raise UsageError(f"--seats {text!r}: give one seat per player, comma-separated (e.g. human,random)")
    return seats
