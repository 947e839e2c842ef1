"""What every game's matplotlib pictures share: a figure with a position's artists drawn on it, saved as SVG."""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any


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
