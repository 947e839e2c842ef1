"""The observation (:mod:`industry_env.games.industry.observation`) computed by numba, game by game: the compiled
backend's observe.

``engine.observe`` calls :func:`observe` when the compiled backend is on (numba installed, see
:func:`industry_env.games.industry.engine.backend`). It writes exactly the floats of the numpy path (same float32
divisions), which the differential tests check against the reference's ``observe_game``. It matters where games are few:
the AEC env and the Gymnasium env observe one game per move, where numpy's ~40 calls cost more than the rules.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from ...core import numba_cache, runtime, uncompiled
from ...core.numba_cache import njit  # numba's, falling back to no disk cache where none is writable
from ...core.uncompiled import scalars
from . import kernel_rules
from . import observation as O
from .rules import NUM_COLUMNS, NUM_FIELDS, NUM_JOKER_KINDS, NUM_RESOURCES
from .state import SCHEMA

_I = {name: sl.start for name, sl in O.INDEX.items()}
FOUR, BALANCED, ERA, ROUND, PHASE, TO_MOVE, SEATS = (_I[k] for k in (
    "four_players", "balanced_draws", "era", "round", "phase", "to_move", "seat_present"))  # fmt: skip
MONEY, POINTS, SUBSIDY, JOKERS = _I["money"], _I["points"], _I["subsidy"], _I["jokers"]
STARTING, AUCTIONEER, HIGH_BIDDER, DEVELOPER = (_I[k] for k in ("starting_player", "auctioneer", "high_bidder",
                                                                 "developer"))  # fmt: skip
OWNER, DEVELOPED, CLAIMED, AVAILABLE, IN_BAG, LOT = (_I[k] for k in ("owner", "developed", "claimed", "available",
                                                                    "in_bag", "lot"))  # fmt: skip
HIGH_BID, DEVELOPMENTS, DEV_TURNS, DEVELOPING, PENDING = (_I[k] for k in ("high_bid", "developments", "dev_turns",
                                                                          "developing", "pending"))  # fmt: skip
DIM = O.OBS_DIM
_S_MONEY, _S_POINTS, _S_ROUND = O.SCALE_MONEY, O.SCALE_POINTS, O.SCALE_ROUND


@njit(cache=True)
def _mark(out, at, q, me, n):
    """One-hot of player ``q``'s seat relative to ``me`` at ``out[at:at + 4]`` (nothing for -1)."""
    if q >= 0:
        out[at + (q - me) % n] = 1.0


# Where each field of a game lives in the State's one buffer (``state.SCHEMA``): field F of game i, element k,
# is at ``F * B + W * i + k`` in the view of its width (bytes for int8/bool, int16 for money, points, high_bid).
_L = {name: SCHEMA.units(name) for name in SCHEMA.names}
F_N, F_BAL, F_ERA, F_ROUND, F_PHASE, F_BIDDER, F_AUCT, F_DEV, F_TERM, F_START, F_HIGH_BIDDER = (_L[k] for k in (
    "num_players", "balanced_draws", "era", "round", "phase", "bidder", "auctioneer", "developer", "terminated",
    "starting_player", "high_bidder"))  # fmt: skip
F_SUBSIDY, F_JOKERS, F_OWNER, F_DEVELOPED, F_CLAIMED, F_FACE_UP, F_BAG, F_BAG_POS, F_LOT = (_L[k] for k in (
    "subsidy", "jokers", "owner", "developed", "claimed", "face_up", "bag", "bag_pos", "lot"))  # fmt: skip
F_DEVELOPMENTS, F_DEV_TURNS, F_DEVELOPING, F_PENDING = (_L[k] for k in ("developments", "dev_turns", "developing",
                                                                        "pending"))  # fmt: skip
F_MONEY, F_POINTS, F_HIGH_BID = _L["money"], _L["points"], _L["high_bid"]  # int16 fields


@njit(cache=True)
def _observe_game(s8, s16, B, i, me, o):
    """Game ``i`` seen from player ``me``, written into ``o`` (float32[OBS_DIM], zeros)."""
    n = np.int64(s8[F_N * B + i])
    ph = np.int64(s8[F_PHASE * B + i])
    cur = kernel_rules.player(s8, B, i)
    o[FOUR] = 1.0 if n == 4 else 0.0
    o[BALANCED] = 1.0 if s8[F_BAL * B + i] else 0.0
    e = np.int64(s8[F_ERA * B + i])
    o[ERA + e] = 1.0
    o[ROUND] = np.float32(s8[F_ROUND * B + i]) / _S_ROUND
    o[PHASE + ph] = 1.0
    _mark(o, TO_MOVE, cur, me, n)
    for k in range(n):
        q = (me + k) % n
        o[SEATS + k] = 1.0
        o[MONEY + k] = np.float32(s16[F_MONEY * B + 4 * i + q]) / _S_MONEY
        o[POINTS + k] = np.float32(s16[F_POINTS * B + 4 * i + q]) / _S_POINTS
        o[SUBSIDY + k] = 1.0 if s8[F_SUBSIDY * B + 4 * i + q] else 0.0
        for j in range(NUM_JOKER_KINDS):
            o[JOKERS + k * NUM_JOKER_KINDS + j] = s8[F_JOKERS * B + (4 * i + q) * NUM_JOKER_KINDS + j]
    _mark(o, STARTING, np.int64(s8[F_START * B + i]), me, n)
    _mark(o, AUCTIONEER, np.int64(s8[F_AUCT * B + i]), me, n)
    _mark(o, HIGH_BIDDER, np.int64(s8[F_HIGH_BIDDER * B + i]), me, n)
    _mark(o, DEVELOPER, np.int64(s8[F_DEV * B + i]), me, n)
    for f in range(NUM_FIELDS):
        _mark(o, OWNER + 4 * f, np.int64(s8[F_OWNER * B + NUM_FIELDS * i + f]), me, n)
        o[DEVELOPED + f] = 1.0 if s8[F_DEVELOPED * B + NUM_FIELDS * i + f] else 0.0
        o[CLAIMED + f] = 1.0 if s8[F_CLAIMED * B + NUM_FIELDS * i + f] else 0.0
    for c in range(NUM_COLUMNS):
        o[AVAILABLE + e * NUM_COLUMNS + c] = 1.0 if s8[F_FACE_UP * B + NUM_COLUMNS * i + c] else 0.0
    for j in range(s8[F_BAG_POS * B + i], NUM_COLUMNS):
        o[IN_BAG + s8[F_BAG * B + NUM_COLUMNS * i + j]] = 1.0
    lot = s8[F_LOT * B + i]
    if lot >= 0:
        o[LOT + lot] = 1.0
    o[HIGH_BID] = np.float32(s16[F_HIGH_BID * B + i]) / _S_MONEY
    o[DEVELOPMENTS] = s8[F_DEVELOPMENTS * B + i]
    o[DEV_TURNS] = s8[F_DEV_TURNS * B + i]
    dv = s8[F_DEVELOPING * B + i]
    if dv >= 0:
        o[DEVELOPING + dv] = 1.0
    for j in range(2):
        r = s8[F_PENDING * B + 2 * i + j]
        if r >= 0:
            o[PENDING + j * NUM_RESOURCES + r] = 1.0


@njit(cache=True)
def _readable(buf):
    """The State buffer as the code below reads it (uncompiled: its elements as Python numbers)."""
    return buf


if uncompiled.DISABLED:
    _readable = scalars  # noqa: F811 (NUMBA_DISABLE_JIT=1: see industry_env.core.uncompiled)


@njit(cache=True)
def _observe_range(buf, B, observer, out, bad, lo, hi):
    """Games ``lo:hi`` into ``out`` (uninitialised rows: each is zeroed, then written); ``observer[i]`` -1: its
    player to move (seat 0 once over). ``bad[i]`` is set for a game whose observer is not one of its players."""
    buf = _readable(buf)
    s8 = buf.view(np.int8)
    for i in range(lo, hi):
        out[i, :] = 0.0
        me = np.int64(observer[i])
        if me == -1:
            me = max(kernel_rules.player(s8, B, i), 0)
        if me < 0 or me >= s8[F_N * B + i]:
            bad[i] = True
            continue
        _observe_game(s8, buf.view(np.int16), B, i, me, out[i])


@njit(cache=True)
def _observe_all(buf, B, observer, out, bad):
    """Every game into ``out``, on this thread (small batches)."""
    _observe_range(buf, B, observer, out, bad, 0, B)


@njit(cache=True, parallel=True)
def _observe_parallel(buf, B, observer, out, bad, nc):
    """Every game into ``out``, in ``nc`` chunks over numba's threads (the vector env's thousands of games: the
    rows are written, zeroed first, where the memory is touched by each thread)."""
    for c in prange(nc):
        _observe_range(buf, B, observer, out, bad, c * B // nc, (c + 1) * B // nc)


@njit(cache=True)
def _to_move_all(buf, B, out):
    s8 = _readable(buf).view(np.int8)
    for i in range(B):
        out[i] = kernel_rules.player(s8, B, i)


def current_player(state) -> np.ndarray:
    """int8[B]: ``State.current_player`` in one compiled pass (numpy's takes several, slow on small batches)."""
    out = np.empty(state.batch_size, np.int8)
    _to_move_all(state.backed(), state.batch_size, out)
    return out


def observe(state, player, parallel_from: int) -> np.ndarray:
    """``engine.observe`` by the kernel: ``player`` None (the player to move), a seat, or int[B] (checked); on the
    threads from twice ``parallel_from`` games (the engine kernel's threshold, in the one runtime's layer)."""
    B = state.batch_size
    if player is None:
        observer = np.full(B, -1, np.int64)
    elif isinstance(player, (int, np.integer)) and not isinstance(player, (bool, np.bool_)):
        observer = np.full(B, int(player) if player >= 0 else -2, np.int64)
    else:
        raw = np.asarray(player)
        if not np.issubdtype(raw.dtype, np.integer) or raw.shape not in ((), (B,)):
            raise ValueError(f"player={player!r}: a seat number, or one per game (int[{B}])")
        observer = np.where(np.broadcast_to(raw, (B,)) >= 0, raw, -2).astype(np.int64)
    out = np.empty((B, DIM), np.float32)
    bad = np.zeros(B, np.bool_)
    if runtime.chunks(B, 2 * parallel_from):
        _observe_parallel(state.backed(), B, observer, out, bad, max(1, runtime.chunks(B, 1, 4)))  # a few a thread
    else:
        _observe_all(state.backed(), B, observer, out, bad)
    if bad.any():
        raise ValueError("observer must be a player of the game (0 .. num_players - 1)")
    return out


# A damaged cache file would make every call of this module raise, in every process: emptied here instead.
_compiled = [f for f in list(globals().values()) if hasattr(f, "_cache") and getattr(f, "__module__", None) == __name__]
numba_cache.repair(_compiled, "observe_kernel")
