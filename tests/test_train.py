"""Training with the SB3 trainer: a tiny MaskablePPO run saves, reloads as a PPOAgent and plays; configs are
checked; runs resume and repeat; the shipped policy plays in every environment and in the terminal game."""

from __future__ import annotations

import io
import json
import warnings

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")
torch = pytest.importorskip("torch")

from industry_env.agents import AGENTS, AgentInputError, PPOAgent, make_agent  # noqa: E402
from industry_env.train import ConfigError, TrainConfig, load_config, to_toml  # noqa: E402
from industry_env.train import train as train_with  # noqa: E402

import industry_env  # noqa: E402
from industry_env.arena import Arena  # noqa: E402
from industry_env.cli import build_parser, cmd_play, main  # noqa: E402
from industry_env.games.industry import engine as E  # noqa: E402

TINY = ["total_timesteps=1024", "num_envs=8", "n_steps=64", "batch_size=256", "n_epochs=1", "net_arch=32,32",
        "eval_every=512", "eval_games=8", "eval_opponent=random", "checkpoint_every=256", "keep_checkpoints=3",
        "progress=false", "max_snapshots=1"]  # fmt: skip


def train(cfg: TrainConfig, overwrite: bool = False):
    """The SB3 trainer, which this file tests (the native one: tests/test_train_native.py)."""
    return train_with(cfg, overwrite=overwrite, framework="sb3")


def tiny(run_dir, *more: str) -> TrainConfig:
    return load_config(None, [*TINY, f"run_dir={run_dir}", *more])


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    run_dir = tmp_path_factory.mktemp("run")
    return train(tiny(run_dir)), run_dir


def test_a_tiny_run_saves_reloads_as_an_agent_and_plays_an_arena(trained, tmp_path) -> None:
    result, run_dir = trained
    assert result.timesteps >= 1024 and result.final.is_file()
    assert [e["timesteps"] for e in result.evals] == [512, 1024]  # evaluated on schedule, through the arena
    assert all(0 <= e["win_ci_low"] <= e["win_rate"] <= e["win_ci_high"] <= 1 for e in result.evals)
    assert result.steps_per_second > 0 and abs(sum(result.shares[k] for k in ("engine", "opponents", "learner"))
                                               - 1) < 1e-6  # fmt: skip
    # four checkpoints written, the newest three kept (the first pruned), each with its league file
    assert sorted(p.name for p in (run_dir / "checkpoints").iterdir()) == [
        f"step_{n}.{ext}" for n in (1024, 512, 768) for ext in ("league.json", "zip")]  # fmt: skip
    best = json.loads((run_dir / "best.league.json").read_text())  # the model at its best evaluation, kept
    assert (run_dir / "best.zip").is_file() and best["best"] == max(e["win_rate"] for e in result.evals)
    assert not list(run_dir.rglob("*.partial"))
    assert load_config(run_dir / "config.toml") == tiny(run_dir)  # the run's config reads back to the same values
    assert list((run_dir / "tb").rglob("events.out.tfevents.*"))  # TensorBoard logs

    agent = make_agent("ppo", path=result.final)
    weights = agent.save(tmp_path / "actor.npz")
    again = PPOAgent(path=weights)
    obs = E.observe(E.init(16, 4, seed=3))
    masks = E.legal_action_mask(E.init(16, 4, seed=3))
    assert np.array_equal(agent.act_batch(obs, masks), again.act_batch(obs, masks))  # zip and weights file agree
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        table = Arena([agent, "random", "random", "random"], games=8, seed=1).run().table()
    assert table[0]["games"] == 8 and sum(r["wins"] for r in table) == pytest.approx(8)


def test_same_seed_same_run_and_resume_continues(trained, tmp_path) -> None:
    result, run_dir = trained
    # same seed, same configuration: the same weights (the evaluations and snapshots included)
    short = ["eval_every=0", "checkpoint_every=0", "total_timesteps=256", "num_envs=4"]
    other, third = (train(tiny(tmp_path / name, *short)) for name in ("again", "again2"))
    a, b = PPOAgent(path=other.final).actor, PPOAgent(path=third.final).actor
    assert all(torch.equal(x, y) for x, y in zip(a.state_dict().values(), b.state_dict().values(), strict=True))
    # resume from the first checkpoint: the step count, the league and the optimizer go on
    league = json.loads((run_dir / "checkpoints" / "step_512.league.json").read_text())
    assert len(league["snapshots"]) == 1
    final_before = (run_dir / "final.zip").read_bytes()
    resumed = train(tiny(run_dir, f"resume={run_dir / 'checkpoints' / 'step_512.zip'}", "total_timesteps=1536"))
    assert 1536 <= resumed.timesteps < 1536 + 512
    assert [e["timesteps"] for e in resumed.evals] == [512, 1024, 1536]  # the earlier evaluations are kept
    # the abandoned continuation (after step 512) is set aside, not written over
    aside = next((run_dir / "superseded").iterdir())
    assert (aside / "final.zip").read_bytes() == final_before
    assert [e["timesteps"] for e in json.loads((aside / "evals.json").read_text())] == [512, 1024]
    assert (aside / "checkpoints" / "step_1024.zip").is_file()
    # resume=latest continues from the newest complete checkpoint: the final model just written
    again = train(tiny(run_dir, "resume=latest", "total_timesteps=1792", "eval_every=0"))
    assert again.timesteps >= 1792 and [e["timesteps"] for e in again.evals] == [512, 1024, 1536]
    # an evaluation after the newest checkpoint (a run killed then) belongs to the abandoned continuation: kept
    # aside, and evals.json holds the evaluations of the one resumed even when nothing is left to train
    evals = json.loads((run_dir / "evals.json").read_text())
    (run_dir / "evals.json").write_text(json.dumps([*evals, {"timesteps": 10**6, "win_rate": 0.5}]))
    train(tiny(run_dir, "resume=latest", "total_timesteps=1792"))
    assert json.loads((run_dir / "evals.json").read_text()) == evals
    assert any(10**6 in [e["timesteps"] for e in json.loads(f.read_text())]
               for f in (run_dir / "superseded").rglob("evals.json"))  # fmt: skip


@pytest.mark.parametrize(
    ("override", "named"),
    [("num_envz=4", "num_envz"), ("num_envs=four", "num_envs"), ("num_envs=0", "num_envs"),
     ("batch_size=300", "batch_size"), ("reward=points", "reward"), ("opponents=random,nobody", "opponents"),
     ("opponent_weights=1", "opponent_weights"), ("net_arch=64,x", "net_arch"), ("progress=maybe", "progress"),
     ("resume=/no/such.zip", "resume"), ("gamma", "gamma")],
)  # fmt: skip
def test_bad_keys_and_values_are_refused_by_name(override: str, named: str) -> None:
    with pytest.raises(ConfigError, match=named):
        load_config(None, [override])


def test_config_file_errors_name_the_file_and_key(tmp_path, capsys) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("total_timesteps = 1000\nlearning_rat = 0.1\n")
    with pytest.raises(ConfigError, match=r"bad\.toml.*learning_rat"):
        load_config(bad)
    bad.write_text("n_epochs = 'many'\n")
    with pytest.raises(ConfigError, match=r"bad\.toml: n_epochs"):
        load_config(bad)
    assert main(["train", "--config", str(bad)]) == 2  # the CLI says what is wrong, no traceback
    assert "n_epochs" in capsys.readouterr().err
    good = tmp_path / "good.toml"
    good.write_text(to_toml(TrainConfig()))
    assert load_config(good, ["seed=7"]) == TrainConfig(seed=7)  # --set wins over the file


def test_a_list_on_the_command_line_reads_as_in_a_toml_file_or_comma_separated() -> None:
    for weights, names in (("3,1", "heuristic,random"), ("[3.0, 1.0]", '["heuristic", "random"]'),
                           ("[3,1]", "['heuristic','random']")):  # fmt: skip
        cfg = load_config(None, [f"opponent_weights={weights}", f"opponents={names}"])
        assert (cfg.opponent_weights, cfg.opponents) == ([3.0, 1.0], ["heuristic", "random"])


def test_one_config_file_serves_both_frameworks(tmp_path) -> None:
    both = tmp_path / "both.toml"
    both.write_text("seed = 3\nnum_envs = 32\n\n[rllib]\nnum_env_runners = 2\n")
    assert load_config(both) == TrainConfig(seed=3, num_envs=32)  # the [rllib] table is the RLlib trainer's
    both.write_text("seed = 3\nrllib = 2\n")  # not a table: an unknown key as before
    with pytest.raises(ConfigError, match="rllib"):
        load_config(both)


def test_train_cli_shows_the_configuration_with_each_keys_meaning(capsys) -> None:
    assert main(["train", "--set", "num_envs=32", "--show-config"]) == 0
    out = capsys.readouterr().out
    assert "num_envs = 32" in out and "Games played at once" in out


def test_ppo_agent_is_registered_seeded_and_refuses_bad_input(tmp_path) -> None:
    assert AGENTS["ppo"] is PPOAgent
    obs = E.observe(E.init(32, 4, seed=5))
    masks = E.legal_action_mask(E.init(32, 4, seed=5))
    first = make_agent("ppo", seed=1, deterministic=False).act_batch(obs, masks)
    assert np.array_equal(first, make_agent("ppo", seed=1, deterministic=False).act_batch(obs, masks))
    assert masks[np.arange(32), first].all()
    assert make_agent("ppo").act(obs[0], masks[0]) == make_agent("ppo").act(obs[0], masks[0])
    with pytest.raises(AgentInputError, match="no such file"):
        make_agent("ppo", path=tmp_path / "missing.zip")
    (tmp_path / "junk.pt").write_bytes(b"not a policy")
    with pytest.raises(AgentInputError, match="junk.pt"):
        make_agent("ppo", path=tmp_path / "junk.pt")


def test_shipped_policy_plays_in_the_aec_and_gymnasium_envs_and_the_terminal() -> None:
    import gymnasium

    agent = make_agent("ppo")
    env = industry_env.env(num_players=4)
    env.reset(seed=0)
    for _ in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else agent.act(obs["observation"], obs["action_mask"]))
    assert all(env.terminations.values())

    industry_env.envs.register()
    genv = gymnasium.make("industry_env/Industry-v0", num_players=4, opponents="ppo")
    obs, info = genv.reset(seed=0)
    done = False
    while not done:
        obs, _, term, trunc, info = genv.step(agent.act(obs, info["action_mask"]))
        done = term or trunc
    assert "scores" in info

    args = build_parser().parse_args(["play", "--record", "none", "--opponents", "ppo", "--seed", "1"])
    out = io.StringIO()
    assert cmd_play(args, stdin=io.StringIO("0\n" * 3000), stdout=out) == 0
    assert "game over" in out.getvalue()


def test_learning_curves_are_read_from_the_tensorboard_logs(trained, tmp_path) -> None:
    pytest.importorskip("matplotlib")
    from industry_env.train.curves import plot_curves, scalars

    _, run_dir = trained
    s = scalars(run_dir)
    assert [step for step, _ in s["eval/win_rate"]][:2] == [512, 1024]
    assert {"rollout/ep_rew_mean", "train/entropy_loss", "time/share_engine"} <= set(s)
    plot_curves(run_dir, tmp_path / "curves.png")
    assert (tmp_path / "curves.png").stat().st_size > 5_000


# ---------------------------------------------------------------------------------------------- run folders
def test_a_finished_run_is_kept_unless_overwrite_and_two_runs_never_share_a_folder(trained, tmp_path, capsys) -> None:
    from industry_env.train.runfolder import RunLock

    result, run_dir = trained
    short = ["eval_every=0", "checkpoint_every=0", "total_timesteps=256", "num_envs=4"]
    with pytest.raises(ConfigError, match="holds a run already .*resume it with --set resume=latest"):
        train(tiny(run_dir, *short))
    first = tmp_path / "first"
    train(tiny(first, *short))
    before = (first / "final.zip").read_bytes()
    with pytest.raises(ConfigError, match="holds a run already"):
        train(tiny(first, *short, "seed=1"))
    assert (first / "final.zip").read_bytes() == before and load_config(first / "config.toml").seed == 0
    with RunLock(first), pytest.raises(ConfigError, match="another run is training into this folder"):
        train(tiny(first, *short, "seed=1"), overwrite=True)  # a run holds it: not even --overwrite
    again = train(tiny(first, *short, "seed=1"), overwrite=True)
    assert again.final.read_bytes() != before and load_config(first / "config.toml").seed == 1
    assert "removed the earlier run's" in capsys.readouterr().out


# ---------------------------------------------------------------------------------------------- policy files
def test_the_shipped_policy_loads_weights_only_and_plays_as_the_sb3_save_it_came_from(monkeypatch) -> None:
    from industry_env.agents import ppo as P
    from sb3_contrib import MaskablePPO

    agent = make_agent("ppo")
    assert agent.path == P.shipped_path() and agent.path.suffix == ".npz"  # the weights-only policy file
    monkeypatch.setattr(torch, "load", lambda *a, **k: pytest.fail("the shipped policy must not go through torch.load"))
    fresh = PPOAgent(path=P.shipped_path())  # read again from the file: no unpickler on the way
    monkeypatch.undo()
    assert all(torch.equal(x, y) for x, y in zip(fresh.actor.state_dict().values(), agent.actor.state_dict().values(),
                                                 strict=True))  # fmt: skip
    old = MaskablePPO.load(P.shipped_sb3_path(), device="cpu")  # the old way (trusted file: the project's own)
    state, rng, compared = E.init(48, 4, seed=11), np.random.default_rng(0), 0
    for _ in range(40):  # positions of every phase of the early game
        live = ~state.terminated
        obs, masks = E.observe(state), E.legal_action_mask(state)
        expected, _ = old.predict(obs[live], action_masks=masks[live], deterministic=True)
        assert np.array_equal(agent.act_batch(obs[live], masks[live]), expected)
        compared += int(live.sum())
        state = E.step(state, E.sample_legal(masks, rng))
    assert compared > 1500


def _crafted_zip(source, target, payload_file) -> None:
    """``source`` (an SB3 save) with a pickled object in its JSON data that writes ``payload_file`` when unpickled."""
    import base64
    import pickle
    import zipfile

    class Payload:
        def __reduce__(self):
            return (open, (str(payload_file), "w"))

    with zipfile.ZipFile(source) as z:
        entries = {n: z.read(n) for n in z.namelist()}
    data = json.loads(entries["data"])
    data["observation_space"] = {":type:": "<class 'object'>",
                                 ":serialized:": base64.b64encode(pickle.dumps(Payload())).decode()}  # fmt: skip
    entries["data"] = json.dumps(data).encode()
    with zipfile.ZipFile(target, "w") as z:
        for name, blob in entries.items():
            z.writestr(name, blob)


def test_a_policy_zip_is_read_without_running_what_it_holds(trained, tmp_path) -> None:
    from industry_env.agents.ppo import export_policy

    result, _ = trained
    crafted, wrote = tmp_path / "crafted.zip", tmp_path / "pwned.txt"
    _crafted_zip(result.final, crafted, wrote)
    agent = make_agent("ppo", path=crafted)  # the weights are read; the pickled object is not
    assert not wrote.exists()
    state = E.init(8, 4, seed=2)
    obs, masks = E.observe(state), E.legal_action_mask(state)
    same = make_agent("ppo", path=result.final).act_batch(obs, masks)
    assert np.array_equal(agent.act_batch(obs, masks), same)
    exported = export_policy(crafted, tmp_path / "mine.npz")  # the safe file for users' own policies
    assert not wrote.exists() and np.array_equal(make_agent("ppo", path=exported).act_batch(obs, masks), same)


def test_a_policy_file_that_does_not_fit_is_refused_when_loaded(tmp_path) -> None:
    from industry_env.agents.ppo import WEIGHTS_FORMAT, export_policy

    tagged = tmp_path / "tagged.pt"
    torch.save({"format": WEIGHTS_FORMAT, "activation": "Tanh"}, tagged)
    with pytest.raises(AgentInputError, match=r"tagged\.pt: the file has the PPOAgent tag but no weights"):
        make_agent("ppo", path=tagged)
    unchained = tmp_path / "unchained.pt"
    torch.save({"format": WEIGHTS_FORMAT, "activation": "Tanh",
                "weights": [torch.zeros(64, 675), torch.zeros(314, 32)],
                "biases": [torch.zeros(64), torch.zeros(314)]}, unchained)  # fmt: skip
    with pytest.raises(AgentInputError, match=r"layer 1 takes 32 inputs but gets 64 .*do not chain"):
        make_agent("ppo", path=unchained)
    good = export_policy(make_agent("ppo"), tmp_path / "good.npz")
    arrays = dict(np.load(good))
    bad = tmp_path / "bad.npz"
    np.savez(bad, **{**arrays, "weight_2": arrays["weight_2"][:300]})
    with pytest.raises(AgentInputError, match="layer 2 has weights \\[300, 128\\].*biases \\[314\\]"):
        make_agent("ppo", path=bad)
    np.savez(bad, **{**arrays, "description": np.array(json.dumps({"format": "x", "layers": 3}))})
    with pytest.raises(AgentInputError, match="not a readable policy file"):
        make_agent("ppo", path=bad)
    np.savez(bad, **{**arrays, "weight_0": np.array([object()] * 3)})  # pickled arrays are never read
    with pytest.raises(AgentInputError, match="not a readable policy file"):
        make_agent("ppo", path=bad)


def test_the_config_names_its_game_and_checks_players_by_that_game() -> None:
    assert TrainConfig().game == "industry"
    with pytest.raises(ConfigError, match="game = 'chess': not a game of the suite"):
        load_config(None, ["game=chess"])
    with pytest.raises(ConfigError, match="num_players = 5: Industry is played by 3 or 4"):
        load_config(None, ["num_players=5"])


def test_the_ppo_agent_plays_any_game_with_its_own_policy_file(tmp_path, monkeypatch) -> None:
    """A policy of Age of Industry (made here in the documented file format) loads for that game only; a game
    without a shipped policy says so."""
    from industry_env.agents.ppo import POLICY_FORMAT

    from industry_env.registry import load_game

    spec = load_game("age_of_industry")
    obs, acts = spec.observation_size(), spec.num_actions()
    rng = np.random.default_rng(0)
    path = tmp_path / "aoi.npz"
    np.savez(path, description=np.array(json.dumps({"format": POLICY_FORMAT, "activation": "Tanh", "layers": 2,
                                                    "sizes": [obs, 16, acts]})),
             weight_0=rng.normal(size=(16, obs)).astype(np.float32), bias_0=np.zeros(16, np.float32),
             weight_1=rng.normal(size=(acts, 16)).astype(np.float32), bias_1=np.zeros(acts, np.float32))  # fmt: skip
    agent = make_agent("ppo", path=path, game="age_of_industry")
    assert agent.game == "age_of_industry"
    game = spec.reference(4, seed=3)
    for _ in range(30):
        a = agent.act(spec.observe(game, game.current_player), game.legal_action_mask())
        assert a in game.legal_actions()
        game.apply(a)
    with pytest.raises(
        AgentInputError,
        match=f"a policy of Age of Industry \\(its network reads {obs} floats\\), "
        f"not of Industry: load it with game='age_of_industry'",
    ):
        make_agent("ppo", path=path)  # Industry's observation is another size: the game it is, named
    shipped = make_agent("ppo", game="age_of_industry")  # the shipped policy, weights only
    assert shipped.path.name == "ppo_age_of_industry.npz" and shipped.options["map"] == "germany"
    assert shipped.act(spec.observe(game, game.current_player), game.legal_action_mask()) in game.legal_actions()
    monkeypatch.setattr(type(spec), "shipped_policy", None)
    with pytest.raises(AgentInputError, match="Age of Industry ships no trained policy yet: pass path="):
        make_agent("ppo", game="age_of_industry", seed=1)
    with pytest.raises(ConfigError, match="game = 'chess'"):
        load_config(None, ["game=chess"])
    cfg = load_config(None, ["game=age_of_industry", "num_players=5", "opponents=random", "opponent_weights=1",
                             "eval_opponent=random"])  # fmt: skip
    assert cfg.game == "age_of_industry" and cfg.num_players == 5


def test_resuming_against_another_eval_opponent_starts_the_best_again(tmp_path, capsys) -> None:
    """The best win rate (and best.zip) of a run evaluated against random players is no bar for evaluations against
    heuristics: resuming with another eval_opponent says so and lets the new evaluations make best.zip."""
    run_dir = tmp_path / "run"
    first = train(tiny(run_dir, "total_timesteps=512", "eval_every=512", "checkpoint_every=512"))
    league = json.loads((run_dir / "final.league.json").read_text())
    assert league["best_against"] == "random" and league["best"] >= 0
    best_before = (run_dir / "best.zip").read_bytes()
    train(tiny(run_dir, f"resume={first.final}", "total_timesteps=1024", "eval_every=512", "checkpoint_every=512",
               "eval_opponent=heuristic"))  # fmt: skip
    assert "the best win rate so far was against 'random'" in capsys.readouterr().out
    league = json.loads((run_dir / "final.league.json").read_text())
    assert league["best_against"] == "heuristic"
    assert (run_dir / "best.zip").read_bytes() != best_before  # measured against the heuristic now


def test_a_policy_for_another_map_trains_with_game_options_and_plays_only_that_map(tmp_path) -> None:
    """The shipped Age of Industry policy reads Germany only: game_options trains one for New England, whose
    league and evaluations play that map, and which is refused on Germany by name."""
    from industry_env.arena import ArenaError

    cfg = tiny(
        tmp_path / "ne",
        "game=age_of_industry",
        "game_options=map=new_england",
        "opponents=random",
        "opponent_weights=1",
        "total_timesteps=512",
        "eval_every=512",
        "eval_games=4",
        "checkpoint_every=0",
    )
    result = train(cfg)
    assert result.timesteps == 512 and len(result.evals) == 1
    agent = make_agent(f"ppo:{result.final}", game="age_of_industry", options={"map": "new_england"})
    assert agent.options == {"map": "new_england"}
    Arena([f"ppo:{result.final}", "random", "random"], games=3, game="age_of_industry", map="new_england").run()
    with pytest.raises(ArenaError, match="map = 'new_england'.*not map = 'germany'"):
        Arena([f"ppo:{result.final}", "random", "random"], games=3, game="age_of_industry")
    with pytest.raises(ConfigError, match="game_options = \\['map=mars'\\]: map='mars'"):
        load_config(None, ["game=age_of_industry", "game_options=map=mars"])
    with pytest.raises(ConfigError, match="map: not an option of Industry"):
        load_config(None, ["game_options=map=germany"])
