"""The position of a game of Age of Industry: plain integers and fixed-shape integer arrays, declared once.

:data:`FIELDS` lists every entry with its dtype, its shape (symbols: ``P`` the 5 seats, padded; ``K`` card kinds;
``D`` display slots; ``C`` the 66 cards; ``S`` map spaces; ``L`` map links) and its meaning, so that a batched
kernel holds one array per entry with a leading game axis, 1:1. The decision in progress is a few integers
(``phase``, ``card``, ``build_space``, ``build_industry``, ``need_coal``, ``need_iron``, ``rail_link``,
``sell_from``, ``draws_left``). The reference engine keeps them as Python ints and lists (fast to index) and
:meth:`State.arrays` gives them as numpy arrays of the declared dtypes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ...core.state import Field, Schema
from .rules import MAX_PLAYERS, NUM_FACE_UP, RESOURCES

JSON_VERSION = 1  # of a saved position (positions.py reads it)
GAME_NAME = "age_of_industry"


class GameStateError(ValueError):
    """A saved position that is corrupt or inconsistent; the message says which entry and why."""

# Decisions (the value of ``phase``), in the order they arise in an action.
PHASES = ("action", "build_where", "coal_source", "iron_source", "sell_to", "sell_more", "develop_which",
          "draw_second", "over")  # fmt: skip
ACTION, BUILD_WHERE, COAL_SOURCE, IRON_SOURCE, SELL_TO, SELL_MORE, DEVELOP_WHICH, DRAW_SECOND, OVER = range(9)

# (name, dtype, shape, meaning). Shapes are tuples of symbols or numbers; () is a scalar.
FIELDS: tuple[tuple[str, str, tuple, str], ...] = (
    ("num_players", "int8", (), "3, 4 or 5"),
    ("edition", "int8", (), "2 (default) or 1: the first edition's set-up and end (docs: rulings)"),
    ("seed", "int64", (), "seed of the set-up draws (chance.py); not observed; a resampled state gets a new one"),
    ("round", "int16", (), "rounds begun, from 1"),
    ("phase", "int8", (), "decision awaited: index into PHASES"),
    ("turn", "int8", (), "position in the turn order of the player whose turn it is (0 = first)"),
    ("actions_left", "int8", (), "actions left in this turn, the one in progress included (2 or 1; 1 in round 1)"),
    ("card", "int8", (), "card kind played or discarded for the action in progress, -1 none"),
    ("combined", "int8", (), "1 if the build in progress is the combined build (both actions)"),
    ("build_space", "int16", (), "space of the build in progress, -1 none"),
    ("build_industry", "int8", (), "industry of the build in progress, -1 none"),
    ("rail_link", "int16", (), "link of the rail in progress, -1 none"),
    ("need_coal", "int8", (), "coal cubes still to deliver for the build or rail in progress"),
    ("need_iron", "int8", (), "iron cubes still to deliver for the build or rail in progress"),
    ("sell_from", "int16", (), "space sold from, awaiting its port or market, -1 none"),
    ("draws_left", "int8", (), "cards still to draw in the draw action in progress"),
    ("deck_pos", "int8", (), "cards dealt or drawn from the deck so far"),
    ("order", "int8", ("P",), "seat at each position of the turn order, -1 for absent seats"),
    ("spent", "int16", ("P",), "dollars each seat spent this round (builds, rails, demand-track cubes)"),
    ("money", "int32", ("P",), "dollars of each seat"),
    ("loans", "int16", ("P",), "loan tiles of each seat"),
    ("hand", "int8", ("P", "K"), "cards of each kind in each seat's hand (hidden from the other seats)"),
    ("known", "int8", ("P", "K"), "cards of each kind every other seat knows to be in the hand (taken face up)"),
    ("deck", "int8", ("C",), "card kind at each deck position in draw order, -1 once dealt or drawn (hidden)"),
    ("face_up", "int8", (NUM_FACE_UP,), "kind of each face-up card, -1 empty"),
    ("discard", "int8", ("K",), "cards of each kind in the discard pile (public)"),
    ("display", "int8", ("P", "D"), "counters left on each seat's display, per slot"),
    ("rails_left", "int8", ("P",), "rail counters left to each seat"),
    ("space_owner", "int8", ("S",), "seat of the counter on each space, -1 none"),
    ("space_industry", "int8", ("S",), "industry of the counter on each space, -1 none"),
    ("space_level", "int8", ("S",), "level of the counter on each space"),
    ("space_flipped", "int8", ("S",), "1 once the counter is flipped, or the market tile used"),
    ("space_no_flip", "int8", ("S",), "1 for a ship built over a ship: it never flips"),
    ("space_cubes", "int8", ("S",), "cubes on each space: a mine's coal, an iron works' iron, an import's coal"),
    ("space_tile", "int8", ("S",), "market tile kind on each market space (index into MARKET_KINDS), -1 none"),
    ("link_owner", "int8", ("L",), "seat of the rail counter on each link, -1 none (sea lanes are never owned)"),
    ("demand", "int8", (len(RESOURCES),), "cubes on the coal and iron demand track (filled from the dearest space)"),
)
SCALARS = tuple(name for name, _, shape, _ in FIELDS if shape == ())


def shape_of(spec: tuple, sizes: dict[str, int]) -> tuple[int, ...]:
    """The concrete shape of a declared shape, given the sizes of the symbols."""
    return tuple(sizes[x] if isinstance(x, str) else int(x) for x in spec)


@dataclass
class State:
    """Every entry of :data:`FIELDS`, as Python ints and (nested) lists of ints."""

    num_players: int
    edition: int
    seed: int
    round: int
    phase: int
    turn: int
    actions_left: int
    card: int
    combined: int
    build_space: int
    build_industry: int
    rail_link: int
    need_coal: int
    need_iron: int
    sell_from: int
    draws_left: int
    deck_pos: int
    order: list[int]
    spent: list[int]
    money: list[int]
    loans: list[int]
    hand: list[list[int]]
    known: list[list[int]]
    deck: list[int]
    face_up: list[int]
    discard: list[int]
    display: list[list[int]]
    rails_left: list[int]
    space_owner: list[int]
    space_industry: list[int]
    space_level: list[int]
    space_flipped: list[int]
    space_no_flip: list[int]
    space_cubes: list[int]
    space_tile: list[int]
    link_owner: list[int]
    demand: list[int]

    def copy(self) -> State:
        return State(**{k: _deep(v) for k, v in self.__dict__.items()})

    def to_dict(self) -> dict[str, Any]:
        return {k: _deep(v) for k, v in self.__dict__.items()}

    def arrays(self, sizes: dict[str, int]) -> dict[str, np.ndarray]:
        """Every entry as a numpy array of its declared dtype and shape (seats padded to 5 with zeros/-1)."""
        sizes = {"P": MAX_PLAYERS, **sizes}
        out = {}
        for name, dtype, spec, _ in FIELDS:
            value = getattr(self, name)
            shape = shape_of(spec, sizes)
            if "P" in spec:
                fill = -1 if name == "order" else 0
                arr = np.full(shape, fill, dtype)
                arr[: len(value)] = value
            else:
                arr = np.asarray(value, dtype).reshape(shape)
            out[name] = arr
        return out


def _deep(v: Any) -> Any:
    return [_deep(x) for x in v] if isinstance(v, list) else v


# The batched engine's State: every entry of FIELDS with a leading game axis (seats padded to 5), plus what a batch
# of games needs besides the position. Fill values of a fresh batch (the rest 0); a new game writes every entry.
BATCH_FILL = {name: -1 for name in ("card", "build_space", "build_industry", "rail_link", "sell_from", "order",
                                    "deck", "face_up", "space_owner", "space_industry", "space_tile", "link_owner")}
BATCH_EXTRA_FIELDS: tuple[tuple[str, str, tuple, str], ...] = (
    ("terminated", "bool", (), "the game is over (phase over, or ended by an illegal action)"),
    ("rewards", "float32", ("P",), "rewards of the last step: Game.returns() on the step that ends the game"),
)


def batch_schema(sizes: dict[str, int]) -> Schema:
    """The core Schema of a batch of games with these symbol sizes (``K``, ``D``, ``C``, ``S``, ``L``; ``P`` is 5):
    :data:`FIELDS` declared once, each with its dtype and shape per game."""
    sizes = {"P": MAX_PLAYERS, **sizes}
    return Schema(Field(name, np.dtype(dtype), shape_of(spec, sizes), BATCH_FILL.get(name, 0), doc)
                  for name, dtype, spec, doc in FIELDS + BATCH_EXTRA_FIELDS)  # fmt: skip
