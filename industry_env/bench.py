"""Benchmark of a game's batched engine: its backends, its threads and its reference engine, side by side in one run.

``industry-env bench [--game ID]`` (or ``python -m industry_env.bench``) measures, for any game of the suite with a
batched engine (through the registry), env steps per second of random legal play (legal-action mask, one action
sampled uniformly from it, step; finished games reset in place) at batch sizes 1, 64, 1024, 4096 and 16384, for each
backend of the engine (Industry's ``numpy`` and ``numba``; one compiled backend for a game with only that), with the
ratios between them and to the reference engine doing the same work one game at a time, all measured in the same
run; games per second (steps/s divided by the mean length of a random game: the games of a batch start together and
finish in waves, so counting those that end in a few seconds measures the window, not the engine); ``rollout``
(whole random games played inside one call) at batch 1024 and 4096 where the engine has it; bytes of state per game;
peak memory; the per-call overhead (microseconds a call at batch 1); and the start-up from the disk cache to the
first step (a fresh process) and, with ``--cold``, the cold compile. Figures go to a JSON file
(``bench-results-GAME.json`` unless ``--output``). ``--quick`` runs a short smoke version.

Threads: the run prints numba's threading layer and thread count (:mod:`industry_env.core.runtime`), warns on a
machine with more than 2 cores left with the workqueue layer, and measures the compiled loops at batch 1024 and up
(and ``rollout``) on each thread count of ``--threads`` (default ``1,N``, N all of numba's threads), printing each
one's ratio to one thread: the threads column. ``--threads 1,2,4,8,16`` gives the scaling curve of a big machine.

Each backend runs its fast path, as a training loop would: ``step(state, actions, inplace=True, mask=mask)``
(the batch updated in place, no copy a step; the actions checked against the mask they were sampled from) and
``reset(..., inplace=True)``. Each batch starts with its games at every stage of a game, as the batch of a long
training run has them (:func:`steady_batch`; ``--from-new``: from new games, where the opening, whose steps cost
least, fills a short run). The numpy backend computes ``legal_action_mask`` each step; the compiled one
writes the next mask in the step itself (``next_mask=mask``), and ``reset`` the masks of the new games.
Each is measured twice: this loop of three calls ("api", what a policy's loop does), and the same random play
by ``engine.random_step`` (list, draw and play each game's action in one call where the engine fuses it), the
entry for random opponents and playouts. ``--copy`` measures the functional API instead: ``step(state, actions)``
and ``reset(state, done)`` return new States, and every step re-derives legality.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import numpy as np

from .core.outputs import check_output_file, write_text_atomic
from .core.spec import GameSpec
from .gameargs import add_game_arguments, given_options
from .registry import DEFAULT_GAME, load_game

BATCH_SIZES = (1, 64, 1024, 4096, 16384)
STEADY_POOL = 1024  # games played to every stage of a game, tiled into each measured batch (bench_engine)
ROLLOUT_SIZES = (1024, 4096)
THREADED_FROM = 1024  # the batch sizes whose compiled loops are measured on each thread count


def available_backends() -> tuple[str, ...]:
    """The backends of an engine with two (Industry's): numpy, and numba if it is installed."""
    return ("numpy", "numba") if importlib.util.find_spec("numba") is not None else ("numpy",)


def engine_backends(engine: ModuleType) -> tuple[str, ...]:
    """The backends ``engine`` can run here: numpy and numba for an engine that switches (``use_backend``), else
    its one compiled backend, named ``numba``."""
    return available_backends() if hasattr(engine, "use_backend") else ("numba",)


@contextlib.contextmanager
def _backend(engine: ModuleType, name: str) -> Iterator[None]:
    """Run a block on ``engine``'s backend ``name`` (an engine with one backend: as it is)."""
    if hasattr(engine, "use_backend"):
        with engine.use_backend(name):
            yield
    else:
        yield


@contextlib.contextmanager
def on_threads(n: int | None) -> Iterator[None]:
    """Run a block with numba's launches on ``n`` threads (None: as they are), then restore the count."""
    if n is None or importlib.util.find_spec("numba") is None:
        yield
        return
    import numba

    from .core import runtime

    before = numba.get_num_threads()
    runtime.set_threads(n)
    try:
        yield
    finally:
        numba.set_num_threads(before)


def _engine(game: str) -> tuple[GameSpec, ModuleType]:
    spec = load_game(game)
    if spec.engine_module is None:
        raise ValueError(f"--game {game}: {spec.name} has no batched engine yet, so there is nothing to bench")
    return spec, spec.engine


_steady: dict[tuple, Any] = {}  # the pools of steady_batch, built once a run per game, backend and options


def steady_batch(E: ModuleType, batch_size: int, num_players: int, seed: int = 0,
                 options: dict[str, Any] | None = None, pool: int = STEADY_POOL) -> Any:  # fmt: skip
    """A batch of ``batch_size`` games at every stage of a game, as the batch of a long training run is (games
    started together sit in their opening for the first tens of steps, where a step costs least: a short run from
    new games measures the opening). ``pool`` games are played by random legal moves, each to a stage drawn
    uniformly below the length by which nine games in ten end (a game that ends first starts again, as in
    training), then tiled to ``batch_size`` rows. The pool is built once a process for each engine, backend and
    options (its play costs about ``1.25 * pool`` random games)."""
    options = options or {}
    key = (E.__name__, getattr(E, "backend", lambda: "")(), num_players, seed, tuple(sorted(options.items())), pool)
    if key not in _steady:
        rng = np.random.default_rng(seed)
        probe = E.init(max(pool // 4, 1), num_players=num_players, seed=seed, **options)
        length = 0
        while np.count_nonzero(probe.terminated) < 0.9 * probe.batch_size:
            probe, _ = E.random_step(probe, rng, inplace=True)
            length += 1
        state = E.init(pool, num_players=num_players, seed=seed + pool, **options)
        stage = rng.integers(0, max(length, 1), pool)
        parts, rows_of = [], []
        for t in range(int(stage.max()) + 1):
            rows = np.flatnonzero(stage == t)
            if rows.size:
                parts.append(E.take(state, rows))
                rows_of.append(rows)
            state, _ = E.random_step(state, rng, inplace=True)
            done = np.asarray(state.terminated)
            if done.any():
                state = E.reset(state, done, inplace=True)
        snapshot = E.concat(parts)
        _steady[key] = E.take(snapshot, np.argsort(np.concatenate(rows_of)))
    games = _steady[key]
    return E.take(games, np.arange(batch_size) % games.batch_size)


def bench_engine(
    batch_size: int,
    seconds: float,
    num_players: int = 4,
    seed: int = 0,
    fast: bool = True,
    backend: str = "numpy",
    random_step: bool = False,
    game: str = DEFAULT_GAME,
    options: dict[str, Any] | None = None,
    steady_pool: int = STEADY_POOL,
) -> dict[str, float]:
    """Random legal play in one batch for about ``seconds``: steps/s, games/s, time per step and per game-step.

    ``fast``: the fast path (see the module docstring); ``False`` measures the functional API (a new State
    every step, legality re-derived from the rules). ``random_step``: the same play by ``engine.random_step``
    (draw and step in one call, no mask handed out). ``steady_pool``: the batch starts at every stage of a game,
    tiled from that many games (:func:`steady_batch`); 0: from new games (the opening weighs most).
    """
    _, E = _engine(game)
    with _backend(E, backend):
        next_mask = fast and backend == "numba" and not random_step
        if steady_pool:
            state = steady_batch(E, batch_size, num_players, seed, options, steady_pool)
        else:
            state = E.init(batch_size, num_players=num_players, seed=seed, **(options or {}))
        rng = np.random.default_rng(seed)
        for _ in range(3):  # warm-up (first calls build the board tables, load compiled code)
            state = E.step(state, E.sample_legal(E.legal_action_mask(state), rng), inplace=fast)
            state, _ = E.random_step(state, rng, inplace=fast)
        mask = E.legal_action_mask(state)
        steps = games = calls = 0
        t0 = time.perf_counter()
        while True:
            if random_step:
                state, _ = E.random_step(state, rng, inplace=fast)
            else:
                if not next_mask:
                    mask = E.legal_action_mask(state)
                actions = E.sample_legal(mask, rng)
                if next_mask:
                    E.step(state, actions, inplace=True, mask=mask, next_mask=mask)
                else:
                    state = E.step(state, actions, inplace=fast, mask=mask if fast else None)
            steps += batch_size
            calls += 1
            done = state.terminated
            if np.count_nonzero(done):  # (``done.any()`` costs 0.7 us at batch 1, a fifth of a compiled step)
                games += int(done.sum())
                state = E.reset(state, done, inplace=fast, next_mask=mask if next_mask else None)  # new masks
            elapsed = time.perf_counter() - t0
            if elapsed >= seconds and calls >= 3:
                break
    return {
        "backend": backend,
        "random_step": random_step,
        "batch_size": batch_size,
        "steps_per_second": steps / elapsed,
        "games_per_second": games / elapsed,
        "microseconds_per_batch_step": 1e6 * elapsed / calls,
        "nanoseconds_per_game_step": 1e9 * elapsed / steps,
        "state_bytes_per_game": state.state_bytes_per_game,
    }


def bench_rollout(batch_size: int, seconds: float, backend: str, num_players: int = 4, game: str = DEFAULT_GAME,
                  options: dict[str, Any] | None = None) -> dict[str, float]:  # fmt: skip
    """``engine.rollout``: whole random games from new, repeated for about ``seconds``; steps/s and games/s."""
    _, E = _engine(game)
    options = options or {}
    with _backend(E, backend):
        E.rollout(E.init(2, num_players=num_players, **options), 10)  # warm-up
        steps = games = 0
        key = 0
        t0 = time.perf_counter()
        while True:
            state = E.init(batch_size, num_players=num_players, seed=key * batch_size, **options)
            state, played = E.rollout(state, 10_000, key=key, inplace=True)
            steps += int(played.sum())
            games += int(state.terminated.sum())
            key += 1
            elapsed = time.perf_counter() - t0
            if elapsed >= seconds:
                break
    return {"backend": backend, "batch_size": batch_size, "steps_per_second": steps / elapsed,
            "games_per_second": games / elapsed, "nanoseconds_per_game_step": 1e9 * elapsed / steps}  # fmt: skip


def bench_reference(seconds: float, num_players: int = 4, seed: int = 0, game: str = DEFAULT_GAME,
                    options: dict[str, Any] | None = None) -> dict[str, float]:  # fmt: skip
    """The reference engine on the same work: mask, uniform legal action, apply; new game when one ends."""
    spec = load_game(game)
    options = options or {}
    rng = np.random.default_rng(seed)
    g = spec.reference(num_players, seed=seed, **options)
    steps = games = 0
    t0 = time.perf_counter()
    while True:
        legal = np.flatnonzero(g.legal_action_mask())
        g.apply(int(legal[int(rng.random() * legal.size)]))
        steps += 1
        if g.is_over:
            games += 1
            g = spec.reference(num_players, seed=seed + games, **options)
        elapsed = time.perf_counter() - t0
        if elapsed >= seconds:
            break
    return {"steps_per_second": steps / elapsed, "games_per_second": games / elapsed,
            "microseconds_per_step": 1e6 * elapsed / steps, "steps_per_game": steps / max(games, 1),
            "games": games}  # fmt: skip


def peak_step_memory(batch_size: int, backend: str = "numpy", game: str = DEFAULT_GAME, num_players: int = 4,
                     options: dict[str, Any] | None = None) -> int:  # fmt: skip
    """Peak bytes numpy allocates during one mask + sample + step of a batch (tracemalloc)."""
    _, E = _engine(game)
    with _backend(E, backend):
        state = E.init(batch_size, num_players=num_players, seed=0, **(options or {}))
        rng = np.random.default_rng(0)
        E.step(state, E.sample_legal(E.legal_action_mask(state), rng))  # warm-up
        tracemalloc.start()
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        E.step(state, E.sample_legal(E.legal_action_mask(state), rng))
        peak = tracemalloc.get_traced_memory()[1] - base
        tracemalloc.stop()
    return int(peak)


# ---------------------------------------------------------------------------------------------- any game, simply
def _uniform_legal(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row of ``mask`` (0 for a row with none)."""
    w = rng.random(mask.shape) * mask
    return w.argmax(axis=1)


def bench_game_engine(game: str, batch_size: int, seconds: float, num_players: int | None = None,
                      seed: int = 0, **options: object) -> dict[str, float]:  # fmt: skip
    """``game``'s batched engine in random legal play for about ``seconds`` through its plainest calls only: mask,
    uniform legal action, step (in place, with the mask), finished games reset in place; steps/s and time per
    game-step."""
    spec, eng = _engine(game)
    n = spec.default_players if num_players is None else spec.check_num_players(num_players)
    state = eng.init(batch_size, num_players=n, seed=seed, **options)
    rng = np.random.default_rng(seed)
    mask = np.asarray(eng.legal_action_mask(state))
    steps = calls = 0
    t0 = time.perf_counter()
    while True:
        state = eng.step(state, _uniform_legal(mask, rng), inplace=True, mask=mask)
        steps += batch_size
        calls += 1
        done = np.asarray(state.terminated)
        if done.any():
            state = eng.reset(state, done, inplace=True)
        mask = np.asarray(eng.legal_action_mask(state))
        elapsed = time.perf_counter() - t0
        if elapsed >= seconds and calls >= 3:
            break
    return {"batch_size": batch_size, "steps_per_second": steps / elapsed,
            "nanoseconds_per_game_step": 1e9 * elapsed / steps,
            "state_bytes_per_game": int(state.state_bytes_per_game)}  # fmt: skip


def bench_game_reference(game: str, seconds: float, num_players: int | None = None, seed: int = 0,
                         **options: object) -> dict[str, float]:  # fmt: skip
    """``game``'s reference engine on the same work, one game at a time: mask, uniform legal action, apply."""
    spec = load_game(game)
    n = spec.default_players if num_players is None else spec.check_num_players(num_players)
    return bench_reference(seconds, n, seed, game, dict(options))


_GAME_START = """
import sys, time
t0 = time.perf_counter()
import numpy as np
from industry_env.registry import load_game
spec = load_game(sys.argv[1])
E = spec.engine
s = E.init(1, num_players=spec.default_players, seed=0)
E.step(s, np.flatnonzero(np.asarray(E.legal_action_mask(s))[0])[:1], inplace=True)
print(time.perf_counter() - t0)
"""


def game_start_up_seconds(game: str, cold: bool) -> float:
    """Seconds from importing ``game``'s engine to its first step in a fresh process (compiled backend): from the
    disk cache (``cold=False``; run once before so that the cache is there), or compiling into an empty cache."""
    env = dict(os.environ, INDUSTRY_ENV_BACKEND="numba")
    with tempfile.TemporaryDirectory() as cache:
        if cold:
            env["NUMBA_CACHE_DIR"] = cache
        else:
            subprocess.run([sys.executable, "-c", _GAME_START, game], env=env, check=True, capture_output=True)
        out = subprocess.run([sys.executable, "-c", _GAME_START, game], env=env, check=True, capture_output=True,
                             text=True)  # fmt: skip
    return float(out.stdout.split()[-1])


def start_up_seconds(cold: bool, game: str = DEFAULT_GAME) -> float:
    """:func:`game_start_up_seconds` (the old name, Industry by default)."""
    return game_start_up_seconds(game, cold)


# ---------------------------------------------------------------------------------------------- the run
def _whole_numbers(text: str) -> list[int]:
    """A comma-separated list of whole numbers (``--threads``, ``--batch``), or [] where any is not one."""
    try:
        return [int(x) for x in str(text).split(",") if x.strip()]
    except ValueError:
        return []


def thread_counts(text: str | None) -> list[int]:
    """``--threads``: the thread counts to measure, 1 first (the baseline of the ratios); default 1 and all."""
    import numba

    most = numba.config.NUMBA_NUM_THREADS
    if text is None:
        return sorted({1, numba.get_num_threads()})
    counts = _whole_numbers(text)
    if not counts or any(not 1 <= c <= most for c in counts):
        raise ValueError(f"--threads {text}: thread counts from 1 to {most} (NUMBA_NUM_THREADS), comma-separated, "
                         "e.g. --threads 1,2")  # fmt: skip
    return sorted({1, *counts})


def batch_sizes(text: str | None, quick: bool = False) -> tuple[int, ...]:
    """``--batch``: the batch sizes to measure, smallest first; default :data:`BATCH_SIZES` (1 and 64 with
    ``--quick``)."""
    if text is None:
        return (1, 64) if quick else BATCH_SIZES
    sizes = _whole_numbers(text)
    if not sizes or any(s < 1 for s in sizes):
        raise ValueError(f"--batch {text}: batch sizes of 1 or more, comma-separated, e.g. --batch 4096,16384")
    return tuple(sorted(set(sizes)))


def _runtime_line() -> tuple[dict[str, Any], list[str]]:
    """The compiled runtime's figures for the JSON file, and the lines to print (the warning, if any)."""
    if importlib.util.find_spec("numba") is None:
        return {}, ["numba is not installed: the numpy backend only"]
    import numba

    from .core import runtime

    lines = [runtime.describe()]
    warning = runtime.workqueue_warning()
    if warning:
        lines.append(warning)
    return {"threading_layer": runtime.active_layer(), "reason": runtime.REASON, "threads": runtime.threads(),
            "numba": numba.__version__}, lines  # fmt: skip


def default_output(game: str) -> str:
    """Where ``industry-env bench --game GAME`` writes its figures unless told: ``bench-results-GAME.json``."""
    return f"bench-results-{game}.json"


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``industry-env bench``."""
    add_game_arguments(parser)
    parser.add_argument("--quick", action="store_true", help="short smoke run (batch sizes 1 and 64, 0.3 s each)")
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds of play per batch size (default 3)")
    parser.add_argument("--players", type=int, default=None, help="players per game (default: the game's default)")
    parser.add_argument("--output", default=None,
                        help="JSON file for the figures (default bench-results-GAME.json, e.g. "
                             "bench-results-industry.json: each game's figures in a file of their own)")  # fmt: skip
    parser.add_argument("--backend", choices=("numpy", "numba"), action="append", default=None,
                        help="measure only this backend (repeatable; default: every installed)")  # fmt: skip
    parser.add_argument("--batch", default=None, metavar="N[,N...]",
                        help="batch sizes to measure (default 1,64,1024,4096,16384); rollout runs at those from "
                             "1024 (default 1024 and 4096)")  # fmt: skip
    parser.add_argument("--threads", default=None, metavar="N[,N...]",
                        help="thread counts for the compiled loops from batch 1024 and rollout, each with its ratio "
                             "to one thread (default: 1 and all of numba's threads; e.g. 1,2,4,8,16)")  # fmt: skip
    parser.add_argument("--no-envs", action="store_true",
                        help="skip the environments section (AEC env against connect four, the Gymnasium and "
                             "vector envs against the raw engine)")  # fmt: skip
    parser.add_argument(
        "--cold", action="store_true", help="also time the compiled backend's cold compile (into an empty cache: ~30 s)"
    )
    parser.add_argument("--copy", action="store_true",
                        help="measure the functional API (step and reset return a new State, step re-derives "
                             "legality) instead of the fast path (step(..., inplace=True, mask=mask), "
                             "reset(..., inplace=True))")  # fmt: skip
    parser.add_argument("--from-new", action="store_true",
                        help="time each batch from new games (the opening, where a step costs least, weighs most) "
                             "instead of games at every stage of a game, as a long training run has them")  # fmt: skip


def run(args: argparse.Namespace) -> int:
    """Run the benchmark of a game's engine, print the table and write the JSON file."""
    spec, options = given_options(args)
    if args.output is None:  # one file a game: a run of another game never overwrites this one's figures
        args.output = default_output(spec.id)
    check_output_file(args.output)  # before the run, not after it: the figures must not be lost
    if not args.seconds > 0:
        raise ValueError(f"--seconds {args.seconds}: must be more than 0")
    spec, E = _engine(spec.id)
    game = spec.id
    n = spec.default_players if args.players is None else spec.check_num_players(args.players, "--players")
    have = engine_backends(E)
    backends = tuple(dict.fromkeys(args.backend or have))
    for b in backends:
        if b not in have:
            raise ValueError(f"--backend {b}: {spec.name}'s engine runs {' and '.join(have)} here")
    compiled = "numba" in backends
    counts = thread_counts(getattr(args, "threads", None)) if compiled else [1]
    sizes = batch_sizes(getattr(args, "batch", None), args.quick)
    rollout_sizes = ((64,) if args.quick else ROLLOUT_SIZES) if getattr(args, "batch", None) is None else tuple(
        s for s in sizes if s >= THREADED_FROM)  # fmt: skip
    seconds = 0.3 if args.quick else args.seconds
    fast = not args.copy
    pool = 0 if getattr(args, "from_new", False) else 64 if args.quick else STEADY_POOL
    shown = "".join(f", {k} {v}" for k, v in spec.options_to_json(options).items() if k in options)
    runtime_figures, lines = _runtime_line()
    for line in lines:
        print(line)
    ref = bench_reference(max(seconds, 2.0), n, game=game, options=options)  # long enough to finish several games
    if fast:
        print("fast path: step(state, actions, inplace=True, mask=mask), reset(..., inplace=True); numba also "
              "writes the next mask in the step (next_mask=mask)  (--copy: the functional API)")  # fmt: skip
    else:
        print("functional API: step(state, actions) and reset(state, done) return a new State")
    print(f"{spec.name}{shown}, {n} players: reference engine {ref['steps_per_second']:,.0f} steps/s, "
          f"{ref['games_per_second']:,.1f} games/s ({ref['microseconds_per_step']:.1f} us a step)")  # fmt: skip
    print(f"games/s = steps/s / {ref['steps_per_game']:.0f} steps (the mean length of a random game)")
    print("two loops: 'api' = legal_action_mask, sample_legal, step (what a policy's loop does); 'random_step' "
          "= engine.random_step (draw and step in one call)")  # fmt: skip
    if pool:
        print(f"each batch starts with its games at every stage of a game, as in a long training run ({pool:,} games "
              "played to stages drawn uniformly over a game's length, tiled; --from-new: new games)")  # fmt: skip
    else:
        print("each batch starts from new games: the opening, where a step costs least, weighs most")
    loops = ("api", "random_step")
    head = "".join(f" {b + ' ' + loop:>18} {'ns/step':>8}" for loop in loops for b in backends)
    ratio = ""
    if len(backends) == 2:
        ratio = "".join(f" {'numba/numpy ' + ('api' if loop == 'api' else 'fused'):>17}" for loop in loops)
    threads_head = "".join(f" {f'{c} vs 1 thread':>14}" for c in counts[1:])
    print(f"{'batch':>6}{head}{ratio} {'x reference':>12} {'games/s':>10} {'step peak MB':>13}{threads_head}")
    rows: dict[str, list[dict[str, float]]] = {b: [] for b in backends}
    fused: dict[str, list[dict[str, float]]] = {b: [] for b in backends}
    scaling: list[dict[str, Any]] = []
    for size in sizes:
        line = f"{size:>6}"
        for loop, table in (("api", rows), ("random_step", fused)):
            for b in backends:
                with on_threads(counts[-1] if b == "numba" else None):
                    r = bench_engine(size, seconds, n, fast=fast, backend=b, random_step=loop != "api", game=game,
                                     options=options, steady_pool=pool)  # fmt: skip
                r["speedup_vs_reference"] = r["steps_per_second"] / ref["steps_per_second"]
                # Steady-state games/s is steps/s over the mean game length (see the module docstring).
                r["games_finished_in_window_per_second"] = r["games_per_second"]
                r["games_per_second"] = r["steps_per_second"] / ref["steps_per_game"]
                if loop == "api":
                    r["step_peak_bytes"] = peak_step_memory(size, b, game, n, options)
                table[b].append(r)
                line += f" {r['steps_per_second']:>18,.0f} {r['nanoseconds_per_game_step']:>8,.0f}"
        if len(backends) == 2:
            for table in (rows, fused):
                table["numba"][-1]["speedup_vs_numpy"] = (table["numba"][-1]["steps_per_second"]
                                                          / table["numpy"][-1]["steps_per_second"])  # fmt: skip
                line += f" {table['numba'][-1]['speedup_vs_numpy']:>17.1f}"
        last = fused[backends[-1]][-1]
        line += f" {last['speedup_vs_reference']:>12,.1f} {last['games_per_second']:>10,.1f}"
        line += f" {rows[backends[-1]][-1]['step_peak_bytes'] / 2**20:>13.1f}"
        if compiled and len(counts) > 1 and size >= THREADED_FROM:
            curve = {}
            for loop, table in (("api", rows), ("random_step", fused)):
                per = {counts[-1]: table["numba"][-1]["steps_per_second"]}
                for c in counts[:-1]:
                    with on_threads(c):
                        per[c] = bench_engine(size, seconds, n, fast=fast, backend="numba", random_step=loop != "api",
                                              game=game, options=options,
                                              steady_pool=pool)["steps_per_second"]  # fmt: skip
                curve[loop] = {str(c): per[c] for c in counts}
            scaling.append({"batch_size": size, "steps_per_second": curve})
            line += "".join(f" {'/'.join(f'{curve[lp][str(c)] / curve[lp][str(1)]:.2f}' for lp in loops):>14}"
                            for c in counts[1:])  # fmt: skip
        print(line, flush=True)
    if scaling:
        print(f"threads columns: steps/s on N threads over 1 thread, api/random_step, from batch {THREADED_FROM:,}")
    rollouts: dict[str, list[dict[str, float]]] = {b: [] for b in backends}
    if hasattr(E, "rollout"):
        for size in rollout_sizes:
            line = f"rollout, batch {size}:"
            for b in backends:
                with on_threads(counts[-1] if b == "numba" else None):
                    r = bench_rollout(size, seconds, b, n, game, options)
                if b == "numba" and len(counts) > 1:
                    r["threads"] = {str(counts[-1]): r["steps_per_second"]}
                    for c in counts[:-1]:
                        with on_threads(c):
                            r["threads"][str(c)] = bench_rollout(size, seconds, b, n, game, options)["steps_per_second"]
                rollouts[b].append(r)
                line += f"  {b} {r['steps_per_second']:,.0f} steps/s ({r['nanoseconds_per_game_step']:.0f} ns/step)"
                if "threads" in r:
                    line += "".join(f", {c} threads {r['threads'][str(c)] / r['threads']['1']:.2f}x one"
                                    for c in counts[1:])  # fmt: skip
            if len(backends) == 2:
                ratio_r = rollouts["numba"][-1]["steps_per_second"] / rollouts["numpy"][-1]["steps_per_second"]
                line += f"  numba/numpy {ratio_r:.1f}"
            print(line, flush=True)
    peak_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # Linux reports KiB
    bytes_per_game = rows[backends[0]][0]["state_bytes_per_game"]
    print(f"state: {bytes_per_game} bytes per game; peak memory (process RSS): {peak_rss / 2**20:.0f} MiB")
    overhead = {}  # measured at batch 1 (absent where --batch leaves it out)
    if sizes[0] == 1:
        overhead = {b: {"api": rows[b][0]["microseconds_per_batch_step"],
                        "random_step": fused[b][0]["microseconds_per_batch_step"]} for b in backends}  # fmt: skip
    for b in backends:
        if overhead:
            print(f"{b}: per-call overhead at batch 1: {overhead[b]['api']:.1f} us a step of the api loop (mask, "
                  f"sample, step), {overhead[b]['random_step']:.1f} us a random_step")  # fmt: skip
        big = [r for r in fused[b] if r["batch_size"] >= 1024]
        if big:
            ns = [r["nanoseconds_per_game_step"] for r in big]
            print(f"{b}: per-game cost of random_step from batch {big[0]['batch_size']} to {big[-1]['batch_size']}: "
                  f"{min(ns):.0f}-{max(ns):.0f} ns a game step (max/min {max(ns) / min(ns):.2f})")  # fmt: skip
    start = {}
    if compiled:
        start["warm_start_seconds"] = game_start_up_seconds(game, cold=False)
        print(f"numba: import to first step from the disk cache: {start['warm_start_seconds']:.2f} s")
        if args.cold:
            start["cold_compile_seconds"] = game_start_up_seconds(game, cold=True)
            print(f"numba: import to first step, compiling cold: {start['cold_compile_seconds']:.1f} s")
    envs = None
    if not args.no_envs:
        from .envs.bench import bench_envs, print_envs

        envs = bench_envs(seconds, num_envs=64 if args.quick else 4096, game=game, options=options)
        print_envs(envs)
    out = {
        "game": game,
        "machine": {
            "platform": platform.platform(),
            "processor": platform.processor(),
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "numpy": np.__version__,
            **({"numba_threads": runtime_figures["threads"], "numba": runtime_figures["numba"]} if compiled else {}),
        },  # fmt: skip
        "runtime": runtime_figures,
        "settings": {
            "seconds": seconds,
            "players": n,
            "quick": bool(args.quick),
            "fast_path": fast,
            "backends": list(backends),
            "threads": counts,
            "batch_sizes": list(sizes),
            "steady_pool": pool,
            "options": {k: v for k, v in spec.options_to_json(options).items() if k in options},
        },  # fmt: skip
        "reference": ref,
        "engine": rows,
        "engine_random_step": fused,
        "threads": scaling,
        "rollout": rollouts,
        "per_call_microseconds": overhead,
        "start_up": start,
        "environments": envs,
        "state_bytes_per_game": bytes_per_game,
        "peak_rss_bytes": peak_rss,
    }
    write_text_atomic(args.output, json.dumps(out, indent=2))
    print(f"figures written to {args.output}")
    return 0


if __name__ == "__main__":
    _parser = argparse.ArgumentParser(prog="python -m industry_env.bench", description=__doc__.splitlines()[0])
    configure(_parser)
    raise SystemExit(run(_parser.parse_args()))
