"""A greedy rule-of-thumb player: values each field in points and bids, keeps and develops by that value.

It reads a reference :class:`industry_env.reference.Game` (the whole position), so it is a baseline for
measuring the board and for the arena, not a learned policy. Its rules of thumb:
- a field is worth its cogwheel points (if it can still score), 3 per road or technology link to a field it
  already owns, the bonus it would add with owned bonus fields or factories, and a little for producing a
  resource others must buy; minus half its construction cost and a Taler per resource it cannot make itself;
- it bids up to that value (never its last Taler), keeps a lot when the price is below the value, develops
  the most valuable legal field (technologies first, since they expire with their era), pays with a specific
  joker before money and keeps the "?" joker for last, and never takes the subsidy.
"""

from __future__ import annotations

import numpy as np

from industry_env import actions as A
from industry_env.reference import Game
from industry_env.rules import BONUS, FACTORY, JOKER, LINK_POINTS, NUM_FIELDS, TECHNOLOGY


class HeuristicAgent:
    """Greedy valuation player; ``act(game)`` returns one legal action for ``game.current_player``."""

    def __init__(self, seed: int | None = None, greed: float = 1.0) -> None:
        self.rng = np.random.default_rng(seed)
        self.greed = greed

    def value(self, game: Game, p: int, f: int) -> float:
        """Points ``f`` is worth to ``p`` if he owns and develops it, less what developing it costs."""
        s, b = game.s, game.board
        kind = b.KIND[f]
        if kind == JOKER:
            return 2.5
        mine = [s.owner[g] == p for g in range(NUM_FIELDS)]
        v = 0.0
        if kind in (FACTORY, TECHNOLOGY) and b.ERA[f] == s.era:
            v += b.POINTS[f]
        for a, c in b.LINKS.tolist():
            if f in (a, c) and mine[c if a == f else a]:
                v += LINK_POINTS
        if kind == FACTORY:
            v += sum(int(b.BONUS_CONNECT[g, f]) for g in range(NUM_FIELDS) if mine[g] and b.KIND[g] == BONUS)
            if b.PRODUCES[f] >= 0:
                v += 1.5
        if kind == BONUS:
            v += sum(int(b.BONUS_CONNECT[f, g]) for g in range(NUM_FIELDS) if mine[g]) + 1.0
        v -= 0.5 * b.COST[f] + sum(1 for r in b.NEEDS[f] if r >= 0 and not game._produces(p, int(r)))
        return v

    def act(self, game: Game) -> int:
        """One legal action for the player to move."""
        s, p = game.s, game.current_player
        legal = [a for a in game.legal_actions() if a != A.SUBSIDY]
        if not legal:
            return A.SUBSIDY
        if game.phase == "auction":
            vals = [self.value(game, p, a - A.AUCTION) + self.rng.random() * 0.1 for a in legal]
            return legal[int(np.argmax(vals))]
        if game.phase == "bid":
            worth = int(self.greed * self.value(game, p, s.lot))
            top = min(worth, s.money[p] - 1)
            return A.bid(top) if top > s.high_bid and A.bid(top) in legal else A.PASS
        if game.phase == "sell_or_keep":
            worth = self.value(game, p, s.lot)
            return A.KEEP if A.KEEP in legal and worth > s.high_bid else A.SELL
        if game.phase == "develop":
            options = [a for a in legal if a != A.DONE]
            if not options:
                return A.DONE
            b = game.board

            def score(a: int) -> float:
                f = a - A.DEVELOP
                return (
                    (10 if b.KIND[f] == TECHNOLOGY else 0) + self.value(game, p, f) + b.POINTS[f] * (b.ERA[f] == s.era)
                )

            return max(options, key=score)
        # pay: a specific joker first, then money, and the "?" joker last
        order = {A.PAY_JOKER: 0, A.PAY_BANK: 1, A.PAY_WILD: 3}
        return min(legal, key=lambda a: order.get((a - A.PAY) % A.NUM_PAY_WAYS, 1))
