"""`State.resample_from_infostate`: a state drawn from what one player has observed only,
and the contract of the `ismcts` seat built on it — a search seat's decision is a
function of its seat's information state and its own seed.

Checked on the bundled games at many points of many games: the resampled world looks
the same to the player (observation), resampling it again gives exactly what resampling
the truth gives (so nothing of the truth is read), play goes on from it, and
identically seeded `ismcts` seats decide alike on both. On toys: cards a player saw go
where they went, a hidden move makes them forget, backs keep their places, hidden
counters are reset, bad input is refused.
"""

from __future__ import annotations

import random

import pytest
from conftest import play, toy

from interpreter import Game, GameError, RuleFileError, State, create_agent, load_game
from interpreter.runtime.resample import hidden_positions
from interpreter.web.view import observation_view

GAMES = [("kuhn-poker", ()), ("leduc-poker", ()), ("goofspiel", ()), ("race-to-mars", ()),
         ("for-all-mankind", ()), ("rocketmen", ("target-jupiter",))]


def _same(a: State, b: State) -> bool:
    return a.to_dict() == b.to_dict()


def _legal(st: State) -> list:
    return st.legal_actions(st.players_to_act()[0]) if st.is_simultaneous_node() else st.legal_actions()


def _walk(game: Game, n: int, seed: int, steps: int, every: int) -> list[State]:
    """States of a random game, one every `every` decisions, up to `steps` decisions."""
    st = game.new_initial_state(n, seed)
    rng = random.Random(seed)
    points = []
    while not st.is_terminal() and len(st.history) < steps:
        if len(st.history) % every == 0 and st.players_to_act():
            points.append(st.clone())
        legal = _legal(st)
        st.apply_action(legal[rng.randrange(len(legal))], st.players_to_act()[0])
    return points


@pytest.mark.parametrize(("name", "overlays"), GAMES, ids=lambda v: v if isinstance(v, str) else "+".join(v))
def test_resampling_reads_only_the_information_state(name: str, overlays: tuple[str, ...]) -> None:
    game = load_game(name, overlays=list(overlays))
    small = name in ("kuhn-poker", "leduc-poker", "goofspiel")
    checked = changed = 0
    for seed in range(6 if small else 2):
        for st in _walk(game, game.definition.default_players, seed, 60 if small else 240, 1 if small else 9):
            for p in range(st.n):
                world = st.resample_from_infostate(p, random.Random(seed * 1000 + p))
                assert world.observation_string(p) == st.observation_string(p)
                assert _legal(world) and len(world.history) == len(st.history)
                # the distribution depends on the information state only: resampling the
                # world gives exactly what resampling the truth gives
                for k in range(2):
                    assert _same(st.resample_from_infostate(p, random.Random(k)),
                                 world.resample_from_infostate(p, random.Random(k)))
                changed += world.card_def != st.card_def
                checked += 1
            # play goes on from a world
            world = st.resample_from_infostate(st.players_to_act()[0], random.Random(seed))
            rng = random.Random(seed)
            for _ in range(30):
                if world.is_terminal():
                    break
                legal = _legal(world)
                world.apply_action(legal[rng.randrange(len(legal))], world.players_to_act()[0])
    assert checked >= 20
    assert changed > 0  # hidden cards really were dealt again


@pytest.mark.parametrize(("name", "overlays"), GAMES, ids=lambda v: v if isinstance(v, str) else "+".join(v))
def test_a_search_seat_decides_the_same_in_every_world_it_cannot_tell_apart(name: str,
                                                                           overlays: tuple[str, ...]) -> None:
    game = load_game(name, overlays=list(overlays))
    small = name in ("kuhn-poker", "leduc-poker", "goofspiel")
    spec = "ismcts:iterations=40" if small else "ismcts:iterations=6,depth=20"
    decided = 0
    for seed in range(3 if small else 1):
        points = _walk(game, game.definition.default_players, seed, 40 if small else 200, 3 if small else 50)
        for st in points:
            me = st.player_asked()
            if len(_legal(st)) < 2:
                continue
            world = st.resample_from_infostate(me, random.Random(seed + 7))
            if world.player_asked() != me:
                continue  # others' sealed picks are forgotten in a world: they are asked first there
            a = create_agent(spec, game, seed=5).step(st)
            b = create_agent(spec, game, seed=5).step(world)
            assert a.text == b.text, f"seed {seed}, decision {len(st.history)}"
            decided += 1
    assert decided >= 3


def test_leduc_answers_alike_whatever_the_opponent_holds() -> None:
    """Four deals that look the same to P1: one answer (it once saw the cards)."""
    game = load_game("leduc-poker")
    states = [game.new_initial_state(2, seed) for seed in (0, 21, 13, 32)]
    views = {st.information_state_string(st.current_player()) for st in states}
    assert len(views) == 1
    answers = {create_agent("ismcts:iterations=300", game, seed=99).step(st).text for st in states}
    assert len(answers) == 1


TRACK = """
zones:
  deck: {scope: global, visible: none}
  market: {scope: global, visible: all}
  hand: {scope: player, visible: owner}
  vault: {scope: player, visible: none}
cards:
  ace: {name: Ace, count: 1, in: market}
  king: {name: King, count: 1, in: market}
  dud: {name: Dud, count: 6, in: deck}
actions:
  take:
    during: main
    params: {card: "market"}
    effect: "move card to hand(me)"
    ends: turn
  stash:
    during: main
    params: {card: "hand(me)"}
    effect: "move card to vault(me)"
    ends: turn
  draw:
    during: main
    effect: "move top(deck) to hand(me)"
    ends: turn
flow: |
  repeat 4:
    for each p in players:
      turn p:
        take actions main
"""


def _names(st: State, cards: list[int]) -> list[str]:
    return sorted(st.gd.cards[st.card_def[c]].id for c in cards)


def test_a_card_seen_going_into_a_hidden_hand_stays_there(tmp_path) -> None:
    game = toy(tmp_path, TRACK)
    st = game.new_initial_state(2, 1)
    take_ace = next(a.text for a in st.legal_actions() if a.text.startswith("take ace"))
    play(st, take_ace, "draw")  # P1 takes the ace in view of all; P2 draws a card
    hand1, hand2 = (st.zones[st.layout.zbase[2] + p] for p in (0, 1))
    for k in range(20):
        world = st.resample_from_infostate(1, random.Random(k))  # P2's worlds
        assert _names(world, world.zones[world.layout.zbase[2]]) == ["ace"]
        assert world.zones[world.layout.zbase[2]] == hand1  # the copy did not move either
    # P1 saw nothing of P2's draw: P2's hand is any unseen card (here always a dud)
    assert _names(st, hand2) == ["dud"]
    assert hidden_positions(st, 1) and set(hand1).isdisjoint(hidden_positions(st, 1))


def test_a_card_moved_out_of_sight_is_forgotten(tmp_path) -> None:
    game = toy(tmp_path, TRACK)
    st = game.new_initial_state(2, 1)
    take_ace = next(a.text for a in st.legal_actions() if a.text.startswith("take ace"))
    play(st, take_ace, "draw", "draw", "draw")  # P1 now holds the ace and a dud
    assert any(mask & 2 for mask in st.known.values())  # P2 knows where the ace is
    stash = next(a.text for a in st.legal_actions() if a.text.startswith("stash"))
    play(st, stash)  # P1 stashes one of them face down: P2 cannot tell which
    assert not any(mask & 2 for mask in st.known.values())  # P2 forgot; P1 knows what it stashed
    assert any(mask & 1 for mask in st.known.values())
    seen = set()
    for k in range(40):
        world = st.resample_from_infostate(1, random.Random(k))
        seen.add(tuple(_names(world, world.zones[world.layout.zbase[3]])))  # P1's vault
    assert ("ace",) in seen and ("dud",) in seen


BACKS = """
zones:
  deck: {scope: global, visible: none}
  hand: {scope: player, visible: owner}
cards:
  red1: {name: Red1, count: 2, in: deck, back: red}
  red2: {name: Red2, count: 2, in: deck, back: red}
  blue1: {name: Blue1, count: 2, in: deck, back: blue}
  blue2: {name: Blue2, count: 2, in: deck, back: blue}
setup: |
  shuffle deck
  for each p in players:
    move top(deck) to hand(p)
actions:
  pass: {during: main, ends: turn}
flow: |
  repeat 2:
    for each p in players:
      turn p:
        take actions main
"""


def test_backs_are_seen_and_kept(tmp_path) -> None:
    game = toy(tmp_path, BACKS)
    st = game.new_initial_state(2, 3)
    backs = [st.gd.cards[st.card_def[c]].back for c in st.zones[st.layout.zbase[1] + 1]]
    assert '"backs":{"' + backs[0] + '":1}' in st.observation_string(0)  # P1 sees the back of P2's card
    assert f"1 card (hidden: 1 {backs[0]})" in str(st)  # the terminal says what the backs show
    web = observation_view(st.observation(0), game.definition)
    hand = next(zone for zone in web["zones"] if zone["name"] == "hand")
    assert hand["entries"][1]["backs"] == {backs[0]: 1} and hand["entries"][1]["hidden"]
    for k in range(20):
        world = st.resample_from_infostate(0, random.Random(k))
        assert [world.gd.cards[world.card_def[c]].back for c in world.zones[world.layout.zbase[1] + 1]] == backs
        assert world.observation_string(0) == st.observation_string(0)


HIDDEN_COUNTER = """
counters:
  gold: {scope: player, initial: 1, visible: owner}
actions:
  dig: {during: main, effect: "gain 5 gold(me)", ends: turn}
flow: |
  repeat 2:
    for each p in players:
      turn p:
        take actions main
"""


def test_hidden_counters_are_what_the_player_can_know(tmp_path) -> None:
    game = toy(tmp_path, HIDDEN_COUNTER)
    st = play(game.new_initial_state(2, 1), "dig", "dig")
    world = st.resample_from_infostate(0, random.Random(1))
    assert world.counters[0] == [6, 1]  # P1 knows their own gold; P2's is back at its initial value
    assert st.counters[0] == [6, 6]


def test_bad_input_is_refused_and_a_finished_game_is_copied(tmp_path) -> None:
    game = load_game("kuhn-poker")
    st = game.new_initial_state(2, 1)
    for bad in (2, -1, "0", True, None):
        with pytest.raises(GameError, match="no player"):
            st.resample_from_infostate(bad, random.Random(0))  # type: ignore[arg-type]
    with pytest.raises(GameError, match=r"random\.Random"):
        st.resample_from_infostate(0, 7)  # type: ignore[arg-type]
    while not st.is_terminal():
        st.apply_action(st.legal_actions()[0])
    done = st.resample_from_infostate(0, random.Random(0))
    assert done.is_terminal() and done.returns() == st.returns() and done is not st
    fresh = game.new_initial_state(2, 1).resample_from_infostate(0)  # a fresh generator by default
    assert fresh.observation_string(0) == game.new_initial_state(2, 1).observation_string(0)


POOLED = """
counters:
  bank: {scope: global, initial: 9, min: 0}
  gold: {scope: player, initial: 0, min: 0, max: 6, visible: owner, total: "9 - bank"}
actions:
  dig: {during: main, effect: "lose 2 bank\\ngain 2 gold(me)", ends: turn}
  rest: {during: main, ends: turn}
flow: |
  repeat 3:
    for each p in players:
      turn p:
        take actions main
"""


def test_a_hidden_counter_with_a_public_total_is_split_among_the_hidden_hands(tmp_path) -> None:
    game = toy(tmp_path, POOLED.replace("players: {min: 2, max: 2}", ""))
    st = play(game.new_initial_state(2, 1), "dig", "dig", "dig", "rest")  # P1 4, P2 2: the bank lost 6
    assert st.counters[1] == [4, 2]
    splits = set()
    for k in range(30):
        world = st.resample_from_infostate(0, random.Random(k))
        assert world.counters[1][0] == 4 and sum(world.counters[1]) == 6  # P2 holds what P1 cannot see: 2
        splits.add(tuple(world.counters[1]))
    assert splits == {(4, 2)}  # with two players, the total tells P1 exactly


def test_a_total_with_more_players_is_split_at_random_within_bounds(tmp_path) -> None:
    game = toy(tmp_path, "players: {min: 3, max: 3}\n" + POOLED)
    st = play(game.new_initial_state(3, 1), "dig", "dig", "dig", "dig")  # 8 drawn: P1 4, P2 2, P3 2
    splits = {tuple(st.resample_from_infostate(0, random.Random(k)).counters[1]) for k in range(40)}
    assert all(s[0] == 4 and sum(s) == 8 and max(s) <= 6 for s in splits) and len(splits) > 1


def test_a_total_is_checked_when_the_rules_load(tmp_path) -> None:
    bad = POOLED.replace('total: "9 - bank"', 'total: "9 - vault"')
    with pytest.raises(RuleFileError, match="vault"):
        toy(tmp_path, bad)
    shared = POOLED.replace("gold: {scope: player,", "gold: {scope: global,")
    with pytest.raises(RuleFileError, match="only a per-player counter has a total"):
        toy(tmp_path, shared)
