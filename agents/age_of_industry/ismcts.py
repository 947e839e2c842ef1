"""Age of Industry's search player under hidden information ("ismcts"): the suite's one search
(:mod:`industry_env.agents.search`) with this game's hooks, information-set search over positions drawn from the
seat's own view.

An agent gets only its observation and the legal mask. For each decision the search rebuilds a position from the
observation (:func:`industry_env.games.age_of_industry.from_observation.from_observation`: the observer as seat 0,
the unseen cards filled in arbitrarily) and every simulation plays on a fresh **determinization** (the default
``determinizations=0``): the cards the seat cannot see (the deck and the unknown part of the other hands) redealt
from the agent's own generator with :func:`engine.resample`, the batched twin of ``spec.resample(game, seat, rng)``
(the same redeal, card for card). It never reads the true hidden state: it has none to read, so its choice
depends only on the observation, the mask and its seed (``tests/age_of_industry/test_agents.py`` checks that
changing the opponents' true hands changes nothing). One tree serves every determinization, as IS-MCTS shares a
node over an information set.

The hooks (:class:`AgeOfIndustrySearch`):

- candidates: the legal actions the heuristic scores best (``candidates`` of them);
- searched: only the decisions that shape the game, what to do (the action and its card) and where to build; the
  smaller steps (a cube's source, a sale's buyer, a card drawn, a counter developed away) follow the heuristic;
- policy: the batched heuristic, which plays the other seats (modelled), those smaller steps and the rollouts
  (``rollout_depth`` decisions, about two turns of 4 players);
- value: for each seat ``tanh((own estimate - best other estimate) / temperature)``, an estimate being the
  points the final scoring would give now plus half the income of its unsold mills and factories.
"""

from __future__ import annotations

import numpy as np

from industry_env.games.age_of_industry import engine
from industry_env.games.age_of_industry.from_observation import from_observation
from industry_env.games.age_of_industry.rules import COTTON_MILL, DOLLARS_PER_POINT, FACTORY, MAX_PLAYERS
from industry_env.games.age_of_industry.state import ACTION, BUILD_WHERE

from ..search import SearchAgent, SearchGame, real, whole
from .heuristic import BAD, HeuristicParams, MapFromObservation, check_map, heuristic_actions, heuristic_scores, tables

P = MAX_PLAYERS
SEARCHED = (ACTION, BUILD_WHERE)  # the decisions searched; the others follow the heuristic


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


class AgeOfIndustrySearch(SearchGame):
    """Age of Industry's hooks for the search (see the module docstring)."""

    max_players = P
    engine = engine

    def __init__(self, candidates: int, temperature: float, params: HeuristicParams | None = None) -> None:
        self.count, self.temperature = candidates, temperature
        self.params = params or HeuristicParams()
        self.map = "germany"  # the map of the call in progress

    def rebuild(self, observations: np.ndarray) -> engine.State:
        return from_observation(observations, self.map)

    def determinize(self, positions: engine.State, rng: np.random.Generator) -> engine.State:
        return engine.resample(positions, 0, rng.integers(0, 2**62, positions.batch_size))

    def searched(self, state: engine.State) -> np.ndarray:
        return np.isin(state.phase, SEARCHED)

    def candidates(self, state: engine.State, masks: np.ndarray, rng: np.random.Generator) -> list[np.ndarray]:
        """The heuristic's best ``candidates`` legal actions (its noise drawn from ``rng``); one where the
        decision is not searched."""
        scores = heuristic_scores(engine.observe(state), masks, self.map, self.params, state)
        scores = np.where(masks, scores + self.params.noise * rng.random(scores.shape), -np.inf)
        order = np.argsort(-scores, axis=1, kind="stable")[:, : self.count]
        ok = np.take_along_axis(scores, order, axis=1) > BAD / 2
        ok[:, 0] = True  # the best legal action is always a candidate
        ok[~self.searched(state), 1:] = False
        return [order[i][ok[i]].astype(np.int64) for i in range(state.batch_size)]

    def policy(self, state: engine.State, rng: np.random.Generator) -> np.ndarray:
        masks = engine.legal_action_mask(state)
        return heuristic_actions(engine.observe(state), masks, self.map, self.params, rng, state)

    def value(self, state: engine.State) -> np.ndarray:
        """For each seat, ``tanh((own estimate - best other estimate) / temperature)``."""
        est = estimate(state, self.map)
        present = np.arange(P)[None, :] < state.num_players.astype(np.int64)[:, None]
        est = np.where(present, est, -1e18)  # an absent seat is never the best other
        top = np.sort(est, axis=1)[:, ::-1]
        best_other = np.where(est >= top[:, :1], top[:, 1:2], top[:, :1])  # the best of the others
        return np.where(present, np.tanh((est - best_other) / self.temperature), 0.0)


class ISMCTSAgent(MapFromObservation, SearchAgent):
    """Age of Industry's search player ("ismcts"); see the module docstring and :mod:`industry_env.agents.search`.

    Parameters: ``simulations`` per searched decision (16), ``batch`` (simulations valued together, 8),
    ``candidates`` (the heuristic's best legal actions searched, 4), ``rollout_depth`` (heuristic decisions after a
    leaf, 16: about two turns of 4 players), ``exploration`` (the UCT constant, 0.5), ``temperature`` (points, 8),
    ``determinizations`` (0: a fresh redeal per simulation; D: D per decision), ``prior`` (0: UCT; above 0, PUCT
    towards the heuristic's best), ``opponents`` (``"heuristic"``: the other seats modelled; ``"search"``:
    searched too, max-n), ``map`` (the game's map; None: read from the observation's size). Seeded: the same seed
    and observations give the same moves.
    """

    name = "ismcts"
    game = "age_of_industry"

    def __init__(self, seed: int | None = None, simulations: int = 16, batch: int = 8, candidates: int = 4,
                 rollout_depth: int = 16, exploration: float = 0.5, temperature: float = 8.0,
                 determinizations: int = 0, prior: float = 0.0, opponents: str = "heuristic",
                 tree_depth: int | None = 1, map: str | None = None) -> None:  # noqa: A002  # fmt: skip
        self.candidates = whole(candidates, "candidates", 1)
        self.temperature = real(temperature, "temperature", 0.0, above=True)
        self.map = check_map(map)
        self.options = {} if map is None else {"map": map}
        self.params = HeuristicParams()
        hooks = AgeOfIndustrySearch(self.candidates, self.temperature, self.params)
        super().__init__(hooks, seed=seed, simulations=simulations, determinizations=determinizations, batch=batch,
                         rollout_depth=rollout_depth, exploration=exploration, prior=prior, opponents=opponents,
                         tree_depth=tree_depth)  # fmt: skip

    def _choose(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        self.search_game.map = self.map_for(observations)
        return super()._choose(observations, masks)


__all__ = ["AgeOfIndustrySearch", "ISMCTSAgent", "estimate"]
