"""The rules of 20th Century compiled by numba, one game at a time, looped over a batch (threads from
:data:`PARALLEL_FROM` games, through the one parallel entry :func:`run_parallel`).

Every function below is the method of :class:`.reference.Game` of the same name, written over arrays in the
reference's order, so that each decision, each forced move and each observation float agree with it game by game
(``industry-env verify --game twentieth_century``, ``tests/twentieth_century/test_engine_differential.py``).

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
from collections import namedtuple

import numpy as np
from numba import prange

from ...core import runtime, uncompiled
from ...core.chance import key_one, splitmix64_one
from ...core.numba_cache import njit
from ...core.uncompiled import scalars
from . import actions as A
from . import chance as CH
from .components import (
    ERAS,
    INSTITUTIONS,
    KINDS,
    MAX_BRIDGES,
    MAX_CITIES,
    MULTI_USE,
    NUM_CATASTROPHE_COLUMNS,
    SINGLE_USE,
    GameData,
)
from .geometry import DIRECTIONS, MAX_TILES, STEP, Placed, local_components, railed, reaches
from .observation import CELL_FEATURES, MAX_TRACK, TECH_FEATURES, TILE_FEATURES, layout
from .rules import (
    CATASTROPHE_BID_MAX,
    CONSOLATION_EXTRA,
    EXTRA_CUBE_PENALTY,
    LAST_FULL_ROUND,
    MAX_PLAYERS,
    R2_CARD_C_CLEAN_TILE,
    R4_CARD_A_PER_CENTRE,
    RANK_AWARDS,
    ROUNDS,
    START_COINS,
    START_CUBES,
    START_SCIENCE,
)
from .state import BATCH_FIELDS, PHASES

P = MAX_PLAYERS
NC = MAX_TILES  # a nation's tiles by slot (ruling 18)
LC = 9  # local components a tile may have: its rail pieces (8 at most) and a bridge
NODES = NC * LC
_U64 = np.uint64
(LEAD, OPEN, BID, TECH, CATASTROPHE, ATTACH_PICK, ATTACH_CELL, ATTACH_ROTATE, CITIZEN, GARBAGE, USE, USE_TARGET,
 USE_TARGET2, BRIDGE, RECYCLE, OVER) = range(len(PHASES))  # fmt: skip
assert PHASES[OVER] == "over" and PHASES[USE_TARGET2] == "use_target2"
K_WORKERS, K_BRIDGE, K_COLLECTION = KINDS.index("workers"), KINDS.index("bridge"), KINDS.index("separated_collection")
K_TRAIN, K_TRUCK, K_RECYCLING = KINDS.index("train"), KINDS.index("garbage_truck"), KINDS.index("recycling")
K_CLEANUP, K_QOL = KINDS.index("cleanup"), KINDS.index("quality_of_life")
MULTI_FROM = KINDS.index(MULTI_USE[0])  # kinds from here on are multiple-use
assert KINDS[MULTI_FROM:] == MULTI_USE and len(SINGLE_USE) == 4
# score sources and ledger entries (state.SCORE_SOURCES, state.LEDGER)
(S_PRODUCTION, S_QOL, S_ROUND2, S_ROUND4, S_LAND, S_POLLUTION, S_COINS, S_SCIENCE) = range(8)
(L_COINS_IN, L_COINS_OUT, L_SCIENCE_IN, L_SCIENCE_OUT, L_CUBES_IN, L_CUBES_OUT) = range(6)
MIN_PRICE = (0, 2, 2, 3, 3, 4, 0)  # rules.MIN_LAND_PRICE by round (0 in round VI)
ERA_OF = (2, 0, 0, 1, 1, 2, 2)  # rules.ERA_OF_ROUND by round (V for round VI, as tech_price reads it)
OFFER_LAND = (0, 0, 0, 5, 6, 8)  # rules.OFFERS by players
OFFER_TECH = (0, 0, 0, 4, 5, 6)
START_SLOT = 0  # the starting tile's slot, on cell (0, 0)
DIRS = np.array(DIRECTIONS, np.int64)
STEPS = np.array([STEP[s] for s in range(4)], np.int64)
NUM_BIDS, NUM_CAT_BIDS, MAX_AB = A.NUM_BIDS, A.NUM_CAT_BIDS, A.MAX_ABILITIES
# Batches at least this large run on numba's threads; a decision here costs about what one of Age of Industry's
# does.
PARALLEL_FROM_BY_LAYER = {"tbb": 64, "omp": 64, "workqueue": 512}
PARALLEL_FROM = runtime.parallel_from(PARALLEL_FROM_BY_LAYER)

# Fields of the State (state.BATCH_FIELDS, in order), and below the tables' entries: numpy integers, not Python
# ints, so that numba types them int64 rather than as literals and compiles each small reader (rd, wr, tb, ...)
# once, not once per field (a literal argument makes a compiled copy per value).
(F_SEED, F_REWARDS, F_TERMINATED, F_NUM_PLAYERS, F_R2_OPTION, F_R4_OPTION, F_R2, F_R4, F_LAND_STACK, F_LAND_POS,
 F_TECH_STACK, F_TECH_POS, F_CAT_STACK, F_CAT_POS, F_CAT_CURRENT, F_ROUND, F_PHASE, F_TO_MOVE, F_NEXT_LEADER,
 F_LEADER, F_LAND_OFFER, F_LAND_OFFER_LEN, F_TECH_OFFER, F_TECH_OFFER_LEN, F_DISCARDED_LAND, F_DISCARDED_LAND_LEN,
 F_DISCARDED_TECH, F_DISCARDED_TECH_LEN, F_COST_POS, F_AUCTION_SLOT, F_HIGH_BID, F_HIGH_BIDDER, F_WITHDRAWN,
 F_PASSED, F_WON, F_RESUME, F_CAT_COL, F_CAT_BID, F_MAINT_FIRST, F_MAINT_POS, F_COINS, F_SCIENCE, F_POLLUTION,
 F_PENDING_CUBES, F_PENDING, F_PENDING_LEN, F_TECHS, F_TECHS_LEN, F_USED, F_VP, F_LEDGER, F_GRID_TILE, F_GRID_X,
 F_GRID_Y, F_GRID_ROT, F_GRID_BRIDGE, F_GRID_CUBES, F_GRID_CITIZENS, F_GRID_NEW, F_SEL, F_SEL_LEN, F_REMOVED,
 F_REMOVED_LEN, F_PRODUCTION_NOW, F_NETWORK) = map(np.int64, range(len(BATCH_FIELDS)))  # fmt: skip
assert BATCH_FIELDS[F_NETWORK][0] == "network" and BATCH_FIELDS[F_GRID_NEW][0] == "grid_new"

# The tables, packed in ``t`` (int64; numbers first, then for each table its start) and ``tf`` (float32).
TABLE_NUMBERS = ("NLAND", "NTECH", "NCAT", "NA", "NOBS", "POLL_LOW", "POLL_HIGH", "POLL_START", "TRACK_LEN")
INT_TABLES = ("LAND_ITEMS", "LAND_ERA", "TECH_ITEMS", "TECH_ERA", "CAT_ITEMS", "CAT_ERA", "CAT_G", "CAT_P",
              "COLUMN_USED", "TECH_COST", "TECH_COST_LEN", "TECH_COST_START", "POLL_FINAL", "CLEAN_TILE", "NCITIES",
              "CITY_PROD", "CITY_RECYCLE", "BUILDING", "BONUS", "NBRIDGES", "NLC", "LC_SIDES", "LC_CITIES", "REACH",
              "RAILED", "NABIL", "ABIL_KIND", "ABIL_COST", "ABIL_VP", "TECH_GARBAGE", "TECH_POLLUTION",
              "TECH_INST", "OBS")  # fmt: skip
FLOAT_TABLES = ("LAND_ROW", "TECH_ROW", "CELL_ROW")
(X_NLAND, X_NTECH, X_NCAT, X_NA, X_NOBS, X_POLL_LOW, X_POLL_HIGH, X_POLL_START, X_TRACK_LEN, X_LAND_ITEMS, X_LAND_ERA,
 X_TECH_ITEMS, X_TECH_ERA, X_CAT_ITEMS, X_CAT_ERA, X_CAT_G, X_CAT_P, X_COLUMN_USED, X_TECH_COST, X_TECH_COST_LEN,
 X_TECH_COST_START, X_POLL_FINAL, X_CLEAN_TILE, X_NCITIES, X_CITY_PROD, X_CITY_RECYCLE, X_BUILDING, X_BONUS,
 X_NBRIDGES, X_NLC, X_LC_SIDES, X_LC_CITIES, X_REACH, X_RAILED, X_NABIL, X_ABIL_KIND, X_ABIL_COST, X_ABIL_VP,
 X_TECH_GARBAGE, X_TECH_POLLUTION, X_TECH_INST, X_OBS, X_LAND_ROW, X_TECH_ROW,
 X_CELL_ROW) = map(np.int64, range(len(TABLE_NUMBERS + INT_TABLES + FLOAT_TABLES)))  # fmt: skip
OBS_PIECES = ("num_players", "round", "phase", "to_move", "seat_present", "scoring_cards", "prices", "land_offer",
              "tech_offer", "auction", "catastrophe", "seat_vp", "seats", "pending", "grids", "selection",
              "unseen")  # fmt: skip
(O_NUM_PLAYERS, O_ROUND, O_PHASE, O_TO_MOVE, O_SEAT_PRESENT, O_SCORING_CARDS, O_PRICES, O_LAND_OFFER, O_TECH_OFFER,
 O_AUCTION, O_CATASTROPHE, O_SEAT_VP, O_SEATS, O_PENDING, O_GRIDS, O_SELECTION,
 O_UNSEEN) = range(len(OBS_PIECES))  # fmt: skip
TRACKS = 3  # a cost track per era
MAX_COST_TRACK = MAX_TRACK


def combo(code: int, rotation: int, bridge: int) -> int:
    """The index of a tile code at a rotation with a placed bridge (-1 none) in the per-combo tables."""
    return (code * 4 + rotation) * (MAX_BRIDGES + 1) + bridge + 1


def _cell_row(tile, rot: int, bridge: int, land: bool, code: int, out: np.ndarray) -> None:
    """The static part of a grid cell's observation (observation.observe's ``grids``): all but bought-this-round,
    the cubes and the occupied cities."""
    out[0:6] = (1, land, not land, code == 0, 0, 0)
    out[6 + rot] = 1
    placed = Placed(tile, rot, bridge)
    comps = local_components(tile, rot, bridge)
    for s in range(4):
        out[10 + s] = any(s in comp.sides for comp in comps)
    for j, city in enumerate(tile.cities):
        out[14 + 6 * j : 20 + 6 * j] = (1, city.coins / 5, city.science / 5, city.vp / 5, city.recycling, 0)
        for s in range(4):
            out[32 + 4 * j + s] = reaches(placed, j, s)
    if not land:
        for s in range(4):
            out[44 + s] = reaches(placed, -1, s)
        out[48 + INSTITUTIONS[tile.building]] = 1
        out[51] = tile.bonus / 3
    out[52] = bridge >= 0
    out[53] = len(tile.bridges) / 4


def tables(data: GameData) -> tuple[np.ndarray, np.ndarray]:
    """The components' facts as arrays for the kernel: ``(t, tf)`` (see the module docstring)."""
    d = data
    NL, NT, K = len(d.land), len(d.technologies), len(d.catastrophes)
    ncode = NL + NT
    ncombo = ncode * 4 * (MAX_BRIDGES + 1)
    land_items = [x for e in ERAS for x in d.stack("land", e)]
    land_era = [len(d.stack("land", e)) for e in ERAS]
    tech_items = [x for e in ERAS for x in d.stack("tech", e)]
    tech_era = [len(d.stack("tech", e)) for e in ERAS]
    cat_items = [k for e in ERAS for k, c in enumerate(d.catastrophes) if c.era == e]
    cat_era = [sum(c.era == e for c in d.catastrophes) for e in ERAS]
    cat_g = [g for c in d.catastrophes for g, _ in c.columns]
    cat_p = [s for c in d.catastrophes for _, s in c.columns]
    column_used = [int(c in d.columns_used(n)) if n >= 3 else 0 for n in range(6) for c in range(5)]
    cost = np.zeros((TRACKS, MAX_COST_TRACK), np.int64)
    for k, e in enumerate(ERAS):
        cost[k, : len(d.tech_cost[e])] = d.tech_cost[e]
    cost_len = [len(d.tech_cost[e]) for e in ERAS]
    cost_start = [d.tech_cost_start.get(n, 0) for n in range(6)]
    ncities = np.zeros(ncode, np.int64)
    city_prod = np.zeros((ncode, MAX_CITIES, 3), np.int64)
    city_rec = np.zeros((ncode, MAX_CITIES), np.int64)
    building = np.full(ncode, -1, np.int64)
    bonus = np.zeros(ncode, np.int64)
    nbridges = np.zeros(ncode, np.int64)
    nlc = np.zeros(ncombo, np.int64)
    lc_sides = np.zeros((ncombo, LC), np.int64)
    lc_cities = np.zeros((ncombo, LC), np.int64)
    reach = np.zeros((ncombo, 4, 4), np.int64)  # element (city 0-2, the building 3), side
    rail = np.zeros((ncombo, 4), np.int64)
    cell_row = np.zeros((ncombo, CELL_FEATURES), np.float32)
    for code in range(ncode):
        if code >= NL and d.technologies[code - NL].tile is None:
            continue
        tile = d.tile(code)
        land = code < NL
        ncities[code] = len(tile.cities)
        for j, c in enumerate(tile.cities):
            city_prod[code, j] = c.production
            city_rec[code, j] = c.recycling
        if not land:
            building[code] = INSTITUTIONS[tile.building]
            bonus[code] = tile.bonus
        nbridges[code] = len(tile.bridges)
        for rot in range(4):
            for b in range(-1, len(tile.bridges)):
                q = combo(code, rot, b)
                comps = local_components(tile, rot, b)
                assert len(comps) <= LC
                nlc[q] = len(comps)
                for k, comp in enumerate(comps):
                    lc_sides[q, k] = sum(1 << s for s in comp.sides)
                    lc_cities[q, k] = sum(1 << j for j in comp.cities)
                placed = Placed(tile, rot, b)
                for s in range(4):
                    rail[q, s] = railed(placed, s)
                    reach[q, 3, s] = reaches(placed, -1, s)
                    for j in range(len(tile.cities)):
                        reach[q, j, s] = reaches(placed, j, s)
                _cell_row(tile, rot, b, land, code, cell_row[q])
    nabil = [len(x.abilities) for x in d.technologies]
    abil_kind = np.full((NT, MAX_AB), -1, np.int64)
    abil_cost = np.zeros((NT, MAX_AB), np.int64)
    abil_vp = np.zeros((NT, MAX_AB), np.int64)
    for k, x in enumerate(d.technologies):
        for h, ab in enumerate(x.abilities):
            abil_kind[k, h], abil_cost[k, h], abil_vp[k, h] = KINDS.index(ab.kind), ab.cost, ab.vp
    pieces = layout(d)
    starts, at = [], 0
    for _, shape, _ in pieces:
        starts.append(at)
        at += int(np.prod(shape))
    assert [p[0] for p in pieces] == list(OBS_PIECES)
    land_row = np.zeros((NL, TILE_FEATURES), np.float32)
    for k, tile in enumerate(d.land):
        f = land_row[k]
        f[0] = 1
        if tile.stack in ERAS:  # (the starting tile is never on offer)
            f[1 + ERAS.index(tile.stack)] = 1
        for j, c in enumerate(tile.cities):
            f[4 + 5 * j : 9 + 5 * j] = (1, c.coins / 5, c.science / 5, c.vp / 5, c.recycling)
        comps = local_components(tile, 0, -1)
        placed = Placed(tile, 0, -1)
        for s in range(4):
            f[19 + s] = any(s in c.sides for c in comps)
        for j in range(len(tile.cities)):
            for s in range(4):
                f[19 + 4 + 4 * j + s] = reaches(placed, j, s)
        f[35] = len(tile.bridges) / 4
    tech_row = np.zeros((NT, TECH_FEATURES), np.float32)
    for k, tech in enumerate(d.technologies):
        f = tech_row[k]
        f[0], f[1 + ERAS.index(tech.stack)] = 1, 1
        for ab in tech.abilities:
            f[4 + KINDS.index(ab.kind)] = 1
        h = 4 + len(KINDS)
        ab = tech.abilities[-1]
        f[h : h + 6] = (tech.garbage / 5, max(0, -tech.pollution) / 3, max(0, tech.pollution) / 3, ab.bonus / 3,
                        ab.cost / 9, ab.vp / 9)  # fmt: skip
        if tech.tile is not None:
            placed = Placed(tech.tile)
            for side in range(4):
                f[h + 6 + side] = any(side in c.sides for c in local_components(tech.tile, 0, -1))
                f[h + 10 + side] = reaches(placed, -1, side)
    numbers = (NL, NT, K, A.NUM_ACTIONS, at, d.pollution_low, d.pollution_high, d.pollution_start,
               len(d.pollution_final))  # fmt: skip
    ints = (land_items, land_era, tech_items, tech_era, cat_items, cat_era, cat_g, cat_p, column_used, cost,
            cost_len, cost_start, d.pollution_final, d.clean_tile, ncities, city_prod, city_rec, building, bonus,
            nbridges, nlc, lc_sides, lc_cities, reach, rail, nabil, abil_kind, abil_cost, abil_vp,
            [x.garbage for x in d.technologies], [x.pollution for x in d.technologies],
            [int(x.tile is not None) for x in d.technologies], starts)  # fmt: skip
    floats = (land_row, tech_row, cell_row)
    head = len(TABLE_NUMBERS) + len(INT_TABLES) + len(FLOAT_TABLES)
    t_parts = [np.asarray(numbers, np.int64), np.zeros(len(INT_TABLES) + len(FLOAT_TABLES), np.int64)]
    at = head
    for k, arr in enumerate(ints):
        arr = np.asarray(arr, np.int64).reshape(-1)
        t_parts[1][k] = at
        t_parts.append(arr)
        at += arr.size
    f_parts, fat = [], 0
    for k, arr in enumerate(floats):
        t_parts[1][len(INT_TABLES) + k] = fat
        f_parts.append(np.asarray(arr, np.float32).reshape(-1))
        fat += f_parts[-1].size
    return np.concatenate(t_parts), np.concatenate(f_parts)


Games = namedtuple("Games", ("s64", "f32", "s8", "s16", "at", "sz"))
Games.__doc__ = """A batch as the kernel reads it: views of its one buffer by width and, per field, where game 0's
part starts in its view (``at``) and its elements per game (``sz``) (:func:`views`)."""


def views(buf: np.ndarray, schema, batch_size: int) -> Games:
    """The kernel's view of a batch of ``batch_size`` games whose State (laid out by ``schema``) is ``buf``."""

    def view(dtype):
        w = np.dtype(dtype).itemsize
        return buf[: buf.size // w * w].view(dtype)

    at = schema.unit_offsets * batch_size
    sz = schema.sizes.copy()  # writable: numba types a read-only array apart
    g = Games(view(np.int64), view(np.float32), view(np.int8), view(np.int16), at, sz)
    if uncompiled.DISABLED:
        return Games(*(scalars(a) for a in g))
    return g


def wrap_tables(t: np.ndarray) -> np.ndarray:
    """A table as the kernel reads it (uncompiled: as Scalars)."""
    return scalars(t) if uncompiled.DISABLED else t


# ============================================================================================== fields
@njit(cache=True)
def rd(g, f, i, e):
    """Element ``e`` of int16 field ``f`` of game ``i``, widened to int64 (one compiled version of every helper
    that takes it, not one per width)."""
    return g.s16[g.at[f] + i * g.sz[f] + e] + 0


@njit(cache=True)
def wr(g, f, i, e, v):
    g.s16[g.at[f] + i * g.sz[f] + e] = v


@njit(cache=True)
def add(g, f, i, e, v):
    g.s16[g.at[f] + i * g.sz[f] + e] += v


@njit(cache=True)
def tb(t, x, k):
    """Entry ``k`` of table ``x``."""
    return t[t[x] + k]


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
        _join_tile(g, t, i, p, START_SLOT)
    start_round(g, t, i, 1)
    advance(g, t, i, np.zeros(t[X_NA], np.bool_))


# ============================================================================================== the nation
@njit(cache=True)
def _grid(g, f, i, p, c):
    return rd(g, f, i, p * NC + c)


@njit(cache=True)
def _slot_at(g, i, p, x, y):
    """The slot of seat p's tile on cell (x, y), -1 if it is empty (slots fill in order from 0)."""
    for c in range(NC):
        if _grid(g, F_GRID_TILE, i, p, c) < 0:
            return -1
        if _grid(g, F_GRID_X, i, p, c) == x and _grid(g, F_GRID_Y, i, p, c) == y:
            return c
    return -1


@njit(cache=True)
def _neighbour(g, i, p, c, side):
    """The slot of the tile across side ``side`` of slot c's tile, -1 none."""
    return _slot_at(g, i, p, _grid(g, F_GRID_X, i, p, c) + STEPS[side, 0], _grid(g, F_GRID_Y, i, p, c) + STEPS[side, 1])


@njit(cache=True)
def _slots(g, i, p):
    """How many tiles seat p's nation holds."""
    for c in range(NC):
        if _grid(g, F_GRID_TILE, i, p, c) < 0:
            return c
    return NC


@njit(cache=True)
def _placement_named(g, i, p, c, d):
    """Whether the cell beside slot c toward direction d is empty and c is the lowest slot touching it: the one
    name of a cell a tile may be attached on (geometry.placements)."""
    x, y = _grid(g, F_GRID_X, i, p, c) + DIRS[d, 0], _grid(g, F_GRID_Y, i, p, c) + DIRS[d, 1]
    if _slot_at(g, i, p, x, y) >= 0:
        return False
    for q in range(c):
        if abs(_grid(g, F_GRID_X, i, p, q) - x) <= 1 and abs(_grid(g, F_GRID_Y, i, p, q) - y) <= 1:
            return False
    return True


@njit(cache=True)
def _is_land_cell(g, t, i, p, c):
    code = _grid(g, F_GRID_TILE, i, p, c)
    return code >= 0 and code < t[X_NLAND]


@njit(cache=True)
def _combo_at(g, i, p, c):
    code = _grid(g, F_GRID_TILE, i, p, c)
    return (code * 4 + _grid(g, F_GRID_ROT, i, p, c)) * (MAX_BRIDGES + 1) + _grid(g, F_GRID_BRIDGE, i, p, c) + 1


@njit(cache=True)
def _reach(g, t, i, p, c, element, side):
    """geometry.reaches of the tile on cell c (element: a city 0-2, or 3 the building)."""
    return tb(t, X_REACH, _combo_at(g, i, p, c) * 16 + element * 4 + side) != 0


@njit(cache=True)
def _railed(g, t, i, p, c, side):
    return tb(t, X_RAILED, _combo_at(g, i, p, c) * 4 + side) != 0


@njit(cache=True)
def _occupied(g, i, p, c, j):
    return (_grid(g, F_GRID_CITIZENS, i, p, c) >> j) & 1


@njit(cache=True)
def total_cubes(g, i, p):
    s = 0
    for c in range(NC):
        s += _grid(g, F_GRID_CUBES, i, p, c)
    return s


@njit(cache=True)
def _count_land(g, t, i, p):
    s = 0
    for c in range(NC):
        if _is_land_cell(g, t, i, p, c):
            s += 1
    return s


@njit(cache=True)
def clean_land_tiles(g, t, i, p):
    s = 0
    for c in range(NC):
        if _is_land_cell(g, t, i, p, c) and _grid(g, F_GRID_CUBES, i, p, c) == 0:
            s += 1
    return s


@njit(cache=True)
def _count_cities(g, t, i, p, occupied, recycling_only):
    """Cities of the nation, occupied (1) or free (0); only recycling ones if asked."""
    s = 0
    for c in range(NC):
        if not _is_land_cell(g, t, i, p, c):
            continue
        code = _grid(g, F_GRID_TILE, i, p, c)
        for j in range(tb(t, X_NCITIES, code)):
            if _occupied(g, i, p, c, j) == occupied and (not recycling_only or tb(t, X_CITY_RECYCLE, code * 3 + j)):
                s += 1
    return s


@njit(cache=True)
def institution_bonus(g, t, i, p, inst, land, city):
    """geometry.institution_bonus: edge neighbours, the city and the building reaching their shared side."""
    for side in range(4):
        if _neighbour(g, i, p, land, side) == inst:
            return _reach(g, t, i, p, land, city, side) and _reach(g, t, i, p, inst, 3, (side + 2) % 4)
    return False


@njit(cache=True)
def production(g, t, i, p, out):
    """Game.production: the markers (coins, science, VP) of every occupied city, institutions' bonuses added."""
    NL = t[X_NLAND]
    out[0] = 0
    out[1] = 0
    out[2] = 0
    for c in range(NC):
        code = _grid(g, F_GRID_TILE, i, p, c)
        if code < 0 or code >= NL:
            continue
        for j in range(tb(t, X_NCITIES, code)):
            if not _occupied(g, i, p, c, j):
                continue
            for r in range(3):
                out[r] += tb(t, X_CITY_PROD, code * 9 + j * 3 + r)
            for q in range(NC):
                inst = _grid(g, F_GRID_TILE, i, p, q)
                if inst < NL:
                    continue
                r = tb(t, X_BUILDING, inst)
                if tb(t, X_CITY_PROD, code * 9 + j * 3 + r) > 0 and institution_bonus(g, t, i, p, q, c, j):
                    out[r] += tb(t, X_BONUS, inst)


# ---------------------------------------------------------------------------------------------- the rail network
@njit(cache=True)
def _node(g, i, p, node):
    return rd(g, F_NETWORK, i, p * NODES + node)


@njit(cache=True)
def _union(g, i, p, a, b):
    """Join the networks of nodes a and b: every node labelled b's root takes a's."""
    ra, rb = _node(g, i, p, a), _node(g, i, p, b)
    if ra == rb:
        return
    for k in range(NODES):
        if rd(g, F_NETWORK, i, p * NODES + k) == rb:
            wr(g, F_NETWORK, i, p * NODES + k, ra)


@njit(cache=True)
def _fresh_nodes(g, i, p, c):
    """The local components of the tile on cell c as nodes of their own."""
    for k in range(LC):
        wr(g, F_NETWORK, i, p * NODES + c * LC + k, c * LC + k)


@njit(cache=True)
def _join_sides(g, t, i, p, c, last_side):
    """Join the tile on cell c to its neighbours across sides 0..last_side where both are railed (ruling 1)."""
    q = _combo_at(g, i, p, c)
    for side in range(last_side + 1):
        other = _neighbour(g, i, p, c, side)
        if other < 0 or _grid(g, F_GRID_TILE, i, p, other) < 0:
            continue
        q2 = _combo_at(g, i, p, other)
        for k in range(tb(t, X_NLC, q)):
            if not (tb(t, X_LC_SIDES, q * LC + k) >> side) & 1:
                continue
            for k2 in range(tb(t, X_NLC, q2)):
                if (tb(t, X_LC_SIDES, q2 * LC + k2) >> ((side + 2) % 4)) & 1:
                    _union(g, i, p, other * LC + k2, c * LC + k)


@njit(cache=True)
def _join_tile(g, t, i, p, c):
    """A tile just attached on cell c: its nodes, joined to the nation's networks on its four sides."""
    _fresh_nodes(g, i, p, c)
    _join_sides(g, t, i, p, c, 3)


@njit(cache=True)
def rebuild_network(g, t, i, p):
    """Seat p's rail network from its grid (after a bridge changes a tile's local components): every tile's
    nodes, then their sides (a union already made is a no-op)."""
    for k in range(NODES):
        wr(g, F_NETWORK, i, p * NODES + k, -1)
    for c in range(NC):
        if _grid(g, F_GRID_TILE, i, p, c) >= 0:
            _fresh_nodes(g, i, p, c)
    for c in range(NC):
        if _grid(g, F_GRID_TILE, i, p, c) >= 0:
            _join_sides(g, t, i, p, c, 3)


@njit(cache=True)
def train_connected(g, t, i, p, c, j, c2, j2):
    """geometry.train_connected: the two cities share a network node's root."""
    q, q2 = _combo_at(g, i, p, c), _combo_at(g, i, p, c2)
    for k in range(tb(t, X_NLC, q)):
        if not (tb(t, X_LC_CITIES, q * LC + k) >> j) & 1:
            continue
        root = _node(g, i, p, c * LC + k)
        for k2 in range(tb(t, X_NLC, q2)):
            if (tb(t, X_LC_CITIES, q2 * LC + k2) >> j2) & 1 and _node(g, i, p, c2 * LC + k2) == root:
                return True
    return False


# ============================================================================================== phase 1
@njit(cache=True)
def min_land_price(g, i):
    return MIN_PRICE[rd(g, F_ROUND, i, 0)]


@njit(cache=True)
def tech_price(g, t, i):
    return tb(t, X_TECH_COST, ERA_OF[rd(g, F_ROUND, i, 0)] * MAX_COST_TRACK + rd(g, F_COST_POS, i, 0))


@njit(cache=True)
def start_round(g, t, i, r):
    """Fase 1: leftovers out, new offers dealt, the catastrophe revealed, prices set."""
    n = rd(g, F_NUM_PLAYERS, i, 0)
    wr(g, F_ROUND, i, 0, r)
    wr(g, F_LEADER, i, 0, rd(g, F_NEXT_LEADER, i, 0))
    for p in range(P):
        for c in range(NC):
            wr(g, F_GRID_NEW, i, p * NC + c, 0)
    for s in range(rd(g, F_LAND_OFFER_LEN, i, 0)):
        x = rd(g, F_LAND_OFFER, i, s)
        if x >= 0:
            wr(g, F_DISCARDED_LAND, i, rd(g, F_DISCARDED_LAND_LEN, i, 0), x)
            add(g, F_DISCARDED_LAND_LEN, i, 0, 1)
    for s in range(rd(g, F_TECH_OFFER_LEN, i, 0)):
        x = rd(g, F_TECH_OFFER, i, s)
        if x >= 0:
            wr(g, F_DISCARDED_TECH, i, rd(g, F_DISCARDED_TECH_LEN, i, 0), x)
            add(g, F_DISCARDED_TECH_LEN, i, 0, 1)
    if r > LAST_FULL_ROUND:
        wr(g, F_LAND_OFFER_LEN, i, 0, 0)
        wr(g, F_TECH_OFFER_LEN, i, 0, 0)
        start_maintenance(g, t, i)
        return
    era = ERA_OF[r]
    NL, NT = t[X_NLAND], t[X_NTECH]
    pos = rd(g, F_LAND_POS, i, era)
    m = min(OFFER_LAND[n], tb(t, X_LAND_ERA, era) - pos)
    for s in range(m):
        wr(g, F_LAND_OFFER, i, s, rd(g, F_LAND_STACK, i, era * NL + pos + s))
    wr(g, F_LAND_POS, i, era, pos + m)
    wr(g, F_LAND_OFFER_LEN, i, 0, m)
    pos = rd(g, F_TECH_POS, i, era)
    m = min(OFFER_TECH[n], tb(t, X_TECH_ERA, era) - pos)
    for s in range(m):
        wr(g, F_TECH_OFFER, i, s, rd(g, F_TECH_STACK, i, era * NT + pos + s))
    wr(g, F_TECH_POS, i, era, pos + m)
    wr(g, F_TECH_OFFER_LEN, i, 0, m)
    k = rd(g, F_CAT_POS, i, 0)
    wr(g, F_CAT_CURRENT, i, 0, rd(g, F_CAT_STACK, i, k))
    wr(g, F_CAT_POS, i, 0, k + 1)
    wr(g, F_COST_POS, i, 0, tb(t, X_TECH_COST_START, n))
    for p in range(P):
        wr(g, F_WITHDRAWN, i, p, 0)
        wr(g, F_PASSED, i, p, 0)
        wr(g, F_WON, i, p, 0)
        wr(g, F_CAT_COL, i, p, -1)
        wr(g, F_CAT_BID, i, p, 0)
    wr(g, F_AUCTION_SLOT, i, 0, -1)
    wr(g, F_HIGH_BID, i, 0, 0)
    wr(g, F_HIGH_BIDDER, i, 0, -1)
    wr(g, F_PHASE, i, 0, LEAD)
    wr(g, F_TO_MOVE, i, 0, rd(g, F_LEADER, i, 0))


# ============================================================================================== phase 2
@njit(cache=True)
def raising_own_bid(g, i):
    """Game.raising_own_bid: the high bidder asked again after 'bid +31' (ruling 19)."""
    return rd(g, F_PHASE, i, 0) == BID and rd(g, F_TO_MOVE, i, 0) == rd(g, F_HIGH_BIDDER, i, 0)


@njit(cache=True)
def _bid_base(g, i):
    if rd(g, F_PHASE, i, 0) == OPEN:
        return min_land_price(g, i)
    if raising_own_bid(g, i):
        return rd(g, F_HIGH_BID, i, 0)
    return rd(g, F_HIGH_BID, i, 0) + 1


@njit(cache=True)
def _may_bid(g, i, q):
    return not rd(g, F_WITHDRAWN, i, q) and not rd(g, F_PASSED, i, q) and q != rd(g, F_HIGH_BIDDER, i, 0)


@njit(cache=True)
def put_up_land(g, t, i, p, slot):
    """The leader puts a tile up; alone in the auction, he buys it at the minimum price (ruling 12)."""
    n = rd(g, F_NUM_PLAYERS, i, 0)
    alone = True
    for q in range(n):
        if q != p and not rd(g, F_WITHDRAWN, i, q):
            alone = False
    if alone and not rd(g, F_WITHDRAWN, i, p):
        win_land(g, t, i, p, slot, min_land_price(g, i))
        return
    wr(g, F_AUCTION_SLOT, i, 0, slot)
    wr(g, F_PHASE, i, 0, OPEN)


@njit(cache=True)
def bid(g, t, i, p, amount, more):
    """Game.bid: the high bid; with ``more`` (31 or more over the smallest) the bidder is asked again."""
    wr(g, F_HIGH_BID, i, 0, amount)
    wr(g, F_HIGH_BIDDER, i, 0, p)
    wr(g, F_PHASE, i, 0, BID)
    if more:
        wr(g, F_TO_MOVE, i, 0, p)
    else:
        next_bidder(g, t, i, p)


@njit(cache=True)
def next_bidder(g, t, i, after):
    n = rd(g, F_NUM_PLAYERS, i, 0)
    for k in range(1, n + 1):
        q = (after + k) % n
        if _may_bid(g, i, q):
            wr(g, F_PHASE, i, 0, BID)
            wr(g, F_TO_MOVE, i, 0, q)
            return
    win_land(g, t, i, rd(g, F_HIGH_BIDDER, i, 0), rd(g, F_AUCTION_SLOT, i, 0), rd(g, F_HIGH_BID, i, 0))


@njit(cache=True)
def win_land(g, t, i, p, slot, price):
    """The winner pays, takes the tile with its k-th purchase's k cubes, moves the cost marker and leads."""
    n = rd(g, F_NUM_PLAYERS, i, 0)
    add(g, F_COINS, i, p, -price)
    add(g, F_LEDGER, i, p * 6 + L_COINS_OUT, price)
    add(g, F_WON, i, p, 1)
    won = rd(g, F_WON, i, p)
    k = rd(g, F_PENDING_LEN, i, p)
    wr(g, F_PENDING, i, p * 27 + k * 3, rd(g, F_LAND_OFFER, i, slot))
    wr(g, F_PENDING, i, p * 27 + k * 3 + 1, slot)
    wr(g, F_PENDING, i, p * 27 + k * 3 + 2, won)
    wr(g, F_PENDING_LEN, i, p, k + 1)
    add(g, F_LEDGER, i, p * 6 + L_CUBES_IN, won)
    wr(g, F_LAND_OFFER, i, slot, -1)
    era = ERA_OF[rd(g, F_ROUND, i, 0)]
    wr(g, F_COST_POS, i, 0, min(rd(g, F_COST_POS, i, 0) + 1, tb(t, X_TECH_COST_LEN, era) - 1))
    wr(g, F_AUCTION_SLOT, i, 0, -1)
    wr(g, F_HIGH_BID, i, 0, 0)
    wr(g, F_HIGH_BIDDER, i, 0, -1)
    for q in range(n):
        wr(g, F_PASSED, i, q, 0)
    wr(g, F_LEADER, i, 0, p)
    wr(g, F_PHASE, i, 0, LEAD)
    wr(g, F_TO_MOVE, i, 0, p)


@njit(cache=True)
def withdraw(g, i, p):
    n = rd(g, F_NUM_PLAYERS, i, 0)
    wr(g, F_RESUME, i, 0, rd(g, F_PHASE, i, 0))
    k = 1
    for q in range(n):
        if rd(g, F_WITHDRAWN, i, q):
            k += 1
    wr(g, F_WITHDRAWN, i, p, k)
    wr(g, F_PHASE, i, 0, TECH)


@njit(cache=True)
def move_pollution(g, t, i, p, steps):
    v = rd(g, F_POLLUTION, i, p) + steps
    wr(g, F_POLLUTION, i, p, max(t[X_POLL_LOW], min(t[X_POLL_HIGH], v)))


@njit(cache=True)
def buy_technology(g, t, i, p, slot):
    x = rd(g, F_TECH_OFFER, i, slot)
    price = tech_price(g, t, i)
    add(g, F_SCIENCE, i, p, -price)
    add(g, F_LEDGER, i, p * 6 + L_SCIENCE_OUT, price)
    wr(g, F_TECH_OFFER, i, slot, -1)
    h = rd(g, F_TECHS_LEN, i, p)
    wr(g, F_TECHS, i, p * 5 + h, x)
    wr(g, F_USED, i, p * 10 + h * 2, 0)
    wr(g, F_USED, i, p * 10 + h * 2 + 1, 0)
    wr(g, F_TECHS_LEN, i, p, h + 1)
    garbage = tb(t, X_TECH_GARBAGE, x)
    add(g, F_PENDING_CUBES, i, p, garbage)
    add(g, F_LEDGER, i, p * 6 + L_CUBES_IN, garbage)
    move_pollution(g, t, i, p, tb(t, X_TECH_POLLUTION, x))
    if tb(t, X_TECH_INST, x):
        k = rd(g, F_PENDING_LEN, i, p)
        wr(g, F_PENDING, i, p * 27 + k * 3, t[X_NLAND] + x)
        wr(g, F_PENDING, i, p * 27 + k * 3 + 1, slot)
        wr(g, F_PENDING, i, p * 27 + k * 3 + 2, 0)
        wr(g, F_PENDING_LEN, i, p, k + 1)
    after_withdrawal(g, t, i, p)


@njit(cache=True)
def after_withdrawal(g, t, i, p):
    if rd(g, F_RESUME, i, 0) == BID:
        next_bidder(g, t, i, p)
        return
    n = rd(g, F_NUM_PLAYERS, i, 0)
    for k in range(1, n + 1):
        q = (p + k) % n
        if not rd(g, F_WITHDRAWN, i, q):
            wr(g, F_LEADER, i, 0, q)
            wr(g, F_PHASE, i, 0, LEAD)
            wr(g, F_TO_MOVE, i, 0, q)
            return
    end_auction(g, t, i)


@njit(cache=True)
def end_auction(g, t, i):
    """Consolation to every player who won no land tile; the last to withdraw opens the catastrophe bidding."""
    n = rd(g, F_NUM_PLAYERS, i, 0)
    r = rd(g, F_ROUND, i, 0)
    best = 0
    for p in range(n):
        if rd(g, F_WON, i, p) == 0:
            add(g, F_COINS, i, p, MIN_PRICE[r] + CONSOLATION_EXTRA)
            add(g, F_LEDGER, i, p * 6 + L_COINS_IN, MIN_PRICE[r] + CONSOLATION_EXTRA)
        if rd(g, F_WITHDRAWN, i, p) > rd(g, F_WITHDRAWN, i, best):
            best = p
    wr(g, F_PHASE, i, 0, CATASTROPHE)
    wr(g, F_TO_MOVE, i, 0, best)


# ============================================================================================== phase 3
@njit(cache=True)
def on_top(g, i, p):
    c = rd(g, F_CAT_COL, i, p)
    if c < 0:
        return False
    for q in range(rd(g, F_NUM_PLAYERS, i, 0)):
        if q != p and rd(g, F_CAT_COL, i, q) == c and rd(g, F_CAT_BID, i, q) >= rd(g, F_CAT_BID, i, p):
            return False
    return True


@njit(cache=True)
def bid_on_catastrophe(g, t, i, p, column, amount):
    wr(g, F_CAT_COL, i, p, column)
    wr(g, F_CAT_BID, i, p, amount)
    n = rd(g, F_NUM_PLAYERS, i, 0)
    for k in range(1, n + 1):
        q = (p + k) % n
        if not on_top(g, i, q):
            wr(g, F_TO_MOVE, i, 0, q)
            return
    resolve_catastrophe(g, t, i)


@njit(cache=True)
def resolve_catastrophe(g, t, i):
    n = rd(g, F_NUM_PLAYERS, i, 0)
    card = rd(g, F_CAT_CURRENT, i, 0)
    first = 0
    for p in range(n):
        col = rd(g, F_CAT_COL, i, p)
        garbage, steps = tb(t, X_CAT_G, card * 5 + col), tb(t, X_CAT_P, card * 5 + col)
        b = rd(g, F_CAT_BID, i, p)
        add(g, F_SCIENCE, i, p, -b)
        add(g, F_LEDGER, i, p * 6 + L_SCIENCE_OUT, b)
        add(g, F_PENDING_CUBES, i, p, garbage)
        add(g, F_LEDGER, i, p * 6 + L_CUBES_IN, garbage)
        move_pollution(g, t, i, p, -steps)
        if col < rd(g, F_CAT_COL, i, first):
            first = p
    wr(g, F_NEXT_LEADER, i, 0, first)
    start_maintenance(g, t, i)


# ============================================================================================== phase 4
@njit(cache=True)
def _maint_seat(g, i, k):
    return (rd(g, F_MAINT_FIRST, i, 0) + k) % rd(g, F_NUM_PLAYERS, i, 0)


@njit(cache=True)
def start_maintenance(g, t, i):
    wr(g, F_MAINT_FIRST, i, 0, rd(g, F_NEXT_LEADER, i, 0))
    wr(g, F_MAINT_POS, i, 0, 0)
    begin_maintenance(g, t, i, _maint_seat(g, i, 0))


@njit(cache=True)
def begin_maintenance(g, t, i, p):
    for h in range(rd(g, F_TECHS_LEN, i, p)):
        x = rd(g, F_TECHS, i, p * 5 + h)
        for k in range(tb(t, X_NABIL, x)):
            if tb(t, X_ABIL_KIND, x * MAX_AB + k) >= MULTI_FROM:
                wr(g, F_USED, i, p * 10 + h * 2 + k, 0)
    wr(g, F_TO_MOVE, i, 0, p)
    next_maintenance_step(g, i, p)


@njit(cache=True)
def next_maintenance_step(g, i, p):
    """Attach tiles, then place the new cubes, then use technologies (ruling 16)."""
    wr(g, F_SEL_LEN, i, 0, 0)
    if rd(g, F_PENDING_LEN, i, p):
        wr(g, F_PHASE, i, 0, ATTACH_PICK)
    elif rd(g, F_PENDING_CUBES, i, p):
        wr(g, F_PHASE, i, 0, GARBAGE)
    else:
        wr(g, F_PHASE, i, 0, USE)


@njit(cache=True)
def _set_sel(g, i, a, b, c, length):
    wr(g, F_SEL, i, 0, a)
    wr(g, F_SEL, i, 1, b)
    wr(g, F_SEL, i, 2, c)
    wr(g, F_SEL_LEN, i, 0, length)


@njit(cache=True)
def attach_tile(g, t, i, p, placement, rotation):
    """Aggancio: the tile on an empty cell touching the nation (slot x 8 + direction of a tile beside it), in the
    nation's next slot, a land tile with its purchase cubes."""
    code = rd(g, F_SEL, i, 0)
    cell = _slots(g, i, p)
    anchor, d = placement // 8, placement % 8
    wr(g, F_GRID_X, i, p * NC + cell, _grid(g, F_GRID_X, i, p, anchor) + DIRS[d, 0])
    wr(g, F_GRID_Y, i, p * NC + cell, _grid(g, F_GRID_Y, i, p, anchor) + DIRS[d, 1])
    m = rd(g, F_PENDING_LEN, i, p)
    e = 0
    while rd(g, F_PENDING, i, p * 27 + e * 3) != code:
        e += 1
    cubes = rd(g, F_PENDING, i, p * 27 + e * 3 + 2)
    for k in range(e, m - 1):
        for x in range(3):
            wr(g, F_PENDING, i, p * 27 + k * 3 + x, rd(g, F_PENDING, i, p * 27 + (k + 1) * 3 + x))
    for x in range(3):
        wr(g, F_PENDING, i, p * 27 + (m - 1) * 3 + x, 0)
    wr(g, F_PENDING_LEN, i, p, m - 1)
    land = code < t[X_NLAND]
    wr(g, F_GRID_TILE, i, p * NC + cell, code)
    wr(g, F_GRID_ROT, i, p * NC + cell, rotation)
    wr(g, F_GRID_BRIDGE, i, p * NC + cell, -1)
    wr(g, F_GRID_CUBES, i, p * NC + cell, cubes)
    wr(g, F_GRID_NEW, i, p * NC + cell, 1 if land else 0)
    _join_tile(g, t, i, p, cell)
    if land:
        _set_sel(g, i, code, cell, 0, 2)
        wr(g, F_PHASE, i, 0, CITIZEN)
    else:
        next_maintenance_step(g, i, p)


@njit(cache=True)
def garbage_target(g, t, i, p, c):
    """Ruling 15: the land tiles bought this round, else any land tile."""
    if not _is_land_cell(g, t, i, p, c):
        return False
    any_new = False
    for q in range(NC):
        if _is_land_cell(g, t, i, p, q) and _grid(g, F_GRID_NEW, i, p, q):
            any_new = True
            break
    return not any_new or _grid(g, F_GRID_NEW, i, p, c) != 0


@njit(cache=True)
def end_maintenance(g, t, i):
    k = rd(g, F_MAINT_POS, i, 0) + 1
    wr(g, F_MAINT_POS, i, 0, k)
    if k < rd(g, F_NUM_PLAYERS, i, 0):
        begin_maintenance(g, t, i, _maint_seat(g, i, k))
    else:
        produce(g, t, i)


# ---------------------------------------------------------------------------------------------- technologies
@njit(cache=True)
def _kind(g, t, i, p, h, k):
    return tb(t, X_ABIL_KIND, rd(g, F_TECHS, i, p * 5 + h) * MAX_AB + k)


@njit(cache=True)
def _ability_cost(g, t, i, p, h, k):
    return tb(t, X_ABIL_COST, rd(g, F_TECHS, i, p * 5 + h) * MAX_AB + k)


@njit(cache=True)
def _bridge_cell(g, t, i, p, c):
    """A tile where a bridge still fits (ruling 6)."""
    code = _grid(g, F_GRID_TILE, i, p, c)
    return code >= 0 and _grid(g, F_GRID_BRIDGE, i, p, c) < 0 and tb(t, X_NBRIDGES, code) > 0


@njit(cache=True)
def _train_from(g, t, i, p, c, j, row, write):
    """Free cities the citizen on (c, j) may move to by Train; marked in ``row`` if ``write``. Returns how many."""
    NL = t[X_NLAND]
    count = 0
    for c2 in range(NC):
        code = _grid(g, F_GRID_TILE, i, p, c2)
        if code < 0 or code >= NL:
            continue
        for j2 in range(tb(t, X_NCITIES, code)):
            if not _occupied(g, i, p, c2, j2) and train_connected(g, t, i, p, c, j, c2, j2):
                count += 1
                if write:
                    row[A.CITY + c2 * 3 + j2] = True
    return count


@njit(cache=True)
def _train_sources(g, t, i, p, row, write):
    """Occupied cities with a Train move (marked in ``row`` if ``write``); returns how many."""
    NL = t[X_NLAND]
    count = 0
    for c in range(NC):
        code = _grid(g, F_GRID_TILE, i, p, c)
        if code < 0 or code >= NL:
            continue
        for j in range(tb(t, X_NCITIES, code)):
            if _occupied(g, i, p, c, j) and _train_from(g, t, i, p, c, j, row, False):
                count += 1
                if write:
                    row[A.CITY + c * 3 + j] = True
                else:
                    return count
    return count


@njit(cache=True)
def usable(g, t, i, p, h, k, row):
    """An ability not yet used, with something to act on and its cost affordable (ruling 25)."""
    if rd(g, F_USED, i, p * 10 + h * 2 + k):
        return False
    kind = _kind(g, t, i, p, h, k)
    coins = rd(g, F_COINS, i, p)
    if kind == K_WORKERS:
        return _count_cities(g, t, i, p, 0, False) > 0
    if kind == K_BRIDGE:
        for c in range(NC):
            if _bridge_cell(g, t, i, p, c):
                return True
        return False
    if kind == K_TRAIN:
        return _train_sources(g, t, i, p, row, False) > 0
    dirty, lands = False, 0
    for c in range(NC):
        if _is_land_cell(g, t, i, p, c):
            lands += 1
            if _grid(g, F_GRID_CUBES, i, p, c):
                dirty = True
    if kind == K_TRUCK:
        return dirty and lands >= 2
    if kind == K_COLLECTION:
        return dirty
    if kind == K_RECYCLING:
        return dirty and coins >= _ability_cost(g, t, i, p, h, k)
    if kind == K_CLEANUP:
        return coins >= _ability_cost(g, t, i, p, h, k) and rd(g, F_POLLUTION, i, p) < t[X_POLL_HIGH]
    if kind == K_QOL:
        return coins >= _ability_cost(g, t, i, p, h, k)
    return False


@njit(cache=True)
def _pay_coins(g, i, p, amount):
    add(g, F_COINS, i, p, -amount)
    add(g, F_LEDGER, i, p * 6 + L_COINS_OUT, amount)


@njit(cache=True)
def _remove_cube(g, i, p, cell):
    add(g, F_GRID_CUBES, i, p * NC + cell, -1)
    add(g, F_LEDGER, i, p * 6 + L_CUBES_OUT, 1)


@njit(cache=True)
def use_ability(g, t, i, p, h, k):
    kind = _kind(g, t, i, p, h, k)
    if kind == K_CLEANUP:
        _pay_coins(g, i, p, _ability_cost(g, t, i, p, h, k))
        move_pollution(g, t, i, p, 1)
        wr(g, F_USED, i, p * 10 + h * 2 + k, 1)
    elif kind == K_QOL:
        _pay_coins(g, i, p, _ability_cost(g, t, i, p, h, k))
        add(g, F_VP, i, p * 8 + S_QOL, tb(t, X_ABIL_VP, rd(g, F_TECHS, i, p * 5 + h) * MAX_AB + k))
        wr(g, F_USED, i, p * 10 + h * 2 + k, 1)
    else:
        _set_sel(g, i, h, k, 0, 2)
        wr(g, F_PHASE, i, 0, USE_TARGET)


@njit(cache=True)
def _finish_use(g, i, p):
    wr(g, F_USED, i, p * 10 + rd(g, F_SEL, i, 0) * 2 + rd(g, F_SEL, i, 1), 1)
    _set_sel(g, i, 0, 0, 0, 0)
    wr(g, F_PHASE, i, 0, USE)


@njit(cache=True)
def use_target(g, t, i, p, target):
    h, k = rd(g, F_SEL, i, 0), rd(g, F_SEL, i, 1)
    kind = _kind(g, t, i, p, h, k)
    if kind == K_WORKERS:
        cell, city = target // 3, target % 3
        wr(g, F_GRID_CITIZENS, i, p * NC + cell, _grid(g, F_GRID_CITIZENS, i, p, cell) | (1 << city))
        _finish_use(g, i, p)
    elif kind == K_COLLECTION or kind == K_RECYCLING:
        if kind == K_RECYCLING:
            _pay_coins(g, i, p, _ability_cost(g, t, i, p, h, k))
        _remove_cube(g, i, p, target)
        _finish_use(g, i, p)
    else:
        _set_sel(g, i, h, k, target, 3)
        wr(g, F_PHASE, i, 0, BRIDGE if kind == K_BRIDGE else USE_TARGET2)


@njit(cache=True)
def use_target2(g, t, i, p, target):
    h, k, first = rd(g, F_SEL, i, 0), rd(g, F_SEL, i, 1), rd(g, F_SEL, i, 2)
    if _kind(g, t, i, p, h, k) == K_TRAIN:
        cell, city = first // 3, first % 3
        wr(g, F_GRID_CITIZENS, i, p * NC + cell, _grid(g, F_GRID_CITIZENS, i, p, cell) & ~(1 << city))
        cell2, city2 = target // 3, target % 3
        wr(g, F_GRID_CITIZENS, i, p * NC + cell2, _grid(g, F_GRID_CITIZENS, i, p, cell2) | (1 << city2))
    else:
        add(g, F_GRID_CUBES, i, p * NC + first, -1)
        add(g, F_GRID_CUBES, i, p * NC + target, 1)
    _finish_use(g, i, p)


@njit(cache=True)
def place_bridge(g, t, i, p, placement):
    wr(g, F_GRID_BRIDGE, i, p * NC + rd(g, F_SEL, i, 2), placement)
    rebuild_network(g, t, i, p)
    _finish_use(g, i, p)


# ============================================================================================== phase 5
@njit(cache=True)
def produce(g, t, i):
    n = rd(g, F_NUM_PLAYERS, i, 0)
    prod = np.zeros(3, np.int64)
    for p in range(n):
        production(g, t, i, p, prod)
        for r in range(3):
            wr(g, F_PRODUCTION_NOW, i, p * 3 + r, prod[r])
        if rd(g, F_ROUND, i, 0) <= LAST_FULL_ROUND:
            add(g, F_COINS, i, p, prod[0])
            add(g, F_SCIENCE, i, p, prod[1])
            add(g, F_LEDGER, i, p * 6 + L_COINS_IN, prod[0])
            add(g, F_LEDGER, i, p * 6 + L_SCIENCE_IN, prod[1])
        add(g, F_VP, i, p * 8 + S_PRODUCTION, prod[2])
    wr(g, F_MAINT_POS, i, 0, 0)
    begin_recycling(g, i, _maint_seat(g, i, 0))


@njit(cache=True)
def begin_recycling(g, i, p):
    wr(g, F_REMOVED_LEN, i, 0, 0)
    wr(g, F_PHASE, i, 0, RECYCLE)
    wr(g, F_TO_MOVE, i, 0, p)


@njit(cache=True)
def recycling_reaches(g, t, i, p, centre, city, target):
    """geometry.recycling_reaches (rulings 3, 4)."""
    if target == centre:
        return True
    for side in range(4):
        if _neighbour(g, i, p, centre, side) == target:
            return _reach(g, t, i, p, centre, city, side) and _railed(g, t, i, p, target, (side + 2) % 4)
    return False


@njit(cache=True)
def recycling_targets(g, t, i, p, row):
    """Game.recycling_targets: cells whose cube, with the removals so far, can each get a distinct working centre
    that reaches it (ruling 28); marked in ``row``."""
    NL = t[X_NLAND]
    centres = np.zeros(3 * NC, np.int64)  # cell * 3 + city
    nc = 0
    for c in range(NC):
        code = _grid(g, F_GRID_TILE, i, p, c)
        if code < 0 or code >= NL:
            continue
        for j in range(tb(t, X_NCITIES, code)):
            if _occupied(g, i, p, c, j) and tb(t, X_CITY_RECYCLE, code * 3 + j):
                centres[nc] = c * 3 + j
                nc += 1
    m = rd(g, F_REMOVED_LEN, i, 0)
    if m >= nc:
        return
    cubes = np.zeros(m + 1, np.int64)
    for k in range(m):
        cubes[k] = rd(g, F_REMOVED, i, k)
    for c in range(NC):
        if not _is_land_cell(g, t, i, p, c) or not _grid(g, F_GRID_CUBES, i, p, c):
            continue
        cubes[m] = c
        if _matchable(g, t, i, p, cubes, centres[:nc]):
            row[A.TILE + c] = True


@njit(cache=True)
def _matchable(g, t, i, p, cubes, centres):
    """Can each cube get a distinct centre that reaches it? (augmenting paths, breadth first)"""
    m, nc = cubes.shape[0], centres.shape[0]
    reach = np.zeros((m, nc), np.bool_)
    for a in range(m):
        for b in range(nc):
            reach[a, b] = recycling_reaches(g, t, i, p, centres[b] // 3, centres[b] % 3, cubes[a])
    owner = np.full(nc, -1, np.int64)  # the cube each centre serves
    held = np.full(m, -1, np.int64)  # the centre each cube has
    came = np.zeros(nc, np.int64)
    queue = np.zeros(nc, np.int64)
    for a in range(m):
        seen = np.zeros(nc, np.bool_)
        head, tail = 0, 0
        for b in range(nc):
            if reach[a, b]:
                seen[b] = True
                came[b] = a
                queue[tail] = b
                tail += 1
        found = -1
        while head < tail:
            b = queue[head]
            head += 1
            if owner[b] < 0:
                found = b
                break
            a2 = owner[b]
            for b2 in range(nc):
                if reach[a2, b2] and not seen[b2]:
                    seen[b2] = True
                    came[b2] = a2
                    queue[tail] = b2
                    tail += 1
        if found < 0:
            return False
        b = found
        while True:
            a2 = came[b]
            prev = held[a2]
            owner[b] = a2
            held[a2] = b
            if a2 == a:
                break
            b = prev
    return True


@njit(cache=True)
def end_recycling(g, t, i):
    k = rd(g, F_MAINT_POS, i, 0) + 1
    wr(g, F_MAINT_POS, i, 0, k)
    if k < rd(g, F_NUM_PLAYERS, i, 0):
        begin_recycling(g, i, _maint_seat(g, i, k))
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


# ============================================================================================== phase 6
@njit(cache=True)
def _vp_total(g, i, p):
    s = 0
    for k in range(8):
        s += rd(g, F_VP, i, p * 8 + k)
    return s


@njit(cache=True)
def bonus_scoring(g, t, i):
    n = rd(g, F_NUM_PLAYERS, i, 0)
    r = rd(g, F_ROUND, i, 0)
    r2, r4 = rd(g, F_R2, i, 0), rd(g, F_R4, i, 0)
    for p in range(n):
        coins = rd(g, F_PRODUCTION_NOW, i, p * 3)
        science = rd(g, F_PRODUCTION_NOW, i, p * 3 + 1)
        vp = rd(g, F_PRODUCTION_NOW, i, p * 3 + 2)
        if r == 2 and r2 >= 0:
            if r2 == 0:
                v = coins + science
            elif r2 == 1:
                v = _vp_total(g, i, p)
            else:
                v = R2_CARD_C_CLEAN_TILE * clean_land_tiles(g, t, i, p)
            add(g, F_VP, i, p * 8 + S_ROUND2, v)
        elif r == 4 and r4 >= 0:
            k = rd(g, F_POLLUTION, i, p) - t[X_POLL_LOW]
            if r4 == 0:
                v = R4_CARD_A_PER_CENTRE * _count_cities(g, t, i, p, 1, True) + coins
            elif r4 == 1:
                v = max(0, tb(t, X_POLL_FINAL, k)) + vp
            else:
                v = tb(t, X_CLEAN_TILE, k) * clean_land_tiles(g, t, i, p) - total_cubes(g, i, p) + science
            add(g, F_VP, i, p * 8 + S_ROUND4, v)
    if r == ROUNDS:
        final_scoring(g, t, i)


@njit(cache=True)
def final_scoring(g, t, i):
    n = rd(g, F_NUM_PLAYERS, i, 0)
    for p in range(n):
        k = rd(g, F_POLLUTION, i, p) - t[X_POLL_LOW]
        tiles = 0
        for c in range(NC):
            if _is_land_cell(g, t, i, p, c):
                cubes = _grid(g, F_GRID_CUBES, i, p, c)
                tiles += tb(t, X_CLEAN_TILE, k) if cubes == 0 else -EXTRA_CUBE_PENALTY * max(0, cubes - 1)
        add(g, F_VP, i, p * 8 + S_LAND, tiles)
        add(g, F_VP, i, p * 8 + S_POLLUTION, tb(t, X_POLL_FINAL, k))
    rank_bonus(g, i, F_COINS, S_COINS)
    rank_bonus(g, i, F_SCIENCE, S_SCIENCE)


@njit(cache=True)
def rank_bonus(g, i, field, source):
    """Coins or science ranking: tied players share their places' awards rounded down; 0 below 1 (ruling 31)."""
    n = rd(g, F_NUM_PLAYERS, i, 0)
    awards = np.zeros(n, np.int64)
    for k in range(n - 1):
        awards[k] = RANK_AWARDS[k]
    for p in range(n):
        h = rd(g, field, i, p)
        above, tied = 0, 0
        for q in range(n):
            x = rd(g, field, i, q)
            if x > h:
                above += 1
            elif x == h:
                tied += 1
        s = 0
        for k in range(above, above + tied):
            s += awards[k]
        add(g, F_VP, i, p * 8 + source, s // tied if h >= 1 else 0)


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
        base = _bid_base(g, i)
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
        for c in range(_slots(g, i, p)):
            for d in range(8):
                if _placement_named(g, i, p, c, d):
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
        kind = _kind(g, t, i, p, rd(g, F_SEL, i, 0), rd(g, F_SEL, i, 1))
        for c in range(NC):
            if kind == K_WORKERS:
                if _is_land_cell(g, t, i, p, c):
                    for j in range(tb(t, X_NCITIES, _grid(g, F_GRID_TILE, i, p, c))):
                        if not _occupied(g, i, p, c, j):
                            row[A.CITY + c * 3 + j] = True
            elif kind == K_BRIDGE:
                if _bridge_cell(g, t, i, p, c):
                    row[A.TILE + c] = True
            elif kind != K_TRAIN:
                if _is_land_cell(g, t, i, p, c) and _grid(g, F_GRID_CUBES, i, p, c):
                    row[A.TILE + c] = True
        if kind == K_TRAIN:
            _train_sources(g, t, i, p, row, True)
    elif ph == USE_TARGET2:
        first = rd(g, F_SEL, i, 2)
        if _kind(g, t, i, p, rd(g, F_SEL, i, 0), rd(g, F_SEL, i, 1)) == K_TRAIN:
            _train_from(g, t, i, p, first // 3, first % 3, row, True)
        else:
            for c in range(NC):
                if _is_land_cell(g, t, i, p, c) and c != first:
                    row[A.TILE + c] = True
    elif ph == BRIDGE:
        for b in range(tb(t, X_NBRIDGES, _grid(g, F_GRID_TILE, i, p, rd(g, F_SEL, i, 2)))):
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
            bid(g, t, i, p, _bid_base(g, i) + action - A.BID, action - A.BID == NUM_BIDS - 1)
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
                _set_sel(g, i, code, 0, 0, 1)
                break
        wr(g, F_PHASE, i, 0, ATTACH_CELL)
    elif ph == ATTACH_CELL:
        _set_sel(g, i, rd(g, F_SEL, i, 0), action - A.PLACE, 0, 2)
        wr(g, F_PHASE, i, 0, ATTACH_ROTATE)
    elif ph == ATTACH_ROTATE:
        placement = rd(g, F_SEL, i, 1)
        _set_sel(g, i, rd(g, F_SEL, i, 0), 0, 0, 1)
        attach_tile(g, t, i, p, placement, action - A.ROTATE)
    elif ph == CITIZEN:
        k = action - A.CITY
        cell = k // 3
        wr(g, F_GRID_CITIZENS, i, p * NC + cell, _grid(g, F_GRID_CITIZENS, i, p, cell) | (1 << (k % 3)))
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
            _remove_cube(g, i, p, cell)
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
    return _vp_total(g, i, p) * 100000 - total_cubes(g, i, p)


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
        o[t[ob + O_SEAT_VP] + rq] = _vp_total(g, i, q) / 50
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
        o[k + 2] = _count_land(g, t, i, q) / 10
        o[k + 3] = clean_land_tiles(g, t, i, q) / 10
        o[k + 4] = _count_cities(g, t, i, q, 0, False) / 10
        o[k + 5] = _count_cities(g, t, i, q, 1, True) / 5
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
            code = _grid(g, F_GRID_TILE, i, q, c)
            if code < 0:
                continue
            cf = grid + c * CELL_FEATURES
            src = t[X_CELL_ROW] + _combo_at(g, i, q, c) * CELL_FEATURES
            for e in range(CELL_FEATURES):
                o[cf + e] = tf[src + e]
            o[cf + 4] = _grid(g, F_GRID_NEW, i, q, c)
            o[cf + 5] = _grid(g, F_GRID_CUBES, i, q, c) / 4
            if code < NL:
                for j in range(tb(t, X_NCITIES, code)):
                    o[cf + 19 + 6 * j] = _occupied(g, i, q, c, j)
            o[cf + 54] = _grid(g, F_GRID_X, i, q, c) / 8
            o[cf + 55] = _grid(g, F_GRID_Y, i, q, c) / 8
    at = t[ob + O_SELECTION]
    cell, city = -1, -1
    sel_len = rd(g, F_SEL_LEN, i, 0)
    if ph == CITIZEN:
        cell = rd(g, F_SEL, i, 1)
    elif ph == BRIDGE or (ph == USE_TARGET2 and sel_len == 3):
        first = rd(g, F_SEL, i, 2)
        if _kind(g, t, i, to_move, rd(g, F_SEL, i, 0), rd(g, F_SEL, i, 1)) == K_TRAIN:
            cell, city = first // 3, first % 3
        else:
            cell = first
    if ph == ATTACH_ROTATE:  # the cell the tile goes on: beside slot sel // 8 toward sel % 8
        placement = rd(g, F_SEL, i, 1)
        anchor = placement // 8
        o[at] = 1
        o[at + 1] = (_grid(g, F_GRID_X, i, to_move, anchor) + DIRS[placement % 8, 0]) / 8
        o[at + 2] = (_grid(g, F_GRID_Y, i, to_move, anchor) + DIRS[placement % 8, 1]) / 8
    elif cell >= 0:
        o[at] = 1
        o[at + 1] = _grid(g, F_GRID_X, i, to_move, cell) / 8
        o[at + 2] = _grid(g, F_GRID_Y, i, to_move, cell) / 8
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
            out[i, q] = _vp_total(g, i, q)
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


def sources() -> list[str]:
    """The files whose numbers the compiled code holds: this one, the rules, the state's fields and phases, the
    chance purposes, the action encoding, the observation's sizes and the components' constants."""
    names = ("rules", "state", "chance", "actions", "observation", "components", "geometry")
    return [__file__, sys.modules[key_one.__module__].__file__] + [sys.modules[f"{__package__}.{x}"].__file__
                                                                   for x in names]  # fmt: skip


def dispatchers() -> list:
    """This module's compiled functions, and core.chance's that it calls."""
    own = [f for f in globals().values() if hasattr(f, "_cache") and getattr(f, "__module__", None) == __name__]
    return own + [splitmix64_one, key_one]


def entries() -> list:
    """The compiled functions called from Python."""
    return [check_range, step_range, mask_range, run_parallel, new_games, rebuild_rows, observe_rows, scores_rows,
            sample_rows]  # fmt: skip
