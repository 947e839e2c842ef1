"""The rules of 20th Century compiled by numba, one game at a time, looped over a batch (threads from
:data:`PARALLEL_FROM` games, through the one parallel entry :func:`run_parallel`).

Every compiled function here and in the modules of its rules beside it (:mod:`.kernel_nation`,
:mod:`.kernel_auction` for Fase 1 and 2, :mod:`.kernel_catastrophes`, :mod:`.kernel_maintenance`,
:mod:`.kernel_production`, :mod:`.kernel_scoring`; the reading of a batch in :mod:`.kernel_layout`) is the method of
:class:`.reference.Game` of the same name, written over arrays in the reference's order, so that each decision,
each forced move and each observation float agree with it game by game (``industry-env verify --game
twentieth_century``, ``tests/twentieth_century/test_engine_differential.py``).

How the arrays are read: ``g`` (:class:`Games`) is the batch's one State buffer seen by width (``g.s64`` the seed,
``g.f32`` the rewards, ``g.s8`` the terminal flags, ``g.s16`` every other field) with ``g.at[F_X]``, where field X
of game 0 starts, and ``g.sz[F_X]``, its elements per game: element ``e`` of field X of game ``i`` is
``rd(g, F_X, i, e)``. ``t`` is one int64 array of the components' tables (:func:`tables`, built once per data):
``t[X_NLAND]`` a number, ``t[t[X_REACH] + k]`` entry k of a flattened table; ``tf`` the float32 tables (their starts
in ``t`` too). Precomputed per tile code, rotation and placed bridge (a *combo*, :func:`combo`): the tile's local
components (:func:`.geometry.local_components`), which side each city and the building reaches, the railed sides,
and the tile's observation features. Each nation's rail network is kept as it grows (``network``: the root of each
(cell, local component) node, relabelled on each union), so a Train's connections are two reads, not a search.

Uncompiled (``NUMBA_DISABLE_JIT=1``) the same Python runs with each array wrapped as
:class:`industry_env.core.uncompiled.Scalars`, so that it reads elements as compiled code does.
"""
from __future__ import annotations

import sys

import numpy as np
from numba import prange

from ...core import runtime
from ...core.chance import key_one, splitmix64_one
from ...core.numba_cache import njit
from . import actions as A
from . import chance as CH
from . import (
    kernel_auction,
    kernel_catastrophes,
    kernel_layout,
    kernel_maintenance,
    kernel_nation,
    kernel_production,
    kernel_scoring,
)
from .components import (
    KINDS,
    MULTI_USE,
    NUM_CATASTROPHE_COLUMNS,
    SINGLE_USE,
)
from .kernel_auction import (
    after_withdrawal,
    bid,
    bid_base,
    buy_technology,
    min_land_price,
    next_bidder,
    put_up_land,
    raising_own_bid,
    start_round,
    tech_price,
    withdraw,
)
from .kernel_catastrophes import (
    bid_on_catastrophe,
    on_top,
)
from .kernel_layout import (
    ATTACH_CELL,
    ATTACH_PICK,
    ATTACH_ROTATE,
    BID,
    BRIDGE,
    CATASTROPHE,
    CITIZEN,
    DIRS,
    ERA_OF,
    F_AUCTION_SLOT,
    F_CAT_BID,
    F_CAT_COL,
    F_CAT_CURRENT,
    F_CAT_POS,
    F_CAT_STACK,
    F_COINS,
    F_COST_POS,
    F_GRID_BRIDGE,
    F_GRID_CITIZENS,
    F_GRID_CUBES,
    F_GRID_NEW,
    F_GRID_TILE,
    F_GRID_X,
    F_GRID_Y,
    F_HIGH_BID,
    F_HIGH_BIDDER,
    F_LAND_OFFER,
    F_LAND_OFFER_LEN,
    F_LAND_POS,
    F_LAND_STACK,
    F_LEADER,
    F_LEDGER,
    F_MAINT_FIRST,
    F_MAINT_POS,
    F_NETWORK,
    F_NEXT_LEADER,
    F_NUM_PLAYERS,
    F_PASSED,
    F_PENDING,
    F_PENDING_CUBES,
    F_PENDING_LEN,
    F_PHASE,
    F_POLLUTION,
    F_R2,
    F_R2_OPTION,
    F_R4,
    F_R4_OPTION,
    F_REMOVED,
    F_REMOVED_LEN,
    F_RESUME,
    F_REWARDS,
    F_ROUND,
    F_SCIENCE,
    F_SEED,
    F_SEL,
    F_SEL_LEN,
    F_TECH_OFFER,
    F_TECH_OFFER_LEN,
    F_TECH_POS,
    F_TECH_STACK,
    F_TECHS,
    F_TECHS_LEN,
    F_TERMINATED,
    F_TO_MOVE,
    F_USED,
    F_WITHDRAWN,
    F_WON,
    GARBAGE,
    K_BRIDGE,
    K_TRAIN,
    K_WORKERS,
    L_COINS_IN,
    L_CUBES_IN,
    L_SCIENCE_IN,
    LEAD,
    MAX_AB,
    MAX_COST_TRACK,
    MIN_PRICE,
    MULTI_FROM,
    NC,
    NUM_BIDS,
    NUM_CAT_BIDS,
    O_AUCTION,
    O_CATASTROPHE,
    O_GRIDS,
    O_LAND_OFFER,
    O_NUM_PLAYERS,
    O_PENDING,
    O_PHASE,
    O_PRICES,
    O_ROUND,
    O_SCORING_CARDS,
    O_SEAT_PRESENT,
    O_SEAT_VP,
    O_SEATS,
    O_SELECTION,
    O_TECH_OFFER,
    O_TO_MOVE,
    O_UNSEEN,
    OPEN,
    OVER,
    RECYCLE,
    START_SLOT,
    TECH,
    USE,
    USE_TARGET,
    USE_TARGET2,
    X_ABIL_KIND,
    X_CAT_ERA,
    X_CAT_G,
    X_CAT_ITEMS,
    X_CAT_P,
    X_CELL_ROW,
    X_CITY_PROD,
    X_COLUMN_USED,
    X_LAND_ERA,
    X_LAND_ITEMS,
    X_LAND_ROW,
    X_NA,
    X_NABIL,
    X_NBRIDGES,
    X_NCAT,
    X_NCITIES,
    X_NLAND,
    X_NTECH,
    X_OBS,
    X_POLL_LOW,
    X_POLL_START,
    X_TECH_COST,
    X_TECH_COST_LEN,
    X_TECH_ERA,
    X_TECH_ITEMS,
    X_TECH_ROW,
    X_TRACK_LEN,
    P,
    add,
    rd,
    tb,
    wr,
)
from .kernel_maintenance import (
    ability_kind,
    attach_tile,
    begin_maintenance,
    bridge_cell,
    garbage_target,
    maint_seat,
    next_maintenance_step,
    place_bridge,
    remove_cube,
    set_sel,
    train_from,
    train_sources,
    usable,
    use_ability,
    use_target,
    use_target2,
)
from .kernel_nation import (
    cell_value,
    citizen_at,
    clean_land_tiles,
    combo_at,
    count_cities,
    count_land,
    is_land_cell,
    join_tile,
    placement_named,
    production,
    rebuild_network,
    slots,
    total_cubes,
)
from .kernel_production import (
    begin_recycling,
    produce,
    recycling_targets,
)
from .kernel_scoring import (
    bonus_scoring,
    vp_total,
)
from .observation import CELL_FEATURES, MAX_TRACK, TECH_FEATURES, TILE_FEATURES
from .rules import (
    CATASTROPHE_BID_MAX,
    ROUNDS,
    START_COINS,
    START_CUBES,
    START_SCIENCE,
)
from .state import BATCH_FIELDS, PHASES

_U64 = np.uint64
assert PHASES[OVER] == "over" and PHASES[USE_TARGET2] == "use_target2"
assert KINDS[MULTI_FROM:] == MULTI_USE and len(SINGLE_USE) == 4
# Batches at least this large run on numba's threads; a decision here costs about what one of Age of Industry's
# does.
PARALLEL_FROM_BY_LAYER = {"tbb": 64, "omp": 64, "workqueue": 512}
PARALLEL_FROM = runtime.parallel_from(PARALLEL_FROM_BY_LAYER)
assert BATCH_FIELDS[F_NETWORK][0] == "network" and BATCH_FIELDS[F_GRID_NEW][0] == "grid_new"


# ============================================================================================== set-up
@njit(cache=True)
def _draw(seed, purpose, bound):
    return np.int64(key_one(seed, purpose, 0) % _U64(bound))


@njit(cache=True)
def _shuffle_into(g, f, i, at, items, n, seed, purpose):
    """``chance.shuffle`` of ``items[0:n]`` into field ``f`` of game i from element ``at``."""
    for k in range(n):
        wr(g, f, i, at + k, items[k])
    for k in range(n - 1, 0, -1):
        j = np.int64(key_one(seed, purpose, k) % _U64(k + 1))
        x = rd(g, f, i, at + k)
        wr(g, f, i, at + k, rd(g, f, i, at + j))
        wr(g, f, i, at + j, x)


@njit(cache=True)
def new_game(g, t, i, seed, n, r2opt, r4opt):
    """Game.__init__ and _set_up: everything at its start, then round I and the forced moves."""
    for f in range(F_NUM_PLAYERS, F_NETWORK + 1):
        for e in range(g.sz[f]):
            wr(g, f, i, e, 0)
    g.s64[g.at[F_SEED] + i] = seed
    for q in range(P):
        g.f32[g.at[F_REWARDS] + i * P + q] = 0.0
    g.s8[g.at[F_TERMINATED] + i] = 0
    wr(g, F_NUM_PLAYERS, i, 0, n)
    wr(g, F_R2_OPTION, i, 0, r2opt)
    wr(g, F_R4_OPTION, i, 0, r4opt)
    for which in range(2):
        opt = r2opt if which == 0 else r4opt
        card = -1
        if opt == 0:  # random
            card = _draw(seed, CH.R2_CARD if which == 0 else CH.R4_CARD, 3)
        elif opt <= 3:
            card = opt - 1
        wr(g, F_R2 if which == 0 else F_R4, i, 0, card)
    NL, NT = t[X_NLAND], t[X_NTECH]
    items = np.zeros(max(NL, NT, t[X_NCAT]), np.int64)
    at = 0
    for e in range(3):
        m = tb(t, X_LAND_ERA, e)
        for k in range(m):
            items[k] = tb(t, X_LAND_ITEMS, at + k)
        _shuffle_into(g, F_LAND_STACK, i, e * NL, items, m, seed, CH.LAND + e)
        at += m
    at = 0
    for e in range(3):
        m = tb(t, X_TECH_ERA, e)
        for k in range(m):
            items[k] = tb(t, X_TECH_ITEMS, at + k)
        _shuffle_into(g, F_TECH_STACK, i, e * NT, items, m, seed, CH.TECH + e)
        at += m
    # 'due etichettate I-II, due etichettate III-IV, e una etichettata V'
    at, top = 0, 0
    cats = np.zeros(t[X_NCAT], np.int64)
    for e in range(3):
        m = tb(t, X_CAT_ERA, e)
        for k in range(m):
            cats[k] = tb(t, X_CAT_ITEMS, at + k)
        for k in range(m - 1, 0, -1):
            j = np.int64(key_one(seed, CH.CATASTROPHE + e, k) % _U64(k + 1))
            x = cats[k]
            cats[k] = cats[j]
            cats[j] = x
        take = 2 if e < 2 else 1
        for k in range(min(take, m)):
            wr(g, F_CAT_STACK, i, top, cats[k])
            top += 1
        at += m
    wr(g, F_CAT_CURRENT, i, 0, -1)
    wr(g, F_NEXT_LEADER, i, 0, _draw(seed, CH.FIRST_PLAYER, n))
    wr(g, F_LEADER, i, 0, rd(g, F_NEXT_LEADER, i, 0))
    wr(g, F_AUCTION_SLOT, i, 0, -1)
    wr(g, F_HIGH_BIDDER, i, 0, -1)
    wr(g, F_RESUME, i, 0, -1)
    wr(g, F_MAINT_FIRST, i, 0, -1)
    for p in range(P):
        wr(g, F_CAT_COL, i, p, -1)
        for c in range(NC):
            wr(g, F_GRID_TILE, i, p * NC + c, -1)
            wr(g, F_GRID_BRIDGE, i, p * NC + c, -1)
    for p in range(P):
        rebuild_network(g, t, i, p)
    for p in range(n):
        wr(g, F_COINS, i, p, START_COINS)
        wr(g, F_SCIENCE, i, p, START_SCIENCE)
        wr(g, F_POLLUTION, i, p, t[X_POLL_START])
        wr(g, F_LEDGER, i, p * 6 + L_COINS_IN, START_COINS)
        wr(g, F_LEDGER, i, p * 6 + L_SCIENCE_IN, START_SCIENCE)
        wr(g, F_LEDGER, i, p * 6 + L_CUBES_IN, START_CUBES)
        wr(g, F_GRID_TILE, i, p * NC + START_SLOT, 0)
        wr(g, F_GRID_CUBES, i, p * NC + START_SLOT, START_CUBES)
        occ = 0
        for j in range(tb(t, X_NCITIES, 0)):
            if tb(t, X_CITY_PROD, j * 3) or tb(t, X_CITY_PROD, j * 3 + 1):
                occ |= 1 << j
        wr(g, F_GRID_CITIZENS, i, p * NC + START_SLOT, occ)
        join_tile(g, t, i, p, START_SLOT)
    start_round(g, t, i, 1)
    advance(g, t, i, np.zeros(t[X_NA], np.bool_))


@njit(cache=True)
def end_maintenance(g, t, i):
    k = rd(g, F_MAINT_POS, i, 0) + 1
    wr(g, F_MAINT_POS, i, 0, k)
    if k < rd(g, F_NUM_PLAYERS, i, 0):
        begin_maintenance(g, t, i, maint_seat(g, i, k))
    else:
        produce(g, t, i)


@njit(cache=True)
def end_recycling(g, t, i):
    k = rd(g, F_MAINT_POS, i, 0) + 1
    wr(g, F_MAINT_POS, i, 0, k)
    if k < rd(g, F_NUM_PLAYERS, i, 0):
        begin_recycling(g, i, maint_seat(g, i, k))
        return
    wr(g, F_REMOVED_LEN, i, 0, 0)
    r = rd(g, F_ROUND, i, 0)
    if r == 2 or r == 4 or r == 6:
        bonus_scoring(g, t, i)
    if r == ROUNDS:
        wr(g, F_PHASE, i, 0, OVER)
        wr(g, F_TO_MOVE, i, 0, -1)
    else:
        start_round(g, t, i, r + 1)


# ============================================================================================== decisions
@njit(cache=True)
def mask_row(g, t, i, row):
    """Game._legal as a mask row (zeroed first); returns how many actions are legal."""
    for a in range(row.shape[0]):
        row[a] = False
    if g.s8[g.at[F_TERMINATED] + i]:
        return 0
    ph = rd(g, F_PHASE, i, 0)
    p = rd(g, F_TO_MOVE, i, 0)
    NL = t[X_NLAND]
    if ph == OVER:
        return 0
    if ph == LEAD:
        if rd(g, F_COINS, i, p) >= min_land_price(g, i):
            for s in range(rd(g, F_LAND_OFFER_LEN, i, 0)):
                if rd(g, F_LAND_OFFER, i, s) >= 0:
                    row[A.LAND + s] = True
        row[A.WITHDRAW] = True
    elif ph == OPEN or ph == BID:
        base = bid_base(g, i)
        for k in range(NUM_BIDS):
            if base + k <= rd(g, F_COINS, i, p):
                row[A.BID + k] = True
        if ph == BID and not raising_own_bid(g, i):
            row[A.PASS] = True
            row[A.WITHDRAW] = True
    elif ph == TECH:
        if tech_price(g, t, i) <= rd(g, F_SCIENCE, i, p):
            for s in range(rd(g, F_TECH_OFFER_LEN, i, 0)):
                if rd(g, F_TECH_OFFER, i, s) >= 0:
                    row[A.TECH + s] = True
        row[A.DONE] = True
    elif ph == CATASTROPHE:
        n = rd(g, F_NUM_PLAYERS, i, 0)
        top = min(CATASTROPHE_BID_MAX, rd(g, F_SCIENCE, i, p))
        for c in range(NUM_CATASTROPHE_COLUMNS):
            if not tb(t, X_COLUMN_USED, n * 5 + c):
                continue
            low = 0
            for q in range(n):
                if q != p and rd(g, F_CAT_COL, i, q) == c:
                    low = max(low, rd(g, F_CAT_BID, i, q) + 1)
            for b in range(low, top + 1):
                row[A.CATASTROPHE + c * NUM_CAT_BIDS + b] = True
    elif ph == ATTACH_PICK:
        for k in range(rd(g, F_PENDING_LEN, i, p)):
            code = rd(g, F_PENDING, i, p * 27 + k * 3)
            slot = rd(g, F_PENDING, i, p * 27 + k * 3 + 1)
            row[(A.LAND if code < NL else A.TECH) + slot] = True
    elif ph == ATTACH_CELL:
        for c in range(slots(g, i, p)):
            for d in range(8):
                if placement_named(g, i, p, c, d):
                    row[A.PLACE + c * 8 + d] = True
    elif ph == ATTACH_ROTATE:
        for r in range(4):
            row[A.ROTATE + r] = True
    elif ph == CITIZEN:
        code, cell = rd(g, F_SEL, i, 0), rd(g, F_SEL, i, 1)
        for j in range(tb(t, X_NCITIES, code)):
            row[A.CITY + cell * 3 + j] = True
    elif ph == GARBAGE:
        for c in range(NC):
            if garbage_target(g, t, i, p, c):
                row[A.TILE + c] = True
    elif ph == USE:
        for h in range(rd(g, F_TECHS_LEN, i, p)):
            for k in range(tb(t, X_NABIL, rd(g, F_TECHS, i, p * 5 + h))):
                if usable(g, t, i, p, h, k, row):
                    row[A.USE + h * MAX_AB + k] = True
        row[A.DONE] = True
    elif ph == USE_TARGET:
        kind = ability_kind(g, t, i, p, rd(g, F_SEL, i, 0), rd(g, F_SEL, i, 1))
        for c in range(NC):
            if kind == K_WORKERS:
                if is_land_cell(g, t, i, p, c):
                    for j in range(tb(t, X_NCITIES, cell_value(g, F_GRID_TILE, i, p, c))):
                        if not citizen_at(g, i, p, c, j):
                            row[A.CITY + c * 3 + j] = True
            elif kind == K_BRIDGE:
                if bridge_cell(g, t, i, p, c):
                    row[A.TILE + c] = True
            elif kind != K_TRAIN:
                if is_land_cell(g, t, i, p, c) and cell_value(g, F_GRID_CUBES, i, p, c):
                    row[A.TILE + c] = True
        if kind == K_TRAIN:
            train_sources(g, t, i, p, row, True)
    elif ph == USE_TARGET2:
        first = rd(g, F_SEL, i, 2)
        if ability_kind(g, t, i, p, rd(g, F_SEL, i, 0), rd(g, F_SEL, i, 1)) == K_TRAIN:
            train_from(g, t, i, p, first // 3, first % 3, row, True)
        else:
            for c in range(NC):
                if is_land_cell(g, t, i, p, c) and c != first:
                    row[A.TILE + c] = True
    elif ph == BRIDGE:
        for b in range(tb(t, X_NBRIDGES, cell_value(g, F_GRID_TILE, i, p, rd(g, F_SEL, i, 2)))):
            row[A.BRIDGE + b] = True
    elif ph == RECYCLE:
        recycling_targets(g, t, i, p, row)
        row[A.DONE] = True
    count = 0
    for a in range(row.shape[0]):
        count += row[a]
    return count


@njit(cache=True)
def do(g, t, i, action):
    """Game._do: play a legal action for the player to move."""
    p, ph = rd(g, F_TO_MOVE, i, 0), rd(g, F_PHASE, i, 0)
    NL = t[X_NLAND]
    if ph == LEAD:
        if action < A.BID:
            put_up_land(g, t, i, p, action - A.LAND)
        else:
            withdraw(g, i, p)
    elif ph == OPEN or ph == BID:
        if action < A.PASS:
            bid(g, t, i, p, bid_base(g, i) + action - A.BID, action - A.BID == NUM_BIDS - 1)
        elif action == A.PASS:
            wr(g, F_PASSED, i, p, 1)
            next_bidder(g, t, i, p)
        else:
            withdraw(g, i, p)
    elif ph == TECH:
        if action == A.DONE:
            after_withdrawal(g, t, i, p)
        else:
            buy_technology(g, t, i, p, action - A.TECH)
    elif ph == CATASTROPHE:
        k = action - A.CATASTROPHE
        bid_on_catastrophe(g, t, i, p, k // NUM_CAT_BIDS, k % NUM_CAT_BIDS)
    elif ph == ATTACH_PICK:
        land = action < A.BID
        slot = action - (A.LAND if land else A.TECH)
        for k in range(rd(g, F_PENDING_LEN, i, p)):
            code = rd(g, F_PENDING, i, p * 27 + k * 3)
            if rd(g, F_PENDING, i, p * 27 + k * 3 + 1) == slot and (code < NL) == land:
                set_sel(g, i, code, 0, 0, 1)
                break
        wr(g, F_PHASE, i, 0, ATTACH_CELL)
    elif ph == ATTACH_CELL:
        set_sel(g, i, rd(g, F_SEL, i, 0), action - A.PLACE, 0, 2)
        wr(g, F_PHASE, i, 0, ATTACH_ROTATE)
    elif ph == ATTACH_ROTATE:
        placement = rd(g, F_SEL, i, 1)
        set_sel(g, i, rd(g, F_SEL, i, 0), 0, 0, 1)
        attach_tile(g, t, i, p, placement, action - A.ROTATE)
    elif ph == CITIZEN:
        k = action - A.CITY
        cell = k // 3
        wr(g, F_GRID_CITIZENS, i, p * NC + cell, cell_value(g, F_GRID_CITIZENS, i, p, cell) | (1 << (k % 3)))
        next_maintenance_step(g, i, p)
    elif ph == GARBAGE:
        add(g, F_GRID_CUBES, i, p * NC + action - A.TILE, 1)
        add(g, F_PENDING_CUBES, i, p, -1)
        next_maintenance_step(g, i, p)
    elif ph == USE:
        if action == A.DONE:
            end_maintenance(g, t, i)
        else:
            k = action - A.USE
            use_ability(g, t, i, p, k // MAX_AB, k % MAX_AB)
    elif ph == USE_TARGET:
        use_target(g, t, i, p, action - (A.CITY if action >= A.CITY else A.TILE))
    elif ph == USE_TARGET2:
        use_target2(g, t, i, p, action - (A.CITY if action >= A.CITY else A.TILE))
    elif ph == BRIDGE:
        place_bridge(g, t, i, p, action - A.BRIDGE)
    elif ph == RECYCLE:
        if action == A.DONE:
            end_recycling(g, t, i)
        else:
            cell = action - A.TILE
            remove_cube(g, i, p, cell)
            k = rd(g, F_REMOVED_LEN, i, 0)
            wr(g, F_REMOVED, i, k, cell)
            wr(g, F_REMOVED_LEN, i, 0, k + 1)


@njit(cache=True)
def advance(g, t, i, row):
    """Forced moves play themselves (ruling 20); ``row`` is left holding the legal mask of the decision reached
    (all False once over)."""
    while rd(g, F_PHASE, i, 0) != OVER:
        if mask_row(g, t, i, row) != 1:
            return
        a = 0
        while not row[a]:
            a += 1
        do(g, t, i, a)
    for a in range(row.shape[0]):
        row[a] = False


# ============================================================================================== scores
@njit(cache=True)
def ranking_key(g, i, p):
    """Higher wins: points, then fewer cubes, as one number."""
    return vp_total(g, i, p) * 100000 - total_cubes(g, i, p)


@njit(cache=True)
def end_rewards(g, i):
    """Game.returns() into the rewards: +1 the winners, -1 the others, 0 all round if all tie."""
    n = rd(g, F_NUM_PLAYERS, i, 0)
    best = ranking_key(g, i, 0)
    for p in range(1, n):
        best = max(best, ranking_key(g, i, p))
    winners = 0
    for p in range(n):
        winners += ranking_key(g, i, p) == best
    for p in range(n):
        v = 0.0
        if winners < n:
            v = 1.0 if ranking_key(g, i, p) == best else -1.0
        g.f32[g.at[F_REWARDS] + i * P + p] = v


# ============================================================================================== observation
@njit(cache=True)
def observe_row(g, t, tf, i, seat, o):
    """observation.observe of game i seen from ``seat`` into ``o`` (zeros)."""
    n = rd(g, F_NUM_PLAYERS, i, 0)
    NL, NT = t[X_NLAND], t[X_NTECH]
    ob = t[X_OBS]
    r = rd(g, F_ROUND, i, 0)
    ph = rd(g, F_PHASE, i, 0)
    o[t[ob + O_NUM_PLAYERS] + n - 3] = 1
    o[t[ob + O_ROUND] + r - 1] = 1
    o[t[ob + O_PHASE] + ph] = 1
    to_move = rd(g, F_TO_MOVE, i, 0)
    if to_move >= 0 and ph != OVER:
        o[t[ob + O_TO_MOVE] + (to_move - seat) % n] = 1
    for q in range(n):
        o[t[ob + O_SEAT_PRESENT] + q] = 1
    r2, r4 = rd(g, F_R2, i, 0), rd(g, F_R4, i, 0)
    o[t[ob + O_SCORING_CARDS] + (r2 if r2 >= 0 else 3)] = 1
    o[t[ob + O_SCORING_CARDS] + 4 + (r4 if r4 >= 0 else 3)] = 1
    at = t[ob + O_PRICES]
    if r <= 5:
        era = ERA_OF[r]
        o[at] = MIN_PRICE[r] / 4
        for k in range(tb(t, X_TECH_COST_LEN, era)):
            o[at + 1 + k] = tb(t, X_TECH_COST, era * MAX_COST_TRACK + k) / 6
        o[at + 1 + MAX_TRACK + rd(g, F_COST_POS, i, 0)] = 1
    at = t[ob + O_LAND_OFFER]
    for s in range(rd(g, F_LAND_OFFER_LEN, i, 0)):
        x = rd(g, F_LAND_OFFER, i, s)
        if x >= 0:
            for k in range(TILE_FEATURES):
                o[at + s * TILE_FEATURES + k] = tf[t[X_LAND_ROW] + x * TILE_FEATURES + k]
    at = t[ob + O_TECH_OFFER]
    for s in range(rd(g, F_TECH_OFFER_LEN, i, 0)):
        x = rd(g, F_TECH_OFFER, i, s)
        if x >= 0:
            for k in range(TECH_FEATURES):
                o[at + s * TECH_FEATURES + k] = tf[t[X_TECH_ROW] + x * TECH_FEATURES + k]
    at = t[ob + O_AUCTION]
    slot = rd(g, F_AUCTION_SLOT, i, 0)
    if slot >= 0:
        o[at + slot] = 1
    base = at + 8
    o[base] = rd(g, F_HIGH_BID, i, 0) / 10
    most = 0
    for q in range(n):
        most = max(most, rd(g, F_WITHDRAWN, i, q))
    for q in range(n):
        rq = (q - seat) % n
        w = rd(g, F_WITHDRAWN, i, q)
        o[base + 1 + rq] = q == rd(g, F_HIGH_BIDDER, i, 0)
        o[base + 1 + P + rq] = q == rd(g, F_LEADER, i, 0)
        o[base + 1 + 2 * P + rq] = w > 0
        o[base + 1 + 3 * P + rq] = w / 5
        o[base + 1 + 4 * P + rq] = rd(g, F_PASSED, i, q)
        o[base + 1 + 5 * P + rq] = rd(g, F_WON, i, q) / 5
        o[base + 1 + 6 * P + rq] = w == most and most > 0
    at = t[ob + O_CATASTROPHE]
    card = rd(g, F_CAT_CURRENT, i, 0)
    if card >= 0 and r <= 5:
        for col in range(5):
            o[at + 3 * col] = tb(t, X_CAT_G, card * 5 + col) / 5
            o[at + 3 * col + 1] = tb(t, X_CAT_P, card * 5 + col) / 3
            o[at + 3 * col + 2] = tb(t, X_COLUMN_USED, n * 5 + col)
    for q in range(n):
        col = rd(g, F_CAT_COL, i, q)
        if col >= 0:
            rq = (q - seat) % n
            o[at + 15 + 5 * rq + col] = 1
            o[at + 15 + 5 * P + rq] = rd(g, F_CAT_BID, i, q) / 25
            o[at + 15 + 6 * P + rq] = on_top(g, i, q)
    for k in range(rd(g, F_CAT_POS, i, 0)):
        o[at + 15 + 7 * P + rd(g, F_CAT_STACK, i, k)] = 1
    track = t[X_TRACK_LEN]
    feats = 2 + 3 + track + 8 + NT + 5 * MAX_AB
    prod = np.zeros(3, np.int64)
    for q in range(n):
        rq = (q - seat) % n
        o[t[ob + O_SEAT_VP] + rq] = vp_total(g, i, q) / 50
        f = t[ob + O_SEATS] + rq * feats
        production(g, t, i, q, prod)
        o[f] = rd(g, F_COINS, i, q) / 10
        o[f + 1] = rd(g, F_SCIENCE, i, q) / 10
        o[f + 2] = prod[0] / 10
        o[f + 3] = prod[1] / 10
        o[f + 4] = prod[2] / 10
        o[f + 5 + rd(g, F_POLLUTION, i, q) - t[X_POLL_LOW]] = 1
        k = f + 5 + track
        workers, bridges = 0, 0
        for h in range(rd(g, F_TECHS_LEN, i, q)):
            x = rd(g, F_TECHS, i, q * 5 + h)
            for a in range(tb(t, X_NABIL, x)):
                if not rd(g, F_USED, i, q * 10 + h * 2 + a):
                    kind = tb(t, X_ABIL_KIND, x * MAX_AB + a)
                    workers += kind == K_WORKERS
                    bridges += kind == K_BRIDGE
        o[k] = rd(g, F_PENDING_CUBES, i, q) / 5
        o[k + 1] = total_cubes(g, i, q) / 10
        o[k + 2] = count_land(g, t, i, q) / 10
        o[k + 3] = clean_land_tiles(g, t, i, q) / 10
        o[k + 4] = count_cities(g, t, i, q, 0, False) / 10
        o[k + 5] = count_cities(g, t, i, q, 1, True) / 5
        o[k + 6] = workers
        o[k + 7] = bridges
        k += 8
        for h in range(rd(g, F_TECHS_LEN, i, q)):
            o[k + rd(g, F_TECHS, i, q * 5 + h)] = 1
        k += NT
        for h in range(rd(g, F_TECHS_LEN, i, q)):
            for a in range(tb(t, X_NABIL, rd(g, F_TECHS, i, q * 5 + h))):
                o[k + h * MAX_AB + a] = rd(g, F_USED, i, q * 10 + h * 2 + a)
        for e in range(rd(g, F_PENDING_LEN, i, q)):
            code = rd(g, F_PENDING, i, q * 27 + e * 3)
            slot = rd(g, F_PENDING, i, q * 27 + e * 3 + 1)
            o[t[ob + O_PENDING] + rq * 14 + (slot if code < NL else 8 + slot)] = 1
            if code < NL:  # a tile bought and not yet attached keeps its offer row, flagged as no longer on sale
                at = t[ob + O_LAND_OFFER] + slot * TILE_FEATURES
                for k in range(1, TILE_FEATURES):
                    o[at + k] = tf[t[X_LAND_ROW] + code * TILE_FEATURES + k]
            else:
                at = t[ob + O_TECH_OFFER] + slot * TECH_FEATURES
                for k in range(1, TECH_FEATURES):
                    o[at + k] = tf[t[X_TECH_ROW] + (code - NL) * TECH_FEATURES + k]
        grid = t[ob + O_GRIDS] + rq * NC * CELL_FEATURES
        for c in range(NC):
            code = cell_value(g, F_GRID_TILE, i, q, c)
            if code < 0:
                continue
            cf = grid + c * CELL_FEATURES
            src = t[X_CELL_ROW] + combo_at(g, i, q, c) * CELL_FEATURES
            for e in range(CELL_FEATURES):
                o[cf + e] = tf[src + e]
            o[cf + 4] = cell_value(g, F_GRID_NEW, i, q, c)
            o[cf + 5] = cell_value(g, F_GRID_CUBES, i, q, c) / 4
            if code < NL:
                for j in range(tb(t, X_NCITIES, code)):
                    o[cf + 19 + 6 * j] = citizen_at(g, i, q, c, j)
            o[cf + 54] = cell_value(g, F_GRID_X, i, q, c) / 8
            o[cf + 55] = cell_value(g, F_GRID_Y, i, q, c) / 8
    at = t[ob + O_SELECTION]
    cell, city = -1, -1
    sel_len = rd(g, F_SEL_LEN, i, 0)
    if ph == CITIZEN:
        cell = rd(g, F_SEL, i, 1)
    elif ph == BRIDGE or (ph == USE_TARGET2 and sel_len == 3):
        first = rd(g, F_SEL, i, 2)
        if ability_kind(g, t, i, to_move, rd(g, F_SEL, i, 0), rd(g, F_SEL, i, 1)) == K_TRAIN:
            cell, city = first // 3, first % 3
        else:
            cell = first
    if ph == ATTACH_ROTATE:  # the cell the tile goes on: beside slot sel // 8 toward sel % 8
        placement = rd(g, F_SEL, i, 1)
        anchor = placement // 8
        o[at] = 1
        o[at + 1] = (cell_value(g, F_GRID_X, i, to_move, anchor) + DIRS[placement % 8, 0]) / 8
        o[at + 2] = (cell_value(g, F_GRID_Y, i, to_move, anchor) + DIRS[placement % 8, 1]) / 8
    elif cell >= 0:
        o[at] = 1
        o[at + 1] = cell_value(g, F_GRID_X, i, to_move, cell) / 8
        o[at + 2] = cell_value(g, F_GRID_Y, i, to_move, cell) / 8
    if city >= 0:
        o[at + 3 + city] = 1
    if (ph == ATTACH_CELL or ph == ATTACH_ROTATE or ph == CITIZEN) and sel_len > 0:
        code = rd(g, F_SEL, i, 0)
        for e in range(rd(g, F_PENDING_LEN, i, to_move)):
            if rd(g, F_PENDING, i, to_move * 27 + e * 3) == code:
                slot = rd(g, F_PENDING, i, to_move * 27 + e * 3 + 1)
                o[at + 6 + (slot if code < NL else 8 + slot)] = 1
    if ph == USE_TARGET or ph == USE_TARGET2 or ph == BRIDGE:
        o[at + 6 + 8 + 6 + rd(g, F_SEL, i, 0) * MAX_AB + rd(g, F_SEL, i, 1)] = 1
    o[at + 3 + 3 + 14 + 5 * MAX_AB] = rd(g, F_REMOVED_LEN, i, 0) / 5
    at = t[ob + O_UNSEEN]
    for e in range(3):
        for k in range(rd(g, F_LAND_POS, i, e), tb(t, X_LAND_ERA, e)):
            o[at + rd(g, F_LAND_STACK, i, e * NL + k)] = 1
        for k in range(rd(g, F_TECH_POS, i, e), tb(t, X_TECH_ERA, e)):
            o[at + NL + rd(g, F_TECH_STACK, i, e * NT + k)] = 1


# ============================================================================================== batch entries
@njit(cache=True)
def _check_range(g, t, actions, mask, use_mask, legal, lo, hi):
    """legal[i] for games ``lo:hi``: is ``actions[i]`` legal (True for finished games)? Returns the illegal count."""
    row = np.zeros(t[X_NA], np.bool_)
    bad = 0
    for i in range(lo, hi):
        a = actions[i]
        if g.s8[g.at[F_TERMINATED] + i]:
            ok = True
        elif a < 0 or a >= t[X_NA]:
            ok = False
        elif use_mask:
            ok = mask[i, a]
        else:
            mask_row(g, t, i, row)
            ok = row[a]
        legal[i] = ok
        if not ok:
            bad += 1
    return bad


@njit(cache=True)
def _step_range(g, t, actions, legal, penalty, next_mask, write_next, lo, hi):
    """Step games ``lo:hi``: rewards zeroed, illegal live games penalized, legal live games played; then
    (``write_next``) each game's new mask into ``next_mask`` (a played game's is the one its forced moves left)."""
    row = np.zeros(t[X_NA], np.bool_)
    for i in range(lo, hi):
        for q in range(P):
            g.f32[g.at[F_REWARDS] + i * P + q] = 0.0
        if g.s8[g.at[F_TERMINATED] + i]:
            pass
        elif legal[i]:
            do(g, t, i, actions[i])
            if write_next:
                advance(g, t, i, next_mask[i])
            else:
                advance(g, t, i, row)
            if rd(g, F_PHASE, i, 0) == OVER:
                g.s8[g.at[F_TERMINATED] + i] = 1
                end_rewards(g, i)
            continue
        else:
            # Pgx: "Taking illegal action leads to immediate game terminal with negative reward".
            fault = rd(g, F_TO_MOVE, i, 0)
            for q in range(rd(g, F_NUM_PLAYERS, i, 0)):
                g.f32[g.at[F_REWARDS] + i * P + q] = penalty if q == fault else -penalty
            g.s8[g.at[F_TERMINATED] + i] = 1
        if write_next:
            mask_row(g, t, i, next_mask[i])


@njit(cache=True)
def check_range(g, t, actions, mask, use_mask, legal, lo, hi):
    """Entry: :func:`_check_range` on the calling thread."""
    return _check_range(g, t, actions, mask, use_mask, legal, lo, hi)


@njit(cache=True)
def step_range(g, t, actions, legal, penalty, next_mask, write_next, lo, hi):
    """Entry: :func:`_step_range` on the calling thread."""
    _step_range(g, t, actions, legal, penalty, next_mask, write_next, lo, hi)


@njit(cache=True)
def mask_range(g, t, out, lo, hi):
    """Entry: the legal masks of games ``lo:hi`` into ``out``."""
    for i in range(lo, hi):
        mask_row(g, t, i, out[i])


OP_CHECK, OP_STEP, OP_MASK = 0, 1, 2


@njit(cache=True, parallel=True)
def run_parallel(op, g, t, actions, mask, use_mask, legal, penalty, next_mask, write_next, nc):
    """The one parallel entry: ``op`` (check, step or mask) over ``nc`` chunks of the batch on numba's threads.
    Returns the illegal count of a check."""
    B = legal.shape[0]
    bad = np.zeros(nc, np.int64)
    for c in prange(nc):
        lo, hi = np.int64(c * B // nc), np.int64((c + 1) * B // nc)
        if op == OP_CHECK:
            bad[c] = _check_range(g, t, actions, mask, use_mask, legal, lo, hi)
        elif op == OP_STEP:
            _step_range(g, t, actions, legal, penalty, next_mask, write_next, lo, hi)
        else:
            for i in range(lo, hi):
                mask_row(g, t, i, next_mask[i])
    return bad.sum()


@njit(cache=True)
def new_games(g, t, rows, seeds, n, r2opt, r4opt, next_mask, write_next):
    """New games in ``rows`` (seed, players and options per row); their masks into ``next_mask`` if asked."""
    for j in range(rows.shape[0]):
        i = rows[j]
        new_game(g, t, i, seeds[j], n[j], r2opt[j], r4opt[j])
        if write_next:
            mask_row(g, t, i, next_mask[i])


@njit(cache=True)
def rebuild_rows(g, t, rows):
    """Every nation's rail network of games ``rows`` from their grids (after a State is written from outside)."""
    for j in range(rows.shape[0]):
        for p in range(P):
            rebuild_network(g, t, rows[j], p)


@njit(cache=True)
def observe_rows(g, t, tf, seats, out):
    """Each game seen from ``seats[i]`` into ``out`` (float32[B, NOBS], zeros)."""
    for i in range(out.shape[0]):
        observe_row(g, t, tf, i, seats[i], out[i])


@njit(cache=True)
def scores_rows(g, out, cubes):
    """``Game.scores()`` and each seat's cubes (the tie-break) of every game (0 in absent seats)."""
    for i in range(out.shape[0]):
        for q in range(rd(g, F_NUM_PLAYERS, i, 0)):
            out[i, q] = vp_total(g, i, q)
            cubes[i, q] = total_cubes(g, i, q)


@njit(cache=True)
def sample_rows(mask, u, out):
    """For random play: the ``floor(u * count)``-th legal action of each row (0 for an empty row)."""
    for i in range(mask.shape[0]):
        n = 0
        for a in range(mask.shape[1]):
            n += mask[i, a]
        out[i] = 0
        if n == 0:
            continue
        pick = min(np.int64(u[i] * n), n - 1)
        for a in range(mask.shape[1]):
            if mask[i, a]:
                if pick == 0:
                    out[i] = a
                    break
                pick -= 1


def threads(batch_size: int) -> int:
    """Chunks for a batch run on numba's threads (0: run on this thread)."""
    return runtime.chunks(batch_size, PARALLEL_FROM)


# ---------------------------------------------------------------------------------------------- the disk cache
CACHE_NAME = "tc_kernel"  # the stamp of this kernel's sources in numba's cache folder
COLD_COMPILE_SECONDS = 75  # about what the first compile takes on the quiet 2-core machine (docs/twentieth-century)


#: the modules of the compiled rules beside this one (each mirrors the reference's module of the same rules)
RULE_MODULES = (kernel_layout, kernel_nation, kernel_maintenance, kernel_auction, kernel_catastrophes,
                kernel_production, kernel_scoring)  # fmt: skip


def sources() -> list[str]:
    """The files whose numbers the compiled code holds: this one and the rules' modules beside it, the rules, the
    state's fields and phases, the chance purposes, the action encoding, the observation's sizes and the
    components' constants."""
    names = ("rules", "state", "chance", "actions", "observation", "components", "geometry")
    return [__file__, *(m.__file__ for m in RULE_MODULES), sys.modules[key_one.__module__].__file__] + [
        sys.modules[f"{__package__}.{x}"].__file__ for x in names]  # fmt: skip


def dispatchers() -> list:
    """The compiled functions of this module and of the rules' modules, and core.chance's that they call."""
    own = [f for m in (sys.modules[__name__], *RULE_MODULES) for f in vars(m).values()
           if hasattr(f, "_cache") and getattr(f, "__module__", None) == m.__name__]  # fmt: skip
    return own + [splitmix64_one, key_one]


def entries() -> list:
    """The compiled functions called from Python."""
    return [check_range, step_range, mask_range, run_parallel, new_games, rebuild_rows, observe_rows, scores_rows,
            sample_rows]  # fmt: skip
