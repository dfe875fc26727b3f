"""What a per-step module keeps of a function in the struct (a clone copies it all).

Which of a function's locals it keeps on the C stack: those no stop
separates from a read of them (interpreter/native/resumable.py's stack_locals). A local
read after a stop, or read again when the run resumes at one, must stay in the struct,
or a resumed run (or a clone) would read what another call left on the stack. (`log`
text is no part of a native run: the reads here are gains.)"""

from __future__ import annotations

from interpreter.lang.parser import parse_program
from interpreter.native.resumable import one_per_player, stack_locals, written_values


def _on_stack(text: str) -> set[str]:
    return stack_locals(list(parse_program(text))) & {"a", "xs", "n", "last", "opts", "c", "k", "left"}


def test_a_local_read_only_before_any_stop_is_on_the_stack():
    assert _on_stack('let a = 1\nlet xs = [a, 2]\ngain len(xs) chips\ntake actions main\n') == {"a", "xs"}


def test_a_local_read_after_a_stop_is_in_the_struct():
    assert _on_stack('let a = 1\nlet xs = [2]\ntake actions main\ngain a chips\n') == {"xs"}


def test_a_local_written_again_after_the_stop_before_its_reading_is_on_the_stack():
    assert _on_stack('let a = 1\ngain a chips\ntake actions main\nlet a = 2\ngain a chips\n') == {"a"}


def test_a_choices_options_are_read_again_when_the_run_resumes_there():
    # resuming at the choice works its options out again: `opts` must outlive the stop
    text = 'let opts = [1, 2, 3]\nchoose c from opts by me\ngain c chips\n'
    assert _on_stack(text) == set()


def test_a_calls_arguments_and_a_uses_card_are_read_once_before_it_stops():
    # resuming, a call runs on the arguments it kept and a use on its card: what they read
    # is not read again at the stop (`xs`, `c`); read after the stop, it is in the struct
    assert _on_stack('let xs = [1, 2]\npick(xs)\ngain 1 chips\n') == {"xs"}
    assert _on_stack('let xs = [1, 2]\npick(xs)\ngain len(xs) chips\n') == set()
    assert _on_stack('let c = top(deck)\nuse c "power"\ngain 1 chips\n') == {"c"}
    assert _on_stack('let c = top(deck)\nuse c "power"\ngain c.worth chips\n') == set()
    assert _on_stack('let a = 1\ntake actions main for a\n') == {"a"}


def test_in_a_loop_that_stops_a_local_kept_for_the_next_pass_is_in_the_struct():
    # `last` is set before the stop and read by the next pass, after it; `n` and the loop's
    # own variable are written and read between two stops
    text = ("let last = -1\nfor each k in [1, 2]:\n  let n = k * 2\n  gain n + last chips\n"
            "  set last to k\n  take actions main\n")
    assert _on_stack(text) == {"n", "k"}
    # set after the stop instead, it is written again before the next pass reads it; the
    # loop's variable is then read after the stop (resuming does not set it again)
    assert _on_stack(text.replace("  set last to k\n  take actions main\n", "  take actions main\n  set last to k\n")) \
        == {"n", "last"}


def test_a_loops_list_and_an_ifs_condition_are_read_once_before_the_stops_inside():
    text = ("let xs = [1, 2]\nlet a = 1\nif a > 0:\n  for each k in xs:\n    take actions main\n"
            "else:\n  take actions main\n")
    assert _on_stack(text) == {"xs", "a", "k"}  # (the loop's variable, never read)


def test_a_local_read_in_one_branch_after_a_stop_in_another_is_in_the_struct():
    text = 'let a = 1\nlet left = 2\nif left > 1:\n  take actions main\n  gain a chips\n'
    assert _on_stack(text) == {"left"}


def _walks_players(text: str) -> bool:
    """Whether the list the last loop of `text` walks holds one item per player at most."""
    body = list(parse_program(text))
    return one_per_player(body[-1].source, written_values(body))


def test_a_loop_over_the_players_keeps_room_for_the_players_only():
    # (a loop whose body may stop keeps its copy of the list in the struct: NPLAYERS
    # numbers instead of LISTCAP when the list cannot hold more)
    walk = "\nfor each p in {}:\n  take actions main\n"
    assert _walks_players(walk.format("players"))
    assert _walks_players(walk.format("players_from(me)"))
    assert _walks_players("let pre = [p for p in players_from(me) if p != me]" + walk.format("reversed(pre)"))
    assert _walks_players("let order = sorted(players)\nset order to [p for p in order]" + walk.format("order"))
    # a list that may hold more, or that something else writes, keeps LISTCAP
    assert not _walks_players(walk.format("players + players"))
    assert not _walks_players(walk.format("hand(me)"))
    assert not _walks_players("let order = players\nset order to order + [me]" + walk.format("order"))
    assert not _walks_players("let players = [1, 2, 3]" + walk.format("players"))  # (a local of that name)
    assert not _walks_players("choose pre from [players] by me" + walk.format("pre"))
