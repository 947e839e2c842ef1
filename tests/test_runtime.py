"""The compiled runtime (``industry_env.core.runtime``): which threading layer a process takes, found where pip put
it, the threshold per layer, and the warning on a many-core machine left with the workqueue."""

from __future__ import annotations

import os
import subprocess
import sys
import types

import numba
import pytest

from industry_env.core import runtime


def _tbb(version: int) -> types.SimpleNamespace:
    """A stand-in for TBB's library answering its runtime version."""
    return types.SimpleNamespace(TBB_runtime_interface_version=lambda: version)


def test_tbb_is_taken_first_then_openmp_then_the_workqueue() -> None:
    assert runtime.choose_layer(lambda: "loader", lambda: True)[0] == "tbb"
    assert runtime.choose_layer(lambda: "/x/lib/libtbb.so.12", lambda: True) == (
        "tbb", "TBB's library from /x/lib/libtbb.so.12")  # fmt: skip
    assert runtime.choose_layer(lambda: None, lambda: True)[0] == "omp"
    assert runtime.choose_layer(lambda: None, lambda: False)[0] == "workqueue"


def test_tbb_off_the_loaders_path_is_loaded_from_where_pip_put_it() -> None:
    """The loader does not find it by name; the first candidate file that loads and is recent enough is used."""
    libs = {"/old/libtbb.so.12": _tbb(12050), "/target/lib/libtbb.so.12": _tbb(12110)}
    tried = []

    def load(path: str) -> object:
        tried.append(path)
        return libs.get(path)

    got = runtime.load_tbb(["/missing/libtbb.so.12", "/old/libtbb.so.12", "/target/lib/libtbb.so.12"], load)
    assert got == "/target/lib/libtbb.so.12"
    assert tried == [runtime.TBB_NAME, "/missing/libtbb.so.12", "/old/libtbb.so.12", "/target/lib/libtbb.so.12"]
    assert runtime.load_tbb(["/old/libtbb.so.12"], load) is None  # too old for numba: not taken
    assert runtime.load_tbb([], lambda path: _tbb(12110)) == "loader"  # on the loader's path: found by name


def test_the_candidates_are_the_prefix_lib_and_a_target_folders_lib(tmp_path) -> None:
    venv_lib = tmp_path / "venv" / "lib"
    site = venv_lib / "python3.11" / "site-packages"
    target = tmp_path / "target"
    for folder in (site, target / "lib"):
        folder.mkdir(parents=True)
    (venv_lib / runtime.TBB_NAME).write_bytes(b"")
    (target / "lib" / runtime.TBB_NAME).write_bytes(b"")
    got = runtime.tbb_candidates(paths=[str(site), str(target)], prefixes=[str(tmp_path / "nowhere")])
    assert str(venv_lib / runtime.TBB_NAME) in got and str(target / "lib" / runtime.TBB_NAME) in got


def test_each_layer_has_its_threshold_and_an_unknown_one_gets_the_workqueues(monkeypatch) -> None:
    per_layer = {"tbb": 512, "omp": 256, "workqueue": 8192}
    for layer, want in [("tbb", 512), ("omp", 256), ("workqueue", 8192), ("threadsafe", 8192)]:
        monkeypatch.setattr(runtime, "LAYER", layer)
        assert runtime.parallel_from(per_layer) == want


def test_small_batches_and_one_thread_run_on_the_calling_thread(monkeypatch) -> None:
    monkeypatch.setattr(numba, "get_num_threads", lambda: 4)
    assert runtime.chunks(100, 512) == 0
    assert runtime.chunks(512, 512) == 16
    assert runtime.chunks(3, 2, per_thread=4) == 3  # never more chunks than games
    monkeypatch.setattr(numba, "get_num_threads", lambda: 1)
    assert runtime.chunks(4096, 512) == 0


def test_a_forked_child_of_an_openmp_parent_does_not_launch(monkeypatch) -> None:
    """GNU OpenMP aborts a forked child that launches after its parent did: such a child runs serially."""
    monkeypatch.setattr(runtime, "LAYER", "omp")
    monkeypatch.setattr(runtime, "_launched_in", None)
    assert runtime.may_launch()  # this process launches first
    runtime._after_fork_in_child()  # what os.fork runs in the child
    assert not runtime.may_launch()
    monkeypatch.setattr(numba, "get_num_threads", lambda: 4)
    assert runtime.chunks(4096, 64) == 0
    monkeypatch.setattr(runtime, "LAYER", "tbb")  # TBB is fork-safe
    assert runtime.may_launch()


def test_the_workqueue_on_a_many_core_machine_is_warned_about() -> None:
    assert "workqueue" in runtime.workqueue_warning(16, "workqueue")
    assert "pip install tbb" in runtime.workqueue_warning(16, "workqueue")
    assert runtime.workqueue_warning(2, "workqueue") is None
    assert runtime.workqueue_warning(16, "tbb") is None
    assert runtime.workqueue_warning(16, "omp") is None


def test_set_threads_names_the_bound() -> None:
    with pytest.raises(ValueError, match="from 1 to"):
        runtime.set_threads(numba.config.NUMBA_NUM_THREADS + 1)
    with pytest.raises(ValueError, match="whole number"):
        runtime.set_threads(True)
    before = numba.get_num_threads()
    runtime.set_threads(1)
    try:
        assert numba.get_num_threads() == 1
    finally:
        numba.set_num_threads(before)


_CHOSEN = "from industry_env.core import runtime; import numba; print(runtime.LAYER, numba.config.THREADING_LAYER)"


def test_this_machine_takes_tbb_from_the_wheel_or_says_why_not() -> None:
    """The real choice here: TBB where the wheel is installed (pip puts its library off the loader's path)."""
    import importlib.metadata

    env = {k: v for k, v in os.environ.items() if k != "NUMBA_THREADING_LAYER"}
    out = subprocess.run([sys.executable, "-c", _CHOSEN], env=env, capture_output=True, text=True, check=True)
    layer, numba_layer = out.stdout.split()
    assert layer == numba_layer
    try:
        importlib.metadata.distribution("tbb")
    except importlib.metadata.PackageNotFoundError:
        assert layer in ("omp", "workqueue")
    else:
        assert layer == "tbb"


def test_a_layer_the_user_chooses_is_kept() -> None:
    env = dict(os.environ, NUMBA_THREADING_LAYER="workqueue")
    out = subprocess.run([sys.executable, "-c", _CHOSEN], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["workqueue", "workqueue"]
    env = dict(os.environ, NUMBA_THREADING_LAYER="omp")
    code = _CHOSEN + "; import os; print(os.environ['GOMP_SPINCOUNT'])"
    out = subprocess.run([sys.executable, "-c", code], env={k: v for k, v in env.items() if k != "GOMP_SPINCOUNT"},
                         capture_output=True, text=True, check=True)  # fmt: skip
    assert out.stdout.split() == ["omp", "omp", runtime.GOMP_SPINCOUNT]  # OpenMP's spin bounded


def test_warmup_prints_the_layer_and_the_threads(capsys) -> None:
    from industry_env.cli import main

    assert main(["warmup", "--no-agents", "--game", "industry"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert (
        first.startswith(f"numba threading layer {runtime.active_layer()} (")
        and f"{runtime.threads()} threads" in first
    )


_FORKED = """
import multiprocessing, numpy as np, numba
from industry_env.registry import load_game
E = load_game("industry").engine
def points(seed):
    s, rng = E.init(1024, seed=seed), np.random.default_rng(seed)
    for _ in range(30):
        s, _ = E.random_step(s, rng, inplace=True)
    return s.points.sum().item()
here = points(5)
with multiprocessing.get_context("fork").Pool(1) as pool:
    child = pool.apply(points, (5,))
print(numba.threading_layer(), here == child)
"""


def test_a_forked_child_of_an_openmp_process_steps_serially_with_the_same_results() -> None:
    """GNU OpenMP terminates a forked child that launches threads after its parent did (a SubprocVecEnv worker):
    on the OpenMP layer the child plays its batch on its calling thread instead, the same games."""
    if not runtime.omp_loads():
        pytest.skip("numba's OpenMP layer does not load here")
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_NUM_THREADS"}
    env["NUMBA_THREADING_LAYER"] = "omp"
    out = subprocess.run([sys.executable, "-c", _FORKED], env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split()[-2:] == ["omp", "True"]


def test_a_tbb_package_installed_without_its_library_is_named_with_the_fix(tmp_path) -> None:
    """``pip install --target DIR tbb`` keeps the package's metadata but drops its ``lib/`` files: the reason the
    bench prints names the folder and how to install TBB instead."""
    info = tmp_path / "tbb-2023.2.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: tbb\nVersion: 2023.2.0\n")
    (info / "RECORD").write_text(f"../../../lib/{runtime.TBB_NAME},,\ntbb-2023.2.0.dist-info/METADATA,,\n")
    assert runtime.tbb_dropped([str(tmp_path)]) == str(tmp_path)
    (info / "RECORD").write_text("tbb-2023.2.0.dist-info/METADATA,,\n")  # pip 24 does not list them at all
    assert runtime.tbb_dropped([str(tmp_path)]) == str(tmp_path)
    assert runtime.tbb_dropped([str(tmp_path / "nothing-here")]) is None


def test_a_tbb_package_with_its_library_is_not_reported_missing(tmp_path) -> None:
    info = tmp_path / "site" / "tbb-2023.2.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: tbb\nVersion: 2023.2.0\n")
    (info / "RECORD").write_text(f"../lib/{runtime.TBB_NAME},,\n")
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / runtime.TBB_NAME).write_bytes(b"")
    assert runtime.tbb_dropped([str(tmp_path / "site")]) is None


def test_without_tbb_the_reason_says_the_package_lacks_its_library(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(runtime, "tbb_dropped", lambda: "/opt/target")
    reason = runtime.without_tbb_reason("no TBB library found")
    assert reason.startswith("no TBB library found; the tbb package in /opt/target lacks its library")
    assert "--prefix" in reason and "/opt/target/lib" in reason
    monkeypatch.setattr(runtime, "tbb_dropped", lambda: None)
    assert runtime.without_tbb_reason("no TBB library found") == "no TBB library found"
