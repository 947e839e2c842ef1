"""Age of Industry's money balance, measured: how the final scores and loans come out when agents play each other.

:func:`measure` plays games on the batched engine, each entry in every position of the turn order equally often
(the ``n`` rotations of each deal, as the arena seats them), and gives, for each entry: the mean final points,
the loans the final scoring could not repay (each worth -5 points), the loans held when the game ended, the rail
income, the industries' points and the wins. docs/age-of-industry/balance.md quotes its figures.

The game does not import its players: ``make_agent(name, seed=..., game=..., options=...)`` builds them (pass
``industry_env.agents.make_agent``). :func:`configure` and :func:`run` are ``industry-env balance`` for this game
(``--games``, ``--seed``, ``--players``, ``--policies``, ``--map``, ``--output``): each policy taking every seat,
on both maps unless ``--map`` names one.

    from industry_env.agents import make_agent
    from industry_env.games.age_of_industry.balance import measure
    print(measure(make_agent, ["heuristic"] * 4, game_map="new_england", games=200, seed=1))
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...core.outputs import check_output_file, write_text_atomic
from . import engine
from .components import MAPS
from .rules import MAX_PLAYERS, MIN_PLAYERS, POINTS_PER_UNPAID_LOAN

#: the one-line help of its subcommand (a tool of the game: ``GameSpec.tools``)
HELP = "measure a game's balance over many games: Age of Industry's final points, loans unpaid and wins"
GAME = "age_of_industry"
_DEAL_PURPOSE = 0x62616C616E6365  # "balance": keeps its deals apart from any other use of the seed
COLUMNS = ("points", "unpaid", "loans", "rail_income", "industries", "win")


@dataclass
class Measurement:
    """The games of one :func:`measure`: per game and entry (``[games, n]`` arrays, in the order of ``agents``)."""

    agents: list[str]
    game_map: str
    seed: int
    points: np.ndarray  # final points
    unpaid: np.ndarray  # loans the final scoring could not repay
    loans: np.ndarray  # loans held when the game ended (before the final scoring repaid what it could)
    rail_income: np.ndarray  # dollars of rail income at the end
    industries: np.ndarray  # points of the counters on the map
    win: np.ndarray  # 1 for the winner (the rules' tie-break: the higher in the last turn order)
    rounds: np.ndarray = field(default_factory=lambda: np.zeros(0))  # [games]: rounds played
    seconds: float = 0.0

    @property
    def games(self) -> int:
        return int(self.points.shape[0])

    def summary(self) -> list[dict[str, Any]]:
        """One row per entry: means of every column, the standard error of the points, and the wins."""
        rows = []
        for j, name in enumerate(self.agents):
            row: dict[str, Any] = {"agent": name, "games": self.games}
            for k in COLUMNS[:-1]:
                row[k] = float(getattr(self, k)[:, j].mean())
            row["points_se"] = float(self.points[:, j].std(ddof=1) / np.sqrt(self.games)) if self.games > 1 else 0.0
            row["wins"] = int(self.win[:, j].sum())
            rows.append(row)
        return rows

    def overall(self) -> dict[str, float]:
        """Means over every entry and game: what the table as a whole ends with."""
        return {k: float(getattr(self, k).mean()) for k in COLUMNS[:-1]} | {"rounds": float(self.rounds.mean())}

    def __str__(self) -> str:
        n = len(self.agents)
        head = (f"{self.game_map}, {n} players, {self.games} games (seed {self.seed}), "
                f"{self.rounds.mean():.1f} rounds a game, {self.seconds:.0f} s")  # fmt: skip
        lines = [head, "", "| entry | agent | points | loans unpaid | loans held at the end | rail income | industry "
                 "points | wins |", "|---|---|---|---|---|---|---|---|"]  # fmt: skip
        for j, r in enumerate(self.summary()):
            lines.append(f"| {j} | {r['agent']} | {r['points']:.1f} ± {r['points_se']:.1f} | {r['unpaid']:.2f} | "
                         f"{r['loans']:.2f} | ${r['rail_income']:.1f} | {r['industries']:.1f} | {r['wins']} of "
                         f"{self.games} |")  # fmt: skip
        o = self.overall()
        lines.append(f"| all | | {o['points']:.1f} | {o['unpaid']:.2f} | {o['loans']:.2f} | ${o['rail_income']:.1f} "
                     f"| {o['industries']:.1f} | |")  # fmt: skip
        return "\n".join(lines)


def deal_seeds(seed: int, deals: int) -> np.ndarray:
    """int64[deals]: the engine seed of each deal, drawn from ``seed``."""
    rng = np.random.default_rng(np.random.SeedSequence([seed, _DEAL_PURPOSE]))
    return rng.integers(0, 2**62, size=deals, dtype=np.int64)


def measure(make_agent: Callable[..., Any], agents: Sequence[str], game_map: str = "germany", games: int = 200,
            seed: int = 0, batch_size: int = 1024,
            agent_options: Sequence[dict] | None = None) -> Measurement:  # fmt: skip
    """Play ``games`` games (rounded up to a multiple of the players) with one entry of ``agents`` per seat.

    Each deal is played ``n`` times, entry ``j`` at position ``(j + k) mod n`` of the first turn order in its
    ``k``-th rotation. ``agent_options[j]``: extra parameters of entry ``j`` (e.g. ``{"reserve": 0}``). Agents are
    seeded from ``seed`` and their entry, and told the map.
    """
    n = len(agents)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise ValueError(f"agents={list(agents)!r}: Age of Industry is played by {MIN_PLAYERS} to {MAX_PLAYERS} "
                         f"players, one agent each")  # fmt: skip
    if game_map not in MAPS:
        raise ValueError(f"game_map={game_map!r}: one of {', '.join(MAPS)}")
    if isinstance(games, bool) or not isinstance(games, (int, np.integer)) or games < 1:
        raise ValueError(f"games={games!r}: a whole number above 0")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed={seed!r}: a whole number >= 0")
    options = list(agent_options) if agent_options is not None else [{} for _ in agents]
    if len(options) != n:
        raise ValueError(f"agent_options: {len(options)} given for {n} agents")
    players = [make_agent(a, seed=int(seed) * 1000 + j, game=GAME, options={"map": game_map}, **o)
               for j, (a, o) in enumerate(zip(agents, options, strict=True))]  # fmt: skip
    G = -(-int(games) // n) * n
    seeds = np.repeat(deal_seeds(int(seed), G // n), n)
    rotation = np.tile(np.arange(n), G // n)
    out = {k: np.zeros((G, n)) for k in COLUMNS}
    rounds = np.zeros(G)
    t0 = time.perf_counter()
    for lo in range(0, G, batch_size):
        hi = min(G, lo + batch_size)
        _play(players, game_map, seeds[lo:hi], rotation[lo:hi], lo, out, rounds)
    return Measurement(agents=list(agents), game_map=game_map, seed=int(seed), rounds=rounds,
                       seconds=time.perf_counter() - t0, **out)  # fmt: skip


def _play(players: list[Any], game_map: str, seeds: np.ndarray, rotation: np.ndarray, lo: int,
          out: dict[str, np.ndarray], rounds: np.ndarray) -> None:  # fmt: skip
    """Play one batch of games to the end, writing each game's figures into ``out`` (rows ``lo + i``)."""
    n, B = len(players), len(seeds)
    state = engine.init(B, num_players=n, seed=seeds, map=game_map)
    first = state.current_player.astype(np.int64)
    seat = (first[:, None] + np.arange(n)[None, :] + rotation[:, None]) % n  # [B, entry]
    entry_at = np.empty_like(seat)
    entry_at[np.arange(B)[:, None], seat] = np.arange(n)[None, :]
    ids = np.arange(B)
    while ids.size:
        mask = engine.legal_action_mask(state)
        obs = engine.observe(state)
        entry = entry_at[ids, state.current_player.astype(np.int64)]
        actions = np.zeros(ids.size, np.int64)
        for j, agent in enumerate(players):
            rows = np.flatnonzero(entry == j)
            if rows.size:
                actions[rows] = agent.act_batch(obs[rows], mask[rows])
        state = engine.step(state, actions, mask=mask, inplace=True)
        over = np.flatnonzero(np.asarray(state.terminated))
        for i in over:
            g = engine.to_game(state, int(i))
            row, scores, winner = lo + ids[i], g.scores(), g.winners()[0]
            rounds[row] = g.s.round
            for j in range(n):
                q = int(seat[ids[i], j])
                acc = g.final_accounts(q)
                out["points"][row, j] = scores[q]
                out["unpaid"][row, j] = -acc["unpaid_loans"] / POINTS_PER_UNPAID_LOAN
                out["loans"][row, j] = g.s.loans[q]
                out["rail_income"][row, j] = acc["rail_income"]
                out["industries"][row, j] = acc["industries"]
                out["win"][row, j] = float(q == winner)
        if over.size:
            keep = np.flatnonzero(~np.asarray(state.terminated))
            ids = ids[keep]
            state = engine.take(state, keep)


def configure(parser: argparse.ArgumentParser) -> None:
    """Options of ``industry-env balance --game age_of_industry`` (those Industry's balance also has keep its help)."""
    parser.add_argument("--games", type=int, default=200, help="games per policy, map and player count (default 200)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    parser.add_argument("--players", default="3,4", help="comma-separated player counts (default 3,4)")
    parser.add_argument("--policies", default="random,heuristic",
                        help="comma-separated agents, each taking every seat (default random,heuristic)")
    parser.add_argument("--map", default=None, choices=sorted(MAPS),
                        help="Age of Industry: only this map (default: every map)")
    parser.add_argument("--output", default=None, metavar="JSON", help="also write the figures to this file")


def run(args: argparse.Namespace) -> int:
    """``industry-env balance --game age_of_industry``: for each policy (taking every seat), number of players and
    map, the table of :func:`measure`; ``--output`` also writes every table's figures as JSON."""
    if getattr(args, "board", None):
        print(f"error: --board {args.board}: Industry's board file; Age of Industry chooses its map with --map "
              f"({', '.join(sorted(MAPS))})", file=sys.stderr)  # fmt: skip
        return 2
    if args.games < 1:
        print(f"error: --games {args.games}: give at least 1 game", file=sys.stderr)
        return 2
    maps = [args.map] if getattr(args, "map", None) else list(MAPS)
    policies = [p.strip() for p in str(args.policies).split(",") if p.strip()]
    try:
        players = sorted({int(x) for x in str(args.players).split(",")})
    except ValueError:
        players = []
    if not policies or not players or any(not MIN_PLAYERS <= n <= MAX_PLAYERS for n in players):
        print(f"error: --players {args.players!r} --policies {args.policies!r}: Age of Industry is played by "
              f"{MIN_PLAYERS} to {MAX_PLAYERS} players (e.g. --players 3,4,5), with at least one policy",
              file=sys.stderr)  # fmt: skip
        return 2
    if args.output:
        try:
            check_output_file(args.output)
        except ValueError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
    results = []
    for policy in policies:
        for game_map in maps:
            for n in players:
                try:
                    m = measure(args.make_agent, [policy] * n, game_map=game_map, games=args.games, seed=args.seed)
                except ValueError as exc:
                    print(f"error: {exc}", file=sys.stderr)
                    return 2
                print(f"== {policy} in every seat", m, "", sep="\n")
                results.append({"policy": policy, "map": game_map, "players": n, "games": m.games,
                                "seed": m.seed, "overall": m.overall(), "entries": m.summary()})  # fmt: skip
    if args.output:
        write_text_atomic(args.output, json.dumps(results, indent=2))
    return 0


__all__ = ["HELP", "Measurement", "configure", "deal_seeds", "measure", "run"]
