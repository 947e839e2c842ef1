"""The ecosystems' conventions, as third-party tools rely on them (PettingZoo's conversions, Gymnasium's vector
envs and wrappers, TorchRL's reading of a vector env, checkers stepping random actions)."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from pettingzoo.test import parallel_api_test
from pettingzoo.utils.conversions import aec_to_parallel, turn_based_aec_to_parallel

import industry_env
from industry_env.envs.vector import LearnerVectorEnv
from industry_env.games.industry import engine as E


def test_the_aec_env_is_not_parallelizable_and_the_turn_based_conversion_plays():
    aec = industry_env.env(num_players=3)
    assert aec.metadata["is_parallelizable"] is False
    with pytest.raises(AssertionError):
        aec_to_parallel(aec)
    par = turn_based_aec_to_parallel(industry_env.env(num_players=3))
    parallel_api_test(par, num_cycles=40)


def test_a_partial_reset_changes_only_the_masked_sub_envs_and_seeds_them():
    env = LearnerVectorEnv(4, num_players=4, opponents="random")
    obs, info = env.reset(seed=7)
    rng = np.random.default_rng(0)
    for _ in range(5):
        obs, *_, info = env.step(E.sample_legal(info["action_mask"], rng))
    before = E.copy(env.games.state)
    obs2, info2 = env.reset(seed=1, options={"reset_mask": np.array([True, False, False, False])})
    after = env.games.state
    for name, arr in after.arrays().items():  # sub-envs 1..3 exactly as they were
        np.testing.assert_array_equal(arr[1:], getattr(before, name)[1:], err_msg=name)
    assert int(after.seed[0]) == 1  # sub-env 0 plays the game seeded 1 + 0
    np.testing.assert_array_equal(obs2[1:], obs[1:])
    np.testing.assert_array_equal(info2["action_mask"][1:], info["action_mask"][1:])
    assert info2["action_mask"].any(axis=1).all()


@pytest.mark.parametrize("seed", [2**63 - 1, 2**63, 2**64, 10**30])
def test_any_whole_seed_gymnasium_takes_plays_one_reproducible_game(seed):
    env = gymnasium.make("industry_env/Industry-v0", num_players=3)
    obs, _ = env.reset(seed=seed)
    game_seed = env.unwrapped.record().seed
    assert 0 <= game_seed < 2**63
    again, _ = env.reset(seed=seed)
    np.testing.assert_array_equal(obs, again)
    assert env.unwrapped.record().seed == game_seed
    aec = industry_env.env(num_players=3)
    aec.reset(seed=seed)
    assert aec.unwrapped.record().seed == game_seed
    with pytest.raises((ValueError, gymnasium.error.Error), match="[Ss]eed"):  # Gymnasium's own refusal
        env.reset(seed=-1)


def test_a_sub_env_whose_next_action_is_ignored_shows_every_action_and_autoreset_mode_is_an_attribute():
    env = LearnerVectorEnv(8, num_players=3, opponents="random")
    assert env.autoreset_mode == gymnasium.vector.AutoresetMode.NEXT_STEP == env.metadata["autoreset_mode"]
    _, info = env.reset(seed=0)
    rng = np.random.default_rng(1)
    seen_end = False
    for _ in range(400):
        mask = info["action_mask"]
        assert mask.any(axis=1).all()  # never an all-False row: a masked softmax never divides by zero
        _, _, terminated, _, info = env.step(E.sample_legal(mask, rng))
        if terminated.any():
            seen_end = True
            assert info["action_mask"][terminated].all()  # its next action is ignored: every action allowed
            np.testing.assert_array_equal(env.action_masks(), info["action_mask"])
    assert seen_end
    same = LearnerVectorEnv(2, autoreset_mode="same_step")
    assert same.autoreset_mode == gymnasium.vector.AutoresetMode.SAME_STEP


def test_info_values_are_numpy_so_gymnasiums_vector_envs_batch_them_as_numbers():
    venv = gymnasium.vector.SyncVectorEnv([lambda: gymnasium.make("industry_env/Industry-v0", num_players=3)] * 2,
                                          autoreset_mode=gymnasium.vector.AutoresetMode.NEXT_STEP)  # fmt: skip
    obs, info = venv.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(2000):
        obs, reward, terminated, truncated, info = venv.step(E.sample_legal(info["action_mask"], rng))
        if terminated.any():
            break
    assert terminated.any()
    for key in ("scores", "score", "learner_seat", "win"):
        assert info[key].dtype != object, key
    assert info["scores"].shape == (2, 3) and np.issubdtype(info["scores"].dtype, np.integer)


def test_the_module_prefixed_id_makes_the_env_in_a_spawned_worker():
    venv = gymnasium.vector.AsyncVectorEnv(
        [lambda: gymnasium.make("industry_env:industry_env/Industry-v0", num_players=3)] * 2, context="spawn")
    try:
        obs, info = venv.reset(seed=0)
        assert obs.shape == (2, 675) and info["action_mask"].shape == (2, 314)
        obs, *_ = venv.step(np.flatnonzero(info["action_mask"][0])[:1].repeat(2) * 0
                            + [int(np.flatnonzero(m)[0]) for m in info["action_mask"]])
        assert obs.shape == (2, 675)
    finally:
        venv.close()


def test_a_checker_stepping_random_actions_gets_one_illegal_move_warning_per_env(caplog):
    def said() -> int:
        n = sum("Illegal move made" in r.getMessage() for r in caplog.records)
        caplog.clear()
        return n

    aec = industry_env.env(num_players=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for episode in range(50):
            aec.reset(seed=episode)
            mask = aec.observe(aec.agent_selection)["action_mask"]
            aec.step(int(np.flatnonzero(mask == 0)[0]))  # an illegal move: the game ends
            assert all(aec.terminations.values())
    assert said() == 1
    other = industry_env.env(num_players=3)  # another env warns once too
    other.reset(seed=0)
    other.step(int(np.flatnonzero(other.observe(other.agent_selection)["action_mask"] == 0)[0]))
    assert said() == 1
