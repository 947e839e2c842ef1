"""Industry's numpy rules of the round and the end: Phases 1, 2 and 5, the Subsidy, the final scoring and ranking.

Each function is a rule of the reference (:mod:`.reference`), mostly of the same name, played for the games
``rows`` of a State at once.
"""

from __future__ import annotations

import numpy as np

from ...core.state import BatchState
from . import chance
from .numpy_tables import AUCTION, OVER, P, board_tables, count_row, flat_view, rows_players
from .rules import (
    COIN_COLUMN,
    COIN_TOKEN_MONEY,
    INCOME,
    JOKER_POINTS,
    LINK_POINTS,
    MIN_PLAYERS,
    NUM_COLUMNS,
    NUM_ERAS,
    SUBSIDY_MONEY,
    SUBSIDY_POINTS,
    TALERS_PER_POINT,
)

_MAX_TOKENS = 4  # tokens drawn in a round: one per player, at most 4 with the balanced draws


# ---------------------------------------------------------------------------------------------- Phases 1, 2, 5
def begin_round(s: BatchState, rows: np.ndarray) -> None:
    """Phase 1 (income), Phase 2 (new column tokens) and the start of Phase 3 for the games ``rows``."""
    if rows.size == 0:
        return
    t = board_tables(s.board)
    n = s.num_players[rows]
    s.round[rows] += 1
    # Phase 2: "The Starting Player draws one Column token per player from the bag" (balanced: 3 or 4).
    k = t.TOKENS[n - MIN_PLAYERS, s.balanced_draws[rows].astype(np.int64), s.era[rows]]
    pos = s.bag_pos[rows].astype(np.int64)
    valid = np.arange(_MAX_TOKENS)[None, :] < k[:, None]  # [N, 4]
    at = rows[:, None] * NUM_COLUMNS  # flat index of (game, column 0) in bag and face_up
    drawn = flat_view(s.bag)[at + np.minimum(pos[:, None] + np.arange(_MAX_TOKENS), NUM_COLUMNS - 1)]  # [N, 4]
    flat_view(s.face_up)[(at + drawn)[valid]] = True
    s.bag_pos[rows] = pos + k
    # Phase 1: Income. "Each player takes 1 Taler from the bank." And "If the Column token with a coin symbol is
    # drawn, each player immediately takes one Taler".
    coin = ((drawn == COIN_COLUMN) & valid).any(axis=1)
    income = INCOME + COIN_TOKEN_MONEY * coin.astype(np.int16)
    s.money[rows] += np.where(rows_players(n), income[:, None], 0).astype(np.int16)
    # Phase 3: "The Starting Player is the first Auctioneer".
    s.phase[rows] = AUCTION
    s.auctioneer[rows] = s.starting_player[rows]


def new_starting_player(s: BatchState, rows: np.ndarray) -> None:
    """Phase 5, the change of Era, and the end of the game, for the games ``rows``."""
    if rows.size == 0:
        return
    n = s.num_players[rows]
    # "the Starting Player marker moves clockwise to the next player"
    s.starting_player[rows] = (s.starting_player[rows] + 1) % n
    era = s.era[rows]
    era_row = s.claimed.reshape(-1, NUM_COLUMNS).take(rows * NUM_ERAS + era, axis=0)  # [N, 12]
    era_done = count_row(era_row) == NUM_COLUMNS  # every field of the era auctioned
    # "Once all fields in all eras have been auctioned, the game ends at the end of the round."
    over = era_done & (era == NUM_ERAS - 1)
    _game_over(s, rows[over])
    # Change of Era: "Move the Era token down one space." The tokens go back into the bag.
    change = rows[era_done & ~over]
    if change.size:
        s.era[change] += 1
        s.bag[change] = chance.bag_order(s.seed[change], s.era[change])
        s.bag_pos[change] = 0
    begin_round(s, rows[~over])


# ---------------------------------------------------------------------------------------------- Subsidy, end
def take_subsidy(s: BatchState, rows: np.ndarray, p: np.ndarray) -> None:
    """'a player may take one Subsidy token ... He immediately takes 3 Talers from the bank.'"""
    if rows.size == 0:
        return
    flat_view(s.subsidy)[rows * P + p] = True
    flat_view(s.money)[rows * P + p] += SUBSIDY_MONEY


def final_scores(s: BatchState, rows: np.ndarray) -> np.ndarray:
    """int64[N, P]: Scoring Track plus the final scoring of the games ``rows`` (which must be over)."""
    t = board_tables(s.board)
    n = s.num_players[rows]
    present = rows_players(n)
    # "Remove from the board all Property tokens that still show the clock symbol."
    mine = (s.owner[rows][:, None, :] == np.arange(P)[None, :, None]) & s.developed[rows][:, None, :]  # [N,P,60]
    total = s.points[rows].astype(np.int64)
    total += s.money[rows] // TALERS_PER_POINT  # "For every 3 Talers a player holds, he earns 1 victory point"
    for pairs in t.LINKS:  # roads between factories, links between technologies: 3 points a pair
        total += LINK_POINTS * (mine[:, :, pairs[:, 0]] & mine[:, :, pairs[:, 1]]).sum(axis=2)
    # "For each Bonus field ... connected to a Factory that he also owns, he earns 2 or 3 bonus points",
    # per connected Factory (the rulebook's example: 3 Ports x 2 points x 4 river Factories = 24).
    bonus = (mine & t.IS_BONUS).astype(np.float32) @ t.BONUS_CONNECT  # [N, P, 60]
    total += np.rint((bonus * mine).sum(axis=2)).astype(np.int64)
    total += JOKER_POINTS * s.jokers[rows].sum(axis=2, dtype=np.int64)
    total += np.where(s.subsidy[rows], SUBSIDY_POINTS, 0)
    return np.where(present, total, 0)


def ranking(s: BatchState, rows: np.ndarray) -> np.ndarray:
    """int64[N, P]: each seat's place in the final order, higher is better, equal only for a full tie; -1 for
    absent seats."""
    present = rows_players(s.num_players[rows])
    sc = final_scores(s, rows)
    # "In case of a tie, the player with the most Property tokens on the board wins. If there is still a tie,
    # the player with the most money wins." Lexicographic key in bit fields that cannot overlap: money is int16
    # (< 2**15, 16 bits), tokens <= 60 (16 bits), scores of int16 state stay far inside 2**20 either way.
    tokens = ((s.owner[rows][:, None, :] == np.arange(P)[None, :, None]) & s.developed[rows][:, None, :]).sum(2)
    key = ((sc + 2**20) << 32) + (tokens.astype(np.int64) << 16) + s.money[rows].astype(np.int64)
    return np.where(present, key, -1)


def returns(s: BatchState, rows: np.ndarray) -> np.ndarray:
    """float32[N, P]: +1 winners, -1 others, 0 for all if everyone ties (``Game.returns()``)."""
    present = rows_players(s.num_players[rows])
    key = ranking(s, rows)
    win = (key == key.max(axis=1, keepdims=True)) & present
    everyone = win.sum(axis=1) == s.num_players[rows]
    out = np.where(win, 1.0, -1.0)
    out = np.where(everyone[:, None] | ~present, 0.0, out)
    return out.astype(np.float32)


def _game_over(s: BatchState, rows: np.ndarray) -> None:
    """The game ends: phase OVER, terminated, and the terminal rewards."""
    if rows.size == 0:
        return
    s.phase[rows] = OVER
    s.terminated[rows] = True
    s.rewards[rows] = returns(s, rows)
