"""The one observation layout of Industry: a flat float32 vector seen from one player's seat.

Both engines produce it: :func:`observe_game` here reads a reference
:class:`~industry_env.games.industry.reference.Game` plainly, and :func:`industry_env.games.industry.engine.observe`
computes the same vector for a whole batch (the two are checked equal, bit for bit, in
``tests/industry/test_observation.py`` and the differential tests).

Seats are relative: seat 0 is the observer, seat 1 the player to his left, and so on clockwise; seat 3 of a
3-player game is all zeros (``seat_present`` says which seats play). Everything on the table is observed
(perfect information) except the future: the order of the column tokens left in the bag is hidden, only the
set of tokens still in it (``in_bag``) is shown.

=================  ======  ======  ==================================================================
name               offset  size    content (``/ k``: the count divided by k)
=================  ======  ======  ==================================================================
four_players       0       1       1 if 4 players, 0 if 3
balanced_draws     1       1       1 if the recommended draws of Eras 4 and 5 are used
era                2       5       one-hot Era token row
round              7       1       rounds begun / 20
phase              8       6       one-hot: auction, bid, sell_or_keep, develop, pay, over
to_move            14      4       relative seat of the player to move (all 0 once over)
seat_present       18      4       seat takes part in the game
money              22      4       Talers per seat / 10
points             26      4       Scoring Track per seat / 10
subsidy            30      4       Subsidy token taken, per seat
jokers             34      48      [seat, 12] Joker tokens held: 11 resources, then "?"
starting_player    82      4       relative seat holding the Starting Player marker
auctioneer         86      4       relative seat of the Auctioneer (last one outside the auction phase)
high_bidder        90      4       relative seat of the highest bidder, if any
developer          94      4       relative seat whose development turn it is, if any
owner              98      240     [field, seat] Property token of the seat on the field
developed          338     60      field developed (token flipped)
claimed            398     60      field auctioned
available          458     60      field available for auction (current era, column token face up)
in_bag             518     12      column token still in the bag (the order is hidden)
lot                530     60      one-hot field on auction
high_bid           590     1       highest bid / 10
developments       591     1       fields developed in this development turn
dev_turns          592     1       development turns finished this round
developing         593     60      one-hot field being paid for
pending            653     22      [2, 11] one-hot resources still to pay, in order (owed twice: both rows)
=================  ======  ======  ==================================================================

``OBS_DIM = 675``. :func:`views` gives named, shaped views into an observation (or a batch of them).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.spec import check_seat
from .rules import MAX_BID, MAX_PLAYERS, NUM_COLUMNS, NUM_ERAS, NUM_FIELDS, NUM_JOKER_KINDS, NUM_RESOURCES

SCALE_MONEY = np.float32(10.0)
SCALE_POINTS = np.float32(10.0)
SCALE_ROUND = np.float32(20.0)
_PHASES = ("auction", "bid", "sell_or_keep", "develop", "pay", "over")

P = MAX_PLAYERS
LAYOUT: tuple[tuple[str, tuple[int, ...]], ...] = (
    ("four_players", (1,)),
    ("balanced_draws", (1,)),
    ("era", (NUM_ERAS,)),
    ("round", (1,)),
    ("phase", (len(_PHASES),)),
    ("to_move", (P,)),
    ("seat_present", (P,)),
    ("money", (P,)),
    ("points", (P,)),
    ("subsidy", (P,)),
    ("jokers", (P, NUM_JOKER_KINDS)),
    ("starting_player", (P,)),
    ("auctioneer", (P,)),
    ("high_bidder", (P,)),
    ("developer", (P,)),
    ("owner", (NUM_FIELDS, P)),
    ("developed", (NUM_FIELDS,)),
    ("claimed", (NUM_FIELDS,)),
    ("available", (NUM_FIELDS,)),
    ("in_bag", (NUM_COLUMNS,)),
    ("lot", (NUM_FIELDS,)),
    ("high_bid", (1,)),
    ("developments", (1,)),
    ("dev_turns", (1,)),
    ("developing", (NUM_FIELDS,)),
    ("pending", (2, NUM_RESOURCES)),
)


def _build_index() -> dict[str, slice]:
    out, offset = {}, 0
    for name, shape in LAYOUT:
        size = int(np.prod(shape))
        out[name] = slice(offset, offset + size)
        offset += size
    return out


INDEX: dict[str, slice] = _build_index()  # name -> slice of the flat vector
SHAPES: dict[str, tuple[int, ...]] = dict(LAYOUT)
OBS_DIM: int = max(sl.stop for sl in INDEX.values())


# Largest value of each count entry (the others are 0/1 flags): money and bids at most MAX_BID Talers (all the
# money a game can hold), points at most every field's cogwheel (a board file allows 0-20 points a field),
# rounds at most 20 (3 players, one token per player: 4 rounds an era), at most the 7 Joker tokens of one kind,
# one development done in a turn before it ends, and n - 1 development turns finished in a round.
_COUNT_BOUNDS = {
    "round": 20 / SCALE_ROUND,
    "money": MAX_BID / SCALE_MONEY,
    "points": 20 * NUM_FIELDS / SCALE_POINTS,
    "jokers": 7.0,
    "high_bid": MAX_BID / SCALE_MONEY,
    "developments": 1.0,
    "dev_turns": MAX_PLAYERS - 1.0,
}


def bounds() -> tuple[np.ndarray, np.ndarray]:
    """float32[OBS_DIM] low and high: every observation lies within them (the environments' Box space)."""
    low = np.zeros(OBS_DIM, np.float32)
    high = np.ones(OBS_DIM, np.float32)
    for name, top in _COUNT_BOUNDS.items():
        high[INDEX[name]] = top
    return low, high


def views(obs: np.ndarray) -> dict[str, np.ndarray]:
    """Named views (shaped as in LAYOUT) into ``obs`` of shape [..., OBS_DIM]; writing to them writes ``obs``."""
    lead = obs.shape[:-1]
    return {name: obs[..., INDEX[name]].reshape(*lead, *SHAPES[name]) for name in INDEX}


def describe(obs: np.ndarray) -> str:
    """A readable listing of the non-zero entries of one observation, by name."""
    lines = []
    for name, v in views(np.asarray(obs, np.float32)).items():
        nz = np.argwhere(v != 0)
        if nz.size:
            items = ", ".join(f"{tuple(int(x) for x in ix) if len(ix) > 1 else int(ix[0])}={v[tuple(ix)]:g}"
                              for ix in nz)  # fmt: skip
            lines.append(f"{name}: {items}")
    return "\n".join(lines)


def observe_game(game: Any, player: int) -> np.ndarray:
    """float32[OBS_DIM]: what ``player`` sees of the reference ``game`` (a :class:`.reference.Game`, which calls
    this as its ``observe``; not imported here, so that the two modules import one way) (readable twin of
    ``engine.observe``)."""
    s, n = game.s, game.num_players
    player = check_seat(player, n)
    obs = np.zeros(OBS_DIM, np.float32)
    v = views(obs)

    def seat(q: int) -> int:
        """Relative seat of player q: 0 for the observer, then clockwise."""
        return (q - player) % n

    def mark(name: str, q: int) -> None:
        if q >= 0:
            v[name][seat(q)] = 1.0

    v["four_players"][0] = n == 4
    v["balanced_draws"][0] = s.balanced_draws
    v["era"][s.era] = 1.0
    v["round"][0] = np.float32(s.round) / SCALE_ROUND
    v["phase"][_PHASES.index(s.phase)] = 1.0
    mark("to_move", game.current_player)
    for q in range(n):
        k = seat(q)
        v["seat_present"][k] = 1.0
        v["money"][k] = np.float32(s.money[q]) / SCALE_MONEY
        v["points"][k] = np.float32(s.points[q]) / SCALE_POINTS
        v["subsidy"][k] = s.subsidy[q]
        v["jokers"][k] = s.jokers[q]
    mark("starting_player", s.starting_player)
    mark("auctioneer", s.auctioneer)
    mark("high_bidder", s.high_bidder)
    mark("developer", s.developer)
    for f in range(NUM_FIELDS):
        if s.owner[f] >= 0:
            v["owner"][f, seat(s.owner[f])] = 1.0
        v["developed"][f] = s.developed[f]
        v["claimed"][f] = s.claimed[f]
    for c in range(NUM_COLUMNS):
        v["available"][s.era * NUM_COLUMNS + c] = s.face_up[c]
    for c in s.bag:  # the set of tokens in the bag is public; their order is not observed
        v["in_bag"][c] = 1.0
    if s.lot >= 0:
        v["lot"][s.lot] = 1.0
    v["high_bid"][0] = np.float32(s.high_bid) / SCALE_MONEY
    v["developments"][0] = s.developments
    v["dev_turns"][0] = s.dev_turns
    if s.developing >= 0:
        v["developing"][s.developing] = 1.0
    for j, r in enumerate(s.pending):
        v["pending"][j, r] = 1.0
    return obs


__all__ = ["LAYOUT", "INDEX", "SHAPES", "OBS_DIM", "bounds", "views", "describe", "observe_game"]
