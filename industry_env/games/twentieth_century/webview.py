"""20th Century in the browser (``industry-env serve``, once the game is listed): the picture, each choice's cost, a
look-up of any tile of any nation or offer, each move's effects and the scoring, in the words ``industry-env play``
prints (:mod:`.playtext`). Everything shown is public (ruling 36)."""

from __future__ import annotations

import re
from typing import Any

from ...core import svg
from ...core.spec import GameSpec
from ...core.webview import PicturedView
from . import actions as A
from . import picture, playtext

# A nation's elements in the picture: a tile, an empty cell of the decision at hand, a city (seat, x, y[, city]).
_ELEMENT = re.compile(r"(tile|cell|city)-(\d)-(-?\d{1,3})-(-?\d{1,3})(?:-([abc]))?")


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
        "place": "Cells",
        "tile": "Cells",
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
        return self.P.sketch_page(game, seat)[0]

    def picture(self, game: Any, seat: int | None) -> str | None:
        """The position as the browser's page (:func:`.picture.sketch_page`): one column as wide as the page gives
        it beside the choices at 1280 x 720 pixels, every text 11 pixels or more there, every nation at one scale."""
        primitives, width, height = self.P.sketch_page(game, seat)
        return svg.document([], primitives, width=width, height=height, title=self.spec.name)

    def text(self, game: Any, seat: int | None, full: bool = False) -> str:
        return self.T.board_text(game, 0 if seat is None else seat)

    def decision(self, game: Any) -> str:
        return self.P.describe_decision(game)

    def choice_text(self, game: Any, action: int) -> str:
        return self.T.choice_text(game, action)

    def choices(self, game: Any) -> list[dict[str, Any]]:
        """The choices grouped as :class:`~industry_env.core.webview.View` groups them, except the bids: a land
        tile's bids are one block headed by what winning it brings (the cubes it comes with), labelled by their coins;
        a catastrophe's bids one block a column, headed by what the column gives, labelled by their science (as the
        terminal lists them)."""
        out = []
        for group in super().choices(game):
            actions = [c["action"] for c in group["choices"]]
            kind = A.block_of(actions[0])[0]
            if kind == "bid":
                coins = [game.action_to_string(a).partition(" (")[2].split(" ")[0] for a in actions]
                out.append({"title": self.T.bid_heading(game)[:1].upper() + self.T.bid_heading(game)[1:],
                            "choices": [{"action": a, "label": f"{c} coins", "detail": ""}
                                        for a, c in zip(actions, coins, strict=True)]})  # fmt: skip
            elif kind == "catastrophe":
                columns: dict[int, list[int]] = {}
                for a in actions:
                    columns.setdefault((a - A.CATASTROPHE) // A.NUM_CAT_BIDS, []).append(a)
                for c, bids in columns.items():
                    heading = self.T.column_heading(game, c)
                    out.append({"title": heading[:1].upper() + heading[1:],
                                "choices": [{"action": a, "label": f"{(a - A.CATASTROPHE) % A.NUM_CAT_BIDS}",
                                             "detail": ""} for a in bids]})  # fmt: skip
            elif kind in ("place", "tile", "city"):  # named by their cells, as a person reads and types them
                choices = []
                for a in actions:
                    label, full = self.T.action_name(game, a), self.choice_text(game, a)
                    detail = full[len(label) + 2 :] if full.startswith(label + ": ") else full.removeprefix(label)
                    choices.append({"action": a, "label": label, "detail": detail})
                out.append({"title": group["title"], "choices": choices})
            else:
                out.append(group)
        return out

    def places(self, game: Any) -> list[dict[str, str]]:
        """Every placed tile of every nation (``1,-1 0``: cell 1,-1 of player 0's, from its starting tile's 0,0),
        then the offers."""
        out = []
        for p in range(game.n):
            for c, code in enumerate(game.grid_tile[p]):
                if code >= 0:
                    x, y = game.cell_of(p, c)
                    out.append(
                        {"key": f"{x},{y} {p}", "label": f"player {p}: {self.T.tile_name(game, code)} at {x},{y}"}
                    )
        for kind, offer in (("land", game.land_offer), ("tech", game.tech_offer)):
            out += [{"key": f"{kind} {s}", "label": f"{kind} offer {s}"} for s, t in enumerate(offer) if t >= 0]
        return out

    def lookup(self, game: Any, key: str, seat: int | None) -> str:
        return self.T.parse_info(game, 0 if seat is None else seat, key)

    def find(self, game: Any, key: str) -> str | None:
        """``tile-P-X-Y`` (a nation's tile; X, Y may be negative: ``tile-0--1-2``), ``cell-P-X-Y`` (an empty cell
        of the decision at hand) or ``city-P-X-Y-B`` (a city of it) -> ``X,Y P``; ``land-S`` (an offered tile) ->
        ``land S``."""
        m = _ELEMENT.fullmatch(key)
        if m and int(m[2]) < game.n:
            return f"{int(m[3])},{int(m[4])} {int(m[2])}"
        parts = key.split("-")
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
