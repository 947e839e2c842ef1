"""Age of Industry's networks, coal and iron, compiled (the reference's :mod:`.transport`): sea lanes and
rails, distances, the demand track, where cubes come from and what they cost."""

from __future__ import annotations

import numpy as np

from ...core.numba_cache import njit  # numba's, falling back to no disk cache where none is writable
from .components import IMPORT_SPACE
from .kernel_layout import (
    COAL,
    DEMAND,
    F_DEMAND,
    F_LINK_OWNER,
    F_MONEY,
    F_SPACE_CUBES,
    F_SPACE_FLIPPED,
    F_SPACE_INDUSTRY,
    F_SPACE_NO_FLIP,
    F_SPACE_TILE,
    IRON,
    X_DEMAND_LEN,
    X_DEMAND_PRICES,
    X_IMPORT_SHIP,
    X_LINK_A,
    X_LINK_B,
    X_LINK_SEA,
    X_LOC_DISTANT_PORT,
    X_LOC_HAS_PORT_SPACE,
    X_LOC_LINKS,
    X_LOC_NLK,
    X_LOC_NO_THROUGH,
    X_LOC_NSP,
    X_LOC_SPACES,
    X_NL,
    X_NLOC,
    X_NS,
    X_SHIP_IMPORT,
    X_SHIP_MARKET,
    X_SPACE_LOC,
    X_SPACE_SYMBOL,
    X_TILE_ACCEPTS,
    P,
)
from .kernel_money import (
    flip,
    pay,
)
from .rules import (
    COAL_MINE,
    EMPTY_DEMAND_PRICE,
    IRON_WORKS,
    PORT,
    SHIP,
    SHIP_SPACE,
)


@njit(cache=True, inline="always")
def port_counter_at(g, t, i, loc):
    for j in range(t[t[X_LOC_NSP] + loc]):
        if g.s8[g.at[F_SPACE_INDUSTRY] + i * t[X_NS] + t[t[X_LOC_SPACES] + loc * t[X_LOC_SPACES + 2] + j]] == PORT:
            return True
    return False


@njit(cache=True, inline="always")
def lane_open(g, t, i, link):
    """``Game.lane_open``: a sea lane with its ship (and the port at its other end, where there is a port space)."""
    for side in range(2):
        here = t[t[X_LINK_A] + link] if side == 0 else t[t[X_LINK_B] + link]
        other = t[t[X_LINK_B] + link] if side == 0 else t[t[X_LINK_A] + link]
        if (
            t[t[X_LOC_NSP] + here] == 1
            and t[t[X_SPACE_SYMBOL] + t[t[X_LOC_SPACES] + here * t[X_LOC_SPACES + 2] + 0]] == SHIP_SPACE
        ):
            if g.s8[g.at[F_SPACE_INDUSTRY] + i * t[X_NS] + t[t[X_LOC_SPACES] + here * t[X_LOC_SPACES + 2] + 0]] != SHIP:
                return False
            return (not t[t[X_LOC_HAS_PORT_SPACE] + other]) or port_counter_at(g, t, i, other)
    return False


@njit(cache=True, inline="always")
def link_completed(g, t, i, link):
    if t[t[X_LINK_SEA] + link]:
        return lane_open(g, t, i, link)
    return g.s8[g.at[F_LINK_OWNER] + i * t[X_NL] + link] >= 0


@njit(cache=True)
def distances(g, t, i, a, b, dist):
    """``Game.distances((a,))`` or ``((a, b))`` (b = -1: one start) into ``dist`` (int64[NLOC]), by BFS."""
    queue = np.empty(t[X_NLOC], np.int64)
    for x in range(t[X_NLOC]):
        dist[x] = -1
    dist[a] = 0
    queue[0] = a
    tail = 1
    if b >= 0 and dist[b] < 0:
        dist[b] = 0
        queue[1] = b
        tail = 2
    head = 0
    while head < tail:
        x = queue[head]
        head += 1
        if t[t[X_LOC_NO_THROUGH] + x] and dist[x] > 0:
            continue
        for j in range(t[t[X_LOC_NLK] + x]):
            link = t[t[X_LOC_LINKS] + x * t[X_LOC_LINKS + 2] + j]
            y = t[t[X_LINK_B] + link] if t[t[X_LINK_A] + link] == x else t[t[X_LINK_A] + link]
            if dist[y] < 0 and link_completed(g, t, i, link):
                dist[y] = dist[x] + 1
                queue[tail] = y
                tail += 1


@njit(cache=True)
def demand_track_access(g, t, i, dist):
    for x in range(t[X_NLOC]):
        if dist[x] >= 0 and (t[t[X_LOC_DISTANT_PORT] + x] or port_counter_at(g, t, i, x)):
            return True
    return False


@njit(cache=True, inline="always")
def _holds(g, t, i, r, sp):
    if g.s8[g.at[F_SPACE_CUBES] + i * t[X_NS] + sp] <= 0:
        return False
    if r == COAL:
        return g.s8[g.at[F_SPACE_INDUSTRY] + i * t[X_NS] + sp] == COAL_MINE or t[t[X_SPACE_SYMBOL] + sp] == IMPORT_SPACE
    return g.s8[g.at[F_SPACE_INDUSTRY] + i * t[X_NS] + sp] == IRON_WORKS


@njit(cache=True)
def nearest_sources(g, t, i, r, a, b, out):
    """``Game.nearest_sources(r, starts)`` into ``out`` (DEMAND for the demand track); returns their count."""
    dist = np.empty(t[X_NLOC], np.int64)
    distances(g, t, i, a, b, dist)
    best, n = -1, 0
    for sp in range(t[X_NS]):
        d = dist[t[t[X_SPACE_LOC] + sp]]
        if d < 0 or not _holds(g, t, i, r, sp):
            continue
        if best < 0 or d < best:
            best = d
            out[0] = sp
            n = 1
        elif d == best:
            out[n] = sp
            n += 1
    if n:
        return n
    if demand_track_access(g, t, i, dist):
        out[0] = DEMAND
        return 1
    return 0


@njit(cache=True)
def can_deliver(g, t, i, r, loc, memo):
    """``Game._can_deliver(r, (loc,))``: some cube of ``r`` can reach ``loc`` (``nearest_sources`` is not empty).

    ``memo`` (int8[2 * NLOC], -1 where not yet known) keeps the answers for coal and iron at each location, both
    found by one search when first asked: valid while the network and the cubes do not change."""
    nloc = t[X_NLOC]
    if memo[loc] < 0:
        dist = np.empty(nloc, np.int64)
        distances(g, t, i, loc, np.int64(-1), dist)
        coal = iron = demand_track_access(g, t, i, dist)
        for sp in range(t[X_NS]):
            if dist[t[t[X_SPACE_LOC] + sp]] >= 0:
                coal = coal or _holds(g, t, i, COAL, sp)
                iron = iron or _holds(g, t, i, IRON, sp)
        memo[loc] = 1 if coal else 0
        memo[nloc + loc] = 1 if iron else 0
    return memo[r * nloc + loc] == 1


@njit(cache=True)
def reach_table(g, t, i, memo):
    """:func:`can_deliver` at every location at once, into ``memo`` (for the rails, which ask at many places).

    What the search of :func:`distances` from a location reaches is its component of the network (completed links
    between locations one may pass through) with the no-through locations next to it (reached, never passed); a
    no-through location itself reaches its neighbours and, through each one it may pass, that one's component. A
    resource reaches a location if a space reached holds it, or if a port reached opens the demand track."""
    nloc = t[X_NLOC]
    flags = np.zeros(nloc, np.int64)  # per location: 1 coal held there, 2 iron held there, 4 a port (demand track)
    for sp in range(t[X_NS]):
        x = t[t[X_SPACE_LOC] + sp]
        if _holds(g, t, i, COAL, sp):
            flags[x] |= 1
        if _holds(g, t, i, IRON, sp):
            flags[x] |= 2
    for x in range(nloc):
        if t[t[X_LOC_DISTANT_PORT] + x] or port_counter_at(g, t, i, x):
            flags[x] |= 4
    comp = np.full(nloc, -1, np.int64)
    reach = np.zeros(nloc, np.int64)  # per component: the flags of all it reaches
    queue = np.empty(nloc, np.int64)
    nc = 0
    for start in range(nloc):
        if comp[start] >= 0 or t[t[X_LOC_NO_THROUGH] + start]:
            continue
        comp[start] = nc
        queue[0] = start
        head, tail, f = 0, 1, flags[start]
        while head < tail:
            x = queue[head]
            head += 1
            for j in range(t[t[X_LOC_NLK] + x]):
                link = t[t[X_LOC_LINKS] + x * t[X_LOC_LINKS + 2] + j]
                if not link_completed(g, t, i, link):
                    continue
                y = t[t[X_LINK_B] + link] if t[t[X_LINK_A] + link] == x else t[t[X_LINK_A] + link]
                if t[t[X_LOC_NO_THROUGH] + y]:
                    f |= flags[y]
                elif comp[y] < 0:
                    comp[y] = nc
                    queue[tail] = y
                    tail += 1
                    f |= flags[y]
        reach[nc] = f
        nc += 1
    for x in range(nloc):
        if t[t[X_LOC_NO_THROUGH] + x]:
            f = flags[x]
            for j in range(t[t[X_LOC_NLK] + x]):
                link = t[t[X_LOC_LINKS] + x * t[X_LOC_LINKS + 2] + j]
                if link_completed(g, t, i, link):
                    y = t[t[X_LINK_B] + link] if t[t[X_LINK_A] + link] == x else t[t[X_LINK_A] + link]
                    f |= flags[y] if t[t[X_LOC_NO_THROUGH] + y] else reach[comp[y]]
        else:
            f = reach[comp[x]]
        memo[x] = 1 if f & 5 else 0
        memo[nloc + x] = 1 if f & 6 else 0


@njit(cache=True)
def new_memo(t):
    """A memo of :func:`can_deliver`, nothing known yet."""
    return np.full(2 * t[X_NLOC], -1, np.int8)


@njit(cache=True)
def cubes_anywhere(g, t, i, r):
    if g.s8[g.at[F_DEMAND] + i * 2 + r] > 0:
        return True
    for sp in range(t[X_NS]):
        if _holds(g, t, i, r, sp):
            return True
    return False


@njit(cache=True)
def check_ship(g, t, i, ship_sp):
    if (
        g.s8[g.at[F_SPACE_INDUSTRY] + i * t[X_NS] + ship_sp] != SHIP
        or g.s8[g.at[F_SPACE_FLIPPED] + i * t[X_NS] + ship_sp]
        or g.s8[g.at[F_SPACE_NO_FLIP] + i * t[X_NS] + ship_sp]
    ):
        return
    imp, mkt = t[t[X_SHIP_IMPORT] + ship_sp], t[t[X_SHIP_MARKET] + ship_sp]
    coal_gone = imp < 0 or g.s8[g.at[F_SPACE_CUBES] + i * t[X_NS] + imp] == 0
    market_done = mkt < 0 or g.s8[g.at[F_SPACE_FLIPPED] + i * t[X_NS] + mkt] != 0
    if not market_done:
        tile = g.s8[g.at[F_SPACE_TILE] + i * t[X_NS] + mkt]
        market_done = not (
            t[t[X_TILE_ACCEPTS] + tile * t[X_TILE_ACCEPTS + 2] + 0]
            or t[t[X_TILE_ACCEPTS] + tile * t[X_TILE_ACCEPTS + 2] + 1]
        )
    if coal_gone and market_done:
        flip(g, t, i, ship_sp)


@njit(cache=True)
def demand_price(g, t, i, r):
    n = g.s8[g.at[F_DEMAND] + i * 2 + r]
    return t[t[X_DEMAND_PRICES] + r * t[X_DEMAND_PRICES + 2] + n - 1] if n > 0 else EMPTY_DEMAND_PRICE


@njit(cache=True)
def take_cube(g, t, i, p, r, source):
    if source == DEMAND:
        pay(g, t, i, p, demand_price(g, t, i, r), np.bool_(True))
        if g.s8[g.at[F_DEMAND] + i * 2 + r] > 0:
            g.s8[g.at[F_DEMAND] + i * 2 + r] -= 1
        return
    g.s8[g.at[F_SPACE_CUBES] + i * t[X_NS] + source] -= 1
    if g.s8[g.at[F_SPACE_CUBES] + i * t[X_NS] + source] == 0:
        if t[t[X_SPACE_SYMBOL] + source] == IMPORT_SPACE:
            check_ship(g, t, i, t[t[X_IMPORT_SHIP] + source])
        else:
            flip(g, t, i, source)


@njit(cache=True)
def fill_demand_track(g, t, i, r, sp, owner):
    while (
        g.s8[g.at[F_SPACE_CUBES] + i * t[X_NS] + sp] > 0 and g.s8[g.at[F_DEMAND] + i * 2 + r] < t[t[X_DEMAND_LEN] + r]
    ):
        g.s8[g.at[F_SPACE_CUBES] + i * t[X_NS] + sp] -= 1
        g.s32[g.at[F_MONEY] + i * P + owner] += t[
            t[X_DEMAND_PRICES] + r * t[X_DEMAND_PRICES + 2] + g.s8[g.at[F_DEMAND] + i * 2 + r]
        ]
        g.s8[g.at[F_DEMAND] + i * 2 + r] += 1
