"""The effect language, one construct at a time, each on a tiny toy game; then the
error text people get for broken effect text (syntax, static checks, runtime limits).

Each toy is written as YAML text (tests/conftest.py adds the header), so a test reads
as the rule it checks.
"""

from __future__ import annotations

import re

import pytest
from conftest import counter, find_column, find_line, play, texts, toy, toy_errors, write_toy, zone

from interpreter import TERMINAL, GameError, IllegalActionError, RuleFileError, load_game
from interpreter.diagnostics import RuleRuntimeError

LARK_WORDS = re.compile(r"\b(RPAR|LPAR|RSQB|LSQB|_NL|_INDENT|_DEDENT|NAME|NUMBER|STRING|COLON|COMMA|\$END)\b")

# A one-action game: `flow` can wait with `take actions main` where a test needs it.
PASS = """
actions:
  pass: {during: main, ends: turn}
"""


def run_flow(tmp_path, flow: str, extra: str = "", players: int = 2, seed: int = 0):
    """A toy whose flow is `flow` (indented as a block), run to its first decision."""
    lines = "".join(f"  {line}\n" for line in flow.strip("\n").splitlines())
    body = f"players: {{min: 1, max: 4, default: {players}}}\nflow: |\n" + lines
    game = toy(tmp_path, extra + "\n" + body)
    return game.new_initial_state(players, seed=seed)


COUNTERS = """
counters:
  vp: {scope: player, initial: 0, min: 0, max: 5}
  gold: {scope: player, initial: 3}
  pool: {scope: global, initial: 0}
  mark: {scope: global, size: 3, initial: 0}
  res: {scope: player, keys: [iron, fuel], initial: {iron: 1}}
"""

ZONES = """
zones:
  deck: {scope: global, visible: none}
  table: {scope: global, visible: all}
  hand: {scope: player, visible: owner}
  discard: {scope: player, visible: all}
cards:
  a: {name: Ace, count: 3, in: deck, properties: {rank: 1}}
  b: {name: Bee, count: 2, in: table, properties: {rank: 2}}
  c: {name: Cat, count: 0, properties: {rank: 3}}
"""


# ---- let, set ------------------------------------------------------------------------


def test_let_binds_a_local(tmp_path):
    st = run_flow(tmp_path, """
let x = 2 + 3 * 4
let y = x - 1
set pool to y
""", COUNTERS)
    assert st.is_terminal()
    assert counter(st, "pool") == 13


def test_set_counter_array_keyed_and_per_player(tmp_path):
    st = run_flow(tmp_path, """
set vp(1) to 4
set vp to 2
set mark[2] to 7
set res(1)["fuel"] to 6
set res["iron"] to 9
set gold(next_player(0)) to gold(0) + 10
""", COUNTERS)
    assert counter(st, "vp", 1) == 4
    assert counter(st, "vp", 0) == 2  # `vp` alone is vp(me), and me is the active seat 0
    assert counter(st, "mark") == [0, 0, 7]
    assert counter(st, "res", 1) == {"iron": 1, "fuel": 6}
    assert counter(st, "res", 0) == {"iron": 9, "fuel": 0}
    assert counter(st, "gold", 1) == 13


def test_set_clamps_to_min_and_max(tmp_path):
    st = run_flow(tmp_path, "set vp(0) to 99\nset vp(1) to 0 - 3", COUNTERS)
    assert counter(st, "vp", 0) == 5
    assert counter(st, "vp", 1) == 0


def test_set_card_attribute_shadows_property(tmp_path):
    st = run_flow(tmp_path, """
let c = top(table)
set pool to c.rank
set c.rank to 10
set c.tapped to true
if c.tapped and c.rank == 10 and bottom(table).rank == 2:
  set mark[0] to 1
if c.name == "Bee":
  set mark[1] to 3
if c.id == "b" and c.type == "card":
  set mark[2] to 1
""", COUNTERS + ZONES)
    assert counter(st, "pool") == 2
    assert counter(st, "mark") == [1, 3, 1]


def test_set_local(tmp_path):
    st = run_flow(tmp_path, """
let total = 0
for each i in range(4):
  set total to total + i
set pool to total
""", COUNTERS)
    assert counter(st, "pool") == 6


# ---- gain, lose, pay -------------------------------------------------------------------


def test_gain_and_lose_clamp(tmp_path):
    st = run_flow(tmp_path, """
gain 3 vp(0)
gain 4 vp(0)
lose 2 vp(1)
gain 2 vp(1)
lose 10 gold(1)
""", COUNTERS)
    assert counter(st, "vp", 0) == 5  # max 5
    assert counter(st, "vp", 1) == 2  # min 0, then +2
    assert counter(st, "gold", 1) == -7  # no min: no clamp


def test_gain_keyed_counter(tmp_path):
    st = run_flow(tmp_path, 'gain 2 res(0)["fuel"]\nlet k = "iron"\ngain 3 res(1)[k]', COUNTERS)
    assert counter(st, "res", 0) == {"iron": 1, "fuel": 2}
    assert counter(st, "res", 1) == {"iron": 4, "fuel": 0}


def test_pay_within_means(tmp_path):
    st = run_flow(tmp_path, "pay 3 gold(0)", COUNTERS)
    assert counter(st, "gold", 0) == 0


def test_pay_overdraft_is_a_rule_error_at_the_statement(tmp_path):
    with pytest.raises(GameError) as caught:
        run_flow(tmp_path, "gain 1 vp(0)\npay 4 gold(0)", COUNTERS)
    err = caught.value
    assert isinstance(err, RuleRuntimeError)
    message = str(err)
    assert "cannot pay 4 gold: only 3 available" in message
    path = next(tmp_path.glob("toy*/game.yaml"))
    line, column = find_column(path, "pay 4 gold(0)")
    assert f"game.yaml:{line}:{column}" in message
    assert "Traceback" not in message


def test_negative_gain_is_a_rule_error(tmp_path):
    with pytest.raises(GameError, match="negative amount"):
        run_flow(tmp_path, "gain 0 - 2 vp(0)", COUNTERS)


# ---- moving cards -------------------------------------------------------------------------


def test_move_top_and_bottom(tmp_path):
    st = run_flow(tmp_path, """
let first = top(deck)
move first to hand(0)
move top(deck) to hand(0) bottom
move top(deck) to hand(0) top
move table to discard(1)
""", ZONES)
    assert zone(st, "deck") == []
    assert zone(st, "hand", 0) == ["a", "a", "a"]
    ids = [st.card_text(i) for i in st.zones[st.layout.zbase[2]]]
    # a#2 was moved first, a#1 went under it, a#0 on top.
    assert ids == ["a#1", "a#2", "a#0"]
    assert zone(st, "discard", 1) == ["b", "b"]
    assert zone(st, "table") == []


def test_move_to_a_zone_gives_top_and_bottom(tmp_path):
    st = run_flow(tmp_path, """
create 1 "c" in discard(0)
move top(table) to discard(0) bottom
set vp(0) to bottom(discard(0)).rank
set vp(1) to top(discard(0)).rank
""", COUNTERS + ZONES)
    assert counter(st, "vp", 0) == 2
    assert counter(st, "vp", 1) == 3


REFILL = """
counters:
  seen: {scope: player, initial: -1}
zones:
  pile: {scope: player, visible: none, refill: {from: used, shuffle: true}}
  used: {scope: player, visible: all}
  hand: {scope: player, visible: owner}
cards:
  a: {name: A, count: 0}
  extra: {name: Extra, count: 0}
triggers:
  add-before-shuffle:
    on: refilled pile
    effect: |
      set seen(player) to len(used(player))
      create 1 "extra" in pile(player)
"""


def test_draw_refills_and_the_refill_trigger_runs_before_the_shuffle(tmp_path):
    flow = """
create 4 "a" in used(0)
create 1 "a" in pile(0)
draw 3 from pile(0) to hand(0)
"""
    positions = set()
    for seed in range(12):
        st = run_flow(tmp_path, flow, REFILL, seed=seed)
        # One card from the pile, then the refill: the trigger saw the 4 used cards not
        # yet moved, and its extra card was shuffled in with them.
        assert counter(st, "seen", 0) == 4
        assert len(zone(st, "hand", 0)) == 3
        assert zone(st, "used", 0) == []
        rest = zone(st, "pile", 0)
        assert len(rest) == 3 and sorted(zone(st, "hand", 0) + rest) == ["a"] * 5 + ["extra"]
        full = zone(st, "hand", 0)[1:][::-1] + rest  # the refilled pile, bottom to top
        positions.add((full[::-1] + ["-"]).index("extra"))
    assert len(positions) > 1, "the extra card always lands in the same place: not shuffled in"


def test_the_refill_event_fires_even_when_there_is_nothing_to_refill_from(tmp_path):
    # The trigger may supply the card (Race to Mars: "add an Asteroid, shuffle, draw").
    st = run_flow(tmp_path, "create 2 \"a\" in pile(1)\ndraw 5 from pile(1) to hand(1)", REFILL)
    assert zone(st, "hand", 1) == ["a", "a", "extra", "extra", "extra"]
    assert counter(st, "seen", 1) == 0


def test_draw_without_enough_cards_draws_what_there_is(tmp_path):
    quiet = REFILL[:REFILL.index("triggers:")]
    st = run_flow(tmp_path, "create 2 \"a\" in pile(1)\ndraw 5 from pile(1) to hand(1)", quiet)
    assert zone(st, "hand", 1) == ["a", "a"]


def test_refill_event_old_name_is_accepted(tmp_path):
    game = toy(tmp_path, REFILL.replace("on: refilled pile", "on: refill pile")
               + "flow: |\n  create 1 \"a\" in used(0)\n  draw 1 from pile(0) to hand(0)\n")
    st = game.new_initial_state(2, seed=1)
    assert counter(st, "seen", 0) == 1


def test_shuffle_is_deterministic_per_seed(tmp_path):
    extra = ZONES.replace("count: 3, in: deck", "count: 12, in: deck")
    flow = "shuffle deck"
    orders = {}
    for seed in (1, 1, 2, 3):
        st = run_flow(tmp_path, flow, extra, seed=seed)
        order = tuple(st.zones[st.layout.zbase[0]])
        assert sorted(order) == list(range(12))
        orders.setdefault(seed, set()).add(order)
    assert len(orders[1]) == 1  # same seed, same order
    assert len({next(iter(v)) for v in orders.values()}) == 3  # other seeds, other orders


def test_create_and_destroy(tmp_path):
    st = run_flow(tmp_path, """
create 2 "c" in hand(1)
create 0 "c" in hand(0)
let victim = top(hand(1))
destroy victim
destroy table
set vp(0) to len(hand(1))
if zone_of(victim) == none:
  set vp(1) to 1
""", COUNTERS + ZONES)
    assert zone(st, "hand", 1) == ["c"]
    assert zone(st, "hand", 0) == []
    assert zone(st, "table") == []
    assert counter(st, "vp", 0) == 1
    assert counter(st, "vp", 1) == 1


def test_reveal_shows_a_hidden_card_until_it_moves(tmp_path):
    game = toy(tmp_path, ZONES + PASS + """
flow: |
  move top(deck) to hand(0)
  move top(deck) to hand(0)
  reveal top(hand(0))
  turn 0:
    take actions main
  move top(hand(0)) to deck
  turn 1:
    take actions main
""")
    st = game.new_initial_state(2, seed=0)
    hand0 = [st.card_text(i) for i in st.zones[st.layout.zbase[2]]]
    seen_by_1 = st.observation(1)["zones"]["hand"][0]
    assert seen_by_1["count"] == 2 and "cards" not in seen_by_1
    assert seen_by_1["revealed"] == [hand0[-1]]
    assert hand0[0] not in str(st.observation(1))
    assert st.observation(0)["zones"]["hand"][0]["cards"] == sorted(hand0)
    play(st, "pass")
    assert "revealed" not in st.observation(1)["zones"]["hand"][0]
    assert "revealed" not in st.observation(1)["zones"]["deck"]


# ---- choices --------------------------------------------------------------------------------


CHOICE = COUNTERS + """
zones:
  hand: {scope: player, visible: owner}
  table: {scope: global, visible: all}
cards:
  a: {name: A, count: 3, in: table}
"""


def test_choose_waits_for_the_chooser_and_binds_the_answer(tmp_path):
    st = run_flow(tmp_path, """
choose n from [3, 1, 4] prompt "how many?"
set pool to n
choose c from table
move c to hand(0)
""", CHOICE)
    assert st.current_player() == 0
    assert texts(st) == ["3", "1", "4"]
    assert st.prompt() == "how many?"
    assert st.observation(0)["decision"]["prompt"] == "how many?"
    assert "decision" not in st.observation(1)
    play(st, "4")
    assert counter(st, "pool") == 4
    assert texts(st) == ["a#0", "a#1", "a#2"]
    play(st, "a#1")
    assert st.is_terminal()
    assert [st.card_text(i) for i in st.zones[st.layout.zbase[0]]] == ["a#1"]
    assert st.history == ["4", "a#1"]


def test_choose_from_one_option_or_none_does_not_ask(tmp_path):
    st = run_flow(tmp_path, """
choose n from [7]
set pool to n
choose m from [i for i in range(5) if i > 10]
if m == none:
  set mark[0] to 1
""", CHOICE)
    assert st.is_terminal() and st.history == []
    assert counter(st, "pool") == 7
    assert counter(st, "mark") == [1, 0, 0]


def test_equal_options_are_one_answer(tmp_path):
    st = run_flow(tmp_path, """
choose n from [3, 3, 4, 3]
set pool to n
choose up to 3 ns from [1, 1, 2]
set mark[0] to len(ns)
""", CHOICE)
    assert texts(st) == ["3", "4"]
    play(st, "3")
    assert texts(st) == ["1", "2", "done"]
    play(st, "1")
    assert texts(st) == ["2", "done"]  # the other 1 is the same answer: not offered again
    play(st, "2")
    assert counter(st, "mark")[0] == 2
    # And when the repeats leave one option, it is taken without asking.
    st = run_flow(tmp_path, "choose n from [5, 5]\nset pool to n", CHOICE)
    assert st.is_terminal() and counter(st, "pool") == 5


def test_equal_parameter_values_are_one_action(tmp_path):
    st = run_flow(tmp_path, "turn 0:\n  take actions main", COUNTERS + """
actions:
  take: {during: main, params: {n: "[1, 1, 2]"}, effect: "gain n vp", ends: turn}
""")
    assert texts(st) == ["take 1", "take 2"]


def test_choose_players_and_strings_have_canonical_texts(tmp_path):
    st = run_flow(tmp_path, """
choose p from players
choose w from ["north", "south west"]
set pool to p
""", CHOICE)
    assert texts(st) == ["P1", "P2"]
    play(st, "P2")
    assert texts(st) == ["north", '"south west"']
    play(st, '"south west"')
    assert counter(st, "pool") == 1


def test_choose_up_to_with_done(tmp_path):
    st = run_flow(tmp_path, """
choose up to 2 picked from [10, 20, 30]
set pool to sum(picked)
set mark[0] to len(picked)
choose up to 3 again from [1, 2]
set mark[1] to sum(again)
""", CHOICE)
    assert texts(st) == ["10", "20", "30", "done"]
    play(st, "20")
    assert texts(st) == ["10", "30", "done"]  # a picked option is not offered again
    play(st, "10")  # two picked: the limit, no more asking
    assert counter(st, "pool") == 30
    assert counter(st, "mark")[0] == 2
    play(st, "done")  # nothing picked is allowed
    assert st.is_terminal()
    assert counter(st, "mark")[1] == 0


def test_choose_up_to_stops_when_options_run_out(tmp_path):
    st = run_flow(tmp_path, "choose up to 5 xs from [1, 2]\nset pool to sum(xs) + 100 * len(xs)", CHOICE)
    play(st, "2", "1")
    assert st.is_terminal()
    assert counter(st, "pool") == 203


def test_choose_one_with_when_options(tmp_path):
    flow = """
choose one prompt "pick":
  "gain two" when gold(0) >= 3:
    gain 2 vp(0)
  "gain one":
    gain 1 vp(0)
  "never" when false:
    set pool to 99
set pool to pool + 1
"""
    st = run_flow(tmp_path, flow, COUNTERS)
    assert texts(st) == ['"gain two"', '"gain one"']
    assert st.prompt() == "pick"
    play(st, '"gain two"')
    assert counter(st, "vp", 0) == 2 and counter(st, "pool") == 1
    # With only one open option, it is taken without asking.
    st = run_flow(tmp_path, flow.replace("gold(0) >= 3", "gold(0) >= 4"), COUNTERS)
    assert st.is_terminal() and counter(st, "vp", 0) == 1


def test_choose_one_with_no_open_option_skips(tmp_path):
    st = run_flow(tmp_path, """
choose one:
  "x" when false:
    set pool to 1
  "y" when false:
    set pool to 2
set mark[0] to 5
""", COUNTERS)
    assert st.is_terminal() and counter(st, "pool") == 0 and counter(st, "mark")[0] == 5


def test_choice_by_a_player_who_is_not_active(tmp_path):
    st = run_flow(tmp_path, """
turn 0:
  choose one by next_player(me) prompt "accept the trade?":
    "accept":
      gain 1 vp(1)
      gain 1 vp(0)
    "refuse":
      set pool to 1
  choose n from [1, 2] by 1
  set mark[0] to n
  set mark[1] to active
""", COUNTERS, players=3)
    assert st.current_player() == 1
    assert st.active == 0
    assert "decision" in st.observation(1) and "decision" not in st.observation(0)
    with pytest.raises(IllegalActionError):
        st.apply_action("nope")
    assert st.legal_actions(0) == [] and len(st.legal_actions(1)) == 2
    play(st, "accept")
    assert st.current_player() == 1
    play(st, "2")
    assert counter(st, "vp", 0) == 1 and counter(st, "vp", 1) == 1
    assert counter(st, "mark")[:2] == [2, 0]


# ---- control flow ------------------------------------------------------------------------------


@pytest.mark.parametrize(("gold", "expected"), [(0, 1), (5, 2), (9, 3)])
def test_if_elif_else(tmp_path, gold, expected):
    st = run_flow(tmp_path, f"""
set gold(0) to {gold}
if gold(0) < 3:
  set pool to 1
elif gold(0) < 7:
  set pool to 2
else:
  set pool to 3
""", COUNTERS)
    assert counter(st, "pool") == expected


def test_if_one_line_suite(tmp_path):
    st = run_flow(tmp_path, "if true: set pool to 4\nif false: set pool to 5", COUNTERS)
    assert counter(st, "pool") == 4


def test_for_each_over_players_list_and_zone(tmp_path):
    st = run_flow(tmp_path, """
for each p in players:
  gain p + 1 vp(p)
for each x in [5, 6]:
  set pool to pool * 10 + x
for each c in table:
  move c to hand(0)
""", CHOICE)
    assert counter(st, "vp", 0) == 1 and counter(st, "vp", 1) == 2
    assert counter(st, "pool") == 56
    assert zone(st, "hand", 0) == ["a", "a", "a"]  # the loop ran over a copy of the zone


def test_for_each_resumes_inside_the_loop_after_a_choice(tmp_path):
    st = run_flow(tmp_path, """
for each p in players:
  choose n from [1, 2] by p
  gain n vp(p)
""", COUNTERS)
    assert st.current_player() == 0
    play(st, "2")
    assert st.current_player() == 1
    play(st, "1")
    assert counter(st, "vp", 0) == 2 and counter(st, "vp", 1) == 1


def test_repeat_n_times(tmp_path):
    st = run_flow(tmp_path, "repeat 4:\n  gain 2 pool\nrepeat 0:\n  set pool to 0\nrepeat 2: gain 1 pool", COUNTERS)
    assert counter(st, "pool") == 10


def test_repeat_forever_until_end_game(tmp_path):
    st = run_flow(tmp_path, """
repeat forever:
  gain 1 pool
  if pool >= 7:
    end game winners [1]
""", COUNTERS)
    assert st.is_terminal()
    assert counter(st, "pool") == 7
    assert st.winners == [1]
    assert st.end_reason == "end-game"
    assert st.current_player() == TERMINAL


def test_while(tmp_path):
    st = run_flow(tmp_path, """
while pool < 20:
  set pool to pool * 2 + 1
while false:
  set pool to 0
""", COUNTERS)
    assert counter(st, "pool") == 31


def test_stop_leaves_the_current_effect_only(tmp_path):
    game = toy(tmp_path, COUNTERS + """
procedures:
  early:
    effect: |
      gain 1 pool
      if true:
        stop
      gain 100 pool
flow: |
  early()
  early()
  gain 10 pool
""")
    st = game.new_initial_state(2)
    assert counter(st, "pool") == 12


def test_log_with_template(tmp_path):
    st = run_flow(tmp_path, 'set pool to 3\nlog "pool is {pool}, P{me + 1} acts, {seat(0)}"', COUNTERS)
    assert st.log[-1] == "pool is 3, P1 acts, random"


# ---- turns, rounds, actions ------------------------------------------------------------------


TURNS = COUNTERS + """
modifiers:
  boost: {value: power, op: add, amount: "10", granted: true}
values:
  power: {of: player, base: "1"}
actions:
  buy:
    during: main
    cost: {gold: "2"}
    effect: "gain 1 vp"
    limit: {per_turn: 1}
  charge:
    during: main
    effect: |
      grant boost to me until end of turn
      set pool to power(me)
    limit: {per_round: 1}
  once:
    during: main
    effect: "gain 1 pool"
    limit: {per_game: 1}
  end_turn: {during: main, ends: turn, label: "end my turn"}
"""


def test_take_actions_with_costs_and_per_turn_limits(tmp_path):
    st = run_flow(tmp_path, """
repeat 2:
  round:
    for each p in players:
      turn p:
        take actions main
""", TURNS.replace('initial: 3}', 'initial: 5}'))
    assert texts(st) == ["buy", "charge", "once", "end_turn"]
    play(st, "buy")
    assert counter(st, "gold", 0) == 3 and counter(st, "vp", 0) == 1
    assert "buy" not in texts(st)  # once per turn
    play(st, "once", "end_turn")
    assert st.current_player() == 1
    assert texts(st) == ["buy", "charge", "once", "end_turn"]  # limits are per player
    play(st, "end_turn")
    # Round 2: per-turn limit reset, per-game not.
    assert st.current_player() == 0
    assert texts(st) == ["buy", "charge", "end_turn"]
    play(st, "buy")
    assert counter(st, "gold", 0) == 1
    play(st, "end_turn", "buy")
    assert counter(st, "gold", 1) == 3
    play(st, "end_turn")
    assert st.is_terminal()


def test_cost_makes_unaffordable_actions_illegal(tmp_path):
    st = run_flow(tmp_path, "turn 0:\n  take actions main", TURNS.replace('initial: 3}', 'initial: 1}'))
    assert "buy" not in texts(st)
    with pytest.raises(IllegalActionError, match="not a legal action"):
        st.apply_action("buy")


def test_per_round_limit_and_grant_until_end_of_turn(tmp_path):
    st = run_flow(tmp_path, """
round:
  turn 0:
    take actions main
  set mark[0] to power(0)
  turn 0:
    take actions main
round:
  turn 0:
    take actions main
""", TURNS)
    play(st, "charge")
    assert counter(st, "pool") == 11  # granted for the rest of the turn
    assert "charge" not in texts(st)
    play(st, "end_turn")
    assert counter(st, "mark")[0] == 1  # the grant expired with the turn
    assert "charge" not in texts(st)  # still the same round
    play(st, "end_turn")
    assert "charge" in texts(st)  # a new round


def test_grant_until_end_of_round_and_game(tmp_path):
    st = run_flow(tmp_path, """
round:
  grant boost to 0 until end of round
  grant boost to 1 until end of game
  set mark[0] to power(0) + power(1)
round:
  set mark[1] to power(0) + power(1)
  if has_grant("boost", 1) and not has_grant("boost", 0):
    set mark[2] to 1
""", TURNS)
    assert counter(st, "mark") == [22, 12, 1]


def test_take_actions_for_another_player(tmp_path):
    st = run_flow(tmp_path, "turn 0:\n  take actions main for 1\n  set pool to 1", TURNS)
    assert st.current_player() == 1 and st.active == 0
    play(st, "buy")
    assert counter(st, "vp", 1) == 1
    play(st, "end_turn")
    assert counter(st, "pool") == 1


def test_take_actions_with_nothing_legal_moves_on(tmp_path):
    st = run_flow(tmp_path, """
turn 0:
  take actions main
  set pool to 9
""", COUNTERS + """
actions:
  never: {during: main, condition: "false", ends: turn}
""")
    assert st.is_terminal() and counter(st, "pool") == 9


def test_action_params_condition_label_and_canonical_text(tmp_path):
    st = run_flow(tmp_path, "turn 0:\n  take actions main", COUNTERS + """
zones:
  table: {scope: global, visible: all}
  hand: {scope: player, visible: owner}
cards:
  a: {name: A, count: 2, in: table}
actions:
  take:
    during: main
    params: {c: "table", n: "[i for i in range(1, 4) if i <= gold(me)]"}
    condition: "n != 2"
    effect: |
      move c to hand(me)
      set pool to n
    ends: turn
    label: "take {c} paying {n}"
  aim:
    during: main
    params: {p: "[q for q in players if q != me]"}
    effect: "set pool to 100 + p"
    ends: turn
""")
    assert texts(st) == ["take a#0 1", "take a#0 3", "take a#1 1", "take a#1 3", "aim P2"]
    play(st, "take a#1 3")
    assert counter(st, "pool") == 3 and zone(st, "hand", 0) == ["a"]


def test_turn_and_round_numbers_and_events(tmp_path):
    st = run_flow(tmp_path, """
repeat 2:
  round:
    for each p in players_from(1, "clockwise"):
      turn p:
        gain 1 pool
""", COUNTERS + """
triggers:
  t-start: {on: turn_start, effect: "gain 1 vp(player)"}
  t-end: {on: turn_end, effect: "set mark[player] to turn_number"}
  r-start: {on: round_start, effect: "set mark[2] to round_number * 10"}
  r-end: {on: round_end, effect: "gain 1 res(0)[\\"fuel\\"]"}
""")
    assert st.round_no == 2 and st.turn_no == 4
    assert counter(st, "vp", 0) == 2 and counter(st, "vp", 1) == 2
    assert counter(st, "mark") == [4, 3, 20]  # P2 then P1 each round
    assert counter(st, "res", 0)["fuel"] == 2


# ---- procedures, use, events, triggers ---------------------------------------------------------


def test_procedure_calls_with_params(tmp_path):
    game = toy(tmp_path, COUNTERS + """
procedures:
  reward:
    params: [who, n]
    effect: |
      gain n vp(who)
      twice(who)
  twice:
    params: [who]
    effect: |
      gain 2 gold(who)
      set pool to me
flow: |
  turn 1:
    reward(0, 2)
""")
    st = game.new_initial_state(2)
    assert counter(st, "vp", 0) == 2
    assert counter(st, "gold", 0) == 5
    assert counter(st, "pool") == 1  # `me` carries into procedures


def test_use_runs_a_cards_named_effect_with_this(tmp_path):
    game = toy(tmp_path, COUNTERS + """
zones:
  hand: {scope: player, visible: owner}
cards:
  fire: {name: Fire, count: 0, properties: {power: 3}, effects: {play: "gain this.power vp(me)\\nset pool to 1"}}
  dud: {name: Dud, count: 0}
flow: |
  create 1 "fire" in hand(0)
  create 1 "dud" in hand(0)
  for each c in hand(0):
    use c "play"
  use none "play"
""")
    st = game.new_initial_state(2)
    assert counter(st, "vp", 0) == 3 and counter(st, "pool") == 1


def test_emit_custom_event_runs_triggers_before_the_next_statement(tmp_path):
    game = toy(tmp_path, COUNTERS + """
events:
  scored: {params: [who, amount]}
triggers:
  on-score:
    on: scored
    when: "amount > 1"
    effect: |
      gain amount vp(who)
      set pool to mark[0]
  on-score-2:
    on: scored
    effect: "gain 1 gold(who)"
flow: |
  emit scored(1, 3)
  set mark[0] to 5
  emit scored(0, 1)
""")
    st = game.new_initial_state(2)
    assert counter(st, "vp", 1) == 3 and counter(st, "vp", 0) == 0
    assert counter(st, "gold", 1) == 4 and counter(st, "gold", 0) == 4
    assert counter(st, "pool") == 0  # the first trigger ran before `set mark[0] to 5`


def test_changed_entered_left_triggers(tmp_path):
    game = toy(tmp_path, COUNTERS + """
zones:
  hand: {scope: player, visible: owner}
  table: {scope: global, visible: all}
cards:
  a: {name: A, count: 0}
triggers:
  on-vp:
    on: changed vp
    effect: "set mark[0] to old * 10 + new + 100 * player"
  on-res:
    on: changed res
    when: "key == \\"fuel\\""
    effect: "gain 1 pool"
  on-enter:
    on: entered hand
    effect: "gain 1 gold(player)"
  on-leave:
    on: left table
    effect: "set mark[1] to mark[1] + 1"
flow: |
  set vp(1) to 3
  gain 2 vp(1)
  gain 1 res(0)["iron"]
  gain 1 res(0)["fuel"]
  create 2 "a" in table
  move table to hand(1)
  destroy hand(1)
""")
    st = game.new_initial_state(2)
    assert counter(st, "mark")[:2] == [135, 2]
    assert counter(st, "pool") == 1
    assert counter(st, "gold", 1) == 5


CARD_BOUND = COUNTERS + """
zones:
  hand: {scope: player, visible: owner}
  play_area: {scope: player, visible: all}
cards:
  patron:
    name: Patron
    count: 0
    active_in: [play_area]
    triggers:
      pay-out:
        on: changed vp
        when: "player == owner"
        effect: "gain 1 gold(owner)"
    modifiers:
      bigger: {value: reach, op: add, amount: "2"}
values:
  reach: {of: player, base: "1"}
"""


def test_card_bound_triggers_and_modifiers_only_in_active_zones(tmp_path):
    game = toy(tmp_path, CARD_BOUND + """
flow: |
  create 1 "patron" in hand(0)
  gain 1 vp(0)
  set mark[0] to reach(0)
  move hand(0) to play_area(0)
  gain 1 vp(0)
  gain 1 vp(1)
  set mark[1] to reach(0)
  set mark[2] to reach(1)
""")
    st = game.new_initial_state(2)
    assert counter(st, "gold", 0) == 4  # only the gain while the patron was in play
    assert counter(st, "gold", 1) == 3
    assert counter(st, "mark") == [1, 3, 1]


def test_card_bound_triggers_fire_once_per_copy(tmp_path):
    game = toy(tmp_path, CARD_BOUND + """
flow: |
  create 2 "patron" in play_area(1)
  gain 1 vp(1)
""")
    st = game.new_initial_state(2)
    assert counter(st, "gold", 1) == 5


# ---- values and modifiers ---------------------------------------------------------------------------


@pytest.mark.parametrize(("op", "amount", "expected"), [
    ("add", "2", 5), ("set", "7", 7), ("max", "4", 4), ("max", "1", 3), ("min", "1", 1), ("min", "9", 3),
])
def test_modifier_ops(tmp_path, op, amount, expected):
    game = toy(tmp_path, COUNTERS + f"""
values:
  size: {{of: player, base: "3"}}
modifiers:
  m: {{value: size, op: {op}, amount: "{amount}", when: "gold(p) > 0"}}
flow: |
  set vp(0) to size(0)
  set gold(1) to 0
  set pool to size(1)
""")
    st = game.new_initial_state(2)
    assert counter(st, "vp", 0) == min(expected, 5)
    assert counter(st, "pool") == 3  # `when` false for P2


def test_modifiers_apply_in_order_and_global_values(tmp_path):
    game = toy(tmp_path, COUNTERS + """
values:
  limit: {of: none, base: "10"}
  shielded: {of: player, base: "false"}
modifiers:
  plus: {value: limit, op: add, amount: "5"}
  cap: {value: limit, op: min, amount: "12"}
  shield: {value: shielded, op: set, amount: "true", granted: true}
flow: |
  set pool to limit
  grant shield to 1 until end of game
  if shielded(1) and not shielded(0):
    set mark[0] to 1
""")
    st = game.new_initial_state(2)
    assert counter(st, "pool") == 12
    assert counter(st, "mark")[0] == 1


# ---- ending ---------------------------------------------------------------------------------------


END_GAME = COUNTERS + """
actions:
  score: {during: main, effect: "gain 1 vp"}
  done: {during: main, ends: turn}
flow: |
  repeat 3:
    round:
      for each p in players:
        turn p:
          take actions main
  set pool to 1
"""


def test_end_check_action_ends_immediately(tmp_path):
    game = toy(tmp_path, END_GAME + """
end:
  - {id: two, check: action, when: "max([vp(p) for p in players]) >= 2", winners: "[me]"}
""")
    st = game.new_initial_state(2)
    play(st, "score")
    assert not st.is_terminal()
    play(st, "score")
    assert st.is_terminal() and st.winners == [0] and st.end_reason == "two"
    assert st.returns() == [1.0, -1.0]
    with pytest.raises(GameError, match="over"):
        st.apply_action("score")


def test_end_check_action_names_the_player_who_acted_even_when_the_turn_ended(tmp_path):
    # The action that reaches the goal also ends the turn: `me` is still its player,
    # not the next player whose decision comes first.
    game = toy(tmp_path, COUNTERS + """
actions:
  score: {during: main, effect: "gain 1 vp", ends: turn}
flow: |
  repeat forever:
    for each p in players:
      turn p:
        take actions main
end:
  - {id: three, check: action, when: "max([vp(p) for p in players]) >= 3", winners: "[me]"}
""")
    st = game.new_initial_state(2)
    play(st, "score", "score", "score", "score", "score")
    assert st.is_terminal() and st.winners == [0] and st.end_reason == "three"


def test_end_check_action_sees_the_actions_triggers(tmp_path):
    game = toy(tmp_path, COUNTERS + """
actions:
  score: {during: main, effect: "gain 1 pool", ends: turn}
triggers:
  bonus: {on: changed pool, effect: "gain 2 vp(me)"}
flow: |
  repeat forever:
    for each p in players:
      turn p:
        take actions main
end:
  - {id: four, check: action, when: "vp(me) >= 4", winners: "[me]"}
""")
    st = game.new_initial_state(2)
    play(st, "score", "score", "score")
    assert st.is_terminal() and st.winners == [0]


@pytest.mark.parametrize("end", [
    '{id: two, check: turn, when: "max([vp(p) for p in players]) >= 2"}',  # checked as the turn ends
    '{id: two, check: action, when: "vp(0) >= 2", then: finish_turn}',  # seen at once, ends with the turn
])
def test_end_at_the_end_of_the_turn(tmp_path, end):
    game = toy(tmp_path, END_GAME + f"""
end:
  - {end}
scoring: {{score: "vp(p)"}}
""")
    st = game.new_initial_state(2)
    play(st, "score", "score", "score")
    assert not st.is_terminal()
    play(st, "done")
    assert st.is_terminal() and st.winners == [0] and st.end_reason == "two"


def test_end_then_finish_round(tmp_path):
    game = toy(tmp_path, END_GAME + """
end:
  - {id: two, check: action, when: "max([vp(p) for p in players]) >= 2", then: finish_round}
scoring: {score: "vp(p)"}
""")
    st = game.new_initial_state(2)
    play(st, "score", "score")
    assert not st.is_terminal() and st.current_player() == 0  # the round goes on
    play(st, "done")
    assert st.current_player() == 1
    play(st, "score", "score", "score")
    assert not st.is_terminal()
    play(st, "done")
    assert st.is_terminal() and st.winners == [1] and st.end_reason == "two"
    assert counter(st, "pool") == 0


def test_end_check_round(tmp_path):
    game = toy(tmp_path, END_GAME + """
end:
  - {id: late, check: round, when: "round_number >= 2", winners: "players"}
""")
    st = game.new_initial_state(2)
    play(st, "done", "done")
    assert not st.is_terminal()
    play(st, "done", "done")
    assert st.is_terminal() and st.winners == [0, 1] and st.end_reason == "late"
    assert st.returns() == [0.0, 0.0]  # everyone won


def test_flow_running_out_ends_the_game_with_scoring(tmp_path):
    game = toy(tmp_path, END_GAME + 'scoring: {score: "vp(p)"}\n')
    st = game.new_initial_state(2)
    play(st, "done", "score", "done", "done", "done", "done", "done")
    assert st.is_terminal() and st.winners == [1] and st.end_reason == "flow-ended"


SCORING = COUNTERS + """
flow: |
  set vp(0) to 3
  set vp(1) to 3
  set vp(2) to 3
  set vp(3) to 1
  set gold(0) to 1
  set gold(1) to 2
  set gold(2) to 2
"""


@pytest.mark.parametrize(("scoring", "winners"), [
    ('{score: "vp(p)"}', [0, 1, 2]),  # tie: shared victory
    ('{score: "vp(p)", tie_breaks: ["gold(p)"]}', [1, 2]),
    ('{score: "vp(p)", tie_breaks: ["gold(p)", "0 - p"]}', [1]),
    ('{eligible: "p != 1", score: "vp(p)", tie_breaks: ["gold(p)"]}', [2]),
    ('{eligible: "false", score: "vp(p)"}', []),
    ('{score: "0 - vp(p)"}', [3]),
])
def test_scoring_eligible_tie_breaks_and_shared_victory(tmp_path, scoring, winners):
    game = toy(tmp_path, SCORING.replace("players: {min: 2", "") + "players: {min: 4, max: 4}\nscoring: " + scoring)
    st = game.new_initial_state(4)
    assert st.winners == winners
    expected = [0.0] * 4 if len(winners) in (0, 4) else [1.0 if p in winners else -1.0 for p in range(4)]
    assert st.returns() == expected


def test_returns_expression(tmp_path):
    game = toy(tmp_path, SCORING.replace("players: {min: 2", "") + "players: {min: 4, max: 4}\n"
               + 'scoring: {score: "vp(p)", returns: "vp(p) * 2 - gold(p)"}')
    st = game.new_initial_state(4)
    assert st.returns() == [5.0, 4.0, 4.0, -1.0]


# ---- bots written as data -----------------------------------------------------------------------


BOTS = COUNTERS + """
actions:
  up: {during: main, effect: "gain 1 vp", ends: turn}
  down: {during: main, effect: "gain 1 gold", ends: turn}
bots:
  roller:
    description: rolls a die
    turn: |
      if random(1, 6) <= 3:
        gain 1 pool
      choose x from [1, 2, 3]
      gain x vp(me)
    choose: random
  picker:
    turn: |
      choose x from [1, 2, 3]
      gain x vp(me)
      choose one:
        "a":
          set mark[me] to 1
        "b":
          set mark[me] to 2
    choose: first
  plain:
    choose: first
flow: |
  repeat 3:
    for each p in players:
      turn p:
        take actions main
        choose y from [5, 6]
        set res(p)["fuel"] to y
"""


def test_bot_with_first_choices_plays_inside_the_state(tmp_path):
    game = toy(tmp_path, BOTS)
    st = game.new_initial_state(2, seats=["picker", "random"])
    # P1's bot turn ran: first choices, then the flow's own choice is answered too.
    assert counter(st, "vp", 0) == 1 and counter(st, "mark")[0] == 1
    assert counter(st, "res", 0)["fuel"] == 5
    assert st.current_player() == 1 and st.history == []
    play(st, "up", "6")
    assert st.current_player() == 1 and counter(st, "vp", 0) == 2


def test_bot_random_choices_are_deterministic_per_seed(tmp_path):
    game = toy(tmp_path, BOTS)
    runs = []
    for seed in (4, 4, 5, 6, 7):
        st = game.new_initial_state(2, seed=seed, seats=["roller", "roller"])
        assert st.is_terminal()
        runs.append((counter(st, "vp", 0), counter(st, "vp", 1), counter(st, "pool"), st.to_json()))
    assert runs[0] == runs[1]
    assert len({r[:3] for r in runs}) > 1


def test_bot_without_turn_takes_actions_with_its_choose_rule(tmp_path):
    game = toy(tmp_path, BOTS)
    st = game.new_initial_state(2, seats=["random", "plain"])
    play(st, "down", "5")
    # P2 is a bot without a turn effect: it takes its actions itself, inside the state,
    # by its `choose` rule (first: "up", then the flow's choice 5); only the outside
    # world's decisions go to the history, the bot's go to the game log.
    assert st.current_player() == 0
    assert counter(st, "vp", 1) == 1 and counter(st, "res", 1)["fuel"] == 5
    assert st.history == ["down", "5"]
    assert "P2 (plain): up" in st.log


def test_unknown_seat_is_an_error(tmp_path):
    game = toy(tmp_path, BOTS)
    with pytest.raises(GameError, match="unknown seat 'robot'"):
        game.new_initial_state(2, seats=["robot", "random"])
    assert "roller" in game.seat_kinds()


# ---- expressions and every built-in function -------------------------------------------------------


BUILTIN_GAME = """
players: {min: 3, max: 3}
constants:
  table_of: {water: {primary: water, secondary: [iron, fuel]}, n: 4}
  grid: [[1, 2], [3, 4]]
counters:
  ok: {scope: global, size: CHECKS, initial: 0}
  vp: {scope: player, initial: 0}
zones:
  table: {scope: global, visible: all}
  hand: {scope: player, visible: owner}
cards:
  a: {name: A, count: 2, in: table, properties: {rank: 1}}
  b: {name: B, count: 1, in: table, properties: {rank: 2}}
modifiers:
  lucky: {value: luck, op: add, amount: "1", granted: true}
values:
  luck: {of: player, base: "0"}
actions:
  buy: {during: main, effect: "gain 1 vp"}
  stop_here: {during: main, ends: turn}
bots:
  dummy: {choose: first}
"""

# (built-in, [expressions that must be true]); run inside `round: turn 1:` after setup:
# hand(1) holds one "a" (moved from table), table holds a, b (b on top).
BUILTIN_CASES = {
    "players": ["players == [0, 1, 2]", "len(players) == 3"],
    "player_count": ["player_count == 3"],
    "me": ["me == 1"],
    "active": ["active == 1"],
    "round_number": ["round_number == 1"],
    "turn_number": ["turn_number == 1"],
    "len": ["len([4, 5, 6]) == 3", "len(hand(1)) == 1", "len(table) == 2", "len([]) == 0"],
    "count": ["count(hand(1)) == 1", "count([i for i in range(10) if i % 3 == 0]) == 4"],
    "size": ["size(table) == 2"],
    "sum": ["sum([1, 2, 3]) == 6", "sum([]) == 0", "sum([c.rank for c in table]) == 3"],
    "min": ["min([3, 1, 2]) == 1", "min(4, 2) == 2", "min(5, 6, 1, 9) == 1", "min([]) == none"],
    "max": ["max([3, 1, 2]) == 3", "max(4, 2) == 4", "max([c.rank for c in table]) == 2"],
    "any": ["any([false, true])", "not any([])", "any([c.rank == 2 for c in table])"],
    "all": ["all([true, true])", "all([])", "not all([true, false])"],
    "range": ["range(3) == [0, 1, 2]", "range(1, 4) == [1, 2, 3]", "range(0) == []"],
    "random": ["all([random(1, 6) >= 1 for i in range(50)])", "all([random(1, 6) <= 6 for i in range(50)])",
               "random(4, 4) == 4"],
    "pick_random": ["pick_random([7, 8, 9]) in [7, 8, 9]", "pick_random([]) == none",
                    "zone_of(pick_random(table)) == \"table\""],
    "top": ["top(table).id == \"b\"", "top(table, 2) == reversed(table)", "top([1, 2, 3]) == 3",
            "top(hand(0)) == none", "top(table, 0) == []"],
    "bottom": ["bottom(table).id == \"a\"", "bottom(table, 1) == [bottom(table)]", "bottom([1, 2, 3]) == 1",
               "bottom(table, -1) == []"],
    "owner": ["owner(top(hand(1))) == 1", "owner(top(table)) == none"],
    "zone_of": ["zone_of(top(hand(1))) == \"hand\"", "zone_of(top(table)) == \"table\""],
    "next_player": ["next_player(2) == 0", "next_player(0, \"counterclockwise\") == 2",
                    "next_player(me, \"clockwise\") == 2"],
    "players_from": ["players_from(1, \"clockwise\") == [1, 2, 0]",
                     "players_from(1, \"counterclockwise\") == [1, 0, 2]", "players_from(2) == [2, 0, 1]"],
    "seat": ["seat(0) == \"random\"", "seat(2) == \"dummy\""],
    "sorted": ["sorted([3, 1, 2]) == [1, 2, 3]", "sorted([\"b\", \"a\"]) == [\"a\", \"b\"]"],
    "reversed": ["reversed([1, 2, 3]) == [3, 2, 1]", "reversed([]) == []"],
    "index_of": ["index_of([5, 6, 7], 6) == 1", "index_of([5], 9) == -1", "index_of(players, 2) == 2"],
    # Built-ins the engine has beyond the documented list.
    "abs": ["abs(0 - 4) == 4", "abs(-3) == 3"],
    "exists": ["exists(top(table))", "not exists(top(hand(0)))"],
    "cards_named": ["len(cards_named(\"a\", table)) == 1", "cards_named(\"b\", hand(1)) == []"],
    "has_grant": ["has_grant(\"lucky\", 2)", "not has_grant(\"lucky\", 1)", "luck(2) == 1"],
    "uses": ["uses(\"buy\") == 0"],
    "is_bot": ["is_bot(2)", "not is_bot(0)"],
    "shuffled": ["sorted(shuffled([3, 1, 2])) == [1, 2, 3]", "len(shuffled(table)) == 2"],
    # Operators and data access.
    "operators": ["7 / 2 == 3", "-7 / 2 == -3", "7 % 3 == 1", "2 + 3 * 4 == 14", "(2 + 3) * 4 == 20",
                  "-(2) == 0 - 2", "1 < 2 and 2 <= 2 and 3 > 2 and 3 >= 3 and 1 != 2",
                  "3 in [1, 2, 3] and 4 not in [1, 2, 3]", "not (true and false) and (false or true)",
                  "[1] + [2] == [1, 2]", "\"iron\" in table_of.water.secondary"],
    "access": ["table_of.water.primary == \"water\"", "table_of[\"n\"] == 4", "grid[1][0] == 3",
               "[x * 2 for x in grid[0]] == [2, 4]", "[r for r in [c.rank for c in table] if r > 1] == [2]"],
}


@pytest.mark.parametrize("name", list(BUILTIN_CASES))
def test_builtin(tmp_path, name):
    checks = BUILTIN_CASES[name]
    lines = [f"if {expr}:\n        set ok[{i}] to 1" for i, expr in enumerate(checks)]
    body = "\n      ".join(lines)
    game = toy(tmp_path, BUILTIN_GAME.replace("CHECKS", str(len(checks) + 1)) + f"""
setup: |
  move top(table, 3)[2] to hand(1)
  grant lucky to 2 until end of game
flow: |
  round:
    turn 1:
      {body}
""")
    st = game.new_initial_state(3, seed=11, seats=["random", "random", "dummy"])
    assert st.is_terminal()
    results = counter(st, "ok")[:len(checks)]
    failed = [expr for expr, ok in zip(checks, results, strict=True) if not ok]
    assert not failed, f"false: {failed}"


def test_random_is_deterministic_and_varies_with_the_seed(tmp_path):
    game = toy(tmp_path, """
counters:
  rolls: {scope: global, size: 8, initial: 0}
flow: |
  for each i in range(8):
    set rolls[i] to random(1, 6)
""")
    seen = [counter(game.new_initial_state(2, seed=s), "rolls") for s in (3, 3, 4)]
    assert seen[0] == seen[1]
    assert seen[0] != seen[2]
    assert all(1 <= r <= 6 for r in seen[0] + seen[2])
    assert len(set(seen[0] + seen[2])) > 2


def test_uses_counts_the_actions_taken_this_turn(tmp_path):
    game = toy(tmp_path, """
counters:
  seen: {scope: player, initial: -1}
actions:
  buy: {during: main, limit: {per_turn: 3}}
  look: {during: main, effect: "set seen to uses(\\"buy\\")", ends: turn}
flow: |
  turn 0:
    take actions main
""")
    st = game.new_initial_state(2)
    play(st, "buy", "buy", "look")
    assert counter(st, "seen", 0) == 2


def test_division_by_zero_is_a_rule_error_with_position(tmp_path):
    game_path = write_toy(tmp_path, COUNTERS + "flow: |\n  set pool to 1\n  set pool to 5 / (pool - 1)\n")
    with pytest.raises(GameError) as caught:
        load_game(str(game_path)).new_initial_state(2)
    line, column = find_column(game_path, "set pool to 5 /")
    assert str(caught.value).startswith(f"{game_path}:{line}:{column} (flow): division by zero")


# ---- error text: syntax --------------------------------------------------------------------------


def broken(tmp_path, text: str):
    """Load a toy that must fail; returns (its path, its diagnostics)."""
    path = write_toy(tmp_path, text)
    with pytest.raises(RuleFileError) as caught:
        load_game(str(path))
    return path, caught.value.diagnostics


def assert_plain(diagnostic) -> None:
    words = diagnostic.message + " " + (diagnostic.hint or "")
    assert not LARK_WORDS.search(words), f"Lark's names leak: {words}"
    assert "Traceback" not in words and "lark" not in words.lower()


def assert_caret(diagnostic, line_text: str) -> None:
    shown = diagnostic.format().splitlines()
    assert shown[1].strip() == line_text.strip()
    caret = shown[2]
    assert caret.strip().startswith("^")
    # The caret sits under the column the diagnostic names.
    assert caret.index("^") - shown[1].index(line_text.strip()[0]) == diagnostic.column - 1 - (
        len(line_text) - len(line_text.lstrip()))


COUNTERS_ONLY = "counters:\n  pool: {scope: global}\n  vp: {scope: player}\n"


@pytest.mark.parametrize(("case", "text", "needle", "offset", "words"), [
    ("missing colon", "if pool > 1\n    gain 1 pool", "if pool > 1", len("if pool > 1"), "expected ':'"),
    ("missing colon on else", "if true:\n    gain 1 pool\n  else\n    stop", "else", 4, "expected ':'"),
    ("unclosed paren", "let x = (1 + 2\n  set pool to x", "set pool to x", 0, "')'"),
    ("unclosed paren at the end", "let x = max(1, 2", "let x = max(1, 2", len("let x = max(1, 2"), "')'"),
    ("unclosed bracket", "let x = [1, 2\n  gain 1 pool", "gain 1 pool", 0, "']'"),
    ("bad indentation", "let x = 1\n      let y = 2", "let y = 2", 0, "indentation"),
    ("dedent to nowhere", "if true:\n        let x = 1\n      let y = 2", "let y = 2", 0, "indentation"),
    ("block not indented", "if true:\n  gain 1 pool", "gain 1 pool", 0, "indented block"),
    ("single quotes", "log 'hello'", "'hello'", 0, "unexpected character"),
    ("unknown statement", "gian 1 pool", "gian", 0, "unknown statement 'gian'"),
    ("stray token", "gain 1 pool pool", "pool pool", 5, "unexpected 'pool'"),
    ("missing expression", "let x =", "let x =", len("let x ="), "expected"),
])
def test_syntax_errors_in_plain_words_at_the_right_place(tmp_path, case, text, needle, offset, words):
    path, found = broken(tmp_path, COUNTERS_ONLY + "flow: |\n  " + text + "\n")
    assert len(found) == 1, found
    d = found[0]
    assert d.code == "syntax"
    assert words in d.message
    assert_plain(d)
    line, column = find_column(path, needle)
    assert (d.path, d.line, d.column) == (str(path), line, column + offset)
    assert d.source_line is not None and d.source_line.strip()
    assert "^" in d.format()


def test_syntax_error_hints(tmp_path):
    _, found = broken(tmp_path, COUNTERS_ONLY + "flow: |\n  log 'hi'\n")
    assert found[0].hint == "strings use double quotes"
    _, found = broken(tmp_path, COUNTERS_ONLY + "flow: |\n  if true\n    stop\n")
    assert "':'" in found[0].hint
    _, found = broken(tmp_path, COUNTERS_ONLY + "flow: |\n  gian 1 pool\n")
    assert found[0].hint == "did you mean 'gain'?"
    _, found = broken(tmp_path, COUNTERS_ONLY + "flow: |\n  x = 1\n")
    assert "let x = " in found[0].hint


def test_syntax_error_caret_excerpt(tmp_path):
    path, found = broken(tmp_path, COUNTERS_ONLY + "flow: |\n  let x = 1\n  let y = (x + 2))\n")
    d = found[0]
    text = d.format()
    lines = text.splitlines()
    assert lines[0].startswith(f"{path}:{d.line}:{d.column}: error[syntax]: ")
    assert lines[1].strip() == "let y = (x + 2))"
    assert lines[2].index("^") == lines[1].index("))") + 1  # under the second ')'


def test_a_long_lines_excerpt_shows_the_part_around_the_place(tmp_path):
    """A line of thousands of characters is shown as some hundred around the place it
    points at, its cut ends marked, the caret still under the place."""
    long_sum = " + ".join(["1"] * 20000)
    _, found = broken(tmp_path, COUNTERS_ONLY + f"flow: |\n  set pool to {long_sum}\n")
    d = found[0]
    _, shown, caret = d.format().splitlines()[:3]
    assert len(shown) < 120 and shown.strip().startswith("...") and shown.endswith("...")
    full = d.source_line.rstrip("\n")
    place = full[d.column - 1:d.column + 9]
    assert shown[caret.index("^"):].startswith(place)  # the caret is under the place it points at
    short = broken(tmp_path, COUNTERS_ONLY + "flow: |\n  set pool to 1 +\n")[1][0].format().splitlines()
    assert "..." not in short[1]  # a short line is shown whole


def test_syntax_error_in_a_one_line_quoted_text(tmp_path):
    path, found = broken(tmp_path, COUNTERS_ONLY + "actions:\n  a: {during: main, effect: \"gain 1 pool)\"}\n"
                                                   "flow: |\n  take actions main\n")
    d = found[0]
    line, column = find_column(path, "pool)")
    assert (d.line, d.column) == (line, column + 4)
    assert_plain(d)


def test_syntax_error_in_an_expression_field(tmp_path):
    path, found = broken(tmp_path, COUNTERS_ONLY + "actions:\n  a:\n    during: main\n"
                                                   "    condition: \"pool >\"\nflow: |\n  take actions main\n")
    d = found[0]
    assert d.code == "syntax"
    assert d.line == find_line(path, "condition:")
    assert_plain(d)


def test_every_broken_text_is_reported_not_just_the_first(tmp_path):
    path, found = broken(tmp_path, COUNTERS_ONLY + """
procedures:
  first: {effect: "gain 1 pool)"}
  second: {effect: "let = 2"}
actions:
  third: {during: main, condition: "pool > ", effect: "stop"}
flow: |
  take actions main
  gian 2 pool
""")
    assert [d.code for d in found] == ["syntax"] * 4
    assert sorted(d.line for d in found) == sorted(
        find_line(path, n) for n in ("first:", "second:", "third:", "gian"))


# ---- error text: static checks ---------------------------------------------------------------------


STATIC = """
counters:
  score: {scope: player}
  pool: {scope: global}
zones:
  hand: {scope: player}
  deck: {scope: global}
cards:
  boost: {name: Boost, properties: {power: 1}}
procedures:
  deal: {params: [p, n], effect: "draw n from deck to hand(p)"}
actions:
  act: {during: main, effect: "stop"}
"""


@pytest.mark.parametrize(("text", "code", "needle", "words", "hint"), [
    ("gain 1 scroe", "bad-target", "scroe", "needs a counter", "did you mean 'score'?"),
    ("let x = scroe(0) + 1", "unknown-name", "scroe", "unknown function 'scroe'", "did you mean 'score'?"),
    ("let x = pol + 1", "unknown-name", "pol", "unknown name 'pol'", "did you mean 'pool'?"),
    ("let x = len(hnad(0))", "unknown-name", "hnad", "unknown function 'hnad'", "did you mean 'hand'?"),
    ("deall(0, 1)", "unknown-name", "deall", "unknown procedure 'deall'", "did you mean 'deal'?"),
    ("take actions mian", "unknown-group", "take actions mian", "during: mian", "did you mean 'main'?"),
    ("let x = top(deck).powr", "unknown-field", "powr", "'powr'", "did you mean 'power'?"),
    ("deal(0)", "arity", "deal(0)", "deal() takes 2 argument(s), got 1", None),
    ("let x = range(1, 2, 3)", "arity", "range", "range() takes 1 or 2 argument(s), got 3", None),
    ("let x = players_from(0, \"up\")", "bad-value", "\"up\"", "direction must be", None),
    ("let x = score(0, 1)", "arity", "score(0, 1)", "takes one player", None),
    ("let x = pool(0)", "arity", "pool(0)", "shared", None),
    ("let x = 1 + \"a\"", "type", "\"a\"", "'+' needs numbers, got a string", None),
    ("if 3:\n    stop", "type", "3:", "expected true/false, got a number", None),
    ("for each x in 5:\n    stop", "type", "5:", "'for each' needs a list", None),
    ("move 3 to hand(0)", "type", "3 to", "expected a card or a list of cards", None),
    ("create 1 \"bost\" in deck", "unknown-card", "create", "no card 'bost'", "did you mean 'boost'?"),
    ("let x = cards_named(\"bost\", deck)", "unknown-card", "\"bost\"", "no card 'bost'", "did you mean 'boost'?"),
    ("draw 1 from dekc to hand(0)", "bad-target", "dekc", "expected a zone", "did you mean 'deck'?"),
    ("move top(deck) to hnad(0)", "bad-target", "hnad", "expected a zone", "did you mean 'hand'?"),
    ("set 3 to 4", "bad-target", "3 to", "can only set", None),
    ("use top(deck) \"ply\"", "unknown-effect", "use", "'ply'", None),
    ("emit scored(1)", "unknown-event", "emit", "no event 'scored'", None),
    ("grant sheild to 0 until end of turn", "unknown-modifier", "grant", "no modifier 'sheild'", None),
    ("turn 0:\n    stop", "bad-stop", "stop", "'stop' cannot leave a turn", None),
])
def test_static_errors(tmp_path, text, code, needle, words, hint):
    path, found = broken(tmp_path, STATIC + "flow: |\n  " + text + "\n")
    assert len(found) == 1, found
    d = found[0]
    assert d.code == code
    assert words in d.message
    if hint is not None:
        assert d.hint == hint
    line, column = find_column(path, needle, nth=-1 if needle in ("stop",) else 0)
    assert (d.line, d.column) == (line, column)
    assert_plain(d)
    assert d.source_line is not None


@pytest.mark.parametrize(("where", "text"), [
    ("actions:\n  a: {during: main, condition: \"random(1, 2) == 1\"}", "random("),
    ("actions:\n  a: {during: main, params: {n: \"[pick_random([1, 2])]\"}}", "pick_random("),
    ("actions:\n  a: {during: main, cost: {pool: \"random(1, 2)\"}}", "random("),
    ("end:\n  - {id: e, check: action, when: \"random(1, 6) == 6\"}", "random("),
    ("values:\n  v: {base: \"random(1, 2)\"}", "random("),
    ("scoring: {score: \"random(1, 2)\"}", "random("),
    ("triggers:\n  t: {on: round_start, when: \"random(1, 2) == 1\", effect: \"stop\"}", "random("),
    ("modifiers:\n  m: {value: v, op: add, amount: \"len(shuffled([1]))\"}\nvalues:\n  v: {base: \"1\"}", "shuffled("),
])
def test_random_is_refused_where_the_game_must_not_change(tmp_path, where, text):
    path, found = broken(tmp_path, "counters:\n  pool: {scope: global}\n" + where
                         + "\nflow: |\n  round:\n    stop_here()\nprocedures:\n  stop_here: {effect: \"let x = 1\"}\n")
    assert [d.code for d in found] == ["impure"], found
    line, column = find_column(path, text)
    assert (found[0].line, found[0].column) == (line, column)


def test_random_is_allowed_in_effects(tmp_path):
    game = toy(tmp_path, "counters:\n  pool: {scope: global}\nflow: |\n  set pool to random(1, 6)\n")
    assert 1 <= counter(game.new_initial_state(2), "pool") <= 6


def test_reserved_words_and_bad_names(tmp_path):
    path, found = broken(tmp_path, """
counters:
  round: {scope: global}
  score-card: {scope: global}
zones:
  draw: {scope: player}
flow: |
  stop
""")
    by_code = sorted((d.code, d.line, d.column) for d in found)
    assert by_code == sorted([
        ("reserved-name", *find_column(path, "round:")),
        ("bad-name", *find_column(path, "score-card:")),
        ("reserved-name", *find_column(path, "draw:")),
    ])


# ---- error text: runtime limits -----------------------------------------------------------------


def run_error(tmp_path, text: str, players: int = 2):
    path = write_toy(tmp_path, text)
    game = load_game(str(path))
    with pytest.raises(GameError) as caught:
        game.new_initial_state(players)
    message = str(caught.value)
    assert "Traceback" not in message and 'File "' not in message
    return path, caught.value, message


def test_step_budget_stops_an_endless_while(tmp_path):
    path, err, message = run_error(tmp_path, COUNTERS_ONLY + "flow: |\n  while true:\n    gain 1 pool\n")
    assert isinstance(err, RuleRuntimeError)
    assert "steps without a decision" in message and "endless loop" in message
    # placed in the loop: at the `while` (the loop's test and body run as one step) or its body
    assert any(message.startswith(f"{path}:{line}:{column} (flow): ")
               for line, column in (find_column(path, "while true"), find_column(path, "gain 1 pool")))


def test_step_budget_stops_an_endless_repeat_without_choices(tmp_path):
    _, _, message = run_error(tmp_path, COUNTERS_ONLY + "flow: |\n  repeat forever:\n    let x = 1\n")
    assert "steps without a decision" in message


def test_trigger_chain_too_deep(tmp_path):
    path, err, message = run_error(tmp_path, COUNTERS_ONLY + """
triggers:
  echo:
    on: changed pool
    effect: |
      gain 1 pool
flow: |
  gain 1 pool
""")
    assert isinstance(err, RuleRuntimeError)
    assert "trigger chain deeper than" in message
    line, column = find_column(path, "gain 1 pool")
    assert message.startswith(f"{path}:{line}:{column} (triggers.echo.effect): ")


def test_trigger_ping_pong_through_custom_events(tmp_path):
    _, _, message = run_error(tmp_path, """
events:
  ping: {params: []}
  pong: {params: []}
triggers:
  a: {on: ping, effect: "emit pong()"}
  b: {on: pong, effect: "emit ping()"}
flow: |
  emit ping()
""")
    assert "trigger chain deeper than" in message


def test_procedure_recursion_is_capped(tmp_path):
    path, _, message = run_error(tmp_path, "procedures:\n  again: {effect: \"again()\"}\nflow: |\n  again()\n")
    assert "nested deeper than" in message
    line, column = find_column(path, "again()")
    assert message.startswith(f"{path}:{line}:{column} (procedures.again.effect): ")


@pytest.mark.parametrize(("text", "words"), [
    ("gain 1 vp(0 - 1)", "there is no player -1"),
    ("gain 1 vp(5)", "there is no player 5"),
    ("let x = len(hand(2))", "there is no player 2"),
    ("set row(0)[3] to 1", "row[3] is out of range"),
    ("set row(1)[0 - 1] to 1", "row[-1] is out of range"),
    ("let x = top(hand(0)).rank + 1", "a value is none here"),
    ("let x = [1, 2][5]", "index out of range"),
    ("let x = len(range(1000000000))", "is too long"),
    ("create 1000000000 \"a\" in hand(0)", "cannot create 1000000000 cards at once"),
    ("let x = seat(0 - 1)", "there is no player -1"),
    ("let x = is_bot(2)", "there is no player 2"),
    ("let d = \"up\"\n  let x = next_player(0, d)", 'direction must be "clockwise" or "counterclockwise", not \'up\''),
    ("let k = \"gold\"\n  gain 1 res(0)[k]", "no entry 'gold'"),
])
def test_runtime_errors_say_what_went_wrong_and_where(tmp_path, text, words):
    path, err, message = run_error(tmp_path, """
counters:
  vp: {scope: player}
  row: {scope: player, size: 3}
  res: {scope: player, keys: [iron, fuel]}
zones:
  hand: {scope: player}
cards:
  a: {name: A, properties: {rank: 1}}
flow: |
  """ + text + "\n")
    assert isinstance(err, RuleRuntimeError)
    assert words in message
    last = text.splitlines()[-1].strip()
    line, column = find_column(path, last)
    assert message.startswith(f"{path}:{line}:{column} (flow): ")


def test_error_in_an_action_condition_is_a_rule_error(tmp_path):
    game = toy(tmp_path, """
constants:
  table: [1, 2]
actions:
  a: {during: main, condition: "table[5] == 1"}
flow: |
  take actions main
""")
    with pytest.raises(RuleRuntimeError, match=r"action 'a'.*index out of range"):
        game.new_initial_state(2)


def test_errors_in_scoring_returns_and_end_conditions_are_rule_errors(tmp_path):
    scoring = toy(tmp_path, """
zones:
  hand: {scope: player}
cards:
  a: {name: A, properties: {rank: 1}}
flow: |
  create 1 "a" in hand(0)
scoring: {score: "top(hand(p)).rank"}
""")
    with pytest.raises(RuleRuntimeError, match="scoring: a value is none here"):
        scoring.new_initial_state(2)
    returns = toy(tmp_path, 'flow: "stop"\nscoring: {score: "0", returns: "[1, 2][p + 5]"}\n')
    state = returns.new_initial_state(2)
    with pytest.raises(GameError, match=r"scoring\.returns: index out of range"):
        state.returns()
    ending = toy(tmp_path, COUNTERS + """
actions:
  go: {during: main, ends: turn}
flow: |
  turn 0:
    take actions main
end:
  - {id: broken, check: action, when: "[1][pool + 3] == 1"}
""")
    with pytest.raises(RuleRuntimeError, match="end condition 'broken': index out of range"):
        ending.new_initial_state(2)


def test_shared_zone_visible_to_its_owner_is_hidden_from_everyone(tmp_path):
    game = toy(tmp_path, """
zones:
  vault: {scope: global, visible: owner}
cards:
  gem: {name: Gem, count: 2, in: vault}
counters:
  code: {scope: global, initial: 42, visible: owner}
flow: "choose x from [1, 2]"
""")
    st = game.new_initial_state(2)
    for viewer in (0, 1, -1):
        obs = st.observation(viewer)
        assert obs["zones"]["vault"] == {"count": 2}
        assert obs["counters"]["code"] is None


FUZZ_SOURCE = '''for each p in players:
  if vp(p) > 2 and not (x in [1, 2]):
    gain 1 vp(p)
  elif top(hand(p)).rank == "a":
    choose up to 2 c from hand(p) by p prompt "pick"
  else:
    choose one by 1:
      "yes" when true:
        move c to deck bottom
      "no":
        stop
repeat forever:
  let x = [i * 2 for i in range(3) if i % 2 == 0]
  end game winners [me]
'''


def test_mangled_effect_text_always_gives_a_plain_syntax_error():
    """Random small edits of a valid text: every failure is an EffectSyntaxError in
    plain words, at a line of the text — never a Lark exception or terminal name."""
    import random

    from interpreter.lang.parser import EffectSyntaxError, parse_program

    rng = random.Random(7)
    pieces = list(":()[]\"' \n,.=<>+-*/%#abc_1") + ["  ", "if ", "for ", "to ", "from ", "\t"]
    internal = re.compile(r"\b[A-Z_]{3,}\b|anon|Token\(|Tree\(|\$END")
    failures = 0
    for _ in range(1000):
        text = list(FUZZ_SOURCE)
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(len(text))
            roll = rng.random()
            if roll < 0.4:
                del text[at]
            elif roll < 0.8:
                text.insert(at, rng.choice(pieces))
            else:
                text[at] = rng.choice(pieces)
        mangled = "".join(text)
        try:
            parse_program(mangled)
        except EffectSyntaxError as err:
            failures += 1
            words = err.message + " " + (err.hint or "")
            assert not internal.search(words), (mangled, words)
            assert 1 <= err.line <= len(mangled.expandtabs(4).rstrip().split("\n")) + 1
            assert err.column >= 1
    assert failures > 300  # the edits did break most texts


@pytest.mark.parametrize("written", [
    "'gain 1 vpp'",
    '"gain 1 vpp"',
    "gain 1 vpp",
    "|-\n      gain 1 vp\n      gain 1 vpp",
    ">\n      gain 1\n      vpp",
    '"gain 1 vp\\n\\\n      gain 1 vpp"',
    "\n      gain 1 vpp",
])
def test_error_positions_in_every_yaml_string_style(tmp_path, written):
    path = write_toy(tmp_path, "counters: {vp: {scope: player}}\nactions:\n  a:\n    during: main\n    effect: "
                     + written + "\nflow: |\n  take actions main\n")
    with pytest.raises(RuleFileError) as caught:
        load_game(str(path))
    (d,) = caught.value.diagnostics
    assert d.code == "bad-target" and d.hint == "did you mean 'vp'?"
    lines = path.read_text().splitlines()
    assert lines[d.line - 1][d.column - 1:].startswith("vpp")


def test_end_of_round_and_turn_hooks_run_before_the_end_checks(tmp_path):
    # The last round's end-of-round scoring still happens before `check: round` ends
    # the game; turn_end triggers see the turn's player as `me`.
    game = toy(tmp_path, COUNTERS + """
triggers:
  round-bonus: {on: round_end, effect: "gain 1 vp(1)"}
  turn-mark: {on: turn_end, effect: "set mark[player] to me + 10"}
flow: |
  repeat forever:
    round:
      for each p in players:
        turn p:
          gain 1 pool
end:
  - {id: two-rounds, check: round, when: "round_number >= 2"}
scoring: {score: "vp(p)"}
""")
    st = game.new_initial_state(2)
    assert st.end_reason == "two-rounds"
    assert counter(st, "vp", 1) == 2 and st.winners == [1]
    assert counter(st, "mark")[:2] == [10, 11]


def test_the_loop_variable_belongs_to_the_loop(tmp_path):
    path, found = broken(tmp_path, COUNTERS_ONLY + "flow: |\n  for each x in []:\n    gain 1 pool\n  set pool to x\n")
    (d,) = found
    assert d.code == "unknown-name" and "'x'" in d.message
    line, column = find_column(path, "set pool to x")
    assert (d.line, d.column) == (line, column + len("set pool to "))


# ---- known gaps (strict xfails: they start failing, loudly, once fixed) ---------------------------


def test_a_long_all_bot_game_is_not_an_endless_loop(tmp_path):
    # A new turn is progress: the step budget is per turn when no decision comes.
    game = toy(tmp_path, """
counters:
  vp: {scope: player}
actions:
  go: {during: main, effect: "gain 1 vp", ends: turn}
bots:
  auto: {turn: "gain 1 vp(me)"}
flow: |
  repeat 5000:
    round:
      for each p in players:
        turn p:
          take actions main
""")
    state = game.new_initial_state(2, seats=["auto", "auto"])
    assert state.is_terminal() and counter(state, "vp", 0) == 5000


def test_an_all_bot_game_that_never_ends_is_stopped(tmp_path):
    game = toy(tmp_path, """
counters:
  vp: {scope: player}
actions:
  go: {during: main, effect: "gain 1 vp", ends: turn}
bots:
  auto: {turn: "gain 1 vp(me)"}
flow: |
  repeat forever:
    for each p in players:
      turn p:
        take actions main
""")
    with pytest.raises(RuleRuntimeError, match="turns without a decision"):
        game.new_initial_state(2, seats=["auto", "auto"])


def test_uniformly_indented_effect_text(tmp_path):
    game = toy(tmp_path, "counters: {vp: {scope: player}}\nflow: |2\n     gain 1 vp(0)\n     gain 1 vp(1)\n")
    state = game.new_initial_state(2)
    assert counter(state, "vp", 0) == 1


def test_errors_in_uniformly_indented_text_point_at_the_file_column(tmp_path):
    path = write_toy(tmp_path, "counters: {vp: {scope: player}}\nflow: |2\n     gain 1 vp(0)\n     gain 1 vpp(1)\n")
    with pytest.raises(RuleFileError) as caught:
        load_game(str(path))
    found = caught.value.diagnostics[0]
    assert (found.line, found.column) == find_column(path, "vpp")
    assert found.code == "bad-target" or found.code == "unknown-name"


# ---- views and text for people ------------------------------------------------------------------


VIEWS = COUNTERS + ZONES.replace("name: Ace,", "name: Ace of Stars,") + """
views:
  table:
    label: The table
    text: |
      Gold: {join([text(p) + "=" + text(gold(p)) for p in players], " / ")}
      You are {text(me)}; your res: {pad(res(me)["iron"], 3)}|{pad("x", -3)}|
      Top of the table: {select(len(table) > 0, text(top(table)), "nothing")}
flow: |
  move top(deck) to table
  take actions main
actions:
  wait: {during: main, ends: turn}
"""


def test_views_are_shown_to_each_player_with_me_as_the_viewer(tmp_path):
    st = toy(tmp_path, VIEWS).new_initial_state(2)
    assert st.observation(1)["views"]["table"] == (
        "Gold: P1=3 / P2=3\nYou are P2; your res:   1|x  |\nTop of the table: Ace of Stars\n")
    assert "views" not in st.observation(-1)  # a spectator has no `me`


def test_errors_in_a_view_point_into_its_text(tmp_path):
    path = write_toy(tmp_path, VIEWS.replace("{pad(\"x\", -3)}", "{pad(\"x\", nope)}"))
    with pytest.raises(RuleFileError) as caught:
        load_game(str(path))
    found = caught.value.diagnostics[0]
    assert found.code == "unknown-name" and (found.line, found.column) == find_column(path, "nope")


def test_log_line_errors_point_into_the_statement(tmp_path):
    path = write_toy(tmp_path, COUNTERS + 'flow: |\n  log "gold {gold(me) + nope}"\n')
    with pytest.raises(RuleFileError) as caught:
        load_game(str(path))
    found = caught.value.diagnostics[0]
    assert (found.line, found.column) == find_column(path, "nope")


def test_log_lines_name_cards_and_players_for_people(tmp_path):
    st = toy(tmp_path, VIEWS.replace("  move top(deck) to table\n",
                                     '  move top(deck) to table\n  log "{active} shows {top(table)}"\n'),
             ).new_initial_state(2)
    assert st.log == ["P1 shows Ace of Stars"]


def test_choice_prompts_fill_in_expressions(tmp_path):
    text = COUNTERS + 'flow: |\n  choose x from [1, 2] prompt "gold {gold(me)}: pick"\n'
    st = toy(tmp_path, text).new_initial_state(2)
    assert st.prompt() == "gold 3: pick"


def test_alone_at_the_table_a_win_is_plus_one_and_a_loss_minus_one(tmp_path):
    won = toy(tmp_path, "counters: {vp: {scope: player}}\nplayers: {min: 1, max: 1}\n"
              "flow: |\n  end game winners [0]\n").new_initial_state(1)
    lost = toy(tmp_path, "counters: {vp: {scope: player}}\nplayers: {min: 1, max: 1}\n"
               "flow: |\n  end game winners []\n").new_initial_state(1)
    assert won.returns() == [1.0] and lost.returns() == [-1.0]


def test_values_may_be_lists_or_flags_computed_by_expressions(tmp_path):
    st = toy(tmp_path, COUNTERS + """
players: {min: 3, max: 3}
values:
  rich: {of: player, base: "gold(p) >= 3"}
  owed: {of: player, base: "[q for q in players if q != p]"}
flow: |
  for each q in owed(0):
    if not rich(q):
      gain 1 pool
    gain 1 vp(q)
""").new_initial_state(3)
    assert counter(st, "vp", 1) == 1 and counter(st, "vp", 2) == 1 and counter(st, "pool") == 0


# ---- functions ------------------------------------------------------------------------------------


FUNCTIONS = COUNTERS + """
players: {min: 3, max: 3}
functions:
  others: {params: [p], value: "[q for q in players if q != p]"}
  best_other: {params: [p], value: "max([gold(q) for q in others(p)])"}
  my_gold: {value: "gold(me)"}
"""


def test_functions_give_values_and_may_call_each_other(tmp_path):
    st = toy(tmp_path, FUNCTIONS + """
flow: |
  gain 4 gold(2)
  set pool to best_other(0)
  set vp(1) to len(others(1))
  turn 2:
    set mark[0] to my_gold()
""").new_initial_state(3)
    assert counter(st, "pool") == 7 and counter(st, "vp", 1) == 2 and counter(st, "mark")[0] == 7


@pytest.mark.parametrize(("extra", "code", "words"), [
    ("flow: |\n  set pool to others()\n", "arity", "takes 1 argument"),
    ("  loop_a: {value: \"loop_b()\"}\n  loop_b: {value: \"loop_a()\"}\nflow: \"stop\"\n", "recursion", "calls itself"),
    ("  dice: {value: \"random(1, 6)\"}\nflow: \"stop\"\n", "impure", "random"),
])
def test_function_errors(tmp_path, extra, code, words):
    errors = toy_errors(tmp_path, FUNCTIONS + extra)
    assert any(d.code == code and words in d.message for d in errors), errors


def test_action_labels_are_templates_for_people(tmp_path):
    from interpreter.runtime.present import action_label

    st = toy(tmp_path, COUNTERS + ZONES + """
actions:
  take:
    during: main
    params: {card: "table"}
    label: "take {card} (you have {gold(me)} gold)"
flow: |
  take actions main
""").new_initial_state(2)
    first = st.legal_actions()[0]
    assert first.text.startswith("take b#") and action_label(st, first) == "take Bee (you have 3 gold)"
    errors = toy_errors(tmp_path, COUNTERS + ZONES + 'actions:\n  take: {during: main, label: "take {crd}"}\n'
                        'flow: "take actions main"\n')
    assert [e.code for e in errors] == ["unknown-name"]
