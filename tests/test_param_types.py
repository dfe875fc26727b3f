"""Types of the parameters of functions and procedures: declared (`params: {hand: cards}`),
checked at every call, and deciding how values print; a parameter left undeclared while
every call passes it cards or players is a warning that says what to declare."""

from __future__ import annotations

import json
import pathlib

import pytest
from conftest import toy, toy_errors, write_toy

from interpreter import load_game
from interpreter.diagnostics import RuleFileError
from interpreter.lang.symbols import PARAM_TYPES
from interpreter.runtime.present import option_text

DRAFT = """
counters:
  score: {scope: player}
zones:
  hand: {scope: player, visible: owner}
  deck: {scope: global, visible: none}
cards:
  apple: {name: Apple, count: 2, in: deck}
  pear: {name: Pear, count: 1, in: deck}
functions:
  distinct:
    params: PARAMS
    value: "[c for c in cards if c == cards_named(c.id, cards)[0]]"
procedures:
  announce:
    params: {who: player, what: card}
    effect: 'log "{who} takes {what}"'
setup: |
  for each c in deck:
    move c to hand(0)
actions:
  take:
    during: turn
    params:
      pick: "distinct(hand(me))"
    effect: |
      announce(me, pick)
      gain 1 score(me)
    ends: turn
flow: |
  repeat forever:
    for each p in players:
      turn p:
        take actions turn
end:
  - id: done
    check: turn
    when: "score(me) >= 2"
    winners: "[me]"
"""


def test_a_declared_list_of_cards_keeps_its_cards_through_a_function(tmp_path) -> None:
    """The designer's `distinct(hand(me))`: its options were `take 98`, now the cards."""
    state = toy(tmp_path, DRAFT.replace("PARAMS", "{cards: cards}")).new_initial_state(2, seed=0)
    legal = state.legal_actions()
    assert [str(a) for a in legal] == ["take apple#0", "take pear#2"]
    assert [option_text(state, a) for a in legal] == ["take Apple", "take Pear"]
    state.apply_action(legal[1])
    assert list(state.log)[-1] == "P1 takes Pear"  # a declared card prints by name, a player as P1


def test_an_undeclared_parameter_given_cards_at_every_call_is_a_warning_naming_the_declaration(tmp_path) -> None:
    game = toy(tmp_path, DRAFT.replace("PARAMS", "[cards]"))
    found = [d for d in game.warnings if d.code == "undeclared-type"]
    assert [(d.severity, d.message) for d in found] == [
        ("warning", "every call of distinct() passes cards as 'cards', which declares no type")]
    assert found[0].hint == "declare it: params: {cards: cards, ...} (it is then checked and shown as cards)"
    # strict validation refuses it, as every lint finding
    with pytest.raises(RuleFileError, match="undeclared-type"):
        load_game(str(write_toy(tmp_path, DRAFT.replace("PARAMS", "[cards]"))), strict=True)


def test_a_call_passing_another_type_than_declared_is_a_type_error_at_the_argument(tmp_path) -> None:
    errors = toy_errors(tmp_path, DRAFT.replace("PARAMS", "{cards: players}"))
    # the body is checked with the declared type, and so is the call
    assert [(e.code, e.message) for e in errors] == [
        ("type", "'.id' needs a card or a table, got a player"),
        ("type", "distinct() takes a list of a player as 'cards', got a list of a card")]


def test_a_procedure_call_passing_another_type_than_declared_is_a_type_error(tmp_path) -> None:
    errors = toy_errors(tmp_path, DRAFT.replace("PARAMS", "{cards: cards}").replace("announce(me, pick)",
                                                                                      "announce(pick, me)"))
    assert [(e.code, e.message) for e in errors] == [
        ("type", "announce() takes a player as 'who', got a card")]


def test_an_unknown_type_word_is_a_schema_error_with_a_guess(tmp_path) -> None:
    errors = toy_errors(tmp_path, DRAFT.replace("PARAMS", "{cards: cardz}"))
    assert [e.code for e in errors] == ["schema"]
    assert "must be one of: any, number" in errors[0].message and errors[0].hint == "did you mean 'card'?"


def test_the_schema_offers_the_type_words_the_compiler_knows() -> None:
    schema = json.loads((pathlib.Path(__file__).parent.parent / "schema" / "game.schema.json").read_text())
    for entry in ("function", "procedure"):
        typed = schema["definitions"][entry]["properties"]["params"]["oneOf"][1]
        assert typed["additionalProperties"]["enum"] == list(PARAM_TYPES)


@pytest.mark.parametrize("spec", [("race-to-mars", ()), ("rocketmen", ("target-jupiter",)),
                                  ("for-all-mankind", ()), ("star-market", ()), ("breakthrough", ())])
def test_the_bundled_games_declare_what_their_calls_pass(spec) -> None:
    name, overlays = spec
    game = load_game(name, overlays=list(overlays))
    assert [d.message for d in game.warnings if d.code == "undeclared-type"] == []


def test_a_procedure_parameter_left_undeclared_takes_its_type_from_the_calls(tmp_path) -> None:
    """Every call of `announce` passes a player and a card (and `tell` a list of cards,
    through `announce`'s own call): left undeclared, in a file of format 2, they print
    as a player and by name, as declared ones do, and nothing warns (the calls say it)."""
    text = (DRAFT.replace("PARAMS", "{cards: cards}")
            .replace("params: {who: player, what: card}", "params: [who, what]")
            .replace("""effect: 'log "{who} takes {what}"'""",
                     """effect: |
      log "{who} takes {what}"
      tell([what])
  tell:
    params: [shown]
    effect: 'log "shown: {shown}"'"""))
    game = toy(tmp_path, "orrery: 2\nid: toy\nname: Toy\nplayers: {min: 2, max: 2}\n" + text)
    assert [d for d in game.warnings if d.code == "undeclared-type"] == []
    state = game.new_initial_state(2, 1)
    state.apply_action(state.legal_actions()[1])
    assert list(state.log)[-2:] == ["P1 takes Pear", "shown: Pear"]
    # A file of format 1 prints as it always did (its saves and logs replay unchanged):
    # only players are typed by the calls, and the cards are worth a warning.
    old = toy(tmp_path, text)
    assert [d.message for d in old.warnings if d.code == "undeclared-type"] == [
        "every call of announce() passes card as 'what', which declares no type"]
    state = old.new_initial_state(2, 1)
    state.apply_action(state.legal_actions()[1])
    assert list(state.log)[-2][:9] == "P1 takes " and list(state.log)[-2] != "P1 takes Pear"
