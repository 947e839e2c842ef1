"""The batched State of Industry declared once: each field's name, dtype, shape per game, fill and meaning.

From this one declaration come the arrays of a batch (``engine.State``), the layout of the one buffer they
view, the bytes per game, and the offsets the compiled kernel indexes (``kernel``: ``SCHEMA.units(name)``).
P = 4 player slots; slot 3 stays zero in 3-player games. Each field is the reference ``_State`` entry of the
same name unless said.
"""

from __future__ import annotations

import numpy as np

from ...core.state import Field, Schema
from .rules import MAX_PLAYERS, NUM_COLUMNS, NUM_FIELDS, NUM_JOKER_KINDS, NUM_RESOURCES

P = MAX_PLAYERS

SCHEMA = Schema([
    Field("seed", np.int64, (), 0, "chance seed of each game (bag order, starting player)"),
    Field("num_players", np.int8, (), 0, "3 or 4 (batches may mix them)"),
    Field("balanced_draws", bool, (), False, "the rulebook's recommended draws in Eras 4 and 5"),
    Field("era", np.int8, (), 0, "0-based Era token row"),
    Field("round", np.int8, (), 0, "rounds begun in the whole game"),
    Field("starting_player", np.int8, (), 0, "holder of the Starting Player marker"),
    Field("bag", np.int8, (NUM_COLUMNS,), 0, "this era's column tokens in draw order; bag[bag_pos:] still in the bag"),
    Field("bag_pos", np.int8, (), 0, "tokens drawn from bag this era (reference: bag = the remainder)"),
    Field("face_up", bool, (NUM_COLUMNS,), False, "face-up column tokens (available fields of the era row)"),
    Field("claimed", bool, (NUM_FIELDS,), False, "field auctioned"),
    Field("owner", np.int8, (NUM_FIELDS,), -1, "Property token's player, -1 none (joker fields stay -1)"),
    Field("developed", bool, (NUM_FIELDS,), False, "Property token flipped"),
    Field("money", np.int16, (P,), 0, "Talers in hand"),
    Field("points", np.int16, (P,), 0, "Scoring Track during the game"),
    Field("jokers", np.int8, (P, NUM_JOKER_KINDS), 0, "Joker tokens held: 11 resources, then the '?' joker"),
    Field("subsidy", bool, (P,), False, "Subsidy token taken"),
    Field("phase", np.int8, (), 0, "AUCTION 0, BID 1, SELL_OR_KEEP 2, DEVELOP 3, PAY 4, OVER 5"),
    Field("auctioneer", np.int8, (), 0, "the Auctioneer"),
    Field("lot", np.int8, (), -1, "field on auction, -1 none"),
    Field("bidder", np.int8, (), -1, "player whose bid or pass is awaited, -1 none"),
    Field("high_bid", np.int16, (), 0, "highest bid so far (0 none)"),
    Field("high_bidder", np.int8, (), -1, "its bidder, -1 none"),
    Field("developer", np.int8, (), -1, "player whose development turn it is, -1 none"),
    Field("developments", np.int8, (), 0, "fields developed this turn (0-1)"),
    Field("dev_turns", np.int8, (), 0, "development turns finished this round"),
    Field("developing", np.int8, (), -1, "field being paid for, -1 none"),
    Field("pending", np.int8, (2,), -1, "its resources still to pay, in order, -1 padded"),
    Field("produces", bool, (P, NUM_RESOURCES), False, "cache: the player has a developed factory making it"),
    Field("discount", np.int8, (P,), 0, "cache: Talers off construction costs (developed Bank / Stock Exchange)"),
    Field("terminated", bool, (), False, "the game is over (phase OVER, or ended by an illegal action)"),
    Field("rewards", np.float32, (P,), 0.0, "rewards of the last step: Game.returns() on the step that ends a game"),
])  # fmt: skip
