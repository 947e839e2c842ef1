"""20th Century's nation as the shipped policy sees it: the 9 x 9 window around the starting tile.

Why this exists: the shipped trained policy (``data/ppo_twentieth_century.npz``) predates the lifting of ruling 18.
It was trained when a nation lay on a fixed 9 x 9 grid of cells, its starting tile at the centre, and its
observation and actions named those 81 cells. Since then a nation is unbounded and addressed by its tiles' slots
(the order attached; each slot records its tile's cell), so the observation and the actions changed layout. It
cannot be retrained now; this module translates the current layout into the one it knows, exactly, so that it
keeps playing. The policy sees a nation through the 9 x 9 window around its starting tile: the tiles inside it as
before, the tiles outside it not at all, and it cannot name a move on a cell outside it.

The window layout (``WINDOW_*``), exactly as the policy was trained on it:

- **observation** (:func:`window_layout`, :data:`WINDOW_OBSERVATION_SIZE` floats for the shipped components): the
  pieces of today's :func:`.observation.layout` in the same order, except ``grids``, which is (5 seats, 81 cells,
  54 features): the cell (x, y) from the starting tile (|x|, |y| <= 4) at window cell ``(y + 4) * 9 + (x + 4)``
  (the starting tile at cell 40), its features today's grids columns 0..53 of the slot holding it (today's
  columns 54 and 55, the slot's cell, are dropped: the window cell says where it is); every other cell, and every
  tile outside the window, all zeros. ``selection``'s entries 1 and 2 were (x + 4) / 8 and (y + 4) / 8 where today
  they are x / 8 and y / 8: 0.5 more when entry 0 ('present') is 1, else 0.
- **actions** (:data:`WINDOW_NUM_ACTIONS` = 521): land, bid, pass, withdraw, tech and catastrophe as today (0 ..
  177); CELL 178 .. 258, window cell c (x = c % 9 - 4, y = c // 9 - 4): in phase ``attach_cell`` the empty cell
  to attach on, otherwise the tile on that cell; ROTATE 259 .. 262; CITY 263 .. 505, window cell c's city j at
  263 + 3c + j; USE 506 .. 515; BRIDGE 516 .. 519; DONE 520.

:func:`window_observation` gives the window observation of a batch of today's observations;
:func:`window_actions` gives, for each of today's actions, the window action naming the same move (-1 where
there is none: a cell outside the window), read from the observer's grids (seat 0 of the egocentric observation:
the seat to move when it acts). Today's PLACE k d (the empty cell beside slot k toward ``geometry.DIRECTIONS[d]``)
and TILE k (slot k's tile) both become the window CELL of their cell, CITY k j the window CITY of slot k's cell.
:func:`older_layout` bundles them for the game's spec (``GameSpec.older_layouts``), through which the ``ppo``
agent plays a policy of this layout. Pure numpy over the batch: no loop over games, slots or cells.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from ...core.spec import OlderLayout, Piece, layout
from . import actions as A
from .components import MAX_CITIES, GameData, load_data
from .geometry import DIRECTIONS, MAX_TILES
from .observation import CELL_FEATURES
from .observation import layout as observation_pieces
from .rules import MAX_PLAYERS

WINDOW = 9  # the window's side in cells, the starting tile at its centre
HALF = WINDOW // 2  # |x|, |y| <= HALF inside the window
WINDOW_CELLS = WINDOW * WINDOW  # 81
WINDOW_CELL_FEATURES = 54  # today's grids columns 0..53; columns 54 and 55 (the slot's cell) came later
assert CELL_FEATURES == WINDOW_CELL_FEATURES + 2, "the window's cell features are today's less the cell (x, y)"

# The window's action blocks: land .. catastrophe as today, then cell, rotate, city, use, bridge, done.
WINDOW_CELL = A.PLACE  # the first action after the catastrophe block (178)
WINDOW_ROTATE = WINDOW_CELL + WINDOW_CELLS
WINDOW_CITY = WINDOW_ROTATE + A.SIZE["rotate"]
WINDOW_USE = WINDOW_CITY + WINDOW_CELLS * MAX_CITIES
WINDOW_BRIDGE = WINDOW_USE + A.SIZE["use"]
WINDOW_DONE = WINDOW_BRIDGE + A.SIZE["bridge"]
WINDOW_NUM_ACTIONS = WINDOW_DONE + 1
assert WINDOW_NUM_ACTIONS == 521, "the shipped policy's 521 actions"
LAYOUT_NAME = "window"  # the older layout's name (OlderLayout.name)


def window_layout(data: GameData | None = None) -> tuple[Piece, ...]:
    """The window observation's pieces (today's, ``grids`` as 5 seats x 81 window cells x 54 features)."""
    pieces = []
    for name, shape, doc in observation_pieces(_shipped() if data is None else data):
        if name == "grids":
            shape, doc = (MAX_PLAYERS, WINDOW_CELLS, WINDOW_CELL_FEATURES), (
                "per seat, per cell of the 9 x 9 window around the starting tile (the cell (x, y) at (y + 4) * 9 + "
                "x + 4): today's grids columns 0..53 of the slot holding it; zeros for an empty cell")  # fmt: skip
        pieces.append((name, shape, doc))
    return layout(pieces)


def _size(pieces: tuple[Piece, ...]) -> int:
    return pieces[-1].offset + pieces[-1].size


_PIECES: dict[str, tuple[dict[str, Piece], dict[str, Piece], int, int]] = {}  # by the components' sha256
_OLDER: dict[str, OlderLayout] = {}  # older_layout's, by the components' sha256


@functools.cache
def _shipped() -> GameData:
    """The shipped components, read once (``load_data`` reads its files at every call)."""
    return load_data()


def _layouts(data: GameData | None) -> tuple[dict[str, Piece], dict[str, Piece], int, int]:
    """Today's and the window's pieces by name and both vectors' sizes (kept per component set)."""
    d = _shipped() if data is None else data
    kept = _PIECES.get(d.sha256)
    if kept is None:
        new, old = layout(observation_pieces(d)), window_layout(d)
        _PIECES[d.sha256] = kept = ({p.name: p for p in new}, {p.name: p for p in old}, _size(new), _size(old))
    return kept


WINDOW_OBSERVATION_SIZE = _size(window_layout())  # 23,006 for the shipped components


def _batch(obs: Any, size: int) -> np.ndarray:
    """float32[B, size] of one observation or a batch; ValueError for another width."""
    x = np.asarray(obs, np.float32)
    x = x[None] if x.ndim == 1 else x
    if x.ndim != 2 or x.shape[1] != size:
        raise ValueError(f"expected 20th Century observations of {size} floats (shape [B, {size}]), got shape "
                         f"{list(np.shape(obs))}")  # fmt: skip
    return x


def _cells(grids: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """From grids float32[..., MAX_TILES, CELL_FEATURES]: each slot's (present, x, y, inside the window) by slot."""
    present = grids[..., 0] != 0
    x = np.rint(grids[..., 54] * 8).astype(np.int64)
    y = np.rint(grids[..., 55] * 8).astype(np.int64)
    inside = present & (np.abs(x) <= HALF) & (np.abs(y) <= HALF)
    return present, x, y, inside


def _window_cell(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The window cell of (x, y) (meaningful inside the window only)."""
    return (y + HALF) * WINDOW + (x + HALF)


def window_observation(obs: Any, data: GameData | None = None) -> np.ndarray:
    """float32[B, WINDOW_OBSERVATION_SIZE]: today's observations float32[B, D] (or one, [D]) in the window layout
    (module docstring): every piece copied, each seat's tiles inside the window moved from their slots to their
    window cells (their first 54 features), ``selection``'s cell shifted by 0.5 where present."""
    new, old, size, old_size = _layouts(data)
    x = _batch(obs, size)
    b = x.shape[0]
    out = np.zeros((b, old_size), np.float32)
    for name, p in new.items():
        if name != "grids":
            out[:, old[name].slice] = x[:, p.slice]
    grids = x[:, new["grids"].slice].reshape(b, MAX_PLAYERS, MAX_TILES, CELL_FEATURES)
    _, cx, cy, inside = _cells(grids)
    window = np.zeros((b, MAX_PLAYERS, WINDOW_CELLS, WINDOW_CELL_FEATURES), np.float32)
    rows, seats, slots = np.nonzero(inside)
    window[rows, seats, _window_cell(cx, cy)[rows, seats, slots]] = grids[rows, seats, slots, :WINDOW_CELL_FEATURES]
    out[:, old["grids"].slice] = window.reshape(b, -1)
    sel = old["selection"].offset
    out[:, sel + 1 : sel + 3] += np.where(out[:, sel : sel + 1] == 1, np.float32(0.5), np.float32(0))
    return out


_FIXED = np.full(A.NUM_ACTIONS, -1, np.int64)  # today's action -> the window's, for the blocks that name no cell
_FIXED[: A.PLACE] = np.arange(A.PLACE)  # land, bid, pass, withdraw, tech, catastrophe
_FIXED[A.ROTATE : A.ROTATE + A.SIZE["rotate"]] = np.arange(WINDOW_ROTATE, WINDOW_CITY)
_FIXED[A.USE : A.USE + A.SIZE["use"]] = np.arange(WINDOW_USE, WINDOW_BRIDGE)
_FIXED[A.BRIDGE : A.BRIDGE + A.SIZE["bridge"]] = np.arange(WINDOW_BRIDGE, WINDOW_DONE)
_FIXED[A.DONE] = WINDOW_DONE
_FIXED.setflags(write=False)
_DX = np.array([d[0] for d in DIRECTIONS], np.int64)
_DY = np.array([d[1] for d in DIRECTIONS], np.int64)


def window_actions(obs: Any, data: GameData | None = None) -> np.ndarray:
    """int64[B, NUM_ACTIONS]: for each of today's actions the window action (module docstring) naming the same move
    for the observer (seat 0 of the observations, the seat to move when it acts), -1 where there is none.

    PLACE k d: the window CELL of the cell beside slot k toward DIRECTIONS[d]; TILE k: the window CELL of slot k's
    cell; CITY k j: the window CITY j of slot k's cell; -1 for an empty slot or a cell outside the window. The
    other blocks map one to one (the window's numbers), whatever the position."""
    new, _, size, _ = _layouts(data)
    x = _batch(obs, size)
    b = x.shape[0]
    out = np.broadcast_to(_FIXED, (b, A.NUM_ACTIONS)).copy()
    g = x[:, new["grids"].slice].reshape(b, MAX_PLAYERS, MAX_TILES, CELL_FEATURES)[:, 0]  # the observer's nation
    present, cx, cy, inside = _cells(g)
    cell = _window_cell(cx, cy)  # [B, MAX_TILES]
    out[:, A.TILE : A.TILE + MAX_TILES] = np.where(inside, WINDOW_CELL + cell, -1)
    city = WINDOW_CITY + cell[:, :, None] * MAX_CITIES + np.arange(MAX_CITIES)
    out[:, A.CITY : A.CITY + MAX_TILES * MAX_CITIES] = np.where(inside[:, :, None], city, -1).reshape(b, -1)
    px, py = cx[:, :, None] + _DX, cy[:, :, None] + _DY  # [B, MAX_TILES, 8]: the cell beside each slot
    beside = present[:, :, None] & (np.abs(px) <= HALF) & (np.abs(py) <= HALF)
    out[:, A.PLACE : A.PLACE + MAX_TILES * A.NUM_DIRECTIONS] = np.where(beside, WINDOW_CELL + _window_cell(px, py),
                                                                        -1).reshape(b, -1)  # fmt: skip
    return out


def older_layout(data: GameData | None = None) -> OlderLayout:
    """The window layout as the game's spec offers it (``GameSpec.older_layouts``): what a policy trained on it
    reads and gives, and how today's observations and actions translate into it (kept per component set)."""
    d = _shipped() if data is None else data
    older = _OLDER.get(d.sha256)
    if older is None:
        doc = "the 9 x 9 window of cells around each starting tile, before ruling 18 was lifted (the shipped policy's)"
        older = OlderLayout(name=LAYOUT_NAME, doc=doc, pieces=window_layout(d), num_actions=WINDOW_NUM_ACTIONS,
                            observation=functools.partial(window_observation, data=d),
                            actions=functools.partial(window_actions, data=d))  # fmt: skip
        _OLDER[d.sha256] = older
    return older
