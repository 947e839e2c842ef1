"""Output files of the tools: paths checked before a long run so that its results are never lost at the end, and
files written whole or not at all (a temporary name in the same folder, fsync, then a rename)."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

PARTIAL = ".partial"  # suffix of a file being written (a crash may leave one; it is never read as a result)


@contextlib.contextmanager
def atomic_file(path: str | os.PathLike, private: bool = False) -> Iterator[BinaryIO]:
    """A binary file object whose content appears at ``path`` only once it is complete (temporary name, fsync,
    rename); on an error the temporary file is removed and ``path`` keeps what it held before. ``private``: the
    file is readable and writable by its owner only (0600), from its first byte."""
    p = Path(path)
    folder = p.parent if str(p.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=PARTIAL, dir=folder)
    umask = os.umask(0)
    os.umask(umask)
    try:
        if not private:
            os.chmod(tmp, 0o666 & ~umask)  # as open() would make it (mkstemp makes 0600)
        with os.fdopen(fd, "wb") as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, p)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_bytes_atomic(path: str | os.PathLike, data: bytes, private: bool = False) -> None:
    """``data`` written to ``path`` whole or not at all (``private``: readable by its owner only, 0600)."""
    with atomic_file(path, private) as f:
        f.write(data)


def write_text_atomic(path: str | os.PathLike, text: str, private: bool = False) -> None:
    """``text`` (UTF-8) written to ``path`` whole or not at all (``private``: readable by its owner only, 0600)."""
    write_bytes_atomic(path, text.encode("utf-8"), private)


def check_output_file(path: str | os.PathLike, option: str = "--output") -> Path:
    """``path`` as a Path if a file can be written there; ValueError naming the option and the reason if not.

    Checked before a run, not after it: the folder must exist and be writable, and ``path`` must not be a folder.
    """
    p = Path(path)
    if str(path) == "":
        raise ValueError(f"{option}: empty path")
    if p.is_dir():
        raise ValueError(f"{option} {path}: is a folder, not a file")
    folder = p.parent if str(p.parent) else Path(".")
    if not folder.is_dir():
        raise ValueError(f"{option} {path}: folder {folder} does not exist")
    if not os.access(folder, os.W_OK) or (p.exists() and not os.access(p, os.W_OK)):
        raise ValueError(f"{option} {path}: cannot write there (permission denied)")
    return p


def template_problem(text: str, target: Path) -> str | None:
    """Why ``--template`` cannot be written at ``target`` (a sentence), or None: a template never replaces a file."""
    if not text.strip() or target.is_dir():
        return f"--template {text!r}: give the name of a new file"
    if target.exists():
        return f"--template {target}: the file exists; give a new file name"
    if not target.parent.is_dir():
        return f"--template {target}: the folder {target.parent} does not exist"
    return None


def check_output_dir(path: str | os.PathLike, option: str = "--output-dir") -> Path:
    """``path`` as a Path to a folder that exists (or whose parent exists, to create it) and can be written."""
    p = Path(path)
    if str(path) == "":
        raise ValueError(f"{option}: empty path")
    if p.exists() and not p.is_dir():
        raise ValueError(f"{option} {path}: exists and is not a folder")
    if not p.exists() and not (p.parent if str(p.parent) else Path(".")).is_dir():
        raise ValueError(f"{option} {path}: its parent folder {p.parent} does not exist")
    target = p if p.exists() else (p.parent if str(p.parent) else Path("."))
    if not os.access(target, os.W_OK):
        raise ValueError(f"{option} {path}: cannot write there (permission denied)")
    return p
