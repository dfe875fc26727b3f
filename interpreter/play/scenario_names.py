"""The names a scenario writes, resolved against a game: players (`P2`), zones
(`hand(P1)`), counters (`score(P1)`), declared values, cards (an id, a name, or `id#copy`)
and action texts (as a player types them, the copy number of a card optional).

Every name that does not resolve is a `ScenarioProblem`: a Diagnostic at the place the
scenario wrote it, with the code `scenario-unknown-...` and a "did you mean" hint.
"""

from __future__ import annotations

import re
from typing import Any

import attrs

from interpreter.diagnostics import Diagnostic, hint_for
from interpreter.play.scenarios import PLACE, PLAYER, Scenario
from interpreter.runtime.actions import Action
from interpreter.runtime.state import State

_COPY = re.compile(r"#\d+\b")


class ScenarioProblem(Exception):
    """A scenario that cannot run as written (not a failed expectation): its diagnostics."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = diagnostics
        super().__init__("\n".join(d.format() for d in diagnostics))


def problem(sc: Scenario, keys: tuple[Any, ...], code: str, message: str, hint: str | None = None,
            key: bool = False) -> ScenarioProblem:
    where = sc.positions.key((*sc.keypath, *keys)) if key else None
    line, column = (where.line, where.column) if where else sc.at(*keys)
    return ScenarioProblem([Diagnostic(sc.path, line, column, code, message, hint=hint)])


class Names:
    """Resolving a scenario's names in one state of its game."""

    def __init__(self, sc: Scenario, st: State):
        self.sc, self.st, self.gd = sc, st, st.gd

    def player(self, text: Any, keys: tuple[Any, ...]) -> int:
        found = PLAYER.match(str(text).strip())
        if found is None or int(found.group(1)) > self.st.n:
            raise problem(self.sc, keys, "scenario-unknown-player", f"'{text}' is not a player of this game",
                          hint=f"players are P1..P{self.st.n}")
        return int(found.group(1)) - 1

    def split(self, text: str, keys: tuple[Any, ...]) -> tuple[str, int | None]:
        """`name(P2)` -> ("name", 1); `name` -> ("name", None)."""
        found = PLACE.match(text)
        assert found is not None  # (the shape check saw to it)
        owner = None if found.group(2) is None else self.player(f"P{found.group(2)}", keys)
        return found.group(1), owner

    def zone(self, text: str, keys: tuple[Any, ...]) -> int:
        """The zone slot `hand(P1)` or `deck` names."""
        name, owner = self.split(text, keys)
        zdef = next((z for z in self.gd.zones if z.name == name), None)
        if zdef is None:
            raise problem(self.sc, keys, "scenario-unknown-zone", f"this game has no zone '{name}'",
                          hint=hint_for(name, [z.name for z in self.gd.zones]), key=True)
        if zdef.scope == "player" and owner is None:
            raise problem(self.sc, keys, "scenario-zone-owner", f"'{name}' is a zone of each player: say whose",
                          hint=f"for example {name}(P1)", key=True)
        if zdef.scope != "player" and owner is not None:
            raise problem(self.sc, keys, "scenario-zone-owner", f"'{name}' is a shared zone, no player's",
                          hint=f"write it {name}", key=True)
        return self.st.layout.zbase[zdef.index] + (owner or 0)

    def counter(self, text: str, keys: tuple[Any, ...]) -> tuple[Any, int | None]:
        """The counter `score(P1)` or `round` names, and the player if the text names one."""
        name, owner = self.split(text, keys)
        cdef = next((c for c in self.gd.counters if c.name == name), None)
        if cdef is None:
            raise problem(self.sc, keys, "scenario-unknown-counter", f"this game has no counter '{name}'",
                          hint=hint_for(name, [c.name for c in self.gd.counters]), key=True)
        if cdef.scope != "player" and owner is not None:
            raise problem(self.sc, keys, "scenario-counter-owner", f"'{name}' is a shared counter, no player's",
                          hint=f"write it {name}", key=True)
        return cdef, owner

    def value(self, text: str, keys: tuple[Any, ...]) -> tuple[Any, int | None]:
        name, owner = self.split(text, keys)
        vdef = next((v for v in self.gd.values if v.name == name), None)
        if vdef is None:
            raise problem(self.sc, keys, "scenario-unknown-value", f"this game declares no value '{name}'",
                          hint=hint_for(name, [v.name for v in self.gd.values]), key=True)
        if vdef.of_player and owner is None:
            raise problem(self.sc, keys, "scenario-value-owner", f"'{name}' is a value of each player: say whose",
                          hint=f"for example {name}(P1)", key=True)
        return vdef, owner

    def card_def(self, text: str, keys: tuple[Any, ...]) -> int:
        """The definition a card's id or name names."""
        cards = self.gd.cards
        found = next((c.index for c in cards if c.id == text), None)
        if found is None:
            found = next((c.index for c in cards if c.name.casefold() == text.casefold()), None)
        if found is None:
            raise problem(self.sc, keys, "scenario-unknown-card", f"this game has no card '{text}'",
                          hint=hint_for(text, [c.id for c in cards] + [c.name for c in cards]))
        return found

    def card_copy(self, text: str, keys: tuple[Any, ...]) -> int:
        """The copy `id#copy` names."""
        ident, _, number = text.partition("#")
        index = self.card_def(ident.strip(), keys)
        iid = int(number) if number.strip().isdigit() else -1
        if not 0 <= iid < len(self.st.card_def) or self.st.card_def[iid] != index:
            copies = [f"{self.gd.cards[index].id}#{i}" for i, d in enumerate(self.st.card_def) if d == index]
            raise problem(self.sc, keys, "scenario-unknown-card", f"'{text}' is no copy of {ident.strip()}",
                          hint=f"its copies: {', '.join(copies[:8]) or 'none'}{', ...' if len(copies) > 8 else ''}")
        return iid

    def card_label(self, iid: int) -> str:
        return self.st.card_text(iid)


def same_action(wanted: str, text: str) -> bool:
    """Whether an action text as a scenario writes it names this legal action's text:
    the same words, a card's copy number optional (`play ace` names `play ace#41`),
    the quotes of an option that is a word too."""
    wanted = " ".join(wanted.split())
    if len(text) > 1 and text[0] == text[-1] == '"' and not wanted.startswith('"'):
        text = text[1:-1]  # a word offered by a choice, as a player types it: without its quotes
    return wanted == text or ("#" not in wanted and _COPY.sub("", text) == wanted)


def find_action(st: State, wanted: str) -> tuple[Action | None, int | None]:
    """The legal action a scenario's text names (at a simultaneous step, the text may
    start with the seat, `P2: ...`): exact text first, else the first whose text without
    copy numbers is the same. With the seat it is for (None: the player to act)."""
    seat, text = None, wanted
    head, sep, rest = wanted.partition(":")
    if sep and PLAYER.match(head.strip()) and st.is_simultaneous_node():
        seat, text = int(head.strip()[1:]) - 1, rest
    legal = st.legal_actions(seat)
    text = " ".join(str(text).split())
    return next((a for a in legal if a.text == text), None) or next(
        (a for a in legal if same_action(text, a.text)), None), seat


def legal_texts(st: State) -> list[str]:
    seats = st.players_to_act() if st.is_simultaneous_node() else [None]
    return [a.text for seat in seats for a in st.legal_actions(seat)]


@attrs.frozen
class CounterEntry:
    """One number of a counter a scenario writes: its label for people, where it is
    in the state (`st.counters[index][slot]`), the value written and where."""

    label: str
    index: int
    slot: int
    value: int
    keys: tuple[Any, ...]


def counter_entries(names: Names, text: str, value: Any, keys: tuple[Any, ...]) -> list[CounterEntry]:
    """The numbers `text: value` sets or expects: `score(P1): 3`, `score: {P1: 3, P2: 0}`,
    `score: [3, 0]`, `gems(P1): {red: 2}` or `mark: [0, 1, 0, ...]` (a counter of several)."""
    cdef, owner = names.counter(text, keys)
    if cdef.scope == "player" and owner is None:
        if isinstance(value, dict):
            pairs = [(names.player(k, (*keys, k)), v, (*keys, k)) for k, v in value.items()]
        elif isinstance(value, list) and len(value) == names.st.n:
            pairs = [(p, v, (*keys, p)) for p, v in enumerate(value)]
        else:
            raise problem(names.sc, keys, "scenario-shape", f"'{cdef.name}' is a counter of each player: give "
                          f"its value by player ({{P1: 3}}), as a list of {names.st.n}, or write {cdef.name}(P1)")
        return [e for p, v, where in pairs for e in _numbers(names, cdef, p, v, where)]
    return _numbers(names, cdef, owner if owner is not None else -1, value, keys)


def _numbers(names: Names, cdef: Any, player: int, value: Any, keys: tuple[Any, ...]) -> list[CounterEntry]:
    base = player * cdef.width if player >= 0 else 0
    who = f"({'P' + str(player + 1)})" if player >= 0 else ""
    if cdef.width == 1:
        return [CounterEntry(f"{cdef.name}{who}", cdef.index, base, _whole(names, value, keys), keys)]
    if isinstance(value, list) and len(value) == cdef.width:
        return [CounterEntry(f"{cdef.name}{who}[{i}]", cdef.index, base + i, _whole(names, v, (*keys, i)),
                             (*keys, i)) for i, v in enumerate(value)]
    if isinstance(value, dict) and cdef.keys:
        found = []
        for k, v in value.items():
            if k not in cdef.keys:
                raise problem(names.sc, (*keys, k), "scenario-unknown-counter", f"counter {cdef.name} has no "
                              f"key '{k}'", hint=hint_for(str(k), cdef.keys), key=True)
            found.append(CounterEntry(f"{cdef.name}{who}.{k}", cdef.index, base + cdef.keys.index(k),
                                      _whole(names, v, (*keys, k)), (*keys, k)))
        return found
    keyed = f", or a mapping of its keys ({', '.join(cdef.keys)})" if cdef.keys else ""
    raise problem(names.sc, keys, "scenario-shape", f"counter {cdef.name} holds {cdef.width} numbers: give a list "
                  f"of {cdef.width}{keyed}")


def _whole(names: Names, value: Any, keys: tuple[Any, ...]) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise problem(names.sc, keys, "scenario-shape", f"a counter holds a whole number, not {value!r}")
    return value
