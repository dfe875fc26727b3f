"""Random numbers: splitmix64, its whole state one integer inside the game state.

Keeping the generator's state in the state (not in a Python generator object) is what
lets a state be cloned, saved and resumed with the same future.

A game's seed is its generator's first state (`new_state`: the seed modulo 2**64), so
every seed below 2**64 starts its own stream of numbers, and a seed tells every card
its game will deal. A seed nobody chose is therefore drawn from the operating system,
all 64 bits of it (`fresh_seed`): a seed of 31 bits could be found by trying them all
against the cards a player has seen, and a seed shown to a player gives the game away.
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Any

from interpreter.runtime.work import charge

if TYPE_CHECKING:
    from interpreter.runtime.state import State

_MASK = (1 << 64) - 1
SEED_BITS = 64  # the generator's whole state: a seed's bits above these are cut off


def fresh_seed() -> int:
    """A seed for a game whose seed nobody gave: 64 bits from the operating system's
    secure source, too many seeds to search for the one that deals the cards seen."""
    return secrets.randbits(SEED_BITS)


def next_u64(st: State) -> int:
    x = (st.rng + 0x9E3779B97F4A7C15) & _MASK
    st.rng = x
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
    return x ^ (x >> 31)


def randbelow(st: State, n: int) -> int:
    """A number in [0, n); n >= 1."""
    return next_u64(st) % n


def derived_below(st: State, n: int, salt: int) -> int:
    """A number in [0, n) that depends on the generator's state and `salt` but does not
    advance it: a pick the state's history must not record (replaying the history's
    texts would not make it again, so it must not change the generator's future)."""
    x = (st.rng ^ ((salt + 1) * 0xD1B54A32D192ED03)) & _MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
    return (x ^ (x >> 31)) % n


def shuffle_in_place(st: State, items: list[Any]) -> None:
    charge(st, items)  # shuffling huge decks again and again is bounded work per step (work.py)
    x = st.rng
    for i in range(len(items) - 1, 0, -1):
        # next_u64, written out: one call per shuffle instead of one per card
        x = (x + 0x9E3779B97F4A7C15) & _MASK
        z = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        j = (z ^ (z >> 31)) % (i + 1)
        items[i], items[j] = items[j], items[i]
    st.rng = x
