"""The strong heuristic compiled with numba: :func:`~.strong_heuristic.strong_actions`, one game at a time.

:func:`~.strong_heuristic.strong_actions` (the readable numpy form, and the fallback) dispatches here when the
engine's backend is the compiled one (numba installed, the ``fast`` extra; ``engine.backend() == "numba"``;
``compiled=False`` forces the numpy form). The numpy form costs about 37 us of CPU a decision, mostly numpy's
per-call overhead on small arrays; this twin, 1.6 to 2 us (6 us for a batch of one, call included), reads the
State's one buffer (``State._buf``, the offsets of :mod:`industry_env.games.industry.kernel`) and computes, game by
game and only where the phase reads it, the same assessment: values ``V[P, 60]``, synergy, producer and discount terms,
standing, leader, reserve, later bidders, the auction tie-break noise (heuristic v0's ``tie_noise``: SplitMix64
of seed, round and field), bids, subsidy, keep or sell, develop and pay. The develop-phase subsidy test asks the
engine kernel's ``developable`` on a copy of the game holding 3 Talers more (the numpy form's
``legal_action_mask`` of a richer copy). It runs on the calling thread: a ``prange`` over the batch measured
slower on the shared 2-core machine, at batch 256 and 1024.

Same actions: every product and sum is done in the numpy form's order (numpy's 8-way pairwise sum where it
reduces 60 fields), except ``prob @ SYNERGY``, which BLAS sums in its own order; there the twin sums the
neighbours in field order, which can differ in the last bit, so an exact tie between two choices may break
the other way (once in 288,000 positions checked; ``tests/industry/test_strong_kernel.py`` bounds them below 0.1%).
"""

from __future__ import annotations

import sys
import time
from functools import lru_cache

import numpy as np

from industry_env.core import numba_cache
from industry_env.core.chance import splitmix64_one
from industry_env.core.numba_cache import njit  # numba's, falling back to no disk cache where none is writable
from industry_env.games.industry import actions as A
from industry_env.games.industry import engine
from industry_env.games.industry import kernel as K
from industry_env.games.industry import kernel_rules as R
from industry_env.games.industry.components import Board
from industry_env.games.industry.rules import (
    JOKER_POINTS,
    MIN_PLAYERS,
    NUM_FIELDS,
    NUM_RESOURCES,
    SUBSIDY_MONEY,
    SUBSIDY_POINTS,
    TALERS_PER_POINT,
    WILD_JOKER,
)
from industry_env.games.industry.state import SCHEMA

from .heuristic_v0 import _NOISE_PURPOSE, TIE_NOISE
from .strong_tables import (
    JOKER_FIELD_VALUE,
    OWNED_UNDEVELOPED,
    SUBSIDY_GAIN,
    UNOBTAINABLE,
    StrongParams,
)
from .strong_tables import board_tables as _tables

NF, NR, P, NA = NUM_FIELDS, NUM_RESOURCES, 4, A.NUM_ACTIONS
NJ = NR + 1
AUCTION, BID, SELL_OR_KEEP, DEVELOP, PAY = R.AUCTION, R.BID, R.SELL_OR_KEEP, R.DEVELOP, R.PAY
COMPILE_SECONDS = 10  # about what the first compile takes (7 s of CPU on the 2-core test machine)

# The board as one float64 table (:func:`board_floats`): per-field rows of 60, the needs of each field (up to two
# resources and how many of each), the [era, field] table, then the nonzero entries of SYNERGY by column (CSR:
# 61 pointers, then the rows g, then the weights SYNERGY[g, f]).
F_POINTS, F_COST, F_DISCOUNT, F_ERA, F_SCORES, F_TECH, F_JOKER, F_MAKES = (k * NF for k in range(8))
F_BANK_ERA = 8 * NF  # 11
F_NEEDS = F_BANK_ERA + NR  # [field]: resource, count, resource, count (-1, 0 for none): NEED_R's nonzeros
F_LATER = F_NEEDS + 4 * NF  # [era, field] 5 * 60
F_SYN = F_LATER + 5 * NF

# the parameters as one float64 array, in this order
PARAMS = ("taler_value", "future_share", "greed", "deny", "keep_margin", "sell_weight")

# A game's working arrays: rows of one float64[W_ROWS, 60] (one argument instead of ten)
W_PROB, W_UND = 0, P  # [P, 60] each: the chance p gets f; 1.0 for p's own fields still to develop
W_OPEN, W_TMP = 2 * P, 2 * P + 1  # fields still to be auctioned; scratch
W_FNEED, W_ONEED, W_PER = 2 * P + 2, 3 * P + 2, 3 * P + 3  # [P, 11], [11], [P, 11]: future needs, producer value
W_UNLIM, W_MISC = 4 * P + 3, 4 * P + 4  # [11]; saved[P], standing[P], pairwise sums[8]
W_ROWS = 4 * P + 5


@lru_cache(maxsize=8)
def board_floats(board: Board) -> np.ndarray:
    """float64[...]: the strong heuristic's board tables (``strong_heuristic._tables``) in one array."""
    t = _tables(board)
    makes = np.full(NF, -1.0)
    f, r = np.nonzero(t.MAKES)
    if np.bincount(f, minlength=NF).max() > 1:
        raise ValueError("board_floats: a field makes more than one resource")
    makes[f] = r
    needs = np.tile([-1.0, 0.0, -1.0, 0.0], (NF, 1))
    for f in range(NF):
        rs = np.flatnonzero(t.NEED_R[f])
        if rs.size > 2:
            raise ValueError(f"board_floats: field {f} needs more than two resources")
        for j, r in enumerate(rs):
            needs[f, 2 * j : 2 * j + 2] = r, t.NEED_R[f, r]
    syn = np.asarray(t.SYNERGY, np.float64)
    ptr, rows, weights = [0], [], []
    for col in range(NF):  # column f: the fields g (increasing) with SYNERGY[g, f] != 0
        g = np.flatnonzero(syn[:, col])
        rows += g.tolist()
        weights += syn[g, col].tolist()
        ptr.append(len(rows))
    parts = [t.POINTS, t.COST, t.DISCOUNT, t.ERA, t.SCORES, t.IS_TECH, t.IS_JOKER, makes, t.BANK_ERA, needs,
             t.LATER_OK, ptr, rows, weights]  # fmt: skip
    out = np.concatenate([np.asarray(x, np.float64).reshape(-1) for x in parts])
    out.setflags(write=False)
    return out


@njit(cache=True)
def _tie_noise(seed, round_, field):
    """``heuristic_v0.tie_noise`` of one (seed, round, field)."""
    h = splitmix64_one(np.uint64(seed) ^ np.uint64(_NOISE_PURPOSE))
    h = splitmix64_one(h ^ np.uint64(np.int64(round_)))
    h = splitmix64_one(h ^ np.uint64(np.int64(field)))
    return np.float64(h >> np.uint64(11)) * 2.0**-53 * TIE_NOISE


@njit(cache=True)
def _pairwise60(a, r):
    """numpy's sum of the 60 float64 of ``a`` (``np.add.reduce``: eight running sums in ``r``, combined in pairs,
    then the rest), so that the twin's sum is the numpy form's to the last bit."""
    for j in range(8):
        r[j] = a[j]
    i = 8
    while i < NF - NF % 8:
        for j in range(8):
            r[j] += a[i + j]
        i += 8
    res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
    while i < NF:
        res += a[i]
        i += 1
    return 0.0 + res


@njit(cache=True)
def _prepare(s8, ft, prm, B, i, era, share, w):
    """The per-game part of ``strong_heuristic._assessment`` into ``w``: chances, own fields to develop, open
    fields, resource needs, the producer value per resource, the unlimited resources, the discount's savings."""
    sw = prm[5]
    own0, dev0, cl0 = R.OWNER * B + NF * i, R.DEVELOPED * B + NF * i, R.CLAIMED * B + NF * i
    prod0 = R.PRODUCES * B + P * NR * i
    for f in range(NF):
        w[W_OPEN, f] = 1.0 if (not s8[cl0 + f] and ft[F_ERA + f] >= era) else 0.0
    for q in range(P):
        for f in range(NF):
            own = s8[own0 + f] == q
            dv = own and s8[dev0 + f] != 0
            u = own and s8[dev0 + f] == 0 and ft[F_LATER + NF * era + f] != 0.0
            w[W_UND + q, f] = 1.0 if u else 0.0
            w[W_PROB + q, f] = ((1.0 if dv else 0.0) + OWNED_UNDEVELOPED * (1.0 if u else 0.0)) + share * w[W_OPEN, f]
    for r in range(NR):
        w[W_ONEED, r] = 0.0
        for q in range(P):
            w[W_FNEED + q, r] = 0.0
    for f in range(NF):  # own fields still to develop (per player) and fields still to be auctioned: their needs
        for j in range(2):
            r = np.int64(ft[F_NEEDS + 4 * f + 2 * j])
            if r >= 0:
                nr = ft[F_NEEDS + 4 * f + 2 * j + 1]
                w[W_ONEED, r] += w[W_OPEN, f] * nr
                for q in range(P):
                    w[W_FNEED + q, r] += w[W_UND + q, f] * nr
    for r in range(NR):
        total_need = 0.0
        makers = 0
        for q in range(P):
            total_need += w[W_FNEED + q, r]
            makers += s8[prod0 + NR * q + r] != 0
        for q in range(P):
            made = s8[prod0 + NR * q + r] != 0
            self_use = w[W_FNEED + q, r] + share * w[W_ONEED, r]
            sales = ((total_need - w[W_FNEED + q, r]) + (1 - share) * w[W_ONEED, r]) / (1.0 + (makers - made))
            w[W_PER + q, r] = (self_use + sw * sales) * (0.0 if made else 1.0)
        w[W_UNLIM, r] = 1.0 if (makers > 0 or ft[F_BANK_ERA + r] <= era) else 0.0
    for q in range(P):  # Bank / Stock Exchange: the construction costs it will save
        disc = np.float64(s8[R.DISCOUNT * B + P * i + q])
        for f in range(NF):
            costly = 1.0 if ft[F_COST + f] > disc else 0.0
            w[W_TMP, f] = costly * (w[W_UND + q, f] + share * w[W_OPEN, f])
        w[W_MISC, q] = _pairwise60(w[W_TMP], w[W_MISC, 2 * P : 2 * P + 8])


@njit(cache=True)
def _devcost(s8, ft, B, i, q, f):
    """Talers ``q`` pays to develop ``f``: construction after his discount, a Taler per resource he does not make."""
    unmade = 0.0
    for j in range(2):
        r = np.int64(ft[F_NEEDS + 4 * f + 2 * j])
        if r >= 0 and s8[R.PRODUCES * B + P * NR * i + NR * q + r] == 0:
            unmade += ft[F_NEEDS + 4 * f + 2 * j + 1]
    return max(ft[F_COST + f] - np.float64(s8[R.DISCOUNT * B + P * i + q]), 0.0) + unmade


@njit(cache=True)
def _gross(s8, ft, prm, B, i, era, w, q, f):
    """What ``f`` adds for ``q`` (points, before its development cost): ``_assessment``'s ``gross``."""
    jok0 = R.JOKERS * B + P * NJ * (i) + NJ * q
    now = ft[F_POINTS + f] if (ft[F_SCORES + f] != 0.0 and ft[F_ERA + f] == era) else 0.0
    lacks = False
    for j in range(2):
        r = np.int64(ft[F_NEEDS + 4 * f + 2 * j])
        if r >= 0 and w[W_UNLIM, r] == 0.0:
            lacks |= ft[F_NEEDS + 4 * f + 2 * j + 1] > np.float64(s8[jok0 + r]) + np.float64(s8[jok0 + WILD_JOKER])
    now_p = now * (UNOBTAINABLE if lacks else 1.0)
    nptr = F_SYN + NF + 1
    nnz = np.int64(ft[F_SYN + NF])
    syn = 0.0
    for k in range(np.int64(ft[F_SYN + f]), np.int64(ft[F_SYN + f + 1])):
        syn += w[W_PROB + q, np.int64(ft[nptr + k])] * ft[nptr + nnz + k]
    m = np.int64(ft[F_MAKES + f])
    producer = w[W_PER + q, m] if m >= 0 else 0.0
    return (now_p + syn) + prm[0] * (producer + w[W_MISC, q] * ft[F_DISCOUNT + f])


@njit(cache=True)
def _value(s8, ft, prm, B, i, era, w, q, f):
    """``V[q, f]``: the points ``f`` is worth to ``q``, net of its development cost (``_assessment``'s ``value``)."""
    if ft[F_JOKER + f] != 0.0:
        return JOKER_FIELD_VALUE
    return _gross(s8, ft, prm, B, i, era, w, q, f) - prm[0] * _devcost(s8, ft, B, i, q, f)


@njit(cache=True)
def _leader(s8, s16, ft, B, i, n):
    """The first player of highest standing (``argmax`` of ``_assessment``'s rough final score)."""
    own0, dev0 = R.OWNER * B + NF * i, R.DEVELOPED * B + NF * i
    nptr = F_SYN + NF + 1
    nnz = np.int64(ft[F_SYN + NF])
    best, best_st = 0, -np.inf
    for q in range(n):
        synsum = 0.0  # the links and bonuses of his developed fields (whole numbers: any order is exact)
        for f in range(NF):
            if s8[own0 + f] == q and s8[dev0 + f] != 0:
                for k in range(np.int64(ft[F_SYN + f]), np.int64(ft[F_SYN + f + 1])):
                    g = np.int64(ft[nptr + k])
                    if s8[own0 + g] == q and s8[dev0 + g] != 0:
                        synsum += ft[nptr + nnz + k]
        jsum = 0
        for k in range(NJ):
            jsum += s8[R.JOKERS * B + P * NJ * i + NJ * q + k]
        money = np.float64(s16[R.MONEY * B + P * i + q])
        st = np.float64(s16[R.POINTS * B + P * i + q]) + money / TALERS_PER_POINT
        st = (st + JOKER_POINTS * jsum) + SUBSIDY_POINTS * (1 if s8[R.SUBSIDY * B + P * i + q] else 0)
        st = st + 0.5 * synsum
        if st > best_st:
            best, best_st = q, st
    return best


@njit(cache=True)
def _act(s8, s16, t, ft, prm, seed, row, B, i, w, scratch, copy):
    """The strong heuristic's action in game ``i`` (``row``: its legal-action mask); -1 if its phase has none."""
    tv, greed, deny, keep_margin = prm[0], prm[2], prm[3], prm[4]
    p = np.int64(R.player(s8, B, i))
    ph = s8[R.PHASE * B + i]
    if p < 0 or ph > PAY:
        return -1
    money_p = np.float64(s16[R.MONEY * B + P * i + p])
    subsidy_ok = row[A.SUBSIDY]
    if ph == PAY:  # a Taler before a joker of the resource, the "?" joker last, a joker before the last Taler
        poor = money_p <= 1
        best, best_key = 0, np.inf
        for k in range(A.SUBSIDY - A.PAY):
            if not row[A.PAY + k]:
                continue
            way = k % A.NUM_PAY_WAYS
            cost = JOKER_POINTS if way == A.PAY_JOKER else (JOKER_POINTS + 0.5 if way == A.PAY_WILD else tv)
            if way >= A.PAY_BANK and poor:
                cost = JOKER_POINTS + 1.0
            key = cost * 1000.0 + k
            if key < best_key:
                best, best_key = k, key
        return A.PAY + best
    n = np.int64(s8[R.NUM_PLAYERS * B + i])
    era = np.int64(s8[R.ERA * B + i])
    share = prm[1] * (MIN_PLAYERS + 1) / n
    _prepare(s8, ft, prm, B, i, era, share, w)
    if ph == AUCTION:
        rnd = np.int64(s8[R.ROUND * B + i])
        best, best_score = 0, -np.inf
        for f in range(NF):
            if not row[A.AUCTION + f]:
                continue
            others = -np.inf
            for q in range(n):
                if q != p:
                    v = _value(s8, ft, prm, B, i, era, w, q, f) / tv
                    others = max(others, min(v, np.float64(s16[R.MONEY * B + P * i + q])))
            mine = _value(s8, ft, prm, B, i, era, w, p, f) / tv
            score = max(mine, 0.0) + 0.5 * max(others, 0.0)
            noisy = score + _tie_noise(seed, rnd, f)
            if noisy > best_score:
                best, best_score = f, noisy
        return A.AUCTION + best
    lot = np.int64(s8[R.LOT * B + i])
    if ph == BID:
        high = np.float64(s16[R.HIGH_BID * B + i])
        leader = _leader(s8, s16, ft, B, i, n)
        mine = _value(s8, ft, prm, B, i, era, w, p, lot)
        lv = _value(s8, ft, prm, B, i, era, w, leader, lot) if leader != p else 0.0
        worth = greed * (mine + deny * lv) / tv
        reserve = 0.0  # the development costs of own fields whose points expire with this era
        for f in range(NF):
            if w[W_UND + p, f] != 0.0 and ft[F_ERA + f] == era and ft[F_SCORES + f] != 0.0:
                reserve += _devcost(s8, ft, B, i, p, f)
        budget = money_p - _devcost(s8, ft, B, i, p, lot) - reserve
        limit = np.floor(min(worth, budget))
        auct = np.int64(s8[R.AUCTIONEER * B + i])
        until = (auct - p) % n
        rival = 0.0
        for q in range(n):
            after = (q - p) % n
            if after > 0 and after <= until:
                v = np.floor(_value(s8, ft, prm, B, i, era, w, q, lot) / tv)
                rival = max(rival, min(v, np.float64(s16[R.MONEY * B + P * i + q])))
        amount = min(max(rival + 1, high + 1), limit)
        ok = amount > high and amount <= money_p
        action = A.BID + np.int64(min(max(amount, 1.0), np.float64(A.SELL - A.BID))) - 1
        if ok and row[min(max(action, A.BID), A.SELL - 1)]:
            return action
        gain = mine - tv * (high + 1)
        richer = np.floor(min(worth, budget + SUBSIDY_MONEY))
        if subsidy_ok and richer > high and gain > SUBSIDY_GAIN and high + 1 <= money_p + 3:
            return A.SUBSIDY
        return A.PASS
    if ph == SELL_OR_KEEP:
        high = np.float64(s16[R.HIGH_BID * B + i])
        bidder = np.int64(s8[R.HIGH_BIDDER * B + i])
        mine = _value(s8, ft, prm, B, i, era, w, p, lot)
        d = deny * _value(s8, ft, prm, B, i, era, w, bidder, lot) if bidder == _leader(s8, s16, ft, B, i, n) else 0.0
        worth = (mine + d) / tv
        want = worth > keep_margin * high
        if want and row[A.KEEP]:
            return A.KEEP
        gain = mine + d - tv * high
        if want and subsidy_ok and gain > SUBSIDY_GAIN and high <= money_p + 3:
            return A.SUBSIDY
        return A.SELL
    # develop: the legal field of highest gain, expiring ones first; one not paying for itself waits
    last = era == 4
    own0, dev0 = R.OWNER * B + NF * i, R.DEVELOPED * B + NF * i
    best, best_score = 0, -np.inf
    for f in range(NF):
        w[W_TMP, f] = -np.inf  # the gain of an urgent field, for the subsidy below
        if s8[own0 + f] != p or s8[dev0 + f] != 0:
            continue  # only his undeveloped fields can be legal
        expires = ft[F_ERA + f] == era and ft[F_SCORES + f] != 0.0
        gain = _gross(s8, ft, prm, B, i, era, w, p, f) - tv * _devcost(s8, ft, B, i, p, f)
        if expires or last:
            w[W_TMP, f] = gain
        if not row[A.DEVELOP + f] or not (expires or last or gain > 0):
            continue
        score = (gain + (100.0 if expires else 0.0)) + 10.0 * ft[F_TECH + f]
        if score > best_score:
            best, best_score = f, score
    if best_score > -np.inf:
        return A.DEVELOP + best
    if subsidy_ok:  # an own field it cannot afford now, worth more than 5 points, that 3 Talers make legal
        _game_copy(s8, B, i, copy)
        c16 = copy.view(np.int16)
        c16[R.MONEY + p] += SUBSIDY_MONEY
        top = -np.inf
        for j in range(R.developable(copy, c16, t, 1, 0, p, scratch)):
            top = max(top, w[W_TMP, scratch[j]])
        if top > SUBSIDY_GAIN:
            return A.SUBSIDY
    return A.DONE


_OFFSETS = np.array([(SCHEMA.offset[f.name], f.nbytes) for f in SCHEMA.fields], np.int64)  # byte offset, bytes per game


@njit(cache=True)
def _game_copy(s8, B, i, copy):
    """Game ``i`` of a State buffer of B games as a buffer of one game (``copy``: int8[BYTES_PER_GAME])."""
    for k in range(_OFFSETS.shape[0]):
        off, size = _OFFSETS[k, 0], _OFFSETS[k, 1]
        copy[off : off + size] = s8[off * B + size * i : off * B + size * (i + 1)]


@njit(cache=True)
def actions_range(buf, B, t, ft, prm, seeds, mask, out, lo, hi):
    """The strong heuristic's actions of games ``lo:hi`` into ``out``; returns how many are not in their mask
    row (or -1: a finished game or no decision)."""
    s8, s16, _, _ = K.views(buf, B)
    w = np.empty((W_ROWS, NF))
    scratch = np.empty(R.MAX_LEGAL, np.int64)
    copy = np.empty(R.BYTES_PER_GAME, np.int8)
    bad = 0
    for i in range(lo, hi):
        a = _act(s8, s16, t, ft, prm, seeds[i], mask[i], B, i, w, scratch, copy)
        out[i] = a
        bad += a < 0 or not mask[i, a]
    return bad


_ready = False


def _dispatchers() -> list:
    """This module's compiled functions."""
    return [f for f in globals().values() if hasattr(f, "_cache") and getattr(f, "__module__", None) == __name__]


def _sources() -> list[str]:
    """The files whose numbers the compiled code holds as constants: this one, the engine kernel and its rules (and
    the State layout), the strong heuristic's tables and heuristic v0 (the rule-of-thumb constants), the rules and
    the action numbers."""
    from . import heuristic_v0, strong_tables

    modules = (sys.modules[__name__], K, R, engine, A, strong_tables, heuristic_v0)
    return [m.__file__ for m in modules] + [sys.modules["industry_env.games.industry.rules"].__file__]


def _cached() -> bool:
    """Is the compiled code in numba's disk cache, built from these very sources? numba keys its cache on this
    file alone; when a file it takes constants from has changed, the cache is emptied here, so the code is
    compiled afresh (see :mod:`industry_env.core.numba_cache`)."""
    return numba_cache.is_fresh(_dispatchers(), _dispatchers(), _sources(), "strong_kernel")


def warm_up() -> float:
    """Compile (or load from numba's disk cache) the kernel on a tiny batch; returns the seconds taken.

    A cold compile says so once, on stderr.
    """
    global _ready
    t0 = time.perf_counter()
    _ready = True
    fresh = _cached()
    if not fresh:
        notice = numba_cache.CompileNotice("Industry's strong heuristic", COMPILE_SECONDS,
                                           "INDUSTRY_ENV_BACKEND=numpy skips it")  # fmt: skip
    s = engine.init(1, seed=0, num_players=4)
    compiled_actions(s, 0, engine.legal_action_mask(s), StrongParams())
    if not fresh:
        numba_cache.mark_fresh(_dispatchers(), _sources(), "strong_kernel")
        notice.done()
    return time.perf_counter() - t0


def compiled_actions(state: engine.State, seed: int | np.ndarray, mask: np.ndarray | None,
                     params: StrongParams) -> np.ndarray | None:  # fmt: skip
    """int64[B]: ``strong_actions(state, seed, mask, params)`` computed by the kernel.

    None for anything it cannot act on (a finished game, a mask of the wrong shape or type, or one that does not
    match the state): the numpy form then checks the input and raises its own ValueError, so both forms give the
    same errors in the same order.
    """
    if not _ready:
        warm_up()
    B = state.batch_size
    if mask is None:
        mask = engine.legal_action_mask(state)  # all False for a finished game: reported below
    elif mask.shape != (B, NA) or mask.dtype != np.bool_:
        return None
    m = mask if mask.flags.c_contiguous else np.ascontiguousarray(mask)
    if isinstance(seed, (int, np.integer)):
        seeds = np.full(B, seed, np.int64)
    else:
        seeds = np.ascontiguousarray(np.broadcast_to(np.asarray(seed, dtype=np.int64), (B,)))
    out = np.empty(B, np.int64)
    if actions_range(state.backed(), B, K.table_of(state.board), board_floats(state.board), _param_array(params),
                     seeds, m, out, 0, B):  # fmt: skip
        return None
    return out


@lru_cache(maxsize=64)
def _param_array(params: StrongParams) -> np.ndarray:
    """float64[6]: the parameters in the order of ``PARAMS``."""
    return np.array([getattr(params, k) for k in PARAMS], np.float64)


__all__ = ["board_floats", "compiled_actions", "warm_up"]
