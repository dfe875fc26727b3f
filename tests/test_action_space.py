"""Integer actions (runtime/action_space.py): the space's layout, its stability, cards
by definition, choices, values found from the rules or declared in them, and bad input
(which raises a clear error and leaves the state as it was)."""

from __future__ import annotations

import random

import pytest
from conftest import play, texts, toy, toy_errors

from interpreter import GameError, IllegalActionError, load_game
from interpreter.analysis.domains import EMPTY, Analyzer, Ints, Values, finite
from interpreter.lang.parser import parse_expression
from interpreter.runtime.action_space import ActionSpaceError
from interpreter.runtime.records import PendingChoice

# ---- tic-tac-toe: the simplest space -------------------------------------------------------------


def test_tic_tac_toe_ids_are_the_cells() -> None:
    game = load_game("tic-tac-toe")
    assert game.num_distinct_actions(2) == 9  # nine cells; no choice in the rules, so no choice ids
    state = game.new_initial_state(2)
    assert state.legal_action_ids() == list(range(9))
    assert [state.action_to_string(0, a) for a in range(9)] == [f"place {c}" for c in range(9)]
    state.apply_action_id(4)
    assert state.history == ["place 4"]
    assert 4 not in state.legal_action_ids() and state.legal_actions_mask()[4] == 0
    assert state.legal_actions_mask(0) == [0] * 9  # not P1's turn
    assert state.legal_action_ids(1) == [0, 1, 2, 3, 5, 6, 7, 8]


def test_ids_are_stable_across_loads_and_states() -> None:
    first, second = load_game("star-market"), load_game("star-market")
    for n in (2, 3, 4):
        size = first.num_distinct_actions(n)
        assert size == second.num_distinct_actions(n)
        a, b = first.new_initial_state(n, seed=1), second.new_initial_state(n, seed=99)
        assert [a.action_to_string(0, i) for i in range(size)] == [b.action_to_string(0, i) for i in range(size)]


def test_the_layout_puts_actions_in_order_then_the_choices() -> None:
    game = load_game("star-market")
    space = game.action_space(3)
    cards = len(game.definition.cards)
    play_, buy, end = space.blocks
    assert (play_.offset, play_.size, buy.offset, buy.size, end.offset, end.size) == (0, cards, cards, cards,
                                                                                      2 * cards, 1)
    assert space.to_string(space.done_id) == "choice done"
    assert space.to_string(space.card_base) == f"choice {game.definition.cards[0].id}"
    assert space.to_string(space.player_base + 2) == "choice P3"
    assert [space.to_string(space.value_base + i) for i in range(2)] == ["choice credits", "choice draw"]
    assert space.size == space.value_base + 2


def test_a_card_parameter_counts_copies_as_one_action() -> None:
    state = load_game("star-market").new_initial_state(2, seed=5)
    chips = [t for t in texts(state) if t.startswith("play credit-chip#")]
    assert len(chips) >= 2  # several copies in hand...
    ids = state.legal_action_ids()
    named = [state.action_to_string(0, a) for a in ids]
    assert named.count("play credit-chip") == 1  # ...one id
    state.apply_action_id(ids[named.index("play credit-chip")])
    assert state.history == [chips[0]]  # the first copy offered is the one played


def test_choices_have_ids_after_the_actions() -> None:
    game = load_game("star-market")
    space = game.action_space(2)
    rng = random.Random(3)
    state = game.new_initial_state(2, seed=3)
    while not isinstance(state.pending, PendingChoice):  # play until an effect asks a choice
        assert not state.is_terminal()
        state.apply_action_id(rng.choice(state.legal_action_ids()))
    ids = state.legal_action_ids()
    assert ids and all(a >= space.choice_offset for a in ids)
    named = [state.action_to_string(0, a) for a in ids]
    assert all(t.startswith("choice ") for t in named)
    legal = space.legal(state)
    state.apply_action_id(ids[-1])
    assert state.history[-1] == legal[ids[-1]].text


def test_choose_up_to_offers_done_and_choose_one_its_labels(tmp_path) -> None:
    game = toy(tmp_path, """
        counters:
          score: {scope: player, initial: 0}
        zones:
          pile: {scope: global, visible: all}
          hand: {scope: player, visible: owner}
        cards:
          gem: {name: Gem, count: 2, in: pile}
          rock: {name: Rock, count: 1, in: pile}
        actions:
          take:
            during: main
            effect: |
              choose up to 2 picked from pile
              move picked to hand(me)
              choose one prompt "mood":
                "happy": gain 1 score
                "sad": lose 1 score
            ends: turn
        flow: |
          turn 0:
            take actions main
    """)
    space = game.action_space(2)
    assert space.choice_values == ("happy", "sad")
    state = game.new_initial_state(2)
    state.apply_action_id(0)  # take
    ids = state.legal_action_ids()
    assert [state.action_to_string(0, a) for a in ids] == ["choice done", "choice gem", "choice rock"]
    state.apply_action_id(state.string_to_action(0, "choice gem"))
    state.apply_action_id(space.done_id)
    assert [state.action_to_string(0, a) for a in state.legal_action_ids()] == ["choice happy", "choice sad"]
    state.apply_action_id(state.string_to_action(0, "choice sad"))
    assert state.is_terminal() and state.history[-1] == "sad"


# ---- values of parameters: found, declared, refused ----------------------------------------------


def test_word_parameters_take_their_values_from_constants() -> None:
    game = load_game("for-all-mankind")
    space = game.action_space(4)
    trade = next(b for b in space.blocks if b.action.id == "bank_trade")
    assert [s.values for s in trade.slots] == [("fuel", "iron", "oxygen", "water")] * 2
    assert trade.size == 16
    assert space.to_string(trade.offset + 1 * 4 + 3) == "bank_trade iron water"


OPEN = """
    counters:
      credits: {scope: player, initial: 7, min: 0}
    actions:
      spend:
        during: main
        params: {n: PARAM}
        effect: "lose n credits"
        ends: turn
    flow: |
      repeat 3:
        for each p in players:
          turn p:
            take actions main
"""


def test_an_open_ended_number_is_refused_with_a_hint(tmp_path) -> None:
    game = toy(tmp_path, OPEN.replace("PARAM", '"range(1, credits(me) + 1)"'))
    state = game.new_initial_state(2)
    assert len(texts(state)) == 7  # the game itself plays
    with pytest.raises(ActionSpaceError, match=r"parameter 'n'.*declare them in the rules, e\.g\. params: \{n: "):
        state.legal_action_ids()
    with pytest.raises(ActionSpaceError):
        game.num_distinct_actions(2)


def test_declared_bounds_number_a_parameter(tmp_path) -> None:
    game = toy(tmp_path, OPEN.replace("PARAM", '{in: "range(1, credits(me) + 1)", min: 1, max: 9}'))
    assert game.num_distinct_actions(2) == 9
    state = game.new_initial_state(2)
    assert state.legal_action_ids() == list(range(7))
    assert state.action_to_string(0, 6) == "spend 7"
    state.apply_action_id(2)
    assert state.history == ["spend 3"]


def test_a_value_outside_the_declared_ones_is_reported(tmp_path) -> None:
    game = toy(tmp_path, OPEN.replace("PARAM", '{in: "range(1, credits(me) + 1)", max: 5}'))
    state = game.new_initial_state(2)
    with pytest.raises(ActionSpaceError, match=r"'spend 6' offers n = 6, which is not in the parameter's integer"):
        state.legal_action_ids()


def test_declared_word_values(tmp_path) -> None:
    game = toy(tmp_path, OPEN.replace("PARAM", '{in: "[x for x in [\\"a\\", \\"b\\"] if credits(me) > 0]", '
                                               'values: ["b", "a", "c"]}').replace("lose n credits", "lose 1 credits"))
    assert [game.action_space(2).to_string(a) for a in range(3)] == ["spend b", "spend a", "spend c"]
    assert game.new_initial_state(2).legal_action_ids() == [0, 1]


@pytest.mark.parametrize(("param", "message"), [
    ('{in: "players", max: 3}', "a player parameter is numbered by its type"),
    ('{in: "range(3)", min: 4, max: 2}', "bounds need a max of at least min"),
    ('{in: "range(3)", min: 0}', "bounds need a max"),
    ('{in: "range(3)", max: 2, values: [1]}', "either min and max or values"),
    ('{in: "range(3)", values: [1, 1]}', "the values repeat"),
    ('{in: "range(3)", max: 99999}', "too many to number"),
    ('{in: "[\\"a\\"]", max: 3}', "min and max bound numbers"),
])
def test_bad_declarations_are_load_errors(tmp_path, param: str, message: str) -> None:
    errors = toy_errors(tmp_path, OPEN.replace("PARAM", param))
    assert any(message in e.message for e in errors), [e.message for e in errors]


def test_a_declaration_with_an_unknown_key_is_a_schema_error(tmp_path) -> None:
    errors = toy_errors(tmp_path, OPEN.replace("PARAM", '{in: "range(3)", most: 3}'))
    assert [e.code for e in errors] == ["schema"]


# ---- the analysis that finds values -------------------------------------------------------------


@pytest.fixture(scope="module")
def analyzer() -> Analyzer:
    game = load_game("race-to-mars")
    return Analyzer(game.definition, game.raw)


@pytest.mark.parametrize(("text", "expected"), [
    ("range(9)", tuple(range(9))),
    ("range(2, 5)", (2, 3, 4)),
    ("[x for x in range(10) if x >= 3 and x < 6]", (3, 4, 5)),
    ("[x + 1 for x in [1, 2]]", (2, 3)),
    ('["b", "a"] + ["c"]', ("a", "b", "c")),
    ("[l for l in range(lanes) if l != 2]", (0, 1, 2, 3)),  # `!=` narrows nothing: a few too many is fine
    ("[x for x in [lane(me) - 1, lane(me) + 1] if x >= 0 and x < lanes]", (0, 1, 2, 3)),
])
def test_values_found_from_expressions(analyzer: Analyzer, text: str, expected: tuple) -> None:
    assert finite(analyzer.element(parse_expression(text))) == expected


def test_values_that_cannot_be_found_are_unknown(analyzer: Analyzer) -> None:
    assert finite(analyzer.element(parse_expression("[x for x in range(lane(me) + 5)]"))) is None
    assert analyzer.element(parse_expression("hand(me)")) is not None  # cards: numbered by definition
    assert finite(EMPTY) == ()
    assert finite(Ints(0, None)) is None and finite(Values(frozenset({3, 1}))) == (1, 3)


def test_a_local_assigned_from_itself_is_widened(tmp_path) -> None:
    game = toy(tmp_path, """
        constants:
          tops: [4, 5]
        counters:
          pos: {scope: player, initial: 0, min: 0}
        procedures:
          climb:
            params: [p]
            effect: |
              let room = tops[1] - pos(p)
              if room > 3:
                set room to room - 1
              let spaces = [k for k in range(1, room + 1)]
              choose n from spaces by p
              set pos(p) to pos(p) + n
        actions:
          go: {during: main, effect: "climb(me)", ends: turn}
        flow: |
          turn 0:
            take actions main
    """)
    assert game.action_space(2).choice_values == (1, 2, 3, 4, 5)


# ---- bad input -------------------------------------------------------------------------------------


def test_bad_integer_actions_raise_and_change_nothing() -> None:
    state = load_game("tic-tac-toe").new_initial_state(2)
    state.apply_action_id(4)
    before = state.to_json()
    with pytest.raises(IllegalActionError, match=r"action 9 is outside Tic-tac-toe's action space \(0\.\.8 for 2"):
        state.apply_action_id(9)
    with pytest.raises(IllegalActionError, match="outside"):
        state.apply_action_id(-1)
    with pytest.raises(IllegalActionError, match=r"action 4 \(place 4\) is not legal now; legal: 0 \(place 0\)"):
        state.apply_action_id(4)
    for wrong in ("4", 4.0, True, None):
        with pytest.raises(IllegalActionError, match="an integer action is an int"):
            state.apply_action_id(wrong)  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match="'fly away' is not an action of Tic-tac-toe"):
        state.string_to_action(1, "fly away")
    with pytest.raises(IllegalActionError, match="outside"):
        state.action_to_string(1, 99)
    assert state.to_json() == before
    play(state, "place 0")
    assert state.history == ["place 4", "place 0"]


def test_a_finished_game_takes_no_integer_action() -> None:
    state = load_game("tic-tac-toe").new_initial_state(2)
    for cell in (0, 3, 1, 4, 2):
        state.apply_action_id(cell)
    assert state.is_terminal() and state.legal_action_ids() == []
    before = state.to_json()
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply_action_id(5)
    assert state.to_json() == before


def test_player_counts_outside_the_game_are_refused() -> None:
    game = load_game("tic-tac-toe")
    with pytest.raises(GameError, match="for 2-2 players, not 3"):
        game.num_distinct_actions(3)
    with pytest.raises(GameError, match="not '2'"):
        game.observation_tensor_shape("2")  # type: ignore[arg-type]


def test_the_canonical_text_of_a_legal_action_gives_its_id() -> None:
    state = load_game("star-market").new_initial_state(2, seed=5)
    chip = next(t for t in texts(state) if t.startswith("play credit-chip#"))
    assert state.action_to_string(0, state.string_to_action(0, chip)) == "play credit-chip"


def test_chance_ids_work_when_a_players_action_cannot_be_numbered(tmp_path):
    """A parameter whose values have no finite list leaves the players' actions without
    ids, but the deals before anyone acts are numbered apart: at a chance node
    legal_action_ids() lists them, and the error comes only where a player acts."""
    game = toy(tmp_path, """
counters:
  bid: {scope: player, initial: 0}
  tricks: {scope: global, initial: 0}
zones:
  deck: {scope: global, visible: none}
  hand: {scope: player, visible: owner}
cards:
  a: {name: A, count: 1, in: deck}
  b: {name: B, count: 1, in: deck}
actions:
  call:
    during: bid
    params: {n: "range(0, len(hand(me)) + tricks + 1)"}
    effect: "set bid(me) to n"
    ends: turn
setup: |
  shuffle deck
  for each p in players:
    draw 1 from deck to hand(p)
flow: |
  for each p in players:
    turn p:
      take actions bid
scoring: {score: "bid(p)"}
""")
    st = game.new_initial_state(2, chance="explicit")
    assert st.is_chance_node() and st.legal_action_ids() == [0, 1] and st.legal_actions_mask() == [1, 1]
    st.apply_action_id(1)
    assert not st.is_chance_node()
    with pytest.raises(ActionSpaceError, match=r"action 'call', parameter 'n': its values .* no fixed, finite list"):
        st.legal_action_ids()
    with pytest.raises(ActionSpaceError, match="parameter 'n'"):
        game.num_distinct_actions(2)


def _reference_ids(space, st, player=None) -> list[int]:
    """The ids of the legal actions the long way: each parameter's position, no memo."""
    from interpreter.runtime.records import PendingActions

    found = set()
    for action in st.legal_actions(player):
        if not isinstance(st.pending, PendingActions):
            found.add(space.id_of(st, action))
            continue
        index, values = action.payload
        block = space.blocks[index]
        found.add(block.offset + sum(stride * space._position(st, slot, value, action)
                                     for slot, stride, value in zip(block.slots, block.strides, values, strict=True)))
    return sorted(found)


@pytest.mark.parametrize("name", ["tic-tac-toe", "kuhn-poker", "leduc-poker", "breakthrough", "goofspiel",
                                  "star-market", "race-to-mars"])
def test_the_id_path_memos_give_the_ids_of_the_long_way(name: str) -> None:
    """The action space keeps the ids of action objects the listers hand out again, the
    last listing numbered, and a fast lookup for numbers; played through ids, with
    clones that go other ways on the same listing, every listing (seat by seat) is the
    one each parameter's position gives, and each id applied is the action it names."""
    game = load_game(name)
    n = game.definition.default_players
    space = game.action_space(n)
    rng = random.Random(5)
    for seed in range(3):
        st = game.new_initial_state(n, seed=seed)
        for _ in range(60):
            if st.is_terminal():
                break
            ids = st.legal_action_ids()
            assert ids == _reference_ids(space, st)
            for p in range(n):
                assert st.legal_action_ids(p) == (_reference_ids(space, st, p) if st.pending_for(p) else [])
            other = st.clone()  # shares the listing: a different move on it must not change ours
            other.apply_action_id(ids[-1])
            if not other.is_terminal():
                assert other.legal_action_ids() == _reference_ids(space, other)
            assert st.legal_action_ids() == ids
            pick = ids[rng.randrange(len(ids))]
            named: dict[str, str] = {}  # (copies sharing an id: the first is played)
            for action in st.legal_actions():
                named.setdefault(space.to_string(space.id_of(st, action)), action.text)
            before = len(st.history)
            st.apply_action_id(pick)
            assert st.history[before].endswith(named[space.to_string(pick)])


def test_a_parameter_bounded_by_min_and_max_holds_numbers_and_keeps_its_actions(tmp_path) -> None:
    """A domain of unknown element type (a function's value) bounded by `min` and `max`
    is a whole number: its listing keeps its actions, so listing again hands out the
    same objects (and their ids are kept), as for a domain known to hold numbers."""
    bounded = OPEN.replace("PARAM", '{in: "same(range(1, credits(me) + 1))", min: 1, max: 9}') + """
    functions:
      same: {params: {x: any}, value: "x"}
    """
    game = toy(tmp_path, bounded)
    assert [p.type for p in game.definition.actions[0].params] == ["int"]
    state = game.new_initial_state(2)
    first = state.legal_actions()
    other = state.clone()
    other.apply_action(first[0])
    other.apply_action(other.legal_actions()[0])  # P2, then P1 again: a new listing
    again = other.legal_actions()
    assert [a.text for a in again] == [f"spend {n}" for n in range(1, 7)]
    assert all(a is b for a, b in zip(again, first, strict=False))  # the very objects
    assert other.legal_action_ids() == list(range(6))
