"""The suite's own self-play PPO trainer (``industry-env train``, ``--framework native``): rollouts as arrays over
the batched engine, the league of the SB3 trainer, on CUDA where present.

Each rollout plays ``num_envs`` games at once (:mod:`.selfplay`: every game's seat to move sorted by who plays
it, one batched call per group, observations written once and kept compact) until the learner has made
``n_steps * num_envs`` decisions; each seat's transitions are credited on their own (:mod:`.credit`: a seat's
reward reaches its own last transition, GAE over its own sequence), the value targets normalised
(:class:`.nets.ValueNorm`), then ``n_epochs`` passes of clipped PPO over minibatches of ``batch_size`` with
normalised advantages and an entropy bonus, the illegal actions' logits at the lowest float. The network is the SB3
policy's (:class:`.nets.ActorCritic`), so the same configs train the same shapes.

Optionally (``imitation_steps``) the run starts with imitation: ``imitation_agent`` plays the learner's seats and
the policy learns its moves (cross-entropy), the value network the outcomes, before PPO.

The run folder follows :mod:`.runfolder`'s rules as the SB3 trainer's does and holds the same files: ``config.toml``,
``tb/native`` (TensorBoard), ``checkpoints/step_N.zip`` with ``step_N.league.json``, ``best.zip``, ``final.zip``
(a zip with JSON ``data`` and weights-only ``policy.pth``/``optimizer.pth``, read with ``torch.load(weights_only=
True)``; the ``ppo`` agent plays it as it plays a MaskablePPO zip), ``final.npz`` (the policy file, weights only),
``snapshots/*.npz``, ``evals.json`` and ``result.json``. Time is itemized (:class:`.selfplay.Timer`): engine,
opponents, buffers, the learner's inference and its updates; evaluations are timed apart.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import time
import zipfile
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from . import runfolder as R
from .config import ConfigError, TrainConfig, check_framework, check_same_run, game_options, to_toml, validate
from .ppo import TrainResult, evals_after, evaluate, league_seed

FORMAT = "industry_env-native/1"  # the checkpoint zip's data["format"]


@dataclass
class NativeResult(TrainResult):
    """A native run's :class:`.ppo.TrainResult`, with its policy file; ``shares`` itemizes engine, opponents,
    buffers, inference and update (``learner`` is the last two together, ``other`` what no timer saw)."""

    policy: Path | None = None
    device: str = "cpu"
    updates: int = 0
    imitated: int = 0  # decisions of the imitation stage (in the throughput, not in ``timesteps``)

    def summary(self) -> str:
        s = self.shares
        also = f" (and {self.imitated:,} imitated first)" if self.imitated else ""
        return (f"{self.timesteps:,} learner steps{also} in {self.seconds:.0f} s (evaluations excluded): "
                f"{self.steps_per_second:,.0f} learner decisions/s on {self.device}, opponents included "
                f"({self.opponent_moves_per_second:,.0f} opponent moves/s besides)\n"
                f"time: engine {100 * s['engine']:.0f}%, opponents {100 * s['opponents']:.0f}%, buffers "
                f"{100 * s['buffers']:.0f}%, other {100 * s['other']:.0f}%, learner {100 * s['learner']:.0f}% "
                f"(inference {100 * s['inference']:.0f}%, updates {100 * s['update']:.0f}%); "
                f"evaluations took {s['eval_seconds']:.0f} s more, not counted above\n"
                f"final model: {self.final} (policy file {self.policy})")  # fmt: skip


def require_torch() -> None:
    """ValueError naming the train extra if torch or TensorBoard is missing (checked before anything is written)."""
    try:
        import tensorboard  # noqa: F401
        import torch  # noqa: F401
    except ImportError as exc:
        raise ValueError(f"industry-env train needs the train extra: pip install 'industry_env[train]' ({exc})"
                         ) from None  # fmt: skip


def pick_device(name: str) -> Any:
    """The torch device of the key ``device``: ``auto`` is CUDA where present, else the CPU; ConfigError if a CUDA
    device is asked for where there is none."""
    import torch

    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if name.startswith("cuda"):
        if not torch.cuda.is_available():
            raise ConfigError(f"device = {name!r}: torch sees no CUDA device here (torch {torch.__version__}); use "
                              f"'auto' or 'cpu'")  # fmt: skip
        index = int(name.partition(":")[2] or 0)
        if index >= torch.cuda.device_count():
            raise ConfigError(f"device = {name!r}: torch sees {torch.cuda.device_count()} CUDA device(s)")
    return torch.device(name)


def autocast_for(precision: str, device: Any) -> Any:
    """A factory of the context in which forward passes run: bfloat16 autocast (``precision = "bfloat16"``, or
    ``"auto"`` on CUDA), else nothing."""
    import torch

    if precision == "bfloat16" or (precision == "auto" and device.type == "cuda"):
        return lambda: torch.autocast(device_type=device.type, dtype=torch.bfloat16)
    return contextlib.nullcontext


# ---------------------------------------------------------------------------------------------- checkpoints
def save_checkpoint(path: Path, net: Any, opt: Any, data: dict[str, Any]) -> None:
    """A zip of JSON ``data`` (with the step count and the sizes the ``ppo`` agent reads) and the weights-only
    state dicts ``policy.pth`` and ``optimizer.pth``, written whole or not at all."""
    import torch

    from industry_env.core.outputs import atomic_file

    def blob(obj: Any) -> bytes:
        b = io.BytesIO()
        torch.save(obj, b)
        return b.getvalue()

    state = {k: v.detach().cpu() for k, v in net.state_dict().items()}
    with atomic_file(path) as f, zipfile.ZipFile(f, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("data", json.dumps(data))
        z.writestr("policy.pth", blob(state))
        z.writestr("optimizer.pth", blob(opt.state_dict()))


def load_checkpoint(path: Path, net: Any, opt: Any, device: Any) -> dict[str, Any]:
    """Weights and optimizer from a native checkpoint (``torch.load(weights_only=True)``: nothing unpickled);
    its JSON ``data``. ConfigError if it is not one."""
    import torch

    where = f"resume = {str(path)!r}"
    try:
        with zipfile.ZipFile(path) as z:
            data = json.loads(z.read("data").decode("utf-8"))
            state = torch.load(io.BytesIO(z.read("policy.pth")), map_location=device, weights_only=True)
            optim = torch.load(io.BytesIO(z.read("optimizer.pth")), map_location=device, weights_only=True)
        net.load_state_dict(state)
        opt.load_state_dict(optim)
    except (zipfile.BadZipFile, OSError, KeyError, ValueError, RuntimeError) as exc:
        said = " ".join(str(exc).split())[:600]
        raise ConfigError(f"{where}: not a checkpoint of this configuration's network ({type(exc).__name__}: {said}); "
                          f"resume with the run's own configuration (its config.toml); nothing in the folder was "
                          f"changed") from None  # fmt: skip
    return data


# ---------------------------------------------------------------------------------------------- the updates
def ppo_update(net: Any, opt: Any, buf: Any, adv: np.ndarray, ret: np.ndarray, cfg: TrainConfig, timer: Any,
               generator: Any, autocast: Any) -> dict[str, float]:  # fmt: skip
    """``n_epochs`` passes of clipped PPO over the rollout ``buf`` (advantages ``adv``, normalised returns
    ``ret``), in minibatches of about ``batch_size``; the losses and diagnostics, averaged."""
    import torch
    import torch.nn.functional as F

    from .nets import masked

    dev = buf.device
    sync = dev.type == "cpu"  # on a GPU the gathers run asynchronously: counted with the update
    n = buf.size
    adv_t, ret_t = torch.from_numpy(adv).to(dev), torch.from_numpy(ret).to(dev)
    parts = max(1, round(n / cfg.batch_size))
    sums = torch.zeros(6, device=dev)
    count = 0
    t_start = time.perf_counter()
    gather = 0.0
    for _ in range(cfg.n_epochs):
        perm = torch.randperm(n, generator=generator).to(dev)
        for mb in torch.tensor_split(perm, parts):
            t = time.perf_counter()
            mb = mb.sort().values  # the rows gathered in memory order: twice as fast
            batch, mask, a, old = buf.batch(mb), buf.mask.index_select(0, mb), buf.action[mb], buf.logp[mb]
            A, target = adv_t[mb], ret_t[mb]
            if sync:
                gather += time.perf_counter() - t
            with autocast():
                logits, v = net(batch)
            lg = masked(logits.float(), mask)
            logp_all = torch.log_softmax(lg, dim=1)
            logp = logp_all.gather(1, a[:, None])[:, 0]
            # softmax, not logp_all.exp(): exp of the masked entries' huge negatives takes a slow path (20x)
            entropy = -(torch.softmax(lg, dim=1) * logp_all).sum(dim=1)
            if A.numel() > 1:
                A = (A - A.mean()) / (A.std() + 1e-8)
            log_ratio = logp - old
            ratio = log_ratio.exp()
            pg = torch.max(-A * ratio, -A * ratio.clamp(1 - cfg.clip_range, 1 + cfg.clip_range)).mean()
            vloss = F.mse_loss(v.float(), target)
            loss = pg - cfg.ent_coef * entropy.mean() + cfg.vf_coef * vloss
            opt.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), cfg.max_grad_norm)
            opt.step()
            with torch.no_grad():
                clipped = ((ratio - 1).abs() > cfg.clip_range).float().mean()
                kl = ((ratio - 1) - log_ratio).mean()
                sums += torch.stack([pg.detach(), vloss.detach(), entropy.mean().detach(), kl, clipped,
                                     loss.detach()])  # fmt: skip
            count += 1
    out = (sums / max(count, 1)).tolist()
    total = time.perf_counter() - t_start
    timer.buffers += gather
    timer.update += total - gather
    out[2] = -out[2]  # logged as Stable-Baselines3 names it: the entropy loss is minus the entropy
    return dict(zip(("policy_gradient_loss", "value_loss", "entropy_loss", "approx_kl", "clip_fraction", "loss"), out,
                    strict=True))  # fmt: skip


def imitation_update(net: Any, opt: Any, buf: Any, ret: np.ndarray, cfg: TrainConfig, timer: Any, generator: Any,
                     autocast: Any) -> dict[str, float]:  # fmt: skip
    """``imitation_epochs`` passes of behaviour cloning over ``buf`` (the imitated agent's moves): cross-entropy of
    the masked policy on its actions, plus the value loss on the normalised returns ``ret``."""
    import torch
    import torch.nn.functional as F

    from .nets import masked

    dev = buf.device
    n = buf.size
    ret_t = torch.from_numpy(ret).to(dev)
    parts = max(1, round(n / cfg.batch_size))
    sums = torch.zeros(3, device=dev)
    count = 0
    t0 = time.perf_counter()
    for _ in range(cfg.imitation_epochs):
        perm = torch.randperm(n, generator=generator).to(dev)
        for mb in torch.tensor_split(perm, parts):
            mb = mb.sort().values
            batch, mask, a, target = buf.batch(mb), buf.mask.index_select(0, mb), buf.action[mb], ret_t[mb]
            with autocast():
                logits, v = net(batch)
            logp_all = torch.log_softmax(masked(logits.float(), mask), dim=1)
            ce = F.nll_loss(logp_all, a)
            vloss = F.mse_loss(v.float(), target)
            loss = ce + cfg.vf_coef * vloss
            opt.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), cfg.max_grad_norm)
            opt.step()
            with torch.no_grad():
                agree = (logp_all.argmax(dim=1) == a).float().mean()
                sums += torch.stack([ce.detach(), vloss.detach(), agree])
            count += 1
    timer.update += time.perf_counter() - t0
    return dict(zip(("cross_entropy", "value_loss", "agreement"), (sums / max(count, 1)).tolist(), strict=True))


# ---------------------------------------------------------------------------------------------- the run
def train(cfg: TrainConfig, overwrite: bool = False) -> NativeResult:
    """Run the training described by ``cfg`` with the native trainer (see the module docstring).

    Everything is checked before anything is written; the run folder is locked for the run's time; a folder that
    holds a run is refused unless ``cfg.resume`` continues it or ``overwrite`` is True.
    """
    return run_locked(cfg, "native", overwrite, _train_locked)


def run_locked(cfg: TrainConfig, framework: str, overwrite: bool,
               body: Callable[[TrainConfig, Path, bool], Any]) -> Any:  # fmt: skip
    """``body(cfg, run folder, overwrite)`` for a torch trainer of ``framework`` (the native one, search
    self-play): the configuration, the device and the checkpoint to resume checked first, then the folder refused
    if it holds another run, then locked for the body's time."""
    require_torch()
    cfg = validate(cfg)
    check_framework(cfg, framework)
    pick_device(cfg.device)  # a CUDA device that is not there: refused before anything is written
    run = Path(cfg.run_dir)
    if cfg.resume:
        R.check_checkpoint_framework(R.check_resume(run, cfg.resume), framework)
    R.refuse_unless_free(run, resuming=bool(cfg.resume), overwrite=overwrite)
    lock = R.RunLock(R.make_run_dir(run)).acquire()
    try:
        R.refuse_unless_free(run, resuming=bool(cfg.resume), overwrite=overwrite)
        return body(cfg, run, overwrite)
    finally:
        lock.release()


def resume_point(cfg: TrainConfig, run: Path) -> tuple[Path | None, dict[str, Any], int]:
    """The checkpoint a locked run resumes (None: a new run), its league (evaluations, snapshots, best) and its
    step count; partial files of an interrupted save removed first, another game's run refused."""
    R.remove_partials(run)
    resume = R.check_resume(run, cfg.resume) if cfg.resume else None
    league: dict[str, Any] = {"snapshots": [], "best": -1.0, "evals": []}
    if resume is None:
        return None, league, 0
    check_same_run(run, resume, asdict(cfg))
    saved = R.zip_timesteps(resume)
    if saved is None:
        raise ConfigError(f"resume = {cfg.resume!r}: the zip holds no step count")
    return resume, R.read_league(R.league_path(resume)), saved


def _train_locked(cfg: TrainConfig, run: Path, overwrite: bool) -> NativeResult:
    import torch
    from industry_env.agents import PPOAgent, as_agent
    from industry_env.agents.ppo import load_actor

    from industry_env.envs.common import GameSetup

    from .credit import SeatLinks, gae
    from .nets import ActorCritic, FrozenActor, ValueNorm, codec_for
    from .selfplay import League, Member, Rollout, SelfPlay, Timer

    resume, league, step = resume_point(cfg, run)

    device = pick_device(cfg.device)
    torch.set_num_threads(cfg.torch_threads)
    torch.manual_seed(cfg.seed)
    np.random.seed(cfg.seed % 2**32)
    random.seed(cfg.seed)
    autocast = autocast_for(cfg.precision, device)
    options = game_options(cfg)
    setup = GameSetup(cfg.game, cfg.num_players, options)
    codec = codec_for(setup.spec.id, setup.observation_size, cfg.encoder, cfg.cell_piece)
    net = ActorCritic(setup.observation_size, setup.num_actions, list(cfg.net_arch), codec,
                      list(cfg.cell_arch)).to(device)  # fmt: skip
    opt = torch.optim.Adam(net.parameters(), lr=cfg.learning_rate, eps=1e-5, fused=True)  # SB3's eps; one kernel
    vnorm = ValueNorm(cfg.value_norm)
    imitated = 0
    if resume is not None:  # loaded before the folder is touched: a network of other sizes is refused first
        data = load_checkpoint(resume, net, opt, device)
        vnorm.load(data.get("value_norm", vnorm.state()))
        imitated = int(data.get("imitation_timesteps", 0))
        moved = R.set_aside_after(run, step, lambda: evals_after(run, league))
        if moved is not None:
            print(f"resuming from step {step:,}: the later files of this run moved to {moved}")
        R.write_json(run / "evals.json", league["evals"])
        against = league.get("best_against")
        if against is not None and against != cfg.eval_opponent:
            print(f"resuming with eval_opponent = {cfg.eval_opponent!r}: the best win rate so far was against "
                  f"{against!r}, so best.zip is kept only until a model is evaluated against the new one")  # fmt: skip
            league["best"] = -1.0
    elif overwrite:
        removed = R.clear_run(run)
        if removed:
            print(f"--overwrite: removed the earlier run's {', '.join(removed)} from {run}")
    generator = torch.Generator()
    generator.manual_seed((cfg.seed + step) % 2**63)

    timer = Timer()
    members = [Member(n, w, agent=as_agent(n, seed=league_seed(cfg, k), game=setup.spec.id, options=options))
               for k, (n, w) in enumerate(zip(cfg.opponents, cfg.opponent_weights, strict=True))]  # fmt: skip

    def snapshot_member(name: str, actor: Any, seed: int, weight: float) -> Member:
        g = torch.Generator(device=device)
        g.manual_seed(seed % 2**63)
        return Member(name, weight, actor=FrozenActor(actor, codec).to(device), generator=g)

    for snap in league["snapshots"]:
        actor = load_actor(run / "snapshots" / snap["file"], setup.spec.id, backend="torch")
        members.append(snapshot_member(snap["name"], actor, snap["seed"], snap["weight"]))
    pool = League(members)
    games = SelfPlay(setup, cfg.num_envs, cfg.reward, (cfg.seed + step) % 2**63, pool, codec, device, timer,
                     autocast)  # fmt: skip
    rollout = cfg.n_steps * cfg.num_envs
    buf = Rollout(codec, setup.num_actions, rollout + cfg.num_envs, device, SeatLinks(cfg.num_envs, setup.num_players))

    for sub in ("checkpoints", "snapshots", "tb"):
        (run / sub).mkdir(exist_ok=True)
    R.write_text(run / "config.toml", to_toml(cfg))
    from torch.utils.tensorboard import SummaryWriter

    writer = SummaryWriter(log_dir=str(run / "tb" / "native"))
    bar = progress_bar(cfg, step)

    def say(msg: str) -> None:
        (bar.write if bar is not None else print)(msg)

    def data_of(n: int) -> dict[str, Any]:
        return {"framework": "native", "format": FORMAT, "num_timesteps": n, "imitation_timesteps": imitated,
                "value_norm": vnorm.state(), "device": str(device), **net.sb3_data(setup.spec.id, list(cfg.net_arch))}

    def save(path: Path, n: int) -> None:
        """The league file first, then the zip: a zip present is a whole checkpoint."""
        R.write_json(R.league_path(path), {**league, "timesteps": n})
        save_checkpoint(path, net, opt, data_of(n))

    def live() -> int:
        return sum(1 for s in league["snapshots"] if s["weight"] > 0)

    def evaluate_now(n: int) -> None:
        t = time.perf_counter()
        result = evaluate(PPOAgent.from_actor(net.actor(), name="learner", game=setup.spec.id), cfg)
        timer.eval += time.perf_counter() - t
        for key in ("win_rate", "win_ci_low", "win_ci_high", "mean_points"):
            writer.add_scalar(f"eval/{key}", result[key], n)
        league["evals"].append({"timesteps": n, **result})
        improved = result["win_rate"] > league["best"]
        if cfg.max_snapshots and result["win_rate"] >= league["best"] + cfg.snapshot_margin:
            snapshot(n)
        league["best"] = max(league["best"], result["win_rate"])
        league["best_against"] = cfg.eval_opponent
        if improved:
            save(run / "best.zip", n)
        writer.add_scalar("league/snapshots", live(), n)
        say(f"step {n:,}: win rate against {cfg.eval_opponent} {100 * result['win_rate']:.1f}% "
            f"[{100 * result['win_ci_low']:.1f}, {100 * result['win_ci_high']:.1f}] over {result['games']} games; "
            f"{live()} snapshots in the pool")  # fmt: skip
        R.write_json(run / "evals.json", league["evals"])

    def snapshot(n: int) -> None:
        seed = league_seed(cfg, 1000 + n)
        actor = net.actor()
        file = f"snapshot_{n}.npz"
        PPOAgent.from_actor(actor, name=f"snapshot-{n}", seed=seed, deterministic=False,
                            game=setup.spec.id).save(run / "snapshots" / file)  # fmt: skip
        pool.members.append(snapshot_member(f"snapshot-{n}", actor, seed, cfg.snapshot_weight))
        league["snapshots"].append({"name": f"snapshot-{n}", "file": file, "seed": seed,
                                    "weight": cfg.snapshot_weight})  # fmt: skip
        alive = [s for s in league["snapshots"] if s["weight"] > 0]
        if len(alive) > cfg.max_snapshots:  # the oldest retires: no new game draws it
            alive[0]["weight"] = 0.0
            pool.members[len(cfg.opponents) + league["snapshots"].index(alive[0])].weight = 0.0

    t0 = time.perf_counter()
    deadline = t0 + 60 * cfg.time_limit_minutes if cfg.time_limit_minutes else None
    collected = 0  # learner decisions played (partial rollouts and imitation included), for the throughput
    opponent_moves = 0
    updates = 0
    schedule = Schedule(step, cfg.eval_every, cfg.checkpoint_every)

    def over_time() -> bool:
        return deadline is not None and time.perf_counter() > deadline

    def targets(adv_lam: float) -> tuple[np.ndarray, np.ndarray]:
        """Advantages and normalised returns of the rollout in ``buf`` (the statistics updated first)."""
        t = time.perf_counter()
        L, N = buf.links, buf.size
        values = vnorm.denormalize(buf.value[:N])
        boot = vnorm.denormalize(games.bootstrap)
        adv, ret = gae(values, L.reward[:N], L.done[:N], L.next[:N], boot, L.starts, cfg.gamma, adv_lam)
        spread = float(np.var(ret))
        explained[0] = 1.0 - float(np.var(ret - values)) / spread if spread > 0 else float("nan")
        vnorm.update(ret, net.value_net)
        out = adv, vnorm.normalize(ret).astype(np.float32)
        timer.buffers += time.perf_counter() - t
        return out

    explained = [float("nan")]  # the value network's explained variance of the last rollout's returns

    def log_rollout(n: int, stats: dict[str, float], prefix: str) -> None:
        stats = {**stats, "explained_variance": explained[0]}
        s = games.stats
        if s.games:
            writer.add_scalar(f"{prefix}/ep_rew_mean", s.reward / s.games, n)
            writer.add_scalar(f"{prefix}/win_rate", s.wins / s.games, n)
        for k, v in stats.items():
            writer.add_scalar(f"train/{k}" if prefix == "rollout" else f"imitation/{k}", v, n)
        f = timing()
        writer.add_scalar("time/learner_steps_per_second", f["steps_per_second"], n)
        for k in (*Timer.PARTS, "other"):
            writer.add_scalar(f"time/share_{k}", f["shares"][k], n)

    def timing() -> dict[str, Any]:
        wall = max(time.perf_counter() - t0 - timer.eval, 1e-9)
        parts = {k: getattr(timer, k) / wall for k in Timer.PARTS}
        parts["other"] = max(0.0, 1.0 - sum(parts.values()))
        parts["learner"] = parts["inference"] + parts["update"]
        return {"seconds": wall, "steps_per_second": collected / wall,
                "opponent_moves_per_second": opponent_moves / wall, "shares": {**parts, "eval_seconds": timer.eval}}

    try:
        # ------------------------------------------------------------------ imitation first, if asked
        if imitated < cfg.imitation_steps and resume is None:
            teacher = as_agent(cfg.imitation_agent, seed=league_seed(cfg, 999), game=setup.spec.id, options=options)
            say(f"imitation of {cfg.imitation_agent}: {cfg.imitation_steps:,} decisions")
            while imitated < cfg.imitation_steps and not over_time():
                whole = games.collect(net, buf, rollout, deadline, imitate=teacher)
                collected += buf.size
                opponent_moves += games.stats.opponent_moves
                if not whole:
                    break
                _, ret = targets(1.0)
                stats = imitation_update(net, opt, buf, ret, cfg, timer, generator, autocast)
                imitated += buf.size
                log_rollout(imitated, stats, "imitation")
            if cfg.eval_every and not over_time():
                evaluate_now(step)
        # ------------------------------------------------------------------ PPO
        while step < cfg.total_timesteps and not over_time():
            whole = games.collect(net, buf, rollout, deadline)
            collected += buf.size
            opponent_moves += games.stats.opponent_moves
            if not whole:
                break
            adv, ret = targets(cfg.gae_lambda)
            stats = ppo_update(net, opt, buf, adv, ret, cfg, timer, generator, autocast)
            updates += 1
            step += buf.size
            if bar is not None:
                bar.update(buf.size)
            log_rollout(step, stats, "rollout")
            schedule.after(step, evaluate_now, run, cfg.keep_checkpoints, save)
        if over_time() and step < cfg.total_timesteps:
            say(f"time limit of {cfg.time_limit_minutes:g} minutes: stopping at step {step:,}")
    finally:
        if bar is not None:
            bar.close()
    final = run / "final.zip"
    save(final, step)
    policy = PPOAgent.from_actor(net.actor(), game=setup.spec.id).save(run / "final.npz")
    writer.close()
    f = timing()
    result = NativeResult(run_dir=run, final=final, timesteps=step, seconds=f["seconds"],
                          steps_per_second=f["steps_per_second"],
                          opponent_moves_per_second=f["opponent_moves_per_second"],
                          shares=f["shares"], evals=league["evals"], policy=policy, device=str(device),
                          updates=updates, imitated=imitated)  # fmt: skip
    R.write_json(run / "result.json", {**asdict(result), "run_dir": str(run), "final": str(final),
                                       "policy": str(policy)})  # fmt: skip
    return result


class Schedule:
    """When evaluations and checkpoints fall due: every ``eval_every`` and ``checkpoint_every`` learner steps (0:
    never), counted on from ``step`` (a resumed run keeps its rhythm); one schedule for both torch trainers."""

    def __init__(self, step: int, eval_every: int, checkpoint_every: int) -> None:
        self._every = (eval_every, checkpoint_every)
        self._next = [(step // e + 1) * e if e else None for e in self._every]

    def due(self, step: int) -> tuple[bool, bool]:
        """(evaluate now, checkpoint now) at ``step``; each next one then falls a whole period later."""
        out = []
        for k, e in enumerate(self._every):
            hit = self._next[k] is not None and step >= self._next[k]
            if hit:
                self._next[k] = (step // e + 1) * e
            out.append(hit)
        return out[0], out[1]

    def after(self, step: int, evaluate: Callable[[int], None], run: Path, keep: int,
              save: Callable[[Path, int], None]) -> None:  # fmt: skip
        """At the end of an update: ``evaluate(step)`` if due, and if due ``save`` the checkpoint
        ``run/checkpoints/step_N.zip`` and prune the checkpoints to the newest ``keep``."""
        eval_due, checkpoint_due = self.due(step)
        if eval_due:
            evaluate(step)
        if checkpoint_due:
            save(run / "checkpoints" / f"step_{step}.zip", step)
            R.prune(run, keep)


def progress_bar(cfg: TrainConfig, step: int) -> Any:
    if not cfg.progress:
        return None
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return None
    return tqdm(total=max(cfg.total_timesteps, step), initial=step, unit="step", dynamic_ncols=True, desc="train",
                mininterval=1.0)  # fmt: skip
