"""What every game's matplotlib pictures share: a figure with a position's artists drawn on it, saved as SVG or
PNG, and (:class:`Pictures`) the front over a game's two drawings: PNG bytes and files, SVG files, the GIF writer and
``show``."""

from __future__ import annotations

import dataclasses
import io
import os
from collections.abc import Callable, Sequence
from types import SimpleNamespace
from typing import Any

from .gif import MISSING_RENDER


def matplotlib_parts() -> SimpleNamespace:
    """The matplotlib pieces the games' pictures draw with (``matplotlib``, ``patches``, ``Figure``,
    ``FigureCanvasAgg``, ``Line2D``, ``MarkerStyle``), imported on first use: without matplotlib, an ImportError
    that names the extra to install."""
    try:
        import matplotlib
        from matplotlib import patches
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
        from matplotlib.lines import Line2D
        from matplotlib.markers import MarkerStyle
    except ImportError as exc:
        raise ImportError(MISSING_RENDER) from exc
    return SimpleNamespace(matplotlib=matplotlib, patches=patches, Figure=Figure, FigureCanvasAgg=FigureCanvasAgg,
                           Line2D=Line2D, MarkerStyle=MarkerStyle)  # fmt: skip


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



def example_figure(key: str, path: str, source: dict[str, Any], sketch: dict[str, Any], png: bytes) -> DocFigure:
    """A game's example picture in its docs: ``png`` written at ``path`` (under ``docs/``), its entry recording
    ``source`` (what it was drawn from), the digest of its drawing primitives ``sketch`` (what it shows, compared
    with the committed one) and of its bytes."""
    import hashlib

    entry = {"file": path.rsplit("/", 1)[-1], "path": path, "source": source,
             "drawing_sha256": hashlib.sha256(repr(sorted(sketch.items())).encode("utf-8")).hexdigest(),
             "sha256": hashlib.sha256(png).hexdigest()}  # fmt: skip
    return DocFigure(key, entry, {path: png})

class Pictures:
    """A game's pictures, written once over its two drawings: ``rgb(game, seat)`` (uint8[H, W, 3]: the position,
    ``seat`` None for the public view) and ``svg(game, seat, text_as_paths)`` (the same as an SVG document). What a
    game declares beside them: its ``name`` (the window's title), ``swatch`` (the colours a GIF's palette keeps: its
    players'), ``width`` (pixels a notebook shows), ``dpi`` and ``requires`` (imports what drawing needs, or raises
    the ImportError naming the extra). A game's ``picture.py`` exports the bound methods (``to_png =
    PICTURES.to_png``, ...) and ``GifWriter = PICTURES.gif_writer``."""

    def __init__(self, name: str, rgb: Callable[..., Any], svg: Callable[..., str], *, swatch: Sequence[str] = (),
                 width: int, dpi: int, requires: Callable[[], Any], where: str = "") -> None:  # fmt: skip
        from .window import Window

        self.name, self.rgb, self.svg, self.swatch, self.width = name, rgb, svg, tuple(swatch), width
        self.requires, self.where = requires, where
        self.window = Window(name, dpi)  # render_mode="human" outside a notebook

    def to_png(self, game: Any, seat: int | None = None, colours: int = 0) -> bytes:
        """The picture as PNG bytes; with ``colours`` (2 to 256) a palette PNG of that many colours, far smaller."""
        from .gif import pillow

        pillow()  # the render extra named before anything is drawn
        check_colours(colours)
        return png_bytes(self.rgb(game, seat), colours)

    def save_png(self, game: Any, path: str | os.PathLike[str], seat: int | None = None, colours: int = 0) -> None:
        """Write the picture of ``game``'s position to ``path`` as a PNG, atomically."""
        from .outputs import write_bytes_atomic

        write_bytes_atomic(path, self.to_png(game, seat, colours))

    def save_svg(self, game: Any, path: str | os.PathLike[str], seat: int | None = None,
                 text_as_paths: bool = False) -> None:  # fmt: skip
        """Write the SVG picture of ``game``'s position to ``path`` (vector graphics, for papers), atomically."""
        from .outputs import write_bytes_atomic

        write_bytes_atomic(path, self.svg(game, seat, text_as_paths).encode("utf-8"))

    def gif_writer(self, path: str | os.PathLike[str], frame_ms: int = 400, last_ms: int = 3000,
                   scale: float = 1.0) -> Any:  # fmt: skip
        """An animated GIF of the game's pictures written frame by frame (:class:`.gif.GifWriter`): frames are
        pictures or games to draw (the public view); the palette keeps ``swatch``. Use as a context manager."""
        from .gif import GifWriter

        self.requires()
        return GifWriter(path, frame_ms, last_ms, scale, swatch=self.swatch, draw=self.rgb)

    def show(self, game: Any, seat: int | None = None) -> bool:
        """Show the position: an inline PNG (128 colours) in a Jupyter notebook, else in one matplotlib window
        updated in place. True when shown; without a display it warns, saying what is missing, and returns False (a
        missing matplotlib still raises the ImportError naming the extra)."""
        from .window import in_notebook

        if in_notebook():
            from IPython.display import Image, display

            display(Image(self.to_png(game, seat, colours=128), width=self.width))
            return True
        return self.window.show(self.rgb(game, seat), self.where)
