"""``industry-env balance``: does the board play well? Measured over many games, split by number of players.

For random and heuristic players, and separately for 3 and 4 players, it reports: the final score and its split
(development, roads, technology links, bonus fields, money, jokers, subsidy) against the recorded Industria
games (docs/industry/board-sources.md, section 3); the win rate of each seat counted from the first Starting Player; per
era, how often fields are developed and at what price; per field, how often it is developed, how often its
auction draws no bid, its mean price, and how often the player who developed it wins, beside how often the
developer of an average field wins; and the largest money any player held.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from . import actions as A
from .components import Board, field_id, load_board
from .reference import Game
from .rules import JOKER, NUM_ERAS, NUM_FIELDS

#: the one-line help of its subcommand (a tool of the game: ``GameSpec.tools``)
HELP = ("measure a game's balance over many games (Industry: final scores by source and player count; Age of "
        "Industry: points, loans unpaid and wins by map)")

# Recorded final scores of Industria games (ludolegars.fr reports, 2003; docs/industry/board-sources.md, section 3).
INDUSTRIA_RANGES = {"total": (24, 45), "development": (12, 26), "roads": (3, 15), "tech_links": (0, 12),
                    "bonus": (0, 16), "money": (0, 4)}  # fmt: skip
INDUSTRIA_TOTALS = {3: (33, 42), 4: (24, 45)}  # final scores by number of players
POLICIES = ("random", "heuristic-v0", "heuristic")  # uniform random; industry_env.agents by name


def play(policy: str, num_players: int, seed: int, board: Board, balanced_draws: bool = True,
         make_agent: Callable[..., Any] | None = None) -> tuple[Game, dict]:  # fmt: skip
    """Play one game with every seat taken by ``policy`` (one of POLICIES); return it and its log.

    ``make_agent(name, seed=...)`` builds the agents (``industry_env.agents.make_agent``; the game does not
    import its players): needed for every policy but "random".

    The log holds each field's auction price, whether its auction drew no bid, the era in which it was developed,
    the first Starting Player and the largest money any player held.
    """
    if policy != "random" and make_agent is None:
        raise ValueError(f"policy {policy!r}: pass make_agent (industry_env.agents.make_agent) to build its agents")
    game = Game(num_players, seed=seed, board=board, balanced_draws=balanced_draws)
    rng = np.random.default_rng(seed)
    heur = None if policy == "random" else make_agent(policy, seed=seed)
    log = {"prices": {}, "no_bid": set(), "dev_era": {}, "first_starting_player": game.s.starting_player,
           "max_money": 0}  # fmt: skip
    while not game.is_over:
        s = game.s
        lot, high, before, era = s.lot, s.high_bid, list(s.developed), s.era
        if policy == "random":  # uniform among the legal actions
            a = int(rng.choice(np.flatnonzero(game.legal_action_mask())))
        else:
            a = heur.act_game(game)
        game.apply(a)
        if lot >= 0 and game.s.claimed[lot] and lot not in log["prices"]:
            log["prices"][lot] = high if a in (A.SELL, A.KEEP) else 0
            if a not in (A.SELL, A.KEEP):  # "If nobody bids in an auction, the Auctioneer must claim the field"
                log["no_bid"].add(lot)
        for f in range(NUM_FIELDS):
            if game.s.developed[f] and not before[f]:
                log["dev_era"][f] = era
        log["max_money"] = max(log["max_money"], *game.s.money)
    return game, log


def _summary(values: list[float]) -> dict[str, float]:
    return {"mean": float(np.mean(values)), "p10": float(np.percentile(values, 10)),
            "p90": float(np.percentile(values, 90))}  # fmt: skip


def study_players(policy: str, num_players: int, games: int, seed: int, board: Board,
                  make_agent: Callable[..., Any] | None = None) -> dict:  # fmt: skip
    """Statistics of ``games`` games of ``num_players`` players, seeds ``seed`` to ``seed + games - 1``."""
    if games < 1:
        raise ValueError(f"games={games}: a study needs at least one game")
    n = num_players
    splits: dict[str, list[int]] = defaultdict(list)
    developed, in_era, price, no_bid = (np.zeros(NUM_FIELDS) for _ in range(4))
    owner_wins = np.zeros(NUM_FIELDS)  # wins (shared on a tie) of the player who developed the field
    seat_wins = np.zeros(n)  # by seat counted clockwise from the first Starting Player
    winners_score, fields_owned, era5_owned = [], [], []
    max_money, most_fields, over_tokens = 0, 0, 0  # 24 Property tokens, one on the Scoring Track: 23 for fields
    for g in range(games):
        game, log = play(policy, n, seed + g, board, make_agent=make_agent)
        scores, winners = game.scores(), game.winners()
        winners_score.append(max(scores))
        for p in range(n):
            splits["total"].append(scores[p])
            for k, v in game.score_breakdown(p).items():
                splits[k].append(v)
        for p in winners:
            seat_wins[(p - log["first_starting_player"]) % n] += 1 / len(winners)
        mine = [[f for f in range(NUM_FIELDS) if game.s.developed[f] and game.s.owner[f] == p] for p in range(n)]
        fields_owned += [len(m) for m in mine]
        era5_owned += [sum(board.ERA[f] == NUM_ERAS - 1 for f in m) for m in mine]
        for f in range(NUM_FIELDS):
            developed[f] += game.s.developed[f]
            in_era[f] += log["dev_era"].get(f, -1) == board.ERA[f]
            price[f] += log["prices"].get(f, 0)
            no_bid[f] += f in log["no_bid"]
            if game.s.developed[f] and game.s.owner[f] in winners:
                owner_wins[f] += 1 / len(winners)
        max_money = max(max_money, log["max_money"])
        owned = max(sum(o == p for o in game.s.owner) for p in range(n))
        most_fields = max(most_fields, owned)
        over_tokens += owned > 23
    real = board.KIND != JOKER
    per_era = [{
        "era": e + 1,
        "developed": float(developed[real & (board.ERA == e)].sum() / ((real & (board.ERA == e)).sum() * games)),
        "developed_in_era": float(in_era[real & (board.ERA == e)].sum() / ((real & (board.ERA == e)).sum() * games)),
        "mean_price": float(price[board.ERA == e].sum() / (12 * games)),
    } for e in range(NUM_ERAS)]  # fmt: skip
    per_field = {field_id(f): {
        "name": board.field_names[f],
        "developed": float(developed[f] / games) if real[f] else None,
        "no_bid": float(no_bid[f] / games),
        "owner_wins": float(owner_wins[f] / developed[f]) if real[f] and developed[f] else None,
        "mean_price": float(price[f] / games),
    } for f in range(NUM_FIELDS)}  # fmt: skip
    # The owner of an average developed field wins more than a fair share, as winners own more of the fields:
    # the level against which one field's owner win rate is compared.
    owner_wins_average = float(owner_wins[real].sum() / max(developed[real].sum(), 1))
    total = float(np.mean(splits["total"]))
    return {
        "players": n, "games": games,
        "split": {k: _summary(v) for k, v in splits.items()},
        "winner_mean": float(np.mean(winners_score)),
        "seat_wins": [float(w / games) for w in seat_wins],
        "seat_wins_stderr": float(np.sqrt((1 / n) * (1 - 1 / n) / games)),
        "per_era": per_era, "per_field": per_field, "owner_wins_average": owner_wins_average,
        "fields_owned": float(np.mean(fields_owned)), "era5_fields_owned": float(np.mean(era5_owned)),
        "points_per_field": total / max(float(np.mean(fields_owned)), 1e-9),
        "rarely_developed": [(f, d["name"], d["developed"]) for f, d in per_field.items()
                             if d["developed"] is not None and d["developed"] < 0.10],
        "max_money": max_money, "most_fields_owned": most_fields, "games_over_23_fields": over_tokens,
    }  # fmt: skip


def study(policy: str, games: int, seed: int, board: Board, players: tuple[int, ...] = (3, 4),
          make_agent: Callable[..., Any] | None = None) -> dict:  # fmt: skip
    """``games`` games for each number of ``players`` with one policy, every figure kept apart by player count
    (``make_agent`` as in :func:`play`)."""
    if policy not in POLICIES:
        raise ValueError(f"policy {policy!r}: known policies are {', '.join(POLICIES)}")
    by_players = {n: study_players(policy, n, games, seed, board, make_agent) for n in players}
    never = sorted(set.intersection(*({f for f, _, x in r["rarely_developed"] if x == 0.0}
                                      for r in by_players.values())))  # fmt: skip
    return {"policy": policy, "games": games, "by_players": by_players, "never_developed": never}


def industria_three_player_note(r3: dict) -> str:
    """How far Industry's 3-player scores should sit above Industria's 3-player records, and why."""
    era5, per_field = r3["era5_fields_owned"], r3["points_per_field"]
    extra = round(era5 * per_field)
    low, high = INDUSTRIA_TOTALS[3]
    return (
        f"Industria's 3-player records ({low}-{high}) are reported to come from games without its fifth epoch. In "
        f"Industry a 3-player game gives each player {era5:.1f} developed Era-5 fields and {per_field:.2f} points "
        f"per developed field, so 3-player totals are expected about {extra} points higher: "
        f"{low + extra}-{high + extra}."
    )


def report(r: dict) -> str:
    """The figures of one policy as text, player count by player count."""
    lines = []
    for n, s in r["by_players"].items():
        lines.append(f"-- {n} players, {s['games']} games")
        lines.append(f"{'score part':<12} {'mean':>6} {'p10':>6} {'p90':>6}   Industria records (total: {n} players)")
        for k, v in s["split"].items():
            rec = INDUSTRIA_RANGES.get(k)
            if k == "total":
                rec = INDUSTRIA_TOTALS[n]
            lines.append(f"{k:<12} {v['mean']:6.1f} {v['p10']:6.1f} {v['p90']:6.1f}   "
                         f"{f'{rec[0]}-{rec[1]}' if rec else ''}")  # fmt: skip
        lines.append(f"winner's score: mean {s['winner_mean']:.1f}; developed fields a player: {s['fields_owned']:.1f} "
                     f"({s['points_per_field']:.2f} points each)")  # fmt: skip
        fair = 1 / n
        seats = ", ".join(f"{i}: {w:.1%}" for i, w in enumerate(s["seat_wins"]))
        lines.append(f"wins by seat from the first Starting Player (fair {fair:.1%}, +-{2 * s['seat_wins_stderr']:.1%} "
                     f"is chance): {seats}")  # fmt: skip
        lines.append(f"the developer of an average developed field wins {s['owner_wins_average']:.1%} "
                     f"(fair {fair:.1%}): winners own more of the fields")  # fmt: skip
        lines.append(f"largest money held: {s['max_money']}; most fields one player owned: {s['most_fields_owned']} "
                     f"(more than 23 in {s['games_over_23_fields']} of {s['games']} games)")  # fmt: skip
        lines.append("era  developed  in own era  mean price")
        for e in s["per_era"]:
            dev, own, price = e["developed"], e["developed_in_era"], e["mean_price"]
            lines.append(f"{e['era']:>3}  {dev:9.2f}  {own:10.2f}  {price:10.2f}")
        lines.append("developed in under 10% of games: "
                     + (", ".join(f"{f} {nm} ({x:.0%})" for f, nm, x in s["rarely_developed"]) or "none"))  # fmt: skip
        if n == 3:
            lines.append(industria_three_player_note(s))
        lines.append("")
    lines.append(field_table(r))
    return "\n".join(lines)


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{x:.0%}"


def field_table(r: dict) -> str:
    """Per field and player count: developed, no bid, the win rate of the player who developed it, and the mean
    auction price (Talers; 0 for an auction without a bid)."""
    ns = list(r["by_players"])
    head = ["field", "name"] + [f"dev {n}p" for n in ns] + [f"no bid {n}p" for n in ns]
    head += [f"owner wins {n}p (fair {1 / n:.0%})" for n in ns] + [f"price {n}p" for n in ns]
    rows = [head]
    for fid in r["by_players"][ns[0]]["per_field"]:
        cells = [r["by_players"][n]["per_field"][fid] for n in ns]
        rows.append([fid, cells[0]["name"]] + [_pct(c[key]) for key in ("developed", "no_bid", "owner_wins")
                                                for c in cells]
                    + [f"{c['mean_price']:.1f}" for c in cells])  # fmt: skip
    widths = [max(len(row[i]) for row in rows) for i in range(len(head))]

    def line(row: list[str]) -> str:
        return "  ".join(c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths, strict=True)))

    return "\n".join(line(row) for row in rows)


def configure(parser: argparse.ArgumentParser) -> None:
    """Options of ``industry-env balance``."""
    parser.add_argument("--games", type=int, default=200, help="games per policy and player count (default 200)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    parser.add_argument("--players", default="3,4", help="comma-separated player counts (default 3,4)")
    parser.add_argument("--policies", default="random,heuristic",
                        help="comma-separated agents, each taking every seat (Industry: random, heuristic-v0, "
                             "heuristic; default random,heuristic)")  # fmt: skip
    parser.add_argument("--board", default=None, metavar="PATH",
                        help="Industry: a board file (default: the shipped board)")
    parser.add_argument("--output", default=None, metavar="JSON", help="also write the figures to this file")


def _check(args: argparse.Namespace) -> tuple[list[str], tuple[int, ...]] | str:
    """The policies and player counts asked for, or what is wrong with the options (before any game is played)."""
    if args.games < 1:
        return f"--games {args.games}: give at least 1 game"
    if getattr(args, "map", None):
        return f"--map {args.map}: Industry has one board; give a board file with --board"
    if not 0 <= args.seed or args.seed + args.games > 2**63:
        return f"--seed {args.seed}: seeds run from 0 to 2**63 - 1 (one per game)"
    policies = [p.strip() for p in args.policies.split(",") if p.strip()]
    unknown = [p for p in policies if p not in POLICIES]
    if unknown or not policies:
        return f"--policies {args.policies!r}: unknown policy {unknown or ''} (known: {', '.join(POLICIES)})"
    try:
        players = tuple(sorted({int(x) for x in args.players.split(",")}))
    except ValueError:
        players = ()
    if not players or any(n not in (3, 4) for n in players):
        return f"--players {args.players!r}: Industry is played by 3 or 4 players (e.g. 3,4)"
    if args.output:
        out = Path(args.output)
        if out.is_dir():
            return f"--output {out}: is a folder; give a file name"
        if not out.parent.is_dir():
            return f"--output {out}: the folder {out.parent} does not exist"
    return policies, players


def run(args: argparse.Namespace) -> int:
    """Print the balance report (and write it as JSON with --output)."""
    checked = _check(args)
    if isinstance(checked, str):
        print(f"error: {checked}", file=sys.stderr)
        return 2
    policies, players = checked
    board = load_board(args.board)
    results = []
    for policy in policies:
        t0 = time.perf_counter()
        r = study(policy, args.games, args.seed, board, players, make_agent=args.make_agent)
        r["seconds"] = time.perf_counter() - t0
        results.append(r)
        print(f"== {policy} players, {args.games} games for each of {', '.join(map(str, players))} players, "
              f"{r['seconds']:.1f} s")  # fmt: skip
        print(report(r))
        print()
    if args.output:
        with open(args.output, "w") as fh:
            json.dump(results, fh, indent=2)
    return 0
