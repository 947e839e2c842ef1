"""The PNG/SVG picture's layout of a 20th Century position (16 x 10 inches): the header, the central board on the
left (the round track and scoring cards, the land and technology offers with the auction, the cost track, the
catastrophe and the pawns' bids, the points track or the final scoring) and each player's board over his nation on
the right, as drawing primitives by region (:func:`sketch_position`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import playtext as _T
from .picture_sketch import (
    ERA_COLOURS,
    GREY,
    HEIGHT,
    INK,
    PHASE_WORDS,
    PLAYER_COLOURS,
    ROMAN,
    SCORE_WORDS,
    WIDTH,
    Sketch,
    checked_seat,
    nation_box,
    nation_scale,
    production_label,
    sketch_nation,
    sketch_tile,
    turning_cells,
    wrap_text,
)
from .rules import ERA_OF_ROUND, LAST_FULL_ROUND, ROUNDS
from .state import SCORE_SOURCES

if TYPE_CHECKING:
    from .reference import Game

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


def _sketch_central(k: Sketch, game: Game, seat: int | None) -> None:
    d, n = game.data, game.n
    x0, y = 10.0, _HEADER_H + 8.0
    # the round track with the scoring cards under II and IV
    k.text(x0, y + 8, "Rounds", fontsize=10, ha="left", weight="bold")
    w = 78.0
    for r in range(1, ROUNDS + 1):
        bx = x0 + 70 + (r - 1) * w * 0.58
        now = r == game.round and not game.is_over
        k.rect(bx, y, w * 0.52, 20, facecolor="#333333" if now else "#ffffff", edgecolor=INK, lw=1)
        k.text(bx + w * 0.26, y + 10, ROMAN[r], fontsize=9, color="white" if now else INK, weight="bold")
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
        k.text(tx + s / 2, ty + 6, f"{slot}", fontsize=8, color=GREY)
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
        k.text(tx + s / 2, ty + s + 20, tile.id, fontsize=8, color=GREY)
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
        cities = ", ".join(f"{production_label(c)}{' recycling' if c.recycling else ''}" for c in tile.cities)
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
        k.text(x0, y + 7, ", ".join(status), fontsize=8, ha="left", color=GREY)
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
    k.text(x0, y + 10, f"cost track ({era})", fontsize=8, ha="left", color=GREY)
    for i, v in enumerate(track):
        bx = x0 + 100 + i * 26
        here = i == game.cost_pos and not over
        k.rect(bx, y + 1, 22, 18, facecolor="#333333" if here else "#ffffff", edgecolor=INK, lw=0.8)
        k.text(bx + 11, y + 10, str(v), fontsize=8, color="white" if here else INK)
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
            k.rect(bx, y, cw, 62, facecolor="#fbeaea" if on else "#eeeeee", edgecolor=INK if on else "#bbbbbb",
                   lw=1.0)  # fmt: skip
            spoil = f"pollution -{pollution}" if pollution else "no pollution"
            words = [f"{garbage} cube{'s' * (garbage != 1)}", spoil]
            k.text(bx + cw / 2, y + 12, words[0], fontsize=8, color=INK if on else "#999999")
            k.text(bx + cw / 2, y + 26, words[1], fontsize=8, color=INK if on else "#999999")
            if not on:
                k.text(bx + cw / 2, y + 46, f"{'4' if c == d.four_players_only else '5'}+ players", fontsize=8,
                       color="#999999")  # fmt: skip
            pawns = [p for p in range(n) if game.cat_col[p] == c]
            for i, p in enumerate(sorted(pawns, key=lambda q: game.cat_bid[q])):
                px = bx + 14 + i * 30
                k.patch("Circle", (px, y + 47), 9, facecolor=PLAYER_COLOURS[p], edgecolor=INK, lw=0.8, zorder=5)
                k.text(px, y + 47, str(game.cat_bid[p]), fontsize=8, color="white", weight="bold", zorder=6)
        y += 72
    _sketch_points(k, game, x0, max(y, HEIGHT - 150.0))


def _sketch_final(k: Sketch, game: Game, x0: float, y: float) -> None:
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


def _sketch_points(k: Sketch, game: Game, x0: float, y: float) -> None:
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
        k.text(px, ty + 12, str(v), fontsize=8, color=GREY)
    seen: dict[int, int] = {}
    for p in sorted(range(n), key=lambda q: scores[q]):
        px = tx0 + (scores[p] - lo) / (hi - lo) * (tx1 - tx0)
        stack = seen.get(round(px / 14), 0)
        seen[round(px / 14)] = stack + 1
        py = ty - 14 - stack * 17
        k.patch("Circle", (px, py), 8, facecolor=PLAYER_COLOURS[p], edgecolor=INK, lw=0.8, zorder=5)
        k.text(px, py, str(p), fontsize=8, color="white", weight="bold", zorder=6)
    rows = "   ".join(f"player {p}: {v}" for p, v in enumerate(scores))
    k.text(x0, ty + 34, rows, fontsize=9, ha="left")
    if game.is_over:
        win = game.winners()
        k.text(x0, ty + 54, f"winner{'s' * (len(win) > 1)}: player {', '.join(map(str, win))}", fontsize=10,
               ha="left", weight="bold")  # fmt: skip


# ================================================================================================ the players
_PANEL_TOP = 142  # the nation's top in a player's panel of the PNG, below the player board


def _sketch_player(k: Sketch, game: Game, p: int, box: tuple[float, float, float, float], you: bool,
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
    k.text(x + 8, ty + 1, "pollution", fontsize=8, ha="left", color=GREY)
    sw = min(16.0, (w - 80) / (hi - lo + 1))
    for i, v in enumerate(range(lo, hi + 1)):
        bx = x + 66 + i * sw
        here = v == game.pollution[p]
        shade = "#f2c4c4" if v < 0 else ("#c9e8c9" if v > 0 else "#eeeeee")
        k.rect(bx, ty - 6, sw - 1, 13, facecolor=colour if here else shade, edgecolor="#999999", lw=0.5)
    k.text(x + 66 + (game.pollution[p] - lo + 0.5) * sw, ty + 15, f"{game.pollution[p]:+d}", fontsize=8,
           color=INK)  # fmt: skip
    ty += 26
    techs = []
    for h_, t in enumerate(game.techs[p]):
        name = d.technologies[t].name
        used = game.used[p][h_] if h_ < len(game.used[p]) else []
        techs.append(name + (" (used)" if used and all(used) else ""))
    lines = wrap_text("technologies: " + (", ".join(techs) or "none"), w - 16, 8)
    pending = [(d.land[c].id if d.is_land(c) else d.technologies[c - len(d.land)].name) for c, _, _ in game.pending[p]]
    if pending:
        lines += wrap_text("to attach: " + ", ".join(pending), w - 16, 8)
    if game.pending_cubes[p]:
        lines.append(f"garbage cubes to place: {game.pending_cubes[p]}")
    for line in lines[:4]:
        k.text(x + 8, ty, line, fontsize=8, ha="left")
        ty += 12
    # the nation, at the scale every nation is drawn at
    top = y + _PANEL_TOP
    cx0, cy0, cx1, cy1 = nation_box(game, p)
    cols, rows = cx1 - cx0 + 1, cy1 - cy0 + 1
    ox = x + (w - cols * s) / 2
    oy = top + (y + h - top - rows * s) / 2
    sketch_nation(k, game, p, ox, oy, s, (cx0, cy0, cx1, cy1), colour)
    for cx, cy in turning_cells(game, p):  # the tile goes here once turned: the cell outlined, the tile named
        k.rect(ox + (cx - cx0) * s + 2, oy + (cy - cy0) * s + 2, s - 4, s - 4, fill=False, edgecolor="#c0112b",
               lw=2.0, ls="--", zorder=6)  # fmt: skip
        code = game.sel[0]
        name = d.land[code].id if d.is_land(code) else d.technologies[code - len(d.land)].name
        k.text(ox + (cx - cx0 + 0.5) * s, oy + (cy - cy0 + 0.5) * s, f"{name}\nhere", fontsize=8, color="#c0112b")


def sketch_position(game: Game, seat: int | None = None) -> dict[str, list[tuple]]:
    """The position's primitives by region of the picture (everything public, ruling 36; ``seat`` marks whose view
    it is)."""
    seat = checked_seat(game, seat)
    k = Sketch()
    k.region = "header"
    k.text(10, 20, "20th Century", fontsize=15, ha="left", weight="bold")
    rnd = "game over" if game.is_over else f"round {ROMAN[game.round]}"
    # no seed: it fixes the stacks' order and the face-down catastrophes, which a picture never shows
    what = "" if game.is_over else f"   ·   {describe_decision(game)}"
    k.text(180, 20, f"{game.n} players   ·   {rnd}{what}", fontsize=10, ha="left",
           color="#444444")  # fmt: skip
    k.text(WIDTH - 10, 20, "cities: c coins, s science, v VP; filled = citizen; green ring = recycling; "
           "black square = garbage; brown bar = bridge", fontsize=8, ha="right", color=GREY)  # fmt: skip
    k.region = "central"
    _sketch_central(k, game, seat)
    boxes = panels(game.n)
    scale = nation_scale([nation_box(game, p) for p in range(game.n)],
                         [(w - 12, h - _PANEL_TOP - 6) for _, _, w, h in boxes], 120.0)  # fmt: skip
    for p, box in enumerate(boxes):
        k.region = f"player{p}"
        _sketch_player(k, game, p, box, p == seat, scale)
    return k.regions
