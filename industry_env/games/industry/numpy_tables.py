"""Industry's numpy rules' shared ground: the phase numbers, the board's facts as flat tables, the array helpers.

The numpy backend (:mod:`.numpy_backend`, behind :mod:`.engine`) plays the rules as array code over the batch:
each rule is the reference's (:mod:`.reference`) rule written for the games ``rows`` of a State at once, looping
only over the small fixed dimensions (players, the two resources of a field).
"""

from __future__ import annotations

from functools import lru_cache
from types import SimpleNamespace

import numpy as np

from .components import Board
from .rules import BONUS, FACTORY, JOKER, MAX_PLAYERS, MIN_PLAYERS, NUM_ERAS, TECHNOLOGY, WILD_JOKER, tokens_per_round

AUCTION, BID, SELL_OR_KEEP, DEVELOP, PAY, OVER = range(6)  # the order of reference.PHASES
P = MAX_PLAYERS


# ---------------------------------------------------------------------------------------------- board tables
@lru_cache(maxsize=8)
def board_tables(board: Board) -> SimpleNamespace:
    """Board facts as the flat numpy tables the array rules index, built once per board."""
    b = board
    needs = b.NEEDS.astype(np.int64)
    # tokens[n - 3, balanced, era]: column tokens drawn a round (rules.tokens_per_round)
    tokens = np.array(
        [[[tokens_per_round(n, e, bal) for e in range(NUM_ERAS)] for bal in (False, True)]
         for n in (MIN_PLAYERS, MAX_PLAYERS)], np.int8,
    )  # fmt: skip
    links = [b.ROADS.astype(np.int64), b.TECH_LINKS.astype(np.int64)]
    max_discount = int(np.maximum(b.DISCOUNT, 0).sum())  # a player owning every Bank and Stock Exchange
    return SimpleNamespace(
        KIND=b.KIND.astype(np.int8),
        ERA=b.ERA.astype(np.int8),
        COLUMN=b.COLUMN.astype(np.int64),
        NEED=np.maximum(needs, 0),  # int64[60, 2], -1 replaced by 0 (use with NEED_OK)
        NEED_OK=needs >= 0,
        # a field needing one resource twice (["Glass", "Glass"]): two payments; its second unit has no joker
        # of its own unless two are held. TWICE_ANY: the board has such a field (else that work is skipped).
        NEED_TWICE=(needs[:, 0] == needs[:, 1]) & (needs[:, 0] >= 0),
        TWICE_ANY=bool(((needs[:, 0] == needs[:, 1]) & (needs[:, 0] >= 0)).any()),
        PRODUCES=b.PRODUCES.astype(np.int64),
        POINTS=b.POINTS.astype(np.int16),
        DISCOUNT=b.DISCOUNT.astype(np.int8),
        # "Technologies may be developed only if they are located in the current Era."
        IS_TECH=b.KIND == TECHNOLOGY,
        IS_FACTORY=b.KIND == FACTORY,
        IS_JOKER=b.KIND == JOKER,
        IS_BONUS=b.KIND == BONUS,
        JOKER_KIND=np.maximum(b.JOKER_KIND.astype(np.int64), 0),
        BANK_ERA=b.BANK_ERA.astype(np.int8),
        LINKS=links,
        BONUS_CONNECT=b.BONUS_CONNECT.astype(np.float32),
        TOKENS=tokens,
        # The development rules as lookups: a field's two needs as columns of a [N, 12] per-resource array
        # (an absent need -> column 11, always False there); the construction cost [discount, field], "never
        # reduced below zero"; [era, field]: not a Technology outside its era.
        NEED_COL=np.where(needs >= 0, needs, WILD_JOKER).T.copy(),  # int64[2, 60]
        NET_COST=np.maximum(b.COST[None, :] - np.arange(max_discount + 1)[:, None], 0).astype(np.int16),
        ERA_OK=~((b.KIND == TECHNOLOGY)[None, :] & (np.arange(NUM_ERAS)[:, None] != b.ERA[None, :])),  # bool[5, 60]
    )


def rows_players(n: np.ndarray) -> np.ndarray:
    """bool[N, P]: which player slots take part in each game."""
    return np.arange(P)[None, :] < n[:, None]


def count_row(x: np.ndarray) -> np.ndarray:
    """int[N]: True entries in each row of ``x`` (bool[N, 12]): its 12 bytes summed as three 4-byte words.

    numpy reduces short rows slowly (``x.any(axis=1)``: ~13 ns a row); this is a few whole-array operations.
    """
    w = np.ascontiguousarray(x).view(np.uint32)  # [N, 3]; each byte 0 or 1, so byte sums never carry
    w = w[:, 0] + w[:, 1] + w[:, 2]
    return (w * np.uint32(0x01010101)) >> np.uint32(24)  # the sum of the four bytes


def flat_view(a: np.ndarray) -> np.ndarray:
    """``a`` (shape [B, K, ...]) as [B * K, ...]: entry ``a[b, k]`` is ``flat_view(a)[b * K + k]``.

    One flat index array gathers and scatters several times faster than two (numpy's multi-index path). It is
    a view, written through, for the C-contiguous arrays of a State being stepped (see ``engine._writable``).
    """
    return a.reshape(-1, *a.shape[2:])
