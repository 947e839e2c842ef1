"""Industry's pictures in the docs (its spec's ``doc_figures``): ``docs/industry/board-example.svg`` and ``.png``, a
seeded 4-player game played with seeded random moves until Era 3, a field on auction and a bid on it (documented in
records.md), redrawn and checked by ``python -m industry_env.docfigures``."""

from __future__ import annotations

import hashlib
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

from ...core.figure import DocFigure, matplotlib_parts
from . import picture
from .components import field_id
from .reference import Game

EXAMPLE = {"num_players": 4, "seed": 11, "era": 2}


def example_game() -> tuple[Game, int]:
    """The documented example position and its number of moves: replayed from its seed, so the rules and the board
    decide what it shows."""
    n, seed, era = EXAMPLE["num_players"], EXAMPLE["seed"], EXAMPLE["era"]
    game, rng = Game(n, seed=seed), np.random.default_rng(seed)
    moves = 0
    while not (game.s.era == era and game.phase == "bid" and game.s.high_bidder >= 0):
        if game.is_over:
            raise RuntimeError(f"docfigures: seed {seed} ends before a bid in Era {era + 1}; choose another seed")
        game.apply(int(rng.choice(game.legal_actions())))
        moves += 1
    return game, moves


def caption(game: Game) -> str:
    """The figure's caption, from the position it shows."""
    s, b = game.s, game.board
    return (f"A {game.num_players}-player game in Era {s.era + 1}: {b.field_names[s.lot]} ({field_id(s.lot)})"
            f" on auction, player {game.current_player} to bid")  # fmt: skip


def drawing_digest(game: Game) -> str:
    """SHA-256 of the picture's drawing primitives (printed board and position): stable across matplotlib versions."""
    parts = [repr(picture.sketch_board(game.board)), repr(sorted(picture.sketch_position(game).items()))]
    return hashlib.sha256("\n".join(parts).encode("utf-8")).hexdigest()


def figures() -> list[DocFigure]:
    """The board example, as SVG and PNG (ImportError naming the render extra without matplotlib)."""
    matplotlib: Any = matplotlib_parts().matplotlib
    game, moves = example_game()
    svg = picture.to_svg(game).encode("utf-8")
    with tempfile.TemporaryDirectory() as tmp:
        picture.save_png(game, Path(tmp) / "x.png")
        png = (Path(tmp) / "x.png").read_bytes()
    files = {"industry/board-example.svg": svg, "industry/board-example.png": png}  # under docs/
    entry = {
        "files": list(files),
        "caption": caption(game),
        "source": {**EXAMPLE, "moves": moves, "policy": "numpy default_rng(seed).choice of legal actions",
                   "board_version": int(game.board.version), "board_sha256": game.board.sha256},
        "drawing_sha256": drawing_digest(game),
        "matplotlib": matplotlib.__version__,
        "sha256": {name: hashlib.sha256(data).hexdigest() for name, data in files.items()},
    }  # fmt: skip
    return [DocFigure("board-example", entry, files, compared=("caption", "source", "drawing_sha256"))]
