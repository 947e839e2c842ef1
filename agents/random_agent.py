"""The uniform random agent: a baseline and the opponent of the terminal game."""

from __future__ import annotations

from typing import Any

import numpy as np

from industry_env.core.sampling import sample_legal
from industry_env.registry import spec_of

from .base import Agent, AgentInputError, check_masks, check_seed


class RandomAgent(Agent):
    """Uniform over the legal actions of the mask, from its own generator seeded by ``seed``; plays any game.

    Reads only the mask. ``act`` and ``act_batch`` draw from the same generator, so the same seed and the same
    sequence of calls give the same moves.
    """

    name = "random"

    def __init__(self, seed: int | None = None, game: str | None = None) -> None:
        self.seed = check_seed(seed)
        self.game = game
        self.rng = np.random.default_rng(self.seed)

    def _choose(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        return sample_legal(masks, self.rng)

    def act_masks(self, masks: np.ndarray) -> np.ndarray:
        """int64[B]: a uniform legal action of each row of ``masks`` (bool[B, A]); the random agent needs
        nothing else, so environments call this instead of building observations or copying games."""
        return sample_legal(check_masks(masks, getattr(masks, "shape", (0,))[0]), self.rng)

    def act_state(self, state: Any, mask: np.ndarray | None = None) -> np.ndarray:
        """int64[B]: a uniform legal action in every running game of a batched engine's State (reads only the
        mask: hidden information is never looked at)."""
        spec = spec_of(state)
        if spec is None or not isinstance(state, spec.engine.State):
            raise AgentInputError(f"act_state needs a batched engine's State, got {type(state).__name__}")
        n = spec.num_actions() if mask is None else mask.shape[-1]
        if mask is None:
            mask = spec.engine.legal_action_mask(state)
        elif mask.shape != (state.batch_size, n) or mask.dtype != bool:
            raise AgentInputError(f"mask must be bool[{state.batch_size}, A], got {mask.dtype}"
                                  f"{list(mask.shape)}")  # fmt: skip
        over = state.current_player < 0
        if over.any():
            raise AgentInputError(f"act_state: game(s) {np.flatnonzero(over)[:5].tolist()} are over; "
                                  f"pass the running games only")  # fmt: skip
        return sample_legal(mask, self.rng)
