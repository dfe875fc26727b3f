"""Saving and loading states as JSON, and refusing corrupt saves with a clear message.

A save holds the game id and data hash it was made with, so it is never resumed on
different rules by accident; every field is checked for shape and range before the
state is rebuilt, so a damaged file gives a GameError, never a traceback or a state
that fails later.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from .diagnostics import GameError
from .state import STATE_FORMAT, State

if TYPE_CHECKING:
    from .game import Game


def state_to_dict(st: State) -> dict[str, Any]:
    gd = st.gd
    return {
        "format": STATE_FORMAT,
        "game": gd.id,
        "data_hash": gd.data_hash,
        "engine": st.game.engine_id,
        "variants": list(gd.variants),
        "overlays": list(gd.overlays),
        "players": st.n,
        "seats": list(st.seats),
        "seed": st.seed,
        "counters": [c[:] for c in st.counters],
        "zones": [z[:] for z in st.zones],
        "card_def": st.card_def[:],
        "loc": st.loc[:],
        "attrs": [[iid, name, value] for (iid, name), value in sorted(st.attrs.items(), key=lambda kv: kv[0])],
        "revealed": sorted(st.revealed),
        "rng": st.rng,
        "stack": [[f[0], f[1], dict(f[2])] for f in st.stack],
        "pending": st.pending,
        "active": st.active,
        "round": st.round_no,
        "turn": st.turn_no,
        "uses": st.uses,
        "grants": st.grants,
        "ending": st.ending,
        "ending_reason": st.ending_reason,
        "terminal": st.terminal,
        "winners": st.winners,
        "end_reason": st.end_reason,
        "history": st.history,
        "log": st.log,
    }


def dump_state(st: State) -> str:
    return json.dumps(state_to_dict(st), separators=(",", ":"))


def _need(cond: bool, what: str) -> None:
    if not cond:
        raise GameError(f"corrupt save: {what}")


def _int_list(value: Any, what: str) -> list[int]:
    _need(isinstance(value, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in value),
          f"{what} must be a list of numbers")
    return list(value)


def load_state(game: Game, text: str) -> State:
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, TypeError, ValueError) as err:
        raise GameError(f"corrupt save: not JSON ({err})") from None
    _need(isinstance(data, dict), "not a JSON object")
    _need(data.get("format") == STATE_FORMAT, f"unknown format {data.get('format')!r} (expected {STATE_FORMAT})")
    gd = game.definition
    if data.get("game") != gd.id:
        raise GameError(f"this save is of game '{data.get('game')}', not '{gd.id}'")
    if data.get("engine") != game.engine_id:
        # A save points into compiled code; another engine may compile the same rules
        # differently, so the position cannot be trusted. The log's actions can.
        raise GameError(f"this save was made by another version of orrery's engine ({data.get('engine')}, now "
                        f"{game.engine_id}); replay the game's log instead (orrery play --resume LOG)")
    if data.get("data_hash") != gd.data_hash:
        raise GameError(f"this save was made with other rule data (hash {data.get('data_hash')}, now "
                        f"{gd.data_hash}); load the same variants and overlays: "
                        f"variants={data.get('variants')}, overlays={data.get('overlays')}")
    try:
        return _rebuild(game, data)
    except GameError:
        raise
    except KeyError as err:
        raise GameError(f"corrupt save: the field {err} is missing") from None
    except (TypeError, ValueError, IndexError, AttributeError) as err:
        raise GameError(f"corrupt save: {type(err).__name__}: {err}") from None


def _rebuild(game: Game, data: dict[str, Any]) -> State:
    gd = game.definition
    n = data["players"]
    _need(isinstance(n, int) and gd.min_players <= n <= gd.max_players, "bad player count")
    layout = game.layout(n)
    st = State.__new__(State)
    st.game, st.gd, st.gd_listens, st.layout = game, gd, game.listens, layout
    st.n, st.players = n, list(range(n))
    seats = data["seats"]
    _need(isinstance(seats, list) and len(seats) == n and all(isinstance(s, str) for s in seats), "bad seats")
    st.seats, st.seed = list(seats), int(data["seed"])
    counters = data["counters"]
    _need(isinstance(counters, list) and len(counters) == len(gd.counters), "wrong number of counters")
    st.counters = []
    for cdef, values in zip(gd.counters, counters, strict=True):
        values = _int_list(values, f"counter {cdef.name}")
        _need(len(values) == cdef.width * (n if cdef.scope == "player" else 1), f"counter {cdef.name} has wrong size")
        st.counters.append(values)
    st.card_def = _int_list(data["card_def"], "card_def")
    _need(all(0 <= d < len(gd.cards) for d in st.card_def), "unknown card definition")
    st.loc = _int_list(data["loc"], "loc")
    _need(len(st.loc) == len(st.card_def), "card locations do not match cards")
    zones = data["zones"]
    _need(isinstance(zones, list) and len(zones) == layout.slots, "wrong number of zones")
    st.zones = [_int_list(z, "zone") for z in zones]
    seen: set[int] = set()
    for slot, zone in enumerate(st.zones):
        for iid in zone:
            _need(0 <= iid < len(st.card_def) and st.loc[iid] == slot and iid not in seen,
                  f"card {iid} is in the wrong place")
            seen.add(iid)
    _need(all(loc == -1 or i in seen for i, loc in enumerate(st.loc)), "a card is lost between zones")
    st.attrs = {}
    _need(isinstance(data["attrs"], list), "bad card attributes")
    for entry in data["attrs"]:
        _need(isinstance(entry, list) and len(entry) == 3 and isinstance(entry[0], int) and isinstance(entry[1], str),
              "bad card attribute")
        st.attrs[(entry[0], entry[1])] = entry[2]
    st.revealed = set(_int_list(data["revealed"], "revealed"))
    _need(all(0 <= iid < len(st.card_def) for iid in st.revealed), "a revealed card does not exist")
    rng = data["rng"]
    _need(isinstance(rng, int) and 0 <= rng < (1 << 64), "bad random state")
    st.rng = rng
    st.stack = []
    for frame in data["stack"]:
        _need(isinstance(frame, list) and len(frame) == 3 and isinstance(frame[0], int) and isinstance(frame[1], int)
              and isinstance(frame[2], dict), "bad frame")
        # pc: an operation of the code, its end, or past it (where `stop` leaves a frame)
        _need(0 <= frame[0] < len(gd.codes) and (0 <= frame[1] <= len(gd.codes[frame[0]].ops) or frame[1] == 1 << 30),
              "frame points outside the rules")
        st.stack.append([frame[0], frame[1], dict(frame[2])])
    st.queue = []
    pending = data["pending"]
    _need(pending is None or (isinstance(pending, list) and len(pending) > 0 and pending[0] in ("actions", "choice")),
          "bad pending decision")
    if pending is not None:
        _check_pending(st, pending, n)
    st.pending = pending
    st.active, st.round_no, st.turn_no = int(data["active"]), int(data["round"]), int(data["turn"])
    _need(0 <= st.active < n, "bad active player")
    uses = data["uses"]
    _need(isinstance(uses, dict) and set(uses) == {"turn", "round", "game"}
          and all(isinstance(v, dict) and all(isinstance(c, int) for c in v.values()) for v in uses.values()),
          "bad action uses")
    st.uses = {k: dict(v) for k, v in uses.items()}
    grants = data["grants"]
    _need(isinstance(grants, list) and all(isinstance(g, list) and len(g) == 3 and isinstance(g[0], int)
                                           and 0 <= g[0] < len(gd.modifiers) and isinstance(g[1], int)
                                           and 0 <= g[1] < n and g[2] in ("turn", "round", "game")
                                           for g in grants), "bad grants")
    st.grants = [list(g) for g in grants]
    st.ending, st.ending_reason = data["ending"], data["ending_reason"]
    st.terminal, st.end_reason = bool(data["terminal"]), data["end_reason"]
    st.winners = _int_list(data["winners"], "winners")
    _need(all(0 <= w < n for w in st.winners), "a winner is not a player")
    history, log = data["history"], data["log"]
    _need(isinstance(history, list) and all(isinstance(h, str) for h in history), "bad history")
    _need(isinstance(log, list) and all(isinstance(h, str) for h in log), "bad log")
    st.history, st.log = list(history), list(log)
    st.legal_cache = None
    return st


def _check_pending(st: State, pending: list[Any], n: int) -> None:
    """A decision being waited for must have its full shape: a save resumed with a bad
    one would fail later, far from the cause."""
    _need(st.stack != [], "a decision without a running effect")
    _need(isinstance(pending[1], int) and not isinstance(pending[1], bool) and 0 <= pending[1] < n,
          "bad deciding player")
    if pending[0] == "actions":
        _need(len(pending) == 4 and isinstance(pending[2], str) and isinstance(pending[3], str)
              and pending[3].startswith("#"), "bad pending actions")
        _need(pending[2] in st.gd.groups, "unknown action group")
        return
    _need(len(pending) == 7, "bad pending choice")
    _, _, options, type_, prompt, answer, allow_done = pending
    _need(isinstance(options, list) and isinstance(type_, str) and isinstance(prompt, str)
          and isinstance(answer, str) and answer.startswith("#") and isinstance(allow_done, bool),
          "bad pending choice")
    if type_ == "card":
        _need(all(isinstance(o, int) and 0 <= o < len(st.card_def) for o in options if o is not None),
              "a card to choose from does not exist")
    elif type_ == "player":
        _need(all(isinstance(o, int) and 0 <= o < n for o in options), "a player to choose from does not exist")
    elif type_ in ("int", "str", "bool"):
        kind = {"int": int, "str": str, "bool": bool}[type_]
        _need(all(isinstance(o, kind) for o in options), f"the options of the choice are not all {type_}")
