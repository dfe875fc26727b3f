"""The information-state tensor: one player's information state as a flat list of
numbers whose length is fixed by the game, the player count and a bound on the events,
for neural networks (OpenSpiel's `information_state_tensor`).

Like the information-state string (learning.py) it has perfect recall by
construction: the player's view now, then every event of the game so far as the player
saw it, each with the player's view after it. Pieces, in order:

* `observation` (O): the observation tensor now (tensor.py);
* then `max_events` event slots, oldest first, each of
  * `present` (1): 1 for an event, 0 for a slot not reached yet;
  * `who` (N + 1): one-hot, the seat that decided (the last: chance);
  * `whole` (1): 1 when the player saw every word of it (their own decisions always);
  * `word` (W): one-hot, the action's first word (`buy`, `choice`, `deal`), which
    everyone sees;
  * `id` (A + C): one-hot, the action's integer id (a chance outcome's after the A
    players' ids), when the player saw it whole;
  * `view` (O): the player's observation tensor after the event.

O is the observation tensor's length, N the player count, W the number of first words
of ids, A `num_distinct_actions`, C `max_chance_outcomes`. Events other players made in
a simultaneous step still under way are not there (the player has not seen them yet);
the player's own pick is. A game longer than `max_events` events is refused with the
bound to raise. The tensor is built by replaying the game from its seed, as the string
is: it is meant for the small games learning code solves, where a tight `max_events`
keeps it small (Kuhn poker: 29 numbers for the view now, then 42 per event, at most 5).
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

import attrs

from interpreter.diagnostics import GameError
from interpreter.runtime.action_space import ActionSpace
from interpreter.runtime.learning import PendingStep, Seen, check_player, replay_steps
from interpreter.runtime.tensor import TensorLayout

if TYPE_CHECKING:
    from interpreter.runtime.state import State

DEFAULT_MAX_EVENTS = 64


@attrs.frozen
class InfoTensorLayout:
    """Where everything sits in the information-state tensor of one game."""

    n: int
    observation: int  # O
    words: tuple[str, ...]  # W: the first words of ids, in order
    actions: int  # A
    outcomes: int  # C
    max_events: int

    @property
    def event_size(self) -> int:
        return 1 + (self.n + 1) + 1 + len(self.words) + self.actions + self.outcomes + self.observation

    @property
    def size(self) -> int:
        return self.observation + self.max_events * self.event_size


def info_layout(space: ActionSpace, tensor: TensorLayout, num_players: int, max_events: int) -> InfoTensorLayout:
    if isinstance(max_events, bool) or not isinstance(max_events, int) or max_events < 0:
        raise GameError(f"max_events is a whole number, 0 or more, not {max_events!r}")
    return InfoTensorLayout(num_players, tensor.size, first_words(space), space.size, space.chance_size, max_events)


@functools.lru_cache(maxsize=16)
def first_words(space: ActionSpace) -> tuple[str, ...]:
    """The first words of the game's ids, players' then chance's, each once, in order."""
    words = dict.fromkeys(space.to_string(a).split(" ", 1)[0] for a in range(space.size))
    words.update(dict.fromkeys(space.chance_to_string(a).split(" ", 1)[0] for a in range(space.chance_size)))
    return tuple(words)


def encode(st: State, start: State, player: int, layout: InfoTensorLayout) -> list[float]:
    """The tensor of `player` in `st`; `start` is the game's first state (used up: the
    game is replayed on it)."""
    check_player(st, player)
    if len(st.history) > layout.max_events:
        raise GameError(f"{st.gd.name}: {len(st.history)} events so far, more than the information-state "
                        f"tensor's max_events ({layout.max_events}): ask for a larger max_events")
    views: list[list[float]] = []
    steps = replay_steps(start, st.history, st.game.action_space(st.n),
                         lambda after: views.append(after.observation_tensor(player)))
    out = st.observation_tensor(player)
    events = [step for step in steps if not isinstance(step, Seen)]
    word_index = {word: i for i, word in enumerate(layout.words)}
    slot = 0
    for event, view in zip(events, views, strict=True):
        if isinstance(event, PendingStep) and event.player != player:
            continue  # another seat's sealed pick
        part = [0.0] * (layout.event_size - layout.observation)
        part[0] = 1.0
        part[1 + (event.player if event.player >= 0 else layout.n)] = 1.0
        at = 2 + layout.n
        whole = event.player == player if isinstance(event, PendingStep) else event.seen_whole(player)
        part[at] = float(whole)
        word = event.words[0] if isinstance(event, PendingStep) else event.words[0][0]
        if word in word_index:
            part[at + 1 + word_index[word]] = 1.0
        if whole and event.action_id >= 0:
            part[at + 1 + len(layout.words) + event.action_id] = 1.0
        out += part + view
        slot += 1
    out += [0.0] * ((layout.max_events - slot) * layout.event_size)
    return out

