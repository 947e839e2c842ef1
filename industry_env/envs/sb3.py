"""A Stable-Baselines3 ``VecEnv`` on the batched engine, for sb3-contrib's MaskablePPO (needs the ``train`` extra).

``make_vec_env(num_envs, num_players=None, opponents="random", seed=0, game="industry", **options)`` returns N
learner games of a game of the suite stepped as arrays
(the core of the vector env, :mod:`.core`), in SB3's conventions: ``reset()`` returns observations only, a
finished game resets in the same step with its last observation in ``infos[i]["terminal_observation"]``,
``env_method("action_masks")`` gives each sub-env's legal actions, so that
``sb3_contrib.common.maskable.utils.get_action_masks(vec_env)`` works. Infos are numbers and numpy arrays only
(at a game's end: ``scores`` int64[n], ``learner_seat``, ``score``, ``win``, as the Gymnasium env's). By default
the VecEnv comes wrapped in SB3's ``VecMonitor`` (episode returns and lengths in the logs; a subclass that
deep-copies and pickles, as the VecEnv does); ``monitor=False`` for the bare one.

Hidden information: ``get_attr(name)`` hands out the attributes of the batched core (:class:`.core.LearnerGames`),
``get_attr("state")`` its whole engine State: every hand, the deck's order and the seeds that rebuild them. It is
a debugging channel, like ``env.unwrapped.game()`` of the Gymnasium env: what the learner may see is its
observation and ``action_masks()``, nothing more (``docs/environments.md``, "Hidden information").

Seeding: ``make_vec_env(..., seed=s)`` (or ``vec_env.seed(s)`` before ``reset()``, as SB3 models do) plays
the reference game seeded ``s + i`` in sub-env ``i`` first (seeds above ``2**63 - 1`` hashed into range).
"""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from typing import Any

import numpy as np

try:
    from stable_baselines3.common.vec_env import VecEnv, VecMonitor
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError("industry_env.sb3 needs Stable-Baselines3: pip install 'industry_env[train]'") from exc

from ..core.spec import GameSpec
from .common import ILLEGAL_REWARD, game_seeds
from .core import LearnerGames


class LearnerSB3VecEnv(VecEnv):
    """N learner games of a game of the suite as an SB3 VecEnv; see the module docstring."""

    def __init__(
        self,
        num_envs: int,
        num_players: int | None = None,
        opponents: Any = "random",
        learner_seat: int | str = "random",
        reward: str = "win",
        illegal_reward: float = ILLEGAL_REWARD,
        seed: int | None = None,
        game: str | GameSpec = "industry",
        **options: Any,
    ) -> None:
        self._spec = dict(num_players=num_players, opponents=opponents, learner_seat=learner_seat, reward=reward,
                          illegal_reward=illegal_reward, game=game, **options)  # fmt: skip
        self.games = LearnerGames(num_envs, **self._spec, seed=seed)
        self.render_mode = None
        super().__init__(self.games.num_envs, self.games.setup.observation_space(), self.games.setup.action_space())
        if seed is not None:
            self.seed(seed)
        self._actions: np.ndarray | None = None

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        """Seeds for the next ``reset()``: sub-env i plays ``Game(num_players, seed + i)``."""
        if seed is None:
            seed = int(np.random.randint(0, np.iinfo(np.uint32).max, dtype=np.uint32))
        game_seeds(seed, self.num_envs)  # checked now: a bad seed is refused here, not at reset()
        self._seeds = [int(seed) + i for i in range(self.num_envs)]
        return self._seeds

    def reset(self) -> np.ndarray:
        rows = np.ones(self.num_envs, bool)
        if self._seeds[0] is not None:
            self.games = LearnerGames(self.num_envs, **self._spec, seed=self._seeds[0])
            self.games.reset(rows, game_seeds(self._seeds[0], self.num_envs))
        else:
            self.games.reset(rows)
        self._reset_seeds()
        self._reset_options()
        self.reset_infos = [{} for _ in range(self.num_envs)]
        return self.games.observe()

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions).reshape(self.num_envs)

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        if self._actions is None:
            raise RuntimeError("step_wait() without step_async()")
        actions, self._actions = self._actions.astype(np.int64), None
        reward, ended, illegal = self.games.step(actions)
        obs = self.games.observe()
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        rows = np.flatnonzero(ended)
        if rows.size:
            final = self.games.final_info(rows)
            n = self.games.num_players
            for j, i in enumerate(rows.tolist()):
                infos[i] = {"terminal_observation": obs[i].copy(), "TimeLimit.truncated": False,
                            "scores": final["scores"][j, :n].copy(), "learner_seat": final["learner_seat"][j],
                            "score": final["score"][j], "win": final["win"][j]}  # fmt: skip
            for i in np.flatnonzero(illegal).tolist():
                infos[i]["illegal_action"] = True
            self.games.reset(ended)
            obs = self.games.observe()
        return obs, reward, ended.copy(), infos

    def action_masks(self) -> np.ndarray:
        """bool[N, A]: each sub-env's legal actions for the learner."""
        return self.games.mask.copy()

    def close(self) -> None:
        """Nothing to release."""

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        """An attribute of the batched core, the same object for every index (SB3's VecEnv API). ``"state"`` is the
        whole engine State, every seat's hidden cards in it: a debugging channel, never a learner's input."""
        idx = list(self._get_indices(indices))
        if attr_name == "render_mode":
            return [None] * len(idx)
        if attr_name == "action_masks":
            return [self.action_masks] * len(idx)
        if hasattr(self.games, attr_name):
            return [getattr(self.games, attr_name)] * len(idx)
        raise AttributeError(f"the VecEnv's sub-envs have no attribute {attr_name!r}")

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        raise AttributeError(f"the VecEnv's sub-envs share one batched core: {attr_name!r} cannot be set "
                             f"per sub-env; build a new VecEnv with the option instead")  # fmt: skip

    def env_method(self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any) -> list[Any]:
        idx = list(self._get_indices(indices))
        if method_name == "action_masks":
            masks = self.games.mask
            return [masks[i].copy() for i in idx]
        raise AttributeError(f"the VecEnv's sub-envs have no method {method_name!r} (only action_masks)")

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        return [False] * len(list(self._get_indices(indices)))


class CopyableVecMonitor(VecMonitor):
    """SB3's ``VecMonitor`` that deep-copies and pickles: SB3's wrappers keep their class's members
    (``class_attributes``, a mappingproxy among them), which copy with neither; they are rebuilt instead."""

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "class_attributes"}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.class_attributes = dict(inspect.getmembers(type(self)))


def make_vec_env(
    num_envs: int,
    num_players: int | None = None,
    opponents: Any = "random",
    seed: int | None = 0,
    monitor: bool = True,
    game: str | GameSpec = "industry",
    **kwargs: Any,
) -> VecEnv:
    """N learner games of ``game`` as an SB3 VecEnv (wrapped in ``VecMonitor`` unless ``monitor=False``); see the
    module. ``kwargs``: the learner envs' options and the game's own."""
    env: VecEnv = LearnerSB3VecEnv(num_envs, num_players=num_players, opponents=opponents, seed=seed, game=game,
                                   **kwargs)  # fmt: skip
    return CopyableVecMonitor(env) if monitor else env


IndustrySB3VecEnv = LearnerSB3VecEnv  # the name of 0.1 (the default game is Industry)
