"""Simultaneous moves: `take actions GROUP simultaneously [for LIST]`.

Every listed player (default: every seat, in seat order) picks one action of the group
from the same state, and no one sees another's pick until all have picked; then the
picks are carried out in the list's order: first every cost is paid, then each
action's effect runs (with `me` = its player), one after the other. A player with no
legal action in the group sits the step out. A seat played by a game bot picks at once,
by its `choose` rule, when the step starts (a bot with a `turn` effect plays that effect
instead, at its place in the order). The rules are in docs/format.md ("Simultaneous
moves"); the API in docs/simultaneous.md.

While the step waits, `state.pending` is a `PendingSimultaneous` holding the picks made
so far; the state itself does not change until the last pick, so what is legal for
each player is listed from the same state, picks can come in any order, and a pick
that was legal stays legal. Each pick is one entry of the history, written
`P2: bid king#5`: the history replays to the same state whatever order the picks came
in, and a save in the middle of a step resumes with the picks made so far.

Hiding the picks is the job of everything that shows a state: observations and tensors
show a player only their own decision (`waits_for`), the learning steps keep a pick
sealed until the step is over (learning.py), the terminal says "P2 has chosen"
(play/terminal.py).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from interpreter.diagnostics import GameError, IllegalActionError, RuleRuntimeError
from interpreter.model import Expr, Op
from interpreter.runtime.actions import Action, effect_payload
from interpreter.runtime.decisions import group_actions, legal_actions, match, pay_for, sample
from interpreter.runtime.ending import check_end
from interpreter.runtime.loop import run
from interpreter.runtime.records import TURN, Frame, PendingSimultaneous
from interpreter.runtime.rng import randbelow

if TYPE_CHECKING:
    from interpreter.runtime.state import State

SIMULTANEOUS = -2  # OpenSpiel's kSimultaneousPlayerId: what current_player() says during a step
_NAMED = re.compile(r"P([0-9]{1,3}):\s*(.*)", re.DOTALL)  # a pick as the history writes it


def pick_text(player: int, text: str) -> str:
    """How the history writes `player`'s pick of the action `text`."""
    return f"P{player + 1}: {text}"


def split_pick(text: str) -> tuple[int | None, str]:
    """(player, action text) of a pick as the history writes it; (None, text) otherwise."""
    match = _NAMED.fullmatch(text.strip())
    if match is None:
        return None, text
    return int(match.group(1)) - 1, match.group(2).strip()


# ---- the statement ---------------------------------------------------------------------------


def take_simultaneously(group: str, players_of: Expr | None, key: str) -> Op:
    """The operation of `take actions GROUP simultaneously [for LIST]`. It runs first to
    start the step (and waits), then once per pick to carry it out (pushing its effect),
    then once more to go on; the picks wait in the frame's local `key`."""

    def take_simultaneously_op(st: Any, fr: Frame) -> bool:
        env = fr.env
        picks = env.get(key)
        if picks is None:
            players = st.players if players_of is None else players_of(st, env)
            return _start(st, fr, group, _seats(st, players), key)
        if not picks:
            del env[key]
            return False
        (player, index, values), env[key] = picks[0], picks[1:]
        fr.pc -= 1  # back here after the effect, for the next pick
        if index < 0:
            bot = st.seat_bots[player]
            assert bot is not None and bot.turn is not None  # (a bot's turn is picked for a bot's seat only)
            st.stack.append(Frame(bot.turn, 0, {"me": player}))
        else:
            act = st.gd.actions[index]
            local: dict[str, Any] = {"me": player}
            local.update((param.name, value) for param, value in zip(act.params, values, strict=True))
            st.stack.append(Frame(act.code, 0, local))
        return False

    return take_simultaneously_op


def _seats(st: State, players: Any) -> list[int]:
    if not isinstance(players, list):
        raise RuleRuntimeError(f"'take actions ... simultaneously for' needs a list of players, got {players!r}")
    seen: set[int] = set()
    for p in players:
        if isinstance(p, bool) or not isinstance(p, int) or not 0 <= p < st.n:
            raise RuleRuntimeError(f"'take actions ... simultaneously for': {p!r} is not a player")
        if p in seen:
            raise RuleRuntimeError(f"'take actions ... simultaneously for' names P{p + 1} twice")
        seen.add(p)
    return list(players)


def _start(st: State, fr: Frame, group: str, players: list[int], key: str) -> bool:
    """Start a step: game bots pick now; wait for the others (or carry the picks out
    at once when nobody outside the state takes part)."""
    if check_end(st, "action"):
        return True
    taking: list[int] = []
    chosen: list[str | None] = []
    for p in players:
        bot = st.seat_bots[p]
        if bot is not None and bot.turn is not None:
            taking.append(p)
            chosen.append(TURN)
            continue
        legal = group_actions(st, group, p)
        if not legal:
            continue  # nothing to do: this player sits the step out
        taking.append(p)
        if bot is None:
            chosen.append(None)
        else:
            chosen.append((legal[0] if bot.choose == "first" else legal[randbelow(st, len(legal))]).text)
    if not taking:
        return False
    fr.pc -= 1  # this operation runs again to carry the picks out
    waiting = [p for p, c in zip(taking, chosen, strict=True) if c is None]
    pending = PendingSimultaneous(waiting[0] if waiting else -1, group, key, taking, chosen)
    if waiting:
        st.pending = pending
        st.legal_cache = None
        return True
    _reveal(st, pending, fr)
    return False


def _reveal(st: State, pending: PendingSimultaneous, frame: Frame) -> None:
    """Everyone has picked: pay the costs in order and leave the picks in `frame` for
    the statement to carry out. Payment triggers are left queued."""
    st.pending = None
    st.legal_cache = None
    picks: list[list[Any]] = []
    for p, text in zip(pending.players, pending.chosen, strict=True):
        if text == TURN:
            picks.append([p, -1, []])
            continue
        assert text is not None
        if st.seat_bots[p] is not None:  # the game log is public: a bot's pick shows only now
            st.log.append(f"P{p + 1} ({st.seats[p]}): {text}")
        action = _by_text(group_actions(st, pending.group, p), text)
        index, values = effect_payload(action)  # a hidden card: the card it stands for
        picks.append([p, index, list(values)])
    for p, index, values in picks:
        if index >= 0:
            pay_for(st, p, index, values)
    frame.env[pending.done_key] = picks


def _by_text(legal: list[Action], text: str) -> Action:
    for action in legal:
        if action.text == text:
            return action
    raise RuleRuntimeError(f"internal error: the pick '{text}' is no longer legal")  # the state did not change


# ---- picks from outside --------------------------------------------------------------------


def in_step(st: State) -> bool:
    return isinstance(st.pending, PendingSimultaneous) and not st.terminal


def players_to_act(st: State) -> list[int]:
    """The seats with a decision to make now: the players of a simultaneous step still
    to pick (in the step's order), else the one player to act, else none."""
    pending = st.pending
    if st.terminal or pending is None:
        return []
    if isinstance(pending, PendingSimultaneous):
        return [p for p, c in zip(pending.players, pending.chosen, strict=True) if c is None]
    return [pending.player]


def picks_so_far(st: State) -> dict[int, str]:
    """The picks made so far from outside the state (those the history holds; not the
    game bots') in the simultaneous step under way. Secret: for the front-ends that
    must hide them and the tools that record them."""
    pending = st.pending
    if not isinstance(pending, PendingSimultaneous):
        return {}
    return {p: c for p, c in zip(pending.players, pending.chosen, strict=True)
            if c is not None and st.seat_bots[p] is None}


def legal_for(st: State, player: int) -> list[Action]:
    """`player`'s legal actions in the step under way ([] once they have picked)."""
    pending = st.pending
    assert isinstance(pending, PendingSimultaneous)
    if not pending.waits_for(player):
        return []
    if player == pending.player:
        return legal_actions(st)  # listed once and kept, as for any decision
    return group_actions(st, pending.group, player)


def choose(st: State, action: Action | str, player: int | None = None) -> None:
    """One player's pick (`player`, or the one a `P2: ...` text names, or else the
    first still to pick). IllegalActionError, changing nothing, if it is not theirs to
    make or not legal; the last pick carries the step out."""
    pending = st.pending
    assert isinstance(pending, PendingSimultaneous)
    if isinstance(action, str):
        named, rest = split_pick(action)
        if named is not None:
            if player is not None and named != player:
                raise IllegalActionError(f"'{action}' is a pick of P{named + 1}, not of P{_seat_text(player)}")
            player, action = named, rest
    if player is None:
        player = pending.player
    _check_turn(st, pending, player)
    chosen = find_for(st, player, action)
    _record(st, pending, player, chosen.text)


def apply_joint(st: State, joint: Sequence[Action | str | None]) -> None:
    """A pick for every player still to pick, one entry per seat (None for the seats
    that do not pick now), checked whole before any is made."""
    pending = st.pending
    if not isinstance(pending, PendingSimultaneous) or st.terminal:
        raise IllegalActionError("apply_actions is for a simultaneous step; this state waits for "
                                 + ("no one: the game is over" if st.terminal else
                                    f"P{st.current_player() + 1} alone (use apply_action)"))
    if isinstance(joint, str | bytes) or not isinstance(joint, Sequence) or len(joint) != st.n:
        got = f"{len(joint)} entries" if isinstance(joint, Sequence) and not isinstance(joint, str) else repr(joint)
        raise IllegalActionError(f"a joint action is a list with one entry per seat ({st.n}), got {got}")
    picks: list[tuple[int, Action]] = []
    for p, action in enumerate(joint):
        if pending.waits_for(p):
            if action is None:
                raise IllegalActionError(f"P{p + 1} has to pick in this step (legal: {sample(legal_for(st, p))}); "
                                         "None is only for the seats that do not pick now")
            picks.append((p, find_for(st, p, action)))
        elif action is not None:
            raise IllegalActionError(f"P{p + 1} does not pick now ({_who(pending)}): give None for that seat, "
                                     f"not {str(action)!r}")
    for p, chosen in picks:
        current = st.pending
        assert isinstance(current, PendingSimultaneous)
        _record(st, current, p, chosen.text)


def find_for(st: State, player: int, action: Action | str) -> Action:
    """The legal action of `player` meant by an Action or its canonical text."""
    options = legal_for(st, player)
    found, text = match(options, action)
    if found is not None:
        return found
    raise IllegalActionError(f"'{text}' is not a legal action of P{player + 1} now; legal: {sample(options)}")


def _check_turn(st: State, pending: PendingSimultaneous, player: Any) -> None:
    if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < st.n:
        raise IllegalActionError(f"no player {player!r}: players are 0..{st.n - 1}")
    if pending.waits_for(player):
        return
    if player in pending.players:
        raise IllegalActionError(f"P{player + 1} has picked already in this simultaneous step ({_who(pending)})")
    raise IllegalActionError(f"P{player + 1} does not pick in this simultaneous step ({_who(pending)})")


def _who(pending: PendingSimultaneous) -> str:
    waiting = [f"P{p + 1}" for p, c in zip(pending.players, pending.chosen, strict=True) if c is None]
    return f"waiting for {', '.join(waiting)}"


def _seat_text(player: Any) -> str:
    return str(player + 1) if isinstance(player, int) else repr(player)


def _record(st: State, pending: PendingSimultaneous, player: int, text: str) -> None:
    """Note a legal pick; the last one reveals them all and runs the game on."""
    st.history.append(pick_text(player, text))
    chosen = [text if p == player else c for p, c in zip(pending.players, pending.chosen, strict=True)]
    waiting = [p for p, c in zip(pending.players, chosen, strict=True) if c is None]
    st.legal_cache = None
    picked = PendingSimultaneous(waiting[0] if waiting else -1, pending.group, pending.done_key,
                                 list(pending.players), chosen)
    if waiting:
        st.pending = picked
        return
    _reveal(st, picked, st.stack[-1])
    if st.queue:  # triggers of paying the costs resolve before the effects
        st.stack.extend(reversed(st.queue))
        st.queue = []
    run(st)


# ---- saves and rules ---------------------------------------------------------------------------


def load_pending(st: State, value: list[Any]) -> PendingSimultaneous:
    """A saved simultaneous step, checked against the state (the picks made must be
    legal in it: the state does not change during a step)."""

    def need(cond: bool, what: str) -> None:
        if not cond:
            raise GameError(f"corrupt save: {what}")

    need(len(value) == 6 and isinstance(value[2], str) and isinstance(value[3], str) and value[3].startswith("#"),
         "bad simultaneous step")
    _, player, group, key, players, chosen = value
    need(group in st.gd.groups, "unknown action group")
    need(isinstance(players, list) and isinstance(chosen, list) and len(players) == len(chosen) > 0,
         "bad simultaneous step")
    need(all(isinstance(p, int) and not isinstance(p, bool) and 0 <= p < st.n for p in players)
         and len(set(players)) == len(players), "a simultaneous step names a player twice or one that does not exist")
    need(all(c is None or isinstance(c, str) for c in chosen), "bad pick in a simultaneous step")
    waiting = [p for p, c in zip(players, chosen, strict=True) if c is None]
    need(bool(waiting) and player == waiting[0], "a simultaneous step waits for the wrong player")
    need(key not in st.stack[-1].env, "the decision waited for is already answered")
    for p, c in zip(players, chosen, strict=True):
        bot = st.seat_bots[p]
        if c is None:
            need(bot is None, "a decision for a seat that a game bot plays")
            need(bool(group_actions(st, group, p)), f"P{p + 1} waits to pick but has no legal action")
        elif c == TURN:
            need(bot is not None and bot.turn is not None, "a bot's turn for a seat that no bot with a turn plays")
        else:
            need(c in {a.text for a in group_actions(st, group, p)}, f"the pick of P{p + 1} is not legal there")
    return PendingSimultaneous(player, group, key, list(players), list(chosen))
