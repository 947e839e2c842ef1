"""Distillation: a policy-value network fitted to recorded games, for the ``az`` and ``net`` agents.

Two steps, each a command (``python -m industry_env.train.distill record|fit``), so that recording spreads over as
many processes as a machine has cores and the fit runs once over all of them:

- :func:`record` plays batched games whose every seat is drawn from a pool of agents (the heuristic, the shipped
  ``ppo`` policy...), and keeps a share of the decisions with more than one legal move: the observation (in the
  native trainer's kept form: 20th Century's mostly empty cells left out), the legal moves, the move played, who
  played it, and, once the game is over, the outcome for that seat (+1 a winner, -1 the others, 0 all on a full tie: the
  engines' rewards, the values the search gives its own finished games).
- :func:`fit` trains the native trainer's network (:class:`.nets.ActorCritic`): its value on those outcomes (the
  search's leaf value), and its policy either kept as a given policy file has it (``init`` with ``imitate=()``)
  or trained to play as the agents named in ``imitate`` play (behaviour cloning, from ``init``'s weights where
  given); it writes one policy-value file (``.npz``, weights
  only) that ``make_agent("net", path=...)`` and ``make_agent("az", path=...)`` play with numpy alone.

This is expert iteration's first step (Anthony et al. 2017): the apprentice learns the expert's moves and the
outcomes of its games in one supervised pass, which the batched engine makes cheap, where PPO learns them from
its own rewards a rollout at a time.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from industry_env.core.outputs import atomic_file

RECORD_FORMAT = "industry_env-record/1"


@dataclass
class Record:
    """Decisions of recorded games, their observations in the native trainer's kept form (:class:`.nets.ObsCodec`):
    ``rest`` float16[n, R] (the observation without its cells, or whole), ``cells`` float16[K, F] the occupied
    cells with ``cell_row`` int64[K] (the decision each belongs to, ascending) and ``cell_index`` int16[K] (its
    place among the piece's cells); ``mask`` uint8[n, ceil(A / 8)] (the legal moves, ``np.packbits``), ``action``
    int32[n], ``agent`` int16[n] (an index into ``agents``), ``seat`` int8[n], ``outcome`` float32[n] (the seat's
    result) and ``game`` int64[n] (the game's index in the recording: held-out sets split by game)."""

    game_id: str
    agents: list[str]
    num_actions: int
    observation_size: int
    piece: str  # "" (flat) or the observation piece whose cells are kept apart (20th Century's "grids")
    games: int
    rest: np.ndarray
    cells: np.ndarray
    cell_row: np.ndarray
    cell_index: np.ndarray
    mask: np.ndarray
    action: np.ndarray
    agent: np.ndarray
    seat: np.ndarray
    outcome: np.ndarray
    game: np.ndarray

    ARRAYS = ("rest", "cells", "cell_row", "cell_index", "mask", "action", "agent", "seat", "outcome", "game")

    def save(self, path: str | Path) -> Path:
        """The record as one ``.npz`` (written whole or not at all)."""
        p = Path(path)
        about = {"format": RECORD_FORMAT, "game": self.game_id, "agents": self.agents, "num_actions": self.num_actions,
                 "observation_size": self.observation_size, "piece": self.piece, "games": self.games}  # fmt: skip
        with atomic_file(p) as f:
            np.savez(f, description=np.array(json.dumps(about)), **{k: getattr(self, k) for k in self.ARRAYS})
        return p

    @classmethod
    def load(cls, path: str | Path) -> Record:
        """A record written by :meth:`save` (ValueError naming the file if it is not one)."""
        p = Path(path)
        try:
            with np.load(p, allow_pickle=False) as z:
                about = json.loads(str(z["description"]))
                if about.get("format") != RECORD_FORMAT:
                    raise ValueError(f"format {about.get('format')!r}, expected {RECORD_FORMAT!r}")
                arrays = {k: z[k] for k in cls.ARRAYS}
        except (OSError, ValueError, KeyError) as exc:
            raise ValueError(f"{p}: not a record of industry_env.train.distill ({exc})") from None
        return cls(about["game"], list(about["agents"]), int(about["num_actions"]), int(about["observation_size"]),
                   str(about["piece"]), int(about["games"]), **arrays)  # fmt: skip

    @property
    def size(self) -> int:
        return int(self.action.size)

    def observations(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray | None, np.ndarray | None,
                                                      np.ndarray | None]:  # fmt: skip
        """(rest, cells, owner, index) of the decisions ``rows`` (ascending), ``owner`` counting from 0 in
        ``rows``: the parts of a :class:`.nets.Packed`."""
        rest = self.rest[rows]
        if not self.piece:
            return rest, None, None, None
        lo = np.searchsorted(self.cell_row, rows, side="left")
        hi = np.searchsorted(self.cell_row, rows, side="right")
        counts = hi - lo
        take = np.repeat(lo - np.cumsum(np.r_[0, counts[:-1]]), counts) + np.arange(counts.sum())
        owner = np.repeat(np.arange(rows.size), counts)
        return rest, self.cells[take], owner, self.cell_index[take].astype(np.int64)


def _need_torch() -> None:
    """ImportError naming the train extra where torch is missing (the codec and the network are the native
    trainer's, in torch)."""
    try:
        import torch  # noqa: F401
    except ImportError as exc:
        raise ImportError(f"industry_env.train.distill needs the train extra: pip install 'industry_env[train]' "
                          f"({exc})") from None  # fmt: skip


def _codec(game: str, observation_size: int, piece: str) -> Any:
    _need_torch()
    from .nets import codec_for

    return codec_for(game, observation_size, "cells" if piece else "flat", piece or "grids")


def record(game: str, agents: Sequence[str], games: int, seed: int = 0, num_players: int | None = None,
           options: dict[str, Any] | None = None, keep: float = 1.0, batch: int = 256, piece: str = "",
           time_limit: float = 0.0) -> Record:  # fmt: skip
    """Play ``games`` games (in batches of ``batch``) whose seats are drawn uniformly from ``agents``, keeping each
    decision with more than one legal move with probability ``keep``; ``piece``: the observation piece whose cells
    are kept apart (only the occupied ones, as the native trainer keeps 20th Century's ``grids``; '' keeps the
    observation whole). ``time_limit`` seconds (0: none) stops after the batch that reaches it."""
    from industry_env.agents import make_agent

    from industry_env.envs.common import GameSetup

    if not agents:
        raise ValueError("record: name at least one agent to play the seats")
    if not 0.0 < keep <= 1.0:
        raise ValueError(f"record: keep={keep!r}: expected a share in (0, 1]")
    if games < 1 or batch < 1:
        raise ValueError(f"record: games={games!r}, batch={batch!r}: expected whole numbers of at least 1")
    setup = GameSetup(game, num_players, options or {})
    E, P, A, D = setup.engine, setup.num_players, setup.num_actions, setup.observation_size
    codec = _codec(setup.spec.id, D, piece)
    pool = [make_agent(name, seed=seed * 1000 + k, game=setup.spec.id, options=setup.options)
            for k, name in enumerate(agents)]  # fmt: skip
    rng = np.random.default_rng(seed)
    parts: dict[str, list[np.ndarray]] = {k: [] for k in Record.ARRAYS if k != "outcome"}
    outcomes: list[np.ndarray] = []
    start, played, kept = time.perf_counter(), 0, 0
    while played < games and not (time_limit and time.perf_counter() - start > time_limit):
        n = min(batch, games - played)
        state = setup.init(n, rng.integers(0, 2**31 - 1, size=n))
        who = rng.integers(0, len(pool), size=(n, P))
        mask = E.legal_action_mask(state)
        rewards = np.zeros((n, P), np.float32)
        kept_game: list[np.ndarray] = []
        kept_seat: list[np.ndarray] = []
        while not state.terminated.all():
            live = np.flatnonzero(~state.terminated)
            cur = state.current_player[live].astype(np.int64)
            obs = E.observe(E.take(state, live), cur)
            m = mask[live]
            actions = np.zeros(n, np.int64)
            group = who[live, cur]
            for k, agent in enumerate(pool):
                rows = np.flatnonzero(group == k)
                if rows.size:
                    actions[live[rows]] = np.asarray(agent.act_batch(obs[rows], m[rows]), np.int64)
            take = np.flatnonzero((m.sum(axis=1) > 1) & (rng.random(live.size) < keep))
            if take.size:
                o = obs[take]
                if codec.piece is None:
                    parts["rest"].append(o.astype(np.float16))
                else:
                    rest = np.concatenate([o[:, : codec.offset], o[:, codec.end :]], 1)
                    parts["rest"].append(rest.astype(np.float16))
                    grid = o[:, codec.offset : codec.end].reshape(take.size, codec.cells, codec.features)
                    owner, index = np.nonzero(grid[..., 0] != 0)
                    parts["cells"].append(grid[owner, index].astype(np.float16))
                    parts["cell_row"].append(kept + owner.astype(np.int64))
                    parts["cell_index"].append(index.astype(np.int16))
                parts["mask"].append(np.packbits(m[take], axis=1))
                parts["action"].append(actions[live[take]].astype(np.int32))
                parts["agent"].append(group[take].astype(np.int16))
                parts["seat"].append(cur[take].astype(np.int8))
                parts["game"].append((played + live[take]).astype(np.int64))
                kept_game.append(live[take])
                kept_seat.append(cur[take])
                kept += take.size
            E.step(state, actions, inplace=True, mask=mask, next_mask=mask)
            ended = live[state.terminated[live]]  # a step's rewards are those of the games it ends
            rewards[ended] = state.rewards[ended, :P]
        if kept_game:
            outcomes.append(rewards[np.concatenate(kept_game), np.concatenate(kept_seat)])
        played += n
    if not outcomes:
        raise ValueError("record: no decision was kept (raise keep or games)")
    empty = {"cells": np.zeros((0, codec.features if codec.piece is not None else 0), np.float16),
             "cell_row": np.zeros(0, np.int64), "cell_index": np.zeros(0, np.int16)}  # fmt: skip
    arrays = {k: (np.concatenate(v) if v else empty[k]) for k, v in parts.items()}
    return Record(setup.spec.id, list(agents), A, D, piece, played, outcome=np.concatenate(outcomes), **arrays)


def merge(records: Sequence[Record]) -> Record:
    """Records of one game (and one layout) as one, their games and rows renumbered apart."""
    if not records:
        raise ValueError("merge: no records")
    first = records[0]
    key = (first.game_id, first.piece, first.num_actions, first.observation_size, first.agents)
    for r in records[1:]:
        if (r.game_id, r.piece, r.num_actions, r.observation_size, r.agents) != key:
            raise ValueError(f"merge: records of different games, layouts or agents ({first.game_id}, "
                             f"{first.agents} and {r.game_id}, {r.agents})")  # fmt: skip
    if len(records) == 1:
        return first
    game_off = np.cumsum([0] + [r.games for r in records[:-1]])
    row_off = np.cumsum([0] + [r.size for r in records[:-1]])
    cat = {k: np.concatenate([getattr(r, k) for r in records]) for k in Record.ARRAYS}
    cat["game"] = np.concatenate([r.game + o for r, o in zip(records, game_off, strict=True)])
    cat["cell_row"] = np.concatenate([r.cell_row + o for r, o in zip(records, row_off, strict=True)])
    return Record(first.game_id, first.agents, first.num_actions, first.observation_size, first.piece,
                  int(sum(r.games for r in records)), **cat)  # fmt: skip


@dataclass
class FitResult:
    """What :func:`fit` wrote and measured on the held-out games."""

    path: Path
    decisions: int
    held_out: int
    epochs: int
    seconds: float
    policy_agreement: float  # share of the imitated agents' held-out moves that the policy's top move matches
    value_correlation: float  # Pearson correlation of the held-out values with the outcomes
    value_mse: float
    device: str

    def summary(self) -> str:
        policy = ("the policy kept" if math.isnan(self.policy_agreement) else
                  f"the policy matches {self.policy_agreement:.1%} of the imitated moves")  # fmt: skip
        return (f"{self.path}: {self.decisions:,} decisions, {self.held_out:,} held out; {self.epochs} epochs in "
                f"{self.seconds:.0f} s on {self.device}; held out: {policy}, the value correlates "
                f"{self.value_correlation:.3f} with the outcomes (squared error {self.value_mse:.3f})")  # fmt: skip


def fit(rec: Record, path: str | Path, init: str | None = None, imitate: Sequence[str] = (),
        net_arch: Sequence[int] = (256, 256), cell_arch: Sequence[int] = (16, 4), epochs: int = 8,
        batch_size: int = 4096, learning_rate: float = 1e-3, held_out: float = 0.05, seed: int = 0,
        device: str = "auto", time_limit: float = 0.0) -> FitResult:  # fmt: skip
    """Fit the native trainer's network (:class:`.nets.ActorCritic`: tanh MLPs of ``net_arch``, over a cell
    encoder of ``cell_arch`` where the record keeps cells) to ``rec``: the value to the outcomes, and with
    ``imitate`` the policy to the moves of those agents of the record; the policy (and encoder) start from
    ``init``'s layers where given, and without ``imitate`` stay as they are. Writes the policy-value file ``path``;
    the games of a ``held_out`` share are kept apart and measured. ``time_limit`` seconds stops after the epoch
    that reaches it."""
    _need_torch()
    import torch
    from industry_env.agents.policy_file import save_policy_value
    from industry_env.agents.policy_numpy import ValueHead
    from torch import nn

    from .expert import init_network
    from .native import pick_device
    from .nets import ActorCritic, Packed

    if not imitate and not init:
        raise ValueError("fit: give init= (the policy kept) or imitate= (the agents whose moves it learns)")
    unknown = sorted(set(imitate) - set(rec.agents))
    if unknown:
        raise ValueError(f"fit: imitate={unknown} did not play in the record (its agents: {rec.agents})")
    torch.manual_seed(seed)
    dev = pick_device(device)
    codec = _codec(rec.game_id, rec.observation_size, rec.piece)
    net = ActorCritic(rec.observation_size, rec.num_actions, list(net_arch), codec, list(cell_arch))
    if init:
        init_network(net, init, rec.game_id, value_too=False, where="init")
    net = net.to(dev)
    params = list(net.mlp_extractor.value_net.parameters()) + list(net.value_net.parameters())
    if imitate:
        params = list(net.parameters())
    opt = torch.optim.Adam(params, lr=learning_rate)

    rng = np.random.default_rng(seed)
    games = np.unique(rec.game)
    test_games = rng.choice(games, size=max(1, int(round(held_out * games.size))), replace=False)
    test = np.isin(rec.game, test_games)
    train_rows, test_rows = np.flatnonzero(~test), np.flatnonzero(test)
    imitated = np.isin(rec.agent, [k for k, a in enumerate(rec.agents) if a in imitate])
    A = rec.num_actions

    def tensors(rows: np.ndarray) -> tuple[Any, Any, Any, Any, Any]:
        rest, cells, owner, index = rec.observations(rows)

        def up(x: np.ndarray | None, float_: bool = False) -> Any:
            if x is None:
                return None
            t = torch.from_numpy(x).to(dev)
            return t.float() if float_ else t

        batch = Packed(up(rest, True), up(cells, True), up(owner), up(index))
        m = up(np.unpackbits(rec.mask[rows], axis=1, count=A).astype(bool))
        return batch, m, up(rec.action[rows].astype(np.int64)), up(rec.outcome[rows]), up(imitated[rows])

    def heads(batch: Any) -> tuple[Any, Any]:
        logits, value = net(batch)
        return logits, value

    start, done = time.perf_counter(), 0
    net.train()
    for _ in range(epochs):
        order = rng.permutation(train_rows)
        for lo in range(0, order.size, batch_size):
            batch, m, a, z, w = tensors(np.sort(order[lo : lo + batch_size]))
            logits, v = heads(batch)
            loss = ((v - z) ** 2).mean()
            if imitate and bool(w.any()):
                loss = loss + nn.functional.cross_entropy(logits[w].masked_fill(~m[w], -1e9), a[w])
            opt.zero_grad()
            loss.backward()
            opt.step()
        done += 1
        if time_limit and time.perf_counter() - start > time_limit:
            break
    seconds = time.perf_counter() - start

    agree, values = [], []
    net.eval()
    with torch.no_grad():
        for lo in range(0, test_rows.size, batch_size):
            batch, m, a, z, w = tensors(test_rows[lo : lo + batch_size])
            logits, v = heads(batch)
            values.append(v.float().cpu().numpy())
            if bool(w.any()):
                agree.append((logits[w].masked_fill(~m[w], -1e9).argmax(1) == a[w]).float().cpu().numpy())
    v = np.concatenate(values) if values else np.zeros(0, np.float32)
    z = rec.outcome[test_rows]
    corr = float(np.corrcoef(v, z)[0, 1]) if v.size > 1 and v.std() > 0 and z.std() > 0 else float("nan")

    layers = [m for m in net.mlp_extractor.value_net if isinstance(m, nn.Linear)] + [net.value_net]
    head = ValueHead([(m.weight.detach().float().cpu().numpy(), m.bias.detach().float().cpu().numpy())
                      for m in layers], "Tanh")  # fmt: skip
    written = save_policy_value(net.actor(), head, path, rec.game_id)
    return FitResult(written, rec.size, int(test_rows.size), done, seconds,
                     float(np.concatenate(agree).mean()) if agree else float("nan"), corr,
                     float(((v - z) ** 2).mean()) if v.size else float("nan"), str(dev))  # fmt: skip


# ------------------------------------------------------------------------------------------------ command line
def main(argv: Sequence[str] | None = None) -> int:
    """``python -m industry_env.train.distill record ...`` / ``fit ...`` (``--help`` on each)."""
    parser = argparse.ArgumentParser(prog="python -m industry_env.train.distill", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="verb", required=True)
    rec = sub.add_parser("record", help="play games of a pool of agents and keep their decisions")
    rec.add_argument("--game", required=True)
    rec.add_argument("--agents", required=True, help="comma-separated agent names, each seat drawn among them")
    rec.add_argument("--games", type=int, required=True)
    rec.add_argument("--seed", type=int, default=0)
    rec.add_argument("--players", type=int, default=None)
    rec.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="a game option")
    rec.add_argument("--keep", type=float, default=1.0, help="share of the decisions kept (default 1)")
    rec.add_argument("--batch", type=int, default=256)
    rec.add_argument("--piece", default="", help="an observation piece whose cells are kept apart (20th Century: "
                                                 "grids); default: the observation whole")
    rec.add_argument("--time-limit", type=float, default=0.0, help="seconds; stops after the batch that reaches it")
    rec.add_argument("--out", required=True)
    fitp = sub.add_parser("fit", help="fit a policy-value network to records")
    fitp.add_argument("records", nargs="+")
    fitp.add_argument("--out", required=True)
    fitp.add_argument("--init", default=None, help="a policy file: its policy kept (or trained from, --imitate)")
    fitp.add_argument("--imitate", default="", help="comma-separated agents of the record whose moves it learns")
    fitp.add_argument("--net-arch", default="256,256")
    fitp.add_argument("--cell-arch", default="16,4", help="the cell encoder's layers (records with --piece)")
    fitp.add_argument("--epochs", type=int, default=8)
    fitp.add_argument("--batch-size", type=int, default=4096)
    fitp.add_argument("--learning-rate", type=float, default=1e-3)
    fitp.add_argument("--seed", type=int, default=0)
    fitp.add_argument("--device", default="auto")
    fitp.add_argument("--time-limit", type=float, default=0.0, help="seconds; stops after the epoch that reaches it")
    for p in (rec, fitp):
        p.add_argument("--overwrite", action="store_true", help="replace --out if it exists (else it is refused)")
    args = parser.parse_args(argv)
    if Path(args.out).exists() and not args.overwrite:
        parser.error(f"--out {args.out} exists: give --overwrite to replace it, or another name")
    try:
        return _run(parser, args)
    except (ValueError, ImportError) as exc:  # bad input, or the train extra missing: said in one line
        print(f"distill {args.verb}: {exc}", file=sys.stderr)
        return 2


def _run(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    if args.verb == "record":
        options: dict[str, Any] = {}
        for item in args.option:
            name, sep, val = item.partition("=")
            if not sep:
                parser.error(f"--option {item!r}: expected NAME=VALUE")
            options[name] = val
        t0 = time.perf_counter()
        r = record(args.game, [a for a in args.agents.split(",") if a], args.games, args.seed, args.players, options,
                   args.keep, args.batch, args.piece, args.time_limit)  # fmt: skip
        r.save(args.out)
        print(f"{args.out}: {r.size:,} decisions of {r.games:,} games in {time.perf_counter() - t0:.0f} s")
        return 0
    records = merge([Record.load(p) for p in args.records])
    arch = [int(x) for x in args.net_arch.split(",") if x]
    cells = [int(x) for x in args.cell_arch.split(",") if x]
    res = fit(records, args.out, args.init, [a for a in args.imitate.split(",") if a], arch, cells, args.epochs,
              args.batch_size, args.learning_rate, seed=args.seed, device=args.device, time_limit=args.time_limit)
    print(res.summary())
    print(json.dumps({k: (str(v) if isinstance(v, Path) else v) for k, v in res.__dict__.items()}))
    return 0 if math.isfinite(res.value_mse) else 1


if __name__ == "__main__":
    sys.exit(main())
