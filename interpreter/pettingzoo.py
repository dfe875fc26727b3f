"""PettingZoo: any orrery game as an AEC environment (docs/pettingzoo.md).

    from interpreter import pettingzoo
    env = pettingzoo.env("kuhn-poker", num_players=2, seed=1)

Needs `pip install 'orrery[pettingzoo]'`; importing this module without PettingZoo
raises an ImportError that says so.
"""

from interpreter.adapters.pettingzoo import OrreryEnv, env

__all__ = ["OrreryEnv", "env"]
