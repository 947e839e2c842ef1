"""The environments: thin adapters of every game's batched engine to PettingZoo, Gymnasium and Stable-Baselines3.

=====================================  ==================================================================
``industry_env.env()`` / ``raw_env()``  PettingZoo AEC, every seat an agent (:mod:`.aec`)
``industry_env/Industry-v0``           Gymnasium, one learner seat against opponents (:mod:`.single`); one id
                                       per game (``load_game(g).gym_id``)
``gymnasium.make_vec(..., "vector_``   the native vector env on the batched engine (:mod:`.vector`)
``entry_point")``
``industry_env.sb3.make_vec_env``      a Stable-Baselines3 VecEnv on the same core (:mod:`.sb3`)
``industry_env.wrappers``              ``SharedPolicyEnv``: one shared policy for every seat of the AEC env
=====================================  ==================================================================

None of them holds a rule or knows one game's sizes: they translate the arrays of the engine of the game they are
made for (``game="industry"`` by default) to each ecosystem's conventions.
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
    """Register the Gymnasium id (``industry_env/Industry-v0``, ...) of every game with a batched engine, listed or
    hidden (so that the contract tests make it), with its single and vector entry points, once. Read from the
    registry's declarations: no game is imported."""
    import gymnasium

    from ..registry import gym_ids

    for game, env_id in gym_ids().items():
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id,
                entry_point="industry_env.envs.single:LearnerEnv",
                vector_entry_point="industry_env.envs.vector:LearnerVectorEnv",
                kwargs={"game": game},
                disable_env_checker=False,
            )
