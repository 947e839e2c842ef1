"""The greedy rule-of-thumb player, version 0, in readable form: it reads one reference Game.

This is the twin of the batched form (:func:`industry_env.agents.industry.heuristic.heuristic_actions`), which must
choose the same action in every position (``tests/test_agents.py`` compares them action for action). It reads
only what the seat to move observes (never the order of the bag). Its rules of thumb (``docs/agents.md``):

- a field is worth its cogwheel points (if it can still score: a Factory or Technology of the current era),
  3 per road or technology link to a field the player already owns, the bonus it would add with owned bonus
  fields or factories, 1.5 for a Factory producing a resource, 1 more for a bonus field; minus half its
  printed construction cost and 1 per required resource the player does not make himself. A joker field is
  worth 2.5;
- as auctioneer it offers the most valuable available field (a small deterministic noise, below 0.1, breaks
  ties: :func:`tie_noise` of the agent's seed, the round and the field);
- it bids ``int(greed * value)`` if that beats the high bid and leaves it a Taler, else passes;
- it keeps a lot when its value is above the highest bid (and it can pay), else sells;
- it develops the legal field of highest ``value + its points now + 10 for a Technology`` (they expire with
  their era), until none is legal;
- it pays with a joker of the resource first, then a Taler (to the bank or the lowest-numbered producer), and
  the "?" joker last; it never takes the subsidy.
"""

from __future__ import annotations

import numpy as np

from industry_env.games.industry import actions as A
from industry_env.games.industry.chance import splitmix64
from industry_env.games.industry.reference import Game
from industry_env.games.industry.rules import BONUS, FACTORY, JOKER, LINK_POINTS, NUM_FIELDS, TECHNOLOGY

from ..base import AgentInputError, check_seed

TIE_NOISE = 0.1  # the noise added to auction values lies in [0, TIE_NOISE)
JOKER_VALUE = 2.5  # a joker field: 2 points at the end, or a resource
PRODUCER_VALUE = 1.5  # a Factory that makes a resource others must buy
BONUS_FIELD_VALUE = 1.0  # a bonus field, beyond the bonus it adds now
TECHNOLOGY_URGENCY = 10.0  # developing: Technologies first, since they expire with their era
PAY_ORDER = {A.PAY_JOKER: 0, A.PAY_BANK: 1, A.PAY_WILD: 3}  # any other way (a player): 1
_NOISE_PURPOSE = 0x6865757230  # "heur0": keeps this noise apart from the game's own chance


def tie_noise(seed: int | np.ndarray, round_: int | np.ndarray, field: int | np.ndarray) -> np.ndarray:
    """float64 in [0, TIE_NOISE): the auction tie-break of the agent seeded ``seed``, for ``field`` in ``round_``.

    A pure function (SplitMix64 of the three numbers), so the readable and the batched forms add the very same
    noise, whatever the batch or the order of the calls.
    """
    with np.errstate(over="ignore"):
        h = splitmix64(np.asarray(seed, dtype=np.uint64) ^ np.uint64(_NOISE_PURPOSE))
        h = splitmix64(h ^ np.asarray(round_, dtype=np.int64).astype(np.uint64))
        h = splitmix64(h ^ np.asarray(field, dtype=np.int64).astype(np.uint64))
    return (h >> np.uint64(11)).astype(np.float64) * 2.0**-53 * TIE_NOISE


class ReferenceHeuristicV0:
    """Heuristic v0 on a reference :class:`Game`: ``act(game)`` returns one legal action for the player to move."""

    def __init__(self, seed: int | None = None, greed: float = 1.0) -> None:
        self.seed = check_seed(seed)
        self.greed = float(greed)

    def value(self, game: Game, p: int, f: int) -> float:
        """Points ``f`` is worth to ``p`` if he owns and develops it, less what developing it costs."""
        s, b = game.s, game.board
        kind = b.KIND[f]
        if kind == JOKER:
            return JOKER_VALUE
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
                v += PRODUCER_VALUE
        if kind == BONUS:
            v += sum(int(b.BONUS_CONNECT[f, g]) for g in range(NUM_FIELDS) if mine[g]) + BONUS_FIELD_VALUE
        v -= 0.5 * b.COST[f] + sum(1 for r in b.NEEDS[f] if r >= 0 and not game._produces(p, int(r)))
        return v

    def act(self, game: Game) -> int:
        """One legal action for the player to move; a finished game or anything but a Game is refused."""
        if not isinstance(game, Game):
            raise AgentInputError(f"ReferenceHeuristicV0.act needs a reference Game, got {type(game).__name__}")
        if game.is_over:
            raise AgentInputError("the game is over: there is no action to choose")
        s, p = game.s, game.current_player
        legal = [a for a in game.legal_actions() if a != A.SUBSIDY]
        if game.phase == "auction":
            vals = [self.value(game, p, a - A.AUCTION) + tie_noise(self.seed, s.round, a - A.AUCTION) for a in legal]
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
                urgency = TECHNOLOGY_URGENCY if b.KIND[f] == TECHNOLOGY else 0.0
                return urgency + self.value(game, p, f) + b.POINTS[f] * (b.ERA[f] == s.era)

            return max(options, key=score)
        # pay: a specific joker first, then money, and the "?" joker last
        return min(legal, key=lambda a: PAY_ORDER.get((a - A.PAY) % A.NUM_PAY_WAYS, 1))
