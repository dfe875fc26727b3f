"""Adapters to learning frameworks, on top of the public API: OpenSpiel
(`interpreter.openspiel`) and PettingZoo (`interpreter.pettingzoo`).

Each needs its framework installed (`pip install 'orrery[openspiel]'`,
`pip install 'orrery[pettingzoo]'`); nothing else in the engine imports them, so the
engine itself never needs numpy, pyspiel or gymnasium.
"""
