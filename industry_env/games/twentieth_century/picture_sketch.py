"""What both of 20th Century's pictures (the PNG/SVG picture and the browser's page) draw with: the drawing
primitives by region (:class:`Sketch`), the colours and words, one tile drawn from its rail-piece graph
(:func:`sketch_tile`), and the cells of a nation a picture shows at one scale for every nation."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from . import playtext as _T
from .components import BUILDING, CITY_NAMES, Tile

if TYPE_CHECKING:
    from .reference import Game

WIDTH, HEIGHT = 1600, 1000  # pixels of every RGB picture and PNG
DPI = 100  # the SVG is 16 x 10 inches with the same layout
PICTURE_SHAPE = (HEIGHT, WIDTH, 3)


# Okabe-Ito colours (told apart with the common colour-vision deficiencies); citizens also sit in cities drawn
# with the owner's colour, and every panel names its seat, for greyscale print.
PLAYER_COLOURS = ("#d55e00", "#0072b2", "#009e73", "#cc79a7", "#e69f00")


ERA_COLOURS = {"start": "#efe6cf", "I-II": "#e3eed6", "III-IV": "#f6e2c4", "V": "#e5ddf0", "institution": "#d9e4ef"}
RESOURCE_COLOURS = ("#9a6b00", "#1f5fa8", "#222222")  # coins, science, VP
INK, GREY, _RAIL, BRIDGE_COLOUR, RECYCLE_COLOUR = "#222222", "#777777", "#4d4d4d", "#8b5a2b", "#1b8a3a"
SCORE_WORDS = {"production": "production", "quality_of_life": "quality of life", "round_2_card": "round II card",
               "round_4_card": "round IV card", "land_tiles": "land tiles", "pollution": "pollution track",
               "coins": "coins ranking", "science": "science ranking"}  # fmt: skip
ROMAN = ("", "I", "II", "III", "IV", "V", "VI")
_MIN_PT = 8.0  # no text smaller than this
PHASE_WORDS = _T.PHASE_WORDS


# City places on a tile of side 1 at rotation 0 (design: 1 city in the centre, 2 on a diagonal, 3 a triangle).
CITY_PLACES = {1: ((0.5, 0.5),), 2: ((0.3, 0.3), (0.7, 0.68)), 3: ((0.28, 0.27), (0.74, 0.34), (0.42, 0.72))}


SIDE_POINTS = {"N": (0.5, 0.0), "E": (1.0, 0.5), "S": (0.5, 1.0), "W": (0.0, 0.5)}
BUILDING_PLACE = (0.5, 0.5)
INSTITUTION_LETTERS = {"mine": "M", "laboratory": "L", "hospital": "H"}


class Sketch:
    """Drawing primitives (hashable tuples) by region of the picture: what to draw, before anything is drawn."""

    def __init__(self) -> None:
        self.regions: dict[str, list[tuple]] = {}
        self.region = "header"

    def text(self, x: float, y: float, s: str, **kw: Any) -> None:
        kw.setdefault("ha", "center")
        kw.setdefault("va", "center")
        kw.setdefault("color", INK)
        kw.setdefault("parse_math", False)
        kw["fontsize"] = max(_MIN_PT, float(kw.get("fontsize", 9)))
        self.regions.setdefault(self.region, []).append(("text", (x, y, s), tuple(sorted(kw.items()))))

    def patch(self, kind: str, *args: Any, **kw: Any) -> None:
        self.regions.setdefault(self.region, []).append((kind, args, tuple(sorted(kw.items()))))

    def rect(self, x: float, y: float, w: float, h: float, **kw: Any) -> None:
        self.patch("Rectangle", (x, y), w, h, **kw)

    def line(self, xs: tuple[float, ...], ys: tuple[float, ...], **kw: Any) -> None:
        kw.setdefault("solid_capstyle", "round")
        self.patch("Line2D", tuple(float(x) for x in xs), tuple(float(y) for y in ys), **kw)


def turned_point(u: float, v: float, rotation: int) -> tuple[float, float]:
    """A point of a tile of side 1 after ``rotation`` quarter turns clockwise (y downwards)."""
    for _ in range(rotation % 4):
        u, v = 1.0 - v, u
    return u, v


def _anchors(tile: Tile) -> dict[str, tuple[float, float]]:
    """Where each element of the tile's rails is drawn at rotation 0: its cities, its building, its side midpoints."""
    out = dict(SIDE_POINTS)
    for j, place in enumerate(CITY_PLACES[len(tile.cities)] if tile.cities else ()):
        out[CITY_NAMES[j]] = place
    out[BUILDING] = BUILDING_PLACE
    return out


def _hub(piece: frozenset[str], anchors: dict[str, tuple[float, float]]) -> tuple[float, float]:
    """The hub of a rail piece: the mean of its elements' anchors (a spur's hub lies towards the tile's centre)."""
    pts = [anchors[e] for e in sorted(piece)]
    if len(pts) == 1:
        (u, v) = pts[0]
        return (u + 0.5 * (0.5 - u) + 0.12, v + 0.5 * (0.5 - v) + 0.05)
    return (sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts))


def production_label(city: Any) -> str:
    parts = [f"{v}{c}" for v, c in zip((city.coins, city.science, city.vp), "csv", strict=True) if v]
    return " ".join(parts) or "-"


def sketch_tile(k: Sketch, tile: Tile, x: float, y: float, s: float, rotation: int = 0, bridge: int = -1,
                fill: str = "#eeeeee", citizens: int = 0, colour: str = INK, cubes: int = 0,
                production: bool = True, gid: str = "") -> None:  # fmt: skip
    """One tile of side ``s`` pixels at (x, y): its rails (hub and spokes), bridge, building, cities with their
    citizens (bit j: city j) and production, recycling centres (a green ring) and garbage cubes."""
    k.rect(x, y, s, s, facecolor=fill, edgecolor="#8c8c8c", lw=0.8, zorder=2, **({"gid": gid} if gid else {}))
    anchors = _anchors(tile)

    def at(point: tuple[float, float]) -> tuple[float, float]:
        u, v = turned_point(*point, rotation)
        return x + u * s, y + v * s

    rail_w = max(1.2, s / 28)
    hubs = []
    for piece in tile.rails:
        hub = _hub(piece, anchors)
        hubs.append(hub)
        hx, hy = at(hub)
        for e in sorted(piece):
            ex, ey = at(anchors[e])
            k.line((hx, ex), (hy, ey), color=_RAIL, lw=rail_w, zorder=3)
    if bridge >= 0:
        ends = [at(hubs[int(e[1:]) - 1] if e.startswith("r") else anchors[e]) for e in tile.bridges[bridge]]
        k.line((ends[0][0], ends[1][0]), (ends[0][1], ends[1][1]), color=BRIDGE_COLOUR, lw=rail_w * 2.6, zorder=3.5)
    if tile.building:
        b = 0.3 * s
        bx, by = at(BUILDING_PLACE)
        k.rect(bx - b / 2, by - b / 2, b, b, facecolor="#ffffff", edgecolor=INK, lw=1.0, zorder=4)
        label = INSTITUTION_LETTERS[tile.building] + (f"+{tile.bonus}" if s >= 50 else "")
        k.text(bx, by, label, fontsize=max(8, s / 9), weight="bold", zorder=5)
    r = max(4.0, 0.1 * s)
    for j, city in enumerate(tile.cities):
        cx, cy = at(CITY_PLACES[len(tile.cities)][j])
        occupied = bool(citizens >> j & 1)
        k.patch("Circle", (cx, cy), r, facecolor=colour if occupied else "#ffffff", edgecolor=INK, lw=1.0, zorder=5)
        if city.recycling:
            k.patch("Circle", (cx, cy), r + max(2.0, s / 30), fill=False, edgecolor=RECYCLE_COLOUR, lw=max(1.5, s / 40),
                    zorder=5)  # fmt: skip
        # a city that makes nothing (a bare centre) is unlabelled; three cities need a larger tile for labels
        if production and production_label(city) != "-" and (len(tile.cities) < 3 or s >= 80):
            label, pt = production_label(city), 8 if s < 90 else 9
            lw, lh = len(label) * pt * DPI / 72 * 0.6 + 2, pt * DPI / 72 * 1.25
            top = min(cy + r + 1, y + s - lh)  # inside the tile
            k.rect(cx - lw / 2, top, lw, lh, facecolor="#ffffff", edgecolor="none", lw=0, alpha=0.75, zorder=5.5)
            k.text(cx, top + lh / 2, label, fontsize=pt, zorder=6, color=INK)
    if cubes:
        c = max(7.0, s / 7)
        k.rect(x + s - c - 2, y + 2, c, c, facecolor="#111111", edgecolor="#111111", lw=0.5, zorder=6)
        if cubes > 1:
            k.text(x + s - c / 2 - 2, y + 2 + c / 2, str(cubes), fontsize=8, color="white", weight="bold", zorder=7)


# ================================================================================================ a nation's cells
def tile_cells(game: Game, p: int) -> list[tuple[int, int, int]]:
    """Seat ``p``'s tiles as (slot, x, y): each slot's cell, from the starting tile's (0, 0), either negative."""
    return [(c, *game.cell_of(p, c)) for c, code in enumerate(game.grid_tile[p]) if code >= 0]


def nation_box(game: Game, p: int, extra: list[tuple[int, int]] | None = None) -> tuple[int, int, int, int]:
    """The cells the picture shows of a nation (x0, y0, x1, y1; the nation has no bound, so any may be negative): its
    tiles' bounding box (and the cell a tile is being turned on, and the ``extra`` cells (x, y)), at least 3 x 3."""
    cells = [(x, y) for _, x, y in tile_cells(game, p)] + turning_cells(game, p) + list(extra or [])
    xs, ys = [x for x, _ in cells], [y for _, y in cells]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    while x1 - x0 < 2:
        x0, x1 = (x0 - 1, x1) if (x1 - x0) % 2 == 0 else (x0, x1 + 1)
    while y1 - y0 < 2:
        y0, y1 = (y0 - 1, y1) if (y1 - y0) % 2 == 0 else (y0, y1 + 1)
    return x0, y0, x1, y1


def turning_cells(game: Game, p: int) -> list[tuple[int, int]]:
    """The cell (x, y) on which seat ``p`` is choosing how to turn the tile it attaches (empty list: none)."""
    if game.phase == "attach_rotate" and game.to_move == p and not game.is_over:
        return [game.placed_cell(p, game.sel[1])]
    return []


def nation_scale(boxes: list[tuple[int, int, int, int]], spaces: list[tuple[float, float]], most: float) -> float:
    """The one scale (pixels a cell) that every nation is drawn at: the largest at which each nation's box of cells
    fits its space (width, height), at most ``most``."""
    scale = most
    for (x0, y0, x1, y1), (w, h) in zip(boxes, spaces, strict=True):
        scale = min(scale, w / (x1 - x0 + 1), h / (y1 - y0 + 1))
    return scale


def sketch_nation(k: Sketch, game: Game, p: int, ox: float, oy: float, s: float, box: tuple[int, int, int, int],
                  colour: str) -> None:  # fmt: skip
    """Seat ``p``'s nation as both pictures draw it: the grid of the cells of ``box`` (:func:`nation_box`) from
    (ox, oy), ``s`` pixels a cell, and each tile on its cell in the seat's ``colour``."""
    d = game.data
    cx0, cy0, cx1, cy1 = box
    cols, rows = cx1 - cx0 + 1, cy1 - cy0 + 1
    for gx in range(cols + 1):
        k.line((ox + gx * s, ox + gx * s), (oy, oy + rows * s), color="#e4e4e4", lw=0.6, zorder=1)
    for gy in range(rows + 1):
        k.line((ox, ox + cols * s), (oy + gy * s, oy + gy * s), color="#e4e4e4", lw=0.6, zorder=1)
    for c, cx, cy in tile_cells(game, p):
        code = game.grid_tile[p][c]
        tile = d.tile(code)
        era = tile.stack if d.is_land(code) else "institution"
        sketch_tile(k, tile, ox + (cx - cx0) * s, oy + (cy - cy0) * s, s, game.grid_rot[p][c], game.grid_bridge[p][c],
                    ERA_COLOURS.get(era, "#eeeeee"), game.grid_citizens[p][c], colour, game.grid_cubes[p][c],
                    production=s >= 56, gid=f"tile-{p}-{cx}-{cy}")  # fmt: skip


def wrap_text(text: str, width: float, points: float, em: float = 0.55) -> list[str]:
    """``text`` in lines of at most ``width`` pixels at ``points`` (an average letter is ``em`` wide)."""
    per = max(10, int(width / (points * DPI / 72 * em)))
    words, lines, line = text.split(" "), [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > per:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return [*lines, line] if line else lines


def checked_seat(game: Game, seat: Any) -> int | None:
    if seat is None:
        return None
    if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= int(seat) < game.n:
        raise ValueError(f"seat={seat!r}: must be None (the public view) or a seat from 0 to {game.n - 1}")
    return int(seat)
