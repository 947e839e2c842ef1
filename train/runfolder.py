"""A training's run folder: its lock, its files written whole or not at all, its checkpoints and their pruning.

What a user can rely on (``docs/training.md``, "The run folder"):

- **One run per folder.** A run holds a lock on ``RUN/.lock`` (``fcntl.flock``) while it trains: a second run into
  the same folder is refused, naming the process that holds it. The operating system drops the lock when that
  process ends, however it ends (a crash, ``kill -9``), so a lock is never left behind to block the folder.
- **Never silently overwritten.** A folder that holds a run is refused unless the new run resumes it, or the user
  asks to overwrite it (``--overwrite``); resuming from an earlier checkpoint moves the later files of the
  abandoned continuation into ``superseded/`` rather than writing over them.
- **Whole or absent.** Every file is written under a temporary name (``.NAME.*.partial``) and renamed; a
  checkpoint writes its league file first and its ``.zip`` last, so a ``step_N.zip`` present is a complete
  checkpoint. Leftover temporary files of a killed run are removed when the next run takes the folder.
- **Pruned.** Only the newest ``keep_checkpoints`` checkpoints stay in ``checkpoints/``; ``best.zip`` (the model at
  its best evaluation) and ``final.zip`` are never pruned.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import socket
import time
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from industry_env.core.outputs import PARTIAL, atomic_file, write_text_atomic

from .errors import ConfigError

LOCK = ".lock"
STEP_ZIP = re.compile(r"^step_(\d+)\.zip$")
STEP_DIR = re.compile(r"^step_(\d+)$")  # the RLlib trainer's checkpoints are folders
# What a run writes into its folder (both trainers); a folder holding any of them holds a run.
RUN_ENTRIES = ("config.toml", "final.zip", "final.league.json", "final.npz", "final", "best.zip", "best.league.json",
               "evals.json", "result.json", "checkpoints", "snapshots", "tb", "superseded")  # fmt: skip
MAX_LEAGUE_BYTES = 50_000_000


# ---------------------------------------------------------------------------------------------- writing whole
def write_text(path: str | Path, text: str) -> None:
    """``text`` (UTF-8) written to ``path`` whole or not at all."""
    write_text_atomic(path, text)


def write_json(path: str | Path, data: Any) -> None:
    """``data`` as indented JSON at ``path``, whole or not at all."""
    write_text(path, json.dumps(data, indent=1))


def save_model(model: Any, path: str | Path) -> None:
    """A Stable-Baselines3 ``model.save`` to ``path``, whole or not at all (SB3 writes to the file object)."""
    with atomic_file(path) as f:
        model.save(f)


# ---------------------------------------------------------------------------------------------- the lock
class RunLock:
    """The lock of a run folder (``RUN/.lock``): ``fcntl.flock`` on the open file, released when the process ends
    however it ends; the file holds the holder's PID, host and start time, for the message of a refused run."""

    def __init__(self, folder: str | Path) -> None:
        self.path = Path(folder) / LOCK
        self.fd: int | None = None

    def acquire(self) -> RunLock:
        """Take the lock, or ConfigError naming the process that holds it."""
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise ConfigError(f"run_dir = {str(self.path.parent)!r}: cannot create its lock file "
                              f"({exc.strerror or exc})") from None  # fmt: skip
        if not _try_lock(fd):
            holder = _read_holder(fd)
            os.close(fd)
            raise ConfigError(f"run_dir = {str(self.path.parent)!r}: another run is training into this folder "
                              f"({holder}); wait for it to end, or train into another run_dir")  # fmt: skip
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps({"pid": os.getpid(), "host": socket.gethostname(),
                                  "started": time.strftime("%Y-%m-%d %H:%M:%S")}).encode(), 0)  # fmt: skip
        self.fd = fd
        return self

    def release(self) -> None:
        """Give the lock back (the file stays, emptied)."""
        if self.fd is not None:
            with contextlib.suppress(OSError):
                os.ftruncate(self.fd, 0)
            _unlock(self.fd)
            os.close(self.fd)
            self.fd = None

    def __enter__(self) -> RunLock:
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()


def _try_lock(fd: int) -> bool:
    try:
        import fcntl
    except ImportError:  # Windows: a byte-range lock, also dropped when the process ends
        import msvcrt

        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined]
        except OSError:
            return False
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _unlock(fd: int) -> None:
    try:
        import fcntl
    except ImportError:
        import msvcrt

        with contextlib.suppress(OSError):
            os.lseek(fd, 0, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)  # type: ignore[attr-defined]
        return
    fcntl.flock(fd, fcntl.LOCK_UN)


def _read_holder(fd: int) -> str:
    try:
        info = json.loads(os.pread(fd, 4096, 0).decode("utf-8"))
        return f"process {info['pid']} on {info['host']}, since {info['started']}"
    except (OSError, ValueError, KeyError, TypeError):
        return "another process"


# ---------------------------------------------------------------------------------------------- what is there
def run_entries(folder: str | Path) -> list[str]:
    """The names of a run's files and folders present in ``folder`` (empty folders do not count)."""
    p = Path(folder)
    if not p.is_dir():
        return []
    found = []
    for name in RUN_ENTRIES:
        e = p / name
        if e.is_file() or (e.is_dir() and any(e.iterdir())):
            found.append(name)
    return found


def refuse_unless_free(folder: str | Path, resuming: bool, overwrite: bool, resumable: bool = True) -> None:
    """ConfigError if ``folder`` holds a run and the new one neither resumes it nor may overwrite it
    (``resumable``: whether the trainer can resume, so that the message offers it only then)."""
    found = run_entries(folder)
    if found and not resuming and not overwrite:
        resume = "resume it with --set resume=latest, " if resumable else ""
        raise ConfigError(
            f"run_dir = {str(folder)!r} holds a run already ({', '.join(found)}): {resume}train into another "
            f"run_dir, or replace it with --overwrite"
        )


def clear_run(folder: str | Path) -> list[str]:
    """Remove a run's files from ``folder`` (``--overwrite``): only the names a run writes; returns them."""
    removed = []
    for name in run_entries(folder):
        e = Path(folder) / name
        if e.is_dir():
            shutil.rmtree(e)
        else:
            e.unlink()
        removed.append(name)
    return removed


def remove_partials(folder: str | Path) -> list[Path]:
    """Remove the temporary files (and folders) a killed run left behind; returns them."""
    removed = []
    for sub in (Path(folder), Path(folder) / "checkpoints", Path(folder) / "snapshots"):
        if sub.is_dir():
            for e in sub.iterdir():
                if e.name.endswith(PARTIAL):
                    shutil.rmtree(e) if e.is_dir() else e.unlink()
                    removed.append(e)
    return removed


def league_path(checkpoint: str | Path) -> Path:
    """The league file of a checkpoint: ``step_N.zip`` -> ``step_N.league.json``."""
    return Path(checkpoint).with_suffix(".league.json")


def is_sb3_zip(path: str | Path) -> bool:
    """A Stable-Baselines3 save: a zip with ``data`` and ``policy.pth`` (read without unpickling anything)."""
    try:
        with zipfile.ZipFile(path) as z:
            return {"data", "policy.pth"} <= set(z.namelist())
    except (zipfile.BadZipFile, OSError):
        return False


def zip_timesteps(path: str | Path) -> int | None:
    """The step count saved in a Stable-Baselines3 zip (its JSON ``data``, nothing unpickled), or None."""
    try:
        with zipfile.ZipFile(path) as z:
            steps = json.loads(z.read("data").decode("utf-8")).get("num_timesteps")
    except (zipfile.BadZipFile, OSError, KeyError, ValueError, AttributeError):
        return None
    return steps if isinstance(steps, int) and not isinstance(steps, bool) else None


def zip_framework(path: str | Path) -> str | None:
    """Which trainer wrote a checkpoint zip: ``"native"`` or ``"az"`` (its JSON ``data`` says so), ``"sb3"`` (a
    MaskablePPO save, which does not), or None for a file that is no checkpoint (nothing unpickled)."""
    try:
        with zipfile.ZipFile(path) as z:
            data = json.loads(z.read("data").decode("utf-8"))
    except (zipfile.BadZipFile, OSError, KeyError, ValueError, AttributeError):
        return None
    if not isinstance(data, dict):
        return None
    return data["framework"] if data.get("framework") in ("native", "az") else "sb3"


def check_checkpoint_framework(path: str | Path, framework: str) -> None:
    """ConfigError (before anything is written) if the checkpoint ``path`` to resume was written by the other
    trainer than ``framework`` (``"native"``, ``"sb3"`` or ``"az"``): its weights and optimizer are another
    program's."""
    wrote = zip_framework(path)
    if wrote is not None and wrote != framework:
        names = {"native": "the native trainer", "sb3": "the SB3 trainer (MaskablePPO)", "az": "search self-play"}
        raise ConfigError(f"resume = {str(path)!r}: a checkpoint of {names[wrote]}; resume it with --framework "
                          f"{wrote}, or start a new run")  # fmt: skip


def checkpoints(folder: str | Path) -> list[tuple[int, Path]]:
    """The complete checkpoints in ``folder/checkpoints`` as (step, zip path), oldest first.

    Complete: ``step_N.zip`` is a whole SB3 save and ``step_N.league.json`` is beside it (written first).
    """
    sub = Path(folder) / "checkpoints"
    if not sub.is_dir():
        return []
    found = []
    for e in sub.iterdir():
        m = STEP_ZIP.match(e.name)
        if m and e.is_file() and league_path(e).is_file() and is_sb3_zip(e):
            found.append((int(m.group(1)), e))
    return sorted(found)


def latest_checkpoint(folder: str | Path) -> Path | None:
    """The newest complete checkpoint of a run: the latest ``checkpoints/step_N.zip``, or ``final.zip`` if later."""
    candidates = [(n, 1, p) for n, p in checkpoints(folder)]
    final = Path(folder) / "final.zip"
    if final.is_file() and league_path(final).is_file() and is_sb3_zip(final):
        candidates.append((zip_timesteps(final) or 0, 2, final))
    return max(candidates)[2] if candidates else None


def prune(folder: str | Path, keep: int) -> list[Path]:
    """Remove all but the newest ``keep`` complete checkpoints of ``checkpoints/`` (0: keep all); returns them.

    Only ``checkpoints/step_N.*`` is ever removed: ``best.zip`` and ``final.zip`` live outside it. The zip goes
    first, so a checkpoint is whole or absent at any time; league files left without their zip go too.
    """
    if keep <= 0:
        return []
    removed = []
    for _, zpath in checkpoints(folder)[:-keep]:
        zpath.unlink()
        league_path(zpath).unlink(missing_ok=True)
        removed.append(zpath)
    sub = Path(folder) / "checkpoints"
    for e in sub.glob("step_*.league.json") if sub.is_dir() else []:
        if not e.with_name(e.name.replace(".league.json", ".zip")).exists():
            e.unlink()
    return removed


def prune_folders(folder: str | Path, keep: int) -> list[Path]:
    """The RLlib trainer's :func:`prune`: all but the newest ``keep`` ``checkpoints/step_N/`` folders removed."""
    sub = Path(folder) / "checkpoints"
    if keep <= 0 or not sub.is_dir():
        return []
    found = sorted((int(m.group(1)), e) for e in sub.iterdir() if e.is_dir() and (m := STEP_DIR.match(e.name)))
    removed = []
    for _, e in found[:-keep]:
        shutil.rmtree(e)
        removed.append(e)
    return removed


def save_folder(save: Callable[[str], Any], path: str | Path) -> Path:
    """``save(absolute_path)`` (e.g. RLlib's ``algo.save``) into a temporary folder renamed to ``path`` once whole."""
    p = Path(path)
    tmp = p.with_name(p.name + PARTIAL)
    if tmp.exists():
        shutil.rmtree(tmp)
    try:
        save(str(tmp.resolve()))
        if p.exists():
            shutil.rmtree(p)
        os.replace(tmp, p)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return p


def set_aside_after(folder: str | Path, step: int, evals_after: Callable[[], bool]) -> Path | None:
    """Move what a run wrote after ``step`` (later checkpoints, a later ``final``/``best``, and ``evals.json`` if
    ``evals_after()``) into ``superseded/after_step_<step>_<time>/``; returns that folder if anything moved.

    Resuming from an earlier checkpoint starts another continuation: the files of the one abandoned are kept,
    not written over.
    """
    run = Path(folder)
    later: list[Path] = []
    for n, z in checkpoints(run):
        if n > step:
            later += [z, league_path(z)]
    for name in ("final", "best"):
        z = run / f"{name}.zip"
        if z.is_file() and (zip_timesteps(z) or 0) > step:
            later += [z, league_path(z)]
    if later and (run / "result.json").is_file():
        later.append(run / "result.json")
    if (run / "evals.json").is_file() and evals_after():
        later.append(run / "evals.json")
    later = [p for p in later if p.exists()]
    if not later:
        return None
    dest = run / "superseded" / f"after_step_{step}_{time.strftime('%Y%m%d-%H%M%S')}"
    dest.mkdir(parents=True, exist_ok=False)
    for p in later:
        target = dest / p.relative_to(run)
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(p, target)
    return dest


# ---------------------------------------------------------------------------------------------- league files
def read_league(path: str | Path) -> dict[str, Any]:
    """The league file of a checkpoint, checked; ConfigError naming the file and what is wrong with it.

    ``{"snapshots": [{"name", "file", "seed", "weight"}, ...], "best": float, "best_against": str (the evaluation
    opponent; absent in older files), "evals": [{"timesteps", ...}, ...]}``
    """
    p = Path(path)
    where = f"league file {p}"
    try:
        if p.stat().st_size > MAX_LEAGUE_BYTES:
            raise ConfigError(f"{where}: {p.stat().st_size:,} bytes, too big for a league file")
        data = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{where} is missing: a checkpoint is complete only with its league file (the opponents' "
                          f"snapshots, the best win rate, the evaluations)") from None  # fmt: skip
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise ConfigError(f"{where}: not readable JSON ({exc})") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{where}: expected a JSON object with snapshots, best and evals")
    snaps, best, evals = data.get("snapshots"), data.get("best"), data.get("evals")
    if not isinstance(snaps, list) or not all(_snapshot_ok(s) for s in snaps):
        raise ConfigError(f"{where}: 'snapshots' must be a list of {{name, file, seed, weight}} (file a plain file "
                          f"name in snapshots/, seed a whole number, weight a number >= 0)")  # fmt: skip
    if isinstance(best, bool) or not isinstance(best, (int, float)):
        raise ConfigError(f"{where}: 'best' must be a number (the best evaluation's win rate, -1 before any)")
    if not isinstance(evals, list) or not all(isinstance(e, dict) and _whole(e.get("timesteps")) for e in evals):
        raise ConfigError(f"{where}: 'evals' must be a list of evaluations, each with its 'timesteps'")
    if not isinstance(data.get("best_against", ""), str):
        raise ConfigError(f"{where}: 'best_against' must be the name of the agent 'best' was measured against")
    return data


def _whole(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and x >= 0


def _snapshot_ok(s: Any) -> bool:
    if not isinstance(s, dict) or not isinstance(s.get("name"), str) or not isinstance(s.get("file"), str):
        return False
    w = s.get("weight")
    name = s["file"]
    return (_whole(s.get("seed")) and s["seed"] < 2**63 and not isinstance(w, bool) and isinstance(w, (int, float))
            and w >= 0 and name not in ("", ".", "..") and "/" not in name and "\\" not in name)  # fmt: skip


def check_resume(run_dir: str | Path, resume: str) -> Path:
    """The checkpoint ``resume`` names (``latest`` or a path), checked whole before anything is written.

    It must be a checkpoint of ``run_dir`` (in ``checkpoints/``, or ``final.zip``/``best.zip``), a whole SB3 save,
    with a readable league file whose snapshots are all in ``run_dir/snapshots``. ConfigError says what is wrong.
    """
    run = Path(run_dir)
    if resume == "latest":
        found = latest_checkpoint(run)
        if found is None:
            raise ConfigError(f"resume = 'latest': run_dir {str(run)!r} holds no complete checkpoint "
                              f"(checkpoints/step_N.zip with its .league.json, or final.zip)")  # fmt: skip
        return check_resume(run, str(found))
    p = Path(resume)
    if not p.is_file():
        raise ConfigError(f"resume = {resume!r}: no such checkpoint file")
    home = p.resolve().parent
    if home not in ((run / "checkpoints").resolve(), run.resolve()):
        raise ConfigError(f"resume = {resume!r} is not a checkpoint of run_dir {str(run)!r} (its snapshots and "
                          f"evaluations live in its own run folder): set run_dir to that folder")  # fmt: skip
    if not is_sb3_zip(p):
        raise ConfigError(f"resume = {resume!r}: not a whole Stable-Baselines3 save (a zip with data and "
                          f"policy.pth)")  # fmt: skip
    league = read_league(league_path(p))
    missing = [s["file"] for s in league["snapshots"] if not (run / "snapshots" / s["file"]).is_file()]
    if missing:
        raise ConfigError(f"league file {league_path(p)}: snapshot file(s) {missing} missing from "
                          f"{run / 'snapshots'}")  # fmt: skip
    return p


def zip_spaces(path: str | Path) -> tuple[int, int] | None:
    """(observation floats, actions) of the spaces saved in a Stable-Baselines3 zip (its JSON ``data``, nothing
    unpickled), or None if it does not say."""
    try:
        with zipfile.ZipFile(path) as z:
            data = json.loads(z.read("data").decode("utf-8"))
        shape, n = data["observation_space"]["_shape"], data["action_space"]["n"]
        return int(shape[0]), int(n)
    except (zipfile.BadZipFile, OSError, KeyError, ValueError, TypeError, IndexError, AttributeError):
        return None


def check_run_dir(run_dir: str) -> None:
    """ConfigError unless ``run_dir`` is a folder that exists and can be written, or can be created."""
    if not run_dir:
        raise ConfigError("run_dir = '': a folder is needed")
    p = Path(run_dir)
    if p.exists():
        if not p.is_dir():
            raise ConfigError(f"run_dir = {run_dir!r}: exists and is not a folder")
        if not os.access(p, os.W_OK | os.X_OK):
            raise ConfigError(f"run_dir = {run_dir!r}: cannot write into it (permission denied)")
        return
    parent = p.absolute().parent
    while not parent.exists():
        parent = parent.parent
    if not parent.is_dir():
        raise ConfigError(f"run_dir = {run_dir!r}: cannot be created, {parent} is a file")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise ConfigError(f"run_dir = {run_dir!r}: cannot be created in {parent} (permission denied)")


def make_run_dir(run_dir: str | Path) -> Path:
    """Create the run folder (and its parents); ConfigError naming it if the system refuses."""
    p = Path(run_dir)
    try:
        p.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigError(f"run_dir = {str(run_dir)!r}: cannot create the folder ({exc.strerror or exc})") from None
    return p
