"""The native trainer's networks (torch): the actor-critic of today's SB3 policy, layer for layer, built from the
game's observation layout, and the form its observations are kept in.

:class:`ActorCritic` has separate policy and value MLPs of ``net_arch`` (tanh) over the flat observation, or over
the features of a cell encoder (:func:`industry_env.agents.ppo.cell_encoder`, ``encoder = "cells"``) that both
share. Its parameters carry Stable-Baselines3's names (``features_extractor``, ``mlp_extractor.policy_net``,
``action_net``, ``value_net``) and its initialisation is SB3's (orthogonal, gains sqrt(2), 0.01 and 1), so that
``industry-env train --bench`` compares like with like, and a native checkpoint is read by the ``ppo`` agent as a
MaskablePPO zip is (:func:`industry_env.agents.ppo.load_actor`, nothing unpickled).

:class:`ObsCodec` says how observations are kept: whole (``flat``), or, with a cell encoder, the rest of the
observation beside only the occupied cells (a cell whose first feature is 0 is empty and encodes as an all-zero
cell: 97% of 20th Century's 405 cells), so that a rollout of 20th Century holds a few KB a decision, not 92 KB.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch
from industry_env.agents.ppo import CELL_ACTIVATION, cell_encoder, cell_piece
from torch import nn


@dataclass
class Packed:
    """A batch of observations in their kept form: ``rest`` float32[n, R] (the observation without the cells,
    or all of it for ``flat``); with cells, the occupied ones: ``cells`` float32[k, F], their observation
    ``owner`` (0..n-1) and ``index`` (0..C-1) as int64[k]."""

    rest: torch.Tensor
    cells: torch.Tensor | None = None
    owner: torch.Tensor | None = None
    index: torch.Tensor | None = None

    @property
    def n(self) -> int:
        return int(self.rest.shape[0])

    def to(self, device: torch.device, non_blocking: bool = False) -> Packed:
        """The same batch on ``device``."""
        move = (lambda t: None if t is None else t.to(device, non_blocking=non_blocking))
        return Packed(move(self.rest), move(self.cells), move(self.owner), move(self.index))


class ObsCodec:
    """How the observations of a game are kept and fed (see the module docstring): ``flat`` or cells of ``piece``
    (a :class:`industry_env.core.spec.Piece` whose last axis is a cell's features)."""

    def __init__(self, observation_size: int, piece: Any | None = None) -> None:
        self.size = int(observation_size)
        self.piece = piece
        if piece is not None:
            self.offset = int(piece.offset)
            self.features = int(piece.shape[-1])
            self.cells = int(piece.size // piece.shape[-1])
            self.end = self.offset + self.cells * self.features
            self.rest_size = self.size - self.cells * self.features
        else:
            self.rest_size = self.size

    def pack(self, obs: np.ndarray) -> Packed:
        """float32[n, D] observations (numpy) in their kept form, on the CPU."""
        if self.piece is None:
            return Packed(torch.from_numpy(np.ascontiguousarray(obs, np.float32)))
        n = obs.shape[0]
        rest = np.concatenate([obs[:, : self.offset], obs[:, self.end :]], axis=1)
        grid = obs[:, self.offset : self.end].reshape(n, self.cells, self.features)
        owner, index = np.nonzero(grid[..., 0] != 0)
        cells = grid[owner, index]
        return Packed(torch.from_numpy(rest), torch.from_numpy(np.ascontiguousarray(cells)),
                      torch.from_numpy(owner.astype(np.int64)), torch.from_numpy(index.astype(np.int64)))  # fmt: skip


class _Flat(nn.Module):
    """No features extractor: the observation as it is (SB3's FlattenExtractor of a 1-D space)."""

    def forward(self, x: Any) -> Any:
        return x


class _Cells(nn.Module):
    """The shared cell encoder (``encoder``, the ``ppo`` agent's module) and its forward on a :class:`Packed`."""

    def __init__(self, encoder: nn.Module) -> None:
        super().__init__()
        self.encoder = encoder

    def forward(self, batch: Packed) -> torch.Tensor:
        enc = self.encoder
        net = enc.net
        empty = net(batch.rest.new_zeros(1, enc.features))  # an empty cell's encoding, computed once
        n = batch.n
        h = empty.expand(n * enc.cells, -1).clone()
        if batch.cells is not None and batch.cells.shape[0]:
            h = h.index_put((batch.owner * enc.cells + batch.index,), net(batch.cells))
        return torch.cat([batch.rest, h.view(n, -1)], dim=1)


def _mlp(width: int, arch: list[int]) -> nn.Sequential:
    mods: list[nn.Module] = []
    for h in arch:
        mods += [nn.Linear(width, h), nn.Tanh()]
        width = h
    return nn.Sequential(*mods)


class _MlpExtractor(nn.Module):
    def __init__(self, width: int, arch: list[int]) -> None:
        super().__init__()
        self.policy_net = _mlp(width, arch)
        self.value_net = _mlp(width, arch)


class ActorCritic(nn.Module):
    """Policy and value networks of a game (see the module docstring); the value head predicts normalised returns
    (:class:`ValueNorm` turns them back)."""

    def __init__(self, observation_size: int, num_actions: int, net_arch: list[int], codec: ObsCodec,
                 cell_arch: list[int] | None = None) -> None:  # fmt: skip
        super().__init__()
        self.codec = codec
        self.observation_size, self.num_actions = int(observation_size), int(num_actions)
        if codec.piece is None:
            self.features_extractor: nn.Module = _Flat()
            width = self.observation_size
        else:
            enc = cell_encoder(codec.piece, list(cell_arch or []), self.observation_size, CELL_ACTIVATION)
            self.features_extractor = _Cells(enc)
            width = int(enc.size)
        self.mlp_extractor = _MlpExtractor(width, list(net_arch))
        last = net_arch[-1]
        self.action_net = nn.Linear(last, self.num_actions)
        self.value_net = nn.Linear(last, 1)
        self._init_weights()

    def _init_weights(self) -> None:
        """Stable-Baselines3's initialisation: orthogonal weights, zero biases; gains sqrt(2) for the hidden layers
        (and the cell encoder), 0.01 for the action logits, 1 for the value."""
        for module, gain in ((self.features_extractor, math.sqrt(2)), (self.mlp_extractor, math.sqrt(2)),
                             (self.action_net, 0.01), (self.value_net, 1.0)):  # fmt: skip
            for m in module.modules():
                if isinstance(m, nn.Linear):
                    nn.init.orthogonal_(m.weight, gain=gain)
                    m.bias.data.fill_(0.0)

    def features(self, batch: Packed) -> torch.Tensor:
        """The features both heads read."""
        return self.features_extractor(batch.rest if self.codec.piece is None else batch)

    def forward(self, batch: Packed) -> tuple[torch.Tensor, torch.Tensor]:
        """(logits float[n, A] before masking, normalised value float[n])."""
        f = self.features(batch)
        return self.action_net(self.mlp_extractor.policy_net(f)), self.value_net(self.mlp_extractor.value_net(f))[:, 0]

    def logits(self, batch: Packed) -> torch.Tensor:
        """The policy's logits alone (snapshots need no value)."""
        return self.action_net(self.mlp_extractor.policy_net(self.features(batch)))

    def actor(self) -> nn.Sequential:
        """A frozen CPU copy of the actor as the ``ppo`` agent plays it: [cell encoder,] Linear, Tanh, ..., Linear."""
        import copy

        mods: list[nn.Module] = []
        if self.codec.piece is not None:
            mods.append(copy.deepcopy(self.features_extractor.encoder))
        mods += [copy.deepcopy(m) for m in self.mlp_extractor.policy_net]
        mods.append(copy.deepcopy(self.action_net))
        actor = nn.Sequential(*mods).to("cpu").float()
        actor.requires_grad_(False)
        return actor.eval()

    def sb3_data(self, game: str, net_arch: list[int]) -> dict[str, Any]:
        """The JSON a MaskablePPO zip holds that :func:`industry_env.agents.ppo.load_actor` reads (the spaces, the
        piece of a cell encoder), so that the ``ppo`` agent plays a native checkpoint."""
        kwargs: dict[str, Any] = {"net_arch": {"pi": list(net_arch), "vf": list(net_arch)}}
        if self.codec.piece is not None:
            kwargs["features_extractor_kwargs"] = {"game": game, "piece": self.codec.piece.name}
        return {"policy_kwargs": kwargs, "observation_space": {"_shape": [self.observation_size]},
                "action_space": {"n": self.num_actions}}  # fmt: skip


class FrozenActor(nn.Module):
    """A snapshot's actor for the league, on the trainer's device: an :class:`ActorCritic`'s policy alone (its
    weights copied), or a policy file's actor (nn.Sequential, read by :func:`industry_env.agents.ppo.load_actor`)."""

    def __init__(self, source: nn.Module, codec: ObsCodec) -> None:
        super().__init__()
        import copy

        self.codec = codec
        self.net = copy.deepcopy(source)
        self.net.requires_grad_(False)
        self.net.eval()

    def logits(self, batch: Packed) -> torch.Tensor:
        if isinstance(self.net, ActorCritic):
            return self.net.logits(batch)
        mods = list(self.net)
        if self.codec.piece is not None:  # a policy file's actor: its encoder's weights in our packed forward
            x = _Cells(mods[0])(batch)
            mods = mods[1:]
        else:
            x = batch.rest
        for m in mods:
            x = m(x)
        return x


def masked(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Logits with the illegal actions at the dtype's lowest value (probability 0, finite gradients)."""
    return logits.masked_fill(~mask, torch.finfo(logits.dtype).min)


def sample(logits: torch.Tensor, mask: torch.Tensor, generator: torch.Generator | None
           ) -> tuple[torch.Tensor, torch.Tensor]:  # fmt: skip
    """(actions int64[n], their log-probabilities) drawn from the masked softmax by its inverse distribution
    function (one uniform draw a row: half the time of Gumbel-max's one a logit); never an illegal action."""
    lg = masked(logits.float(), mask)
    logp = torch.log_softmax(lg, dim=1)
    cdf = torch.softmax(lg, dim=1).cumsum_(dim=1)
    # strictly below the total, so that the first entry of the distribution function above the draw exists and has
    # a probability above 0 (an illegal action's entry equals the one before it)
    u = torch.rand((lg.shape[0], 1), generator=generator, device=lg.device) * (cdf[:, -1:] * (1 - 1e-6))
    a = torch.searchsorted(cdf, u, right=True)[:, 0].clamp_(max=lg.shape[1] - 1)
    return a, logp.gather(1, a[:, None])[:, 0]


class ValueNorm:
    """Running mean and variance of the returns (value normalisation, PopArt-style): the value head predicts
    ``(return - mean) / std``; when the statistics move, the head's last layer is rescaled so that its
    predictions in returns are unchanged (PopArt's "preserving outputs", van Hasselt et al. 2016)."""

    def __init__(self, enabled: bool = True, epsilon: float = 1e-4) -> None:
        self.enabled = enabled
        self.mean, self.var, self.count = 0.0, 1.0, float(epsilon)

    @property
    def std(self) -> float:
        return math.sqrt(self.var) if self.enabled else 1.0

    def denormalize(self, v: np.ndarray) -> np.ndarray:
        return v * self.std + (self.mean if self.enabled else 0.0)

    def normalize(self, x: np.ndarray) -> np.ndarray:
        return (x - (self.mean if self.enabled else 0.0)) / self.std

    def update(self, returns: np.ndarray, head: nn.Linear) -> None:
        """Fold a rollout's returns into the statistics (parallel algorithm), rescaling ``head`` to match."""
        if not self.enabled or returns.size == 0:
            return
        old_mean, old_std = self.mean, self.std
        b_mean, b_var, b_count = float(returns.mean()), float(returns.var()), float(returns.size)
        delta, total = b_mean - self.mean, self.count + b_count
        self.mean += delta * b_count / total
        self.var = (self.var * self.count + b_var * b_count + delta**2 * self.count * b_count / total) / total
        self.var = max(self.var, 1e-8)
        self.count = total
        with torch.no_grad():
            head.weight.mul_(old_std / self.std)
            head.bias.mul_(old_std).add_(old_mean - self.mean).div_(self.std)

    def state(self) -> dict[str, float]:
        return {"mean": self.mean, "var": self.var, "count": self.count}

    def load(self, state: dict[str, Any]) -> None:
        self.mean, self.var, self.count = float(state["mean"]), float(state["var"]), float(state["count"])


def codec_for(game: str, observation_size: int, encoder: str, piece: str) -> ObsCodec:
    """The codec of a configuration: ``flat``, or the cells of ``piece`` of the game's layout."""
    if encoder == "cells":
        return ObsCodec(observation_size, cell_piece(game, piece, observation_size))
    return ObsCodec(observation_size)
