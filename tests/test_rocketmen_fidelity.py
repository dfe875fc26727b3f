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


# ---- solitaire: the AI's Engine removals on every R&D track -----------------------------------

PILES = ("small_boosters", "large_boosters", "ion_drives")


def piles(s: Any) -> list[int]:
    return [len(cards(s, z)) for z in PILES]


def test_every_rd_track_has_a_rocket_space(jupiter: Any) -> None:
    """Target: Jupiter rulebook, 'AI Bonus on the R&D Tracks': "Anytime the AI player token
    reaches a space with this rocket icon, depending on the track, remove one of the
    following Engine cards ... Earth's orbit track ... Moon track ... Mars track: 1 Ion Drive
    ... Jupiter track: 3 different Engine cards": each of the four tracks has one."""
    consts = jupiter.new_initial_state(2, seed=1).gd.constants
    for t in DESTS:
        rewards = consts["rd_rewards"][t]
        assert len(rewards) == consts["rd_top"][t] + 1
        assert rewards.count("boost") == 1, t
        assert rewards[-1] in ("vp1", "vp2")          # the exclusive top space
    assert consts["boost_engine"] == {"earth": ["small"], "moon": ["large"], "mars": ["ion"],
                                      "jupiter": ["small", "large", "ion"]}
    # every green token type and both Mission Success token values are on some track
    everything = [r for t in DESTS for r in consts["rd_rewards"][t]]
    assert {"computers", "composite", "biotech", "science", "ms1", "ms2", "jsuccess", "insight",
            "advisor"} <= set(everything)


def _ai_reaches(s: Any, loc: str, track: str, space_before: int) -> None:
    """The AI, heading for `loc`, one space short of it, with an AI R&D token waiting on the
    Destination and its mission token on `space_before` of that R&D track."""
    for d in DESTS:
        put(s, "ai_marker", 0, key=d)
    put(s, "ai_marker", 1, key=track)
    put(s, "ai_rd", space_before, key=track)
    put(s, "ai_target", loc_index(s, loc))
    put(s, "ai_pos", s.gd.constants["dest_distance"][track] - 1)


def test_ai_on_the_mars_track_rocket_removes_an_ion_drive(jupiter_solo: Any) -> None:
    """Target: Jupiter rulebook, 'AI Bonus on the R&D Tracks': "Mars track: 1 Ion Drive"."""
    s = fresh(jupiter_solo, players=1, seed=3)
    rocket = s.gd.constants["rd_rewards"]["mars"].index("boost")
    _ai_reaches(s, "mars_base", "mars", rocket - 1)
    assert piles(s) == [5, 5, 5]
    act(s, "end_turn")                        # the AI Rocket reaches Mars and its R&D token
    assert get(s, "ai_rd", key="mars") == rocket
    assert piles(s) == [5, 5, 4]
    assert any("The AI removes an Engine card from the game: Ion Drive" in line for line in s.log)


def test_ai_on_the_jupiter_track_rocket_removes_three_different_engines(jupiter_solo: Any) -> None:
    """Target: Jupiter rulebook, 'AI Bonus on the R&D Tracks': "Jupiter track: 3 different
    Engine cards (i.e. 1 Small Rocket Boosters, 1 Large Rocket Boosters, 1 Ion Drive)"."""
    s = fresh(jupiter_solo, players=1, seed=3)
    rocket = s.gd.constants["rd_rewards"]["jupiter"].index("boost")
    _ai_reaches(s, "jupiter_base", "jupiter", rocket - 1)
    act(s, "end_turn")
    assert get(s, "ai_rd", key="jupiter") == rocket
    assert piles(s) == [4, 4, 4]
    assert get(s, "taken", key="jupiter_base") == 1
    # an empty pile gives nothing to remove (and is no error)
    s = fresh(jupiter_solo, players=1, seed=3)
    clear(s, "ion_drives")
    _ai_reaches(s, "jupiter_base", "jupiter", rocket - 1)
    act(s, "end_turn")
    assert piles(s) == [4, 4, 0]


def test_ai_on_the_earth_and_moon_track_rockets(jupiter_solo: Any) -> None:
    """Target: Jupiter rulebook, 'AI Bonus on the R&D Tracks': "Earth's orbit track: 1 Small
    Rocket Boosters; Moon track: 1 Large Rocket Boosters"."""
    s = fresh(jupiter_solo, players=1, seed=3)
    rocket = s.gd.constants["rd_rewards"]["earth"].index("boost")
    _ai_reaches(s, "earth_satellite", "earth", rocket - 1)
    act(s, "end_turn")
    assert piles(s) == [4, 5, 5]
    rocket = s.gd.constants["rd_rewards"]["moon"].index("boost")
    _ai_reaches(s, "moon_base", "moon", rocket - 1)
    act(s, "end_turn")
    assert piles(s) == [4, 4, 5]


def test_a_player_on_a_rocket_space_gains_a_rocket_token(jupiter: Any) -> None:
    """Target: Jupiter rulebook, 'R&D Rewards': "Gain 1 Rocket token. Use it as per base game
    rules." (the Mars track's new rocket space; a player removes no Engine card there)."""
    s = fresh(jupiter, hand=["research-grant", "materials-workshop"])
    put(s, "cash_tokens", 0, 0)
    rocket = s.gd.constants["rd_rewards"]["mars"].index("boost")
    put(s, "rd_pos", rocket - 1, 0, "mars")
    act(s, "research mars")
    act(s, "1")
    act(s, "play a card")
    act(s, "research-grant")                  # $20
    act(s, "play a card")
    act(s, "materials-workshop")              # the Composite Materials item
    assert get(s, "rd_pos", 0, "mars") == rocket
    assert get(s, "boost_tokens", 0) == 1
    assert piles(s) == [5, 5, 5]


# ---- solitaire: the free display discard ----------------------------------------------------


def _heading(s: Any, loc: str, pos: int) -> None:
    put(s, "ai_target", loc_index(s, loc))
    put(s, "ai_pos", pos)


def test_expansion_display_discard_moves_the_ai_rocket_in_solitaire(jupiter_solo: Any) -> None:
    """Assumption (both rules read together). Target: Jupiter rulebook, 'Changes to the
    Rules' 5: "Once on their turn as a free action each player may discard one card from
    the display and replace it with a new card from the deck." and 'Solitaire Rules':
    "Play using the solitaire rules from the base game", whose display removal moves the
    AI Rocket 1 extra space: in solitaire the two are one free action, and it costs the
    extra AI space."""
    s = fresh(jupiter_solo, players=1, seed=3)
    _heading(s, "mars_base", 3)
    act(s, "end_turn")
    assert get(s, "ai_pos") == 4               # no discard: 1 space
    assert not any(a.startswith("solo_clear") for a in legal(s))   # one action, not two
    display = s.zones[slot_of(s, "display")][:]
    act(s, "display_swap " + s.card_text(display[0]))
    assert s.card_text(display[0]).split("#")[0] in cards(s, "display_discards")
    assert len(cards(s, "display")) == 6
    assert not any(a.startswith("display_swap") for a in legal(s))  # once per turn
    act(s, "end_turn")
    assert get(s, "ai_pos") == 4 + 1 + 1      # 1 space, and 1 extra for the discard
    act(s, "end_turn")
    assert get(s, "ai_pos") == 7               # next turn: 1 space again


def test_expansion_display_discard_never_a_card_placed_this_turn_in_solitaire(jupiter_solo: Any) -> None:
    """Target: Jupiter rulebook, 'Changes to the Rules' 5: "The discarded card cannot be a
    card placed during that player's turn." (kept in solitaire too)."""
    s = fresh(jupiter_solo, players=1, seed=3, hand=["venture-capital", "venture-capital"])
    clear(s, "display")
    give(s, ["research-grant"] * 6, "display")
    give(s, ["genome-lab"], "asset_deck")     # the next card to come out
    act(s, "buy research-grant")
    act(s, "play a card")
    act(s, "venture-capital")
    new = [c for c in s.zones[slot_of(s, "display")] if s.card_text(c).startswith("genome-lab#")]
    assert len(new) == 1                      # refilled during this turn
    swaps = [a for a in legal(s) if a.startswith("display_swap")]
    assert len(swaps) == 5 and not any("genome-lab" in a for a in swaps)
    act(s, "end_turn")                        # next turn it may be discarded
    assert new[0] in s.zones[slot_of(s, "display")]
    assert any("genome-lab" in a for a in legal(s) if a.startswith("display_swap"))


def test_multiplayer_display_discard_is_free(jupiter: Any) -> None:
    """Target: Jupiter rulebook, 'Changes to the Rules' 5: "as a free action" (no AI, no
    action used)."""
    s = fresh(jupiter)
    act(s, "display_swap")
    assert get(s, "ai_freed") == 0 and get(s, "actions_used", 0) == 0


def test_base_solitaire_display_removal_moves_the_ai_rocket(base_solo: Any) -> None:
    """Base solitaire, as publicly described: "the player may remove one display card for
    free, but then the AI Rocket moves 1 extra space"."""
    s = base_solo.new_initial_state(1, seed=3)
    _heading(s, "mars_base", 3)
    act(s, "solo_clear")
    assert len(cards(s, "display")) == 6
    assert not any(a.startswith("solo_clear") for a in legal(s))
    act(s, "end_turn")
    assert get(s, "ai_pos") == 5
