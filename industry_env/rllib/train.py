"""``industry-env train --framework rllib``: self-play PPO on Ray RLlib, from the same config file as the SB3 path.

The file's keys mean what they mean for :mod:`industry_env.train.ppo` where RLlib has the same notion:
``game`` and ``game_options`` (the env, the league's agents, the evaluations and every module of the checkpoints
play that game with those options), ``total_timesteps`` (decisions of the learner), ``num_players``, ``seed``,
``reward``, ``learning_rate``,
``n_steps`` (decisions per game between updates; the rollout is ``n_steps`` times the games of all runners),
``num_envs`` (games per env runner), ``batch_size`` (minibatch), ``n_epochs``, ``gamma``, ``gae_lambda``,
``clip_range``, ``ent_coef``, ``vf_coef``, ``max_grad_norm``, ``net_arch``, the league (``opponents``,
``opponent_weights``, ``snapshot_weight``, ``max_snapshots``, ``snapshot_margin``), the evaluations
(``eval_every``, ``eval_games``, ``eval_opponent``), ``checkpoint_every``, ``run_dir``, ``time_limit_minutes``,
``progress`` and ``torch_threads`` (of the driver). ``resume`` is refused. Keys the file leaves out take the
RLlib path's defaults (:data:`.selfplay.RLLIB_DEFAULTS`, else the SB3 defaults). RLlib-only settings go in an
``[rllib]`` table or ``--set``: ``num_env_runners``, ``policy`` (shared / per_seat), ``num_learners``,
``address``; ``--num-env-runners`` and ``--address`` override them.

Without ``address`` a local Ray instance is started (and stopped at the end); with one (``auto`` or
``HOST:6379``) the run joins that cluster. The run folder holds ``config.toml``, ``checkpoints/step_N/``
(Algorithm checkpoints, the newest ``keep_checkpoints`` kept), ``final/``, ``evals.json`` and ``result.json``;
any checkpoint plays as ``make_agent("rllib:RUN/final")``. As for the SB3 trainer the folder is locked while the
run trains, a folder holding a run is refused unless ``overwrite``, and every file and checkpoint folder is
written under a temporary name and renamed (:mod:`industry_env.train.runfolder`).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from ..train import runfolder as R
from ..train.config import ConfigError, TrainConfig, config_path, read_toml, to_toml
from .selfplay import RLLIB_KEYS, check_extra, learner_steps, split_overrides


def load_settings(
    path: str | Path | None = None,
    overrides: list[str] | tuple[str, ...] = (),
    num_env_runners: int | None = None,
    address: str | None = None,
) -> tuple[TrainConfig, dict]:
    """The TrainConfig and the RLlib-only settings: RLlib defaults, the file, ``--set``, then the flags."""
    values: dict[str, Any] = {}
    extra: dict[str, Any] = {}
    if path is not None:
        p = config_path(path)
        data = read_toml(p)
        table = data.pop("rllib", {})
        if not isinstance(table, dict):
            raise ConfigError(f"{p}: 'rllib' must be a table ([rllib]) of {', '.join(RLLIB_KEYS)}")
        unknown = sorted(set(table) - set(RLLIB_KEYS))
        if unknown:
            raise ConfigError(f"{p}: [rllib] has unknown key(s) {unknown}; its keys are {', '.join(RLLIB_KEYS)}")
        extra.update(table)
        values.update(data)
    for item in overrides:
        key, eq, value = item.partition("=")
        key = key.strip().removeprefix("rllib.")
        if not eq:
            raise ConfigError(f"--set {item!r}: write key=value")
        if key in RLLIB_KEYS:
            extra[key] = _extra_value(key, value.strip())
        else:
            values[key] = value.strip()
    if num_env_runners is not None:
        extra["num_env_runners"] = num_env_runners
    if address is not None:
        extra["address"] = address
    cfg, extra = split_overrides({**values, **extra})
    return cfg, extra


def _extra_value(key: str, text: str) -> Any:
    if key in ("num_env_runners", "num_learners"):
        try:
            return int(text)
        except ValueError:
            raise ConfigError(f"--set {key}={text!r}: a whole number >= 0") from None
    return text


def settings_toml(cfg: TrainConfig, extra: dict[str, Any]) -> str:
    """The run's full configuration as a file this trainer reads back (top keys, then the ``[rllib]`` table)."""
    return to_toml(cfg, table=extra)


def check_reachable(address: str, timeout: float = 5.0) -> None:
    """ValueError unless ``HOST:PORT`` answers within ``timeout`` s (Ray itself retries for minutes); ``auto`` and
    ``ray://`` addresses are left to Ray."""
    import socket

    if address == "auto" or "://" in address:
        return
    host, sep, port = address.rpartition(":")
    if not sep or not host or not port.isdigit():
        raise ValueError(f"--address {address!r}: expected 'auto' or HOST:PORT of the Ray head (e.g. 10.0.0.5:6379)")
    try:
        socket.create_connection((host, int(port)), timeout=timeout).close()
    except OSError as exc:
        raise ValueError(
            f"--address {address!r}: no Ray head answers there ({exc}); start one with "
            f"'ray start --head --port={port}' on that machine"
        ) from None


def _token_auth_as_ray_start() -> None:
    """Turn Ray's token authentication on when a token exists (~/.ray/auth_token), as ``ray start`` does, so the
    driver sends it to a cluster started that way; RAY_AUTH_MODE, when set, decides instead (Ray 2.60's rule)."""
    try:
        from ray._private.authentication.authentication_token_setup import (
            maybe_enable_token_auth_if_token_available,
        )
    except ImportError:  # a Ray without token authentication
        return
    maybe_enable_token_auth_if_token_available(warn_if_disabled=False)


def start_ray(address: str, num_env_runners: int) -> bool:
    """Connect to the cluster at ``address``, or start a local Ray instance; True when this call started one."""
    import ray

    if ray.is_initialized():
        return False
    if address:
        check_reachable(address)
        _token_auth_as_ray_start()
        try:
            ray.init(address=address, include_dashboard=False, log_to_driver=True)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            raise ValueError(
                f"--address {address!r}: cannot join that Ray cluster ({exc}); start it with "
                f"'ray start --head' on the head machine, or omit --address to run locally"
            ) from None
        return True
    ray.init(include_dashboard=False, log_to_driver=True)
    cpus = ray.cluster_resources().get("CPU", 0)
    if num_env_runners > cpus:
        ray.shutdown()
        raise ValueError(f"--num-env-runners {num_env_runners}: this machine offers {cpus:g} CPUs to Ray and each "
                         f"runner takes one; use at most {int(cpus)}, or join a cluster with --address")  # fmt: skip
    return True


def train(cfg: TrainConfig, extra: dict[str, Any], overwrite: bool = False) -> dict[str, Any]:
    """Train until ``cfg.total_timesteps`` learner decisions (or the time limit); returns the run's figures.

    The run folder is locked while the run trains; one that holds a run is refused unless ``overwrite`` (its run
    files are then removed first).
    """
    run = Path(cfg.run_dir)
    R.refuse_unless_free(run, resuming=False, overwrite=overwrite, resumable=False)  # before anything is written
    lock = R.RunLock(R.make_run_dir(run)).acquire()
    try:
        R.refuse_unless_free(run, resuming=False, overwrite=overwrite, resumable=False)
        R.remove_partials(run)
        if overwrite:
            R.clear_run(run)
        return _train_locked(cfg, extra, run)
    finally:
        lock.release()


def _train_locked(cfg: TrainConfig, extra: dict[str, Any], run: Path) -> dict[str, Any]:
    import ray
    import torch

    from .selfplay import ppo_config

    torch.set_num_threads(cfg.torch_threads)
    started = start_ray(extra["address"], extra["num_env_runners"])
    (run / "checkpoints").mkdir(parents=True, exist_ok=True)
    R.write_text(run / "config.toml", settings_toml(cfg, extra))
    try:
        overrides = {
            **{k: getattr(cfg, k) for k in cfg.__dataclass_fields__},
            **{k: v for k, v in extra.items() if k != "address"},
        }  # Ray is joined above
        algo = ppo_config(**overrides).build_algo()
        try:
            return train_loop(algo, cfg, extra, run)
        finally:
            algo.stop()
    finally:
        if started:
            ray.shutdown()


def train_loop(algo: Any, cfg: TrainConfig, extra: dict[str, Any], run: Path) -> dict[str, Any]:
    from ray.rllib.utils.metrics import ENV_RUNNER_RESULTS, NUM_ENV_STEPS_SAMPLED_LIFETIME

    callback = next(c for c in (algo.callbacks if isinstance(algo.callbacks, list) else [algo.callbacks])
                    if hasattr(c, "evals"))  # fmt: skip
    bar = None
    if cfg.progress:
        try:
            from tqdm.auto import tqdm

            bar = tqdm(total=cfg.total_timesteps, unit="step", dynamic_ncols=True, desc="train", mininterval=1.0)
        except ImportError:
            bar = None
    say = bar.write if bar is not None else print
    t0 = time.perf_counter()
    steps = env_steps = 0
    shares = {"update": 0.0}  # seconds of the learner's updates (RLlib's learner_update_timer, per iteration)
    next_ckpt = cfg.checkpoint_every or None
    try:
        while steps < cfg.total_timesteps:
            result = algo.train()
            new = learner_steps(result, extra["policy"])
            if bar is not None:
                bar.update(new - steps)
            steps = new
            timers = result.get("timers", {})
            shares["update"] += float(timers.get("learner_update_timer", 0.0))
            env_steps = int(result.get(ENV_RUNNER_RESULTS, {}).get(NUM_ENV_STEPS_SAMPLED_LIFETIME, env_steps))
            league = result.get("league", {})
            if "eval_win_rate" in league:
                say(f"step {steps:,}: win rate against {cfg.eval_opponent} {100 * league['eval_win_rate']:.1f}% "
                    f"[{100 * league['eval_win_ci_low']:.1f}, {100 * league['eval_win_ci_high']:.1f}]; "
                    f"{league['snapshots']} snapshots in the league")  # fmt: skip
                R.write_json(run / "evals.json", callback.evals)
            if next_ckpt is not None and steps >= next_ckpt:
                next_ckpt = (steps // cfg.checkpoint_every + 1) * cfg.checkpoint_every
                R.save_folder(algo.save, run / "checkpoints" / f"step_{steps}")
                R.prune_folders(run, cfg.keep_checkpoints)
            if cfg.time_limit_minutes and time.perf_counter() - t0 > 60 * cfg.time_limit_minutes:
                say(f"time limit of {cfg.time_limit_minutes:g} minutes: stopping at step {steps:,}")
                break
    finally:
        if bar is not None:
            bar.close()
    wall = max(time.perf_counter() - t0 - callback.eval_seconds, 1e-9)
    final = R.save_folder(algo.save, run / "final")
    figures = {"run_dir": str(run), "final": str(final), "learner_steps": steps, "env_steps": env_steps,
               "seconds": wall, "learner_steps_per_second": steps / wall, "env_steps_per_second": env_steps / wall,
               "eval_seconds": callback.eval_seconds, "update_seconds": shares["update"],
               "num_env_runners": extra["num_env_runners"], "policy": extra["policy"], "game": cfg.game,
               "evals": callback.evals}  # fmt: skip
    R.write_json(run / "result.json", figures)
    return figures


def summary(figures: dict[str, Any]) -> str:
    """A few lines for the console."""
    return (f"{figures['learner_steps']:,} learner steps in {figures['seconds']:.0f} s (evaluations excluded) with "
            f"{figures['num_env_runners']} env runner(s): {figures['learner_steps_per_second']:,.0f} learner steps/s "
            f"({figures['env_steps_per_second']:,.0f} decisions/s at the table, opponents included)\n"
            f"final checkpoint: {figures['final']} (play it: industry-env arena --game {figures['game']} --agents "
            f"rllib:{figures['final']},heuristic,heuristic,heuristic)")  # fmt: skip


def run(args: argparse.Namespace) -> int:
    """Load the settings, train on RLlib, print the throughput and where the final checkpoint is."""
    runners = getattr(args, "num_env_runners", None)
    if runners is not None and runners < 0:
        raise ConfigError(f"--num-env-runners {runners}: a whole number >= 0 (0 samples in the driver)")
    if getattr(args, "list_configs", False):
        from ..train.ppo import list_configs

        print(list_configs())
        return 0
    cfg, extra = load_settings(args.config, args.set, runners, getattr(args, "address", None))
    check_extra(extra)
    if args.show_config:
        print(settings_toml(cfg, extra), end="")
        return 0
    figures = train(cfg, extra, overwrite=getattr(args, "overwrite", False))
    print(summary(figures))
    return 0
