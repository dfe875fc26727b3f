"""One integer id per distinguishable card (runtime/faces.py, runtime/action_space.py):
copies of one definition that setup marks apart (a 52-card deck numbered in setup) have
ids of their own, as action parameters, choices and chance outcomes, through the
OpenSpiel adapter too; copies the rules cannot tell apart still share one id, weighted
by their number. The table of faces is fixed per game and player count."""

from __future__ import annotations

import pathlib
import random
from fractions import Fraction

import pytest
from conftest import toy, write_toy

from interpreter import Game, IllegalActionError, State, load_game
from interpreter.runtime.faces import Faces
from interpreter.runtime.records import CHANCE

RANKS, SUITS = range(1, 14), ("clubs", "diamonds", "hearts", "spades")

# The play around a deck: each player is dealt 3 cards and plays them, scoring ranks.
PLAY = """
counters:
  score: {scope: player, initial: 0}
zones:
  deck: {scope: global, visible: none}
  hand: {scope: player, visible: owner}
  pile: {scope: global, visible: all}
actions:
  play:
    during: turn
    params: {c: "hand(me)"}
    effect: |
      move c to pile
      gain c.rank score
    ends: turn
flow: |
  repeat 3:
    for each p in players:
      turn p:
        take actions turn
  end game winners [0]
"""

# One card definition, numbered in setup: rank 1..13 of four suits.
ONE_DEFINITION = PLAY + """
constants:
  suits: [clubs, diamonds, hearts, spades]
cards:
  card: {name: Card, count: 52, in: deck}
setup: |
  let i = 0
  for each c in deck:
    set c.rank to i % 13 + 1
    set c.suit to suits[i / 13]
    set i to i + 1
  shuffle deck
  for each p in players:
    draw 3 from deck to hand(p)
"""

# The same deck as 52 definitions.
MANY_DEFINITIONS = PLAY + "cards:\n" + "".join(
    f"  {suit}-{rank}: {{name: {suit} {rank}, count: 1, in: deck, properties: {{rank: {rank}, suit: {suit}}}}}\n"
    for suit in SUITS for rank in RANKS) + """
setup: |
  shuffle deck
  for each p in players:
    draw 3 from deck to hand(p)
"""


def dealt(state: State) -> State:
    """The state once every chance node before the first move is passed (lowest id first)."""
    while state.is_chance_node():
        state.apply_action_id(state.legal_action_ids()[0])
    return state


def chance_odds(game: Game, state: State) -> dict[int, Fraction]:
    """The chance ids of a chance node with their probabilities (copies of an id summed)."""
    odds = [p for _, p in state.chance_outcomes(exact=True)]
    return {a: sum((odds[i] for i in at), Fraction(0))
            for a, at in game.action_space(state.n).chance_groups(state).items()}


def face_of(state: State, iid: int) -> tuple[object, object]:
    """The rank and suit of a copy, as the rules read them."""
    card = state.gd.cards[state.card_def[iid]]
    return (state.attrs.get((iid, "rank"), card.properties.get("rank")),
            state.attrs.get((iid, "suit"), card.properties.get("suit")))


# ---- a deck numbered in setup ---------------------------------------------------------------


def test_a_deck_numbered_in_setup_deals_52_outcomes_each_a_52nd(tmp_path: pathlib.Path) -> None:
    game = toy(tmp_path, ONE_DEFINITION)
    assert game.max_chance_outcomes(2) == 52 and game.faces(2).size == 52
    state = game.new_initial_state(seed=5, chance="explicit")
    assert state.is_chance_node() and len(state.chance_outcomes()) == 52
    assert chance_odds(game, state) == {a: Fraction(1, 52) for a in range(52)}
    words = [state.action_to_string(CHANCE, a) for a in state.legal_action_ids()]
    assert len(set(words)) == 52 and "deal card[rank=3,suit=hearts]" in words
    assert [state.string_to_action(CHANCE, w) for w in words] == state.legal_action_ids()


def test_a_deck_of_52_definitions_has_the_same_space(tmp_path: pathlib.Path) -> None:
    one, many = toy(tmp_path, ONE_DEFINITION), toy(tmp_path, MANY_DEFINITIONS)
    assert not many.faces(2).varied  # a game whose copies never differ: numbered by definition
    for game in (one, many):
        state = game.new_initial_state(seed=5, chance="explicit")
        assert len(state.legal_action_ids()) == game.max_chance_outcomes(2) == 52
        assert sum(p for _, p in state.chance_outcomes()) == pytest.approx(1.0)
    assert one.num_distinct_actions(2) == many.num_distinct_actions(2) == 52
    assert one.observation_tensor_shape(2) == many.observation_tensor_shape(2)


def test_an_id_means_one_card_in_every_run(tmp_path: pathlib.Path) -> None:
    game = toy(tmp_path, ONE_DEFINITION)
    wanted = None
    for seed in range(6):
        state = game.new_initial_state(seed=seed, chance="explicit")
        a = state.string_to_action(CHANCE, "deal card[rank=3,suit=hearts]")
        assert wanted in (None, a)
        wanted = a
        state.apply_action_id(a)
        deck = state.zones[state.layout.zbase[0]]
        assert face_of(state, deck[-1]) == (3, "hearts")  # the top card now: the one dealt


def test_a_card_parameter_tells_faces_apart_and_plays_the_copy_named(tmp_path: pathlib.Path) -> None:
    game = toy(tmp_path, ONE_DEFINITION)
    state = dealt(game.new_initial_state(seed=2, chance="explicit"))
    hand = state.zones[state.layout.zbase[1]]
    ids = state.legal_action_ids()
    assert len(ids) == len(hand) == 3
    texts = [state.action_to_string(0, a) for a in ids]
    expected = sorted("play card[rank={},suit={}]".format(*face_of(state, c)) for c in hand)
    assert sorted(texts) == expected
    chosen = ids[1]
    rank, suit = texts[1].removeprefix("play card[rank=").removesuffix("]").split(",suit=")
    state.apply_action_id(chosen)
    pile = state.zones[state.layout.zbase[2]]
    assert [face_of(state, c) for c in pile] == [(int(rank), suit)]
    assert state.counters[0][0] == int(rank)  # the rank it scored is that card's
    assert game.new_initial_state(seed=2).legal_action_ids() != []  # seeded play numbers the same way


# ---- copies the rules cannot tell apart ------------------------------------------------------


PAIRS = PLAY + """
cards:
  card: {name: Card, count: 8, in: deck}
setup: |
  let i = 0
  for each c in deck:
    set c.rank to i % 4 + 1
    set i to i + 1
  shuffle deck
  for each p in players:
    draw 3 from deck to hand(p)
"""


def test_identical_copies_share_one_id_with_their_odds_summed(tmp_path: pathlib.Path) -> None:
    game = toy(tmp_path, PAIRS)
    assert [game.faces(2).words[f] for f in range(4)] == [f"card[rank={r}]" for r in range(1, 5)]
    taken = set()
    for seed in range(12):
        state = game.new_initial_state(seed=seed, chance="explicit")
        # two copies of each rank: one outcome each (of weight 2), one id each
        assert [p for _, p in state.chance_outcomes(exact=True)] == [Fraction(2, 8)] * 4
        assert chance_odds(game, state) == {a: Fraction(1, 4) for a in range(4)}
        state.apply_action_id(2)  # "a rank 3": one of the two copies, drawn at their odds
        deck = state.zones[state.layout.zbase[0]]
        assert state.attrs[(deck[-1], "rank")] == 3
        taken.add(deck[-1])
        assert game.state_from_json(state.to_json()) == state  # its history replays to it
    assert len(taken) == 2


def test_outcomes_that_differ_only_in_play_share_their_face_id(tmp_path: pathlib.Path) -> None:
    game = toy(tmp_path, """
zones:
  deck: {scope: global, visible: none}
  row: {scope: global, visible: all}
  hand: {scope: player, visible: owner}
cards:
  card: {name: Card, count: 4, in: row}
actions:
  wear:
    during: main
    effect: |
      set top(row).worn to 1
      move row to deck
      shuffle deck
      draw 1 from deck to hand(0)
setup: |
  let i = 0
  for each c in row:
    set c.rank to i % 2 + 1
    set i to i + 1
flow: |
  take actions main
""")
    assert game.faces(2).words == ("card[rank=1]", "card[rank=2]")  # `worn` is set in play only
    state = game.new_initial_state(seed=0, chance="explicit")
    state.apply_action("wear")
    worn = next(iid for iid in range(4) if state.attrs.get((iid, "worn")) == 1)
    assert len(state.chance_outcomes()) == 3  # the worn copy is an outcome of its own
    assert chance_odds(game, state) == {0: Fraction(1, 2), 1: Fraction(1, 2)}  # its face's id sums it
    same = game.action_space(2).chance_groups(state)[state.attrs[(worn, "rank")] - 1]
    assert len(same) == 2


def test_a_game_without_attributes_keeps_its_numbering_by_definition() -> None:
    game = load_game("kuhn-poker")
    faces = game.faces(2)
    assert not faces.varied and faces.words == tuple(c.id for c in game.definition.cards)
    assert game.max_chance_outcomes(2) == 3 and game.num_distinct_actions(2) == 2


# ---- what is no face: attributes of play, attributes a shuffle decides ------------------------


PLAYED = PLAY.replace("""    ends: turn
""", """    ends: turn
  tap:
    during: turn
    params: {c: "[x for x in hand(me) if not x.tapped]"}
    effect: "set c.tapped to true"
  promote:
    during: turn
    params: {c: "hand(me)"}
    effect: "set c.rank to 99"
  forge:
    during: turn
    effect: 'create 1 "card" in hand(me)'
""", 1) + """
constants:
  suits: [clubs, diamonds, hearts, spades]
cards:
  card: {name: Card, count: 52, in: deck, properties: {tapped: false}}
setup: |
  let i = 0
  for each c in deck:
    set c.rank to i % 13 + 1
    set c.suit to suits[i / 13]
    set i to i + 1
  shuffle deck
  for each p in players:
    draw 3 from deck to hand(p)
"""


def test_copies_changed_in_play_keep_the_nearest_face(tmp_path: pathlib.Path) -> None:
    game = toy(tmp_path, PLAYED)
    faces = game.faces(2)
    # `create` makes plain copies: the plain card keeps a face of its own, the first
    assert faces.size == 53 and faces.words[0] == "card" and faces.words[1] == "card[rank=1,suit=clubs]"
    state = game.new_initial_state(seed=3)
    first = state.zones[state.layout.zbase[1]][0]
    word = faces.word_of(state, first)
    state.apply_action(f"tap card#{first}")  # an attribute only play sets: the same face
    assert state.attrs[(first, "tapped")] is True and faces.word_of(state, first) == word
    suit = face_of(state, first)[1]
    state.apply_action(f"promote card#{first}")  # a rank no card has: the first face of its suit
    assert faces.word_of(state, first) == f"card[rank=1,suit={suit}]"
    state.apply_action("forge")
    created = state.zones[state.layout.zbase[1]][-1]
    assert faces.word_of(state, created) == "card" and "play card" in [
        state.action_to_string(0, a) for a in state.legal_action_ids()]



def test_an_id_that_follows_a_copys_face_is_worked_out_from_its_recipe(tmp_path: pathlib.Path) -> None:
    # ActionSpace.face_recipe (what a native state keeps for such an option): the id is
    # base + stride * the copy's face, whatever the copy's attributes become
    game = toy(tmp_path, PLAYED)
    space, faces = game.action_space(2), game.faces(2)
    state = game.new_initial_state(seed=3)
    first = state.zones[state.layout.zbase[1]][0]

    def recipes() -> dict[str, tuple[int, int, int] | None]:
        return {a.text: space.face_recipe(state, a) for a in state.legal_actions()}
    before = recipes()
    assert before["forge"] is None  # (no copy in it: an id of its own)
    for action in state.legal_actions():
        recipe = before[action.text]
        if recipe is not None:
            base, stride, iid = recipe
            assert f"#{iid}" in action.text and base + stride * faces.of(state, iid) == space.id_of(state, action)
    old = space.id_of(state, next(a for a in state.legal_actions() if a.text == f"promote card#{first}"))
    state.apply_action(f"promote card#{first}")  # its face changes: the same recipe, a new id
    after = recipes()
    promote = next(a for a in state.legal_actions() if a.text == f"promote card#{first}")
    base, stride, iid = after[promote.text]
    assert (base, stride, iid) == before[promote.text] and iid == first
    assert base + stride * faces.of(state, first) == space.id_of(state, promote) != old

def test_a_native_state_reads_each_copys_face_in_c_as_the_engine_does(tmp_path: pathlib.Path) -> None:
    # card_faces.py: the ids of options naming a copy follow its face, read in the
    # struct (ranks, suit words, a rank no card has: the nearest face; a created copy:
    # the plain face), never asking Python at a stop whose options are known
    pytest.importorskip("Cython")
    game = toy(tmp_path, PLAYED.replace("gain c.rank score", "gain 1 score"))  # (a forged card has no rank)
    faces = game.faces(2)
    rng = random.Random(5)
    in_c = 0
    for seed in range(6):
        native, python = game.new_initial_state(seed=seed, native="on"), game.new_initial_state(seed=seed, native="off")
        while not python.is_terminal():
            assert native.native
            ids = native.legal_action_ids()
            assert ids == python.legal_action_ids()
            if native._ids is True and any(f"card#{c}" in a.text for a in python.legal_actions() for c in range(99)):
                in_c += 1  # (the ids read from the kept options and the faces in C: no listing made)
            if native._module.faces_given():
                assert [native._face_of(c) for c in range(len(python.card_def))] == \
                    [faces.of(python, c) for c in range(len(python.card_def))]
            a = rng.choice(ids)
            native.apply_action_id(a)
            python.apply_action_id(a)
            assert native.history == python.history
        assert native.returns() == python.returns()
    assert in_c > 20 and native._module.faces_given()


def test_an_attribute_a_shuffle_decides_is_no_face(tmp_path: pathlib.Path) -> None:
    # the card on top after the shuffle is marked: which one depends on the seed, so
    # the mark is play, not identity; the numbering stays by definition
    game = toy(tmp_path, MANY_DEFINITIONS.replace("""  shuffle deck
""", """  shuffle deck
  set top(deck).lucky to 1
"""))
    assert not game.faces(2).varied and game.num_distinct_actions(2) == 52


def test_a_mark_a_pick_decides_among_numbered_copies_is_no_face(tmp_path: pathlib.Path) -> None:
    # every run marks a copy of the one definition, but which rank it has depends on the seed
    game = toy(tmp_path, PAIRS.replace("""  shuffle deck
""", """  set pick_random(deck).marked to 1
  shuffle deck
"""))
    assert game.faces(2).words == tuple(f"card[rank={r}]" for r in range(1, 5))


def test_a_setup_that_asks_first_is_read_to_its_end(tmp_path: pathlib.Path) -> None:
    game = toy(tmp_path, PAIRS.replace("""setup: |
  let i = 0
""", """setup: |
  choose k from [1, 2] by 0 prompt "a number"
  let i = k - k
"""))
    assert game.faces(2).size == 4 and game.max_chance_outcomes(2) == 4


def test_faces_whose_values_read_alike_are_written_apart(tmp_path: pathlib.Path) -> None:
    game = toy(tmp_path, PLAY + """
cards:
  card: {name: Card, count: 2, in: deck}
setup: |
  set top(deck).rank to 1
  set bottom(deck).rank to "1"
  for each p in players:
    draw 1 from deck to hand(p)
""")
    words = game.faces(2).words
    assert sorted(words) == ['card[rank="1"]', "card[rank=1]"]
    state = game.new_initial_state(seed=0)
    assert [state.string_to_action(0, state.action_to_string(0, a)) for a in range(2)] == [0, 1]


# ---- the observation tensor --------------------------------------------------------------------


def test_the_tensor_counts_cards_by_face(tmp_path: pathlib.Path) -> None:
    game = toy(tmp_path, ONE_DEFINITION)
    state = dealt(game.new_initial_state(seed=2, chance="explicit"))
    layout = game.tensor_layout(2)
    tensor = state.observation_tensor(0)
    faces = game.faces(2)
    at = layout.piece["zones"].offset + layout.slot_offsets[state.layout.zbase[1]]  # P1's hand
    hand = state.zones[state.layout.zbase[1]]
    assert tensor[at] == 3 and [i for i in range(faces.size) if tensor[at + 1 + i]] == sorted(
        faces.of(state, c) for c in hand)


# ---- bad input ----------------------------------------------------------------------------------


def test_an_unknown_face_is_refused_clearly(tmp_path: pathlib.Path) -> None:
    game = toy(tmp_path, ONE_DEFINITION)
    state = game.new_initial_state(seed=1, chance="explicit")
    with pytest.raises(IllegalActionError, match=r"'deal card\[rank=99,suit=hearts\]' is not a chance outcome"):
        state.string_to_action(CHANCE, "deal card[rank=99,suit=hearts]")
    state = dealt(state)
    with pytest.raises(IllegalActionError, match=r"'play card\[rank=3\]' is not an action of Toy"):
        state.string_to_action(0, "play card[rank=3]")
    before = state.to_json()
    with pytest.raises(IllegalActionError):
        state.apply_action("play card[rank=99,suit=hearts]")
    assert state.to_json() == before


def test_a_game_without_cards_has_no_faces() -> None:
    game = load_game("tic-tac-toe")
    assert game.faces(2).size == 0 and Faces.plain(game.definition).size == 0


# ---- through OpenSpiel -----------------------------------------------------------------------


def test_openspiel_sees_52_outcomes_and_52_moves(tmp_path: pathlib.Path) -> None:
    pytest.importorskip("pyspiel", reason="OpenSpiel is not installed: pip install 'orrery[openspiel]'")
    from interpreter import openspiel

    game = openspiel.load(str(write_toy(tmp_path, ONE_DEFINITION)))
    assert game.num_distinct_actions() == 52 and game.max_chance_outcomes() == 52
    state = game.new_initial_state()
    outcomes = state.chance_outcomes()
    assert [a for a, _ in outcomes] == list(range(52)) and all(p == pytest.approx(1 / 52) for _, p in outcomes)
    assert state.legal_actions() == list(range(52))
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert all(0 <= a < game.max_chance_outcomes() for a, _ in outcomes)
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        state.apply_action(outcomes[-1][0])
    legal = state.legal_actions()
    assert len(legal) == 3 and all(0 <= a < game.num_distinct_actions() for a in legal)
    assert len({state.action_to_string(state.current_player(), a) for a in legal}) == 3


def test_every_legal_actions_text_has_an_id_a_copy_sharing_one_too() -> None:
    # copies alike in every attribute share an id: the text of each copy's option (not
    # only the one the id stands for) gives that id, as its place in legal_action_ids says
    game = load_game("for-all-mankind")
    shared = 0
    for seed in range(2):
        state = game.new_initial_state(4, seed)
        rng = random.Random(seed)
        while not state.is_terminal() and len(state.history) < 150:
            player, ids = state.current_player(), state.legal_action_ids()
            texts = [action.text for action in state.legal_actions()]
            found = [state.string_to_action(player, text) for text in texts]
            assert sorted(set(found)) == ids
            shared += len(found) - len(set(found))
            state.apply_action_id(rng.choice(ids))
    assert shared, "some options share an id"
