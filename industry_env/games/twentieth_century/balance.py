"""Measuring 20th Century's reconstructed components in play: a simple rule-based player and :func:`measure`, which
plays games and reports what docs/twentieth-century/balance.md compares with played games (prices, tiles a round,
production, technologies, catastrophe bids, scores by source, garbage).

``python -m industry_env.games.twentieth_century.balance [games]`` prints the table for 3, 4 and 5 players.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from typing import Any

import numpy as np

from . import actions as A
from .reference import Game
from .state import SCORE_SOURCES

TECH_VALUE = {"mine": 4, "laboratory": 4, "hospital": 4, "workers": 3, "train": 2, "recycling": 3, "bridge": 1,
              "garbage_truck": 1, "separated_collection": 1, "park": 2, "cleanup": 2, "quality_of_life": 2}  # fmt: skip


def tile_value(game: Game, code: int) -> int:
    """A land tile judged by its best city, a recycling centre worth two icons (the players' rule of thumb)."""
    return max(sum(c.production) + 2 * c.recycling for c in game.data.tile(code).cities)


def rule_based_action(game: Game, rng: np.random.Generator) -> int:
    """A plain player: buys one or two good tiles a round, bids up to a tile's worth, buys the most useful
    technology, takes the mildest catastrophe it can, places tiles for production, cleans its tiles."""
    p, ph, legal = game.to_move, game.phase, game.legal_actions()
    if ph == "lead":
        offered = [a for a in legal if a < A.BID]
        if not offered or game.won[p] >= 2:
            return A.WITHDRAW
        return max(offered, key=lambda a: tile_value(game, game.land_offer[a - A.LAND]))
    if ph == "open":
        return A.BID
    if ph == "bid":
        worth = 2 * tile_value(game, game.land_offer[game.auction_slot]) + game.min_land_price() - 2
        if game.won[p] >= 2 or game.high_bid + 1 > worth or A.BID not in legal:
            return A.PASS
        return A.BID
    if ph == "tech":
        offered = [a for a in legal if A.TECH <= a < A.CATASTROPHE]
        if not offered:
            return A.DONE

        def value(a: int) -> int:
            return max(TECH_VALUE[ab.kind] for ab in game.data.technologies[game.tech_offer[a - A.TECH]].abilities)

        return max(offered, key=value)
    if ph == "catastrophe":
        card = game.data.catastrophes[game.cat_current]

        def cost(a: int) -> float:
            col, bid = divmod(a - A.CATASTROPHE, A.NUM_CAT_BIDS)
            garbage, steps = card.columns[col]
            return 3 * garbage + 3 * steps + bid

        return min(legal, key=cost)
    if ph in ("attach_cell", "attach_rotate", "citizen"):
        return max(legal, key=lambda a: _after(game, a))
    if ph in ("garbage", "recycle") or (ph == "use_target" and A.TILE <= legal[0] < A.ROTATE):
        tiles = [a for a in legal if A.TILE <= a < A.ROTATE]  # the nation's tiles, by slot
        if not tiles:
            return A.DONE
        # new cubes together on the dirtiest tile (each costs 5 there, the others stay cleaner); removals from the
        # dirtiest tile too (each cube off it gains 5)
        return max(tiles, key=lambda a: game.grid_cubes[p][a - A.TILE])
    if ph == "use":
        uses = [a for a in legal if A.USE <= a < A.BRIDGE]
        return uses[0] if uses else A.DONE
    return legal[int(rng.integers(len(legal)))]


def _after(game: Game, action: int) -> tuple[int, int]:
    """The production and working centres after ``action`` and the cheapest way to finish the placement."""
    g = game.clone()
    g.apply(action)
    while not g.is_over and g.phase in ("attach_rotate", "citizen") and g.to_move == game.to_move:
        g.apply(max(g.legal_actions(), key=lambda a: sum(_peek(g, a))))
    p = game.to_move
    return (sum(g.production(p)) + 2 * len(g.working_centres(p)), -abs(action % 7))


def _peek(g: Game, action: int) -> tuple[int, int, int]:
    h = g.clone()
    h.apply(action)
    return h.production(g.to_move)


def play(n: int, seed: int, player: str = "rule") -> tuple[Game, dict[str, Any]]:
    """One game of ``player`` ("rule" or "random") at every seat, with what it measured."""
    rng = np.random.default_rng(seed)
    g = Game(n, seed=seed)
    stats: dict[str, Any] = defaultdict(list)
    while not g.is_over:
        if g.phase in ("lead", "bid", "open", "tech", "catastrophe"):
            before_won, before_round = list(g.won), g.round
            before_coins = list(g.coins)
        legal = g.legal_actions()
        a = rule_based_action(g, rng) if player == "rule" else legal[int(rng.integers(len(legal)))]
        phase, round_ = g.phase, g.round
        g.apply(a)
        if phase in ("open", "bid", "lead") and g.round == before_round and sum(g.won) > sum(before_won):
            q = max(range(n), key=lambda s: g.won[s] - before_won[s])
            stats[f"price_r{round_}"].append(before_coins[q] - g.coins[q])
        if phase == "tech" and a != A.DONE:
            stats["tech_bought"].append(1)
        if phase == "catastrophe" and g.phase != "catastrophe":
            stats["cat_bids"] += list(g.cat_bid)
    for p in range(n):
        stats["score"].append(g.scores()[p])
        for source in SCORE_SOURCES:
            stats[f"vp_{source}"].append(g.score_parts(p)[source])
        stats["land_tiles"].append(len(g.land_cells(p)))
        stats["clean_tiles"].append(g.clean_land_tiles(p))
        stats["dirty_tiles"].append(sum(g.grid_cubes[p][c] >= 2 for c in g.land_cells(p)))
        stats["production"].append(g.production(p))
        stats["pollution"].append(g.pollution[p])
        stats["techs"].append(len(g.techs[p]))
    return g, stats


def measure(games: int = 50, players: tuple[int, ...] = (3, 4, 5), player: str = "rule") -> dict[int, dict[str, Any]]:
    """Averages over ``games`` games per player count."""
    out: dict[int, dict[str, Any]] = {}
    for n in players:
        acc: dict[str, list] = defaultdict(list)
        wins = np.zeros(n)
        for seed in range(games):
            g, stats = play(n, seed, player)
            for k, v in stats.items():
                acc[k] += v
            for w in g.winners():
                wins[w] += 1 / len(g.winners())
        row: dict[str, Any] = {}
        for k, v in acc.items():
            if k == "production":
                row[k] = tuple(np.round(np.mean(v, axis=0), 1).tolist())
            else:
                row[k] = round(float(np.mean(v)), 2) if v else 0.0
        row["price_r1_values"] = sorted(acc.get("price_r1", []))
        row["seat_wins"] = (wins / games).round(2).tolist()
        out[n] = row
    return out


if __name__ == "__main__":  # pragma: no cover
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    for kind in ("rule", "random"):
        for n, row in measure(count, player=kind).items():
            row.pop("price_r1_values")
            print(kind, n, row)
