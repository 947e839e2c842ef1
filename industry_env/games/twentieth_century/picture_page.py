"""The browser's picture of a 20th Century position (``industry-env serve``): one column about as wide as the page
gives it beside the choices, read top to bottom, the decision at hand outlined in red (:func:`sketch_page`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import playtext as _T
from .actions import block_of
from .components import CITY_NAMES
from .picture_sketch import (
    CITY_PLACES,
    DPI,
    ERA_COLOURS,
    GREY,
    INK,
    PHASE_WORDS,
    PLAYER_COLOURS,
    ROMAN,
    SCORE_WORDS,
    Sketch,
    checked_seat,
    nation_box,
    nation_scale,
    sketch_nation,
    sketch_tile,
    turned_point,
    turning_cells,
    wrap_text,
)
from .rules import ERA_OF_ROUND, LAST_FULL_ROUND, ROUNDS
from .state import SCORE_SOURCES

if TYPE_CHECKING:
    from .reference import Game

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
    seat = checked_seat(game, seat)
    k = Sketch()
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


def _page_text(k: Sketch, x: float, y: float, text: str, width: float, pt: float = _PAGE_PT, **kw: Any) -> float:
    """``text`` wrapped to ``width`` pixels from (x, y) down; the y below it."""
    # DejaVu Sans, the browser's font, runs a little wider than the PNG's estimate: 0.57 em a letter, 0.62 bold
    for line in wrap_text(text, width, pt, 0.62 if kw.get("weight") == "bold" else 0.57):
        k.text(x, y + _LINE / 2, line, fontsize=pt, ha="left", **kw)
        y += _LINE * pt / _PAGE_PT
    return y


def _page_heading(k: Sketch, y: float, text: str) -> float:
    return _page_text(k, _PAGE_X, y + 4, text, PAGE_WIDTH - 2 * _PAGE_X, 10, weight="bold") + 2


def _page_header(k: Sketch, game: Game, seat: int | None) -> float:
    x = _PAGE_X
    k.text(x, 14, "20th Century", fontsize=12, ha="left", weight="bold")
    rnd = "game over" if game.is_over else f"round {ROMAN[game.round]} of {ROMAN[ROUNDS]}"
    k.text(x + 130, 14, f"{game.n} players  ·  {rnd}", fontsize=9.5, ha="left", color="#444444")
    for r in range(1, ROUNDS + 1):
        bx = PAGE_WIDTH - _PAGE_X - (ROUNDS - r + 1) * 36
        now = r == game.round and not game.is_over
        k.rect(bx, 4, 32, 20, facecolor="#333333" if now else "#ffffff", edgecolor=INK, lw=1)
        k.text(bx + 16, 14, ROMAN[r], fontsize=9, color="white" if now else INK, weight="bold")
    if game.is_over:
        win = game.winners()
        what = f"The game is over: {'winner' if len(win) == 1 else 'winners'} {_T.players_text(win)}"
    else:
        you = " (you)" if game.to_move == seat else ""
        what = f"Player {game.to_move}{you} to move: {_T.decision_words(game, PHASE_WORDS)}"
    y = _page_text(k, x, 30, what, PAGE_WIDTH - 2 * x, 10, weight="bold",
                   color=_CHOOSE if seat is not None and game.to_move == seat else INK)  # fmt: skip
    y += 2
    for r, card in ((2, game.r2), (4, game.r4)):
        text = _T.card_text(r, card)
        y = _page_text(k, x, y, text[:1].upper() + text[1:] + (" (scored)" if game.round > r or game.is_over else ""),
                       PAGE_WIDTH - 2 * x)  # fmt: skip
    y = _page_text(k, x, y, "Final scoring, after round VI: " + _T.FINAL_TEXT, PAGE_WIDTH - 2 * x)
    y = _page_text(k, x, y + 2, "On the tiles: 2c 1s 1v is what a city makes with a citizen (coins, science, VP); a "
                   "filled circle is a citizen, a green ring a recycling centre, a black square the garbage cubes "
                   "(with their number), a brown bar a bridge, M L H an institution (mine, laboratory, hospital); red "
                   "marks what is chosen now. Click a tile to read all about it.", PAGE_WIDTH - 2 * x, 8, color=GREY)
    return y + 4


def _page_land(k: Sketch, game: Game, y: float) -> float:
    d, n = game.data, game.n
    y = _page_heading(k, y, f"Land offer: opening bid at least {game.min_land_price()} coins; a player's k-th land "
                      "tile of the round comes with k garbage cubes")  # fmt: skip
    s, step = _PAGE_TILE, _PAGE_TILE + _PAGE_GAP
    held = {slot: (code, q) for q in range(n) for code, slot, _ in game.pending[q] if d.is_land(code)}
    for slot, code in enumerate(game.land_offer):
        tx, ty = _PAGE_X + slot * step, y + 14
        up = slot == game.auction_slot
        k.text(tx + s / 2, y + 6, f"land {slot}", fontsize=_PAGE_PT, weight="bold", color=_CHOOSE if up else INK)
        if code < 0 and slot in held:  # bought, waiting to be attached: faded, with its buyer
            code, q = held[slot]
            sketch_tile(k, d.land[code], tx, ty, s, fill="#f3f3f3", gid=f"land-{slot}")
            k.text(tx + s / 2, ty + s + 9, f"{d.land[code].id}: player {q}'s", fontsize=8, color=PLAYER_COLOURS[q])
            continue
        if code < 0:
            k.rect(tx, ty, s, s, fill=False, edgecolor="#cccccc", lw=0.8, ls="--")
            k.text(tx + s / 2, ty + s / 2, "sold", fontsize=8, color=GREY)
            continue
        tile = d.land[code]
        sketch_tile(k, tile, tx, ty, s, fill=ERA_COLOURS.get(tile.stack, "#eeeeee"), gid=f"land-{slot}")
        k.text(tx + s / 2, ty + s + 9, f"{tile.id} ({tile.stack})", fontsize=8, color=GREY)
        if up:
            k.rect(tx - 3, ty - 3, s + 6, s + 6, fill=False, edgecolor=_CHOOSE, lw=2.2, zorder=6)
    y += 14 + s + 20
    status = _T.auction_line(game) if game.phase in _T.AUCTION_PHASES else ""
    if status:
        y = _page_text(k, _PAGE_X, y, status[:1].upper() + status[1:], PAGE_WIDTH - 2 * _PAGE_X, color=_CHOOSE)
    return y + 4


def _page_technologies(k: Sketch, game: Game, y: float) -> float:
    d = game.data
    y = _page_heading(k, y, f"Technology offer: {game.tech_price()} science now; one technology for each player who "
                      "withdraws from the land auction")  # fmt: skip
    track = d.tech_cost[ERA_OF_ROUND.get(game.round, "V")]
    k.text(_PAGE_X, y + 9, "cost track", fontsize=_PAGE_PT, ha="left", color=GREY)
    for i, v in enumerate(track):
        bx = _PAGE_X + 80 + i * 28
        here = i == game.cost_pos
        k.rect(bx, y, 24, 18, facecolor="#333333" if here else "#ffffff", edgecolor=INK, lw=0.8)
        k.text(bx + 12, y + 9, str(v), fontsize=_PAGE_PT, color="white" if here else INK)
    k.text(_PAGE_X + 80 + len(track) * 28 + 6, y + 9, "its marker moves one space right after each land tile sold",
           fontsize=_PAGE_PT, ha="left", color=GREY)  # fmt: skip
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


def _page_catastrophe(k: Sketch, game: Game, y: float) -> float:
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
        ink = INK if on else "#888888"
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
            k.patch("Circle", (px, y + 56), 11, facecolor=PLAYER_COLOURS[p], edgecolor=INK, lw=0.8, zorder=5)
            k.text(px, y + 56, str(game.cat_bid[p]), fontsize=_PAGE_PT, color="white", weight="bold", zorder=6)
    y += 76
    bids = [f"player {p} bid {game.cat_bid[p]} on column {game.cat_col[p]}" for p in range(n) if game.cat_col[p] >= 0]
    if bids:
        y = _page_text(k, _PAGE_X, y, "Pawns (a circle, its bid): " + "; ".join(bids), PAGE_WIDTH - 2 * _PAGE_X)
    return y + 4


def _page_final(k: Sketch, game: Game, y: float) -> float:
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


def _page_players(k: Sketch, game: Game, seat: int | None, y: float) -> float:
    n = game.n
    order = list(range(n)) if seat is None else [(seat + i) % n for i in range(n)]
    chosen = {p: _choosing(game, p) for p in range(n)}
    boxes = {p: nation_box(game, p, chosen[p][0]) for p in range(n)}
    scale = nation_scale([boxes[p] for p in order], [(_PAGE_COLUMN - 30, 10_000.0)] * n, _PAGE_CELL)
    for row in range(0, n, 2):
        bottom = y
        for col, p in enumerate(order[row : row + 2]):
            x = _PAGE_X + col * (_PAGE_COLUMN + _PAGE_GAP)
            bottom = max(bottom, _page_player(k, game, p, x, y, p == seat, scale, boxes[p], chosen[p]))
        y = bottom + _PAGE_GAP
    return y


def _page_player(k: Sketch, game: Game, p: int, x: float, y: float, you: bool, s: float,
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
    k.text(x + 6, y + 8, "pollution", fontsize=_PAGE_PT, ha="left", color=GREY)
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
                   f"{d.clean_tile[pol]} VP", w - 12, color=GREY)  # fmt: skip
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
        k.text(ox + (gx + 0.5) * s, oy - 7, str(cx0 + gx), fontsize=8, color=GREY)
    for gy in range(rows):
        k.text(ox - 9, oy + (gy + 0.5) * s, str(cy0 + gy), fontsize=8, color=GREY)
    sketch_nation(k, game, p, ox, oy, s, (cx0, cy0, cx1, cy1), colour)
    for cx, cy in turning_cells(game, p):  # the tile goes here once turned
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
        u, v = turned_point(*CITY_PLACES[len(tile.cities)][j], game.grid_rot[p][c])
        k.patch("Circle", (ox + (cx - cx0 + u) * s, oy + (cy - cy0 + v) * s), max(4.0, 0.1 * s) + 5, fill=False,
                edgecolor=_CHOOSE, lw=2.2, zorder=7, gid=f"city-{p}-{cx}-{cy}-{CITY_NAMES[j]}")  # fmt: skip
    bottom = oy + rows * s + 6
    if turning_cells(game, p):  # the tile being attached, turned each way, named as the choices name the turns
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
