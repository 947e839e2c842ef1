"""``PPOAgent``: a policy trained with MaskablePPO (``industry_env.train``) as an Agent; needs the ``train`` extra.

``make_agent("ppo")`` plays the shipped policy (``industry_env/data/ppo_industry.zip``, loaded on first use);
``make_agent("ppo", path="run/final.zip")`` plays your own: a MaskablePPO ``.zip`` as ``model.save`` writes it, or
a weights file (``.pt``) written by :meth:`PPOAgent.save`. Only the actor is kept: a tanh (or the saved
activation) MLP from the 675 observation floats to 314 logits; illegal actions get ``-inf`` before the choice.
Deterministic by default (the most probable legal action); ``deterministic=False`` samples from the masked
softmax with the agent's own seeded generator.
"""

from __future__ import annotations

import copy
import zipfile
from abc import ABC, abstractmethod
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from industry_env import observation as O
from industry_env.actions import NUM_ACTIONS

from .base import Agent, AgentInputError, check_seed

SHIPPED = "ppo_industry.zip"  # in industry_env/data
WEIGHTS_FORMAT = "industry_env-ppo-actor/1"


class TrainExtraMissing(ImportError, ValueError):
    """torch (or Stable-Baselines3) is not installed: the PPO agent needs ``pip install 'industry_env[train]'``."""


def _torch() -> Any:
    try:
        import torch
    except ImportError as exc:
        raise TrainExtraMissing("the 'ppo' agent needs torch: pip install 'industry_env[train]' "
                                f"(the train extra) ({exc})") from None  # fmt: skip
    return torch


def shipped_path() -> Path:
    """Where the shipped policy lives inside the installed package."""
    return Path(str(resources.files("industry_env.data").joinpath(SHIPPED)))


def _actor_from_layers(layers: list[tuple[Any, Any]], activation: Any) -> Any:
    """nn.Sequential: Linear layers with ``activation`` between them (none after the last)."""
    torch = _torch()
    mods: list[Any] = []
    for k, (w, b) in enumerate(layers):
        lin = torch.nn.Linear(w.shape[1], w.shape[0])
        with torch.no_grad():
            lin.weight.copy_(w)
            lin.bias.copy_(b)
        mods.append(lin)
        if k < len(layers) - 1:
            mods.append(activation())
    actor = torch.nn.Sequential(*mods)
    actor.requires_grad_(False)
    return actor.eval()


def actor_from_policy(policy: Any) -> Any:
    """A frozen copy of a MaskablePPO policy's actor (features -> policy MLP -> action logits) as nn.Sequential."""
    torch = _torch()
    extractor = getattr(policy, "pi_features_extractor", getattr(policy, "features_extractor", None))
    if type(extractor).__name__ != "FlattenExtractor":
        raise AgentInputError(f"PPOAgent reads MLP policies on the flat observation, not {type(extractor).__name__}")
    mods = [copy.deepcopy(m) for m in policy.mlp_extractor.policy_net] + [copy.deepcopy(policy.action_net)]
    actor = torch.nn.Sequential(*mods).to("cpu")
    actor.requires_grad_(False)
    return actor.eval()


def _check_actor(actor: Any, where: str) -> None:
    lins = [m for m in actor if type(m).__name__ == "Linear"]
    if not lins or lins[0].in_features != O.OBS_DIM or lins[-1].out_features != NUM_ACTIONS:
        raise AgentInputError(f"{where}: not an Industry policy (expected {O.OBS_DIM} inputs and {NUM_ACTIONS} "
                              f"outputs)")  # fmt: skip


def load_actor(path: str | Path) -> Any:
    """The actor of a saved MaskablePPO ``.zip`` or of a weights file written by :meth:`PPOAgent.save`."""
    torch = _torch()
    p = Path(path)
    if not p.is_file():
        raise AgentInputError(f"PPO policy {p}: no such file")
    if _is_sb3_save(p):
        try:
            from stable_baselines3.common.save_util import load_from_zip_file
        except ImportError as exc:
            raise TrainExtraMissing(f"reading {p} needs Stable-Baselines3: pip install 'industry_env[train]' "
                                    f"({exc})") from None  # fmt: skip
        try:
            data, params, _ = load_from_zip_file(p, device="cpu", print_system_info=False)
        except Exception as exc:  # a zip that is not an SB3 save
            raise AgentInputError(f"PPO policy {p}: not a Stable-Baselines3 save ({exc})") from exc
        state = (params or {}).get("policy")
        if not state:
            raise AgentInputError(f"PPO policy {p}: the zip holds no policy weights")
        kwargs = (data or {}).get("policy_kwargs") or {}
        activation = kwargs.get("activation_fn", torch.nn.Tanh)
        k, layers = 0, []
        while f"mlp_extractor.policy_net.{k}.weight" in state:
            layers.append((state[f"mlp_extractor.policy_net.{k}.weight"], state[f"mlp_extractor.policy_net.{k}.bias"]))
            k += 2  # Linear, activation, Linear, ...
        if "action_net.weight" not in state:
            raise AgentInputError(f"PPO policy {p}: no action_net in the saved policy")
        layers.append((state["action_net.weight"], state["action_net.bias"]))
        actor = _actor_from_layers(layers, activation)
    else:
        try:
            blob = torch.load(p, map_location="cpu", weights_only=True)
        except Exception as exc:
            raise AgentInputError(f"PPO policy {p}: neither a MaskablePPO zip nor a PPOAgent weights file ({exc})"
                                  ) from exc  # fmt: skip
        if not isinstance(blob, dict) or blob.get("format") != WEIGHTS_FORMAT:
            raise AgentInputError(f"PPO policy {p}: not a PPOAgent weights file (format {WEIGHTS_FORMAT})")
        activation = getattr(torch.nn, str(blob["activation"]), None)
        if activation is None:
            raise AgentInputError(f"PPO policy {p}: unknown activation {blob['activation']!r}")
        n = len(blob["weights"])
        layers = [(blob["weights"][k], blob["biases"][k]) for k in range(n)]
        actor = _actor_from_layers(layers, activation)
    _check_actor(actor, f"PPO policy {p}")
    return actor


def _is_sb3_save(p: Path) -> bool:
    """A Stable-Baselines3 ``model.save`` zip (``data`` and ``policy.pth`` inside; torch's own files are zips too)."""
    if not zipfile.is_zipfile(p):
        return False
    with zipfile.ZipFile(p) as z:
        return {"data", "policy.pth"} <= set(z.namelist())


_SHIPPED_ACTOR: list[Any] = []  # the shipped actor, read once per process (frozen: agents can share it)


class NetworkAgent(Agent, ABC):
    """An agent that acts by a torch network's logits over the 314 actions: the most probable legal action, or a
    sample of the masked softmax (Gumbel-max, the agent's generator); torch runs on ``threads`` threads during its
    calls. Subclasses give :meth:`raw_logits` and set ``torch``, ``threads``, ``deterministic`` and ``rng``."""

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
        """float32[B, 314]: the network's logits, before masking (called under ``torch.inference_mode``)."""

    def logits(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """float32[B, 314]: the policy's logits with illegal actions at -inf (checked inputs)."""
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

    ``path``: a MaskablePPO ``.zip`` or a PPOAgent weights file (default: the shipped policy).
    ``deterministic``: the most probable legal action (default) or a sample from the masked softmax, drawn
    with the agent's generator seeded by ``seed``. ``threads``: torch threads during its calls (default 1: a
    forward pass of this size takes about 0.3 ms on one thread, and 30 times longer with two on a busy 2-core CPU).
    """

    name = "ppo"

    def __init__(self, seed: int | None = None, path: str | Path | None = None, deterministic: bool = True,
                 threads: int = 1) -> None:  # fmt: skip
        self.check_options(deterministic, threads)
        self.threads = threads
        self.rng = np.random.default_rng(check_seed(seed))
        self.deterministic = deterministic
        self.torch = _torch()
        if path is None:
            if not _SHIPPED_ACTOR:
                p = shipped_path()
                if not p.is_file():
                    raise AgentInputError(f"the shipped PPO policy is missing from this install ({p})")
                _SHIPPED_ACTOR.append(load_actor(p))
            self.actor = _SHIPPED_ACTOR[0]
            self.path: Path | None = shipped_path()
        else:
            self.actor = load_actor(path)
            self.path = Path(path)

    @classmethod
    def from_policy(cls, policy: Any, name: str = "ppo", seed: int | None = None,
                    deterministic: bool = True) -> PPOAgent:  # fmt: skip
        """A frozen snapshot of a live MaskablePPO policy (e.g. ``model.policy`` during training)."""
        agent = cls.__new__(cls)
        agent.rng = np.random.default_rng(check_seed(seed))
        agent.deterministic = bool(deterministic)
        agent.threads = 1
        agent.torch = _torch()
        agent.actor = actor_from_policy(policy)
        _check_actor(agent.actor, "PPOAgent.from_policy")
        agent.path = None
        agent.name = name
        return agent

    def raw_logits(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """float32[B, 314]: the actor's logits."""
        return self.actor(self.torch.from_numpy(np.ascontiguousarray(observations, np.float32))).numpy()

    def save(self, path: str | Path) -> Path:
        """Write the actor as a small weights file (torch, ``weights_only``-loadable) that ``path=`` reads back."""
        lins = [m for m in self.actor if isinstance(m, self.torch.nn.Linear)]
        acts = {type(m).__name__ for m in self.actor if not isinstance(m, self.torch.nn.Linear)}
        blob = {"format": WEIGHTS_FORMAT, "activation": acts.pop() if acts else "Tanh",
                "weights": [m.weight.detach().clone() for m in lins],
                "biases": [m.bias.detach().clone() for m in lins]}  # fmt: skip
        p = Path(path)
        self.torch.save(blob, p)
        return p

    def __repr__(self) -> str:
        return f"PPOAgent(name={self.name!r}, path={str(self.path) if self.path else None!r})"
