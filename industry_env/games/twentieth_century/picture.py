"""Pictures of a 20th Century position for papers, notebooks, windows and replays: PNG, RGB arrays and SVG.

The picture shows the central board on the left (the round track with the round-II and round-IV scoring cards, the
land and technology offers with the auction under way, the technology cost track, the catastrophe card with its
columns and the pawns' bids, the points track) and one panel per player on the right: the player board (points,
coins and science, production, the pollution track, garbage cubes, technologies and tiles waiting to be attached)
over the nation, each tile drawn on its grid cell with its cities, citizens, production, recycling centres, rails,
bridge, institution and garbage cubes.

The printed tiles' drawings are lost (``docs/twentieth-century/components.md``): a tile is drawn from its rail-piece
graph as ``docs/twentieth-century/pictures.md`` says (cities at fixed places, each rail piece a hub with straight
spokes), so an owner's typed tiles draw the same way. Everything drawn is public (ruling 36): ``seat`` only marks
whose view it is. No picture shows the seed, the stacks' order or a face-down catastrophe.

It reads only a reference :class:`~industry_env.games.twentieth_century.reference.Game` and the data; it holds no
rule. matplotlib is an optional extra (``pip install 'industry_env[render]'``); this module imports without it.
The shared figure makes these functions unsafe from several threads at once, so a lock serialises them.

This module draws and offers the pictures (the game's spec and tools import it); what is drawn lies beside it:
:mod:`.picture_sketch` (the primitives, colours, a tile, a nation's cells), :mod:`.picture_board` (this picture's
layout: the central board and the players' boards, :func:`sketch_position`) and :mod:`.picture_page` (the
browser's one-column picture, :func:`sketch_page`).
"""

from __future__ import annotations

import json
import threading
from typing import TYPE_CHECKING, Any

import numpy as np

from ...core import gif as _gif
from ...core.figure import Pictures, matplotlib_parts, pixel_page, svg_document
from .picture_board import (  # the names after "noqa": offered here before the split, still importable here
    ABILITY_WORDS,  # noqa: F401
    CARD_TEXT,  # noqa: F401
    describe_decision,  # noqa: F401
    panels,  # noqa: F401
    regions,
    sketch_position,
)
from .picture_page import PAGE_WIDTH, sketch_page  # noqa: F401
from .picture_sketch import (
    BRIDGE_COLOUR,
    BUILDING_PLACE,  # noqa: F401
    CITY_PLACES,  # noqa: F401
    DPI,
    ERA_COLOURS,
    HEIGHT,
    INK,
    INSTITUTION_LETTERS,  # noqa: F401
    PHASE_WORDS,  # noqa: F401
    PICTURE_SHAPE,
    PLAYER_COLOURS,
    RECYCLE_COLOUR,
    RESOURCE_COLOURS,  # noqa: F401
    ROMAN,  # noqa: F401
    SCORE_WORDS,  # noqa: F401
    SIDE_POINTS,  # noqa: F401
    WIDTH,
    Sketch,  # noqa: F401
    nation_scale,  # noqa: F401
    sketch_tile,  # noqa: F401
)

if TYPE_CHECKING:
    from .reference import Game

_MISSING = _gif.MISSING_RENDER
_lock = threading.RLock()


# ================================================================================================ drawing
class _Canvas:
    """One figure for one player count: positions drawn on it, only the regions that changed redrawn."""

    def __init__(self, num_players: int) -> None:
        mpl = matplotlib_parts()
        self.patches, self.Line2D = mpl.patches, mpl.Line2D
        Figure, FigureCanvasAgg = mpl.Figure, mpl.FigureCanvasAgg
        self.regions = regions(num_players)
        self.fig, self.canvas, self.ax = pixel_page(Figure, FigureCanvasAgg, WIDTH, HEIGHT, DPI)
        self.background: Any = None
        self.frame = np.zeros(PICTURE_SHAPE, np.uint8)
        self.drawn: dict[str, tuple] = {}

    def _make(self, spec: tuple) -> Any:
        kind, args, kw = spec
        kw = dict(kw)
        if kind == "text":
            return self.ax.text(*args, **kw)
        if kind == "Line2D":
            return self.ax.add_line(self.Line2D(*args, **kw))
        art = getattr(self.patches, kind)(*args, **kw)
        self.ax.add_artist(art)
        return art

    def rgb(self, game: Game, seat: int | None) -> np.ndarray:
        sketch = {r: tuple(items) for r, items in sketch_position(game, seat).items()}
        if self.background is None:
            self.canvas.draw()
            self.background = self.canvas.copy_from_bbox(self.fig.bbox)
            self.frame[:] = np.asarray(self.canvas.buffer_rgba())[:, :, :3]
        changed = [r for r in self.regions if sketch.get(r, ()) != self.drawn.get(r, ())]
        if changed:
            self.canvas.restore_region(self.background)
            renderer = self.canvas.get_renderer()
            artists = [self._make(spec) for r in changed for spec in sketch.get(r, ())]
            try:
                for a in sorted(artists, key=lambda a: a.get_zorder()):
                    a.draw(renderer)
                buf = np.asarray(self.canvas.buffer_rgba())
                for r in changed:
                    x0, y0, x1, y1 = self.regions[r]
                    self.frame[y0:y1, x0:x1] = buf[y0:y1, x0:x1, :3]
                    self.drawn[r] = sketch.get(r, ())
            finally:
                for a in artists:
                    a.remove()
        return self.frame.copy()

    def svg(self, game: Game, seat: int | None, text_as_paths: bool = False) -> str:
        matplotlib = matplotlib_parts().matplotlib
        artists = [self._make(spec) for items in sketch_position(game, seat).values() for spec in items]
        return svg_document(matplotlib, self.fig, artists, text_as_paths)


_canvases: dict[int, _Canvas] = {}


def _canvas(game: Game) -> _Canvas:
    if game.n not in _canvases:
        _canvases[game.n] = _Canvas(game.n)
    return _canvases[game.n]


def to_rgb_array(game: Game, seat: int | None = None) -> np.ndarray:
    """The picture of ``game``'s position as ``uint8[1000, 1600, 3]`` (``PICTURE_SHAPE``): RGB, white background."""
    with _lock:
        return _canvas(game).rgb(game, seat)


def to_svg(game: Game, seat: int | None = None, text_as_paths: bool = False) -> str:
    """The same picture as an SVG document, 16 x 10 inches; each player's panel (``player-0``), each nation's tile
    (``tile-0-1--1``: seat, x, y from the starting tile's 0,0, either negative) and each offered land tile
    (``land-3``) is an element with its own id."""
    with _lock:
        return _canvas(game).svg(game, seat, text_as_paths)


PICTURES = Pictures("20th Century", to_rgb_array, to_svg,
                    swatch=(*PLAYER_COLOURS, *ERA_COLOURS.values(), RECYCLE_COLOUR, BRIDGE_COLOUR, INK), width=WIDTH,
                    dpi=DPI, requires=matplotlib_parts, where=f"{__name__}.save_png / to_svg")


# the shared picture front (core.figure.Pictures): PNG bytes and files (written atomically), the SVG file, the GIF
# writer keeping the players' colours, show (inline in a notebook, else one window)
to_png, save_png, save_svg, show = PICTURES.to_png, PICTURES.save_png, PICTURES.save_svg, PICTURES.show


GifWriter = PICTURES.gif_writer
_UNSEEN = ("seed", "land_stacks", "tech_stacks", "cat_stack")  # what no picture shows


def picture_key(game: Game) -> str:
    """What the picture shows, comparable: the saved position without the seed and the stacks' order."""
    doc = json.loads(game.to_json())
    for name in _UNSEEN:
        doc.pop(name, None)
    return json.dumps(doc, sort_keys=True)


EXAMPLE = {"num_players": 4, "seed": 3, "rounds": 4, "seat": 0}  # the docs' example picture


def example_game(num_players: int = 4, seed: int = 3, rounds: int = 4) -> Game:
    """A position for an example picture: seeded random moves (``random.Random(seed)``, withdrawing and 'done'
    weighted down so that nations grow), stopped at the first decision of round ``rounds + 1``."""
    import random

    from .reference import Game as ReferenceGame

    game, rng = ReferenceGame(num_players, seed), random.Random(seed)
    while not game.is_over and game.round <= rounds:
        legal = game.legal_actions()
        weights = [0.15 if game.action_to_string(a).split(" ")[0] in ("withdraw", "done", "pass") else 1.0
                   for a in legal]  # fmt: skip
        game.apply(rng.choices(legal, weights)[0])
    return game


def example_sketch() -> dict[str, list[tuple]]:
    """The drawing primitives of the docs' example picture (:data:`EXAMPLE`)."""
    spec = dict(EXAMPLE)
    seat = spec.pop("seat")
    return sketch_position(example_game(**spec), seat)


def example_png() -> bytes:
    """The docs' example picture (:data:`EXAMPLE`) as a palette PNG of 128 colours."""
    spec = dict(EXAMPLE)
    seat = spec.pop("seat")
    return to_png(example_game(**spec), seat, colours=128)


__all__ = [
    "EXAMPLE", "HEIGHT", "PAGE_WIDTH", "PICTURE_SHAPE", "PLAYER_COLOURS", "WIDTH", "GifWriter", "describe_decision",
    "example_game", "example_png", "example_sketch", "picture_key", "save_png", "save_svg", "show",
    "sketch_page", "sketch_position", "to_png", "to_rgb_array", "to_svg",
]  # fmt: skip
