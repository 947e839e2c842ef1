"""Age of Industry's picture in the docs (its spec's ``doc_figures``): ``docs/age-of-industry/pictures.png``, the
example position :data:`.picture.EXAMPLE`, redrawn and checked by ``python -m industry_env.docfigures``."""

from __future__ import annotations

from ...core.figure import DocFigure, example_figure, matplotlib_parts
from . import picture

PATH = "age-of-industry/pictures.png"  # under docs/


def figures() -> list[DocFigure]:
    """The example picture (ImportError naming the render extra without matplotlib)."""
    matplotlib_parts()  # the render extra's message, before any drawing
    game = picture.example_game(**{k: v for k, v in picture.EXAMPLE.items() if k != "seat"})
    source = {**picture.EXAMPLE, "policy": "random.Random(seed).choices weighted by "
                                    "picture._EXAMPLE_WEIGHTS", "map_sha256": game.map.sha256,
                                    "components_sha256": game.components.sha256}
    return [example_figure("age-of-industry-pictures", PATH, source, picture.example_sketch(), picture.example_png())]
