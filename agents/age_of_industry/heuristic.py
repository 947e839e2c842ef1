"""The rule-of-thumb player of Age of Industry ("heuristic"), batched in numpy: it reads only the observation (its
pieces decoded by name through the game's observation layout) and the legal mask.

Every action of the flat space gets a score in dollars (a point is $5), illegal ones are masked out, and the best
is played (ties broken by a tiny seeded noise). What it values:

- **Builds** (a card, then the space and industry): the counter's level (a point at $5) and its income (a
  cotton mill or factory counts its sale, surer when a free port or market is reachable now over completed links
  and shared with the goods already waiting for the buyers left; a mine or iron works a third of its flip and the
  demand track it may fill; a port its sale, which nearly always comes), minus its price: the printed cost and the
  coal and iron it needs (about free where cubes can come over completed links, else the demand track's price).
  Which spaces a card opens is not guessed: the card is tried on a position rebuilt from the observation
  (:func:`industry_env.games.age_of_industry.from_observation.from_observation`) and the engine's next mask lists
  them; only public information and the agent's own hand enter, so the others' hidden cards never matter.
- **Money** (the rules of thumb that keep it out of debt): a payment that forces a loan costs that loan's interest
  to the end of the game and the $1 more repaid, and money spent while loans are held costs the interest of the
  loans it would have repaid; when the final scoring would find the agent in debt (its money, rail income and part
  of what its counters will earn, less its loans, their interest and their repayment), a point is worth only the
  $11 / 5 that repays a loan's 5 points, not $5. It repays a loan whenever its money covers the repayment and what
  the best action of the turn costs (``reserve`` more before the turn's first action), and, in the turn's last
  action, whenever its money covers the repayment once nothing more is to be paid.
- **Sales**: always, first (a sale is pure income); to a free market or an own port before an opponent's port.
- **Rails**: when a rail joins the agent's unsold mills and factories to a buyer they cannot reach, or when the
  spaces at its ends promise more end-of-game rail income than it costs (its price being money, as for builds).
- **Drawing** when the hand is short; **developing** away the level-0 factories while the game is young, and,
  with nothing better to do, its lowest counters (higher ones score more points); **passing** only as a last
  resort, discarding the card it can use least.

Parameters (documented in docs/age-of-industry/agents.md): ``reserve`` (dollars kept for the turn's second action
when repaying a loan before its first, 8), ``draw_below`` (hand size under which drawing is urgent, 3),
``sell_hope`` (the share of a sale counted for a mill or factory with no buyer reachable yet, 0.4),
``combine_cost`` (dollars a combined build must gain over one action to be worth its second action, 8), ``noise``
(scale of the tie-breaking noise, 0.01).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from industry_env.games.age_of_industry import engine
from industry_env.games.age_of_industry.actions import ActionSpace, action_space
from industry_env.games.age_of_industry.components import MARKET_SPACE, TILE_ACCEPTS, load_components, load_map
from industry_env.games.age_of_industry.from_observation import from_observation
from industry_env.games.age_of_industry.observation import SCALE_MONEY, SCALE_ROUND, views
from industry_env.games.age_of_industry.rules import (
    COAL_MINE,
    COTTON_MILL,
    DOLLARS_PER_POINT,
    EMPTY_DEMAND_PRICE,
    FACTORY,
    HAND_LIMIT,
    IRON_WORKS,
    NUM_INDUSTRIES,
    POINTS_PER_UNPAID_LOAN,
    PORT,
    RAIL_COST,
    RAIL_INCOME,
    RAILS_PER_PLAYER,
    SHIP,
)
from industry_env.games.age_of_industry.state import (
    ACTION,
    BUILD_WHERE,
    COAL_SOURCE,
    DEVELOP_WHICH,
    DRAW_SECOND,
    IRON_SOURCE,
    SELL_MORE,
    SELL_TO,
)
from industry_env.registry import load_game

from ..base import Agent, AgentInputError, check_seed
from .checks import check_observations, map_of

BAD = -1e9  # the score of an illegal action
# rounds left, the current one included: 1, plus 1 + deck / players while the deck lasts, plus HAND_ROUNDS a card
# of the smallest hand (fitted to heuristic games of 3-5 players on both maps: docs/age-of-industry/agents.md)
HAND_ROUNDS = 0.75
PORT_SALE = 1.0  # share of its income a new port is counted for (ports sell: 95% of them flipped in heuristic games)
MINE_FLIP = 0.3  # share of its income a new coal mine or iron works is counted for (a third to half of them flip)


@dataclass(frozen=True)
class Tables:
    """Static numbers of one map and the components, as numpy arrays (built once per map)."""

    space: ActionSpace
    num_locations: int
    space_loc: np.ndarray  # [S]
    space_symbol: np.ndarray  # [S]
    link_a: np.ndarray  # [L] all links (rails, then sea lanes)
    link_b: np.ndarray
    slot_industry: np.ndarray  # [D]
    slot_level: np.ndarray
    slot_cost: np.ndarray
    slot_coal: np.ndarray
    slot_iron: np.ndarray
    slot_cubes: np.ndarray
    slot_income: np.ndarray
    income: np.ndarray  # [industry, level]: a counter's income
    demand_prices: np.ndarray  # [2, spaces] dearest first
    loan_value: int
    loan_repay: int
    card_industry: np.ndarray  # [K]
    distant_port: np.ndarray  # [N] bool
    tile_accepts: np.ndarray  # [tile kind, 2] bool (cotton, goods)


@lru_cache(maxsize=8)
def tables(map_key: str) -> Tables:
    """The static tables of a map (cached)."""
    c, m = load_components(), load_map(map_key)
    levels = max(c.SLOT_LEVEL) + 1
    income = np.zeros((NUM_INDUSTRIES, levels), np.float64)
    for d in range(c.num_slots):
        income[c.SLOT_INDUSTRY[d], c.SLOT_LEVEL[d]] = c.SLOT_INCOME[d]
    width = max(len(p) for p in c.DEMAND_PRICES)
    prices = np.zeros((2, width + 1), np.float64)
    for r, p in enumerate(c.DEMAND_PRICES):
        prices[r, : len(p)] = p
    return Tables(
        space=action_space(c, m), num_locations=m.num_locations, space_loc=np.array(m.SPACE_LOC),
        space_symbol=np.array(m.SPACE_SYMBOL), link_a=np.array(m.LINK_A), link_b=np.array(m.LINK_B),
        slot_industry=np.array(c.SLOT_INDUSTRY), slot_level=np.array(c.SLOT_LEVEL), slot_cost=np.array(c.SLOT_COST),
        slot_coal=np.array(c.SLOT_COAL), slot_iron=np.array(c.SLOT_IRON), slot_cubes=np.array(c.SLOT_CUBES),
        slot_income=np.array(c.SLOT_INCOME), income=income, demand_prices=prices, loan_value=c.LOAN_VALUE,
        loan_repay=c.LOAN_REPAY, card_industry=np.array(c.CARD_INDUSTRY), distant_port=np.array(m.LOC_DISTANT_PORT),
        tile_accepts=np.array(TILE_ACCEPTS, bool),
    )  # fmt: skip


MAPS = ("germany", "new_england")


def check_map(map: str | None) -> str | None:  # noqa: A002
    """``map`` if it is a map's name or None (then read from each observation's size); AgentInputError if not."""
    if map is not None and (not isinstance(map, str) or map not in MAPS):
        raise AgentInputError(f"map={map!r}: one of 'germany', 'new_england', or None (read from the "
                              f"observation's size)")  # fmt: skip
    return map


class MapFromObservation:
    """Mixin of the agents of this game: with ``map=None`` (the default) the map is read from the observation's
    size, so that an arena or environment on either map seats them by name."""

    map: str | None
    game: str | None

    @property
    def observation_size(self) -> int | None:
        return None if self.map is None else load_game("age_of_industry").observation_size(map=self.map)

    @property
    def num_actions(self) -> int | None:
        return None if self.map is None else load_game("age_of_industry").num_actions(map=self.map)

    def map_for(self, observations: np.ndarray) -> str:
        """The map played by ``observations``, which are checked to be observations of it
        (:func:`.checks.check_observations`: AgentInputError naming the entry that no game produces)."""
        key = self.map if self.map is not None else map_of(observations)
        check_observations(observations, key)
        return key


@dataclass(frozen=True)
class HeuristicParams:
    """The heuristic's knobs (see the module docstring); checked by :meth:`check`."""

    reserve: float = 8.0
    draw_below: int = 3
    sell_hope: float = 0.4
    combine_cost: float = 8.0
    noise: float = 0.01

    def check(self) -> HeuristicParams:
        """Itself, or AgentInputError naming the parameter out of range."""
        for k in ("reserve", "combine_cost", "noise"):
            v = getattr(self, k)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or v < 0:
                raise AgentInputError(f"{k}={v!r}: a finite number >= 0")
        if isinstance(self.sell_hope, bool) or not isinstance(self.sell_hope, (int, float)) or not (
                0.0 <= self.sell_hope <= 1.0):  # fmt: skip
            raise AgentInputError(f"sell_hope={self.sell_hope!r}: a number from 0 to 1")
        if isinstance(self.draw_below, bool) or not isinstance(self.draw_below, (int, np.integer)) or not (
                0 <= self.draw_below <= HAND_LIMIT):  # fmt: skip
            raise AgentInputError(f"draw_below={self.draw_below!r}: a whole number from 0 to {HAND_LIMIT}")
        return self


class Features:
    """What the heuristic reads of a batch of observations (seen by the seat to move, seat 0 of the view)."""

    def __init__(self, obs: np.ndarray, t: Tables, map_key: str) -> None:
        c, m = load_components(), load_map(map_key)
        v = views(obs, c, m)
        self.v = v
        B = obs.shape[0]
        self.B = B
        self.phase = v["phase"].argmax(axis=1)
        self.money = np.rint(v["money"][:, 0] * SCALE_MONEY)
        self.loans = np.rint(v["loans"][:, 0])
        self.round = np.rint(v["round"][:, 0] * SCALE_ROUND)
        hand = np.rint(v["own_hand"])
        self.hand = hand
        self.hand_size = hand.sum(axis=1)
        deck_left = v["deck_size"][:, 0] * float(sum(c.CARD_COUNT))
        sizes = np.rint(v["hand_size"] * HAND_LIMIT)  # [B, P]
        present = v["seat_present"] > 0.5
        self.num_players = present.sum(axis=1)
        self.actions_left = np.rint(v["actions_left"][:, 0] * 2)
        # rounds left, the current one included (each pays interest): the deck is drawn down at about a card per
        # player a round, then the game ends in the round a hand runs out
        smallest = np.where(present, sizes, HAND_LIMIT).min(axis=1)
        per_player = deck_left / np.maximum(self.num_players, 1)
        self.rounds_left = 1.0 + np.where(deck_left > 0.5, 1.0 + per_player, 0.0) + HAND_ROUNDS * smallest
        # the agent's next counter of each industry: its lowest slot with counters left (-1: none)
        disp = np.rint(v["display"][:, 0])  # [B, D]
        D = disp.shape[1]
        slot = np.full((B, NUM_INDUSTRIES), -1, np.int64)
        for d in range(D - 1, -1, -1):  # lowest level wins: slots of an industry are stored lowest first
            ind = t.slot_industry[d]
            slot[:, ind] = np.where(disp[:, d] > 0, d, slot[:, ind])
        self.next_slot = slot
        self.display = disp
        ok = slot >= 0
        sl = np.maximum(slot, 0)
        self.level = np.where(ok, t.slot_level[sl], 0)
        self.cost = np.where(ok, t.slot_cost[sl], 0)
        self.coal = np.where(ok, t.slot_coal[sl], 0)
        self.iron = np.where(ok, t.slot_iron[sl], 0)
        self.cubes = np.where(ok, t.slot_cubes[sl], 0)
        self.next_income = np.where(ok, t.slot_income[sl], 0)
        # the map: who owns what, what is flipped
        owner = v["space_owner"]  # [B, S, P]
        self.owner = np.where(owner.max(axis=2) > 0.5, owner.argmax(axis=2), -1)  # 0: the agent
        ind = v["space_industry"]
        self.industry = np.where(ind.max(axis=2) > 0.5, ind.argmax(axis=2), -1)
        self.space_level = np.rint(v["space_level"]).astype(np.int64)
        self.flipped = v["space_flipped"] > 0.5
        self.space_cubes = np.rint(v["space_cubes"])
        tile = v["space_tile"]
        self.tile = np.where(tile.max(axis=2) > 0.5, tile.argmax(axis=2), -1)
        # the demand track's cheapest coal and iron ($4 when empty)
        demand = np.rint(v["demand"]).astype(np.int64)  # [B, 2]
        track = np.where(demand > 0, t.demand_prices[np.arange(2)[None, :], np.maximum(demand - 1, 0)],
                         float(EMPTY_DEMAND_PRICE))  # fmt: skip
        # reachability between locations over completed links (rails of anyone, open sea lanes)
        N = t.num_locations
        comp = v["link_completed"] > 0.5  # [B, L]
        adj = np.zeros((B, N, N), bool)
        rows = np.repeat(np.arange(B), comp.sum(axis=1))
        li = np.nonzero(comp)[1]
        adj[rows, t.link_a[li], t.link_b[li]] = True
        adj[rows, t.link_b[li], t.link_a[li]] = True
        adj |= np.eye(N, dtype=bool)[None]
        reach = adj.astype(np.float32)
        for _ in range(int(math.ceil(math.log2(max(N, 2)))) + 1):
            reach = np.minimum(reach @ reach, 1.0)
        self.reach = reach > 0.5  # [B, N, N]
        # a cube is about free where one of its kind can come over completed links, else bought from the track
        coal_at = ((self.industry == COAL_MINE) | (self.industry < 0)) * self.space_cubes
        iron_at = (self.industry == IRON_WORKS) * self.space_cubes
        loc_cubes = np.zeros((B, N, 2), np.float32)
        np.add.at(loc_cubes, (slice(None), t.space_loc), np.stack([coal_at, iron_at], axis=2).astype(np.float32))
        near = np.einsum("bnm,bmk->bnk", reach, loc_cubes) > 0
        self.cube_price = np.where(near, 0.5, track[:, None, :])  # [B, N, 2]
        # buyers per location: an unused port counter (cotton; goods from level 2) or an unused market tile
        port = (self.industry == PORT) & ~self.flipped
        market = (t.space_symbol[None, :] == MARKET_SPACE) & (self.tile >= 0) & ~self.flipped
        accepts = t.tile_accepts[np.maximum(self.tile, 0)]  # [B, S, 2]
        buys = np.zeros((B, t.space_loc.size, 2), np.float32)
        buys[..., 0] = port | (market & accepts[..., 0])
        buys[..., 1] = (port & (self.space_level >= 2)) | (market & accepts[..., 1])
        loc_buys = np.zeros((B, N, 2), np.float32)
        np.add.at(loc_buys, (slice(None), t.space_loc), buys)
        self.loc_buys = loc_buys  # [B, N, 2]
        self.reach_buys = np.einsum("bnm,bmk->bnk", self.reach.astype(np.float32), loc_buys) > 0  # [B, N, 2]
        # the agent's unsold goods: income per location and kind
        mine = self.owner == 0
        goods_kind = np.where(self.industry == COTTON_MILL, 0, np.where(self.industry == FACTORY, 1, -1))
        unsold = mine & (goods_kind >= 0) & ~self.flipped
        inc = t.income[np.maximum(self.industry, 0), np.clip(self.space_level, 0, t.income.shape[1] - 1)]
        loc_goods = np.zeros((B, N, 2), np.float32)
        for k in (0, 1):
            w = np.where(unsold & (goods_kind == k), inc, 0.0).astype(np.float32)
            np.add.at(loc_goods[..., k], (slice(None), t.space_loc), w)
        self.loc_goods = loc_goods
        occupied = (self.owner >= 0) | ((t.space_symbol[None, :] == MARKET_SPACE) & (self.tile >= 0))
        loc_occ = np.zeros((B, N), np.float32)
        np.add.at(loc_occ, (slice(None), t.space_loc), occupied.astype(np.float32))
        self.loc_occ = loc_occ
        # connected to a port counter or a distant port (a new mine then fills the demand track for money)
        port_loc = np.zeros((B, N), np.float32)
        np.add.at(port_loc, (slice(None), t.space_loc), (self.industry == PORT).astype(np.float32))
        port_loc += t.distant_port[None, :]
        self.reach_port = np.einsum("bnm,bm->bn", self.reach.astype(np.float32), port_loc) > 0  # [B, N]
        self.demand = demand
        # buyers left against goods waiting, per kind (over the whole map: sales go wherever the rails run)
        free = buys.sum(axis=1)  # [B, 2]
        waiting = np.stack([((goods_kind == k) & (self.owner >= 0) & ~self.flipped).sum(axis=1) for k in (0, 1)], 1)
        self.sale_odds = np.minimum(1.0, free / (waiting + 1.0))  # [B, 2]: a new mill's or factory's share
        # the money the end should bring: rail income as the map stands, and part of what the agent's unflipped
        # counters will earn
        L = t.space.num_rail_links
        own_rail = v["link_owner"][:, :L, 0] > 0.5
        ends = RAIL_INCOME + loc_occ[:, t.link_a[:L]] + loc_occ[:, t.link_b[:L]]
        self.rail_income = (own_rail * ends).sum(axis=1)
        waits = mine & ~self.flipped & (self.industry != SHIP)
        late = np.clip((self.rounds_left - 1.0) / 2.0, 0.0, 1.0)  # income needs a round or two to come in
        self.pending = 0.5 * np.where(waits, inc, 0.0).sum(axis=1) * late
        # what the final scoring would find: money less the loans, their interest to come (this round's too) and
        # their repayment
        self.surplus = (self.money + self.rail_income + self.pending
                        - self.loans * (t.loan_repay + self.rounds_left))  # fmt: skip

    def take(self, rows: np.ndarray) -> Features:
        """The features of the games ``rows`` only."""
        out = object.__new__(Features)
        for k, x in self.__dict__.items():
            if isinstance(x, np.ndarray) and x.ndim and x.shape[0] == self.B:
                x = x[rows]
            out.__dict__[k] = x
        out.v = {k: x[rows] for k, x in self.v.items()}
        out.B = int(np.asarray(rows).size)
        return out

    def money_cost(self, rows: np.ndarray, price: np.ndarray, t: Tables) -> np.ndarray:
        """Dollars by the end that paying ``price`` now in game ``rows`` costs: the price, plus, for every loan it
        forces, its interest to the end and the $1 more repaid, and, while loans are held, the interest of the
        loans its money would have repaid (money is worth its interest while a loan is out)."""
        money, loans, hold = self.money[rows], self.loans[rows], self.rounds_left[rows]
        forced = np.ceil(np.maximum(price - money, 0.0) / t.loan_value)
        diverted = np.where(loans > 0, np.minimum(price, money), 0.0) / t.loan_repay
        return price + forced * (hold + (t.loan_repay - t.loan_value)) + diverted * hold


def build_prices(f: Features, t: Tables, rows: np.ndarray) -> np.ndarray:
    """float64[N, S * 6]: the price of each build (space, industry) in game ``rows[j]``: the printed cost of the
    next counter and its coal and iron, free where cubes can come, else at the demand track's price."""
    S = t.space_loc.size
    ind = np.tile(np.arange(NUM_INDUSTRIES), S)[None, :]
    loc = t.space_loc[np.repeat(np.arange(S), NUM_INDUSTRIES)][None, :]
    r = rows[:, None]
    return f.cost[r, ind] + f.coal[r, ind] * f.cube_price[r, loc, 0] + f.iron[r, ind] * f.cube_price[r, loc, 1]


def rail_prices(f: Features, t: Tables) -> np.ndarray:
    """float64[B, L_rail]: the price of each rail link: $1, and from the second rail a coal and an iron brought to
    either end (free where cubes can come, else at the demand track's price)."""
    L = t.space.num_rail_links
    a, b = t.link_a[:L], t.link_b[:L]
    cubes = np.minimum(f.cube_price[:, a], f.cube_price[:, b]).sum(axis=2)  # [B, L]
    rails_done = RAILS_PER_PLAYER - np.rint(f.v["rails_left"][:, 0] * RAILS_PER_PLAYER)
    return RAIL_COST + np.where(rails_done[:, None] > 0, cubes, 0.0)


def build_values(f: Features, t: Tables, rows: np.ndarray, at_mask: np.ndarray, prm: HeuristicParams) -> np.ndarray:
    """float64[N, S * 6]: the dollar value of each build (space, industry) in game ``rows[j]``; BAD where
    ``at_mask`` (bool[N, S * 6], the BUILD_AT block of the mask) forbids it."""
    S = t.space_loc.size
    ind = np.tile(np.arange(NUM_INDUSTRIES), S)[None, :]  # [1, S*6]
    sp = np.repeat(np.arange(S), NUM_INDUSTRIES)[None, :]
    r = rows[:, None]
    lvl = f.level[r, ind]
    price = build_prices(f, t, rows)
    inc = f.next_income[r, ind].astype(np.float64)
    loc = t.space_loc[sp]
    late = np.clip((f.rounds_left[r] - 1.0) / 2.0, 0.0, 1.0)  # income needs a round or two to come in
    kind = np.where(ind == FACTORY, 1, 0)
    sellable = f.reach_buys[r, loc, kind]
    # a point is worth $5 in the black; when the final scoring would find the agent in debt after this price,
    # a point is worth what repays a loan's 5 points: $11 / 5
    red = f.surplus[r] - price < 0
    pv = np.where(red, t.loan_repay / POINTS_PER_UNPAID_LOAN, DOLLARS_PER_POINT)
    # the income it should bring: a mill's or factory's sale (surer with a buyer in reach now, and shared with the
    # goods already waiting for the buyers left), a mine's flip and the demand track it fills, a port's sale
    goods = (ind == COTTON_MILL) | (ind == FACTORY)
    earn = np.where(goods, inc * np.where(sellable, 0.9, prm.sell_hope) * f.sale_odds[r, kind] * late, 0.0)
    mine = (ind == COAL_MINE) | (ind == IRON_WORKS)
    res = np.where(ind == IRON_WORKS, 1, 0)
    empty = np.maximum(t.demand_prices.shape[1] - 1 - f.demand[r, res], 0)
    to_track = np.minimum(f.cubes[r, ind], empty) * f.reach_port[r, loc]
    earn = earn + np.where(mine, MINE_FLIP * inc * late + 1.5 * to_track, 0.0)
    my_goods = f.loc_goods[r, loc, 0] + f.loc_goods[r, loc, 1]
    earn = earn + np.where(ind == PORT, (PORT_SALE + 0.5 * (my_goods > 0)) * inc * late, 0.0)
    earn = earn + np.where(ind == SHIP, 0.5 * inc * late + 2.0, 0.0)
    value = pv * lvl + earn - f.money_cost(r, price, t)
    # overbuilding: an own counter's level is lost; an opponent's is taken from him
    own = f.owner[r, sp] == 0
    other = f.owner[r, sp] > 0
    value = value - own * pv * f.space_level[r, sp] + other * 2.0
    return np.where(at_mask, value, BAD)


def _expand_cards(obs: np.ndarray, mask: np.ndarray, f: Features, t: Tables, map_key: str, block: str,
                  prm: HeuristicParams, state: engine.State | None = None
                  ) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """(float64[B, K], float64[B, K]): for each legal action of ``block`` (BUILD or BUILD_ANY), the value of the
    best build the card opens and its price, found by trying it on the position rebuilt from the observation (or
    on ``state``, a position the caller already holds that agrees with it, as a search's determinization does)."""
    sp = t.space
    K = sp.num_card_kinds
    lo = sp.offsets[block]
    out = np.full((f.B, K), BAD)
    price = np.zeros((f.B, K))
    legal = mask[:, lo : lo + K]
    if block == "BUILD_ANY":  # every card opens the same builds: try one per game
        first = legal.argmax(axis=1)
        legal = legal & (np.arange(K)[None, :] == first[:, None])
    rows, cards = np.nonzero(legal)
    if rows.size == 0:
        return out, price
    base = from_observation(obs[rows], map_key) if state is None else engine.take(state, rows)
    m = engine.legal_action_mask(engine.step(base, lo + cards, inplace=True))
    at = m[:, sp.BUILD_AT : sp.BUILD_AT + sp.sizes["BUILD_AT"]]
    values = build_values(f, t, rows, at, prm)
    which = values.argmax(axis=1)
    best = values[np.arange(rows.size), which]
    cost = build_prices(f, t, rows)[np.arange(rows.size), which]
    out[rows, cards] = best
    price[rows, cards] = cost
    if block == "BUILD_ANY":
        full, full_price = np.full(f.B, BAD), np.zeros(f.B)
        full[rows], full_price[rows] = best, cost
        out = np.where(mask[:, lo : lo + K], full[:, None], BAD)
        price = np.where(mask[:, lo : lo + K], full_price[:, None], 0.0)
    return out, price


def rail_values(f: Features, t: Tables) -> np.ndarray:
    """float64[B, L_rail]: the dollar value of each rail link (before its price): the sales it opens for the
    agent's unsold goods and the rail income its ends promise at the end."""
    L = t.space.num_rail_links
    a, b = t.link_a[:L], t.link_b[:L]
    reach = f.reach.astype(np.float32)
    goods = np.einsum("bnm,bmk->bnk", reach, f.loc_goods)  # [B, N, 2] the agent's unsold goods reachable from n
    buys = f.reach_buys.astype(np.float32)  # [B, N, 2]
    same = f.reach[:, a, b]
    opens = np.maximum(goods[:, a] * buys[:, b] * (1 - (buys[:, a] > 0)),
                       goods[:, b] * buys[:, a] * (1 - (buys[:, b] > 0))).max(axis=2)  # fmt: skip
    opens = np.where(same, 0.0, opens)
    end_income = 2.0 + f.loc_occ[:, a] + f.loc_occ[:, b]
    return 0.8 * opens + end_income


class HeuristicAgent(MapFromObservation, Agent):
    """The rule-of-thumb player ("heuristic"), batched; see the module docstring for what it values and its
    parameters. Seeded: the same seed gives the same moves (the seed only breaks ties)."""

    name = "heuristic"
    game = "age_of_industry"

    def __init__(self, seed: int | None = None, map: str | None = None, reserve: float = 8.0,  # noqa: A002
                 draw_below: int = 3, sell_hope: float = 0.4, combine_cost: float = 8.0,
                 noise: float = 0.01) -> None:  # fmt: skip
        self.seed = check_seed(seed)
        self.map = check_map(map)
        self.options = {} if map is None else {"map": map}
        self.params = HeuristicParams(reserve, draw_below, sell_hope, combine_cost, noise).check()
        self.rng = np.random.default_rng(self.seed)

    def _choose(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        return self._scored(observations, masks, self.map_for(observations))

    def _choose_trusted(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """The moves for observations the engine made (``act_engine``): their map read, not checked again."""
        return self._scored(observations, masks, self.map if self.map is not None else map_of(observations))

    def _scored(self, observations: np.ndarray, masks: np.ndarray, game_map: str) -> np.ndarray:
        scores = heuristic_scores(observations, masks, game_map, self.params)
        scores = scores + self.params.noise * self.rng.random(scores.shape)
        return np.where(masks, scores, -np.inf).argmax(axis=1).astype(np.int64)


def heuristic_actions(observations: np.ndarray, masks: np.ndarray, map: str = "germany",  # noqa: A002
                      params: HeuristicParams | None = None, rng: np.random.Generator | None = None,
                      state: engine.State | None = None) -> np.ndarray:  # fmt: skip
    """int64[B]: the heuristic's action for each observation (float32[B, D]) and legal mask (bool[B, A]); ties
    broken by ``rng`` (None: the lowest action). ``state``: positions agreeing with the observations (a search's
    determinizations), which spare rebuilding them."""
    prm = params or HeuristicParams()
    scores = heuristic_scores(observations, masks, map, prm, state)
    if rng is not None:
        scores = scores + prm.noise * rng.random(scores.shape)
    return np.where(masks, scores, -np.inf).argmax(axis=1).astype(np.int64)


def heuristic_scores(obs: np.ndarray, mask: np.ndarray, map_key: str, prm: HeuristicParams,
                     state: engine.State | None = None) -> np.ndarray:  # fmt: skip
    """float64[B, A]: the dollar score of every action (only the legal ones matter); ``state`` as in
    :func:`heuristic_actions`."""
    t = tables(map_key)
    sp = t.space
    f = Features(obs, t, map_key)
    B, A = mask.shape
    K = sp.num_card_kinds
    score = np.full((B, A), BAD)
    ph = f.phase
    act = ph == ACTION
    # ------------------------------------------------------------------ the action: which card, which action
    if act.any():
        rows = np.flatnonzero(act)
        o, m = obs[rows], mask[rows]
        fr = f if rows.size == B else f.take(rows)
        sub = None if state is None else (state if rows.size == B else engine.take(state, rows))
        build, build_price = _expand_cards(o, m, fr, t, map_key, "BUILD", prm, sub)  # [n, K]
        combined, combined_price = _expand_cards(o, m, fr, t, map_key, "BUILD_ANY", prm, sub)
        combined = combined - prm.combine_cost
        # how much each card is worth keeping: what it builds now (0 if nothing)
        keep = np.maximum(np.where(build > BAD / 2, build, 0.0), 0.0)
        sc = np.full((rows.size, A), BAD)
        sc[:, sp.BUILD : sp.BUILD + K] = build + 1.0
        # a combined build: the card that is least worth keeping
        sc[:, sp.BUILD_ANY : sp.BUILD_ANY + K] = np.where(combined > BAD / 2, combined - 0.1 * keep, BAD)
        L = sp.num_rail_links
        rail_price = rail_prices(fr, t)  # [n, L]
        rv = rail_values(fr, t) - fr.money_cost(np.arange(rows.size)[:, None], rail_price, t)
        sc[:, sp.RAIL : sp.RAIL + L] = rv - 2.0
        S = sp.num_spaces
        space_inc = t.income[np.maximum(fr.industry, 0), np.clip(fr.space_level, 0, t.income.shape[1] - 1)]
        sc[:, sp.SELL : sp.SELL + S] = 50.0 + space_inc
        # drawing: urgent with a short hand, a face-up card when it is an industry card (they build anywhere
        # connected)
        h = fr.hand_size
        draw = np.where(h < prm.draw_below, 6.0, np.where(h < 5, 2.5, 0.5))
        sc[:, sp.DRAW] = draw[:]
        fu = fr.v["face_up"]  # [n, 2, K]
        industry_card = (t.card_industry >= 0).astype(np.float64)
        sc[:, sp.DRAW + 1 : sp.DRAW + 3] = draw[:, None] + 0.3 * (fu * industry_card).sum(axis=2)
        # developing: the level-0 counters (factories) block better ones while the game is young
        zero = (fr.display > 0) & (t.slot_level[None, :] == 0) & (t.slot_industry[None, :] == FACTORY)
        dev = np.where(zero.any(axis=1) & (fr.rounds_left > 5), 1.5, -5.0)
        sc[:, sp.DEVELOP : sp.DEVELOP + K] = dev[:, None] - 0.1 * keep
        sc[:, sp.PASS : sp.PASS + K] = -20.0 - 0.1 * keep
        sc[:, sp.PASS_FREE] = -20.0
        # repaying: a loan costs $1 a round, so money the turn will not spend repays one; the money the best
        # action needs (and, before the turn's first action, ``reserve`` for the second) is kept
        price = np.zeros((rows.size, A))
        price[:, sp.BUILD : sp.BUILD + K] = build_price
        price[:, sp.BUILD_ANY : sp.BUILD_ANY + K] = combined_price
        price[:, sp.RAIL : sp.RAIL + L] = rail_price
        best = np.where(m, sc, -np.inf).argmax(axis=1)
        needed = price[np.arange(rows.size), best] + np.where(fr.actions_left > 1, prm.reserve, 0.0)
        repay = fr.money >= t.loan_repay + needed
        sc[:, sp.REPAY] = np.where(repay, 200.0, BAD)
        score[rows] = sc
    # ------------------------------------------------------------------ the steps of an action
    rows = np.flatnonzero(ph == BUILD_WHERE)
    if rows.size:
        at = mask[rows, sp.BUILD_AT : sp.BUILD_AT + sp.sizes["BUILD_AT"]]
        score[rows, sp.BUILD_AT : sp.BUILD_AT + at.shape[1]] = build_values(f, t, rows, at, prm)
    rows = np.flatnonzero((ph == COAL_SOURCE) | (ph == IRON_SOURCE))
    if rows.size:
        S = sp.num_spaces
        own = f.owner[rows] == 0
        last = (f.space_cubes[rows] == 1).astype(np.float64)  # the last cube flips the counter and pays its owner
        src = np.where(own, 2.0 + last * 2.0, -last * 1.0)
        score[rows, sp.SOURCE : sp.SOURCE + S] = src
        score[rows, sp.SOURCE + S] = -3.0  # the demand track costs money
    rows = np.flatnonzero(ph == SELL_TO)
    if rows.size:
        S = sp.num_spaces
        own = f.owner[rows] == 0
        other = f.owner[rows] > 0
        score[rows, sp.SELL_TO : sp.SELL_TO + S] = np.where(own, 4.0, np.where(other, 1.0, 3.0))
    rows = np.flatnonzero(ph == SELL_MORE)
    if rows.size:
        score[rows, sp.SELL : sp.SELL + sp.num_spaces] = 10.0
        score[rows, sp.DONE] = 0.0
    rows = np.flatnonzero(ph == DEVELOP_WHICH)
    if rows.size:
        zero = (t.slot_level == 0).astype(np.float64)
        factory = (t.slot_industry == FACTORY).astype(np.float64)
        score[rows, sp.REMOVE : sp.REMOVE + sp.num_slots] = 5.0 * zero * factory + 2.0 * zero - 0.1 * t.slot_level
    rows = np.flatnonzero(ph == DRAW_SECOND)
    if rows.size:
        fu = f.v["face_up"][rows]
        industry_card = (t.card_industry >= 0).astype(np.float64)
        score[rows, sp.DRAW] = 0.0
        score[rows, sp.DRAW + 1 : sp.DRAW + 3] = 0.3 * (fu * industry_card).sum(axis=2) - 0.05
    # in the turn's last action, once nothing more is to be paid (after a sale, while drawing or developing),
    # money that would sit through the interest repays a loan
    rows = np.flatnonzero(np.isin(ph, (SELL_TO, SELL_MORE, DEVELOP_WHICH, DRAW_SECOND)) & (f.actions_left <= 1)
                          & (f.money >= t.loan_repay))  # fmt: skip
    score[rows, sp.REPAY] = 200.0
    return score


__all__ = [
    "MAPS", "Features", "HeuristicAgent", "HeuristicParams", "MapFromObservation", "build_values", "check_map",
    "heuristic_actions", "heuristic_scores", "map_of", "rail_values", "tables",
]  # fmt: skip
