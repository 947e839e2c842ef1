"""``Agent.act_engine``: the trainers' and environments' opponents skip re-checking observations the engine made,
and play the very moves ``act_batch`` plays."""

from __future__ import annotations

import numpy as np
import pytest
from industry_env.agents import AgentInputError, make_agent
from industry_env.agents.base import Agent

from industry_env.registry import available_games, load_game


def _positions(game: str, games: int = 64, steps: int = 40, seed: int = 0):
    E = load_game(game).engine
    s, rng = E.init(games, seed=seed), np.random.default_rng(seed)
    for _ in range(steps):
        s = E.random_step(s, rng)[0]
    s = E.take(s, np.flatnonzero(s.current_player >= 0))
    return E.observe(s), E.legal_action_mask(s)


@pytest.mark.parametrize("game", available_games())
def test_act_engine_plays_what_act_batch_plays_on_the_engines_observations(game: str) -> None:
    obs, masks = _positions(game)
    assert obs.shape[0] > 10
    for name in ("heuristic", "random"):
        batch, engine = make_agent(name, game=game, seed=4), make_agent(name, game=game, seed=4)
        np.testing.assert_array_equal(engine.act_engine(obs, masks), batch.act_batch(obs, masks))


def test_act_engine_still_refuses_an_illegal_answer() -> None:
    class Wrong(Agent):
        name, game = "wrong", "industry"

        def _choose_trusted(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
            return np.argmin(masks, axis=1)  # the first illegal action of each row

    obs, masks = _positions("industry", games=8, steps=5)
    with pytest.raises(AgentInputError, match="wrong"):
        Wrong().act_engine(obs, masks)
