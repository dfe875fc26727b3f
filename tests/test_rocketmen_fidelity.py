"""Rocketmen and Target: Jupiter against the Target: Jupiter rulebook, round 2 (issue #13).

Each test sets a situation up on a fresh state, plays it the way a person (or the
solitaire AI) would, checks the outcome, and quotes in its docstring the rulebook line
it enforces. Helpers come from test_rocketmen.
"""

from __future__ import annotations

from typing import Any

import pytest
from test_rocketmen import (
    BASE,
    JUPITER,
    _launch_ready,
    act,
    cards,
    clear,
    fresh,
    get,
    give,
    legal,
    put,
    slot_of,
    value,
)

from interpreter import load_game

DESTS = ("earth", "moon", "mars", "jupiter")


@pytest.fixture(scope="module")
def jupiter() -> Any:
    return load_game(BASE, overlays=[JUPITER])


@pytest.fixture(scope="module")
def jupiter_solo() -> Any:
    return load_game(BASE, overlays=[JUPITER], variants=["solitaire"])


@pytest.fixture(scope="module")
def base_solo() -> Any:
    return load_game(BASE, variants=["solitaire"])


def loc_index(s: Any, loc: str) -> int:
    return list(s.gd.constants["location_ids"]).index(loc)


def solo_deck(s: Any, top_first: list[str]) -> None:
    """The Solitaire deck, its first card on top (the AI draws a Destination card, then a
    mission-type card)."""
    clear(s, "solo_deck")
    clear(s, "solo_discard")
    give(s, list(reversed(top_first)), "solo_deck")


def markers(s: Any) -> list[int]:
    return [get(s, "ai_marker", key=d) for d in DESTS]


def ai_tracks(s: Any) -> list[int]:
    return [get(s, "ai_rd", key=d) for d in DESTS]


# ---- solitaire: AI R&D tokens ------------------------------------------------------------------


def test_ai_rd_tokens_go_out_when_the_ai_heads_for_mars(jupiter_solo: Any) -> None:
    """Target: Jupiter rulebook, 'Solitaire Rules: Playing the Game': "Example: The AI is
    heading to Mars, so place AI R&D tokens on Earth's orbit, the Moon, and Mars." and
    "When the AI Rocket token reaches a space with the AI R&D token, remove that token and
    move the AI mission token on the corresponding R&D track up by one."
    """
    s = fresh(jupiter_solo, players=1, seed=3)
    solo_deck(s, ["solo-5", "solo-3", "solo-1", "solo-2"])     # Mars (head start 4), Base
    assert markers(s) == [0, 0, 0, 0]
    act(s, "end_turn")                        # the AI's turn: it takes a mission
    assert get(s, "ai_target") == loc_index(s, "mars_base")
    assert get(s, "ai_pos") == 4 + 1          # head start, then its move this turn
    # the tokens are out as soon as it heads there, before its Rocket reaches anything
    assert markers(s) == [1, 1, 1, 0]
    assert ai_tracks(s) == [0, 0, 0, 0]
    assert get(s, "taken", key="mars_base") == 0 and get(s, "ai_vp") == 0
    put(s, "ai_pos", 7)
    act(s, "end_turn")                        # the AI Rocket reaches Earth's orbit (8)
    assert markers(s) == [0, 1, 1, 0] and ai_tracks(s) == [1, 0, 0, 0]
    put(s, "ai_pos", 9)
    act(s, "end_turn")                        # the Moon (10)
    assert markers(s) == [0, 0, 1, 0] and ai_tracks(s) == [1, 1, 0, 0]
    put(s, "ai_pos", 12)
    act(s, "end_turn")                        # Mars (13): the mission token, and its R&D token
    assert markers(s) == [0, 0, 0, 0] and ai_tracks(s) == [1, 1, 1, 0]
    assert get(s, "taken", key="mars_base") == 1 and get(s, "ai_target") == -1


def test_ai_rd_tokens_are_not_doubled_and_go_only_up_to_the_destination(jupiter_solo: Any) -> None:
    """Target: Jupiter rulebook, 'Solitaire Rules: Playing the Game': place an AI R&D token
    on that space "and on any Destination spaces before that space that do not already
    have an AI R&D token."
    """
    s = fresh(jupiter_solo, players=1, seed=3)
    put(s, "ai_marker", 1, key="moon")        # left over from an abandoned mission
    solo_deck(s, ["solo-1", "solo-1", "solo-2", "solo-3"])     # Earth's orbit (head start 2), Satellite
    act(s, "end_turn")
    assert get(s, "ai_target") == loc_index(s, "earth_satellite")
    assert markers(s) == [1, 1, 0, 0]
    put(s, "ai_pos", 7)
    act(s, "end_turn")                        # arrives at Earth's orbit
    assert markers(s) == [0, 1, 0, 0] and ai_tracks(s) == [1, 0, 0, 0]


def test_base_solitaire_has_no_ai_rd_tokens(base_solo: Any) -> None:
    """The AI R&D tokens are Target: Jupiter's ("Place the 4 AI R&D tokens next to the
    board"): the base game's AI only heads for a Location and scores it on arrival."""
    s = base_solo.new_initial_state(1, seed=3)
    solo_deck(s, ["solo-5", "solo-3", "solo-1", "solo-2"])
    act(s, "end_turn")
    assert get(s, "ai_target") == loc_index(s, "mars_base") and get(s, "ai_pos") == 5
    assert not any(c.name == "ai_marker" for c in s.gd.counters)
