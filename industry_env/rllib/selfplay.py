"""Self-play on RLlib: the league's mapping of seats to modules, the callback that grows it, and ``ppo_config``.

``policy="shared"`` (default): one trained module, ``learner``, takes one seat per game (drawn from the
episode's id); every other seat draws one member of the league: the starting agents (``opponents``, e.g. random
and the heuristic, run through :mod:`industry_env.agents` as :class:`~.module.AgentModule`) with their
``opponent_weights``, and the frozen copies of the learner added so far (``snapshot_weight`` each). Every
``eval_every`` learner steps the learner (deterministic) plays ``eval_games`` arena games against
``eval_opponent``; when its win rate beats the best so far by ``snapshot_margin`` a frozen copy
(``learner_v<step>``) joins the league, and beyond ``max_snapshots`` copies the oldest leaves. These are the
rules of the Stable-Baselines3 trainer (:mod:`industry_env.train.ppo`), with the same keys.

``policy="per_seat"``: one trained module per seat (``seat_0`` ..), every seat's learning against the others
(no league; the evaluations still run, for ``seat_0``).
"""

from __future__ import annotations

import dataclasses
import random
import time
import zlib
from typing import Any

from .env import ENV_NAME, make_env
from .module import GAME_KEY, OPTIONS_KEY, AgentModule, MaskedPPOModule

LEARNER = "learner"
POLICIES = ("shared", "per_seat")
# Keys of ppo_config / the [rllib] table that the SB3 trainer does not have.
RLLIB_KEYS = ("num_env_runners", "policy", "address", "num_learners")
# Where RLlib's defaults suit better than the SB3 trainer's (a file's or an override's values still win):
# fewer games per process (RLlib steps them one by one) and a smaller rollout, so that iterations stay short.
RLLIB_DEFAULTS = {"num_envs": 32, "n_steps": 128, "batch_size": 512, "run_dir": "runs/rllib", "eval_every": 100_000,
                  "checkpoint_every": 200_000}  # fmt: skip


def seat_of(agent_id: str) -> int:
    """The engine seat of an agent id ``player_k``."""
    return int(str(agent_id).rsplit("_", 1)[1])


def _stable(*parts: Any) -> int:
    return zlib.crc32("|".join(map(str, parts)).encode())


class LeagueMapping:
    """RLlib's agent-to-module mapping for self-play: picklable, the same answer for an episode in any process.

    ``members``: (module id, weight) of the league (the starting agents and the live snapshots).
    """

    def __init__(self, num_players: int, members: list[tuple[str, float]], policy: str = "shared",
                 seed: int = 0) -> None:  # fmt: skip
        if policy not in POLICIES:
            raise ValueError(f"policy={policy!r}: expected one of {list(POLICIES)}")
        if policy == "shared" and not any(w > 0 for _, w in members):
            raise ValueError("the league needs at least one member with a weight above 0")
        self.num_players = num_players
        self.members = [(m, float(w)) for m, w in members]
        self.policy = policy
        self.seed = seed

    def learner_seat(self, episode_id: str) -> int:
        """The seat the learner takes in this episode."""
        return _stable(self.seed, episode_id, "learner") % self.num_players

    def __call__(self, agent_id: str, episode: Any, **kwargs: Any) -> str:
        seat = seat_of(agent_id)
        if self.policy == "per_seat":
            return f"seat_{seat}"
        eid = str(getattr(episode, "id_", episode))
        if seat == self.learner_seat(eid):
            return LEARNER
        rng = random.Random(_stable(self.seed, eid, seat))
        ids, weights = zip(*self.members, strict=True)
        return rng.choices(ids, weights=weights)[0]


def split_overrides(overrides: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """A validated TrainConfig (RLlib defaults, then ``overrides``) and the RLlib-only settings."""
    from ..train.config import ConfigError, TrainConfig, coerce, validate

    fields = {f.name for f in dataclasses.fields(TrainConfig)}
    unknown = sorted(set(overrides) - fields - set(RLLIB_KEYS))
    if unknown:
        raise ConfigError(f"ppo_config: unknown key(s) {unknown}; the keys are those of the training config "
                          f"({', '.join(sorted(fields))}) and {', '.join(RLLIB_KEYS)}")  # fmt: skip
    values = {**RLLIB_DEFAULTS, **{k: v for k, v in overrides.items() if k in fields}}
    if values.get("resume"):  # refused first: the checks of an SB3 checkpoint would be said of it otherwise
        raise ConfigError(f"resume = {values['resume']!r}: the RLlib trainer does not resume runs "
                          f"(Algorithm.from_checkpoint restores one in Python); remove the key")  # fmt: skip
    if values.get("encoder", "flat") != "flat":  # its module reads the flat observation: the key would be ignored
        raise ConfigError(f"encoder = {values['encoder']!r}: the RLlib trainer's module reads the flat observation "
                          f"only; train a cell encoder without --framework rllib (the SB3 trainer)")  # fmt: skip
    cfg = validate(TrainConfig(**{k: coerce(k, v, "") for k, v in values.items()}))
    extra = {"num_env_runners": 1, "policy": "shared", "address": "", "num_learners": 0}
    extra.update({k: v for k, v in overrides.items() if k in RLLIB_KEYS})
    check_extra(extra)
    return cfg, extra


def check_extra(extra: dict[str, Any]) -> None:
    """ConfigError naming the RLlib-only setting that is of the wrong kind or value."""
    from ..train.config import ConfigError

    for key in ("num_env_runners", "num_learners"):
        v = extra[key]
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise ConfigError(f"{key} = {v!r}: a whole number >= 0")
    if extra["policy"] not in POLICIES:
        raise ConfigError(f"policy = {extra['policy']!r}: expected one of {list(POLICIES)}")
    if not isinstance(extra["address"], str):
        raise ConfigError(f"address = {extra['address']!r}: a Ray address such as 'auto' or 'HOST:6379'")


def league_members(cfg: Any) -> list[tuple[str, float]]:
    """The starting members: one AgentModule id per name of ``cfg.opponents``, with its weight."""
    return [(f"agent_{k}", w) for k, w in enumerate(cfg.opponent_weights)]


def _callback_class() -> type:
    from ray.rllib.callbacks.callbacks import RLlibCallback
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    class IndustrySelfPlay(RLlibCallback):
        """Logs the learner's wins; evaluates it in the arena and adds frozen copies to the league (module doc)."""

        def __init__(self, cfg: Any = None, policy: str = "shared") -> None:
            super().__init__()
            self.cfg = cfg
            self.policy = policy
            self.best = -1.0
            self.snapshots: list[str] = []
            self.evals: list[dict[str, Any]] = []
            self.eval_seconds = 0.0
            self.next_eval = cfg.eval_every if cfg is not None and cfg.eval_every else None

        def on_episode_end(self, *, episode: Any, metrics_logger: Any = None, **kwargs: Any) -> None:
            if metrics_logger is None:
                return
            for agent_id, agent_episode in episode.agent_episodes.items():
                if episode.module_for(agent_id) in (LEARNER, "seat_0"):  # the game's return is its last reward
                    metrics_logger.log_value("learner_win_rate", float(agent_episode.get_return() > 0),
                                             reduce="mean", window=200)  # fmt: skip

        def on_train_result(self, *, algorithm: Any, result: dict, **kwargs: Any) -> None:
            steps = learner_steps(result, self.policy)
            league = {"snapshots": len(self.snapshots), "learner_steps": steps, "best_win_rate": self.best}
            if self.next_eval is not None and steps >= self.next_eval:
                self.next_eval = (steps // self.cfg.eval_every + 1) * self.cfg.eval_every
                league.update(self.evaluate_and_grow(algorithm, steps))
            result["league"] = league

        def evaluate_and_grow(self, algorithm: Any, steps: int) -> dict[str, Any]:
            from ..train.ppo import evaluate
            from .agent import RLlibAgent

            cfg = self.cfg
            mid = LEARNER if self.policy == "shared" else "seat_0"
            module = algorithm.get_module(mid)
            t = time.perf_counter()
            ev = evaluate(RLlibAgent.from_module(module, name=mid), cfg)
            self.eval_seconds += time.perf_counter() - t
            self.evals.append({"learner_steps": steps, **ev})
            out: dict[str, Any] = {f"eval_{k}": v for k, v in ev.items()}
            if self.policy == "shared" and cfg.max_snapshots and ev["win_rate"] >= self.best + cfg.snapshot_margin:
                self.add_snapshot(algorithm, f"{LEARNER}_v{steps}")
                out["added"] = self.snapshots[-1]
            self.best = max(self.best, ev["win_rate"])
            out.update(snapshots=len(self.snapshots), best_win_rate=self.best)
            return out

        def add_snapshot(self, algorithm: Any, module_id: str) -> None:
            cfg = self.cfg
            learner = algorithm.get_module(LEARNER)
            self.snapshots.append(module_id)
            retired = self.snapshots[: -cfg.max_snapshots] if len(self.snapshots) > cfg.max_snapshots else []
            self.snapshots = self.snapshots[len(retired) :]
            mapping = LeagueMapping(cfg.num_players, league_members(cfg) + [(s, cfg.snapshot_weight)
                                                                               for s in self.snapshots],
                                    self.policy, cfg.seed)  # fmt: skip
            algorithm.add_module(module_id=module_id, module_spec=RLModuleSpec.from_module(learner),
                                 new_agent_to_module_mapping_fn=mapping)  # fmt: skip
            algorithm.set_state({"learner_group": {"learner": {"rl_module": {module_id: learner.get_state()}}}})
            algorithm.env_runner_group.sync_weights(from_worker_or_learner_group=algorithm.learner_group,
                                                    inference_only=True)  # fmt: skip
            for old in retired:
                algorithm.remove_module(old, new_agent_to_module_mapping_fn=mapping)

    return IndustrySelfPlay


def learner_steps(result: dict, policy: str = "shared") -> int:
    """Decisions taken so far by the trained module(s), from a training result."""
    from ray.rllib.utils.metrics import ENV_RUNNER_RESULTS, NUM_MODULE_STEPS_SAMPLED_LIFETIME

    per_module = result.get(ENV_RUNNER_RESULTS, {}).get(NUM_MODULE_STEPS_SAMPLED_LIFETIME, {})
    trained = [LEARNER] if policy == "shared" else [m for m in per_module if m.startswith("seat_")]
    return int(sum(per_module.get(m, 0) for m in trained))


def register() -> str:
    """Register the env of every game (its config's ``game``) with Ray's registry under ``industry_v0``; returns
    the name."""
    from ray.tune import registry

    # Ray keeps the registry's key prefix, the job id of the first driver connection of the process, for
    # good: after ray.shutdown() and ray.init(address=...) to another cluster (a notebook that trained locally,
    # then joins a cluster) the env went under the old job's key, and the new job's env runners did not find it.
    kept = getattr(registry, "_global_registry", None)
    if getattr(kept, "_prefix", None) is not None:
        kept._prefix = None  # worked out again from the job connected now
    registry.register_env(ENV_NAME, make_env)
    return ENV_NAME


def env_config(cfg: Any) -> dict[str, Any]:
    """RLlib's env config for a training config: the game named (``cfg.game``), its options (``game_options``),
    its players and the reward."""
    from ..train.config import game_options

    return {"game": cfg.game, "num_players": cfg.num_players, "reward": cfg.reward, **game_options(cfg)}


def ppo_config(**overrides: Any) -> Any:
    """A ready ``PPOConfig``: env registered, masking module, league mapping, self-play callback.

    ``overrides``: any key of the training config (:class:`industry_env.train.config.TrainConfig`, e.g.
    ``game`` and ``game_options`` (the env, the league's agents, the evaluations and the checkpoints' modules all
    play that game with those options),
    ``num_players``, ``learning_rate``, ``n_steps``, ``opponents``, ``seed``) and the RLlib-only
    ``num_env_runners`` (default 1), ``policy`` ("shared" or "per_seat"), ``num_learners`` (default 0: the
    learner runs in the driver). ``ppo_config(num_env_runners=2).build().train()`` trains one iteration.
    """
    import functools

    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.default_model_config import DefaultModelConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    from ..train.config import ConfigError, game_options

    cfg, extra = split_overrides(overrides)
    if extra["address"]:
        raise ConfigError("ppo_config(address=...): join the cluster with ray.init(address=...) before building "
                          "(industry-env train --address does both)")  # fmt: skip
    policy = extra["policy"]
    runners = extra["num_env_runners"]
    n = cfg.num_players
    # every module says which game it plays, and with which options: its checkpoints play that game only
    game = {GAME_KEY: cfg.game, OPTIONS_KEY: game_options(cfg)}
    if policy == "shared":
        trained = [LEARNER]
        specs = {LEARNER: RLModuleSpec(module_class=MaskedPPOModule, model_config=game)}
        for k, (mid, _) in enumerate(league_members(cfg)):
            specs[mid] = RLModuleSpec(module_class=AgentModule, model_config={
                "agent": cfg.opponents[k], "seed": (cfg.seed * 7919 + k) % 2**63, **game})  # fmt: skip
    else:
        trained = [f"seat_{k}" for k in range(n)]
        specs = {m: RLModuleSpec(module_class=MaskedPPOModule, model_config=game) for m in trained}
    mapping = LeagueMapping(n, league_members(cfg), policy, cfg.seed)
    games = max(1, runners) * cfg.num_envs
    config = (
        PPOConfig()
        .environment(register(), env_config=env_config(cfg))
        .env_runners(num_env_runners=runners, num_envs_per_env_runner=cfg.num_envs,
                     rollout_fragment_length=cfg.n_steps, num_cpus_per_env_runner=1)
        .learners(num_learners=extra["num_learners"])
        .multi_agent(policies=set(specs), policy_mapping_fn=mapping, policies_to_train=trained)
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs=specs),
                   model_config=DefaultModelConfig(fcnet_hiddens=list(cfg.net_arch), fcnet_activation="tanh",
                                                   vf_share_layers=False))
        .training(lr=cfg.learning_rate, gamma=cfg.gamma, lambda_=cfg.gae_lambda, clip_param=cfg.clip_range,
                  entropy_coeff=cfg.ent_coef, vf_loss_coeff=cfg.vf_coef, grad_clip=cfg.max_grad_norm,
                  grad_clip_by="global_norm", use_kl_loss=False, num_epochs=cfg.n_epochs, minibatch_size=cfg.batch_size,
                  train_batch_size_per_learner=cfg.n_steps * games)
        .callbacks(functools.partial(_callback_class(), cfg=cfg, policy=policy))
        .debugging(seed=cfg.seed)
    )  # fmt: skip
    return config
