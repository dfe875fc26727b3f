"""The orrery state behind one pyspiel state of the OpenSpiel adapter
(adapters/openspiel.py): the engine's State, the moves that led to it (pyspiel's
history, kept here since pyspiel's C++ one cannot be shortened or copied from Python),
and the steps its information states are written from, recorded only once one is
asked for. Moves are made, undone (by replay), counted against the rules' max_moves,
copied, and pickled for pyspiel's serialization (a game's text, a save and the moves,
restored by replaying the moves and checking the save).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

import pyspiel

from interpreter.diagnostics import GameError, IllegalActionError, RuleRuntimeError
from interpreter.runtime.actions import Action
from interpreter.runtime.learning import Seen, Steps, action_of_id, begin_step, open_steps, record_step
from interpreter.runtime.simultaneous import SIMULTANEOUS
from interpreter.runtime.state import State

if TYPE_CHECKING:
    from interpreter.adapters.openspiel import OrreryGame


class PlayerAction(NamedTuple):
    """One entry of `full_history()`, with pyspiel.PlayerAction's fields (pyspiel's own
    cannot be made from Python)."""

    player: int
    action: int


# One pyspiel history entry: (player, id, one seat's part of a joint action given seat by seat)
Move = tuple[int, int, bool]
CHANCE = int(pyspiel.PlayerId.CHANCE)


class Core:
    """The orrery state behind a pyspiel state, the steps seen so far, and the moves
    that led there (each one pyspiel history entry: a decision or chance outcome
    `(player, id)`, a flat joint action `(SIMULTANEOUS, flat)`, or one per seat of a
    joint action given seat by seat), which undoing and restoring replay.

    pyspiel clones a Python state by making a new initial state and deep-copying the
    attributes over it: this one copies itself with `State.clone()` (a deep copy of a
    state would copy the whole rule set), and the new state it replaces was never made.
    pyspiel also makes a throwaway initial state each time it needs the tensor's shape.
    So a state is made only when first looked at, and a random game's seed is taken for
    good only when the game is played (`state`): a state only observed (`peek`) takes
    the next seed without using it up. pyspiel serializes a Python state by pickling
    its attributes: this one pickles as the game's text, the state's save
    (runtime/saves.py) and the moves, and is restored by replaying the moves from the
    save's seed, checked against the save."""

    # Slots: a clone sets every one of them, and tree walks clone more than anything else.
    __slots__ = ("_ids", "_played", "_shared", "_state", "_steps", "current", "decisions", "game", "moves", "real")

    def __init__(self, game: OrreryGame, state: State | None = None, steps: Steps | None = None,
                 moves: list[Move] | None = None):
        self.game, self._state, self._steps = game, state, steps
        self._played = state is not None
        self.moves: list[Move] = [] if moves is None else moves
        self._shared: Seen | None = None  # the last step's views, kept as the live state itself
        # The legal actions of the player to act now by id, once listed, until the next
        # move: a tree walk lists them once and then makes a child for each, and a clone
        # shares them (its state shares the listing, so they are the very actions).
        self._ids: dict[int, Action] | None = None
        self.current = True  # the last step's views are of this state (not so for a resampled world)
        self.real = True  # not a world resampled from someone's information (nor made from one)
        self.decisions = sum(player != CHANCE and not (seat and player > 0) for player, _, seat in self.moves)

    @property
    def steps(self) -> Steps:
        """The events so far and the views after them. Recorded as moves are made once
        an information state of a state of this game was asked for; until then only the
        moves are kept, and the first ask (or move after it) replays them, so playing
        games no one asks about costs no recording."""
        if self._steps is None:
            self.game.recording = True  # from now on, this game's states record as they go
            st = self.peek()
            if not self.moves:
                self._steps = open_steps(st, self.game.rules.action_space(st.n))
            else:
                self._steps = self.game.replays.steps(self.game, st.seed, self.moves)
        return self._steps

    def _unshare(self) -> None:
        """Before the state changes: the last step's views get their own copy of it."""
        if self._shared is not None:
            self._shared.detach()
            self._shared = None

    def peek(self) -> State:
        if self._state is None:
            self._state = self.game.new_engine_state(self.game.next_seed)
        return self._state

    @property
    def state(self) -> State:
        if self._played:  # (the usual case, first: asked several times a move)
            return self._state  # type: ignore[return-value]
        st = self.peek()
        self._played = True
        self.game.next_seed = max(self.game.next_seed, st.seed + 1)
        return st

    def __deepcopy__(self, memo: dict[int, Any] | None) -> Core:
        # Every attribute of __init__, set directly: a clone is the call tree walks make most.
        twin = _new_core(Core)
        steps = self._steps
        twin.game, twin._state, twin._played = self.game, self.state.clone(), True
        twin._steps = None if steps is None else steps.copy()
        twin.moves, twin.decisions, twin.current, twin.real = self.moves.copy(), self.decisions, self.current, self.real
        twin._shared, twin._ids = None, self._ids
        return twin

    def __reduce__(self) -> tuple[Any, ...]:
        st = self.state
        return (restored_core, (str(self.game), st.to_json(), list(self.moves)))

    # ---- moves ------------------------------------------------------------------------

    def legal_ids(self) -> dict[int, Action]:
        """The legal actions of the player to act (a decision, not a chance node nor a
        simultaneous step) by id, ascending; kept until the next move."""
        if self._ids is None:
            st = self.state
            self._ids = self.game.rules.action_space(st.n).legal(st) if not st.terminal else {}
        return self._ids

    def apply(self, action: int) -> None:
        """One id: a decision, a chance outcome, or a flat joint action."""
        st = self.state
        if type(st) is not State and getattr(st, "native", False) and self._steps is None and not self.game.recording \
                and not st.is_simultaneous_node():  # a native state (native_state.py), nothing recorded
            player = int(st.current_player())
            st.apply_action_id(action)  # (IllegalActionError, changing nothing, for an id not legal now)
            self._ids = None
            self.moves.append((player, action, False))
            self._decided()
            return
        if st.is_simultaneous_node():
            self._joint(self.joint_of_flat(action))
            self._ids = None
            self.moves.append((SIMULTANEOUS, action, False))
            self._decided()
            return
        space = self.game.rules.action_space(st.n)
        player = int(st.current_player())
        # Either raises, changing nothing, when the id is not legal (not an outcome) now.
        if st.is_chance_node():
            chosen = space.chance_action(st, action)
        else:
            known = self.legal_ids().get(action) if type(action) is int else None
            chosen = known if known is not None else action_of_id(st, space, action)
        self._ids = None
        steps = self._steps if self._steps is not None or not self.game.recording else self.steps
        if steps is None:  # no information state asked: the move alone is kept
            st.apply_action(chosen)
        else:
            self._unshare()
            pending = begin_step(st, chosen, space)
            st.apply_action(chosen)
            self._shared = record_step(steps, pending, st, share=True)
            self.current = True
        self.moves.append((player, action, False))
        if player != CHANCE:
            self._decided()

    def apply_joint(self, actions: list[int]) -> None:
        st = self.state
        if not st.is_simultaneous_node():
            raise IllegalActionError("apply_actions is for a simultaneous step; this state waits for "
                                     f"{'no one' if st.is_terminal() else f'P{st.current_player() + 1} alone'}")
        if len(actions) != st.n:
            raise IllegalActionError(f"a joint action has one action per seat ({st.n}), got {len(actions)}")
        self._joint([int(a) for a in actions])
        self._ids = None
        self.moves.extend((p, int(a), True) for p, a in enumerate(actions))
        self._decided()

    def _joint(self, actions: list[int]) -> None:
        """One action per seat; a seat with nothing to pick may give anything (OpenSpiel
        passes 0 or -1). All are checked before any is made."""
        st = self.state
        space = self.game.rules.action_space(st.n)
        picks = [(p, action_of_id(st, space, a, p)) for p, a in enumerate(actions) if st.pending_for(p)]
        steps = self._steps if self._steps is not None or not self.game.recording else self.steps
        for p, chosen in picks:
            if steps is None:
                st.apply_action(chosen, p)
                continue
            self._unshare()
            pending = begin_step(st, chosen, space, p)
            st.apply_action(chosen, p)
            self._shared = record_step(steps, pending, st, share=True)
            self.current = True

    def joint_of_flat(self, flat: int) -> list[int]:
        """A flat joint action as one action per seat (OpenSpiel's FlatJointActionToActions:
        the first seat's index among its legal actions is the lowest digit)."""
        st = self.state
        joint = []
        for p in range(st.n):
            legal = st.legal_action_ids(p)
            if legal:
                joint.append(legal[flat % len(legal)])
                flat //= len(legal)
            else:
                joint.append(-1)
        return joint

    def _decided(self) -> None:
        """One more decision (a joint action once), checked against the rules' max_moves."""
        self.decisions += 1
        limit = self.game.declared_moves
        if limit is not None and self.decisions > limit:
            raise RuleRuntimeError(f"the game has taken {self.decisions} decisions, more than the rules' "
                                   f"max_moves ({limit})", code="max-moves")

    def replayed(self, moves: list[Move]) -> Core:
        """A new core: this game from this state's seed, with `moves` made again."""
        core = Core(self.game, self.game.new_engine_state(self.state.seed))
        core.replay(moves)
        return core

    def replay(self, moves: list[Move]) -> None:
        """Make `moves` (history entries) again from this core's state."""
        n, at = self.state.n, 0
        while at < len(moves):
            if moves[at][2]:  # a joint action, seat by seat
                self.apply_joint([int(m[1]) for m in moves[at:at + n]])
                at += n
            else:
                self.apply(int(moves[at][1]))
                at += 1


class Replays:
    """The replays one game's states were recorded by, kept by (seed, moves) for the
    states asked after them: a tree walk makes its states first and asks their
    information states after (OpenSpiel's `get_all_states` then a tabular policy), so
    a state asked replays from the longest prefix of its moves already replayed (its
    parent's, the usual case) instead of from the start. A kept replay never moves on:
    a state takes a copy of its steps (records only grow, and copies share their
    beginning, as clones do), and a longer replay starts from a clone of it."""

    LIMIT = 4096  # replays kept per game; emptied when full

    def __init__(self) -> None:
        self._done: dict[tuple[int, tuple[Move, ...]], Core] = {}

    def steps(self, game: OrreryGame, seed: int, moves: list[Move]) -> Steps:
        """The steps of the state made by `moves` from `seed` (a new list: the caller's)."""
        wanted = tuple(moves)
        done, core, at = self._done, None, 0
        for cut in range(len(wanted), 0, -1):  # the longest prefix replayed (a whole one when asked again)
            found = done.get((seed, wanted[:cut]))
            if found is not None:
                core, at = found.__deepcopy__({}), cut
                break
        if core is None:
            core = Core(game, game.new_engine_state(seed), [])
            core._steps = open_steps(core.state, game.rules.action_space(core.state.n))
        core.replay(list(wanted[at:]))  # (a prefix kept is a whole state's moves: joint actions are whole)
        if len(done) >= self.LIMIT:
            done.clear()
        done[(seed, wanted)] = core
        return list(core._steps or ())


_new_core = object.__new__


def restored_core(game_text: str, save: str, moves: list[Move]) -> Core:
    """A pickled core (see Core): its game loaded by name (registered in this process
    by `openspiel.load`), its moves replayed, the result checked against the save."""
    game = pyspiel.load_game(game_text)
    saved = game.rules.state_from_json(save)  # a damaged save is refused here, with the reason
    core = Core(game, saved).replayed([(int(p), int(a), bool(j)) for p, a, j in moves])
    if core.state != saved:
        raise GameError("the serialized state is not the one its moves lead to: refused")
    return core
