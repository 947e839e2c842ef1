"""Counter-based chance for Age of Industry: every random draw of a game is a pure function of
``(seed, purpose, counter)``, integer-only, so that a batched kernel reproduces it game by game without numpy's
Generator ("game i of init(N, seed=s) is the reference game with seed s + i").

All the chance of the game happens at set-up (Iniziare il gioco): the first player ("Determinare casualmente chi
inizierà il gioco"), the shuffle of the 66 cards (the deal, the two face-up cards and every later draw come from
it; the discard pile is never reshuffled) and the shuffle of the 18 market tiles. Each draw is
``splitmix64(splitmix64(splitmix64(seed) ^ purpose) ^ counter)`` (the public SplitMix64 finaliser of
:mod:`industry_env.core.chance`); a shuffle is Fisher-Yates from the last position down, position ``i`` swapping with
``draw(i) % (i + 1)`` (the modulo bias is below 2**-57 for these sizes).
"""

from __future__ import annotations

import numpy as np

from industry_env.core.chance import key

FIRST_PLAYER = 1  # purposes: independent streams of one game
DECK = 2
MARKETS = 3


def draws(seed: int, purpose: int, counters: np.ndarray) -> np.ndarray:
    """uint64 draws of ``seed`` for ``purpose`` at each counter."""
    return key(seed, purpose, counters)


def first_player(seed: int, num_players: int) -> int:
    """The seat drawn to start ("Determinare casualmente chi inizierà il gioco")."""
    return int(draws(seed, FIRST_PLAYER, np.zeros(1, np.uint64))[0] % np.uint64(num_players))


def shuffle(items: list[int], seed: int, purpose: int) -> list[int]:
    """``items`` shuffled by Fisher-Yates with the draws of ``(seed, purpose)``: position i (from the last down to 1)
    swaps with position ``draw(i) % (i + 1)``."""
    out = list(items)
    n = len(out)
    if n < 2:
        return out
    keys = draws(seed, purpose, np.arange(n, dtype=np.uint64))
    for i in range(n - 1, 0, -1):
        j = int(keys[i] % np.uint64(i + 1))
        out[i], out[j] = out[j], out[i]
    return out
