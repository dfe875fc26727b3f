"""Numbered decks (`copies:`, docs/format.md "Numbered decks"): one card written once
becomes a card per copy, each with its own properties, read by the effect language,
and its own name wherever people read cards (log, zones, options, describe); distinct
copies never share an integer action id; overlays patch and add cards with copies;
saves round-trip; a bad template, an empty range and two copies of one name are
diagnostics at file:line:col."""

from __future__ import annotations

import pathlib
import random

import pytest
from conformance import check_conformance
from conftest import find_column, run, toy, write_toy

from interpreter import RuleFileError, load_game
from interpreter.play.narrate import move_words, name_cards
from interpreter.runtime.present import option_text, render_observation
from interpreter.web.view import observation_view

HIGH_CARD = pathlib.Path(__file__).parent / "fixtures" / "copies" / "high-card.yaml"
PIPS = [f"{rank} of {suit}" for rank in range(1, 6) for suit in ("spades", "hearts")]


def test_each_copy_is_a_card_with_its_own_id_name_properties_and_text() -> None:
    gd = load_game(str(HIGH_CARD)).definition
    assert [c.name for c in gd.cards] == [*PIPS, "Red Joker", "Black Joker"]
    pip = next(c for c in gd.cards if c.id == "pip-3-of-hearts")
    assert (pip.properties, pip.text, pip.type, pip.count) == \
        ({"joker": False, "rank": 3, "suit": "hearts"}, "Worth 3.", "playing", 1)
    black = next(c for c in gd.cards if c.id == "joker-black-joker")
    assert black.properties == {"rank": 99, "suit": "spades", "joker": True} and black.text == "Beats all."


def test_names_show_in_options_zones_and_the_log_and_properties_decide() -> None:
    game = load_game(str(HIGH_CARD))
    state = game.new_initial_state(2, seed=3)
    # the deal is the seed's: P1 holds the 5 of hearts and the Black Joker
    assert sorted(option_text(state, a) for a in state.legal_actions()) == \
        ["play 5 of hearts (5)", "play Black Joker (99)"]
    view = "\n".join(render_observation(state.observation(0), game.definition, {0}))
    assert "Black Joker, 5 of hearts" in view and " x" not in view
    state.apply_action("play pip-5-of-hearts#9")
    state.apply_action(next(a for a in state.legal_actions() if "red-joker" in a.text))
    assert list(state.log)[:3] == ["P1 plays 5 of hearts", "P2 plays Red Joker",
                                   "P2 takes the trick with Red Joker"]  # strength() read rank and suit


def test_narration_and_the_web_table_name_each_copy() -> None:
    game = load_game(str(HIGH_CARD))
    state = game.new_initial_state(2, seed=3)
    assert move_words(state, "play pip-5-of-hearts#9") == "play 5 of hearts (5)"
    assert name_cards("P1 plays pip-5-of-hearts#9, P2 joker-red-joker#10", game.definition) == \
        "P1 plays 5 of hearts, P2 Red Joker"
    hand = observation_view(state.observation(0), game.definition)
    tiles = [tile for zone in hand["zones"] if zone["name"] == "hand" for entry in zone["entries"]
             for tile in entry.get("cards", [])]
    assert sorted((t["name"], t["text"], t["props"]["rank"]) for t in tiles) == \
        [("5 of hearts", "Worth 5.", "5"), ("Black Joker", "Beats all.", "99")]


def test_distinct_copies_never_share_an_integer_action_id() -> None:
    game = load_game(str(HIGH_CARD))
    seen: dict[int, str] = {}
    rng = random.Random(0)
    for seed in range(6):
        state = game.new_initial_state(3, seed=seed)
        while not state.is_terminal():
            player = state.current_player()
            ids = []
            for action in state.legal_actions():
                card, aid = action.text.split()[1].split("#")[0], state.string_to_action(player, action.text)
                assert seen.setdefault(aid, card) == card, (aid, card, seen[aid])
                assert state.action_to_string(player, aid).split()[1] == card
                ids.append(aid)
            assert sorted(ids) == sorted(state.legal_action_ids()) and len(set(ids)) == len(ids)
            state.apply_action(rng.choice(state.legal_actions()))
    assert len(seen) == 12  # every card was offered, each under its own id


def test_a_save_reloads_to_the_same_game() -> None:
    game = load_game(str(HIGH_CARD))
    state = game.new_initial_state(2, seed=5)
    rng = random.Random(2)
    for _ in range(3):
        state.apply_action(rng.choice(state.legal_actions()))
    again = game.state_from_json(state.to_json())
    assert again.to_json() == state.to_json() and list(again.log) == list(state.log)
    while not state.is_terminal():
        action = rng.choice(state.legal_actions()).text
        state.apply_action(action)
        again.apply_action(action)
    assert list(again.log) == list(state.log) and again.returns() == state.returns()


def test_validate_and_describe_name_the_copies(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "validate", str(HIGH_CARD))
    assert code == 0 and "12 cards" in out
    code, out, _ = run(capsys, "describe", str(HIGH_CARD), "--cards")
    assert code == 0 and "7 of" not in out and "Black Joker (joker-black-joker, playing, x1)" in out


DECK = """
zones:
  deck: {scope: global, visible: all}
cards:
  pip:
    name: "{rank} of {suit}"
    in: deck
    properties: {cost: 1}
    copies:
      each: {rank: {from: 1, to: 3}, suit: [cups, coins]}
flow: |
  let names = join([text(c) for c in deck], ", ")
  log "{names}"
"""


def test_an_overlay_patches_a_card_with_copies_and_adds_one(tmp_path: pathlib.Path) -> None:
    base = write_toy(tmp_path, DECK)
    mod = base.parent / "mod.yaml"
    mod.write_text("orrery: 1\noverlay: bigger\nbase: toy\n"
                   "patch:\n  cards:\n    pip: {properties: {cost: 2}, copies: {each: {rank: {from: 1, to: 2}}}}\n"
                   "add:\n  cards:\n    trump:\n      name: \"{n} of trumps\"\n      in: deck\n"
                   "      copies: [{properties: {n: 1}, count: 2}, {properties: {n: 2}}]\n", encoding="utf-8")
    gd = load_game(str(base), overlays=[str(mod)]).definition
    assert [(c.id, c.count, c.properties.get("cost")) for c in gd.cards] == [
        ("pip-1-of-cups", 1, 2), ("pip-1-of-coins", 1, 2), ("pip-2-of-cups", 1, 2), ("pip-2-of-coins", 1, 2),
        ("trump-1-of-trumps", 2, None), ("trump-2-of-trumps", 1, None)]
    state = load_game(str(base), overlays=[str(mod)]).new_initial_state(2)
    assert list(state.log) == ["1 of cups, 1 of coins, 2 of cups, 2 of coins, 1 of trumps, 1 of trumps, 2 of trumps"]


def test_an_overlay_naming_a_copy_is_told_to_change_its_card(tmp_path: pathlib.Path) -> None:
    base = write_toy(tmp_path, DECK)
    mod = base.parent / "mod.yaml"
    mod.write_text("orrery: 1\noverlay: one\nbase: toy\npatch:\n  cards:\n    pip-2-of-cups: {properties: {cost: 5}}\n",
                   encoding="utf-8")
    with pytest.raises(RuleFileError) as caught:
        load_game(str(base), overlays=[str(mod)])
    (error,) = caught.value.diagnostics
    assert error.code == "overlay-missing" and (error.path, error.line) == (str(mod), 6)
    assert error.hint is not None and "a copy of card 'pip', made after overlays apply" in error.hint


def _error(tmp_path: pathlib.Path, text: str) -> tuple[str, tuple[int, int], str, pathlib.Path]:
    path = write_toy(tmp_path, text)
    with pytest.raises(RuleFileError) as caught:
        load_game(str(path))
    errors = caught.value.diagnostics
    assert len(errors) == 1, errors
    error = errors[0]
    return error.code, (error.line, error.column), error.message, path


def test_a_template_naming_no_property_is_an_error_at_its_place(tmp_path: pathlib.Path) -> None:
    text = DECK.replace('"{rank} of {suit}"', '"{rnak} of {suit}"')
    code, where, message, path = _error(tmp_path, text)
    assert code == "unknown-name" and "'{rnak}' names no property" in message
    assert where == find_column(path, "rnak")


def test_an_empty_range_is_an_error_at_its_place(tmp_path: pathlib.Path) -> None:
    code, where, message, path = _error(tmp_path, DECK.replace("{from: 1, to: 3}", "{from: 3, to: 1}"))
    assert code == "empty-range" and "'rank' of card 'pip' gives no values" in message
    assert where[0] == find_column(path, "from: 3")[0]


def test_two_copies_of_one_name_are_an_error(tmp_path: pathlib.Path) -> None:
    code, where, message, path = _error(tmp_path, DECK.replace('"{rank} of {suit}"', '"Pip {rank}"'))
    assert code == "name-clash" and "copies 1 and 2 of card 'pip' are both named 'Pip 1'" in message
    assert where == find_column(path, '"Pip {rank}"')


def test_a_copy_that_would_be_another_card_is_an_error(tmp_path: pathlib.Path) -> None:
    text = DECK.replace("cards:\n", "cards:\n  pip-1-of-cups: {name: Other}\n")
    code, _, message, _ = _error(tmp_path, text)
    assert code == "name-clash" and "would be the card 'pip-1-of-cups'" in message


def test_the_command_line_reports_a_bad_template_without_a_traceback(tmp_path: pathlib.Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    path = write_toy(tmp_path, DECK.replace('"{rank} of {suit}"', '"{rank} of {suit"'))
    code, out, err = run(capsys, "validate", str(path))
    line, column = find_column(path, "{suit")
    assert code != 0 and f"{path}:{line}:{column}: error[bad-template]" in out + err
    assert "Traceback" not in out + err


def test_copies_past_the_limit_are_refused_before_they_are_made(tmp_path: pathlib.Path) -> None:
    code, _, message, _ = _error(tmp_path, DECK.replace("{from: 1, to: 3}", "{from: 1, to: 9000}"))
    assert code == "limit" and "card 'pip' would have more than 10000 copies" in message
    two = DECK.replace("{from: 1, to: 3}", "{from: 1, to: 3000}").replace(
        "flow:", "  more:\n    name: \"m{n}\"\n    copies:\n      each: {n: {from: 1, to: 5000}}\nflow:")
    code, _, message, _ = _error(tmp_path, two)
    assert code == "limit" and "with the copies of card 'more'" in message


def test_copies_written_in_a_list_take_the_cards_fields(tmp_path: pathlib.Path) -> None:
    game = toy(tmp_path, """
        zones:
          deck: {scope: global, visible: all}
        cards:
          fish:
            name: Fish
            in: deck
            text: "Score {points}."
            properties: {points: 1}
            copies:
              - {name: Tuna, properties: {points: 3}}
              - {name: Eel}
        flow: |
          let shown = join([c.name + "=" + text(c.points) + ":" + c.text for c in deck], " ")
          log "{shown}"
        """)
    assert list(game.new_initial_state(2).log) == ["Tuna=3:Score 3. Eel=1:Score 1."]


def test_a_card_in_a_zone_per_player_gives_each_player_a_set(tmp_path: pathlib.Path) -> None:
    game = toy(tmp_path, """
        players: {min: 2, max: 3}
        zones:
          hand: {scope: player, visible: owner}
        cards:
          bid:
            name: "{value}"
            in: hand
            copies:
              each: {value: {from: 1, to: 3}}
        actions:
          play:
            during: turn
            params: {card: "hand(me)"}
            effect: "destroy card"
            ends: turn
        flow: |
          while len(hand(0)) > 0:
            for each p in players:
              turn p:
                take actions turn
        """)
    state = game.new_initial_state(3)
    assert [[c.split("#")[0] for c in state.observation(p)["zones"]["hand"][p]["cards"]] for p in range(3)] == \
        [["bid-1", "bid-2", "bid-3"]] * 3
    assert [a.text for a in state.legal_actions()] == ["play bid-1#0", "play bid-2#3", "play bid-3#6"]
    assert game.new_initial_state(2).observation(1)["zones"]["hand"][1]["count"] == 3


def test_cards_placed_in_a_zone_per_player_count_once_per_player(tmp_path: pathlib.Path) -> None:
    text = """
        players: {min: 2, max: 11}
        zones:
          hand: {scope: player, visible: owner}
        cards:
          chip: {name: Chip, in: hand, count: 10000}
        flow: |
          log "x"
        """
    code, where, message, path = _error(tmp_path, text)
    assert code == "limit" and "pass 100000" in message and where == find_column(path, "10000")
    assert toy(tmp_path, text.replace("max: 11", "max: 10")).new_initial_state(10).observation(9)[
        "zones"]["hand"][9]["count"] == 10000


def test_the_numbered_deck_passes_the_conformance_checks() -> None:
    summary = check_conformance(str(HIGH_CARD), games=3)
    assert set(summary) == {2, 3}
