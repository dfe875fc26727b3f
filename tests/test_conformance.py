"""Every example and bundled game (and every overlay, variant and game-defined bot) put
through the conformance harness of tests/conformance.py.

New games are picked up by globbing: a `game.yaml` under examples/ or games/ is a game;
an `overlay.yaml` there is applied to the game it names as `base`.
"""

from __future__ import annotations

import pathlib

import pytest
from conformance import ConformanceError, check_conformance, check_observations

from interpreter import load_game
from interpreter.rules.yamlload import load_yaml

ROOT = pathlib.Path(__file__).resolve().parent.parent
GAMES = sorted([*ROOT.glob("examples/*/game.yaml"), *ROOT.glob("games/*/game.yaml"),
                *ROOT.glob("games/*/*/game.yaml")])
OVERLAYS = sorted([*ROOT.glob("examples/*/overlay.yaml"), *ROOT.glob("games/*/overlay.yaml"),
                   *ROOT.glob("games/*/*/overlay.yaml")])


def _id(path: pathlib.Path) -> str:
    return str(path.parent.relative_to(ROOT))


def _base_of(overlay: pathlib.Path) -> pathlib.Path:
    base = load_yaml(overlay)[0].get("base")
    for game in GAMES:
        if load_yaml(game)[0].get("id") == base:
            return game
    raise AssertionError(f"{overlay}: no example or bundled game has id '{base}'")


@pytest.mark.parametrize("path", GAMES, ids=_id)
def test_game_conformance(path):
    check_conformance(str(path), games=8)


@pytest.mark.parametrize("overlay", OVERLAYS, ids=_id)
def test_overlay_conformance(overlay):
    check_conformance(str(_base_of(overlay)), overlays=[str(overlay)], games=4)


def _variants() -> list[tuple[pathlib.Path, str]]:
    found = []
    for path in GAMES:
        for name in (load_yaml(path)[0].get("variants") or {}):
            found.append((path, name))
    return found


@pytest.mark.parametrize(("path", "variant"), _variants(), ids=lambda v: v if isinstance(v, str) else _id(v))
def test_variant_conformance(path, variant):
    check_conformance(str(path), variants=[variant], games=4)


def _bots() -> list[tuple[pathlib.Path, str]]:
    """Every bot of every game, wherever its files declare it (included files too)."""
    return [(path, name) for path in GAMES for name in load_game(str(path)).definition.bots]


@pytest.mark.parametrize(("path", "bot"), _bots(), ids=lambda v: v if isinstance(v, str) else _id(v))
def test_bot_seat_conformance(path, bot):
    game = load_game(str(path))
    gd = game.definition
    seats = {n: ["random"] + [bot] * (n - 1) for n in range(max(gd.min_players, 2), gd.max_players + 1)}
    if gd.min_players == 1:
        seats[1] = ["random"]
    check_conformance(game, seats=seats, player_counts=sorted(seats), games=3)


def test_the_examples_are_found():
    names = {_id(p) for p in GAMES}
    assert {"examples/tic-tac-toe", "examples/kuhn-poker"} <= names


# ---- the harness catches what it must ------------------------------------------------------------


def test_harness_catches_a_leaking_observation(tmp_path, monkeypatch):
    game = load_game(str(ROOT / "examples" / "kuhn-poker"))
    state = game.new_initial_state(2, seed=3)
    check_observations(state, "ok")
    from interpreter.runtime import state as state_module

    real = state_module.observe

    def leaky(st, player):
        obs = real(st, player)
        obs["debug"] = [st.card_text(i) for i in range(len(st.card_def))]
        return obs
    monkeypatch.setattr(state_module, "observe", leaky)
    with pytest.raises(ConformanceError, match="can see hidden card"):
        check_observations(state, "leak")


def test_harness_catches_a_game_that_never_ends(tmp_path):
    folder = tmp_path / "forever"
    folder.mkdir()
    (folder / "game.yaml").write_text("""\
orrery: 1
id: forever
name: Forever
players: {min: 2, max: 2}
actions:
  wait: {during: main, ends: turn}
flow: |
  repeat forever:
    for each p in players:
      turn p:
        take actions main
""")
    with pytest.raises(ConformanceError, match="no end after 200 actions"):
        check_conformance(str(folder), games=1, action_cap=200)


DICE = """\
orrery: 1
id: dice
name: Dice
players: {min: 2, max: 2}
counters:
  vp: {scope: player}
actions:
  roll: {during: main, effect: "gain random(1, 6) vp", ends: turn}
  rest: {during: main, ends: turn}
flow: |
  repeat 6:
    for each p in players:
      turn p:
        take actions main
scoring: {score: "vp(p)"}
"""


def dice_game(tmp_path):
    folder = tmp_path / "dice"
    folder.mkdir()
    (folder / "game.yaml").write_text(DICE)
    return load_game(str(folder))


def test_harness_passes_a_good_toy(tmp_path):
    summary = check_conformance(dice_game(tmp_path), games=3)
    assert summary[2]["games"] == 3 and sum(summary[2]["wins"]) >= 3


def test_harness_catches_a_save_that_loses_the_random_state(tmp_path, monkeypatch):
    from interpreter.game import factory

    real = factory.load_state

    def forgetful(game, text):
        state = real(game, text)
        state.rng = 12345
        return state
    monkeypatch.setattr(factory, "load_state", forgetful)
    with pytest.raises(ConformanceError, match="a loaded save writes another JSON"):
        check_conformance(dice_game(tmp_path), games=2)


def test_harness_catches_a_clone_that_shares_data(tmp_path, monkeypatch):
    from interpreter.runtime.state import State

    real = State.clone

    def shallow(self):
        copy = real(self)
        copy.counters = self.counters  # shared: playing on the copy changes the original
        return copy
    monkeypatch.setattr(State, "clone", shallow)
    with pytest.raises(ConformanceError, match="changed the original"):
        check_conformance(dice_game(tmp_path), games=2)


def test_harness_catches_duplicate_action_texts(tmp_path, monkeypatch):
    from interpreter.runtime.state import State

    real = State.legal_actions

    def doubled(st, player=None):
        found = real(st, player)
        return found + found[:1]
    monkeypatch.setattr(State, "legal_actions", doubled)
    with pytest.raises(ConformanceError, match="not unique"):
        check_conformance(dice_game(tmp_path), games=1)
