"""Ray RLlib: the MultiAgentEnv passes RLlib's checker, the masking module never picks an illegal action, the league
maps seats as told, settings are checked, checkpoints play as agents; a tiny self-play run saves, reloads, plays."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("ray.rllib")
torch = pytest.importorskip("torch")

from gymnasium import spaces  # noqa: E402
from industry_env.agents import make_agent  # noqa: E402
from industry_env.train.config import ConfigError  # noqa: E402
from ray.rllib.core.columns import Columns  # noqa: E402
from ray.rllib.core.rl_module.default_model_config import DefaultModelConfig  # noqa: E402
from ray.rllib.core.rl_module.rl_module import RLModuleSpec  # noqa: E402
from ray.rllib.utils.pre_checks.env import check_multiagent_environments  # noqa: E402

from industry_env.arena import Arena  # noqa: E402
from industry_env.cli import main  # noqa: E402
from industry_env.envs.common import GameSetup  # noqa: E402
from industry_env.registry import load_game  # noqa: E402
from industry_env.rllib import AgentModule, LeagueMapping, MaskedPPOModule, RLlibAgent, make_env  # noqa: E402
from industry_env.rllib.env import rllib_observation_space  # noqa: E402
from industry_env.rllib.train import load_settings  # noqa: E402

NUM_ACTIONS = 314


def random_game(env, seed: int, rng: np.random.Generator) -> tuple[list, dict, dict]:
    """Play one game with legal random moves; the obs dicts seen, the final rewards and terminations."""
    obs, infos = env.reset(seed=seed)
    seen = [obs]
    while True:
        ((agent, view),) = obs.items()
        obs, rewards, terms, truncs, infos = env.step({agent: int(rng.choice(np.flatnonzero(view["action_mask"])))})
        seen.append(obs)
        if terms["__all__"]:
            return seen, rewards, terms
        assert set(rewards) == set(obs) and all(r == 0.0 for r in rewards.values())


# ---------------------------------------------------------------------------------------------- the env
def test_env_passes_rllibs_checker_and_gives_the_masked_dict_per_agent() -> None:
    env = make_env({"num_players": 4})
    check_multiagent_environments(env)  # samples a random action: an illegal one ends the game, as it should
    assert env.possible_agents == ["player_0", "player_1", "player_2", "player_3"]
    space = env.observation_spaces["player_2"]
    assert space["observations"].shape == (675,) and space["observations"].dtype == np.float32
    assert space["action_mask"].shape == (NUM_ACTIONS,) and space["action_mask"].dtype == np.float32
    obs, _ = env.reset(seed=3)
    assert len(obs) == 1  # only the agent to move
    ((agent, view),) = obs.items()
    assert agent == f"player_{env.game_env.state_.current_player[0]}"
    assert space.contains(view) and set(np.unique(view["action_mask"])) <= {0.0, 1.0} and view["action_mask"].any()


def test_env_rewards_come_at_the_end_to_every_agent_with_all_done() -> None:
    env = make_env({"num_players": 3})
    rng = np.random.default_rng(0)
    for seed in range(3):
        seen, rewards, terms = random_game(env, seed, rng)
        assert all(len(o) == 1 for o in seen[:-1]) and set(seen[-1]) == {"player_0", "player_1", "player_2"}
        assert terms["__all__"] and all(terms[a] for a in seen[-1])
        game_rewards = sorted(env.game_env.game().returns())
        assert sorted(rewards.values()) == game_rewards and max(rewards.values()) == 1.0
        assert all(not o["action_mask"].any() for o in seen[-1].values())


def test_env_ends_the_game_on_an_illegal_action_and_refuses_bad_calls() -> None:
    env = make_env()
    obs, _ = env.reset(seed=1)
    ((agent, view),) = obs.items()
    illegal = int(np.flatnonzero(view["action_mask"] == 0)[0])
    _, rewards, terms, _, _ = env.step({agent: illegal})
    assert terms["__all__"] and rewards[agent] == -1.0 and sum(rewards.values()) == -1.0
    with pytest.raises(RuntimeError, match="reset"):
        env.step({agent: 0})
    obs, _ = env.reset(seed=1)
    ((agent, _),) = obs.items()
    other = next(a for a in env.possible_agents if a != agent)
    with pytest.raises(ValueError, match="agent to move"):
        env.step({other: 0})
    with pytest.raises(ValueError, match="not an action"):
        env.step({agent: 1.5})
    with pytest.raises(ValueError, match="players: not an option of Industry"):
        make_env({"players": 4})


# ---------------------------------------------------------------------------------------------- the modules
def positions(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Observations and masks of the agents to move in random games (all phases of the game)."""
    env, rng = make_env(), np.random.default_rng(seed)
    views, masks = [], []
    while len(views) < n:
        obs, _ = env.reset(seed=int(rng.integers(1 << 30)))
        done = False
        while not done:
            ((agent, view),) = obs.items()
            views.append(view["observations"])
            masks.append(view["action_mask"])
            obs, _, terms, _, _ = env.step({agent: int(rng.choice(np.flatnonzero(view["action_mask"])))})
            done = terms["__all__"]
    return np.stack(views[:n]), np.stack(masks[:n])


def masked_module() -> MaskedPPOModule:
    space = rllib_observation_space(GameSetup("industry", None, {}))
    return RLModuleSpec(
        module_class=MaskedPPOModule,
        observation_space=space,
        action_space=spaces.Discrete(314),
        model_config=DefaultModelConfig(fcnet_hiddens=[32], fcnet_activation="tanh"),
    ).build()


def test_the_masking_module_never_picks_an_illegal_action_exploring_or_greedy() -> None:
    torch.manual_seed(0)
    module = masked_module()
    with torch.no_grad():  # make illegal actions tempting: large random preferences on every action
        module.pi.net.mlp[-1].bias.copy_(torch.randn(NUM_ACTIONS) * 30)
    views, masks = positions(600)
    batch = {Columns.OBS: {"observations": torch.from_numpy(views), "action_mask": torch.from_numpy(masks)}}
    dist_cls = module.get_exploration_action_dist_cls()
    with torch.no_grad():
        logits = module.forward_exploration(batch)[Columns.ACTION_DIST_INPUTS]
        samples = torch.stack([dist_cls.from_logits(logits).sample() for _ in range(10)]).numpy()  # 6,000 draws
        greedy = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS].argmax(-1).numpy()
        train_logits = module.forward_train(batch)[Columns.ACTION_DIST_INPUTS]
    rows = np.arange(len(views))
    assert masks[rows[None, :], samples].all() and masks[rows, greedy].all()
    raw = views.shape[0] - int(masks[rows, module.pi.net.mlp[-1].bias.argmax().item()].sum())
    assert raw > 0  # unmasked, the biased head would often choose an illegal action
    assert torch.equal(train_logits, logits) and bool((train_logits[torch.from_numpy(masks) == 0] < -1e30).all())
    assert set(batch[Columns.OBS]) == {"observations", "action_mask"}  # the caller's batch is left as it was
    values = module.compute_values(batch)
    assert values.shape == (len(views),) and torch.isfinite(values).all()


def test_agent_module_plays_the_projects_heuristic() -> None:
    space = rllib_observation_space(GameSetup("industry", None, {}))
    module = RLModuleSpec(
        module_class=AgentModule,
        observation_space=space,
        action_space=spaces.Discrete(314),
        model_config={"agent": "heuristic", "seed": 5},
    ).build()
    views, masks = positions(64, seed=1)
    out = module.forward_exploration({Columns.OBS: {"observations": torch.from_numpy(views),
                                                     "action_mask": torch.from_numpy(masks)}})  # fmt: skip
    expected = make_agent("heuristic", seed=5).act_batch(views, masks > 0)
    assert np.array_equal(out[Columns.ACTIONS], expected)


# ---------------------------------------------------------------------------------------------- league, settings
def test_league_mapping_puts_the_learner_in_one_seat_and_draws_members_by_weight() -> None:
    mapping = LeagueMapping(4, [("agent_0", 1.0), ("agent_1", 3.0)], seed=7)
    agents = [f"player_{k}" for k in range(4)]
    counts = {"agent_0": 0, "agent_1": 0}
    seats = []
    for e in range(400):
        ids = [mapping(a, f"episode-{e}") for a in agents]
        assert ids == [mapping(a, f"episode-{e}") for a in agents]  # the same answer every time
        assert ids.count("learner") == 1
        seats.append(ids.index("learner"))
        for m in ids:
            if m != "learner":
                counts[m] += 1
    assert set(seats) == {0, 1, 2, 3}
    assert 0.65 < counts["agent_1"] / (3 * 400) < 0.85  # weight 3 of 4
    per_seat = LeagueMapping(4, [], policy="per_seat")
    assert [per_seat(a, "e") for a in agents] == ["seat_0", "seat_1", "seat_2", "seat_3"]
    with pytest.raises(ValueError, match="policy"):
        LeagueMapping(4, [("agent_0", 1.0)], policy="league")


def test_settings_read_the_sb3_file_an_rllib_table_and_overrides(tmp_path) -> None:
    path = tmp_path / "c.toml"
    path.write_text('total_timesteps = 5000\nlearning_rate = 0.001\nopponents = ["random"]\nopponent_weights = [1.0]'
                    '\n[rllib]\nnum_env_runners = 3\npolicy = "per_seat"\n', encoding="utf-8")  # fmt: skip
    cfg, extra = load_settings(path, ["gamma=0.99", "rllib.num_learners=0"], num_env_runners=2)
    assert (cfg.total_timesteps, cfg.learning_rate, cfg.gamma, cfg.num_envs) == (5000, 0.001, 0.99, 32)
    assert extra == {"num_env_runners": 2, "policy": "per_seat", "address": "", "num_learners": 0}
    path.write_text("[rllib]\nrunners = 2\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="runners"):
        load_settings(path)
    for bad, word in ((["policy=mixed"], "policy"), (["num_env_runners=-1"], "num_env_runners"),
                      (["nsteps=5"], "nsteps"), (["resume=x.zip"], "resume")):  # fmt: skip
        with pytest.raises(ConfigError, match=word):
            load_settings(None, bad)


def test_settings_round_trip_hostile_strings_and_a_run_folder_is_never_reused(tmp_path) -> None:
    import ray

    from industry_env.rllib.train import settings_toml, train

    run_dir = str(tmp_path / 'runs\\new_run "x"\nline')
    cfg, extra = load_settings(None, [f"run_dir={run_dir}", "address=a\\b\"c", "opponents=random",
                                      "opponent_weights=1", "eval_opponent=random"])  # fmt: skip
    (tmp_path / "c.toml").write_text(settings_toml(cfg, extra), encoding="utf-8")
    assert load_settings(tmp_path / "c.toml") == (cfg, extra) and cfg.run_dir == run_dir
    (tmp_path / "config.toml").write_text("seed = 1\n")  # a folder that holds a run
    cfg, extra = load_settings(None, [f"run_dir={tmp_path}", "opponents=random", "opponent_weights=1",
                                      "eval_opponent=random"])  # fmt: skip
    with pytest.raises(ConfigError, match="holds a run already .*--overwrite") as refused:
        train(cfg, extra)
    assert "resume" not in str(refused.value)  # the RLlib trainer does not resume: the message never offers it
    assert not ray.is_initialized() and (tmp_path / "config.toml").read_text() == "seed = 1\n"
    with pytest.raises(ConfigError, match="does not resume runs"):  # refused as a setting, before any folder
        load_settings(None, [f"run_dir={tmp_path}", "resume=latest"])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.toml", "config.toml"]


def test_the_rllib_loop_saves_whole_checkpoint_folders_and_keeps_the_newest(tmp_path) -> None:
    from ray.rllib.utils.metrics import ENV_RUNNER_RESULTS, NUM_MODULE_STEPS_SAMPLED_LIFETIME

    from industry_env.rllib.train import train_loop

    class FakeAlgo:  # what the loop uses of an Algorithm: train(), save(path), callbacks
        callbacks = type("Callback", (), {"evals": [], "eval_seconds": 0.0})()
        steps = 0

        def train(self):
            self.steps += 100
            return {ENV_RUNNER_RESULTS: {NUM_MODULE_STEPS_SAMPLED_LIFETIME: {"learner": self.steps}}}

        def save(self, path):
            assert path.endswith(".partial")  # written under a temporary name, renamed when whole
            Path(path).mkdir()
            (Path(path) / "algorithm_state.pkl").write_bytes(b"x")

    cfg, extra = load_settings(None, [f"run_dir={tmp_path}", "total_timesteps=1000", "checkpoint_every=200",
                                      "keep_checkpoints=2", "progress=false", "opponents=random",
                                      "opponent_weights=1", "eval_opponent=random"])  # fmt: skip
    (tmp_path / "checkpoints").mkdir()
    figures = train_loop(FakeAlgo(), cfg, extra, tmp_path)
    assert figures["learner_steps"] == 1000 and (tmp_path / "final" / "algorithm_state.pkl").is_file()
    assert sorted(p.name for p in (tmp_path / "checkpoints").iterdir()) == ["step_1000", "step_800"]
    assert not list(tmp_path.rglob("*.partial"))


def test_train_command_refuses_mixed_options(capsys) -> None:
    assert main(["train", "--num-env-runners", "2"]) == 2
    assert "--framework rllib" in capsys.readouterr().err
    assert main(["train", "--framework", "rllib", "--num-env-runners", "-1"]) == 2
    assert "--num-env-runners" in capsys.readouterr().err
    assert main(["train", "--framework", "rllib", "--set", "policy=mixed"]) == 2
    assert "policy" in capsys.readouterr().err
    for address, word in (("127.0.0.1:1", "no Ray head answers"), ("nonsense", "HOST:PORT")):
        assert main(["train", "--framework", "rllib", "--address", address]) == 2  # refused at once, Ray not started
        assert word in capsys.readouterr().err
    assert main(["train", "--framework", "rllib", "--show-config", "--num-env-runners", "2"]) == 0
    shown = capsys.readouterr().out
    assert "num_env_runners = 2" in shown and "total_timesteps = " in shown


def test_ppo_config_builds_the_env_league_and_modules_of_the_game_named() -> None:
    """``game`` reaches the env config, the league's agents and every module's model_config (issue 28: the RLlib
    trainer built Industry whatever the config said)."""
    from industry_env.rllib import ppo_config

    # the command line's path: the shipped config file, its settings handed to ppo_config as the trainer does
    cfg, extra = load_settings("ppo_age_of_industry")
    shipped = ppo_config(**{k: getattr(cfg, k) for k in cfg.__dataclass_fields__},
                         **{k: v for k, v in extra.items() if k != "address"})  # fmt: skip
    assert shipped.env_config["game"] == "age_of_industry"
    config = ppo_config(game="age_of_industry", opponents=["random", "heuristic"], opponent_weights=[1.0, 2.0],
                        eval_opponent="random")  # fmt: skip
    env = make_env(config.env_config)
    assert env.setup.spec.id == "age_of_industry" and env.metadata["name"] == "age_of_industry_v0"
    setup = GameSetup("age_of_industry", None, {})
    space, actions = rllib_observation_space(setup), spaces.Discrete(setup.num_actions)
    specs = config.rl_module_spec.rl_module_specs
    assert {m: specs[m].model_config["game"] for m in specs} == dict.fromkeys(specs, "age_of_industry")
    league = RLModuleSpec(module_class=AgentModule, observation_space=space, action_space=actions,
                          model_config=specs["agent_1"].model_config).build()  # fmt: skip
    assert league.agent.game == "age_of_industry" and league.agent.name == "heuristic"
    learner = RLModuleSpec(
        module_class=MaskedPPOModule,
        observation_space=space,
        action_space=actions,
        model_config={**dict(fcnet_hiddens=[8]), **specs["learner"].model_config},
    ).build()
    agent = RLlibAgent.from_module(learner)
    assert agent.game == "age_of_industry" and agent.options["map"] == "germany"
    game = load_game("age_of_industry").reference(4, seed=1)
    assert agent.act_game(game) in game.legal_actions()
    # a module that names no game is Industry's (checkpoints saved before games were named); of another size: refused
    assert RLlibAgent.from_module(masked_module()).game == "industry"
    unnamed = RLModuleSpec(module_class=MaskedPPOModule, observation_space=space, action_space=actions,
                           model_config={"fcnet_hiddens": [8]}).build()  # fmt: skip
    with pytest.raises(ValueError, match="not a policy of Industry .* 675 observation floats and 314 actions"):
        RLlibAgent.from_module(unnamed)


def test_ppo_config_takes_the_game_options_to_the_env_the_league_the_modules_and_their_checkpoints(tmp_path) -> None:
    """``game_options`` (Age of Industry's map) reach the env config, the league's agents and every module's
    model_config, so an agent of a checkpoint reads the map it was trained on and refuses another (the trainer
    built the default map whatever the config said, and the command line refused such a config)."""
    from industry_env.rllib import ppo_config

    config = ppo_config(game="age_of_industry", game_options=["map=new_england"], opponents=["random", "heuristic"],
                        opponent_weights=[1.0, 2.0], eval_opponent="random")  # fmt: skip
    assert config.env_config["map"] == "new_england"
    env = make_env(config.env_config)
    assert env.setup.options["map"] == "new_england"
    setup = GameSetup("age_of_industry", None, {"map": "new_england"})
    assert setup.observation_size != GameSetup("age_of_industry", None, {}).observation_size  # the map's own sizes
    space, actions = rllib_observation_space(setup), spaces.Discrete(setup.num_actions)
    assert env.observation_spaces["player_0"] == space
    specs = config.rl_module_spec.rl_module_specs
    assert {m: specs[m].model_config["game_options"] for m in specs} == dict.fromkeys(specs, {"map": "new_england"})
    league = RLModuleSpec(module_class=AgentModule, observation_space=space, action_space=actions,
                          model_config=specs["agent_1"].model_config).build()  # fmt: skip
    assert league.agent.name == "heuristic" and league.agent.options == {"map": "new_england"}
    learner = RLModuleSpec(
        module_class=MaskedPPOModule,
        observation_space=space,
        action_space=actions,
        model_config={**dict(fcnet_hiddens=[8]), **specs["learner"].model_config},
    ).build()
    assert RLlibAgent.from_module(learner).options == {"map": "new_england"}
    learner.save_to_path(str(tmp_path / "m"))
    agent = make_agent(f"rllib:{tmp_path / 'm'}", game="age_of_industry", seed=0)
    assert agent.options == {"map": "new_england"}
    game = load_game("age_of_industry").reference(4, seed=1, map="new_england")
    assert agent.act_game(game) in game.legal_actions()
    with pytest.raises(ValueError, match="map = 'new_england'"):
        make_agent(f"rllib:{tmp_path / 'm'}", game="age_of_industry", options={"map": "germany"})
    # a module whose recorded options do not give its own sizes is refused, naming them
    germany = RLModuleSpec(module_class=MaskedPPOModule, observation_space=rllib_observation_space(
        GameSetup("age_of_industry", None, {})), action_space=spaces.Discrete(GameSetup("age_of_industry", None,
        {}).num_actions), model_config={"fcnet_hiddens": [8], **specs["learner"].model_config}).build()  # fmt: skip
    with pytest.raises(ValueError, match="trained with {'map': 'new_england'}, whose sizes are not its own"):
        RLlibAgent.from_module(germany)


def test_the_train_command_takes_game_options_for_rllib(capsys) -> None:
    """``industry-env train --framework rllib`` with ``game_options`` was refused; it trains them now (shown here
    without training: the settings it would train), and a wrong option is still refused by name."""
    argv = ["train", "--framework", "rllib", "--config", "ppo_age_of_industry", "--set", "game_options=map=new_england"]
    assert main([*argv, "--show-config"]) == 0
    assert 'game_options = ["map=new_england"]' in capsys.readouterr().out
    assert main([*argv[:-1], "game_options=map=atlantis", "--show-config"]) == 2
    assert "game_options" in capsys.readouterr().err


# ---------------------------------------------------------------------------------------------- checkpoints
def test_a_module_checkpoint_plays_as_an_agent_in_the_arena(tmp_path) -> None:
    module = masked_module()
    module.save_to_path(str(tmp_path / "m"))
    agent = make_agent(f"rllib:{tmp_path / 'm'}", seed=0)
    assert isinstance(agent, RLlibAgent)
    views, masks = positions(50, seed=2)
    masks = masks > 0  # the agents' interface takes bool or 0/1 integer masks
    acts = agent.act_batch(views, masks)
    assert masks[np.arange(50), acts].all() and acts[7] == agent.act(views[7], masks[7])
    table = Arena([agent, "random", "random", "random"], num_players=4, games=4, seed=0).run().table()
    assert table[0]["games"] == 4
    sampler = make_agent(f"rllib:{tmp_path / 'm'}", seed=0, deterministic=False)
    assert masks[np.arange(50), sampler.act_batch(views, masks)].all()
    for bad, word in ((f"rllib:{tmp_path / 'none'}", "no such folder"), ("rllib:", "checkpoint folder"),
                      (f"rllib:{tmp_path}", "neither")):  # fmt: skip
        with pytest.raises(ValueError, match=word):
            make_agent(bad)


# ---------------------------------------------------------------------------------------------- the smoke run
# snapshot_margin -1: every evaluation adds a snapshot, so with max_snapshots 1 the older one must retire.
TINY = {"num_envs": 4, "n_steps": 64, "batch_size": 128, "n_epochs": 1, "net_arch": [32], "eval_every": 50,
        "eval_games": 4, "eval_opponent": "random", "max_snapshots": 1, "snapshot_margin": -1.0,
        "seed": 3}  # fmt: skip


@pytest.fixture(scope="module")
def local_ray():
    import ray

    # The env runners use the numpy engine: the same games, and no numba compilation in a fresh process (CI).
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False,
             runtime_env={"env_vars": {"INDUSTRY_ENV_BACKEND": "numpy"}})  # fmt: skip
    yield ray
    ray.shutdown()


def test_smoke_self_play_on_local_ray_checkpoint_and_arena(local_ray, tmp_path, capsys, monkeypatch) -> None:
    """One test on purpose: under pytest-xdist each worker running a Ray test starts its own Ray instance."""
    from industry_env.rllib import ppo_config

    monkeypatch.chdir(tmp_path)  # the arena command writes its results in the current folder
    # Shared policy and league: two tiny iterations, an evaluation in each.
    algo = ppo_config(num_env_runners=0, **TINY).build_algo()  # sampling in the driver: no runner process to start
    try:
        results = [algo.train() for _ in range(2)]
        modules = set(algo.config.policies)
        path = algo.save(str(tmp_path / "ckpt")).checkpoint.path
    finally:
        algo.stop()
    league = [r["league"] for r in results]
    assert league[-1]["learner_steps"] > league[0]["learner_steps"] > 0
    added = [g["added"] for g in league if "added" in g]
    assert len(added) >= 2 and league[-1]["snapshots"] == 1  # one snapshot a evaluation; the older ones retired
    assert {"learner", "agent_0", "agent_1"} <= modules and [m for m in modules if m.startswith("learner_v")] == [
        added[-1]
    ]
    assert results[-1]["learners"]["learner"]["num_module_steps_trained"] > 0

    # The checkpoint plays as an agent, in Python and through the arena command.
    agent = make_agent(f"rllib:{path}", seed=1)
    table = Arena([agent, "heuristic", "random", "random"], num_players=4, games=4, seed=0).run().table()
    assert table[0]["agent"] == f"rllib:{path}" and table[0]["games"] == 4
    assert main(["arena", "--agents", f"rllib:{path},random,random,random", "--games", "8", "--no-plot"]) == 0
    assert f"rllib:{path}" in capsys.readouterr().out
    with pytest.raises(ValueError, match="no module 'seat_0'"):
        make_agent(f"rllib:{path}", module="seat_0")
    with pytest.raises(ValueError, match="make_agent\\('heuristic', game='industry'\\)"):
        make_agent(f"rllib:{path}", module="agent_1")  # the league's heuristic is the project's own agent


def test_self_play_trains_the_game_named_and_its_checkpoint_plays_that_game_only(local_ray, tmp_path) -> None:
    """Age of Industry on its New England map on RLlib: the env the runner built, the league's agents, the
    evaluation and the saved module are that game's and that map's; the checkpoint plays it in the arena and is
    refused for Industry."""
    from industry_env.rllib import ppo_config

    tiny = {**TINY, "num_envs": 2, "n_steps": 32, "batch_size": 64, "eval_every": 1, "net_arch": [16]}
    algo = ppo_config(num_env_runners=0, game="age_of_industry", game_options=["map=new_england"],
                      opponents=["random", "heuristic"], opponent_weights=[1.0, 1.0], **tiny).build_algo()  # fmt: skip
    try:
        envs = [e.unwrapped for e in algo.env_runner.env.unwrapped.envs]
        result = algo.train()
        league = algo.get_module("agent_1").agent
        path = algo.save(str(tmp_path / "ckpt")).checkpoint.path
    finally:
        algo.stop()
    assert {(e.setup.spec.id, e.setup.options["map"]) for e in envs} == {("age_of_industry", "new_england")}
    assert league.game == "age_of_industry" and league.options == {"map": "new_england"}
    assert result["league"]["eval_games"] >= 4  # the evaluation played Age of Industry's arena, on its map
    agent = make_agent(f"rllib:{path}", game="age_of_industry", seed=0)
    assert agent.game == "age_of_industry" and agent.options == {"map": "new_england"}
    table = Arena([agent, "random", "random", "random"], num_players=4, games=4, seed=0,
                  game="age_of_industry", map="new_england").run().table()  # fmt: skip
    assert table[0]["games"] == 4
    with pytest.raises(ValueError, match="plays Age of Industry, not Industry"):
        make_agent(f"rllib:{path}")


@pytest.mark.slow
def test_one_module_per_seat_trains_every_seat_and_each_plays(local_ray, tmp_path) -> None:
    """One module per seat, 3 players, sampling in the driver: every seat trains; each module plays."""
    from industry_env.rllib import ppo_config

    algo = ppo_config(policy="per_seat", num_env_runners=0, num_players=3, **{**TINY, "eval_every": 0}).build_algo()
    try:
        result = algo.train()
        path = algo.save(str(tmp_path / "ckpt3")).checkpoint.path
    finally:
        algo.stop()
    assert {"seat_0", "seat_1", "seat_2"} <= set(result["learners"]) and result["league"]["learner_steps"] >= 128
    agent = make_agent(f"rllib:{path}", module="seat_2")
    views, masks = positions(20, seed=4)
    assert (masks[np.arange(20), agent.act_batch(views, masks > 0)] > 0).all()
    with pytest.raises(ValueError, match="no module 'learner'"):
        make_agent(f"rllib:{path}")


@pytest.mark.slow
def test_ppo_config_with_two_env_runners_trains(local_ray) -> None:
    from industry_env.rllib import ppo_config

    algo = ppo_config(num_env_runners=2).build()
    try:
        result = algo.train()
    finally:
        algo.stop()
    assert result["league"]["learner_steps"] > 1000
    assert result["env_runners"]["num_env_steps_sampled_lifetime"] >= 2 * 32 * 128


@pytest.mark.slow
def test_the_train_command_runs_from_a_config_file_and_writes_a_playable_run(local_ray, tmp_path, capsys) -> None:
    import json

    run = tmp_path / "run"
    (tmp_path / "c.toml").write_text(f'total_timesteps = 600\nnum_envs = 4\nn_steps = 64\nbatch_size = 128\n'
                                     f'eval_every = 300\neval_games = 4\ncheckpoint_every = 300\n'
                                     f'progress = false\nrun_dir = "{run}"\n', encoding="utf-8")  # fmt: skip
    assert main(["train", "--framework", "rllib", "--config", str(tmp_path / "c.toml"), "--num-env-runners", "1"]) == 0
    assert "learner steps/s" in capsys.readouterr().out
    result = json.loads((run / "result.json").read_text())
    assert result["learner_steps"] >= 600 and (run / "final").is_dir() and any((run / "checkpoints").iterdir())
    assert (
        main(
            [
                "arena",
                "--agents",
                f"rllib:{run / 'final'},random,random,random",
                "--games",
                "4",
                "--output-dir",
                str(tmp_path / "arena"),
                "--no-plot",
            ]
        )
        == 0
    )


@pytest.mark.slow
def test_the_train_command_joins_a_running_ray_cluster_with_address(tmp_path, capsys) -> None:
    """A Ray instance started by another process stands for a cluster's head; --address joins it."""
    import subprocess
    import sys

    import ray

    if ray.is_initialized():
        ray.shutdown()  # this process must be a fresh driver
    script = (
        "import signal, sys, time, ray; signal.signal(signal.SIGTERM, lambda *_: sys.exit(0)); "
        "ray.init(num_cpus=2, include_dashboard=False); print(ray.get_runtime_context().gcs_address, "
        "flush=True); time.sleep(600)"
    )  # on SIGTERM it exits normally: Ray stops what it started
    head = subprocess.Popen([sys.executable, "-c", script],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)  # fmt: skip
    try:
        address = head.stdout.readline().strip()
        run = tmp_path / "run"
        args = ["train", "--framework", "rllib", "--address", address, "--num-env-runners", "2", "--set",
                "total_timesteps=200", "--set", "num_envs=4", "--set", "n_steps=64", "--set", "batch_size=128",
                "--set", "eval_every=0", "--set", "progress=false", "--set", f"run_dir={run}"]  # fmt: skip
        assert main(args) == 0
        assert "2 env runner(s)" in capsys.readouterr().out and (run / "final").is_dir()
        assert not ray.is_initialized()  # the command disconnected; the cluster is not its to stop
    finally:
        head.terminate()
        head.wait(timeout=60)
