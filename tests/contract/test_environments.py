"""Every game with a batched engine, through every environment, passes its ecosystem's own checkers: PettingZoo's
api_test, seed_test and (turn-based conversion) parallel_api_test, Gymnasium's and Stable-Baselines3's check_env,
the vector env's spaces and masks, and its records replay with the reference engine."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, seed_test
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

import industry_env
from industry_env.envs.single import LearnerEnv
from industry_env.envs.vector import LearnerVectorEnv
from industry_env.registry import available_games, load_game

GAMES = [g for g in available_games(include_hidden=True) if load_game(g).engine_module is not None]


@pytest.mark.parametrize("game", GAMES)
def test_the_aec_env_passes_pettingzoos_api_seed_and_parallel_tests(game):
    spec = load_game(game)
    api_test(industry_env.env(game=game, num_players=spec.max_players), num_cycles=200)
    api_test(industry_env.env(game=game, num_players=spec.min_players, reward="score"), num_cycles=100)
    seed_test(lambda: industry_env.env(game=game, num_players=spec.min_players), num_cycles=100)
    parallel_api_test(turn_based_aec_to_parallel(industry_env.env(game=game)), num_cycles=200)
    env = industry_env.env(game=game)
    assert env.metadata["name"] == spec.pettingzoo_name and env.metadata["is_parallelizable"] is False


@pytest.mark.parametrize("game", GAMES)
def test_the_gymnasium_env_passes_gymnasiums_and_sb3s_checkers(game):
    from gymnasium.utils.env_checker import check_env

    spec = load_game(game)
    env = gymnasium.make(spec.gym_id, opponents="random")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env.unwrapped, skip_render_check=True)
    sb3 = pytest.importorskip("stable_baselines3.common.env_checker")
    sb3.check_env(LearnerEnv(game=game, opponents="random"), warn=True)
    assert env.observation_space.shape == (spec.observation_size(),)
    assert env.action_space.n == spec.num_actions()


@pytest.mark.parametrize("game", GAMES)
def test_the_vector_env_steps_legal_games_and_its_records_replay(game):
    from industry_env.records import replay

    spec = load_game(game)
    venv = LearnerVectorEnv(8, game=game, opponents="random", record=True)
    obs, info = venv.reset(seed=4)
    low, high = spec.observation_bounds()
    rng = np.random.default_rng(0)
    for _ in range(60):
        assert obs.shape == (8, spec.observation_size()) and ((obs >= low) & (obs <= high)).all()
        mask = info["action_mask"]
        assert mask.shape == (8, spec.num_actions()) and mask.any(axis=1).all()
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
        obs, reward, terminated, truncated, info = venv.step(acts)
        assert not info["illegal_action"].any() and not truncated.any()
    game_now = replay(venv.record(0))
    assert game_now.to_json() == spec.engine.to_game(venv.games.state, 0).to_json()
