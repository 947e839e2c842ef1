"""The search player of Age of Industry under hidden information ("ismcts"): information-set Monte Carlo search at
the root, over positions drawn from the seat's own view.

An agent gets only its observation and the legal mask. For each decision the agent rebuilds a position from the
observation (:func:`industry_env.games.age_of_industry.from_observation.from_observation`: the observer as seat 0,
the unseen cards filled in arbitrarily) and every simulation plays on a fresh **determinization**: the cards the
seat cannot see (the deck and the unknown part of the other hands) redealt from the agent's own generator with
:func:`engine.resample`, the batched twin of ``spec.resample(game, seat, rng)`` (the same redeal, card for card).
It never reads the true hidden state: it has none to read, so its choice depends only on the observation, the
mask and its seed (``tests/age_of_industry/test_agents.py`` checks that changing the opponents' true hands changes
nothing).

The search is single-observer IS-MCTS kept to the root's information set (one level: the statistics of an action
are shared by every determinization, as IS-MCTS shares a node over an information set). The candidates are the
legal actions the heuristic scores best (``candidates`` of them). Only the decisions that shape the game are
searched: what to do (the action and its card) and where to build; the smaller steps (a cube's source, a sale's
buyer, a card drawn, a counter developed away) and a decision with one candidate follow the heuristic.
Simulations run in rounds of ``batch``: each simulation picks a candidate by UCB1 (``exploration``; each candidate
once first), draws its own determinization, plays the candidate, then lets every seat play the batched heuristic
(the others modelled as the heuristic) for ``rollout_depth`` decisions or to the end. The position reached is
valued for the searching seat as ``tanh((own estimate - best other estimate) / temperature)``, an estimate being
the points the final scoring would give now plus half the income of its unsold mills and factories. The most
visited candidate is played (ties: the better mean). All the games of an ``act_batch`` call are searched together,
their simulations stepped as one batch of the numba engine.
"""

from __future__ import annotations

import math

import numpy as np

from industry_env.games.age_of_industry import engine
from industry_env.games.age_of_industry.from_observation import from_observation
from industry_env.games.age_of_industry.rules import COTTON_MILL, DOLLARS_PER_POINT, FACTORY, MAX_PLAYERS
from industry_env.games.age_of_industry.state import ACTION, BUILD_WHERE
from industry_env.registry import load_game

from ..base import Agent, AgentInputError, check_seed
from .heuristic import BAD, HeuristicParams, MapFromObservation, check_map, heuristic_actions, heuristic_scores, tables

P = MAX_PLAYERS


def _whole(value: object, name: str, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
        raise AgentInputError(f"{name}={value!r}: a whole number >= {low}")
    return int(value)


def _positive(value: object, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
        raise AgentInputError(f"{name}={value!r}: a finite number above 0")
    return float(value)


def estimate(state: engine.State, map_key: str) -> np.ndarray:
    """float64[B, 5]: each seat's estimated final points: the points the final scoring would give now, plus half
    the income of its unsold cotton mills and factories (in points)."""
    t = tables(map_key)
    est = engine.scores(state).astype(np.float64)
    live = state.phase != engine.OVER
    if live.any():
        ind = state.space_industry.astype(np.int64)
        goods = ((ind == COTTON_MILL) | (ind == FACTORY)) & (state.space_flipped == 0)
        inc = t.income[np.maximum(ind, 0), np.clip(state.space_level.astype(np.int64), 0, t.income.shape[1] - 1)]
        owner = state.space_owner.astype(np.int64)
        for q in range(P):
            pending = (np.where(goods & (owner == q), inc, 0.0).sum(axis=1)) * 0.5 / DOLLARS_PER_POINT
            est[:, q] += np.where(live, pending, 0.0)
    return est


class ISMCTSAgent(MapFromObservation, Agent):
    """Information-set Monte Carlo search at the root ("ismcts"); see the module docstring.

    Parameters: ``simulations`` per searched decision (16), ``batch`` (simulations per UCB round, 8),
    ``candidates`` (the heuristic's best legal actions searched, 4), ``rollout_depth`` (heuristic decisions after
    the candidate, 16: about two turns of 4 players), ``exploration`` (UCB1 constant, 0.5), ``temperature`` (points,
    8), ``map`` (the game's map; None: read from the observation's size). Seeded: the same seed and observations
    give the same moves.
    """

    name = "ismcts"
    game = "age_of_industry"

    def __init__(self, seed: int | None = None, simulations: int = 16, batch: int = 8, candidates: int = 4,
                 rollout_depth: int = 16, exploration: float = 0.5, temperature: float = 8.0,
                 map: str | None = None) -> None:  # noqa: A002  # fmt: skip
        self.seed = check_seed(seed)
        self.simulations = _whole(simulations, "simulations", 1)
        self.batch = _whole(batch, "batch", 1)
        self.candidates = _whole(candidates, "candidates", 1)
        self.rollout_depth = _whole(rollout_depth, "rollout_depth", 0)
        if isinstance(exploration, bool) or not isinstance(exploration, (int, float)) or not (
                math.isfinite(exploration) and exploration >= 0):  # fmt: skip
            raise AgentInputError(f"exploration={exploration!r}: a finite number >= 0")
        self.exploration = float(exploration)
        self.temperature = _positive(temperature, "temperature")
        self.map = check_map(map)
        self.options = {} if map is None else {"map": map}
        self._map = map or "germany"  # the map of the call in progress
        self.params = HeuristicParams()
        self.rng = np.random.default_rng(self.seed)
        pieces = load_game(self.game).observation_layout()  # the decision's place is the same on every map
        self._phase = {p.name: p for p in pieces}["phase"].slice
        self._searched = (ACTION, BUILD_WHERE)

    # ------------------------------------------------------------------------------------------ one call
    def _choose(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        B = observations.shape[0]
        self._map = self.map_for(observations)
        scores = heuristic_scores(observations, masks, self._map, self.params)
        scores = np.where(masks, scores + self.params.noise * self.rng.random(scores.shape), -np.inf)
        order = np.argsort(-scores, axis=1, kind="stable")[:, : self.candidates]
        ok = np.take_along_axis(scores, order, axis=1) > BAD / 2
        ok[:, 0] = True  # the best legal action is always a candidate
        cands = [order[i][ok[i]] for i in range(B)]
        out = np.array([c[0] for c in cands], np.int64)
        phase = observations[:, self._phase].argmax(axis=1)
        search = np.flatnonzero([c.size > 1 and phase[i] in self._searched for i, c in enumerate(cands)])
        if search.size == 0:
            return out
        base = from_observation(observations[search], self._map)
        n_c = np.array([cands[i].size for i in search])
        visits = [np.zeros(k) for k in n_c]
        totals = [np.zeros(k) for k in n_c]
        done = 0
        while done < self.simulations:
            k = min(self.batch, self.simulations - done)
            rows, picks = [], []
            for j in range(search.size):
                v, tot = visits[j], totals[j]
                virt = v.copy()
                for _ in range(k):
                    a = self._ucb(virt, tot, v)
                    virt[a] += 1
                    rows.append(j)
                    picks.append(a)
            rows_a, picks_a = np.array(rows), np.array(picks)
            acts = np.array([cands[search[j]][a] for j, a in zip(rows, picks, strict=True)], np.int64)
            values = self._simulate(engine.take(base, rows_a), acts)
            for j, a, val in zip(rows_a.tolist(), picks_a.tolist(), values.tolist(), strict=True):
                visits[j][a] += 1
                totals[j][a] += val
            done += k
        for j, i in enumerate(search.tolist()):
            v, tot = visits[j], totals[j]
            mean = tot / np.maximum(v, 1)
            best = np.lexsort((-mean, -v))[0]
            out[i] = cands[i][best]
        return out

    def _ucb(self, virt: np.ndarray, tot: np.ndarray, real: np.ndarray) -> int:
        """UCB1 over the candidates (an unvisited one first, in the heuristic's order); ``virt`` counts the visits
        already handed out this round."""
        unvisited = np.flatnonzero(virt == 0)
        if unvisited.size:
            return int(unvisited[0])
        mean = tot / np.maximum(real, 1)
        bonus = self.exploration * np.sqrt(math.log(virt.sum()) / virt)
        return int(np.argmax(mean + bonus))

    def _simulate(self, worlds: engine.State, actions: np.ndarray) -> np.ndarray:
        """float64[N]: the value, for seat 0, of playing ``actions`` in each of ``worlds`` (each first redealt
        from seat 0's view), then the heuristic for every seat for ``rollout_depth`` decisions."""
        N = worlds.batch_size
        seeds = self.rng.integers(0, 2**62, N)
        s = engine.resample(worlds, 0, seeds)
        engine.step(s, actions, inplace=True)
        for _ in range(self.rollout_depth):
            live = np.flatnonzero(~s.terminated)
            if live.size == 0:
                break
            sub = engine.take(s, live) if live.size < N else s
            mask = engine.legal_action_mask(sub)
            a = np.zeros(N, np.int64)
            a[live] = heuristic_actions(engine.observe(sub), mask, self._map, self.params, self.rng, sub)
            engine.step(s, a, inplace=True)
        est = estimate(s, self._map)
        n = s.num_players.astype(np.int64)
        others = np.where(np.arange(P)[None, :] < n[:, None], est, -np.inf)
        others[:, 0] = -np.inf
        return np.tanh((est[:, 0] - others.max(axis=1)) / self.temperature)


__all__ = ["ISMCTSAgent", "estimate"]
