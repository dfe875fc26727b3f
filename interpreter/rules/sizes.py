"""Size limits of merged rules, checked at load: what the data asks the engine to make.

A card `count` of 10**38 or `players: {max: 100000000}` is well-formed data that would
exhaust memory or never answer when a game starts (every player count is started when a
game is validated). Each size is checked against `interpreter.limits` once the files,
overlays and variants are merged, and a size past its limit is a problem at the key
that asks for it. Wrong types are left to the schema.
"""

from __future__ import annotations

from typing import Any

import attrs

from interpreter.limits import MAX_CARDS, MAX_CARDS_PER_DEF, MAX_COUNTER_SIZE, MAX_PLAYERS


@attrs.frozen
class DataProblem:
    """A problem of the merged data found before the game is built, at a logical path
    of it (e.g. cards.x.count): a size past its limit here, a template that does not
    exist in card_types.py. The loader places each at its file:line:col."""

    logical: tuple[Any, ...]
    code: str  # the diagnostic's code
    message: str
    hint: str
    # Where in the text at `logical` (a character, from 0): a template's bad `{field}`.
    offset: int | None = None


def size_problems(data: dict[str, Any]) -> list[DataProblem]:
    """Every size in `data` (merged raw rules) that is past its limit."""
    return [*_cards(data.get("cards"), _per_player_zones(data), _most_players(data)), *_players(data.get("players")),
            *_counters(data.get("counters"))]


def _per_player_zones(data: dict[str, Any]) -> set[str]:
    zones = data.get("zones")
    return {name for name, spec in zones.items() if isinstance(spec, dict) and spec.get("scope") == "player"} \
        if isinstance(zones, dict) else set()


def _most_players(data: dict[str, Any]) -> int:
    """The most players a game takes (as declared; 1 when it does not say, or not well)."""
    players = data.get("players")
    most = _number(players.get("max")) if isinstance(players, dict) else None
    return min(max(most or 1, 1), MAX_PLAYERS)


def _number(value: Any) -> int | None:
    """An integer the data gives (not a bool, which the schema refuses), else None."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _cards(cards: Any, per_player: set[str], players: int) -> list[DataProblem]:
    found: list[DataProblem] = []
    if not isinstance(cards, dict):
        return found
    total, reported = 0, False
    for cid, spec in cards.items():
        count = _number(spec.get("count", 1)) if isinstance(spec, dict) else None
        if count is None:
            continue
        where = ("cards", cid, "count")
        if count > MAX_CARDS_PER_DEF:
            found.append(DataProblem(where, "limit",
                                     f"card '{cid}' has {count} copies; the limit is {MAX_CARDS_PER_DEF} "
                                     "copies of one card", "a count this large is a typo, or a counter's job"))
            continue
        if spec.get("in") is None:
            continue  # no copies are placed: `count` is only read by effects
        each = players if isinstance(spec["in"], str) and spec["in"] in per_player else 1
        total += max(count, 0) * each
        if total > MAX_CARDS and not reported:
            reported = True
            found.append(DataProblem(where, "limit",
                                     f"with the {count} copies of '{cid}', the cards placed when the game "
                                     f"starts pass {MAX_CARDS}, the limit for a game",
                                     "fewer copies, or tokens counted by a counter instead of cards"))
    return found


def _players(players: Any) -> list[DataProblem]:
    if not isinstance(players, dict):
        return []
    return [DataProblem(("players", key), "limit",
                        f"players.{key} is {number}; a game takes at most {MAX_PLAYERS} players",
                        f"every player count from min to max is started when the game is checked; "
                        f"keep {key} at most {MAX_PLAYERS}")
            for key in ("min", "max", "default")
            if (number := _number(players.get(key))) is not None and number > MAX_PLAYERS]


def _counters(counters: Any) -> list[DataProblem]:
    found: list[DataProblem] = []
    if not isinstance(counters, dict):
        return found
    for name, spec in counters.items():
        if not isinstance(spec, dict):
            continue
        size = _number(spec.get("size"))
        keys = spec.get("keys")
        if size is not None and size > MAX_COUNTER_SIZE:
            found.append(DataProblem(("counters", name, "size"), "limit",
                                     f"counter '{name}' has size {size}; the limit is {MAX_COUNTER_SIZE} entries",
                                     "each player holds every entry of a counter"))
        elif isinstance(keys, list) and len(keys) > MAX_COUNTER_SIZE:
            found.append(DataProblem(("counters", name, "keys"), "limit", f"counter '{name}' has {len(keys)} keys; the "
                                     f"limit is {MAX_COUNTER_SIZE} entries", "each player holds every entry of a "
                                                                              "counter"))
    return found
