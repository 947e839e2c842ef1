"""Industry's numpy backend: new games, the legal-action mask, the step, the observation and random playouts.

:mod:`.engine` dispatches here where nothing compiles (``INDUSTRY_ENV_BACKEND=numpy``, or numba missing); the
rules of each phase are in :mod:`.numpy_rounds`, :mod:`.numpy_auction` and :mod:`.numpy_development`, and the
results agree with the compiled kernel (:mod:`.kernel`) and the reference (:mod:`.reference`) game by game.
"""

from __future__ import annotations

import numpy as np

from ...core.state import BatchState
from . import actions as A
from . import chance
from . import observation as O
from .numpy_auction import available, bid_or_pass, claim, keep, next_auction, open_auction, sell
from .numpy_development import (
    develop,
    develop_ok,
    end_development_turn,
    finish_development,
    pay_resource,
    pay_ways,
)
from .numpy_rounds import begin_round, take_subsidy
from .numpy_tables import AUCTION, BID, DEVELOP, OVER, PAY, SELL_OR_KEEP, P, flat_view, rows_players
from .rules import MAX_BID, NUM_COLUMNS, STARTING_MONEY
from .state import SCHEMA

# ---------------------------------------------------------------------------------------------- legality
_AT_MOST = np.arange(1, MAX_BID + 1)[None, :] <= np.arange(MAX_BID + 1)[:, None]  # [x, k-1]: bid k <= x
_BIDS = _AT_MOST[None, :, :] & ~_AT_MOST[:, None, :]  # [high bid, money, k-1]: high < k <= money (1.4 MB)


def mask_into(s: BatchState, mask: np.ndarray) -> np.ndarray:
    """``legal_action_mask`` by the numpy rules, written into ``mask`` (all False, C-contiguous bool[B, 314])."""
    flat = mask.reshape(-1)  # entry (b, a) at b * NUM_ACTIONS + a: single entries are set through it
    p = s.current_player.astype(np.int64)  # -1 once over, or ended by an illegal action: an all-False row
    ph = np.where(p >= 0, s.phase, OVER)
    auc = (ph == AUCTION).nonzero()[0]
    if auc.size:
        # "A field is available if it lies in the current Era and has a face-up Column token above it."
        era = s.era[auc].astype(np.int64)
        at = (auc * A.NUM_ACTIONS + A.AUCTION + era * NUM_COLUMNS)[:, None] + np.arange(NUM_COLUMNS)
        flat[at] = s.face_up.take(auc, axis=0)
    bid = (ph == BID).nonzero()[0]
    if bid.size:
        flat[bid * A.NUM_ACTIONS + A.PASS] = True
        # "A bid must be higher than any preceding bid, and a player cannot bid more Talers than he can pay."
        money = np.minimum(flat_view(s.money)[bid * P + p[bid]], MAX_BID)
        mask[bid, A.BID : A.SELL] = _BIDS[s.high_bid[bid], money]  # one [N, 112] gather (bids: 47% of decisions)
    sok = (ph == SELL_OR_KEEP).nonzero()[0]
    if sok.size:
        flat[sok * A.NUM_ACTIONS + A.SELL] = True
        # ruling: he can keep only if he can pay the full price
        flat[sok * A.NUM_ACTIONS + A.KEEP] = flat_view(s.money)[sok * P + p[sok]] >= s.high_bid[sok]
    dev = (ph == DEVELOP).nonzero()[0]
    if dev.size:
        mask[dev, A.DEVELOP : A.DONE] = develop_ok(s, dev, p[dev])
        flat[dev * A.NUM_ACTIONS + A.DONE] = True
    pay = (ph == PAY).nonzero()[0]
    if pay.size:
        at = pay * A.NUM_ACTIONS + A.PAY + s.pending[pay, 0].astype(np.int64) * A.NUM_PAY_WAYS
        flat[at[:, None] + np.arange(A.NUM_PAY_WAYS)] = pay_ways(s, pay, p[pay])
    # "At any time during the game, a player may take one Subsidy token"
    live = (p >= 0).nonzero()[0]
    flat[live * A.NUM_ACTIONS + A.SUBSIDY] = ~flat_view(s.subsidy)[live * P + p[live]]
    return mask


# Decision kinds: what an action does in each phase, _NUM_KINDS where it is not an action of that phase.
_SUBSIDY_K, _AUCTION_K, _BID_K, _SELL_K, _KEEP_K, _DONE_K, _DEVELOP_K, _PAY_K = range(8)
_NUM_KINDS = 8
_Group = tuple[np.ndarray, np.ndarray, np.ndarray]  # games, player to move, action
_KIND = np.full((OVER + 1, A.NUM_ACTIONS + 1), _NUM_KINDS, np.int8)  # [phase, action, or NUM_ACTIONS: none]
_KIND[AUCTION, A.AUCTION : A.PASS] = _AUCTION_K
_KIND[BID, A.PASS : A.SELL] = _BID_K  # pass or bid k
_KIND[SELL_OR_KEEP, A.SELL] = _SELL_K
_KIND[SELL_OR_KEEP, A.KEEP] = _KEEP_K
_KIND[DEVELOP, A.DEVELOP : A.DONE] = _DEVELOP_K
_KIND[DEVELOP, A.DONE] = _DONE_K
_KIND[PAY, A.PAY : A.SUBSIDY] = _PAY_K
_KIND[:OVER, A.SUBSIDY] = _SUBSIDY_K


def _kinds(s: BatchState, rows: np.ndarray, a: np.ndarray) -> np.ndarray:
    """int8[N]: the decision kind of action ``a`` in each game ``rows``, ``_NUM_KINDS`` if not of its phase."""
    # column NUM_ACTIONS of _KIND stands for any out-of-range integer (negative ones wrap to huge unsigned)
    return _KIND[s.phase[rows], np.minimum(a.astype(np.uint64), A.NUM_ACTIONS)]


def _decisions(s: BatchState, rows: np.ndarray, a: np.ndarray, kind: np.ndarray, cur: np.ndarray) -> list[_Group]:
    """The games ``rows`` and their actions ``a`` grouped by decision ``kind``: ``(rows, player, action)``.

    One stable sort by kind, so each group is a slice (rows ascending); index ``k`` holds kind ``k``, and the
    last one the actions that are not of their game's phase.
    """
    order = np.argsort(kind, kind="stable")  # a radix sort (int8)
    bounds = np.zeros(_NUM_KINDS + 2, np.int64)
    np.cumsum(np.bincount(kind, minlength=_NUM_KINDS + 1), out=bounds[1:])
    rows, a = rows[order], a[order]
    p = cur[rows]
    return [(rows[lo:hi], p[lo:hi], a[lo:hi]) for lo, hi in zip(bounds[:-1], bounds[1:], strict=True)]


def _chosen_legal(s: BatchState, rows: np.ndarray, a: np.ndarray, kind: np.ndarray, cur: np.ndarray) -> np.ndarray:
    """bool[N]: is action ``a`` legal in each of the live games ``rows``? (One entry of the mask, cheaply.)
    ``cur``: ``s.current_player`` as int64."""
    ok = np.zeros(rows.size, bool)
    for k in range(_NUM_KINDS):
        sel = (kind == k).nonzero()[0]
        if sel.size == 0:
            continue
        r, act = rows[sel], a[sel]
        p = cur[r]
        if k in (_SELL_K, _DONE_K):
            ok[sel] = True
        elif k == _SUBSIDY_K:
            ok[sel] = ~s.subsidy[r, p]
        elif k == _AUCTION_K:
            era, col = np.divmod(act - A.AUCTION, NUM_COLUMNS)
            ok[sel] = (era == s.era[r]) & s.face_up[r, col]
        elif k == _BID_K:
            bid = act - A.BID + 1  # 0 for a pass
            ok[sel] = (bid == 0) | ((bid > s.high_bid[r]) & (bid <= s.money[r, p]))
        elif k == _KEEP_K:
            ok[sel] = s.money[r, p] >= s.high_bid[r]
        elif k == _DEVELOP_K:
            ok[sel] = develop_ok(s, r, p)[np.arange(r.size), act - A.DEVELOP]
        elif k == _PAY_K:
            res, way = np.divmod(act - A.PAY, A.NUM_PAY_WAYS)
            ok[sel] = (res == s.pending[r, 0]) & pay_ways(s, r, p)[np.arange(r.size), way]
    return ok


def play(s: BatchState, a_all: np.ndarray, mask: np.ndarray | None, raise_: bool, penalty: float,
                next_mask: np.ndarray | None) -> np.ndarray | None:  # fmt: skip
    """``step`` by the numpy rules on the State it writes: the rows refused (nothing written), or None."""
    live = (~s.terminated).nonzero()[0]
    a = a_all[live].astype(np.int64)
    kind = _kinds(s, live, a)
    cur = s.current_player.astype(np.int64)  # once a step: each kind's players, the one at fault
    if mask is None:
        legal = _chosen_legal(s, live, a, kind, cur)
    else:  # one entry of the given mask per game (wrapped into range: out-of-range actions are of no kind)
        legal = flat_view(mask)[live * A.NUM_ACTIONS + a % A.NUM_ACTIONS]
        legal &= kind < _NUM_KINDS
    all_legal = bool(legal.all())
    if not all_legal:
        bad = live[~legal]
        if raise_:
            return bad
        live, a, kind = live[legal], a[legal], kind[legal]
    s.rewards[:] = 0.0
    if not all_legal:
        # Pgx: "Taking illegal action leads to immediate game terminal with negative reward".
        fault = cur[bad]
        present = rows_players(s.num_players[bad])
        s.rewards[bad] = np.where(present, -penalty, 0.0)  # every other player is treated as a winner
        s.rewards[bad, fault] = penalty
        s.terminated[bad] = True
    _apply(s, _decisions(s, live, a, kind, cur))
    if next_mask is not None:
        next_mask.fill(False)  # the new masks written in place: no [B, 314] array made and copied
        mask_into(s, next_mask)
    return None


def _apply(s: BatchState, groups: list[_Group]) -> None:
    """Apply the legal decisions (grouped by kind, disjoint games) in place, phase by phase.

    The automatic steps a decision leads to run once for all the games that reach them, in the reference's
    order within each game: every field claimed (after a last pass, a sale, a keep), then the next auctions;
    every development finished (no resource due, or the last one paid), then the development turns ended.
    """
    rows, p, _ = groups[_SUBSIDY_K]
    take_subsidy(s, rows, p)
    rows, _, a = groups[_AUCTION_K]
    open_auction(s, rows, a - A.AUCTION)
    rows, p, a = groups[_BID_K]
    claims = [bid_or_pass(s, rows, p, np.where(a == A.PASS, 0, a - A.BID + 1))]
    claims.append(sell(s, groups[_SELL_K][0]))
    claims.append(keep(s, groups[_KEEP_K][0]))
    rows, claimant, auctioneer = (np.concatenate(x) for x in zip(*claims, strict=True))
    claim(s, rows, claimant)
    next_auction(s, rows, auctioneer)
    rows, p, a = groups[_DEVELOP_K]
    finished = [develop(s, rows, p, a - A.DEVELOP)]
    rows, p, a = groups[_PAY_K]
    r, way = np.divmod(a - A.PAY, A.NUM_PAY_WAYS)
    finished.append(pay_resource(s, rows, p, r, way))
    turn_over = finish_development(s, np.concatenate(finished))
    end_development_turn(s, np.concatenate([groups[_DONE_K][0], turn_over]))


# ---------------------------------------------------------------------------------------------- new games
def new_games(s: BatchState, rows: np.ndarray, seeds: np.ndarray, n: np.ndarray, balanced: np.ndarray,
              next_mask: np.ndarray | None) -> None:  # fmt: skip
    """Preparing the Game, in place, for the games ``rows`` of ``s`` (then the first round begins); their
    legal-action masks into the rows of ``next_mask`` if given."""
    for f in SCHEMA.fields:
        getattr(s, f.name)[rows] = f.fill or 0
    s.seed[rows] = seeds
    s.num_players[rows] = n
    s.balanced_draws[rows] = balanced
    # "Give each player 4 Talers"; "Randomly decide which player takes the Starting Player marker".
    s.money[rows] = np.where(rows_players(n), STARTING_MONEY, 0)
    s.starting_player[rows] = chance.starting_player(seeds, n)
    # "Place the Column tokens in the bag and mix them."
    s.bag[rows] = chance.bag_order(seeds, 0)
    begin_round(s, rows)
    if next_mask is not None and rows.size:
        next_mask[rows] = mask_into(s.take(rows), np.zeros((rows.size, A.NUM_ACTIONS), bool))


# ---------------------------------------------------------------------------------------------- observation
def observe(state: BatchState, player: int | np.ndarray | None = None) -> np.ndarray:
    """``engine.observe`` by the numpy rules: float32[B, OBS_DIM], each game seen from ``player`` (None: the player
    to move; seat 0 once over), in :mod:`.observation`'s layout."""
    s = state
    B = s.batch_size
    if player is None:
        obs_p = np.maximum(s.current_player, 0).astype(np.int64)
    else:
        raw = np.asarray(player)
        if not np.issubdtype(raw.dtype, np.integer) or raw.ndim > 1 or (raw.ndim == 1 and raw.size != B):
            raise ValueError(f"player={player!r}: a seat number, or one per game (int[{B}])")
        obs_p = np.broadcast_to(raw.astype(np.int64), (B,)).copy()
    n = s.num_players.astype(np.int64)
    if B and ((obs_p < 0) | (obs_p >= n)).any():
        raise ValueError("observer must be a player of the game (0 .. num_players - 1)")
    out = np.zeros((B, O.OBS_DIM), np.float32)
    v = O.views(out)
    b = np.arange(B)
    k = np.arange(P)[None, :]
    seat_ok = k < n[:, None]
    absolute = (obs_p[:, None] + k) % n[:, None]  # [B, 4]: relative seat k -> player

    def rel(q: np.ndarray) -> np.ndarray:
        """Relative-seat one-hot [B, 4] of players ``q`` (-1: all zero)."""
        q = q.astype(np.int64)
        r = (q - obs_p) % n
        return ((r[:, None] == k) & (q >= 0)[:, None]).astype(np.float32)

    v["four_players"][:, 0] = n == 4
    v["balanced_draws"][:, 0] = s.balanced_draws
    v["era"][b, s.era] = 1.0
    v["round"][:, 0] = s.round.astype(np.float32) / O.SCALE_ROUND
    v["phase"][b, s.phase] = 1.0
    v["to_move"][:] = rel(s.current_player)
    v["seat_present"][:] = seat_ok
    g = np.where(seat_ok, absolute, 0)
    v["money"][:] = np.where(seat_ok, s.money[b[:, None], g], 0).astype(np.float32) / O.SCALE_MONEY
    v["points"][:] = np.where(seat_ok, s.points[b[:, None], g], 0).astype(np.float32) / O.SCALE_POINTS
    v["subsidy"][:] = seat_ok & s.subsidy[b[:, None], g]
    v["jokers"][:] = np.where(seat_ok[:, :, None], s.jokers[b[:, None], g], 0)
    v["starting_player"][:] = rel(s.starting_player)
    v["auctioneer"][:] = rel(s.auctioneer)
    v["high_bidder"][:] = rel(s.high_bidder)
    v["developer"][:] = rel(s.developer)
    own = s.owner.astype(np.int64)
    r = (own - obs_p[:, None]) % n[:, None]
    v["owner"][:] = (r[:, :, None] == k[None]) & (own >= 0)[:, :, None]
    v["developed"][:] = s.developed
    v["claimed"][:] = s.claimed
    v["available"][:] = available(s)
    in_bag = np.arange(NUM_COLUMNS)[None, :] >= s.bag_pos[:, None]
    bag_rows, bag_j = np.nonzero(in_bag)
    v["in_bag"][bag_rows, s.bag[bag_rows, bag_j]] = 1.0
    lot = np.flatnonzero(s.lot >= 0)
    v["lot"][lot, s.lot[lot]] = 1.0
    v["high_bid"][:, 0] = s.high_bid.astype(np.float32) / O.SCALE_MONEY
    v["developments"][:, 0] = s.developments
    v["dev_turns"][:, 0] = s.dev_turns
    dv = np.flatnonzero(s.developing >= 0)
    v["developing"][dv, s.developing[dv]] = 1.0
    for j in range(2):
        pr = np.flatnonzero(s.pending[:, j] >= 0)
        v["pending"][pr, j, s.pending[pr, j]] = 1.0
    return out


# ---------------------------------------------------------------------------------------------- random play
def rollout(s: BatchState, max_steps: int, weights: np.ndarray | None, key: int,
            stop_at: np.ndarray | None) -> tuple[BatchState, np.ndarray]:  # fmt: skip
    """``engine.rollout`` by the numpy rules, its arguments checked, on the State it writes: ``(s, steps)``."""
    B = s.batch_size
    steps = np.zeros(B, np.int64)
    final = np.zeros((B, P), np.float32)
    row_key = chance.splitmix64(chance.splitmix64(chance.splitmix64(np.uint64(key)) ^ np.uint64(3))
                                ^ np.arange(B, dtype=np.uint64))  # kernel._key(key, 3, i)  # fmt: skip
    with np.errstate(over="ignore"):
        game_key = chance.splitmix64(chance.splitmix64(s.seed.astype(np.uint64)) ^ row_key)
    for k in range(max_steps):
        live = ~s.terminated if stop_at is None else ~s.terminated & (s.current_player != stop_at)
        if not live.any():
            break
        mask = mask_into(s, np.zeros((B, A.NUM_ACTIONS), bool))
        u = (chance.splitmix64(game_key ^ np.uint64(k)) >> np.uint64(11)).astype(np.float64) * 2.0**-53
        if weights is None:  # sample_legal's rule: the floor(u * count)-th legal action
            count = mask.sum(axis=1)
            nth = (u * count).astype(np.int64)
            a = np.argmax(np.cumsum(mask, axis=1) > nth[:, None], axis=1)
        else:  # the first action whose cumulative weight exceeds u times the total
            cs = np.cumsum(mask * weights, axis=1)
            a = np.argmax(cs > (u * cs[:, -1])[:, None], axis=1)
        held = s.terminated.copy()  # the games that stop here are set aside for this step
        s.terminated |= ~live
        play(s, a, mask, True, -1.0, None)
        s.terminated &= live | held
        s.terminated |= held
        steps += live
        ended = live & s.terminated
        final[ended] = s.rewards[ended]
    s.rewards[...] = final
    return s, steps

