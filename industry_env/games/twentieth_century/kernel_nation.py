"""20th Century's nations, compiled (the reference's :mod:`.nation`): a nation's grid of tiles, its cities and
production, its rail network kept as it grows, and the pollution track."""


from __future__ import annotations

from ...core.numba_cache import njit
from .components import (
    MAX_BRIDGES,
)
from .kernel_layout import (
    DIRS,
    F_GRID_BRIDGE,
    F_GRID_CITIZENS,
    F_GRID_CUBES,
    F_GRID_ROT,
    F_GRID_TILE,
    F_GRID_X,
    F_GRID_Y,
    F_NETWORK,
    F_POLLUTION,
    LC,
    NC,
    NODES,
    STEPS,
    X_BONUS,
    X_BUILDING,
    X_CITY_PROD,
    X_CITY_RECYCLE,
    X_LC_CITIES,
    X_LC_SIDES,
    X_NCITIES,
    X_NLAND,
    X_NLC,
    X_POLL_HIGH,
    X_POLL_LOW,
    X_RAILED,
    X_REACH,
    rd,
    tb,
    wr,
)


# ============================================================================================== the nation
@njit(cache=True)
def cell_value(g, f, i, p, c):
    return rd(g, f, i, p * NC + c)


@njit(cache=True)
def _slot_at(g, i, p, x, y):
    """The slot of seat p's tile on cell (x, y), -1 if it is empty (slots fill in order from 0)."""
    for c in range(NC):
        if cell_value(g, F_GRID_TILE, i, p, c) < 0:
            return -1
        if cell_value(g, F_GRID_X, i, p, c) == x and cell_value(g, F_GRID_Y, i, p, c) == y:
            return c
    return -1


@njit(cache=True)
def neighbour(g, i, p, c, side):
    """The slot of the tile across side ``side`` of slot c's tile, -1 none."""
    return _slot_at(g, i, p, cell_value(g, F_GRID_X, i, p, c) + STEPS[side, 0],
                    cell_value(g, F_GRID_Y, i, p, c) + STEPS[side, 1])


@njit(cache=True)
def slots(g, i, p):
    """How many tiles seat p's nation holds."""
    for c in range(NC):
        if cell_value(g, F_GRID_TILE, i, p, c) < 0:
            return c
    return NC


@njit(cache=True)
def placement_named(g, i, p, c, d):
    """Whether the cell beside slot c toward direction d is empty and c is the lowest slot touching it: the one
    name of a cell a tile may be attached on (geometry.placements)."""
    x, y = cell_value(g, F_GRID_X, i, p, c) + DIRS[d, 0], cell_value(g, F_GRID_Y, i, p, c) + DIRS[d, 1]
    if _slot_at(g, i, p, x, y) >= 0:
        return False
    for q in range(c):
        if abs(cell_value(g, F_GRID_X, i, p, q) - x) <= 1 and abs(cell_value(g, F_GRID_Y, i, p, q) - y) <= 1:
            return False
    return True


@njit(cache=True)
def is_land_cell(g, t, i, p, c):
    code = cell_value(g, F_GRID_TILE, i, p, c)
    return code >= 0 and code < t[X_NLAND]


@njit(cache=True)
def combo_at(g, i, p, c):
    code = cell_value(g, F_GRID_TILE, i, p, c)
    return ((code * 4 + cell_value(g, F_GRID_ROT, i, p, c)) * (MAX_BRIDGES + 1)
            + cell_value(g, F_GRID_BRIDGE, i, p, c) + 1)


@njit(cache=True)
def tile_reaches(g, t, i, p, c, element, side):
    """geometry.reaches of the tile on cell c (element: a city 0-2, or 3 the building)."""
    return tb(t, X_REACH, combo_at(g, i, p, c) * 16 + element * 4 + side) != 0


@njit(cache=True)
def tile_railed(g, t, i, p, c, side):
    return tb(t, X_RAILED, combo_at(g, i, p, c) * 4 + side) != 0


@njit(cache=True)
def citizen_at(g, i, p, c, j):
    return (cell_value(g, F_GRID_CITIZENS, i, p, c) >> j) & 1


@njit(cache=True)
def total_cubes(g, i, p):
    s = 0
    for c in range(NC):
        s += cell_value(g, F_GRID_CUBES, i, p, c)
    return s


@njit(cache=True)
def count_land(g, t, i, p):
    s = 0
    for c in range(NC):
        if is_land_cell(g, t, i, p, c):
            s += 1
    return s


@njit(cache=True)
def clean_land_tiles(g, t, i, p):
    s = 0
    for c in range(NC):
        if is_land_cell(g, t, i, p, c) and cell_value(g, F_GRID_CUBES, i, p, c) == 0:
            s += 1
    return s


@njit(cache=True)
def count_cities(g, t, i, p, occupied, recycling_only):
    """Cities of the nation, occupied (1) or free (0); only recycling ones if asked."""
    s = 0
    for c in range(NC):
        if not is_land_cell(g, t, i, p, c):
            continue
        code = cell_value(g, F_GRID_TILE, i, p, c)
        for j in range(tb(t, X_NCITIES, code)):
            if citizen_at(g, i, p, c, j) == occupied and (not recycling_only or tb(t, X_CITY_RECYCLE, code * 3 + j)):
                s += 1
    return s


@njit(cache=True)
def institution_bonus(g, t, i, p, inst, land, city):
    """geometry.institution_bonus: edge neighbours, the city and the building reaching their shared side."""
    for side in range(4):
        if neighbour(g, i, p, land, side) == inst:
            return tile_reaches(g, t, i, p, land, city, side) and tile_reaches(g, t, i, p, inst, 3, (side + 2) % 4)
    return False


@njit(cache=True)
def production(g, t, i, p, out):
    """Game.production: the markers (coins, science, VP) of every occupied city, institutions' bonuses added."""
    NL = t[X_NLAND]
    out[0] = 0
    out[1] = 0
    out[2] = 0
    for c in range(NC):
        code = cell_value(g, F_GRID_TILE, i, p, c)
        if code < 0 or code >= NL:
            continue
        for j in range(tb(t, X_NCITIES, code)):
            if not citizen_at(g, i, p, c, j):
                continue
            for r in range(3):
                out[r] += tb(t, X_CITY_PROD, code * 9 + j * 3 + r)
            for q in range(NC):
                inst = cell_value(g, F_GRID_TILE, i, p, q)
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
    q = combo_at(g, i, p, c)
    for side in range(last_side + 1):
        other = neighbour(g, i, p, c, side)
        if other < 0 or cell_value(g, F_GRID_TILE, i, p, other) < 0:
            continue
        q2 = combo_at(g, i, p, other)
        for k in range(tb(t, X_NLC, q)):
            if not (tb(t, X_LC_SIDES, q * LC + k) >> side) & 1:
                continue
            for k2 in range(tb(t, X_NLC, q2)):
                if (tb(t, X_LC_SIDES, q2 * LC + k2) >> ((side + 2) % 4)) & 1:
                    _union(g, i, p, other * LC + k2, c * LC + k)


@njit(cache=True)
def join_tile(g, t, i, p, c):
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
        if cell_value(g, F_GRID_TILE, i, p, c) >= 0:
            _fresh_nodes(g, i, p, c)
    for c in range(NC):
        if cell_value(g, F_GRID_TILE, i, p, c) >= 0:
            _join_sides(g, t, i, p, c, 3)


@njit(cache=True)
def train_connected(g, t, i, p, c, j, c2, j2):
    """geometry.train_connected: the two cities share a network node's root."""
    q, q2 = combo_at(g, i, p, c), combo_at(g, i, p, c2)
    for k in range(tb(t, X_NLC, q)):
        if not (tb(t, X_LC_CITIES, q * LC + k) >> j) & 1:
            continue
        root = _node(g, i, p, c * LC + k)
        for k2 in range(tb(t, X_NLC, q2)):
            if (tb(t, X_LC_CITIES, q2 * LC + k2) >> j2) & 1 and _node(g, i, p, c2 * LC + k2) == root:
                return True
    return False


@njit(cache=True)
def move_pollution(g, t, i, p, steps):
    v = rd(g, F_POLLUTION, i, p) + steps
    wr(g, F_POLLUTION, i, p, max(t[X_POLL_LOW], min(t[X_POLL_HIGH], v)))
