"""20th Century's Fase 6, compiled (the reference's :mod:`.scoring`): the bonus and final scorings."""


from __future__ import annotations

import numpy as np

from ...core.numba_cache import njit
from .kernel_layout import (
    F_COINS,
    F_GRID_CUBES,
    F_NUM_PLAYERS,
    F_POLLUTION,
    F_PRODUCTION_NOW,
    F_R2,
    F_R4,
    F_ROUND,
    F_SCIENCE,
    F_VP,
    NC,
    S_COINS,
    S_LAND,
    S_POLLUTION,
    S_ROUND2,
    S_ROUND4,
    S_SCIENCE,
    X_CLEAN_TILE,
    X_POLL_FINAL,
    X_POLL_LOW,
    add,
    rd,
    tb,
)
from .kernel_nation import (
    cell_value,
    clean_land_tiles,
    count_cities,
    is_land_cell,
    total_cubes,
)
from .rules import (
    EXTRA_CUBE_PENALTY,
    R2_CARD_C_CLEAN_TILE,
    R4_CARD_A_PER_CENTRE,
    RANK_AWARDS,
    ROUNDS,
)


# ============================================================================================== phase 6
@njit(cache=True)
def vp_total(g, i, p):
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
                v = vp_total(g, i, p)
            else:
                v = R2_CARD_C_CLEAN_TILE * clean_land_tiles(g, t, i, p)
            add(g, F_VP, i, p * 8 + S_ROUND2, v)
        elif r == 4 and r4 >= 0:
            k = rd(g, F_POLLUTION, i, p) - t[X_POLL_LOW]
            if r4 == 0:
                v = R4_CARD_A_PER_CENTRE * count_cities(g, t, i, p, 1, True) + coins
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
            if is_land_cell(g, t, i, p, c):
                cubes = cell_value(g, F_GRID_CUBES, i, p, c)
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
