"""Industry in the browser (``industry-env serve``): the board's grid, what each choice costs, a field's look-up and
the scoring table, in the words ``industry-env play`` prints (:mod:`.render`)."""

from __future__ import annotations

from typing import Any

from ...core.spec import GameSpec
from ...core.webview import PicturedView
from . import picture, render
from .components import field_id, field_index


class IndustryView(PicturedView):
    """Industry: the board's grid, what each choice costs, a field's look-up, the scoring table."""

    headings = {
        "auction": "Put a field up for auction",
        "subsidy": "Take the subsidy instead",
        "bid": "Bid for the field",
        "sell": "Sell the field to the highest bidder, or keep it",
        "keep": "Sell the field to the highest bidder, or keep it",
        "develop": "Develop",
        "pay": "Pay for a resource",
    }

    def __init__(self, spec: GameSpec) -> None:
        super().__init__(spec)
        self.P, self.R = picture, render

    def board_of(self, game: Any) -> tuple[Any, Any]:
        return game.board, lambda: self.P.sketch_board(game.board)

    def sketch(self, game: Any, seat: int | None) -> list[tuple]:
        return [p for items in self.P.sketch_position(game).values() for p in items]

    def decision(self, game: Any) -> str:
        return self.R.describe_decision(game)

    def choice_text(self, game: Any, action: int) -> str:
        return self.R.describe_choice(game, action)

    def places(self, game: Any) -> list[dict[str, str]]:
        return [{"key": field_id(f), "label": f"{field_id(f)} {name}"} for f, name in enumerate(game.board.field_names)]

    def lookup(self, game: Any, key: str, seat: int | None) -> str:
        try:
            f = field_index(key)
        except ValueError:
            raise ValueError(f"no field {key!r}: give its id, era 1-5 and column A-L ('1E')") from None
        return self.R.field_info(game, f, seat)

    def find(self, game: Any, key: str) -> str | None:
        parts = key.split("-")  # network-river-1B, road-1D-1E: the first field named
        for part in parts:
            try:
                field_index(part)
                return part
            except ValueError:
                continue
        return None

    def final(self, game: Any) -> str:
        return self.R.score_table(game)
