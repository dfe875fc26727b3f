"""One node of a game: the OpenSpiel-like State API over plain data.

Everything that changes during a game is here, as lists, dicts, ints and small records:
counters, zones, card locations and attributes, the random generator's state, the
frames of the effects being run and the decision being waited for. Nothing refers to
code except by index into the static GameDef, so clone() is a few list copies and
to_json() is exact. The fields are declared once, in fields.py.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, Protocol

from interpreter.diagnostics import GameError, IllegalActionError
from interpreter.model import BotDef, GameDef
from interpreter.model.seats import Seating, SeatSpec, parse_seat, seating_of
from interpreter.numbers import encode
from interpreter.runtime import chance, decisions, info_tensor, learning, simultaneous
from interpreter.runtime.action_space import ActionSpace
from interpreter.runtime.actions import Action, render
from interpreter.runtime.errors import RULE_SLIPS, rule_error
from interpreter.runtime.fields import FIELDS, SAVED, make_clone
from interpreter.runtime.info_tensor import DEFAULT_MAX_EVENTS, info_layout
from interpreter.runtime.journal import Journal
from interpreter.runtime.layout import Layout, StartTemplate
from interpreter.runtime.loop import run, run_on
from interpreter.runtime.observation import observe
from interpreter.runtime.present import render_observation
from interpreter.runtime.private import Note
from interpreter.runtime.records import (
    CHANCE,
    Frame,
    Grant,
    Pending,
    PendingActions,
    PendingChance,
    PendingSimultaneous,
)
from interpreter.runtime.resample import resample
from interpreter.runtime.rng import fresh_seed
from interpreter.runtime.saves import (
    STATE_FORMAT,
    code_shape,
    dump_state,
    fill_state,
    migration_mismatch,
    parse_save,
    state_to_dict,
)
from interpreter.runtime.simultaneous import SIMULTANEOUS
from interpreter.runtime.tensor import TensorLayout

TERMINAL = -4  # OpenSpiel's kTerminalPlayerId
__all__ = ["CHANCE", "SIMULTANEOUS", "STATE_FORMAT", "TERMINAL", "Rules", "State", "load_state", "new_state"]


class Rules(Protocol):
    """What a state needs of the game it belongs to (the Game implements it): the
    definition, the engine id saves are stamped with, and per-player-count layouts."""

    definition: GameDef
    engine_id: str

    def layout(self, num_players: int) -> Layout: ...

    def start_template(self, num_players: int) -> StartTemplate: ...

    def action_space(self, num_players: int) -> ActionSpace: ...

    def tensor_layout(self, num_players: int) -> TensorLayout: ...

    def eager_zones(self) -> frozenset[int]: ...


class State:
    __slots__ = tuple(f.attr for f in FIELDS)

    game: Rules
    gd: GameDef
    gd_listens: frozenset[tuple[str, int]]
    layout: Layout
    n: int
    players: list[int]
    seats: list[str]
    seating: Seating
    seat_specs: tuple[SeatSpec, ...]
    seat_bots: tuple[BotDef | None, ...]
    seed: int
    counters: list[list[int]]
    zones: list[list[int]]
    card_def: list[int]
    loc: list[int]
    attrs: dict[tuple[int, str], Any]
    revealed: set[int]
    shown: dict[int, int]
    notes: list[Note]
    known: dict[int, int]
    rng: int
    explicit: bool
    unordered: dict[int, set[int]]
    stack: list[Frame]
    queue: list[Frame]
    pending: Pending | None
    active: int
    round_no: int
    turn_no: int
    uses: dict[str, dict[str, int]]
    grants: list[Grant]
    ending: str | None
    ending_reason: str | None
    terminal: bool
    winners: list[int]
    end_reason: str | None
    history: Journal
    log: Journal
    legal_cache: list[Action] | None
    chance_answers: list[Any]
    chance_pos: int
    work: int
    memo: dict[tuple[int, int], Any] | None
    stop_turn: int | None
    final_returns: list[float] | None
    picks: list[tuple[int, str, bool]] | None

    # ---- OpenSpiel-like API --------------------------------------------------------

    def current_player(self) -> int:
        """The seat to act now, SIMULTANEOUS (-2) during a simultaneous step (several
        seats pick at once: `players_to_act()`), CHANCE (-1) at a chance node (explicit
        chance), or TERMINAL (-4) when the game is over."""
        if self.terminal or self.pending is None:
            return TERMINAL
        if isinstance(self.pending, PendingSimultaneous):
            return SIMULTANEOUS
        return self.pending.player

    def is_simultaneous_node(self) -> bool:
        """Whether several seats pick at once now (docs/simultaneous.md)."""
        return simultaneous.in_step(self)

    def players_to_act(self) -> list[int]:
        """The seats with a decision to make now: during a simultaneous step those still
        to pick (in the step's order), else the one to act; none when the game is over."""
        return simultaneous.players_to_act(self)

    def player_asked(self) -> int:
        """The seat asked now: during a simultaneous step the first still to pick, else
        `current_player()` (CHANCE, TERMINAL, or the seat to act)."""
        waiting = simultaneous.players_to_act(self)
        return waiting[0] if waiting else self.current_player()

    def legal_actions(self, player: int | None = None) -> list[Action]:
        """The legal actions of `player` (empty if they have no decision now). Without
        a player: those of the player to act; during a simultaneous step, those of the
        first player still to pick (so a step can be played one seat at a time)."""
        if player is None and type(self.pending) is PendingActions:  # the usual case: a listing just kept
            legal = self.legal_cache  # (a finished game waits for nothing: no pending record)
            if legal is not None:
                return legal[:]
        if self.terminal:
            return []
        if isinstance(self.pending, PendingSimultaneous):
            return list(simultaneous.legal_for(self, self.pending.player if player is None else player))
        if player is not None and player != self.current_player():
            return []
        return list(decisions.legal_actions(self))

    def apply_action(self, action: Action | str, player: int | None = None) -> None:
        """Make a legal move, or at a chance node force one of its outcomes (an Action
        of `chance_outcomes()` or its text, e.g. "chance 6" or "deal king"). During a
        simultaneous step it is one seat's pick: of `player`, or the seat a `P2: ...`
        text names, or else the first still to pick; the last pick carries the step out.
        Elsewhere `player`, if given, must be the player to act. IllegalActionError,
        changing nothing, for a move that is not legal."""
        pending = self.pending
        if type(pending) is PendingActions and player is None and not self.terminal:
            legal = self.legal_cache  # the usual case: one of the very actions just listed
            if legal is not None:
                for option in legal:
                    if option is action:
                        decisions.take(self, option, pending)
                        return
        if self.terminal:
            raise GameError("the game is over; no more actions")
        if isinstance(self.pending, PendingSimultaneous):
            simultaneous.choose(self, action, player)
            return
        if player is not None and player != self.current_player():
            now = "the chance player" if self.current_player() == CHANCE else f"P{self.current_player() + 1}"
            raise IllegalActionError(f"P{player + 1 if isinstance(player, int) else player} is not to act now "
                                     f"({now} is)")
        decisions.apply(self, action)

    def apply_actions(self, joint: Sequence[Action | str | None]) -> None:
        """A simultaneous step's picks at once: a list indexed by seat, with a legal
        action for each seat still to pick and None for the others. Checked whole:
        IllegalActionError, changing nothing, when any entry is wrong."""
        simultaneous.apply_joint(self, joint)

    # ---- explicit chance (docs/chance.md) -------------------------------------------

    @property
    def chance_mode(self) -> str:
        """"explicit" when random events are chance nodes, else "seeded"."""
        return "explicit" if self.explicit else "seeded"

    def is_chance_node(self) -> bool:
        return not self.terminal and isinstance(self.pending, PendingChance)

    def chance_outcomes(self, exact: bool = False) -> list[tuple[Action, Any]]:
        """At a chance node, each outcome (an Action, like the legal actions) with its
        probability: a float, or with `exact` a Fraction. Elsewhere []."""
        pending = self.pending
        if self.terminal or not isinstance(pending, PendingChance):
            return []
        chances: list[Fraction] = chance.probabilities(pending)
        return [(a, p if exact else float(p)) for a, p in zip(decisions.legal_actions(self), chances, strict=True)]

    def is_terminal(self) -> bool:
        return self.terminal

    def returns(self) -> list[float]:
        """Per seat: the game's `returns` if it declares one, else +1 for each winner,
        -1 for the others, 0 for all when everyone (or no one) wins — except alone at the
        table (solitaire), where winning is +1 and losing -1."""
        if not self.terminal:
            return [0.0] * self.n
        if self.final_returns is not None:  # (worked out as the game ended: ending.finish)
            return list(self.final_returns)
        scoring = self.gd.scoring
        if scoring.returns is not None:
            try:
                return [float(scoring.returns(self, {"p": p, "me": p})) for p in range(self.n)]
            except RULE_SLIPS as err:
                raise rule_error("scoring.returns", err) from None
        if self.n == 1:
            return [1.0 if self.winners else -1.0]
        if len(self.winners) in (0, self.n):
            return [0.0] * self.n
        return [1.0 if p in self.winners else -1.0 for p in range(self.n)]

    def scores(self, exact: bool = False) -> list[Any]:
        """Each seat's score by the game's `scoring.score` (0 when it declares none):
        floats, or with `exact` the rules' own numbers (ints and exact fractions)."""
        score = self.gd.scoring.score
        if score is None:
            return [0 if exact else 0.0] * self.n
        if exact:
            return [score(self, {"p": p, "me": p}) for p in range(self.n)]
        return [float(score(self, {"p": p, "me": p})) for p in range(self.n)]

    def clone(self) -> State:
        return _clone(self)  # type: ignore[no-any-return]

    def observation(self, player: int) -> dict[str, Any]:
        return observe(self, player)

    def to_json(self) -> str:
        """The save (saves.py's `dump_state`, byte for byte). The journals are the last
        fields: their JSON text, kept chunk by chunk, is appended instead of encoding
        every action and log line of the game again."""
        if not _JOURNALS_LAST:
            return dump_state(self)
        data = state_to_dict(self)
        for field in _JOURNALS:
            del data[field.key]  # type: ignore[arg-type]
        text = json.dumps(data, separators=(",", ":"), default=encode)
        journals = ",".join(f"{json.dumps(f.key)}:{getattr(self, f.attr).to_json()}" for f in _JOURNALS)
        return f"{text[:-1]},{journals}}}"

    def __str__(self) -> str:
        lines = render_observation(observe(self, -1), self.gd, set())
        if self.terminal:
            lines.append(f"Over: winners {', '.join(f'P{w + 1}' for w in self.winners) or 'none'}")
        return f"{self.gd.name}\n" + "\n".join(lines)

    # ---- integer actions and observations for learning (docs/learning.md) -----------

    def num_distinct_actions(self) -> int:
        """The size of the game's integer action space for this many players."""
        return self.game.action_space(self.n).size

    def legal_action_ids(self, player: int | None = None) -> list[int]:
        """The legal actions as integer ids, ascending (see runtime/action_space.py);
        `player` as for `legal_actions`; at a chance node, the outcomes' chance ids."""
        if self.terminal or (player is not None and not self.pending_for(player)):
            return []
        space = self.game.action_space(self.n)
        return list(space.chance_legal(self) if self.is_chance_node() else space.legal(self, player))

    def pending_for(self, player: int) -> bool:
        """Whether `player` has a decision to make now (CHANCE: at a chance node)."""
        return not self.terminal and self.pending is not None and self.pending.waits_for(player)

    def legal_actions_mask(self, player: int | None = None) -> list[int]:
        """1 for each legal id, 0 elsewhere, over the whole action space (at a chance
        node, over the chance ids, as OpenSpiel's masks are)."""
        space = self.game.action_space(self.n)
        mask = [0] * (space.chance_size if self.is_chance_node() else space.size)
        for a in self.legal_action_ids(player):
            mask[a] = 1
        return mask

    def action_to_string(self, player: int, action: int) -> str:
        """The text of an integer action (the same for every player and state); for
        the CHANCE player, of a chance id."""
        space = self.game.action_space(self.n)
        return space.chance_to_string(action) if player == CHANCE else space.to_string(action)

    def string_to_action(self, player: int, text: str) -> int:
        """The id of an id text or of one of `player`'s legal action texts (for the
        CHANCE player, of a chance id's text or an outcome's)."""
        space = self.game.action_space(self.n)
        if player != CHANCE:
            mine = player if isinstance(player, int) and self.pending_for(player) else None
            return learning.id_of_text(self, space, text, mine)
        wanted = " ".join(str(text).split())
        found = next((a for a in range(space.chance_size) if space.chance_to_string(a) == wanted), None)
        if found is None and self.is_chance_node():
            found = next((space.chance_id_of(self, o) for o in self.legal_actions() if o.text == wanted), None)
        if found is None:
            raise IllegalActionError(f"'{text}' is not a chance outcome of {self.gd.name}")
        return found

    def apply_action_id(self, action: int, player: int | None = None) -> None:
        """Make the legal move with this id (at a chance node: the outcome with this
        chance id); IllegalActionError, state unchanged, if there is none. `player` as
        for `apply_action`."""
        space = self.game.action_space(self.n)
        if self.is_chance_node():
            self.apply_action(space.chance_action(self, action), player)
        else:
            learning.apply_id(self, space, action, player)

    def apply_action_ids(self, joint: Sequence[int | None]) -> None:
        """A simultaneous step's picks as integer ids, one entry per seat (None for the
        seats that do not pick now); checked whole, as `apply_actions`."""
        learning.apply_joint_ids(self, self.game.action_space(self.n), joint)

    def observation_string(self, player: int) -> str:
        """What `player` may see now, as a canonical string (see runtime/learning.py)."""
        return learning.observation_string(self, player, self.game.action_space(self.n))

    def information_state_string(self, player: int) -> str:
        """The player's view now and every decision so far as they saw it (the game is
        replayed from its seed to see what each decision showed)."""
        space = self.game.action_space(self.n)
        learning.check_player(self, player)
        start = new_state(self.game, self.n, self.seed, self.seating, self.chance_mode)
        steps = learning.replay_steps(start, self.history, space)
        return learning.information_state_string(self, player, steps, space)

    def resample_from_infostate(self, player: int, rng: random.Random | None = None) -> State:
        """A state `player` could not tell from this one, drawn from what they have
        observed only (runtime/resample.py says the rule): hidden cards dealt again,
        hidden counters at what the player can know, future chance reseeded. `rng` is a
        `random.Random` (default: a fresh one); a terminal state gives a copy."""
        if rng is None:
            rng = random.Random(fresh_seed())
        elif not isinstance(rng, random.Random):
            raise GameError(f"rng must be a random.Random, not {type(rng).__name__}")
        return resample(self, player, rng)

    def information_state_tensor(self, player: int, max_events: int = DEFAULT_MAX_EVENTS) -> list[float]:
        """The player's information state as numbers (runtime/info_tensor.py): the view
        now, then up to `max_events` events as the player saw them, each with the view
        after it; the length is `Game.information_state_tensor_shape(n, max_events)[0]`.
        The game is replayed from its seed; a longer game is refused."""
        learning.check_player(self, player)
        space = self.game.action_space(self.n)
        layout = info_layout(space, self.game.tensor_layout(self.n), self.n, max_events)
        start = new_state(self.game, self.n, self.seed, self.seating, self.chance_mode)
        return info_tensor.encode(self, start, player, layout)

    def observation_tensor(self, player: int) -> list[float]:
        """What `player` may see now, as numbers (runtime/tensor.py); the length is
        `Game.observation_tensor_shape(n)[0]`."""
        learning.check_player(self, player)
        return self.game.tensor_layout(self.n).encode(self, player)

    # ---- helpers -------------------------------------------------------------------

    def render_value(self, value: Any, type_: str = "any") -> str:
        return render(self, value, type_)

    def card_text(self, iid: int) -> str:
        return f"{self.gd.cards[self.card_def[iid]].id}#{iid}"

    def prompt(self) -> str:
        pending = self.pending
        if pending is None:
            return ""
        if isinstance(pending, PendingActions):
            return pending.group
        return pending.prompt

    def result(self) -> dict[str, Any]:
        return {
            "terminal": self.terminal,
            "winners": list(self.winners),
            "returns": self.returns(),
            "reason": self.end_reason,
            "rounds": self.round_no,
            "turns": self.turn_no,
            "actions": len(self.history),
        }

    def to_dict(self) -> dict[str, Any]:
        return state_to_dict(self)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        if self.gd is not other.gd and self.gd.data_hash != other.gd.data_hash:
            return False
        return all(f.dump(getattr(self, f.attr)) == f.dump(getattr(other, f.attr)) for f in SAVED) and (
            self.n, self.seats, self.seed) == (other.n, other.seats, other.seed)

    __hash__ = None  # type: ignore[assignment]


_clone = make_clone(State)
_blank = object.__new__
_SEED_MASK = (1 << 64) - 1
_JOURNALS = tuple(f for f in SAVED if f.copy == "journal")
_JOURNALS_LAST = bool(_JOURNALS) and SAVED[len(SAVED) - len(_JOURNALS):] == _JOURNALS


def new_state(game: Rules, num_players: int, seed: int, seats: Seating,
              chance_mode: str = "seeded") -> State:
    """The state of a new game: components placed, then setup and flow run to the
    first decision (with explicit chance, maybe a chance node)."""
    if chance_mode not in chance.MODES:
        raise GameError(f"chance must be one of {', '.join(chance.MODES)}, not {chance_mode!r}")
    gd = game.definition
    template = game.start_template(num_players)
    st = _blank(State)
    # Field by field, one store each (a playout of a small game is mostly this and setup).
    st.game = game
    st.gd = gd
    st.gd_listens = gd.listens
    st.layout = game.layout(num_players)
    st.n = num_players
    st.players = template.players
    seat(st, seats)
    st.seed = seed
    st.counters = [*map(list.copy, template.counters)]
    st.zones = [*map(list.copy, template.zones)]
    st.card_def = template.card_def[:]
    st.loc = template.loc[:]
    st.attrs = {}
    st.revealed = set()
    st.shown = {}
    st.notes = []
    st.known = {}
    st.rng = seed & _SEED_MASK
    st.explicit = chance_mode == "explicit"
    st.unordered = {}
    st.chance_answers = []
    st.chance_pos = 0
    st.queue = []
    st.pending = None
    st.active = st.round_no = st.turn_no = 0
    st.uses = {"turn": {}, "round": {}, "game": {}}
    st.grants = []
    st.ending = st.ending_reason = st.end_reason = None
    st.terminal = False
    st.winners = []
    st.history = Journal()
    st.log = Journal()
    st.legal_cache = None
    st.work = 0
    st.memo = None
    st.stop_turn = None
    st.final_returns = None
    st.picks = []
    # The effects that start a game, last run first: setup, then `start`, then the flow.
    st.stack = stack = []
    if gd.flow is not None:
        stack.append(Frame(gd.flow, 0, {}))
    if gd.start is not None:
        stack.append(Frame(gd.start, 0, {}))
    if gd.setup_direct is not None and not st.explicit:  # as one call; its work counts in the run's
        gd.setup_direct(st, st.active)
        if not st.terminal:
            run_on(st)  # (the flow's first step called at once: most games' first decision)
        return st
    if gd.setup is not None:
        stack.append(Frame(gd.setup, 0, {}))
    run(st)
    return st


def seat(st: State, seating: Seating) -> None:
    """Who plays each seat (model/seats.py): the records, their canonical texts (`seats`,
    what saves and logs hold), and the game bot of each seat that one plays, found by
    the record's kind when the seating was made, never by comparing texts."""
    st.seating = seating
    st.seat_specs = seating.specs
    st.seats = list(seating.texts)
    st.seat_bots = seating.bots


def _saved_seats(data: dict[str, Any]) -> list[SeatSpec]:
    """The seats of a save as records (saves.py checked they are texts)."""
    try:
        return [parse_seat(text) for text in data["seats"]]
    except GameError as err:
        raise GameError(f"corrupt save: bad seats ({err})") from None


def load_state(game: Rules, text: str) -> State:
    """The state a save holds (see saves.py), checked field by field; a save made by an
    engine that compiles the rules differently is migrated by replaying its actions."""
    gd = game.definition
    data = parse_save(text, gd)
    if code_shape(data["engine"]) != code_shape(game.engine_id):
        return _migrate(game, data)
    n = data["players"]
    st = State.__new__(State)
    st.game, st.gd, st.gd_listens, st.layout = game, gd, gd.listens, game.layout(n)
    st.n, st.players, st.seed = n, list(range(n)), data["seed"]
    seat(st, seating_of(_saved_seats(data), gd.bots))
    st.queue, st.legal_cache, st.chance_pos = [], None, 0
    st.work, st.memo, st.stop_turn, st.picks, st.final_returns = 0, None, None, None, None
    fill_state(st, data)
    return st


def _migrate(game: Rules, data: dict[str, Any]) -> State:
    """Rebuild a save of another engine from its seed and actions (the rules are the
    same: the data hash matched), and check the result shows the same table."""
    history = data.get("history")
    if not isinstance(history, list) or not all(isinstance(h, str) for h in history):
        raise GameError("corrupt save: bad history")
    why = f"this save was made by another version of orrery's engine ({data['engine']}, now {game.engine_id})"
    mode = data.get("chance", "seeded")
    if mode not in chance.MODES:
        raise GameError("corrupt save: bad chance mode (seeded or explicit)")
    try:
        st = new_state(game, data["players"], data["seed"], seating_of(_saved_seats(data), game.definition.bots), mode)
        for text in history:
            st.apply_action(text)
    except GameError as err:
        raise GameError(f"{why}, and replaying its actions failed ({err}); replay the game's log instead") from None
    mismatch = migration_mismatch(state_to_dict(st), data)
    if mismatch:
        raise GameError(f"{why}, and {mismatch}; replay the game's log instead (orrery play --resume LOG)")
    return st
