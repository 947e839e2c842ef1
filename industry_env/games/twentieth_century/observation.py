"""What a seat observes of a 20th Century game: one flat float32 vector of named pieces, egocentric (the observer
first, then clockwise), padded to five seats.

Every amount is public to a player with perfect recall (ruling 36: coin and science cards are secret by the book,
but every gain and payment is announced), so every seat's holdings are shown. Hidden from every seat: the order of
the six stacks and the catastrophe cards still face down; the observation shows only which tiles are still unseen
(``unseen``) and which catastrophes are revealed. docs/twentieth-century/observation.md lists the pieces.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .actions import MAX_ABILITIES, MAX_TECHS
from .components import ERAS, INSTITUTIONS, KINDS, MAX_CITIES, GameData, Tile
from .geometry import NUM_CELLS, Placed, local_components, reaches
from .rules import MAX_LAND_OFFER, MAX_PLAYERS, MAX_TECH_OFFER, ROUNDS
from .state import PHASES

MAX_TRACK = 7
TILE_FEATURES = 1 + 3 + MAX_CITIES * 5 + 4 + MAX_CITIES * 4 + 1  # a land tile on offer
TECH_FEATURES = 1 + 3 + len(KINDS) + 1 + 2 + 3 + 4 + 4
CELL_FEATURES = 6 + 4 + 4 + MAX_CITIES * 6 + MAX_CITIES * 4 + 4 + 3 + 1 + 2


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
        ("land_offer", (MAX_LAND_OFFER, TILE_FEATURES), "per slot: present, era (3), per city (exists, coins, "
         "science, VP / 5, recycling), railed sides (4), per city its reach to each side (12), bridge places / 4"),
        ("tech_offer", (MAX_TECH_OFFER, TECH_FEATURES), "per slot: present, era (3), ability kinds (multi-hot), "
         "garbage / 5, pollution left / 3 and right / 3, bonus / 3, cost / 9, VP / 9, railed sides, building reach"),
        ("auction", MAX_LAND_OFFER + 1 + 7 * P, "tile under auction one-hot, high bid / 10, high bidder, leader, "
         "withdrawn, withdrawal rank / 5, passed, tiles won this round / 5, the last to withdraw (seats egocentric)"),
        ("catastrophe", 5 * 3 + 5 * P + 2 * P + K, "current card's columns (garbage / 5, pollution / 3, used), "
         "pawns (seat x column), bids / 25, on top, catastrophe cards revealed"),
        ("seat_vp", P, "victory points / 50 (may be negative)"),
        ("seats", (P, seat_features), "coins / 10, science / 10, production markers / 10 (3), pollution one-hot, "
         "pending cubes / 5, cubes / 10, land tiles / 10, clean land tiles / 10, free cities / 10, working "
         "recycling centres / 5, Workers and bridges in hand, technologies owned (multi-hot), abilities used"),
        ("pending", (P, MAX_LAND_OFFER + MAX_TECH_OFFER), "tiles bought this round and not yet attached, by slot"),
        ("grids", (P, NUM_CELLS, CELL_FEATURES), "per seat, per cell of the 9x9 nation: present, land, "
         "institution, start, bought this round, cubes / 4, rotation one-hot, railed sides, per city (exists, "
         "coins, science, VP / 5, recycling, occupied), per city reach to each side, building reach, building kind, "
         "bonus / 3, bridge placed, bridge places / 4"),
        ("selection", 3 + 3 + MAX_LAND_OFFER + MAX_TECH_OFFER + MAX_TECHS * MAX_ABILITIES + 1,
         "selected cell (present, x / 8, y / 8), selected city one-hot, the tile being attached by slot, the "
         "ability in use one-hot, cubes recycled this production / 5"),
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


def observe(game: Any, seat: int) -> np.ndarray:
    """Seat ``seat``'s observation of ``game``."""
    data, n = game.data, game.n
    if not 0 <= seat < n:
        raise ValueError(f"seat {seat!r} is not a seat of this {n}-player game")
    pieces = layout(data)
    out: dict[str, np.ndarray] = {name: np.zeros(shape, np.float32) for name, shape, _ in pieces}

    def rel(q: int) -> int:
        return (q - seat) % n

    out["num_players"][n - 3] = 1
    out["round"][game.round - 1] = 1
    out["phase"][PHASES.index(game.phase)] = 1
    if game.to_move >= 0 and not game.is_over:
        out["to_move"][rel(game.to_move)] = 1
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
        if t < 0:
            continue
        f = out["land_offer"][s]
        tile = data.land[t]
        f[0], f[1 + ERAS.index(tile.stack)] = 1, 1
        for j, c in enumerate(tile.cities):
            f[4 + 5 * j : 9 + 5 * j] = (1, c.coins / 5, c.science / 5, c.vp / 5, c.recycling)
        _tile_features(tile, 0, -1, f[19:35])
        f[35] = len(tile.bridges) / 4
    for s, t in enumerate(game.tech_offer):
        if t < 0:
            continue
        f = out["tech_offer"][s]
        tech = data.technologies[t]
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
    a = out["auction"]
    P = MAX_PLAYERS
    if game.auction_slot >= 0:
        a[game.auction_slot] = 1
    base = MAX_LAND_OFFER
    a[base] = game.high_bid / 10
    for q in range(n):
        r = rel(q)
        a[base + 1 + r] = q == game.high_bidder
        a[base + 1 + P + r] = q == game.leader
        a[base + 1 + 2 * P + r] = game.withdrawn[q] > 0
        a[base + 1 + 3 * P + r] = game.withdrawn[q] / 5
        a[base + 1 + 4 * P + r] = game.passed[q]
        a[base + 1 + 5 * P + r] = game.won[q] / 5
        a[base + 1 + 6 * P + r] = game.withdrawn[q] == max(game.withdrawn) > 0
    c = out["catastrophe"]
    if game.cat_current >= 0 and game.round <= 5:
        used = data.columns_used(n)
        for col, (g, pol) in enumerate(data.catastrophes[game.cat_current].columns):
            c[3 * col : 3 * col + 3] = (g / 5, pol / 3, col in used)
    for q in range(n):
        if game.cat_col[q] >= 0:
            c[15 + 5 * rel(q) + game.cat_col[q]] = 1
            c[15 + 5 * P + rel(q)] = game.cat_bid[q] / 25
            c[15 + 6 * P + rel(q)] = game._on_top(q)
    for k in game.cat_revealed:
        c[15 + 7 * P + k] = 1
    track_len = len(data.pollution_final)
    for q in range(n):
        r = rel(q)
        out["seat_vp"][r] = sum(game.vp[q].values()) / 50
        f = out["seats"][r]
        prod = game.production(q)
        f[0:5] = (game.coins[q] / 10, game.science[q] / 10, prod[0] / 10, prod[1] / 10, prod[2] / 10)
        f[5 + game.pollution[q] - data.pollution_low] = 1
        k = 5 + track_len
        workers = sum(not game.used[q][h][i] and ab.kind == "workers" for h, t in enumerate(game.techs[q])
                      for i, ab in enumerate(data.technologies[t].abilities))  # fmt: skip
        bridges = sum(not game.used[q][h][i] and ab.kind == "bridge" for h, t in enumerate(game.techs[q])
                      for i, ab in enumerate(data.technologies[t].abilities))  # fmt: skip
        f[k : k + 8] = (game.pending_cubes[q] / 5, game.total_cubes(q) / 10, len(game.land_cells(q)) / 10,
                        game.clean_land_tiles(q) / 10, len(game.cities(q, occupied=False)) / 10,
                        len(game.working_centres(q)) / 5, workers, bridges)  # fmt: skip
        k += 8
        for t in game.techs[q]:
            f[k + t] = 1
        k += len(data.technologies)
        for h, flags in enumerate(game.used[q]):
            for i, u in enumerate(flags):
                f[k + h * MAX_ABILITIES + i] = u
        for code, slot, _ in game.pending[q]:
            out["pending"][r, slot if data.is_land(code) else MAX_LAND_OFFER + slot] = 1
        grid = out["grids"][r]
        for cell, code in enumerate(game.grid_tile[q]):
            if code < 0:
                continue
            g = grid[cell]
            tile = data.tile(code)
            land = data.is_land(code)
            rot, bridge = game.grid_rot[q][cell], game.grid_bridge[q][cell]
            g[0:6] = (1, land, not land, code == 0, game.grid_new[q][cell], game.grid_cubes[q][cell] / 4)
            g[6 + rot] = 1
            placed = Placed(tile, rot, bridge)
            comps = local_components(tile, rot, bridge)
            for s in range(4):
                g[10 + s] = any(s in comp.sides for comp in comps)
            for j, city in enumerate(tile.cities):
                occ = bool(game.grid_citizens[q][cell] >> j & 1)
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
    sel = out["selection"]
    ph = game.phase
    cell = city = -1
    if ph in ("attach_rotate", "citizen"):
        cell = game.sel[1]
    elif ph == "bridge" or (ph == "use_target2" and len(game.sel) == 3):
        first = game.sel[2]
        kind = game.ability(game.to_move, game.sel[0], game.sel[1]).kind
        cell, city = divmod(first, 3) if kind == "train" else (first, -1)
    if cell >= 0:
        sel[0:3] = (1, (cell % 9) / 8, (cell // 9) / 8)
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
    return np.concatenate([out[name].ravel() for name, _, _ in pieces])
