"""Saved games and hand-built positions: JSON in, a checked reference state out.

``state_from_dict`` refuses a corrupt or inconsistent document with a :class:`GameStateError` naming the entry
and the problem, so a position built for a test or loaded from disk is always one the rules could reach in
form (types, ranges, and the invariants that tie the entries together).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .components import Board, field_id
from .rules import (
    FACTORY,
    JOKER,
    MAX_BID,
    MAX_DEVELOPMENTS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NUM_COLUMNS,
    NUM_ERAS,
    NUM_FIELDS,
    NUM_JOKER_KINDS,
    TECHNOLOGY,
    rounds_in_game,
)

# Decisions, in the order they arise in a round.
AUCTION, BID, SELL_OR_KEEP, DEVELOP, PAY, OVER = "auction", "bid", "sell_or_keep", "develop", "pay", "over"
PHASES = (AUCTION, BID, SELL_OR_KEEP, DEVELOP, PAY, OVER)
JSON_VERSION = 1


class GameStateError(ValueError):
    """A saved game that is corrupt or inconsistent; the message says which entry and why."""


@dataclass
class Position:
    """Everything that defines a position of the reference game; saved to JSON as it is."""

    num_players: int
    balanced_draws: bool
    seed: int
    era: int = 0  # 0-based: the Era token's row
    round: int = 0  # rounds begun in the whole game
    starting_player: int = 0
    bag: list[int] = field(default_factory=list)  # column tokens still in the bag, in the order they come out
    face_up: list[bool] = field(default_factory=lambda: [False] * NUM_COLUMNS)  # available this round
    claimed: list[bool] = field(default_factory=lambda: [False] * NUM_FIELDS)  # auctioned
    owner: list[int] = field(default_factory=lambda: [-1] * NUM_FIELDS)  # Property token; -1 none (jokers too)
    developed: list[bool] = field(default_factory=lambda: [False] * NUM_FIELDS)  # token flipped
    money: list[int] = field(default_factory=list)
    points: list[int] = field(default_factory=list)  # the Scoring Track during the game
    jokers: list[list[int]] = field(default_factory=list)  # [player][resource or WILD_JOKER]: tokens held
    subsidy: list[bool] = field(default_factory=list)
    phase: str = AUCTION
    auctioneer: int = 0
    lot: int = -1  # field on auction
    bidder: int = -1  # player whose bid or pass is awaited
    high_bid: int = 0
    high_bidder: int = -1
    developer: int = -1  # player whose development turn it is
    developments: int = 0  # fields developed this turn
    dev_turns: int = 0  # players who have finished their development turn this round
    developing: int = -1  # field being paid for
    pending: list[int] = field(default_factory=list)  # its resources still to pay, in order


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def state_from_dict(doc: Any, board: Board) -> Position:
    """Check ``doc`` (a parsed saved game) entry by entry and return the state it describes."""
    if not isinstance(doc, dict):
        raise GameStateError("saved game must be a JSON object")
    if doc.get("version") != JSON_VERSION:
        raise GameStateError(f"saved game version {doc.get('version')!r} is not {JSON_VERSION}")
    fields = Position.__dataclass_fields__
    unknown = set(doc) - set(fields) - {"version", "board"}
    if unknown:
        raise GameStateError(f"saved game has unknown entries {sorted(unknown)}")
    missing = set(fields) - set(doc)
    if missing:
        raise GameStateError(f"saved game lacks entries {sorted(missing)}")

    def bad(key: str, why: str) -> GameStateError:
        return GameStateError(f"saved game entry {key!r}: {why}")

    n = doc["num_players"]
    if n not in (MIN_PLAYERS, MAX_PLAYERS) or not _is_int(n):
        raise bad("num_players", f"{n!r} is not 3 or 4")

    def integer(key: str, lo: int, hi: int, value: Any = None) -> int:
        v = doc[key] if value is None else value
        if not _is_int(v) or not lo <= v <= hi:
            raise bad(key, f"{v!r} is not a whole number from {lo} to {hi}")
        return v

    def int_list(key: str, length: int, lo: int, hi: int) -> list[int]:
        v = doc[key]
        if not isinstance(v, list) or len(v) != length or not all(_is_int(x) and lo <= x <= hi for x in v):
            raise bad(key, f"must be a list of {length} whole numbers from {lo} to {hi}")
        return list(v)

    def bool_list(key: str, length: int) -> list[bool]:
        v = doc[key]
        if not isinstance(v, list) or len(v) != length or not all(isinstance(x, bool) for x in v):
            raise bad(key, f"must be a list of {length} true/false values")
        return list(v)

    if not isinstance(doc["balanced_draws"], bool):
        raise bad("balanced_draws", "must be true or false")
    s = Position(num_players=n, balanced_draws=doc["balanced_draws"], seed=integer("seed", 0, 2**63 - 1))
    s.era = integer("era", 0, NUM_ERAS - 1)
    s.round = integer("round", 1, rounds_in_game(n, doc["balanced_draws"]))
    s.starting_player = integer("starting_player", 0, n - 1)
    s.bag = int_list("bag", len(doc["bag"]) if isinstance(doc["bag"], list) else -1, 0, NUM_COLUMNS - 1)
    s.face_up = bool_list("face_up", NUM_COLUMNS)
    s.claimed = bool_list("claimed", NUM_FIELDS)
    s.owner = int_list("owner", NUM_FIELDS, -1, n - 1)
    s.developed = bool_list("developed", NUM_FIELDS)
    # Bounds of what a game can hold: no player can hold more than all the money that can ever exist
    # (MAX_BID, rules.money_bound, so he can always bid all he has), nor more points than every cogwheel of the
    # board, nor more than the 7 Joker tokens (below).
    s.money = int_list("money", n, 0, MAX_BID)
    points_cap = int(board.POINTS[(board.KIND == FACTORY) | (board.KIND == TECHNOLOGY)].astype(int).sum())
    s.points = int_list("points", n, 0, points_cap)
    s.subsidy = bool_list("subsidy", n)
    jk = doc["jokers"]
    if (
        not isinstance(jk, list)
        or len(jk) != n
        or not all(
            isinstance(row, list) and len(row) == NUM_JOKER_KINDS and all(_is_int(x) and x >= 0 for x in row)
            for row in jk
        )
    ):
        raise bad("jokers", f"must be {n} lists of {NUM_JOKER_KINDS} counts (11 resources, then '?')")
    s.jokers = [list(row) for row in jk]
    held, on_board = sum(map(sum, s.jokers)), int((board.KIND == JOKER).sum())
    if held > on_board:  # "7 Joker tokens", one on each joker field
        raise bad("jokers", f"{held} Joker tokens held in all, but the game has {on_board}")
    if doc["phase"] not in PHASES:
        raise bad("phase", f"{doc['phase']!r} is not one of {list(PHASES)}")
    s.phase = doc["phase"]
    s.auctioneer = integer("auctioneer", 0, n - 1)
    s.lot = integer("lot", -1, NUM_FIELDS - 1)
    s.bidder = integer("bidder", -1, n - 1)
    s.high_bid = integer("high_bid", 0, MAX_BID)
    s.high_bidder = integer("high_bidder", -1, n - 1)
    s.developer = integer("developer", -1, n - 1)
    s.developments = integer("developments", 0, MAX_DEVELOPMENTS - 1)
    s.dev_turns = integer("dev_turns", 0, n - 1)
    s.developing = integer("developing", -1, NUM_FIELDS - 1)
    s.pending = int_list("pending", len(doc["pending"]) if isinstance(doc["pending"], list) else -1, 0, 10)

    # Invariants that tie the entries together.
    if len(set(s.bag)) != len(s.bag):
        raise bad("bag", "holds a column token twice")
    for f in range(NUM_FIELDS):
        where = f"field {field_id(f)}"
        if s.owner[f] >= 0 and not s.claimed[f]:
            raise bad("owner", f"{where} has an owner but was never auctioned")
        if s.owner[f] >= 0 and board.KIND[f] == JOKER:
            raise bad("owner", f"{where} is a joker field and takes no Property token")
        if s.claimed[f] and s.owner[f] < 0 and board.KIND[f] != JOKER:
            raise bad("owner", f"{where} was auctioned but nobody owns it")
        if s.developed[f] and s.owner[f] < 0:
            raise bad("developed", f"{where} is developed but owned by nobody")
        if board.ERA[f] > s.era and s.claimed[f]:
            raise bad("claimed", f"{where} lies in a later era than the Era token")
        if board.ERA[f] < s.era and not s.claimed[f]:
            raise bad("claimed", f"{where} lies in a past era but was never auctioned")
    for c in range(NUM_COLUMNS):
        f = s.era * NUM_COLUMNS + c
        if s.face_up[c] and s.claimed[f]:
            raise bad("face_up", f"column {c} is face up but field {field_id(f)} was already auctioned")
        if (c in s.bag) and (s.claimed[f] or s.face_up[c]):
            raise bad("bag", f"column token {c} is in the bag but was already drawn this era")
        if s.phase != OVER and not s.claimed[f] and not s.face_up[c] and c not in s.bag:
            raise bad("bag", f"column token {c} is neither in the bag, face up, nor face down on an auctioned field")
    if s.phase == PAY and (s.developing < 0 or not s.pending or s.owner[s.developing] != s.developer):
        raise bad("pending", "a payment is awaited but no own field is being developed")
    if s.phase == PAY and board.KIND[s.developing] == TECHNOLOGY and board.ERA[s.developing] != s.era:
        raise bad("developing", "technologies are developed only in their own era")
    if s.phase in ("auction", "bid", "sell_or_keep") and not any(s.face_up):
        raise bad("face_up", "an auction decision is awaited but no column token is face up")
    if s.phase in ("bid", "sell_or_keep") and (s.lot < 0 or s.claimed[s.lot] or not s.face_up[s.lot % NUM_COLUMNS]
                                               or board.ERA[s.lot] != s.era):  # fmt: skip
        raise bad("lot", "the field on auction is not an available field of the current era")
    if s.phase == "bid" and (s.bidder < 0 or s.bidder == s.auctioneer):
        raise bad("bidder", "a bid is awaited from nobody, or from the auctioneer")
    if s.phase == "bid" and s.high_bidder >= 0 and s.high_bid == 0:
        raise bad("high_bid", "a highest bidder with no bid")
    if s.phase == "sell_or_keep" and (s.high_bidder < 0 or s.high_bid <= 0):
        raise bad("high_bid", "the auctioneer decides with no bid on the table")
    if s.phase in ("bid", "sell_or_keep") and s.high_bidder >= 0 and s.money[s.high_bidder] < s.high_bid:
        # a bid can never exceed the bidder's money, and nothing takes money from him before the auction ends
        raise bad("high_bid", f"player {s.high_bidder} bid {s.high_bid} but holds only {s.money[s.high_bidder]} Talers")
    if s.phase in ("develop", "pay") and s.developer < 0:
        raise bad("developer", "a development decision is awaited from nobody")
    if s.phase in ("bid", "sell_or_keep") and s.high_bidder == s.auctioneer:
        raise bad("high_bidder", "the auctioneer cannot bid in his own auction")
    if s.high_bid > 0 and s.high_bidder < 0:
        raise bad("high_bid", f"a bid of {s.high_bid} with no highest bidder")
    if s.phase == PAY:
        needs = [int(r) for r in board.NEEDS[s.developing] if r >= 0]
        # each pending unit is one of the field's needs, a resource at most as often as the field needs it
        if any(s.pending.count(r) > needs.count(r) for r in s.pending):
            raise bad("pending", f"resources {s.pending} are not the unpaid needs of field {field_id(s.developing)}")
    if s.phase == OVER and (s.era != NUM_ERAS - 1 or not all(s.claimed)):
        raise bad("phase", "the game is over only once every field of all five eras has been auctioned")
    return s
