"""The games' pictures as SVG for the browser, written straight from the primitives the games' pictures are made
of (``sketch_board``/``sketch_map`` and ``sketch_position``), in a few milliseconds.

The games' own ``to_svg`` draws the same primitives through matplotlib, which takes half a second or more a
position on a 2-core machine: too slow for a move's round trip. This writer gives every primitive the same place,
size, colour and stacking order (the board first, then the position, each by matplotlib's ``zorder``); text is
laid out by the browser (DejaVu Sans where installed), so letters can differ from matplotlib's by a pixel or two.
A primitive's ``gid`` becomes its element's ``id`` (``location-Köln``, ``space-Köln-1``, ``road-1D-1E``): the page
looks them up on click.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from html import escape
from typing import Any

DPI = 100  # both games' pictures: 1280 x 800 pixels, 12.8 x 8 inches; points -> pixels is DPI / 72
_PX = DPI / 72

# matplotlib's default zorder of each kind of artist
_ZORDER = {"text": 3.0, "Line2D": 2.0, "scatter": 1.0}

# every keyword the pictures use, by kind (a test draws whole games and checks that no other appears, so that a
# new keyword in a picture is noticed rather than silently dropped)
KNOWN_KEYWORDS = {
    "text": {"fontsize", "ha", "va", "color", "weight", "style", "rotation", "linespacing", "zorder", "parse_math",
             "alpha", "gid"},
    "Rectangle": {"facecolor", "edgecolor", "lw", "alpha", "zorder", "gid", "ls", "fill"},
    "Circle": {"facecolor", "edgecolor", "lw", "alpha", "zorder", "gid", "fill"},
    "Polygon": {"facecolor", "edgecolor", "lw", "alpha", "zorder", "gid", "closed", "fill"},
    "FancyBboxPatch": {"facecolor", "edgecolor", "lw", "alpha", "zorder", "gid", "boxstyle", "ls", "fill"},
    "Line2D": {"color", "lw", "ls", "alpha", "zorder", "gid", "solid_capstyle", "solid_joinstyle"},
    "scatter": {"s", "c", "marker", "edgecolors", "linewidths", "zorder", "alpha", "gid"},
}  # fmt: skip


def _num(v: float) -> str:
    """A coordinate, short."""
    return f"{float(v):.2f}".rstrip("0").rstrip(".")


def _colour(value: Any, default: str = "none") -> str:
    """A colour as SVG writes it (matplotlib's names and hex strings are both CSS colours)."""
    if value is None:
        return default
    if isinstance(value, (tuple, list)):
        r, g, b = (int(round(255 * float(c))) for c in value[:3])
        return f"#{r:02x}{g:02x}{b:02x}"
    return escape(str(value))


def _dashes(ls: Any, lw_px: float) -> str:
    """``stroke-dasharray`` of a matplotlib line style (dashes scale with the line width, as matplotlib's do)."""
    if ls in (None, "-", "solid"):
        return ""
    if isinstance(ls, tuple) and len(ls) == 2 and ls[1]:
        pattern = ls[1]
    else:
        pattern = {"--": (3.7, 1.6), "dashed": (3.7, 1.6), ":": (1, 1.65), "dotted": (1, 1.65),
                   "-.": (6.4, 1.6, 1, 1.6), "dashdot": (6.4, 1.6, 1, 1.6)}.get(ls, ())  # fmt: skip
    if not pattern:
        return ""
    scale = max(lw_px, 1.0)
    return f' stroke-dasharray="{" ".join(_num(p * scale) for p in pattern)}"'


def _paint(kw: dict[str, Any], fill_default: str = "#1f77b4") -> str:
    """Fill, stroke, width and opacity of a patch (matplotlib's default face colour is C0 blue)."""
    fill = "none" if kw.get("fill", True) is False else _colour(kw.get("facecolor"), fill_default)
    stroke = _colour(kw.get("edgecolor"), "none")
    lw = float(kw.get("lw", 1.0)) * _PX
    out = f' fill="{fill}" stroke="{stroke}"'
    if stroke != "none" and lw > 0:
        out += f' stroke-width="{_num(lw)}"' + _dashes(kw.get("ls"), lw)
    if kw.get("alpha") is not None:
        out += f' opacity="{_num(kw["alpha"])}"'
    return out


def _id(kw: dict[str, Any]) -> str:
    return f' id="{escape(str(kw["gid"]))}"' if kw.get("gid") else ""


def _text(args: Sequence[Any], kw: dict[str, Any]) -> str:
    x, y, s = float(args[0]), float(args[1]), str(args[2])
    size = float(kw.get("fontsize", 10)) * _PX
    anchor = {"left": "start", "center": "middle", "right": "end"}.get(kw.get("ha", "left"), "start")
    va = kw.get("va", "baseline")
    lines = s.split("\n")
    step = float(kw.get("linespacing", 1.2)) * size
    if va == "center":
        first = y - (len(lines) - 1) * step / 2
        base = "central"
    elif va == "top":
        first, base = y, "hanging"
    elif va == "bottom":
        first, base = y - (len(lines) - 1) * step, "auto"
    else:  # baseline
        first, base = y, "auto"
    attrs = (f' x="{_num(x)}" y="{_num(first)}" font-size="{_num(size)}" text-anchor="{anchor}"'
             f' dominant-baseline="{base}" fill="{_colour(kw.get("color"), "#000000")}"')  # fmt: skip
    if kw.get("weight") in ("bold", "heavy", "semibold", "demibold") or (
        isinstance(kw.get("weight"), (int, float)) and kw["weight"] >= 600
    ):
        attrs += ' font-weight="bold"'
    if kw.get("style") in ("italic", "oblique"):
        attrs += ' font-style="italic"'
    if kw.get("alpha") is not None:
        attrs += f' opacity="{_num(kw["alpha"])}"'
    if kw.get("rotation"):
        attrs += f' transform="rotate({_num(-float(kw["rotation"]))} {_num(x)} {_num(y)})"'
    if len(lines) == 1:
        body = escape(s)
    else:
        body = "".join(f'<tspan x="{_num(x)}" dy="{_num(0 if i == 0 else step)}">{escape(line)}</tspan>'
                       for i, line in enumerate(lines))  # fmt: skip
    return f"<text{_id(kw)}{attrs}>{body}</text>"


def _line(args: Sequence[Any], kw: dict[str, Any]) -> str:
    xs, ys = args[0], args[1]
    lw = float(kw.get("lw", 1.5)) * _PX
    cap = {"butt": "butt", "round": "round", "projecting": "square"}.get(kw.get("solid_capstyle", "projecting"))
    join = {"miter": "miter", "round": "round", "bevel": "bevel"}.get(kw.get("solid_joinstyle", "round"))
    points = " ".join(f"{_num(x)},{_num(y)}" for x, y in zip(xs, ys, strict=True))
    out = (f'<polyline{_id(kw)} points="{points}" fill="none" stroke="{_colour(kw.get("color"), "#1f77b4")}"'
           f' stroke-width="{_num(lw)}" stroke-linecap="{cap}" stroke-linejoin="{join}"'
           f"{_dashes(kw.get('ls'), lw)}")  # fmt: skip
    if kw.get("alpha") is not None:
        out += f' opacity="{_num(kw["alpha"])}"'
    return out + "/>"


def _rounding(boxstyle: Any) -> float:
    """The corner radius of a ``round,pad=0,rounding_size=R`` box style (0 for a square box)."""
    text = str(boxstyle or "")
    if not text.startswith("round"):
        return 0.0
    for part in text.split(",")[1:]:
        key, _, value = part.partition("=")
        if key.strip() == "rounding_size":
            return float(value)
    return 0.0


def _scatter(args: Sequence[Any], kw: dict[str, Any]) -> str:
    xs, ys = args[0], args[1]
    xs = xs if isinstance(xs, (list, tuple)) else [xs]
    ys = ys if isinstance(ys, (list, tuple)) else [ys]
    size = math.sqrt(float(kw.get("s", 36))) * _PX  # marker width in pixels (s is its area in points squared)
    marker = str(kw.get("marker", "o"))
    fill = _colour(kw.get("c"), "#1f77b4")
    stroke = _colour(kw.get("edgecolors"), "none")
    lw = float(kw.get("linewidths", 1.0)) * _PX
    out = []
    for x, y in zip(xs, ys, strict=True):
        if marker.startswith("$") and marker.endswith("$") and len(marker) > 2:  # a mathtext glyph: its text
            out.append(f'<text x="{_num(x)}" y="{_num(y)}" font-size="{_num(size)}" text-anchor="middle"'
                       f' dominant-baseline="central" font-weight="bold" fill="{fill}" stroke="{stroke}"'
                       f' stroke-width="{_num(lw)}" paint-order="stroke">{escape(marker[1:-1])}</text>')  # fmt: skip
        else:
            out.append(f'<circle cx="{_num(x)}" cy="{_num(y)}" r="{_num(size / 2)}" fill="{fill}" stroke="{stroke}"'
                       f' stroke-width="{_num(lw)}"/>')  # fmt: skip
    return "".join(out)


def element(spec: tuple) -> str:
    """One primitive ``(kind, args, keywords)`` as an SVG element; ValueError for a kind this writer does not know."""
    kind, args, kw = spec
    kw = dict(kw)
    if kind == "text":
        return _text(args, kw)
    if kind == "Line2D":
        return _line(args, kw)
    if kind == "scatter":
        return _scatter(args, kw)
    if kind in ("Rectangle", "FancyBboxPatch"):
        (x, y), w, h = args[0], float(args[1]), float(args[2])
        x, y = (float(x) + w, float(y)) if w < 0 else (float(x), float(y))
        y = y + h if h < 0 else y
        r = _rounding(kw.get("boxstyle")) if kind == "FancyBboxPatch" else 0.0
        corner = f' rx="{_num(r)}"' if r else ""
        return (f'<rect{_id(kw)} x="{_num(x)}" y="{_num(y)}" width="{_num(abs(w))}" height="{_num(abs(h))}"'
                f"{corner}{_paint(kw)}/>")  # fmt: skip
    if kind == "Circle":
        (x, y), r = args[0], float(args[1])
        return f'<circle{_id(kw)} cx="{_num(x)}" cy="{_num(y)}" r="{_num(r)}"{_paint(kw)}/>'
    if kind == "Polygon":
        points = " ".join(f"{_num(x)},{_num(y)}" for x, y in args[0])
        tag = "polygon" if kw.get("closed", True) else "polyline"
        return f'<{tag}{_id(kw)} points="{points}"{_paint(kw)}/>'
    raise ValueError(f"a picture primitive of kind {kind!r}: the web pictures draw {', '.join(KNOWN_KEYWORDS)}")


def zorder(spec: tuple) -> float:
    """The stacking order matplotlib gives a primitive (patches 1, lines 2, text 3 unless set)."""
    kind, _, kw = spec
    return float(dict(kw).get("zorder", _ZORDER.get(kind, 1.0)))


def layered(primitives: Iterable[tuple]) -> list[tuple[float, str]]:
    """Primitives as ``(zorder, element)`` pairs in drawing order."""
    return [(zorder(p), element(p)) for p in primitives]


def document(static: Sequence[tuple[float, str]], position: Iterable[tuple], width: int = 1280,
             height: int = 800, title: str = "") -> str:  # fmt: skip
    """A whole picture: the board's elements (from :func:`layered`, made once a board), then the position's
    primitives on top, each stacked by zorder (a stable sort: equal zorders keep their order), as the games' PNG
    pictures draw a position over the board drawn before."""
    board = [e for _, e in sorted(static, key=lambda item: item[0])]
    drawn = [e for _, e in sorted(layered(position), key=lambda item: item[0])]
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
            f'height="{height}" font-family="DejaVu Sans, Verdana, Arial, sans-serif" role="img">')  # fmt: skip
    label = f"<title>{escape(title)}</title>" if title else ""
    # the board and the position in groups of their own: the page redraws only the position when the board
    # before it is the same (a move's picture then costs the browser a fraction of the whole)
    return (f'{head}{label}<rect width="{width}" height="{height}" fill="white"/><g id="board">{"".join(board)}'
            f'</g><g id="position">{"".join(drawn)}</g></svg>')  # fmt: skip
