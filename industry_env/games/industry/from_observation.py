"""Industry's positions rebuilt from observations (:func:`from_observation`): what the agents that read only an
observation (the heuristic, the search player) act on, the bag they cannot see dealt from their own generator."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from . import observation as O
from .components import Board, load_board
from .engine import AUCTION, BID, DEVELOP, OVER, PAY, SELL_OR_KEEP, P, State, board_tables, rows_players
from .rules import (
    MAX_BID,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NUM_COLUMNS,
    NUM_ERAS,
    NUM_FIELDS,
    NUM_JOKER_KINDS,
    NUM_RESOURCES,
)

_BINARY_PARTS = ("four_players", "balanced_draws", "era", "phase", "to_move", "seat_present", "subsidy",
                 "starting_player", "auctioneer", "high_bidder", "developer", "owner", "developed", "claimed",
                 "available", "in_bag", "lot", "developing", "pending")  # fmt: skip
_COUNT_PARTS = {"round": O.SCALE_ROUND, "money": O.SCALE_MONEY, "points": O.SCALE_POINTS, "jokers": 1.0,
                "high_bid": O.SCALE_MONEY, "developments": 1.0, "dev_turns": 1.0}  # fmt: skip
_COUNT_COLS = np.concatenate([np.arange(O.OBS_DIM)[O.INDEX[name]] for name in _COUNT_PARTS])
_COUNT_SIZES = [O.INDEX[k].stop - O.INDEX[k].start for k in _COUNT_PARTS]
_COUNT_SCALE = np.repeat([float(x) for x in _COUNT_PARTS.values()], _COUNT_SIZES)
_COUNT_AT = dict(zip(_COUNT_PARTS, np.cumsum([0, *_COUNT_SIZES]).tolist(), strict=False))  # name -> column
_ONE_BITS = np.float32(1.0).view(np.uint32)
_SEED_END = 2**63 - 1
# a field's owner, from its [4] relative-seat flags read as the bits of a number: -1 none, -2 several
_OWNER_OF_BITS = np.array([-1 if k == 0 else (k.bit_length() - 1 if k & (k - 1) == 0 else -2) for k in range(16)])


def from_observation(
    observations: np.ndarray,
    rng: np.random.Generator,
    board: Board | None = None,
    player: int | np.ndarray = 0,
) -> State:
    """A State rebuilt from float32[B, OBS_DIM] observations: the table as its observer sees it, the bag dealt.

    What a seated player would do to think ahead: the visible table (everything but the order of the bag) is
    copied as observed; the tokens still in the bag (``in_bag``) are put in a random order drawn from ``rng``,
    and each game gets a fresh seed from ``rng`` for the later eras' bags. The observer becomes player
    ``player`` (default 0; int or int[B]), the other seats following clockwise. Pay-to-player actions name
    absolute players, which an observation does not show: pass the observer's real seat as ``player`` when it
    is known and the rebuilt game names the same players as the real one. Caches (``produces``, ``discount``)
    are rebuilt, ``terminated`` follows the phase, rewards are zero. ``observe(from_observation(o, rng), 0)``
    gives back ``o``. A malformed observation (shape, dtype, an entry that no game produces) raises ValueError
    naming the entry and the rows.
    """
    obs = _checked_observations(observations)
    B = obs.shape[0]
    board = board if board is not None else load_board()
    t = board_tables(board)
    v = O.views(obs)
    rows = np.arange(B)
    # every entry is a 0/1 flag or a whole count times its scale (NaN and infinities fail both)
    bits = obs.view(np.uint32)
    not_flag = (bits != 0) & (bits != _ONE_BITS)  # whole-array tests and one small scatter: faster than a gather
    not_flag[:, _COUNT_COLS] = False
    scaled = obs.take(_COUNT_COLS, axis=1).astype(np.float64) * _COUNT_SCALE
    counts = np.rint(scaled)
    if not_flag.any() or not (np.abs(scaled - counts) <= 1e-3).all():
        _refuse_entries(obs)
    counts = counts.astype(np.int64)

    def count(name: str) -> np.ndarray:
        at = _COUNT_AT[name]
        return counts[:, at : at + O.INDEX[name].stop - O.INDEX[name].start]

    def one_hot(name: str, required: np.ndarray | bool, x: np.ndarray | None = None) -> np.ndarray:
        """int64[B]: the index set in a one-hot entry (or ``x``), -1 if none; several, or none where required,
        refused."""
        x = v[name].reshape(B, -1) if x is None else x
        ones = x.sum(axis=1)
        _refuse(ones > 1, f"'{name}' has more than one entry set")
        _refuse((ones == 0) & required, f"'{name}' has no entry set")
        return np.where(ones > 0, x.argmax(axis=1), -1)

    n = np.where(v["four_players"][:, 0] == 1, MAX_PLAYERS, MIN_PLAYERS)
    seat_ok = rows_players(n)
    _refuse((v["seat_present"] != seat_ok).any(axis=1), "'seat_present' does not match 'four_players'")
    p0 = np.broadcast_to(np.asarray(player), (B,))
    if not np.issubdtype(p0.dtype, np.integer) or ((p0 < 0) | (p0 >= n)).any():
        raise ValueError(f"player={player!r}: the observer's seat must be a whole number from 0 to num_players - 1")
    p0 = p0.astype(np.int64)
    era, phase = one_hot("era", True), one_hot("phase", True)
    money, points, jokers = count("money"), count("points"), count("jokers").reshape(B, P, NUM_JOKER_KINDS)
    absent = ~seat_ok
    _refuse(
        (absent & ((money != 0) | (points != 0) | (v["subsidy"] != 0))).any(axis=1)
        | (absent[:, :, None] & (jokers != 0)).reshape(B, -1).any(axis=1)
        | (absent[:, None, :] & (v["owner"] != 0)).reshape(B, -1).any(axis=1),
        "an absent seat holds something",
    )
    _refuse((money < 0).any(axis=1) | (money > MAX_BID).any(axis=1) | (jokers < 0).reshape(B, -1).any(axis=1),
            "'money' or 'jokers' out of range")  # fmt: skip
    over = phase == OVER

    def seat(name: str, required: np.ndarray | bool = False) -> np.ndarray:
        """int64[B]: the absolute player of a relative-seat one-hot entry, -1 if none."""
        k = one_hot(name, required)
        _refuse((k >= 0) & ~seat_ok[rows, np.maximum(k, 0)], f"'{name}' names a seat that does not play")
        return np.where(k >= 0, (p0 + k) % n, -1)

    to_move = seat("to_move", ~over)
    _refuse(over & (to_move >= 0), "'to_move' is set in a finished game")
    auctioneer, developer = seat("auctioneer", True), seat("developer")
    starting_player, high_bidder = seat("starting_player", True), seat("high_bidder")
    _refuse(((phase == AUCTION) | (phase == SELL_OR_KEEP)) & (to_move != auctioneer),
            "the player to move is not the auctioneer")  # fmt: skip
    _refuse(((phase == DEVELOP) | (phase == PAY)) & (to_move != developer), "the player to move is not the developer")
    _refuse((phase < DEVELOP) & (developer >= 0), "'developer' is set outside the development phase")
    lot, developing = one_hot("lot", (phase == BID) | (phase == SELL_OR_KEEP)), one_hot("developing", phase == PAY)
    _refuse((lot >= 0) & (phase != BID) & (phase != SELL_OR_KEEP), "'lot' is set outside an auction")
    _refuse((developing >= 0) & (phase != PAY), "'developing' is set outside a payment")
    pending = np.stack([one_hot("pending", phase == PAY, v["pending"][:, 0]),
                        one_hot("pending", False, v["pending"][:, 1])], axis=1)  # fmt: skip
    _refuse((pending[:, 1] >= 0) & (pending[:, 0] < 0), "a second pending resource without a first")
    _refuse((phase != PAY) & (pending[:, 0] >= 0), "'pending' is set outside a payment")
    high_bid = count("high_bid")[:, 0]
    _refuse((high_bid > 0) != (high_bidder >= 0), "'high_bid' and 'high_bidder' disagree")
    claimed, developed = v["claimed"] == 1, v["developed"] == 1
    own = v["owner"]
    rel_owner = _OWNER_OF_BITS[(own[..., 0] + 2 * own[..., 1] + 4 * own[..., 2] + 8 * own[..., 3]).astype(np.int64)]
    _refuse((rel_owner == -2).any(axis=1), "a field has more than one owner")
    owner = np.where(rel_owner >= 0, (p0[:, None] + rel_owner) % n[:, None], -1)
    _refuse(((owner >= 0) & ~claimed).any(axis=1), "an owned field is not claimed")
    _refuse((developed & (owner < 0)).any(axis=1), "a developed field has no owner")
    available = (v["available"] == 1).reshape(B, NUM_ERAS, NUM_COLUMNS)
    face_up = available[rows, era]
    available[rows, era] = False
    _refuse(available.reshape(B, -1).any(axis=1), "'available' is set outside the current era")
    in_bag = v["in_bag"] == 1
    _refuse((in_bag & face_up).any(axis=1), "a column token is both in the bag and face up")

    s = State.empty(B, board=board)
    s.seed[:] = rng.integers(0, _SEED_END, size=B, dtype=np.int64)  # the later eras' bags, unobserved
    s.num_players[:] = n
    s.balanced_draws[:] = v["balanced_draws"][:, 0] == 1
    s.era[:], s.round[:], s.starting_player[:] = era, count("round")[:, 0], starting_player
    # the hidden order: tokens already drawn first (in column order), then the bag's tokens shuffled
    keys = np.where(in_bag, rng.random((B, NUM_COLUMNS)), -1.0)
    s.bag[:] = np.argsort(keys, axis=1, kind="stable")
    s.bag_pos[:] = NUM_COLUMNS - in_bag.sum(axis=1)
    s.face_up[:], s.claimed[:], s.owner[:], s.developed[:] = face_up, claimed, owner, developed
    absolute = np.where(seat_ok, (p0[:, None] + np.arange(P)[None, :]) % n[:, None], P - 1)  # [B, 4]
    b_idx, k_idx = np.nonzero(seat_ok)
    g = absolute[b_idx, k_idx]
    s.money[b_idx, g], s.points[b_idx, g] = money[b_idx, k_idx], points[b_idx, k_idx]
    s.jokers[b_idx, g] = jokers[b_idx, k_idx]
    s.subsidy[b_idx, g] = v["subsidy"][b_idx, k_idx] == 1
    s.phase[:], s.auctioneer[:], s.lot[:] = phase, auctioneer, lot
    s.bidder[:] = np.where(phase == BID, to_move, np.where(phase == SELL_OR_KEEP, auctioneer, -1))
    s.high_bid[:], s.high_bidder[:], s.developer[:] = high_bid, high_bidder, developer
    s.developments[:], s.dev_turns[:] = count("developments")[:, 0], count("dev_turns")[:, 0]
    s.developing[:], s.pending[:] = developing, pending
    s.terminated[:] = over
    mine = ((owner[:, None, :] == np.arange(P)[None, :, None]) & developed[:, None, :]).astype(np.float32)
    s.discount[:] = mine @ t.DISCOUNT.astype(np.float32)
    s.produces[:] = (mine @ _producer_table(board)) > 0
    return s


def _refuse(bad: np.ndarray, what: str) -> None:
    """ValueError if any row of ``bad`` (bool[B]) is set, naming the first rows and ``what``."""
    if bad.any():
        where = np.flatnonzero(bad)
        more = f" (and {where.size - 5} more)" if where.size > 5 else ""
        raise ValueError(f"not a valid observation: {what}, in row(s) {where[:5].tolist()}{more}")


def _refuse_entries(obs: np.ndarray) -> None:
    """Name the first entry of ``obs`` that is neither a 0/1 flag nor a whole count times its scale."""
    B = obs.shape[0]
    _refuse(~np.isfinite(obs).all(axis=1), "NaN or infinite values")
    v = O.views(obs)
    for name in _BINARY_PARTS:
        x = v[name].reshape(B, -1)
        _refuse(((x != 0) & (x != 1)).any(axis=1), f"'{name}' holds values other than 0/1")
    for name, scale in _COUNT_PARTS.items():
        x = v[name].reshape(B, -1).astype(np.float64) * float(scale)
        _refuse((np.abs(x - np.rint(x)) > 1e-3).any(axis=1), f"'{name}' is not a whole count (times its scale)")


def _checked_observations(observations: np.ndarray) -> np.ndarray:
    """float32[B, OBS_DIM] from ``observations``, or ValueError saying what is wrong with their type or shape."""
    if not isinstance(observations, np.ndarray):
        raise ValueError(f"observations must be a numpy float32 array of shape [B, {O.OBS_DIM}], "
                         f"got {type(observations).__name__}")  # fmt: skip
    if observations.dtype not in (np.float32, np.float64):
        raise ValueError(f"observations must be float32 (the observation layout), got dtype {observations.dtype}")
    if observations.ndim != 2 or observations.shape[1] != O.OBS_DIM:
        raise ValueError(f"observations must have shape [B, {O.OBS_DIM}], got {list(observations.shape)}")
    return np.ascontiguousarray(observations, dtype=np.float32)


@lru_cache(maxsize=8)
def _producer_table(board: Board) -> np.ndarray:
    """float32[60, 11]: field f produces resource r (to rebuild the ``produces`` cache by one product)."""
    out = np.zeros((NUM_FIELDS, NUM_RESOURCES), np.float32)
    makes = np.flatnonzero(board.PRODUCES >= 0)
    out[makes, board.PRODUCES[makes]] = 1.0
    return out
