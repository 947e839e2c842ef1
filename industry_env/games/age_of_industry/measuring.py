"""Players for measuring Age of Industry's reconstructed numbers: a rule-based player, its one-move lookahead and a
random player, and the averages of games they play (:func:`measure`, docs/age-of-industry/balance.md).

The rule-based player is a measuring stick for tuning the reconstructed numbers, not an agent of the suite: it reads
its own hand and the public position through the engine's rule functions.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

import numpy as np

from .components import TILE_ACCEPTS
from .reference import Game
from .rules import (
    COAL_MINE,
    COTTON_MILL,
    DOLLARS_PER_POINT,
    FACTORY,
    IRON_WORKS,
    POINTS_PER_UNPAID_LOAN,
    PORT,
    SHIP,
)
from .state import ACTION, BUILD_WHERE, COAL_SOURCE, DEVELOP_WHICH, DRAW_SECOND, IRON_SOURCE, SELL_MORE, SELL_TO


# ================================================================================================== players
def _buys(s: Any, t: int, good: int) -> bool:
    """Would space ``t`` buy ``good`` now (an unused port of the right level, or a market tile taking it)?"""
    if s.space_flipped[t]:
        return False
    if s.space_industry[t] == PORT:
        return good == 0 or s.space_level[t] > 1
    return s.space_tile[t] >= 0 and TILE_ACCEPTS[s.space_tile[t]][good]


def random_player(game: Game, rng: np.random.Generator) -> int:
    """A legal action drawn uniformly."""
    legal = game.legal_actions()
    return int(legal[int(rng.integers(len(legal)))])


class RuleBasedPlayer:
    """Build what pays (mills and factories that can sell, mines and iron works that fill the demand track), sell
    whenever it can, connect its mills by rail, draw when its hand runs low, repay loans when it has spare money."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = np.random.default_rng(seed)

    def __call__(self, game: Game, _: Any = None) -> int:
        legal = game.legal_actions()
        s, A, p = game.s, game.space, game.current_player
        if A.REPAY in legal:
            return A.REPAY
        if s.phase == ACTION:
            return self._action(game, p, legal)
        if s.phase == BUILD_WHERE:
            return max((a for a in legal if a != A.REPAY), key=lambda a: self._build_value(game, p, *divmod(
                a - A.BUILD_AT, 6)))  # fmt: skip
        if s.phase in (COAL_SOURCE, IRON_SOURCE):  # take from an own mine first: its flip pays the owner
            own = [a for a in legal if a != A.REPAY and a - A.SOURCE < game.map.num_spaces
                   and s.space_owner[a - A.SOURCE] == p]  # fmt: skip
            return own[0] if own else legal[0]
        if s.phase == SELL_TO:
            targets = [a - A.SELL_TO for a in legal if a != A.REPAY]
            return A.SELL_TO + max(targets, key=lambda t: (s.space_owner[t] == p, s.space_owner[t] < 0))
        if s.phase == SELL_MORE:
            return next(a for a in legal if a != A.REPAY)
        if s.phase == DEVELOP_WHICH:
            c = game.components
            order = sorted((a for a in legal if a != A.REPAY), key=lambda a: (c.SLOT_LEVEL[a - A.REMOVE] != 0,
                           c.SLOT_INDUSTRY[a - A.REMOVE] != FACTORY, c.SLOT_LEVEL[a - A.REMOVE]))  # fmt: skip
            return order[0]
        if s.phase == DRAW_SECOND:
            return legal[0]
        return legal[0]

    # ---- the main choice
    def _action(self, game: Game, p: int, legal: list[int]) -> int:
        s, A, c = game.s, game.space, game.components
        sells = [a for a in legal if A.SELL <= a < A.SELL + A.sizes["SELL"]]
        if sells:
            return sells[0]
        builds = [a for a in legal if A.BUILD <= a < A.BUILD + A.sizes["BUILD"]]
        best, best_value = None, 0.0
        for a in builds:
            for sp, i in game.build_options(p, a - A.BUILD, False):
                v = self._build_value(game, p, sp, i)
                if v > best_value:
                    best, best_value = a, v
        hand = sum(s.hand[p])
        draws = [a for a in legal if A.DRAW <= a < A.DRAW + 3]
        if best is not None and (hand > 2 or not draws):
            return best
        combined = [a for a in legal if A.BUILD_ANY <= a < A.BUILD_ANY + A.sizes["BUILD_ANY"]]
        if combined:  # both actions for a build anywhere: worth it for a mill next to a buyer, say
            value = max((self._build_value(game, p, sp, i) for sp, i in game.build_options(p, 0, True)), default=0)
            if value > 8:
                return self._least_useful(game, p, combined, A.BUILD_ANY)
        rails = [a for a in legal if A.RAIL <= a < A.RAIL + A.sizes["RAIL"]]
        rail = max(rails, key=lambda a: self._rail_value(game, p, a - A.RAIL), default=None)
        if rail is not None and self._rail_value(game, p, rail - A.RAIL) > 4:
            return rail
        if draws and hand < 5:
            return draws[0]
        if best is not None:
            return best
        develops = [a for a in legal if A.DEVELOP <= a < A.DEVELOP + A.sizes["DEVELOP"]]
        factory0 = c.SLOTS_OF[FACTORY][0]
        if develops and s.display[p][factory0] and hand > 3:
            return self._least_useful(game, p, develops, A.DEVELOP)
        if draws:
            return draws[0]
        passes = [a for a in legal if A.PASS <= a < A.PASS + A.sizes["PASS"]]
        if passes:
            return self._least_useful(game, p, passes, A.PASS)
        return legal[0]

    def _least_useful(self, game: Game, p: int, actions: list[int], offset: int) -> int:
        """The card whose kind builds the fewest things (ship cards on Germany first)."""
        return min(actions, key=lambda a: len(game.build_options(p, a - offset, False)))

    def _build_value(self, game: Game, p: int, sp: int, i: int) -> float:
        s, c, m = game.s, game.components, game.map
        d = game.lowest_counter(p, i)
        level, cost, income = c.SLOT_LEVEL[d], c.SLOT_COST[d], c.SLOT_INCOME[d]
        value = DOLLARS_PER_POINT * level - cost - 2 * (c.SLOT_COAL[d] + c.SLOT_IRON[d])
        loc = m.SPACE_LOC[sp]
        dist = game.distances((loc,))
        before = value
        if i in (COTTON_MILL, FACTORY):
            good = 0 if i == COTTON_MILL else 1
            buyers = [t for t in range(m.num_spaces) if dist[m.SPACE_LOC[t]] >= 0 and _buys(s, t, good)]
            value += income if buyers else 0
        elif i in (COAL_MINE, IRON_WORKS):
            # what the demand track pays now; the flip's income only if every cube goes there (else a guess that
            # a third of the cubes' owners' flips happen in time)
            r = 0 if i == COAL_MINE else 1
            cubes, filled = c.SLOT_CUBES[d], s.demand[r]
            room = len(c.DEMAND_PRICES[r]) - filled if game.demand_track_access(dist) else 0
            value += sum(c.DEMAND_PRICES[r][filled:filled + min(room, cubes)])
            value += income if room >= cubes else 0
        elif i == PORT:  # paid whenever anyone sells through it; worth more beside own mills waiting for a buyer
            mills = sum(1 for t in range(m.num_spaces) if s.space_owner[t] == p and s.space_industry[t] == COTTON_MILL
                        and not s.space_flipped[t] and dist[m.SPACE_LOC[t]] >= 0)  # fmt: skip
            value += income + 6 * min(mills, 1)
        elif i == SHIP:
            value += income
        earns = value - before > income / 2  # it will bring money soon (a buyer, the demand track, own mills)
        if s.space_owner[sp] == p:
            value -= DOLLARS_PER_POINT * s.space_level[sp] + 3
        return value - self._loan_cost(game, p, cost + 2 * (c.SLOT_COAL[d] + c.SLOT_IRON[d]), earns)

    def _loan_cost(self, game: Game, p: int, cost: int, earns: bool = True) -> float:
        """What the loans this payment needs will cost: the repayment's premium and the interest while it is held:
        a few rounds if the build brings money soon, else to the end of the game."""
        s, c = game.s, game.components
        short = max(0, cost - s.money[p])
        loans = -(-short // c.LOAN_VALUE)
        rounds_left = (len(s.deck) - s.deck_pos) / (2 * s.num_players) + 1
        held = min(rounds_left, 4) if earns else rounds_left
        return loans * (c.LOAN_REPAY - c.LOAN_VALUE + c.LOAN_INTEREST * held) + 0.01 * self.rng.random()

    def _planned_links(self, game: Game, p: int) -> dict[int, float]:
        """For each own mill or factory with no buyer: the unbuilt links of the shortest path (over every potential
        rail link) to a location with a buyer for its goods, each worth the goods' income over the links needed."""
        s, m, c = game.s, game.map, game.components
        out: dict[int, float] = {}

        for sp in game.build_spaces:
            if s.space_owner[sp] != p or s.space_industry[sp] not in (COTTON_MILL, FACTORY) or s.space_flipped[sp]:
                continue
            if game.sale_targets(sp):
                continue
            good = 0 if s.space_industry[sp] == COTTON_MILL else 1
            goals = {m.SPACE_LOC[t] for t in range(m.num_spaces) if _buys(s, t, good)}
            start = m.SPACE_LOC[sp]
            prev = {start: (-1, -1)}
            queue = [start]
            found = -1
            while queue and found < 0:
                x = queue.pop(0)
                if x in goals:
                    found = x
                    break
                for li in m.LOC_LINKS[x]:
                    if m.LINK_SEA[li] and not game.lane_open(li):
                        continue
                    y = m.LINK_B[li] if m.LINK_A[li] == x else m.LINK_A[li]
                    if y not in prev:
                        prev[y] = (x, li)
                        queue.append(y)
            if found < 0:
                continue
            path = []
            x = found
            while prev[x][0] >= 0:
                x, li = prev[x]
                if s.link_owner[li] < 0 and not m.LINK_SEA[li]:
                    path.append(li)
            d = c.SLOTS_OF[s.space_industry[sp]]
            income = max(c.SLOT_INCOME[x] for x in d)
            for li in path:
                out[li] = out.get(li, 0.0) + income / len(path)
        return out

    def _rail_value(self, game: Game, p: int, li: int) -> float:
        s, m = game.s, game.map
        if getattr(self, "_plan_key", None) != (id(game), len(game.history)):
            self._plan_key, self._plan = (id(game), len(game.history)), self._planned_links(game, p)
        before = len(game.sellers(p))
        s.link_owner[li] = p
        game.forget_cached()
        after = len(game.sellers(p))
        value = 2 + game.occupied_spaces(m.LINK_A[li]) + game.occupied_spaces(m.LINK_B[li])
        s.link_owner[li] = -1
        game.forget_cached()
        first = s.rails_left[p] == 12
        cost = 1 if first else 1 + game.demand_price(0) + game.demand_price(1)
        return value + 8 * (after - before) + self._plan.get(li, 0.0) - cost - self._loan_cost(game, p, cost)


class LookaheadPlayer(RuleBasedPlayer):
    """The rule-based player with a one-action lookahead: each legal action of the turn is played out on a copy (its
    small decisions taken by the rule-based player) and the resulting position valued in dollars for the player:
    money less the cost of the loans, $5 a point of industry, the rail income, part of the income its unflipped
    counters should still bring, and $2 a card in hand. Slow (a copy per option), for measurements only."""

    CARD_VALUE = 2.0

    def __call__(self, game: Game, _: Any = None) -> int:
        if game.s.phase != ACTION:
            return super().__call__(game)
        p = game.current_player
        legal = game.legal_actions()
        best, best_value = legal[0], -1e9
        for a in legal:
            trial = game.clone()
            trial.apply(a)
            while not trial.is_over and trial.current_player == p and trial.s.phase != ACTION:
                trial.apply(super().__call__(trial))
            value = self.value(trial, p) + 0.001 * self.rng.random()
            if value > best_value:
                best, best_value = a, value
        return best

    def value(self, game: Game, p: int) -> float:
        s, c = game.s, game.components
        rounds_left = (len(s.deck) - s.deck_pos) / (2 * s.num_players) + 1
        value = s.money[p] - s.loans[p] * (c.LOAN_REPAY + c.LOAN_INTEREST * rounds_left)
        if value < 0 and rounds_left <= 2:  # at the end, debts the money cannot repay cost 5 points ($25) a loan
            value *= POINTS_PER_UNPAID_LOAN * DOLLARS_PER_POINT / c.LOAN_REPAY
        value += game.rail_income(p) + self.CARD_VALUE * min(sum(s.hand[p]), 6)
        for sp in game.build_spaces:
            if s.space_owner[sp] != p:
                continue
            d = game.slot_of[(s.space_industry[sp], s.space_level[sp])]
            value += DOLLARS_PER_POINT * s.space_level[sp]
            if s.space_flipped[sp] or s.space_no_flip[sp]:
                continue
            i = s.space_industry[sp]
            if i in (COTTON_MILL, FACTORY):
                value += c.SLOT_INCOME[d] * (0.8 if game.sale_targets(sp) else 0.2)
            elif i in (COAL_MINE, IRON_WORKS):
                value += c.SLOT_INCOME[d] * 0.3
            else:
                value += c.SLOT_INCOME[d] * 0.5
        return value


# ================================================================================================== measurements
def play(num_players: int, seed: int, game_map: str = "germany", player: str = "rule_based",
         max_decisions: int = 20_000) -> Game:
    """Play one game with every seat the same kind of player; return the finished game."""
    game = Game(num_players, seed, game_map)
    rng = np.random.default_rng(seed)
    if player == "lookahead":
        choose = LookaheadPlayer(seed)
    else:
        choose = RuleBasedPlayer(seed) if player == "rule_based" else (lambda g, _: random_player(g, rng))
    for _ in range(max_decisions):
        if game.is_over:
            return game
        game.apply(choose(game, None))
    raise RuntimeError(f"game {seed} did not end within {max_decisions} decisions")


def measure(games: int = 100, num_players: int = 4, game_map: str = "germany", player: str = "rule_based",
            seed: int = 0) -> dict[str, float]:
    """Averages over ``games`` games: rounds, decisions, money, loans, scores, the winner's score, time."""
    rows = []
    t0 = time.perf_counter()
    decisions = 0
    for g in range(games):
        game = play(num_players, seed + g, game_map, player)
        decisions += len(game.history)
        sc = game.scores()
        acc = [game.final_accounts(q) for q in range(num_players)]
        rows.append(dict(rounds=game.s.round, decisions=len(game.history), money=statistics.mean(game.s.money),
                         loans=statistics.mean(game.s.loans),
                         rail_income=statistics.mean(a["rail_income"] for a in acc),
                         industries=statistics.mean(a["industries"] for a in acc), score=statistics.mean(sc),
                         winner=max(sc), built=sum(o >= 0 for o in game.s.space_owner) / num_players))  # fmt: skip
    dt = time.perf_counter() - t0
    out = {k: round(statistics.mean(r[k] for r in rows), 1) for k in rows[0]}
    out["decisions_per_s"] = round(decisions / dt)
    return out


__all__ = ["LookaheadPlayer", "RuleBasedPlayer", "measure", "play", "random_player"]
