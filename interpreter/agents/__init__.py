"""Agents: who plays a seat. The registry of seat kinds (`registry`), the agent
protocol (`protocol`) and the built-in agents (`builtin`). Agents see states only
through the public State API."""

# Seat kinds that register themselves on import (after the registry's own kinds).
from interpreter.agents import ismcts as _ismcts  # noqa: F401
from interpreter.agents import mcts as _mcts  # noqa: F401
from interpreter.agents.protocol import Agent, BaseAgent
from interpreter.agents.registry import (
    SeatKind,
    SeatSpec,
    check_seat,
    create_agent,
    describe_kinds,
    is_bot,
    parse_seat,
    register,
    registered,
    seat_kinds,
)

__all__ = ["Agent", "BaseAgent", "SeatKind", "SeatSpec", "check_seat", "create_agent", "describe_kinds", "is_bot",
           "parse_seat", "register", "registered", "seat_kinds"]
