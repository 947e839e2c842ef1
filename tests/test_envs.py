"""The environments follow their ecosystems' conventions and play exactly the games of the engines.

PettingZoo's api_test, seed_test and parallel_api_test; Gymnasium's and Stable-Baselines3's env checkers;
and the same seed and actions giving the same game as ``reference.Game`` in every adapter.
"""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest

import industry_env
from industry_env.envs.aec import raw_env
from industry_env.envs.single import IndustryEnv
from industry_env.envs.vector import IndustryVectorEnv
from industry_env.games.industry import engine as E
from industry_env.games.industry import observation as O
from industry_env.games.industry.observation import observe_game
from industry_env.games.industry.reference import Game


def first_legal(observation: np.ndarray, action_mask: np.ndarray) -> int:
    """A deterministic opponent: the lowest legal action."""
    return int(np.flatnonzero(action_mask)[0])


# ---------------------------------------------------------------------------------------------- PettingZoo AEC
def test_aec_spaces_are_declared_once_and_observations_are_copies() -> None:
    env = raw_env()
    env.reset(seed=0)
    a = env.possible_agents[0]
    assert env.observation_space(a) is env.observation_space(a) and env.action_space(a) is env.action_space(a)
    first = env.observe(env.agent_selection)
    first["observation"][:] = -5.0
    again = env.observe(env.agent_selection)
    assert (again["observation"] >= 0).all()
    assert again["action_mask"].dtype == np.int8 and again["action_mask"].sum() > 0
    others = [env.observe(x)["action_mask"].sum() for x in env.agents if x != env.agent_selection]
    assert others == [0] * 3  # only the agent to move has legal actions


@pytest.mark.parametrize("num_players", [3, 4])
def test_aec_plays_the_reference_game_of_its_seed(num_players: int) -> None:
    env = raw_env(num_players=num_players)
    env.reset(seed=11)
    game = Game(num_players, seed=11)
    rng = np.random.default_rng(0)
    while env.agents:
        agent = env.agent_selection
        if env.terminations[agent]:
            env.step(None)
            continue
        k = env.agent_name_mapping[agent]
        assert k == game.current_player
        seen = env.observe(agent)
        np.testing.assert_array_equal(seen["observation"], observe_game(game, k))
        legal = np.flatnonzero(seen["action_mask"])
        assert legal.tolist() == game.legal_actions()
        a = int(rng.choice(legal))
        env.step(a)
        game.apply(a)
        if game.is_over:
            returns = game.returns()
            assert [env.rewards[x] for x in env.possible_agents] == returns
            info = env.infos[agent]
            assert info["scores"].tolist() == game.scores() and info["score"] == game.scores()[k]
            assert np.flatnonzero(info["winners"]).tolist() == game.winners() and info["win"] == (k in game.winners())
    assert game.is_over


def test_aec_score_reward_is_points_against_the_table_mean() -> None:
    env = raw_env(num_players=4, reward="score")
    env.reset(seed=5)
    rng = np.random.default_rng(1)
    final = {}
    while env.agents:
        agent = env.agent_selection
        if env.terminations[agent]:
            final[agent] = env._cumulative_rewards[agent]
            scores = np.array(env.infos[agent]["scores"], float)
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))
    np.testing.assert_allclose([final[a] for a in env.possible_agents], (scores - scores.mean()) / 10, rtol=1e-6)


def test_aec_illegal_move_ends_the_game_with_a_penalty_in_env_and_raises_in_raw_env() -> None:
    e = industry_env.env(num_players=4)
    e.reset(seed=2)
    offender = e.agent_selection
    mask = e.observe(offender)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        e.step(illegal)
    assert all(e.terminations.values())
    assert e.rewards[offender] == -1 and all(e.rewards[a] == 0 for a in e.agents if a != offender)

    r = raw_env()
    r.reset(seed=2)
    before = r.observe(r.agent_selection)["observation"]
    with pytest.raises(E.IllegalActionError):
        r.step(illegal)
    np.testing.assert_array_equal(r.observe(r.agent_selection)["observation"], before)


def test_aec_refuses_wrong_options() -> None:
    for kwargs, word in (({"num_players": 5}, "num_players"), ({"reward": "points"}, "reward"),
                         ({"render_mode": "video"}, "render_mode"), ({"balanced_draws": "yes"}, "balanced_draws"),
                         ({"board": 3}, "board")):  # fmt: skip
        with pytest.raises(ValueError, match=word):
            raw_env(**kwargs)


def test_aec_renders_text() -> None:
    env = raw_env(render_mode="ansi")
    env.reset(seed=0)
    assert "player 0" in env.render()


# ---------------------------------------------------------------------------------------------- Gymnasium
def _replay(num_players: int, seed: int, learner: int, learner_actions: list[int]) -> Game:
    """The reference game the learner played against ``first_legal`` opponents."""
    game, it = Game(num_players, seed=seed), iter(learner_actions)
    while not game.is_over:
        game.apply(next(it) if game.current_player == learner else game.legal_actions()[0])
    return game


@pytest.mark.parametrize("num_players", [3, 4])
def test_gymnasium_env_plays_the_reference_game_of_its_seed(num_players: int) -> None:
    env = IndustryEnv(num_players=num_players, opponents=first_legal, learner_seat=1)
    obs, info = env.reset(seed=21)
    rng = np.random.default_rng(0)
    played = []
    while True:
        assert info["action_mask"].dtype == bool and np.array_equal(env.action_masks(), info["action_mask"])
        a = int(rng.choice(np.flatnonzero(info["action_mask"])))
        played.append(a)
        obs, reward, terminated, truncated, info = env.step(a)
        assert not truncated
        if terminated:
            break
        assert reward == 0.0
    game = _replay(num_players, 21, 1, played)
    assert info["scores"].tolist() == game.scores() and info["learner_seat"] == 1
    assert reward == game.returns()[1] and info["win"] == (1 in game.winners())
    np.testing.assert_array_equal(obs, observe_game(game, 1))


def test_gymnasium_env_illegal_action_ends_the_episode_with_a_penalty() -> None:
    env = IndustryEnv(opponents="random", illegal_reward=-2.0)
    obs, info = env.reset(seed=0)
    bad = int(np.flatnonzero(~info["action_mask"])[0])
    obs, reward, terminated, truncated, info = env.step(bad)
    assert terminated and reward == -2.0 and info["illegal_action"] is True
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_gymnasium_env_same_seed_same_episode_and_options_checked() -> None:
    def episode(seed: int) -> list[float]:
        env = IndustryEnv(opponents=["random", "heuristic", "random"], learner_seat="random")
        obs, info = env.reset(seed=seed)
        out = [float(obs.sum())]
        while True:
            obs, r, term, _, info = env.step(int(np.flatnonzero(info["action_mask"])[-1]))
            out.append(float(obs.sum()) + r)
            if term:
                return out

    assert episode(3) == episode(3) and episode(3) != episode(4)
    bad = (({"opponents": "nobody"}, "nobody"), ({"learner_seat": 4}, "learner_seat"),
           ({"opponents": ["random"] * 2}, "opponents"), ({"illegal_reward": float("nan")}, "illegal"))
    for kwargs, word in bad:
        with pytest.raises(ValueError, match=word):
            IndustryEnv(**kwargs)


# ---------------------------------------------------------------------------------------------- vector env
def test_make_vec_gives_the_native_vector_env() -> None:
    env = gymnasium.make_vec("industry_env/Industry-v0", num_envs=8, vectorization_mode="vector_entry_point")
    assert isinstance(env.unwrapped, IndustryVectorEnv)
    obs, info = env.reset(seed=0)
    assert obs.shape == (8, 675) and obs.dtype == np.float32 and info["action_mask"].shape == (8, 314)
    assert env.observation_space.contains(obs)
    assert env.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.NEXT_STEP


def test_vector_env_sub_env_i_plays_the_reference_game_of_seed_plus_i() -> None:
    env = IndustryVectorEnv(4, num_players=4, opponents=first_legal, learner_seat=2)
    obs, info = env.reset(seed=40)
    rng = np.random.default_rng(3)
    played: list[list[int]] = [[] for _ in range(4)]
    done = np.zeros(4, bool)
    finals: dict[int, tuple] = {}
    while not done.all():
        live = ~env.games.state.terminated  # the masks given are the engine's, for the learner to move
        assert (env.games.state.current_player[live] == 2).all()
        np.testing.assert_array_equal(info["action_mask"][live], E.legal_action_mask(env.games.state)[live])
        a = E.sample_legal(info["action_mask"], rng)
        for i in np.flatnonzero(~done):
            played[i].append(int(a[i]))
        obs, reward, terminated, truncated, info = env.step(a)
        for i in np.flatnonzero(terminated & ~done):
            finals[i] = (info["scores"][i].tolist(), float(reward[i]), obs[i].copy())
        done |= terminated
    for i in range(4):
        game = _replay(4, 40 + i, 2, played[i])
        scores, reward, last_obs = finals[i]
        assert scores == game.scores() and reward == game.returns()[2]
        np.testing.assert_array_equal(last_obs, observe_game(game, 2))


def test_vector_env_next_step_autoreset() -> None:
    env = IndustryVectorEnv(2, opponents=first_legal, learner_seat=0)
    obs, info = env.reset(seed=1)
    rng = np.random.default_rng(0)
    while True:
        obs, reward, terminated, truncated, info = env.step(E.sample_legal(info["action_mask"], rng))
        if terminated.any():
            break
    i = int(np.flatnonzero(terminated)[0])
    assert info["_scores"][i] and len(info["scores"][i]) == 4
    # the next step starts sub-env i anew: its action is ignored, reward 0, not terminated, a first observation
    obs2, reward2, terminated2, _, info2 = env.step(np.zeros(2, np.int64) + np.argmax(info["action_mask"], axis=1))
    assert reward2[i] == 0 and not terminated2[i]
    assert obs2[i, O.INDEX["round"]][0] == np.float32(1 / 20)


def test_vector_env_same_step_autoreset_gives_the_final_observation() -> None:
    env = IndustryVectorEnv(3, opponents="random", autoreset_mode="same_step")
    obs, info = env.reset(seed=2)
    rng = np.random.default_rng(0)
    while True:
        obs, reward, terminated, truncated, info = env.step(E.sample_legal(info["action_mask"], rng))
        if terminated.any():
            break
    i = int(np.flatnonzero(terminated)[0])
    assert info["_final_obs"][i] and info["final_obs"][i, O.INDEX["phase"]][5] == 1.0
    assert obs[i, O.INDEX["round"]][0] == np.float32(1 / 20)  # already the next game
    assert info["final_info"]["_scores"][i]


def test_vector_env_refuses_bad_actions_and_options() -> None:
    env = IndustryVectorEnv(4)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="one per sub-env"):
        env.step(np.zeros((2, 2), np.int64))
    with pytest.raises(ValueError, match="autoreset_mode"):
        IndustryVectorEnv(2, autoreset_mode="sometimes")
    with pytest.raises(ValueError, match="reset options"):
        env.reset(options={"fast": True})


# ---------------------------------------------------------------------------------------------- records
def test_every_environment_records_its_game_and_the_record_replays() -> None:
    from industry_env.records import replay

    aec = raw_env(num_players=3)
    aec.reset(seed=9)
    rng = np.random.default_rng(0)
    while aec.agents:
        agent = aec.agent_selection
        legal = np.flatnonzero(aec.observe(agent)["action_mask"])
        aec.step(None if aec.terminations[agent] else int(rng.choice(legal)))
        if len(aec.actions_played) == 50:
            assert replay(aec.record()).to_json() == aec.game().to_json()  # a game under way replays too
    rec = aec.record()
    assert rec.final_scores is not None and list(replay(rec).scores()) == list(rec.final_scores)

    single = IndustryEnv(opponents="heuristic")
    obs, info = single.reset(seed=4)
    while True:
        obs, r, term, _, info = single.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        if term:
            break
    assert replay(single.record()).scores() == info["scores"].tolist()

    vec = IndustryVectorEnv(3, opponents="random", record=True)
    obs, info = vec.reset(seed=1)
    for _ in range(30):
        obs, r, term, _, info = vec.step(E.sample_legal(info["action_mask"], rng))
    assert replay(vec.record(2)).to_json() == E.to_game(vec.games.state, 2).to_json()
    with pytest.raises(ValueError, match="record=True"):
        IndustryVectorEnv(2).record(0)


def test_opponent_pool_deals_each_game_its_opponents_and_takes_new_members() -> None:
    from industry_env.envs import OpponentPool

    calls = {"first": 0, "last": 0}

    def first(obs, mask):
        calls["first"] += 1
        return int(np.flatnonzero(mask)[0])

    def last(obs, mask):
        calls["last"] += 1
        return int(np.flatnonzero(mask)[-1])

    pool = OpponentPool([first], seed=0)
    env = IndustryVectorEnv(8, opponents=pool, learner_seat=0)
    obs, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(20):
        obs, r, term, _, info = env.step(E.sample_legal(info["action_mask"], rng))
    assert calls["first"] > 0 and calls["last"] == 0
    pool.add(last, weight=1000.0)  # games that start from now on meet it
    env.reset()
    assert (env.games.opponents.assign == 1).mean() > 0.9
    for _ in range(20):
        obs, r, term, _, info = env.step(E.sample_legal(info["action_mask"], rng))
    assert calls["last"] > 0
    with pytest.raises(ValueError, match="weights"):
        OpponentPool(["random"], weights=[-1.0])


def test_rgb_array_render_is_the_board_picture() -> None:
    pytest.importorskip("matplotlib")
    env = raw_env(render_mode="rgb_array")
    env.reset(seed=0)
    frame = env.render()
    assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3
    single = IndustryEnv(render_mode="rgb_array")
    single.reset(seed=0)
    assert single.render().shape == frame.shape


def test_sb3_vec_env_sub_env_i_plays_the_reference_game_of_seed_plus_i() -> None:
    pytest.importorskip("stable_baselines3")
    from industry_env.sb3 import make_vec_env

    env = make_vec_env(3, num_players=3, opponents=first_legal, seed=70, monitor=False, learner_seat=0)
    env.reset()
    rng = np.random.default_rng(5)
    played: list[list[int]] = [[] for _ in range(3)]
    finals: dict[int, list[int]] = {}
    while len(finals) < 3:
        a = np.array([rng.choice(np.flatnonzero(m)) for m in env.action_masks()])
        for i in range(3):
            if i not in finals:
                played[i].append(int(a[i]))
        env.step_async(a)
        _, _, done, infos = env.step_wait()
        for i in np.flatnonzero(done):
            finals.setdefault(int(i), infos[i]["scores"])
    for i in range(3):
        assert finals[i].tolist() == _replay(3, 70 + i, 0, played[i]).scores()


def test_vector_env_masks_are_the_engines_at_every_step_with_a_long_batch() -> None:
    """Big batches play the opponents' long runs apart (core._APART_FROM): masks and games stay exact."""
    env = IndustryVectorEnv(300, num_players=4, opponents="random", learner_seat="random")
    obs, info = env.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(150):
        state = env.games.state
        live = ~state.terminated  # the others ended on the last step and start anew on this one (NEXT_STEP)
        # the engine's masks; every action for a sub-env whose next action is ignored (Pgx's convention)
        want = np.where(live[:, None], E.legal_action_mask(state), True)
        np.testing.assert_array_equal(info["action_mask"], want)
        assert (state.current_player[live] == env.games.seat[live]).all()
        np.testing.assert_array_equal(obs, E.observe(state, env.games.seat))
        obs, reward, terminated, truncated, info = env.step(E.sample_legal(info["action_mask"], rng))
        assert not info["illegal_action"].any()
