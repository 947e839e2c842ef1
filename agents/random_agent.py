"""The uniform random agent: a baseline and the opponent of the terminal game."""

from __future__ import annotations

import numpy as np

from industry_env.games.industry import engine
from industry_env.games.industry.actions import NUM_ACTIONS
from industry_env.games.industry.engine import sample_legal

from .base import Agent, AgentInputError, check_seed


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

    def act_masks(self, masks: np.ndarray) -> np.ndarray:
        """int64[B]: a uniform legal action of each row of ``masks`` (bool[B, 314]); the random agent needs
        nothing else, so environments call this instead of building observations or copying games."""
        if not isinstance(masks, np.ndarray) or masks.ndim != 2 or masks.shape[1] != NUM_ACTIONS:
            raise AgentInputError(f"masks must be bool[B, {NUM_ACTIONS}], got {type(masks).__name__} "
                                  f"{list(getattr(masks, 'shape', []))}")  # fmt: skip
        if masks.dtype != bool:
            masks = masks != 0
        if masks.shape[0] and not masks.any(axis=1).all():
            raise AgentInputError(f"row(s) {np.flatnonzero(~masks.any(axis=1))[:5].tolist()} have no legal action")
        return sample_legal(masks, self.rng)

    def act_state(self, state: engine.State, mask: np.ndarray | None = None) -> np.ndarray:
        """int64[B]: a uniform legal action in every running game of an engine State (reads only the mask)."""
        if not isinstance(state, engine.State):
            raise AgentInputError(f"act_state needs an engine State, got {type(state).__name__}")
        if mask is None:
            mask = engine.legal_action_mask(state)
        elif mask.shape != (state.batch_size, NUM_ACTIONS) or mask.dtype != bool:
            raise AgentInputError(f"mask must be bool[{state.batch_size}, {NUM_ACTIONS}], got {mask.dtype}"
                                  f"{list(mask.shape)}")  # fmt: skip
        over = state.current_player < 0
        if over.any():
            raise AgentInputError(f"act_state: game(s) {np.flatnonzero(over)[:5].tolist()} are over; "
                                  f"pass the running games only")  # fmt: skip
        return sample_legal(mask, self.rng)
