"""The fields of a game state, declared once.

Each `Field` says how the state's attribute is copied by `clone()`, written to a save,
read back and checked, and whether equality compares it. `State.clone` is generated
from this table, `saves.py` writes and reads saves by it, and `State.__eq__` compares
the saved fields: adding a field to the state means adding one line here.

Loading runs the fields in the order declared: a field's check may use the fields
above it (zones are checked against card locations, the pending decision against the
stack and the players). A save that loads is consistent; one that is not is refused
with the reason, never resumed to fail later.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import attrs

from interpreter.diagnostics import GameError
from interpreter.runtime.actions import render
from interpreter.runtime.journal import Journal
from interpreter.runtime.private import Note, seats_of
from interpreter.runtime.records import CHANCE, STOPPED, Frame, Grant, PendingChance, pending_from_json
from interpreter.runtime.simultaneous import load_pending as load_simultaneous

if TYPE_CHECKING:
    from interpreter.runtime.state import State

# How clone() copies a field: Python expressions over the source state `s`.
COPIES = {
    "share": "s.{a}",  # static, or never changed in place (records, actions, seats)
    "list": "s.{a}[:]",
    "lists": "[*map(list_copy, s.{a})]",  # (no comprehension: no function call per copy)
    "dict": "s.{a}.copy()",
    # (an empty one, the usual case for some, made without running a comprehension)
    "dicts": "{{k: v.copy() for k, v in s.{a}.items()}} if s.{a} else {{}}",
    "set": "s.{a}.copy()",
    "frames": "[*map(frame_copy, s.{a})]",  # (no comprehension: none run for an empty list)
    # the action uses of each scope (a comprehension over three keys cost twice this)
    "scopes": "{{'turn': s.{a}['turn'].copy(), 'round': s.{a}['round'].copy(), 'game': s.{a}['game'].copy()}}",
    "journal": "s.{a}.copy()",  # append-only texts: the copy shares all but the latest few
    "empty": "[]",
    "zero": "0",
    "none": "None",
}


def need(cond: bool, what: str) -> None:
    """Refuse a save whose content breaks an invariant of the state."""
    if not cond:
        raise GameError(f"corrupt save: {what}")


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def int_list(value: Any, what: str) -> list[int]:
    need(isinstance(value, list) and all(_is_int(v) for v in value), f"{what} must be a list of numbers")
    return list(value)


def number_list(value: Any, name: str) -> list[Any]:
    """A counter's saved numbers where it may hold fractions (read back by numbers.decode)."""
    need(isinstance(value, list) and all(_is_int(v) or type(v) is Fraction for v in value),
         f"counter {name} must be a list of numbers")
    return list(value)


@attrs.frozen
class Field:
    """One attribute of State: how it is copied, saved (under `key`), loaded and checked."""

    attr: str
    copy: str
    key: str | None = None  # None: not saved (derived or transient)
    dump: Callable[[Any], Any] = lambda v: v
    load: Callable[[State, Any], Any] | None = None  # checks and returns the value
    # The saved value a save without the key holds (fields added since the format's
    # first version); a value equal to it is left out of saves, so saves of games that
    # do not use the field are what they were before it.
    default: Callable[[], Any] | None = None

    @property
    def saved(self) -> bool:
        return self.key is not None


# ---- loaders: each checks one field against the fields above it ---------------------------


def _load_counters(st: State, value: Any) -> list[list[int]]:
    gd, n = st.gd, st.n
    need(isinstance(value, list) and len(value) == len(gd.counters), "wrong number of counters")
    counters = []
    for cdef, values in zip(gd.counters, value, strict=True):
        values = int_list(values, f"counter {cdef.name}") if not cdef.fractions else number_list(values, cdef.name)
        need(len(values) == cdef.width * (n if cdef.scope == "player" else 1), f"counter {cdef.name} has wrong size")
        low, high = cdef.min, cdef.max
        for v in values:
            need((low is None or v >= low) and (high is None or v <= high),
                 f"counter {cdef.name} is out of its bounds ({v}, not within {_bounds(low, high)})")
        counters.append(values)
    return counters


def _load_card_def(st: State, value: Any) -> list[int]:
    card_def = int_list(value, "card_def")
    need(all(0 <= d < len(st.gd.cards) for d in card_def), "unknown card definition")
    return card_def


def _load_loc(st: State, value: Any) -> list[int]:
    loc = int_list(value, "loc")
    need(len(loc) == len(st.card_def), "card locations do not match cards")
    need(all(-1 <= slot < st.layout.slots for slot in loc), "a card is in a zone that does not exist")
    return loc


def _load_zones(st: State, value: Any) -> list[list[int]]:
    need(isinstance(value, list) and len(value) == st.layout.slots, "wrong number of zones")
    zones = [int_list(z, "zone") for z in value]
    # Each card is in exactly one zone, the one its location names (or none: out of the game).
    seen: set[int] = set()
    for slot, zone in enumerate(zones):
        for iid in zone:
            need(0 <= iid < len(st.card_def), f"zone {zone_name(st, slot)} holds a card that does not exist")
            need(iid not in seen, f"card {card_name(st, iid)} is in the wrong place: in two zones")
            need(st.loc[iid] == slot, f"card {card_name(st, iid)} is in the wrong place: in zone "
                                      f"{zone_name(st, slot)}, but its location says {zone_name(st, st.loc[iid])}")
            seen.add(iid)
    for iid, slot in enumerate(st.loc):
        need(slot == -1 or iid in seen, f"a card is lost between zones: card {card_name(st, iid)} is in no zone, "
                                        f"but its location says {zone_name(st, slot)}")
    return zones


def card_name(st: State, iid: int) -> str:
    return f"{st.gd.cards[st.card_def[iid]].id}#{iid}"


def zone_name(st: State, slot: int) -> str:
    if slot == -1:
        return "out of the game"
    zdef = st.gd.zones[st.layout.zdef[slot]]
    owner = st.layout.zowner[slot]
    return f"{zdef.name}(P{owner + 1})" if owner >= 0 else zdef.name


def _bounds(low: int | None, high: int | None) -> str:
    return f"{'-inf' if low is None else low}..{'inf' if high is None else high}"


def _load_attrs(st: State, value: Any) -> dict[tuple[int, str], Any]:
    need(isinstance(value, list), "bad card attributes")
    result: dict[tuple[int, str], Any] = {}
    for entry in value:
        need(isinstance(entry, list) and len(entry) == 3 and _is_int(entry[0]) and isinstance(entry[1], str)
             and 0 <= entry[0] < len(st.card_def), "bad card attribute")
        result[(entry[0], entry[1])] = entry[2]
    return result


def _load_revealed(st: State, value: Any) -> set[int]:
    revealed = set(int_list(value, "revealed"))
    need(all(0 <= iid < len(st.card_def) for iid in revealed), "a revealed card does not exist")
    return revealed


def _load_rng(st: State, value: Any) -> int:
    need(_is_int(value) and 0 <= value < (1 << 64), "bad random state")
    return int(value)


def _load_chance_mode(st: State, value: Any) -> bool:
    need(value in ("seeded", "explicit"), "bad chance mode (seeded or explicit)")
    return value == "explicit"


def _load_unordered(st: State, value: Any) -> dict[int, set[int]]:
    """Unordered runs of shuffled zones (explicit chance): each run is two cards or
    more of its zone, next to each other in the zone's list."""
    need(isinstance(value, list), "bad unordered zones")
    need(not value or st.explicit, "unordered zones in a game without explicit chance")
    runs: dict[int, set[int]] = {}
    for entry in value:
        need(isinstance(entry, list) and len(entry) == 2 and _is_int(entry[0]) and 0 <= entry[0] < st.layout.slots,
             "bad unordered zone")
        slot, cards = entry[0], set(int_list(entry[1], "unordered cards"))
        need(slot not in runs and len(cards) >= 2 and len(cards) == len(entry[1]), "bad unordered zone")
        zone = st.zones[slot]
        need(all(0 <= iid < len(st.loc) and st.loc[iid] == slot for iid in cards),
             f"an unordered card is not in {zone_name(st, slot)}")
        first = zone.index(min(cards, key=zone.index))
        need(set(zone[first:first + len(cards)]) == cards, f"the unordered cards of {zone_name(st, slot)} are apart")
        runs[slot] = cards
    return runs


def _dump_unordered(value: dict[int, set[int]]) -> list[list[Any]]:
    return [[slot, sorted(run)] for slot, run in sorted(value.items())]


def _load_frames(st: State, value: Any, what: str) -> list[Frame]:
    need(isinstance(value, list), f"bad {what}")
    codes = st.gd.codes
    frames = []
    for frame in value:
        need(isinstance(frame, list) and len(frame) == 3 and _is_int(frame[0]) and _is_int(frame[1])
             and isinstance(frame[2], dict), "bad frame")
        # pc: an operation of the code, its end, or past it (where `stop` leaves a frame)
        need(0 <= frame[0] < len(codes) and (0 <= frame[1] <= len(codes[frame[0]].ops) or frame[1] == STOPPED),
             "frame points outside the rules")
        frames.append(Frame(frame[0], frame[1], dict(frame[2])))
    return frames


def _load_stack(st: State, value: Any) -> list[Frame]:
    stack = _load_frames(st, value, "stack")
    # The game's flow is the first effect pushed (setup runs on top of it) and its frame
    # is the last to go: it sits at the bottom, and only there.
    flow = st.gd.flow
    if flow is not None and stack:
        need(stack[0].code == flow, "the bottom effect is not the game's flow")
        need(all(f.code != flow for f in stack[1:]), "the game's flow runs twice")
    return stack


def _load_pending(st: State, value: Any) -> Any:
    """A decision being waited for must have its full shape and fit the state: a save
    resumed with a bad one would fail later, far from the cause."""
    if value is None:
        need(st.stack == [], "a running effect that waits for no decision")
        return None
    need(isinstance(value, list) and len(value) > 0 and value[0] in ("actions", "choice", "simultaneous", "chance"),
         "bad pending decision")
    need(st.stack != [], "a decision without a running effect")
    # The innermost effect waits at the operation that asked (it runs again with the
    # answer), and that answer is not given yet.
    top = st.stack[-1]
    need(top.pc < len(st.gd.codes[top.code].ops), "the effect waiting for the decision is over")
    if value[0] == "chance":
        return _load_chance(st, value)
    need(len(value) > 1 and _is_int(value[1]) and 0 <= value[1] < st.n, "bad deciding player")
    if value[0] == "simultaneous":
        return load_simultaneous(st, value)
    if value[0] == "actions":
        need(len(value) == 4 and isinstance(value[2], str) and isinstance(value[3], str)
             and value[3].startswith("#"), "bad pending actions")
        need(value[2] in st.gd.groups, "unknown action group")
        need(value[1] not in _bot_seats(st), "a decision for a seat that a game bot plays")
        need(value[3] not in top.env, "the decision waited for is already answered")
        return pending_from_json(value)
    need(len(value) == 7, "bad pending choice")
    _, _, options, type_, prompt, answer, allow_done = value
    need(isinstance(options, list) and isinstance(type_, str) and isinstance(prompt, str)
         and isinstance(answer, str) and answer.startswith("#") and isinstance(allow_done, bool),
         "bad pending choice")
    _check_options(st, options, type_)
    need(value[1] not in _bot_seats(st), "a decision for a seat that a game bot plays")
    need(answer not in top.env, "the decision waited for is already answered")
    # The rules ask only when there is something to choose: two options or more, or one
    # and "done"; each is a distinct answer.
    need(len(options) >= (1 if allow_done else 2), "a choice with nothing to choose")
    texts = [render(st, o, type_) for o in options]
    need(len(set(texts)) == len(texts), "a choice offers the same option twice")
    return pending_from_json(value)


def _check_options(st: State, options: list[Any], type_: str) -> None:
    if type_ == "card":
        need(all(_is_int(o) and 0 <= o < len(st.card_def) for o in options if o is not None),
             "a card to choose from does not exist")
    elif type_ == "player":
        need(all(_is_int(o) and 0 <= o < st.n for o in options), "a player to choose from does not exist")
    elif type_ in ("int", "str", "bool"):
        kind: Any = {"int": (int, Fraction), "str": str, "bool": bool}[type_]  # ("int": a number)
        need(all(isinstance(o, kind) for o in options), f"the options of the choice are not all {type_}")


def _load_chance(st: State, value: list[Any]) -> PendingChance:
    """A chance event waited for (explicit chance): its outcomes, each with a weight,
    two at least; for cards, the identical copies each stands for; a deal's cards are
    the whole unordered run of its zone."""
    need(st.explicit, "a chance event in a game without explicit chance")
    need(len(value) == 10 and value[1] == CHANCE and value[2] in ("value", "deal") and isinstance(value[3], str)
         and isinstance(value[4], str) and isinstance(value[5], list) and isinstance(value[6], list)
         and _is_int(value[7]) and value[8] in ("", "top", "bottom") and isinstance(value[9], list),
         "bad chance event")
    _, _, event, _, type_, options, weights, slot, end, copies = value
    need(len(options) >= 2 and len(weights) == len(options) and all(_is_int(w) and w > 0 for w in weights),
         "a chance event needs two outcomes or more, each with a weight")
    _check_options(st, options, type_)
    if copies:
        need(type_ == "card" and len(copies) == len(options), "bad copies of a chance event's outcomes")
        for option, weight, group in zip(options, weights, copies, strict=True):
            group = int_list(group, "copies")
            need(group[:1] == [option] and len(group) == weight and len(set(group)) == weight
                 and all(0 <= iid < len(st.card_def) and st.card_def[iid] == st.card_def[option] for iid in group),
                 "bad copies of a chance event's outcomes")
    if event == "deal":
        run = st.unordered.get(slot) if _is_int(slot) else None
        need(run is not None and type_ == "card" and end in ("top", "bottom")
             and {iid for group in copies for iid in group} == run, "a deal that is not from an unordered zone")
    return pending_from_json(value)  # type: ignore[return-value]


def _load_answers(st: State, value: Any) -> list[Any]:
    need(isinstance(value, list), "bad chance answers")
    need(not value or isinstance(st.pending, PendingChance), "chance answers with no chance event waited for")
    return list(value)


def _load_queue(st: State, value: Any) -> list[Frame]:
    """Triggered effects waiting to be pushed: only at a chance event in the middle of
    the operation that fired them."""
    need(isinstance(value, list), "bad queue")
    need(not value or isinstance(st.pending, PendingChance), "triggered effects wait with no chance event")
    return _load_frames(st, value, "queue")


def _bot_seats(st: State) -> set[int]:
    return {i for i, bot in enumerate(st.seat_bots) if bot is not None}


def _load_player(st: State, value: Any) -> int:
    need(_is_int(value) and 0 <= value < st.n, "bad active player")
    return int(value)


def _load_count(what: str) -> Callable[[State, Any], int]:
    def load(st: State, value: Any) -> int:
        need(_is_int(value) and value >= 0, f"bad {what}")
        return int(value)
    return load


def _load_uses(st: State, value: Any) -> dict[str, dict[str, int]]:
    need(isinstance(value, dict) and set(value) == {"turn", "round", "game"}
         and all(isinstance(v, dict) and all(_is_int(c) for c in v.values()) for v in value.values()),
         "bad action uses")
    return {k: dict(v) for k, v in value.items()}


def _load_grants(st: State, value: Any) -> list[Grant]:
    need(isinstance(value, list) and all(isinstance(g, list) and len(g) == 3 and _is_int(g[0])
                                         and 0 <= g[0] < len(st.gd.modifiers) and _is_int(g[1])
                                         and 0 <= g[1] < st.n and g[2] in ("turn", "round", "game")
                                         for g in value), "bad grants")
    return [Grant(g[0], g[1], g[2]) for g in value]


def _load_optional_str(what: str) -> Callable[[State, Any], str | None]:
    def load(st: State, value: Any) -> str | None:
        need(value is None or isinstance(value, str), f"bad {what}")
        return value  # type: ignore[no-any-return]
    return load


def _load_ending(st: State, value: Any) -> str | None:
    need(value in (None, "turn", "round"), "bad ending")
    # (only an end condition that finishes the turn or round first sets it; the code
    # generated for a game without one never reads it)
    need(value is None or any(end.then == f"finish_{value}" for end in st.gd.ends),
         f"the game is finishing its {value}, but no end condition of this game does that")
    return value  # type: ignore[no-any-return]


def _load_terminal(st: State, value: Any) -> bool:
    need(isinstance(value, bool), "bad terminal flag")
    need(not value or (st.pending is None and st.stack == []), "a finished game still waits for a decision")
    return bool(value)


def _load_winners(st: State, value: Any) -> list[int]:
    winners = int_list(value, "winners")
    need(all(0 <= w < st.n for w in winners), "a winner is not a player")
    return winners


def _load_strings(what: str) -> Callable[[State, Any], list[str]]:
    def load(st: State, value: Any) -> list[str]:
        need(isinstance(value, list) and all(isinstance(h, str) for h in value), f"bad {what}")
        return list(value)
    return load


def _load_journal(what: str) -> Callable[[State, Any], Journal]:
    load_strings = _load_strings(what)

    def load(st: State, value: Any) -> Journal:
        return Journal(load_strings(st, value))
    return load


def _load_shown(st: State, value: Any) -> dict[int, int]:
    need(isinstance(value, list), "shown cards must be a list")
    shown: dict[int, int] = {}
    for entry in value:
        need(isinstance(entry, list) and len(entry) == 2 and _is_int(entry[0]) and 0 <= entry[0] < len(st.card_def),
             "a card shown to some players does not exist")
        seats = int_list(entry[1], "the players a card is shown to")
        need(bool(seats) and all(0 <= p < st.n for p in seats), "a card is shown to a player not in the game")
        shown[entry[0]] = sum(1 << p for p in set(seats))
    return shown


def _dump_shown(value: dict[int, int]) -> list[list[Any]]:
    return [[iid, seats_of(mask)] for iid, mask in sorted(value.items())]


def _load_notes(st: State, value: Any) -> list[Note]:
    need(isinstance(value, list), "notes must be a list")
    notes = []
    for entry in value:
        need(isinstance(entry, list) and len(entry) == 2 and isinstance(entry[1], str), "bad note")
        seats = int_list(entry[0], "the players a note is shown to")
        need(bool(seats) and all(0 <= p < st.n for p in seats), "a note is shown to a player not in the game")
        notes.append(Note(sum(1 << p for p in set(seats)), entry[1]))
    return notes


def _dump_attrs(value: dict[tuple[int, str], Any]) -> list[list[Any]]:
    return [[iid, name, v] for (iid, name), v in sorted(value.items(), key=lambda kv: kv[0])]


# The fields of State, in load order. Static fields (the game, its definition, layout,
# players, seats, seed) are shared by clones; `players`/`seats`/`seed` are read from
# the save's header by saves.py before these are loaded.
FIELDS: tuple[Field, ...] = (
    Field("game", "share"),
    Field("gd", "share"),
    Field("gd_listens", "share"),
    Field("layout", "share"),
    Field("n", "share"),
    Field("players", "share"),
    Field("seats", "share"),
    Field("seating", "share"),
    Field("seat_specs", "share"),
    Field("seat_bots", "share"),
    Field("seed", "share"),
    Field("counters", "lists", "counters", lambda v: [c[:] for c in v], _load_counters),
    Field("card_def", "list", "card_def", list, _load_card_def),
    Field("loc", "list", "loc", list, _load_loc),
    Field("zones", "lists", "zones", lambda v: [z[:] for z in v], _load_zones),
    Field("attrs", "dict", "attrs", _dump_attrs, _load_attrs),
    Field("revealed", "set", "revealed", sorted, _load_revealed),
    # Shown to some players only (private.py); saves older than these fields have none.
    Field("shown", "dict", "shown", _dump_shown, _load_shown, default=list),
    Field("notes", "list", "notes", lambda v: [n.to_json() for n in v], _load_notes, default=list),
    # Cards hidden from some seats who know which they are (they saw them go there):
    # card -> bit mask of those seats (cards.py keeps it; resample.py reads it). Not
    # saved: the actions give it, and loading replays them (saves.py).
    Field("known", "dict"),
    Field("rng", "share", "rng", load=_load_rng),
    # Explicit chance (chance.py): the mode, the unordered runs of shuffled zones.
    Field("explicit", "share", "chance", lambda v: "explicit" if v else "seeded", _load_chance_mode,
          default=lambda: "seeded"),
    Field("unordered", "dicts", "unordered", _dump_unordered, _load_unordered, default=list),
    Field("stack", "frames", "stack", lambda v: [f.to_json() for f in v], _load_stack),
    Field("pending", "share", "pending", lambda v: None if v is None else v.to_json(), _load_pending),
    # Triggered effects waiting to be pushed: empty between operations, except at a
    # chance event in the middle of the operation that fired them.
    Field("queue", "frames", "queue", lambda v: [f.to_json() for f in v], _load_queue, default=list),
    # The chance outcomes given to the operation that asked for them, for its next run.
    Field("chance_answers", "list", "chance_answers", list, _load_answers, default=list),
    Field("chance_pos", "share"),  # how many of them the running operation has taken
    Field("active", "share", "active", load=_load_player),
    Field("round_no", "share", "round", load=_load_count("round")),
    Field("turn_no", "share", "turn", load=_load_count("turn")),
    Field("uses", "scopes", "uses", lambda v: {k: dict(c) for k, c in v.items()}, _load_uses),
    Field("grants", "list", "grants", lambda v: [g.to_json() for g in v], _load_grants),
    Field("ending", "share", "ending", load=_load_ending),
    Field("ending_reason", "share", "ending_reason", load=_load_optional_str("ending reason")),
    Field("terminal", "share", "terminal", load=_load_terminal),
    Field("winners", "list", "winners", list, _load_winners),
    Field("end_reason", "share", "end_reason", load=_load_optional_str("end reason")),
    # Journals (append-only, shared by clones) come last: State.to_json writes their
    # kept JSON text after the other fields instead of encoding them again.
    Field("history", "journal", "history", Journal.to_list, _load_journal("history")),
    Field("log", "journal", "log", Journal.to_list, _load_journal("log")),
    # Legal actions are immutable and the list is never changed in place: a clone
    # shares it, so it does not list its actions again (searches clone before moves).
    Field("legal_cache", "share"),
    # Transient, never saved: the work of expressions in this resolution (work.py) and
    # the declared values worked out while legal actions are listed (counters.value_of).
    Field("work", "zero"),
    Field("memo", "none"),
    # Transient, never saved, not cloned: game bots' picks in words for the front-ends,
    # (log position, `P2 (bot name): ...` with cards as `id#copy`, whether it stands for the
    # log line at that position or comes before it); None on a clone or a loaded save,
    # which record none (a search's clones spend nothing on words nobody reads).
    Field("picks", "none"),
    # Transient, never saved, not cloned: a search's rollout stops when this turn would
    # begin (errors.HorizonReached), to value the game there instead of playing it out.
    Field("stop_turn", "none"),
    # The returns worked out when the game ended to check the rules' `utility:` (ending.py),
    # kept for `returns()`; clones and loaded states work them out again.
    Field("final_returns", "none"),
)

SAVED: tuple[Field, ...] = tuple(f for f in FIELDS if f.saved)


def make_clone(cls: type) -> Callable[[Any], Any]:
    """The clone function of `cls`, generated from FIELDS (one line per field, so it
    is as fast as one written by hand and cannot forget a field)."""
    lines = ["def clone(s):", "    new = new_state(cls)"]
    lines += [f"    new.{f.attr} = {COPIES[f.copy].format(a=f.attr)}" for f in FIELDS]
    lines.append("    return new")
    namespace: dict[str, Any] = {"cls": cls, "new_state": object.__new__, "list_copy": list.copy,
                                 "frame_copy": Frame.copy}
    exec("\n".join(lines), namespace)  # our own fixed table, never user text
    return namespace["clone"]  # type: ignore[no-any-return]
