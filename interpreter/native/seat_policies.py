"""How the native module plays each seat of a seating: its policy number (a random
seat, the first option, a game bot that picks the first option or at random, or one
that plays its `turn` effect), or why a seat keeps the game in Python.

Shared by whole-game playouts (game/playouts.py), per-step native states
(game/native_states.py) and search rollouts that seat a game bot (agents/native_worlds.py),
so the three read a seating the same way.
"""

from __future__ import annotations

from typing import Any

from interpreter.model.seats import Seating

RANDOM, FIRST, BOT_FIRST, BOT_RANDOM, BOT_TURN = range(5)  # (the module's seat policies)

Policies = tuple[list[int], list[int], list[int]]  # per seat: policy, bot turn, first-pick flag


def seat_policies(seating: Seating, module: Any, outside: bool = False) -> Policies | str:
    """Each seat's policy in the native module, its bot's index in the module's
    BOT_TURNS and whether it answers choices with the first option; or why a seat keeps
    the game in Python. `outside`: for a per-step module, whose seats other than game
    bots are all played from outside (the module stops for them: policy 0)."""
    policies, turns, firsts = [], [], []
    for spec, bot in zip(seating.specs, seating.bots, strict=True):
        turn = 0
        if bot is not None:
            if bot.turn is not None:
                if spec.kind not in module.BOT_TURNS:
                    why = module.BOTS_REFUSED.get(spec.kind, "not lowered")
                    return f"bot '{spec.kind}' plays a turn the native backend does not cover yet ({why})"
                policy, turn = BOT_TURN, module.BOT_TURNS[spec.kind]
            else:
                policy = BOT_FIRST if bot.choose == "first" else BOT_RANDOM
        elif outside:
            policy = RANDOM  # (0: in a per-step module, a seat the caller plays)
        elif spec.kind in ("random", "first") and not spec.options:
            policy = RANDOM if spec.kind == "random" else FIRST
        else:
            return f"seat '{spec}' plays in Python"
        policies.append(policy)
        turns.append(turn)
        firsts.append(1 if bot is not None and bot.choose == "first" else 0)
    return policies, turns, firsts
