"""20th Century's MaskablePPO: the shipped config loads and validates, the cell encoder (``encoder = "cells"``)
trains, resumes, exports a policy file that plays through ``make_agent("ppo", game="twentieth_century")`` with
torch or numpy alike, and files of another game or damaged ones are refused naming what is wrong."""

from __future__ import annotations

import json
import sys

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")
torch = pytest.importorskip("torch")

from industry_env.agents import AgentInputError, PPOAgent, make_agent  # noqa: E402
from industry_env.agents import ppo as P  # noqa: E402
from industry_env.train import ConfigError, load_config, shipped_configs, train  # noqa: E402

from industry_env.arena import Arena  # noqa: E402
from industry_env.registry import load_game  # noqa: E402

GAME = "twentieth_century"
SPEC = load_game(GAME)
# a few hundred steps of the cell encoder at tiny sizes, an evaluation and a snapshot (about 10 s)
TINY = ["game=twentieth_century", "encoder=cells", "cell_arch=8,4", "net_arch=32,32", "num_envs=8", "n_steps=32",
        "batch_size=128", "n_epochs=1", "total_timesteps=256", "eval_every=256", "eval_games=4",
        "eval_opponent=random", "opponents=random", "opponent_weights=1", "checkpoint_every=256", "progress=false",
        "reward=score"]  # fmt: skip


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    run = tmp_path_factory.mktemp("tc_run")
    # MaskablePPO: its zip is read below
    return train(load_config(None, [*TINY, f"run_dir={run}"]), framework="sb3"), run


def _observations(n: int = 48) -> tuple[np.ndarray, np.ndarray]:
    """Observations and masks of real positions: random games stepped a few hundred decisions, seen by the seat
    to move."""
    rng = np.random.default_rng(7)
    obs, masks = [], []
    for seed in range(3):
        game = SPEC.reference(4, seed=seed)
        for _ in range(n // 3 * 6):
            if game.is_over:
                break
            if len(obs) < n and rng.random() < 0.2:
                obs.append(SPEC.observe(game, game.current_player))
                masks.append(game.legal_action_mask())
            game.apply(int(rng.choice(game.legal_actions())))
    return np.asarray(obs, np.float32), np.asarray(masks, bool)


def test_the_shipped_config_loads_validates_and_is_listed(capsys) -> None:
    from industry_env.cli import main

    cfg = load_config("ppo_twentieth_century", ["run_dir=runs/x"])
    assert "ppo_twentieth_century" in shipped_configs()
    assert cfg.game == GAME and cfg.encoder == "cells" and cfg.cell_piece == "grids" and cfg.num_players == 4
    assert cfg.eval_opponent == "heuristic" and "heuristic" in cfg.opponents and cfg.torch_threads == 1
    assert 0 < cfg.time_limit_minutes <= 120  # the budget: at most 2 hours of training
    assert (cfg.n_steps * cfg.num_envs) % cfg.batch_size == 0
    assert main(["train", "--list-configs"]) == 0
    assert "ppo_twentieth_century (20th Century: --config ppo_twentieth_century)" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("override", "named"),
    [
        ("encoder=conv", "encoder = 'conv': one of 'flat', 'cells'"),
        ("cell_piece=nothing", "cell_piece = 'nothing': 20th Century's observation has no piece 'nothing' of cells to "
                               "encode \\(its pieces of two axes or more: .*grids"),
        ("cell_piece=round", "cell_piece = 'round'"),  # a vector: no cells
        ("cell_arch=8,0", "cell_arch = \\[8, 0\\]: one or more layer sizes >= 1"),
    ],
)  # fmt: skip
def test_a_bad_encoder_setting_is_refused_naming_the_key(override: str, named: str) -> None:
    with pytest.raises(ConfigError, match=named):
        load_config("ppo_twentieth_century", [override, "run_dir=runs/x"])


def test_the_cell_encoder_is_refused_for_a_game_without_that_piece() -> None:
    with pytest.raises(ConfigError, match="cell_piece = 'grids': Industry's observation has no piece 'grids'"):
        load_config(None, ["encoder=cells"])
    assert load_config(None, ["cell_piece=nothing"]).encoder == "flat"  # read only by the cell encoder


def test_the_cell_encoder_trains_and_its_policy_file_plays_through_make_agent(trained, tmp_path) -> None:
    result, run = trained
    assert result.timesteps == 256 and result.evals and (run / "snapshots").is_dir()
    from_zip = make_agent("ppo", game=GAME, path=result.final)  # read without unpickling
    encoder = P.encoder_of(from_zip.actor)
    assert encoder is not None and (encoder.piece, encoder.cells, encoder.features) == ("grids", 405, 54)
    path = from_zip.save(tmp_path / "tc.npz")
    with np.load(path, allow_pickle=False) as z:
        description = json.loads(str(z["description"]))
    assert description["format"] == P.ENCODER_FORMAT and description["game"] == GAME
    assert description["encoder"] == {"kind": "cells", "piece": "grids", "activation": "ReLU", "layers": 2,
                                      "cells": 405, "sizes": [54, 8, 4]}  # fmt: skip
    agent = make_agent("ppo", game=GAME, path=path)
    obs, masks = _observations()
    assert np.array_equal(agent.act_batch(obs, masks), from_zip.act_batch(obs, masks))
    table = Arena([f"ppo:{path}", "random", "heuristic", "random"], games=4, seed=1, game=GAME).run().table()
    assert sum(row["games"] for row in table) == 16 and table[0]["agent"] == f"ppo:{path}"


def test_the_policy_file_plays_as_the_live_policy_it_came_from(trained) -> None:
    """The exported actor (encoder, policy MLP, action head) gives the logits of MaskablePPO's own policy."""
    from sb3_contrib import MaskablePPO

    result, _ = trained
    model = MaskablePPO.load(result.final, device="cpu")  # our own run's zip: unpickling it is ours to do
    obs, masks = _observations()
    with torch.no_grad():  # the policy's raw logits, before its masking
        features = model.policy.extract_features(torch.from_numpy(obs), model.policy.pi_features_extractor)
        expected = model.policy.action_net(model.policy.mlp_extractor.forward_actor(features)).numpy()
        expected = np.where(masks, expected, -np.inf)
    live = PPOAgent.from_policy(model.policy, game=GAME)
    for agent in (live, make_agent("ppo", game=GAME, path=result.final)):
        got = agent.logits(obs, masks)
        np.testing.assert_allclose(got[masks], expected[masks], rtol=1e-5, atol=1e-5)
        assert np.array_equal(agent.act_batch(obs, masks), expected.argmax(axis=1))


def test_the_numpy_cell_encoders_logits_are_torchs(trained, tmp_path) -> None:
    """Both backends run the same float32 layers in the same order of features (the rest of the observation, then
    each cell's encoding): their logits agree to float32 rounding and their actions exactly."""
    path = make_agent("ppo", game=GAME, path=trained[0].final).save(tmp_path / "tc.npz")
    numpy_actor, torch_actor = P.load_actor(path, GAME, backend="numpy"), P.load_actor(path, GAME, backend="torch")
    assert isinstance(numpy_actor, P.NumpyActor) and isinstance(torch_actor, torch.nn.Sequential)
    assert isinstance(P.encoder_of(numpy_actor), P.NumpyCellEncoder)
    rng = np.random.default_rng(0)
    real, _ = _observations()
    size = SPEC.observation_size()
    for x in (real, rng.normal(size=(256, size)), rng.integers(0, 5, size=(256, size))):
        x = x.astype(np.float32)
        expected = torch_actor(torch.from_numpy(x)).numpy()
        got = numpy_actor(x)
        assert got.dtype == np.float32 and got.shape == expected.shape == (len(x), SPEC.num_actions())
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)
        assert np.array_equal(got.argmax(axis=1), expected.argmax(axis=1))


def test_without_torch_the_cell_policy_file_plays_with_numpy(trained, tmp_path, monkeypatch) -> None:
    path = make_agent("ppo", game=GAME, path=trained[0].final).save(tmp_path / "tc.npz")
    obs, masks = _observations()
    expected = make_agent("ppo", game=GAME, path=path).act_batch(obs, masks)
    monkeypatch.setitem(sys.modules, "torch", None)  # as if torch were not installed
    agent = make_agent("ppo", game=GAME, path=path)
    assert agent.torch is None and isinstance(agent.actor, P.NumpyActor)
    assert np.array_equal(agent.act_batch(obs, masks), expected)
    again = agent.save(tmp_path / "again.npz")  # saving needs no torch either, and writes the same arrays
    with np.load(path) as a, np.load(again) as b:
        assert sorted(a.files) == sorted(b.files) and all(np.array_equal(a[k], b[k]) for k in a.files)


def test_a_resumed_cell_run_reads_its_snapshots_and_continues(trained, tmp_path) -> None:
    import shutil

    _, run = trained
    copy = tmp_path / "run"
    shutil.copytree(run, copy)
    cfg = load_config(None, [*TINY, f"run_dir={copy}", "resume=latest", "total_timesteps=512"])
    result = train(cfg, framework="sb3")
    assert result.timesteps == 512 and P.encoder_of(make_agent("ppo", game=GAME, path=result.final).actor)


def test_the_shipped_policy_is_a_cell_encoder_of_this_game_and_plays_from_the_package() -> None:
    """``make_agent("ppo", game="twentieth_century")`` plays the policy file shipped in the game's data folder:
    weights only, the cell encoder over the nations' grids, legal moves on real positions."""
    path = P.shipped_path(GAME)
    assert path.name == "ppo_twentieth_century.npz" and path.is_file() and "ppo" in SPEC.agents
    with np.load(path, allow_pickle=False) as z:
        description = json.loads(str(z["description"]))
    assert description["game"] == GAME and description["encoder"]["kind"] == "cells"
    agent = make_agent("ppo", game=GAME, seed=0)
    encoder = P.encoder_of(agent.actor)
    assert encoder is not None and (encoder.piece, encoder.cells, encoder.features) == ("grids", 405, 54)
    obs, masks = _observations()
    actions = agent.act_batch(obs, masks)
    assert masks[np.arange(len(actions)), actions].all()
    assert np.array_equal(actions, make_agent(f"ppo:{path}", game=GAME).act_batch(obs, masks))


def test_a_policy_of_another_game_or_a_damaged_file_is_refused_naming_what_is_wrong(trained, tmp_path) -> None:
    path = make_agent("ppo", game=GAME, path=trained[0].final).save(tmp_path / "tc.npz")
    with pytest.raises(AgentInputError, match="a policy of 20th Century \\(its file says so\\), not of Industry: "
                                              "load it with game='twentieth_century'"):  # fmt: skip
        make_agent("ppo", path=path)
    with pytest.raises(AgentInputError, match="policy of Industry .*not of 20th Century: load it with game=.industry"):
        make_agent("ppo", game=GAME, path=P.shipped_path("industry"))
    with pytest.raises(AgentInputError, match="a policy of Age of Industry .*not of 20th Century"):
        make_agent(f"ppo:{P.shipped_path('age_of_industry')}", game=GAME)
    arrays = dict(np.load(path))
    about = json.loads(str(arrays["description"]))
    bad = tmp_path / "bad.npz"

    def refused(match: str, **changed: np.ndarray) -> None:
        np.savez(bad, **{**arrays, **changed})
        with pytest.raises(AgentInputError, match=match):
            make_agent("ppo", game=GAME, path=bad)

    def described(**encoder: object) -> np.ndarray:
        return np.array(json.dumps({**about, "encoder": {**about["encoder"], **encoder}}))

    refused("no piece 'nothing' of cells to encode", description=described(piece="nothing"))
    refused("not a readable policy file .*expected kind 'cells'", description=described(kind="conv"))
    refused("not a readable policy file .*cell_weight_2", description=described(layers=3))
    refused("cell encoder activation 'Nope' is not one of", description=described(activation="Nope"))
    refused("cell encoder layer 0 takes 53 inputs but gets 54 \\(the 54 features of a cell of 'grids'\\)",
            cell_weight_0=arrays["cell_weight_0"][:, :53])  # fmt: skip
    refused("cell encoder layer 1 takes 8 inputs but gets 7", cell_weight_0=arrays["cell_weight_0"][:7],
            cell_bias_0=arrays["cell_bias_0"][:7])  # fmt: skip
    refused("cell encoder layer 1 holds NaN or infinite weights", cell_bias_1=arrays["cell_bias_1"] * np.nan)
    refused("layer 0 takes 1000 inputs but gets 2756 \\(the cell encoder's features\\)",
            weight_0=arrays["weight_0"][:, :1000])  # fmt: skip
    flat = {**about, "format": P.POLICY_FORMAT}
    flat.pop("encoder")  # an encoder's layers read as a flat MLP: refused by the first layer's width
    refused("layer 0 takes 2756 inputs but gets 23006 \\(the observation\\)", description=np.array(json.dumps(flat)))
    bad.write_bytes(b"not a policy at all")
    with pytest.raises(AgentInputError, match="bad.npz: neither a policy file, a MaskablePPO zip nor a PPOAgent"):
        make_agent("ppo", game=GAME, path=bad)


def test_an_empty_cell_encodes_as_an_all_zero_cell_in_both_backends(trained, tmp_path) -> None:
    """A cell whose first feature ('present') is 0 is empty: only the others go through the shared network, which
    on the game's observations (nothing written into an empty cell) is the network applied to every cell."""
    path = make_agent("ppo", game=GAME, path=trained[0].final).save(tmp_path / "tc.npz")
    numpy_actor, torch_actor = P.load_actor(path, GAME, backend="numpy"), P.load_actor(path, GAME, backend="torch")
    encoder, piece = P.encoder_of(torch_actor), P.cell_piece(GAME, "grids")
    obs, _ = _observations()
    grids = obs[:, piece.slice].reshape(len(obs), piece.shape[0] * piece.shape[1], piece.shape[2])
    assert (grids[..., 0] == 0).mean() > 0.5 and not grids[grids[..., 0] == 0].any()  # empty cells: all zeros
    with torch.no_grad():
        dense = encoder.net(torch.from_numpy(grids)).flatten(1).numpy()  # every cell through the network
        got = encoder(torch.from_numpy(obs)).numpy()
    np.testing.assert_allclose(got[:, -dense.shape[1] :], dense, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(P.encoder_of(numpy_actor)(obs), got, rtol=1e-5, atol=1e-5)
    noisy = obs.copy()
    cells = noisy[:, piece.slice].reshape(grids.shape)  # a view: writes go into noisy
    cells[..., 1:] += np.where(cells[..., :1] == 0, 3.0, 0.0).astype(np.float32)  # empty cells' other features set
    with torch.no_grad():
        assert np.array_equal(torch_actor(torch.from_numpy(noisy)).numpy(), torch_actor(torch.from_numpy(obs)).numpy())
    assert np.array_equal(numpy_actor(noisy), numpy_actor(obs))


def test_the_rllib_trainer_refuses_the_cell_encoder_rather_than_train_a_flat_network() -> None:
    pytest.importorskip("ray.rllib")
    from industry_env.rllib.selfplay import split_overrides

    with pytest.raises(ConfigError, match="encoder = 'cells': the RLlib trainer's module reads the flat observation"):
        split_overrides({"game": GAME, "encoder": "cells", "run_dir": "runs/x"})
    assert split_overrides({"game": GAME, "encoder": "flat", "run_dir": "runs/x"})[0].encoder == "flat"
