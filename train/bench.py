"""``industry-env train --bench``: the native trainer beside the SB3 one, in one process, on one configuration.

Both train the configuration's network with its PPO settings (rollout size, minibatch, epochs, learning rate,
clipping, entropy) against its league for ``seconds`` of wall clock each, without evaluations or checkpoints, in
temporary run folders; the report gives each one's learner decisions a second, their ratio, and where each one's
time went. The SB3 trainer plays ``min(num_envs, 64)`` games (its VecEnv is fastest there, and its rollout buffer
keeps whole observations) with ``n_steps`` scaled so that its rollouts hold the same number of decisions.
"""

from __future__ import annotations

import dataclasses
import platform
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .config import TrainConfig, validate

SB3_GAMES = 64  # the SB3 trainer's games in the bench (its shipped runs' number)


@dataclass
class BenchResult:
    """The two runs' figures: ``native`` and ``sb3`` are their TrainResults, ``configs`` what each ran."""

    native: Any
    sb3: Any
    configs: dict[str, TrainConfig]
    when: str
    machine: str

    @property
    def ratio(self) -> float:
        return self.native.steps_per_second / max(self.sb3.steps_per_second, 1e-9)

    def report(self) -> str:
        """The figures as the docs quote them."""
        n, s = self.native.shares, self.sb3.shares
        cn, cs = self.configs["native"], self.configs["sb3"]
        outside = n["engine"] + n["opponents"] + n["buffers"] + n["other"]
        lines = [
            f"industry-env train --bench: {cn.game}, {cn.num_players} players, net_arch {cn.net_arch}, encoder "
            f"{cn.encoder}, opponents {cn.opponents} {cn.opponent_weights}; {self.when}, {self.machine}",
            f"  native: {self.native.steps_per_second:9,.0f} learner decisions/s ({cn.num_envs} games x {cn.n_steps} "
            f"steps a rollout, {self.native.updates} updates, {self.native.device})",
            f"          engine {100 * n['engine']:.1f}%, opponents {100 * n['opponents']:.1f}%, buffers "
            f"{100 * n['buffers']:.1f}%, other {100 * n['other']:.1f}% -> everything but the learner's arithmetic "
            f"{100 * outside:.1f}%; learner {100 * n['learner']:.1f}% (inference {100 * n['inference']:.1f}%, "
            f"updates {100 * n['update']:.1f}%)",
            f"  sb3:    {self.sb3.steps_per_second:9,.0f} learner decisions/s ({cs.num_envs} games x {cs.n_steps} "
            f"steps a rollout)",
            f"          engine {100 * s['engine']:.1f}%, opponents {100 * s['opponents']:.1f}%, learner "
            f"{100 * s['learner']:.1f}% (its rollout inference, updates and SB3's own loop)",
            f"  native / sb3: {self.ratio:.2f}x",
        ]  # fmt: skip
        return "\n".join(lines)


def bench_configs(cfg: TrainConfig, seconds: float, folder: Path) -> dict[str, TrainConfig]:
    """The two runs' configurations: ``cfg`` timed by ``seconds``, no evaluations, checkpoints or progress bar; the
    SB3 one on at most :data:`SB3_GAMES` games with rollouts of the same size."""
    common = {"eval_every": 0, "checkpoint_every": 0, "progress": False, "time_limit_minutes": seconds / 60,
              "resume": "", "total_timesteps": 2**62}  # fmt: skip
    native = dataclasses.replace(cfg, **common, run_dir=str(folder / "native"))
    games = min(cfg.num_envs, SB3_GAMES)
    steps = max(1, cfg.n_steps * cfg.num_envs // games)
    sb3 = dataclasses.replace(cfg, **common, run_dir=str(folder / "sb3"), num_envs=games, n_steps=steps,
                              device="auto", precision="auto", imitation_steps=0)  # fmt: skip
    return {"native": validate(native), "sb3": validate(sb3)}


def bench(cfg: TrainConfig, seconds: float = 120.0) -> BenchResult:
    """Train ``cfg`` for ``seconds`` with each trainer, SB3 first, in this process (see the module docstring)."""
    from . import native, ppo

    if not seconds > 0:
        raise ValueError(f"--seconds {seconds}: a number of seconds above 0")
    with tempfile.TemporaryDirectory(prefix="industry-env-bench-") as tmp:
        configs = bench_configs(cfg, seconds, Path(tmp))
        when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
        sb3 = ppo.train(configs["sb3"])
        nat = native.train(configs["native"])
    machine = f"{platform.machine()}, {_cpus()} CPUs, load average {_load()}"
    return BenchResult(native=nat, sb3=sb3, configs=configs, when=when, machine=machine)


def _cpus() -> int:
    import os

    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def _load() -> str:
    import os

    try:
        return " ".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:
        return "unknown"
