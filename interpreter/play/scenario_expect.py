"""A scenario's expectations, checked against a state: who is to act and for what, the
legal actions (contain / exclude, by text), counters, declared values, zones' cards,
the log lines written since the last check, whether the game is over, its winners
and returns.

Each expectation that does not hold is one Diagnostic (code `scenario-failed`) at the
place it is written, saying what was expected and what was found; a name that does
not resolve is a ScenarioProblem (scenario_names.py), not a failure.
"""

from __future__ import annotations

from typing import Any

from interpreter.diagnostics import Diagnostic
from interpreter.play.scenario_names import Names, counter_entries, legal_texts, same_action
from interpreter.play.scenarios import Scenario
from interpreter.runtime.counters import value_of
from interpreter.runtime.errors import RULE_SLIPS, rule_error
from interpreter.runtime.state import CHANCE, SIMULTANEOUS, TERMINAL, State

SHOWN = 10  # items of a list shown in a message

Keys = tuple[Any, ...]


class _Check:
    def __init__(self, sc: Scenario, st: State, base: Keys):
        self.sc, self.st, self.base, self.names = sc, st, base, Names(sc, st)
        self.failures: list[Diagnostic] = []

    def fail(self, keys: Keys, expected: str, found: str) -> None:
        line, column = self.sc.at(*self.base, *keys)
        self.failures.append(Diagnostic(self.sc.path, line, column, "scenario-failed",
                                        f"expected {expected}, found {found}"))


def check_expect(sc: Scenario, st: State, expect: dict[str, Any], base: Keys, log_from: int) -> list[Diagnostic]:
    """What of `expect` does not hold in `st` (log lines: those from `log_from` on)."""
    check = _Check(sc, st, base)
    if "over" in expect and st.terminal != expect["over"]:
        check.fail(("over",), "the game " + ("over" if expect["over"] else "not over"),
                   f"it is over ({st.end_reason})" if st.terminal else "it is not over")
    if "to_act" in expect:
        _to_act(check, expect["to_act"])
    if "decision" in expect:
        found = "" if st.terminal else st.prompt()
        if str(expect["decision"]) not in found:
            check.fail(("decision",), f"a decision '{expect['decision']}'", f"'{found}'" if found else "none")
    if "legal" in expect:
        _texts(check, ("legal",), expect["legal"], legal_texts(st), "legal action", same_action)
    if "log" in expect:
        _texts(check, ("log",), expect["log"], list(st.log[log_from:]), "log line", lambda want, line: want in line)
    for text, value in (expect.get("counters") or {}).items():
        for entry in counter_entries(check.names, text, value, (*base, "counters", text)):
            number = st.counters[entry.index][entry.slot]
            if number != entry.value:
                check.fail(entry.keys[len(base):], f"{entry.label} = {entry.value}", str(number))
    for text, value in (expect.get("values") or {}).items():
        _value(check, text, value)
    for text, cards in (expect.get("zones") or {}).items():
        _zone(check, text, cards)
    if "winners" in expect:
        want = sorted(check.names.player(w, (*base, "winners", i)) for i, w in enumerate(expect["winners"]))
        if not st.terminal or sorted(st.winners) != want:
            check.fail(("winners",), f"winners {_players(want)}",
                       f"winners {_players(st.winners)}" if st.terminal else "a game not over yet")
    if "returns" in expect:
        _returns(check, expect["returns"])
    return check.failures


def _players(seats: list[int]) -> str:
    return "[" + ", ".join(f"P{p + 1}" for p in seats) + "]"


def _to_act(check: _Check, want: str) -> None:
    st = check.st
    now = st.current_player()
    if now == TERMINAL:
        found = ["nobody"]
    elif now == CHANCE:
        found = ["chance"]
    elif now == SIMULTANEOUS:
        found = [f"P{p + 1}" for p in st.players_to_act()]
    else:
        found = [f"P{now + 1}"]
    if want.strip() not in found:
        check.fail(("to_act",), f"{want} to act", " and ".join(found) + (" to act" if found[0] != "nobody" else
                                                                             " to act (the game is over)"))


def _texts(check: _Check, keys: Keys, want: Any, have: list[str], what: str, matches: Any) -> None:
    """`contains` (each text matches one of `have`) and `excludes` (none does)."""
    checks = want if isinstance(want, dict) else {"contains": want}
    shown = ", ".join(repr(h) for h in have[:SHOWN]) + (f", ... ({len(have)} in all)" if len(have) > SHOWN else "")
    for i, text in enumerate(checks.get("contains", [])):
        if not any(matches(str(text), h) for h in have):
            where = (*keys, "contains", i) if isinstance(want, dict) else (*keys, i)
            check.fail(where, f"a {what} '{text}'", f"none such among {shown or 'none'}")
    for i, text in enumerate(checks.get("excludes", [])):
        hits = [h for h in have if matches(str(text), h)]
        if hits:
            check.fail((*keys, "excludes", i), f"no {what} '{text}'", repr(hits[0]))


def _value(check: _Check, text: str, want: Any) -> None:
    vdef, owner = check.names.value(text, (*check.base, "values", text))
    try:
        found = value_of(check.st, vdef.index, owner if owner is not None else 0)
    except RULE_SLIPS as err:
        raise rule_error(f"value {vdef.name}", err) from None
    shown = check.st.render_value(found, vdef.type)
    same = found == want if isinstance(want, bool) or isinstance(found, bool) else (
        found == want or shown == str(want))
    if not same:
        check.fail(("values", text), f"{text} = {want}", shown)


def _zone(check: _Check, text: str, want: Any) -> None:
    names, st = check.names, check.st
    keys = (*check.base, "zones", text)
    slot = names.zone(text, keys)
    held = list(reversed(st.zones[slot]))  # top first
    shown = "[" + ", ".join(st.card_text(i) for i in held[:SHOWN]) + (", ..." if len(held) > SHOWN else "") + "]"
    if isinstance(want, list):
        wanted = [_card_test(check, str(c), (*keys, i)) for i, c in enumerate(want)]
        if len(wanted) != len(held) or not all(test(iid) for test, iid in zip(wanted, held, strict=True)):
            check.fail(("zones", text), f"{text} to hold [{', '.join(map(str, want))}] (top first)", shown)
        return
    if "count" in want and len(held) != want["count"]:
        check.fail(("zones", text, "count"), f"{want['count']} cards in {text}", f"{len(held)}: {shown}")
    free = list(held)
    for i, card in enumerate(want.get("contains", [])):
        test = _card_test(check, str(card), (*keys, "contains", i))
        hit = next((iid for iid in free if test(iid)), None)
        if hit is None:
            check.fail(("zones", text, "contains", i), f"{card} in {text}", shown)
        else:
            free.remove(hit)
    for i, card in enumerate(want.get("excludes", [])):
        test = _card_test(check, str(card), (*keys, "excludes", i))
        hit = next((iid for iid in held if test(iid)), None)
        if hit is not None:
            check.fail(("zones", text, "excludes", i), f"no {card} in {text}", st.card_text(hit))
    if "any_order" in want:
        listed = [str(c) for c in want["any_order"]]
        tests = sorted(((_card_test(check, c, (*keys, "any_order", i)), "#" not in c) for i, c in enumerate(listed)),
                       key=lambda t: t[1])  # copies named exactly take theirs first
        left = list(held)
        for test, _ in tests:
            hit = next((iid for iid in left if test(iid)), None)
            if hit is not None:
                left.remove(hit)
        if len(listed) != len(held) or left:
            check.fail(("zones", text, "any_order"), f"{text} to hold [{', '.join(listed)}] in any order", shown)


def _card_test(check: _Check, text: str, keys: Keys) -> Any:
    if "#" in text:
        iid = check.names.card_copy(text, keys)
        return lambda i: i == iid
    index = check.names.card_def(text, keys)
    return lambda i: check.st.card_def[i] == index


def _returns(check: _Check, want: list[Any]) -> None:
    st = check.st
    if not st.terminal:
        check.fail(("returns",), f"returns {want}", "a game not over yet")
        return
    found = st.returns()
    if len(want) != len(found) or any(not isinstance(w, int | float) or isinstance(w, bool) or abs(w - f) > 1e-9
                                      for w, f in zip(want, found, strict=False)):
        check.fail(("returns",), f"returns {want}", "[" + ", ".join(f"{f:g}" for f in found) + "]")
