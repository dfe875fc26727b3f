"""Integer actions: a fixed, stable numbering of every move a game can offer, for
learning code (OpenSpiel, PettingZoo) that wants actions as ids in `range(size)`.

The space of a game for a number of players is laid out once, from the definitions
and the table of card faces (below), so an id means the same move in every state and
every run:

* one block per action, in declaration order; an action without parameters is one id,
  an action with parameters is the product of its parameters' spaces (the last one
  varies fastest): a `card` parameter ranges over the card *faces* (not the copies:
  see below), a `player` parameter over the seats, any other parameter over the
  values its rules declare (`params: {x: {in: ..., max: 10}}`) or, when they declare
  none, the values found from its domain's text when the rules load
  (analysis/action_domains.py);
* then one block for the choices made inside effects (`choose`, `choose one`,
  `choose up to`): `done`, every card face, every seat, then every value a `choose` of
  the game can offer, found the same way.

A card *face* (faces.py) is a kind of copy the rules can tell apart: a definition,
and the values of the attributes setup gives its copies (`card[rank=3,suit=hearts]`,
for a deck made of one definition numbered in setup). The table of faces is read once
per game and player count from the setups of fixed seeds (`Game.faces`), never from
a run; in a game whose copies never differ by attributes there is one face per
definition, in definition order, written as the card's id, so its ids are its card
definitions' (Kuhn poker's `deal jack` is 0 as in OpenSpiel). A copy whose attributes
change in play to a combination the table lacks, or a copy created later, has the
face of its definition nearest to it (faces.py says how).

Chance outcomes (explicit chance, docs/chance.md) have ids of their own, 0 up to
`chance_size` (OpenSpiel's max_chance_outcomes): `deal FACE` for every card face when
the game shuffles, then `chance FACE`, `chance P1`... and `chance VALUE` for what its
`random`, `pick_random` and `shuffled` calls can give, found the same way. A chance id
is never a player's move, so the two spaces overlap. Copies of one face that are
distinct outcomes (they differ in an attribute set in play, or in place) share its
id, whose probability is theirs together; applying the id draws one of them at their
odds. A deck of 52 cards has 52 deal ids whether it is 52 definitions or one.

A card the chooser may not see is offered by its place, never by name (blind.py), and
numbered so: a card parameter that the rules let offer such cards has, after the card
faces, `HIDDEN_POSITIONS` ids per zone slot it may draw them from (the zones that
reading of the rule text finds, for every owner), and so has the choices' block, after
its values. Two different hidden cards at one place have one id; nothing is added for a
parameter or a game whose hidden cards are never offered (every bundled game).

Cards are numbered by face, not by copy, because copies alike are the same move to a
learner (the engine numbers copies by where the deal put them, which means nothing to
a policy), and because games create copies as they run, so no count of copies is
fixed. When one state offers several copies of a face for one parameter (two Credit
Chips in hand), their actions share one id, which plays the first of them in the
legal-action order; the text API (`State.legal_actions`) still tells every copy apart.
`card_word` names a copy as the ids do, for texts that must agree with them.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

import attrs

from interpreter.diagnostics import GameError, IllegalActionError
from interpreter.model import ActionDef, GameDef
from interpreter.model.facts import Zones, scalar_key
from interpreter.runtime.actions import Action, HiddenCard, render, slot_name
from interpreter.runtime.faces import Faces
from interpreter.runtime.layout import Layout
from interpreter.runtime.records import PendingActions, PendingChance
from interpreter.runtime.rng import derived_below

if TYPE_CHECKING:
    from interpreter.runtime.state import State

MAX_SPACE = 2**31 - 1  # ids must fit the int32 of OpenSpiel's C++ side
HIDDEN_POSITIONS = 128  # ids of the places of hidden cards, per zone slot a choice may offer them from
CHOICE = "choice"  # the word that starts the text of a choice's id
DEAL, CHANCE_WORD = "deal", "chance"  # the words that start the texts of chance ids


class ActionSpaceError(GameError):
    """The game's moves cannot be numbered (a parameter without a fixed list of
    values), or a state offers a move outside the numbering."""


@attrs.frozen
class Places:
    """The ids of hidden cards by place, from `base`: HIDDEN_POSITIONS per zone slot,
    in the order of `slots` (`names`: how each slot's places are written, `hand(P2)`)."""

    base: int
    slots: tuple[int, ...] = ()
    names: tuple[str, ...] = ()

    @property
    def size(self) -> int:
        return len(self.slots) * HIDDEN_POSITIONS

    def id_of(self, value: HiddenCard) -> int | None:
        """The id of a place (None: its zone has no ids, or it is too far down)."""
        if value.slot not in self.slots or value.position > HIDDEN_POSITIONS:
            return None
        return self.base + self.slots.index(value.slot) * HIDDEN_POSITIONS + value.position - 1

    def word(self, a: int) -> str:
        """The text of the place with id `a` (`hand(P2):1`), as its legal action writes it."""
        at, position = divmod(a - self.base, HIDDEN_POSITIONS)
        return f"{self.names[at]}:{position + 1}"


def places_of(gd: GameDef, zones: Zones, num_players: int, base: int) -> Places:
    """The places of hidden cards of `zones` (indices), for every owner of each."""
    if not zones:
        return Places(base)
    layout = Layout.build(gd, num_players)
    slots = tuple(slot for slot in range(layout.slots) if layout.zdef[slot] in zones)
    names = tuple(slot_name(gd.zones[layout.zdef[slot]].name, layout.zowner[slot]) for slot in slots)
    return Places(base, slots, names)


@attrs.frozen
class Slot:
    """One parameter's space: `kind` card (by face, then the places of hidden cards),
    player, or value."""

    name: str
    kind: str
    size: int
    values: tuple[Any, ...] = ()  # value slots: the values, in id order
    index: dict[tuple[str, Any], int] = attrs.field(factory=dict, eq=False)  # value key -> position
    places: Places = Places(0)  # card slots: the ids of hidden cards by place
    ints: dict[int, int] = attrs.field(factory=dict, eq=False)  # the index's plain numbers, by value (fast path)


@attrs.frozen
class Block:
    """The ids of one action: `offset` + the positions of its parameters' values."""

    action: ActionDef
    offset: int
    slots: tuple[Slot, ...]
    strides: tuple[int, ...]
    size: int


class ActionSpace:
    """The integer action space of one game for `num_players` seats."""

    def __init__(self, gd: GameDef, num_players: int, faces: Faces | None = None):
        self.gd, self.num_players = gd, num_players
        # the kinds of card copy ids tell apart (faces.py; Game.faces reads them from setup)
        self.faces = faces if faces is not None else Faces.plain(gd)
        self.hidden = gd.facts.hidden  # what may be offered as a hidden card, and from where
        blocks: list[Block] = []
        offset = 0
        # A parameter without a finite list of values leaves the players' actions without
        # ids (raised when one is asked for); chance ids, numbered apart, still work.
        self.unnumbered: ActionSpaceError | None = None
        for action in gd.actions:
            try:
                slots = tuple(self._slot(action, i) for i in range(len(action.params)))
            except ActionSpaceError as err:
                self.unnumbered = self.unnumbered or err
                slots = ()
            strides = []
            size = 1
            for slot in reversed(slots):
                strides.append(size)
                size *= slot.size
            blocks.append(Block(action, offset, slots, tuple(reversed(strides)), size))
            offset += size
        self.blocks = tuple(blocks)
        kinds = gd.facts.choices
        # The choices' block holds only the kinds of answer some `choose` can give.
        self.choice_offset = offset
        self.done_id = offset if kinds.done else None
        self.card_base = offset + (1 if kinds.done else 0)
        self.player_base = self.card_base + (self.faces.size if kinds.cards else 0)
        self.value_base = self.player_base + (num_players if kinds.players else 0)
        self.choice_values = kinds.values
        self.value_index = {scalar_key(v): i for i, v in enumerate(self.choice_values)}
        self.choice_places = places_of(gd, self.hidden.choices, num_players, self.value_base + len(self.choice_values))
        self.size = self.choice_places.base + self.choice_places.size
        if self.size > MAX_SPACE:
            raise ActionSpaceError(f"{gd.name}: {self.size} integer actions are too many (at most {MAX_SPACE}); "
                                   "declare smaller lists of values for its parameters")
        chances = gd.facts.chances
        self.chance_card_base = self.faces.size if chances.deals else 0  # deals are 0..faces-1
        self.chance_player_base = self.chance_card_base + (self.faces.size if chances.cards else 0)
        self.chance_value_base = self.chance_player_base + (num_players if chances.players else 0)
        self.chance_values = chances.values
        self.chance_value_index = {scalar_key(v): i for i, v in enumerate(self.chance_values)}
        self.chance_size = self.chance_value_base + len(self.chance_values)
        self.chance_complete = chances.complete
        # Memos of the id path (OpenSpiel's and PettingZoo's algorithms list ids, then
        # apply one, at every node). The ids of an action object of a block without card
        # parameters never change (a card's id is its face, read from the state), and the
        # listers hand out the same objects again: id(action) -> (action, its id), the
        # action kept so that its id() is not reused while it is here.
        self._static = tuple(all(slot.kind != "card" for slot in block.slots) for block in self.blocks)
        # (per block without card parameters: each parameter's stride and its numbers' positions)
        players = {p: p for p in range(num_players)}
        self._plain = tuple(tuple((stride, players if slot.kind == "player" else slot.ints)
                                  for slot, stride in zip(block.slots, block.strides, strict=True))
                            if static and block.slots else None
                            for block, static in zip(self.blocks, self._static, strict=True))
        self._ids_of: dict[int, tuple[Action, int]] = {}
        # The last listing numbered: (the state's kept listing, its player, the ids), for
        # `apply_action_id` right after `legal_action_ids` on the same listing. A kept
        # listing is never changed in place (clones share it), so its identity says it all.
        self._last: tuple[list[Action] | None, int, dict[int, Action]] = (None, -1, {})

    def _slot(self, action: ActionDef, i: int) -> Slot:
        param = action.params[i]
        if param.type == "card" and param.values is None:
            zones = self.hidden.params.get((action.index, i), frozenset())
            places = places_of(self.gd, zones, self.num_players, self.faces.size)
            return Slot(param.name, "card", self.faces.size + places.size, places=places)
        if param.type == "player" and param.values is None:
            return Slot(param.name, "player", self.num_players)
        values = param.values
        if values is None:
            values = self.gd.facts.param_values.get((action.index, i))
        if values is None:
            example = f"params: {{{param.name}: {{in: \"...\", max: 10}}}}" if param.type == "int" else \
                f"params: {{{param.name}: {{in: \"...\", values: [a, b]}}}}"
            raise ActionSpaceError(
                f"{self.gd.name}: action '{action.id}', parameter '{param.name}': its values ({param.type}) have no "
                f"fixed, finite list to number them by; declare them in the rules, e.g. {example}")
        index = {scalar_key(v): j for j, v in enumerate(values)}
        ints = {v: j for j, v in enumerate(values) if type(v) is int}
        return Slot(param.name, "value", len(values), tuple(values), index, ints=ints)

    # ---- ids of a state's legal actions --------------------------------------------------

    def legal(self, st: State, player: int | None = None) -> dict[int, Action]:
        """The legal actions (of `player`, as `State.legal_actions` says) by id, ids
        ascending; copies sharing an id give the first."""
        if self.unnumbered is not None:
            raise self.unnumbered
        pending = st.pending
        listing = st.legal_cache if type(pending) is PendingActions else None
        seat = pending.player if isinstance(pending, PendingActions) else -1
        if listing is not None:
            last = self._last
            if last[0] is listing and (player is None or player == last[1]):
                return last[2]  # (callers only read it)
        found: dict[int, Action] = {}
        ids_of = self._ids_of
        ascending, last_id = True, -1
        for action in (listing if listing is not None and (player is None or player == seat)
                       else st.legal_actions(player)):
            known = ids_of.get(id(action))  # (id_of's own memo, read here: the usual case)
            a = known[1] if known is not None and known[0] is action else self.id_of(st, action)
            if a > last_id:  # (listers mostly list in id order: then nothing is to sort)
                last_id = a
                found[a] = action
            elif a not in found:
                ascending = False
                found[a] = action
        ids = found if ascending else dict(sorted(found.items()))
        if listing is not None and st.legal_cache is listing and (player is None or player == seat):
            self._last = (listing, seat, ids)
        return ids

    def id_of(self, st: State, action: Action) -> int:
        """The id of one of the state's legal actions."""
        if self.unnumbered is not None:
            raise self.unnumbered
        if isinstance(st.pending, PendingActions):
            known = self._ids_of.get(id(action))
            if known is not None and known[0] is action:
                return known[1]
            index, values = action.payload
            block = self.blocks[index]
            a = -1
            plain = self._plain[index]
            if plain is not None and len(values) == len(plain):  # numbers only: a lookup a parameter
                a = block.offset
                for (stride, table), value in zip(plain, values, strict=True):
                    position = table.get(value) if type(value) is int else None
                    if position is None:
                        a = -1  # (not a plain number of the table: the general way says why)
                        break
                    a += stride * position
            if a < 0:
                a = block.offset
                for slot, stride, value in zip(block.slots, block.strides, values, strict=True):
                    a += stride * self._position(st, slot, value, action)
            if self._static[index]:
                if len(self._ids_of) >= _IDS_KEPT:  # (listers that make new objects each time)
                    self._ids_of.clear()
                self._ids_of[id(action)] = (action, a)
            return a
        return self._choice_id(st, action)

    def face_recipe(self, st: State, action: Action) -> tuple[int, int, int] | None:
        """For one of the state's legal actions whose id depends on the face of one card
        copy (its attributes tell its face, and they change in play), `(base, stride,
        copy)`: its id is `base + stride * face` of that copy, whatever the copy's
        attributes are then; None for any other action (an id of its own, or several
        such copies). A native state keeps it, and works an id out from its own cards."""
        if self.unnumbered is not None or not self.faces.varied:
            return None
        varied = self.faces.names
        if isinstance(st.pending, PendingActions):
            index, values = action.payload
            block = self.blocks[index]
            found = None
            base = block.offset
            for slot, stride, value in zip(block.slots, block.strides, values, strict=True):
                if slot.kind == "card" and type(value) is int and varied[st.card_def[value]]:
                    if found is not None:
                        return None
                    found = (stride, value)
                else:
                    base += stride * self._position(st, slot, value, action)
            return None if found is None else (base, found[0], found[1])
        value = action.payload
        if action.text != "done" and getattr(st.pending, "type", "any") == "card" and type(value) is int \
                and varied[st.card_def[value]] and self.player_base != self.card_base:
            return (self.card_base, 1, value)
        return None

    def _position(self, st: State, slot: Slot, value: Any, action: Action) -> int:
        if slot.kind == "card" and type(value) is int:
            return self.faces.of(st, value)
        if type(value) is HiddenCard:
            place = slot.places.id_of(value)
            if place is None:
                raise self._no_place(action)
            return place
        if slot.kind == "player" and type(value) is int and 0 <= value < self.num_players:
            return value
        position = slot.ints.get(value) if type(value) is int else _lookup(slot.index, value)
        if position is None:
            raise ActionSpaceError(
                f"{self.gd.name}: the legal action '{action.text}' offers {slot.name} = {value!r}, which is not in "
                f"the parameter's integer space ({_sample(slot.values)}); declare its values in the rules")
        return position

    def _choice_id(self, st: State, action: Action) -> int:
        value = action.payload
        type_ = getattr(st.pending, "type", "any")
        if action.text == "done":  # `choose up to`'s "enough", or a choice's own word "done"
            if self.done_id is None:
                raise self._unforeseen(st, "done")
            return self.done_id
        if type_ == "card" and type(value) is int:
            if self.player_base == self.card_base:
                raise self._unforeseen(st, "cards")
            return self.card_base + self.faces.of(st, value)
        if type(value) is HiddenCard:
            place = self.choice_places.id_of(value)
            if place is None:
                raise self._no_place(action)
            return place
        if type_ == "player" and type(value) is int and 0 <= value < self.num_players:
            if self.value_base == self.player_base:
                raise self._unforeseen(st, "players")
            return self.player_base + value
        position = _lookup(self.value_index, value)
        if position is None:
            raise self._unforeseen(st, action.text)
        return self.value_base + position

    def _no_place(self, action: Action) -> ActionSpaceError:
        return ActionSpaceError(
            f"{self.gd.name}: the legal action '{action.text}' offers a hidden card by its place, which has no id: "
            f"its zone was not found among those the rules let offer hidden cards, or it is beyond the "
            f"{HIDDEN_POSITIONS} places numbered per zone")

    def _unforeseen(self, st: State, what: str) -> ActionSpaceError:
        return ActionSpaceError(
            f"{self.gd.name}: the choice '{st.prompt()}' offers {what}, which is not among the answers the game's "
            f"choices were found to offer ({_sample(self.choice_values)}); this is a limit of the integer action "
            "space's reading of the rules: write the choice's list from constants, ranges or literals")

    # ---- texts ---------------------------------------------------------------------------

    def check(self, a: Any) -> int:
        if self.unnumbered is not None:
            raise self.unnumbered
        if isinstance(a, bool) or not isinstance(a, int):
            raise IllegalActionError(f"an integer action is an int in 0..{self.size - 1}, not {a!r}")
        if not 0 <= a < self.size:
            raise IllegalActionError(f"action {a} is outside {self.gd.name}'s action space (0..{self.size - 1} "
                                     f"for {self.num_players} players)")
        return int(a)

    def to_string(self, a: int) -> str:
        """The text of an id: `buy widget`, `trade P2 gold`, `choice done`."""
        return " ".join(self.id_words(a))

    def id_words(self, a: int) -> list[str]:
        """The words of an id's text: the action, then one word per parameter (or
        `choice` and the answer)."""
        a = self.check(a)
        if a >= self.choice_offset:
            if a == self.done_id:
                return [CHOICE, "done"]
            if a < self.player_base:
                return [CHOICE, self.faces.words[a - self.card_base]]
            if a < self.value_base:
                return [CHOICE, f"P{a - self.player_base + 1}"]
            if a >= self.choice_places.base:
                return [CHOICE, self.choice_places.word(a)]
            return [CHOICE, _text(self.choice_values[a - self.value_base])]
        block = self._block_of(a)
        rest = a - block.offset
        words = [block.action.id]
        for slot, stride in zip(block.slots, block.strides, strict=True):
            position, rest = divmod(rest, stride)
            if slot.kind == "card" and position >= slot.places.base:
                words.append(slot.places.word(position))
            elif slot.kind == "card":
                words.append(self.faces.words[position])
            elif slot.kind == "player":
                words.append(f"P{position + 1}")
            else:
                words.append(_text(slot.values[position]))
        return words

    def cards_named(self, st: State, action: Action) -> list[int | None]:
        """Per word of the action's id text, the card copy it names (None: no card)."""
        if isinstance(st.pending, PendingActions):
            index, values = action.payload
            slots = self.blocks[index].slots
            return [None] + [v if slot.kind == "card" and type(v) is int else None
                             for slot, v in zip(slots, values, strict=True)]
        value = action.payload
        is_card = getattr(st.pending, "type", "") == "card" and type(value) is int
        return [None, value if is_card else None]

    def _block_of(self, a: int) -> Block:
        lo, hi = 0, len(self.blocks) - 1
        while lo < hi:  # the last block whose offset is <= a
            mid = (lo + hi + 1) // 2
            if self.blocks[mid].offset <= a:
                lo = mid
            else:
                hi = mid - 1
        return self.blocks[lo]

    # ---- chance ids (explicit chance) ------------------------------------------------------

    def chance_groups(self, st: State) -> dict[int, list[int]]:
        """The outcomes of the state's chance node by chance id, ids ascending: the
        positions (in `st.legal_actions()`) of the outcomes each id stands for. Copies
        of one face that are distinct outcomes (in place, attributes set in play, being
        revealed) share its id, as copies share one id among a player's moves."""
        found: dict[int, list[int]] = {}
        for i, action in enumerate(st.legal_actions()):
            found.setdefault(self.chance_id_of(st, action), []).append(i)
        return dict(sorted(found.items()))

    def chance_legal(self, st: State) -> dict[int, Action]:
        """The outcomes of the state's chance node by chance id (the first outcome of
        an id that stands for several), ids ascending."""
        legal = st.legal_actions()
        return {a: legal[at[0]] for a, at in self.chance_groups(st).items()}

    def chance_id_of(self, st: State, action: Action) -> int:
        """The chance id of one outcome of the state's chance node."""
        pending = st.pending
        assert isinstance(pending, PendingChance)
        value = action.payload
        if pending.event == "deal":
            return self.faces.of(st, value)
        if pending.type == "card" and type(value) is int and self.chance_player_base > self.chance_card_base:
            return self.chance_card_base + self.faces.of(st, value)
        if pending.type == "player" and type(value) is int and self.chance_value_base > self.chance_player_base \
                and 0 <= value < self.num_players:
            return self.chance_player_base + value
        position = _lookup(self.chance_value_index, value)
        if position is None:
            raise ActionSpaceError(
                f"{self.gd.name}: the chance event '{pending.prompt}' has the outcome '{action.text}', which is not "
                f"among the outcomes its random calls were found to give ({_sample(self.chance_values)}); write "
                "random's bounds and pick_random's lists from constants, ranges or literals")
        return self.chance_value_base + position

    def chance_action(self, st: State, a: Any) -> Action:
        """The outcome with chance id `a` of the state's chance node (of several that
        share it, one drawn at their odds from the state's generator, without advancing
        it: the outcome's text goes to the history, and replaying that text must lead to
        the same game); IllegalActionError saying why when there is none."""
        if isinstance(a, bool) or not isinstance(a, int) or not 0 <= a < self.chance_size:
            raise IllegalActionError(f"a chance id is an int in 0..{self.chance_size - 1}, not {a!r}")
        groups = self.chance_groups(st)
        at = groups.get(a)
        if at is None:
            sample = ", ".join(f"{b} ({self.chance_to_string(b)})" for b in list(groups)[:6])
            raise IllegalActionError(f"chance id {a} ({self.chance_to_string(a)}) is not an outcome now; "
                                     f"outcomes: {sample}")
        legal = st.legal_actions()
        if len(at) == 1:
            return legal[at[0]]
        weights = st.pending.weights  # type: ignore[union-attr]  # a chance node: PendingChance
        pick = derived_below(st, sum(weights[i] for i in at), len(st.history))
        for i in at:
            if pick < weights[i]:
                return legal[i]
            pick -= weights[i]
        raise AssertionError("unreachable: the weights add up")

    def chance_to_string(self, a: int) -> str:
        return " ".join(self.chance_words(a))

    def chance_words(self, a: int) -> list[str]:
        """The words of a chance id's text: `deal FACE`, `chance FACE`, `chance P2`,
        `chance VALUE` (a face: `king`, `card[rank=3,suit=hearts]`)."""
        if isinstance(a, bool) or not isinstance(a, int) or not 0 <= a < self.chance_size:
            raise IllegalActionError(f"a chance id is an int in 0..{self.chance_size - 1}, not {a!r}")
        if a < self.chance_card_base:
            return [DEAL, self.faces.words[a]]
        if a < self.chance_player_base:
            return [CHANCE_WORD, self.faces.words[a - self.chance_card_base]]
        if a < self.chance_value_base:
            return [CHANCE_WORD, f"P{a - self.chance_player_base + 1}"]
        return [CHANCE_WORD, _text(self.chance_values[a - self.chance_value_base])]

    @functools.cached_property
    def _ids_by_text(self) -> dict[str, int]:
        table: dict[str, int] = {}
        for a in range(self.size):
            text = self.to_string(a)
            if text in table:
                raise ActionSpaceError(f"{self.gd.name}: actions {table[text]} and {a} have the same text '{text}'")
            table[text] = a
        return table

    def from_string(self, text: str) -> int | None:
        """The id of an id text; spaces may differ (a text value of a face may hold some)."""
        table = self._ids_by_text
        found = table.get(text) if isinstance(text, str) else None
        return found if found is not None else table.get(" ".join(str(text).split()))

    def card_word(self, st: State, iid: int) -> str:
        """How id texts name card copy `iid` of `st`: its face (`card[rank=3,suit=hearts]`,
        or the card's id when its definition has one face); for learning code that names
        cards as the ids do (observation strings, information states)."""
        return self.faces.word_of(st, iid)


_IDS_KEPT = 4096  # action objects whose ids are kept, per action space (listers reuse far fewer)


def _lookup(index: dict[tuple[str, Any], int], value: Any) -> int | None:
    try:
        return index.get(scalar_key(value))
    except TypeError:  # an unhashable value (a list) is in no table
        return None


def _text(value: Any) -> str:
    return render(None, value, "any")  # type: ignore[arg-type]  # scalars need no state


def _sample(values: tuple[Any, ...]) -> str:
    shown = ", ".join(_text(v) for v in values[:8])
    return (shown + (", ..." if len(values) > 8 else "")) or "no values"
