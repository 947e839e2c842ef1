"""Uniform draws among legal actions, for any game's mask: what random players and benchmarks use."""

from __future__ import annotations

import numpy as np

from .numba_cache import njit


def pick_uniform(mask: np.ndarray, u: np.ndarray) -> np.ndarray:
    """int64[B]: the ``floor(u[b] * count[b])``-th True entry of each row of ``mask`` (0 for an empty row).

    ``u`` holds one uniform [0, 1) number per row; a few array operations, no loop over rows.
    """
    B, n_actions = mask.shape
    flat = mask.reshape(-1).nonzero()[0]  # row-major: row b's legal actions are contiguous, count[b] of them
    count = np.bincount(flat // n_actions, minlength=B)
    start = np.cumsum(count) - count
    pick = start + np.minimum((u * count).astype(np.int64), count - 1)  # u * count may round up to count
    out = np.zeros(B, np.int64)
    has = count > 0
    out[has] = flat[pick[has]] - has.nonzero()[0] * n_actions
    return out


def sample_legal(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """int64[B]: one action per row drawn uniformly from the True entries of ``mask`` (0 for an empty row), from
    ``rng.random(B)``."""
    return pick_uniform(mask, rng.random(mask.shape[0]))


@njit(cache=True)
def sample_rows(mask, u, out):
    """:func:`pick_uniform` compiled, into ``out``: the ``floor(u * count)``-th legal action of each row (0 for an
    empty row); what a game's engine samples with where its kernel has no ``sample_rows`` of its own."""
    for i in range(mask.shape[0]):
        n = 0
        for a in range(mask.shape[1]):
            n += mask[i, a]
        out[i] = 0
        if n == 0:
            continue
        pick = min(np.int64(u[i] * n), n - 1)
        for a in range(mask.shape[1]):
            if mask[i, a]:
                if pick == 0:
                    out[i] = a
                    break
                pick -= 1
