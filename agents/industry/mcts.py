"""Industry's search player ("mcts"): the suite's one search (:mod:`industry_env.agents.search`) with Industry's
hooks, the other seats modelled as the strong heuristic (or searched too, max-n: ``opponents="search"``).

The hooks (:class:`IndustrySearch`):

- positions: :func:`industry_env.games.industry.from_observation.from_observation`, the visible table as observed; each
  determinization deals the column tokens still in the bag in a fresh order and fresh seeds for the later eras'
  bags from the agent's generator (the order of the bag is unknown to every seat: the search never sees it);
- candidates (the action space has 314 actions, 112 of them bids), the strong heuristic's action first:
  auction: every available field; sell or keep: both; develop: every legal field and ``done``; bid: ``pass``,
  the strong heuristic's bid, the lowest bid (highest + 1) and the lowest + 2, where legal; the subsidy only
  where the strong heuristic takes it;
- not searched: a payment (the strong heuristic's way; pay-to-player actions name players in the rebuilt
  numbering, so at the root it chooses from the real mask);
- policy: the batched strong heuristic (:func:`~.strong_heuristic.strong_actions`), which plays the other seats,
  the payments and the rollouts (``rollout_depth`` decisions, about a round, from the searcher's next decision:
  a leaf is valued after the others' replies, ``value_after_edge``);
- value: :func:`estimate` gives each player's expected final score, turned into values by a softmax over the
  players (temperature ``temperature`` points): each player's share of a likely win.

Uniform or weighted random rollouts to the end, which ``engine.rollout`` plays far faster, value positions poorly
here: random players overpay and never develop, and the search then overbids.
"""

from __future__ import annotations

import numpy as np

from industry_env.games.industry import actions as A
from industry_env.games.industry import engine
from industry_env.games.industry.from_observation import from_observation
from industry_env.games.industry.rules import MAX_PLAYERS, TALERS_PER_POINT

from ..search import SearchAgent, SearchGame, real
from .checks import refuse_finished_or_other_seat
from .strong_heuristic import StrongParams, assessment, strong_actions

P = MAX_PLAYERS
_REBUILD_SEED = 0  # the bag order of a rebuilt position, redealt by every determinization


def candidates(state: engine.State, mask: np.ndarray, heuristic: np.ndarray) -> list[np.ndarray]:
    """The candidate actions of every game of ``state`` (int64 arrays, the heuristic's action first)."""
    out = []
    for i in range(state.batch_size):
        legal = mask[i]
        h = int(heuristic[i])
        ph = int(state.phase[i])
        if ph == engine.BID:
            high = int(state.high_bid[i])
            acts = [h, A.PASS] + [A.BID + high + k - 1 for k in (1, 3) if A.BID + high + k - 1 < A.SELL]
        elif ph == engine.PAY:
            acts = [h]
        else:
            acts = [h, *np.flatnonzero(legal[: A.PAY]).tolist()]
        seen, keep = set(), []
        for a in acts:
            if a not in seen and legal[a]:
                seen.add(a)
                keep.append(a)
        out.append(np.array(keep, np.int64))
    return out


def estimate(state: engine.State, params: StrongParams | None = None) -> np.ndarray:
    """float64[B, P]: estimated final scores: the final score of a finished game; else the points so far, the
    links and bonuses of developed fields, jokers and subsidy, money (worth more while fields remain to be
    bought) and the strong heuristic's positive values of the own fields still to develop."""
    prm = params or StrongParams()
    out = engine.scores(state).astype(np.float64)
    live = np.flatnonzero(state.phase != engine.OVER)
    if live.size:
        sl = engine.take(state, live) if live.size < state.batch_size else state
        a = assessment(sl, prm)
        left = (~sl.claimed).sum(axis=1) / sl.claimed.shape[1]  # the share of fields still to be auctioned
        per_taler = 1.0 / TALERS_PER_POINT + (prm.taler_value - 1.0 / TALERS_PER_POINT) * left
        pending = (np.maximum(a.value, 0.0) * a.und).sum(axis=2)
        est = a.standing - sl.money / TALERS_PER_POINT + sl.money * per_taler[:, None] + pending
        out[live] = np.where(np.arange(P)[None, :] < sl.num_players[:, None], est, 0.0)
    return out


class IndustrySearch(SearchGame):
    """Industry's hooks for the search (see the module docstring)."""

    max_players = P
    engine = engine
    value_after_edge = True  # the rollout starts at the searcher's next decision, after the others' replies
    value_scale = "share"  # value: a softmax over the seats' estimated scores

    def __init__(self, seed: int, temperature: float, params: StrongParams | None = None) -> None:
        self.seed, self.temperature = seed, temperature
        self.params = params or StrongParams()

    def rebuild(self, observations: np.ndarray) -> engine.State:
        return from_observation(observations, np.random.default_rng(_REBUILD_SEED))

    def determinize(self, positions: engine.State, rng: np.random.Generator) -> engine.State:
        return from_observation(engine.observe(positions, 0), rng)

    def searched(self, state: engine.State) -> np.ndarray:
        return state.phase != engine.PAY

    def candidates(self, state: engine.State, masks: np.ndarray, rng: np.random.Generator) -> list[np.ndarray]:
        return candidates(state, masks, strong_actions(state, self.seed, masks, self.params))

    def policy(self, state: engine.State, rng: np.random.Generator) -> np.ndarray:
        return strong_actions(state, self.seed, None, self.params)

    def value(self, state: engine.State) -> np.ndarray:
        """The softmax over the players of their estimated final scores (temperature in points)."""
        present = np.arange(P)[None, :] < state.num_players.astype(np.int64)[:, None]
        z = np.where(present, estimate(state, self.params) / self.temperature, -np.inf)
        z -= z.max(axis=1, keepdims=True)
        e = np.exp(z)
        return e / e.sum(axis=1, keepdims=True)


class MCTSAgent(SearchAgent):
    """Industry's search player ("mcts"); see the module docstring and :mod:`industry_env.agents.search`.

    Parameters: ``simulations`` per decision (default 128: about 0.35 s a searched decision on one core),
    ``determinizations`` (re-dealt positions a decision, 8; 0: one per simulation), ``batch`` (simulations
    valued together, 32), ``rollout_depth`` (heuristic decisions played from each leaf before it is estimated,
    24), ``exploration`` (the UCT constant, 0.7), ``temperature`` (points, 6), ``prior`` (0: plain UCT; above 0,
    PUCT with that prior on the strong heuristic's action), ``opponents`` (``"heuristic"``: the other seats
    modelled; ``"search"``: searched too, max-n). Seeded: same seed, same moves.
    """

    name = "mcts"
    game = "industry"

    def __init__(
        self,
        seed: int | None = None,
        simulations: int = 128,
        determinizations: int = 8,
        batch: int = 32,
        rollout_depth: int = 24,
        exploration: float = 0.7,
        temperature: float = 6.0,
        prior: float = 0.0,
        opponents: str = "heuristic",
        tree_depth: int | None = None,
    ) -> None:
        self.temperature = real(temperature, "temperature", 0.0, above=True)
        self.params = StrongParams()
        super().__init__(IndustrySearch(0, self.temperature, self.params), seed=seed, simulations=simulations,
                         determinizations=determinizations, batch=batch, rollout_depth=rollout_depth,
                         exploration=exploration, prior=prior, opponents=opponents, tree_depth=tree_depth)  # fmt: skip
        self.search_game.seed = self.seed

    def _choose(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        refuse_finished_or_other_seat(observations)
        return super()._choose(observations, masks)


__all__ = ["IndustrySearch", "MCTSAgent", "candidates", "estimate"]
