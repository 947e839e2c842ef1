"""Wrappers for training one shared policy on the AEC environment with single-agent libraries.

PettingZoo's Stable-Baselines3 action-masking tutorial trains one MaskablePPO policy for every seat through a
``pettingzoo.utils.BaseWrapper``; with Gymnasium 1.x that breaks (sb3-contrib's ``ActionMasker`` accepts only
a ``gymnasium.Env``), and its stream of transitions mixes the seats, so a transition can carry the reward of
the seat that moved next instead of the one that acted. :class:`SharedPolicyEnv` is the working version:

- a ``gymnasium.Env`` (so ``ActionMasker``, ``check_env`` and MaskablePPO accept it) over the AEC env;
- each episode, one seat is the learner (the seats take turns: ``player_0``, then ``player_1``, ...), and the
  other seats are played inside ``step`` by the opponent: by default the policy being trained
  (``env.set_opponent(model)``), or any agent or function ``(observation, action_mask) -> action``;
- every transition is the learner seat's own: its observation, its action, and the rewards the AEC env gave
  that seat since it last acted (at the end, its terminal reward, whoever made the last move);
- its infos are numbers and numpy arrays only: ``learner_seat``, ``action_mask``, and at the end the AEC env's
  final infos for that seat (``scores``, ``score``, ``winners``, ``win``);
- ``render()`` shows the learner seat's view (the AEC env's ``render(view=seat)``): no other seat's hand.

```python
from sb3_contrib import MaskablePPO
import industry_env
from industry_env.wrappers import SharedPolicyEnv

env = SharedPolicyEnv(industry_env.env(num_players=4))
model = MaskablePPO("MlpPolicy", env, seed=0)
env.set_opponent(model)        # the other three seats play the policy being trained
model.learn(20_000)
```
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np


class SharedPolicyEnv(gymnasium.Env):
    """The AEC env seen from one learner seat per episode, the other seats played by ``opponent``."""

    metadata = {"render_modes": ["ansi", "rgb_array", "human"]}

    def __init__(self, aec_env: Any, opponent: Any = "random", seat: str | int = "rotate") -> None:
        if not hasattr(aec_env, "agent_iter") or not hasattr(aec_env, "possible_agents"):
            raise ValueError(f"SharedPolicyEnv wraps a PettingZoo AEC env (industry_env.env()), got {aec_env!r}")
        self.aec = aec_env
        first = aec_env.possible_agents[0]
        space = aec_env.observation_space(first)  # a Dict with the mask, or (action_mask="info") the Box alone
        self.observation_space = space["observation"] if isinstance(space, gymnasium.spaces.Dict) else space
        self.action_space = aec_env.action_space(first)
        self.game = aec_env.unwrapped.setup.spec.id
        self._options = dict(aec_env.unwrapped.setup.options)
        self.render_mode = getattr(aec_env, "render_mode", None)
        self.seat_rule = seat
        self._episodes = 0
        self.learner: str = aec_env.possible_agents[0]
        self.set_opponent(opponent)

    def set_opponent(self, opponent: Any) -> None:
        """Who plays the other seats: a policy with ``predict`` (an SB3 model: the shared policy), an agent name
        or :class:`industry_env.agents.Agent`, or a function ``(observation, action_mask) -> action``."""
        # kept as objects, not closures, so that the env copies and pickles (with an agent or a function of a module)
        self._model: Any = None
        self._agent: Any = None
        if hasattr(opponent, "predict"):
            self._model = opponent
        else:
            from .agents import as_agent

            self._agent = as_agent(
                opponent, seed=0 if isinstance(opponent, str) else None, game=self.game, options=self._options
            )  # the game's options: an agent plays the env's map

    def _opponent(self, obs: np.ndarray, mask: np.ndarray) -> int:
        """The opponent's action for the seat to move."""
        if self._model is not None:
            action, _ = self._model.predict(obs, action_masks=mask.astype(bool), deterministic=False)
            return int(action)
        return self._agent.act(obs, mask)

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        super().reset(seed=seed)
        agents = self.aec.possible_agents
        if self.seat_rule == "rotate":
            self.learner = agents[self._episodes % len(agents)]
        else:
            self.learner = agents[int(self.seat_rule)]
        self._episodes += 1
        self.aec.reset(seed=seed, options=options)
        self._reward = 0.0
        self._play_others()
        return self._observe()

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict]:
        if self.aec.agent_selection != self.learner or self._over():
            raise RuntimeError("step() after the episode ended: call reset()")
        self._reward = 0.0
        self.aec.step(int(action))
        self._reward += float(self.aec.rewards.get(self.learner, 0.0))
        self._play_others()
        obs, info = self._observe()
        return obs, self._reward, self._over(), False, info

    def action_masks(self) -> np.ndarray:
        """bool[A]: the learner's legal actions now (what MaskablePPO asks for)."""
        return self._view(self.learner)[1].astype(bool)

    def render(self) -> Any:
        """The AEC env's render in the learner seat's view (only what it sees: no other seat's hand)."""
        return self.aec.unwrapped.render(view=self.learner)

    def close(self) -> None:
        self.aec.close()

    # ------------------------------------------------------------------------------------------ inside
    def _over(self) -> bool:
        return self.learner not in self.aec.agents or self.aec.terminations[self.learner]

    def _play_others(self) -> None:
        """The other seats move until the learner is to move or the game is over; the learner's rewards summed."""
        while not self._over() and self.aec.agent_selection != self.learner:
            obs, mask = self._view(self.aec.agent_selection)
            self.aec.step(self._opponent(obs, mask))
            self._reward += float(self.aec.rewards.get(self.learner, 0.0))

    def _view(self, agent: str) -> tuple[np.ndarray, np.ndarray]:
        """The agent's observation and legal actions, wherever the AEC env gives the mask (observation or info)."""
        seen = self.aec.observe(agent)
        if isinstance(seen, dict):
            return seen["observation"], seen["action_mask"]
        return seen, self.aec.infos[agent]["action_mask"]

    def _observe(self) -> tuple[np.ndarray, dict]:
        obs, mask = self._view(self.learner)
        info: dict[str, Any] = {"learner_seat": np.int64(self.aec.possible_agents.index(self.learner))}
        if self._over():
            info.update(self.aec.infos.get(self.learner, {}))
        info["action_mask"] = mask.astype(bool)
        return obs, info


__all__ = ["SharedPolicyEnv"]
