"""The `mcts` seat kind: Monte Carlo tree search for games without hidden information.

It searches the true state (with the generator reseeded: future chance is unknown),
so it refuses a game that hides anything from anyone; `ismcts` plays those.
"""

from __future__ import annotations

from interpreter.agents.builtin import agent_seed
from interpreter.agents.registry import SeatKind, SeatSpec, register
from interpreter.agents.search import OPTIONS, SearchAgent, parse_options
from interpreter.diagnostics import GameError
from interpreter.model import GameDef


def _refuse_hidden(gd: GameDef) -> None:
    if gd.hides_anything():
        raise GameError(f"seat 'mcts' would see what {gd.id} hides; use 'ismcts' for games with hidden information")


def check_mcts(spec: SeatSpec, gd: GameDef) -> None:
    _refuse_hidden(gd)
    parse_options(spec.options, gd)


def make_mcts(spec: SeatSpec, gd: GameDef, seed: int, seat: int) -> SearchAgent:
    _refuse_hidden(gd)
    return SearchAgent(parse_options(spec.options, gd), agent_seed(seed, seat), determinizing=False)


register(SeatKind("mcts", "Monte Carlo tree search (games without hidden information)", "agent", make_mcts, OPTIONS,
                  check_mcts))
