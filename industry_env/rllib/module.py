"""RLModules on RLlib's new API stack: a masked PPO policy, and the project's agents as modules.

:class:`MaskedPPOModule` is RLlib's default PPO torch module (MLP encoder, policy and value heads) built on the
game's observation floats only; before any action is drawn the logits of illegal actions are replaced by the
smallest float, so exploration (sampling) and inference (argmax) alike only ever pick a legal action, and the
PPO loss sees the same masked distribution the actions were drawn from.

:class:`AgentModule` plays an agent of :mod:`industry_env.agents` (``random``, ``heuristic``, ...) inside RLlib,
so the league's fixed opponents run through the project's own code on every env runner. It is never trained.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
from gymnasium import spaces
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.rl_module import RLModule

OBS_KEY = "observations"
MASK_KEY = "action_mask"
# model_config's key naming the game a module plays (saved with its checkpoint; none: Industry, as before 0.2)
GAME_KEY = "game"
# model_config's key holding the game options a module was trained with (e.g. {"map": "new_england"}; none: the
# game's defaults, as before the trainer took game_options)
OPTIONS_KEY = "game_options"
# Added to illegal logits: finite (no NaN in softmax or entropy), yet exp() of it is exactly 0 in float32.
MASKED_LOGIT = torch.finfo(torch.float32).min


def _check_space(space: Any, who: str) -> None:
    if not isinstance(space, spaces.Dict) or set(space.spaces) != {OBS_KEY, MASK_KEY}:
        raise ValueError(f"{who} needs a Dict observation space with keys {OBS_KEY!r} and {MASK_KEY!r} "
                         f"(industry_env.rllib.make_env gives one), got {space!r}")  # fmt: skip


def split_obs(batch: dict[str, Any]) -> tuple[dict[str, Any], Any]:
    """A shallow copy of ``batch`` whose ``obs`` is the observation floats only, and the mask (not modified)."""
    obs = batch[Columns.OBS]
    if not isinstance(obs, dict) or OBS_KEY not in obs or MASK_KEY not in obs:
        raise ValueError(f"the batch's obs must be a dict with {OBS_KEY!r} and {MASK_KEY!r}, got "
                         f"{type(obs).__name__}{sorted(obs) if isinstance(obs, dict) else ''}")  # fmt: skip
    inner = dict(batch)
    inner[Columns.OBS] = obs[OBS_KEY]
    return inner, obs[MASK_KEY]


def mask_logits(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """``logits`` with every action whose mask entry is 0 set to the smallest float32 (never drawn)."""
    return torch.where(mask > 0.5, logits, torch.full_like(logits, MASKED_LOGIT))


class MaskedPPOModule(DefaultPPOTorchRLModule):
    """RLlib's PPO torch module with illegal actions masked out of the action distribution (module docstring)."""

    def __init__(self, *args: Any, observation_space: spaces.Space | None = None, **kwargs: Any) -> None:
        _check_space(observation_space, "MaskedPPOModule")
        self._dict_space = observation_space
        # The networks are built for the observation floats; the mask only edits the logits.
        super().__init__(*args, observation_space=observation_space[OBS_KEY], **kwargs)
        # Seen from outside (specs, checkpoints, copies for the league) the module takes the env's Dict space.
        self.observation_space = self._dict_space

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        inner, mask = split_obs(batch)
        out = super()._forward(inner, **kwargs)
        out[Columns.ACTION_DIST_INPUTS] = mask_logits(out[Columns.ACTION_DIST_INPUTS], mask)
        return out

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        inner, mask = split_obs(batch)
        out = super()._forward_train(inner, **kwargs)
        out[Columns.ACTION_DIST_INPUTS] = mask_logits(out[Columns.ACTION_DIST_INPUTS], mask)
        return out

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> Any:
        """Value estimates; the value head reads the observation floats only (the mask is not an input)."""
        if embeddings is None:
            batch, _ = split_obs(batch)
        return super().compute_values(batch, embeddings)


class AgentModule(RLModule):
    """An agent of :mod:`industry_env.agents` as a never-trained RLModule: it returns the agent's actions.

    ``model_config``: ``{"agent": name, "seed": int, "game": id, "game_options": {...}}`` (a name
    :func:`industry_env.agents.make_agent` knows for that game, default Industry, built for those options).
    """

    def setup(self) -> None:
        from industry_env.agents import as_agent

        _check_space(self.observation_space, "AgentModule")
        cfg = dict(self.model_config or {})
        name = cfg.get("agent")
        if not isinstance(name, str):
            raise ValueError(f"AgentModule: model_config['agent'] must be an agent name, got {name!r}")
        # a user's function by name too (it takes no seed)
        self.agent = as_agent(name, seed=cfg.get("seed"), game=module_game(cfg), options=module_options(cfg))

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        obs = batch[Columns.OBS]
        views = np.asarray(_numpy(obs[OBS_KEY]), np.float32)
        masks = np.asarray(_numpy(obs[MASK_KEY])) > 0.5
        return {Columns.ACTIONS: self.agent.act_batch(views, masks)}

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        raise RuntimeError(f"AgentModule ({self.agent.name}) plays a fixed agent: it is not trained "
                           f"(keep it out of policies_to_train)")  # fmt: skip

    def get_state(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        """No weights: the agent is rebuilt from ``model_config``."""
        return {}

    def set_state(self, state: dict[str, Any]) -> None:
        """Nothing to restore (see :meth:`get_state`)."""


def module_game(model_config: Any) -> str:
    """The game a module plays, from its ``model_config`` (a module saved before games were named: Industry)."""
    cfg = model_config if isinstance(model_config, dict) else {}
    game = cfg.get(GAME_KEY, "industry")
    if not isinstance(game, str):
        raise ValueError(f"model_config[{GAME_KEY!r}] = {game!r}: a game id such as 'industry'")
    return game


def module_options(model_config: Any) -> dict[str, Any]:
    """The game options a module was trained with, from its ``model_config`` (none recorded: the defaults)."""
    cfg = model_config if isinstance(model_config, dict) else {}
    options = cfg.get(OPTIONS_KEY) or {}
    if not isinstance(options, dict):
        raise ValueError(f"model_config[{OPTIONS_KEY!r}] = {options!r}: the game's options as a dict")
    return dict(options)


def _numpy(x: Any) -> np.ndarray:
    return x.detach().cpu().numpy() if isinstance(x, torch.Tensor) else np.asarray(x)
