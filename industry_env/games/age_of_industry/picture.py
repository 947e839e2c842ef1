"""Pictures of an Age of Industry position for papers, notebooks, windows and replays: PNG, RGB arrays and SVG.

The picture shows the map (each location with its name and colour, its spaces with their symbols, the counters
on them by owner, industry, level and flipped or not, with their coal or iron cubes, the market tiles and the
coal imports; rail links, drawn in the owner's colour once built, and dashed sea lanes), the demand track, the
face-up cards, the deck and the discard pile, and per player money, loans, rails left, hand size, the cards the
table knows to be in the hand, points as if the game ended now and the counters left on the display; the round,
the turn order, whose decision it is and what is being decided. ``seat=`` adds that seat's own hand; no picture
ever shows another seat's hand or the deck's order.

The printed maps are not public and the map files have no coordinates: each location's place on the picture is
reconstructed here (:data:`PLACES`, from real geography, spread so that no two locations' boxes overlap); a user's
map file gets a layout computed from its link graph (a spectral layout, then the same spreading), once per map.

It reads only the public state of a reference :class:`~industry_env.games.age_of_industry.reference.Game` and the
data tables; it holds no rule. matplotlib is an optional extra (``pip install 'industry_env[render]'``); this
module imports without it and each function raises :class:`ImportError` naming the extra when it is missing.
Drawing uses matplotlib's object API on the Agg canvas, never a GUI backend, so it works on a headless machine.
The printed map is drawn once per map; a frame draws the position on top of it. The shared figures make these
functions unsafe to call from several threads at once, so a lock serialises them.
"""

from __future__ import annotations

import os
import textwrap
import threading
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from ...core import gif as _gif
from ...core.figure import Pictures, matplotlib_parts, pixel_page, svg_document
from ...core.outputs import write_bytes_atomic
from .components import ALL_SYMBOLS, IMPORT_SPACE, MARKET_KINDS, MARKET_SPACE, GameMap, load_components
from .rules import INDUSTRY_LABELS, NUM_FACE_UP, RESOURCES

if TYPE_CHECKING:
    from .reference import Game

WIDTH, HEIGHT = 1280, 800  # pixels of every RGB picture and PNG
DPI = 100  # the SVG is 12.8 x 8 inches with the same layout
PICTURE_SHAPE = (HEIGHT, WIDTH, 3)  # shape of to_rgb_array's result
# Okabe-Ito colours, told apart with the common colour-vision deficiencies; counters and rails also carry the
# owner's number, for greyscale print.
PLAYER_COLOURS = ("#d55e00", "#0072b2", "#009e73", "#cc79a7", "#e69f00")
# Location colours of the deck (components.toml): (box fill, border).
LOCATION_COLOURS = {
    "blue": ("#dbe9f7", "#2b6cb0"), "green": ("#dcefd6", "#2f855a"), "orange": ("#fde5cc", "#c05621"),
    "grey": ("#e6e6e6", "#5a6470"), "purple": ("#e9def4", "#6b46c1"), "brown": ("#eee0d0", "#7b4a1e"),
}  # fmt: skip
_TEXT_ON = ("white", "white", "white", "#222222", "#222222")  # readable text on each player's colour
_OTHER_COLOUR = ("#f7f7f7", "#8a8a8a")  # a location with no colour (off-map markets and coal imports)
INDUSTRY_LETTERS = ("C", "F", "M", "I", "P", "S")  # rules.INDUSTRIES order, on counters: letter + level
_SHORT = ("cotton", "factory", "mine", "iron", "port", "ship")  # headings of the display's columns
SPACE_MARKS = {"blank": "", "coal": "⚒", "port": "⚓", "ship": "☸"}  # printed symbol of an empty build space
TILE_MARKS = ("C", "F", "C F", "–")  # MARKET_KINDS order: buys cotton, factory goods, both, nothing
CUBE_COLOURS = ("#1a1a1a", "#e07b00")  # coal (black), iron (orange)
_INK, _RED, _RAIL = "#222222", "#c0112b", "#bdbdbd"
_SEA = "#4a7fb0"

# Layout in pixels, y downwards: the axes map data units to pixels one to one.
_MAP = (10, 40, 812, 742)  # x0, y0, x1, y1 of the map area (location centres keep their boxes inside it)
_PANEL_X = 826  # left edge of the panel on the right
_PANEL_W = WIDTH - _PANEL_X - 8
_SP = 26  # side of a space's square (room for counter digits of 7 points and more)
_GAP = 3  # between squares
_NAME_PT = 7.5  # font size of location names
_BOX_PAD = 4
_PLAYERS_Y = 206  # top of the first player's box
_PLAYER_H = 118
_MISSING = _gif.MISSING_RENDER
# Regions of the picture that change independently: name -> (x0, y0, x1, y1) in pixels; together the whole picture.
_REGIONS = {
    "header": (0, 0, WIDTH, 34),
    "board": (0, 34, _PANEL_X - 6, HEIGHT),
    "status": (_PANEL_X - 6, 34, WIDTH, _PLAYERS_Y - 3),
    **{f"player{p}": (_PANEL_X - 6, _PLAYERS_Y - 3 + p * _PLAYER_H, WIDTH,
                      _PLAYERS_Y - 3 + (p + 1) * _PLAYER_H if p < 4 else HEIGHT) for p in range(5)},
}  # fmt: skip

# Reconstructed places of the shipped maps' locations: (x, y) in a 100 x 100 square over the map area, x east, y
# south, read off real geography (longitude, latitude) and moved where two would overlap or crowd a link.
PLACES: dict[str, dict[str, tuple[float, float]]] = {
    "germany": {
        "Denmark": (31, 0), "Kiel": (29, 10), "Lübeck": (40, 14), "Rostock": (52, 9), "Hamburg": (30, 21),
        "Bremen": (18, 27), "Emden": (5, 20), "Stettin": (68, 19), "Danzig": (85, 8), "East Prussia": (97, 2),
        "Poland": (93, 36), "Berlin": (64, 33), "Hannover": (33, 36), "Magdeburg": (49, 38), "Osnabrück": (18, 38),
        "Holland": (2, 37), "Ruhr": (9, 48), "Köln": (6, 59), "Belgium": (0, 69), "Kassel": (28, 49),
        "Leipzig": (51, 50), "Dresden": (68, 50), "Chemnitz": (61, 60), "Erfurt": (41, 57), "Fulda": (30, 61),
        "Frankfurt": (21, 69), "Bohemia": (77, 68), "Würzburg": (35, 72), "Saar": (9, 80), "France": (0, 91),
        "Mannheim": (23, 82), "Nürnberg": (47, 74), "Regensburg": (60, 81), "Stuttgart": (31, 91),
        "Augsburg": (44, 92), "München": (58, 95), "Austria": (73, 99), "Switzerland": (24, 100),
    },
    "new_england": {
        "Canada": (22, 0), "Burlington": (27, 13), "Bangor": (74, 7), "Lewiston": (55, 16), "Portland": (60, 27),
        "White River Junction": (38, 22), "Rutland": (25, 31), "Concord": (44, 30), "Portsmouth": (60, 40),
        "Manchester": (47, 40), "Keene": (34, 39), "Albany": (6, 44), "Pittsfield": (23, 53), "Lowell": (53, 49),
        "Worcester": (39, 55), "Boston": (62, 55), "Springfield": (25, 62), "Hartford": (26, 71),
        "Providence": (46, 66), "Fall River": (58, 67), "New Bedford": (67, 76), "Narragansett": (47, 79),
        "New London": (37, 78), "New Haven": (28, 83), "New York": (20, 92), "Pennsylvania": (0, 74),
        "Ohio": (0, 58), "Gulf of Maine": (78, 30), "Nova Scotia coal": (92, 18), "Britain": (97, 36),
        "Massachusetts Bay": (77, 51), "Cape Breton coal": (95, 50), "West Indies": (91, 63),
        "Buzzards Bay": (69, 88), "Virginia coal": (84, 80), "Southern states": (85, 93),
        "Long Island Sound": (38, 94), "Maryland coal": (50, 100), "Europe": (23, 100),
    },
}  # fmt: skip

_lock = threading.RLock()


def _slug(name: str) -> str:
    """A location name as part of an SVG id: spaces become underscores (names hold no ':', '-', '~' or ',')."""
    return name.replace(" ", "_")


def _label(m: GameMap, loc: int) -> str:
    """A location's name with its marks: distant port, no through traffic."""
    return m.location_names[loc] + " ✦" * m.LOC_DISTANT_PORT[loc] + " ⊘" * m.LOC_NO_THROUGH[loc]


def _space_id(m: GameMap, sp: int) -> str:
    """``Köln-1``: a space's label (location and number there) as part of an SVG id."""
    return _slug(m.space_label(sp)).replace(":", "-")


def _text_width(text: str, points: float) -> float:
    """Rough width in pixels of ``text`` in DejaVu Sans bold at ``points`` (for boxes sized before drawing)."""
    return len(text) * points * DPI / 72 * 0.62


# ================================================================================================ the layout
class Layout:
    """Where each location of a map is drawn: its box (centre, width, height) in pixels, and its spaces' squares."""

    def __init__(self, game_map: GameMap) -> None:
        m = game_map
        self.map = m
        n = m.num_locations
        self.size = np.zeros((n, 2))
        for loc in range(n):
            if m.LOC_VILLAGE[loc]:
                self.size[loc] = (_text_width(m.location_names[loc], 6.5) * 0.92 + 8, 22)
            else:
                squares = len(m.LOC_SPACES[loc]) * (_SP + _GAP) - _GAP
                self.size[loc] = (max(_text_width(_label(m, loc), _NAME_PT), squares) + 2 * _BOX_PAD,
                                  _SP + 17 + _BOX_PAD)  # fmt: skip
        self.centre = _spread(_seed_places(m), self.size)

    def box(self, loc: int) -> tuple[float, float, float, float]:
        """(x0, y0, width, height) of a location's box."""
        (cx, cy), (w, h) = self.centre[loc], self.size[loc]
        return cx - w / 2, cy - h / 2, w, h

    def square(self, sp: int) -> tuple[float, float]:
        """Top-left corner of a space's square."""
        loc = self.map.SPACE_LOC[sp]
        i = self.map.LOC_SPACES[loc].index(sp)
        n = len(self.map.LOC_SPACES[loc])
        cx, cy = self.centre[loc]
        y0 = cy - self.size[loc][1] / 2
        return cx - (n * (_SP + _GAP) - _GAP) / 2 + i * (_SP + _GAP), y0 + 15


def _seed_places(m: GameMap) -> np.ndarray:
    """Each location's place in the unit square: the reconstructed place of a shipped map's location, else a
    spectral layout of the link graph (the Laplacian's second and third eigenvectors: linked locations close)."""
    n = m.num_locations
    known = PLACES.get(m.key, {})
    xy = np.zeros((n, 2))
    missing = [loc for loc in range(n) if m.location_names[loc] not in known]
    if missing:
        adjacency = np.zeros((n, n))
        for a, b in zip(m.LINK_A, m.LINK_B, strict=True):
            adjacency[a, b] = adjacency[b, a] = 1.0
        laplacian = np.diag(adjacency.sum(axis=1)) - adjacency
        _, vectors = np.linalg.eigh(laplacian)
        spectral = vectors[:, 1:3] if n >= 3 else np.zeros((n, 2))
        spectral = spectral * np.where(spectral[np.abs(spectral).argmax(axis=0), [0, 1]] < 0, -1, 1)  # fixed signs
        lo, hi = spectral.min(axis=0), spectral.max(axis=0)
        xy = (spectral - lo) / np.where(hi > lo, hi - lo, 1.0)
    for loc in range(n):
        name = m.location_names[loc]
        if name in known:
            xy[loc] = np.asarray(known[name]) / 100.0
    return xy


def _spread(unit: np.ndarray, size: np.ndarray, rounds: int = 400) -> np.ndarray:
    """Centres in pixels: the unit-square places stretched over the map area, then pushed apart (a fixed number
    of deterministic rounds) until no two boxes overlap, each kept inside the map area."""
    x0, y0, x1, y1 = _MAP
    half = size / 2
    lo, hi = np.array([x0, y0]) + half, np.array([x1, y1]) - half
    centre = lo + unit * (hi - lo)
    margin = np.array([8.0, 7.0])  # clear space between two boxes
    n = len(centre)
    for _ in range(rounds):
        moved = False
        for a in range(n):
            for b in range(a + 1, n):
                d = centre[b] - centre[a]
                overlap = half[a] + half[b] + margin - np.abs(d)
                if overlap[0] <= 0 or overlap[1] <= 0:
                    continue
                axis = int(np.argmin(overlap / np.array([1.0, 0.8])))  # push along the cheaper axis
                sign = 1.0 if d[axis] > 0 or (d[axis] == 0 and a < b) else -1.0
                push = overlap[axis] / 2 + 0.5
                centre[a, axis] -= sign * push
                centre[b, axis] += sign * push
                moved = True
        centre = np.clip(centre, lo, hi)
        if not moved:
            break
    return centre


@lru_cache(maxsize=16)
def layout(game_map: GameMap) -> Layout:
    """The layout of a map, computed once per map."""
    return Layout(game_map)


# ================================================================================================ primitives
class _Sketch:
    """Drawing primitives (hashable tuples): what to draw, before anything is drawn."""

    def __init__(self) -> None:
        self.regions: dict[str, list[tuple]] = {}
        self.region = "static"

    @property
    def items(self) -> list[tuple]:
        return [item for items in self.regions.values() for item in items]

    def text(self, x: float, y: float, s: str, **kw: Any) -> None:
        kw.setdefault("ha", "center")
        kw.setdefault("va", "center")
        kw.setdefault("color", _INK)
        kw.setdefault("parse_math", False)  # a "$" is a dollar, never mathtext
        self.regions.setdefault(self.region, []).append(("text", (x, y, s), tuple(sorted(kw.items()))))

    def patch(self, kind: str, *args: Any, **kw: Any) -> None:
        self.regions.setdefault(self.region, []).append((kind, args, tuple(sorted(kw.items()))))

    def rect(self, x: float, y: float, w: float, h: float, **kw: Any) -> None:
        self.patch("Rectangle", (x, y), w, h, **kw)


def sketch_map(game_map: GameMap, colours: tuple[str, ...] | None = None) -> list[tuple]:
    """The printed map: locations, their empty spaces, the links and the legend (what never changes in a game).
    ``colours``: the location colours of the components the map was loaded with (default: the shipped ones)."""
    m, lay, k = game_map, layout(game_map), _Sketch()
    names = colours if colours is not None else load_components().colours
    for li in range(m.num_links):
        (ax, ay), (bx, by) = lay.centre[m.LINK_A[li]], lay.centre[m.LINK_B[li]]
        a, b = _slug(m.location_names[m.LINK_A[li]]), _slug(m.location_names[m.LINK_B[li]])
        if m.LINK_SEA[li]:
            k.patch("Line2D", (ax, bx), (ay, by), color=_SEA, lw=1.4, ls=(0, (4, 3)), zorder=1,
                    gid=f"sea-lane-{a}-{b}")  # fmt: skip
        else:
            k.patch("Line2D", (ax, bx), (ay, by), color=_RAIL, lw=2.2, zorder=1, solid_capstyle="butt",
                    gid=f"link-{a}-{b}")  # fmt: skip
    for loc in range(m.num_locations):
        name, gid = m.location_names[loc], f"location-{_slug(m.location_names[loc])}"
        x, y, w, h = lay.box(loc)
        cx, cy = lay.centre[loc]
        if m.LOC_VILLAGE[loc]:  # a village: no spaces, counts as one occupied space in rail scoring
            k.patch("FancyBboxPatch", (x, y), w, h, boxstyle="round,pad=0,rounding_size=10", facecolor="#fbfbf4",
                    edgecolor="#9a9a80", lw=0.9, zorder=3, gid=gid)  # fmt: skip
            k.text(cx, cy + 0.5, name, fontsize=6.5, style="italic", color="#555544", zorder=4)
            continue
        colour = m.LOC_COLOUR[loc]
        fill, edge = LOCATION_COLOURS.get(names[colour], _OTHER_COLOUR) if colour >= 0 else _OTHER_COLOUR
        sea = any(m.SPACE_SYMBOL[sp] == ALL_SYMBOLS.index("ship") for sp in m.LOC_SPACES[loc])
        k.patch("FancyBboxPatch", (x, y), w, h, boxstyle="round,pad=0,rounding_size=4", facecolor=fill,
                edgecolor=edge, lw=1.6 if not sea else 1.2, ls="-" if m.LOC_COLOUR[loc] >= 0 else (0, (3, 2)),
                zorder=3, gid=gid)  # fmt: skip
        k.text(cx, y + 8.5, _label(m, loc), fontsize=_NAME_PT, weight="bold", color=_INK, zorder=4)
        for sp in m.LOC_SPACES[loc]:
            sx, sy = lay.square(sp)
            sym = ALL_SYMBOLS[m.SPACE_SYMBOL[sp]]
            if m.SPACE_SYMBOL[sp] in (MARKET_SPACE, IMPORT_SPACE):
                continue  # drawn with the position: the tile or the import's cubes
            k.rect(sx, sy, _SP, _SP, facecolor="white", edgecolor="#777777", lw=0.8, zorder=4,
                   gid=f"space-{_space_id(m, sp)}")  # fmt: skip
            if SPACE_MARKS[sym]:
                k.text(sx + _SP / 2, sy + _SP / 2 + 0.5, SPACE_MARKS[sym], fontsize=9, color="#9a9a9a", zorder=5)
    _sketch_legend(k, m)
    return k.items


def _sketch_legend(k: _Sketch, m: GameMap) -> None:
    """Under the map: what the counters' letters, the spaces' symbols, the tiles and the lines mean."""
    y = HEIGHT - 44
    parts = "   ".join(f"{letter} {label}" for letter, label in zip(INDUSTRY_LETTERS, INDUSTRY_LABELS, strict=True))
    k.text(12, y, f"Counters (letter + level; filled = flipped, outlined = not yet):  {parts}", fontsize=7.5,
           ha="left", color="#333333")  # fmt: skip
    marks = "   ".join(f"{mark} {sym}" for sym, mark in SPACE_MARKS.items() if mark)
    tiles = "   ".join(f"{mark} {kind.replace('_', ' ')}" for mark, kind in zip(TILE_MARKS, MARKET_KINDS, strict=True))
    k.text(12, y + 16, f"Empty spaces: □ blank   {marks}      Market tiles (grey: used): {tiles}", fontsize=7.5,
           ha="left", color="#333333")  # fmt: skip
    extra = "✦ distant port   ⊘ no through traffic" if any(m.LOC_NO_THROUGH) else "✦ distant port"
    k.patch("Line2D", (12, 34), (y + 32, y + 32), color=_RAIL, lw=2.2)
    k.text(40, y + 32, "rail link", fontsize=7.5, ha="left", color="#333333")
    x = 92
    if any(m.LINK_SEA):
        k.patch("Line2D", (x, x + 22), (y + 32, y + 32), color=_SEA, lw=1.4, ls=(0, (4, 3)))
        k.text(x + 28, y + 32, "sea lane (solid once open)", fontsize=7.5, ha="left", color="#333333")
        x += 160
    k.rect(x, y + 27, 10, 10, facecolor=CUBE_COLOURS[0], edgecolor="none")
    k.text(x + 14, y + 32, "coal", fontsize=7.5, ha="left", color="#333333")
    k.rect(x + 44, y + 27, 10, 10, facecolor=CUBE_COLOURS[1], edgecolor="none")
    k.text(x + 58, y + 32, "iron cubes", fontsize=7.5, ha="left", color="#333333")
    k.text(x + 124, y + 32, extra + "   italic: village", fontsize=7.5, ha="left", color="#333333")


def _cubes(k: _Sketch, x: float, y: float, n: int, r: int, zorder: int = 7) -> None:
    """``n`` cubes of resource ``r`` as a small square with the count, its top-left corner at (x, y)."""
    k.rect(x, y, 12, 12, facecolor=CUBE_COLOURS[r], edgecolor="white", lw=0.6, zorder=zorder)
    k.text(x + 6, y + 6.5, str(n), fontsize=7.5, weight="bold", color="white", zorder=zorder + 1)


def _sketch_board(k: _Sketch, game: Game) -> None:
    """The position on the map: rails, counters, cubes, market tiles, imports, and the action in progress."""
    s, m, lay = game.s, game.map, layout(game.map)
    for li in range(m.num_links):
        xs, ys = _visible_segment(lay, m.LINK_A[li], m.LINK_B[li])
        a, b = _slug(m.location_names[m.LINK_A[li]]), _slug(m.location_names[m.LINK_B[li]])
        if m.LINK_SEA[li]:
            if game.lane_open(li):
                k.patch("Line2D", xs, ys, color=_SEA, lw=2.2, zorder=1.5, gid=f"open-lane-{a}-{b}")
            continue
        p = s.link_owner[li]
        if li == s.rail_link:
            k.patch("Line2D", xs, ys, color=_RED, lw=3, ls=(0, (3, 2)), zorder=2)
        if p < 0:
            continue
        k.patch("Line2D", xs, ys, color="white", lw=6.5, zorder=1.6, solid_capstyle="butt")
        k.patch("Line2D", xs, ys, color=PLAYER_COLOURS[p], lw=4.2, zorder=1.7, solid_capstyle="butt",
                gid=f"rail-{a}-{b}")  # fmt: skip
        mx, my = sum(xs) / 2, sum(ys) / 2
        k.patch("Circle", (mx, my), 7, facecolor=PLAYER_COLOURS[p], edgecolor="white", lw=0.8, zorder=2)
        k.text(mx, my + 0.5, str(p), fontsize=7.5, weight="bold", color=_TEXT_ON[p], zorder=2.1)
    for sp in range(m.num_spaces):
        sx, sy = lay.square(sp)
        sym = m.SPACE_SYMBOL[sp]
        if sym == MARKET_SPACE:
            tile, used = s.space_tile[sp], s.space_flipped[sp]
            k.rect(sx, sy, _SP, _SP, facecolor="#d9d9d9" if used else "#f3d9a4", edgecolor="#999999" if used
                   else "#9c6b1c", lw=0.9, zorder=4, gid=f"space-{_space_id(m, sp)}")  # fmt: skip
            mark = TILE_MARKS[tile] if tile >= 0 else ""
            k.text(sx + _SP / 2, sy + _SP / 2 + 0.5, mark, fontsize=7.5 if len(mark) > 1 else 9, weight="bold",
                   color="#8a8a8a" if used else "#5a3a00", zorder=5)  # fmt: skip
        elif sym == IMPORT_SPACE:
            k.rect(sx, sy, _SP, _SP, facecolor="#eef2f6", edgecolor=_SEA, lw=0.9, zorder=4,
                   gid=f"space-{_space_id(m, sp)}")  # fmt: skip
            if s.space_cubes[sp]:
                _cubes(k, sx + (_SP - 12) / 2, sy + (_SP - 12) / 2, s.space_cubes[sp], 0)
        elif s.space_owner[sp] >= 0:
            p, i = s.space_owner[sp], s.space_industry[sp]
            colour, flipped = PLAYER_COLOURS[p], bool(s.space_flipped[sp])
            ink = _TEXT_ON[p] if flipped else colour
            k.rect(sx, sy, _SP, _SP, facecolor=colour if flipped else "white", edgecolor=colour, lw=2.0, zorder=5)
            k.text(sx + _SP / 2, sy + 8, f"{INDUSTRY_LETTERS[i]}{s.space_level[sp]}", fontsize=8.5,
                   weight="bold", color=ink, zorder=6)  # fmt: skip
            k.text(sx + 6, sy + _SP - 6, str(p), fontsize=7.5, weight="bold", color=ink, zorder=6)
            if s.space_cubes[sp]:
                _cubes(k, sx + _SP - 13, sy + _SP - 13, s.space_cubes[sp], 1 if i == INDUSTRY_LETTERS.index("I") else 0)
        if sp in (s.build_space, s.sell_from):
            k.rect(sx - 2.5, sy - 2.5, _SP + 5, _SP + 5, facecolor="none", edgecolor=_RED, lw=2, zorder=8)


def _visible_segment(lay: Layout, a: int, b: int) -> tuple[tuple[float, float], tuple[float, float]]:
    """(xs, ys) of the part of the segment between two locations' centres that lies outside both boxes (a rail
    drawn over the cached map must not cover the boxes)."""
    pa, pb = lay.centre[a], lay.centre[b]
    d = pb - pa

    def exit_t(half: np.ndarray) -> float:
        ts = [h / abs(v) for h, v in zip(half, d, strict=True) if abs(v) > 1e-9]
        return min(ts) if ts else 0.0

    t0, t1 = exit_t(lay.size[a] / 2), 1 - exit_t(lay.size[b] / 2)
    if t1 <= t0:
        t0 = t1 = 0.5
    return (float(pa[0] + t0 * d[0]), float(pa[0] + t1 * d[0])), (float(pa[1] + t0 * d[1]), float(pa[1] + t1 * d[1]))


# ================================================================================================ the panel
_PHASE_TEXT = {
    "action": "chooses an action", "build_where": "chooses where to build", "coal_source": "chooses a coal source",
    "iron_source": "chooses an iron source", "sell_to": "chooses where to sell", "sell_more": "sells more or stops",
    "develop_which": "chooses a counter to develop away", "draw_second": "chooses the second card to draw",
}  # fmt: skip


def describe_decision(game: Game) -> str:
    """One line: whose decision it is, and what (the card played and the build or rail in progress, all public)."""
    s, m, c = game.s, game.map, game.components
    if game.is_over:
        winners = game.winners()
        return f"Game over after round {s.round}: player {winners[0]} wins" if winners else "Game over"
    p = game.current_player
    text = f"Player {p} {_PHASE_TEXT.get(game.phase, game.phase)}"
    details = []
    if s.card >= 0:
        details.append(f"card {c.card_label(s.card).replace('_', ' ')}" + (" (combined build)" if s.combined else ""))
    if s.build_space >= 0 and s.build_industry >= 0:
        details.append(f"building {INDUSTRY_LABELS[s.build_industry]} at {m.space_label(s.build_space)}")
    if s.rail_link >= 0:
        details.append(f"rail {m.link_label(s.rail_link)}")
    need = [f"{n} {r}" for n, r in ((s.need_coal, RESOURCES[0]), (s.need_iron, RESOURCES[1])) if n]
    if need:
        details.append("needs " + " + ".join(need))
    if s.sell_from >= 0:
        details.append(f"selling from {m.space_label(s.sell_from)}")
    if s.draws_left and game.phase == "draw_second":
        details.append(f"{s.draws_left} to draw")
    return text + (": " + "; ".join(details) if details else "")


def _card(k: _Sketch, x: float, y: float, kind: int, game: Game, count: int = 1, w: float = 78) -> None:
    """A card: industry cards white with the industry's name, location cards in their colour."""
    c = game.components
    if c.CARD_INDUSTRY[kind] >= 0:
        fill, edge, label = "white", "#555555", INDUSTRY_LABELS[c.CARD_INDUSTRY[kind]]
    else:
        fill, edge = LOCATION_COLOURS.get(c.colours[c.CARD_COLOUR[kind]], _OTHER_COLOUR)
        label = c.colours[c.CARD_COLOUR[kind]]
    k.patch("FancyBboxPatch", (x, y), w, 20, boxstyle="round,pad=0,rounding_size=3", facecolor=fill, edgecolor=edge,
            lw=1.2)  # fmt: skip
    k.text(x + w / 2, y + 10.5, label + (f" ×{count}" if count > 1 else ""), fontsize=7 if w >= 78 else 6.5,
           weight="bold")  # fmt: skip


def _sketch_panel(k: _Sketch, game: Game, seat: int | None) -> None:
    """The right-hand panel: round and decision, demand track, cards, the shown seat's hand, the players."""
    s, c = game.s, game.components
    x0 = _PANEL_X
    order = " → ".join(str(q) for q in s.order)
    k.text(x0, 46, f"Round {s.round}   ·   turn order {order}", fontsize=9.5, ha="left", weight="bold")
    lines = textwrap.wrap(describe_decision(game), 72)  # two lines at most
    if len(lines) > 2:
        lines[1] = lines[1][:70] + "…"
    k.text(x0, 61, "\n".join(lines[:2]), fontsize=8.5, ha="left", va="top", linespacing=1.15,
           color=_RED if not game.is_over else _INK)  # fmt: skip
    # the demand track: cubes fill it from the dearest space; an empty track sells at $4
    y = 95
    for r, name in enumerate(RESOURCES):
        bx = x0 + r * 222
        k.text(bx, y + 10, f"{name} demand", fontsize=8, ha="left", weight="bold")
        for j, price in enumerate(c.DEMAND_PRICES[r]):
            sx = bx + 80 + j * 22
            full = j < s.demand[r]
            k.rect(sx, y, 20, 20, facecolor="#f4f4f4", edgecolor="#888888", lw=0.8, gid=f"demand-{name}-{j + 1}")
            if full:
                k.rect(sx + 3, y + 3, 14, 14, facecolor=CUBE_COLOURS[r], edgecolor="none")
            k.text(sx + 10, y + 10.5, f"${price}", fontsize=6.5, weight="bold", color="white" if full else "#777777")
    # the cards on the table
    y = 125
    k.text(x0, y + 10, "Face up", fontsize=8, ha="left", weight="bold")
    for j in range(NUM_FACE_UP):
        if s.face_up[j] >= 0:
            _card(k, x0 + 54 + j * 84, y, s.face_up[j], game)
        else:
            k.rect(x0 + 54 + j * 84, y, 78, 20, facecolor="none", edgecolor="#bbbbbb", lw=0.8, ls=(0, (2, 2)))
    deck = len(s.deck) - s.deck_pos
    k.text(x0 + 232, y + 10, f"Deck {deck}   ·   discards {sum(s.discard)}", fontsize=8.5, ha="left")
    # the shown seat's own hand (only its own: another seat's hand is never drawn)
    y = 154
    if seat is None:
        k.text(x0, y + 10, "Hands hidden (public view)", fontsize=8, ha="left", color="#777777", style="italic")
    else:
        k.text(x0, y + 10, f"Hand of player {seat}", fontsize=8, ha="left", weight="bold",
               color=PLAYER_COLOURS[seat])  # fmt: skip
        kinds = [kd for kd in range(c.num_card_kinds) if s.hand[seat][kd]]
        for j, kd in enumerate(kinds):
            per_row = 4 if len(kinds) <= 8 else 5  # at most 9 cards: two rows
            w = 78 if per_row == 4 else 62
            row, col = divmod(j, per_row)
            _card(k, x0 + 112 + col * (w + 5), y + row * 24, kd, game, s.hand[seat][kd], w=w)
        if not kinds:
            k.text(x0 + 112, y + 10, "no cards", fontsize=8, ha="left", color="#777777")
    scores, winners = game.scores(), game.winners()
    for p in range(game.num_players):
        k.region = f"player{p}"
        _sketch_player(k, game, p, _PLAYERS_Y + p * _PLAYER_H, scores[p], p in winners)


def _sketch_player(k: _Sketch, game: Game, p: int, y: float, score: int, winner: bool) -> None:
    """One player's box: money, loans, rails, hand size, known cards, points, and the display's counters left."""
    s, c = game.s, game.components
    x, w, colour = _PANEL_X, _PANEL_W, PLAYER_COLOURS[p]
    to_move = p == game.current_player
    k.patch("FancyBboxPatch", (x, y), w, _PLAYER_H - 8, boxstyle="round,pad=0,rounding_size=6",
            facecolor="#fff8e1" if to_move else "#fafafa", edgecolor=colour, lw=2.6 if to_move else 1,
            gid=f"player-{p}")  # fmt: skip
    k.patch("Circle", (x + 16, y + 15), 9, facecolor=colour, edgecolor=_INK, lw=0.8)
    k.text(x + 16, y + 15.5, str(p), fontsize=8, weight="bold", color="white")
    k.text(x + 31, y + 15, f"Player {p}", fontsize=10, ha="left", weight="bold", color=colour)
    place = s.order.index(p) + 1
    tags = [f"turn {place} of {game.num_players}"] + ["▶ to decide"] * to_move + ["★ winner"] * winner
    k.text(x + 100, y + 15, "   ".join(tags), fontsize=7.5, ha="left", color="#444444")
    points = f"{score} point" + ("s" if abs(score) != 1 else "") + (" now" if not game.is_over else "")
    k.text(x + w - 8, y + 15, points, fontsize=9, ha="right",
           weight="bold")  # fmt: skip
    loans = f"{s.loans[p]} loan" + ("s" if s.loans[p] != 1 else "")
    cards = sum(s.hand[p])
    hand = f"{cards} card" + ("s" if cards != 1 else "") + " in hand"
    k.text(x + 10, y + 34, f"${s.money[p]}  ·  {loans}  ·  spent ${s.spent[p]}  ·  rails left {s.rails_left[p]}"
           f"  ·  {hand}", fontsize=8.5, ha="left")  # fmt: skip
    known = [c.card_label(kd).replace("_", " ") + (f" ×{n}" if n > 1 else "") for kd, n in enumerate(s.known[p]) if n]
    if known:  # every card the table knows, never cut: a smaller font, then two lines, as the list needs
        _known_cards(k, x + 10, y + 49, w - 20, "known in hand: " + ", ".join(known))
    # the display: per industry, the counters left at each level (the lowest level is built or developed first)
    cw = (w - 12) / 6
    for i in range(6):
        cx = x + 8 + i * cw
        k.text(cx, y + 63, f"{INDUSTRY_LETTERS[i]} {_SHORT[i]}", fontsize=7.5, ha="left", weight="bold",
               color="#333333")  # fmt: skip
        slots = c.SLOTS_OF[i]  # one text for the levels, one for the counters left (fewer texts draw faster)
        k.text(cx + 2, y + 75 + (len(slots) - 1) * 5.5, "\n".join(f"L{c.SLOT_LEVEL[d]}" for d in slots),
               fontsize=7, ha="left", linespacing=1.1)  # fmt: skip
        counts = "\n".join("■" * s.display[p][d] if s.display[p][d] else "–" for d in slots)
        k.text(cx + 20, y + 75 + (len(slots) - 1) * 5.5, counts, fontsize=6.5, ha="left", color=colour,
               linespacing=1.31)  # fmt: skip


def _known_cards(k: _Sketch, x: float, y: float, width: float, text: str) -> None:
    """The cards the table knows to be in a hand, whole: in 7.5 points if the line fits ``width`` pixels, else in
    6.5 points, on two lines if it must."""
    for size in (7.5, 6.5):
        if _text_width(text, size) * 0.9 <= width:
            k.text(x, y, text, fontsize=size, ha="left", color="#333333")
            return
    chars = int(width / (_text_width("x", 6.5) * 0.9))
    lines = textwrap.wrap(text, chars)
    k.text(x, y - 3, "\n".join(lines[:2]) + ("…" if len(lines) > 2 else ""), fontsize=6.5, ha="left",
           color="#333333", linespacing=1.0)  # fmt: skip


def sketch_position(game: Game, seat: int | None = None) -> dict[str, list[tuple]]:
    """The position's primitives by region of the picture, read from the game's public state (and ``seat``'s own
    hand)."""
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, (int, np.integer))
                             or not 0 <= int(seat) < game.num_players):  # fmt: skip
        raise ValueError(f"seat={seat!r}: must be None (the public view) or a seat from 0 to {game.num_players - 1}")
    seat = None if seat is None else int(seat)
    k = _Sketch()
    m = game.map
    k.region = "header"
    k.text(10, 18, "Age of Industry", fontsize=15, ha="left", weight="bold")
    over = "   ·   game over" if game.is_over else ""
    edition = "   ·   first edition" if game.s.edition == 1 else ""
    # no seed: it rebuilds every hand and the deck's order, which a picture never shows
    k.text(204, 19, f"{m.name.split(' (')[0]} map   ·   {game.num_players} players{edition}{over}", fontsize=9,
           ha="left", color="#444444")  # fmt: skip
    k.region = "board"
    _sketch_board(k, game)
    k.region = "status"
    _sketch_panel(k, game, seat)
    return k.regions


# ================================================================================================ drawing
class _Canvas:
    """One figure for one map: the printed map drawn once, positions drawn on top of it."""

    def __init__(self, game_map: GameMap, colours: tuple[str, ...]) -> None:
        mpl = matplotlib_parts()
        self.patches, self.Line2D = mpl.patches, mpl.Line2D
        Figure, FigureCanvasAgg = mpl.Figure, mpl.FigureCanvasAgg
        self.map, self.colours = game_map, colours
        self.fig, self.canvas, self.ax = pixel_page(Figure, FigureCanvasAgg, WIDTH, HEIGHT, DPI)
        self.static = [self._make(spec) for spec in sketch_map(game_map, colours)]
        self.background: Any = None  # Agg buffer of the printed map alone
        self.frame = np.zeros(PICTURE_SHAPE, np.uint8)  # the last RGB frame
        self.drawn: dict[str, tuple] = {}  # region -> primitives shown in self.frame

    def _make(self, spec: tuple) -> Any:
        """Add one primitive to the axes as a matplotlib artist and return it."""
        kind, args, kw = spec
        kw = dict(kw)
        if kind == "text":
            return self.ax.text(*args, **kw)
        if kind == "Line2D":
            return self.ax.add_line(self.Line2D(*args, **kw))
        art = getattr(self.patches, kind)(*args, **kw)
        self.ax.add_artist(art)  # not add_patch: the limits are fixed and updating them is slow
        return art

    def rgb(self, game: Game, seat: int | None) -> np.ndarray:
        """The position as uint8[HEIGHT, WIDTH, 3], redrawing only the regions that differ from the last frame."""
        sketch = {r: tuple(items) for r, items in sketch_position(game, seat).items()}
        if self.background is None:
            self.canvas.draw()
            self.background = self.canvas.copy_from_bbox(self.fig.bbox)
            self.frame[:] = np.asarray(self.canvas.buffer_rgba())[:, :, :3]
        changed = [r for r in _REGIONS if sketch.get(r, ()) != self.drawn.get(r, ())]
        if changed:
            self.canvas.restore_region(self.background)
            renderer = self.canvas.get_renderer()
            artists = [self._make(spec) for r in changed for spec in sketch.get(r, ())]
            try:
                for a in sorted(artists, key=lambda a: a.get_zorder()):
                    a.draw(renderer)
                buf = np.asarray(self.canvas.buffer_rgba())
                for r in changed:
                    x0, y0, x1, y1 = _REGIONS[r]
                    self.frame[y0:y1, x0:x1] = buf[y0:y1, x0:x1, :3]
                    self.drawn[r] = sketch.get(r, ())
            finally:
                for a in artists:
                    a.remove()
        return self.frame.copy()

    def svg(self, game: Game, seat: int | None, text_as_paths: bool = False) -> str:
        """The position as an SVG document: every primitive drawn, text kept as text."""
        matplotlib = matplotlib_parts().matplotlib
        artists = [self._make(spec) for items in sketch_position(game, seat).values() for spec in items]
        return svg_document(matplotlib, self.fig, artists, text_as_paths)


_canvases: dict[int, _Canvas] = {}
_MAX_CANVASES = 8  # figures kept (one per map and components; a few MB each)


def _canvas(game: Game) -> _Canvas:
    c = _canvases.get(id(game.map))
    if c is None or c.map is not game.map or c.colours != game.components.colours:
        if len(_canvases) >= _MAX_CANVASES:
            del _canvases[next(iter(_canvases))]  # the oldest
        c = _canvases[id(game.map)] = _Canvas(game.map, game.components.colours)
    return c


def to_rgb_array(game: Game, seat: int | None = None) -> np.ndarray:
    """The picture of ``game``'s position as ``uint8[800, 1280, 3]`` (``PICTURE_SHAPE``): RGB, white background.

    ``seat=None`` is the public view (no hand shown); ``seat=q`` adds seat q's own hand, and nothing else hidden.
    """
    with _lock:
        return _canvas(game).rgb(game, seat)


def to_svg(game: Game, seat: int | None = None, text_as_paths: bool = False) -> str:
    """The same picture as an SVG document, 12.8 x 8 inches; every location, space, link, sea lane, rail and player
    box is an element with its own id (``location-Köln``, ``space-Köln-1``, ``link-Ruhr-Köln``, ``rail-Ruhr-Köln``,
    ``sea-lane-Portland-Gulf_of_Maine``, ``player-0``). Text stays text unless ``text_as_paths``."""
    with _lock:
        return _canvas(game).svg(game, seat, text_as_paths)


PICTURES = Pictures("Age of Industry", to_rgb_array, to_svg, swatch=(*PLAYER_COLOURS, *CUBE_COLOURS, _RED, _INK),
                    width=WIDTH, dpi=DPI, requires=matplotlib_parts, where=f"{__name__}.save_png / to_svg")
# the shared picture front (core.figure.Pictures): PNG bytes and files (written atomically), the SVG file, the GIF
# writer keeping the players' colours, show (inline in a notebook, else one window)
to_png, save_png, save_svg, show = PICTURES.to_png, PICTURES.save_png, PICTURES.save_svg, PICTURES.show
GifWriter = PICTURES.gif_writer


def picture_key(game: Game) -> tuple:
    """What the public picture shows, comparable: a replay draws a new frame only when it changes."""
    s = game.s
    return (s.round, tuple(s.order), tuple(s.money), tuple(s.loans), tuple(s.rails_left), tuple(map(sum, s.hand)),
            tuple(s.face_up), tuple(s.space_owner), tuple(s.space_level), tuple(s.space_flipped),
            tuple(s.space_cubes), tuple(s.link_owner), tuple(s.demand), game.is_over)  # fmt: skip


# Weights of the example game's moves by the first word of their names: a busy board, not good play.
_EXAMPLE_WEIGHTS = {"build": 6.0, "rail": 4.0, "sell": 8.0, "source": 1.0, "draw": 2.0, "develop": 0.5, "pass": 0.1,
                    "remove": 1.0, "done": 1.0, "repay": 0.3}  # fmt: skip
EXAMPLE = {"num_players": 4, "seed": 16, "map": "germany", "rounds": 8, "seat": 3}  # the docs' example picture


def example_game(num_players: int = 4, seed: int = 16, map: str = "germany", rounds: int = 8) -> Game:  # noqa: A002
    """A position for an example picture: a game played by seeded random moves, weighted towards building, rails
    and sales (:data:`_EXAMPLE_WEIGHTS`) so the board fills, stopped at the start of round ``rounds + 1``."""
    import random

    from .reference import Game as ReferenceGame

    game, rng = ReferenceGame(num_players, seed, map), random.Random(seed)
    while not game.is_over and game.s.round <= rounds:
        legal = game.legal_actions()
        weights = [_EXAMPLE_WEIGHTS.get(game.action_to_string(a).split(" ")[0], 1.0) for a in legal]
        game.apply(rng.choices(legal, weights)[0])
    return game


def example_sketch() -> dict[str, list[tuple]]:
    """The drawing primitives of the docs' example picture (:data:`EXAMPLE`): what ``make figures`` checks, the
    same under every matplotlib version."""
    spec = dict(EXAMPLE)
    seat = spec.pop("seat")
    game = example_game(**spec)
    return {"map": sketch_map(game.map, game.components.colours), **sketch_position(game, seat)}


def example_png() -> bytes:
    """The docs' example picture (:data:`EXAMPLE`) as a palette PNG of 128 colours, about 70 kB."""
    spec = dict(EXAMPLE)
    seat = spec.pop("seat")
    return to_png(example_game(**spec), seat, colours=128)


def save_example(path: str | os.PathLike[str]) -> None:
    """Draw the example picture of the docs (``docs/age-of-industry/pictures.png``) again, atomically (``make
    figures`` does it too, recording its source and digests in ``docs/figures.json``)."""
    write_bytes_atomic(path, example_png())


__all__ = [
    "EXAMPLE", "HEIGHT", "PICTURE_SHAPE", "PLACES", "PLAYER_COLOURS", "WIDTH", "GifWriter", "describe_decision",
    "example_game", "example_png", "example_sketch", "layout", "picture_key", "save_example", "save_png", "save_svg",
    "show", "to_png", "to_rgb_array", "to_svg",
]  # fmt: skip
