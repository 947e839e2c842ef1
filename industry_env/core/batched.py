"""The front every game's batched engine shares: the checks of its arguments, the illegal-move convention, and
the warm-up of its compiled kernel, written once over a game's small, documented set of kernel entries.

A game's batched engine (``games/<game>/engine.py``) keeps what is its own: the State's fields, ``init``'s options,
the rules' calls into its kernel, ``to_game``/``from_games``. Everything a caller passes to ``init``, ``step`` and
``reset`` is checked here, with one message for every game, before anything is written:

==========================================  =====================================================================
:func:`batch_size_of`                       ``B``: a whole number >= 0
:func:`seeds`                               ``seed + i`` for an int, else one seed a game, 0 to 2**63 - 1
:func:`per_game`                            an option given once or per game (players, edition), each allowed
:func:`rows_of`                             ``reset``'s ``done``: a bool mask of length B or row indices in range
:func:`reset_seeds`                         ``reset``'s new seeds (default: the old ones + B, checked in range)
:func:`step_actions`                        ``step``'s ``on_illegal``, ``actions`` (B integers), ``mask``
:func:`check_next_mask`                     a writable C-contiguous bool[B, A] the kernel writes the new masks to
:func:`writable`                            the State a call writes: ``state`` itself when in place, else a copy
:func:`sample_legal`                        uniformly random legal actions through the kernel's ``sample_rows``
:func:`put`, :func:`concat`                 batch surgery between States of the same components or map
==========================================  =====================================================================

The illegal-move convention (:data:`ON_ILLEGAL`): ``"raise"`` refuses the whole step with the game's
``IllegalActionError`` naming each offending game, the state unchanged; ``"penalize"`` ends each offending game at
once, ``penalty`` to the player at fault and ``-penalty`` to the others (the Pgx convention); a game already over
ignores its action and gets zero rewards.

A game's compiled kernel (``games/<game>/kernel.py``) provides exactly the entries of :data:`KERNEL_ENTRIES`
(``tests/contract/test_engine_front.py`` checks every game that has one): its per-layer parallel thresholds for
:mod:`.runtime`, its cold-compile estimate, and what :func:`warm_up` needs to keep numba's disk cache fresh
(:mod:`.numba_cache`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

import numpy as np

from . import numba_cache, runtime

MAX_SEED = 2**63 - 1
ON_ILLEGAL = ("raise", "penalize")

KERNEL_ENTRIES: dict[str, str] = {
    "PARALLEL_FROM_BY_LAYER": "dict: for each layer of core.runtime.LAYERS, the batch from which a call launches",
    "PARALLEL_FROM": "int: runtime.parallel_from(PARALLEL_FROM_BY_LAYER), this process's threshold",
    "COLD_COMPILE_SECONDS": "number: about what a cold compile takes on a quiet 2-core machine (the notice's estimate)",
    "CACHE_NAME": "str: the name of the kernel's stamp in numba's cache folder (unique among the games)",
    "sources": "() -> list[str]: the files whose content the compiled code depends on",
    "dispatchers": "() -> list: every compiled function of the kernel (and the shared ones it calls)",
    "entries": "() -> list: the compiled functions called from Python, each with numba's disk cache",
}


def check_kernel(kernel: ModuleType) -> list[str]:
    """What ``kernel`` lacks of :data:`KERNEL_ENTRIES`, or gets wrong; empty when it provides them all."""
    problems = [f"{name} is missing ({what})" for name, what in KERNEL_ENTRIES.items() if not hasattr(kernel, name)]
    if problems:
        return problems
    layers = kernel.PARALLEL_FROM_BY_LAYER
    if not isinstance(layers, dict) or set(layers) != set(runtime.LAYERS):
        problems.append(f"PARALLEL_FROM_BY_LAYER must name exactly the layers {list(runtime.LAYERS)}, got {layers!r}")
    elif kernel.PARALLEL_FROM != runtime.parallel_from(layers):
        problems.append("PARALLEL_FROM is not runtime.parallel_from(PARALLEL_FROM_BY_LAYER)")
    entries, dispatchers = kernel.entries(), kernel.dispatchers()
    for f in entries:
        if not hasattr(f, "_cache"):
            problems.append(f"entries(): {getattr(f, '__name__', f)!r} is not a compiled (numba) function")
        elif f not in dispatchers:
            problems.append(f"entries(): {f.__name__!r} is not among dispatchers()")
    return problems


# ---------------------------------------------------------------------------------------------- the kernel's cache
def warm_up(kernel: ModuleType, what: str, compile_all: Callable[[], None], note: str = "") -> float:
    """Make ``kernel``'s compiled code ready in this process: nothing to do where numba's disk cache holds it,
    built from these very sources (each entry then loads at its first call); else ``compile_all()`` compiles every
    entry at once, shown as one step on stderr (:class:`.numba_cache.CompileNotice`), and the cache is stamped.
    Returns the seconds taken."""
    t0 = time.perf_counter()
    if numba_cache.is_fresh(kernel.entries(), kernel.dispatchers(), kernel.sources(), kernel.CACHE_NAME):
        return time.perf_counter() - t0
    notice = numba_cache.CompileNotice(what, kernel.COLD_COMPILE_SECONDS, note)
    compile_all()
    numba_cache.mark_fresh(kernel.entries(), kernel.sources(), kernel.CACHE_NAME)
    notice.done()
    return time.perf_counter() - t0


# ---------------------------------------------------------------------------------------------- checks
def is_whole(x: object) -> bool:
    """A Python or numpy integer, not a bool (``True`` is not a seed or a count)."""
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def batch_size_of(batch_size: Any) -> int:
    """``batch_size`` if it is a whole number >= 0, else a ValueError naming it."""
    if not is_whole(batch_size) or batch_size < 0:
        raise ValueError(f"batch_size={batch_size!r} must be a whole number >= 0")
    return int(batch_size)


def seeds(batch_size: int, seed: Any) -> np.ndarray:
    """int64[B] seeds: ``seed + i`` for an int, else the given array, checked (whole numbers, 0 to 2**63 - 1)."""
    if np.ndim(seed) == 0:
        if isinstance(seed, np.ndarray) and np.issubdtype(seed.dtype, np.integer):
            seed = seed.item()  # a 0-d integer array
        if not is_whole(seed) or not 0 <= int(seed) <= MAX_SEED:
            raise ValueError(f"seed={seed!r}: must be a whole number from 0 to 2**63 - 1")
        if batch_size and int(seed) + batch_size - 1 > MAX_SEED:
            raise ValueError(f"seed={seed!r}: game i of the batch gets seed + i, and seed + {batch_size - 1} is beyond "
                             f"2**63 - 1; use a seed at most {MAX_SEED - batch_size + 1}")  # fmt: skip
        return int(seed) + np.arange(batch_size, dtype=np.int64)
    raw = np.asarray(seed)
    if raw.ndim != 1 or raw.shape[0] != batch_size:
        raise ValueError(f"seeds of shape {list(raw.shape)} given for a batch of {batch_size}: expected one seed per "
                         f"game, shape [{batch_size}]")  # fmt: skip
    if raw.size and (not np.issubdtype(raw.dtype, np.integer) or (raw.dtype == np.uint64 and raw.max() > MAX_SEED)):
        raise ValueError(f"seeds must be whole numbers from 0 to 2**63 - 1, got dtype {raw.dtype}")
    s = raw.astype(np.int64)
    if s.size and s.min() < 0:
        bad = int(np.flatnonzero(s < 0)[0])
        raise ValueError(f"seeds must be whole numbers from 0 to 2**63 - 1; seed[{bad}] is {int(s[bad])}")
    return s


def per_game(value: Any, batch_size: int, allowed: Sequence[int], what: str, rule: str = "") -> np.ndarray:
    """int8[B] from one whole number or one per game, each in ``allowed``; ``rule`` says why (the game's words)."""
    raw = np.asarray(value)
    why = rule or f"must be one of {list(allowed)}"
    if raw.dtype == bool or not np.issubdtype(raw.dtype, np.integer) or raw.ndim > 1 or (
            raw.ndim == 1 and raw.size != batch_size):  # fmt: skip
        raise ValueError(f"{what}={value!r}: {why} (a whole number, or one per game)")
    if batch_size and not np.isin(raw, allowed).all():
        raise ValueError(f"{what}={value!r}: {why}")
    return np.broadcast_to(raw.astype(np.int8), (batch_size,)).copy()


def rows_of(done: Any, batch_size: int) -> np.ndarray:
    """int64 row indices from a bool mask of length B, or from integer indices in range; anything else refused."""
    d = np.asarray(done)
    if d.dtype == bool:
        if d.shape != (batch_size,):
            raise ValueError(f"done mask of shape {list(d.shape)} for a batch of {batch_size}: expected "
                             f"bool[{batch_size}] (or integer row indices)")  # fmt: skip
        return np.flatnonzero(d)
    if d.size == 0 and d.ndim == 1:
        return np.zeros(0, np.int64)
    if not np.issubdtype(d.dtype, np.integer) or d.ndim != 1:
        raise ValueError(f"done must be a bool mask of length {batch_size} or a 1-D array of integer row indices, "
                         f"got dtype {d.dtype} shape {list(d.shape)}")  # fmt: skip
    if ((d < 0) | (d >= batch_size)).any():
        bad = d[(d < 0) | (d >= batch_size)]
        raise ValueError(f"done: row indices {bad[:5].tolist()} are out of range for a batch of {batch_size}")
    return np.unique(d.astype(np.int64))


def reset_seeds(old: np.ndarray, rows: np.ndarray, given: Any) -> np.ndarray | None:
    """``reset``'s new seeds, checked before anything is written: ``given`` (one a game, only ``rows`` read), or
    None for the default (old + B), refused where that passes 2**63 - 1."""
    B = old.shape[0]
    if given is None:
        if rows.size and (old[rows] > MAX_SEED - B).any():
            raise ValueError("reset: the default new seed (old seed + batch size) is beyond 2**63 - 1; pass seeds")
        return None
    return seeds(B, given)


def step_actions(on_illegal: str, actions: Any, batch_size: int, num_actions: int, mask: Any,
                 error: type[Exception]) -> np.ndarray:  # fmt: skip
    """``step``'s checked ``actions`` (as given, shape [B], integer dtype), after ``on_illegal`` (one of
    :data:`ON_ILLEGAL`) and ``mask`` (None or bool[B, A]); integers of another dtype raise ``error``. One call at
    batch 1: these checks are most of a compiled step's Python."""
    if on_illegal != "raise" and on_illegal != "penalize":
        raise ValueError(f"on_illegal={on_illegal!r}: expected 'raise' or 'penalize'")
    a_all = actions if type(actions) is np.ndarray else np.asarray(actions)
    if a_all.shape != (batch_size,):
        raise ValueError(f"actions of shape {list(a_all.shape)} given for a batch of {batch_size}: expected one action "
                         f"per game, shape [{batch_size}]")  # fmt: skip
    if a_all.dtype.kind not in "iu":
        raise error(f"actions must be integers, got dtype {a_all.dtype}")
    if mask is not None and (mask.shape != (batch_size, num_actions) or mask.dtype != bool):
        raise ValueError(f"mask must be bool[{batch_size}, {num_actions}], got {mask.dtype}{list(mask.shape)}")
    return a_all


def check_next_mask(next_mask: Any, batch_size: int, num_actions: int) -> None:
    """``next_mask`` must be None or a writable C-contiguous bool[B, A] array (the kernel writes it in place)."""
    if next_mask is None:
        return
    if (
        not isinstance(next_mask, np.ndarray)
        or next_mask.shape != (batch_size, num_actions)
        or next_mask.dtype != bool
        or not next_mask.flags.c_contiguous
        or not next_mask.flags.writeable
    ):
        raise ValueError(f"next_mask must be a writable C-contiguous bool[{batch_size}, {num_actions}] array, got "
                         f"{getattr(next_mask, 'dtype', type(next_mask).__name__)}"
                         f"{list(getattr(next_mask, 'shape', ()))}")  # fmt: skip


def writable(state: Any, inplace: bool) -> Any:
    """The State a call writes: ``state`` itself when ``inplace``, else an independent copy."""
    return state if inplace else state.copy()


def sample_legal(mask: Any, rng: np.random.Generator, sample_rows: Callable[..., None]) -> np.ndarray:
    """int64[B]: one action per row drawn uniformly from the True entries of ``mask`` (0 for an empty row), by the
    kernel's ``sample_rows(mask, u, out)`` on ``rng.random(B)`` (the ``floor(u * count)``-th legal action)."""
    m = np.ascontiguousarray(mask, bool)
    if m.ndim != 2:
        raise ValueError(f"mask must be bool[B, num_actions], got shape {list(m.shape)}")
    out = np.zeros(m.shape[0], np.int64)
    sample_rows(m, rng.random(m.shape[0]), out)
    return out


# ---------------------------------------------------------------------------------------------- batch surgery
def _same_extras(a: Any, b: Any) -> bool:
    """Two States play with the same shared parts (components, map): the same objects, or ones read from the same
    file (their ``sha256``)."""
    theirs = b.extras()

    def same(x: Any, y: Any) -> bool:
        return x is y or (bool(getattr(x, "sha256", "")) and getattr(x, "sha256", "") == getattr(y, "sha256", None))

    return all(same(v, theirs[k]) for k, v in a.extras().items())


def put(state: Any, rows: Any, games: Any, shared: str) -> Any:
    """A new State equal to ``state`` with the games ``rows`` replaced by those of ``games``, which must play with
    the same shared parts (``shared`` names them in the error: "components", "maps")."""
    if not _same_extras(state, games):
        raise ValueError(f"put: the two states are played with different {shared}")
    out = state.copy()
    out.put(rows, games)
    return out


def concat(states: Sequence[Any], shared: str) -> Any:
    """One State holding all the games of ``states`` in order; they must play with the same ``shared`` parts."""
    if not states:
        raise ValueError("concat needs at least one State")
    if any(not _same_extras(states[0], s) for s in states[1:]):
        raise ValueError(f"concat: the states are played with different {shared}")
    first = states[0].extras()
    same = [s if all(v is first[k] for k, v in s.extras().items()) else s.replace(**first) for s in states]
    return type(states[0]).concat(same)
