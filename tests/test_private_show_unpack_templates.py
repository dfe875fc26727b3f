"""Language additions a game author needs: showing cards or text to some players only,
`let` in functions, unpacking loops, counting with a condition, players printed as
players, and card templates. Each on a toy game, bad input included.
"""

from __future__ import annotations

import json

import pytest
from conftest import find_column, play, toy, write_toy

from interpreter import GameError, RuleFileError, load_game
from interpreter.runtime.learning import card_seen_by
from interpreter.runtime.present import render_observation

PASS = """
actions:
  pass: {during: main, ends: turn}
"""

ZONES = """
zones:
  deck: {scope: global, visible: none}
  hand: {scope: player, visible: owner}
  table: {scope: global, visible: all}
cards:
  a: {name: Ace, count: 3, in: deck, properties: {rank: 1}}
  b: {name: Bee, count: 3, in: deck, properties: {rank: 2}}
"""

PRIEST = ZONES + PASS + """
players: {min: 3, max: 3}
flow: |
  move top(deck) to hand(0)
  move top(deck) to hand(1)
  move top(deck) to hand(2)
  reveal hand(1) to [0]
  show "P2 holds rank {top(hand(1)).rank}" to 0
  log "P1 looks at P2's hand"
  turn 0:
    take actions main
  move top(hand(1)) to table
  move top(deck) to hand(1)
  turn 1:
    take actions main
"""


def _hand(st, seat: int) -> list[int]:
    zdef = next(z for z in st.gd.zones if z.name == "hand")
    return st.zones[st.layout.zbase[zdef.index] + seat]


def test_reveal_to_shows_cards_to_the_chosen_players_only(tmp_path):
    st = toy(tmp_path, PRIEST).new_initial_state(3, seed=1)
    card = _hand(st, 1)[0]
    text = st.card_text(card)
    assert st.observation(0)["zones"]["hand"][1]["revealed"] == [text]
    assert "revealed" not in st.observation(2)["zones"]["hand"][1]
    assert text not in json.dumps(st.observation(-1)["zones"]["hand"][1])
    assert card_seen_by(st, card, 0) and not card_seen_by(st, card, 2)


def test_show_text_reaches_its_players_and_never_the_log(tmp_path):
    st = toy(tmp_path, PRIEST).new_initial_state(3, seed=1)
    rank = st.gd.cards[st.card_def[_hand(st, 1)[0]]].properties["rank"]
    assert st.observation(0)["notes"] == [f"P2 holds rank {rank}"]
    assert "notes" not in st.observation(1) and "notes" not in st.observation(2)
    assert list(st.log) == ["P1 looks at P2's hand"]
    assert "holds rank" not in st.observation_string(2)
    assert "holds rank" in st.observation_string(0)


def test_a_card_shown_to_a_player_is_forgotten_when_it_moves(tmp_path):
    st = toy(tmp_path, PRIEST).new_initial_state(3, seed=1)
    play(st, "pass")
    assert st.shown == {}
    assert "revealed" not in st.observation(0)["zones"]["hand"][1]


def test_the_tensor_counts_a_card_shown_to_the_viewer_only(tmp_path):
    st = toy(tmp_path, PRIEST).new_initial_state(3, seed=1)
    seen0, seen2 = st.observation_tensor(0), st.observation_tensor(2)
    # the viewer's one-hot piece differs; the rest differs only by the shown card
    zones = st.game.tensor_layout(3).piece["zones"]
    part = slice(zones.offset, zones.offset + zones.size)
    assert sum(seen0[part]) == sum(seen2[part]) + 1


def test_shown_cards_and_notes_survive_a_save(tmp_path):
    game = toy(tmp_path, PRIEST)
    st = game.new_initial_state(3, seed=1)
    back = game.state_from_json(st.to_json())
    assert back.shown == st.shown and back.notes == st.notes
    assert back.observation(0) == st.observation(0)


def test_a_save_without_the_new_fields_loads_with_nothing_shown(tmp_path):
    game = toy(tmp_path, ZONES + PASS + "flow: |\n  turn 0:\n    take actions main\n")
    st = game.new_initial_state(2, seed=0)
    data = json.loads(st.to_json())
    assert "shown" not in data and "notes" not in data  # written only when used: older saves stay as they were
    back = game.state_from_json(json.dumps(data))
    assert back.shown == {} and back.notes == []
    assert back == st


def test_a_save_showing_to_a_missing_seat_is_refused(tmp_path):
    game = toy(tmp_path, PRIEST)
    data = json.loads(game.new_initial_state(3, seed=1).to_json())
    data["notes"] = [[[7], "hello"]]
    with pytest.raises(GameError, match="corrupt save: a note is shown to a player not in the game"):
        game.state_from_json(json.dumps(data))


def test_show_to_a_non_player_is_a_rule_error_at_the_statement(tmp_path):
    path = write_toy(tmp_path, ZONES + "flow: |\n  show \"hi\" to 5\n")
    with pytest.raises(GameError) as caught:
        load_game(str(path)).new_initial_state(2)
    line, column = find_column(path, 'show "hi" to 5')
    assert f"game.yaml:{line}:{column}" in str(caught.value)
    assert "not a player of this game" in str(caught.value)


def test_reveal_to_a_number_list_of_strings_is_a_type_error(tmp_path):
    path = write_toy(tmp_path, ZONES + "flow: |\n  reveal top(deck) to [\"x\"]\n")
    with pytest.raises(RuleFileError) as caught:
        load_game(str(path))
    line, column = find_column(path, '["x"]')
    text = str(caught.value)
    assert f"game.yaml:{line}:{column}" in text and "expected a player or a list of players" in text


def test_a_bad_template_in_show_is_placed_inside_the_string(tmp_path):
    path = write_toy(tmp_path, ZONES + "flow: |\n  show \"rank {nope}\" to 0\n")
    with pytest.raises(RuleFileError) as caught:
        load_game(str(path))
    line, column = find_column(path, "nope")
    assert f"game.yaml:{line}:{column}" in str(caught.value)


def test_show_is_a_reserved_word(tmp_path):
    path = write_toy(tmp_path, "counters:\n  show: {scope: global}\nflow: |\n  end game\n")
    with pytest.raises(RuleFileError, match="'show' is a word of the effect language"):
        load_game(str(path))


def test_the_terminal_view_lists_the_notes_of_its_viewer_only(tmp_path):
    st = toy(tmp_path, PRIEST).new_initial_state(3, seed=1)
    lines0 = render_observation(st.observation(0), st.gd, {0})
    lines2 = render_observation(st.observation(2), st.gd, {2})
    assert "Shown to you:" in lines0 and any("P2 holds rank" in line for line in lines0)
    assert not any("holds rank" in line or "Shown" in line for line in lines2)


# ---- let in functions, unpacking loops, counting with a condition ---------------------------------

COUNTERS = """
counters:
  vp: {scope: player, initial: 0}
  pool: {scope: global, initial: 0}
"""


def run_flow(tmp_path, flow: str, extra: str = "", players: int = 3):
    lines = "".join(f"  {line}\n" for line in flow.strip("\n").splitlines())
    game = toy(tmp_path, extra + "\nplayers: {min: 1, max: 4}\nflow: |\n" + lines)
    return game.new_initial_state(players, seed=0)


LEAD = COUNTERS + """
functions:
  lead:
    params: [p]
    let:
      mine: vp(p)
      best: "max([vp(q) for q in players if q != p])"
    value: mine - best
"""


def test_a_function_binds_locals_before_its_value(tmp_path):
    st = run_flow(tmp_path, "set vp(0) to 7\nset vp(1) to 3\nset vp(2) to 5\nset pool to lead(0) * 10 + lead(2)", LEAD)
    assert st.counters[1] == [2 * 10 + (5 - 7)]


def test_a_function_local_may_not_shadow_a_parameter(tmp_path):
    path = write_toy(tmp_path, COUNTERS + """
functions:
  f:
    params: [p]
    let: {p: "1"}
    value: p
flow: |
  end game
""")
    with pytest.raises(RuleFileError) as caught:
        load_game(str(path))
    line, column = find_column(path, "{p:")
    assert f"game.yaml:{line}:{column + 1}" in str(caught.value)
    assert "already a parameter" in str(caught.value)


def test_an_error_in_a_function_local_is_placed_in_its_text(tmp_path):
    path = write_toy(tmp_path, COUNTERS + """
functions:
  f:
    params: [p]
    let:
      a: vp(p) + nope
    value: a
flow: |
  end game
""")
    with pytest.raises(RuleFileError) as caught:
        load_game(str(path))
    line, column = find_column(path, "nope")
    assert f"game.yaml:{line}:{column}" in str(caught.value)


def test_a_later_local_reads_an_earlier_one_and_not_the_reverse(tmp_path):
    path = write_toy(tmp_path, COUNTERS + """
functions:
  f:
    let:
      a: b + 1
      b: "2"
    value: a
flow: |
  end game
""")
    with pytest.raises(RuleFileError, match="unknown name 'b'"):
        load_game(str(path))


def test_for_each_unpacks_pairs(tmp_path):
    st = run_flow(tmp_path, """
for each p, n in [[0, 2], [2, 5]]:
  gain n vp(p)
""", COUNTERS)
    assert st.counters[0] == [2, 0, 5]


def test_a_comprehension_unpacks_pairs(tmp_path):
    st = run_flow(tmp_path, """
set pool to sum([a * b for a, b in [[1, 2], [3, 4]] if a > 1])
""", COUNTERS)
    assert st.counters[1] == [12]


def test_unpacking_an_item_of_the_wrong_size_is_a_rule_error_at_the_loop(tmp_path):
    path = write_toy(tmp_path, COUNTERS + "players: {min: 1, max: 4}\nflow: |\n  for each a, b in [[1, 2], [3]]:\n"
                     "    set pool to a\n")
    with pytest.raises(GameError) as caught:
        load_game(str(path)).new_initial_state(2)
    line, column = find_column(path, "for each a, b")
    assert f"game.yaml:{line}:{column}" in str(caught.value)
    assert "cannot unpack [3] into 2 names" in str(caught.value)


def test_unpacking_numbers_is_a_type_error(tmp_path):
    path = write_toy(tmp_path, COUNTERS + "flow: |\n  set pool to sum([a for a, b in [1, 2]])\n")
    with pytest.raises(RuleFileError, match="cannot unpack a number into 2 names: each item must be a list"):
        load_game(str(path))


def test_the_same_name_twice_in_a_loop_is_a_syntax_error(tmp_path):
    path = write_toy(tmp_path, COUNTERS + "flow: |\n  for each a, a in [[1, 2]]:\n    set pool to a\n")
    with pytest.raises(RuleFileError) as caught:
        load_game(str(path))
    line, column = find_column(path, "a, a")
    assert f"game.yaml:{line}:{column + 3}" in str(caught.value)
    assert "named twice" in str(caught.value)


def test_count_with_a_condition(tmp_path):
    st = run_flow(tmp_path, """
set vp(1) to 4
set vp(2) to 9
set pool to count(p for p in players if vp(p) > 2)
set vp(0) to sum(vp(p) for p in players)
""", COUNTERS)
    assert st.counters[1] == [2]
    assert st.counters[0][0] == 13


def test_a_loop_name_is_gone_after_the_loop(tmp_path):
    path = write_toy(tmp_path, COUNTERS + "flow: |\n  for each a, b in [[1, 2]]:\n    set pool to a\n  set pool to b\n")
    with pytest.raises(RuleFileError, match="unknown name 'b'"):
        load_game(str(path))


# ---- players print as players ----------------------------------------------------------------------------


def test_a_player_given_by_a_function_is_logged_as_a_player(tmp_path):
    st = run_flow(tmp_path, """
let t = rival(me)
log "{me} guesses {rival(me)}; {t} answers; best: {best()}"
""", COUNTERS + """
functions:
  rival: {params: [p], value: next_player(p)}
  best:
    let: {high: "max([vp(q) for q in players])"}
    value: "[q for q in players if vp(q) == high][0]"
""")
    assert list(st.log) == ["P1 guesses P2; P2 answers; best: P1"]



# ---- card types: defaults shared by the cards of one type ---------------------------------------------

TYPED = """
zones:
  deck: {scope: global, visible: none}
  box: {scope: global, visible: all}
card_types:
  space:
    in: deck
    count: 2
    assumed: "designed card"
    properties: {cost: 1, kind: plain}
cards:
  a: {name: A, type: space, properties: {cost: 3}}
  b: {name: B, type: space, in: box, count: 1}
  c: {name: C, properties: {cost: 5}}
flow: |
  end game
"""

WRITTEN_OUT = """
zones:
  deck: {scope: global, visible: none}
  box: {scope: global, visible: all}
cards:
  a: {name: A, type: space, in: deck, count: 2, assumed: "designed card", properties: {cost: 3, kind: plain}}
  b: {name: B, type: space, in: box, count: 1, assumed: "designed card", properties: {cost: 1, kind: plain}}
  c: {name: C, properties: {cost: 5}}
flow: |
  end game
"""


def test_a_card_type_gives_its_cards_the_fields_they_do_not_set(tmp_path):
    gd = toy(tmp_path, TYPED).definition
    cards = {c.id: c for c in gd.cards}
    zones = [z.name for z in gd.zones]
    assert cards["a"].properties == {"cost": 3, "kind": "plain"} and cards["a"].count == 2
    assert cards["b"].properties == {"cost": 1, "kind": "plain"} and cards["b"].count == 1
    assert zones[cards["a"].zone] == "deck" and zones[cards["b"].zone] == "box"
    assert cards["c"].properties == {"cost": 5} and cards["c"].zone is None
    assert sorted(a.where for a in gd.assumptions) == ["cards.a", "cards.b"]


def test_card_types_mean_the_same_rules_as_the_cards_written_out(tmp_path):
    typed, written = toy(tmp_path, TYPED).definition, toy(tmp_path, WRITTEN_OUT).definition
    assert typed.data_hash == written.data_hash


def test_an_error_in_an_inherited_field_is_placed_in_the_card_type(tmp_path):
    path = write_toy(tmp_path, TYPED.replace("    in: deck\n", "    in: nowhere\n"))
    with pytest.raises(RuleFileError) as caught:
        load_game(str(path))
    line, column = find_column(path, "nowhere")
    assert f"game.yaml:{line}:{column}" in str(caught.value)
    assert "no zone 'nowhere'" in str(caught.value)


def test_a_card_type_with_an_unknown_field_is_a_schema_error(tmp_path):
    path = write_toy(tmp_path, TYPED.replace("    count: 2\n", "    cuont: 2\n"))
    with pytest.raises(RuleFileError) as caught:
        load_game(str(path))
    line, column = find_column(path, "cuont")
    assert f"game.yaml:{line}:{column}" in str(caught.value)


def test_an_overlay_may_patch_a_card_type(tmp_path):
    folder = write_toy(tmp_path, TYPED).parent
    (folder / "cheap.yaml").write_text(
        "orrery: 1\noverlay: cheap\nbase: toy\npatch: {card_types: {space: {properties: {cost: 0}}}}\n",
        encoding="utf-8")
    gd = load_game(str(folder / "game.yaml"), overlays=[str(folder / "cheap.yaml")]).definition
    cards = {c.id: c for c in gd.cards}
    assert cards["b"].properties["cost"] == 0 and cards["a"].properties["cost"] == 3



def test_a_procedure_parameter_every_call_gives_a_player_prints_as_a_player(tmp_path):
    st = run_flow(tmp_path, """
announce(me, 2)
announce(next_player(me), 3)
tally(1)
""", COUNTERS + """
procedures:
  announce: {params: [p, n], effect: "log \\"{p} scores {n}\\""}
  tally: {params: [p], effect: "log \\"tally {p}\\""}
""")
    # `n` is a number at every call and `tally`'s `p` too: they stay numbers
    assert list(st.log) == ["P1 scores 2", "P2 scores 3", "tally 1"]


def test_a_player_passed_through_two_procedure_calls_prints_as_a_player(tmp_path):
    """`outer(p)` passing its parameter to `inner(p)`: once `outer`'s is typed player, so
    is `inner`'s, declared in either order (the log read "P2 challenges 0's claim")."""
    st = run_flow(tmp_path, """
outer(next_player(me))
relay(me)
""", COUNTERS + """
procedures:
  inner: {params: [p], effect: "log \\"{me} challenges {p}'s claim\\""}
  outer: {params: [who], effect: "inner(who)"}
  relay: {params: [a], effect: "hop(a)"}
  hop: {params: [b], effect: "last(b)"}
  last: {params: [c], effect: "log \\"{c} ends\\""}
""")
    assert list(st.log) == ["P1 challenges P2's claim", "P1 ends"]


def test_a_procedure_called_with_a_player_and_a_number_keeps_a_plain_parameter(tmp_path):
    st = run_flow(tmp_path, """
outer(me)
inner(7)
""", COUNTERS + """
procedures:
  outer: {params: [who], effect: "inner(who)"}
  inner: {params: [p], effect: "log \\"to {p}\\""}
""")
    assert list(st.log) == ["to 0", "to 7"]


def test_a_procedure_whose_player_typed_body_would_not_compile_keeps_its_first_compilation(tmp_path):
    st = run_flow(tmp_path, """
bump(me)
""", COUNTERS + """
procedures:
  bump: {params: [p], effect: "if p == 99:\\n  set pool to p.foo\\nset pool to 5\\nlog \\"{p}\\""}
""")
    # as a player, `p.foo` would be refused; the parameter stays a plain value
    assert st.counters[1] == [5] and list(st.log) == ["0"]



# ---- boards --------------------------------------------------------------------------------------------

BOARD = """
boards:
  grid: {width: 4, height: 3}
  king: {width: 3, height: 3, adjacency: all}
counters:
  pool: {scope: global, initial: 0}
"""


def test_board_geometry(tmp_path):
    st = run_flow(tmp_path, """
log "{len(cells(grid))} {cell(grid, 1, 2)} {cell(grid, 4, 0) == none} {column(grid, 6)} {row(grid, 6)}"
log "{neighbors(grid, 0)} | {neighbors(grid, 5)} | {neighbors(king, 4)}"
log "{step(grid, 5, \\"ne\\")} {step(grid, 0, \\"n\\") == none} {ray(grid, 4, \\"e\\")} {directions(grid)}"
log "{len(lines(grid, 3))} {lines(king, 3)[0]} {len(lines(king, 3))} {len(lines(grid, 1))}"
""", BOARD)
    assert list(st.log) == [
        "12 9 true 2 1",
        "1, 4 | 1, 6, 9, 4 | 1, 2, 5, 8, 7, 6, 3, 0",
        "2 true 5, 6, 7 n, e, s, w",
        # rows 2 per row x 3, columns 1 x 4, diagonals 2 + 2
        "14 0, 1, 2 8 12",
    ]


def test_a_toy_three_in_a_row_on_a_board(tmp_path):
    game = toy(tmp_path, """
players: {min: 2, max: 2}
boards:
  grid: {width: 3, height: 3}
counters:
  mark: {scope: global, size: 9, initial: 0}
actions:
  place:
    during: main
    params: {c: "[c for c in cells(grid) if mark[c] == 0]"}
    effect: "set mark[c] to me + 1"
    ends: turn
end:
  - id: three
    check: action
    when: "any([all([mark[c] == active + 1 for c in line]) for line in lines(grid, 3)])"
    winners: "[active]"
flow: |
  repeat forever:
    for each p in players:
      turn p:
        take actions main
""")
    st = game.new_initial_state(2, seed=0)
    assert len(st.legal_actions()) == 9
    play(st, "place 0", "place 3", "place 4", "place 5", "place 8")
    assert st.is_terminal() and st.returns() == [1.0, -1.0]


def test_a_board_function_without_a_board_is_a_diagnostic_at_the_argument(tmp_path):
    path = write_toy(tmp_path, BOARD + "flow: |\n  set pool to len(cells(gird))\n")
    with pytest.raises(RuleFileError) as caught:
        load_game(str(path))
    line, column = find_column(path, "gird")
    text = str(caught.value)
    assert f"game.yaml:{line}:{column}" in text and "cells() needs a board's name first" in text and "grid" in text


def test_a_bad_direction_is_a_rule_error_at_the_statement(tmp_path):
    path = write_toy(tmp_path, BOARD + "flow: |\n  set pool to step(grid, 0, \"up\")\n")
    with pytest.raises(GameError) as caught:
        load_game(str(path)).new_initial_state(2)
    line, column = find_column(path, "set pool to step")
    assert f"game.yaml:{line}:{column}" in str(caught.value) and "'up' is not a direction" in str(caught.value)


def test_a_cell_off_the_board_is_a_rule_error(tmp_path):
    with pytest.raises(GameError, match="12 is not a cell of board 'grid'"):
        run_flow(tmp_path, "set pool to len(neighbors(grid, 12))", BOARD)


def test_a_board_without_a_size_is_a_diagnostic(tmp_path):
    path = write_toy(tmp_path, "boards:\n  grid: {width: 0, height: 3}\nflow: |\n  end game\n")
    with pytest.raises(RuleFileError) as caught:
        load_game(str(path))
    assert "width" in str(caught.value)
    line, _ = find_column(path, "grid:")
    assert f"game.yaml:{line}:" in str(caught.value)
