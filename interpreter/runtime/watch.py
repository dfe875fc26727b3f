"""Who is told of each card power and trigger that runs: `orrery analyze` counts them.

A power runs when a card's named effect is used (`use c "NAME"`, its condition held and
its cost paid) or a trigger's effect is queued (its event happened and its `when`
held). The runtime tells the watcher installed here, if any, with the state it ran in
(a search agent's look-ahead runs powers in clones: the watcher tells them apart), the
player it ran for, its kind (`effect` or `trigger`), its id (`card.effect`,
`card.trigger`, or a game trigger's id) and the card definition's index (None for a
game trigger). With no watcher installed, a run costs one read of a module global.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from interpreter.runtime.state import State

# (state, player, kind, power id, card definition index or None)
PowerWatcher = Callable[["State", int, str, str, "int | None"], None]

watcher: PowerWatcher | None = None


@contextlib.contextmanager
def watching_powers(new: PowerWatcher) -> Iterator[None]:
    """Tell `new` of every power that runs in this process until the block ends."""
    global watcher
    before, watcher = watcher, new
    try:
        yield
    finally:
        watcher = before
