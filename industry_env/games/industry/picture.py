"""Pictures of a position for papers, notebooks, windows and replays: PNG, RGB arrays and SVG from one drawing.

The picture shows the 5 x 12 board by era and column: each field's kind (background colour), id, name, points
(cogwheel), printed cost (coin), what it makes and the resources it needs; the networks (a labelled stripe on
each factory on a network and each bonus field serving one), the roads between factories and the links between
technologies (what the end scoring counts; SVG ids ``road-1D-1E``, ``tech-link-1K-1L``, ``network-river-1D``);
the Property tokens in the owners' colours (filled once developed, rings while clock side up, the owner's number
on both); taken Joker fields greyed out; the Era marker; the column tokens (face-up ones gold, their fields
framed in gold); the field on auction (framed in red) with the highest bid and bidder; the field being paid for
(dashed frame); and, per player, Talers, points, fields, Joker tokens, Subsidy token, the Starting Player
marker and whose decision it is.

It reads only the public state of a reference :class:`~industry_env.games.industry.reference.Game` and the board's
tables; it holds no rule. Engine games are drawn through ``engine.to_game(state, i)``.

matplotlib is an optional extra (``pip install 'industry_env[render]'``); this module imports without it and
each function raises :class:`ImportError` naming the extra when it is missing. Drawing uses matplotlib's object
API on the Agg canvas, never a GUI backend, so it works on a headless machine.

Speed: the position is first described as a list of drawing primitives per region of the picture (header, each
era row, each player's box, the status lines); the SVG draws them all, while RGB frames keep one figure per
board with the printed board drawn once and redraw only the regions whose primitives changed since the last
frame (the players' boxes and status lines also from a small cache of earlier looks). A frame after each decision
of a whole game then costs about 35 ms of CPU. The shared figure makes these functions unsafe to call from
several threads at once, so a lock serialises them.
"""

from __future__ import annotations

import os
import textwrap
import threading
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

import numpy as np

from ...core import gif as _gif
from ...core.figure import Pictures, matplotlib_parts, pixel_page, svg_document
from .components import Board, field_id, network_kind
from .rules import BONUS, COIN_COLUMN, COLUMN_LETTERS, FACTORY, JOKER, NUM_COLUMNS, NUM_ERAS, TECHNOLOGY

if TYPE_CHECKING:
    from .reference import Game

WIDTH, HEIGHT = 1280, 800  # pixels of every RGB picture and PNG
DPI = 100  # the SVG is 12.8 x 8 inches with the same layout
PICTURE_SHAPE = (HEIGHT, WIDTH, 3)  # shape of to_rgb_array's result

KIND_COLOURS = {FACTORY: "#f1dcc0", TECHNOLOGY: "#d3e4f4", BONUS: "#d9ecd2", JOKER: "#e9e0f1"}
KIND_NAMES = {FACTORY: "factory", TECHNOLOGY: "technology", BONUS: "bonus", JOKER: "joker"}
# Okabe-Ito colours, told apart with the common colour-vision deficiencies; tokens also carry the number.
PLAYER_COLOURS = ("#d55e00", "#0072b2", "#009e73", "#cc79a7")
_GOLD, _RED, _INK = "#e0a800", "#c0112b", "#222222"
_NETWORK_OF_BONUS = ("river", "tracks", "pipelines", "power lines")  # rules.BONUS_KINDS order
# One colour per network kind (rules.NETWORKS order): the stripe on the left of each factory on it and of each
# bonus field serving it. Roads join factories, links join technologies: each pair scores 3 points at the end.
NETWORK_COLOURS = ("#1f77b4", "#5a3a1a", "#17becf", "#9467bd")
ROAD_COLOUR, TECH_LINK_COLOUR = "#7f4f24", "#2f4b7c"

# Layout in pixels, y downwards: the axes map data units to pixels one to one.
_X0, _Y0 = 78, 88  # top-left corner of field 1A
_CW, _CH = 100, 94  # cell size
_PANEL_Y = _Y0 + NUM_ERAS * _CH + 14  # top of the players' boxes
_BOX_W = (WIDTH - 20) / 4
_MISSING = _gif.MISSING_RENDER

# Regions of the picture that change independently: name -> (x0, y0, x1, y1) in pixels.
_REGIONS = {
    "header": (0, 0, WIDTH, _Y0),
    **{f"era{e}": (0, _Y0 + e * _CH, WIDTH, _Y0 + (e + 1) * _CH) for e in range(NUM_ERAS)},
    **{f"player{p}": (int(10 + p * _BOX_W), _PANEL_Y - 4, int(10 + (p + 1) * _BOX_W), _PANEL_Y + 124)
       for p in range(4)},
    "status": (0, HEIGHT - 64, WIDTH, HEIGHT),
}  # fmt: skip

# Drawn regions kept for reuse: the players' boxes and the status lines come back to earlier looks during bidding
# (measured: 40% of their redraws); the board rows and the header hardly ever do. At most about 12 MB.
_CACHED_REGIONS = {r: 16 for r in _REGIONS if r.startswith("player") or r == "status"}
_lock = threading.RLock()
_canvases: dict[int, _Canvas] = {}


def _gear(cx: float, cy: float, r: float, teeth: int = 9) -> tuple[tuple[float, float], ...]:
    """Vertices of a cogwheel of outer radius ``r`` around (cx, cy): the points symbol of the board."""
    angles = np.linspace(0, 2 * np.pi, teeth * 4, endpoint=False)
    radii = np.tile([r, r, 0.78 * r, 0.78 * r], teeth)
    xy = np.column_stack([cx + radii * np.cos(angles), cy + radii * np.sin(angles)])
    return tuple(map(tuple, xy.round(2).tolist()))


class _Sketch:
    """Drawing primitives (hashable tuples) grouped by region: what to draw, before anything is drawn."""

    def __init__(self) -> None:
        self.regions: dict[str, list[tuple]] = {}
        self.region = "static"

    def text(self, x: float, y: float, s: str, **kw: Any) -> None:
        kw.setdefault("ha", "center")
        kw.setdefault("va", "center")
        kw.setdefault("color", _INK)
        self.regions.setdefault(self.region, []).append(("text", (x, y, s), tuple(sorted(kw.items()))))

    def patch(self, kind: str, *args: Any, **kw: Any) -> None:
        self.regions.setdefault(self.region, []).append((kind, args, tuple(sorted(kw.items()))))


def sketch_board(board: Board) -> list[tuple]:
    """The printed board: what never changes during a game."""
    b, k = board, _Sketch()
    for f in range(len(b.field_names)):
        e, c = divmod(f, NUM_COLUMNS)
        x, y = _X0 + c * _CW, _Y0 + e * _CH
        kind = int(b.KIND[f])
        k.patch("Rectangle", (x + 2, y + 2), _CW - 4, _CH - 4, facecolor=KIND_COLOURS[kind], edgecolor="#b0a898",
                lw=0.8)  # fmt: skip
        k.text(x + 6, y + 12, field_id(f), fontsize=9, ha="left", weight="bold", color="#333333")
        k.text(x + 26, y + 12, KIND_NAMES[kind], fontsize=6.5, ha="left", color="#555555", style="italic")
        nets = b.networks[f] if kind in (FACTORY, BONUS) else ()
        for i, net in enumerate(nets):  # the network(s) it lies on / serves: a labelled stripe on the left
            h = 46 / len(nets)
            k.patch("Rectangle", (x + 2, y + 20 + i * h), 10, h - 1, facecolor=NETWORK_COLOURS[network_kind(net)],
                    edgecolor="none", gid=f"network-{net.replace(':', '-')}-{field_id(f)}")  # fmt: skip
            k.text(x + 7, y + 20 + (i + 0.5) * h, net.replace("_", " ").replace("power lines", "power"),
                   fontsize=5.5, color="white", weight="bold", rotation=90)  # fmt: skip
        cx = x + _CW / 2 + 5  # text centre, right of the network stripe
        words = textwrap.wrap(b.field_names[f], 12, break_long_words=False)[:2]
        size = 8.5 if max(map(len, words)) <= 10 else 7.5 if max(map(len, words)) <= 12 else 6.5
        k.text(cx, y + 30, "\n".join(words), fontsize=size, weight="bold", linespacing=1.0)
        if b.COST[f] > 0:  # printed cost: a coin in the top-right corner
            k.patch("Circle", (x + _CW - 13, y + 13), 10, facecolor="#f5cf4b", edgecolor="#9a7b0a", lw=0.8)
            k.text(x + _CW - 13, y + 13.5, str(int(b.COST[f])), fontsize=8.5, weight="bold")
        details = []
        if kind == FACTORY and b.PRODUCES[f] >= 0:
            details.append(f"makes {b.resource_names[b.PRODUCES[f]]}")
        if kind == BONUS:
            details += [f"{int(b.MULTIPLIER[f])} pts / factory", f"on {_NETWORK_OF_BONUS[int(b.BONUS_KIND[f])]}"]
        if b.DISCOUNT[f] > 0:
            details.append(f"-{int(b.DISCOUNT[f])} on costs")
        needs = b.need_labels(f)  # "Glass x2" for a resource needed twice
        if needs:
            details.append("needs " + " + ".join(needs))
        lines = [line for d in details for line in textwrap.wrap(d, 16)][:3]
        if lines:
            k.text(cx, y + 55, "\n".join(lines), fontsize=7, color="#222222", linespacing=1.05)
        if kind in (FACTORY, TECHNOLOGY):  # points in the cogwheel, bottom left
            k.patch("Polygon", _gear(x + 15, y + _CH - 14, 11), closed=True, facecolor="#9aa3ab",
                    edgecolor="#4d565e", lw=0.8)  # fmt: skip
            k.patch("Circle", (x + 15, y + _CH - 14), 7.5, facecolor="white", edgecolor="#4d565e", lw=0.6)
            k.text(x + 15, y + _CH - 13.5, str(int(b.POINTS[f])), fontsize=8, weight="bold")
    _sketch_links(b, k)
    lx = _X0 + 5 * _CW + 8  # legend of kinds, networks, links and tokens, top right
    for i, kind in enumerate((FACTORY, TECHNOLOGY, BONUS, JOKER)):
        k.patch("Rectangle", (lx + i * 80, 4), 12, 12, facecolor=KIND_COLOURS[kind], edgecolor="#b0a898")
        k.text(lx + i * 80 + 16, 10.5, KIND_NAMES[kind], fontsize=8, ha="left")
    for i, net in enumerate(_NETWORK_OF_BONUS):
        k.patch("Rectangle", (lx + 330 + i * 86, 4), 8, 12, facecolor=NETWORK_COLOURS[i], edgecolor="none")
        k.text(lx + 342 + i * 86, 10.5, net, fontsize=8, ha="left")
    k.patch("Line2D", (lx, lx + 22), (24, 24), color=ROAD_COLOUR, lw=4, solid_capstyle="round", gid="legend-road")
    k.text(lx + 28, 24.5, "road: 3 points a pair of developed factories", fontsize=7.5, ha="left")
    k.patch("Line2D", (lx + 300, lx + 322), (24, 24), color=TECH_LINK_COLOUR, lw=4, solid_capstyle="round",
            gid="legend-tech-link")  # fmt: skip
    k.text(lx + 328, 24.5, "link: 3 points a pair of technologies", fontsize=7.5, ha="left")
    k.text(10, 40, "Property token: filled = developed, ring = not yet;  gold = for auction now;  red = on auction",
           fontsize=7.5, ha="left", color="#444444")  # fmt: skip
    k.patch("Circle", (lx + 5, 38), 5, facecolor="#f5cf4b", edgecolor="#9a7b0a", lw=0.6, gid="legend-coin-token")
    k.text(lx + 14, 38.5, "coin token (column A): when drawn, every player takes 1 Taler", fontsize=7.5, ha="left",
           color="#444444")  # fmt: skip
    return k.regions["static"]


def _link_path(a: int, b: int, taken: set[tuple[int, float]]) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """The polyline (xs, ys) of a road or link between fields ``a`` and ``b``.

    Fields that touch on the grid get a short bar across their shared border or corner; fields that do not touch
    get a path out of one cell, along the gap between two rows and into the other, on the side of the row where no
    other link crosses (``taken``: (gap row, x) of the crossings of the touching pairs).
    """
    (ea, ca), (eb, cb) = divmod(a, NUM_COLUMNS), divmod(b, NUM_COLUMNS)
    if (eb, cb) < (ea, ca):
        (ea, ca), (eb, cb) = (eb, cb), (ea, ca)
    ax, ay = _X0 + (ca + 0.5) * _CW, _Y0 + (ea + 0.5) * _CH
    bx, by = _X0 + (cb + 0.5) * _CW, _Y0 + (eb + 0.5) * _CH
    if abs(ea - eb) <= 1 and abs(ca - cb) <= 1:
        t0, t1 = (0.42, 0.58) if ea != eb and ca != cb else (0.4, 0.6)
        return (ax + t0 * (bx - ax), ax + t1 * (bx - ax)), (ay + t0 * (by - ay), ay + t1 * (by - ay))
    lo, hi = sorted((ax, bx))
    gap = ea + 1 if eb > ea or not any(g == ea + 1 and lo <= x <= hi for g, x in taken) else ea
    gy = _Y0 + gap * _CH
    ya = ay + (0.4 if gap > ea else -0.4) * _CH
    yb = by + (0.4 if gy > by else -0.4) * _CH
    return (ax, ax, bx, bx), (ya, gy, gy, yb)


def _sketch_links(b: Board, k: _Sketch) -> None:
    """Roads between factories and links between technologies, each an SVG group with its own id."""
    pairs = [("road", ROAD_COLOUR, tuple(map(int, r))) for r in b.ROADS]
    pairs += [("tech-link", TECH_LINK_COLOUR, tuple(map(int, r))) for r in b.TECH_LINKS]
    taken = set()  # where touching pairs cross a gap between rows: non-touching paths avoid those stretches
    for _, _, (f, g) in pairs:
        (ef, cf), (eg, cg) = divmod(f, NUM_COLUMNS), divmod(g, NUM_COLUMNS)
        if abs(ef - eg) == 1 and abs(cf - cg) <= 1:
            taken.add((max(ef, eg), _X0 + (max(cf, cg) if cf != cg else cf + 0.5) * _CW))
    for name, colour, (f, g) in pairs:
        xs, ys = _link_path(f, g, taken)
        gid = f"{name}-{field_id(f)}-{field_id(g)}"
        k.patch("Line2D", xs, ys, color="white", lw=7.5, solid_capstyle="round", solid_joinstyle="round")
        k.patch("Line2D", xs, ys, color=colour, lw=4.5, solid_capstyle="round", solid_joinstyle="round", gid=gid)


def sketch_position(game: Game) -> dict[str, list[tuple]]:
    """The position's primitives by region, read from the game's public state."""
    s, b, k = game.s, game.board, _Sketch()
    over, n = game.is_over, game.num_players
    k.region = "header"
    k.text(10, 18, "Industry", fontsize=15, ha="left", weight="bold")
    # no seed: it rebuilds the hidden order of the column tokens left in the bag (the table never sees it)
    k.text(120, 19, f"{n} players  ·  era {s.era + 1}  ·  round {s.round}" + ("  ·  game over" if over else ""),
           fontsize=9, ha="left", color="#444444")  # fmt: skip
    for c in range(NUM_COLUMNS):  # column tokens: face-up gold, the others (in the bag or used) grey
        x, y = _X0 + (c + 0.5) * _CW, _Y0 - 26
        up = bool(s.face_up[c]) and not over
        k.patch("FancyBboxPatch", (x - 14, y - 13), 28, 26, boxstyle="round,pad=0,rounding_size=5",
                facecolor=_GOLD if up else "#eeeeee", edgecolor="#7a5c00" if up else "#bbbbbb", lw=1.2)  # fmt: skip
        k.text(x, y + 0.5, COLUMN_LETTERS[c], fontsize=10, weight="bold", color=_INK if up else "#aaaaaa")
        if c == COIN_COLUMN:  # the token with the coin symbol
            k.patch("Circle", (x + 15, y - 11), 5, facecolor="#f5cf4b", edgecolor="#9a7b0a", lw=0.6)
    for e in range(NUM_ERAS):
        k.region = f"era{e}"
        here = e == s.era
        k.text(_X0 - 44, _Y0 + (e + 0.5) * _CH, f"Era {e + 1}", fontsize=11 if here else 10,
               weight="bold" if here else "normal", color=_RED if here else "#555555")  # fmt: skip
        if here:  # the Era marker
            ey = _Y0 + (e + 0.5) * _CH
            k.patch("Polygon", ((_X0 - 16, ey - 14), (_X0 - 2, ey), (_X0 - 16, ey + 14)), closed=True,
                    facecolor=_RED, edgecolor="none")  # fmt: skip
        tokens: dict[tuple[int, bool], list[tuple[float, float]]] = {}
        for c in range(NUM_COLUMNS):
            f = e * NUM_COLUMNS + c
            x, y = _X0 + c * _CW, _Y0 + e * _CH
            if s.claimed[f] and b.KIND[f] == JOKER:
                k.patch("Rectangle", (x + 2, y + 2), _CW - 4, _CH - 4, facecolor="#ffffff", alpha=0.65,
                        edgecolor="none")  # fmt: skip
                k.text(x + _CW / 2, y + _CH - 16, "joker taken", fontsize=7, color="#555555", style="italic")
            if s.owner[f] >= 0:
                tokens.setdefault((int(s.owner[f]), bool(s.developed[f])), []).append((x + _CW - 16, y + _CH - 15))
            if not over and here and s.face_up[c] and f != s.lot:
                k.patch("Rectangle", (x + 3, y + 3), _CW - 6, _CH - 6, facecolor="none", edgecolor=_GOLD, lw=3)
            if f == s.lot:
                k.patch("Rectangle", (x + 3, y + 3), _CW - 6, _CH - 6, facecolor="none", edgecolor=_RED, lw=4)
            if f == s.developing:
                k.patch("Rectangle", (x + 3, y + 3), _CW - 6, _CH - 6, facecolor="none",
                        edgecolor=PLAYER_COLOURS[s.developer], lw=4, ls="--")  # fmt: skip
        for (p, developed), xy in sorted(tokens.items()):  # Property tokens, one marker collection per kind
            colour = PLAYER_COLOURS[p]
            xs, ys = tuple(v[0] for v in xy), tuple(v[1] for v in xy)
            if developed:
                k.patch("scatter", xs, ys, s=210, c=colour, edgecolors=_INK, linewidths=1.0)
            else:  # clock side up: a ring
                k.patch("scatter", xs, ys, s=190, c="white", edgecolors=colour, linewidths=2.8)
            k.patch("scatter", xs, tuple(v + 0.5 for v in ys), s=38, marker=f"${p}$", linewidths=0.3,
                    c="white" if developed else colour, edgecolors="white" if developed else colour)  # fmt: skip
    scores, winners, cur = game.scores(), game.winners(), game.current_player
    for p in range(n):
        k.region = f"player{p}"
        _sketch_player(k, game, p, scores[p], p in winners, p == cur)
    k.region = "status"
    if s.lot >= 0:
        talers = "Taler" if s.high_bid == 1 else "Talers"
        bid = f"highest bid {s.high_bid} {talers} by player {s.high_bidder}" if s.high_bidder >= 0 else "no bid yet"
        k.text(10, HEIGHT - 44, f"On auction: {b.field_label(s.lot)} (auctioneer: player {s.auctioneer})  —  {bid}",
               fontsize=10, ha="left", weight="bold", color=_RED)  # fmt: skip
    from .render import describe_decision

    k.text(10, HEIGHT - 18, describe_decision(game), fontsize=10, ha="left")
    return k.regions


def _sketch_player(k: _Sketch, game: Game, p: int, score: int, winner: bool, to_move: bool) -> None:
    """One player's box: Talers, points, fields, Joker tokens, Subsidy token and markers."""
    s, b = game.s, game.board
    x, y, colour = 10 + p * _BOX_W, _PANEL_Y, PLAYER_COLOURS[p]
    k.patch("FancyBboxPatch", (x + 2, y), _BOX_W - 10, 118, boxstyle="round,pad=0,rounding_size=6",
            facecolor="#fff8e1" if to_move else "#fafafa", edgecolor=colour, lw=3 if to_move else 1)  # fmt: skip
    k.patch("Circle", (x + 22, y + 20), 10, facecolor=colour, edgecolor=_INK, lw=1)
    k.text(x + 22, y + 20.5, str(p), fontsize=8, weight="bold", color="white")
    k.text(x + 40, y + 20, f"Player {p}", fontsize=11, ha="left", weight="bold", color=colour)
    tags = [t for t, on in (("▶ to decide", to_move), ("★ starting player", p == s.starting_player),
                            ("winner", winner)) if on]  # fmt: skip
    k.text(x + 118, y + 20, "   ".join(tags), fontsize=7.5, ha="left", color="#444444")
    owned = sum(1 for o in s.owner if o == p)
    done = sum(1 for f, o in enumerate(s.owner) if o == p and s.developed[f])
    nres = len(b.resource_names)
    jokers = [b.resource_names[r] for r in range(nres) for _ in range(s.jokers[p][r])] + ["?"] * s.jokers[p][nres]
    joker_text = ", ".join(jokers) if jokers else "none"
    if len(joker_text) > 44:
        joker_text = joker_text[:42] + "…"
    k.text(x + 14, y + 46, f"Talers {s.money[p]}", fontsize=9.5, ha="left", weight="bold")
    k.text(x + 178, y + 46, f"Points {score}", fontsize=9.5, ha="left", weight="bold")
    k.text(x + 14, y + 66, f"Fields {owned} ({done} developed)", fontsize=9, ha="left")
    k.text(x + 178, y + 66, "Subsidy " + ("taken (-5)" if s.subsidy[p] else "not taken"), fontsize=9, ha="left")
    k.text(x + 14, y + 88, f"Jokers: {joker_text}", fontsize=8.5, ha="left")


class _Canvas:
    """One figure for one board: the printed board drawn once, positions drawn on top region by region."""

    def __init__(self, board: Board) -> None:
        mpl = matplotlib_parts()
        self.patches, self.MarkerStyle = mpl.patches, mpl.MarkerStyle
        Figure, FigureCanvasAgg = mpl.Figure, mpl.FigureCanvasAgg
        from matplotlib.lines import Line2D

        self.Line2D = Line2D
        self.board = board
        self.fig, self.canvas, self.ax = pixel_page(Figure, FigureCanvasAgg, WIDTH, HEIGHT, DPI)
        self.markers: dict[str, Any] = {}
        for spec in sketch_board(board):
            self._make(spec)
        self.background: Any = None  # Agg buffer of the printed board alone
        self.frame = np.zeros(PICTURE_SHAPE, np.uint8)  # the last RGB frame
        self.drawn: dict[str, tuple] = {}  # region -> primitives shown in self.frame
        # region -> recently drawn primitives -> their pixels (a bidder's box comes back to the same look often)
        self.cache: dict[str, OrderedDict[tuple, np.ndarray]] = {r: OrderedDict() for r in _CACHED_REGIONS}

    def _make(self, spec: tuple) -> Any:
        """Add one primitive to the axes as a matplotlib artist and return it."""
        kind, args, kw = spec
        kw = dict(kw)
        if kind == "text":
            return self.ax.text(*args, **kw)
        if kind == "scatter":
            marker = kw.pop("marker", "o")
            if marker not in self.markers:  # parsing a mathtext marker is slow: once per digit
                self.markers[marker] = self.MarkerStyle(marker)
            return self.ax.scatter(*args, marker=self.markers[marker], **kw)
        if kind == "Line2D":
            return self.ax.add_line(self.Line2D(*args, **kw))
        art = getattr(self.patches, kind)(*args, **kw)
        self.ax.add_artist(art)  # not add_patch: the limits are fixed and updating them is slow
        return art

    def rgb(self, game: Game) -> np.ndarray:
        """The position as uint8[HEIGHT, WIDTH, 3], redrawing only the regions that differ from the last frame."""
        if self.background is None:
            self.canvas.draw()
            self.background = self.canvas.copy_from_bbox(self.fig.bbox)
            self.frame[:] = np.asarray(self.canvas.buffer_rgba())[:, :, :3]
        sketch = {r: tuple(specs) for r, specs in sketch_position(game).items()}
        changed = []
        for r, (x0, y0, x1, y1) in _REGIONS.items():
            key = sketch.get(r, ())
            if key == self.drawn.get(r, ()):
                continue
            if key in self.cache.get(r, ()):
                self.cache[r].move_to_end(key)
                self.frame[y0:y1, x0:x1] = self.cache[r][key]
                self.drawn[r] = key
            else:
                changed.append(r)
        if changed:
            self.canvas.restore_region(self.background)
            renderer = self.canvas.get_renderer()
            artists = [self._make(spec) for r in changed for spec in sketch.get(r, ())]
            for a in artists:
                a.draw(renderer)
            buf = np.asarray(self.canvas.buffer_rgba())
            for r in changed:
                x0, y0, x1, y1 = _REGIONS[r]
                self.frame[y0:y1, x0:x1] = buf[y0:y1, x0:x1, :3]
                key = self.drawn[r] = sketch.get(r, ())
                if r in self.cache:
                    self.cache[r][key] = self.frame[y0:y1, x0:x1].copy()
                    if len(self.cache[r]) > _CACHED_REGIONS[r]:
                        self.cache[r].popitem(last=False)
            for a in artists:
                a.remove()
        return self.frame.copy()

    def svg(self, game: Game, text_as_paths: bool = False) -> str:
        """The position as an SVG document: every primitive drawn, text kept as text."""
        matplotlib = matplotlib_parts().matplotlib
        artists = [self._make(spec) for specs in sketch_position(game).values() for spec in specs]
        return svg_document(matplotlib, self.fig, artists, text_as_paths)


def _canvas(game: Game) -> _Canvas:
    c = _canvases.get(id(game.board))
    if c is None or c.board is not game.board:
        c = _canvases[id(game.board)] = _Canvas(game.board)
    return c


def to_rgb_array(game: Game) -> np.ndarray:
    """The picture of ``game``'s position as ``uint8[800, 1280, 3]`` (``PICTURE_SHAPE``): RGB, white background."""
    with _lock:
        return _canvas(game).rgb(game)


def to_svg(game: Game, text_as_paths: bool = False) -> str:
    """The same picture as an SVG document, 12.8 x 8 inches.

    Text is kept as text (searchable, small; shown in the viewer's DejaVu Sans or its fallback) unless
    ``text_as_paths``: then every letter is an outline, identical everywhere, for a paper's figure.
    """
    with _lock:
        return _canvas(game).svg(game, text_as_paths)


# The shared picture front (core.figure.Pictures) over the two drawings: Industry hides nothing, so one view for all.
PICTURES = Pictures("Industry", lambda game, seat=None: to_rgb_array(game),
                    lambda game, seat, text_as_paths: to_svg(game, text_as_paths),
                    swatch=(*PLAYER_COLOURS, _GOLD, _RED, _INK), width=WIDTH, dpi=DPI, requires=matplotlib_parts,
                    where=f"{__name__}.save_png / to_svg")
GifWriter = PICTURES.gif_writer  # frames: pictures or games; the palette keeps the players' colours


def save_png(game: Game, path: str | os.PathLike[str]) -> None:
    """Write the picture of ``game``'s position to ``path`` as a 1280 x 800 PNG, atomically."""
    PICTURES.save_png(game, path)


def to_png(game: Game, colours: int = 0) -> bytes:
    """The picture as PNG bytes; with ``colours`` (2 to 256) a palette PNG of that many colours, about a third of
    the size (what a notebook shows)."""
    return PICTURES.to_png(game, None, colours)


def save_svg(game: Game, path: str | os.PathLike[str], text_as_paths: bool = False) -> None:
    """Write the SVG picture of ``game``'s position to ``path`` (vector graphics, for papers; see :func:`to_svg`),
    atomically."""
    PICTURES.save_svg(game, path, None, text_as_paths)


def show(game: Game) -> bool:
    """Show the position: an inline PNG (128 colours, about 90 kB, so a saved notebook stays small) in a Jupyter
    notebook, else in one matplotlib window updated in place; without a display it warns and returns False. For
    vector graphics in a notebook, display ``IPython.display.SVG(to_svg(game))`` (about 320 kB)."""
    return PICTURES.show(game)


__all__ = ["PICTURE_SHAPE", "WIDTH", "HEIGHT", "PLAYER_COLOURS", "GifWriter", "to_rgb_array", "to_svg", "save_png",
           "to_png", "save_svg", "show"]  # fmt: skip
