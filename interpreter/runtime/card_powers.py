"""Using a card's named effect: whether it may run now, and running it.

A card's effect may ask for a condition and a cost (`effects: {NAME: {effect, condition,
cost}}`). `use c "NAME"` runs it only when the card has it, its condition holds and `me`
can pay; otherwise it does nothing, as for a card without that effect, so rules that
use a whole hand of cards need not test each one. `can_use(c, "NAME")` asks the same
question without running anything, for action parameters and conditions.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from interpreter.runtime import watch
from interpreter.runtime.counters import affordable, pay
from interpreter.runtime.records import Frame

if TYPE_CHECKING:
    from interpreter.runtime.state import State


# Who is told of each card use, (state, player, card): `orrery analyze` counts a game
# bot's plays through it. None but while a watcher is installed, so a use costs one read.
_watcher: Callable[[State, int, Any], None] | None = None


@contextlib.contextmanager
def watching_uses(watcher: Callable[[State, int, Any], None]) -> Iterator[None]:
    """Tell `watcher` of every card effect used in this process until the block ends."""
    global _watcher
    before, _watcher = _watcher, watcher
    try:
        yield
    finally:
        _watcher = before


def usable(st: State, card: Any, name: str, me: int) -> bool:
    """Whether `me` may use the card's effect `name` now (it has it, its condition holds
    with `this` = the card, and `me` can pay its cost)."""
    if card is None:
        return False
    cdef = st.gd.cards[st.card_def[card]]
    if name not in cdef.effects:
        return False
    use = cdef.uses.get(name)
    if use is None:
        return True
    env = {"me": me, "this": card}
    if use.condition is not None and not use.condition(st, env):
        return False
    return affordable(st, use.cost, me, env)


def start_use(st: State, card: Any, name: str, me: int) -> None:
    """Pay for and push the card's effect `name` for `me`, when it is usable; else nothing."""
    if not usable(st, card, name, me):
        return
    cdef = st.gd.cards[st.card_def[card]]
    use = cdef.uses.get(name)
    if use is not None and use.cost:
        pay(st, use.cost, me, {"me": me, "this": card})
    st.stack.append(Frame(cdef.effects[name], 0, {"me": me, "this": card}))
    if _watcher is not None:
        _watcher(st, me, card)
    if watch.watcher is not None:
        watch.watcher(st, me, "effect", f"{cdef.id}.{name}", cdef.index)
