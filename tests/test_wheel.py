"""The wheel as users get it: built, installed in a fresh virtual environment with the train extra, its shipped
config found by name and a tiny training run from a folder outside any checkout (slow: it installs torch)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TINY = ["total_timesteps=512", "num_envs=4", "n_steps=64", "batch_size=256", "n_epochs=1", "net_arch=16,16",
        "eval_every=256", "eval_games=4", "eval_opponent=random", "checkpoint_every=256", "progress=false"]  # fmt: skip


def _run(cmd: list[str], **kw) -> subprocess.CompletedProcess:
    out = subprocess.run(cmd, capture_output=True, text=True, **kw)
    assert out.returncode == 0, f"{' '.join(cmd)}\n{out.stdout[-3000:]}\n{out.stderr[-3000:]}"
    return out


@pytest.mark.slow
def test_the_wheel_in_a_fresh_venv_finds_its_shipped_config_and_trains(tmp_path) -> None:
    dist = tmp_path / "dist"
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(dist), str(ROOT)], timeout=900)
    (wheel,) = dist.glob("industry_env-*.whl")
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", str(venv)])
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet"]
    _run([*pip, "torch==2.13.0"], timeout=1800)
    _run([*pip, f"{wheel}[train]"], timeout=1800)
    work = tmp_path / "work"  # no checkout here: train/ppo_industry.toml does not exist relative to it
    work.mkdir()
    script = str(venv / "bin" / "industry-env")
    assert "ppo_industry" in _run([script, "train", "--list-configs"], cwd=work).stdout
    sets = [a for kv in [*TINY, "run_dir=run"] for a in ("--set", kv)]
    out = _run([script, "train", "--config", "ppo_industry", *sets], cwd=work, timeout=1800)
    assert "final model: run/final.zip" in out.stdout
    assert (work / "run" / "final.zip").is_file() and (work / "run" / "best.zip").is_file()
    played = _run([str(venv / "bin" / "python"), "-c",
                   "from industry_env import load_board; assert load_board().is_shipped; "  # Industry's data/
                   "from industry_env.agents import make_agent; a = make_agent('ppo'); print(a.path.name); "
                   "b = make_agent('ppo', path='run/final.zip'); print('ok')"], cwd=work)  # fmt: skip
    assert played.stdout.split() == ["ppo_industry.npz", "ok"]
