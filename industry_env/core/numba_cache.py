"""Is numba's disk cache of a compiled module fresh? Checked on the content of every file its code depends on.

numba caches a function's machine code next to its module and reuses it while that one file's content is the
same (numba 0.68 hashes the file; older versions compare its modification time). The compiled kernels also
hold numbers from other modules as constants (the rules, the action encoding, the numpy heuristic's weights):
if only those change, numba would reuse code built from the old numbers. So each compiled module keeps, in
numba's cache directory, a stamp with the hash of all its sources, written after a full compile; a missing or
different stamp empties the module's cache, and the next calls compile afresh. File times play no part: a
``git checkout`` or a reinstall of the same files is not a change.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence


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


def is_fresh(entries: Sequence, dispatchers: Sequence, sources: Sequence[str], name: str) -> bool:
    """Does numba's cache hold code for each of ``entries`` (the functions called from Python), compiled from
    these very ``sources``?

    If not, the cache of every one of ``dispatchers`` (the module's compiled functions) is emptied, so that
    their next calls compile, and False is returned; :func:`mark_fresh` records the sources after the compile.
    ``name`` names the stamp file. numba internals that moved count as fresh: better no message than a wrong one.
    """
    try:
        with open(_stamp_path(entries, name), encoding="ascii") as fh:
            same = fh.read().strip() == sources_digest(sources)
        if same and all(f._cache._cache_file._load_index() for f in entries):
            return True
    except FileNotFoundError:
        pass
    except (AttributeError, OSError, ValueError, EOFError):  # numba internals moved, or an unreadable stamp
        return True
    try:
        for f in dispatchers:
            f._cache.flush()
    except (AttributeError, OSError):
        pass
    return False


def mark_fresh(entries: Sequence, sources: Sequence[str], name: str) -> None:
    """Record that numba's cache now holds code compiled from ``sources`` (call it after a full compile)."""
    try:
        with open(_stamp_path(entries, name), "w", encoding="ascii") as fh:
            fh.write(sources_digest(sources) + "\n")
    except (AttributeError, OSError):  # a read-only cache directory: numba did not cache either
        pass
