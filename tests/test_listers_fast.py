"""The listers' fast paths give what the generic walk gives: the acting player and the
parameters read as Python locals, domains gone through in the lister's own loops (the
same actions, the same work charged, and on an error the walk's own error, with the
listing undone first), and literals that spell a read of a local left as they are."""

from __future__ import annotations

import ast
import re

import attrs
import pytest
from conftest import code_listing, toy

from interpreter.compile import enumerators, pysource
from interpreter.compile.pyast import name, unparse
from interpreter.diagnostics import RuleRuntimeError
from interpreter.runtime import decisions
from interpreter.runtime.errors import RULE_SLIPS

GAME = """
counters:
  n: {scope: player, initial: 3}
functions:
  fits: {params: [x, p], value: "x <= n(p) + len([q for q in players if n(q) >= x])"}
  fits_let: {params: [x], let: {most: "n(me) + 1"}, value: "x <= most"}
values:
  reach: {of: player, base: "n(p) + len([q for q in players if n(q) > 0])"}
actions:
  pick:
    during: main
    params:
      a: "[x for x in [1, 2, 3, 4, 5] if x <= reach(me)]"
      b: "[y for y in [0, 1, 2] if y != a and y < reach(me)]"
    condition: "a + b > 1 and n(me) < 6"
    effect: "gain 1 n(me)"
  quote:
    during: main
    params: {t: "[s for s in [\\"env['me']\\", \\"x\\", \\"x\\"] if s != \\"env['me']\\" or n(me) > 3]"}
    effect: "gain 1 n(me)"
  risky:
    during: main
    params: {d: "[x for x in [2, 1, 0, 3] if n(me) > 2 or 6 / x > 0]"}
    condition: "reach(me) > 0 and [10, 20, 30, 40][select(n(me) > 2, d, 9)] > 0"
  fit:
    during: main
    params: {f: "[x for x in [1, 2, 3, 4, 5, 6, 7] if fits(x, me) and fits(x + 1, me) and fits_let(x)]"}
    effect: "gain 1 n(me)"
  pass:
    during: main
flow: |
  repeat forever:
    round:
      for each p in players:
        turn p:
          take actions main
"""


def _listing(state, action, lister) -> tuple:
    """What listing `action` with `lister` gives from a fresh listing start: the texts
    (or the error), the work charged and the values kept."""
    state.work, state.memo = 0, {}
    out: list = []
    try:
        lister(state, 0, out)
        result: tuple = ("actions", [a.text for a in out])
    except RULE_SLIPS as err:
        result = ("error", type(err).__name__, str(err), [a.text for a in out])
    finally:
        work, memo = state.work, list(state.memo)
        state.work, state.memo = 0, None
    return result, work, memo


def _tree(source: str) -> ast.expr:
    return ast.parse(source, mode="eval").body


def _shown(loop: enumerators.Loop | None) -> tuple | None:
    """A loop's parts as text, to compare."""
    if loop is None:
        return None
    return (tuple(unparse(p) for p in loop.prelude), loop.var, unparse(loop.iter),
            tuple(unparse(t) for t in loop.tests),
            None if loop.value is None else unparse(loop.value), tuple((n.id, unparse(c)) for n, c in loop.invariants))


def _walk(action):
    return lambda st, me, out: decisions._enumerate(st, attrs.evolve(action, lister=None), me, out)


@pytest.fixture
def game(tmp_path):
    return toy(tmp_path, GAME)


def test_domains_gone_through_in_the_loops_give_the_walks_actions_and_work(game) -> None:
    listing = dict(code_listing(game.definition))
    for aid in ("pick", "quote", "risky", "fit"):
        assert f"actions.{aid} (legal list, its domains gone through in its loops)" in listing
    source = listing["actions.pick (legal list, its domains gone through in its loops)"]
    assert "env" not in source and "for _p0 in [1, 2, 3, 4, 5]:" in source  # no list of the domain made
    # A function called with locals and literals is written out; one given a computed
    # argument, or with locals of its own (let), is still called (its locals as arguments).
    fit = listing["actions.fit (legal list, its domains gone through in its loops)"]
    called = re.findall(r"\b(_fn\d+)\(st, ", fit)
    assert "_p0 <= " in fit and len(called) == 2 and len(set(called)) == 2 and "_functions" not in fit
    state = game.new_initial_state(seed=1)
    compared = 0
    for mine in range(0, 7):
        for theirs in (0, 3):
            state.counters[0][0], state.counters[0][1] = mine, theirs
            for action in game.definition.actions:
                if action.id == "risky" and mine <= 2:
                    continue  # raises: the next test
                fast = _listing(state, action, action.lister)
                assert fast == _listing(state, action, _walk(action)), (action.id, mine, theirs)
                compared += bool(fast[0][1])
    assert compared > 20


def test_an_error_is_the_walks_error_with_the_same_work_and_nothing_listed(game) -> None:
    risky = next(a for a in game.definition.actions if a.id == "risky")
    state = game.new_initial_state(seed=1)
    state.counters[0][0] = 2
    # Gone through in the loop, the first candidate (2) fails its condition (an index out of range)
    # before the domain meets 0; the walk divides by zero first, and that is the error.
    fast = _listing(state, risky, risky.lister)
    assert fast == _listing(state, risky, _walk(risky))
    assert fast[0][:2] == ("error", "ZeroDivisionError") and fast[0][3] == []
    assert fast[2] == []  # reach(me) was worked out by the loop, then forgotten: the walk never read it
    state.legal_cache = None
    with pytest.raises(RuleRuntimeError, match=r"action 'risky' .*division by zero"):
        state.legal_actions()


def test_reads_of_locals_become_python_locals_and_literals_stay() -> None:
    names = {"me": name("me"), "card": name("_p0")}
    source = ("(env['card'] != \"env['me']\") and st.layout.seat[env['me']] > 0 "
              "and f(st, {'me': env.get('me', st.active)}) and 'env[\\'card\\']' and env['other']")
    assert unparse(enumerators.as_locals(_tree(source), names)) == unparse(_tree(
        "(_p0 != \"env['me']\") and me > 0 and f(st, {'me': me}) and 'env[\\'card\\']' and env['other']"))
    assert pysource.uses_env(_tree("x == \"env\" and 'env'")) is False
    assert pysource.uses_env(_tree("g(st, env)")) is True
    assert pysource.uses_env(_tree("my_env + envy")) is False


def test_domains_of_other_shapes_stay_lists() -> None:
    assert enumerators.as_loop(_tree("(_k3)"), "_p0") is None
    assert enumerators.as_loop(_tree("[x for x in a for y in b]"), "_p0") is None
    assert enumerators.as_loop(_tree("[(x, y) for (x, y) in a]"), "_p0") is None
    kept_first = "((_h1 := _u), [_v2 for _v2 in _c(st, z) if _v2 > _h1 if [_v2 for _v3 in w]])[-1]"
    loop = enumerators.as_loop(_tree(kept_first), "_p1")
    assert _shown(loop) == (("(_h1 := _u)",), "_p1", "_c(st, z)", ("_p1 > _h1", "[_p1 for _v3 in w]"), None, ())
    mapped = enumerators.as_loop(_tree("[_v2.x for _v2 in z if _v2]"), "_p0")
    assert _shown(mapped) == ((), "_v2", "z", ("_v2",), "_v2.x", ())


def test_parts_of_a_test_the_same_for_every_item_are_worked_out_once() -> None:
    names = iter([name("_i1"), name("_i2"), name("_i3"), name("_i4")])
    domain = ("[_v1 for _v1 in z if _t[st.card_def[_p0]] == _v1 and st.work > 0 and (_h := f(st.layout.zbase[2]))"
              " and _h > st.counters[1][me] and [_v2 for _v2 in st.card_def if _v2 != _t[st.card_def[_p0]]]"
              " and g(_v1)[0] and [1, 2][me]]")
    loop = enumerators.as_loop(_tree(domain), "_p1", lambda: next(names))
    assert loop is not None and loop.var == "_p1"
    shown = _shown(loop)
    # The work meter changes as items are gone through, a walrus's name and the
    # comprehension's own variables are bound in the loop, a call may charge work, a
    # list display is made anew: none of those is kept.
    assert shown[5] == (("_i1", "_t[st.card_def[_p0]]"), ("_i2", "st.layout.zbase[2]"),
                               ("_i3", "st.counters[1][me]"), ("_i4", "st.card_def"))
    assert shown[3] == ("_i1 == _p1 and st.work > 0 and (_h := f(_i2)) and (_h > _i3) and "
                          "[_v2 for _v2 in _i4 if _v2 != _i1] and g(_p1)[0] and [1, 2][me]",)


CARDS = """
counters:
  n: {scope: player, initial: 0}
zones:
  box: {scope: global}
  hand: {scope: player, visible: all}
card_types:
  gem: {in: box}
cards:
  ruby: {name: Ruby, type: gem, effects: {zap: {effect: "gain 1 n(me)", condition: "n(me) < 2"}}}
  opal: {name: Opal, type: gem}
  jade: {name: Jade, type: gem, effects: {zap: "gain 2 n(me)"}}
actions:
  zap:
    during: main
    params: {c: "[c for c in hand(me) if can_use(c, \\"zap\\")]"}
    effect: "use c \\"zap\\""
  pass:
    during: main
setup: |
  for each p in players:
    create 1 "ruby" in hand(p)
    create 2 "opal" in hand(p)
    create 1 "jade" in hand(p)
flow: |
  repeat forever:
    round:
      for each p in players:
        turn p:
          take actions main
"""


def test_can_use_asks_only_cards_whose_definition_has_the_effect(tmp_path, monkeypatch) -> None:
    game = toy(tmp_path, CARDS)
    zap = next(a for a in game.definition.actions if a.id == "zap")
    source = dict(code_listing(game.definition))["actions.zap (legal list, its domains gone through in its loops)"]
    assert "'zap' in " in source
    asked: list = []
    ns = zap.lister.__globals__
    usable = next(k for k, v in ns.items() if getattr(v, "__name__", "") == "usable")
    real = ns[usable]
    monkeypatch.setitem(ns, usable, lambda st, c, name, me: asked.append(c) or real(st, c, name, me))
    state = game.new_initial_state(seed=3)
    for n in (0, 1, 2, 5):
        state.counters[0][0] = n
        asked.clear()
        fast = _listing(state, zap, zap.lister)
        assert len(asked) == 2  # the ruby and the jade, never the opals
        assert fast == _listing(state, zap, _walk(zap))
        assert len(fast[0][1]) == (2 if n < 2 else 1)
