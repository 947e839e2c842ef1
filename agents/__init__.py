"""Agents that play the suite's games (installed as ``industry_env.agents``): one interface, made by name.

``make_agent(name, seed=None, game="industry", options=None, **params)`` builds any agent of any game: the
generic ones (``random``, ``ppo:PATH``, ``rllib:PATH``, ``module:attr``) play every game, and each game names its
own in its spec's ``agents`` (:func:`agent_names` lists them). ``AGENTS`` is the one table of names, read from
the registry: ``AGENTS[name]`` is the default game's agent class, ``agents_of(game)`` any game's.

================  =============================================================================================
name              agent
================  =============================================================================================
``random``        :class:`RandomAgent`: uniform over the legal actions (every game)
``heuristic``     the game's rule-of-thumb player (Industry: the strong heuristic, :mod:`.industry`; Age of
                  Industry: :mod:`.age_of_industry.heuristic`)
``mcts``          Industry: the one search player (:mod:`.search`) with Industry's hooks; ``ismcts`` for Age of
                  Industry: the same search redealing what its seat cannot see
``ismcts``        20th Century too (:mod:`.twentieth_century.ismcts`): the stacks and catastrophes redealt
``ppo``           :class:`PPOAgent`: the game's shipped MaskablePPO policy, or ``path=`` a policy you trained
``ppo:PATH``      the same with your own policy file (``.npz``) or MaskablePPO ``.zip`` of either game
``az``            :class:`.az.AZAgent`: a policy-value network guiding the game's search player (``az:PATH``: the
                  network's file, a policy-value ``.npz`` or a native checkpoint)
``net``           :class:`.az.NetAgent`: that network's policy alone (``net:PATH``)
``rllib:PATH``    :class:`industry_env.rllib.RLlibAgent`: an RLlib checkpoint's policy (needs the ``rllib`` extra;
                  ``module=`` picks the module, default ``learner``)
``module:attr``   a user's agent, imported: an :class:`Agent` subclass (built with ``seed`` and ``params``), an
                  Agent object, or a plain function ``(observation, action_mask) -> action``
================  =============================================================================================

Every agent has ``act(observation, action_mask) -> int`` and ``act_batch(observations, action_masks) ->
int64[B]`` (see :class:`Agent`), and ``act_game(game)`` for a reference game. A game's agents are imported when
first made: importing this package loads no game. ``docs/agents.md`` tells more.
"""

from __future__ import annotations

import importlib
import inspect
import os
import sys
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from industry_env.core.spec import GameSpec, import_path
from industry_env.registry import DEFAULT_GAME, load_game

from .base import Agent, AgentActionError, AgentInputError, CallableAgent, check_actions
from .ppo import PPOAgent
from .random_agent import RandomAgent

#: the agents that play any game (they read only the mask)
GENERIC_AGENTS: dict[str, type[Agent]] = {"random": RandomAgent}


class AgentTable(Mapping[str, type[Agent]]):
    """The agent classes of one game by name (the generic agents, then the game's own, as its spec names them),
    read from the registry and imported on first lookup: a view, never a second list."""

    def __init__(self, game: str) -> None:
        self.game = game

    def _names(self) -> dict[str, str | type[Agent]]:
        return {**GENERIC_AGENTS, **load_game(self.game).agents}

    def __getitem__(self, name: str) -> type[Agent]:
        target = self._names()[name]
        return target if isinstance(target, type) else _import_factory(target)

    def __iter__(self) -> Iterator[str]:
        return iter(self._names())

    def __len__(self) -> int:
        return len(self._names())

    def __repr__(self) -> str:
        return f"AgentTable({self.game!r}: {', '.join(self)})"


def agents_of(game: str = DEFAULT_GAME) -> AgentTable:
    """The agent classes of ``game`` by name (see :class:`AgentTable`)."""
    load_game(game)  # an unknown game is refused now, naming the games
    return AgentTable(game)


#: the default game's agents by name (``agents_of(game)`` for another game)
AGENTS: AgentTable = AgentTable(DEFAULT_GAME)

# Industry's agents, importable from here as before the suite had several games; imported when first asked for
_INDUSTRY = "industry_env.agents.industry"
_LAZY = {
    "HeuristicAgent": f"{_INDUSTRY}.heuristic", "HeuristicV0Agent": f"{_INDUSTRY}.heuristic",
    "field_values": f"{_INDUSTRY}.heuristic", "heuristic_actions": f"{_INDUSTRY}.heuristic",
    "ReferenceHeuristicV0": f"{_INDUSTRY}.heuristic_v0", "tie_noise": f"{_INDUSTRY}.heuristic_v0",
    "MCTSAgent": f"{_INDUSTRY}.mcts",
}  # fmt: skip


def __getattr__(name: str) -> Any:
    """Industry's agents by their old names, imported on first use."""
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'industry_env.agents' has no attribute {name!r}")


def agent_names(game: str = DEFAULT_GAME) -> list[str]:
    """The names ``make_agent`` knows for ``game``: the generic agents, then the game's own."""
    return [*GENERIC_AGENTS, *load_game(game).agents]


def make_agent(name: str, seed: int | None = None, game: str = DEFAULT_GAME, options: Mapping[str, Any] | None = None,
               **params: Any) -> Agent:  # fmt: skip
    """The agent called ``name`` for ``game`` (a generic agent, one of the game's own, ``ppo:PATH`` a policy file
    or MaskablePPO zip of your own, ``rllib:PATH``, or ``module:attr``), seeded by ``seed``.

    ``params`` are the agent's own parameters (e.g. ``greed`` for the heuristics); an unknown name or parameter,
    or an agent of another game, raises ValueError saying what exists. ``options``: the options of the game it
    will play (e.g. ``{"map": "new_england"}``), where the caller knows them: an option the agent takes as a
    parameter is passed to it (unless ``params`` sets it), and an agent that reads other options (a policy
    trained on another map) is refused now, naming both, rather than at its first move.
    """
    if not isinstance(name, str):
        raise ValueError(f"agent name must be a string, got {type(name).__name__}")
    spec = load_game(game)
    return _fit_options(_make(name, seed, spec, options or {}, params), name, spec, options)


def _make(name: str, seed: int | None, spec: GameSpec, options: Mapping[str, Any], params: dict[str, Any]) -> Agent:
    if name in GENERIC_AGENTS:
        return _bind(_build(GENERIC_AGENTS[name], name, seed, params, spec.id, options), name, spec)
    if name in spec.agents:
        return _bind(_build(_import_factory(spec.agents[name]), name, seed, params, spec.id, options), name, spec)
    if name == "ppo" and spec.engine_module is not None:  # every batched game trains (industry-env train), so its
        # policies play, listed by its spec or not yet (20th Century's, hidden while its engine is verified)
        return _bind(_build(PPOAgent, name, seed, params, spec.id, options), name, spec)
    prefix = next((p for p in NETWORK_PREFIXES if name.startswith(p)), None)
    if prefix is not None:
        path, kind = name[len(prefix) :], prefix[:-1]
        if not path or "path" in params:
            raise ValueError(f"agent {name!r}: give the policy file after '{prefix}' (e.g. "
                             f"{prefix}runs/mine/final.zip), and no path= besides")  # fmt: skip
        if kind not in spec.agents and (kind != "ppo" or spec.engine_module is None):
            raise ValueError(f"agent {name!r}: {spec.name} has no {kind} agent")
        factory = _import_factory(spec.agents[kind]) if kind in spec.agents else PPOAgent
        agent = _build(factory, name, seed, {**params, "path": path}, spec.id, options)
        agent.name = name
        return _bind(agent, name, spec)
    if name.startswith(RLLIB_PREFIX):
        return _bind(_rllib_agent(name, seed, params), name, spec)
    if ":" not in name:
        raise ValueError(f"unknown agent {name!r} for {spec.name}: known agents are "
                         f"{', '.join(agent_names(spec.id))}, or 'module:callable' for your own")  # fmt: skip
    target = _import(name)
    if isinstance(target, type) and issubclass(target, Agent):
        return _bind(_build(target, name, seed, params), name, spec)
    if isinstance(target, Agent):
        if params or seed is not None:
            raise ValueError(f"agent {name!r} is an Agent object: it takes no seed or parameters here")
        return _bind(target, name, spec)
    if isinstance(target, type):  # a class called as a policy would fail only at its first move: refuse it now
        raise ValueError(f"agent {name!r} is a class, {target.__module__}.{target.__qualname__}, but not a subclass "
                         f"of industry_env.agents.Agent: subclass Agent (implement _choose), or name an Agent "
                         f"object or a function (observation, action_mask) -> action")  # fmt: skip
    if callable(target):
        if params or seed is not None:
            raise ValueError(f"agent {name!r} is a plain function (observation, action_mask) -> action: it takes "
                             f"no seed or parameters; make it an Agent subclass to have them")  # fmt: skip
        check_policy_signature(target, name)
        return CallableAgent(target, name=name, game=spec.id)
    raise ValueError(f"agent {name!r} is neither an Agent class, an Agent, nor a callable: {target!r}")


def _fit_options(agent: Agent, name: str, spec: GameSpec, options: Mapping[str, Any] | None) -> Agent:
    """``agent``, unless the game options it reads (``agent.options``: those its sizes depend on, e.g. the map a
    network was trained on) differ from ``options``, the ones it will play: then ValueError naming both."""
    reads = getattr(agent, "options", None) or {}
    for key, value in reads.items():
        if options and key in options and options[key] != value:
            raise ValueError(f"agent {name!r} reads {spec.name} with {key} = {value!r} (its observation and "
                             f"actions are that {key}'s), not {key} = {options[key]!r} as asked: seat an agent of "
                             f"that {key} (a policy trained on it: ppo:PATH)")  # fmt: skip
    return agent


def check_policy_signature(policy: Callable[..., Any], name: str) -> None:
    """ValueError unless ``policy`` can be called as ``policy(observation, action_mask)`` (checked at load, not at
    the first move); a callable whose signature Python cannot read is let through."""
    try:
        signature = inspect.signature(policy)
    except (TypeError, ValueError):
        return
    try:
        signature.bind(None, None)
    except TypeError as exc:
        raise ValueError(f"agent {name!r}: {policy!r} cannot be called as policy(observation, action_mask) -> "
                         f"action ({exc})") from None  # fmt: skip


def as_agent(agent: str | Agent | Callable[[Any, Any], int], seed: int | None = None,
             game: str = DEFAULT_GAME, options: Mapping[str, Any] | None = None) -> Agent:  # fmt: skip
    """An :class:`Agent` of ``game`` from a name (see :func:`make_agent`), an Agent, or a plain function
    ``(obs, mask)``.

    ``seed`` seeds the agents built by name; a name that imports an Agent object or a plain function (which take
    no seed) is used as it is, as the arena does, so that leagues and environments accept every kind of spec.
    ``options``: the game's options it will play, as :func:`make_agent` takes them.
    """
    spec = load_game(game)
    if isinstance(agent, Agent):
        return _fit_options(_bind(agent, agent.name, spec), agent.name, spec, options)
    if isinstance(agent, str):
        if seed is not None and ":" in agent and not agent.startswith((RLLIB_PREFIX, *NETWORK_PREFIXES)):
            target = _import(agent)
            if not (isinstance(target, type) and issubclass(target, Agent)):
                return make_agent(agent, game=game, options=options)  # an object or a function: nothing to seed
        return make_agent(agent, seed=seed, game=game, options=options)
    if callable(agent):
        if isinstance(agent, type):
            raise ValueError(f"not an agent: the class {agent.__qualname__} (give an instance, or subclass Agent "
                             f"and pass its name)")  # fmt: skip
        check_policy_signature(agent, getattr(agent, "__qualname__", repr(agent)))
        return CallableAgent(agent, game=game)
    raise ValueError(f"not an agent: {agent!r} (give a name, an Agent, or a function (observation, action_mask))")


PPO_PREFIX = "ppo:"  # make_agent("ppo:PATH"): a policy file or MaskablePPO zip of industry-env train
#: NAME:PATH: the network agent NAME (ppo, az, net) with its network file, e.g. az:runs/mine/final.npz
NETWORK_PREFIXES = (PPO_PREFIX, "az:", "net:")
RLLIB_PREFIX = "rllib:"  # make_agent("rllib:PATH"): a checkpoint of industry-env train --framework rllib
# The agent classes of the training adapters, named (as the registry names games): the adapters import the agents'
# interface, so the agents only name them and import them when one is asked for.
RLLIB_AGENT = "industry_env.rllib.agent:RLlibAgent"


def _rllib_agent(name: str, seed: int | None, params: dict[str, Any]) -> Agent:
    """``rllib:PATH`` as an agent; the rllib extra is imported only here, so the core never needs Ray."""
    path = name[len(RLLIB_PREFIX) :]
    if not path:
        raise ValueError("agent 'rllib:': give the checkpoint folder after the colon, e.g. rllib:runs/rllib/final")
    if "path" in params:
        raise ValueError(f"agent {name!r}: the path is the part after 'rllib:'; do not pass path= too")
    try:
        rllib_agent = _import_factory(RLLIB_AGENT)
    except ImportError as exc:
        raise ValueError(f"agent {name!r}: {exc}") from None
    return _build(rllib_agent, name, seed, {**params, "path": path})


def with_current_folder() -> None:
    """Put the current folder first on ``sys.path`` if it is not there, as ``python -m`` and ``pytest`` do.

    A console script (``industry-env``) starts with its own folder on the path, not the current one, so without
    this ``--agents mymodule:policy`` found ``mymodule.py`` only under ``python -m industry_env``.
    """
    here = os.getcwd()
    if not any(os.path.abspath(p or os.curdir) == here for p in sys.path):
        sys.path.insert(0, here)


def _bind(agent: Agent, name: str, spec: GameSpec) -> Agent:
    """``agent`` playing the game of ``spec``: an agent of any game is bound to it, one of another game refused."""
    if agent.game is None:
        agent.game = spec.id
    elif agent.game != spec.id:
        raise ValueError(f"agent {name!r} plays {load_game(agent.game).name}, not {spec.name}")
    return agent


def _import_factory(path: str) -> type[Agent]:
    """The agent class a game's spec names as ``module:attr``."""
    return import_path(path)


def _build(cls: type[Agent], name: str, seed: int | None, params: dict[str, Any], game: str | None = None,
           options: Mapping[str, Any] | None = None) -> Agent:  # fmt: skip
    signature = inspect.signature(cls.__init__).parameters
    accepted = [k for k in signature if k not in ("self", "seed", "game")]
    unknown = sorted(set(params) - set(accepted))
    if unknown:
        takes = ", ".join(["seed", *accepted])
        raise ValueError(f"agent {name!r} has no parameter {', '.join(map(repr, unknown))} (it takes: {takes})")
    # the game's options the agent takes as parameters (Age of Industry's agents: map), unless given
    params = {**{k: v for k, v in (options or {}).items() if k in accepted}, **params}
    if game is not None and "game" in signature:  # an agent that plays several games is told which
        params = {**params, "game": game}
    return cls(seed=seed, **params)


def _import(name: str) -> Any:
    """The object ``module:attr`` names, imported as ``python -m`` would: the current folder first on the path."""
    module_name, _, attr = name.partition(":")
    if not module_name:
        raise ValueError(f"agent {name!r}: write module:attr, e.g. mypackage.policies:my_policy")
    with_current_folder()
    try:
        obj: Any = importlib.import_module(module_name)
    except ImportError as exc:
        raise ValueError(f"agent {name!r}: cannot import module {module_name!r} ({exc}); it is looked for in "
                         f"the current folder ({os.getcwd()}) and on Python's path") from None  # fmt: skip
    for part in attr.split("."):
        if not part or not hasattr(obj, part):
            raise ValueError(f"agent {name!r}: module {module_name!r} has no attribute {attr!r}")
        obj = getattr(obj, part)
    return obj


__all__ = [
    "AGENTS", "GENERIC_AGENTS", "Agent", "AgentActionError", "AgentInputError", "AgentTable", "CallableAgent",
    "HeuristicAgent", "HeuristicV0Agent", "MCTSAgent", "NETWORK_PREFIXES", "PPOAgent", "PPO_PREFIX", "RandomAgent",
    "ReferenceHeuristicV0", "agent_names", "agents_of", "as_agent", "check_actions", "check_policy_signature",
    "field_values", "heuristic_actions", "make_agent", "tie_noise", "with_current_folder",
]  # fmt: skip
