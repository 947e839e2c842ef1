"""Industry's numpy rules of Phase 3, the Auction: available fields, bids, the sale or keep, the claim.

Each function is a rule of the reference (:mod:`.reference`), mostly of the same name, played for the games
``rows`` of a State at once.
"""

from __future__ import annotations

import numpy as np

from ...core.state import BatchState
from .numpy_development import begin_development
from .numpy_tables import AUCTION, BID, SELL_OR_KEEP, P, board_tables, count_row, flat_view
from .rules import MAX_BID, MAX_PLAYERS, MIN_PLAYERS, NUM_COLUMNS, NUM_ERAS, NUM_FIELDS

# ---------------------------------------------------------------------------------------------- Phase 3: Auction
Claims = tuple[np.ndarray, np.ndarray, np.ndarray]  # games, claimant, next auctioneer (for claim, next_auction)
_NO_CLAIMS: Claims = (np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64))


def available(s: BatchState) -> np.ndarray:
    """bool[B, 60]: 'A field is available if it lies in the current Era and has a face-up Column token above it.'"""
    out = np.zeros((s.batch_size, NUM_ERAS, NUM_COLUMNS), bool)
    out[np.arange(s.batch_size), s.era] = s.face_up
    return out.reshape(s.batch_size, NUM_FIELDS)


def open_auction(s: BatchState, rows: np.ndarray, f: np.ndarray) -> None:
    """The auctioneer offers field ``f``; bidding starts with the player to his left."""
    if rows.size == 0:
        return
    s.phase[rows] = BID
    s.lot[rows] = f
    s.high_bid[rows] = 0
    s.high_bidder[rows] = -1
    # "In turn, starting with the player to the left of the Auctioneer, each player ... bid or pass."
    s.bidder[rows] = (s.auctioneer[rows] + 1) % s.num_players[rows]


def bid_or_pass(s: BatchState, rows: np.ndarray, p: np.ndarray, amount: np.ndarray) -> Claims:
    """A bid (amount > 0) or a pass; after the last bidder, the auctioneer decides (or must claim)."""
    if rows.size == 0:
        return _NO_CLAIMS
    bids = amount > 0
    bidders = rows[bids]
    s.high_bid[bidders] = amount[bids]
    s.high_bidder[bidders] = p[bids]
    nxt = (p + 1) % s.num_players[rows]
    s.bidder[rows] = nxt
    last = rows[nxt == s.auctioneer[rows]]
    has_bid = s.high_bidder[last] >= 0
    s.phase[last[has_bid]] = SELL_OR_KEEP
    # No Bids: "the Auctioneer must claim the field himself, although he pays nothing." (Then the next auction.)
    no_bid = last[~has_bid]
    auct = s.auctioneer[no_bid]
    return no_bid, auct, auct + 1


def sell(s: BatchState, rows: np.ndarray) -> Claims:
    """'He can let the highest bidder claim the field and take the appropriate amount of money'."""
    if rows.size == 0:
        return _NO_CLAIMS
    hb, price, auct = s.high_bidder[rows], s.high_bid[rows], s.auctioneer[rows]
    flat_view(s.money)[rows * P + hb] -= price
    flat_view(s.money)[rows * P + auct] += price
    return rows, hb, auct  # the highest bidder claims; "He remains the Auctioneer"


def keep(s: BatchState, rows: np.ndarray) -> Claims:
    """'He claims the field himself, paying an amount equal to the highest bid.'"""
    if rows.size == 0:
        return _NO_CLAIMS
    auct = s.auctioneer[rows]
    s.money[rows] += _KEEP_PAYMENTS[s.num_players[rows] - MIN_PLAYERS, auct, s.high_bid[rows]]
    return rows, auct, auct + 1  # "His left-hand neighbor becomes the new Auctioneer"


def _keep_payments() -> np.ndarray:
    """int16[2, P, MAX_BID + 1, P]: [n - 3, auctioneer, price] -> each player's change of money in a keep.

    "starting with the player to his left, the Auctioneer gives each player - including himself - 1 Taler until
    he has paid the full price": the player k seats to his left (k = 1..n, n = himself) receives one Taler for
    each i < price with i % n == k - 1, and the Auctioneer pays the price.
    """
    n = np.arange(MIN_PLAYERS, MAX_PLAYERS + 1)[:, None, None, None]
    auct = np.arange(P)[None, :, None, None]
    price = np.arange(MAX_BID + 1)[None, None, :, None]
    q = np.arange(P)[None, None, None, :]
    k = (q - auct - 1) % n + 1  # seats to the Auctioneer's left
    change = np.where(q < n, (price - k + n) // n, 0) - np.where(q == auct, price, 0)
    return np.where(auct < n, change, 0).astype(np.int16)


_KEEP_PAYMENTS = _keep_payments()


def claim(s: BatchState, rows: np.ndarray, p: np.ndarray) -> None:
    """Claim a Field: a Property token clock side up, or, on a Joker field, the Joker token in hand."""
    if rows.size == 0:
        return
    t = board_tables(s.board)
    f = s.lot[rows].astype(np.int64)
    rf = rows * NUM_FIELDS + f
    flat_view(s.claimed)[rf] = True
    joker = t.IS_JOKER[f]
    s.jokers[rows[joker], p[joker], t.JOKER_KIND[f[joker]]] += 1
    flat_view(s.owner)[rf[~joker]] = p[~joker]
    flat_view(s.face_up)[rows * NUM_COLUMNS + t.COLUMN[f]] = False  # "turn the corresponding Column token face-down"


def next_auction(s: BatchState, rows: np.ndarray, auctioneer: np.ndarray) -> None:
    """The next auction of the round, or the Development phase once no column token is face up."""
    if rows.size == 0:
        return
    s.lot[rows] = -1
    s.bidder[rows] = -1
    s.high_bid[rows] = 0
    s.high_bidder[rows] = -1
    s.auctioneer[rows] = auctioneer % s.num_players[rows]
    s.phase[rows] = AUCTION
    # "When all available fields have been auctioned, this phase ends."
    begin_development(s, rows[count_row(s.face_up.take(rows, axis=0)) == 0])
