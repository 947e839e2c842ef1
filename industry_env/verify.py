"""Differential verification: a game's batched engine against its reference engine, game by game.

``industry-env verify --game ID --games 100000`` (or ``python -m industry_env.verify``) plays that many games with
the same seeds and the same random legal actions in both engines, the batched games as one batch per chunk and
group (a player count and an option variant), the reference games one by one, and checks at every step: the
legal-action mask, the player to move, the observation (of a rotating seat, or every seat with ``--all-seats``: a
game with hidden information must show each seat exactly what the reference shows it), the rewards (zero until
the step that ends a game, then ``returns()``), the terminal flags, and at the end the final scores and the whole
position (``to_game(...).to_json()`` equals the reference's JSON). It reports games and steps checked and every
disagreement with its seed and step. ``tests/industry/test_engine_differential.py`` runs the same harness in CI.

Games cycle through the game's player counts and option variants (``GameSpec.variants``: Industry's draw
variants, Age of Industry's maps and editions); where the game gives weights of a player that reaches every phase
often (``GameSpec.exploration_weights``: Industry's "developer", who develops often and bids low), half the games
play by them and half uniformly. The steps alternate the ways a training loop calls the engine: legality
re-derived from the rules or read from the mask (``step(..., mask=mask)``), and the next mask taken from
``legal_action_mask`` or written by the step itself (``next_mask=``). ``--backend numpy|numba`` picks the batched
engine's backend where it has two (Industry's ``engine.use_backend``).

Ctrl-C stops the run at once (running chunks are abandoned), prints how many games were checked, and exits
with status 130.
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import signal
import sys
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .gameargs import add_game_arguments, given_options
from .registry import DEFAULT_GAME, load_game


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


def _sample(mask: np.ndarray, policy: np.ndarray, rng: np.random.Generator,
            weights: np.ndarray | None = None) -> np.ndarray:  # fmt: skip
    """One legal action per game: uniform (policy 0) or by ``weights`` (policy 1; uniform where None)."""
    w = mask * (np.where(policy[:, None] == 1, weights[None, :], 1.0) if weights is not None else 1.0)
    cs = np.cumsum(w, axis=1)
    u = rng.random(mask.shape[0]) * cs[:, -1]
    return np.argmax(cs > u[:, None], axis=1)


def game_configs(spec: Any, num_games: int, first_seed: int = 0, options: dict[str, Any] | None = None,
                 ) -> list[tuple[int, int, dict[str, Any], int]]:  # fmt: skip
    """(seed, players, options, policy) of ``num_games`` games of ``spec``: every player count and every option
    variant in turn (only those with ``options``, where given), then both policies (0 uniform, 1 the game's
    exploration weights, where it has them), seeds ``first_seed + i``."""
    counts = list(range(spec.min_players, spec.max_players + 1))
    variants = []
    for v in spec.variants():
        v = {**v, **(options or {})}
        if v not in variants:
            variants.append(v)
    policies = 2 if spec.exploration_weights(**variants[0]) is not None else 1
    k = len(counts) * len(variants)
    return [(first_seed + i, counts[i % len(counts)], variants[(i // len(counts)) % len(variants)],
             (i // k) % policies) for i in range(num_games)]  # fmt: skip


def differential(num_games: int, first_seed: int = 0, all_seats: bool = False, max_reports: int = 20,
                 backend: str | None = None) -> Report:  # fmt: skip
    """:func:`differential_game` of the default game (Industry), a rotating seat's observation by default."""
    return differential_game(DEFAULT_GAME, num_games, first_seed, all_seats, max_reports, backend=backend)


def _backend(engine: Any, backend: str | None, name: str) -> Any:
    """The engine's ``use_backend(backend)`` context where it has one; ValueError for a backend it lacks."""
    if hasattr(engine, "use_backend"):
        return engine.use_backend(backend)
    if backend is not None:
        raise ValueError(f"--backend {backend}: {name} has one batched engine")
    return contextlib.nullcontext()


def differential_game(game: str, num_games: int, first_seed: int = 0, all_seats: bool = True,
                      max_reports: int = 20, options: dict[str, Any] | None = None,
                      backend: str | None = None) -> Report:  # fmt: skip
    """Play ``num_games`` games of ``game`` in its batched engine and its reference engine, with the same seeds and
    random legal actions, and compare every decision (see the module docstring); ``options``: only the variants
    with these options (e.g. one map); ``backend``: the batched engine's backend where it has two."""
    spec = load_game(game)
    with _backend(spec.engine, backend, spec.name):
        return _differential_game(spec, num_games, first_seed, all_seats, max_reports, options)


def _differential_game(spec: Any, num_games: int, first_seed: int, all_seats: bool, max_reports: int,
                       options: dict[str, Any] | None) -> Report:  # fmt: skip
    t0 = time.perf_counter()
    E = spec.engine
    rep = Report(games=num_games)
    groups: dict[tuple, list[tuple[int, int, dict[str, Any], int]]] = {}
    for cfg in game_configs(spec, num_games, first_seed, options):
        groups.setdefault((cfg[1], tuple(sorted(cfg[2].items()))), []).append(cfg)
    rng = np.random.default_rng(first_seed)
    for (n, _), cfgs in groups.items():
        options = cfgs[0][2]
        seeds = np.array([c[0] for c in cfgs], np.int64)
        policy = np.array([c[3] for c in cfgs], np.int64)
        weights = spec.exploration_weights(**options)
        B = len(cfgs)
        state = E.init(B, num_players=n, seed=seeds, **options)
        games = [spec.reference(n, seed=int(s), **options) for s in seeds]
        failed = np.zeros(B, bool)

        def fail(i: int, t: int, what: str, n: int = n, options: dict = options, seeds: np.ndarray = seeds,
                 failed: np.ndarray = failed) -> None:  # fmt: skip
            failed[i] = True
            if len(rep.disagreements) < max_reports:
                rep.disagreements.append(f"seed {int(seeds[i])} ({n} players, {options}) step {t}: {what}")

        def name(a: int, options: dict = options) -> str:
            return spec.action_to_string(int(a), **options)

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
                    diff = [name(a) for a in np.flatnonzero(g.legal_action_mask() != mask[i])[:8]]
                    fail(i, t, f"legal-action mask differs at {diff}")
                    continue
                for k in seats:
                    rep.observations += 1
                    if not np.array_equal(spec.observe(g, k), obs[k][i]):
                        fail(i, t, f"observation of player {k} differs")
                        break
            actions = _sample(mask, policy, rng, weights)
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
                    fail(i, t, f"after {name(actions[i])}: terminated/rewards "
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
        help="the batched engine's backend, where it has two (Industry: numba where installed, else numpy)",
    )


def _chunk(args: tuple[str, int, int, bool, str | None, dict[str, Any]]) -> Report:
    game, games, seed, all_seats, backend, options = args
    return differential_game(game, games, seed, all_seats=all_seats, options=options, backend=backend)


def _warm(args: tuple[str, str | None, dict[str, Any]]) -> None:
    """Start the game's batched engine (the first variant's) in one worker before any chunk: with numba's disk cache
    cold it compiles there, once, and every other worker then loads it from the cache, instead of each compiling
    it at the same time. In a worker, not in the parent, so that the parent runs no compiled code before it forks
    the workers (not every numba threading layer is safe to use in a process forked after it started)."""
    game, backend, options = args
    spec = load_game(game)
    _, n, variant, _ = game_configs(spec, 1, 0, options)[0]
    with _backend(spec.engine, backend, spec.name):
        spec.engine.init(1, num_players=n, seed=0, **variant)


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
    with _backend(spec.engine, args.backend, spec.name) as name:  # a backend the engine lacks is refused now
        if name is not None:
            print(f"batched engine backend: {name}", flush=True)
    t0 = time.perf_counter()
    jobs = [(game, min(args.chunk, args.games - k), args.seed + k, args.all_seats, args.backend, options)
            for k in range(0, args.games, args.chunk)]  # fmt: skip
    total = Report()
    pool = multiprocessing.Pool(max(1, args.workers), initializer=_ignore_interrupts)
    try:
        pool.apply(_warm, ((game, args.backend, options),))
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
