"""Card faces: the kinds of card copy the rules can tell apart, numbered once per game
and player count, for the integer action space (action_space.py) and the observation
tensor (tensor.py).

A copy is a card definition plus the attributes effects set on it (`set c.rank to 3`).
Copies of one definition whose attributes differ are different cards to the rules (a
52-card deck may be one definition numbered in setup), so learning code must see them
apart; copies alike in every attribute are one card to it, whatever the deal numbered
them. A *face* is such a kind: a definition and the values of the attributes that tell
its copies apart.

The table of faces is fixed per game and player count, never by a run, so that an id
means the same in every state:

* a game none of whose effects sets a card attribute has one face per definition, in
  definition order: its numbering is the numbering by definition, unchanged;
* otherwise the game is set up (new states, run to their first decision, then on
  while the setup effect still waits for a choice: its first answer is taken) for the
  fixed seeds `SEEDS`, and the faces are the distinct combinations of attribute values
  found on the copies. An attribute counts only when setup gives its values to the
  same definitions for every seed (the ranks and suits of a deck numbered in setup);
  one setup gives to whichever copies the shuffle put somewhere (the round a card
  was taken, the turn it was placed) is play, not identity, and is ignored, so the
  table never depends on the luck of a deal (when attributes that each pass alone
  make other kinds of copy together, depending on the seed, the one the fewest
  copies carry is ignored, until the kinds are the same for every seed). An attribute set to none, or to its
  card's property value, reads as the property: the copy is as if it were not set;
* a definition keeps its plain face (its properties, no attribute set) when no copy
  of it was found after setup or the rules `create` copies of it in play;
* a definition no copy of which can exist (setup places none and no `create` of it is
  in a branch the constants allow) has no face, in a game whose copies never differ.

Faces are numbered definition by definition (declaration order); within one, the plain
face first, then by attribute values (attributes by name, values ascending). A face is
written as its card id, followed, when its definition has several faces, by the
attributes it sets: `card[rank=3,suit=hearts]`.

A copy whose attributes have become a combination the table lacks (an attribute
changed in play, a card created and then marked) has the face of its definition that
agrees with it on the most face attributes, the first such in the numbering (the plain
face when the definition has one): so an attribute that only play sets (`exhausted`)
never changes a card's face, and a copy keeps the id of the card it most resembles.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from interpreter.diagnostics import GameError
from interpreter.model import GameDef
from interpreter.runtime.actions import render

if TYPE_CHECKING:
    from interpreter.runtime.state import State

SEEDS = (0, 1, 2, 3)  # the setups the table is read from: a few, so that seed-bound attributes show
MAX_SETUP_ANSWERS = 100  # answers given to a setup that waits for choices before it is over
_NEAREST_CACHE = 4_096  # combinations outside the table remembered with their nearest face

Key = tuple[str, Any]  # a value as the rules tell it apart: 1, True and "1" differ


def value_key(value: Any) -> Key:
    """A hashable key telling apart the values the rules tell apart (lists by items)."""
    kind = type(value)
    if kind is list or kind is tuple:
        return ("list", tuple(value_key(v) for v in value))
    if kind is dict:
        return ("map", tuple(sorted((str(k), value_key(v)) for k, v in value.items())))
    try:
        hash(value)
    except TypeError:  # no hashable form: its text stands for it
        return ("repr", repr(value))
    return (kind.__name__, value)


def _order(value: Any) -> tuple[int, Any]:
    """A sort key over values of mixed types: none, truth values, numbers, texts, the rest."""
    if value is None:
        return (0, 0)
    if isinstance(value, bool):
        return (1, int(value))
    if isinstance(value, int | float):
        return (2, value)
    if isinstance(value, str):
        return (3, value)
    return (4, repr(value))


class Faces:
    """The faces of one game for one player count (see the module's docstring).

    `first[d]` and `count[d]`: the faces of definition d are `first[d]` ..
    `first[d] + count[d] - 1`; `names[d]`: the attributes that tell them apart (empty
    when d has one face); `defs[f]`, `words[f]`: face f's definition and text."""

    def __init__(self, gd: GameDef, table: list[list[dict[str, Any]]], names: list[tuple[str, ...]]):
        self.gd = gd
        first: list[int] = []
        count: list[int] = []
        defs: list[int] = []
        words: list[str] = []
        keys: list[tuple[Key, ...]] = []
        props: list[tuple[Key, ...]] = []
        self.index: dict[tuple[int, tuple[Key, ...]], int] = {}
        for card, (faces, attrs) in enumerate(zip(table, names, strict=True)):
            properties = gd.cards[card].properties
            plain = tuple(value_key(properties.get(name)) for name in attrs)
            props.append(plain)
            first.append(len(defs))
            count.append(len(faces))
            texts = _words(gd.cards[card].id, faces, attrs, properties)
            for values, word in zip(faces, texts, strict=True):
                key = tuple(value_key(values.get(name, properties.get(name))) for name in attrs)
                self.index[(card, key)] = len(defs)
                defs.append(card)
                words.append(word)
                keys.append(key)
        self.first, self.count, self.names = tuple(first), tuple(count), tuple(names)
        self.defs, self.words, self.keys, self.props = tuple(defs), tuple(words), tuple(keys), tuple(props)
        # one face per definition: the face of a copy is its definition, read with no look-up
        self.varied = len(defs) != len(gd.cards)
        self._nearest: dict[tuple[int, tuple[Key, ...]], int] = {}

    @classmethod
    def plain(cls, gd: GameDef) -> Faces:
        """One face per definition: the numbering of a game whose copies never differ;
        none for a definition no copy of which can exist (see `possible`)."""
        return cls(gd, [[{}] if possible(gd, card) else [] for card in range(len(gd.cards))], [() for _ in gd.cards])

    @property
    def size(self) -> int:
        return len(self.defs)

    def of(self, st: State, iid: int) -> int:
        """The face of copy `iid` now."""
        card = st.card_def[iid]
        if not self.varied:
            return card
        names = self.names[card]
        if not names:
            return self.first[card]
        attrs = st.attrs
        key = tuple(value_key(v) if (v := attrs.get((iid, name))) is not None else plain
                    for name, plain in zip(names, self.props[card], strict=True))
        face = self.index.get((card, key))
        return face if face is not None else self.nearest(card, key)

    def word_of(self, st: State, iid: int) -> str:
        """The text of copy `iid`'s face: `card[rank=3,suit=hearts]`, or its card id."""
        return self.words[self.of(st, iid)]

    def nearest(self, card: int, key: tuple[Key, ...]) -> int:
        """The face of definition `card` agreeing with `key` on the most attributes
        (the first of those in the numbering), for a combination outside the table."""
        found = self._nearest.get((card, key))
        if found is not None:
            return found
        best, agreed = self.first[card], -1
        for face in range(self.first[card], self.first[card] + self.count[card]):
            same = sum(a == b for a, b in zip(self.keys[face], key, strict=True))
            if same > agreed:
                best, agreed = face, same
        if len(self._nearest) < _NEAREST_CACHE:  # (an attribute counting turns could make them endless)
            self._nearest[(card, key)] = best
        return best


def possible(gd: GameDef, card: int) -> bool:
    """Whether a copy of definition `card` can exist: setup places some (a count and a
    zone), or the rules `create` some in a branch their constants allow. A game whose
    constants leave cards out (goofspiel's `num_cards`) has no ids for them."""
    definition = gd.cards[card]
    return (definition.count > 0 and definition.zone is not None) or card in gd.facts.created_cards


def _words(card_id: str, faces: list[dict[str, Any]], names: tuple[str, ...], properties: dict[str, Any]) -> list[str]:
    """The texts of one definition's faces: its id alone when it has one face, else its
    id and the attributes each face sets (`card[rank=3,suit=hearts]`). Values are
    written as in action texts; should two faces read alike that way (1 and "1"),
    texts are written quoted (JSON) for all of the definition's faces."""
    if len(faces) == 1:
        return [card_id]
    for strict in (False, True):
        words = []
        for values in faces:
            shown = [f"{name}={_text(values[name], strict)}" for name in names
                     if name in values and value_key(values[name]) != value_key(properties.get(name))]
            words.append(f"{card_id}[{','.join(shown)}]" if shown else card_id)
        if len(set(words)) == len(words):
            break
    return words


def _text(value: Any, strict: bool) -> str:
    if strict and isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    return render(None, value, "any")  # type: ignore[arg-type]  # plain values need no state


# ---- reading the table from the rules and from setups ---------------------------------------


Copies = list[tuple[int, dict[str, Any]]]  # per copy: its definition and the attributes that change it


def copies_of(st: State) -> Copies:
    """Every copy of a state: its definition and the attributes that make it read
    otherwise than its definition (set, not none, not the property's own value)."""
    cards = st.gd.cards
    found: Copies = [(card, {}) for card in st.card_def]
    for (iid, name), value in st.attrs.items():
        if value is None or iid >= len(found):
            continue
        card, attrs = found[iid]
        if value_key(value) != value_key(cards[card].properties.get(name)):
            attrs[name] = value
    return found


def finish_setup(st: State) -> State:
    """Take the first answer while the setup effect waits for a choice (a setup that
    asks before it numbers the cards): the state once setup is over."""
    setup = st.gd.setup
    for _ in range(MAX_SETUP_ANSWERS):
        if st.terminal or setup is None or not any(frame.code == setup for frame in st.stack):
            break
        legal = st.legal_actions()
        if not legal:
            break
        st.apply_action(legal[0])
    return st


def find_faces(gd: GameDef, start: Callable[[int], State]) -> Faces:
    """The faces of a game: `start(seed)` makes a new state of the player count."""
    if not gd.facts.sets_attributes:
        return Faces.plain(gd)
    runs: list[Copies] = []
    for seed in SEEDS:
        try:
            runs.append(copies_of(finish_setup(start(seed))))
        except GameError:  # a setup that fails for this seed: the others tell the faces
            continue
    return faces_from(gd, runs, set(gd.facts.created_cards))


_UNSET: Key = ("unset", None)


def _spread(copies: Copies, names: Iterable[str]) -> set[tuple[int, tuple[Key, ...]]]:
    """The kinds of copy one setup made, told apart by `names` only."""
    names = tuple(names)
    return {(card, tuple(value_key(attrs[n]) if n in attrs else _UNSET for n in names)) for card, attrs in copies}


def _stable(runs: list[Copies]) -> set[str]:
    """The attributes that make the same kinds of copy in every run: first those that
    give their values to the same definitions in every run; then, while these together
    still make other kinds in some run (a mark put on whichever card a shuffle placed
    somewhere, among cards that differ otherwise too), the one the fewest copies carry
    is left out (a mark on a few cards is likelier play than the ranks of a deck)."""
    names = {name for copies in runs for _, attrs in copies for name in attrs}
    kept = {name for name in names if all(_spread(copies, [name]) == _spread(runs[0], [name]) for copies in runs)}
    while kept:
        told = sorted(kept)
        first = _spread(runs[0], told)
        if all(_spread(copies, told) == first for copies in runs[1:]):
            break
        kept.remove(min(told, key=lambda n: (max(sum(n in attrs for _, attrs in copies) for copies in runs), n)))
    return kept


def faces_from(gd: GameDef, runs: Iterable[Copies], created: frozenset[int] | set[int] = frozenset()) -> Faces:
    """The faces found on the copies of several setups (see the module's docstring)."""
    runs = list(runs)
    kept = _stable(runs)
    found: list[dict[tuple[Key, ...], dict[str, Any]]] = [{} for _ in gd.cards]
    for copies in runs:
        for card, attrs in copies:
            values = {name: value for name, value in attrs.items() if name in kept}
            found[card].setdefault(tuple(sorted((n, value_key(v)) for n, v in values.items())), values)
    table: list[list[dict[str, Any]]] = []
    names: list[tuple[str, ...]] = []
    for card, combos in enumerate(found):
        if card in created or not combos:
            combos.setdefault((), {})
        told = tuple(sorted({name for values in combos.values() for name in values})) if len(combos) > 1 else ()
        properties = gd.cards[card].properties
        faces = sorted(combos.values(), key=lambda values: (
            bool(values), tuple(_order(values.get(name, properties.get(name))) for name in told)))
        table.append(faces)
        names.append(told)
    return Faces(gd, table, names)
