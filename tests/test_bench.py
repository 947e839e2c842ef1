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
