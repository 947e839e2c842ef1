"""The search player: legal, seeded, blind to the bag order, the same alone and batched, and better than random.

Small budgets keep these fast; the measured strength at the default budget is in docs/agents.md.
"""

from __future__ import annotations

import numpy as np
import pytest
from industry_env.agents import AGENTS, Agent, AgentInputError, MCTSAgent, make_agent
from industry_env.agents.industry.mcts import candidates, estimate
from industry_env.agents.industry.strong_heuristic import strong_actions

from industry_env.games.industry import actions as A
from industry_env.games.industry import engine

SMALL = {"simulations": 12, "determinizations": 3, "batch": 6, "rollout_depth": 4}


def _small(seed: int) -> MCTSAgent:
    agent = make_agent("mcts", seed=seed, **SMALL)
    assert isinstance(agent, MCTSAgent)
    return agent


def _play(agents: list[Agent], num_players: int, seed: int, batch: int = 1) -> tuple[engine.State, np.ndarray]:
    """Whole games, seat q played by agents[q] through act_batch (an illegal action raises in engine.step)."""
    s = engine.init(batch, num_players=num_players, seed=seed)
    returns = np.zeros((batch, 4), np.float32)
    while not s.terminated.all():
        live = np.flatnonzero(~s.terminated)
        obs, mask = engine.observe(s), engine.legal_action_mask(s)
        actions = np.zeros(batch, np.int64)
        for q, agent in enumerate(agents):
            rows = live[s.current_player[live] == q]
            if rows.size:
                actions[rows] = agent.act_batch(obs[rows], mask[rows])
        s = engine.step(s, actions)
        returns += s.rewards
    return s, returns


def _positions(seed: int, count: int) -> engine.State:
    """``count`` positions of a 4-player heuristic game, one every few decisions, in every phase."""
    s = engine.init(1, num_players=4, seed=seed)
    snaps, k = [], 0
    while not s.terminated[0] and len(snaps) < count:
        if k % 7 == 3:
            snaps.append(engine.copy(s))
        s = engine.step(s, strong_actions(s, 0))
        k += 1
    return engine.concat(snaps)


@pytest.mark.parametrize("opponents", ["heuristic", "search"])
@pytest.mark.parametrize("num_players", [3, 4])
def test_mcts_plays_only_legal_actions_to_the_end(num_players: int, opponents: str) -> None:
    agents: list[Agent] = [make_agent("mcts", seed=1, opponents=opponents, **SMALL)]
    agents += [make_agent("random", seed=q) for q in range(1, num_players)]
    s, _ = _play(agents, num_players, seed=5 + num_players)
    assert (s.phase == engine.OVER).all() and s.claimed.all()


def _tree_players(node) -> set[int]:
    """The players to move at the valued nodes of a search tree."""
    out = {node.player} if node.actions is not None else set()
    for child in node.children.values():
        out |= _tree_players(child)
    return out


def test_mcts_models_the_other_seats_or_searches_them() -> None:
    s = _positions(8, 12)
    obs, mask = engine.observe(s), engine.legal_action_mask(s)
    seen = {}
    for opponents in ("heuristic", "search"):
        agent = make_agent("mcts", seed=4, opponents=opponents, **SMALL)
        players: set[int] = set()
        for i in range(s.batch_size):
            agent.act(obs[i], mask[i])
            if agent.last_root is not None:  # a searched decision: the rebuilt state numbers the observer 0
                players |= _tree_players(agent.last_root)
        seen[opponents] = players
    assert seen["heuristic"] == {0}  # only the searching player's decisions are in the tree
    assert len(seen["search"]) > 1  # max-n: the other seats' decisions are searched too


def test_mcts_same_seed_same_moves_and_batched_equals_one_game() -> None:
    s = _positions(3, 10)
    obs, mask = engine.observe(s), engine.legal_action_mask(s)
    batched = _small(7).act_batch(obs, mask)
    np.testing.assert_array_equal(batched, _small(7).act_batch(obs, mask))
    one = _small(7)  # the same sequence of searches, one game at a time: the same generator draws
    assert [one.act(obs[i], mask[i]) for i in range(s.batch_size)] == batched.tolist()
    assert mask[np.arange(s.batch_size), batched].all()
    np.testing.assert_array_equal(_small(7).act_state(s, mask), batched)


def test_mcts_with_a_heuristic_prior_is_legal_and_seeded() -> None:
    s = _positions(5, 6)
    obs, mask = engine.observe(s), engine.legal_action_mask(s)
    first = make_agent("mcts", seed=3, prior=0.5, **SMALL).act_batch(obs, mask)
    assert mask[np.arange(s.batch_size), first].all()
    np.testing.assert_array_equal(first, make_agent("mcts", seed=3, prior=0.5, **SMALL).act_batch(obs, mask))


def test_mcts_never_uses_the_hidden_bag_order() -> None:
    s = _positions(4, 6)
    other = engine.copy(s)
    rng = np.random.default_rng(1)
    for i in range(s.batch_size):  # the same table, the undrawn tokens in another order, another chance seed
        pos = int(s.bag_pos[i])
        other.bag[i, pos:] = rng.permutation(s.bag[i, pos:])
    other.seed[:] = rng.integers(0, 2**62, s.batch_size)
    assert (other.bag != s.bag).any()
    np.testing.assert_array_equal(_small(2).act_state(s), _small(2).act_state(other))


def test_small_budget_mcts_beats_random_players() -> None:
    wins = 0
    for seat in range(2):
        agents: list[Agent] = [make_agent("random", seed=10 + q) for q in range(4)]
        agents[seat] = _small(seat)
        _, returns = _play(agents, 4, seed=30 + seat)
        wins += int(returns[0, seat] > 0)
    assert wins == 2


def test_candidates_are_few_legal_and_start_with_the_heuristic() -> None:
    s = _positions(6, 30)
    mask = engine.legal_action_mask(s)
    h = strong_actions(s, 0, mask)
    for i, c in enumerate(candidates(s, mask, h)):
        assert c[0] == h[i] and mask[i, c].all() and len(set(c.tolist())) == c.size
        if s.phase[i] == engine.BID:
            assert c.size <= 4 and A.PASS in c.tolist()
    est = estimate(s)
    assert est.shape == (s.batch_size, 4) and np.isfinite(est).all()


def test_mcts_parameters_are_checked() -> None:
    assert "mcts" in AGENTS
    for bad in ({"simulations": 0}, {"determinizations": 1.5}, {"rollout_depth": -1}, {"temperature": 0.0},
                {"exploration": float("nan")}, {"prior": 1.0}, {"opponents": "random"}):  # fmt: skip
        with pytest.raises(AgentInputError, match=next(iter(bad))):
            make_agent("mcts", **bad)
    s = _positions(3, 1)
    with pytest.raises(AgentInputError, match="not seen from the seat to move"):
        _small(0).act(engine.observe(s, (int(s.current_player[0]) + 1) % 4)[0], engine.legal_action_mask(s)[0])


def _depth(node) -> int:
    """The most searched decisions on a path from ``node`` down its tree."""
    return 1 + max((_depth(c) for c in node.children.values()), default=0) if node.children else 0


def test_mcts_tree_depth_bounds_the_tree() -> None:
    s = _positions(2, 8)
    obs, mask = engine.observe(s), engine.legal_action_mask(s)
    deepest = {}
    for depth in (1, None):
        agent = make_agent("mcts", seed=5, tree_depth=depth, **{**SMALL, "simulations": 48})
        deepest[depth] = 0
        for i in range(s.batch_size):
            agent.act(obs[i], mask[i])
            if agent.last_root is not None:
                deepest[depth] = max(deepest[depth], _depth(agent.last_root))
    assert deepest[1] == 1 and deepest[None] >= 2
    with pytest.raises(AgentInputError, match="tree_depth"):
        make_agent("mcts", tree_depth=0)
