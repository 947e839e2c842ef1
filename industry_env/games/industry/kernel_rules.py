"""Industry's rules for one game of a batch, compiled: the State's offsets in its one buffer, the board as one
table, and one function per rule phase, named and ordered as in :mod:`industry_env.games.industry.reference`,
each working on game ``i`` of the views ``s8``, ``s16``, ``s64`` and ``r32`` (:mod:`.kernel` describes them and
loops these rules over the batch).
"""

from __future__ import annotations

import numpy as np

from ...core.chance import key_one, splitmix64_one
from ...core.numba_cache import njit  # numba's, falling back to no disk cache where none is writable
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
MAX_LEGAL = 128  # legal actions at most: a pass, 112 bids and the subsidy (or 60 fields, done, subsidy)


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
def developable(s8, s16, t, B, i, p, out):
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
def player(s8, B, i):
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
def of_phase(ph, a):
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
def is_legal(s8, s16, t, B, i, a, scratch):
    """Is action ``a`` legal in live game ``i``? (One entry of the mask, derived from the rules.)"""
    ph = s8[PHASE * B + i]
    if not of_phase(ph, a):
        return False
    p = player(s8, B, i)
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
        for j in range(developable(s8, s16, t, B, i, p, scratch)):
            if scratch[j] == a - A.DEVELOP:
                return True
        return False
    r, way = divmod(a - A.PAY, NW)
    return r == s8[PENDING * B + 2 * i] and (_pay_ways(s8, s16, t, B, i, p) >> way) & 1 != 0


@njit(cache=True)
def legal_actions(s8, s16, t, B, i, out):
    """Game ``i``'s legal actions in increasing order into ``out[:n]`` (``Game.legal_actions()``); returns n."""
    p = player(s8, B, i)
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
        n = developable(s8, s16, t, B, i, p, out)
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
def new_game(s8, s16, s64, r32, t, B, i, seed, n, balanced):
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
def mask_row(s8, s16, t, B, i, row, legal):
    """Write game ``i``'s legal-action mask into ``row`` (bool[314]; all False once over); ``legal`` is scratch.

    Loops index rows from 0, never ``out[o + a]``: numba wraps negative indices around, and an index it
    cannot prove non-negative costs a test per element and keeps LLVM from vectorizing (here: a memset).
    """
    row[:] = False
    for j in range(legal_actions(s8, s16, t, B, i, legal)):
        row[legal[j]] = True


@njit(cache=True)
def apply(s8, s16, s64, r32, t, B, i, a):
    """Play the legal action ``a`` in game ``i``, then every phase that needs no decision."""
    p = player(s8, B, i)
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
