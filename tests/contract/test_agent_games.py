"""Agents play a game of the suite: generic ones (random, plain functions) are bound to the game they are made
for and read its sizes from its spec; a game's own agents play only that game."""

import numpy as np
import pytest
from industry_env.agents import RandomAgent, agent_names, as_agent, make_agent

from industry_env.registry import load_game


def test_generic_agents_are_bound_to_the_game_they_are_made_for():
    spec = load_game("industry")
    agent = make_agent("random", seed=0)
    assert agent.game == "industry" and agent.num_actions == spec.num_actions()
    assert agent.observation_size == spec.observation_size()
    assert as_agent(lambda o, m: int(np.flatnonzero(m)[0])).game == "industry"
    assert agent_names("industry")[:2] == ["random", "heuristic"]


def test_an_unbound_random_agent_plays_any_mask_width():
    masks = np.zeros((3, 783), bool)
    masks[:, [4, 700]] = True
    a = RandomAgent(seed=1).act_masks(masks)
    assert set(a.tolist()) <= {4, 700}


def test_an_agent_of_one_game_is_refused_for_another_and_unknown_names_list_the_games_agents():
    agent = make_agent("heuristic", seed=0)
    assert agent.game == "industry"
    with pytest.raises(ValueError, match="unknown agent 'alphazero' for Industry: known agents are random, heuristic"):
        make_agent("alphazero")
    with pytest.raises(ValueError, match="not a game of the suite"):
        make_agent("random", game="chess")
