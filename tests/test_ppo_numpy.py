"""The ``ppo`` agent without torch: a policy file (``.npz``, weights only) plays with numpy alone, giving torch's
logits and actions; a MaskablePPO ``.zip`` or a ``.pt`` file still needs torch and says so (the train extra)."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest
from industry_env.agents import AgentInputError, make_agent
from industry_env.agents import ppo as P
from industry_env.agents.policy_layouts import io_sizes

from industry_env.registry import load_game

GAMES = ("industry", "age_of_industry", "twentieth_century")  # every game ships a policy file

# Whole games played by the shipped policies in a process where torch cannot be imported; prints their moves.
_WITHOUT_TORCH = """
import json, sys
sys.modules["torch"] = None  # as if torch were not installed: `import torch` raises ImportError
from industry_env.agents import make_agent
from industry_env.registry import load_game
out = {}
for g in %r:
    agent = make_agent("ppo", game=g)
    spec = load_game(g)
    game = spec.reference(seed=5, **(agent.options or {}))
    moves = []
    while not game.is_over:
        moves.append(agent.act(spec.observe(game, game.current_player), game.legal_action_mask()))
        game.apply(moves[-1])  # an illegal action would raise
    out[g] = {"actor": type(agent.actor).__name__, "torch": agent.torch is None, "moves": moves,
              "scores": game.scores()}
out["torch still blocked"] = sys.modules["torch"] is None
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def played_without_torch() -> dict:
    done = subprocess.run([sys.executable, "-c", _WITHOUT_TORCH % (GAMES,)], capture_output=True, text=True,
                          timeout=600)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def _blocked(monkeypatch) -> None:
    """As if torch were not installed (``import torch`` raises ImportError) until the test ends."""
    monkeypatch.setitem(sys.modules, "torch", None)


@pytest.mark.parametrize("game", GAMES)
def test_without_torch_the_shipped_policy_plays_whole_games_with_numpy(played_without_torch, game) -> None:
    got = played_without_torch[game]
    assert got["actor"] == "NumpyActor" and got["torch"] and played_without_torch["torch still blocked"]
    assert len(got["moves"]) > 100 and len(got["scores"]) == load_game(game).default_players


@pytest.mark.parametrize("game", GAMES)
def test_the_numpy_actor_plays_the_moves_torch_plays(played_without_torch, game) -> None:
    pytest.importorskip("torch")
    agent, spec = make_agent("ppo", game=game), load_game(game)
    assert agent.torch is not None and type(agent.actor).__name__ == "Sequential"  # torch where it is installed
    ref = spec.reference(seed=5, **(agent.options or {}))
    for move in played_without_torch[game]["moves"]:
        assert agent.act(spec.observe(ref, ref.current_player), ref.legal_action_mask()) == move
        ref.apply(move)
    assert ref.is_over and ref.scores() == played_without_torch[game]["scores"]


@pytest.mark.parametrize("game", GAMES)
def test_the_numpy_actors_logits_are_torchs_on_random_observations(game) -> None:
    """Both run the same float32 layers; only the order of the sums differs (a few float32 ulps: up to 1.3e-5 on
    Industry's logits of about 26, as far from float64's as torch's own)."""
    torch = pytest.importorskip("torch")
    path = P.shipped_path(game)
    numpy_actor, torch_actor = P.load_actor(path, game, backend="numpy"), P.load_actor(path, game, backend="torch")
    assert isinstance(numpy_actor, P.NumpyActor) and isinstance(torch_actor, torch.nn.Sequential)
    assert P.options_of_actor(numpy_actor, game) == P.options_of_actor(torch_actor, game)
    rng = np.random.default_rng(0)
    size = io_sizes(numpy_actor)[0]  # the observation it reads (20th Century's: its older window layout's)
    for x in (rng.normal(size=(512, size)), rng.uniform(size=(512, size)), rng.integers(0, 5, size=(512, size))):
        x = x.astype(np.float32)
        expected = torch_actor(torch.from_numpy(x)).numpy()
        got = numpy_actor(x)
        assert got.dtype == np.float32 and got.shape == expected.shape
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)
        assert np.array_equal(got.argmax(axis=1), expected.argmax(axis=1))


@pytest.mark.parametrize("name", P.ACTIVATIONS)
def test_each_activation_in_numpy_is_torchs(name) -> None:
    """Each activation a policy file may name, in numpy, against torch.nn's (default arguments), tails included."""
    torch = pytest.importorskip("torch")
    x = np.concatenate([np.linspace(-60, 60, 2001), np.random.default_rng(1).normal(size=2000) * 3,
                        [0.0, -0.0, 20.0, 20.5, 19.5, -1e4, 1e4]]).astype(np.float32)  # fmt: skip
    got = P.NumpyActivation(name)(x)
    expected = getattr(torch.nn, name)()(torch.from_numpy(x)).numpy()
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, expected, rtol=2e-6, atol=1e-6)


def test_without_torch_make_agent_ppo_acts_as_with_it(monkeypatch, tmp_path) -> None:
    """In one process: the agent made after torch is blocked is a numpy one and gives the torch agent's actions;
    saving and exporting it need no torch, and the file plays."""
    torch = pytest.importorskip("torch")
    E = load_game("industry").engine
    state = E.init(64, 4, seed=3)
    for _ in range(30):
        state = E.step(state, E.sample_legal(E.legal_action_mask(state), np.random.default_rng(0)))
    live = ~state.terminated
    obs, masks = E.observe(state)[live], E.legal_action_mask(state)[live]
    with_torch = make_agent("ppo", seed=2, deterministic=False)
    expected, sampled = make_agent("ppo").act_batch(obs, masks), with_torch.act_batch(obs, masks)
    assert isinstance(with_torch.actor, torch.nn.Sequential)
    _blocked(monkeypatch)
    agent = make_agent("ppo")
    assert agent.torch is None and isinstance(agent.actor, P.NumpyActor)
    assert np.array_equal(agent.act_batch(obs, masks), expected)
    assert np.array_equal(make_agent("ppo", seed=2, deterministic=False).act_batch(obs, masks), sampled)
    saved = agent.save(tmp_path / "saved.npz")
    exported = P.export_policy(saved, tmp_path / "exported.npz")
    for p in (saved, exported):
        assert np.array_equal(make_agent("ppo", path=p).act_batch(obs, masks), expected)
    with np.load(exported) as z, np.load(P.shipped_path()) as shipped:
        assert all(np.array_equal(z[k], shipped[k]) for k in shipped.files if k != "description")


def test_without_torch_a_zip_or_pt_file_names_the_train_extra(monkeypatch, tmp_path, capsys) -> None:
    from industry_env.cli import main

    _blocked(monkeypatch)
    sb3 = P.shipped_sb3_path()
    says = r"reading a MaskablePPO \.zip needs torch: pip install 'industry_env\[train\]' .*plays a policy file"
    with pytest.raises(P.TrainExtraMissing, match=says + r" \(\.npz, weights only\) without it"):
        make_agent("ppo", path=sb3)
    old = tmp_path / "old.pt"
    old.write_bytes(b"not a zip")
    with pytest.raises(P.TrainExtraMissing, match=r"old\.pt: not a policy file \(\.npz\) nor a MaskablePPO \.zip; "
                       r"reading it as a PPOAgent weights file \(\.pt\) needs torch: pip install"):  # fmt: skip
        make_agent("ppo", path=old)
    with pytest.raises(P.TrainExtraMissing, match=r"reading a MaskablePPO \.zip needs torch"):
        P.export_policy(sb3, tmp_path / "mine.npz")
    assert not (tmp_path / "mine.npz").exists()
    with pytest.raises(P.TrainExtraMissing, match=r"backend='torch' needs torch"):
        P.load_actor(P.shipped_path(), backend="torch")
    assert main(["play", "--record", "none", "--opponents", f"ppo:{sb3}"]) == 2  # a clear error, no traceback
    assert "industry_env[train]" in capsys.readouterr().err


def test_without_torch_a_policy_file_is_checked_as_with_it(monkeypatch, tmp_path) -> None:
    """The numpy checks give the same refusals: shapes, chaining, finite values, and the game named by sizes."""
    _blocked(monkeypatch)
    with np.load(P.shipped_path()) as z:
        arrays = {k: z[k] for k in z.files}
    bad = tmp_path / "bad.npz"
    cases = [
        ({"weight_2": arrays["weight_2"][:300]}, r"layer 2 has weights \[300, 128\] float32 and biases \[314\]"),
        (
            {"weight_1": arrays["weight_1"][:, :100]},
            r"layer 1 takes 100 inputs but gets 128 \(the outputs of layer 0\): the layers do not chain",
        ),
        ({"bias_0": np.full(128, np.nan, np.float32)}, "layer 0 holds NaN or infinite weights"),
        ({"weight_0": arrays["weight_0"].astype(np.int32)}, r"layer 0 has weights \[128, 675\] int32"),
        (
            {"weight_2": arrays["weight_2"][:300], "bias_2": arrays["bias_2"][:300]},
            "the last layer gives 300 outputs, not one logit for each of the 314 actions",
        ),
        (
            {"description": np.array(json.dumps({**json.loads(str(arrays["description"])), "activation": "Swish"}))},
            "activation 'Swish' is not one of Tanh, ReLU",
        ),
    ]
    for change, says in cases:
        np.savez(bad, **{**arrays, **change})
        with pytest.raises(AgentInputError, match=says):
            make_agent("ppo", path=bad)
    with np.load(P.shipped_path("age_of_industry")) as z:
        aoi = {k: z[k] for k in z.files}
    del aoi["description"]  # the sizes alone name the game
    np.savez(bad, description=np.array(json.dumps({"format": P.POLICY_FORMAT, "activation": "Tanh", "layers": 3})),
             **aoi)  # fmt: skip
    with pytest.raises(
        AgentInputError,
        match=f"a policy of Age of Industry \\(its network reads "
        f"{aoi['weight_0'].shape[1]} floats\\), not of Industry: load it with game='age_of_industry'",
    ):
        make_agent("ppo", path=bad)
    assert make_agent("ppo", path=bad, game="age_of_industry").torch is None
    with pytest.raises(AgentInputError, match="backend='jax': one of torch, numpy"):
        P.load_actor(P.shipped_path(), backend="jax")


def test_a_numpy_actor_multiplies_on_the_agents_blas_threads(monkeypatch) -> None:
    """numpy's BLAS runs on ``threads`` threads during the agent's calls (on every core by default, it made Age of
    Industry's arena 50 times slower per move on a busy 2-core CPU), and on as many as before afterwards."""
    from threadpoolctl import threadpool_info, threadpool_limits

    if not [i for i in threadpool_info() if i["user_api"] == "blas"]:
        pytest.skip("no BLAS library loaded that threadpoolctl can control")
    _blocked(monkeypatch)
    E = load_game("industry").engine
    state = E.init(4, 4, seed=1)
    agent, seen = make_agent("ppo", threads=1), []
    real = agent.raw_logits

    def blas_threads() -> set[int]:
        return {i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"}

    monkeypatch.setattr(agent, "raw_logits", lambda o, m: (seen.append(blas_threads()), real(o, m))[1])
    with threadpool_limits(limits=2, user_api="blas"):
        agent.act_batch(E.observe(state), E.legal_action_mask(state))
        assert seen == [{1}] and blas_threads() == {2}
