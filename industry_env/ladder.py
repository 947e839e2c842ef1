"""A game's ladder: every agent against every other, one table with intervals and ratings.

``Ladder(["random", "heuristic", "mcts"], game="industry", games=400, seed=0).run()`` plays one arena
(:class:`.arena.Arena`, seat-rotated, its deals and seeds) for every ordered pair of different agents: the
*match* (A, B) is one A against ``n - 1`` of B (the suite's usual measure, "A won x% of the games against three
B"; a fair share is ``1/n``). Every match plays the same deals (the ladder's seed is each arena's seed). The
result (:class:`LadderResults`) holds each match's arena table, and:

- the **matrix**: A's win rate against the B's of each match, with its 95% Wilson interval (the arena's);
- the **ratings**: openskill Plackett-Luce over every game of every match, the matches interleaved (the first game
  of each, then the second, ...: a sequential rating would otherwise weigh the last match least), an agent seated
  in several seats of a game rated from each seat and taking the mean of their updates
  (:func:`.arena.openskill_ratings` with ``who``); the table is ordered by the ordinal (mu - 3 sigma).

``industry-env ladder --game G [--agents a,b,c] [--games N] [--seed S] [--output-dir DIR]`` writes
``ladder.md`` (the table the docs show) and ``ladder.json`` (everything, each match's arena table included),
each whole or not at all; an existing ladder in the folder is kept unless ``--overwrite`` is given. Without
``--agents`` the ladder plays every agent of the game that plays without a file (an agent that needs one, 20th
Century's ``az`` without ``path=``, is left out and the ladder says so).
"""

from __future__ import annotations

import argparse
import json
import time
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from .arena import Arena, ArenaError, ArenaResults, check_output_dir, openskill_ratings, positive_int
from .core.outputs import write_text_atomic
from .gameargs import add_game_arguments, game_options
from .registry import DEFAULT_GAME, load_game

OUTPUT_FILES = ("ladder.md", "ladder.json")
DEFAULT_OUTPUT = "ladder-results"  # each game's ladder in a folder of its own: ladder-results/<game>/


@dataclass
class LadderResults:
    """The matches of a ladder (``matches[(a, b)]``: the arena of agent ``a`` against ``n - 1`` of agent ``b``,
    indices into ``agents``) and the statistics drawn from them."""

    agents: list[str]
    game: str
    num_players: int
    games: int  # games of each match
    seed: int
    matches: dict[tuple[int, int], ArenaResults]
    left_out: dict[str, str] = field(default_factory=dict)  # agents of the game not played, and why
    elapsed_seconds: float = 0.0
    finished_at: str = ""  # UTC, ISO 8601
    ratings: list[dict[str, float]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.ratings:
            try:
                self.ratings = self._ratings()
            except ImportError:
                self.ratings = []  # the table says which extra brings them

    def rated_games(self) -> tuple[np.ndarray, np.ndarray]:
        """(ranks, who), each [G * M, n]: every game of the M matches in the order they are rated, interleaved
        (the first game of every match, then the second, ...: a rating is sequential, so no match comes last)
        and the agent of each seat (the agent's index into ``agents``)."""
        ranks, who = [], []
        for (a, b), res in self.matches.items():
            ranks.append(res.rank)
            seats = np.full(res.rank.shape, b, np.int64)
            seats[:, 0] = a
            who.append(seats)
        n = self.num_players
        return (np.stack(ranks, 1).reshape(-1, n), np.stack(who, 1).reshape(-1, n))

    def _ratings(self) -> list[dict[str, float]]:
        if not self.matches:
            return []
        ranks, who = self.rated_games()
        return openskill_ratings(ranks, who, len(self.agents))

    def cell(self, a: int, b: int) -> dict[str, Any]:
        """Agent ``a``'s row of the match against ``b`` (the arena's table row: win_rate, win_ci_low, ...)."""
        return self.matches[(a, b)].table()[0]

    def order(self) -> list[int]:
        """The agents' indices, best first: by rating ordinal, else by mean win rate over the matches."""
        if self.ratings:
            return sorted(range(len(self.agents)), key=lambda i: -self.ratings[i]["ordinal"])
        return sorted(range(len(self.agents)), key=lambda i: -self.mean_win_rate(i))

    def mean_win_rate(self, a: int) -> float:
        """Agent ``a``'s win rate averaged over its matches (each match weighs the same)."""
        rates = [self.cell(a, b)["win_rate"] for b in range(len(self.agents)) if b != a]
        return float(np.mean(rates)) if rates else 0.0

    def to_dict(self) -> dict[str, Any]:
        """Everything as plain JSON: the settings, the ratings, the matrix and each match's arena table."""
        spec = load_game(self.game)
        rows = []
        for i in self.order():
            row: dict[str, Any] = {"agent": self.agents[i], "mean_win_rate": self.mean_win_rate(i)}
            if self.ratings:
                row.update(self.ratings[i])
            row["against"] = {self.agents[b]: {k: self.cell(i, b)[k] for k in ("win_rate", "win_ci_low",
                                                                                 "win_ci_high", "mean_points",
                                                                                 "ms_per_move")}
                              for b in range(len(self.agents)) if b != i}  # fmt: skip
            rows.append(row)
        return {
            "ladder": {"game": self.game, "game_name": spec.name, "agents": self.agents,
                       "num_players": self.num_players, "games_per_match": self.games, "seed": self.seed,
                       "elapsed_seconds": self.elapsed_seconds, "finished_at": self.finished_at,
                       "left_out": self.left_out,
                       "match": f"one agent against {self.num_players - 1} of another, seats rotated (the arena's)",
                       "win_rate": "95% Wilson interval; a win shared by k tied winners counts 1/k",
                       "rating": "openskill PlackettLuce over every game in order; ordinal = mu - 3 sigma"},
            "table": rows,
            "matches": [{"agent": self.agents[a], "opponent": self.agents[b],
                         "arena": {"games": res.games, "elapsed_seconds": res.elapsed_seconds,
                                   "options": res.options, "table": res.table()}}
                        for (a, b), res in self.matches.items()],
        }  # fmt: skip

    def to_markdown(self) -> str:
        """The ladder as a markdown table: a row per agent (best first), its win rate as one seat against
        ``n - 1`` of each other agent, its mean over them and its rating."""
        spec = load_game(self.game)
        others = self.num_players - 1
        order = self.order()
        head = ["agent", *(f"vs {others} {self.agents[b]}" for b in order), "mean"]
        if self.ratings:
            head.append("rating (ordinal)")
        lines = [f"{spec.name}: each cell is the row's agent in one seat of {self.num_players} against "
                 f"{others} of the column's, its win rate over {self.games:,} seat-rotated games with the 95% "
                 f"Wilson interval (a fair share is {100 / self.num_players:.0f}%); seed {self.seed}, "
                 f"{self.finished_at or 'not dated'}, {self.elapsed_seconds / 60:.1f} minutes.", "",
                 "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]  # fmt: skip
        for a in order:
            cells = [f"`{self.agents[a]}`"]
            for b in order:
                if a == b:
                    cells.append("")
                    continue
                c = self.cell(a, b)
                cells.append(f"{100 * c['win_rate']:.1f}% [{100 * c['win_ci_low']:.1f}, {100 * c['win_ci_high']:.1f}]")
            cells.append(f"{100 * self.mean_win_rate(a):.1f}%")
            if self.ratings:
                r = self.ratings[a]
                cells.append(f"{r['ordinal']:.1f} ({r['mu']:.1f} ± {r['sigma']:.1f})")
            lines.append("| " + " | ".join(cells) + " |")
        if not self.ratings:
            lines += ["", "(no ratings: they need openskill, pip install 'industry_env[arena]')"]
        if self.left_out:
            lines += ["", "Not played: " + "; ".join(f"`{k}` ({v})" for k, v in self.left_out.items()) + "."]
        return "\n".join(lines) + "\n"

    def write(self, folder: str | Path) -> list[Path]:
        """``ladder.md`` and ``ladder.json`` in ``folder`` (each whole or not at all); returns their paths."""
        folder = Path(folder)
        md, js = folder / OUTPUT_FILES[0], folder / OUTPUT_FILES[1]
        write_text_atomic(js, json.dumps(self.to_dict(), indent=1) + "\n")
        write_text_atomic(md, self.to_markdown())
        return [md, js]


def playable_agents(game: str, options: dict[str, Any] | None = None) -> tuple[list[str], dict[str, str]]:
    """The game's agents that play without a file (each built once, as the arena would build it), and those left
    out with the reason (an agent that needs a file or an extra)."""
    from .agents import agent_names, make_agent

    names, left = [], {}
    for name in agent_names(game):
        try:
            make_agent(name, seed=0, game=game, options=options)
        except (ValueError, ImportError) as exc:
            left[name] = str(exc)
            continue
        names.append(name)
    return names, left


class Ladder:
    """Every agent of ``agents`` (names, at least two, all different) against every other in ``game``; see the
    module docstring. ``games`` per match (rounded up to whole deals, as the arena does), ``num_players`` the
    game's default, ``options`` the game's options; the other arguments are the arena's."""

    def __init__(self, agents: Sequence[str] | None = None, game: str = DEFAULT_GAME, games: int = 100,
                 seed: int = 0, num_players: int | None = None, batch_size: int = 1024, progress: bool = False,
                 **options: Any) -> None:  # fmt: skip
        try:
            self.spec = spec = load_game(game)
            self.options = spec.check_options(options)
            self.num_players = spec.check_num_players(spec.default_players if num_players is None else num_players)
        except ValueError as exc:
            raise ArenaError(str(exc)) from None
        self.left_out: dict[str, str] = {}
        if agents is None:
            agents, self.left_out = playable_agents(spec.id, self.options)
        if isinstance(agents, str):
            agents = agents.split(",")
        agents = [a.strip() if isinstance(a, str) else a for a in agents]
        if any(not isinstance(a, str) or not a for a in agents):
            raise ArenaError(f"ladder agents {agents!r}: names of agents (make_agent's), none empty")
        if len(agents) < 2:
            raise ArenaError(f"ladder agents {agents!r}: at least two, to play each against the other")
        twice = sorted({a for a in agents if agents.count(a) > 1})
        if twice:
            raise ArenaError(f"ladder agents: {', '.join(twice)} named twice (each agent once)")
        if isinstance(games, bool) or not isinstance(games, (int, np.integer)) or games <= 0:
            raise ArenaError(f"games={games!r}: must be a whole number above 0")
        self.agents = list(agents)
        self.games, self.seed, self.batch_size, self.progress = int(games), int(seed), batch_size, progress
        # every match built now, so that a name that is wrong is refused before any game is played
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the rounding of games to whole deals: the table says the count
            self.arenas = {(a, b): self._arena(a, b) for a in range(len(agents)) for b in range(len(agents)) if a != b}

    def _arena(self, a: int, b: int) -> Arena:
        lineup = [self.agents[a]] + [self.agents[b]] * (self.num_players - 1)
        return Arena(lineup, num_players=self.num_players, games=self.games, seed=self.seed,
                     batch_size=self.batch_size, progress=self.progress, game=self.spec.id,
                     **self.options)  # fmt: skip

    def run(self) -> LadderResults:
        """Play every match, in order (each agent against the others, agents in the order given)."""
        t0 = time.perf_counter()
        matches = {}
        for (a, b), arena in self.arenas.items():
            matches[(a, b)] = arena.run()
        games = next(iter(self.arenas.values())).games
        return LadderResults(agents=self.agents, game=self.spec.id, num_players=self.num_players, games=games,
                             seed=self.seed, matches=matches, left_out=self.left_out,
                             elapsed_seconds=time.perf_counter() - t0,
                             finished_at=datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"))  # fmt: skip


# ---------------------------------------------------------------------------------------------- command line
def configure(parser: argparse.ArgumentParser) -> None:
    """Options of ``industry-env ladder``."""
    parser.add_argument("--agents", default=None, metavar="A,B,C",
                        help="the agents, comma-separated, each once: names (random, heuristic, mcts, ppo, az, ...), "
                             "ppo:PATH, az:PATH, net:PATH, or module:callable (default: every agent of the game that "
                             "plays without a file)")  # fmt: skip
    parser.add_argument("--games", type=positive_int, default=100,
                        help="games of each match, rounded up to a multiple of the players (default 100)")
    parser.add_argument("--seed", type=int, default=0, help="the seed of every match's arena (default 0)")
    parser.add_argument("--players", type=int, default=None, help="players a game (default: the game's default)")
    parser.add_argument("--output-dir", default=None, metavar="DIR",
                        help="folder for ladder.md and ladder.json (default ladder-results/GAME)")  # fmt: skip
    parser.add_argument("--overwrite", action="store_true",
                        help="replace a ladder already in --output-dir (refused otherwise)")  # fmt: skip
    parser.add_argument("--batch-size", type=positive_int, default=1024, help="games played at once (default 1024)")
    add_game_arguments(parser)
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


def _check_output_dir(path: Path, overwrite: bool) -> None:
    """Create ``path`` if needed; refuse a folder that is a file, unwritable, or holds a ladder (unless
    ``overwrite``), before any game is played."""
    there = [name for name in OUTPUT_FILES if (path / name).exists()]
    if there and not overwrite:
        raise ArenaError(f"--output-dir {path}: holds a ladder ({', '.join(there)}); pass --overwrite to replace "
                         f"it, or another folder")  # fmt: skip
    check_output_dir(path, OUTPUT_FILES)


def run(args: argparse.Namespace) -> int:
    """Play the ladder, print its table, write ladder.md and ladder.json."""
    spec, options = game_options(args)
    agents = None if args.agents is None else [a.strip() for a in args.agents.split(",")]
    ladder = Ladder(agents, game=spec.id, games=args.games, seed=args.seed, num_players=args.players,
                    batch_size=args.batch_size, progress=not args.no_progress, **options)  # fmt: skip
    out = Path(args.output_dir) if args.output_dir is not None else Path(DEFAULT_OUTPUT) / spec.id
    _check_output_dir(out, args.overwrite)
    for name, why in ladder.left_out.items():
        print(f"note: {name} left out: {why}")
    results = ladder.run()
    print(results.to_markdown())
    print("wrote " + ", ".join(str(p) for p in results.write(out)))
    return 0


__all__ = ["DEFAULT_OUTPUT", "OUTPUT_FILES", "Ladder", "LadderResults", "configure", "playable_agents", "run"]
