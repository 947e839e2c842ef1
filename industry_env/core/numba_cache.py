"""Is numba's disk cache of a compiled module fresh and whole? Checked on the content of every file its code
depends on, and on every cache file it would load.

numba caches a function's machine code next to its module and reuses it while that one file's content is the
same (numba 0.68 hashes the file; older versions compare its modification time). The compiled kernels also
hold numbers from other modules as constants (the rules, the action encoding, the numpy heuristic's weights):
if only those change, numba would reuse code built from the old numbers. So each compiled module keeps, in
numba's cache directory, a stamp with the hash of all its sources, written after a full compile; a missing or
different stamp empties the module's cache, and the next calls compile afresh. File times play no part: a
``git checkout`` or a reinstall of the same files is not a change.

Two ways a disk cache fails are handled here rather than left to numba, which would raise on every later call
in every process:

* a damaged cache (an index ``.nbi`` or code ``.nbc`` file cut short or overwritten: a full disk, a copy
  interrupted) is found by :func:`is_fresh`, which reads every file numba would load; the module's cache is then
  emptied and rebuilt, with one line on stderr;
* no writable cache folder (a read-only install, an unwritable home and ``NUMBA_CACHE_DIR``): numba refuses
  ``cache=True`` with ``cannot cache function ...: no locator available``. :func:`njit` compiles such functions
  without the disk cache instead, with one :class:`NumbaCacheWarning` a process.

A cold compile is its own step for the user: :class:`CompileNotice` says on stderr what compiles, an honest
estimate, the elapsed seconds while it runs (on a terminal) and how long it took, and suggests
``industry-env warmup``, which compiles every game once, ahead of time. :class:`CompileStep` gathers the compiles a
command needs before its first prompt (an agent's kernel and the engine it builds on) into one such notice.
"""

from __future__ import annotations

import hashlib
import os
import sys
import threading
import time
import warnings
from collections.abc import Callable, Sequence
from typing import Any


def sources_digest(sources: Sequence[str]) -> str:
    """The SHA-256 of the files ``sources``, in order."""
    h = hashlib.sha256()
    for path in sources:
        with open(path, "rb") as fh:
            h.update(fh.read())
        h.update(b"\0")
    return h.hexdigest()


def _stamp_path(dispatchers: Sequence, name: str) -> str:
    return os.path.join(dispatchers[0]._cache._cache_path, f"{name}.sources-sha256")


def damage(dispatchers: Sequence) -> str | None:
    """What is wrong with numba's cache files of ``dispatchers`` (the first unreadable file and why), or None.

    Every index file and every code file an index names is read as numba reads them when it loads a function, so
    a file numba would fail on is found here, before any call. A code file missing is not damage (numba then
    compiles that version again); numba internals that moved, or a function without a disk cache, are not
    checked.
    """
    for f in dispatchers:
        try:
            cache_file = f._cache._cache_file
            load_index, load_data = cache_file._load_index, cache_file._load_data
            where = getattr(cache_file, "_index_path", "the index")
        except AttributeError:
            continue
        try:
            for data_name in list(load_index().values()):
                where = data_name
                try:
                    load_data(data_name)
                except FileNotFoundError:
                    continue
        except Exception as exc:  # unpickling a damaged file raises any of a dozen kinds of error
            return f"{os.path.basename(str(where))}: {type(exc).__name__}: {exc}"
    return None


def empty(dispatchers: Sequence) -> None:
    """Empty numba's cache of each of ``dispatchers`` (their next calls compile); a cache that cannot be written is
    not used by this process instead."""
    for f in dispatchers:
        try:
            try:
                f._cache.flush()
            except OSError:
                f._cache.disable()
        except AttributeError:  # numba internals moved, or no disk cache
            pass


def repair(dispatchers: Sequence, name: str) -> bool:
    """Empty numba's cache of ``dispatchers`` if a file of it is damaged, saying so in one line on stderr (``name``
    names the module); True if it was."""
    why = damage(dispatchers)
    if why is None:
        return False
    print(f"industry_env: numba's disk cache of {name} was damaged ({why}): emptied, it is rebuilt as the code "
          f"compiles", file=sys.stderr, flush=True)  # fmt: skip
    empty(dispatchers)
    return True


def is_fresh(entries: Sequence, dispatchers: Sequence, sources: Sequence[str], name: str) -> bool:
    """Does numba's cache hold code for each of ``entries`` (the functions called from Python), compiled from
    these very ``sources``, in files numba can read?

    If not, the cache of every one of ``dispatchers`` (the module's compiled functions) is emptied, so that
    their next calls compile, and False is returned; :func:`mark_fresh` records the sources after the compile.
    A damaged cache file is reported on stderr (:func:`repair`). ``name`` names the stamp file. numba internals
    that moved, and functions compiled without a disk cache (:func:`njit`'s fallback), count as fresh: better no
    message than a wrong one.
    """
    try:
        stamp = _stamp_path(entries, name)
        indexes = [f._cache._cache_file._load_index for f in entries]
    except AttributeError:
        return True
    if repair(dispatchers, name):
        return False
    try:
        with open(stamp, encoding="ascii") as fh:
            same = fh.read().strip() == sources_digest(sources)
        if same and all(load() for load in indexes):
            return True
    except (OSError, ValueError):  # no stamp yet, or an unreadable one: compile afresh and write it again
        pass
    empty(dispatchers)
    return False


def mark_fresh(entries: Sequence, sources: Sequence[str], name: str) -> None:
    """Record that numba's cache now holds code compiled from ``sources`` (call it after a full compile)."""
    try:
        with open(_stamp_path(entries, name), "w", encoding="ascii") as fh:
            fh.write(sources_digest(sources) + "\n")
    except (AttributeError, OSError):  # a read-only cache directory, or no disk cache: numba did not cache either
        pass


class NumbaCacheWarning(UserWarning):
    """numba has no writable folder for its disk cache: compiled code is built afresh in every process."""


_warned_no_cache = False


def njit(*args: Any, **options: Any) -> Any:
    """``numba.njit``, except that a function asking for ``cache=True`` where numba finds no writable folder for
    its disk cache compiles without it (one :class:`NumbaCacheWarning` a process) instead of failing at import
    with numba's ``cannot cache function ...: no locator available``."""
    import numba

    def decorate(fn: Callable) -> Any:
        global _warned_no_cache
        try:
            return numba.njit(**options)(fn)
        except RuntimeError as exc:
            if not options.get("cache") or "no locator available" not in str(exc):
                raise
            if not _warned_no_cache:
                _warned_no_cache = True
                warnings.warn(
                    "numba finds no writable folder for its disk cache (the package folder, the user's cache "
                    "folder and NUMBA_CACHE_DIR): compiling without it, again in every process; set NUMBA_CACHE_DIR "
                    f"to a writable folder to keep the compiled code ({exc})",
                    NumbaCacheWarning,
                    stacklevel=3,
                )
            return numba.njit(**{**options, "cache": False})(fn)

    if args and callable(args[0]) and len(args) == 1:
        return decorate(args[0])
    if args:
        raise TypeError("njit takes the function, or keyword options only (cache=True, parallel=True)")
    return decorate


# The cold compiles of this process: (what, seconds); ``industry-env warmup`` reads it to tell compiled from loaded.
COMPILED: list[tuple[str, float]] = []
# The first notice suggests ``industry-env warmup``; the warm-up command itself turns this off.
SUGGEST_WARMUP = True
# The step that speaks for every compile inside it (:class:`CompileStep`), while one runs.
_STEP: CompileStep | None = None


class CompileNotice:
    """A cold compile shown as its own step on stderr: what compiles and an estimate, then (on a terminal) the
    elapsed seconds, updated every second, then how long it took. ``quiet_seconds`` is what the compile took on
    the project's quiet 2-core machine; a busy machine takes several times longer (4.5 times, measured under a
    load of 5 on 2 cores), and the notice says so.

    ``notice = CompileNotice("the Age of Industry engine", 60)`` ... ``notice.done()``, or use it as a context
    manager. ``note`` is added to the first line (how to avoid the compile, say).
    """

    def __init__(self, what: str, quiet_seconds: float, note: str = "", stream: Any = None) -> None:
        global SUGGEST_WARMUP
        self.what, self.stream = what, stream if stream is not None else sys.stderr
        self.t0 = time.perf_counter()
        self._stop = threading.Event()
        self._ticker: threading.Thread | None = None
        self._silent = _STEP is not None
        if self._silent:  # a CompileStep speaks for this compile: its one notice names it
            _STEP.starting(what, quiet_seconds, note)
            return
        hint = ""
        if SUGGEST_WARMUP:
            SUGGEST_WARMUP = False
            hint = "\n  (`industry-env warmup` compiles every game once, ahead of time, and says how long each took)"
        self._write(f"industry_env: compiling {what}, once (numba's disk cache keeps it for every later process): "
                    f"about {quiet_seconds:.0f} s on a quiet 2-core machine, several times longer on a busy one"
                    f"{'; ' + note if note else ''}{hint}\n")  # fmt: skip
        if _is_terminal(self.stream):  # elsewhere (a log, a pipe) only whole lines: no line redrawn with \r
            self._ticker = threading.Thread(target=self._tick, name="industry_env compile notice", daemon=True)
            self._ticker.start()

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):  # a closed or broken stderr: the compile goes on without the notice
            pass

    def _tick(self) -> None:
        while not self._stop.wait(1.0):
            self._write(f"\r  compiling {self.what}: {time.perf_counter() - self.t0:.0f} s elapsed")

    def done(self) -> float:
        """Stop the elapsed-time line, say how long the compile took, and return the seconds."""
        seconds = time.perf_counter() - self.t0
        if self._ticker is not None:
            self._stop.set()
            self._ticker.join()
            self._write("\r" + " " * (len(self.what) + 40) + "\r")
        COMPILED.append((self.what, seconds))
        if not self._silent:
            self._write(f"industry_env: compiled {self.what} in {seconds:.0f} s\n")
        return seconds

    def __enter__(self) -> CompileNotice:
        return self

    def __exit__(self, *exc: object) -> None:
        self.done()


class CompileStep:
    """Every cold compile a command needs before its first prompt, shown as one step: the compiles inside it say
    nothing of their own; the first of them prints this step's one notice (what compiles, with the estimate of
    all of it), and :meth:`done` says how long it all took. Nothing is printed when everything loads from the disk
    cache.

    ``what`` names the step (``"what the game needs"``); ``expected`` lists the other compiles known to be due
    besides the first, as (what, quiet seconds, still due): a kernel the first one builds on (an agent's kernel on
    the game's engine) is added to the estimate when it is due, so that the estimate is the step's, not its first
    part's. Use it as a context manager.
    """

    def __init__(self, what: str, expected: Sequence[tuple[str, float, Callable[[], bool]]] = (),
                 stream: Any = None) -> None:  # fmt: skip
        self.what, self.expected, self.stream = what, list(expected), stream
        self.notice: CompileNotice | None = None
        self.parts: list[str] = []
        self.seconds: float | None = None  # what the compiles took, once the step is done

    def starting(self, what: str, quiet_seconds: float, note: str = "") -> None:
        """A compile inside the step begins: the first prints the step's notice."""
        self.parts.append(what)
        if self.notice is not None:
            return
        parts, seconds = [what], quiet_seconds
        for other, other_seconds, due in self.expected:
            if other != what and due():
                parts.append(other)
                seconds += other_seconds
        names = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
        global _STEP
        outer, _STEP = _STEP, None  # the step's own notice speaks
        try:
            self.notice = CompileNotice(f"{self.what} ({names})", seconds, note, self.stream)
        finally:
            _STEP = outer

    def done(self) -> float:
        """End the step; the seconds its compiles took (0 when everything loaded from the cache)."""
        global _STEP
        if _STEP is self:
            _STEP = None
        if self.seconds is None:
            self.seconds = self.notice.done() if self.notice is not None else 0.0
        return self.seconds

    def __enter__(self) -> CompileStep:
        global _STEP
        if _STEP is None:  # a step inside another is part of it
            _STEP = self
        return self

    def __exit__(self, *exc: object) -> None:
        self.done()


def _is_terminal(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, OSError, ValueError):
        return False
