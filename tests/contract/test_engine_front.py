"""The batched engines' shared front (``industry_env.core.batched``): every engine answers every verb the tools call
(``industry_env.core.spec.BatchedEngine``) and runs ``bench``, every game's kernel provides exactly the documented
entries, every engine refuses bad input with the front's one message, and a batch run on the threads plays what the
calling thread plays."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from industry_env.core import batched, runtime
from industry_env.core.spec import ENGINE_VERBS, engine_problems
from industry_env.registry import available_games, load_game

pytest.importorskip("numba")

GAMES = [g for g in available_games(include_hidden=True) if load_game(g).engine_module is not None]


def _kernel(game: str):
    return importlib.import_module(load_game(game).engine_module.rsplit(".", 1)[0] + ".kernel")


@pytest.mark.parametrize("game", GAMES)
def test_every_engine_answers_every_verb_the_tools_call(game: str) -> None:
    """A game written by the guide lacked ``sample_legal`` and ``random_step``, which no contract test asked for:
    ``industry-env bench`` crashed on it with an AttributeError."""
    assert engine_problems(load_game(game).engine) == []


def test_an_engine_lacking_a_verb_or_taking_it_otherwise_is_told_each() -> None:
    import types

    E = load_game(GAMES[0]).engine
    bare = types.SimpleNamespace(**{name: getattr(E, name) for name in (*ENGINE_VERBS, "State", "IllegalActionError")})
    assert engine_problems(bare) == []
    del bare.random_step, bare.IllegalActionError
    bare.sample_legal = lambda mask: mask.argmax(axis=1)
    bare.take = lambda state, i: state
    bare.reset = lambda state, done, seeds=None, inplace=False: state
    bare.observe = lambda state, player, extra: state
    assert sorted(engine_problems(bare)) == sorted([
        "IllegalActionError is missing (a class)",
        "random_step() is missing",
        "sample_legal() takes no parameter 'rng'",
        "take() takes no parameter 'rows'",
        "take(): its own parameter 'i' has no default (the tools never pass it)",
        "reset() takes no parameter 'next_mask'",
        "observe(): 'player' has no default (the tools leave it out)",
        "observe(): its own parameter 'extra' has no default (the tools never pass it)",
    ])


@pytest.mark.parametrize("game", GAMES)
def test_bench_runs_every_loop_of_every_engine(game: str) -> None:
    """``industry-env bench``'s measurements, each for a moment: the api loop and random_step on every backend,
    from games at every stage and from new ones, rollout where the engine has it, and the plain loop."""
    from industry_env import bench

    spec, E = load_game(game), load_game(game).engine
    n = spec.default_players
    for backend in bench.engine_backends(E):
        for fused in (False, True):
            for pool in (8, 0):
                r = bench.bench_engine(4, 0.01, n, backend=backend, random_step=fused, game=game, steady_pool=pool)
                assert r["steps_per_second"] > 0 and r["state_bytes_per_game"] == E.init(1).state_bytes_per_game
        assert bench.peak_step_memory(4, backend, game, n) > 0
        if hasattr(E, "rollout"):
            assert bench.bench_rollout(4, 0.01, backend, n, game)["steps_per_second"] > 0
    assert bench.bench_game_engine(game, 4, 0.01)["steps_per_second"] > 0


@pytest.mark.parametrize("game", GAMES)
def test_each_games_kernel_provides_exactly_the_documented_entries(game: str) -> None:
    kernel = _kernel(game)
    assert batched.check_kernel(kernel) == []
    assert kernel.entries(), "a kernel calls at least one compiled function from Python"


def test_a_kernel_that_lacks_entries_is_told_every_one() -> None:
    import types

    bare = types.ModuleType("bare")
    assert [p.split()[0] for p in batched.check_kernel(bare)] == list(batched.KERNEL_ENTRIES)
    bare.__dict__.update({name: getattr(_kernel(GAMES[0]), name) for name in batched.KERNEL_ENTRIES})
    bare.PARALLEL_FROM_BY_LAYER = {"tbb": 1}
    assert "must name exactly the layers" in batched.check_kernel(bare)[0]


def test_the_kernels_stamps_have_distinct_names() -> None:
    names = [_kernel(g).CACHE_NAME for g in GAMES]
    assert len(set(names)) == len(names)


def test_every_game_takes_the_one_runtimes_threshold() -> None:
    for game in GAMES:
        kernel = _kernel(game)
        assert kernel.PARALLEL_FROM == kernel.PARALLEL_FROM_BY_LAYER[runtime.LAYER]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(
    "call, message",
    [
        (lambda E: E.init(-1), "batch_size=-1 must be a whole number >= 0"),
        (lambda E: E.init(2, seed=-3), "seed=-3: must be a whole number from 0 to 2\\*\\*63 - 1"),
        (lambda E: E.init(2, seed=[1, 2, 3]), "seeds of shape \\[3\\] given for a batch of 2"),
        (lambda E: E.reset(E.init(2), [5]), "row indices \\[5\\] are out of range for a batch of 2"),
        (lambda E: E.reset(E.init(2), np.ones(3, bool)), "done mask of shape \\[3\\] for a batch of 2"),
        (lambda E: E.step(E.init(2), [0, 0], on_illegal="skip"), "on_illegal='skip': expected 'raise' or 'penalize'"),
        (lambda E: E.step(E.init(2), [0]), "actions of shape \\[1\\] given for a batch of 2"),
        (lambda E: E.step(E.init(2), [0, 0], next_mask=np.zeros((2, 3), bool)), "next_mask must be a writable"),
    ],
)
def test_bad_input_gets_the_fronts_one_message_in_every_game(game: str, call, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call(load_game(game).engine)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(
    "row, message",
    [
        (9, "to_game: row 9 is out of range for a batch of 2 games"),
        (-3, "to_game: row -3 is out of range for a batch of 2 games"),
        (1.0, "to_game: a row is one whole number, got 1.0"),
        ([0, 1], "to_game: a row is one whole number, got \\[0, 1\\]"),
        (True, "to_game: a row is one whole number, got True"),
    ],
)
def test_to_game_of_a_row_outside_the_batch_names_the_row_and_the_batch(game: str, row, message: str) -> None:
    """``to_game(state, 9)`` of a batch of 2 raised numpy's "index 9 is out of bounds for axis 0"."""
    E = load_game(game).engine
    state = E.init(2, seed=0)
    with pytest.raises(IndexError, match=message):
        E.to_game(state, row)
    assert E.to_game(state, -1).to_json() == E.to_game(state, 1).to_json()  # numpy's negative rows, as take's


@pytest.mark.parametrize("game", GAMES)
def test_a_batch_on_the_threads_plays_what_the_calling_thread_plays(game: str, monkeypatch) -> None:
    """The same random games stepped with every call run serially, then with every call launched on the threads
    (the threshold at 1 game): identical states, masks and rewards."""
    import numba

    if numba.get_num_threads() < 2 or not runtime.may_launch():
        pytest.skip("one thread: nothing launches")
    E, kernel = load_game(game).engine, _kernel(game)
    runs = []
    for threshold in (10**9, 1):
        monkeypatch.setattr(kernel, "PARALLEL_FROM", threshold)
        state, rng, seen = E.init(70, seed=3), np.random.default_rng(0), []
        for k in range(60):
            mask = np.asarray(E.legal_action_mask(state))
            actions = (rng.random(mask.shape) * mask).argmax(axis=1)
            state = E.step(state, actions, inplace=True, mask=mask if k % 2 else None)
            seen.append((mask.copy(), np.asarray(state.rewards).copy()))
        runs.append((seen, state))
    (serial, a), (threaded, b) = runs
    assert all(np.array_equal(x[0], y[0]) and np.array_equal(x[1], y[1]) for x, y in zip(serial, threaded, strict=True))
    assert all(np.array_equal(getattr(a, f), getattr(b, f)) for f in a.SCHEMA.names)


@pytest.mark.parametrize("game", GAMES)
def test_every_compiled_function_of_a_game_is_under_its_kernels_stamp(game: str) -> None:
    """numba checks a function's disk cache against its own file only: a compiled function of the game that the
    kernel's stamp leaves out (Industry's observation kernel was) keeps code built over older rules for as long as
    its own file is unchanged."""
    import pkgutil
    import sys

    kernel = _kernel(game)
    package = kernel.__name__.rsplit(".", 1)[0]
    for info in pkgutil.iter_modules(sys.modules[package].__path__):
        importlib.import_module(f"{package}.{info.name}")
    compiled = {f for name, module in list(sys.modules.items()) if name.startswith(package + ".")
                for f in vars(module).values() if hasattr(f, "_cache") and getattr(f, "__module__", None) == name}
    outside = sorted(f"{f.__module__}.{f.__name__}" for f in compiled - set(kernel.dispatchers()))
    assert compiled and not outside, outside
    files = {sys.modules[f.__module__].__file__ for f in compiled}
    assert files <= set(kernel.sources()), files - set(kernel.sources())
