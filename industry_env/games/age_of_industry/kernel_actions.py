"""Age of Industry's six actions, compiled (the reference's :mod:`.player_actions`): what each card allows,
the builds, rails and sales a player may choose, and each decision applied."""

from __future__ import annotations

import numpy as np

from ...core.numba_cache import njit  # numba's, falling back to no disk cache where none is writable
from .components import MARKET_SPACE
from .kernel_layout import (
    B_BUILD,
    B_BUILD_ANY,
    B_BUILD_AT,
    B_DEVELOP,
    B_DRAW,
    B_PASS,
    B_PASS_FREE,
    B_RAIL,
    B_SELL,
    B_SELL_TO,
    COAL,
    F_ACTIONS_LEFT,
    F_BUILD_INDUSTRY,
    F_BUILD_SPACE,
    F_CARD,
    F_DISCARD,
    F_DISPLAY,
    F_DRAWS_LEFT,
    F_EDITION,
    F_FACE_UP,
    F_HAND,
    F_KNOWN,
    F_LINK_OWNER,
    F_NEED_COAL,
    F_NEED_IRON,
    F_PHASE,
    F_RAIL_LINK,
    F_RAILS_LEFT,
    F_SPACE_CUBES,
    F_SPACE_FLIPPED,
    F_SPACE_INDUSTRY,
    F_SPACE_LEVEL,
    F_SPACE_NO_FLIP,
    F_SPACE_OWNER,
    F_SPACE_TILE,
    IRON,
    X_ALLOWED,
    X_BUILD_SPACES,
    X_CARD_COLOUR,
    X_CARD_INDUSTRY,
    X_D,
    X_HAS_SHIPS,
    X_K,
    X_LINK_A,
    X_LINK_B,
    X_LINK_SEA,
    X_LOC_BUILD_SPACES,
    X_LOC_COLOUR,
    X_LOC_LINKS,
    X_LOC_NLK,
    X_LOC_NSP,
    X_LOC_SPACES,
    X_MARKET_SHIP,
    X_NL,
    X_NLOC,
    X_NLR,
    X_NS,
    X_OFFSET,
    X_SHIP_IMPORT,
    X_SHIP_NPL,
    X_SHIP_PORT_LOCS,
    X_SLOT_COAL,
    X_SLOT_COST,
    X_SLOT_CUBES,
    X_SLOT_IRON,
    X_SLOT_LEVEL,
    X_SLOT_OF,
    X_SLOTS_NOF,
    X_SLOTS_OF,
    X_SPACE_IMPORT,
    X_SPACE_LOC,
    X_SPACE_SYMBOL,
    X_TILE_ACCEPTS,
    P,
)
from .kernel_money import (
    flip,
    pay,
)
from .kernel_rounds import (
    deck_left,
    end_action,
    hand_size,
    take_from_deck,
)
from .kernel_transport import (
    can_deliver,
    check_ship,
    cubes_anywhere,
    demand_track_access,
    distances,
    fill_demand_track,
    nearest_sources,
    new_memo,
    port_counter_at,
    reach_table,
    take_cube,
)
from .rules import (
    ACTIONS_PER_TURN,
    BIG_LOCATION,
    COAL_MINE,
    COTTON,
    COTTON_MILL,
    FACTORY,
    HAND_LIMIT,
    IRON_WORKS,
    MANUFACTURED,
    MAX_SPACES_BIG,
    MAX_SPACES_SMALL,
    NUM_FACE_UP,
    NUM_INDUSTRIES,
    PORT,
    RAILS_PER_PLAYER,
    SHIP,
)
from .state import (
    ACTION,
    COAL_SOURCE,
    DRAW_SECOND,
    IRON_SOURCE,
)


# ============================================================================================== cards
@njit(cache=True)
def play_card(g, t, i, p, k):
    """The card leaves the hand for the discard pile; the others know one fewer of its kind there (ruling 18)."""
    g.s8[g.at[F_HAND] + (i * P + p) * t[X_K] + k] -= 1
    if g.s8[g.at[F_KNOWN] + (i * P + p) * t[X_K] + k] > 0:
        g.s8[g.at[F_KNOWN] + (i * P + p) * t[X_K] + k] -= 1
    g.s8[g.at[F_DISCARD] + i * t[X_K] + k] += 1
    g.s8[g.at[F_CARD] + i] = k


# ============================================================================================== build rules
@njit(cache=True)
def lowest_counter(g, t, i, p, ind):
    for j in range(t[t[X_SLOTS_NOF] + ind]):
        d = t[t[X_SLOTS_OF] + ind * t[X_SLOTS_OF + 2] + j]
        if g.s8[g.at[F_DISPLAY] + (i * P + p) * t[X_D] + d] > 0:
            return d
    return -1


@njit(cache=True)
def _own_counters_at(g, t, i, p, loc):
    n = 0
    for j in range(t[t[X_LOC_NSP] + loc]):
        if g.s8[g.at[F_SPACE_OWNER] + i * t[X_NS] + t[t[X_LOC_SPACES] + loc * t[X_LOC_SPACES + 2] + j]] == p:
            n += 1
    return n


@njit(cache=True)
def _own_rail_at(g, t, i, p, loc):
    for j in range(t[t[X_LOC_NLK] + loc]):
        li = t[t[X_LOC_LINKS] + loc * t[X_LOC_LINKS + 2] + j]
        if not t[t[X_LINK_SEA] + li] and g.s8[g.at[F_LINK_OWNER] + i * t[X_NL] + li] == p:
            return True
    return False


@njit(cache=True)
def _has_industry_on_map(g, t, i, p):
    for sp in range(t[X_NS]):
        if g.s8[g.at[F_SPACE_OWNER] + i * t[X_NS] + sp] == p:
            return True
    return False


@njit(cache=True)
def industry_card_reaches(g, t, i, p, sp, ind, on_map):
    """``Game.industry_card_reaches``; ``on_map``: ``p`` has an industry on the map (found once by the caller)."""
    loc = t[t[X_SPACE_LOC] + sp]
    if not on_map:
        return True
    if _own_rail_at(g, t, i, p, loc):
        return True
    if _own_counters_at(g, t, i, p, loc) > 0 and t[t[X_LOC_BUILD_SPACES] + loc] >= 4:
        return True
    if g.s8[g.at[F_SPACE_OWNER] + i * t[X_NS] + sp] == p:
        return True
    if ind != SHIP:
        return False
    for j in range(t[t[X_SHIP_NPL] + sp]):
        x = t[t[X_SHIP_PORT_LOCS] + sp * t[X_SHIP_PORT_LOCS + 2] + j]
        if _own_rail_at(g, t, i, p, x):
            return True
        for m in range(t[t[X_LOC_NSP] + x]):
            tt = t[t[X_LOC_SPACES] + x * t[X_LOC_SPACES + 2] + m]
            if (
                g.s8[g.at[F_SPACE_OWNER] + i * t[X_NS] + tt] == p
                and g.s8[g.at[F_SPACE_INDUSTRY] + i * t[X_NS] + tt] == PORT
            ):
                return True
    return False


@njit(cache=True)
def _spaces_allowed(build_spaces):
    return MAX_SPACES_BIG if build_spaces >= BIG_LOCATION else MAX_SPACES_SMALL


@njit(cache=True)
def may_occupy(g, t, i, p, sp, level):
    loc, owner = t[t[X_SPACE_LOC] + sp], g.s8[g.at[F_SPACE_OWNER] + i * t[X_NS] + sp]
    if owner == p:
        return level > g.s8[g.at[F_SPACE_LEVEL] + i * t[X_NS] + sp]
    if _own_counters_at(g, t, i, p, loc) >= _spaces_allowed(t[t[X_LOC_BUILD_SPACES] + loc]):
        return False
    if owner < 0:
        return True
    if g.s8[g.at[F_SPACE_INDUSTRY] + i * t[X_NS] + sp] == COAL_MINE:
        return level > g.s8[g.at[F_SPACE_LEVEL] + i * t[X_NS] + sp] and not cubes_anywhere(g, t, i, COAL)
    if g.s8[g.at[F_SPACE_INDUSTRY] + i * t[X_NS] + sp] == IRON_WORKS:
        return level > g.s8[g.at[F_SPACE_LEVEL] + i * t[X_NS] + sp] and not cubes_anywhere(g, t, i, IRON)
    return False


@njit(cache=True)
def ship_has_port(g, t, i, sp):
    for j in range(t[t[X_SHIP_NPL] + sp]):
        if port_counter_at(g, t, i, t[t[X_SHIP_PORT_LOCS] + sp * t[X_SHIP_PORT_LOCS + 2] + j]):
            return True
    return False


@njit(cache=True)
def _place_counter(g, t, i, p, sp, ind, level):
    """``Game._place_counter``: returns what ``_restore_counter`` puts back."""
    imp = t[t[X_SHIP_IMPORT] + sp] if t[t[X_SHIP_IMPORT] + sp] >= 0 else sp
    at = i * t[X_NS] + sp
    saved = (
        np.int64(g.s8[g.at[F_SPACE_OWNER] + at]),
        np.int64(g.s8[g.at[F_SPACE_INDUSTRY] + at]),
        np.int64(g.s8[g.at[F_SPACE_LEVEL] + at]),
        np.int64(g.s8[g.at[F_SPACE_FLIPPED] + at]),
        np.int64(g.s8[g.at[F_SPACE_NO_FLIP] + at]),
        np.int64(g.s8[g.at[F_SPACE_CUBES] + at]),
        np.int64(g.s8[g.at[F_SPACE_CUBES] + i * t[X_NS] + imp]),
        imp,
    )
    over_ship = g.s8[g.at[F_SPACE_INDUSTRY] + i * t[X_NS] + sp] == SHIP
    g.s8[g.at[F_SPACE_OWNER] + i * t[X_NS] + sp] = p
    g.s8[g.at[F_SPACE_INDUSTRY] + i * t[X_NS] + sp] = ind
    g.s8[g.at[F_SPACE_LEVEL] + i * t[X_NS] + sp] = level
    g.s8[g.at[F_SPACE_FLIPPED] + i * t[X_NS] + sp] = 0
    g.s8[g.at[F_SPACE_NO_FLIP] + i * t[X_NS] + sp] = 1 if over_ship else 0
    g.s8[g.at[F_SPACE_CUBES] + i * t[X_NS] + sp] = 0
    if ind == SHIP and not over_ship and g.s8[g.at[F_EDITION] + i] == 2 and imp != sp:
        g.s8[g.at[F_SPACE_CUBES] + i * t[X_NS] + imp] = t[t[X_SPACE_IMPORT] + imp]
    return saved


@njit(cache=True)
def _restore_counter(g, t, i, sp, saved):
    g.s8[g.at[F_SPACE_OWNER] + i * t[X_NS] + sp] = saved[0]
    g.s8[g.at[F_SPACE_INDUSTRY] + i * t[X_NS] + sp] = saved[1]
    g.s8[g.at[F_SPACE_LEVEL] + i * t[X_NS] + sp] = saved[2]
    g.s8[g.at[F_SPACE_FLIPPED] + i * t[X_NS] + sp] = saved[3]
    g.s8[g.at[F_SPACE_NO_FLIP] + i * t[X_NS] + sp] = saved[4]
    g.s8[g.at[F_SPACE_CUBES] + i * t[X_NS] + sp] = saved[5]
    imp = saved[7]
    g.s8[g.at[F_SPACE_CUBES] + i * t[X_NS] + imp] = saved[6] if imp != sp else saved[5]


@njit(cache=True)
def _deliverable(g, t, i, d, loc, memo):
    if t[t[X_SLOT_COAL] + d] and not can_deliver(g, t, i, COAL, loc, memo):
        return False
    if t[t[X_SLOT_IRON] + d] and not can_deliver(g, t, i, IRON, loc, memo):
        return False
    return True


@njit(cache=True)
def can_build(g, t, i, p, sp, ind, memo):
    d = lowest_counter(g, t, i, p, ind)
    if d < 0 or t[t[X_SLOT_LEVEL] + d] == 0:
        return False
    if ind == SHIP and not ship_has_port(g, t, i, sp):
        return False
    if not may_occupy(g, t, i, p, sp, t[t[X_SLOT_LEVEL] + d]):
        return False
    if not (t[t[X_SLOT_COAL] + d] or t[t[X_SLOT_IRON] + d]):
        return True
    loc = t[t[X_SPACE_LOC] + sp]
    here = g.s8[g.at[F_SPACE_INDUSTRY] + i * t[X_NS] + sp]
    if ind == PORT or ind == SHIP or here == COAL_MINE or here == IRON_WORKS or here == PORT or here == SHIP:
        saved = _place_counter(g, t, i, p, sp, ind, t[t[X_SLOT_LEVEL] + d])
        ok = _deliverable(g, t, i, d, loc, new_memo(t))  # the counter in place changes the network
        _restore_counter(g, t, i, sp, saved)
        return ok
    return _deliverable(g, t, i, d, loc, memo)


@njit(cache=True)
def build_options(g, t, i, p, k, combined, row, memo, built):
    """``Game.build_options``: with ``row`` (bool[NA]) its BUILD_AT actions marked there, and their count
    returned; without (a zero-length row) only whether there is one. ``built`` (int8[S * 6], -1 where not yet
    known) keeps :func:`can_build` of each space and industry, which no card changes, for the next scans."""
    write = len(row) > 0
    card_industry, card_colour = t[t[X_CARD_INDUSTRY] + k], t[t[X_CARD_COLOUR] + k]
    on_map = _has_industry_on_map(g, t, i, p)
    n = 0
    for j in range(t[X_BUILD_SPACES + 1]):
        sp = t[t[X_BUILD_SPACES] + j]
        loc = t[t[X_SPACE_LOC] + sp]
        if not combined and card_colour >= 0 and t[t[X_LOC_COLOUR] + loc] != card_colour:
            continue
        sym = t[t[X_SPACE_SYMBOL] + sp]
        for ind in range(NUM_INDUSTRIES):
            if not t[t[X_ALLOWED] + sym * t[X_ALLOWED + 2] + ind]:
                continue
            if not combined and card_industry >= 0:
                if ind != card_industry or not industry_card_reaches(g, t, i, p, sp, ind, on_map):
                    continue
            at = sp * NUM_INDUSTRIES + ind
            if built[at] < 0:
                built[at] = 1 if can_build(g, t, i, p, sp, ind, memo) else 0
            if built[at] == 1:
                n += 1
                if not write:
                    return n
                row[t[t[X_OFFSET] + B_BUILD_AT] + sp * NUM_INDUSTRIES + ind] = True
    return n


# ============================================================================================== rails and sales
@njit(cache=True)
def rail_options(g, t, i, p, row, memo):
    """``Game.rail_options``, marked in ``row``."""
    if g.s8[g.at[F_RAILS_LEFT] + i * P + p] <= 0:
        return
    first = g.s8[g.at[F_RAILS_LEFT] + i * P + p] == RAILS_PER_PLAYER
    tabled = False
    # "connettono una località su cui hai già costruito un edificio o ... già connesso tramite un altro segnalino
    # binario": the locations with a counter or a rail of p, found once
    present = np.zeros(t[X_NLOC], np.bool_)
    for sp in range(t[X_NS]):
        if g.s8[g.at[F_SPACE_OWNER] + i * t[X_NS] + sp] == p:
            present[t[t[X_SPACE_LOC] + sp]] = True
    for li in range(t[X_NLR]):
        if g.s8[g.at[F_LINK_OWNER] + i * t[X_NL] + li] == p:
            present[t[t[X_LINK_A] + li]] = True
            present[t[t[X_LINK_B] + li]] = True
    for li in range(t[X_NLR]):
        if g.s8[g.at[F_LINK_OWNER] + i * t[X_NL] + li] >= 0:
            continue
        a, b = t[t[X_LINK_A] + li], t[t[X_LINK_B] + li]
        if not (present[a] or present[b]):
            continue
        ok = first
        if not ok:
            if not tabled:  # the rails ask at many places: every answer at once
                reach_table(g, t, i, memo)
                tabled = True
            coal = can_deliver(g, t, i, COAL, a, memo) or can_deliver(g, t, i, COAL, b, memo)
            ok = coal and (can_deliver(g, t, i, IRON, a, memo) or can_deliver(g, t, i, IRON, b, memo))
        if ok:
            row[t[t[X_OFFSET] + B_RAIL] + li] = True


@njit(cache=True)
def _good(g, t, i, sp):
    return COTTON if g.s8[g.at[F_SPACE_INDUSTRY] + i * t[X_NS] + sp] == COTTON_MILL else MANUFACTURED


@njit(cache=True)
def sale_targets(g, t, i, sp, row):
    """``Game.sale_targets(sp)``: marked in ``row`` at SELL_TO (a zero-length row: only whether there is one)."""
    write = len(row) > 0
    good = _good(g, t, i, sp)
    dist = np.empty(t[X_NLOC], np.int64)
    distances(g, t, i, t[t[X_SPACE_LOC] + sp], np.int64(-1), dist)
    n = 0
    for tt in range(t[X_NS]):
        if dist[t[t[X_SPACE_LOC] + tt]] < 0 or g.s8[g.at[F_SPACE_FLIPPED] + i * t[X_NS] + tt]:
            continue
        ok = False
        if g.s8[g.at[F_SPACE_INDUSTRY] + i * t[X_NS] + tt] == PORT:
            ok = good == COTTON or g.s8[g.at[F_SPACE_LEVEL] + i * t[X_NS] + tt] > 1
        elif (
            t[t[X_SPACE_SYMBOL] + tt] == MARKET_SPACE
            and t[t[X_TILE_ACCEPTS] + g.s8[g.at[F_SPACE_TILE] + i * t[X_NS] + tt] * t[X_TILE_ACCEPTS + 2] + good]
        ):
            ok = True
        if ok:
            n += 1
            if not write:
                return n
            row[t[t[X_OFFSET] + B_SELL_TO] + tt] = True
    return n


@njit(cache=True)
def sellers(g, t, i, p, row):
    """``Game.sellers(p)``: marked in ``row`` at SELL (a zero-length row: only whether there is one)."""
    write = len(row) > 0
    none = row[:0]
    n = 0
    for j in range(t[X_BUILD_SPACES + 1]):
        sp = t[t[X_BUILD_SPACES] + j]
        ind = g.s8[g.at[F_SPACE_INDUSTRY] + i * t[X_NS] + sp]
        mine = g.s8[g.at[F_SPACE_OWNER] + i * t[X_NS] + sp] == p
        unflipped = not g.s8[g.at[F_SPACE_FLIPPED] + i * t[X_NS] + sp]
        if mine and (ind == COTTON_MILL or ind == FACTORY) and unflipped and sale_targets(g, t, i, sp, none) > 0:
            n += 1
            if not write:
                return n
            row[t[t[X_OFFSET] + B_SELL] + sp] = True
    return n


@njit(cache=True)
def sell_goods(g, t, i, p, sp, tt):
    flip(g, t, i, sp)
    if g.s8[g.at[F_SPACE_INDUSTRY] + i * t[X_NS] + tt] == PORT:
        flip(g, t, i, tt)
    else:
        g.s8[g.at[F_SPACE_FLIPPED] + i * t[X_NS] + tt] = 1
        if t[t[X_MARKET_SHIP] + tt] >= 0:
            check_ship(g, t, i, t[t[X_MARKET_SHIP] + tt])


# ============================================================================================== legal actions
@njit(cache=True)
def draw_choices(g, t, i, row):
    """Marks the draw choices in ``row``; returns their count."""
    n = 0
    if deck_left(g, t, i) > 0:
        row[t[t[X_OFFSET] + B_DRAW]] = True
        n += 1
    for j in range(NUM_FACE_UP):
        if g.s8[g.at[F_FACE_UP] + i * 2 + j] >= 0:
            row[t[t[X_OFFSET] + B_DRAW] + 1 + j] = True
            n += 1
    return n


@njit(cache=True)
def _any_draw_choice(g, t, i):
    if deck_left(g, t, i) > 0:
        return True
    for j in range(NUM_FACE_UP):
        if g.s8[g.at[F_FACE_UP] + i * 2 + j] >= 0:
            return True
    return False


@njit(cache=True)
def card_builds(t, k):
    """A ship card builds nothing on a map without ship spaces (Germany), not even in a combined build."""
    return t[X_HAS_SHIPS] != 0 or t[t[X_CARD_INDUSTRY] + k] != SHIP


@njit(cache=True)
def action_choices(g, t, i, p, row):
    none = row[:0]
    memo = new_memo(t)
    built = np.full(t[X_NS] * NUM_INDUSTRIES, -1, np.int8)
    hand_n = hand_size(g, t, i, p)
    combined_ok = (
        hand_n > 0
        and g.s8[g.at[F_ACTIONS_LEFT] + i] == ACTIONS_PER_TURN
        and build_options(g, t, i, p, np.int64(0), np.bool_(True), none, memo, built) > 0
    )
    can_develop = False
    for d in range(t[X_D]):
        if g.s8[g.at[F_DISPLAY] + (i * P + p) * t[X_D] + d] != 0:
            can_develop = True
    for k in range(t[X_K]):
        if g.s8[g.at[F_HAND] + (i * P + p) * t[X_K] + k] == 0:
            continue
        if card_builds(t, k):
            if build_options(g, t, i, p, k, np.bool_(False), none, memo, built) > 0:
                row[t[t[X_OFFSET] + B_BUILD] + k] = True
            if combined_ok:
                row[t[t[X_OFFSET] + B_BUILD_ANY] + k] = True
        if can_develop:
            row[t[t[X_OFFSET] + B_DEVELOP] + k] = True
        row[t[t[X_OFFSET] + B_PASS] + k] = True
    rail_options(g, t, i, p, row, memo)
    sellers(g, t, i, p, row)
    if hand_n < HAND_LIMIT:
        draw_choices(g, t, i, row)
    if hand_n == 0 and deck_left(g, t, i) == 0:
        row[t[t[X_OFFSET] + B_PASS_FREE]] = True


@njit(cache=True)
def delivery_locs(g, t, i):
    li = g.s16[g.at[F_RAIL_LINK] + i]
    if li >= 0:
        return t[t[X_LINK_A] + li], t[t[X_LINK_B] + li]
    return t[t[X_SPACE_LOC] + g.s16[g.at[F_BUILD_SPACE] + i]], -1


# ============================================================================================== the actions
@njit(cache=True)
def build_industry(g, t, i, p, sp, ind):
    d = lowest_counter(g, t, i, p, ind)
    level = t[t[X_SLOT_LEVEL] + d]
    pay(g, t, i, p, t[t[X_SLOT_COST] + d], np.bool_(True))
    _place_counter(g, t, i, p, sp, ind, level)
    g.s8[g.at[F_DISPLAY] + (i * P + p) * t[X_D] + d] -= 1
    g.s16[g.at[F_BUILD_SPACE] + i] = sp
    g.s8[g.at[F_BUILD_INDUSTRY] + i] = ind
    g.s8[g.at[F_NEED_COAL] + i] = t[t[X_SLOT_COAL] + d]
    g.s8[g.at[F_NEED_IRON] + i] = t[t[X_SLOT_IRON] + d]
    deliver(g, t, i, p)


@njit(cache=True)
def deliver(g, t, i, p):
    """Bring the coal, then the iron, each from its nearest source; stop for a decision on a tie."""
    out = np.empty(t[X_NS] + 1, np.int64)
    while g.s8[g.at[F_NEED_COAL] + i] or g.s8[g.at[F_NEED_IRON] + i]:
        r = COAL if g.s8[g.at[F_NEED_COAL] + i] else IRON
        a, b = delivery_locs(g, t, i)
        n = nearest_sources(g, t, i, r, a, b, out)
        if n > 1:
            g.s8[g.at[F_PHASE] + i] = COAL_SOURCE if r == COAL else IRON_SOURCE
            return
        if n == 0:
            raise ValueError("no coal or iron can reach the build in progress")
        deliver_one(g, t, i, p, r, out[0])
    if g.s16[g.at[F_RAIL_LINK] + i] >= 0:
        _finish_rail(g, t, i, p)
    else:
        _finish_build(g, t, i, p)


@njit(cache=True)
def deliver_one(g, t, i, p, r, source):
    take_cube(g, t, i, p, r, source)
    if r == COAL:
        g.s8[g.at[F_NEED_COAL] + i] -= 1
    else:
        g.s8[g.at[F_NEED_IRON] + i] -= 1


@njit(cache=True)
def _finish_build(g, t, i, p):
    sp, ind = np.int64(g.s16[g.at[F_BUILD_SPACE] + i]), np.int64(g.s8[g.at[F_BUILD_INDUSTRY] + i])
    dist = np.empty(t[X_NLOC], np.int64)
    distances(g, t, i, t[t[X_SPACE_LOC] + sp], np.int64(-1), dist)
    connected = demand_track_access(g, t, i, dist)
    if ind == COAL_MINE or ind == IRON_WORKS:
        r = COAL if ind == COAL_MINE else IRON
        g.s8[g.at[F_SPACE_CUBES] + i * t[X_NS] + sp] = t[
            t[X_SLOT_CUBES] + t[t[X_SLOT_OF] + ind * t[X_SLOT_OF + 2] + g.s8[g.at[F_SPACE_LEVEL] + i * t[X_NS] + sp]]
        ]
        if connected:
            fill_demand_track(g, t, i, r, sp, p)
        if g.s8[g.at[F_SPACE_CUBES] + i * t[X_NS] + sp] == 0:
            flip(g, t, i, sp)
    if ind == SHIP and not g.s8[g.at[F_SPACE_NO_FLIP] + i * t[X_NS] + sp]:
        imp = t[t[X_SHIP_IMPORT] + sp]
        if imp >= 0 and g.s8[g.at[F_EDITION] + i] == 2 and connected:
            fill_demand_track(g, t, i, COAL, imp, p)
        check_ship(g, t, i, sp)
    end_action(g, t, i)


@njit(cache=True)
def _finish_rail(g, t, i, p):
    g.s8[g.at[F_LINK_OWNER] + i * t[X_NL] + g.s16[g.at[F_RAIL_LINK] + i]] = p
    g.s8[g.at[F_RAILS_LEFT] + i * P + p] -= 1
    end_action(g, t, i)


@njit(cache=True)
def on_draw(g, t, i, p, src):
    if g.s8[g.at[F_PHASE] + i] == ACTION:
        g.s8[g.at[F_DRAWS_LEFT] + i] = 2
    if src == 0:
        k = take_from_deck(g, t, i)
        g.s8[g.at[F_HAND] + (i * P + p) * t[X_K] + k] += 1
    else:
        k = g.s8[g.at[F_FACE_UP] + i * 2 + src - 1]
        g.s8[g.at[F_FACE_UP] + i * 2 + src - 1] = -1
        g.s8[g.at[F_HAND] + (i * P + p) * t[X_K] + k] += 1
        g.s8[g.at[F_KNOWN] + (i * P + p) * t[X_K] + k] += 1
    g.s8[g.at[F_DRAWS_LEFT] + i] -= 1
    if g.s8[g.at[F_DRAWS_LEFT] + i] > 0 and hand_size(g, t, i, p) < HAND_LIMIT and _any_draw_choice(g, t, i):
        g.s8[g.at[F_PHASE] + i] = DRAW_SECOND
        return
    for j in range(NUM_FACE_UP):
        if g.s8[g.at[F_FACE_UP] + i * 2 + j] < 0 and deck_left(g, t, i) > 0:
            g.s8[g.at[F_FACE_UP] + i * 2 + j] = take_from_deck(g, t, i)
    end_action(g, t, i)
