"""The strong heuristic ("heuristic"), batched: values what a field adds by the end of the game, bids within a budget.

Array code over an :class:`industry_env.games.industry.engine.State`, no Python loop over games. It reads only what the
seat to move observes: the table (owners, developments, money, jokers, points, the fields still to come), never the
bag order or the seed, so acting on ``from_observation`` of the observation gives the same action as
acting on the true State. The rules of thumb and the parameters are listed in ``docs/agents.md``; in short:

- **value** ``V[p, f]`` (points) of field ``f`` to player ``p``: what owning and developing it adds by the end:
  its cogwheel points if it scores now, 3 per road or technology link to a field ``p`` owns (or, weighted by
  ``future_share``, to one still to be auctioned), the bonus with the bonus fields / factories ``p`` owns or may
  still win, the Talers a resource factory saves ``p`` and earns from others, the construction costs a Bank or
  Stock Exchange will save, 2.5 for a Joker field; less its development cost (construction after ``p``'s
  discount, one Taler per resource ``p`` does not make) at ``taler_value`` points per Taler;
- **auction**: offer the field of highest own value plus half what the best-placed rival would pay;
- **bid**: towards ``greed * V / taler_value`` Talers (plus ``deny`` times the leader's value, if the leader is
  another player), within a budget: its money less the development costs of this lot and of its own fields
  that must be developed this era. It bids just above what the players still to act (the auctioneer
  included) would pay by the same valuation, capped by its own limit;
- **sell or keep**: keep when its value in Talers beats ``keep_margin`` times the highest bid;
- **develop**: the legal field of highest gain, fields whose points expire with the era first; a field
  whose gain does not pay for its cost waits (unless the game is ending);
- **pay**: the cheapest way: a Taler (bank or producer) before a joker of the resource, the "?" joker last,
  a joker before the last Taler;
- **subsidy**: when the 3 Talers let it win a lot, keep it, or develop a field worth more than 5 points
  beyond what it pays.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from industry_env.games.industry import actions as A
from industry_env.games.industry import engine
from industry_env.games.industry.rules import (
    JOKER_POINTS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NUM_FIELDS,
    NUM_RESOURCES,
    SUBSIDY_MONEY,
    SUBSIDY_POINTS,
    TALERS_PER_POINT,
    WILD_JOKER,
)

from .heuristic_v0 import tie_noise
from .strong_tables import JOKER_FIELD_VALUE, OWNED_UNDEVELOPED, SUBSIDY_GAIN, UNOBTAINABLE, StrongParams
from .strong_tables import board_tables as _tables

P = MAX_PLAYERS


def assessment(state: engine.State, prm: StrongParams) -> SimpleNamespace:
    """Every player's view of every field: values V[B, P, 60] (points), development costs (Talers) and more.

    Only the visible table is read (no bag order, no seed).
    """
    t = _tables(state.board)
    B = state.batch_size
    era = state.era.astype(np.int64)
    n = state.num_players.astype(np.int64)
    players = np.arange(P)
    own = state.owner[:, None, :] == players[None, :, None]  # [B, P, 60]
    dev = state.developed[:, None, :] & own
    und = own & ~state.developed[:, None, :] & t.LATER_OK[era][:, None, :]  # can still be developed
    open_ = ~state.claimed & (t.ERA[None, :] >= era[:, None])  # [B, 60]: still to be auctioned
    share = prm.future_share * (MIN_PLAYERS + 1) / n  # 4 players: future_share; 3 players a third more
    prob = dev + OWNED_UNDEVELOPED * und + (share[:, None] * open_)[:, None, :]  # [B, P, 60]
    synergy = prob @ t.SYNERGY  # [B, P, 60]: points f adds with what p has or may get

    now = np.where(t.SCORES[None, :] & (t.ERA[None, :] == era[:, None]), t.POINTS[None, :], 0.0)  # [B, 60]
    produces = state.produces.astype(np.float64)  # [B, P, 11]
    jokers = state.jokers.astype(np.float64)
    # units of each resource obtainable now: any number if anyone makes it or the bank sells it, else the
    # jokers of it and the "?" jokers in hand (a field needing it twice lacks it with only one joker)
    unlimited = state.produces.any(axis=1)[:, None, :] | (t.BANK_ERA[None, None, :] <= era[:, None, None])
    obtainable = np.where(unlimited, np.inf, jokers[:, :, :NUM_RESOURCES] + jokers[:, :, WILD_JOKER:])  # [B, P, 11]
    lacks = (t.NEED_R[None, None] > obtainable[:, :, None, :]).any(axis=3)  # [B, P, 60]
    now_p = now[:, None, :] * np.where(lacks, UNOBTAINABLE, 1.0)

    # development cost in Talers: construction after the discount, a Taler per resource not made
    disc = state.discount.astype(np.float64)  # [B, P]
    construction = np.maximum(t.COST[None, None, :] - disc[:, :, None], 0.0)
    unmade = (t.NEED_R[None, None] * (1.0 - produces[:, :, None, :])).sum(axis=3)
    devcost = construction + unmade  # [B, P, 60]

    # a resource factory: the Talers it saves its owner and earns from the others, if he does not make it yet
    future_need = und.astype(np.float64) @ t.NEED_R  # [B, P, 11]: own fields to develop needing it
    open_need = open_.astype(np.float64) @ t.NEED_R  # [B, 11]
    others_need = future_need.sum(axis=1, keepdims=True) - future_need
    rivals = state.produces.sum(axis=1, keepdims=True) - state.produces  # [B, P, 11]: other producers
    self_use = future_need + share[:, None, None] * open_need[:, None, :]
    sales = (others_need + (1 - share)[:, None, None] * open_need[:, None, :]) / (1.0 + rivals)
    per_resource = (self_use + prm.sell_weight * sales) * (1.0 - produces)
    producer = per_resource @ t.MAKES.T  # [B, P, 60]

    # Bank / Stock Exchange: the construction costs it will save on its own future developments
    costly = (t.COST[None, None, :] > disc[:, :, None]).astype(np.float64)
    saved = (costly * (und + share[:, None, None] * open_[:, None, :])).sum(axis=2)  # [B, P]
    discount = saved[:, :, None] * t.DISCOUNT[None, None, :]

    gross = now_p + synergy + prm.taler_value * (producer + discount)
    value = np.where(t.IS_JOKER[None, None, :], JOKER_FIELD_VALUE, gross - prm.taler_value * devcost)
    # a rough final score: points, money, the links and bonuses of developed fields, jokers, subsidy
    d = dev.astype(np.float64)
    standing = (state.points + state.money / TALERS_PER_POINT + JOKER_POINTS * state.jokers.sum(axis=2)
                + SUBSIDY_POINTS * state.subsidy + 0.5 * ((d @ t.SYNERGY) * d).sum(axis=2))  # fmt: skip
    standing = np.where(players[None, :] < n[:, None], standing, -np.inf)
    return SimpleNamespace(value=value, gross=gross, devcost=devcost, now=now_p, standing=standing, und=und,
                           rows=np.arange(B), era=era, n=n)  # fmt: skip


def _leader_value(a: SimpleNamespace, p: np.ndarray, f: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """float64[N]: the value of field f to the leading player other than p (0 if p leads)."""
    st = a.standing[rows].copy()
    leader = st.argmax(axis=1)
    return np.where(leader != p, a.value[rows, leader, f], 0.0)


def _reserve(a: SimpleNamespace, state: engine.State, rows: np.ndarray, p: np.ndarray) -> np.ndarray:
    """float64[N]: Talers p keeps for developing his own fields whose points expire with this era."""
    t = _tables(state.board)
    expiring = a.und[rows, p] & (t.ERA[None, :] == a.era[rows, None]) & t.SCORES[None, :]
    return (a.devcost[rows, p] * expiring).sum(axis=1)


def _later_bidders(state: engine.State, rows: np.ndarray, p: np.ndarray) -> np.ndarray:
    """bool[N, P]: the players still to act on the lot after p: later bidders and the auctioneer."""
    n = state.num_players[rows].astype(np.int64)
    auct = state.auctioneer[rows].astype(np.int64)
    q = np.arange(P)[None, :]
    after = (q - p[:, None]) % n[:, None]  # seats after p
    until = (auct - p) % n  # the auctioneer's distance
    return (after > 0) & (after <= until[:, None]) & (q < n[:, None])


_compiled_actions = None  # strong_kernel.compiled_actions once imported (it needs numba)


def _twin():
    """The compiled twin's entry, imported on first use (an import statement costs 1.6 us a call)."""
    global _compiled_actions
    if _compiled_actions is None:
        try:
            from .strong_kernel import compiled_actions
        except ModuleNotFoundError as err:
            raise ModuleNotFoundError(f"strong_actions(compiled=True) needs numba ({err}): "
                                      "pip install 'industry_env[fast]', or pass compiled=False") from err  # fmt: skip

        _compiled_actions = compiled_actions
    return _compiled_actions


def strong_actions(
    state: engine.State, seed: int | np.ndarray = 0, mask: np.ndarray | None = None,
    params: StrongParams | None = None, compiled: bool | None = None,
) -> np.ndarray:  # fmt: skip
    """int64[B]: the strong heuristic's action for the player to move in every (running) game of ``state``.

    ``seed`` keys the auction tie-break noise (as heuristic v0's :func:`tie_noise`), ``mask`` is the legal-action
    mask if the caller has it. Pay-to-player actions are chosen from ``mask``, so a State rebuilt with another
    numbering of the players still gets actions in the mask's numbering. ValueError for a finished game.
    ``compiled``: run the numba twin (:mod:`.strong_kernel`, same actions; needs numba) or this numpy code;
    None: the twin when the engine's backend is 'numba'.
    """
    prm = params or StrongParams()
    if engine.backend() == "numba" if compiled is None else compiled:
        out = _twin()(state, seed, mask, prm)
        if out is not None:
            return out  # None: an input the twin does not act on, checked (and refused) below
    B = state.batch_size
    p = state.current_player.astype(np.int64)
    if (p < 0).any():
        raise ValueError(f"strong_actions: game(s) {np.flatnonzero(p < 0)[:5].tolist()} are over; "
                         f"pass the running games only")  # fmt: skip
    if mask is None:
        mask = engine.legal_action_mask(state)
    elif mask.shape != (B, A.NUM_ACTIONS) or mask.dtype != bool:
        raise ValueError(f"mask must be bool[{B}, {A.NUM_ACTIONS}], got {mask.dtype}{list(mask.shape)}")
    t = _tables(state.board)
    a = assessment(state, prm)
    tv = prm.taler_value
    seeds = np.broadcast_to(np.asarray(seed, dtype=np.int64), (B,))
    out = np.full(B, -1, np.int64)
    phase = state.phase
    money = state.money.astype(np.float64)
    subsidy_ok = mask[:, A.SUBSIDY]

    auc = np.flatnonzero(phase == engine.AUCTION)
    if auc.size:
        pa = p[auc]
        mine = a.value[auc, pa] / tv  # [N, 60] Talers
        others = np.minimum(a.value[auc] / tv, money[auc][:, :, None])  # what each would pay
        others[np.arange(auc.size), pa] = -np.inf
        others = np.where(np.arange(P)[None, :, None] < a.n[auc, None, None], others, -np.inf)
        score = np.maximum(mine, 0.0) + 0.5 * np.maximum(others.max(axis=1), 0.0)
        i, f = mask[auc, A.AUCTION:A.PASS].nonzero()
        noisy = np.full((auc.size, NUM_FIELDS), -np.inf)
        noisy[i, f] = score[i, f] + tie_noise(seeds[auc[i]], state.round[auc[i]], f)
        out[auc] = A.AUCTION + noisy.argmax(axis=1)

    bid = np.flatnonzero(phase == engine.BID)
    if bid.size:
        pb, lot = p[bid], state.lot[bid].astype(np.int64)
        high = state.high_bid[bid].astype(np.float64)
        worth = prm.greed * (a.value[bid, pb, lot] + prm.deny * _leader_value(a, pb, lot, bid)) / tv
        budget = money[bid, pb] - a.devcost[bid, pb, lot] - _reserve(a, state, bid, pb)
        limit = np.floor(np.minimum(worth, budget))
        rival = np.minimum(np.floor(a.value[bid, :, lot] / tv), money[bid])  # [N, P]
        rival = np.where(_later_bidders(state, bid, pb), rival, 0.0).max(axis=1)
        amount = np.clip(np.maximum(rival + 1, high + 1), None, limit)
        ok = (amount > high) & (amount <= money[bid, pb])
        action = A.BID + np.clip(amount, 1, A.SELL - A.BID).astype(np.int64) - 1
        ok &= mask[bid, np.clip(action, A.BID, A.SELL - 1)]
        out[bid] = np.where(ok, action, A.PASS)
        # the subsidy: when 3 Talers more win a lot worth more than 5 points beyond its price
        gain = a.value[bid, pb, lot] - tv * (high + 1)
        richer = np.floor(np.minimum(worth, budget + SUBSIDY_MONEY))
        take = ~ok & subsidy_ok[bid] & (richer > high) & (gain > SUBSIDY_GAIN) & (high + 1 <= money[bid, pb] + 3)
        out[bid[take]] = A.SUBSIDY

    sok = np.flatnonzero(phase == engine.SELL_OR_KEEP)
    if sok.size:
        ps, lot = p[sok], state.lot[sok].astype(np.int64)
        high = state.high_bid[sok].astype(np.float64)
        bidder = state.high_bidder[sok].astype(np.int64)
        leader = a.standing[sok].argmax(axis=1)
        deny = np.where(bidder == leader, prm.deny * a.value[sok, bidder, lot], 0.0)
        worth = (a.value[sok, ps, lot] + deny) / tv
        want = worth > prm.keep_margin * high
        keep = want & mask[sok, A.KEEP]
        out[sok] = np.where(keep, A.KEEP, A.SELL)
        gain = a.value[sok, ps, lot] + deny - tv * high
        take = want & ~mask[sok, A.KEEP] & subsidy_ok[sok] & (gain > SUBSIDY_GAIN) & (high <= money[sok, ps] + 3)
        out[sok[take]] = A.SUBSIDY

    dv = np.flatnonzero(phase == engine.DEVELOP)
    if dv.size:
        pd = p[dv]
        legal = mask[dv, A.DEVELOP:A.DONE]
        expires = (t.ERA[None, :] == a.era[dv, None]) & t.SCORES[None, :]  # points lost after this era
        gain = a.gross[dv, pd] - tv * a.devcost[dv, pd]
        last = (state.era[dv] == 4)[:, None]  # in the last era every field must be developed now or never
        urgent = expires | last
        score = gain + np.where(expires, 100.0, 0.0) + 10.0 * t.IS_TECH[None, :]
        worth_it = urgent | (gain > 0)
        score = np.where(legal & worth_it, score, -np.inf)
        best = score.argmax(axis=1)
        has = np.isfinite(score[np.arange(dv.size), best])
        out[dv] = np.where(has, A.DEVELOP + best, A.DONE)
        # the subsidy: an own field it cannot afford now, worth more than 5 points, that 3 Talers make legal
        cand = np.flatnonzero(subsidy_ok[dv] & ~has)
        if cand.size:
            rows = dv[cand]
            richer = engine.take(state, rows)
            richer.money[np.arange(rows.size), pd[cand]] += SUBSIDY_MONEY
            legal2 = engine.legal_action_mask(richer)[:, A.DEVELOP:A.DONE]
            worth = np.where(legal2 & urgent[cand], a.gross[rows, pd[cand]] - tv * a.devcost[rows, pd[cand]], -np.inf)
            take = worth.max(axis=1) > SUBSIDY_GAIN
            out[rows[take]] = A.SUBSIDY

    pay = np.flatnonzero(phase == engine.PAY)
    if pay.size:
        way = np.arange(A.SUBSIDY - A.PAY) % A.NUM_PAY_WAYS
        poor = (money[pay, p[pay]] <= 1)[:, None]  # the last Taler is kept when a joker can pay
        cost = np.where(way == A.PAY_JOKER, JOKER_POINTS, np.where(way == A.PAY_WILD, JOKER_POINTS + 0.5, tv))
        cost = np.where((way >= A.PAY_BANK)[None, :] & poor, JOKER_POINTS + 1.0, cost[None, :])
        key = np.where(mask[pay, A.PAY:A.SUBSIDY], cost * 1000.0 + np.arange(way.size), np.inf)
        out[pay] = A.PAY + key.argmin(axis=1)

    chosen = (out >= 0) & mask[np.arange(B), np.clip(out, 0, A.NUM_ACTIONS - 1)]
    if not chosen.all():
        raise ValueError(f"strong_actions: the mask does not match the state in game(s) "
                         f"{np.flatnonzero(~chosen)[:5].tolist()}")  # fmt: skip
    return out


def strong_values(state: engine.State, params: StrongParams | None = None) -> np.ndarray:
    """float64[B, P, 60]: the value (points, net of development cost) of every field to every player."""
    return assessment(state, params or StrongParams()).value


__all__ = ["StrongParams", "strong_actions", "strong_values"]
