"""Numbers in rule files: a counter's `initial` may be a list for an array counter (as
docs/format.md says), its entries in order, and a list of the wrong length or of other
than whole numbers is refused at its place; a number written in a way effect text does
not read (`1e5`, `0x10`) is refused at its place saying what is supported (decimals and
fractions: tests/test_fractions.py)."""

from __future__ import annotations

import pytest
from conftest import find_column, toy, write_toy

from interpreter import RuleFileError, load_game

TRACK = """
counters:
  track: {scope: global, size: 3, initial: [1, 2, 3]}
  seat: {scope: player, size: 2, initial: [5, 0]}
actions:
  go: {during: main, effect: "gain 1 track[0]", ends: turn}
flow: |
  for each p in players:
    turn p:
      take actions main
"""


def test_a_list_gives_an_array_its_entries(tmp_path) -> None:
    state = toy(tmp_path, TRACK).new_initial_state(2, 1)
    assert state.counters[0] == [1, 2, 3]
    assert state.counters[1] == [5, 0, 5, 0]  # per player: each seat's array


@pytest.mark.parametrize(("initial", "message"), [("[1, 2]", "initial needs 3 numbers"),
                                                  ("[1, 2, x]", "initial"), ("[1, 2.5, 3]", "initial")])
def test_a_bad_list_is_refused_where_it_is(tmp_path, initial: str, message: str) -> None:
    path = write_toy(tmp_path, TRACK.replace("initial: [1, 2, 3]", f"initial: {initial}"))
    with pytest.raises(RuleFileError) as caught:
        load_game(str(path))
    diagnostic = caught.value.diagnostics[0]
    assert message in diagnostic.message
    line, _ = find_column(path, f"initial: {initial}")
    assert diagnostic.line == line


@pytest.mark.parametrize(("text", "shown"), [("gain 1e5 vp(me)", "1e5"), ("gain 10 * 0x10 vp(me)", "0x10"),
                                             ("gain .5 vp(me)", ".5"), ("gain 1_000 vp(me)", "1_000")])
def test_a_number_written_otherwise_is_refused_saying_what_is_supported(tmp_path, text: str, shown: str) -> None:
    path = write_toy(tmp_path, TRACK.replace("gain 1 track[0]", text).replace(
        "counters:", "counters:\n  vp: {scope: player}"))
    with pytest.raises(RuleFileError) as caught:
        load_game(str(path))
    diagnostic = caught.value.diagnostics[0]
    assert diagnostic.code == "unsupported"
    assert f"'{shown}' is not a number the rules can read" in diagnostic.message
    assert "decimal point" in (diagnostic.hint or "") and "1 / 3" in (diagnostic.hint or "")
    line, column = find_column(path, shown)
    assert (diagnostic.line, diagnostic.column) == (line, column)
