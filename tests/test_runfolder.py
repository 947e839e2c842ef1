"""The run folder of a training (industry_env.train.runfolder): its lock never outlives its process, files appear
whole or not at all, checkpoints are pruned without touching the newest, best.zip or final.zip, league files and
configs are checked and named when they are bad, and configs round-trip through TOML whatever their strings."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import tomllib
import zipfile
from pathlib import Path

import pytest
from industry_env.train import ConfigError, TrainConfig, load_config, to_toml
from industry_env.train import runfolder as R
from industry_env.train.config import coerce, read_toml, shipped_configs

FAST = ["opponents=random", "opponent_weights=1", "eval_opponent=random"]  # no agent worth building twice here


def fake_checkpoint(path: Path, steps: int, league: dict | None = None) -> Path:
    """A zip shaped like a Stable-Baselines3 save (JSON data with its step count, a policy.pth entry) and its league."""
    path.parent.mkdir(parents=True, exist_ok=True)
    R.write_json(R.league_path(path), league or {"snapshots": [], "best": -1.0, "evals": [], "timesteps": steps})
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("data", json.dumps({"num_timesteps": steps}))
        z.writestr("policy.pth", b"weights")
    return path


# ---------------------------------------------------------------------------------------------- the lock
def test_a_second_run_is_refused_while_the_first_holds_the_folder_naming_it(tmp_path) -> None:
    with R.RunLock(tmp_path):
        with pytest.raises(ConfigError, match=rf"another run is training into this folder \(process {os.getpid()} on"):
            R.RunLock(tmp_path).acquire()
    R.RunLock(tmp_path).acquire().release()  # released: free again


def test_the_lock_of_a_killed_run_does_not_block_the_folder(tmp_path) -> None:
    holder = subprocess.Popen([sys.executable, "-c", textwrap.dedent(f"""
        import sys, time
        from industry_env.train.runfolder import RunLock
        RunLock({str(tmp_path)!r}).acquire()
        print("locked", flush=True)
        time.sleep(60)
        """)], stdout=subprocess.PIPE, text=True)  # fmt: skip
    try:
        assert holder.stdout.readline().strip() == "locked"
        with pytest.raises(ConfigError, match=rf"process {holder.pid} on"):
            R.RunLock(tmp_path).acquire()
        os.kill(holder.pid, signal.SIGKILL)  # a crash: no clean-up runs
        holder.wait(timeout=30)
    finally:
        holder.kill()
    assert (tmp_path / ".lock").is_file()  # the file stays behind ...
    R.RunLock(tmp_path).acquire().release()  # ... and blocks nothing


# ---------------------------------------------------------------------------------------------- whole or absent
def test_a_save_killed_halfway_leaves_no_file_under_the_final_name(tmp_path) -> None:
    target = tmp_path / "step_512.zip"
    child = subprocess.run([sys.executable, "-c", textwrap.dedent(f"""
        import os, signal
        from industry_env.train.runfolder import save_model

        class Model:
            def save(self, f):
                f.write(b"PK" + b"x" * 100_000)
                f.flush()
                os.kill(os.getpid(), signal.SIGKILL)  # killed in the middle of writing the checkpoint

        save_model(Model(), {str(target)!r})
        """)])  # fmt: skip
    assert child.returncode == -signal.SIGKILL
    assert not target.exists()  # never a partial file under the checkpoint's name
    leftovers = list(tmp_path.glob("*.partial"))
    assert len(leftovers) == 1
    assert R.remove_partials(tmp_path) == leftovers and not list(tmp_path.iterdir())


def test_an_error_while_writing_keeps_the_old_file(tmp_path) -> None:
    target = tmp_path / "evals.json"
    R.write_json(target, [1, 2])
    with pytest.raises(RuntimeError), R.atomic_file(target) as f:
        f.write(b"[3")
        raise RuntimeError("disk full")
    assert json.loads(target.read_text()) == [1, 2] and [p.name for p in tmp_path.iterdir()] == ["evals.json"]


def test_resume_latest_takes_the_newest_complete_checkpoint(tmp_path) -> None:
    for n in (512, 1024):
        fake_checkpoint(tmp_path / "checkpoints" / f"step_{n}.zip", n)
    (tmp_path / "checkpoints" / "step_1536.zip").write_bytes(b"")  # an old version's 0-byte checkpoint
    R.write_json(tmp_path / "checkpoints" / "step_1536.league.json", {"snapshots": [], "best": 0, "evals": []})
    fake_checkpoint(tmp_path / "checkpoints" / "step_2048.zip", 2048)
    R.league_path(tmp_path / "checkpoints" / "step_2048.zip").unlink()  # a zip without its league file
    assert R.latest_checkpoint(tmp_path) == tmp_path / "checkpoints" / "step_1024.zip"
    fake_checkpoint(tmp_path / "final.zip", 1100)
    assert R.latest_checkpoint(tmp_path) == tmp_path / "final.zip"
    assert R.check_resume(tmp_path, "latest") == tmp_path / "final.zip"


def test_pruning_keeps_the_newest_checkpoints_best_and_final(tmp_path) -> None:
    for n in range(256, 2049, 256):
        fake_checkpoint(tmp_path / "checkpoints" / f"step_{n}.zip", n)
    fake_checkpoint(tmp_path / "best.zip", 512)
    fake_checkpoint(tmp_path / "final.zip", 2048)
    (tmp_path / "checkpoints" / "step_99.league.json").write_text("{}")  # a league file whose zip never came
    removed = R.prune(tmp_path, keep=2)
    assert len(removed) == 6
    assert sorted(p.name for p in (tmp_path / "checkpoints").iterdir()) == [
        "step_1792.league.json", "step_1792.zip", "step_2048.league.json", "step_2048.zip"]  # fmt: skip
    assert (tmp_path / "best.zip").is_file() and (tmp_path / "final.zip").is_file()
    assert R.prune(tmp_path, keep=1) == [tmp_path / "checkpoints" / "step_1792.zip"]
    assert R.prune(tmp_path, keep=0) == [] and R.latest_checkpoint(tmp_path) == tmp_path / "final.zip"


def test_resuming_an_earlier_checkpoint_sets_the_later_files_aside(tmp_path) -> None:
    for n in (512, 1024):
        fake_checkpoint(tmp_path / "checkpoints" / f"step_{n}.zip", n)
    fake_checkpoint(tmp_path / "final.zip", 1024)
    R.write_json(tmp_path / "evals.json", [{"timesteps": 512}, {"timesteps": 1024}])
    moved = R.set_aside_after(tmp_path, 512, lambda: True)
    assert moved is not None and moved.parent == tmp_path / "superseded"
    assert sorted(str(p.relative_to(moved)) for p in moved.rglob("*") if p.is_file()) == [
        "checkpoints/step_1024.league.json", "checkpoints/step_1024.zip", "evals.json", "final.league.json",
        "final.zip"]  # fmt: skip
    assert R.latest_checkpoint(tmp_path) == tmp_path / "checkpoints" / "step_512.zip"


# ---------------------------------------------------------------------------------------------- league files
@pytest.mark.parametrize(
    ("content", "says"),
    [("{not json", "not readable JSON"), ('{"snapshots": 5, "best": 0, "evals": []}', "'snapshots' must be a list"),
     ('{"snapshots": [{"name": "s", "file": "../../etc/passwd", "seed": 1, "weight": 1}], "best": 0, "evals": []}',
      "plain file name"),
     ('{"snapshots": [], "best": "high", "evals": []}', "'best' must be a number"),
     ('{"snapshots": [], "best": 0, "evals": [{"win_rate": 1}]}', "each with its 'timesteps'"), ("[1]", "object"),
     ("[" * 100_000, "not readable JSON")],
)  # fmt: skip
def test_a_damaged_league_file_is_refused_naming_it(tmp_path, content: str, says: str) -> None:
    ckpt = fake_checkpoint(tmp_path / "checkpoints" / "step_512.zip", 512)
    R.league_path(ckpt).write_text(content)
    with pytest.raises(ConfigError, match=rf"league file .*step_512\.league\.json: .*{says}"):
        load_config(None, [*FAST, f"run_dir={tmp_path}", f"resume={ckpt}"])


def test_resume_without_the_league_file_is_refused_before_anything_is_written(tmp_path) -> None:
    ckpt = fake_checkpoint(tmp_path / "checkpoints" / "step_512.zip", 512)
    R.write_json(tmp_path / "evals.json", [{"timesteps": 256}, {"timesteps": 512}])
    R.league_path(ckpt).unlink()
    before = sorted(p.name for p in tmp_path.rglob("*"))
    with pytest.raises(ConfigError, match=r"step_512\.league\.json is missing: a checkpoint is complete only"):
        load_config(None, [*FAST, f"run_dir={tmp_path}", f"resume={ckpt}"])
    assert sorted(p.name for p in tmp_path.rglob("*")) == before
    assert len(json.loads((tmp_path / "evals.json").read_text())) == 2


def test_resume_refuses_a_checkpoint_of_another_run_folder(tmp_path) -> None:
    ckpt = fake_checkpoint(tmp_path / "one" / "checkpoints" / "step_512.zip", 512)
    with pytest.raises(ConfigError, match="not a checkpoint of run_dir .*set run_dir to that folder"):
        load_config(None, [*FAST, f"run_dir={tmp_path / 'two'}", f"resume={ckpt}"])
    with pytest.raises(ConfigError, match="holds no complete checkpoint"):
        load_config(None, [*FAST, f"run_dir={tmp_path / 'two'}", "resume=latest"])


# ---------------------------------------------------------------------------------------------- the config
HOSTILE = ["rllib:runs\\new_run", 'say "hi"', "two\nlines", "tab\there", "back\\", 'triple """ quotes', "ünïcödé ✓",
           "\x7f\x01bell", "'single'", "[not, a, list]", "# not a comment", "a = b"]  # fmt: skip


@pytest.mark.parametrize("text", HOSTILE)
def test_the_config_file_reads_back_the_same_strings_whatever_they_hold(text: str) -> None:
    cfg = TrainConfig(opponents=[text, "random"], opponent_weights=[1.0, 2.0], eval_opponent=text, run_dir=text,
                      resume=text)  # fmt: skip
    data = tomllib.loads(to_toml(cfg))
    assert TrainConfig(**{k: coerce(k, v) for k, v in data.items()}) == cfg


def test_a_config_with_a_hostile_run_dir_round_trips_through_its_file(tmp_path) -> None:
    run_dir = str(tmp_path / 'runs\\new_run "x"\nline')
    cfg = load_config(None, [*FAST, f"run_dir={run_dir}"])
    (tmp_path / "c.toml").write_text(to_toml(cfg), encoding="utf-8")
    assert load_config(tmp_path / "c.toml") == cfg and cfg.run_dir == run_dir


@pytest.mark.parametrize(
    ("override", "says"),
    [("eval_opponent=nosuch:x", r"eval_opponent: agent 'nosuch:x': cannot import module 'nosuch'"),
     ("opponents=random,bogus", r"opponents: unknown agent .bogus."),
     ("seed=4294967296", r"seed = 4294967296: must be below 2\*\*32"),
     ("learning_rate=" + "1" * 400, "learning_rate"), ("total_timesteps=" + "9" * 400, "total_timesteps"),
     ("opponent_weights=" + "1" * 400 + ",1", "opponent_weights"), ("eval_games=10000000", "eval_games"),
     ("keep_checkpoints=-1", "keep_checkpoints"), ("run_dir=a\x00b", "run_dir")],
)  # fmt: skip
def test_every_option_is_checked_before_a_run_starts(override: str, says: str) -> None:
    with pytest.raises(ConfigError, match=says):
        load_config(None, ["opponent_weights=1,1", override] if override.startswith("opponents=") else [override])


def test_a_400_digit_number_in_a_config_file_is_refused_by_name(tmp_path) -> None:
    f = tmp_path / "big.toml"
    f.write_text("learning_rate = " + "1" * 400 + "\n")
    with pytest.raises(ConfigError, match=r"big\.toml: learning_rate"):
        load_config(f)


def test_a_run_dir_that_cannot_be_created_is_refused_by_name(tmp_path) -> None:
    (tmp_path / "a_file").write_text("")
    with pytest.raises(ConfigError, match=r"run_dir = .*a_file/run.*cannot be created, .*a_file is a file"):
        load_config(None, [*FAST, f"run_dir={tmp_path / 'a_file' / 'run'}"])
    with pytest.raises(ConfigError, match="exists and is not a folder"):
        load_config(None, [*FAST, f"run_dir={tmp_path / 'a_file'}"])
    if os.geteuid() != 0:  # root writes anywhere
        (tmp_path / "ro").mkdir(mode=0o500)
        with pytest.raises(ConfigError, match="permission denied"):
            load_config(None, [*FAST, f"run_dir={tmp_path / 'ro' / 'run'}"])


def test_a_deeply_nested_or_huge_config_file_is_refused_naming_it(tmp_path) -> None:
    deep = tmp_path / "deep.toml"
    deep.write_text("a = " + "[" * 50_000 + "]" * 50_000 + "\n")
    with pytest.raises(ConfigError, match=r"config .*deep\.toml: not valid TOML: nested too deep"):
        load_config(deep)
    huge = tmp_path / "huge.toml"
    huge.write_text("# " + "x" * 2_000_000 + "\n")
    with pytest.raises(ConfigError, match=r"config .*huge\.toml: over 1,000,000 bytes"):
        load_config(huge)
    giant = tmp_path / "giant.toml"
    giant.write_text("seed = " + "7" * 5000 + "\n")
    with pytest.raises(ConfigError, match=r"config .*giant\.toml: not valid TOML: a number with more than"):
        load_config(giant)
    (tmp_path / "bin.toml").write_bytes(b"seed = \xff\n")
    with pytest.raises(ConfigError, match=r"bin\.toml: not UTF-8"):
        load_config(tmp_path / "bin.toml")
    with pytest.raises(ConfigError, match=r"config .*: not a regular file"):
        read_toml(Path("/dev/zero"))


def test_the_shipped_configs_are_package_data_and_load_by_name(capsys) -> None:
    from importlib import resources

    from industry_env.cli import main

    assert "ppo_industry" in shipped_configs()
    packaged = resources.files("industry_env.train").joinpath("ppo_industry.toml")
    assert packaged.is_file()
    pyproject = tomllib.loads((Path(__file__).resolve().parent.parent / "pyproject.toml").read_text())
    assert "*.toml" in pyproject["tool"]["setuptools"]["package-data"]["industry_env.train"]  # in the wheel
    cfg = load_config("ppo_industry", ["run_dir=runs/x"])
    assert cfg == load_config(str(packaged), ["run_dir=runs/x"]) and cfg.reward == "score"
    assert load_config("ppo_industry.toml", ["run_dir=runs/x"]) == cfg
    with pytest.raises(ConfigError, match="no such file, nor a shipped config \\(shipped: .*ppo_industry"):
        load_config("ppo_nothing")
    assert main(["train", "--list-configs"]) == 0
    assert "ppo_industry" in capsys.readouterr().out


def test_a_folder_holding_a_run_is_refused_before_anything_is_written(tmp_path, capsys) -> None:
    from industry_env.cli import main

    fake_checkpoint(tmp_path / "final.zip", 1024)
    (tmp_path / "config.toml").write_text("seed = 1\n")
    before = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    assert main(["train", *sum((["--set", o] for o in [*FAST, f"run_dir={tmp_path}"]), [])]) == 2
    assert "holds a run already (config.toml, final.zip, final.league.json): resume it" in capsys.readouterr().err
    assert {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()} == before
    assert not (tmp_path / ".lock").exists()


def _industry_run(run: Path) -> dict[Path, bytes]:
    """A run folder of Industry with checkpoints at steps 32 and 64, a final model, its result and evaluations; the
    bytes of every file."""
    import shutil

    from industry_env.agents.ppo import shipped_sb3_path

    for step in (32, 64):
        target = run / "checkpoints" / f"step_{step}.zip"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(shipped_sb3_path(), target)  # Industry's spaces (the step count inside does not matter here)
        R.write_json(R.league_path(target), {"snapshots": [], "best": 0.5, "evals": [{"timesteps": step}]})
    (run / "snapshots").mkdir()
    shutil.copy(shipped_sb3_path(), run / "final.zip")
    R.write_json(run / "result.json", {"timesteps": 96})
    R.write_json(run / "evals.json", [{"timesteps": 32}, {"timesteps": 64}])
    (run / "config.toml").write_text(to_toml(load_config("ppo_industry", [f"run_dir={run}"])))
    return {p: p.read_bytes() for p in run.rglob("*") if p.is_file()}


@pytest.mark.parametrize(("config", "more", "says"), [
    ("ppo_age_of_industry", [], "trained Industry \\(game = 'industry'\\), not Age of Industry as configured "
                                "\\(game = 'age_of_industry'\\) \\(its checkpoint's observation has 675 floats"),
    ("ppo_industry", ["num_players=3"], "trained Industry \\(num_players = 4\\), not Industry as configured "
                                        "\\(num_players = 3\\)"),
])  # fmt: skip
def test_resuming_with_another_game_or_table_is_refused_before_the_folder_is_touched(tmp_path, config, more,
                                                                                     says) -> None:  # fmt: skip
    """Resuming an Industry run as Age of Industry moved step_64, final.zip and result.json into superseded/ and
    rewrote evals.json, then failed with Stable-Baselines3's space mismatch."""
    from industry_env.train.ppo import train

    run = tmp_path / "run"
    before = _industry_run(run)
    cfg = load_config(config, [f"run_dir={run}", f"resume={run / 'checkpoints' / 'step_32.zip'}", *FAST, *more])
    with pytest.raises(ConfigError, match=says):
        train(cfg)
    after = {p: p.read_bytes() for p in run.rglob("*") if p.is_file() and p.name != ".lock"}  # the folder's lock
    assert after == before and not (run / "superseded").exists()


def test_total_timesteps_is_rounded_up_to_whole_rollouts_and_said(tmp_path) -> None:
    """`--set total_timesteps=5000` trained 8,192 steps with a bar that ran past its total: the step the run ends at
    is computed, printed and is the bar's total; the summary says evaluations took time, not 'apart'."""
    from industry_env.train.ppo import TrainResult, steps_trained

    cfg = load_config(None, ["total_timesteps=5000", "n_steps=128", "num_envs=64"])
    assert steps_trained(cfg) == 8192 and steps_trained(cfg, 8192) == 8192 and steps_trained(cfg, 4096) == 12288
    assert steps_trained(load_config(None, ["total_timesteps=8192", "n_steps=128", "num_envs=64"])) == 8192
    result = TrainResult(run_dir=tmp_path, final=tmp_path / "final.zip", timesteps=8192, seconds=10.0,
                         steps_per_second=819.2, opponent_moves_per_second=2000.0,
                         shares={"engine": 0.5, "opponents": 0.3, "learner": 0.2, "eval_seconds": 7.0})  # fmt: skip
    text = result.summary()
    assert "evaluations took 7 s more, not counted above" in text and "apart" not in text
