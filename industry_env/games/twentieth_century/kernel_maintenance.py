"""20th Century's Fase 4, compiled (the reference's :mod:`.maintenance`): each player's maintenance in turn,
attaching tiles, garbage, and the technologies' abilities."""


from __future__ import annotations

from ...core.numba_cache import njit
from . import actions as A
from .kernel_layout import (
    ATTACH_PICK,
    BRIDGE,
    CITIZEN,
    DIRS,
    F_COINS,
    F_GRID_BRIDGE,
    F_GRID_CITIZENS,
    F_GRID_CUBES,
    F_GRID_NEW,
    F_GRID_ROT,
    F_GRID_TILE,
    F_GRID_X,
    F_GRID_Y,
    F_LEDGER,
    F_MAINT_FIRST,
    F_MAINT_POS,
    F_NEXT_LEADER,
    F_NUM_PLAYERS,
    F_PENDING,
    F_PENDING_CUBES,
    F_PENDING_LEN,
    F_PHASE,
    F_POLLUTION,
    F_SEL,
    F_SEL_LEN,
    F_TECHS,
    F_TECHS_LEN,
    F_TO_MOVE,
    F_USED,
    F_VP,
    GARBAGE,
    K_BRIDGE,
    K_CLEANUP,
    K_COLLECTION,
    K_QOL,
    K_RECYCLING,
    K_TRAIN,
    K_TRUCK,
    K_WORKERS,
    L_COINS_OUT,
    L_CUBES_OUT,
    MAX_AB,
    MULTI_FROM,
    NC,
    S_QOL,
    USE,
    USE_TARGET,
    USE_TARGET2,
    X_ABIL_COST,
    X_ABIL_KIND,
    X_ABIL_VP,
    X_NABIL,
    X_NBRIDGES,
    X_NCITIES,
    X_NLAND,
    X_POLL_HIGH,
    add,
    rd,
    tb,
    wr,
)
from .kernel_nation import (
    cell_value,
    citizen_at,
    count_cities,
    is_land_cell,
    join_tile,
    move_pollution,
    rebuild_network,
    slots,
    train_connected,
)


# ============================================================================================== phase 4
@njit(cache=True)
def maint_seat(g, i, k):
    return (rd(g, F_MAINT_FIRST, i, 0) + k) % rd(g, F_NUM_PLAYERS, i, 0)


@njit(cache=True)
def start_maintenance(g, t, i):
    wr(g, F_MAINT_FIRST, i, 0, rd(g, F_NEXT_LEADER, i, 0))
    wr(g, F_MAINT_POS, i, 0, 0)
    begin_maintenance(g, t, i, maint_seat(g, i, 0))


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
def set_sel(g, i, a, b, c, length):
    wr(g, F_SEL, i, 0, a)
    wr(g, F_SEL, i, 1, b)
    wr(g, F_SEL, i, 2, c)
    wr(g, F_SEL_LEN, i, 0, length)


@njit(cache=True)
def attach_tile(g, t, i, p, placement, rotation):
    """Aggancio: the tile on an empty cell touching the nation (slot x 8 + direction of a tile beside it), in the
    nation's next slot, a land tile with its purchase cubes."""
    code = rd(g, F_SEL, i, 0)
    cell = slots(g, i, p)
    anchor, d = placement // 8, placement % 8
    wr(g, F_GRID_X, i, p * NC + cell, cell_value(g, F_GRID_X, i, p, anchor) + DIRS[d, 0])
    wr(g, F_GRID_Y, i, p * NC + cell, cell_value(g, F_GRID_Y, i, p, anchor) + DIRS[d, 1])
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
    join_tile(g, t, i, p, cell)
    if land:
        set_sel(g, i, code, cell, 0, 2)
        wr(g, F_PHASE, i, 0, CITIZEN)
    else:
        next_maintenance_step(g, i, p)


@njit(cache=True)
def garbage_target(g, t, i, p, c):
    """Ruling 15: the land tiles bought this round, else any land tile."""
    if not is_land_cell(g, t, i, p, c):
        return False
    any_new = False
    for q in range(NC):
        if is_land_cell(g, t, i, p, q) and cell_value(g, F_GRID_NEW, i, p, q):
            any_new = True
            break
    return not any_new or cell_value(g, F_GRID_NEW, i, p, c) != 0


# ---------------------------------------------------------------------------------------------- technologies
@njit(cache=True)
def ability_kind(g, t, i, p, h, k):
    return tb(t, X_ABIL_KIND, rd(g, F_TECHS, i, p * 5 + h) * MAX_AB + k)


@njit(cache=True)
def _ability_cost(g, t, i, p, h, k):
    return tb(t, X_ABIL_COST, rd(g, F_TECHS, i, p * 5 + h) * MAX_AB + k)


@njit(cache=True)
def bridge_cell(g, t, i, p, c):
    """A tile where a bridge still fits (ruling 6)."""
    code = cell_value(g, F_GRID_TILE, i, p, c)
    return code >= 0 and cell_value(g, F_GRID_BRIDGE, i, p, c) < 0 and tb(t, X_NBRIDGES, code) > 0


@njit(cache=True)
def train_from(g, t, i, p, c, j, row, write):
    """Free cities the citizen on (c, j) may move to by Train; marked in ``row`` if ``write``. Returns how many."""
    NL = t[X_NLAND]
    count = 0
    for c2 in range(NC):
        code = cell_value(g, F_GRID_TILE, i, p, c2)
        if code < 0 or code >= NL:
            continue
        for j2 in range(tb(t, X_NCITIES, code)):
            if not citizen_at(g, i, p, c2, j2) and train_connected(g, t, i, p, c, j, c2, j2):
                count += 1
                if write:
                    row[A.CITY + c2 * 3 + j2] = True
    return count


@njit(cache=True)
def train_sources(g, t, i, p, row, write):
    """Occupied cities with a Train move (marked in ``row`` if ``write``); returns how many."""
    NL = t[X_NLAND]
    count = 0
    for c in range(NC):
        code = cell_value(g, F_GRID_TILE, i, p, c)
        if code < 0 or code >= NL:
            continue
        for j in range(tb(t, X_NCITIES, code)):
            if citizen_at(g, i, p, c, j) and train_from(g, t, i, p, c, j, row, False):
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
    kind = ability_kind(g, t, i, p, h, k)
    coins = rd(g, F_COINS, i, p)
    if kind == K_WORKERS:
        return count_cities(g, t, i, p, 0, False) > 0
    if kind == K_BRIDGE:
        for c in range(NC):
            if bridge_cell(g, t, i, p, c):
                return True
        return False
    if kind == K_TRAIN:
        return train_sources(g, t, i, p, row, False) > 0
    dirty, lands = False, 0
    for c in range(NC):
        if is_land_cell(g, t, i, p, c):
            lands += 1
            if cell_value(g, F_GRID_CUBES, i, p, c):
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
def remove_cube(g, i, p, cell):
    add(g, F_GRID_CUBES, i, p * NC + cell, -1)
    add(g, F_LEDGER, i, p * 6 + L_CUBES_OUT, 1)


@njit(cache=True)
def use_ability(g, t, i, p, h, k):
    kind = ability_kind(g, t, i, p, h, k)
    if kind == K_CLEANUP:
        _pay_coins(g, i, p, _ability_cost(g, t, i, p, h, k))
        move_pollution(g, t, i, p, 1)
        wr(g, F_USED, i, p * 10 + h * 2 + k, 1)
    elif kind == K_QOL:
        _pay_coins(g, i, p, _ability_cost(g, t, i, p, h, k))
        add(g, F_VP, i, p * 8 + S_QOL, tb(t, X_ABIL_VP, rd(g, F_TECHS, i, p * 5 + h) * MAX_AB + k))
        wr(g, F_USED, i, p * 10 + h * 2 + k, 1)
    else:
        set_sel(g, i, h, k, 0, 2)
        wr(g, F_PHASE, i, 0, USE_TARGET)


@njit(cache=True)
def _finish_use(g, i, p):
    wr(g, F_USED, i, p * 10 + rd(g, F_SEL, i, 0) * 2 + rd(g, F_SEL, i, 1), 1)
    set_sel(g, i, 0, 0, 0, 0)
    wr(g, F_PHASE, i, 0, USE)


@njit(cache=True)
def use_target(g, t, i, p, target):
    h, k = rd(g, F_SEL, i, 0), rd(g, F_SEL, i, 1)
    kind = ability_kind(g, t, i, p, h, k)
    if kind == K_WORKERS:
        cell, city = target // 3, target % 3
        wr(g, F_GRID_CITIZENS, i, p * NC + cell, cell_value(g, F_GRID_CITIZENS, i, p, cell) | (1 << city))
        _finish_use(g, i, p)
    elif kind == K_COLLECTION or kind == K_RECYCLING:
        if kind == K_RECYCLING:
            _pay_coins(g, i, p, _ability_cost(g, t, i, p, h, k))
        remove_cube(g, i, p, target)
        _finish_use(g, i, p)
    else:
        set_sel(g, i, h, k, target, 3)
        wr(g, F_PHASE, i, 0, BRIDGE if kind == K_BRIDGE else USE_TARGET2)


@njit(cache=True)
def use_target2(g, t, i, p, target):
    h, k, first = rd(g, F_SEL, i, 0), rd(g, F_SEL, i, 1), rd(g, F_SEL, i, 2)
    if ability_kind(g, t, i, p, h, k) == K_TRAIN:
        cell, city = first // 3, first % 3
        wr(g, F_GRID_CITIZENS, i, p * NC + cell, cell_value(g, F_GRID_CITIZENS, i, p, cell) & ~(1 << city))
        cell2, city2 = target // 3, target % 3
        wr(g, F_GRID_CITIZENS, i, p * NC + cell2, cell_value(g, F_GRID_CITIZENS, i, p, cell2) | (1 << city2))
    else:
        add(g, F_GRID_CUBES, i, p * NC + first, -1)
        add(g, F_GRID_CUBES, i, p * NC + target, 1)
    _finish_use(g, i, p)


@njit(cache=True)
def place_bridge(g, t, i, p, placement):
    wr(g, F_GRID_BRIDGE, i, p * NC + rd(g, F_SEL, i, 2), placement)
    rebuild_network(g, t, i, p)
    _finish_use(g, i, p)
