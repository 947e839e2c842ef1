"""The environments driven the way third-party tools drive them: TorchRL, SuperSuit, Gymnasium's wrappers and
vector envs, Stable-Baselines3's SubprocVecEnv, a CleanRL-style PPO loop and skrl, each through the library's own
calls (docs/environments.md, "Using it with TorchRL, SuperSuit, ..."). Each test plays whole games with masked
random actions (or a few training updates) and checks what the rules say: every action legal, rewards only at the
end and as ``Game.returns()`` gives them, every game finished, nothing NaN."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
import torch

import industry_env
from industry_env.envs.vector import LearnerVectorEnv

NUM_PLAYERS = 3


@pytest.fixture(autouse=True)
def one_torch_thread():
    """One torch thread: on a shared 2-core machine, torch's thread pool next to worker processes is many times
    slower than one thread."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    torch.manual_seed(0)
    yield
    torch.set_num_threads(before)


def _sample(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row of ``masks`` (bool[N, A]); fails on a row without one."""
    return np.array([rng.choice(np.flatnonzero(m)) for m in np.atleast_2d(masks)], np.int64)


def _torchrl_mask_reader(batch: tuple[int, ...], num_actions: int):
    """TorchRL's reader of ``info["action_mask"]`` into the tensordict, with its spec."""
    from torchrl.data import Binary
    from torchrl.envs.libs.gym import default_info_dict_reader

    spec = Binary(n=num_actions, shape=(*batch, num_actions), dtype=torch.bool)
    return default_info_dict_reader(["action_mask"], spec={"action_mask": spec})


# ---------------------------------------------------------------------------------------------- TorchRL
def test_torchrl_pettingzoo_wrapper_plays_whole_turn_based_games_with_its_own_rollout():
    from torchrl.envs.libs.pettingzoo import PettingZooWrapper

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # TorchRL names the PettingZoo version it was tested with
        env = PettingZooWrapper(env=industry_env.env(num_players=NUM_PLAYERS), use_mask=True,
                                categorical_actions=True, seed=0)  # fmt: skip
    from torchrl.envs.utils import check_env_specs

    agents = [f"player_{k}" for k in range(NUM_PLAYERS)]
    assert sorted(env.group_map) == agents
    check_env_specs(env, seed=0)  # TorchRL's own check: what the env returns is what its specs declare
    rollout = env.rollout(2000)  # a whole game: random actions from the action spec, which TorchRL masks
    raw = env._env.unwrapped
    acting = torch.stack([rollout[a]["mask"][:, 0] for a in agents], dim=1)
    assert (acting.sum(dim=1) == 1).all() and acting.any(dim=0).all()  # turn-based: one agent acts each step
    for k, a in enumerate(agents):
        action, mask = rollout[a]["action"][:, 0], rollout[a]["action_mask"][:, 0]
        assert mask[torch.arange(len(action)), action][acting[:, k]].all()  # the agent to move chose legally
    played = [int(rollout[agents[int(acting[t].nonzero())]]["action"][t, 0]) for t in range(rollout.shape[0])]
    assert played == raw.actions_played  # the env played exactly the actions TorchRL recorded
    rewards = torch.stack([rollout["next", a, "reward"][:, 0, 0] for a in agents], dim=1)
    assert (rewards[:-1] == 0).all()  # rewards at the end only
    assert rewards[-1].tolist() == raw.game().returns()  # +1 each winner, -1 the others (Game.returns)
    assert all(rollout["next", a, "done"][-1].all() for a in agents) and bool(raw.state_.terminated[0])
    again = env.reset()  # TorchRL's reset starts a new game, the first agent to move with legal actions
    assert raw.actions_played == [] and sum(bool(again[a]["mask"][0]) for a in agents) == 1


def test_torchrl_gym_env_by_id_with_its_action_mask_transform_plays_a_whole_game():
    from torchrl.envs import ActionMask, GymEnv, TransformedEnv

    # GymEnv passes frameskip= to every env and drops it on Python's "unexpected keyword argument" TypeError
    with pytest.raises(TypeError, match="unexpected keyword argument 'frameskip'"):
        gymnasium.make("industry_env/Industry-v0", frameskip=1)
    with pytest.raises(ValueError, match="frameskip: not an option of"):  # a refused option, as every other
        industry_env.env(frameskip=1)
    base = GymEnv("industry_env:industry_env/Industry-v0", categorical_action_encoding=True, num_players=NUM_PLAYERS)
    base.set_info_dict_reader(_torchrl_mask_reader((), base.action_spec.space.n))
    env = TransformedEnv(base, ActionMask())
    from torchrl.envs.utils import check_env_specs

    check_env_specs(env, seed=0)
    rollout = env.rollout(3000)
    action, mask = rollout["action"], rollout["action_mask"]
    assert mask[torch.arange(len(action)), action].all()
    reward, done = rollout["next", "reward"][:, 0], rollout["next", "done"][:, 0]
    assert done[-1] and not done[:-1].any() and (reward[:-1] == 0).all()
    learner = env.base_env._env.unwrapped
    assert bool(learner.games.state.terminated[0])  # the game is over
    seat = int(learner.games.seat[0])
    assert float(reward[-1]) == learner.game().returns()[seat]  # the learner seat's own reward, as the rules say
    assert torch.isfinite(rollout["next", "observation"]).all()


@pytest.mark.parametrize("mode", ["disabled", "same_step"])
def test_torchrl_gym_wrapper_on_the_vector_env_plays_many_games_without_stopping(mode):
    from torchrl.envs import ActionMask, GymWrapper, TransformedEnv

    venv = gymnasium.make_vec("industry_env/Industry-v0", num_envs=4, vectorization_mode="vector_entry_point",
                              num_players=NUM_PLAYERS, autoreset_mode=mode)  # fmt: skip
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # same_step: TorchRL nests its own vector transform
        base = GymWrapper(venv, categorical_action_encoding=True)
        base.set_info_dict_reader(_torchrl_mask_reader(tuple(base.batch_size), venv.single_action_space.n))
        env = TransformedEnv(base, ActionMask())
    rollout = env.rollout(800, break_when_any_done=False)  # [4, 800]: TorchRL resets finished sub-envs itself
    assert rollout.shape == (4, 800)
    action, mask = rollout["action"], rollout["action_mask"]
    assert mask.gather(-1, action[..., None]).all()
    done, reward = rollout["next", "done"][..., 0], rollout["next", "reward"][..., 0]
    assert (done.sum(dim=1) >= 2).all()  # every sub-env finished games and went on with new ones
    assert (reward[~done] == 0).all() and set(reward[done].tolist()) <= {-1.0, 0.0, 1.0}
    # the next observation of a step is the observation the following step starts from, except after a game's
    # end, where the new game's first observation follows its last one
    nxt, cur, ended = rollout["next", "observation"][:, :-1], rollout["observation"][:, 1:], done[:, :-1]
    assert (nxt[~ended] == cur[~ended]).all() and (nxt[ended] != cur[ended]).any(dim=-1).all()
    assert torch.isfinite(nxt).all() and (nxt[ended].abs().sum(dim=-1) > 0).all()  # the real last observations


def test_the_vector_env_with_autoreset_disabled_waits_for_a_partial_reset():
    env = LearnerVectorEnv(3, num_players=NUM_PLAYERS, autoreset_mode="disabled")
    assert env.autoreset_mode == gymnasium.vector.AutoresetMode.DISABLED == env.metadata["autoreset_mode"]
    _, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(2000):
        _, _, terminated, _, info = env.step(_sample(info["action_mask"], rng))
        if terminated.any():
            break
    assert terminated.any() and info["action_mask"][terminated].all()  # over: every action, none played
    state = {k: v.copy() for k, v in env.games.state.arrays().items()}
    with pytest.raises(RuntimeError, match=r"sub-envs \[.*\].*reset_mask"):
        env.step(_sample(info["action_mask"], rng))
    for k, v in env.games.state.arrays().items():  # refused before anything changed
        np.testing.assert_array_equal(v, state[k], err_msg=k)
    obs, info = env.reset(options={"reset_mask": terminated})
    assert not env.games.state.terminated.any() and info["action_mask"].any(axis=1).all()
    env.step(_sample(info["action_mask"], rng))  # steps again


# ---------------------------------------------------------------------------------------------- SuperSuit
def _play_aec(env, seed: int) -> tuple[dict[str, float], list]:
    """One whole game of an AEC env with the mask in ``infos``: each agent's summed rewards and its observations."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals: dict[str, float] = {}
    seen = []
    for agent in env.agent_iter(5000):
        obs, reward, terminated, truncated, info = env.last()
        totals[agent] = totals.get(agent, 0.0) + reward
        seen.append(obs)
        mask = info["action_mask"]
        assert mask.any() != (terminated or truncated)  # the agent to move has legal actions; none once over
        env.step(None if terminated or truncated else int(_sample(mask.astype(bool), rng)[0]))
    return totals, seen


def test_supersuit_observation_wrappers_apply_with_the_mask_in_infos():
    import supersuit as ss

    reference = industry_env.env(num_players=NUM_PLAYERS, action_mask="info")
    size = reference.observation_space("player_0").shape[0]  # a Box: the mask is in infos
    wrappers = {  # SuperSuit's wrapper, the observation shape it gives
        "dtype_v0": (lambda e: ss.dtype_v0(e, np.float64), (size,)),
        "flatten_v0": (ss.flatten_v0, (size,)),
        "normalize_obs_v0": (ss.normalize_obs_v0, (size,)),
        "frame_stack_v1": (lambda e: ss.frame_stack_v1(e, 2), (2 * size,)),
        "agent_indicator_v0": (ss.agent_indicator_v0, (size + NUM_PLAYERS,)),
        "pad_observations_v0": (ss.pad_observations_v0, (size,)),
        "clip_reward_v0": (lambda e: ss.clip_reward_v0(e, -0.5, 0.5), (size,)),
    }
    returns, _ = _play_aec(reference, seed=3)
    game_returns = reference.unwrapped.game().returns()
    assert returns == {f"player_{k}": float(r) for k, r in enumerate(game_returns)}  # +1 winners, -1 the others
    for name, (wrap, shape) in wrappers.items():
        env = wrap(industry_env.env(num_players=NUM_PLAYERS, action_mask="info"))
        totals, seen = _play_aec(env, seed=3)  # the same seed, the same random moves: the same game
        assert env.unwrapped.actions_played == reference.unwrapped.actions_played, name
        assert all(o.shape == shape and np.isfinite(o).all() for o in seen), name
        expected = {a: (float(np.clip(r, -0.5, 0.5)) if name == "clip_reward_v0" else r) for a, r in returns.items()}
        assert totals == expected, name
    normal = ss.normalize_obs_v0(industry_env.env(num_players=NUM_PLAYERS, action_mask="info"))
    _, seen = _play_aec(normal, seed=3)
    assert all(o.min() >= 0 and o.max() <= 1 for o in seen)  # scaled into [0, 1] by the declared bounds
    with pytest.raises(ValueError, match="action_mask='obs'"):
        industry_env.env(num_players=NUM_PLAYERS, action_mask="obs")


def test_supersuit_on_age_of_industry_refuses_only_normalize_obs_whose_bounds_it_lacks():
    """docs/age-of-industry/observation.md: money and loans are unlimited, so the declared maximum of the counts is
    inf; SuperSuit's normalize_obs_v0 refuses that, its other observation wrappers play the same game."""
    import supersuit as ss

    make = lambda: industry_env.env(game="age_of_industry", num_players=NUM_PLAYERS, action_mask="info")  # noqa: E731
    with pytest.raises(AssertionError, match="infinite bounds"):
        ss.normalize_obs_v0(make())
    reference = make()
    returns, _ = _play_aec(reference, seed=2)
    size = reference.observation_space("player_0").shape[0]
    for wrap, shape in ((lambda e: ss.frame_stack_v1(e, 2), (2 * size,)), (ss.agent_indicator_v0, (size + 3,))):
        env = wrap(make())
        totals, seen = _play_aec(env, seed=2)
        assert env.unwrapped.actions_played == reference.unwrapped.actions_played
        assert totals == returns and all(o.shape == shape and np.isfinite(o).all() for o in seen)


def test_supersuits_vec_env_of_the_turn_based_parallel_env_plays_whole_games():
    import supersuit as ss
    from pettingzoo.utils.conversions import turn_based_aec_to_parallel

    parallel = turn_based_aec_to_parallel(industry_env.env(num_players=NUM_PLAYERS, action_mask="info"))
    venv = ss.concat_vec_envs_v1(ss.pettingzoo_env_to_vec_env_v1(parallel), 2, num_cpus=0,
                                 base_class="stable_baselines3")  # fmt: skip
    assert venv.num_envs == 2 * NUM_PLAYERS  # every agent of every game is a row
    venv.reset()  # (SuperSuit's SB3 wrapper cannot seed its ConcatVecEnv: it has no seed method)
    infos = venv.reset_infos  # SB3's place for the infos of a reset: here each agent's mask
    rng = np.random.default_rng(0)
    games = []
    for _ in range(2000):
        masks = np.stack([i["action_mask"] for i in infos]).astype(bool)
        to_move = masks.any(axis=1).reshape(2, NUM_PLAYERS)
        assert (to_move.sum(axis=1) == 1).all()  # turn-based: one agent of each game has legal actions
        actions = np.zeros(venv.num_envs, np.int64)  # the others' actions are ignored
        actions[masks.any(axis=1)] = _sample(masks[masks.any(axis=1)], rng)
        obs, reward, done, infos = venv.step(actions)
        assert np.isfinite(obs).all()
        done, reward = done.astype(bool).reshape(2, NUM_PLAYERS), reward.reshape(2, NUM_PLAYERS)
        assert (done.all(axis=1) == done.any(axis=1)).all()  # a game ends for all its agents at once
        games += [sorted(r) for r in reward[done.all(axis=1)].tolist()]
        assert (reward[~done] == 0).all()
        if len(games) >= 2:
            break
    assert len(games) >= 2
    for r in games:  # +1 each winner, -1 the others, or 0 for all on a full tie (Game.returns)
        assert set(r) <= {-1.0, 1.0} and 1.0 in r or r == [0.0] * NUM_PLAYERS
    venv.close()


def test_the_aec_env_with_the_mask_in_infos_passes_pettingzoos_api_test_and_trains_the_shared_policy():
    from pettingzoo.test import api_test

    from industry_env.wrappers import SharedPolicyEnv

    api_test(industry_env.env(num_players=NUM_PLAYERS, action_mask="info"), num_cycles=200)
    env = SharedPolicyEnv(industry_env.env(num_players=NUM_PLAYERS, action_mask="info"))
    obs, info = env.reset(seed=0)
    assert env.observation_space.contains(obs)
    rng = np.random.default_rng(0)
    terminated = False
    while not terminated:
        np.testing.assert_array_equal(info["action_mask"], env.action_masks())
        obs, reward, terminated, _, info = env.step(int(_sample(info["action_mask"], rng)[0]))
    seat = env.aec.possible_agents.index(env.learner)
    assert reward == env.aec.unwrapped.game().returns()[seat]


# ---------------------------------------------------------------------------------------------- Gymnasium
def test_gymnasium_wrappers_keep_the_games_and_their_masks():
    from gymnasium.wrappers import (
        ClipReward,
        FlattenObservation,
        FrameStackObservation,
        NormalizeObservation,
        RecordEpisodeStatistics,
    )

    def play(env, seed: int) -> tuple[float, int, dict]:
        obs, info = env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        total, length, terminated = 0.0, 0, False
        while not terminated:
            mask = env.get_wrapper_attr("action_masks")()  # through any wrapper, as MaskablePPO reads it
            np.testing.assert_array_equal(mask, info["action_mask"])
            obs, reward, terminated, truncated, info = env.step(int(_sample(mask, rng)[0]))
            assert not truncated and np.isfinite(obs).all()
            total, length = total + reward, length + 1
        return total, length, info

    make = lambda: gymnasium.make("industry_env/Industry-v0", num_players=NUM_PLAYERS)  # noqa: E731
    total, length, info = play(make(), seed=5)
    assert total == (1.0 if info["win"] else -1.0) and info["action_mask"].all()  # over: every action
    stats = RecordEpisodeStatistics(make())
    assert play(stats, seed=5)[:2] == (total, length)
    assert stats.return_queue[-1] == total and stats.length_queue[-1] == length
    for wrap in (FlattenObservation, NormalizeObservation, lambda e: FrameStackObservation(e, 2)):
        assert play(wrap(make()), seed=5)[:2] == (total, length)  # the same game: masks and rewards untouched
    assert play(ClipReward(make(), -0.5, 0.5), seed=5)[0] == total / 2


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_gymnasium_make_vec_sync_and_async_spawn_never_give_an_empty_mask(mode):
    kwargs = {"vector_kwargs": {"context": "spawn"}} if mode == "async" else {}
    venv = gymnasium.make_vec("industry_env:industry_env/Industry-v0", num_envs=2, vectorization_mode=mode,
                              num_players=NUM_PLAYERS, **kwargs)  # fmt: skip
    try:
        assert venv.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.NEXT_STEP
        _, info = venv.reset(seed=0)
        rng = np.random.default_rng(0)
        ends, rewards = 0, []
        for _ in range(600 if mode == "sync" else 300):
            mask = info["action_mask"]
            assert mask.any(axis=1).all()  # the step after a game ends is ignored, and every action shown
            obs, reward, terminated, _, info = venv.step(_sample(mask, rng))
            ends += int(terminated.sum())
            rewards += reward[terminated].tolist()
            assert (reward[~terminated] == 0).all() and np.isfinite(obs).all()
        assert ends >= 2 and set(rewards) <= {-1.0, 0.0, 1.0}
    finally:
        venv.close()


@pytest.mark.parametrize("mode", ["next_step", "same_step", "disabled"])
def test_gymnasiums_vector_episode_statistics_count_each_game_once_in_every_autoreset_mode(mode):
    from gymnasium.wrappers.vector import RecordEpisodeStatistics

    venv = RecordEpisodeStatistics(gymnasium.make_vec("industry_env/Industry-v0", num_envs=4, num_players=NUM_PLAYERS,
                                                      vectorization_mode="vector_entry_point", autoreset_mode=mode))
    _, info = venv.reset(seed=0)
    rng = np.random.default_rng(0)
    ended, episodes = [], []
    for _ in range(300):
        _, reward, terminated, _, info = venv.step(_sample(info["action_mask"], rng))
        ended += reward[terminated].tolist()
        if "episode" in info:
            episodes += info["episode"]["r"][info["_episode"]].tolist()
        if mode == "disabled" and terminated.any():  # the caller resets the finished sub-envs
            _, info = venv.reset(options={"reset_mask": terminated})
    assert len(ended) >= 4 and sorted(episodes) == sorted(ended)  # one episode per game, its return the reward


# ---------------------------------------------------------------------------------------------- SB3
def test_sb3_subproc_vec_env_with_vec_normalize_trains_maskable_ppo():
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.vec_env import SubprocVecEnv, VecCheckNan, VecNormalize

    venv = make_vec_env("industry_env:industry_env/Industry-v0", n_envs=2, seed=0, vec_env_cls=SubprocVecEnv,
                        vec_env_kwargs={"start_method": "fork"}, env_kwargs={"num_players": NUM_PLAYERS})  # fmt: skip
    venv = VecNormalize(VecCheckNan(venv, raise_exception=True), norm_reward=False)  # a NaN or inf would raise
    try:
        model = MaskablePPO("MlpPolicy", venv, n_steps=128, batch_size=64, n_epochs=1, seed=0, device="cpu",
                            policy_kwargs={"net_arch": [32]})  # fmt: skip
        model.learn(256)
        assert model.num_timesteps == 256
        buffer = model.rollout_buffer
        actions = buffer.actions.reshape(-1).astype(np.int64)
        masks = buffer.action_masks.reshape(len(actions), -1).astype(bool)
        assert masks[np.arange(len(actions)), actions].all()  # every action the policy took was legal
        assert np.isfinite(buffer.observations).all() and np.isfinite(buffer.values).all()
        episodes = list(model.ep_info_buffer)  # Monitor's, through the worker processes
        assert episodes and all(e["r"] in (-1.0, 0.0, 1.0) for e in episodes)
        assert venv.obs_rms.count > 256 and np.isfinite(venv.obs_rms.var).all()
        assert all(np.isfinite(p.detach().numpy()).all() for p in model.policy.parameters())
    finally:
        venv.close()


# ---------------------------------------------------------------------------------------------- CleanRL
def test_a_cleanrl_style_masked_ppo_loop_on_the_native_vector_env_stays_finite():
    from torch import nn

    num_envs, num_steps, updates = 8, 64, 3
    env = LearnerVectorEnv(num_envs, num_players=NUM_PLAYERS)  # NEXT_STEP autoreset, as CleanRL expects
    obs_size, num_actions = env.single_observation_space.shape[0], env.single_action_space.n
    high = torch.as_tensor(np.maximum(env.single_observation_space.high, 1.0))
    actor = nn.Sequential(nn.Linear(obs_size, 32), nn.Tanh(), nn.Linear(32, num_actions))
    critic = nn.Sequential(nn.Linear(obs_size, 32), nn.Tanh(), nn.Linear(32, 1))
    optimizer = torch.optim.Adam([*actor.parameters(), *critic.parameters()], lr=2.5e-4)

    def policy(obs: torch.Tensor, mask: torch.Tensor):
        logits = actor(obs / high)
        return torch.distributions.Categorical(logits=torch.where(mask, logits, torch.tensor(-1e8)))

    obs_np, info = env.reset(seed=0)
    next_obs, next_mask = torch.as_tensor(obs_np), torch.as_tensor(info["action_mask"])
    next_done = torch.zeros(num_envs)
    finished = []
    for _ in range(updates):
        obs_b, mask_b, act_b, logp_b, rew_b, done_b, val_b = [], [], [], [], [], [], []
        for _ in range(num_steps):
            with torch.no_grad():
                dist = policy(next_obs, next_mask)
                action = dist.sample()
                value = critic(next_obs / high)[:, 0]
            assert next_mask[torch.arange(num_envs), action].all()
            obs_b.append(next_obs), mask_b.append(next_mask), act_b.append(action)
            logp_b.append(dist.log_prob(action)), val_b.append(value), done_b.append(next_done)
            obs_np, reward, terminated, truncated, info = env.step(action.numpy())
            assert not info["illegal_action"].any()
            finished += reward[terminated].tolist()
            rew_b.append(torch.as_tensor(reward))
            next_obs, next_mask = torch.as_tensor(obs_np), torch.as_tensor(info["action_mask"])
            next_done = torch.as_tensor(terminated | truncated, dtype=torch.float32)
        with torch.no_grad():  # GAE, as CleanRL's ppo.py computes it
            next_value = critic(next_obs / high)[:, 0]
            advantages, last = torch.zeros(num_steps, num_envs), torch.zeros(num_envs)
            for t in reversed(range(num_steps)):
                nonterminal = 1.0 - (next_done if t == num_steps - 1 else done_b[t + 1])
                following = next_value if t == num_steps - 1 else val_b[t + 1]
                delta = rew_b[t] + 0.99 * following * nonterminal - val_b[t]
                advantages[t] = last = delta + 0.99 * 0.95 * nonterminal * last
            returns = advantages + torch.stack(val_b)
        obs_t, mask_t = torch.cat(obs_b), torch.cat(mask_b)
        dist = policy(obs_t, mask_t)
        ratio = (dist.log_prob(torch.cat(act_b)) - torch.cat(logp_b)).exp()
        adv = advantages.reshape(-1)
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)
        pg_loss = torch.max(-adv * ratio, -adv * ratio.clamp(0.8, 1.2)).mean()
        v_loss = 0.5 * ((critic(obs_t / high)[:, 0] - returns.reshape(-1)) ** 2).mean()
        loss = pg_loss - 0.01 * dist.entropy().mean() + 0.5 * v_loss
        optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_([*actor.parameters(), *critic.parameters()], 0.5)
        optimizer.step()
        assert torch.isfinite(loss) and torch.isfinite(dist.entropy()).all()
        assert all(torch.isfinite(p).all() for p in [*actor.parameters(), *critic.parameters()])
    assert finished and set(finished) <= {-1.0, 0.0, 1.0}  # whole games played, rewarded as the rules say


# ---------------------------------------------------------------------------------------------- skrl
def test_skrl_wraps_the_vector_env_and_steps_whole_games_as_tensors():
    from skrl.envs.wrappers.torch import wrap_env

    venv = gymnasium.make_vec("industry_env/Industry-v0", num_envs=3, vectorization_mode="vector_entry_point",
                              num_players=NUM_PLAYERS, autoreset_mode="same_step")  # skrl's vector envs reset so
    env = wrap_env(venv, wrapper="gymnasium")
    assert env.num_envs == 3 and env.action_space.n == venv.single_action_space.n
    obs, info = env.reset()
    rng = np.random.default_rng(0)
    ends, rewards = 0, []
    for _ in range(400):
        actions = torch.as_tensor(_sample(info["action_mask"], rng))[:, None]
        obs, reward, terminated, truncated, info = env.step(actions)
        assert obs.shape == (3, venv.single_observation_space.shape[0]) and torch.isfinite(obs).all()
        done = terminated[:, 0]
        ends += int(done.sum())
        rewards += reward[done, 0].tolist()
        assert (reward[~done] == 0).all() and not truncated.any()
    assert ends >= 3 and set(rewards) <= {-1.0, 0.0, 1.0}
    env.close()
