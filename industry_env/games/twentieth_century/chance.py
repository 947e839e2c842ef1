"""Counter-based chance for 20th Century: every draw is a pure function of ``(seed, purpose, counter)`` (SplitMix64,
:mod:`industry_env.core.chance`), so a batched kernel can reproduce a reference game from its seed alone.

All the chance of the game is at set-up (Disposizione iniziale): the first player, the round-II and round-IV
scoring cards, the six stacks (land and technology, three eras each), and the catastrophe cards drawn and stacked.
"""

from __future__ import annotations

import numpy as np

from industry_env.core.chance import key

FIRST_PLAYER, R2_CARD, R4_CARD, LAND, TECH, CATASTROPHE = 1, 2, 3, 10, 20, 30  # purposes (+ era index)


def draw(seed: int, purpose: int, bound: int) -> int:
    """One draw in ``0..bound-1``."""
    return int(key(seed, purpose, np.zeros(1, np.uint64))[0] % np.uint64(bound))


def shuffle(items: list[int], seed: int, purpose: int) -> list[int]:
    """``items`` shuffled by Fisher-Yates: position i (from the last down to 1) swaps with ``draw(i) % (i + 1)``."""
    out = list(items)
    if len(out) < 2:
        return out
    keys = key(seed, purpose, np.arange(len(out), dtype=np.uint64))
    for i in range(len(out) - 1, 0, -1):
        j = int(keys[i] % np.uint64(i + 1))
        out[i], out[j] = out[j], out[i]
    return out
