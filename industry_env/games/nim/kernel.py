"""Nim's compiled kernel: the rules of game ``i`` of a batch, and the standard entries the shared front calls
(:data:`industry_env.core.batched.STANDARD_ENTRIES`: core's batch loops compiled over these rules). A batch
reaches it as ``g``, the State's arrays by field name (``g.heaps[i, h]``: heap ``h`` of game ``i``)."""

from __future__ import annotations

import sys

import numpy as np

from ...core import batch_entries, runtime
from ...core.chance import key_one, splitmix64_one
from ...core.numba_cache import njit
from .reference import FIRST, HEAPS, MAX_COUNTERS, MAX_PLAYERS, MAX_TAKE, MIN_PLAYERS, NUM_ACTIONS, NUM_HEAPS, OBS_SIZE

NUM_OBS = OBS_SIZE
OP_CHECK, OP_STEP, OP_MASK = batch_entries.OP_CHECK, batch_entries.OP_STEP, batch_entries.OP_MASK


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
check_range, step_range, mask_range, run_parallel = batch_entries.compile_for(mask_row, apply, NUM_ACTIONS, __name__)


# ---------------------------------------------------------------------------------------------- KERNEL_ENTRIES
# 2 threads beat 1 from about 4,096 games with TBB (1,024: 0.87x, 16,384: 1.5x; the busy 2-core machine, 2026-11-29);
# OpenMP and the workqueue (its launch ten times slower) not measured. A cold compile took 4 to 9 s there.
PARALLEL_FROM_BY_LAYER = {"tbb": 4096, "omp": 4096, "workqueue": 16384}
PARALLEL_FROM = runtime.parallel_from(PARALLEL_FROM_BY_LAYER)
COLD_COMPILE_SECONDS, CACHE_NAME = 10, "nim_kernel"


def sources() -> list[str]:
    """What the compiled code holds: this file, the rules, the State's fields, core's chance and batch loops."""
    return [__file__, *(sys.modules[f"{__package__}.{m}"].__file__ for m in ("reference", "engine")),
            sys.modules[key_one.__module__].__file__, batch_entries.__file__]  # fmt: skip


def dispatchers() -> list:
    return [f for f in globals().values() if hasattr(f, "_cache") and f.__module__ == __name__] + [splitmix64_one,
                                                                                                   key_one]  # fmt: skip


def entries() -> list:
    return [check_range, step_range, mask_range, run_parallel, new_games, observe_rows]
