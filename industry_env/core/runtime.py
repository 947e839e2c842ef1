"""The compiled runtime every game's kernel runs on: numba's threading layer, its thread count, and the batch size
from which a call runs on the threads.

numba picks its threading layer at the first parallel launch, from ``numba.config.THREADING_LAYER``. Left to
itself it tries TBB, then OpenMP, then its own workqueue; but TBB's library, installed by the ``tbb`` pip package,
sits where the dynamic loader does not look (``<prefix>/lib``: a virtual environment's, ``--prefix``'s or
``--user``'s), so numba misses it, and GNU OpenMP spins its idle threads for a long while (80 times slower on a
busy machine). This module, imported by every game's kernel before its first launch, chooses once for the process:

1. **TBB** where its library loads: from the loader's path, else from where pip put it (:func:`tbb_candidates`),
   preloaded with ``ctypes`` so that numba's TBB layer finds it by name. It relaunches in about 2 us and is
   fork-safe (a forked ``SubprocVecEnv`` worker steps on all threads). ``pip install --target DIR`` installs the
   package without its library (pip drops a wheel's ``lib/`` files there): :func:`tbb_dropped` says so in the
   reason the bench prints, with the fix.
2. **OpenMP** where ``libgomp`` loads, its spin bounded (``GOMP_SPINCOUNT=10000`` unless set). GNU OpenMP aborts a
   forked child that launches threads after its parent did, so such a child runs every batch on its calling
   thread instead (:func:`may_launch`).
3. numba's **workqueue** otherwise: fork-safe, but a launch wakes sleeping workers (160-400 us measured).

``NUMBA_THREADING_LAYER`` set by the user wins (TBB then still found as above). Each game states, per layer, the
batch size from which its calls pay for a launch (:func:`parallel_from`); :func:`chunks` turns a batch into the
chunks of one launch, or 0 for the calling thread. :func:`describe` is the line ``industry-env bench`` and
``warmup`` print, :func:`workqueue_warning` their warning on a machine with more than 2 cores that fell back to the
workqueue.
"""

from __future__ import annotations

import ctypes
import glob
import importlib.metadata
import os
import sys
from collections.abc import Callable, Iterable, Mapping

import numba

from . import uncompiled

LAYERS = ("tbb", "omp", "workqueue")
TBB_MIN_VERSION = 12060  # numba's minimum: TBB 2021.6 (TBB_runtime_interface_version)
TBB_NAME = "libtbb.so.12"
GOMP_SPINCOUNT = "10000"  # bounded spin: OpenMP's idle threads yield the cores to others after this many rounds
# numba's own names for "any layer with this property": TBB answers each where it loads
_TBB_ALIASES = ("tbb", "threadsafe", "forksafe", "safe")


def tbb_candidates(paths: Iterable[str] | None = None, prefixes: Iterable[str] | None = None) -> list[str]:
    """Files that may be the ``tbb`` pip package's library, most likely first: those its installed file list
    names, then ``lib/`` of each prefix (a virtual environment's or the system's) and ``lib/`` beside or above
    each import path (``site-packages/../../../lib``, where ``--prefix`` and ``--user`` installs put it; ``DIR/lib``
    beside a ``--target DIR`` folder, where a user may unpack the wheel's library by hand)."""
    found: list[str] = []
    try:
        for f in importlib.metadata.files("tbb") or []:
            if f.name == TBB_NAME:
                found.append(str(f.locate()))
    except importlib.metadata.PackageNotFoundError:
        pass
    prefixes = [sys.prefix, sys.base_prefix] if prefixes is None else list(prefixes)
    paths = sys.path if paths is None else list(paths)
    for where in [*(os.path.join(p, "lib") for p in prefixes),
                  *(os.path.join(p, up) for p in paths if p for up in ("lib", "../lib", "../../../lib"))]:  # fmt: skip
        found.append(os.path.join(where, TBB_NAME))
        found += sorted(glob.glob(os.path.join(where, TBB_NAME + ".*")))
    return list(dict.fromkeys(os.path.normpath(f) for f in found if os.path.isfile(f)))


def tbb_dropped(path: list[str] | None = None) -> str | None:
    """Where the ``tbb`` package is installed without its library, looking in the import path ``path`` (default
    ``sys.path``); else None. ``pip install --target`` drops a wheel's ``lib/`` files: pip 26 keeps them in the
    package's file list, pip 24 leaves them out of it too."""
    for dist in importlib.metadata.distributions(name="tbb", path=sys.path if path is None else path):
        listed = [f for f in dist.files or [] if f.name == TBB_NAME]
        if any(os.path.isfile(f.locate()) for f in listed):
            return None
        return os.path.normpath(str(dist.locate_file("")))  # the first one found is the one imported
    return None


def _load_library(path: str) -> ctypes.CDLL | None:
    try:
        return ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
    except OSError:
        return None


def load_tbb(candidates: Iterable[str] | None = None, load: Callable[[str], object] = _load_library) -> str | None:
    """Make TBB's library loadable for numba: by the loader's own search, else from the first of ``candidates``
    (default :func:`tbb_candidates`) that loads and is recent enough, preloaded globally. Returns where it came
    from (``"loader"`` or the file), or None if no TBB loads."""
    for path in [TBB_NAME, *(tbb_candidates() if candidates is None else candidates)]:
        lib = load(path)
        try:
            version = lib.TBB_runtime_interface_version  # type: ignore[union-attr]
            version.restype = ctypes.c_int
            if version() < TBB_MIN_VERSION:
                continue
        except AttributeError:  # nothing loaded, or not TBB's runtime
            continue
        return "loader" if path == TBB_NAME else path
    return None


def _numba_layer_loads(name: str) -> bool:
    """Does numba's own module of layer ``name`` load (its library found)?"""
    try:
        if name == "tbb":
            import numba.np.ufunc.tbbpool  # noqa: F401
        elif name == "omp":
            import numba.np.ufunc.omppool  # noqa: F401
        return True
    except (ImportError, OSError):
        return False


def omp_loads() -> bool:
    """Does numba's OpenMP layer load (it links GNU OpenMP's ``libgomp``)?"""
    return _numba_layer_loads("omp")


def choose_layer(tbb: Callable[[], str | None], omp: Callable[[], bool]) -> tuple[str, str]:
    """The layer to use and why: TBB if ``tbb()`` finds it, else OpenMP if ``omp()``, else the workqueue."""
    where = tbb()
    if where is not None:
        return "tbb", "TBB's library from the loader's path" if where == "loader" else f"TBB's library from {where}"
    if omp():
        return "omp", "no TBB library found; GNU OpenMP's libgomp loads (spin bounded)"
    return "workqueue", "neither TBB's nor OpenMP's library loads"


def without_tbb_reason(reason: str) -> str:
    """``reason`` for a layer other than TBB, and why TBB is missing where its package is installed without it."""
    where = tbb_dropped()
    if where is None:
        return reason
    lib = os.path.join(where, "lib")
    return (f"{reason}; the tbb package in {where} lacks its library (pip install --target drops it): install tbb "
            f"into a virtual environment or with --prefix, or unpack the tbb wheel's lib/ files into {lib}, where "
            "this runtime looks")  # fmt: skip


LAYER: str = "workqueue"
REASON: str = ""
_launched_in: int | None = None  # the process that launched OpenMP threads first (GNU OpenMP: its forks may not)


def setup() -> str:
    """Choose numba's threading layer for this process (once, before any launch; see the module docstring), and
    return it."""
    global LAYER, REASON
    wanted = os.environ.get("NUMBA_THREADING_LAYER", "").strip().lower()
    if wanted and wanted != "default":
        LAYER = wanted
        REASON = f"NUMBA_THREADING_LAYER={wanted}"
        if wanted in _TBB_ALIASES and _tbb_for_numba() is not None:
            LAYER = "tbb"  # numba's choice for these names where TBB loads
        if LAYER == "omp":
            os.environ.setdefault("GOMP_SPINCOUNT", GOMP_SPINCOUNT)
        return LAYER
    LAYER, REASON = choose_layer(_tbb_for_numba, omp_loads)
    if LAYER != "tbb":
        REASON = without_tbb_reason(REASON)
    if LAYER == "omp":
        os.environ.setdefault("GOMP_SPINCOUNT", GOMP_SPINCOUNT)  # read when libgomp starts its threads
    numba.config.THREADING_LAYER = LAYER
    return LAYER


def _tbb_for_numba() -> str | None:
    """Where TBB's library was loaded from, if numba's TBB layer then loads too; else None."""
    where = load_tbb()
    return where if where is not None and _numba_layer_loads("tbb") else None


def _after_fork_in_child() -> None:
    global _launched_in
    # the parent's OpenMP threads do not exist here; GNU OpenMP would abort at this child's first launch
    if _launched_in is not None:
        _launched_in = -1


os.register_at_fork(after_in_child=_after_fork_in_child)


def may_launch() -> bool:
    """May this process launch numba's threads? Not in a forked child of a process that launched GNU OpenMP's."""
    global _launched_in
    if LAYER != "omp":
        return True
    if _launched_in is None:
        _launched_in = os.getpid()
    return _launched_in == os.getpid()


def threads() -> int:
    """The threads a launch uses (``numba.get_num_threads()``; ``NUMBA_NUM_THREADS`` bounds it, default all cores)."""
    return numba.get_num_threads()


def set_threads(n: int) -> None:
    """Launch on ``n`` threads from now on (1 to ``NUMBA_NUM_THREADS``); a clear error names the bound."""
    most = numba.config.NUMBA_NUM_THREADS
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= most:
        raise ValueError(f"threads={n!r}: must be a whole number from 1 to {most} (NUMBA_NUM_THREADS, this "
                         f"machine's {os.cpu_count()} cores unless set)")  # fmt: skip
    numba.set_num_threads(n)


def parallel_from(per_layer: Mapping[str, int]) -> int:
    """The batch size from which a game's calls run on the threads under this process's layer: ``per_layer[LAYER]``
    (a layer a game does not name gets its workqueue figure, the slowest launch)."""
    return int(per_layer.get(LAYER, per_layer["workqueue"]))


def chunks(batch_size: int, from_batch: int, per_thread: int = 4) -> int:
    """Chunks of a batch for one launch (a few per thread, for balance), or 0: run it on the calling thread (a
    batch under ``from_batch``, one thread, code not compiled, or a forked child of an OpenMP parent)."""
    if batch_size < from_batch or uncompiled.DISABLED:
        return 0
    n = numba.get_num_threads()
    if n < 2 or not may_launch():
        return 0
    return max(1, min(batch_size, per_thread * n))


def active_layer() -> str:
    """The layer numba runs (after a launch, ``numba.threading_layer()``; before, the one chosen)."""
    try:
        return numba.threading_layer()
    except ValueError:  # no launch yet
        return LAYER


def describe() -> str:
    """One line: the threading layer, why it was chosen, and the threads a launch uses."""
    return f"numba threading layer {active_layer()} ({REASON}), {threads()} threads of {os.cpu_count()} cores"


def workqueue_warning(cores: int | None = None, layer: str | None = None) -> str | None:
    """A warning when a machine with more than 2 cores runs on the workqueue layer (its launches are slow, so
    large batches use the threads only from thousands of games, and scale poorly), saying how to fix it; else None."""
    cores = os.cpu_count() if cores is None else cores
    layer = active_layer() if layer is None else layer
    if layer != "workqueue" or not cores or cores <= 2:
        return None
    return (f"warning: numba runs on its workqueue threading layer on this {cores}-core machine, so large batches "
            "use the threads only from thousands of games and scale poorly; install TBB (pip install tbb) or make "
            "GNU OpenMP's libgomp loadable (the libgomp1 system package)")  # fmt: skip


setup()
