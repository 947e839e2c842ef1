"""The greedy heuristic, batched: array code over the engine's State, no Python loop over games.

:func:`heuristic_actions` chooses, for every game of a :class:`industry_env.games.industry.engine.State`, the action
that the readable twin :class:`industry_env.agents.industry.heuristic_v0.ReferenceHeuristicV0` chooses on the same
position (the rules of thumb are listed there and in ``docs/agents.md``). The vector environments call it on their
State directly; :class:`HeuristicV0Agent` is the same player acting from observations: it rebuilds the
positions with :func:`industry_env.games.industry.from_observation.from_observation` (the bag order, which it
never reads, dealt at random) and acts on them. :class:`HeuristicAgent` ("heuristic") is the strong heuristic of
:mod:`industry_env.agents.industry.strong_heuristic`, acting the same way.
"""

from __future__ import annotations

from abc import ABCMeta, abstractmethod
from functools import lru_cache
from types import SimpleNamespace

import numpy as np

from industry_env.games.industry import actions as A
from industry_env.games.industry import engine
from industry_env.games.industry.components import Board
from industry_env.games.industry.from_observation import from_observation
from industry_env.games.industry.reference import Game
from industry_env.games.industry.rules import BONUS, FACTORY, JOKER, LINK_POINTS, NUM_FIELDS, TECHNOLOGY

from ..base import Agent, AgentInputError, check_masks, check_seed
from .checks import refuse_finished_or_other_seat
from .heuristic_v0 import (
    BONUS_FIELD_VALUE,
    JOKER_VALUE,
    PAY_ORDER,
    PRODUCER_VALUE,
    TECHNOLOGY_URGENCY,
    ReferenceHeuristicV0,
    tie_noise,
)
from .strong_heuristic import StrongParams, strong_actions


@lru_cache(maxsize=8)
def _board_tables(board: Board) -> SimpleNamespace:
    """The board facts the valuation reads, as arrays over the 60 fields (built once per board)."""
    kind = board.KIND.astype(np.int64)
    links = np.zeros((NUM_FIELDS, NUM_FIELDS))
    for a, c in board.LINKS.tolist():  # [g, f]: links between f and g (roads and technology links)
        links[a, c] += 1
        links[c, a] += 1
    connect = board.BONUS_CONNECT.astype(np.float64)  # [bonus field g, factory f]: points g adds to f
    needs = board.NEEDS.astype(np.int64)
    scores = (kind == FACTORY) | (kind == TECHNOLOGY)
    owned = LINK_POINTS * links
    owned += connect * (kind == BONUS)[:, None] * (kind == FACTORY)[None, :]  # bonus field g adds to factory f
    owned += (connect * (kind == BONUS)[:, None]).T  # factory (or any owned field) g adds to bonus field f
    pair_f, pair_g = np.nonzero(owned.T)  # sorted by f
    base = np.where((kind == FACTORY) & (board.PRODUCES >= 0), PRODUCER_VALUE, 0.0)
    base += np.where(kind == BONUS, BONUS_FIELD_VALUE, 0.0)
    base -= 0.5 * board.COST.astype(np.float64)
    pay_way = np.arange(A.SUBSIDY - A.PAY) % A.NUM_PAY_WAYS
    pay_key = np.array([PAY_ORDER.get(int(w), 1) for w in pay_way], np.float64)
    return SimpleNamespace(
        KIND=kind,
        ERA=board.ERA.astype(np.int64),
        POINTS=board.POINTS.astype(np.float64),
        SCORES=scores,  # a Factory or Technology scores its points when developed in its era
        # [g, f]: what owning g adds to f: link points, and the bonus between a bonus field and a factory
        OWNED_T=owned.T.copy(),
        # the same as sparse lists, sorted by f: the few (g, f) pairs that add (a dense product is slower)
        PAIR_G=pair_g,
        PAIR_W=owned[pair_g, pair_f],
        PAIR_START=np.flatnonzero(np.r_[True, pair_f[1:] != pair_f[:-1]]),
        PAIR_F=np.unique(pair_f),
        BASE=base,
        NEED=np.maximum(needs, 0),
        NEED_OK=needs >= 0,
        IS_JOKER=kind == JOKER,
        URGENCY=np.where(kind == TECHNOLOGY, TECHNOLOGY_URGENCY, 0.0),
        # pay: the twin takes the legal way of least PAY_ORDER, the lowest action among equals
        PAY_KEY=pay_key * 1000.0 + np.arange(pay_way.size),
    )


def field_values(state: engine.State, player: np.ndarray) -> np.ndarray:
    """float64[B, 60]: :meth:`ReferenceHeuristicV0.value` of every field for ``player`` (int[B]) of each game."""
    return _values(state, np.arange(state.batch_size), np.asarray(player, dtype=np.int64))


def _values(state: engine.State, rows: np.ndarray, p: np.ndarray, fields: np.ndarray | None = None) -> np.ndarray:
    """The twin's ``value`` for player ``p`` (int[N]) of the games ``rows``: of every field (float64[N, 60]), or
    of one field per game (``fields``, int[N] -> float64[N]). Every term is a multiple of 0.5, so the sums are
    exact and equal the twin's whatever their order."""
    t = _board_tables(state.board)
    mine = (state.owner[rows] == p[:, None].astype(np.int8)).astype(np.float64)  # [N, 60]: owned, developed or not
    era = state.era[rows][:, None]
    made = state.produces[rows, p]  # bool[N, 11]: resources p makes himself
    if fields is None:
        f, v = slice(None), np.zeros((rows.size, NUM_FIELDS))
        v[:, t.PAIR_F] = np.add.reduceat(mine[:, t.PAIR_G] * t.PAIR_W, t.PAIR_START, axis=1)
    else:
        f, era = fields.astype(np.int64), era[:, 0]
        v = np.einsum("ng,ng->n", mine, t.OWNED_T[f])
    v += t.BASE[f] + np.where(t.SCORES[f] & (t.ERA[f] == era), t.POINTS[f], 0.0)
    for j in range(2):  # a Taler (or a joker) per required resource he does not make
        unmade = ~made.take(t.NEED[:, j], axis=1) if fields is None else ~made[np.arange(rows.size), t.NEED[f, j]]
        v -= t.NEED_OK[f, j] & unmade
    return np.where(t.IS_JOKER[f], JOKER_VALUE, v)


def heuristic_actions(
    state: engine.State, seed: int | np.ndarray = 0, mask: np.ndarray | None = None, greed: float = 1.0
) -> np.ndarray:
    """int64[B]: heuristic v0's action for the player to move in every game of ``state``.

    ``seed`` (int, or int[B] for one seat's agent per game) keys the auction tie-break noise; ``mask`` is the
    games' legal-action mask if the caller has it (default: computed). The choices equal
    ``ReferenceHeuristicV0(seed, greed).act(engine.to_game(state, i))`` for every game ``i``. A finished game
    has no action: take the running games first (``engine.take``); ValueError otherwise.
    """
    B = state.batch_size
    p = state.current_player.astype(np.int64)
    if (p < 0).any():
        raise ValueError(f"heuristic_actions: game(s) {np.flatnonzero(p < 0)[:5].tolist()} are over; "
                         f"pass the running games only")  # fmt: skip
    if mask is None:
        mask = engine.legal_action_mask(state)
    elif mask.shape != (B, A.NUM_ACTIONS) or mask.dtype != bool:
        raise ValueError(f"mask must be bool[{B}, {A.NUM_ACTIONS}], got {mask.dtype}{list(mask.shape)}")
    t = _board_tables(state.board)
    seeds = np.broadcast_to(np.asarray(seed, dtype=np.int64), (B,))
    rows = np.arange(B)
    out = np.full(B, -1, np.int64)
    phase = state.phase

    auc = np.flatnonzero(phase == engine.AUCTION)
    if auc.size:
        legal = mask[auc, A.AUCTION:A.PASS]
        i, f = legal.nonzero()  # noise only where it counts: the few fields on offer
        noisy = np.full((auc.size, NUM_FIELDS), -np.inf)
        noisy[i, f] = _values(state, auc, p[auc])[i, f] + tie_noise(seeds[auc[i]], state.round[auc[i]], f)
        out[auc] = A.AUCTION + noisy.argmax(axis=1)

    bid = np.flatnonzero(phase == engine.BID)
    if bid.size:
        worth = np.trunc(greed * _values(state, bid, p[bid], state.lot[bid]))
        top = np.minimum(worth, state.money[bid, p[bid]].astype(np.float64) - 1)
        ok = top > state.high_bid[bid]
        action = A.BID + np.where(ok, top, 1).astype(np.int64) - 1
        ok &= mask[bid, np.clip(action, A.BID, A.SELL - 1)]
        out[bid] = np.where(ok, action, A.PASS)

    sok = np.flatnonzero(phase == engine.SELL_OR_KEEP)
    if sok.size:
        keep = mask[sok, A.KEEP] & (_values(state, sok, p[sok], state.lot[sok]) > state.high_bid[sok])
        out[sok] = np.where(keep, A.KEEP, A.SELL)

    dev = np.flatnonzero(phase == engine.DEVELOP)
    if dev.size:
        now = np.where(t.ERA[None, :] == state.era[dev, None], t.POINTS[None, :], 0.0)
        score = np.where(mask[dev, A.DEVELOP:A.DONE], t.URGENCY + _values(state, dev, p[dev]) + now, -np.inf)
        best = score.argmax(axis=1)
        out[dev] = np.where(np.isfinite(score[np.arange(dev.size), best]), A.DEVELOP + best, A.DONE)

    pay = np.flatnonzero(phase == engine.PAY)
    if pay.size:
        key = np.where(mask[pay, A.PAY:A.SUBSIDY], t.PAY_KEY, np.inf)
        out[pay] = A.PAY + key.argmin(axis=1)

    chosen = (out >= 0) & mask[rows, np.clip(out, 0, A.NUM_ACTIONS - 1)]
    if not chosen.all():
        raise ValueError(f"heuristic_actions: the mask does not match the state in game(s) "
                         f"{np.flatnonzero(~chosen)[:5].tolist()}")  # fmt: skip
    return out


class _StateAgent(Agent, metaclass=ABCMeta):
    """An agent whose batched rule reads an engine State (``_actions(state, mask)``): from observations it first
    rebuilds the position (:func:`from_observation`, its own rng dealing the unseen bag, which the rule never reads),
    and ``act_state`` runs the rule on the State itself, the same actions without the round trip."""

    game = "industry"
    seed: int
    rng: np.random.Generator

    @abstractmethod
    def _actions(self, state: engine.State, mask: np.ndarray | None) -> np.ndarray:
        """int64[B]: the rule's action in every game of ``state`` (``mask``: its legal actions, if at hand)."""

    def _choose(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        refuse_finished_or_other_seat(observations)
        return self._actions(from_observation(observations, self.rng), masks)

    def act_state(self, state: engine.State, mask: np.ndarray | None = None) -> np.ndarray:
        """int64[B]: the rule on the State itself (no observation round trip; the same actions)."""
        if not isinstance(state, engine.State):
            raise AgentInputError(f"act_state needs an engine State, got {type(state).__name__}")
        if mask is not None:
            mask = check_masks(mask, state.batch_size, A.NUM_ACTIONS)
        try:
            return self._actions(state, mask)
        except ValueError as exc:
            raise AgentInputError(str(exc)) from None


class HeuristicV0Agent(_StateAgent):
    """Heuristic v0 ("heuristic-v0") as an :class:`Agent`: today's greedy player, acting from observations.

    ``greed`` scales the value it bids up to (1.0: bids its valuation). Seeded: the seed keys its auction
    tie-breaks (and the bag order it deals itself, which it never reads), so the same seed gives the same moves.
    """

    name = "heuristic-v0"

    def __init__(self, seed: int | None = None, greed: float = 1.0) -> None:
        if isinstance(greed, bool) or not isinstance(greed, (int, float)) or not np.isfinite(greed) or greed < 0:
            raise AgentInputError(f"greed={greed!r}: a number >= 0 (1.0 bids up to the value of the lot)")
        self.seed = check_seed(seed)
        self.greed = float(greed)
        self.rng = np.random.default_rng(self.seed)
        self._twin = ReferenceHeuristicV0(self.seed, self.greed)

    def _actions(self, state: engine.State, mask: np.ndarray | None) -> np.ndarray:
        return heuristic_actions(state, self.seed, mask, self.greed)

    def act_game(self, game: Game) -> int:
        """The action for the player to move in a reference Game, by the readable twin (the same action as
        ``act`` on his observation, without rebuilding a State: faster for one game)."""
        if not isinstance(game, Game):
            raise AgentInputError(f"act_game needs a reference Game, got {type(game).__name__}")
        return self._twin.act(game)


class HeuristicAgent(_StateAgent):
    """The project's strong heuristic ("heuristic"): :func:`~.strong_heuristic.strong_actions` from observations.

    It values a field by what it adds by the end of the game, bids towards that value within a budget that
    keeps the development costs ahead, keeps as auctioneer when the best bid is below its value, develops
    what pays most, pays the cheapest way and takes the subsidy when it wins more than 5 points. Parameters:
    :class:`~.strong_heuristic.StrongParams` (``docs/agents.md``). Seeded: the seed keys its auction
    tie-breaks; the bag order it deals itself when rebuilding a position is never read, so ``act`` on an
    observation and ``act_state`` on the true State choose the same action.
    """

    name = "heuristic"

    def __init__(
        self,
        seed: int | None = None,
        taler_value: float = StrongParams.taler_value,
        future_share: float = StrongParams.future_share,
        greed: float = StrongParams.greed,
        deny: float = StrongParams.deny,
        keep_margin: float = StrongParams.keep_margin,
        sell_weight: float = StrongParams.sell_weight,
    ) -> None:
        given = {"taler_value": taler_value, "future_share": future_share, "greed": greed, "deny": deny,
                 "keep_margin": keep_margin, "sell_weight": sell_weight}  # fmt: skip
        for k, v in given.items():
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not np.isfinite(v) or v < 0:
                raise AgentInputError(f"{k}={v!r}: a finite number >= 0")
        if taler_value == 0:
            raise AgentInputError("taler_value=0: a Taler must be worth something (the bids divide by it)")
        self.seed = check_seed(seed)
        self.params = StrongParams(**{k: float(v) for k, v in given.items()})
        self.rng = np.random.default_rng(self.seed)

    def _actions(self, state: engine.State, mask: np.ndarray | None) -> np.ndarray:
        return strong_actions(state, self.seed, mask, self.params)

    def act_game(self, game: Game) -> int:
        """The action for the player to move in a reference Game: :func:`strong_actions` on
        ``engine.from_games([game])`` (the same action as ``act`` on his observation, as the valuation never
        reads the bag order or the seed; faster, without the observation round trip)."""
        if not isinstance(game, Game):
            raise AgentInputError(f"act_game needs a reference Game, got {type(game).__name__}")
        if game.is_over:
            raise AgentInputError("act_game: the game is over, there is no action to choose")
        state = engine.from_games([game])
        return int(strong_actions(state, self.seed, game.legal_action_mask()[None], self.params)[0])


__all__ = ["HeuristicAgent", "HeuristicV0Agent", "field_values", "heuristic_actions"]
