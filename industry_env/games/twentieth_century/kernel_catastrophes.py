"""20th Century's Fase 3, compiled (the reference's :mod:`.catastrophes`): the bids on the catastrophe and
what it does to each nation."""


from __future__ import annotations

from ...core.numba_cache import njit
from .kernel_layout import (
    F_CAT_BID,
    F_CAT_COL,
    F_CAT_CURRENT,
    F_LEDGER,
    F_NEXT_LEADER,
    F_NUM_PLAYERS,
    F_PENDING_CUBES,
    F_SCIENCE,
    F_TO_MOVE,
    L_CUBES_IN,
    L_SCIENCE_OUT,
    X_CAT_G,
    X_CAT_P,
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
