"""Stable-Baselines3 / sb3-contrib: the VecEnv on the batched engine and the shared-policy wrapper train.

Needs the ``train`` extra (installed by ``make test``).
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")
torch = pytest.importorskip("torch")

import industry_env  # noqa: E402
from industry_env.sb3 import IndustrySB3VecEnv, make_vec_env  # noqa: E402
from industry_env.wrappers import SharedPolicyEnv  # noqa: E402


@pytest.fixture(autouse=True)
def one_thread():
    torch.set_num_threads(1)  # the suite runs on two workers of a two-core machine


def test_vec_env_gives_masks_the_way_maskable_ppo_reads_them() -> None:
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

    env = make_vec_env(6, num_players=3, seed=0)
    obs = env.reset()
    assert obs.shape == (6, 675) and obs.dtype == np.float32
    assert is_masking_supported(env)
    masks = get_action_masks(env)
    assert masks.shape == (6, 314) and masks.dtype == bool and masks.any(axis=1).all()


def test_vec_env_finished_game_resets_in_the_same_step_with_its_terminal_observation() -> None:
    env = IndustrySB3VecEnv(4, opponents="random", seed=5)
    env.reset()
    rng = np.random.default_rng(0)
    ended = []
    for _ in range(400):
        masks = env.action_masks()
        env.step_async(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
        obs, reward, done, infos = env.step_wait()
        for i in np.flatnonzero(done):
            info = infos[i]
            assert info["terminal_observation"].shape == (675,) and info["TimeLimit.truncated"] is False
            assert reward[i] == (1.0 if info["win"] else -1.0) or reward[i] == 0.0
            assert obs[i][industry_env.games.industry.observation.INDEX["round"]][0] == np.float32(1 / 20)  # a new game
            ended.append(i)
        if len(ended) >= 4:
            break
    assert ended


def test_vec_env_same_seed_same_games() -> None:
    def run(seed: int) -> list[float]:
        env = make_vec_env(3, seed=seed, monitor=False)
        out = [float(env.reset().sum())]
        for _ in range(50):
            env.step_async(np.array([np.flatnonzero(m)[0] for m in env.action_masks()]))
            obs, *_ = env.step_wait()
            out.append(float(obs.sum()))
        return out

    assert run(1) == run(1) and run(1) != run(2)


def test_maskable_ppo_trains_a_few_thousand_steps_on_the_batched_vec_env(tmp_path) -> None:
    from sb3_contrib import MaskablePPO

    env = make_vec_env(16, num_players=4, opponents="random", seed=0)
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=256, n_epochs=2, seed=0, verbose=0)
    model.learn(2048)
    assert model.num_timesteps >= 2048
    model.save(tmp_path / "ppo")
    loaded = MaskablePPO.load(tmp_path / "ppo")
    obs = env.reset()
    masks = env.env_method("action_masks")
    actions, _ = loaded.predict(obs, action_masks=np.stack(masks), deterministic=True)
    assert all(m[a] for m, a in zip(masks, actions, strict=True))  # masked logits never pick an illegal action


def test_shared_policy_env_gives_each_seat_its_own_terminal_reward() -> None:
    """Each episode one seat learns; its transitions carry its own reward, whoever moved last."""
    env = SharedPolicyEnv(industry_env.env(num_players=4), opponent="heuristic")
    rng = np.random.default_rng(0)
    for episode in range(4):
        obs, info = env.reset(seed=100 + episode)
        assert info["learner_seat"] == episode and env.learner == f"player_{episode}"  # the seats take turns
        rewards = []
        while True:
            assert env.aec.agent_selection == env.learner
            obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
            rewards.append(reward)
            if terminated:
                break
        game = env.aec.unwrapped.game()
        seat = int(info["learner_seat"])
        assert rewards[:-1] == [0.0] * (len(rewards) - 1)
        assert rewards[-1] == game.returns()[seat]
        assert info["scores"].tolist() == game.scores()


def test_shared_policy_env_trains_with_the_policy_as_its_own_opponent() -> None:
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.env_checker import check_env

    env = SharedPolicyEnv(industry_env.env(num_players=3))
    check_env(env, warn=False)
    model = MaskablePPO("MlpPolicy", env, n_steps=128, batch_size=64, n_epochs=1, seed=0)
    env.set_opponent(model)
    model.learn(256)
    assert model.num_timesteps >= 256


def test_the_sb3_trainer_trains_the_game_named_and_saves_a_policy_of_that_game(tmp_path, monkeypatch) -> None:
    """``train --config ppo_age_of_industry`` trains Age of Industry: the VecEnv the trainer builds, its league's
    opponents and evaluations, and the saved model are that game's (issue 28: RLlib's trained Industry instead)."""
    from industry_env.agents import make_agent
    from industry_env.train import load_config, train

    import industry_env.sb3 as sb3
    from industry_env.registry import load_game

    built = []

    def recording(*args, **kwargs):
        venv = make_vec_env(*args, **kwargs)
        built.append(venv)
        return venv

    monkeypatch.setattr(sb3, "make_vec_env", recording)
    cfg = load_config("ppo_age_of_industry", [
        "total_timesteps=128", "num_envs=4", "n_steps=32", "batch_size=64", "n_epochs=1", "net_arch=16",
        "eval_every=128", "eval_games=4", "checkpoint_every=0", "max_snapshots=1", "progress=false",
        "time_limit_minutes=0", f"run_dir={tmp_path / 'run'}"])  # fmt: skip
    result = train(cfg, framework="sb3")
    spec = load_game("age_of_industry")
    (venv,) = built
    assert venv.games.setup.spec.id == "age_of_industry" and venv.observation_space.shape == (spec.observation_size(),)
    assert {a.game for a in venv.games.opponents.members} == {"age_of_industry"}
    assert result.evals and result.evals[0]["games"] >= 4  # evaluated in Age of Industry's arena
    agent = make_agent("ppo", path=result.final, game="age_of_industry")
    assert agent.game == "age_of_industry" and agent.options["map"] == "germany"
    with pytest.raises(ValueError, match="not of Industry|not a policy of Industry|675"):
        make_agent("ppo", path=result.final)  # the default game's observation is another size
