"""Running one scenario: the game loaded with its options, setup run (its decisions
answered by `setup_choices`), the position arranged as data and checked as a save
is (runtime/arrange.py), the flow started, then the actions applied by their text
with `expect:` checked where written and at the end (scenario_expect.py).

The outcome is "ok", "failed" (an expectation did not hold: a Diagnostic with code
`scenario-failed` at the expectation, saying what was expected and what was found) or
"error" (the scenario cannot run as written: an unknown card, an illegal action, rule
files that do not load; Diagnostics with their codes and hints). Games are loaded
once per set of variants and overlays (`GameCache`): scenarios share them.
"""

from __future__ import annotations

from typing import Any

import attrs

from interpreter.diagnostics import (
    Diagnostic,
    GameError,
    IllegalActionError,
    RuleFileError,
    RuleRuntimeError,
    hint_for,
)
from interpreter.game import Game, load_game
from interpreter.model.seats import parse_seat, seating_of
from interpreter.play.scenario_expect import check_expect
from interpreter.play.scenario_names import (
    Names,
    ScenarioProblem,
    counter_entries,
    find_action,
    legal_texts,
    problem,
)
from interpreter.play.scenarios import CALL, PLAYER, Scenario
from interpreter.runtime import arrange
from interpreter.runtime.state import State

SHOWN_LEGAL = 12  # legal actions listed in a message
MAX_REPEATS = 500  # times a `repeat:` applies its action before the scenario gives up


@attrs.frozen
class Outcome:
    scenario: Scenario
    status: str  # "ok", "failed", "error"
    problems: tuple[Diagnostic, ...] = ()


class GameCache:
    """Games by (target, variants, overlays): loaded once, shared by the scenarios."""

    def __init__(self, target: str):
        self.target = target
        self._games: dict[tuple[tuple[str, ...], tuple[str, ...]], Game | RuleFileError] = {}

    def get(self, variants: tuple[str, ...], overlays: tuple[str, ...]) -> Game:
        key = (variants, overlays)
        if key not in self._games:
            try:
                self._games[key] = load_game(self.target, variants=list(variants), overlays=list(overlays))
            except RuleFileError as err:
                self._games[key] = err
        found = self._games[key]
        if isinstance(found, RuleFileError):
            raise ScenarioProblem(list(found.diagnostics))
        return found


def run_scenario(sc: Scenario, games: GameCache, overlays: tuple[str, ...] = (),
                 variants: tuple[str, ...] = ()) -> Outcome:
    """Run one scenario, with `overlays` and `variants` added to its own; never raises
    for anything the scenario or the rules hold."""
    try:
        failures = _run(sc, games, overlays, variants)
    except ScenarioProblem as err:
        return Outcome(sc, "error", tuple(err.diagnostics))
    return Outcome(sc, "failed" if failures else "ok", tuple(failures))


def _overlays(sc: Scenario, given: tuple[str, ...]) -> tuple[str, ...]:
    """The overlays: those given (command line, an expansion's scenarios), then the
    scenario's own `with:`, a path read from the scenario file's folder."""
    own = []
    for name in sc.data.get("with", []):
        beside = sc.folder / name
        own.append(str(beside) if ("/" in name or name.endswith(".yaml")) and beside.exists() else name)
    return (*given, *sc.overlays, *own)


def _run(sc: Scenario, games: GameCache, overlays: tuple[str, ...], variants: tuple[str, ...]) -> list[Diagnostic]:
    data = sc.data
    game = games.get((*variants, *data.get("variants", [])), _overlays(sc, overlays))
    gd = game.definition
    n = data.get("players", len(data["seats"]) if "seats" in data else gd.default_players)
    if not gd.min_players <= n <= gd.max_players:
        raise problem(sc, ("players",), "scenario-players", f"{gd.name} is for {gd.min_players}-{gd.max_players} "
                      f"players, not {n}")
    seats = data.get("seats", ["human"] * n)
    try:
        seating = seating_of([parse_seat(text) for text in seats], gd.bots)
    except GameError as err:
        raise problem(sc, ("seats",), "scenario-seats", str(err)) from None
    if len(seats) != n:
        raise problem(sc, ("seats",), "scenario-seats", f"{len(seats)} seats for {n} players")
    try:
        st = arrange.start_setup(game, n, data.get("seed", 1), seating, data.get("chance", "seeded"),
                                 data.get("setup", "game") == "game")
        _answer_setup(sc, st)
        _arrange(sc, st, game)
        log_from = len(st.log)  # the flow's lines before the first decision count too
        try:
            arrange.begin_flow(st, game)
        except GameError as err:
            if isinstance(err, RuleRuntimeError):
                raise
            raise problem(sc, ("position",), "scenario-position", str(err).removeprefix("corrupt save: ")) from None
        return _act(sc, st, log_from)
    except RuleRuntimeError as err:
        raise ScenarioProblem([err.to_diagnostic(sc.path, "the rules failed: ")]) from None
    except GameError as err:  # anything else the game refused: at the scenario, in words
        raise problem(sc, ("name",), "scenario-error", str(err)) from None


def _answer_setup(sc: Scenario, st: State) -> None:
    """Answer the setup's decisions with `setup_choices`, in order (or each with its
    first option)."""
    choices = sc.data.get("setup_choices", [])
    used = 0
    while not arrange.setup_over(st):
        if st.terminal:
            raise problem(sc, ("setup",), "scenario-setup", "the game ended during its setup")
        options = legal_texts(st)
        if choices == "first":
            st.apply_action(st.legal_actions()[0])
            continue
        if used >= len(choices):
            raise problem(sc, ("setup_choices",) if "setup_choices" in sc.data else ("name",), "scenario-setup",
                          f"the setup waits for P{st.player_asked() + 1}: {st.prompt()} ({_some(options)})",
                          hint="answer it in `setup_choices:` (a list, in order), or write `setup_choices: first`")
        _apply(sc, st, str(choices[used]), ("setup_choices", used), "scenario-setup")
        used += 1
    if isinstance(choices, list) and used < len(choices):
        raise problem(sc, ("setup_choices", used), "scenario-setup",
                      f"the setup asked {used} question{'s' if used != 1 else ''}; this answer is one too many")


def _arrange(sc: Scenario, st: State, game: Game) -> None:
    position = sc.data.get("position") or {}
    names = Names(sc, st)
    for text, value in (position.get("counters") or {}).items():
        for entry in counter_entries(names, text, value, ("position", "counters", text)):
            try:
                arrange.set_counter(st, entry.index, entry.slot, entry.value)
            except GameError as err:
                raise problem(sc, entry.keys, "scenario-counter-range", str(err)) from None
    zones = position.get("zones") or {}
    placed: list[int] = []
    if zones:
        placed = _place(sc, st, names, position, zones)
    for index, text in enumerate(position.get("calls") or []):
        _call(sc, st, game, names, text, ("position", "calls", index), placed)


def _place(sc: Scenario, st: State, names: Names, position: dict[str, Any], zones: dict[str, Any]) -> list[int]:
    """Move the cards of `zones`; the cards placed, in the order written."""
    spare = None
    if "spare" in position:
        spare = names.zone(position["spare"], ("position", "spare"))
    placings = _placings(sc, names, zones)
    try:
        arrange.place_cards(st, placings, spare)
    except GameError as err:
        exact = [p for p in placings if p.mode == "exact"]
        held = [names.card_label(i) for p in exact for i in st.zones[p.slot] if i not in p.cards]
        raise problem(sc, ("position", "zones"), "scenario-spare",
                      f"{err}: the zones written exactly held other cards ({_some(held)})",
                      hint="say where they go with `spare: ZONE` under position (a zone not written exactly)"
                      ) from None
    return [iid for placing in placings for iid in placing.cards]


def _call(sc: Scenario, st: State, game: Game, names: Names, text: str, keys: tuple[Any, ...],
          placed: list[int]) -> None:
    """Run a procedure of the game on the position: `place(P1, ace)`.
    An argument is a player (`P1`), a number, `true`/`false`, a quoted text or a card
    (its id or name: a copy the position placed first, else the first in the game's
    order; `id#copy` for one copy), as the procedure's declared parameter type says."""
    found = CALL.match(text)
    assert found is not None  # (the shape check saw to it)
    name, written = found.group(1), found.group(2)
    procedures = game.raw.get("procedures") or {}
    code = next((c.index for c in st.gd.codes if c.name == f"procedures.{name}"), None)
    if code is None or name not in procedures:
        raise problem(sc, keys, "scenario-unknown-procedure", f"this game has no procedure '{name}'",
                      hint=hint_for(name, list(procedures)))
    declared = procedures[name].get("params") or []
    params = dict(declared) if isinstance(declared, dict) else dict.fromkeys(declared, "any")
    args = [a.strip() for a in written.split(",")] if written.strip() else []
    if len(args) != len(params):
        raise problem(sc, keys, "scenario-call", f"{name} takes {len(params)} argument"
                      f"{'s' if len(params) != 1 else ''} ({', '.join(params)}), not {len(args)}")
    env = {param: _argument(sc, st, names, arg, str(kind), keys, placed) for (param, kind), arg
           in zip(params.items(), args, strict=True)}
    try:
        arrange.call(st, code, env)
    except GameError as err:
        if isinstance(err, RuleRuntimeError):
            raise
        raise problem(sc, keys, "scenario-call", f"{text}: {err}") from None


def _argument(sc: Scenario, st: State, names: Names, arg: str, kind: str, keys: tuple[Any, ...],
              placed: list[int]) -> Any:
    if kind == "player" or (kind != "card" and PLAYER.match(arg)):
        return names.player(arg, keys)
    if kind != "card":
        if arg.lstrip("-").isdigit():
            return int(arg)
        if arg in ("true", "false"):
            return arg == "true"
        if len(arg) > 1 and arg[0] == arg[-1] == '"':
            return arg[1:-1]
    if "#" in arg:
        return names.card_copy(arg, keys)
    index = names.card_def(arg, keys)
    mine = [i for i in placed if st.card_def[i] == index]
    return mine[0] if mine else st.card_def.index(index)


def _placings(sc: Scenario, names: Names, zones: dict[str, Any]) -> list[arrange.Placing]:
    """The cards of each zone written: copies named `id#copy` first (each once), then
    cards named by id or name, each a copy no other line took (one already in that
    zone first, else one in play, else the first in the game's order)."""
    st = names.st
    written: list[tuple[int, str, list[tuple[str, tuple[Any, ...]]]]] = []
    for text, cards in zones.items():
        keys: tuple[Any, ...] = ("position", "zones", text)
        slot = names.zone(text, keys)
        mode, listed = next(iter(cards.items())) if isinstance(cards, dict) else ("exact", cards)
        base = (*keys, mode) if isinstance(cards, dict) else keys
        written.append((slot, mode, [(str(c), (*base, i)) for i, c in enumerate(listed)]))
    taken: dict[int, tuple[Any, ...]] = {}
    chosen: dict[tuple[Any, ...], int] = {}
    for _, _, cards in written:
        for text, keys in cards:
            if "#" in text:
                iid = names.card_copy(text, keys)
                if iid in taken:
                    line, column = sc.at(*taken[iid])
                    raise problem(sc, keys, "scenario-card-twice", f"card {text} is put in two places: here and "
                                  f"at line {line}, column {column}", hint="a card is in one zone only")
                chosen[keys] = iid
                taken[iid] = keys
    for slot, _, cards in written:
        for text, keys in cards:
            if "#" in text:
                continue
            index = names.card_def(text, keys)
            copies = [i for i, d in enumerate(st.card_def) if d == index and i not in taken]
            if not copies:
                total = sum(1 for d in st.card_def if d == index)
                raise problem(sc, keys, "scenario-card-count", f"no copy of {text} is left for this place: the game "
                              f"has {total} and the position puts them all elsewhere",
                              hint="a position moves the game's cards; it makes none")
            iid = min(copies, key=lambda i: (st.loc[i] != slot, st.loc[i] < 0, i))  # in play before out of it
            taken[iid] = keys
            chosen[keys] = iid
    placings = [arrange.Placing(slot, tuple(chosen[k] for _, k in cards), mode) for slot, mode, cards in written]
    return placings


def _act(sc: Scenario, st: State, log_from: int) -> list[Diagnostic]:
    """Apply the actions in order, checking each `expect:` where it stands and the
    scenario's `expect:` at the end; the failures of the first that fails. The log
    lines each reads: those since the previous check (at first: since the position)."""
    for index, step in enumerate(sc.data.get("actions", [])):
        if isinstance(step, dict) and "repeat" in step:
            _repeat(sc, st, step, ("actions", index), log_from)
            continue
        if isinstance(step, dict):
            failures = check_expect(sc, st, step["expect"], ("actions", index, "expect"), log_from)
            if failures:
                return failures
            log_from = len(st.log)
            continue
        if st.terminal:
            raise problem(sc, ("actions", index), "scenario-illegal-action",
                          f"the game is over ({st.end_reason}); no action '{step}' after it")
        _apply(sc, st, str(step), ("actions", index), "scenario-illegal-action")
    if "expect" in sc.data:
        return check_expect(sc, st, sc.data["expect"], ("expect",), log_from)
    return []


def _repeat(sc: Scenario, st: State, step: dict[str, Any], keys: tuple[Any, ...], log_from: int) -> None:
    """`repeat: ACTION` until what `until:` says holds (whose turn, which decision): how a
    scenario reaches a later turn; checked before each time, at most MAX_REPEATS times."""
    text = str(step["repeat"])
    for _ in range(MAX_REPEATS):
        still = check_expect(sc, st, step["until"], (*keys, "until"), log_from)
        if not still:
            return
        if st.terminal:
            break
        _apply(sc, st, text, (*keys, "repeat"), "scenario-illegal-action")
    else:
        still = check_expect(sc, st, step["until"], (*keys, "until"), log_from)
        if not still:
            return
    raise problem(sc, keys, "scenario-repeat", f"'{text}' repeated until the game "
                  f"{'ended' if st.terminal else f'had it {MAX_REPEATS} times'}, and still {still[0].message}")


def _apply(sc: Scenario, st: State, text: str, keys: tuple[Any, ...], code: str) -> None:
    action, seat = find_action(st, text)
    if action is None:
        asked = st.player_asked()
        who = "the chance player" if asked == -1 else f"P{asked + 1}"
        raise problem(sc, keys, code, f"'{text}' is not a legal action here ({who} to act: {st.prompt()})",
                      hint=f"legal now: {_some(legal_texts(st))}")
    try:
        st.apply_action(action, seat)
    except IllegalActionError as err:  # (listed as legal: only a seat mix-up reaches this)
        raise problem(sc, keys, code, str(err)) from None


def _some(texts: list[str]) -> str:
    shown = ", ".join(texts[:SHOWN_LEGAL])
    return (shown + f", ... ({len(texts)} in all)" if len(texts) > SHOWN_LEGAL else shown) or "none"
