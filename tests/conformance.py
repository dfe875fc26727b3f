"""A conformance harness any game can be put through.

    from conformance import check_conformance
    check_conformance("examples/tic-tac-toe")

For each player count it plays seeded random games and checks, for every game:
  - it ends (within an action cap), never raises, and its result is well formed;
  - the same seed and the same choices give the same history, result and final JSON;
  - a state saved to JSON at random decision points and loaded back resumes exactly:
    continued with the same actions, it ends with the same history, result and JSON;
  - a clone is independent: applying actions to it leaves the original untouched;
  - every observation hides what the rules declare hidden: cards of zones visible to
    their owner (or to nobody) never appear in another player's (or a spectator's)
    view unless revealed, and such counters show no value; visible zones show exactly
    their cards, sorted when their order is hidden;
  - legal actions have unique canonical texts, each of which applies (on a clone);
  - in a simultaneous step: every seat still to pick has legal actions, the others
    none; nothing any player sees changes while picks come in (the picks are secret);
    the picks given at once (`apply_actions`), or one by one in another order, end the
    step in the same state, whose history replays to it; a bad joint action is refused
    and changes nothing.

Failures raise AssertionError with the game, player count, seed and step, so a failing
game can be replayed by hand.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterable, Sequence
from typing import Any

from interpreter import SIMULTANEOUS, TERMINAL, Game, GameError, State, load_game
from interpreter.runtime.simultaneous import picks_so_far

ACTION_CAP = 5_000  # actions in one game before it counts as stalled
SAVE_POINTS = 2  # random decision points per game where save/load and clone are checked
# Thoroughness vs time: in the first game of each player count, every legal text is
# applied (on a clone) and every observation checked at each of the first FULL_STEPS
# steps; elsewhere a sample of steps is checked.
FULL_STEPS = 150
SAMPLE_RATE = 0.05
SAMPLED_LEGALITY = 3  # legal texts tried at a sampled step


class ConformanceError(AssertionError):
    """A game broke one of the harness's rules."""


def check_conformance(target: str | Game, variants: Sequence[str] = (), overlays: Sequence[str] = (),
                      player_counts: Iterable[int] | None = None, games: int = 20,
                      seats: Sequence[str] | dict[int, Sequence[str]] | None = None,
                      action_cap: int = ACTION_CAP, seed: int = 0) -> dict[int, dict[str, Any]]:
    """Put a game through the conformance checks; returns per player count a summary
    (games, mean actions, wins per seat). `target` is what load_game takes (or a Game).
    `seats`: one list for every player count, or a map player count -> list."""
    game = target if isinstance(target, Game) else load_game(target, variants=list(variants),
                                                              overlays=list(overlays))
    gd = game.definition
    counts = list(player_counts) if player_counts is not None else list(range(gd.min_players, gd.max_players + 1))
    summary: dict[int, dict[str, Any]] = {}
    for n in counts:
        seat_list = _seats_for(seats, n)
        lengths, wins = [], [0] * n
        for g in range(games):
            game_seed = seed * 1_000_003 + n * 10_007 + g
            where = f"{gd.id} with {n} players, seats {seat_list}, seed {game_seed}"
            reference, reference_actions = _playout(game, n, game_seed, seat_list, action_cap, where)
            final, actions = _checked_playout(game, n, game_seed, seat_list, action_cap, len(reference_actions),
                                              full=g == 0, where=where)
            _same(final, reference, f"{where}: the same seed and choices gave another game")
            _expect(actions == reference_actions, f"{where}: the same seed gave other actions")
            lengths.append(len(actions))
            for w in final.winners:
                wins[w] += 1
        summary[n] = {"games": games, "mean_actions": sum(lengths) / max(len(lengths), 1), "wins": wins}
    return summary


# ---- playing -----------------------------------------------------------------------------------


def _seats_for(seats: Sequence[str] | dict[int, Sequence[str]] | None, n: int) -> list[str] | None:
    if seats is None:
        return None
    if isinstance(seats, dict):
        chosen = seats.get(n)
        return list(chosen) if chosen is not None else None
    return list(seats) if len(seats) == n else None


def _chooser(game_seed: int) -> random.Random:
    return random.Random(f"conformance-{game_seed}")


def _playout(game: Game, n: int, game_seed: int, seats: list[str] | None, cap: int,
             where: str) -> tuple[State, list[str]]:
    """A plain seeded random game (the reference the checked run is compared with)."""
    state = _new_state(game, n, game_seed, seats, where)
    rng = _chooser(game_seed)
    actions: list[str] = []
    while not state.is_terminal():
        _expect(len(actions) < cap, f"{where}: no end after {cap} actions (stalled?)")
        legal = state.legal_actions()
        _expect(bool(legal), f"{where}: step {len(actions)}: not over, but nothing is legal")
        text = rng.choice(legal).text
        _apply(state, text, f"{where}: step {len(actions)}")
        actions.append(state.history[-1])  # a pick of a simultaneous step is recorded `P1: text`
    return state, actions


def _new_state(game: Game, n: int, game_seed: int, seats: list[str] | None, where: str) -> State:
    try:
        return game.new_initial_state(n, seed=game_seed, seats=seats)
    except GameError as err:
        raise ConformanceError(f"{where}: the game failed to start: {err}") from err


def _apply(state: State, text: str, where: str) -> None:
    try:
        state.apply_action(text)
    except GameError as err:
        raise ConformanceError(f"{where}: applying '{text}' failed: {err}") from err


def _checked_playout(game: Game, n: int, game_seed: int, seats: list[str] | None, cap: int, length: int,
                     full: bool, where: str) -> tuple[State, list[str]]:
    """The seeded random game again, checking each step; returns the final state."""
    state = _new_state(game, n, game_seed, seats, where)
    rng = _chooser(game_seed)
    probe = random.Random(f"probe-{game_seed}")  # the harness's own choices: never the game's
    resumed: list[tuple[int, str, State]] = []  # (step, how, copy) to finish later
    actions: list[str] = []
    # Decision points where saving is checked, among the `length` steps the same game
    # took when played plainly.
    save_at = set(probe.sample(range(length), min(SAVE_POINTS, length)))
    step_views: dict[int, Any] | None = None  # what each player saw when the simultaneous step began
    while not state.is_terminal():
        step = len(actions)
        here = f"{where}: step {step}"
        _expect(step < cap, f"{where}: no end after {cap} actions (stalled?)")
        if state.is_simultaneous_node():
            _expect(state.current_player() == SIMULTANEOUS, f"{here}: a simultaneous step is not SIMULTANEOUS")
            waiting = state.players_to_act()
            _expect(bool(waiting), f"{here}: a simultaneous step waits for no one")
            player = waiting[0]
            if not picks_so_far(state):  # a new step begins (maybe right after another)
                step_views = None
            step_views = _check_simultaneous(state, waiting, step_views, probe, here)
        else:
            step_views = None
            player = state.current_player()
            _expect(0 <= player < n, f"{here}: current_player() is {player}, not a seat")
            _expect(state.players_to_act() == [player], f"{here}: players_to_act() is not [current_player()]")
        legal = state.legal_actions()
        _expect(bool(legal), f"{here}: not over, but nothing is legal")
        legal_texts = [a.text for a in legal]
        _expect(len(set(legal_texts)) == len(legal_texts),
                f"{here}: legal action texts are not unique: {_dupes(legal_texts)}")
        _expect(state.legal_actions(player) == legal and all(state.legal_actions(p) == [] for p in range(n)
                                                              if p not in state.players_to_act()),
                f"{here}: legal_actions(p) disagrees with current_player()")
        if full and step < FULL_STEPS:
            _check_each_applies(state, legal_texts, here)
            check_observations(state, here)
        elif step < 3 or probe.random() < SAMPLE_RATE:
            _check_each_applies(state, probe.sample(legal_texts, min(SAMPLED_LEGALITY, len(legal_texts))), here)
            check_observations(state, here)
        if step in save_at:
            loaded, cloned = _check_save_and_clone(game, state, probe, here)
            # Each copy is finished at every other save point (either alone costs a game).
            resumed.append((step, "loaded from JSON", loaded) if len(resumed) % 2 == 0 else
                           (step, "cloned", cloned))
        text = rng.choice(legal).text
        _apply(state, text, here)
        actions.append(state.history[-1])
    _check_final(state, n, actions, where)
    check_observations(state, f"{where}: at the end")
    final_json = state.to_json()
    for step, how, copy in resumed:
        label = f"{where}: the state {how} at step {step}"
        for i, text in enumerate(actions[step:]):
            _apply(copy, text, f"{label}, resumed step {step + i}")
        _same(state, copy, f"{label} did not resume identically")
        _expect(copy.to_json() == final_json, f"{label} ended with another JSON")
    return state, actions


def _check_each_applies(state: State, legal_texts: list[str], here: str) -> None:
    before = state.to_json()
    picker = state.players_to_act()[0] if state.is_simultaneous_node() else None
    for text in legal_texts:
        copy = state.clone()
        _apply(copy, text, f"{here} (on a clone)")
        recorded = text if picker is None else f"P{picker + 1}: {text}"
        _expect(copy.history[-1] == recorded if copy.history else False,
                f"{here}: '{text}' applied but the history says {copy.history[-1:]} ")
    _expect(state.to_json() == before, f"{here}: applying actions to clones changed the original")


def _visible(state: State) -> dict[int, Any]:
    """What every player and a spectator see, less their own decision."""
    return {v: {k: x for k, x in state.observation(v).items() if k != "decision"} for v in [*range(state.n), -1]}


def _check_simultaneous(state: State, waiting: list[int], began: dict[int, Any] | None, probe: random.Random,
                        here: str) -> dict[int, Any]:
    """The checks of a simultaneous step (see the module's docstring); returns what each
    player saw when the step began."""
    n = state.n
    for p in range(n):
        legal = state.legal_actions(p)
        _expect(bool(legal) == (p in waiting), f"{here}: P{p + 1} has {len(legal)} legal actions in the step")
        _expect(state.pending_for(p) == (p in waiting), f"{here}: pending_for(P{p + 1}) is wrong")
    views = _visible(state)
    if began is not None:
        _expect(views == began, f"{here}: a pick of the simultaneous step shows in an observation")
    before = state.to_json()
    for bad in ([None] * (n + 1), [None] * n, "x"):
        try:
            state.apply_actions(bad)  # type: ignore[arg-type]
        except GameError:
            pass
        else:
            raise ConformanceError(f"{here}: apply_actions({bad!r}) was accepted")
    _expect(state.to_json() == before, f"{here}: a refused joint action changed the state")
    picks = {p: probe.choice(state.legal_actions(p)).text for p in waiting}
    joint = state.clone()
    _apply_joint(joint, [picks.get(p) for p in range(n)], here)
    reverse = state.clone()
    for p in reversed(waiting):
        try:
            reverse.apply_action(picks[p], player=p)
        except GameError as err:
            raise ConformanceError(f"{here}: P{p + 1}'s pick '{picks[p]}' in reverse order failed: {err}") from err
    _expect(_less_history(joint) == _less_history(reverse),
            f"{here}: the picks at once and one by one in reverse order give other states")
    replayed = state.clone()
    for text in joint.history[len(state.history):]:
        _apply(replayed, text, f"{here} (replaying the joint action)")
    _expect(replayed.to_json() == joint.to_json(), f"{here}: the history of a joint action replays to another state")
    return began if began is not None else views


def _apply_joint(state: State, joint: list[str | None], here: str) -> None:
    try:
        state.apply_actions(joint)
    except GameError as err:
        raise ConformanceError(f"{here}: apply_actions({joint}) failed: {err}") from err


def _less_history(state: State) -> dict[str, Any]:
    data = json.loads(state.to_json())
    data.pop("history")
    return data


def _check_save_and_clone(game: Game, state: State, probe: random.Random, here: str) -> tuple[State, State]:
    saved = state.to_json()
    _expect(json.loads(saved) is not None, f"{here}: to_json() is not JSON")
    try:
        loaded = game.state_from_json(saved)
    except GameError as err:
        raise ConformanceError(f"{here}: a save could not be loaded: {err}") from err
    _expect(loaded.to_json() == saved, f"{here}: a loaded save writes another JSON")
    _expect([a.text for a in loaded.legal_actions()] == [a.text for a in state.legal_actions()],
            f"{here}: a loaded save offers other actions")
    _expect(loaded.current_player() == state.current_player(), f"{here}: a loaded save has another player to act")
    _expect(loaded.observation(-1) == state.observation(-1), f"{here}: a loaded save looks different")
    cloned = state.clone()
    _expect(cloned.to_json() == saved, f"{here}: a clone writes another JSON")
    # Clone independence: play a few random steps on another clone, the original stays.
    scratch = state.clone()
    for _ in range(probe.randint(1, 8)):
        if scratch.is_terminal():
            break
        _apply(scratch, probe.choice(scratch.legal_actions()).text, f"{here} (on a scratch clone)")
    _expect(state.to_json() == saved, f"{here}: playing on a clone changed the original")
    _expect(cloned.to_json() == saved, f"{here}: playing on one clone changed another")
    return loaded, cloned


def _check_final(state: State, n: int, actions: list[str], where: str) -> None:
    _expect(state.is_terminal(), f"{where}: not over at the end")
    _expect(state.current_player() == TERMINAL, f"{where}: current_player() is not TERMINAL at the end")
    _expect(state.legal_actions() == [], f"{where}: legal actions after the end")
    _expect(state.history == actions, f"{where}: the history is not the actions applied")
    _expect(all(isinstance(w, int) and 0 <= w < n for w in state.winners), f"{where}: bad winners {state.winners}")
    returns = state.returns()
    _expect(len(returns) == n and all(isinstance(r, float) and r == r for r in returns),
            f"{where}: bad returns {returns}")
    try:
        state.apply_action(actions[-1] if actions else "anything")
    except GameError:
        pass
    else:
        raise ConformanceError(f"{where}: an action was accepted after the end")
    _expect(state.history == actions, f"{where}: a refused action changed the history")


# ---- hidden information -------------------------------------------------------------------------


def check_observations(state: State, here: str) -> None:
    """No player's (nor a spectator's) observation shows what the rules hide from them."""
    gd, layout = state.gd, state.layout
    viewers = [*range(state.n), -1]
    for viewer in viewers:
        obs = state.observation(viewer)
        _expect(obs.get("player") == viewer, f"{here}: observation({viewer}) is for another player")
        shown = _card_texts(obs)
        # The viewer's own pending decision may name cards it is asked to pick from.
        decision = obs.get("decision")
        own = _card_texts(decision) if decision is not None else set()
        for zdef in gd.zones:
            owners = range(state.n) if zdef.scope == "player" else [-1]
            for i, owner in enumerate(owners):
                cards = state.zones[layout.zbase[zdef.index] + i]
                view = obs["zones"][zdef.name][i] if zdef.scope == "player" else obs["zones"][zdef.name]
                if _may_see(zdef.visible, owner, viewer):
                    listed = view.get("cards")
                    _expect(listed is not None and sorted(listed) == sorted(state.card_text(c) for c in cards),
                            f"{here}: {_who(viewer)} sees the wrong cards in {zdef.name}{_of(owner)}")
                    _expect(zdef.order_visible or listed == sorted(listed),
                            f"{here}: {_who(viewer)} sees the hidden order of {zdef.name}{_of(owner)}")
                    continue
                _expect(view.get("count") == len(cards),
                        f"{here}: {_who(viewer)} sees a wrong count of {zdef.name}{_of(owner)}")
                _expect("cards" not in view, f"{here}: {_who(viewer)} sees the cards of {zdef.name}{_of(owner)}")
                for iid in cards:
                    if iid in state.revealed:
                        continue
                    text = state.card_text(iid)
                    _expect(text not in shown or text in own,
                            f"{here}: {_who(viewer)} can see hidden card {text} of {zdef.name}{_of(owner)}")
        for cdef in gd.counters:
            owners = range(state.n) if cdef.scope == "player" else [-1]
            for i, owner in enumerate(owners):
                if _may_see(cdef.visible, owner, viewer):
                    continue
                view = obs["counters"][cdef.name][i] if cdef.scope == "player" else obs["counters"][cdef.name]
                _expect(view is None,
                        f"{here}: {_who(viewer)} can see counter {cdef.name}{_of(owner)} (visible: {cdef.visible})")
        _expect(json.loads(json.dumps(obs)) == obs, f"{here}: observation({viewer}) is not plain data")


def _may_see(visible: str, owner: int, viewer: int) -> bool:
    return visible == "all" or (visible == "owner" and owner == viewer and viewer >= 0)


_CARD_TEXT = re.compile(r"[a-z][a-z0-9_-]*#[0-9]+(?![0-9])")


def _card_texts(value: Any) -> set[str]:
    """Every card text (`id#n`) found anywhere in a piece of plain data, keys and longer
    strings included."""
    return set(_CARD_TEXT.findall(json.dumps(value)))


def _who(viewer: int) -> str:
    return "a spectator" if viewer < 0 else f"P{viewer + 1}"


def _of(owner: int) -> str:
    return f" of P{owner + 1}" if owner >= 0 else ""


# ---- small helpers -------------------------------------------------------------------------------


def _expect(condition: bool, message: str) -> None:
    if not condition:
        raise ConformanceError(message)


def _same(a: State, b: State, message: str) -> None:
    _expect(a.history == b.history, f"{message}: histories differ")
    _expect(a.result() == b.result(), f"{message}: results differ: {a.result()} vs {b.result()}")
    _expect(a.to_json() == b.to_json(), f"{message}: final JSON differs")


def _dupes(items: list[str]) -> list[str]:
    seen: set[str] = set()
    return sorted({i for i in items if i in seen or seen.add(i)})  # type: ignore[func-returns-value]


__all__ = ["ConformanceError", "check_conformance", "check_observations"]
