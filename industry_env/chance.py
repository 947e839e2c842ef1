"""Counter-based chance shared by every engine: the same seed gives the same game anywhere.

The only chance in Industry is the starting player and the order in which column tokens leave the bag. Both
are pure functions of ``(seed, purpose, counter)`` through the SplitMix64 finaliser, computed on numpy
``uint64`` arrays so that the reference engine (one game) and the batched engine (many) draw identically, and
a game's draws do not depend on its batch or its position in it.
"""

from __future__ import annotations

import numpy as np

from .rules import NUM_COLUMNS

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_STARTING_PLAYER = 1  # purposes, so that different draws of one game are independent
_BAG = 2


def splitmix64(x: np.ndarray) -> np.ndarray:
    """The SplitMix64 output function applied elementwise to ``uint64`` values."""
    with np.errstate(over="ignore"):
        z = np.asarray(x, dtype=np.uint64) + _GOLDEN
        z = (z ^ (z >> np.uint64(30))) * _MIX1
        z = (z ^ (z >> np.uint64(27))) * _MIX2
        return z ^ (z >> np.uint64(31))


def _key(seed: np.ndarray, purpose: int, counter: np.ndarray | int) -> np.ndarray:
    seed = np.asarray(seed, dtype=np.int64).astype(np.uint64)
    with np.errstate(over="ignore"):
        h = splitmix64(seed)
        h = splitmix64(h ^ np.uint64(purpose))
        return splitmix64(h ^ np.asarray(counter, dtype=np.uint64))


def starting_player(seed: np.ndarray | int, num_players: np.ndarray | int) -> np.ndarray:
    """The randomly decided Starting Player of each game ("Randomly decide which player takes the marker")."""
    return (_key(seed, _STARTING_PLAYER, 0) % np.asarray(num_players, dtype=np.uint64)).astype(np.int8)


def bag_order(seed: np.ndarray | int, era: np.ndarray | int) -> np.ndarray:
    """The order in which the 12 column tokens leave the bag in ``era``: int8[..., 12] of column indices.

    Drawing tokens one at a time without replacement from a mixed bag is the same as reading a uniformly random
    permutation from the front; the permutation ranks 12 hashed keys of ``(seed, era, column)``.
    """
    seed = np.asarray(seed, dtype=np.int64)[..., None]
    era = np.asarray(era, dtype=np.int64)[..., None]
    counter = era * NUM_COLUMNS + np.arange(NUM_COLUMNS, dtype=np.int64)
    keys = _key(seed, _BAG, counter.astype(np.uint64))
    return np.argsort(keys, axis=-1, kind="stable").astype(np.int8)
