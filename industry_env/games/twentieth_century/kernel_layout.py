"""How 20th Century's compiled kernel reads a batch and its components: the State's fields (``F_*``, read and
written by :func:`rd`, :func:`wr`, :func:`add`), the components' tables packed in int64 and float32 arrays (``X_*``,
built by :func:`tables`, read by :func:`tb`), the observation's pieces and the tile combos. :mod:`.kernel`
describes the reading."""


from __future__ import annotations

from collections import namedtuple

import numpy as np

from ...core import uncompiled
from ...core.numba_cache import njit
from ...core.uncompiled import scalars
from . import actions as A
from .components import (
    ERAS,
    INSTITUTIONS,
    KINDS,
    MAX_BRIDGES,
    MAX_CITIES,
    MULTI_USE,
    GameData,
)
from .geometry import DIRECTIONS, MAX_TILES, STEP, Placed, local_components, railed, reaches
from .observation import CELL_FEATURES, MAX_TRACK, TECH_FEATURES, TILE_FEATURES, layout
from .rules import (
    MAX_PLAYERS,
)
from .state import BATCH_FIELDS, PHASES

P = MAX_PLAYERS
NC = MAX_TILES  # a nation's tiles by slot (ruling 18)
LC = 9  # local components a tile may have: its rail pieces (8 at most) and a bridge
NODES = NC * LC
(LEAD, OPEN, BID, TECH, CATASTROPHE, ATTACH_PICK, ATTACH_CELL, ATTACH_ROTATE, CITIZEN, GARBAGE, USE, USE_TARGET,
 USE_TARGET2, BRIDGE, RECYCLE, OVER) = range(len(PHASES))  # fmt: skip
K_WORKERS, K_BRIDGE, K_COLLECTION = KINDS.index("workers"), KINDS.index("bridge"), KINDS.index("separated_collection")
K_TRAIN, K_TRUCK, K_RECYCLING = KINDS.index("train"), KINDS.index("garbage_truck"), KINDS.index("recycling")
K_CLEANUP, K_QOL = KINDS.index("cleanup"), KINDS.index("quality_of_life")
MULTI_FROM = KINDS.index(MULTI_USE[0])  # kinds from here on are multiple-use
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
