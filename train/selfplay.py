"""The native trainer's games: B games on the batched engine, every seat played by the learner or a league member,
each group acting in one batched call per engine step, and the learner's decisions kept as arrays.

At each engine step every game has one seat to move. The seats are sorted by who plays them (the table ``who``,
drawn when each game starts: the learner in one seat drawn at random, every other seat a member of the league drawn
by weight): the learner's rows go through its network on the trainer's device in one call, each snapshot's rows
through its frozen network in one call, each starting agent's rows in one call of its fastest method (the mask
alone for the random agent, the engine's State for a game without hidden information, else the observations the
engine wrote), then the engine steps every game at once. Observations are made once per step, only for the rows
that read them, and kept in their compact form (:class:`.nets.ObsCodec`). The learner's transitions are linked seat
by seat (:class:`.credit.SeatLinks`); at the end of a rollout the games are played on, the learner's rows held,
until the learner is to move in every game, so that each pending transition bootstraps from the value of the
seat's own next decision.

Games reach the engine only through the registry (:class:`industry_env.envs.common.GameSetup`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import torch
from industry_env.agents.base import check_actions

from industry_env.envs.common import MAX_GAME_SEED, GameSetup, terminal_rewards

from .credit import SeatLinks
from .nets import FrozenActor, ObsCodec, Packed, sample

LEARNER = 0  # the group of the learner's seats in ``who``; member k of the league is group k + 1
MAX_TAIL_STEPS = 1_000_000  # engine steps to bring the learner to move in every game: never near in a real game


@dataclass
class Timer:
    """Seconds spent in each part of a run (``industry-env train --bench`` itemizes them)."""

    engine: float = 0.0  # steps, resets, masks, observations, the State's rows taken apart
    opponents: float = 0.0  # the league's calls: starting agents and snapshots' forward passes
    buffers: float = 0.0  # observations packed and moved, the rollout kept, credit, advantages, minibatches gathered
    inference: float = 0.0  # the learner's forward passes and sampling during rollouts
    update: float = 0.0  # the PPO (or imitation) update: forward, backward, optimizer
    eval: float = 0.0  # evaluations (excluded from the throughput)

    PARTS = ("engine", "opponents", "buffers", "inference", "update")


@dataclass
class Member:
    """A member of the league: a starting agent (``agent``) or a snapshot of the learner (``actor``)."""

    name: str
    weight: float
    agent: Any = None
    actor: FrozenActor | None = None
    generator: torch.Generator | None = None


@dataclass
class League:
    """The opponents' pool: members drawn by weight for each opponent seat when its game starts."""

    members: list[Member] = field(default_factory=list)

    def draw(self, rng: np.random.Generator, size: tuple[int, ...]) -> np.ndarray:
        p = np.asarray([m.weight for m in self.members], float)
        return rng.choice(len(self.members), size=size, p=p / p.sum())


class Rollout:
    """The learner's decisions of one rollout, on the trainer's device: observations in their kept form, masks,
    actions, log-probabilities and values (normalised), and their links (:class:`.credit.SeatLinks`)."""

    def __init__(self, codec: ObsCodec, num_actions: int, capacity: int, device: torch.device, links: SeatLinks,
                 pin: bool = False) -> None:  # fmt: skip
        self.codec, self.device, self.links = codec, device, links
        self.capacity = capacity
        self.rest = torch.zeros((capacity, codec.rest_size), dtype=torch.float32, device=device)
        self.mask = torch.zeros((capacity, num_actions), dtype=torch.bool, device=device)
        self.action = torch.zeros(capacity, dtype=torch.int64, device=device)
        self.logp = torch.zeros(capacity, dtype=torch.float32, device=device)
        self.value = np.zeros(capacity, np.float32)  # normalised, as the head gives them (CPU: for the advantages)
        self.cell_chunks: list[tuple[torch.Tensor, torch.Tensor, torch.Tensor]] = []
        self.size = 0
        self.cells: torch.Tensor | None = None  # the occupied cells of all the rollout, by transition (finish())
        self.owner: torch.Tensor | None = None
        self.index: torch.Tensor | None = None
        self.start: torch.Tensor | None = None

    def _grow(self, need: int) -> None:
        if need <= self.capacity:
            return
        new = max(need, int(self.capacity * 1.5))

        def grown(t: torch.Tensor) -> torch.Tensor:
            out = torch.zeros((new, *t.shape[1:]), dtype=t.dtype, device=t.device)
            out[: self.size] = t[: self.size]
            return out

        self.rest, self.mask, self.action, self.logp = map(grown, (self.rest, self.mask, self.action, self.logp))
        self.value = np.concatenate([self.value, np.zeros(new - self.capacity, np.float32)])
        self.capacity = new

    def add(self, batch: Packed, mask: torch.Tensor, action: torch.Tensor, logp: torch.Tensor | None,
            value: np.ndarray) -> None:  # fmt: skip
        """A step's decisions (``batch`` and ``mask`` on the device), in the order of their transition indices."""
        n = batch.n
        lo = self.size
        self._grow(lo + n)
        self.rest[lo : lo + n] = batch.rest
        self.mask[lo : lo + n] = mask
        self.action[lo : lo + n] = action
        if logp is not None:
            self.logp[lo : lo + n] = logp
        self.value[lo : lo + n] = value
        if batch.cells is not None:
            self.cell_chunks.append((batch.cells, batch.owner + lo, batch.index))
        self.size = lo + n

    def finish(self) -> None:
        """Join the steps' cells into one array sorted by transition, with each transition's first cell."""
        if self.codec.piece is None:
            return
        if self.cell_chunks:
            self.cells = torch.cat([c for c, _, _ in self.cell_chunks])
            self.owner = torch.cat([o for _, o, _ in self.cell_chunks])
            self.index = torch.cat([i for _, _, i in self.cell_chunks])
        else:
            self.cells = torch.zeros((0, self.codec.features), device=self.device)
            self.owner = torch.zeros(0, dtype=torch.int64, device=self.device)
            self.index = torch.zeros(0, dtype=torch.int64, device=self.device)
        self.cell_chunks = []
        self.start = torch.searchsorted(self.owner, torch.arange(self.size + 1, device=self.device))

    def batch(self, idx: torch.Tensor) -> Packed:
        """The observations of transitions ``idx`` (int64 on the device) in their kept form."""
        if self.codec.piece is None:
            return Packed(self.rest.index_select(0, idx))
        first, last = self.start[idx], self.start[idx + 1]
        counts = last - first
        owner = torch.repeat_interleave(torch.arange(idx.numel(), device=self.device), counts)
        begin = torch.cumsum(counts, 0) - counts
        at = torch.arange(owner.numel(), device=self.device) - begin[owner] + first[owner]
        return Packed(self.rest.index_select(0, idx), self.cells.index_select(0, at), owner, self.index[at])

    def clear(self) -> None:
        self.size = 0
        self.cell_chunks = []
        self.cells = self.owner = self.index = self.start = None
        self.links.clear()


@dataclass
class Stats:
    """What the learner's finished games gave during a rollout."""

    games: int = 0
    reward: float = 0.0
    wins: float = 0.0
    opponent_moves: int = 0


class SelfPlay:
    """B games of ``setup``'s game, played by the learner (the network given to :meth:`collect`, on ``device``) and
    the ``league`` (see the module docstring). ``collect(..., imitate=agent)``: that agent plays the learner's seats
    instead of the network (the imitation stage), its moves kept as the rollout's actions."""

    def __init__(self, setup: GameSetup, num_games: int, reward: str, seed: int, league: League, codec: ObsCodec,
                 device: torch.device, timer: Timer, autocast: Any) -> None:  # fmt: skip
        self.setup, self.B, self.P = setup, int(num_games), setup.num_players
        self.reward, self.league, self.codec, self.device, self.timer = reward, league, codec, device, timer
        self.autocast = autocast
        self.rng = np.random.default_rng(seed)
        self.generator = torch.Generator(device=device)
        self.generator.manual_seed(int(seed) % 2**63)
        self.E = setup.engine
        self.hidden = setup.spec.hidden_information
        self.state = setup.init(self.B, self._seeds(self.B))
        self.mask = self.E.legal_action_mask(self.state)
        self.who = np.zeros((self.B, self.P), np.int64)
        self._deal(np.arange(self.B))
        self.rows = np.arange(self.B)
        self.stats = Stats()
        self.staging: dict[str, torch.Tensor] = {}  # pinned host tensors the observations go to a GPU through

    def _seeds(self, n: int) -> np.ndarray:
        return self.rng.integers(0, MAX_GAME_SEED, size=n, dtype=np.int64)

    def _deal(self, games: np.ndarray) -> None:
        """Seats of new games: the learner in one drawn at random, each other from the league by weight."""
        n = games.size
        if not n:
            return
        self.who[games] = self.league.draw(self.rng, (n, self.P)) + 1
        self.who[games, self.rng.integers(0, self.P, size=n)] = LEARNER

    # ------------------------------------------------------------------------------------------ one engine step
    def _upload(self, t: torch.Tensor | None, slot: str) -> torch.Tensor | None:
        """``t`` on the device: as it is on the CPU; on a GPU through a pinned staging tensor of its own ``slot``
        (reused step after step: each step waits for its actions, so a copy is done before the slot is refilled)."""
        if t is None or self.device.type == "cpu":
            return t
        if self.device.type != "cuda":
            return t.to(self.device)
        stage = self.staging.get(slot)
        if stage is None or stage.numel() < t.numel() or stage.dtype != t.dtype:
            stage = torch.empty(max(t.numel(), 2 * (0 if stage is None else stage.numel())), dtype=t.dtype,
                                pin_memory=True)  # fmt: skip
            self.staging[slot] = stage
        view = stage[: t.numel()].view(t.shape)
        view.copy_(t)
        return view.to(self.device, non_blocking=True)

    def _to_device(self, batch: Packed, slot: str = "") -> Packed:
        up = self._upload
        return Packed(up(batch.rest, slot + "rest"), up(batch.cells, slot + "cells"), up(batch.owner, slot + "owner"),
                      up(batch.index, slot + "index"))  # fmt: skip

    def _mask_tensor(self, m: np.ndarray, slot: str = "") -> torch.Tensor:
        return self._upload(torch.from_numpy(m), slot + "mask")

    def step(self, net: Any, buf: Rollout | None, hold_learner: bool = False, imitate: Any = None) -> int:
        """One engine step of every game (``hold_learner``: of the games where the learner is not to move, the
        others held); returns the learner's decisions made."""
        t0 = time.perf_counter()
        E, B, tm = self.E, self.B, self.timer
        state = self.state
        cur = state.current_player.astype(np.int64)
        group = self.who[self.rows, cur]
        learner = group == LEARNER
        active = ~learner if hold_learner else np.ones(B, bool)
        members = self.league.members
        by_obs = np.zeros(len(members) + 1, bool)  # the groups that read observations
        by_obs[LEARNER] = not hold_learner
        for k, m in enumerate(members):
            by_obs[k + 1] = m.actor is not None or (self.hidden and not hasattr(m.agent, "act_masks"))
        # the rows that read observations, group after group: each group's observations are one slice (a view)
        observed = np.flatnonzero(active & by_obs[group])
        observed = observed[np.argsort(group[observed], kind="stable")]
        obs = E.observe(E.take(state, observed), cur[observed]) if observed.size else None
        bounds = np.searchsorted(group[observed], np.arange(len(members) + 2))
        t1 = time.perf_counter()
        tm.engine += t1 - t0

        actions = np.zeros(B, np.int64)
        decided = 0
        for k in range(len(members) + 1):
            if k == LEARNER and hold_learner:
                continue
            if by_obs[k]:
                if obs is None:
                    continue
                rows, seen = observed[bounds[k] : bounds[k + 1]], obs[bounds[k] : bounds[k + 1]]
            else:
                rows, seen = np.flatnonzero(active & (group == k)), None
            if not rows.size:
                continue
            if k == LEARNER:
                decided = self._learner(net, buf, rows, seen, cur[rows], actions, imitate)
            else:
                self._member(members[k - 1], rows, seen, actions)
        self.stats.opponent_moves += int((active & ~learner).sum())

        t2 = time.perf_counter()
        held = ~active
        if held.any():
            keep = self.mask[held].copy()
            before = state.terminated.copy()
            np.logical_or(before, held, out=state.terminated)  # held for this step: the engine skips them
            try:
                E.step(state, actions, inplace=True, mask=self.mask, next_mask=self.mask)
            finally:
                state.terminated[:] = before | (state.terminated & active)
            self.mask[held] = keep
        else:
            E.step(state, actions, inplace=True, mask=self.mask, next_mask=self.mask)
        ended = np.flatnonzero(state.terminated)
        if ended.size:
            rewards = terminal_rewards(E, state, ended, self.reward)[:, : self.P]  # (the engine's arrays hold
            engine = state.rewards[ended, : self.P]  # the game's most seats)
            won = (engine > 0) | (engine == 0).all(axis=1, keepdims=True)  # a full tie: everyone wins
            seeds = np.zeros(B, np.int64)
            seeds[ended] = self._seeds(ended.size)
            seats = self.who[ended] == LEARNER
            self.stats.games += int(seats.sum())
            self.stats.reward += float(rewards[seats].sum())
            self.stats.wins += float(won[seats].sum())
            if buf is not None:
                buf.links.end(ended, rewards)
            self._deal(ended)
            E.reset(state, ended, seeds=seeds, inplace=True, next_mask=self.mask)
        tm.engine += time.perf_counter() - t2
        return decided

    def _learner(self, net: Any, buf: Rollout | None, rows: np.ndarray, obs: np.ndarray, seats: np.ndarray,
                 actions: np.ndarray, imitate: Any) -> int:  # fmt: skip
        """The learner's rows: one forward pass (or the imitated agent's call), kept in the rollout."""
        tm = self.timer
        t0 = time.perf_counter()
        batch = self._to_device(self.codec.pack(obs))
        mask_np = self.mask[rows]
        mask = self._mask_tensor(mask_np)
        t1 = time.perf_counter()
        tm.buffers += t1 - t0
        if imitate is not None:  # the imitated agent plays; the network gives the values
            a_np = _call(imitate, self, rows, obs, mask_np, self.hidden)
            t = time.perf_counter()
            tm.opponents += t - t1
            t1 = t
            with torch.no_grad(), self.autocast():
                _, v = net(batch)
            a, logp = torch.from_numpy(a_np).to(self.device), None
        else:
            with torch.no_grad(), self.autocast():
                logits, v = net(batch)
            a, logp = sample(logits, mask, self.generator)
            a_np = a.cpu().numpy()
        value = v.float().cpu().numpy()
        t2 = time.perf_counter()
        tm.inference += t2 - t1
        actions[rows] = a_np
        if buf is not None:
            buf.links.decide(rows, seats)
            buf.add(batch, mask, a, logp, value)
        tm.buffers += time.perf_counter() - t2
        return rows.size

    def _member(self, m: Member, rows: np.ndarray, obs: np.ndarray | None, actions: np.ndarray) -> None:
        """A league member's rows in one call."""
        t0 = time.perf_counter()
        if m.actor is not None:
            batch = self._to_device(self.codec.pack(obs), m.name)
            mask = self._mask_tensor(self.mask[rows], m.name)
            with torch.no_grad(), self.autocast():
                logits = m.actor.logits(batch)
            a, _ = sample(logits, mask, m.generator)
            actions[rows] = a.cpu().numpy()
        else:
            actions[rows] = _call(m.agent, self, rows, obs, self.mask[rows], self.hidden)
        self.timer.opponents += time.perf_counter() - t0

    # ------------------------------------------------------------------------------------------ a rollout
    def collect(self, net: Any, buf: Rollout, decisions: int, deadline: float | None = None,
                imitate: Any = None) -> bool:  # fmt: skip
        """Play until the learner has made at least ``decisions`` decisions, then on until it is to move in every
        game, and bootstrap the pending transitions; False if ``deadline`` (perf_counter) passed first."""
        buf.clear()
        self.stats = Stats()
        while buf.size < decisions:
            self.step(net, buf, imitate=imitate)
            if deadline is not None and time.perf_counter() > deadline:
                return False
        self.bring_learner_to_move(net, buf)
        self.bootstrap = self._bootstrap(net, buf)
        t0 = time.perf_counter()
        buf.finish()
        self.timer.buffers += time.perf_counter() - t0
        return True

    def bring_learner_to_move(self, net: Any, buf: Rollout | None) -> None:
        """Play the other seats, the learner's held, until the learner is to move in every game (games that end
        meanwhile give the learner's pending transitions their rewards, in ``buf``)."""
        for _ in range(MAX_TAIL_STEPS):
            cur = self.state.current_player.astype(np.int64)
            if (self.who[self.rows, cur] == LEARNER).all():
                return
            self.step(net, buf, hold_learner=True)
        raise RuntimeError(f"the learner was not to move in every game after {MAX_TAIL_STEPS:,} engine steps")

    def _bootstrap(self, net: Any, buf: Rollout) -> np.ndarray:
        """float32[size]: for each pending transition, the (normalised) value of its seat's next decision, now."""
        t0 = time.perf_counter()
        out = np.zeros(buf.size, np.float32)
        idx, games, seats = buf.links.open()
        if idx.size:
            obs = self.E.observe(self.E.take(self.state, games), seats)
            t1 = time.perf_counter()
            self.timer.engine += t1 - t0
            batch = self._to_device(self.codec.pack(obs), "bootstrap")
            with torch.no_grad(), self.autocast():
                _, v = net(batch)
            out[idx] = v.float().cpu().numpy()
            self.timer.inference += time.perf_counter() - t1
        return out


def _call(agent: Any, games: SelfPlay, rows: np.ndarray, obs: np.ndarray | None, mask: np.ndarray,
          hidden: bool) -> np.ndarray:  # fmt: skip
    """An agent's actions for the games ``rows`` by its fastest method, as the environments' opponents call it
    (:class:`industry_env.envs.common.Opponents`): the masks alone, the State (a game without hidden information),
    or the observations; checked."""
    by_mask = getattr(agent, "act_masks", None)
    if by_mask is not None:
        answer = by_mask(mask)
    elif not hidden:
        whole = rows.size == games.B
        answer = agent.act_state(games.state if whole else games.E.take(games.state, rows), mask)
    else:  # observations the engine made: an agent may skip re-checking them (act_engine)
        answer = getattr(agent, "act_engine", agent.act_batch)(obs, mask)
    return check_actions(answer, mask, str(getattr(agent, "name", None) or agent), spec=getattr(agent, "spec", None))
