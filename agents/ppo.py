"""``PPOAgent``: a policy trained with MaskablePPO (``industry_env.train``) as an Agent.

``make_agent("ppo")`` plays the shipped policy of Industry (``industry_env/games/industry/data/ppo_industry.npz``,
loaded on first use), ``make_agent("ppo", game=...)`` a game's shipped policy (``GameSpec.shipped_policy``);
``make_agent("ppo", path=..., game=...)`` plays your own. Only the actor is kept: a tanh (or the saved
activation) MLP from the game's observation floats to one logit per action, after a **cell encoder** where the
policy was trained with one (``encoder = "cells"``: :func:`cell_encoder`, one small ReLU network shared by every
cell of an observation piece such as 20th Century's ``grids``, its outputs flattened after the rest of the
observation); illegal actions get ``-inf`` before the choice. Deterministic by default
(the most probable legal action); ``deterministic=False`` samples from the masked softmax with the agent's own
seeded generator.

Files it reads, none of them by unpickling (nothing in them can run code):

- the **policy file** (``.npz``, :func:`export_policy` and :meth:`PPOAgent.save` write it): a JSON description
  (format, activation, layer sizes, the game it plays; with a cell encoder, format ``industry_env-ppo-actor/3``
  and the piece it encodes, its activation and sizes) and the weights as plain arrays (``weight_k``, ``bias_k``;
  ``cell_weight_k``, ``cell_bias_k``), read with ``numpy.load(allow_pickle=False)``; a policy-value file
  (:func:`export_policy_value`, for the ``az`` agent) holds a value network besides (``value`` in the
  description, ``value_weight_k``, ``value_bias_k``), which the actor's readers skip (:func:`load_value_head`);
- a MaskablePPO ``.zip`` as ``model.save`` writes it: only its JSON ``data`` (the activation's name, the piece a
  cell encoder reads) and its
  ``policy.pth`` (by ``torch.load(weights_only=True)``) are read; the pickled objects it also holds are not
  (``MaskablePPO.load`` unpickles them: only load zips you trust with it);
- an older ``PPOAgent.save`` file (``.pt``, format ``industry_env-ppo-actor/1``), by ``torch.load(weights_only=True)``.

Every file is checked when loaded: the layers must chain from the game's observation size (or from a cell
encoder's features, the encoder's piece one of the game's pieces of cells, its first layer taking a cell's
features) to its number of actions (read from the game's spec), with finite weights.

A policy trained on an **older layout** of its game's observation and actions still plays, where the game can
translate today's positions into that layout (``GameSpec.older_layouts``: 20th Century's shipped policy sees each
nation through the 9 x 9 window of cells it was trained on, from before ruling 18 was lifted). A policy whose sizes
are an older layout's, and no current variant's, is loaded and checked against that layout; it acts on the
layout's translation of each observation, and its logits are spread to today's actions through the layout's map
(:func:`spread_logits`): each of today's actions gets the logit of the older action naming the same move, and one
with no equivalent there (20th Century: a cell outside the window) a logit below all of those, so the policy plays
a legal move whatever the position, preferring the moves it can see.

What needs torch (the ``train`` extra): a policy file (``.npz``, both games' shipped policies among them) plays with
numpy alone where torch is not installed (:class:`NumpyActor`: the same float32 layers and activations; its logits
are torch's to float32 rounding, 1e-5 relative, and its actions torch's on every position tested); where torch is
installed, torch runs them, as before. A numpy actor multiplies on ``threads`` OpenBLAS threads
(:func:`blas_controller`, threadpoolctl). A MaskablePPO ``.zip``
and a ``.pt`` file are read by ``torch.load``, so they need torch, as do :meth:`PPOAgent.from_policy` and
:func:`export_policy` of a model, a zip or a ``.pt`` file (they read torch models); exporting or saving an agent
or a policy file does not.

This module holds the agent (:class:`PPOAgent`, :class:`NetworkAgent`), the shipped policies and
:func:`export_policy`, and offers every name of the modules beside it: :mod:`.policy_file` (the files' formats, their
safe reading and checking, writing a policy file, the value network), :mod:`.policy_numpy` (the numpy forward pass),
:mod:`.policy_torch` (torch, the cell encoder module, a live policy's actor) and :mod:`.policy_layouts` (which game,
variant or older layout a network's sizes are, :func:`spread_logits`).
"""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from industry_env.core.spec import import_path
from industry_env.registry import load_game

from .base import Agent, AgentInputError, check_seed
from .policy_file import (
    BACKENDS,
    ENCODER_FORMAT,
    MAX_POLICY_BYTES,
    POLICY_FORMAT,
    VALUE_KEY,
    WEIGHTS_FORMAT,
    export_policy_value,
    load_actor,
    load_value_head,
    save_policy_value,
    write_policy_file,
)
from .policy_layouts import (
    GAME,
    cell_piece,
    check_actor,
    encoder_of,
    features_width,
    game_of_sizes,
    older_layout_of,
    options_of_actor,
    spread_logits,
)
from .policy_numpy import (
    ACTIVATIONS,
    NUMPY_ACTIVATIONS,
    NumpyActivation,
    NumpyActor,
    NumpyCellEncoder,
    NumpyLinear,
    ValueHead,
    blas_controller,
)
from .policy_torch import (
    CELL_ACTIVATION,
    TrainExtraMissing,
    actor_from_policy,
    cell_encoder,
    import_torch,
    torch_if_installed,
)

__all__ = [  # what this module has always offered, wherever it now lives
    "ACTIVATIONS", "BACKENDS", "CELL_ACTIVATION", "ENCODER_FORMAT", "GAME", "MAX_POLICY_BYTES", "NUMPY_ACTIVATIONS",
    "POLICY_FORMAT", "SHIPPED", "SHIPPED_SB3", "VALUE_KEY", "WEIGHTS_FORMAT", "NetworkAgent", "NumpyActivation",
    "NumpyActor", "NumpyCellEncoder", "NumpyLinear", "PPOAgent", "TrainExtraMissing", "ValueHead", "actor_from_policy",
    "blas_controller", "cell_encoder", "cell_piece", "encoder_of", "export_policy", "export_policy_value",
    "features_width", "game_of_sizes", "load_actor", "load_value_head", "older_layout_of", "options_of_actor",
    "save_policy_value", "shipped_path", "shipped_sb3_path", "spread_logits",
]  # fmt: skip

SHIPPED = "ppo_industry.npz"  # in Industry's data folder: the actor of ppo_industry.zip, exported by export_policy
SHIPPED_SB3 = "ppo_industry.zip"  # the whole MaskablePPO save it came from (Adam state too: to continue training)


def shipped_path(game: str = GAME) -> Path:
    """Where ``game``'s shipped policy file (weights only, ``.npz``) lives inside the installed package; a
    ValueError if the game ships none."""
    spec = load_game(game)
    if spec.shipped_policy is None:
        raise AgentInputError(f"{spec.name} ships no trained policy yet: pass path= (a policy file or a "
                              f"MaskablePPO .zip of your own, trained with industry-env train)")  # fmt: skip
    package, _, file = spec.shipped_policy.partition(":")
    return Path(str(resources.files(package).joinpath(file)))


def shipped_sb3_path() -> Path:
    """The shipped MaskablePPO save the policy file was exported from (for continuing training; unpickles)."""
    return shipped_path(GAME).with_name(SHIPPED_SB3)


def export_policy(source: Any, path: str | Path, game: str = GAME) -> Path:
    """Write the actor of ``source`` as a policy file (``.npz``, weights only), which loads without unpickling.

    ``source``: a PPOAgent, a MaskablePPO model or its ``policy``, or the path of a policy file, a MaskablePPO
    ``.zip`` (read without unpickling) or a ``.pt`` weights file. The file is written under a temporary name and
    renamed, so it is whole or absent. ``make_agent("ppo", path=...)`` plays it, with or without torch. A model,
    a ``.zip`` or a ``.pt`` file needs torch to read; an agent or a policy file does not.
    """
    if isinstance(source, (str, os.PathLike)):
        actor = load_actor(source, game)
    elif isinstance(source, PPOAgent):
        actor = source.actor
    else:
        policy = getattr(source, "policy", source)
        if not hasattr(policy, "mlp_extractor"):
            raise AgentInputError(f"export_policy: {type(source).__name__} is not a PPOAgent, a MaskablePPO model "
                                  f"or policy, nor the path of a policy")  # fmt: skip
        actor = actor_from_policy(policy)
    check_actor(actor, f"export_policy({type(source).__name__})", game)
    return write_policy_file(actor, Path(path), game)


_SHIPPED_ACTOR: dict[tuple[str, bool], Any] = {}  # (game, torch installed) -> its shipped actor, read once per
# process (frozen: agents share it)


class NetworkAgent(Agent, ABC):
    """An agent that acts by a network's logits over the game's actions: the most probable legal action, or a
    sample of the masked softmax (Gumbel-max, the agent's generator); torch runs on ``threads`` threads during its
    calls (numpy's OpenBLAS on as many, for a numpy network). Subclasses give :meth:`raw_logits` and set ``torch``
    (None for a numpy network), ``threads``, ``deterministic`` and ``rng``."""

    torch: Any
    threads: int
    deterministic: bool
    rng: np.random.Generator

    @staticmethod
    def check_options(deterministic: object, threads: object) -> None:
        """AgentInputError unless ``deterministic`` is a bool and ``threads`` a whole number >= 1."""
        if not isinstance(deterministic, bool):
            raise AgentInputError(f"deterministic={deterministic!r}: must be True or False")
        if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
            raise AgentInputError(f"threads={threads!r}: torch threads for the policy, a whole number >= 1")

    @abstractmethod
    def raw_logits(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """float32[B, A]: the network's logits, before masking (called under ``torch.inference_mode`` if torch)."""

    def logits(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """float32[B, A]: the policy's logits with illegal actions at -inf (checked inputs)."""
        if self.torch is None:  # a numpy network: numpy's BLAS threads, where they can be set
            with blas_controller().limit(limits=self.threads, user_api="blas"):
                raw = self.raw_logits(observations, masks)
            return np.where(masks, raw, -np.inf).astype(np.float32)
        torch, before = self.torch, self.torch.get_num_threads()
        if before != self.threads:  # one thread: a small MLP gains nothing from more, and loses much on a busy CPU
            torch.set_num_threads(self.threads)
        try:
            with torch.inference_mode():
                raw = self.raw_logits(observations, masks)
        finally:
            if before != self.threads:
                torch.set_num_threads(before)
        return np.where(masks, raw, -np.inf).astype(np.float32)

    def _choose(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        logits = self.logits(observations, masks)
        if not self.deterministic:  # Gumbel-max: a sample of the masked softmax
            logits = logits + self.rng.gumbel(size=logits.shape).astype(np.float32)
        return logits.argmax(axis=1).astype(np.int64)


class PPOAgent(NetworkAgent):
    """A trained MaskablePPO policy as an Agent; see the module docstring.

    ``path``: a policy file (``.npz``), a MaskablePPO ``.zip`` or a ``.pt`` weights file (default: the game's
    shipped policy, a policy file). A policy file runs on torch where it is installed, else on numpy (the actor a
    :class:`NumpyActor`, ``torch`` None); a ``.zip`` or ``.pt`` needs torch.
    ``game``: the game the policy plays (its observation and actions; default Industry). A policy of one of the
    game's older layouts (``older_layout``, :func:`older_layout_of`; None for today's) plays through it.
    ``deterministic``: the most probable legal action (default) or a sample from the masked softmax, drawn
    with the agent's generator seeded by ``seed``. ``threads``: torch threads during its calls (default 1: a
    forward pass of this size takes about 0.3 ms on one thread, and 30 times longer with two on a busy 2-core CPU;
    for a numpy actor, numpy's OpenBLAS threads).
    """

    name = "ppo"
    game = GAME

    def __init__(self, seed: int | None = None, path: str | Path | None = None, deterministic: bool = True,
                 threads: int = 1, game: str = GAME) -> None:  # fmt: skip
        self.check_options(deterministic, threads)
        spec = load_game(game)
        self.game = spec.id
        self.threads = threads
        self.rng = np.random.default_rng(check_seed(seed))
        self.deterministic = deterministic
        if path is None:
            p, key = shipped_path(spec.id), (spec.id, torch_if_installed() is not None)
            if key not in _SHIPPED_ACTOR:
                if not p.is_file():
                    raise AgentInputError(f"the shipped PPO policy of {spec.name} is missing from this install ({p})")
                _SHIPPED_ACTOR[key] = load_actor(p, spec.id)
            self.actor = _SHIPPED_ACTOR[key]
            self.path: Path | None = p
        else:
            self.actor = load_actor(path, spec.id)
            self.path = Path(path)
        self.torch = None if isinstance(self.actor, NumpyActor) else import_torch(f"the 'ppo' agent of {self.path}")
        self.options = options_of_actor(self.actor, spec.id)  # the map its network was made for, if it matters
        self.older_layout = older_layout_of(self.actor, spec.id)  # the layout it was trained on, if not today's

    @classmethod
    def from_policy(cls, policy: Any, name: str = "ppo", seed: int | None = None, deterministic: bool = True,
                    game: str = GAME) -> PPOAgent:  # fmt: skip
        """A frozen snapshot of a live MaskablePPO policy (e.g. ``model.policy`` during training) of ``game``."""
        import_torch("PPOAgent.from_policy (a live MaskablePPO policy)")
        return cls.from_actor(actor_from_policy(policy), name=name, seed=seed, deterministic=deterministic, game=game)

    @classmethod
    def from_actor(cls, actor: Any, name: str = "ppo", seed: int | None = None, deterministic: bool = True,
                   game: str = GAME) -> PPOAgent:  # fmt: skip
        """An agent playing ``actor``: a frozen torch nn.Sequential of the policy files' layout ([cell encoder,]
        Linear, activation, ..., Linear; the native trainer's ``ActorCritic.actor()``) or a :class:`NumpyActor`;
        checked against ``game``'s sizes. ``save`` writes it as a policy file."""
        agent = cls.__new__(cls)
        agent.game = load_game(game).id
        agent.rng = np.random.default_rng(check_seed(seed))
        agent.deterministic = bool(deterministic)
        agent.threads = 1
        agent.torch = None if isinstance(actor, NumpyActor) else import_torch("PPOAgent.from_actor (a torch actor)")
        agent.actor = actor
        check_actor(agent.actor, "PPOAgent.from_actor", agent.game)
        agent.options = options_of_actor(agent.actor, agent.game)
        agent.older_layout = older_layout_of(agent.actor, agent.game)
        agent.path = None
        agent.name = name
        return agent

    def raw_logits(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """float32[B, A]: the actor's logits (torch's or numpy's); for a policy of an older layout, its logits on
        the layout's translation of the observations, spread to today's actions (:func:`spread_logits`)."""
        x = np.ascontiguousarray(observations, np.float32)
        if self.older_layout is None:
            return self._forward(x)
        old = self._forward(np.ascontiguousarray(self.older_layout.observation(x), np.float32))
        return spread_logits(old, self.older_layout.actions(x))

    def _forward(self, x: np.ndarray) -> np.ndarray:
        """float32[B, A]: the actor on float32[B, D] inputs."""
        return self.actor(x) if self.torch is None else self.actor(self.torch.from_numpy(x)).numpy()

    def save(self, path: str | Path) -> Path:
        """Write the actor as a policy file (``.npz``, weights only; :func:`export_policy`) that ``path=`` reads."""
        return write_policy_file(self.actor, Path(path), self.game)

    def _choose(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        check = self.spec.observation_check if self.spec is not None else None
        if check is not None:  # the game checks its observations entry by entry (Age of Industry's agents')
            import_path(check)(observations, **(self.options or {}))
        return super()._choose(observations, masks)

    def __repr__(self) -> str:
        return f"PPOAgent(name={self.name!r}, path={str(self.path) if self.path else None!r})"
