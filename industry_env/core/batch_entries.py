"""The four batch entries of a standard kernel (:data:`.batched.STANDARD_ENTRIES`), written once for every game
whose kernel takes its batch as one value ``g`` and writes its rules as ``mask_row(g, i, row)`` and
``apply(g, i, a)``.

``check_range, step_range, mask_range, run_parallel = batch_entries.compile_for(mask_row, apply, NUM_ACTIONS,
__name__)`` at the end of a kernel gives that game its own copy of each: a new function over the code below, whose
globals are the game's rules, compiled with numba's disk cache under the kernel's name. numba links the copy to
the rules directly, as it links any module's functions, so the entries cost what a kernel's own would. They are
copies rather than one function taking the rules as arguments because numba caches no function that takes a
compiled function as an argument, and none that closes over one across processes (its cache key then holds the
process's dispatcher).

The templates below are plain Python, never called as they stand.
"""

from __future__ import annotations

import sys
import types
from collections.abc import Callable

import numpy as np
from numba import prange

from .numba_cache import njit

#: The operations of ``run_parallel``.
OP_CHECK, OP_STEP, OP_MASK = 0, 1, 2
_COMPILED_FOR: set[str] = set()  # the kernel modules given their copies in this process


def check_range(g, actions, mask, use_mask, legal, lo, hi):  # noqa: ANN001, ANN201 (compiled per game)
    """``legal[i]`` for games ``lo:hi`` (against ``mask`` where ``use_mask``; True once over); the illegal count."""
    row, bad = np.zeros(NUM_ACTIONS, np.bool_), 0  # noqa: F821 (the game's)
    for i in range(lo, hi):
        a = actions[i]
        if g.terminated[i]:
            legal[i] = True
        elif a < 0 or a >= NUM_ACTIONS:  # noqa: F821
            legal[i] = False
        elif use_mask:
            legal[i] = mask[i, a]
        else:
            mask_row(g, i, row)  # noqa: F821
            legal[i] = row[a]
        bad += not legal[i]
    return bad


def step_range(g, actions, legal, penalty, next_mask, write_next, lo, hi):  # noqa: ANN001, ANN201
    """Step games ``lo:hi``: rewards zeroed; a legal action played; an illegal one ends its game, ``penalty`` to the
    player at fault and ``-penalty`` to the others (the Pgx convention); then the new masks into ``next_mask``."""
    for i in range(lo, hi):
        g.rewards[i, :] = 0.0
        if not g.terminated[i] and legal[i]:
            apply(g, i, actions[i])  # noqa: F821
        elif not g.terminated[i]:
            for q in range(g.num_players[i]):
                g.rewards[i, q] = penalty if q == g.to_move[i] else -penalty
            g.terminated[i] = True
        if write_next:
            mask_row(g, i, next_mask[i])  # noqa: F821


def mask_range(g, out, lo, hi):  # noqa: ANN001, ANN201
    """The legal masks of games ``lo:hi`` into ``out``."""
    for i in range(lo, hi):
        mask_row(g, i, out[i])  # noqa: F821


def run_parallel(op, g, actions, mask, use_mask, legal, penalty, next_mask, write_next, nc):  # noqa: ANN001, ANN201
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


def compile_for(mask_row: Callable, apply: Callable, num_actions: int, module: str) -> tuple:
    """The game's own compiled ``check_range``, ``step_range``, ``mask_range`` and ``run_parallel`` over its
    compiled ``mask_row`` and ``apply``; ``module`` (the kernel's ``__name__``, imported) names them in numba's
    cache, once: two copies under one name would share a cache entry and load each other's code.

    ``g`` must have ``terminated``, ``rewards``, ``num_players`` and ``to_move`` by name (the State's fields every
    game declares, and the player to move), as a game's named tuple of its fields does."""
    if module not in sys.modules:
        raise ValueError(f"compile_for: module {module!r} is not in sys.modules: pass the kernel's __name__, in a "
                         f"module imported by that name (numba's disk cache imports it again by name)")
    if module in _COMPILED_FOR:
        raise ValueError(f"compile_for: {module!r} already has its batch entries; one copy a kernel module")
    _COMPILED_FOR.add(module)
    names = {"np": np, "prange": prange, "OP_CHECK": OP_CHECK, "OP_STEP": OP_STEP, "OP_MASK": OP_MASK,
             "NUM_ACTIONS": num_actions, "mask_row": mask_row, "apply": apply, "__name__": module}  # fmt: skip
    compiled = []
    for template in (check_range, step_range, mask_range, run_parallel):
        fn = types.FunctionType(template.__code__, names, template.__name__)
        fn.__qualname__ = f"{module}.{template.__name__}"  # numba's cache file: one per game
        fn.__doc__ = template.__doc__
        names[template.__name__] = njit(cache=True, parallel=template is run_parallel)(fn)
        compiled.append(names[template.__name__])
    return tuple(compiled)
