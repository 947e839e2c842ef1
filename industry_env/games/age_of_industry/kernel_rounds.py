"""Age of Industry's turns and rounds, compiled (the reference's :mod:`.rounds`): the end of an action, of a
round and of the game, the turn order, interest, the final scores; and the cards the end of a turn deals."""

from __future__ import annotations

import numpy as np

from ...core.numba_cache import njit  # numba's, falling back to no disk cache where none is writable
from .components import MARKET_SPACE
from .kernel_layout import (
    F_ACTIONS_LEFT,
    F_BUILD_INDUSTRY,
    F_BUILD_SPACE,
    F_CARD,
    F_COMBINED,
    F_DECK,
    F_DECK_POS,
    F_DRAWS_LEFT,
    F_EDITION,
    F_FACE_UP,
    F_HAND,
    F_LINK_OWNER,
    F_LOANS,
    F_MONEY,
    F_NEED_COAL,
    F_NEED_IRON,
    F_NUM_PLAYERS,
    F_ORDER,
    F_PHASE,
    F_RAIL_LINK,
    F_REWARDS,
    F_ROUND,
    F_SELL_FROM,
    F_SPACE_LEVEL,
    F_SPACE_OWNER,
    F_SPENT,
    F_TERMINATED,
    F_TURN,
    X_BUILD_SPACES,
    X_C,
    X_K,
    X_LINK_A,
    X_LINK_B,
    X_LOAN_INTEREST,
    X_LOAN_REPAY,
    X_LOC_NSP,
    X_LOC_SPACES,
    X_LOC_VILLAGE,
    X_NL,
    X_NLR,
    X_NS,
    X_SPACE_SYMBOL,
    P,
)
from .kernel_money import (
    pay,
)
from .rules import (
    ACTIONS_FIRST_ROUND,
    ACTIONS_PER_TURN,
    DOLLARS_PER_POINT,
    NUM_FACE_UP,
    POINTS_PER_UNPAID_LOAN,
    RAIL_INCOME,
)
from .state import (
    ACTION,
    OVER,
)


# ============================================================================================== set-up
@njit(cache=True)
def take_from_deck(g, t, i):
    pos = g.s8[g.at[F_DECK_POS] + i]
    k = g.s8[g.at[F_DECK] + i * t[X_C] + pos]
    g.s8[g.at[F_DECK] + i * t[X_C] + pos] = -1
    g.s8[g.at[F_DECK_POS] + i] = pos + 1
    return k


@njit(cache=True)
def no_decision_in_progress(g, i):
    """No card, build, rail, cubes owed, sale or draw in progress in row ``i`` (a new game, an action ended)."""
    g.s8[g.at[F_CARD] + i] = -1
    g.s8[g.at[F_COMBINED] + i] = 0
    g.s16[g.at[F_BUILD_SPACE] + i] = -1
    g.s8[g.at[F_BUILD_INDUSTRY] + i] = -1
    g.s16[g.at[F_RAIL_LINK] + i] = -1
    g.s8[g.at[F_NEED_COAL] + i] = 0
    g.s8[g.at[F_NEED_IRON] + i] = 0
    g.s16[g.at[F_SELL_FROM] + i] = -1
    g.s8[g.at[F_DRAWS_LEFT] + i] = 0


@njit(cache=True)
def hand_size(g, t, i, p):
    n = 0
    for k in range(t[X_K]):
        n += g.s8[g.at[F_HAND] + (i * P + p) * t[X_K] + k]
    return n


@njit(cache=True)
def deck_left(g, t, i):
    return t[X_C] - np.int64(g.s8[g.at[F_DECK_POS] + i])


@njit(cache=True)
def end_action(g, t, i):
    actions = 0 if g.s8[g.at[F_COMBINED] + i] else g.s8[g.at[F_ACTIONS_LEFT] + i] - 1
    no_decision_in_progress(g, i)
    g.s8[g.at[F_PHASE] + i] = ACTION
    g.s8[g.at[F_ACTIONS_LEFT] + i] = actions
    if actions > 0:
        return
    g.s8[g.at[F_TURN] + i] += 1
    if g.s8[g.at[F_TURN] + i] < g.s8[g.at[F_NUM_PLAYERS] + i]:
        g.s8[g.at[F_ACTIONS_LEFT] + i] = ACTIONS_FIRST_ROUND if g.s16[g.at[F_ROUND] + i] == 1 else ACTIONS_PER_TURN
        return
    _end_of_round(g, t, i)


@njit(cache=True)
def game_end_reached(g, t, i):
    if deck_left(g, t, i) > 0:
        return False
    if g.s8[g.at[F_EDITION] + i] == 1:
        for j in range(NUM_FACE_UP):
            if g.s8[g.at[F_FACE_UP] + i * 2 + j] >= 0:
                return False
    for q in range(np.int64(g.s8[g.at[F_NUM_PLAYERS] + i])):
        if hand_size(g, t, i, q) == 0:
            return True
    return False


@njit(cache=True)
def _end_of_round(g, t, i):
    """The round's second and third phases (the last round's too, ruling 9), then the end or the next round."""
    determine_turn_order(g, t, i)
    pay_interest(g, t, i)
    if game_end_reached(g, t, i):
        g.s8[g.at[F_PHASE] + i] = OVER
        g.s8[g.at[F_TURN] + i] = 0
        g.s8[g.at[F_ACTIONS_LEFT] + i] = 0
        g.s8[g.at[F_TERMINATED] + i] = True
        returns(g, t, i)
        return
    g.s16[g.at[F_ROUND] + i] += 1
    g.s8[g.at[F_TURN] + i] = 0
    g.s8[g.at[F_ACTIONS_LEFT] + i] = ACTIONS_PER_TURN


@njit(cache=True)
def determine_turn_order(g, t, i):
    """A stable sort of the turn order by money spent (insertion sort), then the spending cleared."""
    n = g.s8[g.at[F_NUM_PLAYERS] + i]
    for a in range(1, n):
        q = g.s8[g.at[F_ORDER] + i * P + a]
        b = a
        while (
            b > 0
            and g.s16[g.at[F_SPENT] + i * P + g.s8[g.at[F_ORDER] + i * P + b - 1]] > g.s16[g.at[F_SPENT] + i * P + q]
        ):
            g.s8[g.at[F_ORDER] + i * P + b] = g.s8[g.at[F_ORDER] + i * P + b - 1]
            b -= 1
        g.s8[g.at[F_ORDER] + i * P + b] = q
    for q in range(n):
        g.s16[g.at[F_SPENT] + i * P + q] = 0


@njit(cache=True)
def pay_interest(g, t, i):
    for pos in range(g.s8[g.at[F_NUM_PLAYERS] + i]):
        q = np.int64(g.s8[g.at[F_ORDER] + i * P + pos])
        pay(g, t, i, q, np.int64(g.s16[g.at[F_LOANS] + i * P + q]) * t[X_LOAN_INTEREST], np.bool_(False))


# ============================================================================================== final scoring
@njit(cache=True)
def occupied_spaces(g, t, i, loc):
    n = 0
    for j in range(t[t[X_LOC_NSP] + loc]):
        sp = t[t[X_LOC_SPACES] + loc * t[X_LOC_SPACES + 2] + j]
        if g.s8[g.at[F_SPACE_OWNER] + i * t[X_NS] + sp] >= 0 or t[t[X_SPACE_SYMBOL] + sp] == MARKET_SPACE:
            n += 1
    return n + t[t[X_LOC_VILLAGE] + loc]


@njit(cache=True)
def score_of(g, t, i, p):
    """``sum(Game.score_breakdown(p).values())``: money / 5 after rail income and loans repaid, the industries'
    levels, -5 per unpaid loan."""
    rails = 0
    for li in range(t[X_NLR]):
        if g.s8[g.at[F_LINK_OWNER] + i * t[X_NL] + li] == p:
            rails += (
                RAIL_INCOME
                + occupied_spaces(g, t, i, t[t[X_LINK_A] + li])
                + occupied_spaces(g, t, i, t[t[X_LINK_B] + li])
            )
    money = np.int64(g.s32[g.at[F_MONEY] + i * P + p]) + rails
    repaid = min(np.int64(g.s16[g.at[F_LOANS] + i * P + p]), money // t[X_LOAN_REPAY])
    money -= repaid * t[X_LOAN_REPAY]
    levels = 0
    for j in range(t[X_BUILD_SPACES + 1]):
        sp = t[t[X_BUILD_SPACES] + j]
        if g.s8[g.at[F_SPACE_OWNER] + i * t[X_NS] + sp] == p:
            levels += g.s8[g.at[F_SPACE_LEVEL] + i * t[X_NS] + sp]
    unpaid = np.int64(g.s16[g.at[F_LOANS] + i * P + p]) - repaid
    return money // DOLLARS_PER_POINT + levels - POINTS_PER_UNPAID_LOAN * unpaid


@njit(cache=True)
def returns(g, t, i):
    """``Game.returns()`` into the game's rewards: +1 for the winner (most points, ties to the earliest in the
    turn order set at the end of the last round), -1 for the others."""
    n = g.s8[g.at[F_NUM_PLAYERS] + i]
    best, winner = 0, -1
    for pos in range(n):
        q = np.int64(g.s8[g.at[F_ORDER] + i * P + pos])
        sc = score_of(g, t, i, q)
        if winner < 0 or sc > best:
            best, winner = sc, q
    for q in range(P):
        g.f32[g.at[F_REWARDS] + i * P + q] = 0.0 if q >= n else (1.0 if q == winner else -1.0)
