"""Run the notebooks and save them with their outputs, so that a reader on GitHub sees the tables and plots.

``make notebooks`` runs this with the dev venv's Python: each notebook is executed top to bottom in a fresh kernel
(nbclient, in this folder), then saved without what changes from run to run but says nothing to a reader
(execution timings, the kernel's Python version) and written whole (temporary name, then a rename).
``tests/test_docs.py`` checks that every code cell has outputs and that each notebook stays small.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import nbformat
from nbclient import NotebookClient

HERE = Path(__file__).resolve().parent


def clean(nb: nbformat.NotebookNode) -> None:
    """Drop volatile metadata: per-cell execution timings and the kernel's version details."""
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
    nb.metadata["language_info"] = {"name": "python"}


def execute(path: Path, timeout: int = 900) -> None:
    """Execute ``path`` in place; an error in a cell raises and leaves the file as it was."""
    nb = nbformat.read(path, as_version=4)
    NotebookClient(
        nb, timeout=timeout, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
    ).execute()
    clean(nb)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(nbformat.writes(nb))
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def main(argv: list[str]) -> int:
    paths = [Path(a) for a in argv] or sorted(HERE.glob("*.ipynb"))
    for path in paths:
        print(f"executing {path.name} ...", flush=True)
        execute(path)
        print(f"wrote {path} ({path.stat().st_size / 1000:.0f} kB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
