"""Output paths of the tools, checked before a long run so that its results are never lost at the end."""

from __future__ import annotations

import os
from pathlib import Path


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
