"""The rules of Age of Industry compiled by numba, one game at a time, looped over a batch (``prange`` threads from
:data:`PARALLEL_FROM` games).

Every compiled function here and in the modules of its rules beside it (:mod:`.kernel_money`,
:mod:`.kernel_transport`, :mod:`.kernel_rounds`, :mod:`.kernel_actions`; the layout of a batch and a map in
:mod:`.kernel_layout`) is the method of :class:`.reference.Game` of the same name, written over arrays, in the
reference's order of loops and steps, so that each decision, each automatic step and each observation float agree
with it game by game (``tests/age_of_industry/test_engine.py``, ``engine.check_against_reference``).

How the arrays are read: ``g`` (:class:`Games`) is the batch's one State buffer seen by width (``g.s8`` for the int8
and bool fields, ``g.s16``, ``g.s32``, ``g.s64``, ``g.f32``) with ``g.at[F_X]``, where field ``X`` of game 0 starts;
element ``e`` of field ``X`` (flattened per game) of game ``i`` is ``g.sW[g.at[F_X] + i * (elements a game) + e]``,
e.g. the counter's owner on space ``sp``: ``g.s8[g.at[F_SPACE_OWNER] + i * t[X_NS] + sp]``. ``t`` is one int64
array holding the map's and the components' tables (:func:`tables`, built once per map): ``t[X_NS]`` the number of
spaces, ``t[t[X_LINK_A] + link]`` a 1-D table, ``t[t[X_ALLOWED] + a * t[X_ALLOWED + 2] + b]`` a 2-D one. A few
arrays per call instead of one per field or table keep numba's compile at about a minute, not five.

Uncompiled (``NUMBA_DISABLE_JIT=1``) the same Python runs with each array wrapped as
:class:`industry_env.core.uncompiled.Scalars`, so that it reads elements as compiled code does.
"""

from __future__ import annotations

import sys

import numpy as np
from numba import prange

from ...core import runtime
from ...core.chance import key_one, splitmix64_one
from ...core.numba_cache import njit  # numba's, falling back to no disk cache where none is writable
from ...core.uncounted import uncounted
from . import chance as CH
from . import kernel_actions, kernel_layout, kernel_money, kernel_rounds, kernel_transport
from .components import IMPORT_SPACE
from .kernel_actions import (
    action_choices,
    build_industry,
    build_options,
    deliver,
    deliver_one,
    delivery_locs,
    draw_choices,
    on_draw,
    play_card,
    sale_targets,
    sell_goods,
    sellers,
)
from .kernel_layout import (
    B_BUILD,
    B_BUILD_ANY,
    B_BUILD_AT,
    B_DEVELOP,
    B_DONE,
    B_DRAW,
    B_PASS,
    B_RAIL,
    B_REMOVE,
    B_REPAY,
    B_SELL,
    B_SELL_TO,
    B_SOURCE,
    COAL,
    DEMAND,
    F_ACTIONS_LEFT,
    F_BUILD_INDUSTRY,
    F_BUILD_SPACE,
    F_CARD,
    F_COMBINED,
    F_DECK,
    F_DECK_POS,
    F_DEMAND,
    F_DISCARD,
    F_DISPLAY,
    F_DRAWS_LEFT,
    F_EDITION,
    F_FACE_UP,
    F_HAND,
    F_KNOWN,
    F_LINK_OWNER,
    F_LOANS,
    F_MONEY,
    F_NEED_COAL,
    F_NEED_IRON,
    F_NUM_PLAYERS,
    F_ORDER,
    F_PHASE,
    F_RAIL_LINK,
    F_RAILS_LEFT,
    F_REWARDS,
    F_ROUND,
    F_SEED,
    F_SELL_FROM,
    F_SPACE_CUBES,
    F_SPACE_FLIPPED,
    F_SPACE_INDUSTRY,
    F_SPACE_LEVEL,
    F_SPACE_NO_FLIP,
    F_SPACE_OWNER,
    F_SPACE_TILE,
    F_SPENT,
    F_TERMINATED,
    F_TURN,
    IRON,
    NUM_TILE_KINDS,
    O_ACTIONS_LEFT,
    O_BUILD_INDUSTRY,
    O_BUILD_SPACE,
    O_CARD,
    O_COMBINED,
    O_DECK_SIZE,
    O_DEMAND,
    O_DISCARD,
    O_DISPLAY,
    O_DRAWS_LEFT,
    O_FACE_UP,
    O_FIRST_EDITION,
    O_FIRST_ROUND,
    O_HAND_SIZE,
    O_KNOWN_CARDS,
    O_LINK_COMPLETED,
    O_LINK_OWNER,
    O_LOANS,
    O_MONEY,
    O_NEED,
    O_NUM_PLAYERS,
    O_OWN_HAND,
    O_PHASE,
    O_RAIL_LINK,
    O_RAILS_LEFT,
    O_ROUND,
    O_SEAT_PRESENT,
    O_SELL_FROM,
    O_SPACE_CUBES,
    O_SPACE_FLIPPED,
    O_SPACE_INDUSTRY,
    O_SPACE_LEVEL,
    O_SPACE_NO_FLIP,
    O_SPACE_OWNER,
    O_SPACE_TILE,
    O_SPENT,
    O_TO_MOVE,
    O_TURN_DONE,
    O_TURN_POSITION,
    O_UNSEEN_CARDS,
    X_ACT_BLOCK,
    X_ACT_INDEX,
    X_C,
    X_CARD_COUNT,
    X_CARDS,
    X_D,
    X_DEMAND_LEN,
    X_K,
    X_LOAN_REPAY,
    X_MARKET_SPACES,
    X_NA,
    X_NL,
    X_NS,
    X_OBS,
    X_OFFSET,
    X_SLOT_COUNTERS,
    X_SPACE_IMPORT,
    X_SPACE_SYMBOL,
    X_TILES,
    Games,
    P,
)
from .kernel_money import (
    pay,
    repay_loan,
)
from .kernel_rounds import (
    end_action,
    hand_size,
    no_decision_in_progress,
    score_of,
    take_from_deck,
)
from .kernel_transport import (
    link_completed,
    nearest_sources,
    new_memo,
)
from .observation import SCALE_MONEY, SCALE_ROUND
from .rules import (
    ACTIONS_FIRST_ROUND,
    HAND_LIMIT,
    HAND_SIZE,
    HAND_SIZE_FIRST_EDITION_4P,
    NUM_FACE_UP,
    NUM_INDUSTRIES,
    RAIL_COST,
    RAILS_PER_PLAYER,
)
from .state import (
    ACTION,
    BUILD_WHERE,
    COAL_SOURCE,
    DEVELOP_WHICH,
    DRAW_SECOND,
    IRON_SOURCE,
    OVER,
    SELL_MORE,
    SELL_TO,
)

_U64, _key = np.uint64, key_one  # as the rules' modules name them

# Batches at least this large run on numba's threads (a prange over chunks); smaller ones on the calling thread.
# The layer is core.runtime's, the same for every game; a decision here costs about 30 times one of Industry's, so
# a launch pays from smaller batches than there.
PARALLEL_FROM_BY_LAYER = {"tbb": 64, "omp": 64, "workqueue": 512}
PARALLEL_FROM = runtime.parallel_from(PARALLEL_FROM_BY_LAYER)


@njit(cache=True)
def _shuffle(t, x, seed, purpose):
    """``chance.shuffle`` of the table ``x`` of ``t``: Fisher-Yates from the last position down, i swapping with
    draw(i) % (i + 1)."""
    n = t[x + 1]
    out = np.empty(n, np.int64)
    for k in range(n):
        out[k] = t[t[x] + k]
    for k in range(n - 1, 0, -1):
        j = np.int64(_key(seed, purpose, k) % _U64(k + 1))
        x = out[k]
        out[k] = out[j]
        out[j] = x
    return out


@njit(cache=True)
def new_game(g, t, i, seed, n, edition):
    """Iniziare il gioco (``Game._set_up``) in row ``i``."""
    first = np.int64(_key(seed, CH.FIRST_PLAYER, np.int64(0)) % _U64(n))
    deck = _shuffle(t, np.int64(X_CARDS), seed, CH.DECK)
    tiles = _shuffle(t, np.int64(X_TILES), seed, CH.MARKETS)
    g.s8[g.at[F_NUM_PLAYERS] + i] = n
    g.s8[g.at[F_EDITION] + i] = edition
    g.s64[g.at[F_SEED] + i] = seed
    g.s16[g.at[F_ROUND] + i] = 1
    g.s8[g.at[F_PHASE] + i] = ACTION
    g.s8[g.at[F_TURN] + i] = 0
    g.s8[g.at[F_ACTIONS_LEFT] + i] = ACTIONS_FIRST_ROUND
    no_decision_in_progress(g, i)
    g.s8[g.at[F_DECK_POS] + i] = 0
    g.s8[g.at[F_TERMINATED] + i] = False
    for q in range(P):
        g.s8[g.at[F_ORDER] + i * P + q] = (first + q) % n if q < n else -1
        g.s16[g.at[F_SPENT] + i * P + q] = 0
        g.s32[g.at[F_MONEY] + i * P + q] = 0
        g.s16[g.at[F_LOANS] + i * P + q] = 0
        g.s8[g.at[F_RAILS_LEFT] + i * P + q] = RAILS_PER_PLAYER if q < n else 0
        g.f32[g.at[F_REWARDS] + i * P + q] = 0.0
        for k in range(t[X_K]):
            g.s8[g.at[F_HAND] + (i * P + q) * t[X_K] + k] = 0
            g.s8[g.at[F_KNOWN] + (i * P + q) * t[X_K] + k] = 0
        for d in range(t[X_D]):
            g.s8[g.at[F_DISPLAY] + (i * P + q) * t[X_D] + d] = t[t[X_SLOT_COUNTERS] + d] if q < n else 0
    for c in range(t[X_C]):
        g.s8[g.at[F_DECK] + i * t[X_C] + c] = deck[c]
    for j in range(NUM_FACE_UP):
        g.s8[g.at[F_FACE_UP] + i * 2 + j] = -1
    for k in range(t[X_K]):
        g.s8[g.at[F_DISCARD] + i * t[X_K] + k] = 0
    for sp in range(t[X_NS]):
        g.s8[g.at[F_SPACE_OWNER] + i * t[X_NS] + sp] = -1
        g.s8[g.at[F_SPACE_INDUSTRY] + i * t[X_NS] + sp] = -1
        g.s8[g.at[F_SPACE_LEVEL] + i * t[X_NS] + sp] = 0
        g.s8[g.at[F_SPACE_FLIPPED] + i * t[X_NS] + sp] = 0
        g.s8[g.at[F_SPACE_NO_FLIP] + i * t[X_NS] + sp] = 0
        g.s8[g.at[F_SPACE_CUBES] + i * t[X_NS] + sp] = 0
        g.s8[g.at[F_SPACE_TILE] + i * t[X_NS] + sp] = -1
    for li in range(t[X_NL]):
        g.s8[g.at[F_LINK_OWNER] + i * t[X_NL] + li] = -1
    for r in range(2):
        g.s8[g.at[F_DEMAND] + i * 2 + r] = t[t[X_DEMAND_LEN] + r]
    hand_size = HAND_SIZE_FIRST_EDITION_4P if edition == 1 and n == 4 else HAND_SIZE
    for q in range(n):
        for _ in range(hand_size):
            k = take_from_deck(g, t, i)
            g.s8[g.at[F_HAND] + (i * P + g.s8[g.at[F_ORDER] + i * P + q]) * t[X_K] + k] += 1
    for j in range(NUM_FACE_UP):
        g.s8[g.at[F_FACE_UP] + i * 2 + j] = take_from_deck(g, t, i)
    for j in range(t[X_MARKET_SPACES + 1]):
        g.s8[g.at[F_SPACE_TILE] + i * t[X_NS] + t[t[X_MARKET_SPACES] + j]] = tiles[j]
    if edition == 1:  # first edition: import coal laid at set-up (ruling 14)
        for sp in range(t[X_NS]):
            if t[t[X_SPACE_SYMBOL] + sp] == IMPORT_SPACE:
                g.s8[g.at[F_SPACE_CUBES] + i * t[X_NS] + sp] = t[t[X_SPACE_IMPORT] + sp]


# ============================================================================================== networks
@njit(cache=True)
def mover(g, t, i):
    """The seat whose decision is awaited, -1 once over (or ended by an illegal action)."""
    if g.s8[g.at[F_TERMINATED] + i] or g.s8[g.at[F_PHASE] + i] == OVER:
        return -1
    return np.int64(g.s8[g.at[F_ORDER] + i * P + g.s8[g.at[F_TURN] + i]])


@njit(cache=True)
def mask_row(g, t, i, row):
    """Game ``i``'s legal-action mask into ``row`` (bool[NA]; all False once over)."""
    row[:] = False
    p = mover(g, t, i)
    if p < 0:
        return
    ph = g.s8[g.at[F_PHASE] + i]
    if ph == ACTION:
        action_choices(g, t, i, p, row)
    elif ph == BUILD_WHERE:
        build_options(
            g,
            t,
            i,
            p,
            np.int64(g.s8[g.at[F_CARD] + i]),
            g.s8[g.at[F_COMBINED] + i] != 0,
            row,
            new_memo(t),
            np.full(t[X_NS] * NUM_INDUSTRIES, -1, np.int8),
        )
    elif ph == COAL_SOURCE or ph == IRON_SOURCE:
        r = COAL if ph == COAL_SOURCE else IRON
        out = np.empty(t[X_NS] + 1, np.int64)
        a, b = delivery_locs(g, t, i)
        for j in range(nearest_sources(g, t, i, r, a, b, out)):
            h = out[j]
            row[t[t[X_OFFSET] + B_SOURCE] + (t[X_NS] if h < 0 else h)] = True
    elif ph == SELL_TO:
        sale_targets(g, t, i, np.int64(g.s16[g.at[F_SELL_FROM] + i]), row)
    elif ph == SELL_MORE:
        sellers(g, t, i, p, row)
        row[t[t[X_OFFSET] + B_DONE]] = True
    elif ph == DEVELOP_WHICH:
        for d in range(t[X_D]):
            if g.s8[g.at[F_DISPLAY] + (i * P + p) * t[X_D] + d] > 0:
                row[t[t[X_OFFSET] + B_REMOVE] + d] = True
    elif ph == DRAW_SECOND:
        draw_choices(g, t, i, row)
    if g.s16[g.at[F_LOANS] + i * P + p] > 0 and g.s32[g.at[F_MONEY] + i * P + p] >= t[X_LOAN_REPAY]:
        row[t[t[X_OFFSET] + B_REPAY]] = True


@njit(cache=True)
def apply_action(g, t, i, a):
    """Play the legal action ``a`` in game ``i`` (``Game.apply``), then everything that needs no decision."""
    p = mover(g, t, i)
    blk, x = t[t[X_ACT_BLOCK] + a], t[t[X_ACT_INDEX] + a]
    if blk == B_REPAY:
        repay_loan(g, t, i, p)
    elif blk == B_BUILD:
        play_card(g, t, i, p, x)
        g.s8[g.at[F_PHASE] + i] = BUILD_WHERE
    elif blk == B_BUILD_ANY:
        play_card(g, t, i, p, x)
        g.s8[g.at[F_COMBINED] + i] = 1
        g.s8[g.at[F_PHASE] + i] = BUILD_WHERE
    elif blk == B_BUILD_AT:
        build_industry(g, t, i, p, x // NUM_INDUSTRIES, x % NUM_INDUSTRIES)
    elif blk == B_SOURCE:
        r = COAL if g.s8[g.at[F_PHASE] + i] == COAL_SOURCE else IRON
        deliver_one(g, t, i, p, r, DEMAND if x == t[X_NS] else x)
        deliver(g, t, i, p)
    elif blk == B_RAIL:
        pay(g, t, i, p, np.int64(RAIL_COST), np.bool_(True))
        g.s16[g.at[F_RAIL_LINK] + i] = x
        if g.s8[g.at[F_RAILS_LEFT] + i * P + p] < RAILS_PER_PLAYER:
            g.s8[g.at[F_NEED_COAL] + i] = 1
            g.s8[g.at[F_NEED_IRON] + i] = 1
        deliver(g, t, i, p)
    elif blk == B_SELL:
        g.s16[g.at[F_SELL_FROM] + i] = x
        g.s8[g.at[F_PHASE] + i] = SELL_TO
    elif blk == B_SELL_TO:
        sell_goods(g, t, i, p, np.int64(g.s16[g.at[F_SELL_FROM] + i]), x)
        g.s16[g.at[F_SELL_FROM] + i] = -1
        if sellers(g, t, i, p, np.zeros(0, np.bool_)) > 0:
            g.s8[g.at[F_PHASE] + i] = SELL_MORE
        else:
            end_action(g, t, i)
    elif blk == B_DONE:
        end_action(g, t, i)
    elif blk == B_DEVELOP:
        play_card(g, t, i, p, x)
        g.s8[g.at[F_PHASE] + i] = DEVELOP_WHICH
    elif blk == B_REMOVE:
        g.s8[g.at[F_DISPLAY] + (i * P + p) * t[X_D] + x] -= 1
        end_action(g, t, i)
    elif blk == B_DRAW:
        on_draw(g, t, i, p, x)
    elif blk == B_PASS:
        play_card(g, t, i, p, x)
        end_action(g, t, i)
    else:  # B_PASS_FREE
        end_action(g, t, i)


# ============================================================================================== observation
@njit(cache=True)
def observe_row(g, t, i, seat, o):
    """``observation.observe(game, seat)`` of game ``i`` into ``o`` (float32[NOBS], zeros)."""
    n = np.int64(g.s8[g.at[F_NUM_PLAYERS] + i])
    ph = np.int64(g.s8[g.at[F_PHASE] + i])
    rnd = np.int64(g.s16[g.at[F_ROUND] + i])
    o[t[t[X_OBS] + O_NUM_PLAYERS] + n - 3] = 1.0
    o[t[t[X_OBS] + O_FIRST_EDITION]] = 1.0 if g.s8[g.at[F_EDITION] + i] == 1 else 0.0
    o[t[t[X_OBS] + O_ROUND]] = rnd / SCALE_ROUND
    o[t[t[X_OBS] + O_FIRST_ROUND]] = 1.0 if rnd == 1 else 0.0
    o[t[t[X_OBS] + O_PHASE] + ph] = 1.0
    o[t[t[X_OBS] + O_ACTIONS_LEFT]] = np.int64(g.s8[g.at[F_ACTIONS_LEFT] + i]) / 2
    cur = -1 if ph == OVER else np.int64(g.s8[g.at[F_ORDER] + i * P + g.s8[g.at[F_TURN] + i]])
    if cur >= 0:
        o[t[t[X_OBS] + O_TO_MOVE] + (cur - seat) % n] = 1.0
    turn = np.int64(g.s8[g.at[F_TURN] + i])
    for pos in range(n):
        q = np.int64(g.s8[g.at[F_ORDER] + i * P + pos])
        rq = (q - seat) % n
        o[t[t[X_OBS] + O_TURN_POSITION] + rq * P + pos] = 1.0
        o[t[t[X_OBS] + O_TURN_DONE] + rq] = 1.0 if (pos < turn or ph == OVER) else 0.0
    unseen = np.empty(t[X_K], np.int64)
    for k in range(t[X_K]):
        unseen[k] = (
            t[t[X_CARD_COUNT] + k]
            - np.int64(g.s8[g.at[F_HAND] + (i * P + seat) * t[X_K] + k])
            - np.int64(g.s8[g.at[F_DISCARD] + i * t[X_K] + k])
        )
    for q in range(n):
        rq = (q - seat) % n
        o[t[t[X_OBS] + O_SEAT_PRESENT] + rq] = 1.0
        o[t[t[X_OBS] + O_MONEY] + rq] = np.int64(g.s32[g.at[F_MONEY] + i * P + q]) / SCALE_MONEY
        o[t[t[X_OBS] + O_LOANS] + rq] = g.s16[g.at[F_LOANS] + i * P + q]
        o[t[t[X_OBS] + O_SPENT] + rq] = np.int64(g.s16[g.at[F_SPENT] + i * P + q]) / SCALE_MONEY
        o[t[t[X_OBS] + O_HAND_SIZE] + rq] = hand_size(g, t, i, q) / HAND_LIMIT
        for k in range(t[X_K]):
            o[t[t[X_OBS] + O_KNOWN_CARDS] + rq * t[X_K] + k] = g.s8[g.at[F_KNOWN] + (i * P + q) * t[X_K] + k]
            if q != seat:
                unseen[k] -= g.s8[g.at[F_KNOWN] + (i * P + q) * t[X_K] + k]
        for d in range(t[X_D]):
            o[t[t[X_OBS] + O_DISPLAY] + rq * t[X_D] + d] = g.s8[g.at[F_DISPLAY] + (i * P + q) * t[X_D] + d]
        o[t[t[X_OBS] + O_RAILS_LEFT] + rq] = np.int64(g.s8[g.at[F_RAILS_LEFT] + i * P + q]) / RAILS_PER_PLAYER
    for k in range(t[X_K]):
        o[t[t[X_OBS] + O_OWN_HAND] + k] = g.s8[g.at[F_HAND] + (i * P + seat) * t[X_K] + k]
    for j in range(NUM_FACE_UP):
        kind = np.int64(g.s8[g.at[F_FACE_UP] + i * 2 + j])
        if kind >= 0:
            o[t[t[X_OBS] + O_FACE_UP] + j * t[X_K] + kind] = 1.0
            unseen[kind] -= 1
    for k in range(t[X_K]):
        o[t[t[X_OBS] + O_UNSEEN_CARDS] + k] = unseen[k]
    o[t[t[X_OBS] + O_DECK_SIZE]] = (t[X_C] - np.int64(g.s8[g.at[F_DECK_POS] + i])) / t[X_C]
    for k in range(t[X_K]):
        o[t[t[X_OBS] + O_DISCARD] + k] = g.s8[g.at[F_DISCARD] + i * t[X_K] + k]
    for sp in range(t[X_NS]):
        owner = np.int64(g.s8[g.at[F_SPACE_OWNER] + i * t[X_NS] + sp])
        if owner >= 0:
            o[t[t[X_OBS] + O_SPACE_OWNER] + sp * P + (owner - seat) % n] = 1.0
            o[
                t[t[X_OBS] + O_SPACE_INDUSTRY] + sp * NUM_INDUSTRIES + g.s8[g.at[F_SPACE_INDUSTRY] + i * t[X_NS] + sp]
            ] = 1.0
        o[t[t[X_OBS] + O_SPACE_LEVEL] + sp] = g.s8[g.at[F_SPACE_LEVEL] + i * t[X_NS] + sp]
        o[t[t[X_OBS] + O_SPACE_FLIPPED] + sp] = g.s8[g.at[F_SPACE_FLIPPED] + i * t[X_NS] + sp]
        o[t[t[X_OBS] + O_SPACE_NO_FLIP] + sp] = g.s8[g.at[F_SPACE_NO_FLIP] + i * t[X_NS] + sp]
        o[t[t[X_OBS] + O_SPACE_CUBES] + sp] = g.s8[g.at[F_SPACE_CUBES] + i * t[X_NS] + sp]
        if g.s8[g.at[F_SPACE_TILE] + i * t[X_NS] + sp] >= 0:
            o[t[t[X_OBS] + O_SPACE_TILE] + sp * NUM_TILE_KINDS + g.s8[g.at[F_SPACE_TILE] + i * t[X_NS] + sp]] = 1.0
    for li in range(t[X_NL]):
        owner = np.int64(g.s8[g.at[F_LINK_OWNER] + i * t[X_NL] + li])
        if owner >= 0:
            o[t[t[X_OBS] + O_LINK_OWNER] + li * P + (owner - seat) % n] = 1.0
        o[t[t[X_OBS] + O_LINK_COMPLETED] + li] = 1.0 if link_completed(g, t, i, li) else 0.0
    o[t[t[X_OBS] + O_DEMAND]] = g.s8[g.at[F_DEMAND] + i * 2 + 0]
    o[t[t[X_OBS] + O_DEMAND] + 1] = g.s8[g.at[F_DEMAND] + i * 2 + 1]
    if g.s8[g.at[F_CARD] + i] >= 0:
        o[t[t[X_OBS] + O_CARD] + g.s8[g.at[F_CARD] + i]] = 1.0
    o[t[t[X_OBS] + O_COMBINED]] = g.s8[g.at[F_COMBINED] + i]
    if g.s16[g.at[F_BUILD_SPACE] + i] >= 0:
        o[t[t[X_OBS] + O_BUILD_SPACE] + g.s16[g.at[F_BUILD_SPACE] + i]] = 1.0
        o[t[t[X_OBS] + O_BUILD_INDUSTRY] + g.s8[g.at[F_BUILD_INDUSTRY] + i]] = 1.0
    if g.s16[g.at[F_RAIL_LINK] + i] >= 0:
        o[t[t[X_OBS] + O_RAIL_LINK] + g.s16[g.at[F_RAIL_LINK] + i]] = 1.0
    o[t[t[X_OBS] + O_NEED]] = g.s8[g.at[F_NEED_COAL] + i]
    o[t[t[X_OBS] + O_NEED] + 1] = g.s8[g.at[F_NEED_IRON] + i]
    if g.s16[g.at[F_SELL_FROM] + i] >= 0:
        o[t[t[X_OBS] + O_SELL_FROM] + g.s16[g.at[F_SELL_FROM] + i]] = 1.0
    o[t[t[X_OBS] + O_DRAWS_LEFT]] = g.s8[g.at[F_DRAWS_LEFT] + i]


# ============================================================================================== batch entries
@njit(cache=True)
def _uncounted(g, t):
    """The batch's views and the tables without reference counts (:mod:`industry_env.core.uncounted`): every
    entry passes these to the per-game helpers, whose calls would otherwise count each array atomically."""
    views = Games(uncounted(g.s8), uncounted(g.s16), uncounted(g.s32), uncounted(g.s64), uncounted(g.f32),
                  uncounted(g.at))  # fmt: skip
    return views, uncounted(t)


@njit(cache=True)
def _step_range(g, t, actions, mask, use_mask, legal, penalty, next_mask, write_next, lo, hi):
    """Step games ``lo:hi`` whose legality is in ``legal``: rewards zeroed, illegal live games penalized, legal
    live games played; then (``write_next``) each game's new mask into ``next_mask``."""
    for i in range(lo, hi):
        for q in range(P):
            g.f32[g.at[F_REWARDS] + i * P + q] = 0.0
        if g.s8[g.at[F_TERMINATED] + i]:
            pass
        elif legal[i]:
            apply_action(g, t, i, actions[i])
        else:
            # Pgx: "Taking illegal action leads to immediate game terminal with negative reward".
            fault = mover(g, t, i)
            for q in range(g.s8[g.at[F_NUM_PLAYERS] + i]):
                g.f32[g.at[F_REWARDS] + i * P + q] = penalty if q == fault else -penalty
            g.s8[g.at[F_TERMINATED] + i] = True
        if write_next:
            mask_row(g, t, i, next_mask[i])


@njit(cache=True)
def _check_range(g, t, actions, mask, use_mask, legal, lo, hi):
    """legal[i] for games ``lo:hi``: is ``actions[i]`` legal (True for finished games)? Returns the illegal count."""
    row = np.zeros(t[X_NA], np.bool_)
    bad = 0
    for i in range(lo, hi):
        a = actions[i]
        if g.s8[g.at[F_TERMINATED] + i]:
            ok = True
        elif a < 0 or a >= t[X_NA]:
            ok = False
        elif use_mask:
            ok = mask[i, a]
        else:
            mask_row(g, t, i, row)
            ok = row[a]
        legal[i] = ok
        if not ok:
            bad += 1
    return bad


@njit(cache=True)
def step_serial(g, t, actions, mask, use_mask, legal, raise_, penalty, next_mask, write_next):
    """Check every game's action; unless some are illegal and ``raise_``, step them all, on this thread.
    Returns the illegal count (nothing applied if it is nonzero and ``raise_``)."""
    g, t = _uncounted(g, t)
    B = actions.shape[0]
    lo = np.int64(0)  # typed int64, as run_parallel's bounds: a literal 0 would compile each range function twice
    n_bad = _check_range(g, t, actions, mask, use_mask, legal, lo, B)
    if n_bad and raise_:
        return n_bad
    _step_range(g, t, actions, mask, use_mask, legal, penalty, next_mask, write_next, lo, B)
    return n_bad


OP_MASK, OP_CHECK, OP_APPLY = range(3)


@njit(cache=True)
def run_parallel(op, g, t, actions, mask, use_mask, legal, penalty, next_mask, write_next, nc):
    """The batch in ``nc`` chunks on numba's threads, one ``prange`` loop for every operation ``op``: each parallel
    function costs seconds of compile, so there is one. ``OP_MASK``: the masks into ``next_mask``; ``OP_CHECK``:
    ``legal`` (returns the illegal count); ``OP_APPLY``: the step of ``step_serial`` after its check."""
    views, tables = _uncounted(g, t)  # made here: numba's parallel lowering fails on a tuple made in its function
    return _in_chunks(op, views, tables, actions, mask, use_mask, legal, penalty, next_mask, write_next, nc)


@njit(cache=True, parallel=True)
def _in_chunks(op, g, t, actions, mask, use_mask, legal, penalty, next_mask, write_next, nc):
    """:func:`run_parallel`'s loop over the chunks, on the views without reference counts."""
    B = legal.shape[0]
    bad = np.zeros(nc, np.int64)
    for c in prange(nc):
        lo, hi = np.int64(c * B // nc), np.int64((c + 1) * B // nc)
        if op == OP_MASK:
            for i in range(lo, hi):
                mask_row(g, t, i, next_mask[i])
        elif op == OP_CHECK:
            bad[c] = _check_range(g, t, actions, mask, use_mask, legal, lo, hi)
        else:
            _step_range(g, t, actions, mask, use_mask, legal, penalty, next_mask, write_next, lo, hi)
    return bad.sum()


@njit(cache=True)
def mask_serial(g, t, out):
    g, t = _uncounted(g, t)
    for i in range(out.shape[0]):
        mask_row(g, t, i, out[i])


@njit(cache=True)
def observe_rows(g, t, seats, out):
    """Each game seen from ``seats[i]`` into ``out`` (float32[B, NOBS], zeros)."""
    g, t = _uncounted(g, t)
    for i in range(out.shape[0]):
        observe_row(g, t, i, seats[i], out[i])


@njit(cache=True)
def new_games(g, t, rows, seeds, n, edition, next_mask, write_next):
    """New games in ``rows`` (seed, players, edition per row); their masks into ``next_mask`` if asked."""
    g, t = _uncounted(g, t)
    for j in range(rows.shape[0]):
        i = rows[j]
        new_game(g, t, i, seeds[j], n[j], edition[j])
        if write_next:
            mask_row(g, t, i, next_mask[i])


@njit(cache=True)
def scores_rows(g, t, out):
    """``Game.scores()`` of every game into ``out`` (int64[B, P], 0 in absent seats)."""
    g, t = _uncounted(g, t)
    for i in range(out.shape[0]):
        for q in range(g.s8[g.at[F_NUM_PLAYERS] + i]):
            out[i, q] = score_of(g, t, i, np.int64(q))


@njit(cache=True)
def sample_rows(mask, u, out):
    """For random play: the ``floor(u * count)``-th legal action of each row (0 for an empty row)."""
    for i in range(mask.shape[0]):
        n = 0
        for a in range(mask.shape[1]):
            n += mask[i, a]
        out[i] = 0
        if n == 0:
            continue
        pick = min(np.int64(u[i] * n), n - 1)
        for a in range(mask.shape[1]):
            if mask[i, a]:
                if pick == 0:
                    out[i] = a
                    break
                pick -= 1


def threads(batch_size: int) -> int:
    """Chunks for a batch run on numba's threads (0: run on this thread)."""
    return runtime.chunks(batch_size, PARALLEL_FROM)


# ---------------------------------------------------------------------------------------------- the disk cache
CACHE_NAME = "aoi_kernel"  # the stamp of this kernel's sources in numba's cache folder
COLD_COMPILE_SECONDS = 50  # about what the first compile takes on the quiet 2-core test machine (docs/age-of-industry)


#: the modules of the compiled rules beside this one (each mirrors the reference's module of the same rules)
RULE_MODULES = (kernel_layout, kernel_money, kernel_transport, kernel_rounds, kernel_actions)


def sources() -> list[str]:
    """The files whose numbers the compiled code holds: this one and the rules' modules beside it, the rules, the
    state's phases, the chance purposes and the observation's scales, and core's compiled helpers."""
    names = ("rules", "state", "chance", "observation", "actions", "components")
    core = [sys.modules[f.__module__].__file__ for f in (key_one, uncounted)]
    return [__file__, *(m.__file__ for m in RULE_MODULES), *core] + [
        sys.modules[f"{__package__}.{x}"].__file__ for x in names]  # fmt: skip


def dispatchers() -> list:
    """The compiled functions of this module and of the rules' modules, and core's that they call."""
    own = [f for m in (sys.modules[__name__], *RULE_MODULES) for f in vars(m).values()
           if hasattr(f, "_cache") and getattr(f, "__module__", None) == m.__name__]  # fmt: skip
    return own + [splitmix64_one, key_one, uncounted]


def entries() -> list:
    """The compiled functions called from Python."""
    return [step_serial, run_parallel, mask_serial, observe_rows, new_games, scores_rows, sample_rows]
