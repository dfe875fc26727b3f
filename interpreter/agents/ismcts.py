"""The `ismcts` seat kind: information-set Monte Carlo tree search, for any game.

Every iteration searches a world its seat cannot tell from the true one, drawn from
what the seat has observed only (`State.resample_from_infostate`, runtime/resample.py):
its decision is a function of its information state and its seed. The tree is shared
by all those worlds.
"""

from __future__ import annotations

from interpreter.agents.builtin import agent_seed
from interpreter.agents.registry import SeatKind, SeatSpec, register
from interpreter.agents.search import OPTIONS, SearchAgent, SearchOptions, parse_options
from interpreter.diagnostics import GameError
from interpreter.model import GameDef


def _options(spec: SeatSpec, gd: GameDef) -> SearchOptions:
    options = parse_options(spec.options, gd)
    if options.solver:  # a world it samples is not the true one: nothing it finds there is proven
        raise GameError("seat option solver=1 proves positions of the true state: it is for 'mcts' only")
    return options


def make_ismcts(spec: SeatSpec, gd: GameDef, seed: int, seat: int) -> SearchAgent:
    return SearchAgent(_options(spec, gd), agent_seed(seed, seat), determinizing=True)


def check_ismcts(spec: SeatSpec, gd: GameDef) -> None:
    _options(spec, gd)


register(SeatKind("ismcts", "information-set Monte Carlo tree search over worlds consistent with what the seat "
                  "has seen (any game)", "agent", make_ismcts, OPTIONS, check_ismcts))
