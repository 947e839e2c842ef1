"""The names a 20th Century position is saved under, and the error a corrupt one raises: one declaration that the
reference engine (:mod:`.reference`), the position check (:mod:`.positions`) and the observation read."""

from __future__ import annotations

from typing import Any

GAME_NAME = "twentieth_century"
JSON_VERSION = 2  # 2: a nation's tiles by slot with their cells (ruling 18); 1 held a 9 x 9 grid
# The decisions a game awaits (the value of ``Game.phase``), in the order a round meets them.
PHASES = ("lead", "open", "bid", "tech", "catastrophe", "attach_pick", "attach_cell", "attach_rotate", "citizen",
          "garbage", "use", "use_target", "use_target2", "bridge", "recycle", "over")  # fmt: skip
CARD_CHOICES = ("random", "a", "b", "c", "none")  # the options r2 and r4 (ruling 35)
SCORE_SOURCES = ("production", "quality_of_life", "round_2_card", "round_4_card", "land_tiles", "pollution",
                 "coins", "science")  # fmt: skip
LEDGER = ("coins_in", "coins_out", "science_in", "science_out", "cubes_in", "cubes_out")
# Every entry of a saved position (``Game.to_json``), in the order they are checked.
FIELDS = ("n", "seed", "options", "r2", "r4", "land_stacks", "tech_stacks", "cat_stack", "cat_revealed",
          "cat_current", "round", "phase", "to_move", "next_leader", "leader", "land_offer", "tech_offer",
          "discarded_land", "discarded_tech", "cost_pos", "auction_slot", "high_bid", "high_bidder", "withdrawn",
          "passed", "won", "resume", "cat_col", "cat_bid", "maint_order", "maint_pos", "coins", "science",
          "pollution", "pending_cubes", "pending", "techs", "used", "vp", "ledger", "grid_tile", "grid_x", "grid_y",
          "grid_rot", "grid_bridge", "grid_cubes", "grid_citizens", "grid_new", "sel", "removed",
          "production_now")  # fmt: skip


class GameStateError(ValueError):
    """A saved position that is corrupt or inconsistent; the message says which entry and why."""


# ---------------------------------------------------------------------------------------------- the batched State
# The batched engine's State (engine.py, kernel.py): the entries of a position above as arrays with a leading game
# axis, seats padded to 5 and lists padded with their lengths beside them, declared once: (name, dtype, shape in
# symbols, meaning). Symbols: P seats (5), C a nation's tile slots (geometry.MAX_TILES), L land tiles, T
# technologies, N nodes of a nation's rail network (C slots x 9 local components). Every integer is int16: no
# count of the game passes 32767.
BATCH_FIELDS = (
    ("seed", "int64", (), "the game's seed (set-up's chance; a resampled game gets a fresh one)"),
    ("rewards", "float32", ("P",), "the last step's reward per seat: +1 winners, -1 the others, at the game's end"),
    ("terminated", "bool", (), "the game is over (by the rules, or ended by an illegal action)"),
    ("num_players", "int16", (), "n, 3 to 5"),
    ("r2_option", "int16", (), "the r2 option as an index of CARD_CHOICES"),
    ("r4_option", "int16", (), "the r4 option as an index of CARD_CHOICES"),
    ("r2", "int16", (), "the round-II scoring card 0-2 (a, b, c), -1 none"),
    ("r4", "int16", (), "the round-IV scoring card 0-2, -1 none"),
    ("land_stack", "int16", (3, "L"), "each era's land stack as shuffled at set-up; undealt from land_pos"),
    ("land_pos", "int16", (3,), "the next tile dealt from each era's land stack"),
    ("tech_stack", "int16", (3, "T"), "each era's technology stack as shuffled; undealt from tech_pos"),
    ("tech_pos", "int16", (3,), "the next technology dealt from each era's stack"),
    ("cat_stack", "int16", (5,), "the five catastrophe cards, top first; cat_pos of them revealed"),
    ("cat_pos", "int16", (), "catastrophes revealed so far"),
    ("cat_current", "int16", (), "this round's catastrophe card, -1 before the first"),
    ("round", "int16", (), "1 to 6"),
    ("phase", "int16", (), "the decision awaited, an index of PHASES"),
    ("to_move", "int16", (), "the seat deciding, -1 once over"),
    ("next_leader", "int16", (), "the seat that took the leftmost catastrophe column"),
    ("leader", "int16", (), "the auction's leader"),
    ("land_offer", "int16", (8,), "land tiles on offer by slot, -1 taken"),
    ("land_offer_len", "int16", (), "slots dealt this round"),
    ("tech_offer", "int16", (6,), "technologies on offer by slot, -1 taken"),
    ("tech_offer_len", "int16", (), "slots dealt this round"),
    ("discarded_land", "int16", ("L",), "land tiles left over at a round's end, in order"),
    ("discarded_land_len", "int16", (), "their number"),
    ("discarded_tech", "int16", ("T",), "technologies left over at a round's end, in order"),
    ("discarded_tech_len", "int16", (), "their number"),
    ("cost_pos", "int16", (), "the technology cost marker"),
    ("auction_slot", "int16", (), "the land slot under auction, -1 none"),
    ("high_bid", "int16", (), "the highest bid"),
    ("high_bidder", "int16", (), "its seat, -1 none"),
    ("withdrawn", "int16", ("P",), "the order of withdrawal this round (1 first), 0 still in"),
    ("passed", "int16", ("P",), "passed on the tile under auction"),
    ("won", "int16", ("P",), "land tiles won this round"),
    ("resume", "int16", (), "the phase a withdrawal came from (PHASES index), -1 none"),
    ("cat_col", "int16", ("P",), "each pawn's catastrophe column, -1 none"),
    ("cat_bid", "int16", ("P",), "each pawn's bid of science"),
    ("maint_first", "int16", (), "the first seat of the maintenance order, -1 before the first maintenance"),
    ("maint_pos", "int16", (), "the position in the maintenance order"),
    ("coins", "int16", ("P",), "coins"),
    ("science", "int16", ("P",), "science"),
    ("pollution", "int16", ("P",), "the pollution marker"),
    ("pending_cubes", "int16", ("P",), "garbage cubes to place"),
    ("pending", "int16", ("P", 9, 3), "tiles to attach (code, slot, purchase cubes), in order"),
    ("pending_len", "int16", ("P",), "their number"),
    ("techs", "int16", ("P", 5), "technologies owned, in order of purchase"),
    ("techs_len", "int16", ("P",), "their number"),
    ("used", "int16", ("P", 5, 2), "each owned technology's abilities used"),
    ("vp", "int16", ("P", 8), "victory points by SCORE_SOURCES"),
    ("ledger", "int16", ("P", 6), "the LEDGER counts"),
    ("grid_tile", "int16", ("P", "C"), "the tile code in each slot (the order attached, 0 the starting tile), -1 "
     "empty"),
    ("grid_x", "int16", ("P", "C"), "its cell, east of the starting tile's"),
    ("grid_y", "int16", ("P", "C"), "its cell, south of the starting tile's"),
    ("grid_rot", "int16", ("P", "C"), "its rotation"),
    ("grid_bridge", "int16", ("P", "C"), "its placed bridge, -1 none"),
    ("grid_cubes", "int16", ("P", "C"), "its garbage cubes"),
    ("grid_citizens", "int16", ("P", "C"), "its occupied cities (bit j: city j)"),
    ("grid_new", "int16", ("P", "C"), "bought this round"),
    ("sel", "int16", (3,), "the sub-decision in progress"),
    ("sel_len", "int16", (), "its length"),
    ("removed", "int16", (243,), "slots recycled from in this production"),
    ("removed_len", "int16", (), "their number"),
    ("production_now", "int16", ("P", 3), "this round's production markers (coins, science, VP)"),
    ("network", "int16", ("P", "N"), "each nation's rail network: the root of each node (slot x 9 + local "
     "component), kept as tiles and bridges are placed"),
)  # fmt: skip
BATCH_FILL = {"cat_current": -1, "auction_slot": -1, "high_bidder": -1, "resume": -1, "maint_first": -1,
              "grid_tile": -1, "grid_bridge": -1}  # fmt: skip


def batch_schema(num_land: int, num_technologies: int) -> Any:
    """The core Schema of a batch of games on components with these numbers of land tiles and technologies."""
    import numpy as np

    from ...core.state import Field, Schema
    from .geometry import MAX_TILES

    sizes = {"P": 5, "C": MAX_TILES, "N": MAX_TILES * 9, "L": num_land, "T": num_technologies}
    return Schema(Field(name, np.dtype(dtype), tuple(sizes.get(s, s) for s in shape), BATCH_FILL.get(name, 0), doc)
                  for name, dtype, shape, doc in BATCH_FIELDS)  # fmt: skip
