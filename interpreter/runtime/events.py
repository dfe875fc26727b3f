"""Events: queueing the effects of the triggers that listen to what just happened.

`fire` only queues (as frames); the run loop pushes the queue right after the current
operation, so triggered effects resolve before the next statement of the effect that
caused them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from interpreter.runtime import watch
from interpreter.runtime.records import Frame

if TYPE_CHECKING:
    from interpreter.runtime.state import State


def fire(st: State, event: str, subject: int, env: dict[str, Any]) -> None:
    """Queue the effects of every trigger listening to (event, subject)."""
    triggers = st.gd.triggers.get((event, subject))
    if not triggers:
        return
    for trig in triggers:
        if trig.card is None:
            local = dict(env)
            local.setdefault("me", st.active)
            if trig.when is None or trig.when(st, local):
                st.queue.append(Frame(trig.code, 0, local))
                if watch.watcher is not None:
                    watch.watcher(st, local["me"], "trigger", trig.id, None)
            continue
        # A card's trigger listens while a copy of the card is in one of its zones.
        card = st.gd.cards[trig.card]
        layout = st.layout
        for zi in card.active_in:
            base = layout.zbase[zi]
            count = st.n if st.gd.zones[zi].scope == "player" else 1
            for slot in range(base, base + count):
                for iid in st.zones[slot]:
                    if st.card_def[iid] != trig.card:
                        continue
                    local = dict(env)
                    owner = layout.zowner[slot]
                    local["this"] = iid
                    local["owner"] = owner
                    local.setdefault("me", owner if owner >= 0 else st.active)
                    if trig.when is None or trig.when(st, local):
                        st.queue.append(Frame(trig.code, 0, local))
                        if watch.watcher is not None:
                            watch.watcher(st, local["me"], "trigger", trig.id, trig.card)
