"""Nim's compiled kernel: the rules of game ``i`` of a batch, and the standard entries the shared front calls
(:data:`industry_env.core.batched.STANDARD_ENTRIES`). A batch reaches it as ``g``, the State's arrays by field name
(``g.heaps[i, h]``: heap ``h`` of game ``i``)."""

from __future__ import annotations

import sys

import numpy as np
from numba import prange

from ...core import runtime
from ...core.chance import key_one, splitmix64_one
from ...core.numba_cache import njit
from .reference import FIRST, HEAPS, MAX_COUNTERS, MAX_PLAYERS, MAX_TAKE, MIN_PLAYERS, NUM_ACTIONS, NUM_HEAPS, OBS_SIZE

NUM_OBS, OP_CHECK, OP_STEP, OP_MASK = OBS_SIZE, 0, 1, 2


# ---------------------------------------------------------------------------------------------- one game: the rules
@njit(cache=True)
def new_games(g, rows, seeds, n, next_mask, write_next):
    """Set up the games ``rows``: each heap's counters and the first player drawn from the seed, as the reference."""
    for j in range(rows.shape[0]):
        i, seed = rows[j], seeds[j]
        g.seed[i], g.num_players[i], g.winner[i], g.terminated[i], g.rewards[i, :] = seed, n[j], -1, False, 0.0
        for h in range(NUM_HEAPS):
            g.heaps[i, h] = 1 + np.int64(key_one(seed, HEAPS, h) % np.uint64(MAX_COUNTERS))
        g.to_move[i] = np.int64(key_one(seed, FIRST, 0) % np.uint64(n[j]))
        if write_next:
            mask_row(g, i, next_mask[i])


@njit(cache=True)
def mask_row(g, i, row):
    """Game ``i``'s legal actions into ``row``: 1 to 3 counters from a heap that holds them (none once over)."""
    row[:] = False
    for h in range(NUM_HEAPS):
        for k in range(0 if g.terminated[i] else min(MAX_TAKE, g.heaps[i, h])):
            row[MAX_TAKE * h + k] = True


@njit(cache=True)
def apply(g, i, a):
    """Play legal action ``a`` in game ``i``: whoever takes the last counter wins, else the next player moves."""
    g.heaps[i, a // MAX_TAKE] -= a % MAX_TAKE + 1
    if g.heaps[i].sum() == 0:
        g.winner[i], g.terminated[i] = g.to_move[i], True
        for q in range(g.num_players[i]):
            g.rewards[i, q] = 1.0 if q == g.winner[i] else -1.0
    else:
        g.to_move[i] = (g.to_move[i] + 1) % g.num_players[i]


@njit(cache=True)
def observe_rows(g, seats, out):
    """Each game seen from ``seats[i]`` into ``out[i]`` (zeros), as ``reference.Game.observe``."""
    for i in range(out.shape[0]):
        n, o = g.num_players[i], out[i]
        for h in range(NUM_HEAPS):
            o[h] = g.heaps[i, h] / MAX_COUNTERS
        o[NUM_HEAPS + n - MIN_PLAYERS] = 1
        if g.winner[i] < 0:
            o[OBS_SIZE - MAX_PLAYERS + (g.to_move[i] - seats[i]) % n] = 1


# ---------------------------------------------------------------------------------------------- the batch entries
@njit(cache=True)
def check_range(g, actions, mask, use_mask, legal, lo, hi):
    """``legal[i]`` for games ``lo:hi`` (against ``mask`` where ``use_mask``; True once over); the illegal count."""
    row, bad = np.zeros(NUM_ACTIONS, np.bool_), 0
    for i in range(lo, hi):
        a = actions[i]
        if g.terminated[i]:
            legal[i] = True
        elif a < 0 or a >= NUM_ACTIONS:
            legal[i] = False
        elif use_mask:
            legal[i] = mask[i, a]
        else:
            mask_row(g, i, row)
            legal[i] = row[a]
        bad += not legal[i]
    return bad


@njit(cache=True)
def step_range(g, actions, legal, penalty, next_mask, write_next, lo, hi):
    """Step games ``lo:hi``: rewards zeroed; a legal action played; an illegal one ends its game, ``penalty`` to the
    player at fault and ``-penalty`` to the others (the Pgx convention); then the new masks into ``next_mask``."""
    for i in range(lo, hi):
        g.rewards[i, :] = 0.0
        if not g.terminated[i] and legal[i]:
            apply(g, i, actions[i])
        elif not g.terminated[i]:
            for q in range(g.num_players[i]):
                g.rewards[i, q] = penalty if q == g.to_move[i] else -penalty
            g.terminated[i] = True
        if write_next:
            mask_row(g, i, next_mask[i])


@njit(cache=True)
def mask_range(g, out, lo, hi):
    for i in range(lo, hi):
        mask_row(g, i, out[i])


@njit(cache=True, parallel=True)
def run_parallel(op, g, actions, mask, use_mask, legal, penalty, next_mask, write_next, nc):
    """The one parallel entry: ``op`` over ``nc`` chunks of the batch on numba's threads (the illegal count)."""
    B, bad = legal.shape[0], np.zeros(nc, np.int64)
    for c in prange(nc):
        lo, hi = np.int64(c * B // nc), np.int64((c + 1) * B // nc)
        if op == OP_CHECK:
            bad[c] = check_range(g, actions, mask, use_mask, legal, lo, hi)
        elif op == OP_STEP:
            step_range(g, actions, legal, penalty, next_mask, write_next, lo, hi)
        else:
            mask_range(g, next_mask, lo, hi)
    return bad.sum()


# ---------------------------------------------------------------------------------------------- KERNEL_ENTRIES
# 2 threads beat 1 from about 4,096 games with TBB (1,024: 0.87x, 16,384: 1.5x; the busy 2-core machine, 2026-11-29);
# OpenMP and the workqueue (its launch ten times slower) not measured. A cold compile took 4 to 9 s there.
PARALLEL_FROM_BY_LAYER = {"tbb": 4096, "omp": 4096, "workqueue": 16384}
PARALLEL_FROM = runtime.parallel_from(PARALLEL_FROM_BY_LAYER)
COLD_COMPILE_SECONDS, CACHE_NAME = 10, "nim_kernel"


def sources() -> list[str]:
    """This file, the rules' constants, the State's fields and core's chance: what the compiled code holds."""
    return [__file__, *(sys.modules[f"{__package__}.{m}"].__file__ for m in ("reference", "engine")),
            sys.modules[key_one.__module__].__file__]  # fmt: skip


def dispatchers() -> list:
    return [f for f in globals().values() if hasattr(f, "_cache") and f.__module__ == __name__] + [splitmix64_one,
                                                                                                   key_one]  # fmt: skip


def entries() -> list:
    return [check_range, step_range, mask_range, run_parallel, new_games, observe_rows]
