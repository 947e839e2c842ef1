"""The compiled backend (industry_env.games.industry.kernel): the same results as the numpy rules and the reference
engine.

The differential harness (:func:`industry_env.verify.differential`) checks each backend against the reference
game by game; the other tests compare the two backends' whole States bit for bit (masks, every field, rewards,
terminal flags) on the same play, including illegal actions, the parallel path, ``rollout`` and the State's one
buffer. ``tests/industry/test_engine_differential.py`` runs 2,000 games on the default backend (numba where installed).
"""

from __future__ import annotations

import pickle

import numpy as np
import pytest

pytest.importorskip("numba")

from industry_env.games.industry import actions as A  # noqa: E402
from industry_env.games.industry import engine as E  # noqa: E402
from industry_env.games.industry import kernel as K  # noqa: E402
from industry_env.games.industry import kernel_rules as R  # noqa: E402
from industry_env.games.industry import reference  # noqa: E402
from industry_env.games.industry.from_observation import _producer_table  # noqa: E402
from industry_env.games.industry.reference import Game, IllegalActionError  # noqa: E402
from industry_env.verify import differential  # noqa: E402


def assert_same_state(a: E.State, b: E.State) -> None:
    """Every array of the two States equal (dtype, shape and values)."""
    for name, x in a.arrays().items():
        y = getattr(b, name)
        assert x.dtype == y.dtype and x.shape == y.shape, name
        assert np.array_equal(x, y), f"field {name} differs"


@pytest.mark.parametrize("backend, games", [
    ("numpy", 48),  # the compiled backend's 100 games are tests/test_engine_differential.py's
    pytest.param("numpy", 160, marks=pytest.mark.slow),
    pytest.param("numba", 160, marks=pytest.mark.slow),
])  # fmt: skip
def test_backend_agrees_with_the_reference(backend: str, games: int) -> None:
    """Every step of whole games: mask, player to move, observation, rewards, terminal flags, final positions."""
    rep = differential(games, first_seed=40_000, backend=backend)
    assert rep.disagreements == []
    assert rep.games == games and rep.steps > games * 300


def test_harness_catches_a_kernel_that_disagrees(monkeypatch) -> None:
    """A planted difference (the reference's subsidy worth 4 Talers) is caught on the compiled backend."""
    monkeypatch.setattr(reference, "SUBSIDY_MONEY", 4)
    rep = differential(16, first_seed=0, backend="numba")
    assert rep.disagreements and all(d.startswith("seed ") for d in rep.disagreements)


def _play_both(batch: int, steps: int, seed: int, illegal_every: int = 0) -> None:
    """Step one batch in both backends with the same actions (some illegal, penalized); compare at every step."""
    rng = np.random.default_rng(seed)
    n = np.where(np.arange(batch) % 2 == 0, 3, 4)
    with E.use_backend("numpy"):
        slow = E.init(batch, num_players=n, seed=seed, balanced_draws=np.arange(batch) % 3 != 0)
    fast = E.copy(slow)
    for t in range(steps):
        with E.use_backend("numpy"):
            mask = E.legal_action_mask(slow)
        with E.use_backend("numba"):
            assert np.array_equal(E.legal_action_mask(fast), mask), f"mask differs at step {t}"
        actions = E.sample_legal(mask, rng)
        if illegal_every and t % illegal_every == 0:
            actions[rng.integers(batch)] = rng.integers(-2, A.NUM_ACTIONS + 2)  # maybe illegal
        with E.use_backend("numpy"):
            slow = E.step(slow, actions, on_illegal="penalize")
        with E.use_backend("numba"):
            fast = E.step(fast, actions, on_illegal="penalize")
        assert_same_state(slow, fast)
        done = slow.terminated
        if done.all():
            break
        if done.any() and t % 7 == 0:
            with E.use_backend("numpy"):
                slow = E.reset(slow, done)
            fast = E.reset(fast, done)


def test_backends_agree_bit_for_bit_with_penalties_and_resets() -> None:
    _play_both(batch=48, steps=700, seed=3, illegal_every=25)


def test_new_games_are_the_same_in_both_backends() -> None:
    n = np.where(np.arange(40) % 3 == 0, 3, 4)
    bal = np.arange(40) % 2 == 0
    seeds = np.arange(40) * 7_919 + 2**40
    with E.use_backend("numpy"):
        want = E.init(40, num_players=n, seed=seeds, balanced_draws=bal)
        want_reset = E.reset(E.step(want, E.sample_legal(E.legal_action_mask(want), np.random.default_rng(0))),
                             np.arange(40) % 4 == 1)  # fmt: skip
    got = E.init(40, num_players=n, seed=seeds, balanced_draws=bal)
    assert_same_state(got, want)
    stepped = E.step(got, E.sample_legal(E.legal_action_mask(got), np.random.default_rng(0)))
    mask = np.zeros((40, A.NUM_ACTIONS), bool)
    got_reset = E.reset(stepped, np.arange(40) % 4 == 1, next_mask=mask)
    assert_same_state(got_reset, want_reset)
    with E.use_backend("numpy"):
        assert np.array_equal(mask[1::4], E.legal_action_mask(want_reset)[1::4])
    assert not mask[0::4].any()  # rows not reset are left as they were


def test_parallel_path_agrees_with_the_serial_path(monkeypatch) -> None:
    """Batches split over the threads (prange) give the same States as one thread."""
    serial = E.init(300, seed=11)
    monkeypatch.setattr(K, "PARALLEL_FROM", 1)
    parallel = E.copy(serial)
    rng = np.random.default_rng(0)
    for _ in range(120):
        mask = K._mask(serial, False)
        assert np.array_equal(K._mask(parallel, True), mask)
        actions = E.sample_legal(mask, rng)
        serial, _ = K._step(E.copy(serial), actions, True, -1.0, False, None, None, False)
        parallel, _ = K._step(E.copy(parallel), actions, True, -1.0, False, mask, None, True)
        assert_same_state(serial, parallel)
    u = rng.random(300)
    assert np.array_equal(K._sample(mask, u, True), K._sample(mask, u, False))


def test_fused_step_writes_the_next_mask() -> None:
    state = E.init(8, seed=5)
    mask = E.legal_action_mask(state)
    rng = np.random.default_rng(1)
    for _ in range(50):
        E.step(state, E.sample_legal(mask, rng), inplace=True, mask=mask, next_mask=mask)  # the same array
        with E.use_backend("numpy"):
            assert np.array_equal(mask, E.legal_action_mask(state))


def test_illegal_action_is_refused_and_the_state_left_unchanged() -> None:
    state = E.init(5, seed=9)
    before = E.copy(state)
    mask = E.legal_action_mask(state)
    nxt = np.ones_like(mask)
    actions = E.sample_legal(mask, np.random.default_rng(0))
    actions[3] = A.SELL  # not a decision of the auction phase
    for kwargs in ({}, {"inplace": True}, {"inplace": True, "mask": mask, "next_mask": nxt}):
        with pytest.raises(IllegalActionError, match=r"game 3 \(seed 12\): action 'sell' is not legal"):
            E.step(state, actions, **kwargs)
        assert_same_state(state, before)
    assert nxt.all()  # a refused step writes no mask


def test_finished_games_are_ignored_and_penalties_follow_pgx() -> None:
    state = E.init(3, num_players=3, seed=2)
    state = E.step(state, [A.SELL, E.sample_legal(E.legal_action_mask(state), np.random.default_rng(0))[1], 0],
                   on_illegal="penalize", penalty=-2.0)  # fmt: skip
    fault = int(E.take(E.init(3, num_players=3, seed=2), 0).current_player[0])
    want = np.full(4, 2.0, np.float32)
    want[fault], want[3] = -2.0, 0.0
    assert state.terminated[0] and np.array_equal(state.rewards[0], want)
    after = E.step(state, [5, E.sample_legal(E.legal_action_mask(state), np.random.default_rng(1))[1], 0],
                   on_illegal="penalize")  # fmt: skip
    assert np.array_equal(after.rewards[0], np.zeros(4, np.float32))  # over: ignored, zero rewards
    assert_same_state(E.take(after, 0).replace(rewards=E.take(state, 0).rewards), E.take(state, 0))


@pytest.mark.parametrize("weighted", [False, True])
def test_rollout_is_the_same_in_both_backends(weighted: bool) -> None:
    weights = np.linspace(0.5, 3.0, A.NUM_ACTIONS) if weighted else None
    start = E.init(12, num_players=np.where(np.arange(12) < 6, 3, 4), seed=21)
    with E.use_backend("numpy"):
        part_np, steps_np = E.rollout(start, 150, weights, key=4)
        end_np, total_np = E.rollout(part_np, 10_000, weights, key=5)
    with E.use_backend("numba"):
        part_nb, steps_nb = E.rollout(start, 150, weights, key=4)
        end_nb, total_nb = E.rollout(part_nb, 10_000, weights, key=5)
    assert np.array_equal(steps_np, steps_nb) and (steps_nb == 150).all()
    assert_same_state(part_np, part_nb)
    assert np.array_equal(total_np, total_nb)
    assert_same_state(end_np, end_nb)
    assert end_nb.terminated.all()
    for i in range(12):  # the rewards are the reference's returns of the finished position
        g = E.to_game(end_nb, i)
        assert list(end_nb.rewards[i, : g.num_players]) == g.returns()


def test_rollout_randomness_depends_on_key_and_row_not_on_threads(monkeypatch) -> None:
    same = E.take(E.init(1, seed=8), [0, 0, 0, 0])
    a, _ = E.rollout(same, 10_000, key=1)
    b, _ = E.rollout(same, 10_000, key=1)
    c, _ = E.rollout(same, 10_000, key=2)
    assert_same_state(a, b)
    assert not np.array_equal(a.points, c.points)
    assert len({tuple(a.points[i]) + tuple(a.money[i]) for i in range(4)}) > 1  # copies of a game differ
    monkeypatch.setattr("numba.get_num_threads", lambda: 1)  # one chunk: the launch's split differs
    d, _ = K._rollout(E.copy(same), 10_000, None, 1, False, True)
    assert_same_state(a, d)


def test_state_is_one_buffer_through_batch_surgery() -> None:
    state = E.init(6, seed=1)
    for s in (state, E.copy(state), E.take(state, [4, 1]), E.concat([state, state]), E.put(state, 2, E.take(state, 0)),
              E.from_games([Game(4, seed=3), Game(3, seed=4)]), E.reset(state, np.ones(6, bool))):  # fmt: skip
        assert s._buf is not None and s._buf.nbytes == R.BYTES_PER_GAME * s.batch_size
        for name, arr in s.arrays().items():
            assert arr.flags.c_contiguous and np.shares_memory(arr, s._buf), name
    assert state.state_bytes_per_game == R.BYTES_PER_GAME


def test_a_state_built_from_other_arrays_is_adopted_and_stepped() -> None:
    """States whose arrays are not the buffer's views (replace, pickling, hand-built) step correctly."""
    state = E.init(4, seed=6)
    actions = E.sample_legal(E.legal_action_mask(state), np.random.default_rng(2))
    with E.use_backend("numpy"):
        want = E.step(state, actions)
    replaced = state.replace(money=state.money.copy())
    assert replaced._buf is None
    assert_same_state(E.step(replaced, actions), want)
    unpickled = pickle.loads(pickle.dumps(state))
    assert unpickled._buf is None
    E.step(unpickled, actions, inplace=True)
    assert_same_state(unpickled, want)
    assert unpickled._buf is not None


def test_backend_choice(monkeypatch) -> None:
    assert E.backend() in ("numpy", "numba")
    with E.use_backend("numpy"):
        assert E.backend() == "numpy"
    with pytest.raises(ValueError, match="backend='jax': expected 'numpy' or 'numba'"):
        E.set_backend("jax")
    monkeypatch.setenv("INDUSTRY_ENV_BACKEND", "fortran")
    with pytest.raises(ValueError, match="INDUSTRY_ENV_BACKEND='fortran'"):
        E._default_backend()
    monkeypatch.setenv("INDUSTRY_ENV_BACKEND", "numpy")
    assert E._default_backend() == "numpy"
    monkeypatch.delenv("INDUSTRY_ENV_BACKEND")
    assert E._default_backend() == "numba"


def test_numba_backend_refused_without_numba(monkeypatch) -> None:
    monkeypatch.setattr(E.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(ValueError, match=r"numba is not installed: pip install 'industry_env\[fast\]'"):
        E.set_backend("numba")
    assert E._default_backend() == "numpy"


@pytest.mark.parametrize("batch", [1, 7, 3000])
def test_sample_legal_is_the_same_in_both_backends(batch: int) -> None:
    """The same draws ``rng.random(B)`` pick the same actions (rows of 0, 1 or many legal actions)."""
    rng = np.random.default_rng(batch)
    mask = rng.random((batch, A.NUM_ACTIONS)) < rng.random((batch, 1)) ** 3
    mask[::5] = False
    mask[1::5, :-1] = False
    with E.use_backend("numpy"):
        want = E.sample_legal(mask, np.random.default_rng(9))
    assert np.array_equal(E.sample_legal(mask, np.random.default_rng(9)), want)
    assert np.array_equal(K._sample(mask, np.random.default_rng(9).random(batch), True), want)


def test_cold_compile_says_so_once(monkeypatch, capsys) -> None:
    monkeypatch.setattr(K.batched.numba_cache, "is_fresh", lambda *args: False)
    assert K.warm_up(E.State, E.load_board()) >= 0
    err = capsys.readouterr().err
    assert err.count("compiling Industry's batched engine, once") == 1
    assert "compiled Industry's batched engine in" in err


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"next_mask": np.zeros((2, A.NUM_ACTIONS), bool)}, "next_mask must be a writable C-contiguous bool"),
        ({"next_mask": np.zeros((3, A.NUM_ACTIONS), np.int8)}, "next_mask must be"),
        ({"next_mask": np.zeros((A.NUM_ACTIONS, 3), bool).T}, "next_mask must be"),
    ],
)
def test_bad_next_mask_is_refused(kwargs: dict, message: str) -> None:
    state = E.init(3)
    before = E.copy(state)
    with pytest.raises(ValueError, match=message):
        E.step(state, E.sample_legal(E.legal_action_mask(state), np.random.default_rng(0)), **kwargs)
    assert_same_state(state, before)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"max_steps": -1}, "max_steps=-1"),
        ({"max_steps": 2.5}, "max_steps=2.5"),
        ({"max_steps": 5, "key": -3}, "key=-3"),
        ({"max_steps": 5, "weights": np.ones(7)}, "weights must be 314 finite numbers"),
        ({"max_steps": 5, "weights": -np.ones(A.NUM_ACTIONS)}, "weights must be 314 finite numbers"),
    ],
)
def test_bad_rollout_arguments_are_refused(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        E.rollout(E.init(2), **kwargs)


@pytest.mark.parametrize("backend", ["numba", "numpy"])
@pytest.mark.parametrize("batch", [1, 9])
def test_random_step_plays_what_sample_and_step_play(backend: str, batch: int) -> None:
    """``random_step`` is ``step(state, sample_legal(legal_action_mask(state), rng))``: the same draws, actions
    and States, on both backends, through finished games (action 0, zero rewards) and new ones."""
    players = np.where(np.arange(batch) % 2 == 0, 4, 3)
    with E.use_backend("numpy"):
        want_state = E.init(batch, num_players=players, seed=30)
    with E.use_backend(backend):
        got_state = E.init(batch, num_players=players, seed=30)
        next_mask = np.zeros((batch, A.NUM_ACTIONS), bool)
        want_rng, got_rng = np.random.default_rng(4), np.random.default_rng(4)
        finished = 0
        for k in range(1500):
            with E.use_backend("numpy"):
                mask = E.legal_action_mask(want_state)
                want_actions = E.sample_legal(mask, want_rng)
                want_state = E.step(want_state, want_actions)
            inplace = k % 2 == 0
            before = got_state
            got_state, got_actions = E.random_step(got_state, got_rng, inplace=inplace, next_mask=next_mask)
            assert (got_state is before) == inplace
            assert np.array_equal(got_actions, np.where(mask.any(axis=1), want_actions, 0))
            assert_same_state(got_state, want_state)
            with E.use_backend("numpy"):
                assert np.array_equal(next_mask, E.legal_action_mask(want_state))
            finished += int(want_state.terminated.sum())
            if k == 1000:  # some games over, others still running: the finished ones stay as they are
                assert want_state.terminated.any()
    assert finished > 0 and want_state.terminated.all()


def test_random_step_on_all_threads_agrees_with_one(monkeypatch) -> None:
    serial = E.init(300, seed=12)
    parallel = E.copy(serial)
    monkeypatch.setattr(K, "PARALLEL_FROM", 1)
    for k in range(200):
        u = np.random.default_rng(k).random(300)
        serial, a = K._random_step(serial, u, True, None, False)
        parallel, b = K._random_step(parallel, u, True, None, True)
        assert np.array_equal(a, b)
        assert_same_state(serial, parallel)


def _random_points(seed: int) -> list[int]:
    """Points after 40 random steps of 1024 games (on all threads where the layer's launches are cheap)."""
    state, rng = E.init(1024, seed=seed), np.random.default_rng(seed)
    for _ in range(40):
        state, _ = E.random_step(state, rng, inplace=True)
    return state.points.sum(axis=1).tolist()


def test_numbas_threads_are_tbbs_where_the_wheel_is_installed(monkeypatch) -> None:
    """With the ``tbb`` wheel (the ``fast`` extra on Linux x86-64) and no NUMBA_THREADING_LAYER, numba's threads
    are TBB's (core.runtime finds the wheel's library): batches from 512 games run on them, and a forked child (a
    SubprocVecEnv worker) still steps on all threads, with the results of one thread."""
    import importlib.metadata
    import multiprocessing
    import os

    import numba

    from industry_env.core import runtime

    try:
        importlib.metadata.distribution("tbb")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("the tbb wheel is not installed")
    if "NUMBA_THREADING_LAYER" in os.environ or numba.get_num_threads() < 2:
        pytest.skip("numba's threading layer is chosen by the environment, or there is one thread")
    assert runtime.LAYER == numba.config.THREADING_LAYER == "tbb" and K.PARALLEL_FROM == 512
    parallel = _random_points(5)
    assert numba.threading_layer() == "tbb"
    with multiprocessing.get_context("fork").Pool(1) as pool:
        child = pool.apply(_random_points, (5,))
    monkeypatch.setattr(K, "PARALLEL_FROM", 10**9)
    assert parallel == child == _random_points(5)


@pytest.mark.parametrize("bit_generator", ["PCG64", "MT19937", "Philox", "SFC64"])
@pytest.mark.parametrize("batch", [1, 5])
def test_random_step_draws_in_the_kernel_what_rng_random_draws(bit_generator: str, batch: int) -> None:
    """On one thread the kernel draws from the Generator's bit generator itself: the same numbers as
    ``rng.random(B)`` (whatever the bit generator), and the Generator is left where that call leaves it."""
    make = getattr(np.random, bit_generator)
    got_rng, want_rng = np.random.Generator(make(11)), np.random.Generator(make(11))
    state = E.init(batch, seed=8)
    want = E.copy(state)
    for _ in range(120):
        state, got_actions = E.random_step(state, got_rng)
        with E.use_backend("numpy"):
            want, want_actions = E.random_step(want, want_rng)
        assert np.array_equal(got_actions, want_actions)
        assert_same_state(state, want)
    assert got_rng.random() == want_rng.random()


def test_random_step_draws_rng_random_where_the_bit_generator_has_no_ctypes_interface(monkeypatch) -> None:
    got_rng, want_rng = np.random.default_rng(2), np.random.default_rng(2)
    monkeypatch.setitem(K._bit_generators, id(got_rng.bit_generator), (got_rng.bit_generator, 0, 0))
    state = E.init(3, seed=1)
    want = E.copy(state)
    for _ in range(50):
        state, got = E.random_step(state, got_rng, inplace=True)
        with E.use_backend("numpy"):
            want, expected = E.random_step(want, want_rng)
        assert np.array_equal(got, expected)
        assert_same_state(state, want)
    assert got_rng.random() == want_rng.random()


def test_batch_one_calls_skip_numba_dispatch_and_stay_right() -> None:
    """After its first call, each batch-1 entry runs its compiled version directly; arguments numba would type
    otherwise (read-only arrays) still give the numpy backend's results, and illegal actions are still refused."""
    state = E.init(1, seed=21)
    rng = np.random.default_rng(3)
    for _ in range(3):
        mask = E.legal_action_mask(state)
        state = E.step(state, E.sample_legal(mask, rng), mask=mask)
        state, _ = E.random_step(state, rng)
    assert K._step_direct.call is not K.step_serial and K._mask_direct.call is not K.mask_range
    assert K._random_step_direct.call is not K.random_step_range
    mask = E.legal_action_mask(state)
    action = E.sample_legal(mask, rng)
    mask.flags.writeable = action.flags.writeable = False
    with E.use_backend("numpy"):
        want = E.step(state, action, mask=mask)
    assert_same_state(E.step(state, action, mask=mask), want)
    bad = np.flatnonzero(~mask[0])[:1]
    with pytest.raises(IllegalActionError, match="1 illegal action"):
        E.step(state, bad)


@pytest.mark.parametrize("backend", ["numba", "numpy"])
def test_bad_random_step_arguments_are_refused(backend: str) -> None:
    with E.use_backend(backend):
        state = E.init(3)
        before = E.copy(state)
        with pytest.raises(TypeError, match="rng must be a numpy.random.Generator"):
            E.random_step(state, 7)
        with pytest.raises(ValueError, match="next_mask must be a writable C-contiguous bool"):
            E.random_step(state, np.random.default_rng(0), next_mask=np.zeros((2, A.NUM_ACTIONS), bool))
        assert_same_state(state, before)


def test_rollout_stopping_at_a_seat_is_the_same_on_both_backends_and_stops_there() -> None:
    """The vector env plays random opponents in one engine call, stopping at the learner's seat."""
    start = E.init(64, 4, seed=5)
    stop = np.arange(64, dtype=np.int64) % 4
    stop[::9] = -1  # never stops: played to the end
    done = {}
    for backend in ("numpy", "numba"):
        with E.use_backend(backend):
            done[backend] = E.rollout(E.copy(start), 10**6, key=3, stop_at=stop)
    (a, steps_a), (b, steps_b) = done["numpy"], done["numba"]
    assert_same_state(a, b)
    assert np.array_equal(steps_a, steps_b) and steps_a.sum() > 0
    live = ~a.terminated
    assert (a.current_player[live] == stop[live]).all()
    assert a.terminated[stop == -1].all()
    with pytest.raises(ValueError, match="stop_at"):
        E.rollout(start, 5, stop_at=stop[:3])


def test_board_tables_are_bounded_shared_by_content_and_free_their_boards() -> None:
    """The kernel kept every board it saw alive, with its table (3,000 boards: 240 MB); now a few tables by content,
    the boards held weakly, and the same results as the numpy rules on each board."""
    import dataclasses
    import gc
    import weakref

    from industry_env.games.industry.components import load_board
    from industry_env.games.industry.rules import FACTORY

    shipped = load_board()
    factories = np.flatnonzero(shipped.KIND == FACTORY)
    known = len(K._tables_by_board)
    boards, refs = [], []
    for k in range(3 * K.TABLES_BY_CONTENT):  # boards that differ by one factory's points
        points = shipped.POINTS.copy()
        points[factories[k]] += 1
        points.flags.writeable = False
        board = dataclasses.replace(shipped, POINTS=points)
        refs.append(weakref.ref(board))
        got, want = E.init(6, seed=k, board=board), None
        with E.use_backend("numpy"):
            want = E.init(6, seed=k, board=board)
        rng = np.random.default_rng(k)
        for _ in range(60):
            actions = E.sample_legal(E.legal_action_mask(got), rng)
            got = E.step(got, actions)
            with E.use_backend("numpy"):
                want = E.step(want, actions)
        assert_same_state(got, want)
        assert np.array_equal(K.table_of(board), R.board_table(board))
        assert len(K._tables_by_content) <= K.TABLES_BY_CONTENT
        boards.append(board)
    copies = [dataclasses.replace(shipped) for _ in range(2)]  # each env loading its own copy of one file
    assert K.table_of(copies[0]) is K.table_of(copies[1])  # one table for boards with the same content
    refs += [weakref.ref(c) for c in copies]
    del boards, board, got, want, copies
    E.board_tables.cache_clear()  # the numpy rules' own memo (8 boards at most) is not the kernel's
    _producer_table.cache_clear()
    gc.collect()
    assert sum(r() is not None for r in refs) == 0  # no board kept alive by the kernel's tables
    assert len(K._tables_by_board) <= known + 1  # their entries went with them (other tests' boards may live on)
