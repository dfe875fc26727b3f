"""Rocketmen and Target: Jupiter against the Target: Jupiter rulebook, round 2 (issue #13).

Each test sets a situation up on a fresh state, plays it the way a person (or the
solitaire AI) would, checks the outcome, and quotes in its docstring the rulebook line
it enforces. Helpers come from test_rocketmen.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
import test_rocketmen
from test_rocketmen import (
    BASE,
    JUPITER,
    ROOT,
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
from interpreter.runtime.present import action_label

DESTS = ("earth", "moon", "mars", "jupiter")

# The base tests' module fixtures, shared rather than written again.
jupiter = test_rocketmen.jupiter
jupiter_solo = test_rocketmen.jupiter_solo


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


# ---- Mission Success tokens, Success Jupiter and Insight tokens, cash tokens ------------------


def _prompt_options(s: Any) -> list[str]:
    return [a.strip('"') for a in legal(s)]


def test_mission_success_tokens_replace_a_draw_so_none_after_the_last_draw(jupiter: Any) -> None:
    """Target: Jupiter rulebook, 'Mission Success Tokens': "any number of Mission Success
    tokens can be played at once instead of drawing a single Mission Success card" (the
    worked example plays them instead of the third of 3 draws). After the last allowed
    draw there is no draw left to replace: a Rocket still short fails, the tokens stay."""
    s = _launch_ready(jupiter, "m-spaceship", ["large-rocket-boosters"], ["ms-1", "ms-1", "ms-1"])
    put(s, "ms_one", 1, 0)
    put(s, "ms_two", 2, 0)
    act(s, "launch m-spaceship earth_spaceship")
    for _ in range(2):
        assert "play Mission Success tokens" in _prompt_options(s)
        act(s, "draw")
    assert get(s, "draws_left") == 1 and get(s, "rocket_pos") == 2
    act(s, "draw")                             # the last draw: Rocket at 3 of 8
    assert get(s, "launch_state") == 0 and get(s, "completed", 0, "earth_spaceship") == 0
    assert not any("Mission Success token" in a for a in _prompt_options(s))   # no play offered
    assert cards(s, "launch_pad", 0) == [] and "m-spaceship" in cards(s, "discard", 0)   # failure
    assert get(s, "ms_one", 0) == 1 and get(s, "ms_two", 0) == 2    # kept for the end (3 VP)


def test_mission_success_tokens_use_up_one_draw_and_stop_at_the_destination(jupiter: Any) -> None:
    """Target: Jupiter rulebook, 'Mission Success Tokens': tokens are played "instead of
    drawing a single Mission Success card" (one of the allowed draws), "For each token you
    play, move the Rocket token ... (1 or 2)" and "Any tokens that aren't played count
    towards additional VPs at the end of the game": once the Rocket is there, no more are
    spent."""
    s = _launch_ready(jupiter, "m-spaceship", ["large-rocket-boosters"], ["ms-3", "ms-4", "ms-1"])
    put(s, "ms_one", 1, 0)
    put(s, "ms_two", 2, 0)
    act(s, "launch m-spaceship earth_spaceship")
    act(s, "play Mission Success tokens")     # instead of the first draw
    act(s, "play a 2 token")
    act(s, "done")
    assert get(s, "rocket_pos") == 2 and get(s, "draws_left") == 2
    act(s, "draw")
    act(s, "draw")                            # 2 + 3 + 4 = 9: there (8)
    assert get(s, "completed", 0, "earth_spaceship") == 1
    assert get(s, "ms_one", 0) == 1 and get(s, "ms_two", 0) == 1
    # 1 space to go with tokens 1 + 2: playing the 2 ends the play; the 1 stays
    s = _launch_ready(jupiter, "m-spaceship", ["large-rocket-boosters"], ["ms-4", "ms-3", "ms-0"])
    put(s, "ms_one", 1, 0)
    put(s, "ms_two", 1, 0)
    act(s, "launch m-spaceship earth_spaceship")
    act(s, "draw")
    act(s, "draw")                            # 7 of 8
    act(s, "play Mission Success tokens")
    act(s, "play a 2 token")                  # 9: there, the play ends by itself
    assert get(s, "completed", 0, "earth_spaceship") == 1
    assert get(s, "ms_one", 0) == 1 and get(s, "ms_two", 0) == 0
    assert value(s, "ms_value", 0) == 1


def test_success_jupiter_token_is_not_used_up(jupiter: Any) -> None:
    """Target: Jupiter rulebook, 'R&D Rewards': "Gain a Success Jupiter token. Prior to
    launching a mission, if your Destination is Jupiter you may use it to advance your
    Rocket token one space", listed under achievement tokens, which "work the same as
    achievement tokens gained from missions" (only Mission Success tokens are called
    single-use): it moves the Rocket at every Jupiter launch, and only there."""
    s = _launch_ready(jupiter, "m-satellite", ["ion-drive", "large-rocket-boosters", "small-rocket-boosters"],
                      ["ms-0"] * 6)
    put(s, "jsuccess", 1, 0)
    put(s, "cash_tokens", 0, 0)
    act(s, "launch m-satellite jupiter_satellite")
    assert get(s, "rocket_pos") == 1          # the Success Jupiter token
    while get(s, "launch_state") == 1:
        act(s, "draw")                        # six 0s: a failure
    assert get(s, "jsuccess", 0) == 1
    # the next Jupiter launch (next turn) gets it again
    act(s, "end_turn")
    act(s, "end_turn")
    clear(s, "hand", 0)
    give(s, ["m-spaceship"], "hand", 0)
    give(s, ["ion-drive", "large-rocket-boosters", "small-rocket-boosters"], "launch_pad", 0)
    act(s, "launch m-spaceship jupiter_spaceship")
    assert get(s, "rocket_pos") == 1 and get(s, "jsuccess", 0) == 1
    # not for another Destination
    s = _launch_ready(jupiter, "m-base", ["ion-drive", "large-rocket-boosters", "small-rocket-boosters"],
                      ["ms-0"] * 5)
    put(s, "jsuccess", 1, 0)
    act(s, "launch m-base mars_base")
    assert get(s, "rocket_pos") == 0


def test_ai_success_jupiter_token_counts_at_every_jupiter_mission(jupiter_solo: Any) -> None:
    """Target: Jupiter rulebook, 'AI Bonus on the R&D Tracks': "Subsequently, anytime the AI
    starts a new mission and is heading to Jupiter, advance its Rocket 1 space prior to
    launch.\""""
    s = fresh(jupiter_solo, players=1, seed=3)
    put(s, "ai_jsuccess", 1)
    solo_deck(s, ["solo-8", "solo-3", "solo-8", "solo-1"])     # Jupiter (head start 5), Base
    act(s, "end_turn")
    assert get(s, "ai_target") == loc_index(s, "jupiter_base") and get(s, "ai_pos") == 5 + 1 + 1
    put(s, "ai_pos", 16)
    act(s, "end_turn")                         # arrives; its Jupiter R&D token: a Biotechnology token
    assert get(s, "taken", key="jupiter_base") == 1 and get(s, "ai_items", key="biotech") == 1
    solo_deck(s, ["solo-8", "solo-1", "solo-3", "solo-2"])     # Jupiter again, Satellite
    act(s, "end_turn")
    assert get(s, "ai_target") == loc_index(s, "jupiter_satellite")
    assert get(s, "ai_pos") == 5 + 1 + 1 + 1   # head start, Biotechnology, Success Jupiter again, move
    assert get(s, "ai_jsuccess") == 1


def test_insight_token_serves_every_launch(jupiter: Any) -> None:
    """Target: Jupiter rulebook, 'R&D Rewards': "Gain an Insight token. Prior to launching a
    mission, you may use it to draw the top two cards from the Mission Success deck, choose
    one and discard the other. The chosen card is the first card you draw this launch
    attempt." - an achievement token, not single-use: at the next launch it is there again."""
    s = _launch_ready(jupiter, "m-satellite", ["small-rocket-boosters"], ["ms-0", "ms-3", "ms-1", "ms-1"])
    put(s, "insight", 1, 0)
    act(s, "launch m-satellite")
    act(s, "use Insight")
    act(s, "ms-3")                            # keep the 3, the 0 is discarded
    assert cards(s, "ms_next") == ["ms-3"] and "ms-0" in cards(s, "ms_discard")
    act(s, "draw")
    assert get(s, "rocket_pos") == 3 and get(s, "insight", 0) == 1
    act(s, "stop")                            # abort: lose the Launch Pad card
    act(s, "end_turn")
    act(s, "end_turn")
    clear(s, "hand", 0)
    give(s, ["m-satellite"], "hand", 0)
    give(s, ["small-rocket-boosters"], "launch_pad", 0)
    act(s, "launch m-satellite")
    assert "use Insight" in _prompt_options(s)
    act(s, "not this launch")
    assert get(s, "insight", 0) == 1 and cards(s, "ms_next") == []


def test_cash_tokens_have_no_cap(jupiter: Any) -> None:
    """Target: Jupiter rulebook, 'R&D Rewards': "There is no limit on the number of
    achievement tokens you can have" - the $10 achievement tokens (2 per player in the box)
    included: a third one is gained and spent like the others."""
    s = fresh(jupiter, hand=["emergency-funding"])
    put(s, "cash_tokens", 2, 0)               # the starting token and a Space Hotel's
    act(s, "benefit emergency-funding")
    act(s, "second effect")                   # remove it from the game: a $10 token
    assert get(s, "cash_tokens", 0) == 3 and value(s, "money_avail", 0) == 30
    assert "emergency-funding" not in cards(s, "hand", 0)
    act(s, "buy computer-lab")                 # $30: all three tokens flipped
    for _ in range(3):
        act(s, "flip a cash token")
    assert get(s, "cash_tokens", 0) == 0 and "computer-lab" in cards(s, "discard", 0)


# ---- choices people can read -------------------------------------------------------------------

GAME_FILES = [ROOT / "games" / "rocketmen" / "game.yaml", ROOT / "games" / "rocketmen" / "cards.yaml",
              ROOT / "games" / "target-jupiter" / "overlay.yaml"]


@pytest.mark.parametrize("overlays", [[], [JUPITER]])
def test_every_card_has_a_name_and_a_text_saying_what_it_does(overlays: list[str]) -> None:
    """Choices show card names ("Spaceship Mission"), not ids ("m-base#135"): every card
    that can be offered has a name and a `text` for people."""
    game = load_game(BASE, overlays=overlays)
    for c in game.new_initial_state(2, seed=1).gd.cards:
        assert c.name and c.name != c.id, c.id
        text = c.text
        assert isinstance(text, str) and len(text) >= 12 and c.id not in text, c.id
        assert not re.search(r"\b[a-z]+-[a-z]+#?\d*\b", text), (c.id, text)   # no ids in it


def test_every_choice_in_the_data_has_a_prompt() -> None:
    """Prompts say what is being chosen: no `choose` without a `prompt`."""
    for path in GAME_FILES:
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if re.search(r"\bchoose (one|up to|\w+ from)\b", line) and not line.lstrip().startswith("#"):
                assert " prompt \"" in line, f"{path.name}:{number}: {line.strip()}"


def test_action_labels_name_cards_and_places(jupiter: Any) -> None:
    """Actions read as people say them: card names and texts, Locations and tracks by their
    names, never ids."""
    s = _launch_ready(jupiter, "m-spaceship", ["ion-drive"], ["ms-4"])
    give(s, ["computer-lab"], "hand", 0)
    labels = {a.text: action_label(s, a) for a in s.legal_actions()}
    launch = next(lab for text, lab in labels.items() if text.endswith("earth_spaceship"))
    assert launch.startswith("launch Spaceship Mission to the Spaceship at Earth's orbit (needs 3 rocket points")
    research = next(lab for text, lab in labels.items() if text == "research earth")
    assert research == ("Research & Development on the Earth's orbit track (each space $10 + 1 any item; "
                        "you are on 0 of 4; next: Mission Success token 1)")
    buy = next(lab for text, lab in labels.items() if text.startswith("buy small-rocket-boosters"))
    assert buy == "buy Small Rocket Boosters for $20: Engine: 2 rocket points on your Launch Pad."
    for text, lab in labels.items():
        if " " in text and not text.startswith(("end_turn", "discard_cards")):
            assert lab and "#" not in lab and "_" not in lab, (text, lab)
