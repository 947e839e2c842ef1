"""20th Century's picture in the docs (its spec's ``doc_figures``): ``docs/twentieth-century/pictures.png``, the
example position :data:`.picture.EXAMPLE`, redrawn and checked by ``python -m industry_env.docfigures``."""

from __future__ import annotations

import hashlib

from ...core.figure import DocFigure
from . import picture

PATH = "twentieth-century/pictures.png"  # under docs/


def figures() -> list[DocFigure]:
    """The example picture (ImportError naming the render extra without matplotlib)."""
    picture._matplotlib()
    game = picture.example_game(**{k: v for k, v in picture.EXAMPLE.items() if k != "seat"})
    png = picture.example_png()
    entry = {
        "file": "pictures.png",
        "path": PATH,
        "source": {**picture.EXAMPLE, "policy": "random.Random(seed).choices, withdraw/pass/done weighted 0.15",
                   "data_sha256": game.data.sha256},
        "drawing_sha256": hashlib.sha256(repr(sorted(picture.example_sketch().items())).encode("utf-8")).hexdigest(),
        "sha256": hashlib.sha256(png).hexdigest(),
    }  # fmt: skip
    return [DocFigure("twentieth-century-pictures", entry, {PATH: png})]
