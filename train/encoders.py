"""Features extractors of ``industry-env train`` (Stable-Baselines3's ``features_extractor_class``): imported only
when a run trains with one, since they need torch and Stable-Baselines3 (the ``train`` extra).

``encoder = "cells"``: :class:`CellsExtractor`, one small network shared by every cell of an observation piece of
cells (20th Century's ``grids``: 5 seats x 46 tile slots x 56 features, 92% of its 14,016 floats), its outputs
flattened after the rest of the observation. The module is :func:`industry_env.agents.ppo.cell_encoder`, the one
the ``ppo`` agent plays, so a policy file exported from the run computes what the run trained.
"""

from __future__ import annotations

from typing import Any

from industry_env.agents.ppo import CELL_ACTIVATION, cell_encoder, cell_piece
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor


class CellsExtractor(BaseFeaturesExtractor):
    """The observation with every cell of ``piece`` (a piece of ``game``'s layout, its last axis a cell's
    features) encoded by one network of layer sizes ``arch`` shared by all the cells (a 1x1 convolution)."""

    def __init__(self, observation_space: Any, game: str, piece: str, arch: list[int]) -> None:
        size = int(observation_space.shape[0])
        encoder = cell_encoder(cell_piece(game, piece, size), list(arch), size, CELL_ACTIVATION)
        super().__init__(observation_space, encoder.size)
        self.encoder = encoder

    def forward(self, observations: Any) -> Any:
        return self.encoder(observations)
