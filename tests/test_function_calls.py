"""Calls of a game's functions: where a function's body reads no local but its own, it
is also generated taking its locals as arguments (`me`, then its parameters), and calls
pass them straight to it. The answers, the errors and the listings are those of the
form with a dictionary of locals, which stays for every other function."""

from __future__ import annotations

import ast
import random

import pytest
from conftest import code_listing, generated_ns, play, texts, toy

from interpreter.diagnostics import RuleRuntimeError

GAME = """
players: {min: 2, max: 3}
counters:
  vp: {scope: player, initial: 0}
  pool: {scope: global, initial: 0}
zones:
  hand: {scope: player, visible: all}
  deck: {scope: global, visible: all}
cards:
  gem: {name: Gem, count: 3, in: deck, properties: {worth: 2}}
  rock: {name: Rock, count: 2, in: deck, properties: {worth: 0}}
functions:
  worth_of:
    params: [c]
    value: c.worth
  hand_worth:
    params: [p]
    value: "sum([worth_of(c) for c in hand(p)])"
  lead:
    params: [p]
    let:
      mine: hand_worth(p)
      best: "max([hand_worth(q) for q in players if q != p])"
    value: mine - best
  mine_now:
    value: hand_worth(me)
  odd_me:
    params: [me]
    value: me + 1
  broken:
    params: [p]
    value: "[1, 2][p + 5]"
actions:
  take:
    during: main
    params:
      card: "[c for c in deck if worth_of(c) >= 0]"
    condition: "lead(me) <= 4"
    effect: |
      move card to hand(me)
      set vp(me) to mine_now() + odd_me(me)
    ends: turn
  fail:
    during: main
    condition: "len(deck) == 1"
    effect: "set pool to broken(me)"
    ends: turn
flow: |
  while len(deck) > 0:
    for each p in players:
      turn p:
        take actions main
"""


def _game(tmp_path):
    return toy(tmp_path, GAME)


def test_functions_reading_only_their_own_locals_take_them_as_arguments(tmp_path) -> None:
    game = _game(tmp_path)
    listing = dict(code_listing(game.definition))
    positional = {what.split(" ")[0] for what in listing if what.endswith("(its locals as arguments)")}
    assert positional == {"functions.worth_of", "functions.hand_worth", "functions.lead", "functions.mine_now",
                          "functions.broken"}  # odd_me names a parameter `me`: kept with its dictionary
    code = "\n".join(listing.values())
    assert "_l_me, _l_p)" in code and "_l_mine = " in code  # a local of `let:` is a Python name too
    assert "(st, {'me': " in code  # odd_me is still called with its dictionary
    # a lister going through its domain writes a called function's expression out
    fast = listing["actions.take (legal list, its domains gone through in its loops)"]
    assert f"{_positional_name(game.definition, 'worth_of')}(" not in fast and "'worth'" in fast


def test_both_forms_give_the_same_answers_in_random_games(tmp_path) -> None:
    game = _game(tmp_path)
    gd = game.definition
    ns = generated_ns(gd)
    table = next(value for name, value in ns.items() if name.startswith("_functions"))
    order = ["worth_of", "hand_worth", "lead", "mine_now", "odd_me", "broken"]  # as written: the table's order
    rng = random.Random(4)
    compared = 0
    for seed in range(6):
        state = game.new_initial_state(rng.choice([2, 3]), seed=seed)
        for _ in range(8):
            if state.is_terminal():
                break
            for name, param, args in (("worth_of", "c", range(5)), ("hand_worth", "p", range(state.n)),
                                      ("lead", "p", range(state.n))):
                by_args = ns[_positional_name(gd, name)]
                for arg in args:
                    by_dict = table[order.index(name)](state, {"me": state.active, param: arg})
                    assert by_args(state, state.active, arg) == by_dict
                    compared += 1
            state.apply_action(rng.choice([a for a in state.legal_actions() if a.text != "fail"]))
    assert compared > 100


def _positional_name(gd, name: str) -> str:
    from interpreter.play.describe import tree_of
    tree = tree_of(dict(gd.generated_code)[f"functions.{name} (its locals as arguments)"])
    assert isinstance(tree, ast.Module) and isinstance(tree.body[0], ast.FunctionDef)
    return tree.body[0].name


def test_a_game_played_through_calls_reads_the_same_values(tmp_path) -> None:
    game = _game(tmp_path)
    state = game.new_initial_state(2, seed=3)
    first = texts(state)
    assert first and all(t.startswith("take ") for t in first)  # lead(0) <= 4: every card may be taken
    play(state, first[0])
    worth = 2 if first[0].startswith("take gem") else 0
    assert state.counters[0][0] == worth + 1  # mine_now() + odd_me(0)


def test_an_error_inside_a_function_is_placed_at_the_statement_that_called_it(tmp_path) -> None:
    game = _game(tmp_path)
    state = game.new_initial_state(2, seed=1)
    while "fail" not in texts(state):
        state.apply_action(next(t for t in texts(state) if t.startswith("take")))
    with pytest.raises(RuleRuntimeError) as caught:
        state.apply_action("fail")
    assert "actions.fail.effect" in str(caught.value)


def test_the_acting_player_read_becomes_a_name_and_a_literal_spelling_it_stays() -> None:
    from interpreter.compile.expressions import ME
    from interpreter.compile.pyast import E, as_names, lit, unparse

    spelled = lit(f"x {unparse(ME)}")  # a rule's text that spells the read
    tree = E("f({me}, {spelled}) + {me}", me=ME, spelled=spelled)
    assert unparse(as_names(tree, {"me": "_l_me"})) == f"f(_l_me, {unparse(spelled)}) + _l_me"


def test_env_free_writes_every_named_local_as_its_name_or_gives_none() -> None:
    from interpreter.compile.expressions import ME
    from interpreter.compile.pyast import E, env_free, lit, unparse

    names = {"me": "_l_me", "c": "_l_c"}
    assert unparse(env_free(E("env['c'] + {me} + env['me']", me=ME), names)) == "_l_c + _l_me + _l_me"
    assert env_free(E("f(st, env)"), names) is None  # the whole env
    assert env_free(E("env['d'] + 1"), names) is None  # a local not named
    assert env_free(ME, {"c": "_l_c"}) is None  # `me` not named: its read stays in env
    assert unparse(env_free(E("{t} + env['c']", t=lit("env[1]")), names)) == "'env[1]' + _l_c"  # a literal stays
