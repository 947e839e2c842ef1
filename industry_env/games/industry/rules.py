"""Numbers fixed by the rulebook of Industry (not the board): one place for every rule constant.

Each constant cites the rulebook sentence it encodes. Board data (fields, links, resources) lives in
``data/board.toml`` instead; see :mod:`industry_env.games.industry.components`.
"""

from __future__ import annotations

NUM_ERAS = 5  # "The board is divided into 5 eras"
NUM_COLUMNS = 12  # "12 columns labeled A to L"
NUM_FIELDS = NUM_ERAS * NUM_COLUMNS  # "In total, 60 fields can be purchased and developed"
NUM_RESOURCES = 11  # Stone ... Computers, from the table of resources at the bank
COLUMN_LETTERS = "ABCDEFGHIJKL"
COIN_COLUMN = 0  # "If the Column token with a coin symbol is drawn" (token A, per the Italian text)
MIN_PLAYERS, MAX_PLAYERS = 3, 4  # draws of "3 or 4" tokens a round, one per player

STARTING_MONEY = 4  # "Give each player 4 Talers"
INCOME = 1  # Phase 1: "Each player takes 1 Taler from the bank"
COIN_TOKEN_MONEY = 1  # "each player immediately takes one Taler from the bank"
MAX_DEVELOPMENTS = 2  # "develop up to two of his undeveloped fields"
RESOURCE_PRICE = 1  # "You can pay this player 1 Taler" / "buy ... from the bank for 1 Taler"
SUBSIDY_MONEY = 3  # "He immediately takes 3 Talers from the bank"
SUBSIDY_POINTS = -5  # "this Subsidy token is worth -5 points"
TALERS_PER_POINT = 3  # "For every 3 Talers a player holds, he earns 1 victory point"
LINK_POINTS = 3  # "For each pair of Factories that are directly linked by a road, he earns 3 points"
JOKER_POINTS = 2  # "Unused Joker tokens: For each such token a player holds, he earns 2 points"

# Bonus fields are connected to factories "Ports by rivers, Railway Stations by tracks, Pump Stations by
# pipelines, and Power Stations by power lines".
BONUS_KINDS = ("port", "railway_station", "pump_station", "power_station")
NETWORKS = ("river", "tracks", "pipelines", "power_lines")

FIELD_KINDS = ("factory", "technology", "bonus", "joker")
FACTORY, TECHNOLOGY, BONUS, JOKER = range(4)
WILD_JOKER = NUM_RESOURCES  # joker index of the "?" Joker: "worth one resource of your choice"
NUM_JOKER_KINDS = NUM_RESOURCES + 1


def tokens_per_round(num_players: int, era: int, balanced_draws: bool) -> int:
    """Column tokens drawn in Phase 2 of a round in ``era`` (0-based).

    "one Column token per player"; with the rulebook's recommendation (``balanced_draws``): "With 3 players,
    draw 4 tokens per round (instead of 3) in both Era 4 and Era 5. With 4 players, draw only 3 tokens per
    round (instead of 4) in Era 5." Every count divides the 12 fields of an era, so rounds never straddle eras.
    """
    if balanced_draws:
        if num_players == 3 and era >= 3:
            return 4
        if num_players == 4 and era == 4:
            return 3
    return num_players


def rounds_in_game(num_players: int, balanced_draws: bool) -> int:
    """Number of rounds in a whole game: 12 fields per era divided by the tokens drawn per round."""
    return sum(NUM_COLUMNS // tokens_per_round(num_players, e, balanced_draws) for e in range(NUM_ERAS))


def money_bound(num_players: int, balanced_draws: bool) -> int:
    """An upper bound on all the money that can ever be in players' hands at once.

    Money enters only by the starting 4 Talers, 1 Taler income a round, 1 Taler per coin token (drawn once an
    era) and one subsidy of 3 Talers a player; every other payment moves money between players or to the bank.
    """
    per_player = STARTING_MONEY + INCOME * rounds_in_game(num_players, balanced_draws)
    per_player += COIN_TOKEN_MONEY * NUM_ERAS + SUBSIDY_MONEY
    return num_players * per_player


# No player can hold more than all the money in the game, so bids up to this cap never bind (4 players with
# the balanced draws play 16 rounds: 4 * (4 + 16 + 5 + 3) = 112).
MAX_BID = max(money_bound(n, b) for n in (MIN_PLAYERS, MAX_PLAYERS) for b in (False, True))
