"""Every example and bundled game (with every overlay and variant) through the
learning API's conformance checks, playing seeded random games by integer action:

  - the action space numbers every legal move: legal ids are unique, ascending, in
    range, agree with the mask, and each id's text parses back to it;
  - applying an id is applying the legal action it stands for (same history as the
    text API);
  - the observation tensor always has the game's declared shape;
  - what a player may not see changes nothing they are given: a copy of the state with
    every card hidden from the player dealt again (shuffled among the zones hidden
    from them, each zone keeping its count) gives that player the same observation
    string and the same tensor;
  - observation and information-state strings never name a card copy (`id#copy`);
  - the information state replayed from the seed shows the same history the steps
    recorded during play show (the two ways the adapters and the state build it).
"""

from __future__ import annotations

import hashlib
import json
import pathlib
import random
import re
from typing import Any

import pytest
from test_conformance import GAMES, OVERLAYS, _base_of, _id, _variants

from interpreter import Game, State, load_game
from interpreter.runtime.learning import begin_step, information_state_string, open_steps, record_step

FULL_STEPS = 30  # every step of the first game is checked up to here, then a sample
SAMPLE_EVERY = 9
RECALL_STEPS = 60  # steps of each game whose information states are checked for perfect recall
GAMES_PER_COUNT = 2
STEP_CAP = 400  # long games are cut here: the checks are per step, not per ending
COPY = re.compile(r"[a-z0-9_-]#\d")


def _check_step(st: State, game: Game, n: int, rng: random.Random, where: str) -> None:
    space = game.action_space(n)
    shape = game.observation_tensor_shape(n)
    player = st.current_player()
    ids = st.legal_action_ids()
    assert ids and ids == sorted(set(ids)) and 0 <= ids[0] and ids[-1] < space.size, f"{where}: bad ids {ids[:10]}"
    mask = st.legal_actions_mask()
    assert len(mask) == space.size and [a for a, m in enumerate(mask) if m] == ids, f"{where}: mask disagrees"
    for a in ids:
        text = st.action_to_string(player, a)
        assert st.string_to_action(player, text) == a, f"{where}: '{text}' does not parse back to {a}"
    covered = {space.id_of(st, action) for action in st.legal_actions()}
    assert covered == set(ids), f"{where}: some legal actions have no id"
    for p in range(n):
        tensor = st.observation_tensor(p)
        assert [len(tensor)] == shape, f"{where}: tensor of P{p + 1} has {len(tensor)} numbers, not {shape}"
        text = st.observation_string(p)
        assert not COPY.search(text), f"{where}: the observation of P{p + 1} names a card copy"
        other = st.resample_from_infostate(p, rng)
        assert other.observation_string(p) == text, (
            f"{where}: P{p + 1}'s observation changed when what they cannot see was drawn again:\n"
            f"{_first_difference(text, other.observation_string(p))}")
        assert other.observation_tensor(p) == tensor, (
            f"{where}: P{p + 1}'s tensor changed when what they cannot see was drawn again")


def _check_recall(now: str, before: str, trail: Any, recalled: dict[str, str],
                  where: str) -> None:
    """An information state only grows (its first line is the view now), and the same
    one never stands for two different sequences of views and own moves."""
    old, new = before.split("\n")[1:], now.split("\n")[1:]
    sealed = []  # the player's own picks in a simultaneous step under way come last, until it is over
    while old and old[-1].startswith(where.rsplit(", ", 1)[1] + ": "):
        sealed.append(old.pop())
    assert new[:len(old)] == old and all(pick in new for pick in sealed), (
        f"{where}: the information state forgot something")
    seen = trail.copy().hexdigest()
    key = hashlib.sha256(now.encode()).hexdigest()
    assert recalled.setdefault(key, seen) == seen, f"{where}: two histories the player told apart share one"


def _first_difference(a: str, b: str) -> str:
    da, db = json.loads(a), json.loads(b)
    for key in sorted(set(da) | set(db)):
        if da.get(key) != db.get(key):
            return f"{key}: {da.get(key)!r} != {db.get(key)!r}"
    return "(no difference found)"


def check_learning(game: Game, games: int = GAMES_PER_COUNT) -> int:
    """Play and check; returns the number of steps checked (so a test can see work was done)."""
    gd = game.definition
    checked = 0
    for n in range(gd.min_players, gd.max_players + 1):
        # perfect recall: an information state stands for one sequence of what its player
        # saw (their views and their own moves), whatever game it came from
        recalled: dict[str, str] = {}  # digests: an information state's -> its trail's
        for g in range(games):
            seed = 1000 * n + g
            st = game.new_initial_state(n, seed=seed)
            twin = game.new_initial_state(n, seed=seed)  # played by text, to compare
            rng = random.Random(f"learning-{seed}")
            steps = open_steps(st, game.action_space(n))
            last_view = [st.observation_string(p) for p in range(n)]
            trails = [hashlib.sha256(view.encode()) for view in last_view]  # of each player's views and moves
            before = [information_state_string(st, p, steps, game.action_space(n)) for p in range(n)]
            while not st.is_terminal() and len(st.history) < STEP_CAP:
                k = len(st.history)
                where = f"{gd.id} ({n} players, seed {seed}) step {k}"
                if (g == 0 and k < FULL_STEPS) or k % SAMPLE_EVERY == 0:
                    _check_step(st, game, n, rng, where)
                    checked += 1
                space = game.action_space(n)
                a = rng.choice(st.legal_action_ids())
                action = space.legal(st)[a]
                pending = begin_step(st, action, space)
                st.apply_action_id(a)
                record_step(steps, pending, st)
                twin.apply_action(action.text)
                assert st.history == twin.history, f"{where}: id {a} applied another action than '{action.text}'"
                mover = pending.player
                if k >= RECALL_STEPS:
                    continue  # (the views of every step are what a recall check costs: the first ones)
                for p in range(n):
                    if p == mover:
                        trails[p].update(f"\nI {action.text}".encode())
                    view = st.observation_string(p)
                    if view != last_view[p]:  # (a view unchanged by another seat's sealed pick)
                        trails[p].update(("\n" + view).encode())
                        last_view[p] = view
                    if (g == 0 and k < FULL_STEPS) or k % SAMPLE_EVERY == 0:
                        now = information_state_string(st, p, steps, space)
                        _check_recall(now, before[p], trails[p], recalled, f"{where}, P{p + 1}")
                        before[p] = now
            # (every view of the game is written for a replayed information state: of a
            # long game, the first player's)
            for p in range(n) if len(st.history) <= RECALL_STEPS else [0]:
                replayed = st.information_state_string(p)
                assert replayed == information_state_string(st, p, steps, game.action_space(n)), (
                    f"{gd.id} ({n} players, seed {seed}): the replayed history of P{p + 1} differs")
                assert not COPY.search(replayed), f"{gd.id}: the information state names a card copy"
            if st.is_terminal():
                for p in range(n):
                    assert [len(st.observation_tensor(p))] == game.observation_tensor_shape(n)
                assert st.legal_action_ids() == [] and sum(st.legal_actions_mask()) == 0
    return checked


@pytest.mark.parametrize("path", GAMES, ids=_id)
def test_game_learning_conformance(path: pathlib.Path) -> None:
    small = "examples" in path.parts  # the examples are quick: more seeds
    assert check_learning(load_game(str(path)), games=GAMES_PER_COUNT if small else 1) > 0


@pytest.mark.parametrize("overlay", OVERLAYS, ids=_id)
def test_overlay_learning_conformance(overlay: pathlib.Path) -> None:
    assert check_learning(load_game(str(_base_of(overlay)), overlays=[str(overlay)]), games=1) > 0


@pytest.mark.parametrize(("path", "variant"), _variants(), ids=lambda v: v if isinstance(v, str) else _id(v))
def test_variant_learning_conformance(path: pathlib.Path, variant: str) -> None:
    assert check_learning(load_game(str(path), variants=[variant]), games=1) > 0


# ---- the harness catches what it is meant to catch ----------------------------------------------


def test_redeal_changes_hidden_cards_only() -> None:
    game = load_game("kuhn-poker")
    st = game.new_initial_state(2, seed=3)
    rng = random.Random(0)
    seen_other = set()
    for _ in range(30):
        copy = st.resample_from_infostate(0, rng)
        assert copy.observation(0)["zones"]["hand"][0] == st.observation(0)["zones"]["hand"][0]
        seen_other.add(copy.card_text(copy.zones[copy.layout.zbase[1] + 1][0]))
    assert len(seen_other) == 2  # P2's card was dealt again: both cards P1 does not hold


def test_harness_catches_a_leaking_tensor(monkeypatch: pytest.MonkeyPatch) -> None:
    game = load_game("star-market")
    from interpreter.runtime import tensor

    real = tensor.TensorLayout.encode

    def leaky(self: tensor.TensorLayout, st: State, player: int) -> list[float]:
        out = real(self, st, player)
        hand = st.gd.zones[[z.name for z in st.gd.zones].index("hand")].index
        other = st.zones[self.layout.zbase[hand] + (player + 1) % st.n]
        out[0] += sum(st.card_def[iid] for iid in other)  # the next player's hand, hidden
        return out

    monkeypatch.setattr(tensor.TensorLayout, "encode", leaky)
    with pytest.raises(AssertionError, match="tensor changed"):
        check_learning(game, games=1)


def test_harness_catches_a_leaking_observation_string(monkeypatch: pytest.MonkeyPatch) -> None:
    game = load_game("star-market")
    from interpreter.runtime import learning

    real = learning.observation_data

    def leaky(st: State, player: int, space: object) -> dict:
        data = real(st, player, space)  # type: ignore[arg-type]
        data["deck_top"] = st.card_text(st.zones[0][-1]).split("#")[0] if st.zones[0] else None
        return data

    monkeypatch.setattr(learning, "observation_data", leaky)
    with pytest.raises(AssertionError, match="observation changed"):
        check_learning(game, games=1)
