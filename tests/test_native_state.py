"""Native states, one decision at a time: `new_initial_state(..., native="on")` plays
the very game the Python state plays, step by step.

Each game the native subset covers is played beside the Python state with random
moves, by every route into the API (an Action, its text, an id, a simultaneous pick by
seat, by `P2: ...` text, a joint action), with clones branching off; at every step both
states must agree on whose turn it is, the legal actions (texts and ids), the seats to
act, and at the end on the returns, the history and the data (counters, zones, cards,
the rules' generator). Then what leaves the usual path: a question only the Python
state answers (it takes over), an illegal move, a rule slip, a refused game.
"""

from __future__ import annotations

import copy
import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import EACH_PLAYER_TURNS, bundled_targets, write_toy

from interpreter import load_game
from interpreter.diagnostics import GameError, IllegalActionError, RuleRuntimeError
from interpreter.native.expressions import NotNative
from interpreter.native.module import lower
from interpreter.native.native_state import NativeState
from interpreter.play.analyze_cli import native_env
from interpreter.runtime.state import State

TOYS = Path(__file__).parent / "native_toys"
# Games the per-step modules cover, with the games compared (at the fewest players).
STEPPED = {"tic-tac-toe": 60, "kuhn-poker": 60, "leduc-poker": 40, "rock-paper-scissors": 40, "breakthrough": 6,
           "goofspiel": 16, "goofspiel-drawn": 16, "race-to-mars": 5, "rocketmen": 6, "target-jupiter": 5,
           "star-market": 5, "star-market-overcharge": 5, "for-all-mankind": 3, "fam-research-change": 2}
# Games some of whose decisions come inside a trigger's effect or a call nested in another
# of the same function: there a native state hands the game to the Python state (it agrees
# with it at every step all the same).
HANDS_OVER: set[str] = set()


def _ids(state, player=None):
    try:
        return state.legal_action_ids(player)
    except GameError as err:  # (a game without an integer numbering says so on both paths)
        return str(err)


def _agree(native, python) -> None:
    assert native.is_terminal() == python.is_terminal()
    assert native.current_player() == python.current_player()
    assert native.players_to_act() == python.players_to_act()
    assert native.is_simultaneous_node() == python.is_simultaneous_node()


def play_beside(game, n: int, seed: int, rng: random.Random, seats=None, stays: bool = True) -> NativeState:
    """One game on both paths, compared at every step; the native state at the end
    (`stays`: which played the whole game itself, handing nothing to the Python path)."""
    native = game.new_initial_state(n, seed, seats, native="on")
    python = game.new_initial_state(n, seed, seats)
    assert isinstance(native, NativeState) and type(python) is State
    branches = []
    while True:
        _agree(native, python)
        if python.is_terminal():
            break
        if python.is_simultaneous_node():
            for p in range(n):
                assert [a.text for a in native.legal_actions(p)] == [a.text for a in python.legal_actions(p)]
                assert _ids(native, p) == _ids(python, p)
            todo = python.players_to_act()
            route = rng.randrange(3)
            if route == 0:  # a joint action, every seat at once
                joint = [None] * n
                for p in todo:
                    joint[p] = rng.choice(python.legal_actions(p)).text
                native.apply_actions(joint)
                python.apply_actions(joint)
            else:
                p = rng.choice(todo)
                text = rng.choice(python.legal_actions(p)).text
                for state in (native, python):
                    state.apply_action(text, p) if route == 1 else state.apply_action(f"P{p + 1}: {text}")
            continue
        mine, theirs = native.legal_actions(), python.legal_actions()
        assert [a.text for a in mine] == [a.text for a in theirs]
        ids = _ids(python)
        assert _ids(native) == ids
        k = rng.randrange(len(mine))
        if rng.random() < 0.2:
            branches.append((native.clone(), python.clone(), len(python.history)))
        route = rng.randrange(3)
        if route == 0:
            native.apply_action(mine[k])
            python.apply_action(theirs[k])
        elif route == 1 or not isinstance(ids, list):
            native.apply_action(mine[k].text)
            python.apply_action(theirs[k].text)
        else:
            a = rng.choice(ids)
            native.apply_action_id(a)
            python.apply_action_id(a)
    assert native.returns() == python.returns()
    assert native.history == python.history and native.seats == python.seats
    assert native.native or not stays, "the native state played the whole game"
    if native.native:
        data = native._data()
        assert (data["counters"], data["zones"], data["card_def"], data["rng"]) == \
            (python.counters, python.zones, python.card_def, python.rng)
        assert data["attrs"] == {key: value for key, value in python.attrs.items() if value is not None}
    for mine, theirs, moved in branches:  # a clone is a state of its own, at the step it was made
        assert mine.history == theirs.history and len(theirs.history) == moved
        _agree(mine, theirs)
    return native


@pytest.mark.parametrize(("label", "base", "overlays"), bundled_targets(), ids=[e[0] for e in bundled_targets()])
def test_every_bundled_game_steps_natively_or_is_refused_with_a_reason(label, base, overlays):
    # lowered for every player count; built and played at the fewest (the counts' modules
    # differ in their sizes only, and building is most of this suite's time: the batched
    # modules are played at the most players, test_native.py)
    game = load_game(base, overlays=list(overlays))
    gd = game.definition
    for n in range(gd.min_players, gd.max_players + 1):
        try:
            source = lower(game, n, step=True)
        except NotNative as err:
            assert str(err), "a refusal says why"
            assert label not in STEPPED, f"{label} should step natively: {err}"
            if n == gd.min_players:
                assert type(game.new_initial_state(n, 1, native="auto")) is State
            continue
        assert "cdef class Stepper" in source
        if label in STEPPED and n == gd.min_players:
            rng = random.Random(n)
            for seed in range(STEPPED[label]):
                play_beside(game, n, seed, rng, stays=label not in HANDS_OVER)


@pytest.mark.parametrize(("n", "seats"), [(2, None), (3, None), (2, ("hoarder", "random")),
                                          (3, ("random", "wild", "eager"))])
def test_the_toy_of_every_lowered_statement_steps_the_same(n, seats):
    # choices (one, up to N), procedures, loops, simultaneous steps over a list, bots
    # that pick inside the state or play a `turn` effect, all stopped at and resumed
    game = load_game(str(TOYS / "mix.yaml"))
    rng = random.Random(7)
    ends = set()
    for seed in range(40):
        state = play_beside(game, n, seed, rng, list(seats) if seats else None)
        ends.add(state.result()["reason"])
    if seats is None:
        assert len(ends) >= 2, "the games end in more than one way"


@pytest.mark.parametrize("n", [2, 3])
def test_card_lists_and_attributes_step_the_same(n):
    # attributes kept per card in the struct, a card effect that uses itself (its running
    # call's fields kept aside, given back), choose one stopped at and resumed
    game = load_game(str(TOYS / "cards.yaml"))
    rng = random.Random(n)
    for seed in range(30):
        play_beside(game, n, seed, rng)


LOOPS = """\
counters:
  score: {scope: player, initial: 0}
zones:
  deck: {scope: global, visible: none}
  hand: {scope: player, visible: owner}
cards:
  chip: {name: Chip, count: 30, in: deck, properties: {worth: 1}}
actions:
  draw:
    during: turn
    effect: |
      for each c in top(deck, 2):
        choose x from [1, 2] by me
        move c to hand(me)
        gain x score
      for each c in hand(me):
        for each k in [1, 2]:
          choose y from [k, k + 1] by me
          gain y score
      let kept = [c for c in hand(me) if c.worth > 0]
      pass_on(kept)
      choose z from [1, 2] by me
      gain len(kept) + z score
    ends: turn
procedures:
  pass_on:
    params: [cards]
    effect: |
      choose w from [0, 1] by me
      gain w + len(cards) score
flow: |
  repeat 3:
    for each p in players:
      turn p:
        take actions turn
scoring:
  score: "score(p)"
"""


def test_loops_one_after_another_share_their_copy_and_lists_of_cards_are_kept_in_a_cards_bytes(tmp_path):
    # the two loops over cards walk their copies one after the other: one array of cards
    # holds both; the loop inside the second holds its own (numbers); `kept`, read after a
    # stop, is cards only; the procedure's argument list is read before its call stops
    game = load_game(str(write_toy(tmp_path, LOOPS)))
    struct = lower(game, 2, step=True).split("cdef struct St:", 1)[1].split("\n\n", 1)[0]
    lists = sorted((ctype, stem) for ctype, stem in re.findall(r"(\w+) f\d+_(items|l)\d+\[LISTCAP\]", struct))
    assert lists == [("card_t", "items"), ("card_t", "l"), ("int64_t", "items")], struct
    rng = random.Random(5)
    for seed in range(12):
        play_beside(game, 2, seed, rng)


ASKED = "".join(f"      choose x{i} from [0, {i % 3 + 1}] by me\n      gain x{i} score\n" for i in range(140))
MANY_STOPS = """\
counters:
  score: {scope: player, initial: 0}
actions:
  ask:
    during: turn
    effect: |
""" + ASKED + """\
    ends: turn
""" + EACH_PLAYER_TURNS.replace("repeat forever:", "repeat 2:") + """\
scoring:
  score: "score(p)"
"""


def test_a_function_with_more_than_127_places_to_stop_keeps_its_place_in_two_bytes(tmp_path):
    # a function's place to resume is one byte, two when it has more than 127 places
    # (140 choices here); the game steps as the Python engine does, resumed at each
    game = load_game(str(write_toy(tmp_path, MANY_STOPS)))
    struct = lower(game, 2, step=True).split("cdef struct St:", 1)[1].split("\n\n", 1)[0]
    places = re.findall(r"(\w+) at\d+\n", struct)
    assert "int16_t" in places and "int8_t" in places, places
    rng = random.Random(3)
    for seed in range(3):
        assert play_beside(game, 2, seed, rng).native


WORD_KEYS = """
counters:
  score: {scope: player, initial: 0}
  picked: {scope: player, initial: 0}
constants:
  colours: [red, green, blue]
actions:
  paint:
    during: turn
    params: {c: "colours", d: "[x for x in colours if x != c]"}
    effect: "gain 1 score"
    ends: turn
  count:
    during: turn
    effect: |
      choose up to 2 n from [1, 3069, 3070, 4094, 5000] prompt "which?"
      for each x in n:
        set picked(me) to picked(me) + x
    ends: turn
flow: |
  repeat 4:
    for each p in players:
      turn p:
        take actions turn
  end game winners [0]
scoring:
  score: "score(p) + picked(p)"
"""


def test_word_parameters_keep_an_options_key_a_number_and_done_is_no_value(tmp_path):
    # stepping.py's keys: an action's words fit twelve bits (the options' ids read in C);
    # a number beyond 3069 makes a tuple key, and `done` never shares one with a value
    # (4094 did: the same key as `done`)
    game = load_game(str(write_toy(tmp_path, WORD_KEYS)))
    state = game.new_initial_state(2, 1, native="on")
    keys = state._keys()
    assert len(keys) == 7 and all(type(k) is int for k in keys)  # (six paints, one count)
    state.apply_action("count")
    keys = state._keys()
    assert [type(k) for k in keys] == [int, int, tuple, tuple, tuple, int] and len(set(keys)) == len(keys)
    rng = random.Random(2)
    for seed in range(12):
        play_beside(game, 2, seed, rng)


@pytest.mark.parametrize("n", [2, 3])
def test_triggers_step_the_same(n, tmp_path):
    # triggers resolved inside a native run, one decision at a time; a trigger whose
    # effect stops for a decision (dusk's choice) hands the game to the Python path there
    game = load_game(str(TOYS / "events.yaml"))
    rng = random.Random(n)
    stayed = [play_beside(game, n, seed, rng, stays=False).native for seed in range(25)]
    assert 0 < sum(stayed) < len(stayed)
    choice = """      choose one by player:
        "discard the top card":
          move top(hand(player)) to discard
        "lose a point" when vp(player) > 0:
          lose 1 vp(player)"""
    rules = (TOYS / "events.yaml").read_text(encoding="utf-8")
    assert choice in rules
    (tmp_path / "game.yaml").write_text(rules.replace(choice, "      move top(hand(player)) to discard"),
                                        encoding="utf-8")
    plain = load_game(str(tmp_path / "game.yaml"))
    for seed in range(25):  # (no trigger stops: each game stays native to the end)
        play_beside(plain, n, seed, rng)


def test_choose_one_with_labels_filled_in_stays_in_python_one_decision_at_a_time(tmp_path):
    rules = (TOYS / "cards.yaml").read_text(encoding="utf-8").replace(
        '"scrap a card" when', '"scrap {len(hand(me))}" when')
    (tmp_path / "cards.yaml").write_text(rules, encoding="utf-8")
    game = load_game(str(tmp_path / "cards.yaml"))
    lower(game, 2)  # (whole playouts need no option's text)
    with pytest.raises(NotNative, match="labels are filled in"):
        lower(game, 2, step=True)


_LEARNING = """
import json, random, sys
from interpreter import load_game
game = load_game(sys.argv[1])
first = game.new_initial_state(2, 0, native="on")
module = sys.modules[type(first).__mro__[1].__module__]
start, games = module.options_known(), []
for seed in range(12):
    state = game.new_initial_state(2, seed, native="on")
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    games.append([state.history, state.returns(), state.native])
print(json.dumps({"start": start, "known": module.options_known(), "games": games}))
"""


def test_the_options_a_process_learned_are_known_to_the_next(tmp_path):
    # native/option_cache.py: written at exit beside the module, read by the next
    # process, which plays the same games knowing them from the start; a file that
    # cannot be read is ignored, never an error
    env = {**os.environ, "ORRERY_CACHE": str(tmp_path)}

    def run() -> dict:
        done = subprocess.run([sys.executable, "-c", _LEARNING, str(TOYS / "cards.yaml")], env=env,
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
        return dict(json.loads(done.stdout))
    first, second = run(), run()
    assert first["start"] == 0 and first["known"] > 10
    assert second["start"] >= first["known"] - 5 and second["games"] == first["games"]
    assert all(native for _, _, native in first["games"])
    [kept] = list(tmp_path.rglob("*.options.json"))
    kept.write_text("{not json", encoding="utf-8")
    third = run()
    assert third["start"] == 0 and third["games"] == first["games"]
    assert json.loads(kept.read_text(encoding="utf-8"))["entries"]  # (written again at exit)



def test_a_kept_option_reads_back_its_id_or_its_face_recipe_and_nothing_else():
    # an option whose id follows a card's face is kept as (base, stride, copy): a file
    # holding anything else there reads as "no id kept" (asked again), never an error
    from interpreter.native.option_cache import _ident
    assert _ident(7) == 7 and _ident([3, 1, 12]) == (3, 1, 12)
    assert _ident(None) is None and _ident("7") is None and _ident([3, "1", 12]) is None and _ident([1, 2]) is None

def test_a_native_world_of_a_search_plays_on_as_the_world_sampled(monkeypatch):
    # ismcts resamples hidden cards (and their attributes): a native clone takes the
    # sampled world's data, and what it does not know from then on (an option's text) is
    # asked of that world's Python state, never of the true game's
    from interpreter.agents.native_worlds import native_root, native_world
    from interpreter.runtime.resample import resample
    monkeypatch.setenv("ORRERY_NATIVE", "on")
    game = load_game("race-to-mars")
    state = game.new_initial_state(2, 11)
    rng = random.Random(3)
    while len(state.history) < 9:
        state.apply_action(rng.choice(state.legal_actions()))
    root = native_root(state, "random", 0, 0, resampled=True)
    assert root is not None
    me = state.current_player()
    for seed in range(8):
        world = native_world(root, resample(state, me, random.Random(seed)))
        python = resample(state, me, random.Random(seed))
        assert world is not python and world.native
        data = world._data()
        assert (data["zones"], data["card_def"], data["rng"]) == (python.zones, python.card_def, python.rng)
        moves = random.Random(seed)
        for _ in range(12):
            mine, theirs = [a.text for a in world.legal_actions()], [a.text for a in python.legal_actions()]
            assert mine == theirs
            if not theirs:
                break
            k = moves.randrange(len(theirs))
            world.apply_action(mine[k])
            python.apply_action(theirs[k])


def test_mcts_worlds_of_a_game_with_chance_stay_python_states(monkeypatch):
    # an mcts world is the root with a fresh generator for the rules' chance; a native
    # state names the options it meets first from the true game's replay, which would
    # name another world's cards: such worlds are Python states (their rollouts in C)
    from interpreter.agents.native_worlds import native_root
    monkeypatch.setenv("ORRERY_NATIVE", "on")
    chance = load_game(str(TOYS / "cards.yaml")).new_initial_state(2, 3)
    assert native_root(chance, "random", 0, 0) is None
    assert native_root(chance, "random", 0, 0, resampled=True) is not None  # (ismcts: the sampled world's own)
    assert native_root(load_game("breakthrough").new_initial_state(2, 3), "random", 0, 0) is not None


def test_a_question_only_the_python_state_answers_hands_the_game_over():
    game = load_game("tic-tac-toe")
    state = game.new_initial_state(2, 5, native="on")
    state.apply_action(state.legal_actions()[4])
    before = state.clone()
    assert state.native
    text = state.observation_string(1)  # (not kept natively: asked of the Python state)
    assert not state.native and before.native
    python = game.new_initial_state(2, 5)
    python.apply_action(python.legal_actions()[4])
    assert text == python.observation_string(1)
    state.apply_action(state.legal_actions()[0])
    python.apply_action(python.legal_actions()[0])
    assert state.to_json() == python.to_json() and state == python
    before.apply_action(before.legal_actions()[0])
    assert before.native and before.history == state.history
    twin = copy.deepcopy(before)  # (a copy is a clone: the struct, and the history)
    assert twin.native and twin.history == before.history and copy.copy(twin).legal_actions() == twin.legal_actions()


@pytest.mark.parametrize("listed", [False, True])
def test_an_id_applied_after_a_question_that_handed_the_game_over_is_the_python_states(listed):
    # ids worked out, maybe the Actions listed, then a question only the Python state
    # answers: the id is applied to the game the Python state now holds (it raised a
    # TypeError with the Actions listed, and without them moved the struct the game no
    # longer follows)
    game = load_game("race-to-mars")
    state, python = game.new_initial_state(2, 3, native="on"), game.new_initial_state(2, 3)
    rng = random.Random(1)
    for step in range(30):
        ids = state.legal_action_ids()
        assert ids == python.legal_action_ids()
        a = rng.choice(ids)
        if listed:
            state.legal_actions()
        if step == 4:
            assert state.native
            text = python.legal_actions()[0].text  # (the native state's Actions, listed or not)
            assert state.string_to_action(state.current_player(), text) == \
                python.string_to_action(python.current_player(), text)
            assert not state.native
        state.apply_action_id(a)
        python.apply_action_id(a)
        assert state.history == python.history
    assert state.to_json() == python.to_json()


def test_a_move_that_starts_an_endless_loop_raises_the_engine_s_error():
    state = load_game(str(TOYS / "loops.yaml")).new_initial_state(2, 1, native="on")
    with pytest.raises(RuleRuntimeError, match="endless loop"):
        state.apply_action("mark 3")
    assert not state.native  # (handed over: the Python state is the game now)


def test_an_illegal_move_is_refused_as_the_python_state_refuses_it():
    game = load_game("tic-tac-toe")
    native, python = game.new_initial_state(2, 1, native="on"), game.new_initial_state(2, 1)
    errors = []
    for state in (native, python):
        with pytest.raises(IllegalActionError) as err:
            state.apply_action("place 99")
        errors.append(str(err.value))
    assert errors[0] == errors[1]
    assert native.history == [] and native.legal_action_ids() == python.legal_action_ids()
    with pytest.raises(IllegalActionError):
        native.apply_action_id(10**6)
    with pytest.raises(GameError):
        native.apply_action(native.legal_actions()[0], player=1)  # (not P2's turn)


def test_a_rule_slip_met_natively_raises_the_engines_own_error():
    game = load_game(str(TOYS / "slips.yaml"))
    rng = random.Random(3)
    slipped = 0
    for seed in range(40):
        native, python = game.new_initial_state(2, seed, native="on"), game.new_initial_state(2, seed)
        while not python.is_terminal():
            k = rng.randrange(len(python.legal_actions()))
            outcome = []
            for state in (native, python):
                try:
                    state.apply_action(state.legal_actions()[k].text)
                    outcome.append(None)
                except GameError as err:
                    outcome.append(str(err))
            assert outcome[0] == outcome[1]
            if outcome[0] is not None:
                slipped += 1
                assert not native.native
                break
    assert slipped, "the toy slips in some game"


def test_refusals_and_modes(tmp_path):
    outside = tmp_path / "game.yaml"  # (a counter of fractions: outside the native subset)
    outside.write_text((TOYS / "cards.yaml").read_text(encoding="utf-8").replace(
        "gone: {scope: global, initial: 0}", "gone: {scope: global, initial: 0, fractions: true}"), encoding="utf-8")
    game = load_game(str(outside))
    assert type(game.new_initial_state(native="auto")) is State
    with pytest.raises(GameError, match=r"no native states for native-cards: .*counters with fractions"):
        game.new_initial_state(native="on")
    with pytest.raises(GameError, match="native mode must be one of"):
        load_game("tic-tac-toe").new_initial_state(native="fast")
    ttt = load_game("tic-tac-toe")
    assert type(ttt.new_initial_state(native="off")) is State
    assert type(ttt.new_initial_state(chance="explicit", native="auto")) is State
    with pytest.raises(GameError, match="explicit chance"):
        load_game("kuhn-poker").new_initial_state(chance="explicit", native="on")
    with pytest.raises(GameError, match="seats"):
        ttt.new_initial_state(seats="random", native="on")


def test_the_returns_and_scores_of_a_finished_game():
    game = load_game("leduc-poker")
    rng = random.Random(1)
    for seed in range(20):
        native, python = game.new_initial_state(2, seed, native="on"), game.new_initial_state(2, seed)
        while not python.is_terminal():
            text = rng.choice(python.legal_actions()).text
            native.apply_action(text)
            python.apply_action(text)
        assert native.returns() == python.returns()
        assert native.native
    assert native.scores() == python.scores() and native.result() == python.result()


def _search(game, spec: str, moves: int, mode: str, monkeypatch) -> list:
    from interpreter.agents.registry import create_agent
    monkeypatch.setenv("ORRERY_NATIVE", mode)
    state = game.new_initial_state(2, 11)
    return _decisions(state, {p: create_agent(spec, game.definition, 3, p) for p in range(2)}, moves)


def _decisions(state, agents: dict, moves: int) -> list:
    """Up to `moves` decisions of the search seats (`agents`, by seat): each one's move,
    whether it searched native worlds, and its root's children (visits, values, proofs)."""
    seen = []
    while not state.is_terminal() and len(seen) < moves:
        agent = agents[state.current_player()]
        action = agent.step(state)
        root = agent.last_root
        seen.append((action.text, agent._root is not None, None if root is None else sorted(
            (text, child.visits, child.total, child.proven) for text, child in root.children.items())))
        state.apply_action(action)
    return seen


@pytest.mark.parametrize(("name", "spec", "moves"), [
    ("tic-tac-toe", "mcts:iterations=200", 9), ("tic-tac-toe", "mcts:iterations=150,solver=1", 9),
    ("breakthrough", "mcts:iterations=40", 4), ("breakthrough", "mcts:iterations=40,margin=0.3", 3),
    ("tic-tac-toe", "mcts:iterations=100,paired=1", 5)])
def test_mcts_over_native_worlds_decides_exactly_as_over_python_worlds(name, spec, moves, monkeypatch):
    # the tree's moves applied in C, the rollouts in C from where each world stands: the
    # same decisions and the same trees (visits, values, proofs), to the last bit
    game = load_game(name)
    native = _search(game, spec, moves, "on", monkeypatch)
    python = _search(game, spec, moves, "off", monkeypatch)
    assert all(used for _, used, _ in native) and not any(used for _, used, _ in python)
    assert [(a, t) for a, _, t in native] == [(a, t) for a, _, t in python]


def _bot_rollout_search(game, spec: str, seats: list[str], start: int, moves: int, mode: str, monkeypatch) -> list:
    """The decisions of `spec` at the seats marked "search" from move `start` of a game
    played at random until then, with each root's children."""
    from interpreter.agents.registry import create_agent
    monkeypatch.setenv("ORRERY_NATIVE", mode)
    state = game.new_initial_state(len(seats), 7, ["random" if s == "search" else s for s in seats])
    rng = random.Random(5)
    while len(state.history) < start:
        state.apply_action(rng.choice(state.legal_actions()))
    return _decisions(state, {p: create_agent(spec, game.definition, 3, p) for p, s in enumerate(seats)
                              if s == "search"}, moves)


@pytest.mark.parametrize(("name", "spec", "seats", "start", "moves"), [
    (str(TOYS / "cards.yaml"), "ismcts:iterations=30,rollout=keeper", ["search", "search"], 2, 8),
    (str(TOYS / "cards.yaml"), "ismcts:iterations=30,rollout=keeper,paired=1,margin=0.5",
     ["search", "keeper", "search"], 2, 8),
    ("race-to-mars", "ismcts:iterations=12,rollout=pilot,paired=1,margin=0.5", ["search", "pilot"], 12, 3)])
def test_rollouts_by_a_game_bot_run_in_c_and_decide_as_in_python(name, spec, seats, start, moves, monkeypatch):
    # a rollout by a game bot seats it everywhere: the decision the rollout starts from
    # is picked at random, the rest of that turn by the bot's choose rule, later turns
    # by its turn effect (hoarder, pilot) — in C as in Python, to the last bit
    game = load_game(name)
    native = _bot_rollout_search(game, spec, seats, start, moves, "on", monkeypatch)
    python = _bot_rollout_search(game, spec, seats, start, moves, "off", monkeypatch)
    assert any(used for _, used, _ in native) and not any(used for _, used, _ in python)
    assert [(a, t) for a, _, t in native] == [(a, t) for a, _, t in python]


def test_the_command_line_plays_search_seats_on_native_worlds_with_the_same_results(monkeypatch):
    def summary(*extra: str) -> dict:
        done = subprocess.run([sys.executable, "-m", "interpreter", "simulate", "tic-tac-toe", "--games", "6",
                               "--seats", "mcts:iterations=30,random", "--json", *extra],
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr
        data = json.loads(done.stdout)
        for key in ("seconds", "games_per_second", "native"):
            data.pop(key, None)
        return data
    assert summary() == summary("--native", "off")
    monkeypatch.setenv("ORRERY_NATIVE", "on")
    with native_env("off"):  # (a command's mode holds while it plays, then what was there before)
        assert os.environ["ORRERY_NATIVE"] == "off"
    assert os.environ["ORRERY_NATIVE"] == "on"


@pytest.mark.parametrize("n", [2, 3])
def test_calls_nested_in_calls_of_the_same_function_stop_and_resume_natively(n):
    # a procedure that calls itself and asks at every depth, a card effect that uses
    # another copy's and asks inside: each call's fields kept at the stop, taken back
    # when resumed; more nested calls waiting than the struct has room for (dig 6): Python
    game = load_game(str(TOYS / "nested.yaml"))
    rng = random.Random(n)
    states = [play_beside(game, n, seed, rng, stays=False) for seed in range(40)]

    def asked_after(history: list[str], opening: str) -> list[int]:
        """How many choices follow each action starting `opening`, before the next action."""
        runs = []
        for i, text in enumerate(history):
            if text.startswith(opening):
                j = i + 1
                while j < len(history) and history[j].isdigit():
                    j += 1
                runs.append(j - i - 1)
        return runs
    native = [s for s in states if s.native]
    assert all("dig 6" in s.history for s in states if not s.native)
    assert any(not s.native for s in states), "a dig 6 goes to the Python path"
    assert any(3 in asked_after(s.history, "dig ") for s in native), "three calls deep, natively"
    assert any(max(asked_after(s.history, "ring "), default=0) >= 2 for s in native), "an echo rang inside a ring"


@pytest.mark.parametrize(("name", "most"), [("race-to-mars", 20 * 1024), ("for-all-mankind", 20 * 1024),
                                          ("goofspiel", 4 * 1024)])
def test_a_clone_copies_each_card_once_and_no_local_that_no_stop_needs(name, most):
    # every zone's cards in one array (not room for every card in every zone), card data
    # in two or four bytes, attributes in records for the copies that have them (not room
    # for every copy), and the rules' locals no stop separates from their reading on the C
    # stack, loops over the players with room for the players, loops one after another in
    # one copy, lists of cards in two bytes a card: Race to Mars's struct was 110,600 bytes
    # with room for each card in each zone and every local kept (38,664 with attributes
    # for every copy, 29,232 with each loop's copy and list of cards in eight bytes a
    # number), goofspiel's 9,264; For All Mankind's (at four) 53,210, 36,568 with a trigger
    # queue of 256 entries, 22,759 with the loops' own copies
    game = load_game(name)
    state = game.new_initial_state(game.definition.min_players, 1, native="on")
    assert state.native
    assert state._struct_bytes() <= most
