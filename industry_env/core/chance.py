"""Counter-based chance for every game: a draw is a pure function of ``(seed, purpose, counter)``.

Through the SplitMix64 finaliser on numpy ``uint64`` arrays, the reference engine (one game) and a batched engine
(many) draw identically, and a game's draws depend neither on its batch nor on its row in it. Each game names
its own purposes (the bag, the deck, ...) so that different draws of one game are independent.
"""

from __future__ import annotations

import numpy as np

from .numba_cache import njit

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)


def splitmix64(x: np.ndarray) -> np.ndarray:
    """The SplitMix64 output function applied elementwise to ``uint64`` values."""
    with np.errstate(over="ignore"):
        z = np.asarray(x, dtype=np.uint64) + GOLDEN
        z = (z ^ (z >> np.uint64(30))) * MIX1
        z = (z ^ (z >> np.uint64(27))) * MIX2
        return z ^ (z >> np.uint64(31))


def key(seed: np.ndarray | int, purpose: int, counter: np.ndarray | int) -> np.ndarray:
    """The hashed key of draw ``counter`` for ``purpose`` in the game seeded ``seed`` (uint64, broadcast)."""
    seed = np.asarray(seed, dtype=np.int64).astype(np.uint64)
    with np.errstate(over="ignore"):
        h = splitmix64(seed)
        h = splitmix64(h ^ np.uint64(purpose))
        return splitmix64(h ^ np.asarray(counter, dtype=np.uint64))


# The same two functions on one uint64 each, compiled: what the games' kernels call (one copy for every game).
_U64 = np.uint64


@njit(cache=True)
def splitmix64_one(x):
    """:func:`splitmix64` of one uint64, in compiled code."""
    z = x + _U64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> _U64(30))) * _U64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> _U64(27))) * _U64(0x94D049BB133111EB)
    return z ^ (z >> _U64(31))


@njit(cache=True)
def key_one(seed, purpose, counter):
    """:func:`key` of one draw, in compiled code."""
    h = splitmix64_one(_U64(seed))
    h = splitmix64_one(h ^ _U64(purpose))
    return splitmix64_one(h ^ _U64(counter))
