"""The compiled backend of the batched engine: the rules written per game in numba, looped over the batch.

:mod:`industry_env.games.industry.engine` dispatches here when numba is installed (the ``fast`` extra) unless
``INDUSTRY_ENV_BACKEND=numpy``; the results are bit for bit those of the numpy path (``industry-env verify
--backend numba``). The kernel reads and writes the State through the one buffer that backs all its arrays
(``State._buf``, see ``engine._LAYOUT``): a call passes that buffer, not 31 arrays, so its argument handling
costs well under a microsecond. Inside, the buffer is seen as ``s8`` (int8 and bool fields), ``s16`` (int16),
``r32`` (rewards) and ``s64`` (seeds); a field of game ``i`` lives at ``FIELD * B + WIDTH * i + k`` of its view.

One function per rule phase, named and ordered as in :mod:`industry_env.games.industry.reference`, each working on one
game; the ``*_range`` functions run a slice of the batch, and ``run_parallel`` splits the batch into chunks over the
cores (one ``prange`` loop for every operation: each parallel function costs seconds of compile); small batches
call the range functions directly (no thread start-up).
The board arrives as one int32 table (:func:`board_table`).

Randomness of :func:`rollout`: game ``i``'s ``k``-th decision of a call draws ``u`` in [0, 1) from the
SplitMix64 chain of ``(game seed, key, i, k)`` (the 53 high bits), so a rollout is reproducible from the state
and ``key``, independent of thread count, and differs between rows holding the same game.
"""

from __future__ import annotations

import ctypes
import hashlib
import sys
import threading
import weakref
from collections import OrderedDict
from typing import Any

import numpy as np
from llvmlite import ir
from numba import carray, prange, types
from numba.core import cgutils
from numba.extending import intrinsic

from ...core import batched, runtime, uncompiled
from ...core.chance import key_one, splitmix64_one
from ...core.numba_cache import njit  # numba's, falling back to no disk cache where none is writable
from ...core.uncompiled import scalars
from . import actions as A
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

SCHEMA_MODULE = f"{__package__}.state"

AUCTION, BID, SELL_OR_KEEP, DEVELOP, PAY, OVER = range(6)
NA = A.NUM_ACTIONS
NW = A.NUM_PAY_WAYS
P = 4
NC, NF, NJ, NR = NUM_COLUMNS, NUM_FIELDS, NUM_JOKER_KINDS, NUM_RESOURCES

# Offsets of the fields in the State buffer, in units of their own view, per game of the batch (times B): read
# from the one declaration of the State (state.SCHEMA); a field of B games starts at offset * B of its view.
_U = SCHEMA.units
SEED = _U("seed")  # s64
REWARDS = _U("rewards")  # r32, 4 a game
MONEY, POINTS, HIGH_BID = _U("money"), _U("points"), _U("high_bid")  # s16: 4, 4, 1 a game
NUM_PLAYERS, BALANCED, ERA, ROUND, STARTING = (
    _U(k) for k in ("num_players", "balanced_draws", "era", "round", "starting_player")
)  # s8 from here on
BAG, BAG_POS, FACE_UP, CLAIMED, OWNER, DEVELOPED = (
    _U(k) for k in ("bag", "bag_pos", "face_up", "claimed", "owner", "developed")
)
JOKERS, SUBSIDY = _U("jokers"), _U("subsidy")
PHASE, AUCTIONEER, LOT, BIDDER, HIGH_BIDDER, DEVELOPER = (
    _U(k) for k in ("phase", "auctioneer", "lot", "bidder", "high_bidder", "developer")
)
DEVELOPMENTS, DEV_TURNS, DEVELOPING, PENDING, PRODUCES, DISCOUNT, TERMINATED = (
    _U(k) for k in ("developments", "dev_turns", "developing", "pending", "produces", "discount", "terminated")
)
BYTES_PER_GAME = SCHEMA.bytes_per_game

# The board table: int32, per-field rows of 60 at these offsets, then the token counts and the links.
T_KIND, T_ERA, T_COST, T_NEED0, T_NEED1, T_PRODUCES, T_POINTS, T_DISCOUNT, T_JOKER_KIND = (
    k * NF for k in range(9))  # fmt: skip
T_BANK_ERA = 9 * NF  # 11
T_TOKENS = T_BANK_ERA + NR  # [n - 3, balanced, era]: 2 * 2 * 5
T_BONUS = T_TOKENS + 20  # [bonus field, factory] multipliers: 60 * 60
T_LINKS = T_BONUS + NF * NF  # count, then pairs (roads and technology links together)

_U64 = np.uint64
_MAX_LEGAL = 128  # legal actions at most: a pass, 112 bids and the subsidy (or 60 fields, done, subsidy)


def board_table(board) -> np.ndarray:
    """The board's facts as one int32 array (the layout of the ``T_*`` offsets above)."""
    needs = board.NEEDS.astype(np.int32)
    tokens = [tokens_per_round(n, e, bal) for n in (MIN_PLAYERS, MIN_PLAYERS + 1) for bal in (False, True)
              for e in range(NUM_ERAS)]  # fmt: skip
    links = np.concatenate([board.ROADS, board.TECH_LINKS]).astype(np.int32)
    parts = [board.KIND, board.ERA, board.COST, needs[:, 0], needs[:, 1], board.PRODUCES, board.POINTS,
             board.DISCOUNT, board.JOKER_KIND, board.BANK_ERA, tokens, board.BONUS_CONNECT.reshape(-1),
             [len(links)], links.reshape(-1)]  # fmt: skip
    return np.concatenate([np.asarray(x, np.int32).reshape(-1) for x in parts])


# ---------------------------------------------------------------------------------------------- chance
# SplitMix64 and the draw key: core.chance's compiled ones, shared by every game
_splitmix64 = splitmix64_one
_key = key_one


@njit(cache=True)
def _bag_order(s8, s64, B, i):
    """'Place the Column tokens in the bag and mix them': this era's draw order (``chance.bag_order``)."""
    era = s8[ERA * B + i]
    keys = np.empty(NC, np.uint64)
    order = np.empty(NC, np.int64)
    for c in range(NC):
        keys[c] = _key(s64[SEED * B + i], 2, era * NC + c)
        # stable insertion sort by key
        j = c
        while j > 0 and keys[order[j - 1]] > keys[c]:
            order[j] = order[j - 1]
            j -= 1
        order[j] = c
    for c in range(NC):
        s8[BAG * B + NC * i + c] = order[c]


# ---------------------------------------------------------------------------------------------- Phases 1, 2, 5
@njit(cache=True)
def _begin_round(s8, s16, t, B, i):
    """Phase 1 (income), Phase 2 (new column tokens) and the start of Phase 3."""
    n = s8[NUM_PLAYERS * B + i]
    s8[ROUND * B + i] += 1
    # Phase 2: "The Starting Player draws one Column token per player from the bag" (balanced: 3 or 4).
    k = t[T_TOKENS + (n - MIN_PLAYERS) * 10 + s8[BALANCED * B + i] * 5 + s8[ERA * B + i]]
    pos = s8[BAG_POS * B + i]
    coin = 0
    for j in range(k):
        c = s8[BAG * B + NC * i + pos + j]
        s8[FACE_UP * B + NC * i + c] = 1
        if c == COIN_COLUMN:
            coin = COIN_TOKEN_MONEY  # "each player immediately takes one Taler"
    s8[BAG_POS * B + i] = pos + k
    for q in range(n):  # Phase 1: "Each player takes 1 Taler from the bank."
        s16[MONEY * B + P * i + q] += INCOME + coin
    s8[PHASE * B + i] = AUCTION  # "The Starting Player is the first Auctioneer"
    s8[AUCTIONEER * B + i] = s8[STARTING * B + i]


@njit(cache=True)
def _new_starting_player(s8, s16, s64, r32, t, B, i):
    """Phase 5, the change of Era, and the end of the game."""
    n = s8[NUM_PLAYERS * B + i]
    # "the Starting Player marker moves clockwise to the next player"
    s8[STARTING * B + i] = (s8[STARTING * B + i] + 1) % n
    era = s8[ERA * B + i]
    for c in range(NC):
        if not s8[CLAIMED * B + NF * i + era * NC + c]:
            _begin_round(s8, s16, t, B, i)
            return
    if era == NUM_ERAS - 1:
        # "Once all fields in all eras have been auctioned, the game ends at the end of the round."
        _game_over(s8, s16, r32, t, B, i)
        return
    # Change of Era: "Move the Era token down one space." The tokens go back into the bag.
    s8[ERA * B + i] = era + 1
    _bag_order(s8, s64, B, i)
    s8[BAG_POS * B + i] = 0
    _begin_round(s8, s16, t, B, i)


# ---------------------------------------------------------------------------------------------- Phase 3: Auction
@njit(cache=True)
def _open_auction(s8, s16, B, i, f):
    """The auctioneer offers field ``f``; bidding starts with the player to his left."""
    s8[PHASE * B + i] = BID
    s8[LOT * B + i] = f
    s16[HIGH_BID * B + i] = 0
    s8[HIGH_BIDDER * B + i] = -1
    s8[BIDDER * B + i] = (s8[AUCTIONEER * B + i] + 1) % s8[NUM_PLAYERS * B + i]


@njit(cache=True)
def _bid_or_pass(s8, s16, t, B, i, p, amount):
    """A bid (amount > 0) or a pass; after the last bidder, the auctioneer decides (or must claim)."""
    if amount > 0:
        s16[HIGH_BID * B + i] = amount
        s8[HIGH_BIDDER * B + i] = p
    nxt = (p + 1) % s8[NUM_PLAYERS * B + i]
    s8[BIDDER * B + i] = nxt
    auct = s8[AUCTIONEER * B + i]
    if nxt != auct:
        return
    if s8[HIGH_BIDDER * B + i] < 0:
        # No Bids: "the Auctioneer must claim the field himself, although he pays nothing."
        _claim(s8, t, B, i, auct)
        _next_auction(s8, s16, B, i, auct + 1)
    else:
        s8[PHASE * B + i] = SELL_OR_KEEP


@njit(cache=True)
def _sell(s8, s16, t, B, i, auct):
    """'He can let the highest bidder claim the field and take the appropriate amount of money'."""
    hb, price = s8[HIGH_BIDDER * B + i], s16[HIGH_BID * B + i]
    s16[MONEY * B + P * i + hb] -= price
    s16[MONEY * B + P * i + auct] += price
    _claim(s8, t, B, i, hb)
    _next_auction(s8, s16, B, i, auct)  # "He remains the Auctioneer"


@njit(cache=True)
def _keep(s8, s16, t, B, i, auct):
    """'He claims the field himself, paying an amount equal to the highest bid.'"""
    n = s8[NUM_PLAYERS * B + i]
    # "starting with the player to his left, the Auctioneer gives each player - including himself - 1 Taler
    # until he has paid the full price."
    for k in range(s16[HIGH_BID * B + i]):
        s16[MONEY * B + P * i + auct] -= 1
        s16[MONEY * B + P * i + (auct + 1 + k) % n] += 1
    _claim(s8, t, B, i, auct)
    _next_auction(s8, s16, B, i, auct + 1)  # "His left-hand neighbor becomes the new Auctioneer"


@njit(cache=True)
def _claim(s8, t, B, i, p):
    """Claim a Field: a Property token clock side up, or, on a Joker field, the Joker token in hand."""
    f = s8[LOT * B + i]
    s8[CLAIMED * B + NF * i + f] = 1
    if t[T_KIND + f] == JOKER:
        s8[JOKERS * B + P * NJ * i + NJ * p + t[T_JOKER_KIND + f]] += 1
    else:
        s8[OWNER * B + NF * i + f] = p
    s8[FACE_UP * B + NC * i + f % NC] = 0  # "turn the corresponding Column token face-down"


@njit(cache=True)
def _next_auction(s8, s16, B, i, auctioneer):
    """The next auction of the round, or the Development phase once no column token is face up."""
    s8[LOT * B + i] = -1
    s8[BIDDER * B + i] = -1
    s16[HIGH_BID * B + i] = 0
    s8[HIGH_BIDDER * B + i] = -1
    s8[AUCTIONEER * B + i] = auctioneer % s8[NUM_PLAYERS * B + i]
    s8[PHASE * B + i] = AUCTION
    for c in range(NC):  # "When all available fields have been auctioned, this phase ends."
        if s8[FACE_UP * B + NC * i + c]:
            return
    # "Beginning with the Starting Player, each player may in turn develop up to two of his undeveloped fields."
    s8[PHASE * B + i] = DEVELOP
    s8[DEVELOPER * B + i] = s8[STARTING * B + i]
    s8[DEVELOPMENTS * B + i] = 0
    s8[DEV_TURNS * B + i] = 0


# ---------------------------------------------------------------------------------------------- Phase 4: Development
@njit(cache=True)
def _others_make(s8, B, i, p):
    """Bit r set: a player other than ``p`` has a developed Factory making resource ``r``."""
    bits = 0
    prod = s8[PRODUCES * B + P * NR * i : PRODUCES * B + P * NR * (i + 1)]
    for r in range(NR):  # producers of r among all players, less p himself
        count = prod[r] + prod[NR + r] + prod[2 * NR + r] + prod[3 * NR + r] - prod[NR * p + r]
        bits |= np.int64(count > 0) << r
    return bits


@njit(cache=True)
def _developable(s8, s16, t, B, i, p, out):
    """The fields ``p`` may develop now into ``out[:n]`` (increasing); returns n (``numpy_development.develop_ok``).

    The reference searches the ways to pay; the closed form: a resource's own jokers serve only it, so a field
    is payable iff the required units neither his own joker nor his own factory pays that only the "?" joker
    can pay (not buyable) are at most his "?" jokers, and all of them at most his "?" jokers plus the Talers
    left after the construction cost. A resource needed twice takes two of its jokers.
    """
    era = s8[ERA * B + i]
    money = s16[MONEY * B + P * i + p]
    discount = s8[DISCOUNT * B + P * i + p]
    jok = s8[JOKERS * B + P * NJ * i + NJ * p : JOKERS * B + P * NJ * i + NJ * (p + 1)]
    mine = s8[PRODUCES * B + P * NR * i + NR * p : PRODUCES * B + P * NR * i + NR * (p + 1)]
    wild = jok[WILD_JOKER]
    others = _others_make(s8, B, i, p)
    free = 0  # bit r: paid by his own joker or his own developed factory
    buyable = 0  # bit r: another player's factory or the bank sells it
    for r in range(NR):
        free |= np.int64(jok[r] > 0 or mine[r] != 0) << r
        buyable |= np.int64(era >= t[T_BANK_ERA + r] or (others >> r) & 1) << r
    owner = s8[OWNER * B + NF * i : OWNER * B + NF * (i + 1)]
    developed = s8[DEVELOPED * B + NF * i : DEVELOPED * B + NF * (i + 1)]
    n = 0
    for f in range(NF):
        if owner[f] != p or developed[f]:
            continue
        # "Technologies may be developed only if they are located in the current Era."
        if t[T_KIND + f] == TECHNOLOGY and t[T_ERA + f] != era:
            continue
        # "If you do not have enough money, or a required resource is not available, you may not develop"
        left = money - max(t[T_COST + f] - discount, 0)  # the discount never takes the cost below zero
        if left < 0:
            continue
        to_pay = 0
        only_wild = 0
        for j in range(2):
            r = t[T_NEED0 + j * NF + f]
            # the second of a resource needed twice: his own joker pays it only if he holds two
            twice = j == 1 and r >= 0 and r == t[T_NEED0 + f] and mine[r] == 0 and jok[r] == 1
            if r >= 0 and (twice or not (free >> r) & 1):
                to_pay += 1
                only_wild += not (buyable >> r) & 1
        if only_wild <= wild and to_pay <= wild + left:
            out[n] = f
            n += 1
    return n


@njit(cache=True)
def _pay_ways(s8, s16, t, B, i, p):
    """Bit ``way`` set: ``p`` may pay the first pending resource that way, the second staying payable after."""
    r = s8[PENDING * B + 2 * i]
    r2 = s8[PENDING * B + 2 * i + 1]
    jok = s8[JOKERS * B + P * NJ * i + NJ * p : JOKERS * B + P * NJ * i + NJ * (p + 1)]
    money = s16[MONEY * B + P * i + p]
    wild = jok[WILD_JOKER]
    era = s8[ERA * B + i]
    others = _others_make(s8, B, i, p)
    prod = PRODUCES * B + P * NR * i
    cash = money >= RESOURCE_PRICE
    free2 = r2 < 0 or jok[r2] > 0
    last = r2 == r and jok[r] == 1  # the same resource twice and one joker of it: spent on the first, not free
    buy2 = r2 >= 0 and (era >= t[T_BANK_ERA + r2] or (others >> r2) & 1 != 0)
    ways = 0
    for way in range(NW):
        if way == A.PAY_JOKER:
            ok = jok[r] > 0  # "a Joker token of the required resource"
        elif way == A.PAY_WILD:
            ok = wild > 0  # "The Joker token labeled ? is worth one resource of your choice."
        elif way == A.PAY_BANK:
            # "only for resources that are not produced by other players and ... that appeared in previous Eras"
            ok = cash and (others >> r) & 1 == 0 and era >= t[T_BANK_ERA + r]
        else:  # "Another player has an already developed Factory that produces the required resource."
            q = way - A.PAY_PLAYER
            ok = cash and q != p and s8[prod + NR * q + r] != 0
        # would the second resource (if any) still be payable?
        spent = 1 if way == A.PAY_WILD else 0
        needed = RESOURCE_PRICE * (2 if way >= A.PAY_BANK else 1)
        if ok and ((free2 and not (last and way == A.PAY_JOKER)) or wild > spent or (buy2 and money >= needed)):
            ways |= 1 << way
    return ways


@njit(cache=True)
def _develop(s8, s16, s64, r32, t, B, i, p, f):
    """Pay the construction cost; then pay each required resource, or finish at once if none is due."""
    # "He must pay the construction costs ... to the bank" (less the discount, never below zero)
    s16[MONEY * B + P * i + p] -= max(t[T_COST + f] - s8[DISCOUNT * B + P * i + p], 0)
    s8[DEVELOPING * B + i] = f
    s8[PENDING * B + 2 * i] = -1
    s8[PENDING * B + 2 * i + 1] = -1
    k = 0
    for j in range(2):
        r = t[T_NEED0 + j * NF + f]
        if r >= 0 and not s8[PRODUCES * B + P * NR * i + NR * p + r]:  # own factories pay automatically
            s8[PENDING * B + 2 * i + k] = r
            k += 1
    if k:
        s8[PHASE * B + i] = PAY
    else:
        _finish_development(s8, s16, s64, r32, t, B, i)


@njit(cache=True)
def _pay_resource(s8, s16, s64, r32, t, B, i, p, r, way):
    """Pay one resource by ``way``; once none is pending, the field is developed."""
    jok = JOKERS * B + P * NJ * i + NJ * p
    if way == A.PAY_JOKER:
        s8[jok + r] -= 1
    elif way == A.PAY_WILD:
        s8[jok + WILD_JOKER] -= 1
    else:
        s16[MONEY * B + P * i + p] -= RESOURCE_PRICE
        if way >= A.PAY_PLAYER:
            s16[MONEY * B + P * i + way - A.PAY_PLAYER] += RESOURCE_PRICE
    second = s8[PENDING * B + 2 * i + 1]
    s8[PENDING * B + 2 * i] = second
    s8[PENDING * B + 2 * i + 1] = -1
    if second < 0:
        _finish_development(s8, s16, s64, r32, t, B, i)


@njit(cache=True)
def _finish_development(s8, s16, s64, r32, t, B, i):
    """Flip the Property token and score the cogwheel's points; two developments end the turn."""
    f, p = s8[DEVELOPING * B + i], s8[DEVELOPER * B + i]
    s8[DEVELOPED * B + NF * i + f] = 1
    # "You receive points for developing a Factory only if that Factory is located in the current Era."
    kind = t[T_KIND + f]
    if kind == TECHNOLOGY or (kind == FACTORY and t[T_ERA + f] == s8[ERA * B + i]):
        s16[POINTS * B + P * i + p] += t[T_POINTS + f]
    if t[T_PRODUCES + f] >= 0:
        s8[PRODUCES * B + P * NR * i + NR * p + t[T_PRODUCES + f]] = 1  # cache
    s8[DISCOUNT * B + P * i + p] += t[T_DISCOUNT + f]  # "all subsequent construction costs are each reduced by 1"
    s8[DEVELOPING * B + i] = -1
    s8[PENDING * B + 2 * i] = -1
    s8[PENDING * B + 2 * i + 1] = -1
    s8[PHASE * B + i] = DEVELOP
    s8[DEVELOPMENTS * B + i] += 1
    if s8[DEVELOPMENTS * B + i] == MAX_DEVELOPMENTS:
        _end_development_turn(s8, s16, s64, r32, t, B, i)


@njit(cache=True)
def _end_development_turn(s8, s16, s64, r32, t, B, i):
    """The next player's development turn, or Phase 5 once every player has had his."""
    n = s8[NUM_PLAYERS * B + i]
    s8[DEV_TURNS * B + i] += 1
    s8[DEVELOPMENTS * B + i] = 0
    if s8[DEV_TURNS * B + i] == n:
        s8[DEVELOPER * B + i] = -1
        s8[DEV_TURNS * B + i] = 0
        _new_starting_player(s8, s16, s64, r32, t, B, i)
    else:
        s8[DEVELOPER * B + i] = (s8[DEVELOPER * B + i] + 1) % n


# ---------------------------------------------------------------------------------------------- the end
@njit(cache=True)
def _final_score(s8, s16, t, B, i, q):
    """Scoring Track plus the final scoring of player ``q`` (``Game.scores()``); also his Property tokens."""
    own, dev = OWNER * B + NF * i, DEVELOPED * B + NF * i
    total = s16[POINTS * B + P * i + q] + s16[MONEY * B + P * i + q] // TALERS_PER_POINT
    tokens = 0
    for f in range(NF):  # "Remove from the board all Property tokens that still show the clock symbol."
        if s8[own + f] != q or not s8[dev + f]:
            continue
        tokens += 1
        if t[T_KIND + f] == BONUS:  # per connected Factory he also owns
            for g in range(NF):
                if s8[own + g] == q and s8[dev + g]:
                    total += t[T_BONUS + NF * f + g]
    for k in range(t[T_LINKS]):  # roads and technology links: 3 points a pair
        a, c = t[T_LINKS + 1 + 2 * k], t[T_LINKS + 2 + 2 * k]
        if s8[own + a] == q and s8[dev + a] and s8[own + c] == q and s8[dev + c]:
            total += LINK_POINTS
    for k in range(NJ):
        total += JOKER_POINTS * s8[JOKERS * B + P * NJ * i + NJ * q + k]
    if s8[SUBSIDY * B + P * i + q]:
        total += SUBSIDY_POINTS
    return total, tokens


@njit(cache=True)
def _game_over(s8, s16, r32, t, B, i):
    """The game ends: phase OVER, terminated, and the rewards ``Game.returns()`` (see ``numpy_rounds.returns``)."""
    s8[PHASE * B + i] = OVER
    s8[TERMINATED * B + i] = 1
    n = s8[NUM_PLAYERS * B + i]
    keys = np.empty(P, np.int64)
    best = -(2**62)
    for q in range(n):
        # "In case of a tie, the player with the most Property tokens on the board wins. If there is still a tie,
        # the player with the most money wins."
        sc, tokens = _final_score(s8, s16, t, B, i, q)
        # the lexicographic key of numpy_rounds.returns, in bit fields that cannot overlap
        keys[q] = ((np.int64(sc) + 2**20) << 32) + (np.int64(tokens) << 16) + s16[MONEY * B + P * i + q]
        best = max(best, keys[q])
    winners = 0
    for q in range(n):
        winners += keys[q] == best
    for q in range(n):
        r32[REWARDS * B + P * i + q] = 0.0 if winners == n else (1.0 if keys[q] == best else -1.0)


# ---------------------------------------------------------------------------------------------- decisions
@njit(cache=True)
def _player(s8, B, i):
    """The player to move (``State.current_player``): -1 once over or ended by a penalty."""
    ph = s8[PHASE * B + i]
    if ph == OVER or s8[TERMINATED * B + i]:
        return -1
    if ph == BID:
        return s8[BIDDER * B + i]
    if ph >= DEVELOP:
        return s8[DEVELOPER * B + i]
    return s8[AUCTIONEER * B + i]


@njit(cache=True)
def _of_phase(ph, a):
    """Is action ``a`` one of the decisions of phase ``ph`` (the subsidy: of every phase but OVER)?"""
    if a < 0 or a >= NA or ph == OVER:
        return False
    if a == A.SUBSIDY:
        return True
    if ph == AUCTION:
        return a < A.PASS
    if ph == BID:
        return A.PASS <= a < A.SELL
    if ph == SELL_OR_KEEP:
        return a == A.SELL or a == A.KEEP
    if ph == DEVELOP:
        return A.DEVELOP <= a <= A.DONE
    return A.PAY <= a < A.SUBSIDY


@njit(cache=True)
def _is_legal(s8, s16, t, B, i, a, scratch):
    """Is action ``a`` legal in live game ``i``? (One entry of the mask, derived from the rules.)"""
    ph = s8[PHASE * B + i]
    if not _of_phase(ph, a):
        return False
    p = _player(s8, B, i)
    if a == A.SUBSIDY:
        return not s8[SUBSIDY * B + P * i + p]
    if ph == AUCTION:
        return a // NC == s8[ERA * B + i] and s8[FACE_UP * B + NC * i + a % NC] != 0
    if ph == BID:
        amount = a - A.BID + 1
        return amount == 0 or (s16[HIGH_BID * B + i] < amount <= s16[MONEY * B + P * i + p])
    if ph == SELL_OR_KEEP:
        return a == A.SELL or s16[MONEY * B + P * i + p] >= s16[HIGH_BID * B + i]
    if ph == DEVELOP:
        if a == A.DONE:
            return True
        for j in range(_developable(s8, s16, t, B, i, p, scratch)):
            if scratch[j] == a - A.DEVELOP:
                return True
        return False
    r, way = divmod(a - A.PAY, NW)
    return r == s8[PENDING * B + 2 * i] and (_pay_ways(s8, s16, t, B, i, p) >> way) & 1 != 0


@njit(cache=True)
def _legal_actions(s8, s16, t, B, i, out):
    """Game ``i``'s legal actions in increasing order into ``out[:n]`` (``Game.legal_actions()``); returns n."""
    p = _player(s8, B, i)
    if p < 0:
        return 0
    n = 0
    ph = s8[PHASE * B + i]
    money = s16[MONEY * B + P * i + p]
    if ph == AUCTION:
        # "A field is available if it lies in the current Era and has a face-up Column token above it."
        at = A.AUCTION + s8[ERA * B + i] * NC
        for c in range(NC):
            if s8[FACE_UP * B + NC * i + c]:
                out[n] = at + c
                n += 1
    elif ph == BID:
        out[0] = A.PASS
        n = 1
        # "A bid must be higher than any preceding bid, and a player cannot bid more Talers than he can pay."
        for k in range(s16[HIGH_BID * B + i] + 1, min(money, MAX_BID) + 1):
            out[n] = A.BID + k - 1
            n += 1
    elif ph == SELL_OR_KEEP:
        out[0] = A.SELL
        n = 1
        if money >= s16[HIGH_BID * B + i]:  # ruling: he can keep only if he can pay the full price
            out[1] = A.KEEP
            n = 2
    elif ph == DEVELOP:
        n = _developable(s8, s16, t, B, i, p, out)
        for j in range(n):
            out[j] += A.DEVELOP
        out[n] = A.DONE
        n += 1
    else:
        at = A.PAY + s8[PENDING * B + 2 * i] * NW
        ways = _pay_ways(s8, s16, t, B, i, p)
        for way in range(NW):
            if (ways >> way) & 1:
                out[n] = at + way
                n += 1
    # "At any time during the game, a player may take one Subsidy token"
    if not s8[SUBSIDY * B + P * i + p]:
        out[n] = A.SUBSIDY
        n += 1
    return n


# Every field of a game with its start value: (offset, width in its view, fill), the int8 view's fields.
_START_BYTES = (
    (NUM_PLAYERS, 1, 0), (BALANCED, 1, 0), (ERA, 1, 0), (ROUND, 1, 0), (STARTING, 1, 0), (BAG, NC, 0),
    (BAG_POS, 1, 0), (FACE_UP, NC, 0), (CLAIMED, NF, 0), (OWNER, NF, -1), (DEVELOPED, NF, 0), (JOKERS, P * NJ, 0),
    (SUBSIDY, P, 0), (PHASE, 1, 0), (AUCTIONEER, 1, 0), (LOT, 1, -1), (BIDDER, 1, -1), (HIGH_BIDDER, 1, -1),
    (DEVELOPER, 1, -1), (DEVELOPMENTS, 1, 0), (DEV_TURNS, 1, 0), (DEVELOPING, 1, -1), (PENDING, 2, -1),
    (PRODUCES, P * NR, 0), (DISCOUNT, P, 0), (TERMINATED, 1, 0),
)  # fmt: skip


@njit(cache=True)
def _new_game(s8, s16, s64, r32, t, B, i, seed, n, balanced):
    """Preparing the Game in row ``i`` (``numpy_backend.new_games``), then the first round begins."""
    for off, width, fill in _START_BYTES:
        s8[off * B + width * i : off * B + width * (i + 1)] = fill
    for q in range(P):
        s16[MONEY * B + P * i + q] = STARTING_MONEY if q < n else 0  # "Give each player 4 Talers"
        s16[POINTS * B + P * i + q] = 0
        r32[REWARDS * B + P * i + q] = 0.0
    s16[HIGH_BID * B + i] = 0
    s64[SEED * B + i] = seed
    s8[NUM_PLAYERS * B + i] = n
    s8[BALANCED * B + i] = balanced
    # "Randomly decide which player takes the Starting Player marker" (chance.starting_player)
    s8[STARTING * B + i] = np.int64(_key(seed, 1, 0) % _U64(n))
    _bag_order(s8, s64, B, i)  # "Place the Column tokens in the bag and mix them." (era 0)
    _begin_round(s8, s16, t, B, i)


@njit(cache=True)
def new_games_rows(buf, B, t, rows, seeds, n, balanced, next_mask, write_next):
    """New games in the rows ``rows`` (seeds, players, draw variant per row); their masks into ``next_mask``."""
    s8, s16, s64, r32 = _views(buf, B)
    t = _raw(t)
    owner = np.empty(_MAX_LEGAL, np.int64)
    scratch = _raw(owner)
    for j in range(rows.size):
        i = rows[j]
        _new_game(s8, s16, s64, r32, t, B, i, seeds[j], n[j], balanced[j])
        if write_next:
            _mask_row(s8, s16, t, B, i, next_mask[i], scratch)
    owner[0] = 0  # alive until here


@njit(cache=True)
def _mask_row(s8, s16, t, B, i, row, legal):
    """Write game ``i``'s legal-action mask into ``row`` (bool[314]; all False once over); ``legal`` is scratch.

    Loops index rows from 0, never ``out[o + a]``: numba wraps negative indices around, and an index it
    cannot prove non-negative costs a test per element and keeps LLVM from vectorizing (here: a memset).
    """
    row[:] = False
    for j in range(_legal_actions(s8, s16, t, B, i, legal)):
        row[legal[j]] = True


@njit(cache=True)
def _apply(s8, s16, s64, r32, t, B, i, a):
    """Play the legal action ``a`` in game ``i``, then every phase that needs no decision."""
    p = _player(s8, B, i)
    ph = s8[PHASE * B + i]
    if a == A.SUBSIDY:
        # "a player may take one Subsidy token ... He immediately takes 3 Talers from the bank."
        s8[SUBSIDY * B + P * i + p] = 1
        s16[MONEY * B + P * i + p] += SUBSIDY_MONEY
    elif ph == AUCTION:
        _open_auction(s8, s16, B, i, a - A.AUCTION)
    elif ph == BID:
        _bid_or_pass(s8, s16, t, B, i, p, 0 if a == A.PASS else a - A.BID + 1)
    elif ph == SELL_OR_KEEP:
        if a == A.SELL:
            _sell(s8, s16, t, B, i, p)
        else:
            _keep(s8, s16, t, B, i, p)
    elif ph == DEVELOP:
        if a == A.DONE:
            _end_development_turn(s8, s16, s64, r32, t, B, i)
        else:
            _develop(s8, s16, s64, r32, t, B, i, p, a - A.DEVELOP)
    else:
        r, way = divmod(a - A.PAY, NW)
        _pay_resource(s8, s16, s64, r32, t, B, i, p, r, way)


# ---------------------------------------------------------------------------------------------- batch ranges
@intrinsic
def _address(typingctx, src):
    """An integer address as a void pointer (for ``carray``)."""

    def codegen(context, builder, sig, args):
        return builder.inttoptr(args[0], cgutils.voidptr_t)

    return types.voidptr(src), codegen


@njit(cache=True)
def _raw(a):
    """The C-contiguous array ``a`` seen without numba's reference count (``carray`` of its data). Array
    arguments of the per-game helpers are reference counted at every call, an atomic add and subtract each,
    which cost more than the rules; views without a count cost nothing. The caller keeps ``a`` alive."""
    return carray(_address(a.ctypes.data), a.shape, a.dtype)


@njit(cache=True)
def _views(buf, B):
    """The typed views of a State buffer of B games: int8, int16, int64 (seeds), float32 (rewards), uncounted."""
    at = _address(buf.ctypes.data)
    n = buf.size
    return (carray(at, (n,), np.int8), carray(at, (n // 2,), np.int16), carray(at, (B,), np.int64),
            carray(at, (n // 4,), np.float32))  # fmt: skip


if uncompiled.DISABLED:

    def _raw(a):  # noqa: F811 (uncompiled: no reference count to avoid)
        """``a``, its elements read as Python numbers (:mod:`industry_env.core.uncompiled`)."""
        return scalars(a)

    def _views(buf, B):  # noqa: F811
        """The typed views of a State buffer of B games, their elements read as Python numbers."""
        b = scalars(buf)
        return b.view(np.int8), b.view(np.int16), scalars(buf[: 8 * B].view(np.int64)), b.view(np.float32)


@njit(cache=True)
def mask_range(buf, B, t, out, lo, hi):
    """Legal-action masks of games ``lo:hi`` into ``out`` (bool[B * 314], row-major)."""
    s8, s16, _, _ = _views(buf, B)
    t, out = _raw(t), _raw(out)
    scratch = np.empty(_MAX_LEGAL, np.int64)
    legal = _raw(scratch)
    for i in range(lo, hi):
        _mask_row(s8, s16, t, B, i, out[i], legal)
    scratch[0] = 0  # alive until here


@njit(cache=True)
def check_range(buf, B, t, actions, mask, use_mask, legal, lo, hi):
    """legal[i] for games ``lo:hi``: is ``actions[i]`` legal (True for finished games)? Returns the illegal count."""
    s8, s16, _, _ = _views(buf, B)
    t = _raw(t)
    owner = np.empty(_MAX_LEGAL, np.int64)
    scratch = _raw(owner)
    bad = 0
    for i in range(lo, hi):
        a = actions[i]
        if s8[TERMINATED * B + i]:
            ok = True
        elif use_mask:
            ok = _of_phase(s8[PHASE * B + i], a) and mask[i, a]
        else:
            ok = _is_legal(s8, s16, t, B, i, a, scratch)
        legal[i] = ok
        bad += not ok
    owner[0] = 0  # alive until here
    return bad


@njit(cache=True)
def apply_range(buf, B, t, actions, legal, penalty, next_mask, write_next, lo, hi):
    """Step games ``lo:hi``: rewards zeroed, illegal live games penalized, legal live games played; then
    (``write_next``) each game's new legal-action mask into ``next_mask``."""
    s8, s16, s64, r32 = _views(buf, B)
    t, next_mask = _raw(t), _raw(next_mask)
    owner = np.empty(_MAX_LEGAL, np.int64)
    scratch = _raw(owner)
    for i in range(lo, hi):
        for q in range(P):
            r32[REWARDS * B + P * i + q] = 0.0
        if s8[TERMINATED * B + i]:
            pass
        elif legal[i]:
            _apply(s8, s16, s64, r32, t, B, i, actions[i])
        else:
            # Pgx: "Taking illegal action leads to immediate game terminal with negative reward".
            fault = _player(s8, B, i)
            for q in range(s8[NUM_PLAYERS * B + i]):
                r32[REWARDS * B + P * i + q] = penalty if q == fault else -penalty
            s8[TERMINATED * B + i] = 1
        if write_next:
            _mask_row(s8, s16, t, B, i, next_mask[i], scratch)
    owner[0] = 0  # alive until here


@njit(cache=True)
def _pick(row, u):
    """The legal action of the mask row ``row`` (bool[314]) that ``u`` in [0, 1) selects (``sample_legal``'s
    rule: the ``floor(u * count)``-th legal one); 0 if none is legal."""
    count = 0
    for a in range(NA):
        count += row[a]
    k = np.int64(u * count)
    c = 0
    a = 0
    while a + 32 <= NA:  # skip whole blocks of 32 (each summed without a branch), then find it in its block
        block = 0
        for j in range(32):
            block += row[a + j]
        if c + block > k:
            break
        c += block
        a += 32
    for b in range(a, NA):
        c += row[b]
        if c > k:
            return b
    return 0


@njit(cache=True)
def _pick_listed(legal, n, u, weights, use_weights):
    """The action of ``legal[:n]`` (increasing) that ``u`` selects: the ``floor(u * n)``-th, or (``use_weights``,
    ``verify._sample``'s rule) the first whose cumulative weight exceeds ``u`` times the total."""
    if not use_weights:
        return legal[np.int64(u * n)]
    total = 0.0
    for j in range(n):
        total += weights[legal[j]]
    x = u * total
    cum = 0.0
    for j in range(n):
        cum += weights[legal[j]]
        if cum > x:
            return legal[j]
    return 0


@njit(cache=True)
def _pick_uniform(s8, s16, t, B, i, u, legal):
    """The legal action of live game ``i`` that ``u`` in [0, 1) selects: the ``floor(u * n)``-th of its ``n``
    legal actions (``_legal_actions``' order). A bid, 47% of random decisions, is picked without listing its up
    to 112 amounts: they are one run of actions between the pass and the subsidy."""
    if s8[PHASE * B + i] != BID:
        return legal[np.int64(u * _legal_actions(s8, s16, t, B, i, legal))]
    p = s8[BIDDER * B + i]
    high = s16[HIGH_BID * B + i]
    bids = max(min(s16[MONEY * B + P * i + p], MAX_BID) - high, 0)  # the amounts high + 1 .. min(money, MAX_BID)
    j = np.int64(u * (1 + bids + (s8[SUBSIDY * B + P * i + p] == 0)))
    if j == 0:
        return A.PASS
    if j <= bids:
        return A.BID + high + j - 1
    return A.SUBSIDY


@njit(cache=True)
def sample_range(mask, u, out, lo, hi):
    """``sample_legal`` for rows ``lo:hi`` of ``mask`` (bool[B * 314]) with the uniform draws ``u``."""
    m = _raw(mask)
    for i in range(lo, hi):
        out[i] = _pick(m[i], u[i])


@intrinsic
def _next_double(typingctx, fn, state):
    """``fn(state)`` for the addresses of a numpy bit generator's ``next_double`` and of its state (its
    ``ctypes`` interface): the draw ``Generator.random`` makes, from compiled code."""

    def codegen(context, builder, sig, args):
        fnty = ir.FunctionType(ir.DoubleType(), [cgutils.voidptr_t])
        f = builder.inttoptr(args[0], fnty.as_pointer())
        return builder.call(f, [builder.inttoptr(args[1], cgutils.voidptr_t)])

    return types.float64(fn, state), codegen


if uncompiled.DISABLED:  # NUMBA_DISABLE_JIT=1: the kernel's Python runs as it is (for a debugger)
    _NEXT_DOUBLE = ctypes.CFUNCTYPE(ctypes.c_double, ctypes.c_void_p)

    def _next_double(fn, state):  # noqa: F811 (the uncompiled twin of the intrinsic above)
        """``fn(state)`` called through ctypes."""
        return _NEXT_DOUBLE(fn)(state)


@njit(cache=True)
def random_step_range(buf, B, t, u, fn, st, out, next_mask, write_next, lo, hi):
    """``random_step`` for games ``lo:hi``: each live game plays its ``floor(u[i] * n)``-th legal action (written
    to ``out[i]``, 0 for finished games), then (``write_next``) its new mask goes into ``next_mask``. With a bit
    generator's ``fn`` and ``st`` (nonzero), ``u[i]`` is drawn here instead, one for every game in order: the
    draws of ``rng.random(hi - lo)``."""
    s8, s16, s64, r32 = _views(buf, B)
    t, next_mask = _raw(t), _raw(next_mask)
    owner = np.empty(_MAX_LEGAL, np.int64)
    legal = _raw(owner)
    for i in range(lo, hi):
        ui = _next_double(fn, st) if fn != 0 else u[i]
        for q in range(P):
            r32[REWARDS * B + P * i + q] = 0.0
        a = 0
        if not s8[TERMINATED * B + i]:
            a = _pick_uniform(s8, s16, t, B, i, ui, legal)
            _apply(s8, s16, s64, r32, t, B, i, a)
        out[i] = a
        if write_next:
            _mask_row(s8, s16, t, B, i, next_mask[i], legal)
    owner[0] = 0  # alive until here


@njit(cache=True)
def mover(s8, B, i):
    """The player whose decision game ``i`` awaits, -1 once over (``State.current_player``)."""
    ph = s8[PHASE * B + i]
    if ph == OVER or s8[TERMINATED * B + i]:
        return -1
    if ph == BID:
        return np.int64(s8[BIDDER * B + i])
    if ph >= DEVELOP:
        return np.int64(s8[DEVELOPER * B + i])
    return np.int64(s8[AUCTIONEER * B + i])


@njit(cache=True)
def rollout_range(buf, B, t, max_steps, weights, use_weights, key, steps, stop, lo, hi):
    """Play games ``lo:hi`` for up to ``max_steps`` decisions each, or to their end, or (``stop``, int64[B], empty
    for none) until player ``stop[i]`` is to decide (see the module docstring)."""
    s8, s16, s64, r32 = _views(buf, B)
    t, weights = _raw(t), _raw(weights)
    owner = np.empty(_MAX_LEGAL, np.int64)
    legal = _raw(owner)
    for i in range(lo, hi):
        for q in range(P):
            r32[REWARDS * B + P * i + q] = 0.0
        k = 0
        # draw k is _key(seed, _key(key, 3, i), k): its first two rounds are the same for every k of the game
        game = _splitmix64(_splitmix64(_U64(s64[SEED * B + i])) ^ _U64(_key(key, 3, i)))
        while k < max_steps and not s8[TERMINATED * B + i] and (stop.size == 0 or mover(s8, B, i) != stop[i]):
            u = np.float64(_splitmix64(game ^ _U64(k)) >> _U64(11)) * (1.0 / 9007199254740992.0)
            if use_weights:
                a = _pick_listed(legal, _legal_actions(s8, s16, t, B, i, legal), u, weights, True)
            else:
                a = _pick_uniform(s8, s16, t, B, i, u, legal)
            _apply(s8, s16, s64, r32, t, B, i, a)
            k += 1
        steps[i] = k
    owner[0] = 0  # alive until here


# ---------------------------------------------------------------------------------------------- entries
OP_MASK, OP_CHECK, OP_APPLY, OP_SAMPLE, OP_ROLLOUT, OP_RANDOM_STEP = range(6)


@njit(cache=True, parallel=True)
def run_parallel(op, buf, B, t, actions, mask, use_mask, legal, penalty, next_mask, write_next, u, out, weights,
             use_weights, key, max_steps, steps, stop, nc):  # fmt: skip
    """Run the range function ``op`` over the batch in ``nc`` chunks on all threads (a ``prange`` loop).

    One parallel entry for every operation: each parallel function costs seconds of compile, so there is one.
    Returns the illegal count for ``OP_CHECK`` (else 0). Arguments an operation does not use are stand-ins.
    """
    bad = np.zeros(nc, np.int64)
    for c in prange(nc):
        lo, hi = c * B // nc, (c + 1) * B // nc
        if op == OP_MASK:
            mask_range(buf, B, t, next_mask, lo, hi)
        elif op == OP_CHECK:
            bad[c] = check_range(buf, B, t, actions, mask, use_mask, legal, lo, hi)
        elif op == OP_APPLY:
            apply_range(buf, B, t, actions, legal, penalty, next_mask, write_next, lo, hi)
        elif op == OP_SAMPLE:
            sample_range(mask, u, out, lo, hi)
        elif op == OP_RANDOM_STEP:
            random_step_range(buf, B, t, u, 0, 0, out, next_mask, write_next, lo, hi)
        else:  # games end at different times: more chunks than threads balance the load
            rollout_range(buf, B, t, max_steps, weights, use_weights, key, steps, stop, lo, hi)
    return bad.sum()


@njit(cache=True)
def step_serial(buf, B, t, actions, mask, use_mask, legal, raise_, penalty, next_mask, write_next):
    """Check every game's action; unless some are illegal and ``raise_``, step them all, on this thread (small
    batches: no thread start-up). Returns the illegal count (the state is untouched if it is nonzero and
    ``raise_``)."""
    n_bad = check_range(buf, B, t, actions, mask, use_mask, legal, 0, B)
    if n_bad and raise_:
        return n_bad
    apply_range(buf, B, t, actions, legal, penalty, next_mask, write_next, 0, B)
    return n_bad


# ---------------------------------------------------------------------------------------------- Python side
COLD_COMPILE_SECONDS = 30  # about what the first compile takes on the quiet 2-core test machine (docs/industry)
_NO_MASK = np.zeros((1, NA), np.bool_)
_NO_U8 = np.zeros(0, np.uint8)
_NO_I32 = np.zeros(0, np.int32)
_NO_I64 = np.zeros(0, np.int64)
_NO_BOOL = np.zeros(0, np.bool_)
_NO_F64 = np.zeros(0, np.float64)
# Board tables (about 17 KB each): the one of the board used last; one per board object alive; and a few by
# content, so that boards with the same facts (each env loading its own copy of one file) share one table. Boards
# are held weakly: one no longer used elsewhere is freed, and its entry with it.
TABLES_BY_CONTENT = 8
_last_table: tuple[weakref.ref | None, np.ndarray] = (None, _NO_I32)
_tables_by_board: weakref.WeakKeyDictionary[object, np.ndarray] = weakref.WeakKeyDictionary()
_tables_by_content: OrderedDict[bytes, np.ndarray] = OrderedDict()
_bit_generators: dict[int, tuple[object, int, int]] = {}
_ready = False
# numba's threads: the layer is chosen once for every game by core.runtime (TBB, else OpenMP with a bounded spin,
# else the workqueue). Batches at least this large run on all of numba's threads, smaller ones on the calling
# thread: where a launch costs a few us (tbb, omp), from 512 games; with the workqueue's 160-400 us, from 8192.
# Measured figures: docs/industry/engine.md, "Threads". Where other processes keep the cores busy,
# NUMBA_NUM_THREADS=1 is fastest.
PARALLEL_FROM_BY_LAYER = {"tbb": 512, "omp": 512, "workqueue": 8192}
PARALLEL_FROM = runtime.parallel_from(PARALLEL_FROM_BY_LAYER)
_launch_lock = threading.Lock()


def chunks(B: int, per_thread: int) -> int:
    """Chunks of a batch for the threads: a few per thread, for balance."""
    return max(1, runtime.chunks(B, 1, per_thread))


def _parallel_run(op, buf=_NO_U8, B=0, t=_NO_I32, actions=_NO_I64, mask=_NO_MASK, use_mask=False, legal=_NO_BOOL,
                  penalty=0.0, next_mask=_NO_MASK, write_next=False, u=_NO_F64, out=_NO_I64, weights=_NO_F64,
                  use_weights=False, key=0, max_steps=0, steps=_NO_I64, stop=_NO_I64, per_thread=4) -> int:  # fmt: skip
    """:func:`run_parallel` with stand-ins for the arguments ``op`` does not use (so one compiled version)."""
    with _launch_lock:
        return int(run_parallel(op, buf, B, t, actions, mask, use_mask, legal, penalty, next_mask, write_next, u, out,
                            weights, use_weights, key, max_steps, steps, stop, chunks(B, per_thread)))  # fmt: skip


def _table(board) -> np.ndarray:
    """The board table of ``board``: built once per content, looked up once per board object (see
    ``TABLES_BY_CONTENT``); no board is kept alive by it."""
    global _last_table
    last = _last_table
    if last[0] is not None and last[0]() is board:
        return last[1]
    table = _tables_by_board.get(board)
    if table is None:
        built = board_table(board)
        key = hashlib.sha256(built.tobytes()).digest()
        table = _tables_by_content.get(key)
        if table is None:
            table = _tables_by_content[key] = built
            while len(_tables_by_content) > TABLES_BY_CONTENT:
                _tables_by_content.popitem(last=False)
        else:
            _tables_by_content.move_to_end(key)
        _tables_by_board[board] = table
    _last_table = (weakref.ref(board), table)
    return table


class _Direct:
    """A compiled function called through its compiled entry, skipping numba's dispatch (about 0.3 us a call,
    a tenth of a step at batch 1): the entry of the signature of its first call. Only for calls whose argument
    types never change (arrays this module makes, or checked by ``engine``: their dtype, dimensions and C order
    are part of the signature; a read-only array, which is only read, passes as well)."""

    def __init__(self, dispatcher) -> None:
        self.dispatcher = dispatcher
        self.call = self._first

    def _first(self, *args):
        out = self.dispatcher(*args)
        try:  # numba's record of its compiled versions, by the types of the arguments
            sig = tuple(self.dispatcher.typeof_pyval(a) for a in args)
            self.call = self.dispatcher.overloads[sig].entry_point
        except (AttributeError, KeyError, TypeError):
            self.call = self.dispatcher
        return out


CACHE_NAME = "kernel"  # the stamp of this kernel's sources in numba's cache folder


def sources() -> list[str]:
    """The files whose numbers the compiled code holds: this one, the rules' constants, the action encoding and
    the State's declaration (its offsets)."""
    return [__file__, sys.modules["industry_env.games.industry.rules"].__file__, A.__file__,
            sys.modules[SCHEMA_MODULE].__file__, sys.modules[key_one.__module__].__file__]  # fmt: skip


def dispatchers() -> list:
    """This module's compiled functions, and core.chance's that it calls."""
    own = [f for f in globals().values() if hasattr(f, "_cache") and getattr(f, "__module__", None) == __name__]
    return own + [splitmix64_one, key_one]


def entries() -> list:
    """The compiled functions called from Python (each has its own entry in numba's cache)."""
    return [step_serial, run_parallel, new_games_rows, mask_range, check_range, sample_range, random_step_range,
            rollout_range]  # fmt: skip


_mask_direct, _step_direct, _random_step_direct = _Direct(mask_range), _Direct(step_serial), _Direct(random_step_range)


_sources, _dispatchers, _entries = sources, dispatchers, entries  # (old names)


def warm_up(state_type: type, board: Any) -> float:
    """Compile every entry point on a small batch of ``state_type`` games on ``board`` if numba's disk cache lacks
    them; returns the seconds taken.

    Called by the engine when it first runs the compiled backend in a process. A cold compile tells the user
    once, on stderr, and compiles everything at once (the message's estimate covers it all); from the cache, each
    function loads on its first call instead (:func:`industry_env.core.batched.warm_up`).
    """
    global _ready
    _ready = True
    return batched.warm_up(sys.modules[__name__], "Industry's batched engine", lambda: _compile_all(state_type, board),
                           "INDUSTRY_ENV_BACKEND=numpy skips it")  # fmt: skip


def _compile_all(state_type: type, board: Any) -> None:
    """Call every compiled entry once, serial and threaded, on two games."""
    s = state_type.empty(2, board=board)
    new_games(s, np.arange(2), np.arange(2, dtype=np.int64), np.array([3, 4], np.int8), np.ones(2, bool))
    mask = legal_action_mask(s)
    sample_legal(mask, np.random.default_rng(0))
    for par in (False, True):
        m = _mask(s, par)
        _step(s, _sample(m, np.zeros(2), par), True, -1.0, True, m, m, par)
        _step(s, _sample(m, np.zeros(2), par), True, -1.0, True, None, None, par)
        _mask(s, par)
        _sample(m, np.zeros(2), par)
        _rollout(s, 3, None, 0, True, par)
        _rollout(s, 3, np.ones(NA), 0, True, par)
        _random_step(s, np.zeros(2), True, m, par)
        _random_step(s, np.zeros(2), True, None, par)
    _random_step_drawing(s, np.random.default_rng(0), True, None)


def _mask(state, parallel: bool) -> np.ndarray:
    B = state.batch_size
    out = np.empty((B, NA), np.bool_)
    buf, t = state.backed(), _table(state.board)
    if parallel:
        _parallel_run(OP_MASK, buf, B, t, next_mask=out)
    else:
        _mask_direct.call(buf, B, t, out, 0, B)
    return out


def _threads(batch_size: int) -> bool:
    """Run a batch of this size on all threads?"""
    return batch_size >= PARALLEL_FROM and runtime.chunks(batch_size, PARALLEL_FROM) > 0  # no call at batch 1


def legal_action_mask(state) -> np.ndarray:
    """``engine.legal_action_mask`` by the kernel."""
    return _mask(state, _threads(state.batch_size))


def _step(state, a_all, raise_, penalty, inplace, mask, next_mask, parallel):
    s = state  # the State to write (the engine gives a copy unless in place)
    buf = s.backed()  # C-contiguous by construction
    B = s.phase.shape[0]
    acts = a_all if a_all.dtype == np.int64 and a_all.flags.c_contiguous else np.ascontiguousarray(a_all, np.int64)
    legal = np.empty(B, np.bool_)
    m = _NO_MASK if mask is None else mask if mask.flags.c_contiguous else np.ascontiguousarray(mask)
    nm = _NO_MASK if next_mask is None else next_mask
    t = _table(s.board)
    if parallel:
        if mask is None:  # legality derived from the rules: worth the threads
            n_bad = _parallel_run(OP_CHECK, buf, B, t, acts, m, False, legal)
        else:  # a lookup in the mask a game: cheaper than a launch
            n_bad = check_range(buf, B, t, acts, m, True, legal, 0, B)
        if not (n_bad and raise_):
            _parallel_run(OP_APPLY, buf, B, t, acts, legal=legal, penalty=float(penalty), next_mask=nm,
                          write_next=next_mask is not None)  # fmt: skip
    else:
        n_bad = _step_direct.call(buf, B, t, acts, m, mask is not None, legal, raise_, float(penalty), nm,
                            next_mask is not None)  # fmt: skip
    if n_bad and raise_:
        return s, np.flatnonzero(~legal)  # nothing applied: the engine refuses the step
    return s, None


def step(state, a_all, raise_: bool, penalty: float, inplace: bool, mask, next_mask):
    """``engine.step`` by the kernel (its arguments checked by the engine, ``state`` the one to write): the State
    and, if ``raise_`` and some actions are illegal (then nothing is applied), their games."""
    return _step(state, a_all, raise_, penalty, inplace, mask, next_mask, _threads(state.batch_size))


def _sample(mask, u, parallel):
    B = mask.shape[0]
    out = np.empty(B, np.int64)
    flat = mask if mask.dtype == np.bool_ and mask.flags.c_contiguous else np.ascontiguousarray(mask, np.bool_)
    if parallel:
        _parallel_run(OP_SAMPLE, B=B, mask=flat, u=u, out=out)
    else:
        sample_range(flat, u, out, 0, B)
    return out


def sample_legal(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``engine.sample_legal`` by the kernel: the same draws ``rng.random(B)``, the same picks."""
    if mask.ndim != 2 or mask.shape[1] != NA:
        raise ValueError(f"mask must be bool[B, {NA}], got shape {list(mask.shape)}")
    return _sample(mask, rng.random(mask.shape[0]), _threads(mask.shape[0]))


def _random_step(state, u, inplace, next_mask, parallel):
    s = state  # the State to write (the engine gives a copy unless in place)
    buf = s.backed()
    B = s.phase.shape[0]
    out = np.empty(B, np.int64)
    nm = _NO_MASK if next_mask is None else next_mask
    t = _table(s.board)
    if parallel:
        _parallel_run(OP_RANDOM_STEP, buf, B, t, next_mask=nm, write_next=next_mask is not None, u=u, out=out)
    else:
        random_step_range(buf, B, t, u, 0, 0, out, nm, next_mask is not None, 0, B)
    return s, out


def _bit_generator(rng: np.random.Generator) -> tuple[object, int, int]:
    """``rng``'s bit generator and the addresses of its ``next_double`` and state (from its ``ctypes``
    interface, read once per bit generator)."""
    bg = rng.bit_generator
    hit = _bit_generators.get(id(bg))
    if hit is None or hit[0] is not bg:
        if len(_bit_generators) >= 64:  # a bounded memo: it keeps its bit generators alive
            _bit_generators.clear()
        try:
            ct = bg.ctypes
            fn, st = ctypes.cast(ct.next_double, ctypes.c_void_p).value, ct.state_address
        except (AttributeError, TypeError, ValueError):  # a bit generator without numpy's ctypes interface
            fn = st = 0
        hit = _bit_generators[id(bg)] = (bg, fn or 0, st or 0)
    return hit


def _random_step_drawing(state, rng, inplace, next_mask):
    """``random_step`` on this thread, each game's draw made in the kernel from ``rng``'s bit generator: the
    draws of ``rng.random(B)`` without building that array (half the cost of a step at batch 1)."""
    s = state  # the State to write (the engine gives a copy unless in place)
    B = s.phase.shape[0]
    out = np.empty(B, np.int64)
    bg, fn, st = _bit_generator(rng)
    if not (fn and st):
        return _random_step(s, rng.random(B), True, next_mask, False)
    nm = _NO_MASK if next_mask is None else next_mask
    lock = bg.lock  # as numpy's own draws: no other thread draws from it meanwhile
    lock.acquire()
    try:
        _random_step_direct.call(s.backed(), B, _table(s.board), _NO_F64, fn, st, out, nm, next_mask is not None, 0, B)
    finally:
        lock.release()
    return s, out


def random_step(state, rng: np.random.Generator, inplace: bool, next_mask):
    """``engine.random_step`` by the kernel: the draws of ``rng.random(B)``, then one call in all."""
    B = state.phase.shape[0]
    if B >= PARALLEL_FROM and _threads(B):  # the size first: this is the batch-1 path
        return _random_step(state, rng.random(B), inplace, next_mask, True)
    return _random_step_drawing(state, rng, inplace, next_mask)


def _rollout(state, max_steps, weights, key, inplace, parallel, stop=None):
    s = state  # the State to write (the engine gives a copy unless in place)
    buf = s.backed()
    B = s.batch_size
    steps = np.zeros(B, np.int64)
    w = _NO_F64 if weights is None else weights
    st = _NO_I64 if stop is None else stop
    if parallel:
        _parallel_run(OP_ROLLOUT, buf, B, _table(s.board), weights=w, use_weights=weights is not None, key=key,
                      max_steps=max_steps, steps=steps, stop=st, per_thread=32)  # fmt: skip
    else:
        rollout_range(buf, B, _table(s.board), max_steps, w, weights is not None, key, steps, st, 0, B)
    return s, steps


def rollout(state, max_steps: int, weights, key: int, inplace: bool, stop=None):
    """``engine.rollout`` by the kernel (arguments checked by the engine): the games played in compiled code."""
    return _rollout(state, max_steps, weights, key, inplace, runtime.chunks(state.batch_size, 2) > 0, stop)


def new_games(state, rows: np.ndarray, seeds: np.ndarray, n: np.ndarray, balanced: np.ndarray,
              next_mask: np.ndarray | None = None) -> None:  # fmt: skip
    """``numpy_backend.new_games`` by the kernel: new games in ``rows`` of ``state`` (in place), masks optionally."""
    buf = state.backed()
    B = state.batch_size
    new_games_rows(buf, B, _table(state.board), np.ascontiguousarray(rows, np.int64),
                   np.ascontiguousarray(seeds, np.int64), np.ascontiguousarray(n, np.int8),
                   np.ascontiguousarray(balanced, np.bool_), _NO_MASK if next_mask is None else next_mask,
                   next_mask is not None)  # fmt: skip
