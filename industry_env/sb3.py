"""Stable-Baselines3 support (needs the ``train`` extra): ``make_vec_env`` and the VecEnv of the batched engine.

See :mod:`industry_env.envs.sb3` for the conventions.
"""

from .envs.sb3 import IndustrySB3VecEnv, LearnerSB3VecEnv, make_vec_env

__all__ = ["IndustrySB3VecEnv", "LearnerSB3VecEnv", "make_vec_env"]
