"""The native trainer (industry_env.train.native): seat-by-seat credit, masks, the compact observations, every
shipped config trained a few hundred steps into a policy file the ppo agent plays, resume, the time shares, the
device, and the SB3 trainer's refusals of what only the native trainer reads."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("tensorboard")

from industry_env.agents import make_agent  # noqa: E402
from industry_env.train import ConfigError, load_config, shipped_configs, train  # noqa: E402
from industry_env.train.config import framework_of  # noqa: E402
from industry_env.train.credit import SeatLinks, gae  # noqa: E402
from industry_env.train.native import Schedule, pick_device  # noqa: E402
from industry_env.train.nets import ActorCritic, ValueNorm, codec_for, masked, sample  # noqa: E402

from industry_env.arena import Arena  # noqa: E402
from industry_env.registry import load_game  # noqa: E402

TINY = ["total_timesteps=512", "num_envs=32", "n_steps=8", "batch_size=128", "n_epochs=1", "net_arch=32,32",
        "eval_every=0", "checkpoint_every=0", "progress=false", "max_snapshots=1"]  # fmt: skip


def tiny(run_dir, *more: str, config: str | None = None):
    return load_config(config, [*TINY, f"run_dir={run_dir}", *more])


def positions(game: str, n: int = 24, moves: int = 30, seed: int = 0):
    """A State of ``n`` running games of ``game`` after some random moves, with its masks and observations."""
    E = load_game(game).engine
    s = E.init(n, num_players=4, seed=np.arange(n) + seed)
    m = E.legal_action_mask(s)
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        E.step(s, E.sample_legal(m, rng), inplace=True, mask=m, next_mask=m)
        if s.terminated.any():
            E.reset(s, s.terminated, inplace=True, next_mask=m)
    return s, m, E.observe(s)


# ---------------------------------------------------------------------------------------------- credit
def test_gae_over_interleaved_seats_equals_a_hand_computed_example() -> None:
    """Seats 0 and 1 of game 0 decide in turn (A0, B0, A1, B1), then the game ends with +1 to seat 0 and -1 to seat
    1; seat 2 of game 1 decides once and is pending when the rollout ends (bootstrapped from 0.5)."""
    links = SeatLinks(2, 3, capacity=2)  # grows as the transitions come
    for game, seat in ((0, 0), (0, 1), (0, 0), (0, 1)):
        links.decide(np.array([game]), np.array([seat]))
    links.decide(np.array([1]), np.array([2]))
    links.end(np.array([0]), np.array([[1.0, -1.0, 0.0]]))
    n = links.size
    assert links.next[:n].tolist() == [2, 3, -1, -1, -1] and links.done[:n].tolist() == [0, 0, 1, 1, 0]
    values = np.array([0.5, 0.2, 0.6, -0.3, 0.1], np.float32)
    boot = np.array([0, 0, 0, 0, 0.5], np.float32)
    adv, ret = gae(values, links.reward[:n], links.done[:n], links.next[:n], boot, links.starts, 0.9, 0.8)
    # by hand: seat 0: d2 = 1 - 0.6 = 0.4, d0 = 0.9 * 0.6 - 0.5 = 0.04, A0 = 0.04 + 0.72 * 0.4 = 0.328
    #          seat 1: d3 = -1 + 0.3 = -0.7, d1 = 0.9 * -0.3 - 0.2 = -0.47, A1 = -0.47 + 0.72 * -0.7 = -0.974
    #          seat 2 of game 1: A4 = 0.9 * 0.5 - 0.1 = 0.35 (pending: one step, bootstrapped)
    assert adv == pytest.approx([0.328, -0.974, 0.4, -0.7, 0.35], abs=1e-6)
    assert ret == pytest.approx(adv + values, abs=1e-6)


def test_a_seats_reward_reaches_only_its_own_transitions() -> None:
    links = SeatLinks(2, 3)
    for games, seats in (([0, 1], [0, 2]), ([0, 1], [1, 0]), ([0], [2]), ([0, 1], [0, 2])):
        links.decide(np.array(games), np.array(seats))
    # game 0: seat 0 at 0 and 5, seat 1 at 2, seat 2 at 4; game 1: seat 2 at 1 and 6, seat 0 at 3
    links.end(np.array([0]), np.array([[1.0, -2.0, 3.0]]))
    rewarded = {i: float(r) for i, r in enumerate(links.reward[: links.size]) if r}
    assert rewarded == {5: 1.0, 2: -2.0, 4: 3.0}  # each seat's last transition of game 0, nothing of game 1
    assert links.done[: links.size].tolist() == [0, 0, 1, 0, 1, 1, 0]
    idx, games, seats = links.open()
    assert sorted(zip(idx.tolist(), games.tolist(), seats.tolist(), strict=True)) == [(3, 1, 0), (6, 1, 2)]


# ---------------------------------------------------------------------------------------------- masks
def test_no_illegal_action_is_ever_sampled_and_illegal_logits_get_no_probability() -> None:
    g = torch.Generator().manual_seed(0)
    rng = np.random.default_rng(0)
    for _ in range(20):
        mask = torch.from_numpy(rng.random((500, 40)) < rng.uniform(0.02, 0.5))
        mask[torch.arange(500), torch.from_numpy(rng.integers(0, 40, 500))] = True
        logits = torch.from_numpy(rng.normal(0, 30, (500, 40)).astype(np.float32))
        logits[~mask] += 1e6  # the illegal actions are the network's favourites
        a, logp = sample(logits, mask, g)
        assert mask[torch.arange(500), a].all() and torch.isfinite(logp).all()
        assert (torch.softmax(masked(logits, mask), dim=1)[~mask] == 0).all()
    # the frequencies follow the masked softmax
    logits = torch.tensor([[0.0, 1.0, 2.0, 3.0, 9.0]]).repeat(40_000, 1)
    mask = torch.tensor([[True, False, True, True, False]]).repeat(40_000, 1)
    a, _ = sample(logits, mask, g)
    freq = torch.bincount(a, minlength=5).double() / a.numel()
    want = torch.softmax(torch.tensor([0.0, -1e9, 2.0, 3.0, -1e9]).double(), 0)
    assert freq.tolist() == pytest.approx(want.tolist(), abs=0.01)


def test_a_native_policy_file_gives_illegal_actions_minus_infinity(tmp_path) -> None:
    result = train(tiny(tmp_path / "run"))
    agent = make_agent("ppo", path=result.policy)
    _, mask, obs = positions("industry")
    logits = agent.logits(obs, mask)
    assert np.isneginf(logits[~mask]).all() and np.isfinite(logits[mask]).all()
    assert mask[np.arange(len(mask)), agent.act_batch(obs, mask)].all()


# ---------------------------------------------------------------------------------------------- networks
def test_the_compact_cells_give_the_network_what_the_whole_observation_gives() -> None:
    """20th Century's grids are kept as their occupied cells only; the encoder computes the same features from them,
    and a rollout's minibatch of them gives back each observation's own cells."""
    from industry_env.train.credit import SeatLinks
    from industry_env.train.selfplay import Rollout

    game = "twentieth_century"
    _, mask, obs = positions(game, n=12, moves=60)
    spec = load_game(game)
    codec = codec_for(game, spec.observation_size(), "cells", "grids")
    net = ActorCritic(spec.observation_size(), spec.num_actions(), [32], codec, [8, 4])
    packed = codec.pack(obs)
    assert 0 < packed.cells.shape[0] < 0.5 * 12 * codec.cells  # most cells are empty
    with torch.no_grad():
        dense = net.features_extractor.encoder(torch.from_numpy(obs))  # the ppo agent's encoder on whole rows
        assert torch.allclose(net.features(packed), dense, atol=1e-6)
        buf = Rollout(codec, spec.num_actions(), 4, torch.device("cpu"), SeatLinks(12, 4))
        for part in (slice(0, 5), slice(5, 12)):  # two steps' decisions, kept one after the other
            buf.add(codec.pack(obs[part]), torch.from_numpy(mask[part]), torch.zeros(len(obs[part]), dtype=torch.int64),
                    torch.zeros(len(obs[part])), np.zeros(len(obs[part]), np.float32))  # fmt: skip
        buf.finish()
        idx = torch.tensor([11, 0, 6, 3])
        again = net.features(buf.batch(idx))
        assert torch.allclose(again, dense[idx], atol=1e-6)


def test_value_normalisation_keeps_the_values_it_predicted() -> None:
    """When the returns' statistics move, the value head is rescaled: its predictions in returns stay the same."""
    head = torch.nn.Linear(8, 1)
    x = torch.randn(64, 8)
    vn = ValueNorm()
    before = vn.denormalize(head(x).detach().numpy())
    vn.update(np.random.default_rng(0).normal(3.0, 5.0, 1000).astype(np.float32), head)
    assert vn.mean == pytest.approx(3.0, abs=0.5) and vn.std == pytest.approx(5.0, abs=0.5)
    assert vn.denormalize(head(x).detach().numpy()) == pytest.approx(before, abs=1e-4)


# ---------------------------------------------------------------------------------------------- runs
@pytest.mark.parametrize("name", sorted(n for n in shipped_configs() if framework_of(load_config(n)) == "native"))
def test_each_shipped_config_trains_natively_into_a_policy_the_ppo_agent_plays(name, tmp_path) -> None:
    """Every shipped config but those of search self-play (tests/test_train_az.py trains those)."""
    short = ["imitation_steps=128"] if load_config(name).imitation_steps else []  # its imitation stage, briefly
    result = train(tiny(tmp_path / "run", "total_timesteps=256", "num_envs=16", *short, config=name))
    cfg = load_config(tmp_path / "run" / "config.toml")
    assert result.timesteps >= 256 and result.updates >= 1 and result.policy.is_file()
    assert set(result.shares) >= {"engine", "opponents", "buffers", "inference", "update", "other", "learner"}
    parts = ("engine", "opponents", "buffers", "inference", "update", "other")
    assert sum(result.shares[k] for k in parts) == pytest.approx(1.0, abs=1e-6)
    assert result.shares["learner"] > 0 and result.shares["engine"] > 0 and result.shares["opponents"] > 0
    assert result.steps_per_second > 0
    for path in (result.policy, result.final):  # the policy file, and the checkpoint read as a MaskablePPO zip is
        agent = make_agent("ppo", path=path, game=cfg.game)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            table = Arena([agent, "random", "random", "random"], games=4, seed=1, game=cfg.game).run().table()
        assert table[0]["games"] == 4 and sum(r["wins"] for r in table) == pytest.approx(4)


def test_same_seed_same_weights_and_resume_continues_from_the_checkpoint(tmp_path) -> None:
    first = train(tiny(tmp_path / "a", "total_timesteps=768", "checkpoint_every=256", "eval_every=512",
                       "eval_games=4", "eval_opponent=random"))  # fmt: skip
    second = train(tiny(tmp_path / "b", "total_timesteps=768", "checkpoint_every=256", "eval_every=512",
                        "eval_games=4", "eval_opponent=random"))  # fmt: skip
    assert (tmp_path / "a" / "final.npz").read_bytes() == (tmp_path / "b" / "final.npz").read_bytes()
    steps = sorted(int(p.stem.split("_")[1]) for p in (tmp_path / "a" / "checkpoints").glob("step_*.zip"))
    assert len(steps) == 3 and steps[-1] == first.timesteps == second.timesteps
    league = json.loads((tmp_path / "a" / "final.league.json").read_text())
    assert len(league["snapshots"]) == 1 and (tmp_path / "a" / "snapshots" / league["snapshots"][0]["file"]).is_file()
    # resume from the second checkpoint (after the first evaluation): the step count, the optimizer and the league
    # go on, and the abandoned continuation's later files are set aside
    middle = tmp_path / "a" / "checkpoints" / f"step_{steps[1]}.zip"
    kept = json.loads((tmp_path / "a" / "checkpoints" / f"step_{steps[1]}.league.json").read_text())["evals"]
    assert [e["timesteps"] for e in kept] == [first.evals[0]["timesteps"]]
    resumed = train(tiny(tmp_path / "a", f"resume={middle}", "total_timesteps=1280", "checkpoint_every=256",
                         "eval_every=512", "eval_games=4", "eval_opponent=random"))  # fmt: skip
    assert resumed.timesteps >= 1280 and resumed.updates >= 1
    assert resumed.evals[0] == first.evals[0] and len(resumed.evals) == 2 and resumed.evals[1]["timesteps"] >= 1024
    import io
    import zipfile

    with zipfile.ZipFile(resumed.final) as z:
        data = json.loads(z.read("data"))
        optim = torch.load(io.BytesIO(z.read("optimizer.pth")), weights_only=True)
    assert data["framework"] == "native" and data["num_timesteps"] == resumed.timesteps
    adam_steps = float(next(iter(optim["state"].values()))["step"])
    assert adam_steps > resumed.updates  # the optimizer's steps before the checkpoint are counted on
    assert any((tmp_path / "a" / "superseded").iterdir())  # the abandoned continuation is kept aside


def test_resuming_with_another_network_is_refused_before_the_folder_is_touched(tmp_path) -> None:
    run = tmp_path / "run"
    train(tiny(run, "checkpoint_every=256", "total_timesteps=768"))
    early = sorted(run.glob("checkpoints/step_*.zip"))[0]
    before = {p: p.read_bytes() for p in run.rglob("*") if p.is_file() and p.name != ".lock"}
    with pytest.raises(ConfigError, match="not a checkpoint of this configuration's network.*nothing in the folder"):
        train(tiny(run, f"resume={early}", "net_arch=64,64", "total_timesteps=1536"))
    assert {p: p.read_bytes() for p in run.rglob("*") if p.is_file() and p.name != ".lock"} == before


def test_each_trainer_refuses_the_others_checkpoints_and_keys(tmp_path) -> None:
    pytest.importorskip("sb3_contrib")
    native = train(tiny(tmp_path / "n"))
    with pytest.raises(ConfigError, match="a checkpoint of the native trainer; resume it with --framework native"):
        train(tiny(tmp_path / "n", f"resume={native.final}", "total_timesteps=1024"), framework="sb3")
    sb3 = train(tiny(tmp_path / "s", "num_envs=8", "n_steps=32", "total_timesteps=256"), framework="sb3")
    with pytest.raises(ConfigError, match="a checkpoint of the SB3 trainer .*resume it with --framework sb3"):
        train(tiny(tmp_path / "s", f"resume={sb3.final}", "total_timesteps=1024"))
    for key in ("imitation_steps=100", "device=cuda", "precision=bfloat16"):
        with pytest.raises(ConfigError, match=f"{key.split('=')[0]} = .*a key of the native trainer"):
            train(tiny(tmp_path / "x", key), framework="sb3")
    assert not (tmp_path / "x").exists()  # refused before anything was written


@pytest.mark.skipif(torch.cuda.is_available(), reason="this machine has CUDA: auto picks it")
def test_device_auto_is_the_cpu_without_cuda_and_cuda_is_refused_by_name(tmp_path) -> None:
    assert pick_device("auto") == torch.device("cpu")
    with pytest.raises(ConfigError, match="device = 'cuda': torch sees no CUDA device"):
        train(tiny(tmp_path / "run", "device=cuda"))
    assert not (tmp_path / "run").exists()
    with pytest.raises(ConfigError, match="device = 'gpu'"):
        load_config(None, ["device=gpu"])


def test_the_imitation_stage_learns_the_heuristics_moves(tmp_path) -> None:
    """Before PPO, the policy imitates the heuristic in the learner's seat: it agrees with the heuristic's moves far
    more often than an untrained policy does."""
    result = train(tiny(tmp_path / "run", "imitation_steps=6000", "imitation_epochs=4", "total_timesteps=1",
                        "net_arch=64,64", "learning_rate=0.001"))  # fmt: skip
    imitator = make_agent("ppo", path=result.policy)
    heuristic = make_agent("heuristic", seed=0)
    state, mask, obs = positions("industry", n=600, moves=32, seed=3)
    choice = mask.sum(axis=1) >= 3  # positions with a choice to make
    moves = heuristic.act_state(state, mask)[choice]
    agree = (imitator.act_batch(obs, mask)[choice] == moves).mean()
    fresh = train(tiny(tmp_path / "fresh", "total_timesteps=1", "net_arch=64,64"))
    untrained = (make_agent("ppo", path=fresh.policy).act_batch(obs, mask)[choice] == moves).mean()
    assert choice.sum() > 100 and agree > untrained + 0.2, (agree, untrained, choice.sum())


def test_the_bench_command_runs_both_trainers_and_prints_their_ratio(capsys) -> None:
    pytest.importorskip("sb3_contrib")
    from industry_env.cli import main

    argv = ["train", "--bench", "--seconds", "3", *sum((["--set", o] for o in [*TINY, "num_envs=64"]), [])]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "native:" in out and "sb3:" in out and "native / sb3:" in out
    assert "everything but the learner's arithmetic" in out


@pytest.mark.slow
def test_a_minute_of_native_training_beats_random_players(tmp_path) -> None:
    result = train(load_config("ppo_industry", [f"run_dir={tmp_path / 'run'}", "progress=false", "eval_every=0",
                                                "checkpoint_every=0", "time_limit_minutes=1", "opponents=random",
                                                "opponent_weights=1", "num_envs=512", "n_steps=8"]))  # fmt: skip
    warnings.simplefilter("ignore")
    table = Arena([make_agent("ppo", path=result.policy), "random", "random", "random"], games=400,
                  seed=5).run().table()  # fmt: skip
    assert table[0]["win_rate"] > 0.5, table[0]


def test_evaluations_and_checkpoints_fall_due_every_period_and_keep_their_rhythm_on_resume() -> None:
    s = Schedule(0, 100, 250)
    due = {step: s.due(step) for step in (64, 128, 192, 256, 320, 512)}
    assert [k for k, (e, _) in due.items() if e] == [128, 256, 320, 512]  # the first update past each 100
    assert [k for k, (_, c) in due.items() if c] == [256, 512]
    resumed = Schedule(1030, 100, 0)  # a run resumed at step 1,030: next evaluation at 1,100, no checkpoints
    assert [resumed.due(step) for step in (1090, 1100, 1150)] == [(False, False), (True, False), (False, False)]
