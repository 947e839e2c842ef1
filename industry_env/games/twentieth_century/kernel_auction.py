"""20th Century's Fase 1 and 2, compiled (the reference's :mod:`.auction`): a round's offers and prices, the
land auctions and the technologies bought."""


from __future__ import annotations

from ...core.numba_cache import njit
from .kernel_layout import (
    BID,
    CATASTROPHE,
    ERA_OF,
    F_AUCTION_SLOT,
    F_CAT_BID,
    F_CAT_COL,
    F_CAT_CURRENT,
    F_CAT_POS,
    F_CAT_STACK,
    F_COINS,
    F_COST_POS,
    F_DISCARDED_LAND,
    F_DISCARDED_LAND_LEN,
    F_DISCARDED_TECH,
    F_DISCARDED_TECH_LEN,
    F_GRID_NEW,
    F_HIGH_BID,
    F_HIGH_BIDDER,
    F_LAND_OFFER,
    F_LAND_OFFER_LEN,
    F_LAND_POS,
    F_LAND_STACK,
    F_LEADER,
    F_LEDGER,
    F_NEXT_LEADER,
    F_NUM_PLAYERS,
    F_PASSED,
    F_PENDING,
    F_PENDING_CUBES,
    F_PENDING_LEN,
    F_PHASE,
    F_RESUME,
    F_ROUND,
    F_SCIENCE,
    F_TECH_OFFER,
    F_TECH_OFFER_LEN,
    F_TECH_POS,
    F_TECH_STACK,
    F_TECHS,
    F_TECHS_LEN,
    F_TO_MOVE,
    F_USED,
    F_WITHDRAWN,
    F_WON,
    L_COINS_IN,
    L_COINS_OUT,
    L_CUBES_IN,
    L_SCIENCE_OUT,
    LEAD,
    MAX_COST_TRACK,
    MIN_PRICE,
    NC,
    OFFER_LAND,
    OFFER_TECH,
    OPEN,
    TECH,
    X_LAND_ERA,
    X_NLAND,
    X_NTECH,
    X_TECH_COST,
    X_TECH_COST_LEN,
    X_TECH_COST_START,
    X_TECH_ERA,
    X_TECH_GARBAGE,
    X_TECH_INST,
    X_TECH_POLLUTION,
    P,
    add,
    rd,
    tb,
    wr,
)
from .kernel_maintenance import (
    start_maintenance,
)
from .kernel_nation import (
    move_pollution,
)
from .rules import (
    CONSOLATION_EXTRA,
    LAST_FULL_ROUND,
)


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
def bid_base(g, i):
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
