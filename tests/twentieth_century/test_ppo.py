"""20th Century's MaskablePPO: the shipped config loads and validates, the cell encoder (``encoder = "cells"``)
trains, resumes, exports a policy file that plays through ``make_agent("ppo", game="twentieth_century")`` with
torch or numpy alike, and files of another game or damaged ones are refused naming what is wrong.

The shipped policy predates the lifting of ruling 18: it reads the older window layout (a nation as the 9 x 9
cells around its starting tile: 23,006 floats, 521 actions), which :mod:`industry_env.games.twentieth_century.window`
translates today's tile slots into; it plays whole games legally through it, also once a nation reaches past the
window."""

from __future__ import annotations

import json
import sys

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")
torch = pytest.importorskip("torch")

from industry_env.agents import AgentInputError, PPOAgent, make_agent  # noqa: E402
from industry_env.agents import ppo as P  # noqa: E402
from industry_env.agents.policy_layouts import io_sizes  # noqa: E402
from industry_env.train import ConfigError, load_config, shipped_configs, train  # noqa: E402

from industry_env.arena import Arena  # noqa: E402
from industry_env.games.twentieth_century import actions as A  # noqa: E402
from industry_env.games.twentieth_century import window as W  # noqa: E402
from industry_env.games.twentieth_century.reference import Game  # noqa: E402
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
    assert encoder is not None and (encoder.piece, encoder.cells, encoder.features) == ("grids", 5 * 46, 56)
    assert from_zip.older_layout is None  # trained on today's layout: plays it as it is
    path = from_zip.save(tmp_path / "tc.npz")
    with np.load(path, allow_pickle=False) as z:
        description = json.loads(str(z["description"]))
    assert description["format"] == P.ENCODER_FORMAT and description["game"] == GAME
    assert description["encoder"] == {"kind": "cells", "piece": "grids", "activation": "ReLU", "layers": 2,
                                      "cells": 230, "sizes": [56, 8, 4]}  # fmt: skip
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


def test_the_shipped_policy_is_a_cell_encoder_of_the_window_layout_and_plays_from_the_package() -> None:
    """``make_agent("ppo", game="twentieth_century")`` plays the policy file shipped in the game's data folder:
    weights only, the cell encoder over the nations' grids of the older window layout (81 cells of 54 features a
    seat, 23,006 floats, 521 actions), legal moves on real positions, the same with torch and numpy."""
    path = P.shipped_path(GAME)
    assert path.name == "ppo_twentieth_century.npz" and path.is_file() and "ppo" in SPEC.agents
    with np.load(path, allow_pickle=False) as z:
        description = json.loads(str(z["description"]))
    assert description["game"] == GAME and description["encoder"]["kind"] == "cells"
    assert description["sizes"][-1] == W.WINDOW_NUM_ACTIONS == 521
    agent = make_agent("ppo", game=GAME, seed=0)
    encoder = P.encoder_of(agent.actor)
    assert encoder is not None and (encoder.piece, encoder.cells, encoder.features) == ("grids", 405, 54)
    assert encoder.observation_size == W.WINDOW_OBSERVATION_SIZE == 23006
    assert agent.older_layout is not None and agent.older_layout.name == "window"
    assert io_sizes(agent.actor) == (W.WINDOW_OBSERVATION_SIZE, W.WINDOW_NUM_ACTIONS)
    obs, masks = _observations()
    actions = agent.act_batch(obs, masks)
    assert masks[np.arange(len(actions)), actions].all()
    assert np.array_equal(actions, make_agent(f"ppo:{path}", game=GAME).act_batch(obs, masks))
    numpy_agent = PPOAgent.from_actor(P.load_actor(path, GAME, backend="numpy"), game=GAME)
    assert numpy_agent.torch is None and numpy_agent.older_layout is not None
    assert np.array_equal(numpy_agent.act_batch(obs, masks), actions)


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
    refused("cell encoder layer 0 takes 55 inputs but gets 56 \\(the 56 features of a cell of 'grids'\\)",
            cell_weight_0=arrays["cell_weight_0"][:, :55])  # fmt: skip
    refused("cell encoder layer 1 takes 8 inputs but gets 7", cell_weight_0=arrays["cell_weight_0"][:7],
            cell_bias_0=arrays["cell_bias_0"][:7])  # fmt: skip
    refused("cell encoder layer 1 holds NaN or infinite weights", cell_bias_1=arrays["cell_bias_1"] * np.nan)
    width = 14016 - 230 * 56 + 230 * 4  # the observation without the grids, then each of their cells' 4 features
    refused(f"layer 0 takes 1000 inputs but gets {width} \\(the cell encoder's features\\)",
            weight_0=arrays["weight_0"][:, :1000])  # fmt: skip
    flat = {**about, "format": P.POLICY_FORMAT}
    flat.pop("encoder")  # an encoder's layers read as a flat MLP: refused by the first layer's width
    refused(f"layer 0 takes {width} inputs, not the 14016 or 23006 floats of an observation of 20th Century",
            description=np.array(json.dumps(flat)))  # fmt: skip
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


# ---------------------------------------------------------------------------------- the window layout (window.py)
OLD = {"cell": 178, "rotate": 259, "city": 263, "use": 506, "bridge": 516, "done": 520}  # the window's blocks
HALF = 4  # a cell (x, y) is inside the 9 x 9 window when |x|, |y| <= 4


def _inside(game: Game) -> bool:
    """Whether every seat's nation lies inside the window around its starting tile."""
    return all(max(abs(c) for k in range(game.slots(p)) for c in game.cell_of(p, k)) <= HALF for p in range(game.n))


def _positions(games: int = 3, every: int = 3) -> list[Game]:
    """Positions of random games of 3, 4 and 5 players (every ``every``-th decision), copies."""
    out = []
    for seed in range(games):
        rng = np.random.default_rng(seed)
        game = SPEC.reference(3 + seed % 3, seed=seed)
        k = 0
        while not game.is_over:
            if k % every == 0:
                out.append(game.clone())
            game.apply(int(rng.choice(game.legal_actions())))
            k += 1
    return out


@pytest.fixture(scope="module")
def positions() -> list[Game]:
    return _positions()


@pytest.fixture(scope="module")
def long_nation() -> list[Game]:
    """The positions of a game whose seat 0 attaches every tile east in one line, far past the window."""
    from .helpers import greedy_line_game

    _, played = greedy_line_game(3, 0)
    game, out = Game(3, seed=0), []
    for a in played:
        out.append(game.clone())
        game.apply(a)
    assert not _inside(out[-1]) and max(out[-1].cell_of(0, k)[0] for k in range(out[-1].slots(0))) > 2 * HALF
    return out


def test_the_window_layout_is_todays_with_81_cells_of_54_features() -> None:
    new = {p.name: p for p in SPEC.observation_layout()}
    old = {p.name: p for p in W.window_layout()}
    assert list(new) == list(old) and W.WINDOW_OBSERVATION_SIZE == 23006 and W.WINDOW_NUM_ACTIONS == 521
    assert new["grids"].shape == (5, 46, 56) and old["grids"].shape == (5, 81, 54)
    assert all(old[k].shape == new[k].shape for k in new if k != "grids")
    assert old["unseen"].offset + old["unseen"].size == W.WINDOW_OBSERVATION_SIZE
    assert SPEC.observation_size() == 14016 and SPEC.num_actions() == A.NUM_ACTIONS == 749
    (older,) = SPEC.older_layouts()
    assert (older.name, older.observation_size, older.num_actions) == ("window", 23006, 521)


def _expected_window(game: Game, obs: np.ndarray) -> np.ndarray:
    """The window observation of ``obs`` (seat ``game.current_player``'s), written from the game itself: each tile
    inside the window at cell (y + 4) * 9 + (x + 4) of its seat (egocentric), everything else copied."""
    new = {p.name: p for p in SPEC.observation_layout()}
    old = {p.name: p for p in W.window_layout()}
    out = np.zeros(W.WINDOW_OBSERVATION_SIZE, np.float32)
    for name, p in new.items():
        if name != "grids":
            out[old[name].slice] = obs[p.slice]
    grids = obs[new["grids"].slice].reshape(new["grids"].shape)
    window = out[old["grids"].slice].reshape(old["grids"].shape)
    for r in range(game.n):
        seat = (game.current_player + r) % game.n
        for k in range(game.slots(seat)):
            x, y = game.cell_of(seat, k)
            assert grids[r, k, 0] == 1 and tuple(grids[r, k, 54:56] * 8) == (x, y)
            if abs(x) <= HALF and abs(y) <= HALF:
                window[r, (y + HALF) * 9 + (x + HALF)] = grids[r, k, :54]
    sel = out[old["selection"].slice]
    if sel[0] == 1:
        sel[1:3] += 0.5
    return out


def test_the_window_observation_holds_each_tile_at_its_window_cell(positions, long_nation) -> None:
    """On real positions whose nations lie inside the window, the window's grids hold each seat's tiles' 54
    features at cell (y + 4) * 9 + (x + 4) and nothing else; the rest is today's vector, selection's cell 0.5
    further. Past the window, the tiles outside it are not seen."""
    inside = [g for g in positions if not g.is_over and _inside(g)]
    assert len(inside) > 100 and sum(g.phase in ("attach_rotate", "citizen") for g in inside) > 5
    obs = np.stack([SPEC.observe(g, g.current_player) for g in inside])
    got = W.window_observation(obs)
    assert got.shape == (len(inside), 23006) and got.dtype == np.float32
    expected = np.stack([_expected_window(g, o) for g, o in zip(inside, obs, strict=True)])
    assert np.array_equal(got, expected)
    old = {p.name: p for p in W.window_layout()}
    grids = got[:, old["grids"].slice].reshape(len(got), 5, 81, 54)
    tiles = [sum(g.slots(p) for p in range(g.n)) for g in inside]
    assert np.array_equal((grids[..., 0] == 1).sum(axis=(1, 2)), tiles)  # every tile seen, once
    assert (grids[:, :, 40, 3] == grids[:, :, 40, 0]).all()  # the starting tile at the centre
    assert np.array_equal(W.window_observation(obs[0]), got[:1])  # one observation: a batch of one
    past = [g for g in long_nation if not g.is_over and not _inside(g)]
    obs = np.stack([SPEC.observe(g, g.current_player) for g in past])
    got = W.window_observation(obs)
    assert np.array_equal(got, np.stack([_expected_window(g, o) for g, o in zip(past, obs, strict=True)]))
    seen = (got[:, old["grids"].slice].reshape(len(got), 5, 81, 54)[..., 0] == 1).sum(axis=(1, 2))
    assert (seen < [sum(g.slots(p) for p in range(g.n)) for g in past]).all()  # those outside: not seen


def _names_the_same_move(game: Game, a: int, old: int) -> bool:
    """Whether window action ``old`` names today's action ``a`` in ``game``: the blocks naming no cell by their
    offsets; a window cell or city as the game reads it from its cell (``cell x,y``, ``city x,y b``)."""
    if a < A.PLACE:
        return old == a
    for block, today in (("rotate", A.ROTATE), ("use", A.USE), ("bridge", A.BRIDGE), ("done", A.DONE)):
        if today <= a < today + A.SIZE[block]:
            return old == OLD[block] + a - today
    if OLD["cell"] <= old < OLD["rotate"]:
        c = old - OLD["cell"]
        return game.string_to_action(f"cell {c % 9 - HALF},{c // 9 - HALF}") == a
    if OLD["city"] <= old < OLD["use"]:
        c, j = divmod(old - OLD["city"], 3)
        return game.string_to_action(f"city {c % 9 - HALF},{c // 9 - HALF} {'abc'[j]}") == a
    return False


def test_every_legal_action_inside_the_window_has_its_window_action(positions, long_nation) -> None:
    """Each legal action of a real position maps to the window action naming the same move (the game's own
    reading of the window cell), or to -1 exactly when it acts on a cell outside the window; distinct legal
    actions to distinct window actions."""
    games = [g for g in positions + long_nation if not g.is_over]
    obs = np.stack([SPEC.observe(g, g.current_player) for g in games])
    mapped = W.window_actions(obs)
    assert mapped.shape == (len(games), 749) and mapped.dtype == np.int64
    assert mapped.min() >= -1 and mapped.max() < W.WINDOW_NUM_ACTIONS
    blocks, outside = set(), 0
    for g, row in zip(games, mapped, strict=True):
        assert g.to_move == g.current_player
        legal = g.legal_actions()
        olds = row[legal]
        assert len(set(olds[olds >= 0].tolist())) == int((olds >= 0).sum())  # distinct
        for a, old in zip(legal, olds.tolist(), strict=True):
            name = g.action_to_string(a)
            if old < 0:
                x, y = (int(v) for v in name.split("(cell ")[1].rstrip(")").split(","))
                assert max(abs(x), abs(y)) > HALF, name
                outside += 1
            else:
                assert _names_the_same_move(g, a, old), (name, old)
                blocks.add(A.block_of(a)[0])
    assert {"land", "bid", "pass", "withdraw", "tech", "catastrophe", "place", "tile", "rotate", "city", "use",
            "done"} <= blocks and outside > 0  # fmt: skip
    assert np.array_equal(W.window_actions(obs[0]), mapped[:1])


def test_the_shipped_policy_plays_whole_games_legally_through_the_window() -> None:
    """The arena plays the shipped policy against random and heuristic players: every move legal (the arena
    refuses any other)."""
    table = Arena(["ppo", "random", "heuristic", "random"], games=4, seed=3, game=GAME).run().table()
    assert sum(row["games"] for row in table) == 16 and table[0]["agent"] == "ppo" and table[0]["games"] == 4


def test_the_shipped_policy_plays_on_once_a_nation_reaches_past_the_window(long_nation) -> None:
    """From the position where seat 0's nation first reaches past the window, the shipped policy plays every seat
    to the end: every move legal. Its logits are the window policy's for the actions it sees, and lower for the
    legal ones it cannot see, which it plays where they are all it may play."""
    start = next(g for g in long_nation if not _inside(g)).clone()
    agent = make_agent("ppo", game=GAME, seed=0)
    old_actor = P.load_actor(P.shipped_path(GAME), GAME, backend="numpy")
    game, unseen = start, 0
    while not game.is_over:
        obs, mask = SPEC.observe(game, game.current_player)[None], game.legal_action_mask()[None]
        mapped = W.window_actions(obs)
        logits = agent.logits(obs, mask)
        seen, blind = mask & (mapped >= 0), mask & (mapped < 0)
        expected = old_actor(W.window_observation(obs))[0, mapped[seen]]
        np.testing.assert_allclose(logits[seen], expected, rtol=1e-5, atol=1e-5)
        if blind.any():
            unseen += 1
            assert logits[blind].max() < logits[seen].min()
            forced = agent.act_batch(obs, blind)  # only the moves outside the window allowed
            assert blind[0, forced[0]]
        action = int(agent.act_batch(obs, mask)[0])
        assert mask[0, action]
        game.apply(action)
    assert unseen > 0


def test_spread_logits_puts_the_unmapped_below_every_mapped_one() -> None:
    old = np.array([[3.0, -2.0, 5.0], [-1e30, 0.0, 1.0], [7.0, 7.0, 7.0]], np.float32)
    actions = np.array([[2, -1, 0, 1], [-1, 0, 1, 2], [-1, -1, 0, -1]], np.int64)
    got = P.spread_logits(old, actions)
    assert got.dtype == np.float32 and got.shape == (3, 4)
    for row, logits, a in zip(got, old, actions, strict=True):
        assert np.array_equal(row[a >= 0], logits[a[a >= 0]])  # each the logit of its older action
        assert np.isfinite(row).all() and row[a < 0].max() < logits.min()  # the others below all of them


def test_a_flat_policy_of_the_window_layout_plays_and_az_refuses_its_network(tmp_path) -> None:
    """Any policy of the window's sizes plays through it (here a flat one, with a value network): ``ppo`` and
    ``net`` act on the window's translation; ``az``, whose search reads today's layout, refuses it by name."""
    rng = np.random.default_rng(0)

    def layer(inputs: int, outputs: int) -> tuple[np.ndarray, np.ndarray]:
        return rng.normal(0, inputs**-0.5, (outputs, inputs)).astype(np.float32), np.zeros(outputs, np.float32)

    actor = P.NumpyActor([layer(W.WINDOW_OBSERVATION_SIZE, 8), layer(8, W.WINDOW_NUM_ACTIONS)], "Tanh")
    value = P.ValueHead([layer(W.WINDOW_OBSERVATION_SIZE, 8), layer(8, 1)], "Tanh")
    path = P.save_policy_value(actor, value, tmp_path / "window.npz", GAME)
    obs, masks = _observations()
    for name in ("ppo", "net"):
        agent = make_agent(name, game=GAME, path=path)
        assert agent.older_layout is not None and agent.older_layout.name == "window"
        expected = P.spread_logits(actor(W.window_observation(obs)), W.window_actions(obs))
        np.testing.assert_allclose(agent.logits(obs, masks)[masks], expected[masks], rtol=1e-5, atol=1e-6)
    with pytest.raises(AgentInputError, match="older window layout .*az searches with networks of today's layout"):
        make_agent("az", game=GAME, path=path)
