"""The state is plain data: it can be cloned, written to JSON and read
back at any decision — even deep inside a running effect — and resumes exactly; damaged
saves are refused with a clear message; illegal moves are refused, never half-applied.
"""

from __future__ import annotations

import json
import random

import pytest
from conftest import counter, play, texts, toy, zone

from interpreter import TERMINAL, GameError, IllegalActionError, State, load_game

# A choice inside a card's effect (in a loop), run by `use` inside a procedure, called by
# a trigger of a custom event emitted by an action's effect, inside a turn in a loop.
DEEP = """
counters:
  vp: {scope: player, initial: 0}
  rolls: {scope: player, initial: 0}
zones:
  deck: {scope: global, visible: none}
  hand: {scope: player, visible: owner}
  play_area: {scope: player, visible: all}
cards:
  spark:
    name: Spark
    count: 6
    in: deck
    effects:
      play: |
        for each i in range(2):
          choose x from [1, 2, 3] prompt "how much?"
          gain x + random(0, 9) vp(me)
          set this.charged to true
        choose up to 2 extra from hand(me) prompt "discard?"
        move extra to play_area(me)
events:
  played: {params: [who, card]}
procedures:
  resolve:
    params: [who, c]
    effect: |
      let before = vp(who)
      use c "play"
      set rolls(who) to rolls(who) + 100 + before
triggers:
  on-play:
    on: played
    effect: "resolve(who, card)"
actions:
  play_card:
    during: main
    params: {c: "hand(me)"}
    effect: |
      move c to play_area(me)
      emit played(me, c)
    ends: turn
flow: |
  shuffle deck
  for each p in players:
    draw 3 from deck to hand(p)
  repeat 2:
    for each p in players:
      turn p:
        take actions main
scoring: {score: "vp(p)"}
"""


@pytest.fixture()
def deep(tmp_path):
    return toy(tmp_path, DEEP)


def finish(state: State, seed: int) -> State:
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_round_trip_while_waiting_deep_inside_an_effect(deep):
    state = deep.new_initial_state(2, seed=5)
    play(state, texts(state)[0])
    assert state.prompt() == "how much?" and texts(state) == ["1", "2", "3"]
    # The frames: flow, action effect, trigger, procedure, card effect (waiting).
    names = [deep.definition.codes[f.code].name for f in state.stack]
    assert names[-4:] == ["actions.play_card.effect", "triggers.on-play.effect", "procedures.resolve",
                          "cards.spark.effects.play"]
    saved = state.to_json()
    json.loads(saved)  # plain JSON
    loaded = deep.state_from_json(saved)
    assert loaded.to_json() == saved
    assert loaded == state
    assert texts(loaded) == texts(state) and loaded.current_player() == state.current_player()
    assert loaded.observation(0) == state.observation(0)
    for copy in (loaded, state.clone()):
        play(copy, "2")
    play(state, "2")
    assert loaded.to_json() == state.to_json()
    # And once more mid-`choose up to`, after a pick.
    play(state, "3")
    play(state, texts(state)[0])
    assert "done" in texts(state)
    again = deep.state_from_json(state.to_json())
    finish(state, 9)
    finish(again, 9)
    assert again.to_json() == state.to_json()
    assert again.history == state.history and again.result() == state.result()


@pytest.mark.parametrize("stop_after", [0, 1, 2, 3, 5, 8])
def test_save_anywhere_resumes_identically(deep, stop_after):
    state = deep.new_initial_state(2, seed=stop_after)
    rng = random.Random(1)
    for _ in range(stop_after):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    loaded = deep.state_from_json(state.to_json())
    finish(state, 2)
    finish(loaded, 2)
    assert loaded.to_json() == state.to_json()


def test_clone_is_independent(deep):
    state = deep.new_initial_state(2, seed=1)
    before = state.to_json()
    copy = state.clone()
    finish(copy, 3)
    assert copy.is_terminal()
    assert state.to_json() == before
    assert not state.is_terminal()


def test_rng_is_part_of_the_state_and_survives_clone_and_save(deep):
    state = deep.new_initial_state(2, seed=42)
    play(state, texts(state)[0])
    copies = [state.clone(), deep.state_from_json(state.to_json()), state]
    for copy in copies:
        play(copy, "1", "1")  # each answer rolls random(0, 9)
    assert len({c.to_json() for c in copies}) == 1
    assert len({counter(c, "vp", 0) for c in copies}) == 1
    # Another seed, another roll sequence (same choices).
    other = deep.new_initial_state(2, seed=43)
    assert other.rng != deep.new_initial_state(2, seed=42).rng


def test_same_seed_same_game(deep):
    a = finish(deep.new_initial_state(2, seed=7), 1)
    b = finish(deep.new_initial_state(2, seed=7), 1)
    assert a.to_json() == b.to_json()
    c = finish(deep.new_initial_state(2, seed=8), 1)
    assert c.to_json() != a.to_json()


def test_illegal_action_lists_the_legal_ones(deep):
    state = deep.new_initial_state(2, seed=5)
    legal = texts(state)
    with pytest.raises(IllegalActionError) as caught:
        state.apply_action("fly to the moon")
    message = str(caught.value)
    assert "'fly to the moon' is not a legal action now" in message
    for text in legal:
        assert text in message
    assert state.history == []  # nothing happened
    assert texts(state) == legal


def test_illegal_action_list_is_shortened(tmp_path):
    game = toy(tmp_path, "actions:\n  pick: {during: main, params: {n: \"range(20)\"}}\nflow: |\n  take actions main\n")
    state = game.new_initial_state(2)
    with pytest.raises(IllegalActionError, match=r"legal: pick 0, pick 1, .* \.\.\.$"):
        state.apply_action("pick 99")


def test_action_objects_and_texts_both_apply(deep):
    a, b = deep.new_initial_state(2, seed=5), deep.new_initial_state(2, seed=5)
    a.apply_action(a.legal_actions()[1])
    b.apply_action(texts(b)[1])
    assert a.to_json() == b.to_json()
    assert str(a.legal_actions()[0]) == texts(a)[0]


def test_apply_after_terminal_is_an_error(deep):
    state = finish(deep.new_initial_state(2, seed=5), 4)
    assert state.current_player() == TERMINAL
    assert state.legal_actions() == []
    before = state.to_json()
    with pytest.raises(GameError, match="over"):
        state.apply_action("play_card spark#0")
    assert state.to_json() == before


def test_terminal_state_round_trips(deep):
    state = finish(deep.new_initial_state(2, seed=5), 4)
    loaded = deep.state_from_json(state.to_json())
    assert loaded.is_terminal() and loaded.winners == state.winners and loaded.returns() == state.returns()


def test_observation_of_a_waiting_state_is_plain_data(deep):
    state = deep.new_initial_state(2, seed=5)
    obs = state.observation(0)
    assert json.loads(json.dumps(obs)) == obs
    assert obs["decision"]["legal"] == texts(state)
    hand1 = [state.card_text(i) for i in state.zones[state.layout.zbase[1] + 1]]
    assert not any(card in json.dumps(obs) for card in hand1)


# ---- corrupt saves -----------------------------------------------------------------------------


@pytest.fixture()
def saved(deep):
    state = deep.new_initial_state(2, seed=5)
    play(state, texts(state)[0])
    return json.loads(state.to_json())


def corrupt(data: dict, change) -> str:
    data = json.loads(json.dumps(data))
    change(data)
    return json.dumps(data)


CORRUPTIONS = {
    "tampered zones": (lambda d: d["zones"][2].pop(), "a card is lost between zones"),
    "card in two zones": (lambda d: d["zones"][1].append(d["zones"][2][0]), "is in the wrong place"),
    "card moved without its location": (lambda d: d["zones"][0].append(d["zones"][2].pop()), "wrong place"),
    "unknown card definition": (lambda d: d["card_def"].__setitem__(0, 99), "unknown card definition"),
    "frame past the code": (lambda d: d["stack"][-1].__setitem__(1, 99_999), "frame points outside the rules"),
    "frame of no code": (lambda d: d["stack"][-1].__setitem__(0, 999), "frame points outside the rules"),
    "frame not a frame": (lambda d: d["stack"].append("x"), "bad frame"),
    "bad pending": (lambda d: d.__setitem__("pending", ["bogus"]), "bad pending decision"),
    "pending of nobody": (lambda d: d["pending"].__setitem__(1, 7), "bad deciding player"),
    "pending cut short": (lambda d: d.__setitem__("pending", ["choice", 0]), "bad pending choice"),
    "pending options not a list": (lambda d: d["pending"].__setitem__(2, "abc"), "bad pending choice"),
    "pending options of another type": (lambda d: d["pending"].__setitem__(2, ["a"]), "not all int"),
    "pending without an effect": (lambda d: d.__setitem__("stack", []), "a decision without a running effect"),
    "missing field": (lambda d: d.pop("rng"), "the field 'rng' is missing"),
    "bad random state": (lambda d: d.__setitem__("rng", -1), "bad random state"),
    "counter of words": (lambda d: d["counters"][0].__setitem__(0, "x"), "counter vp must be a list of numbers"),
    "counter of wrong size": (lambda d: d["counters"][0].append(1), "counter vp has wrong size"),
    "too many players": (lambda d: d.__setitem__("players", 9), "bad player count"),
    "bad active player": (lambda d: d.__setitem__("active", 9), "bad active player"),
    "bad attributes": (lambda d: d.__setitem__("attrs", 5), "bad card attributes"),
    "bad uses": (lambda d: d["uses"].__setitem__("turn", 5), "bad action uses"),
    "bad grants": (lambda d: d.__setitem__("grants", [[0, 9, "turn"]]), "bad grants"),
    "bad seats": (lambda d: d.__setitem__("seats", ["random"]), "bad seats"),
    "bad history": (lambda d: d["history"].append(3), "bad history"),
    "winner who is not a player": (lambda d: d.__setitem__("winners", [5]), "a winner is not a player"),
}


@pytest.mark.parametrize("case", list(CORRUPTIONS))
def test_corrupt_saves_are_refused_clearly(deep, saved, case):
    change, words = CORRUPTIONS[case]
    with pytest.raises(GameError) as caught:
        deep.state_from_json(corrupt(saved, change))
    message = str(caught.value)
    assert message.startswith("corrupt save: ")
    assert words in message


@pytest.mark.parametrize(("text", "words"), [
    (None, "corrupt save: a save is JSON text, not NoneType"),
    ({"format": "orrery-state/1"}, "corrupt save: a save is JSON text, not dict"),
    ("{oops", "corrupt save: not JSON"),
    ("", "corrupt save: not JSON"),
    ("[1, 2]", "corrupt save: not a JSON object"),
    ("{}", "unknown format"),
])
def test_not_a_save(deep, text, words):
    with pytest.raises(GameError, match=words):
        deep.state_from_json(text)


def test_save_of_another_game(deep, saved):
    with pytest.raises(GameError, match="this save is of game 'kuhn-poker', not 'toy'"):
        deep.state_from_json(corrupt(saved, lambda d: d.__setitem__("game", "kuhn-poker")))


def test_save_of_another_engine_version_is_migrated_by_replaying_it(deep, saved):
    # A save points into compiled code; another engine's code may differ in shape, so
    # the game is rebuilt from its seed and actions and must show the same table.
    other = corrupt(saved, lambda d: d.__setitem__("engine", "0.0.1/abc"))
    assert deep.state_from_json(other).to_json() == deep.state_from_json(json.dumps(saved)).to_json()


def test_save_of_another_engine_that_does_not_replay_is_refused(deep, saved):
    def tamper(d):
        d["engine"] = "0.0.1/abc"
        d["counters"][0][0] += 1  # the table no longer follows from the actions
    with pytest.raises(GameError, match=r"another version of orrery's engine.*differs in 'counters'"):
        deep.state_from_json(corrupt(saved, tamper))
    with pytest.raises(GameError, match=r"another version of orrery's engine.*replaying its actions failed"):
        deep.state_from_json(corrupt(saved, lambda d: d.update(engine="0.0.1/abc", history=["no-such-move"])))


def test_save_of_other_rule_data(deep, saved, tmp_path):
    with pytest.raises(GameError, match="other rule data"):
        deep.state_from_json(corrupt(saved, lambda d: d.__setitem__("data_hash", "0" * 16)))
    # The same game id with one rule changed refuses the save too.
    changed = toy(tmp_path, DEEP.replace("count: 6", "count: 7"))
    with pytest.raises(GameError, match="other rule data"):
        changed.state_from_json(json.dumps(saved))


def test_save_with_a_variant_needs_the_variant(tmp_path):
    game_text = DEEP + "variants:\n  short: {description: one card, patch: {cards: {spark: {count: 4}}}}\n"
    plain, short = toy(tmp_path, game_text), toy(tmp_path, game_text, variants=["short"])
    saved = short.new_initial_state(2, seed=1).to_json()
    with pytest.raises(GameError, match=r"made with variants \[short\] \(loaded: none\)"):
        plain.state_from_json(saved)
    assert short.state_from_json(saved).to_json() == saved


def test_kuhn_poker_save_is_refused_by_tic_tac_toe():
    kuhn = load_game("examples/kuhn-poker").new_initial_state(2, seed=1)
    with pytest.raises(GameError, match="not 'tic-tac-toe'"):
        load_game("examples/tic-tac-toe").state_from_json(kuhn.to_json())


def test_new_state_errors(deep):
    with pytest.raises(GameError, match="for 2-2 players, not 3"):
        deep.new_initial_state(3)
    with pytest.raises(GameError, match="1 seats given for 2 players"):
        deep.new_initial_state(2, seats=["random"])
    # whole numbers only: no float cut short, no flag taken for a number, no text parsed
    for bad in (2.5, "2", True):
        with pytest.raises(GameError, match=f"num_players must be a whole number, not {bad!r}"):
            deep.new_initial_state(bad)
    for bad in ("7", 7.0, None, False):
        with pytest.raises(GameError, match=f"seed must be a whole number, not {bad!r}"):
            deep.new_initial_state(2, seed=bad)


def test_new_state_takes_whole_numbers_of_other_kinds() -> None:
    """An index-like whole number (numpy's int64, as learning code passes it) is taken as
    the int it is: the same game as with a plain int."""

    class Seven:  # what operator.index accepts: numpy's integers behave so
        def __index__(self) -> int:
            return 7

    game = load_game("kuhn-poker")
    assert game.new_initial_state(2, seed=Seven()).to_json() == game.new_initial_state(2, seed=7).to_json()


def test_zone_moves_keep_card_locations_consistent(deep):
    state = finish(deep.new_initial_state(2, seed=3), 5)
    for slot, cards in enumerate(state.zones):
        for iid in cards:
            assert state.loc[iid] == slot
    assert sorted(zone(state, "play_area", 0) + zone(state, "play_area", 1) + zone(state, "hand", 0)
                  + zone(state, "hand", 1) + zone(state, "deck")) == ["spark"] * 6


def test_counters_hold_whole_numbers_so_saves_always_load(tmp_path):
    game = toy(tmp_path, """
constants: {half: 1.5}
counters:
  vp: {scope: player}
  flag: {scope: global}
flow: |
  set flag to 3 > 2
  gain true vp(1)
  choose x from [1, 2]
  set vp(0) to half
""")
    state = game.new_initial_state(2)
    assert counter(state, "flag") == 1 and counter(state, "vp", 1) == 1
    assert game.state_from_json(state.to_json()).to_json() == state.to_json()
    with pytest.raises(GameError, match=r"counter vp holds whole numbers, not 3/2"):
        state.apply_action("1")


def test_round_trip_while_a_draw_waits_for_its_refill_trigger(tmp_path):
    game = toy(tmp_path, """
zones:
  pile: {scope: player, visible: none, refill: {from: used, shuffle: true}}
  used: {scope: player, visible: all}
  hand: {scope: player, visible: owner}
cards:
  a: {name: A, count: 0}
  extra: {name: Extra, count: 0}
triggers:
  top-up:
    on: refill pile
    effect: |
      choose n from [1, 2, 3] by player prompt "how many extras?"
      create n "extra" in pile(player)
flow: |
  create 3 "a" in used(1)
  create 1 "a" in pile(1)
  draw 4 from pile(1) to hand(1)
  choose x from [1, 2]
""")
    state = game.new_initial_state(2, seed=4)
    assert state.prompt() == "how many extras?" and state.current_player() == 1
    assert zone(state, "hand", 1) == ["a"]  # one drawn, three to go after the refill
    loaded = game.state_from_json(state.to_json())
    for copy in (state, loaded):
        play(copy, "2")
        assert len(zone(copy, "hand", 1)) == 4 and len(zone(copy, "pile", 1)) == 2
    assert loaded.to_json() == state.to_json()
