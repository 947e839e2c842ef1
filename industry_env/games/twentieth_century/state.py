"""The names a 20th Century position is saved under, and the error a corrupt one raises: one declaration that the
reference engine (:mod:`.reference`), the position check (:mod:`.positions`) and the observation read."""

from __future__ import annotations

GAME_NAME = "twentieth_century"
JSON_VERSION = 1
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
          "pollution", "pending_cubes", "pending", "techs", "used", "vp", "ledger", "grid_tile", "grid_rot",
          "grid_bridge", "grid_cubes", "grid_citizens", "grid_new", "sel", "removed", "production_now")  # fmt: skip


class GameStateError(ValueError):
    """A saved position that is corrupt or inconsistent; the message says which entry and why."""
