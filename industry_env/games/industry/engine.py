"""The batched numpy engine of Industry: B games as one dataclass of arrays, stepped together.

This is the fast engine for reinforcement learning; :mod:`industry_env.games.industry.reference` is the readable oracle
it is checked against, game by game (``tests/industry/test_engine_differential.py``, ``industry-env verify``). Each rule
below is the reference's rule written as array code over the batch: one function per phase, named as the
reference names it, looping only over the small fixed dimensions (players, the two resources of a field).

Functional API
==============
=============================================  ==========================================================
``init(B, num_players=4, seed=0, board=None,    B new games; game i has seed ``seed + i`` (or ``seed[i]`` for
balanced_draws=True) -> State``                 an int array), so it equals ``reference.Game(n, seed + i)``
``step(state, actions, on_illegal="raise",      one action per game -> a new State (the input is unchanged;
inplace=False, mask=None)``                     ``inplace=True``: updated in place and returned, no copy;
                                                ``mask``: the state's legal-action mask, checked against it)
``legal_action_mask(state) -> bool[B, 314]``    legal actions of the player to move; all False once over
``observe(state, player=None) -> f32[B, D]``    :mod:`.observation` layout, seen from ``player``
``scores(state) -> int16[B, 4]``                Scoring Track; final scores once a game is over
``reset(state, done, seeds=None,                new games in the rows of ``done`` (a new State;
inplace=False) -> State``                       ``inplace=True``: in place)
``take / put / concat / copy``                  batch surgery: a game out (batch of 1), in, batches joined
``to_game(state, i) / from_games(games)``       to and from :class:`.reference.Game` (its JSON)
=============================================  ==========================================================

State fields: declared once in :mod:`.state` (``SCHEMA``: name, dtype, shape per game, fill, meaning; the table
is in ``docs/industry/engine.md``).

``state.current_player`` (int8[B], -1 once over) is derived from the phase. ``board`` is shared by the batch.
The state is 364 bytes per game (``State.state_bytes_per_game``); the caches are redundant with ``owner`` and
``developed`` and rebuilt by ``from_games``.

Conventions (enforced in :func:`step`)
======================================
* Illegal action, ``on_illegal="raise"`` (default): the step is refused with :class:`IllegalActionError`
  naming every offending game and its action (and the legal ones); the state is unchanged (``step`` never
  mutates its input, unless ``inplace=True``; a refused step leaves even that state unchanged).
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
* Fast path for training loops: ``step(state, actions, inplace=True, mask=mask)`` and
  ``reset(state, done, inplace=True)`` update ``state`` itself (no copy of the batch) and check the actions
  against ``mask``, which must be ``legal_action_mask(state)`` of this very state (the one the actions were
  sampled from); the result is identical to the functional calls.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
from collections.abc import Iterator, Sequence
from functools import lru_cache
from types import ModuleType, SimpleNamespace

import numpy as np

from ...core import batched
from ...core.sampling import pick_uniform
from ...core.state import BatchState
from . import actions as A
from . import chance
from . import observation as O
from .components import Board, load_board
from .positions import JSON_VERSION, PHASES
from .reference import Game, IllegalActionError
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
from .state import SCHEMA

__all__ = [
    "State", "init", "step", "finished", "legal_action_mask", "observe", "scores", "reset", "take", "put", "concat",
    "copy", "to_game", "from_games", "ranking", "sample_legal", "random_step", "rollout", "backend", "set_backend",
    "use_backend",
    "IllegalActionError",
    "AUCTION", "BID", "SELL_OR_KEEP", "DEVELOP", "PAY", "OVER",
]  # fmt: skip

AUCTION, BID, SELL_OR_KEEP, DEVELOP, PAY, OVER = range(6)  # the order of reference.PHASES
P = MAX_PLAYERS
_MAX_TOKENS = 4  # tokens drawn in a round: one per player, at most 4 with the balanced draws


class State(BatchState):
    """B games of Industry as arrays, the fields of :data:`.state.SCHEMA`, and the ``board`` they share."""

    SCHEMA = SCHEMA
    EXTRAS = ("board",)

    @property
    def current_player(self) -> np.ndarray:
        """int8[B]: the player whose decision is awaited, -1 once the game is over (or ended by a penalty)."""
        if _backend == "numba":
            from . import observe_kernel

            return observe_kernel.current_player(self)
        ph = self.phase
        out = np.where(ph == BID, self.bidder, self.auctioneer)
        out = np.where(ph >= DEVELOP, self.developer, out)
        return np.where((ph == OVER) | self.terminated, np.int8(-1), out).astype(np.int8, copy=False)


_ARRAY_FIELDS = SCHEMA.names
_DTYPES = {f.name: f.dtype for f in SCHEMA.fields}
_FILL = {f.name: f.fill for f in SCHEMA.fields if f.fill}


_LAYOUT, _BYTES_PER_GAME = SCHEMA.offset, SCHEMA.bytes_per_game


# ---------------------------------------------------------------------------------------------- backends
_BACKENDS = ("numpy", "numba")


def _check_backend(name: str, where: str) -> str:
    """``name`` if it is a usable backend, else a clear error saying what is wrong and how to fix it."""
    if name not in _BACKENDS:
        raise ValueError(f"{where}={name!r}: expected 'numpy' or 'numba'")
    if name == "numba" and importlib.util.find_spec("numba") is None:
        raise ValueError(f"{where}='numba' but numba is not installed: pip install 'industry_env[fast]'")
    return name


def _default_backend() -> str:
    """``INDUSTRY_ENV_BACKEND`` if set, else the compiled kernel where numba is installed, else numpy."""
    want = os.environ.get("INDUSTRY_ENV_BACKEND", "").strip().lower()
    if want:
        return _check_backend(want, "INDUSTRY_ENV_BACKEND")
    return "numba" if importlib.util.find_spec("numba") is not None else "numpy"


_backend = _default_backend()


def backend() -> str:
    """The backend that runs ``legal_action_mask``, ``step``, ``sample_legal`` and ``rollout``: 'numba' (the
    compiled kernel, :mod:`industry_env.games.industry.kernel`) or 'numpy' (this module's array rules); the results
    agree."""
    return _backend


def set_backend(name: str) -> None:
    """Switch the backend of this process ('numpy' or 'numba'; the default comes from ``INDUSTRY_ENV_BACKEND``)."""
    global _backend
    _backend = _check_backend(name, "backend")


def _kernel() -> ModuleType:
    """:mod:`industry_env.games.industry.kernel`, imported and warmed up (compiled, or loaded from numba's disk
    cache) once (an import statement per call costs a microsecond at batch 1)."""
    global _kernel_module
    if _kernel_module is None:
        from . import kernel

        kernel.warm_up(State, load_board())
        _kernel_module = kernel
    return _kernel_module


_kernel_module = None


@contextlib.contextmanager
def use_backend(name: str | None) -> Iterator[str]:
    """Run a block with backend ``name`` (None: keep the current one), then restore the previous one."""
    before = _backend
    set_backend(name or before)
    try:
        yield _backend
    finally:
        set_backend(before)


def _from_buffer(buf: np.ndarray, batch_size: int, board: Board) -> State:
    """The State whose arrays are the views of ``buf`` (uint8[B * bytes per game]) laid out by ``_LAYOUT``."""
    return State.from_buffer(buf, batch_size, board=board)  # fields viewed on first use


# ---------------------------------------------------------------------------------------------- board tables
@lru_cache(maxsize=8)
def board_tables(board: Board) -> SimpleNamespace:
    """Board facts as the flat numpy tables the array rules index, built once per board."""
    b = board
    needs = b.NEEDS.astype(np.int64)
    # tokens[n - 3, balanced, era]: column tokens drawn a round (rules.tokens_per_round)
    tokens = np.array(
        [[[tokens_per_round(n, e, bal) for e in range(NUM_ERAS)] for bal in (False, True)]
         for n in (MIN_PLAYERS, MAX_PLAYERS)], np.int8,
    )  # fmt: skip
    links = [b.ROADS.astype(np.int64), b.TECH_LINKS.astype(np.int64)]
    max_discount = int(np.maximum(b.DISCOUNT, 0).sum())  # a player owning every Bank and Stock Exchange
    return SimpleNamespace(
        KIND=b.KIND.astype(np.int8),
        ERA=b.ERA.astype(np.int8),
        COLUMN=b.COLUMN.astype(np.int64),
        NEED=np.maximum(needs, 0),  # int64[60, 2], -1 replaced by 0 (use with NEED_OK)
        NEED_OK=needs >= 0,
        # a field needing one resource twice (["Glass", "Glass"]): two payments; its second unit has no joker
        # of its own unless two are held. TWICE_ANY: the board has such a field (else that work is skipped).
        NEED_TWICE=(needs[:, 0] == needs[:, 1]) & (needs[:, 0] >= 0),
        TWICE_ANY=bool(((needs[:, 0] == needs[:, 1]) & (needs[:, 0] >= 0)).any()),
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
        # The development rules as lookups: a field's two needs as columns of a [N, 12] per-resource array
        # (an absent need -> column 11, always False there); the construction cost [discount, field], "never
        # reduced below zero"; [era, field]: not a Technology outside its era.
        NEED_COL=np.where(needs >= 0, needs, WILD_JOKER).T.copy(),  # int64[2, 60]
        NET_COST=np.maximum(b.COST[None, :] - np.arange(max_discount + 1)[:, None], 0).astype(np.int16),
        ERA_OK=~((b.KIND == TECHNOLOGY)[None, :] & (np.arange(NUM_ERAS)[:, None] != b.ERA[None, :])),  # bool[5, 60]
    )


def rows_players(n: np.ndarray) -> np.ndarray:
    """bool[N, P]: which player slots take part in each game."""
    return np.arange(P)[None, :] < n[:, None]


def _count_row(x: np.ndarray) -> np.ndarray:
    """int[N]: True entries in each row of ``x`` (bool[N, 12]): its 12 bytes summed as three 4-byte words.

    numpy reduces short rows slowly (``x.any(axis=1)``: ~13 ns a row); this is a few whole-array operations.
    """
    w = np.ascontiguousarray(x).view(np.uint32)  # [N, 3]; each byte 0 or 1, so byte sums never carry
    w = w[:, 0] + w[:, 1] + w[:, 2]
    return (w * np.uint32(0x01010101)) >> np.uint32(24)  # the sum of the four bytes


def _flat(a: np.ndarray) -> np.ndarray:
    """``a`` (shape [B, K, ...]) as [B * K, ...]: entry ``a[b, k]`` is ``_flat(a)[b * K + k]``.

    One flat index array gathers and scatters several times faster than two (numpy's multi-index path). It is
    a view, written through, for the C-contiguous arrays of a State being stepped (see :func:`_writable`).
    """
    return a.reshape(-1, *a.shape[2:])


_FLAT_WRITTEN = ("claimed", "owner", "developed", "face_up", "money", "points", "jokers", "subsidy", "produces",
                 "discount")  # fmt: skip


def _to_write(state: State, inplace: bool) -> State:
    """The State a compiled step writes: ``state`` itself when in place on its buffer, else :func:`_writable`."""
    return state if inplace and state.buffer is not None else _writable(state, inplace)


def _writable(state: State, inplace: bool) -> State:
    """The State a step or reset writes: a copy, or (``inplace``) ``state`` itself, its arrays that the rules
    write through :func:`_flat` made C-contiguous (they always are, unless replaced by a strided view)."""
    if not inplace:
        return state.copy()
    for name in _FLAT_WRITTEN:
        a = getattr(state, name)
        if not a.flags.c_contiguous:
            setattr(state, name, np.ascontiguousarray(a))
    return state


# ---------------------------------------------------------------------------------------------- init
def _empty(batch_size: int, board: Board) -> State:
    """A batch of all-zero (or -1) arrays of the right dtypes and shapes, views of one buffer (``_from_buffer``)."""
    return State.empty(batch_size, board=board)


_MAX_SEED = batched.MAX_SEED
# The shared front's checks (core.batched), under this module's old names
_seeds, _is_whole, _rows_of = batched.seeds, batched.is_whole, batched.rows_of


def _new_games(
    s: State,
    rows: np.ndarray,
    seeds: np.ndarray,
    n: np.ndarray,
    balanced: np.ndarray,
    next_mask: np.ndarray | None = None,
) -> None:
    """Preparing the Game, in place, for the games ``rows`` of ``s`` (then the first round begins); their
    legal-action masks into the rows of ``next_mask`` if given."""
    if _backend == "numba":
        _kernel().new_games(s, rows, seeds, n, balanced, next_mask)
        return
    for name in _ARRAY_FIELDS:
        getattr(s, name)[rows] = _FILL.get(name, 0)
    s.seed[rows] = seeds
    s.num_players[rows] = n
    s.balanced_draws[rows] = balanced
    # "Give each player 4 Talers"; "Randomly decide which player takes the Starting Player marker".
    s.money[rows] = np.where(rows_players(n), STARTING_MONEY, 0)
    s.starting_player[rows] = chance.starting_player(seeds, n)
    # "Place the Column tokens in the bag and mix them."
    s.bag[rows] = chance.bag_order(seeds, 0)
    _begin_round(s, rows)
    if next_mask is not None and rows.size:
        next_mask[rows] = legal_action_mask(s.take(rows))


def _new_state(batch_size: int, board: Board | None = None,
               balanced_draws: bool | np.ndarray = True) -> tuple[State, tuple[np.ndarray]]:  # fmt: skip
    """``init``'s options checked: an empty State on ``board`` and each game's draw variant."""
    raw_b = np.asarray(balanced_draws)
    zero_one = np.issubdtype(raw_b.dtype, np.integer) and np.isin(raw_b, (0, 1)).all()  # 0/1 flags per game
    if (raw_b.dtype != bool and not zero_one) or raw_b.ndim > 1 or (raw_b.ndim == 1 and raw_b.size != batch_size):
        raise ValueError(f"balanced_draws={balanced_draws!r}: must be True or False (or one bool per game)")
    bal = np.broadcast_to(raw_b.astype(bool), (batch_size,)).copy()
    return _empty(batch_size, board if board is not None else load_board()), (bal,)


# ---------------------------------------------------------------------------------------------- Phases 1, 2, 5
def _begin_round(s: State, rows: np.ndarray) -> None:
    """Phase 1 (income), Phase 2 (new column tokens) and the start of Phase 3 for the games ``rows``."""
    if rows.size == 0:
        return
    t = board_tables(s.board)
    n = s.num_players[rows]
    s.round[rows] += 1
    # Phase 2: "The Starting Player draws one Column token per player from the bag" (balanced: 3 or 4).
    k = t.TOKENS[n - MIN_PLAYERS, s.balanced_draws[rows].astype(np.int64), s.era[rows]]
    pos = s.bag_pos[rows].astype(np.int64)
    valid = np.arange(_MAX_TOKENS)[None, :] < k[:, None]  # [N, 4]
    at = rows[:, None] * NUM_COLUMNS  # flat index of (game, column 0) in bag and face_up
    drawn = _flat(s.bag)[at + np.minimum(pos[:, None] + np.arange(_MAX_TOKENS), NUM_COLUMNS - 1)]  # [N, 4]
    _flat(s.face_up)[(at + drawn)[valid]] = True
    s.bag_pos[rows] = pos + k
    # Phase 1: Income. "Each player takes 1 Taler from the bank." And "If the Column token with a coin symbol is
    # drawn, each player immediately takes one Taler".
    coin = ((drawn == COIN_COLUMN) & valid).any(axis=1)
    income = INCOME + COIN_TOKEN_MONEY * coin.astype(np.int16)
    s.money[rows] += np.where(rows_players(n), income[:, None], 0).astype(np.int16)
    # Phase 3: "The Starting Player is the first Auctioneer".
    s.phase[rows] = AUCTION
    s.auctioneer[rows] = s.starting_player[rows]


def _new_starting_player(s: State, rows: np.ndarray) -> None:
    """Phase 5, the change of Era, and the end of the game, for the games ``rows``."""
    if rows.size == 0:
        return
    n = s.num_players[rows]
    # "the Starting Player marker moves clockwise to the next player"
    s.starting_player[rows] = (s.starting_player[rows] + 1) % n
    era = s.era[rows]
    era_row = s.claimed.reshape(-1, NUM_COLUMNS).take(rows * NUM_ERAS + era, axis=0)  # [N, 12]
    era_done = _count_row(era_row) == NUM_COLUMNS  # every field of the era auctioned
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
_Claims = tuple[np.ndarray, np.ndarray, np.ndarray]  # games, claimant, next auctioneer (for _claim, _next_auction)
_NO_CLAIMS: _Claims = (np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64))


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


def _bid_or_pass(s: State, rows: np.ndarray, p: np.ndarray, amount: np.ndarray) -> _Claims:
    """A bid (amount > 0) or a pass; after the last bidder, the auctioneer decides (or must claim)."""
    if rows.size == 0:
        return _NO_CLAIMS
    bids = amount > 0
    bidders = rows[bids]
    s.high_bid[bidders] = amount[bids]
    s.high_bidder[bidders] = p[bids]
    nxt = (p + 1) % s.num_players[rows]
    s.bidder[rows] = nxt
    last = rows[nxt == s.auctioneer[rows]]
    has_bid = s.high_bidder[last] >= 0
    s.phase[last[has_bid]] = SELL_OR_KEEP
    # No Bids: "the Auctioneer must claim the field himself, although he pays nothing." (Then the next auction.)
    no_bid = last[~has_bid]
    auct = s.auctioneer[no_bid]
    return no_bid, auct, auct + 1


def _sell(s: State, rows: np.ndarray) -> _Claims:
    """'He can let the highest bidder claim the field and take the appropriate amount of money'."""
    if rows.size == 0:
        return _NO_CLAIMS
    hb, price, auct = s.high_bidder[rows], s.high_bid[rows], s.auctioneer[rows]
    _flat(s.money)[rows * P + hb] -= price
    _flat(s.money)[rows * P + auct] += price
    return rows, hb, auct  # the highest bidder claims; "He remains the Auctioneer"


def _keep(s: State, rows: np.ndarray) -> _Claims:
    """'He claims the field himself, paying an amount equal to the highest bid.'"""
    if rows.size == 0:
        return _NO_CLAIMS
    auct = s.auctioneer[rows]
    s.money[rows] += _KEEP_PAYMENTS[s.num_players[rows] - MIN_PLAYERS, auct, s.high_bid[rows]]
    return rows, auct, auct + 1  # "His left-hand neighbor becomes the new Auctioneer"


def _keep_payments() -> np.ndarray:
    """int16[2, P, MAX_BID + 1, P]: [n - 3, auctioneer, price] -> each player's change of money in a keep.

    "starting with the player to his left, the Auctioneer gives each player - including himself - 1 Taler until
    he has paid the full price": the player k seats to his left (k = 1..n, n = himself) receives one Taler for
    each i < price with i % n == k - 1, and the Auctioneer pays the price.
    """
    n = np.arange(MIN_PLAYERS, MAX_PLAYERS + 1)[:, None, None, None]
    auct = np.arange(P)[None, :, None, None]
    price = np.arange(MAX_BID + 1)[None, None, :, None]
    q = np.arange(P)[None, None, None, :]
    k = (q - auct - 1) % n + 1  # seats to the Auctioneer's left
    change = np.where(q < n, (price - k + n) // n, 0) - np.where(q == auct, price, 0)
    return np.where(auct < n, change, 0).astype(np.int16)


_KEEP_PAYMENTS = _keep_payments()


def _claim(s: State, rows: np.ndarray, p: np.ndarray) -> None:
    """Claim a Field: a Property token clock side up, or, on a Joker field, the Joker token in hand."""
    if rows.size == 0:
        return
    t = board_tables(s.board)
    f = s.lot[rows].astype(np.int64)
    rf = rows * NUM_FIELDS + f
    _flat(s.claimed)[rf] = True
    joker = t.IS_JOKER[f]
    s.jokers[rows[joker], p[joker], t.JOKER_KIND[f[joker]]] += 1
    _flat(s.owner)[rf[~joker]] = p[~joker]
    _flat(s.face_up)[rows * NUM_COLUMNS + t.COLUMN[f]] = False  # "turn the corresponding Column token face-down"


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
    _begin_development(s, rows[_count_row(s.face_up.take(rows, axis=0)) == 0])


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
    t = board_tables(s.board)
    producers = s.produces.take(rows, axis=0)  # [N, P, 11], a copy
    producers.reshape(-1, NUM_RESOURCES)[np.arange(rows.size) * P + p] = False  # other players' factories only
    buyable = s.era[rows][:, None] >= t.BANK_ERA[None, :]
    for q in range(P):
        buyable |= producers[:, q]
    return buyable


def _payable(only_wild: np.ndarray, to_pay: np.ndarray, wild: np.ndarray, money: np.ndarray) -> np.ndarray:
    """Can a field's required resources all be paid with these jokers and Talers?

    ``to_pay``: how many of its required units have neither an own developed factory nor an own joker (a unit
    with its own joker is paid by it; a resource needed twice takes two of its jokers); ``only_wild``: how
    many of those only the "?" joker can pay (not buyable); ``wild``: "?" jokers held; ``money``: Talers left
    after the construction cost (arrays broadcast together). This is the reference's exhaustive search
    (``_can_pay_all``) in closed form, a resource's own jokers serving only it: the "?" jokers cover the
    ``only_wild`` ones, and "?" jokers and Talers together cover all.
    """
    return (only_wild <= wild) & (to_pay <= wild + money)


def _develop_ok(s: State, rows: np.ndarray, p: np.ndarray) -> np.ndarray:
    """bool[N, 60]: may ``p`` (int[N]) develop each field now? Rows of the development mask.

    The cheap tests run on whole rows, the costlier ones only on the few candidate (game, field) pairs left.
    """
    t = board_tables(s.board)
    # own fields whose Property token still shows the clock (.take: a faster row gather than indexing)
    ok = s.owner.take(rows, axis=0) == p.astype(np.int8)[:, None]
    ok &= ~s.developed.take(rows, axis=0)
    # "Technologies may be developed only if they are located in the current Era."
    ok &= t.ERA_OK.take(s.era[rows], axis=0)
    candidates = ok.reshape(-1).nonzero()[0]
    i, f = np.divmod(candidates, NUM_FIELDS)
    rp = rows * P + p  # flat (game, player) index: one index array gathers faster than two
    # construction cost, less the Bank / Stock Exchange discount, "never reduced below zero"
    discount = s.discount.reshape(-1)[rp].astype(np.int64)
    money = s.money.reshape(-1)[rp][i] - t.NET_COST.reshape(-1)[discount[i] * NUM_FIELDS + f]
    # "If you do not have enough money, or a required resource is not available, you may not develop"
    jok = s.jokers.reshape(-1, NUM_JOKER_KINDS).take(rp, axis=0)  # [N, 12]
    # per resource: to be paid (own developed factories pay automatically), and by the "?" joker only (not
    # buyable); column WILD_JOKER stays False and stands for a field's absent need
    to_pay = jok == 0
    to_pay[:, :NUM_RESOURCES] &= ~s.produces.reshape(-1, NUM_RESOURCES).take(rp, axis=0)
    to_pay[:, WILD_JOKER] = False
    only_wild = to_pay.copy()
    buyable = _buyable(s, rows, p)
    only_wild[:, :NUM_RESOURCES] &= ~buyable
    wild = jok[i, WILD_JOKER]
    n_only_wild, n_to_pay = _count_needs(t, only_wild, i, f), _count_needs(t, to_pay, i, f)
    if t.TWICE_ANY:  # a resource needed twice with one joker of it: the joker pays one unit, the other is due
        twice = np.flatnonzero(t.NEED_TWICE[f])
        if twice.size:
            it, r = i[twice], t.NEED[f[twice], 0]
            second = (jok[it, r] == 1) & ~s.produces.reshape(-1, NUM_RESOURCES)[rp[it], r]
            n_to_pay[twice] += second
            n_only_wild[twice] += second & ~buyable[it, r]
    pay = _payable(n_only_wild, n_to_pay, wild, money)
    ok.reshape(-1)[candidates] = (money >= 0) & pay
    return ok


def _count_needs(t: SimpleNamespace, per_resource: np.ndarray, i: np.ndarray, f: np.ndarray) -> np.ndarray:
    """int[K]: how many of field ``f``'s required resources are True in ``per_resource[i]`` (bool[N, 12])."""
    flat = per_resource.reshape(-1).view(np.int8)
    return flat[i * NUM_JOKER_KINDS + t.NEED_COL[0][f]] + flat[i * NUM_JOKER_KINDS + t.NEED_COL[1][f]]


def _develop(s: State, rows: np.ndarray, p: np.ndarray, f: np.ndarray) -> np.ndarray:
    """Pay the construction cost; then pay each required resource, or finish at once if none is due.

    Returns the games that finish at once (for :func:`_finish_development`).
    """
    if rows.size == 0:
        return rows
    t = board_tables(s.board)
    rp = rows * P + p
    # "He must pay the construction costs ... to the bank" (less the discount, never below zero)
    _flat(s.money)[rp] -= t.NET_COST[_flat(s.discount)[rp], f]
    s.developing[rows] = f
    need = t.NEED[f]  # [N, 2]
    due = t.NEED_OK[f] & ~_flat(_flat(s.produces))[rp[:, None] * NUM_RESOURCES + need]  # own factories pay
    first = np.where(due[:, 0], need[:, 0], np.where(due[:, 1], need[:, 1], -1))
    second = np.where(due[:, 0] & due[:, 1], need[:, 1], -1)
    s.pending[rows] = np.stack([first, second], axis=1)
    none_due = first < 0
    s.phase[rows[~none_due]] = PAY
    return rows[none_due]


# By way to pay (PAY_JOKER, PAY_WILD, PAY_BANK, players): "?" jokers it spends; Talers then needed for the next
_WILD_SPENT = (np.arange(A.NUM_PAY_WAYS) == A.PAY_WILD).astype(np.int8)
_TALERS_NEEDED = (RESOURCE_PRICE * (1 + (np.arange(A.NUM_PAY_WAYS) >= A.PAY_BANK))).astype(np.int16)
_OTHERS = ~np.eye(P, dtype=bool)  # [p, q]: q is another player than p


def _pay_ways(s: State, rows: np.ndarray, p: np.ndarray) -> np.ndarray:
    """bool[N, 7]: legal ways to pay the first pending resource, the rest staying payable afterwards."""
    t = board_tables(s.board)
    rp = rows * P + p
    r = s.pending[rows, 0].astype(np.int64)
    r2 = s.pending[rows, 1].astype(np.int64)
    r2c = np.maximum(r2, 0)
    jok = _flat(s.jokers).take(rp, axis=0)  # [N, 12]
    money, wild, era = _flat(s.money)[rp], jok[:, WILD_JOKER], s.era[rows]
    # other players' developed factories making the resource: [N, P], by flat index (row, player, resource)
    at = (rows * (P * NUM_RESOURCES))[:, None] + np.arange(0, P * NUM_RESOURCES, NUM_RESOURCES)[None, :]
    others = _flat(_flat(s.produces))[at + r[:, None]] & _OTHERS[p]
    cash = money >= RESOURCE_PRICE
    ways = np.empty((rows.size, A.NUM_PAY_WAYS), bool)
    ways[:, A.PAY_JOKER] = _flat(jok)[np.arange(rows.size) * NUM_JOKER_KINDS + r] > 0  # "a Joker token of ..."
    ways[:, A.PAY_WILD] = wild > 0  # "The Joker token labeled ? is worth one resource of your choice."
    ways[:, A.PAY_BANK] = cash & ~_any_player(others) & (era >= t.BANK_ERA[r])
    ways[:, A.PAY_PLAYER :] = cash[:, None] & others
    # Would the second resource (if any) still be payable after each way? (See _buyable.)
    others2 = _flat(_flat(s.produces))[at + r2c[:, None]] & _OTHERS[p]
    buy2 = _any_player(others2) | (era >= t.BANK_ERA[r2c])
    free2 = (r2 < 0) | (_flat(jok)[np.arange(rows.size) * NUM_JOKER_KINDS + r2c] > 0)
    rest_ok = free2[:, None] | (wild[:, None] > _WILD_SPENT) | (buy2[:, None] & (money[:, None] >= _TALERS_NEEDED))
    if t.TWICE_ANY:  # the same resource twice: its only joker, spent on the first, cannot pay the second
        last = (r2 == r) & (_flat(jok)[np.arange(rows.size) * NUM_JOKER_KINDS + r2c] == 1)
        rest_ok[last, A.PAY_JOKER] = (wild > 0)[last] | (buy2 & (money >= RESOURCE_PRICE))[last]
    return ways & rest_ok


def _any_player(x: np.ndarray) -> np.ndarray:
    """bool[N]: any of the P columns of ``x`` (bool[N, P]); faster than ``x.any(axis=1)`` on short rows."""
    out = x[:, 0] | x[:, 1]
    for q in range(2, P):
        out |= x[:, q]
    return out


def _pay_resource(s: State, rows: np.ndarray, p: np.ndarray, r: np.ndarray, way: np.ndarray) -> np.ndarray:
    """Pay one resource by ``way``; once none is pending, the field is developed (the games returned)."""
    if rows.size == 0:
        return rows
    # a joker of the resource, or the "?" joker, is given up; else a Taler, to the bank or to a player
    rp = rows * P + p
    joker = np.where(way == A.PAY_WILD, WILD_JOKER, r)
    _flat(_flat(s.jokers))[rp * NUM_JOKER_KINDS + joker] -= (way <= A.PAY_WILD).astype(np.int8)
    _flat(s.money)[rp] -= np.where(way >= A.PAY_BANK, RESOURCE_PRICE, 0).astype(np.int16)
    to_player = way >= A.PAY_PLAYER
    _flat(s.money)[(rows * P + way - A.PAY_PLAYER)[to_player]] += RESOURCE_PRICE
    second = s.pending[rows, 1]
    s.pending[rows, 0] = second
    s.pending[rows, 1] = -1
    return rows[second < 0]


def _finish_development(s: State, rows: np.ndarray) -> np.ndarray:
    """Flip the Property token and score the cogwheel's points; two developments end the turn (those returned)."""
    if rows.size == 0:
        return rows
    t = board_tables(s.board)
    f, p = s.developing[rows].astype(np.int64), s.developer[rows]
    rp = rows * P + p
    _flat(s.developed)[rows * NUM_FIELDS + f] = True
    # "You receive points for developing a Factory only if that Factory is located in the current Era."
    # Technologies are developed only in their era; "Bonus fields earn victory points only at the end".
    scores = t.IS_TECH[f] | (t.IS_FACTORY[f] & (t.ERA[f] == s.era[rows]))
    _flat(s.points)[rp] += np.where(scores, t.POINTS[f], 0).astype(np.int16)
    makes = t.PRODUCES[f] >= 0
    _flat(s.produces)[rp[makes], t.PRODUCES[f[makes]]] = True  # cache
    _flat(s.discount)[rp] += t.DISCOUNT[f]  # cache: "all subsequent construction costs are each reduced by 1"
    s.developing[rows] = -1
    s.pending[rows] = -1
    s.phase[rows] = DEVELOP
    developments = s.developments[rows] + 1
    s.developments[rows] = developments
    return rows[developments == MAX_DEVELOPMENTS]


def _end_development_turn(s: State, rows: np.ndarray) -> None:
    """The next player's development turn, or Phase 5 once every player has had his."""
    if rows.size == 0:
        return
    n = s.num_players[rows]
    turns = s.dev_turns[rows] + 1
    all_done = turns == n
    s.dev_turns[rows] = np.where(all_done, 0, turns)
    s.developer[rows] = np.where(all_done, -1, (s.developer[rows] + 1) % n)
    s.developments[rows] = 0
    _new_starting_player(s, rows[all_done])


# ---------------------------------------------------------------------------------------------- Subsidy, end
def _take_subsidy(s: State, rows: np.ndarray, p: np.ndarray) -> None:
    """'a player may take one Subsidy token ... He immediately takes 3 Talers from the bank.'"""
    if rows.size == 0:
        return
    _flat(s.subsidy)[rows * P + p] = True
    _flat(s.money)[rows * P + p] += SUBSIDY_MONEY


def _final_scores(s: State, rows: np.ndarray) -> np.ndarray:
    """int64[N, P]: Scoring Track plus the final scoring of the games ``rows`` (which must be over)."""
    t = board_tables(s.board)
    n = s.num_players[rows]
    present = rows_players(n)
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


def _ranking(s: State, rows: np.ndarray) -> np.ndarray:
    """int64[N, P]: each seat's place in the final order, higher is better, equal only for a full tie; -1 for
    absent seats."""
    present = rows_players(s.num_players[rows])
    sc = _final_scores(s, rows)
    # "In case of a tie, the player with the most Property tokens on the board wins. If there is still a tie,
    # the player with the most money wins." Lexicographic key in bit fields that cannot overlap: money is int16
    # (< 2**15, 16 bits), tokens <= 60 (16 bits), scores of int16 state stay far inside 2**20 either way.
    tokens = ((s.owner[rows][:, None, :] == np.arange(P)[None, :, None]) & s.developed[rows][:, None, :]).sum(2)
    key = ((sc + 2**20) << 32) + (tokens.astype(np.int64) << 16) + s.money[rows].astype(np.int64)
    return np.where(present, key, -1)


def ranking(state: State) -> np.ndarray:
    """int64[B, P]: the rules' order of the players of finished games (points, then Property tokens on the board,
    then money), as a key per seat: higher is better, equal keys tie on everything; -1 for absent seats."""
    return _ranking(state, np.arange(state.batch_size))


def _returns(s: State, rows: np.ndarray) -> np.ndarray:
    """float32[N, P]: +1 winners, -1 others, 0 for all if everyone ties (``Game.returns()``)."""
    present = rows_players(s.num_players[rows])
    key = _ranking(s, rows)
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
_BIDS = _AT_MOST[None, :, :] & ~_AT_MOST[:, None, :]  # [high bid, money, k-1]: high < k <= money (1.4 MB)


def finished(state: State) -> np.ndarray:
    """bool[B]: the games ended by the rules (the final scoring done), not by an illegal action."""
    return state.phase == OVER


def legal_action_mask(state: State) -> np.ndarray:
    """bool[B, NUM_ACTIONS]: the legal actions of each game's player to move (all False once over)."""
    if _backend == "numba":
        return _kernel().legal_action_mask(state)
    return _numpy_mask(state, np.zeros((state.batch_size, A.NUM_ACTIONS), bool))


def _numpy_mask(s: State, mask: np.ndarray) -> np.ndarray:
    """``legal_action_mask`` by the numpy rules, written into ``mask`` (all False, C-contiguous bool[B, 314])."""
    flat = mask.reshape(-1)  # entry (b, a) at b * NUM_ACTIONS + a: single entries are set through it
    p = s.current_player.astype(np.int64)  # -1 once over, or ended by an illegal action: an all-False row
    ph = np.where(p >= 0, s.phase, OVER)
    auc = (ph == AUCTION).nonzero()[0]
    if auc.size:
        # "A field is available if it lies in the current Era and has a face-up Column token above it."
        era = s.era[auc].astype(np.int64)
        at = (auc * A.NUM_ACTIONS + A.AUCTION + era * NUM_COLUMNS)[:, None] + np.arange(NUM_COLUMNS)
        flat[at] = s.face_up.take(auc, axis=0)
    bid = (ph == BID).nonzero()[0]
    if bid.size:
        flat[bid * A.NUM_ACTIONS + A.PASS] = True
        # "A bid must be higher than any preceding bid, and a player cannot bid more Talers than he can pay."
        money = np.minimum(_flat(s.money)[bid * P + p[bid]], MAX_BID)
        mask[bid, A.BID : A.SELL] = _BIDS[s.high_bid[bid], money]  # one [N, 112] gather (bids: 47% of decisions)
    sok = (ph == SELL_OR_KEEP).nonzero()[0]
    if sok.size:
        flat[sok * A.NUM_ACTIONS + A.SELL] = True
        # ruling: he can keep only if he can pay the full price
        flat[sok * A.NUM_ACTIONS + A.KEEP] = _flat(s.money)[sok * P + p[sok]] >= s.high_bid[sok]
    dev = (ph == DEVELOP).nonzero()[0]
    if dev.size:
        mask[dev, A.DEVELOP : A.DONE] = _develop_ok(s, dev, p[dev])
        flat[dev * A.NUM_ACTIONS + A.DONE] = True
    pay = (ph == PAY).nonzero()[0]
    if pay.size:
        at = pay * A.NUM_ACTIONS + A.PAY + s.pending[pay, 0].astype(np.int64) * A.NUM_PAY_WAYS
        flat[at[:, None] + np.arange(A.NUM_PAY_WAYS)] = _pay_ways(s, pay, p[pay])
    # "At any time during the game, a player may take one Subsidy token"
    live = (p >= 0).nonzero()[0]
    flat[live * A.NUM_ACTIONS + A.SUBSIDY] = ~_flat(s.subsidy)[live * P + p[live]]
    return mask


# Decision kinds: what an action does in each phase, _NUM_KINDS where it is not an action of that phase.
_SUBSIDY_K, _AUCTION_K, _BID_K, _SELL_K, _KEEP_K, _DONE_K, _DEVELOP_K, _PAY_K = range(8)
_NUM_KINDS = 8
_Group = tuple[np.ndarray, np.ndarray, np.ndarray]  # games, player to move, action
_KIND = np.full((OVER + 1, A.NUM_ACTIONS + 1), _NUM_KINDS, np.int8)  # [phase, action, or NUM_ACTIONS: none]
_KIND[AUCTION, A.AUCTION : A.PASS] = _AUCTION_K
_KIND[BID, A.PASS : A.SELL] = _BID_K  # pass or bid k
_KIND[SELL_OR_KEEP, A.SELL] = _SELL_K
_KIND[SELL_OR_KEEP, A.KEEP] = _KEEP_K
_KIND[DEVELOP, A.DEVELOP : A.DONE] = _DEVELOP_K
_KIND[DEVELOP, A.DONE] = _DONE_K
_KIND[PAY, A.PAY : A.SUBSIDY] = _PAY_K
_KIND[:OVER, A.SUBSIDY] = _SUBSIDY_K


def _kinds(s: State, rows: np.ndarray, a: np.ndarray) -> np.ndarray:
    """int8[N]: the decision kind of action ``a`` in each game ``rows``, ``_NUM_KINDS`` if not of its phase."""
    # column NUM_ACTIONS of _KIND stands for any out-of-range integer (negative ones wrap to huge unsigned)
    return _KIND[s.phase[rows], np.minimum(a.astype(np.uint64), A.NUM_ACTIONS)]


def _decisions(s: State, rows: np.ndarray, a: np.ndarray, kind: np.ndarray, cur: np.ndarray) -> list[_Group]:
    """The games ``rows`` and their actions ``a`` grouped by decision ``kind``: ``(rows, player, action)``.

    One stable sort by kind, so each group is a slice (rows ascending); index ``k`` holds kind ``k``, and the
    last one the actions that are not of their game's phase.
    """
    order = np.argsort(kind, kind="stable")  # a radix sort (int8)
    bounds = np.zeros(_NUM_KINDS + 2, np.int64)
    np.cumsum(np.bincount(kind, minlength=_NUM_KINDS + 1), out=bounds[1:])
    rows, a = rows[order], a[order]
    p = cur[rows]
    return [(rows[lo:hi], p[lo:hi], a[lo:hi]) for lo, hi in zip(bounds[:-1], bounds[1:], strict=True)]


def _chosen_legal(s: State, rows: np.ndarray, a: np.ndarray, kind: np.ndarray, cur: np.ndarray) -> np.ndarray:
    """bool[N]: is action ``a`` legal in each of the live games ``rows``? (One entry of the mask, cheaply.)
    ``cur``: ``s.current_player`` as int64."""
    ok = np.zeros(rows.size, bool)
    for k in range(_NUM_KINDS):
        sel = (kind == k).nonzero()[0]
        if sel.size == 0:
            continue
        r, act = rows[sel], a[sel]
        p = cur[r]
        if k in (_SELL_K, _DONE_K):
            ok[sel] = True
        elif k == _SUBSIDY_K:
            ok[sel] = ~s.subsidy[r, p]
        elif k == _AUCTION_K:
            era, col = np.divmod(act - A.AUCTION, NUM_COLUMNS)
            ok[sel] = (era == s.era[r]) & s.face_up[r, col]
        elif k == _BID_K:
            bid = act - A.BID + 1  # 0 for a pass
            ok[sel] = (bid == 0) | ((bid > s.high_bid[r]) & (bid <= s.money[r, p]))
        elif k == _KEEP_K:
            ok[sel] = s.money[r, p] >= s.high_bid[r]
        elif k == _DEVELOP_K:
            ok[sel] = _develop_ok(s, r, p)[np.arange(r.size), act - A.DEVELOP]
        elif k == _PAY_K:
            res, way = np.divmod(act - A.PAY, A.NUM_PAY_WAYS)
            ok[sel] = (res == s.pending[r, 0]) & _pay_ways(s, r, p)[np.arange(r.size), way]
    return ok


def _illegal_message(s: State, rows: np.ndarray, a: np.ndarray) -> str:
    """'game 3: action 'bid 9' is not legal for player 1 at this bid decision; legal: ...' for each game."""
    mask = legal_action_mask(s.take(rows))
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
def _play(s: State, a_all: np.ndarray, mask: np.ndarray | None, raise_: bool, penalty: float,
          next_mask: np.ndarray | None) -> np.ndarray | None:  # fmt: skip
    """``step`` on the State it writes, its arguments checked (``ENGINE.play``): the rows refused, or None."""
    if _backend == "numba":
        return _kernel().step(s, a_all, raise_, penalty, True, mask, next_mask)[1]
    return _numpy_play(s, a_all, mask, raise_, penalty, next_mask)


def _numpy_play(s: State, a_all: np.ndarray, mask: np.ndarray | None, raise_: bool, penalty: float,
                next_mask: np.ndarray | None) -> np.ndarray | None:  # fmt: skip
    """``step`` by the numpy rules on the State it writes: the rows refused (nothing written), or None."""
    live = (~s.terminated).nonzero()[0]
    a = a_all[live].astype(np.int64)
    kind = _kinds(s, live, a)
    cur = s.current_player.astype(np.int64)  # once a step: each kind's players, the one at fault
    if mask is None:
        legal = _chosen_legal(s, live, a, kind, cur)
    else:  # one entry of the given mask per game (wrapped into range: out-of-range actions are of no kind)
        legal = _flat(mask)[live * A.NUM_ACTIONS + a % A.NUM_ACTIONS]
        legal &= kind < _NUM_KINDS
    all_legal = bool(legal.all())
    if not all_legal:
        bad = live[~legal]
        if raise_:
            return bad
        live, a, kind = live[legal], a[legal], kind[legal]
    s.rewards[:] = 0.0
    if not all_legal:
        # Pgx: "Taking illegal action leads to immediate game terminal with negative reward".
        fault = cur[bad]
        present = rows_players(s.num_players[bad])
        s.rewards[bad] = np.where(present, -penalty, 0.0)  # every other player is treated as a winner
        s.rewards[bad, fault] = penalty
        s.terminated[bad] = True
    _apply(s, _decisions(s, live, a, kind, cur))
    if next_mask is not None:
        next_mask.fill(False)  # the new masks written in place: no [B, 314] array made and copied
        _numpy_mask(s, next_mask)
    return None


def _apply(s: State, groups: list[_Group]) -> None:
    """Apply the legal decisions (grouped by kind, disjoint games) in place, phase by phase.

    The automatic steps a decision leads to run once for all the games that reach them, in the reference's
    order within each game: every field claimed (after a last pass, a sale, a keep), then the next auctions;
    every development finished (no resource due, or the last one paid), then the development turns ended.
    """
    rows, p, _ = groups[_SUBSIDY_K]
    _take_subsidy(s, rows, p)
    rows, _, a = groups[_AUCTION_K]
    _open_auction(s, rows, a - A.AUCTION)
    rows, p, a = groups[_BID_K]
    claims = [_bid_or_pass(s, rows, p, np.where(a == A.PASS, 0, a - A.BID + 1))]
    claims.append(_sell(s, groups[_SELL_K][0]))
    claims.append(_keep(s, groups[_KEEP_K][0]))
    rows, claimant, auctioneer = (np.concatenate(x) for x in zip(*claims, strict=True))
    _claim(s, rows, claimant)
    _next_auction(s, rows, auctioneer)
    rows, p, a = groups[_DEVELOP_K]
    finished = [_develop(s, rows, p, a - A.DEVELOP)]
    rows, p, a = groups[_PAY_K]
    r, way = np.divmod(a - A.PAY, A.NUM_PAY_WAYS)
    finished.append(_pay_resource(s, rows, p, r, way))
    turn_over = _finish_development(s, np.concatenate(finished))
    _end_development_turn(s, np.concatenate([groups[_DONE_K][0], turn_over]))


# ---------------------------------------------------------------------------------------------- observation
def observe(state: State, player: int | np.ndarray | None = None) -> np.ndarray:
    """float32[B, OBS_DIM]: each game seen from ``player`` (None: the player to move; seat 0 once over).

    The layout is :mod:`industry_env.games.industry.observation`'s; ``observation.observe_game`` is the readable twin.
    """
    s = state
    B = s.batch_size
    if _backend == "numba":
        from . import observe_kernel

        return observe_kernel.observe(s, player)
    if player is None:
        obs_p = np.maximum(s.current_player, 0).astype(np.int64)
    else:
        raw = np.asarray(player)
        if not np.issubdtype(raw.dtype, np.integer) or raw.ndim > 1 or (raw.ndim == 1 and raw.size != B):
            raise ValueError(f"player={player!r}: a seat number, or one per game (int[{B}])")
        obs_p = np.broadcast_to(raw.astype(np.int64), (B,)).copy()
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


# ---------------------------------------------------------------------------------------------- the reference
def to_game(state: State, i: int) -> Game:
    """Game ``i`` as a reference :class:`Game` (through its checked JSON form)."""
    i = state.check_row(i, "to_game")
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
        "bag": s.bag[i, int(s.bag_pos[i]) :].astype(int).tolist(),
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
    t = board_tables(board)
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

    For random play in benchmarks and tests: a few array operations, no loop over games (or one compiled
    call). Both backends draw ``rng.random(B)`` and pick the ``floor(u * count)``-th legal action of each row.
    """
    if _backend == "numba":
        return _kernel().sample_legal(mask, rng)
    return pick_uniform(mask, rng.random(mask.shape[0]))


def _random_step(state: State, rng: np.random.Generator, inplace: bool = False, mask: np.ndarray | None = None,
                 next_mask: np.ndarray | None = None) -> tuple[State, np.ndarray]:  # fmt: skip
    """Every live game plays one legal action drawn uniformly at random: ``(new State, int64[B] actions)``.

    The same draws and the same games as ``step(state, sample_legal(legal_action_mask(state), rng))``, in one
    pass: the compiled backend lists, draws and plays each game's action in one call (no mask is written unless
    ``next_mask`` asks for it, as in ``step``). For random opponents, benchmarks and balance studies at full
    speed. ``actions`` holds 0 for finished games; ``inplace`` as in ``step``; ``mask``: this state's legal masks,
    if the caller has them (then the draws pick among them and ``step`` plays them).
    """
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng must be a numpy.random.Generator (np.random.default_rng(seed)), got {type(rng).__name__}")
    if mask is not None:
        a = sample_legal(mask, rng)
        return ENGINE.step(state, a, inplace=inplace, mask=mask, next_mask=next_mask), a
    if next_mask is not None:
        batched.check_next_mask(next_mask, state.batch_size, A.NUM_ACTIONS)
    if _backend == "numba":
        return _kernel().random_step(_to_write(state, inplace), rng, inplace, next_mask)
    u = rng.random(state.batch_size)
    m = legal_action_mask(state)
    a = pick_uniform(m, u)
    s = _writable(state, inplace)
    _numpy_play(s, a, m, True, -1.0, next_mask)
    return s, a


def rollout(
    state: State,
    max_steps: int,
    weights: np.ndarray | None = None,
    key: int = 0,
    inplace: bool = False,
    stop_at: np.ndarray | None = None,
) -> tuple[State, np.ndarray]:
    """Play every game at random for up to ``max_steps`` decisions or to its end: ``(new State, int64[B] steps)``.

    Each decision is drawn from the legal ones uniformly, or (``weights``, float[314], >= 0) with probability
    proportional to its weight; ``steps`` counts the decisions each game played. For search players (playouts)
    and balance studies; the compiled backend plays the games to the end in one call. The randomness is
    counter-based and seeded by the state: game ``i``'s ``k``-th decision of the call draws ``u`` in [0, 1)
    from the SplitMix64 hash of (its chance seed, ``key``, ``i``, ``k``) (see
    :mod:`industry_env.games.industry.kernel`), so both backends play the same games, rows holding the same game play
    differently, and ``key`` gives other playouts. ``rewards`` of the result: ``Game.returns()`` for the games that
    ended in this rollout, else 0.
    ``inplace=True`` plays in ``state`` itself. ``stop_at`` (int[B]): game ``i`` stops before a decision of player
    ``stop_at[i]`` (the learner's seat: random opponents played until the learner is to move); -1 never stops.
    """
    if isinstance(max_steps, bool) or not isinstance(max_steps, (int, np.integer)) or max_steps < 0:
        raise ValueError(f"max_steps={max_steps!r}: expected a whole number >= 0")
    if isinstance(key, bool) or not isinstance(key, (int, np.integer)) or not 0 <= key <= _MAX_SEED:
        raise ValueError(f"key={key!r}: expected a whole number from 0 to 2**63 - 1")
    if weights is not None:
        weights = np.ascontiguousarray(weights, dtype=np.float64)
        if weights.shape != (A.NUM_ACTIONS,) or not (np.isfinite(weights).all() and (weights >= 0).all()):
            raise ValueError(f"weights must be {A.NUM_ACTIONS} finite numbers >= 0, one per action, got "
                             f"shape {list(weights.shape)}")  # fmt: skip
    if stop_at is not None:
        stop_at = np.asarray(stop_at)
        if stop_at.shape != (state.batch_size,) or not np.issubdtype(stop_at.dtype, np.integer):
            raise ValueError(f"stop_at must be int[{state.batch_size}], a seat (or -1) per game, got "
                             f"{stop_at.dtype}{list(stop_at.shape)}")  # fmt: skip
        stop_at = np.ascontiguousarray(stop_at, np.int64)
    if _backend == "numba":
        return _kernel().rollout(_writable(state, inplace), int(max_steps), weights, int(key), inplace, stop_at)
    s = _writable(state, inplace)
    B = s.batch_size
    steps = np.zeros(B, np.int64)
    final = np.zeros((B, P), np.float32)
    row_key = chance.splitmix64(chance.splitmix64(chance.splitmix64(np.uint64(key)) ^ np.uint64(3))
                                ^ np.arange(B, dtype=np.uint64))  # kernel._key(key, 3, i)  # fmt: skip
    with np.errstate(over="ignore"):
        game_key = chance.splitmix64(chance.splitmix64(s.seed.astype(np.uint64)) ^ row_key)
    for k in range(max_steps):
        live = ~s.terminated if stop_at is None else ~s.terminated & (s.current_player != stop_at)
        if not live.any():
            break
        mask = legal_action_mask(s)
        u = (chance.splitmix64(game_key ^ np.uint64(k)) >> np.uint64(11)).astype(np.float64) * 2.0**-53
        if weights is None:  # sample_legal's rule: the floor(u * count)-th legal action
            count = mask.sum(axis=1)
            nth = (u * count).astype(np.int64)
            a = np.argmax(np.cumsum(mask, axis=1) > nth[:, None], axis=1)
        else:  # the first action whose cumulative weight exceeds u times the total
            cs = np.cumsum(mask * weights, axis=1)
            a = np.argmax(cs > (u * cs[:, -1])[:, None], axis=1)
        held = s.terminated.copy()  # the games that stop here are set aside for this step
        s.terminated |= ~live
        _numpy_play(s, a, mask, True, -1.0, None)
        s.terminated &= live | held
        s.terminated |= held
        steps += live
        ended = live & s.terminated
        final[ended] = s.rewards[ended]
    s.rewards[...] = final
    return s, steps


# ---------------------------------------------------------------------------------------------- the engine
class Engine(batched.Engine):
    """Industry on the shared front (:class:`industry_env.core.batched.Engine`), with two backends behind it: the
    compiled kernel (:mod:`.kernel`, imported and warmed up by the first call that runs it) and this module's
    numpy rules (where nothing compiles; ``INDUSTRY_ENV_BACKEND=numpy``). The verbs that differ by backend are
    this module's functions; ``init``, ``reset``, ``step``'s checks and the batch surgery are the front's."""

    name, State, IllegalActionError = "Industry", State, IllegalActionError
    num_actions, players, default_players = A.NUM_ACTIONS, (MIN_PLAYERS, MAX_PLAYERS), 4
    players_rule = f"Industry is played by {MIN_PLAYERS} or {MAX_PLAYERS}"
    kept, shared = ("balanced_draws",), "boards"

    def new_state(self, batch_size: int, board: Board | None = None,  # type: ignore[override]
                  balanced_draws: bool | np.ndarray = True) -> tuple[State, tuple[np.ndarray]]:  # fmt: skip
        return _new_state(batch_size, board, balanced_draws)

    def new_games(self, s: State, rows: np.ndarray, seeds: np.ndarray, num_players: np.ndarray,
                  kept: tuple[np.ndarray, ...], next_mask: np.ndarray | None) -> None:  # fmt: skip
        _new_games(s, rows, seeds, num_players, kept[0], next_mask)

    def writable(self, state: State, inplace: bool) -> State:
        return _to_write(state, inplace) if _backend == "numba" else _writable(state, inplace)

    play = staticmethod(_play)  # (no frame of its own: at batch 1 each call is a tenth of a step)

    def illegal_message(self, state: State, bad: np.ndarray, actions: np.ndarray) -> str:
        return _illegal_message(state, bad, actions[bad].astype(np.int64))

    def legal_action_mask(self, state: State) -> np.ndarray:
        return legal_action_mask(state)

    def observe(self, state: State, player: int | np.ndarray | None = None) -> np.ndarray:
        return observe(state, player)

    def sample_legal(self, mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        return sample_legal(mask, rng)

    def random_step(self, state: State, rng: np.random.Generator, inplace: bool = False,
                    mask: np.ndarray | None = None, next_mask: np.ndarray | None = None) -> tuple[State, np.ndarray]:
        return _random_step(state, rng, inplace, mask, next_mask)

    def finished(self, state: State) -> np.ndarray:
        return finished(state)

    def scores(self, state: State) -> np.ndarray:
        return scores(state)

    def to_game(self, state: State, i: int) -> Game:
        return to_game(state, i)

    def from_games(self, games: Sequence[Game]) -> State:
        return from_games(games)


ENGINE = Engine()
init, reset, step, random_step = ENGINE.init, ENGINE.reset, ENGINE.step, ENGINE.random_step
copy, take, put, concat = ENGINE.copy, ENGINE.take, ENGINE.put, ENGINE.concat
