"""The compiled backend of the batched engine: the rules written per game in numba, looped over the batch.

:mod:`industry_env.games.industry.engine` dispatches here when numba is installed (the ``fast`` extra) unless
``INDUSTRY_ENV_BACKEND=numpy``; the results are bit for bit those of the numpy path (``industry-env verify
--backend numba``). The kernel reads and writes the State through the one buffer that backs all its arrays
(``State._buf``, see ``engine._LAYOUT``): a call passes that buffer, not 31 arrays, so its argument handling
costs well under a microsecond. Inside, the buffer is seen as ``s8`` (int8 and bool fields), ``s16`` (int16),
``r32`` (rewards) and ``s64`` (seeds); a field of game ``i`` lives at ``FIELD * B + WIDTH * i + k`` of its view.

The rules of one game are :mod:`.kernel_rules`' (one function per rule phase, named and ordered as in
:mod:`industry_env.games.industry.reference`); here the ``*_range`` functions run them over a slice of the batch,
and ``run_parallel`` splits the batch into chunks over the cores (one ``prange`` loop for every operation: each
parallel function costs seconds of compile); small batches call the range functions directly (no thread
start-up). The board arrives as one int32 table (:func:`.kernel_rules.board_table`).

Randomness of :func:`rollout`: game ``i``'s ``k``-th decision of a call draws ``u`` in [0, 1) from the
SplitMix64 chain of ``(game seed, key, i, k)`` (the 53 high bits), so a rollout is reproducible from the state
and ``key``, independent of thread count, and differs between rows holding the same game.
"""

from __future__ import annotations

import ctypes
import hashlib
import sys
import threading
import weakref
from collections import OrderedDict
from typing import Any

import numpy as np
from llvmlite import ir
from numba import carray, prange, types
from numba.core import cgutils
from numba.extending import intrinsic

from ...core import batched, runtime, uncompiled
from ...core.chance import key_one, splitmix64_one
from ...core.numba_cache import njit  # numba's, falling back to no disk cache where none is writable
from ...core.uncompiled import scalars
from . import actions as A
from . import kernel_rules, observe_kernel
from .kernel_rules import (
    BID,
    BIDDER,
    HIGH_BID,
    MAX_BID,
    MAX_LEGAL,
    MONEY,
    NA,
    NUM_PLAYERS,
    PHASE,
    REWARDS,
    SEED,
    SUBSIDY,
    TERMINATED,
    P,
    apply,
    board_table,
    is_legal,
    legal_actions,
    mask_row,
    new_game,
    of_phase,
    player,
)

SCHEMA_MODULE = f"{__package__}.state"
_splitmix64, _key, _U64 = splitmix64_one, key_one, np.uint64  # core.chance's compiled draws, as kernel_rules names them


@njit(cache=True)
def new_games_rows(buf, B, t, rows, seeds, n, balanced, next_mask, write_next):
    """New games in the rows ``rows`` (seeds, players, draw variant per row); their masks into ``next_mask``."""
    s8, s16, s64, r32 = views(buf, B)
    t = _raw(t)
    owner = np.empty(MAX_LEGAL, np.int64)
    scratch = _raw(owner)
    for j in range(rows.size):
        i = rows[j]
        new_game(s8, s16, s64, r32, t, B, i, seeds[j], n[j], balanced[j])
        if write_next:
            mask_row(s8, s16, t, B, i, next_mask[i], scratch)
    owner[0] = 0  # alive until here


# ---------------------------------------------------------------------------------------------- batch ranges
@intrinsic
def _address(typingctx, src):
    """An integer address as a void pointer (for ``carray``)."""

    def codegen(context, builder, sig, args):
        return builder.inttoptr(args[0], cgutils.voidptr_t)

    return types.voidptr(src), codegen


@njit(cache=True)
def _raw(a):
    """The C-contiguous array ``a`` seen without numba's reference count (``carray`` of its data). Array
    arguments of the per-game helpers are reference counted at every call, an atomic add and subtract each,
    which cost more than the rules; views without a count cost nothing. The caller keeps ``a`` alive."""
    return carray(_address(a.ctypes.data), a.shape, a.dtype)


@njit(cache=True)
def views(buf, B):
    """The typed views of a State buffer of B games: int8, int16, int64 (seeds), float32 (rewards), uncounted."""
    at = _address(buf.ctypes.data)
    n = buf.size
    return (carray(at, (n,), np.int8), carray(at, (n // 2,), np.int16), carray(at, (B,), np.int64),
            carray(at, (n // 4,), np.float32))  # fmt: skip


if uncompiled.DISABLED:

    def _raw(a):  # noqa: F811 (uncompiled: no reference count to avoid)
        """``a``, its elements read as Python numbers (:mod:`industry_env.core.uncompiled`)."""
        return scalars(a)

    def views(buf, B):  # noqa: F811
        """The typed views of a State buffer of B games, their elements read as Python numbers."""
        b = scalars(buf)
        return b.view(np.int8), b.view(np.int16), scalars(buf[: 8 * B].view(np.int64)), b.view(np.float32)


@njit(cache=True)
def mask_range(buf, B, t, out, lo, hi):
    """Legal-action masks of games ``lo:hi`` into ``out`` (bool[B * 314], row-major)."""
    s8, s16, _, _ = views(buf, B)
    t, out = _raw(t), _raw(out)
    scratch = np.empty(MAX_LEGAL, np.int64)
    legal = _raw(scratch)
    for i in range(lo, hi):
        mask_row(s8, s16, t, B, i, out[i], legal)
    scratch[0] = 0  # alive until here


@njit(cache=True)
def check_range(buf, B, t, actions, mask, use_mask, legal, lo, hi):
    """legal[i] for games ``lo:hi``: is ``actions[i]`` legal (True for finished games)? Returns the illegal count."""
    s8, s16, _, _ = views(buf, B)
    t = _raw(t)
    owner = np.empty(MAX_LEGAL, np.int64)
    scratch = _raw(owner)
    bad = 0
    for i in range(lo, hi):
        a = actions[i]
        if s8[TERMINATED * B + i]:
            ok = True
        elif use_mask:
            ok = of_phase(s8[PHASE * B + i], a) and mask[i, a]
        else:
            ok = is_legal(s8, s16, t, B, i, a, scratch)
        legal[i] = ok
        bad += not ok
    owner[0] = 0  # alive until here
    return bad


@njit(cache=True)
def apply_range(buf, B, t, actions, legal, penalty, next_mask, write_next, lo, hi):
    """Step games ``lo:hi``: rewards zeroed, illegal live games penalized, legal live games played; then
    (``write_next``) each game's new legal-action mask into ``next_mask``."""
    s8, s16, s64, r32 = views(buf, B)
    t, next_mask = _raw(t), _raw(next_mask)
    owner = np.empty(MAX_LEGAL, np.int64)
    scratch = _raw(owner)
    for i in range(lo, hi):
        for q in range(P):
            r32[REWARDS * B + P * i + q] = 0.0
        if s8[TERMINATED * B + i]:
            pass
        elif legal[i]:
            apply(s8, s16, s64, r32, t, B, i, actions[i])
        else:
            # Pgx: "Taking illegal action leads to immediate game terminal with negative reward".
            fault = player(s8, B, i)
            for q in range(s8[NUM_PLAYERS * B + i]):
                r32[REWARDS * B + P * i + q] = penalty if q == fault else -penalty
            s8[TERMINATED * B + i] = 1
        if write_next:
            mask_row(s8, s16, t, B, i, next_mask[i], scratch)
    owner[0] = 0  # alive until here


@njit(cache=True)
def _pick(row, u):
    """The legal action of the mask row ``row`` (bool[314]) that ``u`` in [0, 1) selects (``sample_legal``'s
    rule: the ``floor(u * count)``-th legal one); 0 if none is legal."""
    count = 0
    for a in range(NA):
        count += row[a]
    k = np.int64(u * count)
    c = 0
    a = 0
    while a + 32 <= NA:  # skip whole blocks of 32 (each summed without a branch), then find it in its block
        block = 0
        for j in range(32):
            block += row[a + j]
        if c + block > k:
            break
        c += block
        a += 32
    for b in range(a, NA):
        c += row[b]
        if c > k:
            return b
    return 0


@njit(cache=True)
def _pick_listed(legal, n, u, weights, use_weights):
    """The action of ``legal[:n]`` (increasing) that ``u`` selects: the ``floor(u * n)``-th, or (``use_weights``,
    ``verify._sample``'s rule) the first whose cumulative weight exceeds ``u`` times the total."""
    if not use_weights:
        return legal[np.int64(u * n)]
    total = 0.0
    for j in range(n):
        total += weights[legal[j]]
    x = u * total
    cum = 0.0
    for j in range(n):
        cum += weights[legal[j]]
        if cum > x:
            return legal[j]
    return 0


@njit(cache=True)
def _pick_uniform(s8, s16, t, B, i, u, legal):
    """The legal action of live game ``i`` that ``u`` in [0, 1) selects: the ``floor(u * n)``-th of its ``n``
    legal actions (``legal_actions``' order). A bid, 47% of random decisions, is picked without listing its up
    to 112 amounts: they are one run of actions between the pass and the subsidy."""
    if s8[PHASE * B + i] != BID:
        return legal[np.int64(u * legal_actions(s8, s16, t, B, i, legal))]
    p = s8[BIDDER * B + i]
    high = s16[HIGH_BID * B + i]
    bids = max(min(s16[MONEY * B + P * i + p], MAX_BID) - high, 0)  # the amounts high + 1 .. min(money, MAX_BID)
    j = np.int64(u * (1 + bids + (s8[SUBSIDY * B + P * i + p] == 0)))
    if j == 0:
        return A.PASS
    if j <= bids:
        return A.BID + high + j - 1
    return A.SUBSIDY


@njit(cache=True)
def sample_range(mask, u, out, lo, hi):
    """``sample_legal`` for rows ``lo:hi`` of ``mask`` (bool[B * 314]) with the uniform draws ``u``."""
    m = _raw(mask)
    for i in range(lo, hi):
        out[i] = _pick(m[i], u[i])


@intrinsic
def _next_double(typingctx, fn, state):
    """``fn(state)`` for the addresses of a numpy bit generator's ``next_double`` and of its state (its
    ``ctypes`` interface): the draw ``Generator.random`` makes, from compiled code."""

    def codegen(context, builder, sig, args):
        fnty = ir.FunctionType(ir.DoubleType(), [cgutils.voidptr_t])
        f = builder.inttoptr(args[0], fnty.as_pointer())
        return builder.call(f, [builder.inttoptr(args[1], cgutils.voidptr_t)])

    return types.float64(fn, state), codegen


if uncompiled.DISABLED:  # NUMBA_DISABLE_JIT=1: the kernel's Python runs as it is (for a debugger)
    _NEXT_DOUBLE = ctypes.CFUNCTYPE(ctypes.c_double, ctypes.c_void_p)

    def _next_double(fn, state):  # noqa: F811 (the uncompiled twin of the intrinsic above)
        """``fn(state)`` called through ctypes."""
        return _NEXT_DOUBLE(fn)(state)


@njit(cache=True)
def random_step_range(buf, B, t, u, fn, st, out, next_mask, write_next, lo, hi):
    """``random_step`` for games ``lo:hi``: each live game plays its ``floor(u[i] * n)``-th legal action (written
    to ``out[i]``, 0 for finished games), then (``write_next``) its new mask goes into ``next_mask``. With a bit
    generator's ``fn`` and ``st`` (nonzero), ``u[i]`` is drawn here instead, one for every game in order: the
    draws of ``rng.random(hi - lo)``."""
    s8, s16, s64, r32 = views(buf, B)
    t, next_mask = _raw(t), _raw(next_mask)
    owner = np.empty(MAX_LEGAL, np.int64)
    legal = _raw(owner)
    for i in range(lo, hi):
        ui = _next_double(fn, st) if fn != 0 else u[i]
        for q in range(P):
            r32[REWARDS * B + P * i + q] = 0.0
        a = 0
        if not s8[TERMINATED * B + i]:
            a = _pick_uniform(s8, s16, t, B, i, ui, legal)
            apply(s8, s16, s64, r32, t, B, i, a)
        out[i] = a
        if write_next:
            mask_row(s8, s16, t, B, i, next_mask[i], legal)
    owner[0] = 0  # alive until here


@njit(cache=True)
def rollout_range(buf, B, t, max_steps, weights, use_weights, key, steps, stop, lo, hi):
    """Play games ``lo:hi`` for up to ``max_steps`` decisions each, or to their end, or (``stop``, int64[B], empty
    for none) until player ``stop[i]`` is to decide (see the module docstring)."""
    s8, s16, s64, r32 = views(buf, B)
    t, weights = _raw(t), _raw(weights)
    owner = np.empty(MAX_LEGAL, np.int64)
    legal = _raw(owner)
    for i in range(lo, hi):
        for q in range(P):
            r32[REWARDS * B + P * i + q] = 0.0
        k = 0
        # draw k is _key(seed, _key(key, 3, i), k): its first two rounds are the same for every k of the game
        game = _splitmix64(_splitmix64(_U64(s64[SEED * B + i])) ^ _U64(_key(key, 3, i)))
        while k < max_steps and not s8[TERMINATED * B + i] and (stop.size == 0 or player(s8, B, i) != stop[i]):
            u = np.float64(_splitmix64(game ^ _U64(k)) >> _U64(11)) * (1.0 / 9007199254740992.0)
            if use_weights:
                a = _pick_listed(legal, legal_actions(s8, s16, t, B, i, legal), u, weights, True)
            else:
                a = _pick_uniform(s8, s16, t, B, i, u, legal)
            apply(s8, s16, s64, r32, t, B, i, a)
            k += 1
        steps[i] = k
    owner[0] = 0  # alive until here


# ---------------------------------------------------------------------------------------------- entries
OP_MASK, OP_CHECK, OP_APPLY, OP_SAMPLE, OP_ROLLOUT, OP_RANDOM_STEP = range(6)


@njit(cache=True, parallel=True)
def run_parallel(op, buf, B, t, actions, mask, use_mask, legal, penalty, next_mask, write_next, u, out, weights,
             use_weights, key, max_steps, steps, stop, nc):  # fmt: skip
    """Run the range function ``op`` over the batch in ``nc`` chunks on all threads (a ``prange`` loop).

    One parallel entry for every operation: each parallel function costs seconds of compile, so there is one.
    Returns the illegal count for ``OP_CHECK`` (else 0). Arguments an operation does not use are stand-ins.
    """
    bad = np.zeros(nc, np.int64)
    for c in prange(nc):
        lo, hi = c * B // nc, (c + 1) * B // nc
        if op == OP_MASK:
            mask_range(buf, B, t, next_mask, lo, hi)
        elif op == OP_CHECK:
            bad[c] = check_range(buf, B, t, actions, mask, use_mask, legal, lo, hi)
        elif op == OP_APPLY:
            apply_range(buf, B, t, actions, legal, penalty, next_mask, write_next, lo, hi)
        elif op == OP_SAMPLE:
            sample_range(mask, u, out, lo, hi)
        elif op == OP_RANDOM_STEP:
            random_step_range(buf, B, t, u, 0, 0, out, next_mask, write_next, lo, hi)
        else:  # games end at different times: more chunks than threads balance the load
            rollout_range(buf, B, t, max_steps, weights, use_weights, key, steps, stop, lo, hi)
    return bad.sum()


@njit(cache=True)
def step_serial(buf, B, t, actions, mask, use_mask, legal, raise_, penalty, next_mask, write_next):
    """Check every game's action; unless some are illegal and ``raise_``, step them all, on this thread (small
    batches: no thread start-up). Returns the illegal count (the state is untouched if it is nonzero and
    ``raise_``)."""
    n_bad = check_range(buf, B, t, actions, mask, use_mask, legal, 0, B)
    if n_bad and raise_:
        return n_bad
    apply_range(buf, B, t, actions, legal, penalty, next_mask, write_next, 0, B)
    return n_bad


# ---------------------------------------------------------------------------------------------- Python side
COLD_COMPILE_SECONDS = 30  # about what the first compile takes on the quiet 2-core test machine (docs/industry)
_NO_MASK = np.zeros((1, NA), np.bool_)
_NO_U8 = np.zeros(0, np.uint8)
_NO_I32 = np.zeros(0, np.int32)
_NO_I64 = np.zeros(0, np.int64)
_NO_BOOL = np.zeros(0, np.bool_)
_NO_F64 = np.zeros(0, np.float64)
# Board tables (about 17 KB each): the one of the board used last; one per board object alive; and a few by
# content, so that boards with the same facts (each env loading its own copy of one file) share one table. Boards
# are held weakly: one no longer used elsewhere is freed, and its entry with it.
TABLES_BY_CONTENT = 8
_last_table: tuple[weakref.ref | None, np.ndarray] = (None, _NO_I32)
_tables_by_board: weakref.WeakKeyDictionary[object, np.ndarray] = weakref.WeakKeyDictionary()
_tables_by_content: OrderedDict[bytes, np.ndarray] = OrderedDict()
_bit_generators: dict[int, tuple[object, int, int]] = {}
_ready = False
# numba's threads: the layer is chosen once for every game by core.runtime (TBB, else OpenMP with a bounded spin,
# else the workqueue). Batches at least this large run on all of numba's threads, smaller ones on the calling
# thread: where a launch costs a few us (tbb, omp), from 512 games; with the workqueue's 160-400 us, from 8192.
# Measured figures: docs/industry/engine.md, "Threads". Where other processes keep the cores busy,
# NUMBA_NUM_THREADS=1 is fastest.
PARALLEL_FROM_BY_LAYER = {"tbb": 512, "omp": 512, "workqueue": 8192}
PARALLEL_FROM = runtime.parallel_from(PARALLEL_FROM_BY_LAYER)
_launch_lock = threading.Lock()


def chunks(B: int, per_thread: int) -> int:
    """Chunks of a batch for the threads: a few per thread, for balance."""
    return max(1, runtime.chunks(B, 1, per_thread))


def _parallel_run(op, buf=_NO_U8, B=0, t=_NO_I32, actions=_NO_I64, mask=_NO_MASK, use_mask=False, legal=_NO_BOOL,
                  penalty=0.0, next_mask=_NO_MASK, write_next=False, u=_NO_F64, out=_NO_I64, weights=_NO_F64,
                  use_weights=False, key=0, max_steps=0, steps=_NO_I64, stop=_NO_I64, per_thread=4) -> int:  # fmt: skip
    """:func:`run_parallel` with stand-ins for the arguments ``op`` does not use (so one compiled version)."""
    with _launch_lock:
        return int(run_parallel(op, buf, B, t, actions, mask, use_mask, legal, penalty, next_mask, write_next, u, out,
                            weights, use_weights, key, max_steps, steps, stop, chunks(B, per_thread)))  # fmt: skip


def table_of(board: Any) -> np.ndarray:
    """The board table of ``board``: built once per content, looked up once per board object (see
    ``TABLES_BY_CONTENT``); no board is kept alive by it."""
    global _last_table
    last = _last_table
    if last[0] is not None and last[0]() is board:
        return last[1]
    table = _tables_by_board.get(board)
    if table is None:
        built = board_table(board)
        key = hashlib.sha256(built.tobytes()).digest()
        table = _tables_by_content.get(key)
        if table is None:
            table = _tables_by_content[key] = built
            while len(_tables_by_content) > TABLES_BY_CONTENT:
                _tables_by_content.popitem(last=False)
        else:
            _tables_by_content.move_to_end(key)
        _tables_by_board[board] = table
    _last_table = (weakref.ref(board), table)
    return table


class _Direct:
    """A compiled function called through its compiled entry, skipping numba's dispatch (about 0.3 us a call,
    a tenth of a step at batch 1): the entry of the signature of its first call. Only for calls whose argument
    types never change (arrays this module makes, or checked by ``engine``: their dtype, dimensions and C order
    are part of the signature; a read-only array, which is only read, passes as well)."""

    def __init__(self, dispatcher) -> None:
        self.dispatcher = dispatcher
        self.call = self._first

    def _first(self, *args):
        out = self.dispatcher(*args)
        try:  # numba's record of its compiled versions, by the types of the arguments
            sig = tuple(self.dispatcher.typeof_pyval(a) for a in args)
            self.call = self.dispatcher.overloads[sig].entry_point
        except (AttributeError, KeyError, TypeError):
            self.call = self.dispatcher
        return out


CACHE_NAME = "kernel"  # the stamp of this kernel's sources in numba's cache folder


def sources() -> list[str]:
    """The files whose numbers the compiled code holds: this one, the rules of one game, the observation's kernel
    and layout, the rules' constants, the action encoding and the State's declaration (its offsets). The
    observation's kernel is among them because numba would otherwise keep its code, built over an older
    :mod:`.kernel_rules`, for as long as its own file is unchanged."""
    return [__file__, kernel_rules.__file__, observe_kernel.__file__, observe_kernel.O.__file__,
            sys.modules["industry_env.games.industry.rules"].__file__, A.__file__, sys.modules[SCHEMA_MODULE].__file__,
            sys.modules[key_one.__module__].__file__]  # fmt: skip


def dispatchers() -> list:
    """The compiled functions of this module, of the rules (:mod:`.kernel_rules`) and of the observation
    (:mod:`.observe_kernel`), and core.chance's that they call: a stale stamp empties the cache of all of them."""
    modules = (sys.modules[__name__], kernel_rules, observe_kernel)
    return [f for module in modules for f in vars(module).values()
            if hasattr(f, "_cache") and getattr(f, "__module__", None) == module.__name__] + [splitmix64_one,
                                                                                          key_one]  # fmt: skip


def entries() -> list:
    """The compiled functions called from Python (each has its own entry in numba's cache)."""
    return [step_serial, run_parallel, new_games_rows, mask_range, check_range, sample_range, random_step_range,
            rollout_range]  # fmt: skip


_mask_direct, _step_direct, _random_step_direct = _Direct(mask_range), _Direct(step_serial), _Direct(random_step_range)


_sources, _dispatchers, _entries = sources, dispatchers, entries  # (old names)


def warm_up(state_type: type, board: Any) -> float:
    """Compile every entry point on a small batch of ``state_type`` games on ``board`` if numba's disk cache lacks
    them; returns the seconds taken.

    Called by the engine when it first runs the compiled backend in a process. A cold compile tells the user
    once, on stderr, and compiles everything at once (the message's estimate covers it all); from the cache, each
    function loads on its first call instead (:func:`industry_env.core.batched.warm_up`).
    """
    global _ready
    _ready = True
    return batched.warm_up(sys.modules[__name__], "Industry's batched engine", lambda: _compile_all(state_type, board),
                           "INDUSTRY_ENV_BACKEND=numpy skips it")  # fmt: skip


def _compile_all(state_type: type, board: Any) -> None:
    """Call every compiled entry once, serial and threaded, on two games."""
    s = state_type.empty(2, board=board)
    new_games(s, np.arange(2), np.arange(2, dtype=np.int64), np.array([3, 4], np.int8), np.ones(2, bool))
    mask = legal_action_mask(s)
    sample_legal(mask, np.random.default_rng(0))
    for par in (False, True):
        m = _mask(s, par)
        _step(s, _sample(m, np.zeros(2), par), True, -1.0, True, m, m, par)
        _step(s, _sample(m, np.zeros(2), par), True, -1.0, True, None, None, par)
        _mask(s, par)
        _sample(m, np.zeros(2), par)
        _rollout(s, 3, None, 0, True, par)
        _rollout(s, 3, np.ones(NA), 0, True, par)
        _random_step(s, np.zeros(2), True, m, par)
        _random_step(s, np.zeros(2), True, None, par)
    _random_step_drawing(s, np.random.default_rng(0), True, None)


def _mask(state, parallel: bool) -> np.ndarray:
    B = state.batch_size
    out = np.empty((B, NA), np.bool_)
    buf, t = state.backed(), table_of(state.board)
    if parallel:
        _parallel_run(OP_MASK, buf, B, t, next_mask=out)
    else:
        _mask_direct.call(buf, B, t, out, 0, B)
    return out


def _threads(batch_size: int) -> bool:
    """Run a batch of this size on all threads?"""
    return batch_size >= PARALLEL_FROM and runtime.chunks(batch_size, PARALLEL_FROM) > 0  # no call at batch 1


def legal_action_mask(state) -> np.ndarray:
    """``engine.legal_action_mask`` by the kernel."""
    return _mask(state, _threads(state.batch_size))


def _step(state, a_all, raise_, penalty, inplace, mask, next_mask, parallel):
    s = state  # the State to write (the engine gives a copy unless in place)
    buf = s.backed()  # C-contiguous by construction
    B = s.phase.shape[0]
    acts = a_all if a_all.dtype == np.int64 and a_all.flags.c_contiguous else np.ascontiguousarray(a_all, np.int64)
    legal = np.empty(B, np.bool_)
    m = _NO_MASK if mask is None else mask if mask.flags.c_contiguous else np.ascontiguousarray(mask)
    nm = _NO_MASK if next_mask is None else next_mask
    t = table_of(s.board)
    if parallel:
        if mask is None:  # legality derived from the rules: worth the threads
            n_bad = _parallel_run(OP_CHECK, buf, B, t, acts, m, False, legal)
        else:  # a lookup in the mask a game: cheaper than a launch
            n_bad = check_range(buf, B, t, acts, m, True, legal, 0, B)
        if not (n_bad and raise_):
            _parallel_run(OP_APPLY, buf, B, t, acts, legal=legal, penalty=float(penalty), next_mask=nm,
                          write_next=next_mask is not None)  # fmt: skip
    else:
        n_bad = _step_direct.call(buf, B, t, acts, m, mask is not None, legal, raise_, float(penalty), nm,
                            next_mask is not None)  # fmt: skip
    if n_bad and raise_:
        return s, np.flatnonzero(~legal)  # nothing applied: the engine refuses the step
    return s, None


def step(state, a_all, raise_: bool, penalty: float, inplace: bool, mask, next_mask):
    """``engine.step`` by the kernel (its arguments checked by the engine, ``state`` the one to write): the State
    and, if ``raise_`` and some actions are illegal (then nothing is applied), their games."""
    return _step(state, a_all, raise_, penalty, inplace, mask, next_mask, _threads(state.batch_size))


def _sample(mask, u, parallel):
    B = mask.shape[0]
    out = np.empty(B, np.int64)
    flat = mask if mask.dtype == np.bool_ and mask.flags.c_contiguous else np.ascontiguousarray(mask, np.bool_)
    if parallel:
        _parallel_run(OP_SAMPLE, B=B, mask=flat, u=u, out=out)
    else:
        sample_range(flat, u, out, 0, B)
    return out


def sample_legal(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``engine.sample_legal`` by the kernel: the same draws ``rng.random(B)``, the same picks."""
    if mask.ndim != 2 or mask.shape[1] != NA:
        raise ValueError(f"mask must be bool[B, {NA}], got shape {list(mask.shape)}")
    return _sample(mask, rng.random(mask.shape[0]), _threads(mask.shape[0]))


def _random_step(state, u, inplace, next_mask, parallel):
    s = state  # the State to write (the engine gives a copy unless in place)
    buf = s.backed()
    B = s.phase.shape[0]
    out = np.empty(B, np.int64)
    nm = _NO_MASK if next_mask is None else next_mask
    t = table_of(s.board)
    if parallel:
        _parallel_run(OP_RANDOM_STEP, buf, B, t, next_mask=nm, write_next=next_mask is not None, u=u, out=out)
    else:
        random_step_range(buf, B, t, u, 0, 0, out, nm, next_mask is not None, 0, B)
    return s, out


def _bit_generator(rng: np.random.Generator) -> tuple[object, int, int]:
    """``rng``'s bit generator and the addresses of its ``next_double`` and state (from its ``ctypes``
    interface, read once per bit generator)."""
    bg = rng.bit_generator
    hit = _bit_generators.get(id(bg))
    if hit is None or hit[0] is not bg:
        if len(_bit_generators) >= 64:  # a bounded memo: it keeps its bit generators alive
            _bit_generators.clear()
        try:
            ct = bg.ctypes
            fn, st = ctypes.cast(ct.next_double, ctypes.c_void_p).value, ct.state_address
        except (AttributeError, TypeError, ValueError):  # a bit generator without numpy's ctypes interface
            fn = st = 0
        hit = _bit_generators[id(bg)] = (bg, fn or 0, st or 0)
    return hit


def _random_step_drawing(state, rng, inplace, next_mask):
    """``random_step`` on this thread, each game's draw made in the kernel from ``rng``'s bit generator: the
    draws of ``rng.random(B)`` without building that array (half the cost of a step at batch 1)."""
    s = state  # the State to write (the engine gives a copy unless in place)
    B = s.phase.shape[0]
    out = np.empty(B, np.int64)
    bg, fn, st = _bit_generator(rng)
    if not (fn and st):
        return _random_step(s, rng.random(B), True, next_mask, False)
    nm = _NO_MASK if next_mask is None else next_mask
    lock = bg.lock  # as numpy's own draws: no other thread draws from it meanwhile
    lock.acquire()
    try:
        t = table_of(s.board)
        _random_step_direct.call(s.backed(), B, t, _NO_F64, fn, st, out, nm, next_mask is not None, 0, B)
    finally:
        lock.release()
    return s, out


def random_step(state, rng: np.random.Generator, inplace: bool, next_mask):
    """``engine.random_step`` by the kernel: the draws of ``rng.random(B)``, then one call in all."""
    B = state.phase.shape[0]
    if B >= PARALLEL_FROM and _threads(B):  # the size first: this is the batch-1 path
        return _random_step(state, rng.random(B), inplace, next_mask, True)
    return _random_step_drawing(state, rng, inplace, next_mask)


def _rollout(state, max_steps, weights, key, inplace, parallel, stop=None):
    s = state  # the State to write (the engine gives a copy unless in place)
    buf = s.backed()
    B = s.batch_size
    steps = np.zeros(B, np.int64)
    w = _NO_F64 if weights is None else weights
    st = _NO_I64 if stop is None else stop
    if parallel:
        _parallel_run(OP_ROLLOUT, buf, B, table_of(s.board), weights=w, use_weights=weights is not None, key=key,
                      max_steps=max_steps, steps=steps, stop=st, per_thread=32)  # fmt: skip
    else:
        rollout_range(buf, B, table_of(s.board), max_steps, w, weights is not None, key, steps, st, 0, B)
    return s, steps


def rollout(state, max_steps: int, weights, key: int, inplace: bool, stop=None):
    """``engine.rollout`` by the kernel (arguments checked by the engine): the games played in compiled code."""
    return _rollout(state, max_steps, weights, key, inplace, runtime.chunks(state.batch_size, 2) > 0, stop)


def new_games(state, rows: np.ndarray, seeds: np.ndarray, n: np.ndarray, balanced: np.ndarray,
              next_mask: np.ndarray | None = None) -> None:  # fmt: skip
    """``numpy_backend.new_games`` by the kernel: new games in ``rows`` of ``state`` (in place), masks optionally."""
    buf = state.backed()
    B = state.batch_size
    new_games_rows(buf, B, table_of(state.board), np.ascontiguousarray(rows, np.int64),
                   np.ascontiguousarray(seeds, np.int64), np.ascontiguousarray(n, np.int8),
                   np.ascontiguousarray(balanced, np.bool_), _NO_MASK if next_mask is None else next_mask,
                   next_mask is not None)  # fmt: skip
