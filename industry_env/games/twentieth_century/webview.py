"""20th Century in the browser (``industry-env serve``, once the game is listed): the picture, each choice's cost, a
look-up of any tile of any nation or offer, each move's effects and the scoring, in the words ``industry-env play``
prints (:mod:`.playtext`). Everything shown is public (ruling 36)."""

from __future__ import annotations

from typing import Any

from ...core import svg
from ...core.spec import GameSpec
from ...core.webview import PicturedView
from . import actions as A
from . import picture, playtext
from .geometry import WINDOW


class TwentiethCenturyView(PicturedView):
    """20th Century: the picture (no printed board: every part of it changes), each choice's cost, look-ups of
    tiles and offers, each move's effects, the scoring by source."""

    headings = {
        "land": "Land tiles",
        "bid": "Bid coins",
        "withdraw": "Withdraw",
        "tech": "Technologies",
        "catastrophe": "Catastrophe: bid science",
        "cell": "Cells",
        "rotate": "Turn the tile",
        "city": "Cities",
        "use": "Use a technology",
        "bridge": "Bridges",
    }

    def __init__(self, spec: GameSpec) -> None:
        super().__init__(spec)
        self.P, self.T = picture, playtext

    def board_of(self, game: Any) -> tuple[Any, Any]:
        return game.data, lambda: []  # the whole picture is the position

    def sketch(self, game: Any, seat: int | None) -> list[tuple]:
        return [p for items in self.P.sketch_position(game, seat).values() for p in items]

    def picture(self, game: Any, seat: int | None) -> str | None:
        """The position as an SVG document of the pictures' own size (1600 x 1000)."""
        return svg.document([], self.sketch(game, seat), width=self.P.WIDTH, height=self.P.HEIGHT,
                            title=self.spec.name)  # fmt: skip

    def text(self, game: Any, seat: int | None, full: bool = False) -> str:
        return self.T.board_text(game, 0 if seat is None else seat)

    def decision(self, game: Any) -> str:
        return self.P.describe_decision(game)

    def choice_text(self, game: Any, action: int) -> str:
        return self.T.choice_text(game, action)

    def places(self, game: Any) -> list[dict[str, str]]:
        """Every placed tile of every nation (``4,4 0``: cell 4,4 of player 0's), then the offers."""
        out = []
        for p in range(game.n):
            for c, code in enumerate(game.grid_tile[p]):
                if code >= 0:
                    x, y = A.cell_xy(c)
                    out.append(
                        {"key": f"{x},{y} {p}", "label": f"player {p}: {self.T.tile_name(game, code)} at {x},{y}"}
                    )
        for kind, offer in (("land", game.land_offer), ("tech", game.tech_offer)):
            out += [{"key": f"{kind} {s}", "label": f"{kind} offer {s}"} for s, t in enumerate(offer) if t >= 0]
        return out

    def lookup(self, game: Any, key: str, seat: int | None) -> str:
        return self.T.parse_info(game, 0 if seat is None else seat, key)

    def find(self, game: Any, key: str) -> str | None:
        """``tile-P-X-Y`` (a nation's tile) -> ``X,Y P``; ``land-S`` (an offered tile) -> ``land S``."""
        parts = key.split("-")
        if parts[0] == "tile" and len(parts) == 4 and all(s.isdigit() for s in parts[1:]):
            p, x, y = map(int, parts[1:])
            if p < game.n and x < WINDOW and y < WINDOW:
                return f"{x},{y} {p}"
        if parts[0] == "land" and len(parts) == 2 and parts[1].isdigit():
            return f"land {parts[1]}"
        return None

    def move_start(self, game: Any) -> Any:
        return game.clone()

    def move_done(self, game: Any, mover: int) -> bool:
        return self.T.move_done(game, mover)

    def move_effects(self, game: Any, start: Any, actions: list[int], mover: int, seat: int) -> list[str]:
        return [line.strip().removeprefix("-> ") for line in self.T.effect_lines(start, actions, game)]

    def final(self, game: Any) -> str:
        return self.T.score_table(game)
