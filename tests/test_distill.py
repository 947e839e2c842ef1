"""Distillation (industry_env.train.distill): records of agents' games hold every kept decision with its seat's
outcome, cells kept apart come back as they were, records merge with their games apart, and the fit writes a
policy-value file the ``net`` and ``az`` agents play; bad input is refused by name."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from industry_env.agents import make_agent  # noqa: E402
from industry_env.agents.az import load_network  # noqa: E402
from industry_env.agents.ppo import load_actor, shipped_path  # noqa: E402
from industry_env.train.distill import Record, fit, main, merge, record  # noqa: E402

from industry_env.registry import load_game  # noqa: E402


@pytest.fixture(autouse=True)
def one_torch_thread():
    """One torch thread: the suite runs two workers on two cores, and torch's pool beside the other is far slower."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


@pytest.fixture(scope="module")
def aoi_record() -> Record:
    return record("age_of_industry", ["heuristic", "random"], games=6, seed=3, batch=3)


def test_every_kept_decision_has_its_seats_outcome_and_every_game_a_winner(aoi_record: Record) -> None:
    r = aoi_record
    assert r.games == 6 and r.size > 100
    assert set(np.unique(r.outcome)) <= {-1.0, 0.0, 1.0}
    for g in np.unique(r.game):
        rows = r.game == g
        by_seat = {int(s): set(r.outcome[rows & (r.seat == s)].tolist()) for s in np.unique(r.seat[rows])}
        assert all(len(v) == 1 for v in by_seat.values()), "a seat has one outcome per game"
        results = [v.pop() for v in by_seat.values()]
        assert 1.0 in results or set(results) == {0.0}
    masks = np.unpackbits(r.mask, axis=1, count=r.num_actions).astype(bool)
    assert masks[np.arange(r.size), r.action].all(), "every recorded move is legal"
    assert (masks.sum(axis=1) > 1).all(), "only decisions with a choice are kept"
    assert set(np.unique(r.agent)) == {0, 1}


def test_the_same_seed_records_the_same_games() -> None:
    a = record("age_of_industry", ["random"], games=2, seed=5, batch=2)
    b = record("age_of_industry", ["random"], games=2, seed=5, batch=2)
    assert np.array_equal(a.action, b.action) and np.array_equal(a.rest, b.rest)


def test_cells_kept_apart_come_back_as_they_were(tmp_path: Path) -> None:
    r = record("twentieth_century", ["random"], games=2, seed=1, batch=2, piece="grids", keep=0.5)
    p = r.save(tmp_path / "r.npz")
    back = Record.load(p)
    assert back.piece == "grids" and back.size == r.size and back.cells.shape[1] == r.cells.shape[1] > 1
    rows = np.array([0, r.size // 2, r.size - 1])
    rest, cells, owner, index = back.observations(rows)
    for k, row in enumerate(rows):
        mine = back.cell_row == row
        assert np.array_equal(cells[owner == k], back.cells[mine])
        assert np.array_equal(index[owner == k], back.cell_index[mine])
    assert np.array_equal(rest, back.rest[rows])


def test_merged_records_keep_their_games_and_cells_apart() -> None:
    a = record("twentieth_century", ["random"], games=1, seed=1, batch=1, piece="grids", keep=0.3)
    b = record("twentieth_century", ["random"], games=2, seed=2, batch=2, piece="grids", keep=0.3)
    m = merge([a, b])
    assert m.size == a.size + b.size and m.games == 3
    assert set(np.unique(m.game)) == set(np.unique(a.game)) | {g + 1 for g in np.unique(b.game)}
    _, cells, owner, _ = m.observations(np.array([a.size]))  # the first decision of the second record
    assert np.array_equal(cells, b.cells[b.cell_row == 0])
    with pytest.raises(ValueError, match="different games"):
        merge([a, record("age_of_industry", ["random"], games=1, seed=1, batch=1)])


def test_the_fit_keeps_the_given_policy_and_learns_a_value_the_agents_play(aoi_record: Record,
                                                                           tmp_path: Path) -> None:  # fmt: skip
    small = {"net_arch": (32,), "device": "cpu"}  # a small network for speed (the shipped policy's sizes: the docs)
    init = fit(aoi_record, tmp_path / "init.npz", imitate=["random"], epochs=1, **small).path
    out = fit(aoi_record, tmp_path / "kept.npz", init=str(init), epochs=60, held_out=0.2, **small)
    assert out.path.exists() and np.isnan(out.policy_agreement)
    ours, theirs = load_actor(out.path, "age_of_industry"), load_actor(init, "age_of_industry")
    for a, b in zip(list(ours), list(theirs), strict=True):
        if hasattr(a, "weight"):
            assert np.array_equal(np.asarray(a.weight), np.asarray(b.weight))
    net = load_network(out.path, "age_of_industry")
    train = ~np.isin(aoi_record.game, np.unique(aoi_record.game)[:0])
    rest, *_ = aoi_record.observations(np.flatnonzero(train))
    v = net.values(rest.astype(np.float32))
    # fitted to these games' outcomes: the winners' positions valued above the others'
    z = aoi_record.outcome[train]
    assert v[z > 0].mean() > v[z < 0].mean() + 0.3
    for name in ("net", "az"):
        agent = make_agent(name, seed=0, game="age_of_industry", path=str(out.path),
                           **({"simulations": 8, "batch": 4} if name == "az" else {}))  # fmt: skip
        spec = load_game("age_of_industry")
        E = spec.engine
        s = E.init(2, num_players=4, seed=[1, 2])
        obs, mask = E.observe(s), E.legal_action_mask(s)
        acts = agent.act_batch(obs, mask)
        assert mask[np.arange(2), acts].all()


def test_imitation_learns_the_imitated_agents_moves(tmp_path: Path) -> None:
    r = record("twentieth_century", ["heuristic"], games=4, seed=2, batch=4, piece="grids")
    out = fit(r, tmp_path / "imit.npz", imitate=["heuristic"], epochs=40, held_out=0.25, device="cpu",
              net_arch=(64,), cell_arch=(8, 4))  # fmt: skip
    assert out.policy_agreement > 0.5, out.summary()
    agent = make_agent("net", seed=0, game="twentieth_century", path=str(out.path))
    E = load_game("twentieth_century").engine
    s = E.init(1, num_players=4, seed=[3])
    assert E.legal_action_mask(s)[0, agent.act_batch(E.observe(s), E.legal_action_mask(s))[0]]


def test_bad_input_is_refused_by_name(aoi_record: Record, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="init= .* or imitate="):
        fit(aoi_record, tmp_path / "x.npz")
    with pytest.raises(ValueError, match=r"imitate=\['ppo'\] did not play"):
        fit(aoi_record, tmp_path / "x.npz", imitate=["ppo"])
    with pytest.raises(ValueError, match="init = .* are not this configuration"):
        fit(aoi_record, tmp_path / "x.npz", init=str(shipped_path("age_of_industry")), net_arch=(64,), epochs=1)
    with pytest.raises(ValueError, match="keep="):
        record("age_of_industry", ["random"], games=1, keep=0)
    with pytest.raises(ValueError, match="at least one agent"):
        record("age_of_industry", [], games=1)
    bad = tmp_path / "bad.npz"
    np.savez(bad, description=np.array(json.dumps({"format": "other"})))
    with pytest.raises(ValueError, match=r"bad\.npz: not a record"):
        Record.load(bad)
    assert not (tmp_path / "x.npz").exists()


def test_the_command_records_and_fits(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = tmp_path / "r.npz"
    assert main(["record", "--game", "age_of_industry", "--agents", "random", "--games", "2", "--batch", "2",
                 "--out", str(rec)]) == 0  # fmt: skip
    assert main(["fit", str(rec), "--out", str(tmp_path / "f.npz"), "--imitate", "random", "--net-arch", "32",
                 "--epochs", "2", "--device", "cpu"]) == 0  # fmt: skip
    said = capsys.readouterr().out
    assert "decisions of 2 games" in said and "held out" in said
    load_network(tmp_path / "f.npz", "age_of_industry")
    before = rec.read_bytes()
    with pytest.raises(SystemExit):
        main(["record", "--game", "age_of_industry", "--agents", "random", "--games", "1", "--out", str(rec)])
    assert "exists: give --overwrite" in capsys.readouterr().err and rec.read_bytes() == before
    assert main(["fit", str(tmp_path / "missing.npz"), "--imitate", "random", "--out", str(tmp_path / "g.npz")]) == 2
    assert "missing.npz: not a record" in capsys.readouterr().err and not (tmp_path / "g.npz").exists()
