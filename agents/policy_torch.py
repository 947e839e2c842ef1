"""The torch side of the policy files' networks: torch itself (optional: missing, it names the train extra), the
cell encoder as a torch module, and the frozen actor of a live MaskablePPO policy."""

from __future__ import annotations

import copy
import functools
from typing import Any

from .base import AgentInputError
from .policy_layouts import is_encoder

CELL_ACTIVATION = "ReLU"  # the cell encoder's activation, after each of its layers (a 1x1 convolution's usual one)


class TrainExtraMissing(ImportError, ValueError):
    """torch (or Stable-Baselines3) is not installed: the PPO agent needs ``pip install 'industry_env[train]'``."""


def import_torch(needs: str = "this") -> Any:
    """torch, or TrainExtraMissing saying that ``needs`` needs it (and that a policy file does not)."""
    try:
        import torch
    except ImportError as exc:
        raise TrainExtraMissing(f"{needs} needs torch: pip install 'industry_env[train]' (the train extra) ({exc}); "
                                f"the 'ppo' agent plays a policy file (.npz, weights only) without it, and "
                                f"export_policy writes one where torch is installed") from None  # fmt: skip
    return torch


def torch_if_installed() -> Any | None:
    """torch where it is installed, else None (a policy file then plays with numpy)."""
    try:
        import torch
    except ImportError:
        return None
    return torch


def cell_encoder(piece: Any, arch: list[int], observation_size: int, activation: str = CELL_ACTIVATION) -> Any:
    """A torch module that encodes every cell of the observation piece ``piece`` (:func:`cell_piece`) with one
    small network shared by all the cells (``arch``: its layer sizes, ``activation`` after each; a 1x1
    convolution), and gives the rest of the observation followed by each cell's encoding, flattened in the
    piece's order: float32[B, obs] -> float32[B, obs - cells * features + cells * arch[-1]] (its ``size``).

    A cell whose first feature is 0 is empty (20th Century's ``present`` flag; the game writes nothing else into
    an empty cell): it gets the encoding of an all-zero cell, computed once, since most cells of a batch are
    empty (97% in random games), which makes the encoder several times faster. :class:`NumpyCellEncoder` does
    the same."""
    torch = import_torch("a cell encoder")
    return _cell_encoder_class(torch)(piece, list(arch), observation_size, activation)


@functools.cache
def _cell_encoder_class(torch: Any) -> type:
    """The torch module class of :func:`cell_encoder`, made once torch is imported (this module needs no torch)."""

    class CellEncoder(torch.nn.Module):
        """See :func:`cell_encoder`; ``piece``, ``offset``, ``cells``, ``features``, ``size`` as NumpyCellEncoder's."""

        def __init__(self, piece: Any, arch: list[int], observation_size: int, activation: str) -> None:
            super().__init__()
            self.piece, self.offset, self.activation = piece.name, piece.offset, activation
            self.features, self.cells = int(piece.shape[-1]), int(piece.size // piece.shape[-1])
            self.observation_size = observation_size
            mods, width = [], self.features
            for h in arch:
                mods += [torch.nn.Linear(width, h), getattr(torch.nn, activation)()]
                width = h
            self.net = torch.nn.Sequential(*mods)
            self.size = observation_size - self.cells * self.features + self.cells * width

        def forward(self, x: Any) -> Any:
            end = self.offset + self.cells * self.features
            g = x[:, self.offset : end].reshape(x.shape[0], self.cells, self.features)
            used = g[..., 0] != 0  # the others are empty: they get the encoding of an all-zero cell
            empty = self.net(g.new_zeros(1, 1, self.features))
            h = torch.index_put(empty.expand(x.shape[0], self.cells, -1), (used,), self.net(g[used]))
            return torch.cat([x[:, : self.offset], x[:, end:], h.flatten(1)], dim=1)

        def layers(self) -> list[tuple[Any, Any]]:
            """(weights, biases) of each per-cell layer."""
            return [(m.weight, m.bias) for m in self.net if isinstance(m, torch.nn.Linear)]

    return CellEncoder


def actor_from_policy(policy: Any) -> Any:
    """A frozen copy of a MaskablePPO policy's actor (features -> policy MLP -> action logits) as nn.Sequential;
    the features: the flat observation, or the cell encoder of an ``industry_env.train`` policy
    (``encoder = "cells"``), first in the Sequential."""
    torch = import_torch("actor_from_policy (a live MaskablePPO policy)")
    extractor = getattr(policy, "pi_features_extractor", getattr(policy, "features_extractor", None))
    encoder = getattr(extractor, "encoder", None)
    if type(extractor).__name__ != "FlattenExtractor" and (encoder is None or not is_encoder(encoder)):
        raise AgentInputError(f"PPOAgent reads MLP policies on the flat observation or on a cell encoder "
                              f"(industry_env.train's encoder = 'cells'), not {type(extractor).__name__}")  # fmt: skip
    first = [] if encoder is None else [copy.deepcopy(encoder)]
    mods = first + [copy.deepcopy(m) for m in policy.mlp_extractor.policy_net] + [copy.deepcopy(policy.action_net)]
    actor = torch.nn.Sequential(*mods).to("cpu")
    actor.requires_grad_(False)
    return actor.eval()
