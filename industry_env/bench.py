"""Benchmark of the batched engine: random legal play at several batch sizes, against the reference engine.

``industry-env bench`` (or ``python -m industry_env.bench``) measures env steps per second of random legal
play (legal-action mask computed, one action sampled uniformly from it, step; finished games reset in place),
at batch sizes 1, 64, 1024, 4096 and 16384; games per second (steps/s divided by the mean length of a random
game: the games of a batch start together and finish in waves, so counting those that end in a few seconds
measures the window, not the engine); bytes of state per game; peak memory;
and the reference engine doing the same work one game at a time, with the ratios. Figures go to a JSON file
(``bench-results.json`` unless ``--output``). ``--quick`` runs a short smoke version.

The engine runs its fast path, as a training loop would: ``step(state, actions, inplace=True, mask=mask)``
(the batch updated in place, no copy a step; the actions checked against the mask just computed to sample
them instead of re-derived from the rules) and ``reset(..., inplace=True)``. ``--copy`` measures the
functional API instead: ``step(state, actions)`` and ``reset(state, done)`` return new States.
"""

from __future__ import annotations

import argparse
import json
import platform
import resource
import time
import tracemalloc

import numpy as np

from . import engine as E
from .outputs import check_output_file
from .reference import Game

BATCH_SIZES = (1, 64, 1024, 4096, 16384)


def bench_engine(
    batch_size: int, seconds: float, num_players: int = 4, seed: int = 0, fast: bool = True
) -> dict[str, float]:
    """Random legal play in one batch for about ``seconds``: steps/s, games/s, time per step and per game-step.

    ``fast``: the fast path, ``step(..., inplace=True, mask=mask)`` and ``reset(..., inplace=True)``; ``False``
    measures the functional API (a new State every step, legality re-derived from the rules).
    """
    state = E.init(batch_size, num_players=num_players, seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(3):  # warm-up (first calls build the board tables)
        state = E.step(state, E.sample_legal(E.legal_action_mask(state), rng), inplace=fast)
    steps = games = calls = 0
    t0 = time.perf_counter()
    while True:
        mask = E.legal_action_mask(state)
        state = E.step(state, E.sample_legal(mask, rng), inplace=fast, mask=mask if fast else None)
        steps += batch_size
        calls += 1
        done = state.terminated
        if done.any():
            games += int(done.sum())
            state = E.reset(state, done, inplace=fast)
        elapsed = time.perf_counter() - t0
        if elapsed >= seconds and calls >= 3:
            break
    return {
        "batch_size": batch_size,
        "steps_per_second": steps / elapsed,
        "games_per_second": games / elapsed,
        "microseconds_per_batch_step": 1e6 * elapsed / calls,
        "nanoseconds_per_game_step": 1e9 * elapsed / steps,
        "state_bytes_per_game": state.state_bytes_per_game,
    }


def bench_reference(seconds: float, num_players: int = 4, seed: int = 0) -> dict[str, float]:
    """The reference engine on the same work: mask, uniform legal action, apply; new game when one ends."""
    rng = np.random.default_rng(seed)
    game = Game(num_players, seed=seed)
    steps = games = 0
    t0 = time.perf_counter()
    while True:
        mask = game.legal_action_mask()
        legal = np.flatnonzero(mask)
        game.apply(int(legal[int(rng.random() * legal.size)]))
        steps += 1
        if game.is_over:
            games += 1
            game = Game(num_players, seed=seed + games)
        elapsed = time.perf_counter() - t0
        if elapsed >= seconds:
            break
    return {"steps_per_second": steps / elapsed, "games_per_second": games / elapsed,
            "microseconds_per_step": 1e6 * elapsed / steps, "steps_per_game": steps / max(games, 1)}  # fmt: skip


def peak_step_memory(batch_size: int) -> int:
    """Peak bytes numpy allocates during one mask + sample + step of a batch (tracemalloc)."""
    state = E.init(batch_size, seed=0)
    rng = np.random.default_rng(0)
    tracemalloc.start()
    tracemalloc.reset_peak()
    base = tracemalloc.get_traced_memory()[0]
    E.step(state, E.sample_legal(E.legal_action_mask(state), rng))
    peak = tracemalloc.get_traced_memory()[1] - base
    tracemalloc.stop()
    return int(peak)


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``industry-env bench``."""
    parser.add_argument("--quick", action="store_true", help="short smoke run (batch sizes 1 and 64, 0.3 s each)")
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds of play per batch size (default 3)")
    parser.add_argument("--players", type=int, default=4, choices=(3, 4), help="players per game (default 4)")
    parser.add_argument("--output", default="bench-results.json", help="JSON file for the figures")
    parser.add_argument("--copy", action="store_true",
                        help="measure the functional API (step and reset return a new State, step re-derives "
                             "legality) instead of the fast path (step(..., inplace=True, mask=mask), "
                             "reset(..., inplace=True))")  # fmt: skip


def run(args: argparse.Namespace) -> int:
    """Run the benchmark, print the table and write the JSON file."""
    check_output_file(args.output)  # before the run, not after it: the figures must not be lost
    if not args.seconds > 0:
        raise ValueError(f"--seconds {args.seconds}: must be more than 0")
    sizes = (1, 64) if args.quick else BATCH_SIZES
    seconds = 0.3 if args.quick else args.seconds
    fast = not args.copy
    ref = bench_reference(max(seconds, 2.0), args.players)  # long enough to finish several games
    if fast:
        print("engine fast path: step(state, actions, inplace=True, mask=mask), reset(..., inplace=True) "
              "(--copy: the functional API)")  # fmt: skip
    else:
        print("engine functional API: step(state, actions) and reset(state, done) return a new State")
    print(f"reference engine: {ref['steps_per_second']:,.0f} steps/s, {ref['games_per_second']:,.1f} games/s "
          f"({ref['microseconds_per_step']:.1f} us a step)")  # fmt: skip
    print(f"games/s = steps/s / {ref['steps_per_game']:.0f} steps (the mean length of a random game)")
    print(f"{'batch':>6} {'steps/s':>12} {'games/s':>10} {'us/batch step':>14} {'ns/game step':>13} "
          f"{'x reference':>12} {'step peak MB':>13}")  # fmt: skip
    rows = []
    for b in sizes:
        r = bench_engine(b, seconds, args.players, fast=fast)
        r["speedup_vs_reference"] = r["steps_per_second"] / ref["steps_per_second"]
        # Steady-state games/s is steps/s over the mean game length: the games of a batch start together and
        # end in waves, so counting the games that end inside a few seconds says more about the window.
        r["games_finished_in_window_per_second"] = r["games_per_second"]
        r["games_per_second"] = r["steps_per_second"] / ref["steps_per_game"]
        r["step_peak_bytes"] = peak_step_memory(b)
        rows.append(r)
        print(f"{b:>6} {r['steps_per_second']:>12,.0f} {r['games_per_second']:>10,.1f} "
              f"{r['microseconds_per_batch_step']:>14,.1f} {r['nanoseconds_per_game_step']:>13,.0f} "
              f"{r['speedup_vs_reference']:>12,.1f} {r['step_peak_bytes'] / 2**20:>13.1f}", flush=True)  # fmt: skip
    peak_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # Linux reports KiB
    bytes_per_game = rows[0]["state_bytes_per_game"]
    print(f"state: {bytes_per_game} bytes per game; peak memory (process RSS): {peak_rss / 2**20:.0f} MiB")
    big = [r for r in rows if r["batch_size"] >= 1024]
    if big:
        ns = [r["nanoseconds_per_game_step"] for r in big]
        print(f"per-game cost from batch {big[0]['batch_size']} to {big[-1]['batch_size']}: "
              f"{min(ns):.0f}-{max(ns):.0f} ns a game step (max/min {max(ns) / min(ns):.2f})")  # fmt: skip
    out = {
        "machine": {"platform": platform.platform(), "processor": platform.processor(), "python":
                    platform.python_version(), "numpy": np.__version__},  # fmt: skip
        "settings": {"seconds": seconds, "players": args.players, "quick": bool(args.quick), "fast_path": fast},
        "reference": ref,
        "engine": rows,
        "state_bytes_per_game": bytes_per_game,
        "peak_rss_bytes": peak_rss,
    }
    with open(args.output, "w", encoding="utf-8") as fh:
        json.dump(out, fh, indent=2)
    print(f"figures written to {args.output}")
    return 0


if __name__ == "__main__":
    _parser = argparse.ArgumentParser(prog="python -m industry_env.bench", description=__doc__.splitlines()[0])
    configure(_parser)
    raise SystemExit(run(_parser.parse_args()))
