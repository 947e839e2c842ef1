"""A game of the suite as an RLlib ``MultiAgentEnv`` (new API stack): the AEC game, one acting agent per step.

=====================  ==========================================================================================
Agents                 ``player_0`` .. ``player_{n-1}`` (engine seats, as in the AEC env)
Observation            ``{"observations": float32[D], "action_mask": float32[A]}`` per agent: the game's
                       observation seen from the agent's seat, and its legal actions
                       as 0/1 (the keys and dtype of RLlib's action-masking modules)
Observation dict       only the agent to move, during the game; every agent once more at the end (final views,
                       all-zero masks) with its terminal reward
Rewards                at the end only, the AEC env's terminal rewards (``reward="win"`` or ``"score"``)
Termination            ``terminateds["__all__"]`` when the game ends; no truncation
Illegal action         ends the game: -1 to the agent at fault, 0 to the others (the AEC ``env()``'s rule);
                       every agent's info has ``illegal_action`` (bool[n], by seat: the one at fault)
Info                   numbers and numpy arrays only: empty during the game; at the end the AEC env's final
                       infos (``scores``, ``score``, ``winners``, ``win``)
Render                 ``render()``: the text board in ``render_view`` (``"public"`` by default: no hidden card;
                       a seat, ``"player_k"``, or ``"full"`` for debugging), as the AEC env's
=====================  ==========================================================================================

The env holds one :class:`industry_env.envs.aec.raw_env` and only translates its views; no rule is written here.
``config`` (RLlib's env config) takes the AEC env's options: ``game`` (default ``"industry"``), ``num_players``,
``reward``, ``render_view`` and the game's own options (Industry: ``balanced_draws``, ``board``); an unknown key
is refused by name.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from ray.rllib.env.multi_agent_env import MultiAgentEnv

from ..envs.aec import raw_env
from ..envs.common import ILLEGAL_REWARD, GameSetup

ENV_NAME = "industry_v0"  # the name the self-play trainer registers the env under (any game, by its config)


def rllib_observation_space(setup: GameSetup) -> spaces.Dict:
    """The per-agent space: the game's observation floats and a float32 0/1 mask over its actions."""
    return spaces.Dict({
        "observations": setup.observation_space(),
        "action_mask": spaces.Box(0.0, 1.0, (setup.num_actions,), np.float32),
    })  # fmt: skip


class LearnerMultiAgentEnv(MultiAgentEnv):
    """A game of the suite for RLlib: turn-based multi-agent env over the AEC env; see the module docstring."""

    metadata = {"name": ENV_NAME, "render_modes": ["ansi"]}

    def __init__(self, config: dict[str, Any] | None = None) -> None:
        super().__init__()
        options = dict(config or {})
        try:
            self.game_env = raw_env(**options)
        except TypeError as exc:  # an option neither the env nor the game has
            raise ValueError(f"RLlib env config {sorted(options)}: {exc}") from None
        self.setup = self.game_env.setup
        self.metadata = {**type(self).metadata, "name": self.setup.spec.pettingzoo_name}
        self.possible_agents = list(self.game_env.possible_agents)
        self.agents = list(self.possible_agents)
        space = rllib_observation_space(self.setup)
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
        n = self.setup.num_actions
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise ValueError(f"step(): action {action!r} of {agent!r} is not an action of {self.setup.spec.name} "
                             f"(0..{n - 1})")  # fmt: skip
        if not (0 <= action < n and self.game_env.observe(agent)["action_mask"][int(action)]):
            return self._illegal(agent)
        self.game_env.step(int(action))
        if self.game_env.state_.terminated[0]:
            return self._end({a: self.game_env.rewards[a] for a in self.possible_agents}, self.game_env.infos)
        nxt = self.game_env.agent_selection
        return {nxt: self._obs(nxt)}, {nxt: 0.0}, {"__all__": False}, {"__all__": False}, {nxt: {}}

    def _illegal(self, agent: str) -> tuple[dict, dict, dict, dict, dict]:
        rewards = {a: (ILLEGAL_REWARD if a == agent else 0.0) for a in self.possible_agents}
        at_fault = np.array([a == agent for a in self.possible_agents])  # a flag per seat: infos stay numeric
        infos = {a: {"illegal_action": at_fault.copy()} for a in self.possible_agents}
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
        """The text board of the current position in the env's ``render_view`` (default the public view)."""
        if self.game_env.state_ is None:
            raise RuntimeError("render() before reset()")
        return self.setup.render_text(self.game_env.game(), self.game_env.render_view)


IndustryMultiAgentEnv = LearnerMultiAgentEnv  # the name of 0.1 (the default game is Industry)


def make_env(config: dict[str, Any] | None = None) -> LearnerMultiAgentEnv:
    """The ``MultiAgentEnv`` for RLlib (``config``: the AEC env's options, e.g. ``game``, ``num_players``)."""
    return LearnerMultiAgentEnv(config)
