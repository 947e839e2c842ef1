"""Search self-play (industry_env.train.expert, ``--framework az``): the replay buffer and the outcomes each position
gets, the update's two targets, a network loaded from a policy-value file, the search's root visits, short runs
into files the az and net agents play, resume, and the refusals between the trainers."""

from __future__ import annotations

import io
import json
import warnings
import zipfile

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("tensorboard")

from industry_env.agents import make_agent  # noqa: E402
from industry_env.agents.az import load_network, shipped_network  # noqa: E402
from industry_env.train import ConfigError, load_config, shipped_configs, train  # noqa: E402
from industry_env.train.config import framework_of  # noqa: E402
from industry_env.train.expert import Pending, ReplayBuffer, SearchSelfPlay, az_update, init_network  # noqa: E402
from industry_env.train.nets import ActorCritic, ObsCodec, codec_for  # noqa: E402

from industry_env.arena import Arena  # noqa: E402
from industry_env.registry import load_game  # noqa: E402

TINY = ["num_envs=4", "n_steps=32", "batch_size=64", "n_epochs=2", "az_simulations=4", "az_buffer=4096",
        "eval_every=0", "checkpoint_every=0", "progress=false", "total_timesteps=1536"]  # fmt: skip


def tiny(run_dir, *more: str, config: str | None = None):
    """A short run of ``config`` (its own network), or of the defaults with a small network."""
    small = [] if config is not None else ["net_arch=32,32"]
    return load_config(config, [*TINY, *small, f"run_dir={run_dir}", *more])


# ---------------------------------------------------------------------------------------------- buffer and outcomes
def test_the_replay_buffer_keeps_the_newest_positions_and_skips_outcomes_of_overwritten_ones() -> None:
    buf = ReplayBuffer(4, 3, 10, 2)
    mask = np.zeros((3, 10), bool)
    mask[:, [1, 9]] = True
    first = buf.add(np.ones((3, 3)), mask, np.full((3, 2), -1), np.zeros((3, 2)), np.zeros(3, bool))
    second = buf.add(2 * np.ones((3, 3)), mask, np.full((3, 2), -1), np.zeros((3, 2)), np.zeros(3, bool))
    assert first[0].tolist() == [0, 1, 2] and second[0].tolist() == [3, 0, 1]  # a ring of 4
    assert buf.ready.size == 0  # no outcome yet: nothing to draw
    buf.finish(*first, np.array([1.0, -1.0, 1.0]))  # slots 0 and 1 now hold the second write's positions
    assert buf.ready.tolist() == [2] and buf.outcome[2] == 1.0
    buf.finish(*second, np.array([-1.0, 0.0, 1.0]))
    assert sorted(buf.ready.tolist()) == [0, 1, 2, 3] and buf.outcome[[3, 0, 1]].tolist() == [-1.0, 0.0, 1.0]
    assert buf.masks(np.array([0])).tolist() == mask[:1].tolist() and float(buf.obs[0, 0]) == 2.0


def test_each_position_gets_the_outcome_of_its_own_game_and_seat_when_that_game_ends() -> None:
    buf = ReplayBuffer(16, 1, 4, 1)
    pending = Pending()
    for rows, seats in (([0, 1, 2], [0, 0, 1]), ([0, 1, 2], [1, 2, 0]), ([1], [0])):
        n = len(rows)
        slots, count = buf.add(np.zeros((n, 1)), np.ones((n, 4), bool), np.zeros((n, 1)), np.ones((n, 1)),
                               np.ones(n, bool))  # fmt: skip
        pending.add(slots, count, np.array(rows), np.array(seats))
    # games 0 and 2 end: game 0's seats 0 and 1 got +1 and -1, game 2's seats 1 and 0 got -1 and +1
    pending.settle(buf, np.array([0, 2]), np.array([[1.0, -1.0, -1.0], [1.0, -1.0, -1.0]]))
    assert {int(s): float(buf.outcome[s]) for s in buf.ready} == {0: 1.0, 2: -1.0, 3: -1.0, 5: 1.0}
    pending.settle(buf, np.array([1]), np.array([[0.5, -0.5, 0.25]]))  # game 1: seats 0, 2, 0
    assert float(buf.outcome[1]) == 0.5 and float(buf.outcome[4]) == 0.25 and float(buf.outcome[6]) == 0.5
    assert not any(len(x) for x in pending.rows)  # nothing left waiting


# ---------------------------------------------------------------------------------------------- the update
def test_the_update_moves_the_policy_to_the_visits_and_the_value_to_the_outcomes() -> None:
    """Positions whose first feature's sign decides both the outcome and the searched move: after the updates the
    policy prefers the move the visits preferred, and the value follows the outcome; an unsearched position
    teaches the value only."""
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    n, D, A = 2048, 6, 5
    obs = rng.normal(size=(n, D)).astype(np.float32)
    good = obs[:, 0] > 0
    mask = np.ones((n, A), bool)
    mask[:, 4] = False  # never legal
    cand = np.stack([np.where(good, 1, 2), np.where(good, 2, 1)], axis=1)
    share = np.tile([0.9, 0.1], (n, 1)).astype(np.float32)
    searched = rng.random(n) < 0.8
    buf = ReplayBuffer(n, D, A, 2)
    slots, count = buf.add(obs, mask, cand, share, searched)
    buf.finish(slots, count, np.where(good, 1.0, -1.0).astype(np.float32))
    net = ActorCritic(D, A, [32, 32], ObsCodec(D))
    opt = torch.optim.Adam(net.parameters(), lr=3e-3)
    cfg = load_config(None, ["batch_size=256", "vf_coef=1.0"])
    first = az_update(net, opt, buf, 1, cfg, rng, torch.device("cpu"))
    last = az_update(net, opt, buf, 300, cfg, rng, torch.device("cpu"))
    assert last["policy_loss"] < first["policy_loss"] and last["value_loss"] < 0.5 * first["value_loss"]
    assert last["value_outcome_correlation"] > 0.8
    test = rng.normal(size=(256, D)).astype(np.float32)
    with torch.no_grad():
        logits, value = net(ObsCodec(D).pack(test))
    best = logits[:, :4].argmax(dim=1).numpy()
    assert np.mean(best == np.where(test[:, 0] > 0, 1, 2)) > 0.9
    assert np.corrcoef(value.numpy(), np.sign(test[:, 0]))[0, 1] > 0.8


def test_with_no_policy_weight_the_value_learns_alone_and_the_policy_stays() -> None:
    torch.manual_seed(1)
    rng = np.random.default_rng(1)
    n, D, A = 512, 4, 3
    obs = rng.normal(size=(n, D)).astype(np.float32)
    buf = ReplayBuffer(n, D, A, 1)
    slots, count = buf.add(obs, np.ones((n, A), bool), np.zeros((n, 1)), np.ones((n, 1)), np.ones(n, bool))
    buf.finish(slots, count, np.sign(obs[:, 1]).astype(np.float32))
    net = ActorCritic(D, A, [16], ObsCodec(D))
    policy = [p.detach().clone() for p in [*net.mlp_extractor.policy_net.parameters(), *net.action_net.parameters()]]
    value = net.value_net.weight.detach().clone()
    opt = torch.optim.Adam(net.parameters(), lr=1e-2)
    az_update(net, opt, buf, 50, load_config(None, ["batch_size=128", "az_policy_coef=0"]), rng, torch.device("cpu"))
    after = [*net.mlp_extractor.policy_net.parameters(), *net.action_net.parameters()]
    assert all(torch.equal(a, b) for a, b in zip(policy, after, strict=True))
    assert not torch.equal(value, net.value_net.weight)
    with pytest.raises(ConfigError, match="az_policy_coef = -1.0: must be 0"):
        load_config(None, ["az_policy_coef=-1"])


def test_a_network_started_from_a_policy_value_file_computes_what_the_file_does() -> None:
    game = "industry"
    path = shipped_network(game)
    spec = load_game(game)
    D, A = spec.observation_size(), spec.num_actions()
    net = ActorCritic(D, A, [128, 128], codec_for(game, D, "flat", "grids"))
    init_network(net, str(path), game)
    E = spec.engine
    s = E.init(16, num_players=4, seed=np.arange(16))
    obs = E.observe(s)
    numpy_net = load_network(path, game)
    with torch.no_grad():
        logits, value = net(ObsCodec(D).pack(obs))
    assert logits.numpy() == pytest.approx(numpy_net.logits(obs), abs=1e-4)
    assert value.numpy() == pytest.approx(numpy_net.values(obs), abs=1e-4)  # its normalisation folded in
    with pytest.raises(ConfigError, match="az_init = .*its layers .* are not this configuration's"):
        init_network(ActorCritic(D, A, [32, 32], codec_for(game, D, "flat", "grids")), str(path), game)


# ---------------------------------------------------------------------------------------------- the search's visits
def test_root_visits_are_each_searched_rows_tree_and_the_move_played_is_the_most_visited() -> None:
    E = load_game("industry").engine
    s = E.init(6, num_players=4, seed=np.arange(6) + 3)
    agent = make_agent("az", seed=1, game="industry", simulations=12, top_k=3)
    seen = 0
    for _ in range(40):
        obs, mask = E.observe(s), E.legal_action_mask(s)
        actions = agent.act_batch(obs, mask)
        for row, (acts, visits) in agent.root_visits().items():
            seen += 1
            assert visits.sum() == 12 and set(acts.tolist()) <= set(np.flatnonzero(mask[row]).tolist())
            assert actions[row] in acts[visits == visits.max()]
        E.step(s, actions, inplace=True)
        if s.terminated.any():
            E.reset(s, s.terminated, inplace=True)
    assert seen > 20


def test_league_seats_play_their_own_moves_and_are_kept_for_the_value_alone() -> None:
    """With az_opponent_share, a share of the seats is the league's: each game keeps an az seat; the league plays
    its own moves in its seats, and its decisions reach the buffer without visits (the value's positions only)."""
    from industry_env.envs.common import GameSetup

    class FirstLegal:
        """A league member that plays each row's first legal move and notes how many rows it was given."""

        rows = 0

        def act_batch(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
            FirstLegal.rows += mask.shape[0]
            return mask.argmax(axis=1)

    setup = GameSetup("industry", 4, {})
    agent = make_agent("az", seed=1, game="industry", simulations=4, top_k=2)
    buffer = ReplayBuffer(8192, setup.observation_size, setup.num_actions, 3)
    play = SearchSelfPlay(setup, 8, 5, agent, buffer, 0, [FirstLegal()], [1.0], share=0.6)
    assert ((play.who < 0).sum(axis=1) >= 1).all() and (play.who >= 0).any()
    league_rows = az_rows = 0
    for _ in range(40):
        s = play.state
        theirs = play.who[np.arange(8), np.asarray(s.current_player)] >= 0
        choice = setup.engine.legal_action_mask(s).sum(axis=1) > 1
        league_rows, az_rows = league_rows + int(theirs.sum()), az_rows + int((~theirs & choice).sum())
        first = buffer.writes
        play.step()
        kept = np.arange(first, buffer.writes) % buffer.capacity
        assert (buffer.searched[kept] == ~theirs[choice]).all()  # visits for the az seats' decisions alone
    assert FirstLegal.rows == league_rows > 0 and az_rows > 0
    assert ((play.who < 0).sum(axis=1) >= 1).all()  # games dealt again keep an az seat
    alone = SearchSelfPlay(setup, 4, 5, agent, ReplayBuffer(256, setup.observation_size, setup.num_actions, 3), 0)
    assert (alone.who == -1).all()


# ---------------------------------------------------------------------------------------------- runs
@pytest.mark.parametrize("name", sorted(n for n in shipped_configs() if framework_of(load_config(n)) == "az"))
def test_each_search_config_trains_a_network_that_az_and_net_play(name, tmp_path) -> None:
    result = train(tiny(tmp_path / "run", config=name), framework="az")
    assert result.games >= 1 and result.updates >= 1 and result.timesteps >= 1536
    assert set(result.losses) == {"policy_loss", "value_loss", "entropy", "value_outcome_correlation"}
    assert result.shares["search"] > 0 and result.shares["update"] > 0
    with zipfile.ZipFile(result.final) as z:
        data = json.loads(z.read("data"))
    assert data["framework"] == "az" and data["num_timesteps"] == result.timesteps
    game = load_config(name).game
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for agent in (make_agent("az", path=result.policy, game=game, simulations=4),
                      make_agent("net", path=result.policy, game=game), make_agent("ppo", path=result.final,
                                                                                    game=game)):  # fmt: skip
            table = Arena([agent, "random", "random", "random"], games=4, seed=1, game=game).run().table()
            assert table[0]["games"] == 4 and sum(r["wins"] for r in table) == pytest.approx(4)


def test_search_self_play_is_seeded_and_resumes_from_a_checkpoint(tmp_path) -> None:
    more = ["checkpoint_every=512", "eval_every=1024", "eval_games=4", "eval_opponent=random"]
    first = train(tiny(tmp_path / "a", *more), framework="az")
    second = train(tiny(tmp_path / "b", *more), framework="az")
    assert (tmp_path / "a" / "final.npz").read_bytes() == (tmp_path / "b" / "final.npz").read_bytes()
    steps = sorted(int(p.stem.split("_")[1]) for p in (tmp_path / "a" / "checkpoints").glob("step_*.zip"))
    assert steps and steps[-1] <= first.timesteps == second.timesteps and len(first.evals) == 1
    middle = tmp_path / "a" / "checkpoints" / f"step_{steps[0]}.zip"
    resumed = train(tiny(tmp_path / "a", f"resume={middle}", "total_timesteps=2560", *more), framework="az")
    assert resumed.timesteps >= 2560 and resumed.updates >= 1
    with zipfile.ZipFile(resumed.final) as z:
        data = json.loads(z.read("data"))
        optim = torch.load(io.BytesIO(z.read("optimizer.pth")), weights_only=True)
    assert data["framework"] == "az" and data["num_timesteps"] == resumed.timesteps
    assert float(next(iter(optim["state"].values()))["step"]) > 0


def test_the_trainers_refuse_each_others_keys_and_checkpoints_before_writing(tmp_path) -> None:
    plain = ["num_envs=4", "n_steps=32", "batch_size=64", "net_arch=128,128", "progress=false", "eval_every=0",
             f"run_dir={tmp_path / 'x'}"]  # fmt: skip
    for key in ("az_simulations=8", "az_init=shipped", "az_temperature_moves=0"):
        with pytest.raises(ConfigError, match=f"{key.split('=')[0]} = .*a key of search self-play.*--framework az"):
            train(load_config(None, [*plain, key]))
    for key in ("imitation_steps=100", "precision=bfloat16"):
        with pytest.raises(ConfigError, match=f"{key.split('=')[0]} = .*a key of the native trainer"):
            train(tiny(tmp_path / "x", key), framework="az")
    for key, why in (("az_simulations=0", "at least 1"), ("az_top_k=0", "at least 1"),
                     ("az_temperature_moves=-1", "0 .* or more"), ("az_buffer=10", "at least one minibatch"),
                     ("az_simulations=many", "expected a whole number"), ("az_opponent_share=1", r"in \[0, 1\)"),
                     ("az_opponent_share=-0.1", r"in \[0, 1\)")):  # fmt: skip
        with pytest.raises(ConfigError, match=f"{key.split('=')[0]} = .*{why}"):
            load_config(None, [key])
    with pytest.raises(ConfigError, match="az_init = .*no such file"):
        tiny(tmp_path / "x", "az_init=/nonexistent/net.npz")
    with pytest.raises(ConfigError, match="az_init = 'shipped': no such file .*Nim ships none"):
        load_config(None, ["game=nim", "num_players=3", "az_init=shipped"])
    with pytest.raises(ConfigError, match=r"az_buffer = .* GiB; at most 8 GiB"):
        load_config(None, ["game=twentieth_century", "az_buffer=1000000"])
    assert not (tmp_path / "x").exists()
    az = train(tiny(tmp_path / "a", "net_arch=128,128"), framework="az")
    before = {p: p.read_bytes() for p in (tmp_path / "a").rglob("*") if p.is_file() and p.name != ".lock"}
    with pytest.raises(ConfigError, match="holds a run already .*resume it with --set resume=latest"):
        train(tiny(tmp_path / "a", "net_arch=128,128"), framework="az")
    with pytest.raises(ConfigError, match="a checkpoint of search self-play; resume it with --framework az"):
        train(load_config(None, [*plain, f"run_dir={tmp_path / 'a'}", f"resume={az.final}"]))
    after = {p: p.read_bytes() for p in (tmp_path / "a").rglob("*") if p.is_file() and p.name != ".lock"}
    assert after == before
