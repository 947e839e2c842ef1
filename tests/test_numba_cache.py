"""The freshness of numba's disk cache (``industry_env.core.numba_cache``): by the content of every source, not by
file times; a damaged cache is emptied and rebuilt; no writable cache folder means compiling without one. Checked
on stand-ins for numba's dispatchers, and in subprocesses on a small compiled module whose cache lives in a
temporary NUMBA_CACHE_DIR, so that the suite never empties the real cache."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
import textwrap

import pytest

from industry_env.core import numba_cache


class _Cache:
    """What ``numba_cache`` uses of a dispatcher's cache: its directory, its index, and ``flush``."""

    def __init__(self, path: str, index: dict) -> None:
        self._cache_path = path
        self._cache_file = self
        self.index = index
        self.flushes = 0

    def _load_index(self) -> dict:
        if isinstance(self.index, Exception):
            raise self.index
        return self.index

    def _load_data(self, name: str) -> str:
        return name

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


def test_an_unreadable_index_is_damage_not_freshness(tmp_path, capsys) -> None:
    """A truncated index made every later call raise; is_fresh took the EOFError for "numba internals moved"."""
    fns, sources = _setup(tmp_path)
    numba_cache.mark_fresh(fns, sources, "kernel")
    fns[0]._cache.index = EOFError("Ran out of input")
    assert not numba_cache.is_fresh(fns, fns, sources, "kernel")
    assert [f._cache.flushes for f in fns] == [1, 1]
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "damaged" in err[0] and "EOFError" in err[0]


_TOY = """
from industry_env.core import numba_cache
from industry_env.core.numba_cache import njit


@njit(cache=True)
def helper(x):
    return x * 2


@njit(cache=True)
def entry(x):
    return helper(x) + 1


fresh = numba_cache.is_fresh([entry], [helper, entry], [__file__], "toy")
print(entry(20), fresh)
if not fresh:
    numba_cache.mark_fresh([entry], [__file__], "toy")
"""


def _run(folder, **env: str) -> tuple[str, str]:
    """Run the toy compiled module in a new process; its stdout and stderr."""
    code = f"import sys; sys.path.insert(0, {str(folder)!r}); import toy"
    full = {**os.environ, "PYTHONWARNINGS": "default", **env}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=full, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip(), done.stderr.strip()


@pytest.fixture()
def toy(tmp_path):
    pytest.importorskip("numba")
    (tmp_path / "toy.py").write_text(textwrap.dedent(_TOY))
    return tmp_path


def test_a_truncated_cache_file_is_emptied_and_rebuilt(toy) -> None:
    cache = toy / "cache"
    env = {"NUMBA_CACHE_DIR": str(cache)}
    assert _run(toy, **env) == ("41 False", "")  # compiled, cached
    for suffix in (".nbc", ".nbi"):
        [damaged] = [p for p in cache.rglob(f"toy.entry-*{suffix}")]
        damaged.write_bytes(damaged.read_bytes()[: damaged.stat().st_size // 2])
        out, err = _run(toy, **env)
        assert out == "41 False"  # works, compiling afresh
        assert len(err.splitlines()) == 1 and "damaged" in err and damaged.name in err, err
    assert _run(toy, **env) == ("41 True", "")  # the rebuilt cache loads, silently


def test_no_writable_cache_folder_compiles_without_it_after_one_warning(toy) -> None:
    """numba's locators all fail: its own user folder only (NUMBA_CACHE_LOCATOR_CLASSES), and that one unwritable
    (beneath a file), as for a read-only install with an unwritable home."""
    blocker = toy / "not-a-folder"
    blocker.write_text("")
    env = {"NUMBA_CACHE_DIR": str(blocker / "cache"), "NUMBA_CACHE_LOCATOR_CLASSES": "UserProvidedCacheLocator"}
    out, err = _run(toy, **env)
    assert out == "41 True"
    assert err.count("NumbaCacheWarning") == 1 and "NUMBA_CACHE_DIR" in err and "Traceback" not in err
    code = "import industry_env.games.industry.kernel, industry_env.games.industry.observe_kernel; print('imported')"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONWARNINGS": "default", **env})  # fmt: skip
    assert done.returncode == 0 and done.stdout.strip() == "imported", done.stderr
    assert done.stderr.count("NumbaCacheWarning") == 1


_RULES = """
import numpy as np

from industry_env.core.batch_entries import compile_for
from industry_env.core.numba_cache import njit


@njit(cache=True)
def mask_row(g, i, row):
    row[:] = False
    row[LEGAL] = True


@njit(cache=True)
def apply(g, i, a):
    g.to_move[i] = a


check_range, step_range, mask_range, run_parallel = compile_for(mask_row, apply, 3, __name__)
"""
_TWO_GAMES = """
from collections import namedtuple

import numpy as np

import first, last

Games = namedtuple("Games", "terminated rewards num_players to_move")
g = Games(np.zeros(2, np.bool_), np.zeros((2, 2), np.float32), np.full(2, 2, np.int8), np.zeros(2, np.int64))
actions, legal, no_mask = np.array([0, 0]), np.zeros(2, np.bool_), np.zeros((0, 3), np.bool_)
bad = [k.check_range(g, actions, no_mask, False, legal, np.int64(0), np.int64(2)) for k in (first, last)]
print(*bad, all(k.check_range.stats.cache_hits for k in (first, last)))
"""


def test_core_batch_entries_compile_a_cached_copy_for_each_games_rules(tmp_path) -> None:
    """Two games' copies of core's batch loops, each over its own rules, in one cache folder: each keeps to its
    rules (game ``first`` allows action 0, ``last`` does not) and each loads from the disk cache in a new process,
    neither taken for the other."""
    pytest.importorskip("numba")
    for name, legal in (("first", 0), ("last", 2)):
        (tmp_path / f"{name}.py").write_text(textwrap.dedent(_RULES).replace("LEGAL", str(legal)))
    (tmp_path / "toy.py").write_text(textwrap.dedent(_TWO_GAMES))
    env = {"NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    assert _run(tmp_path, **env)[0] == "0 2 False"  # compiled
    assert _run(tmp_path, **env)[0] == "0 2 True"  # loaded
    assert len(list((tmp_path / "cache").rglob("batch_entries.*.check_range-*.nbi"))) == 2


def test_core_batch_entries_refuse_a_second_copy_under_one_name() -> None:
    pytest.importorskip("numba")
    from industry_env.core import batch_entries
    from industry_env.games.nim import kernel

    with pytest.raises(ValueError, match="already has its batch entries"):
        batch_entries.compile_for(kernel.mask_row, kernel.apply, 9, kernel.__name__)
    with pytest.raises(ValueError, match="is not in sys.modules"):
        batch_entries.compile_for(kernel.mask_row, kernel.apply, 9, "no_such_kernel")


class _Terminal:
    """A stand-in stderr that says it is a terminal and keeps what is written."""

    def __init__(self, tty: bool) -> None:
        self.tty, self.parts = tty, []

    def isatty(self) -> bool:
        return self.tty

    def write(self, text: str) -> None:
        self.parts.append(text)

    def flush(self) -> None:
        pass

    @property
    def text(self) -> str:
        return "".join(self.parts)


def test_a_cold_compile_is_its_own_step_with_an_honest_estimate_and_the_time_it_took(monkeypatch) -> None:
    """The first Age of Industry command compiled for 60 s quiet, 214 s under load, saying only "about 60 s"."""
    monkeypatch.setattr(numba_cache, "SUGGEST_WARMUP", True)
    monkeypatch.setattr(numba_cache, "COMPILED", [])
    log = _Terminal(tty=False)
    with numba_cache.CompileNotice("the test engine", 60, stream=log):
        pass
    first, last = log.text.splitlines()[0], log.text.splitlines()[-1]
    assert "compiling the test engine, once" in first and "about 60 s on a quiet 2-core machine" in first
    assert "several times longer on a busy one" in first
    assert "industry-env warmup" in log.text  # the first compile of a process suggests compiling ahead
    assert last.startswith("industry_env: compiled the test engine in ") and last.endswith(" s")
    assert "\r" not in log.text  # no elapsed-time line where stderr is a log file
    assert [what for what, _ in numba_cache.COMPILED] == ["the test engine"]
    again = _Terminal(tty=False)
    numba_cache.CompileNotice("another engine", 20, stream=again).done()
    assert "warmup" not in again.text  # suggested once a process


def test_on_a_terminal_the_compile_shows_the_seconds_elapsed_while_it_runs(monkeypatch) -> None:
    monkeypatch.setattr(numba_cache, "COMPILED", [])
    tty = _Terminal(tty=True)
    notice = numba_cache.CompileNotice("the test engine", 60, stream=tty)
    import time

    time.sleep(1.3)
    assert notice.done() >= 1.3
    assert "\r  compiling the test engine: 1 s elapsed" in tty.text
    assert tty.text.endswith("s\n") and "compiled the test engine in 1 s" in tty.text


def test_warmup_says_per_game_what_it_compiled_and_how_long_each_step_took(capsys) -> None:
    import argparse

    from industry_env import warmup

    assert warmup.run(argparse.Namespace(game=["industry"], no_agents=True)) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].startswith("numba threading layer ")  # the runtime first: which layer, how many threads
    assert lines[1] == "Industry:" and lines[-2].startswith("Industry: ready (")
    for kernels in ("serial kernels, batch 1", "threaded kernels, batch 1,024"):
        assert re.search(rf"  batched engine \({kernels}\): \d+\.\d s \(\d+\.\d s of CPU(, compiled)?\)", out), out
    assert lines[-1].startswith("done in ") and "disk cache" in lines[-1]


def test_warmup_compiles_the_listed_games_or_the_one_named(monkeypatch, capsys) -> None:
    """Every listed game by default (make demo runs it first); ``--game`` compiles that one alone (a game still being
    built, registered hidden, is compiled only when named)."""
    import argparse

    from industry_env import warmup
    from industry_env.registry import available_games

    warmed: list[str] = []
    monkeypatch.setattr(warmup, "warm_game", lambda game, agents, report: warmed.append(game) or 0.0)
    assert warmup.run(argparse.Namespace(game=None, no_agents=True, jobs=1)) == 0
    assert warmed == available_games()
    warmed.clear()
    assert warmup.run(argparse.Namespace(game=["twentieth_century"], no_agents=True)) == 0
    assert warmed == ["twentieth_century"]


def test_warmup_compiles_the_games_at_the_same_time_one_process_each(monkeypatch, capsys) -> None:
    """`industry-env warmup` from a wheel compiled the three games one after another (about 2 minutes of CPU on one
    core); numba compiles a game on one core, so the games now compile in processes of their own, as make does."""
    import argparse
    import subprocess
    import threading
    import time

    from industry_env import warmup

    running, most, lock = [0], [0], threading.Lock()

    def compile_in_a_process(argv, capture_output, text):  # a stand-in for `python -m industry_env.warmup --part`
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        time.sleep(0.5)
        with lock:
            running[0] -= 1
        game = argv[argv.index("--game") + 1]
        return subprocess.CompletedProcess(argv, 0, f"{game}:\n{game}: ready (0.5 s)\n", "")

    monkeypatch.setattr(subprocess, "run", compile_in_a_process)
    games = ["industry", "age_of_industry", "twentieth_century"]
    assert warmup.run(argparse.Namespace(game=games, no_agents=False, jobs=2)) == 0
    out = capsys.readouterr().out
    assert most[0] == 2  # two at a time, not one after another, nor more than asked
    assert all(f"{g}: ready (0.5 s)" in out for g in games) and out.splitlines()[-1].startswith("done in ")


def test_warmup_of_a_game_without_a_batched_engine_claims_no_compiled_code(monkeypatch, capsys) -> None:
    """A game played by its reference engine alone printed "done in 0 s: numba's disk cache holds the compiled
    code": nothing was compiled, so nothing is cached."""
    import argparse
    import types

    from industry_env import warmup

    monkeypatch.setattr(warmup, "load_game", lambda game: types.SimpleNamespace(name="Toy", engine_module=None))
    assert warmup.run(argparse.Namespace(game=["toy"], no_agents=True)) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-2:] == ["Toy: no batched engine, nothing to compile", "done: nothing was compiled"]


def test_the_demo_compiles_before_its_first_game_and_times_it_apart_from_the_speed_of_play(monkeypatch,
                                                                                         capsys) -> None:
    """The first demo reported 8,043 steps/s against 78,812 once compiled: the compile was counted as play. And it
    compiled in the middle of its output, after the reference games: everything compiles before the first game."""
    import time

    from industry_env import warmup
    from industry_env.cli import main
    from industry_env.games.industry import engine

    mask, calls = engine.legal_action_mask, []
    out = io.StringIO()

    def first_call_compiles(state):  # a stand-in for the first call's compile: 3 s, once
        if not calls:
            calls.append(out.tell())  # how much of the demo was printed before the compile
            time.sleep(3.0)
        return mask(state)

    monkeypatch.setattr(engine, "legal_action_mask", first_call_compiles)
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(warmup, "_DONE", set())  # as in a new process: nothing made ready yet
    assert main(["demo", "--games", "1"]) == 0
    text = out.getvalue()
    assert calls == [0]  # nothing of the demo shown yet: the compile came first
    ready = re.search(r"the batched engine: .* in (\d+\.\d) s \(not counted in its speed below\)", text)
    speed = re.search(r"with the batched engine: \d+ steps in (\d+\.\d+) s", text)
    assert ready and speed and text.index(ready.group(0)) < text.index(speed.group(0))
    assert float(speed.group(1)) < 3.0


def test_a_compile_step_is_one_notice_with_the_estimate_of_all_it_compiles(monkeypatch) -> None:
    """play compiled Industry's strong heuristic (10 s, it said) and, inside it, the engine (30 s more, said in a
    second notice in the middle of the first); one step now says both, with the sum, once."""
    monkeypatch.setattr(numba_cache, "SUGGEST_WARMUP", False)
    monkeypatch.setattr(numba_cache, "COMPILED", [])
    log = _Terminal(tty=False)
    due = {"the test engine": True, "a kernel never used": False}
    expected = [(what, seconds, lambda what=what: due[what]) for what, seconds in
                (("the test engine", 30), ("a kernel never used", 99))]  # fmt: skip
    with numba_cache.CompileStep("what the test needs", expected, stream=log):
        with numba_cache.CompileNotice("the test heuristic", 10, stream=log):
            with numba_cache.CompileNotice("the test engine", 30, stream=log):
                pass
    lines = log.text.splitlines()
    assert len(lines) == 2, lines
    assert lines[0].startswith("industry_env: compiling what the test needs (the test heuristic and the test engine)")
    assert "about 40 s on a quiet 2-core machine" in lines[0]  # the heuristic's 10 s and the engine's 30 s
    assert lines[1].startswith("industry_env: compiled what the test needs (")
    assert "\r" not in log.text
    assert [what for what, _ in numba_cache.COMPILED][:2] == ["the test engine", "the test heuristic"]


def test_a_compile_step_says_nothing_when_everything_loads_from_the_cache(monkeypatch) -> None:
    """The arena said "compiling Industry's kernels" on every run, also when it only loaded them."""
    monkeypatch.setattr(numba_cache, "COMPILED", [])
    log = _Terminal(tty=True)
    with numba_cache.CompileStep("what the test needs", stream=log) as step:
        pass
    assert log.text == "" and step.seconds == 0.0 and numba_cache.COMPILED == []
    with numba_cache.CompileStep("what the test needs", stream=log):
        numba_cache.CompileNotice("the test engine", 5, stream=log).done()
    assert log.text.count("compiling what the test needs (the test engine)") == 1
    after = _Terminal(tty=False)  # outside a step, a notice speaks for itself again
    numba_cache.CompileNotice("the test engine", 5, stream=after).done()
    assert "compiling the test engine, once" in after.text
