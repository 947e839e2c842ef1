"""Age of Industry in the browser (``industry-env serve``): the map, the seat's own hand only, each choice's price, a
location's look-up and the scoring, in the words ``industry-env play`` prints (:mod:`.playtext`)."""

from __future__ import annotations

from typing import Any

from ...core.spec import GameSpec
from ...core.webview import PicturedView
from . import picture, playtext


class AgeOfIndustryView(PicturedView):
    """Age of Industry: the map, the seat's own hand only, each choice's price, a location's look-up, the scoring."""

    headings = {
        "build": "Build",
        "rail": "Build a rail link",
        "draw": "Draw cards",
        "source": "Take coal or iron from",
        "remove": "Remove a counter from your display",
        "repay": "Repay a loan",
        "sell": "Sell",
    }

    def __init__(self, spec: GameSpec) -> None:
        super().__init__(spec)
        self.P, self.T = picture, playtext

    def board_of(self, game: Any) -> tuple[Any, Any]:
        return game.map, lambda: self.P.sketch_map(game.map, game.components.colours)

    def sketch(self, game: Any, seat: int | None) -> list[tuple]:
        return [p for items in self.P.sketch_position(game, seat).values() for p in items]

    def decision(self, game: Any) -> str:
        return self.P.describe_decision(game)

    def choice_text(self, game: Any, action: int) -> str:
        return self.T.choice_text(game, action)

    def places(self, game: Any) -> list[dict[str, str]]:
        return [{"key": name, "label": name.replace("_", " ")} for name in game.map.location_names]

    def lookup(self, game: Any, key: str, seat: int | None) -> str:
        names = list(game.map.location_names)
        if key in names:
            found = [names.index(key)]
        else:
            found = self.T.find_locations(game, key)  # ValueError naming the text when nothing matches
        # a location's look-up ends with what the seat could build there, from its own hand: the public view
        # (no seat) leaves that out by asking for the game over
        if seat is None:
            return "\n".join(self.T.location_info(game, x, 0).split("\n  you could build here now:")[0] for x in found)
        return "\n".join(self.T.location_info(game, x, seat) for x in found)

    def find(self, game: Any, key: str) -> str | None:
        slug = {name.replace(" ", "_"): name for name in game.map.location_names}
        for prefix in ("location-", "space-"):
            if key.startswith(prefix):
                rest = key[len(prefix) :]
                name = rest.rsplit("-", 1)[0] if prefix == "space-" else rest
                return slug.get(name)
        return None

    def move_start(self, game: Any) -> Any:
        return game.clone()

    def move_done(self, game: Any, mover: int) -> bool:
        return game.is_over or game.phase == "action" or game.current_player != mover

    def move_effects(self, game: Any, start: Any, actions: list[int], mover: int, seat: int) -> list[str]:
        """The terminal's summary of a move (``industry-env play``): money, loans, counters, cubes, cards as the
        seat may know them, then the end of the round if it ended (turn order, interest)."""
        ended = game.is_over or game.s.round != start.s.round
        moved = self.T.action_result(start, actions) if ended else game
        words = self.T.effect_phrases(game, start.s, moved.s, mover, seat, actions=actions)
        lines = [", ".join(words)] if words else []
        if ended:
            lines += [line.strip() for line in self.T.round_end_lines(moved.s, game.s, game, seat)]
        return lines

    def final(self, game: Any) -> str:
        return self.T.score_table(game)
