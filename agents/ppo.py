"""``PPOAgent``: a policy trained with MaskablePPO (``industry_env.train``) as an Agent; needs the ``train`` extra.

``make_agent("ppo")`` plays the shipped policy of Industry (``industry_env/data/ppo_industry.npz``, loaded on
first use), ``make_agent("ppo", game=...)`` a game's shipped policy (``GameSpec.shipped_policy``);
``make_agent("ppo", path=..., game=...)`` plays your own. Only the actor is kept: a tanh (or the saved
activation) MLP from the game's observation floats to one logit per action; illegal actions get ``-inf`` before
the choice. Deterministic by default
(the most probable legal action); ``deterministic=False`` samples from the masked softmax with the agent's own
seeded generator.

Files it reads, none of them by unpickling (nothing in them can run code):

- the **policy file** (``.npz``, :func:`export_policy` and :meth:`PPOAgent.save` write it): a JSON description
  (format, activation, layer sizes, the game it plays) and the weights as plain arrays, read with
  ``numpy.load(allow_pickle=False)``;
- a MaskablePPO ``.zip`` as ``model.save`` writes it: only its JSON ``data`` (the activation's name) and its
  ``policy.pth`` (by ``torch.load(weights_only=True)``) are read; the pickled objects it also holds are not
  (``MaskablePPO.load`` unpickles them: only load zips you trust with it);
- an older ``PPOAgent.save`` file (``.pt``, format ``industry_env-ppo-actor/1``), by ``torch.load(weights_only=True)``.

Every file is checked when loaded: the layers must chain from the game's observation size to its number of actions
(read from the game's spec), with finite weights.
"""

from __future__ import annotations

import copy
import io
import json
import os
import re
import zipfile
from abc import ABC, abstractmethod
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from industry_env.core.outputs import atomic_file
from industry_env.registry import load_game

from .base import Agent, AgentInputError, check_seed

GAME = "industry"  # the default game whose observation and actions the policy files' networks read and give
SHIPPED = "ppo_industry.npz"  # in industry_env/data: the actor of ppo_industry.zip, exported by export_policy
SHIPPED_SB3 = "ppo_industry.zip"  # the whole MaskablePPO save it came from (Adam state too: to continue training)
WEIGHTS_FORMAT = "industry_env-ppo-actor/1"  # the older torch weights file (.pt), still read
POLICY_FORMAT = "industry_env-ppo-actor/2"  # the policy file (.npz): JSON description + plain arrays
ACTIVATIONS = (
    "Tanh",
    "ReLU",
    "LeakyReLU",
    "ELU",
    "SELU",
    "CELU",
    "GELU",
    "SiLU",
    "Mish",
    "Sigmoid",
    "Softplus",
    "Hardtanh",
    "Identity",
)  # torch.nn activations a policy file may name (built with no arguments)


class TrainExtraMissing(ImportError, ValueError):
    """torch (or Stable-Baselines3) is not installed: the PPO agent needs ``pip install 'industry_env[train]'``."""


def _torch() -> Any:
    try:
        import torch
    except ImportError as exc:
        raise TrainExtraMissing("the 'ppo' agent needs torch: pip install 'industry_env[train]' "
                                f"(the train extra) ({exc})") from None  # fmt: skip
    return torch


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
    return Path(str(resources.files("industry_env.data").joinpath(SHIPPED_SB3)))


def _actor_from_layers(layers: list[tuple[Any, Any]], activation: str, where: str, game: str = GAME) -> Any:
    """nn.Sequential: Linear layers with ``activation`` between them (none after the last), checked first.

    The layers must chain (each one's inputs the previous one's outputs) from the game's observation floats to
    its logits, with 2-D weights, 1-D biases and finite values: a file that does not fits is refused here, when
    it is loaded, not at its first action.
    """
    variants = _variants(game)
    torch = _torch()
    if activation not in ACTIVATIONS:
        raise AgentInputError(f"{where}: activation {activation!r} is not one of {', '.join(ACTIVATIONS)}")
    if not layers:
        raise AgentInputError(f"{where}: no layers")
    sizes = sorted({o for o, _ in variants})
    first = torch.as_tensor(layers[0][0])
    if first.ndim == 2 and int(first.shape[-1]) not in sizes:  # another game's network: name it
        last = torch.as_tensor(layers[-1][0])
        _another_game(int(first.shape[-1]), int(last.shape[0]) if last.ndim == 2 else None, where, game)
    width = sizes[0] if len(sizes) == 1 else int(first.shape[-1])
    if width not in sizes:
        raise AgentInputError(f"{where}: layer 0 takes {width} inputs, not the {' or '.join(map(str, sizes))} "
                              f"floats of an observation of {load_game(game).name}")  # fmt: skip
    checked = []
    for k, (w, b) in enumerate(layers):
        w, b = torch.as_tensor(w), torch.as_tensor(b)
        if w.ndim != 2 or b.ndim != 1 or b.shape[0] != w.shape[0] or not w.is_floating_point() or \
                not b.is_floating_point():  # fmt: skip
            raise AgentInputError(f"{where}: layer {k} has weights {list(w.shape)} {w.dtype} and biases "
                                  f"{list(b.shape)} {b.dtype}; expected float [out, in] and [out]")  # fmt: skip
        if w.shape[1] != width:
            raise AgentInputError(f"{where}: layer {k} takes {w.shape[1]} inputs but gets {width} (the "
                                  f"{'observation' if k == 0 else f'outputs of layer {k - 1}'}): the layers do not "
                                  f"chain")  # fmt: skip
        if not (torch.isfinite(w).all() and torch.isfinite(b).all()):
            raise AgentInputError(f"{where}: layer {k} holds NaN or infinite weights")
        width = w.shape[0]
        checked.append((w.to(torch.float32), b.to(torch.float32)))
    num_actions = [a for o, a in variants if o == checked[0][0].shape[1]]
    if width not in num_actions:
        raise AgentInputError(f"{where}: the last layer gives {width} outputs, not one logit for each of the "
                              f"{' or '.join(map(str, num_actions))} actions")  # fmt: skip
    mods: list[Any] = []
    for k, (w, b) in enumerate(checked):
        lin = torch.nn.Linear(w.shape[1], w.shape[0])
        with torch.no_grad():
            lin.weight.copy_(w)
            lin.bias.copy_(b)
        mods.append(lin)
        if k < len(checked) - 1:
            mods.append(getattr(torch.nn, activation)())
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


def _variants(game: str = GAME) -> list[tuple[int, int]]:
    """(observation size, number of actions) of each variant of ``game`` (a map may change both)."""
    spec = load_game(game)
    return [(spec.observation_size(**v), spec.num_actions(**v)) for v in spec.variants()]


def options_of_actor(actor: Any, game: str = GAME) -> dict[str, Any] | None:
    """The options of ``game`` whose sizes the actor's network reads and gives (None: every variant's)."""
    spec = load_game(game)
    lins = [m for m in actor if type(m).__name__ == "Linear"]
    fits = [
        v
        for v in spec.variants()
        if (spec.observation_size(**v), spec.num_actions(**v)) == (lins[0].in_features, lins[-1].out_features)
    ]
    if len(fits) == len(spec.variants()) or not fits:
        return None
    return {k: v for k, v in fits[0].items() if all(f.get(k) == v for f in fits)}  # only what the sizes tell


def game_of_sizes(inputs: int, outputs: int) -> list[str]:
    """The games of the suite (ids) one of whose variants has ``inputs`` observation floats and ``outputs``
    actions: whose network a policy of those sizes is."""
    from industry_env.registry import available_games

    return [g for g in available_games(include_hidden=True) if load_game(g).engine_module is not None
            and (inputs, outputs) in _variants(g)]  # fmt: skip


def _another_game(inputs: int, outputs: int | None, where: str, game: str) -> None:
    """AgentInputError naming the game a network of these sizes plays, if it is not ``game`` (None: any)."""
    others = [g for g in game_of_sizes(inputs, outputs) if g != game] if outputs is not None else []
    if outputs is None:
        from industry_env.registry import available_games

        others = [g for g in available_games(include_hidden=True) if g != game and load_game(g).engine_module
                  is not None and inputs in {o for o, _ in _variants(g)}]  # fmt: skip
    if others:
        names = " or ".join(load_game(g).name for g in others)
        raise AgentInputError(f"{where}: a policy of {names} (its network reads {inputs} floats), not of "
                              f"{load_game(game).name}: load it with game={others[0]!r} (--game {others[0]} on the "
                              f"command line)")  # fmt: skip


def _check_actor(actor: Any, where: str, game: str = GAME) -> None:
    lins = [m for m in actor if type(m).__name__ == "Linear"]
    if not lins or (lins[0].in_features, lins[-1].out_features) not in _variants(game):
        if lins:
            _another_game(lins[0].in_features, lins[-1].out_features, where, game)
        raise AgentInputError(f"{where}: not a policy of {load_game(game).name} (expected observation size and "
                              f"actions {' or '.join(map(str, sorted(set(_variants(game)))))})")  # fmt: skip


def load_actor(path: str | Path, game: str = GAME) -> Any:
    """The actor (nn.Sequential) of a policy file, a MaskablePPO ``.zip`` or an older ``.pt`` weights file.

    Nothing is unpickled (module docstring); AgentInputError names the file and what is wrong with it.
    """
    _torch()
    p = Path(path)
    if not p.is_file():
        raise AgentInputError(f"PPO policy {p}: {'a folder, not a policy file' if p.is_dir() else 'no such file'}")
    where = f"PPO policy {p}"
    names = _zip_names(p, where)
    if "description.npy" in names:
        return _actor_from_layers(*_read_policy_file(p, where, game), where, game)
    if {"data", "policy.pth"} <= names:
        return _actor_from_layers(*_read_sb3_zip(p, where), where, game)
    return _actor_from_layers(*_read_weights_pt(p, where), where, game)


MAX_POLICY_BYTES = 2**30  # what a policy's entries may unpack to: 1 GiB (the shipped zip unpacks to 3 MB)


def _zip_names(p: Path, where: str) -> set[str]:
    """The entries of a zip (SB3 saves and policy files are zips; none for another file); AgentInputError for a
    zip that would unpack to more than :data:`MAX_POLICY_BYTES`."""
    try:
        with zipfile.ZipFile(p) as z:
            infos = z.infolist()
    except (zipfile.BadZipFile, OSError):
        return set()
    if sum(i.file_size for i in infos) > MAX_POLICY_BYTES:
        raise AgentInputError(f"{where}: unpacks to over {MAX_POLICY_BYTES:,} bytes, too big for a policy")
    return {i.filename for i in infos}


def _read_policy_file(p: Path, where: str, game: str = GAME) -> tuple[list[tuple[Any, Any]], str]:
    """The layers and activation of a policy file (``.npz``: a JSON description, then weight_k and bias_k); a file
    whose description names another game than ``game`` is refused, naming both."""
    try:
        with np.load(p, allow_pickle=False) as z:
            description = json.loads(str(z["description"]))
            n = description["layers"]
            if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 64:
                raise ValueError(f"'layers' = {n!r}, expected a whole number of layers")
            if description.get("format") != POLICY_FORMAT:
                raise ValueError(f"format {description.get('format')!r}, expected {POLICY_FORMAT!r}")
            layers = [(z[f"weight_{k}"], z[f"bias_{k}"]) for k in range(n)]
            activation = description["activation"]
            trained_on = description.get("game")  # written since the suite has several games
    except (OSError, ValueError, KeyError, TypeError, zipfile.BadZipFile) as exc:
        raise AgentInputError(f"{where}: not a readable policy file ({type(exc).__name__}: {exc})") from None
    if trained_on is not None and trained_on != load_game(game).id:
        try:
            other = load_game(str(trained_on)).name
        except ValueError:
            other = repr(trained_on)
        raise AgentInputError(f"{where}: a policy of {other} (its file says so), not of {load_game(game).name}: load "
                              f"it with game={trained_on!r} (--game {trained_on} on the command line)")  # fmt: skip
    return layers, str(activation)


_ACTIVATION_IN_SB3_DATA = re.compile(r"<class 'torch\.nn\.modules\.activation\.(\w+)'>")


def _read_sb3_zip(p: Path, where: str) -> tuple[list[tuple[Any, Any]], str]:
    """The actor's layers and activation from a MaskablePPO ``.zip``, without unpickling anything in it.

    ``data`` is JSON: the activation is read from the text SB3 writes next to its pickled ``policy_kwargs``;
    ``policy.pth`` is a state dict, read with ``torch.load(weights_only=True)``.
    """
    torch = _torch()
    try:
        with zipfile.ZipFile(p) as z:
            data = json.loads(z.read("data").decode("utf-8"))
            state = torch.load(io.BytesIO(z.read("policy.pth")), map_location="cpu", weights_only=True)
    except Exception as exc:  # a damaged zip, JSON, or a policy.pth with more than tensors in it
        raise AgentInputError(f"{where}: not a readable Stable-Baselines3 save ({type(exc).__name__}: {exc})"
                              ) from None  # fmt: skip
    if not isinstance(data, dict) or not isinstance(state, dict):
        raise AgentInputError(f"{where}: not a Stable-Baselines3 save (no data and policy weights)")
    kwargs = data.get("policy_kwargs") or {}
    activation = "Tanh"  # SB3's default for actor-critic MLP policies
    named = kwargs.get("activation_fn") if isinstance(kwargs, dict) else None
    if named is not None:
        found = _ACTIVATION_IN_SB3_DATA.fullmatch(str(named))
        if not found:
            raise AgentInputError(f"{where}: activation {named!r} is not one of torch.nn's")
        activation = found.group(1)
    extractors = sorted({k.split(".")[0] for k in state if "features_extractor" in k.split(".")[0]})
    if extractors:
        raise AgentInputError(f"{where}: the policy has a learned features extractor ({', '.join(extractors)}); "
                              f"PPOAgent reads MLP policies on the flat observation")  # fmt: skip
    k, layers = 0, []
    while f"mlp_extractor.policy_net.{k}.weight" in state:
        layers.append((state[f"mlp_extractor.policy_net.{k}.weight"], state.get(f"mlp_extractor.policy_net.{k}.bias")))
        k += 2  # Linear, activation, Linear, ...
    if "action_net.weight" not in state or "action_net.bias" not in state:
        raise AgentInputError(f"{where}: no action_net in the saved policy")
    layers.append((state["action_net.weight"], state["action_net.bias"]))
    if any(b is None for _, b in layers):
        raise AgentInputError(f"{where}: a layer of the policy network has no biases")
    return layers, activation


def _read_weights_pt(p: Path, where: str) -> tuple[list[tuple[Any, Any]], str]:
    """The layers of an older ``PPOAgent.save`` file (torch, format ``industry_env-ppo-actor/1``)."""
    torch = _torch()
    try:
        blob = torch.load(p, map_location="cpu", weights_only=True)
    except Exception as exc:
        raise AgentInputError(f"{where}: neither a policy file, a MaskablePPO zip nor a PPOAgent weights file "
                              f"({type(exc).__name__}: {exc})") from None  # fmt: skip
    if not isinstance(blob, dict) or blob.get("format") != WEIGHTS_FORMAT:
        raise AgentInputError(f"{where}: not a PPOAgent weights file (format {WEIGHTS_FORMAT})")
    weights, biases = blob.get("weights"), blob.get("biases")
    if not isinstance(weights, (list, tuple)) or not isinstance(biases, (list, tuple)) or not weights or \
            len(weights) != len(biases):  # fmt: skip
        raise AgentInputError(f"{where}: the file has the PPOAgent tag but no weights and biases (one list of each, "
                              f"as long as each other)")  # fmt: skip
    return list(zip(weights, biases, strict=True)), str(blob.get("activation", "Tanh"))


def export_policy(source: Any, path: str | Path, game: str = GAME) -> Path:
    """Write the actor of ``source`` as a policy file (``.npz``, weights only), which loads without unpickling.

    ``source``: a PPOAgent, a MaskablePPO model or its ``policy``, or the path of a policy file, a MaskablePPO
    ``.zip`` (read without unpickling) or a ``.pt`` weights file. The file is written under a temporary name and
    renamed, so it is whole or absent. ``make_agent("ppo", path=...)`` plays it.
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
    _check_actor(actor, f"export_policy({type(source).__name__})", game)
    return _write_policy_file(actor, Path(path), game)


def _write_policy_file(actor: Any, p: Path, game: str = GAME) -> Path:
    """The actor as a policy file; its description names the game it plays (``game``), read back by
    :func:`load_actor`, so that loading it for another game names both."""
    torch = _torch()
    lins = [m for m in actor if isinstance(m, torch.nn.Linear)]
    acts = {type(m).__name__ for m in actor if not isinstance(m, torch.nn.Linear)}
    activation = acts.pop() if acts else "Tanh"
    description = {"format": POLICY_FORMAT, "activation": activation, "layers": len(lins),
                   "sizes": [lins[0].in_features] + [m.out_features for m in lins],
                   "game": load_game(game).id}  # fmt: skip
    arrays: dict[str, np.ndarray] = {"description": np.array(json.dumps(description))}
    for k, m in enumerate(lins):
        arrays[f"weight_{k}"] = m.weight.detach().cpu().numpy().astype(np.float32)
        arrays[f"bias_{k}"] = m.bias.detach().cpu().numpy().astype(np.float32)
    with atomic_file(p) as f:
        np.savez(f, **arrays)  # a file object: numpy adds no .npz to the name
    return p


_SHIPPED_ACTOR: dict[str, Any] = {}  # game -> its shipped actor, read once per process (frozen: agents share it)


class NetworkAgent(Agent, ABC):
    """An agent that acts by a torch network's logits over the game's actions: the most probable legal action, or a
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
        """float32[B, A]: the network's logits, before masking (called under ``torch.inference_mode``)."""

    def logits(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """float32[B, A]: the policy's logits with illegal actions at -inf (checked inputs)."""
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

    ``path``: a MaskablePPO ``.zip`` or a PPOAgent weights file (default: the game's shipped policy).
    ``game``: the game the policy plays (its observation and actions; default Industry).
    ``deterministic``: the most probable legal action (default) or a sample from the masked softmax, drawn
    with the agent's generator seeded by ``seed``. ``threads``: torch threads during its calls (default 1: a
    forward pass of this size takes about 0.3 ms on one thread, and 30 times longer with two on a busy 2-core CPU).
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
        self.torch = _torch()
        if path is None:
            p = shipped_path(spec.id)
            if spec.id not in _SHIPPED_ACTOR:
                if not p.is_file():
                    raise AgentInputError(f"the shipped PPO policy of {spec.name} is missing from this install ({p})")
                _SHIPPED_ACTOR[spec.id] = load_actor(p, spec.id)
            self.actor = _SHIPPED_ACTOR[spec.id]
            self.path: Path | None = p
        else:
            self.actor = load_actor(path, spec.id)
            self.path = Path(path)
        self.options = options_of_actor(self.actor, spec.id)  # the map its network was made for, if it matters

    @classmethod
    def from_policy(cls, policy: Any, name: str = "ppo", seed: int | None = None, deterministic: bool = True,
                    game: str = GAME) -> PPOAgent:  # fmt: skip
        """A frozen snapshot of a live MaskablePPO policy (e.g. ``model.policy`` during training) of ``game``."""
        agent = cls.__new__(cls)
        agent.game = load_game(game).id
        agent.rng = np.random.default_rng(check_seed(seed))
        agent.deterministic = bool(deterministic)
        agent.threads = 1
        agent.torch = _torch()
        agent.actor = actor_from_policy(policy)
        _check_actor(agent.actor, "PPOAgent.from_policy", agent.game)
        agent.options = options_of_actor(agent.actor, agent.game)
        agent.path = None
        agent.name = name
        return agent

    def raw_logits(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """float32[B, A]: the actor's logits."""
        return self.actor(self.torch.from_numpy(np.ascontiguousarray(observations, np.float32))).numpy()

    def save(self, path: str | Path) -> Path:
        """Write the actor as a policy file (``.npz``, weights only; :func:`export_policy`) that ``path=`` reads."""
        return _write_policy_file(self.actor, Path(path), self.game)

    def _choose(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        if self.game == "age_of_industry":  # its observations are checked entry by entry (agents/age_of_industry)
            from .age_of_industry.checks import check_observations
            from .age_of_industry.heuristic import map_of

            check_observations(observations, (self.options or {}).get("map") or map_of(observations))
        return super()._choose(observations, masks)

    def __repr__(self) -> str:
        return f"PPOAgent(name={self.name!r}, path={str(self.path) if self.path else None!r})"
