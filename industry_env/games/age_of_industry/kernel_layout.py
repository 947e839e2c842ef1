"""How Age of Industry's compiled kernel reads a batch and a map: the State's fields by width (``F_*``, read
through :class:`Games`), the map's and the components' tables packed in one int64 array (``X_*``, built by
:func:`tables`), the observation's pieces (``O_*``) and the action blocks (``B_*``). :mod:`.kernel` describes
the reading."""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ...core import uncompiled
from ...core.uncompiled import scalars
from . import actions as A
from .components import ALL_SYMBOLS, TILE_ACCEPTS, Components, GameMap
from .observation import index
from .rules import (
    ALLOWED,
    COAL,
    IRON,
    MAX_PLAYERS,
    NUM_INDUSTRIES,
)

P = MAX_PLAYERS
DEMAND = -1  # a source: the demand track
# The resources as int64 values, not Python ints: numba compiles a function once for each literal argument it is
# called with (cubes_anywhere(..., COAL) and cubes_anywhere(..., IRON) were two compiles of one function).
COAL, IRON = np.int64(COAL), np.int64(IRON)
# action blocks (the order of actions.BLOCKS), as the kernel's decision kinds
(B_BUILD, B_BUILD_ANY, B_RAIL, B_SELL, B_DEVELOP, B_DRAW, B_PASS, B_PASS_FREE, B_BUILD_AT, B_SOURCE, B_SELL_TO,
 B_REMOVE, B_DONE, B_REPAY) = range(len(A.BLOCKS))  # fmt: skip

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
