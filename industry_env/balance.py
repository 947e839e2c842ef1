"""``industry-env balance``: does the board play well? Measured over many games, per era and per field.

Reports, for random and heuristic players: the final score and its split (development, roads, technology
links, bonus fields, money, jokers, subsidy) against the recorded Industria games of the facts file; per era,
how often fields are developed and at what price they are auctioned; fields never developed (a degenerate
board would show some); and the largest money any player held.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import defaultdict

import numpy as np

from . import actions as A
from .board import field_id, load_board
from .reference import Game
from .rules import JOKER, NUM_ERAS, NUM_FIELDS

# Recorded final scores of Industria games (ludolegars.fr reports, 2003; docs/board-sources.md, section 3).
INDUSTRIA_RANGES = {"total": (24, 45), "development": (12, 26), "roads": (3, 15), "tech_links": (0, 12),
                    "bonus": (0, 16), "money": (0, 4)}  # fmt: skip


def play(policy: str, num_players: int, seed: int, board, balanced_draws: bool = True) -> tuple[Game, dict]:
    """Play one game with every seat taken by ``policy`` ('random' or 'heuristic'); return it and its auction log."""
    from .agents import HeuristicAgent, RandomAgent

    game = Game(num_players, seed=seed, board=board, balanced_draws=balanced_draws)
    rand, heur = RandomAgent(seed), HeuristicAgent(seed)
    prices: dict[int, int] = {}
    dev_era: dict[int, int] = {}
    max_money = 0
    while not game.is_over:
        s = game.s
        lot, high, before = s.lot, s.high_bid, list(s.developed)
        era = s.era
        a = rand.act(game.legal_action_mask()) if policy == "random" else heur.act(game)
        game.apply(a)
        if lot >= 0 and game.s.claimed[lot] and lot not in prices:
            prices[lot] = high if a in (A.SELL, A.KEEP) else 0
        for f in range(NUM_FIELDS):
            if game.s.developed[f] and not before[f]:
                dev_era[f] = era
        max_money = max(max_money, *game.s.money)
    return game, {"prices": prices, "dev_era": dev_era, "max_money": max_money}


def study(policy: str, games: int, seed: int, board) -> dict:
    """Statistics of ``games`` games (alternating 3 and 4 players) with one policy."""
    splits = defaultdict(list)
    developed = np.zeros(NUM_FIELDS)
    in_era = np.zeros(NUM_FIELDS)
    price = np.zeros(NUM_FIELDS)
    max_money = 0
    most_fields, over_tokens = 0, 0  # 24 Property tokens, one on the Scoring Track: 23 for fields
    winners_score = []
    by_players: dict[int, list[int]] = defaultdict(list)
    for g in range(games):
        n = 4 if g % 2 == 0 else 3
        game, log = play(policy, n, seed + g, board)
        scores = game.scores()
        winners_score.append(max(scores))
        by_players[n] += scores
        for p in range(n):
            br = game.score_breakdown(p)
            splits["total"].append(scores[p])
            for k, v in br.items():
                splits[k].append(v)
        for f in range(NUM_FIELDS):
            developed[f] += game.s.developed[f]
            in_era[f] += log["dev_era"].get(f, -1) == board.ERA[f]
            price[f] += log["prices"].get(f, 0)
        max_money = max(max_money, log["max_money"])
        owned = max(sum(o == p for o in game.s.owner) for p in range(n))
        most_fields = max(most_fields, owned)
        over_tokens += owned > 23
    real = board.KIND != JOKER
    per_era = []
    for e in range(NUM_ERAS):
        sel = real & (board.ERA == e)
        per_era.append({
            "era": e + 1,
            "developed": float(developed[sel].sum() / (sel.sum() * games)),
            "developed_in_era": float(in_era[sel].sum() / (sel.sum() * games)),
            "mean_price": float(price[board.ERA == e].sum() / (12 * games)),
        })  # fmt: skip
    rarely = [(field_id(f), board.field_names[f], float(developed[f] / games))
              for f in np.flatnonzero(real) if developed[f] / games < 0.10]  # fmt: skip
    return {
        "policy": policy, "games": games,
        "split": {k: {"mean": float(np.mean(v)), "p10": float(np.percentile(v, 10)), "p90": float(np.percentile(v, 90))}
                  for k, v in splits.items()},
        "winner_mean": float(np.mean(winners_score)),
        "total_by_players": {n: float(np.mean(v)) for n, v in sorted(by_players.items())},
        "per_era": per_era, "rarely_developed": rarely,
        "never_developed": [f for f, _, r in rarely if r == 0.0], "max_money": max_money,
        "most_fields_owned": most_fields, "games_over_23_fields": over_tokens,
    }  # fmt: skip


def configure(parser: argparse.ArgumentParser) -> None:
    """Options of ``industry-env balance``."""
    parser.add_argument("--games", type=int, default=200, help="games per policy (default 200)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--policies", default="random,heuristic", help="comma-separated: random, heuristic")
    parser.add_argument("--board", default=None, metavar="PATH", help="a board file (default: the shipped board)")
    parser.add_argument("--output", default=None, metavar="JSON", help="also write the figures to this file")


def run(args: argparse.Namespace) -> int:
    """Print the balance report."""
    board = load_board(args.board)
    results = []
    for policy in args.policies.split(","):
        if policy not in ("random", "heuristic"):
            print(f"error: --policies: unknown policy {policy!r} (random, heuristic)")
            return 2
        t0 = time.perf_counter()
        r = study(policy, args.games, args.seed, board)
        r["seconds"] = time.perf_counter() - t0
        results.append(r)
        print(f"== {policy} players, {args.games} games (3 and 4 players alternately), {r['seconds']:.1f} s")
        print(f"{'score part':<12} {'mean':>6} {'p10':>6} {'p90':>6}   Industria records")
        for k, v in r["split"].items():
            rec = INDUSTRIA_RANGES.get(k)
            print(f"{k:<12} {v['mean']:6.1f} {v['p10']:6.1f} {v['p90']:6.1f}   {f'{rec[0]}-{rec[1]}' if rec else ''}")
        print(
            "mean total by number of players: "
            + ", ".join(f"{n} players {v:.1f}" for n, v in r["total_by_players"].items())
            + " (Industria records: 3 players 33-42, 4 players 24-45)"
        )
        print(
            f"winner's score: mean {r['winner_mean']:.1f}; largest money held: {r['max_money']}; "
            f"most fields one player owned: {r['most_fields_owned']} "
            f"(more than 23 in {r['games_over_23_fields']} of {args.games} games)"
        )
        print("era  developed  in own era  mean price")
        for e in r["per_era"]:
            print(f"{e['era']:>3}  {e['developed']:9.2f}  {e['developed_in_era']:10.2f}  {e['mean_price']:10.2f}")
        print("developed in under 10% of games:",
              ", ".join(f"{f} {n} ({x:.0%})" for f, n, x in r["rarely_developed"]) or "none")  # fmt: skip
        print()
    if args.output:
        with open(args.output, "w") as fh:
            json.dump(results, fh, indent=2)
    return 0
