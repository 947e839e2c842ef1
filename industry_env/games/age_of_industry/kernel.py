"""The rules of Age of Industry compiled by numba, one game at a time, looped over a batch (``prange`` threads from
:data:`PARALLEL_FROM` games).

Every function below is the method of :class:`.reference.Game` of the same name, written over arrays, in the
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
from collections import namedtuple

import numpy as np
from numba import prange

from ...core import runtime, uncompiled
from ...core.chance import key_one, splitmix64_one
from ...core.numba_cache import njit  # numba's, falling back to no disk cache where none is writable
from ...core.uncompiled import scalars
from ...core.uncounted import uncounted
from . import actions as A
from . import chance as CH
from .components import ALL_SYMBOLS, IMPORT_SPACE, MARKET_SPACE, TILE_ACCEPTS, Components, GameMap
from .observation import SCALE_MONEY, SCALE_ROUND, index
from .rules import (
    ACTIONS_FIRST_ROUND,
    ACTIONS_PER_TURN,
    ALLOWED,
    BIG_LOCATION,
    COAL,
    COAL_MINE,
    COTTON,
    COTTON_MILL,
    DOLLARS_PER_POINT,
    EMPTY_DEMAND_PRICE,
    FACTORY,
    HAND_LIMIT,
    HAND_SIZE,
    HAND_SIZE_FIRST_EDITION_4P,
    IRON,
    IRON_WORKS,
    MANUFACTURED,
    MAX_PLAYERS,
    MAX_SPACES_BIG,
    MAX_SPACES_SMALL,
    NUM_FACE_UP,
    NUM_INDUSTRIES,
    POINTS_PER_UNPAID_LOAN,
    PORT,
    RAIL_COST,
    RAIL_INCOME,
    RAILS_PER_PLAYER,
    SHIP,
    SHIP_SPACE,
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

P = MAX_PLAYERS
DEMAND = -1  # a source: the demand track
# The resources as int64 values, not Python ints: numba compiles a function once for each literal argument it is
# called with (cubes_anywhere(..., COAL) and cubes_anywhere(..., IRON) were two compiles of one function).
COAL, IRON = np.int64(COAL), np.int64(IRON)
_U64 = np.uint64
# action blocks (the order of actions.BLOCKS), as the kernel's decision kinds
(B_BUILD, B_BUILD_ANY, B_RAIL, B_SELL, B_DEVELOP, B_DRAW, B_PASS, B_PASS_FREE, B_BUILD_AT, B_SOURCE, B_SELL_TO,
 B_REMOVE, B_DONE, B_REPAY) = range(len(A.BLOCKS))  # fmt: skip
# Batches at least this large run on numba's threads (a prange over chunks); smaller ones on the calling thread.
# The layer is core.runtime's, the same for every game; a decision here costs about 30 times one of Industry's, so
# a launch pays from smaller batches than there.
PARALLEL_FROM_BY_LAYER = {"tbb": 64, "omp": 64, "workqueue": 512}
PARALLEL_FROM = runtime.parallel_from(PARALLEL_FROM_BY_LAYER)

# The tables of one map and the components, packed in one int64 array ``t`` (:func:`tables`): first the numbers
# (t[X_NS] the spaces, ...), then for each table its start, first and second size (t[X_LINK_A] is where LINK_A
# starts, t[X_LINK_A + 1] its length; entry [a, b] of a 2-D table X is t[t[X] + a * t[X + 2] + b]), then the tables.
TABLE_NUMBERS = (
    "NLOC",
    "NS",
    "NL",
    "NLR",
    "K",
    "D",
    "C",
    "NA",
    "NOBS",
    "LOAN_VALUE",
    "LOAN_REPAY",
    "LOAN_INTEREST",
    "HAS_SHIPS",
)
TABLE_ARRAYS = (
    "OFFSET",
    "ACT_BLOCK",
    "ACT_INDEX",
    "LOC_COLOUR",
    "LOC_VILLAGE",
    "LOC_DISTANT_PORT",
    "LOC_NO_THROUGH",
    "LOC_BUILD_SPACES",
    "LOC_HAS_PORT_SPACE",
    "LOC_SPACES",
    "LOC_NSP",
    "LOC_LINKS",
    "LOC_NLK",
    "SPACE_LOC",
    "SPACE_SYMBOL",
    "SPACE_IMPORT",
    "LINK_A",
    "LINK_B",
    "LINK_SEA",
    "SHIP_IMPORT",
    "SHIP_MARKET",
    "SHIP_PORT_LOCS",
    "SHIP_NPL",
    "IMPORT_SHIP",
    "MARKET_SHIP",
    "BUILD_SPACES",
    "MARKET_SPACES",
    "ALLOWED",
    "SLOT_INDUSTRY",
    "SLOT_LEVEL",
    "SLOT_COUNTERS",
    "SLOT_COST",
    "SLOT_COAL",
    "SLOT_IRON",
    "SLOT_CUBES",
    "SLOT_INCOME",
    "SLOTS_OF",
    "SLOTS_NOF",
    "SLOT_OF",
    "CARD_COUNT",
    "CARD_INDUSTRY",
    "CARD_COLOUR",
    "CARDS",
    "TILES",
    "DEMAND_PRICES",
    "DEMAND_LEN",
    "TILE_ACCEPTS",
    "OBS",
)
(X_NLOC, X_NS, X_NL, X_NLR, X_K, X_D, X_C, X_NA, X_NOBS, X_LOAN_VALUE, X_LOAN_REPAY, X_LOAN_INTEREST,
 X_HAS_SHIPS) = range(len(TABLE_NUMBERS))  # fmt: skip
(
    X_OFFSET,
    X_ACT_BLOCK,
    X_ACT_INDEX,
    X_LOC_COLOUR,
    X_LOC_VILLAGE,
    X_LOC_DISTANT_PORT,
    X_LOC_NO_THROUGH,
    X_LOC_BUILD_SPACES,
    X_LOC_HAS_PORT_SPACE,
    X_LOC_SPACES,
    X_LOC_NSP,
    X_LOC_LINKS,
    X_LOC_NLK,
    X_SPACE_LOC,
    X_SPACE_SYMBOL,
    X_SPACE_IMPORT,
    X_LINK_A,
    X_LINK_B,
    X_LINK_SEA,
    X_SHIP_IMPORT,
    X_SHIP_MARKET,
    X_SHIP_PORT_LOCS,
    X_SHIP_NPL,
    X_IMPORT_SHIP,
    X_MARKET_SHIP,
    X_BUILD_SPACES,
    X_MARKET_SPACES,
    X_ALLOWED,
    X_SLOT_INDUSTRY,
    X_SLOT_LEVEL,
    X_SLOT_COUNTERS,
    X_SLOT_COST,
    X_SLOT_COAL,
    X_SLOT_IRON,
    X_SLOT_CUBES,
    X_SLOT_INCOME,
    X_SLOTS_OF,
    X_SLOTS_NOF,
    X_SLOT_OF,
    X_CARD_COUNT,
    X_CARD_INDUSTRY,
    X_CARD_COLOUR,
    X_CARDS,
    X_TILES,
    X_DEMAND_PRICES,
    X_DEMAND_LEN,
    X_TILE_ACCEPTS,
    X_OBS,
) = range(len(TABLE_NUMBERS), len(TABLE_NUMBERS) + 3 * len(TABLE_ARRAYS), 3)

# The pieces of the observation, in observation.layout's order: O_<NAME> indexes the table OBS.
OBS_PIECES = ("num_players", "first_edition", "round", "first_round", "phase", "actions_left", "to_move",
              "seat_present", "turn_position", "turn_done", "money", "loans", "spent", "hand_size", "own_hand",
              "known_cards", "unseen_cards", "deck_size", "face_up", "discard", "display", "rails_left",
              "space_owner", "space_industry", "space_level", "space_flipped", "space_no_flip", "space_cubes",
              "space_tile", "link_owner", "link_completed", "demand", "card", "combined", "build_space",
              "build_industry", "rail_link", "need", "sell_from", "draws_left")  # fmt: skip
(O_NUM_PLAYERS, O_FIRST_EDITION, O_ROUND, O_FIRST_ROUND, O_PHASE, O_ACTIONS_LEFT, O_TO_MOVE, O_SEAT_PRESENT,
 O_TURN_POSITION, O_TURN_DONE, O_MONEY, O_LOANS, O_SPENT, O_HAND_SIZE, O_OWN_HAND, O_KNOWN_CARDS, O_UNSEEN_CARDS,
 O_DECK_SIZE, O_FACE_UP, O_DISCARD, O_DISPLAY, O_RAILS_LEFT, O_SPACE_OWNER, O_SPACE_INDUSTRY, O_SPACE_LEVEL,
 O_SPACE_FLIPPED, O_SPACE_NO_FLIP, O_SPACE_CUBES, O_SPACE_TILE, O_LINK_OWNER, O_LINK_COMPLETED, O_DEMAND, O_CARD,
 O_COMBINED, O_BUILD_SPACE, O_BUILD_INDUSTRY, O_RAIL_LINK, O_NEED, O_SELL_FROM,
 O_DRAWS_LEFT) = range(len(OBS_PIECES))  # fmt: skip
NUM_TILE_KINDS = len(TILE_ACCEPTS)
# Fields of the State (state.FIELDS, then the batch's own), in order: g.at[F_X] is where field X of game 0
# starts in the view of its width; element e of game i is at g.at[F_X] + i * (elements a game) + e.
(
    F_NUM_PLAYERS,
    F_EDITION,
    F_SEED,
    F_ROUND,
    F_PHASE,
    F_TURN,
    F_ACTIONS_LEFT,
    F_CARD,
    F_COMBINED,
    F_BUILD_SPACE,
    F_BUILD_INDUSTRY,
    F_RAIL_LINK,
    F_NEED_COAL,
    F_NEED_IRON,
    F_SELL_FROM,
    F_DRAWS_LEFT,
    F_DECK_POS,
    F_ORDER,
    F_SPENT,
    F_MONEY,
    F_LOANS,
    F_HAND,
    F_KNOWN,
    F_DECK,
    F_FACE_UP,
    F_DISCARD,
    F_DISPLAY,
    F_RAILS_LEFT,
    F_SPACE_OWNER,
    F_SPACE_INDUSTRY,
    F_SPACE_LEVEL,
    F_SPACE_FLIPPED,
    F_SPACE_NO_FLIP,
    F_SPACE_CUBES,
    F_SPACE_TILE,
    F_LINK_OWNER,
    F_DEMAND,
    F_TERMINATED,
    F_REWARDS,
) = range(39)


def _padded(rows, dtype=np.int64) -> tuple[np.ndarray, np.ndarray]:
    """A ragged list as a -1 padded table and its row lengths."""
    width = max([len(r) for r in rows] + [1])
    table = np.full((len(rows), width), -1, dtype)
    for k, r in enumerate(rows):
        table[k, : len(r)] = r
    return table, np.array([len(r) for r in rows], dtype)


def tables(components: Components, game_map: GameMap) -> np.ndarray:
    """The map's and the components' facts as arrays (and the action encoding's offsets), for the kernel."""
    c, m = components, game_map
    space = A.action_space(c, m)
    a64 = lambda x: np.asarray(x, np.int64)  # noqa: E731
    offsets = a64([space.offsets[b] for b in A.BLOCKS])
    act_block = np.zeros(space.size, np.int64)
    act_index = np.zeros(space.size, np.int64)
    for b, name in enumerate(A.BLOCKS):
        lo = space.offsets[name]
        act_block[lo : lo + space.sizes[name]] = b
        act_index[lo : lo + space.sizes[name]] = np.arange(space.sizes[name])
    loc_spaces, loc_nsp = _padded(m.LOC_SPACES)
    loc_links, loc_nlk = _padded(m.LOC_LINKS)
    ship_ports, ship_npl = _padded(m.SHIP_PORT_LOCS)
    import_ship = np.full(m.num_spaces, -1, np.int64)
    market_ship = np.full(m.num_spaces, -1, np.int64)
    for s in range(m.num_spaces):
        if m.SHIP_IMPORT[s] >= 0:
            import_ship[m.SHIP_IMPORT[s]] = s
        if m.SHIP_MARKET[s] >= 0:
            market_ship[m.SHIP_MARKET[s]] = s
    allowed = np.zeros((len(ALL_SYMBOLS), NUM_INDUSTRIES), np.int64)
    for sym, inds in ALLOWED.items():
        allowed[sym, list(inds)] = 1
    slots_of, slots_nof = _padded(c.SLOTS_OF)
    slot_of = np.full((NUM_INDUSTRIES, max(c.SLOT_LEVEL) + 1), -1, np.int64)
    for d in range(c.num_slots):
        slot_of[c.SLOT_INDUSTRY[d], c.SLOT_LEVEL[d]] = d
    prices, plen = _padded(c.DEMAND_PRICES)
    cards = a64([k for k in range(c.num_card_kinds) for _ in range(c.CARD_COUNT[k])])
    tiles = a64([k for k in range(len(c.TILE_COUNT)) for _ in range(c.TILE_COUNT[k])])
    idx = index(c, m)
    values = (
        m.num_locations, m.num_spaces, m.num_links, m.num_rail_links, c.num_card_kinds, c.num_slots, len(cards),
        space.size, max(sl.stop for sl in idx.values()), c.LOAN_VALUE, c.LOAN_REPAY, c.LOAN_INTEREST,
        int(m.has_ships),
        offsets, act_block, act_index,
        a64(m.LOC_COLOUR), a64(m.LOC_VILLAGE), a64(m.LOC_DISTANT_PORT), a64(m.LOC_NO_THROUGH),
        a64(m.LOC_BUILD_SPACES), a64(m.LOC_HAS_PORT_SPACE), loc_spaces, loc_nsp, loc_links, loc_nlk,
        a64(m.SPACE_LOC), a64(m.SPACE_SYMBOL), a64(m.SPACE_IMPORT), a64(m.LINK_A), a64(m.LINK_B), a64(m.LINK_SEA),
        a64(m.SHIP_IMPORT), a64(m.SHIP_MARKET), ship_ports, ship_npl, import_ship, market_ship,
        a64([s for s, sym in enumerate(m.SPACE_SYMBOL) if sym in ALLOWED]), a64(m.market_spaces), allowed,
        a64(c.SLOT_INDUSTRY), a64(c.SLOT_LEVEL), a64(c.SLOT_COUNTERS), a64(c.SLOT_COST), a64(c.SLOT_COAL),
        a64(c.SLOT_IRON), a64(c.SLOT_CUBES), a64(c.SLOT_INCOME), slots_of, slots_nof, slot_of,
        a64(c.CARD_COUNT), a64(c.CARD_INDUSTRY), a64(c.CARD_COLOUR), cards, tiles, prices, plen,
        a64(TILE_ACCEPTS), a64([idx[name].start for name in OBS_PIECES]),
    )  # fmt: skip
    numbers, arrays = values[: len(TABLE_NUMBERS)], values[len(TABLE_NUMBERS) :]
    head = len(TABLE_NUMBERS) + 3 * len(TABLE_ARRAYS)
    out = [np.asarray(numbers, np.int64), np.zeros(3 * len(TABLE_ARRAYS), np.int64)]
    at = head
    for k, arr in enumerate(arrays):
        arr = np.asarray(arr, np.int64)
        shape = arr.shape if arr.ndim == 2 else (arr.shape[0], 1)
        out[1][3 * k : 3 * k + 3] = (at, shape[0], shape[1])
        out.append(arr.reshape(-1))
        at += arr.size
    return np.concatenate(out)


Games = namedtuple("Games", ("s8", "s16", "s32", "s64", "f32", "at"))
Games.__doc__ = """A batch as the kernel reads it: views of its one buffer by width (int8 and bool fields, int16, int32,
int64, float32) and ``at[F_X]``, where field X of game 0 starts in its view (:func:`views`)."""


def views(buf: np.ndarray, schema, batch_size: int) -> Games:
    """The kernel's view of a batch of ``batch_size`` games whose State (laid out by ``schema``) is ``buf``."""

    def view(dtype):
        w = np.dtype(dtype).itemsize
        return buf[: buf.size // w * w].view(dtype)

    at = np.array([schema.units(name) * batch_size for name in schema.names], np.int64)
    g = Games(view(np.int8), view(np.int16), view(np.int32), view(np.int64), view(np.float32), at)
    if uncompiled.DISABLED:
        return Games(*(scalars(a) for a in g))
    return g


def wrap_tables(t: np.ndarray) -> np.ndarray:
    """The tables as the kernel reads them (uncompiled: as Scalars)."""
    return scalars(t) if uncompiled.DISABLED else t


# ============================================================================================== chance
# SplitMix64 and the draw key: core.chance's compiled ones, shared by every game
_splitmix64 = splitmix64_one
_key = key_one


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


# ============================================================================================== set-up
@njit(cache=True)
def _take_from_deck(g, t, i):
    pos = g.s8[g.at[F_DECK_POS] + i]
    k = g.s8[g.at[F_DECK] + i * t[X_C] + pos]
    g.s8[g.at[F_DECK] + i * t[X_C] + pos] = -1
    g.s8[g.at[F_DECK_POS] + i] = pos + 1
    return k


@njit(cache=True)
def _no_decision_in_progress(g, i):
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
    _no_decision_in_progress(g, i)
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
            k = _take_from_deck(g, t, i)
            g.s8[g.at[F_HAND] + (i * P + g.s8[g.at[F_ORDER] + i * P + q]) * t[X_K] + k] += 1
    for j in range(NUM_FACE_UP):
        g.s8[g.at[F_FACE_UP] + i * 2 + j] = _take_from_deck(g, t, i)
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


@njit(cache=True, inline="always")
def _port_counter_at(g, t, i, loc):
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
            return (not t[t[X_LOC_HAS_PORT_SPACE] + other]) or _port_counter_at(g, t, i, other)
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
        if dist[x] >= 0 and (t[t[X_LOC_DISTANT_PORT] + x] or _port_counter_at(g, t, i, x)):
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
def _can_deliver(g, t, i, r, loc, memo):
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
def _reach_table(g, t, i, memo):
    """:func:`_can_deliver` at every location at once, into ``memo`` (for the rails, which ask at many places).

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
        if t[t[X_LOC_DISTANT_PORT] + x] or _port_counter_at(g, t, i, x):
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
    """A memo of :func:`_can_deliver`, nothing known yet."""
    return np.full(2 * t[X_NLOC], -1, np.int8)


@njit(cache=True)
def cubes_anywhere(g, t, i, r):
    if g.s8[g.at[F_DEMAND] + i * 2 + r] > 0:
        return True
    for sp in range(t[X_NS]):
        if _holds(g, t, i, r, sp):
            return True
    return False


# ============================================================================================== money
@njit(cache=True)
def take_loans(g, t, i, p, amount):
    money = np.int64(g.s32[g.at[F_MONEY] + i * P + p])
    if money < amount:
        k = -(-(amount - money) // t[X_LOAN_VALUE])
        g.s16[g.at[F_LOANS] + i * P + p] += k
        g.s32[g.at[F_MONEY] + i * P + p] = money + k * t[X_LOAN_VALUE]


@njit(cache=True)
def _pay(g, t, i, p, amount, spent):
    if amount <= 0:
        return
    take_loans(g, t, i, p, amount)
    g.s32[g.at[F_MONEY] + i * P + p] -= amount
    if spent:
        g.s16[g.at[F_SPENT] + i * P + p] += amount


@njit(cache=True)
def repay_loan(g, t, i, p):
    _pay(g, t, i, p, t[X_LOAN_REPAY], np.bool_(False))
    g.s16[g.at[F_LOANS] + i * P + p] -= 1


# ============================================================================================== flips and cubes
@njit(cache=True)
def flip(g, t, i, sp):
    g.s8[g.at[F_SPACE_FLIPPED] + i * t[X_NS] + sp] = 1
    d = t[
        t[X_SLOT_OF]
        + g.s8[g.at[F_SPACE_INDUSTRY] + i * t[X_NS] + sp] * t[X_SLOT_OF + 2]
        + g.s8[g.at[F_SPACE_LEVEL] + i * t[X_NS] + sp]
    ]
    g.s32[g.at[F_MONEY] + i * P + g.s8[g.at[F_SPACE_OWNER] + i * t[X_NS] + sp]] += t[t[X_SLOT_INCOME] + d]


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
        _pay(g, t, i, p, demand_price(g, t, i, r), np.bool_(True))
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


# ============================================================================================== cards
@njit(cache=True)
def play_card(g, t, i, p, k):
    """The card leaves the hand for the discard pile; the others know one fewer of its kind there (ruling 18)."""
    g.s8[g.at[F_HAND] + (i * P + p) * t[X_K] + k] -= 1
    if g.s8[g.at[F_KNOWN] + (i * P + p) * t[X_K] + k] > 0:
        g.s8[g.at[F_KNOWN] + (i * P + p) * t[X_K] + k] -= 1
    g.s8[g.at[F_DISCARD] + i * t[X_K] + k] += 1
    g.s8[g.at[F_CARD] + i] = k


@njit(cache=True)
def _hand_size(g, t, i, p):
    n = 0
    for k in range(t[X_K]):
        n += g.s8[g.at[F_HAND] + (i * P + p) * t[X_K] + k]
    return n


@njit(cache=True)
def _deck_left(g, t, i):
    return t[X_C] - np.int64(g.s8[g.at[F_DECK_POS] + i])


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
        if _port_counter_at(g, t, i, t[t[X_SHIP_PORT_LOCS] + sp * t[X_SHIP_PORT_LOCS + 2] + j]):
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
    if t[t[X_SLOT_COAL] + d] and not _can_deliver(g, t, i, COAL, loc, memo):
        return False
    if t[t[X_SLOT_IRON] + d] and not _can_deliver(g, t, i, IRON, loc, memo):
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
                _reach_table(g, t, i, memo)
                tabled = True
            coal = _can_deliver(g, t, i, COAL, a, memo) or _can_deliver(g, t, i, COAL, b, memo)
            ok = coal and (_can_deliver(g, t, i, IRON, a, memo) or _can_deliver(g, t, i, IRON, b, memo))
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
def _draw_choices(g, t, i, row):
    """Marks the draw choices in ``row``; returns their count."""
    n = 0
    if _deck_left(g, t, i) > 0:
        row[t[t[X_OFFSET] + B_DRAW]] = True
        n += 1
    for j in range(NUM_FACE_UP):
        if g.s8[g.at[F_FACE_UP] + i * 2 + j] >= 0:
            row[t[t[X_OFFSET] + B_DRAW] + 1 + j] = True
            n += 1
    return n


@njit(cache=True)
def _any_draw_choice(g, t, i):
    if _deck_left(g, t, i) > 0:
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
def _action_choices(g, t, i, p, row):
    none = row[:0]
    memo = new_memo(t)
    built = np.full(t[X_NS] * NUM_INDUSTRIES, -1, np.int8)
    hand_n = _hand_size(g, t, i, p)
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
        _draw_choices(g, t, i, row)
    if hand_n == 0 and _deck_left(g, t, i) == 0:
        row[t[t[X_OFFSET] + B_PASS_FREE]] = True


@njit(cache=True)
def _delivery_locs(g, t, i):
    li = g.s16[g.at[F_RAIL_LINK] + i]
    if li >= 0:
        return t[t[X_LINK_A] + li], t[t[X_LINK_B] + li]
    return t[t[X_SPACE_LOC] + g.s16[g.at[F_BUILD_SPACE] + i]], -1


@njit(cache=True)
def mask_row(g, t, i, row):
    """Game ``i``'s legal-action mask into ``row`` (bool[NA]; all False once over)."""
    row[:] = False
    p = mover(g, t, i)
    if p < 0:
        return
    ph = g.s8[g.at[F_PHASE] + i]
    if ph == ACTION:
        _action_choices(g, t, i, p, row)
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
        a, b = _delivery_locs(g, t, i)
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
        _draw_choices(g, t, i, row)
    if g.s16[g.at[F_LOANS] + i * P + p] > 0 and g.s32[g.at[F_MONEY] + i * P + p] >= t[X_LOAN_REPAY]:
        row[t[t[X_OFFSET] + B_REPAY]] = True


# ============================================================================================== the actions
@njit(cache=True)
def build_industry(g, t, i, p, sp, ind):
    d = lowest_counter(g, t, i, p, ind)
    level = t[t[X_SLOT_LEVEL] + d]
    _pay(g, t, i, p, t[t[X_SLOT_COST] + d], np.bool_(True))
    _place_counter(g, t, i, p, sp, ind, level)
    g.s8[g.at[F_DISPLAY] + (i * P + p) * t[X_D] + d] -= 1
    g.s16[g.at[F_BUILD_SPACE] + i] = sp
    g.s8[g.at[F_BUILD_INDUSTRY] + i] = ind
    g.s8[g.at[F_NEED_COAL] + i] = t[t[X_SLOT_COAL] + d]
    g.s8[g.at[F_NEED_IRON] + i] = t[t[X_SLOT_IRON] + d]
    _deliver(g, t, i, p)


@njit(cache=True)
def _deliver(g, t, i, p):
    """Bring the coal, then the iron, each from its nearest source; stop for a decision on a tie."""
    out = np.empty(t[X_NS] + 1, np.int64)
    while g.s8[g.at[F_NEED_COAL] + i] or g.s8[g.at[F_NEED_IRON] + i]:
        r = COAL if g.s8[g.at[F_NEED_COAL] + i] else IRON
        a, b = _delivery_locs(g, t, i)
        n = nearest_sources(g, t, i, r, a, b, out)
        if n > 1:
            g.s8[g.at[F_PHASE] + i] = COAL_SOURCE if r == COAL else IRON_SOURCE
            return
        if n == 0:
            raise ValueError("no coal or iron can reach the build in progress")
        _deliver_one(g, t, i, p, r, out[0])
    if g.s16[g.at[F_RAIL_LINK] + i] >= 0:
        _finish_rail(g, t, i, p)
    else:
        _finish_build(g, t, i, p)


@njit(cache=True)
def _deliver_one(g, t, i, p, r, source):
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
    _end_action(g, t, i)


@njit(cache=True)
def _finish_rail(g, t, i, p):
    g.s8[g.at[F_LINK_OWNER] + i * t[X_NL] + g.s16[g.at[F_RAIL_LINK] + i]] = p
    g.s8[g.at[F_RAILS_LEFT] + i * P + p] -= 1
    _end_action(g, t, i)


@njit(cache=True)
def _on_draw(g, t, i, p, src):
    if g.s8[g.at[F_PHASE] + i] == ACTION:
        g.s8[g.at[F_DRAWS_LEFT] + i] = 2
    if src == 0:
        k = _take_from_deck(g, t, i)
        g.s8[g.at[F_HAND] + (i * P + p) * t[X_K] + k] += 1
    else:
        k = g.s8[g.at[F_FACE_UP] + i * 2 + src - 1]
        g.s8[g.at[F_FACE_UP] + i * 2 + src - 1] = -1
        g.s8[g.at[F_HAND] + (i * P + p) * t[X_K] + k] += 1
        g.s8[g.at[F_KNOWN] + (i * P + p) * t[X_K] + k] += 1
    g.s8[g.at[F_DRAWS_LEFT] + i] -= 1
    if g.s8[g.at[F_DRAWS_LEFT] + i] > 0 and _hand_size(g, t, i, p) < HAND_LIMIT and _any_draw_choice(g, t, i):
        g.s8[g.at[F_PHASE] + i] = DRAW_SECOND
        return
    for j in range(NUM_FACE_UP):
        if g.s8[g.at[F_FACE_UP] + i * 2 + j] < 0 and _deck_left(g, t, i) > 0:
            g.s8[g.at[F_FACE_UP] + i * 2 + j] = _take_from_deck(g, t, i)
    _end_action(g, t, i)


@njit(cache=True)
def _end_action(g, t, i):
    actions = 0 if g.s8[g.at[F_COMBINED] + i] else g.s8[g.at[F_ACTIONS_LEFT] + i] - 1
    _no_decision_in_progress(g, i)
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
    if _deck_left(g, t, i) > 0:
        return False
    if g.s8[g.at[F_EDITION] + i] == 1:
        for j in range(NUM_FACE_UP):
            if g.s8[g.at[F_FACE_UP] + i * 2 + j] >= 0:
                return False
    for q in range(np.int64(g.s8[g.at[F_NUM_PLAYERS] + i])):
        if _hand_size(g, t, i, q) == 0:
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
        _pay(g, t, i, q, np.int64(g.s16[g.at[F_LOANS] + i * P + q]) * t[X_LOAN_INTEREST], np.bool_(False))


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
        _deliver_one(g, t, i, p, r, DEMAND if x == t[X_NS] else x)
        _deliver(g, t, i, p)
    elif blk == B_RAIL:
        _pay(g, t, i, p, np.int64(RAIL_COST), np.bool_(True))
        g.s16[g.at[F_RAIL_LINK] + i] = x
        if g.s8[g.at[F_RAILS_LEFT] + i * P + p] < RAILS_PER_PLAYER:
            g.s8[g.at[F_NEED_COAL] + i] = 1
            g.s8[g.at[F_NEED_IRON] + i] = 1
        _deliver(g, t, i, p)
    elif blk == B_SELL:
        g.s16[g.at[F_SELL_FROM] + i] = x
        g.s8[g.at[F_PHASE] + i] = SELL_TO
    elif blk == B_SELL_TO:
        sell_goods(g, t, i, p, np.int64(g.s16[g.at[F_SELL_FROM] + i]), x)
        g.s16[g.at[F_SELL_FROM] + i] = -1
        if sellers(g, t, i, p, np.zeros(0, np.bool_)) > 0:
            g.s8[g.at[F_PHASE] + i] = SELL_MORE
        else:
            _end_action(g, t, i)
    elif blk == B_DONE:
        _end_action(g, t, i)
    elif blk == B_DEVELOP:
        play_card(g, t, i, p, x)
        g.s8[g.at[F_PHASE] + i] = DEVELOP_WHICH
    elif blk == B_REMOVE:
        g.s8[g.at[F_DISPLAY] + (i * P + p) * t[X_D] + x] -= 1
        _end_action(g, t, i)
    elif blk == B_DRAW:
        _on_draw(g, t, i, p, x)
    elif blk == B_PASS:
        play_card(g, t, i, p, x)
        _end_action(g, t, i)
    else:  # B_PASS_FREE
        _end_action(g, t, i)


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
        o[t[t[X_OBS] + O_HAND_SIZE] + rq] = _hand_size(g, t, i, q) / HAND_LIMIT
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


def sources() -> list[str]:
    """The files whose numbers the compiled code holds: this one, the rules, the state's phases, the chance
    purposes and the observation's scales, and core's compiled helpers."""
    names = ("rules", "state", "chance", "observation", "actions", "components")
    core = [sys.modules[f.__module__].__file__ for f in (key_one, uncounted)]
    return [__file__, *core] + [sys.modules[f"{__package__}.{x}"].__file__ for x in names]


def dispatchers() -> list:
    """This module's compiled functions, and core's that it calls."""
    own = [f for f in globals().values() if hasattr(f, "_cache") and getattr(f, "__module__", None) == __name__]
    return own + [splitmix64_one, key_one, uncounted]


def entries() -> list:
    """The compiled functions called from Python."""
    return [step_serial, run_parallel, mask_serial, observe_rows, new_games, scores_rows, sample_rows]
