"""The uniform random agent: a baseline and the opponent of the terminal game."""

from __future__ import annotations

import numpy as np


class RandomAgent:
    """Chooses uniformly among the legal actions given by a mask, from its own seeded generator."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, mask: np.ndarray) -> int:
        """One legal action for a ``bool[NUM_ACTIONS]`` mask; raises ValueError if nothing is legal."""
        legal = np.flatnonzero(mask)
        if legal.size == 0:
            raise ValueError("no legal action: the game is over")
        return int(self.rng.choice(legal))
