"""``industry-env bench --quick``: the benchmark runs end to end and writes every figure it prints."""

from __future__ import annotations

import json

import pytest

from industry_env.bench import available_backends
from industry_env.cli import main


@pytest.mark.skipif("numba" not in available_backends(), reason="compares both backends")
def test_quick_bench_writes_both_loops_of_both_backends(tmp_path, capsys) -> None:
    out = tmp_path / "bench.json"
    assert main(["bench", "--quick", "--no-envs", "--output", str(out)]) == 0
    figures = json.loads(out.read_text())
    for table in ("engine", "engine_random_step"):
        for backend in ("numpy", "numba"):
            rows = figures[table][backend]
            assert [r["batch_size"] for r in rows] == [1, 64]
            assert all(r["steps_per_second"] > 0 and r["backend"] == backend for r in rows)
            assert all(r["random_step"] == (table == "engine_random_step") for r in rows)
        numba = figures[table]["numba"]
        for r, base in zip(numba, figures[table]["numpy"], strict=True):
            assert r["speedup_vs_numpy"] == pytest.approx(r["steps_per_second"] / base["steps_per_second"])
    assert figures["start_up"]["warm_start_seconds"] > 0
    assert figures["rollout"]["numba"][0]["games_per_second"] > 0
    printed = capsys.readouterr().out
    assert "numba random_step" in printed and "numba/numpy fused" in printed


def test_the_bench_of_any_game_measures_its_engine_against_its_reference(tmp_path) -> None:
    """``bench --game``'s loops, on every game with a batched engine (Industry's generic path too)."""
    from industry_env.bench import bench_game_engine, bench_game_reference
    from industry_env.registry import available_games, load_game

    for game in available_games(include_hidden=True):
        if load_game(game).engine_module is None:
            continue
        r = bench_game_engine(game, 8, 0.05)
        ref = bench_game_reference(game, 0.05)
        assert r["steps_per_second"] > 0 and r["state_bytes_per_game"] > 0 and ref["steps_per_second"] > 0


def test_bench_refuses_a_game_without_an_engine_before_writing(tmp_path, capsys) -> None:
    from industry_env.cli import main
    from industry_env.registry import available_games, load_game

    without = [g for g in available_games(include_hidden=True) if load_game(g).engine_module is None]
    if not without:
        pytest.skip("every registered game has a batched engine")
    assert main(["bench", "--game", without[0], "--quick", "--output", str(tmp_path / "b.json")]) == 2
    assert "no batched engine yet" in capsys.readouterr().err and not (tmp_path / "b.json").exists()


def test_the_bench_is_one_path_for_every_game_with_threads_and_per_call_overhead(tmp_path, capsys,
                                                                                 monkeypatch) -> None:  # fmt: skip
    """Age of Industry through the same run as Industry: the runtime line, the threads column (here from batch
    64) with its ratios in the JSON file, and the per-call overhead at batch 1."""
    import numba

    from industry_env import bench

    if numba.get_num_threads() < 2:
        pytest.skip("one thread: no threads column")
    monkeypatch.setattr(bench, "THREADED_FROM", 64)
    out = tmp_path / "bench.json"
    assert main(["bench", "--game", "age_of_industry", "--quick", "--threads", "1,2", "--output", str(out)]) == 0
    figures = json.loads(out.read_text())
    printed = capsys.readouterr().out
    assert figures["game"] == "age_of_industry" and figures["settings"]["threads"] == [1, 2]
    assert figures["runtime"]["threading_layer"] in ("tbb", "omp", "workqueue") and "numba threading layer" in printed
    [row] = figures["threads"]
    assert row["batch_size"] == 64 and all(row["steps_per_second"][loop]["1"] > 0 for loop in ("api", "random_step"))
    assert figures["per_call_microseconds"]["numba"]["api"] > 0 and "per-call overhead at batch 1" in printed
    assert "2 vs 1 thread" in printed


def test_thread_counts_start_at_one_and_refuse_what_numba_cannot_run() -> None:
    import numba

    from industry_env.bench import thread_counts

    if numba.config.NUMBA_NUM_THREADS >= 2:
        assert thread_counts("2") == [1, 2]
    assert thread_counts(None) == sorted({1, numba.get_num_threads()})
    for bad in ("0", "x", str(numba.config.NUMBA_NUM_THREADS + 1), ""):
        with pytest.raises(ValueError, match="--threads"):
            thread_counts(bad)


def test_batch_sizes_are_sorted_and_bad_ones_refused() -> None:
    from industry_env.bench import BATCH_SIZES, batch_sizes

    assert batch_sizes(None) == BATCH_SIZES and batch_sizes(None, quick=True) == (1, 64)
    assert batch_sizes("16384,4096,4096") == (4096, 16384)
    for bad in ("0", "x", "", "-4"):
        with pytest.raises(ValueError, match="--batch"):
            batch_sizes(bad)


def test_the_bench_measures_only_the_batch_sizes_asked_for(tmp_path, capsys, monkeypatch) -> None:
    """``--batch 8,32``: those rows alone (no batch-1 overhead line, which needs batch 1), recorded in the JSON."""
    from industry_env import bench

    # the reference's 2 s and the start-up's two processes are not what this test is about
    ref = {"steps_per_second": 1.0, "games_per_second": 1.0, "microseconds_per_step": 1.0, "steps_per_game": 1.0}
    monkeypatch.setattr(bench, "bench_reference", lambda *a, **k: ref)
    monkeypatch.setattr(bench, "game_start_up_seconds", lambda game, cold: 0.0)
    out = tmp_path / "bench.json"
    assert main(["bench", "--game", "industry", "--quick", "--backend", "numba", "--no-envs", "--threads", "1",
                 "--batch", "32,8", "--output", str(out)]) == 0  # fmt: skip
    figures = json.loads(out.read_text())
    assert figures["settings"]["batch_sizes"] == [8, 32]
    assert [r["batch_size"] for r in figures["engine"]["numba"]] == [8, 32]
    assert figures["rollout"]["numba"] == [] and figures["per_call_microseconds"] == {}
    assert "per-call overhead at batch 1" not in capsys.readouterr().out


def test_the_environments_section_measures_the_game_named_with_its_options() -> None:
    """The env section was Industry's only (it imported Industry's engine): every game's envs are measured."""
    from industry_env.envs.bench import bench_envs

    r = bench_envs(0.05, num_envs=4, game="age_of_industry", options={"map": "new_england"})
    assert r["game"] == "age_of_industry"
    rates = [r["aec_moves_per_second"], r["gym_steps_per_second_random"], r["engine_steps_per_second"]]
    rates += [r[k][m] for k in ("vector_random", "vector_heuristic") for m in ("learner_steps_per_second",
                                                                                 "all_steps_per_second")]  # fmt: skip
    assert all(v > 0 for v in rates)


def test_a_steady_batch_holds_games_at_every_stage_and_plays_on() -> None:
    """The bench's batch starts as a long training run's does: Age of Industry's games spread from the first round
    to the last ones (new games would all be in round 1), tiled from the pool, and legal to step."""
    import numpy as np

    from industry_env.bench import steady_batch
    from industry_env.games.age_of_industry import engine as E

    batch = steady_batch(E, 96, 4, seed=3, pool=48)
    rounds = np.asarray(batch.round)
    assert batch.batch_size == 96 and rounds.min() == 1 and rounds.max() >= 6
    assert len(np.unique(rounds)) >= 5  # every stage, not one wave
    tiled = E.take(batch, np.arange(48, 96))
    assert np.array_equal(np.asarray(tiled.round), rounds[:48]) and np.array_equal(tiled.seed, batch.seed[:48])
    rng = np.random.default_rng(0)
    before = np.asarray(batch.round).copy()
    for _ in range(40):  # legal moves from every stage (a game ended by an illegal action would be terminated)
        E.step(batch, E.sample_legal(E.legal_action_mask(batch), rng), inplace=True)
    assert np.array_equal(np.asarray(batch.terminated), np.asarray(E.finished(batch)))
    assert (np.asarray(batch.round) > before).any()




class _Stop(Exception):
    """Raised where the run would start measuring: the test needs only where it would write."""


def test_each_game_writes_its_figures_to_a_file_of_its_own(monkeypatch) -> None:
    """bench wrote bench-results.json into the current folder, each game overwriting the last game's figures."""
    from industry_env import bench

    chosen = []

    def stop(path):  # checked before the run: the file the figures would go to
        chosen.append(str(path))
        raise _Stop

    monkeypatch.setattr(bench, "check_output_file", stop)
    games = ("industry", "age_of_industry", "twentieth_century")
    for game in games:
        with pytest.raises(_Stop):
            main(["bench", "--game", game, "--quick"])
    with pytest.raises(_Stop):
        main(["bench", "--quick", "--output", "mine.json"])
    assert chosen == [f"bench-results-{g}.json" for g in games] + ["mine.json"]
