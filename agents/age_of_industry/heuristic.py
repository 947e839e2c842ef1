"""The rule-of-thumb player of Age of Industry ("heuristic"), batched in numpy: it reads only the observation (its
pieces decoded by name through the game's observation layout) and the legal mask.

Every action of the flat space gets a score in dollars (a point is $5), illegal ones are masked out, and the best
is played (ties broken by a tiny seeded noise). What it values:

- **Builds** (a card, then the space and industry): the counter's level ($5 a point at the end), its income
  (a cotton mill or factory counts its sale, surer when a free port or market is reachable now over completed
  links; a mine or iron works its flip and the demand track it may fill; a port the sales it will take), minus its
  printed cost and the coal and iron it needs (free when cubes lie on the map, else the demand track's price), minus
  the interest of the loans the payment would force (a loan costs $1 a round and $1 more to repay). Which spaces a
  card opens is not guessed: the card is tried on a position rebuilt from the observation
  (:func:`industry_env.games.age_of_industry.from_observation.from_observation`) and the engine's next mask lists
  them; only public information and the agent's own hand enter, so the others' hidden cards never matter.
- **Sales**: always, first (a sale is pure income); to a free market or an own port before an opponent's port.
- **Rails**: when a rail joins the agent's unsold mills and factories to a buyer they cannot reach, or when the
  spaces at its ends promise more end-of-game rail income than it costs.
- **Loans** come by themselves when a payment is short (rules.md, ruling 4); it repays one when its money exceeds
  the repayment plus ``reserve``.
- **Drawing** when the hand is short; **developing** away the level-0 factories while the game is young;
  **passing** only as a last resort, discarding the card it can use least.

Parameters (documented in docs/age-of-industry/agents.md): ``reserve`` (dollars kept when repaying a loan, 8),
``draw_below`` (hand size under which drawing is urgent, 3), ``sell_hope`` (the share of a sale counted for a mill
or factory with no buyer reachable yet, 0.4), ``combine_cost`` (dollars a combined build must gain over one action
to be worth its second action, 8), ``noise`` (scale of the tie-breaking noise, 0.01).
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
    PORT,
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
CARDS_PER_ROUND = 6.0  # cards a 4-player table draws from the deck in a round, roughly (for the rounds left)


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
        sizes = v["hand_size"] * HAND_LIMIT  # [B, P]
        # rounds left, roughly: the deck drawn down at a few cards a round, then the hands played out
        self.rounds_left = deck_left / CARDS_PER_ROUND + sizes.max(axis=1) / 2.0
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
        # cube prices: free when cubes of the kind lie on the map, else the demand track's cheapest cube
        demand = np.rint(v["demand"]).astype(np.int64)  # [B, 2]
        on_map = np.stack([((self.industry == COAL_MINE) | (self.industry < 0)) * self.space_cubes,
                           (self.industry == IRON_WORKS) * self.space_cubes], axis=1).sum(axis=2)  # fmt: skip
        track = np.where(demand > 0, t.demand_prices[np.arange(2)[None, :], np.maximum(demand - 1, 0)],
                         float(EMPTY_DEMAND_PRICE))  # fmt: skip
        self.cube_price = np.where(on_map > 0, 0.5, track)  # [B, 2]
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

    def loan_penalty(self, rows: np.ndarray, price: np.ndarray, t: Tables) -> np.ndarray:
        """Dollars the loans forced by paying ``price`` in game ``rows`` cost by the end (interest and the $1 more
        repaid)."""
        short = np.maximum(price - self.money[rows], 0.0)
        loans = np.ceil(short / t.loan_value)
        return loans * (self.rounds_left[rows] + (t.loan_repay - t.loan_value))


def build_values(f: Features, t: Tables, rows: np.ndarray, at_mask: np.ndarray, prm: HeuristicParams) -> np.ndarray:
    """float64[N, S * 6]: the dollar value of each build (space, industry) in game ``rows[j]``; BAD where
    ``at_mask`` (bool[N, S * 6], the BUILD_AT block of the mask) forbids it."""
    S = t.space_loc.size
    ind = np.tile(np.arange(NUM_INDUSTRIES), S)[None, :]  # [1, S*6]
    sp = np.repeat(np.arange(S), NUM_INDUSTRIES)[None, :]
    r = rows[:, None]
    lvl = f.level[r, ind]
    price = f.cost[r, ind] + f.coal[r, ind] * f.cube_price[r, 0] + f.iron[r, ind] * f.cube_price[r, 1]
    inc = f.next_income[r, ind].astype(np.float64)
    loc = t.space_loc[sp]
    late = np.clip(f.rounds_left[r] / 3.0, 0.0, 1.0)  # income needs a few rounds to come in
    kind = np.where(ind == FACTORY, 1, 0)
    sellable = f.reach_buys[r, loc, kind]
    value = DOLLARS_PER_POINT * lvl - price
    goods = (ind == COTTON_MILL) | (ind == FACTORY)
    value = value + np.where(goods, inc * np.where(sellable, 0.9, prm.sell_hope) * late, 0.0)
    mine = (ind == COAL_MINE) | (ind == IRON_WORKS)
    res = np.where(ind == IRON_WORKS, 1, 0)
    empty = np.maximum(t.demand_prices.shape[1] - 1 - f.demand[r, res], 0)
    to_track = np.minimum(f.cubes[r, ind], empty) * f.reach_port[r, loc]
    value = value + np.where(mine, 0.5 * inc * late + 1.5 * to_track, 0.0)
    my_goods = f.loc_goods[r, loc, 0] + f.loc_goods[r, loc, 1]
    value = value + np.where(ind == PORT, (0.4 * inc + 0.5 * (my_goods > 0) * inc) * late, 0.0)
    value = value + np.where(ind == SHIP, 0.5 * inc * late + 2.0, 0.0)
    # overbuilding: an own counter's level is lost; an opponent's is taken from him
    own = f.owner[r, sp] == 0
    other = f.owner[r, sp] > 0
    value = value - own * DOLLARS_PER_POINT * f.space_level[r, sp] + other * 2.0
    value = value - f.loan_penalty(r, price, t)
    return np.where(at_mask, value, BAD)


def _expand_cards(obs: np.ndarray, mask: np.ndarray, f: Features, t: Tables, map_key: str, block: str,
                  prm: HeuristicParams, state: engine.State | None = None) -> np.ndarray:  # fmt: skip
    """float64[B, K]: for each legal action of ``block`` (BUILD or BUILD_ANY), the value of the best build the card
    opens, found by trying it on the position rebuilt from the observation (or on ``state``, a position the
    caller already holds that agrees with it, as a search's determinization does)."""
    sp = t.space
    K = sp.num_card_kinds
    lo = sp.offsets[block]
    out = np.full((f.B, K), BAD)
    legal = mask[:, lo : lo + K]
    if block == "BUILD_ANY":  # every card opens the same builds: try one per game
        first = legal.argmax(axis=1)
        legal = legal & (np.arange(K)[None, :] == first[:, None])
    rows, cards = np.nonzero(legal)
    if rows.size == 0:
        return out
    base = from_observation(obs[rows], map_key) if state is None else engine.take(state, rows)
    m = engine.legal_action_mask(engine.step(base, lo + cards, inplace=True))
    at = m[:, sp.BUILD_AT : sp.BUILD_AT + sp.sizes["BUILD_AT"]]
    best = build_values(f, t, rows, at, prm).max(axis=1)
    out[rows, cards] = best
    if block == "BUILD_ANY":
        full = np.full(f.B, BAD)
        full[rows] = best
        out = np.where(mask[:, lo : lo + K], full[:, None], BAD)
    return out


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
        scores = heuristic_scores(observations, masks, self.map_for(observations), self.params)
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
        build = _expand_cards(o, m, fr, t, map_key, "BUILD", prm, sub)  # [n, K]
        combined = _expand_cards(o, m, fr, t, map_key, "BUILD_ANY", prm, sub) - prm.combine_cost
        # how much each card is worth keeping: what it builds now (0 if nothing)
        keep = np.maximum(np.where(build > BAD / 2, build, 0.0), 0.0)
        sc = np.full((rows.size, A), BAD)
        sc[:, sp.BUILD : sp.BUILD + K] = build + 1.0
        # a combined build: the card that is least worth keeping
        sc[:, sp.BUILD_ANY : sp.BUILD_ANY + K] = np.where(combined > BAD / 2, combined - 0.1 * keep, BAD)
        L = sp.num_rail_links
        rails_done = RAILS_PER_PLAYER - np.rint(fr.v["rails_left"][:, 0] * RAILS_PER_PLAYER)
        rail_price = np.where(rails_done > 0, 1.0 + fr.cube_price.sum(axis=1), 1.0)  # [n]
        rv = rail_values(fr, t) - rail_price[:, None] - fr.loan_penalty(np.arange(rows.size), rail_price, t)[:, None]
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
        repay = fr.money >= t.loan_repay + prm.reserve
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
        D = sp.num_slots
        zero = (t.slot_level == 0).astype(np.float64)
        factory = (t.slot_industry == FACTORY).astype(np.float64)
        score[rows, sp.REMOVE : sp.REMOVE + D] = 5.0 * zero * factory + 2.0 * zero - 0.1 * t.slot_level
    rows = np.flatnonzero(ph == DRAW_SECOND)
    if rows.size:
        fu = f.v["face_up"][rows]
        industry_card = (t.card_industry >= 0).astype(np.float64)
        score[rows, sp.DRAW] = 0.0
        score[rows, sp.DRAW + 1 : sp.DRAW + 3] = 0.3 * (fu * industry_card).sum(axis=2) - 0.05
    # a loan is repaid at the action decision only (above); elsewhere it is left for later
    return score


__all__ = [
    "MAPS", "Features", "HeuristicAgent", "HeuristicParams", "MapFromObservation", "build_values", "check_map",
    "heuristic_actions", "heuristic_scores", "map_of", "rail_values", "tables",
]  # fmt: skip
