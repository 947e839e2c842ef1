"""``RLlibAgent``: a policy trained on RLlib (a checkpoint, or a live module) as an Agent of the project.

``make_agent("rllib:PATH")`` builds one: ``PATH`` is an Algorithm checkpoint (``algo.save()``; the run's
``final/`` or ``checkpoints/iter_N``), from which the module ``module`` (default ``"learner"``) is read, or the
folder of one RLModule checkpoint (``.../learner_group/learner/rl_module/<module>``). Acting needs torch and
ray, but no Ray cluster: the module is loaded in the calling process. Deterministic by default (the most
probable legal action); ``deterministic=False`` samples the masked softmax with the agent's seeded generator.
The agent plays the game its module was trained on (the module's ``model_config["game"]``, which the trainer
writes; Industry for a module without it), so ``make_agent("rllib:PATH", game=...)`` and the arena refuse it for
another game; and it reads the options it was trained with (``model_config["game_options"]``, e.g. Age of
Industry's map), so a table of another map refuses it too.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ..agents.base import AgentInputError, check_seed
from ..agents.ppo import NetworkAgent

MODULES_DIR = Path("learner_group") / "learner" / "rl_module"


def _imports() -> tuple[Any, Any]:
    try:
        import torch
        from ray.rllib.core.rl_module.rl_module import RLModule
    except ImportError as exc:
        raise AgentInputError(f"the 'rllib:' agent needs Ray RLlib and torch: pip install 'industry_env[rllib]' "
                              f"({exc})") from None  # fmt: skip
    return torch, RLModule


def module_dir(path: str | Path, module: str = "learner") -> Path:
    """The RLModule checkpoint folder of ``module`` inside an Algorithm checkpoint ``path`` (or ``path`` itself)."""
    p = Path(path)
    if not p.is_dir():
        what = "a file, not a checkpoint folder" if p.exists() else "no such folder"
        raise AgentInputError(f"RLlib checkpoint {p}: {what}")
    if (p / MODULES_DIR).is_dir():
        found = sorted(d.name for d in (p / MODULES_DIR).iterdir() if d.is_dir())
        if module not in found:
            raise AgentInputError(f"RLlib checkpoint {p}: no module {module!r} (it has {found})")
        return p / MODULES_DIR / module
    if (p / "class_and_ctor_args.pkl").is_file() and (p / "metadata.json").is_file():
        return p
    raise AgentInputError(f"RLlib checkpoint {p}: neither an Algorithm checkpoint (no {MODULES_DIR}/) nor an "
                          f"RLModule checkpoint")  # fmt: skip


def _size_keys(spec: Any) -> set[str]:
    """The options of ``spec`` whose value changes the observation's or the actions' size (Age of Industry's map):
    those that tell two of its variants apart that have different sizes."""
    variants = spec.variants()
    sizes = [(spec.observation_size(**v), spec.num_actions(**v)) for v in variants]
    keys: set[str] = set()
    for i, a in enumerate(variants):
        for j, b in enumerate(variants):
            differ = [k for k in a if a.get(k) != b.get(k)]
            if sizes[i] != sizes[j] and len(differ) == 1:
                keys.add(differ[0])
    return keys


class RLlibAgent(NetworkAgent):
    """An RLlib action-masking policy as an Agent (module docstring). ``threads``: torch threads during calls."""

    name = "rllib"
    game = "industry"  # set from the module (its model_config's "game"; a module saved before games were named:
    # Industry), so that make_agent and the arena refuse it for another game

    def __init__(self, seed: int | None = None, path: str | Path | None = None, module: str = "learner",
                 deterministic: bool = True, threads: int = 1) -> None:  # fmt: skip
        if path is None:
            raise AgentInputError("the 'rllib' agent needs a checkpoint: make_agent('rllib:PATH')")
        self.check_options(deterministic, threads)
        torch, RLModule = _imports()
        where = module_dir(path, module)
        try:
            loaded = RLModule.from_checkpoint(str(where.resolve()))
        except Exception as exc:
            raise AgentInputError(f"RLlib checkpoint {where}: cannot load the module ({exc})") from exc
        self._setup(loaded, seed, deterministic, threads)
        self.path: Path | None = Path(path)
        self.name = f"rllib:{path}"

    @classmethod
    def from_module(cls, rl_module: Any, name: str = "rllib", seed: int | None = None,
                    deterministic: bool = True) -> RLlibAgent:  # fmt: skip
        """An agent acting with a live module (e.g. the learner's during training; not copied)."""
        agent = cls.__new__(cls)
        agent._setup(rl_module, seed, deterministic, 1)
        agent.path = None
        agent.name = name
        return agent

    def _setup(self, rl_module: Any, seed: int | None, deterministic: bool, threads: int) -> None:
        from ..registry import load_game
        from .module import MASK_KEY, OBS_KEY, AgentModule, module_game, module_options

        self.torch, _ = _imports()
        if isinstance(rl_module, AgentModule):
            raise AgentInputError(f"that module plays the project's agent {rl_module.agent.name!r}: use "
                                  f"make_agent({rl_module.agent.name!r}, game={rl_module.agent.game!r}) "
                                  f"instead")  # fmt: skip
        model_config = getattr(rl_module, "model_config", None)
        try:
            spec = load_game(module_game(model_config))
            trained = spec.check_options(module_options(model_config))  # the options it was trained with
        except ValueError as exc:
            raise AgentInputError(f"{type(rl_module).__name__}: {exc}") from None
        self.game = spec.id
        space = getattr(rl_module, "observation_space", None)
        keys = set(getattr(space, "spaces", {}) or {})
        sizes = (getattr(getattr(space, "spaces", {}).get(OBS_KEY), "shape", (None,))[0] if keys else None,
                 getattr(getattr(rl_module, "action_space", None), "n", None))  # fmt: skip
        fits = [v for v in spec.variants() if (spec.observation_size(**v), spec.num_actions(**v)) == sizes]
        if keys != {OBS_KEY, MASK_KEY} or not fits:
            sizes_of = {f"{spec.observation_size(**v)} observation floats and {spec.num_actions(**v)} actions"
                        for v in spec.variants()}  # fmt: skip
            expected = " or ".join(sorted(sizes_of))
            raise AgentInputError(f"{type(rl_module).__name__} is not a policy of {spec.name} (expected a Dict "
                                  f"observation space {{{OBS_KEY!r}, {MASK_KEY!r}}} with {expected}; it has "
                                  f"{sizes[0]} and {sizes[1]})")  # fmt: skip
        # the options its sizes depend on (the map): those it was trained with where the trainer recorded them
        # (a map of the same size as another is then still known), else the variant its sizes fit
        size_keys = _size_keys(spec)
        recorded = module_options(model_config)
        if recorded and (spec.observation_size(**trained), spec.num_actions(**trained)) != sizes:
            raise AgentInputError(f"{type(rl_module).__name__}: trained with {recorded}, whose sizes are not its "
                                  f"own ({sizes[0]} observation floats and {sizes[1]} actions)")  # fmt: skip
        known = {k: v for k, v in (trained if recorded else fits[0]).items() if k in size_keys}
        self.options = known or None
        self.module = rl_module
        self.rng = np.random.default_rng(check_seed(seed))
        self.deterministic = deterministic
        self.threads = threads

    def raw_logits(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """float32[B, A]: the module's action-distribution inputs (its own masking applied too)."""
        from ray.rllib.core.columns import Columns

        obs = {"observations": self.torch.from_numpy(np.ascontiguousarray(observations, np.float32)),
               "action_mask": self.torch.from_numpy(masks.astype(np.float32))}  # fmt: skip
        return self.module.forward_inference({Columns.OBS: obs})[Columns.ACTION_DIST_INPUTS].numpy()

    def __repr__(self) -> str:
        return f"RLlibAgent(name={self.name!r})"
