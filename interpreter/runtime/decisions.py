"""Decisions: where a running game waits for a player, and the actions it offers.

A state waits in one of two ways, both records in `state.pending` (see records.py):
`PendingActions` (the player picks one of an action group's actions) or
`PendingChoice` (a choice inside an effect); with explicit chance, a third:
`PendingChance` (the outcome of a random event, see chance.py). Legal actions come in a stable order
(declaration order, then each parameter's choices in order) and each has a canonical
text that `apply` accepts back. Seats played by a game-defined bot never surface a
choice: the bot answers it inside the state, with the state's own random numbers, so
games stay deterministic. A card the chooser may not see is offered by its place, never
by name (blind.py): the listing holds BlindActions, whose cards the effect runs with.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

import attrs

from interpreter.diagnostics import IllegalActionError, RuleRuntimeError
from interpreter.model import ActionDef
from interpreter.runtime import chance
from interpreter.runtime.actions import DONE, Action, effect_payload, renderer
from interpreter.runtime.blind import choices_hide, hide_listed, hide_options, listing_checks
from interpreter.runtime.counters import affordable, pay
from interpreter.runtime.ending import check_end
from interpreter.runtime.errors import RULE_SLIPS, rule_error
from interpreter.runtime.loop import run, run_on
from interpreter.runtime.present import logged_action, logged_choice
from interpreter.runtime.records import Frame, PendingActions, PendingChance, PendingChoice
from interpreter.runtime.rng import randbelow
from interpreter.runtime.work import charge_again

if TYPE_CHECKING:
    from interpreter.runtime.state import State


# ---- waiting ---------------------------------------------------------------------------


@attrs.define(eq=False)
class ActionWait:
    """Where a `take actions` statement waits, made once when the rules compile: its
    group, the local it reads for "turn over", and the PendingActions record of each
    player who has waited there (never changed once made, so every state waiting there
    shares one: no record is made per decision)."""

    group: str
    done_key: str
    # What the rules settle before any state exists (compile/never.py): whether some
    # end condition is checked after each action, whether the game has bots, and the
    # listing of the group when it is always the same (filled when the build ends).
    checks_action: bool = True
    bots: bool = True
    fixed: tuple[Action, ...] | None = None
    by_player: dict[int, PendingActions] = attrs.field(factory=dict, repr=False)


def suspend_for_actions(st: State, fr: Frame, player: int, wait: ActionWait) -> bool:
    """Wait for `player` to pick an action of the statement's group; with none legal,
    the loop ends. A seat played by a game bot (one without a `turn` effect) picks at
    once, inside the state, by its `choose` rule; its picks go to the game log, not the
    history (the history holds only what the outside world decided, so replays stay
    exact), and in words to `State.picks` (for the front-ends; never saved)."""
    if wait.checks_action and check_end(st, "action"):  # most games have no such end
        return True
    pending = wait.by_player.get(player)
    if pending is None:  # the first wait of this player at this statement
        pending = wait.by_player[player] = PendingActions(player, wait.group, wait.done_key)
    st.pending = pending
    fixed = wait.fixed  # (group_actions' first step, without its call)
    st.legal_cache = legal = list(fixed) if fixed is not None else _listed(st, wait.group, player)
    if not legal:
        st.pending = None
        return False
    fr.pc -= 1  # run the `take actions` operation again after the action
    bot = st.seat_bots[player] if wait.bots else None
    if bot is None:
        return True
    chosen = legal[0] if bot.choose == "first" else legal[randbelow(st, len(legal))]
    st.log.append(f"P{player + 1} ({st.seats[player]}): {chosen.text}")
    if st.picks is not None:  # the same pick in words, for the front-ends (not saved)
        st.picks.append((len(st.log) - 1, f"P{player + 1} ({st.seats[player]}): {logged_action(st, player, chosen)}",
                         True))
    _perform(st, chosen)
    return False


def suspend_for_choice(
    st: State, fr: Frame, player: int, options: list[Any], type_: str, prompt: str, answer: str, allow_done: bool,
    texts: list[str] | None = None,
) -> bool:
    """Wait for `player` to pick one of `options` (or let a game bot pick now). With
    `texts`, the options' canonical texts (`unique_choices` worked them out to drop
    repeats), the listing is kept at once: the same Actions `legal_actions` would make,
    without rendering every option a second time."""
    fr.pc -= 1  # the choosing operation runs again and takes the answer
    bot = st.seat_bots[player]
    if bot is not None:
        choices = options + [DONE] if allow_done else options
        fr.env[answer] = picked = choices[0] if bot.choose == "first" else choices[randbelow(st, len(choices))]
        if len(choices) > 1 and st.picks is not None:  # (a forced answer is no decision: nothing to tell)
            st.picks.append((len(st.log), f"P{player + 1} ({st.seats[player]}): "
                             f"{logged_choice(st, prompt, picked, type_)}", False))
        return False
    if st.gd.ends_by_check["action"] and check_end(st, "action"):
        return True
    st.pending = PendingChoice(player, list(options), type_, prompt, answer, allow_done)
    # (shared by clones like every listing: never changed in place)
    st.legal_cache = None if texts is None else _choice_listing(st, player, options, type_, allow_done, texts)
    return True


def unique_choices(st: State, options: list[Any], type_: str) -> tuple[list[Any], list[str] | None]:
    """The options of a choice without repeats (by canonical text, first kept: equal
    values are one answer, and legal action texts must be unique), and the texts of
    those kept, in step (None when there are fewer than two options: nothing was
    rendered), for `suspend_for_choice` to make the listing's Actions from."""
    if len(options) < 2:
        return options, None
    seen: set[str] = set()
    unique = []
    texts = []
    show = renderer(type_)
    for option in options:
        text = show(st, option)
        if text not in seen:
            seen.add(text)
            unique.append(option)
            texts.append(text)
    return unique, texts


# ---- what is legal ---------------------------------------------------------------------


def legal_actions(st: State) -> list[Action]:
    if st.legal_cache is not None:
        return st.legal_cache
    pending = st.pending
    result: list[Action] = []
    if pending is None:
        pass
    elif isinstance(pending, PendingActions):
        result = group_actions(st, pending.group, pending.player)
    elif isinstance(pending, PendingChance):
        result = chance.outcome_actions(st, pending)
    else:
        result = _choice_listing(st, pending.player, pending.options, pending.type, pending.allow_done)
    st.legal_cache = result
    return result


_TEXT_ACTIONS: dict[str, Action] = {}  # a text option's Action: the same in every state (see _choice_actions)


def _choice_listing(st: State, player: int, options: list[Any], type_: str, allow_done: bool,
                    texts: list[str] | None = None) -> list[Action]:
    """The legal actions of a choice (by `player`): its options' Actions, a card the
    player may not see by its place, then "done" when it may end there. `texts`, the
    options' canonical texts when already worked out (by `unique_choices`), are not
    rendered again."""
    if texts is not None:
        result = [Action(text, option) for text, option in zip(texts, options, strict=True)]
    else:
        result = _choice_actions(st, options, type_)
    if type_ == "card" and choices_hide(st):
        result = hide_options(st, player, result)
    if allow_done:
        result.append(Action("done", DONE))
    return result


def _choice_actions(st: State, options: list[Any], type_: str) -> list[Action]:
    """The Actions of a choice's options. A text option's canonical text is the text
    itself (or its JSON), whatever the state, so its Action is made once and kept
    (actions are immutable: listings and states share them, as the listers' do):
    `choose one` labels are asked again at every such choice."""
    show = renderer(type_)
    if type_ != "str" and type_ != "any":
        return [Action(show(st, v), v) for v in options]
    kept = _TEXT_ACTIONS
    result = []
    for v in options:
        if type(v) is str:
            action = kept.get(v)
            if action is None:
                action = Action(show(st, v), v)
                if len(kept) < 4096:
                    kept[v] = action
        else:
            action = Action(show(st, v), v)
        result.append(action)
    return result


def fixed_listing(actions: tuple[ActionDef, ...]) -> tuple[Action, ...] | None:
    """The listing of a group whose actions are always legal (no parameters, condition,
    cost or use limit: "pass", "end turn"), the same in every state for every player;
    None for other groups. The compiler keeps it in `GameDef.fixed_listings`."""
    if all(not a.params and a.condition is None and not a.cost and not a.limits for a in actions):
        return tuple(_bare(a.id, a.index) for a in actions)
    return None


def group_actions(st: State, group: str, player: int) -> list[Action]:
    """The legal actions of `group` for `player` in this state, in their stable order."""
    fixed = st.gd.fixed_listings.get(group)
    return list(fixed) if fixed is not None else _listed(st, group, player)


def _listed(st: State, group: str, player: int) -> list[Action]:
    """group_actions of a group that is not always legal: each action's lister run."""
    result: list[Action] = []
    resolution_work, st.work = st.work, 0  # a listing has a work budget of its own (work.py)
    # Declared values are memoised for the listing (st.memo, counters.value_of): the
    # state cannot change while actions are listed.
    if st.gd.values:
        st.memo = {}
    action = None
    try:
        for action in st.gd.groups[group]:
            if action.limits and not _within_limits(st, action, player):
                continue
            if action.lister is not None:  # generated at load (compile/enumerators.py): same result, faster
                action.lister(st, player, result)
            else:
                _enumerate(st, action, player, result)
    except RULE_SLIPS as err:  # conditions run outside the effect loop
        assert action is not None
        raise rule_error(f"action '{action.id}' (its params, condition or cost)", err) from None
    finally:
        listing_work, st.work = st.work, resolution_work
        st.memo = None
    if not result:
        # A listing that offers nothing is no decision: the game goes on in the same
        # resolution, so what the listing went through counts there. (A game where
        # nobody can ever move lists again and again: 200,000 steps of listings of a
        # few hundred items each took 15 s before the step budget said so.)
        charge_again(st, listing_work, None)
    checks = listing_checks(st, group)  # None unless the rules may offer hidden cards here
    return result if checks is None else hide_listed(st, player, result, checks)


def _within_limits(st: State, action: ActionDef, player: int) -> bool:
    for scope, most in action.limits:
        if st.uses[scope].get(f"{action.id}:{player}", 0) >= most:
            return False
    return True


def _enumerate(st: State, action: ActionDef, player: int, out: list[Action]) -> None:
    if action.lister is not None:  # generated at load (compile/enumerators.py): same result, faster
        action.lister(st, player, out)
        return
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
    return not action.cost or affordable(st, action.cost, env["me"], env)


# ---- applying --------------------------------------------------------------------------


def match(options: list[Action], action: Action | str) -> tuple[Action | None, str]:
    """The option meant by an Action or its canonical text (None if none), and that text."""
    if isinstance(action, Action):
        for legal in options:  # the usual case: one of the very objects we handed out
            if legal is action:
                return legal, action.text
    text = action.text if isinstance(action, Action) else str(action).strip()
    for legal in options:
        if legal.text == text:
            return legal, text
    return None, text


def sample(options: list[Action]) -> str:
    """The first few options' texts, for a message."""
    return ", ".join(a.text for a in options[:6]) + (" ..." if len(options) > 6 else "")


def find(st: State, action: Action | str) -> Action:
    """The legal action meant by an Action or its canonical text."""
    options = legal_actions(st)
    found, text = match(options, action)
    if found is not None:
        return found
    if st.terminal:
        raise IllegalActionError(f"the game is over; '{text}' cannot be played")
    shown = sample(options)
    if isinstance(st.pending, PendingChance):
        raise IllegalActionError(f"'{text}' is not an outcome of the chance event now ({st.pending.prompt}); "
                                 f"outcomes: {shown}")
    raise IllegalActionError(f"'{text}' is not a legal action now; legal: {shown}")


def apply(st: State, action: Action | str) -> None:
    options = st.legal_cache  # the usual case: an action handed out from the listing kept
    chosen = match(options, action)[0] if options is not None else None
    if chosen is None:
        chosen = find(st, action)
    st.history.append(chosen.text)
    if isinstance(st.pending, PendingChance):
        chance.apply_outcome(st, chosen)
        # the operation that asked runs again, taking the answers given so far in order
        st.chance_pos = 0
        run_on(st, fresh=True)
        return
    waiting = st.stack[-1]
    try:
        _perform(st, chosen)
    except RULE_SLIPS as err:  # paying a cost runs outside the loop: placed where the game waited
        where = st.gd.codes[waiting.code].wheres[waiting.pc]  # the waiting statement runs again next
        raise rule_error(where, rule_error(f"paying for '{chosen.text}'", err)) from None
    run(st)


def take(st: State, chosen: Action, pending: PendingActions) -> None:
    """`apply` of an action just listed for the pending `take actions` (the caller
    found it by identity in `st.legal_cache`), without looking it up again: an action
    with neither cost nor limits has nothing to pay or count, so its frame goes on
    top at once (the same frame `_perform` pushes), and the game runs on."""
    st.history.append(chosen.text)
    index, values = chosen.payload if type(chosen) is Action else effect_payload(chosen)
    act = st.gd.actions[index]
    if act.limits or act.cost:
        waiting = st.stack[-1]
        try:
            _perform(st, chosen)
        except RULE_SLIPS as err:  # as in apply()
            where = st.gd.codes[waiting.code].wheres[waiting.pc]
            raise rule_error(where, rule_error(f"paying for '{chosen.text}'", err)) from None
        run(st)
        return
    st.pending = None
    st.legal_cache = None
    stack = st.stack
    if act.ends:
        stack[-1].env[pending.done_key] = True
    # An effect that never waits, as one call with no frame (compile/direct.py); not
    # while a shuffled pile waits to be dealt (explicit chance): reading its top would.
    # Then what its frame's end would do: the `check: action` ends (while `me` is still
    # the player who acted), and the game runs on. Its work counts in the resolution it
    # starts, as the frame's would (work.py); a rule error it raises is placed already.
    if act.direct is not None and not st.unordered:
        st.work = 0
        act.direct(st, pending.player, *values)
        if st.terminal or (st.gd.ends_by_check["action"] and check_end(st, "action", pending.player)):
            return
        run_on(st)
        return
    env = {"me": pending.player}
    if values:
        for param, value in zip(act.params, values, strict=True):
            env[param.name] = value
    stack.append(Frame(act.code, 0, env))
    if st.queue:  # (as in _perform: nothing is queued while a state waits)
        stack.extend(reversed(st.queue))
        st.queue = []
    run(st)


def _perform(st: State, chosen: Action) -> None:
    """Answer the pending decision with a legal action: set the choice's answer, or pay
    the action's cost and push its effect. Running the effects is the caller's job."""
    pending = st.pending
    assert pending is not None and not isinstance(pending, PendingChance)  # chance outcomes: apply()
    st.pending = None
    st.legal_cache = None
    frame = st.stack[-1]
    if isinstance(pending, PendingChoice):
        frame.env[pending.answer_key] = effect_payload(chosen)
    else:
        index, values = effect_payload(chosen)
        act = st.gd.actions[index]
        if act.limits or act.cost:
            env = pay_for(st, pending.player, index, values)
        else:  # nothing to count or pay: only the locals
            env = {"me": pending.player}
            if values:
                for param, value in zip(act.params, values, strict=True):
                    env[param.name] = value
        if act.ends:
            frame.env[pending.done_key] = True
        st.stack.append(Frame(act.code, 0, env))
        if st.queue:  # triggers of paying the cost resolve before the action's effect
            st.stack.extend(reversed(st.queue))
            st.queue = []


def pay_for(st: State, player: int, index: int, values: Any) -> dict[str, Any]:
    """Count a use of action `index` by `player` and pay its cost; the locals its effect
    runs with (`me` and its parameters). Triggers of the payment are left queued."""
    act = st.gd.actions[index]
    if act.limits:
        key = f"{act.id}:{player}"
        for scope, _ in act.limits:
            st.uses[scope][key] = st.uses[scope].get(key, 0) + 1
    env: dict[str, Any] = {"me": player}
    if values:
        for param, value in zip(act.params, values, strict=True):
            env[param.name] = value
    if act.cost:
        pay(st, act.cost, player, env)
    return env


def end_turn(st: State) -> None:
    """`end turn`: the nearest `take actions` below (the one whose decision is being
    carried out, or about to be asked) takes no more actions this turn, as when an
    action that `ends: turn` is taken. A rule error where no `take actions` waits."""
    codes = st.gd.codes
    for frame in reversed(st.stack):
        key = codes[frame.code].turn_waits.get(frame.pc)
        if key is not None:
            frame.env[key] = True
            return
    raise RuleRuntimeError("'end turn' where no `take actions` waits: it ends a turn's actions, "
                           "so it belongs in an action's effect or what it calls")
