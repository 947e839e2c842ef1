"""20th Century's Fase 5, compiled (the reference's :mod:`.production`): production and recycling."""


from __future__ import annotations

import numpy as np

from ...core.numba_cache import njit
from . import actions as A
from .kernel_layout import (
    F_COINS,
    F_GRID_CUBES,
    F_GRID_TILE,
    F_LEDGER,
    F_MAINT_POS,
    F_NUM_PLAYERS,
    F_PHASE,
    F_PRODUCTION_NOW,
    F_REMOVED,
    F_REMOVED_LEN,
    F_ROUND,
    F_SCIENCE,
    F_TO_MOVE,
    F_VP,
    L_COINS_IN,
    L_SCIENCE_IN,
    NC,
    RECYCLE,
    S_PRODUCTION,
    X_CITY_RECYCLE,
    X_NCITIES,
    X_NLAND,
    add,
    rd,
    tb,
    wr,
)
from .kernel_maintenance import (
    maint_seat,
)
from .kernel_nation import (
    cell_value,
    citizen_at,
    is_land_cell,
    neighbour,
    production,
    tile_railed,
    tile_reaches,
)
from .rules import (
    LAST_FULL_ROUND,
)


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
    begin_recycling(g, i, maint_seat(g, i, 0))


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
        if neighbour(g, i, p, centre, side) == target:
            return tile_reaches(g, t, i, p, centre, city, side) and tile_railed(g, t, i, p, target, (side + 2) % 4)
    return False


@njit(cache=True)
def recycling_targets(g, t, i, p, row):
    """Game.recycling_targets: cells whose cube, with the removals so far, can each get a distinct working centre
    that reaches it (ruling 28); marked in ``row``."""
    NL = t[X_NLAND]
    centres = np.zeros(3 * NC, np.int64)  # cell * 3 + city
    nc = 0
    for c in range(NC):
        code = cell_value(g, F_GRID_TILE, i, p, c)
        if code < 0 or code >= NL:
            continue
        for j in range(tb(t, X_NCITIES, code)):
            if citizen_at(g, i, p, c, j) and tb(t, X_CITY_RECYCLE, code * 3 + j):
                centres[nc] = c * 3 + j
                nc += 1
    m = rd(g, F_REMOVED_LEN, i, 0)
    if m >= nc:
        return
    cubes = np.zeros(m + 1, np.int64)
    for k in range(m):
        cubes[k] = rd(g, F_REMOVED, i, k)
    for c in range(NC):
        if not is_land_cell(g, t, i, p, c) or not cell_value(g, F_GRID_CUBES, i, p, c):
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
