"""Decisions: where a running game waits for a player, and the actions it offers.

A state waits in one of two ways, both plain data in `state.pending`:
  ["actions", player, group, done_key]   the player picks one of the group's actions
  ["choice", player, options, type, prompt, answer_key, allow_done]   a choice inside an effect
Legal actions come in a stable order (declaration order, then each parameter's choices
in order) and each has a canonical text that `apply` accepts back. Seats played by a
game-defined bot never surface a choice: the bot answers it inside the state, with the
state's own random numbers, so games stay deterministic.
"""

from __future__ import annotations

import functools
import json
import re
from typing import TYPE_CHECKING, Any

from . import vm
from .diagnostics import IllegalActionError
from .model import ActionDef

if TYPE_CHECKING:
    from .state import State

DONE = "#done"  # the answer "I have picked enough" of `choose up to`
_PLAIN = re.compile(r"^[A-Za-z0-9_.#:+-]+$")


class Action:
    """One legal move: its canonical text and what applying it means."""

    __slots__ = ("payload", "text")

    def __init__(self, text: str, payload: Any):
        self.text = text
        self.payload = payload

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Action({self.text!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Action):
            return self.text == other.text
        return isinstance(other, str) and self.text == other

    def __hash__(self) -> int:
        return hash(self.text)


def _render_card(st: State, value: Any) -> str:
    if type(value) is int:
        return f"{st.gd.cards[st.card_def[value]].id}#{value}"
    return render(st, value, "card")


def _render_player(st: State, value: Any) -> str:
    return f"P{value + 1}" if type(value) is int else render(st, value, "player")


def _render_int(st: State, value: Any) -> str:
    return str(value) if type(value) is int else render(st, value, "int")


# Renderers of the common parameter types, picked once per parameter, not per value.
_RENDERERS = {"card": _render_card, "player": _render_player, "int": _render_int}


def renderer(type_: str) -> Any:
    return _RENDERERS.get(type_) or (lambda st, value: render(st, value, type_))


def render(st: State, value: Any, type_: str) -> str:
    """The canonical text of one value."""
    if value is None:
        return "none"
    if type_ == "card":
        return f"{st.gd.cards[st.card_def[value]].id}#{value}"
    if type_ == "player":
        return f"P{value + 1}"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value if _PLAIN.match(value) else json.dumps(value)
    if isinstance(value, list):
        inner = type_[5:] if type_.startswith("list:") else "any"
        return "[" + ",".join(render(st, v, inner) for v in value) + "]"
    return str(value)


def people_text(st: State, value: Any, type_: str) -> str:
    """A value for people (log lines, views): cards by name, players as P1.., strings as
    they are, lists joined with commas. Unlike `render`, it need not parse back."""
    if value is None:
        return "none"
    if type_ == "card" and type(value) is int:
        return str(st.gd.cards[st.card_def[value]].name)
    if type_ == "player" and type(value) is int:
        return f"P{value + 1}"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        inner = type_[5:] if type_.startswith("list:") else "any"
        return ", ".join(people_text(st, v, inner) for v in value)
    return str(value)


# ---- waiting ---------------------------------------------------------------------------


def suspend_for_actions(st: State, fr: list[Any], player: int, group: str, done_key: str) -> bool:
    """Wait for `player` to pick an action of `group`; with none legal, the loop ends.
    A seat played by a game bot (one without a `turn` effect) picks at once, inside the
    state, by its `choose` rule; its picks go to the game log, not the history (the
    history holds only what the outside world decided, so replays stay exact)."""
    if vm.check_end(st, "action"):
        return True
    st.pending = ["actions", player, group, done_key]
    st.legal_cache = None
    legal = legal_actions(st)
    if not legal:
        st.pending = None
        return False
    fr[1] -= 1  # run the `take actions` operation again after the action
    bot = st.gd.bots.get(st.seats[player])
    if bot is None:
        return True
    chosen = legal[0] if bot.choose == "first" else legal[vm.randbelow(st, len(legal))]
    st.log.append(f"P{player + 1} ({st.seats[player]}): {chosen.text}")
    _perform(st, chosen)
    return False


def suspend_for_choice(
    st: State, fr: list[Any], player: int, options: list[Any], type_: str, prompt: str, answer: str, allow_done: bool
) -> bool:
    """Wait for `player` to pick one of `options` (or let a game bot pick now)."""
    fr[1] -= 1  # the choosing operation runs again and takes the answer
    bot = st.gd.bots.get(st.seats[player])
    if bot is not None:
        choices = options + [DONE] if allow_done else options
        fr[2][answer] = choices[0] if bot.choose == "first" else choices[vm.randbelow(st, len(choices))]
        return False
    if vm.check_end(st, "action"):
        return True
    st.pending = ["choice", player, list(options), type_, prompt, answer, allow_done]
    st.legal_cache = None
    return True


def unique_options(st: State, options: list[Any], type_: str) -> list[Any]:
    """The options of a choice without repeats (by canonical text, first kept): equal
    values are one answer, and legal action texts must be unique."""
    if len(options) < 2:
        return options
    seen: set[str] = set()
    unique = []
    for option in options:
        text = render(st, option, type_)
        if text not in seen:
            seen.add(text)
            unique.append(option)
    return unique


# ---- what is legal ---------------------------------------------------------------------


def legal_actions(st: State) -> list[Action]:
    if st.legal_cache is not None:
        return st.legal_cache
    pending = st.pending
    result: list[Action] = []
    if pending is None:
        pass
    elif pending[0] == "actions":
        player = pending[1]
        for action in st.gd.groups[pending[2]]:
            if _within_limits(st, action, player):
                try:
                    _enumerate(st, action, player, result)
                except vm.RULE_SLIPS as err:  # conditions run outside the effect loop
                    raise vm.rule_error(f"action '{action.id}' (its params, condition or cost)", err) from None
    else:
        type_ = pending[3]
        result = [Action(render(st, v, type_), v) for v in pending[2]]
        if pending[6]:
            result.append(Action("done", DONE))
    st.legal_cache = result
    return result


def _within_limits(st: State, action: ActionDef, player: int) -> bool:
    for scope, most in action.limits:
        if st.uses[scope].get(f"{action.id}:{player}", 0) >= most:
            return False
    return True


def _enumerate(st: State, action: ActionDef, player: int, out: list[Action]) -> None:
    # One env for the whole walk: domains and conditions only read it (this is the hot
    # path of every decision, so no copies per candidate).
    env: dict[str, Any] = {"me": player}
    params = action.params
    if not params:
        if _allowed(st, action, env):
            out.append(_bare(action.id, action.index))
        return
    seen: set[str] = set()  # equal values in a domain give one action, not two
    if len(params) == 1:
        name, show, head = params[0].name, renderer(params[0].type), action.id + " "
        for value in params[0].domain(st, env):
            env[name] = value
            if _allowed(st, action, env):
                text = head + show(st, value)
                if text not in seen:
                    seen.add(text)
                    out.append(Action(text, (action.index, (value,))))
        return
    shows = [renderer(p.type) for p in params]
    last = len(params)

    def walk(i: int, values: tuple[Any, ...]) -> None:
        if i == last:
            if _allowed(st, action, env):
                text = action.id + "".join(" " + show(st, v) for v, show in zip(values, shows, strict=True))
                if text not in seen:
                    seen.add(text)
                    out.append(Action(text, (action.index, values)))
            return
        name = params[i].name
        for value in params[i].domain(st, env):
            env[name] = value
            walk(i + 1, (*values, value))
        env.pop(name, None)

    walk(0, ())


@functools.cache
def _bare(text: str, index: int) -> Action:
    """The Action of a parameterless action: the same every time, so made once."""
    return Action(text, (index, ()))


def _allowed(st: State, action: ActionDef, env: dict[str, Any]) -> bool:
    if action.condition is not None and not action.condition(st, env):
        return False
    if not action.cost:
        return True
    for ci, offset, amount in action.cost:
        cdef = st.gd.counters[ci]
        slot = env["me"] * cdef.width + offset if cdef.scope == "player" else offset
        floor = cdef.min if cdef.min is not None else 0
        if st.counters[ci][slot] - amount(st, env) < floor:
            return False
    return True


# ---- applying --------------------------------------------------------------------------


def find(st: State, action: Action | str) -> Action:
    """The legal action meant by an Action or its canonical text."""
    options = legal_actions(st)
    if isinstance(action, Action):
        for legal in options:  # the usual case: one of the very objects we handed out
            if legal is action:
                return legal
    text = action.text if isinstance(action, Action) else str(action).strip()
    for legal in options:
        if legal.text == text:
            return legal
    if st.terminal:
        raise IllegalActionError(f"the game is over; '{text}' cannot be played")
    sample = ", ".join(a.text for a in options[:6]) + (" ..." if len(options) > 6 else "")
    raise IllegalActionError(f"'{text}' is not a legal action now; legal: {sample}")


def apply(st: State, action: Action | str) -> None:
    chosen = find(st, action)
    st.history.append(chosen.text)
    _perform(st, chosen)
    vm.run(st)


def _perform(st: State, chosen: Action) -> None:
    """Answer the pending decision with a legal action: set the choice's answer, or pay
    the action's cost and push its effect. Running the effects is the caller's job."""
    pending = st.pending
    assert pending is not None
    st.pending = None
    st.legal_cache = None
    frame = st.stack[-1]
    if pending[0] == "choice":
        frame[2][pending[5]] = chosen.payload
    else:
        index, values = chosen.payload
        act = st.gd.actions[index]
        player = pending[1]
        for scope, _ in act.limits:
            key = f"{act.id}:{player}"
            st.uses[scope][key] = st.uses[scope].get(key, 0) + 1
        env: dict[str, Any] = {"me": player}
        for param, value in zip(act.params, values, strict=True):
            env[param.name] = value
        for ci, offset, amount in act.cost:
            cdef = st.gd.counters[ci]
            slot = player * cdef.width + offset if cdef.scope == "player" else offset
            vm.change_counter(st, ci, slot, -amount(st, env), "pay")
        if act.ends:
            frame[2][pending[3]] = True
        st.stack.append([act.code, 0, env])
        if st.queue:  # triggers of paying the cost resolve before the action's effect
            st.stack.extend(reversed(st.queue))
            st.queue = []
