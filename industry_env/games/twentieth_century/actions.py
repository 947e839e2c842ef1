"""20th Century's one flat discrete action space (the same for 3, 4 and 5 players): named blocks at fixed
offsets, ``action_to_string`` and its parser ``string_to_action``.

Every bound is a rule or a loader limit (docs/twentieth-century/actions.md):

* LAND 8, TECH 6: the offer slots of a 5-player game ('8 territori e 6 tecnologie');
* BID 32: a bid is the smallest legal bid plus k; the last, k = 31, is '31 or more': the bidder is asked again
  with the same block what to add to it (0 to 30, or 31 and asked again), so any bid up to his coins is legal
  (ruling 19);
* CATASTROPHE 5 x 26: the card's five columns, bids 0 to 25 ('L'offerta minima è 0 e la massima è 25');
* PLACE 46 x 8, TILE 46, CITY 46 x 3: a nation's tiles by slot (the order attached, 0 the starting tile; at most
  1 + 5 x 8 land tiles + 5 institutions, geometry.MAX_TILES), the eight cells around one, at most 3 cities a tile
  (the loader's limit); the nation itself is unbounded (ruling 18);
* ROTATE 4: 'Ogni tessera ha quattro orientamenti possibili';
* USE 5 x 2: one technology a round for five rounds (ruling 11), at most two abilities a tile (a mixed tile);
* BRIDGE 4: at most 4 bridge placements a tile (the loader's limit).
"""

from __future__ import annotations

import re

from .components import CITY_NAMES, MAX_BRIDGES, MAX_CITIES, NUM_CATASTROPHE_COLUMNS
from .geometry import DIRECTION_NAMES, MAX_TILES
from .rules import CATASTROPHE_BID_MAX, LAST_FULL_ROUND, MAX_LAND_OFFER, MAX_TECH_OFFER

NUM_BIDS = 32
NUM_CAT_BIDS = CATASTROPHE_BID_MAX + 1
MAX_TECHS = LAST_FULL_ROUND  # one technology per withdrawal, one withdrawal a round (ruling 11)
MAX_ABILITIES = 2

BLOCKS = (
    ("land", MAX_LAND_OFFER),
    ("bid", NUM_BIDS),
    ("pass", 1),
    ("withdraw", 1),
    ("tech", MAX_TECH_OFFER),
    ("catastrophe", NUM_CATASTROPHE_COLUMNS * NUM_CAT_BIDS),
    ("place", MAX_TILES * len(DIRECTION_NAMES)),
    ("tile", MAX_TILES),
    ("rotate", 4),
    ("city", MAX_TILES * MAX_CITIES),
    ("use", MAX_TECHS * MAX_ABILITIES),
    ("bridge", MAX_BRIDGES),
    ("done", 1),
)
OFFSET: dict[str, int] = {}
_at = 0
for _name, _size in BLOCKS:
    OFFSET[_name] = _at
    _at += _size
SIZE = dict(BLOCKS)
NUM_ACTIONS = _at

LAND, BID, PASS, WITHDRAW, TECH = (OFFSET[k] for k in ("land", "bid", "pass", "withdraw", "tech"))
CATASTROPHE, PLACE, TILE, ROTATE, CITY = (OFFSET[k] for k in ("catastrophe", "place", "tile", "rotate", "city"))
USE, BRIDGE, DONE = (OFFSET[k] for k in ("use", "bridge", "done"))


def block_of(action: int) -> tuple[str, int]:
    """(block name, index inside it) of an action; ValueError if out of range."""
    if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"action {action!r} is not an integer in 0..{NUM_ACTIONS - 1}")
    for name, size in BLOCKS:
        if action < OFFSET[name] + size:
            return name, action - OFFSET[name]
    raise AssertionError  # unreachable


NUM_DIRECTIONS = len(DIRECTION_NAMES)


def place_action(slot: int, direction: int) -> int:
    """The cell beside the nation's tile ``slot`` toward ``direction`` (geometry.DIRECTIONS) as an action."""
    return PLACE + slot * NUM_DIRECTIONS + direction


def catastrophe_action(column: int, bid: int) -> int:
    return CATASTROPHE + column * NUM_CAT_BIDS + bid


def city_action(slot: int, city: int) -> int:
    return CITY + slot * MAX_CITIES + city


def use_action(tech: int, ability: int) -> int:
    return USE + tech * MAX_ABILITIES + ability


def action_to_string(action: int) -> str:
    """The readable name of an action, as ``string_to_action`` reads it back."""
    name, i = block_of(action)
    if name in ("land", "tech", "bridge", "tile"):
        return f"{name} {i}"
    if name == "bid":
        return f"bid +{i}"
    if name == "catastrophe":
        return f"catastrophe column {i // NUM_CAT_BIDS} bid {i % NUM_CAT_BIDS}"
    if name == "place":
        return f"place {i // NUM_DIRECTIONS} {DIRECTION_NAMES[i % NUM_DIRECTIONS]}"
    if name == "rotate":
        return f"rotate {90 * i}"
    if name == "city":
        return f"city {i // MAX_CITIES} {CITY_NAMES[i % MAX_CITIES]}"
    if name == "use":
        return f"use {i // MAX_ABILITIES}.{i % MAX_ABILITIES}"
    return name


_PATTERNS = (
    (re.compile(r"(land|tech|bridge|tile) (\d+)"), lambda m: OFFSET[m[1]] + _within(m[1], int(m[2]))),
    (re.compile(r"bid \+(\d+)"), lambda m: BID + _within("bid", int(m[1]))),
    (re.compile(r"catastrophe column (\d+) bid (\d+)"),
     lambda m: catastrophe_action(_below(int(m[1]), NUM_CATASTROPHE_COLUMNS), _below(int(m[2]), NUM_CAT_BIDS))),
    (re.compile(r"place (\d+) (n|ne|e|se|s|sw|w|nw)"),
     lambda m: place_action(_below(int(m[1]), MAX_TILES), DIRECTION_NAMES.index(m[2].upper()))),
    (re.compile(r"rotate (0|90|180|270)"), lambda m: ROTATE + int(m[1]) // 90),
    (re.compile(r"city (\d+) ([abc])"), lambda m: city_action(_below(int(m[1]), MAX_TILES), CITY_NAMES.index(m[2]))),
    (re.compile(r"use (\d+)\.(\d+)"), lambda m: use_action(_below(int(m[1]), MAX_TECHS), _below(int(m[2]), 2))),
    (re.compile(r"(pass|withdraw|done)"), lambda m: OFFSET[m[1]]),
)  # fmt: skip


def _below(value: int, bound: int) -> int:
    if value >= bound:
        raise ValueError(f"{value} is not below {bound}")
    return value


def _within(block: str, i: int) -> int:
    return _below(i, SIZE[block])


def string_to_action(text: str) -> int:
    """The action a readable name stands for (what follows a ' (' is a comment and ignored); ValueError if none."""
    core = str(text).split(" (", 1)[0].strip().lower()
    for pattern, make in _PATTERNS:
        m = pattern.fullmatch(core)
        if m:
            try:
                return make(m)
            except ValueError as exc:
                raise ValueError(f"{text!r}: {exc}") from None
    raise ValueError(f"{text!r} is not a 20th Century action (e.g. 'land 3', 'bid +2', 'pass', 'withdraw', "
                     "'tech 1', 'catastrophe column 2 bid 4', 'place 0 NE', 'tile 3', 'rotate 90', 'city 3 b', "
                     "'use 2.0', 'bridge 0', 'done')")  # fmt: skip
