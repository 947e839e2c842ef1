"""The freshness of numba's disk cache (``industry_env.core.numba_cache``): by the content of every source, not by
file times. Checked on stand-ins for numba's dispatchers, so that the suite never empties the real cache."""

from __future__ import annotations

import os

from industry_env.core import numba_cache


class _Cache:
    """What ``numba_cache`` uses of a dispatcher's cache: its directory, its index, and ``flush``."""

    def __init__(self, path: str, index: dict) -> None:
        self._cache_path = path
        self._cache_file = self
        self.index = index
        self.flushes = 0

    def _load_index(self) -> dict:
        return self.index

    def flush(self) -> None:
        self.flushes += 1
        self.index = {}


class _Dispatcher:
    def __init__(self, path: str, compiled: bool = True) -> None:
        self._cache = _Cache(path, {"sig": "code"} if compiled else {})


def _setup(tmp_path):
    rules, kernel = tmp_path / "rules.py", tmp_path / "kernel.py"
    rules.write_text("MAX_BID = 112\n")
    kernel.write_text("def step(): ...\n")
    fns = [_Dispatcher(str(tmp_path)), _Dispatcher(str(tmp_path))]
    return fns, [str(kernel), str(rules)]


def test_a_cache_without_a_stamp_is_stale_and_emptied(tmp_path) -> None:
    fns, sources = _setup(tmp_path)
    assert not numba_cache.is_fresh(fns, fns, sources, "kernel")
    assert [f._cache.flushes for f in fns] == [1, 1]


def test_a_stamped_cache_is_fresh_whatever_the_file_times(tmp_path) -> None:
    fns, sources = _setup(tmp_path)
    numba_cache.mark_fresh(fns, sources, "kernel")
    later = os.path.getmtime(sources[0]) + 3600
    for path in sources:  # a git checkout or a reinstall of the same files: newer times, same content
        os.utime(path, (later, later))
    assert numba_cache.is_fresh(fns, fns, sources, "kernel")
    assert [f._cache.flushes for f in fns] == [0, 0]


def test_a_changed_dependency_makes_the_cache_stale(tmp_path) -> None:
    """numba rehashes only the kernel's own file; a rules constant changing elsewhere must recompile too."""
    fns, sources = _setup(tmp_path)
    numba_cache.mark_fresh(fns, sources, "kernel")
    (tmp_path / "rules.py").write_text("MAX_BID = 99\n")
    assert not numba_cache.is_fresh(fns, fns, sources, "kernel")
    assert all(f._cache.flushes == 1 and f._cache.index == {} for f in fns)
    numba_cache.mark_fresh(fns, sources, "kernel")  # after the compile
    for f in fns:
        f._cache.index = {"sig": "new code"}
    assert numba_cache.is_fresh(fns, fns, sources, "kernel")


def test_an_entry_numba_holds_no_code_for_is_stale(tmp_path) -> None:
    fns, sources = _setup(tmp_path)
    numba_cache.mark_fresh(fns, sources, "kernel")
    fns[1]._cache.index = {}  # numba found its own file changed, or never compiled this one
    helper = _Dispatcher(str(tmp_path))
    assert not numba_cache.is_fresh(fns, [*fns, helper], sources, "kernel")
    assert helper._cache.flushes == 1  # the whole module's cache goes, helpers included


def test_stamps_of_two_modules_are_separate(tmp_path) -> None:
    fns, sources = _setup(tmp_path)
    numba_cache.mark_fresh(fns, sources, "kernel")
    assert not numba_cache.is_fresh(fns, fns, sources, "strong_kernel")
    assert sorted(p.name for p in tmp_path.glob("*.sources-sha256")) == ["kernel.sources-sha256"]
