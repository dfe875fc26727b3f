"""Any orrery game as an OpenSpiel game: `interpreter.openspiel.load("kuhn-poker")`
returns a `pyspiel.Game` that OpenSpiel's Python algorithms (tree walks, CFR, MCTS...)
use like one of its own. See docs/openspiel.md.

Each rule set (a game with its variants and overlays) is registered once with
`pyspiel.register_game`, under `orrery_<id>` (letters, digits and `_`), so
`pyspiel.load_game("orrery_kuhn_poker(players=2)")` works too once it is loaded.
Its GameType comes from the rules:

* dynamics SEQUENTIAL (one seat decides at a time), or SIMULTANEOUS when an effect
  has a simultaneous step (`take actions GROUP simultaneously`): there
  `current_player()` is SIMULTANEOUS, `legal_actions(p)` each seat's, and
  `apply_actions` takes one action per seat (any value, OpenSpiel passes 0, for a seat
  with no legal action); `apply_action` there takes a flat joint action, numbered as
  OpenSpiel's own simultaneous games number them (docs/simultaneous.md);
* chance DETERMINISTIC when no effect draws a random number, else
  EXPLICIT_STOCHASTIC: states are made with explicit chance (docs/chance.md), so
  every random event is a chance node where `current_player()` is CHANCE and
  `chance_outcomes()` lists the outcomes as chance ids (action_space.py) with their
  probabilities. A game whose outcomes cannot all be numbered (a `random` whose bounds
  are not read from the rules), or one loaded with `chance="sampled"`, is
  SAMPLED_STOCHASTIC instead: the engine draws the random numbers itself from the
  state's seed, and each new game played takes the next seed from the `seed`
  parameter on;
* information PERFECT when every zone and counter is visible to all (zone order
  included), else IMPERFECT;
* utility and its bounds from the rules' `utility:` declaration (checked by the engine
  as each game ends), else safe ones: +1/-1/0 outcomes without a `returns` rule (ZERO_SUM
  when two play: the GameType of each game object is that of its player count),
  GENERAL_SUM with one; the `utility`, `min_utility`, `max_utility` options override;
  reward model TERMINAL;
* max_game_length the rules' `max_moves` (checked as moves are made), else the bound
  their flow gives (Game.max_decisions), else a cap; the information-state tensor sized
  by the events the rules bound (Game.max_events) or the `max_events` option, and not
  provided where neither bounds them (no size would be honest).

The rule file's constants (numbers, words, flags) and variants are game parameters
(adapters/parameters.py). States serialize (pyspiel pickles their attributes: a `Core`
pickles as its game's text, its save and its moves, and is restored by replaying them)
and undo their last move (by replay); their moves, history and information-state
record live in adapters/openspiel_core.py. The calls algorithms make most are answered
in Python, not through pyspiel's C++ and back (docs/openspiel.md, "Speed").

Integer actions, observation strings and tensors, and information-state strings are
those of the core API (docs/learning.md); the information state is recorded as the
game is played once one is asked for, and remembered by moves where moves decide it.
"""

from __future__ import annotations

import operator
import random
import re
from typing import Any

try:
    import numpy as np
    import pyspiel
except ImportError as err:  # pragma: no cover - depends on what is installed
    raise ImportError(f"the OpenSpiel adapter needs open_spiel and numpy ({err}); "
                      "install them with: pip install 'orrery[openspiel]'") from None

from interpreter.adapters.openspiel_core import CHANCE, Core, Move, PlayerAction, Replays
from interpreter.adapters.parameters import Source, parameters_of, rules_with, source_of
from interpreter.diagnostics import GameError, IllegalActionError
from interpreter.game import Game, load_game
from interpreter.native.status import native_mode
from interpreter.runtime.learning import (
    Seen,
    information_state_string,
)
from interpreter.runtime.records import PendingActions
from interpreter.runtime.simultaneous import SIMULTANEOUS
from interpreter.runtime.state import State

MEMO_CHARS = 1 << 25  # characters of information states a game remembers (then it starts again)
MAX_GAME_LENGTH = 10_000  # a bound OpenSpiel needs; pass max_game_length for a tighter one
FROM_RULES = -1  # the `max_events` parameter's default: the rules' bound (Game.max_events)
_UTILITIES = {
    "zero_sum": pyspiel.GameType.Utility.ZERO_SUM,
    "constant_sum": pyspiel.GameType.Utility.CONSTANT_SUM,
    "general_sum": pyspiel.GameType.Utility.GENERAL_SUM,
    "identical": pyspiel.GameType.Utility.IDENTICAL,
}
_CHANCE = pyspiel.GameType.ChanceMode
_CHANCE_OPTIONS = ("explicit", "sampled")
_registered: dict[str, tuple[str, Game, dict[str, Any]]] = {}  # short name -> (rules hash, game, defaults)
_sources: dict[str, tuple[Source | None, dict[str, Any], dict[str, str]]] = {}  # -> (source, parameters, flags)
_types: dict[str, Any] = {}  # short name -> its pyspiel.GameType
_classes: dict[str, type[OrreryGame]] = {}  # short name -> its game class
_utility_option: dict[str, str | None] = {}  # short name -> the `utility` option it was loaded with
_types_by_kind: dict[tuple[str, str, str, bool], Any] = {}  # (short name, rules hash, utility) -> its GameType


def load(game: str | Game, *, players: int | None = None, seed: int = 0, variants: list[str] | tuple[str, ...] = (),
         overlays: list[str] | tuple[str, ...] = (), utility: str | None = None, min_utility: float | None = None,
         max_utility: float | None = None, max_game_length: int | None = None, chance: str | None = None,
         max_events: int | None = None, parameters: dict[str, Any] | None = None, native: str = "off") -> Any:
    """An orrery game (an id, a path, or a loaded Game) as a `pyspiel.Game` for
    `players` seats (default: the game's default). `seed` seeds the first new game
    (the next ones take the following seeds). `utility` is one of zero_sum,
    constant_sum, general_sum, identical; `min_utility`/`max_utility` bound the
    returns of a game that declares `returns` (default -1 and 1 otherwise). `chance`
    is "explicit" (chance nodes) or "sampled" (the engine draws); by default explicit
    when every chance outcome of the game has a chance id. `max_events` bounds the
    events (decisions and chance outcomes) the information-state tensor holds
    (default: the rules' bound, Game.max_events; a game they do not bound has no
    tensor unless it is given; runtime/info_tensor.py). `parameters` sets the game's own parameters:
    its constants and variant flags (adapters/parameters.py). `native` "auto" or "on"
    plays the states on the native backend where the rules allow it (docs/native.md:
    the same ids, moves and returns, each decision in C)."""
    rules = game if isinstance(game, Game) else load_game(game, variants=list(variants), overlays=list(overlays))
    if utility is not None and utility not in _UTILITIES:
        raise GameError(f"utility '{utility}' is not one of {', '.join(_UTILITIES)}")
    if chance is not None and chance not in _CHANCE_OPTIONS:
        raise GameError(f"chance '{chance}' is not one of {', '.join(_CHANCE_OPTIONS)}")
    n = rules.definition.default_players if players is None else players
    rules.num_distinct_actions(n)  # checks the player count and that the actions can be numbered
    name = _register(rules, utility, chance, n, source_of(game, tuple(variants), tuple(overlays)))
    params: dict[str, Any] = {**(parameters or {}), "players": n, "seed": int(seed)}
    unknown = sorted(set(parameters or {}) - set(_sources[name][1]))
    if unknown:
        raise GameError(f"{rules.name} has no parameter {', '.join(unknown)}; its parameters: "
                        f"{', '.join(_sources[name][1]) or 'none'}")
    if min_utility is not None:
        params["min_utility"] = float(min_utility)
    if max_utility is not None:
        params["max_utility"] = float(max_utility)
    if max_game_length is not None:
        params["max_game_length"] = int(max_game_length)
    if max_events is not None:
        params["max_events"] = int(max_events)
    mode = native_mode(native)
    made = _classes[name](params)
    made.native = mode
    if mode == "on":
        made.new_engine_state(seed)  # (says now, as a GameError, why the states cannot be native)
    return made


def short_name(rules: Game, utility: str | None = None, chance: str | None = None) -> str:
    """The name a rule set is registered under (`orrery_kuhn_poker`); a `chance`
    option other than the game's default is part of it (`orrery_kuhn_poker_sampled`)."""
    base = "orrery_" + re.sub(r"[^a-z0-9_]", "_", rules.id.lower())
    if rules.definition.variants or rules.definition.overlays:
        base += "_" + rules.definition.data_hash[:8]
    if utility is not None:
        base += f"_{utility}"
    if chance is not None and chance != default_chance(rules, rules.definition.default_players):
        base += f"_{chance}"
    return base


def default_chance(rules: Game, players: int) -> str:
    """"explicit" when the game draws random numbers and each of their outcomes has a
    chance id, else "sampled"."""
    return "explicit" if rules.uses_chance() and rules.action_space(players).chance_complete else "sampled"


def utility_kind(rules: Game, players: int) -> str:
    """The utility the rules declare (`utility:`), else what is safe to say: a game
    without a `returns` rule gives +1/-1/0 by outcome, zero-sum for two players."""
    spec = rules.definition.utility
    if spec is not None:
        return spec.kind.replace("-", "_")
    return "zero_sum" if rules.definition.scoring.returns is None and players == 2 else "general_sum"


def utility_bounds(rules: Game, players: int) -> tuple[float, float]:
    """The bounds of one player's return: declared (`utility: min, max`), else those of
    +1/-1/0 outcomes (-1 and 1; a game with a `returns` rule should declare them)."""
    spec = rules.definition.utility
    low = spec.low if spec is not None and spec.low is not None else -1.0
    high = spec.high if spec is not None and spec.high is not None else 1.0
    return low, high


def _game_type(name: str, rules: Game, kind: str, mode: str, defaults: dict[str, Any], tensor: bool) -> Any:
    gd = rules.definition
    return pyspiel.GameType(
        short_name=name,
        long_name=f"orrery: {gd.name}",
        dynamics=(pyspiel.GameType.Dynamics.SIMULTANEOUS if gd.facts.uses_simultaneous
                  else pyspiel.GameType.Dynamics.SEQUENTIAL),
        chance_mode=(_CHANCE.DETERMINISTIC if not rules.uses_chance()
                     else _CHANCE.EXPLICIT_STOCHASTIC if mode == "explicit" else _CHANCE.SAMPLED_STOCHASTIC),
        information=(pyspiel.GameType.Information.PERFECT_INFORMATION if not gd.hides_anything()
                     else pyspiel.GameType.Information.IMPERFECT_INFORMATION),
        utility=_UTILITIES[kind],
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=gd.max_players,
        min_num_players=gd.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=tensor,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=defaults,
    )


def _own_limits(rules: Game, players: int) -> dict[str, Any]:
    """The bounds the rules give a game for this many seats: of the returns, of its
    length in decisions (MAX_GAME_LENGTH, a cap only, where they bound none) and, as
    FROM_RULES, of the information-state tensor's events."""
    low, high = utility_bounds(rules, players)
    return {"min_utility": low, "max_utility": high,
            "max_game_length": rules.max_decisions(players) or MAX_GAME_LENGTH, "max_events": FROM_RULES}


def _register(rules: Game, utility: str | None, chance: str | None = None, players: int | None = None,
              source: Source | None = None) -> str:
    n = rules.definition.default_players if players is None else players
    mode = chance or default_chance(rules, n)
    # Named by the mode used (not the option given): at a player count whose default
    # differs from the default count's, the name says so, and no two chance modes
    # share a name.
    name = short_name(rules, utility, mode)
    known = _registered.get(name)
    if known is not None and known[0] != rules.definition.data_hash:
        name = f"{name}_{rules.definition.data_hash[:8]}"  # another rule set with this id
        known = _registered.get(name)
    if known is not None:
        _registered[name] = (known[0], rules, known[2])
        if source is not None:
            _sources[name] = (source, *_sources[name][1:])
        return name
    gd = rules.definition
    defaults: dict[str, Any] = {"players": gd.default_players, "seed": 0, **_own_limits(rules, gd.default_players)}
    own, flags = parameters_of(rules, set(defaults))
    _sources[name] = (source, own, flags)
    defaults.update(own)
    tensor = rules.max_events(n) is not None
    game_type = _game_type(name, rules, utility or utility_kind(rules, n), mode, defaults, tensor)
    _registered[name] = (gd.data_hash, rules, defaults)
    _types[name] = game_type
    _utility_option[name] = utility
    # One class per rule set, registered as its creator: pyspiel keeps the creator past
    # the interpreter's end, and a class (unlike a function) is never freed that late.
    _classes[name] = type(f"OrreryGame_{name}", (OrreryGame,), {"short_name": name})
    if name not in pyspiel.registered_names():
        pyspiel.register_game(game_type, _classes[name])
    return name


class OrreryGame(pyspiel.Game):  # type: ignore[misc]
    """An orrery rule set for a number of players, as a pyspiel Game (one subclass
    per registered rule set names it in `short_name`)."""

    short_name = ""

    def __init__(self, params: dict[str, Any] | None = None):
        name = self.short_name
        _, base, defaults = _registered[name]
        given = dict(params or {})
        source, own, flags = _sources[name]
        rules = rules_with(source, base, own, flags, {**own, **given})
        players = int(given.get("players", defaults["players"]))
        rules.num_distinct_actions(players)  # checks the player count (GameError)
        # These rules' own bounds and length for this many seats (other parameters, another
        # player count), unless given other than the registered defaults (pyspiel passes
        # every default along with what is given).
        theirs = _own_limits(rules, players)
        given.update({k: v for k, v in theirs.items() if given.get(k, defaults[k]) == defaults[k]})
        values = {**defaults, **given}
        self.rules: Game = rules
        self.num_seats = players
        self.next_seed = int(values["seed"])  # the seed of the next random game played
        # The events the information-state tensor holds: given, else the rules' bound;
        # None (no bound) and the game provides no tensor.
        events = int(values["max_events"])
        self.max_events: int | None = rules.max_events(players) if events == FROM_RULES else events
        self.recording = False  # some information state was asked: states record their steps (Core)
        self.native = "off"  # states on the native backend (load's `native`)
        self.replays = Replays()  # the replays asked so far, for states made before recording began
        game_type = self._type_for(name, rules, self.num_seats, self.max_events is not None)
        self.explicit = game_type.chance_mode == _CHANCE.EXPLICIT_STOCHASTIC  # states stop at chance nodes
        # Information states by (player, moves): with every random event a chance node (or
        # none), the moves decide the state, so the same moves give the same string; a
        # game drawn by the engine from a seed keeps none.
        self.memo: dict[tuple[int, tuple[Move, ...]], str] | None = (
            None if game_type.chance_mode == _CHANCE.SAMPLED_STOCHASTIC else {})
        self.memo_chars = 0
        self.simultaneous = game_type.dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
        # The rules' max_moves, checked as moves are made (an option given is a bound only).
        self.declared_moves = rules.definition.max_moves
        space = rules.action_space(self.num_seats)
        total = (0.0 if game_type.utility == pyspiel.GameType.Utility.ZERO_SUM
                 else rules.definition.utility.total
                 if game_type.utility == pyspiel.GameType.Utility.CONSTANT_SUM and rules.definition.utility is not None
                 else None)
        info = pyspiel.GameInfo(
            num_distinct_actions=space.size,
            max_chance_outcomes=space.chance_size if self.explicit else 0,
            num_players=self.num_seats,
            min_utility=float(values["min_utility"]),
            max_utility=float(values["max_utility"]),
            utility_sum=total,
            max_game_length=int(values["max_game_length"]),
        )
        super().__init__(game_type, info, {k: values[k] for k in defaults})

    @staticmethod
    def _type_for(name: str, rules: Game, players: int, tensor: bool) -> Any:
        """The registered GameType, or the one of these rules (other parameters) with
        the utility of this player count (a game may be zero-sum for two players only)
        unless the `utility` option chose it, and an information-state tensor where its
        events are bounded."""
        registered = _types[name]
        kind = _utility_option[name] or utility_kind(rules, players)
        if (registered.utility == _UTILITIES[kind] and rules is _registered[name][1]
                and registered.provides_information_state_tensor == tensor):
            return registered
        key = (name, rules.definition.data_hash, kind, tensor)
        if key not in _types_by_kind:
            mode = "sampled" if registered.chance_mode == _CHANCE.SAMPLED_STOCHASTIC else "explicit"
            _types_by_kind[key] = _game_type(name, rules, kind, mode, _registered[name][2], tensor)
        return _types_by_kind[key]

    def new_initial_state(self, state: Any = None) -> OrreryState:
        """A new game; a random game takes the next seed (see Core)."""
        return OrreryState(self)

    def new_engine_state(self, seed: int) -> State:
        """The orrery state of a new game with this seed."""
        mode = "explicit" if self.explicit else "seeded"
        state: State = self.rules.new_initial_state(self.num_seats, seed=seed, chance=mode, native=self.native)
        return state

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return _Observer(self, perfect_recall)


_new_state, _init_state = pyspiel.State.__new__, pyspiel.State.__init__


class OrreryState(pyspiel.State):  # type: ignore[misc]
    """One orrery state as a pyspiel State (`.core.state` is the orrery State)."""

    def __init__(self, game: OrreryGame):
        super().__init__(game)
        self.core = Core(game)

    def current_player(self) -> int:
        # CHANCE (-1) at a chance node (explicit chance), SIMULTANEOUS (-2) in a simultaneous step
        return self.core.state.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        st = self.core.state
        if player == SIMULTANEOUS:  # flat joint actions, as OpenSpiel's SimMoveState lists them
            if not st.is_simultaneous_node():
                return []
            count = 1
            for p in range(st.n):
                count *= max(len(st.legal_action_ids(p)), 1)
            return list(range(count))
        return st.legal_action_ids(player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The outcomes of the chance node as (chance id, probability), ids ascending."""
        st = self.core.state
        space = self.core.game.rules.action_space(st.n)
        odds = [p for _, p in st.chance_outcomes()]
        return [(a, sum(odds[i] for i in at)) for a, at in space.chance_groups(st).items()]

    def _apply_action(self, action: int) -> None:
        self.core.apply(action)

    def _apply_actions(self, actions: list[int]) -> None:
        self.core.apply_joint(actions)

    # ---- the calls algorithms make most, answered in Python: pyspiel's own go through
    # C++ and back (the underscored methods above, which C++ callers still use). A state
    # changed this way leaves pyspiel's C++ history behind: the history is this state's
    # own record (below), as after an undo.

    def legal_actions(self, player: int | None = None) -> list[int]:
        st = self.core.state
        if player is None:
            player = st.current_player()
        if player == SIMULTANEOUS:
            return self._legal_actions(player)
        if type(st) is not State and getattr(st, "native", False):  # a native state (native_state.py) answers in C
            return st.legal_action_ids(player) if player >= 0 else []
        if player >= 0 and not st.terminal and type(st.pending) is PendingActions and st.pending.player == player:
            return list(self.core.legal_ids())  # the usual case: kept until the next move
        return st.legal_action_ids(player) if player >= CHANCE else []

    def apply_action(self, action: int) -> None:
        self.core.apply(operator.index(action))

    def apply_actions(self, actions: list[int]) -> None:
        self.core.apply_joint([operator.index(a) for a in actions])

    def is_chance_node(self) -> bool:
        return self.core.state.is_chance_node()

    def is_simultaneous_node(self) -> bool:
        return self.core.state.is_simultaneous_node()

    def is_player_node(self) -> bool:
        return self.core.state.current_player() >= 0

    def clone(self) -> OrreryState:
        """A copy (pyspiel's own clone, made in C++, would make a new state and deep-copy
        its attributes; this skips the round trip). Its C++ history starts empty: Python
        callers read the history this state keeps (below)."""
        core = self.core
        twin = _new_state(OrreryState)
        _init_state(twin, core.game)  # (no Core of its own: this one's copy is its)
        twin.core = core.__deepcopy__(None)
        return twin

    def __deepcopy__(self, memo: dict[int, Any]) -> OrreryState:
        """`copy.deepcopy(state)` is a clone too (the default would pickle the state
        through pyspiel's __getstate__ and replay it: ~100 times slower)."""
        return self.clone()

    def child(self, action: int) -> OrreryState:
        """A copy with `action` applied."""
        twin = self.clone()
        twin.apply_action(action)
        return twin

    # ---- undo: pyspiel keeps a Python state's history in C++, out of reach, so after an
    # undo the history is the one this state keeps (the moves), for Python callers.

    def undo_action(self, player: int, action: int) -> None:
        """Take back the last move, `(player, action)` as the history's last entry has
        it (OpenSpiel's UndoAction): the game is replayed from its seed without it (time
        grows with the game's length). A move given seat by seat is taken back whole
        from its last seat's entry."""
        moves = self.core.moves
        if not moves or (int(player), int(action)) != moves[-1][:2]:
            last = f"({moves[-1][0]}, {moves[-1][1]})" if moves else "none: no move was made"
            raise IllegalActionError(f"undo_action({player}, {action}): the last move is {last}")
        keep = len(moves) - (self.core.state.n if moves[-1][2] else 1)
        self.core = self.core.replayed(moves[:keep])

    def history(self) -> list[int]:
        return [m[1] for m in self.core.moves]

    def full_history(self) -> list[Any]:
        return [PlayerAction(m[0], m[1]) for m in self.core.moves]

    def history_str(self) -> str:
        return ", ".join(str(m[1]) for m in self.core.moves)

    def move_number(self) -> int:
        return len(self.core.moves)

    def is_initial_state(self) -> bool:
        return not self.core.moves

    def _action_to_string(self, player: int, action: int) -> str:
        st = self.core.state
        if player == SIMULTANEOUS:
            return "[" + ", ".join(f"P{p + 1}: {st.action_to_string(p, a)}"
                                   for p, a in enumerate(self.core.joint_of_flat(action)) if a >= 0) + "]"
        return st.action_to_string(player, action)

    def is_terminal(self) -> bool:
        return self.core.state.is_terminal()

    def returns(self) -> list[float]:
        return self.core.state.returns()

    def __str__(self) -> str:
        return full_text(self.core.state)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> OrreryState:
        """OpenSpiel's ResampleFromInfostate: a state drawn from what `player_id` has
        observed only (State.resample_from_infostate), as a new pyspiel state whose
        information state for that player is this one's. `probability_sampler` is
        OpenSpiel's (a callable giving a number in [0, 1)): it seeds the draw."""
        st = self.core.state
        if isinstance(player_id, bool) or not isinstance(player_id, int) or not 0 <= player_id < st.n:
            raise ValueError(f"no player {player_id!r}: players are 0..{st.n - 1}")
        seed = int(float(probability_sampler()) * 2**53)
        world = st.resample_from_infostate(player_id, random.Random(seed))
        twin = OrreryState(self.core.game)
        twin.core = Core(self.core.game, world, list(self.core.steps), list(self.core.moves))
        twin.core.current = False  # the last step's views are the original's, not this world's
        twin.core.real = False  # its moves are the original's, its hidden cards another world's
        return twin

    def information_state_tensor(self, *player: int) -> Any:
        """pyspiel's, refused with the reason for a game whose rules bound no number of
        events (its GameType says it provides none; C++ callers check that)."""
        game = self.core.game
        if game.max_events is None:
            raise GameError(f"{game.rules.name}: the rules bound no number of events, so there is no information-"
                            "state tensor; load the game with max_events=N for one holding N events")
        return super().information_state_tensor(*player)

    def information_state_text(self, player: int) -> str:
        core = self.core
        memo = core.game.memo if core.real else None
        if memo is not None:
            key = (player, tuple(core.moves))
            known = memo.get(key)
            if known is not None:
                return known
        text = self._information_state_text(player)
        if memo is not None:
            core.game.memo_chars += len(text)
            if core.game.memo_chars > MEMO_CHARS:  # bounded: start again
                memo.clear()
                core.game.memo_chars = len(text)
            memo[key] = text
        return text

    def _information_state_text(self, player: int) -> str:
        core = self.core
        st = core.peek()
        steps = core.steps
        space = core.game.rules.action_space(st.n)
        last = steps[-1]
        if core.current and isinstance(last, Seen) and 0 <= player < st.n:
            # the last step's views are those of this very state: its view is the first line
            return information_state_string(st, player, steps, space, last.view(player))
        return information_state_string(st, player, steps, space)


def full_text(st: State) -> str:
    """The whole state for people and for telling states apart: what everyone sees,
    then the contents of every zone someone may not see, bottom first (the unordered
    cards of a shuffled zone not dealt yet, with explicit chance, sorted in braces)."""
    lines = [str(st)]
    layout, gd = st.layout, st.gd
    space = st.game.action_space(st.n)
    for slot, content in enumerate(st.zones):
        zone = gd.zones[layout.zdef[slot]]
        if zone.visible != "all" and content:
            owner = layout.zowner[slot]
            where = zone.name + (f"(P{owner + 1})" if owner >= 0 else "")
            run = st.unordered.get(slot, set())
            ids = [space.card_word(st, iid) for iid in content if iid not in run]
            if run:
                at = next(i for i, iid in enumerate(content) if iid in run)
                ids.insert(at, "{" + " ".join(sorted(space.card_word(st, iid) for iid in run)) + "}")
            lines.append(f"{where}: {' '.join(ids)}")
    return "\n".join(lines)


class _Observer:
    """A py observer (open_spiel/python/observation.py): the observation tensor in
    named pieces, and observation or information-state strings."""

    def __init__(self, game: OrreryGame, perfect_recall: bool):
        self.perfect_recall = perfect_recall
        self.max_events = game.max_events
        if perfect_recall:  # the information-state tensor, whole (runtime/info_tensor.py); none unbounded
            size = (0 if game.max_events is None
                    else game.rules.information_state_tensor_shape(game.num_seats, game.max_events)[0])
            self.tensor = np.zeros(size, np.float32)
            self.dict: dict[str, Any] = {"info_state": self.tensor}
            return
        layout = game.rules.tensor_layout(game.num_seats)
        self.tensor = np.zeros(layout.size, np.float32)
        self.dict = {p.name: self.tensor[p.offset:p.offset + p.size] for p in layout.pieces}

    def set_from(self, state: OrreryState, player: int) -> None:
        st = state.core.peek()
        if self.perfect_recall:
            if self.max_events is not None:  # (else no tensor: its size is 0, and pyspiel refuses it)
                self.tensor[:] = st.information_state_tensor(player, self.max_events)
        else:
            self.tensor[:] = st.observation_tensor(player)

    def string_from(self, state: OrreryState, player: int) -> str:
        if self.perfect_recall:
            return state.information_state_text(player)
        return state.core.peek().observation_string(player)

