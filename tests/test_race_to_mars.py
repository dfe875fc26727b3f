"""Race to Mars (games/race-to-mars), written as data: its rules, one by one.

Most tests build their situation with a small overlay (written to a temporary folder)
that replaces the game's `setup` by a scripted one and adds a few test cards with known
crew abilities, modules and trajectory lanes; the game's own flow, actions and
procedures then run unchanged. Setup and the draft are tested on the real game.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from interpreter import load_game
from interpreter.runtime import counters

ROOT = Path(__file__).resolve().parent.parent
GAME = str(ROOT / "games" / "race-to-mars")
BASICS = ["fuel", "hull", "navigation", "velocity"]


# The powers the test cards borrow, written as the game's own cards write them
# (cards.yaml): a Crew ability is a `crew` effect (`copy` for a card that copies); a
# Rocket module has an `each_turn` effect (the resource it gives, a copy module's choice),
# modifiers (extra draw, storage, shields) or effects used by jettisoning it.
CREW_POWERS: dict[str, dict[str, Any]] = {
    "none": {},
    "draw2": {"effects": {"crew": "draw_cards(me, 2)"}},
    "draw3keep1": {"effects": {"crew": "draw_keep_one(me, 3)"}},
    "copy": {"effects": {"copy": {"condition": "len(copy_targets(me)) > 0", "effect": "copy_card(me, this)"}}},
}
MODULE_POWERS: dict[str, dict[str, Any]] = {
    "draw": {"modifiers": {"extra_draw": {"value": "draws", "op": "add", "amount": "worked(this, p)"}}},
    "storage": {"modifiers": {"storage": {"value": "keeps", "op": "add", "amount": "worked(this, p)"}},
                "effects": {"storage_jettison": (
                    'choose up to 3 gone from hand(me) + discard(me) by me prompt '
                    '"jettison up to three cards from your hand and/or discard pile"\ndestroy gone')}},
    "shield_red": {"modifiers": {"red_shield": {"value": "red_shield", "op": "set", "amount": "true"}}},
    "shield_yellow": {"modifiers": {"yellow_shield": {"value": "yellow_shield", "op": "set", "amount": "true"}}},
    "free3": {"effects": {"free_advance": {"condition": "pos(me) + 3 <= goal(me)", "effect": "free_run(me, 3)"}}},
    "copy": {"properties": {"copy_module": True}, "effects": {"each_turn": "copy_neighbour(this)"}},
}


def _card(ability: str = "none", res: list[str] | None = None, mods: list[str] | None = None,
          mres: str = "", **extra: Any) -> dict[str, Any]:
    """A test Space card with a Crew ability and a Rocket module named as above (`mres`:
    the resource a resource module gives)."""
    props: dict[str, Any] = {"res": res or [], "lanes": [["fuel", "fuel"]] * 4, "hazards": [["", ""]] * 4, **extra}
    card: dict[str, Any] = {"name": "test card", "type": "space", "count": 30, "in": "box",
                            "text": "Crew ability: a test. Rocket module: a test.", "properties": props}
    powers = [CREW_POWERS[ability]] + [MODULE_POWERS[m] for m in mods or ["storage"] if m != "resource"]
    if "resource" in (mods or []):
        powers.append({"effects": {"each_turn": f'set this.avail to ["{mres}"]'}})
    for power in powers:
        for key, part in power.items():
            card.setdefault(key, {}).update(part)
    return card


# Lane 0: fuel, fuel; lane 1: hull, hull (red hazard on the second); lane 2: navigation,
# navigation (yellow on the first); lane 3: velocity, engineering (green on the second).
ROUTE = _card(lanes=[["fuel", "fuel"], ["hull", "hull"], ["navigation", "navigation"], ["velocity", "engineering"]],
              hazards=[["", ""], ["", "red"], ["yellow", ""], ["", "green"]])
TEST_CARDS = {
    "t-route": ROUTE,
    "t-fuel": _card(res=["fuel"], mods=["resource"], mres="fuel"),
    "t-wild": _card(res=["wild"]),
    "t-draw2": _card(ability="draw2"),
    "t-copy": _card(ability="copy"),
    "t-draw3": _card(ability="draw3keep1"),
    "t-draw-mod": _card(mods=["draw"]),
    "t-storage": _card(mods=["storage"]),
    "t-red-shield": _card(mods=["shield_red"]),
    "t-yellow-shield": _card(mods=["shield_yellow"]),
    "t-free": _card(mods=["free3"]),
    "t-copy-mod": _card(mods=["copy"]),
    "t-hull-mod": _card(mods=["resource"], mres="hull"),
}

BASE_SETUP = """\
set start_player to {start}
set active_player to {start}
for each p in players:
  move cards_named("rocket", box)[0] to rocket_card(p)
  set lane(p) to p
repeat 12:
  move cards_named("t-route", box)[0] to route top
set placed to 12
"""


def put(card: str, zone: str, n: int = 1) -> str:
    """Setup text: n test cards from the box into a zone (`hand(0)`, `route`, ...)."""
    return f'repeat {n}:\n  move cards_named("{card}", box)[0] to {zone}\n'


def attach(card: str, p: int) -> str:
    return f'attach({p}, cards_named("{card}", box)[0])\n'


def boost(zone: str, n: int = 1) -> str:
    return f"repeat {n}:\n  move top(boost_supply) to {zone}\n"


def launched(p: int) -> str:
    return f"set launched({p}) to 1\nset_path({p})\n"


def scenario(tmp_path: Path, setup: str, players: int = 2, start: int = 0, seed: int = 1) -> Any:
    overlay = {"orrery": 1, "overlay": "scenario", "base": "race-to-mars", "add": {"cards": TEST_CARDS},
               "set": {"setup": BASE_SETUP.format(start=start) + setup}}
    path = tmp_path / "scenario.yaml"
    path.write_text(json.dumps(overlay))
    return load_game(GAME, overlays=[str(path)]).new_initial_state(players, seed=seed)


# ---- reading and driving a state ----------------------------------------------------------------


def cards(s: Any, zone: str, p: int | None = None) -> list[str]:
    zdef = next(z for z in s.gd.zones if z.name == zone)
    slot = s.layout.zbase[zdef.index] + (p if zdef.scope == "player" else 0)
    return [s.card_text(c) for c in s.zones[slot]]


def kinds(s: Any, zone: str, p: int | None = None) -> list[str]:
    return [c.split("#")[0] for c in cards(s, zone, p)]


def counter(s: Any, name: str, p: int | None = None) -> int:
    view = s.observation(-1)["counters"][name]
    return int(view if p is None else view[p])


def value(s: Any, name: str, p: int) -> Any:
    vdef = next(v for v in s.gd.values if v.name == name)
    return counters.value_of(s, vdef.index, p)


def legal(s: Any) -> list[str]:
    return [a.text for a in s.legal_actions()]


def act(s: Any, text: str) -> None:
    """Apply an action or answer; a text ending in '#' (e.g. 'play t-fuel#') means the
    first legal text that starts with it."""
    if text.endswith("#"):
        text = next(t for t in legal(s) if t.startswith(text))
    s.apply_action(text)


def phase(s: Any) -> str | None:
    """The action group the state waits in ("fly", "play", ...), or 'choice'."""
    if s.pending is None:
        return None
    return s.pending.group if s.pending.kind == "actions" else "choice"


def finish_turn(s: Any) -> None:
    """Ends the current player's post-launch turn, keeping nothing."""
    p = s.current_player()
    for done in ("done_flying", "done_exchanging", "done_insights"):
        if done in legal(s):
            act(s, done)
    while s.current_player() == p and phase(s) in ("choice", "discarded"):
        if phase(s) == "discarded":
            act(s, "done_discarding")
        else:
            act(s, "done" if "done" in legal(s) else legal(s)[0])


# ---- components and setup -------------------------------------------------------------------


def test_components_and_their_counts():
    s = load_game(GAME).new_initial_state(4, seed=1)
    made = Counter(s.gd.cards[d].id for d in s.card_def)
    types = Counter(s.gd.cards[d].type for d in s.card_def)
    assert types["space"] == 100 and types["headquarters"] == 10 and types["starting"] == 8
    assert made["asteroid"] == 40 and made["boost"] == 24 and made["rocket"] == 4
    assert made["pawn"] == 8 and made["player-token"] == 60 and made["reference-card"] == 8
    assert made["experience-token"] == 25 and made["insight-card"] == 1
    assert made["earth"] == made["mars"] == made["trajectory-card"] == 1
    assert made["start-player-card"] == made["active-player-card"] == 1


def hq_card(s: Any, p: int) -> str:
    return s.gd.cards[s.card_def[s.zones[_slot(s, "hq", p)][0]]].id


def _slot(s: Any, zone: str, p: int | None = None) -> int:
    zdef = next(z for z in s.gd.zones if z.name == zone)
    return s.layout.zbase[zdef.index] + (p if zdef.scope == "player" else 0)


def run_setup(n: int, seed: int, variants: tuple[str, ...] = ()) -> tuple[Any, list[tuple[int, str]]]:
    """A real game played at random up to the first pre-launch action; returns the
    state and (player, prompt) of every decision on the way."""
    s = load_game(GAME, variants=list(variants)).new_initial_state(n, seed=seed)
    rng, seen = random.Random(seed), []
    while phase(s) != "pre_launch":
        seen.append((s.current_player(), s.prompt()))
        act(s, rng.choice(legal(s)))
    return s, seen


@pytest.mark.parametrize("n", [2, 3, 4])
def test_setup_full_game(n):
    for seed in range(6):
        s, seen = run_setup(n, seed)
        start = counter(s, "start_player")
        assert counter(s, "active_player") == start
        assert "start-player-card" in kinds(s, "kit", start) and "active-player-card" in kinds(s, "kit", start)
        lanes = [counter(s, "lane", p) for p in range(n)]
        assert len(set(lanes)) == n and all(0 <= lane < 4 for lane in lanes)   # different launch pads
        assert all(len(cards(s, "hq", p)) == 1 for p in range(n))
        assert len(cards(s, "hq_box")) == 10 - n                              # the others back to the box
        extra = sum(1 for p in range(n) if hq_card(s, p) == "hq-extra-start")
        starting = [c for p in range(n) for z in ("crew", "rocket") for c in kinds(s, z, p) if c.startswith("start-")]
        assert len(starting) == n + extra
        row = kinds(s, "insight_row")
        assert row[0] == "insight-card" and len(row) == 3                    # Insight card + 2 Starting cards
        assert len(cards(s, "offer")) == n + 1                                # players in pre-launch + 1
        # HQ choices come from the Start Player clockwise, the draft counter-clockwise
        # from the player to the right of the Start Player.
        hq_order = [p for p, prompt in seen if "Headquarters" in prompt and "keep" in prompt]
        assert hq_order == [(start + i) % n for i in range(n)]
        draft = [p for p, prompt in seen if "pick a Starting card" in prompt]
        assert draft[:n] == [(start - 1 - i) % n for i in range(n)]


def test_hq_choices_are_secret_until_everyone_has_chosen():
    s = load_game(GAME).new_initial_state(3, seed=4)
    rng = random.Random(0)
    while "keep one Headquarters" not in s.prompt():
        act(s, rng.choice(legal(s)))
    for _ in range(2):            # two of three players have chosen: nothing revealed yet
        act(s, legal(s)[0])
        assert all(cards(s, "hq", p) == [] for p in range(3))


def test_first_game_variant_has_no_hq_no_starting_cards_no_trajectory_card():
    s, seen = run_setup(3, 2, ("first-game",))
    assert kinds(s, "insight_row") == ["insight-card"]
    assert all(cards(s, "hq", p) == [] for p in range(3))
    assert all(not p.startswith("keep one") for _, p in seen)
    play_pre_launch_rounds(s, 13)
    route = kinds(s, "route")
    assert len(route) == 12 and "trajectory-card" not in route


# ---- pre-launch ----------------------------------------------------------------------------------


def play_pre_launch_rounds(s: Any, rounds: int) -> list[tuple[int, int, int]]:
    """Plays `rounds` pre-launch rounds where everyone recruits the first revealed card
    (never launching); returns (round, active player, cards revealed) per round."""
    rng = random.Random(1)
    seen = []
    while len(seen) < rounds or phase(s) != "pre_launch":
        if phase(s) == "pre_launch":
            if not seen or seen[-1][0] != s.round_no:
                seen.append((s.round_no, counter(s, "active_player"), len(cards(s, "offer"))))
                if len(seen) > rounds:
                    break
            act(s, "recruit " + cards(s, "offer")[0])
        else:
            act(s, rng.choice(legal(s)))
    return seen[:rounds]


def test_pre_launch_rounds_build_the_trajectories_then_discard():
    s, _ = run_setup(3, 1)
    start = counter(s, "start_player")
    seen = play_pre_launch_rounds(s, 14)
    assert all(revealed == 4 for _, _, revealed in seen)                     # 3 players + 1
    assert [active for _, active, _ in seen] == [(start + i) % 3 for i in range(14)]   # passes clockwise
    assert counter(s, "start_player") == start                                # never moves
    route = kinds(s, "route")
    assert len(route) == 13 and route[6] == "trajectory-card"                 # 6, Trajectory card, 6
    assert counter(s, "placed") == 12
    assert len(cards(s, "space_discard")) == 1                                # round 13 leftover: discarded


def test_each_pre_launch_pick_is_placed_as_crew_or_module():
    s, _ = run_setup(2, 3, ("first-game",))
    p = s.current_player()
    first, second = cards(s, "offer")[:2]
    act(s, "attach " + first)
    assert cards(s, "rocket", p)[-1] == first
    q = s.current_player()
    act(s, "recruit " + second)
    assert second in cards(s, "crew", q)


def test_too_few_space_cards_makes_everyone_launch(tmp_path):
    setup = put("t-fuel", "crew(0)", 2) + put("t-fuel", "crew(1)", 2) + "move space_deck to box\n"
    s = scenario(tmp_path, setup)
    assert counter(s, "launched", 0) == counter(s, "launched", 1) == 1
    assert phase(s) == "play"


def test_empty_space_deck_reshuffles_the_discards(tmp_path):
    setup = "move space_deck to space_discard\n"
    s = scenario(tmp_path, setup)
    assert len(cards(s, "offer")) == 3 and len(cards(s, "space_deck")) == 97


# ---- launching -------------------------------------------------------------------------------


def test_launch_needs_twelve_cards_and_twice_as_much_crew_as_modules(tmp_path):
    s = scenario(tmp_path, put("t-fuel", "crew(0)", 3) + attach("t-storage", 0) + attach("t-storage", 0))
    assert "launch" not in legal(s)                                          # 3 < 2 x 2
    s = scenario(tmp_path, put("t-fuel", "crew(0)", 4) + attach("t-storage", 0) + attach("t-storage", 0))
    assert "launch" in legal(s)
    s = scenario(tmp_path, put("t-fuel", "crew(0)", 4) + "set placed to 11\n")
    assert "launch" not in legal(s)                                          # trajectories unfinished


def test_early_launch_headquarters(tmp_path):
    base = put("t-fuel", "crew(0)", 5) + "".join(attach("t-storage", 0) for _ in range(3))
    assert "launch" not in legal(scenario(tmp_path, base))                    # 5 < 6
    s = scenario(tmp_path, base + 'move cards_named("hq-early-launch", hq_box) to hq(0)\n')
    assert "launch" in legal(s)                                               # 5 >= 3 + 2


def test_launch_draws_as_the_rocket_says_without_an_asteroid(tmp_path):
    s = scenario(tmp_path, put("t-fuel", "crew(0)", 6) + attach("t-draw-mod", 0))
    act(s, "launch")
    assert counter(s, "launched", 0) == 1
    assert len(cards(s, "hand", 0)) == 3 and len(cards(s, "draw_pile", 0)) == 3
    assert cards(s, "discard", 0) == [] and cards(s, "crew", 0) == []
    # the launching player plays and moves in the same round (phase 2.1 comes next)
    act(s, "recruit " + cards(s, "offer")[0])
    assert phase(s) == "play" and s.current_player() == 0


# ---- post-launch -----------------------------------------------------------------------------


def both_launched(extra: str = "") -> str:
    return extra + launched(0) + launched(1) + put("t-fuel", "draw_pile(0)", 6) + put("t-fuel", "draw_pile(1)", 6)


def to_fly(s: Any, p: int) -> None:
    """Ends the card play of everyone and the turns of players before p."""
    while not (phase(s) == "fly" and s.current_player() == p):
        if phase(s) == "play":
            act(s, "done_playing")
        else:
            finish_turn(s)


def test_wild_basic_is_not_advanced_but_boost_is_anything(tmp_path):
    setup = both_launched("set lane(0) to 3\n" + put("t-wild", "hand(0)", 2) + boost("hand(0)"))
    s = scenario(tmp_path, setup)
    for card in cards(s, "hand", 0):
        act(s, "play " + card)
    to_fly(s, 0)
    assert value(s, "next_space", 0) == "velocity"
    act(s, "advance t-wild#")
    assert counter(s, "pos", 0) == 0 and value(s, "next_space", 0) == "engineering"
    assert [t for t in legal(s) if t.startswith("advance ")] == [t for t in legal(s) if t.startswith("advance boost")]
    assert len([t for t in legal(s) if t.startswith("advance ")]) == 1
    act(s, "advance boost#")
    assert counter(s, "pos", 0) == 1
    assert kinds(s, "discard", 0) == ["asteroid"]                              # the green hazard


def test_every_resource_is_spent_once_per_turn(tmp_path):
    setup = both_launched(put("t-fuel", "hand(0)", 1) + attach("t-fuel", 0))
    s = scenario(tmp_path, setup)
    act(s, "play t-fuel#")
    to_fly(s, 0)
    act(s, "advance t-fuel#")
    act(s, "advance t-fuel#")
    assert counter(s, "pos", 0) == 1
    assert not [t for t in legal(s) if t.startswith("advance ")]


def test_red_hazard_jettisons_a_module_at_once(tmp_path):
    setup = both_launched("set lane(0) to 1\n" + attach("t-hull-mod", 0) + attach("t-draw-mod", 0) + boost("hand(0)"))
    s = scenario(tmp_path, setup)
    act(s, "play boost#")
    to_fly(s, 0)
    act(s, "advance t-hull-mod#")
    act(s, "advance boost#")                                                   # onto the red hazard
    assert phase(s) == "choice" and "red hazard" in s.prompt()                 # dealt with immediately
    assert sorted(legal(s)) == sorted(cards(s, "rocket", 0))                   # even a used module
    act(s, "t-draw-mod#")
    assert kinds(s, "rocket", 0) == ["t-hull-mod"] and value(s, "draws", 0) == 2


def test_hazard_protection_ignores_hazards(tmp_path):
    setup = both_launched("set lane(0) to 1\n" + attach("t-hull-mod", 0) + attach("t-red-shield", 0) + boost("hand(0)"))
    s = scenario(tmp_path, setup)
    act(s, "play boost#")
    to_fly(s, 0)
    act(s, "advance t-hull-mod#")
    act(s, "advance boost#")
    assert phase(s) == "fly" and len(cards(s, "rocket", 0)) == 2


def test_yellow_hazard_jettisons_a_crew_card_never_a_boost_or_asteroid(tmp_path):
    setup = both_launched("set lane(0) to 2\n" + boost("hand(0)", 2) + put("t-wild", "hand(0)")
                          + 'create 1 "asteroid" in discard(0)\n' + put("t-draw2", "discard(0)"))
    s = scenario(tmp_path, setup)
    act(s, "play boost#")
    to_fly(s, 0)
    act(s, "advance boost#")
    assert phase(s) == "choice" and "yellow" in s.prompt()
    assert sorted(t.split("#")[0] for t in legal(s)) == ["t-draw2", "t-wild"]


def test_yellow_hazard_falls_back_on_the_play_area(tmp_path):
    setup = both_launched("set lane(0) to 2\n" + put("t-wild", "hand(0)") + boost("hand(0)", 2))
    s = scenario(tmp_path, setup)
    act(s, "play t-wild#")
    to_fly(s, 0)
    act(s, "advance t-wild#")                                                  # wild pays navigation
    # only Boosts in hand: the played crew card is jettisoned (a single option is taken at once)
    assert cards(s, "play_area", 0) == [] and kinds(s, "hand", 0) == ["boost", "boost"]


def test_free_advance_is_exactly_three_spaces(tmp_path):
    s = scenario(tmp_path, both_launched(attach("t-free", 0)))
    to_fly(s, 0)
    act(s, "free_advance t-free#")
    assert counter(s, "pos", 0) == 2 and cards(s, "rocket", 0) == []
    s = scenario(tmp_path, both_launched(attach("t-free", 0) + "set pos(0) to 22\n"))   # Mars is space 24
    to_fly(s, 0)
    assert not [t for t in legal(s) if t.startswith("free_advance")]


def test_exchange_insight_and_boosts_back_to_the_supply(tmp_path):
    setup = both_launched(put("t-fuel", "hand(0)", 2) + boost("hand(0)", 2) + "set xp(0) to 5\n")
    s = scenario(tmp_path, setup)
    act(s, "play boost#")
    to_fly(s, 0)
    act(s, "done_flying")
    assert not [t for t in legal(s) if "boost" in t]                           # Boosts are not exchanged
    act(s, "exchange t-fuel#")
    assert counter(s, "xp", 0) == 6
    act(s, "done_exchanging")
    act(s, "insight insight-card#")
    act(s, "insight insight-card#")                                            # the same Insight twice
    assert counter(s, "xp", 0) == 0 and kinds(s, "discard", 0).count("boost") == 2
    supply = len(cards(s, "boost_supply"))
    act(s, "done_insights")
    assert len(cards(s, "boost_supply")) == supply + 1                         # the played Boost
    assert kinds(s, "discard", 0).count("boost") == 3                         # the unplayed one too
    assert len(cards(s, "hand", 0)) == 2


def test_storage_keeps_a_card_and_can_be_jettisoned(tmp_path):
    setup = both_launched(attach("t-storage", 0) + put("t-wild", "hand(0)") + put("t-draw2", "hand(0)"))
    s = scenario(tmp_path, setup)
    to_fly(s, 0)
    for done in ("done_flying", "done_exchanging", "done_insights"):
        act(s, done)
    assert "storage" in s.prompt()
    act(s, "t-wild#")                                                          # one storage: one card
    act(s, "done_discarding")
    assert kinds(s, "hand", 0).count("t-wild") == 1 and len(cards(s, "hand", 0)) == 3
    s = scenario(tmp_path, setup)
    act(s, "store_jettison_play t-storage#")
    act(s, "t-wild#")
    act(s, "done")
    assert cards(s, "rocket", 0) == [] and kinds(s, "hand", 0) == ["t-draw2"]


def test_reshuffle_adds_an_asteroid(tmp_path):
    setup = launched(0) + launched(1) + put("t-fuel", "discard(0)", 3) + put("t-fuel", "draw_pile(1)", 6)
    s = scenario(tmp_path, setup)
    to_fly(s, 0)
    finish_turn(s)
    mine = kinds(s, "hand", 0) + kinds(s, "draw_pile", 0)
    assert sorted(mine) == ["asteroid", "t-fuel", "t-fuel", "t-fuel"]


def test_copy_module_copies_above_or_below_never_a_copy(tmp_path):
    setup = both_launched(attach("t-draw-mod", 0) + attach("t-copy-mod", 0) + attach("t-hull-mod", 0))
    s = scenario(tmp_path, setup)
    assert "copy module" in s.prompt()
    assert sorted(t.split("#")[0] for t in legal(s)) == ["t-draw-mod", "t-hull-mod"]
    act(s, "t-draw-mod#")
    assert value(s, "draws", 0) == 4                                           # rocket + draw + copy
    setup = both_launched(attach("t-copy-mod", 0) + attach("t-copy-mod", 0))
    s = scenario(tmp_path, setup)
    assert phase(s) == "play"                                                  # nothing to copy


def test_copy_crew_needs_something_copyable(tmp_path):
    setup = both_launched(put("t-copy", "hand(0)") + boost("hand(0)") + put("t-draw2", "hand(0)"))
    s = scenario(tmp_path, setup)
    assert not [t for t in legal(s) if t.startswith("play t-copy")]
    act(s, "play boost#")
    assert not [t for t in legal(s) if t.startswith("play t-copy")]            # never a Boost
    act(s, "play t-draw2#")
    assert len(cards(s, "hand", 0)) == 3
    act(s, "play t-copy#")                                                     # copies the draw-two
    assert len(cards(s, "hand", 0)) == 4


# ---- turn order and the end ---------------------------------------------------------------------


def test_post_launch_turns_start_at_the_start_player_and_the_round_finishes(tmp_path):
    setup = "".join(launched(p) + put("t-fuel", f"draw_pile({p})", 4) for p in range(3))
    setup += "set pos(1) to 23\n" + boost("hand(1)")
    s = scenario(tmp_path, setup, players=3, start=1)
    order = []
    while phase(s) == "play":
        order.append(s.current_player())
        if s.current_player() == 1 and cards(s, "hand", 1) and cards(s, "hand", 1)[0].startswith("boost"):
            act(s, "play boost#")
        act(s, "done_playing")
    assert order == [1, 2, 0]
    assert s.current_player() == 1
    act(s, "advance boost#")
    assert value(s, "at_mars", 1)
    finish_turn(s)
    assert not s.is_terminal() and s.current_player() == 2
    finish_turn(s)
    assert not s.is_terminal() and s.current_player() == 0                   # right of the Start Player
    finish_turn(s)
    assert s.is_terminal() and s.winners == [1]


@pytest.mark.parametrize(("xp", "winners"), [((3, 1), [0]), ((1, 3), [1]), ((2, 2), [0, 1])])
def test_several_at_mars_most_experience_wins_else_shared(tmp_path, xp, winners):
    setup = (both_launched() + "set pos(0) to 24\nset pos(1) to 24\n"
             + f"set xp(0) to {xp[0]}\nset xp(1) to {xp[1]}\n")
    s = scenario(tmp_path, setup)
    while not s.is_terminal():
        if phase(s) == "play":
            act(s, "done_playing")
        else:
            finish_turn(s)
    assert sorted(s.winners) == winners


# ---- the rulebook's Example of Play ------------------------------------------------------------


def test_example_of_play(tmp_path):
    # Seats clockwise: Winston (P1, Start Player), Anna (P2, Active Player), Daniel (P3), Loes (P4).
    winston, anna, daniel, loes = range(4)
    setup = (
        launched(winston) + launched(loes)
        + attach("t-storage", winston) + attach("t-draw-mod", winston) + attach("t-draw-mod", winston)
        + attach("t-fuel", winston)
        + put("t-fuel", "hand(0)", 5) + boost("hand(0)") + 'create 1 "asteroid" in hand(0)\n'
        + put("t-fuel", "draw_pile(0)", 8) + "set xp(0) to 2\n"
        + put("t-fuel", "draw_pile(3)", 4)
        + put("t-fuel", "crew(1)", 6) + attach("t-draw-mod", anna)
        + put("t-fuel", "crew(2)", 2)
        + "set active_player to 1\n"
    )
    s = scenario(tmp_path, setup, players=4, start=winston)
    assert len(cards(s, "offer")) == 3                             # two in pre-launch: three revealed
    assert s.current_player() == anna                              # the Active Player goes first
    act(s, "launch")
    assert len(cards(s, "hand", anna)) == 3                        # draws three, as her rocket says
    assert s.current_player() == daniel
    act(s, "attach " + cards(s, "offer")[0])
    assert len(cards(s, "space_discard")) == 2                     # the other two are discarded
    played = []
    while phase(s) == "play":                                      # phase 2.1, from the Start Player
        played.append(s.current_player())
        if s.current_player() == winston:
            for _ in range(3):
                act(s, "play t-fuel#")
            act(s, "play boost#")
        act(s, "done_playing")
    assert played == [winston, anna, loes]
    assert s.current_player() == winston
    for _ in range(5):                                             # advances five spaces
        act(s, "advance " + next(t.split(" ")[1] for t in legal(s) if t.startswith("advance ")))
    assert counter(s, "pos", winston) == 4
    act(s, "done_flying")
    assert sorted(kinds(s, "hand", winston)) == ["asteroid", "t-fuel", "t-fuel"]
    act(s, "exchange t-fuel#")
    assert counter(s, "xp", winston) == 3
    act(s, "done_exchanging")
    act(s, "insight insight-card#")
    assert counter(s, "xp", winston) == 0 and "boost" in kinds(s, "discard", winston)
    supply = len(cards(s, "boost_supply"))
    act(s, "done_insights")
    act(s, "t-fuel#")                                              # keeps his remaining card
    act(s, "done_discarding")                                      # keeps his storage module too
    assert len(cards(s, "boost_supply")) == supply + 1             # the played Boost goes back
    assert "asteroid" in kinds(s, "discard", winston)
    assert len(cards(s, "hand", winston)) == 5                    # kept one, drew four
    assert s.current_player() == anna
    finish_turn(s)
    assert s.current_player() == loes
    finish_turn(s)
    assert len(cards(s, "offer")) == 2                             # next round: Daniel + 1
    assert counter(s, "active_player") == daniel and s.current_player() == daniel


# ---- Headquarters ------------------------------------------------------------------------------


def hq(name: str, p: int = 0) -> str:
    return f'move cards_named("hq-{name}", hq_box) to hq({p})\n'


def end_phases(s: Any) -> None:
    for done in ("done_flying", "done_exchanging", "done_insights"):
        act(s, done)


def test_hq_twin_basics_pay_an_advanced_space(tmp_path):
    setup = both_launched(hq("twin-basics") + "set lane(0) to 3\nset pos(0) to 0\n" + put("t-fuel", "hand(0)", 2))
    s = scenario(tmp_path, setup)
    act(s, "play t-fuel#")
    act(s, "play t-fuel#")
    to_fly(s, 0)
    assert value(s, "next_space", 0) == "engineering"
    assert not [t for t in legal(s) if t.startswith("advance ")]
    act(s, "advance_twin fuel")
    assert counter(s, "pos", 0) == 1


def test_hq_double_module_uses_a_module_twice(tmp_path):
    setup = both_launched(hq("double-module") + "set lane(0) to 1\n" + attach("t-hull-mod", 0)
                          + attach("t-red-shield", 0))
    s = scenario(tmp_path, setup)
    act(s, "t-hull-mod#")                                                      # which module works twice
    to_fly(s, 0)
    act(s, "advance t-hull-mod#")
    act(s, "advance t-hull-mod#")
    assert counter(s, "pos", 0) == 1


def test_hq_discount_on_each_insight(tmp_path):
    s = scenario(tmp_path, both_launched(hq("discount") + "set xp(0) to 4\n"))
    to_fly(s, 0)
    act(s, "done_flying")
    act(s, "done_exchanging")
    act(s, "insight insight-card#")
    act(s, "insight insight-card#")
    assert counter(s, "xp", 0) == 0


def test_hq_recall_returns_a_played_card_to_the_draw_pile(tmp_path):
    s = scenario(tmp_path, both_launched(hq("recall") + put("t-wild", "hand(0)") + boost("hand(0)")))
    act(s, "play t-wild#")
    act(s, "play boost#")
    to_fly(s, 0)
    end_phases(s)
    assert [t.split("#")[0] for t in legal(s)] == ["t-wild", "done"]          # never the Boost
    act(s, "t-wild#")
    assert "t-wild" in kinds(s, "hand", 0)                                     # back on top, drawn again


def test_hq_boost_start_and_boosts_to_the_bottom(tmp_path):
    s, _ = run_setup(2, 0)
    for p in range(2):
        crew = kinds(s, "crew", p)
        assert (crew.count("boost") == 2) == (hq_card(s, p) == "hq-boost-start")
    s = scenario(tmp_path, both_launched(hq("boost-start") + "set xp(0) to 3\n"))
    to_fly(s, 0)
    act(s, "done_flying")
    act(s, "done_exchanging")
    act(s, "insight insight-card#")
    assert kinds(s, "draw_pile", 0)[0] == "boost"                              # the bottom


def test_hq_big_draw(tmp_path):
    s = scenario(tmp_path, both_launched(hq("big-draw") + "set lane(0) to 3\n" + boost("hand(0)", 2)))
    assert value(s, "draws", 0) == 4
    act(s, "play boost#")
    act(s, "play boost#")
    to_fly(s, 0)
    act(s, "advance boost#")
    act(s, "advance boost#")                                                   # the green hazard
    assert kinds(s, "discard", 0) == ["asteroid", "asteroid"] and counter(s, "xp", 0) == 1


def test_hq_free_placement(tmp_path):
    s = scenario(tmp_path, hq("free-placement") + put("t-wild", "crew(0)") + put("t-fuel", "crew(1)", 2))
    act(s, "rearrange t-wild#")
    assert kinds(s, "rocket", 0) == ["t-wild"]
    act(s, "rearrange t-wild#")
    assert kinds(s, "crew", 0) == ["t-wild"]


def test_hq_wider_choice(tmp_path):
    s = scenario(tmp_path, hq("wider-choice") + "set placed to 5\n", players=2)
    act(s, "widen")
    assert len(cards(s, "offer")) == 4 and "widen" not in legal(s)
    act(s, "recruit " + cards(s, "offer")[0])
    act(s, "recruit " + cards(s, "offer")[0])
    assert "leftover" in s.prompt() and s.current_player() == 1               # the last player decides
    chosen = legal(s)[1]
    act(s, chosen)
    assert cards(s, "route")[-2] == chosen and kinds(s, "route")[-1] == "trajectory-card"
    assert len(cards(s, "space_discard")) == 1


# ---- Starting cards and Insights ------------------------------------------------------------------


def test_starting_cards_have_crew_module_and_insight():
    gd = load_game(GAME).definition
    modded = {m.card for m in gd.modifiers if m.card is not None}
    starting = [c for c in gd.cards if c.type == "starting"]
    assert len(starting) == 8
    for c in starting:
        crew = {"crew", "copy"} & set(c.effects)                     # its Crew ability
        module = c.index in modded or {"each_turn", "free_advance", "storage_jettison"} & set(c.effects)  # its module
        assert crew and module and "insight" in c.effects and c.properties["cost"], c.id


def insight(name: str) -> str:
    return f'move cards_named("start-{name}", start_box) to insight_row\n'


def test_insight_change_trajectory(tmp_path):
    s = scenario(tmp_path, both_launched(insight("navigator") + "set xp(0) to 2\n"))
    to_fly(s, 0)
    act(s, "done_flying")
    act(s, "done_exchanging")
    act(s, "insight start-navigator#")
    assert counter(s, "lane", 0) == 1 and value(s, "next_space", 0) == "hull"


def test_insight_draw_and_keep(tmp_path):
    s = scenario(tmp_path, both_launched(insight("radio") + insight("recovery") + "set xp(0) to 2\n"
                                         + put("t-wild", "hand(0)")))
    to_fly(s, 0)
    act(s, "done_flying")
    act(s, "done_exchanging")
    act(s, "insight start-radio#")
    act(s, "insight start-recovery#")
    act(s, "done_insights")
    act(s, "t-wild#")                                                          # kept thanks to the Insight
    assert len(cards(s, "hand", 0)) == 4                                       # 1 kept + 2 + 1 drawn


def test_insight_hazard_protection_next_turn(tmp_path):
    s = scenario(tmp_path, insight("safety") + "set xp(0) to 2\nset lane(0) to 1\n" + attach("t-hull-mod", 0)
                 + boost("draw_pile(0)", 2) + launched(0) + launched(1) + put("t-fuel", "draw_pile(1)", 6))
    to_fly(s, 0)
    act(s, "done_flying")
    act(s, "done_exchanging")
    act(s, "insight start-safety#")
    finish_turn(s)
    finish_turn(s)                                                             # P2's turn: next round
    act(s, "play boost#")
    act(s, "play boost#")
    to_fly(s, 0)
    act(s, "advance t-hull-mod#")
    act(s, "advance boost#")                                                   # red hazard: protected
    assert phase(s) == "fly" and kinds(s, "rocket", 0) == ["t-hull-mod"]


def test_draw_three_keep_one(tmp_path):
    s = scenario(tmp_path, both_launched(put("t-draw3", "hand(0)")))
    act(s, "play t-draw3#")
    assert phase(s) == "choice" and len(legal(s)) == 3
    act(s, legal(s)[0])
    assert len(cards(s, "hand", 0)) == 1 and len(cards(s, "discard", 0)) == 2


# ---- the command line: a scripted session a person could follow ----------------------------------


def test_scripted_play_session_shows_the_table(capsys, monkeypatch, tmp_path):
    import io
    import sys

    from interpreter.cli import main

    log = tmp_path / "rtm.json"
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 400 + "quit\n"))
    code = main(["play", "race-to-mars", "--seats", "human,pilot", "--seed", "7", "--log", str(log)])
    out, err = capsys.readouterr()
    assert code == 0 and "Traceback" not in out + err
    assert "Trajectories, Earth to Mars" in out and "lane 0:" in out and "| Mars" in out
    assert "next spaces:" in out and "rocket (oldest first):" in out and "piles: draw" in out
    assert "Revealed Space cards" in out and "insights: Insight card (3 XP)" in out


@pytest.mark.parametrize("variants", [(), ("first-game",)])
def test_pilot_bots_finish_their_races(variants):
    game = load_game(GAME, variants=list(variants))
    for n in (2, 3, 4):
        for seed in range(3):
            s = game.new_initial_state(n, seed=seed, seats=["pilot"] * n)
            assert s.is_terminal() and s.winners
            assert any(value(s, "at_mars", p) for p in s.winners)
