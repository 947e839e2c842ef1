"""What every game's matplotlib pictures share: a figure with a position's artists drawn on it, saved as SVG or
PNG."""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Sequence
from typing import Any


def pixel_page(Figure: Any, FigureCanvasAgg: Any, width: int, height: int, dpi: int) -> tuple[Any, Any, Any]:
    """A white figure of ``width`` x ``height`` pixels, its Agg canvas and one axes filling it in pixel coordinates
    (y downwards, as the pictures' layouts are given), without axis lines: (figure, canvas, axes)."""
    fig = Figure(figsize=(width / dpi, height / dpi), dpi=dpi, facecolor="white")
    canvas = FigureCanvasAgg(fig)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, width)
    ax.set_ylim(height, 0)
    ax.set_axis_off()
    return fig, canvas, ax


def svg_document(matplotlib: Any, fig: Any, artists: Sequence[Any], text_as_paths: bool = False) -> str:
    """``fig`` as an SVG document (text kept as text unless ``text_as_paths``; no date, fixed ids: the same position
    gives the same bytes), then ``artists`` (the position drawn on the figure's fixed board) removed again."""
    buf = io.StringIO()
    try:
        fonttype = "path" if text_as_paths else "none"
        with matplotlib.rc_context({"svg.fonttype": fonttype, "svg.hashsalt": "industry_env"}):
            fig.savefig(buf, format="svg", metadata={"Date": None})
    finally:
        for a in artists:
            a.remove()
    return buf.getvalue()


def check_colours(colours: Any) -> None:
    """Refuse a palette size a PNG cannot have: 0 (full colour) or 2 to 256."""
    if colours and not 2 <= colours <= 256:
        raise ValueError(f"to_png: colours={colours!r} must be 0 (full colour) or from 2 to 256")


def png_bytes(rgb: Any, colours: int = 0) -> bytes:
    """``uint8[H, W, 3]`` as PNG bytes; with ``colours`` (2 to 256) a palette PNG of that many colours, far smaller
    (what notebooks show)."""
    from .gif import pillow

    check_colours(colours)
    Image = pillow()
    image = Image.fromarray(rgb)
    if colours:
        image = image.quantize(colours, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    buf = io.BytesIO()
    image.save(buf, format="PNG", optimize=bool(colours))
    return buf.getvalue()


def text_picture(text: str, width: int = 1280, height: int = 800) -> Any:
    """A position's text drawn in Pillow's plain font on a white ``width`` x ``height`` page, uint8[H, W, 3]: the
    picture of a game that draws none of its own (lines beyond the page are cut). Needs Pillow (the render extra)."""
    import numpy as np

    from .gif import pillow

    Image = pillow()
    from PIL import ImageDraw

    page = Image.new("RGB", (width, height), "white")
    ImageDraw.Draw(page).multiline_text((12, 12), text, fill="black", spacing=2)
    return np.asarray(page, dtype=np.uint8).copy()


@dataclasses.dataclass(frozen=True)
class DocFigure:
    """A picture of the docs that a game draws (``GameSpec.doc_figures``), written and checked by
    ``python -m industry_env.docfigures``: ``key`` names its entry in ``docs/figures.json``, ``entry`` is what the
    entry records (its source, the digests of its drawing and of its files: ``sha256``, one digest or one per file
    name), ``files`` the bytes of each file by its path under ``docs/``, ``compared`` the keys of the entry that
    must equal the committed ones (what the picture shows, not the bytes a matplotlib version writes)."""

    key: str
    entry: dict[str, Any]
    files: dict[str, bytes]
    compared: tuple[str, ...] = ("source", "drawing_sha256")
