"""Observations for learning code: one player's view as a canonical string, and that
view plus the player's history (an information state), never showing anything the
declared visibility hides.

Both come from `observation.observe` (the one place visibility is decided), written
for machines: cards by their face (`widget`, or `card[rank=3,suit=hearts]` for copies of
one definition told apart by attributes; never the copy number the deal gave it, which
a player cannot tell apart), zones whose order is hidden as sorted
lists, the player's legal moves as integer-action texts (action_space.py), and keys in
a fixed order, so equal views are equal strings.

The information state has perfect recall by construction: it is the player's view
now, then their view of the first state, then the game's events in order, each as the
player saw it and followed by what it changed in the player's view (`Seen`,
`view_change`). The views are what make it perfect:
a number drawn at random and written in a public counter is `chance ?` as an event but
is in the view after it, so a later draw overwriting the counter forgets nothing.
Two histories give a player the same information state exactly when every event and
every view along them looked the same to that player.

An event is written `P2: buy widget`. A player sees their own decisions whole; of another
player's decision they see the action (or that it was a choice) and every value but
the cards they could not see: a card named by a decision is shown to a player who
could see it just before the decision or just after it was carried out (a card
played from a hand to the table is seen; a card discarded face down is `?`). Seats,
numbers and words are public. With explicit chance, chance outcomes are events too
(`chance: deal king`, `chance: deal ?` to a player who does not see the card dealt;
a number or word drawn is `?` to all: what it changed is in the views). The state keeps
only the texts of its history, so `State.information_state_string` replays the game
from its seed (time grows with the game's length); the OpenSpiel and PettingZoo
adapters record the events as they go instead (`open_steps`, `begin_step`,
`record_step`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from interpreter.diagnostics import GameError, IllegalActionError
from interpreter.runtime import simultaneous
from interpreter.runtime.action_space import ActionSpace
from interpreter.runtime.actions import Action
from interpreter.runtime.decisions import find
from interpreter.runtime.observation import card_seen_by, observe
from interpreter.runtime.records import CHANCE, PendingChance

if TYPE_CHECKING:
    from interpreter.runtime.state import State


# ---- the observation string ---------------------------------------------------------------------


def observation_data(st: State, player: int, space: ActionSpace) -> dict[str, Any]:
    """`observe(st, player)` with cards by face (action_space.card_word) and legal moves by id text."""
    obs = observe(st, player)
    for zdef in st.gd.zones:
        shown = obs["zones"][zdef.name]
        for entry in shown if isinstance(shown, list) else [shown]:
            for key in ("cards", "revealed"):
                if key in entry:
                    names = [space.card_word(st, int(copy)) if sep and copy.isdigit() else text
                             for text in entry[key] for _, sep, copy in [text.rpartition("#")]]
                    entry[key] = names if key == "cards" and zdef.order_visible else sorted(names)
    if "decision" in obs:
        obs["decision"]["legal"] = [space.to_string(a) for a in space.legal(st, player)]
    return obs


def observation_string(st: State, player: int, space: ActionSpace) -> str:
    check_player(st, player)
    return json.dumps(observation_data(st, player, space), sort_keys=True, ensure_ascii=False,
                      separators=(",", ":"))


def check_player(st: State, player: Any) -> None:
    if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < st.n:
        raise GameError(f"no player {player!r}: players are 0..{st.n - 1}")


# ---- the history of decisions ------------------------------------------------------------------


@attrs.frozen
class Step:
    """One decision of the game: who made it, and the words of its id text, each with
    the players who may see it (None: everyone)."""

    player: int
    words: tuple[tuple[str, frozenset[int] | None], ...]
    action_id: int = -1  # its integer id (a chance outcome's: after the players' ids); -1 unknown

    def seen_whole(self, viewer: int) -> bool:
        """Whether `viewer` saw every word of it (its own decisions always)."""
        return viewer == self.player or all(who is None or viewer in who for _, who in self.words)

    def text_for(self, viewer: int) -> str:
        shown = [w if who is None or viewer == self.player or viewer in who else "?" for w, who in self.words]
        return (f"P{self.player + 1}: " if self.player >= 0 else "chance: ") + " ".join(shown)


@attrs.define
class PendingStep:
    """A decision about to be carried out: who sees its cards before it. A word names
    a card (`cards`: its copies, any of which shows it; None: no card) or nothing but
    itself; a chance outcome that is no card is seen by no one (`HIDDEN`). A pick in a
    simultaneous step stays one (sealed: only its player sees it) until the step is
    over (`record_step`)."""

    player: int
    words: list[str]
    cards: list[tuple[int, ...] | None]
    seen_before: list[frozenset[int]]
    simultaneous: bool = False
    action_id: int = -1

    def text_for(self, viewer: int) -> str | None:
        """A sealed pick, as `viewer` sees it: whole by its player, not at all by others."""
        return f"P{self.player + 1}: " + " ".join(self.words) if viewer == self.player else None

    def finish(self, after: State) -> Step:
        """The step, once the decision is carried out (`after` is the state then)."""
        words: list[tuple[str, frozenset[int] | None]] = []
        for word, copies, before in zip(self.words, self.cards, self.seen_before, strict=True):
            if copies is None:
                words.append((word, None))
            else:
                after_seen = frozenset(p for p in range(after.n) if any(card_seen_by(after, c, p) for c in copies))
                words.append((word, before | after_seen))
        return Step(self.player, tuple(words), self.action_id)


HIDDEN: tuple[int, ...] = ()  # the "card" of a chance outcome that is no card: no one sees it by its card


def begin_step(st: State, action: Action, space: ActionSpace, player: int | None = None) -> PendingStep:
    """Note what `action` (one of the legal actions of `player`, default the one
    `State.legal_actions()` lists for, or one of a chance node's outcomes) shows, before
    it is made. Of a chance outcome, everyone sees that the event happened; its card
    whoever sees that card (one of its identical copies) just before or after; a number
    or word drawn no one (its effects show where they are visible)."""
    pending = st.pending
    cards: list[tuple[int, ...] | None]
    if isinstance(pending, PendingChance):
        copies = pending.copies[pending.options.index(action.payload)] if pending.copies else ()
        is_card = pending.type == "card" and type(action.payload) is int
        word, _, what = action.text.partition(" ")
        words = [word, space.card_word(st, action.payload) if is_card else what]  # cards by face
        cards = [None, tuple(copies) or ((action.payload,) if is_card else HIDDEN)]
        chance_id = space.size + space.chance_id_of(st, action)  # (after the players' ids)
        return PendingStep(CHANCE, words, cards, _seen(st, cards), action_id=chance_id)
    in_step = simultaneous.in_step(st)
    if player is None:
        player = st.player_asked()
    a = space.id_of(st, action)
    words = space.id_words(a)
    cards = [None if iid is None else (iid,) for iid in space.cards_named(st, action)]
    return PendingStep(player, words, cards, _seen(st, cards), in_step, a)


def _seen(st: State, cards: list[tuple[int, ...] | None]) -> list[frozenset[int]]:
    return [frozenset() if copies is None else
            frozenset(p for p in range(st.n) if any(card_seen_by(st, c, p) for c in copies)) for copies in cards]


class Seen:
    """Every player's view after an event (or at the start). Kept as a copy of the
    state then, and worked out when an information state first asks, player by player
    (most recorded games never ask): `view(p)`, the observation string; `change(p,
    before)`, what it changed since the Seen before it (view_change; None: nothing)."""

    __slots__ = ("_changes", "_state", "_texts", "_views")

    def __init__(self, state: State):
        self._state: State | None = state
        self._views: dict[int, str] = {}
        self._changes: dict[int, str | None] = {}
        # A player's history up to and including this Seen (the lines of an information
        # state after its first), kept when asked for here: a later ask, of this record
        # or of a copy that grew from it, writes only the steps after it.
        self._texts: dict[int, str] = {}

    def detach(self) -> None:
        """The state it was made with is about to change: keep a copy of it, unless
        every view is already written."""
        if self._state is not None:
            self._state = self._state.clone()

    def view(self, player: int) -> str:
        view = self._views.get(player)
        if view is None:
            st = self._state
            assert st is not None
            view = self._views[player] = observation_string(st, player, st.game.action_space(st.n))
            if len(self._views) == st.n:
                self._state = None  # (every view is written: the copy is not needed)
        return view

    def change(self, player: int, before: Seen | None) -> str | None:
        """What `player`'s view changed since `before` (the whole view at the start).
        A Seen always follows the same one in every record that holds it (records
        only grow, and copies share their beginning), so the answer is kept."""
        if player not in self._changes:
            view = self.view(player)
            if before is None:
                self._changes[player] = view
            else:
                last = before.view(player)
                self._changes[player] = None if view == last else view_change(last, view)
        return self._changes[player]


# Events so far, each followed by the views after it; sealed picks of a step under way at the end.
Steps = list[Step | PendingStep | Seen]

_GONE = object()


def view_change(before: str, after: str) -> str:
    """What changed from one observation string to the next, as JSON: each changed
    entry by its path (`counters.vp`, `zones.hand`, `turn`) with its new value, and
    under `-` the paths gone. The changes from a first view determine every view after
    it, so an information state written with them forgets nothing."""
    old, new = json.loads(before), json.loads(after)
    changed: dict[str, Any] = {}
    gone: list[str] = []
    for key in sorted(old.keys() | new.keys()):
        a, b = old.get(key, _GONE), new.get(key, _GONE)
        if a == b:
            continue
        if isinstance(a, dict) and isinstance(b, dict):
            for sub in sorted(a.keys() | b.keys()):
                x, y = a.get(sub, _GONE), b.get(sub, _GONE)
                if x != y:
                    if y is _GONE:
                        gone.append(f"{key}.{sub}")
                    else:
                        changed[f"{key}.{sub}"] = y
        elif b is _GONE:
            gone.append(key)
        else:
            changed[key] = b
    if gone:
        changed["-"] = gone
    return json.dumps(changed, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def open_steps(st: State, space: ActionSpace) -> Steps:
    """The record of a game about to start: every player's view of its first state."""
    return [Seen(st.clone())]


def record_step(steps: Steps, pending: PendingStep, after: State, share: bool = False) -> Seen | None:
    """Add a decision just made (`after` is the state then), and the views after it.
    A pick of a simultaneous step stays sealed while the step waits for others; once it
    is over, its picks are finished against the state after it (what the picks moved is
    seen then). With `share`, the views are kept as `after` itself, not a copy: the
    caller must `detach()` the Seen returned before changing `after` again."""
    steps.append(pending)
    if pending.simultaneous and pending.player in simultaneous.picks_so_far(after):
        return None
    first = len(steps)
    while first > 0 and isinstance(steps[first - 1], PendingStep):
        first -= 1
    steps[first:] = [s.finish(after) if isinstance(s, PendingStep) else s for s in steps[first:]]
    seen = Seen(after if share else after.clone())
    steps.append(seen)
    return seen


def replay_steps(start: State, history: Iterable[str], space: ActionSpace,
                 after: Callable[[State], None] | None = None) -> Steps:
    """The steps of a history, replayed from the game's first state (which is used up);
    `after` is called with the state after each decision."""
    steps: Steps = open_steps(start, space)
    for text in history:
        player: int | None = None
        if simultaneous.in_step(start):
            player, text = simultaneous.split_pick(text)
            if player is None:
                player = start.players_to_act()[0]
            action = simultaneous.find_for(start, player, text)
        else:
            action = find(start, text)
        pending = begin_step(start, action, space, player)
        start.apply_action(action, player)
        record_step(steps, pending, start)
        if after is not None:
            after(start)
    return steps


MAX_KEPT_HISTORY = 1 << 16  # characters: a longer history is written again when asked (memory)


def information_state_string(st: State, player: int, steps: Steps, space: ActionSpace,
                             now: str | None = None) -> str:
    """The player's view now (`now`, when the caller has it: the last Seen's view of
    this very state), then their view of the first state (`  = VIEW`), then every event
    as the player saw it (a pick of a simultaneous step under way only by its own
    player), each followed by what it changed in the player's view, if anything
    (`  ~ CHANGES`, view_change): perfect recall."""
    head = observation_string(st, player, space) if now is None else now
    start, before = 0, None
    for at in range(len(steps) - 1, -1, -1):  # the last Seen that knows its history so far
        step = steps[at]
        if isinstance(step, Seen) and player in step._texts:
            start, before = at + 1, step
            break
    lines = [head] if before is None else [head, before._texts[player]]
    last, upto = None, 0
    for step in steps[start:]:
        if isinstance(step, Seen):
            change = step.change(player, before)
            if change is not None:
                lines.append(("  = " if before is None else "  ~ ") + change)
            before = last = step
            upto = len(lines)
        elif (text := step.text_for(player)) is not None:
            lines.append(text)
    if last is not None:
        history = "\n".join(lines[1:upto])
        if len(history) <= MAX_KEPT_HISTORY:
            last._texts[player] = history
    return "\n".join(lines)


# ---- integer actions on a state ------------------------------------------------------------


def id_of_text(st: State, space: ActionSpace, text: Any, player: int | None = None) -> int:
    """The id of an id text (`buy widget`) or of a legal action's canonical
    text (`buy widget#23`; of `player`'s actions, when given)."""
    if not isinstance(text, str):
        raise IllegalActionError(f"an action text is a string, not {text!r}")
    a = space.from_string(text)
    if a is not None:
        return a
    wanted = text.strip()
    for action in st.legal_actions(player):  # (every legal action, a copy's whose id another copy's stands for too)
        if action.text == wanted:
            return space.id_of(st, action)
    raise IllegalActionError(f"'{text}' is not an action of {st.gd.name} (for example: "
                             f"{', '.join(space.to_string(a) for a in range(min(3, space.size)))})")


def action_of_id(st: State, space: ActionSpace, a: Any, player: int | None = None) -> Action:
    """The legal action with id `a` (of `player`, as `State.legal_actions` says);
    IllegalActionError saying why when there is none."""
    a = space.check(a)
    if st.terminal:
        raise IllegalActionError(f"the game is over; action {a} ({space.to_string(a)}) cannot be played")
    if player is not None:
        check_player(st, player)
    legal = space.legal(st, player)
    chosen = legal.get(a)
    if chosen is None:
        sample = ", ".join(f"{b} ({space.to_string(b)})" for b in list(legal)[:6]) + (" ..." if len(legal) > 6 else "")
        whose = "" if player is None else f" for P{player + 1}"
        raise IllegalActionError(f"action {a} ({space.to_string(a)}) is not legal now{whose}; "
                                 f"legal: {sample or 'none'}")
    return chosen


def apply_id(st: State, space: ActionSpace, a: Any, player: int | None = None) -> None:
    """Make the legal move with id `a`; anything else raises and changes nothing."""
    st.apply_action(action_of_id(st, space, a, player), player)


def apply_joint_ids(st: State, space: ActionSpace, joint: Any) -> None:
    """A simultaneous step's picks as ids, one entry per seat (None: no pick); each is
    checked before any is made."""
    if (not simultaneous.in_step(st) or isinstance(joint, str | bytes) or not isinstance(joint, Sequence)
            or len(joint) != st.n):
        st.apply_actions(joint)  # refuses it, saying what is wrong
        return
    st.apply_actions([a if a is None or not st.pending_for(p) else action_of_id(st, space, a, p)
                      for p, a in enumerate(joint)])
