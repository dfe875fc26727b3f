"""A game state on the native backend, one decision at a time: the State API over a
C struct, with the Python engine's state behind it for everything the struct does
not answer.

A state's class derives from its module's `Stepper` (stepping.py: the struct, and the
calls made at every step of a search or a learning loop, in C: whose turn it is, the
legal actions as Actions or ids, applying one, clone as one memcpy, the returns) and
from `NativeState` here: the rest of those calls (a simultaneous step, a text for an
Action, a player named) and everything else. Observations, saves, the log, undo and
the like are asked of the Python state of the same history, made by replaying it on the
Python engine the first time one is needed; from then on that state is the game (the
native state moves on in Python, so nothing can drift apart). A rule slip or a cap met
natively hands over the same way, so the error raised is the engine's own.

The Actions and ids of a stop's options come from a cache shared by every state of the
game and player count, indexed by each option's key (stepping.py): a key not seen yet
is looked up once on the Python state of the same history, which offers the same
options in the same order (tests/test_native_state.py checks every step of every native
game against the Python state).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from interpreter.diagnostics import GameError
from interpreter.native import option_cache
from interpreter.native.card_faces import face_table
from interpreter.runtime.action_space import ActionSpaceError
from interpreter.runtime.actions import Action
from interpreter.runtime.simultaneous import pick_text, split_pick

TERMINAL = -4  # (runtime/state.py's: OpenSpiel's kTerminalPlayerId)
SIMULTANEOUS = -2  # (several seats pick at once)
RUNNING, OVER = 0, 1
Entry = tuple[Action, "int | None"]
# The fields of a native state (stepping.py's Stepper): set on it, never on the Python state.
_OWN = frozenset({"_game", "_py", "_listing", "_ids", "_wait", "_seats", "seed", "_history", "_picks", "_seat_lists",
                  "n", "_status", "rng", "stop_turn", "_base", "_oracle"})


class NativeState:
    """See the module's docstring. Made by `Game.new_initial_state(..., native=...)`."""

    if not TYPE_CHECKING:  # (the instance's fields are the Stepper's, in C: see stepping.py)
        __slots__ = ()
    _game: Any
    _py: Any
    _listing: list[Entry] | None
    _ids: list[int | None] | bool | None  # (True/False: the options' kept ids are plain, or not; a list: worked out)
    _wait: list[int] | None
    _history: list[str]
    _picks: dict[int, int]
    _seat_lists: dict[int, list[Entry]]
    _status: int
    n: int
    seed: int
    _seats: list[Any]  # (the seats as given to new_initial_state)
    _base: tuple[Any, int] | None  # (another world's Python state taken over, and the history's length then)
    _oracle: Any  # (the Python state options were last learned from: see _oracle_here)

    def _stopped(self) -> None:
        """A new stop: a simultaneous step's seats (`_wait`, their picks so far in
        `_picks`, their listings in `_seat_lists`), or one seat's decision."""
        self._listing = self._ids = None
        self._picks = {}
        self._seat_lists = {}
        self._wait = (self._waiting() or None) if self._status == RUNNING else None

    # ---- the Python state of the same history -------------------------------------------------

    def python_state(self) -> Any:
        """The Python engine's state of this game (made once, then the game itself)."""
        if self._py is None:
            self._take_over()
        return self._py

    def _take_over(self) -> None:
        self._py = self._replayed(self._history)

    def _hand_over(self) -> None:
        """The native run could not go on: the Python path plays the last pick again
        from the state before it, and says what went wrong."""
        last = self._history.pop()
        self._take_over()
        self._py.apply_action(last)

    def _replayed(self, history: Sequence[str]) -> Any:
        """The Python state of this history: replayed from the start, or for a state that
        took another world's data (a search's, `take_world`) from that world's state."""
        if self._base is not None:
            base, start = self._base
            state = base.clone()
            history = history[start:]
        else:
            state = self._game.new_initial_state(self.n, self.seed, self._seats)
        for text in history:
            state.apply_action(text)
        return state

    def _oracle_here(self) -> Any:
        """The Python state of this history, to learn options from: the one made last
        (shared with clones) played on to here when this history goes on from it, else
        one replayed. (Replaying from the start at every new option made a game with
        many distinct options (every card copy in every action) quadratic.)"""
        oracle = self._oracle
        if oracle is not None:
            done = oracle.history
            if len(done) <= len(self._history) and done == self._history[:len(done)]:
                for text in self._history[len(done):]:
                    oracle.apply_action(text)
                return oracle
        oracle = self._oracle = self._replayed(self._history)
        return oracle

    def take_world(self, world: Any) -> bool:
        """This state's place in the flow with the data of `world`, a Python state sampled
        at the same decision (counters, zones, cards, their attributes, the rules'
        generator); from then on the Python state behind it is `world`'s, which is kept
        (the caller hands it over: it must not change it). False, nothing changed, when
        the struct cannot hold it."""
        if world.grants or \
                not self._take_world(world.counters, world.zones, world.loc, world.card_def, world.rng, world.attrs):
            return False  # (the struct takes no grants over: a world with some stays a Python state)
        self._base, self._oracle = (world, len(self._history)), None
        return True

    def __getattr__(self, name: str) -> Any:
        # (only for what the classes do not define: the rest of the State API)
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.python_state(), name)

    def __setattr__(self, name: str, value: Any) -> None:
        # The engine's functions, handed this state, may set what the Python state has
        # (its work budget, its memo): that is the Python state's, which takes over.
        if name in _OWN or hasattr(type(self), name):
            object.__setattr__(self, name, value)
        else:
            setattr(self.python_state(), name, value)

    def __copy__(self) -> Any:
        return self.clone()  # type: ignore[attr-defined]

    def __deepcopy__(self, memo: dict[int, Any]) -> Any:
        return self.clone()  # type: ignore[attr-defined]

    def __str__(self) -> str:
        return str(self.python_state())

    def __eq__(self, other: object) -> bool:
        mine = self.python_state()
        return bool(mine == (other.python_state() if isinstance(other, NativeState) else other))

    # (as State: equal by value, and mutable)
    __hash__ = None  # type: ignore[assignment]

    # ---- the State API off the usual path -----------------------------------------------------------

    @property
    def native(self) -> bool:
        """Whether the struct still plays this game (not the Python state)."""
        return self._py is None

    @property
    def stop_turn(self) -> int | None:
        return self._py.stop_turn if self._py is not None else None

    @stop_turn.setter
    def stop_turn(self, value: int | None) -> None:
        # (a search's horizon: the Python state's; none is what a native state does anyway)
        if value is not None or self._py is not None:
            self.python_state().stop_turn = value

    @property
    def seats(self) -> list[str]:
        """Who plays each seat, as the Python state's `seats` (canonical texts)."""
        return list(self._game._seating(self.n, self._seats or None).texts)

    @property
    def history(self) -> list[str]:
        return list(self._py.history if self._py is not None else self._history)

    @property
    def terminal(self) -> bool:
        return bool(self.is_terminal())

    def is_chance_node(self) -> bool:
        return self._py.is_chance_node() if self._py is not None else False

    def is_simultaneous_node(self) -> bool:
        return self._py.is_simultaneous_node() if self._py is not None else self._wait is not None

    def _current_player(self) -> int:
        if self._py is not None:
            return int(self._py.current_player())
        if self._status == OVER:
            return TERMINAL
        return SIMULTANEOUS if self._wait is not None else int(self._who())

    def players_to_act(self) -> list[int]:
        if self._py is not None:
            return list(self._py.players_to_act())
        if self._status == OVER:
            return []
        if self._wait is not None:
            return [p for p in self._wait if p not in self._picks]
        return [int(self._who())]

    def player_asked(self) -> int:
        if self._py is not None:
            return int(self._py.player_asked())
        waiting = self.players_to_act()
        return waiting[0] if waiting else self._current_player()

    def _seat(self, player: int | None) -> int | None:
        """The seat whose options a call with `player` is about (None: no decision of theirs now)."""
        if self._status != RUNNING:
            return None
        if self._wait is None:
            who = int(self._who())
            return who if player is None or player == who else None
        waiting = [p for p in self._wait if p not in self._picks]
        if player is None:
            return waiting[0] if waiting else None
        return player if player in waiting else None

    def _options(self, seat: int) -> list[Entry]:
        """The Action and id of each option of `seat` at this stop."""
        if self._wait is None:
            listing = self._listing
            if listing is None:
                listing = self._listing = self._cached() or self._learn(seat)
            return listing
        found = self._seat_lists.get(seat)
        if found is None:
            found = self._seat_lists[seat] = \
                self._seat_cached(seat) or self._learn(seat)
        return found

    def _learn(self, seat: int) -> list[Entry]:
        """The options of `seat` at this stop as the Python engine makes them, kept by key."""
        keys = self._keys() if self._wait is None else self._seat_keys(seat)
        oracle = self._oracle_here()
        legal = oracle.legal_actions(seat)
        if len(legal) != len(keys):
            raise GameError(f"internal error: the native state offers {len(keys)} options where the engine offers "
                            f"{len(legal)} (set ORRERY_NATIVE=off and report it)")
        space = self._game.action_space(self.n)
        remember = self._module.remember
        varied = _varied_cards(self._game, space)
        learned = []
        for key, action in zip(keys, legal, strict=True):
            try:
                a: int | None = space.id_of(oracle, action)
            except ActionSpaceError:
                a = None  # (asked for, the Python state says why there is no id)
            if varied is not None and varied.search(action.text):
                # (a card whose attributes tell its face: its id is worked out at each stop,
                # from the face of that copy then, or asked of the Python state each time)
                try:
                    a = space.face_recipe(oracle, action)  # type: ignore[assignment]
                except ActionSpaceError:
                    a = None
            remember(key, (action, a))
            learned.append((action, a))
        return learned

    def _entry_ids(self, seat: int) -> list[int | None]:
        """The id of each option at this stop (None: it has none). Those not kept (the
        copies whose attributes tell their face) are worked out from this state's own
        cards and attributes (a `_FaceView`, with the engine's own pending decision of
        that option, kept from when it was learned); an option met before only in another
        process is asked of the Python state of this history, once."""
        if self._wait is None and type(self._ids) is list:
            return self._ids  # (worked out for this stop already: legal_action_ids, then apply_action_id)
        space = self._game.action_space(self.n)
        ids: list[int | None] = []
        keys: list[Any] | None = None
        view: _FaceView | None = None
        pendings = _face_pendings(self._game)
        for k, (action, a) in enumerate(self._options(seat)):
            if type(a) is tuple:
                a = self._face_id(a)
            elif a is None:
                if keys is None:
                    keys = self._keys() if self._wait is None else self._seat_keys(seat)
                pending = pendings.get((self.n, keys[k]))
                try:
                    if pending is not None:
                        if view is None:
                            view = _FaceView(self)
                        view.pending = pending
                        a = space.id_of(view, action)
                    else:
                        oracle = self._oracle_here()
                        a = space.id_of(oracle, action)
                        pendings[self.n, keys[k]] = oracle.pending
                except ActionSpaceError:
                    a = None
            ids.append(a)
        if self._wait is None:
            self._ids = ids
        return ids

    def _face_id(self, recipe: tuple[int, int, int]) -> int:
        """The id of an option kept as `(base, stride, copy)` (ActionSpace.face_recipe): by
        the face of that copy in this state's struct."""
        base, stride, iid = recipe
        face = self._face_of(iid)
        module = self._module
        if face < 0 and not module.faces_given():  # (the module is told the game's faces once)
            faces = self._game.action_space(self.n).faces
            module.set_faces(face_table(faces, len(self._game.definition.cards), module.SCALAR_ATTRS, module.WORDS))
            face = self._face_of(iid)
        if face >= 0:
            return int(base + stride * face)
        _VIEW.bind(self)  # (a face C does not read: the engine's reading of this struct's cards)
        try:
            return base + stride * int(self._game.action_space(self.n).faces.of(_VIEW, iid))
        finally:
            _VIEW.bind(None)  # (the view keeps no state alive)

    def _legal_actions(self, player: int | None) -> list[Action]:
        if self._py is not None:
            return list(self._py.legal_actions(player))
        seat = self._seat(player)
        return [] if seat is None else [entry[0] for entry in self._options(seat)]

    def _legal_action_ids(self, player: int | None) -> list[int]:
        if self._py is not None:
            return list(self._py.legal_action_ids(player))
        seat = self._seat(player)
        if seat is None:
            return []
        ids = [entry[1] for entry in self._options(seat)]
        if not all(type(a) is int for a in ids):
            ids = self._entry_ids(seat)
            if None in ids:  # (the Python state says why some option has no id)
                return list(self.python_state().legal_action_ids(player))
        return sorted(set(ids))  # type: ignore[arg-type]  # (copies sharing an id: one, ascending)

    def legal_actions_mask(self, player: int | None = None) -> list[int]:
        if self._py is not None:
            return list(self._py.legal_actions_mask(player))
        mask = [0] * self._game.action_space(self.n).size
        for a in self.legal_action_ids(player):
            mask[a] = 1
        return mask

    def _find(self, seat: int, action: Any, by_id: bool) -> int | None:
        options = self._options(seat)
        if by_id:
            if type(action) is int:
                ids = [entry[1] for entry in options]
                if not all(type(a) is int for a in ids):
                    ids = self._entry_ids(seat)
                for k, a in enumerate(ids):
                    if a == action:
                        return k
            return None
        for k, entry in enumerate(options):
            if entry[0] is action:
                return k
        for k, entry in enumerate(options):
            if entry[0] == action:
                return k
        return None

    def _apply_action(self, action: Action | str, player: int | None) -> None:
        if self._py is None:
            if self._wait is not None and isinstance(action, str):
                named, rest = split_pick(action)
                if named is not None and (player is None or player == named):
                    action, player = rest, named
            seat = self._seat(player)
            k = None if seat is None else self._find(seat, action, False)
            if k is not None:
                assert seat is not None
                self._take(seat, k)
                return
        self.python_state().apply_action(action, player)  # (it says what is wrong, or plays on)

    def _apply_action_id(self, action: int, player: int | None) -> None:
        if self._py is None:
            seat = self._seat(player)
            k = None if seat is None else self._find(seat, action, True)
            if k is not None:
                assert seat is not None
                self._take(seat, k)
                return
        self.python_state().apply_action_id(action, player)

    def apply_actions(self, joint: Sequence[Action | str | None]) -> None:
        self._joint(joint, False)

    def apply_action_ids(self, joint: Sequence[int | None]) -> None:
        self._joint(joint, True)

    def _joint(self, joint: Sequence[Any], by_id: bool) -> None:
        """A simultaneous step's picks at once, checked whole (anything amiss: the
        Python state says what, changing nothing)."""
        if self._py is None and self._wait is not None and isinstance(joint, Sequence) \
                and not isinstance(joint, str | bytes) and len(joint) == self.n:
            waiting = [p for p in self._wait if p not in self._picks]
            picks = [(p, self._find(p, joint[p], by_id)) for p in waiting]
            if all(k is not None for _, k in picks) and \
                    all(joint[p] is None for p in range(self.n) if p not in waiting):
                for p, k in picks:
                    assert k is not None
                    self._take(p, k)
                return
        state = self.python_state()
        if by_id:
            state.apply_action_ids(joint)
        else:
            state.apply_actions(joint)

    def _take(self, seat: int, k: int) -> None:
        """Option k of `seat`: a decision, or a pick of a simultaneous step (the last
        one carries the step out)."""
        text = self._options(seat)[k][0].text
        if self._wait is None:
            self._history.append(text)
            self._listing = self._ids = None
            self._status = self._answer(k)
        else:
            self._history.append(pick_text(seat, text))
            self._picks[seat] = k
            if len(self._picks) < len(self._wait):
                return
            self._status = self._answer_all([self._picks.get(p, -1) for p in range(self.n)])
        if self._status < 0:
            self._hand_over()
            return
        self._stopped()

    def _returns(self) -> list[float]:
        if self._py is not None:
            return list(self._py.returns())
        return [0.0] * self.n


class _FaceView:
    """What the action space reads of a state to number an option that names a card
    (runtime/action_space.py `id_of`, runtime/faces.py `of`): the decision waiting, each
    copy's definition and the attributes set on copies. A native state's own cards give
    the last two, read from the struct copy by copy, so an id needs neither the Python
    state of the history nor a list of every card."""

    __slots__ = ("attrs", "card_def", "pending")

    def __init__(self, state: Any):
        self.card_def, self.attrs, self.pending = _Kinds(state), _Attrs(state), None

    def bind(self, state: Any) -> None:
        """Read `state`'s cards from now on (one view serves every state of a game)."""
        self.card_def._state = self.attrs._state = state


class _Kinds:
    """`card_def[iid]` of a native state's struct."""

    __slots__ = ("_state",)

    def __init__(self, state: Any):
        self._state = state

    def __getitem__(self, iid: int) -> int:
        return int(self._state._card_kind(iid))


class _Attrs:
    """`attrs.get((iid, name))` of a native state's struct."""

    __slots__ = ("_state",)

    def __init__(self, state: Any):
        self._state = state

    def get(self, key: tuple[int, str], default: Any = None) -> Any:
        value = self._state._card_attr(*key)
        return default if value is None else value


def _face_pendings(game: Any) -> dict[Any, Any]:
    """The engine's pending decision of each option learned whose id is worked out each
    time, by the player count and the option's key (a module's keys are its own)."""
    found: dict[Any, Any] = game.__dict__.setdefault("_face_pendings", {})
    return found


def _varied_cards(game: Any, space: Any) -> Any:
    """A pattern matching the copies (`card-id#N`) of the definitions whose face their
    attributes tell (runtime/faces.py), whose ids change as the game goes; None when
    no definition's does."""
    faces = space.faces
    if not faces.varied:
        return None
    kept: dict[int, Any] = game.__dict__.setdefault("_varied_cards", {})  # (by the faces' table)
    found = kept.get(id(faces))
    if found is None:
        ids = [game.definition.cards[d].id for d, names in enumerate(faces.names) if names]
        found = kept[id(faces)] = re.compile("|".join(rf"(?<![\w-]){re.escape(i)}#\d" for i in ids))
    return found


_VIEW = _FaceView(None)  # (the view `_face_id` reads a state's cards through, bound to one at a time)
_CLASSES: dict[str, type] = {}  # a module's state class, by the module's name (its source's hash)


def new_native_state(module: Any, game: Any, n: int, seed: int, seats: list[Any],
                     policies: tuple[list[int], list[int], list[int]]) -> Any:
    """A new state of `game` on `module` (a per-step module), run to its first stop."""
    cls = _CLASSES.get(module.__name__)
    if cls is None:
        option_cache.load(module, game.engine_id)  # (the options an earlier process learned)
        kept = {"__slots__": (), "_module": module}
        cls = _CLASSES[module.__name__] = type("NativeState", (module.Stepper, NativeState), kept)
    state = cls()
    state._game, state.n, state.seed, state._seats = game, n, seed, seats
    state._history, state._py, state._base, state._oracle = [], None, None, None
    state._status = state._start(seed & ((1 << 64) - 1), *policies)
    if state._status < 0:
        state._take_over()
    else:
        state._stopped()
    return state
