"""Work the meter must count (runtime/work.py, limits.py): calls, comprehensions over
constant lists, numbers and lists grown inside expressions, and the game's views.

Each hostile toy below once kept `orrery validate` (or one observation) busy for
seconds to hours, or filled memory; each must now end in a rule error or a load
diagnostic, quickly. The budgets are this thread's CPU time (conftest's `cpu_budget`), so a
busy machine does not make them flaky. A legitimate computation of the same shapes, only smaller, still gives its
answer.
"""

from __future__ import annotations

import pathlib

import pytest
from conftest import TICK_TURNS, cpu_budget, find_line, toy, toy_errors, write_toy

from interpreter import load_game
from interpreter.cli import main
from interpreter.diagnostics import RuleRuntimeError
from interpreter.limits import MAX_CALL_DEPTH, MAX_WORK

CPU_BUDGET = 3.0  # seconds of CPU for loading a toy and running it into its limit

TAIL = """
counters:
  pool: {scope: global}
actions:
  pass: {during: main, effect: "gain 1 pool", ends: turn}
flow: |
  repeat forever:
    for each p in players:
      turn p:
        take actions main
"""


def doubling(kind: str, levels: int) -> str:
    """`levels` functions (or values) each calling the one below twice: 2**levels calls."""
    if kind == "functions":
        return "functions:\n  f0: {params: [x], value: \"x\"}\n" + "".join(
            f"  f{i}: {{params: [x], value: \"f{i - 1}(x) + f{i - 1}(x)\"}}\n" for i in range(1, levels + 1))
    return "values:\n  v0: {of: player, base: \"1\"}\n" + "".join(
        f"  v{i}: {{of: player, base: \"v{i - 1}(p) + v{i - 1}(p)\"}}\n" for i in range(1, levels + 1))


def start_error(tmp_path, text: str) -> tuple[RuleRuntimeError, pathlib.Path]:
    """Load a toy and start it, within the CPU budget: its rule error, and its file."""
    path = write_toy(tmp_path, text)
    with cpu_budget(CPU_BUDGET):
        game = load_game(str(path))
        with pytest.raises(RuleRuntimeError) as caught:
            game.new_initial_state(2, seed=0)
    return caught.value, path


# ---- 1. calls -------------------------------------------------------------------------


@pytest.mark.parametrize("kind,call", [("functions", "f30(1)"), ("values", "v30(0)")])
def test_calls_fanning_out_twice_per_level_stop_at_the_work_limit(tmp_path, kind: str, call: str) -> None:
    # 2**30 calls: each call of a function or value that calls others is charged
    # (CALL_WORK), so the setup stops at the work limit instead of running for hours.
    text = doubling(kind, 30) + f"setup: |\n  set pool to {call} % 1000\n" + TAIL
    err, path = start_error(tmp_path, text)
    assert err.code == "limit" and "items gone through" in err.message
    assert err.path == str(path) and err.line == find_line(path, "set pool to")


def test_procedures_calling_each_other_twice_per_level_stop_at_the_work_limit(tmp_path) -> None:
    # Procedures that never wait run as plain Python calls (compile/direct.py), with no
    # step budget: each such call is charged.
    text = ("procedures:\n  p0: {params: [], effect: \"gain 1 pool\"}\n"
            + "".join(f"  p{i}: {{params: [], effect: \"p{i - 1}()\\np{i - 1}()\"}}\n" for i in range(1, 41))
            + "setup: |\n  p40()\n" + TAIL)
    err, _ = start_error(tmp_path, text)
    assert err.code == "limit"


def test_a_fanning_function_in_a_legal_action_list_stops_there_and_loads_quickly(tmp_path) -> None:
    # The listers write a function's expression out in place of its call; only one that
    # calls nothing is (a chain written out in place would double at every level).
    text = doubling("functions", 30) + TAIL.replace(
        'pass: {during: main, effect: "gain 1 pool", ends: turn}',
        'pick: {during: main, params: {n: "[n for n in range(3) if f30(n) > 0]"}, ends: turn}')
    err, _ = start_error(tmp_path, text)
    assert err.code == "limit" and "action 'pick'" in str(err)


def test_chains_of_calls_are_bounded_at_load(tmp_path) -> None:
    with cpu_budget(CPU_BUDGET):
        found = toy_errors(tmp_path, doubling("functions", MAX_CALL_DEPTH + 8) + TAIL)
    deep = [d for d in found if d.code == "too-deep"]
    assert len(deep) == 1 and f"f{MAX_CALL_DEPTH}'" in deep[0].message, found


# ---- 2. values grown inside expressions ------------------------------------------------


@pytest.mark.parametrize("seed,grow,words", [
    ("x", "{a} * {a}", "too large to work with"),  # 2**(2**40): squared again and again
    ("[x]", "{a} + {a}", "items gone through"),  # a list of 2**40 items: doubled
    ("text(x)", "{a} + {a}", "items gone through"),  # a text of 2**40 characters
])
def test_function_locals_grown_forty_times_stop_with_a_rule_error(tmp_path, seed: str, grow: str,
                                                                   words: str) -> None:
    lets = "".join(f"      a{i}: \"{grow.format(a=f'a{i - 1}')}\"\n" for i in range(1, 41))
    text = (f"functions:\n  big:\n    params: [x]\n    let:\n      a0: '{seed}'\n{lets}"
            "    value: len([a40])\n" + "setup: |\n  set pool to big(2)\n" + TAIL)
    err, _ = start_error(tmp_path, text)
    assert err.code == "limit" and words in err.message, err


def test_a_text_or_list_repeated_by_a_huge_number_is_refused_before_it_is_made(tmp_path) -> None:
    text = ('functions:\n  times: {params: [a, b], value: "a * b"}\n'
            'setup: |\n  let s = times("ab", 9000000000000000000)\n' + TAIL)
    err, _ = start_error(tmp_path, text)
    assert err.code == "limit" and "too long to make" in err.message


@pytest.mark.parametrize("setup,words", [
    # each `in` goes through the whole list: 100,000 x 100,000 comparisons, charged
    ("let xs = range(100000)\n  set pool to len([x for x in xs if x in xs])", "items gone through"),
    ("let xs = range(100000)\n  set pool to len([sum(xs) for x in xs])", "items gone through"),
    ('log "{pad(1, 9000000000000000000)}"', "too long to make"),
    ('let s = text(range(100000))\n  log "{join([s for x in range(100000)], s)}"', "too long to make"),
])
def test_operations_that_go_through_a_whole_list_or_make_a_long_text_are_bounded(tmp_path, setup: str,
                                                                                    words: str) -> None:
    err, _ = start_error(tmp_path, f"setup: |\n  {setup}\n" + TAIL)
    assert err.code == "limit" and words in err.message, err


# ---- 3. comprehensions over constant lists ---------------------------------------------

CONSTANT = "constants:\n  nums: [" + ", ".join(str(i) for i in range(1000)) + "]\n"


def test_comprehensions_over_a_constant_list_are_charged_and_validate_says_so(tmp_path, capsys) -> None:
    nested = "len([len([len([c for c in nums]) for b in nums]) for a in nums])"
    text = CONSTANT + f"setup: |\n  set pool to {nested}\n" + TAIL
    path = write_toy(tmp_path, text)
    with cpu_budget(CPU_BUDGET):
        code = main(["validate", str(path)])
    out = capsys.readouterr().out
    assert code == 1 and f"{path}:{find_line(path, 'set pool to')}:" in out and "error[runtime-error]" in out
    assert "items gone through" in out


def test_nested_comprehensions_over_a_few_items_are_charged(tmp_path) -> None:
    # Three items, nested 30 deep, would be 3**30 items: only the outermost is free.
    inner = "1"
    for level in range(30):
        inner = f"len([{inner} for x{level} in [1, 2, 3]])"
    err, _ = start_error(tmp_path, f"setup: |\n  set pool to {inner}\n" + TAIL)
    assert err.code == "limit"


# ---- 4. views ---------------------------------------------------------------------------


def test_a_view_over_a_constant_list_is_metered_per_observation(tmp_path) -> None:
    view = "{len([len([len([c for c in nums]) for b in nums]) for a in nums])}"
    game = toy(tmp_path, CONSTANT + f'views:\n  slow: {{label: Slow, text: "{view}"}}\n' + TAIL)
    state = game.new_initial_state(2, seed=0)
    before = state.work
    with cpu_budget(2.0), pytest.raises(RuleRuntimeError) as caught:
        state.observation(0)
    assert caught.value.code == "limit" and "view 'slow'" in str(caught.value)
    assert state.work == before  # an observation leaves the resolution's meter as it was


# ---- what still works -------------------------------------------------------------------

DOUBLING_12 = "".join(["  f0: {params: [x], value: \"x\"}\n"] + [
    f"  f{i}: {{params: [x], value: \"f{i - 1}(x) + f{i - 1}(x)\"}}\n" for i in range(1, 13)])
LEGIT = "constants:\n  nums: [" + ", ".join(str(i) for i in range(300)) + "]\nfunctions:\n" + DOUBLING_12 + """\
  spread: {params: [n], value: "sum([len([a * b for b in nums_up_to(n)]) for a in nums])"}
  nums_up_to: {params: [n], value: "[x for x in nums if x < n]"}
  big: {params: [a, b], value: "a * b / 1000000000"}
values:
  seats_squared: {of: none, base: "sum([len([q for q in players]) for p in players])"}
views:
  summary: {label: Sum, text: "{sum([len([b for b in nums]) for a in nums])}"}
setup: |
  set pool to f12(1) + spread(10) + seats_squared + big(3037000500, 3037000500)
"""


def test_a_legitimate_deep_computation_still_gives_its_answer(tmp_path) -> None:
    # 2**12 calls, 90,000 items of nested comprehensions, a product past 2**63 on the
    # way (divided back before it is kept), a view of 90,000 items: all within budget.
    with cpu_budget(CPU_BUDGET):
        game = toy(tmp_path, LEGIT + TAIL)
        state = game.new_initial_state(2, seed=0)
        views = state.observation(0)["views"]
    assert state.counters[0][0] == 4096 + 300 * 10 + 2 * 2 + 3037000500 * 3037000500 // 1000000000
    assert views["summary"] == str(300 * 300)
    assert 0 < state.work < MAX_WORK


@pytest.mark.parametrize("body,expected", [
    ("2 * 3 + 4", 10), ("len([x for x in players])", 2), ("9 % 4", 1),
])
def test_plain_arithmetic_is_unchanged(tmp_path, body: str, expected: int) -> None:
    state = toy(tmp_path, f"setup: |\n  set pool to {body}\n" + TAIL).new_initial_state(2, seed=0)
    assert state.counters[0][0] == expected


def test_listings_that_offer_nothing_count_in_the_resolution(tmp_path):
    # Nobody can ever move: each turn lists the action again and finds nothing. Each
    # listing is small, but the game goes on listing without a decision (found by the
    # fuzzer: 200,000 listings, 15 s, before the step budget said so).
    nothing = '    params: {x: "[i for i in range(2000) if i < 0]"}\n'
    tick = TICK_TURNS.replace("    during: turn\n", "    during: turn\n" + nothing)
    game = toy(tmp_path, "counters:\n  score: {scope: player, initial: 0}\n" + tick)
    with cpu_budget(CPU_BUDGET), pytest.raises(RuleRuntimeError) as caught:
        game.new_initial_state(2, seed=0)
    assert caught.value.code == "limit" and f"{MAX_WORK:,} items" in str(caught.value)
