"""The rule-of-thumb player of 20th Century ("heuristic"), batched in numpy: it reads only the observation (its
pieces decoded by name through the game's observation layout) and the legal mask, never the State.

Every action of the flat space gets a score in victory points, illegal ones are masked out, and the best is played
(ties broken by a small seeded noise). What it values (docs/twentieth-century/agents.md):

- **A land tile** by the city its citizen will occupy (victory points for every production left, coins and science
  for every production before round VI, at ``coin_value`` and ``science_value`` points each), a little for its
  other cities, its recycling, the clean-tile points it may score, minus the garbage it brings (the k-th tile won
  in a round carries k cubes, at ``cube_cost`` points a cube). It puts up the tile with the largest surplus over the
  minimum price, bids the smallest raise while the price stays under the tile's value in coins, passes otherwise,
  and withdraws when no tile on offer is worth its minimum price.
- **A technology** by what it gives (an institution's bonus for the productions left, a multiple-use ability for
  each maintenance left, a single-use one once, the pollution steps and garbage it brings); bought on withdrawing
  when worth more than its price in science. A leader withdraws at once, to choose first, when a technology's
  surplus beats every tile's by ``tech_margin``.
- **A catastrophe column** by what it would cost: its cubes and pollution steps (``pollution_cost`` a step), plus
  the science bid; the cheapest legal bid of the cheapest column.
- **Placing**: a new tile goes where it joins the most railed sides, occupied recycling centres and institutions of
  its neighbours (an institution next to the cities producing its resource); the citizen on the best city; each
  cube where it costs least towards the final scoring (a clean tile loses its 2-4 points, a second cube costs 5);
  recycling and the abilities remove cubes from the most crowded tiles; a train moves the least valuable citizen,
  workers take the best free city.

- **Rotating** the tile being attached (its offer row stays in the observation until it is on the grid): the
  rotation that faces the most railed sides of its neighbours with railed sides of its own. The choice among several
  pending tiles is left to the tie-breaking noise.

Parameters (named, with defaults): ``coin_value`` (points a coin is worth, 0.4), ``science_value`` (points a
science is worth, 0.7), ``cube_cost`` (points a cube of garbage costs, 3.0), ``pollution_cost`` (points a step of
pollution to the left costs, 2.0), ``reserve`` (coins kept back when bidding, 0), ``tech_margin`` (points a
technology's surplus must exceed the best tile's by for the leader to withdraw at once and buy it first, 4.0),
``noise`` (scale of the tie-breaking noise, 0.01).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from industry_env.games.twentieth_century import actions as A
from industry_env.games.twentieth_century.components import INSTITUTIONS, KINDS, MAX_CITIES, load_data
from industry_env.games.twentieth_century.geometry import DIRECTIONS, MAX_TILES, STEP, opposite
from industry_env.games.twentieth_century.rules import LAST_FULL_ROUND, ROUNDS
from industry_env.games.twentieth_century.state import PHASES

from ..base import Agent, AgentInputError, check_seed
from .checks import check_observations, pieces

PH = {name: i for i, name in enumerate(PHASES)}
SECOND_CUBE = 5.0  # final scoring (F2): each cube past the first on a land tile costs 5 points
CITY_F, REACH_F = 14, 32  # grid cell features: per city (exists, coins, science, VP, recycling, occupied); reaches
XY_F = 54  # grid cell features: the tile's cell, x / 8 and y / 8 from the starting tile's (0, 0)


@dataclass(frozen=True)
class HeuristicParams:
    """The heuristic's named parameters (docs/twentieth-century/agents.md)."""

    coin_value: float = 0.4
    science_value: float = 0.7
    cube_cost: float = 3.0
    pollution_cost: float = 2.0
    reserve: float = 0.0
    tech_margin: float = 4.0
    noise: float = 0.01

    def check(self) -> HeuristicParams:
        for name in ("coin_value", "science_value", "cube_cost", "pollution_cost", "reserve", "tech_margin", "noise"):
            v = getattr(self, name)
            if not isinstance(v, (int, float)) or isinstance(v, bool) or not np.isfinite(v) or v < 0:
                raise AgentInputError(f"heuristic parameter {name}={v!r}: a finite number >= 0")
        if self.coin_value == 0:
            raise AgentInputError("heuristic parameter coin_value=0: a coin must be worth something to bid with")
        return self


def _slot_cells(g: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """int[B, S] x, int[B, S] y (east, south of the starting tile) and bool[B, S] present of each slot's tile."""
    x, y = (np.rint(g[..., XY_F + i] * 8).astype(np.int64) for i in (0, 1))
    return x, y, g[..., 0] > 0


def _neighbours(g: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """int[B, M, 4]: the slot of the tile beside each cell (``x``, ``y``: int[B, M]) on each side (N, E, S, W), -1
    where that cell is empty; ``g`` the nations' grids by slot [B, S, F]."""
    sx, sy, present = _slot_cells(g)
    out = np.full((*x.shape, 4), -1, np.int64)
    for s, (dx, dy) in STEP.items():
        hit = present[:, None, :] & (sx[:, None, :] == (x + dx)[..., None]) & (sy[:, None, :] == (y + dy)[..., None])
        out[..., s] = np.where(hit.any(axis=-1), hit.argmax(axis=-1), -1)
    return out


def _placement_cells(g: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """int[B, S * 8] x and y of the cell each placement action names: beside slot k toward direction d (action
    ``A.PLACE + k * 8 + d``; only the legal ones name an empty cell touching the nation)."""
    sx, sy, _ = _slot_cells(g)
    dx, dy = (np.array([d[i] for d in DIRECTIONS], np.int64) for i in (0, 1))
    B = g.shape[0]
    return (sx[:, :, None] + dx).reshape(B, -1), (sy[:, :, None] + dy).reshape(B, -1)


@lru_cache(maxsize=1)
def _tech_tables() -> tuple[np.ndarray, np.ndarray]:
    """The shipped technologies' institution kind (-1 none) and pollution, by technology index."""
    data = load_data()
    kind = np.array([next((INSTITUTIONS[a.kind] for a in t.abilities if a.kind in INSTITUTIONS), -1)
                     for t in data.technologies])  # fmt: skip
    return kind, np.array([t.pollution for t in data.technologies], np.float64)


class Features:
    """The pieces of a batch of observations the heuristic reads, decoded by name."""

    def __init__(self, obs: np.ndarray) -> None:
        at = pieces()
        B = obs.shape[0]

        def view(name: str) -> np.ndarray:
            p = at[name]
            return obs[:, p.slice].reshape(B, *p.shape).astype(np.float64)

        self.phase = view("phase").argmax(axis=1)
        self.round = view("round").argmax(axis=1) + 1
        prices = view("prices")
        track = len(prices[0]) // 2
        self.min_price = prices[:, 0] * 4
        self.tech_price = (prices[:, 1 : 1 + track] * 6 * prices[:, 1 + track :]).sum(axis=1)
        self.land = view("land_offer")  # [B, 8, 36]
        self.tech = view("tech_offer")  # [B, 6, 30]
        auc = view("auction")
        n_land = self.land.shape[1]
        self.auction_slot = np.where(auc[:, :n_land].any(axis=1), auc[:, :n_land].argmax(axis=1), -1)
        self.high_bid = auc[:, n_land] * 10
        self.my_high_bid = auc[:, n_land + 1] > 0.5  # the observer holds the high bid (asked again: ruling 19)
        P = view("seat_present").shape[1]
        self.won = auc[:, n_land + 1 + 5 * P] * 5  # my tiles won this round
        self.cat = view("catastrophe")
        me = view("seats")[:, 0]
        self.coins, self.science = me[:, 0] * 10, me[:, 1] * 10
        self.grid = view("grids")[:, 0]  # [B, 46 slots, 56]
        self.selection = view("selection")
        owned_at = 5 + len(load_data().pollution_final) + 8  # coins, science, markers, pollution, 8 counts
        self.techs_owned = me[:, owned_at : owned_at + len(_tech_tables()[0])]


def _city_values(cities: np.ndarray, rnd: np.ndarray, prm: HeuristicParams) -> np.ndarray:
    """float[..., 3]: points a citizen on each city brings (cities: [..., 3, >=5] exists, coins/5, science/5, VP/5,
    recycling), for the productions left from round ``rnd`` (broadcast over the leading axes)."""
    vp_left = (ROUNDS + 1 - rnd).astype(np.float64)  # production gives points in every round from now to VI
    res_left = np.maximum(LAST_FULL_ROUND + 1 - rnd, 0).astype(np.float64)  # coins and science until round V
    shape = (-1,) + (1,) * (cities.ndim - 2)
    vp_left, res_left = vp_left.reshape(shape), res_left.reshape(shape)
    value = (
        5 * cities[..., 3] * vp_left
        + 5 * (cities[..., 1] * prm.coin_value + cities[..., 2] * prm.science_value) * res_left
    )
    value = value + 1.5 * cities[..., 4] * np.minimum(res_left, 3)
    return np.where(cities[..., 0] > 0, value + 0.1, -np.inf)


def land_values(f: Features, prm: HeuristicParams) -> np.ndarray:
    """float[B, 8]: each offered land tile's worth in coins to the seat (-inf: no tile in the slot)."""
    cities = f.land[:, :, 4 : 4 + 5 * MAX_CITIES].reshape(*f.land.shape[:2], MAX_CITIES, 5)
    vals = np.sort(_city_values(cities, f.round, prm), axis=-1)[..., ::-1]
    best = vals[..., 0]
    others = np.where(np.isfinite(vals[..., 1:]), vals[..., 1:], 0.0).sum(axis=-1)
    cubes = (f.won + 1)[:, None]  # the k-th tile won this round carries k cubes (A8)
    points = best + 0.25 * others + 3.0 - prm.cube_cost * cubes
    return np.where(f.land[:, :, 0] > 0, points / prm.coin_value, -np.inf)


def tech_values(f: Features, prm: HeuristicParams) -> np.ndarray:
    """float[B, 6]: each offered technology's worth in points."""
    t = f.tech
    kinds = t[:, :, 4 : 4 + len(KINDS)]
    k = 4 + len(KINDS)
    garbage, left, right = t[:, :, k] * 5, t[:, :, k + 1] * 3, t[:, :, k + 2] * 3
    bonus, cost, vp = t[:, :, k + 3] * 3, t[:, :, k + 4] * 9, t[:, :, k + 5] * 9
    rnd = f.round[:, None].astype(np.float64)
    prod_left = np.maximum(LAST_FULL_ROUND + 1 - rnd, 0)
    uses = ROUNDS + 1 - rnd  # maintenances left, this one included (X17)
    K = {name: kinds[:, :, i] for i, name in enumerate(KINDS)}
    value = (
        K["mine"] * bonus * prod_left * 5 * prm.coin_value * 0.5
        + K["laboratory"] * bonus * prod_left * 5 * prm.science_value * 0.5
        + K["hospital"] * bonus * (prod_left + 1) * 0.6
        + K["workers"] * 3.0
        + K["bridge"] * 0.3
        + K["separated_collection"] * prm.cube_cost * 0.8
        + K["train"] * 1.0
        + K["garbage_truck"] * 1.0
        + K["recycling"] * np.maximum(prm.cube_cost - cost * prm.coin_value, 0) * uses * 0.6
        + K["cleanup"] * np.maximum(prm.pollution_cost - cost * prm.coin_value, 0) * uses * 0.6
        + K["quality_of_life"] * np.maximum(vp - cost * prm.coin_value, 0) * uses * 0.6
        + (right - left) * prm.pollution_cost
        - garbage * prm.cube_cost
    )
    return np.where(t[:, :, 0] > 0, value, -np.inf)


def _cube_cost(cubes: np.ndarray, prm: HeuristicParams) -> np.ndarray:
    """Points one more cube on a tile holding ``cubes`` costs: a clean tile loses its points, later cubes 5 each."""
    return np.where(cubes < 0.5, prm.cube_cost * 0.8, SECOND_CUBE)


def _cube_saving(cubes: np.ndarray, prm: HeuristicParams) -> np.ndarray:
    """Points removing a cube from a tile holding ``cubes`` saves."""
    return np.where(cubes < 0.5, 0.0, np.where(cubes < 1.5, prm.cube_cost * 0.8, SECOND_CUBE))


def heuristic_scores(obs: np.ndarray, mask: np.ndarray, prm: HeuristicParams) -> np.ndarray:
    """float64[B, A]: the heuristic's score of every action (only the legal ones matter)."""
    f = Features(obs)
    B, Anum = mask.shape
    score = np.zeros((B, Anum))
    ph = f.phase
    rows = np.arange(B)
    n_land, n_tech = f.land.shape[1], f.tech.shape[1]

    # ---------------------------------------------------------------- the land auction (A2-A12) and technologies
    value = land_values(f, prm)  # [B, 8] coins
    spend = np.maximum(f.coins - prm.reserve, 0)
    surplus_min = value - np.maximum(f.min_price, 0)[:, None]
    worth = np.isfinite(surplus_min) & (surplus_min >= 0) & (f.min_price <= spend)[:, None]
    any_worth = worth.any(axis=1)
    lead = ph == PH["lead"]
    score[lead, A.LAND : A.LAND + n_land] = np.where(worth, 1.0 + np.maximum(surplus_min, 0) * 0.1, -1.0)[lead]
    # withdrawing early to buy a technology first (T1-T4) when it is worth more than any tile's surplus
    tech_surplus = tech_values(f, prm) - (f.tech_price * prm.science_value)[:, None]
    affordable = (f.tech_price <= f.science)[:, None] & np.isfinite(tech_surplus)
    best_tech = np.where(affordable, tech_surplus, 0.0).max(axis=1)
    best_land = np.where(worth, surplus_min, 0.0).max(axis=1) * prm.coin_value
    score[lead, A.WITHDRAW] = np.where(best_tech > best_land + prm.tech_margin, 100.0, 0.0)[lead]
    bids = np.arange(A.NUM_BIDS, dtype=np.float64)
    opening = ph == PH["open"]
    score[opening, A.BID : A.BID + A.NUM_BIDS] = -bids  # open at the minimum
    adding = (ph == PH["bid"]) & f.my_high_bid  # asked what to add to his own bid of 31 or more: nothing
    score[adding, A.BID : A.BID + A.NUM_BIDS] = -bids
    bidding = (ph == PH["bid"]) & ~f.my_high_bid
    if bidding.any():
        slot = np.maximum(f.auction_slot, 0)
        tile_value = np.where(f.auction_slot >= 0, value[rows, slot], -np.inf)
        price = f.high_bid + 1  # the smallest raise
        raise_ok = (price <= tile_value) & (price <= spend)
        sc = np.where(raise_ok[:, None], 2.0 - bids[None] * 0.1, -1.0)
        score[bidding, A.BID : A.BID + A.NUM_BIDS] = sc[bidding]
        score[bidding, A.PASS] = 0.0
        score[bidding, A.WITHDRAW] = np.where(any_worth, -0.5, 0.5)[bidding]
    tech = ph == PH["tech"]
    if tech.any():
        score[tech, A.TECH : A.TECH + n_tech] = np.where(np.isfinite(tech_surplus), tech_surplus, -1.0)[tech]
        score[tech, A.DONE] = 0.0

    # ------------------------------------------------------------------------- preventing catastrophes (C4-C8)
    cat = ph == PH["catastrophe"]
    if cat.any():
        cols = f.cat[:, :15].reshape(B, 5, 3)
        cost = cols[:, :, 0] * 5 * prm.cube_cost + cols[:, :, 1] * 3 * prm.pollution_cost  # [B, 5]
        cb = np.arange(A.NUM_CAT_BIDS, dtype=np.float64)
        sc = -(cost[:, :, None] + cb[None, None] * prm.science_value)  # [B, 5, 26]
        score[cat, A.CATASTROPHE : A.CATASTROPHE + 5 * A.NUM_CAT_BIDS] = sc.reshape(B, -1)[cat]

    # ----------------------------------------------------------------------------------- maintenance (M2-M9)
    g = f.grid
    cubes = g[:, :, 5] * 4
    cities = g[:, :, CITY_F : CITY_F + 6 * MAX_CITIES].reshape(B, -1, MAX_CITIES, 6)
    city_val = _city_values(cities, f.round, prm)  # [B, 46, 3]
    city_val = np.where(np.isfinite(city_val), city_val, 0.0)
    occupied = cities[..., 5] > 0
    tile_act = slice(A.TILE, A.TILE + MAX_TILES)  # the nation's tiles by slot
    city_act = slice(A.CITY, A.CITY + MAX_TILES * MAX_CITIES)
    attach = ph == PH["attach_cell"]
    if attach.any():
        rows_a = np.flatnonzero(attach)
        place = _placement_scores(f, rows_a, g[rows_a], cities[rows_a], occupied[rows_a])
        score[rows_a, A.PLACE : A.PLACE + MAX_TILES * A.NUM_DIRECTIONS] = place
    rotate = ph == PH["attach_rotate"]
    if rotate.any():
        rows_r = np.flatnonzero(rotate)
        score[rows_r, A.ROTATE : A.ROTATE + 4] = _rotation_scores(f, rows_r, g[rows_r])
    citizen = ph == PH["citizen"]
    score[citizen, city_act] = city_val.reshape(B, -1)[citizen]
    recycler = (cities[..., 4] > 0) & occupied  # [B, 46, 3]
    garbage = ph == PH["garbage"]
    score[garbage, tile_act] = (-_cube_cost(cubes, prm) + 0.5 * recycler.any(axis=2))[garbage]
    use = ph == PH["use"]
    score[use, A.USE : A.USE + A.MAX_TECHS * A.MAX_ABILITIES] = 1.0
    score[use, A.DONE] = 0.0
    first = ph == PH["use_target"]
    if first.any():  # a train leaves the least valuable occupied city; workers take the best free one
        score[first, city_act] = np.where(occupied, -city_val, city_val).reshape(B, -1)[first]
        score[first, tile_act] = (cubes + _cube_saving(cubes, prm))[first]  # the most crowded tile
    second = ph == PH["use_target2"]
    if second.any():
        score[second, city_act] = city_val.reshape(B, -1)[second]
        score[second, tile_act] = (-_cube_cost(cubes, prm) + 0.5 * recycler.any(axis=2))[second]

    # ------------------------------------------------------------------------------ production: recycling (Q2)
    rec = ph == PH["recycle"]
    score[rec, tile_act] = (1.0 + _cube_saving(cubes, prm) + 0.1 * cubes)[rec]
    score[rec, A.DONE] = 0.0
    return score


def _placement_scores(f: Features, rows: np.ndarray, g: np.ndarray, cities: np.ndarray,
                      occupied: np.ndarray) -> np.ndarray:  # fmt: skip
    """float[R, S * 8]: for the observations ``rows`` (``g``, ``cities``, ``occupied`` their nations by slot), how
    well the cell each placement action names (beside slot k toward direction d) joins the tile being attached to
    its neighbours: railed sides facing it, occupied recycling centres and institutions that reach it, and for an
    institution the cities producing its resource that reach it."""
    R = g.shape[0]
    x, y = _placement_cells(g)  # [R, M]
    nb = _neighbours(g, x, y)  # [R, M, 4]
    valid = nb >= 0
    idx = np.where(valid, nb, 0)
    at = np.arange(R)[:, None]
    n_land = f.land.shape[1]
    being = f.selection[rows, 6 : 6 + n_land + f.tech.shape[1]]
    is_inst = being[:, n_land:].any(axis=1)
    kind = _pending_institution(f.techs_owned[rows], g)  # [R] 0 mine, 1 laboratory, 2 hospital, -1 unknown
    out = np.zeros(x.shape)
    for s in range(4):
        facing = opposite(s)
        ng = g[at, idx[..., s]]  # [R, M, F] the neighbour on side s
        there = (ng[..., 0] > 0) & valid[..., s]
        railed = ng[..., 10 + facing] > 0
        reach = ng[..., REACH_F + facing : REACH_F + 4 * MAX_CITIES : 4] > 0  # [R, M, 3] its cities reaching c
        ncity = cities[at, idx[..., s]]  # [R, M, 3, 6]
        nocc = occupied[at, idx[..., s]]
        recycling = (ncity[..., 4] > 0) & nocc & reach
        inst = (ng[..., 2] > 0) & (ng[..., 44 + facing] > 0)
        out += there * (0.4 + 1.0 * railed + 1.5 * recycling.any(axis=-1) + np.where(is_inst[:, None], 0, 1.5 * inst))
        if is_inst.any():
            res = np.take_along_axis(ncity[..., 1:4], np.maximum(kind, 0)[:, None, None, None], axis=-1)[..., 0]
            boosted = ((res > 0) & nocc & reach).sum(axis=-1)
            out += np.where((is_inst & (kind >= 0))[:, None], there * (ng[..., 1] > 0) * 2.0 * boosted, 0.0)
    return out


def _rotation_scores(f: Features, rows: np.ndarray, g: np.ndarray) -> np.ndarray:
    """float[R, 4]: for the observations ``rows`` (``g`` their nations by slot), for each rotation of the tile being
    attached (read from its offer row, which it keeps until it is on the grid), how many railed sides of its
    neighbours it faces with a railed side of its own; the cell it goes on is the selection's (x, y)."""
    R = g.shape[0]
    n_land, n_tech = f.land.shape[1], f.tech.shape[1]
    sel = f.selection[rows]
    being = sel[:, 6 : 6 + n_land + n_tech]
    slot = being.argmax(axis=1)
    k = 4 + len(KINDS) + 6  # a technology row's railed sides
    land_sides = f.land[rows, np.minimum(slot, n_land - 1), 19:23]
    tech_sides = f.tech[rows, np.clip(slot - n_land, 0, n_tech - 1), k : k + 4]
    sides = np.where((slot < n_land)[:, None], land_sides, tech_sides) > 0  # [R, 4] railed, unrotated
    sides &= being.any(axis=1)[:, None]
    x = np.rint(sel[:, 1:2] * 8).astype(np.int64)  # the cell being attached on, from the starting tile
    y = np.rint(sel[:, 2:3] * 8).astype(np.int64)
    nb = _neighbours(g, x, y)[:, 0]  # [R, 4]
    at = np.arange(R)
    out = np.zeros((R, 4))
    for s in range(4):
        ng = g[at, np.maximum(nb[:, s], 0)]
        facing = (nb[:, s] >= 0) & (ng[:, 0] > 0) & (ng[:, 10 + opposite(s)] > 0)  # [R] a railed neighbour on s
        for r in range(4):  # rotating r quarter turns sends side (s - r) % 4 to s
            out[:, r] += facing & sides[:, (s - r) % 4]
    return out


def _pending_institution(techs_owned: np.ndarray, g: np.ndarray) -> np.ndarray:
    """int[B]: the kind of an institution the seat owns and has not attached (0 mine, 1 laboratory, 2 hospital),
    -1 where none: the technologies owned (``techs_owned`` [B, T]), less the buildings on the grid (``g``)."""
    kind, _ = _tech_tables()
    owned = techs_owned > 0
    out = np.full(g.shape[0], -1, np.int64)
    for k in range(3):
        have = (owned & (kind == k)[None]).sum(axis=1)
        placed = ((g[:, :, 0] > 0) & (g[:, :, 48 + k] > 0)).sum(axis=1)
        out = np.where((out < 0) & (have > placed), k, out)
    return out


class HeuristicAgent(Agent):
    """The rule-of-thumb player ("heuristic"), batched; see the module docstring for what it values and its
    parameters. Seeded: the same seed gives the same moves (the seed only breaks ties)."""

    name = "heuristic"
    game = "twentieth_century"

    def __init__(self, seed: int | None = None, coin_value: float = 0.4, science_value: float = 0.7,
                 cube_cost: float = 3.0, pollution_cost: float = 2.0, reserve: float = 0.0,
                 tech_margin: float = 4.0, noise: float = 0.01) -> None:  # fmt: skip
        self.seed = check_seed(seed)
        self.params = HeuristicParams(coin_value, science_value, cube_cost, pollution_cost, reserve, tech_margin,
                                      noise).check()  # fmt: skip
        self.rng = np.random.default_rng(self.seed)

    def _choose(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        check_observations(observations)
        return self._choose_trusted(observations, masks)

    def _choose_trusted(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """The moves for observations the engine made (``act_engine``): not checked again."""
        return heuristic_actions(observations, masks, self.params, self.rng)


def heuristic_actions(observations: np.ndarray, masks: np.ndarray, params: HeuristicParams | None = None,
                      rng: np.random.Generator | None = None) -> np.ndarray:  # fmt: skip
    """int64[B]: the heuristic's action for each observation (float32[B, D]) and legal mask (bool[B, A]); ties
    broken by ``rng`` (None: the lowest action)."""
    prm = params or HeuristicParams()
    scores = heuristic_scores(observations, masks, prm)
    if rng is not None:
        scores = scores + prm.noise * rng.random(scores.shape)
    return np.where(masks, scores, -np.inf).argmax(axis=1).astype(np.int64)


__all__ = ["HeuristicAgent", "HeuristicParams", "heuristic_actions", "heuristic_scores", "land_values", "tech_values"]
