"""20th Century's search player ("ismcts"): the suite's one search (:mod:`industry_env.agents.search`) with this
game's hooks, information-set search over positions drawn from the seat's own view.

An agent gets only its observation and the legal mask. For each decision the search rebuilds a position from the
observation (:func:`industry_env.games.twentieth_century.from_observation.from_observation`: the observer as seat
0, the stacks' order and the face-down catastrophes filled in arbitrarily) and every simulation plays on a fresh
**determinization** (``determinizations=0``): every stack's undealt tiles reshuffled and each future catastrophe
redrawn from its era's unrevealed cards, from the agent's own generator, with :func:`engine.resample` (the batched
twin of ``spec.resample``). It never reads the true hidden state: it has none, so its choice depends only on the
observation, the mask and its seed (``tests/twentieth_century/test_search.py`` checks that reordering the true
stacks and catastrophes changes nothing).

The hooks (:class:`TwentiethCenturySearch`):

- searched: only the decisions that shape the game (which land tile to put up or whether to withdraw, the opening
  bid, raise / pass / withdraw, which technology to buy, the catastrophe column and bid, where to attach a tile);
  the small steps (the rotation, the citizen, each cube, the technologies' targets, recycling) follow the heuristic;
- candidates: the heuristic's best legal actions, ``candidates`` of them, at most one of each kind (a catastrophe
  column's cheapest bid, a raise of 0, 1-3 or 4 and more over the smallest), the heuristic's choice first;
- policy: the batched heuristic (:mod:`.heuristic`), which plays the other seats (modelled), the small steps and
  the rollouts (``rollout_depth`` decisions);
- value: for each seat ``tanh((own estimate - best other estimate) / temperature)``, an estimate being its points
  now plus what its nation will still produce (the production markers for every production left, pending land
  tiles on their best city), its land tiles and pollution scored as the final scoring would now, its coins and
  science ranked as the final scoring ranks them (projected with the productions left) and, while auctions remain,
  their worth at the heuristic's ``coin_value`` and ``science_value``, less its cubes waiting to be placed.
"""

from __future__ import annotations

import numpy as np

from industry_env.games.twentieth_century import actions as A
from industry_env.games.twentieth_century import engine
from industry_env.games.twentieth_century.components import MAX_CITIES, load_data
from industry_env.games.twentieth_century.from_observation import from_observation
from industry_env.games.twentieth_century.reference import rank_bonus
from industry_env.games.twentieth_century.rules import LAST_FULL_ROUND, MAX_PLAYERS, ROUNDS
from industry_env.games.twentieth_century.state import PHASES

from ..search import SearchAgent, SearchGame, real, whole
from .checks import check_observations, pieces
from .heuristic import HeuristicParams, heuristic_actions, heuristic_scores

P = MAX_PLAYERS
PH = {name: i for i, name in enumerate(PHASES)}
SEARCHED = tuple(PH[k] for k in ("lead", "open", "bid", "tech", "catastrophe", "attach_cell"))
AUCTION = tuple(PH[k] for k in ("lead", "open", "bid", "tech"))


def _kinds() -> np.ndarray:
    """int64[num_actions]: the kind of each action, candidates being at most one of a kind: a catastrophe column
    (its bids), a raise of 0, of 1-3 or of 4 and more over the smallest bid; every other action its own kind."""
    kind = np.arange(A.NUM_ACTIONS, dtype=np.int64)
    k = np.arange(A.NUM_BIDS)
    kind[A.BID : A.BID + A.NUM_BIDS] = A.BID + np.where(k == 0, 0, np.where(k < 4, 1, 4))
    cols = np.arange(5 * A.NUM_CAT_BIDS) // A.NUM_CAT_BIDS
    kind[A.CATASTROPHE : A.CATASTROPHE + 5 * A.NUM_CAT_BIDS] = A.CATASTROPHE + cols * A.NUM_CAT_BIDS
    return kind


KIND = _kinds()


def estimate(obs: np.ndarray, state: engine.State, prm: HeuristicParams) -> np.ndarray:
    """float64[B, 5]: each seat's estimated final points, from seat 0's observations ``obs`` of ``state`` (the seats
    in seat order): see the module docstring. A finished game's final points."""
    at = pieces()
    data = load_data()
    B = obs.shape[0]

    def view(name: str) -> np.ndarray:
        p = at[name]
        return obs[:, p.slice].reshape(B, *p.shape).astype(np.float64)

    seats = view("seats")  # [B, 5, F]
    g = at["grids"]
    grids = obs[:, g.slice].reshape(B, *g.shape)[..., [0, 1, 5]].astype(np.float64)  # present, land, cubes / 4
    rnd = state.round.astype(np.int64)
    phase = state.phase.astype(np.int64)
    produced = phase == PH["recycle"]  # this round's production done
    vp_left = (ROUNDS - rnd + ~produced).astype(np.float64)
    res_left = (np.maximum(LAST_FULL_ROUND - rnd, 0) + ((rnd <= LAST_FULL_ROUND) & ~produced)).astype(np.float64)
    auctions_left = np.maximum(LAST_FULL_ROUND - rnd, 0) + ((rnd <= LAST_FULL_ROUND) & np.isin(phase, AUCTION))
    coins, science = seats[..., 0] * 10, seats[..., 1] * 10
    markers = seats[..., 2:5] * 10
    track = len(data.pollution_final)
    pol = seats[..., 5 : 5 + track].argmax(axis=-1)  # [B, 5]
    pending_cubes = seats[..., 5 + track] * 5
    est = view("seat_vp") * 50 + markers[..., 2] * vp_left[:, None]
    # land tiles and pollution as the final scoring would count them now (F2, F3)
    land = (grids[..., 0] > 0) & (grids[..., 1] > 0)
    cubes = np.rint(grids[..., 2] * 4)
    clean = np.asarray(data.clean_tile, np.float64)[pol]
    tiles = np.where(cubes == 0, clean[..., None], -5.0 * np.maximum(cubes - 1, 0))
    est += np.where(land, tiles, 0.0).sum(axis=-1) + np.asarray(data.pollution_final, np.float64)[pol]
    est -= pending_cubes * prm.cube_cost
    # pending land tiles: a citizen on the best city for the productions left
    offer = view("land_offer")  # [B, 8, 36]
    cities = offer[:, :, 4 : 4 + 5 * MAX_CITIES].reshape(B, -1, MAX_CITIES, 5)
    city = (
        cities[..., 3] * 5 * vp_left[:, None, None]
        + 5 * (cities[..., 1] * prm.coin_value + cities[..., 2] * prm.science_value) * res_left[:, None, None]
    )
    best = np.where(cities[..., 0] > 0, city, -np.inf).max(axis=-1)  # [B, 8]
    best = np.where(np.isfinite(best), best, 0.0)
    n_land = offer.shape[1]
    mine = view("pending")[:, :, :n_land] > 0  # [B, 5, 8]
    est += (mine * best[:, None, :]).sum(axis=-1)
    # coins and science: ranked at the end (F4-F6), worth buying with while auctions remain
    final_coins = coins + markers[..., 0] * res_left[:, None]
    final_science = science + markers[..., 1] * res_left[:, None]
    worth = (coins * prm.coin_value + science * prm.science_value) * (auctions_left > 0)[:, None]
    n = state.num_players.astype(np.int64)
    for i in range(B):
        k = int(n[i])
        est[i, :k] += rank_bonus([int(x) for x in final_coins[i, :k]], k)
        est[i, :k] += rank_bonus([int(x) for x in final_science[i, :k]], k)
    est += worth
    over = phase == PH["over"]
    if over.any():
        est[over] = engine.scores(engine.take(state, np.flatnonzero(over))).astype(np.float64)
    return est


class TwentiethCenturySearch(SearchGame):
    """20th Century's hooks for the search (see the module docstring)."""

    max_players = P
    engine = engine

    def __init__(self, candidates: int, temperature: float, params: HeuristicParams | None = None) -> None:
        self.count, self.temperature = candidates, temperature
        self.params = params or HeuristicParams()

    def rebuild(self, observations: np.ndarray) -> engine.State:
        return from_observation(observations)

    def determinize(self, positions: engine.State, rng: np.random.Generator) -> engine.State:
        return engine.resample(positions, 0, rng.integers(0, 2**62, positions.batch_size))

    def searched(self, state: engine.State) -> np.ndarray:
        return np.isin(state.phase, SEARCHED)

    def candidates(self, state: engine.State, masks: np.ndarray, rng: np.random.Generator) -> list[np.ndarray]:
        """The heuristic's best legal actions, at most one of a kind and ``candidates`` in all (its noise drawn
        from ``rng``); one where the decision is not searched."""
        scores = heuristic_scores(engine.observe(state), masks, self.params)
        scores = np.where(masks, scores + self.params.noise * rng.random(scores.shape), -np.inf)
        order = np.argsort(-scores, axis=1, kind="stable")
        searched = self.searched(state)
        out = []
        for i in range(state.batch_size):
            legal = order[i, : int(masks[i].sum())]
            if not searched[i] or legal.size <= 1:
                out.append(legal[:1].astype(np.int64))
                continue
            _, first = np.unique(KIND[legal], return_index=True)
            out.append(legal[np.sort(first)[: self.count]].astype(np.int64))
        return out

    def policy(self, state: engine.State, rng: np.random.Generator) -> np.ndarray:
        masks = engine.legal_action_mask(state)
        return heuristic_actions(engine.observe(state), masks, self.params, rng)

    def value(self, state: engine.State) -> np.ndarray:
        """For each seat, ``tanh((own estimate - best other estimate) / temperature)``."""
        est = estimate(engine.observe(state, 0), state, self.params)
        present = np.arange(P)[None, :] < state.num_players.astype(np.int64)[:, None]
        est = np.where(present, est, -1e18)  # an absent seat is never the best other
        top = np.sort(est, axis=1)[:, ::-1]
        best_other = np.where(est >= top[:, :1], top[:, 1:2], top[:, :1])
        return np.where(present, np.tanh((est - best_other) / self.temperature), 0.0)


class ISMCTSAgent(SearchAgent):
    """20th Century's search player ("ismcts"); see the module docstring and :mod:`industry_env.agents.search`.

    Parameters: ``simulations`` per searched decision (32), ``batch`` (simulations valued together, 8),
    ``candidates`` (the heuristic's best legal actions searched, at most one of a kind, 4), ``rollout_depth``
    (heuristic decisions after a leaf, 24), ``exploration`` (the UCT constant, 0.5), ``temperature`` (points, 10),
    ``determinizations`` (0: a fresh redeal per simulation; D: D per decision), ``prior`` (0: UCT; above 0, PUCT
    towards the heuristic's best), ``opponents`` (``"heuristic"``: the other seats modelled; ``"search"``:
    searched too, max-n), ``tree_depth`` (1: the root's candidates; None: no bound). Seeded: the same seed and
    observations give the same moves.
    """

    name = "ismcts"
    game = "twentieth_century"

    def __init__(self, seed: int | None = None, simulations: int = 32, batch: int = 8, candidates: int = 4,
                 rollout_depth: int = 24, exploration: float = 0.5, temperature: float = 10.0,
                 determinizations: int = 0, prior: float = 0.0, opponents: str = "heuristic",
                 tree_depth: int | None = 1) -> None:  # fmt: skip
        self.candidates = whole(candidates, "candidates", 1)
        self.temperature = real(temperature, "temperature", 0.0, above=True)
        self.params = HeuristicParams()
        hooks = TwentiethCenturySearch(self.candidates, self.temperature, self.params)
        super().__init__(hooks, seed=seed, simulations=simulations, determinizations=determinizations, batch=batch,
                         rollout_depth=rollout_depth, exploration=exploration, prior=prior, opponents=opponents,
                         tree_depth=tree_depth)  # fmt: skip

    def _choose(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """The heuristic's move where the decision is not searched (no position rebuilt), the search's elsewhere."""
        check_observations(observations)
        phase = observations[:, pieces()["phase"].slice].argmax(axis=1)
        searched = np.isin(phase, SEARCHED) & (masks.sum(axis=1) > 1)
        out = heuristic_actions(observations, masks, self.params, self.rng)
        rows = np.flatnonzero(searched)
        self.last_root = None
        if rows.size:
            out[rows] = super()._choose(observations[rows], masks[rows])
        return out


__all__ = ["ISMCTSAgent", "TwentiethCenturySearch", "estimate"]
