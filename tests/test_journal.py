"""The history and the log are Journals: they read like lists of texts, copies share
what was written before (a clone copies fewer than CHUNK texts however long the game),
and a save writes exactly what `json.dumps` of the lists would."""

from __future__ import annotations

import json
import pickle
import random

import pytest

from interpreter import load_game
from interpreter.runtime.journal import CHUNK, Journal
from interpreter.runtime.saves import dump_state


def _random_texts(rng: random.Random, count: int) -> list[str]:
    alphabet = ["a", "b", "é", '"', "\\", "\n", "P1 (random): 3", "☃"]
    return ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 4))) for _ in range(count)]


@pytest.mark.parametrize("size", [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK + 5, 10 * CHUNK])
def test_reads_like_the_list_it_was_given(size: int) -> None:
    items = _random_texts(random.Random(size), size)
    journal = Journal(items)
    copy = journal.copy()  # freezes full chunks: reads must not see the difference
    for j in (journal, copy):
        assert len(j) == size and bool(j) == bool(items)
        assert list(j) == items and j.to_list() == items
        assert j == items and items == j and j == tuple(items) and j == Journal(items)
        assert [j[i] for i in range(size)] == items
        assert [j[-i] for i in range(1, size + 1)] == [items[-i] for i in range(1, size + 1)]
        for start in (0, 1, size // 2, size - 1, size, size + 3, -1, -CHUNK - 2):
            assert j[start:] == items[start:]
            assert j[start:start + 3] == items[start:start + 3]
        assert j[::2] == items[::2] and j[::-1] == items[::-1]
        assert j.to_json() == json.dumps(items, separators=(",", ":"))
        if items:
            assert items[-1] in j
    assert "not there" not in journal


def test_index_out_of_range_is_an_index_error() -> None:
    journal = Journal(["a", "b"])
    with pytest.raises(IndexError):
        journal[2]
    with pytest.raises(IndexError):
        journal[-3]


def test_copies_are_independent_and_share_the_past() -> None:
    rng = random.Random(7)
    base = Journal()
    model: list[str] = []
    for text in _random_texts(rng, 5 * CHUNK + 3):
        base.append(text)
        model.append(text)
    copy = base.copy()
    assert len(copy._tail) < CHUNK  # all but the latest few texts are shared, not copied
    assert copy._chunks is base._chunks
    copy.append("only in the copy")
    base.append("only in the original")
    assert copy == [*model, "only in the copy"]
    assert base == [*model, "only in the original"]
    assert copy != base


def test_random_appends_copies_and_saves_match_a_list_model() -> None:
    rng = random.Random(11)
    pairs = [(Journal(), [])]
    for _ in range(3000):
        journal, model = rng.choice(pairs)
        roll = rng.random()
        if roll < 0.8:
            text = rng.choice(["x", "yy", "é", str(rng.random())])
            journal.append(text)
            model.append(text)
        elif roll < 0.9:
            pairs.append((journal.copy(), model[:]))
        else:
            assert journal.to_json() == json.dumps(model, separators=(",", ":"))
    for journal, model in pairs:
        assert journal == model and journal.to_json() == json.dumps(model, separators=(",", ":"))


def test_not_equal_to_other_things() -> None:
    assert Journal(["a"]) != "a"
    assert Journal(["a"]) != ["a", "b"]
    assert Journal(["a"]) != Journal(["b"])


def test_pickles_as_its_items() -> None:
    journal = Journal([str(i) for i in range(2 * CHUNK + 1)])
    journal.copy()
    assert pickle.loads(pickle.dumps(journal)) == journal


def test_long_game_clone_copies_only_the_latest_texts_and_saves_exactly() -> None:
    game = load_game("race-to-mars")
    rng = random.Random(5)
    state = game.new_initial_state(seed=5)
    checked = 0
    while not state.is_terminal() and len(state.history) < 300:
        state.apply_action(rng.choice(state.legal_actions()))
        if len(state.history) % 37 == 0:
            clone = state.clone()
            assert len(clone.history._tail) < CHUNK and len(clone.log._tail) < CHUNK
            assert clone.history == state.history and clone.log == state.log
            # byte for byte what the save writer would write from the lists
            assert state.to_json() == dump_state(state) == clone.to_json()
            again = game.state_from_json(state.to_json())
            assert again == state and again.history == state.history and again.log == state.log
            checked += 1
    assert checked >= 5 and len(state.history) >= 300
    # The original plays on without disturbing its clones' past.
    before = clone.history.to_list()
    while not state.is_terminal() and len(state.history) < 400:
        state.apply_action(rng.choice(state.legal_actions()))
    assert clone.history == before
