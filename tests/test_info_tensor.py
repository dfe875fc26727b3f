"""`State.information_state_tensor`: the information state as numbers, perfect recall
included — one tensor stands for one information state — with its fixed shape, through
the core API and the OpenSpiel adapter; bad input refused."""

from __future__ import annotations

import random

import pytest

from interpreter import GameError, load_game, openspiel


def _random_states(game, n: int, games: int, seed: int, variants=()) -> list:
    rng = random.Random(seed)
    states = []
    for g in range(games):
        st = game.new_initial_state(n, seed=g, chance="explicit")
        while not st.is_terminal():
            states.append(st.clone())
            if st.is_chance_node():
                outcomes = st.chance_outcomes()
                st.apply_action(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
            else:
                waiting = st.players_to_act()
                legal = st.legal_actions(waiting[0])
                st.apply_action(legal[rng.randrange(len(legal))], waiting[0])
        states.append(st)
    return states


@pytest.mark.parametrize(("name", "variants", "events"), [("kuhn-poker", (), 6), ("leduc-poker", (), 16),
                                                           ("goofspiel-drawn", ("three-cards",), 12)])
def test_one_tensor_is_one_information_state(name: str, variants: tuple[str, ...], events: int) -> None:
    game = load_game(name, variants=list(variants))
    n = game.definition.default_players
    shape = game.information_state_tensor_shape(n, events)
    meaning: dict[tuple[int, tuple[float, ...]], str] = {}
    strings: set[tuple[int, str]] = set()
    for st in _random_states(game, n, 30, 1):
        for p in range(n):
            tensor = st.information_state_tensor(p, events)
            assert [len(tensor)] == shape
            text = st.information_state_string(p)
            assert meaning.setdefault((p, tuple(tensor)), text) == text, "one tensor, two information states"
            strings.add((p, text))
    assert len(meaning) == len(strings) > 10  # and every information state met has its own tensor


def test_a_public_draw_overwritten_is_remembered() -> None:
    """The drawn-prize goofspiel: prize orders 1,2,3 and 2,1,3 with the same bids end
    with the same view, not the same tensor."""
    game = load_game("goofspiel-drawn", variants=["three-cards"])
    ends = []
    for order in ((1, 2, 3), (2, 1, 3)):
        st = game.new_initial_state(2, chance="explicit")
        for prize in order[:2]:
            st.apply_action(next(a for a, _ in st.chance_outcomes() if a.text.split()[-1] == str(prize)))
            while not st.is_chance_node() and not st.is_terminal():
                for p in st.players_to_act():
                    st.apply_action(st.legal_actions(p)[0], p)
        ends.append(st)
    assert ends[0].observation_string(0) == ends[1].observation_string(0)
    assert ends[0].information_state_tensor(0, 12) != ends[1].information_state_tensor(0, 12)


def test_bad_input_is_refused() -> None:
    game = load_game("kuhn-poker")
    st = game.new_initial_state(2, seed=1, chance="explicit")
    for _ in range(4):
        st.apply_action(st.legal_actions()[0])
    with pytest.raises(GameError, match="max_events"):
        st.information_state_tensor(0, 3)
    for bad in (-1, "6", 2.5, True):
        with pytest.raises(GameError, match="max_events"):
            game.information_state_tensor_shape(2, bad)  # type: ignore[arg-type]
    with pytest.raises(GameError, match="no player"):
        st.information_state_tensor(5)


def test_the_openspiel_adapter_gives_the_same_tensor() -> None:
    pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import get_all_states

    game = openspiel.load("kuhn-poker", max_events=5)
    assert game.get_type().provides_information_state_tensor
    states = get_all_states.get_all_states(game, include_terminals=False, include_chance_states=False)
    tensors: dict[int, set[tuple[float, ...]]] = {0: set(), 1: set()}
    for state in states.values():
        p = state.current_player()
        tensor = state.information_state_tensor(p)
        assert len(tensor) == game.information_state_tensor_shape()[0]
        assert list(tensor) == state.core.state.information_state_tensor(p, 5)
        tensors[p].add(tuple(tensor))
    assert [len(tensors[0]), len(tensors[1])] == [6, 6]  # OpenSpiel's Kuhn poker: 6 information sets each
