"""Industry as an RLlib ``MultiAgentEnv`` (new API stack): the AEC game, one acting agent per step.

=====================  ==========================================================================================
Agents                 ``player_0`` .. ``player_{n-1}`` (engine seats, as in the AEC env)
Observation            ``{"observations": float32[675], "action_mask": float32[314]}`` per agent: the layout of
                       :mod:`industry_env.games.industry.observation` seen from the agent's seat, and its legal
                       actions as 0/1 (the keys and dtype of RLlib's action-masking modules)
Observation dict       only the agent to move, during the game; every agent once more at the end (final views,
                       all-zero masks) with its terminal reward
Rewards                at the end only, the AEC env's terminal rewards (``reward="win"`` or ``"score"``)
Termination            ``terminateds["__all__"]`` when the last round of Era 5 ends; no truncation
Illegal action         ends the game: -1 to the agent at fault, 0 to the others (the AEC ``env()``'s rule)
=====================  ==========================================================================================

The env holds one :class:`industry_env.envs.aec.raw_env` and only translates its views; no rule is written here.
``config`` (RLlib's env config) takes the AEC env's options: ``num_players``, ``reward``, ``balanced_draws``,
``board``; an unknown key is refused by name.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from ray.rllib.env.multi_agent_env import MultiAgentEnv

from ..envs.aec import raw_env
from ..envs.common import ILLEGAL_REWARD, observation_space, render_game
from ..games.industry import actions as A

ENV_NAME = "industry_v0"
ENV_OPTIONS = ("num_players", "reward", "balanced_draws", "board")


def rllib_observation_space() -> spaces.Dict:
    """The per-agent space: the 675 observation floats and a float32 0/1 mask over the 314 actions."""
    return spaces.Dict({
        "observations": observation_space(),
        "action_mask": spaces.Box(0.0, 1.0, (A.NUM_ACTIONS,), np.float32),
    })  # fmt: skip


class IndustryMultiAgentEnv(MultiAgentEnv):
    """Industry for RLlib: turn-based multi-agent env over the AEC env; see the module docstring."""

    metadata = {"name": ENV_NAME, "render_modes": ["ansi"]}

    def __init__(self, config: dict[str, Any] | None = None) -> None:
        super().__init__()
        options = dict(config or {})
        unknown = sorted(set(options) - set(ENV_OPTIONS))
        if unknown:
            raise ValueError(f"Industry RLlib env: unknown option(s) {unknown}; the options are {list(ENV_OPTIONS)}")
        self.game_env = raw_env(**options)
        self.possible_agents = list(self.game_env.possible_agents)
        self.agents = list(self.possible_agents)
        space = rllib_observation_space()
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: self.game_env.action_space(a) for a in self.possible_agents}
        self.observation_space = spaces.Dict(self.observation_spaces)
        self.action_space = spaces.Dict(self.action_spaces)
        self._over = True

    def _obs(self, agent: str) -> dict[str, np.ndarray]:
        view = self.game_env.observe(agent)
        return {"observations": view["observation"], "action_mask": view["action_mask"].astype(np.float32)}

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        """A new game (``seed`` as the AEC env's); the observation of the first agent to move."""
        self.game_env.reset(seed=seed, options=options)
        self._over = False
        first = self.game_env.agent_selection
        return {first: self._obs(first)}, {first: {}}

    def step(self, action_dict: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        """Play the action of the agent to move (the only key expected); the next mover's view, or the end."""
        if self._over:
            raise RuntimeError("step() after the game ended: call reset()")
        agent = self.game_env.agent_selection
        others = sorted(set(action_dict) - {agent})
        if agent not in action_dict or others:
            raise ValueError(f"step(): expected an action for {agent!r} (the agent to move) only, "
                             f"got actions for {sorted(action_dict)}")  # fmt: skip
        action = action_dict[agent]
        if isinstance(action, np.ndarray) and action.shape == ():
            action = action.item()
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise ValueError(f"step(): action {action!r} of {agent!r} is not an action of Industry "
                             f"(0..{A.NUM_ACTIONS - 1})")  # fmt: skip
        if not (0 <= action < A.NUM_ACTIONS and self.game_env._mask[int(action)]):
            return self._illegal(agent)
        self.game_env.step(int(action))
        if self.game_env.state_.terminated[0]:
            return self._end({a: self.game_env.rewards[a] for a in self.possible_agents}, self.game_env.infos)
        nxt = self.game_env.agent_selection
        return {nxt: self._obs(nxt)}, {nxt: 0.0}, {"__all__": False}, {"__all__": False}, {nxt: {}}

    def _illegal(self, agent: str) -> tuple[dict, dict, dict, dict, dict]:
        rewards = {a: (ILLEGAL_REWARD if a == agent else 0.0) for a in self.possible_agents}
        infos = {a: {"illegal_action_by": agent} for a in self.possible_agents}
        return self._end(rewards, infos)

    def _end(self, rewards: dict[str, float], infos: dict[str, dict]) -> tuple[dict, dict, dict, dict, dict]:
        self._over = True
        obs = {a: self._obs(a) for a in self.possible_agents}
        for view in obs.values():
            view["action_mask"][:] = 0.0  # over: nothing is legal
        done = {a: True for a in self.possible_agents}
        trunc = {a: False for a in self.possible_agents}
        return (obs, {a: float(r) for a, r in rewards.items()}, {**done, "__all__": True}, {**trunc, "__all__": False},
                {a: dict(infos.get(a, {})) for a in self.possible_agents})  # fmt: skip

    def render(self) -> str:
        """The text board of the current position."""
        if self._over and self.game_env.state_ is None:
            raise RuntimeError("render() before reset()")
        return render_game(self.game_env.game(), "ansi")


def make_env(config: dict[str, Any] | None = None) -> IndustryMultiAgentEnv:
    """The Industry ``MultiAgentEnv`` for RLlib (``config``: the AEC env's options, e.g. ``num_players``)."""
    return IndustryMultiAgentEnv(config)
