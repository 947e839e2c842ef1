"""Industry's numpy rules of Phase 4, Development: what may be developed, the costs, the ways to pay a resource.

Each function is a rule of the reference (:mod:`.reference`), mostly of the same name, played for the games
``rows`` of a State at once.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from ...core.state import BatchState
from . import actions as A
from .numpy_rounds import new_starting_player
from .numpy_tables import DEVELOP, PAY, P, board_tables, flat_view
from .rules import MAX_DEVELOPMENTS, NUM_FIELDS, NUM_JOKER_KINDS, NUM_RESOURCES, RESOURCE_PRICE, WILD_JOKER


# ---------------------------------------------------------------------------------------------- Phase 4: Development
def begin_development(s: BatchState, rows: np.ndarray) -> None:
    """'Beginning with the Starting Player, each player may in turn develop up to two of his undeveloped fields.'"""
    if rows.size == 0:
        return
    s.phase[rows] = DEVELOP
    s.developer[rows] = s.starting_player[rows]
    s.developments[rows] = 0
    s.dev_turns[rows] = 0


def _buyable(s: BatchState, rows: np.ndarray, p: np.ndarray) -> np.ndarray:
    """bool[N, 11]: resources ``p`` may pay for with a Taler (to another producer, else to the bank).

    "Another player has an already developed Factory that produces the required resource. You can pay this
    player 1 Taler"; the bank sells "only ... resources that are not produced by other players and only ...
    resources that appeared in previous Eras". Either way exists iff some other player produces it or the
    bank sells it in this era.
    """
    t = board_tables(s.board)
    producers = s.produces.take(rows, axis=0)  # [N, P, 11], a copy
    producers.reshape(-1, NUM_RESOURCES)[np.arange(rows.size) * P + p] = False  # other players' factories only
    buyable = s.era[rows][:, None] >= t.BANK_ERA[None, :]
    for q in range(P):
        buyable |= producers[:, q]
    return buyable


def _payable(only_wild: np.ndarray, to_pay: np.ndarray, wild: np.ndarray, money: np.ndarray) -> np.ndarray:
    """Can a field's required resources all be paid with these jokers and Talers?

    ``to_pay``: how many of its required units have neither an own developed factory nor an own joker (a unit
    with its own joker is paid by it; a resource needed twice takes two of its jokers); ``only_wild``: how
    many of those only the "?" joker can pay (not buyable); ``wild``: "?" jokers held; ``money``: Talers left
    after the construction cost (arrays broadcast together). This is the reference's exhaustive search
    (``_can_pay_all``) in closed form, a resource's own jokers serving only it: the "?" jokers cover the
    ``only_wild`` ones, and "?" jokers and Talers together cover all.
    """
    return (only_wild <= wild) & (to_pay <= wild + money)


def develop_ok(s: BatchState, rows: np.ndarray, p: np.ndarray) -> np.ndarray:
    """bool[N, 60]: may ``p`` (int[N]) develop each field now? Rows of the development mask.

    The cheap tests run on whole rows, the costlier ones only on the few candidate (game, field) pairs left.
    """
    t = board_tables(s.board)
    # own fields whose Property token still shows the clock (.take: a faster row gather than indexing)
    ok = s.owner.take(rows, axis=0) == p.astype(np.int8)[:, None]
    ok &= ~s.developed.take(rows, axis=0)
    # "Technologies may be developed only if they are located in the current Era."
    ok &= t.ERA_OK.take(s.era[rows], axis=0)
    candidates = ok.reshape(-1).nonzero()[0]
    i, f = np.divmod(candidates, NUM_FIELDS)
    rp = rows * P + p  # flat (game, player) index: one index array gathers faster than two
    # construction cost, less the Bank / Stock Exchange discount, "never reduced below zero"
    discount = s.discount.reshape(-1)[rp].astype(np.int64)
    money = s.money.reshape(-1)[rp][i] - t.NET_COST.reshape(-1)[discount[i] * NUM_FIELDS + f]
    # "If you do not have enough money, or a required resource is not available, you may not develop"
    jok = s.jokers.reshape(-1, NUM_JOKER_KINDS).take(rp, axis=0)  # [N, 12]
    # per resource: to be paid (own developed factories pay automatically), and by the "?" joker only (not
    # buyable); column WILD_JOKER stays False and stands for a field's absent need
    to_pay = jok == 0
    to_pay[:, :NUM_RESOURCES] &= ~s.produces.reshape(-1, NUM_RESOURCES).take(rp, axis=0)
    to_pay[:, WILD_JOKER] = False
    only_wild = to_pay.copy()
    buyable = _buyable(s, rows, p)
    only_wild[:, :NUM_RESOURCES] &= ~buyable
    wild = jok[i, WILD_JOKER]
    n_only_wild, n_to_pay = _count_needs(t, only_wild, i, f), _count_needs(t, to_pay, i, f)
    if t.TWICE_ANY:  # a resource needed twice with one joker of it: the joker pays one unit, the other is due
        twice = np.flatnonzero(t.NEED_TWICE[f])
        if twice.size:
            it, r = i[twice], t.NEED[f[twice], 0]
            second = (jok[it, r] == 1) & ~s.produces.reshape(-1, NUM_RESOURCES)[rp[it], r]
            n_to_pay[twice] += second
            n_only_wild[twice] += second & ~buyable[it, r]
    pay = _payable(n_only_wild, n_to_pay, wild, money)
    ok.reshape(-1)[candidates] = (money >= 0) & pay
    return ok


def _count_needs(t: SimpleNamespace, per_resource: np.ndarray, i: np.ndarray, f: np.ndarray) -> np.ndarray:
    """int[K]: how many of field ``f``'s required resources are True in ``per_resource[i]`` (bool[N, 12])."""
    flat = per_resource.reshape(-1).view(np.int8)
    return flat[i * NUM_JOKER_KINDS + t.NEED_COL[0][f]] + flat[i * NUM_JOKER_KINDS + t.NEED_COL[1][f]]


def develop(s: BatchState, rows: np.ndarray, p: np.ndarray, f: np.ndarray) -> np.ndarray:
    """Pay the construction cost; then pay each required resource, or finish at once if none is due.

    Returns the games that finish at once (for :func:`finish_development`).
    """
    if rows.size == 0:
        return rows
    t = board_tables(s.board)
    rp = rows * P + p
    # "He must pay the construction costs ... to the bank" (less the discount, never below zero)
    flat_view(s.money)[rp] -= t.NET_COST[flat_view(s.discount)[rp], f]
    s.developing[rows] = f
    need = t.NEED[f]  # [N, 2]
    due = t.NEED_OK[f] & ~flat_view(flat_view(s.produces))[rp[:, None] * NUM_RESOURCES + need]  # own factories pay
    first = np.where(due[:, 0], need[:, 0], np.where(due[:, 1], need[:, 1], -1))
    second = np.where(due[:, 0] & due[:, 1], need[:, 1], -1)
    s.pending[rows] = np.stack([first, second], axis=1)
    none_due = first < 0
    s.phase[rows[~none_due]] = PAY
    return rows[none_due]


# By way to pay (PAY_JOKER, PAY_WILD, PAY_BANK, players): "?" jokers it spends; Talers then needed for the next
_WILD_SPENT = (np.arange(A.NUM_PAY_WAYS) == A.PAY_WILD).astype(np.int8)
_TALERS_NEEDED = (RESOURCE_PRICE * (1 + (np.arange(A.NUM_PAY_WAYS) >= A.PAY_BANK))).astype(np.int16)
_OTHERS = ~np.eye(P, dtype=bool)  # [p, q]: q is another player than p


def pay_ways(s: BatchState, rows: np.ndarray, p: np.ndarray) -> np.ndarray:
    """bool[N, 7]: legal ways to pay the first pending resource, the rest staying payable afterwards."""
    t = board_tables(s.board)
    rp = rows * P + p
    r = s.pending[rows, 0].astype(np.int64)
    r2 = s.pending[rows, 1].astype(np.int64)
    r2c = np.maximum(r2, 0)
    jok = flat_view(s.jokers).take(rp, axis=0)  # [N, 12]
    money, wild, era = flat_view(s.money)[rp], jok[:, WILD_JOKER], s.era[rows]
    # other players' developed factories making the resource: [N, P], by flat index (row, player, resource)
    at = (rows * (P * NUM_RESOURCES))[:, None] + np.arange(0, P * NUM_RESOURCES, NUM_RESOURCES)[None, :]
    others = flat_view(flat_view(s.produces))[at + r[:, None]] & _OTHERS[p]
    cash = money >= RESOURCE_PRICE
    ways = np.empty((rows.size, A.NUM_PAY_WAYS), bool)
    ways[:, A.PAY_JOKER] = flat_view(jok)[np.arange(rows.size) * NUM_JOKER_KINDS + r] > 0  # "a Joker token of ..."
    ways[:, A.PAY_WILD] = wild > 0  # "The Joker token labeled ? is worth one resource of your choice."
    ways[:, A.PAY_BANK] = cash & ~_any_player(others) & (era >= t.BANK_ERA[r])
    ways[:, A.PAY_PLAYER :] = cash[:, None] & others
    # Would the second resource (if any) still be payable after each way? (See _buyable.)
    others2 = flat_view(flat_view(s.produces))[at + r2c[:, None]] & _OTHERS[p]
    buy2 = _any_player(others2) | (era >= t.BANK_ERA[r2c])
    free2 = (r2 < 0) | (flat_view(jok)[np.arange(rows.size) * NUM_JOKER_KINDS + r2c] > 0)
    rest_ok = free2[:, None] | (wild[:, None] > _WILD_SPENT) | (buy2[:, None] & (money[:, None] >= _TALERS_NEEDED))
    if t.TWICE_ANY:  # the same resource twice: its only joker, spent on the first, cannot pay the second
        last = (r2 == r) & (flat_view(jok)[np.arange(rows.size) * NUM_JOKER_KINDS + r2c] == 1)
        rest_ok[last, A.PAY_JOKER] = (wild > 0)[last] | (buy2 & (money >= RESOURCE_PRICE))[last]
    return ways & rest_ok


def _any_player(x: np.ndarray) -> np.ndarray:
    """bool[N]: any of the P columns of ``x`` (bool[N, P]); faster than ``x.any(axis=1)`` on short rows."""
    out = x[:, 0] | x[:, 1]
    for q in range(2, P):
        out |= x[:, q]
    return out


def pay_resource(s: BatchState, rows: np.ndarray, p: np.ndarray, r: np.ndarray, way: np.ndarray) -> np.ndarray:
    """Pay one resource by ``way``; once none is pending, the field is developed (the games returned)."""
    if rows.size == 0:
        return rows
    # a joker of the resource, or the "?" joker, is given up; else a Taler, to the bank or to a player
    rp = rows * P + p
    joker = np.where(way == A.PAY_WILD, WILD_JOKER, r)
    flat_view(flat_view(s.jokers))[rp * NUM_JOKER_KINDS + joker] -= (way <= A.PAY_WILD).astype(np.int8)
    flat_view(s.money)[rp] -= np.where(way >= A.PAY_BANK, RESOURCE_PRICE, 0).astype(np.int16)
    to_player = way >= A.PAY_PLAYER
    flat_view(s.money)[(rows * P + way - A.PAY_PLAYER)[to_player]] += RESOURCE_PRICE
    second = s.pending[rows, 1]
    s.pending[rows, 0] = second
    s.pending[rows, 1] = -1
    return rows[second < 0]


def finish_development(s: BatchState, rows: np.ndarray) -> np.ndarray:
    """Flip the Property token and score the cogwheel's points; two developments end the turn (those returned)."""
    if rows.size == 0:
        return rows
    t = board_tables(s.board)
    f, p = s.developing[rows].astype(np.int64), s.developer[rows]
    rp = rows * P + p
    flat_view(s.developed)[rows * NUM_FIELDS + f] = True
    # "You receive points for developing a Factory only if that Factory is located in the current Era."
    # Technologies are developed only in their era; "Bonus fields earn victory points only at the end".
    scores = t.IS_TECH[f] | (t.IS_FACTORY[f] & (t.ERA[f] == s.era[rows]))
    flat_view(s.points)[rp] += np.where(scores, t.POINTS[f], 0).astype(np.int16)
    makes = t.PRODUCES[f] >= 0
    flat_view(s.produces)[rp[makes], t.PRODUCES[f[makes]]] = True  # cache
    flat_view(s.discount)[rp] += t.DISCOUNT[f]  # cache: "all subsequent construction costs are each reduced by 1"
    s.developing[rows] = -1
    s.pending[rows] = -1
    s.phase[rows] = DEVELOP
    developments = s.developments[rows] + 1
    s.developments[rows] = developments
    return rows[developments == MAX_DEVELOPMENTS]


def end_development_turn(s: BatchState, rows: np.ndarray) -> None:
    """The next player's development turn, or Phase 5 once every player has had his."""
    if rows.size == 0:
        return
    n = s.num_players[rows]
    turns = s.dev_turns[rows] + 1
    all_done = turns == n
    s.dev_turns[rows] = np.where(all_done, 0, turns)
    s.developer[rows] = np.where(all_done, -1, (s.developer[rows] + 1) % n)
    s.developments[rows] = 0
    new_starting_player(s, rows[all_done])
