"""Search self-play (``industry-env train --framework az``): the ``az`` agent's policy-value network trained on its
own searches, as AlphaZero (Silver et al. 2018) and expert iteration (Anthony et al. 2017) train theirs.

``num_envs`` games are played at once, every seat by one ``az`` agent (:class:`industry_env.agents.az.AZAgent`)
searching with the current network: ``az_simulations`` simulations a searched decision, the policy's ``az_top_k``
moves and the game's heuristic move as candidates, the leaves valued by the value head, positions rebuilt from each
seat's own observation (hidden information redealt, as the agent always plays). Every game's decision of a step goes
to the search in one call, so their simulations are stepped as one batch of the engine. With ``az_opponent_share``
that share of the seats is played by the league's ``opponents`` instead, drawn seat by seat for each game by
``opponent_weights``: their decisions are kept for the value alone, so that it also learns the positions the agent
meets against other players.

Every decision with more than one legal move is kept (:class:`ReplayBuffer`): its observation, its mask, where it
was searched the root's visits (the policy's target), and, once its game is over, the outcome for its seat (+1 a
winner, -1 the others, 0 all on a full tie: the value's target, the search's own terminal values). A seat's first
``az_temperature_moves`` searched decisions of a game are drawn in proportion to the visits (exploration); later
ones are the most visited move, as the agent plays.

After each ``n_steps * num_envs`` decisions kept, the network takes ``n_epochs * new / batch_size`` Adam steps on
minibatches drawn from the newest ``az_buffer`` finished positions: ``az_policy_coef`` times the cross-entropy of
the masked policy against the visit shares, plus ``vf_coef`` times the squared error of the value against the
outcome; then the search plays with the new network. The network is the native trainer's
(:class:`.nets.ActorCritic`), so ``az_init`` may start from a native run or a policy-value file, and every
checkpoint plays as ``ppo``, ``net`` and ``az`` (its value read as it is: no normalisation). PPO's own keys
(clipping, GAE, entropy, snapshots, imitation) are not read.

The run folder is the native trainer's: ``config.toml``, ``tb/az`` (TensorBoard), ``checkpoints/step_N.zip`` with
their ``.league.json``, ``best.zip`` (the best evaluation of the network alone against ``eval_opponent``),
``final.zip``, ``final.npz`` (a policy-value file: ``az:runs/NAME/final.npz`` plays it with numpy), ``evals.json``
and ``result.json``. Time is itemized: the search (engine, heuristic and network inside it), the updates, the
rest. A resumed run continues the network, the optimizer and the step count; its replay buffer starts empty.
"""

from __future__ import annotations

import random
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from . import runfolder as R
from .config import (
    ConfigError,
    TrainConfig,
    az_init_path,
    game_options,
    to_toml,
)
from .native import Schedule, load_checkpoint, pick_device, progress_bar, resume_point, run_locked, save_checkpoint
from .ppo import TrainResult, evals_after, evaluate, league_seed

FORMAT = "industry_env-az/1"  # the checkpoint zip's data["format"]
PARTS = ("search", "update")  # the timed parts of a run (evaluations apart)


@dataclass
class ExpertResult(TrainResult):
    """A search self-play run's :class:`.ppo.TrainResult` (``timesteps``: decisions kept; ``steps_per_second``:
    decisions kept a second), with its policy-value file, the games finished and the losses of its last update."""

    policy: Path | None = None
    device: str = "cpu"
    updates: int = 0
    games: int = 0
    losses: dict[str, float] = field(default_factory=dict)

    def summary(self) -> str:
        s = self.shares
        return (f"{self.timesteps:,} decisions of search self-play in {self.seconds:.0f} s (evaluations excluded): "
                f"{self.steps_per_second:,.1f} a second on {self.device}, {self.games:,} games, {self.updates} "
                f"updates\ntime: search {100 * s['search']:.0f}%, updates {100 * s['update']:.0f}%, other "
                f"{100 * s['other']:.0f}%; evaluations took {s['eval_seconds']:.0f} s more\n"
                f"final model: {self.final} (policy-value file {self.policy})")  # fmt: skip


class ReplayBuffer:
    """The newest ``capacity`` positions of search self-play, in a ring: observation (float16), legal mask (bits),
    the searched candidates (-1: none) with their visit shares, whether the decision was searched, and the outcome
    for its seat (NaN until its game is over: such a position is not drawn)."""

    def __init__(self, capacity: int, observation_size: int, num_actions: int, candidates: int) -> None:
        self.capacity, self.num_actions = int(capacity), int(num_actions)
        self.obs = np.zeros((capacity, observation_size), np.float16)
        self.mask = np.zeros((capacity, (num_actions + 7) // 8), np.uint8)
        self.cand = np.full((capacity, candidates), -1, np.int64)
        self.share = np.zeros((capacity, candidates), np.float32)
        self.searched = np.zeros(capacity, bool)
        self.outcome = np.full(capacity, np.nan, np.float32)
        self.written = np.zeros(capacity, np.int64)  # which write a slot holds (a pending outcome must match it)
        self.writes = 0

    def add(self, obs: np.ndarray, mask: np.ndarray, cand: np.ndarray, share: np.ndarray,
            searched: np.ndarray) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
        """Write ``n`` positions (outcomes unknown); their slots and write numbers, to give the outcomes to."""
        n = obs.shape[0]
        count = self.writes + np.arange(n, dtype=np.int64)
        slots = count % self.capacity
        self.obs[slots] = obs
        self.mask[slots] = np.packbits(mask, axis=1)
        self.cand[slots], self.share[slots], self.searched[slots] = cand, share, searched
        self.outcome[slots] = np.nan
        self.written[slots] = count
        self.writes += n
        return slots, count

    def finish(self, slots: np.ndarray, count: np.ndarray, outcome: np.ndarray) -> None:
        """The outcomes of positions written as ``count`` in ``slots`` (those since overwritten are skipped)."""
        live = self.written[slots] == count
        self.outcome[slots[live]] = outcome[live]

    @property
    def ready(self) -> np.ndarray:
        """The slots whose game is over (the positions an update draws from)."""
        return np.flatnonzero(~np.isnan(self.outcome[: min(self.writes, self.capacity)]))

    def masks(self, slots: np.ndarray) -> np.ndarray:
        return np.unpackbits(self.mask[slots], axis=1, count=self.num_actions).astype(bool)


@dataclass
class Pending:
    """Positions written to the buffer whose game is still on: their slot and write number, game row and seat."""

    slots: list[np.ndarray] = field(default_factory=list)
    count: list[np.ndarray] = field(default_factory=list)
    rows: list[np.ndarray] = field(default_factory=list)
    seats: list[np.ndarray] = field(default_factory=list)

    def add(self, slots: np.ndarray, count: np.ndarray, rows: np.ndarray, seats: np.ndarray) -> None:
        for k, v in (("slots", slots), ("count", count), ("rows", rows), ("seats", seats)):
            getattr(self, k).append(v)

    def settle(self, buffer: ReplayBuffer, ended: np.ndarray, outcomes: np.ndarray) -> None:
        """Give the positions of the games in rows ``ended`` (outcomes float[len(ended), P]) their seat's outcome."""
        if not self.rows:
            return
        slots, count, rows, seats = (np.concatenate(getattr(self, k)) for k in ("slots", "count", "rows", "seats"))
        done = np.isin(rows, ended)
        where = np.searchsorted(ended, rows[done])
        buffer.finish(slots[done], count[done], outcomes[where, seats[done]].astype(np.float32))
        keep = ~done
        self.slots, self.count, self.rows, self.seats = [slots[keep]], [count[keep]], [rows[keep]], [seats[keep]]


class SearchSelfPlay:
    """``num_games`` games of ``setup``'s game played on by ``agent`` (an ``az`` agent), their decisions kept in
    ``buffer`` (see the module docstring). With ``opponents`` (agents, drawn by ``weights``) each seat of each game
    is theirs with probability ``share`` (at least one seat a game the az agent's): their decisions are kept
    without visits, for the value alone."""

    def __init__(self, setup: Any, num_games: int, seed: int, agent: Any, buffer: ReplayBuffer,
                 temperature_moves: int, opponents: list[Any] | None = None, weights: list[float] | None = None,
                 share: float = 0.0) -> None:  # fmt: skip
        from industry_env.envs.common import MAX_GAME_SEED

        self.setup, self.E, self.B, self.P = setup, setup.engine, int(num_games), setup.num_players
        self.agent, self.buffer, self.temperature_moves = agent, buffer, int(temperature_moves)
        self.opponents, self.share = list(opponents or []), float(share) if opponents else 0.0
        w = np.asarray(weights if weights is not None else [1.0] * len(self.opponents), np.float64)
        self.weights = w / w.sum() if w.size else w
        self.rng = np.random.default_rng(seed)
        self.who = np.full((self.B, self.P), -1, np.int64)  # who plays each seat: -1 the az agent, k opponents[k]
        self._deal(np.arange(self.B))
        self.max_seed = MAX_GAME_SEED
        self.state = setup.init(self.B, self._seeds(self.B))
        self.searched = np.zeros((self.B, self.P), np.int64)  # searched decisions of each seat in its game so far
        self.pending = Pending()
        self.games = 0
        self.kept = 0

    def _seeds(self, n: int) -> np.ndarray:
        return self.rng.integers(0, self.max_seed, size=n, dtype=np.int64)

    def _deal(self, rows: np.ndarray) -> None:
        """Who plays each seat of the games ``rows`` (new games): a league member with probability ``share``,
        drawn by its weight, else the az agent; a game drawn all to the league gives one seat back to the az."""
        if not self.share:
            return
        league = self.rng.random((rows.size, self.P)) < self.share
        who = np.where(league, self.rng.choice(len(self.opponents), size=(rows.size, self.P), p=self.weights), -1)
        full = np.flatnonzero((who >= 0).all(axis=1))
        who[full, self.rng.integers(0, self.P, size=full.size)] = -1
        self.who[rows] = who

    def play(self, decisions: int, deadline: float | None) -> int:
        """Play on until ``decisions`` more are kept (or the deadline passes); the number kept."""
        start = self.kept
        while self.kept - start < decisions and (deadline is None or time.perf_counter() < deadline):
            self.step()
        return self.kept - start

    def step(self) -> None:
        """One decision in every game: searched, kept, played; finished games settled and dealt again."""
        from industry_env.agents.search import outcome_values

        E, s, K = self.E, self.state, self.buffer.cand.shape[1]
        mask = E.legal_action_mask(s)
        obs = E.observe(s)
        seat = np.asarray(s.current_player, np.int64)
        player = self.who[np.arange(self.B), seat]
        az = np.flatnonzero(player < 0)
        actions = np.zeros(self.B, np.int64)
        if az.size:
            actions[az] = np.asarray(self.agent.act_batch(obs[az], mask[az]), np.int64)
        for k, opponent in enumerate(self.opponents):
            rows = np.flatnonzero(player == k)
            if rows.size:
                actions[rows] = np.asarray(opponent.act_batch(obs[rows], mask[rows]), np.int64)
        cand = np.full((self.B, K), -1, np.int64)
        share = np.zeros((self.B, K), np.float32)
        searched = np.zeros(self.B, bool)
        for r, (acts, visits) in (self.agent.root_visits().items() if az.size else ()):
            row = az[r]
            order = np.argsort(-visits, kind="stable")[:K]
            acts, visits = acts[order], visits[order].astype(np.float64)
            if visits.sum() <= 0:
                continue
            p = visits / visits.sum()
            cand[row, : acts.size], share[row, : acts.size], searched[row] = acts, p, True
            if self.searched[row, seat[row]] < self.temperature_moves:
                actions[row] = acts[self.rng.choice(acts.size, p=p)]
            self.searched[row, seat[row]] += 1
        keep = np.flatnonzero(mask.sum(axis=1) > 1)
        if keep.size:
            slots, count = self.buffer.add(obs[keep], mask[keep], cand[keep], share[keep], searched[keep])
            self.pending.add(slots, count, keep, seat[keep])
            self.kept += int(keep.size)
        s = E.step(s, actions, mask=mask, inplace=True)
        ended = np.flatnonzero(np.asarray(s.terminated))
        if ended.size:
            outcomes = outcome_values(E, E.take(s, ended), self.P)
            self.pending.settle(self.buffer, ended, outcomes)
            self.games += int(ended.size)
            self.searched[ended] = 0
            self._deal(ended)
            seeds = np.zeros(self.B, np.int64)
            seeds[ended] = self._seeds(ended.size)
            s = E.reset(s, ended, seeds=seeds, inplace=True)
        self.state = s


def init_network(net: Any, path: str, game: str, value_too: bool = True, where: str = "az_init") -> None:
    """Load ``net`` (an :class:`.nets.ActorCritic`) from a native checkpoint or a policy-value file: every layer
    of the file's cell encoder, actor and value network in order, the value's normalisation folded into its last
    layer (the value is then read as it is); ConfigError naming ``where`` if the file's layers are not these.
    ``value_too=False``: the cell encoder and the actor alone, from any policy file (the value left as it is)."""
    import torch
    from industry_env.agents import AgentInputError
    from industry_env.agents.ppo import NumpyLinear, encoder_of, load_actor, load_value_head

    where = f"{where} = {path!r}"
    try:
        actor = load_actor(path, game, backend="numpy")
        value = load_value_head(path, game, actor) if value_too else None
    except (AgentInputError, OSError, ValueError) as exc:
        raise ConfigError(f"{where}: {exc}") from None
    if value is None and value_too:
        raise ConfigError(f"{where}: a policy without a value network (search self-play starts from both: a native "
                          f"checkpoint, or a policy-value file written by export_policy_value)")  # fmt: skip
    encoder = encoder_of(actor)
    source = [*(encoder.linears if encoder is not None else ()),
              *(m for m in list(actor) if isinstance(m, NumpyLinear)), *(value.linears if value else ())]  # fmt: skip
    fx = net.features_extractor
    cells = [m for m in fx.encoder.net if isinstance(m, torch.nn.Linear)] if hasattr(fx, "encoder") else []
    target = [*cells,
              *(m for m in net.mlp_extractor.policy_net if isinstance(m, torch.nn.Linear)), net.action_net,
              *(m for m in net.mlp_extractor.value_net if isinstance(m, torch.nn.Linear) and value_too),
              *((net.value_net,) if value_too else ())]  # fmt: skip
    shapes = [tuple(m.weight.shape) for m in source]
    wanted = [tuple(m.weight.shape) for m in target]
    if shapes != wanted:
        raise ConfigError(f"{where}: its layers {shapes} are not this configuration's {wanted} (net_arch, encoder "
                          f"and cell_arch must be the file's)")  # fmt: skip
    with torch.no_grad():
        for src, dst in zip(source, target, strict=True):
            dst.weight.copy_(torch.from_numpy(np.array(src.weight, np.float32)))
            dst.bias.copy_(torch.from_numpy(np.array(src.bias, np.float32)))
        if value is None:
            return
        net.value_net.weight.mul_(value.std)
        net.value_net.bias.mul_(value.std).add_(value.mean)


def az_update(net: Any, opt: Any, buffer: ReplayBuffer, steps: int, cfg: TrainConfig, rng: np.random.Generator,
              device: Any) -> dict[str, float]:  # fmt: skip
    """``steps`` Adam steps on minibatches of finished positions (see the module docstring); the mean losses, the
    policy's entropy and the value's correlation with the outcomes."""
    import torch

    from .nets import masked

    ready = buffer.ready
    codec = net.codec
    sums = {"policy_loss": 0.0, "value_loss": 0.0, "entropy": 0.0, "value_outcome_correlation": 0.0}
    if ready.size < cfg.batch_size:
        return {}
    for _ in range(steps):
        slots = np.sort(rng.choice(ready, size=cfg.batch_size, replace=False))
        batch = codec.pack(buffer.obs[slots].astype(np.float32)).to(device)
        mask = torch.from_numpy(buffer.masks(slots)).to(device)
        cand = torch.from_numpy(np.maximum(buffer.cand[slots], 0)).to(device)
        share = torch.from_numpy(buffer.share[slots]).to(device)
        searched = torch.from_numpy(buffer.searched[slots]).to(device)
        z = torch.from_numpy(buffer.outcome[slots]).to(device)
        logits, value = net(batch)
        logp = torch.log_softmax(masked(logits, mask), dim=1)
        policy = -(share * logp.gather(1, cand)).sum(dim=1)
        policy_loss = (policy * searched).sum() / searched.sum().clamp(min=1)
        value_loss = torch.mean((value - z) ** 2)
        loss = cfg.az_policy_coef * policy_loss + cfg.vf_coef * value_loss
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(net.parameters(), cfg.max_grad_norm)
        opt.step()
        with torch.no_grad():
            p = logp.exp()
            entropy = -(torch.where(mask, p * logp, torch.zeros_like(p))).sum(dim=1).mean()
            v, y = value.float(), z.float()
            spread = float(v.std() * y.std())
            corr = float(((v - v.mean()) * (y - y.mean())).mean()) / spread if spread > 0 else 0.0
        for k, x in (("policy_loss", policy_loss.item()), ("value_loss", value_loss.item()),
                     ("entropy", entropy.item()), ("value_outcome_correlation", corr)):  # fmt: skip
            sums[k] += float(x)
    return {k: v / steps for k, v in sums.items()}


def train(cfg: TrainConfig, overwrite: bool = False) -> ExpertResult:
    """Run search self-play as ``cfg`` describes it (see the module docstring).

    Everything is checked before anything is written; the run folder is locked for the run's time; a folder that
    holds a run is refused unless ``cfg.resume`` continues it or ``overwrite`` is True.
    """
    return run_locked(cfg, "az", overwrite, _train_locked)


def _train_locked(cfg: TrainConfig, run: Path, overwrite: bool) -> ExpertResult:
    import torch
    from industry_env.agents import PPOAgent, as_agent
    from industry_env.agents.az import AZAgent, load_network
    from industry_env.agents.ppo import export_policy_value
    from torch.utils.tensorboard import SummaryWriter

    from industry_env.envs.common import GameSetup

    from .nets import ActorCritic, codec_for

    resume, league, step = resume_point(cfg, run)
    device = pick_device(cfg.device)
    torch.set_num_threads(cfg.torch_threads)
    torch.manual_seed(cfg.seed)
    random.seed(cfg.seed)
    options = game_options(cfg)
    setup = GameSetup(cfg.game, cfg.num_players, options)
    game = setup.spec.id
    codec = codec_for(game, setup.observation_size, cfg.encoder, cfg.cell_piece)
    net = ActorCritic(setup.observation_size, setup.num_actions, list(cfg.net_arch), codec,
                      list(cfg.cell_arch)).to(device)  # fmt: skip
    opt = torch.optim.Adam(net.parameters(), lr=cfg.learning_rate, eps=1e-5)
    if resume is not None:  # loaded before the folder is touched: a network of other sizes is refused first
        load_checkpoint(resume, net, opt, device)
        moved = R.set_aside_after(run, step, lambda: evals_after(run, league))
        if moved is not None:
            print(f"resuming from step {step:,}: the later files of this run moved to {moved}")
        R.write_json(run / "evals.json", league["evals"])
    else:
        if cfg.az_init:
            init_network(net, str(az_init_path(cfg)), game)
        if overwrite:
            removed = R.clear_run(run)
            if removed:
                print(f"--overwrite: removed the earlier run's {', '.join(removed)} from {run}")
    for sub in ("checkpoints", "tb"):
        (run / sub).mkdir(exist_ok=True)
    R.write_text(run / "config.toml", to_toml(cfg))
    writer = SummaryWriter(log_dir=str(run / "tb" / "az"))
    bar = progress_bar(cfg, step)
    rng = np.random.default_rng((cfg.seed + step) % 2**63)
    timer = dict.fromkeys(PARTS, 0.0)
    timer["eval"] = 0.0

    def say(msg: str) -> None:
        (bar.write if bar is not None else print)(msg)

    def data_of(n: int) -> dict[str, Any]:
        return {"framework": "az", "format": FORMAT, "num_timesteps": n, "device": str(device),
                "value_norm": {"mean": 0.0, "var": 1.0, "count": 1.0}, **net.sb3_data(game, list(cfg.net_arch))}

    def save(path: Path, n: int) -> None:
        """The league file first, then the zip: a zip present is a whole checkpoint."""
        R.write_json(R.league_path(path), {**league, "timesteps": n})
        save_checkpoint(path, net, opt, data_of(n))

    def evaluate_now(n: int) -> None:
        t = time.perf_counter()
        result = evaluate(PPOAgent.from_actor(net.actor(), name="learner", game=game), cfg)
        timer["eval"] += time.perf_counter() - t
        for key in ("win_rate", "win_ci_low", "win_ci_high", "mean_points"):
            writer.add_scalar(f"eval/{key}", result[key], n)
        league["evals"].append({"timesteps": n, **result})
        if result["win_rate"] > league["best"]:
            league["best"] = result["win_rate"]
            league["best_against"] = cfg.eval_opponent
            save(run / "best.zip", n)
        say(f"step {n:,}: the network alone against {cfg.eval_opponent} {100 * result['win_rate']:.1f}% "
            f"[{100 * result['win_ci_low']:.1f}, {100 * result['win_ci_high']:.1f}] over {result['games']} games")
        R.write_json(run / "evals.json", league["evals"])

    scratch = tempfile.TemporaryDirectory(prefix="industry-env-az-")
    current = Path(scratch.name) / "current.zip"

    def network() -> Any:
        """The network as the search reads it (numpy), written out and read back as any az file is."""
        save_checkpoint(current, net, opt, data_of(step))
        return load_network(current, game)

    save_checkpoint(current, net, opt, data_of(step))
    agent = AZAgent(seed=league_seed(cfg, 4242 + step), path=current, simulations=cfg.az_simulations,
                    top_k=cfg.az_top_k, game=game)  # fmt: skip
    K = cfg.az_top_k + 1  # the policy's moves and the heuristic's
    buffer = ReplayBuffer(cfg.az_buffer, setup.observation_size, setup.num_actions, K)
    opponents = [as_agent(name, seed=league_seed(cfg, k), game=game, options=options)
                 for k, name in enumerate(cfg.opponents)] if cfg.az_opponent_share else []  # fmt: skip
    games = SearchSelfPlay(setup, cfg.num_envs, (cfg.seed * 7 + step) % 2**63, agent, buffer,
                           cfg.az_temperature_moves, opponents, list(cfg.opponent_weights),
                           cfg.az_opponent_share)  # fmt: skip
    per_update = cfg.n_steps * cfg.num_envs
    t0 = time.perf_counter()
    deadline = t0 + 60 * cfg.time_limit_minutes if cfg.time_limit_minutes else None
    updates, losses, kept = 0, {}, 0
    schedule = Schedule(step, cfg.eval_every, cfg.checkpoint_every)

    def over_time() -> bool:
        return deadline is not None and time.perf_counter() > deadline

    try:
        while step < cfg.total_timesteps and not over_time():
            t = time.perf_counter()
            new = games.play(per_update, deadline)
            timer["search"] += time.perf_counter() - t
            kept += new
            if new < per_update:
                break
            t = time.perf_counter()
            losses = az_update(net, opt, buffer, max(1, cfg.n_epochs * new // cfg.batch_size), cfg, rng, device)
            agent.use_network(network())
            timer["update"] += time.perf_counter() - t
            updates += 1
            step += new
            if bar is not None:
                bar.update(new)
            wall = max(time.perf_counter() - t0 - timer["eval"], 1e-9)
            for k, v in losses.items():
                writer.add_scalar(f"train/{k}", v, step)
            writer.add_scalar("train/positions_ready", buffer.ready.size, step)
            writer.add_scalar("time/decisions_per_second", kept / wall, step)
            writer.add_scalar("rollout/games", games.games, step)
            schedule.after(step, evaluate_now, run, cfg.keep_checkpoints, save)
        if over_time() and step < cfg.total_timesteps:
            say(f"time limit of {cfg.time_limit_minutes:g} minutes: stopping at step {step:,}")
    finally:
        if bar is not None:
            bar.close()
        scratch.cleanup()
    final = run / "final.zip"
    save(final, step)
    policy = export_policy_value(final, run / "final.npz", game)
    writer.close()
    wall = max(time.perf_counter() - t0 - timer["eval"], 1e-9)
    shares = {k: timer[k] / wall for k in PARTS}
    shares["other"] = max(0.0, 1.0 - sum(shares.values()))
    shares["eval_seconds"] = timer["eval"]
    result = ExpertResult(run_dir=run, final=final, timesteps=step, seconds=wall, steps_per_second=kept / wall,
                          opponent_moves_per_second=0.0, shares=shares, evals=league["evals"], policy=policy,
                          device=str(device), updates=updates, games=games.games, losses=losses)  # fmt: skip
    R.write_json(run / "result.json", {**asdict(result), "run_dir": str(run), "final": str(final),
                                       "policy": str(policy)})  # fmt: skip
    return result
