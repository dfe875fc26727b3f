"""PettingZoo: any orrery game as an AEC environment, or a parallel one for games with
simultaneous steps (docs/pettingzoo.md).

    from interpreter import pettingzoo
    env = pettingzoo.env("kuhn-poker", num_players=2, seed=1)
    par = pettingzoo.parallel_env("goofspiel", seed=1)

Needs `pip install 'orrery[pettingzoo]'`; importing this module without PettingZoo
raises an ImportError that says so.
"""

from interpreter.adapters.pettingzoo import OrreryEnv, env
from interpreter.adapters.pettingzoo_parallel import OrreryParallelEnv, parallel_env

__all__ = ["OrreryEnv", "OrreryParallelEnv", "env", "parallel_env"]
