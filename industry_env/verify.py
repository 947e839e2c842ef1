"""Differential verification: the batched engine against the reference engine, game by game.

``industry-env verify --games 100000`` (or ``python -m industry_env.verify``) plays that many games with the
same seeds and the same random legal actions in both engines, the batched games as one batch per chunk and the
reference games one by one, and checks at every step: the legal-action mask, the player to move, the
observation (of a rotating seat, or every seat with ``--all-seats``), the rewards (zero until the step that
ends a game, then ``Game.returns()``), the terminal flags, and at the end the final scores and the whole
position (``to_game(...).to_json()`` equals the reference's JSON). It reports games and steps checked and every
disagreement with its seed and step. ``tests/test_engine_differential.py`` runs the same harness in CI.

``--backend numpy|numba`` picks the batched engine's backend (default: the engine's, see ``engine.backend()``).
The steps alternate the ways a training loop calls the engine: legality re-derived from the rules or read from
the mask (``step(..., mask=mask)``), and the next mask taken from ``legal_action_mask`` or written by the step
itself (``next_mask=``), so every path of both backends is compared with the reference.

Games cycle through 3 and 4 players and both draw variants; half play uniformly random legal actions, half a
"developer" policy that favours developing fields and low bids, so that every phase (payments, subsidies, the
Bank discount) is reached often.

``--game ID`` verifies another game of the suite the same way (:func:`differential_game`): its player counts
and option variants (``GameSpec.variants``, e.g. Age of Industry's maps and editions) in turn, uniformly random
legal actions, and at every step the mask, the player to move, the observation of a rotating seat (of every
seat with ``--all-seats``: a game with hidden information must show each seat exactly what the reference shows
it), the rewards and terminal flags, the final scores and the whole final position (``to_game(...).to_json()``
equals the reference's JSON).

Ctrl-C stops the run at once (running chunks are abandoned), prints how many games were checked, and exits
with status 130.
"""

from __future__ import annotations

import argparse
import multiprocessing
import signal
import sys
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .gameargs import add_game_arguments, given_options
from .games.industry import actions as A
from .games.industry import engine as E
from .games.industry.observation import observe_game
from .games.industry.reference import Game
from .registry import DEFAULT_GAME, load_game

# Per-action weights of the "developer" policy: develop often, bid low, subsidy rarely.
_DEV_WEIGHTS = np.ones(A.NUM_ACTIONS)
_DEV_WEIGHTS[A.PASS] = 4.0
_DEV_WEIGHTS[A.BID : A.SELL] = 2.0 / np.arange(1, A.SELL - A.BID + 1)
_DEV_WEIGHTS[A.DEVELOP : A.DONE] = 25.0
_DEV_WEIGHTS[A.SUBSIDY] = 0.05


@dataclass
class Report:
    """What a differential run checked and where the engines disagreed."""

    games: int = 0
    steps: int = 0
    observations: int = 0
    seconds: float = 0.0
    disagreements: list[str] = field(default_factory=list)

    def merge(self, other: Report) -> None:
        """Add another chunk's counts and disagreements."""
        self.games += other.games
        self.steps += other.steps
        self.observations += other.observations
        self.disagreements += other.disagreements

    def summary(self) -> str:
        """One line: games, steps and observations checked, disagreements found."""
        return (f"checked {self.games} games, {self.steps} steps, {self.observations} observations in "
                f"{self.seconds:.1f} s: {len(self.disagreements)} disagreement(s)")  # fmt: skip


def configs(num_games: int, first_seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Seeds, players (3/4), draw variants and policies (0 uniform, 1 developer) of ``num_games`` games."""
    i = np.arange(num_games)
    seeds = first_seed + i
    players = np.where(i % 2 == 0, 3, 4)
    balanced = (i // 2) % 2 == 0
    policy = (i // 4) % 2
    return seeds, players, balanced, policy


def _sample(mask: np.ndarray, policy: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One legal action per game: uniform (policy 0) or by the developer weights (policy 1)."""
    w = mask * np.where(policy[:, None] == 1, _DEV_WEIGHTS[None, :], 1.0)
    cs = np.cumsum(w, axis=1)
    u = rng.random(mask.shape[0]) * cs[:, -1]
    return np.argmax(cs > u[:, None], axis=1)


def differential(
    num_games: int, first_seed: int = 0, all_seats: bool = False, max_reports: int = 20, backend: str | None = None
) -> Report:
    """Play ``num_games`` games (seeds ``first_seed + i``) in both engines, the batch as one; compare everything.

    ``backend``: the batched engine's backend for this run ('numpy' or 'numba'; None: the current one).
    """
    with E.use_backend(backend):
        return _differential(num_games, first_seed, all_seats, max_reports)


def _differential(num_games: int, first_seed: int, all_seats: bool, max_reports: int) -> Report:
    t0 = time.perf_counter()
    seeds, players, balanced, policy = configs(num_games, first_seed)
    state = E.init(num_games, num_players=players, seed=seeds, balanced_draws=balanced)
    games = [Game(int(n), seed=int(s), balanced_draws=bool(b))
             for n, s, b in zip(players, seeds, balanced, strict=True)]  # fmt: skip
    rng = np.random.default_rng(first_seed)
    rep = Report(games=num_games)
    failed = np.zeros(num_games, bool)

    def fail(i: int, t: int, what: str) -> None:
        failed[i] = True
        if len(rep.disagreements) < max_reports:
            rep.disagreements.append(f"seed {int(seeds[i])} ({players[i]} players, balanced={bool(balanced[i])}) "
                                     f"step {t}: {what}")  # fmt: skip

    t = 0
    next_mask = np.zeros((num_games, A.NUM_ACTIONS), bool)
    while True:
        live = np.flatnonzero(~state.terminated & ~failed)
        if live.size == 0:
            break
        mask = E.legal_action_mask(state) if t % 3 == 0 else next_mask.copy()  # else written by the last step
        cur = state.current_player
        seats = range(4) if all_seats else [t]
        obs = {k: E.observe(state, k % state.num_players.astype(np.int64)) for k in seats}
        for i in live.tolist():
            g = games[i]
            if g.current_player != cur[i]:
                fail(i, t, f"player to move {cur[i]} != reference {g.current_player}")
                continue
            gm = g.legal_action_mask()
            if not np.array_equal(gm, mask[i]):
                diff = [A.action_to_string(a) for a in np.flatnonzero(gm != mask[i])[:8]]
                fail(i, t, f"legal-action mask differs at {diff}")
                continue
            n = g.num_players
            for k in seats if all_seats else [t % n]:
                if k >= n:
                    continue
                rep.observations += 1
                if not np.array_equal(observe_game(g, k), obs[k if all_seats else t][i]):
                    fail(i, t, f"observation of player {k} differs")
                    break
        actions = _sample(mask, policy, rng)
        state = E.step(state, actions, mask=mask if t % 2 else None, next_mask=next_mask)
        rep.steps += int(live.size)
        for i in live.tolist():
            if failed[i]:
                continue
            g = games[i]
            g.apply(int(actions[i]))
            n = g.num_players
            want = np.zeros(4, np.float32)
            want[:n] = g.returns()
            if bool(state.terminated[i]) != g.is_over or not np.array_equal(state.rewards[i], want):
                got = f"{bool(state.terminated[i])}/{state.rewards[i].tolist()}"
                fail(i, t, f"after {A.action_to_string(int(actions[i]))}: terminated/rewards {got} != "
                           f"{g.is_over}/{want.tolist()}")  # fmt: skip
            elif g.is_over:
                sc = E.scores(state)[i, :n].tolist()
                if sc != g.scores():
                    fail(i, t, f"final scores {sc} != reference {g.scores()}")
                elif E.to_game(state, i).to_json() != g.to_json():
                    fail(i, t, "final position differs from the reference's JSON")
        t += 1
    rep.seconds = time.perf_counter() - t0
    return rep


def game_configs(spec: Any, num_games: int, first_seed: int = 0,
                 options: dict[str, Any] | None = None) -> list[tuple[int, int, dict[str, Any]]]:  # fmt: skip
    """(seed, players, options) of ``num_games`` games of ``spec``: every player count and every option variant
    in turn (only those with ``options``, where given), seeds ``first_seed + i``."""
    counts = list(range(spec.min_players, spec.max_players + 1))
    variants = []
    for v in spec.variants():
        v = {**v, **(options or {})}
        if v not in variants:
            variants.append(v)
    return [(first_seed + i, counts[i % len(counts)], variants[(i // len(counts)) % len(variants)])
            for i in range(num_games)]  # fmt: skip


def differential_game(game: str, num_games: int, first_seed: int = 0, all_seats: bool = True,
                      max_reports: int = 20, options: dict[str, Any] | None = None) -> Report:  # fmt: skip
    """Play ``num_games`` games of ``game`` in its batched engine and its reference engine, with the same seeds and
    uniformly random legal actions, and compare every decision (see the module docstring); ``options``: only
    the variants with these options (e.g. one map)."""
    t0 = time.perf_counter()
    spec = load_game(game)
    E = spec.engine
    rep = Report(games=num_games)
    groups: dict[tuple, list[tuple[int, int, dict[str, Any]]]] = {}
    for cfg in game_configs(spec, num_games, first_seed, options):
        groups.setdefault((cfg[1], tuple(sorted(cfg[2].items()))), []).append(cfg)
    rng = np.random.default_rng(first_seed)
    for (n, _), cfgs in groups.items():
        options = cfgs[0][2]
        seeds = np.array([c[0] for c in cfgs], np.int64)
        B = len(cfgs)
        state = E.init(B, num_players=n, seed=seeds, **options)
        games = [spec.reference(n, seed=int(s), **options) for s in seeds]
        failed = np.zeros(B, bool)

        def fail(i: int, t: int, what: str, n: int = n, options: dict = options, seeds: np.ndarray = seeds,
                 failed: np.ndarray = failed) -> None:  # fmt: skip
            failed[i] = True
            if len(rep.disagreements) < max_reports:
                rep.disagreements.append(f"seed {int(seeds[i])} ({n} players, {options}) step {t}: {what}")

        t = 0
        next_mask = np.zeros((B, spec.num_actions(**options)), bool)
        while True:
            live = np.flatnonzero(~np.asarray(state.terminated) & ~failed)
            if live.size == 0:
                break
            mask = np.asarray(E.legal_action_mask(state)) if t % 3 == 0 else next_mask.copy()
            cur = np.asarray(state.current_player)
            seats = range(n) if all_seats else [t % n]
            obs = {k: np.asarray(E.observe(state, np.full(B, k))) for k in seats}
            for i in live.tolist():
                g = games[i]
                if g.current_player != int(cur[i]):
                    fail(i, t, f"player to move {int(cur[i])} != reference {g.current_player}")
                    continue
                if not np.array_equal(g.legal_action_mask(), mask[i]):
                    diff = np.flatnonzero(g.legal_action_mask() != mask[i])[:8].tolist()
                    fail(i, t, f"legal-action mask differs at actions {diff}")
                    continue
                for k in seats:
                    rep.observations += 1
                    if not np.array_equal(spec.observe(g, k), obs[k][i]):
                        fail(i, t, f"observation of player {k} differs")
                        break
            actions = np.zeros(B, np.int64)
            for i in live.tolist():
                legal = np.flatnonzero(mask[i])
                actions[i] = legal[rng.integers(legal.size)] if legal.size else 0
            state = E.step(state, actions, mask=mask if t % 2 else None, next_mask=next_mask)
            rep.steps += int(live.size)
            for i in live.tolist():
                if failed[i]:
                    continue
                g = games[i]
                g.apply(int(actions[i]))
                want = np.zeros(np.asarray(state.rewards).shape[1], np.float32)
                want[:n] = g.returns()
                if bool(state.terminated[i]) != g.is_over or not np.array_equal(state.rewards[i], want):
                    fail(i, t, f"after action {int(actions[i])}: terminated/rewards "
                               f"{bool(state.terminated[i])}/{np.asarray(state.rewards[i]).tolist()} != "
                               f"{g.is_over}/{want.tolist()}")  # fmt: skip
                elif g.is_over:
                    sc = np.asarray(E.scores(state))[i, :n].tolist()
                    if sc != list(g.scores()):
                        fail(i, t, f"final scores {sc} != reference {g.scores()}")
                    elif E.to_game(state, i).to_json() != g.to_json():
                        fail(i, t, "final position differs from the reference's JSON")
            t += 1
    rep.seconds = time.perf_counter() - t0
    return rep


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``industry-env verify``."""
    add_game_arguments(parser)
    parser.add_argument("--games", type=int, default=100_000, help="number of games to check (default 100000)")
    parser.add_argument("--seed", type=int, default=0, help="first seed (games use seed, seed+1, ...)")
    parser.add_argument("--chunk", type=int, default=2000, help="games stepped as one batch (default 2000)")
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--all-seats", action="store_true", help="compare every seat's observation at every step")
    parser.add_argument(
        "--backend",
        choices=("numpy", "numba"),
        default=None,
        help="Industry: the batched engine's backend (default: numba where installed, else numpy)",
    )


def _chunk(args: tuple[str, int, int, bool, str | None, dict[str, Any]]) -> Report:
    game, games, seed, all_seats, backend, options = args
    if game != "industry":
        return differential_game(game, games, seed, all_seats=all_seats, options=options)
    return differential(games, seed, all_seats, backend=backend)


def _ignore_interrupts() -> None:
    """Worker processes leave Ctrl-C to the parent, which stops them (no traceback from every worker)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def run(args: argparse.Namespace) -> int:
    """Run the long differential check and print what was checked; exit status 1 on any disagreement."""
    for name in ("games", "chunk", "workers"):  # a check that checked nothing must not report OK
        if getattr(args, name) < 1:
            raise ValueError(f"--{name} {getattr(args, name)}: must be at least 1")
    if not 0 <= args.seed <= 2**63 - 1 - args.games:
        raise ValueError(
            f"--seed {args.seed}: the games use seeds seed .. seed + games - 1, which must lie in 0 .. 2**63 - 1"
        )
    game = getattr(args, "game", DEFAULT_GAME)
    spec, options = given_options(args)
    if spec.engine_module is None:
        raise ValueError(f"--game {game}: {spec.name} has no batched engine yet, so there is nothing to verify")
    if game == "industry" and options:
        raise ValueError(f"--option/--board/--plain-draws: Industry's check plays both draw variants on the shipped "
                         f"board; it takes no options ({', '.join(options)} given)")  # fmt: skip
    if game == "industry":
        with E.use_backend(args.backend) as name:
            print(f"batched engine backend: {name}", flush=True)
    elif args.backend is not None:
        raise ValueError(f"--backend: Industry's choice of engine; {spec.name} has one batched engine")
    t0 = time.perf_counter()
    jobs = [(game, min(args.chunk, args.games - k), args.seed + k, args.all_seats, args.backend, options)
            for k in range(0, args.games, args.chunk)]  # fmt: skip
    total = Report()
    pool = multiprocessing.Pool(max(1, args.workers), initializer=_ignore_interrupts)
    try:
        for done, rep in enumerate(pool.imap(_chunk, jobs), start=1):
            total.merge(rep)
            total.seconds = time.perf_counter() - t0
            if done < len(jobs):  # the last chunk's figures are the result line below, printed once
                print(f"chunk {done}/{len(jobs)}: {total.summary()}", flush=True)
    except KeyboardInterrupt:
        pool.terminate()  # the running chunks stop now, not at their end
        pool.join()
        total.seconds = time.perf_counter() - t0
        print(f"interrupted: {total.summary()} (games of unfinished chunks are not counted)", file=sys.stderr,
              flush=True)  # fmt: skip
        for d in total.disagreements:
            print("DISAGREEMENT:", d, file=sys.stderr)
        return 130
    pool.close()
    pool.join()
    for d in total.disagreements:
        print("DISAGREEMENT:", d)
    ok = not total.disagreements and total.games == args.games and total.steps > 0
    print(("OK: " if ok else "FAILED: ") + total.summary())
    return 0 if ok else 1


if __name__ == "__main__":
    _parser = argparse.ArgumentParser(prog="python -m industry_env.verify", description=__doc__.splitlines()[0])
    configure(_parser)
    raise SystemExit(run(_parser.parse_args()))
