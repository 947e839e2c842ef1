"""Self-play training with sb3-contrib's MaskablePPO on the batched engine: ``industry-env train --config FILE``.

The learner plays N games at once through the SB3 VecEnv of the batched engine (:func:`industry_env.sb3.make_vec_env`,
no Python loop over single games), in a seat drawn at random each game. Its opponents come from an
:class:`industry_env.envs.OpponentPool`: each opponent seat of each game draws, when the game starts, one of the
starting agents (random, heuristic) or one of the frozen snapshots of the learner added as it improves (a
:class:`industry_env.agents.PPOAgent` of the policy at that time, sampling, run batched over every game where it is
to move). Every ``eval_every`` decisions the learner (deterministic) plays ``eval_games`` arena games against
``eval_opponent`` in every other seat; the win rate and its 95% Wilson interval go to TensorBoard and to the
console, and a snapshot joins the pool when the win rate beats the best so far.

The run folder (:mod:`.runfolder`: locked while a run trains in it, never silently overwritten, every file written
whole or not at all) holds ``config.toml`` (the full configuration), ``tb/`` (TensorBoard),
``checkpoints/step_N.zip`` with ``step_N.league.json`` (the pool's snapshots, the evaluations, for resuming; the
newest ``keep_checkpoints`` kept), ``best.zip`` (the model at its best evaluation), ``snapshots/`` (their weights,
policy files), ``evals.json``, ``final.zip`` and ``result.json``. Timing: the VecEnv's time is split into the
opponents' (inside their act calls) and the rest (the engine and its glue); the learner's is what remains (its
inference during rollouts and the updates); evaluations are timed apart and excluded from the throughput.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from . import runfolder as R
from .config import (
    ConfigError,
    TrainConfig,
    check_framework,
    check_same_run,
    field_docs,
    framework_of,
    game_options,
    load_config,
    shipped_configs,
    to_toml,
    validate,
)


class Timer:
    """Seconds spent in the VecEnv (engine and opponents together) and in the opponents' act calls."""

    def __init__(self) -> None:
        self.env = 0.0
        self.opponents = 0.0
        self.eval = 0.0


def _timed_agent(agent: Any, timer: Timer) -> Any:
    """``agent`` with its act calls timed into ``timer.opponents`` (same moves, same seeds)."""
    from industry_env.agents import Agent

    class Timed(Agent):
        name = agent.name

        def act_state(self, state: Any, mask: np.ndarray | None = None) -> np.ndarray:
            t = time.perf_counter()
            try:
                return agent.act_state(state, mask)
            finally:
                timer.opponents += time.perf_counter() - t

        def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
            t = time.perf_counter()
            try:
                return agent.act_batch(observations, action_masks)
            finally:
                timer.opponents += time.perf_counter() - t

        def act_engine(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
            t = time.perf_counter()
            try:
                return agent.act_engine(observations, action_masks)
            finally:
                timer.opponents += time.perf_counter() - t

        def __repr__(self) -> str:
            return f"Timed({agent!r})"

    timed = Timed()
    if hasattr(agent, "act_masks"):  # keep the mask-only fast path (the random agent builds no observation)

        def act_masks(masks: np.ndarray) -> np.ndarray:
            t = time.perf_counter()
            try:
                return agent.act_masks(masks)
            finally:
                timer.opponents += time.perf_counter() - t

        timed.act_masks = act_masks
    return timed


def _timed_vec_env(venv: Any, timer: Timer) -> Any:
    """A VecEnvWrapper adding the time of ``reset`` and ``step_wait`` to ``timer.env``."""
    from stable_baselines3.common.vec_env import VecEnvWrapper

    class TimedVecEnv(VecEnvWrapper):
        def reset(self) -> np.ndarray:
            t = time.perf_counter()
            try:
                return self.venv.reset()
            finally:
                timer.env += time.perf_counter() - t

        def step_wait(self) -> Any:
            t = time.perf_counter()
            try:
                return self.venv.step_wait()
            finally:
                timer.env += time.perf_counter() - t

    return TimedVecEnv(venv)


@dataclass
class TrainResult:
    """What a run produced and how fast: the final model, the evaluations, throughput and time shares."""

    run_dir: Path
    final: Path
    timesteps: int
    seconds: float
    steps_per_second: float
    opponent_moves_per_second: float
    shares: dict[str, float]
    evals: list[dict[str, float]] = field(default_factory=list)

    def summary(self) -> str:
        """A few lines for the console and the docs."""
        s = self.shares
        return (f"{self.timesteps:,} learner steps in {self.seconds:.0f} s (evaluations excluded): "
                f"{self.steps_per_second:,.0f} learner steps/s, opponents included "
                f"({self.opponent_moves_per_second:,.0f} opponent moves/s besides)\n"
                f"time: engine {100 * s['engine']:.0f}%, opponents {100 * s['opponents']:.0f}%, "
                f"learner {100 * s['learner']:.0f}% (rollout inference and updates); "
                f"evaluations took {s['eval_seconds']:.0f} s more, not counted above\n"
                f"final model: {self.final}")  # fmt: skip


def _seed_everything(cfg: TrainConfig) -> None:
    import torch

    torch.set_num_threads(cfg.torch_threads)
    torch.manual_seed(cfg.seed)
    np.random.seed(cfg.seed % 2**32)
    random.seed(cfg.seed)


def league_seed(cfg: TrainConfig, k: int) -> int:
    return (cfg.seed * 1_000_003 + 7919 * k + 17) % 2**63


def evaluate(agent: Any, cfg: TrainConfig, games: int | None = None) -> dict[str, float]:
    """Arena games of ``agent`` against ``cfg.eval_opponent`` in every other seat: its win rate with 95% CI."""
    import warnings

    from industry_env.arena import Arena

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # games rounded up to whole deals
        n = games or cfg.eval_games
        arena = Arena([agent] + [cfg.eval_opponent] * (cfg.num_players - 1), num_players=cfg.num_players, games=n,
                      seed=cfg.seed, batch_size=min(1024, n + cfg.num_players), game=cfg.game,
                      **game_options(cfg))  # fmt: skip
    row = arena.run().table()[0]
    return {"win_rate": row["win_rate"], "win_ci_low": row["win_ci_low"], "win_ci_high": row["win_ci_high"],
            "mean_points": row["mean_points"], "games": row["games"]}  # fmt: skip


def _require_train_extra() -> None:
    """ValueError naming the train extra if torch, Stable-Baselines3 or sb3-contrib is missing (checked before
    anything is written)."""
    try:
        import sb3_contrib  # noqa: F401
        import stable_baselines3  # noqa: F401
        import torch  # noqa: F401
    except ImportError as exc:
        raise ValueError(f"industry-env train needs the train extra: pip install 'industry_env[train]' ({exc})"
                         ) from None  # fmt: skip


def train(cfg: TrainConfig, overwrite: bool = False) -> TrainResult:
    """Run the training described by ``cfg`` (see the module docstring); returns where the model is and figures.

    Everything is checked before anything is written (:func:`industry_env.train.config.validate`); then the run
    folder is locked for the run's time. A folder that holds a run is refused unless ``cfg.resume`` continues it
    or ``overwrite`` is True (its run files are then removed first).
    """
    _require_train_extra()
    cfg = validate(cfg)
    check_framework(cfg, "sb3")
    run = Path(cfg.run_dir)
    if cfg.resume:
        R.check_checkpoint_framework(R.check_resume(run, cfg.resume), "sb3")
    R.refuse_unless_free(run, resuming=bool(cfg.resume), overwrite=overwrite)  # read only: nothing written yet
    lock = R.RunLock(R.make_run_dir(run)).acquire()
    try:
        R.refuse_unless_free(run, resuming=bool(cfg.resume), overwrite=overwrite)  # again, now that it is ours
        return _train_locked(cfg, run, overwrite)
    finally:
        lock.release()


def _train_locked(cfg: TrainConfig, run: Path, overwrite: bool) -> TrainResult:
    R.remove_partials(run)  # a killed run's temporary files
    resume = R.check_resume(run, cfg.resume) if cfg.resume else None
    if resume is not None:  # another game or table: refused before anything in the folder is moved
        check_same_run(run, resume, asdict(cfg))
    league: dict[str, Any] = {"snapshots": [], "best": -1.0, "evals": []}
    if resume is not None:
        league = R.read_league(R.league_path(resume))
        step = R.zip_timesteps(resume)
        if step is None:
            raise ConfigError(f"resume = {cfg.resume!r}: the zip holds no step count")
        moved = R.set_aside_after(run, step, lambda: evals_after(run, league))
        if moved is not None:
            print(f"resuming from step {step:,}: the later files of this run moved to {moved}")
        R.write_json(run / "evals.json", league["evals"])  # the evaluations of the continuation resumed
        against = league.get("best_against")
        if against is not None and against != cfg.eval_opponent:  # a best win rate against another opponent
            print(
                f"resuming with eval_opponent = {cfg.eval_opponent!r}: the best win rate so far was against "
                f"{against!r}, so best.zip is kept only until a model is evaluated against the new one"
            )
            league["best"] = -1.0
    elif overwrite:
        removed = R.clear_run(run)
        if removed:
            print(f"--overwrite: removed the earlier run's {', '.join(removed)} from {run}")
    _seed_everything(cfg)
    from industry_env.agents import PPOAgent, as_agent
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import VecMonitor

    from industry_env.envs import OpponentPool
    from industry_env.sb3 import make_vec_env

    timer = Timer()
    options = game_options(cfg)
    starters = [_timed_agent(as_agent(n, seed=league_seed(cfg, k), game=cfg.game, options=options), timer)
                for k, n in enumerate(cfg.opponents)]  # fmt: skip
    pool = OpponentPool(starters, weights=cfg.opponent_weights, seed=cfg.seed, game=cfg.game)
    base = make_vec_env(cfg.num_envs, num_players=cfg.num_players, opponents=pool, seed=cfg.seed, monitor=False,
                        learner_seat="random", reward=cfg.reward, game=cfg.game, **options)  # fmt: skip
    env = VecMonitor(_timed_vec_env(base, timer))
    if resume is not None:
        model = MaskablePPO.load(resume, env=env, device="cpu")  # unpickles: a checkpoint of this run's own
        model.set_random_seed((cfg.seed + model.num_timesteps) % 2**32)
        model.tensorboard_log = str(run / "tb")
        for snap in league["snapshots"]:
            agent = PPOAgent(seed=snap["seed"], path=run / "snapshots" / snap["file"], deterministic=False,
                             game=cfg.game)  # fmt: skip
            agent.name = snap["name"]
            pool.add(_timed_agent(agent, timer), snap["weight"])
        start = model.num_timesteps
    else:
        model = MaskablePPO("MlpPolicy", env, learning_rate=cfg.learning_rate, n_steps=cfg.n_steps,
                            batch_size=cfg.batch_size, n_epochs=cfg.n_epochs, gamma=cfg.gamma,
                            gae_lambda=cfg.gae_lambda, clip_range=cfg.clip_range, ent_coef=cfg.ent_coef,
                            vf_coef=cfg.vf_coef, max_grad_norm=cfg.max_grad_norm, policy_kwargs=policy_kwargs(cfg),
                            tensorboard_log=str(run / "tb"), seed=cfg.seed, device="cpu", verbose=0)  # fmt: skip
        start = 0
    remaining = max(0, cfg.total_timesteps - start)
    end = steps_trained(cfg, start)
    if end != cfg.total_timesteps and remaining:
        print(f"total_timesteps = {cfg.total_timesteps:,}: MaskablePPO trains whole rollouts of n_steps * num_envs = "
              f"{cfg.n_steps * cfg.num_envs:,} decisions, so this run trains to step {end:,}")  # fmt: skip
    for sub in ("checkpoints", "snapshots", "tb"):
        (run / sub).mkdir(exist_ok=True)
    R.write_text(run / "config.toml", to_toml(cfg))

    bar = None
    if cfg.progress:
        try:
            from tqdm.auto import tqdm

            bar = tqdm(
                total=max(end, start), initial=start, unit="step", dynamic_ncols=True, desc="train", mininterval=1.0
            )
        except ImportError:
            bar = None

    def snapshot_members() -> list[int]:
        return [k for k, a in enumerate(pool.agents) if getattr(a, "name", "").startswith("snapshot-")]

    def live_snapshots() -> int:
        return sum(1 for s in league["snapshots"] if s["weight"] > 0)

    def save_checkpoint(path: Path, n: int) -> None:
        """The league file first, then the zip: a zip present is a whole checkpoint."""
        R.write_json(R.league_path(path), {**league, "timesteps": n})
        R.save_model(model, path)

    class League(BaseCallback):
        """Evaluations, snapshots into the pool, checkpoints, the progress bar and the timing figures."""

        def __init__(self) -> None:
            super().__init__()
            every = [cfg.eval_every, cfg.checkpoint_every]
            self.next = [((start // e) + 1) * e if e else None for e in every]
            self.last = start

        def _on_step(self) -> bool:
            n = self.num_timesteps
            if bar is not None:
                bar.update(n - self.last)
            self.last = n
            if self.next[0] is not None and n >= self.next[0]:
                self.next[0] = (n // cfg.eval_every + 1) * cfg.eval_every
                self._evaluate(n)
            if self.next[1] is not None and n >= self.next[1]:
                self.next[1] = (n // cfg.checkpoint_every + 1) * cfg.checkpoint_every
                save_checkpoint(run / "checkpoints" / f"step_{n}.zip", n)
                R.prune(run, cfg.keep_checkpoints)
            if cfg.time_limit_minutes and time.perf_counter() - t0 > 60 * cfg.time_limit_minutes:
                (bar.write if bar is not None else print)(f"time limit of {cfg.time_limit_minutes:g} minutes: "
                                                          f"stopping at step {n:,}")  # fmt: skip
                return False
            return True

        def _evaluate(self, n: int) -> None:
            t = time.perf_counter()
            result = evaluate(PPOAgent.from_policy(self.model.policy, name="learner", game=cfg.game), cfg)
            timer.eval += time.perf_counter() - t
            for key in ("win_rate", "win_ci_low", "win_ci_high", "mean_points"):
                self.logger.record(f"eval/{key}", result[key])
            league["evals"].append({"timesteps": n, **result})
            improved = result["win_rate"] > league["best"]
            if cfg.max_snapshots and result["win_rate"] >= league["best"] + cfg.snapshot_margin:
                self._snapshot(n)
            league["best"] = max(league["best"], result["win_rate"])
            league["best_against"] = cfg.eval_opponent  # what best (and best.zip) was measured against
            if improved:  # the model at its best evaluation so far: never pruned
                save_checkpoint(run / "best.zip", n)
            self.logger.record("league/snapshots", live_snapshots())
            self._log_times()
            self.logger.dump(n)
            msg = (f"step {n:,}: win rate against {cfg.eval_opponent} {100 * result['win_rate']:.1f}% "
                   f"[{100 * result['win_ci_low']:.1f}, {100 * result['win_ci_high']:.1f}] "
                   f"over {result['games']} games; {live_snapshots()} snapshots in the pool")  # fmt: skip
            (bar.write if bar is not None else print)(msg)
            R.write_json(run / "evals.json", league["evals"])

        def _snapshot(self, n: int) -> None:
            seed = league_seed(cfg, 1000 + n)
            agent = PPOAgent.from_policy(self.model.policy, name=f"snapshot-{n}", seed=seed, deterministic=False,
                                         game=cfg.game)  # fmt: skip
            file = f"snapshot_{n}.npz"
            agent.save(run / "snapshots" / file)
            pool.add(_timed_agent(agent, timer), cfg.snapshot_weight)
            league["snapshots"].append({"name": agent.name, "file": file, "seed": seed, "weight": cfg.snapshot_weight})
            live = [s for s in league["snapshots"] if s["weight"] > 0]
            if len(live) > cfg.max_snapshots:  # the oldest retires: no new game draws it
                live[0]["weight"] = 0.0
                pool.weights[snapshot_members()[league["snapshots"].index(live[0])]] = 0.0

        def _log_times(self) -> None:
            figures = timing()
            self.logger.record("time/learner_steps_per_second", figures["steps_per_second"])
            for key in ("engine", "opponents", "learner"):
                self.logger.record(f"time/share_{key}", figures["shares"][key])

    t0 = time.perf_counter()

    def timing() -> dict[str, Any]:
        wall = max(time.perf_counter() - t0 - timer.eval, 1e-9)
        learner = max(wall - timer.env, 0.0)
        engine = max(timer.env - timer.opponents, 0.0)
        steps = model.num_timesteps - start
        return {"seconds": wall, "steps_per_second": steps / wall,
                "opponent_moves_per_second": base.games.opponent_steps / wall,
                "shares": {"engine": engine / wall, "opponents": timer.opponents / wall, "learner": learner / wall,
                           "eval_seconds": timer.eval}}  # fmt: skip

    try:
        model.learn(remaining, callback=League(), reset_num_timesteps=resume is None, tb_log_name="ppo")
    finally:
        if bar is not None:
            bar.close()
    final = run / "final.zip"
    save_checkpoint(final, model.num_timesteps)
    figures = timing()
    result = TrainResult(run_dir=run, final=final, timesteps=model.num_timesteps, seconds=figures["seconds"],
                         steps_per_second=figures["steps_per_second"],
                         opponent_moves_per_second=figures["opponent_moves_per_second"], shares=figures["shares"],
                         evals=league["evals"])  # fmt: skip
    R.write_json(run / "result.json", {**asdict(result), "run_dir": str(run), "final": str(final)})
    return result


def policy_kwargs(cfg: TrainConfig) -> dict[str, Any]:
    """MaskablePPO's ``policy_kwargs`` of ``cfg``: separate policy and value MLPs of ``net_arch``, over the flat
    observation or (``encoder = "cells"``) over the features of a :class:`.encoders.CellsExtractor` both share."""
    arch = list(cfg.net_arch)
    kwargs: dict[str, Any] = {"net_arch": {"pi": arch, "vf": arch}}
    if cfg.encoder == "cells":
        from .encoders import CellsExtractor

        kwargs["features_extractor_class"] = CellsExtractor
        kwargs["features_extractor_kwargs"] = {"game": cfg.game, "piece": cfg.cell_piece, "arch": list(cfg.cell_arch)}
    return kwargs


def steps_trained(cfg: TrainConfig, start: int = 0) -> int:
    """The step a run from step ``start`` ends at (without a time limit): ``total_timesteps`` rounded up to whole
    rollouts of ``n_steps * num_envs`` decisions, as Stable-Baselines3 collects them."""
    rollout = cfg.n_steps * cfg.num_envs
    remaining = max(0, cfg.total_timesteps - start)
    return start + -(-remaining // rollout) * rollout


def evals_after(run: Path, league: dict[str, Any]) -> bool:
    """Whether ``run/evals.json`` holds evaluations the league being resumed has not (a later continuation's)."""
    try:
        on_disk = json.loads((run / "evals.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return True  # unreadable: keep it aside rather than write over it
    return not isinstance(on_disk, list) or on_disk[:len(league["evals"])] != league["evals"] or \
        len(on_disk) > len(league["evals"])  # fmt: skip


# ---------------------------------------------------------------------------------------------- command line
def configure(parser: argparse.ArgumentParser) -> None:
    """Options of ``industry-env train``."""
    parser.add_argument("--config", metavar="FILE|NAME", default=None,
                        help="a TOML file of key = value lines (any keys; the rest keep their defaults), or the name "
                             "of a shipped config (ppo_industry, ppo_age_of_industry, ppo_twentieth_century; see "
                             "--list-configs)")  # fmt: skip
    parser.add_argument("--set", metavar="KEY=VALUE", action="append", default=[],
                        help="override one key (repeatable), e.g. --set total_timesteps=100000")  # fmt: skip
    parser.add_argument("--show-config", action="store_true",
                        help="print the resulting configuration with each key's meaning, and stop")  # fmt: skip
    parser.add_argument("--list-configs", action="store_true",
                        help="list the training configs shipped with the package, and stop")  # fmt: skip
    parser.add_argument(
        "--overwrite",
        action="store_true",
        help="train into a run_dir that holds another run, removing that run's files first",
    )


def list_configs(width: int = 100) -> str:
    """The shipped configs: the name ``--config`` takes and the game it trains, then the file's opening comment
    whole (wrapped at ``width`` columns between words, never cut), then the file's path."""
    import textwrap

    from industry_env.registry import load_game

    blocks = []
    for name, path in shipped_configs().items():
        text = path.read_text(encoding="utf-8")
        comment = []
        for line in text.splitlines():
            if not line.startswith("#"):
                break
            comment.append(line.lstrip("#").strip())
        cfg = load_config(path)
        game, how = cfg.game, ("--framework az " if framework_of(cfg) == "az" else "")
        joined = "".join(c if not i or comment[i - 1].endswith("/") else " " + c for i, c in enumerate(comment))
        about = textwrap.fill(joined, width=width, initial_indent="    ", subsequent_indent="    ",
                              break_long_words=False, break_on_hyphens=False)  # fmt: skip
        blocks.append(f"{name} ({load_game(game).name}: {how}--config {name})\n{about}\n    file: {path}")
    return "\n\n".join(blocks)


def run(args: argparse.Namespace) -> int:
    """Load the configuration, train, print the throughput and where the model is."""
    if getattr(args, "list_configs", False):
        print(list_configs())
        return 0
    cfg = load_config(args.config, args.set)
    if args.show_config:
        docs = field_docs()
        for line in to_toml(cfg).splitlines():
            print(f"{line:<48} # {' '.join(docs.get(line.split(' = ')[0], '').split())}")
        return 0
    _require_train_extra()
    result = train(cfg, overwrite=getattr(args, "overwrite", False))
    print(result.summary())
    return 0
