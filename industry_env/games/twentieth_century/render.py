"""A 20th Century position as text: the round and phase, the offers, the catastrophe, and each nation."""

from __future__ import annotations

from typing import Any

from .components import CITY_NAMES


def _tile_text(game: Any, code: int) -> str:
    d = game.data
    if d.is_land(code):
        t = d.land[code]
        cities = " ".join(f"{c.name}:{c.coins}c{c.science}s{c.vp}v{'R' if c.recycling else ''}" for c in t.cities)
        return f"{t.id}[{cities}]"
    tech = d.technologies[code - len(d.land)]
    return f"{tech.id} {tech.name}"


def render_text(game: Any, full: bool = False) -> str:
    """Every public fact of the position, one line each: what every seat sees (no seat holds a secret: ruling 36).
    ``full`` adds what no seat sees: the undealt stacks in order and the catastrophes still face down."""
    d = game.data
    lines = [f"20th Century, {game.n} players, round {game.round}, phase {game.phase}, "
             f"{'over' if game.is_over else f'seat {game.to_move} to move'}"]  # fmt: skip
    cards = " ".join(f"{r}:{'abc'[c] if c >= 0 else 'none'}" for r, c in (("II", game.r2), ("IV", game.r4)))
    lines.append(f"scoring cards {cards}")
    if game.round <= 5 and not game.is_over:
        lines.append(f"land price from {game.min_land_price()}, technology price {game.tech_price()} science")
        lines.append("land offer: " + ", ".join(f"{s}={_tile_text(game, t)}" for s, t in enumerate(game.land_offer)
                                                 if t >= 0))  # fmt: skip
        lines.append("technology offer: " + ", ".join(f"{s}={_tile_text(game, len(d.land) + t)}"
                                                       for s, t in enumerate(game.tech_offer) if t >= 0))  # fmt: skip
        if game.auction_slot >= 0:
            lines.append(f"auction: slot {game.auction_slot}, high bid {game.high_bid} by seat {game.high_bidder}")
        if game.cat_current >= 0:
            card = d.catastrophes[game.cat_current]
            cols = " | ".join(f"{g}g{p}p" for g, p in card.columns)
            lines.append(f"catastrophe {card.id}: {cols}; pawns {list(zip(game.cat_col, game.cat_bid, strict=True))}")
    for p in range(game.n):
        prod = game.production(p)
        techs = ", ".join(d.technologies[t].name for t in game.techs[p])
        lines.append(f"seat {p}: {sum(game.vp[p].values())} VP, {game.coins[p]} coins, {game.science[p]} science, "
                     f"production {prod[0]}/{prod[1]}/{prod[2]}, pollution {game.pollution[p]:+d}, "
                     f"{game.total_cubes(p)} cubes, technologies: {techs or 'none'}")  # fmt: skip
        for c, code in enumerate(game.grid_tile[p]):
            if code < 0:
                continue
            x, y = game.cell_of(p, c)
            occ = "".join(CITY_NAMES[j] for j in range(3) if game.grid_citizens[p][c] >> j & 1)
            bridge = f" bridge {game.grid_bridge[p][c]}" if game.grid_bridge[p][c] >= 0 else ""
            lines.append(f"  tile {c} at ({x},{y}) {_tile_text(game, code)} rot {90 * game.grid_rot[p][c]}, "
                         f"cubes {game.grid_cubes[p][c]}, citizens {occ or '-'}{bridge}")  # fmt: skip
    if full:
        lines += _hidden_lines(game)
    return "\n".join(lines)


def _hidden_lines(game: Any) -> list[str]:
    """The hidden part of the position (no seat sees it): each era's undealt stacks, top first, and the
    catastrophes to come."""
    d = game.data
    lines = ["hidden from every seat:"]
    for era in game.land_stacks:
        lands = " ".join(d.land[t].id for t in game.land_stacks[era]) or "-"
        techs = " ".join(d.technologies[t].id for t in game.tech_stacks[era]) or "-"
        lines.append(f"  era {era} land stack: {lands}")
        lines.append(f"  era {era} technology stack: {techs}")
    lines.append("  catastrophes to come: " + (" ".join(d.catastrophes[k].id for k in game.cat_stack) or "-"))
    return lines
