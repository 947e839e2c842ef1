"""The games of the suite on Ray RLlib (the ``rllib`` extra): a ``MultiAgentEnv``, an action-masking module,
self-play on the game a config names (``game``, Industry by default, with its ``game_options``).

``make_env(config=None)`` is the env (:mod:`.env`), ``ppo_config(**overrides)`` a ready ``PPOConfig``
(:mod:`.selfplay`), ``industry-env train --framework rllib`` the command line (:mod:`.train`), and
``make_agent("rllib:PATH")`` plays a checkpoint (:mod:`.agent`). ``docs/training.md`` tells more.
Ray is imported here, so ``import industry_env`` itself never needs it.
"""

from __future__ import annotations

try:
    import ray.rllib  # noqa: F401
    import torch  # noqa: F401  (the module's networks; ray[rllib] alone does not install it)
except ImportError as exc:  # pragma: no cover - depends on the install
    raise ImportError(f"industry_env.rllib needs Ray RLlib and torch: pip install 'industry_env[rllib]' ({exc})"
                      ) from None  # fmt: skip

from .agent import RLlibAgent
from .env import ENV_NAME, IndustryMultiAgentEnv, make_env
from .module import AgentModule, MaskedPPOModule
from .selfplay import LEARNER, LeagueMapping, ppo_config, register

__all__ = ["ENV_NAME", "LEARNER", "AgentModule", "IndustryMultiAgentEnv", "LeagueMapping", "MaskedPPOModule",
           "RLlibAgent", "make_env", "ppo_config", "register"]  # fmt: skip
