"""The strong heuristic's knobs and its tables of the board, shared by its numpy form and its compiled twin.

The numpy form (:mod:`.strong_heuristic`) and the numba twin (:mod:`.strong_kernel`) both read these; neither
imports the other's rules (the numpy form only dispatches to the twin).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from types import SimpleNamespace

import numpy as np

from industry_env.games.industry.components import Board
from industry_env.games.industry.rules import (
    BONUS,
    FACTORY,
    JOKER,
    LINK_POINTS,
    MAX_PLAYERS,
    NUM_FIELDS,
    NUM_RESOURCES,
    SUBSIDY_POINTS,
    TECHNOLOGY,
)

P = MAX_PLAYERS
JOKER_FIELD_VALUE = 2.5  # a Joker token: 2 points at the end, or a resource when one is missing
OWNED_UNDEVELOPED = 0.85  # chance an own undeveloped field still gets developed (for the links it completes)
UNOBTAINABLE = 0.5  # points that expire with the era, when a resource it needs cannot be had now
SUBSIDY_GAIN = -SUBSIDY_POINTS  # the subsidy is taken only for something worth more than these 5 points


@dataclass(frozen=True)
class StrongParams:
    """The strong heuristic's knobs (``docs/agents.md``). Defaults: tuned against heuristic v0 and random."""

    taler_value: float = 1.5  # points a Taler is worth during the game (1/3 at the end; more while it buys)
    future_share: float = 0.3  # the share of the fields still to be auctioned it expects to win
    greed: float = 1.0  # multiplies the Talers it bids up to
    deny: float = 0.1  # weight of the leader's value of a lot in its own bid (denying him)
    keep_margin: float = 2.0  # as auctioneer, keep when its value in Talers exceeds this times the highest bid
    sell_weight: float = 0.25  # a resource sold to another player, in Talers, per future need of it


@lru_cache(maxsize=8)
def board_tables(board: Board) -> SimpleNamespace:
    """Board facts over the 60 fields as arrays (built once per board)."""
    kind = board.KIND.astype(np.int64)
    links = np.zeros((NUM_FIELDS, NUM_FIELDS))
    for a, c in board.LINKS.tolist():
        links[a, c] += 1
        links[c, a] += 1
    bc = board.BONUS_CONNECT.astype(np.float64)  # [bonus field g, factory f]
    bc = bc * (kind == BONUS)[:, None] * (kind == FACTORY)[None, :]
    needs = board.NEEDS.astype(np.int64)
    need_r = np.zeros((NUM_FIELDS, NUM_RESOURCES))  # [field, resource]: how many of it the field needs
    for j in range(2):
        ok = needs[:, j] >= 0
        need_r[np.flatnonzero(ok), needs[ok, j]] += 1
    produces = board.PRODUCES.astype(np.int64)
    makes = np.zeros((NUM_FIELDS, NUM_RESOURCES))
    makes[np.flatnonzero(produces >= 0), produces[produces >= 0]] = 1
    era = board.ERA.astype(np.int64)
    return SimpleNamespace(
        KIND=kind,
        ERA=era,
        POINTS=board.POINTS.astype(np.float64),
        SCORES=(kind == FACTORY) | (kind == TECHNOLOGY),
        IS_TECH=kind == TECHNOLOGY,
        IS_JOKER=kind == JOKER,
        COST=board.COST.astype(np.float64),
        DISCOUNT=board.DISCOUNT.astype(np.float64),
        SYNERGY=LINK_POINTS * links + bc + bc.T,  # [g, f]: points f and g score together, both owned and developed
        NEED_R=need_r,
        MAKES=makes,  # [field, resource]: the factory produces it
        BANK_ERA=board.BANK_ERA.astype(np.int64),
        # [era, field]: the field may still be developed later (a Technology only in its own era)
        LATER_OK=~(kind == TECHNOLOGY)[None, :] | (np.arange(5)[:, None] <= era[None, :]),
    )


