"""Tournaments between agents: which policy is better, and by how much, with error bars.

``Arena(agents, games=1000, seed=0, game="industry", **options).run()`` plays the games of any game of the suite
in batches on its batched engine (the number of players is the number of agents) and returns an
:class:`ArenaResults`: per agent the win rate with its 95% Wilson interval, the mean points with their
standard error, the mean rank, an openskill rating (Plackett-Luce) and the win rate by seat; ``industry-env
arena`` does the same from the command line and writes JSON, CSV and a PNG plot.

How the games are dealt, so that no agent is favoured by its seat:

* ``agents`` lists one agent per seat (as many as the game's players); a name may repeat
  (``heuristic,random,random,random``), each entry is then a separate agent with its own seed and its own
  line in the table.
* The games come in *deals*. A deal is one engine seed (in Industry one bag order and one first Starting Player),
  played once for each *seating* of the agents. By default the seatings are the ``n`` cyclic rotations: in seating
  ``r`` agent ``j`` sits at position ``(j + r) % n`` counted clockwise from the seat that moves first (position 0:
  Industry's first Starting Player). So every agent plays every position equally often, and on the same deals as
  the others; the agents keep their order around the table (with ``heuristic,random,random,random``, ``random#1``
  always sits on the heuristic's left, and a random player's results depend on that). ``all_orders=True`` plays
  every ordering instead (``n!`` seatings: 6 for 3 players, 24 for 4), which also balances who sits next to whom.
  ``games`` is rounded up to a whole number of deals (a multiple of the number of seatings).
* Seeds: deal ``k`` uses engine seed ``deal_seeds(seed, deals)[k]`` (drawn from the arena seed, the same for
  any number of deals, recorded per game in the results); the agent in entry ``j`` given by name is built with
  seed ``agent_seed(seed, j)``. Same arena seed, agents and batch size: same games, same table.

Winning follows the game's rules, read from its batched engine (``ranking``: Industry orders by points, then
Property tokens on the board, then money; a game without ``ranking`` orders by final reward, then points).
Players still tied after that share the win: each of ``k`` tied winners counts
``1/k`` of a win (``wins``), so the wins of a game always add up to one and the win rates of the table add up
to one; ``wins_any`` counts a shared win as a whole one. Ranks follow the same order; tied players share the
mean of the ranks they span (two players tied for first both rank 1.5).

Each step of the batch, for each agent object, the games where that agent is to move are gathered and its
``act_batch(observations, action_masks)`` is called once on them (observations from ``engine.observe`` for the
player to move, masks from ``engine.legal_action_mask``); its actions are checked against the masks (an
illegal action is an error naming the agent), then one ``engine.step`` plays every game. An agent without
``act_batch`` is asked game by game through ``act(observation, action_mask)``.
"""

from __future__ import annotations

import argparse
import csv
import io
import itertools
import json
import math
import os
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from . import warmup
from .core.outputs import check_output_file, write_text_atomic
from .core.spec import GameSpec
from .gameargs import add_game_arguments, game_options
from .registry import DEFAULT_GAME, load_game

Z95 = 1.959963984540054  # the two-sided 95% quantile of the standard normal
_DEAL_PURPOSE = 0x6172656E61  # "arena": keeps the arena's seed streams apart from any other use of the seed
_AGENT_PURPOSE = 0x6167656E74  # "agent"


class ArenaError(ValueError):
    """A tournament that cannot be played as asked (bad agents, players, games, output folder)."""


# ---------------------------------------------------------------------------------------------- statistics
def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``successes / trials`` (95% by default); (0, 1) for no trials.

    Used for win rates because it stays inside [0, 1] and keeps its coverage near 0 and 1, where the normal
    approximation fails (a 95% win rate over 100 games). Fractional successes (shared wins) are accepted.
    """
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z * math.sqrt(max(p * (1 - p) / trials + z2 / (4 * trials * trials), 0.0)) / (1 + z2 / trials)
    # the interval always holds p; the clamps only absorb rounding (p = 0 or 1 gives a bound of p itself)
    return max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))


# The most games one arena plays: each game's results are kept (about 200 bytes a game, and its line in
# arena.json); more games than this are several arenas with different seeds.
MAX_GAMES = 1_000_000


def outcome(state: Any, game: str | GameSpec = DEFAULT_GAME) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Points, ranks and win shares (each float64[B, n], by seat) of finished games, all with the same ``n``.

    The order is the rules' (the engine's ``ranking``; Industry: points, then Property tokens on the board, then
    money); tied players share the mean of their ranks, and each of ``k`` tied winners gets ``1/k`` of the win.
    """
    spec = game if isinstance(game, GameSpec) else load_game(game)
    engine = spec.engine
    n = int(state.num_players[0]) if state.batch_size else spec.max_players
    if state.batch_size and not (state.num_players == n).all():
        raise ArenaError("outcome: the games must all have the same number of players")
    if not engine.finished(state).all():
        raise ArenaError("outcome: every game must be over (a game ended by a penalty has no winner)")
    points = engine.scores(state)[:, :n].astype(np.int64)
    if callable(getattr(engine, "ranking", None)):
        key = np.asarray(engine.ranking(state))[:, :n].astype(np.int64)
    else:  # the winners (by the game's own tie-break, in its rewards) first, then by points
        key = (np.asarray(state.rewards)[:, :n] > 0).astype(np.int64) * 2**40 + points
    above = (key[:, None, :] > key[:, :, None]).sum(axis=2)  # [B, n]: players strictly ahead of each one
    level = (key[:, None, :] == key[:, :, None]).sum(axis=2)  # players with the same key, oneself included
    rank = 1.0 + above + (level - 1) / 2.0
    win = key == key.max(axis=1, keepdims=True)
    share = win / win.sum(axis=1, keepdims=True)
    return points.astype(np.float64), rank, share


def deal_seeds(seed: int, deals: int) -> np.ndarray:
    """int64[deals]: the engine seed of each deal, drawn from the arena ``seed`` (distinct arena seeds, unrelated
    deals, unlike ``seed + k`` which would make seeds 0 and 1 share all but one game)."""
    rng = np.random.default_rng(np.random.SeedSequence([seed, _DEAL_PURPOSE]))
    return rng.integers(0, 2**62, size=deals, dtype=np.int64)


def seatings(num_players: int, all_orders: bool = False) -> np.ndarray:
    """int64[R, n]: the position of each agent entry in each seating (cyclic rotations, or every order)."""
    n = num_players
    if all_orders:
        return np.array(list(itertools.permutations(range(n))), dtype=np.int64)
    return (np.arange(n)[None, :] + np.arange(n)[:, None]) % n


def agent_seed(seed: int, slot: int) -> int:
    """The seed of the agent built by name for entry ``slot`` of an arena seeded ``seed``."""
    return int(np.random.SeedSequence([seed, _AGENT_PURPOSE, slot]).generate_state(1, np.uint32)[0])


# ---------------------------------------------------------------------------------------------- results
@dataclass
class ArenaResults:
    """The games of an arena (per game, by agent entry) and the statistics drawn from them.

    Per-game arrays have one row per game and one column per agent entry (the order of ``labels``):
    ``points`` (final score), ``rank`` (1 best, ties share the mean), ``win_share`` (1/k for k tied winners),
    ``position`` (0 = the first Starting Player, then clockwise) and ``seat`` (player index in the engine).
    """

    labels: list[str]
    num_players: int
    seed: int
    game: str  # the game's id
    games_requested: int
    game_seed: np.ndarray  # int64[G]: engine seed of each game
    seating: np.ndarray  # int64[G]: index into ``seatings``
    starting_player: np.ndarray  # int64[G]: the first Starting Player (a seat)
    position: np.ndarray  # int64[G, n]
    seat: np.ndarray  # int64[G, n]
    points: np.ndarray  # float64[G, n]
    rank: np.ndarray  # float64[G, n]
    win_share: np.ndarray  # float64[G, n]
    moves: np.ndarray  # int64[n]: decisions taken by each entry
    think_seconds: np.ndarray  # float64[n]: time inside its agent's act_batch, shared by its decisions
    elapsed_seconds: float
    batch_size: int
    seatings: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), np.int64))  # [R, n]: entry -> position
    ratings: list[dict[str, float]] = field(default_factory=list)  # empty without openskill (the arena extra)
    options: dict[str, Any] = field(default_factory=dict)  # the game's options, as a record stores them

    def __post_init__(self) -> None:
        if not self.ratings:
            try:
                self.ratings = openskill_ratings(self.rank)
            except ImportError:
                self.ratings = []  # the table has no rating columns; __str__ says which extra brings them

    @property
    def balanced_draws(self) -> bool:
        """Industry's option (True for other games, which have none)."""
        return bool(self.options.get("balanced_draws", True))

    @property
    def games(self) -> int:
        """Number of games played."""
        return int(self.points.shape[0])

    def table(self) -> list[dict[str, Any]]:
        """One dict per agent entry, in the order of ``labels`` (pandas-free: ``pandas.DataFrame(table())`` works).

        Keys: ``agent``, ``games``, ``wins`` (shared wins as 1/k), ``wins_any``, ``win_rate`` with ``win_ci_low``
        and ``win_ci_high`` (95% Wilson), ``mean_points`` and ``points_se`` (standard error), ``mean_rank``,
        ``mu``, ``sigma``, ``ordinal`` (openskill), ``moves``, ``ms_per_move`` (time in the agent per decision),
        and ``win_rate_position<k>`` for each position from the first Starting Player.
        """
        G, n = self.games, self.num_players
        rows = []
        for j, label in enumerate(self.labels):
            wins = float(self.win_share[:, j].sum())
            lo, hi = wilson_interval(wins, G)
            pts = self.points[:, j]
            row: dict[str, Any] = {
                "agent": label,
                "games": G,
                "wins": wins,
                "wins_any": int((self.win_share[:, j] > 0).sum()),
                "win_rate": wins / G if G else 0.0,
                "win_ci_low": lo,
                "win_ci_high": hi,
                "mean_points": float(pts.mean()) if G else 0.0,
                "points_se": float(pts.std(ddof=1) / math.sqrt(G)) if G > 1 else 0.0,
                "mean_rank": float(self.rank[:, j].mean()) if G else 0.0,
                **({k: float(v) for k, v in self.ratings[j].items()} if self.ratings else {}),
                "moves": int(self.moves[j]),
                "ms_per_move": 1000.0 * float(self.think_seconds[j]) / max(int(self.moves[j]), 1),
            }
            for k in range(n):
                at = self.position[:, j] == k
                row[f"win_rate_position{k}"] = float(self.win_share[at, j].mean()) if at.any() else 0.0
            rows.append(row)
        return rows

    def seat_effects(self) -> list[dict[str, Any]]:
        """Win rate by position from the first Starting Player: per agent entry, and 'all' (whoever sits there).

        Every agent plays each position in ``games / n`` games; 'all' at position k is the share of all games
        won from position k (a fair table gives ``1/n``).
        """
        out = []
        for k in range(self.num_players):
            at = self.position == k  # [G, n]: exactly one True per game
            won = float(self.win_share[at].sum())
            lo, hi = wilson_interval(won, self.games)
            out.append({"position": k, "agent": "all", "games": self.games, "win_rate": won / max(self.games, 1),
                        "win_ci_low": lo, "win_ci_high": hi})  # fmt: skip
            for j, label in enumerate(self.labels):
                g = int(at[:, j].sum())
                w = float(self.win_share[at[:, j], j].sum())
                lo, hi = wilson_interval(w, g)
                out.append({"position": k, "agent": label, "games": g, "win_rate": w / max(g, 1),
                            "win_ci_low": lo, "win_ci_high": hi})  # fmt: skip
        return out

    def __str__(self) -> str:
        n = self.num_players
        speed = self.games / max(self.elapsed_seconds, 1e-9)
        opts = "".join(f", {k} {v}" for k, v in self.options.items())
        head = (f"{load_game(self.game).name}: {self.games} games, {n} players, seed {self.seed}{opts}; "
                f"{self.elapsed_seconds:.1f} s ({speed:.1f} games/s)")  # fmt: skip
        if self.games != self.games_requested:
            head += (
                f"\n({self.games_requested} games asked, rounded up to whole deals of {len(self.seatings)} seatings)"
            )
        width = max(12, *(len(lab) for lab in self.labels))
        rated = bool(self.ratings)
        rating_head = f" {'mu':>6} {'sigma':>6} {'ordinal':>7}" if rated else ""
        lines = [head, "",
                 f"{'agent':<{width}} {'wins':>8} {'win rate [95% CI]':>23} {'points ± se':>14} {'rank':>5}"
                 f"{rating_head} {'ms/move':>8}"]  # fmt: skip
        for r in self.table():
            ci = f"{100 * r['win_rate']:5.1f}% [{100 * r['win_ci_low']:4.1f}, {100 * r['win_ci_high']:5.1f}]"
            pts = f"{r['mean_points']:.1f} ± {r['points_se']:.1f}"
            rating = f" {r['mu']:6.2f} {r['sigma']:6.2f} {r['ordinal']:7.2f}" if rated else ""
            lines.append(f"{r['agent']:<{width}} {r['wins']:>8.6g} {ci:>23} {pts:>14} {r['mean_rank']:5.2f}"
                         f"{rating} {r['ms_per_move']:8.3g}")  # fmt: skip
        if not rated:
            lines.append("(no ratings: they need openskill, pip install 'industry_env[arena]')")
        lines += ["", "win rate by position from the seat that moves first (0, then clockwise):",
                  f"{'position':<{width}} " + " ".join(f"{k:>8}" for k in range(n))]  # fmt: skip
        eff = self.seat_effects()
        for name in ["all", *self.labels]:
            rates = [e["win_rate"] for e in eff if e["agent"] == name]
            lines.append(f"{name:<{width}} " + " ".join(f"{100 * x:7.1f}%" for x in rates))
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        """Everything as plain JSON types: the settings, the table, the seat effects and every game."""
        return {
            "arena": {
                "game": self.game,
                "options": self.options,
                "agents": self.labels,
                "num_players": self.num_players,
                "games": self.games,
                "games_requested": self.games_requested,
                "seed": self.seed,
                "balanced_draws": self.balanced_draws,
                "batch_size": self.batch_size,
                "elapsed_seconds": self.elapsed_seconds,
                "seatings": self.seatings.tolist(),
                "games_per_second": self.games / max(self.elapsed_seconds, 1e-9),
                "wins": "a win shared by k tied winners counts 1/k (wins_any counts it as 1)",
                "rank": "1 is best; tied players share the mean of their ranks",
                "position": "seat counted clockwise from the seat that moves first (0; Industry: the Starting Player)",
                "rating": "openskill PlackettLuce, games rated in order; ordinal = mu - 3 sigma",
            },  # fmt: skip
            "table": self.table(),
            "seat_effects": self.seat_effects(),
            "per_game": {
                "game_seed": self.game_seed.tolist(),
                "seating": self.seating.tolist(),
                "starting_player": self.starting_player.tolist(),
                "position": self.position.tolist(),
                "seat": self.seat.tolist(),
                "points": self.points.astype(int).tolist(),
                "rank": self.rank.tolist(),
                "win_share": self.win_share.tolist(),
            },  # fmt: skip
        }

    def to_json(self, path: str | os.PathLike) -> Path:
        """Write :meth:`to_dict` as JSON to ``path`` (whole or not at all); returns the path."""
        path = Path(path)
        write_text_atomic(path, json.dumps(self.to_dict(), indent=1) + "\n")
        return path

    def to_csv(self, path: str | os.PathLike) -> Path:
        """Write :meth:`table` as CSV (one row per agent entry) to ``path``; returns the path."""
        path = Path(path)
        rows = self.table()
        text = io.StringIO(newline="")
        w = csv.DictWriter(text, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
        write_text_atomic(path, text.getvalue())
        return path

    @property
    def spec_name(self) -> str:
        """The game's name (with its options that are not the defaults, e.g. the map)."""
        spec = load_game(self.game)
        default = spec.options_to_json(spec.check_options({}))
        shown = ", ".join(f"{k} {v}" for k, v in self.options.items() if default.get(k) != v)
        return spec.name + (f" ({shown})" if shown else "")

    def plot(self, path: str | os.PathLike | None = None):
        """A matplotlib Figure: win rates with their 95% intervals, and the openskill ratings; saved if ``path``."""
        Figure = _matplotlib_figure()
        rows = self.table()
        x = np.arange(len(rows))
        labels = [r["agent"] for r in rows]
        fig = Figure(figsize=(4 + 1.6 * len(rows), 4.2), layout="constrained")
        ax, bx = fig.subplots(1, 2) if self.ratings else (fig.subplots(1, 1), None)
        rate = np.array([r["win_rate"] for r in rows])
        err = np.array([[r["win_rate"] - r["win_ci_low"] for r in rows],
                        [r["win_ci_high"] - r["win_rate"] for r in rows]]).clip(min=0.0)  # fmt: skip
        ax.bar(x, 100 * rate, yerr=100 * err, capsize=6, color="tab:blue")
        ax.axhline(100 / self.num_players, color="grey", linestyle="--", label=f"fair share (1/{self.num_players})")
        ax.set_xticks(x, labels, rotation=20)
        ax.set_ylabel("win rate (%), 95% Wilson interval")
        ax.set_title(f"{self.spec_name}: {self.games} games, {self.num_players} players")
        ax.legend(loc="upper right")
        if bx is None:  # no openskill: win rates only
            if path is not None:
                fig.savefig(path, dpi=120)
            return fig
        mu = np.array([r["mu"] for r in rows])
        sigma = np.array([r["sigma"] for r in rows])
        bx.errorbar(x, mu, yerr=sigma, fmt="o", capsize=6, color="tab:orange", label="mu ± sigma")
        bx.scatter(x, [r["ordinal"] for r in rows], marker="x", color="black", label="ordinal (mu - 3 sigma)")
        bx.set_xticks(x, labels, rotation=20)
        bx.set_ylabel("openskill rating (Plackett-Luce)")
        bx.set_title("rating")
        bx.legend(loc="best")
        if path is not None:
            fig.savefig(path, dpi=120)
        return fig


def _matplotlib_figure():
    """matplotlib's Figure class, or an ImportError saying which extra brings it."""
    try:
        from matplotlib.figure import Figure
    except ImportError as exc:
        raise ImportError("the arena plot needs matplotlib: pip install 'industry_env[arena]'") from exc
    return Figure


def openskill_ratings(rank: np.ndarray, who: np.ndarray | None = None, players: int | None = None
                      ) -> list[dict[str, float]]:  # fmt: skip
    """openskill Plackett-Luce ratings of each entry after rating the games in order from their ranks.

    ``who`` (int[G, n], with ``players``): the player each column of each game stands for, where one player may
    sit in several seats of a game (the ladder's one agent against three of another): each seat is rated as a
    player of its own from the player's rating, and the player takes the mean of its seats' new mu and sigma.
    """
    try:
        from openskill.models import PlackettLuce
    except ImportError as exc:
        raise ImportError("the arena's ratings need openskill: pip install 'industry_env[arena]'") from exc
    model = PlackettLuce()
    if who is None:
        teams = [[model.rating()] for _ in range(rank.shape[1])]
        for game_ranks in rank.tolist():
            teams = model.rate(teams, ranks=game_ranks)
        return [{"mu": t[0].mu, "sigma": t[0].sigma, "ordinal": t[0].ordinal()} for t in teams]
    players = int(who.max()) + 1 if players is None else players
    mu, sigma = [model.rating().mu] * players, [model.rating().sigma] * players
    for game_ranks, seats in zip(rank.tolist(), who.tolist(), strict=True):
        rated = model.rate([[model.rating(mu=mu[p], sigma=sigma[p])] for p in seats], ranks=game_ranks)
        for p in set(seats):
            mine = [t[0] for t, q in zip(rated, seats, strict=True) if q == p]
            mu[p] = sum(r.mu for r in mine) / len(mine)
            sigma[p] = sum(r.sigma for r in mine) / len(mine)
    return [{"mu": m, "sigma": s, "ordinal": model.rating(mu=m, sigma=s).ordinal()}
            for m, s in zip(mu, sigma, strict=True)]  # fmt: skip


# ---------------------------------------------------------------------------------------------- the arena
def _resolve(spec: Any, slot: int, seed: int, game: str = DEFAULT_GAME,
             options: dict[str, Any] | None = None) -> tuple[Any, str]:  # fmt: skip
    """The agent object and label of one entry: a name (or ``module:callable``) via ``make_agent``, told the game's
    ``options`` (an agent that reads others, a policy of another map, is refused here), or an object."""
    if isinstance(spec, str):
        from . import agents

        make_agent = getattr(agents, "make_agent", None)
        if make_agent is None:
            raise ArenaError(f"agent {slot} {spec!r}: this install has no industry_env.agents.make_agent; "
                             "pass agent objects instead of names")  # fmt: skip
        try:
            try:
                agent = make_agent(spec, seed=agent_seed(seed, slot), game=game, options=options)
            except ValueError:
                if ":" not in spec or spec.startswith(("ppo:", "az:", "net:", "rllib:")):
                    raise
                agent = make_agent(spec, game=game, options=options)  # a user's object or function: used as given
        except (KeyError, ValueError, ImportError, AttributeError, TypeError) as exc:
            raise ArenaError(f"agent {slot} {spec!r}: {exc}") from exc  # make_agent's message lists the names
        return agent, spec
    if not (callable(getattr(spec, "act_batch", None)) or callable(getattr(spec, "act", None))) and callable(spec):
        from .agents import CallableAgent

        spec = CallableAgent(spec)  # a plain function (observation, action_mask) -> action
    if not (callable(getattr(spec, "act_batch", None)) or callable(getattr(spec, "act", None))):
        raise ArenaError(f"agent {slot}: {spec!r} is neither a name nor an agent (no act_batch or act method)")
    label = str(getattr(spec, "name", None) or type(spec).__name__)
    from .agents import Agent, as_agent

    if isinstance(spec, Agent):  # an object made for another game or map is refused now, naming both
        try:
            spec = as_agent(spec, game=game, options=options)
        except ValueError as exc:
            raise ArenaError(f"agent {slot} {label!r}: {exc}") from exc
    return spec, label


class Arena:
    """A tournament between agents, one per seat, over ``games`` games of ``game``; see the module docstring.

    ``agents``: names (``make_agent``, seeded from ``seed`` and the entry's index; a ``module:callable`` naming an
    agent object or a plain function is used as given), agent objects, or plain functions ``(observation,
    action_mask) -> action``, one per seat. ``num_players`` defaults to the number of agents (as the command line
    does); ``options`` are the game's options (Industry: ``balanced_draws``, ``board``).
    ``games`` is rounded up to a multiple of the number of seatings (``num_players``, or its factorial with
    ``all_orders``; a warning says so). ``batch_size`` games are played at once (results depend on it only
    through the agents' random draws). ``progress``: a tqdm bar if tqdm is installed.
    """

    def __init__(
        self,
        agents: Sequence[Any],
        num_players: int | None = None,
        games: int = 1000,
        seed: int = 0,
        balanced_draws: bool | None = None,
        batch_size: int = 1024,
        board: Any = None,
        progress: bool = False,
        all_orders: bool = False,
        game: str = DEFAULT_GAME,
        **options: Any,
    ) -> None:
        if isinstance(agents, str):
            agents = agents.split(",")
        agents = list(agents)
        try:
            self.spec = spec = load_game(game)
        except ValueError as exc:
            raise ArenaError(str(exc)) from None
        # Industry's options by their old names (they came before the suite)
        for name, value in (("balanced_draws", balanced_draws), ("board", board)):
            if value is not None:
                options[name] = value
        try:
            self.options = spec.check_options(options)
            num_players = len(agents) if num_players is None else num_players
            self.num_players = spec.check_num_players(num_players)
        except ValueError as exc:
            raise ArenaError(f"{exc}") from None
        if len(agents) != self.num_players:
            raise ArenaError(
                f"{self.num_players} players need {self.num_players} agents, one per seat (repeat a "
                f"name to seat it more than once, e.g. heuristic,random,random); got {len(agents)}"
            )
        if spec.engine_module is None:
            raise ArenaError(f"{spec.name} has no batched engine yet: the arena plays games on it")
        if isinstance(games, bool) or not isinstance(games, (int, np.integer)) or games <= 0:
            raise ArenaError(f"games={games!r}: must be a whole number above 0")
        if games > MAX_GAMES:
            raise ArenaError(f"games={games:,}: one arena plays at most {MAX_GAMES:,} games (it keeps every game's "
                             f"results); run several arenas with different seeds for more")  # fmt: skip
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
            raise ArenaError(f"seed={seed!r}: must be a whole number >= 0")
        if isinstance(batch_size, bool) or not isinstance(batch_size, (int, np.integer)) or batch_size <= 0:
            raise ArenaError(f"batch_size={batch_size!r}: must be a whole number above 0")
        self.seatings = seatings(self.num_players, all_orders)
        R = len(self.seatings)
        self.games_requested = int(games)
        self.games = -(-int(games) // R) * R
        if self.games != self.games_requested:
            warnings.warn(f"arena: {games} games rounded up to {self.games}, a multiple of the {R} seatings, so "
                          "that every agent plays every seat equally often", stacklevel=2)  # fmt: skip
        self.seed = int(seed)
        self.batch_size = int(batch_size)
        self.progress = progress
        data = {o.name for o in spec.options if o.data}
        self.options_json = {k: v for k, v in spec.options_to_json(self.options).items() if k not in data}
        resolved = [_resolve(a, j, self.seed, spec.id, self.options) for j, a in enumerate(agents)]
        self._names = [a for a in agents if isinstance(a, str)]  # what warmup.prepare tries once before the games
        self.agents = [a for a, _ in resolved]
        self.labels = _unique_labels([lab for _, lab in resolved])
        # entries sharing one object are asked together (one act_batch call per object and step)
        self._groups: list[tuple[Any, np.ndarray]] = []
        for j, a in enumerate(self.agents):
            for g, (obj, slots) in enumerate(self._groups):
                if obj is a:
                    self._groups[g] = (obj, np.append(slots, j))
                    break
            else:
                self._groups.append((a, np.array([j])))

    @property
    def balanced_draws(self) -> bool:
        """Industry's option (True for other games, which have none)."""
        return bool(self.options.get("balanced_draws", True))

    def schedule(self) -> tuple[np.ndarray, np.ndarray]:
        """(engine seed, seating) of every game: deal ``k`` is games ``k*R .. k*R + R - 1``, seatings 0..R-1."""
        R = len(self.seatings)
        seeds = np.repeat(deal_seeds(self.seed, self.games // R), R)
        seating = np.tile(np.arange(R, dtype=np.int64), self.games // R)
        return seeds, seating

    def run(self) -> ArenaResults:
        """Play every game and return the results."""
        n, G = self.num_players, self.games
        seeds, seating = self.schedule()
        rec = {k: np.zeros((G, n), np.float64) for k in ("points", "rank", "win_share")}
        pos = np.zeros((G, n), np.int64)
        seat = np.zeros((G, n), np.int64)
        start = np.zeros(G, np.int64)
        self._moves = np.zeros(n, np.int64)
        self._think = np.zeros(n, np.float64)
        # the engine's and the agents' compiles first, as a step of their own (said only when something compiles)
        warmup.prepare(self.spec.id, self._names, self.options, engine=True, who="the arena")
        bar = _Progress.start(G, self.spec, self.progress)
        t0 = time.perf_counter()
        try:
            for lo in range(0, G, self.batch_size):
                hi = min(G, lo + self.batch_size)

                def finished(ids: np.ndarray, state: Any, lo: int = lo) -> None:
                    points, rank, share = outcome(state, self.spec)
                    g = lo + ids
                    by_slot = seat[g]  # [N, n]: the seat of each entry
                    r = np.arange(ids.size)[:, None]
                    rec["points"][g] = points[r, by_slot]
                    rec["rank"][g] = rank[r, by_slot]
                    rec["win_share"][g] = share[r, by_slot]

                start[lo:hi], pos[lo:hi] = self._play(seeds[lo:hi], seating[lo:hi], seat[lo:hi], finished, bar)
        finally:
            if bar is not None:
                bar.close()
        elapsed = time.perf_counter() - t0
        return ArenaResults(
            labels=self.labels, num_players=n, seed=self.seed, game=self.spec.id, options=self.options_json,
            games_requested=self.games_requested, game_seed=seeds, seating=seating, starting_player=start,
            position=pos, seat=seat, points=rec["points"], rank=rec["rank"], win_share=rec["win_share"],
            moves=self._moves.copy(), think_seconds=self._think.copy(), elapsed_seconds=elapsed,
            batch_size=self.batch_size, seatings=self.seatings,
        )  # fmt: skip

    def _play(
        self,
        seeds: np.ndarray,
        seating: np.ndarray,
        seat: np.ndarray,
        finished: Callable[[np.ndarray, Any], None],
        bar: _Progress | None = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """Play the games ``seeds`` (with their ``seating``) to the end as one batch.

        Writes the seat of each entry into ``seat`` (int[B, n]) first, then calls ``finished(ids, state)`` with
        the indices (into ``seeds``) and the final states of the games that have just ended, as they end.
        Returns the seat that moves first in each game and the position of each entry. ``bar``: told the
        decisions of every game after each step.
        """
        n, B, engine = self.num_players, len(seeds), self.spec.engine
        state = engine.init(B, num_players=n, seed=seeds, **self.options)
        sp = np.asarray(state.current_player).astype(np.int64)  # the first to move (Industry: the Starting Player)
        slots = np.arange(n)
        position = self.seatings[seating]  # [B, n] by entry
        seat[:] = (sp[:, None] + position) % n
        entry_at_seat = np.empty((B, n), np.int64)
        entry_at_seat[np.arange(B)[:, None], seat] = slots
        ids = np.arange(B)
        decisions = np.zeros(B, np.int64)
        while ids.size:
            mask = engine.legal_action_mask(state)
            obs = engine.observe(state)
            mover = state.current_player.astype(np.int64)
            entry = entry_at_seat[ids, mover]
            actions = np.zeros(ids.size, np.int64)
            for agent, group in self._groups:
                rows = np.flatnonzero(np.isin(entry, group))
                if rows.size:
                    actions[rows] = self._ask(agent, group, entry[rows], obs[rows], mask[rows], ids[rows], seeds)
            state = engine.step(state, actions, mask=mask, inplace=True)
            decisions[ids] += 1
            over = np.asarray(state.terminated)
            if over.any():
                done = np.flatnonzero(over)
                finished(ids[done], engine.take(state, done))
                keep = np.flatnonzero(~over)
                ids = ids[keep]
                state = engine.take(state, keep)
            if bar is not None:
                running = np.zeros(B, bool)
                running[ids] = True
                bar.show(decisions[~running], decisions[running])
        return sp, position

    def _ask(self, agent, group: np.ndarray, entry: np.ndarray, obs: np.ndarray, mask: np.ndarray,
             ids: np.ndarray, seeds: np.ndarray) -> np.ndarray:  # fmt: skip
        """The actions of one agent object in the games ``ids``, checked legal; its time shared by the entries."""
        from .agents.base import AgentActionError, AgentInputError, check_actions  # every answer checked here

        t0 = time.perf_counter()
        try:
            if callable(getattr(agent, "act_batch", None)):
                a = agent.act_batch(obs, mask)
            else:
                a = [agent.act(o, m) for o, m in zip(obs, mask, strict=True)]
            dt = time.perf_counter() - t0
            a = check_actions(a, mask, self.labels[int(group[0])], spec=getattr(agent, "spec", None))
        except AgentActionError as exc:
            i = 0 if exc.row is None else exc.row
            k = int(entry[i])
            raise ArenaError(f"agent {k} ({self.labels[k]}) chose illegal action {exc.answer!r} in the game with "
                             f"engine seed {int(seeds[ids[i]])}: {exc.reason}") from exc  # fmt: skip
        except AgentInputError as exc:  # the agent refused what it was given: an agent of other sizes, say whose
            k = int(entry[0])
            played = self.spec.name + "".join(f", {key} {v}" for key, v in self.options_json.items())
            raise ArenaError(f"agent {k} ({self.labels[k]}) cannot read the games of this arena ({played}, "
                             f"observations of {obs.shape[-1]} floats): {exc}") from exc  # fmt: skip
        counts = np.bincount(entry, minlength=self.num_players)
        self._moves += counts
        self._think += dt * counts / max(len(obs), 1)
        return a


def _unique_labels(labels: list[str]) -> list[str]:
    """Labels made distinct: a repeated label gets '#1', '#2', ... in order."""
    out, seen = [], {}
    for lab in labels:
        if labels.count(lab) > 1:
            seen[lab] = seen.get(lab, 0) + 1
            lab = f"{lab}#{seen[lab]}"
        out.append(lab)
    return out


class _Progress:
    """The arena's progress bar over games (tqdm), whose estimate is honest: the engine's compile is a step of its
    own before it, and the games of a batch end together, so the bar counts the games finished plus the running
    games' share played so far (their decisions over the mean length of the finished games, at most 95%); before
    the first game ends it shows the decisions played and no estimate (tqdm's rate is then unknown). Where stderr
    is not a terminal (a log file, a pipe), a bar redrawn with ``\r`` would run into one long line: whole lines are
    written instead, one at each quarter of the games finished."""

    QUARTERS = 4  # the whole lines written where stderr is not a terminal

    def __init__(self, bar: Any, total: int = 0, desc: str = "") -> None:
        self.bar = bar
        self.total, self.desc, self.t0 = total, desc, time.perf_counter()
        self.games = 0  # games finished in earlier batches
        self.decisions = 0  # their decisions
        self.shown = 0.0  # when the bar was last drawn
        self.lines = 0  # the quarters written as whole lines (no bar)

    @classmethod
    def start(cls, total: int, spec: GameSpec, enabled: bool) -> _Progress | None:
        """The bar (its engine compiled before: :func:`.warmup.prepare`), or None (disabled, or tqdm not
        installed)."""
        if not enabled:
            return None
        import sys

        desc = f"arena ({spec.name})"
        try:
            terminal = sys.stderr.isatty()
        except (AttributeError, ValueError):
            terminal = False
        if not terminal:
            return cls(None, total, desc)
        try:
            from tqdm.auto import tqdm
        except ImportError:
            return None
        bar = tqdm(total=total, unit="game", desc=desc, dynamic_ncols=True,
                   bar_format="{desc}: {percentage:3.0f}%|{bar}| {n:.0f}/{total_fmt} games "
                              "[{elapsed}<{remaining}{postfix}]")  # fmt: skip
        return cls(bar)

    def show(self, finished: np.ndarray, running: np.ndarray) -> None:
        """The bar after a step: ``finished`` and ``running`` are the decisions of the batch's finished and
        running games."""
        games = self.games + finished.size
        decisions = self.decisions + int(finished.sum())
        share = 0.0
        if games:
            share = float(np.minimum(running / (decisions / games), 0.95).sum())
        if not running.size:  # the batch is over: its games count as finished from now on
            self.games, self.decisions = games, decisions
        if self.bar is None:
            self._line(games, decisions)
            return
        now = time.perf_counter()
        if running.size and now - self.shown < 0.2:  # a terminal redraw five times a second at most
            return
        self.shown = now
        self.bar.n = games + share
        self.bar.set_postfix_str(f"{decisions + int(running.sum()):,} decisions", refresh=False)
        self.bar.refresh()

    def _line(self, games: int, decisions: int) -> None:
        """A whole line for each quarter of the games now finished."""
        import sys

        while self.lines < self.QUARTERS and games >= self.total * (self.lines + 1) / self.QUARTERS:
            self.lines += 1
            print(f"{self.desc}: {games:,}/{self.total:,} games, {decisions:,} decisions, "
                  f"{time.perf_counter() - self.t0:.0f} s", file=sys.stderr, flush=True)  # fmt: skip

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


# ---------------------------------------------------------------------------------------------- command line
def positive_int(text: str) -> int:
    """An argparse type: a whole number above 0 (the arena's and the ladder's counts)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{value} must be above 0")
    return value


def configure(parser: argparse.ArgumentParser) -> None:
    """Options of ``industry-env arena``."""
    parser.add_argument("--agents", required=True, metavar="A,B,C[,D]",
                        help="one agent per seat, comma-separated: names (random, heuristic, ppo, ...), ppo:PATH "
                             "(a policy file or MaskablePPO zip you trained), rllib:PATH, or module:callable; repeat "
                             "a name to seat it more than once")  # fmt: skip
    parser.add_argument("--games", type=positive_int, default=1000,
                        help="games to play, rounded up to a multiple of the players (default 1000)")  # fmt: skip
    parser.add_argument("--seed", type=int, default=0, help="arena seed: deals and agents' seeds (default 0)")
    parser.add_argument("--players", type=int, default=None,
                        help="number of players (default: the number of agents)")  # fmt: skip
    parser.add_argument("--output-dir", default=None, metavar="DIR",
                        help="folder for arena.json, arena.csv and arena.png (default arena-results/GAME, e.g. "
                             "arena-results/industry)")  # fmt: skip
    parser.add_argument("--batch-size", type=positive_int, default=1024, help="games played at once (default 1024)")
    add_game_arguments(parser)
    parser.add_argument("--all-orders", action="store_true",
                        help="play every order of the agents around the table (n! seatings: 6 or 24), not only the "
                             "n rotations, so that who sits next to whom is balanced too")  # fmt: skip
    parser.add_argument("--no-plot", action="store_true", help="skip the PNG (no matplotlib needed)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


OUTPUT_FILES = ("arena.json", "arena.csv", "arena.png")
DEFAULT_OUTPUT = "arena-results"  # each game's results in its own folder under it: arena-results/<game>/


def check_output_dir(path: Path, files: Sequence[str] = OUTPUT_FILES) -> None:
    """Create ``path`` if needed and make sure each of ``files`` can be written there, before any game is played."""
    if path.exists() and not path.is_dir():
        raise ArenaError(f"--output-dir {path}: exists and is not a folder")
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = path / f".arena-write-test-{os.getpid()}"
        probe.write_text("", encoding="utf-8")
        probe.unlink()
    except OSError as exc:
        raise ArenaError(f"--output-dir {path}: cannot write there ({exc.strerror or exc})") from exc
    for name in files:
        try:
            check_output_file(path / name, "--output-dir")
        except ValueError as exc:
            raise ArenaError(str(exc)) from None


def run(args: argparse.Namespace) -> int:
    """Play the tournament, print the table, write arena.json, arena.csv and arena.png to the output folder."""
    names = [a.strip() for a in args.agents.split(",")]
    if any(not a for a in names):
        raise ArenaError(f"--agents {args.agents!r}: an empty name (agents are separated by single commas)")
    spec, options = game_options(args)
    players = args.players if args.players is not None else len(names)
    if len(names) != players:
        raise ArenaError(f"--agents: {len(names)} agents for --players {players}: one agent per seat")
    if not args.no_plot:
        try:
            _matplotlib_figure()
        except ImportError as exc:
            raise ArenaError(f"{exc} (or pass --no-plot)") from exc
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the rounding is reported below
        arena = Arena(names, num_players=players, games=args.games, seed=args.seed, batch_size=args.batch_size,
                      progress=not args.no_progress, all_orders=args.all_orders, game=spec.id,
                      **options)  # fmt: skip
    out = Path(args.output_dir) if args.output_dir is not None else Path(DEFAULT_OUTPUT) / spec.id
    check_output_dir(out, OUTPUT_FILES[:2] if args.no_plot else OUTPUT_FILES)  # before any game is played
    if arena.games != args.games:
        print(f"note: {args.games} games rounded up to {arena.games}, a multiple of the {len(arena.seatings)} "
              "seatings, so that every agent plays every seat equally often")  # fmt: skip
    results = arena.run()
    print(results)
    print()
    written = [results.to_json(out / "arena.json"), results.to_csv(out / "arena.csv")]
    if not args.no_plot:
        results.plot(out / "arena.png")
        written.append(out / "arena.png")
    print("wrote " + ", ".join(str(p) for p in written))
    return 0
