"""The strong heuristic compiled with numba: :func:`~.strong_heuristic.strong_actions`, one game at a time.

:func:`~.strong_heuristic.strong_actions` (the readable numpy form, and the fallback) dispatches here when the
engine's backend is the compiled one (numba installed, the ``fast`` extra; ``engine.backend() == "numba"``).
The numpy form costs about 37 us of CPU a game decision, most of it in numpy's per-call overhead on small arrays;
this twin reads the State's one buffer (``State._buf``, the offsets of :mod:`industry_env.kernel`) and computes
the same assessment game by game: values ``V[P, 60]``, synergy, producer and discount terms, standing, leader,
reserve, later bidders, the auction tie-break noise (heuristic v0's ``tie_noise``: SplitMix64 of seed, round and
field), bids, subsidy, keep or sell, develop and pay. The develop-phase subsidy test asks the engine kernel's
``_developable`` on a copy of the game holding 3 Talers more (the numpy form's ``legal_action_mask`` of a copy).

Same actions: every product and sum is done in the numpy form's order (numpy's 8-way pairwise sum where it
reduces 60 fields), except ``prob @ SYNERGY``, which BLAS sums in its own order; there the twin sums the
neighbours in field order, which can differ in the last bit, so an exact tie between two choices may break
the other way (``tests/test_strong_kernel.py`` counts them: well under 0.1% of positions).
"""

from __future__ import annotations

import os
import sys
import time
from functools import lru_cache

import numpy as np
from numba import njit

from industry_env import actions as A
from industry_env import engine
from industry_env import kernel as K
from industry_env.board import Board
from industry_env.rules import (
    JOKER_POINTS,
    MIN_PLAYERS,
    NUM_FIELDS,
    NUM_RESOURCES,
    SUBSIDY_MONEY,
    SUBSIDY_POINTS,
    TALERS_PER_POINT,
    WILD_JOKER,
)

from .heuristic_v0 import _NOISE_PURPOSE, TIE_NOISE
from .strong_heuristic import (
    JOKER_FIELD_VALUE,
    OWNED_UNDEVELOPED,
    SUBSIDY_GAIN,
    UNOBTAINABLE,
    StrongParams,
    _tables,
)

NF, NR, P, NA = NUM_FIELDS, NUM_RESOURCES, 4, A.NUM_ACTIONS
NJ = NR + 1
AUCTION, BID, SELL_OR_KEEP, DEVELOP, PAY = K.AUCTION, K.BID, K.SELL_OR_KEEP, K.DEVELOP, K.PAY
COMPILE_SECONDS = 15  # about what the first compile takes (CPU seconds on the 2-core test machine)

# The board as one float64 table (:func:`board_floats`): per-field rows of 60, the [field, resource] tables,
# the [era, field] table, then the nonzero entries of SYNERGY by column (CSR: 61 pointers, rows, weights).
F_POINTS, F_COST, F_DISCOUNT, F_ERA, F_SCORES, F_TECH, F_JOKER, F_MAKES = (k * NF for k in range(8))
F_BANK_ERA = 8 * NF  # 11
F_NEED = F_BANK_ERA + NR  # [field, resource] 60 * 11
F_LATER = F_NEED + NF * NR  # [era, field] 5 * 60
F_SYN = F_LATER + 5 * NF  # CSR pointers (61), then the rows g, then the weights SYNERGY[g, f]

# the parameters as one float64 array, in this order
PARAMS = ("taler_value", "future_share", "greed", "deny", "keep_margin", "sell_weight")


@lru_cache(maxsize=8)
def board_floats(board: Board) -> np.ndarray:
    """float64[...]: the strong heuristic's board tables (``strong_heuristic._tables``) in one array."""
    t = _tables(board)
    makes = np.full(NF, -1.0)
    f, r = np.nonzero(t.MAKES)
    if np.bincount(f, minlength=NF).max() > 1:
        raise ValueError("board_floats: a field makes more than one resource")
    makes[f] = r
    syn = np.asarray(t.SYNERGY, np.float64)
    ptr, rows, weights = [0], [], []
    for col in range(NF):  # column f: the fields g (increasing) with SYNERGY[g, f] != 0
        g = np.flatnonzero(syn[:, col])
        rows += g.tolist()
        weights += syn[g, col].tolist()
        ptr.append(len(rows))
    parts = [t.POINTS, t.COST, t.DISCOUNT, t.ERA, t.SCORES, t.IS_TECH, t.IS_JOKER, makes, t.BANK_ERA,
             t.NEED_R.reshape(-1), t.LATER_OK.reshape(-1), ptr, rows, weights]  # fmt: skip
    out = np.concatenate([np.asarray(x, np.float64).reshape(-1) for x in parts])
    out.setflags(write=False)
    return out


@njit(cache=True)
def _tie_noise(seed, round_, field):
    """``heuristic_v0.tie_noise`` of one (seed, round, field)."""
    h = K._splitmix64(np.uint64(seed) ^ np.uint64(_NOISE_PURPOSE))
    h = K._splitmix64(h ^ np.uint64(np.int64(round_)))
    h = K._splitmix64(h ^ np.uint64(np.int64(field)))
    return np.float64(h >> np.uint64(11)) * 2.0**-53 * TIE_NOISE


@njit(cache=True)
def _pairwise60(a):
    """numpy's sum of 60 float64 (``np.add.reduce``: eight running sums, combined in pairs, then the rest)."""
    r = np.empty(8)
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
def _assess(s8, s16, ft, prm, B, i, value, gross, devcost, und, standing, tmp):
    """Game ``i``'s assessment (``strong_heuristic._assessment``) into value, gross, devcost [P, 60], und
    (bool[P, 60]) and standing [P]; ``tmp`` is scratch (float64[>= 60])."""
    tv, fs, sw = prm[0], prm[1], prm[5]
    n = np.int64(s8[K.NUM_PLAYERS * B + i])
    era = np.int64(s8[K.ERA * B + i])
    own0, dev0, cl0 = K.OWNER * B + NF * i, K.DEVELOPED * B + NF * i, K.CLAIMED * B + NF * i
    prod0, jok0 = K.PRODUCES * B + P * NR * i, K.JOKERS * B + P * NJ * i
    share = fs * (MIN_PLAYERS + 1) / n
    nptr = F_SYN + NF + 1
    nnz = np.int64(ft[F_SYN + NF])
    prob = np.empty((P, NF))
    open_ = np.empty(NF)
    for f in range(NF):
        open_[f] = 1.0 if (not s8[cl0 + f] and ft[F_ERA + f] >= era) else 0.0
    for q in range(P):
        for f in range(NF):
            own = s8[own0 + f] == q
            dv = own and s8[dev0 + f] != 0
            u = own and s8[dev0 + f] == 0 and ft[F_LATER + NF * era + f] != 0.0
            und[q, f] = u
            prob[q, f] = ((1.0 if dv else 0.0) + OWNED_UNDEVELOPED * (1.0 if u else 0.0)) + share * open_[f]
    # resource needs: own fields still to develop (per player) and fields still to be auctioned
    future_need = np.zeros((P, NR))
    open_need = np.zeros(NR)
    for f in range(NF):
        for r in range(NR):
            nr = ft[F_NEED + NR * f + r]
            if nr != 0.0:
                open_need[r] += open_[f] * nr
                for q in range(P):
                    if und[q, f]:
                        future_need[q, r] += nr
    per_resource = np.empty((P, NR))
    for r in range(NR):
        total_need = 0.0
        makers = 0
        for q in range(P):
            total_need += future_need[q, r]
            makers += s8[prod0 + NR * q + r] != 0
        for q in range(P):
            made = 1.0 if s8[prod0 + NR * q + r] != 0 else 0.0
            rivals = makers - (1 if made else 0)
            self_use = future_need[q, r] + share * open_need[r]
            sales = ((total_need - future_need[q, r]) + (1 - share) * open_need[r]) / (1.0 + rivals)
            per_resource[q, r] = (self_use + sw * sales) * (1.0 - made)
    unlimited = np.empty(NR, np.bool_)
    for r in range(NR):
        anyone = False
        for q in range(P):
            anyone = anyone or s8[prod0 + NR * q + r] != 0
        unlimited[r] = anyone or ft[F_BANK_ERA + r] <= era
    for q in range(P):
        disc = np.float64(s8[K.DISCOUNT * B + P * i + q])
        wild = np.float64(s8[jok0 + NJ * q + WILD_JOKER])
        for f in range(NF):  # Bank / Stock Exchange: the construction costs it will save
            costly = 1.0 if ft[F_COST + f] > disc else 0.0
            tmp[f] = costly * ((1.0 if und[q, f] else 0.0) + share * open_[f])
        saved = _pairwise60(tmp)
        synsum = 0.0
        for f in range(NF):
            now = ft[F_POINTS + f] if (ft[F_SCORES + f] != 0.0 and ft[F_ERA + f] == era) else 0.0
            lacks = False
            unmade = 0.0
            for r in range(NR):
                nr = ft[F_NEED + NR * f + r]
                if nr != 0.0:
                    made = s8[prod0 + NR * q + r] != 0
                    unmade += nr * (0.0 if made else 1.0)
                    if not unlimited[r] and nr > np.float64(s8[jok0 + NJ * q + r]) + wild:
                        lacks = True
            now_p = now * (UNOBTAINABLE if lacks else 1.0)
            syn = 0.0
            dsyn = 0.0
            for k in range(np.int64(ft[F_SYN + f]), np.int64(ft[F_SYN + f + 1])):
                g = np.int64(ft[nptr + k])
                w = ft[nptr + nnz + k]
                syn += prob[q, g] * w
                if s8[own0 + g] == q and s8[dev0 + g] != 0:
                    dsyn += w
            if s8[own0 + f] == q and s8[dev0 + f] != 0:
                synsum += dsyn
            m = np.int64(ft[F_MAKES + f])
            producer = per_resource[q, m] if m >= 0 else 0.0
            construction = max(ft[F_COST + f] - disc, 0.0)
            dc = construction + unmade
            devcost[q, f] = dc
            gr = (now_p + syn) + tv * (producer + saved * ft[F_DISCOUNT + f])
            gross[q, f] = gr
            value[q, f] = JOKER_FIELD_VALUE if ft[F_JOKER + f] != 0.0 else gr - tv * dc
        if q < n:
            jsum = 0
            for k in range(NJ):
                jsum += s8[jok0 + NJ * q + k]
            money = np.float64(s16[K.MONEY * B + P * i + q])
            st = np.float64(s16[K.POINTS * B + P * i + q]) + money / TALERS_PER_POINT
            st = (st + JOKER_POINTS * jsum) + SUBSIDY_POINTS * (1 if s8[K.SUBSIDY * B + P * i + q] else 0)
            standing[q] = st + 0.5 * synsum
        else:
            standing[q] = -np.inf


@njit(cache=True)
def _leader(standing):
    """The first player of highest standing (``argmax``)."""
    best = 0
    for q in range(1, P):
        if standing[q] > standing[best]:
            best = q
    return best


@njit(cache=True)
def _act(s8, s16, t, ft, prm, seed, row, B, i, value, gross, devcost, und, standing, tmp, scratch, copy):
    """The strong heuristic's action in game ``i`` (``row``: its legal-action mask); -1 if its phase has none."""
    tv, greed, deny, keep_margin = prm[0], prm[2], prm[3], prm[4]
    p = np.int64(K._player(s8, B, i))
    ph = s8[K.PHASE * B + i]
    if p < 0 or ph > PAY:
        return -1
    _assess(s8, s16, ft, prm, B, i, value, gross, devcost, und, standing, tmp)
    n = np.int64(s8[K.NUM_PLAYERS * B + i])
    era = np.int64(s8[K.ERA * B + i])
    money_p = np.float64(s16[K.MONEY * B + P * i + p])
    subsidy_ok = row[A.SUBSIDY]
    if ph == AUCTION:
        rnd = np.int64(s8[K.ROUND * B + i])
        best, best_score = 0, -np.inf
        for f in range(NF):
            if not row[A.AUCTION + f]:
                continue
            mine = value[p, f] / tv
            others = -np.inf
            for q in range(n):
                if q != p:
                    others = max(others, min(value[q, f] / tv, np.float64(s16[K.MONEY * B + P * i + q])))
            score = max(mine, 0.0) + 0.5 * max(others, 0.0)
            noisy = score + _tie_noise(seed, rnd, f)
            if noisy > best_score:
                best, best_score = f, noisy
        return A.AUCTION + best
    lot = np.int64(s8[K.LOT * B + i])
    if ph == BID:
        high = np.float64(s16[K.HIGH_BID * B + i])
        leader = _leader(standing)
        lv = value[leader, lot] if leader != p else 0.0
        worth = greed * (value[p, lot] + deny * lv) / tv
        reserve = 0.0  # the development costs of own fields whose points expire with this era
        for f in range(NF):
            if und[p, f] and ft[F_ERA + f] == era and ft[F_SCORES + f] != 0.0:
                reserve += devcost[p, f]
        budget = money_p - devcost[p, lot] - reserve
        limit = np.floor(min(worth, budget))
        auct = np.int64(s8[K.AUCTIONEER * B + i])
        until = (auct - p) % n
        rival = 0.0
        for q in range(n):
            after = (q - p) % n
            if after > 0 and after <= until:
                rival = max(rival, min(np.floor(value[q, lot] / tv), np.float64(s16[K.MONEY * B + P * i + q])))
        amount = min(max(rival + 1, high + 1), limit)
        ok = amount > high and amount <= money_p
        action = A.BID + np.int64(min(max(amount, 1.0), np.float64(A.SELL - A.BID))) - 1
        ok = ok and row[min(max(action, A.BID), A.SELL - 1)]
        if ok:
            return action
        gain = value[p, lot] - tv * (high + 1)
        richer = np.floor(min(worth, budget + SUBSIDY_MONEY))
        if subsidy_ok and richer > high and gain > SUBSIDY_GAIN and high + 1 <= money_p + 3:
            return A.SUBSIDY
        return A.PASS
    if ph == SELL_OR_KEEP:
        high = np.float64(s16[K.HIGH_BID * B + i])
        bidder = np.int64(s8[K.HIGH_BIDDER * B + i])
        d = deny * value[bidder, lot] if bidder == _leader(standing) else 0.0
        worth = (value[p, lot] + d) / tv
        want = worth > keep_margin * high
        if want and row[A.KEEP]:
            return A.KEEP
        gain = value[p, lot] + d - tv * high
        if want and subsidy_ok and gain > SUBSIDY_GAIN and high <= money_p + 3:
            return A.SUBSIDY
        return A.SELL
    if ph == DEVELOP:
        last = era == 4
        best, best_score = 0, -np.inf
        for f in range(NF):
            expires = ft[F_ERA + f] == era and ft[F_SCORES + f] != 0.0
            gain = gross[p, f] - tv * devcost[p, f]
            tmp[f] = gain if (expires or last) else -np.inf  # for the subsidy below
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
            c16[K.MONEY + p] += SUBSIDY_MONEY
            top = -np.inf
            for j in range(K._developable(copy, c16, t, 1, 0, p, scratch)):
                top = max(top, tmp[scratch[j]])
            if top > SUBSIDY_GAIN:
                return A.SUBSIDY
        return A.DONE
    # pay: a Taler before a joker of the resource, the "?" joker last, a joker before the last Taler
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


_OFFSETS = np.array([(off, size) for _, off, _, _, size in engine._VIEWS], np.int64)  # byte offset, bytes per game


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
    s8, s16, _, _ = K._views(buf, B)
    value, gross, devcost = np.empty((P, NF)), np.empty((P, NF)), np.empty((P, NF))
    und = np.empty((P, NF), np.bool_)
    standing, tmp = np.empty(P), np.empty(NF)
    scratch = np.empty(K._MAX_LEGAL, np.int64)
    copy = np.empty(K.BYTES_PER_GAME, np.int8)
    bad = 0
    for i in range(lo, hi):
        a = _act(s8, s16, t, ft, prm, seeds[i], mask[i], B, i, value, gross, devcost, und, standing, tmp,
                 scratch, copy)  # fmt: skip
        out[i] = a
        bad += a < 0 or not mask[i, a]
    return bad


_ready = False


def _cached() -> bool:
    """Is the compiled code in numba's disk cache and newer than this file and the engine kernel it calls?"""
    try:
        newest = max(os.path.getmtime(__file__), os.path.getmtime(K.__file__))
        index = actions_range._cache._cache_file._index_path
        return os.path.exists(index) and os.path.getmtime(index) >= newest
    except (AttributeError, OSError):  # numba internals moved: assume warm rather than print a wrong message
        return True


def warm_up() -> float:
    """Compile (or load from numba's disk cache) the kernel on a tiny batch; returns the seconds taken.

    A cold compile says so once on stderr. The cache is keyed on this file only, so an engine kernel newer than
    the cache (its ``_developable`` is called from here) drops the cache first, forcing a fresh compile.
    """
    global _ready
    t0 = time.perf_counter()
    _ready = True
    if not _cached():
        try:
            if os.path.getmtime(K.__file__) > os.path.getmtime(__file__):
                actions_range._cache.flush()
        except (AttributeError, OSError):
            pass
        print(f"industry_env: compiling the strong heuristic, once: about {COMPILE_SECONDS} s (cached on disk "
              "afterwards; INDUSTRY_ENV_BACKEND=numpy skips it)", file=sys.stderr, flush=True)  # fmt: skip
    s = engine.init(1, seed=0, num_players=4)
    compiled_actions(s, np.zeros(1, np.int64), engine.legal_action_mask(s), StrongParams())
    return time.perf_counter() - t0


def compiled_actions(state: engine.State, seeds: np.ndarray, mask: np.ndarray, params: StrongParams) -> np.ndarray:
    """int64[B]: ``strong_actions`` by the kernel; ``seeds`` int64[B] and ``mask`` bool[B, 314] already checked.

    ValueError (the numpy form's message) when an action is not in its mask row.
    """
    if not _ready:
        warm_up()
    B = state.batch_size
    buf = K._backed(state)
    prm = np.array([getattr(params, k) for k in PARAMS], np.float64)
    out = np.empty(B, np.int64)
    m = mask if mask.flags.c_contiguous else np.ascontiguousarray(mask)
    sd = seeds if seeds.dtype == np.int64 and seeds.flags.c_contiguous else np.ascontiguousarray(seeds, np.int64)
    if actions_range(buf, B, K._table(state.board), board_floats(state.board), prm, sd, m, out, 0, B):
        chosen = (out >= 0) & m[np.arange(B), np.clip(out, 0, NA - 1)]
        raise ValueError(f"strong_actions: the mask does not match the state in game(s) "
                         f"{np.flatnonzero(~chosen)[:5].tolist()}")  # fmt: skip
    return out


__all__ = ["board_floats", "compiled_actions", "warm_up"]
