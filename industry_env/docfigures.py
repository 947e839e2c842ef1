"""The docs' pictures, made by one command so that they cannot drift from the code and the data.

``python -m industry_env.docfigures`` (``make figures``) asks every game for the pictures its docs show
(``GameSpec.doc_figures``: Industry's ``docs/industry/board-example.svg`` and ``.png``, Age of Industry's
``docs/age-of-industry/pictures.png``), writes them, and writes ``docs/figures.json``: per figure its source (the
seeded game it shows, the digests of the data it was played on), its caption where it has one, the SHA-256 of its
drawing (the picture's primitives, independent of the matplotlib version) and of the files written. ``--check``
writes nothing and fails when a drawing or a file differs from what is committed (the test suite runs the same
check).

``docs/training-curves.png`` is listed with its source, the TensorBoard scalars of a run of the shipped commands; they
are not in the repository, so that figure is checked only against its recorded digest.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from .core.figure import DocFigure
from .core.outputs import write_bytes_atomic
from .registry import available_games, load_game

DOCS = Path(__file__).resolve().parent.parent / "docs"
SIDECAR = "figures.json"

TRAINING_CURVES = {
    "file": "training-curves.png",
    "source": "TensorBoard scalars of the shipped policy's two commands run again on 2026-11-27 (docs/training.md, "
    "'The shipped policy'), drawn by industry_env.train.curves.plot_curves; the run folder is not in the repository",
}
# the README's screenshot of industry-env serve: a page of a game played by headless Chromium (a fresh deal each
# time, so its bytes are not recorded)
SERVE_SCREENSHOT = {
    "file": "serve.png",
    "source": "make screenshot (python -m tests.web.browser docs/serve.png): headless Chromium, 1600 x 1000 window, "
    "12 clicks into a 5-player game of Age of Industry against random players; the browser test takes it too",
}

# docs/serve.md's pictures of a table of several people, made by the same browser code (fresh deals: no bytes kept)
SERVE_TABLE = {
    "files": ["serve-table.png", "serve-handover.png"],
    "source": "python -m tests.web.browser --table docs: headless Chromium, 1400 x 1700 then 1400 x 900 windows; the "
    "creator's page at a 3-player table of Age of Industry (another person, a heuristic; the advisor agreed, a "
    "spectators' link 4 decisions behind) after at least 8 decisions of its two people, with the advisor's answer; "
    "and a hot-seat screen of two seats at its first hand-over",
}


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def figures() -> list[DocFigure]:
    """Every game's pictures of the docs, the listed games first (ImportError naming the render extra without
    matplotlib)."""
    listed = available_games()
    games = listed + [g for g in available_games(include_hidden=True) if g not in listed]
    return [f for g in games for f in load_game(g).doc_figures()]


def build() -> tuple[dict[str, Any], dict[str, bytes]]:
    """The sidecar's content and the files' bytes, made from the code and the data."""
    made = figures()
    curves = DOCS / TRAINING_CURVES["file"]
    sidecar: dict[str, Any] = {
        "about": "written by `python -m industry_env.docfigures` (make figures); checked by tests/test_docs.py",
        **{f.key: f.entry for f in made},
        "training-curves": {**TRAINING_CURVES, "sha256": _sha(curves.read_bytes()) if curves.exists() else ""},
        "serve-screenshot": SERVE_SCREENSHOT,
        "serve-table": SERVE_TABLE,
    }
    return sidecar, {path: data for f in made for path, data in f.files.items()}


def _recorded(entry: dict[str, Any], path: str) -> str | None:
    """The digest a committed entry records for the file at ``path`` (under docs/)."""
    sha = entry.get("sha256")
    return sha.get(path) if isinstance(sha, dict) else sha


def _write(path: Path, data: bytes) -> None:
    """Write whole: a temporary name in the same folder, then a rename."""
    write_bytes_atomic(path, data)


def check(docs: Path = DOCS) -> list[str]:
    """What differs between the committed figures and those the code makes now (empty: in step)."""
    try:
        committed = json.loads((docs / SIDECAR).read_text())
    except (OSError, ValueError) as exc:
        return [f"{docs / SIDECAR}: cannot read it ({exc}); run python -m industry_env.docfigures"]
    problems = []
    for fig in figures():
        old = committed.get(fig.key, {})
        for key in fig.compared:
            if old.get(key) != fig.entry[key]:
                problems.append(f"{fig.key}: {key} is {old.get(key)!r} in {SIDECAR}, the code makes "
                                f"{fig.entry[key]!r}")  # fmt: skip
        for name, data in fig.files.items():
            path = docs / name
            if not path.exists() or _sha(path.read_bytes()) != _recorded(old, name):
                problems.append(f"{path}: not the file {SIDECAR} records")
            elif name.endswith(".svg") and fig.entry.get("matplotlib") == old.get("matplotlib") and \
                    path.read_bytes() != data:  # fmt: skip
                problems.append(f"{path}: differs from the SVG this matplotlib ({old.get('matplotlib')}) draws")
    curves = committed.get("training-curves", {})
    made = DOCS / TRAINING_CURVES["file"]
    if curves.get("sha256") != (_sha(made.read_bytes()) if made.exists() else ""):
        problems.append(f"{docs / TRAINING_CURVES['file']}: not the file {SIDECAR} records (redraw it from the run)")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m industry_env.docfigures", description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a figure is out of step")
    args = parser.parse_args(argv)
    if args.check:
        problems = check()
        for p in problems:
            print(p, file=sys.stderr)
        print("figures in step" if not problems else f"{len(problems)} figure problem(s): run make figures")
        return 1 if problems else 0
    sidecar, files = build()
    for name, data in files.items():
        _write(DOCS / name, data)
        print(f"wrote docs/{name}")
    _write(DOCS / SIDECAR, (json.dumps(sidecar, indent=2) + "\n").encode("utf-8"))
    captions = "; ".join(e["caption"] for e in sidecar.values() if isinstance(e, dict) and "caption" in e)
    print(f"wrote docs/{SIDECAR}" + (f"; caption: {captions}" if captions else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
