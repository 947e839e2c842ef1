"""The environments: thin adapters of the batched engine to PettingZoo, Gymnasium and Stable-Baselines3.

=====================================  ==================================================================
``industry_env.env()`` / ``raw_env()``  PettingZoo AEC, every seat an agent (:mod:`.aec`)
``industry_env/Industry-v0``           Gymnasium, one learner seat against opponents (:mod:`.single`)
``gymnasium.make_vec(..., "vector_``   the native vector env on the batched engine (:mod:`.vector`)
``entry_point")``
``industry_env.sb3.make_vec_env``      a Stable-Baselines3 VecEnv on the same core (:mod:`.sb3`)
``industry_env.wrappers``              ``SharedPolicyEnv``: one shared policy for every seat of the AEC env
=====================================  ==================================================================

None of them holds a rule: they translate :mod:`industry_env.games.industry.engine`'s arrays to each ecosystem's
conventions.
"""

from __future__ import annotations

ENV_ID = "industry_env/Industry-v0"


def __getattr__(name: str):
    """``OpponentPool`` (a league of opponents for the learner envs), imported on first use."""
    if name == "OpponentPool":
        from .common import OpponentPool

        return OpponentPool
    raise AttributeError(f"module 'industry_env.envs' has no attribute {name!r}")


def register() -> None:
    """Register ``industry_env/Industry-v0`` (single and vector entry points) with Gymnasium, once."""
    import gymnasium

    if ENV_ID not in gymnasium.registry:
        gymnasium.register(
            id=ENV_ID,
            entry_point="industry_env.envs.single:IndustryEnv",
            vector_entry_point="industry_env.envs.vector:IndustryVectorEnv",
            disable_env_checker=False,
        )
