"""The docs' pictures of the board, made by one command so that they cannot drift from the code and the board.

``python -m industry_env.docfigures`` (``make figures``) plays the documented positions again and writes
``docs/board-example.svg`` and ``docs/board-example.png`` with ``docs/figures.json``: per figure its source (seed,
number of moves, board version and SHA-256), its caption, the SHA-256 of its drawing (the picture's primitives,
independent of the matplotlib version) and of the files written. ``--check`` writes nothing and fails when the
drawing or a file differs from what is committed (the test suite runs the same check).

``docs/age-of-industry/pictures.png`` is Age of Industry's example position (its ``picture.EXAMPLE``), made and
checked the same way.

``docs/training-curves.png`` is listed with its source, the TensorBoard scalars of the shipped policy's run; they
are not in the repository, so that figure is checked only against its recorded digest.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

from .core.outputs import write_bytes_atomic

DOCS = Path(__file__).resolve().parent.parent / "docs"
SIDECAR = "figures.json"

# The position of docs/board-example: a seeded 4-player game played with seeded random moves until Era 3, a field
# on auction and a bid on it (documented in records.md).
EXAMPLE = {"num_players": 4, "seed": 11, "era": 2}

AOI_PICTURE = "age-of-industry/pictures.png"  # under docs/

TRAINING_CURVES = {
    "file": "training-curves.png",
    "source": "TensorBoard scalars of the shipped policy's run (docs/training.md, 'The shipped policy'), drawn by "
    "industry_env.train.curves.plot_curves; the run folder is not in the repository",
}
# the README's screenshot of industry-env serve: a page of a game played by headless Chromium (a fresh deal each
# time, so its bytes are not recorded)
SERVE_SCREENSHOT = {
    "file": "serve.png",
    "source": "make screenshot (python -m tests.web.browser docs/serve.png): headless Chromium, 1600 x 1000 window, "
    "12 clicks into a 5-player game of Age of Industry against random players; the browser test takes it too",
}


def example_game() -> tuple[Any, int]:
    """The documented example position and its number of moves: replayed from its seed, so the rules and the board
    decide what it shows."""
    from .games.industry.reference import Game

    n, seed, era = EXAMPLE["num_players"], EXAMPLE["seed"], EXAMPLE["era"]
    game, rng = Game(n, seed=seed), np.random.default_rng(seed)
    moves = 0
    while not (game.s.era == era and game.phase == "bid" and game.s.high_bidder >= 0):
        if game.is_over:
            raise RuntimeError(f"docfigures: seed {seed} ends before a bid in Era {era + 1}; choose another seed")
        game.apply(int(rng.choice(game.legal_actions())))
        moves += 1
    return game, moves


def caption(game: Any) -> str:
    """The figure's caption, from the position it shows."""
    from .games.industry.board import field_id

    s, b = game.s, game.board
    return (f"A {game.num_players}-player game in Era {s.era + 1}: {b.field_names[s.lot]} ({field_id(s.lot)})"
            f" on auction, player {game.current_player} to bid")  # fmt: skip


def drawing_digest(game: Any) -> str:
    """SHA-256 of the picture's drawing primitives (printed board and position): stable across matplotlib versions."""
    from .games.industry import picture

    parts = [repr(picture.sketch_board(game.board)), repr(sorted(picture.sketch_position(game).items()))]
    return hashlib.sha256("\n".join(parts).encode("utf-8")).hexdigest()


def aoi_entry() -> tuple[dict[str, Any], bytes]:
    """Age of Industry's example picture: its sidecar entry and the PNG's bytes."""
    from .games.age_of_industry import picture as aoi

    game = aoi.example_game(**{k: v for k, v in aoi.EXAMPLE.items() if k != "seat"})
    png = aoi.example_png()
    entry = {
        "file": "pictures.png",
        "path": AOI_PICTURE,
        "source": {**aoi.EXAMPLE, "policy": "random.Random(seed).choices weighted by picture._EXAMPLE_WEIGHTS",
                   "map_sha256": game.map.sha256, "components_sha256": game.components.sha256},
        "drawing_sha256": hashlib.sha256(repr(sorted(aoi.example_sketch().items())).encode("utf-8")).hexdigest(),
        "sha256": _sha(png),
    }  # fmt: skip
    return entry, png


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def build() -> tuple[dict[str, Any], dict[str, bytes]]:
    """The sidecar's content and the files' bytes, made from the code and the board."""
    from .games.industry import picture

    matplotlib = picture._matplotlib()[0]  # or the ImportError naming the render extra
    from .records import board_digest

    game, moves = example_game()
    svg = picture.to_svg(game).encode("utf-8")
    with tempfile.TemporaryDirectory() as tmp:
        picture.save_png(game, Path(tmp) / "x.png")
        png = (Path(tmp) / "x.png").read_bytes()
    aoi, aoi_png = aoi_entry()
    files = {"board-example.svg": svg, "board-example.png": png, AOI_PICTURE: aoi_png}
    entry = {
        "files": ["board-example.svg", "board-example.png"],
        "caption": caption(game),
        "source": {
            **EXAMPLE,
            "moves": moves,
            "policy": "numpy default_rng(seed).choice of legal actions",
            "board_version": int(game.board.version),
            "board_sha256": board_digest(game.board),
        },  # fmt: skip
        "drawing_sha256": drawing_digest(game),
        "matplotlib": matplotlib.__version__,
        "sha256": {name: _sha(data) for name, data in files.items()},
    }
    curves = DOCS / TRAINING_CURVES["file"]
    sidecar = {
        "about": "written by `python -m industry_env.docfigures` (make figures); checked by tests/test_docs.py",
        "board-example": entry,
        "age-of-industry-pictures": aoi,
        "training-curves": {**TRAINING_CURVES, "sha256": _sha(curves.read_bytes()) if curves.exists() else ""},
        "serve-screenshot": SERVE_SCREENSHOT,
    }
    return sidecar, files


def _write(path: Path, data: bytes) -> None:
    """Write whole: a temporary name in the same folder, then a rename."""
    write_bytes_atomic(path, data)


def check(docs: Path = DOCS) -> list[str]:
    """What differs between the committed figures and those the code makes now (empty: in step)."""
    try:
        committed = json.loads((docs / SIDECAR).read_text())
    except (OSError, ValueError) as exc:
        return [f"{docs / SIDECAR}: cannot read it ({exc}); run python -m industry_env.docfigures"]
    sidecar, files = build()
    problems = []
    old, new = committed.get("board-example", {}), sidecar["board-example"]
    for key in ("caption", "source", "drawing_sha256"):
        if old.get(key) != new[key]:
            problems.append(f"board-example: {key} is {old.get(key)!r} in {SIDECAR}, the code makes {new[key]!r}")
    old_aoi, new_aoi = committed.get("age-of-industry-pictures", {}), sidecar["age-of-industry-pictures"]
    for key in ("source", "drawing_sha256"):
        if old_aoi.get(key) != new_aoi[key]:
            problems.append(f"age-of-industry-pictures: {key} is {old_aoi.get(key)!r} in {SIDECAR}, the code makes "
                            f"{new_aoi[key]!r}")  # fmt: skip
    recorded = {**old.get("sha256", {}), AOI_PICTURE: old_aoi.get("sha256")}
    for name, data in files.items():
        path = docs / name
        if not path.exists() or _sha(path.read_bytes()) != recorded.get(name):
            problems.append(f"{path}: not the file {SIDECAR} records")
        elif new["matplotlib"] == old.get("matplotlib") and name.endswith(".svg") and path.read_bytes() != data:
            problems.append(f"{path}: differs from the SVG this matplotlib ({new['matplotlib']}) draws")
    curves = committed.get("training-curves", {})
    if curves.get("sha256") != sidecar["training-curves"]["sha256"]:
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
    print(f"wrote docs/{SIDECAR}; caption: {sidecar['board-example']['caption']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
