"""What a seat observes of a 20th Century game: one flat float32 vector of named pieces, egocentric (the observer
first, then clockwise), padded to five seats.

Every amount is public to a player with perfect recall (ruling 36: coin and science cards are secret by the book,
but every gain and payment is announced), so every seat's holdings are shown. Hidden from every seat: the order of
the six stacks and the catastrophe cards still face down; the observation shows only which tiles are still unseen
(``unseen``) and which catastrophes are revealed. docs/twentieth-century/observation.md lists the pieces.

Since nothing is hidden from one seat more than from another, every seat's observation of a position is one
*public* vector (the one seat 0 sees) with its seat-indexed entries rotated. The public vector and each nation's
grid are derived once and kept, keyed by everything they are derived from (below), so observing every seat at
every decision, as ``industry-env verify --all-seats`` does, derives the public vector once per position and a
nation's grid once per change of that nation.
"""

from __future__ import annotations

import dataclasses
import pickle
import threading
import weakref
from typing import Any

import numpy as np

from ...core.spec import check_seat
from .actions import MAX_ABILITIES, MAX_TECHS
from .components import ERAS, INSTITUTIONS, KINDS, MAX_CITIES, GameData, Tile
from .geometry import MAX_TILES, Placed, local_components, reaches
from .rules import MAX_LAND_OFFER, MAX_PLAYERS, MAX_TECH_OFFER, ROUNDS
from .state import FIELDS, PHASES

MAX_TRACK = 7
TILE_FEATURES = 1 + 3 + MAX_CITIES * 5 + 4 + MAX_CITIES * 4 + 1  # a land tile on offer
TECH_FEATURES = 1 + 3 + len(KINDS) + 1 + 2 + 3 + 4 + 4
CELL_FEATURES = 6 + 4 + 4 + MAX_CITIES * 6 + MAX_CITIES * 4 + 4 + 3 + 1 + 2 + 2


def layout(data: GameData) -> list[tuple[str, tuple[int, ...] | int, str]]:
    """The pieces (name, shape, meaning), in order."""
    P, T, K = MAX_PLAYERS, len(data.technologies), len(data.catastrophes)
    track = len(data.pollution_final)
    seat_features = 2 + 3 + track + 8 + T + MAX_TECHS * MAX_ABILITIES
    return [
        ("num_players", 3, "one-hot: 3, 4, 5 players"),
        ("round", ROUNDS, "one-hot: rounds I to VI"),
        ("phase", len(PHASES), "one-hot: the decision awaited"),
        ("to_move", P, "one-hot, egocentric: the seat deciding"),
        ("seat_present", P, "1 for each seat in the game, egocentric"),
        ("scoring_cards", (2, 4), "round II and round IV card one-hot: a, b, c, none"),
        ("prices", 1 + 2 * MAX_TRACK, "minimum land price / 4; the cost track's prices / 6; the marker one-hot"),
        ("land_offer", (MAX_LAND_OFFER, TILE_FEATURES), "per slot: on sale, era (3), per city (exists, coins, "
         "science, VP / 5, recycling), railed sides (4), per city its reach to each side (12), bridge places / 4; "
         "a tile bought and not yet attached keeps its row, with 'on sale' 0"),
        ("tech_offer", (MAX_TECH_OFFER, TECH_FEATURES), "per slot: on sale, era (3), ability kinds (multi-hot), "
         "garbage / 5, pollution left / 3 and right / 3, bonus / 3, cost / 9, VP / 9, railed sides, building reach; "
         "an institution bought and not yet attached keeps its row, with 'on sale' 0"),
        ("auction", MAX_LAND_OFFER + 1 + 7 * P, "tile under auction one-hot, high bid / 10, high bidder, leader, "
         "withdrawn, withdrawal rank / 5, passed, tiles won this round / 5, the last to withdraw (seats egocentric)"),
        ("catastrophe", 5 * 3 + 5 * P + 2 * P + K, "current card's columns (garbage / 5, pollution / 3, used), "
         "pawns (seat x column), bids / 25, on top, catastrophe cards revealed"),
        ("seat_vp", P, "victory points / 50 (may be negative)"),
        ("seats", (P, seat_features), "coins / 10, science / 10, production markers / 10 (3), pollution one-hot, "
         "pending cubes / 5, cubes / 10, land tiles / 10, clean land tiles / 10, free cities / 10, working "
         "recycling centres / 5, Workers and bridges in hand, technologies owned (multi-hot), abilities used"),
        ("pending", (P, MAX_LAND_OFFER + MAX_TECH_OFFER), "tiles bought this round and not yet attached, by slot"),
        ("grids", (P, MAX_TILES, CELL_FEATURES), "per seat, per tile of the nation by slot (the order attached, 0 "
         "the starting tile): present, land, "
         "institution, start, bought this round, cubes / 4, rotation one-hot, railed sides, per city (exists, "
         "coins, science, VP / 5, recycling, occupied), per city reach to each side, building reach, building kind, "
         "bonus / 3, bridge placed, bridge places / 4, its cell (x east / 8, y south / 8 of the starting tile's)"),
        ("selection", 3 + 3 + MAX_LAND_OFFER + MAX_TECH_OFFER + MAX_TECHS * MAX_ABILITIES + 1,
         "selected cell (present, x / 8, y / 8 from the starting tile), selected city one-hot, the tile being "
         "attached by slot, the ability in use one-hot, cubes recycled this production / 5"),
        ("unseen", len(data.land) + T, "land tiles and technologies still in the stacks (their order is unknown)"),
    ]  # fmt: skip


def _tile_features(tile: Tile, rot: int, bridge: int, out: np.ndarray) -> None:
    placed = Placed(tile, rot, bridge)
    comps = local_components(tile, rot, bridge)
    for s in range(4):
        out[s] = any(s in c.sides for c in comps)
    for j in range(len(tile.cities)):
        for s in range(4):
            out[4 + 4 * j + s] = reaches(placed, j, s)


def _land_row(data: GameData, code: int) -> np.ndarray:
    """A land tile on offer: present, era, its cities, railed sides, each city's reach, bridge places."""
    f = np.zeros(TILE_FEATURES, np.float32)
    tile = data.land[code]
    f[0], f[1 + ERAS.index(tile.stack)] = 1, 1
    for j, c in enumerate(tile.cities):
        f[4 + 5 * j : 9 + 5 * j] = (1, c.coins / 5, c.science / 5, c.vp / 5, c.recycling)
    _tile_features(tile, 0, -1, f[19:35])
    f[35] = len(tile.bridges) / 4
    return f


def _tech_row(data: GameData, code: int) -> np.ndarray:
    """A technology on offer: present, era, ability kinds, garbage, pollution, the last ability's bonus, cost and VP,
    its institution's railed sides and its building's reach."""
    f = np.zeros(TECH_FEATURES, np.float32)
    tech = data.technologies[code]
    f[0], f[1 + ERAS.index(tech.stack)] = 1, 1
    for ab in tech.abilities:
        f[4 + KINDS.index(ab.kind)] = 1
    k = 4 + len(KINDS)
    ab = tech.abilities[-1]
    f[k : k + 6] = (tech.garbage / 5, max(0, -tech.pollution) / 3, max(0, tech.pollution) / 3, ab.bonus / 3,
                    ab.cost / 9, ab.vp / 9)  # fmt: skip
    if tech.tile is not None:
        placed = Placed(tech.tile)
        for side in range(4):
            f[k + 6 + side] = any(side in c.sides for c in local_components(tech.tile, 0, -1))
            f[k + 10 + side] = reaches(placed, -1, side)
    return f


def _cell_row(data: GameData, code: int, rot: int, bridge: int, citizens: int) -> np.ndarray:
    """Tile ``code`` in a nation as placed, with its citizens (bit j: city j occupied): the slot's features but its
    cubes, 'bought this round' and its cell (columns 4, 5, 54 and 55, left 0)."""
    g = np.zeros(CELL_FEATURES, np.float32)
    tile = data.tile(code)
    land = data.is_land(code)
    g[0:4] = (1, land, not land, code == 0)
    g[6 + rot] = 1
    placed = Placed(tile, rot, bridge)
    comps = local_components(tile, rot, bridge)
    for s in range(4):
        g[10 + s] = any(s in comp.sides for comp in comps)
    for j, city in enumerate(tile.cities):
        occ = bool(citizens >> j & 1)
        g[14 + 6 * j : 20 + 6 * j] = (1, city.coins / 5, city.science / 5, city.vp / 5, city.recycling, occ)
        for s in range(4):
            g[32 + 4 * j + s] = reaches(placed, j, s)
    if not land:
        for s in range(4):
            g[44 + s] = reaches(placed, -1, s)
        g[48 + INSTITUTIONS[tile.building]] = 1
        g[51] = tile.bonus / 3
    g[52] = bridge >= 0
    g[53] = len(tile.bridges) / 4
    return g


# ---------------------------------------------------------------------------------------------- what is kept
# What an observation derives is kept, each value keyed by everything it is derived from, so that a kept value can
# never be stale: a position changed by ``apply``, a forced move, or a test writing a field has another key and is
# derived afresh. Kept per component set (its sha256): the pieces' offsets, the seat rotations, and each tile's
# features (on offer, or placed as it lies). Kept per game (weakly, dropped with the game; a clone, a resampled game
# or one read from JSON starts with none): each nation's grid and counts, keyed by its tiles, rotations, bridges
# and citizens. Kept for the last few positions observed (PUBLIC_KEPT, of any games): the public vector, keyed by
# the whole position (every saved field, pickled, and the components' sha256). A kept array is read-only and
# copied into what ``observe`` returns.

PUBLIC_KEPT = 16  # public vectors kept: every seat of a position observed in turn, as verify and the envs do


@dataclasses.dataclass(frozen=True)
class _Nation:
    """What the observation reads of a seat's nation that depends only on ``key`` (tiles, rotations, bridges and
    citizens and cells by slot): the rows of the slots holding a tile (cubes and 'bought this round' left to fill)
    and the counts the rules derive from it."""

    key: tuple
    cells: np.ndarray  # the slots holding a tile, ascending
    rows: np.ndarray  # float32[len(cells), CELL_FEATURES]
    production: tuple[int, int, int]  # Game.production
    land_cells: tuple[int, ...]  # Game.land_cells
    free_cities: int  # len(Game.cities(occupied=False))
    working_centres: int  # len(Game.working_centres)


_ROWS: dict[tuple[str, str, int, int, int, int], np.ndarray] = {}  # (sha256, kind, code, rot, bridge, citizens)
_LAYOUTS: dict[str, tuple[dict[str, tuple[tuple[int, ...], int, int]], int]] = {}
_ROTATIONS: dict[tuple[str, int, int], np.ndarray] = {}
_NATIONS: weakref.WeakKeyDictionary[Any, dict[int, _Nation]] = weakref.WeakKeyDictionary()
_PUBLIC: dict[bytes, np.ndarray] = {}
_PUBLIC_LOCK = threading.Lock()


def forget() -> None:
    """Drop everything kept (each observation after it derives afresh): a check that nothing kept is stale compares
    with observations made after it; it also frees the memory."""
    with _PUBLIC_LOCK:
        _PUBLIC.clear()
    _NATIONS.clear()
    _ROWS.clear()


def _frozen(a: np.ndarray) -> np.ndarray:
    a.setflags(write=False)
    return a


def _row(data: GameData, kind: str, code: int, rot: int = 0, bridge: int = -1, citizens: int = 0) -> np.ndarray:
    """Kept features of a tile: ``kind`` 'land' (a land tile on offer), 'tech' (a technology on offer) or 'cell'
    (tile ``code`` on a nation's grid, as placed and with its citizens)."""
    key = (data.sha256, kind, code, rot, bridge, citizens)
    row = _ROWS.get(key)
    if row is None:
        if kind == "cell":
            row = _cell_row(data, code, rot, bridge, citizens)
        else:
            row = (_land_row if kind == "land" else _tech_row)(data, code)
        _ROWS[key] = row = _frozen(row)
    return row


def _nation(game: Any, kept: dict[int, _Nation], q: int) -> _Nation:
    """Seat ``q``'s :class:`_Nation`, derived again only when its tiles, rotations, bridges or citizens changed."""
    tiles, rots, bridges, citizens = game.grid_tile[q], game.grid_rot[q], game.grid_bridge[q], game.grid_citizens[q]
    key = (game.data.sha256, tuple(tiles), tuple(rots), tuple(bridges), tuple(citizens), tuple(game.grid_x[q]),
           tuple(game.grid_y[q]))  # fmt: skip
    nation = kept.get(q)
    if nation is not None and nation.key == key:
        return nation
    cells = [c for c, code in enumerate(tiles) if code >= 0]
    rows = np.zeros((len(cells), CELL_FEATURES), np.float32)
    for i, c in enumerate(cells):
        rows[i] = _row(game.data, "cell", tiles[c], rots[c], bridges[c], citizens[c])
        rows[i, 54:56] = (game.grid_x[q][c] / 8, game.grid_y[q][c] / 8)
    nation = _Nation(key, _frozen(np.array(cells, np.intp)), _frozen(rows), game.production(q),
                     tuple(game.land_cells(q)), len(game.cities(q, occupied=False)),
                     len(game.working_centres(q)))  # fmt: skip
    kept[q] = nation
    return nation


def _offsets(data: GameData) -> tuple[dict[str, tuple[tuple[int, ...], int, int]], int]:
    """Each piece's (shape, offset, size) in the flat vector, and the vector's length."""
    kept = _LAYOUTS.get(data.sha256)
    if kept is None:
        pieces, offset = {}, 0
        for name, shape, _ in layout(data):
            shape = (shape,) if isinstance(shape, int) else shape
            size = int(np.prod(shape))
            pieces[name] = (shape, offset, size)
            offset += size
        _LAYOUTS[data.sha256] = kept = (pieces, offset)
    return kept


def _rotation(data: GameData, n: int, seat: int) -> np.ndarray:
    """Indices into the public vector giving seat ``seat``'s: every seat-indexed entry of seat q moved to place
    (q - seat) % n, the observer first."""
    key = (data.sha256, n, seat)
    index = _ROTATIONS.get(key)
    if index is None:
        pieces, size = _offsets(data)
        index = np.arange(size)
        P = MAX_PLAYERS
        base = MAX_LAND_OFFER + 1
        seat_blocks = [("to_move", 0, 1), ("seat_present", 0, 1), ("seat_vp", 0, 1)]  # (piece, start, length)
        seat_blocks += [("auction", base + k * P, 1) for k in range(7)]
        seat_blocks += [("catastrophe", 15, 5), ("catastrophe", 15 + 5 * P, 1), ("catastrophe", 15 + 6 * P, 1)]
        seat_blocks += [(name, 0, pieces[name][2] // P) for name in ("seats", "pending", "grids")]
        for name, start, length in seat_blocks:
            at = pieces[name][1] + start
            for r in range(n):
                q = (r + seat) % n
                index[at + r * length : at + (r + 1) * length] = np.arange(at + q * length, at + (q + 1) * length)
        _ROTATIONS[key] = index = _frozen(index)
    return index


# ---------------------------------------------------------------------------------------------- the observation
def observe(game: Any, seat: int) -> np.ndarray:
    """Seat ``seat``'s observation of ``game``: the public vector, its seats rotated to put ``seat`` first."""
    data, n = game.data, game.n
    seat = check_seat(seat, n)
    key = pickle.dumps((data.sha256, [getattr(game, k) for k in FIELDS]), 5)
    public = _PUBLIC.get(key)
    if public is None:
        public = _frozen(_public(game))
        with _PUBLIC_LOCK:
            while len(_PUBLIC) >= PUBLIC_KEPT:
                del _PUBLIC[next(iter(_PUBLIC))]  # the oldest
            _PUBLIC[key] = public
    return public.copy() if seat == 0 else public[_rotation(data, n, seat)]


def _public(game: Any) -> np.ndarray:
    """The observation of seat 0 (seat q's entries at place q)."""
    data, n = game.data, game.n
    kept = _NATIONS.get(game)
    if kept is None:
        _NATIONS[game] = kept = {}
    pieces, size = _offsets(data)
    flat = np.zeros(size, np.float32)
    out = {name: flat[o : o + k].reshape(shape) for name, (shape, o, k) in pieces.items()}
    out["num_players"][n - 3] = 1
    out["round"][game.round - 1] = 1
    out["phase"][PHASES.index(game.phase)] = 1
    if game.to_move >= 0 and not game.is_over:
        out["to_move"][game.to_move] = 1
    out["seat_present"][:n] = 1
    out["scoring_cards"][0, game.r2 if game.r2 >= 0 else 3] = 1
    out["scoring_cards"][1, game.r4 if game.r4 >= 0 else 3] = 1
    pr = out["prices"]
    if game.round <= 5:
        track = data.tech_cost[("I-II", "I-II", "III-IV", "III-IV", "V")[game.round - 1]]
        pr[0] = game.min_land_price() / 4
        pr[1 : 1 + len(track)] = np.array(track) / 6
        pr[1 + MAX_TRACK + game.cost_pos] = 1
    for s, t in enumerate(game.land_offer):
        if t >= 0:
            out["land_offer"][s] = _row(data, "land", t)
    for s, t in enumerate(game.tech_offer):
        if t >= 0:
            out["tech_offer"][s] = _row(data, "tech", t)
    for q in range(n):  # a tile bought and not yet attached keeps its row, flagged as no longer on sale
        for code, slot, _ in game.pending[q]:
            if data.is_land(code):
                out["land_offer"][slot] = _row(data, "land", code)
                out["land_offer"][slot, 0] = 0
            else:
                out["tech_offer"][slot] = _row(data, "tech", code - len(data.land))
                out["tech_offer"][slot, 0] = 0
    a = out["auction"]
    P = MAX_PLAYERS
    if game.auction_slot >= 0:
        a[game.auction_slot] = 1
    base = MAX_LAND_OFFER
    a[base] = game.high_bid / 10
    for q in range(n):
        a[base + 1 + q] = q == game.high_bidder
        a[base + 1 + P + q] = q == game.leader
        a[base + 1 + 2 * P + q] = game.withdrawn[q] > 0
        a[base + 1 + 3 * P + q] = game.withdrawn[q] / 5
        a[base + 1 + 4 * P + q] = game.passed[q]
        a[base + 1 + 5 * P + q] = game.won[q] / 5
        a[base + 1 + 6 * P + q] = game.withdrawn[q] == max(game.withdrawn) > 0
    c = out["catastrophe"]
    if game.cat_current >= 0 and game.round <= 5:
        used = data.columns_used(n)
        for col, (g, pol) in enumerate(data.catastrophes[game.cat_current].columns):
            c[3 * col : 3 * col + 3] = (g / 5, pol / 3, col in used)
    for q in range(n):
        if game.cat_col[q] >= 0:
            c[15 + 5 * q + game.cat_col[q]] = 1
            c[15 + 5 * P + q] = game.cat_bid[q] / 25
            c[15 + 6 * P + q] = game.on_top(q)
    for k in game.cat_revealed:
        c[15 + 7 * P + k] = 1
    track_len = len(data.pollution_final)
    for q in range(n):
        out["seat_vp"][q] = sum(game.vp[q].values()) / 50
        f = out["seats"][q]
        nation = _nation(game, kept, q)
        prod = nation.production
        f[0:5] = (game.coins[q] / 10, game.science[q] / 10, prod[0] / 10, prod[1] / 10, prod[2] / 10)
        f[5 + game.pollution[q] - data.pollution_low] = 1
        k = 5 + track_len
        workers = sum(not game.used[q][h][i] and ab.kind == "workers" for h, t in enumerate(game.techs[q])
                      for i, ab in enumerate(data.technologies[t].abilities))  # fmt: skip
        bridges = sum(not game.used[q][h][i] and ab.kind == "bridge" for h, t in enumerate(game.techs[q])
                      for i, ab in enumerate(data.technologies[t].abilities))  # fmt: skip
        cubes = game.grid_cubes[q]
        clean = sum(cubes[c] == 0 for c in nation.land_cells)  # Game.clean_land_tiles, on the kept land cells
        f[k : k + 8] = (game.pending_cubes[q] / 5, game.total_cubes(q) / 10, len(nation.land_cells) / 10,
                        clean / 10, nation.free_cities / 10, nation.working_centres / 5, workers, bridges)  # fmt: skip
        k += 8
        for t in game.techs[q]:
            f[k + t] = 1
        k += len(data.technologies)
        for h, flags in enumerate(game.used[q]):
            for i, u in enumerate(flags):
                f[k + h * MAX_ABILITIES + i] = u
        for code, slot, _ in game.pending[q]:
            out["pending"][q, slot if data.is_land(code) else MAX_LAND_OFFER + slot] = 1
        grid = out["grids"][q]
        grid[nation.cells] = nation.rows
        grid[nation.cells, 4] = np.asarray(game.grid_new[q])[nation.cells]
        grid[nation.cells, 5] = np.asarray(cubes)[nation.cells] / 4
    sel = out["selection"]
    ph = game.phase
    cell: tuple[int, int] | None = None
    city = -1
    if ph == "attach_rotate":
        cell = game.placed_cell(game.to_move, game.sel[1])
    elif ph == "citizen":
        cell = game.cell_of(game.to_move, game.sel[1])
    elif ph == "bridge" or (ph == "use_target2" and len(game.sel) == 3):
        first = game.sel[2]
        kind = game.ability(game.to_move, game.sel[0], game.sel[1]).kind
        slot, city = divmod(first, 3) if kind == "train" else (first, -1)
        cell = game.cell_of(game.to_move, slot)
    if cell is not None:
        sel[0:3] = (1, cell[0] / 8, cell[1] / 8)
    if city >= 0:
        sel[3 + city] = 1
    if ph in ("attach_cell", "attach_rotate", "citizen") and game.sel:
        code = game.sel[0]
        for pc, slot, _ in game.pending[game.to_move]:  # the tile being placed is pending until it is on the grid
            if pc == code:
                sel[6 + (slot if data.is_land(code) else MAX_LAND_OFFER + slot)] = 1
    if ph in ("use_target", "use_target2", "bridge"):
        sel[6 + MAX_LAND_OFFER + MAX_TECH_OFFER + game.sel[0] * MAX_ABILITIES + game.sel[1]] = 1
    sel[-1] = len(game.removed) / 5
    for t in game.unseen_land():
        out["unseen"][t] = 1
    for t in game.unseen_technologies():
        out["unseen"][len(data.land) + t] = 1
    return flat
