"""Agents that play Industry (installed as ``industry_env.agents``): one interface, made by name.

``make_agent(name, seed=None, **params)`` builds any agent; ``AGENTS`` maps the names to their classes:

================  =============================================================================================
name              agent
================  =============================================================================================
``random``        :class:`RandomAgent`: uniform over the legal actions
``heuristic-v0``  :class:`HeuristicV0Agent`: the greedy rule-of-thumb player (batched; readable twin in
                  :mod:`.heuristic_v0`)
``heuristic``     :class:`HeuristicAgent`: the strong heuristic (batched, :mod:`.strong_heuristic`): values a field
                  by what it adds by the end, bids within a budget, takes the subsidy when it pays
``mcts``          :class:`MCTSAgent`: determinized UCT over the batched engine, the other seats modelled as the
                  strong heuristic (or searched too, max-n: ``opponents="search"``) (:mod:`.mcts`)
``ppo``           :class:`PPOAgent`: the shipped MaskablePPO policy, or ``path=`` a policy you trained (needs the
                  ``train`` extra: torch)
``rllib:PATH``    :class:`industry_env.rllib.RLlibAgent`: an RLlib checkpoint's policy (needs the ``rllib`` extra;
                  ``module=`` picks the module, default ``learner``)
``module:attr``   a user's agent, imported: an :class:`Agent` subclass (built with ``seed`` and ``params``), an
                  Agent object, or a plain function ``(observation, action_mask) -> action``
================  =============================================================================================

Every agent has ``act(observation, action_mask) -> int`` and ``act_batch(observations, action_masks) ->
int64[B]`` (see :class:`Agent`), and ``act_game(game)`` for a reference Game. ``docs/agents.md`` tells more.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from typing import Any

from .base import Agent, AgentInputError, CallableAgent
from .heuristic import HeuristicAgent, HeuristicV0Agent, field_values, heuristic_actions
from .heuristic_v0 import ReferenceHeuristicV0, tie_noise
from .mcts import MCTSAgent
from .ppo import PPOAgent
from .random_agent import RandomAgent

AGENTS: dict[str, type[Agent]] = {
    "random": RandomAgent,
    "heuristic": HeuristicAgent,
    "heuristic-v0": HeuristicV0Agent,
    "mcts": MCTSAgent,  # determinized UCT over the batched engine (agents/mcts.py)
    "ppo": PPOAgent,  # the shipped MaskablePPO policy (or path=...); torch is imported when one is made
}


def make_agent(name: str, seed: int | None = None, **params: Any) -> Agent:
    """The agent called ``name`` (a key of :data:`AGENTS`, or ``module:attr``), seeded by ``seed``.

    ``params`` are the agent's own parameters (e.g. ``greed`` for the heuristics); an unknown name or parameter
    raises ValueError listing what exists.
    """
    if not isinstance(name, str):
        raise ValueError(f"agent name must be a string, got {type(name).__name__}")
    if name in AGENTS:
        return _build(AGENTS[name], name, seed, params)
    if name.startswith(RLLIB_PREFIX):
        return _rllib_agent(name, seed, params)
    if ":" not in name:
        raise ValueError(f"unknown agent {name!r}: known agents are {', '.join(AGENTS)}, "
                         f"or 'module:callable' for your own")  # fmt: skip
    target = _import(name)
    if isinstance(target, type) and issubclass(target, Agent):
        return _build(target, name, seed, params)
    if isinstance(target, Agent):
        if params or seed is not None:
            raise ValueError(f"agent {name!r} is an Agent object: it takes no seed or parameters here")
        return target
    if callable(target):
        if params or seed is not None:
            raise ValueError(f"agent {name!r} is a plain function (observation, action_mask) -> action: it takes "
                             f"no seed or parameters; make it an Agent subclass to have them")  # fmt: skip
        return CallableAgent(target, name=name)
    raise ValueError(f"agent {name!r} is neither an Agent class, an Agent, nor a callable: {target!r}")


def as_agent(agent: str | Agent | Callable[[Any, Any], int], seed: int | None = None) -> Agent:
    """An :class:`Agent` from a name (see :func:`make_agent`), an Agent, or a plain function ``(obs, mask)``."""
    if isinstance(agent, Agent):
        return agent
    if isinstance(agent, str):
        return make_agent(agent, seed=seed)
    if callable(agent):
        return CallableAgent(agent)
    raise ValueError(f"not an agent: {agent!r} (give a name, an Agent, or a function (observation, action_mask))")


RLLIB_PREFIX = "rllib:"  # make_agent("rllib:PATH"): a checkpoint of industry-env train --framework rllib


def _rllib_agent(name: str, seed: int | None, params: dict[str, Any]) -> Agent:
    """``rllib:PATH`` as an agent; the rllib extra is imported only here, so the core never needs Ray."""
    path = name[len(RLLIB_PREFIX):]
    if not path:
        raise ValueError("agent 'rllib:': give the checkpoint folder after the colon, e.g. rllib:runs/rllib/final")
    if "path" in params:
        raise ValueError(f"agent {name!r}: the path is the part after 'rllib:'; do not pass path= too")
    try:
        from industry_env.rllib.agent import RLlibAgent
    except ImportError as exc:
        raise ValueError(f"agent {name!r}: {exc}") from None
    return _build(RLlibAgent, name, seed, {**params, "path": path})


def _build(cls: type[Agent], name: str, seed: int | None, params: dict[str, Any]) -> Agent:
    accepted = [k for k in inspect.signature(cls.__init__).parameters if k not in ("self", "seed")]
    unknown = sorted(set(params) - set(accepted))
    if unknown:
        takes = ", ".join(["seed", *accepted])
        raise ValueError(f"agent {name!r} has no parameter {', '.join(map(repr, unknown))} (it takes: {takes})")
    return cls(seed=seed, **params)


def _import(name: str) -> Any:
    module_name, _, attr = name.partition(":")
    try:
        obj: Any = importlib.import_module(module_name)
    except ImportError as exc:
        raise ValueError(f"agent {name!r}: cannot import module {module_name!r} ({exc})") from None
    for part in attr.split("."):
        if not part or not hasattr(obj, part):
            raise ValueError(f"agent {name!r}: module {module_name!r} has no attribute {attr!r}")
        obj = getattr(obj, part)
    return obj


__all__ = [
    "AGENTS", "Agent", "AgentInputError", "CallableAgent", "HeuristicAgent", "HeuristicV0Agent", "MCTSAgent",
    "PPOAgent", "RandomAgent", "ReferenceHeuristicV0", "as_agent", "field_values", "heuristic_actions", "make_agent",
    "tie_noise",
]  # fmt: skip
