"""The batched numpy engine of Industry: B games as one dataclass of arrays, stepped together.

This is the fast engine for reinforcement learning; :mod:`industry_env.reference` is the readable oracle it is
checked against, game by game (``tests/test_engine_differential.py``, ``industry-env verify``). Every rule
below is the reference's rule written as array code over the batch: one function per phase, named as the
reference names it, looping only over the small fixed dimensions (players, the two resources of a field).

Functional API
==============
=============================================  ==========================================================
``init(B, num_players=4, seed=0, board=None,    B new games; game i has seed ``seed + i`` (or ``seed[i]`` for
balanced_draws=True) -> State``                 an int array), so it equals ``reference.Game(n, seed + i)``
``step(state, actions, on_illegal="raise")``    one action per game -> a new State (the input is unchanged)
``legal_action_mask(state) -> bool[B, 314]``    legal actions of the player to move; all False once over
``observe(state, player=None) -> f32[B, D]``    :mod:`industry_env.observation` layout, seen from ``player``
``scores(state) -> int16[B, 4]``                Scoring Track; final scores once a game is over
``reset(state, done, seeds=None) -> State``     new games in the rows of ``done`` (a new State)
``take / put / concat / copy``                  batch surgery: a game out (batch of 1), in, batches joined
``to_game(state, i) / from_games(games)``       to and from :class:`industry_env.reference.Game` (its JSON)
=============================================  ==========================================================

State fields (leading dimension B; P = 4 player slots, unused slot 3 stays zero in 3-player games)
=================  ===============  =========================================================================
field              dtype[shape]     meaning (reference ``_State`` entry of the same name unless said)
=================  ===============  =========================================================================
seed               int64[B]         chance seed of each game (bag order, starting player)
num_players        int8[B]          3 or 4 (batches may mix them)
balanced_draws     bool[B]          the rulebook's recommended draws in Eras 4 and 5
era                int8[B]          0-based Era token row
round              int8[B]          rounds begun in the whole game
starting_player    int8[B]          holder of the Starting Player marker
bag                int8[B, 12]      this era's column tokens in draw order; ``bag[bag_pos:]`` still in the bag
bag_pos            int8[B]          tokens drawn from ``bag`` this era (reference: ``bag`` = the remainder)
face_up            bool[B, 12]      face-up column tokens (available fields of the era row)
claimed            bool[B, 60]      field auctioned
owner              int8[B, 60]      Property token's player, -1 none (joker fields stay -1)
developed          bool[B, 60]      Property token flipped
money              int16[B, P]      Talers in hand
points             int16[B, P]      Scoring Track during the game
jokers             int8[B, P, 12]   Joker tokens held: 11 resources, then the "?" joker
subsidy            bool[B, P]       Subsidy token taken
phase              int8[B]          AUCTION 0, BID 1, SELL_OR_KEEP 2, DEVELOP 3, PAY 4, OVER 5
auctioneer         int8[B]          the Auctioneer
lot                int8[B]          field on auction, -1 none
bidder             int8[B]          player whose bid or pass is awaited, -1 none
high_bid           int16[B]         highest bid so far (0 none)
high_bidder        int8[B]          its bidder, -1 none
developer          int8[B]          player whose development turn it is, -1 none
developments       int8[B]          fields developed this turn (0-1)
dev_turns          int8[B]          development turns finished this round
developing         int8[B]          field being paid for, -1 none
pending            int8[B, 2]       its resources still to pay, in order, -1 padded
produces           bool[B, P, 11]   cache: the player has a developed factory making the resource
discount           int8[B, P]       cache: Talers off construction costs (developed Bank / Stock Exchange)
terminated         bool[B]          the game is over (phase OVER, or ended by an illegal action)
rewards            float32[B, P]    rewards of the last step: ``Game.returns()`` on the step that ends a game
=================  ===============  =========================================================================

``state.current_player`` (int8[B], -1 once over) is derived from the phase. ``board`` is shared by the batch.
The state is 364 bytes per game (``State.state_bytes_per_game``); the caches are redundant with ``owner`` and
``developed`` and rebuilt by ``from_games``.

Conventions (enforced in :func:`step`)
======================================
* Illegal action, ``on_illegal="raise"`` (default): the step is refused with :class:`IllegalActionError`
  naming every offending game and its action (and the legal ones); the state is unchanged (``step`` never
  mutates its input).
* Illegal action, ``on_illegal="penalize"``: the Pgx convention (``Env._step_with_illegal_action`` in
  sotetsuk/pgx ``core.py``): the offending game ends at once (``terminated``), the player at fault receives
  ``penalty`` (default -1) and every other player ``-penalty`` (+1, a winner's reward); the position is
  otherwise left as it was. Legal games of the batch step normally. Pgx gives the others
  ``-penalty * (num_players - 1)``, written for two players, where both agree; with 3 or 4 players that would
  give +2 or +3, off the +-1 scale of a normal end, so the others get what a winner gets.
* Stepping a game that is already over does nothing and gives it zero rewards; its action is ignored, as in
  Pgx. Its legal-action mask is all False (the reference's empty ``legal_actions()``), unlike Pgx's all True.
* ``rewards`` are zero except on the step that ends a game: +1 for each winner, -1 for the others, 0 for all if
  every player ties (``Game.returns()``); slot 3 of a 3-player game is always 0.
* ``reset`` returns a new State with fresh games in the rows of ``done``; by default row i gets seed
  ``seed[i] + B``, so a batch started by ``init(B, seed=s)`` and reset after each game plays seeds
  ``s + k * B + i``.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from types import SimpleNamespace

import numpy as np

from . import actions as A
from . import chance
from . import observation as O
from .board import Board, load_board
from .reference import JSON_VERSION, PHASES, Game, IllegalActionError
from .rules import (
    BONUS,
    COIN_COLUMN,
    COIN_TOKEN_MONEY,
    FACTORY,
    INCOME,
    JOKER,
    JOKER_POINTS,
    LINK_POINTS,
    MAX_BID,
    MAX_DEVELOPMENTS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NUM_COLUMNS,
    NUM_ERAS,
    NUM_FIELDS,
    NUM_JOKER_KINDS,
    NUM_RESOURCES,
    RESOURCE_PRICE,
    STARTING_MONEY,
    SUBSIDY_MONEY,
    SUBSIDY_POINTS,
    TALERS_PER_POINT,
    TECHNOLOGY,
    WILD_JOKER,
    tokens_per_round,
)

__all__ = [
    "State", "init", "step", "legal_action_mask", "observe", "scores", "reset", "take", "put", "concat", "copy",
    "to_game", "from_games", "sample_legal", "IllegalActionError",
    "AUCTION", "BID", "SELL_OR_KEEP", "DEVELOP", "PAY", "OVER",
]  # fmt: skip

AUCTION, BID, SELL_OR_KEEP, DEVELOP, PAY, OVER = range(6)  # the order of reference.PHASES
P = MAX_PLAYERS
_MAX_TOKENS = 4  # tokens drawn in a round: one per player, at most 4 with the balanced draws


@dataclass
class State:
    """B games of Industry as arrays; see the module docstring for every field."""

    seed: np.ndarray
    num_players: np.ndarray
    balanced_draws: np.ndarray
    era: np.ndarray
    round: np.ndarray
    starting_player: np.ndarray
    bag: np.ndarray
    bag_pos: np.ndarray
    face_up: np.ndarray
    claimed: np.ndarray
    owner: np.ndarray
    developed: np.ndarray
    money: np.ndarray
    points: np.ndarray
    jokers: np.ndarray
    subsidy: np.ndarray
    phase: np.ndarray
    auctioneer: np.ndarray
    lot: np.ndarray
    bidder: np.ndarray
    high_bid: np.ndarray
    high_bidder: np.ndarray
    developer: np.ndarray
    developments: np.ndarray
    dev_turns: np.ndarray
    developing: np.ndarray
    pending: np.ndarray
    produces: np.ndarray
    discount: np.ndarray
    terminated: np.ndarray
    rewards: np.ndarray
    board: Board = dataclasses.field(repr=False, compare=False)

    @property
    def batch_size(self) -> int:
        """Number of games B."""
        return int(self.phase.shape[0])

    @property
    def current_player(self) -> np.ndarray:
        """int8[B]: the player whose decision is awaited, -1 once the game is over (or ended by a penalty)."""
        ph = self.phase
        out = np.where(ph == BID, self.bidder, self.auctioneer)
        out = np.where(ph >= DEVELOP, self.developer, out)
        return np.where((ph == OVER) | self.terminated, np.int8(-1), out).astype(np.int8)

    def arrays(self) -> dict[str, np.ndarray]:
        """The per-game arrays by field name (everything but the board)."""
        return {f: getattr(self, f) for f in _ARRAY_FIELDS}

    def replace(self, **changes: np.ndarray) -> State:
        """A new State with some fields replaced (the others shared, not copied)."""
        return dataclasses.replace(self, **changes)

    @property
    def state_bytes_per_game(self) -> int:
        """Bytes of array state per game."""
        return sum(a.nbytes for a in self.arrays().values()) // max(self.batch_size, 1)


_ARRAY_FIELDS = tuple(f.name for f in dataclasses.fields(State) if f.name != "board")
_DTYPES = {
    "seed": np.int64, "num_players": np.int8, "balanced_draws": bool, "era": np.int8, "round": np.int8,
    "starting_player": np.int8, "bag": np.int8, "bag_pos": np.int8, "face_up": bool, "claimed": bool,
    "owner": np.int8, "developed": bool, "money": np.int16, "points": np.int16, "jokers": np.int8,
    "subsidy": bool, "phase": np.int8, "auctioneer": np.int8, "lot": np.int8, "bidder": np.int8,
    "high_bid": np.int16, "high_bidder": np.int8, "developer": np.int8, "developments": np.int8,
    "dev_turns": np.int8, "developing": np.int8, "pending": np.int8, "produces": bool, "discount": np.int8,
    "terminated": bool, "rewards": np.float32,
}  # fmt: skip
_SHAPES = {
    "bag": (NUM_COLUMNS,), "face_up": (NUM_COLUMNS,), "claimed": (NUM_FIELDS,), "owner": (NUM_FIELDS,),
    "developed": (NUM_FIELDS,), "money": (P,), "points": (P,), "jokers": (P, NUM_JOKER_KINDS), "subsidy": (P,),
    "pending": (2,), "produces": (P, NUM_RESOURCES), "discount": (P,), "rewards": (P,),
}  # fmt: skip
_FILL = {"owner": -1, "lot": -1, "bidder": -1, "high_bidder": -1, "developer": -1, "developing": -1, "pending": -1}


# ---------------------------------------------------------------------------------------------- board tables
@lru_cache(maxsize=8)
def _tables(board: Board) -> SimpleNamespace:
    """Board facts as the flat numpy tables the array rules index, built once per board."""
    b = board
    needs = b.NEEDS.astype(np.int64)
    # tokens[n - 3, balanced, era]: column tokens drawn a round (rules.tokens_per_round)
    tokens = np.array(
        [[[tokens_per_round(n, e, bal) for e in range(NUM_ERAS)] for bal in (False, True)]
         for n in (MIN_PLAYERS, MAX_PLAYERS)], np.int8,
    )  # fmt: skip
    links = [b.ROADS.astype(np.int64), b.TECH_LINKS.astype(np.int64)]
    return SimpleNamespace(
        KIND=b.KIND.astype(np.int8),
        ERA=b.ERA.astype(np.int8),
        COLUMN=b.COLUMN.astype(np.int64),
        COST=b.COST.astype(np.int16),
        NEED=np.maximum(needs, 0),  # int64[60, 2], -1 replaced by 0 (use with NEED_OK)
        NEED_OK=needs >= 0,
        PRODUCES=b.PRODUCES.astype(np.int64),
        POINTS=b.POINTS.astype(np.int16),
        DISCOUNT=b.DISCOUNT.astype(np.int8),
        # "Technologies may be developed only if they are located in the current Era."
        IS_TECH=b.KIND == TECHNOLOGY,
        IS_FACTORY=b.KIND == FACTORY,
        IS_JOKER=b.KIND == JOKER,
        IS_BONUS=b.KIND == BONUS,
        JOKER_KIND=np.maximum(b.JOKER_KIND.astype(np.int64), 0),
        BANK_ERA=b.BANK_ERA.astype(np.int8),
        LINKS=links,
        BONUS_CONNECT=b.BONUS_CONNECT.astype(np.float32),
        TOKENS=tokens,
        ERA_ROW=np.arange(NUM_ERAS)[:, None] == b.ERA[None, :].astype(np.int64),  # bool[5, 60]
    )


def _rows_players(n: np.ndarray) -> np.ndarray:
    """bool[N, P]: which player slots take part in each game."""
    return np.arange(P)[None, :] < n[:, None]


# ---------------------------------------------------------------------------------------------- init
def _empty(batch_size: int, board: Board) -> State:
    """A batch of all-zero (or -1) arrays of the right dtypes and shapes."""
    arrays = {}
    for name in _ARRAY_FIELDS:
        arrays[name] = np.full((batch_size, *_SHAPES.get(name, ())), _FILL.get(name, 0), dtype=_DTYPES[name])
    return State(board=board, **arrays)


def _seeds(batch_size: int, seed: int | np.ndarray | Sequence[int]) -> np.ndarray:
    """int64[B] seeds: ``seed + i`` for an int, else the given array, checked."""
    if np.ndim(seed) == 0:
        s = int(seed) + np.arange(batch_size, dtype=np.int64)
    else:
        s = np.asarray(seed, dtype=np.int64).reshape(-1)
        if s.shape[0] != batch_size:
            raise ValueError(f"{s.shape[0]} seeds given for a batch of {batch_size}")
    if batch_size and (s.min() < 0):
        raise ValueError("seeds must be whole numbers from 0 to 2**63 - 1")
    return s


def _new_games(s: State, rows: np.ndarray, seeds: np.ndarray, n: np.ndarray, balanced: np.ndarray) -> None:
    """Preparing the Game, in place, for the games ``rows`` of ``s`` (then the first round begins)."""
    for name in _ARRAY_FIELDS:
        getattr(s, name)[rows] = _FILL.get(name, 0)
    s.seed[rows] = seeds
    s.num_players[rows] = n
    s.balanced_draws[rows] = balanced
    # "Give each player 4 Talers"; "Randomly decide which player takes the Starting Player marker".
    s.money[rows] = np.where(_rows_players(n), STARTING_MONEY, 0)
    s.starting_player[rows] = chance.starting_player(seeds, n)
    # "Place the Column tokens in the bag and mix them."
    s.bag[rows] = chance.bag_order(seeds, 0)
    _begin_round(s, rows)


def init(
    batch_size: int,
    num_players: int | np.ndarray = 4,
    seed: int | np.ndarray | Sequence[int] = 0,
    board: Board | None = None,
    balanced_draws: bool | np.ndarray = True,
) -> State:
    """B new games; game i equals ``reference.Game(num_players, seed + i, board, balanced_draws)``."""
    if batch_size < 0:
        raise ValueError(f"batch_size={batch_size!r} must be >= 0")
    n = np.broadcast_to(np.asarray(num_players, dtype=np.int64), (batch_size,)).astype(np.int8)
    if batch_size and not np.isin(n, (MIN_PLAYERS, MAX_PLAYERS)).all():
        raise ValueError(f"num_players={num_players!r}: Industry is played by {MIN_PLAYERS} or {MAX_PLAYERS}")
    bal = np.broadcast_to(np.asarray(balanced_draws, dtype=bool), (batch_size,)).copy()
    board = board if board is not None else load_board()
    s = _empty(batch_size, board)
    _new_games(s, np.arange(batch_size), _seeds(batch_size, seed), n, bal)
    return s


def reset(state: State, done: np.ndarray, seeds: np.ndarray | None = None) -> State:
    """A new State where the games in rows ``done`` (bool[B]) start afresh; the others are copied unchanged.

    ``seeds`` (int[B], only the ``done`` rows read) defaults to ``state.seed + B``. Number of players and
    draw variant are kept per row. Rewards of the reset rows are zero.
    """
    done = np.asarray(done, dtype=bool).reshape(-1)
    s = copy(state)
    rows = np.flatnonzero(done)
    if rows.size:
        new = s.seed + s.batch_size if seeds is None else _seeds(s.batch_size, seeds)
        _new_games(s, rows, new[rows], s.num_players[rows].copy(), s.balanced_draws[rows].copy())
    return s


# ---------------------------------------------------------------------------------------------- Phases 1, 2, 5
def _begin_round(s: State, rows: np.ndarray) -> None:
    """Phase 1 (income), Phase 2 (new column tokens) and the start of Phase 3 for the games ``rows``."""
    if rows.size == 0:
        return
    t = _tables(s.board)
    n = s.num_players[rows]
    s.round[rows] += 1
    present = _rows_players(n)
    # Phase 1: Income. "Each player takes 1 Taler from the bank."
    s.money[rows] += np.where(present, INCOME, 0).astype(np.int16)
    # Phase 2: "The Starting Player draws one Column token per player from the bag" (balanced: 3 or 4).
    k = t.TOKENS[n - MIN_PLAYERS, s.balanced_draws[rows].astype(np.int64), s.era[rows]]
    pos = s.bag_pos[rows].astype(np.int64)
    j = np.arange(_MAX_TOKENS)[None, :]
    valid = j < k[:, None]
    idx = np.minimum(pos[:, None] + j, NUM_COLUMNS - 1)
    drawn = s.bag[rows[:, None], idx].astype(np.int64)  # [N, 4]
    r_i, j_i = np.nonzero(valid)
    s.face_up[rows[r_i], drawn[r_i, j_i]] = True
    s.bag_pos[rows] = pos + k
    # "If the Column token with a coin symbol is drawn, each player immediately takes one Taler"
    coin = ((drawn == COIN_COLUMN) & valid).any(axis=1)
    s.money[rows] += (coin[:, None] & present).astype(np.int16) * COIN_TOKEN_MONEY
    # Phase 3: "The Starting Player is the first Auctioneer".
    s.phase[rows] = AUCTION
    s.auctioneer[rows] = s.starting_player[rows]


def _new_starting_player(s: State, rows: np.ndarray) -> None:
    """Phase 5, the change of Era, and the end of the game, for the games ``rows``."""
    if rows.size == 0:
        return
    t = _tables(s.board)
    n = s.num_players[rows]
    # "the Starting Player marker moves clockwise to the next player"
    s.starting_player[rows] = (s.starting_player[rows] + 1) % n
    era = s.era[rows]
    era_done = (s.claimed[rows] | ~t.ERA_ROW[era]).all(axis=1)
    # "Once all fields in all eras have been auctioned, the game ends at the end of the round."
    over = era_done & (era == NUM_ERAS - 1)
    _game_over(s, rows[over])
    # Change of Era: "Move the Era token down one space." The tokens go back into the bag.
    change = rows[era_done & ~over]
    if change.size:
        s.era[change] += 1
        s.bag[change] = chance.bag_order(s.seed[change], s.era[change])
        s.bag_pos[change] = 0
    _begin_round(s, rows[~over])


# ---------------------------------------------------------------------------------------------- Phase 3: Auction
def _available(s: State) -> np.ndarray:
    """bool[B, 60]: 'A field is available if it lies in the current Era and has a face-up Column token above it.'"""
    out = np.zeros((s.batch_size, NUM_ERAS, NUM_COLUMNS), bool)
    out[np.arange(s.batch_size), s.era] = s.face_up
    return out.reshape(s.batch_size, NUM_FIELDS)


def _open_auction(s: State, rows: np.ndarray, f: np.ndarray) -> None:
    """The auctioneer offers field ``f``; bidding starts with the player to his left."""
    if rows.size == 0:
        return
    s.phase[rows] = BID
    s.lot[rows] = f
    s.high_bid[rows] = 0
    s.high_bidder[rows] = -1
    # "In turn, starting with the player to the left of the Auctioneer, each player ... bid or pass."
    s.bidder[rows] = (s.auctioneer[rows] + 1) % s.num_players[rows]


def _bid_or_pass(s: State, rows: np.ndarray, p: np.ndarray, amount: np.ndarray) -> None:
    """A bid (amount > 0) or a pass; after the last bidder, the auctioneer decides (or must claim)."""
    if rows.size == 0:
        return
    bids = amount > 0
    s.high_bid[rows[bids]] = amount[bids]
    s.high_bidder[rows[bids]] = p[bids]
    s.bidder[rows] = (p + 1) % s.num_players[rows]
    last = rows[s.bidder[rows] == s.auctioneer[rows]]
    no_bid = last[s.high_bidder[last] < 0]
    # No Bids: "the Auctioneer must claim the field himself, although he pays nothing."
    _claim(s, no_bid, s.auctioneer[no_bid])
    s.phase[last[s.high_bidder[last] >= 0]] = SELL_OR_KEEP
    _next_auction(s, no_bid, s.auctioneer[no_bid] + 1)


def _sell(s: State, rows: np.ndarray) -> None:
    """'He can let the highest bidder claim the field and take the appropriate amount of money'."""
    if rows.size == 0:
        return
    hb, price, auct = s.high_bidder[rows], s.high_bid[rows], s.auctioneer[rows]
    s.money[rows, hb] -= price
    s.money[rows, auct] += price
    _claim(s, rows, hb)
    _next_auction(s, rows, auct)  # "He remains the Auctioneer"


def _keep(s: State, rows: np.ndarray) -> None:
    """'He claims the field himself, paying an amount equal to the highest bid.'"""
    if rows.size == 0:
        return
    auct, price, n = s.auctioneer[rows], s.high_bid[rows].astype(np.int64), s.num_players[rows].astype(np.int64)
    # "starting with the player to his left, the Auctioneer gives each player - including himself - 1 Taler
    # until he has paid the full price": the player k seats to his left (k = 1..n, n = himself) receives
    # one Taler for each i < price with i % n == k - 1.
    s.money[rows, auct] -= price.astype(np.int16)
    for k in range(1, P + 1):
        share = np.where(k <= n, (price - k + n) // n, 0)
        s.money[rows, (auct + k) % n] += share.astype(np.int16)
    _claim(s, rows, auct)
    _next_auction(s, rows, auct + 1)  # "His left-hand neighbor becomes the new Auctioneer"


def _claim(s: State, rows: np.ndarray, p: np.ndarray) -> None:
    """Claim a Field: a Property token clock side up, or, on a Joker field, the Joker token in hand."""
    if rows.size == 0:
        return
    t = _tables(s.board)
    f = s.lot[rows].astype(np.int64)
    s.claimed[rows, f] = True
    joker = t.IS_JOKER[f]
    s.jokers[rows[joker], p[joker], t.JOKER_KIND[f[joker]]] += 1
    s.owner[rows[~joker], f[~joker]] = p[~joker]
    s.face_up[rows, t.COLUMN[f]] = False  # "turn the corresponding Column token face-down"


def _next_auction(s: State, rows: np.ndarray, auctioneer: np.ndarray) -> None:
    """The next auction of the round, or the Development phase once no column token is face up."""
    if rows.size == 0:
        return
    s.lot[rows] = -1
    s.bidder[rows] = -1
    s.high_bid[rows] = 0
    s.high_bidder[rows] = -1
    s.auctioneer[rows] = auctioneer % s.num_players[rows]
    s.phase[rows] = AUCTION
    # "When all available fields have been auctioned, this phase ends."
    _begin_development(s, rows[~s.face_up[rows].any(axis=1)])


# ---------------------------------------------------------------------------------------------- Phase 4: Development
def _begin_development(s: State, rows: np.ndarray) -> None:
    """'Beginning with the Starting Player, each player may in turn develop up to two of his undeveloped fields.'"""
    if rows.size == 0:
        return
    s.phase[rows] = DEVELOP
    s.developer[rows] = s.starting_player[rows]
    s.developments[rows] = 0
    s.dev_turns[rows] = 0


def _buyable(s: State, rows: np.ndarray, p: np.ndarray) -> np.ndarray:
    """bool[N, 11]: resources ``p`` may pay for with a Taler (to another producer, else to the bank).

    "Another player has an already developed Factory that produces the required resource. You can pay this
    player 1 Taler"; the bank sells "only ... resources that are not produced by other players and only ...
    resources that appeared in previous Eras". Either way exists iff some other player produces it or the
    bank sells it in this era.
    """
    t = _tables(s.board)
    others = np.arange(P)[None, :] != p[:, None]
    by_others = (s.produces[rows] & others[:, :, None]).any(axis=1)
    return by_others | (s.era[rows][:, None] >= t.BANK_ERA[None, :])


def _payable(need_ok: np.ndarray, has_joker: np.ndarray, buyable: np.ndarray, wild: np.ndarray,
             money: np.ndarray) -> np.ndarray:  # fmt: skip
    """Can the listed resources (distinct, each ``need_ok``) all be paid with these jokers and Talers?

    Arrays are [N, 2] for the two needs (``wild``, ``money``: [N]). A resource with its own joker is paid by
    it; the others need the "?" joker or, when ``buyable``, 1 Taler. This is the reference's exhaustive
    search (``_can_pay_all``) in closed form: the jokers of distinct resources never compete.
    """
    open_ = need_ok & ~has_joker
    only_wild = (open_ & ~buyable).astype(np.int16)
    either = (open_ & buyable).astype(np.int16)
    only_wild = only_wild[:, 0] + only_wild[:, 1]
    either = either[:, 0] + either[:, 1]
    return (only_wild <= wild) & (either <= wild - only_wild + money)


def _develop_ok(s: State, rows: np.ndarray, p: np.ndarray, f: np.ndarray | None = None) -> np.ndarray:
    """May ``p`` (int[N]) develop field ``f`` (int[N]) now? bool[N]; with ``f=None``, bool[N, 60] for every field."""
    if f is None:  # only own undeveloped fields can qualify: test those (row, field) pairs
        out = (s.owner[rows] == p[:, None]) & ~s.developed[rows]
        i, g = np.nonzero(out)
        out[i, g] = _develop_ok(s, rows[i], p[i], g)
        return out
    t = _tables(s.board)
    i = np.arange(rows.size)
    ok = (s.owner[rows, f] == p) & ~s.developed[rows, f]
    # "Technologies may be developed only if they are located in the current Era."
    ok &= ~(t.IS_TECH[f] & (t.ERA[f] != s.era[rows]))
    # construction cost, less the Bank / Stock Exchange discount, "never reduced below zero"
    money = s.money[rows, p] - np.maximum(t.COST[f] - s.discount[rows, p], 0)
    # "If you do not have enough money, or a required resource is not available, you may not develop"
    ix = (i[:, None], t.NEED[f])  # gathers [N, 12] -> [N, 2] at the two needs
    jok = s.jokers[rows, p]  # [N, 12]
    need_ok = t.NEED_OK[f] & ~s.produces[rows, p][ix]  # own developed factories pay automatically
    pay = _payable(need_ok, jok[ix] > 0, _buyable(s, rows, p)[ix], jok[:, WILD_JOKER], money)
    return ok & (money >= 0) & pay


def _develop(s: State, rows: np.ndarray, p: np.ndarray, f: np.ndarray) -> None:
    """Pay the construction cost; then pay each required resource, or finish at once if none is due."""
    if rows.size == 0:
        return
    t = _tables(s.board)
    cost = np.maximum(t.COST[f] - s.discount[rows, p], 0)
    s.money[rows, p] -= cost  # "He must pay the construction costs ... to the bank"
    s.developing[rows] = f
    need = t.NEED[f]
    due = t.NEED_OK[f] & ~s.produces[rows[:, None], p[:, None], need]  # [N, 2]
    first = np.where(due[:, 0], need[:, 0], np.where(due[:, 1], need[:, 1], -1))
    second = np.where(due[:, 0] & due[:, 1], need[:, 1], -1)
    s.pending[rows, 0] = first
    s.pending[rows, 1] = second
    none_due = first < 0
    s.phase[rows[~none_due]] = PAY
    _finish_development(s, rows[none_due])


def _pay_ways(s: State, rows: np.ndarray, p: np.ndarray) -> np.ndarray:
    """bool[N, 7]: legal ways to pay the first pending resource, the rest staying payable afterwards."""
    r = s.pending[rows, 0].astype(np.int64)
    r2 = s.pending[rows, 1].astype(np.int64)
    i = np.arange(rows.size)
    jok = s.jokers[rows, p]
    money, wild = s.money[rows, p], jok[:, WILD_JOKER]
    producers = s.produces[rows, :, r]  # [N, P]
    others = producers & (np.arange(P)[None, :] != p[:, None])
    t = _tables(s.board)
    cash = money >= RESOURCE_PRICE
    ways = np.zeros((rows.size, A.NUM_PAY_WAYS), bool)
    ways[:, A.PAY_JOKER] = jok[i, r] > 0  # "a Joker token of the required resource"
    ways[:, A.PAY_WILD] = wild > 0  # "The Joker token labeled ? is worth one resource of your choice."
    ways[:, A.PAY_BANK] = cash & ~others.any(axis=1) & (s.era[rows] >= t.BANK_ERA[r])
    ways[:, A.PAY_PLAYER:] = cash[:, None] & others
    # Would the second resource (if any) still be payable after each way?
    r2c = np.maximum(r2, 0)
    buy2 = _buyable(s, rows, p)[i, r2c]
    money_after = money[:, None] - np.array([0, 0] + [RESOURCE_PRICE] * (A.NUM_PAY_WAYS - 2))[None, :]
    wild_after = wild[:, None] - np.array([0, 1] + [0] * (A.NUM_PAY_WAYS - 2))[None, :]
    rest_ok = (r2 < 0)[:, None] | (jok[i, r2c] > 0)[:, None] | (wild_after > 0)
    rest_ok |= buy2[:, None] & (money_after >= RESOURCE_PRICE)
    return ways & rest_ok


def _pay_resource(s: State, rows: np.ndarray, p: np.ndarray, r: np.ndarray, way: np.ndarray) -> None:
    """Pay one resource by ``way``; once none is pending, the field is developed."""
    if rows.size == 0:
        return
    joker = way == A.PAY_JOKER
    s.jokers[rows[joker], p[joker], r[joker]] -= 1
    wild = way == A.PAY_WILD
    s.jokers[rows[wild], p[wild], WILD_JOKER] -= 1
    cash = way >= A.PAY_BANK
    s.money[rows[cash], p[cash]] -= RESOURCE_PRICE
    to_player = way >= A.PAY_PLAYER
    s.money[rows[to_player], way[to_player] - A.PAY_PLAYER] += RESOURCE_PRICE
    s.pending[rows, 0] = s.pending[rows, 1]
    s.pending[rows, 1] = -1
    _finish_development(s, rows[s.pending[rows, 0] < 0])


def _finish_development(s: State, rows: np.ndarray) -> None:
    """Flip the Property token and score the cogwheel's points; two developments end the turn."""
    if rows.size == 0:
        return
    t = _tables(s.board)
    f, p = s.developing[rows].astype(np.int64), s.developer[rows]
    s.developed[rows, f] = True
    # "You receive points for developing a Factory only if that Factory is located in the current Era."
    # Technologies are developed only in their era; "Bonus fields earn victory points only at the end".
    scores = t.IS_TECH[f] | (t.IS_FACTORY[f] & (t.ERA[f] == s.era[rows]))
    s.points[rows, p] += np.where(scores, t.POINTS[f], 0).astype(np.int16)
    makes = t.PRODUCES[f] >= 0
    s.produces[rows[makes], p[makes], t.PRODUCES[f[makes]]] = True  # cache
    s.discount[rows, p] += t.DISCOUNT[f]  # cache: "all subsequent construction costs are each reduced by 1"
    s.developing[rows] = -1
    s.pending[rows] = -1
    s.phase[rows] = DEVELOP
    s.developments[rows] += 1
    _end_development_turn(s, rows[s.developments[rows] == MAX_DEVELOPMENTS])


def _end_development_turn(s: State, rows: np.ndarray) -> None:
    """The next player's development turn, or Phase 5 once every player has had his."""
    if rows.size == 0:
        return
    s.dev_turns[rows] += 1
    all_done = s.dev_turns[rows] == s.num_players[rows]
    fin, nxt = rows[all_done], rows[~all_done]
    s.developer[nxt] = (s.developer[nxt] + 1) % s.num_players[nxt]
    s.developments[nxt] = 0
    s.developer[fin] = -1
    s.developments[fin] = 0
    s.dev_turns[fin] = 0
    _new_starting_player(s, fin)


# ---------------------------------------------------------------------------------------------- Subsidy, end
def _take_subsidy(s: State, rows: np.ndarray, p: np.ndarray) -> None:
    """'a player may take one Subsidy token ... He immediately takes 3 Talers from the bank.'"""
    if rows.size == 0:
        return
    s.subsidy[rows, p] = True
    s.money[rows, p] += SUBSIDY_MONEY


def _final_scores(s: State, rows: np.ndarray) -> np.ndarray:
    """int64[N, P]: Scoring Track plus the final scoring of the games ``rows`` (which must be over)."""
    t = _tables(s.board)
    n = s.num_players[rows]
    present = _rows_players(n)
    # "Remove from the board all Property tokens that still show the clock symbol."
    mine = (s.owner[rows][:, None, :] == np.arange(P)[None, :, None]) & s.developed[rows][:, None, :]  # [N,P,60]
    total = s.points[rows].astype(np.int64)
    total += s.money[rows] // TALERS_PER_POINT  # "For every 3 Talers a player holds, he earns 1 victory point"
    for pairs in t.LINKS:  # roads between factories, links between technologies: 3 points a pair
        total += LINK_POINTS * (mine[:, :, pairs[:, 0]] & mine[:, :, pairs[:, 1]]).sum(axis=2)
    # "For each Bonus field ... connected to a Factory that he also owns, he earns 2 or 3 bonus points",
    # per connected Factory (the rulebook's example: 3 Ports x 2 points x 4 river Factories = 24).
    bonus = (mine & t.IS_BONUS).astype(np.float32) @ t.BONUS_CONNECT  # [N, P, 60]
    total += np.rint((bonus * mine).sum(axis=2)).astype(np.int64)
    total += JOKER_POINTS * s.jokers[rows].sum(axis=2, dtype=np.int64)
    total += np.where(s.subsidy[rows], SUBSIDY_POINTS, 0)
    return np.where(present, total, 0)


def _returns(s: State, rows: np.ndarray) -> np.ndarray:
    """float32[N, P]: +1 winners, -1 others, 0 for all if everyone ties (``Game.returns()``)."""
    present = _rows_players(s.num_players[rows])
    sc = _final_scores(s, rows)
    # "In case of a tie, the player with the most Property tokens on the board wins. If there is still a tie,
    # the player with the most money wins." Lexicographic key; scores > -1000, tokens <= 60, money < 1000.
    tokens = ((s.owner[rows][:, None, :] == np.arange(P)[None, :, None]) & s.developed[rows][:, None, :]).sum(2)
    key = (sc + 1000) * 1_000_000 + tokens * 1000 + s.money[rows]
    key = np.where(present, key, -1)
    win = (key == key.max(axis=1, keepdims=True)) & present
    everyone = win.sum(axis=1) == s.num_players[rows]
    out = np.where(win, 1.0, -1.0)
    out = np.where(everyone[:, None] | ~present, 0.0, out)
    return out.astype(np.float32)


def _game_over(s: State, rows: np.ndarray) -> None:
    """The game ends: phase OVER, terminated, and the terminal rewards."""
    if rows.size == 0:
        return
    s.phase[rows] = OVER
    s.terminated[rows] = True
    s.rewards[rows] = _returns(s, rows)


def scores(state: State) -> np.ndarray:
    """int16[B, P]: the Scoring Track, or the final score (``Game.scores()``) once a game is over."""
    out = state.points.astype(np.int16).copy()
    over = np.flatnonzero(state.phase == OVER)
    if over.size:
        out[over] = _final_scores(state, over)
    return out


# ---------------------------------------------------------------------------------------------- legality
_AT_MOST = np.arange(1, MAX_BID + 1)[None, :] <= np.arange(MAX_BID + 1)[:, None]  # [x, k-1]: bid k <= x


def legal_action_mask(state: State) -> np.ndarray:
    """bool[B, NUM_ACTIONS]: the legal actions of each game's player to move (all False once over)."""
    s = state
    B = s.batch_size
    mask = np.zeros((B, A.NUM_ACTIONS), bool)
    ph = s.phase
    p = s.current_player.astype(np.int64)
    live = ph != OVER
    b = np.arange(B)
    money = s.money[b, np.maximum(p, 0)]
    auc = np.flatnonzero(ph == AUCTION)
    block = mask[:, A.AUCTION:A.PASS].reshape(B, NUM_ERAS, NUM_COLUMNS)  # a view: fields by era row
    block[auc, s.era[auc]] = s.face_up[auc]  # "A field is available if it lies in the current Era and ..."
    bid = np.flatnonzero(ph == BID)
    mask[bid, A.PASS] = True
    # "A bid must be higher than any preceding bid, and a player cannot bid more Talers than he can pay."
    mask[bid, A.BID:A.SELL] = _AT_MOST[np.minimum(money[bid], MAX_BID)] & ~_AT_MOST[s.high_bid[bid]]
    sok = np.flatnonzero(ph == SELL_OR_KEEP)
    mask[sok, A.SELL] = True
    mask[sok, A.KEEP] = money[sok] >= s.high_bid[sok]  # ruling: he can keep only if he can pay the full price
    dev = np.flatnonzero(ph == DEVELOP)
    if dev.size:
        mask[dev, A.DEVELOP:A.DONE] = _develop_ok(s, dev, p[dev])
        mask[dev, A.DONE] = True
    pay = np.flatnonzero(ph == PAY)
    if pay.size:
        block = mask[:, A.PAY:A.SUBSIDY].reshape(B, NUM_RESOURCES, A.NUM_PAY_WAYS)
        block[pay, s.pending[pay, 0]] = _pay_ways(s, pay, p[pay])
    # "At any time during the game, a player may take one Subsidy token"
    mask[:, A.SUBSIDY] = live & ~s.subsidy[b, np.maximum(p, 0)]
    ended = s.terminated & live  # ended by an illegal action (on_illegal="penalize")
    if ended.any():
        mask[ended] = False
    return mask


def _chosen_legal(s: State, rows: np.ndarray, a: np.ndarray) -> np.ndarray:
    """bool[N]: is action ``a`` legal in each of the live games ``rows``? (One entry of the mask, cheaply.)"""
    ok = np.zeros(rows.size, bool)
    if rows.size == 0:
        return ok
    ph = s.phase[rows]
    p = s.current_player[rows].astype(np.int64)
    money = s.money[rows, p]
    ok |= (a == A.SUBSIDY) & ~s.subsidy[rows, p]
    era, col = np.divmod(a - A.AUCTION, NUM_COLUMNS)
    in_row = (ph == AUCTION) & (a >= A.AUCTION) & (a < A.PASS) & (era == s.era[rows])
    ok |= in_row & s.face_up[rows, np.where(in_row, col, 0)]
    is_bid = ph == BID
    k = a - A.BID + 1
    ok |= is_bid & ((a == A.PASS) | ((a >= A.BID) & (a < A.SELL) & (k > s.high_bid[rows]) & (k <= money)))
    sok = ph == SELL_OR_KEEP
    ok |= sok & ((a == A.SELL) | ((a == A.KEEP) & (money >= s.high_bid[rows])))
    is_dev = ph == DEVELOP
    ok |= is_dev & (a == A.DONE)
    sel = np.flatnonzero(is_dev & (a >= A.DEVELOP) & (a < A.DONE))
    if sel.size:
        ok[sel] = _develop_ok(s, rows[sel], p[sel], a[sel] - A.DEVELOP)
    sel = np.flatnonzero((ph == PAY) & (a >= A.PAY) & (a < A.SUBSIDY))
    if sel.size:
        r, way = np.divmod(a[sel] - A.PAY, A.NUM_PAY_WAYS)
        right = r == s.pending[rows[sel], 0]
        ok[sel] = right & _pay_ways(s, rows[sel], p[sel])[np.arange(sel.size), way]
    return ok


def _illegal_message(s: State, rows: np.ndarray, a: np.ndarray) -> str:
    """'game 3: action 'bid 9' is not legal for player 1 at this bid decision; legal: ...' for each game."""
    mask = legal_action_mask(take(s, rows))
    lines = []
    for j, (i, act) in enumerate(zip(rows.tolist(), a.tolist(), strict=True)):
        legal = np.flatnonzero(mask[j]).tolist()
        try:
            name = repr(A.action_to_string(act, s.board.resource_names))
        except ValueError:
            name = f"{act!r} (not an action of Industry, 0..{A.NUM_ACTIONS - 1})"
        shown = ", ".join(A.action_to_string(x, s.board.resource_names) for x in legal[:12])
        more = "" if len(legal) <= 12 else f", ... ({len(legal)} in all)"
        who = f"player {int(s.current_player[i])} at this {PHASES[int(s.phase[i])]} decision"
        lines.append(f"game {i} (seed {int(s.seed[i])}): action {name} is not legal for {who}; legal: {shown}{more}")
        if len(lines) == 10 and len(rows) > 10:
            lines.append(f"... and {len(rows) - 10} more games")
            break
    return f"step refused, state unchanged: {len(rows)} illegal action(s)\n" + "\n".join(lines)


# ---------------------------------------------------------------------------------------------- step
def step(state: State, actions: np.ndarray | Sequence[int], on_illegal: str = "raise", penalty: float = -1.0) -> State:
    """Play one action in every game (ignored in finished games) and return the new State.

    ``on_illegal``: ``"raise"`` refuses the whole step with :class:`IllegalActionError` (state unchanged);
    ``"penalize"`` ends each offending game with ``penalty`` for the player at fault (the Pgx convention, see
    the module docstring). The input state is never modified.
    """
    if on_illegal not in ("raise", "penalize"):
        raise ValueError(f"on_illegal={on_illegal!r}: expected 'raise' or 'penalize'")
    a_all = np.asarray(actions).reshape(-1)
    if a_all.shape[0] != state.batch_size:
        raise ValueError(f"{a_all.shape[0]} actions given for a batch of {state.batch_size}")
    if not np.issubdtype(a_all.dtype, np.integer):
        raise IllegalActionError(f"actions must be integers, got dtype {a_all.dtype}")
    a_all = a_all.astype(np.int64)
    live = np.flatnonzero(~state.terminated)
    a = a_all[live]
    legal = _chosen_legal(state, live, a)
    if not legal.all():
        bad = live[~legal]
        if on_illegal == "raise":
            raise IllegalActionError(_illegal_message(state, bad, a[~legal]))
    s = copy(state)
    s.rewards[:] = 0.0
    if not legal.all():
        # Pgx: "Taking illegal action leads to immediate game terminal with negative reward".
        fault = s.current_player[bad].astype(np.int64)
        present = _rows_players(s.num_players[bad])
        s.rewards[bad] = np.where(present, -penalty, 0.0)  # every other player is treated as a winner
        s.rewards[bad, fault] = penalty
        s.terminated[bad] = True
        live, a = live[legal], a[legal]
    _apply(s, live, a)
    return s


def _apply(s: State, rows: np.ndarray, a: np.ndarray) -> None:
    """Apply the legal actions ``a`` of the games ``rows`` in place, phase by phase."""
    if rows.size == 0:
        return
    ph = s.phase[rows]
    p = s.current_player[rows]
    sub = a == A.SUBSIDY
    _take_subsidy(s, rows[sub], p[sub])
    act = ~sub
    sel = act & (ph == AUCTION)
    _open_auction(s, rows[sel], a[sel] - A.AUCTION)
    sel = act & (ph == BID)
    _bid_or_pass(s, rows[sel], p[sel], np.where(a[sel] == A.PASS, 0, a[sel] - A.BID + 1))
    sel = act & (ph == SELL_OR_KEEP)
    _sell(s, rows[sel & (a == A.SELL)])
    _keep(s, rows[sel & (a == A.KEEP)])
    sel = act & (ph == DEVELOP)
    _end_development_turn(s, rows[sel & (a == A.DONE)])
    sel &= a != A.DONE
    _develop(s, rows[sel], p[sel], a[sel] - A.DEVELOP)
    sel = act & (ph == PAY)
    r, way = np.divmod(a[sel] - A.PAY, A.NUM_PAY_WAYS)
    _pay_resource(s, rows[sel], p[sel], r, way)


# ---------------------------------------------------------------------------------------------- observation
def observe(state: State, player: int | np.ndarray | None = None) -> np.ndarray:
    """float32[B, OBS_DIM]: each game seen from ``player`` (None: the player to move; seat 0 once over).

    The layout is :mod:`industry_env.observation`'s; ``observation.observe_game`` is the readable twin.
    """
    s = state
    B = s.batch_size
    if player is None:
        obs_p = np.maximum(s.current_player, 0).astype(np.int64)
    else:
        obs_p = np.broadcast_to(np.asarray(player, dtype=np.int64), (B,)).copy()
    n = s.num_players.astype(np.int64)
    if B and ((obs_p < 0) | (obs_p >= n)).any():
        raise ValueError("observer must be a player of the game (0 .. num_players - 1)")
    out = np.zeros((B, O.OBS_DIM), np.float32)
    v = O.views(out)
    b = np.arange(B)
    k = np.arange(P)[None, :]
    seat_ok = k < n[:, None]
    absolute = (obs_p[:, None] + k) % n[:, None]  # [B, 4]: relative seat k -> player

    def rel(q: np.ndarray) -> np.ndarray:
        """Relative-seat one-hot [B, 4] of players ``q`` (-1: all zero)."""
        q = q.astype(np.int64)
        r = (q - obs_p) % n
        return ((r[:, None] == k) & (q >= 0)[:, None]).astype(np.float32)

    v["four_players"][:, 0] = n == 4
    v["balanced_draws"][:, 0] = s.balanced_draws
    v["era"][b, s.era] = 1.0
    v["round"][:, 0] = s.round.astype(np.float32) / O.SCALE_ROUND
    v["phase"][b, s.phase] = 1.0
    v["to_move"][:] = rel(s.current_player)
    v["seat_present"][:] = seat_ok
    g = np.where(seat_ok, absolute, 0)
    v["money"][:] = np.where(seat_ok, s.money[b[:, None], g], 0).astype(np.float32) / O.SCALE_MONEY
    v["points"][:] = np.where(seat_ok, s.points[b[:, None], g], 0).astype(np.float32) / O.SCALE_POINTS
    v["subsidy"][:] = seat_ok & s.subsidy[b[:, None], g]
    v["jokers"][:] = np.where(seat_ok[:, :, None], s.jokers[b[:, None], g], 0)
    v["starting_player"][:] = rel(s.starting_player)
    v["auctioneer"][:] = rel(s.auctioneer)
    v["high_bidder"][:] = rel(s.high_bidder)
    v["developer"][:] = rel(s.developer)
    own = s.owner.astype(np.int64)
    r = (own - obs_p[:, None]) % n[:, None]
    v["owner"][:] = (r[:, :, None] == k[None]) & (own >= 0)[:, :, None]
    v["developed"][:] = s.developed
    v["claimed"][:] = s.claimed
    v["available"][:] = _available(s)
    in_bag = np.arange(NUM_COLUMNS)[None, :] >= s.bag_pos[:, None]
    bag_rows, bag_j = np.nonzero(in_bag)
    v["in_bag"][bag_rows, s.bag[bag_rows, bag_j]] = 1.0
    lot = np.flatnonzero(s.lot >= 0)
    v["lot"][lot, s.lot[lot]] = 1.0
    v["high_bid"][:, 0] = s.high_bid.astype(np.float32) / O.SCALE_MONEY
    v["developments"][:, 0] = s.developments
    v["dev_turns"][:, 0] = s.dev_turns
    dv = np.flatnonzero(s.developing >= 0)
    v["developing"][dv, s.developing[dv]] = 1.0
    for j in range(2):
        pr = np.flatnonzero(s.pending[:, j] >= 0)
        v["pending"][pr, j, s.pending[pr, j]] = 1.0
    return out


# ---------------------------------------------------------------------------------------------- batch surgery
def copy(state: State) -> State:
    """An independent copy of the batch (every array copied; the board shared)."""
    return State(board=state.board, **{k: v.copy() for k, v in state.arrays().items()})


def take(state: State, i: int | np.ndarray | Sequence[int]) -> State:
    """The game(s) ``i`` as a new State (an int gives a batch of 1)."""
    idx = np.atleast_1d(np.asarray(i, dtype=np.int64))
    return State(board=state.board, **{k: v[idx] for k, v in state.arrays().items()})


def put(state: State, i: int, single: State) -> State:
    """A new State equal to ``state`` with game ``i`` replaced by the one game of ``single``."""
    if single.batch_size != 1:
        raise ValueError(f"put needs a batch of 1, got {single.batch_size}")
    if single.board is not state.board:
        raise ValueError("put: the two states use different boards")
    out = copy(state)
    for k, v in single.arrays().items():
        getattr(out, k)[i] = v[0]
    return out


def concat(states: Sequence[State]) -> State:
    """One State holding all the games of ``states`` in order (they must share the board)."""
    if not states:
        raise ValueError("concat needs at least one State")
    board = states[0].board
    if any(s.board is not board for s in states):
        raise ValueError("concat: the states use different boards")
    return State(board=board, **{k: np.concatenate([getattr(s, k) for s in states]) for k in _ARRAY_FIELDS})


def to_game(state: State, i: int) -> Game:
    """Game ``i`` as a reference :class:`Game` (through its checked JSON form)."""
    s, n = state, int(state.num_players[i])
    doc = {
        "version": JSON_VERSION,
        "board": s.board.path,
        "num_players": n,
        "balanced_draws": bool(s.balanced_draws[i]),
        "seed": int(s.seed[i]),
        "era": int(s.era[i]),
        "round": int(s.round[i]),
        "starting_player": int(s.starting_player[i]),
        "bag": s.bag[i, int(s.bag_pos[i]):].astype(int).tolist(),
        "face_up": s.face_up[i].tolist(),
        "claimed": s.claimed[i].tolist(),
        "owner": s.owner[i].astype(int).tolist(),
        "developed": s.developed[i].tolist(),
        "money": s.money[i, :n].astype(int).tolist(),
        "points": s.points[i, :n].astype(int).tolist(),
        "jokers": s.jokers[i, :n].astype(int).tolist(),
        "subsidy": s.subsidy[i, :n].tolist(),
        "phase": PHASES[int(s.phase[i])],
        "auctioneer": int(s.auctioneer[i]),
        "lot": int(s.lot[i]),
        "bidder": int(s.bidder[i]),
        "high_bid": int(s.high_bid[i]),
        "high_bidder": int(s.high_bidder[i]),
        "developer": int(s.developer[i]),
        "developments": int(s.developments[i]),
        "dev_turns": int(s.dev_turns[i]),
        "developing": int(s.developing[i]),
        "pending": [int(r) for r in s.pending[i] if r >= 0],
    }
    return Game.from_json(json.dumps(doc), board=s.board)


def from_games(games: Sequence[Game]) -> State:
    """A State holding the reference games ``games`` (same board), caches rebuilt, rewards zero."""
    if not games:
        raise ValueError("from_games needs at least one game")
    board = games[0].board
    if any(g.board is not board for g in games):
        raise ValueError("from_games: the games use different boards")
    s = _empty(len(games), board)
    t = _tables(board)
    for i, g in enumerate(games):
        d = g.s
        n = d.num_players
        s.seed[i], s.num_players[i], s.balanced_draws[i] = d.seed, n, d.balanced_draws
        s.era[i], s.round[i], s.starting_player[i] = d.era, d.round, d.starting_player
        drawn = NUM_COLUMNS - len(d.bag)
        s.bag_pos[i] = drawn
        full = chance.bag_order(d.seed, d.era)  # the seed's order, if the bag is its tail (else -1 before it)
        s.bag[i] = full if full[drawn:].tolist() == list(d.bag) else [-1] * drawn + list(d.bag)
        s.face_up[i], s.claimed[i], s.owner[i], s.developed[i] = d.face_up, d.claimed, d.owner, d.developed
        s.money[i, :n], s.points[i, :n], s.jokers[i, :n], s.subsidy[i, :n] = d.money, d.points, d.jokers, d.subsidy
        s.phase[i] = PHASES.index(d.phase)
        s.auctioneer[i], s.lot[i], s.bidder[i] = d.auctioneer, d.lot, d.bidder
        s.high_bid[i], s.high_bidder[i] = d.high_bid, d.high_bidder
        s.developer[i], s.developments[i], s.dev_turns[i] = d.developer, d.developments, d.dev_turns
        s.developing[i] = d.developing
        s.pending[i, : len(d.pending)] = d.pending
        s.terminated[i] = d.phase == "over"
        for q in range(n):
            mine = (s.owner[i] == q) & s.developed[i]
            s.discount[i, q] = int(t.DISCOUNT[mine].sum())
            made = t.PRODUCES[mine]
            s.produces[i, q, made[made >= 0]] = True
    return s


# ---------------------------------------------------------------------------------------------- random play
def sample_legal(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """int64[B]: one action per row drawn uniformly from the True entries of ``mask`` (0 for an empty row).

    For random play in benchmarks and tests: a few array operations, no loop over games.
    """
    B, n_actions = mask.shape
    count = np.count_nonzero(mask, axis=1)
    flat = np.flatnonzero(mask)  # row-major: row b's legal actions are contiguous
    start = np.cumsum(count) - count
    pick = start + (rng.random(B) * count).astype(np.int64)
    out = np.zeros(B, np.int64)
    has = count > 0
    out[has] = flat[pick[has]] - np.flatnonzero(has) * n_actions
    return out
