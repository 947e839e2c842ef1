"""Agents choose legal actions and the heuristic is stronger than chance."""

from __future__ import annotations

import numpy as np
import pytest
from industry_env.agents import HeuristicAgent, RandomAgent

from industry_env.reference import Game


@pytest.mark.parametrize("num_players", [3, 4])
def test_heuristic_agent_plays_whole_games_legally(num_players: int) -> None:
    for seed in range(5):
        game, agent = Game(num_players, seed=seed), HeuristicAgent(seed)
        while not game.is_over:
            game.apply(agent.act(game))  # apply raises IllegalActionError on an illegal choice
        assert sum(game.s.claimed) == 60


def test_random_agent_only_picks_from_the_mask() -> None:
    agent = RandomAgent(0)
    mask = np.zeros(314, bool)
    mask[[5, 60, 313]] = True
    assert {agent.act(mask) for _ in range(200)} == {5, 60, 313}
    with pytest.raises(ValueError, match="no legal action"):
        agent.act(np.zeros(314, bool))


def test_heuristic_beats_random_players() -> None:
    wins, games = 0, 40
    for seed in range(games):
        game = Game(4, seed=seed)
        heur, rand = HeuristicAgent(seed), RandomAgent(seed)
        seat = seed % 4
        while not game.is_over:
            a = heur.act(game) if game.current_player == seat else rand.act(game.legal_action_mask())
            game.apply(a)
        wins += seat in game.winners()
    assert wins / games > 0.6, f"heuristic won {wins} of {games} against three random players"
