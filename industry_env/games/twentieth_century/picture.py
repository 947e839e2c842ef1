"""Pictures of a 20th Century position for papers, notebooks, windows and replays: PNG, RGB arrays and SVG.

The picture shows the central board on the left (the round track with the round-II and round-IV scoring cards, the
land and technology offers with the auction under way, the technology cost track, the catastrophe card with its
columns and the pawns' bids, the points track) and one panel per player on the right: the player board (points,
coins and science, production, the pollution track, garbage cubes, technologies and tiles waiting to be attached)
over the nation, each tile drawn on its grid cell with its cities, citizens, production, recycling centres, rails,
bridge, institution and garbage cubes.

The printed tiles' drawings are lost (``docs/twentieth-century/components.md``): a tile is drawn from its rail-piece
graph as ``docs/twentieth-century/pictures.md`` says (cities at fixed places, each rail piece a hub with straight
spokes), so an owner's typed tiles draw the same way. Everything drawn is public (ruling 36): ``seat`` only marks
whose view it is. No picture shows the seed, the stacks' order or a face-down catastrophe.

It reads only a reference :class:`~industry_env.games.twentieth_century.reference.Game` and the data; it holds no
rule. matplotlib is an optional extra (``pip install 'industry_env[render]'``); this module imports without it.
The shared figure makes these functions unsafe from several threads at once, so a lock serialises them.
"""

from __future__ import annotations

import json
import threading
from typing import TYPE_CHECKING, Any

import numpy as np

from ...core import gif as _gif
from ...core.figure import Pictures, pixel_page, svg_document
from . import playtext as _T
from .actions import block_of
from .components import BUILDING, CITY_NAMES, Tile
from .rules import ERA_OF_ROUND, LAST_FULL_ROUND, ROUNDS
from .state import SCORE_SOURCES

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
_INK, _GREY, _RAIL, _BRIDGE, _RECYCLE = "#222222", "#777777", "#4d4d4d", "#8b5a2b", "#1b8a3a"
_MISSING = _gif.MISSING_RENDER
SCORE_WORDS = {"production": "production", "quality_of_life": "quality of life", "round_2_card": "round II card",
               "round_4_card": "round IV card", "land_tiles": "land tiles", "pollution": "pollution track",
               "coins": "coins ranking", "science": "science ranking"}  # fmt: skip
ROMAN = ("", "I", "II", "III", "IV", "V", "VI")
_MIN_PT = 8.0  # no text smaller than this
PHASE_WORDS = _T.PHASE_WORDS
# the scoring cards in short for the PNG's narrow column (the browser's page and the texts say them whole)
CARD_TEXT = {
    2: ("1 VP per coin and science produced", "VP doubled", "6 VP per clean land tile"),
    4: ("2 VP per working recycling centre + coins produced", "pollution track's VP (if positive) + VP produced",
        "clean-tile value per clean tile - cubes + science produced"),
}  # fmt: skip
ABILITY_WORDS = {
    "mine": "mine", "laboratory": "laboratory", "hospital": "hospital", "workers": "workers", "bridge": "bridge",
    "separated_collection": "separated collection", "park": "park", "train": "train",
    "garbage_truck": "garbage truck", "recycling": "recycling", "cleanup": "cleanup",
    "quality_of_life": "quality of life",
}  # fmt: skip

# Layout in pixels, y downwards.
_HEADER_H = 40
_LEFT_W = 520  # the central board's column
_NATIONS_X = _LEFT_W + 8

# City places on a tile of side 1 at rotation 0 (design: 1 city in the centre, 2 on a diagonal, 3 a triangle).
CITY_PLACES = {1: ((0.5, 0.5),), 2: ((0.3, 0.3), (0.7, 0.68)), 3: ((0.28, 0.27), (0.74, 0.34), (0.42, 0.72))}
SIDE_POINTS = {"N": (0.5, 0.0), "E": (1.0, 0.5), "S": (0.5, 1.0), "W": (0.0, 0.5)}
BUILDING_PLACE = (0.5, 0.5)
INSTITUTION_LETTERS = {"mine": "M", "laboratory": "L", "hospital": "H"}

_lock = threading.RLock()


def _matplotlib() -> Any:
    """Import matplotlib's pieces on first use, or raise an ImportError that names the extra to install."""
    try:
        import matplotlib
        from matplotlib import patches
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
        from matplotlib.lines import Line2D
    except ImportError as exc:
        raise ImportError(_MISSING) from exc
    return matplotlib, patches, Figure, FigureCanvasAgg, Line2D


class _Sketch:
    """Drawing primitives (hashable tuples) by region of the picture: what to draw, before anything is drawn."""

    def __init__(self) -> None:
        self.regions: dict[str, list[tuple]] = {}
        self.region = "header"

    def text(self, x: float, y: float, s: str, **kw: Any) -> None:
        kw.setdefault("ha", "center")
        kw.setdefault("va", "center")
        kw.setdefault("color", _INK)
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


# ================================================================================================ layout
def panels(num_players: int) -> list[tuple[float, float, float, float]]:
    """Each player's panel (x, y, width, height): 3 players side by side, 4 in a square, 5 as 3 over 2."""
    cols = 2 if num_players == 4 else 3
    rows = -(-num_players // cols)
    w = (WIDTH - _NATIONS_X - 6) / cols
    h = (HEIGHT - _HEADER_H - 4) / rows
    return [(_NATIONS_X + (p % cols) * w, _HEADER_H + (p // cols) * h, w - 6, h - 6) for p in range(num_players)]


def regions(num_players: int) -> dict[str, tuple[int, int, int, int]]:
    """Regions of the picture that change independently: name -> (x0, y0, x1, y1) in pixels."""
    out = {"header": (0, 0, WIDTH, _HEADER_H), "central": (0, _HEADER_H, _NATIONS_X - 2, HEIGHT)}
    for p, (x, y, w, h) in enumerate(panels(num_players)):
        out[f"player{p}"] = (int(x) - 2, int(y) - 2, min(WIDTH, int(x + w) + 4), min(HEIGHT, int(y + h) + 4))
    return out


def _turn(u: float, v: float, rotation: int) -> tuple[float, float]:
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


def _production_label(city: Any) -> str:
    parts = [f"{v}{c}" for v, c in zip((city.coins, city.science, city.vp), "csv", strict=True) if v]
    return " ".join(parts) or "-"


def sketch_tile(k: _Sketch, tile: Tile, x: float, y: float, s: float, rotation: int = 0, bridge: int = -1,
                fill: str = "#eeeeee", citizens: int = 0, colour: str = _INK, cubes: int = 0,
                production: bool = True, gid: str = "") -> None:  # fmt: skip
    """One tile of side ``s`` pixels at (x, y): its rails (hub and spokes), bridge, building, cities with their
    citizens (bit j: city j) and production, recycling centres (a green ring) and garbage cubes."""
    k.rect(x, y, s, s, facecolor=fill, edgecolor="#8c8c8c", lw=0.8, zorder=2, **({"gid": gid} if gid else {}))
    anchors = _anchors(tile)

    def at(point: tuple[float, float]) -> tuple[float, float]:
        u, v = _turn(*point, rotation)
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
        k.line((ends[0][0], ends[1][0]), (ends[0][1], ends[1][1]), color=_BRIDGE, lw=rail_w * 2.6, zorder=3.5)
    if tile.building:
        b = 0.3 * s
        bx, by = at(BUILDING_PLACE)
        k.rect(bx - b / 2, by - b / 2, b, b, facecolor="#ffffff", edgecolor=_INK, lw=1.0, zorder=4)
        label = INSTITUTION_LETTERS[tile.building] + (f"+{tile.bonus}" if s >= 50 else "")
        k.text(bx, by, label, fontsize=max(8, s / 9), weight="bold", zorder=5)
    r = max(4.0, 0.1 * s)
    for j, city in enumerate(tile.cities):
        cx, cy = at(CITY_PLACES[len(tile.cities)][j])
        occupied = bool(citizens >> j & 1)
        k.patch("Circle", (cx, cy), r, facecolor=colour if occupied else "#ffffff", edgecolor=_INK, lw=1.0, zorder=5)
        if city.recycling:
            k.patch("Circle", (cx, cy), r + max(2.0, s / 30), fill=False, edgecolor=_RECYCLE, lw=max(1.5, s / 40),
                    zorder=5)  # fmt: skip
        # a city that makes nothing (a bare centre) is unlabelled; three cities need a larger tile for labels
        if production and _production_label(city) != "-" and (len(tile.cities) < 3 or s >= 80):
            label, pt = _production_label(city), 8 if s < 90 else 9
            lw, lh = len(label) * pt * DPI / 72 * 0.6 + 2, pt * DPI / 72 * 1.25
            top = min(cy + r + 1, y + s - lh)  # inside the tile
            k.rect(cx - lw / 2, top, lw, lh, facecolor="#ffffff", edgecolor="none", lw=0, alpha=0.75, zorder=5.5)
            k.text(cx, top + lh / 2, label, fontsize=pt, zorder=6, color=_INK)
    if cubes:
        c = max(7.0, s / 7)
        k.rect(x + s - c - 2, y + 2, c, c, facecolor="#111111", edgecolor="#111111", lw=0.5, zorder=6)
        if cubes > 1:
            k.text(x + s - c / 2 - 2, y + 2 + c / 2, str(cubes), fontsize=8, color="white", weight="bold", zorder=7)


# ================================================================================================ the central board
def describe_decision(game: Game) -> str:
    """Who decides what now, in words."""
    if game.is_over:
        return "game over"
    return f"player {game.to_move} to move: {_T.decision_words(game, PHASE_WORDS)}"


def _card_name(which: int) -> str:
    return "none (first game)" if which < 0 else "abc"[which]


def _tech_lines(game: Game, t: int) -> tuple[str, str]:
    """A technology's name and what it does in one short line."""
    tech = game.data.technologies[t]
    what = []
    for a in tech.abilities:
        word = ABILITY_WORDS.get(a.kind, a.kind)
        if a.bonus:
            word += f" +{a.bonus}"
        if a.cost:
            word += f" ({a.cost}c"
            word += f" {a.vp}v)" if a.vp else ")"
        what.append(word)
    cost = []
    if tech.garbage:
        cost.append(f"{tech.garbage} cube{'s' * (tech.garbage > 1)}")
    if tech.pollution:
        cost.append(f"pollution {tech.pollution:+d}")
    return tech.name, ", ".join(what) + (f"; {', '.join(cost)}" if cost else "")


def _sketch_central(k: _Sketch, game: Game, seat: int | None) -> None:
    d, n = game.data, game.n
    x0, y = 10.0, _HEADER_H + 8.0
    # the round track with the scoring cards under II and IV
    k.text(x0, y + 8, "Rounds", fontsize=10, ha="left", weight="bold")
    w = 78.0
    for r in range(1, ROUNDS + 1):
        bx = x0 + 70 + (r - 1) * w * 0.58
        now = r == game.round and not game.is_over
        k.rect(bx, y, w * 0.52, 20, facecolor="#333333" if now else "#ffffff", edgecolor=_INK, lw=1)
        k.text(bx + w * 0.26, y + 10, ROMAN[r], fontsize=9, color="white" if now else _INK, weight="bold")
    y += 28
    for r, card in ((2, game.r2), (4, game.r4)):
        text = "none (first game)" if card < 0 else f"{'abc'[card]}: {CARD_TEXT[r][card]}"
        k.text(x0, y + 7, f"Round {ROMAN[r]} card {text}", fontsize=8, ha="left")
        y += 16
    y += 6
    if game.is_over:
        _sketch_final(k, game, x0, y)
        return
    # the land offer
    over = game.round > LAST_FULL_ROUND
    price = f"opening bid at least {game.min_land_price()} coins" if not over else "no auction"
    k.text(x0, y + 8, f"Land offer  ({price})", fontsize=10, ha="left", weight="bold")
    y += 20
    s, gap = 56.0, 8.0
    held = {slot: (code, q) for q in range(n) for code, slot, _ in game.pending[q] if d.is_land(code)}
    for slot, code in enumerate(game.land_offer):
        col, row = slot % 8, slot // 8
        tx, ty = x0 + col * (s + gap) - (0 if col < 8 else 0), y + row * (s + 30)
        k.text(tx + s / 2, ty + 6, f"{slot}", fontsize=8, color=_GREY)
        if code < 0 and slot in held:  # bought and not yet attached: shown faded, with its buyer, until placed
            code, q = held[slot]
            sketch_tile(k, d.land[code], tx, ty + 12, s, fill="#f3f3f3", production=False, gid=f"land-{slot}")
            k.text(tx + s / 2, ty + s + 20, f"{d.land[code].id} player {q}", fontsize=8, color=PLAYER_COLOURS[q])
            continue
        if code < 0:
            k.rect(tx, ty + 12, s, s, fill=False, edgecolor="#cccccc", lw=0.8, ls="--")
            continue
        tile = d.land[code]
        sketch_tile(k, tile, tx, ty + 12, s, fill=ERA_COLOURS.get(tile.stack, "#eeeeee"), production=False,
                    gid=f"land-{slot}")  # fmt: skip
        k.text(tx + s / 2, ty + s + 20, tile.id, fontsize=8, color=_GREY)
        if slot == game.auction_slot:
            k.rect(tx - 3, ty + 9, s + 6, s + 6, fill=False, edgecolor="#c0112b", lw=2.2, zorder=6)
    y += 12 + s + 18
    # each land tile's cities in words (the tiles above are small)
    for slot, code in enumerate(game.land_offer):
        whose = ""
        if code < 0 and slot in held:
            code, q = held[slot]
            whose = f" (player {q}'s, to attach)"
        if code < 0:
            continue
        tile = d.land[code]
        cities = ", ".join(f"{_production_label(c)}{' recycling' if c.recycling else ''}" for c in tile.cities)
        k.text(x0, y + 6, f"{slot}: {tile.id}{whose}  cities {cities}", fontsize=8, ha="left")
        y += 13
    if game.auction_slot >= 0 and not over:
        bidder = "no bid yet" if game.high_bidder < 0 else f"high bid {game.high_bid} by player {game.high_bidder}"
        k.text(x0, y + 7, f"auction on tile {game.auction_slot}: {bidder}", fontsize=9, ha="left", color="#c0112b")
        y += 16
    status = []
    for p in range(n):
        if game.withdrawn[p]:
            status.append(f"player {p} withdrawn")
        elif game.passed[p]:
            status.append(f"player {p} passed")
    if status and game.phase in ("lead", "open", "bid", "tech"):
        k.text(x0, y + 7, ", ".join(status), fontsize=8, ha="left", color=_GREY)
        y += 14
    y += 8
    # the technology offer and the cost track
    era = ERA_OF_ROUND.get(game.round, "V")
    k.text(x0, y + 8, f"Technology offer  (price {game.tech_price()} science)" if not over else "Technology offer",
           fontsize=10, ha="left", weight="bold")  # fmt: skip
    y += 20
    for slot, t in enumerate(game.tech_offer):
        if t < 0:
            continue
        name, what = _tech_lines(game, t)
        k.text(x0, y + 6, f"{slot}: {name}", fontsize=8.5, ha="left", weight="bold")
        k.text(x0 + 150, y + 6, what, fontsize=8, ha="left")
        y += 15
    track = d.tech_cost[era]
    k.text(x0, y + 10, f"cost track ({era})", fontsize=8, ha="left", color=_GREY)
    for i, v in enumerate(track):
        bx = x0 + 100 + i * 26
        here = i == game.cost_pos and not over
        k.rect(bx, y + 1, 22, 18, facecolor="#333333" if here else "#ffffff", edgecolor=_INK, lw=0.8)
        k.text(bx + 11, y + 10, str(v), fontsize=8, color="white" if here else _INK)
    y += 32
    # the catastrophe card
    if game.cat_current >= 0 and not over:
        card = d.catastrophes[game.cat_current]
        k.text(x0, y + 8, f"Catastrophe {card.id} ({card.era})  bids in science, 0 to 25", fontsize=10, ha="left",
               weight="bold")  # fmt: skip
        y += 20
        used = d.columns_used(n)
        cw = 96.0
        for c, (garbage, pollution) in enumerate(card.columns):
            bx = x0 + c * (cw + 4)
            on = c in used
            k.rect(bx, y, cw, 62, facecolor="#fbeaea" if on else "#eeeeee", edgecolor=_INK if on else "#bbbbbb",
                   lw=1.0)  # fmt: skip
            spoil = f"pollution -{pollution}" if pollution else "no pollution"
            words = [f"{garbage} cube{'s' * (garbage != 1)}", spoil]
            k.text(bx + cw / 2, y + 12, words[0], fontsize=8, color=_INK if on else "#999999")
            k.text(bx + cw / 2, y + 26, words[1], fontsize=8, color=_INK if on else "#999999")
            if not on:
                k.text(bx + cw / 2, y + 46, f"{'4' if c == d.four_players_only else '5'}+ players", fontsize=8,
                       color="#999999")  # fmt: skip
            pawns = [p for p in range(n) if game.cat_col[p] == c]
            for i, p in enumerate(sorted(pawns, key=lambda q: game.cat_bid[q])):
                px = bx + 14 + i * 30
                k.patch("Circle", (px, y + 47), 9, facecolor=PLAYER_COLOURS[p], edgecolor=_INK, lw=0.8, zorder=5)
                k.text(px, y + 47, str(game.cat_bid[p]), fontsize=8, color="white", weight="bold", zorder=6)
        y += 72
    _sketch_points(k, game, x0, max(y, HEIGHT - 150.0))


def _sketch_final(k: _Sketch, game: Game, x0: float, y: float) -> None:
    """The final scoring as a table: each seat's points by source, the total and the cubes (the tie-breaker)."""
    k.text(x0, y + 8, "Final scoring", fontsize=10, ha="left", weight="bold")
    y += 26
    col = (_LEFT_W - 20 - 150) / game.n
    for p in range(game.n):
        k.text(x0 + 150 + (p + 0.5) * col, y, f"player {p}", fontsize=9, weight="bold", color=PLAYER_COLOURS[p])
    rows = [(SCORE_WORDS[s], [game.vp[p][s] for p in range(game.n)]) for s in SCORE_SOURCES]
    rows += [("total", game.scores()), ("cubes (fewer wins a tie)", [game.total_cubes(p) for p in range(game.n)])]
    for name, values in rows:
        y += 17
        bold = "bold" if name == "total" else "normal"
        k.text(x0, y, name, fontsize=9, ha="left", weight=bold)
        for p, v in enumerate(values):
            k.text(x0 + 150 + (p + 0.5) * col, y, str(v), fontsize=9, weight=bold)
        if name == "total":
            k.line((x0, _LEFT_W - 20), (y - 9, y - 9), color="#999999", lw=0.8)
    _sketch_points(k, game, x0, max(y + 20, HEIGHT - 150.0))


def _sketch_points(k: _Sketch, game: Game, x0: float, y: float) -> None:
    """The points track: each seat's marker at its points, stacked where they meet."""
    n = game.n
    k.text(x0, y + 8, "Points", fontsize=10, ha="left", weight="bold")
    scores = game.scores()
    lo, hi = min(0, *scores), max(10, *scores)
    tx0, tx1 = x0 + 60.0, _LEFT_W - 30.0
    ty = y + 30
    k.line((tx0, tx1), (ty, ty), color="#999999", lw=1.5)
    step = 10 if hi - lo <= 120 else 25
    for v in range((lo // step) * step, hi + 1, step):
        if v < lo:
            continue
        px = tx0 + (v - lo) / (hi - lo) * (tx1 - tx0)
        k.line((px, px), (ty - 4, ty + 4), color="#999999", lw=1)
        k.text(px, ty + 12, str(v), fontsize=8, color=_GREY)
    seen: dict[int, int] = {}
    for p in sorted(range(n), key=lambda q: scores[q]):
        px = tx0 + (scores[p] - lo) / (hi - lo) * (tx1 - tx0)
        stack = seen.get(round(px / 14), 0)
        seen[round(px / 14)] = stack + 1
        py = ty - 14 - stack * 17
        k.patch("Circle", (px, py), 8, facecolor=PLAYER_COLOURS[p], edgecolor=_INK, lw=0.8, zorder=5)
        k.text(px, py, str(p), fontsize=8, color="white", weight="bold", zorder=6)
    rows = "   ".join(f"player {p}: {v}" for p, v in enumerate(scores))
    k.text(x0, ty + 34, rows, fontsize=9, ha="left")
    if game.is_over:
        win = game.winners()
        k.text(x0, ty + 54, f"winner{'s' * (len(win) > 1)}: player {', '.join(map(str, win))}", fontsize=10,
               ha="left", weight="bold")  # fmt: skip


# ================================================================================================ the players
def _tile_cells(game: Game, p: int) -> list[tuple[int, int, int]]:
    """Seat ``p``'s tiles as (slot, x, y): each slot's cell, from the starting tile's (0, 0), either negative."""
    return [(c, *game.cell_of(p, c)) for c, code in enumerate(game.grid_tile[p]) if code >= 0]


def _nation_box(game: Game, p: int, extra: list[tuple[int, int]] | None = None) -> tuple[int, int, int, int]:
    """The cells the picture shows of a nation (x0, y0, x1, y1; the nation has no bound, so any may be negative): its
    tiles' bounding box (and the cell a tile is being turned on, and the ``extra`` cells (x, y)), at least 3 x 3."""
    cells = [(x, y) for _, x, y in _tile_cells(game, p)] + _turning(game, p) + list(extra or [])
    xs, ys = [x for x, _ in cells], [y for _, y in cells]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    while x1 - x0 < 2:
        x0, x1 = (x0 - 1, x1) if (x1 - x0) % 2 == 0 else (x0, x1 + 1)
    while y1 - y0 < 2:
        y0, y1 = (y0 - 1, y1) if (y1 - y0) % 2 == 0 else (y0, y1 + 1)
    return x0, y0, x1, y1


def _turning(game: Game, p: int) -> list[tuple[int, int]]:
    """The cell (x, y) on which seat ``p`` is choosing how to turn the tile it attaches (empty list: none)."""
    if game.phase == "attach_rotate" and game.to_move == p and not game.is_over:
        return [game.placed_cell(p, game.sel[1])]
    return []


_PANEL_TOP = 142  # the nation's top in a player's panel of the PNG, below the player board


def nation_scale(boxes: list[tuple[int, int, int, int]], spaces: list[tuple[float, float]], most: float) -> float:
    """The one scale (pixels a cell) that every nation is drawn at: the largest at which each nation's box of cells
    fits its space (width, height), at most ``most``."""
    scale = most
    for (x0, y0, x1, y1), (w, h) in zip(boxes, spaces, strict=True):
        scale = min(scale, w / (x1 - x0 + 1), h / (y1 - y0 + 1))
    return scale


def _sketch_player(k: _Sketch, game: Game, p: int, box: tuple[float, float, float, float], you: bool,
                   s: float) -> None:  # fmt: skip
    d = game.data
    x, y, w, h = box
    colour = PLAYER_COLOURS[p]
    k.rect(x, y, w, h, facecolor="#ffffff", edgecolor=colour, lw=2.5 if you else 1.2, gid=f"player-{p}")
    k.rect(x, y, w, 22, facecolor=colour, edgecolor=colour, lw=1)
    mover = "  ·  to move" if not game.is_over and game.to_move == p else ""
    k.text(x + 8, y + 11, f"Player {p}{' (you)' if you else ''}{mover}", fontsize=10, ha="left", color="white",
           weight="bold")  # fmt: skip
    k.text(x + w - 8, y + 11, f"{game.scores()[p]} VP", fontsize=10, ha="right", color="white", weight="bold")
    ty = y + 36
    prod = game.production(p)
    k.text(x + 8, ty, f"coins {game.coins[p]}   science {game.science[p]}   cubes {game.total_cubes(p)}",
           fontsize=9, ha="left")  # fmt: skip
    ty += 15
    k.text(x + 8, ty, f"production  {prod[0]} coins, {prod[1]} science, {prod[2]} VP", fontsize=9, ha="left")
    ty += 15
    # the pollution track: its spaces from the low end to the high end, the marker on the player's
    lo, hi = d.pollution_low, d.pollution_high
    k.text(x + 8, ty + 1, "pollution", fontsize=8, ha="left", color=_GREY)
    sw = min(16.0, (w - 80) / (hi - lo + 1))
    for i, v in enumerate(range(lo, hi + 1)):
        bx = x + 66 + i * sw
        here = v == game.pollution[p]
        shade = "#f2c4c4" if v < 0 else ("#c9e8c9" if v > 0 else "#eeeeee")
        k.rect(bx, ty - 6, sw - 1, 13, facecolor=colour if here else shade, edgecolor="#999999", lw=0.5)
    k.text(x + 66 + (game.pollution[p] - lo + 0.5) * sw, ty + 15, f"{game.pollution[p]:+d}", fontsize=8,
           color=_INK)  # fmt: skip
    ty += 26
    techs = []
    for h_, t in enumerate(game.techs[p]):
        name = d.technologies[t].name
        used = game.used[p][h_] if h_ < len(game.used[p]) else []
        techs.append(name + (" (used)" if used and all(used) else ""))
    lines = _wrap("technologies: " + (", ".join(techs) or "none"), w - 16, 8)
    pending = [(d.land[c].id if d.is_land(c) else d.technologies[c - len(d.land)].name) for c, _, _ in game.pending[p]]
    if pending:
        lines += _wrap("to attach: " + ", ".join(pending), w - 16, 8)
    if game.pending_cubes[p]:
        lines.append(f"garbage cubes to place: {game.pending_cubes[p]}")
    for line in lines[:4]:
        k.text(x + 8, ty, line, fontsize=8, ha="left")
        ty += 12
    # the nation, at the scale every nation is drawn at
    top = y + _PANEL_TOP
    cx0, cy0, cx1, cy1 = _nation_box(game, p)
    cols, rows = cx1 - cx0 + 1, cy1 - cy0 + 1
    ox = x + (w - cols * s) / 2
    oy = top + (y + h - top - rows * s) / 2
    for gx in range(cols + 1):
        k.line((ox + gx * s, ox + gx * s), (oy, oy + rows * s), color="#e4e4e4", lw=0.6, zorder=1)
    for gy in range(rows + 1):
        k.line((ox, ox + cols * s), (oy + gy * s, oy + gy * s), color="#e4e4e4", lw=0.6, zorder=1)
    for c, cx, cy in _tile_cells(game, p):
        code = game.grid_tile[p][c]
        tile = d.tile(code)
        era = tile.stack if d.is_land(code) else "institution"
        sketch_tile(k, tile, ox + (cx - cx0) * s, oy + (cy - cy0) * s, s, game.grid_rot[p][c], game.grid_bridge[p][c],
                    ERA_COLOURS.get(era, "#eeeeee"), game.grid_citizens[p][c], colour, game.grid_cubes[p][c],
                    production=s >= 56, gid=f"tile-{p}-{cx}-{cy}")  # fmt: skip
    for cx, cy in _turning(game, p):  # the tile goes here once turned: the cell outlined, the tile named
        k.rect(ox + (cx - cx0) * s + 2, oy + (cy - cy0) * s + 2, s - 4, s - 4, fill=False, edgecolor="#c0112b",
               lw=2.0, ls="--", zorder=6)  # fmt: skip
        code = game.sel[0]
        name = d.land[code].id if d.is_land(code) else d.technologies[code - len(d.land)].name
        k.text(ox + (cx - cx0 + 0.5) * s, oy + (cy - cy0 + 0.5) * s, f"{name}\nhere", fontsize=8, color="#c0112b")


def _wrap(text: str, width: float, points: float, em: float = 0.55) -> list[str]:
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


def _check_seat(game: Game, seat: Any) -> int | None:
    if seat is None:
        return None
    if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= int(seat) < game.n:
        raise ValueError(f"seat={seat!r}: must be None (the public view) or a seat from 0 to {game.n - 1}")
    return int(seat)


def sketch_position(game: Game, seat: int | None = None) -> dict[str, list[tuple]]:
    """The position's primitives by region of the picture (everything public, ruling 36; ``seat`` marks whose view
    it is)."""
    seat = _check_seat(game, seat)
    k = _Sketch()
    k.region = "header"
    k.text(10, 20, "20th Century", fontsize=15, ha="left", weight="bold")
    rnd = "game over" if game.is_over else f"round {ROMAN[game.round]}"
    # no seed: it fixes the stacks' order and the face-down catastrophes, which a picture never shows
    what = "" if game.is_over else f"   ·   {describe_decision(game)}"
    k.text(180, 20, f"{game.n} players   ·   {rnd}{what}", fontsize=10, ha="left",
           color="#444444")  # fmt: skip
    k.text(WIDTH - 10, 20, "cities: c coins, s science, v VP; filled = citizen; green ring = recycling; "
           "black square = garbage; brown bar = bridge", fontsize=8, ha="right", color=_GREY)  # fmt: skip
    k.region = "central"
    _sketch_central(k, game, seat)
    boxes = panels(game.n)
    scale = nation_scale([_nation_box(game, p) for p in range(game.n)],
                         [(w - 12, h - _PANEL_TOP - 6) for _, _, w, h in boxes], 120.0)  # fmt: skip
    for p, box in enumerate(boxes):
        k.region = f"player{p}"
        _sketch_player(k, game, p, box, p == seat, scale)
    return k.regions


# ================================================================================================ the browser's page
PAGE_WIDTH = 780  # the browser's picture: about the width the page gives it beside the choices at 1280 pixels
_PAGE_PT = 8.5  # body text in points (11.8 pixels at 100 dpi; nothing is smaller than _MIN_PT, 11.1 pixels)
_PAGE_X = 10.0
_PAGE_TILE = 84.0  # an offered land tile
_PAGE_GAP = 10.0
_PAGE_COLUMN = (PAGE_WIDTH - 2 * _PAGE_X - _PAGE_GAP) / 2  # a player's panel: two side by side
_PAGE_CELL = 96.0  # the largest cell of a nation
_CHOOSE = "#c0112b"  # what the person chooses now: outlined in red
_LINE = _PAGE_PT * DPI / 72 * 1.3  # a line of body text


def sketch_page(game: Game, seat: int | None = None) -> tuple[list[tuple], int, int]:
    """The browser's picture of a position: one column about as wide as the page gives it beside the choices at
    1280 x 720 pixels (:data:`PAGE_WIDTH`), so that its text (never under 8 points) reads at 11 pixels or more
    there; read top to bottom: where the game is, the scoring cards, the offers and the auction, the catastrophe
    (or the final scoring), then every player's board over his nation, the person's first, every nation at one
    scale, the cells and cities of the decision at hand outlined in red with their names. Returns the primitives,
    the width and the height (pixels)."""
    seat = _check_seat(game, seat)
    k = _Sketch()
    k.region = "page"
    y = _page_header(k, game, seat)
    # what the decision at hand is about comes first: the offers in the auction and the catastrophe, the nations in
    # maintenance and production (the offers are sold by then)
    nations_first = not game.is_over and game.phase not in _T.AUCTION_PHASES and game.phase != "catastrophe"
    if nations_first:
        y = _page_players(k, game, seat, y)
    if game.is_over:
        y = _page_final(k, game, y)
    elif game.round <= LAST_FULL_ROUND:
        y = _page_land(k, game, y)
        y = _page_technologies(k, game, y)
        y = _page_catastrophe(k, game, y)
    else:
        y = _page_text(k, _PAGE_X, y, f"Round {ROMAN[game.round]}: no auction and no catastrophe; maintenance is the "
                       "use of technologies, production gives VP only, then the final scoring.", PAGE_WIDTH - 20)
        y += 6
    if not nations_first:
        y = _page_players(k, game, seat, y)
    return k.regions.get("page", []), PAGE_WIDTH, int(y + 10)


def _page_text(k: _Sketch, x: float, y: float, text: str, width: float, pt: float = _PAGE_PT, **kw: Any) -> float:
    """``text`` wrapped to ``width`` pixels from (x, y) down; the y below it."""
    # DejaVu Sans, the browser's font, runs a little wider than the PNG's estimate: 0.57 em a letter, 0.62 bold
    for line in _wrap(text, width, pt, 0.62 if kw.get("weight") == "bold" else 0.57):
        k.text(x, y + _LINE / 2, line, fontsize=pt, ha="left", **kw)
        y += _LINE * pt / _PAGE_PT
    return y


def _page_heading(k: _Sketch, y: float, text: str) -> float:
    return _page_text(k, _PAGE_X, y + 4, text, PAGE_WIDTH - 2 * _PAGE_X, 10, weight="bold") + 2


def _page_header(k: _Sketch, game: Game, seat: int | None) -> float:
    x = _PAGE_X
    k.text(x, 14, "20th Century", fontsize=12, ha="left", weight="bold")
    rnd = "game over" if game.is_over else f"round {ROMAN[game.round]} of {ROMAN[ROUNDS]}"
    k.text(x + 130, 14, f"{game.n} players  ·  {rnd}", fontsize=9.5, ha="left", color="#444444")
    for r in range(1, ROUNDS + 1):
        bx = PAGE_WIDTH - _PAGE_X - (ROUNDS - r + 1) * 36
        now = r == game.round and not game.is_over
        k.rect(bx, 4, 32, 20, facecolor="#333333" if now else "#ffffff", edgecolor=_INK, lw=1)
        k.text(bx + 16, 14, ROMAN[r], fontsize=9, color="white" if now else _INK, weight="bold")
    if game.is_over:
        win = game.winners()
        what = f"The game is over: {'winner' if len(win) == 1 else 'winners'} {_T.players_text(win)}"
    else:
        you = " (you)" if game.to_move == seat else ""
        what = f"Player {game.to_move}{you} to move: {_T.decision_words(game, PHASE_WORDS)}"
    y = _page_text(k, x, 30, what, PAGE_WIDTH - 2 * x, 10, weight="bold",
                   color=_CHOOSE if seat is not None and game.to_move == seat else _INK)  # fmt: skip
    y += 2
    for r, card in ((2, game.r2), (4, game.r4)):
        text = _T.card_text(r, card)
        y = _page_text(k, x, y, text[:1].upper() + text[1:] + (" (scored)" if game.round > r or game.is_over else ""),
                       PAGE_WIDTH - 2 * x)  # fmt: skip
    y = _page_text(k, x, y, "Final scoring, after round VI: " + _T.FINAL_TEXT, PAGE_WIDTH - 2 * x)
    y = _page_text(k, x, y + 2, "On the tiles: 2c 1s 1v is what a city makes with a citizen (coins, science, VP); a "
                   "filled circle is a citizen, a green ring a recycling centre, a black square the garbage cubes "
                   "(with their number), a brown bar a bridge, M L H an institution (mine, laboratory, hospital); red "
                   "marks what is chosen now. Click a tile to read all about it.", PAGE_WIDTH - 2 * x, 8, color=_GREY)
    return y + 4


def _page_land(k: _Sketch, game: Game, y: float) -> float:
    d, n = game.data, game.n
    y = _page_heading(k, y, f"Land offer: opening bid at least {game.min_land_price()} coins; a player's k-th land "
                      "tile of the round comes with k garbage cubes")  # fmt: skip
    s, step = _PAGE_TILE, _PAGE_TILE + _PAGE_GAP
    held = {slot: (code, q) for q in range(n) for code, slot, _ in game.pending[q] if d.is_land(code)}
    for slot, code in enumerate(game.land_offer):
        tx, ty = _PAGE_X + slot * step, y + 14
        up = slot == game.auction_slot
        k.text(tx + s / 2, y + 6, f"land {slot}", fontsize=_PAGE_PT, weight="bold", color=_CHOOSE if up else _INK)
        if code < 0 and slot in held:  # bought, waiting to be attached: faded, with its buyer
            code, q = held[slot]
            sketch_tile(k, d.land[code], tx, ty, s, fill="#f3f3f3", gid=f"land-{slot}")
            k.text(tx + s / 2, ty + s + 9, f"{d.land[code].id}: player {q}'s", fontsize=8, color=PLAYER_COLOURS[q])
            continue
        if code < 0:
            k.rect(tx, ty, s, s, fill=False, edgecolor="#cccccc", lw=0.8, ls="--")
            k.text(tx + s / 2, ty + s / 2, "sold", fontsize=8, color=_GREY)
            continue
        tile = d.land[code]
        sketch_tile(k, tile, tx, ty, s, fill=ERA_COLOURS.get(tile.stack, "#eeeeee"), gid=f"land-{slot}")
        k.text(tx + s / 2, ty + s + 9, f"{tile.id} ({tile.stack})", fontsize=8, color=_GREY)
        if up:
            k.rect(tx - 3, ty - 3, s + 6, s + 6, fill=False, edgecolor=_CHOOSE, lw=2.2, zorder=6)
    y += 14 + s + 20
    status = _T.auction_line(game) if game.phase in _T.AUCTION_PHASES else ""
    if status:
        y = _page_text(k, _PAGE_X, y, status[:1].upper() + status[1:], PAGE_WIDTH - 2 * _PAGE_X, color=_CHOOSE)
    return y + 4


def _page_technologies(k: _Sketch, game: Game, y: float) -> float:
    d = game.data
    y = _page_heading(k, y, f"Technology offer: {game.tech_price()} science now; one technology for each player who "
                      "withdraws from the land auction")  # fmt: skip
    track = d.tech_cost[ERA_OF_ROUND.get(game.round, "V")]
    k.text(_PAGE_X, y + 9, "cost track", fontsize=_PAGE_PT, ha="left", color=_GREY)
    for i, v in enumerate(track):
        bx = _PAGE_X + 80 + i * 28
        here = i == game.cost_pos
        k.rect(bx, y, 24, 18, facecolor="#333333" if here else "#ffffff", edgecolor=_INK, lw=0.8)
        k.text(bx + 12, y + 9, str(v), fontsize=_PAGE_PT, color="white" if here else _INK)
    k.text(_PAGE_X + 80 + len(track) * 28 + 6, y + 9, "its marker moves one space right after each land tile sold",
           fontsize=_PAGE_PT, ha="left", color=_GREY)  # fmt: skip
    y += 24
    for slot, t in enumerate(game.tech_offer):
        if t < 0:
            continue
        tech = d.technologies[t]
        k.text(_PAGE_X, y + _LINE / 2, f"tech {slot}: {tech.name}", fontsize=_PAGE_PT, ha="left", weight="bold")
        what = "; and ".join(_T.ability_text(a) for a in tech.abilities)
        extra = _T.purchase_text(tech)
        y = _page_text(k, _PAGE_X + 170, y, what + (f"; on purchase: {extra}" if extra else ""),
                       PAGE_WIDTH - 2 * _PAGE_X - 170)  # fmt: skip
        y += 2
    return y + 4


def _page_catastrophe(k: _Sketch, game: Game, y: float) -> float:
    d, n = game.data, game.n
    if game.cat_current < 0:
        return y
    card = d.catastrophes[game.cat_current]
    y = _page_heading(k, y, f"Catastrophe {card.id} ({card.era}): bid science (0 to 25) for a column, above any bid "
                      "there; each player pays his bid and takes his column's garbage and pollution; the leftmost "
                      "column's player leads the next round")  # fmt: skip
    used = d.columns_used(n)
    cw = (PAGE_WIDTH - 2 * _PAGE_X - 4 * 6) / 5
    for c, (garbage, pollution) in enumerate(card.columns):
        bx = _PAGE_X + c * (cw + 6)
        on = c in used
        ink = _INK if on else "#888888"
        k.rect(bx, y, cw, 70, facecolor="#fbeaea" if on else "#eeeeee", edgecolor=ink, lw=1.0)
        k.text(bx + cw / 2, y + 10, f"column {c}" + (" (worst)" if c == 0 else ""), fontsize=_PAGE_PT, color=ink,
               weight="bold")  # fmt: skip
        k.text(bx + cw / 2, y + 25, _T.plural(garbage, "garbage cube"), fontsize=_PAGE_PT, color=ink)
        k.text(bx + cw / 2, y + 39, _T.spoil(pollution), fontsize=_PAGE_PT, color=ink)
        if not on:
            k.text(bx + cw / 2, y + 56, f"not used: {'4' if c == d.four_players_only else '5'}+ players", fontsize=8,
                   color=ink)  # fmt: skip
        pawns = sorted((p for p in range(n) if game.cat_col[p] == c), key=lambda q: game.cat_bid[q])
        for i, p in enumerate(pawns):
            px = bx + 16 + i * 28
            k.patch("Circle", (px, y + 56), 11, facecolor=PLAYER_COLOURS[p], edgecolor=_INK, lw=0.8, zorder=5)
            k.text(px, y + 56, str(game.cat_bid[p]), fontsize=_PAGE_PT, color="white", weight="bold", zorder=6)
    y += 76
    bids = [f"player {p} bid {game.cat_bid[p]} on column {game.cat_col[p]}" for p in range(n) if game.cat_col[p] >= 0]
    if bids:
        y = _page_text(k, _PAGE_X, y, "Pawns (a circle, its bid): " + "; ".join(bids), PAGE_WIDTH - 2 * _PAGE_X)
    return y + 4


def _page_final(k: _Sketch, game: Game, y: float) -> float:
    """The final scoring as a table: each player's points by source, the total, the cubes (the tie-breaker)."""
    y = _page_heading(k, y, "Final scoring")
    col = (PAGE_WIDTH - 2 * _PAGE_X - 200) / game.n
    for p in range(game.n):
        k.text(_PAGE_X + 200 + (p + 0.5) * col, y + 8, f"player {p}", fontsize=9, weight="bold",
               color=PLAYER_COLOURS[p])  # fmt: skip
    rows = [(SCORE_WORDS[s], [game.vp[p][s] for p in range(game.n)]) for s in SCORE_SOURCES]
    rows += [("total", game.scores()), ("cubes (fewer win a tie)", [game.total_cubes(p) for p in range(game.n)])]
    for name, values in rows:
        y += 18
        bold = "bold" if name == "total" else "normal"
        k.text(_PAGE_X, y + 8, name, fontsize=9, ha="left", weight=bold)
        for p, v in enumerate(values):
            k.text(_PAGE_X + 200 + (p + 0.5) * col, y + 8, str(v), fontsize=9, weight=bold)
        if name == "total":
            k.line((_PAGE_X, PAGE_WIDTH - _PAGE_X), (y - 1, y - 1), color="#999999", lw=0.8)
    return y + 30


def _choosing(game: Game, p: int) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """The cells (x, y) and the (slot, city) pairs player ``p`` chooses among now (none unless ``p`` is to move): an
    empty cell of a place action, the cell of a tile action's tile, a city action's city."""
    if game.is_over or game.to_move != p:
        return [], []
    cells, cities = [], []
    for a in game.legal_actions():
        name, i = block_of(a)
        if name == "place":
            cells.append(game.placed_cell(p, i))
        elif name == "tile":
            cells.append(game.cell_of(p, i))
        elif name == "city":
            cities.append(divmod(i, 3))
    return cells, cities


def _page_players(k: _Sketch, game: Game, seat: int | None, y: float) -> float:
    n = game.n
    order = list(range(n)) if seat is None else [(seat + i) % n for i in range(n)]
    chosen = {p: _choosing(game, p) for p in range(n)}
    boxes = {p: _nation_box(game, p, chosen[p][0]) for p in range(n)}
    scale = nation_scale([boxes[p] for p in order], [(_PAGE_COLUMN - 30, 10_000.0)] * n, _PAGE_CELL)
    for row in range(0, n, 2):
        bottom = y
        for col, p in enumerate(order[row : row + 2]):
            x = _PAGE_X + col * (_PAGE_COLUMN + _PAGE_GAP)
            bottom = max(bottom, _page_player(k, game, p, x, y, p == seat, scale, boxes[p], chosen[p]))
        y = bottom + _PAGE_GAP
    return y


def _page_player(k: _Sketch, game: Game, p: int, x: float, y: float, you: bool, s: float,
                 box: tuple[int, int, int, int],
                 chosen: tuple[list[tuple[int, int]], list[tuple[int, int]]]) -> float:  # fmt: skip
    """A player's board over his nation; the y below it."""
    d, w = game.data, _PAGE_COLUMN
    colour = PLAYER_COLOURS[p]
    top = y
    k.rect(x, y, w, 24, facecolor=colour, edgecolor=colour, lw=1)
    mover = "  ·  to move" if not game.is_over and game.to_move == p else ""
    k.text(x + 8, y + 12, f"Player {p}{' (you)' if you else ''}{mover}", fontsize=10, ha="left", color="white",
           weight="bold")  # fmt: skip
    k.text(x + w - 8, y + 12, f"{game.scores()[p]} VP", fontsize=10, ha="right", color="white", weight="bold")
    y += 28
    prod = game.production(p)
    y = _page_text(k, x + 6, y, f"{_T.plural(game.coins[p], 'coin')}  ·  {game.science[p]} science  ·  "
                   f"{_T.plural(game.total_cubes(p), 'garbage cube')} on its tiles", w - 12)  # fmt: skip
    y = _page_text(k, x + 6, y, f"produces {prod[0]} coins, {prod[1]} science, {prod[2]} VP a round", w - 12)
    # the pollution track, the marker on the player's space
    lo, hi = d.pollution_low, d.pollution_high
    k.text(x + 6, y + 8, "pollution", fontsize=_PAGE_PT, ha="left", color=_GREY)
    sw = min(20.0, (w - 90) / (hi - lo + 1))
    for i, v in enumerate(range(lo, hi + 1)):
        here = v == game.pollution[p]
        shade = "#f2c4c4" if v < 0 else ("#c9e8c9" if v > 0 else "#eeeeee")
        k.rect(x + 80 + i * sw, y + 1, sw - 1, 15, facecolor=colour if here else shade, edgecolor="#999999", lw=0.5)
        if here:
            k.text(x + 80 + (i + 0.5) * sw, y + 8.5, f"{v:+d}", fontsize=8, color="white", weight="bold")
    y += 20
    pol = game.pollution[p] - lo
    y = _page_text(k, x + 6, y, f"at the end: pollution {d.pollution_final[pol]:+d} VP, a clean land tile "
                   f"{d.clean_tile[pol]} VP", w - 12, color=_GREY)  # fmt: skip
    techs = []
    for h, t in enumerate(game.techs[p]):
        tech = d.technologies[t]
        used = game.used[p][h] if h < len(game.used[p]) else []
        state = ""
        if used and all(used):
            state = " (used)" if all(a.single_use for a in tech.abilities) else " (used this round)"
        techs.append(tech.name + state)
    y = _page_text(k, x + 6, y, "technologies: " + (", ".join(techs) or "none"), w - 12)
    pending = [(d.land[c].id + f" ({_T.plural(cubes, 'cube')})" if d.is_land(c) else
                d.technologies[c - len(d.land)].name) for c, _, cubes in game.pending[p]]  # fmt: skip
    waiting = ([f"to attach: {', '.join(pending)}"] if pending else []) + \
        ([f"garbage cubes to place: {game.pending_cubes[p]}"] if game.pending_cubes[p] else [])  # fmt: skip
    if waiting:
        y = _page_text(k, x + 6, y, "; ".join(waiting), w - 12, weight="bold")
    # the nation: its cells with their names (x across, y down), at the scale every nation is drawn at
    cx0, cy0, cx1, cy1 = box
    cols, rows = cx1 - cx0 + 1, cy1 - cy0 + 1
    oy = y + 14
    ox = x + 20 + (w - 24 - cols * s) / 2
    for gx in range(cols):
        k.text(ox + (gx + 0.5) * s, oy - 7, str(cx0 + gx), fontsize=8, color=_GREY)
    for gy in range(rows):
        k.text(ox - 9, oy + (gy + 0.5) * s, str(cy0 + gy), fontsize=8, color=_GREY)
    for gx in range(cols + 1):
        k.line((ox + gx * s, ox + gx * s), (oy, oy + rows * s), color="#e4e4e4", lw=0.6, zorder=1)
    for gy in range(rows + 1):
        k.line((ox, ox + cols * s), (oy + gy * s, oy + gy * s), color="#e4e4e4", lw=0.6, zorder=1)
    for c, cx, cy in _tile_cells(game, p):
        code = game.grid_tile[p][c]
        tile = d.tile(code)
        era = tile.stack if d.is_land(code) else "institution"
        sketch_tile(k, tile, ox + (cx - cx0) * s, oy + (cy - cy0) * s, s, game.grid_rot[p][c], game.grid_bridge[p][c],
                    ERA_COLOURS.get(era, "#eeeeee"), game.grid_citizens[p][c], colour, game.grid_cubes[p][c],
                    production=s >= 56, gid=f"tile-{p}-{cx}-{cy}")  # fmt: skip
    for cx, cy in _turning(game, p):  # the tile goes here once turned
        k.rect(ox + (cx - cx0) * s + 2, oy + (cy - cy0) * s + 2, s - 4, s - 4, fill=False, edgecolor=_CHOOSE, lw=2.0,
               ls="--", zorder=6)  # fmt: skip
        k.text(ox + (cx - cx0 + 0.5) * s, oy + (cy - cy0 + 0.5) * s, f"{_T.tile_name(game, game.sel[0])}\nhere",
               fontsize=_PAGE_PT, color=_CHOOSE, weight="bold", zorder=7)  # fmt: skip
    cells, cities = chosen
    for cx, cy in cells:  # the cells of the decision at hand, named as the choices name them ('cell 1,-1')
        bx, by = ox + (cx - cx0) * s, oy + (cy - cy0) * s
        name = f"{cx},{cy}"
        if game.slot_at(p, (cx, cy)) < 0:  # an empty cell (id cell-P-X-Y), where a tile may be attached
            k.rect(bx + 2, by + 2, s - 4, s - 4, fill=False, edgecolor=_CHOOSE, lw=2.0, ls="--", zorder=6,
                   gid=f"cell-{p}-{cx}-{cy}")  # fmt: skip
            k.text(bx + s / 2, by + s / 2, name, fontsize=_PAGE_PT, color=_CHOOSE, weight="bold", zorder=7)
        else:  # on a tile: in its top left corner, on white
            k.rect(bx + 2, by + 2, s - 4, s - 4, fill=False, edgecolor=_CHOOSE, lw=2.0, ls="--", zorder=6)
            tag = max(34.0, 6 + 7.0 * len(name))
            k.rect(bx + 4, by + 4, tag, 16, facecolor="#ffffff", edgecolor=_CHOOSE, lw=1.0, zorder=7)
            k.text(bx + 4 + tag / 2, by + 12, name, fontsize=_PAGE_PT, color=_CHOOSE, weight="bold", zorder=8)
    for c, j in cities:  # the cities of the decision at hand
        cx, cy = game.cell_of(p, c)
        code = game.grid_tile[p][c] if game.grid_tile[p][c] >= 0 else game.sel[0]
        tile = d.tile(code)
        u, v = _turn(*CITY_PLACES[len(tile.cities)][j], game.grid_rot[p][c])
        k.patch("Circle", (ox + (cx - cx0 + u) * s, oy + (cy - cy0 + v) * s), max(4.0, 0.1 * s) + 5, fill=False,
                edgecolor=_CHOOSE, lw=2.2, zorder=7, gid=f"city-{p}-{cx}-{cy}-{CITY_NAMES[j]}")  # fmt: skip
    bottom = oy + rows * s + 6
    if _turning(game, p):  # the tile being attached, turned each way, named as the choices name the turns
        tile = d.tile(game.sel[0])
        era = tile.stack if d.is_land(game.sel[0]) else "institution"
        ps = min(84.0, (w - 16 - 3 * 12) / 4)
        bottom = _page_text(k, x + 6, bottom, f"{_T.tile_name(game, game.sel[0])} turned each way:", w - 12,
                            weight="bold", color=_CHOOSE)  # fmt: skip
        for r in range(4):
            tx = x + 8 + r * (ps + 12)
            sketch_tile(k, tile, tx, bottom + 2, ps, r, fill=ERA_COLOURS.get(era, "#eeeeee"), production=ps >= 56)
            k.text(tx + ps / 2, bottom + ps + 12, f"rotate {90 * r}", fontsize=_PAGE_PT, color=_CHOOSE, weight="bold")
        bottom += ps + 24
    k.rect(x, top, w, bottom - top, fill=False, edgecolor=colour, lw=2.5 if you else 1.2, gid=f"player-{p}", zorder=0.5)
    return bottom


# ================================================================================================ drawing
class _Canvas:
    """One figure for one player count: positions drawn on it, only the regions that changed redrawn."""

    def __init__(self, num_players: int) -> None:
        _, self.patches, Figure, FigureCanvasAgg, self.Line2D = _matplotlib()
        self.regions = regions(num_players)
        self.fig, self.canvas, self.ax = pixel_page(Figure, FigureCanvasAgg, WIDTH, HEIGHT, DPI)
        self.background: Any = None
        self.frame = np.zeros(PICTURE_SHAPE, np.uint8)
        self.drawn: dict[str, tuple] = {}

    def _make(self, spec: tuple) -> Any:
        kind, args, kw = spec
        kw = dict(kw)
        if kind == "text":
            return self.ax.text(*args, **kw)
        if kind == "Line2D":
            return self.ax.add_line(self.Line2D(*args, **kw))
        art = getattr(self.patches, kind)(*args, **kw)
        self.ax.add_artist(art)
        return art

    def rgb(self, game: Game, seat: int | None) -> np.ndarray:
        sketch = {r: tuple(items) for r, items in sketch_position(game, seat).items()}
        if self.background is None:
            self.canvas.draw()
            self.background = self.canvas.copy_from_bbox(self.fig.bbox)
            self.frame[:] = np.asarray(self.canvas.buffer_rgba())[:, :, :3]
        changed = [r for r in self.regions if sketch.get(r, ()) != self.drawn.get(r, ())]
        if changed:
            self.canvas.restore_region(self.background)
            renderer = self.canvas.get_renderer()
            artists = [self._make(spec) for r in changed for spec in sketch.get(r, ())]
            try:
                for a in sorted(artists, key=lambda a: a.get_zorder()):
                    a.draw(renderer)
                buf = np.asarray(self.canvas.buffer_rgba())
                for r in changed:
                    x0, y0, x1, y1 = self.regions[r]
                    self.frame[y0:y1, x0:x1] = buf[y0:y1, x0:x1, :3]
                    self.drawn[r] = sketch.get(r, ())
            finally:
                for a in artists:
                    a.remove()
        return self.frame.copy()

    def svg(self, game: Game, seat: int | None, text_as_paths: bool = False) -> str:
        matplotlib = _matplotlib()[0]
        artists = [self._make(spec) for items in sketch_position(game, seat).values() for spec in items]
        return svg_document(matplotlib, self.fig, artists, text_as_paths)


_canvases: dict[int, _Canvas] = {}


def _canvas(game: Game) -> _Canvas:
    if game.n not in _canvases:
        _canvases[game.n] = _Canvas(game.n)
    return _canvases[game.n]


def to_rgb_array(game: Game, seat: int | None = None) -> np.ndarray:
    """The picture of ``game``'s position as ``uint8[1000, 1600, 3]`` (``PICTURE_SHAPE``): RGB, white background."""
    with _lock:
        return _canvas(game).rgb(game, seat)


def to_svg(game: Game, seat: int | None = None, text_as_paths: bool = False) -> str:
    """The same picture as an SVG document, 16 x 10 inches; each player's panel (``player-0``), each nation's tile
    (``tile-0-1--1``: seat, x, y from the starting tile's 0,0, either negative) and each offered land tile
    (``land-3``) is an element with its own id."""
    with _lock:
        return _canvas(game).svg(game, seat, text_as_paths)


PICTURES = Pictures("20th Century", to_rgb_array, to_svg,
                    swatch=(*PLAYER_COLOURS, *ERA_COLOURS.values(), _RECYCLE, _BRIDGE, _INK), width=WIDTH, dpi=DPI,
                    requires=_matplotlib, where=f"{__name__}.save_png / to_svg")
# the shared picture front (core.figure.Pictures): PNG bytes and files (written atomically), the SVG file, the GIF
# writer keeping the players' colours, show (inline in a notebook, else one window)
to_png, save_png, save_svg, show = PICTURES.to_png, PICTURES.save_png, PICTURES.save_svg, PICTURES.show
GifWriter = PICTURES.gif_writer


_UNSEEN = ("seed", "land_stacks", "tech_stacks", "cat_stack")  # what no picture shows


def picture_key(game: Game) -> str:
    """What the picture shows, comparable: the saved position without the seed and the stacks' order."""
    doc = json.loads(game.to_json())
    for name in _UNSEEN:
        doc.pop(name, None)
    return json.dumps(doc, sort_keys=True)


EXAMPLE = {"num_players": 4, "seed": 3, "rounds": 4, "seat": 0}  # the docs' example picture


def example_game(num_players: int = 4, seed: int = 3, rounds: int = 4) -> Game:
    """A position for an example picture: seeded random moves (``random.Random(seed)``, withdrawing and 'done'
    weighted down so that nations grow), stopped at the first decision of round ``rounds + 1``."""
    import random

    from .reference import Game as ReferenceGame

    game, rng = ReferenceGame(num_players, seed), random.Random(seed)
    while not game.is_over and game.round <= rounds:
        legal = game.legal_actions()
        weights = [0.15 if game.action_to_string(a).split(" ")[0] in ("withdraw", "done", "pass") else 1.0
                   for a in legal]  # fmt: skip
        game.apply(rng.choices(legal, weights)[0])
    return game


def example_sketch() -> dict[str, list[tuple]]:
    """The drawing primitives of the docs' example picture (:data:`EXAMPLE`)."""
    spec = dict(EXAMPLE)
    seat = spec.pop("seat")
    return sketch_position(example_game(**spec), seat)


def example_png() -> bytes:
    """The docs' example picture (:data:`EXAMPLE`) as a palette PNG of 128 colours."""
    spec = dict(EXAMPLE)
    seat = spec.pop("seat")
    return to_png(example_game(**spec), seat, colours=128)


__all__ = [
    "EXAMPLE", "HEIGHT", "PAGE_WIDTH", "PICTURE_SHAPE", "PLAYER_COLOURS", "WIDTH", "GifWriter", "describe_decision",
    "example_game", "example_png", "example_sketch", "picture_key", "save_png", "save_svg", "show",
    "sketch_page", "sketch_position", "to_png", "to_rgb_array", "to_svg",
]  # fmt: skip
