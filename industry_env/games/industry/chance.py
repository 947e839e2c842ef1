"""Counter-based chance shared by every engine: the same seed gives the same game anywhere.

The only chance in Industry is the starting player and the order in which column tokens leave the bag. Both
are pure functions of ``(seed, purpose, counter)`` through the SplitMix64 finaliser, computed on numpy
``uint64`` arrays so that the reference engine (one game) and the batched engine (many) draw identically, and
a game's draws do not depend on its batch or its position in it.
"""

from __future__ import annotations

import numpy as np

from ...core.chance import key as _key
from ...core.chance import splitmix64
from .rules import NUM_COLUMNS

__all__ = ["bag_order", "splitmix64", "starting_player"]

_STARTING_PLAYER = 1  # purposes, so that different draws of one game are independent
_BAG = 2


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
