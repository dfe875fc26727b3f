"""Run-time limits on what rules compute (interpreter/limits.py, runtime/work.py): each
runaway effect ends in a rule error placed at its statement, quickly and in bounded
memory, instead of a hang or an exhausted machine."""

from __future__ import annotations

import pytest
from conftest import find_line
from test_effects import run_error

from interpreter.diagnostics import RuleRuntimeError

HEADER = "counters:\n  pool: {scope: global}\nzones:\n  deck: {scope: global, visible: none}\n"
CARDS = "cards:\n" + "".join(f"  c{i}: {{name: C, count: 10000, in: deck}}\n" for i in range(9))


def flow(*lines: str) -> str:
    return "flow: |\n" + "".join(f"  {line}\n" for line in lines)


@pytest.mark.parametrize(("case", "text", "statement", "words"), [
    ("squaring a local", flow("let x = 2", "repeat 40:", "  set x to x * x"), "set x to x * x",
     "too large to keep"),
    ("doubling a counter", flow("set pool to 1", "repeat 100:", "  set pool to pool * 2"), "set pool to pool * 2",
     "too large to keep"),
    ("doubling a list", flow("let xs = [1]", "repeat 64:", "  set xs to xs + xs"), "set xs to xs + xs",
     "too long to keep"),
    ("doubling a text", flow('let s = "ab"', "repeat 64:", "  set s to s + s"), "set s to s + s",
     "too long to keep"),
    ("squaring a card's attribute", flow("set top(deck).x to 2", "repeat 40:", "  let y = top(deck).x",
                                         "  set top(deck).x to y * y"),
     "set top(deck).x to y * y", "too large to keep"),
    ("a product of counters into a card's attribute", flow("set pool to 3037000500", "set top(deck).x to pool * pool"),
     "set top(deck).x to pool * pool", "too large to keep"),
    ("doubling a card's list", flow("set top(deck).x to []", "set top(deck).x to [1]", "repeat 64:",
                                    "  let y = top(deck).x", "  set top(deck).x to y + y"),
     "set top(deck).x to y + y", "too long to keep"),
    ("nested comprehensions", flow("let n = len([len([j for j in range(100000)]) for i in range(100000)])"),
     "let n = len(", "items gone through"),
    ("creating cards in a loop", flow("repeat 1000:", '  create 10000 "c0" in deck'), 'create 10000 "c0"',
     "at most 100,000 cards"),
    ("shuffling a huge deck again and again", flow("repeat 200:", "  shuffle deck"), "shuffle deck",
     "items gone through"),
    ("drawing a negative number", flow("draw 0 - 5 from deck to deck"), "draw 0 - 5", "cannot draw -5"),
    ("creating a negative number", flow('create 0 - 3 "c0" in deck'), "create 0 - 3", "cannot create -3"),
])
def test_runaway_effects_end_in_a_placed_rule_error(tmp_path, case: str, text: str, statement: str,
                                                    words: str) -> None:
    extra = CARDS if "deck" in text and "shuffle" in text else "cards:\n  c0: {name: C, count: 1, in: deck}\n"
    path, err, message = run_error(tmp_path, HEADER + extra + text)
    assert isinstance(err, RuleRuntimeError), case
    assert words in message, message
    assert f"{path}:{find_line(path, statement)}:" in message, message
