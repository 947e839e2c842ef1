"""The uniform random agent: a baseline and the opponent of the terminal game."""

from __future__ import annotations

import numpy as np

from industry_env.engine import sample_legal

from .base import Agent, check_seed


class RandomAgent(Agent):
    """Uniform over the legal actions of the mask, from its own generator seeded by ``seed``.

    Reads only the mask. ``act`` and ``act_batch`` draw from the same generator, so the same seed and the same
    sequence of calls give the same moves.
    """

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = check_seed(seed)
        self.rng = np.random.default_rng(self.seed)

    def _choose(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        return sample_legal(masks, self.rng)
