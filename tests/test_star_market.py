"""Star Market (examples/star-market): a deck-builder written as data, and its mod.

Scenario tests reach their situation by playing chosen actions from a seed: a scripted
"shopper" policy for seat 0 cycles the market until the card under test can be bought,
then holds it until the situation is set up. Seeds are searched in a fixed order, so
every test is deterministic.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from interpreter import TERMINAL, load_game
from interpreter.runtime import counters

ROOT = Path(__file__).resolve().parent.parent
GAME = str(ROOT / "examples" / "star-market")
MOD = str(ROOT / "examples" / "star-market-overcharge")
PILES = ("draw_pile", "hand", "discard", "play_area")


@pytest.fixture(scope="module")
def game() -> Any:
    return load_game(GAME)


@pytest.fixture(scope="module")
def modded() -> Any:
    return load_game(GAME, overlays=[MOD])


# ---- helpers -------------------------------------------------------------------------------


def cards(s: Any, zone: str, p: int | None = None) -> list[str]:
    """The canonical texts ("id#n") of the cards in a zone, bottom to top."""
    zdef = next(z for z in s.gd.zones if z.name == zone)
    slot = s.layout.zbase[zdef.index] + (p if zdef.scope == "player" else 0)
    return [s.card_text(c) for c in s.zones[slot]]


def owned(s: Any, p: int) -> list[str]:
    return [c for zone in PILES for c in cards(s, zone, p)]


def kind(text: str) -> str:
    return text.split("#")[0]


def counter(s: Any, name: str, p: int) -> int:
    return int(s.observation(-1)["counters"][name][p])


def value(s: Any, name: str, p: int) -> Any:
    vdef = next(v for v in s.gd.values if v.name == name)
    return counters.value_of(s, vdef.index, p)


def legal(s: Any) -> list[str]:
    return [str(a) for a in s.legal_actions()]


def waiting_for(s: Any) -> str | None:
    """"actions" or "choice": what the state waits for."""
    return None if s.pending is None else s.pending.kind


def random_playout(s: Any, seed: int) -> None:
    rng = random.Random(seed)
    while not s.is_terminal():
        s.apply_action(rng.choice(s.legal_actions()))


def shopper(target: str) -> Callable[[Any], str]:
    """Seat 0 plays every ship but `target`, buys `target` when it can, else buys the
    cheapest market card to cycle the market; answers choices with their first option.
    The other seats end their turns at once."""

    def policy(s: Any) -> str:
        options = legal(s)
        if waiting_for(s) == "choice" or s.current_player() != 0:
            return options[0] if waiting_for(s) == "choice" else "end_turn"
        plays = [a for a in options if a.startswith("play ") and kind(a[5:]) != target]
        if plays:
            return plays[0]
        buys = [a[4:] for a in options if a.startswith("buy ")]
        wanted = [c for c in buys if kind(c) == target]
        if wanted:
            return "buy " + wanted[0]
        if any(kind(c) == target for c in cards(s, "market")):
            return "end_turn"  # save up for it
        market = [c for c in buys if c in cards(s, "market")]
        if market:
            cost = {c: s.gd.cards[s.gd.card_index[kind(c)]].properties["cost"] for c in market}
            return "buy " + min(market, key=lambda c: cost[c])
        return "end_turn"

    return policy


def reach(g: Any, target: str, ready: Callable[[Any], bool], players: int = 2,
          steps: int = 600, seeds: range = range(60)) -> Any:
    """The first state (over seeds in order) where seat 0 can play `target` and
    `ready(state)` holds."""
    policy = shopper(target)
    for seed in seeds:
        s = g.new_initial_state(num_players=players, seed=seed, seats=["random"] * players)
        for _ in range(steps):
            if s.is_terminal():
                break
            if (s.current_player() == 0 and waiting_for(s) == "actions"
                    and any(kind(a[5:]) == target for a in legal(s) if a.startswith("play ")) and ready(s)):
                return s
            s.apply_action(policy(s))
    raise AssertionError(f"no seed reaches a playable {target}")


def play_target(s: Any, target: str) -> None:
    s.apply_action(next(a for a in legal(s) if a.startswith("play ") and kind(a[5:]) == target))


# ---- loading and whole games ---------------------------------------------------------------


def test_loads(game: Any) -> None:
    gd = game.definition
    assert gd.id == "star-market"
    assert (gd.min_players, gd.max_players) == (2, 4)
    assert "market-bot" in gd.bots
    for card in gd.cards:
        assert {"cost", "vp"} <= set(card.properties) and card.text, card.id
    assert sum(c.count for c in gd.cards if c.zone is not None and gd.zones[c.zone].name == "market_deck") == 40


def test_initial_state(game: Any) -> None:
    s = game.new_initial_state(num_players=3, seed=5, seats=["random"] * 3)
    assert len(cards(s, "market")) == 5
    assert len(cards(s, "market_deck")) == 35
    for p in range(3):
        assert len(cards(s, "hand", p)) == 5
        assert len(cards(s, "draw_pile", p)) == 5
        assert sorted(kind(c) for c in owned(s, p)) == ["credit-chip"] * 7 + ["outpost-claim"] * 3
        assert value(s, "points", p) == 3
    assert s.current_player() == 0
    assert "end_turn" in legal(s)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_seats_always_end(game: Any, players: int) -> None:
    for seed in range(12):
        s = game.new_initial_state(num_players=players, seed=seed, seats=["random"] * players)
        random_playout(s, seed)
        assert s.is_terminal() and s.current_player() == TERMINAL
        assert s.round_no <= 40
        assert s.winners and set(s.winners) <= set(range(players))
        assert len(s.returns()) == players


@pytest.mark.parametrize("players", [2, 3, 4])
def test_bot_and_mixed_seats_end(game: Any, players: int) -> None:
    for seed in range(25):
        seats = ["market-bot"] * players
        s = game.new_initial_state(num_players=players, seed=seed, seats=seats)
        assert s.is_terminal() and s.history == []  # bots never surface a decision
        assert s.end_reason in ("fame-goal", "market-exhausted", "round-cap")
        mixed = ["random"] + ["market-bot"] * (players - 1)
        s = game.new_initial_state(num_players=players, seed=seed, seats=mixed)
        rng = random.Random(seed)
        while not s.is_terminal():
            assert s.current_player() == 0  # only the random seat is ever asked
            s.apply_action(rng.choice(s.legal_actions()))
        assert s.winners


def test_bot_games_finish_in_reasonable_rounds(game: Any) -> None:
    rounds = [game.new_initial_state(num_players=2, seed=seed, seats=["market-bot"] * 2).round_no
              for seed in range(60)]
    assert 10 <= sum(rounds) / len(rounds) <= 30
    assert max(rounds) < 40


def test_same_seed_same_game(game: Any) -> None:
    def run(seed: int) -> Any:
        s = game.new_initial_state(num_players=3, seed=seed, seats=["random", "market-bot", "random"])
        random_playout(s, 99)
        return s
    a, b = run(7), run(7)
    assert a.history == b.history and a.log == b.log
    assert a.winners == b.winners and a.returns() == b.returns()
    assert a.to_json() == b.to_json()
    assert run(8).history != a.history


def test_scoring_and_tie_breaks(game: Any) -> None:
    """The winners are exactly the players with the best (VP, -debris, deck cost)."""
    def key(s: Any, p: int) -> tuple[int, int, int]:
        mine = owned(s, p)
        cost = sum(s.gd.cards[s.gd.card_index[kind(c)]].properties["cost"] for c in mine)
        return value(s, "points", p), -sum(kind(c) == "space-debris" for c in mine), cost
    for seed in range(40):
        s = game.new_initial_state(num_players=3, seed=seed, seats=["market-bot"] * 3)
        keys = [key(s, p) for p in range(3)]
        assert s.winners == [p for p in range(3) if keys[p] == max(keys)]
        if s.end_reason == "fame-goal":
            assert max(k[0] for k in keys) >= 16


# ---- scenarios ---------------------------------------------------------------------------------


def test_salvage_drone_choice_surfaces_for_its_player(game: Any) -> None:
    s = reach(game, "salvage-drone", lambda s: len({kind(c) for c in cards(s, "discard", 0)}) >= 2)
    discard = cards(s, "discard", 0)
    play_target(s, "salvage-drone")
    assert s.current_player() == 0
    assert waiting_for(s) == "choice"
    assert legal(s) == discard  # every card of the discard pile, in order
    assert "Salvage Drone" in s.observation(0)["decision"]["prompt"]
    assert "decision" not in s.observation(1)
    hand_before = cards(s, "hand", 0)
    s.apply_action(discard[-1])
    assert cards(s, "hand", 0) == hand_before + [discard[-1]]
    assert discard[-1] not in cards(s, "discard", 0)
    assert waiting_for(s) == "actions" and s.current_player() == 0


def test_navigator_choose_one(game: Any) -> None:
    s = reach(game, "navigator", lambda s: True)
    before = counter(s, "credits", 0)
    play_target(s, "navigator")
    assert s.current_player() == 0 and waiting_for(s) == "choice"
    assert legal(s) == ["credits", "draw"]
    s.apply_action("credits")
    assert counter(s, "credits", 0) == before + 3


def test_recycler_scraps_up_to_two(game: Any) -> None:
    s = reach(game, "recycler", lambda s: sum(kind(c) == "credit-chip" for c in
                                               cards(s, "discard", 0) + cards(s, "hand", 0)) >= 3)
    total = len(owned(s, 0))
    play_target(s, "recycler")
    assert s.current_player() == 0 and waiting_for(s) == "choice"
    options = legal(s)
    assert options[-1] == "done"
    assert {kind(o) for o in options[:-1]} <= {"credit-chip", "space-debris"}
    first = options[0]
    s.apply_action(first)
    assert waiting_for(s) == "choice" and first not in legal(s) and "done" in legal(s)
    second = legal(s)[0]
    s.apply_action(second)  # the second pick ends the choice: up to 2
    assert waiting_for(s) == "actions"
    assert first not in owned(s, 0) and second not in owned(s, 0)
    assert len(owned(s, 0)) == total - 2


def test_pirate_raider_chooses_a_victim(game: Any) -> None:
    s = reach(game, "pirate-raider", lambda s: True, players=3)
    debris = [sum(kind(c) == "space-debris" for c in owned(s, p)) for p in range(3)]
    play_target(s, "pirate-raider")
    assert s.current_player() == 0 and legal(s) == ["P2", "P3"]
    s.apply_action("P3")
    assert sum(kind(c) == "space-debris" for c in cards(s, "discard", 2)) >= 1
    after = [sum(kind(c) == "space-debris" for c in owned(s, p)) for p in range(3)]
    assert after == [debris[0], debris[1], debris[2] + 1]


def test_refill_trigger_adds_debris_before_the_shuffle(game: Any) -> None:
    s = reach(game, "salvage-drone",
              lambda s: 0 < len(cards(s, "draw_pile", 0)) < 5 and len(cards(s, "hand", 0)) > 0)
    draw_left = len(cards(s, "draw_pile", 0))
    total = len(owned(s, 0))
    debris_before = {c for c in owned(s, 0) if kind(c) == "space-debris"}
    log_len = len(s.log)
    s.apply_action("end_turn")  # cleanup: draw 5 with fewer in the draw pile -> refill
    assert s.current_player() == 1
    new = [c for c in owned(s, 0) if kind(c) == "space-debris" and c not in debris_before]
    assert len(new) == 1 and len(owned(s, 0)) == total + 1
    # Created in the discard pile *before* the discard became the new draw pile:
    assert cards(s, "discard", 0) == []
    assert new[0] in cards(s, "draw_pile", 0) + cards(s, "hand", 0)
    assert len(cards(s, "hand", 0)) == 5
    assert len(cards(s, "draw_pile", 0)) == total + 1 - 5
    assert draw_left < 5
    assert "Space Debris drifts into the discard pile of P1" in s.log[log_len:]


def test_no_refill_no_debris(game: Any) -> None:
    s = game.new_initial_state(num_players=2, seed=3, seats=["random", "random"])
    s.apply_action("end_turn")  # 5 cards left in the draw pile: no refill
    assert not any(kind(c) == "space-debris" for c in owned(s, 0))


def test_broker_discount_lasts_this_turn_only(game: Any) -> None:
    s = reach(game, "trade-broker", lambda s: True)
    assert value(s, "discount", 0) == 0
    play_target(s, "trade-broker")
    assert value(s, "discount", 0) == 2
    assert value(s, "discount", 1) == 0
    credits = counter(s, "credits", 0)
    hauler = next(a for a in legal(s) if a.startswith("buy cargo-hauler"))
    s.apply_action(hauler)  # cost 3 - 2
    assert counter(s, "credits", 0) == credits - 1
    s.apply_action("end_turn")
    assert value(s, "discount", 0) == 0
    s.apply_action("end_turn")  # P2's turn
    assert s.current_player() == 0 and value(s, "discount", 0) == 0
    while any(a.startswith("play credit-chip") for a in legal(s)):
        s.apply_action(next(a for a in legal(s) if a.startswith("play credit-chip")))
    credits = counter(s, "credits", 0)
    buys = [a for a in legal(s) if a.startswith("buy cargo-hauler")]
    if credits >= 3:
        s.apply_action(buys[0])
        assert counter(s, "credits", 0) == credits - 3
    else:
        assert buys == []


def test_trade_station_trigger_only_while_in_play(game: Any) -> None:
    def ready(s: Any) -> bool:  # the other ships played: enough credits for a hauler
        others = [a for a in legal(s) if a.startswith("play ") and kind(a[5:]) != "trade-station"]
        return not others and counter(s, "credits", 0) >= 1
    s = reach(game, "trade-station", ready, steps=1500, seeds=range(120))
    fame = counter(s, "fame", 0)
    play_target(s, "trade-station")  # +2 credits
    hauler = next(a for a in legal(s) if a.startswith("buy cargo-hauler"))
    s.apply_action(hauler)
    assert counter(s, "fame", 0) == fame + 1
    s.apply_action("end_turn")  # the station leaves play
    assert counter(s, "fame", 0) == fame + 1


def test_bot_answers_its_own_choices(game: Any) -> None:
    """Bot seats resolve choices inside effects with the state's RNG: same seed, same game."""
    for seed in range(30):
        a = game.new_initial_state(num_players=2, seed=seed, seats=["market-bot"] * 2)
        b = game.new_initial_state(num_players=2, seed=seed, seats=["market-bot"] * 2)
        assert a.log == b.log and a.winners == b.winners
        assert a.history == [] and a.is_terminal()
    bought = " ".join(a.log)
    assert "buys" in bought


# ---- save and load ----------------------------------------------------------------------------


def test_save_load_in_the_middle_of_a_choice(game: Any) -> None:
    s = reach(game, "salvage-drone", lambda s: len({kind(c) for c in cards(s, "discard", 0)}) >= 2)
    play_target(s, "salvage-drone")
    assert waiting_for(s) == "choice"
    text = s.to_json()
    t = game.state_from_json(text)
    assert t.to_json() == text
    assert legal(t) == legal(s) and t.current_player() == s.current_player()
    for state in (s, t):
        random_playout(state, 2024)
    assert t.history == s.history
    assert t.winners == s.winners and t.returns() == s.returns()
    assert t.log == s.log


def test_save_load_in_the_middle_of_choose_up_to(game: Any) -> None:
    s = reach(game, "recycler", lambda s: sum(kind(c) == "credit-chip" for c in
                                               cards(s, "discard", 0) + cards(s, "hand", 0)) >= 3)
    play_target(s, "recycler")
    s.apply_action(legal(s)[0])  # one picked, one to go
    t = game.state_from_json(s.to_json())
    assert legal(t) == legal(s)
    for state in (s, t):
        random_playout(state, 7)
    assert t.history == s.history and t.winners == s.winners


# ---- the mod -----------------------------------------------------------------------------------


def test_mod_changes_only_the_reactor(game: Any, modded: Any) -> None:
    assert modded.definition.overlays == ("star-market-overcharge",)
    base_cards = {c.id: c for c in game.definition.cards}
    for card in modded.definition.cards:
        if card.id != "fusion-reactor":
            assert card.properties == base_cards[card.id].properties


def _reactor_gap(g: Any, games: int = 300) -> tuple[float, float]:
    """Over seeded 2-player bot games: mean VP of reactor owners minus the others',
    and the owners' win rate."""
    owners, others, wins = [], [], 0
    for seed in range(games):
        s = g.new_initial_state(num_players=2, seed=seed, seats=["market-bot"] * 2)
        for p in range(2):
            vp = value(s, "points", p)
            if any(kind(c) == "fusion-reactor" for c in owned(s, p)):
                owners.append(vp)
                wins += p in s.winners
            else:
                others.append(vp)
    return sum(owners) / len(owners) - sum(others) / len(others), wins / len(owners)


def test_mod_shifts_the_outcome(game: Any, modded: Any) -> None:
    base_gap, base_wins = _reactor_gap(game)
    mod_gap, mod_wins = _reactor_gap(modded)
    # Measured: gap +0.5 VP -> +3.3 VP, owners' win rate 0.49 -> 0.56.
    assert mod_gap - base_gap > 1.5
    assert mod_wins > base_wins
