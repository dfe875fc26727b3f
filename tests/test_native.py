"""The native backend: games lowered to C play the very games the Python path plays.

Every bundled game, expansion, mod and example is either lowered or refused with a
reason; each one lowered is compiled and its playouts compared with the Python path's,
field by field, seed by seed. Two toys reach what the bundled games do not: every
statement and built-in of the subset (tests/native_toys/mix.yaml), and a rule slip at
run time (slips.yaml), which the native code hands back to the Python path. The
fallbacks are tested as a machine without a compiler or without Cython meets them.

Compiling a module takes a few seconds of CPU, once per machine: modules are cached
by the hash of their source (in the user's cache folder, ORRERY_CACHE here in one test).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import threading
from pathlib import Path

import attrs
import pytest
from conftest import EACH_PLAYER_TURNS, bundled_targets, write_toy

from interpreter import load_game
from interpreter.diagnostics import GameError
from interpreter.game.playouts import native_final_state, native_mode, played_state
from interpreter.native import build
from interpreter.native.build import NativeUnavailable, cached_path, load_module
from interpreter.native.expressions import NotNative
from interpreter.native.module import lower
from interpreter.play.simulate import SimulationSpec, simulate

TOYS = Path(__file__).parent / "native_toys"
ORRERY = [sys.executable, "-m", "interpreter"]
# Games the native subset covers, with games compared per player count (the Python
# path's cost decides how many: a breakthrough playout is ~6 ms there).
NATIVE = {"tic-tac-toe": 200, "kuhn-poker": 300, "leduc-poker": 300, "rock-paper-scissors": 300, "breakthrough": 40,
          "goofspiel": 60, "goofspiel-drawn": 60, "race-to-mars": 40, "rocketmen": 40, "target-jupiter": 40,
          "star-market": 40, "star-market-overcharge": 40, "for-all-mankind": 20, "fam-research-change": 10}


def _same(game, count: int, num_players: int, **kw) -> None:
    native = game.playouts(count, num_players=num_players, native="on", **kw)
    python = game.playouts(count, num_players=num_players, native="off", **kw)
    assert len(native) == len(python) == count
    for a, b in zip(native, python, strict=True):
        assert a == b, f"seed {a.seed}: native {a} != Python {b}"
    # and the games end with the same data: every counter, every zone in order, every
    # card's definition, the rules' generator
    seats = list(kw.get("seats") or ["random"] * num_players)
    for seed in range(kw.get("seed", 0), kw.get("seed", 0) + 4):
        ended = native_final_state(game, num_players, seed, seats)
        if ended is None:  # (a game the native code hands to the Python path)
            continue
        state = played_state(game, num_players, seed, seats, 10_000)
        assert (ended["counters"], ended["zones"], ended["card_def"], ended["rng"]) == \
            (state.counters, state.zones, state.card_def, state.rng), f"seed {seed}"
        # (an attribute set to none reads the card's property again: the native code keeps none)
        assert ended["attrs"] == {key: value for key, value in state.attrs.items() if value is not None}


@pytest.mark.parametrize(("label", "base", "overlays"), bundled_targets(), ids=[e[0] for e in bundled_targets()])
def test_every_bundled_game_is_lowered_or_refused_with_a_reason(label, base, overlays):
    # lowered for every player count; built and played at the most (the counts' modules
    # differ in their sizes only, and building is most of this suite's time: the per-step
    # modules are played at the fewest players, test_native_state.py)
    game = load_game(base, overlays=list(overlays))
    gd = game.definition
    for n in range(gd.min_players, gd.max_players + 1):
        try:
            source = lower(game, n)
        except NotNative as err:
            assert str(err), "a refusal says why"
            assert label not in NATIVE, f"{label} should be native: {err}"
            continue
        assert "cdef struct St" in source and "def playouts" in source
        if label in NATIVE and n == gd.max_players:
            _same(game, NATIVE[label], n, seed=11)


def test_the_toy_of_every_lowered_statement_plays_the_same_games():
    game = load_game(str(TOYS / "mix.yaml"))
    assert game.native_status(2).module is not None, game.native_status(2).reason
    for n in (2, 3):
        _same(game, 300, n, seed=3)
    ended = {p.reason for p in game.playouts(300, num_players=3, seed=3)}
    # every way of ending: now, at a check point, and when the turn (round) is over
    assert ended == {"broke", "long", "end-game", "dry", "flush"}, "the toy reaches each way of ending"


def test_card_lists_and_attributes_play_the_same_games():
    # properties that are lists (words, rows), attributes the rules set on cards (numbers,
    # cards, lists of words), destroy, choose one, stop, a card effect that uses itself:
    # native equals Python game by game, and field by field, attributes included
    game = load_game(str(TOYS / "cards.yaml"))
    source = lower(game, 2)
    assert "tokens" not in source and "green" not in source  # (fields and words are numbers in C)
    for n in (2, 3):
        _same(game, 300, n, seed=3)
    assert {p.reason for p in game.playouts(200, num_players=2, seed=3)} == {"won", "out"}
    # the module plays them itself: none is handed to the Python path
    assert all(native_final_state(game, 2, seed, ["random", "random"]) is not None for seed in range(40))


@pytest.mark.parametrize(("factor", "stays_native"), [(1_000_000, True), (3_000_000_000, False)])
def test_an_attribute_beyond_four_bytes_hands_the_game_to_python(tmp_path, factor, stays_native):
    # the struct keeps a number set on a card in four bytes (a clone copies one per card);
    # a larger one is a cap met: the game goes on in Python, with the same result
    rules = (TOYS / "cards.yaml").read_text(encoding="utf-8")
    assert rules.count("set c.placed to round_number\n") == 2
    (tmp_path / "game.yaml").write_text(rules.replace(
        "set c.placed to round_number\n", f"set c.placed to round_number * {factor}\n"), encoding="utf-8")
    game = load_game(str(tmp_path / "game.yaml"))
    assert game.playouts(60, num_players=2, seed=3, native="on") == game.playouts(60, num_players=2, seed=3,
                                                                                   native="off")
    finished = [native_final_state(game, 2, seed, ["random", "random"]) for seed in range(10)]
    if stays_native:
        assert all(state is not None for state in finished)
    else:  # (a game that never sets it stays native)
        assert any(state is None for state in finished)



CHIP_DECK = """\
zones:
  deck: {scope: global, visible: none}
  table: {scope: player, visible: all}
cards:
  chip: {name: Chip, count: 200, in: deck, properties: {weight: 1}}
"""

# Each turn marks the deck's top chip with a list of 2 or 5 items.
RECORDS = CHIP_DECK + """\
counters:
  marked: {scope: global, initial: 0}
actions:
  mark:
    during: turn
    params: {items: "[2, 5]"}
    effect: |
      let c = top(deck)
      move c to table(me)
      set c.weight to items + round_number
      set c.marks to [items + i for i in range(items)]
      gain 1 marked
    ends: turn
    label: "mark {items}"
""" + EACH_PLAYER_TURNS + """\
end:
  - id: done
    check: turn
    when: "marked >= 120"
scoring:
  score: "sum([c.weight + len(c.marks) for c in table(p)])"
"""


@pytest.mark.parametrize(("items", "room"), [(2, 100), (5, 51)])
def test_copies_with_attributes_beyond_their_room_hand_the_game_to_python(tmp_path, items, room):
    # 200 copies keep records for 100 of them, and a pool of 256 list items (a clone copies
    # those, not room for every copy): one more is a cap met, and the game goes on in
    # Python with the same result
    game = load_game(str(write_toy(tmp_path, RECORDS)))
    source = lower(game, 2, step=True)
    assert "ATTRCAP = 100\n" in source and "POOLCAP = 256\n" in source
    assert game.playouts(20, num_players=2, seed=3, native="on") == game.playouts(20, num_players=2, seed=3,
                                                                                   native="off")
    native, python = (game.new_initial_state(2, 1, native=mode) for mode in ("on", "off"))
    for k in range(room + 1):  # (the last a copy, or five items, too many)
        assert native.native, f"native after {k} marks"
        native.apply_action(f"mark {items}")
        python.apply_action(f"mark {items}")
    assert not native.native and native.attrs == python.attrs
    while not python.is_terminal():
        native.apply_action("mark 2")
        python.apply_action("mark 2")
    assert native.is_terminal() and native.returns() == python.returns()

@pytest.mark.parametrize(("factor", "pool"), [(1_000_000, "int32_t"), (3_000_000_000, "int32_t"),
                                             (1, "int64_t")])
def test_list_items_set_on_cards_keep_four_bytes_unless_a_card_starts_with_more(tmp_path, factor, pool):
    # the pool keeps list items set on cards in four bytes (a clone copies half as much);
    # an item written beyond them is a cap met (the game goes on in Python, with the same
    # result), and a card whose own list holds one gives the pool eight bytes an item
    rules = RECORDS.replace("set c.marks to [items + i", f"set c.marks to [items * {factor} + i")
    if pool == "int64_t":
        rules = rules.replace("properties: {weight: 1}", "properties: {weight: 1, marks: [5000000000]}")
    game = load_game(str(write_toy(tmp_path, rules)))
    assert f"ctypedef {pool} pool_t\n" in lower(game, 2, step=True)
    native, python = (game.new_initial_state(2, 1, native=mode) for mode in ("on", "off"))
    for _ in range(3):
        native.apply_action("mark 2")
        python.apply_action("mark 2")
    assert native.native == (factor < 2 ** 31) and native.attrs == python.attrs
    while not python.is_terminal():
        native.apply_action("mark 5")
        python.apply_action("mark 5")
    assert native.is_terminal() and native.returns() == python.returns()
    assert game.playouts(20, num_players=2, seed=3, native="on") == game.playouts(20, num_players=2, seed=3,
                                                                                   native="off")


CLEAR = """\
  clear:
    during: turn
    effect: |
      let c = top(deck)
      move c to table(me)
      set c.weight to none
      gain 1 marked
    ends: turn
"""


def test_setting_none_on_a_copy_without_a_record_takes_no_record(tmp_path):
    # record 0 reads none for every field: none written to a copy without a record leaves it
    # there, so 119 cleared copies (the records have room for 100) stay native
    rules = RECORDS.replace("  mark:\n", CLEAR + "  mark:\n").replace("c.weight + len(c.marks)", "c.weight")
    game = load_game(str(write_toy(tmp_path, rules)))
    native, python = (game.new_initial_state(2, 1, native=mode) for mode in ("on", "off"))
    while not python.is_terminal():
        native.apply_action("clear")
        python.apply_action("clear")
        assert native.native
    assert native.is_terminal() and native.result() == python.result()
    assert native.counters == python.counters
    assert native._data()["attrs"] == {} and set(python.attrs.values()) == {None}  # (none reads the property)


def test_calls_nested_in_calls_of_the_same_function_play_the_same_games():
    # a procedure that calls itself, a card effect that uses another copy's, each asking
    game = load_game(str(TOYS / "nested.yaml"))
    for n in (2, 3):
        _same(game, 200, n, seed=5)

def test_triggers_and_events_play_the_same_games():
    # every built-in event and a custom one, heard by the game's triggers and by cards'
    # copies in their zones, `when`, triggers that fire others, a payment's triggers
    # before the effect, a refill's before the refill, a choice in a trigger, a trigger
    # that ends the game: native equals Python game by game and field by field
    from interpreter.runtime import watch
    game = load_game(str(TOYS / "events.yaml"))
    for n in (2, 3):
        _same(game, 300, n, seed=3)
    assert all(native_final_state(game, n, seed, ["random"] * n) is not None for n in (2, 3) for seed in range(40))
    ran: set[str] = set()  # (each trigger of the toy runs in the games compared)
    watch.watcher = lambda st, me, kind, ident, card: ran.add(ident) if kind == "trigger" else None
    try:
        game.playouts(40, num_players=2, seed=3, native="off")
    finally:
        watch.watcher = None
    assert ran == {"scored", "cooled", "spent", "junk", "dawn", "dusk", "tide", "ebb", "kindle", "beacon.glow",
                   "beacon.warm"}
    granted = set()  # (and grants of each duration are read while they run)
    for seed in range(3, 23):
        state = game.new_initial_state(2, seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            granted |= {g.until for g in state.grants}
    assert granted == {"turn", "round", "game"}


def test_a_trigger_chain_too_deep_is_the_engines_error(tmp_path):
    rules = (TOYS / "events.yaml").read_text(encoding="utf-8").replace(
        '  dawn:\n', '  echo:\n    "on": changed chain\n    effect: "gain 1 chain"\n  dawn:\n')
    (tmp_path / "game.yaml").write_text(rules, encoding="utf-8")
    game = load_game(str(tmp_path / "game.yaml"))
    native = game.playouts(3, num_players=2, native="on")
    assert native == game.playouts(3, num_players=2, native="off")
    assert all("trigger chain deeper than 200 effects" in p.error for p in native)


# Each turn sweeps 32 or 33 chips onto the table; two triggers hear each one.
SWEEP = CHIP_DECK + """\
counters:
  heard: {scope: player, initial: 0}
actions:
  sweep:
    during: turn
    params: {k: "[32, 33]"}
    effect: "move top(deck, k) to table(me)"
    ends: turn
    label: "sweep {k}"
triggers:
  counted:
    "on": entered table
    effect: "gain 1 heard(player)"
  weighed:
    "on": entered table
    when: "card.weight > 0"
    effect: "gain card.weight heard(player)"
flow: |
  repeat 2:
    for each p in players:
      turn p:
        take actions turn
scoring:
  score: "heard(p)"
"""


def test_a_statement_that_queues_more_triggers_than_the_queue_holds_hands_the_game_to_python(tmp_path):
    # the trigger queue holds 64 entries (a clone copies them): 33 cards entering a zone two
    # triggers hear queue 66, and the game goes on in Python with the same result
    game = load_game(str(write_toy(tmp_path, SWEEP)))
    assert "if g.tqn >= 64:" in lower(game, 2)
    native = game.playouts(8, num_players=2, seed=1, native="on")
    assert native == game.playouts(8, num_players=2, seed=1, native="off")
    assert any(p.scores[0] == 2 * 2 * 33 for p in native)  # (each card heard twice)
    for sweeps, stays in ((["sweep 32"] * 4, True), (["sweep 32", "sweep 33"], False)):
        state, python = (game.new_initial_state(2, 1, native=mode) for mode in ("on", "off"))
        for label in sweeps:
            state.apply_action(label)
            python.apply_action(label)
        assert state.native == stays and state.counters == python.counters

def test_a_missing_key_of_a_mapping_is_the_engines_slip_on_both_paths(tmp_path):
    # a card's cost mapping without the key a procedure reads: the engine's rule error,
    # which the native code hands to the Python path to report
    rules = (TOYS / "cards.yaml").read_text(encoding="utf-8").replace(
        "cost: {red: 1, blue: 0, green: 0}", "cost: {red: 1, green: 0}")
    (tmp_path / "game.yaml").write_text(rules, encoding="utf-8")
    game = load_game(str(tmp_path / "game.yaml"))
    native = game.playouts(60, num_players=2, seed=3, native="on")
    assert native == game.playouts(60, num_players=2, seed=3, native="off")
    assert any("no entry 'blue'" in (p.error or "") for p in native)


@pytest.mark.parametrize(("change", "refused"), [
    (("grid: [[1, 2], [3, 4]]", "grid: [[1, 2], [3]]"), "rows of unequal lengths"),
    (("gives: [green]", "gives: green"), "a list on some cards and not on others"),
    (("gives: [red, blue]", "gives: [red, 2.5]"), "not a number or a word")])
def test_card_data_the_subset_cannot_hold_is_refused_with_the_reason(tmp_path, change, refused):
    path = tmp_path / "cards.yaml"
    path.write_text((TOYS / "cards.yaml").read_text(encoding="utf-8").replace(*change), encoding="utf-8")
    game = load_game(str(path))
    with pytest.raises(NotNative, match=refused):
        lower(game, 2)
    assert game.playouts(5, num_players=2, native="auto") == game.playouts(5, num_players=2, native="off")


@pytest.mark.parametrize(("target", "seats"), [
    (str(TOYS / "mix.yaml"), ("hoarder", "wild")), (str(TOYS / "mix.yaml"), ("eager", "random", "hoarder")),
    (str(TOYS / "mix.yaml"), ("wild", "first", "eager")), ("goofspiel", ("matcher", "gambler")),
    (str(TOYS / "cards.yaml"), ("keeper", "random")), (str(TOYS / "cards.yaml"), ("random", "keeper", "random")),
    ("goofspiel", ("random", "matcher", "first")), ("tic-tac-toe", ("first", "random"))])
def test_first_seats_and_game_bots_play_the_same_games(target, seats):
    # `first` agents, bots that pick first or with the rules' generator (no decision of the
    # history: not counted as actions), bots that play their `turn` effect instead
    game = load_game(target)
    _same(game, 150, len(seats), seats=list(seats), seed=4)


def test_seats_the_native_code_does_not_play_keep_the_game_in_python():
    game = load_game("tic-tac-toe")
    assert game.playouts(2, seats=["mcts:iterations=5", "random"]) == \
        game.playouts(2, seats=["mcts:iterations=5", "random"], native="off")
    with pytest.raises(GameError, match="seat 'mcts:iterations=5' plays in Python"):
        game.playouts(2, seats=["mcts:iterations=5", "random"], native="on")


def test_a_game_the_native_code_cannot_finish_is_played_on_the_python_path():
    game = load_game(str(TOYS / "slips.yaml"))
    native = game.playouts(60, native="on")
    assert native == game.playouts(60, native="off")
    slips = [p for p in native if p.error]
    assert slips and all("cell[3] is out of range" in p.error for p in slips)
    assert any(p.error is None for p in native)
    # the action cap: every game stopped after 3 actions, reported as the Python path does
    capped = load_game(str(TOYS / "mix.yaml")).playouts(20, max_actions=3, native="on")
    assert all(p.error and "did not end within 3 actions" in p.error for p in capped if p.actions == 0)
    assert capped == load_game(str(TOYS / "mix.yaml")).playouts(20, max_actions=3, native="off")


_WORDS = """
orrery: 1
id: words
name: Words
version: "1.0"
description: Words read natively.
players: {min: 2, max: 2}
counters: {n: {scope: global, initial: 0}}
zones: {tableau: {scope: global, visible: all}}
cards:
  a: {name: A, count: 2, in: tableau, properties: {suit: scarlet, rank: 1}}
  b: {name: B, count: 1, in: tableau, properties: {rank: 2, mixed: 3}}
  c: {name: C, count: 1, in: tableau, properties: {rank: 3, mixed: blue}}
actions:
  go: {during: turn, params: {c: tableau}, condition: 'COND', effect: "gain 1 n", ends: turn}
flow: |
  repeat 2:
    for each p in players:
      turn p:
        take actions turn
"""


@pytest.mark.parametrize(("condition", "refused"), [
    ('c.suit == "scarlet" and zone_of(c) == "tableau" and c.id != "b" and c.suit != none', None),
    ('c.mixed == "blue"', "neither a number nor a word"),  # (a number on one card, a word on another)
    ('c.id < "b"', "the order of words"),  # (words are equal or not; their order stays in Python)
    ("c.suit + 1 > 0", "arithmetic on them")])
def test_words_are_compared_natively_and_only_compared(tmp_path, condition, refused):
    path = tmp_path / "words.yaml"
    path.write_text(_WORDS.replace("COND", condition))
    game = load_game(str(path))
    if refused is None:
        source = lower(game, 2)
        assert "scarlet" not in source and "tableau" not in source  # (a word is a number in C)
        assert game.playouts(40, native="on") == game.playouts(40, native="off")
        return
    with pytest.raises(NotNative, match=refused):
        lower(game, 2)


def test_a_game_that_loops_for_ever_goes_to_the_python_path_and_never_hangs():
    # (a `while` that never ends: the native code gives the game up after its work cap,
    # and the Python path reports the endless loop with its step budget)
    game = load_game(str(TOYS / "loops.yaml"))
    native = game.playouts(12, native="on")
    assert native == game.playouts(12, native="off")
    assert any(p.error and "endless loop" in p.error for p in native) and any(p.error is None for p in native)


def test_simulate_gives_the_same_summary_native_or_not():
    spec = SimulationSpec("kuhn-poker", (), (), 2, ("random", "random"))
    summaries = []
    for native, workers in (("on", 2), ("off", 1)):
        summary = simulate(attrs.evolve(spec, native=native), 600, 5, workers)
        assert summary["native"] == (native == "on")
        for key in ("seconds", "games_per_second", "workers", "native"):
            summary.pop(key, None)
        summaries.append(summary)
    assert summaries[0] == summaries[1]


def test_the_command_line_chooses_and_reports_the_backend(tmp_path):
    done = subprocess.run([*ORRERY, "simulate", "tic-tac-toe", "--games", "50", "--native", "on", "--json"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    off = subprocess.run([*ORRERY, "simulate", "tic-tac-toe", "--games", "50", "--native", "off", "--json"],
                         capture_output=True, text=True, timeout=600)
    assert _without_time(done.stdout) == _without_time(off.stdout)
    outside = tmp_path / "game.yaml"  # (a counter of fractions: outside the native subset)
    outside.write_text((TOYS / "cards.yaml").read_text(encoding="utf-8").replace(
        "gone: {scope: global, initial: 0}", "gone: {scope: global, initial: 0, fractions: true}"), encoding="utf-8")
    refused = subprocess.run([*ORRERY, "simulate", str(outside), "--games", "2", "--native", "on"],
                             capture_output=True, text=True, timeout=600)
    assert refused.returncode == 1 and "no native backend for native-cards" in refused.stderr
    assert "counters with fractions" in refused.stderr and "Traceback" not in refused.stderr
    auto = subprocess.run([*ORRERY, "simulate", str(outside), "--games", "2"], capture_output=True, text=True,
                          timeout=600)
    assert auto.returncode == 0 and auto.stderr.count("native: playing in Python") == 1
    bad = subprocess.run([*ORRERY, "simulate", "tic-tac-toe", "--native", "maybe"], capture_output=True, text=True,
                         timeout=600)
    assert bad.returncode == 2 and "invalid choice" in bad.stderr


def _without_time(text: str) -> str:
    data = json.loads(text)
    for key in ("seconds", "games_per_second", "native"):
        data.pop(key, None)
    return json.dumps(data, sort_keys=True)


def test_the_mode_comes_from_the_environment(monkeypatch):
    monkeypatch.setenv("ORRERY_NATIVE", "off")
    assert native_mode() == "off" and native_mode("on") == "on"
    monkeypatch.setenv("ORRERY_NATIVE", "sometimes")
    with pytest.raises(GameError, match="ORRERY_NATIVE"):
        native_mode()
    monkeypatch.delenv("ORRERY_NATIVE")
    assert native_mode() == "auto"


def test_a_module_another_process_is_building_is_waited_for_not_built_twice(tmp_path, monkeypatch):
    # two users of one cache (the suite's two processes, a simulation's workers): the
    # second waits on the first's build and loads what it built
    fcntl = pytest.importorskip("fcntl")
    monkeypatch.setenv("ORRERY_CACHE", str(tmp_path))
    monkeypatch.setattr(build, "_LOADED", {})
    builds, first_building, first_may_end = [], threading.Event(), threading.Event()
    second_moved = threading.Event()  # (the second has asked for the lock, or begun its own build)

    def slow_build(source, path):
        builds.append(threading.current_thread().name)
        if len(builds) == 1:
            first_building.set()
            assert first_may_end.wait(600)
        else:
            second_moved.set()
        path.write_text("built")

    real_flock = fcntl.flock

    def flock(handle, how):
        if threading.current_thread().name == "second" and how == fcntl.LOCK_EX:
            second_moved.set()
        real_flock(handle, how)

    monkeypatch.setattr(build, "_build", slow_build)
    monkeypatch.setattr(build, "_import", lambda path: path.read_text())
    monkeypatch.setattr(fcntl, "flock", flock)
    results = {}

    def load(name):  # (each thread a cache user of its own: nothing loaded in memory yet)
        results[name] = build.load_module("# a module's source\n")
        build._LOADED.clear()

    first = threading.Thread(target=load, args=("first",), name="first", daemon=True)
    first.start()
    assert first_building.wait(600)
    second = threading.Thread(target=load, args=("second",), name="second", daemon=True)
    second.start()
    try:
        assert second_moved.wait(600)
        assert builds == ["first"], "the second built while the first was building"
    finally:
        first_may_end.set()
    first.join(600)
    second.join(600)
    assert builds == ["first"] and results == {"first": ("built", True), "second": ("built", False)}

def test_without_a_compiler_the_python_path_plays_and_says_why(tmp_path, monkeypatch):
    monkeypatch.setenv("ORRERY_CACHE", str(tmp_path))
    monkeypatch.setenv("CC", "/nonexistent/cc")
    monkeypatch.setattr(build, "_LOADED", {})  # (as a fresh process: none loaded yet)
    game = load_game("tic-tac-toe")
    game.__dict__.pop("_native", None)
    status = game.native_status(2)
    assert status.module is None and "no C compiler found" in status.reason
    assert game.playouts(30, seed=2) == game.playouts(30, seed=2, native="off")
    with pytest.raises(GameError, match="no C compiler found"):
        game.playouts(3, native="on")
    game.__dict__.pop("_native", None)


def test_without_cython_the_python_path_plays_and_says_why(tmp_path, monkeypatch):
    monkeypatch.setenv("ORRERY_CACHE", str(tmp_path))
    monkeypatch.setattr(build, "_LOADED", {})
    monkeypatch.setitem(sys.modules, "Cython.Compiler.Main", None)  # `from Cython.Compiler.Main import ...` fails
    with pytest.raises(NativeUnavailable, match=r"orrery\[native\]"):
        load_module(lower(load_game("tic-tac-toe"), 2) + "\n# not built before\n")


def test_a_module_is_built_once_then_found_in_the_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("ORRERY_CACHE", str(tmp_path))
    # (a source of its own: this process may have loaded the toy's module already)
    source = lower(load_game(str(TOYS / "slips.yaml")), 2) + f"\n# {tmp_path.name}\n"
    path = cached_path(source)
    assert not path.exists()
    module, built = load_module(source)
    assert built and path.exists() and path.is_relative_to(tmp_path)
    again, built_again = load_module(source)
    assert again is module and not built_again
    assert cached_path(source + "\n# another game\n") != path


def test_the_c_optimisation_level_is_a_setting_of_its_own_module(tmp_path, monkeypatch):
    # the suite builds at -O1 (conftest.py); a user's default is -O2, kept apart in the cache,
    # and a level that is no level is a one-line reason for the Python path
    monkeypatch.setenv("ORRERY_CACHE", str(tmp_path))
    monkeypatch.setattr(build, "_LOADED", {})
    commands: list[list[str]] = []
    run = build._run
    monkeypatch.setattr(build, "_run", lambda command, what: (commands.append(command), run(command, what))[1])
    game = load_game(str(TOYS / "slips.yaml"))
    source = lower(game, 2)
    paths = {}
    for level in ("", "1", "3"):
        monkeypatch.setenv("ORRERY_NATIVE_OPT", level)
        paths[level] = cached_path(source)
    assert len(set(paths.values())) == 3
    monkeypatch.delenv("ORRERY_NATIVE_OPT")
    _, built = load_module(source)
    assert built and paths[""].exists() and "-O2" in commands[-1]
    assert game.playouts(30, seed=4, native="on") == game.playouts(30, seed=4, native="off")
    monkeypatch.setenv("ORRERY_NATIVE_OPT", "fast")
    with pytest.raises(NativeUnavailable, match=r"ORRERY_NATIVE_OPT is 'fast': give 0, 1, 2 or 3"):
        load_module(source)
    fresh = load_game(str(TOYS / "slips.yaml"))
    assert "ORRERY_NATIVE_OPT" in fresh.native_status(2).reason
    assert fresh.playouts(5, seed=4) == game.playouts(5, seed=4, native="off")  # (auto: the Python path)


def test_a_draw_python_might_not_make_keeps_the_game_in_python(tmp_path):
    rules = (TOYS / "slips.yaml").read_text(encoding="utf-8").replace(
        "if k < 3 or moves > 4:", "if k < 3 or random(1, 6) > 4:")
    (tmp_path / "game.yaml").write_text(rules, encoding="utf-8")
    game = load_game(str(tmp_path / "game.yaml"))
    with pytest.raises(NotNative, match=r"random\(\) where Python may not evaluate it"):
        lower(game, 2)
    assert "where Python may not evaluate it" in game.native_status(2).reason
    assert game.playouts(5) == game.playouts(5, native="off")  # (auto: the Python path)


def _searched(game, kind: str, iterations: int, moves: int, mode: str, monkeypatch) -> list:
    """Each decision of a game between two search seats, with its root's children."""
    from interpreter.agents.registry import create_agent
    monkeypatch.setenv("ORRERY_NATIVE", mode)
    state = game.new_initial_state(2, 11)
    agents = [create_agent(f"{kind}:iterations={iterations}", game.definition, 3, p) for p in range(2)]
    seen = []
    for _ in range(moves):
        if state.is_terminal():
            break
        agent = agents[state.current_player()]
        action = agent.step(state)
        root = agent.last_root
        used = "rollouts" if agent._native is not None else "worlds" if agent._root is not None else None
        seen.append((action.text, used, None if root is None else sorted(
            (text, child.visits, child.total) for text, child in root.children.items())))
        state.apply_action(action)
    return seen


@pytest.mark.parametrize("via", ["worlds", "rollouts"])
@pytest.mark.parametrize(("name", "kind", "iterations", "moves"), [
    ("breakthrough", "mcts", 25, 3), ("leduc-poker", "ismcts", 60, 4), ("kuhn-poker", "ismcts", 60, 2)])
def test_searches_in_c_decide_exactly_as_in_python(name, kind, iterations, moves, via, monkeypatch):
    # Native worlds (agents/native_worlds.py), or, where a game has no native states,
    # Python worlds rolled out in C (agents/native_rollouts.py).
    game = load_game(name)
    if via == "rollouts":
        import interpreter.agents.search as search
        monkeypatch.setattr(search, "native_root", lambda *args, **kwargs: None)
    native = _searched(game, kind, iterations, moves, "on", monkeypatch)
    python = _searched(game, kind, iterations, moves, "off", monkeypatch)
    assert {used for _, used, _ in native} - {None} == {via}
    assert not any(used for _, used, _ in python)
    # the same moves, the same trees: visits and the values backed up, to the last bit
    assert [(a, t) for a, _, t in native] == [(a, t) for a, _, t in python]


def test_the_module_works_out_the_seats_seeds_as_python_does():
    module = load_game("tic-tac-toe").native_status(2).module
    from interpreter.agents.builtin import agent_seed
    for seed in [*range(300), 10**18, 2**63 - 1]:
        for seat in range(3):
            assert module.seat_seed(seed, seat) == agent_seed(seed, seat)
    game = load_game("kuhn-poker")  # (a first seed below zero: the seats' seeds come from Python)
    assert game.playouts(40, seed=-20) == game.playouts(40, seed=-20, native="off")


def test_the_seats_generators_seeded_side_by_side_are_pythons():
    """The batched games seed up to eight generators at once (a lane each); a seed whose
    high 32-bit word is 0 is a key of one word (CPython's init_by_array), others of two.
    Any number of seeds, lanes partly used, draws past the first twist."""
    import random
    module = load_game("tic-tac-toe").native_status(2).module
    seeds = [0, 1, 2**32 - 1, 2**32, 2**32 + 1, 2**63 - 1, 2**64 - 1, 12345, *range(10**9, 10**9 + 9)]
    for count in (1, 3, 8, 9, len(seeds)):
        drawn = module.seat_draws(seeds[:count], 700)
        generators = [random.Random(seed) for seed in seeds[:count]]
        assert drawn == [[r.getrandbits(32) for _ in range(700)] for r in generators]


def test_a_simultaneous_step_naming_a_seat_twice_is_the_python_paths_error(tmp_path):
    rules = (TOYS / "slips.yaml").read_text(encoding="utf-8").replace(
        "      turn p:\n        take actions turn", "      take actions turn simultaneously for [p, 0]")
    (tmp_path / "game.yaml").write_text(rules, encoding="utf-8")
    game = load_game(str(tmp_path / "game.yaml"))
    native = game.playouts(6, native="on")
    assert native == game.playouts(6, native="off")
    assert all(p.error and "twice" in p.error for p in native)


def test_names_from_the_rules_never_reach_the_generated_source(tmp_path):
    # Every name the lowering writes from rule files is numbered (parameters,
    # procedures, properties): no text of the rules may become code, whatever the schema
    # lets through. (Locals of the effect language are identifiers by its grammar.)
    rules = (TOYS / "slips.yaml").read_text(encoding="utf-8").replace(
        'params: {k: "range(4)"}', 'params: {k: "range(4)", side_note: "range(1)"}')
    (tmp_path / "game.yaml").write_text(rules, encoding="utf-8")
    game = load_game(str(tmp_path / "game.yaml"))
    source = lower(game, 2)
    assert "side_note" not in source and "mark" not in source and "native-slips" not in source
    assert game.native_status(2).module is not None, game.native_status(2).reason
    assert game.playouts(30, native="on") == game.playouts(30, native="off")
