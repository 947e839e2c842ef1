"""20th Century's picture in the docs (its spec's ``doc_figures``): ``docs/twentieth-century/pictures.png``, the
example position :data:`.picture.EXAMPLE`, redrawn and checked by ``python -m industry_env.docfigures``."""

from __future__ import annotations

from ...core.figure import DocFigure, example_figure, matplotlib_parts
from . import picture

PATH = "twentieth-century/pictures.png"  # under docs/


def figures() -> list[DocFigure]:
    """The example picture (ImportError naming the render extra without matplotlib)."""
    matplotlib_parts()  # the render extra's message, before any drawing
    game = picture.example_game(**{k: v for k, v in picture.EXAMPLE.items() if k != "seat"})
    source = {**picture.EXAMPLE, "policy": "random.Random(seed).choices, withdraw/pass/done weighted 0.15",
                                    "data_sha256": game.data.sha256}
    return [example_figure("twentieth-century-pictures", PATH, source, picture.example_sketch(), picture.example_png())]
