"""A save that loads works: a real save edited in each way a fuzzing pass found (a card
moved into a hand, a decision for the wrong player, a counter out of bounds, a frame
pointing at a missing code or operation, a card in two zones or in none, an engine's
hidden local missing) is refused at load with the reason, instead of loading and failing
later with `no entry '#prev19'`. Genuine saves, taken anywhere, still load.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from conftest import toy

from interpreter import Game, GameError, load_game
from interpreter.runtime import saves

Save = dict[str, Any]


@pytest.fixture(scope="module")
def game() -> Game:
    return load_game("race-to-mars")


def _deep_choice(save: Save) -> bool:
    """Waiting for a choice inside an effect, under a turn of the flow (its hidden
    local `#prev...` in the flow's frame, not the one that waits)."""
    pending, stack = save["pending"], save["stack"]
    return (pending is not None and pending[0] == "choice" and len(stack) > 2
            and any(key.startswith("#prev") for key in stack[0][2]))


@pytest.fixture(scope="module")
def real(game: Game) -> Save:
    """A real save of Race to Mars (3 players), waiting for a choice deep in an effect."""
    state = game.new_initial_state(3, seed=11)
    rng = random.Random(4)
    for _ in range(2000):
        save = json.loads(state.to_json())
        if _deep_choice(save):
            return save
        state.apply_action(rng.choice(state.legal_actions()))
    raise AssertionError("no decision deep inside an effect in this game: pick another seed")


def edited(save: Save, change: Callable[[Save], None]) -> str:
    data = json.loads(json.dumps(save))
    change(data)
    return json.dumps(data)


def refusal(game: Game, text: str) -> str:
    with pytest.raises(GameError) as caught:
        game.state_from_json(text)
    message = str(caught.value)
    assert message.startswith("corrupt save: ")
    return message


# ---- helpers that find things in the save -----------------------------------------------------


def slot_of(game: Game, save: Save, zone: str, player: int | None = None) -> int:
    zdef = next(z for z in game.definition.zones if z.name == zone)
    return game.layout(save["players"]).zbase[zdef.index] + (player or 0)


def hand(game: Game, save: Save) -> int:
    return slot_of(game, save, "hand", 0)


def card_outside_hands(game: Game, save: Save) -> int:
    """A card in a shared zone (the route, the deck...)."""
    layout = game.layout(save["players"])
    slot = next(s for s, cards in enumerate(save["zones"]) if cards and layout.zowner[s] == -1)
    return int(save["zones"][slot][-1])


def move_to_hand(game: Game, save: Save, also_location: bool) -> None:
    card = card_outside_hands(game, save)
    save["zones"][save["loc"][card]].remove(card)
    save["zones"][hand(game, save)].append(card)
    if also_location:
        save["loc"][card] = hand(game, save)


def bounded_counter(game: Game) -> tuple[int, int]:
    """(index, max) of a counter with a maximum."""
    cdef = next(c for c in game.definition.counters if c.max is not None)
    return cdef.index, int(cdef.max)  # type: ignore[arg-type]


def unbounded_counter(game: Game) -> int:
    return next(c.index for c in game.definition.counters if c.min is None and c.max is None)


def prev_key(save: Save) -> str:
    return next(k for k in save["stack"][0][2] if k.startswith("#prev"))


def other_player(save: Save) -> int:
    return (save["pending"][1] + 1) % save["players"]


# ---- the tampering -----------------------------------------------------------------------------

TAMPERING: dict[str, tuple[Callable[[Game, Save], None], str]] = {
    "a card moved into a hand": (
        lambda g, d: move_to_hand(g, d, also_location=False),
        r"card \S+#\d+ is in the wrong place: in zone hand\(P1\), but its location says"),
    "a card moved into a hand with its location": (
        lambda g, d: move_to_hand(g, d, also_location=True),
        r"card \S+#\d+ is in hand\(P1\), where its actions leave it in "),
    "a card in two zones": (
        lambda g, d: d["zones"][hand(g, d)].append(card_outside_hands(g, d)),
        r"card \S+#\d+ is in the wrong place: in two zones"),
    "a card in no zone": (
        lambda g, d: d["zones"][d["loc"][card_outside_hands(g, d)]].remove(card_outside_hands(g, d)),
        r"a card is lost between zones: card \S+#\d+ is in no zone, but its location says"),
    "a card taken out of the game": (
        lambda g, d: (lambda c: (d["zones"][d["loc"][c]].remove(c), d["loc"].__setitem__(c, -1)))(
            card_outside_hands(g, d)),
        r"card \S+#\d+ is out of the game, where its actions leave it in "),
    "a card that does not exist in a zone": (
        lambda g, d: d["zones"][hand(g, d)].append(len(d["card_def"]) + 5),
        r"zone hand\(P1\) holds a card that does not exist"),
    "the decision for the wrong player": (
        lambda g, d: d["pending"].__setitem__(1, other_player(d)),
        r"it waits for P\d to choose from .+, where the game waits for P\d to choose from"),
    "the decision for no seat": (
        lambda g, d: d["pending"].__setitem__(1, 7), "bad deciding player"),
    "actions of a group that does not exist": (
        lambda g, d: d.__setitem__("pending", ["actions", d["pending"][1], "no-such-group", "#done1"]),
        "unknown action group"),
    "a choice of the same card twice": (
        lambda g, d: d["pending"].__setitem__(2, [d["pending"][2][0]] * 2), "offers the same option twice"),
    "a choice of one card": (
        lambda g, d: (d["pending"].__setitem__(2, d["pending"][2][:1]), d["pending"].__setitem__(6, False)),
        "a choice with nothing to choose"),
    "a choice of cards that do not exist": (
        lambda g, d: d["pending"].__setitem__(2, [10**6, 10**6 + 1]), "a card to choose from does not exist"),
    "a choice already answered": (
        lambda g, d: d["stack"][-1][2].__setitem__(d["pending"][5], d["pending"][2][0]),
        "the decision waited for is already answered"),
    "another choice": (
        lambda g, d: d["pending"].__setitem__(2, list(reversed(d["pending"][2]))),
        "where the game waits for"),
    "a counter over its maximum": (
        lambda g, d: d["counters"][bounded_counter(g)[0]].__setitem__(0, bounded_counter(g)[1] + 5),
        r"counter \S+ is out of its bounds \(\d+, not within"),
    "a counter changed within its bounds": (
        lambda g, d: d["counters"][unbounded_counter(g)].__setitem__(0, d["counters"][unbounded_counter(g)][0] + 1),
        r"counter \S+ is not what its actions give"),
    "a frame of a code that does not exist": (
        lambda g, d: d["stack"][-1].__setitem__(0, 10**6), "frame points outside the rules"),
    "a frame past its code's end": (
        lambda g, d: d["stack"][1].__setitem__(1, 10**6), "frame points outside the rules"),
    "the waiting frame at its code's end": (
        lambda g, d: d["stack"][-1].__setitem__(1, len(g.definition.codes[d["stack"][-1][0]].ops)),
        "the effect waiting for the decision is over"),
    "a frame at another operation": (
        lambda g, d: d["stack"][0].__setitem__(1, 0), r"effect 1 \(flow\) is at another place of the rules"),
    "a frame missing": (
        lambda g, d: d["stack"].pop(1), r"it runs \d+ effects, where the game runs \d+"),
    "the flow not at the bottom": (
        lambda g, d: d["stack"].insert(0, d["stack"].pop(1)), "the bottom effect is not the game's flow"),
    "a turn's hidden local missing": (
        lambda g, d: d["stack"][0][2].pop(prev_key(d)), r"effect 1 \(flow\) lacks its local '#prev\d+'"),
    "a turn's hidden local changed": (
        lambda g, d: d["stack"][0][2].__setitem__(prev_key(d), (d["stack"][0][2][prev_key(d)] + 1) % 3),
        r"effect 1 \(flow\) has another value of its local '#prev\d+'"),
    "a local added": (
        lambda g, d: d["stack"][-1][2].__setitem__("sneaky", 1), "has a local 'sneaky' it does not have"),
    "the active player changed": (
        lambda g, d: d.__setitem__("active", (d["active"] + 1) % 3), "its 'active' is not what its actions give"),
    "the random state changed": (
        lambda g, d: d.__setitem__("rng", (d["rng"] + 1) % (1 << 64)), "its 'rng' is not what its actions give"),
    "an action that was never legal": (
        lambda g, d: d["history"].__setitem__(0, "no-such-action"), "its actions do not replay"),
}


@pytest.mark.parametrize("case", list(TAMPERING))
def test_an_edited_save_is_refused_with_the_reason(game: Game, real: Save, case: str) -> None:
    change, reason = TAMPERING[case]
    text = edited(real, lambda d: change(game, d))
    assert text != json.dumps(real)  # the edit changed something
    message = refusal(game, text)
    assert re.search(reason, message), message


def test_the_real_save_loads_and_plays_on_like_the_saved_state(game: Game, real: Save) -> None:
    text = json.dumps(real)
    loaded = game.state_from_json(text)
    assert json.loads(loaded.to_json()) == real
    # Going on from the loaded save is going on from the saved state: same course, same end.
    again = game.state_from_json(text)
    for state in (loaded, again):
        rng = random.Random(9)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
    assert loaded.to_json() == again.to_json() and loaded.is_terminal()


def test_without_the_replay_the_missing_local_fails_only_later(game: Game, real: Save,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    # Why the loader replays: the frame that misses the turn's local is not the one that
    # waits, and no field check can know the engine put it there; nothing reads it until
    # that turn ends, actions later.
    text = edited(real, lambda d: d["stack"][0][2].pop(prev_key(d)))
    assert "lacks its local" in refusal(game, text)
    monkeypatch.setattr(saves, "_check_replay", lambda st: None)
    state = game.state_from_json(text)
    rng = random.Random(9)
    with pytest.raises(GameError, match=r"no entry '#prev\d+'"):
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))


NO_LEGAL_ACTION = """
counters:
  vp: {scope: player, initial: 0}
actions:
  score: {during: main, effect: "gain 1 vp(me)", ends: turn}
  never: {during: other, condition: "false", effect: "gain 5 vp(me)", ends: turn}
flow: |
  repeat 2:
    for each p in players:
      turn p:
        take actions main
scoring: {score: "vp(p)"}
"""


def test_a_decision_that_offers_nothing_is_refused(tmp_path: Any) -> None:
    game = toy(tmp_path, NO_LEGAL_ACTION)
    save = json.loads(game.new_initial_state(2, seed=1).to_json())
    assert save["pending"][0] == "actions" and save["pending"][2] == "main"
    save["pending"][2] = "other"
    assert "the decision it waits for offers no legal action" in refusal(game, json.dumps(save))


@pytest.mark.parametrize("target", ["tic-tac-toe", "kuhn-poker", "star-market"])
def test_a_save_at_every_decision_of_a_game_loads(target: str) -> None:
    game = load_game(target)
    state = game.new_initial_state(seed=5)
    rng = random.Random(5)
    while True:
        text = state.to_json()
        assert game.state_from_json(text).to_json() == text
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))


def test_replays_go_on_along_one_game_and_start_over_for_another() -> None:
    # Saves of one game loaded in any order, of a branch and of other games: each is
    # checked against its own actions, whatever was replayed before.
    game = load_game("tic-tac-toe")
    line = game.new_initial_state(2, seed=1)
    saves_along: list[str] = []
    for text in ("place 4", "place 0", "place 8", "place 2"):
        line.apply_action(text)
        saves_along.append(line.to_json())
    branch = game.new_initial_state(2, seed=1)
    for text in ("place 4", "place 0", "place 1"):
        branch.apply_action(text)
    other_seed = game.new_initial_state(2, seed=2)
    other_seed.apply_action("place 4")
    order = [saves_along[1], saves_along[3], saves_along[0], branch.to_json(), saves_along[2], other_seed.to_json()]
    for text in order:
        assert game.state_from_json(text).to_json() == text
    for text in order:
        forged = json.loads(text)
        board = forged["counters"][0]
        board[board.index(0)] = max(board)  # one more mark on the board than the actions made
        with pytest.raises(GameError, match="it is not the game its actions lead to: counter"):
            game.state_from_json(json.dumps(forged))
    assert len(saves._REPLAYS) <= saves._REPLAYS_KEPT
